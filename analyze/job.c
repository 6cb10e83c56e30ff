/*
 * The merged report of a job directory (docs/job-format.md): one run
 * directory per rank, read through td_report_load like any run, summed up
 * per rank (analyze/job-rank.c), then compared across ranks: min / mean /
 * max per metric, the imbalance (max over mean), the outlier ranks with
 * the component that grows in them, a summary per node, and the job-wide
 * Top-Down tree weighted by each rank's cycles.
 *
 * The document keeps the report schema (docs/report-schema.md) and adds
 * "job", "ranks", "nodes" and "imbalance"; every renderer reads those.
 */
#include "config.h"
#include "analyze/analyze-int.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A rank is an outlier when its CPU time is this much above the median. */
#define OUTLIER_RATIO 1.2
/* ... and by at least this many seconds (below, noise of a short run). */
#define OUTLIER_MIN_S 0.01
/* A size beyond this is a corrupt meta.json, not a job: missing ranks are not listed. */
#define MAX_JOB_RANKS (1L << 24)

int td_report_is_job(const char *path)
{
	char *mp;
	json_t *m;
	int yes;

	if (!td_is_dir(path))
		return 0;
	mp = td_path_join(path, "meta.json");
	m = td_file_exists(mp) ? json_load_file(mp, 0, NULL) : NULL;
	yes = m && td_json_str(m, "format") && !strcmp(td_json_str(m, "format"), "tdperf-job");
	json_decref(m);
	free(mp);
	return yes;
}

/*
 * "rank-00012.HOST" -> 12, with *state 0 (complete), 1 (".tmp-PID":
 * a rank still writing, or one that died) or -1 (not a rank directory, or
 * a previous rank kept as ".old").
 */
