/*
 * The table importer: builds a tdperf formula table (docs/tables.md) from
 * published vendor data, so that the built-in tables are generated, never
 * typed by hand.
 *
 * Sources:
 *  - Intel perfmon metrics JSON (<PLAT>/metrics/NAME_metrics.json): TMA nodes
 *    are taken from "BaseFormula" (fractions, metric references by name),
 *    other metrics from "Formula" with its aliases substituted;
 *  - perf pmu-events metrics JSON (AMD pipeline metrics, perf's Intel
 *    E-core metrics), already in the MetricExpr dialect;
 *  - event lists (perfmon core events JSON or perf pmu-events JSON) for the
 *    raw encodings and counter constraints of every event a formula uses;
 *  - a mapfile (perfmon's or perf's) for the CPUID patterns;
 *  - extra files merged last (alternatives, params, extra metrics, and
 *    one-line descriptions by metric id).
 *
 * Everything is collected as jansson objects; formulas are parsed with our
 * own parser to check them, rename metric references and rescale
 * thresholds.
 */
#include "metrics/import.h"
#include "metrics/table-int.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <stdio.h>

struct imp {
	const struct td_import_opts *o;
	json_t *metrics;   /* array of metric objects, output order */
	json_t *evdb;      /* UPPER base name -> source event object */
	json_t *events;    /* output events by name */
	json_t *params;
	struct strbuf source;  /* provenance collected from the inputs */
	json_t *extra_ids;     /* metrics added or changed by extra files: id -> file */
	json_t *descriptions;  /* id -> one line, from extra files' "descriptions" */
	struct strbuf dropped; /* what was left out and why */
	int nr_dropped;
	const char *pmu;
	int arm;               /* Arm PMU: events are 'event=N' only, no umask */
};

/* ---------------- small helpers ---------------- */

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static void lower(struct strbuf *sb, const char *s)
{
	td_imp_case(sb, s, 0);
}

static void upper(struct strbuf *sb, const char *s)
{
	td_imp_case(sb, s, 1);
}

static void note_dropped(struct imp *im, const char *id, const char *why)
{
	im->nr_dropped++;
	if (td_verbose)
		note("import: leaving out %s: %s", id, why);
	if (im->dropped.len < 4000)
		strbuf_addf(&im->dropped, "%s%s", im->dropped.len ? ", " : "", id);
}

static json_t *find_metric(struct imp *im, const char *id)
{
	size_t i;
	json_t *m;

	json_array_foreach(im->metrics, i, m)
		if (!strcmp(jstr(m, "id"), id))
			return m;
	return NULL;
}

/* ---------------- canonical names ---------------- */

/*
 * Level 1-2 ids are the same on every vendor; vendors' names for the same
 * nodes map onto them.  The ids stay canonical (diff compares across
 * vendors by id), but a node is shown by the name its vendor's tools
 * and documents use: AMD's Zen 4 and Zen 5 pipeline utilisation nodes
 * (perf's amdzen4/amdzen5 pipeline.json metric names; the "Pipeline
 * Utilization" section of AMD's Software Optimization Guides for family
 * 19h and 1Ah) are Retiring Fastpath, not Light Operations.
 */
static const struct { const char *from, *to, *vendor_name; } canonical_ids[] = {
	{ "frontend_latency", "fetch_latency", NULL },
	{ "frontend_bound_latency", "fetch_latency", "Frontend Latency" },
	{ "frontend_bound_by_latency", "fetch_latency", "Frontend Latency" },
	{ "frontend_bandwidth", "fetch_bandwidth", NULL },
	{ "frontend_bound_bandwidth", "fetch_bandwidth", "Frontend Bandwidth" },
	{ "frontend_bound_by_bandwidth", "fetch_bandwidth", "Frontend Bandwidth" },
	{ "bad_speculation_mispredicts", "branch_mispredicts", "Branch Mispredicts" },
	{ "bad_speculation_from_mispredicts", "branch_mispredicts", "Branch Mispredicts" },
	{ "bad_speculation_pipeline_restarts", "machine_clears", "Pipeline Restarts" },
	{ "bad_speculation_from_pipeline_restarts", "machine_clears", "Pipeline Restarts" },
	{ "backend_bound_memory", "memory_bound", "Backend Memory" },
	{ "backend_bound_by_memory", "memory_bound", "Backend Memory" },
	{ "load_store_bound", "memory_bound", NULL },
	{ "backend_bound_cpu", "core_bound", "Backend CPU" },
	{ "backend_bound_by_cpu", "core_bound", "Backend CPU" },
	{ "retiring_fastpath", "light_operations", "Retiring Fastpath" },
	{ "retiring_from_fastpath", "light_operations", "Retiring Fastpath" },
	{ "base", "light_operations", NULL },
	{ "retiring_microcode", "heavy_operations", "Retiring Microcode" },
	{ "retiring_from_microcode", "heavy_operations", "Retiring Microcode" },
	{ "ms_uops", "heavy_operations", NULL },
	{ "ifetch_latency", "fetch_latency", NULL },          /* Intel E-cores (Crestmont, Skymont) */
	{ "ifetch_bandwidth", "fetch_bandwidth", NULL },
	/* info metrics users look for by a short name */
	{ "info_thread_ipc", "ipc", NULL },
	{ "info_thread_cpi", "cpi", NULL },
	{ "info_thread_uoppi", "uops_per_instr", NULL },
	{ "info_frontend_dsb_coverage", "dsb_coverage", NULL },
};

/* One line per Level 1-2 node, in our own words. */
static const struct { const char *id, *name, *text; } node_words[] = {
	{ "frontend_bound", "Frontend Bound",
	  "Issue slots left empty because the frontend delivered no uop while the backend could take one." },
	{ "bad_speculation", "Bad Speculation",
	  "Issue slots spent on uops that never retire, plus the slots lost recovering from the wrong path." },
	{ "backend_bound", "Backend Bound",
	  "Issue slots left empty because the backend had no room for new uops (memory or execution resources)." },
	{ "retiring", "Retiring",
	  "Issue slots filled by uops that eventually retired: the useful work." },
	{ "smt_contention", "SMT Contention",
	  "Dispatch slots the core gave to the other hardware thread." },
	{ "fetch_latency", "Fetch Latency",
	  "Frontend slots lost while instruction fetch stalled (instruction cache or TLB misses, resteers)." },
	{ "fetch_bandwidth", "Fetch Bandwidth",
	  "Frontend slots lost because decode or the uop cache delivered fewer uops than the issue width." },
	{ "branch_mispredicts", "Branch Mispredicts",
	  "Slots wasted on the wrong path after mispredicted branches and on the recovery from them." },
	{ "machine_clears", "Machine Clears",
	  "Slots wasted by pipeline flushes other than branch mispredictions (memory ordering, self-modifying code, nukes)." },
	{ "memory_bound", "Memory Bound",
	  "Backend slots stalled on loads or stores waiting for the memory hierarchy." },
	{ "core_bound", "Core Bound",
	  "Backend slots stalled on the execution core itself: busy ports, dividers, long dependency chains." },
	{ "light_operations", "Light Operations",
	  "Retired slots of simple instructions, about one uop each." },
	{ "heavy_operations", "Heavy Operations",
	  "Retired slots of instructions that take several uops or the microcode sequencer." },
};

/* Default thresholds for Level 1-2 nodes when the source has none (TMA's values). */
static const struct { const char *id; double limit; } default_thresholds[] = {
	{ "frontend_bound", 0.15 }, { "bad_speculation", 0.15 }, { "backend_bound", 0.20 },
	{ "retiring", 0.70 }, { "smt_contention", 0.10 },
	{ "fetch_latency", 0.10 }, { "fetch_bandwidth", 0.10 }, { "branch_mispredicts", 0.10 },
	{ "machine_clears", 0.10 }, { "memory_bound", 0.20 }, { "core_bound", 0.10 },
	{ "light_operations", 0.60 }, { "heavy_operations", 0.10 },
};

/* The vendor's display name of a renamed node ("retiring_fastpath"), or NULL. */
static const char *vendor_name(const char *metric_name)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(canonical_ids); i++)
		if (!strcasecmp(canonical_ids[i].from, metric_name))
			return canonical_ids[i].vendor_name;
	return NULL;
}

static const char *canonical_id(const char *id)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(canonical_ids); i++)
		if (!strcmp(canonical_ids[i].from, id))
			return canonical_ids[i].to;
	return id;
}

/* "Info_Frontend_DSB_Coverage" -> "DSB Coverage"; "L1_Bound" -> "L1 Bound" */
static int all_lower(const char *s)
{
	for (; *s; s++)
		if (isupper((unsigned char)*s))
			return 0;
	return 1;
}

/*
 * perf's lower-case names ("tma_store_bound", "all_l2_cache_accesses_pti")
 * read as titles: "Store Bound", "All L2 Cache Accesses PTI".  perfmon's
 * own names keep their case.
 */
static void title_case(struct strbuf *sb)
{
	static const char *const upper[] = {
		"l1", "l2", "l3", "llc", "dram", "stlb", "dtlb", "itlb", "tlb", "smc", "fp", "cisc", "ms",
		"dsb", "mite", "lsd", "pti", "ipc", "cpi", "smt", "umc", "cas", "dma", "numa", "io", "ic",
		"dc", "hwpf", "uops", "mpki", "os", "ld", "st", "rsv", "fb", "x87", "avx", "sse", "amx",
		"cpu", "mpi", "l1d", "l1i", "pki", "ddr", "pmem", "upi", "qpi", "pcie", "iommu", "gb",
	};
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf;

	while (*p) {
		size_t n = strcspn(p, " "), k;
		int done = 0;

		for (k = 0; k < sizeof(upper) / sizeof(upper[0]) && !done; k++)
			if (strlen(upper[k]) == n && !strncmp(p, upper[k], n)) {
				for (size_t j = 0; j < n; j++)
					strbuf_addch(&out, toupper((unsigned char)p[j]));
				done = 1;
			}
		if (!done) {
			strbuf_addch(&out, toupper((unsigned char)p[0]));
			strbuf_add(&out, p + 1, n - 1);
		}
		p += n;
		while (*p == ' ')
			strbuf_addch(&out, *p++);
	}
	strbuf_reset(sb);
	strbuf_addstr(sb, out.buf);
	strbuf_release(&out);
}

static void display_name(struct strbuf *sb, const char *metric_name)
{
	const char *s = metric_name;
	size_t i;

	strbuf_reset(sb);
	if (!strncmp(s, "Info_", 5)) {
		const char *u = strchr(s + 5, '_');

		s = u ? u + 1 : s + 5;
	} else if (!strncmp(s, "tma_", 4)) {
		s += 4;
	}
	for (i = 0; s[i]; i++)
		strbuf_addch(sb, s[i] == '_' ? ' ' : s[i]);
	if (all_lower(sb->buf))
		title_case(sb);
}

/* ---------------- event names ---------------- */

static const struct { const char *perfmon, *perf; } topdown_names[] = {
	{ "PERF_METRICS.FRONTEND_BOUND", "topdown-fe-bound" },
	{ "PERF_METRICS.BAD_SPECULATION", "topdown-bad-spec" },
	{ "PERF_METRICS.RETIRING", "topdown-retiring" },
	{ "PERF_METRICS.BACKEND_BOUND", "topdown-be-bound" },
	{ "PERF_METRICS.HEAVY_OPERATIONS", "topdown-heavy-ops" },
	{ "PERF_METRICS.BRANCH_MISPREDICTS", "topdown-br-mispredict" },
	{ "PERF_METRICS.FETCH_LATENCY", "topdown-fetch-lat" },
	{ "PERF_METRICS.MEMORY_BOUND", "topdown-mem-bound" },
};

static int is_topdown(const char *name)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(topdown_names); i++)
		if (!strcasecmp(topdown_names[i].perf, name))
			return 1;
	return 0;
}

/*
 * perfmon's "UOPS_DECODED.DEC0:c1", "INST_RETIRED.ANY_P:SUP",
 * "TOPDOWN.SLOTS:perf_metrics" -> the names our formulas use (perf's
 * spelling): "cpu@UOPS_DECODED.DEC0,cmask=1@", "INST_RETIRED.ANY_P:k",
 * "TOPDOWN.SLOTS".
 */
static void perfmon_event_name(struct imp *im, const char *in, struct strbuf *out)
{
	struct strbuf base = STRBUF_INIT, terms = STRBUF_INIT, suffix = STRBUF_INIT;
	const char *colon = strchr(in, ':');
	size_t i;

	strbuf_reset(out);
	strbuf_add(&base, in, colon ? (size_t)(colon - in) : strlen(in));
	for (i = 0; i < TD_ARRAY_SIZE(topdown_names); i++)
		if (!strcasecmp(base.buf, topdown_names[i].perfmon)) {
			strbuf_addstr(out, topdown_names[i].perf);
			goto done;
		}
	while (colon) {
		const char *m = colon + 1, *end = strchr(m, ':');
		size_t n = end ? (size_t)(end - m) : strlen(m);
		char mod[64];

		if (n >= sizeof(mod))
			n = sizeof(mod) - 1;
		memcpy(mod, m, n);
		mod[n] = '\0';
		colon = end;
		if (!strcasecmp(mod, "perf_metrics"))
			continue;
		if (!strcasecmp(mod, "sup")) {
			strbuf_addstr(&suffix, ":k");
		} else if (!strcasecmp(mod, "user")) {
			strbuf_addstr(&suffix, ":u");
		} else if (!strcasecmp(mod, "retire_latency")) {
			strbuf_addstr(&suffix, ":R");
		} else if (!strcasecmp(mod, "percore")) {
			strbuf_addstr(&suffix, ":percore");
		} else if (!strncasecmp(mod, "ocr_msr_val=", 12)) {
			strbuf_addf(&terms, ",offcore_rsp=%s", mod + 12);
		} else if (!strncmp(mod, "eq", 2) && isdigit((unsigned char)mod[2])) {
			strbuf_addf(&terms, ",eq=%s", mod + 2);
		} else if (mod[0] == 'c' && isdigit((unsigned char)mod[1])) {
			strbuf_addf(&terms, ",cmask=%s", mod + 1);
		} else if (mod[0] == 'e' && isdigit((unsigned char)mod[1])) {
			if (strcmp(mod + 1, "0"))
				strbuf_addstr(&terms, ",edge");
		} else if (mod[0] == 'i' && isdigit((unsigned char)mod[1])) {
			if (strcmp(mod + 1, "0"))
				strbuf_addstr(&terms, ",inv");
		} else if (mod[0] == 'u' && mod[1] == '0') {
			strbuf_addf(&terms, ",umask=%s", mod + 1);
		} else {
			strbuf_addf(&suffix, ":%s", mod);
		}
	}
	if (terms.len)
		strbuf_addf(out, "%s@%s%s@%s", im->pmu, base.buf, terms.buf, suffix.buf);
	else
		strbuf_addf(out, "%s%s", base.buf, suffix.buf);
done:
	strbuf_release(&base);
	strbuf_release(&terms);
	strbuf_release(&suffix);
}

