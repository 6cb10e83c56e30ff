/*
 * The Arm side of the table importer: Linux perf's arm64 pmu-events
 * layout (docs/tables.md, "Arm tables").
 *
 * A core directory (arm/neoverse-v2, ampere/ampereone, ...) lists its
 * events and metrics mostly as references into architecture-wide files:
 * {"ArchStdEvent": "L1D_CACHE"} names an event of
 * common-and-microarch.json or recommended.json, {"ArchStdEvent":
 * "frontend_bound"} a metric of sbsa.json, either possibly with fields
 * that override the referenced entry.  This file resolves those
 * references and hands the importer plain perf-layout arrays.
 *
 * On the way it makes the metrics fit tdperf's tree, where every node is
 * a fraction of its domain:
 *  - Arm cores write Level 1 in percent ("100 * ..."), sbsa.json's copy
 *    in fractions; percent formulas of tree nodes are divided by 100, and
 *    a reference to a tree node from a formula that expects percent is
 *    multiplied by 100, so every value stays what perf computes;
 *  - vendor names become tdperf's canonical ids (retired_fraction ->
 *    retiring, frontend_latency -> fetch_latency, ...) and deeper nodes
 *    get the parent and domain the source groups only hint at;
 *  - event names are upper-cased (sbsa.json writes cpu_cycles, the cores
 *    CPU_CYCLES: one event, one counter).
 */
#include "metrics/table-int.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *ajstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* ---------------- where each Arm metric sits ---------------- */

/*
 * Source metric name -> our id, parent, domain.  Level 1 nodes have no
 * parent.  The parents of deeper nodes follow the source's groups where
 * they say it (N3/V3 Topdown_Frontend/Topdown_Backend, the formulas'
 * denominators) and the formula's meaning where they do not (hip08 and
 * AmpereOne tag whole levels only); docs/tables.md lists the choices.
 */
struct arm_place {
	const char *name, *id, *parent, *domain;
};

