/*
 * One rank of a job, summed up for the merge (analyze/job.c): its place in
 * the job (the "job" object of its meta.json), elapsed and CPU time, the
 * software counts, the per-thread scheduler stack summed over its threads,
 * its Level 1-2 Top-Down fractions and cycles when counted, and the MPI
 * library's share of its samples when it recorded them (--hotspots).
 *
 * The summary is taken from the rank's full report document, so it says
 * what 'tdperf report RANKDIR' says.  Each rank writes it as summary.json
 * at the end of its recording (src/cmd-record.c), in parallel on its node;
 * merging a thousand ranks then reads a thousand small files instead of
 * analysing a thousand perf.data files.  A summary from another tdperf
 * version is ignored and the rank analysed again.
 */
#include "config.h"
#include "analyze/analyze-int.h"
#include "analyze/regions.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Events that count core cycles, by the names perf and the tables use. */
static const char *const cycle_events[] = {
	"cycles", "cpu-cycles", "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.CORE",
	"CPU_CLK_UNHALTED.THREAD_P", "CPU_CLK_UNHALTED.THREAD_ANY", "ls_not_halted_cyc", "CPU_CYCLES",
};

/* A count of the scope's events by name (first match), NAN when absent or not counted. */
static double scope_count(json_t *scope, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(scope, "events"), i, e)
		if (td_json_str(e, "name") && !strcmp(td_json_str(e, "name"), name) &&
		    !td_json_str(e, "pmu"))
			return td_json_num(json_object_get(e, "value"));
	json_array_foreach(json_object_get(scope, "events"), i, e)
		if (td_json_str(e, "name") && !strcmp(td_json_str(e, "name"), name))
			return td_json_num(json_object_get(e, "value"));
	return NAN;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Level 1-2 Top-Down fractions of the scope, {} when none were computed. */
static json_t *topdown_levels(json_t *scope)
{
	json_t *out = json_object(), *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (td_json_int(json_object_get(n, "level"), 99) <= 2 && td_json_str(n, "id") &&
		    isfinite(td_json_num(json_object_get(n, "value"))))
			json_object_set_new(out, td_json_str(n, "id"),
					    json_real(td_json_num(json_object_get(n, "value"))));
	return out;
}

/* Seconds per scheduler component summed over the rank's threads, or null. */
static json_t *sched_seconds(json_t *doc)
{
	json_t *secs = json_object_get(json_object_get(json_object_get(doc, "threads"), "aggregate"),
				       "seconds");

	return json_is_object(secs) ? json_deep_copy(secs) : json_null();
}

json_t *td_report_rank_summary(json_t *doc)
{
	json_t *run = json_object_get(doc, "run"), *job = json_object_get(run, "job");
	json_t *scope = td_report_main_scope(doc), *runs = json_object_get(run, "runs"), *r, *out;
	double elapsed = 0, task_ms, cycles = NAN;
	size_t i;

	json_array_foreach(runs, i, r) /* -r N: the workload's runs together */
		elapsed += td_json_num(json_object_get(r, "seconds"));
	task_ms = scope ? scope_count(scope, "task-clock") : NAN;
	for (i = 0; scope && i < sizeof(cycle_events) / sizeof(cycle_events[0]) && !isfinite(cycles); i++)
		cycles = scope_count(scope, cycle_events[i]);
	out = json_pack("{s:s, s:o, s:o, s:O, s:O, s:O, s:o, s:o}", "tdperf_version", PACKAGE_VERSION,
			"rank", json_incref(json_is_object(job) ? json_object_get(job, "rank") : json_null()),
			"job_id", json_incref(json_object_get(job, "job_id")),
			"launcher", json_object_get(job, "launcher") ? json_object_get(job, "launcher") : json_null(),
			"size", json_object_get(job, "size") ? json_object_get(job, "size") : json_null(),
			"node", json_object_get(job, "node") ? json_object_get(job, "node") : json_null(),
			"host", json_incref(json_object_get(job, "host") ? json_object_get(job, "host")
					    : json_object_get(json_object_get(run, "host"), "hostname")),
			"scope", json_incref(json_object_get(job, "scope")));
	json_object_set_new(out, "elapsed_s", num_or_null(json_array_size(runs) ? elapsed : NAN));
	json_object_set_new(out, "cpu_s", num_or_null(task_ms / 1000.0));
	json_object_set_new(out, "context_switches", num_or_null(scope ? scope_count(scope, "context-switches") : NAN));
	json_object_set_new(out, "cpu_migrations", num_or_null(scope ? scope_count(scope, "cpu-migrations") : NAN));
	json_object_set_new(out, "page_faults", num_or_null(scope ? scope_count(scope, "page-faults") : NAN));
	json_object_set_new(out, "exit_status", json_incref(json_object_get(run, "exit_status")));
	json_object_set_new(out, "signal", json_incref(json_object_get(run, "signal")));
	json_object_set_new(out, "interrupted", json_boolean(json_is_true(json_object_get(run, "interrupted"))));
	json_object_set_new(out, "mode", json_incref(json_object_get(run, "mode")));
	json_object_set_new(out, "cpu", json_pack("{s:o, s:o}",
		"name", json_incref(json_object_get(json_object_get(run, "cpu"), "name")),
		"microarchitecture", json_incref(json_object_get(json_object_get(run, "cpu"), "microarchitecture"))));
	json_object_set_new(out, "sched", sched_seconds(doc));
	json_object_set_new(out, "topdown", scope ? topdown_levels(scope) : json_object());
	json_object_set_new(out, "cycles", num_or_null(cycles));
	json_object_set_new(out, "mpi_share", json_null());
	json_object_set_new(out, "mpi_share_with_callees", json_null());
	return out;
}

