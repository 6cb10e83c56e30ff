/*
 * collect/job.h: recording one rank of a parallel job (docs/job-format.md).
 *
 * Under srun or mpirun every rank runs its own 'tdperf record', finds its
 * rank in the launcher's environment and writes its own run directory
 * into the job directory; nothing else is shared between ranks, so they
 * never race.  System-wide counting is done once per node, by the node's
 * local rank 0.
 *
 * Ownership: struct td_job_rank owns its strings (td_job_rank_release());
 * td_job_rank_dirname() returns a string the caller frees and
 * td_job_rank_json() a new reference.
 *
 * Errors: -1 with one line in 'err' for a launcher variable holding
 * garbage; td_job_wanted() prints its error itself; td_job_record()
 * returns the recording's exit status, or 2.
 *
 * Name prefix: td_job_.
 */
#ifndef TD_COLLECT_JOB_H
#define TD_COLLECT_JOB_H

#include <jansson.h>

#include "util/util.h"

/* Who this process is in a parallel job, from its launcher's environment. */
struct td_job_rank {
	const char *launcher;    /* "slurm", "openmpi", "mvapich", "pmix", "mpich" */
	long rank;               /* 0.. */
	long size;               /* ranks in the job, -1 unknown */
	long local_rank;         /* rank among those of this node, -1 unknown */
	long node;               /* the node's index (Slurm's SLURM_NODEID), -1 unknown */
	char *job_id;            /* SLURM_JOB_ID.STEP, Open MPI's jobid, PMIx namespace; or NULL */
	char *host;              /* this node's short host name */
	int system_wide;         /* this rank counts its node's CPUs (-a/-C, local rank 0) */
};
typedef const char *(*td_getenv_fn)(const char *name);
/*
 * Recognise a rank from the environment read through 'env' (getenv, or a
 * test's table).  Returns 1 with r filled (host left NULL), 0 when no
 * launcher's variables are set, -1 with err set when one holds garbage.
 */
int td_job_rank_detect(struct td_job_rank *r, td_getenv_fn env, struct strbuf *err);
void td_job_rank_release(struct td_job_rank *r);
/* "rank-00003.HOST": the rank's run directory inside the job directory. */
char *td_job_rank_dirname(const struct td_job_rank *r);
/*
 * A node name (uname's) as HOST of a rank directory: up to its first dot,
 * other bytes than [A-Za-z0-9_-] (and a leading dot) made '_', never empty.
 * Caller frees.
 */
char *td_job_host_name(const char *nodename);
/* The rank's "job" object of its meta.json (docs/job-format.md). */
json_t *td_job_rank_json(const struct td_job_rank *r);
/*
 * Should this 'tdperf record' record one rank of a job?  1 with r filled
 * (host too), 0 (not under a launcher, TDPERF_JOB=0, or already inside
 * td_job_record), -1 after printing an error.
 */
int td_job_wanted(struct td_job_rank *r);
/* A job's record command line, taken apart by the record command. */
struct td_job_command {
	const char *job;         /* the job directory (-o) */
	const char *gather;      /* --gather DIR, or NULL */
	char **rank_argv;        /* argv[0] and the options this rank records with (no -o or
				    --gather; -a and -C only at the node's local rank 0), NULL-terminated */
	int argc;                /* the command line as typed (argv[0] "record") */
	char **argv;
	int first_cmd;           /* where its workload starts in argv */
};
/*
 * Record this rank: call 'record' (cmd_record) with the rank's options,
 * "-o JOB/rank-N.HOST" and the workload; rank 0 writes JOB/meta.json;
 * 'summarise' (may be NULL) adds the rank's summary to its directory;
 * with gather, the rank's directory is then copied into that directory.
 * Returns record's exit status, or 2.
 */
int td_job_record(const struct td_job_command *c, struct td_job_rank *r,
		  int (*record)(int argc, char **argv), void (*summarise)(const char *rankdir));
/* The rank being recorded (inside td_job_record), else NULL. */
const struct td_job_rank *td_job_current(void);

#endif /* TD_COLLECT_JOB_H */
