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
	json_t *doc;
};

static const char *col(const struct out *o, const char *c)
{
	return o->o->color ? c : "";
}

static const char *jget_str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static double jget_num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int jget_bool(json_t *o, const char *k)
{
	return json_is_true(json_object_get(o, k));
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
static int node_visible(const struct out *o, json_t *n)
{
	int level = (int)json_integer_value(json_object_get(n, "level"));

	if (o->o->max_level && level > o->o->max_level)
		return 0;
	if (o->o->verbose >= 2 || level == 1)
		return 1;
	if (o->o->verbose)
		return json_is_number(json_object_get(n, "value")) || level <= 2;
	return jget_bool(n, "flagged");
}

/*
 * -v: the node's formula is not the one an older perf uses, so a value
 * beside perf's own can differ for that reason alone (issue 30 item 9).
 */
static void print_perf_formula(const struct out *o, json_t *n, int level)
{
	json_t *pf = json_object_get(n, "perf_formula");

	if (!json_is_object(pf))
		return;
	if (json_is_true(json_object_get(pf, "perf_only"))) {
		fprintf(o->f, "  %*s    %s(a node of perf %s, computed with its formula: %s; %s)%s\n",
			(level - 1) * 2, "", col(o, C_DIM), td_printable(jget_str(pf, "perf_version")),
			td_printable(jget_str(pf, "expr")), td_printable(jget_str(pf, "why")),
			col(o, C_RESET));
		return;
	}
	fprintf(o->f, "  %*s    %s(perf %s computes this with an older formula: %s; ours follows %s)%s\n",
		(level - 1) * 2, "", col(o, C_DIM), td_printable(jget_str(pf, "perf_version")),
		td_printable(jget_str(pf, "expr")), td_printable(jget_str(pf, "why")), col(o, C_RESET));
}

static json_t *find_node(json_t *nodes, const char *id)
{
	size_t i;
	json_t *n;

	json_array_foreach(nodes, i, n)
		if (id && !strcmp(jget_str(n, "id"), id))
			return n;
	return NULL;
}

static int ancestors_visible(const struct out *o, json_t *nodes, json_t *n)
{
	const char *p = jget_str(n, "parent");

	while (p) {
		json_t *pn = find_node(nodes, p);
		if (!pn)
			return 1;
		if (!node_visible(o, pn))
			return 0;
		p = jget_str(pn, "parent");
	}
	return 1;
}

/*
 * How far ours may be from perf's printed value and still agree: half of
 * perf's printing resolution (0.05 points for "41.1 %", 0.5 points for a
 * 0.41 ratio), plus a little for perf's own rounding of its inputs.
 */
static double perf_tolerance(json_t *n)
{
	double res = jget_num(n, "perf_resolution");

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
static void print_sanity(const struct out *o, json_t *scope, json_t *n, int level, struct seen_check *seen)
{
	const char *sanity = jget_str(n, "sanity");
	size_t head = strlen(sanity);
	char *text;

	if (td_cause_shared(json_object_get(scope, "warnings"), sanity))
		td_cause_split(sanity, &head);
	if (seen->text.len && !strcmp(seen->text.buf, sanity)) {
		fprintf(o->f, "  %*s    %s(x the same check as %s above)%s\n", (level - 1) * 2, "", col(o, C_RED),
			td_printable(seen->node.buf), col(o, C_RESET));
		return;
	}
	strbuf_reset(&seen->text);
	strbuf_addstr(&seen->text, sanity);
	strbuf_reset(&seen->node);
	strbuf_addstr(&seen->node, jget_str(n, "name") ? jget_str(n, "name") : "");
	text = xstrndup(sanity, head);
	fprintf(o->f, "  %*s    %s(x %s%s)%s\n", (level - 1) * 2, "", col(o, C_RED), td_printable(text),
		head < strlen(sanity) ? "; likely cause: in the warnings below" : "", col(o, C_RESET));
	free(text);
}

/* The scope's warnings, those with one likely cause said once with their list. */
static void print_warnings(const struct out *o, json_t *scope)
{
	json_t *groups = td_warnings_by_cause(json_object_get(scope, "warnings")), *w, *item;
	size_t i, j;

	json_array_foreach(groups, i, w) {
		if (json_is_string(w)) {
			fprintf(o->f, "  %swarning:%s %s\n", col(o, C_YELLOW), col(o, C_RESET),
				td_printable(json_string_value(w)));
			continue;
		}
		fprintf(o->f, "  %swarning:%s %zu checks failed, with one likely cause:\n",
			col(o, C_YELLOW), col(o, C_RESET), json_array_size(json_object_get(w, "items")));
		json_array_foreach(json_object_get(w, "items"), j, item)
			fprintf(o->f, "    - %s\n", td_printable(json_string_value(item)));
		fprintf(o->f, "    %s\n", td_printable(jget_str(w, "cause")));
	}
	json_decref(groups);
}

static void print_tree(const struct out *o, json_t *scope)
{
	json_t *nodes = json_object_get(scope, "nodes"), *n;
	size_t i;
	int hidden = 0, has_perf = 0, width = o->o->width ? o->o->width : 30;
	int multiplexed = jget_bool(scope, "multiplexed");
	int has_u = 0, nr_printed = 0;
	struct strbuf why = STRBUF_INIT;
	struct seen_check seen = { STRBUF_INIT, STRBUF_INIT };

	json_array_foreach(nodes, i, n) {
		if (json_is_number(json_object_get(n, "perf_value")))
			has_perf = 1;
		if (json_is_number(json_object_get(n, "uncertainty")))
			has_u = 1;
		if (jget_str(n, "source") && strcmp(jget_str(n, "source"), "counts"))
			nr_printed++;
	}
	fprintf(o->f, "  %-36s %8s%s  %-*s%s\n", "Top-Down node", "value", has_u ? "  \xc2\xb1 err" : "",
		width, "", has_perf ? "    perf" : "");
	json_array_foreach(nodes, i, n) {
		int level = (int)json_integer_value(json_object_get(n, "level"));
		double v = jget_num(n, "value"), pv = jget_num(n, "perf_value");
		double u = jget_num(n, "uncertainty");
		const char *sanity = jget_str(n, "sanity");
		int flagged = jget_bool(n, "flagged"), bn = jget_bool(n, "bottleneck");
		int approx = jget_bool(n, "approximate");
		const char *reason = jget_str(n, "reason");
		const char *source = jget_str(n, "source");
		int printed = source && !strcmp(source, "perf"), summed = source && !strcmp(source, "children");
		char name[80];
		char marks[8];
		int m = 0;

		if (!node_visible(o, n) || !ancestors_visible(o, nodes, n)) {
			if (!(o->o->max_level && level > o->o->max_level))
				hidden++;
			continue;
		}
		snprintf(name, sizeof(name), "%*s%s%s", (level - 1) * 2, "", bn ? "> " : "  ",
			 td_printable(jget_str(n, "name")));
		if (flagged)
			marks[m++] = '!';
		if (approx)
			marks[m++] = '~';
		if (multiplexed && !isnan(v))
			marks[m++] = 'm';
		if (jget_bool(n, "undecided"))
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
					jget_str(n, "perf_kind") && !strcmp(jget_str(n, "perf_kind"), "builtin") ?
					"b" : "");
		}
		fputc('\n', o->f);
		/* a few event names; --format json has them all */
		strbuf_reset(&why);
		if (reason)
			td_reason_short(&why, reason, 4);
		if (sanity)
			print_sanity(o, scope, n, level, &seen);
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
static void print_metrics(const struct out *o, json_t *scope, int always)
{
	json_t *ms = json_object_get(scope, "metrics"), *m;
	size_t i;
	int shown = 0, computable = 0;

	json_array_foreach(ms, i, m)
		if (!isnan(jget_num(m, "value")))
			computable++;
	if (!computable)
		return;
	if (!o->o->verbose && !always) {
		fprintf(o->f, "  %d info metric%s computed (-v lists them)\n", computable,
			computable == 1 ? "" : "s");
		return;
	}
	fprintf(o->f, "  Info metrics:\n");
	json_array_foreach(ms, i, m) {
		double v = jget_num(m, "value");
		if (isnan(v))
			continue;
		fprintf(o->f, "    %-40s %14.4g %s%s", td_printable(jget_str(m, "name")), v,
			jget_str(m, "unit") ? td_printable(jget_str(m, "unit")) : "",
			jget_bool(m, "approximate") ? " ~" : "");
		if (!isnan(jget_num(m, "uncertainty")))
			fprintf(o->f, " \xc2\xb1 %.3g", jget_num(m, "uncertainty"));
		if (!isnan(jget_num(m, "perf_value")))
			fprintf(o->f, "  (perf %s: %.1f)", td_printable(jget_str(m, "perf_name")),
				jget_num(m, "perf_value"));
		fputc('\n', o->f);
		shown++;
	}
}

/* The cycle stacks of the scope (report/text-stacks.c). */
static void print_stacks(const struct out *o, json_t *scope)
{
	struct strbuf sb = STRBUF_INIT;

	td_report_text_stacks(&sb, json_object_get(scope, "stacks"), o->o->verbose);
	fputs(sb.buf, o->f);
	strbuf_release(&sb);
}

/* "What to try" for the bottleneck (report/text-guidance.c). */
static void print_guidance(const struct out *o, json_t *scope)
{
	struct strbuf sb = STRBUF_INIT;

	td_report_text_guidance(&sb, scope);
	fputs(sb.buf, o->f);
	strbuf_release(&sb);
}

static void print_events(const struct out *o, json_t *scope)
{
	json_t *es = json_object_get(scope, "events"), *e;
	size_t i;
	struct strbuf sb = STRBUF_INIT;

	if (!json_array_size(es))
		return;
	fprintf(o->f, "  Counts:\n");
	json_array_foreach(es, i, e) {
		double v = jget_num(e, "value"), pct = jget_num(e, "running_pct");
		double var = jget_num(e, "variance_pct");
		const char *st = jget_str(e, "status");
		strbuf_reset(&sb);
		if (isnan(v))
			strbuf_addf(&sb, "<%s>", td_printable(st));
		else if (v != floor(v))
			strbuf_addf(&sb, "%.2f", v);
		else
			td_format_count(&sb, v);
		fprintf(o->f, "    %20s %-5s %s%s%s", sb.buf,
			jget_str(e, "unit") ? td_printable(jget_str(e, "unit")) : "",
			jget_str(e, "pmu") ? td_printable(jget_str(e, "pmu")) : "", jget_str(e, "pmu") ? "/" : "",
			td_printable(jget_str(e, "name")));
		if (!isnan(pct) && pct < 99.995)
			fprintf(o->f, "  (%.2f%% running, scaled)", pct);
		if (!isnan(var))
			fprintf(o->f, "  (+- %.2f%%)", var);
		fputc('\n', o->f);
	}
	strbuf_release(&sb);
}

/* perf stat's derived software figures: CPUs utilized, rates per task second. */
static void print_software(const struct out *o, json_t *scope)
{
	json_t *a = json_object_get(scope, "software"), *m;
	size_t i;

	if (!json_array_size(a))
		return;
	fprintf(o->f, "  Software counts:\n");
	json_array_foreach(a, i, m) {
		double v = jget_num(m, "value");
		const char *unit = jget_str(m, "unit");

		if (unit && !strcmp(unit, "per_sec"))
			fprintf(o->f, "    %-28s %12.3f /sec   (%s)\n", td_printable(jget_str(m, "name")), v,
				td_printable(jget_str(m, "basis")));
		else
			fprintf(o->f, "    %-28s %12.3f %-5s  (%s)\n", td_printable(jget_str(m, "name")), v,
				unit ? td_printable(unit) : "", td_printable(jget_str(m, "basis")));
	}
}

static void scope_title(const struct out *o, json_t *scope, struct strbuf *sb)
{
	const char *kind = jget_str(scope, "kind"), *label = jget_str(scope, "label");
	const char *pmu = jget_str(scope, "pmu"), *derived = jget_str(scope, "derived");
	double t = jget_num(scope, "time");

	strbuf_reset(sb);
	if (derived)
		strbuf_addf(sb, "total (%s)", td_printable(derived));
	else if (!strcmp(kind, "total"))
		strbuf_addstr(sb, "total");
	else
		strbuf_addf(sb, "%s %s", td_printable(kind), label ? td_printable(label) : "?");
	if (!isnan(t))
		strbuf_addf(sb, ", interval ending at %.3f s", t);
	if (pmu)
		strbuf_addf(sb, ", PMU %s", td_printable(pmu));
	(void)o;
}

/* Has any node a value (perf printed some where nothing was counted)? */
static int any_node_value(json_t *scope)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (!isnan(jget_num(n, "value")))
			return 1;
	return 0;
}

static void print_scope(const struct out *o, json_t *scope)
{
	struct strbuf title = STRBUF_INIT;
	json_t *bn = json_object_get(scope, "bottleneck");
	int hw = !json_is_false(json_object_get(scope, "hardware_counts"));
	int has_nodes = json_array_size(json_object_get(scope, "nodes")) > 0;

	scope_title(o, scope, &title);
	fprintf(o->f, "\n%s-- %s --%s\n", col(o, C_CYAN), title.buf, col(o, C_RESET));
	if (!hw && json_is_object(bn) && !any_node_value(scope)) {
		/* one line, not a tree of n/a: nothing of it was measured */
		fprintf(o->f, "  %s%s%s\n", col(o, C_BOLD), td_printable(jget_str(bn, "sentence")), col(o, C_RESET));
		print_software(o, scope);
		print_events(o, scope);
	} else if (has_nodes) {
		print_tree(o, scope);
		td_report_text_repeat(o->f, o->doc, scope, o->o->verbose, o->o->max_level);
		if (json_is_object(bn))
			fprintf(o->f, "  %sBottleneck:%s %s\n", col(o, C_BOLD), col(o, C_RESET),
				td_printable(jget_str(bn, "sentence")));
		td_text_phases(o->f, scope);
		print_guidance(o, scope);
		print_metrics(o, scope, 0);
		print_stacks(o, scope);
	} else {
		if (json_is_object(bn)) {
			/* a table without a tree (AMD Zen 1-3): why, then what it has */
			fprintf(o->f, "  %s%s%s\n", col(o, C_BOLD), td_printable(jget_str(bn, "sentence")),
				col(o, C_RESET));
			print_metrics(o, scope, 1);
		} else if (!jget_str(scope, "table")) {
			fprintf(o->f, "  no formula table applies: counts only\n");
		}
		print_software(o, scope);
		if (hw)
			print_events(o, scope);
	}
	td_text_extra_events(o->f, scope); /* record -e: report/extra-events.c */
	if (hw && has_nodes && o->o->events)
		print_events(o, scope);
	print_warnings(o, scope);
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

static void print_header(const struct out *o, json_t *doc)
{
	json_t *run = json_object_get(doc, "run"), *cpu = json_object_get(run, "cpu");
	json_t *smt = json_object_get(run, "smt"), *tables = json_object_get(doc, "tables"), *t;
	size_t i;

	fprintf(o->f, "%sCPU:%s %s", col(o, C_BOLD), col(o, C_RESET),
		jget_str(cpu, "name") ? td_printable(jget_str(cpu, "name")) : "unknown");
	if (jget_str(cpu, "source"))
		fprintf(o->f, " [%s]", td_printable(jget_str(cpu, "source")));
	fputc('\n', o->f);
	if (jget_str(cpu, "confidence") && strcmp(jget_str(cpu, "source") ? jget_str(cpu, "source") : "", "detected"))
		fprintf(o->f, "     %s\n", td_printable(jget_str(cpu, "confidence")));
	if (json_is_object(smt))
		fprintf(o->f, "%sSMT:%s %s [%s]\n", col(o, C_BOLD), col(o, C_RESET),
			json_is_true(json_object_get(smt, "on")) ? "on" :
			json_is_false(json_object_get(smt, "on")) ? "off" : "unknown",
			jget_str(smt, "source") ? td_printable(jget_str(smt, "source")) : "?");
	json_array_foreach(tables, i, t)
		fprintf(o->f, "%sTable:%s %s (%s, %.0f slots/cycle%s%s)\n", col(o, C_BOLD), col(o, C_RESET),
			td_printable(jget_str(t, "name")),
			jget_str(t, "display") ? td_printable(jget_str(t, "display")) : "",
			jget_num(t, "slots_per_cycle"), jget_str(t, "pmu") ? ", PMU " : "",
			jget_str(t, "pmu") ? td_printable(jget_str(t, "pmu")) : "");
}

/* A run's own total (per PMU), printed in full before the others. */
static int is_main_scope(json_t *sc)
{
	return !strcmp(jget_str(sc, "kind"), "total") && isnan(jget_num(sc, "time"));
}

/* An interval, CPU or thread scope in full (--scopes all). */
static void print_other_scope(json_t *sc, void *ctx)
{
	if (!is_main_scope(sc))
		print_scope(ctx, sc);
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

void td_report_render_text(json_t *doc, const struct td_text_opts *opts, FILE *f)
{
	struct out o = { f, opts, 0, doc };
	json_t *sessions = json_object_get(doc, "sessions"), *scopes = json_object_get(doc, "scopes");
	json_t *sess, *sc, *w;
	size_t i, k;

	print_header(&o, doc);
	/* warnings on the input as a whole (several sessions in one file, ...)
	 * come before what they qualify, not after pages of it */
	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		if (!td_report_warning_recorded(w))
			fprintf(f, "%swarning:%s %s\n", col(&o, C_YELLOW), col(&o, C_RESET),
				td_printable(jget_str(w, "text")));
	td_report_text_recorded_warnings(f, doc);
	json_array_foreach(sessions, i, sess) {
		json_int_t idx = json_integer_value(json_object_get(sess, "index"));
		double el = jget_num(sess, "elapsed_s");
		int nfold = 0;

		o.folded_header = 0;
		fprintf(f, "\n%s== session %lld: ", col(&o, C_BOLD), (long long)idx);
		if (jget_str(sess, "target") && session_is_attached(jget_str(sess, "target")))
			fprintf(f, "perf stat of %s", td_printable(jget_str(sess, "target")));
		else if (jget_str(sess, "target"))
			fprintf(f, "perf stat '%s'", td_printable(jget_str(sess, "target")));
		else
			fprintf(f, "perf stat");
		fprintf(f, " (%s", td_printable(jget_str(sess, "format")));
		if (json_integer_value(json_object_get(sess, "repeats")) > 1)
			fprintf(f, ", %lld runs", (long long)json_integer_value(json_object_get(sess, "repeats")));
		if (!isnan(el))
			fprintf(f, ", %.3f s%s", el,
				jget_str(sess, "elapsed_source") && !strcmp(jget_str(sess, "elapsed_source"), "run") ?
				" wall time of the run" : "");
		if (json_integer_value(json_object_get(sess, "line")))
			fprintf(f, ", line %lld", (long long)json_integer_value(json_object_get(sess, "line")));
		if (jget_bool(sess, "legacy_topdown"))
			fprintf(f, ", legacy --topdown");
		fprintf(f, ") ==%s\n", col(&o, C_RESET));
		/* main scopes first: totals (per PMU) */
		json_array_foreach(scopes, k, sc) {
			if (json_integer_value(json_object_get(sc, "session")) != idx)
				continue;
			if (is_main_scope(sc))
				print_scope(&o, sc);
			else
				nfold++;
		}
		nfold += (int)td_report_streamed_scopes(doc, idx);
		if (!nfold)
			continue;
		if (!opts->all_scopes)
			fprintf(f, "\n%s-- %d per-%s scopes, folded (--scopes all unfolds them) --%s\n",
				col(&o, C_CYAN), nfold, "interval/CPU/thread", col(&o, C_RESET));
		if (opts->all_scopes)
			td_report_each_scope(doc, idx, print_other_scope, &o);
		else
			td_report_each_scope_rows(doc, idx, print_folded_scope, &o);
	}
	td_report_text_threads_file(doc, f); /* threads work: report/text-threads.c */
	td_report_text_drilldown(doc, f); /* record --drilldown: report/drilldown.c */
	fprintf(f, "\nMarks: > bottleneck path, ! above threshold, ~ approximate, m multiplexed (scaled counts),"
		   " ? not decided (the error bar spans the threshold), x out of range (see the line below it),"
		   " n/a not computable, p the value perf printed, taken where the counts do not give it"
		   " (its error bar half the printed resolution), s the sum of its Level-2 children, where"
		   " neither counts nor perf give it; perf: the value perf printed"
		   " (* differs by more than 0.06 points, b perf's built-in Top-Down number: its own"
		   " formula, which may differ from the table's); \xc2\xb1 err: the value's error bar"
		   " in points (from the spread of repeated runs or of intervals; for p, half the resolution perf printed)\n");
}

