/*
 * Hotspots: where the samples of a recording fall, per function and per
 * call path, with the self ("no children") and inclusive ("children")
 * shares that perf report prints.
 *
 * Samples are streamed in; each is a call path (frame ids, leaf first),
 * a weight (the sample period, as perf report weighs) and, for leader-
 * sampled groups, the counts the group's members advanced since the
 * thread's previous sample.  Everything is kept in a call-path tree keyed
 * by (parent path, frame), so memory grows with the number of distinct
 * call paths, never with the number of samples.  Per-function sums are
 * derived from the tree at the end: a function's inclusive share counts
 * each sample once even when the function recurses (as perf does).
 */
#include "metrics/hotspots.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

struct node_slot {
	uint32_t parent;        /* node index + 1; 0 = empty slot */
	int frame;
	uint32_t node;
};

struct td_hot {
	size_t nr_counts;
	struct td_hot_node *nodes;    /* [0] is the root (frame -1) */
	size_t nr_nodes, alloc_nodes;
	double *node_counts;          /* nr_nodes x nr_counts self sums */
	size_t alloc_counts;
	struct node_slot *slots;
	size_t cap;
	uint64_t total_period, total_samples;
	double *total_counts;
	/* per counter stream (the leader's sample id: one per thread with
	 * inherit, one per CPU with -a): the previous group values */
	struct { uint64_t tid; uint64_t *last; } *threads; /* by stream */
	size_t nr_threads, alloc_threads;
	/* per leaf frame: samples, and count sums of TD_HOT_BATCHES interleaved
	 * batches of its samples (for confidence intervals) */
	uint64_t *frame_samples;
	double *frame_batches;        /* frame x batch x nr_counts */
	size_t alloc_frames;
	/* results */
	struct td_hot_func *funcs;
	size_t nr_funcs;
	double *func_counts;          /* self, nr_funcs x nr_counts */
};

static uint64_t slot_hash(uint32_t parent, int frame)
{
	uint64_t x = ((uint64_t)parent << 32) ^ (uint32_t)frame;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

struct td_hot *td_hot_new(size_t nr_counts)
{
	struct td_hot *h = xcalloc(1, sizeof(*h));

	h->nr_counts = nr_counts;
	h->cap = 1024;
	h->slots = xcalloc(h->cap, sizeof(*h->slots));
	h->total_counts = xcalloc(nr_counts ? nr_counts : 1, sizeof(double));
	td_grow((void **)&h->nodes, &h->alloc_nodes, 1, sizeof(*h->nodes));
	memset(&h->nodes[0], 0, sizeof(h->nodes[0]));
	h->nodes[0].frame = -1;
	h->nodes[0].parent = -1;
	h->nr_nodes = 1;
	h->node_counts = xcalloc(h->nr_counts ? h->nr_counts : 1, sizeof(double));
	h->alloc_counts = 1;
	return h;
}

void td_hot_free(struct td_hot *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nr_threads; i++)
		free(h->threads[i].last);
	free(h->threads);
	free(h->nodes);
	free(h->node_counts);
	free(h->slots);
	free(h->total_counts);
	free(h->funcs);
	free(h->func_counts);
	free(h->frame_samples);
	free(h->frame_batches);
	free(h);
}

static void rehash(struct td_hot *h)
{
	struct node_slot *old = h->slots;
	size_t oldcap = h->cap, i, j, mask;

	h->cap *= 2;
	h->slots = xcalloc(h->cap, sizeof(*h->slots));
	mask = h->cap - 1;
	for (j = 0; j < oldcap; j++) {
		if (!old[j].parent)
			continue;
		for (i = slot_hash(old[j].parent, old[j].frame) & mask; h->slots[i].parent; i = (i + 1) & mask)
			;
		h->slots[i] = old[j];
	}
	free(old);
}

