/*
 * The live view: perf stat's interval output (-I) as it arrives, one
 * Top-Down frame per interval.
 *
 * Bytes are fed as they come (a pipe from perf, or the file a running
 * 'tdperf record' has perf write).  Lines are grouped by the interval
 * time they start with; when a line of a later interval arrives, the
 * interval before it is complete: it is reported on its own (the same
 * import and formulas as 'tdperf report', on that interval's lines plus
 * the header lines seen before the first interval) and drawn.  The CPU
 * table chosen for the first interval is kept for the others, so every
 * frame uses the same formulas.
 *
 * Nothing but the current interval's lines, the header and a short
 * history per node is kept: an endless stream takes constant memory.
 *
 * On a terminal each frame replaces the previous one (ANSI "home, clear
 * to end"), with a sparkline of each node's last values; elsewhere each
 * interval is one appended line.
 */
#include "report/render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LIVE_HISTORY 24             /* values per node in the sparkline */
#define LIVE_MAX_HEADER (64 * 1024) /* header lines kept for every interval */
#define LIVE_MAX_NODES 512

struct node_history {
	char *key;                  /* "pmu/id" */
	double v[LIVE_HISTORY];     /* NAN: not computable in that interval */
	size_t n;                   /* values seen (the ring holds the last LIVE_HISTORY) */
};

struct td_live {
	struct td_report_opts opts;
	char *table;                /* the first interval's table, for the others */
	FILE *out;
	int tty;
	int max_level;
	struct strbuf header;       /* lines before the first interval */
	struct strbuf chunk;        /* the current interval's lines */
	struct strbuf partial;      /* a line not yet ended by a newline */
	double chunk_time;          /* NAN: no interval line yet */
	size_t frames;
	struct node_history *hist;
	size_t nr_hist, alloc_hist;
	struct strbuf last_error;
};

struct td_live *td_live_new(const struct td_report_opts *opts, FILE *out, int tty)
{
	struct td_live *lv = xcalloc(1, sizeof(*lv));

	if (opts)
		lv->opts = *opts;
	lv->opts.stream_scopes = 0;
	lv->out = out;
	lv->tty = tty;
	lv->max_level = opts && opts->max_level > 0 ? opts->max_level : 2;
	strbuf_init(&lv->header, 0);
	strbuf_init(&lv->chunk, 0);
	strbuf_init(&lv->partial, 0);
	strbuf_init(&lv->last_error, 0);
	lv->chunk_time = NAN;
	return lv;
}

void td_live_free(struct td_live *lv)
{
	size_t i;

	if (!lv)
		return;
	for (i = 0; i < lv->nr_hist; i++)
		free(lv->hist[i].key);
	free(lv->hist);
	free(lv->table);
	strbuf_release(&lv->header);
	strbuf_release(&lv->chunk);
	strbuf_release(&lv->partial);
	strbuf_release(&lv->last_error);
	free(lv);
}

/*
 * The interval time a line of perf's -I output starts with, or NAN.  An
 * interval line is a time (with a decimal point) followed by a count or,
 * in CSV, an empty count field: "  1.001036716   1,234  cycles",
 * "1.000103288,4677067630,,TOPDOWN.SLOTS", "1.0001,,,,,,51.0,%  tma_...";
 * or, in perf's JSON, an object with an "interval" member.  A plain count
 * line ("  3.14 msec task-clock") is not one.
 */
static double line_time(const char *line)
{
	const char *p = line, *num;
	char *end;
	double t;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '{') {
		/* perf stat -j -I: one JSON object per count, {"interval" : 1.001, ...} */
		p = strstr(p, "\"interval\"");
		if (!p)
			return NAN;
		for (p += 10; *p == ' ' || *p == ':'; p++)
			;
		t = strtod(p, &end);
		return end == p ? NAN : t;
	}
	num = p;
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == num || *p != '.' || p[1] < '0' || p[1] > '9')
		return NAN;
	t = strtod(num, &end);
	p = end;
	if (*p == ',' || *p == ';')
		p++;
	else if (*p == ' ' || *p == '\t')
		while (*p == ' ' || *p == '\t')
			p++;
	else
		return NAN;
	if ((*p >= '0' && *p <= '9') || *p == '<' || *p == ',' || *p == ';' || !*p)
		return t;
	return NAN;
}

