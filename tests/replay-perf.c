/*
 * replay-perf: a test double for perf, chosen with TDPERF_PERF, that
 * answers 'perf stat' with counts taken from a published real perf
 * output instead of measuring.  It lets the hardware-counter path of
 * 'tdperf record' (command construction, groups, output parsing, the
 * whole report) run end to end on machines without a PMU.
 *
 *   TDPERF_REPLAY_FIXTURE=FILE   the perf stat output to replay (required)
 *   TDPERF_REPLAY_SESSION=N      which session of the file (default 1)
 *   TDPERF_REPLAY_LOG=FILE       append each command line it was given
 *
 * It understands what tdperf asks of perf:
 *   perf --version
 *   perf stat -x, --no-big-num -o FILE -e EVENTS ... -p PID --control fd:C,A -D -1
 *     (waits for "enable", answers "ack", writes its output on SIGINT or
 *     when PID is gone)
 *   perf stat -x, ... -o FILE -e EVENTS -- CMD...
 *     (runs CMD for its exit status, then writes its output)
 * Every event of EVENTS is looked up by name ("name=" term, alias or
 * plain name) in the fixture's totals; one it lacks is "<not counted>".
 * The output is perf's CSV; its header says that the counts are replayed.
 */
#include "parse/parse.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REPLAY_VERSION "6.1.0"

struct request {
	const char *output;
	struct strbuf events;    /* all -e arguments, comma-joined */
	int ctl_fd, ack_fd;
	long pid;
	char sep;
	char **cmd;
};

