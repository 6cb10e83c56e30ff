/*
 * tdperf diff as text: the two sides, the Level 1-2 fractions with deltas,
 * the CPI stacks with the attribution of the change, then one-sided nodes,
 * approximations, multiplexing and warnings.
 */
#include "config.h"
#include "report/render.h"

#include <math.h>
#include <string.h>

static void side_line(FILE *out, const char *tag, json_t *s)
{
	double w = td_json_num(json_object_get(s, "slots_per_cycle"));
	double cpi = td_json_num(json_object_get(s, "cpi"));

	fprintf(out, "  %s: %s\n     %s", tag, td_printable(td_json_str_or(s, "label", "?")),
		td_json_str(s, "cpu") ? td_printable(td_json_str(s, "cpu")) : "CPU unknown");
	if (td_json_str(s, "table"))
		fprintf(out, " (table %s", td_printable(td_json_str(s, "table")));
	if (!isnan(w))
		fprintf(out, ", %g slots/cycle", w);
	if (td_json_str(s, "table"))
		fputc(')', out);
	fprintf(out, ", scope %s", td_printable(td_json_str_or(s, "scope", "?")));
	if (!isnan(cpi))
		fprintf(out, ", CPI %.3f", cpi);
	fputc('\n', out);
	if (td_json_str(s, "bottleneck"))
		fprintf(out, "     bottleneck: %s\n", td_printable(td_json_str(s, "bottleneck")));
}

/*
 * One fraction in a column 9 wide: "~" (approximate) goes right before its
 * own number, so that it is never read as belonging to the column left of
 * it.
 */
static void pct_cell(FILE *out, double v, int approx, const char *source)
{
	char cell[32];
	/* nodes[].source: perf's printed value, or the sum of the node's Level-2 children */
	const char *mark = !source ? "" : !strcmp(source, "perf") ? "p" : !strcmp(source, "children") ? "s" : "";

	if (isnan(v))
		snprintf(cell, sizeof(cell), "n/a");
	else
		snprintf(cell, sizeof(cell), "%s%.1f%%%s", approx ? "~" : "", v * 100, mark);
	fprintf(out, " %9s", cell);
}

static void nodes_table(FILE *out, json_t *diff)
{
	json_t *n;
	size_t i;

	fprintf(out, "\nTop-Down Level 1-2, fraction of slots %14s %9s %11s\n", "A", "B", "B - A");
	json_array_foreach(json_object_get(diff, "nodes"), i, n) {
		int level = td_json_int(json_object_get(n, "level"), 0);
		double d = td_json_num(json_object_get(n, "delta"));
		const char *only = td_json_str(n, "only_in");

		fprintf(out, "  %*s%-*.*s", (level - 1) * 2, "", 38 - (level - 1) * 2, 38 - (level - 1) * 2,
			td_printable(td_json_str_or(n, "name", "?")));
		pct_cell(out, td_json_num(json_object_get(n, "a")), json_is_true(json_object_get(n, "a_approximate")),
			 td_json_str(n, "a_source"));
		pct_cell(out, td_json_num(json_object_get(n, "b")), json_is_true(json_object_get(n, "b_approximate")),
			 td_json_str(n, "b_source"));
		if (!isnan(d))
			fprintf(out, " %+7.1f pts", d * 100);
		else if (only)
			fprintf(out, "   only in %s", !strcmp(only, "a") ? "A" : "B");
		fputc('\n', out);
	}
	fprintf(out, "  (~ = approximate, p = the value perf printed, s = the sum of its Level-2 children: "
		"the counts did not give it)\n");
}

static void attribution_table(FILE *out, json_t *st, const char *title, const char *fmt)
{
	json_t *c;
	size_t i;
	double un = td_json_num(json_object_get(st, "unattributed"));

	fprintf(out, "\n%s\n", title);
	if (!json_is_array(json_object_get(st, "components"))) {
		fprintf(out, "  not computable: %s\n",
			td_json_str(st, "reason") ? td_printable(td_json_str(st, "reason")) : "?");
		return;
	}
	fprintf(out, "  %-36s %12s %12s %12s %8s\n", "component", "A", "B", "B - A", "share");
	json_array_foreach(json_object_get(st, "components"), i, c) {
		int level = td_json_int(json_object_get(c, "level"), 0);
		double sh = td_json_num(json_object_get(c, "share"));
		double v[3] = { td_json_num(json_object_get(c, "a")), td_json_num(json_object_get(c, "b")),
				td_json_num(json_object_get(c, "delta")) };
		int k;

		fprintf(out, "  %*s%-*.*s", level > 1 ? 2 : 0, "", level > 1 ? 34 : 36, level > 1 ? 34 : 36,
			td_printable(td_json_str_or(c, "name", "?")));
		for (k = 0; k < 3; k++) {
			if (isnan(v[k]))
				fprintf(out, " %12s", "n/a");
			else
				fprintf(out, k == 2 ? " %+12.4g" : fmt, v[k]);
		}
		if (!isnan(sh))
			fprintf(out, " %7.0f%%", sh * 100);
		fputc('\n', out);
	}
	fprintf(out, "  %-36s", "total");
	fprintf(out, fmt, td_json_num(json_object_get(st, "a_total")));
	fprintf(out, fmt, td_json_num(json_object_get(st, "b_total")));
	fprintf(out, " %+12.4g\n", td_json_num(json_object_get(st, "delta")));
	if (!isnan(un) && fabs(un) > 1e-9 * fmax(1, fabs(td_json_num(json_object_get(st, "delta")))))
		fprintf(out, "  not attributed (fractions do not sum to 1): %+.4g\n", un);
	if (td_json_str(st, "reason"))
		fprintf(out, "  note: %s\n", td_printable(td_json_str(st, "reason")));
	if (json_is_true(json_object_get(st, "approximate")))
		fprintf(out, "  note: built from approximate nodes\n");
}

