/*
 * Chrome's trace-event JSON ("Trace Event Format", the JSON Object form:
 * {"traceEvents": [...]}), which chrome://tracing and Perfetto's UI and
 * trace processor read.  Times ("ts", "dur") are microseconds.
 *
 * From a run's document:
 *  - each thread of the scheduler analysis ("threads") a track of "X"
 *    slices, one per state span (running, runnable, sync, io, sleep,
 *    unknown), named by its process ("M" process_name, thread_name);
 *    the spans are those metrics/threads.c charged the thread's time to
 *    (threads[].spans, added by td_report_add_thread_spans);
 *  - each interval scope of perf stat -I a sample of two "C" counter
 *    tracks: Top-Down Level 1 (the fractions, stacked by the viewers)
 *    and CPI, set at the interval's start.
 * The threads' clock starts at the recording's first event, the
 * intervals' at perf stat's start: two processes, each on its own axis
 * (said in otherData).
 *
 * From a --regions report (analyze/regions.c, "timeline"): each logged
 * pass of a region an "X" slice on its thread's track, its scaled counts,
 * Level 1 and whether it is an estimate as args.  The passes of one
 * thread nest as the program's begin/end calls did: a nested pass begins
 * after and ends before the pass around it (the library reads the
 * counters at the inner begin after the outer's, and at the outer end
 * after the inner's), so the viewers stack them.
 */
#include "config.h"
#include "report/export.h"
#include "analyze/doc.h"

#include <math.h>
#include <string.h>

/* The pid counter tracks live under: no thread has it. */
#define COUNTER_PID 0

static json_t *usec(double seconds)
{
	return json_real(seconds * 1e6);
}

static void add_metadata(json_t *events, const char *what, json_int_t pid, json_int_t tid, const char *name)
{
	json_t *e = json_pack("{s:s, s:s, s:I, s:{s:s}}", "ph", "M", "name", what, "pid", pid, "args", "name", name);

	if (tid >= 0)
		json_object_set_new(e, "tid", json_integer(tid));
	json_array_append_new(events, e);
}

/* The process's name, once per pid ('named' remembers which are named). */
static void name_process_once(json_t *events, json_t *named, json_int_t pid, const char *name)
{
	char key[32];

	snprintf(key, sizeof(key), "%" JSON_INTEGER_FORMAT, pid);
	if (json_object_get(named, key))
		return;
	json_object_set_new(named, key, json_true());
	add_metadata(events, "process_name", pid, -1, name);
}

/* One thread's state spans as slices; its process and thread names once. */
static void add_thread(json_t *events, json_t *th, json_t *named)
{
	json_int_t tid = json_integer_value(json_object_get(th, "tid"));
	json_int_t pid = json_is_integer(json_object_get(th, "pid")) ? json_integer_value(json_object_get(th, "pid")) : tid;
	const char *name = td_json_str_or(th, "name", "?");
	json_t *span;
	size_t i;

	name_process_once(events, named, pid, name);
	add_metadata(events, "thread_name", pid, tid, name);
	json_array_foreach(json_object_get(th, "spans"), i, span) {
		double t0 = td_json_num(json_array_get(span, 0)), t1 = td_json_num(json_array_get(span, 1));

		json_array_append_new(events, json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:o}",
			"ph", "X", "cat", "thread-state", "name", json_string_value(json_array_get(span, 2)),
			"pid", pid, "tid", tid, "ts", usec(t0), "dur", usec(t1 - t0)));
	}
}

/* Level 1 and CPI of one interval scope, as counter samples at 'start'. */
static int add_interval(json_t *events, json_t *scope, double start)
{
	json_t *level1 = json_object(), *node, *cpi;
	size_t i;
	int any = 0;

	json_array_foreach(json_object_get(scope, "nodes"), i, node) {
		double v = td_json_num(json_object_get(node, "value"));

		if (td_node_level(node) == 1 && isfinite(v)) {
			json_object_set_new(level1, td_json_str_or(node, "name", "?"), json_real(v));
			any = 1;
		}
	}
	if (any)
		json_array_append_new(events, json_pack("{s:s, s:s, s:I, s:o, s:o}", "ph", "C",
			"name", "Top-Down Level 1", "pid", (json_int_t)COUNTER_PID, "ts", usec(start), "args", level1));
	else
		json_decref(level1);
	cpi = td_report_cpi_stack(scope, 1);
	if (isfinite(td_json_num(json_object_get(cpi, "cpi")))) {
		json_array_append_new(events, json_pack("{s:s, s:s, s:I, s:o, s:{s:O}}", "ph", "C",
			"name", "CPI", "pid", (json_int_t)COUNTER_PID, "ts", usec(start),
			"args", "CPI", json_object_get(cpi, "cpi")));
		any = 1;
	}
	json_decref(cpi);
	return any;
}