static void log_command(int argc, char **argv)
{
	const char *path = getenv("TDPERF_REPLAY_LOG");
	FILE *f;
	int i;

	if (!path || !(f = fopen(path, "a")))
		return;
	for (i = 0; i < argc; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	fputc('\n', f);
	fclose(f);
}

/* The name perf prints for one event of an -e list. */
static void event_display_name(const char *tok, size_t len, struct strbuf *out)
{
	const char *slash = memchr(tok, '/', len);
	const char *p;

	strbuf_reset(out);
	if (!slash) {
		strbuf_add(out, tok, len);
		return;
	}
	for (p = slash + 1; p < tok + len; p++) {
		if ((p == slash + 1 || p[-1] == ',') && !strncmp(p, "name=", 5)) {
			const char *v = p + 5;

			if (*v == '\'')  /* name='X:c1': perf prints X:c1 */
				strbuf_add(out, v + 1, strcspn(v + 1, "'"));
			else
				strbuf_add(out, v, strcspn(v, ",/"));
			return;
		}
	}
	/* pmu/alias/ without '=': perf prints the alias, with its PMU on hybrid CPUs */
	if (!memchr(slash + 1, '=', (size_t)(tok + len - slash - 1)) &&
	    (!strncmp(tok, "cpu_core/", 9) || !strncmp(tok, "cpu_atom/", 9))) {
		strbuf_add(out, tok, len);
		return;
	}
	if (!memchr(slash + 1, '=', (size_t)(tok + len - slash - 1))) {
		const char *end = memchr(slash + 1, '/', (size_t)(tok + len - slash - 1));

		strbuf_add(out, slash + 1, end ? (size_t)(end - slash - 1) : (size_t)(tok + len - slash - 1));
		return;
	}
	strbuf_add(out, tok, len);
}

/* Split "a,{b,cpu/x=1,y=2/},c" into events (braces and slashes respected). */
static size_t split_events(const char *list, char ***out)
{
	size_t n = 0, alloc = 0;
	const char *start = list, *p;
	int in_slash = 0;

	*out = NULL;
	for (p = list;; p++) {
		if (*p == '/')
			in_slash = !in_slash;
		if (*p == '\0' || ((*p == ',' || *p == '{' || *p == '}') && !in_slash)) {
			if (p > start) {
				TD_GROW(*out, alloc, n + 1);
				(*out)[n++] = xstrndup(start, (size_t)(p - start));
			}
			start = p + 1;
			if (!*p)
				break;
		}
	}
	return n;
}

static const struct td_scope *fixture_totals(struct td_stat_file **keep)
{
	const char *path = getenv("TDPERF_REPLAY_FIXTURE");
	const char *sess = getenv("TDPERF_REPLAY_SESSION");
	struct strbuf err = STRBUF_INIT;
	struct td_stat_file *f;
	size_t s = sess ? (size_t)atoi(sess) : 1;

	if (!path)
		die("replay-perf: TDPERF_REPLAY_FIXTURE is not set");
	f = td_stat_parse_file(path, &err);
	if (!f)
		die("replay-perf: %s", err.buf);
	if (s < 1 || s > f->nr_sessions || !f->sessions[s - 1].nr_scopes)
		die("replay-perf: %s has no session %zu", path, s);
	*keep = f;
	return &f->sessions[s - 1].scopes[0];
}

static void write_output(const struct request *rq)
{
	struct td_stat_file *keep = NULL;
	const struct td_scope *sc = fixture_totals(&keep);
	struct strbuf out = STRBUF_INIT, name = STRBUF_INIT;
	char **ev;
	size_t n, i;
	time_t now = time(NULL);
	char date[64];
	FILE *f;

	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", localtime(&now));
	strbuf_addf(&out, "# started on %s\n", date);
	strbuf_addf(&out, "# tdperf replay-perf: counts replayed from %s, not measured\n\n",
		    getenv("TDPERF_REPLAY_FIXTURE"));
	n = split_events(rq->events.buf, &ev);
	for (i = 0; i < n; i++) {
		const struct td_count *c;

		event_display_name(ev[i], strlen(ev[i]), &name);
		c = td_scope_find(sc, NULL, name.buf);
		if (!c || c->status != TD_COUNT_OK) {
			strbuf_addf(&out, "<not counted>%c%c%s%c0%c100.00%c%c\n", rq->sep, rq->sep,
				    name.buf, rq->sep, rq->sep, rq->sep, rq->sep);
			continue;
		}
		{
			double pct = isnan(c->running_pct) ? 100.0 : c->running_pct;

			strbuf_addf(&out, "%.0f%c%s%c%s%c%.0f%c%.2f%c%c\n", c->value, rq->sep,
				    c->unit ? c->unit : "", rq->sep, name.buf, rq->sep,
				    1e9 * pct / 100.0, rq->sep, pct, rq->sep, rq->sep);
		}
	}
	f = rq->output ? fopen(rq->output, "w") : stderr;
	if (!f)
		die("replay-perf: %s: %s", rq->output, strerror(errno));
	fputs(out.buf, f);
	if (f != stderr)
		fclose(f);
	for (i = 0; i < n; i++)
		free(ev[i]);
	free(ev);
	strbuf_release(&out);
	strbuf_release(&name);
	td_stat_file_free(keep);
}

/* --control: wait for "enable", acknowledge, wait for SIGINT or the target's end. */
static void controlled(const struct request *rq)
{
	char buf[256];
	size_t got = 0;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	while (got < sizeof(buf) - 1) {
		ssize_t r = read(rq->ctl_fd, buf + got, sizeof(buf) - 1 - got);

		if (r <= 0)
			exit(1);
		got += (size_t)r;
		buf[got] = '\0';
		if (strstr(buf, "enable"))
			break;
	}
	fputs("Events enabled\n", stderr);
	if (write(rq->ack_fd, "ack\n", 5) < 0)
		exit(1);
	for (;;) {
		struct timespec tick = { 0, 100 * 1000 * 1000 };
		int sig = sigtimedwait(&set, NULL, &tick);

		if (sig == SIGINT || sig == SIGTERM)
			break;
		if (rq->pid > 0 && kill((pid_t)rq->pid, 0) < 0 && errno == ESRCH)
			break;
	}
}

static int run_command(char **cmd)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		die("replay-perf: fork: %s", strerror(errno));
	if (!pid) {
		execvp(cmd[0], cmd);
		fprintf(stderr, "Workload failed: %s\n", strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 255;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 0;
}

static int cmd_stat(int argc, char **argv)
{
	struct request rq = { 0 };
	int i, status = 0;

	strbuf_init(&rq.events, 0);
	rq.ctl_fd = rq.ack_fd = -1;
	rq.sep = ' ';
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			rq.cmd = argv + i + 1;
			break;
		} else if (!strncmp(a, "-x", 2)) {
			rq.sep = a[2] ? a[2] : (i + 1 < argc ? argv[++i][0] : ',');
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			rq.output = argv[++i];
		} else if (!strcmp(a, "-e") && i + 1 < argc) {
			if (rq.events.len)
				strbuf_addch(&rq.events, ',');
			strbuf_addstr(&rq.events, argv[++i]);
		} else if (!strcmp(a, "-p") && i + 1 < argc) {
			rq.pid = atol(argv[++i]);
		} else if (!strcmp(a, "--control") && i + 1 < argc) {
			if (sscanf(argv[++i], "fd:%d,%d", &rq.ctl_fd, &rq.ack_fd) != 2)
				die("replay-perf: --control %s: only fd:CTL,ACK is replayed", argv[i]);
		} else if (!strcmp(a, "-D") || !strcmp(a, "-C") || !strcmp(a, "-r") ||
			   !strcmp(a, "-t") || !strcmp(a, "-G")) {
			i++;
		} else if (!strncmp(a, "-I", 2)) {
			die("replay-perf: interval mode (-I) is not replayed");
		} else if (!strcmp(a, "record") || !strcmp(a, "report")) {
			die("replay-perf: 'perf stat %s' is not replayed", a);
		}
	}
	if (!rq.events.len)
		die("replay-perf: no -e events given");
	if (rq.ctl_fd >= 0)
		controlled(&rq);
	else if (rq.cmd && rq.cmd[0])
		status = run_command(rq.cmd);
	else
		die("replay-perf: needs --control fd:C,A or a command after --");
	write_output(&rq);
	strbuf_release(&rq.events);
	return status;
}

int main(int argc, char **argv)
{
	log_command(argc, argv);
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))) {
		printf("perf version %s (tdperf replay-perf: replays %s, measures nothing)\n",
		       REPLAY_VERSION, getenv("TDPERF_REPLAY_FIXTURE") ? getenv("TDPERF_REPLAY_FIXTURE")
								: "no fixture");
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "stat"))
		return cmd_stat(argc - 1, argv + 1);
	fprintf(stderr, "replay-perf: only 'perf stat' and 'perf --version' are replayed, not '%s'\n",
		argc >= 2 ? argv[1] : "");
	return 129;
}
