/*
 * The regression gate of 'tdperf diff --check' (analyze/gate.h).
 *
 * Every session of every document of a side is one measurement (tdperf
 * record -r N writes one perf stat session per run); a session that perf
 * itself summarized (perf stat -r N: a mean and "+- x %", the standard
 * error of the mean) counts as its N runs through their mean and
 * spread, which pools exactly (metrics/stats.c).  Top-Down values of such
 * a session have only the first-order error bars of analyze/errorbars.c,
 * so metrics that use them are marked approximate.
 *
 * A rule "METRIC:+X%" is broken when the whole confidence interval of the
 * change lies above +X % (the rise exceeds X % with the chosen confidence,
 * a one-sided test at (1 + c) / 2); "-X" mirrors it.  A change that is
 * significant but may be smaller than the limit does not fail the gate,
 * so noise alone fails it with probability below (1 - c) / 2 per rule.
 */
#include "config.h"
#include "analyze/gate.h"
#include "analyze/doc.h"
#include "metrics/stats.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum better { LOWER_IS_BETTER = -1, NEITHER_IS_BETTER = 0, HIGHER_IS_BETTER = 1 };

/* The counts compared, under the names perf and the tables give them. */
static const struct count_metric {
	const char *id;
	int hardware;
	const char *names[6];
} count_metrics[] = {
	{ "instructions", 1, { "instructions", "INST_RETIRED.ANY", "ex_ret_instr", "INST_RETIRED", NULL } },
	{ "cycles", 1, { "cycles", "cpu-cycles", "CPU_CLK_UNHALTED.THREAD", "ls_not_halted_cyc", "CPU_CYCLES", NULL } },
	{ "task-clock", 0, { "task-clock", NULL } },
	{ "cpu-clock", 0, { "cpu-clock", NULL } },
	{ "context-switches", 0, { "context-switches", "cs", NULL } },
	{ "cpu-migrations", 0, { "cpu-migrations", "migrations", NULL } },
	{ "page-faults", 0, { "page-faults", "faults", NULL } },
};

/* Top-Down Levels 1-2 of Intel's TMA, AMD's and Arm's tables (a rule may name one before any run has it). */
static const char *const topdown_ids[] = {
	"frontend_bound", "fetch_latency", "fetch_bandwidth", "bad_speculation", "branch_mispredicts",
	"machine_clears", "backend_bound", "memory_bound", "core_bound", "retiring",
	"light_operations", "heavy_operations", "smt_contention", NULL,
};

struct gmetric {
	char *id, *name;
	const char *kind;   /* "count", "ratio", "seconds", "fraction" */
	const char *unit;
	int better, hardware, level;
	unsigned approximate; /* APPROX_*: how a side's spread was estimated */
	struct td_sample s[2];
};

#define APPROX_PROPAGATED 1u /* perf -r standard errors carried through a formula */
#define APPROX_ROUNDED 2u    /* perf printed "+- 0.00 %": half its last digit taken */
#define APPROX_SCALED 4u     /* a region's counts scaled up (multiplexing, --region-sample) */

/*
 * perf prints the relative standard error with two decimals; "+- 0.00 %"
 * says below 0.005 %, not zero.  Taking it as zero would make any
 * difference certain (t infinite), so the largest value it rounds from
 * is taken: the conservative reading.
 */
#define PERF_ZERO_VARIANCE_PCT 0.005

struct gate {
	struct gmetric *m;
	size_t nr, alloc;
	int hardware[2];    /* the side has hardware counts */
	size_t runs[2];     /* measurements: sessions, or perf's -r N */
	int perf_repeats[2];
	const char *pmu[2]; /* the PMU of the totals the plain ids come from (hybrid), or NULL */
};

struct rule {
	char *text, *metric;
	int sign;           /* +1: fail on a rise, -1: on a fall */
	double limit;       /* >= 0, in the unit */
	int points;         /* percentage points; else percent of the base mean */
};

static struct gmetric *find_metric(struct gate *g, const char *id)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		if (!strcmp(g->m[i].id, id))
			return &g->m[i];
	return NULL;
}

static struct gmetric *get_metric(struct gate *g, const char *id, const char *name, const char *kind,
				  const char *unit, int better)
{
	struct gmetric *m = find_metric(g, id);

	if (m)
		return m;
	TD_GROW(g->m, g->alloc, g->nr + 1);
	m = &g->m[g->nr++];
	memset(m, 0, sizeof(*m));
	m->id = xstrdup(id);
	m->name = xstrdup(name ? name : id);
	m->kind = kind;
	m->unit = unit;
	m->better = better;
	return m;
}