/*
 * The MPI library's share of the rank's samples, when it recorded
 * per-function samples (tdperf record --hotspots: hotspots.data), as
 * fractions: in the library's own functions, and with what they call.
 * Left null without samples; a hotspots file that cannot be read is said.
 */
static int add_mpi_share(json_t *sum, const char *rankdir, const struct td_report_opts *opts,
			 struct strbuf *err)
{
	char *path = td_path_join(rankdir, "hotspots.data");
	json_t *doc, *mpi;
	int have = td_file_exists(path);

	free(path);
	if (!have)
		return 0;
	doc = td_hotspots_load(rankdir, opts, 0, err);
	if (!doc)
		return -1;
	mpi = json_object_get(json_object_get(doc, "profile"), "mpi");
	json_object_set_new(sum, "mpi_share", json_real(td_json_num(json_object_get(mpi, "percent")) / 100));
	json_object_set_new(sum, "mpi_share_with_callees",
			    json_real(td_json_num(json_object_get(mpi, "children_percent")) / 100));
	json_object_set(sum, "mpi_dsos", json_object_get(mpi, "dsos"));
	json_decref(doc);
	return 0;
}

/* The summary of the rank in rankdir from its report document. */
static json_t *rank_summary_of(json_t *doc, const char *rankdir, const struct td_report_opts *opts,
			       struct strbuf *err)
{
	json_t *sum = td_report_rank_summary(doc);

	if (add_mpi_share(sum, rankdir, opts, err) < 0) {
		json_decref(sum);
		return NULL;
	}
	return sum;
}

int td_report_rank_summary_write(const char *rankdir, const struct td_report_opts *opts,
				 struct strbuf *err)
{
	json_t *doc, *sum;
	char *path, *text;
	int ret;

