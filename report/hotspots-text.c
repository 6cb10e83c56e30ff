/*
 * Text and CSV of the "hotspots" document (analyze/hotspots-load.c): the
 * top functions with their self and children shares, the per-DSO shares,
 * and whether Top-Down per function could be computed.
 */
#include "report/render.h"
#include "util/util.h"

#include <math.h>
#include <string.h>

static double real_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "name" or "[unknown] in DSO+0xOFFSET". */
static void frame_label(json_t *fn, struct strbuf *sb)
{
	const char *sym = json_string_value(json_object_get(fn, "symbol"));
	const char *dso = json_string_value(json_object_get(fn, "dso"));
	json_t *off = json_object_get(fn, "offset");

	if (off)
		strbuf_addf(sb, "[unknown] in %s+0x%llx", dso ? td_printable(dso) : "?",
			    (unsigned long long)json_integer_value(off));
	else
		strbuf_add_printable(sb, sym ? sym : "?");
}

/* A bar of width 20 for a fraction. */
static void bar(FILE *out, double v)
{
	int i, n = isfinite(v) ? (int)(v * 20 + 0.5) : 0;

	for (i = 0; i < 20; i++)
		fputc(i < n ? '#' : '.', out);
}

/*
 * Under a function: its Level 1 nodes (and the Level 2 nodes under its
 * bottleneck) as bars with value and 95 % interval, the bottleneck marked;
 * or the reason there are none.
 */
static void function_topdown(json_t *fn, FILE *out)
{
	json_t *td = json_object_get(fn, "topdown"), *nodes, *n;
	const char *note = json_string_value(json_object_get(td, "note"));
	const char *path = NULL;
	size_t i;

	if (!td)
		return;
	if (note) {
		fprintf(out, "%31s Top-Down: %s\n", "", td_printable(note));
		return;
	}
	nodes = json_object_get(td, "nodes");
	json_array_foreach(nodes, i, n) {
		long long level = json_integer_value(json_object_get(n, "level"));
		int bott = json_is_true(json_object_get(n, "bottleneck"));

		if (level > 1 && !bott)
			continue; /* Level 2 only along the bottleneck path */
		if (level == 1 && bott)
			path = json_string_value(json_object_get(n, "id"));
		fprintf(out, "%31s %*s%-22s ", "", (int)(2 * (level - 1)), "",
			td_printable(json_string_value(json_object_get(n, "name"))));
		bar(out, real_of(n, "value"));
		fprintf(out, " %5.1f%% [%5.1f, %5.1f]%s\n", 100 * real_of(n, "value"), 100 * real_of(n, "low"),
			100 * real_of(n, "high"), bott ? "  <== bottleneck" : "");
	}
	(void)path;
}

/* Under a function: its hottest source lines and inlined callees. */
static void function_details(json_t *fn, FILE *out)
{
	static const char *const keys[][2] = { { "lines", "source" }, { "inlined", "symbol" } };
	static const char *const labels[] = { "lines:  ", "inlined:" };
	size_t k, i;
	json_t *e;

	for (k = 0; k < 2; k++) {
		json_t *list = json_object_get(fn, keys[k][0]);

		if (!json_array_size(list))
			continue;
		fprintf(out, "%31s %s", "", labels[k]);
		json_array_foreach(list, i, e) {
			if (i >= 3)
				break;
			fprintf(out, "%s %s %.2f%%", i ? "," : "",
				td_printable(json_string_value(json_object_get(e, keys[k][1]))),
				real_of(e, "percent"));
		}
		fputc('\n', out);
	}
}

/* Why no Top-Down per function is shown. */
static void topdown_note(json_t *h, FILE *out)
{
	json_t *group = json_object_get(h, "group");
	const char *note = json_string_value(json_object_get(h, "topdown_note"));

	if (note)
		fprintf(out, "\nTop-Down per function: %s\n", td_printable(note));
	if (!group)
		fprintf(out, "\nTop-Down per function needs hardware counters: this recording sampled %s alone "
			"(no counter group); record with tdperf record --hotspots on a CPU with a PMU.\n",
			td_printable(json_string_value(json_object_get(h, "event"))));
}

