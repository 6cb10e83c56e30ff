/*
 * gnuplot charts: for each chart, STEM.dat (tab-separated data, "?" where a
 * value is not computable, notes as comments) and STEM.gp (a plain gnuplot
 * script that reads it).  Both stay in the chart directory so users can
 * restyle and re-render them without tdperf:
 *
 *     gnuplot topdown-l1.gp                  # SVG
 *     gnuplot -e 'fmt="png"' topdown-l1.gp   # PNG
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/*
 * Append 'str' as text gnuplot may draw.  gnuplot copies a label into the
 * SVG byte for byte, and one ESC (a thread that names itself "\e]0;..\a")
 * or one byte that is not UTF-8 makes the whole SVG unparsable XML; a line
 * break would also end a script line.  So control characters (C0, DEL and
 * C1) become spaces, and each byte that does not start a character XML
 * allows becomes U+FFFD, visibly.
 */
static void add_chart_text(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	const unsigned char *end = s + strlen((const char *)s);

	while (*s) {
		size_t n;

		if (*s < 0x20 || *s == 0x7f) {
			strbuf_addch(sb, ' ');
			s++;
		} else if (*s == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
			strbuf_addch(sb, ' ');
			s += 2;
		} else if (*s < 0x80) {
			strbuf_addch(sb, *s++);
		} else if ((n = td_utf8_text_len(s, (size_t)(end - s)))) {
			strbuf_add(sb, s, n);
			s += n;
		} else {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			s++;
		}
	}
}

/*
 * A label as one data field: chart text (so no tab or line break), never
 * a comment, and no double quote (gnuplot reads "..." inside a field as a
 * quoted string).
 */
static void add_field(struct strbuf *sb, const char *s)
{
	struct strbuf text = STRBUF_INIT;
	size_t i;

	add_chart_text(&text, s);
	if (text.buf[0] == '#')
		strbuf_addch(sb, ' ');
	for (i = 0; i < text.len; i++)
		strbuf_addch(sb, text.buf[i] == '"' ? '\'' : text.buf[i]);
	strbuf_release(&text);
}

static void add_number(struct strbuf *sb, double v)
{
	if (isnan(v) || isinf(v))
		strbuf_addch(sb, '?');
	else
		strbuf_addf(sb, "%.6g", v);
}

/*
 * A gnuplot string expression holding 's' as plain chart text.  Labels come
 * from the input (a thread names itself with prctl(PR_SET_NAME), a run
 * directory carries its own table.json), so nothing in them may reach
 * gnuplot's command line processing: inside single quotes gnuplot performs
 * no backtick command substitution, no @macro expansion and no backslash
 * escapes.  But a quote cannot be doubled inside one: gnuplot's scanner
 * takes '' right after the opening quote (or after another '') for the
 * empty string, so a label starting with a quote, '''x', ended the string
 * there and the chart failed.  Each run of quotes is therefore a
 * double-quoted string of its own ("'" holds nothing gnuplot expands),
 * joined to the other pieces with gnuplot's concatenation operator '.'.
 * The terminals are noenhanced, so {}^_@ are shown as is.
 */
void td_gp_string(struct strbuf *sb, const char *s)
{
	struct strbuf text = STRBUF_INIT;
	const char *p;

	add_chart_text(&text, s);
	if (!text.len)
		strbuf_addstr(sb, "''");
	for (p = text.buf; *p; ) {
		size_t quotes = strspn(p, "'");
		size_t n = quotes ? quotes : strcspn(p, "'");
		char delim = quotes ? '"' : '\'';

		if (p != text.buf)
			strbuf_addch(sb, '.');
		strbuf_addch(sb, delim);
		strbuf_add(sb, p, n);
		strbuf_addch(sb, delim);
		p += n;
	}
	strbuf_release(&text);
}

/*
 * 'text' as comment lines starting with 'prefix', one per line of text,
 * each line chart text.  A backslash never ends a line: gnuplot continues
 * a comment that ends with one onto the next line, which would swallow
 * the script's next command.
 */
static void td_gp_comment(struct strbuf *sb, const char *prefix, const char *text)
{
	const char *p = text ? text : "";

	do {
		const char *nl = strchrnul(p, '\n');
		char *line = xstrndup(p, nl - p);

		strbuf_addstr(sb, prefix);
		add_chart_text(sb, line);
		free(line);
		while (sb->len && sb->buf[sb->len - 1] == '\\')
			sb->buf[sb->len - 1] = '/';
		strbuf_addch(sb, '\n');
		p = *nl ? nl + 1 : nl;
	} while (*p);
}

