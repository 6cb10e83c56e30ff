/*
 * Streaming the per-interval, per-CPU and per-thread scopes.
 *
 * An hour of 'perf stat -I 100' is 36,000 intervals; as one document
 * their scopes take hundreds of kilobytes each.  Text, CSV and JSON print
 * a scope and never look at it again, so for them the document holds
 * only the run's totals, and the import stays alive beside it: each other
 * scope is built when the renderer reaches it, passed on and freed.
 * Memory is then that of the parsed counts, not of the whole report;
 * a long interval file's counts are not held either, but read again
 * when the renderer reaches them (analyze/stream-input.c).
 * The JSON written this way is byte for byte the whole document's.
 */
#include "analyze/analyze-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The one document whose scopes are streamed (a command renders one). */
static struct scope_stream {
	json_t *doc;
	struct td_import imp;
	struct td_report_opts opts;
} *stream;

int td_scope_is_main(const struct td_scope *s)
{
	return s->kind == TD_SCOPE_TOTAL && isnan(s->time);
}

void td_report_stream_keep(json_t *doc, struct td_import *imp, const struct td_report_opts *opts)
{
	td_report_stream_release(stream ? stream->doc : NULL);
	stream = xcalloc(1, sizeof(*stream));
	stream->doc = doc;
	stream->imp = *imp;
	stream->opts = *opts;
	memset(imp, 0, sizeof(*imp));
}

void td_report_stream_release(json_t *doc)
{
	if (!stream || stream->doc != doc)
		return;
	td_import_release(&stream->imp);
	td_count_memo_reset();
	td_reason_memo_reset();
	free(stream);
	stream = NULL;
}

/* The parsed session of the streamed document, or NULL. */
static const struct td_stat *streamed_session(json_t *doc, json_int_t session)
{
	if (!stream || stream->doc != doc || session < 1 ||
	    (size_t)session > stream->imp.stat->nr_sessions)
		return NULL;
	return &stream->imp.stat->sessions[session - 1];
}

/*
 * The one walk over the streamed scopes of a session, in input order:
 * the import's, or, when the import did not keep them (a long interval
 * run: analyze/stream-input.c), each read again from the file.
 */
static void each_parsed_scope(json_int_t session, void (*fn)(const struct td_scope *s, void *ctx),
			      void *ctx)
{
	const struct td_stat *st = &stream->imp.stat->sessions[session - 1];
	size_t k;

	if (stream->imp.streamed) {
		td_import_each_streamed(&stream->imp, fn, ctx);
		return;
	}
	for (k = 0; k < st->nr_scopes; k++)
		fn(&st->scopes[k], ctx);
}

struct count_ctx {
	const struct td_stat *st;
	size_t n;
};

static void count_scope(const struct td_scope *s, void *vctx)
{
	struct count_ctx *c = vctx;

	if (!td_scope_is_main(s))
		c->n += td_import_sections(&stream->imp, c->st);
}

size_t td_report_streamed_scopes(json_t *doc, json_int_t session)
{
	const struct td_stat *st = streamed_session(doc, session);
	struct count_ctx c = { st, 0 };
	size_t nr;

	if (!st)
		return 0;
	/* the intervals were counted as they were read: no third pass */
	if (td_import_streamed_sum(&stream->imp, &nr))
		return nr * td_import_sections(&stream->imp, st);
	each_parsed_scope(session, count_scope, &c);
	return c.n;
}

/* The document's own scopes of the session; derived_only: its sums only. */
static void each_doc_scope(json_t *doc, json_int_t session, int derived_only,
			   void (*fn)(json_t *scope, void *ctx), void *ctx)
{
	json_t *sc;
	size_t i;

	json_array_foreach(json_object_get(doc, "scopes"), i, sc) {
		if (json_integer_value(json_object_get(sc, "session")) != session)
			continue;
		if (derived_only && json_is_null(json_object_get(sc, "derived")))
			continue;
		fn(sc, ctx);
	}
}

/* A parsed scope built into the document's scopes (one per section), each passed on. */
struct json_each {
	size_t si;
	json_t *warnings;
	void (*fn)(json_t *scope, void *ctx);
	void *ctx;
	/* td_report_each_scope_in_order: where the run's own totals are */
	json_t *doc_scopes;
	size_t *next;
	/* td_report_each_scope_in_order_rows: the built scopes as rows, else NULL */
	void (*rows_fn)(const struct td_scope_rows *rows, void *ctx);
};

static void json_scope(const struct td_scope *s, void *vctx)
{
	struct json_each *e = vctx;
	json_t *one = json_array(), *sc;
	size_t i;

	td_report_add_scopes(one, &stream->imp, &stream->opts, e->si, s, NULL, e->warnings);
	json_array_foreach(one, i, sc)
		e->fn(sc, e->ctx);
	json_decref(one);
}

void td_report_each_scope(json_t *doc, json_int_t session, void (*fn)(json_t *scope, void *ctx),
			  void *ctx)
{
	const struct td_stat *st = streamed_session(doc, session);
	struct json_each e = { (size_t)session - 1, NULL, fn, ctx, NULL, NULL, NULL };

	if (!st) {
		each_doc_scope(doc, session, 0, fn, ctx);
		return;
	}
	/* the order td_report_build gives: the derived sum, then each scope */
	each_doc_scope(doc, session, 1, fn, ctx);
	e.warnings = json_array();
	each_parsed_scope(session, json_scope, &e);
	json_decref(e.warnings);
}

