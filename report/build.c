/*
 * Building the report document: not built yet.
 */
#include "report/report.h"

json_t *td_report_load(const char *run_or_file, const struct td_report_opts *opts,
		       struct strbuf *err)
{
	strbuf_addstr(err, "reports are not built yet in this version of tdperf");
	return NULL;
}
