/*
 * The text report: the Top-Down tree of each main scope, indented, with a
 * value, a bar and marks per node, perf's own value beside ours, the
 * bottleneck sentence, and a folded one-line-per-scope table for the
 * per-interval / per-CPU / per-thread scopes (--scopes all unfolds them).
 *
 * Everything comes from the report document, so the text never says
 * anything the JSON does not.
 *
 * Marks: '>' before a name: on the bottleneck path; '!' after the value:
 * above its threshold (with its whole path); '~': approximate; 'm': the
 * scope's counts were multiplexed (scaled estimates); '?': not decided,
 * the value's error bar reaches across the node's threshold; 'x': out of
 * range (the sanity line follows); "n/a": not computable (the reason
 * follows); 'p': the value perf printed, taken because the counts do not
 * give it; 's': the sum of the node's Level-2 children, for the same
 * reason (nodes[].source).  With error bars (perf stat -r, or -I totals) each value is
 * printed as "value ± err" (the error bar, in points).
 */
#include "report/render.h"

#include <math.h>
#include <string.h>

/* A session of perf stat -p or -t: its target is "process PID" or "thread TID", no command. */
static int session_is_attached(const char *target)
{
	return !strncmp(target, "process ", 8) || !strncmp(target, "thread ", 7);
}

#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_RED "\033[31m"
#define C_YELLOW "\033[33m"
#define C_DIM "\033[2m"
#define C_CYAN "\033[36m"

struct out {
	FILE *f;
	const struct td_text_opts *o;
	int folded_header;   /* the folded scopes' column header is printed */
	const struct td_model *m;
};

static const char *col(const struct out *o, const char *c)
{
	return o->o->color ? c : "";
}

static void bar(const struct out *o, double v, int width)
{
	int n, i;

	if (isnan(v))
		v = 0;
	if (v < 0)
		v = 0;
	if (v > 1)
		v = 1;
	n = (int)lround(v * width);
	for (i = 0; i < width; i++)
		fputc(i < n ? '#' : ' ', o->f);
}

/* Is any ancestor of node i hidden?  Children of hidden nodes hide too. */
static int node_visible(const struct out *o, const struct td_node_row *n)
{
	if (o->o->max_level && n->level > o->o->max_level)
		return 0;
	if (o->o->verbose >= 2 || n->level == 1)
		return 1;
	if (o->o->verbose)
		return !isnan(n->value) || n->level <= 2;
	return n->flagged;
}

/*
 * -v: the node's formula is not the one an older perf uses, so a value
 * beside perf's own can differ for that reason alone (issue 30 item 9).
 */
static void print_perf_formula(const struct out *o, const struct td_node_row *n, int level)
{
	if (!n->perf_formula_expr)
		return;
	if (n->perf_only) {
		fprintf(o->f, "  %*s    %s(a node of perf %s, computed with its formula: %s; %s)%s\n",
			(level - 1) * 2, "", col(o, C_DIM), td_printable(n->perf_formula_version),
			td_printable(n->perf_formula_expr), td_printable(n->perf_formula_why),
			col(o, C_RESET));
		return;
	}
	fprintf(o->f, "  %*s    %s(perf %s computes this with an older formula: %s; ours follows %s)%s\n",
		(level - 1) * 2, "", col(o, C_DIM), td_printable(n->perf_formula_version),
		td_printable(n->perf_formula_expr), td_printable(n->perf_formula_why), col(o, C_RESET));
}

static int ancestors_visible(const struct out *o, const struct td_scope_rows *s, const struct td_node_row *n)
{
	const struct td_node_row *p = td_node_parent(s, n);
	size_t depth;

	/* at most nr_nodes steps: a document's parents may go round in a circle */
	for (depth = 0; p && depth < s->nr_nodes; p = td_node_parent(s, p), depth++)
		if (!node_visible(o, p))
			return 0;
	return 1;
}

/*
 * How far ours may be from perf's printed value and still agree: half of
 * perf's printing resolution (0.05 points for "41.1 %", 0.5 points for a
 * 0.41 ratio), plus a little for perf's own rounding of its inputs.
 */
