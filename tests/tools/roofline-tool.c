/*
 * roofline-tool: the roofline step of the report on a report document, for
 * the t09xx tests until every report path calls it.
 *
 *   roofline-tool DOC.json                 print the document's "roofline" object
 *   roofline-tool DOC.json --plot DIR [FMT]  also write DIR/roofline.gp and render it
 *   roofline-tool DOC.json --script        print the chart's gnuplot script
 *   roofline-tool DOC.json --html FILE     also write the HTML report of the document
 *
 * Exit 0, 1 when nothing could be drawn, 2 on bad input.
 */
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

#include <string.h>

int main(int argc, char **argv)
{
	json_error_t jerr;
	json_t *doc;
	struct strbuf err = STRBUF_INIT, gp = STRBUF_INIT;
	int ret = 0;

	if (argc < 2)
		die("usage: roofline-tool DOC.json [--plot DIR [svg|png] | --script | --html FILE]");
	doc = json_load_file(argv[1], 0, &jerr);
	if (!doc)
		die("%s:%d: %s", argv[1], jerr.line, jerr.text);
	if (td_report_add_roofline(doc, &err) < 0)
		die("%s", err.buf);
	if (argc > 3 && !strcmp(argv[2], "--html")) {
		if (td_report_render_html(doc, argv[3], &err) < 0) {
			error("%s", err.buf);
			ret = 2;
		}
	} else if (argc > 2 && !strcmp(argv[2], "--script")) {
		if (td_roofline_script(doc, &gp, NULL) < 0)
			ret = 1;
		fputs(gp.buf, stdout);
	} else {
		json_dumpf(json_object_get(doc, "roofline"), stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		if (argc > 3 && !strcmp(argv[2], "--plot")) {
			ret = td_report_plot_roofline(doc, argv[3], argc > 4 ? argv[4] : "svg", &err);
			if (ret)
				error("%s", err.buf);
			ret = ret < 0 ? 2 : ret;
		}
	}
	json_decref(doc);
	strbuf_release(&err);
	strbuf_release(&gp);
	return ret;
}