	if (td_regions_is_run(rankdir)) {
		sum = td_regions_rank_summary(rankdir, opts, err);
	} else {
		if (!(doc = td_report_load(rankdir, opts, err)))
			return -1;
		sum = rank_summary_of(doc, rankdir, opts, err);
		json_decref(doc);
	}
	if (!sum)
		return -1;
	text = json_dumps(sum, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	json_decref(sum);
	path = td_path_join(rankdir, "summary.json");
	ret = td_write_file_atomic(path, text, strlen(text));
	if (ret < 0)
		strbuf_addf(err, "%s: %s", path, strerror(errno));
	free(path);
	free(text);
	return ret;
}

/*
 * What a rank's numbers can be.  perf's counters and times are 64-bit
 * (times in nanoseconds): a count above 2^64, or a time above 2^64 ns (584
 * years), was not measured.  The MPI share is a ratio of two sample counts,
 * so only rounding can take it past [0, 1].  A Top-Down fraction is what
 * the table's formula gives, never clamped (analyze/sanity.c): multiplexed
 * or skewed counts push it past 0 or 1, and tdperf's own recordings on the
 * emulated PMU write -381 % and 382 % (tests/e2e/t0853); so it is only held
 * to what a ratio of 64-bit counts can be, and job.c names the ranks
 * outside [0, 1].
 */
#define MAX_COUNT 18446744073709551616.0
#define MAX_SECONDS (MAX_COUNT / 1e9)
#define SHARE_SLACK 1e-9

enum rank_number { RN_COUNT, RN_SECONDS, RN_SHARE, RN_TOPDOWN };

static const struct {
	const char *key;
	enum rank_number kind;
} rank_numbers[] = {
	{ "elapsed_s", RN_SECONDS }, { "cpu_s", RN_SECONDS }, { "context_switches", RN_COUNT },
	{ "cpu_migrations", RN_COUNT }, { "page_faults", RN_COUNT }, { "cycles", RN_COUNT },
	{ "mpi_share", RN_SHARE }, { "mpi_share_with_callees", RN_SHARE },
};

/* Why v cannot be a number of this kind, or NULL when it can. */
static const char *bad_number(double v, enum rank_number kind)
{
	if (!isfinite(v))
		return "is not a finite number";
	switch (kind) {
	case RN_COUNT:
		if (v < 0)
			return "is negative (a count)";
		return v > MAX_COUNT ? "is more than a 64-bit counter holds" : NULL;
	case RN_SECONDS:
		if (v < 0)
			return "is negative (a time in seconds)";
		return v > MAX_SECONDS ? "is more seconds than a 64-bit count of nanoseconds holds" : NULL;
	case RN_SHARE:
		return v < -SHARE_SLACK || v > 1 + SHARE_SLACK ? "is not a share of the samples (0 to 1)" : NULL;
	case RN_TOPDOWN:
		return fabs(v) > MAX_COUNT ? "is not a ratio of 64-bit counts (a Top-Down fraction)" : NULL;
	}
	return NULL;
}

/* Is obj[key] a number of this kind (or null, or absent)?  Else err says which and why. */
static int check_number(json_t *obj, const char *group, const char *key, enum rank_number kind,
			const char *file, struct strbuf *err)
{
	json_t *v = json_object_get(obj, key);
	const char *why;

	if (!v || json_is_null(v))
		return 0;
	why = json_is_number(v) ? bad_number(json_number_value(v), kind) : "is not a number";
	if (!why)
		return 0;
	strbuf_addf(err, "%s: %s%s%s: ", file, group ? group : "", group ? "." : "", key);
	if (json_is_number(v))
		strbuf_addf(err, "%.6g ", json_number_value(v));
	strbuf_addstr(err, why);
	return -1;
}

/* Is obj[key] an integer in [lo, hi] (or null, or absent)? */
static int check_integer(json_t *obj, const char *key, json_int_t lo, json_int_t hi,
			 const char *file, struct strbuf *err)
{
	json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v)) {
		strbuf_addf(err, "%s: %s: not an integer", file, key);
		return -1;
	}
	if (json_integer_value(v) < lo || json_integer_value(v) > hi) {
		strbuf_addf(err, "%s: %s: %lld is outside %lld to %lld", file, key,
			    (long long)json_integer_value(v), (long long)lo, (long long)hi);
		return -1;
	}
	return 0;
}

/* Are these fields of obj strings (or null, or absent)? */
static int check_strings(json_t *obj, const char *const *keys, const char *file, struct strbuf *err)
{
	for (; *keys; keys++) {
		json_t *v = json_object_get(obj, *keys);

		if (v && !json_is_null(v) && !json_is_string(v)) {
			strbuf_addf(err, "%s: %s: not a string", file, *keys);
			return -1;
		}
	}
	return 0;
}

/* Every value of the object obj[group] a number of this kind (obj[group] may be null). */
static int check_group(json_t *obj, const char *group, enum rank_number kind, const char *file,
		       struct strbuf *err)
{
	json_t *g = json_object_get(obj, group), *v;
	const char *key;

	if (!g || json_is_null(g))
		return 0;
	if (!json_is_object(g)) {
		strbuf_addf(err, "%s: %s: not an object", file, group);
		return -1;
	}
	json_object_foreach(g, key, v)
		if (check_number(g, group, key, kind, file, err) < 0)
			return -1;
	return 0;
}

static int check_dsos(json_t *sum, const char *file, struct strbuf *err)
{
	json_t *dsos = json_object_get(sum, "mpi_dsos"), *d;
	size_t i;

	if (!dsos || json_is_null(dsos))
		return 0;
	json_array_foreach(dsos, i, d)
		if (!json_is_string(d))
			break;
	if (json_is_array(dsos) && i == json_array_size(dsos))
		return 0;
	strbuf_addf(err, "%s: mpi_dsos: not an array of strings", file);
	return -1;
}