/* ---------------- formula rewriting ---------------- */

/* "4k_aliasing": digits followed by a letter or '_' (not a number like 1e9, 0x1f) */
static int starts_name(const char *p)
{
	char *end;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return 0;
	strtod(p, &end);
	return isalpha((unsigned char)*end) || *end == '_';
}

/*
 * Rewrite the words of a perfmon formula with map(); numbers, operators
 * and spacing are kept.  Returns -1 (reason in err) when map() fails.
 */
static int rewrite_words(const char *text, struct strbuf *out, struct strbuf *err,
			 int (*map)(void *ctx, const char *word, struct strbuf *to, struct strbuf *err),
			 void *ctx)
{
	const char *p = text;
	struct strbuf word = STRBUF_INIT, to = STRBUF_INIT;
	int rc = 0;

	strbuf_reset(out);
	while (*p && !rc) {
		if ((isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) &&
		    !starts_name(p)) {
			const char *start = p;

			while (isalnum((unsigned char)*p) || *p == '.' ||
			       ((*p == '+' || *p == '-') && p - start >= 1 &&
				(p[-1] == 'e' || p[-1] == 'E') && !(start[0] == '0' && start[1] == 'x')))
				strbuf_addch(out, *p++);
		} else if (isalnum((unsigned char)*p) || *p == '_' || *p == '#' || *p == '$') {
			strbuf_reset(&word);
			while (isalnum((unsigned char)*p) || (*p && strchr("_.#:=$[]", *p)))
				strbuf_addch(&word, *p++);
			strbuf_reset(&to);
			if (!strcmp(word.buf, "if") || !strcmp(word.buf, "else") ||
			    !strcmp(word.buf, "min") || !strcmp(word.buf, "max")) {
				strbuf_addstr(out, word.buf);
				continue;
			}
			rc = map(ctx, word.buf, &to, err);
			strbuf_addstr(out, to.buf);
		} else {
			strbuf_addch(out, *p++);
		}
	}
	strbuf_release(&word);
	strbuf_release(&to);
	return rc;
}

/* Constants perfmon names, as our literals. */
static int constant_name(const char *name, struct strbuf *to)
{
	static const struct { const char *from, *to; } constants[] = {
		{ "HYPERTHREADING_ON", "#smt_on" }, { "smt_on", "#smt_on" },
		{ "SYSTEM_TSC_FREQ", "#system_tsc_freq" },
		{ "SOCKET_COUNT", "#num_packages" }, { "socket_count", "#num_packages" },
		{ "THREADS_PER_CORE", "(#smt_on + 1)" }, { "threads", "(#smt_on + 1)" },
		{ "CORES_PER_SOCKET", "(#num_cores / #num_packages)" },
		{ "DURATIONTIMEINMILLISECONDS", "(duration_time * 1000)" },
		{ "DURATIONTIMEINSECONDS", "duration_time" },
		{ "duration_time", "duration_time" },
		{ "num_cpus", "#num_cpus" }, { "NUM_CPUS", "#num_cpus" },
		{ "tsc", "TSC" }, { "TSC", "TSC" },
	};
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(constants); i++)
		if (!strcmp(name, constants[i].from)) {
			strbuf_addstr(to, constants[i].to);
			return 0;
		}
	if (isdigit((unsigned char)name[0])) {
		strbuf_addstr(to, name);
		return 0;
	}
	return -1;
}

struct perfmon_ctx {
	struct imp *im;
	json_t *metric;          /* the perfmon metric object */
	json_t *ids;             /* lower(MetricName) -> our id */
	int alias_mode;          /* Formula with aliases instead of BaseFormula */
};

static void add_event_token(struct imp *im, const char *perfmon_name, struct strbuf *to)
{
	struct strbuf name = STRBUF_INIT;

	perfmon_event_name(im, perfmon_name, &name);
	td_expr_print_name(to, name.buf);
	strbuf_release(&name);
}

static int perfmon_word(void *vctx, const char *word, struct strbuf *to, struct strbuf *err)
{
	struct perfmon_ctx *cx = vctx;
	json_t *list, *e;
	size_t i;

	if (cx->alias_mode) {
		list = json_object_get(cx->metric, "Events");
		json_array_foreach(list, i, e)
			if (jstr(e, "Alias") && !strcmp(jstr(e, "Alias"), word)) {
				if (!strcasecmp(jstr(e, "Name"), "TSC"))
					strbuf_addstr(to, "TSC");
				else
					add_event_token(cx->im, jstr(e, "Name"), to);
				return 0;
			}
		list = json_object_get(cx->metric, "Constants");
		json_array_foreach(list, i, e)
			if (jstr(e, "Alias") && !strcmp(jstr(e, "Alias"), word)) {
				if (constant_name(jstr(e, "Name"), to)) {
					strbuf_addf(err, "constant %s", jstr(e, "Name"));
					return -1;
				}
				return 0;
			}
		if (!constant_name(word, to))
			return 0;
		strbuf_addf(err, "unknown alias '%s'", word);
		return -1;
	}
	if (!strncmp(word, "tma_", 4)) {
		const char *id = jstr(cx->ids, word + 4);

		if (!id) {
			strbuf_addf(err, "refers to unknown metric '%s'", word);
			return -1;
		}
		strbuf_addstr(to, id);
		return 0;
	}
	if (!constant_name(word, to))
		return 0;
	list = json_object_get(cx->metric, "Events");
	json_array_foreach(list, i, e)
		if (jstr(e, "Name") && !strcasecmp(jstr(e, "Name"), word)) {
			add_event_token(cx->im, jstr(e, "Name"), to);
			return 0;
		}
	strbuf_addf(err, "unknown name '%s'", word);
	return -1;
}

/* ---------------- thresholds ---------------- */

static int bound_is_fraction(struct imp *im, const struct td_expr *e, json_t *fraction_ids)
{
	(void)im;
	return e->op == TD_OP_NAME && json_is_true(json_object_get(fraction_ids, e->name));
}

/* Compare a fraction-valued metric with a percent number: rescale the number. */
static void rescale_percent(struct imp *im, struct td_expr *e, json_t *fraction_ids)
{
	int i;

	if (!e)
		return;
	if (e->op >= TD_OP_LT && e->op <= TD_OP_NE) {
		for (i = 0; i < 2; i++) {
			struct td_expr *num = e->kid[1 - i];

			if (bound_is_fraction(im, e->kid[i], fraction_ids)) {
				td_expr_fold(num);
				if (num->op == TD_OP_NUM)
					num->num /= 100;
			}
		}
	}
	for (i = 0; i < 3; i++)
		rescale_percent(im, e->kid[i], fraction_ids);
}

static int legacy_word(void *vctx, const char *word, struct strbuf *to, struct strbuf *err)
{
	json_t *map = vctx;
	const char *id = jstr(map, word);

	if (!id) {
		strbuf_addf(err, "threshold names unknown '%s'", word);
		return -1;
	}
	strbuf_addstr(to, id);
	return 0;
}

/* Threshold.Formula with aliases -> our ids, percent limits as fractions. */
static int perfmon_threshold(struct imp *im, json_t *m, json_t *legacy_ids, json_t *fraction_ids,
			     struct strbuf *out, struct strbuf *err)
{
	json_t *th = json_object_get(m, "Threshold"), *tm, *alias_map;
	const char *formula = jstr(th, "Formula");
	struct strbuf text = STRBUF_INIT;
	struct td_expr *e;
	size_t i;
	int rc = -1;

	strbuf_reset(out);
	if (!formula || !*formula)
		return 0;
	alias_map = json_object();
	json_array_foreach(json_object_get(th, "ThresholdMetrics"), i, tm) {
		const char *id = jstr(legacy_ids, jstr(tm, "Value") ? jstr(tm, "Value") : "");

		if (jstr(tm, "Alias") && id)
			json_object_set_new(alias_map, jstr(tm, "Alias"), json_string(id));
	}
	if (rewrite_words(formula, &text, err, legacy_word, alias_map))
		goto out;
	e = td_expr_parse(text.buf, err);
	if (!e)
		goto out;
	rescale_percent(im, e, fraction_ids);
	td_expr_print(e, out);
	td_expr_free(e);
	rc = 0;
out:
	json_decref(alias_map);
	strbuf_release(&text);
	return rc;
}

/* ---------------- perfmon metrics ---------------- */

static int is_tree_node(json_t *m)
{
	const char *legacy = jstr(m, "LegacyName"), *name = jstr(m, "MetricName");
	size_t n;

	if (!legacy || !name || strncmp(legacy, "metric_TMA_", 11))
		return 0;
	if (!strncmp(name, "Info_", 5) || !strncmp(name, "Bottleneck_", 11))
		return 0;
	n = strlen(legacy);
	return n > 3 && !strcmp(legacy + n - 3, "(%)");
}

static const char *perfmon_unit(json_t *m)
{
	const char *u = jstr(m, "UnitOfMeasure");
	const char *d = jstr(m, "CountDomain");

	if (u && !strcmp(u, "percent"))
		return "percent";
	if (u && !strcmp(u, "per instruction"))
		return "per_instr";
	if (u && *u)
		return u;
	if (d && !strcmp(d, "Count"))
		return "count";
	if (d && !strcmp(d, "Seconds"))
		return "seconds";
	if (d && !strcmp(d, "GB/sec"))
		return "GB/s";
	if (d && strstr(d, "Inst"))
		return "instructions";
	if (d && strstr(d, "Clocks"))
		return "clocks";
	return "ratio";
}

/*
 * The description of a metric that neither an extra file nor node_words
 * describes (a table imported for a CPU newer than metrics/compat/
 * descriptions.json): it says where the metric sits and that nothing more
 * is known, rather than pretending to explain it.
 */
static void describe(struct strbuf *sb, const char *id, const char *display, int level,
		     const char *parent_display, const char *domain, const char *area)
{
	size_t i;

	strbuf_reset(sb);
	for (i = 0; i < TD_ARRAY_SIZE(node_words); i++)
		if (!strcmp(node_words[i].id, id)) {
			strbuf_addstr(sb, node_words[i].text);
			return;
		}
	if (!display)
		display = id;
	if (level >= 1)
		strbuf_addf(sb, "Level %d node '%s' under %s (in %s); tdperf has no description "
			    "of it: read its formula.", level, display,
			    parent_display ? parent_display : "the tree root", domain ? domain : "slots");
	else
		strbuf_addf(sb, "%s metric '%s'; tdperf has no description of it: read its formula.",
			    area ? area : "Info", display);
}

static const char *domain_of(json_t *m)
{
	const char *d = jstr(m, "CountDomain");

	if (!d)
		return "slots";
	if (!strcmp(d, "Slots") || !strcmp(d, "Scaled_Slots"))
		return "slots";
	if (!strcmp(d, "Clocks") || !strcmp(d, "Core_Clocks") || !strcmp(d, "Clocks_Estimated") ||
	    !strcmp(d, "Clocks_Calculated"))
		return "clocks";
	return "slots";
}

static json_t *load_json(const char *path, struct strbuf *err)
{
	json_error_t jerr;
	json_t *j = json_load_file(path, 0, &jerr);

	if (!j)
		strbuf_addf(err, "%s:%d: %s", path, jerr.line, jerr.text);
	return j;
}

static void info_area(struct strbuf *sb, const char *name)
{
	const char *u;

	strbuf_reset(sb);
	if (!strncmp(name, "Info_", 5) && (u = strchr(name + 5, '_'))) {
		strbuf_addstr(sb, "Info.");
		strbuf_add(sb, name + 5, (size_t)(u - name - 5));
	} else if (!strncmp(name, "Bottleneck_", 11)) {
		strbuf_addstr(sb, "Bottleneck");
	} else {
		strbuf_addstr(sb, "Info.System");
	}
}

/* Level of perfmon metric NAME (0 when it is not in the file or has none). */
static int perfmon_level(json_t *levels, const char *name)
{
	return name ? (int)json_integer_value(json_object_get(levels, name)) : 0;
}

/*
 * Put tree node m (our id) in the tree: its parent and level, into out.
 * perfmon lists the tree in pre-order, so last_at_level[n] is the last
 * node seen at Level n.  A node's ParentCategory is followed when it is one
 * level up.  When it is missing (icelakex: MEM_Bandwidth, MEM_Latency) or
 * contradicts the node's Level (skylakex, cascadelakex, rocketlake:
 * Nop_Instructions Level 4 under Light_Operations, a Level 2 node;
 * Serializing_Operation Level 3 under Ports_Utilized_0, a Level 4 node),
 * the Level and the order decide: the node goes under the last node one
 * level up.  That is where Intel's TMA spreadsheet (TMA_Metrics-full.csv)
 * has every one of them, and what Intel's Bottleneck formulas assume
 * (Bottleneck_Compute_Bound_Est shares Core_Bound among Divider,
 * Serializing_Operation and Ports_Utilization); a "tree_note" says so.
 */
