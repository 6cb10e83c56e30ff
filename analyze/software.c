/*
 * Scopes without hardware counts, and perf's software events.
 *
 * A VM or container without a PMU (or 'perf stat -e task-clock') gives
 * counts of software events and tracepoints only.  The Top-Down tree of
 * such a scope is not "zero" and not "below threshold": it was not
 * measured, and a formula whose events are all missing can still yield a
 * constant (an SMT-off branch, say), which would read as a measurement.
 * So the report builder asks td_scope_hardware_counts() first and, at
 * zero, writes every node and info metric as not measured with one
 * reason (td_nohw_reason).
 *
 * What such a scope does hold is shown the way perf stat shows it: the
 * task time as CPUs utilized and the other software counts as rates per
 * second of task time (td_software_metrics).
 */
#include "analyze/analyze-int.h"

#include <math.h>
#include <string.h>
#include <strings.h>

size_t td_scope_hardware_counts(const struct td_scope *s, const char *pmu)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr_counts; i++) {
		const struct td_count *c = &s->counts[i];

		if (pmu && (!c->pmu || strcmp(c->pmu, pmu)))
			continue;
		if (c->status == TD_COUNT_OK && !td_report_is_software_event(c))
			n++;
	}
	return n;
}

void td_nohw_reason(struct strbuf *sb, json_t *meta)
{
	json_t *td = json_object_get(json_object_get(meta, "analyses"), "topdown");
	const char *why = json_string_value(json_object_get(td, "reason"));

	strbuf_addstr(sb, "not measured: no hardware counts in this scope (only software events or "
		      "tracepoints were counted)");
	if (why)
		strbuf_addf(sb, "; when recorded: %s", why);
}

/* The value of a counted event, NAN when absent. */
static double count_of(const struct td_scope *s, const char *name, const char **unit)
{
	const struct td_count *c = td_scope_find(s, NULL, name);

	if (!c || c->status != TD_COUNT_OK)
		return NAN;
	if (unit)
		*unit = c->unit;
	return c->value;
}

/* task-clock (or cpu-clock) in seconds; perf prints it in msec. */
static double task_seconds(const struct td_scope *s, const char **which)
{
	static const char *const clocks[] = { "task-clock", "cpu-clock" };
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(clocks); i++) {
		const char *unit = NULL;
		double v = count_of(s, clocks[i], &unit);

		if (isnan(v))
			continue;
		*which = clocks[i];
		if (!unit || !strcmp(unit, "msec"))
			return v / 1e3;
		if (!strcmp(unit, "usec"))
			return v / 1e6;
		if (!strcmp(unit, "nsec") || !strcmp(unit, "ns"))
			return v / 1e9;
		return NAN; /* a unit we do not know: no rate rather than a wrong one */
	}
	return NAN;
}

static json_t *add(json_t *a, const char *id, const char *name, double v, const char *unit,
		   const char *basis)
{
	json_t *m = json_pack("{s:s,s:s,s:f,s:s,s:s}", "id", id, "name", name, "value", v, "unit", unit,
			      "basis", basis);

	json_array_append_new(a, m);
	return m;
}

/* The "CPUs utilized" perf printed beside task-clock or cpu-clock, NAN when none. */
static double perf_cpus_utilized(const struct td_scope *s)
{
	size_t i;

	for (i = 0; i < s->nr_perf_metrics; i++)
		if (!strcasecmp(s->perf_metrics[i].name, "CPUs utilized"))
			return s->perf_metrics[i].value;
	return NAN;
}

/*
 * CPUs utilized is task time over perf's own elapsed time.  perf counts
 * from before the workload starts until after it ends, so under -a the
 * workload's wall time (a run directory's, for CSV output that prints no
 * elapsed line) is shorter than the time the counts cover and the quotient
 * would overstate it (2.3 CPUs on a 2-CPU machine).  So the figure is
 * perf's: computed from perf's elapsed time when perf printed it, else the
 * value perf printed; neither known, there is none.  Where perf printed a
 * value, it goes beside ours.
 */
static void add_cpus_utilized(json_t *a, const struct td_stat *st, const struct td_scope *s,
			      const char *clock, double task_s)
{
	double perf = perf_cpus_utilized(s), v = NAN;
	struct strbuf basis = STRBUF_INIT;

	if (s->kind != TD_SCOPE_TOTAL || !isnan(s->time))
		return;
	if (!isnan(st->elapsed_s) && st->elapsed_s > 0 && !st->elapsed_from_run) {
		v = task_s / st->elapsed_s;
		strbuf_addf(&basis, "%s / elapsed time", clock);
		if (!isnan(perf))
			strbuf_addf(&basis, "; perf: %.3f", perf);
	} else if (!isnan(perf)) {
		v = perf;
		strbuf_addf(&basis, "%s / perf's elapsed time, as perf printed it", clock);
	}
	if (!isnan(v)) {
		json_t *m = add(a, "cpus_utilized", "CPUs utilized", v, "CPUs", basis.buf);
		if (!isnan(perf))
			json_object_set_new(m, "perf", json_real(perf));
	}
	strbuf_release(&basis);
}

json_t *td_software_metrics(const struct td_stat *st, const struct td_scope *s, const char *pmu)
{
	static const struct { const char *key, *id, *name; } rated[] = {
		{ "context-switches", "context_switches_per_sec", "context switches" },
		{ "cs", "context_switches_per_sec", "context switches" },
		{ "cpu-migrations", "cpu_migrations_per_sec", "CPU migrations" },
		{ "migrations", "cpu_migrations_per_sec", "CPU migrations" },
		{ "page-faults", "page_faults_per_sec", "page faults" },
		{ "faults", "page_faults_per_sec", "page faults" },
		{ "minor-faults", "minor_faults_per_sec", "minor page faults" },
		{ "major-faults", "major_faults_per_sec", "major page faults" },
	};
	json_t *a = json_array();
	const char *clock = NULL;
	double task_s = pmu ? NAN : task_seconds(s, &clock);
	size_t i;
	struct strbuf basis = STRBUF_INIT;

	if (isnan(task_s) || task_s <= 0)
		return a;
	add_cpus_utilized(a, st, s, clock, task_s);
	for (i = 0; i < TD_ARRAY_SIZE(rated); i++) {
		double v = count_of(s, rated[i].key, NULL);

		if (isnan(v))
			continue;
		strbuf_reset(&basis);
		strbuf_addf(&basis, "%s / %s time", rated[i].key, clock);
		add(a, rated[i].id, rated[i].name, v / task_s, "per_sec", basis.buf);
	}
	strbuf_release(&basis);
	return a;
}
