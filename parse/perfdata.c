/*
 * perf.data: opening a file, a --threads directory or a pipe stream; the
 * file header, the attr section and the id -> event map; the merge of the
 * streams of a directory.  Records themselves are read in perfdata-read.c,
 * feature sections in perfdata-feature.c, tracepoints in perfdata-trace.c.
 */
#include "parse/perfdata-internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int td_pd_is_perf_data(const void *data, size_t len)
{
	return len >= 8 && (!memcmp(data, PD_MAGIC, 8) || !memcmp(data, PD_MAGIC_SWAPPED, 8));
}

/*
 * Record the first error as "FILE: offset N: what" and return -1.  Later
 * errors are dropped: the first one is the cause.
 */
static int pd_vfail(struct td_pd *pd, const char *where, uint64_t off, int with_off,
		    const char *fmt, va_list ap)
{
	if (pd->failed)
		return -1;
	pd->failed = 1;
	strbuf_reset(&pd->err);
	strbuf_addf(&pd->err, "%s: ", where);
	if (with_off)
		strbuf_addf(&pd->err, "offset %llu: ", (unsigned long long)off);
	strbuf_vaddf(&pd->err, fmt, ap);
	return -1;
}

int pd_fail(struct td_pd *pd, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = pd_vfail(pd, pd->path, off, 1, fmt, ap);
	va_end(ap);
	return ret;
}

/* An error inside a stream; 'compressed' offsets are in the decompressed
 * data of the stream, and name the COMPRESSED record they came from. */
int pd_fail_at(struct td_pd *pd, struct pd_stream *st, int compressed, uint64_t off,
	       const char *fmt, ...)
{
	struct strbuf where = STRBUF_INIT;
	va_list ap;
	int ret;

	strbuf_addstr(&where, st ? st->name : pd->path);
	if (compressed)
		strbuf_addf(&where, ": offset %llu (COMPRESSED record): decompressed offset %llu",
			    (unsigned long long)st->zsrc, (unsigned long long)off);
	va_start(ap, fmt);
	ret = pd_vfail(pd, where.buf, off, !compressed, fmt, ap);
	va_end(ap);
	strbuf_release(&where);
	return ret;
}

const char *td_pd_error(const struct td_pd *pd)
{
	return pd->err.len ? pd->err.buf : "no error";
}

/* Reverse the bits of a byte: the attr flag word of an other-endian file
 * has its bitfields laid out from the other end of each byte. */
