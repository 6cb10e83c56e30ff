/*
 * A long interval run read twice instead of held.
 *
 * 'perf stat -I' writes one block of counts per interval; an hour of
 * them is gigabytes once parsed.  When the report prints each interval
 * and forgets it (text and CSV with typed rows: analyze/stream.c), the
 * file is read twice: the first pass keeps what the import and the
 * document's total need from all the intervals (the derived sum and its
 * interval spread, added up scope by scope in the order sum_scopes and
 * interval_rel_error take) and the first interval itself, for the CPU
 * inference and the event checks; the second pass, when the renderer
 * reaches the intervals, builds each one again from the file.
 *
 * That first interval stands for all of them only when every interval
 * has its shape (the same counts, statuses and perf metrics in the same
 * order): the inference and the checks look for the first count or
 * metric of a name anywhere, and find it there.  So the first pass gives
 * up, and the whole file is read as before, on anything else: a second
 * session, per-CPU or per-thread intervals, JSON, a hybrid CPU, an
 * interval of another shape, a parse error (reported by the usual path).
 */
#include "analyze/analyze-int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct td_stream_input {
	FILE *fp;
	struct stat st;           /* the file when the first pass read it */
	struct td_scope *sum;     /* the derived total, with its spreads */
	size_t nr_scopes;         /* intervals */
};

static int same_count_shape(const struct td_count *a, const struct td_count *b)
{
	return a->status == b->status && a->group == b->group && td_str_same(a->event, b->event) &&
	       td_str_same(a->pmu, b->pmu) && td_str_same(a->modifiers, b->modifiers) &&
	       td_str_same(a->unit, b->unit) && td_str_same(a->key, b->key);
}

/* The one unit of perf's metrics the CPU inference looks at (Arm's Top-Down). */
static int slots_unit(const struct td_perf_metric *m)
{
	return m->unit && !strcmp(m->unit, "percent of slots");
}

/*
 * A rate ("65.7 /sec", "1.4 K/sec"): perf scales its unit with the
 * value, and its CSV gives the unit as the name.  No inference looks
 * for one, so rates of any scale are of one shape.
 */
static int is_rate(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n >= 4 && !strcmp(name + n - 4, "/sec");
}

/* Units follow the value too and are not compared but for the one looked at. */
static int same_metric_shape(const struct td_perf_metric *a, const struct td_perf_metric *b)
{
	return a->group == b->group && td_str_same(a->pmu, b->pmu) && slots_unit(a) == slots_unit(b) &&
	       (td_str_same(a->name, b->name) || (is_rate(a->name) && is_rate(b->name)));
}

/* Does s have the shape of the first interval? */
static int same_shape(const struct td_scope *first, const struct td_scope *s)
{
	size_t i;

	if (s->nr_counts != first->nr_counts || s->nr_perf_metrics != first->nr_perf_metrics ||
	    s->cpus != first->cpus || s->nr_groups != first->nr_groups)
		return 0;
	for (i = 0; i < s->nr_counts; i++)
		if (!same_count_shape(&first->counts[i], &s->counts[i]))
			return 0;
	for (i = 0; i < s->nr_perf_metrics; i++)
		if (!same_metric_shape(&first->perf_metrics[i], &s->perf_metrics[i]))
			return 0;
	return 1;
}

struct first_pass {
	struct td_scope *sum;
	struct td_interval_spread spread;
	size_t n;
};

static int first_pass_scope(size_t session, const struct td_stat *st, struct td_scope *s, void *vctx)
{
	struct first_pass *p = vctx;

	if (session > 0 || (strcmp(st->format, "text") && strcmp(st->format, "csv")) ||
	    s->kind != TD_SCOPE_TOTAL || s->label || isnan(s->time))
		return -1;
	td_scope_normalize(s);
	/* the first interval is kept, the session's first scope from then on */
	if (p->n && !same_shape(&st->scopes[0], s))
		return -1;
	td_scope_sum_add(p->sum, s);
	td_interval_spread_add(&p->spread, p->sum, s);
	return p->n++ == 0;
}

