/*
 * The text of tdperf diff --hotspots: the functions that got slower or
 * faster, with their self weights in A and B (the sampled event's unit) and
 * how their Top-Down nodes moved.  The comparison itself is built in
 * analyze/hotspots-diff.c; this file only prints it.
 */
#include "report/render.h"
#include "util/util.h"

#include <math.h>
#include <string.h>

/* A side's weight; a function absent from that side weighs 0. */
static double period_of(json_t *fn, const char *key)
{
	return fn ? (double)json_integer_value(json_object_get(fn, key)) : 0;
}

/* A weight in the event's unit: milliseconds for the clock events. */
static void weight(FILE *out, double v, int clock)
{
	if (clock)
		fprintf(out, "%10.2f ms", v / 1e6);
	else
		fprintf(out, "%13.4g", v);
}

/* "~ inlined in A into main, bar": the row's weight on that side is its share of those callers'. */
static void inlined_line(FILE *out, json_t *row, const char *key, const char *side_name)
{
	json_t *w;
	size_t i;

	if (!json_array_size(json_object_get(row, key)))
		return;
	fprintf(out, "%45s ~ inlined in %s into ", "", side_name);
	json_array_foreach(json_object_get(row, key), i, w)
		fprintf(out, "%s%s", i ? ", " : "", td_printable(json_string_value(w)));
	fprintf(out, ": its share of their samples, by debug info\n");
}

void td_hotspots_diff_render_text(json_t *d, int top, FILE *out)
{
	const char *ev = td_json_str_or(d, "event_a", "?");
	int clock = !strcmp(ev, "cpu-clock") || !strcmp(ev, "task-clock");
	json_t *row, *n;
	size_t i, k;

	fprintf(out, "Hotspots: A = %s, B = %s (weights: %s%s)\n", td_printable(td_json_str(d, "a")),
		td_printable(td_json_str(d, "b")), td_printable(ev),
		clock ? ", in ms of CPU time" : "");
	if (!json_is_true(json_object_get(d, "same_event")))
		fprintf(out, "A sampled %s and B %s: compare the shares (%%), not the weights\n", td_printable(ev),
			td_printable(td_json_str_or(d, "event_b", "?")));
	fprintf(out, "\n%13s  %13s  %13s  %7s  %7s  function (dso)\n", "self A", "self B", "change", "A %", "B %");
	json_array_foreach(json_object_get(d, "functions"), i, row) {
		json_t *a = json_object_get(row, "a"), *b = json_object_get(row, "b");
		double ch = td_json_num(json_object_get(row, "change"));

		if (top > 0 && (int)i >= top)
			break;
		weight(out, period_of(json_is_null(a) ? NULL : a, "period"), clock);
		fputs("  ", out);
		weight(out, period_of(json_is_null(b) ? NULL : b, "period"), clock);
		fputs("  ", out);
		weight(out, ch, clock);
		fprintf(out, "  %7.2f  %7.2f  %s (%s)  %s\n", json_is_null(a) ? 0 : td_json_num(json_object_get(a, "percent")),
			json_is_null(b) ? 0 : td_json_num(json_object_get(b, "percent")),
			td_printable(td_json_str(row, "symbol")), td_printable(td_json_str(row, "dso")),
			json_is_null(a) ? "[B only]" : json_is_null(b) ? "[A only]" :
			ch > 0 ? "slower" : ch < 0 ? "faster" : "");
		inlined_line(out, row, "inlined_in_a", "A");
		inlined_line(out, row, "inlined_in_b", "B");
		json_array_foreach(json_object_get(row, "topdown"), k, n) {
			double va = td_json_num(json_object_get(n, "a")), vb = td_json_num(json_object_get(n, "b"));

			if (isfinite(va) && isfinite(vb))
				fprintf(out, "%45s %-24s %5.1f%% -> %5.1f%% (%+.1f)\n", "",
					td_printable(td_json_str(n, "id")),
					100 * va, 100 * vb, 100 * (vb - va));
		}
	}
}
