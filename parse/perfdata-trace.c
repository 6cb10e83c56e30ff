/*
 * Tracepoints: the TRACING_DATA blob (the event formats perf copied from
 * tracefs when recording) handed to libtraceevent, and typed access to the
 * fields of a sample's RAW data.  The formats always come from the file:
 * tracepoint ids differ between kernels and boots.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "parse/perfdata-internal.h"

#include <event-parse.h>
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* A cursor over the blob, numbers in the blob's own byte order. */
struct blob {
	const unsigned char *p, *start, *end;
	uint64_t base;          /* file offset of start, for messages */
	int swap;
};

static uint64_t blob_off(const struct blob *b)
{
	return b->base + (uint64_t)(b->p - b->start);
}

static int blob_bytes(struct blob *b, size_t n, const unsigned char **out)
{
	if ((size_t)(b->end - b->p) < n)
		return -1;
	*out = b->p;
	b->p += n;
	return 0;
}

static int blob_u32(struct blob *b, uint32_t *v)
{
	const unsigned char *p;

	if (blob_bytes(b, 4, &p))
		return -1;
	*v = pd_get32(p, b->swap);
	return 0;
}

static int blob_u64(struct blob *b, uint64_t *v)
{
	const unsigned char *p;

	if (blob_bytes(b, 8, &p))
		return -1;
	*v = pd_get64(p, b->swap);
	return 0;
}

/* A NUL-terminated string inside the blob. */
static int blob_str(struct blob *b, const char **s)
{
	size_t n = strnlen((const char *)b->p, (size_t)(b->end - b->p));

	if (n == (size_t)(b->end - b->p))
		return -1;
	*s = (const char *)b->p;
	b->p += n + 1;
	return 0;
}

/* A sized text section: u64 (or u32) size, then the text. */
static int blob_text(struct blob *b, int wide, const unsigned char **text, uint64_t *len)
{
	uint32_t n32;

	if (wide) {
		if (blob_u64(b, len))
			return -1;
	} else {
		if (blob_u32(b, &n32))
			return -1;
		*len = n32;
	}
	if (*len > (uint64_t)(b->end - b->p))
		return -1;
	return blob_bytes(b, (size_t)*len, text);
}

/* Is [p, p + n) the name of a field declared in the format text? */
static int format_has_field(const char *fmt, size_t len, const char *p, size_t n)
{
	const char *q = fmt, *end = fmt + len;

	while ((q = memmem(q, (size_t)(end - q), "field:", 6)) != NULL) {
		const char *semi = memchr(q, ';', (size_t)(end - q));
		const char *e;

		if (!semi)
			return 0;
		e = semi;
		if (e > q && e[-1] == ']')      /* char comm[16] */
			while (e > q && *e != '[')
				e--;
		if ((size_t)(e - q) >= n && !memcmp(e - n, p, n) &&
		    !(isalnum((unsigned char)e[-(long)n - 1]) || e[-(long)n - 1] == '_'))
			return 1;
		q = semi;
	}
	return 0;
}

/*
 * The print fmt line must have its quotes closed and its (), [] and {}
 * balanced: libtraceevent 1.7 follows NULL pointers on truncated
 * expressions (seen fuzzing).
 */
static int print_fmt_balanced(const char *fmt, size_t len)
{
	const char *p = memmem(fmt, len, "print fmt:", 10), *end = fmt + len;
	char stack[64];
	int depth = 0, in_str = 0;

	if (!p)
		return 0;
	for (p += 10; p < end && *p != '\n'; p++) {
		char c = *p;

		if (in_str) {
			if (c == '\\' && p + 1 < end)
				p++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
		} else if (c == '(' || c == '[' || c == '{') {
			if (depth == (int)sizeof(stack))
				return 0;
			stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
		} else if (c == ')' || c == ']' || c == '}') {
			if (!depth || stack[--depth] != c)
				return 0;
		}
	}
	return !in_str && !depth;
}