static void perfmon_place(json_t *out, json_t *m, const char *id, json_t *levels,
			  char last_at_level[][128], size_t nlevels, const char *file)
{
	const char *parent = jstr(m, "ParentCategory");
	int level = (int)json_integer_value(json_object_get(m, "Level"));
	struct strbuf low = STRBUF_INIT, why = STRBUF_INIT;

	if (parent && perfmon_level(levels, parent) == level - 1) {
		lower(&low, parent);
		json_object_set_new(out, "parent", json_string(canonical_id(low.buf)));
	} else if (level > 1 && (size_t)level < nlevels && last_at_level[level - 1][0]) {
		json_object_set_new(out, "parent", json_string(last_at_level[level - 1]));
		if (parent)
			strbuf_addf(&why, "Intel's %s gives Level %d and ParentCategory %s, a Level %d node: "
				    "the two disagree", file, level, parent, perfmon_level(levels, parent));
		else
			strbuf_addf(&why, "Intel's %s gives Level %d and no ParentCategory", file, level);
		strbuf_addf(&why, "; placed by its Level and the file's order under %s, where Intel's TMA "
			    "spreadsheet (TMA_Metrics-full.csv) has it",
			    last_at_level[level - 1]);
		json_object_set_new(out, "tree_note", json_string(why.buf));
		if (td_verbose)
			note("import: %s: %s", id, why.buf);
	}
	if (level >= 1 && (size_t)level < nlevels)
		snprintf(last_at_level[level], sizeof(last_at_level[level]), "%s", id);
	json_object_set_new(out, "level", json_integer(level));
	strbuf_release(&low);
	strbuf_release(&why);
}

static int import_perfmon(struct imp *im, const char *path, struct strbuf *err)
{
	json_t *root = load_json(path, err), *list, *m;
	json_t *ids, *legacy_ids, *fraction_ids, *levels;
	struct strbuf sb = STRBUF_INIT, low = STRBUF_INIT, text = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf th = STRBUF_INIT, disp = STRBUF_INIT, idb = STRBUF_INIT;
	const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t i;
	int pass;
	char last_at_level[10][128] = { { 0 } };

	if (!root)
		return -1;
	list = json_object_get(root, "Metrics");
	if (!json_is_array(list)) {
		strbuf_addf(err, "%s: no \"Metrics\" array (not a perfmon metrics file)", path);
		json_decref(root);
		return -1;
	}
	{
		json_t *h = json_object_get(root, "Header");
		const char *base = strrchr(path, '/');

		strbuf_addf(&im->source, "%sIntel perfmon %s (version %s, TMA %s)",
			    im->source.len ? "; " : "", base ? base + 1 : path,
			    jstr(h, "Version") ? jstr(h, "Version") : "?",
			    jstr(h, "TmaVersion") ? jstr(h, "TmaVersion") : "?");
	}
	ids = json_object();
	legacy_ids = json_object();
	fraction_ids = json_object();
	levels = json_object();
	json_array_foreach(list, i, m) {
		const char *name = jstr(m, "MetricName");
		const char *id;

		if (!name)
			continue;
		if (is_tree_node(m))
			json_object_set_new(levels, name, json_integer(json_integer_value(json_object_get(m, "Level"))));
		lower(&low, name);
		id = canonical_id(low.buf);
		json_object_set_new(ids, low.buf, json_string(id));
		if (jstr(m, "LegacyName"))
			json_object_set_new(legacy_ids, jstr(m, "LegacyName"), json_string(id));
		if (is_tree_node(m))
			json_object_set_new(fraction_ids, id, json_true());
	}
	for (pass = 0; pass < 2; pass++)
	json_array_foreach(list, i, m) {
		const char *name = jstr(m, "MetricName"), *id, *cat = jstr(m, "Category");
		struct perfmon_ctx cx = { im, m, ids, 0 };
		const char *formula;
		json_t *out;
		int tree = is_tree_node(m);

		if (!name || (pass == 0) != (cat && !strcmp(cat, "TMA")))
			continue;
		/* id outlives low, which the parent's name is lowered into below */
		lower(&low, name);
		strbuf_reset(&idb);
		strbuf_addstr(&idb, canonical_id(low.buf));
		id = idb.buf;
		if (find_metric(im, id))
			continue; /* TMA's metric of the same id (imported first) wins */
		strbuf_reset(&why);
		if (cat && !strcmp(cat, "TMA") && jstr(m, "BaseFormula")) {
			formula = jstr(m, "BaseFormula");
		} else {
			formula = jstr(m, "Formula");
			cx.alias_mode = 1;
		}
		if (!formula || rewrite_words(formula, &text, &why, perfmon_word, &cx)) {
			note_dropped(im, id, why.len ? why.buf : "no formula");
			continue;
		}
		strbuf_trim(&text);
		if (perfmon_threshold(im, m, legacy_ids, fraction_ids, &th, &why)) {
			if (td_verbose)
				note("import: %s: threshold left out: %s", id, why.buf);
			strbuf_reset(&th);
		}
		out = json_object();
		json_object_set_new(out, "id", json_string(id));
		display_name(&disp, name);
		json_object_set_new(out, "name", json_string(disp.buf));
		if (tree) {
			perfmon_place(out, m, id, levels, last_at_level, TD_ARRAY_SIZE(last_at_level), file);
			json_object_set_new(out, "domain", json_string(domain_of(m)));
			json_object_set_new(out, "unit", json_string(domain_of(m)));
		} else {
			info_area(&sb, name);
			json_object_set_new(out, "level", json_integer(0));
			json_object_set_new(out, "unit", json_string(perfmon_unit(m)));
			json_object_set_new(out, "area", json_string(sb.buf));
		}
		json_object_set_new(out, "formula", json_string(text.buf));
		if (th.len)
			json_object_set_new(out, "threshold", json_string(th.buf));
		if (jstr(m, "LocateWith") && !strstr(jstr(m, "LocateWith"), "#NA")) {
			strbuf_reset(&sb);
			strbuf_addstr(&sb, jstr(m, "LocateWith"));
			strbuf_trim(&sb);
			if (sb.len)
				json_object_set_new(out, "locate_with", json_string(sb.buf));
		}
		if (jstr(m, "MetricGroup") && *jstr(m, "MetricGroup"))
			json_object_set_new(out, "groups", json_string(jstr(m, "MetricGroup")));
		json_array_append_new(im->metrics, out);
	}
	json_decref(ids);
	json_decref(legacy_ids);
	json_decref(fraction_ids);
	json_decref(levels);
	json_decref(root);
	strbuf_release(&sb);
	strbuf_release(&idb);
	strbuf_release(&low);
	strbuf_release(&text);
	strbuf_release(&why);
	strbuf_release(&th);
	strbuf_release(&disp);
	return 0;
}

/* ---------------- perf pmu-events metrics ---------------- */

/* perf metric name -> our id: "tma_fetch_latency" -> "fetch_latency", "SLOTS" -> "info_thread_slots" */
static void perf_metric_id(const char *name, struct strbuf *id)
{
	struct strbuf low = STRBUF_INIT;
	const char *s;

	lower(&low, name);
	s = low.buf;
	if (!strncmp(s, "tma_", 4))
		s += 4;
	strbuf_reset(id);
	if (!strcmp(s, "slots") || !strcmp(s, "clks") || !strcmp(s, "clks_p"))
		strbuf_addf(id, "info_thread_%s", s);
	else if (!strcmp(s, "core_clks"))
		strbuf_addstr(id, "info_core_core_clks");
	else if (!strcmp(s, "ipc") || !strcmp(s, "cpi"))
		strbuf_addstr(id, s);
	else if (!strcmp(s, "upi"))
		strbuf_addstr(id, "uops_per_instr");
	else
		strbuf_addstr(id, canonical_id(s));
	strbuf_release(&low);
}

/* Parent and level from perf's groups: "TopdownL2;tma_frontend_bound_group". */
static int perf_tree_place(const char *groups, struct strbuf *parent)
{
	const char *p;
	int level = 0;

	strbuf_reset(parent);
	if (!groups)
		return 0;
	if ((p = strstr(groups, "TopdownL")) || (p = strstr(groups, "PipelineL")))
		level = atoi(p + (p[0] == 'T' ? 8 : 9));
	for (p = groups; *p; ) {
		const char *end = strchr(p, ';');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n > 6 && !strncmp(p + n - 6, "_group", 6) && strncmp(p, "tma_L", 5)) {
			struct strbuf raw = STRBUF_INIT;

			strbuf_add(&raw, p, n - 6);
			perf_metric_id(raw.buf, parent);
			strbuf_release(&raw);
		}
		p = end ? end + 1 : p + n;
	}
	return level;
}

struct rename_ctx {
	json_t *names;           /* perf metric name -> our id */
};

static void rename_refs(struct td_expr *e, json_t *names)
{
	int i;

	if (!e)
		return;
	if (e->op == TD_OP_NAME && e->kind != TD_NAME_LITERAL) {
		const char *id = jstr(names, e->name);

		if (id) {
			free(e->name);
			e->name = xstrdup(id);
		}
	}
	for (i = 0; i < 3; i++)
		rename_refs(e->kid[i], names);
}

/*
 * Is a perf metric part of the auxiliary Level-1 view: backend_bound_aux
 * and everything below it (resource_bound, mem_scheduler, st_buffer, ...)?
 * parents: id -> parent id of every metric of the file.
 */
static int in_aux_view(json_t *parents, const char *id)
{
	int depth;

	for (depth = 0; id && depth < 16; depth++) {
		if (strstr(id, "_aux") || !strcmp(id, "resource_bound"))
			return 1;
		id = json_string_value(json_object_get(parents, id));
	}
	return 0;
}

/*
 * perf's ScaleUnit is a display factor and a unit in one ("100%",
 * "1e3per_1k_instr", "6.4e-5MB/s"): perf multiplies the formula's value by
 * the factor when it prints.  The formula keeps its raw value (other
 * metrics refer to it), so the table says "scale" and a plain "unit", and
 * the report shows value x scale in that unit.
 */
static void set_scale_unit(json_t *out, const char *scale_unit)
{
	char *end;
	double f;
	const char *u;

	if (!scale_unit || !*scale_unit) {
		json_object_set_new(out, "unit", json_string("count"));
		return;
	}
	f = strtod(scale_unit, &end);
	if (end == scale_unit || !isfinite(f) || f <= 0) {
		json_object_set_new(out, "unit", json_string(scale_unit));
		return;
	}
	u = end;
	while (*u == ' ')
		u++;
	if (!strcmp(u, "%") || !strcmp(u, "%slots") || !strcmp(u, "%ops"))
		u = "percent";
	else if (!strcmp(u, "per_1k_instr"))
		u = "per_kilo_instr";
	else if (!*u)
		u = "ratio";
	json_object_set_new(out, "unit", json_string(u));
	if (f != 1)
		json_object_set_new(out, "scale", json_real(f));
}

static int import_perf_metrics_file(struct imp *im, json_t *arr, const char *path, struct strbuf *err)
{
	size_t before = json_array_size(im->metrics);
	const char *unit = im->o->unit;
	json_t *names = json_object(), *parents = json_object(), *m;
	struct strbuf id = STRBUF_INIT, parent = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT, disp = STRBUF_INIT, th = STRBUF_INIT;
	size_t i;

	json_array_foreach(arr, i, m) {
		const char *mu = jstr(m, "Unit");

		if (!jstr(m, "MetricName") || !jstr(m, "MetricExpr"))
			continue;
		if (unit ? !mu || strcmp(mu, unit) : mu && strcmp(mu, "cpu"))
			continue;
		perf_metric_id(jstr(m, "MetricName"), &id);
		json_object_set_new(names, jstr(m, "MetricName"), json_string(id.buf));
		if (perf_tree_place(jstr(m, "MetricGroup"), &parent) > 1 && parent.len)
			json_object_set_new(parents, id.buf, json_string(parent.buf));
	}
	json_array_foreach(arr, i, m) {
		const char *mu = jstr(m, "Unit"), *groups = jstr(m, "MetricGroup");
		const char *scale = jstr(m, "ScaleUnit");
		struct td_expr *e;
		json_t *out;
		int level, aux;

		if (!jstr(m, "MetricName") || !jstr(m, "MetricExpr"))
			continue;
		if (unit ? !mu || strcmp(mu, unit) : mu && strcmp(mu, "cpu"))
			continue;
		perf_metric_id(jstr(m, "MetricName"), &id);
		if (find_metric(im, id.buf))
			continue;
		level = perf_tree_place(groups, &parent);
		if (json_object_get(m, "TdLevel")) {
			/* import-arm.c placed it (its groups name whole levels only) */
			level = (int)json_integer_value(json_object_get(m, "TdLevel"));
			strbuf_reset(&parent);
			if (jstr(m, "TdParent"))
				strbuf_addstr(&parent, jstr(m, "TdParent"));
		}
		/*
		 * perf's auxiliary second Level-1 view (E-cores: backend_bound_aux >
		 * resource_bound > mem_scheduler ...) would break "Level 1 sums to
		 * 100 %" as tree nodes; the real tree's nodes use some of them
		 * (store_bound = mem_scheduler x ...), so they stay as helper metrics.
		 */
		aux = in_aux_view(parents, id.buf);
		if (aux) {
			level = 0;
			strbuf_reset(&parent);
		}
		strbuf_reset(&why);
		e = td_expr_parse(jstr(m, "MetricExpr"), &why);
		if (!e) {
			note_dropped(im, id.buf, why.buf);
			continue;
		}
		rename_refs(e, names);
		strbuf_reset(&text);
		td_expr_print(e, &text);
		td_expr_free(e);
		out = json_object();
		json_object_set_new(out, "id", json_string(id.buf));
		display_name(&disp, jstr(m, "MetricName"));
		if (vendor_name(jstr(m, "MetricName"))) {
			strbuf_reset(&disp);
			strbuf_addstr(&disp, vendor_name(jstr(m, "MetricName")));
			/* set_descriptions() keeps it (and drops this mark) */
			json_object_set_new(out, "vendor_named", json_true());
		}
		json_object_set_new(out, "name", json_string(disp.buf));
		if (level >= 1 && scale && strstr(scale, "%")) {
			if (parent.len && level > 1)
				json_object_set_new(out, "parent", json_string(parent.buf));
			json_object_set_new(out, "level", json_integer(level));
			json_object_set_new(out, "domain", json_string(jstr(m, "TdDomain") ? jstr(m, "TdDomain") : "slots"));
			json_object_set_new(out, "unit", json_string(jstr(m, "TdDomain") ? jstr(m, "TdDomain") : "slots"));
			if (jstr(m, "TdNote"))
				json_object_set_new(out, "note", json_string(jstr(m, "TdNote")));
		} else {
			json_object_set_new(out, "level", json_integer(0));
			json_object_set_new(out, "area", json_string(aux ? "Info.Aux_View" : groups ? "Info" : "Info.Helper"));
			set_scale_unit(out, scale);
		}
		json_object_set_new(out, "formula", json_string(text.buf));
		if (jstr(m, "MetricThreshold")) {
			e = td_expr_parse(jstr(m, "MetricThreshold"), &why);
			if (e) {
				rename_refs(e, names);
				strbuf_reset(&th);
				td_expr_print(e, &th);
				td_expr_free(e);
				json_object_set_new(out, "threshold", json_string(th.buf));
			}
		}
		if (groups)
			json_object_set_new(out, "groups", json_string(groups));
		json_array_append_new(im->metrics, out);
	}
	if (json_array_size(im->metrics) > before) {
		const char *base = strrchr(path, '/');

		strbuf_addf(&im->source, "%sLinux perf pmu-events %s%s%s", im->source.len ? "; " : "",
			    base ? base + 1 : path, unit ? " unit " : "", unit ? unit : "");
	}
	(void)err;
	json_decref(names);
	json_decref(parents);
	strbuf_release(&id);
	strbuf_release(&parent);
	strbuf_release(&text);
	strbuf_release(&why);
	strbuf_release(&disp);
	strbuf_release(&th);
	return 0;
}

