/*
 * Which CPU (and SMT state) a perf stat output came from, told by its
 * events.  perf only asks for the events a CPU has, and its formulas ask
 * for different events on different generations, so the names are good
 * evidence:
 *
 *   cpu_core/ + cpu_atom/ PMUs            hybrid: Alder Lake / Raptor Lake
 *   topdown-* + INT_MISC.CLEARS_COUNT     Ice Lake class TMA formulas
 *   topdown-heavy-ops (Level-2 metrics)   Golden Cove: Sapphire Rapids class
 *   TOPDOWN.SLOTS / INT_MISC.UOP_DROPPING Sapphire Rapids class (newer perf)
 *   topdown-total-slots, -slots-issued, -fetch-bubbles ...
 *                                         the kernel's pre-Ice Lake events:
 *                                         before Ice Lake, model unknown
 *   topdown-* + slots only                Ice Lake or later (Level 1 is
 *                                         the same on all of them)
 *   CPU_CLK_UNHALTED.THREAD_ANY, IDQ_UOPS_NOT_DELIVERED.CORE, ...
 *                                         before Ice Lake: Skylake class
 *   fetch_bubble                          HiSilicon hip08
 *   stall_slot* (+ perf's backend_bound)  Arm Neoverse: #slots from perf's
 *                                         printed value (5 N2/N3, 8 V1/V2,
 *                                         10 V3); AmpereOne by its metric names
 *   ls_not_halted_cyc, de_src_op_disp.*, de_no_dispatch_per_slot.*
 *                                         AMD Zen 4 (Zen 5: same names,
 *                                         8 slots; perf's printed retiring
 *                                         tells the width when present)
 *
 * SMT: perf's pre-Ice Lake formulas use the *_ANY (whole-core) events only
 * with SMT on, so their presence says SMT on; a system-wide run with only
 * the per-thread clock says off.
 *
 * This names a family only.  Within it, analyze/cpu-infer.c, which may
 * evaluate formulas, picks the table that knows the counted events and
 * reproduces the tma_* values perf printed, and the SMT setting that does.
 */
#include "parse/parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int td_event_is_generic(const char *k)
{
	static const char *const generic[] = {
		"cycles", "instructions", "cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
		"ref-cycles", "task-clock", "cpu-clock", "page-faults", "faults", "minor-faults",
		"major-faults", "context-switches", "cs", "cpu-migrations", "migrations",
		"alignment-faults", "emulation-faults", "dummy", "bpf-output", "duration_time",
		"user_time", "system_time", "cgroup-switches", "idle-cycles-frontend",
		"idle-cycles-backend",
	};
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(generic); i++)
		if (!strcmp(k, generic[i]))
			return 1;
	/* L1-dcache-loads, LLC-load-misses, dTLB-..., iTLB-..., branch-loads, node-... */
	return !strncmp(k, "l1-", 3) || !strncmp(k, "llc-", 4) || !strncmp(k, "dtlb-", 5) ||
	       !strncmp(k, "itlb-", 5) || !strncmp(k, "branch-load", 11) || !strncmp(k, "node-", 5);
}

struct seen {
	const char *key;
	const char *printed;
	int line;
};

/* Find the first count (in file order) whose key starts with prefix. */
static const struct td_count *first_with(const struct td_stat_file *f, const char *key, int prefix)
{
	size_t i, j, k;

	for (i = 0; i < f->nr_sessions; i++)
		for (j = 0; j < f->sessions[i].nr_scopes; j++) {
			const struct td_scope *s = &f->sessions[i].scopes[j];
			for (k = 0; k < s->nr_counts; k++) {
				const char *ck = s->counts[k].key;
				if (!ck)
					continue;
				if (prefix ? !strncmp(ck, key, strlen(key)) : !strcmp(ck, key))
					return &s->counts[k];
			}
		}
	return NULL;
}

