/*
 * Chart data from the report document: which charts apply, their rows and
 * series, and the CPI stack of a scope.  Nothing here knows gnuplot
 * (report/plot.c writes the scripts) or HTML.
 *
 * Values in charts are percentages of pipeline slots (fractions x 100) or
 * cycles per instruction; a value that is not computable stays NAN and the
 * chart carries a note saying which and why, so a chart never shows a
 * silent zero.
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"

#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>


struct td_chart *td_chart_new(const char *stem, const char *title, enum td_chart_kind kind)
{
	struct td_chart *c = xcalloc(1, sizeof(*c));

	c->stem = xstrdup(stem);
	c->title = xstrdup(title);
	c->kind = kind;
	c->ymin = NAN;
	c->ymax = NAN;
	strbuf_init(&c->notes, 0);
	return c;
}

void td_chart_add_series(struct td_chart *c, const char *id, const char *name, const char *colour)
{
	size_t i;

	TD_GROW(c->series, c->series_alloc, c->nseries + 1);
	c->series[c->nseries].id = xstrdup(id);
	c->series[c->nseries].name = xstrdup(name ? name : id);
	c->series[c->nseries].colour = colour;
	c->series[c->nseries].dashed = 0;
	c->nseries++;
	/* rows added before this series get a NAN for it */
	for (i = 0; i < c->nrows; i++) {
		c->rows[i].values = xrealloc(c->rows[i].values, c->nseries * sizeof(double));
		c->rows[i].values[c->nseries - 1] = NAN;
	}
}

struct td_chart_row *td_chart_add_row(struct td_chart *c, const char *label)
{
	struct td_chart_row *r;
	size_t i;

	TD_GROW(c->rows, c->rows_alloc, c->nrows + 1);
	r = &c->rows[c->nrows++];
	memset(r, 0, sizeof(*r));
	r->label = xstrdup(label);
	r->x = NAN;
	r->total = NAN;
	r->values = xmalloc((c->nseries ? c->nseries : 1) * sizeof(double));
	for (i = 0; i < c->nseries; i++)
		r->values[i] = NAN;
	return r;
}

void td_chart_free(struct td_chart *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nseries; i++) {
		free(c->series[i].id);
		free(c->series[i].name);
	}
	for (i = 0; i < c->nrows; i++) {
		free(c->rows[i].label);
		free(c->rows[i].values);
	}
	free(c->series);
	free(c->rows);
	free(c->stem);
	free(c->title);
	free(c->ylabel);
	free(c->xlabel);
	free(c->script);
	strbuf_release(&c->notes);
	free(c);
}