/* ---------------- Intel's TMA spreadsheet (TMA_Metrics-full.csv) ---------------- */

/* Split one CSV record (quotes, doubled quotes) into fields; returns count. */
static size_t csv_fields(const char *line, char ***out)
{
	char **f = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf cur = STRBUF_INIT;
	const char *p = line;
	int quoted = 0;

	for (;; p++) {
		if (quoted) {
			if (*p == '"' && p[1] == '"') {
				strbuf_addch(&cur, '"');
				p++;
			} else if (*p == '"') {
				quoted = 0;
			} else if (*p) {
				strbuf_addch(&cur, *p);
			} else {
				break;
			}
			continue;
		}
		if (*p == '"') {
			quoted = 1;
		} else if (*p == ',' || !*p || *p == '\r') {
			TD_GROW(f, alloc, n + 1);
			f[n++] = strbuf_detach(&cur, NULL);
			if (*p != ',')
				break;
		} else {
			strbuf_addch(&cur, *p);
		}
	}
	strbuf_release(&cur);
	*out = f;
	return n;
}

static void free_fields(char **f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

struct tma_ctx {
	struct imp *im;
	json_t *names;           /* spreadsheet name -> our text */
};

static int tma_word(void *vctx, const char *word, struct strbuf *to, struct strbuf *err)
{
	struct tma_ctx *cx = vctx;
	const char *mapped = jstr(cx->names, word);
	struct strbuf up = STRBUF_INIT, base = STRBUF_INIT;
	const char *colon;
	int known;

	if (mapped) {
		strbuf_addstr(to, mapped);
		return 0;
	}
	if (!constant_name(word, to))
		return 0;
	if (word[0] == '#' || word[0] == '$') {
		strbuf_addf(err, "unknown name '%s'", word);
		return -1;
	}
	colon = strchr(word, ':');
	strbuf_add(&base, word, colon ? (size_t)(colon - word) : strlen(word));
	upper(&up, base.buf);
	known = json_object_get(cx->im->evdb, up.buf) != NULL ||
		(up.len > 3 && !strcmp(up.buf + up.len - 3, "_PS"));
	strbuf_release(&up);
	strbuf_release(&base);
	if (!known) {
		strbuf_addf(err, "unknown name '%s'", word);
		return -1;
	}
	add_event_token(cx->im, word, to);
	return 0;
}

static const char *tma_tree_area(const char *key)
{
	static const char *const areas[] = { "FE", "BAD", "BE", "BE/Mem", "BE/Core", "RET" };
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(areas); i++)
		if (!strcmp(key, areas[i]))
			return areas[i];
	return NULL;
}

/*
 * The E-core spreadsheet names percentages "%_Load_Miss_Bound_Cycles";
 * perfmon's JSON and our ids leave the sign out.
 */
static void drop_percent(struct strbuf *sb)
{
	size_t i, j = 0;

	for (i = 0; i < sb->len; i++) {
		if (sb->buf[i] == '%') {
			if (sb->buf[i + 1] == '_')
				i++;
			continue;
		}
		sb->buf[j++] = sb->buf[i];
	}
	strbuf_setlen(sb, j);
}

/* Our id for a spreadsheet row, into id; 0 when the row is not a metric. */
static int tma_row_id(const char *key, const char *name, struct strbuf *id)
{
	struct strbuf low = STRBUF_INIT, k = STRBUF_INIT;
	const char *c;

	strbuf_reset(id);
	lower(&low, name[0] == '#' ? name + 1 : name);
	drop_percent(&low);
	if (tma_tree_area(key)) {
		strbuf_addstr(id, canonical_id(low.buf));
	} else if (!strncmp(key, "Info.", 5)) {
		strbuf_addstr(&k, key + 5);
		strbuf_trim(&k);
		strbuf_addstr(id, "info_");
		for (c = k.buf; *c; c++)
			strbuf_addch(id, *c == '.' ? '_' : (char)tolower((unsigned char)*c));
		strbuf_addf(id, "_%s", low.buf);
		c = canonical_id(id->buf);
		if (c != id->buf) {
			struct strbuf tmp = STRBUF_INIT;

			strbuf_addstr(&tmp, c);
			strbuf_reset(id);
			strbuf_addstr(id, tmp.buf);
			strbuf_release(&tmp);
		}
	} else if (!strcmp(key, "Aux")) {
		strbuf_addf(id, "aux_%s", low.buf);
	} else if (!strcmp(key, "Bottleneck")) {
		strbuf_addf(id, "bottleneck_%s", low.buf);
	}
	strbuf_release(&low);
	strbuf_release(&k);
	return id->len > 0;
}

/* Intel's TMA spreadsheet, split into cells, and where its columns are. */
struct tma_sheet {
	char **hdr;              /* the "Key" row */
	size_t nhdr;
	char ***rows;            /* the rows after it */
	size_t *nrow, nrows;
	char version[64];        /* the "TMA,Version,..." row's version, or "" */
	long col;                /* the platform column asked for */
	long first_plat, last_plat; /* the platform columns: after the deepest level, before Locate-with */
	long c_dom, c_th, c_grp, c_loc; /* Count Domain, Threshold, Metric Group, Locate-with; -1 none */
};

static void tma_sheet_release(struct tma_sheet *sh)
{
	for (size_t r = 0; r < sh->nrows; r++)
		free_fields(sh->rows[r], sh->nrow[r]);
	free(sh->rows);
	free(sh->nrow);
	if (sh->hdr)
		free_fields(sh->hdr, sh->nhdr);
}

/* Split the file into records (a cell may hold a newline) and cells. */
static int tma_read(const char *path, struct tma_sheet *sh, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	size_t alloc = 0, arow = 0;
	const char *line;

	if (td_read_file(&text, path)) {
		strbuf_addf(err, "%s: cannot read", path);
		strbuf_release(&text);
		return -1;
	}
	line = text.buf;
	if (!strncmp(line, "\xef\xbb\xbf", 3))
		line += 3;
	while (*line) {
		const char *end = line;
		char *copy, **fl;
		size_t n;
		int quotes = 0;

		/* a record ends at a newline outside quotes (cells may hold newlines) */
		for (; *end && (*end != '\n' || quotes % 2); end++)
			if (*end == '"')
				quotes++;
		copy = xstrndup(line, (size_t)(end - line));
		n = csv_fields(copy, &fl);
		free(copy);
		if (!*end)
			end = NULL;
		if (!sh->hdr && n > 2 && !strcmp(fl[0], "TMA") && !strcmp(fl[1], "Version") &&
		    !sh->version[0]) {
			snprintf(sh->version, sizeof(sh->version), "%s", fl[2]);
			free_fields(fl, n);
		} else if (!sh->hdr && n > 0 && !strcmp(fl[0], "Key")) {
			sh->hdr = fl;
			sh->nhdr = n;
		} else if (sh->hdr) {
			TD_GROW(sh->rows, alloc, sh->nrows + 1);
			TD_GROW(sh->nrow, arow, sh->nrows + 1);
			sh->rows[sh->nrows] = fl;
			sh->nrow[sh->nrows++] = n;
		} else {
			free_fields(fl, n);
		}
		line = end ? end + 1 : line + strlen(line);
	}
	strbuf_release(&text);
	if (!sh->hdr) {
		strbuf_addf(err, "%s: no header row starting with \"Key\"", path);
		return -1;
	}
	return 0;
}

/* Find the columns by their headers; the tree may be at most max_level deep. */
static int tma_columns(struct tma_sheet *sh, const char *path, const char *column, size_t max_level,
		       struct strbuf *err)
{
	sh->col = sh->first_plat = sh->last_plat = -1;
	sh->c_dom = sh->c_th = sh->c_grp = sh->c_loc = -1;
	for (size_t c = 0; c < sh->nhdr; c++) {
		const char *h = sh->hdr[c];

		/* the platform columns follow the deepest level's (Level6 in the
		 * P-core spreadsheet, Level3 in the E-core one) */
		if (!strncmp(h, "Level", 5) && isdigit((unsigned char)h[5]))
			sh->first_plat = (long)c + 1;
		if (!strcmp(h, "Locate-with"))
			sh->c_loc = (long)c, sh->last_plat = (long)c - 1;
		if (!strcmp(h, column))
			sh->col = (long)c;
		if (!strcmp(h, "Count Domain"))
			sh->c_dom = (long)c;
		if (!strcmp(h, "Threshold"))
			sh->c_th = (long)c;
		if (!strcmp(h, "Metric Group"))
			sh->c_grp = (long)c;
	}
	if (sh->first_plat > (long)max_level + 1) {
		strbuf_addf(err, "%s: %ld levels: more than a tree of %zu levels", path,
			    sh->first_plat - 1, max_level);
		return -1;
	}
	if (sh->col < sh->first_plat || sh->col > sh->last_plat || sh->first_plat < 0) {
		strbuf_addf(err, "%s: no platform column '%s'", path, column);
		return -1;
	}
	return 0;
}

/* The cell of row r in column c, or NULL when the column or cell is absent. */
static const char *tma_cell(const struct tma_sheet *sh, size_t r, long c)
{
	return c >= 0 && (size_t)c < sh->nrow[r] ? sh->rows[r][c] : NULL;
}

/*
 * Names first: every row's name, and the spreadsheet's own literals, map
 * to the text our formulas use, so that a formula may reference a row
 * below it.
 */
static void tma_names(struct tma_ctx *cx, const struct tma_sheet *sh)
{
	struct strbuf id = STRBUF_INIT;

	json_object_set_new(cx->names, "#SMT_on", json_string("#smt_on"));
	json_object_set_new(cx->names, "Num_CPUs", json_string("#num_cpus"));
	json_object_set_new(cx->names, "NUM_CORES", json_string("#num_cores"));
	json_object_set_new(cx->names, "NUM_SOCKETS", json_string("#num_packages"));
	json_object_set_new(cx->names, "NUM_THREADS", json_string("(#smt_on + 1)"));
	json_object_set_new(cx->names, "DurationTimeInMilliSeconds", json_string("(duration_time * 1000)"));
	json_object_set_new(cx->names, "#DurationTimeInSeconds", json_string("duration_time"));
	for (size_t r = 0; r < sh->nrows; r++) {
		const char *name = NULL;

		for (size_t c = 1; c < (size_t)sh->first_plat && c < sh->nrow[r]; c++)
			if (sh->rows[r][c][0])
				name = sh->rows[r][c];
		if (name && !json_object_get(cx->names, name) && tma_row_id(sh->rows[r][0], name, &id))
			json_object_set_new(cx->names, name, json_string(id.buf));
	}
	strbuf_release(&id);
}

/*
 * A row's threshold cell, "> 0.1 & P; $issueBM", as our threshold
 * "id > 0.1" into out: the parent term is dropped (the tree gates every
 * node by its parent anyway), and so is what follows the ';'.  A threshold
 * that does not translate is left out.
 */
static void tma_threshold(struct tma_ctx *cx, const char *name, const char *cell, json_t *out)
{
	char *cut = xstrdup(cell), *semi = strchr(cut, ';'), *p;
	struct strbuf t = STRBUF_INIT, th = STRBUF_INIT, why = STRBUF_INIT;
	struct td_expr *e;

	if (semi)
		*semi = '\0';
	while ((p = strstr(cut, "& P")) && (!p[3] || p[3] == ' ' || p[3] == ')'))
		memset(p, ' ', 3);
	strbuf_addstr(&t, cut);
	strbuf_trim(&t);
	if (t.len && strchr("<>", t.buf[0])) {
		strbuf_addf(&th, "%s %s", name, t.buf);
		if (!rewrite_words(th.buf, &t, &why, tma_word, cx) &&
		    (e = td_expr_parse(t.buf, &why))) {
			strbuf_reset(&th);
			td_expr_print(e, &th);
			td_expr_free(e);
			json_object_set_new(out, "threshold", json_string(th.buf));
		}
	}
	strbuf_release(&t);
	strbuf_release(&th);
	strbuf_release(&why);
	free(cut);
}

