/*
 * Formula tables: loading metrics/tables/NAME.json (format in docs/tables.md)
 * with jansson, checking them, and binding metric references so that the
 * evaluator never compares strings on the hot path.
 *
 * Strings point into the jansson document, which lives as long as the
 * table.
 */
#include "metrics/table-int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int jint(json_t *o, const char *key, int dflt)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return (int)json_integer_value(v);
	if (json_is_true(v))
		return 1;
	if (json_is_false(v))
		return 0;
	return dflt;
}

static unsigned jhex(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return (unsigned)json_integer_value(v);
	if (json_is_string(v))
		return (unsigned)strtoul(json_string_value(v), NULL, 0);
	return 0;
}

void td_table_free(struct td_table *t)
{
	size_t i, j;

	if (!t)
		return;
	for (i = 0; i < t->nr_metrics; i++) {
		for (j = 0; j < t->metrics[i].nr_formulas; j++)
			td_expr_free((struct td_expr *)t->metrics[i].formulas[j].expr);
		free((void *)t->metrics[i].formulas);
		td_expr_free((struct td_expr *)t->metrics[i].threshold_expr);
	}
	free(t->metrics);
	free(t->events);
	free(t->cpuid);
	free(t->aliases);
	free(t->order);
	free(t->parent);
	for (i = 0; i < t->nr_slots; i++)
		free(t->slot_names[i]);
	free(t->slot_names);
	free(t->sorted_ids);
	free(t->path);
	json_decref(t->root);
	free(t);
}

/* ---- metric id index ---- */

static const struct td_table *sort_table;

static int cmp_metric_idx(const void *a, const void *b)
{
	return strcmp(sort_table->metrics[*(const int *)a].id,
		      sort_table->metrics[*(const int *)b].id);
}

