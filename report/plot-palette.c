/*
 * The fixed colours and order of Top-Down components.  Every chart, the
 * HTML bars and the diff use these, so "Backend Bound" is the same blue in
 * a per-thread bar, a timeline and a comparison of two CPUs.
 *
 * Node ids differ between tables (Intel "memory_bound", AMD
 * "backend_bound_memory", perf's "tma_" prefix), so a node is placed in a
 * family by its id or its parent's, and a Level-2 node gets a shade of its
 * family's colour by its rank among its siblings.
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"

#include <ctype.h>
#include <string.h>

/* Lower-case id without perf's "tma_" prefix, into buf. */
static void canonical_id(char *buf, size_t size, const char *id)
{
	size_t i;

	if (!strncasecmp(id, "tma_", 4))
		id += 4;
	for (i = 0; i + 1 < size && id[i]; i++)
		buf[i] = tolower((unsigned char)id[i]);
	buf[i] = '\0';
}

static const struct {
	const char *prefix;
	enum td_family family;
} family_names[] = {
	/* Level 1 */
	{ "retiring", TD_FAMILY_RETIRING },
	{ "bad_speculation", TD_FAMILY_BAD_SPEC },
	{ "frontend_bound", TD_FAMILY_FRONTEND },
	{ "backend_bound", TD_FAMILY_BACKEND },
	{ "smt_contention", TD_FAMILY_SMT },
	/* Intel Level 2, for nodes whose parent is not given */
	{ "light_operations", TD_FAMILY_RETIRING },
	{ "heavy_operations", TD_FAMILY_RETIRING },
	{ "branch_mispredicts", TD_FAMILY_BAD_SPEC },
	{ "machine_clears", TD_FAMILY_BAD_SPEC },
	{ "fetch_latency", TD_FAMILY_FRONTEND },
	{ "fetch_bandwidth", TD_FAMILY_FRONTEND },
	{ "memory_bound", TD_FAMILY_BACKEND },
	{ "core_bound", TD_FAMILY_BACKEND },
};

enum td_family td_component_family(const char *id, const char *parent_id)
{
	char buf[128];
	size_t i;

	if (parent_id && *parent_id) {
		enum td_family f = td_component_family(parent_id, NULL);

		if (f != TD_FAMILY_OTHER)
			return f;
	}
	if (!id)
		return TD_FAMILY_OTHER;
	canonical_id(buf, sizeof(buf), id);
	for (i = 0; i < TD_ARRAY_SIZE(family_names); i++)
		if (!strncmp(buf, family_names[i].prefix, strlen(family_names[i].prefix)))
			return family_names[i].family;
	return TD_FAMILY_OTHER;
}

/*
 * Base colour (Level 1) and two shades for the children: the first child
 * darker, the second lighter, further children alternate.  Chosen to stay
 * apart for the common forms of colour blindness (green/orange/violet/blue).
 */
static const char *const palette[][4] = {
	[TD_FAMILY_RETIRING] = { "#2f9e5a", "#1c6e3d", "#8fd4a8", "#55b97b" },
	[TD_FAMILY_BAD_SPEC] = { "#e8743b", "#b94f1a", "#f5b08c", "#ee915f" },
	[TD_FAMILY_FRONTEND] = { "#8a63d2", "#5e3ba8", "#c3aef0", "#a385e0" },
	[TD_FAMILY_BACKEND] = { "#3578d4", "#1f4f99", "#8cb6ef", "#5d96e2" },
	[TD_FAMILY_SMT] = { "#8d8d8d", "#666666", "#b5b5b5", "#a0a0a0" },
	[TD_FAMILY_OTHER] = { "#b0b7c0", "#8c939c", "#d0d5db", "#c0c6cd" },
};

const char *td_component_colour(const char *id, const char *parent_id, int level, int rank)
{
	enum td_family f = td_component_family(id, parent_id);

	if (level <= 1)
		return palette[f][0];
	if (rank < 0)
		rank = 0;
	return palette[f][1 + rank % 3];
}
