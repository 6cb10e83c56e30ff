/*
 * Phases of an interval run (perf stat -I, tdperf record -I): where the
 * Level-1 bottleneck changes over time, a sum over the whole run hides
 * it ("Frontend Bound 54 %" for a run that spent a quarter of its time
 * Backend bound).  This names the phases with their times.
 *
 * The rule, stated so that a reader can check it:
 *   1. each interval's bottleneck is its largest computable Level-1 node
 *      (at least two Level-1 nodes computable, else the interval has none);
 *   2. consecutive intervals with the same bottleneck form a run;
 *   3. a run is a phase when it lasts at least TD_PHASE_MIN_INTERVALS
 *      intervals and at least TD_PHASE_MIN_SHARE of the intervals; a
 *      shorter run is a blip of noise or a transition;
 *   4. phases with the same bottleneck and only short runs between them
 *      are one phase;
 *   5. the short runs between two different phases go to the phase
 *      before up to its bottleneck's last interval, the rest to the phase
 *      after.
 * The document gets a "phases" array only when two or more phases remain.
 */
#include "analyze/report.h"
#include "analyze/doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TD_PHASE_MIN_INTERVALS 3
#define TD_PHASE_MIN_SHARE 0.10

#define TD_PHASE_MAX_L1 8

/* One interval: its time, bottleneck and Level-1 values (copied: rows are freed). */
struct phase_interval {
	double time;		/* perf's time stamp: the end of the interval */
	const char *node;	/* Level-1 argmax (one of ids[]), NULL when not known */
	int nr;
	char *ids[TD_PHASE_MAX_L1], *names[TD_PHASE_MAX_L1];
	double values[TD_PHASE_MAX_L1];
};

struct phase {
	size_t first, last;	/* intervals, inclusive */
	const char *node;
};

/* Rule 1, on an interval's rows. */
static void read_interval(struct phase_interval *iv, const struct td_scope_rows *r)
{
	double best_v = -INFINITY;
	int computable = 0;
	size_t i;

	iv->time = r->time;
	for (i = 0; i < r->nr_nodes && iv->nr < TD_PHASE_MAX_L1; i++) {
		const struct td_node_row *n = &r->nodes[i];

		if (n->level != 1 || !n->id)
			continue;
		iv->ids[iv->nr] = xstrdup(n->id);
		iv->names[iv->nr] = xstrdup(n->name ? n->name : n->id);
		iv->values[iv->nr] = n->value;
		if (!isnan(n->value)) {
			computable++;
			if (n->value > best_v) {
				best_v = n->value;
				iv->node = iv->ids[iv->nr];
			}
		}
		iv->nr++;
	}
	if (computable < 2)
		iv->node = NULL;
}

static void release_interval(struct phase_interval *iv)
{
	int k;

	for (k = 0; k < iv->nr; k++) {
		free(iv->ids[k]);
		free(iv->names[k]);
	}
}

