/*
 * Running gnuplot on the chart scripts, and preparing its SVG for inlining
 * in HTML.  gnuplot is found at run time (td_gnuplot_program(): $TDPERF_GNUPLOT
 * or PATH) and started with fork/exec, never through a shell, in the chart
 * directory so that the scripts' relative file names resolve.
 */
#include "config.h"
#include "render/render.h"
#include "render/chart.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Read gnuplot's stdout (the image) into 'img' and its stderr (messages,
 * the first 4000 bytes kept) into 'msg' until both close; poll, so that
 * neither pipe can fill while the other is read.
 */
static void read_gnuplot(int out_fd, int err_fd, struct strbuf *img, struct strbuf *msg)
{
	struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	char buf[65536];
	int open_fds = 2;

	while (open_fds) {
		int i;

		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(fds[i].fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				fds[i].fd = -1;
				open_fds--;
			} else if (i == 0) {
				strbuf_add(img, buf, n);
			} else if (msg->len < 4000) {
				strbuf_add(msg, buf, n);
			}
		}
	}
}

/*
 * Run 'gnuplot -e fmt="FORMAT"; to_stdout=1 STEM.gp' in dir and write the
 * image it prints as dir/STEM.FORMAT through td_write_file_atomic(): gnuplot
 * itself exits 0 after a failed write (a full disk left 0-byte SVGs), so the
 * file is written here, checked.  Returns 0, or -1 with err holding what
 * gnuplot printed (its first lines), why it did not start, or the write error.
 */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *stem, const char *format,
		       struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT, img = STRBUF_INIT, script = STRBUF_INIT, name = STRBUF_INIT;
	char fmt_arg[64];
	int out_pipe[2], err_pipe[2], status, ret = 0;
	pid_t pid;

	snprintf(fmt_arg, sizeof(fmt_arg), "fmt=\"%s\"; to_stdout=1", format);
	strbuf_addf(&script, "%s.gp", stem);
	if (pipe(out_pipe) < 0) {
		strbuf_addf(err, "cannot create a pipe for gnuplot: %s", strerror(errno));
		return -1;
	}
	if (pipe(err_pipe) < 0) {
		strbuf_addf(err, "cannot create a pipe for gnuplot: %s", strerror(errno));
		close(out_pipe[0]);
		close(out_pipe[1]);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(out_pipe[0]);
		close(out_pipe[1]);
		close(err_pipe[0]);
		close(err_pipe[1]);
		strbuf_addf(err, "cannot start gnuplot: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(out_pipe[1], 1);
		dup2(err_pipe[1], 2);
		close(out_pipe[0]);
		close(out_pipe[1]);
		close(err_pipe[0]);
		close(err_pipe[1]);
		if (chdir(dir) < 0) {
			dprintf(2, "cannot enter %s: %s\n", dir, strerror(errno));
			_exit(127);
		}
		execlp(gnuplot, gnuplot, "-e", fmt_arg, script.buf, (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	read_gnuplot(out_pipe[0], err_pipe[0], &img, &msg);
	close(out_pipe[0]);
	close(err_pipe[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	strbuf_trim(&msg);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !img.len) {
		char *nl;

		/* gnuplot's message spans a few lines (the script line, a caret, the error) */
		for (nl = msg.buf; (nl = strchr(nl, '\n')); )
			*nl = ' ';
		strbuf_addf(err, "gnuplot failed on %s/%s: %s", dir, script.buf,
			    msg.len ? msg.buf : img.len ? "no message" : "no image written");
		ret = -1;
	} else {
		char *path;

		strbuf_addf(&name, "%s.%s", stem, format);
		path = td_path_join(dir, name.buf);
		if (td_write_file_atomic(path, img.buf, img.len) < 0) {
			strbuf_addf(err, "%s: cannot write: %s", path, strerror(errno));
			ret = -1;
		} else if (msg.len && td_verbose) {
			note("gnuplot on %s: %s", script.buf, msg.buf);
		}
		free(path);
	}
	strbuf_release(&msg);
	strbuf_release(&img);
	strbuf_release(&script);
	strbuf_release(&name);
	return ret;
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
	for (i = 0; i < charts->nr && !ret; i++)
		ret = run_gnuplot(gnuplot, dir, charts->items[i]->stem, format, err);
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