int td_table_metric_index(const struct td_table *t, const char *id)
{
	size_t lo = 0, hi = t->nr_metrics;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(id, t->metrics[t->sorted_ids[mid]].id);

		if (!c)
			return t->sorted_ids[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

const struct td_metric *td_table_find_metric(const struct td_table *t, const char *id)
{
	int i = td_table_metric_index(t, id);

	return i < 0 ? NULL : &t->metrics[i];
}

static int is_correction(json_t *list, const char *name)
{
	size_t i;

	for (i = 0; i < json_array_size(list); i++)
		if (json_is_string(json_array_get(list, i)) &&
		    !strcasecmp(json_string_value(json_array_get(list, i)), name))
			return 1;
	return 0;
}

/* The lookup-cache slot of an input name (linear: done once at load). */
static int input_slot(struct td_table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_slots; i++)
		if (!strcmp(t->slot_names[i], name))
			return (int)i;
	TD_GROW(t->slot_names, t->alloc_slots, t->nr_slots + 1);
	t->slot_names[t->nr_slots] = xstrdup(name);
	return (int)t->nr_slots++;
}

/* Bind names of e that are metric ids; mark the metric's correction terms. */
static void bind_names(struct td_table *t, struct td_expr *e, json_t *corrections)
{
	int i;

	if (!e)
		return;
	if (e->op == TD_OP_NAME) {
		if (e->kind != TD_NAME_LITERAL) {
			e->metric = td_table_metric_index(t, e->name);
			if (e->metric >= 0) {
				e->kind = TD_NAME_METRIC;
				return;
			}
			e->correction = is_correction(corrections, e->name);
		}
		e->slot = input_slot(t, e->name);
		return;
	}
	for (i = 0; i < 3; i++)
		bind_names(t, e->kid[i], corrections);
}

/* ---- cycle check ---- */

/*
 * Metric references resolve recursively (the evaluator computes a metric
 * when a formula first uses it), a few stack frames per reference: a chain
 * of references longer than this is refused at load time rather than
 * overflowing the stack in whichever order the metrics are evaluated.
 * perf's and Intel's tables chain fewer than 20.
 */
#define MAX_REF_DEPTH 1000

static int refs_visit(struct td_table *t, int m, int *height, int depth, struct strbuf *err);

/* The longest chain of references below e (0: none), or -1 with err set. */
static int refs_walk(struct td_table *t, const struct td_expr *e, int *height, int depth,
		     struct strbuf *err)
{
	int i, h = 0, k;

	if (!e)
		return 0;
	if (e->op == TD_OP_NAME && e->metric >= 0)
		return refs_visit(t, e->metric, height, depth + 1, err);
	for (i = 0; i < 3; i++) {
		if ((k = refs_walk(t, e->kid[i], height, depth, err)) < 0)
			return -1;
		if (k > h)
			h = k;
	}
	return h;
}

/*
 * Metric m's reference height (1 + the longest chain of metrics it uses),
 * memoized in height[] (0 not yet known, -1 being visited), or -1 with err
 * set on a cycle or a chain deeper than MAX_REF_DEPTH.  The recursion stops
 * at that depth, so checking cannot overflow the stack either.
 */
static int refs_visit(struct td_table *t, int m, int *height, int depth, struct strbuf *err)
{
	size_t j;
	int h = 0, k;

	if (height[m] > 0)
		return height[m];
	if (height[m] < 0) {
		strbuf_addf(err, "metric '%s' refers to itself through other metrics",
			    t->metrics[m].id);
		return -1;
	}
	if (depth > MAX_REF_DEPTH) {
		strbuf_addf(err, "metric '%s' is reached through more than %d metric references in a chain",
			    t->metrics[m].id, MAX_REF_DEPTH);
		return -1;
	}
	height[m] = -1;
	for (j = 0; j < t->metrics[m].nr_formulas; j++) {
		if ((k = refs_walk(t, t->metrics[m].formulas[j].expr, height, depth, err)) < 0)
			return -1;
		if (k > h)
			h = k;
	}
	if (h + 1 > MAX_REF_DEPTH) {
		strbuf_addf(err, "metric '%s' uses a chain of more than %d metric references",
			    t->metrics[m].id, MAX_REF_DEPTH);
		return -1;
	}
	return height[m] = h + 1;
}

/* ---- tree order ---- */

static void add_subtree(struct td_table *t, int m, size_t *n)
{
	size_t i;

	t->order[(*n)++] = m;
	for (i = 0; i < t->nr_metrics; i++)
		if (t->metrics[i].level >= 1 && t->metrics[i].parent &&
		    !strcmp(t->metrics[i].parent, t->metrics[m].id))
			add_subtree(t, (int)i, n);
}

static int build_tree(struct td_table *t, struct strbuf *err)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_metrics; i++) {
		const struct td_metric *m = &t->metrics[i];
		const struct td_metric *p;

		if (m->level < 1)
			continue;
		t->nr_nodes++;
		if (!m->parent) {
			if (m->level != 1) {
				strbuf_addf(err, "metric '%s' at level %d has no parent", m->id, m->level);
				return -1;
			}
			continue;
		}
		p = td_table_find_metric(t, m->parent);
		if (!p || p->level < 1) {
			strbuf_addf(err, "metric '%s': parent '%s' is not a tree node", m->id, m->parent);
			return -1;
		}
		if (p->level != m->level - 1) {
			strbuf_addf(err, "metric '%s': level %d under '%s' at level %d",
				    m->id, m->level, p->id, p->level);
			return -1;
		}
	}
	t->parent = xcalloc(t->nr_metrics + 1, sizeof(*t->parent));
	for (i = 0; i < t->nr_metrics; i++)
		t->parent[i] = t->metrics[i].parent ? td_table_metric_index(t, t->metrics[i].parent) : -1;
	t->order = xcalloc(t->nr_nodes + 1, sizeof(*t->order));
	for (i = 0; i < t->nr_metrics; i++)
		if (t->metrics[i].level == 1)
			add_subtree(t, (int)i, &n);
	return 0;
}

/* ---- loading ---- */

