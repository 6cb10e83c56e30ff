/*
 * Text rendering of the document's "threads" and "sweep" objects: a table
 * of per-thread stacks with a one-line bar each, the groups, the dominant
 * component, and for sweeps the scaling table with speedups and the
 * component that grows.  Everything is read back from the document, so
 * the text says exactly what the JSON says.
 */
#include "report/render.h"

#include <math.h>
#include <string.h>

/* Column order, and the letter each component is drawn with in bars. */
static const struct {
	const char *id, *head;
	char letter;
} cols[] = {
	{ "running", "run", '#' },
	{ "runnable", "runq", 'q' },
	{ "sync", "sync", 's' },
	{ "io", "io", 'i' },
	{ "sleep", "sleep", 'z' },
	{ "unknown", "unkn", '?' },
	{ "imbalance", "imbal", '.' },
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))
#define BAR 30

static double get_num(json_t *o, const char *key)
{
	json_t *v = o ? json_object_get(o, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *get_str(json_t *o, const char *key)
{
	const char *s = json_string_value(o ? json_object_get(o, key) : NULL);

	return s ? s : "";
}

/* "  12.3" or "     -" for a fraction. */
static void add_pct(struct strbuf *out, double f)
{
	if (isfinite(f))
		strbuf_addf(out, " %5.1f", 100.0 * f);
	else
		strbuf_addstr(out, "     -");
}

/*
 * A bar of BAR characters, one letter per component in proportion to its
 * fraction (largest remainders get the leftover cells, so it always has
 * exactly BAR cells when the fractions sum to 1).
 */
static void add_bar(struct strbuf *out, json_t *fractions)
{
	int cells[NCOLS], used = 0;
	double rem[NCOLS];
	size_t i, j;

	for (i = 0; i < NCOLS; i++) {
		double f = get_num(fractions, cols[i].id);
		if (!isfinite(f) || f < 0)
			f = 0;
		cells[i] = (int)floor(f * BAR);
		rem[i] = f * BAR - cells[i];
		used += cells[i];
	}
	while (used < BAR) {
		size_t best = 0;
		for (j = 1; j < NCOLS; j++)
			if (rem[j] > rem[best])
				best = j;
		if (rem[best] <= 0.0)
			break;
		cells[best]++;
		rem[best] = 0;
		used++;
	}
	strbuf_addch(out, '|');
	for (i = 0; i < NCOLS; i++)
		for (j = 0; j < (size_t)cells[i]; j++)
			strbuf_addch(out, cols[i].letter);
	for (; used < BAR; used++)
		strbuf_addch(out, ' ');
	strbuf_addch(out, '|');
}

static void add_header(struct strbuf *out, const char *first, int width)
{
	size_t i;

	strbuf_addf(out, "  %-*s", width, first);
	for (i = 0; i < NCOLS; i++)
		strbuf_addf(out, " %5s", cols[i].head);
	strbuf_addstr(out, "  (% of time)\n");
}

static void add_legend(struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "  bars:");
	for (i = 0; i < NCOLS; i++)
		strbuf_addf(out, " %c %s", cols[i].letter, cols[i].id);
	strbuf_addch(out, '\n');
}

static void text_threads(json_t *t, struct strbuf *out)
{
	json_t *threads = json_object_get(t, "threads"), *groups = json_object_get(t, "groups");
	json_t *agg = json_object_get(t, "aggregate"), *region = json_object_get(t, "region");
	json_t *notes = json_object_get(t, "notes"), *x;
	size_t i, j;

	strbuf_addstr(out, "\nThreads (per-thread stacks from sched tracepoints");
	if (json_is_string(json_object_get(t, "run")))
		strbuf_addf(out, ", run %s", td_printable(get_str(t, "run")));
	if (json_is_integer(json_object_get(t, "recorded_run")))
		strbuf_addf(out, ", run %lld of %lld: the scheduler was recorded in that run only",
			    (long long)json_integer_value(json_object_get(t, "recorded_run")),
			    (long long)json_integer_value(json_object_get(t, "runs")));
	strbuf_addstr(out, ")\n");
	strbuf_addf(out, "  region %.6f .. %.6f s (span %.6f s), %zu thread%s, %lld aggregated\n",
		    get_num(region, "start"), get_num(region, "end"), get_num(region, "span"),
		    json_array_size(threads), json_array_size(threads) == 1 ? "" : "s",
		    (long long)json_integer_value(json_object_get(agg, "threads")));
	strbuf_addf(out, "  Dominant: %s\n", td_printable(get_str(agg, "sentence")));
	add_header(out, "tid name", 24);
	json_array_foreach(threads, i, x) {
		struct strbuf label = STRBUF_INIT;
		strbuf_addf(&label, "%lld %s", (long long)json_integer_value(json_object_get(x, "tid")),
			    td_printable(get_str(x, "name")));
		strbuf_addf(out, "  %-24.24s", label.buf);
		strbuf_release(&label);
		for (j = 0; j < NCOLS; j++)
			add_pct(out, get_num(json_object_get(x, "fractions"), cols[j].id));
		strbuf_addstr(out, "  ");
		add_bar(out, json_object_get(x, "fractions"));
		if (json_is_true(json_object_get(x, "excluded")))
			strbuf_addf(out, " excluded: %.0f %% sync",
				    100.0 * get_num(x, "sync_fraction"));
		strbuf_addch(out, '\n');
	}
	add_header(out, "group (threads)", 24);
	json_array_foreach(groups, i, x) {
		struct strbuf label = STRBUF_INIT;
		strbuf_addf(&label, "%s (%lld)", td_printable(get_str(x, "name")),
			    (long long)json_integer_value(json_object_get(x, "threads")));
		strbuf_addf(out, "  %-24.24s", label.buf);
		strbuf_release(&label);
		for (j = 0; j < NCOLS; j++)
			add_pct(out, get_num(json_object_get(x, "fractions"), cols[j].id));
		strbuf_addstr(out, "  ");
		add_bar(out, json_object_get(x, "fractions"));
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "  %-24s", "aggregate");
	for (j = 0; j < NCOLS; j++)
		add_pct(out, get_num(json_object_get(agg, "fractions"), cols[j].id));
	strbuf_addstr(out, "  ");
	add_bar(out, json_object_get(agg, "fractions"));
	strbuf_addch(out, '\n');
	add_legend(out);
	json_array_foreach(notes, i, x)
		strbuf_addf(out, "  note: %s\n", td_printable(json_string_value(x)));
}

static void text_sweep(json_t *s, struct strbuf *out)
{
	json_t *runs = json_object_get(s, "runs"), *x, *grow = json_object_get(s, "growing");
	size_t i, j;

	strbuf_addf(out, "\nScaling over %s (stacks of the aggregated threads)\n",
		    td_printable(get_str(s, "parameter")));
	strbuf_addf(out, "  %8s %9s %7s %5s %6s", td_printable(get_str(s, "parameter")), "elapsed/s", "speedup",
		    "eff%", "sum/b");
	for (j = 0; j < NCOLS; j++)
		strbuf_addf(out, " %5s", cols[j].head);
	strbuf_addstr(out, "  (% of summed thread time)\n");
	json_array_foreach(runs, i, x) {
		double norm_total = 0;
		json_t *norm = json_object_get(x, "normalized");
		for (j = 0; j < NCOLS; j++) {
			double v = get_num(norm, cols[j].id);
			if (isfinite(v))
				norm_total += v;
		}
		strbuf_addf(out, "  %8g %9.4f %7.2f %5.0f %6.2f", get_num(x, "value"),
			    get_num(x, "elapsed"), get_num(x, "speedup"),
			    100.0 * get_num(x, "efficiency"), json_is_object(norm) ? norm_total : NAN);
		for (j = 0; j < NCOLS; j++)
			add_pct(out, get_num(json_object_get(x, "fractions"), cols[j].id));
		strbuf_addstr(out, "  ");
		add_bar(out, json_object_get(x, "fractions"));
		if (!json_is_true(json_object_get(x, "analysed")))
			strbuf_addf(out, " %s", td_printable(get_str(x, "reason")));
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "  sum/b: summed thread time relative to the baseline run\n");
	if (json_is_object(grow))
		strbuf_addf(out, "  Growing: %s\n", td_printable(get_str(grow, "sentence")));
	json_array_foreach(json_object_get(s, "notes"), i, x)
		strbuf_addf(out, "  note: %s\n", td_printable(json_string_value(x)));
}

void td_report_text_threads(json_t *doc, struct strbuf *out)
{
	json_t *t = json_object_get(doc, "threads"), *s = json_object_get(doc, "sweep");

	if (json_is_object(s))
		text_sweep(s, out);
	if (json_is_object(t))
		text_threads(t, out);
}

void td_report_text_threads_file(json_t *doc, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	td_report_text_threads(doc, &sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}