/* Lines of c->notes as comment lines with 'prefix'. */
static void add_notes(struct strbuf *sb, const struct td_chart *c, const char *prefix)
{
	if (c->notes.len)
		td_gp_comment(sb, prefix, c->notes.buf);
}

static void chart_data(struct strbuf *sb, const struct td_chart *c)
{
	struct strbuf head = STRBUF_INIT;
	size_t i, j;

	strbuf_addf(&head, "tdperf chart data: %s\ntab-separated columns: %s", c->title,
		    c->kind == TD_CHART_AREA ? "time (s)" : c->kind == TD_CHART_LINE ?
		    (c->xlabel ? c->xlabel : "x") : "label");
	for (j = 0; j < c->nseries; j++)
		strbuf_addf(&head, " | %s", c->series[j].name);
	if (c->kind == TD_CHART_SIGNED)
		strbuf_addstr(&head, " | colour (0xRRGGBB)");
	strbuf_addf(&head, "\nvalues in %s; ? = not computable", c->ylabel ? c->ylabel : "units");
	td_gp_comment(sb, "# ", head.buf);
	strbuf_release(&head);
	add_notes(sb, c, "# note: ");
	for (i = 0; i < c->nrows; i++) {
		const struct td_chart_row *r = &c->rows[i];

		if (c->kind == TD_CHART_AREA || c->kind == TD_CHART_LINE)
			add_number(sb, r->x);
		else
			add_field(sb, r->label);
		for (j = 0; j < c->nseries; j++) {
			strbuf_addch(sb, '\t');
			add_number(sb, r->values[j]);
		}
		if (c->kind == TD_CHART_SIGNED)
			strbuf_addf(sb, "\t0x%s", r->colour && *r->colour == '#' ? r->colour + 1 : "888888");
		strbuf_addch(sb, '\n');
	}
}

static size_t longest_label(const struct td_chart *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].label && strlen(c->rows[i].label) > n)
			n = strlen(c->rows[i].label);
	return n;
}

/*
 * Would the category labels, written level, run into each other?  Each
 * has its bar's share of the plot area (the chart less ~230 px of key and
 * axis); a character of the 12 px SVG font is ~7 px wide.  Rotated labels
 * are harder to read: only when they must (not for 2-4 short bars).
 */
/*
 * A stacked chart is as wide as the card; with fewer bars than this its
 * x range is widened by empty slots on both sides, so that one or two bars
 * are not walls half the card wide (each bar keeps ~1/4 of the plot).
 */
#define MIN_BAR_SLOTS 4

static size_t bar_slots(const struct td_chart *c)
{
	return c->nrows < MIN_BAR_SLOTS ? MIN_BAR_SLOTS : c->nrows;
}

static int labels_collide(const struct td_chart *c)
{
	double slot;

	if (!c->nrows)
		return 0;
	slot = (td_chart_width(c) - 230.0) / (double)bar_slots(c);
	return 7.0 * (double)longest_label(c) > 0.9 * slot;
}

int td_chart_width(const struct td_chart *c)
{
	int width = TD_CHART_CARD_WIDTH, bars = (int)c->nrows;

	/*
	 * Every chart fills the HTML card, shown at scale 1 so its 12 px text
	 * stays 12 px; past 15 bars, 55 px a bar, scrolled in the HTML
	 * rather than shrunk.
	 */
	if (c->kind == TD_CHART_STACKED && 230 + 55 * bars > width)
		width = 230 + 55 * bars;
	return width > 4000 ? 4000 : width;
}

static void chart_terminal(struct strbuf *sb, const struct td_chart *c, const char *format)
{
	int width = td_chart_width(c), height = 440;

	strbuf_addf(sb, "if (!exists(\"fmt\")) fmt = \"%s\"\n", format);
	strbuf_addf(sb,
		    "if (fmt eq \"png\") {\n"
		    "    set terminal pngcairo size %d,%d noenhanced font \"sans,10\" background rgb \"#ffffff\"\n"
		    "} else {\n"
		    "    set terminal svg size %d,%d dynamic noenhanced font \"sans,12\" background rgb \"#ffffff\"\n"
		    "}\n"
		    "# tdperf sets to_stdout, reads the image and writes the file itself, checked\n"
		    "if (!exists(\"to_stdout\")) set output \"%s.\" . fmt\n",
		    width, height, width, height, c->stem);
}