static int load_formula(struct td_formula *f, const char *text, struct strbuf *err,
			const char *id, const char *what)
{
	struct strbuf perr = STRBUF_INIT;

	f->text = text;
	f->expr = td_expr_parse(text, &perr);
	if (!f->expr) {
		strbuf_addf(err, "metric '%s': %s: %s", id, what, perr.buf);
		strbuf_release(&perr);
		return -1;
	}
	strbuf_release(&perr);
	return 0;
}

/*
 * "perf_formula": {"perf_version", "expr", "why"}, all three non-empty
 * strings: how an older perf computes the node when its expression is not
 * ours (docs/tables.md).  Absent is fine; half of one is an error, since a
 * report would show a difference without saying what it is.  "perf_only":
 * true says the node is that perf's and Intel's current data lacks it.
 */
static int parse_perf_formula(struct td_metric *m, json_t *pf, struct strbuf *err)
{
	if (!pf)
		return 0;
	m->perf_formula_version = jstr(pf, "perf_version");
	m->perf_formula_expr = jstr(pf, "expr");
	m->perf_formula_why = jstr(pf, "why");
	m->perf_only = json_is_true(json_object_get(pf, "perf_only"));
	if (!json_is_object(pf) || !m->perf_formula_version || !*m->perf_formula_version ||
	    !m->perf_formula_expr || !*m->perf_formula_expr ||
	    !m->perf_formula_why || !*m->perf_formula_why) {
		strbuf_addf(err, "metric '%s': \"perf_formula\" needs non-empty \"perf_version\", "
			    "\"expr\" and \"why\"", m->id);
		return -1;
	}
	return 0;
}

static int load_metric(struct td_table *t, json_t *o, struct td_metric *m, struct strbuf *err)
{
	json_t *alts = json_object_get(o, "alternatives");
	struct td_formula *f;
	const char *th;
	size_t i, n;

	m->id = jstr(o, "id");
	if (!m->id || !*m->id) {
		strbuf_addstr(err, "a metric has no \"id\"");
		return -1;
	}
	m->name = jstr(o, "name");
	if (!m->name)
		m->name = m->id;
	m->level = jint(o, "level", 0);
	/* only tree nodes have parents */
	m->parent = m->level >= 1 ? jstr(o, "parent") : NULL;
	m->formula = jstr(o, "formula");
	if (!m->formula) {
		strbuf_addf(err, "metric '%s' has no \"formula\"", m->id);
		return -1;
	}
	m->threshold = jstr(o, "threshold");
	m->unit = jstr(o, "unit");
	m->scale = 1;
	if (json_is_number(json_object_get(o, "scale"))) {
		m->scale = json_number_value(json_object_get(o, "scale"));
		if (!(m->scale > 0) || !isfinite(m->scale)) {
			strbuf_addf(err, "metric '%s': \"scale\" must be a positive number", m->id);
			return -1;
		}
	}
	m->domain = jstr(o, "domain");
	m->area = jstr(o, "area");
	m->description = jstr(o, "description");
	m->locate_with = jstr(o, "locate_with");
	m->groups = jstr(o, "groups");
	m->is_fraction = m->level >= 1;
	if (parse_perf_formula(m, json_object_get(o, "perf_formula"), err))
		return -1;
	if (m->level < 0 || m->level > 8) {
		strbuf_addf(err, "metric '%s': level %d out of range", m->id, m->level);
		return -1;
	}
	if (alts && !json_is_array(alts)) {
		strbuf_addf(err, "metric '%s': \"alternatives\" is not an array", m->id);
		return -1;
	}
	n = 1 + (alts ? json_array_size(alts) : 0);
	f = xcalloc(n, sizeof(*f));
	m->formulas = f;
	m->nr_formulas = n;
	if (load_formula(&f[0], m->formula, err, m->id, "formula"))
		return -1;
	f[0].note = jstr(o, "formula_note");
	for (i = 1; i < n; i++) {
		json_t *a = json_array_get(alts, i - 1);
		const char *text = jstr(a, "formula");

		if (!text) {
			strbuf_addf(err, "metric '%s': alternative %zu has no \"formula\"", m->id, i);
			return -1;
		}
		if (load_formula(&f[i], text, err, m->id, "alternative formula"))
			return -1;
		f[i].approximate = jint(a, "approximate", 0);
		f[i].note = jstr(a, "note");
	}
	m->expr = f[0].expr;
	th = m->threshold;
	if (th && *th) {
		struct strbuf perr = STRBUF_INIT;

		m->threshold_expr = td_expr_parse(th, &perr);
		if (!m->threshold_expr) {
			strbuf_addf(err, "metric '%s': threshold: %s", m->id, perr.buf);
			strbuf_release(&perr);
			return -1;
		}
		strbuf_release(&perr);
	}
	(void)t;
	return 0;
}

