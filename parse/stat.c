/*
 * perf stat output -> count model: the second pass.
 *
 * Every line has been recognized alone (stat-lines.c); here the lines are
 * grouped into sessions.  A session starts at a "Performance counter
 * stats" header, at the first line of a CSV or JSON block, or at a text
 * count line that is followed by more of them (authors often paste the
 * counts without the header).  It ends at the elapsed-time lines, at
 * prose, at a change of format, or when interval times go backwards.
 *
 * The input may be a mail or a README: prose around the runs, mail
 * quoting ("> > > "), colour codes, and lines that a mailer wrapped (the
 * name of a metric, or the multiplexing "(71.07%)", moved to the next
 * line).  Quoting and colours are removed before recognition; wrapped
 * pieces are attached to the line they came from here.
 */
#include "parse/parse.h"
#include "parse/stat-lines.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct builder {
	const char *name;
	struct td_stat_file *f;
	struct td_stat *cur;
	enum rec_fmt fmt;
	int ended;                /* elapsed time seen: the block is over */
	int has_content;
	struct td_scope *last_scope;
	long last_count;          /* index in last_scope, -1 none */
	long dangling;            /* perf metric in last_scope waiting for its name */
	char *metric_pmu;         /* "(cpu_core)" of a perf >= 6.3 group line */
	char *pending_version;
	struct rec cols;          /* the last --metric-only header (R_COLS) */
	double last_time;
	int max_fields;           /* CSV: widest row of the block */
	/* td_stat_parse_stream: where finished interval scopes go */
	td_stat_scope_fn *on_scope;
	void *on_scope_ctx;
	size_t kept;              /* cur's scopes before this one were handed on */
	int intervals_only;       /* TD_STAT_STREAM_INTERVALS */
	int stopped;              /* on_scope said stop, or a scope had no interval time */
};

