/*
 * Which formula table and SMT setting a perf stat output was taken with,
 * told by what perf printed beside its counts.
 *
 * parse/stat-infer.c names the family from the event names alone (pre-Ice
 * Lake events, PERF_METRICS, ...).  Within a family the tables differ in
 * two ways this file can test, because it may evaluate formulas:
 *
 *  - the events each table knows: perf asks only for the events of its
 *    own table, so an output whose events one table lacks (Skylake-SP's
 *    FP_ARITH_INST_RETIRED.512B_*, Ice Lake-SP's remote-socket
 *    MEM_LOAD_L3_MISS_RETIRED.*, absent from the client tables; Ice
 *    Lake's INT_MISC.CLEARS_COUNT, absent from Sapphire Rapids') did not
 *    come from that table's CPU;
 *  - the values perf printed: perf computed each tma_* value with its
 *    table's formulas, its pipeline width (5 slots a cycle on Ice Lake, 6
 *    on Golden Cove) and the machine's SMT state (#SMT_on picks the core
 *    clock estimate), so the table and setting that reproduce them within
 *    perf's print rounding are the ones perf used.
 *
 * The table that lacks the fewest counted events wins, then the one that
 * reproduces the most printed values; a tie stays a tie and the sentence
 * names --cpu.  Hybrid, AMD and Arm outputs are left to stat-infer.c,
 * which tells them apart by their widths already.
 */
#include "config.h"
#include "analyze/analyze-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The tables one family's events can come from, in the order ties prefer them. */
static const char *const pre_icelake[] = {
	"skylake", "skylakex", "cascadelakex", "broadwell", "broadwellx", "haswell", "haswellx", NULL
};
static const char *const perf_metrics[] = {
	"icelake", "tigerlake", "rocketlake", "icelakex", "sapphirerapids", "emeraldrapids",
	"graniterapids", NULL
};
/*
 * Deep levels (perf's TopdownL6: port and divider events only) have no
 * topdown event to name the family: every Intel table is a candidate.
 */
static const char *const any_intel[] = {
	"skylake", "skylakex", "cascadelakex", "broadwell", "broadwellx", "haswell", "haswellx",
	"icelake", "tigerlake", "rocketlake", "icelakex", "sapphirerapids", "emeraldrapids",
	"graniterapids", NULL
};

/*
 * What is looked at: enough to tell (perf's largest metric groups hold a
 * few hundred events), and bounded, so that a hostile file costs no table
 * lookup per count for each candidate table.
 */
#define MAX_SESSIONS 16
#define MAX_SCAN 8192     /* counts of a scope */
#define MAX_EVENTS 1024   /* distinct events */
#define MAX_PRINTED 512   /* printed values of a scope */

struct fit {
	const struct td_table *t;
	int unknown;                 /* distinct model-specific events counted, t lacks */
	struct strbuf unknown_names; /* the first few of them */
	int compared[2], matched[2]; /* printed tma_* values comparable / reproduced, SMT off/on */
	struct strbuf matched_names[2];
	struct strbuf missing[2];    /* why the first printed value not comparable was not */
};

struct probe {
	const struct td_stat *st;
	const struct td_scope *s;
	int group;
	int smt;
};

/*
 * Counts for a probe formula: the printed metric's own group first (perf
 * evaluates a metric on its group's counts), else the first count printed.
 */
static int probe_lookup(void *vctx, const char *name, double *v)
{
	const struct probe *p = vctx;
	const struct td_count *c;

	if (name[0] == '#') {
		if (strcasecmp(name, "#smt_on"))
			return -1;
		*v = p->smt;
		return 0;
	}
	if (!strcasecmp(name, "duration_time")) {
		if (isnan(p->st->elapsed_s))
			return -1;
		*v = p->st->elapsed_s;
		return 0;
	}
	c = td_scope_find_group(p->s, NULL, name, p->group);
	if (!c || c->status != TD_COUNT_OK)
		c = td_scope_find(p->s, NULL, name);
	if (!c || c->status != TD_COUNT_OK || isnan(c->value))
		return -1;
	*v = c->value;
	return 0;
}

