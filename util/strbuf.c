/*
 * strbuf: growable strings.  The invariant is that sb->buf is always a
 * valid NUL-terminated string, so it can be passed to any C string API
 * without checks; before the first allocation it points at a shared empty
 * string that is never written to.
 */
#include "util/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char td_strbuf_empty[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->len = 0;
	sb->alloc = 0;
	sb->buf = (char *)td_strbuf_empty;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s;

	if (!sb->alloc)
		strbuf_grow(sb, 0);
	s = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return s;
}

void strbuf_attach(struct strbuf *sb, char *s)
{
	strbuf_release(sb);
	sb->buf = s;
	sb->len = strlen(s);
	sb->alloc = sb->len + 1;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	int fresh = !sb->alloc;

	if (need < sb->len)
		die("out of memory: string too large");
	if (need <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	sb->alloc = sb->alloc ? sb->alloc : 64;
	while (sb->alloc < need)
		sb->alloc *= 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		if (len)
			die("BUG: strbuf_setlen beyond an empty buffer");
		return;
	}
	if (len >= sb->alloc)
		die("BUG: strbuf_setlen beyond allocation");
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("BUG: bad format string '%s'", fmt);
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_html(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default: strbuf_addch(sb, *s);
		}
	}
}

void strbuf_trim(struct strbuf *sb)
{
	size_t start = 0, end = sb->len;

	while (start < end && isspace((unsigned char)sb->buf[start]))
		start++;
	while (end > start && isspace((unsigned char)sb->buf[end - 1]))
		end--;
	if (!sb->alloc)
		return;
	memmove(sb->buf, sb->buf + start, end - start);
	strbuf_setlen(sb, end - start);
}

void strvec_push(struct strvec *sv, const char *s)
{
	TD_GROW(sv->v, sv->alloc, sv->nr + 2);
	sv->v[sv->nr++] = xstrdup(s);
	sv->v[sv->nr] = NULL;
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	TD_GROW(sv->v, sv->alloc, sv->nr + 2);
	sv->v[sv->nr++] = strbuf_detach(&sb, NULL);
	sv->v[sv->nr] = NULL;
}

void strvec_pushv(struct strvec *sv, char *const *v)
{
	for (; v && *v; v++)
		strvec_push(sv, *v);
}

void strvec_clear(struct strvec *sv)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->nr = sv->alloc = 0;
}