static const struct td_count *first_pmu(const struct td_stat_file *f, const char *pmu)
{
	size_t i, j, k;

	for (i = 0; i < f->nr_sessions; i++)
		for (j = 0; j < f->sessions[i].nr_scopes; j++) {
			const struct td_scope *s = &f->sessions[i].scopes[j];
			for (k = 0; k < s->nr_counts; k++)
				if (s->counts[k].pmu && !strcmp(s->counts[k].pmu, pmu))
					return &s->counts[k];
		}
	return NULL;
}

/* A perf metric value with this name printed anywhere (first one), or NAN. */
static double perf_metric(const struct td_stat_file *f, const char *name, int *group,
			  const struct td_scope **scope)
{
	size_t i, j, k;

	for (i = 0; i < f->nr_sessions; i++)
		for (j = 0; j < f->sessions[i].nr_scopes; j++) {
			const struct td_scope *s = &f->sessions[i].scopes[j];
			for (k = 0; k < s->nr_perf_metrics; k++)
				if (!strcasecmp(s->perf_metrics[k].name, name)) {
					*group = s->perf_metrics[k].group;
					*scope = s;
					return s->perf_metrics[k].value;
				}
		}
	return NAN;
}

static void set(struct td_cpu_guess *g, const char *table, const char *what,
		const struct td_count *c, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	g->table = table;
	g->what = what;
	g->line = c ? c->line : 0;
	if (c)
		strbuf_addf(&sb, "inferred from the events: %s (line %d) %s", c->event, c->line, why);
	else
		strbuf_addf(&sb, "inferred from the events: %s", why);
	free(g->confidence);
	g->confidence = strbuf_detach(&sb, NULL);
}

/*
 * AMD Zen 4 and Zen 5 share the event names; the dispatch width differs
 * (6 / 8).  When perf printed 'retiring' next to its counts, the width
 * it used is ex_ret_ops / (retiring * ls_not_halted_cyc).
 */
static int amd_width(const struct td_stat_file *f)
{
	int group = -1;
	const struct td_scope *s = NULL;
	double ret = perf_metric(f, "retiring", &group, &s);
	const struct td_count *ops, *cyc;
	double w;

	if (isnan(ret) || ret <= 0 || !s)
		return 0;
	ops = td_scope_find_group(s, NULL, "ex_ret_ops", group);
	cyc = td_scope_find_group(s, NULL, "ls_not_halted_cyc", group);
	if (!ops || !cyc || !(cyc->value > 0))
		return 0;
	w = ops->value / (ret / 100.0 * cyc->value);
	if (fabs(w - 6) < 0.3)
		return 6;
	if (fabs(w - 8) < 0.3)
		return 8;
	return 0;
}

/*
 * The E-core issue width of a hybrid Intel part: Gracemont (Alder and
 * Raptor Lake) allocates 5 slots a cycle, Crestmont (Meteor Lake) 6,
 * Skymont (Arrow and Lunar Lake) 8.  perf computes the E-core Retiring
 * as TOPDOWN_RETIRING.ALL[_P] / (width * CPU_CLK_UNHALTED.CORE), so where
 * it printed that value beside its counts the width follows; 0 when no
 * such triple is in the input.
 */
static int atom_width(const struct td_stat_file *f)
{
	static const char *const ret_events[] = { "topdown_retiring.all", "topdown_retiring.all_p" };
	static const char *const clk_events[] = { "cpu_clk_unhalted.core", "cpu_clk_unhalted.core_p",
						  "cpu_clk_unhalted.thread" };
	size_t i, j, k, a, b;

	for (i = 0; i < f->nr_sessions; i++)
		for (j = 0; j < f->sessions[i].nr_scopes; j++) {
			const struct td_scope *s = &f->sessions[i].scopes[j];

			for (k = 0; k < s->nr_perf_metrics; k++) {
				const struct td_perf_metric *m = &s->perf_metrics[k];
				const struct td_count *ret = NULL, *clk = NULL;
				double w;

				if (strcasecmp(m->name, "tma_retiring") || !m->pmu ||
				    strcmp(m->pmu, "cpu_atom") || !(m->value > 0))
					continue;
				for (a = 0; a < TD_ARRAY_SIZE(ret_events) && !ret; a++)
					ret = td_scope_find_group(s, "cpu_atom", ret_events[a], m->group);
				for (b = 0; b < TD_ARRAY_SIZE(clk_events) && !clk; b++)
					clk = td_scope_find_group(s, "cpu_atom", clk_events[b], m->group);
				if (!ret || !clk || !(clk->value > 0))
					continue;
				w = ret->value / (m->value / 100.0 * clk->value);
				if (fabs(w - 5) < 0.25)
					return 5;
				if (fabs(w - 6) < 0.25)
					return 6;
				if (fabs(w - 8) < 0.25)
					return 8;
			}
		}
	return 0;
}