void td_chart_list_release(struct td_chart_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		td_chart_free(list->items[i]);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

void td_chart_list_add(struct td_chart_list *list, struct td_chart *c)
{
	TD_GROW(list->items, list->alloc, list->nr + 1);
	list->items[list->nr++] = c;
}

static int series_index(const struct td_chart *c, const char *id)
{
	size_t i;

	for (i = 0; i < c->nseries; i++)
		if (!strcmp(c->series[i].id, id))
			return (int)i;
	return -1;
}


/* Rank of a node among the nodes with the same parent, in document order. */
static int sibling_rank(json_t *nodes, json_t *node)
{
	const char *parent = td_json_str(node, "parent");
	json_t *n;
	size_t i;
	int rank = 0;

	json_array_foreach(nodes, i, n) {
		const char *p;

		if (n == node)
			return rank;
		p = td_json_str(n, "parent");
		if ((!p && !parent) || (p && parent && !strcmp(p, parent)))
			rank++;
	}
	return rank;
}

struct stack_key {
	enum td_family family;
	int parent_rank, rank, level;
};

static int key_before(const struct stack_key *a, const struct stack_key *b)
{
	if (a->family != b->family)
		return a->family < b->family;
	if (a->parent_rank != b->parent_rank)
		return a->parent_rank < b->parent_rank;
	if (a->level != b->level)
		return a->level < b->level;
	return a->rank < b->rank;
}

static struct stack_key node_key(json_t *nodes, json_t *node)
{
	struct stack_key k;
	const char *parent = td_json_str(node, "parent");
	json_t *n;
	size_t i;

	k.family = td_component_family(td_json_str(node, "id"), parent);
	k.level = td_node_level(node);
	k.rank = sibling_rank(nodes, node);
	k.parent_rank = -1;
	if (parent)
		json_array_foreach(nodes, i, n) {
			const char *id = td_json_str(n, "id");

			if (id && !strcmp(id, parent))
				k.parent_rank = sibling_rank(nodes, n);
		}
	return k;
}

/*
 * Add the series of the Level-'level' stack of one scope to c, keeping the
 * fixed family order: a new series is inserted before the first existing
 * one that sorts after it.
 */
struct stack_keys {
	struct stack_key *k;
	size_t alloc;
};

static void add_stack_series(struct td_chart *c, struct stack_keys *sk, json_t *nodes, int level)
{
	json_t *n;
	size_t i, j, k;

	json_array_foreach(nodes, i, n) {
		const char *id = td_json_str(n, "id");
		struct stack_key key;
		struct td_chart_series tmp;

		if (!td_node_in_stack(nodes, n, level) || series_index(c, id) >= 0)
			continue;
		key = node_key(nodes, n);
		TD_GROW(sk->k, sk->alloc, c->nseries + 1);
		td_chart_add_series(c, id, td_json_str(n, "name"),
				    td_component_colour(id, td_json_str(n, "parent"), key.level, key.rank));
		sk->k[c->nseries - 1] = key;
		/* bubble the new series (and its row column) into place */
		for (j = c->nseries - 1; j > 0 && key_before(&sk->k[j], &sk->k[j - 1]); j--) {
			struct stack_key kt = sk->k[j];

			sk->k[j] = sk->k[j - 1];
			sk->k[j - 1] = kt;
			tmp = c->series[j];
			c->series[j] = c->series[j - 1];
			c->series[j - 1] = tmp;
			for (k = 0; k < c->nrows; k++) {
				double v = c->rows[k].values[j];

				c->rows[k].values[j] = c->rows[k].values[j - 1];
				c->rows[k].values[j - 1] = v;
			}
		}
	}
}

static void note_node(struct td_chart *c, const char *row, json_t *n)
{
	const char *name = td_json_str(n, "name");
	const char *reason = td_json_str(n, "reason");
	const char *source = td_json_str(n, "source");
	struct strbuf why = STRBUF_INIT;

	if (!name)
		name = td_json_str(n, "id");
	if (reason)
		td_reason_short(&why, reason, 3);
	if (isnan(td_json_num(json_object_get(n, "value"))))
		strbuf_addf(&c->notes, "%s: %s not computable: %s\n", row, name,
			    reason ? why.buf : "no reason given");
	else if (source && strcmp(source, "counts"))
		/* nodes[].source: perf's printed value, or its children's sum */
		strbuf_addf(&c->notes, "%s: %s is %s, not computed from counts%s%s\n", row, name,
			    !strcmp(source, "perf") ? "the value perf printed" : "the sum of its Level-2 children",
			    reason ? ": " : "", why.buf);
	else if (json_is_true(json_object_get(n, "approximate")))
		strbuf_addf(&c->notes, "%s: %s is approximate%s%s\n", row, name,
			    reason ? ": " : "", why.buf);
	strbuf_release(&why);
}

/* Fill row r of c with the scope's stack values (x 'scale'). */
static void fill_stack_row(struct td_chart *c, struct td_chart_row *r, json_t *nodes, int level,
			   double scale)
{
	json_t *n;
	size_t i;

	json_array_foreach(nodes, i, n) {
		int idx;

		if (!td_node_in_stack(nodes, n, level))
			continue;
		idx = series_index(c, td_json_str(n, "id"));
		if (idx < 0)
			continue;
		r->values[idx] = td_json_num(json_object_get(n, "value")) * scale;
		note_node(c, r->label, n);
	}
}

static int scope_has_level(json_t *scope, int level)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (td_node_level(n) == level)
			return 1;
	return 0;
}

static int chart_has_value(const struct td_chart *c)
{
	size_t r, k;

	for (r = 0; r < c->nrows; r++)
		for (k = 0; k < c->nseries; k++)
			if (!isnan(c->rows[r].values[k]))
				return 1;
	return 0;
}

/*
 * A bar with a component not measured must not look whole: what its
 * measured components leave of the whole bar becomes a "not measured"
 * segment (drawn hatched).  Where they leave nothing (they fill it: what
 * is missing is at most the rounding, or multiplexed counts overshoot),
 * the bar stays and a note under the chart says so.
 */
