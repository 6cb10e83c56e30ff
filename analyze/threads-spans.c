/*
 * The threads' state timelines for the trace export (report/export-trace.c):
 * the scheduler analysis replayed on the run's perf.data, each thread's
 * spans written beside its stack in doc.threads.threads[].spans.  Kept
 * out of the report document otherwise: a long run switches threads
 * millions of times.
 */
#include "analyze/analyze-int.h"
#include "metrics/threads.h"
#include "util/util.h"

#include <string.h>

static json_t *spans_json(const struct td_thread *t, double t0)
{
	json_t *a = json_array();
	size_t k;

	for (k = 0; k < t->nr_spans; k++)
		json_array_append_new(a, json_pack("[f, f, s]", t->spans[k].start - t0, t->spans[k].end - t0,
						   td_thread_comp_id(t->spans[k].comp)));
	return a;
}

/* The perf.data the document's threads came from. */
static char *threads_perf_data(json_t *threads, const char *run_or_file)
{
	const char *run = json_string_value(json_object_get(threads, "run")); /* a sweep's detail run */
	char *dir, *pd;

	if (!td_is_dir(run_or_file))
		return xstrdup(run_or_file);
	dir = run ? td_path_join(run_or_file, run) : xstrdup(run_or_file);
	pd = td_path_join(dir, "perf.data");
	free(dir);
	return pd;
}

int td_report_add_thread_spans(json_t *doc, const char *run_or_file, struct strbuf *err)
{
	json_t *threads = json_object_get(doc, "threads"), *th;
	struct td_threads_result r;
	char *pd;
	size_t i, k;
	int got;

	if (!json_is_object(threads))
		return 0;
	pd = threads_perf_data(threads, run_or_file);
	got = td_threads_load(pd, &r, err);
	free(pd);
	if (got <= 0)
		return got;
	/* the same analysis of the same file: the same threads, matched by tid and start */
	json_array_foreach(json_object_get(threads, "threads"), i, th) {
		json_int_t tid = json_integer_value(json_object_get(th, "tid"));

		for (k = 0; k < r.nr_threads; k++)
			if (r.threads[k].tid == tid &&
			    !json_object_get(th, "spans")) {
				json_object_set_new(th, "spans", spans_json(&r.threads[k], r.trace_start));
				r.threads[k].tid = -1; /* a tid reused later is another thread */
				break;
			}
	}
	td_threads_result_release(&r);
	return 0;
}