static enum td_event_resource parse_resource(const char *s)
{
	if (!s)
		return TD_RES_NONE;
	if (!strcmp(s, "offcore"))
		return TD_RES_OFFCORE;
	if (!strcmp(s, "ldlat"))
		return TD_RES_LDLAT;
	if (!strcmp(s, "frontend"))
		return TD_RES_FRONTEND;
	if (!strcmp(s, "perf_metrics"))
		return TD_RES_PERF_METRICS;
	return TD_RES_NONE;
}

static void load_event(struct td_table *t, json_t *o, struct td_event *ev)
{
	const char *counters = jstr(o, "counters");
	json_t *dv = json_object_get(o, "default");

	ev->name = jstr(o, "name");
	ev->pmu = jstr(o, "pmu");
	if (!ev->pmu)
		ev->pmu = t->info.pmu;
	ev->perf_name = jstr(o, "perf_name");
	ev->description = jstr(o, "description");
	ev->fixed = jint(o, "fixed", -1);
	ev->resource = parse_resource(jstr(o, "resource"));
	ev->taken_alone = jint(o, "taken_alone", 0);
	ev->group_leader = jint(o, "group_leader", 0);
	ev->event_code = jhex(o, "event");
	ev->umask = jhex(o, "umask");
	ev->cmask = jhex(o, "cmask");
	ev->inv = jint(o, "inv", 0);
	ev->edge = jint(o, "edge", 0);
	ev->any = jint(o, "any", 0);
	ev->msr = jstr(o, "msr");
	ev->msr_value = jstr(o, "msr_value");
	ev->retire_latency = jint(o, "retire_latency", 0);
	ev->default_value = json_is_number(dv) ? json_number_value(dv) : NAN;
	ev->counters = 0;
	if (counters) {
		const char *p = counters;

		while (*p) {
			char *end;
			unsigned long c = strtoul(p, &end, 10);

			if (end == p)
				break;
			if (c < 64)
				ev->counters |= 1ULL << c;
			p = end;
			while (*p == ',' || *p == ' ')
				p++;
		}
	}
}

static const char **string_array(json_t *a, size_t *n)
{
	const char **out;
	size_t i;

	*n = 0;
	if (!json_is_array(a))
		return NULL;
	out = xcalloc(json_array_size(a) + 1, sizeof(*out));
	for (i = 0; i < json_array_size(a); i++)
		if (json_is_string(json_array_get(a, i)))
			out[(*n)++] = json_string_value(json_array_get(a, i));
	return out;
}