static double perf_tolerance(const struct td_node_row *n)
{
	double res = n->perf_resolution;

	return (isnan(res) ? 0.001 : res) * 0.6;
}

/* The first node of a scope to fail a check, named on the nodes failing the same one. */
struct seen_check {
	struct strbuf text;
	struct strbuf node;
};

/*
 * The node's out-of-range line; its likely cause, when a warning of the
 * scope says it, is left to the warnings, which say it once for all.  A
 * check failed by several nodes at once (Level 1 summing to 101.5 %, on
 * each Level-1 node) is said on the first and pointed to on the others.
 */
static void print_sanity(const struct out *o, const struct td_scope_rows *s, const struct td_node_row *n,
			 int level, struct seen_check *seen)
{
	const char *sanity = n->sanity;
	size_t head = strlen(sanity);
	char *text;

	if (td_cause_shared_in(s->warnings, s->nr_warnings, sanity))
		td_cause_split(sanity, &head);
	if (seen->text.len && !strcmp(seen->text.buf, sanity)) {
		fprintf(o->f, "  %*s    %s(x the same check as %s above)%s\n", (level - 1) * 2, "", col(o, C_RED),
			td_printable(seen->node.buf), col(o, C_RESET));
		return;
	}
	strbuf_reset(&seen->text);
	strbuf_addstr(&seen->text, sanity);
	strbuf_reset(&seen->node);
	strbuf_addstr(&seen->node, n->name ? n->name : "");
	text = xstrndup(sanity, head);
	fprintf(o->f, "  %*s    %s(x %s%s)%s\n", (level - 1) * 2, "", col(o, C_RED), td_printable(text),
		head < strlen(sanity) ? "; likely cause: in the warnings below" : "", col(o, C_RESET));
	free(text);
}

/* The scope's warnings, those with one likely cause said once with their list. */
/* The checks of 'list' from 'from' on that end with 'cause', each without it. */
static void print_cause_items(const struct out *o, const char *const *list, size_t nr, size_t from,
			      const char *cause)
{
	size_t j, len;

	for (j = from; j < nr; j++) {
		const char *c = td_cause_split(list[j], &len);
		char *head;

		if (!c || strcmp(c, cause))
			continue;
		head = xstrndup(list[j], len);
		fprintf(o->f, "    - %s\n", td_printable(head));
		free(head);
	}
}

/* The scope's warnings, those with one likely cause said once with their list, where it first appears. */
static void print_warnings(const struct out *o, const struct td_scope_rows *s)
{
	const char *const *list = s->warnings;
	size_t i, nr = s->nr_warnings, count;

	for (i = 0; i < nr; i++) {
		const char *c = td_cause_split(list[i], NULL);

		count = c ? td_cause_count(list, nr, c) : 0;
		if (count < 2) {
			fprintf(o->f, "  %swarning:%s %s\n", col(o, C_YELLOW), col(o, C_RESET),
				td_printable(list[i]));
			continue;
		}
		if (td_cause_count(list, i, c))
			continue; /* said with the first */
		fprintf(o->f, "  %swarning:%s %zu checks failed, with one likely cause:\n",
			col(o, C_YELLOW), col(o, C_RESET), count);
		print_cause_items(o, list, nr, i, c);
		fprintf(o->f, "    %s\n", td_printable(c));
	}
}