/*
 * Sanity check of a format before libtraceevent sees it: every REC->name
 * of the print fmt must be a declared field.  libtraceevent 1.7 follows a
 * NULL field pointer otherwise (seen fuzzing); such a format is skipped.
 */
static int format_ok(const char *fmt, size_t len)
{
	const char *q = fmt, *end = fmt + len;

	if (memchr(fmt, '\0', len) || !print_fmt_balanced(fmt, len))
		return 0;
	while ((q = memmem(q, (size_t)(end - q), "REC->", 5)) != NULL) {
		const char *name = q + 5, *e = name;

		while (e < end && (isalnum((unsigned char)*e) || *e == '_'))
			e++;
		if (e == name || !format_has_field(fmt, len, name, (size_t)(e - name)))
			return 0;
		q = e;
	}
	return 1;
}

/* Only the formats of events the file recorded are parsed (perf stores
 * only those anyway): less to trust, less time. */
static int format_wanted(const struct td_pd *pd, const char *fmt, size_t len)
{
	const char *p = memmem(fmt, len, "\nID: ", 5);
	unsigned long long id = 0;
	size_t i;

	if (!p)
		return 0;
	for (p += 5; p < fmt + len && *p >= '0' && *p <= '9' && id < (1ull << 40); p++)
		id = id * 10 + (unsigned)(*p - '0');
	for (i = 0; i < pd->nr_events; i++)
		if (pd->events[i].type == PD_TRACEPOINT_TYPE && pd->events[i].config == id)
			return 1;
	return 0;
}

static int parse_format(struct td_pd *pd, struct tep_handle *tep, struct blob *b,
			const char *system)
{
	const unsigned char *text;
	uint64_t len, at = blob_off(b);
	enum tep_errno e;

	if (blob_text(b, 1, &text, &len))
		return pd_fail(pd, at, "tracing data: event format runs past the end");
	if (!format_wanted(pd, (const char *)text, (size_t)len) ||
	    !format_ok((const char *)text, (size_t)len))
		return 0;       /* as perf does with formats that do not parse */
	e = tep_parse_event(tep, (const char *)text, (unsigned long)len, system);
	if (e) {
		char msg[128];

		tep_strerror(tep, e, msg, sizeof(msg));
		/* perf keeps going when one format does not parse; so do we */
		if (e != TEP_ERRNO__MEM_ALLOC_FAILED)
			return 0;
		return pd_fail(pd, at, "tracing data: event format of system %s: %s", system, msg);
	}
	return 0;
}

/* NUL-terminated copy for the libtraceevent calls that want one. */
static char *text_copy(const unsigned char *text, uint64_t len)
{
	return xstrndup((const char *)text, (size_t)len);
}

/*
 * True for a printk format line as the kernel writes it: ADDR : "FORMAT"
 * with at least two characters of format.  libtraceevent 1.7 reads out of
 * bounds on lines without ':' and on formats shorter than that.
 */
static int printk_line_ok(const char *p, size_t n)
{
	const char *colon = memchr(p, ':', n);
	size_t i, rest;

	if (!colon || colon == p)
		return 0;
	for (i = 0; p + i < colon; i++)
		if (!strchr("0123456789abcdefABCDEFx ", p[i]))
			return 0;
	rest = n - (size_t)(colon - p) - 1;     /* after ':' */
	return rest >= 5 && colon[1] == ' ' && colon[2] == '"' && p[n - 1] == '"';
}

/* The printk formats, keeping only well-formed lines (see above). */
static char *printk_copy(const unsigned char *text, uint64_t len)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = (const char *)text, *end = p + strnlen(p, (size_t)len);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (printk_line_ok(p, (size_t)(eol - p))) {
			strbuf_add(&sb, p, (size_t)(eol - p));
			strbuf_addch(&sb, '\n');
		}
		p = eol + 1;
	}
	return strbuf_detach(&sb, NULL);
}