/* The table's identity and resources: every top-level key but events and metrics. */
static int load_info(struct td_table *t, struct strbuf *err)
{
	json_t *root = t->root, *ctr;

	if (!json_is_object(root)) {
		strbuf_addstr(err, "not a JSON object");
		return -1;
	}
	if (jint(root, "tdperf_table", 0) != 1) {
		strbuf_addstr(err, "not a tdperf formula table (\"tdperf_table\": 1 missing)");
		return -1;
	}
	t->info.name = jstr(root, "name");
	if (!t->info.name) {
		strbuf_addstr(err, "table has no \"name\"");
		return -1;
	}
	t->info.display = jstr(root, "display");
	if (!t->info.display)
		t->info.display = t->info.name;
	t->info.vendor = jstr(root, "vendor");
	t->info.perf_name = jstr(root, "perf_name");
	t->info.core_type = jstr(root, "core_type");
	t->info.pmu = jstr(root, "pmu");
	if (!t->info.pmu)
		t->info.pmu = "cpu";
	t->info.source = jstr(root, "source");
	t->info.missing = jstr(root, "missing");
	t->info.slots_per_cycle = json_number_value(json_object_get(root, "slots_per_cycle"));
	ctr = json_object_get(root, "counters");
	t->info.gp_counters = jint(ctr, "gp", 0);
	t->info.gp_counters_smt = jint(ctr, "gp_smt", t->info.gp_counters);
	t->info.fixed_counters = jint(ctr, "fixed", 0);
	t->cpuid = string_array(json_object_get(root, "cpuid"), &t->nr_cpuid);
	t->aliases = string_array(json_object_get(root, "aliases"), &t->nr_aliases);
	t->params = json_object_get(root, "params");
	return 0;
}

static int load_body(struct td_table *t, struct strbuf *err)
{
	json_t *root = t->root, *evs, *ms;
	size_t i;
	int *height;

	if (load_info(t, err))
		return -1;
	evs = json_object_get(root, "events");
	if (evs && !json_is_array(evs)) {
		strbuf_addstr(err, "\"events\" is not an array");
		return -1;
	}
	t->nr_events = json_array_size(evs);
	t->events = xcalloc(t->nr_events + 1, sizeof(*t->events));
	for (i = 0; i < t->nr_events; i++) {
		load_event(t, json_array_get(evs, i), &t->events[i]);
		if (!t->events[i].name) {
			strbuf_addf(err, "event %zu has no \"name\"", i);
			return -1;
		}
	}

	ms = json_object_get(root, "metrics");
	if (!json_is_array(ms)) {
		strbuf_addstr(err, "\"metrics\" is missing or not an array");
		return -1;
	}
	t->nr_metrics = json_array_size(ms);
	t->metrics = xcalloc(t->nr_metrics + 1, sizeof(*t->metrics));
	for (i = 0; i < t->nr_metrics; i++)
		if (load_metric(t, json_array_get(ms, i), &t->metrics[i], err))
			return -1;

	t->sorted_ids = xcalloc(t->nr_metrics + 1, sizeof(*t->sorted_ids));
	for (i = 0; i < t->nr_metrics; i++)
		t->sorted_ids[i] = (int)i;
	sort_table = t;
	qsort(t->sorted_ids, t->nr_metrics, sizeof(*t->sorted_ids), cmp_metric_idx);
	sort_table = NULL;
	for (i = 1; i < t->nr_metrics; i++)
		if (!strcmp(t->metrics[t->sorted_ids[i]].id, t->metrics[t->sorted_ids[i - 1]].id)) {
			strbuf_addf(err, "metric '%s' is defined twice", t->metrics[t->sorted_ids[i]].id);
			return -1;
		}

	for (i = 0; i < t->nr_metrics; i++) {
		json_t *corr = json_object_get(json_array_get(ms, i), "corrections");
		size_t j;

		for (j = 0; j < t->metrics[i].nr_formulas; j++)
			bind_names(t, (struct td_expr *)t->metrics[i].formulas[j].expr, corr);
		bind_names(t, (struct td_expr *)t->metrics[i].threshold_expr, NULL);
	}
	height = xcalloc(t->nr_metrics + 1, sizeof(*height));
	for (i = 0; i < t->nr_metrics; i++)
		if (refs_visit(t, (int)i, height, 0, err) < 0) {
			free(height);
			return -1;
		}
	free(height);
	return build_tree(t, err);
}

