/*
 * libFuzzer harness for the hotspots path: any byte string opened as a
 * perf.data goes through the process-map tracking of the symbolizer
 * (MMAP/MMAP2, COMM exec, FORK, the BUILD_ID feature), the call-chain
 * cache, the call-path tree with group-count deltas, and the text, CSV and
 * JSON of the result.  No file is read for symbols (td_sym_offline), so a
 * run depends on the input alone.  Must never crash, hang or leak.
 *
 * FUZZ_SOURCES: util/*.c parse/*.c metrics/*.c analyze/hotspots-load.c analyze/hotspots-chains.c analyze/hotspots-mpi.c report/hotspots-text.c
 * FUZZ_PKGS: libtraceevent libzstd libdw jansson
 * Seeds: tests/fuzz/seed-hotspots.sh (files perf records here).
 */
#include "parse/parse.h"
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct td_pd *pd = td_pd_open_mem(data, size, "fuzz", 0, &err);
	json_t *doc;
	FILE *null;

	if (!pd) {
		strbuf_release(&err);
		return 0;
	}
	doc = td_hotspots_load_pd(pd, "fuzz", NULL, TD_HOT_CALLPATHS | TD_HOT_NO_FILES, &err);
	if (doc && (null = fopen("/dev/null", "w"))) {
		td_hotspots_render_text(doc, 10, null);
		td_hotspots_render_csv(doc, null);
		fclose(null);
	}
	json_decref(doc);
	td_pd_close(pd);
	strbuf_release(&err);
	return 0;
}