/* m's value on the probe's counts, or NAN with why (when empty) saying what was missing. */
static double eval_metric(const struct td_table *t, const struct td_metric *m, struct probe *p,
			  struct strbuf *why)
{
	struct td_env env = { probe_lookup, p };
	struct strbuf sb = STRBUF_INIT;
	double v = NAN;
	size_t i;

	for (i = 0; i < m->nr_formulas && isnan(v); i++)
		if (m->formulas[i].expr) {
			strbuf_reset(&sb);
			v = td_table_eval_expr(t, m->formulas[i].expr, &env, &sb, NULL);
		}
	if (isnan(v) && !why->len && sb.len)
		strbuf_addf(why, "%s: %s", m->id, sb.buf);
	strbuf_release(&sb);
	return v;
}

/*
 * perf 6.1 prints its tma_* percentages with one decimal (text, CSV) or
 * more (JSON): a value within half the last digit, and a hair more for the
 * binary-to-decimal round trip, is the same number.
 */
static int same_as_printed(double ours, double printed_pct)
{
	return fabs(ours * 100.0 - printed_pct) <= 0.05 + 1e-6 * fabs(printed_pct) + 1e-9;
}

static void add_name(struct strbuf *sb, const char *name, int n)
{
	if (n > 4)
		return;
	if (n == 4)
		strbuf_addstr(sb, ", ...");
	else
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", name);
}

/* Compare t's formulas with what perf printed in scope s, with SMT off and on. */
static void fit_values(struct fit *fit, const struct td_stat *st, const struct td_scope *s)
{
	size_t k;
	int smt;

	for (k = 0; k < s->nr_perf_metrics && k < MAX_PRINTED; k++) {
		const struct td_perf_metric *pm = &s->perf_metrics[k];
		const struct td_metric *m;

		if (strncasecmp(pm->name, "tma_", 4) || !pm->unit || strcmp(pm->unit, "%") ||
		    isnan(pm->value))
			continue;
		m = td_table_find_perf_metric(fit->t, pm->name);
		if (!m || m->level < 1)
			continue;
		for (smt = 0; smt <= 1; smt++) {
			struct probe p = { st, s, pm->group, smt };
			double v = eval_metric(fit->t, m, &p, &fit->missing[smt]);

			if (isnan(v))
				continue;
			fit->compared[smt]++;
			if (same_as_printed(v, pm->value))
				add_name(&fit->matched_names[smt], pm->name, fit->matched[smt]++);
		}
	}
}

static int is_model_event(const struct td_count *c)
{
	/* the kernel's pre-Ice Lake topdown-* events belong to no table */
	return c->key && strncmp(c->key, "topdown-", 8) && !td_report_is_generic_event(c);
}

/*
 * The distinct model-specific events of the file (first scope of each
 * session), at most MAX_EVENTS of the first MAX_SCAN counts.
 */

struct events {
	const struct td_count *v[MAX_EVENTS];
	size_t n;
};

static void collect_events(struct events *ev, const struct td_stat_file *f)
{
	size_t i, k, l;

	ev->n = 0;
	for (i = 0; i < f->nr_sessions && i < MAX_SESSIONS; i++) {
		const struct td_scope *s;

		if (!f->sessions[i].nr_scopes)
			continue;
		s = &f->sessions[i].scopes[0];
		for (k = 0; k < s->nr_counts && k < MAX_SCAN && ev->n < MAX_EVENTS; k++) {
			const struct td_count *c = &s->counts[k];
			int seen = 0;

			if (!is_model_event(c))
				continue;
			for (l = 0; l < ev->n && !seen; l++)
				seen = !strcmp(ev->v[l]->key, c->key);
			if (!seen)
				ev->v[ev->n++] = c;
		}
	}
}

struct name_keys {
	char **v;
	size_t n, alloc;
};

static void add_name_key(void *ctx, const char *name, enum td_name_kind kind)
{
	struct name_keys *k = ctx;
	struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT;

	if (kind != TD_NAME_EVENT)
		return;
	td_event_key(name, &pmu, &key);
	TD_GROW(k->v, k->alloc, k->n + 1);
	k->v[k->n++] = strbuf_detach(&key, NULL);
	strbuf_release(&pmu);
}