static void print_tree(const struct out *o, const struct td_scope_rows *s)
{
	size_t i;
	int hidden = 0, has_perf = 0, width = o->o->width ? o->o->width : 30;
	int multiplexed = s->multiplexed;
	int has_u = 0, nr_printed = 0;
	struct strbuf why = STRBUF_INIT;
	struct seen_check seen = { STRBUF_INIT, STRBUF_INIT };

	for (i = 0; i < s->nr_nodes; i++) {
		const struct td_node_row *n = &s->nodes[i];

		if (!isnan(n->perf_value))
			has_perf = 1;
		if (!isnan(n->uncertainty))
			has_u = 1;
		if (n->source && strcmp(n->source, "counts"))
			nr_printed++;
	}
	fprintf(o->f, "  %-36s %8s%s  %-*s%s\n", "Top-Down node", "value", has_u ? "  \xc2\xb1 err" : "",
		width, "", has_perf ? "    perf" : "");
	for (i = 0; i < s->nr_nodes; i++) {
		const struct td_node_row *n = &s->nodes[i];
		int level = n->level;
		double v = n->value, pv = n->perf_value;
		double u = n->uncertainty;
		const char *sanity = n->sanity;
		int flagged = n->flagged, bn = n->bottleneck;
		int approx = n->approximate;
		const char *reason = n->reason;
		const char *source = n->source;
		int printed = source && !strcmp(source, "perf"), summed = source && !strcmp(source, "children");
		char name[80];
		char marks[8];
		int m = 0;

		if (!node_visible(o, n) || !ancestors_visible(o, s, n)) {
			if (!(o->o->max_level && level > o->o->max_level))
				hidden++;
			continue;
		}
		snprintf(name, sizeof(name), "%*s%s%s", (level - 1) * 2, "", bn ? "> " : "  ",
			 td_printable(n->name));
		if (flagged)
			marks[m++] = '!';
		if (approx)
			marks[m++] = '~';
		if (multiplexed && !isnan(v))
			marks[m++] = 'm';
		if (n->undecided)
			marks[m++] = '?';
		if (sanity)
			marks[m++] = 'x';
		if (printed)
			marks[m++] = 'p';
		if (summed)
			marks[m++] = 's';
		marks[m] = '\0';
		fprintf(o->f, "  %s%-36s%s ", bn ? col(o, C_BOLD) : "", name, bn ? col(o, C_RESET) : "");
		if (isnan(v))
			fprintf(o->f, "%s%8s%s  ", col(o, C_DIM), "n/a", col(o, C_RESET));
		else
			fprintf(o->f, "%s%6.1f %%%s  ", flagged ? col(o, C_RED) : "", v * 100,
				flagged ? col(o, C_RESET) : "");
		if (has_u && !isnan(u))
			fprintf(o->f, "\xc2\xb1 %5.2f  ", u * 100);
		else if (has_u)
			fprintf(o->f, "%9s", "");
		bar(o, v, width);
		fprintf(o->f, "%s%-3s%s", approx ? col(o, C_YELLOW) : "", marks, approx ? col(o, C_RESET) : "");
		if (has_perf) {
			if (isnan(pv))
				fprintf(o->f, " %7s", "");
			else
				fprintf(o->f, " %6.1f%s%s", pv * 100,
					!isnan(v) && fabs(pv - v) > perf_tolerance(n) ? "*" : " ",
					n->perf_kind && !strcmp(n->perf_kind, "builtin") ?
					"b" : "");
		}
		fputc('\n', o->f);
		/* a few event names; --format json has them all */
		strbuf_reset(&why);
		if (reason)
			td_reason_short(&why, reason, 4);
		if (sanity)
			print_sanity(o, s, n, level, &seen);
		if (isnan(v) && reason && (o->o->verbose || level == 1))
			fprintf(o->f, "  %*s    %s(%s)%s\n", (level - 1) * 2, "", col(o, C_DIM), td_printable(why.buf),
				col(o, C_RESET));
		else if ((printed || summed) && reason && o->o->verbose)
			fprintf(o->f, "  %*s    %s(%c %s)%s\n", (level - 1) * 2, "", col(o, C_DIM),
				printed ? 'p' : 's', td_printable(why.buf), col(o, C_RESET));
		else if (approx && reason && o->o->verbose)
			fprintf(o->f, "  %*s    %s(~ %s)%s\n", (level - 1) * 2, "", col(o, C_DIM),
				td_printable(why.buf),
				col(o, C_RESET));
		if (o->o->verbose)
			print_perf_formula(o, n, level);
	}
	strbuf_release(&why);
	strbuf_release(&seen.text);
	strbuf_release(&seen.node);
	if (nr_printed)
		fprintf(o->f, "  (p/s: %d node value%s the counts do not give: printed by perf, or "
			"summed from Level 2; -v says which)\n", nr_printed, nr_printed == 1 ? "" : "s");
	/* say what the next -v shows, not what this one already did (issue 32) */
	if (hidden && o->o->verbose)
		fprintf(o->f, "  (%d node%s below Level 2 not computable hidden; -vv shows them)\n",
			hidden, hidden == 1 ? "" : "s");
	else if (hidden)
		fprintf(o->f, "  (%d node%s below threshold or not computable hidden; -v shows them, -vv all)\n",
			hidden, hidden == 1 ? "" : "s");
}

