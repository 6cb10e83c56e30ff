/*
 * collect/sweep.h: 'tdperf record --sweep', the same workload recorded at
 * several values of one parameter (thread counts, input sizes), for the
 * scaling view of Heirman et al. 2011.
 *
 * Each value is one ordinary 'record' into its own run directory inside
 * the sweep directory, which is published atomically once every value is
 * recorded (docs/run-format.md).
 *
 * Ownership: argv is only read; nothing is returned for the caller to free.
 *
 * Errors: 2 for bad usage or a value that could not be recorded (then
 * nothing is published), after printing one line; otherwise the workload's
 * exit status.
 *
 * Name prefix: td_sweep_.
 */
#ifndef TD_COLLECT_SWEEP_H
#define TD_COLLECT_SWEEP_H

/* True when the record command line asks for --sweep (before any "--"). */
int td_sweep_wanted(int argc, char **argv);
/*
 * tdperf record --sweep PARAM=V1,V2,... [options] [--] COMMAND...: call
 * 'record' (cmd_record) once per value with "-o DIR/PARAM-V --sched" and
 * the command's "{PARAM}" replaced by V (and OMP_NUM_THREADS=V when PARAM
 * is "threads"), then write sweep.json and meta.json (kind "sweep") and
 * publish the sweep directory atomically.  Returns the first nonzero exit
 * status of the workload runs, else 0; 2 on bad usage or when a value could
 * not be recorded (then nothing is published).
 */
int td_sweep_record(int argc, char **argv, int (*record)(int argc, char **argv));
/* Does this option of 'tdperf record' take a separate argument? */
int td_record_option_takes_argument(const char *opt);

#endif /* TD_COLLECT_SWEEP_H */