/* Remove colour codes and mail quoting; returns a new string. */
static char *clean_line(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	while (n && (s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	/* what perf writes has neither: copied whole */
	if ((!n || s[0] != '>') && !memchr(s, '\033', n))
		return xstrndup(s, n);
	/* mail quoting: "> > > text" */
	while (i < n && s[i] == '>') {
		i++;
		if (i < n && s[i] == ' ')
			i++;
	}
	for (; i < n; i++) {
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			i += 2;
			while (i < n && !isalpha((unsigned char)s[i]))
				i++;
			continue;
		}
		strbuf_addch(&sb, s[i]);
	}
	return strbuf_detach(&sb, NULL);
}

/* What a session says of itself that any of its scopes can show. */
static void note_scope(struct td_stat *st, const struct td_scope *s)
{
	size_t j;

	for (j = 0; j < s->nr_counts; j++) {
		const char *p = s->counts[j].pmu;
		if (p && (!strcmp(p, "cpu_core") || !strcmp(p, "cpu_atom")))
			st->hybrid = 1;
		if (!isnan(s->counts[j].variance_pct))
			st->has_variance = 1;
	}
	for (j = 0; j < s->nr_perf_metrics; j++) {
		const char *n = s->perf_metrics[j].name;
		if (!strcasecmp(n, "bad speculation") || !strcasecmp(n, "frontend bound") ||
		    !strcasecmp(n, "backend bound"))
			st->legacy_topdown = 1;
	}
}

/*
 * Streaming: hand the scopes of the current session from b->kept up to
 * (not including) 'upto' to on_scope; those it keeps move down to
 * b->kept, the others are freed, and the scopes from 'upto' on follow.
 */
static void hand_on(struct builder *b, size_t upto)
{
	struct td_stat *st = b->cur;
	size_t i, w = b->kept, last = b->last_scope ? (size_t)(b->last_scope - st->scopes) : 0;
	int r;

	for (i = b->kept; i < upto; i++) {
		note_scope(st, &st->scopes[i]);
		r = b->stopped ? -1 : b->on_scope(b->f->nr_sessions - 1, st, &st->scopes[i],
						   b->on_scope_ctx);
		if (r < 0)
			b->stopped = 1;
		if (r > 0)
			st->scopes[w++] = st->scopes[i];
		else
			td_scope_release(&st->scopes[i]);
	}
	memmove(st->scopes + w, st->scopes + upto, (st->nr_scopes - upto) * sizeof(*st->scopes));
	st->nr_scopes -= upto - w;
	if (b->last_scope)
		b->last_scope = last >= upto ? &st->scopes[last - (upto - w)] : NULL;
	b->kept = w;
}

/*
 * Streaming: once an interval's scopes are followed by a later interval's,
 * no line can reach them any more (td_stat_scope looks back only over the
 * last time, and an earlier time ends the session): hand them on.
 */
static void hand_on_finished(struct builder *b)
{
	struct td_stat *st = b->cur;
	size_t n;

	if (!b->on_scope || !st || !st->interval)
		return;
	n = st->nr_scopes;
	if (n >= b->kept + 2 && b->last_scope == &st->scopes[n - 1] &&
	    st->scopes[n - 1].time != st->scopes[n - 2].time)
		hand_on(b, n - 1);
}

/*
 * CSV and JSON have no "seconds time elapsed" line: the duration_time
 * event perf counts in nanoseconds is the elapsed time.  A whole-run
 * count only: in interval mode it is each interval's length.
 */
static void elapsed_from_duration_time(struct td_stat *st)
{
	size_t i, j;

	if (!isnan(st->elapsed_s) || st->interval)
		return;
	for (i = 0; i < st->nr_scopes; i++) {
		const struct td_scope *s = &st->scopes[i];
		if (s->kind != TD_SCOPE_TOTAL)
			continue;
		for (j = 0; j < s->nr_counts; j++) {
			const struct td_count *c = &s->counts[j];
			if (strcmp(c->event, "duration_time") || c->status != TD_COUNT_OK ||
			    (c->unit && strcmp(c->unit, "ns")) || !(c->value >= 0))
				continue;
			st->elapsed_s = c->value / 1e9;
			st->elapsed_from_duration = 1;
			return;
		}
	}
}

static void close_session(struct builder *b)
{
	struct td_stat *st = b->cur;
	size_t i;

	if (!st)
		return;
	elapsed_from_duration_time(st);
	if (b->on_scope && st->interval)
		hand_on(b, st->nr_scopes); /* notes each scope it hands on */
	else
		for (i = 0; i < st->nr_scopes; i++)
			note_scope(st, &st->scopes[i]);
	b->kept = 0;
	if (!b->has_content) /* a header with nothing after it */
		td_stat_file_drop_last(b->f);
	b->cur = NULL;
	b->ended = 0;
	b->has_content = 0;
	b->last_scope = NULL;
	b->last_count = -1;
	b->dangling = -1;
	b->max_fields = 0;
	free(b->metric_pmu);
	b->metric_pmu = NULL;
}

static void open_session(struct builder *b, enum rec_fmt fmt, int line)
{
	static const char *const names[] = { "text", "csv", "json" };

	close_session(b);
	b->cur = td_stat_add_session(b->f, b->name, names[fmt]);
	b->cur->line = line;
	b->fmt = fmt;
	b->last_time = -INFINITY;
	if (b->pending_version) {
		b->cur->perf_version = b->pending_version;
		b->pending_version = NULL;
	}
}

/* Is the next significant line another count or metric of this format? */
static int followed_by_counts(const struct rec *recs, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		switch (recs[i].kind) {
		case R_BLANK: case R_CONT: case R_ELISION:
			continue;
		case R_COUNT: case R_METRIC: case R_ELAPSED:
			return recs[i].fmt == F_TEXT;
		default:
			return 0;
		}
	}
	return 0;
}

static void add_count(struct builder *b, const struct rec *r)
{
	struct td_scope *s = td_stat_scope(b->cur, r->skind, r->label, r->time);
	struct td_count *c = td_scope_add_count(s, r->event);

	s->cpus = r->cpus;
	c->value = r->status == TD_COUNT_OK ? r->value : NAN;
	c->status = r->status;
	c->unit = r->unit ? xstrdup(r->unit) : NULL;
	c->running_pct = r->pct;
	c->running_ns = r->running_ns;
	c->variance_pct = r->variance;
	c->line = r->line;
	b->last_scope = s;
	b->last_count = (long)(s->nr_counts - 1);
	b->has_content = 1;
	free(b->metric_pmu);
	b->metric_pmu = NULL;
}