/* The ftrace and event system formats of the blob, into tep. */
static int walk_formats(struct td_pd *pd, struct tep_handle *tep, struct blob *b)
{
	const char *system;
	uint32_t nr, nr_sys, i, k;

	if (blob_u32(b, &nr))
		return pd_fail(pd, blob_off(b), "tracing data: truncated before the ftrace formats");
	for (i = 0; i < nr; i++)
		if (parse_format(pd, tep, b, "ftrace") < 0)
			return -1;
	if (blob_u32(b, &nr_sys))
		return pd_fail(pd, blob_off(b), "tracing data: truncated before the event systems");
	for (i = 0; i < nr_sys; i++) {
		if (blob_str(b, &system) || blob_u32(b, &nr))
			return pd_fail(pd, blob_off(b), "tracing data: truncated event system");
		for (k = 0; k < nr; k++)
			if (parse_format(pd, tep, b, system) < 0)
				return -1;
	}
	return 0;
}

static void child_crashed(int sig)
{
	_exit(100 + sig);
}

/*
 * Try the formats in a child process first: libtraceevent's format parser
 * crashes on some malformed formats (NULL pointers, division by zero in
 * constant folding), and a damaged file must give an error, not a crash.
 * Returns 1 when the child parsed them all and exited normally (or when
 * no child could be made), 0 when it died.
 */