/*
 * The events of the perf 6.1 expressions the table records (perf_formula):
 * perf asks for them on this CPU too, where our formula has other events
 * (Tiger Lake's Ports_Utilized_0 serializing term), so an output that
 * counts them fits this table as well as one whose formulas name them.
 */
static void add_perf_formula_keys(const struct td_table *t, struct name_keys *k)
{
	struct strbuf err = STRBUF_INIT;
	size_t i;

	for (i = 0; i < td_table_nr_metrics(t); i++) {
		const struct td_metric *m = td_table_metric(t, i);
		struct td_expr *e;

		if (!m->perf_formula_expr)
			continue;
		e = td_expr_parse(m->perf_formula_expr, &err);
		if (e)
			td_expr_names(e, NULL, NULL, NULL, add_name_key, k);
		td_expr_free(e);
		strbuf_reset(&err);
	}
	strbuf_release(&err);
}

/*
 * Count the model-specific events of the file that t does not know (as
 * td_report_table_has_event tells, with the table's keys made once).
 */
static void fit_events(struct fit *fit, const struct events *ev)
{
	struct name_keys k = { NULL, 0, 0 };
	size_t i, j, n = td_table_nr_events(fit->t);
	char **keys;

	for (j = 0; j < n; j++)
		add_name_key(&k, td_table_event(fit->t, j)->name, TD_NAME_EVENT);
	add_perf_formula_keys(fit->t, &k);
	keys = k.v;
	n = k.n;
	for (i = 0; i < ev->n; i++) {
		int known = 0;

		for (j = 0; j < n && !known; j++)
			known = !strcmp(keys[j], ev->v[i]->key);
		if (!known)
			add_name(&fit->unknown_names, ev->v[i]->event, fit->unknown++);
	}
	for (j = 0; j < n; j++)
		free(keys[j]);
	free(keys);
}

static void fit_table(struct fit *fit, const struct td_stat_file *f, const struct events *ev)
{
	size_t i;

	fit_events(fit, ev);
	for (i = 0; i < f->nr_sessions && i < MAX_SESSIONS; i++)
		if (f->sessions[i].nr_scopes)
			fit_values(fit, &f->sessions[i], &f->sessions[i].scopes[0]);
}

static int best_matched(const struct fit *fit)
{
	return fit->matched[0] > fit->matched[1] ? fit->matched[0] : fit->matched[1];
}

/* <0 when a fits the file better than b, >0 when worse, 0 when they fit equally. */
static int compare_fit(const struct fit *a, const struct fit *b)
{
	if (a->unknown != b->unknown)
		return a->unknown < b->unknown ? -1 : 1;
	return best_matched(b) - best_matched(a);
}

/* Did perf print a tma_* value in the file? */
static int printed_tma(const struct td_stat_file *f)
{
	size_t i, j, k;

	for (i = 0; i < f->nr_sessions && i < MAX_SESSIONS; i++)
		for (j = 0; j < f->sessions[i].nr_scopes && j < 1; j++)
			for (k = 0; k < f->sessions[i].scopes[j].nr_perf_metrics; k++)
				if (!strncasecmp(f->sessions[i].scopes[j].perf_metrics[k].name, "tma_", 4))
					return 1;
	return 0;
}

static const char *const *family_of(const struct td_cpu_guess *g, const struct td_stat_file *f)
{
	if (g->hybrid || !g->first_model_event)
		return NULL;
	if (!g->table)
		return printed_tma(f) ? any_intel : NULL;
	if (!strcmp(g->table, "skylake"))
		return pre_icelake;
	if (!strcmp(g->table, "icelake") || !strcmp(g->table, "sapphirerapids"))
		return perf_metrics;
	return NULL;
}

/* What fit says of its table, with SMT off (0), on (1) or the better (-1). */
static void describe_fit(struct strbuf *sb, const struct fit *fit, int smt)
{
	if (smt < 0)
		smt = fit->matched[1] > fit->matched[0] ? 1 : 0;
	if (fit->unknown)
		strbuf_addf(sb, "lacks %d of the counted events (%s)", fit->unknown, fit->unknown_names.buf);
	else
		strbuf_addstr(sb, "knows every counted event");
	if (fit->compared[smt])
		strbuf_addf(sb, " and reproduces %d of the %d tma_* values perf printed that it computes, "
			    "at %.0f slots/cycle", fit->matched[smt], fit->compared[smt],
			    td_table_info(fit->t)->slots_per_cycle);
}

