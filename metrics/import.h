/*
 * metrics/import.h: building a formula table from published vendor data
 * ('tdperf tables import', scripts/gen-tables).
 *
 * The built-in tables are generated, never typed by hand: Intel's perfmon
 * metrics JSON and TMA spreadsheet, Linux perf's pmu-events metrics and
 * event lists (Intel, AMD, and the Arm core and architecture files), a
 * mapfile for the CPUID patterns, and tdperf's own extra files merged last
 * (docs/tables.md).  Every formula is parsed with metrics/expr.c's parser
 * on the way, so a table that imports is one the evaluator reads.
 *
 * Ownership: the options only borrow their strings.  The result is a file,
 * written atomically: nothing is left half-written on failure.
 *
 * Errors: -1 with one line in 'err' naming the source file and what is
 * wrong with it.
 */
#ifndef TD_METRICS_IMPORT_H
#define TD_METRICS_IMPORT_H

#include <stddef.h>

#include "util/util.h"

struct td_import_opts {
	const char *output;      /* table file to write (atomically) */
	const char *name, *display, *vendor, *perf_name, *core_type, *pmu;
	const char *source;      /* provenance line stored in the table */
	const char *missing;     /* what the PMU cannot measure */
	const char *unit;        /* perf metrics: take only this "Unit" (cpu_atom) */
	const char *mapfile, *map_key; /* CPUID patterns: rows whose file contains key */
	double slots;            /* pipeline width */
	int gp, gp_smt, fixed;   /* counters when the event lists do not say (0: from the lists) */
	const char **perfmon; size_t nr_perfmon;           /* Intel metrics JSON */
	const char *tma_csv, *tma_column; /* Intel's TMA spreadsheet and platform column */
	const char **perf_metrics; size_t nr_perf_metrics; /* perf JSON files/dirs */
	const char **events; size_t nr_events;             /* event lists */
	const char **extra; size_t nr_extra;               /* merged last */
	const char **cpuid; size_t nr_cpuid;
	const char **aliases; size_t nr_aliases;
	const char *arm_core, *arm_root; /* Arm: perf's core directory and arch/arm64 root */
};
/* Build a table from the sources; -1 with the reason in err. */
int td_table_import(const struct td_import_opts *o, struct strbuf *err);

#endif /* TD_METRICS_IMPORT_H */