static long parse_rank_name(const char *name, int *state)
{
	char *end;
	long rank;

	*state = -1;
	if (strncmp(name, "rank-", 5) || name[5] < '0' || name[5] > '9')
		return -1;
	rank = strtol(name + 5, &end, 10);
	if (*end != '.' || !end[1])
		return -1;
	if (strstr(end, ".tmp-"))
		*state = 1;
	else if (strlen(end) >= 4 && !strcmp(end + strlen(end) - 4, ".old"))
		return -1;
	else
		*state = 0;
	return rank;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directory's entries, sorted (the order of ranks, host names). */
static char **sorted_entries(const char *dir, size_t *nr, struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t alloc = 0;

	*nr = 0;
	if (!d) {
		strbuf_addf(err, "%s: cannot read the job directory: %s", dir, strerror(errno));
		return NULL;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		TD_GROW(names, alloc, *nr + 1);
		names[(*nr)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*nr)
		qsort(names, *nr, sizeof(*names), compare_names);
	return names;
}

static void add_warning(json_t *doc, const char *text)
{
	json_array_append_new(json_object_get(doc, "warnings"),
			      json_pack("{s:s, s:s}", "severity", "warning", "text", text));
}

/*
 * Read every rank directory of 'dir' into summaries (job-rank.c).  Ranks of
 * another job (a job id that differs from the job's) are set aside as
 * foreign, ".tmp-PID" directories named as incomplete.
 */
static void collect_ranks(json_t *doc, const char *dir, char **names, size_t nr,
			  const struct td_report_opts *opts, const char *job_id)
{
	json_t *job = json_object_get(doc, "job"), *ranks = json_object_get(doc, "ranks");
	json_t *incomplete = json_object_get(job, "incomplete"), *foreign = json_object_get(job, "foreign");
	json_t *unreadable = json_object_get(job, "unreadable");
	size_t i;

	for (i = 0; i < nr; i++) {
		struct strbuf err = STRBUF_INIT;
		char *path;
		json_t *sum;
		int state;
		long rank = parse_rank_name(names[i], &state);

		if (state < 0)
			continue;
		if (state == 1) {
			json_array_append_new(incomplete, json_pack("{s:I, s:s}", "rank", (json_int_t)rank,
								    "dir", names[i]));
			continue;
		}
		path = td_path_join(dir, names[i]);
		sum = td_report_rank_summary_load(path, opts, &err);
		free(path);
		if (!sum) {
			json_array_append_new(unreadable, json_pack("{s:I, s:s, s:s}", "rank", (json_int_t)rank,
								    "dir", names[i], "error", err.buf));
			strbuf_release(&err);
			continue;
		}
		strbuf_release(&err);
		json_object_set_new(sum, "dir", json_string(names[i]));
		if (!json_is_integer(json_object_get(sum, "rank"))) /* a run recorded outside a launcher */
			json_object_set_new(sum, "rank", json_integer(rank));
		if (job_id && td_json_str(sum, "job_id") && strcmp(job_id, td_json_str(sum, "job_id"))) {
			json_array_append_new(foreign, json_pack("{s:I, s:s, s:O}", "rank", (json_int_t)rank,
				"dir", names[i], "job_id", json_object_get(sum, "job_id")));
			json_decref(sum);
			continue;
		}
		json_array_append_new(ranks, sum);
	}
}

/* Mark the ranks of 'list' (objects with "rank") in seen[0..size-1]. */
static void mark_seen(json_t *list, char *seen, long size)
{
	json_t *r;
	size_t i;

	json_array_foreach(list, i, r) {
		long rank = (long)json_integer_value(json_object_get(r, "rank"));

		if (rank >= 0 && rank < size)
			seen[rank] = 1;
	}
}

/* Ranks 0..size-1 without any directory (incomplete or unreadable ones are named as such). */
static void find_missing(json_t *doc, long size)
{
	json_t *job = json_object_get(doc, "job");
	char *seen;
	long k;

	if (size <= 0)
		return;
	if (size > MAX_JOB_RANKS) {
		add_warning(doc, "the job's size is implausible (more than 16,777,216 ranks): missing ranks not listed");
		return;
	}
	seen = xcalloc((size_t)size, 1);
	mark_seen(json_object_get(doc, "ranks"), seen, size);
	mark_seen(json_object_get(job, "incomplete"), seen, size);
	mark_seen(json_object_get(job, "unreadable"), seen, size);
	for (k = 0; k < size; k++)
		if (!seen[k])
			json_array_append_new(json_object_get(job, "missing"), json_integer(k));
	free(seen);
}

/*
 * Number the nodes: Slurm's node index when the ranks carry one, else the
 * hosts in name order.  Fills each rank's "node" and the "nodes" array.
 */
static void number_nodes(json_t *doc)
{
	json_t *ranks = json_object_get(doc, "ranks"), *nodes = json_object_get(doc, "nodes"), *r;
	size_t i, j;

	json_array_foreach(ranks, i, r) {
		const char *host = td_json_str_or(r, "host", "?");
		json_t *n = NULL, *x;

		json_array_foreach(nodes, j, x)
			if (!strcmp(td_json_str(x, "host"), host))
				n = x;
		if (!n) {
			n = json_pack("{s:s, s:o, s:[], s:o}", "host", host, "node",
				      json_is_integer(json_object_get(r, "node")) ?
				      json_incref(json_object_get(r, "node")) : json_null(),
				      "ranks", "cpu", json_incref(json_object_get(r, "cpu")));
			json_array_append_new(nodes, n);
		}
		json_array_append(json_object_get(n, "ranks"), json_object_get(r, "rank"));
	}
	/* without Slurm's numbers: hosts in name order */
	json_array_foreach(nodes, j, r)
		if (json_is_null(json_object_get(r, "node")))
			json_object_set_new(r, "node", json_integer((json_int_t)j));
	json_array_foreach(ranks, i, r) {
		json_t *x;

		json_array_foreach(nodes, j, x)
			if (!strcmp(td_json_str(x, "host"), td_json_str_or(r, "host", "?")))
				json_object_set(r, "node", json_object_get(x, "node"));
	}
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A metric's value in a rank summary: "cpu_s" or "sched.running" or "topdown.x". */
double td_job_rank_value(json_t *rank, const char *metric)
{
	const char *dot = strchr(metric, '.');
	char group[32];

	if (!dot)
		return td_json_num(json_object_get(rank, metric));
	if ((size_t)(dot - metric) >= sizeof(group))
		return NAN;
	memcpy(group, metric, dot - metric);
	group[dot - metric] = '\0';
	return td_json_num(json_object_get(json_object_get(rank, group), dot + 1));
}

/*
 * min / mean / median / max over the ranks that have the metric, with the
 * ranks at the extremes and max over mean.  NULL when no rank has it.
 */
static json_t *metric_stats(json_t *ranks, const char *metric)
{
	double *v = xcalloc(json_array_size(ranks) + 1, sizeof(double));
	double sum = 0, min = INFINITY, max = -INFINITY, median, mean;
	json_int_t min_rank = -1, max_rank = -1;
	size_t i, n = 0;
	json_t *r, *out;

	json_array_foreach(ranks, i, r) {
		double x = td_job_rank_value(r, metric);

		if (!isfinite(x))
			continue;
		v[n++] = x;
		sum += x;
		if (x < min)
			min = x, min_rank = json_integer_value(json_object_get(r, "rank"));
		if (x > max)
			max = x, max_rank = json_integer_value(json_object_get(r, "rank"));
	}
	if (!n) {
		free(v);
		return NULL;
	}
	qsort(v, n, sizeof(double), compare_doubles);
	median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	mean = sum / n;
	out = json_pack("{s:s, s:I, s:f, s:f, s:f, s:f, s:I, s:I, s:o}", "id", metric,
			"ranks", (json_int_t)n, "min", min, "mean", mean, "median", median, "max", max,
			"min_rank", min_rank, "max_rank", max_rank,
			"max_over_mean", mean > 0 ? json_real(max / mean) : json_null());
	free(v);
	return out;
}

/*
 * The component of 'group' (sched, topdown) that grows most in 'rank':
 * the largest ratio to its median across ranks, among the components at
 * least 5 % of the rank's total above their median (so that a component
 * of a few milliseconds cannot win by its ratio alone).
 */
static json_t *growing_component(json_t *rank, json_t *stats, const char *group)
{
	json_t *comps = json_object_get(rank, group), *v, *best = NULL;
	const char *key;
	double best_ratio = 0, total = 0;

	json_object_foreach(comps, key, v)
		if (isfinite(td_json_num(v)))
			total += td_json_num(v);
	json_object_foreach(comps, key, v) {
		struct strbuf id = STRBUF_INIT;
		double median, excess, ratio;

		strbuf_addf(&id, "%s.%s", group, key);
		median = td_json_num(json_object_get(json_object_get(stats, id.buf), "median"));
		strbuf_release(&id);
		excess = td_json_num(v) - median;
		if (!isfinite(excess) || excess < 0.05 * total || excess <= 0)
			continue;
		ratio = median > 0 ? td_json_num(v) / median : INFINITY;
		if (ratio > best_ratio) {
			best_ratio = ratio;
			json_decref(best);
			best = json_pack("{s:s, s:f, s:f, s:o}", "component", key, "value", td_json_num(v),
					 "over_median", excess, "ratio", isfinite(ratio) ? json_real(ratio) : json_null());
		}
	}
	return best;
}

static json_t *or_null(json_t *v)
{
	return v ? v : json_null();
}

/*
 * Outliers: ranks whose CPU time is OUTLIER_RATIO times the median or
 * more (and OUTLIER_MIN_S above it): the slow ranks that the others wait
 * for.  Each says which scheduler component grows (running: more work;
 * runnable: fewer CPUs than ranks) and which Top-Down node, when counted.
 */
static json_t *find_outliers(json_t *ranks, json_t *stats, json_t **details)
{
	json_t *cpu = json_object_get(stats, "cpu_s"), *out = json_array(), *r;
	double median = td_json_num(json_object_get(cpu, "median"));
	size_t i;

	*details = json_array();
	if (!isfinite(median) || json_array_size(ranks) < 2)
		return out;
	json_array_foreach(ranks, i, r) {
		double x = td_json_num(json_object_get(r, "cpu_s"));
		json_t *d;

		if (!(x >= median * OUTLIER_RATIO && x - median >= OUTLIER_MIN_S))
			continue;
		json_array_append(out, json_object_get(r, "rank"));
		d = json_pack("{s:O, s:s, s:s, s:f, s:f, s:o}", "rank", json_object_get(r, "rank"),
			      "host", td_json_str_or(r, "host", "?"), "metric", "cpu_s", "value", x,
			      "median", median, "ratio", median > 0 ? json_real(x / median) : json_null());
		json_object_set_new(d, "sched_grows", or_null(growing_component(r, stats, "sched")));
		json_object_set_new(d, "topdown_grows", or_null(growing_component(r, stats, "topdown")));
		json_array_append_new(*details, d);
	}
	return out;
}

/* The metrics compared across ranks: fixed ones, then each sched component and Top-Down node seen. */
static json_t *shown_metrics(json_t *ranks)
{
	static const char *const fixed[] = { "elapsed_s", "cpu_s", "context_switches",
					     "cpu_migrations", "page_faults", "mpi_share",
					     "mpi_share_with_callees" };
	json_t *ids = json_array(), *r, *v;
	const char *const groups[] = { "sched", "topdown" };
	size_t i, g;
	const char *key;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		json_array_append_new(ids, json_string(fixed[i]));
	for (g = 0; g < 2; g++)
		json_array_foreach(ranks, i, r)
			json_object_foreach(json_object_get(r, groups[g]), key, v) {
				struct strbuf id = STRBUF_INIT;
				size_t k;
				json_t *x;
				int have = 0;

				strbuf_addf(&id, "%s.%s", groups[g], key);
				json_array_foreach(ids, k, x)
					have |= !strcmp(json_string_value(x), id.buf);
				if (!have)
					json_array_append_new(ids, json_string(id.buf));
				strbuf_release(&id);
			}
	return ids;
}

/* obj[key] += x */
static void add_to(json_t *obj, const char *key, double x)
{
	double old = td_json_num(json_object_get(obj, key));

	json_object_set_new(obj, key, json_real((isfinite(old) ? old : 0) + x));
}

/*
 * The job-wide Top-Down tree: each node's fraction averaged over the
 * ranks weighted by their cycles (a rank that ran twice as many cycles
 * weighs twice).  NULL, with the reason in *why, without counted cycles.
 */
static json_t *weighted_tree(json_t *ranks, const char **why)
{
	json_t *tree = json_object(), *weights = json_object(), *r, *v;
	const char *key;
	size_t i;

	json_array_foreach(ranks, i, r) {
		double cycles = td_json_num(json_object_get(r, "cycles"));

		if (!(cycles > 0))
			continue;
		json_object_foreach(json_object_get(r, "topdown"), key, v)
			if (isfinite(td_json_num(v))) {
				add_to(tree, key, td_json_num(v) * cycles);
				add_to(weights, key, cycles);
			}
	}
	json_object_foreach(tree, key, v)
		json_real_set(v, json_real_value(v) / td_json_num(json_object_get(weights, key)));
	json_decref(weights);
	*why = NULL;
	if (!json_object_size(tree)) {
		json_decref(tree);
		*why = "no rank has Top-Down nodes with counted cycles (no hardware PMU)";
		return NULL;
	}
	return tree;
}

/* For each rank (in the ranks array's order), the index of its node in the nodes array. */
static size_t *rank_node_index(json_t *doc)
{
	json_t *ranks = json_object_get(doc, "ranks"), *nodes = json_object_get(doc, "nodes"), *r, *n;
	size_t *pos = xcalloc(json_array_size(ranks) + 1, sizeof(size_t)), i, j;

	json_array_foreach(ranks, j, r) {
		json_int_t node = json_integer_value(json_object_get(r, "node"));

		json_array_foreach(nodes, i, n)
			if (json_integer_value(json_object_get(n, "node")) == node)
				pos[j] = i;
	}
	return pos;
}

/* Per node: ranks, CPU time summed, the longest elapsed time. */
static void summarise_nodes(json_t *doc, const size_t *pos)
{
	json_t *nodes = json_object_get(doc, "nodes"), *ranks = json_object_get(doc, "ranks"), *n, *r;
	size_t nn = json_array_size(nodes), i, j;
	double *cpu = xcalloc(nn + 1, sizeof(double)), *elapsed = xcalloc(nn + 1, sizeof(double));
	size_t *count = xcalloc(nn + 1, sizeof(size_t)), *with_cpu = xcalloc(nn + 1, sizeof(size_t));

	json_array_foreach(ranks, j, r) {
		double c = td_json_num(json_object_get(r, "cpu_s")), e = td_json_num(json_object_get(r, "elapsed_s"));

		count[pos[j]]++;
		if (isfinite(c)) {
			cpu[pos[j]] += c;
			with_cpu[pos[j]]++;
		}
		if (e > elapsed[pos[j]])
			elapsed[pos[j]] = e;
	}
	json_array_foreach(nodes, i, n) {
		json_object_set_new(n, "nr_ranks", json_integer((json_int_t)count[i]));
		/* CPU time of the ranks that counted it; null when none did */
		json_object_set_new(n, "cpu_s", with_cpu[i] ? json_real(cpu[i]) : json_null());
		json_object_set_new(n, "elapsed_s", json_real(elapsed[i]));
	}
	free(cpu);
	free(elapsed);
	free(count);
	free(with_cpu);
}

/*
 * Each node's mean of every compared metric over its ranks ("means"),
 * for the per-node lines and the heat map of large jobs.
 */
static void node_means(json_t *doc, const size_t *pos)
{
	json_t *stats = json_object_get(json_object_get(doc, "job"), "stats"), *n, *r, *s;
	json_t *nodes = json_object_get(doc, "nodes");
	size_t nn = json_array_size(nodes), i, j;
	double *sum = xcalloc(nn + 1, sizeof(double));
	size_t *count = xcalloc(nn + 1, sizeof(size_t));
	const char *id;

	json_array_foreach(nodes, i, n)
		json_object_set_new(n, "means", json_object());
	json_object_foreach(stats, id, s) {
		memset(sum, 0, nn * sizeof(double));
		memset(count, 0, nn * sizeof(size_t));
		json_array_foreach(json_object_get(doc, "ranks"), j, r) {
			double v = td_job_rank_value(r, id);

			if (isfinite(v)) {
				sum[pos[j]] += v;
				count[pos[j]]++;
			}
		}
		json_array_foreach(nodes, i, n)
			json_object_set_new(json_object_get(n, "means"), id,
					    count[i] ? json_real(sum[i] / count[i]) : json_null());
	}
	free(sum);
	free(count);
}

/* "NAME (TABLE)": a node's CPU model and the formula table its ranks were evaluated with. */
static void cpu_model(struct strbuf *sb, json_t *cpu)
{
	strbuf_addstr(sb, td_json_str_or(cpu, "name", "unknown CPU"));
	if (td_json_str(cpu, "microarchitecture"))
		strbuf_addf(sb, " (%s)", td_json_str(cpu, "microarchitecture"));
}

/* The distinct CPU models of a node's ranks, as one string ("A, B"). */
static json_t *node_models(json_t *doc, json_t *node)
{
	struct strbuf all = STRBUF_INIT;
	json_t *r, *out;
	size_t i;

	json_array_foreach(json_object_get(doc, "ranks"), i, r) {
		struct strbuf sb = STRBUF_INIT;
		const char *hit;

		if (json_integer_value(json_object_get(r, "node")) != json_integer_value(json_object_get(node, "node")))
			continue;
		cpu_model(&sb, json_object_get(r, "cpu"));
		hit = strstr(all.buf, sb.buf);
		if (!hit || (hit[sb.len] && hit[sb.len] != ','))
			strbuf_addf(&all, "%s%s", all.len ? ", " : "", sb.buf);
		strbuf_release(&sb);
	}
	out = json_string(all.len ? all.buf : "unknown CPU");
	strbuf_release(&all);
	return out;
}

/* CPU models of the nodes; several are allowed (each rank used its own table) and said. */
static void note_cpu_models(json_t *doc)
{
	json_t *models = json_array(), *r, *m;
	size_t i, j;

	json_array_foreach(json_object_get(doc, "ranks"), i, r) {
		struct strbuf sb = STRBUF_INIT;
		int have = 0;

		cpu_model(&sb, json_object_get(r, "cpu"));
		json_array_foreach(models, j, m)
			have |= !strcmp(json_string_value(m), sb.buf);
		if (!have)
			json_array_append_new(models, json_string(sb.buf));
		strbuf_release(&sb);
	}
	json_object_set_new(json_object_get(doc, "job"), "cpu_models", models);
	json_array_foreach(json_object_get(doc, "nodes"), i, m)
		json_object_set_new(m, "cpu_model", node_models(doc, m));
	if (json_array_size(models) > 1) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "the ranks ran on %zu CPU models: each rank is evaluated with its own "
			    "formula table, and Top-Down fractions of different models are compared as such",
			    json_array_size(models));
		add_warning(doc, sb.buf);
		strbuf_release(&sb);
	}
}

/* Warnings naming what the job directory lacks. */
static void warn_gaps(json_t *doc)
{
	json_t *job = json_object_get(doc, "job"), *x;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (json_array_size(json_object_get(job, "missing"))) {
		strbuf_addstr(&sb, "missing ranks (no directory):");
		json_array_foreach(json_object_get(job, "missing"), i, x)
			strbuf_addf(&sb, "%s %lld", i ? "," : "", (long long)json_integer_value(x));
		add_warning(doc, sb.buf);
	}
	json_array_foreach(json_object_get(job, "incomplete"), i, x) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "rank %lld is incomplete (%s: its tdperf died or is still writing)",
			    (long long)json_integer_value(json_object_get(x, "rank")), td_json_str(x, "dir"));
		add_warning(doc, sb.buf);
	}
	json_array_foreach(json_object_get(job, "foreign"), i, x) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s belongs to another job (%s): left out", td_json_str(x, "dir"),
			    td_json_str_or(x, "job_id", "no job id"));
		add_warning(doc, sb.buf);
	}
	json_array_foreach(json_object_get(job, "unreadable"), i, x) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s", td_json_str(x, "error"));
		add_warning(doc, sb.buf);
	}
	json_array_foreach(json_object_get(doc, "ranks"), i, x)
		if (json_is_true(json_object_get(x, "interrupted"))) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "rank %lld was interrupted (its launcher stopped it): its counts cover "
				    "the workload up to then", (long long)json_integer_value(json_object_get(x, "rank")));
			add_warning(doc, sb.buf);
		}
	json_array_foreach(json_object_get(doc, "ranks"), i, x)
		if (td_json_str(x, "signal") || json_integer_value(json_object_get(x, "exit_status"))) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "rank %lld's workload %s %s", (long long)json_integer_value(json_object_get(x, "rank")),
				    td_json_str(x, "signal") ? "was killed by" : "exited with status",
				    td_json_str(x, "signal") ? td_json_str(x, "signal") : "");
			if (!td_json_str(x, "signal"))
				strbuf_addf(&sb, "%lld", (long long)json_integer_value(json_object_get(x, "exit_status")));
			add_warning(doc, sb.buf);
		}
	strbuf_release(&sb);
}

