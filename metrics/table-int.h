/*
 * Private to metrics/: the layout of a loaded table, shared by the loader
 * (table.c), the CPU lookup (find.c) and the evaluator (tree.c).
 */
#ifndef TD_METRICS_TABLE_INT_H
#define TD_METRICS_TABLE_INT_H

#include <jansson.h>

#include "metrics/expr-int.h"
#include "metrics/table.h"

struct td_table {
	struct td_table_info info;
	char *path;
	json_t *root;            /* owns every string below */
	struct td_metric *metrics;
	size_t nr_metrics;
	int *sorted_ids;         /* metric indices sorted by id */
	int *order;              /* tree nodes in pre-order */
	size_t nr_nodes;
	struct td_event *events;
	size_t nr_events;
	const char **cpuid;      /* POSIX extended regexes on the CPUID string */
	size_t nr_cpuid;
	const char **aliases;    /* other names the table answers to */
	size_t nr_aliases;
	json_t *params;
	int *parent;             /* parent metric index per metric, -1 none */
	char **slot_names;       /* distinct input names (events, literals) */
	size_t nr_slots, alloc_slots;
};

/*
 * A table's identity without its events and metrics: info, cpuid,
 * aliases and params are filled in as td_table_load() would, nr_metrics
 * and nr_events are 0.  A few milliseconds for all built-in tables, where
 * td_table_load() parses every formula (about 10 ms a table).  NULL when
 * the file cannot be read this way; td_table_load() then says why.
 * Freed with td_table_free().
 */
struct td_table *td_table_load_identity(const char *path);

/* Index of a metric id, or -1. */
int td_table_metric_index(const struct td_table *t, const char *id);

/*
 * Arm (import-arm.c): resolve a core directory of perf's arm64
 * pmu-events against the architecture files under arm_root into perf
 * layout arrays; *assumed lists events taken from the architecture list.
 */
int td_arm_resolve(const char *arm_root, const char *core_dir, json_t **events,
		   json_t **metrics, struct strbuf *assumed, struct strbuf *err);
/* The *.json files of dir, full paths in name order (caller frees); -1 with err. */
long td_imp_json_files(const char *dir, char ***out, struct strbuf *err);
/* s upper-cased (up) or lower-cased into sb (import.c, import-arm.c). */
void td_imp_case(struct strbuf *sb, const char *s, int up);

/*
 * perf's Arm CPUID (the MIDR as 0x%016x, "0x00000000410fd4f0") -> a
 * regular expression matching any variant and revision of that part;
 * -1 when midr is not of that form.
 */
int td_arm_midr_regex(const char *midr, struct strbuf *out);

#endif
