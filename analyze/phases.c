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

/*
 * The Level-1 nodes of the run, named once: an interval keeps only their
 * indexes and values, so a run of 20,000 intervals costs 20,000 small
 * records, not 20,000 copies of every node's id and name (report's memory
 * stays flat in the number of intervals, tests/e2e/t0307).
 */
struct phase_nodes {
	int nr;
	char *ids[TD_PHASE_MAX_L1], *names[TD_PHASE_MAX_L1];
};

/* One interval: its time, bottleneck and Level-1 values, by node index. */
struct phase_interval {
	double time;		/* perf's time stamp: the end of the interval */
	int node;		/* Level-1 argmax (index into phase_nodes), -1 when not known */
	double values[TD_PHASE_MAX_L1];	/* NAN where the node was not computed */
};

struct phase {
	size_t first, last;	/* intervals, inclusive */
	int node;
};

/* The index of node id in nodes, added when new; -1 when there are too many. */
static int node_index(struct phase_nodes *nodes, const char *id, const char *name)
{
	int k;

	for (k = 0; k < nodes->nr; k++)
		if (!strcmp(nodes->ids[k], id))
			return k;
	if (nodes->nr == TD_PHASE_MAX_L1)
		return -1;
	nodes->ids[nodes->nr] = xstrdup(id);
	nodes->names[nodes->nr] = xstrdup(name ? name : id);
	return nodes->nr++;
}

/* Rule 1, on an interval's rows. */
static void read_interval(struct phase_interval *iv, struct phase_nodes *nodes,
			  const struct td_scope_rows *r)
{
	double best_v = -INFINITY;
	int computable = 0, k;
	size_t i;

	iv->time = r->time;
	iv->node = -1;
	for (k = 0; k < TD_PHASE_MAX_L1; k++)
		iv->values[k] = NAN;
	for (i = 0; i < r->nr_nodes; i++) {
		const struct td_node_row *n = &r->nodes[i];

		if (n->level != 1 || !n->id || (k = node_index(nodes, n->id, n->name)) < 0)
			continue;
		iv->values[k] = n->value;
		if (!isnan(n->value)) {
			computable++;
			if (n->value > best_v) {
				best_v = n->value;
				iv->node = k;
			}
		}
	}
	if (computable < 2)
		iv->node = -1;
}

static void release_nodes(struct phase_nodes *nodes)
{
	int k;

	for (k = 0; k < nodes->nr; k++) {
		free(nodes->ids[k]);
		free(nodes->names[k]);
	}
}

static int same_node(int a, int b)
{
	return a >= 0 && a == b;
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
		if (iv[i].node >= 0 && j - i + 1 >= min_len) {
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

static json_t *phase_json(struct phase_interval *iv, const struct phase_nodes *nodes,
			  const struct phase *p)
{
	double sum = 0, start = p->first ? iv[p->first - 1].time : 0;
	size_t i, k = 0;

	for (i = p->first; i <= p->last; i++)
		if (!isnan(iv[i].values[p->node])) {
			sum += iv[i].values[p->node];
			k++;
		}
	return json_pack("{s:f,s:f,s:s,s:s,s:o,s:i}", "start_s", start, "end_s", iv[p->last].time,
			 "node", nodes->ids[p->node], "name", nodes->names[p->node],
			 "mean", k ? json_real(sum / (double)k) : json_null(),
			 "intervals", (int)(p->last - p->first + 1));
}

static int same_pmu(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

struct collect {
	const char *pmu;
	struct phase_nodes nodes;
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
	read_interval(&c->iv[c->nr], &c->nodes, r);
	c->nr++;
}

/* The phases of one session and PMU, set on its whole-run total scope. */
static void phases_of(json_t *doc, json_t *total)
{
	struct collect c = { td_json_str(total, "pmu"), { 0 }, NULL, 0, 0 };
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
			json_array_append_new(list, phase_json(c.iv, &c.nodes, &ph[i]));
		json_object_set_new(total, "phases", list);
	}
	release_nodes(&c.nodes);
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