/* The total scopes of -I intervals, in time order (perf prints them so). */
static size_t add_intervals(json_t *events, json_t *doc)
{
	json_t *scope;
	size_t i, n = 0;
	double start = 0;

	json_array_foreach(json_object_get(doc, "scopes"), i, scope) {
		double end = td_json_num(json_object_get(scope, "time"));

		if (!td_scope_is_interval(scope) || strcmp(td_json_str_or(scope, "kind", ""), "total") ||
		    !isfinite(end))
			continue;
		if (add_interval(events, scope, start))
			n++;
		start = end;
	}
	if (n)
		add_metadata(events, "process_name", COUNTER_PID, -1, "perf stat -I intervals");
	return n;
}

int td_export_trace(json_t *doc, FILE *out, struct strbuf *err)
{
	json_t *events = json_array(), *threads = json_object_get(json_object_get(doc, "threads"), "threads");
	json_t *named = json_object(), *th, *trace;
	size_t i, nr_intervals;

	if (td_report_unfold(doc, err) < 0) {
		json_decref(events);
		json_decref(named);
		return -1;
	}
	json_array_foreach(threads, i, th)
		add_thread(events, th, named);
	json_decref(named);
	nr_intervals = add_intervals(events, doc);
	if (!json_array_size(threads) && !nr_intervals) {
		strbuf_addstr(err, "nothing to put on a timeline: the run has neither scheduler events "
			      "(record --threads) nor perf stat -I intervals (record -I MS)");
		json_decref(events);
		return -1;
	}
	trace = json_pack("{s:o, s:s, s:{s:s, s:s}}", "traceEvents", events, "displayTimeUnit", "ms",
			  "otherData", "exporter", "tdperf " PACKAGE_VERSION,
			  "clocks", "threads: seconds from the recording's first scheduler event; "
				    "intervals: from perf stat's start");
	json_dumpf(trace, out, JSON_COMPACT);
	fputc('\n', out);
	json_decref(trace);
	return 0;
}

/* One thread's region passes as slices, under its process's name. */
static void add_region_thread(json_t *events, json_t *th, json_t *named, const char *run)
{
	json_int_t pid = json_integer_value(json_object_get(th, "pid"));
	json_int_t tid = json_integer_value(json_object_get(th, "tid"));
	char name[64];
	json_t *x;
	size_t i;

	name_process_once(events, named, pid, run);
	snprintf(name, sizeof(name), "thread %" JSON_INTEGER_FORMAT, tid);
	add_metadata(events, "thread_name", pid, tid, name);
	json_array_foreach(json_object_get(th, "instances"), i, x) {
		json_t *args = json_pack("{s:O, s:O, s:O}", "depth", json_object_get(x, "depth"),
					 "estimate", json_object_get(x, "estimate"),
					 "counts", json_object_get(x, "counts"));

		if (json_object_size(json_object_get(x, "level1")))
			json_object_set(args, "Top-Down Level 1", json_object_get(x, "level1"));
		json_array_append_new(events, json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:o, s:o}",
			"ph", "X", "cat", "region", "name", td_json_str_or(x, "name", "?"), "pid", pid,
			"tid", tid, "ts", usec(td_json_num(json_object_get(x, "start_s"))),
			"dur", usec(td_json_num(json_object_get(x, "time_s"))), "args", args));
	}
}

int td_export_trace_regions(json_t *doc, FILE *out, struct strbuf *err)
{
	json_t *timeline = json_object_get(doc, "timeline"), *events, *named, *th, *trace;
	size_t i;

	if (!json_array_size(json_object_get(timeline, "threads"))) {
		strbuf_addstr(err, "nothing to put on a timeline: the run's regions files log no passes "
			      "(written by a libtdperf.so older than this tdperf)");
		return -1;
	}
	events = json_array();
	named = json_object();
	json_array_foreach(json_object_get(timeline, "threads"), i, th)
		add_region_thread(events, th, named, td_json_str_or(doc, "run", "regions"));
	json_decref(named);
	trace = json_pack("{s:o, s:s, s:{s:s, s:s, s:O, s:O}}", "traceEvents", events,
			  "displayTimeUnit", "ms", "otherData", "exporter", "tdperf " PACKAGE_VERSION,
			  "clocks", "regions: seconds from the run's first region pass (CLOCK_MONOTONIC, "
				    "one clock for all the run's processes)",
			  "passes_not_shown", json_object_get(timeline, "dropped"),
			  "passes_shown_per_thread", json_object_get(timeline, "per_thread_limit"));
	if (td_json_int(json_object_get(doc, "sample"), 1) > 1)
		json_object_set_new(json_object_get(trace, "otherData"), "region_sample", json_sprintf(
			"one pass in %d was counted (--region-sample): only those are slices",
			td_json_int(json_object_get(doc, "sample"), 1)));
	json_dumpf(trace, out, JSON_COMPACT);
	fputc('\n', out);
	json_decref(trace);
	return 0;
}
