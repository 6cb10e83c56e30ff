/*
 * One diagnosis said once.  The sanity checks (analyze/sanity.c) end each
 * out-of-range message with "; likely cause: ...; record instead: ...",
 * and when every Level-1 value is off for the same reason (a perf <= 6.2
 * topdown-total-slots holding cycles, case-44 of the published outputs)
 * that 600-character tail is the same for each node, both on the node
 * and in the scope's warnings.  These helpers split a message into what
 * differs (the check and its amount) and the shared cause, so the
 * renderers can print the cause once with the list of places it applies.
 */
#include "report/render.h"

#include <string.h>

#define CAUSE_MARK "; likely cause: "

const char *td_cause_split(const char *text, size_t *head_len)
{
	const char *c;

	if (!text)
		return NULL;
	c = strstr(text, CAUSE_MARK);
	/* two checks joined on one node carry two causes: leave them whole */
	if (!c || strstr(c + 1, CAUSE_MARK))
		return NULL;
	if (head_len)
		*head_len = c - text;
	return c + 2;
}

/* The text of warning w: a string, or an object {"severity", "text"}. */
static const char *warning_text(json_t *w)
{
	if (json_is_string(w))
		return json_string_value(w);
	return json_string_value(json_object_get(w, "text"));
}

static size_t cause_count(json_t *list, const char *cause)
{
	json_t *w;
	size_t i, n = 0;
	const char *c;

	json_array_foreach(list, i, w) {
		c = td_cause_split(warning_text(w), NULL);
		if (c && !strcmp(c, cause))
			n++;
	}
	return n;
}

int td_cause_shared(json_t *warnings, const char *text)
{
	const char *c = td_cause_split(text, NULL);

	return c && cause_count(warnings, c) > 0;
}

size_t td_cause_count(const char *const *warnings, size_t n, const char *cause)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++) {
		const char *c = td_cause_split(warnings[i], NULL);

		if (c && !strcmp(c, cause))
			count++;
	}
	return count;
}

int td_cause_shared_in(const char *const *warnings, size_t n, const char *text)
{
	const char *c = td_cause_split(text, NULL);

	return c && td_cause_count(warnings, n, c) > 0;
}

json_t *td_warnings_by_cause(json_t *list)
{
	json_t *out = json_array(), *w, *group;
	size_t i, j;

	json_array_foreach(list, i, w) {
		const char *text = warning_text(w), *c;
		size_t len, seen = 0;

		c = td_cause_split(text, &len);
		if (!c || cause_count(list, c) < 2) {
			json_array_append(out, w);
			continue;
		}
		/* placed where the cause first appears */
		for (j = 0; j < i && !seen; j++) {
			const char *prev = td_cause_split(warning_text(json_array_get(list, j)), NULL);

			seen = prev && !strcmp(prev, c);
		}
		if (seen)
			continue;
		group = json_pack("{s:s, s:[]}", "cause", c, "items");
		for (j = i; j < json_array_size(list); j++) {
			const char *t = warning_text(json_array_get(list, j)), *cj;
			size_t lj;

			cj = td_cause_split(t, &lj);
			if (cj && !strcmp(cj, c))
				json_array_append_new(json_object_get(group, "items"),
						      json_stringn(t, lj));
		}
		json_array_append_new(out, group);
	}
	return out;
}