/*
 * perf <= 6.3 printed two legacy Level-2 values on one line ("2.7% Heavy
 * Operations  #  4.8% Light Operations"): the second becomes a metric of
 * its own, on the same line and group.  m's name is cut before the '#'.
 */
static void split_second_metric(struct td_scope *s, struct td_perf_metric *m)
{
	char *hash = strchr(m->name, '#'), *end, *name;
	double v;
	struct td_perf_metric *second;
	size_t i = (size_t)(m - s->perf_metrics);

	if (!hash)
		return;
	v = strtod(hash + 1, &end);
	if (end == hash + 1 || *end != '%')
		return;
	for (name = end + 1; *name == ' '; name++)
		;
	if (!*name)
		return;
	name = xstrdup(name);
	*hash = '\0';
	while (hash > m->name && hash[-1] == ' ')
		*--hash = '\0';
	second = td_scope_add_perf_metric(s, name, "%", v);
	second->resolution = rec_printed_step(hash + 1 + strspn(hash + 1, " "), end);
	m = &s->perf_metrics[i];     /* the array may have moved */
	td_perf_metric_classify(m);
	second->line = m->line;
	second->pmu = m->pmu ? xstrdup(m->pmu) : NULL;
	second->group = m->group;
	free(name);
}

static void add_metric(struct builder *b, const struct rec *r)
{
	struct td_scope *s;
	struct td_perf_metric *m;
	struct td_count *c = NULL;

	if (r->label || !isnan(r->time) || !b->last_scope)
		s = td_stat_scope(b->cur, r->skind, r->label, r->time);
	else
		s = b->last_scope;
	if (s == b->last_scope && b->last_count >= 0)
		c = &s->counts[b->last_count];
	m = td_scope_add_perf_metric(s, r->mname, r->munit, r->mvalue);
	m->line = r->line;
	m->resolution = r->mstep;
	m->blank = r->mblank;
	m->kind = r->mkind;
	m->threshold = r->mthreshold ? xstrdup(r->mthreshold) : NULL;
	if (r->mpmu) {
		free(b->metric_pmu);
		b->metric_pmu = xstrdup(r->mpmu);
	}
	if (b->metric_pmu)
		m->pmu = xstrdup(b->metric_pmu);
	else if (c && c->pmu)
		m->pmu = xstrdup(c->pmu);
	m->group = c ? c->group : -1;
	split_second_metric(s, m);
	if (r->m2name) {
		struct td_perf_metric *second = td_scope_add_perf_metric(s, r->m2name, r->m2unit,
									 r->m2value);
		m = &s->perf_metrics[s->nr_perf_metrics - 2];
		second->resolution = r->m2step;
		second->kind = r->m2kind;
		second->line = m->line;
		second->pmu = m->pmu ? xstrdup(m->pmu) : NULL;
		second->group = m->group;
	}
	m = &s->perf_metrics[s->nr_perf_metrics - 1];
	if (r->kind == R_METRIC && c && !isnan(r->pct) && isnan(c->running_pct))
		c->running_pct = r->pct; /* "(50.00%)" after the metric */
	b->dangling = m->name[0] ? -1 : (long)(s->nr_perf_metrics - 1);
	if (s != b->last_scope) {
		b->last_scope = s;
		b->last_count = -1;
	}
	b->has_content = 1;
}

/* Keep the titles of a --metric-only header for the rows after it. */
static void take_cols(struct builder *b, struct rec *r)
{
	rec_release(&b->cols);
	b->cols = *r;
	rec_init(r, b->cols.line);
}

/*
 * May a row of values without names (R_ROW) be perf's?  Under a header of
 * titles of its format, yes.  Without one, only perf's --topdown row (4 or
 * 12 values, perf 6.1 prints no titles for it): in text after a "Performance
 * counter stats" header, in CSV, JSON and -I text with perf's one decimal.
 */
static int row_is_perfs(const struct builder *b, const struct rec *r)
{
	size_t k;

	if (b->cols.kind == R_COLS && b->cols.fmt == r->fmt)
		return 1;
	if (!rec_topdown_names(r->nvals))
		return 0;
	/* -I: perf's interval time ("%lu.%09lu") before the values */
	if (r->fmt == F_TEXT && isnan(r->time))
		return b->cur && b->fmt == F_TEXT && (!b->has_content || b->cur->metric_only);
	for (k = 0; k < r->nvals; k++)
		if (!isnan(r->steps[k]) && r->steps[k] != 0.1)
			return 0;
	return 1;
}

