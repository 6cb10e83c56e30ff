/*
 * Recording one rank of a parallel job (docs/job-format.md).
 *
 * Under srun or mpirun every rank runs its own "tdperf record"; each
 * finds out from the launcher's environment which rank it is, and writes
 * its own run directory JOB/rank-NNNNN.HOST inside the job directory JOB.
 * Nothing is shared between ranks but the directory JOB itself: each rank
 * publishes its run directory with an atomic rename (util/rundir.c), rank
 * 0 alone writes the job's meta.json (also by a rename), and the reader
 * assembles the job from what it finds.  So ranks never race, and a rank
 * that dies leaves only its own "rank-NNNNN.HOST.tmp-PID" behind, which
 * the reader names as incomplete.
 *
 * System-wide counting (-a, -C) is done once per node, by the node's
 * local rank 0, as likwid-mpirun does: the other ranks of the node count
 * their own process only, so a node's CPUs are not counted N times.
 */
#include "config.h"
#include "collect/job.h"
#include "collect/run.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The rank being recorded while td_job_record runs (read by record's meta.json). */
static const struct td_job_rank *current_rank;

/*
 * Read a non-negative integer variable.  Returns 1 with *out set, 0 when
 * the variable is unset, -1 with err set when it holds something else.
 */
static int env_long(td_getenv_fn env, const char *name, long *out, struct strbuf *err)
{
	const char *v = env(name);
	char *end;
	long n;

	if (!v)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || errno || n < 0) {
		strbuf_addf(err, "environment variable %s='%s' is not a rank number", name, v);
		return -1;
	}
	*out = n;
	return 1;
}

/* The first of 'names' that is set: its value in *out; 0 when none, -1 on a bad value. */
static int first_long(td_getenv_fn env, const char *const *names, long *out, struct strbuf *err)
{
	int r;

	for (; *names; names++)
		if ((r = env_long(env, *names, out, err)) != 0)
			return r;
	return 0;
}

/*
 * The rank variables of each launcher, most specific first: an MPI
 * launcher started inside a Slurm allocation also leaves SLURM_PROCID in
 * the environment, but that one numbers its daemons, not the MPI ranks.
 */
struct launcher_vars {
	const char *launcher;
	const char *rank, *size, *local_rank, *node, *job_id;
};

static const struct launcher_vars launchers[] = {
	{ "openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
	  "OMPI_COMM_WORLD_LOCAL_RANK", NULL, "OMPI_MCA_ess_base_jobid" },
	{ "mvapich", "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE",
	  "MV2_COMM_WORLD_LOCAL_RANK", NULL, NULL },
	{ "slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NODEID", "SLURM_JOB_ID" },
	{ "pmix", "PMIX_RANK", NULL, NULL, NULL, "PMIX_NAMESPACE" },
	{ "mpich", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", NULL, NULL },
};

int td_job_rank_detect(struct td_job_rank *r, td_getenv_fn env, struct strbuf *err)
{
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "SLURM_NPROCS",
					     "PMI_SIZE", "MV2_COMM_WORLD_SIZE", NULL };
	static const char *const locals[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID",
					      "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK",
					      "PMIX_LOCAL_RANK", NULL };
	const struct launcher_vars *l = NULL;
	size_t i;
	int got;

	memset(r, 0, sizeof(*r));
	r->rank = r->size = r->local_rank = r->node = -1;
	for (i = 0; i < sizeof(launchers) / sizeof(launchers[0]) && !l; i++) {
		if ((got = env_long(env, launchers[i].rank, &r->rank, err)) < 0)
			return -1;
		if (got)
			l = &launchers[i];
	}
	if (!l)
		return 0;
	r->launcher = l->launcher;
	/* srun starting an MPI program through PMIx or PMI: Slurm is the launcher */
	if (strcmp(l->launcher, "slurm") && strcmp(l->launcher, "openmpi") && env("SLURM_STEP_ID") &&
	    env("SLURM_PROCID") && !strcmp(env("SLURM_PROCID"), env(l->rank)))
		r->launcher = "slurm";
	if (first_long(env, sizes, &r->size, err) < 0 || first_long(env, locals, &r->local_rank, err) < 0)
		return -1;
	if (l->node && env_long(env, l->node, &r->node, err) < 0)
		return -1;
	if (!strcmp(r->launcher, "slurm") && env("SLURM_JOB_ID")) {
		const char *step = env("SLURM_STEP_ID");
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s%s%s", env("SLURM_JOB_ID"), step ? "." : "", step ? step : "");
		r->job_id = strbuf_detach(&sb, NULL);
		if (r->node < 0)
			env_long(env, "SLURM_NODEID", &r->node, err);
	} else if (l->job_id && env(l->job_id)) {
		r->job_id = xstrdup(env(l->job_id));
	}
	if (r->size >= 0 && r->rank >= r->size) {
		strbuf_addf(err, "%s: rank %ld is not below the job's size %ld", l->rank, r->rank, r->size);
		td_job_rank_release(r);
		return -1;
	}
	return 1;
}

