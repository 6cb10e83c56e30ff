/*
 * Fuzz harness for run directories (docs/run-format.md): a run directory is
 * user input to report, diff and explain, written by another machine or
 * crafted.  The input is split at its first NUL byte into meta.json and the
 * file it lists (input/in.txt); the rest, after a second NUL, becomes
 * table.json.  Loading and reporting it must not crash whatever the types,
 * versions and names in meta.json, and a file it names outside the run
 * directory is never read: a canary file next to the run holds a line of
 * perf stat output, and no report may hold its marker count.
 *
 * FUZZ_SOURCES: util/*.c analyze/*.c report/*.c metrics/*.c parse/*.c collect/*.c
 * FUZZ_PKGS: jansson libtraceevent libzstd libdw zlib
 * Seeds: tests/fuzz/seed-rundir.sh (runs imported from the fixtures).
 */
#define _GNU_SOURCE 1 /* memmem */
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char base[96], run[128];

static void put(const char *dir, const char *name, const void *data, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (len && fwrite(data, 1, len, f) != len)
		abort();
	fclose(f);
}

/* Templates from this source tree, no gnuplot, a canary outside the run. */
static void setup(void)
{
	static const char canary[] = "     424242424242      task-clock\n\n   1.0 seconds time elapsed\n";
	char root[4096], *cut;

	if (base[0])
		return;
	snprintf(root, sizeof(root), "%s", __FILE__);
	cut = strstr(root, "/tests/fuzz/");
	if (cut) {
		*cut = '\0';
		setenv("TDPERF_DATADIR", root, 1);
	}
	setenv("TDPERF_GNUPLOT", "/nonexistent/gnuplot", 1);
	snprintf(base, sizeof(base), "/tmp/tdperf-fuzz-run-%d", (int)getpid());
	snprintf(run, sizeof(run), "%s/run", base);
	td_mkdir_p(base);
	put(base, "canary.txt", canary, strlen(canary));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *meta = (const char *)data, *end = meta + size;
	const char *in = memchr(meta, '\0', size), *table = NULL;
	struct td_report_opts opts = { 0 };
	struct strbuf err = STRBUF_INIT;
	json_t *doc;

	setup();
	if (!in)
		return 0;
	in++;
	table = memchr(in, '\0', (size_t)(end - in));
	td_remove_tree(run);
	td_mkdir_p(run);
	{
		char input[160];

		snprintf(input, sizeof(input), "%s/input", run);
		td_mkdir_p(input);
	}
	put(run, "meta.json", meta, (size_t)(in - 1 - meta));
	put(run, "input/in.txt", in, (size_t)((table ? table : end) - in));
	if (table)
		put(run, "table.json", table + 1, (size_t)(end - table - 1));
	doc = td_report_load(run, &opts, &err);
	if (doc) {
		char *text = json_dumps(doc, 0);

		/* the canary lies outside the run: its count must never be read */
		if (text && strstr(text, "424242424242") && !memmem(data, size, "424242424242", 12))
			abort();
		free(text);
		json_decref(doc);
	}
	strbuf_release(&err);
	return 0;
}