static const struct arm_place arm_places[] = {
	/* Level 1 (sbsa.json, core overrides, AmpereOne's own names) */
	{ "frontend_bound", "frontend_bound", NULL, "slots" },
	{ "bad_speculation", "bad_speculation", NULL, "slots" },
	{ "backend_bound", "backend_bound", NULL, "slots" },
	{ "retiring", "retiring", NULL, "slots" },
	{ "retired_fraction", "retiring", NULL, "slots" },
	{ "slots_lost_misspeculation_fraction", "bad_speculation", NULL, "slots" },
	/* AmpereOne(X) TopdownL2 */
	{ "frontend_latency", "fetch_latency", "frontend_bound", "slots" },
	{ "frontend_bandwidth", "fetch_bandwidth", "frontend_bound", "slots" },
	{ "branch_mispredict", "branch_mispredicts", "bad_speculation", "slots" },
	{ "other_miss_pred", "machine_clears", "bad_speculation", "slots" },
	{ "backend_memory", "memory_bound", "backend_bound", "clocks" },
	{ "backend_core", "core_bound", "backend_bound", "slots" },
	/* AmpereOne(X) TopdownL3 / L4: stall cycles over all cycles */
	{ "i_cache_miss_rate", "i_cache_miss_rate", "fetch_latency", "clocks" },
	{ "i_tlb_miss_rate", "i_tlb_miss_rate", "fetch_latency", "clocks" },
	{ "d_cache_miss_rate", "d_cache_miss_rate", "memory_bound", "clocks" },
	{ "d_tlb_miss_rate", "d_tlb_miss_rate", "memory_bound", "clocks" },
	{ "d_cache_l2_miss_rate", "d_cache_l2_miss_rate", "d_cache_miss_rate", "clocks" },
	{ "stall_recovery_rate", "stall_recovery_rate", "bad_speculation", "clocks" },
	{ "stall_fsu_sched_rate", "stall_fsu_sched_rate", "core_bound", "clocks" },
	{ "stall_ixu_sched_rate", "stall_ixu_sched_rate", "core_bound", "clocks" },
	{ "stall_lob_id_rate", "stall_lob_id_rate", "core_bound", "clocks" },
	{ "stall_rob_id_rate", "stall_rob_id_rate", "core_bound", "clocks" },
	{ "stall_sob_id_rate", "stall_sob_id_rate", "core_bound", "clocks" },
	/* hip08 TopdownL2 */
	{ "fetch_latency_bound", "fetch_latency", "frontend_bound", "clocks" },
	{ "fetch_bandwidth_bound", "fetch_bandwidth", "frontend_bound", "slots" },
	{ "branch_mispredicts", "branch_mispredicts", "bad_speculation", "slots" },
	{ "machine_clears", "machine_clears", "bad_speculation", "slots" },
	{ "core_bound", "core_bound", "backend_bound", "clocks" },
	{ "memory_bound", "memory_bound", "backend_bound", "clocks" },
	/* hip08 TopdownL3 */
	{ "idle_by_itlb_miss", "idle_by_itlb_miss", "fetch_latency", "clocks" },
	{ "idle_by_icache_miss", "idle_by_icache_miss", "fetch_latency", "clocks" },
	{ "bp_misp_flush", "bp_misp_flush", "branch_mispredicts", "clocks" },
	{ "indirect_branch", "indirect_branch", "branch_mispredicts", "mispredicted branches" },
	{ "push_branch", "push_branch", "branch_mispredicts", "mispredicted branches" },
	{ "pop_branch", "pop_branch", "branch_mispredicts", "mispredicted branches" },
	{ "other_branch", "other_branch", "branch_mispredicts", "mispredicted branches" },
	{ "ooo_flush", "ooo_flush", "machine_clears", "clocks" },
	{ "sp_flush", "sp_flush", "machine_clears", "clocks" },
	{ "nuke_flush", "nuke_flush", "machine_clears", "out-of-order flushes" },
	{ "other_flush", "other_flush", "machine_clears", "out-of-order flushes" },
	{ "sync_stall", "sync_stall", "core_bound", "clocks" },
	{ "rob_stall", "rob_stall", "core_bound", "clocks" },
	{ "ptag_stall", "ptag_stall", "core_bound", "clocks" },
	{ "saveopq_stall", "saveopq_stall", "core_bound", "clocks" },
	{ "pc_buffer_stall", "pc_buffer_stall", "core_bound", "clocks" },
	{ "divider", "divider", "core_bound", "clocks" },
	{ "fsu_stall", "fsu_stall", "core_bound", "clocks" },
	{ "exe_ports_util", "exe_ports_util", "core_bound", "clocks" },
	{ "l1_bound", "l1_bound", "memory_bound", "clocks" },
	{ "l2_bound", "l2_bound", "memory_bound", "clocks" },
	{ "mem_bound", "mem_bound", "memory_bound", "clocks" },
	{ "store_bound", "store_bound", "memory_bound", "clocks" },
	/* Neoverse N3/V3 Topdown_Frontend / Topdown_Backend: shares of the parent's stall cycles */
	{ "frontend_mem_bound", "frontend_mem_bound", "frontend_bound", "frontend stall cycles" },
	{ "frontend_core_bound", "frontend_core_bound", "frontend_bound", "frontend stall cycles" },
	{ "frontend_mem_tlb_bound", "frontend_mem_tlb_bound", "frontend_mem_bound",
	  "memory-bound frontend stall cycles" },
	{ "frontend_mem_cache_bound", "frontend_mem_cache_bound", "frontend_mem_bound",
	  "memory-bound frontend stall cycles" },
	{ "frontend_cache_l1i_bound", "frontend_cache_l1i_bound", "frontend_mem_cache_bound",
	  "frontend cache stall cycles" },
	{ "frontend_cache_l2i_bound", "frontend_cache_l2i_bound", "frontend_mem_cache_bound",
	  "frontend cache stall cycles" },
	{ "frontend_core_flow_bound", "frontend_core_flow_bound", "frontend_core_bound",
	  "core-bound frontend stall cycles" },
	{ "frontend_core_flush_bound", "frontend_core_flush_bound", "frontend_core_bound",
	  "core-bound frontend stall cycles" },
	{ "backend_mem_bound", "backend_mem_bound", "backend_bound", "backend stall cycles" },
	{ "backend_core_bound", "backend_core_bound", "backend_bound", "backend stall cycles" },
	{ "backend_busy_bound", "backend_busy_bound", "backend_bound", "backend stall cycles" },
	{ "backend_mem_tlb_bound", "backend_mem_tlb_bound", "backend_mem_bound",
	  "memory-bound backend stall cycles" },
	{ "backend_mem_store_bound", "backend_mem_store_bound", "backend_mem_bound",
	  "memory-bound backend stall cycles" },
	{ "backend_mem_cache_bound", "backend_mem_cache_bound", "backend_mem_bound",
	  "memory-bound backend stall cycles" },
	{ "backend_cache_l1d_bound", "backend_cache_l1d_bound", "backend_mem_cache_bound",
	  "backend cache stall cycles" },
	{ "backend_cache_l2d_bound", "backend_cache_l2d_bound", "backend_mem_cache_bound",
	  "backend cache stall cycles" },
	{ "backend_core_rename_bound", "backend_core_rename_bound", "backend_core_bound",
	  "core-bound backend stall cycles" },
};

