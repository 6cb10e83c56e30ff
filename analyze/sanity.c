/*
 * Out-of-range values, named: a fraction below 0 or above 1, a child
 * larger than its parent, Level 1 not summing to 1.  Nothing is clamped:
 * the value stays what the formula gave, and the node carries a sentence
 * saying which check failed, by how much, the likely cause as far as the
 * input tells (multiplexing, events from different groups, a perf
 * version's computation, SMT without :percore), and what to record
 * instead.  The scope's warnings say the same.
 */
#include "analyze/analyze-int.h"

#include <math.h>
#include <string.h>

/* Beyond perf's printing resolution (0.1 %), half of it: not rounding. */
#define SLACK 0.0005

/* The likely causes of node n's inconsistency and what to record instead. */
static void add_cause(struct strbuf *sb, const struct td_sanity_scope *sc,
		      const struct td_sanity_node *n)
{
	int named = 0;

	strbuf_addstr(sb, "; likely cause: ");
	if (sc->known_cause) {
		strbuf_addstr(sb, sc->known_cause);
		named++;
	}
	if (!isnan(n->counted_pct) && n->counted_pct < 99.995) {
		strbuf_addf(sb, "multiplexing (its events were counted %.1f %% of the time and scaled "
			    "by perf; events counted in different time windows need not add up)",
			    n->counted_pct);
		named++;
	}
	if (sc->nr_groups > 1 && n->group < 0) {
		strbuf_addf(sb, "%sevents from different groups (no one group holds all the events "
			    "of its formula, so they were counted at different times)", named++ ? "; " : "");
	}
	if (sc->legacy_topdown) {
		strbuf_addf(sb, "%sa perf version's computation (perf <= 6.2 --topdown: %s)",
			    named++ ? "; " : "", sc->pre_icelake
			    ? "topdown-total-slots is cycles times the issue width, applied as the kernel's "
			      ".scale, and counts whole cores with SMT while other topdown events count threads"
			    : "each topdown event over the sum of the four, without correction terms");
	}
	if (sc->smt != 0 && !sc->core_wide && sc->needs_core) {
		strbuf_addf(sb, "%s%sSMT without :percore (per-thread counts of events that count both "
			    "threads of a core)", named++ ? "; " : "", sc->smt < 0 ? "if SMT was on, " : "");
	}
	if (!named)
		strbuf_addstr(sb, "none visible in the input: counter skew between events, or an error in "
			      "the formula (tdperf explain NODE shows it)");
	strbuf_addstr(sb, "; record instead: ");
	named = 0;
	if ((!isnan(n->counted_pct) && n->counted_pct < 99.995) || (sc->nr_groups > 1 && n->group < 0)) {
		strbuf_addstr(sb, "tdperf record --no-multiplex (each group alone on the counters, "
			      "a group that holds the node's events)");
		named++;
	}
	if (sc->legacy_topdown)
		strbuf_addf(sb, "%sa newer perf (>= 6.3: perf stat -M TopdownL1) or tdperf record",
			    named++ ? ", or " : "");
	if (sc->smt != 0 && !sc->core_wide && sc->needs_core)
		strbuf_addf(sb, "%sperf stat -a --per-core (or -A with :percore events), or SMT off",
			    named++ ? ", or " : "");
	if (!named)
		strbuf_addstr(sb, "the same with -r 5 to see whether it repeats");
}

/* "by 3.2 points (within its error bar of 4.0)" */
static void add_amount(struct strbuf *sb, double by, double u)
{
	strbuf_addf(sb, " by %.1f points", by * 100);
	if (!isnan(u) && u > 0)
		strbuf_addf(sb, " (%s its error bar of %.1f)", by <= u ? "within" : "beyond", u * 100);
}

static void set_sanity(char **slot, struct strbuf *sb)
{
	if (*slot) {
		struct strbuf both = STRBUF_INIT;

		strbuf_addf(&both, "%s; %s", *slot, sb->buf);
		free(*slot);
		*slot = strbuf_detach(&both, NULL);
		strbuf_release(sb);
		return;
	}
	*slot = strbuf_detach(sb, NULL);
}

/* Can child c be compared with parent p (fractions of the same domain)? */
static int comparable(const struct td_metric *c, const struct td_metric *p)
{
	return c->domain && p->domain && !strcmp(c->domain, p->domain);
}

