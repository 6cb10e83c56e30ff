/*
 * Fuzz harness for the renderers' reading of report documents: saved
 * report JSON is user input to 'tdperf diff', so any JSON value must chart,
 * build a CPI stack, diff and render as text and HTML without crashing,
 * whatever types and shapes its fields have.  (gnuplot is not run: the
 * chart data are built, the pictures left out.)
 *
 * FUZZ_SOURCES: util/*.c analyze/*.c report/*.c metrics/*.c parse/*.c collect/*.c
 * FUZZ_PKGS: jansson libtraceevent libzstd libdw zlib
 * Seeds: tests/fuzz/seed-report-render.sh (generated documents).
 */
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char out_html[64];

/* Templates from this source tree; no gnuplot; one scratch output file. */
static void setup(void)
{
	static int done;
	char root[4096];
	char *cut;

	if (done)
		return;
	done = 1;
	snprintf(root, sizeof(root), "%s", __FILE__);
	cut = strstr(root, "/tests/fuzz/");
	if (cut) {
		*cut = '\0';
		setenv("TDPERF_DATADIR", root, 1);
	}
	setenv("TDPERF_GNUPLOT", "/nonexistent/gnuplot", 1);
	snprintf(out_html, sizeof(out_html), "/tmp/tdperf-fuzz-%d.html", (int)getpid());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
	struct td_chart_list charts = { 0 };
	struct strbuf err = STRBUF_INIT;
	json_t *scope, *diff;
	FILE *devnull;
	size_t i;

	setup();
	if (!doc)
		return 0;
	if (json_is_object(doc)) {
		/* get past the document check, to reach the renderers */
		json_object_set_new(doc, "schema", json_string("tdperf-report"));
		json_object_set_new(doc, "version", json_integer(1));
	}
	td_report_render_html(doc, out_html, &err);
	strbuf_reset(&err);
	td_charts_for_report(doc, &charts);
	td_chart_list_release(&charts);
	json_array_foreach(json_object_get(doc, "scopes"), i, scope) {
		json_t *k1 = td_report_cpi_stack(scope, 1), *k2 = td_report_cpi_stack(scope, 2);

		json_decref(k1);
		json_decref(k2);
	}
	diff = td_diff_build(doc, "a", NULL, doc, "b", NULL, &err);
	if (diff) {
		devnull = fopen("/dev/null", "w");
		if (devnull) {
			td_diff_render_text(diff, devnull);
			fclose(devnull);
		}
		td_charts_for_diff(diff, &charts);
		td_chart_list_release(&charts);
		td_diff_render_html(diff, out_html, &err);
		json_decref(diff);
	}
	strbuf_release(&err);
	json_decref(doc);
	unlink(out_html);
	return 0;
}
