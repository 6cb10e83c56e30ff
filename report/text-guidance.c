/*
 * "What to try" under the bottleneck (analyze/guidance.c gives each
 * flagged node its "guidance"): the deepest node of the bottleneck path
 * that has guidance, what it means, its common causes, what to try, what
 * to measure next, what its siblings below their thresholds rule out, and
 * the sources.  Lines are wrapped at 100 columns under their label.
 */
#include <math.h>
#include <string.h>

#include "report/render.h"

#define WRAP 100
#define LABEL 13

json_t *td_report_guidance_node(json_t *scope)
{
	json_t *path = json_object_get(json_object_get(scope, "bottleneck"), "path");
	json_t *nodes = json_object_get(scope, "nodes"), *n, *best = NULL;
	size_t i, k;

	for (k = json_array_size(path); k > 0 && !best; k--) {
		const char *id = json_string_value(json_array_get(path, k - 1));

		json_array_foreach(nodes, i, n) {
			const char *nid = json_string_value(json_object_get(n, "id"));

			if (id && nid && !strcmp(id, nid) && json_is_object(json_object_get(n, "guidance")))
				best = n;
		}
	}
	return best;
}

/* Append 'text' word-wrapped; continuation lines start at column 'indent'. */
static void add_wrapped(struct strbuf *sb, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		const char *end = strchr(p, ' ');
		int len = end ? (int)(end - p) : (int)strlen(p);

		if (col > indent && col + 1 + len > WRAP) {
			strbuf_addf(sb, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			strbuf_addch(sb, ' ');
			col++;
		}
		strbuf_add(sb, p, len);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
}

/* "    label:   text", wrapped under the text; a list item starts with "- ". */
static void add_field(struct strbuf *sb, const char *label, const char *text, int item)
{
	int col;

	strbuf_addf(sb, "    %-*s%s", LABEL, label, item ? "- " : "");
	col = 4 + LABEL + (item ? 2 : 0);
	add_wrapped(sb, td_printable(text), col, col);
	strbuf_addch(sb, '\n');
}

/* A list: one item per line after the label, or joined by "; ". */
static void add_list(struct strbuf *sb, const char *label, json_t *items, int one_per_line)
{
	struct strbuf joined = STRBUF_INIT;
	json_t *v;
	size_t i;

	json_array_foreach(items, i, v) {
		if (one_per_line) {
			add_field(sb, i ? "" : label, json_string_value(v), 1);
			continue;
		}
		strbuf_addf(&joined, "%s%s", i ? "; " : "", json_string_value(v));
	}
	if (!one_per_line && joined.len)
		add_field(sb, label, joined.buf, 0);
	strbuf_release(&joined);
}

/* "- Core Bound 9.0 %, below its threshold (core_bound > 0.1 & ...), so not: its causes". */
static void add_ruled_out(struct strbuf *sb, json_t *ro)
{
	json_t *r;
	size_t i;

	json_array_foreach(ro, i, r) {
		struct strbuf line = STRBUF_INIT;
		json_t *c, *causes = json_object_get(r, "causes");
		size_t k;

		strbuf_addf(&line, "%s %.1f %%%s, below its threshold (%s)", json_string_value(json_object_get(r, "name")),
			    json_number_value(json_object_get(r, "value")) * 100,
			    json_is_true(json_object_get(r, "approximate")) ? " ~" : "",
			    json_string_value(json_object_get(r, "threshold")));
		json_array_foreach(causes, k, c)
			strbuf_addf(&line, "%s%s", k ? "; " : ", so not: ", json_string_value(c));
		add_field(sb, i ? "" : "Ruled out:", line.buf, 1);
		strbuf_release(&line);
	}
}

/* One node's guidance under the title "What to try (NAME...)". */
static void node_guidance(struct strbuf *sb, json_t *n, const char *suffix)
{
	json_t *g = json_object_get(n, "guidance");

	strbuf_addf(sb, "  What to try (%s%s):\n", td_printable(json_string_value(json_object_get(n, "name"))), suffix);
	add_field(sb, "Means:", json_string_value(json_object_get(g, "meaning")), 0);
	add_list(sb, "Causes:", json_object_get(g, "causes"), 0);
	add_list(sb, "Try:", json_object_get(g, "try"), 1);
	add_list(sb, "Next:", json_object_get(g, "next"), 0);
	add_ruled_out(sb, json_object_get(g, "ruled_out"));
	add_list(sb, "Sources:", json_object_get(g, "refs"), 0);
}

json_t *td_report_guidance_candidate(json_t *scope, json_t *cand)
{
	const char *id = json_string_value(json_object_get(cand, "id"));
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(scope, "nodes"), i, n)
		if (id && json_is_string(json_object_get(n, "id")) &&
		    !strcmp(id, json_string_value(json_object_get(n, "id"))))
			return json_is_object(json_object_get(n, "guidance")) ? n : NULL;
	return NULL;
}

/* No single bottleneck (analyze/guidance.c): why, then each candidate's guidance. */
static int fallback_guidance(struct strbuf *sb, json_t *scope)
{
	json_t *fb = json_object_get(json_object_get(scope, "bottleneck"), "fallback"), *c;
	size_t i, nr;

	if (!json_is_object(fb))
		return 0;
	nr = json_array_size(json_object_get(fb, "candidates"));
	strbuf_addstr(sb, "  What to try:");
	add_wrapped(sb, td_printable(json_string_value(json_object_get(fb, "sentence"))), 14, 4);
	strbuf_addch(sb, '\n');
	json_array_foreach(json_object_get(fb, "candidates"), i, c) {
		json_t *n = td_report_guidance_candidate(scope, c);
		char suffix[48];

		snprintf(suffix, sizeof(suffix), ", candidate %zu of %zu", i + 1, nr);
		if (n)
			node_guidance(sb, n, suffix);
		else
			strbuf_addf(sb, "  What to try (%s%s): no guidance for this node\n",
				    td_printable(json_string_value(json_object_get(c, "name"))), suffix);
	}
	return 1;
}

void td_report_text_guidance(struct strbuf *sb, json_t *scope)
{
	json_t *n;

	if (fallback_guidance(sb, scope))
		return;
	n = td_report_guidance_node(scope);
	if (n)
		node_guidance(sb, n, "");
}
