/*
 * Drawing a --regions run (report/regions.h).
 */
#include "report/regions.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "Backend Bound > Memory Bound" from a bottleneck path of ids. */
static void path_names(json_t *o, struct strbuf *sb)
{
	json_t *nodes = json_object_get(o, "nodes"), *id, *n;
	size_t i, j;

	json_array_foreach(json_object_get(o, "bottleneck"), i, id) {
		const char *name = json_string_value(id);

		json_array_foreach(nodes, j, n)
			if (!strcmp(str(n, "id"), json_string_value(id)))
				name = str(n, "name");
		strbuf_addf(sb, "%s%s", i ? " > " : "", name);
	}
	if (json_is_true(json_object_get(o, "ambiguous")))
		strbuf_addstr(sb, sb->len ? " > (two children too close to call)" : "two nodes too close to call");
	if (!sb->len)
		strbuf_addstr(sb, json_array_size(nodes) ? "none flagged" : "-");
}

static void table_text(json_t *regions, FILE *out)
{
	json_t *r;
	size_t i;
	int any_estimate = 0;

	fprintf(out, "%-28s %10s %4s %10s %10s %8s  %s\n", "region", "calls", "thr", "time s", "excl s",
		"CPU %", "bottleneck");
	json_array_foreach(regions, i, r) {
		struct strbuf name = STRBUF_INIT, path = STRBUF_INIT;
		int est = json_is_true(json_object_get(r, "estimate"));
		double share = num(r, "share");

		strbuf_addf(&name, "%*s%s%s", 2 * (int)json_integer_value(json_object_get(r, "depth")), "",
			    str(r, "name"), est ? " ~" : "");
		path_names(r, &path);
		fprintf(out, "%-28s %10.0f %4lld %10.4f %10.4f ", name.buf, num(r, "calls"),
			(long long)json_integer_value(json_object_get(r, "threads")), num(r, "time_s"),
			num(r, "exclusive_time_s"));
		if (isnan(share))
			fprintf(out, "%8s  %s\n", "-", path.buf);
		else
			fprintf(out, "%7.1f%%  %s\n", 100 * share, path.buf);
		any_estimate |= est;
		strbuf_release(&name);
		strbuf_release(&path);
	}
	if (any_estimate)
		fputs("~ estimate: multiplexed or sampled counts, scaled (the region's section says why)\n", out);
}

static void tree_text(json_t *o, const char *indent, FILE *out)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(o, "nodes"), i, n) {
		int level = (int)json_integer_value(json_object_get(n, "level"));
		double v = num(n, "value");

		fprintf(out, "%s%*s%-*s ", indent, 2 * (level - 1), "", 34 - 2 * (level - 1), str(n, "name"));
		if (isnan(v))
			fprintf(out, "%7s  (%s)\n", "n/a", str(n, "reason"));
		else
			fprintf(out, "%6.1f %%%s\n", 100 * v,
				json_is_true(json_object_get(n, "bottleneck")) ? "  <== bottleneck"
				: json_is_true(json_object_get(n, "flagged")) ? "  (flagged)" : "");
	}
}

/*
 * A region's Top-Down CPI stack (analyze/stacks.c's "cpi": each Level 1
 * and, with -v, Level 2 node's share of the region's cycles per
 * instruction), "~" where a part is an approximation.
 */
static void cpi_text(json_t *r, int verbose, FILE *out)
{
	json_t *cpi = json_object_get(json_object_get(r, "stacks"), "cpi"), *c;
	size_t i;

	if (!cpi)
		return;
	if (isnan(num(cpi, "cpi"))) {
		fprintf(out, "  CPI stack: not computable: %s\n",
			json_is_string(json_object_get(cpi, "reason")) ? str(cpi, "reason") : "CPI unknown");
		return;
	}
	fprintf(out, "  CPI stack: CPI %.3f (%.0f cycles / %.0f instructions)\n", num(cpi, "cpi"),
		num(cpi, "cycles"), num(cpi, "instructions"));
	json_array_foreach(json_object_get(cpi, "components"), i, c) {
		int level = (int)num(c, "level");

		if (level > 1 && !verbose)
			continue;
		fprintf(out, "    %*s%-*s", 2 * (level - 1), "", 30 - 2 * (level - 1),
			json_is_string(json_object_get(c, "name")) ? str(c, "name") : str(c, "id"));
		if (isnan(num(c, "value")))
			fprintf(out, "      ?  (%s)\n", str(c, "reason"));
		else
			fprintf(out, " %7.3f%s %5.1f %%\n", num(c, "value"),
				json_is_true(json_object_get(c, "approximate")) ? "~" : " ",
				100 * num(c, "fraction"));
	}
}