/* A --regions rank's regions (analyze/regions-merge.c): named objects, when present. */
static int check_regions(json_t *regions, const char *file, struct strbuf *err)
{
	json_t *r;
	size_t i;

	if (!regions)
		return 0;
	if (!json_is_array(regions))
		return strbuf_addf(err, "%s: regions: not an array", file), -1;
	json_array_foreach(regions, i, r)
		if (!json_is_object(r) || !json_is_string(json_object_get(r, "name")))
			return strbuf_addf(err, "%s: regions[%zu]: not a named region", file, i), -1;
	return 0;
}

int td_rank_summary_check(json_t *sum, const char *file, struct strbuf *err)
{
	static const char *const strings[] = { "tdperf_version", "job_id", "launcher", "host", "scope",
					       "signal", "mode", NULL };
	static const char *const cpu_strings[] = { "name", "microarchitecture", NULL };
	json_t *cpu = json_object_get(sum, "cpu"), *b = json_object_get(sum, "interrupted");
	size_t i;

	if (!json_is_object(sum)) {
		strbuf_addf(err, "%s: not a JSON object", file);
		return -1;
	}
	for (i = 0; i < sizeof(rank_numbers) / sizeof(rank_numbers[0]); i++)
		if (check_number(sum, NULL, rank_numbers[i].key, rank_numbers[i].kind, file, err) < 0)
			return -1;
	if (check_group(sum, "sched", RN_SECONDS, file, err) < 0 ||
	    check_group(sum, "topdown", RN_TOPDOWN, file, err) < 0 ||
	    check_integer(sum, "rank", 0, TD_JOB_MAX_RANKS - 1, file, err) < 0 ||
	    check_integer(sum, "size", 1, TD_JOB_MAX_RANKS, file, err) < 0 ||
	    check_integer(sum, "node", 0, TD_JOB_MAX_RANKS - 1, file, err) < 0 ||
	    check_integer(sum, "exit_status", 0, 255, file, err) < 0 ||
	    check_strings(sum, strings, file, err) < 0 || check_dsos(sum, file, err) < 0)
		return -1;
	if (cpu && !json_is_null(cpu) && (!json_is_object(cpu) || check_strings(cpu, cpu_strings, file, err) < 0)) {
		if (!err->len)
			strbuf_addf(err, "%s: cpu: not an object", file);
		return -1;
	}
	if (b && !json_is_boolean(b)) {
		strbuf_addf(err, "%s: interrupted: not true or false", file);
		return -1;
	}
	if (check_regions(json_object_get(sum, "regions"), file, err) < 0)
		return -1;
	if (json_is_integer(json_object_get(sum, "rank")) && json_is_integer(json_object_get(sum, "size")) &&
	    json_integer_value(json_object_get(sum, "rank")) >= json_integer_value(json_object_get(sum, "size"))) {
		strbuf_addf(err, "%s: rank: %lld is not below the size %lld", file,
			    (long long)json_integer_value(json_object_get(sum, "rank")),
			    (long long)json_integer_value(json_object_get(sum, "size")));
		return -1;
	}
	if (td_json_num(json_object_get(sum, "mpi_share")) >
	    td_json_num(json_object_get(sum, "mpi_share_with_callees")) + SHARE_SLACK) {
		strbuf_addf(err, "%s: mpi_share: %.6g is more than mpi_share_with_callees %.6g (a part above its whole)",
			    file, td_json_num(json_object_get(sum, "mpi_share")),
			    td_json_num(json_object_get(sum, "mpi_share_with_callees")));
		return -1;
	}
	return 0;
}

/*
 * jansson's message without the text it stopped at (" near '...'"): the
 * file may be anything a symbolic link or another user put there, and its
 * bytes have no place in a message.
 */
void td_json_error_text(struct strbuf *sb, const json_error_t *jerr)
{
	const char *near = strstr(jerr->text, " near ");

	strbuf_add(sb, jerr->text, near ? (size_t)(near - jerr->text) : strlen(jerr->text));
}

/*
 * An integer that jansson cannot hold (beyond 64 bits), found again in the
 * file read with integers as reals: 1 with "FILE: FIELD: ..." in err.
 */
static int name_overflow(json_t *v, const char *field, const char *file, struct strbuf *err)
{
	const char *key;
	json_t *x;

	if (json_is_real(v) && fabs(json_real_value(v)) >= 9223372036854775808.0) {
		strbuf_addf(err, "%s: %s: %.6g is beyond any 64-bit count", file, field ? field : "(top)",
			    json_real_value(v));
		return 1;
	}
	json_object_foreach(v, key, x) {
		struct strbuf path = STRBUF_INIT;
		int found;

		strbuf_addf(&path, "%s%s%s", field ? field : "", field ? "." : "", key);
		found = name_overflow(x, path.buf, file, err);
		strbuf_release(&path);
		if (found)
			return 1;
	}
	return 0;
}