/*
 * A metric of one scope: on hybrid CPUs and big.LITTLE Arm systems a
 * session has a total per core PMU; the first keeps the plain ids that
 * rules name, the others' metrics are ID#PMU (retiring#cpu_atom).
 */
static struct gmetric *scope_metric(struct gate *g, const char *pmu, const char *id, const char *name,
				    const char *kind, const char *unit, int better)
{
	struct strbuf sb = STRBUF_INIT;
	struct gmetric *m;

	strbuf_addstr(&sb, id);
	if (pmu)
		strbuf_addf(&sb, "#%s", pmu);
	m = get_metric(g, sb.buf, name, kind, unit, better);
	strbuf_release(&sb);
	return m;
}

/* One measurement, or n of them known by their mean and its standard error. */
static void add_value(struct gmetric *m, int side, int repeats, double mean, double sem)
{
	if (isnan(mean))
		return;
	if (repeats > 1) {
		if (isnan(sem))
			return; /* a mean of N runs without their spread weighs as nothing known */
		td_sample_add_group(&m->s[side], repeats, mean, sem);
		return;
	}
	td_sample_add(&m->s[side], mean);
}

static const struct count_metric *count_metric_of(const char *event)
{
	size_t i, k;

	for (i = 0; i < sizeof(count_metrics) / sizeof(count_metrics[0]); i++)
		for (k = 0; count_metrics[i].names[k]; k++)
			if (!strcasecmp(event, count_metrics[i].names[k]))
				return &count_metrics[i];
	return NULL;
}

/* The counts of a scope (the first of each), and IPC from two of them. */
static void add_counts(struct gate *g, int side, json_t *scope, const char *pmu, int repeats)
{
	double value[2] = { NAN, NAN }, rel[2] = { NAN, NAN };
	const char *seen[sizeof(count_metrics) / sizeof(count_metrics[0])] = { 0 };
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(scope, "events"), i, e) {
		const char *name = td_json_str(e, "name"), *status = td_json_str(e, "status");
		const struct count_metric *c = name ? count_metric_of(name) : NULL;
		double v = td_json_num(json_object_get(e, "value"));
		double var_pct = td_json_num(json_object_get(e, "variance_pct"));
		size_t k = c ? (size_t)(c - count_metrics) : 0;
		struct gmetric *m;

		if (!c || seen[k] || !status || strcmp(status, "ok") || isnan(v))
			continue;
		seen[k] = c->id;
		m = scope_metric(g, pmu, c->id, c->id, "count", td_json_str(e, "unit"), LOWER_IS_BETTER);
		m->hardware = c->hardware;
		if (repeats > 1 && var_pct == 0) {
			var_pct = PERF_ZERO_VARIANCE_PCT;
			m->approximate |= APPROX_ROUNDED;
		}
		add_value(m, side, repeats, v, v * var_pct / 100);
		if (k < 2) {
			value[k] = v;
			rel[k] = var_pct / 100;
		}
	}
	if (!isnan(value[0]) && value[1] > 0) {
		struct gmetric *m = scope_metric(g, pmu, "ipc", "IPC (instructions per cycle)", "ratio", NULL,
						 HIGHER_IS_BETTER);
		double ipc = value[0] / value[1];

		m->hardware = 1;
		/* perf's -r spreads of the two counts, taken as independent */
		if (repeats > 1)
			m->approximate |= APPROX_PROPAGATED;
		add_value(m, side, repeats, ipc, ipc * sqrt(rel[0] * rel[0] + rel[1] * rel[1]));
	}
}

/* Retiring is the useful work; its children only say what kind it was. */
static int topdown_better(json_t *node)
{
	const char *id = td_json_str(node, "id"), *parent = td_json_str(node, "parent");

	if (id && !strcmp(id, "retiring"))
		return HIGHER_IS_BETTER;
	if (parent && !strcmp(parent, "retiring"))
		return NEITHER_IS_BETTER;
	return LOWER_IS_BETTER;
}

static void add_topdown(struct gate *g, int side, json_t *scope, const char *pmu, int repeats)
{
	json_t *node;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, node) {
		int level = td_node_level(node);
		const char *id = td_json_str(node, "id");
		struct gmetric *m;

		if (level < 1 || level > 2 || !id || !json_is_number(json_object_get(node, "value")))
			continue;
		m = scope_metric(g, pmu, id, td_json_str(node, "name"), "fraction", td_json_str(node, "unit"),
				 topdown_better(node));
		m->hardware = 1;
		m->level = level;
		if (repeats > 1)
			m->approximate |= APPROX_PROPAGATED;
		add_value(m, side, repeats, td_json_num(json_object_get(node, "value")),
			  td_json_num(json_object_get(node, "uncertainty")));
	}
}

