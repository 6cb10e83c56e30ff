/*
 * The "hotspots" report document: streams a perf.data (of a run directory,
 * or any file a user recorded with perf record), resolves each sample's
 * call path to functions (parse/'s symbolizer) and feeds the call-path
 * tree of metrics/hotspots.c; then writes the per-function shares, the
 * per-DSO shares and the call-path tree (for flame graphs) as JSON
 * (docs/report-schema.md, "hotspots").
 */
#include "analyze/analyze-int.h"
#include "analyze/hotspots-int.h"
#include "parse/parse.h"
#include "metrics/hotspots.h"
#include "metrics/table.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Callchain context markers (PERF_CONTEXT_*), as perf writes them. */
#define CTX_HV ((uint64_t)-32)
#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)
#define CTX_GUEST_KERNEL ((uint64_t)-2176)
#define CTX_GUEST_USER ((uint64_t)-2560)
#define CPUMODE_KERNEL 1

struct hot_load {
	struct td_pd *pd;
	struct td_symbolizer *sym;
	struct td_hot *hot;
	const struct td_pd_event *leader;
	size_t nr_counts;
	const char **count_names;
	int *frames;
	size_t alloc_frames;
	uint64_t *values;
	double *deltas;
	uint64_t skipped_other, backwards;
	const struct td_table *table;   /* for Top-Down per function, or NULL */
	struct td_table *own_table;     /* --table FILE */
	char *table_note;               /* why there is no Top-Down, or NULL */
	const char *rundir;             /* the run directory read, or NULL */
	int smt_on;                     /* #smt_on of the formulas */
	int callchains;
	struct hot_chains *chains;      /* call chain -> node */
	uint64_t *detail_samples;       /* per leaf detail id (source line, inline) */
	uint64_t *detail_period;
	size_t alloc_detail;
	int leaf_kernel;                /* set by sample_frames: the leaf's mode */
	uint64_t leaf_ip;
	uint64_t first_time, last_time; /* of the leader's samples, when timed */
	/* per thread: samples and period on each call-path node and leaf
	 * detail (source line and inline chain, or -1), an open addressing
	 * table keyed by tid << 32 | node, + 1 (0 is empty), and detail */
	struct thread_path { uint64_t key, samples, period; double *counts; int detail; } *tpaths;
	size_t tpaths_size, tpaths_used;
	json_t *comms;                  /* "tid" -> {"name", "pid"} from COMM records */
	int per_thread;                 /* TD_HOT_CALLPATHS: keep the per-thread paths */
};

static size_t tpath_slot(const struct thread_path *t, size_t size, uint64_t key, int detail)
{
	size_t i = (size_t)(((key ^ (uint64_t)(detail + 1) << 40) * 0x9e3779b97f4a7c15ull) >> 20) & (size - 1);

	while (t[i].key && (t[i].key != key || t[i].detail != detail))
		i = (i + 1) & (size - 1);
	return i;
}

static void tpath_add(struct hot_load *l, uint32_t tid, uint32_t node, int detail, uint64_t weight,
		      const double *counts)
{
	uint64_t key = ((uint64_t)tid << 32 | node) + 1;
	size_t i, k;

	if (2 * (l->tpaths_used + 1) > l->tpaths_size) {
		size_t size = l->tpaths_size ? 2 * l->tpaths_size : 1024;
		struct thread_path *t = xcalloc(size, sizeof(*t));

		for (i = 0; i < l->tpaths_size; i++)
			if (l->tpaths[i].key)
				t[tpath_slot(t, size, l->tpaths[i].key, l->tpaths[i].detail)] = l->tpaths[i];
		free(l->tpaths);
		l->tpaths = t;
		l->tpaths_size = size;
	}
	i = tpath_slot(l->tpaths, l->tpaths_size, key, detail);
	if (!l->tpaths[i].key) {
		l->tpaths[i].key = key;
		l->tpaths[i].detail = detail;
		if (l->nr_counts)
			l->tpaths[i].counts = xcalloc(l->nr_counts, sizeof(double));
		l->tpaths_used++;
	}
	l->tpaths[i].samples++;
	l->tpaths[i].period += weight;
	for (k = 0; counts && k < l->nr_counts; k++)
		l->tpaths[i].counts[k] += counts[k];
}