/* Load from a parsed-or-failed document (root NULL: jerr says why). */
static struct td_table *load_root(const char *path, json_t *root, json_error_t *jerr,
				  struct strbuf *err)
{
	struct td_table *t = xcalloc(1, sizeof(*t));
	struct strbuf why = STRBUF_INIT;

	t->path = xstrdup(path);
	t->root = root;
	if (!t->root) {
		if (jerr->line > 0)
			strbuf_addf(err, "%s:%d: %s", path, jerr->line, jerr->text);
		else
			strbuf_addf(err, "%s: %s", path, jerr->text);
		td_table_free(t);
		return NULL;
	}
	if (load_body(t, &why)) {
		strbuf_addf(err, "%s: %s", path, why.buf);
		strbuf_release(&why);
		td_table_free(t);
		return NULL;
	}
	strbuf_release(&why);
	return t;
}

struct td_table *td_table_load(const char *path, struct strbuf *err)
{
	json_error_t jerr;

	return load_root(path, json_load_file(path, JSON_REJECT_DUPLICATES, &jerr), &jerr, err);
}

struct td_table *td_table_load_data(const char *data, size_t len, const char *name,
				    struct strbuf *err)
{
	json_error_t jerr;

	return load_root(name, json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr), &jerr, err);
}

/* ---- identity only ---- */

/*
 * Step past the array or object at s[*pos] without building it: only
 * strings and nesting are followed, so text malformed inside it is not
 * noticed here (td_table_load() notices).  -1 when s[*pos] opens no
 * array or object, or the text ends before it does.
 */
static int skip_container(const char *s, size_t len, size_t *pos)
{
	size_t i = *pos, depth = 0;

	if (i >= len || (s[i] != '[' && s[i] != '{'))
		return -1;
	/* s is NUL-terminated: strcspn() finds the next byte that matters fast */
	do {
		i += strcspn(s + i, "\"[]{}");
		if (i >= len || !s[i])
			return -1;
		if (s[i] == '"') {
			for (i++;; i += 2) {
				i += strcspn(s + i, "\"\\");
				if (i + 1 >= len || !s[i])
					return -1;
				if (s[i] == '"')
					break;
			}
		} else if (s[i] == '[' || s[i] == '{') {
			depth++;
		} else {
			depth--;
		}
		i++;
	} while (depth);
	*pos = i;
	return 0;
}

static void skip_space(const char *s, size_t len, size_t *pos)
{
	while (*pos < len && (s[*pos] == ' ' || s[*pos] == '\t' || s[*pos] == '\n' ||
			      s[*pos] == '\r'))
		(*pos)++;
}

/* Parse the JSON value at s[*pos] with jansson and step past it; NULL on error. */
static json_t *parse_value(const char *s, size_t len, size_t *pos)
{
	json_error_t jerr;
	json_t *v = json_loadb(s + *pos, len - *pos,
			       JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES,
			       &jerr);

	if (v)
		*pos += (size_t)jerr.position;
	return v;
}

/*
 * The top-level object of a table file with "events" and "metrics" left
 * unparsed (they are over 95 % of the text and all of the formulas).  NULL
 * when the text is not an object of that shape, or a key repeats.
 */
static json_t *parse_identity(const char *s, size_t len)
{
	json_t *root = json_object();
	size_t pos = 0;
	int seen_events = 0, seen_metrics = 0;

	skip_space(s, len, &pos);
	if (pos >= len || s[pos++] != '{')
		goto fail;
	skip_space(s, len, &pos);
	if (pos < len && s[pos] == '}')
		return root;
	for (;;) {
		json_t *key, *val;
		const char *k;
		int *seen;

		skip_space(s, len, &pos);
		if (pos >= len || s[pos] != '"' || !(key = parse_value(s, len, &pos)))
			goto fail;
		k = json_string_value(key);
		seen = !strcmp(k, "events") ? &seen_events :
		       !strcmp(k, "metrics") ? &seen_metrics : NULL;
		skip_space(s, len, &pos);
		if (pos >= len || s[pos++] != ':' || json_object_get(root, k) || (seen && *seen)) {
			json_decref(key);
			goto fail;
		}
		skip_space(s, len, &pos);
		if (seen) {
			*seen = 1;
			if (skip_container(s, len, &pos)) {
				json_decref(key);
				goto fail;
			}
		} else {
			if (!(val = parse_value(s, len, &pos))) {
				json_decref(key);
				goto fail;
			}
			json_object_set_new(root, k, val);
		}
		json_decref(key);
		skip_space(s, len, &pos);
		if (pos < len && s[pos] == ',') {
			pos++;
			continue;
		}
		if (pos < len && s[pos] == '}')
			return root;
		goto fail;
	}
fail:
	json_decref(root);
	return NULL;
}