/*
 * Import one platform column of Intel's TMA spreadsheet: an empty cell
 * carries the formula of the nearest older platform (the next filled cell
 * to its right), "#NA" means not available; rows are in tree pre-order, so
 * a node's parent is the last node seen one level up.
 */
static int import_tma_csv(struct imp *im, const char *path, const char *column, struct strbuf *err)
{
	struct strbuf id = STRBUF_INIT, f = STRBUF_INIT, why = STRBUF_INIT, low = STRBUF_INIT;
	struct tma_sheet sh = { 0 };
	char last_at_level[10][128] = { { 0 } };
	struct tma_ctx cx = { im, json_object() };
	size_t r, c;
	int rc = -1;

	if (tma_read(path, &sh, err) ||
	    tma_columns(&sh, path, column, TD_ARRAY_SIZE(last_at_level) - 1, err))
		goto out;
	strbuf_addf(&im->source, "%sIntel TMA spreadsheet %s, column %s (TMA %s)",
		    im->source.len ? "; " : "", strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
		    column, sh.version[0] ? sh.version : "?");
	tma_names(&cx, &sh);
	for (r = 0; r < sh.nrows; r++) {
		char **fl = sh.rows[r];
		const char *name = NULL, *formula = NULL, *area, *cell;
		int level = 0;
		json_t *out;

		for (c = 1; c < (size_t)sh.first_plat && c < sh.nrow[r]; c++)
			if (fl[c][0]) {
				name = fl[c];
				level = (int)c;
			}
		if (!name || !tma_row_id(fl[0], name, &id) || strcmp(jstr(cx.names, name), id.buf) != 0)
			continue;
		area = tma_tree_area(fl[0]);
		if (area)
			snprintf(last_at_level[level], sizeof(last_at_level[level]), "%s", id.buf);
		for (c = (size_t)sh.col; c <= (size_t)sh.last_plat && c < sh.nrow[r]; c++)
			if (fl[c][0]) {
				formula = fl[c];
				break;
			}
		if (!formula || !strcmp(formula, "#NA") || find_metric(im, id.buf))
			continue;
		strbuf_reset(&why);
		if (rewrite_words(formula, &f, &why, tma_word, &cx)) {
			note_dropped(im, id.buf, why.buf);
			continue;
		}
		strbuf_trim(&f);
		out = json_object();
		json_object_set_new(out, "id", json_string(id.buf));
		strbuf_reset(&low);
		display_name(&low, name[0] == '#' ? name + 1 : name);
		json_object_set_new(out, "name", json_string(low.buf));
		if (area) {
			const char *d = tma_cell(&sh, r, sh.c_dom);

			if (level > 1 && last_at_level[level - 1][0])
				json_object_set_new(out, "parent", json_string(last_at_level[level - 1]));
			json_object_set_new(out, "level", json_integer(level));
			d = d && strstr(d, "Slots") ? "slots" : "clocks";
			json_object_set_new(out, "domain", json_string(d));
			json_object_set_new(out, "unit", json_string(d));
		} else {
			strbuf_reset(&low);
			strbuf_addstr(&low, fl[0]);
			strbuf_trim(&low);
			json_object_set_new(out, "level", json_integer(0));
			json_object_set_new(out, "area", json_string(low.buf));
			json_object_set_new(out, "unit", json_string("ratio"));
		}
		json_object_set_new(out, "formula", json_string(f.buf));
		cell = tma_cell(&sh, r, sh.c_th);
		if (cell && cell[0])
			tma_threshold(&cx, name, cell, out);
		cell = tma_cell(&sh, r, sh.c_grp);
		if (cell && cell[0])
			json_object_set_new(out, "groups", json_string(cell));
		cell = tma_cell(&sh, r, sh.c_loc);
		if (cell && cell[0] && strcmp(cell, "#NA"))
			json_object_set_new(out, "locate_with", json_string(cell));
		json_array_append_new(im->metrics, out);
	}
	rc = 0;
out:
	tma_sheet_release(&sh);
	json_decref(cx.names);
	strbuf_release(&id);
	strbuf_release(&f);
	strbuf_release(&why);
	strbuf_release(&low);
	return rc;
}

/* ---------------- event databases ---------------- */

/*
 * An encoding Intel's event lists get wrong: skylakex_core.json and
 * cascadelakex_core.json give FP_ARITH_INST_RETIRED.8_FLOPS umask 0x18, the
 * umask of 4_FLOPS (perf would count the 4-flop instructions as 8-flop
 * ones); its description (256-bit packed single and 512-bit packed double:
 * 0x20 | 0x40) and the later lists (icelakex_core.json) say 0x60.  Returns
 * a new reference: the corrected copy, or e itself.
 */
static json_t *corrected_event(json_t *e)
{
	json_t *c;

	if (strcmp(jstr(e, "EventName"), "FP_ARITH_INST_RETIRED.8_FLOPS") ||
	    !jstr(e, "UMask") || strtoul(jstr(e, "UMask"), NULL, 0) != 0x18)
		return json_incref(e);
	c = json_deep_copy(e);
	json_object_set_new(c, "UMask", json_string("0x60"));
	if (td_verbose)
		note("import: FP_ARITH_INST_RETIRED.8_FLOPS: umask 0x18 of the event list taken as 0x60");
	return c;
}

static void add_events_array(struct imp *im, json_t *arr)
{
	struct strbuf up = STRBUF_INIT;
	json_t *e;
	size_t i;

	json_array_foreach(arr, i, e) {
		const char *name = jstr(e, "EventName");

		const char *unit = jstr(e, "Unit");

		if (!name || json_object_get(e, "MetricName"))
			continue;
		/* uncore PMUs (AMD L3PMC, DFPMC, UMCPMC; Intel uncore units) are not ours */
		if (unit && strcmp(unit, "cpu") && strcmp(unit, "cpu_core") && strcmp(unit, "cpu_atom"))
			continue;
		upper(&up, name);
		if (!json_object_get(im->evdb, up.buf))
			json_object_set_new(im->evdb, up.buf, corrected_event(e));
	}
	strbuf_release(&up);
}

/* A perf pmu-events JSON file holds events, metrics or both. */
static int import_perf_file(struct imp *im, const char *path, int want_metrics, struct strbuf *err)
{
	json_t *root = load_json(path, err);
	int rc = 0;

	if (!root)
		return -1;
	if (json_is_array(root)) {
		add_events_array(im, root);
		if (want_metrics)
			rc = import_perf_metrics_file(im, root, path, err);
	} else if (json_is_array(json_object_get(root, "Events"))) {
		add_events_array(im, json_object_get(root, "Events"));
	} else {
		strbuf_addf(err, "%s: neither a perfmon nor a perf pmu-events JSON file", path);
		rc = -1;
	}
	json_decref(root);
	return rc;
}

/* All *.json of a perf pmu-events directory, in name order. */
static int import_perf_dir(struct imp *im, const char *dir, struct strbuf *err)
{
	char **names = NULL;
	long n = td_imp_json_files(dir, &names, err), i;
	int rc = n < 0 ? -1 : 0;

	for (i = 0; i < n; i++) {
		if (!rc)
			rc = import_perf_file(im, names[i], 1, err);
		free(names[i]);
	}
	free(names);
	return rc;
}

/*
 * An Arm core directory of perf's arm64 pmu-events (import-arm.c resolves
 * its ArchStdEvent references): events, then metrics; events the core's
 * files lack but its metrics name come from the architecture list and
 * are said in the source line.
 */
static int import_arm(struct imp *im, struct strbuf *err)
{
	json_t *events = NULL, *metrics = NULL;
	struct strbuf assumed = STRBUF_INIT;
	int rc;

	im->arm = 1;
	if (td_arm_resolve(im->o->arm_root, im->o->arm_core, &events, &metrics, &assumed, err))
		return -1;
	add_events_array(im, events);
	rc = import_perf_metrics_file(im, metrics, im->o->arm_core, err);
	if (assumed.len)
		strbuf_addf(&im->source, "; events not listed by the core's files, taken from the "
			    "architecture's common list (counted only where the PMU implements them): %s",
			    assumed.buf);
	json_decref(events);
	json_decref(metrics);
	strbuf_release(&assumed);
	return rc;
}

/* ---------------- event entries ---------------- */

static unsigned long hexval(json_t *e, const char *key)
{
	const char *s = jstr(e, key);

	return s ? strtoul(s, NULL, 0) : 0;
}

/* A raw code written in a formula ("event=0x201d"): a source entry of its own. */
static json_t *raw_event_source(struct imp *im, const char *code)
{
	struct strbuf key = STRBUF_INIT;
	json_t *src;

	strbuf_addf(&key, "EVENT=%s", code);
	src = json_object();
	json_object_set_new(src, "EventCode", json_string(code));
	json_object_set_new(src, "EventName", json_string(key.buf));
	json_object_set_new(im->evdb, key.buf, src);
	strbuf_release(&key);
	return src;
}

/*
 * Build the table entry for one event name used by a formula: encoding
 * from the source event list with the name's own terms applied.
 * Returns -1 when the event is unknown to the sources.
 */
static int build_event(struct imp *im, const char *name, struct strbuf *err)
{
	struct strbuf base = STRBUF_INIT, terms = STRBUF_INIT, mods = STRBUF_INIT;
	struct strbuf up = STRBUF_INIT, perf = STRBUF_INIT;
	const char *pmu = im->pmu, *at = strchr(name, '@'), *msr;
	json_t *src, *ev;
	unsigned long code, umask, cmask;
	int inv, edge, any;
	const char *p;
	int rc = -1;

	if (json_object_get(im->events, name))
		return 0;
	ev = json_object();
	json_object_set_new(ev, "name", json_string(name));
	if (is_topdown(name)) {
		strbuf_addf(&perf, "%s/%s/", pmu, name);
		json_object_set_new(ev, "perf_name", json_string(perf.buf));
		json_object_set_new(ev, "resource", json_string("perf_metrics"));
		json_object_set_new(ev, "description",
				    json_string("Top-Down share read from the PERF_METRICS register (needs the slots event as group leader)."));
		goto add;
	}
	if (!strcasecmp(name, "TSC") || !strcmp(name, "msr@tsc@")) {
		json_object_set_new(ev, "perf_name", json_string("msr/tsc/"));
		json_object_set_new(ev, "description", json_string("Time-stamp counter."));
		goto add;
	}
	if (!strcmp(name, "instructions") || !strcmp(name, "cycles") ||
	    !strcmp(name, "branches") || !strcmp(name, "branch-misses")) {
		json_object_set_new(ev, "perf_name", json_string(name));
		goto add;
	}
	if (at) {
		const char *close = strchr(at + 1, '@');

		pmu = NULL;
		strbuf_add(&perf, name, (size_t)(at - name));
		pmu = perf.buf[0] ? xstrdup(perf.buf) : xstrdup(im->pmu);
		strbuf_reset(&perf);
		p = at + 1;
		while (*p && *p != ',' && *p != '@')
			strbuf_addch(&base, *p++);
		if (*p == ',')
			strbuf_add(&terms, p, close ? (size_t)(close - p) : strlen(p));
		if (close && close[1])
			strbuf_addstr(&mods, close[1] == ':' ? close + 2 : close + 1);
	} else {
		const char *colon = strchr(name, ':');

		strbuf_add(&base, name, colon ? (size_t)(colon - name) : strlen(name));
		if (colon)
			strbuf_addstr(&mods, colon + 1);
		pmu = xstrdup(im->pmu);
	}
	upper(&up, base.buf);
	src = json_object_get(im->evdb, up.buf);
	if (!src && !strncasecmp(base.buf, "event=", 6))
		src = raw_event_source(im, base.buf + 6); /* armv8_pmuv3_0@event=0x201d@ */
	if (!src && up.len > 3 && !strcmp(up.buf + up.len - 3, "_PS")) {
		/* the spreadsheet's precise-event spelling: the same event */
		strbuf_setlen(&up, up.len - 3);
		src = json_object_get(im->evdb, up.buf);
	}
	if (!src) {
		strbuf_addf(err, "event '%s' is not in the event lists", base.buf);
		json_decref(ev);
		free((char *)pmu);
		goto out;
	}
	code = hexval(src, "EventCode");
	umask = hexval(src, "UMask");
	/*
	 * perfmon lists fixed-counter events with pseudo codes 0x00/umask N;
	 * the kernel knows instructions and core cycles by their
	 * architectural codes (0xc0, 0x3c) and the others (0x0300, 0x0400)
	 * as listed.
	 */
	if (code == 0 && umask == 1) {
		code = 0xc0;
		umask = 0;
	} else if (code == 0 && umask == 2) {
		code = 0x3c;
		umask = 0;
	}
	cmask = hexval(src, "CounterMask");
	inv = hexval(src, "Invert") != 0;
	edge = hexval(src, "EdgeDetect") != 0;
	any = hexval(src, "AnyThread") != 0;
	/* the name's own terms override the listed encoding */
	for (p = terms.buf; *p; ) {
		const char *end;
		size_t n;

		if (*p == ',')
			p++;
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		if (!strncmp(p, "cmask=", 6))
			cmask = strtoul(p + 6, NULL, 0);
		else if (!strncmp(p, "umask=", 6))
			umask = strtoul(p + 6, NULL, 0);
		else if (!strncmp(p, "edge", 4))
			edge = n == 4 || p[5] != '0';
		else if (!strncmp(p, "inv", 3))
			inv = n == 3 || p[4] != '0';
		else if (!strncmp(p, "offcore_rsp=", 12)) {
			char *v = xstrndup(p + 12, n - 12);

			json_object_set_new(ev, "msr_value", json_string(v));
			free(v);
		}
		p += n;
	}
	if (im->arm && code == 0x11)
		json_object_set_new(ev, "fixed", json_integer(0)); /* CPU_CYCLES: the cycle counter */
	if (im->arm)
		strbuf_addf(&perf, "%s/event=0x%lx", pmu, code);
	else
		strbuf_addf(&perf, "%s/event=0x%lx,umask=0x%lx", pmu, code, umask);
	json_object_set_new(ev, "pmu", json_string(pmu));
	json_object_set_new(ev, "event", json_integer((json_int_t)code));
	if (!im->arm)
		json_object_set_new(ev, "umask", json_integer((json_int_t)umask));
	if (cmask) {
		strbuf_addf(&perf, ",cmask=0x%lx", cmask);
		json_object_set_new(ev, "cmask", json_integer((json_int_t)cmask));
	}
	if (inv) {
		strbuf_addstr(&perf, ",inv=1");
		json_object_set_new(ev, "inv", json_integer(1));
	}
	if (edge) {
		strbuf_addstr(&perf, ",edge=1");
		json_object_set_new(ev, "edge", json_integer(1));
	}
	if (any) {
		strbuf_addstr(&perf, ",any=1");
		json_object_set_new(ev, "any", json_integer(1));
	}
	msr = jstr(src, "MSRIndex");
	if (msr && strtoul(msr, NULL, 0)) {
		unsigned long idx = strtoul(msr, NULL, 0);
		const char *val = jstr(ev, "msr_value") ? jstr(ev, "msr_value") : jstr(src, "MSRValue");
		const char *term = idx == 0x3f6 ? "ldlat" : idx == 0x3f7 ? "frontend" : "offcore_rsp";

		json_object_set_new(ev, "msr", json_string(msr));
		if (val) {
			if (!jstr(ev, "msr_value"))
				json_object_set_new(ev, "msr_value", json_string(val));
			strbuf_addf(&perf, ",%s=%s", term, val);
		}
		json_object_set_new(ev, "resource", json_string(idx == 0x3f6 ? "ldlat" :
					idx == 0x3f7 ? "frontend" : "offcore"));
	}
	strbuf_addch(&perf, '/');
	if (mods.len) {
		if (!strcmp(mods.buf, "k") || !strcmp(mods.buf, "u"))
			strbuf_addstr(&perf, mods.buf);
		else if (!strcmp(mods.buf, "R"))
			json_object_set_new(ev, "retire_latency", json_integer(1));
	}
	json_object_set_new(ev, "perf_name", json_string(perf.buf));
	if (jstr(src, "Counter")) {
		const char *c = jstr(src, "Counter");

		if (!strncasecmp(c, "Fixed counter", 13))
			json_object_set_new(ev, "fixed", json_integer(atoi(c + 13)));
		else
			json_object_set_new(ev, "counters", json_string(c));
	}
	if (jstr(src, "CounterHTOff") && strncasecmp(jstr(src, "CounterHTOff"), "Fixed", 5))
		json_object_set_new(ev, "counters_smt_off", json_string(jstr(src, "CounterHTOff")));
	if (jstr(src, "TakenAlone") && !strcmp(jstr(src, "TakenAlone"), "1"))
		json_object_set_new(ev, "taken_alone", json_integer(1));
	if (!strcasecmp(base.buf, "TOPDOWN.SLOTS") && !mods.len && !terms.len)
		json_object_set_new(ev, "group_leader", json_integer(1));
	free((char *)pmu);
add:
	json_object_set_new(im->events, name, ev);
	rc = 0;
out:
	strbuf_release(&base);
	strbuf_release(&terms);
	strbuf_release(&mods);
	strbuf_release(&up);
	strbuf_release(&perf);
	return rc;
}