static unsigned char bit_reverse(unsigned char b)
{
	b = (unsigned char)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (unsigned char)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (unsigned char)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

/*
 * Add an event from a perf_event_attr of 'avail' bytes at 'attr'.  Only
 * the fields inside attr.size are read (size 0 means the first version,
 * 64 bytes).  Returns the event index or -1.
 */
int pd_add_event(struct td_pd *pd, const unsigned char *attr, size_t avail, uint64_t off)
{
	unsigned char a[136];
	struct td_pd_event *ev;
	uint32_t size;
	int s = pd->swap;

	if (avail < 8)
		return pd_fail(pd, off, "perf_event_attr truncated (%zu bytes)", avail);
	size = pd_get32(attr + 4, s);
	if (!size)
		size = 64;
	if (size < 64)
		return pd_fail(pd, off, "perf_event_attr size %u is below the minimum 64", size);
	if (size > avail)
		return pd_fail(pd, off, "perf_event_attr size %u runs past its %zu bytes", size, avail);
	if (pd->nr_events >= 65536)
		return pd_fail(pd, off, "more than 65536 events");
	memset(a, 0, sizeof(a));
	memcpy(a, attr, size < sizeof(a) ? size : sizeof(a));

	TD_GROW(pd->events, pd->alloc_events, pd->nr_events + 1);
	ev = &pd->events[pd->nr_events];
	memset(ev, 0, sizeof(*ev));
	ev->index = (int)pd->nr_events;
	ev->type = pd_get32(a, s);
	ev->attr_size = size;
	ev->config = pd_get64(a + 8, s);
	ev->sample_period = pd_get64(a + 16, s);
	ev->sample_type = pd_get64(a + 24, s);
	ev->read_format = pd_get64(a + 32, s);
	if (s) {
		int i;

		ev->flags = 0;
		for (i = 0; i < 8; i++)
			ev->flags |= (uint64_t)bit_reverse(a[40 + i]) << (8 * i);
	} else {
		ev->flags = pd_get64(a + 40, 0);
	}
	ev->config1 = pd_get64(a + 56, s);
	ev->config2 = pd_get64(a + 64, s);
	ev->branch_sample_type = pd_get64(a + 72, s);
	ev->sample_regs_user = pd_get64(a + 80, s);
	ev->sample_stack_user = pd_get32(a + 88, s);
	ev->clockid = (int32_t)pd_get32(a + 92, s);
	ev->sample_regs_intr = pd_get64(a + 96, s);
	ev->config3 = pd_get64(a + 128, s);
	ev->sample_id_all = !!(ev->flags & (1ull << 18));
	ev->freq = !!(ev->flags & (1ull << 10));
	ev->scale = 1.0;
	pd->nr_events++;
	if (pd->nr_events == 1) {
		uint64_t st = ev->sample_type;

		pd->first_sample_type = st;
		pd->id_pos = __builtin_popcountll(st & (TD_PD_S_IP | TD_PD_S_TID |
							  TD_PD_S_TIME | TD_PD_S_ADDR));
		pd->is_pos = 1 + !!(st & TD_PD_S_CPU) + !!(st & TD_PD_S_STREAM_ID);
	}
	return ev->index;
}

/* Map a sample id to an event (the ids array of the event is rebuilt lazily). */
int pd_add_id(struct td_pd *pd, uint64_t id, int event)
{
	if (pd->nr_ids >= (1u << 24))
		return pd_fail(pd, 0, "more than %u sample ids", 1u << 24);
	TD_GROW(pd->ids, pd->alloc_ids, pd->nr_ids + 1);
	pd->ids[pd->nr_ids].id = id;
	pd->ids[pd->nr_ids].event = event;
	pd->nr_ids++;
	pd->ids_sorted = 0;
	return 0;
}

static int idmap_cmp(const void *a, const void *b)
{
	const struct pd_idmap *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->event - y->event;
}

/* Sort the id map and point every event at its own ids. */
static void pd_sort_ids(struct td_pd *pd)
{
	size_t i;

	if (pd->nr_ids)
		qsort(pd->ids, pd->nr_ids, sizeof(*pd->ids), idmap_cmp);
	for (i = 0; i < pd->nr_events; i++) {
		free((uint64_t *)pd->events[i].ids);
		pd->events[i].ids = NULL;
		pd->events[i].nr_ids = 0;
	}
	/* Count first, then fill: one allocation per event however many ids. */
	for (i = 0; i < pd->nr_ids; i++)
		pd->events[pd->ids[i].event].nr_ids++;
	for (i = 0; i < pd->nr_events; i++) {
		if (pd->events[i].nr_ids)
			pd->events[i].ids = xcalloc(pd->events[i].nr_ids, sizeof(uint64_t));
		pd->events[i].nr_ids = 0;
	}
	for (i = 0; i < pd->nr_ids; i++) {
		struct td_pd_event *ev = &pd->events[pd->ids[i].event];

		((uint64_t *)ev->ids)[ev->nr_ids++] = pd->ids[i].id;
	}
	pd->ids_sorted = 1;
}

const struct td_pd_event *pd_event_for(struct td_pd *pd, uint64_t id)
{
	size_t lo = 0, hi;

	if (!pd->ids_sorted)
		pd_sort_ids(pd);
	hi = pd->nr_ids;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pd->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < pd->nr_ids && pd->ids[lo].id == id)
		return &pd->events[pd->ids[lo].event];
	return NULL;
}

const struct td_pd_event *td_pd_event_by_id(const struct td_pd *pd, uint64_t id)
{
	return pd_event_for((struct td_pd *)pd, id);
}

size_t td_pd_nr_events(const struct td_pd *pd)
{
	return pd->nr_events;
}

