/*
 * Running gnuplot on the chart scripts, and preparing its SVG for inlining
 * in HTML.  gnuplot is found at run time (td_gnuplot_program(): $TDPERF_GNUPLOT
 * or PATH) and started with fork/exec, never through a shell, in the chart
 * directory so that the scripts' relative file names resolve.
 */
#include "config.h"
#include "report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Run 'gnuplot -e fmt="FORMAT" SCRIPT' in dir.  Returns 0, or -1 with err
 * holding what gnuplot printed (its first lines) or why it did not start.
 */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *script, const char *format,
		       struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	char fmt_arg[32];
	int pipefd[2], status;
	pid_t pid;
	char buf[4096];
	ssize_t n;

	snprintf(fmt_arg, sizeof(fmt_arg), "fmt=\"%s\"", format);
	if (pipe(pipefd) < 0) {
		strbuf_addf(err, "cannot create a pipe for gnuplot: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		strbuf_addf(err, "cannot start gnuplot: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		int devnull = open("/dev/null", O_RDWR);

		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 1);
		}
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		if (chdir(dir) < 0) {
			dprintf(2, "cannot enter %s: %s\n", dir, strerror(errno));
			_exit(127);
		}
		execlp(gnuplot, gnuplot, "-e", fmt_arg, script, (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (out.len < 4000)
			strbuf_add(&out, buf, n);
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	strbuf_trim(&out);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char *nl;

		/* gnuplot's message spans a few lines (the script line, a caret, the error) */
		for (nl = out.buf; (nl = strchr(nl, '\n')); )
			*nl = ' ';
		strbuf_addf(err, "gnuplot failed on %s/%s: %s", dir, script,
			    out.len ? out.buf : "no message");
		strbuf_release(&out);
		return -1;
	}
	if (out.len && td_verbose)
		note("gnuplot on %s: %s", script, out.buf);
	strbuf_release(&out);
	return 0;
}

int td_charts_render(const struct td_chart_list *charts, const char *dir, const char *format,
		     struct strbuf *err)
{
	const char *program = td_gnuplot_program();
	char *gnuplot = td_which(program);
	size_t i;
	int ret = 0;

	if (!gnuplot) {
		strbuf_addf(err, "gnuplot not found ('%s'; install gnuplot-nox or set TDPERF_GNUPLOT)",
			    program);
		return 1;
	}
	for (i = 0; i < charts->nr && !ret; i++) {
		struct strbuf script = STRBUF_INIT;

		strbuf_addf(&script, "%s.gp", charts->items[i]->stem);
		ret = run_gnuplot(gnuplot, dir, script.buf, format, err);
		strbuf_release(&script);
	}
	free(gnuplot);
	return ret;
}

/* Does s (at an attribute value's opening quote) start an id reference we rewrite? */
static const char *const id_attrs[] = { "id=\"", "id='", "href=\"#", "href='#", "url(#" };

void td_svg_inline(struct strbuf *out, const char *svg, const char *id_prefix)
{
	const char *p = strstr(svg, "<svg");
	size_t k;

	if (!p)
		return;
	strbuf_addstr(out, "<svg class=\"chart\" role=\"img\"");
	p += 4;
	while (*p) {
		int matched = 0;

		for (k = 0; k < TD_ARRAY_SIZE(id_attrs); k++) {
			size_t l = strlen(id_attrs[k]);

			/* attribute names start after a space or a quote-less boundary */
			if (!strncmp(p, id_attrs[k], l) && (k == 4 || p[-1] == ' ' || p[-1] == ':' ||
							   p[-1] == '\t' || p[-1] == '\n')) {
				strbuf_add(out, p, l);
				strbuf_addstr(out, id_prefix);
				strbuf_addch(out, '-');
				p += l;
				matched = 1;
				break;
			}
		}
		if (!matched)
			strbuf_addch(out, *p++);
	}
}