void td_job_rank_release(struct td_job_rank *r)
{
	free(r->job_id);
	free(r->host);
	r->job_id = r->host = NULL;
}

/*
 * A host name as a rank directory's suffix: up to the first dot, every
 * byte other than a letter, digit, '-' or '_' made '_'.  A leading dot is
 * kept (as '_'): ".node" gives "_node", never the empty suffix of
 * "rank-00000." that the reader refuses; '/' cannot make a path, nor a
 * control character reach a terminal.
 */
char *td_job_host_name(const char *nodename)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = nodename;

	while (*p == '.')
		p++, strbuf_addch(&sb, '_');
	for (; *p && *p != '.'; p++) {
		unsigned char c = (unsigned char)*p;

		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			   c == '-' || c == '_';

		strbuf_addch(&sb, keep ? (char)c : '_');
	}
	if (!sb.len)
		strbuf_addstr(&sb, "localhost");
	return strbuf_detach(&sb, NULL);
}

/* This machine's name, as a rank directory's suffix. */
static char *short_hostname(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		return xstrdup("localhost");
	return td_job_host_name(u.nodename);
}

char *td_job_rank_dirname(const struct td_job_rank *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "rank-%05ld.%s", r->rank, r->host ? r->host : "localhost");
	return strbuf_detach(&sb, NULL);
}