/*
 * The scopes of a session that cover all of it: its totals, the first
 * and then one per other core PMU (a derived sum that repeats a PMU's is
 * left out).  Returns how many were put in out[] (at most max).
 */
static size_t session_totals(json_t *doc, json_int_t session, json_t **out, size_t max)
{
	json_t *scope;
	size_t i, n = 0, k;

	json_array_foreach(json_object_get(doc, "scopes"), i, scope) {
		const char *kind = td_json_str(scope, "kind"), *pmu = td_json_str(scope, "pmu");
		int again = 0;

		if (json_integer_value(json_object_get(scope, "session")) != session || !kind ||
		    strcmp(kind, "total") || json_is_number(json_object_get(scope, "time")))
			continue;
		for (k = 0; k < n; k++) {
			const char *seen = td_json_str(out[k], "pmu");

			again |= !pmu || (seen && !strcmp(seen, pmu));
		}
		if (n < max && (!n || !again))
			out[n++] = scope;
	}
	return n;
}

static json_t *scope_by_id(json_t *doc, const char *id)
{
	json_t *scope;
	size_t i;

	json_array_foreach(json_object_get(doc, "scopes"), i, scope)
		if (!strcmp(td_json_str_or(scope, "id", ""), id))
			return scope;
	return NULL;
}

static int add_document(struct gate *g, int side, json_t *doc, const char *path, const char *scope_id,
			struct strbuf *err)
{
	json_t *session, *only = scope_id ? scope_by_id(doc, scope_id) : NULL;
	size_t i;

	if (scope_id && !only) {
		strbuf_addf(err, "%s: no scope '%s' (tdperf report --format json lists the ids)", path, scope_id);
		return -1;
	}
	json_array_foreach(json_object_get(doc, "sessions"), i, session) {
		json_int_t index = json_integer_value(json_object_get(session, "index"));
		int repeats = td_json_int(json_object_get(session, "repeats"), 1);
		double elapsed = td_json_num(json_object_get(session, "elapsed_s"));
		json_t *scopes[8];
		size_t nr = only ? 1 : session_totals(doc, index, scopes, 8), k;

		if (only)
			scopes[0] = only;
		if (!nr || json_integer_value(json_object_get(scopes[0], "session")) != index)
			continue;
		if (repeats < 1)
			repeats = 1;
		g->runs[side] += repeats;
		if (repeats > 1)
			g->perf_repeats[side] = 1;
		for (k = 0; k < nr; k++) {
			const char *pmu = k ? td_json_str(scopes[k], "pmu") : NULL;

			if (!k && !g->pmu[side])
				g->pmu[side] = td_json_str(scopes[k], "pmu");
			if (json_is_true(json_object_get(scopes[k], "hardware_counts")))
				g->hardware[side] = 1;
			add_counts(g, side, scopes[k], pmu, repeats);
			add_topdown(g, side, scopes[k], pmu, repeats);
		}
		if (repeats == 1 && !isnan(elapsed))
			add_value(get_metric(g, "elapsed", "wall time (seconds elapsed)", "seconds", "s",
					     LOWER_IS_BETTER), side, 1, elapsed, NAN);
	}
	return 0;
}

/* ---- regions: each region's counts and tree, one measurement per --regions run ---- */

#define REGION_PREFIX "region:"

/*
 * The metric a rule id names: "region:NAME:METRIC" names METRIC of region
 * NAME (NAME may hold colons, METRIC does not); any other id itself.
 */
static const char *metric_part(const char *id)
{
	const char *colon = strrchr(id, ':');

	if (strncmp(id, REGION_PREFIX, strlen(REGION_PREFIX)) || colon < id + strlen(REGION_PREFIX))
		return id;
	return colon + 1;
}

/* METRIC of region NAME, or the plain METRIC when prefix is empty (the root stands for the run). */
static struct gmetric *region_metric(struct gate *g, const char *prefix, const char *id, const char *name,
				     const char *kind, const char *unit, int better)
{
	struct strbuf sb = STRBUF_INIT, nm = STRBUF_INIT;
	struct gmetric *m;

	strbuf_addf(&sb, "%s%s", prefix, id);
	strbuf_addf(&nm, "%s%s", prefix, name);
	m = get_metric(g, sb.buf, nm.buf, kind, unit, better);
	strbuf_release(&sb);
	strbuf_release(&nm);
	return m;
}

static void add_region_value(struct gmetric *m, int side, double v, int scaled)
{
	if (scaled)
		m->approximate |= APPROX_SCALED;
	add_value(m, side, 1, v, NAN);
}

