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
#include "analyze/regions.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A rank is an outlier when its CPU time is this much above the median. */
#define OUTLIER_RATIO 1.2
/* ... and by at least this many seconds (below, noise of a short run). */
#define OUTLIER_MIN_S 0.01

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
	errno = 0;
	rank = strtol(name + 5, &end, 10);
	if (*end != '.' || !end[1])
		return -1;
	if (errno == ERANGE) /* too many digits: beyond TD_JOB_MAX_RANKS, said by the caller */
		rank = LONG_MAX;
	if (strstr(end, ".tmp-"))
		*state = 1;
	else if (strlen(end) >= 4 && !strcmp(end + strlen(end) - 4, ".old"))
		return -1;
	else
		*state = 0;
	return rank;
}

/* A directory entry: its name, and its type as readdir gave it (DT_UNKNOWN: ask lstat). */
struct job_entry {
	char *name;
	unsigned char type;
};

static int compare_entries(const void *a, const void *b)
{
	return strcmp(((const struct job_entry *)a)->name, ((const struct job_entry *)b)->name);
}

/* The directory's entries, sorted (the order of ranks, host names). */
static struct job_entry *sorted_entries(const char *dir, size_t *nr, struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct job_entry *entries = NULL;
	size_t alloc = 0;

	*nr = 0;
	if (!d) {
		strbuf_addf(err, "%s: cannot read the job directory: %s", dir, strerror(errno));
		return NULL;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		TD_GROW(entries, alloc, *nr + 1);
		entries[*nr].name = xstrdup(e->d_name);
		entries[(*nr)++].type = e->d_type;
	}
	closedir(d);
	if (*nr)
		qsort(entries, *nr, sizeof(*entries), compare_entries);
	return entries;
}

static void add_warning(json_t *doc, const char *text)
{
	json_array_append_new(json_object_get(doc, "warnings"),
			      json_pack("{s:s, s:s}", "severity", "warning", "text", text));
}

/*
 * A rank directory that is a symbolic link: not followed, named once
 * (warn_gaps).  readdir's type saves an lstat per rank where the file
 * system gives it.
 */
static int is_symlink(const struct job_entry *e, const char *path)
{
	struct stat st;

	if (e->type != DT_UNKNOWN)
		return e->type == DT_LNK;
	return !lstat(path, &st) && S_ISLNK(st.st_mode);
}

static void add_rank_dir(json_t *list, long rank, const char *dir)
{
	json_array_append_new(list, json_pack("{s:I, s:s}", "rank", (json_int_t)rank, "dir", dir));
}

/*
 * The rank number a rank's summary gives, the same as its directory's
 * name (which gives it to a run recorded outside a launcher); -1 with err
 * set when they differ.
 */
static int check_rank_number(json_t *sum, long named, const char *origin, struct strbuf *err)
{
	json_t *r = json_object_get(sum, "rank");

	if (!json_is_integer(r)) { /* a run recorded outside a launcher */
		json_object_set_new(sum, "rank", json_integer(named));
		return 0;
	}
	if (json_integer_value(r) != named) {
		strbuf_addf(err, "%s: rank: %lld, but its directory is named for rank %ld", origin,
			    (long long)json_integer_value(r), named);
		return -1;
	}
	return 0;
}

/*
 * Read every rank directory of 'dir' into summaries (job-rank.c).  Ranks of
 * another job (a job id that differs from the job's) are set aside as
 * foreign, ".tmp-PID" directories named as incomplete, symbolic links left
 * unfollowed.  -1 with err set when a rank's files hold what no recording
 * writes: the job is refused rather than merged with it.
 */