/*
 * The SMT setting perf used, from its printed values: perf asked for the
 * events its formulas need under its own #SMT_on (the *_ANY whole-core
 * events only with SMT on), so the setting under which every printed
 * value can be computed is the one; when both can, the one whose values
 * agree with perf's.  Appends the deciding clause to *why; -1 when the
 * values do not tell.
 */
static int smt_from_values(const struct fit *fit, struct strbuf *why)
{
	int on;

	if (fit->compared[0] != fit->compared[1]) {
		on = fit->compared[1] > fit->compared[0];
		strbuf_addf(why, "SMT %s: with SMT %s, %d of perf's printed tma_* values cannot be computed "
			    "from these counts (%s), as perf, which asks for the events of its own "
			    "setting, would not have printed them", on ? "on" : "off", on ? "off" : "on",
			    fit->compared[on] - fit->compared[!on], fit->missing[!on].buf);
	} else if (fit->matched[0] != fit->matched[1]) {
		on = fit->matched[1] > fit->matched[0];
		strbuf_addf(why, "SMT %s: reproduces perf's %s values (%d of %d; SMT %s: %d)",
			    on ? "on" : "off", fit->matched_names[on].buf, fit->matched[on],
			    fit->compared[on], on ? "off" : "on", fit->matched[!on]);
	} else {
		return -1;
	}
	return on;
}

/* Set g's SMT from the values when they tell, and say so in both sentences. */
static void decide_smt(struct td_cpu_guess *g, const struct fit *fit)
{
	struct strbuf clause = STRBUF_INIT, sb = STRBUF_INIT;
	int on = smt_from_values(fit, &clause);

	if (on < 0) {
		strbuf_release(&clause);
		return;
	}
	if (g->smt >= 0 && g->smt != on)
		strbuf_addf(&clause, " (the events alone said SMT %s: %s)", g->smt ? "on" : "off",
			    g->smt_reason ? g->smt_reason : "");
	strbuf_addf(&sb, "%s; %s", g->confidence ? g->confidence : "", clause.buf);
	free(g->confidence);
	g->confidence = strbuf_detach(&sb, NULL);
	if (g->smt == on)
		/* the events told already; the values agree */
		strbuf_addf(&sb, "%s; perf's printed values agree: %s", g->smt_reason, clause.buf);
	else
		strbuf_addf(&sb, TD_SMT_FROM_VALUES ": %s", clause.buf);
	free(g->smt_reason);
	g->smt_reason = strbuf_detach(&sb, NULL);
	g->smt = on;
	strbuf_release(&clause);
}

static json_t *fit_json(const struct fit *fit)
{
	return json_pack("{s:s,s:f,s:i,s:s,s:{s:i,s:i},s:{s:i,s:i}}",
			 "table", td_table_info(fit->t)->name,
			 "slots_per_cycle", td_table_info(fit->t)->slots_per_cycle,
			 "unknown_events", fit->unknown, "unknown_event_names", fit->unknown_names.buf,
			 "printed_computed", "smt_off", fit->compared[0], "smt_on", fit->compared[1],
			 "printed_reproduced", "smt_off", fit->matched[0], "smt_on", fit->matched[1]);
}

/* meta.json's cpu.inference: every candidate's fit, the tie, what told the SMT. */
static json_t *inference_json(const struct fit *fits, size_t n, const struct fit *best, int smt)
{
	json_t *o = json_object(), *cands = json_array(), *eq = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		if (!fits[i].t)
			continue;
		json_array_append_new(cands, fit_json(&fits[i]));
		if (&fits[i] != best && !compare_fit(&fits[i], best))
			json_array_append_new(eq, json_string(td_table_info(fits[i].t)->name));
	}
	json_object_set_new(o, "table", json_string(td_table_info(best->t)->name));
	json_object_set_new(o, "fits_equally", eq);
	json_object_set_new(o, "smt_from_values", smt < 0 ? json_null() : json_boolean(smt));
	json_object_set_new(o, "candidates", cands);
	return o;
}