/* One region of a --regions report under the ids prefix + METRIC. */
static void add_region(struct gate *g, int side, json_t *r, const char *prefix, int hardware)
{
	double value[2] = { NAN, NAN };
	int scaled = json_is_true(json_object_get(r, "estimate"));
	const char *event;
	json_t *v, *node;
	size_t i;

	json_object_foreach(json_object_get(r, "counts"), event, v) {
		const struct count_metric *c = count_metric_of(event);
		struct gmetric *m;

		if (!c || !json_is_number(v))
			continue;
		m = region_metric(g, prefix, c->id, c->id, "count", NULL, LOWER_IS_BETTER);
		m->hardware = c->hardware;
		if (m->s[side].n < g->runs[side]) /* one count under two names (cycles, CPU_CLK_UNHALTED.THREAD): the first */
			add_region_value(m, side, json_number_value(v), scaled);
		if (c - count_metrics < 2)
			value[c - count_metrics] = json_number_value(v);
	}
	if (!isnan(value[0]) && value[1] > 0) {
		struct gmetric *m = region_metric(g, prefix, "ipc", "IPC (instructions per cycle)", "ratio", NULL,
						  HIGHER_IS_BETTER);

		m->hardware = 1;
		add_region_value(m, side, value[0] / value[1], scaled);
	}
	if (*prefix && json_is_number(json_object_get(r, "time_s")))
		add_region_value(region_metric(g, prefix, "time", "time (seconds inside, summed over threads)",
					       "seconds", "s", LOWER_IS_BETTER), side,
				 json_number_value(json_object_get(r, "time_s")), scaled);
	json_array_foreach(json_object_get(r, "nodes"), i, node) {
		int level = td_node_level(node);
		const char *id = td_json_str(node, "id");
		struct gmetric *m;

		if (!hardware || level < 1 || level > 2 || !id || !json_is_number(json_object_get(node, "value")))
			continue;
		m = region_metric(g, prefix, id, td_json_str_or(node, "name", id), "fraction", NULL,
				  topdown_better(node));
		m->hardware = 1;
		m->level = level;
		add_region_value(m, side, json_number_value(json_object_get(node, "value")), scaled);
	}
}

/*
 * A --regions run is one measurement: each region's metrics as
 * region:NAME:METRIC, and the root region's also as the plain metrics
 * (the library counted the whole run as the root, there is no perf stat).
 */
static void add_regions_doc(struct gate *g, int side, json_t *doc)
{
	int hardware = !strcmp(td_json_str_or(doc, "mode", ""), "hardware");
	json_t *r;
	size_t i;

	g->runs[side]++;
	if (hardware)
		g->hardware[side] = 1;
	json_array_foreach(json_object_get(doc, "regions"), i, r) {
		const char *name = td_json_str(r, "name");
		struct strbuf prefix = STRBUF_INIT;

		if (!name)
			continue;
		strbuf_addf(&prefix, REGION_PREFIX "%s:", name);
		add_region(g, side, r, prefix.buf, hardware);
		if (!strcmp(name, "(root)"))
			add_region(g, side, r, "", hardware);
		strbuf_release(&prefix);
	}
}

/* ---- hotspots: each function's self share, one measurement per run directory ---- */

static double self_share(json_t *hot, const char *symbol)
{
	double sum = 0;
	json_t *f;
	size_t i;

	json_array_foreach(json_object_get(hot, "hotspots"), i, f) {
		const char *s = td_json_str(f, "symbol");

		if (s && !strcmp(s, symbol))
			sum += td_json_num(json_object_get(f, "percent")) / 100;
	}
	return sum;
}

/* Functions of at least 1 % somewhere: smaller ones are mostly sampling noise. */
#define SELF_SHARE_FLOOR 0.01

static void add_hotspots(struct gate *g, const struct td_gate_side *sides[2])
{
	int side;
	size_t d, i;
	json_t *f;

	for (side = 0; side < 2; side++)
		for (d = 0; d < sides[side]->nr; d++)
			json_array_foreach(json_object_get(sides[side]->hotspots[d], "hotspots"), i, f) {
				const char *s = td_json_str(f, "symbol");
				struct strbuf id = STRBUF_INIT;

				if (!s || td_json_num(json_object_get(f, "percent")) / 100 < SELF_SHARE_FLOOR)
					continue;
				strbuf_addf(&id, "self:%s", s);
				get_metric(g, id.buf, s, "fraction", "samples", NEITHER_IS_BETTER)->level = -1;
				strbuf_release(&id);
			}
	for (i = 0; i < g->nr; i++) {
		if (g->m[i].level != -1)
			continue;
		for (side = 0; side < 2; side++)
			for (d = 0; d < sides[side]->nr; d++)
				if (sides[side]->hotspots[d])
					td_sample_add(&g->m[i].s[side],
						      self_share(sides[side]->hotspots[d], g->m[i].name));
	}
}