static struct node_history *history_of(struct td_live *lv, const char *pmu, const char *id)
{
	struct strbuf key = STRBUF_INIT;
	struct node_history *h = NULL;
	size_t i;

	strbuf_addf(&key, "%s/%s", pmu ? pmu : "", id);
	for (i = 0; i < lv->nr_hist && !h; i++)
		if (!strcmp(lv->hist[i].key, key.buf))
			h = &lv->hist[i];
	if (!h && lv->nr_hist < LIVE_MAX_NODES) {
		TD_GROW(lv->hist, lv->alloc_hist, lv->nr_hist + 1);
		h = &lv->hist[lv->nr_hist++];
		memset(h, 0, sizeof(*h));
		h->key = strbuf_detach(&key, NULL);
	}
	strbuf_release(&key);
	return h;
}

static void history_add(struct node_history *h, double v)
{
	if (h)
		h->v[h->n++ % LIVE_HISTORY] = v;
}

/* The node's last values as bars of eighths of 100 % (blank: not computable). */
static void sparkline(struct strbuf *sb, const struct node_history *h)
{
	static const char *const bars[] = { "\u2581", "\u2582", "\u2583", "\u2584",
					    "\u2585", "\u2586", "\u2587", "\u2588" };
	size_t k, n = h ? (h->n < LIVE_HISTORY ? h->n : LIVE_HISTORY) : 0;

	for (k = 0; k < n; k++) {
		double v = h->v[(h->n - n + k) % LIVE_HISTORY];
		int b;

		if (isnan(v)) {
			strbuf_addch(sb, ' ');
			continue;
		}
		b = (int)(v * 8);
		strbuf_addstr(sb, bars[b < 0 ? 0 : b > 7 ? 7 : b]);
	}
}

/* The scopes a frame shows: each PMU's whole interval (the derived sum of the chunk). */
static int frame_scope(json_t *sc)
{
	return !json_is_null(json_object_get(sc, "derived")) ||
	       (json_is_null(json_object_get(sc, "time")) &&
		!strcmp(td_json_str_or(sc, "kind", ""), "total"));
}

static const char *node_marks(json_t *n, char *buf)
{
	char *p = buf;

	if (json_is_true(json_object_get(n, "flagged")))
		*p++ = '!';
	if (json_is_true(json_object_get(n, "approximate")))
		*p++ = '~';
	if (json_is_true(json_object_get(n, "undecided")))
		*p++ = '?';
	if (!json_is_null(json_object_get(n, "sanity")) && json_object_get(n, "sanity"))
		*p++ = 'x';
	*p = '\0';
	return buf;
}

/* Does the scope have a Top-Down tree (a Level 1 node)? */
static int has_tree(json_t *sc)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(sc, "nodes"), i, n)
		if (json_integer_value(json_object_get(n, "level")) == 1)
			return 1;
	return 0;
}

/* Without a tree (software counts only): the counts as perf printed them. */
static void counts_of(json_t *sc, struct strbuf *f, const char *sep)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(sc, "events"), i, e) {
		double v = td_json_num(json_object_get(e, "value"));
		const char *unit = td_json_str_or(e, "unit", NULL);

		strbuf_addf(f, "%s%s ", sep, td_printable(td_json_str_or(e, "name", "?")));
		if (isnan(v))
			strbuf_addf(f, "%s", td_printable(td_json_str_or(e, "status", "n/a")));
		else
			strbuf_addf(f, "%.6g%s%s", v, unit ? " " : "", unit ? td_printable(unit) : "");
	}
}