struct td_table *td_table_load_identity(const char *path)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct td_table *t;
	struct stat st;

	if (!stat(path, &st) && st.st_size > 0)
		strbuf_grow(&text, (size_t)st.st_size); /* read in one go, no regrowing */
	if (td_read_file(&text, path)) {
		strbuf_release(&text);
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->path = xstrdup(path);
	t->root = parse_identity(text.buf, text.len);
	strbuf_release(&text);
	if (!t->root || load_info(t, &why)) {
		strbuf_release(&why);
		td_table_free(t);
		return NULL;
	}
	strbuf_release(&why);
	return t;
}

/* ---- accessors ---- */

const struct td_table_info *td_table_info(const struct td_table *t) { return &t->info; }
const char *td_table_path(const struct td_table *t) { return t->path; }
size_t td_table_nr_metrics(const struct td_table *t) { return t->nr_metrics; }
size_t td_table_nr_events(const struct td_table *t) { return t->nr_events; }

int td_table_has_tree(const struct td_table *t)
{
	return t->nr_nodes > 0;
}

const struct td_metric *td_table_metric(const struct td_table *t, size_t i)
{
	return i < t->nr_metrics ? &t->metrics[i] : NULL;
}

const struct td_event *td_table_event(const struct td_table *t, size_t i)
{
	return i < t->nr_events ? &t->events[i] : NULL;
}

double td_table_param(const struct td_table *t, const char *name, double dflt)
{
	json_t *v = json_object_get(t->params, name);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

const char *td_table_param_string(const struct td_table *t, const char *name)
{
	return jstr(t->params, name);
}

/*
 * perf's spellings of an event: strip "pmu/.../" and ":mods", and map
 * the generic names perf uses for Intel's fixed and topdown events.
 */
static void perf_base_name(const char *name, struct strbuf *out)
{
	const char *s = name, *slash = strchr(name, '/');

	strbuf_reset(out);
	if (slash && slash[1]) {
		const char *end = strchr(slash + 1, '/');

		s = slash + 1;
		strbuf_add(out, s, end ? (size_t)(end - s) : strlen(s));
	} else {
		strbuf_addstr(out, s);
	}
}

const struct td_event *td_table_find_event(const struct td_table *t, const char *name)
{
	struct strbuf base = STRBUF_INIT;
	size_t i;
	const struct td_event *found = NULL;

	for (i = 0; i < t->nr_events && !found; i++)
		if (!strcasecmp(t->events[i].name, name) ||
		    (t->events[i].perf_name && !strcmp(t->events[i].perf_name, name)))
			found = &t->events[i];
	if (!found) {
		perf_base_name(name, &base);
		for (i = 0; i < t->nr_events && !found; i++)
			if (!strcasecmp(t->events[i].name, base.buf))
				found = &t->events[i];
		if (!found && strchr(base.buf, ':')) {
			/* "TOPDOWN.SLOTS:u": a user/kernel modifier on a known event */
			strbuf_setlen(&base, (size_t)(strchr(base.buf, ':') - base.buf));
			for (i = 0; i < t->nr_events && !found; i++)
				if (!strcasecmp(t->events[i].name, base.buf))
					found = &t->events[i];
		}
	}
	strbuf_release(&base);
	return found;
}