/* ---- rules ---- */

static void free_rules(struct rule *r, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(r[i].text);
		free(r[i].metric);
	}
	free(r);
}

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

static int parse_rule(const char *text, struct rule *r, struct strbuf *err)
{
	const char *colon = strrchr(text, ':'), *spec;
	char *end;

	memset(r, 0, sizeof(*r));
	if (!colon || colon == text) {
		strbuf_addf(err, "--fail-on: '%s': a rule is METRIC:+LIMIT%% or METRIC:-LIMITpt", text);
		return -1;
	}
	spec = colon + 1;
	while (isspace((unsigned char)*spec))
		spec++;
	if (*spec != '+' && *spec != '-') {
		strbuf_addf(err, "--fail-on: '%s': the limit needs a sign: + fails on a rise, - on a fall", text);
		return -1;
	}
	r->sign = *spec == '+' ? 1 : -1;
	r->limit = strtod(spec + 1, &end);
	if (end == spec + 1 || isspace((unsigned char)spec[1]) || spec[1] == '+' || spec[1] == '-' ||
	    !isfinite(r->limit) || r->limit < 0) {
		strbuf_addf(err, "--fail-on: '%s': the limit is not a number", text);
		return -1;
	}
	if (!strcmp(end, "%"))
		r->points = 0;
	else if (!strcmp(end, "pt"))
		r->points = 1;
	else {
		strbuf_addf(err, "--fail-on: '%s': the limit needs its unit, %% (of the base mean) or pt "
			    "(percentage points of a fraction)%s%s%s", text, *end ? ", not '" : "", end, *end ? "'" : "");
		return -1;
	}
	r->text = xstrdup(text);
	r->metric = trimmed(text, (size_t)(colon - text));
	return 0;
}