/* Info metrics: a count unless -v, or 'always' where they are all there is. */
static void print_metrics(const struct out *o, const struct td_scope_rows *s, int always)
{
	size_t i;
	int computable = 0;

	for (i = 0; i < s->nr_metrics; i++)
		if (!isnan(s->metrics[i].value))
			computable++;
	if (!computable)
		return;
	if (!o->o->verbose && !always) {
		fprintf(o->f, "  %d info metric%s computed (-v lists them)\n", computable,
			computable == 1 ? "" : "s");
		return;
	}
	fprintf(o->f, "  Info metrics:\n");
	for (i = 0; i < s->nr_metrics; i++) {
		const struct td_model_metric *m = &s->metrics[i];

		if (isnan(m->value))
			continue;
		fprintf(o->f, "    %-40s %14.4g %s%s", td_printable(m->name), m->value,
			m->unit ? td_printable(m->unit) : "", m->approximate ? " ~" : "");
		if (!isnan(m->uncertainty))
			fprintf(o->f, " \xc2\xb1 %.3g", m->uncertainty);
		if (!isnan(m->perf_value))
			fprintf(o->f, "  (perf %s: %.1f)", td_printable(m->perf_name), m->perf_value);
		fputc('\n', o->f);
	}
}

/* The cycle stacks of the scope (report/text-stacks.c, which reads the document still). */
static void print_stacks(const struct out *o, const struct td_scope_rows *s)
{
	struct strbuf sb = STRBUF_INIT;

	td_report_text_stacks(&sb, s->stacks_json, o->o->verbose);
	fputs(sb.buf, o->f);
	strbuf_release(&sb);
}

/* "What to try" for the bottleneck (report/text-guidance.c, which reads the document still). */
static void print_guidance(const struct out *o, const struct td_scope_rows *s)
{
	struct strbuf sb = STRBUF_INIT;

	td_report_text_guidance(&sb, s->json);
	fputs(sb.buf, o->f);
	strbuf_release(&sb);
}

static void print_events(const struct out *o, const struct td_scope_rows *s)
{
	size_t i;
	struct strbuf sb = STRBUF_INIT;

	if (!s->nr_events)
		return;
	fprintf(o->f, "  Counts:\n");
	for (i = 0; i < s->nr_events; i++) {
		const struct td_event_row *e = &s->events[i];
		double v = e->value, pct = e->running_pct;

		strbuf_reset(&sb);
		if (isnan(v))
			strbuf_addf(&sb, "<%s>", td_printable(e->status));
		else if (v != floor(v))
			strbuf_addf(&sb, "%.2f", v);
		else
			td_format_count(&sb, v);
		fprintf(o->f, "    %20s %-5s %s%s%s", sb.buf, e->unit ? td_printable(e->unit) : "",
			e->pmu ? td_printable(e->pmu) : "", e->pmu ? "/" : "", td_printable(e->name));
		if (!isnan(pct) && pct < 99.995)
			fprintf(o->f, "  (%.2f%% running, scaled)", pct);
		if (!isnan(e->variance_pct))
			fprintf(o->f, "  (+- %.2f%%)", e->variance_pct);
		fputc('\n', o->f);
	}
	strbuf_release(&sb);
}

/* perf stat's derived software figures: CPUs utilized, rates per task second. */
static void print_software(const struct out *o, const struct td_scope_rows *s)
{
	size_t i;

	if (!s->nr_software)
		return;
	fprintf(o->f, "  Software counts:\n");
	for (i = 0; i < s->nr_software; i++) {
		const struct td_model_software *m = &s->software[i];

		if (m->unit && !strcmp(m->unit, "per_sec"))
			fprintf(o->f, "    %-28s %12.3f /sec   (%s)\n", td_printable(m->name), m->value,
				td_printable(m->basis));
		else
			fprintf(o->f, "    %-28s %12.3f %-5s  (%s)\n", td_printable(m->name), m->value,
				m->unit ? td_printable(m->unit) : "", td_printable(m->basis));
	}
}