struct rows_from_doc {
	void (*fn)(const struct td_scope_rows *rows, void *ctx);
	void *ctx;
	size_t si;
	json_t *doc;
};

static void doc_scope_rows(json_t *scope, void *vctx)
{
	struct rows_from_doc *d = vctx;
	struct td_scope_rows r;

	td_scope_rows_from_json(scope, &r);
	d->fn(&r, d->ctx);
	td_scope_rows_release(&r);
}

/*
 * A scope built from the parsed counts that the document also holds (a
 * total) takes the document's record -e rows (analyze/extra-events.c).
 */
static void rows_with_extra(const struct td_scope_rows *rows, void *vctx)
{
	struct rows_from_doc *d = vctx;
	struct td_scope_rows r = *rows;
	json_t *scope;
	size_t i;

	r.extra = NULL;
	r.nr_extra = 0;
	json_array_foreach(json_object_get(d->doc, "scopes"), i, scope)
		if (!r.extra && rows->id && json_is_array(json_object_get(scope, "extra_events")) &&
		    !strcmp(json_string_value(json_object_get(scope, "id")) ?: "", rows->id))
			td_scope_rows_add_extra(&r, scope);
	d->fn(&r, d->ctx);
	free(r.extra);
}

static void parsed_scope_rows(const struct td_scope *s, void *vctx)
{
	td_report_scope_rows(&stream->imp, &stream->opts, ((struct rows_from_doc *)vctx)->si, s,
			     rows_with_extra, vctx);
}

void td_report_each_scope_rows(json_t *doc, json_int_t session,
			       void (*fn)(const struct td_scope_rows *rows, void *ctx), void *ctx)
{
	const struct td_stat *st = streamed_session(doc, session);
	struct rows_from_doc d = { fn, ctx, (size_t)session - 1, doc };

	if (!st || !stream->opts.streamed_nodes_only) {
		td_report_each_scope(doc, session, doc_scope_rows, &d);
		return;
	}
	/* the order td_report_build gives: the derived sum, then each scope */
	each_doc_scope(doc, session, 1, doc_scope_rows, &d);
	each_parsed_scope(session, parsed_scope_rows, &d);
}

/* In document order: a run's own total is the document's, any other is built. */
static void scope_in_order(const struct td_scope *s, void *vctx)
{
	struct json_each *e = vctx;
	const struct td_stat *st = &stream->imp.stat->sessions[e->si];
	json_t *sc;
	size_t n;

	if (!td_scope_is_main(s) && e->rows_fn && stream->opts.streamed_nodes_only) {
		td_report_scope_rows(&stream->imp, &stream->opts, e->si, s, e->rows_fn, e->ctx);
		return;
	}
	if (!td_scope_is_main(s)) {
		json_scope(s, e);
		return;
	}
	n = td_import_sections(&stream->imp, st);
	for (; n > 0 && (sc = json_array_get(e->doc_scopes, *e->next)); n--, (*e->next)++)
		e->fn(sc, e->ctx);
}

/*
 * Every scope in the order td_report_build gives the whole document: per
 * session, the derived sums, then every scope in input order, where the
 * run's own totals are the document's and the others are built here one
 * at a time.
 */
static void walk_in_order(json_t *doc, void (*fn)(json_t *scope, void *ctx),
			  void (*rows_fn)(const struct td_scope_rows *rows, void *ctx), void *ctx)
{
	json_t *scopes = json_object_get(doc, "scopes"), *sess, *sc;
	size_t i, next = 0;

	if (!stream || stream->doc != doc) {
		json_array_foreach(scopes, i, sc)
			fn(sc, ctx);
		return;
	}
	json_array_foreach(json_object_get(doc, "sessions"), i, sess) {
		json_int_t idx = json_integer_value(json_object_get(sess, "index"));
		struct json_each e = { (size_t)idx - 1, NULL, fn, ctx, scopes, &next, rows_fn };

		/* this session's scopes in the document: its derived sums first */
		while ((sc = json_array_get(scopes, next)) &&
		       json_integer_value(json_object_get(sc, "session")) == idx &&
		       !json_is_null(json_object_get(sc, "derived"))) {
			fn(sc, ctx);
			next++;
		}
		if (!streamed_session(doc, idx))
			continue;
		e.warnings = json_array();
		each_parsed_scope(idx, scope_in_order, &e);
		json_decref(e.warnings);
	}
	/* anything the walk did not place (none when the document is consistent) */
	for (; (sc = json_array_get(scopes, next)); next++)
		fn(sc, ctx);
}

void td_report_each_scope_in_order(json_t *doc, void (*fn)(json_t *scope, void *ctx), void *ctx)
{
	walk_in_order(doc, fn, NULL, ctx);
}

void td_report_each_scope_in_order_rows(json_t *doc, void (*json_fn)(json_t *scope, void *ctx),
					void (*rows_fn)(const struct td_scope_rows *rows, void *ctx), void *ctx)
{
	walk_in_order(doc, json_fn, rows_fn, ctx);
}

int td_report_is_streamed(json_t *doc)
{
	return stream && stream->doc == doc;
}