static int parse_rules(const char *rules, struct rule **out, size_t *nr, struct strbuf *err)
{
	size_t alloc = 0;
	const char *p = rules;

	*out = NULL;
	*nr = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		char *one = trimmed(p, comma ? (size_t)(comma - p) : strlen(p));
		int bad = !*one;

		if (bad)
			strbuf_addf(err, "--fail-on: '%s': an empty rule", rules);
		TD_GROW(*out, alloc, *nr + 1);
		if (bad || parse_rule(one, &(*out)[*nr], err) < 0) {
			free(one);
			free_rules(*out, *nr);
			*out = NULL;
			*nr = 0;
			return -1;
		}
		(*nr)++;
		free(one);
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int td_gate_check_rules(const char *rules, struct strbuf *err)
{
	struct rule *r;
	size_t nr;

	if (parse_rules(rules, &r, &nr, err) < 0)
		return -1;
	free_rules(r, nr);
	return 0;
}

static int known_plain_metric(const char *id)
{
	size_t i;

	if (!strcmp(id, "ipc") || !strcmp(id, "elapsed") || !strncmp(id, "self:", 5))
		return 1;
	for (i = 0; i < sizeof(count_metrics) / sizeof(count_metrics[0]); i++)
		if (!strcmp(id, count_metrics[i].id))
			return 1;
	for (i = 0; topdown_ids[i]; i++)
		if (!strcmp(id, topdown_ids[i]))
			return 1;
	return 0;
}

/* A rule's metric: ID, ID#PMU for another core PMU's total (hybrid CPUs), or region:NAME:ID. */
static int known_metric(const char *rule_id)
{
	const char *hash;

	if (metric_part(rule_id) != rule_id) {
		const char *id = metric_part(rule_id);

		return rule_id[strlen(REGION_PREFIX)] != ':' && strncmp(id, "self:", 5) &&
		       strcmp(id, "elapsed") && (!strcmp(id, "time") || known_plain_metric(id));
	}
	hash = strncmp(rule_id, "self:", 5) ? strchr(rule_id, '#') : NULL;
	char *id = hash ? xstrndup(rule_id, (size_t)(hash - rule_id)) : xstrdup(rule_id);
	int known = known_plain_metric(id);

	free(id);
	return known;
}

/* A metric that is a share (points apply), known before any run has it. */
static int fraction_id(const char *rule_id)
{
	const char *id = metric_part(rule_id);
	const char *hash = strncmp(id, "self:", 5) ? strchr(id, '#') : NULL;
	size_t len = hash ? (size_t)(hash - id) : strlen(id), i;

	for (i = 0; topdown_ids[i]; i++)
		if (strlen(topdown_ids[i]) == len && !strncmp(id, topdown_ids[i], len))
			return 1;
	return !strncmp(id, "self:", 5);
}

/* ---- the document ---- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *interval(double lo, double hi)
{
	return json_pack("[o,o]", num(lo), num(hi));
}

static const char *better_name(int better)
{
	return better == LOWER_IS_BETTER ? "lower" : better == HIGHER_IS_BETTER ? "higher" : NULL;
}

static const char *verdict(const struct gmetric *m, const struct td_welch *w, double confidence)
{
	if (isnan(w->p))
		return "not tested";
	if (!(w->p < 1 - confidence))
		return "no significant change";
	if (m->better == NEITHER_IS_BETTER)
		return "changed";
	return (w->diff > 0) == (m->better == LOWER_IS_BETTER) ? "regressed" : "improved";
}

static json_t *side_stats(const struct td_sample *s)
{
	return json_pack("{s:f,s:o,s:o}", "n", s->n, "mean", num(s->n ? s->mean : NAN),
			 "sd", num(td_sample_sd(s)));
}

static int is_fraction(const struct gmetric *m)
{
	return !strcmp(m->kind, "fraction");
}

/* The change and its interval in percent of the base mean, or in points. */
static void change_in(const struct gmetric *m, const struct td_welch *w, int points, double out[3])
{
	double scale = points ? 100 : m->s[0].mean != 0 ? 100 / fabs(m->s[0].mean) : NAN;

	out[0] = w->diff * scale;
	out[1] = w->lo * scale;
	out[2] = w->hi * scale;
}

static json_t *metric_json(const struct gmetric *m, double confidence, struct td_welch *w)
{
	json_t *o;
	double c[3];

	td_welch_test(&m->s[0], &m->s[1], confidence, w);
	o = json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o}", "id", m->id, "name", m->name, "kind", m->kind,
		      "unit", m->unit ? json_string(m->unit) : json_null(),
		      "better", better_name(m->better) ? json_string(better_name(m->better)) : json_null(),
		      "level", m->level > 0 ? json_integer(m->level) : json_null(),
		      "base", side_stats(&m->s[0]), "new", side_stats(&m->s[1]));
	json_object_set_new(o, "diff", num(w->diff));
	json_object_set_new(o, "ci", interval(w->lo, w->hi));
	change_in(m, w, is_fraction(m), c);
	json_object_set_new(o, "change", num(c[0]));
	json_object_set_new(o, "change_ci", interval(c[1], c[2]));
	json_object_set_new(o, "change_unit", json_string(is_fraction(m) ? "pt" : "%"));
	json_object_set_new(o, "t", isnan(w->t) ? json_null() : isinf(w->t) ? json_string(w->t > 0 ? "inf" : "-inf")
									      : json_real(w->t));
	json_object_set_new(o, "df", num(w->df));
	json_object_set_new(o, "p", num(w->p));
	json_object_set_new(o, "verdict", json_string(verdict(m, w, confidence)));
	json_object_set_new(o, "approximate", json_boolean(m->approximate != 0));
	if (m->approximate) {
		struct strbuf sb = STRBUF_INIT;

		if (m->approximate & APPROX_PROPAGATED)
			strbuf_addstr(&sb, "the spread of a perf stat -r N side is its counts' standard errors "
				      "propagated first-order through the formula, as independent");
		if (m->approximate & APPROX_SCALED)
			strbuf_addf(&sb, "%sa run's region counts are estimates, scaled for multiplexing or "
				    "--region-sample", sb.len ? "; " : "");
		if (m->approximate & APPROX_ROUNDED)
			strbuf_addf(&sb, "%sperf printed \"+- 0.00 %%\": the standard error is taken as %g %% "
				    "of the mean, the most that rounds to it", sb.len ? "; " : "",
				    PERF_ZERO_VARIANCE_PCT);
		json_object_set_new(o, "approximation", json_string(sb.buf));
		strbuf_release(&sb);
	}
	return o;
}

static const char *unmeasured_reason(const struct gate *g, const struct gmetric *m, const char *id,
				     struct strbuf *sb)
{
	static const char *const label[2] = { "base", "new" };
	int side;

	for (side = 0; side < 2; side++) {
		const char *plain = metric_part(id);
		int hw = m ? m->hardware : strcmp(plain, "elapsed") && strcmp(plain, "time") &&
			 strncmp(plain, "self:", 5) && !(count_metric_of(plain) && !count_metric_of(plain)->hardware);

		if (m && m->s[side].n >= 2)
			continue;
		if (hw && !g->hardware[side])
			strbuf_addf(sb, "not measured: %s has no hardware counts (no PMU), only software counts",
				    label[side]);
		else if (!strncmp(id, "self:", 5) && (!m || !m->s[side].n))
			strbuf_addf(sb, "not measured: no hotspots of %s (record --hotspots) hold the function above 1 %%",
				    label[side]);
		else if (!m || !m->s[side].n)
			strbuf_addf(sb, "not measured: %s has no %s", label[side], id);
		else
			strbuf_addf(sb, "not tested: %s has %g measurement(s) of %s; Welch's test needs 2",
				    label[side], m->s[side].n, id);
		return sb->buf;
	}
	return NULL;
}

