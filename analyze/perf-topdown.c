/*
 * The Top-Down tree of perf's built-in values, for outputs that name no CPU.
 *
 * perf stat --topdown prints Level 1 (and Level 2 on Sapphire Rapids and
 * the Alder Lake P-cores) in columns with no title and no count: nothing
 * in the file says which CPU ran it, so no CPU's formula table can be
 * picked.  Its values are still perf's Top-Down: this table holds the
 * twelve Level 1-2 nodes of Yasin (2014) with the formulas perf uses for
 * them from Ice Lake on (each topdown-* metric event over the sum of the
 * four Level-1 ones; the second node of each Level-2 pair is its parent
 * less the first) and the thresholds of Intel's TMA metrics (perfmon; the
 * same at Levels 1-2 in every Intel table of metrics/tables).  Its nodes
 * take the values perf printed (analyze/build.c perf_fill): they are
 * perf's numbers, marked so in every format, and the bottleneck path runs
 * over them.  With --cpu NAME the CPU's own table is used instead.
 */
#include "analyze/analyze-int.h"

#include <math.h>
#include <string.h>

#define TD_PERF_TOPDOWN_NAME "perf-topdown"

/* perf's --topdown events, over the sum of Level 1 (perf's td_metric_ratio) */
#define SUM "( topdown\\\\-retiring + topdown\\\\-bad\\\\-spec + topdown\\\\-fe\\\\-bound + topdown\\\\-be\\\\-bound )"

#define NODE(id, name, parent, level, formula, threshold, area, desc) \
	"{\"id\": \"" id "\", \"name\": \"" name "\", " parent "\"level\": " #level ", " \
	"\"domain\": \"slots\", \"unit\": \"slots\", \"formula\": \"" formula "\", " \
	"\"threshold\": \"" threshold "\", \"area\": \"" area "\", \"description\": \"" desc "\"}"
#define UNDER(p) "\"parent\": \"" p "\", "

static const char table_json[] =
	"{\"tdperf_table\": 1, \"name\": \"" TD_PERF_TOPDOWN_NAME "\", "
	"\"display\": \"no CPU table: Levels 1-2 as perf printed them\", "
	"\"vendor\": null, \"pmu\": \"cpu\", \"cpuid\": [], "
	"\"source\": \"perf stat --topdown's built-in values (perf's formulas from Ice Lake on); "
	"thresholds of Intel's TMA metrics (perfmon), the same at Levels 1-2 on every Intel CPU\", "
	"\"params\": {\"flops.unavailable\": \"no CPU table was picked (--cpu NAME takes one)\", "
	"\"frontend.unavailable\": \"no CPU table was picked (--cpu NAME takes one)\"}, "
	"\"events\": [], \"metrics\": ["
	NODE("frontend_bound", "Frontend Bound", "", 1, "topdown\\\\-fe\\\\-bound / " SUM,
	     "frontend_bound > 0.15", "FE",
	     "Issue slots left empty because the frontend delivered no uop.") ","
	NODE("fetch_latency", "Fetch Latency", UNDER("frontend_bound"), 2, "topdown\\\\-fetch\\\\-lat / " SUM,
	     "fetch_latency > 0.1 & frontend_bound > 0.15", "FE",
	     "Frontend slots lost while instruction fetch stalled.") ","
	NODE("fetch_bandwidth", "Fetch Bandwidth", UNDER("frontend_bound"), 2,
	     "frontend_bound - fetch_latency", "fetch_bandwidth > 0.2", "FE",
	     "Frontend slots lost to decode or uop-cache bandwidth.") ","
	NODE("bad_speculation", "Bad Speculation", "", 1, "topdown\\\\-bad\\\\-spec / " SUM,
	     "bad_speculation > 0.15", "BAD",
	     "Issue slots spent on uops that never retire and on recovering from them.") ","
	NODE("branch_mispredicts", "Branch Mispredicts", UNDER("bad_speculation"), 2,
	     "topdown\\\\-br\\\\-mispredict / " SUM, "branch_mispredicts > 0.1 & bad_speculation > 0.15", "BAD",
	     "Slots wasted after mispredicted branches.") ","
	NODE("machine_clears", "Machine Clears", UNDER("bad_speculation"), 2,
	     "bad_speculation - branch_mispredicts", "machine_clears > 0.1 & bad_speculation > 0.15", "BAD",
	     "Slots wasted by pipeline flushes other than branch mispredictions.") ","
	NODE("backend_bound", "Backend Bound", "", 1, "topdown\\\\-be\\\\-bound / " SUM,
	     "backend_bound > 0.2", "BE",
	     "Issue slots left empty because the backend had no room for new uops.") ","
	NODE("memory_bound", "Memory Bound", UNDER("backend_bound"), 2, "topdown\\\\-mem\\\\-bound / " SUM,
	     "memory_bound > 0.2 & backend_bound > 0.2", "BE",
	     "Backend slots stalled on the memory hierarchy.") ","
	NODE("core_bound", "Core Bound", UNDER("backend_bound"), 2, "backend_bound - memory_bound",
	     "core_bound > 0.1 & backend_bound > 0.2", "BE",
	     "Backend slots stalled on the execution core.") ","
	NODE("retiring", "Retiring", "", 1, "topdown\\\\-retiring / " SUM,
	     "retiring > 0.7 | heavy_operations > 0.1", "RET",
	     "Issue slots filled by uops that retired: the useful work.") ","
	NODE("light_operations", "Light Operations", UNDER("retiring"), 2, "retiring - heavy_operations",
	     "light_operations > 0.6", "RET", "Retired slots of simple instructions.") ","
	NODE("heavy_operations", "Heavy Operations", UNDER("retiring"), 2,
	     "topdown\\\\-heavy\\\\-ops / " SUM, "heavy_operations > 0.1", "RET",
	     "Retired slots of instructions of several uops or microcode.")
	"]}";

struct td_table *td_perf_topdown_table(struct strbuf *err)
{
	return td_table_load_data(table_json, sizeof(table_json) - 1, TD_PERF_TOPDOWN_NAME, err);
}

int td_is_perf_topdown_table(const struct td_table *t)
{
	return t && !strcmp(td_table_info(t)->name, TD_PERF_TOPDOWN_NAME);
}

/* Did perf print a built-in Top-Down value with a number in any scope of st? */
int td_stat_prints_builtin_topdown(const struct td_stat_file *st)
{
	size_t i, k, m;

	for (i = 0; st && i < st->nr_sessions; i++)
		for (k = 0; k < st->sessions[i].nr_scopes; k++) {
			const struct td_scope *s = &st->sessions[i].scopes[k];

			for (m = 0; m < s->nr_perf_metrics; m++)
				if (s->perf_metrics[m].kind == TD_PM_BUILTIN &&
				    !isnan(s->perf_metrics[m].value))
					return 1;
		}
	return 0;
}