static void frame_scope_tty(struct td_live *lv, json_t *sc, struct strbuf *f)
{
	const char *pmu = td_json_str_or(sc, "pmu", NULL);
	json_t *n, *bn = json_object_get(sc, "bottleneck");
	size_t i, hidden = 0;
	char marks[8];

	if (pmu)
		strbuf_addf(f, "-- PMU %s --\n", td_printable(pmu));
	if (!has_tree(sc)) {
		strbuf_addstr(f, "  no Top-Down events; the counts:\n");
		counts_of(sc, f, "\n    ");
		strbuf_addch(f, '\n');
		return;
	}
	strbuf_addf(f, "  %-34s %8s  %-4s last %d intervals (each bar: 0-100 %%)\n", "Top-Down node",
		    "value", "", LIVE_HISTORY);
	json_array_foreach(json_object_get(sc, "nodes"), i, n) {
		int level = (int)json_integer_value(json_object_get(n, "level"));
		double v = td_json_num(json_object_get(n, "value"));
		struct node_history *h;

		if (level < 1 || level > lv->max_level)
			continue;
		h = history_of(lv, pmu, td_json_str_or(n, "id", "?"));
		history_add(h, v);
		if (isnan(v) && level > 1) {
			hidden++;       /* a deeper node the input has no events for */
			continue;
		}
		strbuf_addf(f, "%s%*s%-*s", json_is_true(json_object_get(n, "bottleneck")) ? "> " : "  ",
			    2 * (level - 1), "", 34 - 2 * (level - 1),
			    td_printable(td_json_str_or(n, "name", "?")));
		if (isnan(v))
			strbuf_addf(f, " %8s  %-4s ", "n/a", "");
		else
			strbuf_addf(f, " %6.1f %%  %-4s ", 100 * v, node_marks(n, marks));
		sparkline(f, h);
		strbuf_addch(f, '\n');
	}
	if (hidden)
		strbuf_addf(f, "  (%zu deeper nodes not computable from these events hidden)\n", hidden);
	strbuf_addf(f, "  Bottleneck: %s\n",
		    td_printable(td_json_str_or(bn, "sentence", "no node above its threshold")));
}

/* One appended line per PMU: "  12.004 s  frontend_bound 41.1 %! ... | bottleneck". */
static void frame_scope_line(struct td_live *lv, json_t *sc, struct strbuf *f)
{
	const char *pmu = td_json_str_or(sc, "pmu", NULL);
	json_t *n, *bn = json_object_get(sc, "bottleneck");
	size_t i;
	char marks[8];

	strbuf_addf(f, "%12.3f s", lv->chunk_time);
	if (pmu)
		strbuf_addf(f, "  %s:", td_printable(pmu));
	if (!has_tree(sc)) {
		counts_of(sc, f, "  ");
		strbuf_addstr(f, "  | no Top-Down events\n");
		return;
	}
	json_array_foreach(json_object_get(sc, "nodes"), i, n) {
		int level = (int)json_integer_value(json_object_get(n, "level"));
		double v = td_json_num(json_object_get(n, "value"));

		if (level != 1)
			continue;
		history_add(history_of(lv, pmu, td_json_str_or(n, "id", "?")), v);
		if (isnan(v))
			strbuf_addf(f, "  %s n/a", td_printable(td_json_str_or(n, "id", "?")));
		else
			strbuf_addf(f, "  %s %.1f %%%s", td_printable(td_json_str_or(n, "id", "?")), 100 * v,
				    node_marks(n, marks));
	}
	strbuf_addf(f, "  | %s\n", td_printable(td_json_str_or(bn, "sentence", "no node above its threshold")));
}

