/*
 * Which events a table knows, and which are perf's generic or software
 * events (shown as counts, never a reason to refuse an input).
 */
#include "report/report-int.h"

#include <string.h>

int td_report_table_has_event(const struct td_table *t, const struct td_count *c)
{
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT;
	size_t i, n = td_table_nr_events(t);
	int found = 0;

	for (i = 0; i < n && !found; i++) {
		const struct td_event *e = td_table_event(t, i);
		td_event_key(e->name, &pmu, &key);
		if (c->key && !strcmp(key.buf, c->key))
			found = 1;
	}
	strbuf_release(&pmu);
	strbuf_release(&key);
	return found;
}

int td_report_is_generic_event(const struct td_count *c)
{
	const char *k = c->key ? c->key : "";

	if (strchr(k, ':'))
		return 1; /* tracepoints */
	if (c->pmu && strcmp(c->pmu, "cpu_core") && strcmp(c->pmu, "cpu_atom"))
		return 1; /* uncore, msr, power, ... */
	return td_event_is_generic(k);
}

int td_report_is_software_event(const struct td_count *c)
{
	static const char *const sw[] = {
		"task-clock", "cpu-clock", "page-faults", "faults", "minor-faults", "major-faults",
		"context-switches", "cs", "cpu-migrations", "migrations", "alignment-faults",
		"emulation-faults", "dummy", "duration_time", "user_time", "system_time",
		"bpf-output", "cgroup-switches",
	};
	const char *k = c->key ? c->key : "";
	size_t i;

	if (strchr(k, ':'))
		return 1;
	for (i = 0; i < TD_ARRAY_SIZE(sw); i++)
		if (!strcmp(k, sw[i]))
			return 1;
	return 0;
}