static void region_text(json_t *r, const struct td_text_opts *o, FILE *out)
{
	json_t *x, *t;
	size_t i;

	fprintf(out, "\nregion %s: %.0f calls", str(r, "name"), num(r, "calls"));
	if (num(r, "measured_calls") < num(r, "calls"))
		fprintf(out, " (%.0f counted)", num(r, "measured_calls"));
	fprintf(out, ", %lld thread%s, %.4f s inclusive, %.4f s exclusive\n",
		(long long)json_integer_value(json_object_get(r, "threads")),
		json_integer_value(json_object_get(r, "threads")) == 1 ? "" : "s",
		num(r, "time_s"), num(r, "exclusive_time_s"));
	json_array_foreach(json_object_get(r, "estimate_reasons"), i, x)
		fprintf(out, "  estimate: %s\n", json_string_value(x));
	fprintf(out, "  task-clock %.3f ms, %.0f context switches, %.0f page faults\n",
		num(json_object_get(r, "counts"), "task-clock") / 1e6,
		num(json_object_get(r, "counts"), "context-switches"),
		num(json_object_get(r, "counts"), "page-faults"));
	tree_text(r, "  ", out);
	cpi_text(r, o->verbose, out);
	if (o->events) {
		const char *k;

		json_object_foreach(json_object_get(r, "counts"), k, x)
			fprintf(out, "  %-40s %18.0f  (exclusive %.0f)\n", k, json_number_value(x),
				json_number_value(json_object_get(json_object_get(r, "exclusive_counts"), k)));
	}
	if (!o->verbose)
		return;
	json_array_foreach(json_object_get(r, "per_thread"), i, t) {
		struct strbuf path = STRBUF_INIT;

		path_names(t, &path);
		fprintf(out, "  thread %lld (process %lld): %.0f calls, %.4f s, bottleneck %s\n",
			(long long)json_integer_value(json_object_get(t, "tid")),
			(long long)json_integer_value(json_object_get(t, "pid")), num(t, "calls"),
			num(t, "time_s"), path.buf);
		if (o->verbose > 1)
			tree_text(t, "    ", out);
		strbuf_release(&path);
	}
}

void td_regions_render_text(json_t *doc, const struct td_text_opts *o, FILE *out)
{
	json_t *regions = json_object_get(doc, "regions"), *r, *w;
	size_t i;

	fprintf(out, "Regions of %s: %s, table %s, counted by libtdperf.so in %lld process%s",
		str(doc, "run"), json_is_string(json_object_get(doc, "cpu")) ? str(doc, "cpu") : "CPU unknown",
		json_is_string(json_object_get(doc, "table")) ? str(doc, "table") : "none (software events)",
		(long long)json_integer_value(json_object_get(doc, "processes")),
		json_integer_value(json_object_get(doc, "processes")) == 1 ? "" : "es");
	if (json_integer_value(json_object_get(doc, "sample")) > 1)
		fprintf(out, ", one pass in %lld of each region",
			(long long)json_integer_value(json_object_get(doc, "sample")));
	fputs("\n\n", out);
	table_text(regions, out);
	json_array_foreach(regions, i, r)
		region_text(r, o, out);
	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		fprintf(out, "%swarning: %s\n", i ? "" : "\n", json_string_value(w));
}

static void csv_field(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
}

static void csv_row(FILE *out, json_t *r, const char *kind, const char *name, double v)
{
	csv_field(out, str(r, "name"));
	fputc(',', out);
	csv_field(out, str(r, "parent"));
	fprintf(out, ",%.0f,%lld,%.9g,%.9g,", num(r, "calls"),
		(long long)json_integer_value(json_object_get(r, "threads")), num(r, "time_s"),
		num(r, "exclusive_time_s"));
	if (!isnan(num(r, "share")))
		fprintf(out, "%.6g", num(r, "share"));
	fprintf(out, ",%d,%s,", json_is_true(json_object_get(r, "estimate")), kind);
	csv_field(out, name);
	fputc(',', out);
	if (!isnan(v))
		fprintf(out, "%.9g", v);
	fputc('\n', out);
}

void td_regions_render_csv(json_t *doc, FILE *out)
{
	json_t *r, *x;
	size_t i, j;
	const char *k;

	fputs("region,parent,calls,threads,time_s,exclusive_time_s,share,estimate,kind,name,value\n", out);
	json_array_foreach(json_object_get(doc, "regions"), i, r) {
		json_array_foreach(json_object_get(r, "nodes"), j, x)
			csv_row(out, r, "node", str(x, "id"), num(x, "value"));
		json_object_foreach(json_object_get(r, "counts"), k, x)
			csv_row(out, r, "count", k, json_is_number(x) ? json_number_value(x) : NAN);
		json_object_foreach(json_object_get(r, "exclusive_counts"), k, x)
			csv_row(out, r, "exclusive_count", k, json_is_number(x) ? json_number_value(x) : NAN);
	}
}