/* A --metric-only or --topdown row: each value a metric perf printed. */
static void add_row(struct builder *b, const struct rec *r)
{
	struct td_scope *s = td_stat_scope(b->cur, r->skind, r->label, r->time);
	const struct rec *h = b->cols.kind == R_COLS && b->cols.fmt == r->fmt ? &b->cols : NULL;
	const char *const *td = h ? NULL : rec_topdown_names(r->nvals);
	size_t k;

	s->cpus = r->cpus;
	for (k = 0; k < r->nvals; k++) {
		struct td_perf_metric *m;

		/*
		 * perf 6.1's --per-core header names fewer columns than it
		 * prints values: the values beyond the titles stay unnamed
		 * and are left out rather than named by a guess.
		 */
		if (h && k >= h->ncols)
			break;
		m = td_scope_add_perf_metric(s, h ? h->cols[k] : td[k], h ? h->col_units[k] : "%",
					     r->vals[k]);
		m->resolution = r->steps[k];
		m->line = r->line;
		if (h)
			m->kind = h->col_kinds[k];
	}
	b->cur->metric_only = 1;
	b->last_scope = s;
	b->last_count = -1;
	b->dangling = -1;
	b->has_content = 1;
}

/* A wrapped metric name or "(71.07%)" belongs to the line before. */
static void add_continuation(struct builder *b, const struct rec *r)
{
	struct td_scope *s = b->last_scope;

	if (!b->cur || !s)
		return;
	if (r->mname && b->dangling >= 0 && (size_t)b->dangling < s->nr_perf_metrics) {
		struct td_perf_metric *m = &s->perf_metrics[b->dangling];
		free(m->name);
		m->name = xstrdup(r->mname);
		td_perf_metric_classify(m);
		b->dangling = -1;
	} else if (r->mname) {
		return; /* a lone word that continues nothing */
	}
	if (!isnan(r->pct) && b->last_count >= 0) {
		struct td_count *c = &s->counts[b->last_count];
		if (isnan(c->running_pct))
			c->running_pct = r->pct;
	}
	if (!isnan(r->variance) && b->last_count >= 0) {
		struct td_count *c = &s->counts[b->last_count];
		if (isnan(c->variance_pct))
			c->variance_pct = r->variance;
	}
}

static int starts_with_digit(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return isdigit((unsigned char)*s);
}

/*
 * The unterminated last line holds only blanks or a metric annotation's
 * '#' with no value: perf writes neither without more on the line, so
 * once perf's output has begun (its footer included: a number that is not
 * yet "seconds user"; the blanks before a later session's header) the file
 * was cut in the middle of a line.
 */
static int is_cut_annotation(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '#')
		for (s++; *s == ' ' || *s == '\t'; s++)
			;
	return !*s;
}

/*
 * A line of perf's output that is used holds no number perf cannot print
 * (a negative count, a running percentage above 100): 0, or -1 with err
 * naming the file, line, number and event.  A line of prose that only
 * looks like perf's is not used, so not refused.
 */
static int check_numbers(const struct builder *b, const struct rec *r, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;

	if (!rec_why_bad(r, &why))
		return 0;
	strbuf_addf(err, "%s:%d: %s", b->name, r->line, why.buf);
	strbuf_release(&why);
	return -1;
}

/*
 * The second pass on record i of n (the rest of the input, or as much of
 * it as decides what record i is: see followed_by_counts); 0 or -1 with
 * err set.
 */
