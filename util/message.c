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
 * The length of the well-formed UTF-8 character of at most 'left' bytes at
 * s, else 0.  Not characters here: overlong forms, surrogates, U+FFFE,
 * U+FFFF, anything beyond U+10FFFF (XML allows none of them in text, so
 * an SVG label holding one is unparsable) and the C1 controls
 * U+0080-U+009F, which 8-bit terminals obey as ESC sequences.
 */
size_t td_utf8_text_len(const unsigned char *s, size_t left)
{
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	if ((s[0] == 0xc2 && s[1] < 0xa0) || (s[0] == 0xe0 && s[1] < 0xa0) ||
	    (s[0] == 0xed && s[1] > 0x9f) || (s[0] == 0xf0 && s[1] < 0x90) ||
	    (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;       /* C1 controls, overlong forms, surrogates, beyond U+10FFFF */
	if (s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;       /* U+FFFE, U+FFFF */
	return n;
}

/* How many bytes at s, of 'left', a terminal shows as text (0: escape s[0]). */
static size_t printable_at(const unsigned char *s, size_t left)
{
	if (*s >= 0x80)
		return td_utf8_text_len(s, left);
	return *s >= 0x20 && *s != 0x7f;
}

/*
 * Text from the input (a file name, a thread or symbol name) stays text
 * whatever it holds: a newline, a terminal escape sequence (ESC ] 0 ; ...
 * BEL retitles the terminal, ESC [ 2 J clears it), a C1 control or bytes
 * that are not UTF-8 are shown with each such byte as \xNN, never sent raw
 * to the terminal, and cannot start a line of their own.  Printable ASCII
 * and well-formed UTF-8 pass unchanged.
 */
void strbuf_add_printable_mem(struct strbuf *sb, const void *data, size_t len)
{
	const unsigned char *s = data, *end = s + len;

	while (s < end) {
		const unsigned char *run = s;
		size_t n;

		while (s < end && *s >= 0x20 && *s < 0x7f)
			s++;            /* plain ASCII, the usual case, in one piece */
		if (s > run)
			strbuf_add(sb, run, (size_t)(s - run));
		if (s == end)
			break;
		n = printable_at(s, (size_t)(end - s));
		if (n) {
			strbuf_add(sb, s, n);
			s += n;
		} else {
			strbuf_addf(sb, "\\x%02x", *s++);
		}
	}
}

void strbuf_add_printable(struct strbuf *sb, const char *s)
{
	strbuf_add_printable_mem(sb, s, strlen(s));
}

/* Does s print as itself (nothing in it to escape)? */
static int is_printable(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t left = strlen(str), n;

	while (left) {
		n = printable_at(s, left);
		if (!n)
			return 0;
		s += n;
		left -= n;
	}
	return 1;
}

/*
 * The printable form of s for a printf argument: s itself when nothing in
 * it needs escaping (no copy), else the escaped text in one of a few
 * buffers taken in turn, valid until as many more calls.  NULL stays NULL.
 */
#define PRINTABLE_SLOTS 8
const char *td_printable(const char *s)
{
	static struct strbuf slot[PRINTABLE_SLOTS];
	static unsigned next;
	struct strbuf *sb;

	if (!s || is_printable(s))
		return s;
	sb = &slot[next++ % PRINTABLE_SLOTS];
	if (!sb->alloc)
		strbuf_init(sb, 64);
	strbuf_reset(sb);
	strbuf_add_printable(sb, s);
	return sb->buf;
}

/*
 * A text cell of a CSV file, what RFC 4180 and spreadsheet programs
 * require: quoted (a quote inside doubled) when it holds a comma or a
 * quote; and when it starts with a character a spreadsheet reads as the
 * start of a formula (= + - @, tab, CR, LF: OWASP's list), quoted with a
 * single quote put first, so that "=cmd|..." from a symbol or host name is
 * shown as text, never evaluated.  Control characters and bytes that are
 * not UTF-8 are escaped as in text output (\xNN), so a cell is one line.
 * Only text goes through here: a number column is written as a number,
 * and -0.5 there stays -0.5.
 */
void strbuf_add_csv(struct strbuf *sb, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	const char *q;
	size_t n = 0;
	int formula;

	if (!s || !*s)
		return;
	formula = strchr("=+-@\t\r\n", *s) != NULL;
	while (u[n] >= 0x20 && u[n] < 0x7f && u[n] != ',' && u[n] != '"')
		n++;            /* a plain ASCII cell, most of a report's, in one scan */
	if (!formula && !u[n]) {
		strbuf_add(sb, s, n);
		return;
	}
	if (!formula && !strpbrk(s + n, ",\"")) {
		strbuf_add_printable(sb, s);
		return;
	}
	strbuf_addstr(sb, formula ? "\"'" : "\"");
	while ((q = strchr(s, '"')) != NULL) {
		strbuf_add_printable_mem(sb, s, (size_t)(q - s));
		strbuf_addstr(sb, "\"\"");
		s = q + 1;
	}
	strbuf_add_printable(sb, s);
	strbuf_addch(sb, '"');
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;

	strbuf_addstr(&sb, "tdperf: ");
	strbuf_addstr(&sb, prefix);
	strbuf_vaddf(&msg, fmt, ap);
	strbuf_add_printable(&sb, msg.buf);
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

int td_str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
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
