/*
 * Drawing the charts with gnuplot, and preparing its SVG for inlining in
 * HTML.  gnuplot is found at run time (td_gnuplot_program(): $TDPERF_GNUPLOT
 * or PATH) and started with fork/exec, never through a shell.  It runs in a
 * private directory: made here by mkdtemp (mode 0700) under $TMPDIR or /tmp,
 * held open, and entered with fchdir, so that the script and data it reads
 * are the files written here even when run as root next to other users
 * (the chart directory may be theirs: a script renamed over STEM.gp there
 * would be run, system() included).  Its image comes back on its stdout.
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The private directory gnuplot draws in: its path (for messages) and an open descriptor. */
struct scratch {
	struct strbuf path;
	int fd;
};

/*
 * Make the private directory.  mkdtemp makes it 0700; it is then opened
 * without following a link and checked to be that directory (ours, 0700),
 * so a parent directory another user can write cannot swap it.
 */
static int scratch_make(struct scratch *s, struct strbuf *err)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;

	strbuf_init(&s->path, 0);
	strbuf_addf(&s->path, "%s/tdperf-charts-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	s->fd = -1;
	if (!mkdtemp(s->path.buf)) {
		strbuf_addf(err, "%s: cannot create a private directory for gnuplot: %s", s->path.buf,
			    strerror(errno));
		strbuf_release(&s->path);
		return -1;
	}
	s->fd = open(s->path.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0 || fstat(s->fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
		strbuf_addf(err, "%s: the private directory for gnuplot was replaced", s->path.buf);
		if (s->fd >= 0)
			close(s->fd);
		strbuf_release(&s->path);
		return -1;
	}
	return 0;
}

/* Write 'name' (a new file) into the private directory. */
static int scratch_write(const struct scratch *s, const char *name, const struct strbuf *text,
			 struct strbuf *err)
{
	int fd = openat(s->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	size_t done = 0;

	while (fd >= 0 && done < text->len) {
		ssize_t n = write(fd, text->buf + done, text->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int saved = n < 0 ? errno : ENOSPC;

			close(fd);
			errno = saved;
			fd = -1;
			break;
		}
		done += n;
	}
	if (fd < 0 || close(fd) < 0) {
		strbuf_addf(err, "%s/%s: cannot write: %s", s->path.buf, name, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Remove the private directory: its files through the descriptor, then
 * the directory itself when its path still names it.
 */
static void scratch_remove(struct scratch *s)
{
	int fd = dup(s->fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct stat st, lst;
	struct dirent *e;

	if (!d && fd >= 0)
		close(fd);
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(s->fd, e->d_name, 0);
	if (d)
		closedir(d);
	if (fstat(s->fd, &st) == 0 && lstat(s->path.buf, &lst) == 0 &&
	    st.st_dev == lst.st_dev && st.st_ino == lst.st_ino)
		rmdir(s->path.buf);
	close(s->fd);
	strbuf_release(&s->path);
}

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
 * Run 'gnuplot -e fmt="FORMAT"; to_stdout=1 SCRIPT' in the private
 * directory and keep the image it prints in img: gnuplot itself exits 0
 * after a failed write (a full disk left 0-byte SVGs), so the caller writes
 * the file, checked.  Returns 0, or -1 with err holding what gnuplot printed
 * (its first lines) or why it did not start.
 */
static int run_gnuplot(const char *gnuplot, const struct scratch *s, const char *script, const char *format,
		       struct strbuf *img, struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	char fmt_arg[64];
	int out_pipe[2], err_pipe[2], status, ret = 0;
	pid_t pid;

	snprintf(fmt_arg, sizeof(fmt_arg), "fmt=\"%s\"; to_stdout=1", format);
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
		/* the directory made here, by its descriptor: its path is not trusted */
		if (fchdir(s->fd) < 0) {
			dprintf(2, "cannot enter %s: %s\n", s->path.buf, strerror(errno));
			_exit(127);
		}
		execlp(gnuplot, gnuplot, "-e", fmt_arg, script, (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	read_gnuplot(out_pipe[0], err_pipe[0], img, &msg);
	close(out_pipe[0]);
	close(err_pipe[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	strbuf_trim(&msg);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !img->len) {
		char *nl;

		/* gnuplot's message spans a few lines (the script line, a caret, the error) */
		for (nl = msg.buf; (nl = strchr(nl, '\n')); )
			*nl = ' ';
		strbuf_addf(err, "gnuplot failed on %s: %s", script,
			    msg.len ? msg.buf : img->len ? "no message" : "no image written");
		ret = -1;
	} else if (msg.len && td_verbose) {
		note("gnuplot on %s: %s", script, msg.buf);
	}
	strbuf_release(&msg);
	return ret;
}

/* Write chart c's data and script into the private directory and draw it into img. */
static int draw_chart(const char *gnuplot, const struct scratch *s, const struct td_chart *c,
		      const char *format, struct strbuf *img, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT, script = STRBUF_INIT, name = STRBUF_INIT;
	int ret = 0;

	td_chart_text(c, format, &data, &script);
	if (!c->script) {
		strbuf_addf(&name, "%s.dat", c->stem);
		ret = scratch_write(s, name.buf, &data, err);
	}
	strbuf_reset(&name);
	strbuf_addf(&name, "%s.gp", c->stem);
	if (!ret)
		ret = scratch_write(s, name.buf, &script, err);
	if (!ret)
		ret = run_gnuplot(gnuplot, s, name.buf, format, img, err);
	strbuf_release(&data);
	strbuf_release(&script);
	strbuf_release(&name);
	return ret;
}

int td_charts_draw(const struct td_chart_list *charts, const char *format, struct strbuf *images,
		   struct strbuf *err)
{
	const char *program = td_gnuplot_program();
	char *gnuplot = td_which(program);
	struct scratch s;
	size_t i;
	int ret = 0;

	if (!gnuplot) {
		strbuf_addf(err, "gnuplot not found ('%s'; install gnuplot-nox or set TDPERF_GNUPLOT)",
			    program);
		return 1;
	}
	if (charts->nr && scratch_make(&s, err) < 0)
		ret = -1;
	else if (charts->nr) {
		for (i = 0; i < charts->nr && !ret; i++)
			ret = draw_chart(gnuplot, &s, charts->items[i], format, &images[i], err);
		scratch_remove(&s);
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