static int build_rec(struct builder *b, struct rec *recs, char **lines, size_t i, size_t n,
		     int unterminated, struct strbuf *err)
{
	struct rec *r = &recs[i];

	if (i + 1 == n && unterminated && (b->cur || b->f->nr_sessions) && b->fmt == F_TEXT &&
	    (is_cut_annotation(lines[i]) ||
	     ((r->kind == R_OTHER || r->kind == R_ROW) && starts_with_digit(lines[i])))) {
		strbuf_addf(err, "%s:%d: truncated perf stat line (the file ends in the middle of "
			    "it%s)", b->name, r->line,
			    b->ended ? "" : ", before \"seconds time elapsed\"");
		return -1;
	}
	switch (r->kind) {
	case R_BAD:
		strbuf_addf(err, "%s:%d: %s", b->name, r->line, r->err);
		return -1;
	case R_HEADER:
		if (check_numbers(b, r, err) < 0)
			return -1;
		open_session(b, F_TEXT, r->line);
		b->cur->target = xstrdup(r->text);
		b->cur->repeats = r->repeats;
		break;
	case R_VERSION:
		free(b->pending_version);
		b->pending_version = xstrdup(r->text);
		break;
	case R_COUNT:
	case R_METRIC:
		if (b->cur && (b->fmt != r->fmt || b->ended ||
			       (!isnan(r->time) && r->time < b->last_time) ||
			       (b->has_content && isnan(r->time) == b->cur->interval)))
			close_session(b);
		if (!b->cur) {
			if (r->fmt == F_TEXT && !r->has_metric && !followed_by_counts(recs, n, i))
				break; /* a lone count-like line in prose */
			open_session(b, r->fmt, r->line);
		}
		if (check_numbers(b, r, err) < 0)
			return -1;
		if (r->fmt == F_TEXT && r->kind == R_COUNT && i + 1 == n && unterminated) {
			/* perf ends every line; a count as the unterminated last line was cut */
			strbuf_addf(err, "%s:%d: truncated perf stat line (the file ends in the middle of "
				    "it, before \"seconds time elapsed\")", b->name, r->line);
			return -1;
		}
		if (r->fmt == F_CSV && r->kind == R_COUNT) {
			/*
			 * The last line, without its newline and shorter than the
			 * rows before it: the file was cut inside that row.
			 */
			if (i + 1 == n && unterminated && b->max_fields && r->nfields < b->max_fields) {
				strbuf_addf(err, "%s:%d: truncated CSV line (the file ends after %d of %d "
					    "fields)", b->name, r->line, r->nfields, b->max_fields);
				return -1;
			}
			if (r->nfields > b->max_fields)
				b->max_fields = r->nfields;
		}
		b->last_time = r->time;
		if (r->kind == R_COUNT) {
			add_count(b, r);
			if (r->has_metric)
				add_metric(b, r);
		} else {
			add_metric(b, r);
		}
		break;
	case R_COLS:
		if (b->cur && (b->has_content || b->fmt != r->fmt))
			close_session(b);
		take_cols(b, r);
		break;
	case R_ROW:
		if (!row_is_perfs(b, r))
			goto other; /* numbers alone in prose, or a cut line */
		if (b->cur && (b->fmt != r->fmt || b->ended ||
			       (!isnan(r->time) && r->time < b->last_time) ||
			       (b->has_content && (isnan(r->time) == b->cur->interval ||
						   !b->cur->metric_only))))
			close_session(b);
		if (!b->cur)
			open_session(b, r->fmt, r->line);
		if (check_numbers(b, r, err) < 0)
			return -1;
		b->last_time = r->time;
		add_row(b, r);
		break;
	case R_CONT:
		if (b->cur && b->last_scope && check_numbers(b, r, err) < 0)
			return -1;
		add_continuation(b, r);
		break;
	case R_ELAPSED:
	case R_USER:
	case R_SYS:
		if (!b->cur)
			break;
		if (check_numbers(b, r, err) < 0)
			return -1;
		if (r->kind == R_ELAPSED) {
			b->cur->elapsed_s = r->secs;
			b->ended = 1;
		} else if (r->kind == R_USER) {
			b->cur->user_s = r->secs;
		} else {
			b->cur->sys_s = r->secs;
		}
		break;
	case R_ELISION:
		if (b->cur)
			b->cur->elided = 1;
		break;
	case R_BLANK:
	case R_COMMENT:
		break;
	case R_OTHER:
	other:
		if (b->cur && b->fmt != F_TEXT && starts_with_digit(lines[i]) &&
		    (i + 1 == n && unterminated)) {
			strbuf_addf(err, "%s:%d: truncated %s line (the file ends in the middle of it)",
				    b->name, r->line, b->fmt == F_CSV ? "CSV" : "JSON");
			return -1;
		}
		if (b->cur)
			close_session(b);
		break;
	}
	return 0;
}

/* The second pass over every record; returns 0 or -1 with err set. */
static int build(struct builder *b, struct rec *recs, char **lines, size_t n, int unterminated,
		 struct strbuf *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (build_rec(b, recs, lines, i, n, unterminated, err) < 0)
			return -1;
	close_session(b);
	return 0;
}

