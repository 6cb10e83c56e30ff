/*
 * Short forms of the evaluator's reasons for the renderers.
 *
 * A reason is a "; "-separated list of items; most are "EVENT not
 * measured".  A metric high in the tree can collect dozens of them, which
 * is useless on a page: the renderers show a few names and a count.
 */
#include "analyze/analyze-int.h"

#include <string.h>

static const char not_measured[] = " not measured";

/* Is the item [p, p+n) an "EVENT not measured" item? */
static int is_missing_item(const char *p, size_t n)
{
	size_t k = sizeof(not_measured) - 1;

	return n > k && !memcmp(p + n - k, not_measured, k) && !memchr(p, ' ', n - k);
}

/*
 * Call fn on each distinct item of 'reason' (the evaluator already merges
 * them, but reasons from older run directories may repeat).  'missing'
 * says whether the item is an "EVENT not measured" one; then [p, p+n) is
 * the event name alone.
 */
static void each_item(const char *reason, void (*fn)(void *ctx, const char *p, size_t n, int missing),
		      void *ctx)
{
	const char *p = reason;

	while (p && *p) {
		const char *end = strstr(p, "; ");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *q;
		int seen = 0;

		/* an earlier copy of the same item? */
		for (q = reason; q < p && !seen;) {
			const char *qe = strstr(q, "; ");
			size_t qn = qe ? (size_t)(qe - q) : strlen(q);

			seen = qn == n && !memcmp(q, p, n);
			q = qe ? qe + 2 : q + qn;
		}
		if (n && !seen) {
			int missing = is_missing_item(p, n);

			fn(ctx, p, missing ? n - (sizeof(not_measured) - 1) : n, missing);
		}
		if (!end)
			break;
		p = end + 2;
	}
}

struct shorten {
	struct strbuf names, others;
	size_t nr_names, nr_others, max;
	int want_missing;
};

static void shorten_item(void *ctx, const char *p, size_t n, int missing)
{
	struct shorten *s = ctx;

	if (missing != s->want_missing)
		return;
	if (missing) {
		if (s->nr_names++ < s->max) {
			if (s->names.len)
				strbuf_addstr(&s->names, ", ");
			strbuf_add(&s->names, p, n);
		}
	} else if (s->nr_others++ < s->max) {
		if (s->others.len)
			strbuf_addstr(&s->others, "; ");
		strbuf_add(&s->others, p, n);
	}
}

size_t td_reason_missing_count(const char *reason)
{
	struct shorten s = { STRBUF_INIT, STRBUF_INIT, 0, 0, 0, 1 };

	each_item(reason, shorten_item, &s);
	strbuf_release(&s.names);
	strbuf_release(&s.others);
	return s.nr_names;
}

void td_reason_short(struct strbuf *sb, const char *reason, size_t max)
{
	struct shorten s = { STRBUF_INIT, STRBUF_INIT, 0, 0, max ? max : 1, 1 };

	/* "and 1 more" takes the room of the name itself */
	if (td_reason_missing_count(reason) == s.max + 1)
		s.max++;
	each_item(reason, shorten_item, &s);
	s.want_missing = 0;
	each_item(reason, shorten_item, &s);
	if (s.nr_names) {
		strbuf_add(sb, s.names.buf, s.names.len);
		if (s.nr_names > s.max)
			strbuf_addf(sb, " and %zu more", s.nr_names - s.max);
		strbuf_addstr(sb, not_measured);
	}
	if (s.nr_others) {
		if (s.nr_names)
			strbuf_addstr(sb, "; ");
		strbuf_add(sb, s.others.buf, s.others.len);
		if (s.nr_others > s.max)
			strbuf_addf(sb, " and %zu more reasons", s.nr_others - s.max);
	}
	strbuf_release(&s.names);
	strbuf_release(&s.others);
}

static void list_item(void *ctx, const char *p, size_t n, int missing)
{
	struct strbuf *sb = ctx;

	if (!missing)
		return;
	if (sb->len)
		strbuf_addstr(sb, ", ");
	strbuf_add(sb, p, n);
}

void td_reason_missing_list(struct strbuf *sb, const char *reason)
{
	struct strbuf names = STRBUF_INIT;

	each_item(reason, list_item, &names);
	strbuf_add(sb, names.buf, names.len);
	strbuf_release(&names);
}