const struct td_pd_event *td_pd_event(const struct td_pd *pd, size_t idx)
{
	return idx < pd->nr_events ? &pd->events[idx] : NULL;
}

const struct td_pd_event *td_pd_event_by_name(const struct td_pd *pd, const char *name)
{
	size_t i;

	for (i = 0; i < pd->nr_events; i++)
		if (pd->events[i].name && !strcmp(pd->events[i].name, name))
			return &pd->events[i];
	return NULL;
}

int td_pd_pipe_mode(const struct td_pd *pd)
{
	return pd->pipe;
}

int td_pd_needs_swap(const struct td_pd *pd)
{
	return pd->swap;
}

int td_pd_is_directory(const struct td_pd *pd)
{
	return pd->dir;
}

/* Give an event a name (EVENT_DESC, EVENT_UPDATE NAME); len bytes, may lack a NUL. */
void pd_set_event_name(struct td_pd *pd, struct td_pd_event *ev, const char *name, size_t len)
{
	free((char *)ev->name);
	ev->name = xstrndup(name, strnlen(name, len));
}

/* Names for events that have none: the software/hardware event names perf
 * uses, or "type:config". */
void pd_name_events(struct td_pd *pd)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
	};
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};
	size_t i;

	for (i = 0; i < pd->nr_events; i++) {
		struct td_pd_event *ev = &pd->events[i];
		struct strbuf sb = STRBUF_INIT;

		if (ev->name)
			continue;
		if (ev->type == 1 && ev->config < TD_ARRAY_SIZE(sw))
			strbuf_addstr(&sb, sw[ev->config]);
		else if (ev->type == 0 && ev->config < TD_ARRAY_SIZE(hw))
			strbuf_addstr(&sb, hw[ev->config]);
		else
			strbuf_addf(&sb, "%u:0x%llx", ev->type, (unsigned long long)ev->config);
		ev->name = strbuf_detach(&sb, NULL);
	}
}

/*
 * Open a file of the recording to map it: only a regular file maps, and a
 * FIFO planted in a perf.data directory must not block the open (see
 * pd_open_regular).  The descriptor, or -1 with the failure recorded.
 */
static int open_stream_file(struct td_pd *pd, struct pd_stream *st, const char *path)
{
	struct stat sb;
	int fd = pd_open_regular(path, 0, &sb);

	if (fd == PD_OPEN_NOT_REGULAR)
		return pd_fail_at(pd, st, 0, 0, "not a regular file but %s (give - to read a perf.data "
				  "from a pipe)", pd_file_kind(sb.st_mode));
	if (fd < 0)
		return pd_fail_at(pd, st, 0, 0, "cannot open: %s", strerror(errno));
	return fd;
}

/* Map a file read-only; an empty file maps to an empty range. */
static int map_file(struct td_pd *pd, struct pd_stream *st, int fd)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0)
		return pd_fail(pd, 0, "cannot stat: %s", strerror(errno));
	st->len = (size_t)sb.st_size;
	if (!st->len) {
		st->base = (const unsigned char *)"";
		return 0;
	}
	st->map = mmap(NULL, st->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (st->map == MAP_FAILED) {
		st->map = NULL;
		return pd_fail(pd, 0, "cannot map: %s", strerror(errno));
	}
	st->map_len = st->len;
	madvise(st->map, st->map_len, MADV_SEQUENTIAL);
	st->base = st->map;
	return 0;
}

static struct pd_stream *add_stream(struct td_pd *pd, const char *name)
{
	struct pd_stream *st;

	pd->streams = xrealloc(pd->streams, (pd->nr_streams + 1) * sizeof(*pd->streams));
	st = &pd->streams[pd->nr_streams];
	memset(st, 0, sizeof(*st));
	st->name = xstrdup(name);
	st->index = (int)pd->nr_streams;
	st->fd = -1;
	pd->nr_streams++;
	return st;
}

