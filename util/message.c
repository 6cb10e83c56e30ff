/*
 * One format for every diagnostic.  Messages are single lines on stderr,
 * prefixed "tdperf: ", so that scripts can grep them and users see at once
 * which tool is talking.
 */
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int td_verbose;

/*
 * A message stays one line whatever it quotes: a file name holding a
 * newline or a terminal escape sequence (ESC [ ...) is shown with each
 * control character as \xNN, never sent raw to the terminal.
 */
static void add_printable(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch < 0x20 || ch == 0x7f)
			strbuf_addf(sb, "\\x%02x", ch);
		else
			strbuf_addch(sb, ch);
	}
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;

	strbuf_addstr(&sb, "tdperf: ");
	strbuf_addstr(&sb, prefix);
	strbuf_vaddf(&msg, fmt, ap);
	add_printable(&sb, msg.buf);
	strbuf_addch(&sb, '\n');
	strbuf_release(&msg);
	fflush(stdout);
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("note: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(2);
}

int td_not_built(const char *command)
{
	error("'%s' is not built yet in this version of tdperf", command);
	return 2;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", nmemb, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory (%zu bytes)", n);
	return q;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		die("out of memory");
	return d;
}

void td_grow(void **array, size_t *alloc, size_t need, size_t elsize)
{
	size_t n;

	if (need <= *alloc)
		return;
	n = *alloc ? *alloc : 8;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / elsize)
		die("out of memory: array too large");
	*array = xrealloc(*array, n * elsize);
	*alloc = n;
}

void td_format_count(struct strbuf *sb, double v)
{
	char digits[64];
	int n, i, lead;

	if (v != v) {
		strbuf_addstr(sb, "nan");
		return;
	}
	if (v < 0) {
		strbuf_addch(sb, '-');
		v = -v;
	}
	if (v >= 1e18) {
		strbuf_addf(sb, "%.6g", v);
		return;
	}
	n = snprintf(digits, sizeof(digits), "%.0f", v);
	lead = n % 3 ? n % 3 : 3;
	for (i = 0; i < n; i++) {
		if (i && (i - lead) % 3 == 0 && i >= lead)
			strbuf_addch(sb, ',');
		strbuf_addch(sb, digits[i]);
	}
}

/*
 * Flush and close standard output at the end of a command.  stdio reports
 * a failed write (a full disk, /dev/full, a closed pipe's EPIPE aside) only
 * through ferror() or the final flush; unchecked, a report cut short would
 * exit 0.  A command that already said what failed (status 2) keeps its
 * message; any other status (check's 1, a workload's) becomes 2 with ours.
 */
int td_finish_stdout(int status)
{
	int failed, saved;

	errno = 0;
	failed = fflush(stdout) != 0 || ferror(stdout);
	saved = errno;
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (!failed || status == 2)
		return status;
	if (saved)
		error("standard output: cannot write: %s", strerror(saved));
	else
		error("standard output: cannot write (an earlier write failed)");
	return 2;
}
