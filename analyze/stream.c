/*
 * Streaming the per-interval, per-CPU and per-thread scopes.
 *
 * An hour of 'perf stat -I 100' is 36,000 intervals; as one document
 * their scopes take hundreds of kilobytes each.  Text, CSV and JSON print
 * a scope and never look at it again, so for them the document holds
 * only the run's totals, and the import stays alive beside it: each other
 * scope is built when the renderer reaches it, passed on and freed.
 * Memory is then that of the parsed counts, not of the whole report.
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

size_t td_report_streamed_scopes(json_t *doc, json_int_t session)
{
	const struct td_stat *st = streamed_session(doc, session);
	size_t k, n = 0;

	for (k = 0; st && k < st->nr_scopes; k++)
		if (!td_scope_is_main(&st->scopes[k]))
			n += td_import_sections(&stream->imp, st);
	return n;
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

void td_report_each_scope(json_t *doc, json_int_t session, void (*fn)(json_t *scope, void *ctx),
			  void *ctx)
{
	const struct td_stat *st = streamed_session(doc, session);
	json_t *one, *sc, *warnings;
	size_t k, i;

	if (!st) {
		each_doc_scope(doc, session, 0, fn, ctx);
		return;
	}
	/* the order td_report_build gives: the derived sum, then each scope */
	each_doc_scope(doc, session, 1, fn, ctx);
	warnings = json_array();
	for (k = 0; k < st->nr_scopes; k++) {
		one = json_array();
		td_report_add_scopes(one, &stream->imp, &stream->opts, (size_t)session - 1,
				     &st->scopes[k], NULL, warnings);
		json_array_foreach(one, i, sc)
			fn(sc, ctx);
		json_decref(one);
	}
	json_decref(warnings);
}

struct rows_from_doc {
	void (*fn)(const struct td_scope_rows *rows, void *ctx);
	void *ctx;
};

static void doc_scope_rows(json_t *scope, void *vctx)
{
	struct rows_from_doc *d = vctx;
	struct td_scope_rows r;

	td_scope_rows_from_json(scope, &r);
	d->fn(&r, d->ctx);
	td_scope_rows_release(&r);
}

void td_report_each_scope_rows(json_t *doc, json_int_t session,
			       void (*fn)(const struct td_scope_rows *rows, void *ctx), void *ctx)
{
	const struct td_stat *st = streamed_session(doc, session);
	struct rows_from_doc d = { fn, ctx };
	size_t k;

	if (!st || !stream->opts.streamed_nodes_only) {
		td_report_each_scope(doc, session, doc_scope_rows, &d);
		return;
	}
	/* the order td_report_build gives: the derived sum, then each scope */
	each_doc_scope(doc, session, 1, doc_scope_rows, &d);
	for (k = 0; k < st->nr_scopes; k++)
		td_report_scope_rows(&stream->imp, &stream->opts, (size_t)session - 1, &st->scopes[k], fn, ctx);
}

/* What the in-order walk does with a scope: the document's are JSON, the streamed ones built here. */
struct in_order_walk {
	json_t *doc;
	void (*json_fn)(json_t *scope, void *ctx);
	void (*rows_fn)(const struct td_scope_rows *rows, void *ctx); /* NULL: streamed ones as JSON too */
	void *ctx;
};

static void walk_streamed(const struct in_order_walk *w, size_t si, const struct td_scope *s, json_t *warnings)
{
	json_t *one, *sc;
	size_t n;

	if (w->rows_fn && stream->opts.streamed_nodes_only) {
		td_report_scope_rows(&stream->imp, &stream->opts, si, s, w->rows_fn, w->ctx);
		return;
	}
	one = json_array();
	td_report_add_scopes(one, &stream->imp, &stream->opts, si, s, NULL, warnings);
	json_array_foreach(one, n, sc)
		w->json_fn(sc, w->ctx);
	json_decref(one);
}

/*
 * Every scope in the order td_report_build gives the whole document: per
 * session, the derived sums, then every scope in input order, where the
 * run's own totals are the document's and the others are built here one
 * at a time.
 */
static void walk_in_order(const struct in_order_walk *w)
{
	json_t *scopes = json_object_get(w->doc, "scopes"), *sess, *sc, *warnings;
	size_t i, k, next = 0, n;

	if (!stream || stream->doc != w->doc) {
		json_array_foreach(scopes, i, sc)
			w->json_fn(sc, w->ctx);
		return;
	}
	json_array_foreach(json_object_get(w->doc, "sessions"), i, sess) {
		json_int_t idx = json_integer_value(json_object_get(sess, "index"));
		const struct td_stat *st = streamed_session(w->doc, idx);

		/* this session's scopes in the document: its derived sums first */
		while ((sc = json_array_get(scopes, next)) &&
		       json_integer_value(json_object_get(sc, "session")) == idx &&
		       !json_is_null(json_object_get(sc, "derived"))) {
			w->json_fn(sc, w->ctx);
			next++;
		}
		warnings = json_array();
		for (k = 0; st && k < st->nr_scopes; k++) {
			if (td_scope_is_main(&st->scopes[k])) {
				n = td_import_sections(&stream->imp, st);
				for (; n > 0 && (sc = json_array_get(scopes, next)); n--, next++)
					w->json_fn(sc, w->ctx);
				continue;
			}
			walk_streamed(w, (size_t)idx - 1, &st->scopes[k], warnings);
		}
		json_decref(warnings);
	}
	/* anything the walk did not place (none when the document is consistent) */
	for (; (sc = json_array_get(scopes, next)); next++)
		w->json_fn(sc, w->ctx);
}

void td_report_each_scope_in_order(json_t *doc, void (*fn)(json_t *scope, void *ctx), void *ctx)
{
	struct in_order_walk w = { doc, fn, NULL, ctx };

	walk_in_order(&w);
}

void td_report_each_scope_in_order_rows(json_t *doc, void (*json_fn)(json_t *scope, void *ctx),
					void (*rows_fn)(const struct td_scope_rows *rows, void *ctx), void *ctx)
{
	struct in_order_walk w = { doc, json_fn, rows_fn, ctx };

	walk_in_order(&w);
}

int td_report_is_streamed(json_t *doc)
{
	return stream && stream->doc == doc;
}
