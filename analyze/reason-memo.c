/*
 * Reasons kept from one count set for the next with the same layout.
 *
 * A long interval run evaluates the same tree on thousands of count sets
 * that differ in their values only.  Why a node is not computable ("X not
 * measured", merged through every metric on the way) is most of the cost
 * of an evaluation, and it follows from which names the environment can
 * look up, not from their values, unless a division by zero or an 'if'
 * on counts steered the evaluation (td_tree_result.value_dependent).  So
 * a scope whose layout (table, PMU, literals, and per count its name,
 * group and whether it has a value) matches one evaluated before, and
 * whose evaluation without reasons met no such value, takes that one's
 * reasons.  The nodes' NAN, approximate and formula marks must match too;
 * anything else is evaluated again with reasons.
 */
#include "analyze/analyze-int.h"
#include "metrics/tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MEMO_ENTRIES 8       /* layouts kept: hybrid and big.LITTLE alternate PMUs */

struct memo_item {
	unsigned char nan, approximate;
	int formula;
	char *reason;
};

struct memo_entry {
	struct strbuf layout;
	struct memo_item *nodes, *info;
	size_t nr_nodes, nr_info;
};

static struct memo_entry memo[MEMO_ENTRIES];
static size_t memo_next;
static size_t evaluations, taken;

/*
 * TDPERF_REASON_MEMO=0 evaluates every scope with its reasons (the tests
 * compare both ways); =count also says on stderr, when the memo is reset,
 * how many evaluations took kept reasons.
 */
static const char *memo_mode(void)
{
	static const char *mode;

	if (!mode)
		mode = getenv("TDPERF_REASON_MEMO") ? getenv("TDPERF_REASON_MEMO") : "";
	return mode;
}

static void entry_release(struct memo_entry *e)
{
	size_t i;

	for (i = 0; i < e->nr_nodes; i++)
		free(e->nodes[i].reason);
	for (i = 0; i < e->nr_info; i++)
		free(e->info[i].reason);
	free(e->nodes);
	free(e->info);
	strbuf_release(&e->layout);
	memset(e, 0, sizeof(*e));
}

void td_reason_memo_reset(void)
{
	size_t i;

	if (evaluations && !strcmp(memo_mode(), "count"))
		fprintf(stderr, "tdperf: reason memo: %zu of %zu evaluations took kept reasons\n",
			taken, evaluations);
	evaluations = taken = 0;

	for (i = 0; i < MEMO_ENTRIES; i++)
		entry_release(&memo[i]);
	memo_next = 0;
}

static struct memo_entry *find(const struct strbuf *layout)
{
	size_t i;

	for (i = 0; i < MEMO_ENTRIES; i++)
		if (memo[i].layout.len == layout->len && layout->len &&
		    !memcmp(memo[i].layout.buf, layout->buf, layout->len))
			return &memo[i];
	return NULL;
}

static struct memo_item *items_keep(const struct td_node_value *v, size_t n)
{
	struct memo_item *it = xcalloc(n + 1, sizeof(*it));
	size_t i;

	for (i = 0; i < n; i++) {
		it[i].nan = isnan(v[i].value);
		it[i].approximate = !!v[i].approximate;
		it[i].formula = v[i].formula_index;
		it[i].reason = v[i].reason ? xstrdup(v[i].reason) : NULL;
	}
	return it;
}

/* Do the marks of v match the kept ones? */
static int items_match(const struct memo_item *it, const struct td_node_value *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (it[i].nan != !!isnan(v[i].value) || it[i].approximate != !!v[i].approximate ||
		    it[i].formula != v[i].formula_index)
			return 0;
	return 1;
}

static void items_give(const struct memo_item *it, struct td_node_value *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].reason);
		v[i].reason = it[i].reason ? xstrdup(it[i].reason) : NULL;
	}
}

int td_reason_memo_eval(const struct td_table *t, const struct td_env *env,
			const struct td_tree_opts *opts, const struct strbuf *layout, int nodes_only,
			struct td_tree_result *out)
{
	struct td_tree_opts fast = *opts;
	struct memo_entry *e;

	if (!strcmp(memo_mode(), "0"))
		return td_tree_eval(t, env, opts, out);
	evaluations++;
	e = find(layout);
	if (e) {
		fast.no_reasons = 1;
		if (td_tree_eval(t, env, &fast, out) < 0)
			return -1;
		if (!out->value_dependent && out->nr_nodes == e->nr_nodes && out->nr_info == e->nr_info &&
		    items_match(e->nodes, out->nodes, out->nr_nodes) &&
		    items_match(e->info, out->info, out->nr_info)) {
			items_give(e->nodes, out->nodes, out->nr_nodes);
			if (!nodes_only)
				items_give(e->info, out->info, out->nr_info);
			taken++;
			return 0;
		}
		td_tree_result_release(out);
	}
	if (td_tree_eval(t, env, opts, out) < 0)
		return -1;
	if (!e && !out->value_dependent) {
		e = &memo[memo_next];
		memo_next = (memo_next + 1) % MEMO_ENTRIES;
		entry_release(e);
		strbuf_add(&e->layout, layout->buf, layout->len);
		e->nodes = items_keep(out->nodes, out->nr_nodes);
		e->info = items_keep(out->info, out->nr_info);
		e->nr_nodes = out->nr_nodes;
		e->nr_info = out->nr_info;
	}
	return 0;
}
