/*
 * Running a workload under perf.
 *
 * tdperf, not perf, is the workload's parent: it forks the workload held
 * on a pipe, starts each perf attached to it ("-p PID") with its events
 * disabled ("-D -1") and a control channel ("--control fd:CTL,ACK"),
 * enables every perf and waits for its acknowledgement, and only then lets
 * the workload exec.  So every perf counts the same, whole execution; the
 * workload's exit status and terminating signal come from waitpid()
 * itself (perf stat reports a workload killed by a signal as exit 0); and
 * several perf processes (counting and sched tracepoints) watch one run.
 *
 * perf runs in its own process group so that Ctrl-C on the terminal goes
 * to the workload and to us, not to perf: perf keeps counting until the
 * workload is gone, then we stop it with SIGINT, on which perf writes
 * complete output and exits.  Signals are taken synchronously with
 * sigwaitinfo(), so no handler races with waitpid().
 */
#define _GNU_SOURCE
#include "collect/run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted_flag;

int td_run_interrupted(void)
{
	return interrupted_flag;
}

static void note_interrupt(int sig)
{
	(void)sig;
	interrupted_flag = 1;
}

/*
 * Outside a run (between the runs of --no-multiplex, while the run
 * directory is written), SIGINT/SIGTERM only set a flag: what was
 * measured is still written out completely.
 */