/* A rank's summary.json is a few kB; this much is something else. */
#define MAX_SUMMARY_BYTES (16L << 20)

/*
 * The file of fd: size bytes (what fstat said) and whatever more there is,
 * up to just past MAX_SUMMARY_BYTES.  A read shorter than asked is the end
 * (a regular file's), which saves a read per rank.
 */
static int read_all(int fd, struct strbuf *sb, size_t size)
{
	size_t want;
	ssize_t n;

	strbuf_grow(sb, size + 1);
	while (sb->len <= MAX_SUMMARY_BYTES) {
		if (sb->alloc - sb->len < 2)
			strbuf_grow(sb, 4096);
		want = sb->alloc - sb->len - 1;
		n = read(fd, sb->buf + sb->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		strbuf_setlen(sb, sb->len + (size_t)n);
		if ((size_t)n < want)
			break;
	}
	return 0;
}

/*
 * The rank's summary.json: 1 with *sum set, 0 when there is none, -1 with
 * err set when it cannot be what 'record' wrote: not a regular file (a
 * symbolic link is not followed, a FIFO not waited on), or not JSON.
 */
static int read_summary_file(const char *path, struct strbuf *text, json_t **sum, struct strbuf *err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	json_error_t jerr;
	struct stat st;

	*sum = NULL;
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		strbuf_addf(err, "%s: %s", path, errno == ELOOP ? "a symbolic link (not followed)" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		strbuf_addf(err, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	if (st.st_size > MAX_SUMMARY_BYTES) {
		strbuf_addf(err, "%s: %lld bytes: not a rank summary (record writes a few kB)", path,
			    (long long)st.st_size);
		close(fd);
		return -1;
	}
	strbuf_reset(text);
	if (read_all(fd, text, (size_t)st.st_size) < 0) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (text->len > MAX_SUMMARY_BYTES) {
		strbuf_addf(err, "%s: more than %ld bytes: not a rank summary (record writes a few kB)", path,
			    MAX_SUMMARY_BYTES);
		return -1;
	}
	*sum = json_loadb(text->buf, text->len, JSON_REJECT_DUPLICATES, &jerr);
	if (!*sum && json_error_code(&jerr) == json_error_numeric_overflow) {
		json_t *as_reals = json_loadb(text->buf, text->len,
					      JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, NULL);

		if (name_overflow(as_reals, NULL, path, err))
			jerr.line = 0;
		json_decref(as_reals);
	}
	if (!*sum && jerr.line) {
		strbuf_addf(err, "%s: line %d: ", path, jerr.line);
		td_json_error_text(err, &jerr);
	}
	return *sum ? 1 : -1;
}

json_t *td_report_rank_summary_load(const char *rankdir, const struct td_report_opts *opts,
				    struct td_rank_read *rd, struct strbuf *err)
{
	char *path = td_path_join(rankdir, "summary.json");
	json_t *sum = NULL, *doc;
	int got = 0;

	rd->bad = 0;
	strbuf_reset(&rd->origin);
	if (!opts->cpu && !opts->table && !opts->smt) /* else each rank is analysed with those */
		got = read_summary_file(path, &rd->text, &sum, err);
	if (got && (got < 0 || !json_is_object(sum))) {
		if (got > 0)
			strbuf_addf(err, "%s: not a JSON object", path);
		rd->bad = 1;
		free(path);
		json_decref(sum);
		return NULL;
	}
	if (got && td_json_str(sum, "tdperf_version") &&
	    !strcmp(td_json_str(sum, "tdperf_version"), PACKAGE_VERSION)) {
		strbuf_addstr(&rd->origin, path);
		free(path);
		if (td_rank_summary_check(sum, rd->origin.buf, err) < 0) {
			rd->bad = 1;
			json_decref(sum);
			return NULL;
		}
		return sum;
	}
	free(path);
	json_decref(sum);
	if (td_regions_is_run(rankdir)) { /* the library's counts, no perf stat (analyze/regions-merge.c) */
		sum = td_regions_rank_summary(rankdir, opts, err);
	} else {
		if (!(doc = td_report_load(rankdir, opts, err)))
			return NULL;
		sum = rank_summary_of(doc, rankdir, opts, err);
		json_decref(doc);
	}
	strbuf_addstr(&rd->origin, rankdir);
	if (sum && td_rank_summary_check(sum, rd->origin.buf, err) < 0) {
		rd->bad = 1;
		json_decref(sum);
		return NULL;
	}
	return sum;
}