static void scope_title(const struct td_scope_rows *s, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (s->derived)
		strbuf_addf(sb, "total (%s)", td_printable(s->derived));
	else if (!strcmp(s->kind, "total"))
		strbuf_addstr(sb, "total");
	else
		strbuf_addf(sb, "%s %s", td_printable(s->kind), s->label ? td_printable(s->label) : "?");
	if (!isnan(s->time))
		strbuf_addf(sb, ", interval ending at %.3f s", s->time);
	if (s->pmu)
		strbuf_addf(sb, ", PMU %s", td_printable(s->pmu));
}

/* Has any node a value (perf printed some where nothing was counted)? */
static int any_node_value(const struct td_scope_rows *s)
{
	size_t i;

	for (i = 0; i < s->nr_nodes; i++)
		if (!isnan(s->nodes[i].value))
			return 1;
	return 0;
}

static void print_scope(const struct out *o, const struct td_scope_rows *s)
{
	struct strbuf title = STRBUF_INIT;
	int hw = s->hardware_counts, has_nodes = s->nr_nodes > 0;

	scope_title(s, &title);
	fprintf(o->f, "\n%s-- %s --%s\n", col(o, C_CYAN), title.buf, col(o, C_RESET));
	if (!hw && s->has_bottleneck && !any_node_value(s)) {
		/* one line, not a tree of n/a: nothing of it was measured */
		fprintf(o->f, "  %s%s%s\n", col(o, C_BOLD), td_printable(s->bottleneck_sentence), col(o, C_RESET));
		print_software(o, s);
		print_events(o, s);
	} else if (has_nodes) {
		print_tree(o, s);
		td_report_text_repeat(o->f, td_model_doc(o->m), s->json, o->o->verbose, o->o->max_level);
		if (s->has_bottleneck)
			fprintf(o->f, "  %sBottleneck:%s %s\n", col(o, C_BOLD), col(o, C_RESET),
				td_printable(s->bottleneck_sentence));
		td_text_phases(o->f, s->json);
		print_guidance(o, s);
		print_metrics(o, s, 0);
		/* several sessions: after them, each different set once (report/stacks-sessions.c) */
		if (td_model_nr_sessions(o->m) < 2 || strcmp(s->kind, "total") || !isnan(s->time))
			print_stacks(o, s);
	} else {
		if (s->has_bottleneck) {
			/* a table without a tree (AMD Zen 1-3): why, then what it has */
			fprintf(o->f, "  %s%s%s\n", col(o, C_BOLD), td_printable(s->bottleneck_sentence),
				col(o, C_RESET));
			print_metrics(o, s, 1);
		} else if (!s->table) {
			fprintf(o->f, "  no formula table applies: counts only\n");
		}
		print_software(o, s);
		if (hw)
			print_events(o, s);
	}
	td_text_extra_events(o->f, s->json); /* record -e: report/extra-events.c */
	if (hw && has_nodes && o->o->events)
		print_events(o, s);
	print_warnings(o, s);
	strbuf_release(&title);
}

/* Level-1 values of a scope in one line (folded sections). */
static void print_folded_line(const struct out *o, const struct td_scope_rows *r)
{
	struct strbuf title = STRBUF_INIT;
	size_t i;

	if (r->label)
		strbuf_add_printable(&title, r->label);
	if (!isnan(r->time))
		strbuf_addf(&title, "%s%.3fs", title.len ? " @" : "", r->time);
	fprintf(o->f, "  %-22s", title.buf);
	for (i = 0; !r->nr_nodes && i < r->nr_events && i < 4; i++) {
		const struct td_event_row *e = &r->events[i];

		if (isnan(e->value))
			fprintf(o->f, " %s=<%s>", td_printable(e->name), td_printable(e->status));
		else
			fprintf(o->f, " %s=%.6g", td_printable(e->name), e->value);
	}
	for (i = 0; i < r->nr_nodes; i++) {
		const struct td_node_row *n = &r->nodes[i];

		if (n->level != 1)
			continue;
		if (isnan(n->value))
			fprintf(o->f, " %6s", "n/a");
		else
			fprintf(o->f, " %s%5.1f%%%s", n->flagged ? col(o, C_RED) : "", n->value * 100,
				n->flagged ? col(o, C_RESET) : "");
	}
	if (r->bottleneck_leaf)
		fprintf(o->f, "  > %s", td_printable(r->bottleneck_leaf));
	fputc('\n', o->f);
	strbuf_release(&title);
}