static json_t *long_or_null(long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

json_t *td_job_rank_json(const struct td_job_rank *r)
{
	return json_pack("{s:s, s:o, s:I, s:o, s:o, s:o, s:s, s:s}",
			 "launcher", r->launcher, "job_id", r->job_id ? json_string(r->job_id) : json_null(),
			 "rank", (json_int_t)r->rank, "size", long_or_null(r->size),
			 "local_rank", long_or_null(r->local_rank), "node", long_or_null(r->node),
			 "host", r->host ? r->host : "localhost",
			 "scope", r->system_wide ? "system-wide" : "process");
}

const struct td_job_rank *td_job_current(void)
{
	return current_rank;
}

/* getenv with the signature td_job_rank_detect wants. */
static const char *process_env(const char *name)
{
	return getenv(name);
}

int td_job_wanted(struct td_job_rank *r)
{
	struct strbuf err = STRBUF_INIT;
	const char *off = getenv("TDPERF_JOB");
	int got;

	memset(r, 0, sizeof(*r));
	if (current_rank || (off && !strcmp(off, "0")))
		return 0; /* inside td_job_record, or switched off */
	got = td_job_rank_detect(r, process_env, &err);
	if (got < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	strbuf_release(&err);
	if (got)
		r->host = short_hostname();
	return got;
}

/*
 * The job's meta.json, written by rank 0 only (docs/job-format.md): what
 * every rank shares.  Written by rename, so a reader sees all or nothing.
 */
static int write_job_meta(const char *job, const struct td_job_rank *r, int argc, char **argv,
			  int first_cmd)
{
	json_t *meta, *cl = json_array(), *wl = json_array();
	char *path = td_path_join(job, "meta.json"), *text, *now = td_iso_time_now();
	int i, ret;

	json_array_append_new(cl, json_string("tdperf"));
	for (i = 0; i < argc; i++)
		json_array_append_new(cl, json_string(argv[i]));
	for (i = first_cmd; i < argc; i++)
		json_array_append_new(wl, json_string(argv[i]));
	meta = json_pack("{s:s, s:i, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:s}",
			 "format", "tdperf-job", "version", TD_JOB_FORMAT_VERSION,
			 "tdperf_version", PACKAGE_VERSION, "kind", "job", "launcher", r->launcher,
			 "job_id", r->job_id ? json_string(r->job_id) : json_null(),
			 "ranks", long_or_null(r->size), "command_line", cl, "workload", wl,
			 "start_time", now, "rank0_host", r->host);
	text = json_dumps(meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	ret = td_write_file_atomic(path, text, strlen(text));
	if (ret < 0)
		error("%s: %s", path, strerror(errno));
	free(text);
	free(path);
	free(now);
	json_decref(meta);
	return ret;
}

/*
 * A directory of the job (JOB, or the --gather one) and the directory that
 * holds it must be ours or root's and writable by no other user (sticky
 * /tmp excepted): in one another user controls, they could swap what a
 * rank writes, or meta.json, for links to files of ours.
 */
static int check_job_place(const char *dir)
{
	if (td_file_exists(dir) && td_check_dir_trusted(dir) < 0)
		return -1;
	if (td_check_parent_trusted(dir) < 0)
		return -1;
	if (td_mkdir_p(dir) < 0 && errno != EEXIST)
		return error("%s: cannot create the job directory: %s", dir, strerror(errno));
	return td_check_dir_trusted(dir);
}

/*
 * A job directory must not be an ordinary run directory (a single-process
 * recording of the same name): its files would mix with the ranks'.
 */
static int check_job_dir(const char *job)
{
	char *mp;
	json_t *m;
	const char *fmt;
	int ret = 0;

	if (check_job_place(job) < 0)
		return -1;
	mp = td_path_join(job, "meta.json");
	m = td_file_exists(mp) ? json_load_file(mp, 0, NULL) : NULL;
	fmt = m ? json_string_value(json_object_get(m, "format")) : NULL;
	if (fmt && strcmp(fmt, "tdperf-job"))
		ret = error("%s: a run directory of one process, not a job directory: "
			    "record the job with another -o", job);
	json_decref(m);
	free(mp);
	return ret;
}

/*
 * Copy the regular file 'name' of directory dirfd to 'dst'.  Anything else
 * (a symbolic link, a FIFO, a device, a directory) is not copied: a link
 * could name a file only root may read, and the copy would publish it.
 */
static int copy_regular(int dirfd, const char *from, const char *name, const char *dst)
{
	struct strbuf sb = STRBUF_INIT;
	int fd = td_open_regular_at(dirfd, name), ret = 0;
	struct stat st;

	if (fd < 0) {
		if (errno != ELOOP && errno != EISDIR && errno != EINVAL)
			return -1;
		if (errno != EISDIR) /* a run directory's subdirectories are not gathered */
			warning("%s/%s: %s, not copied", from, name,
				errno == ELOOP ? "a symbolic link" : "not a regular file");
		return 0;
	}
	/* a private file (perf.data is 0600) stays private in the shared copy */
	if (fstat(fd, &st) < 0 || td_read_fd(&sb, fd) < 0 ||
	    td_write_file_mode(dst, sb.buf, sb.len, st.st_mode & 0777) < 0)
		ret = -1;
	close(fd);
	strbuf_release(&sb);
	return ret;
}

/*
 * Copy the regular files of the rank directory 'from' into directory
 * 'to': only when 'from' is still the directory this process published
 * there (a directory put in its place holds what someone else chose).
 * 0, or -1 (errno set, ESTALE for a replaced directory).
 */
static int copy_files(const char *from, const char *to)
{
	uint64_t dev, ino;
	struct dirent *e;
	struct stat st;
	int fd, ret = 0;
	DIR *d;

	if (!td_rundir_published(from, &dev, &ino))
		return errno = ESTALE, -1;
	fd = open(from, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino) {
		close(fd);
		return errno = ESTALE, -1;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while (!ret && (e = readdir(d)) != NULL) {
		char *dst;

		if (e->d_name[0] == '.')
			continue;
		dst = td_path_join(to, e->d_name);
		ret = copy_regular(dirfd(d), from, e->d_name, dst);
		free(dst);
	}
	closedir(d);
	return ret;
}

/* Copy the job's meta.json (a regular file, never through a link) into GATHER. */
static int copy_job_meta(const char *job, const char *gather)
{
	char *from = td_path_join(job, "meta.json"), *to = td_path_join(gather, "meta.json");
	int dirfd = open(job, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd = -1, ret = 0;
	struct strbuf sb = STRBUF_INIT;

	if (dirfd < 0 || (fd = td_open_regular_at(dirfd, "meta.json")) < 0 || td_read_fd(&sb, fd) < 0 ||
	    td_write_file_atomic(to, sb.buf, sb.len) < 0)
		ret = error("--gather: cannot copy %s to %s: %s", from, to,
			    errno == ELOOP ? "a symbolic link" : errno == EINVAL ? "not a regular file" :
			    strerror(errno));
	if (fd >= 0)
		close(fd);
	if (dirfd >= 0)
		close(dirfd);
	strbuf_release(&sb);
	free(from);
	free(to);
	return ret;
}

/*
 * Copy the rank's files into the gathered job directory GATHER (flat
 * files only: a recorded run directory has no subdirectories), through a
 * temporary directory renamed at the end, like every run directory.
 */
static int gather_rank(const char *rankdir, const char *gather, const char *name,
		       const char *job, long rank)
{
	struct td_rundir rd;
	char *dest = td_path_join(gather, name);
	int ret = 0;

	if (check_job_place(gather) < 0)
		ret = -1;
	else if (td_rundir_begin(&rd, dest) < 0)
		ret = error("--gather %s: %s", dest, strerror(errno));
	else if (copy_files(rankdir, rd.tmp_path) < 0 || td_rundir_commit(&rd) < 0) {
		ret = error("--gather: cannot copy %s to %s: %s", rankdir, dest,
			    errno == ESTALE ? "it is no longer the directory this rank recorded" :
			    strerror(errno));
		td_rundir_abort(&rd);
	}
	if (!ret && rank == 0)
		ret = copy_job_meta(job, gather);
	free(dest);
	return ret;
}

int td_job_record(const struct td_job_command *c, struct td_job_rank *r,
		  int (*record)(int argc, char **argv), void (*summarise)(const char *rankdir))
{
	struct strvec sub = STRVEC_INIT;
	char *name, *rankdir;
	uint64_t dev, ino;
	int i, ret;

	if (check_job_dir(c->job) < 0)
		return 2;
	if (r->rank == 0 && write_job_meta(c->job, r, c->argc, c->argv, c->first_cmd) < 0)
		return 2;
	name = td_job_rank_dirname(r);
	rankdir = td_path_join(c->job, name);
	for (i = 0; c->rank_argv[i]; i++)
		strvec_push(&sub, c->rank_argv[i]);
	strvec_push(&sub, "-o");
	strvec_push(&sub, rankdir);
	strvec_push(&sub, "--");
	for (i = c->first_cmd; i < c->argc; i++)
		strvec_push(&sub, c->argv[i]);
	current_rank = r;
	ret = record((int)sub.nr, sub.v);
	current_rank = NULL;
	if (summarise && td_is_dir(rankdir))
		summarise(rankdir);
	if (c->gather && td_rundir_published(rankdir, &dev, &ino) &&
	    gather_rank(rankdir, c->gather, name, c->job, r->rank) < 0 && !ret)
		ret = 2;
	free(rankdir);
	free(name);
	strvec_clear(&sub);
	return ret;
}