/* A cpu_atom event by key, or NULL. */
static const struct td_count *atom_event(const struct td_stat_file *f, const char *key)
{
	const struct td_count *c = first_with(f, key, 0);
	size_t i, j;

	if (!c)
		return NULL;
	if (c->pmu && !strcmp(c->pmu, "cpu_atom"))
		return c;
	for (i = 0; i < f->nr_sessions; i++)
		for (j = 0; j < f->sessions[i].nr_scopes; j++) {
			c = td_scope_find(&f->sessions[i].scopes[j], "cpu_atom", key);
			if (c)
				return c;
		}
	return NULL;
}

/*
 * The hybrid Intel part, from its E-cores: perf's printed Retiring gives
 * the width (above); failing that, events only some E-cores have: the
 * *_NON_ARCH Top-Down events and UOPS_RETIRED.LSD are Skymont's, the
 * *_ALL_P ones and TOPDOWN_FE_BOUND.ITLB_MISS Crestmont's and Skymont's.
 */
static void infer_hybrid(const struct td_stat_file *f, struct td_cpu_guess *g, const struct td_count *c)
{
	static const char *const skymont[] = { "topdown_retiring.all_non_arch", "topdown_fe_bound.all_non_arch",
					       "topdown_be_bound.all_non_arch", "uops_retired.lsd" };
	static const char *const not_gracemont[] = { "topdown_retiring.all_p", "topdown_fe_bound.all_p",
						     "topdown_be_bound.all_p", "topdown_bad_speculation.all_p",
						     "topdown_fe_bound.itlb_miss" };
	const struct td_count *e = NULL;
	int w = atom_width(f);
	size_t i;

	g->hybrid = 1;
	for (i = 0; i < TD_ARRAY_SIZE(skymont) && !e && !w; i++)
		if ((e = atom_event(f, skymont[i])) != NULL)
			w = 8;
	if (w == 8) {
		set(g, "arrowlake", "Intel Arrow Lake or Lunar Lake (hybrid: Lion Cove + Skymont)", e ? e : c,
		    e ? "is a Skymont E-core event: Arrow Lake or Lunar Lake (their Level 1-2 formulas are "
			"the same; --cpu lunarlake for Lunar Lake's deeper nodes)" :
			"and cpu_atom events, and perf's printed E-core Retiring implies 8 slots per "
			"cycle: Skymont E-cores, Arrow Lake or Lunar Lake (their Level 1-2 formulas are the "
			"same; --cpu lunarlake for Lunar Lake's deeper nodes)");
		return;
	}
	if (w == 6) {
		set(g, "meteorlake", "Intel Meteor Lake (hybrid: Redwood Cove + Crestmont)", c,
		    "and cpu_atom events, and perf's printed E-core Retiring implies 6 slots per cycle: "
		    "Crestmont E-cores, Meteor Lake");
		return;
	}
	if (w == 5) {
		set(g, "alderlake", "Intel Alder Lake / Raptor Lake (hybrid: Golden Cove + Gracemont)", c,
		    "and cpu_atom events, and perf's printed E-core Retiring implies 5 slots per cycle: "
		    "Gracemont E-cores, Alder Lake or Raptor Lake");
		return;
	}
	for (i = 0; i < TD_ARRAY_SIZE(not_gracemont) && !e; i++)
		e = atom_event(f, not_gracemont[i]);
	if (e) {
		set(g, "meteorlake", "Intel Meteor Lake (hybrid: Redwood Cove + Crestmont)", e,
		    "is a Crestmont or Skymont E-core event, and no Skymont-only event is here: "
		    "Meteor Lake, not certain (--cpu arrowlake or lunarlake for Skymont parts)");
		return;
	}
	set(g, "alderlake", "Intel Alder Lake / Raptor Lake (hybrid: Golden Cove + Gracemont)", c,
	    "and cpu_atom events: a hybrid Intel CPU with both PMUs, and no event or printed value of a "
	    "later E-core (Crestmont, Skymont): Alder Lake or Raptor Lake; Meteor, Arrow and Lunar "
	    "Lake would need --cpu");
}