/* ---------------- merging extra files ---------------- */

static int has_alternative(json_t *metric, const char *formula)
{
	json_t *a;
	size_t i;

	if (jstr(metric, "formula") && !strcmp(jstr(metric, "formula"), formula))
		return 1;
	json_array_foreach(json_object_get(metric, "alternatives"), i, a)
		if (jstr(a, "formula") && !strcmp(jstr(a, "formula"), formula))
			return 1;
	return 0;
}

static int merge_extra(struct imp *im, const char *path, struct strbuf *err)
{
	json_t *root = load_json(path, err), *list, *m;
	size_t i;

	if (!root)
		return -1;
	if (!json_is_object(root)) {
		strbuf_addf(err, "%s: not a JSON object", path);
		json_decref(root);
		return -1;
	}
	if (json_is_object(json_object_get(root, "params")))
		json_object_update(im->params, json_object_get(root, "params"));
	list = json_object_get(root, "descriptions");
	if (list) {
		const char *key;
		json_t *val;

		if (!json_is_object(list)) {
			strbuf_addf(err, "%s: \"descriptions\" is not an object of id -> text", path);
			json_decref(root);
			return -1;
		}
		json_object_foreach(list, key, val) {
			if (!json_is_string(val) || !*json_string_value(val)) {
				strbuf_addf(err, "%s: description of '%s' is not a non-empty string",
					    path, key);
				json_decref(root);
				return -1;
			}
		}
		/* ids this table lacks are ignored: one file serves every table */
		json_object_update(im->descriptions, list);
	}
	list = json_object_get(root, "metrics");
	json_array_foreach(list, i, m) {
		const char *id = jstr(m, "id");
		json_t *have, *alts, *a;
		const char *key;
		json_t *val;
		size_t j;

		if (!id) {
			strbuf_addf(err, "%s: metric %zu has no \"id\"", path, i);
			json_decref(root);
			return -1;
		}
		json_object_set_new(im->extra_ids, id, json_string(path));
		have = find_metric(im, id);
		if (!have) {
			if (!jstr(m, "formula")) {
				strbuf_addf(err, "%s: new metric '%s' has no \"formula\"", path, id);
				json_decref(root);
				return -1;
			}
			json_array_append(im->metrics, m);
			continue;
		}
		json_object_foreach(m, key, val) {
			if (!strcmp(key, "alternatives") || !strcmp(key, "id"))
				continue;
			if (!strcmp(key, "formula") && jstr(have, "formula") &&
			    strcmp(jstr(have, "formula"), json_string_value(val))) {
				/* the replaced formula stays available as the first alternative */
				json_t *old = json_object(), *list2 = json_object_get(have, "alternatives");

				json_object_set_new(old, "formula", json_string(jstr(have, "formula")));
				json_object_set_new(old, "note", json_string("formula of the imported source"));
				if (!list2) {
					list2 = json_array();
					json_object_set_new(have, "alternatives", list2);
				}
				json_array_insert_new(list2, 0, old);
			}
			json_object_set(have, key, val);
		}
		alts = json_object_get(m, "alternatives");
		json_array_foreach(alts, j, a) {
			json_t *list2 = json_object_get(have, "alternatives");

			if (!jstr(a, "formula") || has_alternative(have, jstr(a, "formula")))
				continue;
			if (!list2) {
				list2 = json_array();
				json_object_set_new(have, "alternatives", list2);
			}
			json_array_append(list2, a);
		}
	}
	list = json_object_get(root, "events");
	json_array_foreach(list, i, m) {
		struct strbuf up = STRBUF_INIT;

		if (!jstr(m, "EventName")) {
			strbuf_addf(err, "%s: extra event %zu has no \"EventName\"", path, i);
			json_decref(root);
			return -1;
		}
		upper(&up, jstr(m, "EventName"));
		json_object_set(im->evdb, up.buf, m);
		strbuf_release(&up);
	}
	json_decref(root);
	return 0;
}

/* ---------------- finishing ---------------- */

static void collect_name(void *ctx, const char *name, enum td_name_kind kind)
{
	json_t *set = ctx;

	if (kind == TD_NAME_EVENT)
		json_object_set_new(set, name, json_true());
}

static int metric_exists(void *ctx, const char *name)
{
	return json_object_get((json_t *)ctx, name) != NULL;
}

/* ids -> 1 for every metric; used to tell references from events */
static json_t *id_set(struct imp *im)
{
	json_t *set = json_object(), *m;
	size_t i;

	json_array_foreach(im->metrics, i, m)
		json_object_set_new(set, jstr(m, "id"), json_true());
	return set;
}

/*
 * The events a node's LocateWith names are sampled, not counted (record
 * --drilldown, --locate): encode those the event files describe, so that
 * the table can hand them to perf.  One the files lack stays a name only.
 */
static void locate_events(struct imp *im, json_t *m)
{
	struct strbuf name = STRBUF_INIT, ignored = STRBUF_INIT;
	const char *p = jstr(m, "locate_with"), *end;

	for (; p && *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ";");
		strbuf_reset(&name);
		strbuf_add(&name, p, (size_t)(end - p));
		strbuf_trim(&name);
		if (name.len)
			build_event(im, name.buf, &ignored);
		strbuf_reset(&ignored);
	}
	strbuf_release(&name);
	strbuf_release(&ignored);
}

/* Every formula must parse; events must be known; references must exist. */
static int check_metric(struct imp *im, json_t *m, json_t *ids, json_t *evnames, struct strbuf *why)
{
	json_t *a;
	size_t i;
	const char *texts[64];
	size_t n = 0;

	texts[n++] = jstr(m, "formula");
	json_array_foreach(json_object_get(m, "alternatives"), i, a)
		if (n < TD_ARRAY_SIZE(texts) && jstr(a, "formula"))
			texts[n++] = jstr(a, "formula");
	for (i = 0; i < n; i++) {
		struct td_expr *e = td_expr_parse(texts[i], why);
		json_t *names = json_object();
		const char *name;
		json_t *v;

		if (!e) {
			json_decref(names);
			return -1;
		}
		td_expr_names(e, NULL, metric_exists, ids, collect_name, names);
		td_expr_free(e);
		json_object_foreach(names, name, v) {
			if (build_event(im, name, why)) {
				json_decref(names);
				return -1;
			}
			json_object_set_new(evnames, name, json_true());
		}
		json_decref(names);
	}
	locate_events(im, m);
	return 0;
}

/*
 * Levels follow the parent links: a few perfmon nodes carry a Level that
 * disagrees with their ParentCategory; the parent link is what the tree
 * (and the gating) uses.
 */
static void fix_levels(struct imp *im)
{
	json_t *m;
	size_t i;
	int changed = 1, rounds = 0;

	while (changed && rounds++ < 16) {
		changed = 0;
		json_array_foreach(im->metrics, i, m) {
			const char *parent = jstr(m, "parent");
			json_t *p = parent ? find_metric(im, parent) : NULL;
			json_int_t want;

			if (!p || json_integer_value(json_object_get(m, "level")) < 1)
				continue;
			want = json_integer_value(json_object_get(p, "level")) + 1;
			if (json_integer_value(json_object_get(m, "level")) != want) {
				if (td_verbose)
					note("import: %s: level %d -> %d (under %s)", jstr(m, "id"),
					     (int)json_integer_value(json_object_get(m, "level")), (int)want, parent);
				json_object_set_new(m, "level", json_integer(want));
				changed = 1;
			}
		}
	}
}

static void set_areas(struct imp *im)
{
	json_t *m;
	size_t i;
	int changed = 1;

	json_array_foreach(im->metrics, i, m) {
		const char *id = jstr(m, "id");
		json_int_t level = json_integer_value(json_object_get(m, "level"));

		if (level != 1 || jstr(m, "area"))
			continue;
		json_object_set_new(m, "area", json_string(
			!strcmp(id, "frontend_bound") ? "FE" : !strcmp(id, "bad_speculation") ? "BAD" :
			!strcmp(id, "backend_bound") ? "BE" : !strcmp(id, "retiring") ? "RET" :
			!strcmp(id, "smt_contention") ? "SMT" : "Other"));
	}
	while (changed) {
		changed = 0;
		json_array_foreach(im->metrics, i, m) {
			const char *parent = jstr(m, "parent");
			json_t *p;

			if (!parent || jstr(m, "area"))
				continue;
			p = find_metric(im, parent);
			if (!p || !jstr(p, "area"))
				continue;
			if (!strcmp(parent, "memory_bound"))
				json_object_set_new(m, "area", json_string("BE/Mem"));
			else if (!strcmp(parent, "core_bound"))
				json_object_set_new(m, "area", json_string("BE/Core"));
			else
				json_object_set_new(m, "area", json_string(jstr(p, "area")));
			changed = 1;
		}
	}
}

static void set_descriptions(struct imp *im)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *m;
	size_t i, j;

	json_array_foreach(im->metrics, i, m) {
		const char *id = jstr(m, "id"), *parent = jstr(m, "parent");
		json_t *p = parent ? find_metric(im, parent) : NULL;
		json_int_t level = json_integer_value(json_object_get(m, "level"));

		for (j = 0; j < TD_ARRAY_SIZE(node_words); j++)
			if (!strcmp(node_words[j].id, id) && !json_is_true(json_object_get(m, "vendor_named")))
				json_object_set_new(m, "name", json_string(node_words[j].name));
		json_object_del(m, "vendor_named");
		/* an extra file's own metric entry > its "descriptions" > node_words */
		if (jstr(m, "description"))
			continue;
		if (jstr(im->descriptions, id)) {
			json_object_set_new(m, "description", json_string(jstr(im->descriptions, id)));
			continue;
		}
		describe(&sb, id, jstr(m, "name"), (int)level, p ? jstr(p, "name") : NULL,
			 jstr(m, "domain"), jstr(m, "area"));
		json_object_set_new(m, "description", json_string(sb.buf));
	}
	strbuf_release(&sb);
}