static void install_interrupt_handlers(void)
{
	static int done;
	struct sigaction sa;

	if (done)
		return;
	done = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note_interrupt;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

char *td_iso_time_now(void)
{
	struct timespec ts;
	struct tm tm;
	char buf[64];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void td_quote_argv(struct strbuf *sb, char *const argv[])
{
	size_t i;

	for (i = 0; argv[i]; i++) {
		const char *a = argv[i];

		if (i)
			strbuf_addch(sb, ' ');
		if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_./=:,+@%") == strlen(a)) {
			strbuf_addstr(sb, a);
			continue;
		}
		strbuf_addch(sb, '\'');
		for (; *a; a++) {
			if (*a == '\'')
				strbuf_addstr(sb, "'\\''");
			else
				strbuf_addch(sb, *a);
		}
		strbuf_addch(sb, '\'');
	}
}

void td_last_line(const char *path, struct strbuf *sb)
{
	struct strbuf all = STRBUF_INIT;
	char *end, *start, *err;

	if (td_read_file(&all, path) < 0) {
		strbuf_release(&all);
		return;
	}
	strbuf_trim(&all);
	/* perf ends some errors with its usage text: the error line says more */
	err = strstr(all.buf, "rror");
	if (err) {
		start = err;
		while (start > all.buf && start[-1] != '\n')
			start--;
		end = strchr(err, '\n');
		strbuf_add(sb, start, end ? (size_t)(end - start) : strlen(start));
		strbuf_release(&all);
		return;
	}
	if (strstr(all.buf, "Usage:")) {
		/* "Problems finding threads of monitor" then perf's usage: the first line */
		strbuf_add(sb, all.buf, strcspn(all.buf, "\n"));
		strbuf_release(&all);
		return;
	}
	end = all.buf + all.len;
	start = end;
	while (start > all.buf && start[-1] != '\n')
		start--;
	strbuf_add(sb, start, (size_t)(end - start));
	strbuf_release(&all);
}

/* Write all of buf to fd, retrying on EINTR. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * In a child: undo what the parent set for itself (blocked signals,
 * ignored SIGPIPE) so that the exec'd program starts as from a shell.
 */
static void child_reset_signals(void)
{
	sigset_t none;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * Fork the workload, held until *release_fd is closed.  Its exec failure
 * (errno) comes back through a close-on-exec pipe, *exec_fd.
 */
static pid_t fork_held_workload(char *const *argv, int *release_fd, int *exec_fd)
{
	int hold[2], report[2];
	pid_t pid;

	if (pipe(hold) < 0)
		return -1;
	if (pipe2(report, O_CLOEXEC) < 0) {
		close(hold[0]);
		close(hold[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(hold[0]);
		close(hold[1]);
		close(report[0]);
		close(report[1]);
		return -1;
	}
	if (!pid) {
		char c;
		int err;

		close(hold[1]);
		close(report[0]);
		child_reset_signals();
		/* wait until every perf is attached and enabled */
		while (read(hold[0], &c, 1) < 0 && errno == EINTR)
			;
		close(hold[0]);
		execvp(argv[0], argv);
		err = errno;
		if (write(report[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(err == ENOENT ? 127 : 126);
	}
	close(hold[0]);
	close(report[1]);
	/* perf must not inherit it, or the workload would never see EOF */
	fcntl(hold[1], F_SETFD, FD_CLOEXEC);
	*release_fd = hold[1];
	*exec_fd = report[0];
	return pid;
}

/* Start one perf with its control fds, stderr to its file. */
static int start_job(struct td_perf_job *job, const struct td_run_spec *spec, pid_t target,
		     struct strbuf *err)
{
	int ctl[2], ack[2];
	struct strbuf pidarg = STRBUF_INIT, ctlarg = STRBUF_INIT;
	const char **argv;
	size_t n = 0, i;
	pid_t parent;

	for (n = 0; job->argv[n]; n++)
		;
	argv = xcalloc(n + 8, sizeof(*argv));
	for (i = 0; i < n; i++)
		argv[i] = job->argv[i];
	if (pipe(ctl) < 0 || pipe(ack) < 0) {
		free(argv);
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	if (target > 0 && !spec->system_wide) {
		strbuf_addf(&pidarg, "%ld", (long)target);
		argv[n++] = "-p";
		argv[n++] = pidarg.buf;
	}
	/* perf's side of the pipes keeps its numbers across exec */
	strbuf_addf(&ctlarg, "fd:%d,%d", ctl[0], ack[1]);
	argv[n++] = "--control";
	argv[n++] = ctlarg.buf;
	argv[n++] = "-D";
	argv[n++] = "-1";
	argv[n] = NULL;

	parent = getpid();
	job->pid = fork();
	if (job->pid < 0) {
		strbuf_addf(err, "cannot fork: %s", strerror(errno));
		goto fail;
	}
	if (!job->pid) {
		int fd = open(job->stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int devnull = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		/*
		 * perf runs in its own process group (a terminal's ^C reaches
		 * tdperf only); should tdperf be killed outright (SIGKILL),
		 * perf must not count on for ever.  Its output would only land
		 * in the dead run's temporary directory, so it is killed too,
		 * at once (on SIGTERM perf record goes on flushing for seconds).
		 */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		child_reset_signals();
		close(ctl[1]);
		close(ack[0]);
		if (devnull >= 0)
			dup2(devnull, 0);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], (char *const *)argv); /* POSIX: execvp does not write argv */
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(job->pid, job->pid);
	close(ctl[0]);
	close(ack[1]);
	fcntl(ctl[1], F_SETFD, FD_CLOEXEC);
	fcntl(ack[0], F_SETFD, FD_CLOEXEC);
	job->ctl_fd = ctl[1];
	job->ack_fd = ack[0];
	job->started = 1;
	free(argv);
	strbuf_release(&pidarg);
	strbuf_release(&ctlarg);
	return 0;
fail:
	close(ctl[0]);
	close(ctl[1]);
	close(ack[0]);
	close(ack[1]);
	free(argv);
	strbuf_release(&pidarg);
	strbuf_release(&ctlarg);
	return -1;
}

/*
 * Enable a perf's events and wait for its "ack".  EOF means perf gave up
 * (bad event, no permission): its stderr says why.
 */
static int enable_job(struct td_perf_job *job, struct strbuf *err)
{
	char buf[64];
	size_t got = 0, len;

	signal(SIGPIPE, SIG_IGN);
	if (write_all(job->ctl_fd, "enable\n", 7) < 0)
		goto died;
	while (got < sizeof(buf) - 1) {
		ssize_t n = read(job->ack_fd, buf + got, sizeof(buf) - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto died;
		got += (size_t)n;
		buf[got] = '\0';
		if (strstr(buf, "ack"))
			return 0;
	}
died:
	strbuf_addf(err, "%s did not start: ", job->argv[0]);
	len = err->len;
	td_last_line(job->stderr_path, err);
	if (err->len == len) {
		/* it printed nothing: its exit says what little there is */
		int status;

		if (waitpid(job->pid, &status, 0) == job->pid) {
			job->pid = 0;
			if (WIFEXITED(status))
				strbuf_addf(err, "it exited with status %d without a message", WEXITSTATUS(status));
			else if (WIFSIGNALED(status))
				strbuf_addf(err, "it was killed by signal %d", WTERMSIG(status));
		} else {
			strbuf_addstr(err, "it ended without a message");
		}
	}
	return -1;
}

/* Stop a perf (SIGINT makes it write its output) and reap it. */
static void stop_job(struct td_perf_job *job)
{
	if (!job->started)
		return;
	if (job->pid > 0) {
		kill(job->pid, SIGINT);
		while (waitpid(job->pid, &job->status, 0) < 0 && errno == EINTR)
			;
		job->pid = 0;
	}
	if (job->ctl_fd >= 0)
		close(job->ctl_fd);
	if (job->ack_fd >= 0)
		close(job->ack_fd);
	job->ctl_fd = job->ack_fd = -1;
	job->started = 0;
}

static void kill_workload(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* A -p target is gone when it no longer exists or is a zombie. */
static int target_alive(pid_t pid)
{
	struct strbuf path = STRBUF_INIT, stat = STRBUF_INIT;
	const char *paren;
	int alive;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return 0;
	strbuf_addf(&path, "/proc/%ld/stat", (long)pid);
	alive = td_read_file(&stat, path.buf) == 0;
	paren = alive ? strrchr(stat.buf, ')') : NULL;
	if (paren && (paren[1] == ' ') && (paren[2] == 'Z' || paren[2] == 'X'))
		alive = 0;
	strbuf_release(&path);
	strbuf_release(&stat);
	return alive;
}

/*
 * Wait for the end: the workload's exit (when we run one), the exit of
 * the -p target, or SIGINT/SIGTERM.  A signal sent to tdperf alone (kill,
 * not the terminal) is forwarded to the workload; a second one kills it.
 */
static void wait_for_end(const struct td_run_spec *spec, pid_t workload, sigset_t *set,
			 struct td_run_result *res)
{
	int forwarded = 0;

	for (;;) {
		siginfo_t si;
		struct timespec tick = { 0, 200 * 1000 * 1000 };
		int sig, status;

		if (workload > 0) {
			pid_t r = waitpid(workload, &status, WNOHANG);

			if (r == workload) {
				if (WIFEXITED(status)) {
					res->exited = 1;
					res->exit_status = WEXITSTATUS(status);
				} else if (WIFSIGNALED(status)) {
					res->signo = WTERMSIG(status);
				}
				return;
			}
		} else if (spec->attach_pid > 0 && !target_alive(spec->attach_pid)) {
			return;
		}
		sig = sigtimedwait(set, &si, &tick);
		if (spec->tick)
			spec->tick(spec->tick_ctx);
		if (sig != SIGINT && sig != SIGTERM && sig != SIGHUP)
			continue;
		res->interrupted = 1;
		interrupted_flag = 1;
		if (workload <= 0)
			return;
		if (forwarded)
			kill(workload, SIGKILL);
		else if (si.si_code != SI_KERNEL)
			kill(workload, sig); /* the terminal already sent it to the workload */
		forwarded++;
	}
}

int td_run_workload(struct td_run_spec *spec, struct td_run_result *res, struct strbuf *err)
{
	sigset_t set, old;
	pid_t workload = 0, target;
	int release_fd = -1, exec_fd = -1, exec_errno = 0, ret = 0;
	size_t i;
	double t0;

	memset(res, 0, sizeof(*res));
	install_interrupt_handlers();
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);

	for (i = 0; i < spec->nr_jobs; i++) {
		spec->jobs[i].ctl_fd = spec->jobs[i].ack_fd = -1;
		spec->jobs[i].started = 0;
	}
	if (spec->workload) {
		workload = fork_held_workload(spec->workload, &release_fd, &exec_fd);
		if (workload < 0) {
			strbuf_addf(err, "cannot fork: %s", strerror(errno));
			ret = -1;
			goto out;
		}
	}
	target = workload > 0 ? workload : spec->attach_pid;
	for (i = 0; i < spec->nr_jobs; i++) {
		if (start_job(&spec->jobs[i], spec, target, err) < 0 ||
		    enable_job(&spec->jobs[i], err) < 0) {
			ret = -1;
			break;
		}
	}
	if (ret < 0) {
		if (workload > 0) {
			kill_workload(workload); /* before release: it must never run unmeasured */
			close(release_fd);
			close(exec_fd);
		}
		for (i = 0; i < spec->nr_jobs; i++)
			stop_job(&spec->jobs[i]);
		goto out;
	}

	res->start_time = td_iso_time_now();
	t0 = now_seconds();
	if (workload > 0) {
		ssize_t n;

		close(release_fd);
		/* EOF: exec succeeded (the pipe is close-on-exec) */
		while ((n = read(exec_fd, &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
			;
		if (n != (ssize_t)sizeof(exec_errno))
			exec_errno = 0;
		close(exec_fd);
	}
	wait_for_end(spec, workload, &set, res);
	res->seconds = now_seconds() - t0;
	res->end_time = td_iso_time_now();
	res->exec_errno = exec_errno;
	for (i = 0; i < spec->nr_jobs; i++)
		stop_job(&spec->jobs[i]);
out:
	/* take pending signals here: SIGCHLD is spent, SIGINT/SIGTERM mark the run */
	{
		struct timespec zero = { 0, 0 };
		int sig;

		while ((sig = sigtimedwait(&set, NULL, &zero)) > 0)
			if (sig != SIGCHLD)
				res->interrupted = interrupted_flag = 1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void td_run_result_release(struct td_run_result *res)
{
	free(res->start_time);
	free(res->end_time);
	res->start_time = res->end_time = NULL;
}

const char *td_signal_name(int signo)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(signo);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", signo);
	return buf;
}