/*
 * perf's printed Backend Bound minus topdown-be-bound over the sum of the
 * four topdown events, in points; 0 when it cannot be told.  Sapphire
 * Rapids-class formulas print exactly that ratio; Ice Lake-class ones add
 * 5 * INT_MISC.CLEARS_COUNT / slots.
 */
static double backend_excess(const struct td_stat_file *f)
{
	static const char *const names[] = { "tma_backend_bound", "backend bound", "backend_bound" };
	static const char *const td[] = { "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
					  "topdown-be-bound" };
	const struct td_scope *s = NULL;
	int group = -1;
	double be = NAN, sum = 0;
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(names) && isnan(be); i++)
		be = perf_metric(f, names[i], &group, &s);
	if (isnan(be) || !s)
		return 0;
	for (i = 0; i < TD_ARRAY_SIZE(td); i++) {
		const struct td_count *c = td_scope_find_group(s, NULL, td[i], group);
		if (!c || c->status != TD_COUNT_OK)
			return 0;
		sum += c->value;
	}
	if (!(sum > 0))
		return 0;
	return be - 100.0 * td_scope_find_group(s, NULL, "topdown-be-bound", group)->value / sum;
}

/*
 * Arm: the slot events are architectural, so their names do not tell the
 * core; the width perf used for #slots does.  perf's printed
 * backend_bound is STALL_SLOT_BACKEND / (#slots * CPU_CYCLES) on every
 * core with slot events, so #slots = STALL_SLOT_BACKEND / (backend_bound
 * * CPU_CYCLES) on the group that printed it; 0 when it cannot be told.
 */
static int arm_width(const struct td_stat_file *f)
{
	int group = -1;
	const struct td_scope *s = NULL;
	double be = perf_metric(f, "backend_bound", &group, &s), w;
	const struct td_count *ssb, *cyc;

	if (isnan(be) || be <= 0 || !s)
		return 0;
	ssb = td_scope_find_group(s, NULL, "stall_slot_backend", group);
	cyc = td_scope_find_group(s, NULL, "cpu_cycles", group);
	if (!ssb || !cyc || !(cyc->value > 0))
		return 0;
	w = ssb->value / (be / 100.0 * cyc->value);
	return fabs(w - floor(w + 0.5)) < 0.05 ? (int)floor(w + 0.5) : 0;
}