/* Read the first bytes of a piped stream: the stream layer reads the rest. */
static int pipe_prefetch(struct td_pd *pd, struct pd_stream *st, size_t want)
{
	while (st->buf_end < want && !st->eof) {
		ssize_t n;

		if (st->buf_alloc < want) {
			st->buf_alloc = want;
			st->buf = xrealloc(st->buf, st->buf_alloc);
		}
		n = read(st->fd, st->buf + st->buf_end, st->buf_alloc - st->buf_end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return pd_fail(pd, st->buf_end, "read error: %s", strerror(errno));
		}
		if (!n)
			st->eof = 1;
		st->buf_end += (size_t)n;
	}
	return 0;
}

/* Read the attr section of a file-mode header: events and their ids. */
static int read_attrs(struct td_pd *pd, struct pd_stream *st)
{
	uint64_t nr, i, off;

	if (pd->attr_size < 64 + 16 || pd->attr_size > 65536)
		return pd_fail(pd, 16, "attr entry size %llu is not plausible",
			       (unsigned long long)pd->attr_size);
	if (pd->attrs_off > st->len || pd->attrs_size > st->len - pd->attrs_off)
		return pd_fail(pd, 24, "attr section (offset %llu, size %llu) runs past the end of the file (%zu bytes)",
			       (unsigned long long)pd->attrs_off, (unsigned long long)pd->attrs_size, st->len);
	if (pd->attrs_size % pd->attr_size)
		return pd_fail(pd, 32, "attr section size %llu is not a multiple of the entry size %llu",
			       (unsigned long long)pd->attrs_size, (unsigned long long)pd->attr_size);
	nr = pd->attrs_size / pd->attr_size;
	for (i = 0, off = pd->attrs_off; i < nr; i++, off += pd->attr_size) {
		const unsigned char *e = st->base + off;
		uint64_t ids_off, ids_size, k;
		int idx;

		idx = pd_add_event(pd, e, pd->attr_size - 16, off);
		if (idx < 0)
			return -1;
		ids_off = pd_get64(e + pd->attr_size - 16, pd->swap);
		ids_size = pd_get64(e + pd->attr_size - 8, pd->swap);
		if (ids_off > st->len || ids_size > st->len - ids_off || ids_size % 8)
			return pd_fail(pd, off + pd->attr_size - 16,
				       "id section of event %llu (offset %llu, size %llu) is outside the file",
				       (unsigned long long)i, (unsigned long long)ids_off,
				       (unsigned long long)ids_size);
		for (k = 0; k < ids_size / 8; k++)
			if (pd_add_id(pd, pd_get64(st->base + ids_off + 8 * k, pd->swap), idx) < 0)
				return -1;
	}
	return 0;
}

