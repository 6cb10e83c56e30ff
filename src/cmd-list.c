/*
 * tdperf list: the built-in formula tables, or one table's Top-Down tree,
 * info metrics and events.
 */
#include "src/builtin.h"
#include "metrics/table.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const list_usage[] = {
	"tdperf list [--cpu NAME | --table FILE] [--level N] [--info] [--events]",
	"",
	"Without --cpu or --table: list the built-in formula tables.  With one:",
	"print its Top-Down tree (id, name, threshold), and with --info its info",
	"metrics, with --events the events it knows and how perf is asked for them.",
	NULL,
};

static void list_tables(void)
{
	const char *const *names = td_table_names();
	size_t i;

	if (!names[0]) {
		char *dir = td_data_path("metrics/tables");

		printf("no formula tables in %s\n", dir);
		free(dir);
		return;
	}
	printf("%-16s %-14s %5s %5s %5s  %s\n", "table", "perf name", "width", "nodes", "info", "CPU");
	for (i = 0; names[i]; i++) {
		struct strbuf err = STRBUF_INIT;
		const struct td_table *t = td_table_find(names[i], &err);
		const struct td_table_info *ti;
		size_t m, nodes = 0, info = 0;

		if (!t) {
			printf("%-16s (cannot load: %s)\n", names[i], err.buf);
			strbuf_release(&err);
			continue;
		}
		ti = td_table_info(t);
		for (m = 0; m < td_table_nr_metrics(t); m++) {
			if (td_table_metric(t, m)->level > 0)
				nodes++;
			else
				info++;
		}
		printf("%-16s %-14s %5g %5zu %5zu  %s\n", ti->name, ti->perf_name ? ti->perf_name : "-",
		       ti->slots_per_cycle, nodes, info, ti->display);
		strbuf_release(&err);
	}
}

/* Print the children of 'parent' (NULL: Level 1), depth first. */
static void print_subtree(const struct td_table *t, const char *parent, int max_level)
{
	size_t i;

	for (i = 0; i < td_table_nr_metrics(t); i++) {
		const struct td_metric *m = td_table_metric(t, i);

		if (m->level < 1 || (max_level && m->level > max_level))
			continue;
		if (parent ? !m->parent || strcmp(m->parent, parent) : m->parent != NULL)
			continue;
		printf("%*s%-*s %-28s %s\n", 2 * (m->level - 1), "", 36 - 2 * (m->level - 1), m->id,
		       m->name, m->threshold ? m->threshold : "-");
		print_subtree(t, m->id, max_level);
	}
}

static const char *resource_name(enum td_event_resource r)
{
	switch (r) {
	case TD_RES_OFFCORE: return "offcore";
	case TD_RES_LDLAT: return "ldlat";
	case TD_RES_FRONTEND: return "frontend";
	case TD_RES_PERF_METRICS: return "perf_metrics";
	default: return "";
	}
}

static void list_table(const struct td_table *t, int max_level, int info, int events)
{
	const struct td_table_info *ti = td_table_info(t);
	size_t i;

	printf("%s: %s\n", ti->name, ti->display);
	printf("  vendor %s, perf name %s, PMU %s%s%s, %g slots per cycle\n",
	       ti->vendor ? ti->vendor : "?", ti->perf_name ? ti->perf_name : "-", ti->pmu,
	       ti->core_type ? ", core type " : "", ti->core_type ? ti->core_type : "",
	       ti->slots_per_cycle);
	printf("  counters: %d general (%d with SMT on), %d fixed\n", ti->gp_counters,
	       ti->gp_counters_smt, ti->fixed_counters);
	if (ti->source)
		printf("  source: %s\n", ti->source);
	if (ti->missing)
		printf("  missing: %s\n", ti->missing);
	printf("\nTop-Down tree (id, name, threshold):\n");
	for (i = 0; i < td_table_nr_metrics(t) && td_table_metric(t, i)->level < 1; i++)
		;
	if (i == td_table_nr_metrics(t))
		printf("  (none: this table has no Top-Down nodes; --info lists its metrics)\n");
	print_subtree(t, NULL, max_level);
	if (info) {
		printf("\nInfo metrics (id, unit, area):\n");
		for (i = 0; i < td_table_nr_metrics(t); i++) {
			const struct td_metric *m = td_table_metric(t, i);

			if (m->level == 0)
				printf("  %-44s %-16s %s\n", m->id, m->unit ? m->unit : "-",
				       m->area ? m->area : "-");
		}
	}
	if (events) {
		printf("\nEvents (name, perf encoding, constraints):\n");
		for (i = 0; i < td_table_nr_events(t); i++) {
			const struct td_event *e = td_table_event(t, i);
			struct strbuf c = STRBUF_INIT;

			if (e->fixed >= 0)
				strbuf_addf(&c, " fixed%d", e->fixed);
			if (e->counters)
				strbuf_addf(&c, " counters=0x%llx", e->counters);
			if (e->resource)
				strbuf_addf(&c, " %s", resource_name(e->resource));
			if (e->taken_alone)
				strbuf_addstr(&c, " alone");
			if (e->group_leader)
				strbuf_addstr(&c, " leader");
			printf("  %-48s %s%s\n", e->name, e->perf_name ? e->perf_name : "-", c.buf);
			strbuf_release(&c);
		}
	}
}

int cmd_list(int argc, char **argv)
{
	const char *cpu = NULL, *file = NULL;
	int level = 0, info = 0, events = 0;
	struct strbuf err = STRBUF_INIT;
	struct td_table *own = NULL;
	const struct td_table *t;
	const struct td_option options[] = {
		TD_OPT_STRING(0, "cpu", &cpu, "NAME",
			      "table name, perf pmu-events name, or CPUID string "
			      "(NAME/cpu_atom for the E-core table of a hybrid part)"),
		TD_OPT_STRING(0, "table", &file, "FILE", "a formula table file"),
		TD_OPT_INT_RANGE(0, "level", &level, 1, INT_MAX, "N", "tree nodes down to Level N only"),
		TD_OPT_BOOL(0, "info", &info, "also list the info metrics"),
		TD_OPT_BOOL(0, "events", &events, "also list the events"),
		TD_OPT_END(),
	};

	argc = td_parse_options(argc, argv, options, list_usage, 0);
	if (argc > 0)
		return td_usage_error(list_usage, "unexpected argument '%s'", argv[0]);
	if (!cpu && !file) {
		list_tables();
		return 0;
	}
	if (file) {
		own = td_table_load(file, &err);
		t = own;
	} else {
		t = td_table_find(cpu, &err);
	}
	if (!t) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	list_table(t, level, info, events);
	td_table_free(own);
	strbuf_release(&err);
	return 0;
}