static void default_thresholds_for(struct imp *im)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *m;
	size_t i, j;

	json_array_foreach(im->metrics, i, m) {
		if (jstr(m, "threshold") || json_integer_value(json_object_get(m, "level")) < 1)
			continue;
		for (j = 0; j < TD_ARRAY_SIZE(default_thresholds); j++)
			if (!strcmp(default_thresholds[j].id, jstr(m, "id"))) {
				strbuf_reset(&sb);
				strbuf_addf(&sb, "%s > %g", jstr(m, "id"), default_thresholds[j].limit);
				json_object_set_new(m, "threshold", json_string(sb.buf));
				json_object_set_new(m, "threshold_note",
						    json_string("tdperf default (TMA's Level 1-2 limit); the source has none"));
			}
	}
	strbuf_release(&sb);
}

/* Correction-only terms of Level 1-2 nodes (see docs/tables.md). */
static void mark_corrections(struct imp *im)
{
	static const char *const terms[] = { "INT_MISC.UOP_DROPPING", "INT_MISC.CLEARS_COUNT" };
	json_t *m;
	size_t i, j;

	json_array_foreach(im->metrics, i, m) {
		json_int_t level = json_integer_value(json_object_get(m, "level"));
		const char *f = jstr(m, "formula");
		json_t *list = NULL;

		if (level < 1 || level > 2 || !f)
			continue;
		for (j = 0; j < TD_ARRAY_SIZE(terms); j++)
			if (strstr(f, terms[j])) {
				if (!list)
					list = json_array();
				json_array_append_new(list, json_string(terms[j]));
			}
		if (list && !json_object_get(m, "corrections"))
			json_object_set_new(m, "corrections", list);
		else
			json_decref(list);
	}
}

/* Counter totals from the events' counter lists. */
static void counter_totals(struct imp *im, json_t *root)
{
	json_t *ctr = json_object(), *e;
	const char *key;
	int gp = 0, gp_off = 0, fixed = 0;

	json_object_foreach(im->evdb, key, e) {
		const char *c = jstr(e, "Counter"), *h = jstr(e, "CounterHTOff");
		const char *p;

		if (c && !strncasecmp(c, "Fixed counter", 13)) {
			int n = atoi(c + 13) + 1;

			if (n > fixed)
				fixed = n;
			continue;
		}
		for (p = c; p && *p; ) {
			int n = atoi(p) + 1;

			if (isdigit((unsigned char)*p) && n > gp && n <= 64)
				gp = n;
			p = strchr(p, ',');
			p = p ? p + 1 : NULL;
		}
		for (p = h; p && *p; ) {
			int n = atoi(p) + 1;

			if (isdigit((unsigned char)*p) && n > gp_off && n <= 64)
				gp_off = n;
			p = strchr(p, ',');
			p = p ? p + 1 : NULL;
		}
	}
	if (!gp_off)
		gp_off = gp;
	if (im->o->gp) {
		gp_off = im->o->gp;
		gp = im->o->gp_smt ? im->o->gp_smt : im->o->gp;
		fixed = im->o->fixed;
	}
	json_object_set_new(ctr, "gp", json_integer(gp_off));
	json_object_set_new(ctr, "gp_smt", json_integer(gp));
	json_object_set_new(ctr, "fixed", json_integer(fixed));
	json_object_set_new(root, "counters", ctr);
}

/* CPUID patterns of a mapfile whose Filename column contains key. */
static int mapfile_patterns(struct imp *im, json_t *out, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *line, *key = im->o->map_key;
	const char *role = im->o->core_type && !strcmp(im->o->core_type, "atom") ? "Atom" :
			   im->o->core_type ? "Core" : NULL;

	if (td_read_file(&text, im->o->mapfile)) {
		strbuf_addf(err, "%s: cannot read", im->o->mapfile);
		return -1;
	}
	for (line = text.buf; *line; ) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		char *copy = xstrndup(line, n), *fields[8] = { 0 }, *p = copy, *c;
		int nf = 0;

		while (nf < 8 && p) {
			fields[nf++] = p;
			c = strchr(p, ',');
			if (c)
				*c++ = '\0';
			p = c;
		}
		if (nf >= 3 && fields[2] && strstr(fields[2], key) && fields[0][0] != '#' &&
		    (!role || nf < 7 || !fields[6][0] || !strncmp(fields[6], role, strlen(role)))) {
			char *pat = fields[0];
			size_t k, dup = 0;
			json_t *v;

			struct strbuf midr = STRBUF_INIT;

			if (!td_arm_midr_regex(pat, &midr))
				pat = midr.buf; /* Arm: any variant and revision, as perf matches */
			json_array_foreach(out, k, v)
				if (!strcmp(json_string_value(v), pat))
					dup = 1;
			if (!dup && (strchr(pat, '-') || midr.len))
				json_array_append_new(out, json_string(pat));
			strbuf_release(&midr);
		}
		free(copy);
		line = end ? end + 1 : line + n;
	}
	strbuf_release(&text);
	return 0;
}

/* Read every source the options name into im, in the order they override each other. */
static int read_sources(struct imp *im, struct strbuf *err)
{
	const struct td_import_opts *o = im->o;
	size_t i;

	for (i = 0; i < o->nr_events; i++)
		if (import_perf_file(im, o->events[i], 0, err))
			return -1;
	for (i = 0; i < o->nr_perfmon; i++)
		if (import_perfmon(im, o->perfmon[i], err))
			return -1;
	if (o->tma_csv && import_tma_csv(im, o->tma_csv, o->tma_column ? o->tma_column : "", err))
		return -1;
	for (i = 0; i < o->nr_perf_metrics; i++) {
		int r = td_is_dir(o->perf_metrics[i]) ? import_perf_dir(im, o->perf_metrics[i], err)
						      : import_perf_file(im, o->perf_metrics[i], 1, err);
		if (r)
			return -1;
	}
	if (o->arm_core && import_arm(im, err))
		return -1;
	for (i = 0; i < o->nr_extra; i++)
		if (merge_extra(im, o->extra[i], err))
			return -1;
	return 0;
}

/* ---------------- one event, several names ---------------- */

/*
 * Intel renames events and keeps the old name beside the new one, with the
 * same encoding (ICACHE_64B.IFTAG_STALL = ICACHE_TAG.STALLS, ILD_STALL.LCP =
 * DECODE.LCP, ARITH.DIVIDER_ACTIVE = ARITH.DIV_ACTIVE, ...); a perf version
 * counts whichever name its metrics use.  Every metric gets alternatives
 * that read its events under their other names, so a count under either
 * name serves.  The key holds every field that selects what the counter
 * counts (docs/tables.md, Events).
 */
static void encoding_key(json_t *src, struct strbuf *key)
{
	static const char *const fields[] = {
		"EventCode", "UMask", "UMaskExt", "CounterMask", "Invert", "EdgeDetect",
		"AnyThread", "MSRIndex", "MSRValue", "Equal",
	};
	size_t i;

	strbuf_reset(key);
	for (i = 0; i < TD_ARRAY_SIZE(fields); i++)
		strbuf_addf(key, "%lx/", hexval(src, fields[i]));
}

struct same_ctx {
	struct imp *im;
	json_t *by_key;      /* encoding key -> [names of that encoding] */
	int rename;          /* rename events: by their nth other name; 0: not */
	unsigned sum_mask;   /* which FP sums to write out (bit: index in sum_names) */
	char sum_names[4][64]; /* the FP sum events of the formula, in order */
	int nsum;
	struct strbuf *said; /* what the rewrites were, for the note */
	struct strbuf *unnamed; /* umask bits of a sum that name no event */
};

/* The event's nth other name (1, 2: first, second) of the same encoding, or NULL. */
static const char *other_name(struct same_ctx *cx, json_t *src, const char *name, int nth)
{
	struct strbuf key = STRBUF_INIT;
	json_t *names, *n;
	const char *found = NULL;
	size_t i;

	encoding_key(src, &key);
	names = json_object_get(cx->by_key, key.buf);
	json_array_foreach(names, i, n)
		if (strcasecmp(json_string_value(n), name) && !--nth) {
			found = json_string_value(n);
			break;
		}
	strbuf_release(&key);
	return found;
}

/*
 * FP_ARITH_INST_RETIRED.SCALAR (umask 0x3) and .VECTOR (0x3c, 0xfc with
 * AVX-512) count the union of the instruction classes their umask bits
 * select (SCALAR_SINGLE 0x2, SCALAR_DOUBLE 0x1, 128B_PACKED_DOUBLE 0x4, ...),
 * and every FP instruction is of one class (one precision, one width: the
 * events' descriptions in Intel's perfmon lists): the union's count is the
 * sum of the classes' counts, which is what perf's metrics count instead.
 * Into 'to' "( A + B ... )".
 */
static int fp_arith_sum(struct same_ctx *cx, json_t *src, const char *name, struct strbuf *to)
{
	struct strbuf key = STRBUF_INIT, part = STRBUF_INIT, none = STRBUF_INIT;
	unsigned long umask = hexval(src, "UMask"), bit;
	json_t *probe, *names;
	int n = 0;

	if (strncasecmp(name, "FP_ARITH_INST_RETIRED", 21) || hexval(src, "CounterMask") ||
	    hexval(src, "Invert") || hexval(src, "EdgeDetect") || !umask || !(umask & (umask - 1)))
		return 0;
	probe = json_deep_copy(src);
	for (bit = 1; bit <= umask; bit <<= 1) {
		char hex[32];

		if (!(umask & bit))
			continue;
		snprintf(hex, sizeof(hex), "0x%lx", bit);
		json_object_set_new(probe, "UMask", json_string(hex));
		encoding_key(probe, &key);
		names = json_object_get(cx->by_key, key.buf);
		/*
		 * A bit no event of the CPU's list names (client Skylake's VECTOR
		 * is 0xfc, with no 512-bit events): no instruction of that class.
		 */
		if (!json_array_size(names)) {
			strbuf_addf(&none, "%s%s", none.len ? " " : "", hex);
			continue;
		}
		strbuf_addf(&part, "%s%s", n++ ? " + " : "( ",
			    json_string_value(json_array_get(names, 0)));
	}
	json_decref(probe);
	if (n > 1) {
		strbuf_addf(to, "%s )", part.buf);
		if (none.len)
			strbuf_addf(cx->unnamed, "%s%s umask bits %s", cx->unnamed->len ? "; " : "",
				    name, none.buf);
	}
	strbuf_release(&key);
	strbuf_release(&part);
	strbuf_release(&none);
	return n > 1;
}

/* The index of sum-capable event 'name' in this formula, -1 when there are too many. */
static int sum_index(struct same_ctx *cx, const char *name)
{
	int i;

	for (i = 0; i < cx->nsum; i++)
		if (!strcasecmp(cx->sum_names[i], name))
			return i;
	if (cx->nsum == (int)TD_ARRAY_SIZE(cx->sum_names))
		return -1;
	snprintf(cx->sum_names[cx->nsum], sizeof(cx->sum_names[0]), "%s", name);
	return cx->nsum++;
}

static int same_word(void *vcx, const char *word, struct strbuf *to, struct strbuf *err)
{
	struct same_ctx *cx = vcx;
	const char *colon = strchr(word, ':'), *other;
	struct strbuf base = STRBUF_INIT, up = STRBUF_INIT, sum = STRBUF_INIT;
	json_t *src;
	int idx;

	(void)err;
	strbuf_add(&base, word, colon ? (size_t)(colon - word) : strlen(word));
	upper(&up, base.buf);
	src = strchr(word, '.') ? json_object_get(cx->im->evdb, up.buf) : NULL;
	if (src && cx->rename &&
	    (other = other_name(cx, src, base.buf, cx->rename))) {
		strbuf_addf(to, "%s%s", other, colon ? colon : "");
		if (!strstr(cx->said->buf, base.buf))
			strbuf_addf(cx->said, "%s%s = %s", cx->said->len ? ", " : "", base.buf, other);
	} else if (src && !colon && fp_arith_sum(cx, src, base.buf, &sum) &&
		   (idx = sum_index(cx, base.buf)) >= 0 && (cx->sum_mask & (1u << idx))) {
		strbuf_addstr(to, sum.buf);
		if (!strstr(cx->said->buf, base.buf))
			strbuf_addf(cx->said, "%s%s = %s", cx->said->len ? ", " : "", base.buf, sum.buf);
	} else {
		strbuf_addstr(to, word);
	}
	strbuf_release(&base);
	strbuf_release(&up);
	strbuf_release(&sum);
	return 0;
}

/* Has metric m this formula already, as its own or an alternative's? */
static int has_formula(json_t *m, const char *text)
{
	json_t *a;
	size_t i;

	if (jstr(m, "formula") && !strcmp(jstr(m, "formula"), text))
		return 1;
	json_array_foreach(json_object_get(m, "alternatives"), i, a)
		if (jstr(a, "formula") && !strcmp(jstr(a, "formula"), text))
			return 1;
	return 0;
}

/*
 * Intel writes some sums as a raw umask on one member event:
 * "cpu@FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE\,umask\=0xfc@" is the
 * encoding of FP_ARITH_INST_RETIRED.VECTOR, the name perf counts.  Into
 * out: text with each such term that an event of the list encodes named
 * by that event; said notes it.
 */