/*
 * What the whole input says once it is read: last is its last line's
 * record (NULL: none), first_line the first line that is not blank.
 * 0, or -1 with err set.
 */
static int check_end(const struct td_stat_file *f, const struct rec *last, int unterminated,
		     int first_line, const char *name, struct strbuf *err)
{
	if (f->nr_sessions && unterminated && last->kind != R_BLANK && last->kind != R_COMMENT &&
	    last->line > f->sessions[0].line) {
		/*
		 * perf ends every line it prints with a newline: a last line
		 * without one inside perf's output was cut (a copy interrupted,
		 * a disk filled), and what it held is lost.
		 */
		strbuf_addf(err, "%s:%d: the file ends in the middle of this line (perf ends every line; "
			    "the output was cut)", name, last->line);
		return -1;
	}
	if (!f->nr_sessions) {
		strbuf_addf(err, "%s:%d: no perf stat output found (expected perf stat's text, "
			    "its -x CSV or its -j JSON output)", name, first_line);
		return -1;
	}
	return 0;
}

/*
 * The first pass on one line (n bytes at p, line number 'line'): r says
 * what it is; returns the line cleaned.  csv_sep carries the separator of
 * the CSV block being read from line to line.
 */
static char *recognize(const char *p, size_t n, int line, char csv_sep[16], struct rec *r)
{
	char found[16] = "";
	char *clean = clean_line(p, n);

	rec_init(r, line);
	rec_parse(clean, csv_sep[0] ? csv_sep : NULL, found, sizeof(found), r);
	if (r->fmt == F_CSV && (r->kind == R_COUNT || r->kind == R_METRIC || r->kind == R_COLS ||
				r->kind == R_ROW) && found[0])
		memcpy(csv_sep, found, 16);
	else if (r->kind != R_BLANK && r->fmt != F_CSV && r->kind != R_COMMENT)
		csv_sep[0] = '\0';
	return clean;
}

struct td_stat_file *td_stat_parse(const char *data, size_t len, const char *name,
				   struct strbuf *err)
{
	struct builder b;
	struct rec *recs = NULL;
	char **lines = NULL;
	size_t nr = 0, alloc = 0, lalloc = 0, i;
	const char *p = data, *end = data + len;
	char csv_sep[16] = "";
	int unterminated = len && data[len - 1] != '\n';
	const char *nul = memchr(data, '\0', len);
	struct td_stat_file *f;

	if (!name)
		name = "-";
	if (nul) {
		strbuf_addf(err, "%s: offset %zu: binary data (a NUL byte), not perf stat output",
			    name, (size_t)(nul - data));
		return NULL;
	}
	/* first pass: recognize every line */
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		TD_GROW(recs, alloc, nr + 1);
		TD_GROW(lines, lalloc, nr + 1);
		lines[nr] = recognize(p, n, (int)nr + 1, csv_sep, &recs[nr]);
		nr++;
		p = nl ? nl + 1 : end;
	}

	memset(&b, 0, sizeof(b));
	b.name = name;
	b.f = f = xcalloc(1, sizeof(*f));
	rec_init(&b.cols, 0);
	b.last_count = b.dangling = -1;
	for (i = 0; i < nr && recs[i].kind == R_BLANK; i++)
		;
	if (build(&b, recs, lines, nr, unterminated, err) < 0 ||
	    check_end(f, nr ? &recs[nr - 1] : NULL, unterminated, i < nr ? (int)i + 1 : 1, name, err) < 0) {
		td_stat_file_free(f);
		f = NULL;
	}
	free(b.pending_version);
	free(b.metric_pmu);
	rec_release(&b.cols);
	for (i = 0; i < nr; i++) {
		rec_release(&recs[i]);
		free(lines[i]);
	}
	free(recs);
	free(lines);
	return f;
}

struct td_stat_file *td_stat_parse_file(const char *path, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct td_stat_file *f;

	if (td_read_file(&sb, path) < 0) {
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		strbuf_release(&sb);
		return NULL;
	}
	f = td_stat_parse(sb.buf, sb.len, path, err);
	strbuf_release(&sb);
	return f;
}

