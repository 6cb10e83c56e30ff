/*
 * Regions across runs and ranks (analyze/regions.h): a --regions run
 * summed up per region for a job's merge, the job's regions over its
 * ranks (min / mean / max and the outlier rank), and two --regions runs
 * compared region by region, by name.
 *
 * Each side's numbers are those of its own region report
 * (td_regions_load): a rank's region here is what 'tdperf report
 * RANKDIR' says of it, so the merge can be checked rank by rank.
 */
#include "config.h"
#include "analyze/regions.h"
#include "analyze/analyze-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A job's region is imbalanced when its outlier is this far from the median (as job.c's ranks). */
#define REGION_OUTLIER_RATIO 1.2

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static double count_of(json_t *region, const char *event)
{
	return num(json_object_get(region, "counts"), event);
}

/* Level 1 of the region's tree: node id -> fraction (null where not computed). */
static json_t *level1_of(json_t *region)
{
	json_t *out = json_object(), *n;
	size_t i;

	json_array_foreach(json_object_get(region, "nodes"), i, n)
		if (json_integer_value(json_object_get(n, "level")) == 1 && json_string_value(json_object_get(n, "id")))
			json_object_set_new(out, json_string_value(json_object_get(n, "id")),
					    num_or_null(num(n, "value")));
	return out;
}

/* One region of a region report, reduced to what is compared: the numbers its report shows. */
static json_t *region_brief(json_t *r)
{
	return json_pack("{s:O, s:O, s:O, s:O, s:O, s:o, s:O, s:O, s:o}",
			 "name", json_object_get(r, "name"), "parent", json_object_get(r, "parent"),
			 "calls", json_object_get(r, "calls"), "threads", json_object_get(r, "threads"),
			 "time_s", json_object_get(r, "time_s"),
			 "cpu_s", num_or_null(count_of(r, "task-clock") / 1e9),
			 "share", json_object_get(r, "share"), "estimate", json_object_get(r, "estimate"),
			 "level1", level1_of(r));
}

static json_t *briefs_of(json_t *doc)
{
	json_t *out = json_array(), *r;
	size_t i;

	json_array_foreach(json_object_get(doc, "regions"), i, r)
		json_array_append_new(out, region_brief(r));
	return out;
}

json_t *td_regions_rank_summary(const char *rankdir, const struct td_report_opts *opts, struct strbuf *err)
{
	char *path = td_path_join(rankdir, "meta.json");
	json_t *meta = json_load_file(path, 0, NULL), *regions, *wrap, *sum, *root, *cycles;

	free(path);
	if (!json_is_object(meta)) {
		strbuf_addf(err, "%s: meta.json is not a run's", rankdir);
		json_decref(meta);
		return NULL;
	}
	regions = td_regions_load(rankdir, opts, err);
	if (!regions) {
		json_decref(meta);
		return NULL;
	}
	/* the rank's place, times and exit from its meta.json, as for any run */
	wrap = json_pack("{s:o}", "run", meta);
	sum = td_report_rank_summary(wrap);
	json_decref(wrap);
	/* its counts: the root region's, the library's count of the whole run */
	root = json_array_get(json_object_get(regions, "regions"), 0);
	json_object_set_new(sum, "cpu_s", num_or_null(count_of(root, "task-clock") / 1e9));
	json_object_set_new(sum, "context_switches", num_or_null(count_of(root, "context-switches")));
	json_object_set_new(sum, "page_faults", num_or_null(count_of(root, "page-faults")));
	cycles = json_object_get(json_object_get(root, "counts"), "cycles");
	if (!cycles)
		cycles = json_object_get(json_object_get(root, "counts"), "CPU_CLK_UNHALTED.THREAD");
	json_object_set(sum, "cycles", json_is_number(cycles) ? cycles : json_null());
	json_object_set_new(sum, "regions", briefs_of(regions));
	json_decref(regions);
	return sum;
}

/* ---------------- a job's regions over its ranks ---------------- */

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The region named name in a rank summary, or NULL. */
static json_t *rank_region(json_t *rank, const char *name)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(rank, "regions"), i, r)
		if (json_string_value(json_object_get(r, "name")) &&
		    !strcmp(json_string_value(json_object_get(r, "name")), name))
			return r;
	return NULL;
}

/* A region's number in a rank: "calls", or "level1.ID". */
static double region_value(json_t *r, const char *metric)
{
	if (!strncmp(metric, "level1.", 7))
		return num(json_object_get(r, "level1"), metric + 7);
	return num(r, metric);
}