/* The MPI library's share, when the profile holds an MPI library. */
static void mpi_line(json_t *mpi, FILE *out)
{
	json_t *d;
	size_t i;

	if (!json_array_size(json_object_get(mpi, "dsos")))
		return;
	fprintf(out, "\nMPI library: %.2f%% of the samples, %.2f%% with the functions it calls (",
		real_of(mpi, "percent"), real_of(mpi, "children_percent"));
	json_array_foreach(json_object_get(mpi, "dsos"), i, d) {
		const char *p = json_string_value(d), *base = strrchr(p, '/');

		fprintf(out, "%s%s", i ? ", " : "", td_printable(base ? base + 1 : p));
	}
	fputs(")\n", out);
}

void td_hotspots_render_text(json_t *doc, int top, FILE *out)
{
	json_t *h = json_object_get(doc, "profile"), *fns, *fn, *dsos;
	struct strbuf label = STRBUF_INIT;
	size_t i;

	fns = json_object_get(doc, "hotspots");
	fprintf(out, "Hotspots of %s: %lld samples of %s%s\n",
		td_printable(json_string_value(json_object_get(h, "source"))),
		(long long)json_integer_value(json_object_get(h, "samples")),
		td_printable(json_string_value(json_object_get(h, "event"))),
		json_is_true(json_object_get(h, "callchains")) ? ", with call chains" : ", no call chains (children = self)");
	fprintf(out, "\n   self%%  children%%   samples  function  (dso)  [source]\n");
	json_array_foreach(fns, i, fn) {
		const char *src = json_string_value(json_object_get(fn, "source"));

		if (top > 0 && (int)i >= top)
			break;
		strbuf_reset(&label);
		frame_label(fn, &label);
		fprintf(out, "%8.2f  %9.2f  %8lld  %s  (%s)", real_of(fn, "percent"), real_of(fn, "children_percent"),
			(long long)json_integer_value(json_object_get(fn, "samples")), label.buf,
			td_printable(json_string_value(json_object_get(fn, "dso"))));
		if (src)
			fprintf(out, "  [%s]", td_printable(src));
		fputc('\n', out);
		function_details(fn, out);
		function_topdown(fn, out);
	}
	if (top > 0 && json_array_size(fns) > (size_t)top)
		fprintf(out, "  ... %zu more functions (--format json lists all)\n", json_array_size(fns) - (size_t)top);
	dsos = json_object_get(h, "dsos");
	fprintf(out, "\n   self%%   samples  dso\n");
	json_array_foreach(dsos, i, fn) {
		if (top > 0 && (int)i >= top)
			break;
		fprintf(out, "%8.2f  %8lld  %s\n", real_of(fn, "percent"),
			(long long)json_integer_value(json_object_get(fn, "samples")),
			td_printable(json_string_value(json_object_get(fn, "dso"))));
	}
	mpi_line(json_object_get(h, "mpi"), out);
	topdown_note(h, out);
	strbuf_release(&label);
}

/* A CSV text cell (util/message.c: quoting, formulas neutralised). */
static void csv_field(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_csv(&sb, s);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

void td_hotspots_render_csv(json_t *doc, FILE *out)
{
	json_t *fn;
	size_t i;

	fputs("symbol,dso,offset,samples,percent,children_samples,children_percent,source\n", out);
	json_array_foreach(json_object_get(doc, "hotspots"), i, fn) {
		json_t *off = json_object_get(fn, "offset");

		csv_field(out, json_string_value(json_object_get(fn, "symbol")));
		fputc(',', out);
		csv_field(out, json_string_value(json_object_get(fn, "dso")));
		fputc(',', out);
		if (off)
			fprintf(out, "0x%llx", (unsigned long long)json_integer_value(off));
		fprintf(out, ",%lld,%.4f,%lld,%.4f,", (long long)json_integer_value(json_object_get(fn, "samples")),
			real_of(fn, "percent"), (long long)json_integer_value(json_object_get(fn, "children_samples")),
			real_of(fn, "children_percent"));
		csv_field(out, json_string_value(json_object_get(fn, "source")));
		fputc('\n', out);
	}
}