/* The comparison across ranks: stats, imbalance, outliers, the weighted tree. */
static void compare_ranks(json_t *doc)
{
	json_t *ranks = json_object_get(doc, "ranks"), *ids = shown_metrics(ranks), *id;
	json_t *stats = json_object(), *mom = json_object(), *details, *imb, *tree;
	const char *why;
	size_t i;

	json_array_foreach(ids, i, id) {
		json_t *s = metric_stats(ranks, json_string_value(id));

		if (!s)
			continue;
		json_object_set(mom, json_string_value(id), json_object_get(s, "max_over_mean"));
		json_object_set_new(stats, json_string_value(id), s);
	}
	imb = json_pack("{s:o, s:o}", "max_over_mean", mom, "outliers", find_outliers(ranks, stats, &details));
	json_object_set_new(imb, "outlier_details", details);
	json_object_set_new(imb, "basis", json_string("outliers: CPU time at least 1.2 x the median of the ranks"));
	json_object_set_new(doc, "imbalance", imb);
	json_object_set_new(json_object_get(doc, "job"), "stats", stats);
	json_decref(ids);
	tree = weighted_tree(ranks, &why);
	json_object_set_new(json_object_get(doc, "job"), "tree", tree ? tree : json_null());
	if (why)
		json_object_set_new(json_object_get(doc, "job"), "tree_reason", json_string(why));
}