static void chart_frame(struct strbuf *sb, const struct td_chart *c)
{
	strbuf_addstr(sb,
		      "set datafile separator \"\\t\"\n"
		      "set datafile missing \"?\"\n"
		      "set border 3 lc rgb \"#666666\"\n"
		      "set grid ytics lc rgb \"#dddddd\" lt 1 lw 1\n"
		      "set xtics nomirror scale 0 textcolor rgb \"#333333\"\n"
		      "set ytics nomirror textcolor rgb \"#333333\"\n"
		      "set key outside right top vertical invert Left reverse samplen 1.5 spacing 1.2 noenhanced\n");
	strbuf_addstr(sb, "set title ");
	td_gp_string(sb, c->title);
	strbuf_addstr(sb, " font \",14\" textcolor rgb \"#222222\"\n");
	if (c->ylabel) {
		strbuf_addstr(sb, "set ylabel ");
		td_gp_string(sb, c->ylabel);
		strbuf_addch(sb, '\n');
	}
	if (c->xlabel) {
		strbuf_addstr(sb, "set xlabel ");
		td_gp_string(sb, c->xlabel);
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, "set yrange [");
	if (!isnan(c->ymin))
		strbuf_addf(sb, "%g", c->ymin);
	strbuf_addch(sb, ':');
	if (!isnan(c->ymax))
		strbuf_addf(sb, "%g", c->ymax);
	strbuf_addstr(sb, "]\n");
	if (c->kind != TD_CHART_AREA && c->kind != TD_CHART_LINE && labels_collide(c))
		strbuf_addstr(sb, "set xtics rotate by -35\n");
}

static void plot_stacked(struct strbuf *sb, const struct td_chart *c)
{
	size_t j;

	strbuf_addstr(sb,
		      "set style data histograms\n"
		      "set style histogram rowstacked\n"
		      "set style fill solid 1.0 border rgb \"#ffffff\"\n"
		      "set boxwidth 0.62 relative\n");
	if (c->nrows && c->nrows < MIN_BAR_SLOTS)
		strbuf_addf(sb, "set xrange [%g:%g]\n", -0.5 - (MIN_BAR_SLOTS - c->nrows) / 2.0,
			    c->nrows - 0.5 + (MIN_BAR_SLOTS - c->nrows) / 2.0);
	strbuf_addstr(sb, "plot ");
	for (j = 0; j < c->nseries; j++) {
		if (j)
			strbuf_addf(sb, ", \\\n     \"\" using %zu title ", j + 2);
		else
			strbuf_addf(sb, "\"%s.dat\" using 2:xtic(1) title ", c->stem);
		td_gp_string(sb, c->series[j].name);
		strbuf_addf(sb, " lc rgb \"%s\"", c->series[j].colour);
		if (!strcmp(c->series[j].id, TD_CHART_NOT_MEASURED))
			strbuf_addstr(sb, " fs pattern 4 border lc rgb \"#8a929e\"");
	}
	strbuf_addch(sb, '\n');
}

/* A bar with no value at all says so, instead of an empty place on the axis. */
static void label_empty_rows(struct strbuf *sb, const struct td_chart *c)
{
	size_t i, k;

	for (i = 0; i < c->nrows; i++) {
		for (k = 0; k < c->nseries; k++)
			if (!isnan(c->rows[i].values[k]))
				break;
		if (k == c->nseries)
			strbuf_addf(sb, "set label \"n/a: not measured\" at first %zu, graph 0.5 center "
				    "textcolor rgb \"#555f6d\"\n", i);
	}
}

static void plot_area(struct strbuf *sb, const struct td_chart *c)
{
	struct strbuf below = STRBUF_INIT;
	size_t j;

	strbuf_addstr(sb, "set autoscale xfix\nset style fill solid 0.92 noborder\nplot ");
	strbuf_addch(&below, '0');
	for (j = 0; j < c->nseries; j++) {
		if (j)
			strbuf_addstr(sb, ", \\\n     \"\"");
		else
			strbuf_addf(sb, "\"%s.dat\"", c->stem);
		strbuf_addf(sb, " using 1:(%s):(%s+$%zu) with filledcurves title ", below.buf, below.buf, j + 2);
		td_gp_string(sb, c->series[j].name);
		strbuf_addf(sb, " lc rgb \"%s\"", c->series[j].colour);
		strbuf_addf(&below, "+$%zu", j + 2);
	}
	strbuf_addch(sb, '\n');
	strbuf_release(&below);
}

