/*
 * Event groups from where perf printed its metrics.
 *
 * perf stat -M puts each metric's events into one group and prints the
 * group's events together.  The counting model knows only that a
 * repeated event starts the next group (parse/stat-model.c), which puts
 * the boundary at the repeat.  On AMD's PipelineL1/L2, where every group
 * carries its own ls_not_halted_cyc,
 *
 *	de_src_op_disp.all   # bad_speculation     } one group
 *	ls_not_halted_cyc                          }
 *	ex_ret_ops           # retiring            }
 *	de_no_dispatch_per_slot.no_ops_from_frontend # frontend_bound  } the next
 *	ls_not_halted_cyc                                              }
 *
 * the repeat rule puts no_ops_from_frontend with the first cycles count,
 * and frontend_bound comes out with another group's cycles, 0.05 to 0.1
 * points off what perf printed beside it.
 *
 * Between two occurrences of a repeated event lies exactly one group
 * boundary.  Each metric perf printed, with the events of its formula,
 * says which counts must share a group: the boundary is put where it
 * separates none of them; among such places, at a line carrying a
 * metric (perf prints a metric beside its group's first event), and
 * failing that at the repeat, as before.
 */
#include "analyze/analyze-int.h"

#include <stdlib.h>
#include <string.h>

/* Index of the only count of s (of pmu) whose key is that of name; -1 none or several. */
static int unique_count(const struct td_scope *s, const char *pmu, const char *name)
{
	struct strbuf kp = STRBUF_INIT, key = STRBUF_INIT;
	size_t i;
	int found = -1;

	td_event_key(name, &kp, &key);
	for (i = 0; i < s->nr_counts; i++) {
		const struct td_count *c = &s->counts[i];

		if ((pmu && (!c->pmu || strcmp(c->pmu, pmu))) || !c->key || strcmp(c->key, key.buf))
			continue;
		if (found >= 0) {
			found = -1;
			break;
		}
		found = (int)i;
	}
	strbuf_release(&kp);
	strbuf_release(&key);
	return found;
}

/* Index of the count printed on input line 'line' (or the last one above it). */
static int count_at_line(const struct td_scope *s, const char *pmu, int line)
{
	size_t i;
	int best = -1;

	for (i = 0; i < s->nr_counts; i++) {
		const struct td_count *c = &s->counts[i];

		if (pmu && (!c->pmu || strcmp(c->pmu, pmu)))
			continue;
		if (c->line && c->line <= line && (best < 0 || c->line > s->counts[best].line))
			best = (int)i;
	}
	return best;
}

/*
 * How many hints would a boundary before count b split?  Only the counts
 * of the group being closed and of the repeat's window, [lo, hi], count:
 * earlier groups are settled, later ones not yet.  But a metric printed
 * in the window whose own events come after it lies in the group the
 * boundary opens: perf prints a metric before the rest of its group
 * (perf 6.1 with duration_time closing each group:
 *
 *	DTLB_STORE_MISSES.WALK_ACTIVE ...  # tma_store_stlb_miss   } one group
 *	CPU_CLK_UNHALTED.THREAD                                     }
 *	duration_time                                               }
 *	DTLB_LOAD_MISSES.STLB_HIT,cmask=1  # tma_load_stlb_hit     } the next
 *	CYCLE_ACTIVITY.CYCLES_L1D_MISS                              }
 *	CPU_CLK_UNHALTED.THREAD            # tma_load_stlb_miss    }
 *	DTLB_LOAD_MISSES.WALK_ACTIVE                                }
 *
 * the repeated THREAD alone would put the boundary at the second metric).
 */
static int splits(const struct td_scope *s, const char *pmu, const struct td_group_hint *h,
		  size_t nr, size_t lo, size_t hi, size_t b)
{
	size_t i, k;
	int n = 0;

	for (i = 0; i < nr; i++) {
		int at = count_at_line(s, pmu, h[i].line), before = 0, after = 0;
		int in_window = at >= (int)lo && at <= (int)hi;

		if (in_window)
			(size_t)at >= b ? after++ : before++;
		for (k = 0; k < h[i].nr; k++) {
			int c = unique_count(s, pmu, h[i].events[k]);

			if (c > (int)hi && in_window)
				after++;
			if (c < (int)lo || c > (int)hi)
				continue;
			(size_t)c >= b ? after++ : before++;
		}
		if (before && after)
			n++;
	}
	return n;
}

/* Did perf print a metric on the line of count c? */
static int carries_metric(const struct td_scope *s, const struct td_group_hint *h, size_t nr,
			  const struct td_count *c)
{
	size_t i;

	(void)s;
	for (i = 0; i < nr; i++)
		if (c->line && h[i].line == c->line)
			return 1;
	return 0;
}

/*
 * The boundary between the occurrences at p and q (p < q) of a repeated
 * event, in the group that started at lo.
 */
