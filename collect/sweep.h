/*
 * collect/sweep.h: 'tdperf record --sweep PARAM=V1,V2,...', the same
 * workload recorded at several values of one parameter (thread counts,
 * input sizes), for the scaling view of Heirman et al. 2011.
 *
 * The record command parses --sweep like its other options and records
 * each value itself (src/cmd-record.c): one ordinary recording into its
 * own run directory PARAM-V inside the sweep directory, which is published
 * atomically once every value is recorded (docs/run-format.md).  Here are
 * the pieces it is made of: the list of values, the substitution of
 * {PARAM} in the workload, and the sweep's own sweep.json and meta.json.
 *
 * Ownership: struct td_sweep owns its strings and its "runs" array
 * (td_sweep_release()); td_sweep_substitute() and td_sweep_dirname()
 * return strings the caller frees; argv is only read.
 *
 * Errors: -1 with one line in 'err' (for td_sweep_parse(), a usage
 * error: the record command adds its name and the help).
 *
 * Name prefix: td_sweep_.
 */
#ifndef TD_COLLECT_SWEEP_H
#define TD_COLLECT_SWEEP_H

#include <jansson.h>
#include <stddef.h>

#include "util/util.h"

/* The values of a sweep, and the runs recorded so far. */
struct td_sweep {
	char *param;
	double *values;
	char **labels;           /* the values as written by the user */
	size_t nr;
	json_t *runs;            /* sweep.json's "runs", one per value recorded */
};
/*
 * Parse "threads=1,2,4,8": values must be positive numbers, distinct.
 * Returns 0, or -1 with err set (and s released).
 */
int td_sweep_parse(const char *text, struct td_sweep *s, struct strbuf *err);
void td_sweep_release(struct td_sweep *s);
/* arg with every "{PARAM}" replaced by value. */
char *td_sweep_substitute(const char *arg, const char *param, const char *value);
/* "PARAM-V": the run directory of value i inside the sweep directory. */
char *td_sweep_dirname(const struct td_sweep *s, size_t i);
/* Add value i's entry to "runs": its workload (argc words) and exit status. */
void td_sweep_add_run(struct td_sweep *s, size_t i, int argc, char *const *workload, int exit_status);
/*
 * Write sweep.json and meta.json (kind "sweep") into the sweep directory
 * being written.  argv is record's command line as typed (argv[0]
 * "record"), its workload starting at argv[first_cmd].
 */
int td_sweep_write_index(const struct td_rundir *rd, const struct td_sweep *s, int argc, char **argv,
			 int first_cmd, const char *start_time, struct strbuf *err);

#endif /* TD_COLLECT_SWEEP_H */
