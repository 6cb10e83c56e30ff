/*
 * Whether a set of events fits on the counters at once.  The kernel's x86
 * scheduler (arch/x86/events/core.c) assigns events in order of how few
 * counters they may use; an exact bipartite matching answers the same
 * question for the nested constraints real event lists have.
 */
#include "emu.h"

#define EMU_COUNTERS 64

/* Try to give event 'e' a counter, moving earlier events if needed (Kuhn). */
static int augment(const uint64_t *masks, int e, int *owner, uint64_t *seen)
{
	int c;

	for (c = 0; c < EMU_COUNTERS; c++) {
		if (!(masks[e] & (1ULL << c)) || (*seen & (1ULL << c)))
			continue;
		*seen |= 1ULL << c;
		if (owner[c] < 0 || augment(masks, owner[c], owner, seen)) {
			owner[c] = e;
			return 1;
		}
	}
	return 0;
}

int emu_counters_fit(const uint64_t *masks, int n)
{
	int owner[EMU_COUNTERS], c, e;

	for (c = 0; c < EMU_COUNTERS; c++)
		owner[c] = -1;
	for (e = 0; e < n; e++) {
		uint64_t seen = 0;

		if (!masks[e])
			continue;  /* needs no counter (topdown metric) */
		if (!augment(masks, e, owner, &seen))
			return 0;
	}
	return 1;
}