static size_t best_boundary(const struct td_scope *s, const char *pmu, const struct td_group_hint *h,
			    size_t nr, size_t lo, size_t p, size_t q)
{
	size_t b, best = q;
	int best_splits = splits(s, pmu, h, nr, lo, q, q), best_metric = carries_metric(s, h, nr, &s->counts[q]);

	for (b = p + 1; b < q; b++) {
		int n = splits(s, pmu, h, nr, lo, q, b), m = carries_metric(s, h, nr, &s->counts[b]);

		if (n < best_splits || (n == best_splits && m && !best_metric)) {
			best = b;
			best_splits = n;
			best_metric = m;
		}
	}
	return best;
}

static int same_pmu(const struct td_count *c, const char *pmu)
{
	return pmu ? c->pmu && !strcmp(c->pmu, pmu) : !c->pmu;
}

struct td_scope *td_scope_regroup(const struct td_scope *s, const char *pmu,
				  const struct td_group_hint *h, size_t nr)
{
	struct td_scope *copy;
	size_t i, k, start = 0;
	int group = 0, changed = 0, seen = 0;

	if (!nr)
		return NULL;
	copy = xcalloc(1, sizeof(*copy));
	*copy = *s;
	copy->counts = xcalloc(s->nr_counts + 1, sizeof(*copy->counts));
	memcpy(copy->counts, s->counts, s->nr_counts * sizeof(*s->counts));
	copy->alloc_counts = s->nr_counts;
	for (i = 0; i < s->nr_counts; i++) {
		struct td_count *c = &copy->counts[i];

		if (!same_pmu(c, pmu))
			continue;
		if (!seen++)
			start = i;
		for (k = start; k < i; k++)
			if (same_pmu(&copy->counts[k], pmu) && c->key && copy->counts[k].key &&
			    !strcmp(c->key, copy->counts[k].key))
				break;
		if (k < i) {
			size_t b = best_boundary(s, pmu, h, nr, start, k, i);

			group++;
			for (start = b; b < i; b++)
				if (same_pmu(&copy->counts[b], pmu))
					copy->counts[b].group = group;
		}
		changed |= c->group != group;
		c->group = group;
	}
	for (i = 0; i < copy->nr_counts; i++)
		changed |= copy->counts[i].group != s->counts[i].group;
	/* a boundary moved off a repeat can add a group */
	if (group + 1 > copy->nr_groups)
		copy->nr_groups = group + 1;
	if (!changed) {
		td_scope_regroup_free(copy);
		return NULL;
	}
	return copy;
}

/* A PMU whose counts share the groups of the section (no msr, power, tool PMU). */
static int is_core_pmu(const char *name)
{
	return !name || !*name || !strcmp(name, "cpu") || !strcmp(name, "cpu_core") ||
	       !strcmp(name, "cpu_atom") || td_arm_is_core_pmu(name);
}

/* The first input line of group g's counts (of PMU pmu), and the line the next group starts on. */
static int group_lines(const struct td_scope *s, const char *pmu, int g, int *next)
{
	int first = 0;
	size_t i;

	for (i = 0; i < s->nr_counts; i++)
		if (same_pmu(&s->counts[i], pmu) && s->counts[i].group == g && s->counts[i].line > 0 &&
		    (!first || s->counts[i].line < first))
			first = s->counts[i].line;
	*next = 0;
	for (i = 0; first && i < s->nr_counts; i++) {
		int l = s->counts[i].line;

		if (same_pmu(&s->counts[i], pmu) && s->counts[i].group != g && l > first && (!*next || l < *next))
			*next = l;
	}
	return first;
}

const struct td_count *td_scope_group_outsider(const struct td_scope *s, const char *pmu, const char *event,
					       int group, const struct td_count *c)
{
	const struct td_count *any = c ? c : td_scope_find_group(s, pmu, event, -1);
	int first, next;
	size_t i;

	if (group < 0 || !any || is_core_pmu(any->pmu) || !any->key)
		return c;
	first = group_lines(s, pmu, group, &next);
	if (!first)
		return c;
	for (i = 0; i < s->nr_counts; i++) {
		const struct td_count *o = &s->counts[i];

		if (o->pmu && !strcmp(o->pmu, any->pmu) && o->key && !strcmp(o->key, any->key) &&
		    o->line > first && (!next || o->line < next))
			return o;
	}
	return c;
}

int td_scope_printed_group(const struct td_scope *s, const char *pmu, const struct td_perf_metric *pm)
{
	int at;

	if (!pm->line)
		return pm->group;
	/*
	 * perf prints a metric beside an event of its group (6.x: the first),
	 * or on a line of its own right below (a second metric of that group)
	 */
	at = count_at_line(s, pmu, pm->line);
	return at >= 0 ? s->counts[at].group : pm->group;
}

void td_scope_regroup_free(struct td_scope *copy)
{
	if (!copy)
		return;
	free(copy->counts);
	free(copy);
}
