/*
 * Where the report's error bars come from (docs/report-schema.md,
 * "Uncertainty"): the spread of each count, and the share of the time
 * its events were counted.
 *
 * Spreads.  perf stat -r N prints each count's relative standard error
 * of the mean over the runs; the parsers keep it in variance_pct.  An
 * interval run (-I) has no such column, but its intervals are repeated
 * measurements of the same program: the total of the intervals gets,
 * per count, the standard error of the mean of its per-interval values
 * relative to that mean, the same statistic perf prints for -r (the sum
 * is N times the mean, so the relative error is the same).  The formulas
 * then carry either spread the same way (metrics/uncertainty.c).
 */
#include "analyze/analyze-int.h"

#include <math.h>
#include <string.h>

int td_report_count_spread(void *ctx, const char *name, double *rel, const void **id)
{
	const struct td_spread_ctx *sc = ctx;
	const struct td_count *c = td_scope_find_group(sc->s, sc->pmu, name, sc->group);

	if (!c || c->status != TD_COUNT_OK)
		return -1;
	*id = c;
	*rel = isnan(c->variance_pct) ? 0 : c->variance_pct / 100;
	return 0;
}

int td_scope_has_spread(const struct td_scope *s)
{
	size_t i;

	for (i = 0; i < s->nr_counts; i++)
		if (!isnan(s->counts[i].variance_pct))
			return 1;
	return 0;
}

/* Does count c of an interval scope add up into total count d? */
static int same_count(const struct td_count *d, const struct td_count *c)
{
	return d->group == c->group && c->key && !strcmp(d->key, c->key) &&
	       !strcmp(d->pmu ? d->pmu : "", c->pmu ? c->pmu : "");
}

/* Add scope s's value of total count d (its first that adds up into d). */
static void spread_add(struct td_spread_sums *a, const struct td_count *d, const struct td_scope *s)
{
	size_t k;

	for (k = 0; k < s->nr_counts; k++) {
		const struct td_count *c = &s->counts[k];

		if (!same_count(d, c) || c->status != TD_COUNT_OK || isnan(c->value))
			continue;
		a->sum += c->value;
		a->sumsq += c->value * c->value;
		a->n++;
		break;
	}
}

/* The relative standard error of the mean of the values summed in a. */
static double spread_rel_error(const struct td_spread_sums *a)
{
	double mean, var;

	if (a->n < 2 || a->sum == 0)
		return NAN;
	mean = a->sum / a->n;
	var = (a->sumsq - a->n * mean * mean) / (a->n - 1);
	if (var < 0)
		var = 0;
	return sqrt(var / a->n) / fabs(mean);
}

/* The relative standard error of the mean of count d over the intervals. */
static double interval_rel_error(const struct td_stat *st, const struct td_count *d)
{
	struct td_spread_sums a = { 0, 0, 0 };
	size_t i;

	for (i = 0; i < st->nr_scopes; i++)
		spread_add(&a, d, &st->scopes[i]);
	return spread_rel_error(&a);
}

int td_scope_spread_from_intervals(struct td_scope *total, const struct td_stat *st)
{
	size_t i;

	if (!st->interval || st->nr_scopes < 2)
		return 0;
	for (i = 0; i < st->nr_scopes; i++)
		if (st->scopes[i].kind != TD_SCOPE_TOTAL)
			return 0; /* per-CPU or per-thread intervals: the sum is not over repeats */
	for (i = 0; i < total->nr_counts; i++) {
		struct td_count *d = &total->counts[i];

		if (d->status == TD_COUNT_OK)
			d->variance_pct = interval_rel_error(st, d) * 100;
	}
	return 1;
}

/*
 * A count of the total that first appears with scope s was in no earlier
 * scope (td_scope_sum_add would have made it then), so the earlier scopes
 * add nothing to it: adding scope by scope gives the sums, in the same
 * order, that interval_rel_error takes over the whole session.
 */
void td_interval_spread_add(struct td_interval_spread *sp, const struct td_scope *total,
			    const struct td_scope *s)
{
	size_t i;

	if (sp->nr < total->nr_counts) {
		TD_GROW(sp->sums, sp->alloc, total->nr_counts);
		memset(sp->sums + sp->nr, 0, (total->nr_counts - sp->nr) * sizeof(*sp->sums));
		sp->nr = total->nr_counts;
	}
	for (i = 0; i < total->nr_counts; i++)
		spread_add(&sp->sums[i], &total->counts[i], s);
}

void td_interval_spread_apply(const struct td_interval_spread *sp, struct td_scope *total,
			      size_t nr_scopes)
{
	size_t i;

	if (nr_scopes < 2)
		return;
	for (i = 0; i < total->nr_counts && i < sp->nr; i++)
		if (total->counts[i].status == TD_COUNT_OK)
			total->counts[i].variance_pct = spread_rel_error(&sp->sums[i]) * 100;
}

double td_scope_counted_pct(const struct td_scope *s, const char *pmu, int group,
			    char *const *events, size_t nr)
{
	double pct = NAN;
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct td_count *c = td_scope_find_group(s, pmu, events[i], group);

		if (c && !isnan(c->running_pct) && (isnan(pct) || c->running_pct < pct))
			pct = c->running_pct;
	}
	return pct;
}

void td_estimate_sentence(struct strbuf *sb, double counted_pct)
{
	strbuf_addf(sb, "scaled estimate: the node's events were counted %.1f %% of the time "
		    "(the least of them); perf multiplied each count by time enabled / time running, "
		    "which assumes the program behaved the same while they were not counted",
		    counted_pct);
}
