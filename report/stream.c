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
#include "report/report-int.h"

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

/* Flags of every JSON the report writes (td_report_render_json). */
#define DOC_JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

/*
 * Write v as json_dumpf() would at nesting depth 'depth': every line
 * after the first indented by two spaces a level.  A newline inside a
 * JSON text is always a line break of the layout (strings escape theirs).
 */
static void put_nested(FILE *out, json_t *v, int depth)
{
	char *text = json_dumps(v, DOC_JSON_FLAGS | JSON_ENCODE_ANY), *p;

	for (p = text; p && *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fprintf(out, "%*s", 2 * depth, "");
	}
	free(text);
}

struct json_scope_writer {
	FILE *out;
	size_t written;
};

static void put_scope(json_t *scope, void *ctx)
{
	struct json_scope_writer *w = ctx;

	fputs(w->written++ ? ",\n    " : "\n    ", w->out);
	put_nested(w->out, scope, 2);
}

/*
 * The "scopes" array in the order td_report_build gives the whole
 * document: per session, the derived sums, then every scope in input
 * order, where the run's own totals are the document's and the others
 * are built here one at a time.
 */
static void put_streamed_scopes(FILE *out, json_t *doc)
{
	struct json_scope_writer w = { out, 0 };
	json_t *scopes = json_object_get(doc, "scopes"), *sess, *one, *sc, *warnings;
	size_t i, k, next = 0, n;

	fputc('[', out);
	json_array_foreach(json_object_get(doc, "sessions"), i, sess) {
		json_int_t idx = json_integer_value(json_object_get(sess, "index"));
		const struct td_stat *st = streamed_session(doc, idx);

		/* this session's scopes in the document: its derived sums first */
		while ((sc = json_array_get(scopes, next)) &&
		       json_integer_value(json_object_get(sc, "session")) == idx &&
		       !json_is_null(json_object_get(sc, "derived"))) {
			put_scope(sc, &w);
			next++;
		}
		warnings = json_array();
		for (k = 0; st && k < st->nr_scopes; k++) {
			if (td_scope_is_main(&st->scopes[k])) {
				n = td_import_sections(&stream->imp, st);
				for (; n > 0 && (sc = json_array_get(scopes, next)); n--, next++)
					put_scope(sc, &w);
				continue;
			}
			one = json_array();
			td_report_add_scopes(one, &stream->imp, &stream->opts, (size_t)idx - 1,
					     &st->scopes[k], NULL, warnings);
			json_array_foreach(one, n, sc)
				put_scope(sc, &w);
			json_decref(one);
		}
		json_decref(warnings);
	}
	/* anything the walk did not place (none when the document is consistent) */
	for (; (sc = json_array_get(scopes, next)); next++)
		put_scope(sc, &w);
	fputs(w.written ? "\n  ]" : "]", out);
}

void td_report_render_json(json_t *doc, FILE *out)
{
	const char *key;
	json_t *v, *name;
	size_t i = 0, n = json_object_size(doc);

	if (!stream || stream->doc != doc) {
		json_dumpf(doc, out, DOC_JSON_FLAGS);
		fputc('\n', out);
		return;
	}
	fputs(n ? "{\n  " : "{", out);
	json_object_foreach(doc, key, v) {
		name = json_string(key);
		put_nested(out, name, 1);
		json_decref(name);
		fputs(": ", out);
		if (!strcmp(key, "scopes"))
			put_streamed_scopes(out, doc);
		else
			put_nested(out, v, 1);
		fputs(++i < n ? ",\n  " : "\n", out);
	}
	fputs("}\n", out);
}