static json_t *rule_json(const struct gate *g, const struct rule *r, json_t *metrics, double confidence)
{
	const struct gmetric *m = find_metric((struct gate *)g, r->metric);
	json_t *o = json_pack("{s:s,s:s,s:s,s:f,s:s}", "rule", r->text, "metric", r->metric,
			      "direction", r->sign > 0 ? "rise" : "fall", "limit", r->sign * r->limit,
			      "unit", r->points ? "pt" : "%");
	struct strbuf sb = STRBUF_INIT;
	struct td_welch w;
	double c[3];
	int broken;
	size_t i;
	json_t *mj;

	if (unmeasured_reason(g, m, r->metric, &sb)) {
		json_object_set_new(o, "status", json_string(!strncmp(sb.buf, "not tested", 10) ?
							     "not tested" : "not measured"));
		json_object_set_new(o, "message", json_string(sb.buf));
		strbuf_release(&sb);
		return o;
	}
	td_welch_test(&m->s[0], &m->s[1], confidence, &w);
	change_in(m, &w, r->points, c);
	json_array_foreach(metrics, i, mj)
		if (!strcmp(td_json_str(mj, "id"), m->id))
			json_object_set(o, "verdict", json_object_get(mj, "verdict"));
	json_object_set_new(o, "change", num(c[0]));
	json_object_set_new(o, "change_ci", interval(c[1], c[2]));
	if (isnan(c[0])) {
		json_object_set_new(o, "status", json_string("not tested"));
		json_object_set_new(o, "message", json_string("not tested: the base mean is 0, no relative change"));
		return o;
	}
	broken = r->sign > 0 ? c[1] > r->limit : c[2] < -r->limit;
	strbuf_addf(&sb, "%s changed by %+.2f%s, %g%% interval [%+.2f, %+.2f]%s: %s %s %c%g%s",
		    m->id, c[0], r->points ? " pt" : " %", confidence * 100,
		    c[1], c[2], r->points ? " pt" : " %",
		    broken ? "all of it" : "not all of it", r->sign > 0 ? "above" : "below",
		    r->sign > 0 ? '+' : '-', r->limit, r->points ? " pt" : " %");
	json_object_set_new(o, "status", json_string(broken ? "failed" : "passed"));
	json_object_set_new(o, "message", json_string(sb.buf));
	strbuf_release(&sb);
	return o;
}

static json_t *side_json(const struct gate *g, const struct td_gate_side *s, int side)
{
	json_t *inputs = json_array();
	size_t i;

	for (i = 0; i < s->nr; i++)
		json_array_append_new(inputs, json_string(s->paths[i]));
	return json_pack("{s:s,s:o,s:I,s:b,s:b,s:o}", "label", s->label, "inputs", inputs,
			 "runs", (json_int_t)g->runs[side], "hardware_counts", g->hardware[side],
			 "perf_repeats", g->perf_repeats[side],
			 "pmu", g->pmu[side] ? json_string(g->pmu[side]) : json_null());
}

static void release_gate(struct gate *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++) {
		free(g->m[i].id);
		free(g->m[i].name);
	}
	free(g->m);
}

static json_t *gate_doc(struct gate *g, const struct td_gate_side *sides[2], struct rule *r, size_t nr,
			const char *rules_source, double confidence)
{
	json_t *doc = json_object(), *metrics = json_array(), *rules = json_array();
	int failed = 0, unchecked = 0;
	struct td_welch w;
	size_t i;

	json_object_set_new(doc, "schema", json_string("tdperf-gate"));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "method", json_string("welch"));
	json_object_set_new(doc, "method_text",
			    json_string("Welch's unequal-variance t-test of new - base per metric, "
					"Welch-Satterthwaite degrees of freedom, two-sided p and interval; "
					"a rule fails when its whole interval lies beyond the limit"));
	json_object_set_new(doc, "confidence", json_real(confidence));
	json_object_set_new(doc, "base", side_json(g, sides[0], 0));
	json_object_set_new(doc, "new", side_json(g, sides[1], 1));
	json_object_set_new(doc, "software_only", json_boolean(!g->hardware[0] || !g->hardware[1]));
	json_object_set_new(doc, "note", !g->hardware[0] || !g->hardware[1] ?
			    json_string("no hardware counts (no PMU) on a side: compared on the software "
					"counts (task-clock, context switches, migrations, page faults) and "
					"the wall time; instructions, cycles, IPC and Top-Down are not") :
			    json_null());
	for (i = 0; i < g->nr; i++)
		json_array_append_new(metrics, metric_json(&g->m[i], confidence, &w));
	json_object_set_new(doc, "metrics", metrics);
	for (i = 0; i < nr; i++) {
		json_t *o = rule_json(g, &r[i], metrics, confidence);
		const char *status = td_json_str(o, "status");

		failed += !strcmp(status, "failed");
		unchecked += !!strncmp(status, "passed", 6) && strcmp(status, "failed");
		json_array_append_new(rules, o);
	}
	json_object_set_new(doc, "rules_source", json_string(rules_source));
	json_object_set_new(doc, "rules", rules);
	json_object_set_new(doc, "failed", json_integer(failed));
	json_object_set_new(doc, "unchecked", json_integer(unchecked));
	return doc;
}