static void mark_not_measured(struct td_chart *c)
{
	size_t i, k, col = 0;
	int added = 0;

	for (i = 0; i < c->nrows; i++) {
		struct td_chart_row *r = &c->rows[i];
		double sum = 0;
		int missing = 0;

		for (k = 0; k < c->nseries; k++) {
			if (added && k == col)
				continue;
			if (isnan(r->values[k]))
				missing++;
			else
				sum += r->values[k];
		}
		if (!missing || isnan(r->total))
			continue;
		if (r->total - sum > 0.005 * fabs(r->total)) {
			if (!added) {
				td_chart_add_series(c, TD_CHART_NOT_MEASURED, "not measured", "#8a929e");
				col = c->nseries - 1;
				added = 1;
			}
			r->values[col] = r->total - sum;
			continue;
		}
		strbuf_addf(&c->notes, "%s: %d component%s not measured; the measured ones fill the bar "
			    "(%.1f of %.4g), so no room is left for %s\n", r->label, missing, missing > 1 ? "s" : "",
			    sum, r->total, missing > 1 ? "them" : "it");
	}
}

struct td_chart *td_chart_topdown(json_t *scopes, int level, const char *stem, const char *title)
{
	struct td_chart *c = td_chart_stack(scopes, level, stem, title, 100.0);
	size_t i;

	if (c) {
		c->ylabel = xstrdup("% of pipeline slots");
		c->ymax = 100;
		for (i = 0; i < c->nrows; i++)
			c->rows[i].total = 100;
		mark_not_measured(c);
	}
	return c;
}

struct td_chart *td_chart_stack(json_t *scopes, int level, const char *stem, const char *title, double scale)
{
	struct stack_keys keys = { NULL, 0 };
	struct td_chart *c;
	json_t *s;
	size_t i;

	c = td_chart_new(stem, title, TD_CHART_STACKED);
	c->ymin = 0;
	json_array_foreach(scopes, i, s) {
		json_t *nodes = json_object_get(s, "nodes");
		struct strbuf label = STRBUF_INIT;

		if (td_scope_is_interval(s) || !scope_has_level(s, level))
			continue;
		add_stack_series(c, &keys, nodes, level);
		td_scope_label_among(&label, scopes, s);
		fill_stack_row(c, td_chart_add_row(c, label.buf), nodes, level, scale);
		strbuf_release(&label);
	}
	free(keys.k);
	if (!c->nrows || !c->nseries || !chart_has_value(c)) {
		/* nothing computable (no hardware counts): no empty chart */
		td_chart_free(c);
		return NULL;
	}
	return c;
}

struct td_chart *td_chart_cpi(json_t *scopes, int level, const char *stem, const char *title)
{
	struct stack_keys keys = { NULL, 0 };
	struct td_chart *c = td_chart_new(stem, title, TD_CHART_STACKED);
	json_t *s;
	size_t i;

	c->ylabel = xstrdup("cycles per instruction");
	c->ymin = 0;
	json_array_foreach(scopes, i, s) {
		json_t *stack, *comps, *comp;
		struct strbuf label = STRBUF_INIT;
		struct td_chart_row *r;
		size_t j;

		if (td_scope_is_interval(s) || !scope_has_level(s, 1))
			continue;
		td_scope_label_among(&label, scopes, s);
		stack = td_report_cpi_stack(s, level);
		if (isnan(td_json_num(json_object_get(stack, "cpi")))) {
			const char *why = td_json_str(stack, "reason");

			strbuf_addf(&c->notes, "%s: left out, %s\n", label.buf, why ? why : "CPI unknown");
			goto next;
		}
		comps = json_object_get(stack, "components");
		add_stack_series(c, &keys, comps, level);
		r = td_chart_add_row(c, label.buf);
		r->total = td_json_num(json_object_get(stack, "cpi"));
		json_array_foreach(comps, j, comp) {
			int idx = series_index(c, td_json_str(comp, "id"));

			if (idx >= 0)
				r->values[idx] = td_json_num(json_object_get(comp, "value"));
			if (isnan(td_json_num(json_object_get(comp, "value"))) || td_json_str(comp, "source"))
				note_node(c, label.buf, comp);
		}
		if (json_is_true(json_object_get(stack, "approximate")))
			strbuf_addf(&c->notes, "%s: approximate (built from approximate nodes)\n", label.buf);
		if (td_json_str(stack, "cpi_from"))
			strbuf_addf(&c->notes, "%s: CPI %.3f from %s\n", label.buf,
				    td_json_num(json_object_get(stack, "cpi")), td_json_str(stack, "cpi_from"));
next:
		json_decref(stack);
		strbuf_release(&label);
	}
	free(keys.k);
	if (!c->nrows || !c->nseries || !chart_has_value(c)) {
		/* nothing computable (no hardware counts): no empty chart */
		td_chart_free(c);
		return NULL;
	}
	mark_not_measured(c);
	return c;
}