static void release_fits(struct fit *fits, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		strbuf_release(&fits[i].unknown_names);
		strbuf_release(&fits[i].matched_names[0]);
		strbuf_release(&fits[i].matched_names[1]);
		strbuf_release(&fits[i].missing[0]);
		strbuf_release(&fits[i].missing[1]);
	}
	free(fits);
}

void td_import_infer_by_values(struct td_import *imp)
{
	struct td_cpu_guess *g = &imp->guess;
	const char *const *family = family_of(g, imp->stat);
	struct strbuf sb = STRBUF_INIT, ties = STRBUF_INIT, scratch = STRBUF_INIT;
	struct fit *fits, *best = NULL, *runner = NULL;
	struct events *ev;
	size_t i, n = 0;
	int smt;

	if (!family)
		return;
	while (family[n])
		n++;
	fits = xcalloc(n, sizeof(*fits));
	ev = xmalloc(sizeof(*ev));
	collect_events(ev, imp->stat);
	for (i = 0; i < n; i++) {
		strbuf_init(&fits[i].unknown_names, 0);
		strbuf_init(&fits[i].matched_names[0], 0);
		strbuf_init(&fits[i].matched_names[1], 0);
		strbuf_init(&fits[i].missing[0], 0);
		strbuf_init(&fits[i].missing[1], 0);
		fits[i].t = td_table_find(family[i], &sb);
		strbuf_reset(&sb);
		if (fits[i].t)
			fit_table(&fits[i], imp->stat, ev);
	}
	/* the best; among equals the event guess, else the first listed */
	for (i = 0; i < n; i++) {
		if (!fits[i].t)
			continue;
		if (!best || compare_fit(&fits[i], best) < 0 ||
		    (!compare_fit(&fits[i], best) && g->table && !strcmp(family[i], g->table) &&
		     strcmp(td_table_info(best->t)->name, g->table)))
			best = &fits[i];
	}
	/* without a family from the events, only a table perf's values confirm */
	if (best && !g->table && !best_matched(best))
		best = NULL;
	/* nothing to add to what the event names said (the kernel's generic topdown events) */
	if (best && g->table && !strcmp(td_table_info(best->t)->name, g->table) && !best->unknown &&
	    !best->compared[0] && !best->compared[1])
		best = NULL;
	free(ev);
	if (!best) {
		release_fits(fits, n);
		strbuf_release(&sb);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!fits[i].t || &fits[i] == best)
			continue;
		if (!compare_fit(&fits[i], best))
			strbuf_addf(&ties, "%s%s", ties.len ? ", " : "", family[i]);
		else if (!runner || compare_fit(&fits[i], runner) < 0)
			runner = &fits[i];
	}
	smt = smt_from_values(best, &scratch);
	strbuf_addf(&sb, "CPU inferred as %s: its table ", td_table_info(best->t)->name);
	if (!g->table)
		g->needs_cpu = 1;
	describe_fit(&sb, best, smt);
	if (runner) {
		strbuf_addf(&sb, "; the next best, %s, ", td_table_info(runner->t)->name);
		describe_fit(&sb, runner, smt);
	}
	if (ties.len)
		strbuf_addf(&sb, "; %s fit%s equally (%s): not certain, give --cpu to choose", ties.buf,
			    strchr(ties.buf, ',') ? "" : "s", best->compared[0] || best->compared[1] ?
			    "their formulas agree on these values" : "perf printed no tma_* value to test");
	if (g->confidence)
		strbuf_addf(&sb, "; the event names alone said: %s", g->confidence);
	else
		strbuf_addstr(&sb, "; no event names the family (no topdown event), so every Intel table "
			      "was tried");
	json_decref(imp->cpu_inference);
	imp->cpu_inference = inference_json(fits, n, best, smt);
	g->table = td_table_info(best->t)->name;
	g->what = td_table_info(best->t)->display;
	free(g->confidence);
	g->confidence = strbuf_detach(&sb, NULL);
	decide_smt(g, best);
	release_fits(fits, n);
	strbuf_release(&ties);
	strbuf_release(&scratch);
}