int td_gate_failed(json_t *gate)
{
	return td_json_int(json_object_get(gate, "failed"), 0);
}

static int check_sides(const struct gate *g, const struct td_gate_side *sides[2], struct strbuf *err)
{
	int side;

	for (side = 0; side < 2; side++)
		if (g->runs[side] < 2) {
			strbuf_addf(err, "%s: %zu run%s on the %s side: the gate needs at least 2 per side "
				    "(record with -r N, or name several run directories)",
				    sides[side]->paths[0], g->runs[side], g->runs[side] == 1 ? "" : "s",
				    sides[side]->label);
			return -1;
		}
	return 0;
}

/* A rule on a region neither side has is a misspelled name, not an unmeasured metric. */
static int check_region_names(const struct gate *g, const struct rule *r, size_t nr, struct strbuf *err)
{
	size_t i, k;

	for (i = 0; i < nr; i++) {
		const char *id = metric_part(r[i].metric);
		size_t len = (size_t)(id - r[i].metric);
		int seen = id == r[i].metric;

		for (k = 0; k < g->nr && !seen; k++)
			seen = !strncmp(g->m[k].id, r[i].metric, len);
		if (!seen) {
			strbuf_addf(err, "--fail-on: '%s': no region '%.*s' in the runs of either side "
				    "(tdperf report RUN lists them)", r[i].text,
				    (int)(len - strlen(REGION_PREFIX) - 1), r[i].metric + strlen(REGION_PREFIX));
			return -1;
		}
	}
	return 0;
}

json_t *td_gate_build(const struct td_gate_side *base, const struct td_gate_side *new_,
		      const char *rules, double confidence, struct strbuf *err)
{
	const struct td_gate_side *sides[2] = { base, new_ };
	struct gate g = { 0 };
	struct rule *r = NULL;
	size_t nr = 0, i, d;
	json_t *doc = NULL;
	int side;

	if (parse_rules(rules ? rules : TD_GATE_DEFAULT_RULES, &r, &nr, err) < 0)
		return NULL;
	for (i = 0; i < nr; i++)
		if (!known_metric(r[i].metric)) {
			strbuf_addf(err, "--fail-on: '%s': no metric '%s' (instructions, cycles, task-clock, "
				    "cpu-clock, context-switches, cpu-migrations, page-faults, ipc, elapsed, "
				    "a Top-Down Level 1-2 id such as retiring, or self:FUNCTION)",
				    r[i].text, r[i].metric);
			goto out;
		}
	for (side = 0; side < 2; side++)
		for (d = 0; d < sides[side]->nr; d++)
			if (sides[side]->regions && sides[side]->regions[d])
				add_regions_doc(&g, side, sides[side]->regions[d]);
			else if (add_document(&g, side, sides[side]->docs[d], sides[side]->paths[d],
					      sides[side]->scope, err) < 0)
				goto out;
	add_hotspots(&g, sides);
	if (check_region_names(&g, r, nr, err) < 0)
		goto out;
	if (check_sides(&g, sides, err) < 0)
		goto out;
	for (i = 0; i < nr; i++) {
		struct gmetric *m = find_metric(&g, r[i].metric);

		if (r[i].points && (m ? !is_fraction(m) : !fraction_id(r[i].metric))) {
			strbuf_addf(err, "--fail-on: '%s': pt (percentage points) is for fractions "
				    "(Top-Down nodes, self shares); %s takes %%", r[i].text, r[i].metric);
			goto out;
		}
	}
	doc = gate_doc(&g, sides, r, nr, rules ? "--fail-on" : "default", confidence);
out:
	free_rules(r, nr);
	release_gate(&g);
	return doc;
}