static void plot_signed(struct strbuf *sb, const struct td_chart *c)
{
	strbuf_addf(sb,
		    "set style fill solid 1.0 noborder\n"
		    "set boxwidth 0.62\n"
		    "set xzeroaxis lt 1 lc rgb \"#444444\"\n"
		    /* room above and below the bars: a value label must not sit on the axis labels */
		    "set offsets 0, 0, graph 0.12, graph 0.12\n"
		    "unset key\n"
		    "plot \"%s.dat\" using 0:2:%zu:xtic(1) with boxes lc rgb variable notitle, \\\n"
		    /* a change below 0.0005 is rounding, not "+2.38e-10" */
		    "     \"\" using 0:($2 >= 0 ? $2 : NaN):(abs($2) < 0.0005 ? \"0\" : sprintf(\"%%+.3g\", $2)) "
		    "with labels offset 0,0.8 textcolor rgb \"#333333\" notitle, \\\n"
		    "     \"\" using 0:($2 < 0 ? $2 : NaN):(abs($2) < 0.0005 ? \"0\" : sprintf(\"%%+.3g\", $2)) "
		    "with labels offset 0,-0.8 "
		    "textcolor rgb \"#333333\" notitle\n",
		    c->stem, c->nseries + 2);
}

static void plot_line(struct strbuf *sb, const struct td_chart *c)
{
	size_t j;

	strbuf_addstr(sb, "set key inside left top vertical Left reverse samplen 2.5 spacing 1.2 noenhanced\n"
		      "set xtics (");
	for (j = 0; j < c->nrows; j++)
		strbuf_addf(sb, "%s\"%g\" %g", j ? ", " : "", c->rows[j].x, c->rows[j].x);
	strbuf_addstr(sb, ")\nset offsets graph 0.04, graph 0.04, 0, 0\nplot ");
	for (j = 0; j < c->nseries; j++) {
		if (j)
			strbuf_addstr(sb, ", \\\n     \"\"");
		else
			strbuf_addf(sb, "\"%s.dat\"", c->stem);
		strbuf_addf(sb, " using 1:%zu with linespoints", j + 2);
		if (c->series[j].dashed)
			strbuf_addstr(sb, " dashtype 2 pointtype 0");
		else
			strbuf_addstr(sb, " pointtype 7 pointsize 0.9");
		strbuf_addf(sb, " linewidth 2 lc rgb \"%s\" title ", c->series[j].colour);
		td_gp_string(sb, c->series[j].name);
	}
	strbuf_addch(sb, '\n');
}

static void chart_script(struct strbuf *sb, const struct td_chart *c, const char *format)
{
	td_gp_comment(sb, "# tdperf chart: ", c->title);
	strbuf_addf(sb,
		    "# Written by tdperf; edit freely.  Data: %s.dat (tab-separated, ? = not computable).\n"
		    "# Render:  gnuplot %s.gp            (SVG)\n"
		    "#          gnuplot -e 'fmt=\"png\"' %s.gp   (PNG)\n"
		    "# Component colours are tdperf's fixed Top-Down palette.\n",
		    c->stem, c->stem, c->stem);
	add_notes(sb, c, "# note: ");
	chart_terminal(sb, c, format);
	chart_frame(sb, c);
	switch (c->kind) {
	case TD_CHART_STACKED:
		label_empty_rows(sb, c);
		plot_stacked(sb, c);
		break;
	case TD_CHART_AREA:
		plot_area(sb, c);
		break;
	case TD_CHART_SIGNED:
		plot_signed(sb, c);
		break;
	case TD_CHART_LINE:
		plot_line(sb, c);
		break;
	}
}

void td_chart_text(const struct td_chart *c, const char *format, struct strbuf *data, struct strbuf *script)
{
	if (c->script) {
		strbuf_addstr(script, c->script);
		return;
	}
	chart_data(data, c);
	chart_script(script, c, format);
}