static void print_folded_header(const struct out *o, const struct td_scope_rows *r)
{
	size_t i;

	fprintf(o->f, "  %-22s", "");
	for (i = 0; i < r->nr_nodes; i++) {
		char abbr[8];

		if (r->nodes[i].level != 1)
			continue;
		snprintf(abbr, sizeof(abbr), "%.6s", r->nodes[i].name ? td_printable(r->nodes[i].name) : "");
		fprintf(o->f, " %6s", abbr);
	}
	fprintf(o->f, "\n");
}

static void print_header(const struct out *o)
{
	const struct td_model_run *run = td_model_run(o->m);
	size_t i;

	fprintf(o->f, "%sCPU:%s %s", col(o, C_BOLD), col(o, C_RESET),
		run->cpu_name ? td_printable(run->cpu_name) : "unknown");
	if (run->cpu_source)
		fprintf(o->f, " [%s]", td_printable(run->cpu_source));
	fputc('\n', o->f);
	if (run->cpu_confidence && strcmp(run->cpu_source ? run->cpu_source : "", "detected"))
		fprintf(o->f, "     %s\n", td_printable(run->cpu_confidence));
	if (run->has_smt)
		fprintf(o->f, "%sSMT:%s %s [%s]\n", col(o, C_BOLD), col(o, C_RESET),
			run->smt_on == 1 ? "on" : run->smt_on == 0 ? "off" : "unknown",
			run->smt_source ? td_printable(run->smt_source) : "?");
	for (i = 0; i < td_model_nr_tables(o->m); i++) {
		const struct td_model_table *t = td_model_table(o->m, i);

		fprintf(o->f, "%sTable:%s %s (%s", col(o, C_BOLD), col(o, C_RESET),
			td_printable(t->name), t->display ? td_printable(t->display) : "");
		/* NaN for a table no CPU width applies to (perf-topdown) */
		if (!isnan(t->slots_per_cycle))
			fprintf(o->f, ", %.0f slots/cycle", t->slots_per_cycle);
		fprintf(o->f, "%s%s)\n", t->pmu ? ", PMU " : "", t->pmu ? td_printable(t->pmu) : "");
	}
}

/* A run's own total (per PMU), printed in full before the others. */
static int is_main_scope(const struct td_scope_rows *s)
{
	return !strcmp(s->kind, "total") && isnan(s->time);
}

/* An interval, CPU or thread scope in full (--scopes all). */
static void print_other_scope(const struct td_scope_rows *s, void *ctx)
{
	if (!is_main_scope(s))
		print_scope(ctx, s);
}

/* ... else in one folded line (the column header before the first). */
static void print_folded_scope(const struct td_scope_rows *r, void *ctx)
{
	struct out *o = ctx;

	if (r->kind && !strcmp(r->kind, "total") && isnan(r->time))
		return; /* a run's own total, printed in full before */
	if (!o->folded_header) {
		print_folded_header(o, r);
		o->folded_header = 1;
	}
	if (r->pmu)
		fprintf(o->f, "  [%s]", td_printable(r->pmu));
	print_folded_line(o, r);
}

/* The warnings meta.json says record gave, in one line. */
static void print_recorded_warnings(const struct out *o)
{
	size_t i;
	int n = 0;

	for (i = 0; i < td_model_nr_warnings(o->m); i++) {
		const struct td_model_warning *w = td_model_warning(o->m, i);

		if (w->recorded)
			fprintf(o->f, "%s%s", n++ ? "; " : "recorded with warnings: ", td_printable(w->text));
	}
	if (n)
		fputc('\n', o->f);
}