/* ---- interval timelines ---- */

/* Interval scopes are grouped by PMU and label (per-CPU intervals: one timeline per CPU). */
static void group_key(struct strbuf *sb, json_t *scope)
{
	const char *pmu = td_json_str(scope, "pmu"), *label = td_json_str(scope, "label");

	strbuf_reset(sb);
	strbuf_addf(sb, "%s\t%s", pmu ? pmu : "", label ? label : "");
}

static void stem_from(struct strbuf *stem, const char *base, const char *key)
{
	strbuf_addstr(stem, base);
	if (!*key || !strcmp(key, "\t"))
		return;
	strbuf_addch(stem, '-');
	for (; *key; key++) {
		int ch = (unsigned char)*key;

		if (isalnum(ch) || ch == '_')
			strbuf_addch(stem, tolower(ch));
		else if (stem->len && stem->buf[stem->len - 1] != '-')
			strbuf_addch(stem, '-');
	}
	while (stem->len && stem->buf[stem->len - 1] == '-')
		strbuf_setlen(stem, stem->len - 1);
}

static void timeline_charts(json_t *doc, struct td_chart_list *out)
{
	json_t *scopes = json_object_get(doc, "scopes"), *s, *t;
	struct strbuf key = STRBUF_INIT, other = STRBUF_INIT;
	size_t i, j;
	char *done = xcalloc(json_array_size(scopes) + 1, 1);

	json_array_foreach(scopes, i, s) {
		struct strbuf stem = STRBUF_INIT, title = STRBUF_INIT;
		struct stack_keys keys = { NULL, 0 };
		struct td_chart *c;
		size_t count = 0;

		if (done[i] || !td_scope_is_interval(s))
			continue;
		group_key(&key, s);
		json_array_foreach(scopes, j, t) {
			if (j < i || done[j] || !td_scope_is_interval(t))
				continue;
			group_key(&other, t);
			if (!strcmp(key.buf, other.buf))
				count++;
		}
		stem_from(&stem, "timeline", key.buf);
		strbuf_addstr(&title, "Top-Down Level 1 over time");
		if (strcmp(key.buf, "\t")) {
			struct strbuf l = STRBUF_INIT;

			td_scope_label(&l, s);
			strbuf_addf(&title, ", %s", l.buf);
			strbuf_release(&l);
		}
		c = td_chart_new(stem.buf, title.buf, TD_CHART_AREA);
		c->ylabel = xstrdup("% of pipeline slots");
		c->xlabel = xstrdup("time (s)");
		c->ymin = 0;
		c->ymax = 100;
		json_array_foreach(scopes, j, t) {
			struct td_chart_row *r;
			char label[64];

			if (j < i || done[j] || !td_scope_is_interval(t))
				continue;
			group_key(&other, t);
			if (strcmp(key.buf, other.buf))
				continue;
			done[j] = 1;
			add_stack_series(c, &keys, json_object_get(t, "nodes"), 1);
			snprintf(label, sizeof(label), "%.6g", td_json_num(json_object_get(t, "time")));
			r = td_chart_add_row(c, label);
			r->x = td_json_num(json_object_get(t, "time"));
			fill_stack_row(c, r, json_object_get(t, "nodes"), 1, 100.0);
		}
		free(keys.k);
		if (count < 2 || !c->nseries) {
			/* one interval is a point, not a timeline: the bars show it */
			td_chart_free(c);
		} else {
			td_chart_list_add(out, c);
		}
		strbuf_release(&stem);
		strbuf_release(&title);
	}
	free(done);
	strbuf_release(&key);
	strbuf_release(&other);
}

void td_charts_for_report(json_t *doc, struct td_chart_list *out)
{
	struct td_chart *c;

	json_t *scopes = json_object_get(doc, "scopes");

	if ((c = td_chart_topdown(scopes, 1, "topdown-l1", "Top-Down Level 1")))
		td_chart_list_add(out, c);
	if ((c = td_chart_topdown(scopes, 2, "topdown-l2", "Top-Down Level 2")))
		td_chart_list_add(out, c);
	if ((c = td_chart_cpi(scopes, 1, "cpi-stack", "CPI stack (cycles per instruction)")))
		td_chart_list_add(out, c);
	td_charts_stacks(doc, out);
	timeline_charts(doc, out);
	td_charts_threads(doc, out);
}