static int compare_ranks_by_number(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "rank"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "rank"));

	return x < y ? -1 : x > y;
}

/* Sort the ranks array by rank number (directory names sort so already, unless widths differ). */
static void sort_ranks(json_t *doc)
{
	json_t *ranks = json_object_get(doc, "ranks"), *sorted = json_array();
	size_t i, n = json_array_size(ranks);
	json_t **v = xcalloc(n + 1, sizeof(*v));

	for (i = 0; i < n; i++)
		v[i] = json_array_get(ranks, i);
	qsort(v, n, sizeof(*v), compare_ranks_by_number);
	for (i = 0; i < n; i++)
		json_array_append(sorted, v[i]);
	free(v);
	json_object_set_new(doc, "ranks", sorted);
}

/* The job's MPI library share: the statistics of the ranks that recorded
 * per-function samples (the same object as stats.mpi_share), or null and why. */
static void mpi_share(json_t *doc)
{
	json_t *job = json_object_get(doc, "job");
	json_t *s = json_object_get(json_object_get(job, "stats"), "mpi_share");

	json_object_set(job, "mpi_share", s ? s : json_null());
	if (!s)
		json_object_set_new(job, "mpi_share_reason",
				    json_string("no rank recorded per-function samples (tdperf record --hotspots)"));
}

