/*
 * The JSON renderer: the report document itself (docs/report-schema.md),
 * indented.  A document whose per-interval, per-CPU and per-thread scopes
 * are streamed (analyze/stream.c) is written member by member, its
 * "scopes" array one scope at a time as analyze/ builds them, byte for
 * byte what json_dumpf() writes for the whole document.
 */
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

/* Flags of every JSON the report writes. */
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

void td_report_render_json(json_t *doc, FILE *out)
{
	struct json_scope_writer w = { out, 0 };
	const char *key;
	json_t *v, *name;
	size_t i = 0, n = json_object_size(doc);

	if (!td_report_is_streamed(doc)) {
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
		if (!strcmp(key, "scopes")) {
			fputc('[', out);
			td_report_each_scope_in_order(doc, put_scope, &w);
			fputs(w.written ? "\n  ]" : "]", out);
		} else {
			put_nested(out, v, 1);
		}
		fputs(++i < n ? ",\n  " : "\n", out);
	}
	fputs("}\n", out);
}