/* Report the finished interval and draw it; -1 with err when not even the first can be. */
static int flush_interval(struct td_live *lv, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT, why = STRBUF_INIT, f = STRBUF_INIT;
	json_t *doc, *sc, *table;
	size_t i, shown = 0;

	if (!lv->chunk.len)
		return 0;
	strbuf_add(&data, lv->header.buf, lv->header.len);
	strbuf_add(&data, lv->chunk.buf, lv->chunk.len);
	strbuf_reset(&lv->chunk);
	if (lv->table)
		lv->opts.cpu = lv->table;
	doc = td_report_load_data("<live>", &data, &lv->opts, &why);
	strbuf_release(&data);
	if (!doc) {
		if (!lv->frames) {
			strbuf_add(err, why.buf, why.len);
			strbuf_release(&why);
			return -1;
		}
		strbuf_reset(&lv->last_error);
		strbuf_addf(&lv->last_error, "interval at %.3f s not reported: %s", lv->chunk_time, why.buf);
		strbuf_release(&why);
		return 0;
	}
	table = json_object_get(doc, "table");
	if (!lv->table && json_is_object(table) && td_json_str_or(table, "name", NULL))
		lv->table = xstrdup(td_json_str_or(table, "name", NULL));
	if (lv->tty) {
		strbuf_addstr(&f, "\033[H\033[J");
		strbuf_addf(&f, "tdperf live: interval %zu, %.3f s; table %s", lv->frames + 1, lv->chunk_time,
			    lv->table ? td_printable(lv->table) : "(none: counts only)");
		strbuf_addstr(&f, "   (Ctrl-C ends)\n");
	}
	json_array_foreach(json_object_get(doc, "scopes"), i, sc) {
		if (!frame_scope(sc))
			continue;
		if (lv->tty)
			frame_scope_tty(lv, sc, &f);
		else
			frame_scope_line(lv, sc, &f);
		shown++;
	}
	if (!shown)
		strbuf_addf(&f, "%12.3f s  no Top-Down scope in this interval\n", lv->chunk_time);
	if (lv->tty) {
		strbuf_addstr(&f, "Marks: > bottleneck path, ! above threshold, ~ approximate, ? not decided, "
			      "x out of range\n");
		if (lv->last_error.len)
			strbuf_addf(&f, "%s\n", td_printable(lv->last_error.buf));
	}
	fwrite(f.buf, 1, f.len, lv->out);
	fflush(lv->out);
	lv->frames++;
	strbuf_release(&f);
	strbuf_release(&why);
	json_decref(doc);
	return 0;
}

/* One whole input line. */
static int take_line(struct td_live *lv, const char *line, size_t len, struct strbuf *err)
{
	struct strbuf l = STRBUF_INIT;
	double t;
	int ret = 0;

	strbuf_add(&l, line, len);
	t = line_time(l.buf);
	if (!isnan(t) && !isnan(lv->chunk_time) && t != lv->chunk_time)
		ret = flush_interval(lv, err);
	if (!isnan(t)) {
		lv->chunk_time = t;
		strbuf_add(&lv->chunk, l.buf, l.len);
		strbuf_addch(&lv->chunk, '\n');
	} else if (isnan(lv->chunk_time)) {
		if (lv->header.len + len < LIVE_MAX_HEADER) {
			strbuf_add(&lv->header, l.buf, l.len);
			strbuf_addch(&lv->header, '\n');
		}
	} else if (lv->chunk.len + len < LIVE_MAX_HEADER) {
		/* a line between interval lines (perf's notes, the workload's output) */
		strbuf_add(&lv->chunk, l.buf, l.len);
		strbuf_addch(&lv->chunk, '\n');
	}
	strbuf_release(&l);
	return ret;
}

int td_live_feed(struct td_live *lv, const char *data, size_t len, struct strbuf *err)
{
	const char *p = data, *end = data + len;

	if (memchr(data, '\0', len)) {
		strbuf_addstr(err, "binary data (a NUL byte), not perf stat output");
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl) {
			if (lv->partial.len + (size_t)(end - p) > LIVE_MAX_HEADER) {
				strbuf_addstr(err, "a line longer than 64 KiB: not perf stat output");
				return -1;
			}
			strbuf_add(&lv->partial, p, (size_t)(end - p));
			break;
		}
		if (lv->partial.len) {
			strbuf_add(&lv->partial, p, (size_t)(nl - p));
			if (take_line(lv, lv->partial.buf, lv->partial.len, err) < 0)
				return -1;
			strbuf_reset(&lv->partial);
		} else if (take_line(lv, p, (size_t)(nl - p), err) < 0) {
			return -1;
		}
		p = nl + 1;
	}
	return 0;
}

int td_live_finish(struct td_live *lv, struct strbuf *err)
{
	if (lv->partial.len) {
		if (take_line(lv, lv->partial.buf, lv->partial.len, err) < 0)
			return -1;
		strbuf_reset(&lv->partial);
	}
	if (flush_interval(lv, err) < 0)
		return -1;
	if (!lv->frames) {
		strbuf_addstr(err, "no interval in the input (the live view reads perf stat -I output)");
		return -1;
	}
	return 0;
}

size_t td_live_frames(const struct td_live *lv)
{
	return lv->frames;
}