static int formats_survive(struct td_pd *pd, const struct blob *formats, int big_endian,
			   int long_size, uint32_t page_size)
{
	/* format sets already tried (one fork per distinct set, not per open) */
	static uint64_t known_good[16];
	static unsigned nr_known;
	uint64_t hash = 1469598103934665603ull;
	const unsigned char *p;
	pid_t pid;
	int status;
	unsigned i;

	for (p = formats->p; p < formats->end; p++)
		hash = (hash ^ *p) * 1099511628211ull;
	hash ^= (uint64_t)big_endian << 8 ^ (uint64_t)long_size << 16 ^ (uint64_t)page_size << 32;
	for (i = 0; i < nr_known && i < TD_ARRAY_SIZE(known_good); i++)
		if (known_good[i] == hash)
			return 1;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		struct tep_handle *tep = tep_alloc();
		struct blob b = *formats;
		int sigs[] = { SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT };
		size_t k;

		for (k = 0; k < TD_ARRAY_SIZE(sigs); k++)
			signal(sigs[k], child_crashed);
		alarm(10);
		if (!tep)
			_exit(1);
		tep_set_file_bigendian(tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_set_long_size(tep, long_size);
		tep_set_page_size(tep, (int)page_size);
		walk_formats(pd, tep, &b);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		return 0;
	known_good[nr_known++ % TD_ARRAY_SIZE(known_good)] = hash;
	return 1;
}

/*
 * Parse a TRACING_DATA blob (feature 1, or the payload after a pipe-mode
 * HEADER_TRACING_DATA record) at file offset 'off'.
 */
int pd_parse_tracing_data(struct td_pd *pd, const unsigned char *data, size_t len, uint64_t off)
{
	struct blob b = { data, data, data + len, off, 0 };
	const unsigned char *p, *text;
	const char *version, *system;
	struct blob formats;
	uint32_t page_size;
	uint64_t tlen;
	int big_endian, long_size, v06;
	char *copy;

	if (pd->tep)
		return 0;       /* perf writes it once; a second copy is ignored */
	if (blob_bytes(&b, 10, &p) || memcmp(p, "\027\010\104tracing", 10))
		return pd_fail(pd, off, "tracing data: bad magic");
	if (blob_str(&b, &version))
		return pd_fail(pd, blob_off(&b), "tracing data: no version string");
	v06 = strcmp(version, "0.6") >= 0;
	if (blob_bytes(&b, 2, &p))
		return pd_fail(pd, blob_off(&b), "tracing data: truncated");
	big_endian = p[0];
	long_size = p[1];
	b.swap = (big_endian != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (blob_u32(&b, &page_size))
		return pd_fail(pd, blob_off(&b), "tracing data: truncated");

	tep_set_loglevel(TEP_LOG_NONE);
	pd->tep = tep_alloc();
	if (!pd->tep)
		return pd_fail(pd, off, "out of memory");
	tep_set_file_bigendian(pd->tep, big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(pd->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(pd->tep, long_size);
	tep_set_page_size(pd->tep, (int)page_size);

	if (blob_str(&b, &system) || strcmp(system, "header_page"))
		return pd_fail(pd, blob_off(&b), "tracing data: header_page expected");
	if (blob_text(&b, 1, &text, &tlen))
		return pd_fail(pd, blob_off(&b), "tracing data: header_page runs past the end");
	copy = text_copy(text, tlen);
	if (!tep_parse_header_page(pd->tep, copy, (unsigned long)tlen, long_size))
		tep_set_long_size(pd->tep, tep_get_header_page_size(pd->tep));
	free(copy);
	if (blob_str(&b, &system) || strcmp(system, "header_event"))
		return pd_fail(pd, blob_off(&b), "tracing data: header_event expected");
	if (blob_text(&b, 1, &text, &tlen))
		return pd_fail(pd, blob_off(&b), "tracing data: header_event runs past the end");

	formats = b;
	if (!formats_survive(pd, &formats, big_endian, long_size, page_size))
		return pd_fail(pd, blob_off(&b),
			       "tracing data: libtraceevent cannot parse these event formats (it crashed on them)");
	if (walk_formats(pd, pd->tep, &b) < 0)
		return -1;
	if (blob_text(&b, 0, &text, &tlen))
		return pd_fail(pd, blob_off(&b), "tracing data: kallsyms runs past the end");
	if (tlen) {
		copy = text_copy(text, tlen);
		tep_parse_kallsyms(pd->tep, copy);
		free(copy);
	}
	if (blob_text(&b, 0, &text, &tlen))
		return pd_fail(pd, blob_off(&b), "tracing data: printk formats run past the end");
	if (tlen) {
		copy = printk_copy(text, tlen);
		if (*copy)
			tep_parse_printk_formats(pd->tep, copy);
		free(copy);
	}
	if (v06 && b.p < b.end) {
		if (blob_text(&b, 1, &text, &tlen))
			return pd_fail(pd, blob_off(&b), "tracing data: saved cmdlines run past the end");
		if (tlen) {
			copy = text_copy(text, tlen);
			tep_parse_saved_cmdlines(pd->tep, copy);
			free(copy);
		}
	}
	pd_attach_tracepoints(pd);
	return 0;
}

/* Point each tracepoint event at its format, and name it "system:name". */
void pd_attach_tracepoints(struct td_pd *pd)
{
	size_t i;

	if (!pd->tep)
		return;
	for (i = 0; i < pd->nr_events; i++) {
		struct td_pd_event *ev = &pd->events[i];
		struct tep_event *te;

		if (ev->type != PD_TRACEPOINT_TYPE || ev->tp || ev->config > INT32_MAX)
			continue;
		te = tep_find_event(pd->tep, (int)ev->config);
		if (!te)
			continue;
		ev->tp = te;
		if (!ev->name || strchr(ev->name, ':') == NULL ||
		    !strncmp(ev->name, "2:", 2)) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s:%s", te->system, te->name);
			free((char *)ev->name);
			ev->name = strbuf_detach(&sb, NULL);
		}
	}
}

void pd_free_tracing(struct td_pd *pd)
{
	if (pd->tep)
		tep_free(pd->tep);
	pd->tep = NULL;
}

const struct td_pd_field *td_pd_tp_field(const struct td_pd_event *ev, const char *name)
{
	if (!ev || !ev->tp)
		return NULL;
	return (const struct td_pd_field *)tep_find_any_field(ev->tp, name);
}

/*
 * Where a field's bytes are in the sample's RAW data: static fields at
 * their offset, __data_loc / __rel_loc fields through their u32 locator.
 * Returns 0 with *p and *n set, -1 when outside the RAW bytes.
 */
static int field_bytes(const struct tep_format_field *f, const struct td_pd_sample *s,
		       const unsigned char **p, size_t *n)
{
	uint64_t off = (uint64_t)(unsigned)f->offset, size = (uint64_t)(unsigned)f->size;

	if (!s->raw || f->offset < 0 || f->size < 0 || off + size > s->raw_size)
		return -1;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;

		if (size < 4)
			return -1;
		loc = (uint32_t)tep_read_number(f->event->tep, s->raw + off, 4);
		size = loc >> 16;
		off = (loc & 0xffff) + ((f->flags & TEP_FIELD_IS_RELATIVE) ? off + 4 : 0);
		if (off + size > s->raw_size)
			return -1;
	}
	*p = s->raw + off;
	*n = (size_t)size;
	return 0;
}

int td_pd_field_num(const struct td_pd_field *field, const struct td_pd_sample *s, int64_t *val)
{
	const struct tep_format_field *f = (const struct tep_format_field *)field;
	const unsigned char *p;
	size_t n;
	uint64_t v;

	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    field_bytes(f, s, &p, &n) || !(n == 1 || n == 2 || n == 4 || n == 8))
		return -1;
	v = tep_read_number(f->event->tep, p, (int)n);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && n < 8) {
		uint64_t sign = 1ull << (8 * n - 1);

		v = (v ^ sign) - sign;
	}
	*val = (int64_t)v;
	return 0;
}