static int collect_ranks(json_t *doc, const char *dir, const struct job_entry *entries, size_t nr,
			 const struct td_report_opts *opts, const char *job_id, struct strbuf *err)
{
	json_t *job = json_object_get(doc, "job"), *ranks = json_object_get(doc, "ranks");
	json_t *incomplete = json_object_get(job, "incomplete"), *foreign = json_object_get(job, "foreign");
	json_t *unreadable = json_object_get(job, "unreadable"), *links = json_object_get(job, "symlinks");
	struct td_rank_read rd = TD_RANK_READ_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++) {
		struct strbuf why = STRBUF_INIT;
		char *path;
		json_t *sum;
		int state;
		const char *name = entries[i].name;
		long rank = parse_rank_name(name, &state);

		if (state < 0)
			continue;
		path = td_path_join(dir, name);
		if (rank >= TD_JOB_MAX_RANKS) {
			strbuf_addf(err, "%s: the rank in the name is beyond the %ld ranks a job can have", path,
				    TD_JOB_MAX_RANKS);
			ret = -1;
		} else if (is_symlink(&entries[i], path)) {
			add_rank_dir(links, rank, name);
		} else if (state == 1) {
			add_rank_dir(incomplete, rank, name);
		} else if (!(sum = td_report_rank_summary_load(path, opts, &rd, &why))) {
			if (rd.bad) {
				strbuf_add(err, why.buf, why.len);
				ret = -1;
			} else {
				json_array_append_new(unreadable, json_pack("{s:I, s:s, s:s}", "rank", (json_int_t)rank,
									    "dir", name, "error", why.buf));
			}
		} else if (check_rank_number(sum, rank, rd.origin.buf, err) < 0) {
			json_decref(sum);
			ret = -1;
		} else {
			json_object_set_new(sum, "dir", json_string(name));
			if (job_id && td_json_str(sum, "job_id") && strcmp(job_id, td_json_str(sum, "job_id"))) {
				json_array_append_new(foreign, json_pack("{s:I, s:s, s:O}", "rank", (json_int_t)rank,
					"dir", name, "job_id", json_object_get(sum, "job_id")));
				json_decref(sum);
			} else {
				json_array_append_new(ranks, sum);
			}
		}
		strbuf_release(&why);
		free(path);
	}
	strbuf_release(&rd.origin);
	strbuf_release(&rd.text);
	return ret;
}

/* The rank numbers of 'list' (objects with "rank") appended to v[*n..]. */
static void add_numbers(json_t *list, long *v, size_t *n)
{
	json_t *r;
	size_t i;

	json_array_foreach(list, i, r)
		v[(*n)++] = (long)json_integer_value(json_object_get(r, "rank"));
}