static void print_session_title(const struct out *o, const struct td_model_session *sess)
{
	FILE *f = o->f;

	fprintf(f, "\n%s== session %lld: ", col(o, C_BOLD), (long long)sess->index);
	if (sess->target && session_is_attached(sess->target))
		fprintf(f, "perf stat of %s", td_printable(sess->target));
	else if (sess->target)
		fprintf(f, "perf stat '%s'", td_printable(sess->target));
	else
		fprintf(f, "perf stat");
	fprintf(f, " (%s", td_printable(sess->format));
	if (sess->repeats > 1)
		fprintf(f, ", %lld runs", (long long)sess->repeats);
	if (!isnan(sess->elapsed_s))
		fprintf(f, ", %.3f s%s", sess->elapsed_s,
			sess->elapsed_source && !strcmp(sess->elapsed_source, "run") ? " wall time of the run" : "");
	if (sess->line)
		fprintf(f, ", line %lld", (long long)sess->line);
	if (sess->legacy_topdown)
		fprintf(f, ", legacy --topdown");
	fprintf(f, ") ==%s\n", col(o, C_RESET));
}

/* A session: its main scopes in full, the others folded (or in full with --scopes all). */
static void print_session(struct out *o, const struct td_model_session *sess)
{
	size_t k;
	int nfold = 0;

	o->folded_header = 0;
	print_session_title(o, sess);
	/* main scopes first: totals (per PMU) */
	for (k = 0; k < td_model_nr_scopes(o->m); k++) {
		const struct td_scope_rows *s = td_model_scope(o->m, k);

		if (s->session != sess->index)
			continue;
		if (is_main_scope(s))
			print_scope(o, s);
		else
			nfold++;
	}
	nfold += (int)td_model_streamed_scopes(o->m, sess->index);
	if (!nfold)
		return;
	if (!o->o->all_scopes)
		fprintf(o->f, "\n%s-- %d per-%s scopes, folded (--scopes all unfolds them) --%s\n",
			col(o, C_CYAN), nfold, "interval/CPU/thread", col(o, C_RESET));
	if (o->o->all_scopes)
		td_model_each_scope(o->m, sess->index, 1, print_other_scope, o);
	else
		td_model_each_scope(o->m, sess->index, 0, print_folded_scope, o);
}

void td_report_render_text(const struct td_model *m, const struct td_text_opts *opts, FILE *f)
{
	struct out o = { f, opts, 0, m };
	size_t i;

	print_header(&o);
	/* warnings on the input as a whole (several sessions in one file, ...)
	 * come before what they qualify, not after pages of it */
	for (i = 0; i < td_model_nr_warnings(m); i++)
		if (!td_model_warning(m, i)->recorded)
			fprintf(f, "%swarning:%s %s\n", col(&o, C_YELLOW), col(&o, C_RESET),
				td_printable(td_model_warning(m, i)->text));
	print_recorded_warnings(&o);
	for (i = 0; i < td_model_nr_sessions(m); i++)
		print_session(&o, td_model_session(m, i));
	td_report_text_stacks_sessions(f, td_model_doc(m), opts->verbose);
	td_report_text_threads_file(td_model_doc(m), f); /* threads work: report/text-threads.c */
	td_report_text_drilldown(td_model_doc(m), f); /* record --drilldown: report/drilldown.c */
	fprintf(f, "\nMarks: > bottleneck path, ! above threshold, ~ approximate, m multiplexed (scaled counts),"
		   " ? not decided (the error bar spans the threshold), x out of range (see the line below it),"
		   " n/a not computable, p the value perf printed, taken where the counts do not give it"
		   " (its error bar half the printed resolution), s the sum of its Level-2 children, where"
		   " neither counts nor perf give it; perf: the value perf printed"
		   " (* differs by more than 0.06 points, b perf's built-in Top-Down number: its own"
		   " formula, which may differ from the table's); \xc2\xb1 err: the value's error bar"
		   " in points (from the spread of repeated runs or of intervals; for p, half the resolution perf printed)\n");
}

