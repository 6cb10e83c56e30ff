/*
 * collect/run.h: running a workload under perf.
 *
 * tdperf, not perf, is the workload's parent: the workload is forked held,
 * every perf attaches to it with its events disabled and a control
 * channel, and the workload is released only once every perf has
 * acknowledged that it counts.  So each perf sees the same whole
 * execution, and the workload's exit status and signal come from
 * waitpid() itself.  The rest are small helpers the commands share for
 * what they print about a run.
 *
 * Ownership: the spec and its jobs belong to the caller; the result owns
 * its time strings (td_run_result_release()); td_iso_time_now() returns a
 * string the caller frees; td_signal_name() a static buffer.
 *
 * Errors: td_run_workload() returns -1 with one line in 'err' only when
 * perf could not be started (then nothing was measured); how the workload
 * itself ended is in the result.
 *
 * Name prefix: td_run_, td_perf_.
 */
#ifndef TD_COLLECT_RUN_H
#define TD_COLLECT_RUN_H

#include <stddef.h>
#include <sys/types.h>

#include "util/util.h"

/* One perf process attached to the workload. */
struct td_perf_job {
	char **argv;             /* perf argv, NULL-terminated, without the target */
	char *stderr_path;       /* where perf's stderr goes */
	pid_t pid;
	int ctl_fd, ack_fd;      /* our ends of perf's --control fds */
	int status;              /* waitpid status of perf */
	int started;
};

struct td_run_spec {
	char *const *workload;   /* argv to run, or NULL (then -p/-a until Ctrl-C) */
	pid_t attach_pid;        /* -p PID, 0 when none */
	int system_wide;         /* -a or -C: perf is not attached to a task */
	struct td_perf_job *jobs;
	size_t nr_jobs;
	/* called about every 200 ms while the workload runs (record --live) */
	void (*tick)(void *ctx);
	void *tick_ctx;
};

struct td_run_result {
	int exited;              /* the workload exited normally */
	int exit_status;         /* its exit status when exited */
	int signo;               /* the signal that ended it, 0 none */
	int interrupted;         /* tdperf got SIGINT/SIGTERM */
	int exec_errno;          /* the workload could not be started */
	double seconds;          /* wall time of the workload */
	char *start_time, *end_time; /* ISO 8601 UTC */
};

/*
 * Run the workload once with every job attached: the workload is forked
 * held, each perf attaches with "-p PID --control fd:.. -D -1" (or runs
 * system-wide), is enabled and acknowledged, and only then is the
 * workload released.  SIGINT/SIGTERM are forwarded to the workload; perf
 * is stopped with SIGINT after the workload ends so that it writes
 * complete output.  Returns 0, or -1 with err set when perf could not
 * start (nothing was measured).
 */
int td_run_workload(struct td_run_spec *spec, struct td_run_result *res, struct strbuf *err);
void td_run_result_release(struct td_run_result *res);
/* True while/after tdperf was asked to stop (SIGINT/SIGTERM). */
int td_run_interrupted(void);
/* Last non-empty line of a file (perf's stderr), for error messages. */
void td_last_line(const char *path, struct strbuf *sb);
/* Append argv shell-quoted, for printing commands. */
void td_quote_argv(struct strbuf *sb, char *const argv[]);
/* "SIGINT" for 2 (a static buffer). */
const char *td_signal_name(int signo);
/* ISO 8601 UTC time now. */
char *td_iso_time_now(void);

#endif /* TD_COLLECT_RUN_H */
