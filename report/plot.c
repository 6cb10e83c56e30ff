/*
 * gnuplot charts: not built yet.
 */
#include "report/report.h"

int td_report_plot(json_t *doc, const char *dir, const char *format, struct strbuf *err)
{
	strbuf_addstr(err, "charts are not built yet in this version of tdperf");
	return -1;
}