static void name_raw_umasks(struct same_ctx *cx, const char *text, struct strbuf *out)
{
	static const char term[] = "\\,umask\\=";
	const char *p = text, *at;
	struct strbuf key = STRBUF_INIT, up = STRBUF_INIT;

	strbuf_reset(out);
	while ((at = strchr(p, '@'))) {
		const char *pmu = at, *mid = strstr(at + 1, term), *end;
		json_t *src, *probe, *names;
		unsigned long umask;
		char hex[32];

		while (pmu > p && (isalnum((unsigned char)pmu[-1]) || pmu[-1] == '_'))
			pmu--;
		end = mid ? strchr(mid, '@') : NULL;
		if (!mid || !end || memchr(at + 1, '@', (size_t)(mid - at - 1)) ||
		    (size_t)(end - mid) <= sizeof(term) - 1) {
			strbuf_add(out, p, (size_t)(at + 1 - p));
			p = at + 1;
			continue;
		}
		strbuf_reset(&key);
		strbuf_add(&key, at + 1, (size_t)(mid - at - 1));
		upper(&up, key.buf);
		umask = strtoul(mid + sizeof(term) - 1, NULL, 16);
		src = json_object_get(cx->im->evdb, up.buf);
		names = NULL;
		if (src) {
			probe = json_deep_copy(src);
			snprintf(hex, sizeof(hex), "0x%lx", umask);
			json_object_set_new(probe, "UMask", json_string(hex));
			encoding_key(probe, &key);
			json_decref(probe);
			names = json_object_get(cx->by_key, key.buf);
		}
		if (!json_array_size(names)) {
			strbuf_add(out, p, (size_t)(end + 1 - p));
			p = end + 1;
			continue;
		}
		strbuf_add(out, p, (size_t)(pmu - p));
		strbuf_addstr(out, json_string_value(json_array_get(names, 0)));
		strbuf_addf(cx->said, "%s%.*s = %s", cx->said->len ? ", " : "", (int)(end + 1 - pmu), pmu,
			    json_string_value(json_array_get(names, 0)));
		p = end + 1;
	}
	strbuf_addstr(out, p);
	strbuf_release(&key);
	strbuf_release(&up);
}

/* One rewrite of formula 'a' into out: 0 when it changed nothing. */
static int rewrite_once(struct same_ctx *cx, const char *formula, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT, why = STRBUF_INIT;
	int rc;

	strbuf_reset(cx->said);
	strbuf_reset(cx->unnamed);
	if (cx->rename)
		name_raw_umasks(cx, formula, &raw);
	else
		strbuf_addstr(&raw, formula);
	rc = !rewrite_words(raw.buf, out, &why, same_word, cx) && cx->said->len;
	strbuf_release(&raw);
	strbuf_release(&why);
	return rc;
}

/*
 * The rewrites of formula 'a' (an alternative object, or the formula as
 * one) that count its events otherwise, appended to list: under other
 * names (the first, the second where there are three), its FP sums
 * written out (each subset of them: perf may count one sum event and
 * split another), and both.
 */
static void append_rewrites(json_t *list, json_t *m, json_t *a, struct same_ctx *cx, const char *file)
{
	struct strbuf out = STRBUF_INIT, said = STRBUF_INIT, text = STRBUF_INIT, unnamed = STRBUF_INIT;
	unsigned mask, nmask;
	size_t i;
	json_t *have;

	cx->said = &said;
	cx->unnamed = &unnamed;
	/* a dry run finds the formula's FP sums */
	cx->nsum = 0;
	cx->rename = 1;
	cx->sum_mask = 0;
	rewrite_once(cx, jstr(a, "formula"), &out);
	nmask = 1u << cx->nsum;
	for (cx->rename = 0; cx->rename <= 2; cx->rename++)
	for (mask = 0; mask < nmask; mask++) {
		json_t *alt;
		int dup = 0;

		cx->sum_mask = mask;
		if ((!cx->rename && !mask) || !rewrite_once(cx, jstr(a, "formula"), &out) ||
		    has_formula(m, out.buf))
			continue;
		json_array_foreach(list, i, have)
			dup |= !strcmp(jstr(have, "formula"), out.buf);
		if (dup)
			continue;
		strbuf_reset(&text);
		if (jstr(a, "note"))
			strbuf_addf(&text, "%s; ", jstr(a, "note"));
		strbuf_addf(&text, "the same events under other names (%s): %s", file, said.buf);
		if (unnamed.len)
			strbuf_addf(&text, " (%s: no event of the list, no instruction of that class)",
				    unnamed.buf);
		alt = json_object();
		json_object_set_new(alt, "formula", json_string(out.buf));
		json_object_set_new(alt, "approximate", json_boolean(json_is_true(json_object_get(a, "approximate"))));
		json_object_set_new(alt, "note", json_string(text.buf));
		json_array_append_new(list, alt);
		if (td_verbose)
			note("import: %s: alternative with %s", jstr(m, "id"), said.buf);
	}
	strbuf_release(&out);
	strbuf_release(&said);
	strbuf_release(&text);
	strbuf_release(&unnamed);
}

/*
 * Each formula's rewrites follow it at once, before the next (possibly
 * approximate) alternative: a count under another name is as exact as
 * the formula it serves.
 */
static void add_same_alternatives(json_t *m, struct same_ctx *cx, const char *file)
{
	json_t *alts = json_object_get(m, "alternatives"), *list = json_array(), *a, *self;
	size_t i;

	self = json_object();
	json_object_set_new(self, "formula", json_string(jstr(m, "formula")));
	append_rewrites(list, m, self, cx, file);
	json_decref(self);
	json_array_foreach(alts, i, a) {
		json_array_append(list, a);
		if (jstr(a, "formula"))
			append_rewrites(list, m, a, cx, file);
	}
	if (json_array_size(list) > json_array_size(alts))
		json_object_set(m, "alternatives", list);
	json_decref(list);
}

static void add_renamed_event_alternatives(struct imp *im)
{
	struct same_ctx cx = { .im = im, .by_key = json_object() };
	struct strbuf key = STRBUF_INIT, files = STRBUF_INIT;
	const char *name;
	json_t *src, *m;
	size_t i;

	if (im->arm)
		goto out;
	json_object_foreach(im->evdb, name, src) {
		json_t *list;

		/* fixed-counter pseudo codes (0x00): perf names those events itself */
		if (!jstr(src, "EventName") || !jstr(src, "EventCode") || !hexval(src, "EventCode"))
			continue;
		encoding_key(src, &key);
		list = json_object_get(cx.by_key, key.buf);
		if (!list) {
			list = json_array();
			json_object_set_new(cx.by_key, key.buf, list);
		}
		json_array_append_new(list, json_string(jstr(src, "EventName")));
	}
	for (i = 0; i < im->o->nr_events; i++) {
		const char *base = strrchr(im->o->events[i], '/');

		strbuf_addf(&files, "%s%s", i ? ", " : "", base ? base + 1 : im->o->events[i]);
	}
	json_array_foreach(im->metrics, i, m)
		if (jstr(m, "formula"))
			add_same_alternatives(m, &cx, files.len ? files.buf : "the event lists");
out:
	json_decref(cx.by_key);
	strbuf_release(&key);
	strbuf_release(&files);
}

/*
 * Drop metrics with unknown events or references, until nothing changes:
 * leaving one out can leave out the metrics that reference it.  Rebuilds
 * im->events from the metrics kept.  A metric an extra file added must not
 * vanish silently: that is an error.
 */
static int drop_unresolved(struct imp *im, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	json_t *ids, *evnames, *m, *kept;
	size_t i;
	int changed;

	do {
		changed = 0;
		ids = id_set(im);
		kept = json_array();
		json_decref(im->events);
		im->events = json_object();
		evnames = json_object();
		json_array_foreach(im->metrics, i, m) {
			int bad = 0;

			strbuf_reset(&why);
			if (check_metric(im, m, ids, evnames, &why))
				bad = 1;
			/* references: parent must exist */
			if (!bad && jstr(m, "parent") && !json_object_get(ids, jstr(m, "parent"))) {
				strbuf_addf(&why, "parent '%s' left out", jstr(m, "parent"));
				bad = 1;
			}
			if (bad && json_object_get(im->extra_ids, jstr(m, "id"))) {
				strbuf_addf(err, "%s: metric '%s': %s",
					    jstr(im->extra_ids, jstr(m, "id")), jstr(m, "id"), why.buf);
				json_decref(kept);
				json_decref(evnames);
				json_decref(ids);
				strbuf_release(&why);
				return -1;
			}
			if (bad) {
				note_dropped(im, jstr(m, "id"), why.buf);
				changed = 1;
				continue;
			}
			json_array_append(kept, m);
		}
		json_decref(evnames);
		json_decref(ids);
		json_decref(im->metrics);
		im->metrics = kept;
	} while (changed);
	strbuf_release(&why);
	return 0;
}

/*
 * Thresholds that name metrics that were left out, or raw events, are
 * dropped: a threshold is a test on metrics, and one that cannot be
 * evaluated would gate its node wrongly.
 */
static void drop_unresolved_thresholds(struct imp *im)
{
	struct strbuf why = STRBUF_INIT;
	json_t *ids = id_set(im), *m, *v;
	size_t i;

	json_array_foreach(im->metrics, i, m) {
		struct td_expr *e;
		json_t *names;
		const char *n;
		int ok = 1;

		if (!jstr(m, "threshold"))
			continue;
		e = td_expr_parse(jstr(m, "threshold"), &why);
		if (!e) {
			json_object_del(m, "threshold");
			continue;
		}
		names = json_object();
		td_expr_names(e, NULL, metric_exists, ids, collect_name, names);
		json_object_foreach(names, n, v)
			ok = 0; /* a threshold over raw events is not ours to keep */
		json_decref(names);
		td_expr_free(e);
		if (!ok)
			json_object_del(m, "threshold");
	}
	json_decref(ids);
	strbuf_release(&why);
}

/* The table document (docs/tables.md) of what im holds, into root. */
static int table_document(struct imp *im, json_t *root, struct strbuf *err)
{
	const struct td_import_opts *o = im->o;
	json_t *cpuid = json_array(), *evs, *v;
	const char *key;
	size_t i;

	json_object_set_new(root, "tdperf_table", json_integer(1));
	json_object_set_new(root, "name", json_string(o->name));
	json_object_set_new(root, "display", json_string(o->display ? o->display : o->name));
	json_object_set_new(root, "vendor", json_string(o->vendor ? o->vendor : "GenuineIntel"));
	if (o->perf_name)
		json_object_set_new(root, "perf_name", json_string(o->perf_name));
	if (o->nr_aliases) {
		json_t *a = json_array();

		for (i = 0; i < o->nr_aliases; i++)
			json_array_append_new(a, json_string(o->aliases[i]));
		json_object_set_new(root, "aliases", a);
	}
	if (o->core_type)
		json_object_set_new(root, "core_type", json_string(o->core_type));
	json_object_set_new(root, "pmu", json_string(im->pmu));
	if (o->mapfile && o->map_key && mapfile_patterns(im, cpuid, err)) {
		json_decref(cpuid);
		return -1;
	}
	for (i = 0; i < o->nr_cpuid; i++)
		json_array_append_new(cpuid, json_string(o->cpuid[i]));
	json_object_set_new(root, "cpuid", cpuid);
	json_object_set_new(root, "slots_per_cycle", json_real(o->slots));
	counter_totals(im, root);
	json_object_set_new(root, "source", json_string(o->source ? o->source : im->source.buf));
	if (o->missing)
		json_object_set_new(root, "missing", json_string(o->missing));
	if (im->nr_dropped) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "%d source metrics left out (uncore or unknown events, or "
			    "depending on those): %s%s", im->nr_dropped, im->dropped.buf,
			    im->dropped.len >= 4000 ? ", ..." : "");
		json_object_set_new(root, "left_out", json_string(why.buf));
		strbuf_release(&why);
	}
	if (json_object_size(im->params))
		json_object_set(root, "params", im->params);
	evs = json_array();
	json_object_foreach(im->events, key, v)
		json_array_append(evs, v);
	json_object_set_new(root, "events", evs);
	json_object_set(root, "metrics", im->metrics);
	return 0;
}

/*
 * Write the table to 'path': first beside it as PATH.check, which must
 * load as a table before it replaces anything, then renamed into place.
 */
static int write_checked(json_t *root, const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, tmp = STRBUF_INIT;
	char *dump = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	struct td_table *t;
	int rc = -1;

	if (!dump) {
		strbuf_addstr(err, "cannot format the table");
		return -1;
	}
	strbuf_addstr(&text, dump);
	strbuf_addch(&text, '\n');
	free(dump);
	strbuf_addf(&tmp, "%s.check", path);
	if (td_write_file_atomic(tmp.buf, text.buf, text.len)) {
		strbuf_addf(err, "%s: cannot write", tmp.buf);
		goto out;
	}
	t = td_table_load(tmp.buf, err);
	if (!t) {
		unlink(tmp.buf);
		goto out;
	}
	td_table_free(t);
	if (rename(tmp.buf, path)) {
		strbuf_addf(err, "%s: cannot write", path);
		unlink(tmp.buf);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&tmp);
	strbuf_release(&text);
	return rc;
}

int td_table_import(const struct td_import_opts *o, struct strbuf *err)
{
	struct imp im = { 0 };
	json_t *root = json_object();
	int rc = -1;

	im.o = o;
	im.metrics = json_array();
	im.evdb = json_object();
	im.events = json_object();
	im.params = json_object();
	im.extra_ids = json_object();
	im.descriptions = json_object();
	im.pmu = o->pmu ? o->pmu : "cpu";
	strbuf_init(&im.dropped, 0);
	strbuf_init(&im.source, 0);

	if (read_sources(&im, err))
		goto out;
	add_renamed_event_alternatives(&im);
	if (drop_unresolved(&im, err))
		goto out;
	drop_unresolved_thresholds(&im);
	fix_levels(&im);
	default_thresholds_for(&im);
	mark_corrections(&im);
	set_areas(&im);
	set_descriptions(&im);
	if (table_document(&im, root, err) || write_checked(root, o->output, err))
		goto out;
	rc = 0;
out:
	json_decref(root);
	json_decref(im.metrics);
	json_decref(im.evdb);
	json_decref(im.events);
	json_decref(im.params);
	json_decref(im.extra_ids);
	json_decref(im.descriptions);
	strbuf_release(&im.dropped);
	strbuf_release(&im.source);
	return rc;
}