/* The frames of a sample, leaf first. */
static size_t sample_frames(struct hot_load *l, const struct td_pd_record *r)
{
	const struct td_pd_sample *s = &r->sample;
	int kernel = (r->misc & 7) == CPUMODE_KERNEL;
	size_t n = 0, i;

	l->leaf_ip = s->ip;
	l->leaf_kernel = kernel;
	if (!(s->fields & TD_PD_S_CALLCHAIN) || !s->callchain_nr) {
		td_grow((void **)&l->frames, &l->alloc_frames, 1, sizeof(int));
		l->frames[n++] = td_sym_resolve(l->sym, s->pid, s->ip, kernel)->id;
		return n;
	}
	td_grow((void **)&l->frames, &l->alloc_frames, s->callchain_nr, sizeof(int));
	for (i = 0; i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= TD_PD_CONTEXT_MAX) {
			kernel = ip == CTX_KERNEL || ip == CTX_HV || ip == CTX_GUEST_KERNEL;
			continue;
		}
		if (!n) {
			l->leaf_ip = ip;
			l->leaf_kernel = kernel;
		}
		l->frames[n++] = td_sym_resolve(l->sym, s->pid, ip, kernel)->id;
	}
	return n;
}

/*
 * The sampled event: the first event, or the leader of a leader-sampled
 * group.  Other events' samples are counted as skipped.
 */
static void pick_leader(struct hot_load *l)
{
	size_t i;

	l->leader = td_pd_nr_events(l->pd) ? td_pd_event(l->pd, 0) : NULL;
	for (i = 0; i < td_pd_nr_events(l->pd); i++) {
		const struct td_pd_event *ev = td_pd_event(l->pd, i);

		if ((ev->sample_type & TD_PD_S_READ) && (ev->read_format & TD_PD_F_GROUP)) {
			l->leader = ev;
			return;
		}
	}
}

/* Start the tree at the first sample: the group's size is known then. */
static void start_tree(struct hot_load *l, const struct td_pd_sample *s)
{
	size_t k;

	if ((s->fields & TD_PD_S_READ) && (l->leader->read_format & TD_PD_F_GROUP) && s->nr_values) {
		l->nr_counts = s->nr_values;
		l->count_names = xcalloc(l->nr_counts, sizeof(*l->count_names));
		for (k = 0; k < l->nr_counts; k++)
			l->count_names[k] = s->values[k].event ? s->values[k].event->name : "?";
		l->values = xcalloc(l->nr_counts, sizeof(uint64_t));
		l->deltas = xcalloc(l->nr_counts, sizeof(double));
	}
	l->hot = td_hot_new(l->nr_counts);
}

/* The call-path node of a sample (and its leaf's detail id): from the
 * chain cache, else resolved. */
static uint32_t sample_node(struct hot_load *l, const struct td_pd_record *r, int *detail)
{
	const struct td_pd_sample *s = &r->sample;
	const uint64_t *ips = (s->fields & TD_PD_S_CALLCHAIN) && s->callchain_nr ? s->callchain : &s->ip;
	size_t n = ips == &s->ip ? 1 : s->callchain_nr;
	/* the mode's spare bits carry the process' map generation */
	uint16_t mode = (uint16_t)((r->misc & 7) | td_sym_generation(l->sym, s->pid) << 3);
	uint64_t hash = hot_chain_hash(s->pid, mode, ips, n);
	uint32_t node;

	if (hot_chain_lookup(l->chains, hash, s->pid, mode, ips, n, &node, detail))
		return node;
	n = sample_frames(l, r);
	node = td_hot_path(l->hot, l->frames, n);
	*detail = n ? td_sym_leaf_detail(l->sym, s->pid, l->leaf_ip, l->leaf_kernel) : -1;
	hot_chain_insert(l->chains, hash, s->pid, mode, ips, ips == &s->ip ? 1 : s->callchain_nr, node, *detail);
	return node;
}

