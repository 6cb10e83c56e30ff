/*
 * HTML report: not built yet.
 */
#include "report/report.h"

int td_report_render_html(json_t *doc, const char *path, struct strbuf *err)
{
	strbuf_addstr(err, "the HTML report is not built yet in this version of tdperf");
	return -1;
}