void td_regions_render_json(json_t *doc, FILE *out)
{
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	fputc('\n', out);
}

/* ---------------- HTML: one self-contained page ---------------- */

static void html_tree(struct strbuf *sb, json_t *o)
{
	json_t *n;
	size_t i;

	strbuf_addstr(sb, "<table class=\"tree\">\n");
	json_array_foreach(json_object_get(o, "nodes"), i, n) {
		int level = (int)json_integer_value(json_object_get(n, "level"));
		double v = num(n, "value");
		int bn = json_is_true(json_object_get(n, "bottleneck"));

		strbuf_addf(sb, "<tr class=\"%s\"><td style=\"padding-left:%dem\">",
			    bn ? "bn" : json_is_true(json_object_get(n, "flagged")) ? "flag" : "", 1 + 2 * (level - 1));
		strbuf_add_html(sb, str(n, "name"));
		if (isnan(v)) {
			strbuf_addstr(sb, "</td><td class=\"num\">n/a</td><td class=\"why\">");
			strbuf_add_html(sb, str(n, "reason"));
			strbuf_addstr(sb, "</td></tr>\n");
			continue;
		}
		strbuf_addf(sb, "</td><td class=\"num\">%.1f %%</td><td><span class=\"bar\" "
			    "style=\"width:%.0fpx\"></span>%s</td></tr>\n", 100 * v,
			    v > 0 ? 300 * (v > 1 ? 1 : v) : 0, bn ? " bottleneck" : "");
	}
	strbuf_addstr(sb, "</table>\n");
}

/* The region's CPI stack: one bar per Level 1 node, its share of the region's CPI. */
static void html_cpi(struct strbuf *sb, json_t *r)
{
	json_t *cpi = json_object_get(json_object_get(r, "stacks"), "cpi"), *c;
	double total = num(cpi, "cpi");
	size_t i;

	if (!cpi || isnan(total))
		return;
	strbuf_addf(sb, "<table class=\"tree cpi\"><tr><th>CPI stack</th><th class=\"num\">%.3f</th>"
		    "<th>cycles per instruction</th></tr>\n", total);
	json_array_foreach(json_object_get(cpi, "components"), i, c) {
		double v = num(c, "value");

		if (num(c, "level") > 1)
			continue;
		strbuf_addstr(sb, "<tr><td style=\"padding-left:1em\">");
		strbuf_add_html(sb, json_is_string(json_object_get(c, "name")) ? str(c, "name") : str(c, "id"));
		if (isnan(v)) {
			strbuf_addstr(sb, "</td><td class=\"num\">n/a</td><td class=\"why\">");
			strbuf_add_html(sb, str(c, "reason"));
			strbuf_addstr(sb, "</td></tr>\n");
			continue;
		}
		strbuf_addf(sb, "</td><td class=\"num\">%.3f%s</td><td><span class=\"bar\" "
			    "style=\"width:%.0fpx\"></span>%.1f %%</td></tr>\n", v,
			    json_is_true(json_object_get(c, "approximate")) ? " ~" : "",
			    v > 0 ? 300 * (v > total ? 1 : v / total) : 0, 100 * num(c, "fraction"));
	}
	strbuf_addstr(sb, "</table>\n");
}