/* Can path be read twice as a plain file of perf stat text or CSV? */
static FILE *open_plain(const char *path, size_t max_len, struct stat *st)
{
	unsigned char head[8];
	size_t n;
	FILE *fp;

	/* opening a FIFO to look would take its data from the real read */
	if (!strcmp(path, "-") || !td_is_regular_file(path) || !(fp = fopen(path, "re")))
		return NULL;
	if (fstat(fileno(fp), st) < 0 || !S_ISREG(st->st_mode) || (size_t)st->st_size > max_len)
		goto no;
	n = fread(head, 1, sizeof(head), fp);
	if (td_pd_is_perf_data(head, n) || fseek(fp, 0, SEEK_SET) < 0)
		goto no;
	return fp;
no:
	fclose(fp);
	return NULL;
}

int td_import_stream(const char *path, size_t max_len, struct td_import *imp)
{
	struct first_pass p = { 0 };
	struct td_stat_file *f = NULL;
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	FILE *fp = open_plain(path, max_len, &st);
	int r;

	if (!fp)
		return 0;
	p.sum = td_scope_sum_new();
	/* a run without interval times is read whole: give up at its first count */
	r = td_stat_parse_stream(fp, path, TD_STAT_STREAM_INTERVALS, first_pass_scope, &p, &f, &err);
	strbuf_release(&err);
	if (r || f->nr_sessions != 1 || f->sessions[0].nr_scopes != 1 || !p.n ||
	    f->sessions[0].hybrid) {
		if (f)
			td_stat_file_free(f);
		td_scope_release(p.sum);
		free(p.sum);
		free(p.spread.sums);
		fclose(fp);
		return 0;
	}
	td_interval_spread_apply(&p.spread, p.sum, p.n);
	free(p.spread.sums);
	memset(imp, 0, sizeof(*imp));
	strbuf_init(&imp->data, 0);
	imp->path = xstrdup(path);
	imp->stat = f;
	imp->format = f->sessions[0].format;
	imp->streamed = xcalloc(1, sizeof(*imp->streamed));
	imp->streamed->fp = fp;
	imp->streamed->st = st;
	imp->streamed->sum = p.sum;
	imp->streamed->nr_scopes = p.n;
	return 1;
}

void td_stream_input_free(struct td_stream_input *si)
{
	if (!si)
		return;
	fclose(si->fp);
	td_scope_release(si->sum);
	free(si->sum);
	free(si);
}

const struct td_scope *td_import_streamed_sum(const struct td_import *imp, size_t *nr_scopes)
{
	if (!imp->streamed)
		return NULL;
	*nr_scopes = imp->streamed->nr_scopes;
	return imp->streamed->sum;
}

struct second_pass {
	void (*fn)(const struct td_scope *s, void *ctx);
	void *ctx;
	size_t n;
};

static int second_pass_scope(size_t session, const struct td_stat *st, struct td_scope *s, void *vctx)
{
	struct second_pass *p = vctx;

	(void)session;
	(void)st;
	td_scope_normalize(s);
	p->fn(s, p->ctx);
	p->n++;
	return 0;
}

/* Is the file still the one the first pass read? */
static int unchanged(const struct td_stream_input *si)
{
	struct stat now;

	return fstat(fileno(si->fp), &now) == 0 && now.st_size == si->st.st_size &&
	       now.st_mtim.tv_sec == si->st.st_mtim.tv_sec &&
	       now.st_mtim.tv_nsec == si->st.st_mtim.tv_nsec;
}

void td_import_each_streamed(const struct td_import *imp, void (*fn)(const struct td_scope *s, void *ctx),
			     void *ctx)
{
	struct td_stream_input *si = imp->streamed;
	struct second_pass p = { fn, ctx, 0 };
	struct td_stat_file *f = NULL;
	struct strbuf err = STRBUF_INIT;
	int r;

	if (!unchanged(si) || fseek(si->fp, 0, SEEK_SET) < 0)
		die("%s: the file changed while tdperf read it; report it again", imp->path);
	clearerr(si->fp);
	r = td_stat_parse_stream(si->fp, imp->path, TD_STAT_STREAM_INTERVALS, second_pass_scope, &p, &f,
				 &err);
	if (r || p.n != si->nr_scopes || !unchanged(si))
		die("%s: the file changed while tdperf read it; report it again", imp->path);
	td_stat_file_free(f);
	strbuf_release(&err);
}