static const struct arm_place *arm_place(const char *name)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(arm_places); i++)
		if (!strcmp(arm_places[i].name, name))
			return &arm_places[i];
	return NULL;
}

/* ---------------- percent or fraction ---------------- */

/* Does a formula yield percent: "100 * x", "x * 100", "a * 100 + b * 100", "100 - x", "x * 100 / y"? */
static int expr_in_percent(const struct td_expr *e)
{
	if (!e)
		return 0;
	switch (e->op) {
	case TD_OP_MUL:
		return (e->kid[0]->op == TD_OP_NUM && e->kid[0]->num == 100) ||
		       (e->kid[1]->op == TD_OP_NUM && e->kid[1]->num == 100) ||
		       expr_in_percent(e->kid[0]) || expr_in_percent(e->kid[1]);
	case TD_OP_DIV:
		return expr_in_percent(e->kid[0]);
	case TD_OP_ADD:
		return expr_in_percent(e->kid[0]) && expr_in_percent(e->kid[1]);
	case TD_OP_SUB:
		return (e->kid[0]->op == TD_OP_NUM && e->kid[0]->num == 100) ||
		       (expr_in_percent(e->kid[0]) && expr_in_percent(e->kid[1]));
	default:
		return 0;
	}
}

/* A ScaleUnit of factor 1 in a percent unit: the formula already yields percent. */
static int scale_in_percent(const char *scale)
{
	char *end;
	double f;

	if (!scale)
		return 0;
	f = strtod(scale, &end);
	if (end == scale || f != 1)
		return 0;
	while (*end == ' ')
		end++;
	return !strncmp(end, "percent", 7) || *end == '%';
}

/* ---------------- resolving ArchStdEvent ---------------- */

struct arm_ctx {
	json_t *std_events;  /* UPPER name -> architecture event */
	json_t *std_metrics; /* lower name -> sbsa metric */
	json_t *events;      /* output: the core's events, perf layout */
	json_t *core_events; /* UPPER name -> 1 for events the core lists */
	json_t *metrics;     /* output metrics */
	json_t *info;        /* per metric name: {id, own_percent, ref_percent, tree} */
};

void td_imp_case(struct strbuf *sb, const char *s, int up)
{
	strbuf_reset(sb);
	for (; *s; s++)
		strbuf_addch(sb, (char)(up ? toupper((unsigned char)*s) : tolower((unsigned char)*s)));
}

static void upcase(struct strbuf *sb, const char *s)
{
	td_imp_case(sb, s, 1);
}

/* A copy of the referenced entry with the referring entry's own fields over it. */
static json_t *overlay(json_t *std, json_t *own)
{
	json_t *out = std ? json_deep_copy(std) : json_object();
	const char *key;
	json_t *v;

	json_object_foreach(own, key, v)
		if (strcmp(key, "ArchStdEvent"))
			json_object_set(out, key, v);
	return out;
}

static int load_array(const char *path, json_t **out, struct strbuf *err)
{
	json_error_t jerr;
	json_t *j = json_load_file(path, 0, &jerr);

	if (!j) {
		strbuf_addf(err, "%s:%d: %s", path, jerr.line, jerr.text);
		return -1;
	}
	if (!json_is_array(j)) {
		strbuf_addf(err, "%s: not a perf pmu-events array", path);
		json_decref(j);
		return -1;
	}
	*out = j;
	return 0;
}

/*
 * Index the entries of root/file by their field 'field' (upper- or
 * lower-cased) into dest.
 */