static void feed_sample(struct hot_load *l, const struct td_pd_record *r)
{
	const struct td_pd_sample *s = &r->sample;
	const double *counts = NULL;
	size_t k;
	uint32_t node;
	uint64_t weight;
	int detail;

	if (s->event != l->leader) {
		l->skipped_other++;
		return;
	}
	if (!l->hot)
		start_tree(l, s);
	if (s->fields & TD_PD_S_TIME) {
		if (!l->first_time || s->time < l->first_time)
			l->first_time = s->time;
		if (s->time > l->last_time)
			l->last_time = s->time;
	}
	if (s->fields & TD_PD_S_CALLCHAIN)
		l->callchains = 1;
	if (l->nr_counts && s->nr_values == l->nr_counts) {
		for (k = 0; k < l->nr_counts; k++)
			l->values[k] = s->values[k].value;
		if (td_hot_deltas(l->hot, s->values[0].id, l->values, l->deltas))
			counts = l->deltas;
		else
			l->backwards++;
	}
	/* a group sample weighs what its leader counted since the stream's
	 * previous sample, as perf report weighs it */
	weight = counts ? (uint64_t)counts[0] : (s->fields & TD_PD_S_PERIOD) ? s->period : 1;
	node = sample_node(l, r, &detail);
	td_hot_add_at(l->hot, node, weight, counts);
	if (l->per_thread && (s->fields & TD_PD_S_TID))
		tpath_add(l, s->tid, node, detail, weight, counts);
	if (detail >= 0) {
		if ((size_t)detail >= l->alloc_detail) {
			size_t old = l->alloc_detail, want = 2 * (size_t)detail + 16;

			l->detail_samples = xrealloc(l->detail_samples, want * sizeof(uint64_t));
			l->detail_period = xrealloc(l->detail_period, want * sizeof(uint64_t));
			memset(l->detail_samples + old, 0, (want - old) * sizeof(uint64_t));
			memset(l->detail_period + old, 0, (want - old) * sizeof(uint64_t));
			l->alloc_detail = want;
		}
		l->detail_samples[detail]++;
		l->detail_period[detail] += weight;
	}
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *frame_json(const struct td_frame *f)
{
	json_t *o = json_object();

	json_object_set_new(o, "symbol", json_string(f->name));
	json_object_set_new(o, "dso", json_string(f->dso));
	if (!f->known)
		json_object_set_new(o, "offset", json_integer((json_int_t)f->offset));
	if (f->source)
		json_object_set_new(o, "source", json_string(f->source));
	if (f->kernel)
		json_object_set_new(o, "kernel", json_true());
	return o;
}

static json_t *counts_json(const struct hot_load *l, const double *c)
{
	json_t *o = json_object();
	size_t k;

	for (k = 0; k < l->nr_counts; k++)
		json_object_set_new(o, l->count_names[k], num(c[k]));
	return o;
}

/* The "topdown" object of function i: nodes with value and interval, or why not. */
static json_t *topdown_json(const struct hot_load *l, size_t i)
{
	const struct td_hot_func *fn = td_hot_func(l->hot, i);
	struct td_hot_topdown td;
	json_t *o = json_object(), *nodes;
	size_t k;

	td_hot_topdown(l->table, l->count_names, l->nr_counts, td_hot_func_counts(l->hot, i),
		       td_hot_func_batches(l->hot, i), fn->self_samples, 2, l->smt_on, &td);
	json_object_set_new(o, "samples", json_integer((json_int_t)fn->self_samples));
	if (td.why) {
		json_object_set_new(o, "note", json_string(td.why));
	} else {
		nodes = json_array();
		for (k = 0; k < td.nr_nodes; k++) {
			const struct td_hot_td_node *n = &td.nodes[k];

			json_array_append_new(nodes, json_pack("{s:s, s:s, s:i, s:o, s:o, s:o, s:b}",
							       "id", n->metric->id, "name", n->metric->name,
							       "level", n->metric->level, "value", num(n->value),
							       "low", num(n->low), "high", num(n->high),
							       "bottleneck", n->bottleneck));
		}
		json_object_set_new(o, "nodes", nodes);
		json_object_set_new(o, "interval", json_string("95% batch means"));
		json_object_set_new(o, "slots", num(td_hot_slots(l->table, l->count_names, l->nr_counts,
								 td_hot_func_counts(l->hot, i), l->smt_on)));
	}
	td_hot_topdown_release(&td);
	return o;
}

/* Add samples and weight to name's [samples, period] in o. */
static void count_into(json_t *o, const char *name, uint64_t n, uint64_t period)
{
	json_t *v = json_object_get(o, name);

	if (!v) {
		v = json_pack("[I,I]", (json_int_t)0, (json_int_t)0);
		json_object_set_new(o, name, v);
	}
	json_array_set_new(v, 0, json_integer(json_integer_value(json_array_get(v, 0)) + (json_int_t)n));
	json_array_set_new(v, 1, json_integer(json_integer_value(json_array_get(v, 1)) + (json_int_t)period));
}

static int by_samples_desc(const void *x, const void *y)
{
	json_int_t a = json_integer_value(json_object_get(*(json_t *const *)x, "samples"));
	json_int_t b = json_integer_value(json_object_get(*(json_t *const *)y, "samples"));

	return a < b ? 1 : a > b ? -1 : 0;
}

/* {name: [n, period]} as [{key: name, samples: n, percent}], most samples first, at most max. */
static json_t *ranked(json_t *o, const char *key, size_t max, double total)
{
	size_t n = json_object_size(o), i = 0;
	json_t **v = xmalloc((n + 1) * sizeof(*v)), *out = json_array(), *val;
	const char *name;

	json_object_foreach(o, name, val)
		v[i++] = json_pack("{s:s, s:O, s:f}", key, name, "samples", json_array_get(val, 0), "percent",
				   100.0 * (double)json_integer_value(json_array_get(val, 1)) / total);
	qsort(v, n, sizeof(*v), by_samples_desc);
	for (i = 0; i < n; i++) {
		if (i < max)
			json_array_append(out, v[i]);
		json_decref(v[i]);
	}
	free(v);
	return out;
}

/*
 * Per function with debug info: its self samples by source line and by
 * inlined function ("lines", "inlined"; the 10 largest of each).
 */
static void add_details(const struct hot_load *l, json_t **by_frame)
{
	uint64_t n, p;
	size_t id;

	for (id = 0; id < l->alloc_detail; id++) {
		const struct td_sym_detail *d = td_sym_detail(l->sym, (int)id);
		json_t *fn;

		if (!d || !l->detail_samples[id] || !(fn = by_frame[d->frame]))
			continue;
		n = l->detail_samples[id];
		p = l->detail_period[id];
		if (d->source)
			count_into(json_object_get(fn, "lines"), d->source, n, p);
		count_into(json_object_get(fn, "inlined"), d->inlined ? d->inlined : "", n, p);
	}
}

static void finish_details(json_t *fn, double total)
{
	json_t *lines = json_object_get(fn, "lines"), *inl = json_object_get(fn, "inlined");

	json_object_del(inl, ""); /* samples outside any inlined function */
	if (json_object_size(lines))
		json_object_set_new(fn, "lines", ranked(lines, "source", 10, total));
	else
		json_object_del(fn, "lines");
	if (json_object_size(inl))
		json_object_set_new(fn, "inlined", ranked(inl, "symbol", 10, total));
	else
		json_object_del(fn, "inlined");
}

static json_t *functions_json(const struct hot_load *l)
{
	json_t *a = json_array();
	double total = (double)td_hot_total_period(l->hot);
	json_t **by_frame = xcalloc(td_sym_nr_frames(l->sym) + 1, sizeof(*by_frame));
	size_t i;

	for (i = 0; i < td_hot_nr_funcs(l->hot); i++) {
		const struct td_hot_func *fn = td_hot_func(l->hot, i);
		json_t *o = frame_json(td_sym_frame(l->sym, (size_t)fn->frame));

		json_object_set_new(o, "samples", json_integer((json_int_t)fn->self_samples));
		json_object_set_new(o, "children_samples", json_integer((json_int_t)fn->total_samples));
		json_object_set_new(o, "period", json_integer((json_int_t)fn->self_period));
		json_object_set_new(o, "children_period", json_integer((json_int_t)fn->total_period));
		json_object_set_new(o, "percent", num(100.0 * (double)fn->self_period / total));
		json_object_set_new(o, "children_percent", num(100.0 * (double)fn->total_period / total));
		if (l->nr_counts)
			json_object_set_new(o, "counts", counts_json(l, td_hot_func_counts(l->hot, i)));
		if (l->nr_counts && l->table && td_hot_func_counts(l->hot, i))
			json_object_set_new(o, "topdown", topdown_json(l, i));
		json_object_set_new(o, "lines", json_object());
		json_object_set_new(o, "inlined", json_object());
		by_frame[fn->frame] = o;
		json_array_append_new(a, o);
	}
	add_details(l, by_frame);
	for (i = 0; i < json_array_size(a); i++)
		finish_details(json_array_get(a, i), total);
	free(by_frame);
	return a;
}

/* Self share per DSO (e.g. the share of time in an MPI library). */
static json_t *dsos_json(const struct hot_load *l)
{
	json_t *by = json_object(), *a = json_array(), *v;
	double total = (double)td_hot_total_period(l->hot);
	const char *key;
	size_t i;

	for (i = 0; i < td_hot_nr_funcs(l->hot); i++) {
		const struct td_hot_func *fn = td_hot_func(l->hot, i);
		const struct td_frame *f = td_sym_frame(l->sym, (size_t)fn->frame);
		json_t *o = json_object_get(by, f->dso);

		if (!o) {
			o = json_pack("{s:s, s:I, s:I}", "dso", f->dso, "samples", (json_int_t)0, "period", (json_int_t)0);
			json_object_set_new(by, f->dso, o);
			json_array_append(a, o);
		}
		json_object_set_new(o, "samples", json_integer(json_integer_value(json_object_get(o, "samples")) +
							      (json_int_t)fn->self_samples));
		json_object_set_new(o, "period", json_integer(json_integer_value(json_object_get(o, "period")) +
							     (json_int_t)fn->self_period));
	}
	json_array_foreach(a, i, v) {
		struct strbuf hex = STRBUF_INIT;

		/* pprof's mappings and symbol servers find a file by its build-id */
		if (td_sym_build_id(l->sym, json_string_value(json_object_get(v, "dso")), &hex))
			json_object_set_new(v, "build_id", json_string(hex.buf));
		strbuf_release(&hex);
		json_object_set_new(v, "percent",
				    num(100.0 * (double)json_integer_value(json_object_get(v, "period")) / total));
		json_object_del(v, "period");
	}
	(void)key;
	json_decref(by);
	return a;
}

/*
 * The call-path tree as a flat array, parents before children: each node
 * names its frame (an index into "frames") and parent node.
 */
static json_t *callpaths_json(const struct hot_load *l, json_t **frames_out)
{
	json_t *a = json_array(), *frames = json_array();
	double total = (double)td_hot_total_period(l->hot);
	size_t i;

	for (i = 0; i < td_sym_nr_frames(l->sym); i++) {
		const struct td_frame *f = td_sym_frame(l->sym, i);
		json_t *o = json_pack("{s:s, s:s}", "symbol", f->name, "dso", f->dso);

		if (f->source)
			json_object_set_new(o, "source", json_string(f->source));
		if (f->kernel)
			json_object_set_new(o, "kernel", json_true());
		json_array_append_new(frames, o);
	}
	for (i = 0; i < td_hot_nr_nodes(l->hot); i++) {
		const struct td_hot_node *n = td_hot_node(l->hot, i);
		json_t *o = json_pack("{s:i, s:i, s:I, s:I, s:o, s:o}", "frame", n->frame, "parent", n->parent,
				      "samples", (json_int_t)n->self_samples,
				      "children_samples", (json_int_t)n->total_samples,
				      "percent", num(100.0 * (double)n->self_period / total),
				      "children_percent", num(100.0 * (double)n->total_period / total));

		/* the exports (pprof, folded, speedscope) weigh paths by period */
		json_object_set_new(o, "period", json_integer((json_int_t)n->self_period));
		json_object_set_new(o, "children_period", json_integer((json_int_t)n->total_period));
		if (l->nr_counts)
			json_object_set_new(o, "counts", counts_json(l, td_hot_node_counts(l->hot, i)));
		json_array_append_new(a, o);
	}
	*frames_out = frames;
	return a;
}

static int by_key(const void *x, const void *y)
{
	const struct thread_path *p = x, *q = y;

	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	return p->detail < q->detail ? -1 : p->detail > q->detail;
}

/*
 * The index in "details" of a leaf detail that has a source line, added
 * at its first use (ids maps the symbolizer's id to it); -1 without.
 */
static json_int_t detail_index(const struct hot_load *l, int id, json_t *details, json_t *ids)
{
	const struct td_sym_detail *d = td_sym_detail(l->sym, id);
	char key[16];
	json_t *v, *o, *chain;
	const char *line, *end;

	if (!d || !d->source)
		return -1;
	snprintf(key, sizeof(key), "%d", id);
	if ((v = json_object_get(ids, key)))
		return json_integer_value(v);
	o = json_pack("{s:i, s:s}", "frame", d->frame, "source", d->source);
	if (d->inline_chain) {
		chain = json_array();
		for (line = d->inline_chain; (end = strchr(line, '\n')); line = end + 1) {
			const char *tab = memchr(line, '\t', (size_t)(end - line));

			if (tab)
				json_array_append_new(chain, json_pack("[s%, s%]", line, (size_t)(tab - line),
								       tab + 1, (size_t)(end - tab - 1)));
		}
		json_object_set_new(o, "inline", chain);
	}
	json_object_set_new(ids, key, json_integer((json_int_t)json_array_size(details)));
	json_array_append_new(details, o);
	return (json_int_t)json_array_size(details) - 1;
}

static int by_period_desc(const void *x, const void *y)
{
	json_int_t a = json_integer_value(json_object_get(*(json_t *const *)x, "period"));
	json_int_t b = json_integer_value(json_object_get(*(json_t *const *)y, "period"));

	return a < b ? 1 : a > b ? -1 : 0;
}

/*
 * Per thread, the samples and period of each call-path node it sampled
 * ("threads": the exports' one profile per thread), most period first.
 */
static json_t *threads_json(const struct hot_load *l, json_t *details)
{
	json_t *ids = json_object();
	json_int_t di;
	struct thread_path *t = xcalloc(l->tpaths_used + 1, sizeof(*t));
	json_t **th = xcalloc(l->tpaths_used + 1, sizeof(*th)), *a = json_array(), *cur = NULL, *p;
	size_t i, n = 0, nr_th = 0;
	uint32_t cur_tid = 0;

	for (i = 0; i < l->tpaths_size; i++)
		if (l->tpaths[i].key)
			t[n++] = l->tpaths[i];
	qsort(t, n, sizeof(*t), by_key);
	for (i = 0; i < n; i++) {
		uint32_t tid = (uint32_t)((t[i].key - 1) >> 32), node = (uint32_t)(t[i].key - 1);

		if (!cur || tid != cur_tid) {
			char key[16];
			json_t *c;

			snprintf(key, sizeof(key), "%u", tid);
			c = json_object_get(l->comms, key);
			cur = json_pack("{s:I, s:O, s:O, s:I, s:I, s:[]}", "tid", (json_int_t)tid,
					"pid", c ? json_object_get(c, "pid") : json_null(),
					"name", c ? json_object_get(c, "name") : json_null(),
					"samples", (json_int_t)0, "period", (json_int_t)0, "paths");
			th[nr_th++] = cur;
			cur_tid = tid;
		}
		p = json_pack("[I, I, I]", (json_int_t)node, (json_int_t)t[i].samples, (json_int_t)t[i].period);
		if (t[i].counts) {
			json_t *c = json_array();
			size_t k;

			for (k = 0; k < l->nr_counts; k++)
				json_array_append_new(c, num(t[i].counts[k]));
			json_array_append_new(p, c);
		}
		di = detail_index(l, t[i].detail, details, ids);
		if (di >= 0) {
			if (!t[i].counts)
				json_array_append_new(p, json_null());
			json_array_append_new(p, json_integer(di));
		}
		json_array_append_new(json_object_get(cur, "paths"), p);
		json_object_set_new(cur, "samples", json_integer(json_integer_value(json_object_get(cur, "samples")) +
								  (json_int_t)t[i].samples));
		json_object_set_new(cur, "period", json_integer(json_integer_value(json_object_get(cur, "period")) +
								 (json_int_t)t[i].period));
	}
	qsort(th, nr_th, sizeof(*th), by_period_desc);
	for (i = 0; i < nr_th; i++)
		json_array_append_new(a, th[i]);
	free(th);
	free(t);
	json_decref(ids);
	return a;
}

/*
 * perf.data's CPUID feature spells x86 CPUs "GenuineIntel,6,85,4" (all
 * decimal); the tables match perf's pmu-events form "GenuineIntel-6-55-4"
 * (model in hex).  Other strings are kept as they are.
 */
static char *table_cpuid(const char *cpuid)
{
	char vendor[32];
	unsigned fam, model, step;
	struct strbuf sb = STRBUF_INIT;

	if (sscanf(cpuid, "%31[^,],%u,%u,%u", vendor, &fam, &model, &step) == 4)
		strbuf_addf(&sb, "%s-%u-%X-%u", vendor, fam, model, step);
	else
		strbuf_addstr(&sb, cpuid);
	return strbuf_detach(&sb, NULL);
}

/*
 * The SMT state the formulas assume (#smt_on): --smt, else the one the run
 * directory's recording chose its events for (meta.json), else off.  On
 * SMT parts the sampled group holds different events with SMT on
 * (Skylake's CPU_CLK_UNHALTED.THREAD_ANY), which only #smt_on = 1 reads.
 */
static int recorded_smt(const struct hot_load *l, const struct td_report_opts *opts)
{
	char *path;
	json_t *meta;
	int on = 0;

	if (opts && opts->smt)
		return !strcmp(opts->smt, "on");
	if (!l->rundir)
		return 0;
	path = td_path_join(l->rundir, "meta.json");
	meta = td_file_exists(path) ? json_load_file(path, 0, NULL) : NULL;
	on = json_is_true(json_object_get(json_object_get(meta, "smt"), "on"));
	json_decref(meta);
	free(path);
	return on;
}

/*
 * The table for Top-Down per function: --table, --cpu, the table the run
 * directory's recording chose its events from (table.json), else the
 * CPUID the recording stored.  Without one, table_note says why.
 */
static void pick_table(struct hot_load *l, const struct td_report_opts *opts)
{
	struct strbuf err = STRBUF_INIT;
	const char *recorded = td_pd_feature_string(l->pd, TD_PD_FEAT_CPUID);
	char *cpu = opts && opts->cpu ? xstrdup(opts->cpu) : recorded ? table_cpuid(recorded) : NULL;
	char *run_table = l->rundir ? td_path_join(l->rundir, "table.json") : NULL;

	l->smt_on = recorded_smt(l, opts);
	if (opts && opts->table) {
		l->own_table = td_table_load(opts->table, &err);
		l->table = l->own_table;
	} else if (!(opts && opts->cpu) && run_table && td_file_exists(run_table)) {
		l->own_table = td_table_load(run_table, &err);
		l->table = l->own_table;
	} else if (cpu) {
		l->table = td_table_find(cpu, &err);
	} else {
		strbuf_addstr(&err, "the recording names no CPU (give --cpu)");
	}
	if (!l->table) {
		struct strbuf note = STRBUF_INIT;

		strbuf_addf(&note, "no Top-Down table: %s", err.buf);
		l->table_note = strbuf_detach(&note, NULL);
	} else {
		/* a group of other events (software ones, say): said once, not per function */
		struct td_hot_topdown td;

		td_hot_topdown(l->table, l->count_names, l->nr_counts, td_hot_total_counts(l->hot), NULL,
			       TD_HOT_MIN_SAMPLES, 1, l->smt_on, &td);
		if (td.why) {
			l->table_note = td.why;
			td.why = NULL;
			l->table = NULL;
		}
		td_hot_topdown_release(&td);
	}
	free(cpu);
	free(run_table);
	strbuf_release(&err);
}

static json_t *build_doc(const struct hot_load *l, const char *path, unsigned flags)
{
	json_t *doc = json_object(), *h = json_object(), *frames, *paths, *names;
	size_t k;

	json_object_set_new(doc, "schema_version", json_integer(TD_REPORT_SCHEMA_VERSION));
	json_object_set_new(h, "source", json_string(path));
	json_object_set_new(h, "event", json_string(l->leader->name));
	json_object_set_new(h, "samples", json_integer((json_int_t)td_hot_total_samples(l->hot)));
	json_object_set_new(h, "period", json_integer((json_int_t)td_hot_total_period(l->hot)));
	json_object_set_new(h, "callchains", json_boolean(l->callchains));
	if (l->last_time > l->first_time)
		json_object_set_new(h, "duration_ns", json_integer((json_int_t)(l->last_time - l->first_time)));
	if (l->skipped_other)
		json_object_set_new(h, "other_event_samples", json_integer((json_int_t)l->skipped_other));
	if (l->nr_counts) {
		names = json_array();
		for (k = 0; k < l->nr_counts; k++)
			json_array_append_new(names, json_string(l->count_names[k]));
		json_object_set_new(h, "group", names);
		if (l->table)
			json_object_set_new(h, "table", json_string(td_table_info(l->table)->name));
		if (l->table_note)
			json_object_set_new(h, "topdown_note", json_string(l->table_note));
		if (l->backwards)
			json_object_set_new(h, "samples_without_interval", json_integer((json_int_t)l->backwards));
	}
	json_object_set_new(h, "dsos", dsos_json(l));
	json_object_set_new(h, "mpi", hot_mpi_json(l->hot, l->sym));
	if (flags & TD_HOT_CALLPATHS) {
		paths = callpaths_json(l, &frames);
		json_object_set_new(h, "frames", frames);
		json_object_set_new(h, "callpaths", paths);
		if (l->tpaths_used) {
			json_t *details = json_array();

			json_object_set_new(h, "threads", threads_json(l, details));
			json_object_set_new(h, "details", details);
		}
	}
	json_object_set_new(doc, "profile", h);
	json_object_set_new(doc, "hotspots", functions_json(l));
	return doc;
}

/* The samples of a run directory (hotspots.data, else perf.data), or the file itself. */
static char *perf_data_path(const char *input)
{
	char *p;

	if (!td_is_dir(input))
		return xstrdup(input);
	p = td_path_join(input, "hotspots.data");
	if (td_file_exists(p))
		return p;
	free(p);
	return td_path_join(input, "perf.data");
}

/* The hotspots document of perf.data 'pd' (of run directory 'rundir', or NULL). */
static json_t *load_pd(struct td_pd *pd, const char *path, const char *rundir,
		       const struct td_report_opts *opts, unsigned flags, struct strbuf *err)
{
	struct hot_load l;
	const struct td_pd_record *r;
	json_t *doc = NULL;
	size_t k;
	int ret;

	memset(&l, 0, sizeof(l));
	l.pd = pd;
	l.rundir = rundir;
	pick_leader(&l);
	l.sym = td_sym_new(l.pd);
	if (flags & TD_HOT_NO_FILES)
		td_sym_offline(l.sym);
	if (flags & TD_HOT_NO_DEMANGLE)
		td_sym_no_demangle(l.sym);
	l.chains = hot_chains_new();
	l.comms = json_object();
	l.per_thread = !!(flags & TD_HOT_CALLPATHS);
	while ((ret = td_pd_next(l.pd, &r)) > 0) {
		if (r->type == TD_PD_SAMPLE) {
			feed_sample(&l, r);
			continue;
		}
		if (r->type == TD_PD_COMM) {
			char key[16];

			snprintf(key, sizeof(key), "%u", r->u.comm.tid);
			json_object_set_new(l.comms, key, json_pack("{s:s, s:I}", "name", r->u.comm.comm,
								    "pid", (json_int_t)r->u.comm.pid));
		}
		td_sym_feed(l.sym, r);
	}
	if (ret < 0)
		strbuf_addstr(err, td_pd_error(l.pd));
	else if (!l.hot)
		strbuf_addf(err, "%s: no samples (record some with tdperf record --hotspots or perf record)", path);
	else {
		if (l.nr_counts)
			pick_table(&l, opts);
		td_hot_finish(l.hot);
		doc = build_doc(&l, path, flags);
	}
	td_sym_free(l.sym);
	hot_chains_free(l.chains);
	td_hot_free(l.hot);
	free(l.frames);
	free(l.values);
	free(l.deltas);
	free(l.count_names);
	free(l.detail_samples);
	free(l.detail_period);
	for (k = 0; k < l.tpaths_size; k++)
		free(l.tpaths[k].counts);
	free(l.tpaths);
	json_decref(l.comms);
	free(l.table_note);
	td_table_free(l.own_table);
	return doc;
}

json_t *td_hotspots_load_pd(struct td_pd *pd, const char *path, const struct td_report_opts *opts,
			    unsigned flags, struct strbuf *err)
{
	return load_pd(pd, path, NULL, opts, flags, err);
}

json_t *td_hotspots_load(const char *input, const struct td_report_opts *opts, unsigned flags,
			 struct strbuf *err)
{
	char *path = perf_data_path(input);
	struct td_pd *pd = td_pd_open(path, 0, err);
	json_t *doc = NULL;

	if (pd) {
		doc = load_pd(pd, path, td_is_dir(input) ? input : NULL, opts, flags, err);
		td_pd_close(pd);
	}
	free(path);
	return doc;
}
