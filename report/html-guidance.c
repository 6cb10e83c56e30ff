/*
 * "What to try" under the verdict of the HTML summary: the guidance of the
 * deepest bottleneck node that has one (analyze/guidance.c), as a small
 * card: meaning, causes, what to try, what next, the siblings that rule
 * causes out, and the sources.  The text renderer shows the same
 * (report/text-guidance.c).
 */
#include <string.h>

#include "report/html.h"
#include "report/render.h"

static void items(struct strbuf *sb, const char *title, json_t *list)
{
	json_t *v;
	size_t i;

	if (!json_array_size(list))
		return;
	strbuf_addstr(sb, "<div class=\"gpart\"><h4>");
	strbuf_add_html(sb, title);
	strbuf_addstr(sb, "</h4><ul>");
	json_array_foreach(list, i, v) {
		strbuf_addstr(sb, "<li>");
		strbuf_add_html(sb, json_string_value(v));
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ul></div>");
}

static void ruled_out(struct strbuf *sb, json_t *list)
{
	json_t *r, *c;
	size_t i, k;

	if (!json_array_size(list))
		return;
	strbuf_addstr(sb, "<div class=\"gpart ruled\"><h4>Ruled out (siblings below their thresholds)</h4><ul>");
	json_array_foreach(list, i, r) {
		strbuf_addstr(sb, "<li><b>");
		strbuf_add_html(sb, json_string_value(json_object_get(r, "name")));
		strbuf_addstr(sb, "</b> ");
		td_html_pct(sb, json_number_value(json_object_get(r, "value")));
		if (json_is_true(json_object_get(r, "approximate")))
			strbuf_addstr(sb, " <span class=\"badge approx\">approximate</span>");
		strbuf_addstr(sb, ", below <code>");
		strbuf_add_html(sb, json_string_value(json_object_get(r, "threshold")));
		strbuf_addstr(sb, "</code>, so not: ");
		json_array_foreach(json_object_get(r, "causes"), k, c) {
			if (k)
				strbuf_addstr(sb, "; ");
			strbuf_add_html(sb, json_string_value(c));
		}
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ul></div>");
}

void td_html_guidance(struct strbuf *sb, json_t *scope)
{
	td_html_guidance_of_core(sb, scope, NULL);
}

/* The body of one node's card: meaning, causes, what to try, next, ruled out, sources. */
static void node_card_body(struct strbuf *sb, json_t *n)
{
	json_t *g = json_object_get(n, "guidance"), *v;
	size_t i;

	strbuf_addstr(sb, "<p class=\"means\">");
	strbuf_add_html(sb, json_string_value(json_object_get(g, "meaning")));
	strbuf_addstr(sb, "</p><div class=\"gcols\">");
	items(sb, "Common causes", json_object_get(g, "causes"));
	items(sb, "Try", json_object_get(g, "try"));
	items(sb, "Measure next", json_object_get(g, "next"));
	strbuf_addstr(sb, "</div>");
	ruled_out(sb, json_object_get(g, "ruled_out"));
	strbuf_addstr(sb, "<p class=\"refs\">Sources: ");
	json_array_foreach(json_object_get(g, "refs"), i, v) {
		if (i)
			strbuf_addstr(sb, "; ");
		strbuf_add_html(sb, json_string_value(v));
	}
	strbuf_addstr(sb, "</p>");
}

/* '<div class="guidance" id="what-to-try[-CORE]"><h3>[CORE: ]what to try: ' */
static void card_open(struct strbuf *sb, const char *core, const char *klass)
{
	strbuf_addf(sb, "<div class=\"guidance%s\" id=\"what-to-try", klass);
	if (core) {
		/* a hybrid pair: one card per core type, under both columns */
		strbuf_addch(sb, '-');
		strbuf_add_html(sb, core);
		strbuf_addstr(sb, "\"><h3>");
		strbuf_add_html(sb, core);
		strbuf_addstr(sb, ": what to try: ");
	} else {
		strbuf_addstr(sb, "\"><h3>What to try: ");
	}
}

/*
 * No single bottleneck (analyze/guidance.c's "fallback"): why, then each
 * candidate's guidance in a card of its own, side by side where they fit.
 * Returns whether it rendered.
 */
static int fallback_cards(struct strbuf *sb, json_t *scope, const char *core)
{
	json_t *fb = json_object_get(json_object_get(scope, "bottleneck"), "fallback"), *c;
	size_t i, nr;

	if (!json_is_object(fb))
		return 0;
	nr = json_array_size(json_object_get(fb, "candidates"));
	card_open(sb, core, " fallback");
	strbuf_addstr(sb, "no single bottleneck</h3><p class=\"means\">");
	strbuf_add_html(sb, json_string_value(json_object_get(fb, "sentence")));
	strbuf_addstr(sb, "</p>");
	json_array_foreach(json_object_get(fb, "candidates"), i, c) {
		json_t *n = td_report_guidance_candidate(scope, c);

		strbuf_addf(sb, "<div class=\"candidate\"><h4>Candidate %zu of %zu: ", i + 1, nr);
		strbuf_add_html(sb, json_string_value(json_object_get(c, "name")));
		strbuf_addstr(sb, " ");
		td_html_pct(sb, json_number_value(json_object_get(c, "value")));
		if (json_is_true(json_object_get(c, "approximate")))
			strbuf_addstr(sb, " <span class=\"badge approx\">approximate</span>");
		strbuf_addstr(sb, "</h4>");
		if (n)
			node_card_body(sb, n);
		else
			strbuf_addstr(sb, "<p class=\"means\">No guidance for this node.</p>");
		strbuf_addstr(sb, "</div>");
	}
	strbuf_addstr(sb, "</div>");
	return 1;
}

void td_html_guidance_of_core(struct strbuf *sb, json_t *scope, const char *core)
{
	json_t *n;

	if (fallback_cards(sb, scope, core))
		return;
	n = td_report_guidance_node(scope);
	if (!n)
		return;
	card_open(sb, core, "");
	strbuf_add_html(sb, json_string_value(json_object_get(n, "name")));
	strbuf_addstr(sb, "</h3>");
	node_card_body(sb, n);
	strbuf_addstr(sb, "</div>");
}