static int index_file(const char *root, const char *file, const char *field, int up,
		      json_t *dest, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT;
	char *path = td_path_join(root, file);
	json_t *arr, *e;
	size_t i;
	int rc = load_array(path, &arr, err);

	free(path);
	if (rc)
		return -1;
	json_array_foreach(arr, i, e)
		if (ajstr(e, field)) {
			td_imp_case(&key, ajstr(e, field), up);
			json_object_set(dest, key.buf, e);
		}
	json_decref(arr);
	strbuf_release(&key);
	return 0;
}

/* Architecture-wide events (common-and-microarch.json, recommended.json) and sbsa.json metrics. */
static int load_arch_files(struct arm_ctx *cx, const char *root, struct strbuf *err)
{
	return index_file(root, "common-and-microarch.json", "EventName", 1, cx->std_events, err) ||
	       index_file(root, "recommended.json", "EventName", 1, cx->std_events, err) ||
	       index_file(root, "sbsa.json", "MetricName", 0, cx->std_metrics, err) ? -1 : 0;
}

/* One event entry of a core file into cx->events. */
static int add_core_event(struct arm_ctx *cx, json_t *e, const char *path, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT;
	const char *ref = ajstr(e, "ArchStdEvent");
	json_t *out;

	if (ref) {
		upcase(&key, ref);
		if (!json_object_get(cx->std_events, key.buf)) {
			strbuf_addf(err, "%s: ArchStdEvent '%s' is in no architecture event file",
				    path, ref);
			strbuf_release(&key);
			return -1;
		}
		out = overlay(json_object_get(cx->std_events, key.buf), e);
	} else {
		out = json_deep_copy(e);
	}
	if (ajstr(out, "EventName")) {
		upcase(&key, ajstr(out, "EventName"));
		json_object_set_new(cx->core_events, key.buf, json_true());
		json_array_append(cx->events, out);
	}
	json_decref(out);
	strbuf_release(&key);
	return 0;
}

