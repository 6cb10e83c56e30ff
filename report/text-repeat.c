/*
 * The text of repeated runs (record -r N, analyze/repeat.c): the tree
 * above is evaluated on the runs' mean counts, its "± err" propagated
 * from their standard errors as perf stat -r prints them; this block
 * says so and gives each shown node's spread over the runs, and with -v
 * its value in every run.
 */
#include "config.h"
#include "report/render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Level 1 and the flagged nodes; every node with a spread under -v. */
static int node_listed(json_t *n, int verbose, int max_level)
{
	json_int_t level = json_integer_value(json_object_get(n, "level"));

	if (!json_is_object(json_object_get(n, "repeat")) || (max_level && level > max_level))
		return 0;
	return verbose || level == 1 || json_is_true(json_object_get(n, "flagged"));
}

static void print_pct(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, "     n/a");
	else
		fprintf(f, " %6.1f%%", v * 100);
}

static void print_node(FILE *f, json_t *n, int verbose)
{
	json_t *r = json_object_get(n, "repeat"), *v;
	json_int_t level = json_integer_value(json_object_get(n, "level"));
	size_t i;

	fprintf(f, "    %*s%-*.*s", (int)(level - 1) * 2, "", 34 - (int)(level - 1) * 2,
		34 - (int)(level - 1) * 2, td_printable(json_string_value(json_object_get(n, "name"))));
	print_pct(f, num(r, "mean"));
	if (isnan(num(r, "stddev")))
		fprintf(f, "  sd    n/a");
	else
		fprintf(f, "  sd %6.2f", num(r, "stddev") * 100);
	fprintf(f, "  range");
	print_pct(f, num(r, "min"));
	print_pct(f, num(r, "max"));
	if (json_is_true(json_object_get(r, "incomplete")))
		fprintf(f, "  (%lld runs only)", (long long)json_integer_value(json_object_get(r, "runs")));
	if (verbose) {
		fprintf(f, "  runs:");
		json_array_foreach(json_object_get(r, "values"), i, v)
			print_pct(f, json_is_number(v) ? json_number_value(v) : NAN);
	}
	fputc('\n', f);
}

void td_report_text_repeat(FILE *f, json_t *doc, json_t *scope, int verbose, int max_level)
{
	json_t *rep = json_object_get(doc, "repeat"), *n;
	size_t i;

	if (!json_is_object(rep))
		return;
	if (!json_is_string(json_object_get(rep, "source")) ||
	    strcmp(json_string_value(json_object_get(rep, "source")), "record")) {
		json_t *sess = json_array_get(json_object_get(doc, "sessions"),
					      json_integer_value(json_object_get(scope, "session")) - 1);
		json_int_t runs = json_integer_value(json_object_get(sess, "repeats"));

		if (runs > 1)
			fprintf(f, "  Mean of %lld runs (perf stat -r): values from perf's mean counts; "
				"\xc2\xb1 err from perf's \"+- x%%\", the standard error of each mean\n",
				(long long)runs);
		return;
	}
	fprintf(f, "  Mean of %lld runs (record -r): values from the runs' mean counts; \xc2\xb1 err from their "
		"standard errors, as perf stat -r prints them\n",
		(long long)json_integer_value(json_object_get(rep, "runs")));
	fprintf(f, "  Spread over the runs (each run on its own counts; sd: sample standard deviation, points)%s\n",
		verbose ? "" : "; -v lists each run");
	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (node_listed(n, verbose, max_level))
			print_node(f, n, verbose);
}

int td_report_warning_recorded(json_t *w)
{
	json_t *src = json_object_get(w, "source");

	return json_is_string(src) && !strcmp(json_string_value(src), "record");
}

int td_report_recorded_warnings_line(struct strbuf *sb, json_t *list)
{
	json_t *w;
	size_t i;
	int n = 0;

	json_array_foreach(list, i, w) {
		if (!td_report_warning_recorded(w))
			continue;
		strbuf_addstr(sb, n++ ? "; " : "recorded with warnings: ");
		strbuf_addstr(sb, json_string_value(json_object_get(w, "text")));
	}
	return n;
}

