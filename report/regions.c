/*
 * Drawing a --regions run (report/regions.h).
 */
#include "report/regions.h"
#include "util/util.h"

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