static void id_list(FILE *out, const char *what, json_t *list)
{
	json_t *x;
	size_t i;

	if (!json_array_size(list))
		return;
	fprintf(out, "  %s:", what);
	json_array_foreach(list, i, x)
		fprintf(out, "%s %s (L%d)", i ? "," : "", td_printable(td_json_str_or(x, "id", "?")),
			td_json_int(json_object_get(x, "level"), 0));
	fputc('\n', out);
}

static void mux_line(FILE *out, const char *tag, json_t *m)
{
	double n = td_json_num(json_object_get(m, "multiplexed"));
	double low = td_json_num(json_object_get(m, "lowest_running_pct"));

	if (n > 0)
		fprintf(out, "  %s: %g of %g events multiplexed", tag, n, td_json_num(json_object_get(m, "events")));
	else
		fprintf(out, "  %s: no multiplexing (%g events)", tag, td_json_num(json_object_get(m, "events")));
	if (!isnan(low))
		fprintf(out, ", lowest %.1f%% of the time", low);
	fputc('\n', out);
}

void td_diff_render_text(json_t *diff, FILE *out)
{
	json_t *st, *x;
	size_t i;

	fprintf(out, "tdperf diff\n");
	side_line(out, "A", json_object_get(diff, "a"));
	side_line(out, "B", json_object_get(diff, "b"));
	if (json_is_false(json_object_get(diff, "topdown_measured"))) {
		/* no hardware counts on either side: no table of n/a, what they have instead */
		fprintf(out, "\nTop-Down: not measured on either side (no hardware counters); compared instead:\n"
			     "elapsed time, the counts both sides have, per-thread stacks\n");
	} else {
		nodes_table(out, diff);
		json_array_foreach(json_object_get(diff, "cpi_stacks"), i, st) {
			char title[96];

			snprintf(title, sizeof(title), "CPI stack, Level %d (cycles per instruction, CPI x fraction)",
				 td_json_int(json_object_get(st, "level"), 0));
			attribution_table(out, st, title, " %12.4g");
		}
		attribution_table(out, json_object_get(diff, "cycles"),
				  "Cycles by component (instructions x CPI stack)", " %12.4g");
	}
	td_diff_render_counts_text(diff, out);
	if (json_array_size(json_object_get(diff, "only_in_a")) || json_array_size(json_object_get(diff, "only_in_b"))) {
		fprintf(out, "\nNodes on one side only\n");
		id_list(out, "only in A", json_object_get(diff, "only_in_a"));
		id_list(out, "only in B", json_object_get(diff, "only_in_b"));
	}
	if (json_array_size(json_object_get(diff, "approximations"))) {
		fprintf(out, "\nApproximations\n");
		json_array_foreach(json_object_get(diff, "approximations"), i, x)
			fprintf(out, "  %s: %s in A, %s in B%s\n", td_printable(td_json_str_or(x, "name", "?")),
				json_is_true(json_object_get(x, "a")) ? "approximate" : "exact",
				json_is_true(json_object_get(x, "b")) ? "approximate" : "exact",
				json_is_true(json_object_get(x, "changed")) ? " (changed)" : "");
	}
	fprintf(out, "\nMultiplexing\n");
	mux_line(out, "A", json_object_get(json_object_get(diff, "a"), "multiplexing"));
	mux_line(out, "B", json_object_get(json_object_get(diff, "b"), "multiplexing"));
	if (json_array_size(json_object_get(diff, "warnings"))) {
		fprintf(out, "\nWarnings\n");
		json_array_foreach(json_object_get(diff, "warnings"), i, x)
			fprintf(out, "  warning: %s\n", td_printable(json_string_value(x)));
	}
}
