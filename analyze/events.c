/*
 * Which events a table knows, and which are perf's generic or software
 * events (shown as counts, never a reason to refuse an input).
 */
#include "analyze/analyze-int.h"

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

int td_scope_lookup(json_t *scope, const char *name, double *value)
{
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT, epmu = STRBUF_INIT, ekey = STRBUF_INIT;
	const char *scope_pmu = td_json_str(scope, "pmu");
	json_t *e, *lit = json_object_get(json_object_get(scope, "literals"), name);
	size_t i;
	int found = -1;

	if (json_is_number(lit)) {
		*value = json_number_value(lit);
		return 0;
	}
	if (name[0] == '#')
		return -1;
	td_event_key(name, &pmu, &key);
	json_array_foreach(json_object_get(scope, "events"), i, e) {
		const char *en = td_json_str(e, "name"), *ep = td_json_str(e, "pmu");
		json_t *v = json_object_get(e, "value");

		if (!en || !json_is_number(v))
			continue;
		td_event_key(en, &epmu, &ekey);
		if (strcmp(key.buf, ekey.buf) || (ep && scope_pmu && strcmp(ep, scope_pmu)))
			continue;
		*value = json_number_value(v);
		found = 0;
		break;
	}
	strbuf_release(&pmu);
	strbuf_release(&key);
	strbuf_release(&epmu);
	strbuf_release(&ekey);
	return found;
}