/* One metric entry of metrics.json, resolved against sbsa.json, into cx->metrics. */
static int add_core_metric(struct arm_ctx *cx, json_t *m, const char *path, struct strbuf *err)
{
	struct strbuf key = STRBUF_INIT;
	const char *ref = ajstr(m, "ArchStdEvent"), *name;
	json_t *std = NULL, *out, *info;
	int own_percent, overridden;

	if (ref) {
		td_imp_case(&key, ref, 0);
		std = json_object_get(cx->std_metrics, key.buf);
		if (!std) {
			strbuf_addf(err, "%s: ArchStdEvent '%s' is in no architecture metric file",
				    path, ref);
			strbuf_release(&key);
			return -1;
		}
	}
	out = overlay(std, m);
	overridden = std && json_object_get(m, "MetricExpr");
	name = ajstr(out, "MetricName");
	if (!name || !ajstr(out, "MetricExpr")) {
		json_decref(out);
		strbuf_release(&key);
		return 0;
	}
	/* AmpereOne's "Miss_Ratio;l1d_cache_read_miss": a group slipped into the name */
	if (strrchr(name, ';')) {
		json_object_set_new(out, "MetricName", json_string(strrchr(name, ';') + 1));
		name = ajstr(out, "MetricName");
	}
	{
		struct strbuf why = STRBUF_INIT;
		struct td_expr *e = td_expr_parse(ajstr(out, "MetricExpr"), &why);

		own_percent = scale_in_percent(ajstr(out, "ScaleUnit")) ||
			      (overridden && e && expr_in_percent(e));
		td_expr_free(e);
		strbuf_release(&why);
	}
	info = json_object();
	json_object_set_new(info, "own_percent", json_boolean(own_percent));
	/*
	 * The core files are newer than the copied sbsa.json, whose Level 1
	 * yields fractions; their own formulas read sbsa's metrics in percent
	 * (AmpereOne: "backend_bound / 100").
	 */
	json_object_set_new(info, "ref_percent", json_boolean(own_percent || (std && !overridden)));
	json_object_set_new(cx->info, name, info);
	json_array_append_new(cx->metrics, out);
	strbuf_release(&key);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

long td_imp_json_files(const char *dir, char ***out, struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;

	if (!d) {
		strbuf_addf(err, "%s: cannot open directory", dir);
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 5 && !strcmp(de->d_name + l - 5, ".json")) {
			TD_GROW(names, alloc, n + 1);
			names[n++] = td_path_join(dir, de->d_name);
		}
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	*out = names;
	return (long)n;
}

/* Every *.json of the core directory: metrics.json for metrics, the rest for events. */
static int load_core_dir(struct arm_ctx *cx, const char *dir, struct strbuf *err)
{
	char **paths = NULL;
	long n = td_imp_json_files(dir, &paths, err), i;
	size_t j;
	int rc = n < 0 ? -1 : 0;

	for (i = 0; i < n; i++) {
		const char *base = strrchr(paths[i], '/');
		int metrics = !strcmp(base ? base + 1 : paths[i], "metrics.json");
		json_t *arr = NULL, *e;

		if (!rc && !load_array(paths[i], &arr, err)) {
			json_array_foreach(arr, j, e) {
				if (rc)
					break;
				if (metrics)
					rc = add_core_metric(cx, e, paths[i], err);
				else
					rc = add_core_event(cx, e, paths[i], err);
			}
			json_decref(arr);
		} else {
			rc = -1;
		}
		free(paths[i]);
	}
	free(paths);
	return rc;
}

/* ---------------- rewriting formulas ---------------- */

static struct td_expr *num_node(double v)
{
	struct td_expr *e = td_expr_new(TD_OP_NUM);

	e->num = v;
	return e;
}

static struct td_expr *binary(enum td_op op, struct td_expr *a, struct td_expr *b)
{
	struct td_expr *e = td_expr_new(op);

	e->kid[0] = a;
	e->kid[1] = b;
	return e;
}

/*
 * Rename metric references to our ids, upper-case events, and give a
 * reference "x * 100" where the formula reads x in percent but we store
 * x as a fraction.
 */
static struct td_expr *rewrite_refs(struct arm_ctx *cx, struct td_expr *e)
{
	int i;

	if (!e)
		return NULL;
	if (e->op == TD_OP_NAME && !td_name_is_literal(e->name)) {
		json_t *info = json_object_get(cx->info, e->name);
		const struct arm_place *pl = arm_place(e->name);

		if (info) {
			int tree = pl != NULL;

			if (pl) {
				free(e->name);
				e->name = xstrdup(pl->id);
			}
			if (tree && json_is_true(json_object_get(info, "ref_percent")))
				return binary(TD_OP_MUL, e, num_node(100));
			return e;
		}
		if (!strchr(e->name, '@')) {
			struct strbuf up = STRBUF_INIT;

			upcase(&up, e->name);
			/* perf's generic names stay as they are */
			if (strcmp(e->name, "instructions") && strcmp(e->name, "cycles")) {
				free(e->name);
				e->name = strbuf_detach(&up, NULL);
			}
			strbuf_release(&up);
		}
		return e;
	}
	for (i = 0; i < 3; i++)
		e->kid[i] = rewrite_refs(cx, e->kid[i]);
	return e;
}

/*
 * A percent formula as a fraction: "x * 100" -> "x", "a * 100 + b * 100"
 * -> "a + b", "x * 100 / y" -> "x / y"; anything else -> "(e) / 100".
 */
static struct td_expr *to_fraction(struct td_expr *e)
{
	int i;

	if (e->op == TD_OP_MUL) {
		for (i = 0; i < 2; i++)
			if (e->kid[i]->op == TD_OP_NUM && e->kid[i]->num == 100) {
				struct td_expr *keep = e->kid[1 - i];

				e->kid[1 - i] = NULL;
				td_expr_free(e);
				return keep;
			}
	}
	if (e->op == TD_OP_ADD && expr_in_percent(e->kid[0]) && expr_in_percent(e->kid[1])) {
		e->kid[0] = to_fraction(e->kid[0]);
		e->kid[1] = to_fraction(e->kid[1]);
		return e;
	}
	if (e->op == TD_OP_DIV && expr_in_percent(e->kid[0])) {
		e->kid[0] = to_fraction(e->kid[0]);
		return e;
	}
	return binary(TD_OP_DIV, e, num_node(100));
}

/* Fill in id, formula, tree place and scale of one resolved metric. */
static void finish_metric(struct arm_ctx *cx, json_t *m)
{
	const char *name = ajstr(m, "MetricName");
	const struct arm_place *pl = arm_place(name);
	json_t *info = json_object_get(cx->info, name);
	struct strbuf why = STRBUF_INIT, text = STRBUF_INIT;
	struct td_expr *e = td_expr_parse(ajstr(m, "MetricExpr"), &why);

	if (!e) {
		strbuf_release(&why);
		return; /* the importer reports it */
	}
	e = rewrite_refs(cx, e);
	if (pl && json_is_true(json_object_get(info, "own_percent"))) {
		e = to_fraction(e);
		json_object_set_new(m, "TdNote", json_string(
			"the source formula yields percent; written here as the fraction it is of"));
	}
	td_expr_print(e, &text);
	td_expr_free(e);
	json_object_set_new(m, "MetricExpr", json_string(text.buf));
	if (pl) {
		int level = 1;
		const struct arm_place *p = pl;

		while (p && p->parent && level < 8) {
			const char *parent = p->parent;
			size_t i;

			p = NULL;
			for (i = 0; i < TD_ARRAY_SIZE(arm_places); i++)
				if (!strcmp(arm_places[i].id, parent)) {
					p = &arm_places[i];
					break;
				}
			level++;
		}
		json_object_set_new(m, "MetricName", json_string(pl->id));
		json_object_set_new(m, "TdLevel", json_integer(level));
		if (pl->parent)
			json_object_set_new(m, "TdParent", json_string(pl->parent));
		json_object_set_new(m, "TdDomain", json_string(pl->domain));
		json_object_set_new(m, "ScaleUnit", json_string("100%"));
	}
	strbuf_release(&why);
	strbuf_release(&text);
}

/*
 * Events named by the metrics that the core's files do not list: taken
 * from the architecture files (perf finds them the same way, through the
 * PMU's sysfs events, when the core implements them), and named in
 * *assumed so the table can say so.
 */
static void add_assumed_events(struct arm_ctx *cx, struct strbuf *assumed)
{
	json_t *m, *names = json_object();
	struct strbuf up = STRBUF_INIT;
	const char *name;
	json_t *v;
	size_t i;

	json_array_foreach(cx->metrics, i, m) {
		const char *p = ajstr(m, "MetricExpr");

		while (p && *p) {
			if (isalpha((unsigned char)*p) || *p == '_') {
				const char *s = p;

				while (isalnum((unsigned char)*p) || *p == '_')
					p++;
				strbuf_reset(&up);
				strbuf_add(&up, s, (size_t)(p - s));
				if (json_object_get(cx->std_events, up.buf) &&
				    !json_object_get(cx->core_events, up.buf))
					json_object_set_new(names, up.buf, json_true());
			} else {
				p++;
			}
		}
	}
	json_object_foreach(names, name, v) {
		json_array_append(cx->events, json_object_get(cx->std_events, name));
		strbuf_addf(assumed, "%s%s", assumed->len ? ", " : "", name);
	}
	json_decref(names);
	strbuf_release(&up);
}

int td_arm_resolve(const char *arm_root, const char *core_dir, json_t **events,
		   json_t **metrics, struct strbuf *assumed, struct strbuf *err)
{
	struct arm_ctx cx = { 0 };
	json_t *m;
	size_t i;
	int rc = -1;

	cx.std_events = json_object();
	cx.std_metrics = json_object();
	cx.events = json_array();
	cx.core_events = json_object();
	cx.metrics = json_array();
	cx.info = json_object();
	if (load_arch_files(&cx, arm_root, err) || load_core_dir(&cx, core_dir, err))
		goto out;
	json_array_foreach(cx.metrics, i, m)
		finish_metric(&cx, m);
	add_assumed_events(&cx, assumed);
	*events = json_incref(cx.events);
	*metrics = json_incref(cx.metrics);
	rc = 0;
out:
	json_decref(cx.std_events);
	json_decref(cx.std_metrics);
	json_decref(cx.events);
	json_decref(cx.core_events);
	json_decref(cx.metrics);
	json_decref(cx.info);
	return rc;
}

int td_arm_midr_regex(const char *midr, struct strbuf *out)
{
	size_t i;

	if (strlen(midr) != 18 || strncasecmp(midr, "0x", 2))
		return -1;
	for (i = 2; i < 18; i++)
		if (!isxdigit((unsigned char)midr[i]))
			return -1;
	/* implementer[31:24] variant[23:20] architecture[19:16] part[15:4] revision[3:0] */
	strbuf_add(out, midr, 12);
	strbuf_addstr(out, "[[:xdigit:]]");
	strbuf_add(out, midr + 13, 4);
	strbuf_addstr(out, "[[:xdigit:]]");
	return 0;
}