/* Parse the file header of the main stream (file or pipe mode). */
static int read_header(struct td_pd *pd, struct pd_stream *st)
{
	const unsigned char *h = st->base;
	uint64_t len = st->len;
	int i;

	if (st->fd >= 0) {
		/* the header and the first record's header, to tell an empty stream */
		if (pipe_prefetch(pd, st, PD_PIPE_HEADER_SIZE + 8) < 0)
			return -1;
		h = st->buf;
		len = st->buf_end;
	}
	if (len < 16)
		return pd_fail(pd, len, "file too short for a perf.data header (%llu bytes)",
			       (unsigned long long)len);
	if (!memcmp(h, PD_MAGIC_SWAPPED, 8))
		pd->swap = 1;
	else if (memcmp(h, PD_MAGIC, 8))
		return pd_fail(pd, 0, "not a perf.data file (bad magic)");
	pd->header_size = pd_get64(h + 8, pd->swap);
	if (pd->header_size == PD_PIPE_HEADER_SIZE) {
		/* perf writes its events' attrs right after the header: none is a cut stream */
		if (len == PD_PIPE_HEADER_SIZE)
			return pd_fail(pd, len, "no records: a pipe-mode perf.data that ends after its "
				       "16-byte header (perf's output was cut or is empty)");
		pd->pipe = 1;
		st->pos = 16;
		st->end = st->fd >= 0 ? UINT64_MAX : len;
		return 0;
	}
	if (st->fd >= 0)
		return pd_fail(pd, 8, "a file-mode perf.data (header size %llu) cannot be read from a pipe",
			       (unsigned long long)pd->header_size);
	if (pd->header_size != 104 && pd->header_size != 72)
		return pd_fail(pd, 8, "unknown header size %llu (expected 104, 72 or 16)",
			       (unsigned long long)pd->header_size);
	if (len < pd->header_size)
		return pd_fail(pd, len, "file too short for its %llu-byte header",
			       (unsigned long long)pd->header_size);
	pd->attr_size = pd_get64(h + 16, pd->swap);
	pd->attrs_off = pd_get64(h + 24, pd->swap);
	pd->attrs_size = pd_get64(h + 32, pd->swap);
	pd->data_off = pd_get64(h + 40, pd->swap);
	pd->data_size = pd_get64(h + 48, pd->swap);
	if (pd->header_size == 104) {
		for (i = 0; i < 4; i++)
			pd->feat_bits[i] = pd_get64(h + 72 + 8 * i, pd->swap);
		/* An other-endian file written by a 32-bit perf swapped the
		 * bitmap as u32 words: HOSTNAME (bit 3) is always set by perf. */
		if (pd->swap && !(pd->feat_bits[0] & (1ull << 3))) {
			for (i = 0; i < 4; i++) {
				uint64_t v;

				memcpy(&v, h + 72 + 8 * i, 8);
				v = (uint64_t)__builtin_bswap32((uint32_t)v) |
				    (uint64_t)__builtin_bswap32((uint32_t)(v >> 32)) << 32;
				pd->feat_bits[i] = v;
			}
		}
	}
	if (pd->data_off > len || pd->data_off < pd->header_size)
		return pd_fail(pd, 40, "data section offset %llu is outside the file (%llu bytes)",
			       (unsigned long long)pd->data_off, (unsigned long long)len);
	if (pd->data_size > len - pd->data_off)
		return pd_fail(pd, 48, "data section (offset %llu, size %llu) runs past the end of the file (%llu bytes)",
			       (unsigned long long)pd->data_off, (unsigned long long)pd->data_size,
			       (unsigned long long)len);
	if (pd->attrs_size && pd->attrs_off < pd->data_off + pd->data_size &&
	    pd->data_off < pd->attrs_off + pd->attrs_size)
		return pd_fail(pd, 24, "attr section overlaps the data section");
	st->pos = pd->data_off;
	st->end = pd->data_size ? pd->data_off + pd->data_size : len;
	if (read_attrs(pd, st) < 0)
		return -1;
	return pd_read_features(pd, st);
}

static int data_file_cmp(const void *a, const void *b)
{
	unsigned long x = strtoul(*(char *const *)a + 5, NULL, 10);
	unsigned long y = strtoul(*(char *const *)b + 5, NULL, 10);

	return x < y ? -1 : x > y;
}

/* An error about a --threads directory as a whole: "DIR: what", no offset. */
static int pd_fail_dir(struct td_pd *pd, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = pd_vfail(pd, pd->path, 0, 0, fmt, ap);
	va_end(ap);
	return ret;
}

/* The number of CPUs in a perf CPU list ("0-3,8"), 0 when it is not one. */
static size_t cpu_list_count(const char *list)
{
	unsigned char set[4096 / 8] = { 0 };
	int n = td_cpu_list_parse(list, set, 4096);

	return n > 0 ? (size_t)n : 0;
}

/*
 * How many data.N streams the recording wrote, 0 when it cannot be told.
 * 'perf record --threads' writes one data.N per memory map, and it maps
 * one ring buffer per CPU of its events, whatever the --threads spec
 * (cpu, core, package, numa or masks only decide which writer thread
 * reads which buffers).  The CPUs are the -C/--cpu list when one was
 * given, the online CPUs otherwise.
 */