static void check_range(const struct td_sanity_scope *sc, const struct td_sanity_node *n, char **slot)
{
	struct strbuf sb = STRBUF_INIT;
	const char *dom = n->m->domain ? n->m->domain : "its domain";

	if (n->value < -SLACK) {
		strbuf_addf(&sb, "below 0: %s = %.1f %% of %s, negative", n->m->name, n->value * 100, dom);
		add_amount(&sb, -n->value, n->u);
	} else if (n->value > 1 + SLACK) {
		strbuf_addf(&sb, "above 1: %s = %.1f %% of %s, more than all of it", n->m->name,
			    n->value * 100, dom);
		add_amount(&sb, n->value - 1, n->u);
	} else {
		return;
	}
	add_cause(&sb, sc, n);
	set_sanity(slot, &sb);
}

static void check_parent(const struct td_sanity_scope *sc, const struct td_sanity_node *n,
			 const struct td_sanity_node *p, char **slot)
{
	struct strbuf sb = STRBUF_INIT;

	if (!comparable(n->m, p->m) || isnan(p->value) || n->value <= p->value + SLACK)
		return;
	strbuf_addf(&sb, "larger than its parent: %s = %.1f %% > %s = %.1f %%", n->m->name,
		    n->value * 100, p->m->name, p->value * 100);
	add_amount(&sb, n->value - p->value, isnan(n->u) ? NAN : hypot(n->u, p->u));
	add_cause(&sb, sc, n);
	set_sanity(slot, &sb);
}

/*
 * Does node a show more of a likely cause than node b (its events in no
 * one group, or counted a smaller share of the time)?  The Level-1 sum
 * is explained by the node that shows most.
 */
static int worse_evidence(const struct td_sanity_scope *sc, const struct td_sanity_node *a,
			  const struct td_sanity_node *b)
{
	int ga = sc->nr_groups > 1 && a->group < 0, gb = sc->nr_groups > 1 && b->group < 0;

	if (ga != gb)
		return ga;
	return !isnan(a->counted_pct) && (isnan(b->counted_pct) || a->counted_pct < b->counted_pct);
}

/* Level 1 adds up to 1 (within a point: perf's own Level 1 do, by construction or nearly). */
static void check_level1(const struct td_sanity_scope *sc, const struct td_sanity_node *nodes,
			 size_t nr, char **sanity, json_t *warnings, int *said)
{
	double sum = 0, u2 = 0;
	size_t i;
	int nr_l1 = 0, worst = -1;

	for (i = 0; i < nr; i++) {
		if (nodes[i].m->level != 1)
			continue;
		if (isnan(nodes[i].value))
			return;
		sum += nodes[i].value;
		if (!isnan(nodes[i].u))
			u2 += nodes[i].u * nodes[i].u;
		if (worst < 0 || worse_evidence(sc, &nodes[i], &nodes[worst]))
			worst = (int)i;
		nr_l1++;
	}
	if (nr_l1 < 2 || fabs(sum - 1) <= 0.01)
		return;
	for (i = 0; i < nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (nodes[i].m->level != 1)
			continue;
		strbuf_addf(&sb, "Level 1 sums to %.1f %%, not 100 %%: %s", sum * 100,
			    sum > 1 ? "over" : "under");
		add_amount(&sb, fabs(sum - 1), u2 > 0 ? sqrt(u2) : NAN);
		add_cause(&sb, sc, &nodes[worst]);
		if (!*said) {
			json_array_append_new(warnings, json_string(sb.buf));
			*said = 1;
		}
		set_sanity(&sanity[i], &sb);
	}
}

void td_report_sanity(const struct td_sanity_scope *sc, const struct td_sanity_node *nodes,
		      size_t nr, char **sanity, json_t *warnings)
{
	size_t i, k;
	int level1_said = 0;

	for (i = 0; i < nr; i++) {
		if (isnan(nodes[i].value))
			continue;
		check_range(sc, &nodes[i], &sanity[i]);
		if (!nodes[i].m->parent)
			continue;
		/* ids are unique and a parent comes before its children, mostly just before */
		for (k = i; k-- > 0;)
			if (!strcmp(nodes[k].m->id, nodes[i].m->parent)) {
				check_parent(sc, &nodes[i], &nodes[k], &sanity[i]);
				break;
			}
	}
	for (i = 0; i < nr; i++)
		if (sanity[i]) {
			struct strbuf w = STRBUF_INIT;

			strbuf_addf(&w, "%s: %s", nodes[i].m->id, sanity[i]);
			json_array_append_new(warnings, json_string(w.buf));
			strbuf_release(&w);
		}
	check_level1(sc, nodes, nr, sanity, warnings, &level1_said);
}