/* Write dir/STEM.EXT through td_write_file_atomic(); err names the file on failure. */
static int write_file(const char *dir, const char *stem, const char *ext, const struct strbuf *sb,
		      struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT;
	char *path;
	int ret = 0;

	strbuf_addf(&name, "%s.%s", stem, ext);
	path = td_path_join(dir, name.buf);
	if (td_write_file_atomic(path, sb->buf, sb->len) < 0) {
		strbuf_addf(err, "%s: cannot write: %s", path, strerror(errno));
		ret = -1;
	}
	free(path);
	strbuf_release(&name);
	return ret;
}

int td_chart_write(const struct td_chart *c, const char *dir, const char *format, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT, script = STRBUF_INIT;
	int ret = 0;

	td_chart_text(c, format, &data, &script);
	if (!c->script)
		ret = write_file(dir, c->stem, "dat", &data, err);
	if (!ret)
		ret = write_file(dir, c->stem, "gp", &script, err);
	strbuf_release(&data);
	strbuf_release(&script);
	return ret;
}

/* Publish one chart into dir: its data and script, then its image when drawn. */
static int publish_chart(const struct td_chart *c, const char *dir, const char *format,
			 const struct strbuf *image, struct strbuf *err)
{
	int ret = td_chart_write(c, dir, format, err);

	if (!ret && image)
		ret = write_file(dir, c->stem, format, image, err);
	return ret;
}

/*
 * After a failed publication, remove the files of the first 'nr' charts
 * (those it wrote), so that nothing is left cut.
 */
static void unpublish(const struct td_chart_list *charts, size_t nr, const char *dir, const char *format)
{
	const char *exts[] = { "dat", "gp", format };
	struct strbuf name = STRBUF_INIT;
	size_t i, k;

	for (i = 0; i < nr && i < charts->nr; i++)
		for (k = charts->items[i]->script ? 1 : 0; k < TD_ARRAY_SIZE(exts); k++) {
			char *path;

			strbuf_reset(&name);
			strbuf_addf(&name, "%s.%s", charts->items[i]->stem, exts[k]);
			path = td_path_join(dir, name.buf);
			unlink(path);
			free(path);
		}
	strbuf_release(&name);
}

int td_charts_plot(const struct td_chart_list *charts, const char *dir, const char *format,
		   struct strbuf *err)
{
	struct strbuf *images = xcalloc(charts->nr ? charts->nr : 1, sizeof(*images));
	struct strbuf why = STRBUF_INIT;
	int drawn, ret = 0, created = !td_is_dir(dir);
	size_t i;

	for (i = 0; i < charts->nr; i++)
		strbuf_init(&images[i], 0);
	/* everything is drawn before anything is published: a failure leaves nothing */
	drawn = td_charts_draw(charts, format, images, &why);
	if (drawn < 0) {
		strbuf_add(err, why.buf, why.len);
		ret = -1;
	} else if (td_mkdir_p(dir) < 0) {
		strbuf_addf(err, "%s: cannot create directory: %s", dir, strerror(errno));
		ret = -1;
	} else {
		for (i = 0; i < charts->nr && !ret; i++)
			ret = publish_chart(charts->items[i], dir, format, drawn ? NULL : &images[i], err);
		if (ret < 0) {
			unpublish(charts, i, dir, format);
			if (created)
				rmdir(dir);
		} else if (drawn) {
			strbuf_add(err, why.buf, why.len);
			ret = 1;
		}
	}
	for (i = 0; i < charts->nr; i++)
		strbuf_release(&images[i]);
	free(images);
	strbuf_release(&why);
	return ret;
}

int td_report_plot(json_t *doc, const char *dir, const char *format, struct strbuf *err)
{
	struct td_chart_list charts = { 0 };
	int ret;

	if (!format)
		format = "svg";
	if (strcmp(format, "svg") && strcmp(format, "png")) {
		strbuf_addf(err, "unknown chart format '%s' (use svg or png)", format);
		return -1;
	}
	td_charts_for_report(doc, &charts);
	if (!charts.nr) {
		strbuf_addstr(err, "nothing to chart: the report has no Top-Down values and no thread analysis");
		return -1;
	}
	ret = td_charts_plot(&charts, dir, format, err);
	if (ret == 1) {
		warning("%s: wrote chart data and gnuplot scripts only", err->buf);
		strbuf_reset(err);
		ret = 0;
	}
	td_chart_list_release(&charts);
	return ret;
}