/* min / mean / median / max of metric over the ranks that have the region, with the ranks of min and max. */
static json_t *region_stats(json_t *ranks, const char *name, const char *metric)
{
	size_t i, n = 0, nr = json_array_size(ranks);
	double *v = xcalloc(nr + 1, sizeof(*v)), sum = 0, min = INFINITY, max = -INFINITY, median;
	json_int_t min_rank = -1, max_rank = -1;
	json_t *rank, *out;

	json_array_foreach(ranks, i, rank) {
		json_t *r = rank_region(rank, name);
		double x = r ? region_value(r, metric) : NAN;

		if (!isfinite(x))
			continue;
		v[n++] = x;
		sum += x;
		if (x < min)
			min = x, min_rank = json_integer_value(json_object_get(rank, "rank"));
		if (x > max)
			max = x, max_rank = json_integer_value(json_object_get(rank, "rank"));
	}
	if (!n) {
		free(v);
		return json_null();
	}
	qsort(v, n, sizeof(*v), compare_doubles);
	median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	out = json_pack("{s:I, s:f, s:f, s:f, s:f, s:I, s:I}", "ranks", (json_int_t)n, "min", min,
			"mean", sum / n, "median", median, "max", max, "min_rank", min_rank, "max_rank", max_rank);
	free(v);
	return out;
}

/*
 * The rank farthest from the median of the region's CPU time (its wall
 * time without task-clock), by ratio either way: the one that does more,
 * or less, of the region's work than the others.
 */
static json_t *region_outlier(json_t *ranks, const char *name, json_t *stats)
{
	const char *metric = json_is_object(json_object_get(stats, "cpu_s")) ? "cpu_s" : "time_s";
	double median = num(json_object_get(stats, metric), "median"), best = 0, value = NAN;
	json_int_t best_rank = -1;
	json_t *rank;
	size_t i;

	if (!(median > 0) || num(json_object_get(stats, metric), "ranks") < 2)
		return json_null();
	json_array_foreach(ranks, i, rank) {
		json_t *r = rank_region(rank, name);
		double x = r ? num(r, metric) : NAN, ratio;

		if (!(x > 0))
			continue;
		ratio = x > median ? x / median : median / x;
		if (ratio > best)
			best = ratio, best_rank = json_integer_value(json_object_get(rank, "rank")), value = x;
	}
	if (best_rank < 0)
		return json_null();
	return json_pack("{s:I, s:s, s:f, s:f, s:f, s:b}", "rank", best_rank, "metric", metric, "value", value,
			 "median", median, "ratio_to_median", value / median,
			 "imbalanced", best >= REGION_OUTLIER_RATIO);
}

static void add_name(json_t *names, json_t *seen, json_t *r)
{
	const char *name = json_string_value(json_object_get(r, "name"));

	if (!name || json_object_get(seen, name))
		return;
	json_object_set_new(seen, name, json_true());
	json_array_append(names, json_object_get(r, "name"));
}

static json_t *merged_region(json_t *ranks, const char *name)
{
	static const char *const metrics[] = { "calls", "time_s", "cpu_s", "share" };
	json_t *stats = json_object(), *out, *rank, *r, *missing = json_array(), *parent = NULL;
	json_t *ids = json_object();
	const char *id;
	size_t i, have = 0;
	int estimate = 0;

	json_array_foreach(ranks, i, rank) {
		if (!(r = rank_region(rank, name))) {
			json_array_append(missing, json_object_get(rank, "rank"));
			continue;
		}
		have++;
		estimate |= json_is_true(json_object_get(r, "estimate"));
		if (!parent)
			parent = json_object_get(r, "parent");
		json_object_update(ids, json_object_get(r, "level1"));
	}
	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		json_object_set_new(stats, metrics[i], region_stats(ranks, name, metrics[i]));
	json_object_foreach(ids, id, r) {
		struct strbuf key = STRBUF_INIT;

		strbuf_addf(&key, "level1.%s", id);
		json_object_set_new(stats, key.buf, region_stats(ranks, name, key.buf));
		strbuf_release(&key);
	}
	json_decref(ids);
	out = json_pack("{s:s, s:O, s:I, s:o, s:o}", "name", name, "parent", parent ? parent : json_null(),
			"ranks", (json_int_t)have, "missing_in", missing, "stats", stats);
	json_object_set_new(out, "estimate", json_boolean(estimate)); /* multiplexed or sampled in some rank */
	json_object_set_new(out, "outlier", region_outlier(ranks, name, stats));
	return out;
}