static int compare_longs(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

json_t *td_job_missing_ranges(const long *seen, size_t nr, long size, long *count)
{
	json_t *out = json_array();
	long next = 0; /* the first rank not yet accounted for */
	size_t i;

	*count = 0;
	for (i = 0; i <= nr && next < size; i++) {
		long upto = i < nr ? seen[i] : size; /* ranks [next, upto) are missing */

		if (upto > size)
			upto = size;
		if (upto > next) {
			json_array_append_new(out, json_pack("[I, I]", (json_int_t)next, (json_int_t)upto - 1));
			*count += upto - next;
		}
		if (i < nr && seen[i] + 1 > next)
			next = seen[i] + 1;
	}
	return out;
}

/*
 * Ranks 0..size-1 without any directory (incomplete, unreadable or linked
 * ones are named as such), as ranges: the work and the output grow with
 * the directories there, not with the size a meta.json claims.
 */
static void find_missing(json_t *doc, long size)
{
	json_t *job = json_object_get(doc, "job");
	json_t *lists[] = { json_object_get(doc, "ranks"), json_object_get(job, "incomplete"),
			    json_object_get(job, "unreadable"), json_object_get(job, "symlinks") };
	size_t n = 0, total = 0, k;
	long *seen, count;

	for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
		total += json_array_size(lists[k]);
	seen = xcalloc(total + 1, sizeof(long));
	for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
		add_numbers(lists[k], seen, &n);
	qsort(seen, n, sizeof(long), compare_longs);
	json_object_set_new(job, "missing", td_job_missing_ranges(seen, n, size > 0 ? size : 0, &count));
	json_object_set_new(job, "nr_missing", json_integer(count));
	free(seen);
}

/*
 * Number the nodes: Slurm's node index when the ranks carry one, else the
 * order in which the ranks (in rank order) first name each host.  Fills
 * each rank's "node" and the "nodes" array; returns, for each rank (in the
 * ranks array's order), the index of its node in the nodes array.  The
 * hosts are looked up in a hash table (a jansson object), so that a job of
 * one rank per node costs no more than one of many ranks per node.
 */
static size_t *number_nodes(json_t *doc)
{
	json_t *ranks = json_object_get(doc, "ranks"), *nodes = json_object_get(doc, "nodes"), *r;
	json_t *index = json_object(); /* host -> index in nodes */
	size_t *pos = xcalloc(json_array_size(ranks) + 1, sizeof(size_t)), i;

	json_array_foreach(ranks, i, r) {
		const char *host = td_json_str_or(r, "host", "?");
		json_t *at = json_object_get(index, host), *n;

		if (!at) {
			n = json_pack("{s:s, s:o, s:[], s:o}", "host", host, "node",
				      json_is_integer(json_object_get(r, "node")) ?
				      json_incref(json_object_get(r, "node")) : json_null(),
				      "ranks", "cpu", json_incref(json_object_get(r, "cpu")));
			at = json_integer((json_int_t)json_array_size(nodes));
			json_array_append_new(nodes, n);
			json_object_set_new(index, host, at);
		}
		pos[i] = (size_t)json_integer_value(at);
		json_array_append(json_object_get(json_array_get(nodes, pos[i]), "ranks"),
				  json_object_get(r, "rank"));
	}
	json_decref(index);
	/* without Slurm's numbers: the nodes' order */
	json_array_foreach(nodes, i, r)
		if (json_is_null(json_object_get(r, "node")))
			json_object_set_new(r, "node", json_integer((json_int_t)i));
	json_array_foreach(ranks, i, r)
		json_object_set(r, "node", json_object_get(json_array_get(nodes, pos[i]), "node"));
	return pos;
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
	json_t *ids = json_array(), *have = json_object(), *r, *v;
	const char *const groups[] = { "sched", "topdown" };
	struct strbuf id = STRBUF_INIT;
	size_t i, g;
	const char *key;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		json_array_append_new(ids, json_string(fixed[i]));
	for (g = 0; g < 2; g++)
		json_array_foreach(ranks, i, r)
			json_object_foreach(json_object_get(r, groups[g]), key, v) {
				strbuf_reset(&id);
				strbuf_addf(&id, "%s.%s", groups[g], key);
				if (json_object_get(have, id.buf))
					continue;
				json_object_set_new(have, id.buf, json_true());
				json_array_append_new(ids, json_string(id.buf));
			}
	strbuf_release(&id);
	json_decref(have);
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

/*
 * CPU models of the job and of each node; several are allowed (each rank
 * used its own table) and said.  One pass over the ranks: the job's models
 * are a hash table, each node's a short string.
 */
static void note_cpu_models(json_t *doc, const size_t *pos)
{
	json_t *models = json_array(), *seen = json_object(), *r, *m;
	json_t *node_seen = json_object(); /* "NODE MODEL" */
	json_t *nodes = json_object_get(doc, "nodes");
	struct strbuf key = STRBUF_INIT;
	size_t nn = json_array_size(nodes), i;
	struct strbuf *per_node = xcalloc(nn + 1, sizeof(*per_node));

	for (i = 0; i < nn; i++)
		strbuf_init(&per_node[i], 0);
	json_array_foreach(json_object_get(doc, "ranks"), i, r) {
		struct strbuf sb = STRBUF_INIT;

		cpu_model(&sb, json_object_get(r, "cpu"));
		if (!json_object_get(seen, sb.buf)) {
			json_object_set_new(seen, sb.buf, json_true());
			json_array_append_new(models, json_string(sb.buf));
		}
		strbuf_reset(&key);
		strbuf_addf(&key, "%zu %s", pos[i], sb.buf);
		if (!json_object_get(node_seen, key.buf)) {
			json_object_set_new(node_seen, key.buf, json_true());
			strbuf_addf(&per_node[pos[i]], "%s%s", per_node[pos[i]].len ? ", " : "", sb.buf);
		}
		strbuf_release(&sb);
	}
	json_decref(seen);
	json_decref(node_seen);
	strbuf_release(&key);
	json_object_set_new(json_object_get(doc, "job"), "cpu_models", models);
	json_array_foreach(nodes, i, m) {
		json_object_set_new(m, "cpu_model", json_string(per_node[i].len ? per_node[i].buf : "unknown CPU"));
		strbuf_release(&per_node[i]);
	}
	free(per_node);
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
		json_array_foreach(json_object_get(job, "missing"), i, x) {
			json_int_t first = json_integer_value(json_array_get(x, 0));
			json_int_t last = json_integer_value(json_array_get(x, 1));

			strbuf_addf(&sb, "%s %lld", i ? "," : "", (long long)first);
			if (last > first)
				strbuf_addf(&sb, "-%lld", (long long)last);
		}
		if (json_integer_value(json_object_get(job, "nr_missing")) > 1)
			strbuf_addf(&sb, " (%lld ranks)", (long long)json_integer_value(json_object_get(job, "nr_missing")));
		add_warning(doc, sb.buf);
	}
	if (json_array_size(json_object_get(job, "symlinks"))) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "rank directories that are symbolic links, not followed (left out):");
		json_array_foreach(json_object_get(job, "symlinks"), i, x)
			strbuf_addf(&sb, "%s %s", i ? "," : "", td_json_str(x, "dir"));
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

/* Beyond perf's printing resolution (0.1 %), half of it: not rounding (analyze/sanity.c). */
#define TOPDOWN_SLACK 0.0005
/* Ranks named one by one in a warning; the rest are counted. */
#define WARN_MAX_RANKS 10

/* "-380.7 %", or %g where %f would be a long row of digits */
static void add_percent(struct strbuf *sb, double fraction)
{
	strbuf_addf(sb, fabs(fraction) < 1e4 ? "%.1f %%" : "%.4g %%", 100 * fraction);
}

/*
 * Top-Down fractions outside [0, 1]: shown as the ranks measured them (a
 * counting error, multiplexing or skew, gives them, and the rank's own
 * report names the cause), and named: one warning per node id, with its
 * ranks and the first one's directory and value.
 */
static void warn_topdown_range(json_t *doc)
{
	json_t *outside = json_object(), *r, *v, *list, *first;
	const char *key;
	size_t i;

	json_array_foreach(json_object_get(doc, "ranks"), i, r)
		json_object_foreach(json_object_get(r, "topdown"), key, v) {
			double x = td_json_num(v);

			if (!(x < -TOPDOWN_SLACK || x > 1 + TOPDOWN_SLACK))
				continue;
			if (!(list = json_object_get(outside, key)))
				json_object_set_new(outside, key, list = json_array());
			json_array_append(list, r);
		}
	json_object_foreach(outside, key, list) {
		struct strbuf sb = STRBUF_INIT;

		first = json_array_get(list, 0);
		strbuf_addf(&sb, "Top-Down %s is outside 0 to 100 %% in %zu rank%s:", key, json_array_size(list),
			    json_array_size(list) == 1 ? "" : "s");
		json_array_foreach(list, i, r)
			if (i < WARN_MAX_RANKS)
				strbuf_addf(&sb, "%s %lld", i ? "," : "",
					    (long long)json_integer_value(json_object_get(r, "rank")));
		if (json_array_size(list) > WARN_MAX_RANKS)
			strbuf_addf(&sb, " and %zu more", json_array_size(list) - WARN_MAX_RANKS);
		strbuf_addf(&sb, " (%s: topdown.%s ", td_json_str_or(first, "dir", "?"), key);
		add_percent(&sb, td_json_num(json_object_get(json_object_get(first, "topdown"), key)));
		strbuf_addstr(&sb, "), shown as measured: counting errors (multiplexing, skew) give such values; "
			      "each rank's own report says which");
		add_warning(doc, sb.buf);
		strbuf_release(&sb);
	}
	json_decref(outside);
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

/* The job's meta.json, checked: a plausible size, strings where strings belong.  NULL with err set. */
static json_t *load_job_meta(const char *dir, struct strbuf *err)
{
	static const char *const strings[] = { "format", "launcher", "job_id", NULL };
	char *mp = td_path_join(dir, "meta.json");
	json_t *meta = NULL, *v;
	json_error_t jerr;
	size_t i;

	if (!td_file_exists(mp)) {
		free(mp);
		return NULL;
	}
	if (!(meta = json_load_file(mp, JSON_REJECT_DUPLICATES, &jerr))) {
		strbuf_addf(err, "%s: line %d: ", mp, jerr.line);
		td_json_error_text(err, &jerr);
	} else if (json_integer_value(json_object_get(meta, "version")) > TD_JOB_FORMAT_VERSION) {
		strbuf_addf(err, "%s: job format version %lld is newer than this tdperf reads (%d)",
			    mp, (long long)json_integer_value(json_object_get(meta, "version")),
			    TD_JOB_FORMAT_VERSION);
	} else if ((v = json_object_get(meta, "ranks")) && !json_is_null(v) &&
		   (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > TD_JOB_MAX_RANKS)) {
		strbuf_addf(err, "%s: ranks: ", mp);
		if (json_is_integer(v))
			strbuf_addf(err, "%lld is not a job's size (1 to %ld ranks)",
				    (long long)json_integer_value(v), TD_JOB_MAX_RANKS);
		else
			strbuf_addstr(err, "not an integer");
	}
	for (i = 0; strings[i] && !err->len; i++)
		if ((v = json_object_get(meta, strings[i])) && !json_is_null(v) && !json_is_string(v))
			strbuf_addf(err, "%s: %s: not a string", mp, strings[i]);
	free(mp);
	if (err->len) {
		json_decref(meta);
		return NULL;
	}
	return meta;
}

/* Two directories claiming one rank: which is the job's cannot be told.  -1 with err set. */
static int check_duplicates(json_t *doc, const char *dir, struct strbuf *err)
{
	json_t *ranks = json_object_get(doc, "ranks"), *r, *prev = NULL;
	size_t i;

	json_array_foreach(ranks, i, r) {
		if (prev && json_integer_value(json_object_get(prev, "rank")) ==
			    json_integer_value(json_object_get(r, "rank"))) {
			strbuf_addf(err, "%s: %s and %s are both rank %lld", dir, td_json_str(prev, "dir"),
				    td_json_str(r, "dir"), (long long)json_integer_value(json_object_get(r, "rank")));
			return -1;
		}
		prev = r;
	}
	return 0;
}

/* Every rank below the job's size, and of that size.  -1 with err set. */
static int check_sizes(json_t *doc, const char *dir, long size, const char *size_from, struct strbuf *err)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(doc, "ranks"), i, r) {
		json_t *own = json_object_get(r, "size");

		if (json_integer_value(json_object_get(r, "rank")) >= size)
			strbuf_addf(err, "%s/%s: rank %lld is not below the job's %ld ranks (%s)", dir,
				    td_json_str(r, "dir"), (long long)json_integer_value(json_object_get(r, "rank")),
				    size, size_from);
		else if (json_is_integer(own) && json_integer_value(own) != size)
			strbuf_addf(err, "%s/%s: size: %lld, but the job has %ld ranks (%s)", dir,
				    td_json_str(r, "dir"), (long long)json_integer_value(own), size, size_from);
		if (err->len)
			return -1;
	}
	return 0;
}