/* Arm cores from perf's Top-Down events and printed metrics; 0 when not Arm. */
static int infer_arm(const struct td_stat_file *f, struct td_cpu_guess *g)
{
	const struct td_count *c, *flush;
	int group = -1, w;
	const struct td_scope *s = NULL;

	if ((c = first_with(f, "fetch_bubble", 0)) != NULL) {
		set(g, "hip08", "HiSilicon Kunpeng 920 (hip08)", c,
		    "is hip08's own frontend event of its Top-Down formulas");
		return 1;
	}
	if (!isnan(perf_metric(f, "retired_fraction", &group, &s)) ||
	    !isnan(perf_metric(f, "slots_lost_misspeculation_fraction", &group, &s))) {
		set(g, "ampereone", "AmpereOne", first_with(f, "op_retired", 0),
		    "with perf's AmpereOne Level 1 names (retired_fraction): AmpereOne; AmpereOneX "
		    "computes Level 1 the same way");
		return 1;
	}
	c = first_with(f, "stall_slot_backend", 0);
	if (!c)
		c = first_with(f, "stall_slot", 0);
	if (!c)
		c = first_with(f, "stall_slot_frontend", 0);
	if (!c)
		return 0;
	flush = first_with(f, "stall_frontend_flush", 0);
	w = arm_width(f);
	if (w == 5 && flush)
		set(g, "neoverse-n3", "Arm Neoverse N3", flush,
		    "with Arm slot events, and perf's printed backend_bound implies 5 slots per cycle: "
		    "Neoverse N3 (its Level 1 uses STALL_FRONTEND_FLUSH)");
	else if (w == 5)
		set(g, "neoverse-n2", "Arm Neoverse N2", c,
		    "is an Arm slot event, and perf's printed backend_bound implies 5 slots per "
		    "cycle: Neoverse N2");
	else if (w == 10)
		set(g, "neoverse-v3", "Arm Neoverse V3", c,
		    "is an Arm slot event, and perf's printed backend_bound implies 10 slots per "
		    "cycle: Neoverse V3");
	else if (w == 8 && first_with(f, "br_mis_pred", 0))
		set(g, "neoverse-v1", "Arm Neoverse V1", c,
		    "is an Arm slot event, perf's printed backend_bound implies 8 slots per cycle, "
		    "and BR_MIS_PRED is counted (V1's Level 1 uses it); not certain (V2 is also 8 wide)");
	else if (w == 8)
		set(g, "neoverse-v2", "Arm Neoverse V2", c,
		    "is an Arm slot event, and perf's printed backend_bound implies 8 slots per "
		    "cycle: Neoverse V2 (V1 is also 8 wide: use --cpu neoverse-v1 for it)");
	else
		return 0;
	return 1;
}

/* Did perf print a Level-1 value (any naming: tma_retiring, Retiring, retiring)? */
static int printed_level1(const struct td_stat_file *f)
{
	static const char *const names[] = { "retiring", "frontend", "backend", "bad" };
	size_t i, j, k, n;

	for (i = 0; i < f->nr_sessions; i++)
		for (j = 0; j < f->sessions[i].nr_scopes; j++) {
			const struct td_scope *s = &f->sessions[i].scopes[j];

			for (k = 0; k < s->nr_perf_metrics; k++) {
				const char *name = s->perf_metrics[k].name;

				if (!strncasecmp(name, "tma_", 4))
					name += 4;
				for (n = 0; n < sizeof(names) / sizeof(names[0]); n++)
					if (!strncasecmp(name, names[n], strlen(names[n])))
						return 1;
			}
		}
	return 0;
}

static void infer_smt(const struct td_stat_file *f, struct td_cpu_guess *g)
{
	const struct td_count *any = first_with(f, "cpu_clk_unhalted.thread_any", 0);
	const struct td_count *rany = first_with(f, "int_misc.recovery_cycles_any", 0);
	const struct td_count *thr = first_with(f, "cpu_clk_unhalted.thread", 0);
	struct strbuf sb = STRBUF_INIT;

	g->smt = -1;
	if (any || rany) {
		const struct td_count *c = any ? any : rany;
		g->smt = 1;
		strbuf_addf(&sb, "inferred from the events: %s (line %d) is measured, which perf's "
			    "formulas ask for only with SMT on", c->event, c->line);
	} else if (g->table && !strcmp(g->table, "skylake") && printed_level1(f)) {
		g->smt = 0;
		strbuf_addstr(&sb, "inferred from perf's printed values: perf computed its Level 1 without "
			      "the *_ANY (whole-core) events it asks for with SMT on, so it took its SMT-off "
			      "formula; the same is used here to reproduce its values");
	} else if (thr && g->core_wide && g->table && !strcmp(g->table, "skylake")) {
		g->smt = 0;
		strbuf_addf(&sb, "inferred from the events: a whole-core run measured %s (line %d) "
			    "and no CPU_CLK_UNHALTED.THREAD_ANY, which perf asks for with SMT on",
			    thr->event, thr->line);
	} else {
		strbuf_addstr(&sb, "unknown: no event tells; give --smt on|off if the formulas need it");
	}
	g->smt_reason = strbuf_detach(&sb, NULL);
}

