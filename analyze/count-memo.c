/*
 * Which count of a scope a formula's event name resolves to, remembered
 * across scopes of the same shape.
 *
 * Resolving a name (td_scope_find_group, then the table's raw spellings)
 * normalises it and compares it with every count of the scope: string
 * work, repeated for every use of the name in every formula of every
 * node.  The answer depends only on the scope's shape (each count's
 * event, PMU, modifiers and group), never on the values, and the scopes
 * of an interval run all have the shape of the first interval.  So the
 * answer is kept, as an index into the counts, for as long as the scopes
 * keep that shape; a scope of another shape starts over.
 */
#include "analyze/analyze-int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MEMO_BUCKETS 1024

struct memo_entry {
	struct memo_entry *next;
	const void *table;      /* the events table raw spellings came from */
	char *pmu;              /* the hybrid section, or NULL */
	int group;
	long idx;               /* index into the scope's counts, -1: none */
	char name[];
};

struct memo_shape {
	size_t n;
	char **event, **pmu, **modifiers, **key;
	int *group;
};

static struct memo_entry *buckets[MEMO_BUCKETS];
static struct memo_shape shape;

/* FNV-1a over the name, the PMU and the group: a bucket index. */
static size_t memo_hash(const char *name, const char *pmu, int group)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	for (; pmu && *pmu; pmu++)
		h = (h ^ (unsigned char)*pmu) * 16777619u;
	h = (h ^ (uint32_t)group) * 16777619u;
	return h % MEMO_BUCKETS;
}

static void memo_flush(void)
{
	size_t i;

	for (i = 0; i < MEMO_BUCKETS; i++)
		while (buckets[i]) {
			struct memo_entry *e = buckets[i];

			buckets[i] = e->next;
			free(e->pmu);
			free(e);
		}
}

static void shape_release(void)
{
	size_t i;

	for (i = 0; i < shape.n; i++) {
		free(shape.event[i]);
		free(shape.pmu[i]);
		free(shape.modifiers[i]);
		free(shape.key[i]);
	}
	free(shape.event);
	free(shape.pmu);
	free(shape.modifiers);
	free(shape.key);
	free(shape.group);
	memset(&shape, 0, sizeof(shape));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int shape_matches(const struct td_scope *s)
{
	size_t i;

	if (s->nr_counts != shape.n)
		return 0;
	for (i = 0; i < s->nr_counts; i++) {
		const struct td_count *c = &s->counts[i];

		if (c->group != shape.group[i] || !td_str_same(c->event, shape.event[i]) ||
		    !td_str_same(c->pmu, shape.pmu[i]) || !td_str_same(c->modifiers, shape.modifiers[i]) ||
		    !td_str_same(c->key, shape.key[i]))
			return 0;
	}
	return 1;
}

void td_count_memo_enter(const struct td_scope *s)
{
	size_t i;

	if (shape.n && shape_matches(s))
		return;
	memo_flush();
	shape_release();
	shape.n = s->nr_counts;
	shape.event = xcalloc(s->nr_counts + 1, sizeof(char *));
	shape.pmu = xcalloc(s->nr_counts + 1, sizeof(char *));
	shape.modifiers = xcalloc(s->nr_counts + 1, sizeof(char *));
	shape.key = xcalloc(s->nr_counts + 1, sizeof(char *));
	shape.group = xcalloc(s->nr_counts + 1, sizeof(int));
	for (i = 0; i < s->nr_counts; i++) {
		shape.event[i] = dup_or_null(s->counts[i].event);
		shape.pmu[i] = dup_or_null(s->counts[i].pmu);
		shape.modifiers[i] = dup_or_null(s->counts[i].modifiers);
		shape.key[i] = dup_or_null(s->counts[i].key);
		shape.group[i] = s->counts[i].group;
	}
}

void td_count_memo_reset(void)
{
	memo_flush();
	shape_release();
}

int td_count_memo_get(const void *table, const char *pmu, const char *name, int group, long *idx)
{
	struct memo_entry *e;

	for (e = buckets[memo_hash(name, pmu, group)]; e; e = e->next)
		if (e->table == table && e->group == group && td_str_same(e->pmu, pmu) &&
		    !strcmp(e->name, name)) {
			*idx = e->idx;
			return 1;
		}
	return 0;
}

void td_count_memo_put(const void *table, const char *pmu, const char *name, int group, long idx)
{
	size_t b = memo_hash(name, pmu, group), n = strlen(name);
	struct memo_entry *e = xmalloc(sizeof(*e) + n + 1);

	e->table = table;
	e->pmu = dup_or_null(pmu);
	e->group = group;
	e->idx = idx;
	memcpy(e->name, name, n + 1);
	e->next = buckets[b];
	buckets[b] = e;
}