static size_t expected_streams(const struct td_pd *pd)
{
	const char *cmd = td_pd_cmdline(pd);
	struct strbuf word = STRBUF_INIT;
	int threads = 0, want_list = 0;
	size_t cpus = 0, bad_list = 0;
	const char *p;

	for (p = cmd; p && *p; ) {
		size_t n = strcspn(p, " ");

		strbuf_reset(&word);
		strbuf_add(&word, p, n);
		if (!strcmp(word.buf, "--"))
			break;          /* the workload's own arguments follow */
		if (want_list) {
			cpus = cpu_list_count(word.buf);
			bad_list = !cpus;
			want_list = 0;
		} else if (!strcmp(word.buf, "--threads") || !strncmp(word.buf, "--threads=", 10)) {
			threads = 1;
		} else if (!strcmp(word.buf, "-C") || !strcmp(word.buf, "--cpu")) {
			want_list = 1;
		} else if (!strncmp(word.buf, "--cpu=", 6) ||
			   (!strncmp(word.buf, "-C", 2) && isdigit((unsigned char)word.buf[2]))) {
			cpus = cpu_list_count(word.buf + (word.buf[1] == 'C' ? 2 : 6));
			bad_list = !cpus;
		}
		p += n + (p[n] == ' ');
	}
	strbuf_release(&word);
	if (!threads || bad_list)
		return 0;
	return cpus ? cpus : td_pd_nr_cpus_online(pd);
}

/* Refuse a directory whose data.N streams are not all there: their samples would be lost. */
static int check_streams(struct td_pd *pd, char **names, size_t nr)
{
	size_t i, want = expected_streams(pd);

	for (i = 0; i < nr; i++)
		if (strtoul(names[i] + 5, NULL, 10) != i)
			return pd_fail_dir(pd, "data.%zu is missing (the directory has %s): its samples "
					   "would be lost", i, names[i]);
	if (nr < want)
		return pd_fail_dir(pd, "data.%zu is missing: 'perf record --threads' wrote one data.N "
				   "per recorded CPU (%zu), and only %zu are here", nr, want, nr);
	return 0;
}

/* A --threads directory: the main file "data", and data.N streams. */
static int open_directory(struct td_pd *pd, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;

	if (!d)
		return pd_fail(pd, 0, "cannot open directory: %s", strerror(errno));
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		size_t k;

		if (strncmp(n, "data.", 5) || !n[5])
			continue;
		for (k = 5; n[k] && n[k] >= '0' && n[k] <= '9'; k++)
			;
		if (n[k])
			continue;
		TD_GROW(names, alloc, nr + 1);
		names[nr++] = xstrdup(n);
	}
	closedir(d);
	qsort(names, nr, sizeof(*names), data_file_cmp);
	if (check_streams(pd, names, nr) < 0) {
		for (i = 0; i < nr; i++)
			free(names[i]);
		free(names);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		char *p = td_path_join(path, names[i]);
		struct pd_stream *st = add_stream(pd, p);
		int fd = open_stream_file(pd, st, p);

		if (fd < 0) {
			ret = -1;
		} else {
			if (map_file(pd, st, fd) < 0)
				ret = -1;
			close(fd);
			st->pos = 0;
			st->end = st->len;
		}
		free(p);
		free(names[i]);
		if (ret < 0) {
			for (i++; i < nr; i++)
				free(names[i]);
			break;
		}
	}
	free(names);
	return ret;
}

static struct td_pd *pd_new(const char *path, unsigned flags)
{
	struct td_pd *pd = xcalloc(1, sizeof(*pd));

	pd->path = xstrdup(path);
	pd->flags = flags;
	strbuf_init(&pd->err, 0);
	return pd;
}

/* Allocate the per-stream scratch space once (records are at most 64 KiB). */
static void alloc_scratch(struct td_pd *pd)
{
	size_t i;

	for (i = 0; i < pd->nr_streams; i++) {
		struct pd_stream *st = &pd->streams[i];

		st->chain = xmalloc(65536);
		st->values = xmalloc(65536 / 8 * sizeof(*st->values));
		st->strbuf = xmalloc(65536 + 1);
		st->copy = xmalloc(65536 + 8);
	}
}

static struct td_pd *pd_finish_open(struct td_pd *pd, struct strbuf *err)
{
	if (!pd->failed) {
		pd_sort_ids(pd);
		pd_name_events(pd);
		pd_attach_tracepoints(pd);
		alloc_scratch(pd);
		return pd;
	}
	strbuf_addstr(err, pd->err.buf);
	td_pd_close(pd);
	return NULL;
}

