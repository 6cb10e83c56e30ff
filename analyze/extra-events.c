/*
 * The events 'tdperf record -e' counted beside the tree (meta.json
 * "extra_events"): each scope gets "extra_events", their counts as perf
 * printed them (docs/report-schema.md).
 */
#include "analyze/report.h"
#include "util/util.h"

#include <string.h>

/*
 * The name perf prints for an event of -e: the name= term of a
 * pmu/term,.../ event, else the event as typed ("cycles:u").
 */
static void printed_name(const char *spec, struct strbuf *out)
{
	const char *name = strstr(spec, "name=");

	strbuf_reset(out);
	if (strchr(spec, '/') && name) {
		name += 5;
		strbuf_add(out, name, strcspn(name, ",/"));
		return;
	}
	strbuf_addstr(out, spec);
}

/* The scope's count of the event perf printed as 'printed' (its last: the -e lists come last). */
static json_t *find_count(json_t *scope, const char *printed)
{
	struct strbuf full = STRBUF_INIT;
	json_t *e, *found = NULL;
	size_t i;

	json_array_foreach(json_object_get(scope, "events"), i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		const char *mods = json_string_value(json_object_get(e, "modifiers"));

		strbuf_reset(&full);
		strbuf_addf(&full, "%s%s", name ? name : "", mods ? mods : "");
		if (!strcmp(full.buf, printed) || (name && !strcmp(name, printed)))
			found = e;
	}
	strbuf_release(&full);
	return found;
}

static json_t *extra_event(json_t *scope, const char *spec, struct strbuf *printed)
{
	json_t *c, *out;

	printed_name(spec, printed);
	c = find_count(scope, printed->buf);
	out = json_pack("{s:s,s:s}", "event", spec, "name", printed->buf);
	if (!c) {
		/* never a number perf did not print */
		json_object_set_new(out, "value", json_null());
		json_object_set_new(out, "unit", json_null());
		json_object_set_new(out, "status", json_string("not in the output"));
		json_object_set_new(out, "running_pct", json_null());
		json_object_set_new(out, "scaled", json_false());
		return out;
	}
	json_object_set(out, "value", json_object_get(c, "value"));
	json_object_set(out, "unit", json_object_get(c, "unit"));
	json_object_set(out, "status", json_object_get(c, "status"));
	json_object_set(out, "running_pct", json_object_get(c, "running_pct"));
	json_object_set(out, "scaled", json_object_get(c, "scaled"));
	return out;
}

void td_report_add_extra_events(json_t *doc)
{
	json_t *names = json_object_get(json_object_get(doc, "run"), "extra_events");
	struct strbuf printed = STRBUF_INIT;
	json_t *scope, *name;
	size_t i, k;

	if (!json_array_size(names))
		return;
	json_array_foreach(json_object_get(doc, "scopes"), i, scope) {
		json_t *list = json_array();
		int counted = 0;

		json_array_foreach(names, k, name) {
			json_t *e;

			if (!json_is_string(name))
				continue;
			e = extra_event(scope, json_string_value(name), &printed);
			counted |= strcmp(json_string_value(json_object_get(e, "status")) ?: "", "not in the output") != 0;
			json_array_append_new(list, e);
		}
		/* --no-multiplex: the runs of the other groups did not count them */
		if (counted)
			json_object_set_new(scope, "extra_events", list);
		else
			json_decref(list);
	}
	strbuf_release(&printed);
}