static int same_node(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* Rules 2 and 3: runs of one bottleneck long enough to be phases. */
static size_t long_runs(struct phase_interval *iv, size_t n, struct phase *ph)
{
	size_t min_len = (size_t)ceil(TD_PHASE_MIN_SHARE * (double)n), i, nr = 0;

	if (min_len < TD_PHASE_MIN_INTERVALS)
		min_len = TD_PHASE_MIN_INTERVALS;
	for (i = 0; i < n; ) {
		size_t j = i;

		while (j + 1 < n && same_node(iv[j + 1].node, iv[i].node))
			j++;
		if (iv[i].node && j - i + 1 >= min_len) {
			ph[nr].first = i;
			ph[nr].last = j;
			ph[nr].node = iv[i].node;
			nr++;
		}
		i = j + 1;
	}
	return nr;
}

/* Rule 4: phases of one bottleneck with only short runs between them are one. */
static size_t merge_equal(struct phase *ph, size_t nr)
{
	size_t i, out = 0;

	for (i = 0; i < nr; i++) {
		if (out && same_node(ph[out - 1].node, ph[i].node))
			ph[out - 1].last = ph[i].last;
		else
			ph[out++] = ph[i];
	}
	return out;
}

/*
 * The short runs left between two phases (a transition): they go to the
 * phase before up to the last interval that had its bottleneck, the rest
 * to the phase after; those before the first phase and after the last
 * belong to it.
 */
static void close_gaps(struct phase_interval *iv, size_t n, struct phase *ph, size_t nr)
{
	size_t i, k, split;

	if (!nr)
		return;
	ph[0].first = 0;
	ph[nr - 1].last = n - 1;
	for (i = 0; i + 1 < nr; i++) {
		split = ph[i].last + 1;
		for (k = split; k < ph[i + 1].first; k++)
			if (same_node(iv[k].node, ph[i].node))
				split = k + 1;
		ph[i].last = split - 1;
		ph[i + 1].first = split;
	}
}

static json_t *phase_json(struct phase_interval *iv, const struct phase *p)
{
	double sum = 0, start = p->first ? iv[p->first - 1].time : 0;
	const char *name = NULL;
	size_t i, k = 0;
	int j;

	for (i = p->first; i <= p->last; i++)
		for (j = 0; j < iv[i].nr; j++) {
			if (!same_node(iv[i].ids[j], p->node))
				continue;
			name = iv[i].names[j];
			if (!isnan(iv[i].values[j])) {
				sum += iv[i].values[j];
				k++;
			}
		}
	return json_pack("{s:f,s:f,s:s,s:s,s:o,s:i}", "start_s", start, "end_s", iv[p->last].time,
			 "node", p->node, "name", name ? name : p->node,
			 "mean", k ? json_real(sum / (double)k) : json_null(),
			 "intervals", (int)(p->last - p->first + 1));
}

static int same_pmu(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

struct collect {
	const char *pmu;
	struct phase_interval *iv;
	size_t nr, alloc;
};

/* The interval totals of one PMU, in time order (perf writes them so). */
static void collect_interval(const struct td_scope_rows *r, void *vctx)
{
	struct collect *c = vctx;

	if (isnan(r->time) || !r->kind || strcmp(r->kind, "total") || !same_pmu(r->pmu, c->pmu))
		return;
	TD_GROW(c->iv, c->alloc, c->nr + 1);
	memset(&c->iv[c->nr], 0, sizeof(c->iv[c->nr]));
	read_interval(&c->iv[c->nr], r);
	c->nr++;
}

/* The phases of one session and PMU, set on its whole-run total scope. */
static void phases_of(json_t *doc, json_t *total)
{
	struct collect c = { td_json_str(total, "pmu"), NULL, 0, 0 };
	struct phase *ph;
	size_t i, nr;
	json_t *list;

	td_report_each_scope_rows(doc, json_integer_value(json_object_get(total, "session")),
				  collect_interval, &c);
	ph = xcalloc(c.nr ? c.nr : 1, sizeof(*ph));
	nr = merge_equal(ph, long_runs(c.iv, c.nr, ph));
	close_gaps(c.iv, c.nr, ph, nr);
	if (nr >= 2) {
		list = json_array();
		for (i = 0; i < nr; i++)
			json_array_append_new(list, phase_json(c.iv, &ph[i]));
		json_object_set_new(total, "phases", list);
	}
	for (i = 0; i < c.nr; i++)
		release_interval(&c.iv[i]);
	free(c.iv);
	free(ph);
}

void td_report_add_phases(json_t *doc)
{
	json_t *scopes = json_object_get(doc, "scopes"), *s, *sessions = json_object_get(doc, "sessions");
	json_t *totals = json_array();
	size_t i;

	/* the totals first: phases_of may add the streamed scopes' rows */
	json_array_foreach(scopes, i, s) {
		const char *kind = td_json_str(s, "kind");
		json_t *se = json_array_get(sessions, (size_t)td_json_int(json_object_get(s, "session"), 0) - 1);

		if (kind && !strcmp(kind, "total") && !td_scope_is_interval(s) &&
		    json_is_true(json_object_get(se, "interval")))
			json_array_append(totals, s);
	}
	json_array_foreach(totals, i, s)
		phases_of(doc, s);
	json_decref(totals);
}