/* The child of node 'parent' for 'frame', created when new. */
static uint32_t child_of(struct td_hot *h, uint32_t parent, int frame)
{
	size_t mask = h->cap - 1, i;
	struct td_hot_node *n;

	for (i = slot_hash(parent + 1, frame) & mask; h->slots[i].parent; i = (i + 1) & mask)
		if (h->slots[i].parent == parent + 1 && h->slots[i].frame == frame)
			return h->slots[i].node;
	td_grow((void **)&h->nodes, &h->alloc_nodes, h->nr_nodes + 1, sizeof(*h->nodes));
	n = &h->nodes[h->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->frame = frame;
	n->parent = (int)parent;
	if (h->nr_counts && h->nr_nodes + 1 > h->alloc_counts) {
		size_t want = h->alloc_nodes;

		h->node_counts = xrealloc(h->node_counts, want * h->nr_counts * sizeof(double));
		memset(h->node_counts + h->alloc_counts * h->nr_counts, 0,
		       (want - h->alloc_counts) * h->nr_counts * sizeof(double));
		h->alloc_counts = want;
	}
	h->slots[i].parent = parent + 1;
	h->slots[i].frame = frame;
	h->slots[i].node = (uint32_t)h->nr_nodes;
	h->nr_nodes++;
	if (h->nr_nodes * 2 > h->cap)
		rehash(h);
	return (uint32_t)(h->nr_nodes - 1);
}

/* Count sums of a leaf frame, in batch (sample number mod TD_HOT_BATCHES). */
static void add_to_batch(struct td_hot *h, int frame, const double *counts)
{
	size_t f = (size_t)frame, k, old = h->alloc_frames, b;
	double *row;

	if (f >= h->alloc_frames) {
		size_t want = f + 1 > 2 * old ? f + 1 : 2 * old;

		h->frame_samples = xrealloc(h->frame_samples, want * sizeof(uint64_t));
		memset(h->frame_samples + old, 0, (want - old) * sizeof(uint64_t));
		h->frame_batches = xrealloc(h->frame_batches, want * TD_HOT_BATCHES * h->nr_counts * sizeof(double));
		memset(h->frame_batches + old * TD_HOT_BATCHES * h->nr_counts, 0,
		       (want - old) * TD_HOT_BATCHES * h->nr_counts * sizeof(double));
		h->alloc_frames = want;
	}
	b = h->frame_samples[f]++ % TD_HOT_BATCHES;
	row = h->frame_batches + (f * TD_HOT_BATCHES + b) * h->nr_counts;
	for (k = 0; k < h->nr_counts; k++)
		row[k] += counts[k];
}

uint32_t td_hot_path(struct td_hot *h, const int *frames, size_t n)
{
	uint32_t node = 0;
	size_t i;

	for (i = n; i-- > 0;)
		node = child_of(h, node, frames[i]);
	return node;
}

void td_hot_add_at(struct td_hot *h, uint32_t node, uint64_t period, const double *counts)
{
	size_t k;

	h->nodes[node].self_period += period;
	h->nodes[node].self_samples++;
	h->total_period += period;
	h->total_samples++;
	if (counts && h->nr_counts) {
		for (k = 0; k < h->nr_counts; k++) {
			h->node_counts[node * h->nr_counts + k] += counts[k];
			h->total_counts[k] += counts[k];
		}
		if (node)
			add_to_batch(h, h->nodes[node].frame, counts);
	}
}

void td_hot_add(struct td_hot *h, const int *frames, size_t n, uint64_t period, const double *counts)
{
	td_hot_add_at(h, td_hot_path(h, frames, n), period, counts);
}

int td_hot_deltas(struct td_hot *h, uint64_t stream, const uint64_t *values, double *deltas)
{
	size_t i, k;

	for (i = 0; i < h->nr_threads; i++)
		if (h->threads[i].tid == stream)
			break;
	if (i == h->nr_threads) {
		/* counters start at zero when enabled: the first interval runs from there */
		td_grow((void **)&h->threads, &h->alloc_threads, h->nr_threads + 1, sizeof(*h->threads));
		h->threads[i].tid = stream;
		h->threads[i].last = xcalloc(h->nr_counts ? h->nr_counts : 1, sizeof(uint64_t));
		h->nr_threads++;
	}
	for (k = 0; k < h->nr_counts; k++) {
		/* counts only grow; a smaller value would be a restarted counter */
		if (values[k] < h->threads[i].last[k])
			return 0;
		deltas[k] = (double)(values[k] - h->threads[i].last[k]);
		h->threads[i].last[k] = values[k];
	}
	return 1;
}

/* ---- results ---- */

static int func_cmp(const void *a, const void *b)
{
	const struct td_hot_func *x = a, *y = b;

	if (x->self_period != y->self_period)
		return x->self_period < y->self_period ? 1 : -1;
	if (x->total_period != y->total_period)
		return x->total_period < y->total_period ? 1 : -1;
	return x->frame - y->frame;
}

/*
 * Per node: total (subtree) period and samples, by one pass from the last
 * node back (a child always has a larger index than its parent).  Then
 * per function: self sums, and inclusive sums over the outermost
 * occurrence of the function on each path.
 */
void td_hot_finish(struct td_hot *h)
{
	size_t i, k, nr_frames = 0;
	int *func_of_frame, *active;
	size_t *stack;

	for (i = h->nr_nodes; i-- > 1;) {
		struct td_hot_node *n = &h->nodes[i];

		n->total_period += n->self_period;
		n->total_samples += n->self_samples;
		h->nodes[n->parent].total_period += n->total_period;
		h->nodes[n->parent].total_samples += n->total_samples;
		if ((size_t)n->frame + 1 > nr_frames)
			nr_frames = (size_t)n->frame + 1;
	}
	h->nodes[0].total_period += h->nodes[0].self_period;
	h->nodes[0].total_samples += h->nodes[0].self_samples;
	func_of_frame = xmalloc((nr_frames + 1) * sizeof(int));
	active = xcalloc(nr_frames + 1, sizeof(int));
	for (i = 0; i < nr_frames; i++)
		func_of_frame[i] = -1;
	free(h->funcs);
	free(h->func_counts);
	h->funcs = xcalloc(nr_frames + 1, sizeof(*h->funcs));
	h->func_counts = xcalloc((nr_frames + 1) * (h->nr_counts ? h->nr_counts : 1), sizeof(double));
	h->nr_funcs = 0;
	for (i = 1; i < h->nr_nodes; i++) {
		int f = h->nodes[i].frame;

		if (func_of_frame[f] < 0) {
			func_of_frame[f] = (int)h->nr_funcs;
			h->funcs[h->nr_funcs].frame = f;
			h->nr_funcs++;
		}
	}
	/* depth-first walk by an explicit stack over child lists */
	{
		size_t *first_child = xmalloc(h->nr_nodes * sizeof(size_t));
		size_t *next_sibling = xmalloc(h->nr_nodes * sizeof(size_t));
		size_t top = 0;
		char *entered = xcalloc(h->nr_nodes, 1);

		for (i = 0; i < h->nr_nodes; i++)
			first_child[i] = next_sibling[i] = 0;
		for (i = h->nr_nodes; i-- > 1;) {
			size_t p = (size_t)h->nodes[i].parent;

			next_sibling[i] = first_child[p];
			first_child[p] = i;
		}
		stack = xmalloc((h->nr_nodes + 1) * sizeof(size_t));
		stack[top++] = 0;
		while (top) {
			size_t n = stack[top - 1];
			struct td_hot_func *fn;

			if (n && entered[n]) { /* leaving */
				active[func_of_frame[h->nodes[n].frame]]--;
				top--;
				continue;
			}
			if (!n) {
				top--;
			} else {
				entered[n] = 1;
				fn = &h->funcs[func_of_frame[h->nodes[n].frame]];
				fn->self_period += h->nodes[n].self_period;
				fn->self_samples += h->nodes[n].self_samples;
				for (k = 0; k < h->nr_counts; k++)
					h->func_counts[(size_t)func_of_frame[h->nodes[n].frame] * h->nr_counts + k] +=
						h->node_counts[n * h->nr_counts + k];
				if (!active[func_of_frame[h->nodes[n].frame]]++) {
					fn->total_period += h->nodes[n].total_period;
					fn->total_samples += h->nodes[n].total_samples;
				}
			}
			for (i = first_child[n]; i; i = next_sibling[i])
				stack[top++] = i;
		}
		free(first_child);
		free(next_sibling);
		free(entered);
		free(stack);
	}
	/* sort, carrying the count rows along */
	{
		double *sorted = xcalloc((h->nr_funcs + 1) * (h->nr_counts ? h->nr_counts : 1), sizeof(double));

		for (i = 0; i < h->nr_funcs; i++)
			h->funcs[i].index = (int)i;
		qsort(h->funcs, h->nr_funcs, sizeof(*h->funcs), func_cmp);
		for (i = 0; i < h->nr_funcs; i++)
			memcpy(sorted + i * h->nr_counts, h->func_counts + (size_t)h->funcs[i].index * h->nr_counts,
			       h->nr_counts * sizeof(double));
		free(h->func_counts);
		h->func_counts = sorted;
	}
	free(func_of_frame);
	free(active);
}

uint64_t td_hot_total_period(const struct td_hot *h) { return h->total_period; }
uint64_t td_hot_total_samples(const struct td_hot *h) { return h->total_samples; }
size_t td_hot_nr_funcs(const struct td_hot *h) { return h->nr_funcs; }
const struct td_hot_func *td_hot_func(const struct td_hot *h, size_t i) { return &h->funcs[i]; }
const double *td_hot_func_counts(const struct td_hot *h, size_t i)
{
	return h->nr_counts ? h->func_counts + i * h->nr_counts : NULL;
}
size_t td_hot_nr_nodes(const struct td_hot *h) { return h->nr_nodes; }
const struct td_hot_node *td_hot_node(const struct td_hot *h, size_t i) { return &h->nodes[i]; }
const double *td_hot_node_counts(const struct td_hot *h, size_t i)
{
	return h->nr_counts ? h->node_counts + i * h->nr_counts : NULL;
}

const double *td_hot_func_batches(const struct td_hot *h, size_t i)
{
	size_t f = (size_t)h->funcs[i].frame;

	return h->nr_counts && f < h->alloc_frames ? h->frame_batches + f * TD_HOT_BATCHES * h->nr_counts : NULL;
}

const double *td_hot_total_counts(const struct td_hot *h)
{
	return h->nr_counts ? h->total_counts : NULL;
}