int td_job_mpi_sentence(json_t *doc, struct strbuf *sb)
{
	json_t *m = json_object_get(json_object_get(doc, "job"), "mpi_share");

	if (!json_is_object(m))
		return 0;
	strbuf_addf(sb, "MPI library: %.1f %% (rank %lld) to %.1f %% (rank %lld) of the samples, mean %.1f %% "
		    "over %lld ranks; ranks with a large share wait in MPI for those with a small one",
		    100 * td_json_num(json_object_get(m, "min")), (long long)json_integer_value(json_object_get(m, "min_rank")),
		    100 * td_json_num(json_object_get(m, "max")), (long long)json_integer_value(json_object_get(m, "max_rank")),
		    100 * td_json_num(json_object_get(m, "mean")), (long long)json_integer_value(json_object_get(m, "ranks")));
	return 1;
}

json_t *td_report_job_doc(const char *dir, const struct td_report_opts *opts, struct strbuf *err)
{
	char *mp = td_path_join(dir, "meta.json");
	json_t *meta = NULL, *doc, *job;
	json_error_t jerr;
	char **names;
	size_t nr, i, *pos;
	long size;

	if (td_file_exists(mp) && !(meta = json_load_file(mp, 0, &jerr))) {
		strbuf_addf(err, "%s: line %d: %s", mp, jerr.line, jerr.text);
		free(mp);
		return NULL;
	}
	free(mp);
	if (meta && json_integer_value(json_object_get(meta, "version")) > TD_JOB_FORMAT_VERSION) {
		strbuf_addf(err, "%s/meta.json: job format version %lld is newer than this tdperf reads (%d)",
			    dir, (long long)json_integer_value(json_object_get(meta, "version")),
			    TD_JOB_FORMAT_VERSION);
		json_decref(meta);
		return NULL;
	}
	if (!(names = sorted_entries(dir, &nr, err)) && err->len) {
		json_decref(meta);
		return NULL;
	}
	doc = json_pack("{s:s, s:i, s:o, s:[], s:[], s:n, s:n, s:[], s:[], s:[]}",
			"schema", "tdperf-report", "version", TD_REPORT_SCHEMA_VERSION,
			"run", meta ? meta : json_null(), "sessions", "scopes", "threads", "roofline",
			"warnings", "ranks", "nodes");
	job = json_pack("{s:o, s:o, s:o, s:[], s:[], s:[], s:[]}",
			"launcher", json_incref(meta ? json_object_get(meta, "launcher") : json_null()),
			"job_id", json_incref(meta ? json_object_get(meta, "job_id") : json_null()),
			"ranks_expected", json_incref(meta ? json_object_get(meta, "ranks") : json_null()),
			"missing", "incomplete", "foreign", "unreadable");
	json_object_set_new(doc, "job", job);
	if (!meta)
		add_warning(doc, "no job meta.json (rank 0's part): the job is assembled from its rank directories");
	collect_ranks(doc, dir, names, nr, opts, meta ? td_json_str(meta, "job_id") : NULL);
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	sort_ranks(doc);
	if (!json_array_size(json_object_get(doc, "ranks"))) {
		strbuf_addf(err, "%s: a job directory without a complete rank directory (rank-N.HOST)", dir);
		json_decref(doc);
		return NULL;
	}
	size = json_is_integer(json_object_get(job, "ranks_expected"))
		? (long)json_integer_value(json_object_get(job, "ranks_expected"))
		: (long)td_json_num(json_object_get(json_array_get(json_object_get(doc, "ranks"), 0), "size"));
	if (!meta) {
		json_t *r0 = json_array_get(json_object_get(doc, "ranks"), 0);

		json_object_set(job, "launcher", json_object_get(r0, "launcher"));
		json_object_set(job, "job_id", json_object_get(r0, "job_id"));
		if (size > 0)
			json_object_set_new(job, "ranks_expected", json_integer(size));
	}
	json_object_set_new(job, "ranks_found", json_integer((json_int_t)json_array_size(json_object_get(doc, "ranks"))));
	find_missing(doc, size);
	number_nodes(doc);
	pos = rank_node_index(doc);
	summarise_nodes(doc, pos);
	note_cpu_models(doc);
	warn_gaps(doc);
	compare_ranks(doc);
	node_means(doc, pos);
	free(pos);
	mpi_share(doc);
	return doc;
}
