/*
 * bench-tree: the cost of evaluating a full Top-Down tree (all levels and
 * info metrics) over many count sets, compared with the cost of reading
 * the same numbers from text.
 *
 * usage: bench/bench-tree [TABLE [SETS]]   (default sapphirerapids, 100000)
 *
 * The count sets are generated here (pseudo-random counts for every event
 * the table's formulas use, SMT on); they stand for intervals x CPUs of a
 * real run.  Lookups go through a hash of the names, as a count model
 * would do.  Times are CPU time of this process (the machine may be
 * shared).
 */
#include "metrics/expr.h"
#include "metrics/table.h"
#include "metrics/tree.h"
#include "parse/parse.h"
#include "util/util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HASH_SIZE 4096

struct bench {
	char *names[HASH_SIZE];   /* open addressing */
	int index[HASH_SIZE];
	size_t nr_events;
	const double *set;        /* the current count set */
	unsigned long long lookups;
};

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int slot_of(struct bench *b, const char *name)
{
	uint32_t h = hash(name) & (HASH_SIZE - 1);

	while (b->names[h] && strcmp(b->names[h], name))
		h = (h + 1) & (HASH_SIZE - 1);
	return (int)h;
}

static void add_name(void *ctx, const char *name, enum td_name_kind kind)
{
	struct bench *b = ctx;
	int s;

	if (kind == TD_NAME_METRIC)
		return;
	s = slot_of(b, name);
	if (!b->names[s]) {
		b->names[s] = xstrdup(name);
		b->index[s] = (int)b->nr_events++;
	}
}

static int lookup(void *ctx, const char *name, double *value)
{
	struct bench *b = ctx;
	int s = slot_of(b, name);

	b->lookups++;
	if (!b->names[s])
		return -1;
	*value = b->set[b->index[s]];
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int is_metric(void *ctx, const char *name)
{
	return td_table_find_metric(ctx, name) != NULL;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "sapphirerapids";
	size_t sets = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct bench *b = xcalloc(1, sizeof(*b));
	struct td_env env = { lookup, b };
	const struct td_table *t = td_table_find(name, &err);
	double *counts, t0, t1, t2, sum = 0, parsed = 0;
	size_t i, j, nodes = 0, nan_nodes = 0, warnings = 0, read_sets = 0;
	unsigned long long seed = 88172645463325252ULL;

	if (!t)
		die("%s", err.buf);
	for (i = 0; i < td_table_nr_metrics(t); i++) {
		const struct td_metric *m = td_table_metric(t, i);
		size_t f;

		for (f = 0; f < m->nr_formulas; f++)
			td_expr_names(m->formulas[f].expr, NULL, is_metric, (void *)t, add_name, b);
	}
	add_name(b, "#smt_on", TD_NAME_LITERAL);
	counts = xmalloc(sets * b->nr_events * sizeof(*counts));
	for (i = 0; i < sets * b->nr_events; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		/* counts of similar size (1e8..1.2e8) keep most ratios plausible */
		counts[i] = 1e8 * (1 + (double)(seed % 1000000ULL) / 5e6);
	}
	for (i = 0; i < sets; i++)
		counts[i * b->nr_events + b->index[slot_of(b, "#smt_on")]] = 1;

	t0 = now();
	for (i = 0; i < sets; i++) {
		struct td_tree_result r;

		b->set = counts + i * b->nr_events;
		td_tree_eval(t, &env, NULL, &r);
		nodes += r.nr_nodes + r.nr_info;
		warnings += r.nr_warnings;
		for (j = 0; j < r.nr_nodes; j++) {
			if (isnan(r.nodes[j].value))
				nan_nodes++;
			else
				sum += r.nodes[j].value;
		}
		td_tree_result_release(&r);
	}
	t1 = now();

	if (getenv("BENCH_EVAL_ONLY"))
		return 0;
	/*
	 * The reading baseline: the same counts as perf stat -x, -I interval
	 * output, read by tdperf's own parser (parse/).  One interval per set.
	 */
	{
		size_t rsets = sets < 2000 ? sets : 2000;
		struct td_stat_file *f;

		for (i = 0; i < rsets; i++)
			for (j = 0; j < HASH_SIZE; j++) {
				char *pn, *c;

				if (!b->names[j] || b->names[j][0] == '#')
					continue;
				/* perf prints cpu@EV,cmask=1@ as cpu/EV,cmask=1/ */
				pn = xstrdup(b->names[j]);
				for (c = pn; *c; c++)
					if (*c == '@')
						*c = '/';
				strbuf_addf(&text, "%zu.000100000,%.0f,,%s,1000000,100.00,,\n", i + 1,
					    counts[i * b->nr_events + b->index[j]], pn);
				free(pn);
			}
		t2 = now();
		f = td_stat_parse(text.buf, text.len, "bench.csv", &err);
		t2 = now() - t2;
		if (!f)
			die("%s", err.buf);
		for (i = 0; i < f->nr_sessions; i++)
			parsed += f->sessions[i].nr_scopes;
		td_stat_file_free(f);
		read_sets = rsets;
	}

	printf("table %s: %zu metrics (%zu tree nodes evaluated per set), %zu distinct inputs\n",
	       td_table_info(t)->name, td_table_nr_metrics(t), nodes / sets, b->nr_events);
	printf("%zu count sets: %.3f s, %.2f us per tree evaluation, %.1f ns per metric,"
	       " %.1f lookups per set\n", sets, t1 - t0, (t1 - t0) / sets * 1e6,
	       (t1 - t0) / nodes * 1e9, (double)b->lookups / sets);
	printf("reading %zu of these sets as perf stat -x, -I output with tdperf's parser: %.3f s,"
	       " %.2f us per set\n", read_sets, t2, t2 / read_sets * 1e6);
	printf("(checksum %.6g, %zu NaN nodes, %.1f sanity warnings per set, %.6g)\n", sum, nan_nodes,
	       (double)warnings / sets, parsed);
	free(counts);
	strbuf_release(&text);
	strbuf_release(&err);
	for (i = 0; i < HASH_SIZE; i++)
		free(b->names[i]);
	free(b);
	return 0;
}