int td_stat_infer_cpu(const struct td_stat_file *f, struct td_cpu_guess *g)
{
	const struct td_count *c, *c2;
	size_t i, j, k;

	memset(g, 0, sizeof(*g));
	g->smt = -1;
	for (i = 0; i < f->nr_sessions; i++) {
		const struct td_stat *st = &f->sessions[i];
		if (st->target && !strcmp(st->target, "system wide"))
			g->core_wide = 1;
		for (j = 0; j < st->nr_scopes; j++) {
			const struct td_scope *s = &st->scopes[j];
			if (s->kind == TD_SCOPE_CORE)
				g->core_wide = 1;
			for (k = 0; k < s->nr_counts && !g->first_model_event; k++) {
				const struct td_count *cc = &s->counts[k];
				const char *key = cc->key ? cc->key : "";
				if (cc->pmu && strcmp(cc->pmu, "cpu_core") && strcmp(cc->pmu, "cpu_atom"))
					continue; /* uncore, msr, power, ... */
				if (strchr(key, ':') || td_event_is_generic(key))
					continue;
				g->first_model_event = cc->event;
				g->first_model_line = cc->line;
			}
			for (k = 0; k < s->nr_perf_metrics; k++)
				if (!strncasecmp(s->perf_metrics[k].name, "tma_", 4) ||
				    (s->perf_metrics[k].unit &&
				     !strcmp(s->perf_metrics[k].unit, "percent of slots")))
					g->needs_cpu = 1; /* Intel TMA, Arm's Top-Down (perf 6.5 on) */
		}
	}
	if (g->first_model_event)
		g->needs_cpu = 1;

	if ((c = first_pmu(f, "cpu_core")) != NULL && (c2 = first_pmu(f, "cpu_atom")) != NULL) {
		infer_hybrid(f, g, c);
	} else if ((c = first_with(f, "topdown-total-slots", 0)) != NULL ||
		   (c = first_with(f, "topdown-slots-issued", 0)) != NULL ||
		   (c = first_with(f, "topdown-fetch-bubbles", 0)) != NULL) {
		set(g, "skylake", "Intel before Ice Lake (Sandy Bridge to Cascade Lake; model not known)", c,
		    "is one of the kernel's pre-Ice Lake topdown events, which Ice Lake and later do not "
		    "have; nothing tells the model: Level 1 comes from these events by perf's generic "
		    "formulas, deeper levels need --cpu");
	} else if ((c = first_with(f, "topdown-", 1)) != NULL || (c = first_with(f, "slots", 0)) != NULL) {
		if ((c2 = first_with(f, "int_misc.clears_count", 0)) != NULL)
			set(g, "icelake", "Intel Ice Lake / Tiger Lake / Rocket Lake class (Sunny Cove cores)", c2,
			    "with the topdown-* events: perf's Ice Lake-class formulas (5-wide, Backend Bound "
			    "corrected by machine clears); fairly sure");
		else if ((c2 = first_with(f, "topdown-heavy-ops", 0)) != NULL ||
			 (c2 = first_with(f, "topdown-br-mispredict", 0)) != NULL ||
			 (c2 = first_with(f, "topdown-fetch-lat", 0)) != NULL ||
			 (c2 = first_with(f, "topdown-mem-bound", 0)) != NULL)
			set(g, "sapphirerapids", "Intel Sapphire Rapids class (Golden Cove cores)", c2,
			    "is a Level-2 PERF_METRICS event, which exists from Golden Cove on: "
			    "Sapphire Rapids class (also Alder Lake P-cores); fairly sure");
		else if (backend_excess(f) > 0.15)
			set(g, "icelake", "Intel Ice Lake / Tiger Lake / Rocket Lake class (Sunny Cove cores)", c,
			    "with the topdown-* events, and perf's printed Backend Bound exceeds topdown-be-bound "
			    "over the sum of the four topdown events: the Ice Lake-class formula with its "
			    "machine-clears term (INT_MISC.CLEARS_COUNT, not in this input); fairly sure");
		else if ((c2 = first_with(f, "int_misc.uop_dropping", 0)) != NULL ||
			 ((c2 = first_with(f, "slots", 0)) != NULL && !strcasecmp(c2->event, "TOPDOWN.SLOTS")))
			set(g, "sapphirerapids", "Intel Sapphire Rapids class (Golden Cove cores)", c2,
			    "with the topdown-* events and no INT_MISC.CLEARS_COUNT: Sapphire Rapids-class "
			    "formulas assumed; not certain (perf 6.1's Ice Lake formulas do not ask for "
			    "INT_MISC.CLEARS_COUNT either)");
		else
			set(g, "icelake", "Intel Ice Lake or later (PERF_METRICS)", c,
			    "and slots: Ice Lake or later; nothing narrows it down, but Level 1 is "
			    "computed the same way on all of them");
	} else if ((c = first_with(f, "cpu_clk_unhalted.thread_any", 0)) != NULL ||
		   (c = first_with(f, "idq_uops_not_delivered.core", 0)) != NULL ||
		   (c = first_with(f, "uops_retired.retire_slots", 0)) != NULL ||
		   (c = first_with(f, "int_misc.recovery_cycles_any", 0)) != NULL ||
		   (c = first_with(f, "cpu_clk_unhalted.one_thread_active", 0)) != NULL) {
		set(g, "skylake", "Intel Skylake class (Skylake to Comet Lake, Cascade Lake)", c,
		    "is an event of perf's pre-Ice Lake Top-Down formulas: Skylake class "
		    "(Haswell and Broadwell compute Level 1 the same way)");
	} else if (infer_arm(f, g)) {
		/* set by infer_arm */
	} else if ((c = first_with(f, "de_src_op_disp", 1)) != NULL ||
		   (c = first_with(f, "de_no_dispatch_per_slot", 1)) != NULL ||
		   (c = first_with(f, "ex_ret_ucode_ops", 0)) != NULL ||
		   (c = first_with(f, "ls_not_halted_cyc", 0)) != NULL) {
		int w = amd_width(f);
		if (w == 8)
			set(g, "zen5", "AMD Zen 5", c,
			    "is an AMD Zen 4/5 pipeline event, and perf's printed retiring implies "
			    "8 dispatch slots per cycle: Zen 5");
		else if (w == 6)
			set(g, "zen4", "AMD Zen 4", c,
			    "is an AMD Zen 4/5 pipeline event, and perf's printed retiring implies "
			    "6 dispatch slots per cycle: Zen 4");
		else
			set(g, "zen4", "AMD Zen 4", c,
			    "is an AMD Zen 4/5 pipeline event; assumed Zen 4 (Zen 5 has the same "
			    "event names with 8 dispatch slots: use --cpu zen5 for it)");
	}
	for (i = 0; !g->table && g->needs_cpu && i < f->nr_sessions; i++)
		if (f->sessions[i].cpuid)
			set(g, f->sessions[i].cpuid, f->sessions[i].cpuid, NULL,
			    "none; the CPU is perf.data's CPUID feature");
	if (g->table)
		g->needs_cpu = 1;
	infer_smt(f, g);
	return 0;
}

void td_cpu_guess_release(struct td_cpu_guess *g)
{
	free(g->confidence);
	free(g->smt_reason);
	memset(g, 0, sizeof(*g));
}