int td_regions_render_html(json_t *doc, const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *r, *w;
	size_t i;
	int ret;

	strbuf_addstr(&sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		      "<title>tdperf regions: ");
	strbuf_add_html(&sb, str(doc, "run"));
	strbuf_addstr(&sb, "</title>\n<style>\n"
		      "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\n"
		      "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
		      "td,th{padding:2px 10px;text-align:left}\n"
		      ".num{text-align:right;font-variant-numeric:tabular-nums}\n"
		      "table.regions tr:nth-child(even){background:#f3f3f3}\n"
		      ".bar{display:inline-block;height:10px;background:#6a8fc7;margin-right:6px}\n"
		      "tr.bn .bar{background:#d0542c} tr.bn td{font-weight:600}\n"
		      "tr.flag .bar{background:#e3a04a}\n"
		      ".why{color:#777;font-size:12px}\n.est{color:#a0522d}\n"
		      "h2{margin-top:1.5em;font-size:17px}\n</style></head><body>\n<h1>Regions of ");
	strbuf_add_html(&sb, str(doc, "run"));
	strbuf_addstr(&sb, "</h1>\n<p>");
	strbuf_add_html(&sb, json_is_string(json_object_get(doc, "cpu")) ? str(doc, "cpu") : "CPU unknown");
	strbuf_addstr(&sb, ", table ");
	strbuf_add_html(&sb, json_is_string(json_object_get(doc, "table")) ? str(doc, "table")
			: "none (software events)");
	strbuf_addf(&sb, "; counted by libtdperf.so in %lld process%s",
		    (long long)json_integer_value(json_object_get(doc, "processes")),
		    json_integer_value(json_object_get(doc, "processes")) == 1 ? "" : "es");
	if (json_integer_value(json_object_get(doc, "sample")) > 1)
		strbuf_addf(&sb, ", one pass in %lld of each region",
			    (long long)json_integer_value(json_object_get(doc, "sample")));
	strbuf_addstr(&sb, ".</p>\n<table class=\"regions\"><tr><th>region</th><th class=\"num\">calls</th>"
		      "<th class=\"num\">threads</th><th class=\"num\">time s</th><th class=\"num\">"
		      "exclusive s</th><th class=\"num\">CPU share</th><th>bottleneck</th></tr>\n");
	json_array_foreach(json_object_get(doc, "regions"), i, r) {
		struct strbuf path_sb = STRBUF_INIT;
		double share = num(r, "share");

		path_names(r, &path_sb);
		strbuf_addf(&sb, "<tr><td style=\"padding-left:%lldem\"><a href=\"#r%zu\">",
			    1 + 2 * (long long)json_integer_value(json_object_get(r, "depth")), i);
		strbuf_add_html(&sb, str(r, "name"));
		strbuf_addf(&sb, "</a>%s</td><td class=\"num\">%.0f</td><td class=\"num\">%lld</td>"
			    "<td class=\"num\">%.4f</td><td class=\"num\">%.4f</td><td class=\"num\">",
			    json_is_true(json_object_get(r, "estimate")) ? " <span class=\"est\" title=\"estimate\">~</span>" : "",
			    num(r, "calls"), (long long)json_integer_value(json_object_get(r, "threads")),
			    num(r, "time_s"), num(r, "exclusive_time_s"));
		if (isnan(share))
			strbuf_addstr(&sb, "-");
		else
			strbuf_addf(&sb, "%.1f %%", 100 * share);
		strbuf_addstr(&sb, "</td><td>");
		strbuf_add_html(&sb, path_sb.buf);
		strbuf_addstr(&sb, "</td></tr>\n");
		strbuf_release(&path_sb);
	}
	strbuf_addstr(&sb, "</table>\n");
	json_array_foreach(json_object_get(doc, "regions"), i, r)
		if (json_is_true(json_object_get(r, "estimate"))) {
			strbuf_addstr(&sb, "<p class=\"est\">~ estimate: multiplexed or sampled counts, "
				      "scaled (the region's section says why).</p>\n");
			break;
		}
	json_array_foreach(json_object_get(doc, "regions"), i, r) {
		json_t *x;
		size_t k;

		strbuf_addf(&sb, "<h2 id=\"r%zu\">", i);
		strbuf_add_html(&sb, str(r, "name"));
		strbuf_addf(&sb, "</h2>\n<p>%.0f calls, %lld thread(s), %.4f s inclusive, %.4f s exclusive; "
			    "task-clock %.3f ms, %.0f context switches, %.0f page faults</p>\n",
			    num(r, "calls"), (long long)json_integer_value(json_object_get(r, "threads")),
			    num(r, "time_s"), num(r, "exclusive_time_s"),
			    num(json_object_get(r, "counts"), "task-clock") / 1e6,
			    num(json_object_get(r, "counts"), "context-switches"),
			    num(json_object_get(r, "counts"), "page-faults"));
		json_array_foreach(json_object_get(r, "estimate_reasons"), k, x) {
			strbuf_addstr(&sb, "<p class=\"est\">estimate: ");
			strbuf_add_html(&sb, json_string_value(x));
			strbuf_addstr(&sb, "</p>\n");
		}
		if (json_array_size(json_object_get(r, "nodes"))) {
			html_tree(&sb, r);
			html_cpi(&sb, r);
		} else
			strbuf_addstr(&sb, "<p class=\"why\">No Top-Down tree: this run counted software "
				      "events only (no hardware PMU, or no formula table).</p>\n");
	}
	json_array_foreach(json_object_get(doc, "warnings"), i, w) {
		strbuf_addstr(&sb, i ? "<br>" : "<h2>Warnings</h2>\n<p>");
		strbuf_add_html(&sb, json_string_value(w));
	}
	strbuf_addstr(&sb, json_array_size(json_object_get(doc, "warnings")) ? "</p>\n</body></html>\n"
		      : "</body></html>\n");
	ret = td_write_file_atomic(path, sb.buf, sb.len);
	if (ret < 0)
		strbuf_addf(err, "%s: cannot write: %s", path, strerror(errno));
	strbuf_release(&sb);
	return ret;
}
