/*
 * Text rendering of a scope's "stacks" object (analyze/stacks.c): the
 * Top-Down CPI stack, the multi-stage CPI stacks side by side with their
 * range, the IPC and FLOPS stacks side by side, and the frontend delivery
 * analysis.  Marks: "~" approximate, "n/m" not measurable on this CPU,
 * "?" not computable; the reasons follow each table as notes.
 */
#include <math.h>
#include <string.h>

#include "report/render.h"

static double jnum(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static int jtrue(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/*
 * Notes collected under a table: each distinct reason once, numbered, with
 * the parts it applies to; repeated items inside a reason ("X not
 * measured; X not measured") are listed once.
 */
struct notes {
	char **reasons;
	struct strbuf *parts;
	int n;
};

/* "a; b; a" -> "a; b" */
static char *dedupe_items(const char *reason)
{
	struct strbuf out = STRBUF_INIT, item = STRBUF_INIT;
	const char *p = reason;

	while (*p) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *q = out.buf;
		int seen = 0;

		strbuf_reset(&item);
		strbuf_add(&item, p, len);
		while ((q = strstr(q, item.buf))) {
			if ((q == out.buf || (q >= out.buf + 2 && q[-2] == ';')) &&
			    (q[len] == '\0' || q[len] == ';')) {
				seen = 1;
				break;
			}
			q++;
		}
		if (!seen)
			strbuf_addf(&out, "%s%s", out.len ? "; " : "", item.buf);
		p += len;
		if (end)
			p += 2;
	}
	strbuf_release(&item);
	return strbuf_detach(&out, NULL);
}

/* A reason as the text report shows it: at most four event names. */
static char *short_reason(const char *reason)
{
	struct strbuf sb = STRBUF_INIT;
	char *r = dedupe_items(reason);

	td_reason_short(&sb, r, 4);
	free(r);
	return strbuf_detach(&sb, NULL);
}

static int note_add(struct notes *nt, const char *what, const char *reason)
{
	char *r = short_reason(reason);
	int i;

	for (i = 0; i < nt->n; i++)
		if (!strcmp(nt->reasons[i], r)) {
			free(r);
			strbuf_addf(&nt->parts[i], ", %s", what);
			return i + 1;
		}
	nt->reasons = xrealloc(nt->reasons, (nt->n + 1) * sizeof(*nt->reasons));
	nt->parts = xrealloc(nt->parts, (nt->n + 1) * sizeof(*nt->parts));
	nt->reasons[nt->n] = r;
	strbuf_init(&nt->parts[nt->n], 0);
	strbuf_addstr(&nt->parts[nt->n], what);
	return ++nt->n;
}

/* Print the notes and forget them. */
static void note_flush(struct strbuf *sb, struct notes *nt)
{
	int i;

	if (nt->n)
		strbuf_addstr(sb, "  notes:\n");
	for (i = 0; i < nt->n; i++) {
		strbuf_addf(sb, "    [%d] %s: %s\n", i + 1, td_printable(nt->parts[i].buf),
			    td_printable(nt->reasons[i]));
		free(nt->reasons[i]);
		strbuf_release(&nt->parts[i]);
	}
	free(nt->reasons);
	free(nt->parts);
	nt->reasons = NULL;
	nt->parts = NULL;
	nt->n = 0;
}

/*
 * " p" after a component whose fraction is the value perf printed (the
 * counts did not give it), " s" after one summed from its Level-2
 * children: the tree's marks (report/text.c).
 */
static const char *source_mark(json_t *c)
{
	const char *src = jstr(c, "source");

	return !src ? "" : !strcmp(src, "perf") ? "  p" : !strcmp(src, "children") ? "  s" : "";
}

/*
 * One cell of width w: the value with 'prec' decimals, "~" when
 * approximate, "n/m" when not measurable, "?[k]" when unknown (k: note).
 */
static void cell(struct strbuf *sb, int w, json_t *part, const char *key, int prec,
		 struct notes *nt, const char *what)
{
	char buf[64];
	double v = jnum(part, key);
	const char *reason = jstr(part, "reason");

	if (!part || json_is_false(json_object_get(part, "measurable"))) {
		snprintf(buf, sizeof(buf), "n/m");
		if (part && reason && nt)
			snprintf(buf, sizeof(buf), "n/m[%d]", note_add(nt, what, reason));
	} else if (isnan(v)) {
		if (nt && reason)
			snprintf(buf, sizeof(buf), "?[%d]", note_add(nt, what, reason));
		else
			snprintf(buf, sizeof(buf), "?");
	} else {
		snprintf(buf, sizeof(buf), "%.*f%s", prec, v, jtrue(part, "approximate") ? "~" : " ");
	}
	strbuf_addf(sb, " %*s", w, buf);
}

static json_t *find_part(json_t *parts, const char *id)
{
	json_t *p;
	size_t i;

	json_array_foreach(parts, i, p)
		if (jstr(p, "id") && !strcmp(jstr(p, "id"), id))
			return p;
	return NULL;
}

static void cpi_section(struct strbuf *sb, json_t *cpi, int verbose)
{
	json_t *c;
	size_t i;

	if (!cpi)
		return;
	if (isnan(jnum(cpi, "cpi"))) {
		strbuf_addf(sb, "CPI stack: not computable: %s\n",
			    jstr(cpi, "reason") ? td_printable(jstr(cpi, "reason")) : "CPI unknown");
		return;
	}
	strbuf_addf(sb, "CPI stack (Top-Down Level %s x CPI; CPI %.3f = ", verbose ? "1/2" : "1",
		    jnum(cpi, "cpi"));
	td_format_count(sb, jnum(cpi, "cycles"));
	strbuf_addstr(sb, " cycles / ");
	td_format_count(sb, jnum(cpi, "instructions"));
	strbuf_addstr(sb, " instructions)\n");
	if (!json_array_size(json_object_get(cpi, "components")))
		strbuf_addf(sb, "  no components: %s\n",
			    jstr(cpi, "reason") ? td_printable(jstr(cpi, "reason")) : "no Level-1/2 nodes");
	json_array_foreach(json_object_get(cpi, "components"), i, c) {
		int level = (int)jnum(c, "level");
		double v = jnum(c, "value");

		if (level > 1 && !verbose)
			continue;	/* Level 2 with -v, as in the tree */

		strbuf_addf(sb, "  %*s%-*s", 2 * (level - 1), "", 26 - 2 * (level - 1),
			    td_printable(jstr(c, "name") ? jstr(c, "name") : jstr(c, "id")));
		if (isnan(v)) {
			char *why = short_reason(jstr(c, "reason") ? jstr(c, "reason") : "unknown");

			strbuf_addf(sb, "       ?   (%s)\n", td_printable(why));
			free(why);
		}
		else
			strbuf_addf(sb, " %7.3f%s  %5.1f%%%s\n", v, jtrue(c, "approximate") ? "~" : " ",
				    100 * jnum(c, "fraction"), source_mark(c));
	}
}

static int stages_computed(json_t *stages)
{
	json_t *st;
	size_t i;

	json_array_foreach(stages, i, st)
		if (td_stack_stage_computed(st))
			return 1;
	return 0;
}

/* Whether some stage has every component, so a total: a stack to read. */
static int stages_complete(json_t *stages)
{
	json_t *st;
	size_t i;

	json_array_foreach(stages, i, st)
		if (td_stack_stage_computed(st) && !isnan(jnum(st, "sum")))
			return 1;
	return 0;
}

/* Why a stage shows nothing: its parts' reasons, each missing count once. */
static char *stage_missing(json_t *st)
{
	struct strbuf all = STRBUF_INIT;
	json_t *p;
	size_t j;
	char *r;

	json_array_foreach(json_object_get(st, "parts"), j, p) {
		const char *why = jstr(p, "reason");

		if (why && isnan(jnum(p, "value")) && !json_is_false(json_object_get(p, "measurable")) &&
		    strncmp(why, "residual", 8))
			strbuf_addf(&all, "%s%s", all.len ? "; " : "", why);
	}
	r = short_reason(all.buf);
	strbuf_release(&all);
	return r;
}

static void multistage_section(struct strbuf *sb, json_t *ms, int verbose)
{
	json_t *stages = json_object_get(ms, "stages"), *comp, *st;
	struct notes nt = { NULL, NULL, 0 };
	size_t i, j;

	if (!ms)
		return;
	if (!stages_computed(stages)) {
		strbuf_addstr(sb, "\nMulti-stage CPI stacks: no stage computable from these counts "
			      "(tdperf record --stacks multistage measures them)\n");
		return;
	}
	/* a table of '?' with no stage total tells nothing: one line, the table with -v */
	if (!stages_complete(stages) && !verbose) {
		strbuf_addstr(sb, "\nMulti-stage CPI stacks: no stage complete from these counts "
			      "(tdperf record --stacks multistage measures them; -v shows the partial table)\n");
		return;
	}
	strbuf_addstr(sb, "\nMulti-stage CPI stacks (cycles per instruction)\n");
	strbuf_addf(sb, "  %-24s", "component");
	json_array_foreach(stages, j, st)
		strbuf_addf(sb, " %10s", td_printable(jstr(st, "id")));
	strbuf_addf(sb, "  %17s\n", "range (min-max)");
	json_array_foreach(json_object_get(ms, "components"), i, comp) {
		const char *id = jstr(comp, "id");
		json_t *r = json_array_get(json_object_get(ms, "range"), i);

		strbuf_addf(sb, "  %-24s", td_printable(jstr(comp, "name")));
		json_array_foreach(stages, j, st) {
			struct strbuf what = STRBUF_INIT;

			strbuf_addf(&what, "%s %s", jstr(st, "id"), id);
			if (!td_stack_stage_computed(st))
				strbuf_addf(sb, " %10s", "-");
			else
				cell(sb, 10, find_part(json_object_get(st, "parts"), id), "value", 3,
				     &nt, what.buf);
			strbuf_release(&what);
		}
		if (isnan(jnum(r, "min")))
			strbuf_addf(sb, "  %17s\n", "-");
		else
			strbuf_addf(sb, "  %7.3f - %7.3f\n", jnum(r, "min"), jnum(r, "max"));
	}
	strbuf_addf(sb, "  %-24s", "total");
	json_array_foreach(stages, j, st) {
		if (!td_stack_stage_computed(st) || isnan(jnum(st, "sum")))
			strbuf_addf(sb, " %10s", "-");
		else
			strbuf_addf(sb, " %9.3f ", jnum(st, "sum"));
	}
	strbuf_addch(sb, '\n');
	json_array_foreach(stages, j, st) {
		if (!jtrue(st, "available")) {
			strbuf_addf(sb, "  %s stage: %s\n", td_printable(jstr(st, "id")),
				    td_printable(jstr(st, "reason")));
		} else if (!td_stack_stage_computed(st)) {
			char *why = stage_missing(st);

			strbuf_addf(sb, "  %s stage: not computable from these counts: %s\n",
				    td_printable(jstr(st, "id")), td_printable(why));
			free(why);
		}
	}
	if (jstr(ms, "vocabulary"))
		strbuf_addf(sb, "  stages: %s\n", td_printable(jstr(ms, "vocabulary")));
	note_flush(sb, &nt);
}

/* A number with its format, or "n/a (not counted)" when unknown. */
static void num_or_na(struct strbuf *sb, const char *fmt, double v)
{
	if (isnan(v))
		strbuf_addstr(sb, "n/a");
	else
		strbuf_addf(sb, fmt, v);
}

static void ipc_flops_section(struct strbuf *sb, json_t *ipc, json_t *fl)
{
	struct notes nt = { NULL, NULL, 0 };
	size_t i, rows;

	if (!(jtrue(ipc, "available") && !isnan(jnum(json_array_get(json_object_get(ipc, "parts"), 1), "value"))) &&
	    !(jtrue(fl, "available") && !isnan(jnum(fl, "flops")))) {
		char *why = short_reason(jstr(fl, "reason") ? jstr(fl, "reason")
					 : "tdperf record --stacks flops measures them");

		strbuf_addf(sb, "\nIPC and FLOPS stacks: not computable from these counts (%s)\n",
			    td_printable(why));
		free(why);
		return;
	}
	strbuf_addstr(sb, "\nIPC stack and FLOPS stack (side by side; each bar's height is the peak)\n");
	if (!jtrue(ipc, "available"))
		strbuf_addf(sb, "  IPC stack: %s\n",
			    jstr(ipc, "reason") ? td_printable(jstr(ipc, "reason")) : "not available");
	if (!jtrue(fl, "available"))
		strbuf_addf(sb, "  FLOPS stack: %s\n",
			    jstr(fl, "reason") ? td_printable(jstr(fl, "reason")) : "not available");
	if (!jtrue(ipc, "available") && !jtrue(fl, "available"))
		return;
	if (jtrue(ipc, "available")) {
		strbuf_addf(sb, "  IPC stack: uops per cycle from the %s stage, max %.2f; achieved ",
			    td_printable(jstr(ipc, "stage")), jnum(ipc, "max"));
		num_or_na(sb, "%.2f uops", jnum(ipc, "upc"));
		strbuf_addstr(sb, " (");
		num_or_na(sb, "%.2f instructions", jnum(ipc, "ipc"));
		strbuf_addstr(sb, ") per cycle\n");
	}
	if (jtrue(fl, "available")) {
		strbuf_addf(sb, "  FLOPS stack: %s, %s peak %.4g = %g FLOP/cycle", td_printable(jstr(fl, "unit")),
			    td_printable(jstr(fl, "precision")), jnum(fl, "peak"), jnum(fl, "peak_per_cycle"));
		if (!isnan(jnum(fl, "freq_ghz")))
			strbuf_addf(sb, " x %.3f GHz", jnum(fl, "freq_ghz"));
		strbuf_addstr(sb, "; achieved ");
		num_or_na(sb, "%.4g", jnum(fl, "achieved"));
		strbuf_addf(sb, " %s\n", td_printable(jstr(fl, "unit")));
	}
	strbuf_addf(sb, "  %-24s %10s   %-30s %10s\n", "IPC component", "uops/cyc", "FLOPS component",
		    jstr(fl, "unit") ? td_printable(jstr(fl, "unit")) : "");
	rows = json_array_size(json_object_get(fl, "parts"));
	if (json_array_size(json_object_get(ipc, "parts")) > rows)
		rows = json_array_size(json_object_get(ipc, "parts"));
	for (i = 0; i < rows; i++) {
		json_t *ip = json_array_get(json_object_get(ipc, "parts"), i);
		json_t *fp = json_array_get(json_object_get(fl, "parts"), i);

		if (ip) {
			strbuf_addf(sb, "  %-24s", td_printable(jstr(ip, "name")));
			cell(sb, 10, ip, "value", 2, &nt, jstr(ip, "name"));
		} else {
			strbuf_addf(sb, "  %-24s %10s", "", "");
		}
		if (fp) {
			struct strbuf what = STRBUF_INIT;

			strbuf_addf(&what, "FLOPS %s", jstr(fp, "name"));
			strbuf_addf(sb, "   %-30s", td_printable(jstr(fp, "name")));
			cell(sb, 10, fp, "value", 2, &nt, what.buf);
			strbuf_release(&what);
		}
		strbuf_addch(sb, '\n');
	}
	note_flush(sb, &nt);
}

static void frontend_section(struct strbuf *sb, json_t *fe)
{
	json_t *p, *c = json_object_get(fe, "ceiling"), *h;
	struct notes nt = { NULL, NULL, 0 };
	size_t i;

	if (!jtrue(fe, "available")) {
		strbuf_addf(sb, "\nFrontend delivery: %s\n", jstr(fe, "reason") ? td_printable(jstr(fe, "reason"))
			    : "not available");
		return;
	}
	if (isnan(jnum(fe, "delivered_uops"))) {
		strbuf_addstr(sb, "\nFrontend delivery: not computable from these counts "
			      "(tdperf record --stacks frontend measures it)\n");
		return;
	}
	strbuf_addstr(sb, "\nFrontend delivery (uops by path)\n");
	strbuf_addf(sb, "  %-28s %9s %12s %12s %10s\n", "path", "coverage", "rate active",
		    "rate overall", "best case");
	json_array_foreach(json_object_get(fe, "paths"), i, p) {
		strbuf_addf(sb, "  %-28s", td_printable(jstr(p, "name")));
		if (!jtrue(p, "measured")) {
			strbuf_addf(sb, " %9s", "n/m");
			note_add(&nt, jstr(p, "name"), jstr(p, "reason") ? jstr(p, "reason")
				 : "not measurable on this CPU");
			strbuf_addf(sb, "[%d]\n", nt.n);
			continue;
		}
		if (isnan(jnum(p, "coverage")))
			strbuf_addf(sb, " %9s", "?");
		else
			strbuf_addf(sb, " %8.1f%%", 100 * jnum(p, "coverage"));
		if (isnan(jnum(p, "rate_active")) && jnum(p, "active_cycles") == 0) {
			strbuf_addf(sb, " %12s", "-");
		} else if (isnan(jnum(p, "rate_active"))) {
			char buf[32];

			snprintf(buf, sizeof(buf), "n/m[%d]", note_add(&nt, jstr(p, "name"),
				 jstr(p, "reason") ? jstr(p, "reason") : "unknown"));
			strbuf_addf(sb, " %12s", buf);
		} else {
			strbuf_addf(sb, " %12.2f", jnum(p, "rate_active"));
		}
		strbuf_addf(sb, " %12.2f", jnum(p, "rate_overall"));
		if (isnan(jnum(p, "best_case_rate")))
			strbuf_addf(sb, " %10s\n", "-");
		else
			strbuf_addf(sb, " %10.2f\n", jnum(p, "best_case_rate"));
	}
	strbuf_addf(sb, "  %.2f uops per instruction; average instruction %.1f bytes%s\n",
		    jnum(fe, "uops_per_instruction"), jnum(fe, "avg_instruction_bytes"),
		    jtrue(fe, "avg_instruction_bytes_assumed") ? " (assumed, not measured)" : "");
	if (isnan(jnum(c, "value"))) {
		strbuf_addf(sb, "  ceiling: not computable: %s\n",
			    jstr(c, "reason") ? td_printable(jstr(c, "reason")) : "unknown");
	} else {
		strbuf_addf(sb, "  ceiling%s: %.2f uops/cycle = min(path %.2f, fetch %.2f from %s, "
			    "retire %.2f), bound by %s; measured %.2f, headroom %.2f\n",
			    jtrue(c, "approximate") ? " (~)" : "", jnum(c, "value"), jnum(c, "path_limit"),
			    jnum(c, "fetch_limit"), jstr(c, "fetch_level") ? td_printable(jstr(c, "fetch_level")) : "?",
			    jnum(c, "retire_width"), td_printable(jstr(c, "binding")), jnum(c, "measured_upc"),
			    jnum(c, "headroom"));
	}
	json_array_foreach(json_object_get(fe, "hints"), i, h)
		strbuf_addf(sb, "  hint: %s\n", td_printable(json_string_value(h)));
	note_flush(sb, &nt);
}

/*
 * Why each stack is not computable (NULL where it is): the same tests as
 * its section's one-line answer, the cause without the section's name,
 * so that stacks failing for one cause are named together.
 */
enum { ST_CPI, ST_MULTISTAGE, ST_IPC_FLOPS, ST_FRONTEND, NR_ST };
const char *const td_report_stack_names[TD_NR_STACKS] = {
	"CPI", "multi-stage CPI", "IPC and FLOPS", "frontend delivery",
};

static char *cpi_cause(json_t *cpi)
{
	const char *r = jstr(cpi, "reason"), *prefix = "CPI not computable: ";

	if (!cpi || !isnan(jnum(cpi, "cpi")))
		return NULL;
	if (!r)
		return xstrdup("CPI unknown");
	return xstrdup(!strncmp(r, prefix, strlen(prefix)) ? r + strlen(prefix) : r);
}

static char *ipc_flops_cause(json_t *ipc, json_t *fl)
{
	if ((jtrue(ipc, "available") && !isnan(jnum(json_array_get(json_object_get(ipc, "parts"), 1), "value"))) ||
	    (jtrue(fl, "available") && !isnan(jnum(fl, "flops"))))
		return NULL;
	return short_reason(jstr(fl, "reason") ? jstr(fl, "reason") : "not measured");
}

static char *frontend_cause(json_t *fe)
{
	if (!fe)
		return NULL;
	if (!jtrue(fe, "available"))
		return xstrdup(jstr(fe, "reason") ? jstr(fe, "reason") : "not available");
	return isnan(jnum(fe, "delivered_uops")) ? xstrdup("not measured") : NULL;
}

void td_report_stack_causes(json_t *stacks, char **cause)
{
	json_t *ms = json_object_get(stacks, "multistage");

	cause[ST_CPI] = cpi_cause(json_object_get(stacks, "cpi"));
	cause[ST_MULTISTAGE] = ms && !stages_computed(json_object_get(ms, "stages")) ?
		xstrdup("not measured") : NULL;
	cause[ST_IPC_FLOPS] = ipc_flops_cause(json_object_get(stacks, "ipc"), json_object_get(stacks, "flops"));
	cause[ST_FRONTEND] = frontend_cause(json_object_get(stacks, "frontend"));
}

/*
 * Two or more stacks not computable: one block naming them by cause
 * ("CPI, IPC and FLOPS: cycles not known") instead of a line each.
 * Returns whether it printed, so the sections are skipped.
 */
static int grouped_causes(struct strbuf *sb, char **cause)
{
	int i, j, nr = 0, done[NR_ST] = { 0 }, measure = 0;

	for (i = 0; i < NR_ST; i++)
		nr += !!cause[i];
	if (nr < 2)
		return 0;
	strbuf_addstr(sb, "Stacks not computable from these counts:\n");
	for (i = 0; i < NR_ST; i++) {
		if (!cause[i] || done[i])
			continue;
		strbuf_addf(sb, "  %s", td_report_stack_names[i]);
		for (j = i + 1; j < NR_ST; j++)
			if (cause[j] && !strcmp(cause[i], cause[j])) {
				strbuf_addf(sb, ", %s", td_report_stack_names[j]);
				done[j] = 1;
			}
		strbuf_addf(sb, ": %s\n", td_printable(cause[i]));
		measure |= !strcmp(cause[i], "not measured");
	}
	if (measure)
		strbuf_addstr(sb, "  (tdperf record --stacks LIST measures them: cpi, multistage, flops, frontend)\n");
	return 1;
}

void td_report_text_stacks(struct strbuf *sb, json_t *stacks, int verbose)
{
	json_t *w;
	size_t i;
	char *cause[NR_ST];
	int grouped;

	if (!json_is_object(stacks) || !json_object_size(stacks))
		return;
	strbuf_addch(sb, '\n');
	td_report_stack_causes(stacks, cause);
	grouped = !verbose && grouped_causes(sb, cause);
	if (!grouped || !cause[ST_CPI])
		cpi_section(sb, json_object_get(stacks, "cpi"), verbose);
	if (!grouped || !cause[ST_MULTISTAGE])
		multistage_section(sb, json_object_get(stacks, "multistage"), verbose);
	if (!grouped || !cause[ST_IPC_FLOPS])
		ipc_flops_section(sb, json_object_get(stacks, "ipc"), json_object_get(stacks, "flops"));
	if (!grouped || !cause[ST_FRONTEND])
		frontend_section(sb, json_object_get(stacks, "frontend"));
	for (i = 0; i < NR_ST; i++)
		free(cause[i]);
	json_array_foreach(json_object_get(stacks, "warnings"), i, w)
		strbuf_addf(sb, "warning: %s\n", td_printable(json_string_value(w)));
}
