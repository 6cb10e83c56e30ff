/*
 * Fuzz harness for the live view (report/live.c): any bytes, fed in
 * pieces whose sizes the input's first bytes choose (a pipe delivers a
 * line in several reads), must be drawn as frames, lines or refused,
 * never crash; the view's line splitting and interval grouping run on
 * every piece, the importer on every completed interval.
 *
 * FUZZ_SOURCES: util/*.c analyze/*.c report/*.c metrics/*.c parse/*.c collect/*.c
 * FUZZ_PKGS: jansson libtraceevent libzstd libdw zlib
 * Seeds: tests/fuzz/seed-live.sh (the perf stat outputs fuzz-stat uses).
 */
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;

static void setup(void)
{
	char root[4096];
	char *cut;

	if (devnull)
		return;
	snprintf(root, sizeof(root), "%s", __FILE__);
	cut = strstr(root, "/tests/fuzz/");
	if (cut) {
		*cut = '\0';
		setenv("TDPERF_DATADIR", root, 1);
	}
	devnull = fopen("/dev/null", "w");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct td_live *lv;
	size_t off = 2, piece;
	int ok = 1;

	setup();
	if (size < 2)
		return 0;
	lv = td_live_new(NULL, devnull, data[0] & 1);
	piece = 1 + data[1] % 97;
	while (ok && off < size) {
		size_t n = size - off < piece ? size - off : piece;

		ok = td_live_feed(lv, (const char *)data + off, n, &err) == 0;
		off += n;
		piece = 1 + (piece * 31 + 7) % 211;
	}
	if (ok)
		td_live_finish(lv, &err);
	td_live_free(lv);
	strbuf_release(&err);
	return 0;
}
