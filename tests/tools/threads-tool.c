/*
 * threads-tool: a test helper (not installed) that runs the thread
 * analysis on a run directory or perf.data file and prints the report
 * document's "threads"/"sweep" objects as JSON, or their text rendering.
 * It lets the t08xx tests check the analysis end to end independently of
 * the rest of 'tdperf report'.
 *
 *     threads-tool json|text RUN-OR-PERF.DATA
 *
 * Exit status: 0, 1 when the input has no sched events, 2 on bad input.
 */
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	json_t *doc;
	int ret = 0;

	if (argc != 3 || (strcmp(argv[1], "json") && strcmp(argv[1], "text"))) {
		fprintf(stderr, "usage: threads-tool json|text RUN-OR-PERF.DATA\n");
		return 2;
	}
	doc = json_object();
	if (td_report_add_threads(doc, argv[2], &err) < 0) {
		error("%s", err.buf);
		ret = 2;
		goto out;
	}
	if (!strcmp(argv[1], "json")) {
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(9));
		putchar('\n');
	} else {
		td_report_text_threads(doc, &text);
		fputs(text.buf, stdout);
	}
	if (json_is_null(json_object_get(doc, "threads")) && json_is_null(json_object_get(doc, "sweep"))) {
		fprintf(stderr, "threads-tool: %s: no sched events\n", argv[2]);
		ret = 1;
	}
out:
	json_decref(doc);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}