/*
 * The job's size: its meta.json's "ranks", else rank 0's (the first
 * rank's) own "size"; 0 when neither says.  'from' says which.
 */
static long job_size(json_t *doc, json_t *meta, const char *dir, struct strbuf *from)
{
	json_t *first = json_array_get(json_object_get(doc, "ranks"), 0);

	if (json_is_integer(json_object_get(meta, "ranks"))) {
		strbuf_addf(from, "%s/meta.json", dir);
		return (long)json_integer_value(json_object_get(meta, "ranks"));
	}
	if (json_is_integer(json_object_get(first, "size"))) {
		strbuf_addf(from, "the size of %s", td_json_str(first, "dir"));
		return (long)json_integer_value(json_object_get(first, "size"));
	}
	return 0;
}

json_t *td_report_job_doc(const char *dir, const struct td_report_opts *opts, struct strbuf *err)
{
	struct strbuf size_from = STRBUF_INIT;
	json_t *meta, *doc, *job;
	struct job_entry *entries;
	size_t nr, i, *pos;
	long size;
	int ret;

	meta = load_job_meta(dir, err);
	if (err->len)
		return NULL;
	if (!(entries = sorted_entries(dir, &nr, err)) && err->len) {
		json_decref(meta);
		return NULL;
	}
	doc = json_pack("{s:s, s:i, s:o, s:[], s:[], s:n, s:n, s:[], s:[], s:[]}",
			"schema", "tdperf-report", "version", TD_REPORT_SCHEMA_VERSION,
			"run", meta ? meta : json_null(), "sessions", "scopes", "threads", "roofline",
			"warnings", "ranks", "nodes");
	job = json_pack("{s:o, s:o, s:o, s:[], s:[], s:[], s:[], s:[]}",
			"launcher", json_incref(meta ? json_object_get(meta, "launcher") : json_null()),
			"job_id", json_incref(meta ? json_object_get(meta, "job_id") : json_null()),
			"ranks_expected", json_incref(meta ? json_object_get(meta, "ranks") : json_null()),
			"missing", "incomplete", "foreign", "unreadable", "symlinks");
	json_object_set_new(doc, "job", job);
	if (!meta)
		add_warning(doc, "no job meta.json (rank 0's part): the job is assembled from its rank directories");
	ret = collect_ranks(doc, dir, entries, nr, opts, meta ? td_json_str(meta, "job_id") : NULL, err);
	for (i = 0; i < nr; i++)
		free(entries[i].name);
	free(entries);
	if (ret < 0) {
		json_decref(doc);
		return NULL;
	}
	sort_ranks(doc);
	if (!json_array_size(json_object_get(doc, "ranks"))) {
		strbuf_addf(err, "%s: a job directory without a complete rank directory (rank-N.HOST)", dir);
		json_decref(doc);
		return NULL;
	}
	size = job_size(doc, meta, dir, &size_from);
	if (check_duplicates(doc, dir, err) < 0 || (size > 0 && check_sizes(doc, dir, size, size_from.buf, err) < 0)) {
		strbuf_release(&size_from);
		json_decref(doc);
		return NULL;
	}
	strbuf_release(&size_from);
	if (!meta) {
		json_t *r0 = json_array_get(json_object_get(doc, "ranks"), 0);

		json_object_set(job, "launcher", json_object_get(r0, "launcher"));
		json_object_set(job, "job_id", json_object_get(r0, "job_id"));
		if (size > 0)
			json_object_set_new(job, "ranks_expected", json_integer(size));
	}
	json_object_set_new(job, "ranks_found", json_integer((json_int_t)json_array_size(json_object_get(doc, "ranks"))));
	find_missing(doc, size);
	pos = number_nodes(doc);
	summarise_nodes(doc, pos);
	note_cpu_models(doc, pos);
	warn_gaps(doc);
	warn_topdown_range(doc);
	compare_ranks(doc);
	node_means(doc, pos);
	free(pos);
	mpi_share(doc);
	td_job_regions(doc); /* analyze/regions-merge.c: ranks recorded with --regions */
	return doc;
}
