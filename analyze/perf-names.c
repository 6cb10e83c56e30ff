/*
 * perf's names for our nodes.  perf prints a node under the name of its
 * own metric tables; most are ours with "tma_" in front, but some trees
 * name the same node otherwise:
 *  - AMD's PipelineL2 (amdzen4 pipeline.json): frontend_bound_latency
 *    for Fetch Latency, retiring_microcode for Heavy Operations, ...; and
 *    Zen 5's (amdzen5): frontend_bound_by_latency, retiring_from_microcode;
 *  - perf <= 6.3's built-in Level 2 ("Branch Mispredict", singular);
 *  - Intel's E-core (Gracemont) trees: tma_base and tma_ms_uops for the
 *    two halves of Retiring (our Light and Heavy Operations, the names
 *    the P-core tree uses), tma_frontend_latency/_bandwidth and
 *    tma_load_store_bound in newer perf; the Crestmont and Skymont trees:
 *    tma_ifetch_latency and tma_ifetch_bandwidth.
 * The report puts perf's value beside ours under either name, and
 * 'tdperf explain' takes perf's name too.
 */
#include "analyze/analyze-int.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char *const aliases[][2] = {
	{ "frontend_bound_latency", "fetch_latency" },
	{ "frontend_bound_bandwidth", "fetch_bandwidth" },
	{ "bad_speculation_mispredicts", "branch_mispredicts" },
	{ "bad_speculation_pipeline_restarts", "machine_clears" },
	{ "backend_bound_memory", "memory_bound" },
	{ "backend_bound_cpu", "core_bound" },
	{ "retiring_fastpath", "light_operations" },
	{ "retiring_microcode", "heavy_operations" },
	{ "frontend_bound_by_latency", "fetch_latency" },
	{ "frontend_bound_by_bandwidth", "fetch_bandwidth" },
	{ "bad_speculation_from_mispredicts", "branch_mispredicts" },
	{ "bad_speculation_from_pipeline_restarts", "machine_clears" },
	{ "backend_bound_by_memory", "memory_bound" },
	{ "backend_bound_by_cpu", "core_bound" },
	{ "retiring_from_fastpath", "light_operations" },
	{ "retiring_from_microcode", "heavy_operations" },
	{ "branch_mispredict", "branch_mispredicts" },
	{ "base", "light_operations" },
	{ "ms_uops", "heavy_operations" },
	{ "frontend_latency", "fetch_latency" },
	{ "frontend_bandwidth", "fetch_bandwidth" },
	{ "load_store_bound", "memory_bound" },
	{ "ifetch_latency", "fetch_latency" },
	{ "ifetch_bandwidth", "fetch_bandwidth" },
};

static char normalized_char(char c)
{
	return c == ' ' || c == '-' ? '_' : (char)tolower((unsigned char)c);
}

void td_perf_name_normalize(const char *in, struct strbuf *out)
{
	strbuf_reset(out);
	if (!strncasecmp(in, "tma_", 4))
		in += 4;
	for (; *in; in++)
		strbuf_addch(out, normalized_char(*in));
}

int td_perf_name_is(const char *normalized, const char *in)
{
	if (!strncasecmp(in, "tma_", 4))
		in += 4;
	for (; *in && *normalized; in++, normalized++)
		if (normalized_char(*in) != *normalized)
			return 0;
	return !*in && !*normalized;
}

const char *td_perf_name_alias(const char *normalized)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(aliases); i++)
		if (!strcmp(normalized, aliases[i][0]))
			return aliases[i][1];
	return NULL;
}

const struct td_metric *td_table_find_perf_metric(const struct td_table *t, const char *name)
{
	struct strbuf n = STRBUF_INIT;
	const struct td_metric *m = td_table_find_metric(t, name);
	const char *alias;

	if (!m) {
		td_perf_name_normalize(name, &n);
		m = td_table_find_metric(t, n.buf);
		alias = m ? NULL : td_perf_name_alias(n.buf);
		if (alias)
			m = td_table_find_metric(t, alias);
	}
	strbuf_release(&n);
	return m;
}