struct td_pd *td_pd_open(const char *path, unsigned flags, struct strbuf *err)
{
	struct td_pd *pd = pd_new(path, flags);
	struct pd_stream *st;
	struct stat sb;
	int fd;

	if (!strcmp(path, "-")) {
		st = add_stream(pd, "<stdin>");
		free(pd->path);
		pd->path = xstrdup("<stdin>");
		if (fstat(0, &sb) == 0 && S_ISREG(sb.st_mode)) {
			if (map_file(pd, st, 0) == 0)
				read_header(pd, st);
		} else {
			st->fd = 0;
			read_header(pd, st);
		}
		return pd_finish_open(pd, err);
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		char *main_path = td_path_join(path, "data");

		pd->dir = 1;
		st = add_stream(pd, main_path);
		fd = open_stream_file(pd, st, main_path);
		free(main_path);
	} else {
		st = add_stream(pd, path);
		fd = open_stream_file(pd, st, path);
	}
	if (fd < 0)
		return pd_finish_open(pd, err);
	if (map_file(pd, st, fd) == 0 && read_header(pd, st) == 0 && pd->dir)
		open_directory(pd, path);
	close(fd);
	return pd_finish_open(pd, err);
}

struct td_pd *td_pd_open_mem(const void *data, size_t len, const char *name,
			     unsigned flags, struct strbuf *err)
{
	struct td_pd *pd = pd_new(name, flags);
	struct pd_stream *st = add_stream(pd, name);

	st->base = len ? data : (const unsigned char *)"";
	st->len = len;
	read_header(pd, st);
	return pd_finish_open(pd, err);
}

void td_pd_close(struct td_pd *pd)
{
	size_t i;

	if (!pd)
		return;
	for (i = 0; i < pd->nr_streams; i++)
		pd_stream_release(&pd->streams[i]);
	free(pd->streams);
	for (i = 0; i < pd->nr_events; i++) {
		free((char *)pd->events[i].name);
		free((char *)pd->events[i].unit);
		free((uint64_t *)pd->events[i].ids);
	}
	free(pd->events);
	free(pd->ids);
	pd_free_tracing(pd);
	pd_free_features(pd);
	strbuf_release(&pd->err);
	free(pd->path);
	free(pd);
}

/* The sort key of a stream's head record in the directory merge. */
static uint64_t head_time(const struct pd_stream *st)
{
	const struct td_pd_record *r = &st->rec;

	if (r->has_sample && (r->sample.fields & TD_PD_S_TIME))
		return r->sample.time;
	return 0;
}

/*
 * Next record.  One stream: its own (sorted) order.  A directory: the
 * stream whose next record is earliest (each stream is sorted by its own
 * rounds, so this is a merge); in file order, one stream after the other.
 */
int td_pd_next(struct td_pd *pd, const struct td_pd_record **rec)
{
	struct pd_stream *best = NULL;
	size_t i;

	if (pd->failed)
		return -1;
	if (pd->nr_streams == 1 || (pd->flags & TD_PD_FILE_ORDER)) {
		for (i = 0; i < pd->nr_streams; i++) {
			struct pd_stream *st = &pd->streams[i];
			int ret;

			if (st->at_eof == 2)
				continue;
			ret = pd_stream_next(pd, st, rec);
			if (ret)
				return ret;
			st->at_eof = 2;
		}
		return 0;
	}
	for (i = 0; i < pd->nr_streams; i++) {
		struct pd_stream *st = &pd->streams[i];

		if (!st->have_rec && st->at_eof != 2) {
			const struct td_pd_record *r;
			int ret = pd_stream_next(pd, st, &r);

			if (ret < 0)
				return -1;
			if (!ret) {
				st->at_eof = 2;
				continue;
			}
			st->have_rec = 1;
			st->rec_time = head_time(st);
		}
		if (st->have_rec && (!best || st->rec_time < best->rec_time))
			best = st;
	}
	if (!best)
		return 0;
	best->have_rec = 0;
	*rec = &best->rec;
	return 1;
}