/* Streaming: has the window's first record what decides it (see followed_by_counts)? */
static int first_decided(const struct rec *recs, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (recs[i].kind != R_BLANK && recs[i].kind != R_CONT && recs[i].kind != R_ELISION)
			return 1;
	return 0;
}

/*
 * A window on the input: the lines read whose second pass waits for a
 * later line (the second pass looks ahead past blanks and continuations).
 */
struct window {
	struct rec *recs;
	char **lines;
	size_t nr, alloc, lalloc;
};

/* Drop the window's first n records. */
static void window_drop(struct window *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		rec_release(&w->recs[i]);
		free(w->lines[i]);
	}
	memmove(w->recs, w->recs + n, (w->nr - n) * sizeof(*w->recs));
	memmove(w->lines, w->lines + n, (w->nr - n) * sizeof(*w->lines));
	w->nr -= n;
}

/*
 * Run the second pass on the window's first n records and drop them
 * (at_end: they are the last of the input); 0, or -1 with err set.
 */
static int window_build(struct builder *b, struct window *w, size_t n, int at_end,
			int unterminated, struct strbuf *err)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret && !b->stopped; i++) {
		ret = build_rec(b, w->recs + i, w->lines + i, 0, w->nr - i, at_end && unterminated, err);
		if (b->intervals_only && b->cur && b->cur->nr_scopes && !b->cur->interval)
			b->stopped = 1;
		hand_on_finished(b);
	}
	window_drop(w, n);
	return ret;
}

int td_stat_parse_stream(FILE *fp, const char *name, unsigned flags, td_stat_scope_fn *fn, void *ctx,
			 struct td_stat_file **out, struct strbuf *err)
{
	struct builder b;
	struct window w = { 0 };
	struct rec last;
	char csv_sep[16] = "", *buf = NULL, *nul;
	size_t cap = 0, offset = 0;
	ssize_t len;
	int line = 0, first_line = 0, unterminated = 0, ret = 0;

	memset(&b, 0, sizeof(b));
	b.name = name ? name : "-";
	b.f = xcalloc(1, sizeof(*b.f));
	rec_init(&b.cols, 0);
	b.last_count = b.dangling = -1;
	b.on_scope = fn;
	b.on_scope_ctx = ctx;
	b.intervals_only = !!(flags & TD_STAT_STREAM_INTERVALS);
	rec_init(&last, 0);
	while (!ret && !b.stopped && (len = getline(&buf, &cap, fp)) > 0) {
		if ((nul = memchr(buf, '\0', (size_t)len))) {
			strbuf_addf(err, "%s: offset %zu: binary data (a NUL byte), not perf stat output",
				    b.name, offset + (size_t)(nul - buf));
			ret = -1;
			break;
		}
		offset += (size_t)len;
		unterminated = buf[len - 1] != '\n';
		TD_GROW(w.recs, w.alloc, w.nr + 1);
		TD_GROW(w.lines, w.lalloc, w.nr + 1);
		w.lines[w.nr] = recognize(buf, (size_t)(len - !unterminated), ++line, csv_sep, &w.recs[w.nr]);
		if (!first_line && w.recs[w.nr].kind != R_BLANK)
			first_line = line;
		last.kind = w.recs[w.nr].kind;
		last.line = line;
		w.nr++;
		if (first_decided(w.recs, w.nr))
			ret = window_build(&b, &w, w.nr - 1, 0, 0, err);
	}
	if (!ret && !b.stopped && ferror(fp)) {
		strbuf_addf(err, "%s: cannot read: %s", b.name, strerror(errno));
		ret = -1;
	}
	if (!ret && !b.stopped)
		ret = window_build(&b, &w, w.nr, 1, unterminated, err);
	if (!ret && !b.stopped)
		close_session(&b);
	if (!ret && !b.stopped)
		ret = check_end(b.f, line ? &last : NULL, unterminated, first_line ? first_line : 1,
				b.name, err);
	window_drop(&w, w.nr);  /* what an error or a stop left */
	free(buf);
	free(b.pending_version);
	free(b.metric_pmu);
	rec_release(&b.cols);
	free(w.recs);
	free(w.lines);
	if (ret < 0 || b.stopped) {
		td_stat_file_free(b.f);
		*out = NULL;
		return ret < 0 ? -1 : 1;
	}
	*out = b.f;
	return 0;
}