void td_job_regions(json_t *doc)
{
	json_t *ranks = json_object_get(doc, "ranks"), *names = json_array(), *seen = json_object();
	json_t *rank, *r, *out;
	size_t i, j;

	json_array_foreach(ranks, i, rank)
		json_array_foreach(json_object_get(rank, "regions"), j, r)
			add_name(names, seen, r);
	json_decref(seen);
	if (!json_array_size(names)) {
		json_decref(names);
		return;
	}
	out = json_array();
	json_array_foreach(names, i, r)
		json_array_append_new(out, merged_region(ranks, json_string_value(r)));
	json_decref(names);
	json_object_set_new(json_object_get(doc, "job"), "regions", out);
}

/* ---------------- two runs, region by region ---------------- */

static json_t *ratio_or_null(double b, double a)
{
	return num_or_null(a > 0 && isfinite(b) ? b / a : NAN);
}

static json_t *compare_region(json_t *a, json_t *b)
{
	json_t *out = json_pack("{s:O, s:O, s:O, s:O}", "name", json_object_get(a ? a : b, "name"),
				"parent", json_object_get(a ? a : b, "parent"),
				"a", a ? a : json_null(), "b", b ? b : json_null());
	json_t *ratio, *change, *v;
	const char *id;

	if (!a || !b)
		return out;
	ratio = json_pack("{s:o, s:o, s:o}", "calls", ratio_or_null(num(b, "calls"), num(a, "calls")),
			  "time_s", ratio_or_null(num(b, "time_s"), num(a, "time_s")),
			  "cpu_s", ratio_or_null(num(b, "cpu_s"), num(a, "cpu_s")));
	json_object_set_new(out, "ratio", ratio);
	json_object_set_new(out, "share_change", num_or_null(num(b, "share") - num(a, "share")));
	change = json_object();
	json_object_foreach(json_object_get(a, "level1"), id, v)
		json_object_set_new(change, id, num_or_null(num(json_object_get(b, "level1"), id) - json_number_value(v)));
	json_object_set_new(out, "level1_change", change);
	return out;
}

/* The region, the root left out, whose CPU time (else wall time) changed most, by ratio either way. */
static json_t *largest_change(json_t *regions)
{
	json_t *r, *best = NULL;
	double best_factor = 1;
	const char *best_metric = NULL;
	size_t i;

	json_array_foreach(regions, i, r) {
		json_t *ratio = json_object_get(r, "ratio");
		const char *metric = json_is_number(json_object_get(ratio, "cpu_s")) ? "cpu_s" : "time_s";
		double x = num(ratio, metric), factor;

		if (!json_is_null(json_object_get(r, "parent")) && x > 0) {
			factor = x > 1 ? x : 1 / x;
			if (factor > best_factor)
				best = r, best_factor = factor, best_metric = metric;
		}
	}
	if (!best)
		return json_null();
	return json_pack("{s:O, s:s, s:O}", "region", json_object_get(best, "name"), "metric", best_metric,
			 "ratio", json_object_get(json_object_get(best, "ratio"), best_metric));
}

static json_t *side(json_t *doc, const char *name)
{
	return json_pack("{s:s, s:O, s:O, s:O}", "name", name, "run", json_object_get(doc, "run"),
			 "cpu", json_object_get(doc, "cpu"), "table", json_object_get(doc, "table"));
}

json_t *td_regions_diff(json_t *a, const char *name_a, json_t *b, const char *name_b)
{
	json_t *ba = briefs_of(a), *bb = briefs_of(b), *out = json_array(), *r, *diff;
	size_t i, j;

	json_array_foreach(ba, i, r) {
		json_t *other = NULL, *o;

		json_array_foreach(bb, j, o)
			if (json_equal(json_object_get(o, "name"), json_object_get(r, "name")))
				other = o;
		json_array_append_new(out, compare_region(r, other));
	}
	json_array_foreach(bb, j, r) {
		json_t *o, *found = NULL;

		json_array_foreach(ba, i, o)
			if (json_equal(json_object_get(o, "name"), json_object_get(r, "name")))
				found = o;
		if (!found)
			json_array_append_new(out, compare_region(NULL, r));
	}
	json_decref(ba);
	json_decref(bb);
	diff = json_pack("{s:s, s:i, s:o, s:o, s:o}", "schema", "tdperf-regions-diff", "version", 1,
			 "a", side(a, name_a), "b", side(b, name_b), "largest_change", largest_change(out));
	json_object_set_new(diff, "regions", out);
	return diff;
}