int td_pd_field_str(const struct td_pd_field *field, const struct td_pd_sample *s, struct strbuf *out)
{
	const struct tep_format_field *f = (const struct tep_format_field *)field;
	const unsigned char *p;
	size_t n;

	if (!f || field_bytes(f, s, &p, &n))
		return -1;
	strbuf_add(out, p, strnlen((const char *)p, n));
	return 0;
}

static const struct td_pd_field *sample_field(const struct td_pd_sample *s, const char *name)
{
	return s->event ? td_pd_tp_field(s->event, name) : NULL;
}

int td_pd_tp_num(const struct td_pd_sample *s, const char *name, int64_t *val)
{
	return td_pd_field_num(sample_field(s, name), s, val);
}

int td_pd_tp_str(const struct td_pd_sample *s, const char *name, struct strbuf *out)
{
	return td_pd_field_str(sample_field(s, name), s, out);
}

size_t td_pd_tp_field_names(const struct td_pd_event *ev, const char **names, size_t max)
{
	struct tep_format_field *f;
	size_t n = 0;

	if (!ev || !ev->tp)
		return 0;
	for (f = ((struct tep_event *)ev->tp)->format.fields; f && n < max; f = f->next)
		names[n++] = f->name;
	return n;
}

/* True when every field of the event lies inside the sample's RAW data:
 * libtraceevent's printer trusts the data, so we check first. */
static int raw_fits(const struct tep_event *te, const struct td_pd_sample *s)
{
	const struct tep_format_field *f;
	const unsigned char *p;
	size_t n;

	for (f = te->format.common_fields; f; f = f->next)
		if (field_bytes(f, s, &p, &n))
			return 0;
	for (f = te->format.fields; f; f = f->next)
		if (field_bytes(f, s, &p, &n))
			return 0;
	return 1;
}

int td_pd_tp_print(const struct td_pd_sample *s, struct strbuf *out)
{
	struct tep_event *te;
	struct tep_record rec;
	struct trace_seq seq;

	if (!s->event || !s->event->tp || !s->raw)
		return -1;
	te = s->event->tp;
	if (!raw_fits(te, s))
		return -1;
	memset(&rec, 0, sizeof(rec));
	rec.ts = s->time;
	rec.cpu = (int)s->cpu;
	rec.data = (void *)s->raw;
	rec.size = (int)s->raw_size;
	trace_seq_init(&seq);
	tep_print_event(te->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	if (seq.state != TRACE_SEQ__GOOD) {
		trace_seq_destroy(&seq);
		return -1;
	}
	strbuf_add(out, seq.buffer, seq.len);
	trace_seq_destroy(&seq);
	return 0;
}
