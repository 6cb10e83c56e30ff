/*
 * Symbols of sampled addresses: which function (and which file) an
 * instruction pointer of a perf.data sample belongs to.
 *
 * The process address spaces are rebuilt from the MMAP/MMAP2, COMM (exec)
 * and FORK records as they stream by; a user address is turned into an
 * offset in the mapped file and handed to elfutils' libdwfl, which finds
 * the symbol table (in the file, or in a separate debug file through
 * .gnu_debuglink or /usr/lib/debug/.build-id) and the DWARF line table.
 * Files that are gone or changed since the recording are taken from perf's
 * build-id cache (~/.debug/.build-id/xx/yyyy/elf) when the recorded
 * build-id is known.  Kernel addresses are looked up in the kallsyms that
 * perf cached for the recorded kernel, else /proc/kallsyms; JIT code in
 * anonymous memory in /tmp/perf-PID.map, the text format perf reads.
 *
 * User-space names mangled by the C++ ABI (the "_Z" prefix, also Rust's
 * legacy mangling) are demangled with the C++ runtime's own demangler, as
 * perf report does unless told --no-demangle.
 *
 * An address with no symbol becomes the frame "[unknown]" with its DSO and
 * offset: it is never dropped.  Frames are interned, so a frame pointer
 * (or its id) names a function for the analyses.
 */
#include "parse/perfdata-internal.h"
#include "util/util.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The Itanium C++ ABI demangler of the C++ runtime (libstdc++). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

#define SYM_BUILD_ID_MAX 20
#define SYM_IP_CACHE_MAX (1u << 21) /* entries before the cache starts over */
#define PD_BUILD_ID_READ_MAX 64 /* the longest build-id note read (perf records 20 bytes) */

/* A function symbol of a DSO, at its link-time address (plus bias). */
struct sym_func {
	uint64_t addr, size;     /* addr first: count_at_or_below */
	const char *name;       /* in libdwfl's string table */
	unsigned char bind;
};

struct sym_dso {
	char *path;             /* as recorded */
	struct sym_func *funcs; /* sorted by address, one per address */
	size_t nr_funcs;
	int funcs_loaded;
	struct strvec plt_names; /* the names of synthesized PLT stubs */
	unsigned char build_id[SYM_BUILD_ID_MAX];
	int build_id_size;
	int opened;             /* dwfl tried */
	Dwfl *dwfl;
	Dwfl_Module *mod;       /* NULL: no ELF could be read */
	int anon;               /* anonymous or JIT memory */
};

struct sym_map {
	uint64_t start, end, pgoff; /* start first: count_at_or_below */
	struct sym_dso *dso;
};

struct sym_jit {
	uint64_t start, end;     /* start first: count_at_or_below */
	char *name;
};

struct sym_proc {
	uint32_t pid;
	unsigned gen;           /* bumped on exec, part of the ip-cache key */
	struct sym_map *maps;
	size_t nr_maps, alloc_maps;
	int jit_loaded;
	struct sym_jit *jit;
	size_t nr_jit, alloc_jit;
	char *jit_path;
};

struct sym_ksym {
	uint64_t addr;          /* first: count_at_or_below */
	const char *name;
	const char *module;     /* NULL: the kernel image */
};

struct ip_slot {
	uint64_t ip;
	uint32_t pid, gen;      /* gen + 1, 0 = empty */
	uint32_t kernel;
	struct td_frame *frame;
};

struct frame_slot {
	uint64_t hash;
	struct td_frame *frame;
	char *symbol;           /* the name looked up, when the frame's is demangled */
};

struct td_symbolizer {
	int swap;
	/* leaf details: (module, address) -> detail */
	struct td_sym_detail *details;
	size_t nr_details, alloc_details;
	struct pd_func_scope **func_scopes;     /* by frame id */
	size_t alloc_func_scopes;
	struct { Dwfl_Module *mod; uint64_t addr; int id; } *detail_slots;
	size_t detail_cap, detail_used; /* slots in use, "no detail" ones too */
	/* build-ids of the BUILD_ID feature, by path */
	struct { char *path; unsigned char id[SYM_BUILD_ID_MAX]; int size; } *bids;
	size_t nr_bids, alloc_bids;
	char *kernel_build_id;  /* hex, or NULL */
	struct sym_dso **dsos;
	size_t nr_dsos, alloc_dsos;
	struct sym_proc **procs;
	size_t nr_procs, alloc_procs;
	/* kernel symbols, sorted by address, loaded on first use */
	int ksyms_loaded;
	struct sym_ksym *ksyms;
	size_t nr_ksyms, alloc_ksyms;
	char *ksym_text;
	/* frames */
	struct frame_slot *frames_hash;
	size_t frames_cap;
	struct td_frame **frames;
	size_t nr_frames, alloc_frames;
	/* ip -> frame */
	struct ip_slot *ips;
	size_t ips_cap, ips_used;
	char *debug_home;       /* ~/.debug */
	int offline;            /* read no file: every address unknown */
	struct strvec skipped;  /* files not read, each said once */
	int no_demangle;        /* keep names as the symbol tables spell them */
};

/* FNV-1a over bytes, continuing from h. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ull;
	return h;
}

static uint64_t hash_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/* Read the BUILD_ID feature: which build-id each recorded path had. */
static void load_build_ids(struct td_symbolizer *s, const struct td_pd *pd)
{
	const unsigned char *p, *end;
	const void *data;
	size_t len;

	if (!td_pd_feature(pd, TD_PD_FEAT_BUILD_ID, &data, &len))
		return;
	p = data;
	end = p + len;
	while (end - p >= 36) {
		uint16_t sz;
		unsigned bsz;
		size_t fn;

		memcpy(&sz, p + 6, 2);
		if (s->swap)
			sz = __builtin_bswap16(sz);
		if (sz < 36 || sz > end - p)
			break;
		bsz = p[32] && p[32] <= SYM_BUILD_ID_MAX ? p[32] : SYM_BUILD_ID_MAX;
		fn = strnlen((const char *)p + 36, sz - 36);
		TD_GROW(s->bids, s->alloc_bids, s->nr_bids + 1);
		s->bids[s->nr_bids].path = xstrndup((const char *)p + 36, fn);
		memcpy(s->bids[s->nr_bids].id, p + 12, bsz);
		s->bids[s->nr_bids].size = bsz;
		if (!strcmp(s->bids[s->nr_bids].path, "[kernel.kallsyms]") && !s->kernel_build_id) {
			struct strbuf hex = STRBUF_INIT;
			unsigned k;

			for (k = 0; k < bsz; k++)
				strbuf_addf(&hex, "%02x", p[12 + k]);
			s->kernel_build_id = strbuf_detach(&hex, NULL);
		}
		s->nr_bids++;
		p += sz;
	}
}

struct td_symbolizer *td_sym_new(const struct td_pd *pd)
{
	struct td_symbolizer *s = xcalloc(1, sizeof(*s));
	const char *home = getenv("HOME");

	elf_version(EV_CURRENT); /* libelf, before fd_build_id reads a file */
	s->swap = pd ? td_pd_needs_swap(pd) : 0;
	if (pd)
		load_build_ids(s, pd);
	s->debug_home = td_path_join(home && *home ? home : "/root", ".debug");
	s->frames_cap = 1024;
	s->frames_hash = xcalloc(s->frames_cap, sizeof(*s->frames_hash));
	s->ips_cap = 4096;
	s->ips = xcalloc(s->ips_cap, sizeof(*s->ips));
	return s;
}

static void free_proc(struct sym_proc *p)
{
	size_t i;

	for (i = 0; i < p->nr_jit; i++)
		free(p->jit[i].name);
	free(p->jit);
	free(p->jit_path);
	free(p->maps);
	free(p);
}

void td_sym_no_demangle(struct td_symbolizer *s)
{
	s->no_demangle = 1;
}

void td_sym_offline(struct td_symbolizer *s)
{
	s->offline = 1;
}

void td_sym_free(struct td_symbolizer *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_bids; i++)
		free(s->bids[i].path);
	free(s->bids);
	for (i = 0; i < s->nr_dsos; i++) {
		if (s->dsos[i]->dwfl)
			dwfl_end(s->dsos[i]->dwfl);
		free(s->dsos[i]->funcs);
		strvec_clear(&s->dsos[i]->plt_names);
		free(s->dsos[i]->path);
		free(s->dsos[i]);
	}
	free(s->dsos);
	for (i = 0; i < s->nr_procs; i++)
		free_proc(s->procs[i]);
	free(s->procs);
	free(s->ksyms);
	free(s->ksym_text);
	for (i = 0; i < s->nr_frames; i++) {
		free((char *)s->frames[i]->name);
		free((char *)s->frames[i]->source);
		free(s->frames[i]);
	}
	free(s->frames);
	for (i = 0; i < s->frames_cap; i++)
		free(s->frames_hash[i].symbol);
	free(s->frames_hash);
	free(s->ips);
	free(s->kernel_build_id);
	free(s->debug_home);
	strvec_clear(&s->skipped);
	for (i = 0; i < s->nr_details; i++) {
		free((char *)s->details[i].inlined);
		free((char *)s->details[i].source);
		free((char *)s->details[i].inline_chain);
	}
	free(s->details);
	free(s->detail_slots);
	for (i = 0; i < s->alloc_func_scopes; i++)
		free(s->func_scopes[i]);
	free(s->func_scopes);
	free(s);
}

/*
 * How many of n sorted elements of 'size' bytes, each starting with its
 * uint64_t address, start at or below x: the element holding x, if any,
 * is the one before that count.
 */
static size_t count_at_or_below(const void *base, size_t n, size_t size, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint64_t a;

		memcpy(&a, (const char *)base + mid * size, sizeof(a));
		if (a <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- processes and their maps ---- */

static struct sym_proc *find_proc(struct td_symbolizer *s, uint32_t pid, int create)
{
	size_t lo = 0, hi = s->nr_procs;
	struct sym_proc *p;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->procs[mid]->pid == pid)
			return s->procs[mid];
		if (s->procs[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!create)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	td_grow((void **)&s->procs, &s->alloc_procs, s->nr_procs + 1, sizeof(*s->procs));
	memmove(s->procs + lo + 1, s->procs + lo, (s->nr_procs - lo) * sizeof(*s->procs));
	s->procs[lo] = p;
	s->nr_procs++;
	return p;
}

static int is_anon_name(const char *path)
{
	return !strncmp(path, "//anon", 6) || !strncmp(path, "[anon", 5) ||
	       !strncmp(path, "/memfd:", 7) || !strncmp(path, "/tmp/perf-", 10);
}

/* The DSO of a path (and build-id, when the record carries one). */
static struct sym_dso *get_dso(struct td_symbolizer *s, const char *path,
			       const unsigned char *bid, int bid_size)
{
	struct sym_dso *d;
	size_t i;

	for (i = s->nr_dsos; i-- > 0;) {
		d = s->dsos[i];
		if (!strcmp(d->path, path) &&
		    (!bid_size || !d->build_id_size ||
		     (d->build_id_size == bid_size && !memcmp(d->build_id, bid, bid_size))))
			return d;
	}
	d = xcalloc(1, sizeof(*d));
	d->path = xstrdup(path);
	d->anon = is_anon_name(path);
	if (bid_size) {
		memcpy(d->build_id, bid, bid_size);
		d->build_id_size = bid_size;
	} else {
		for (i = 0; i < s->nr_bids; i++)
			if (!strcmp(s->bids[i].path, path)) {
				memcpy(d->build_id, s->bids[i].id, s->bids[i].size);
				d->build_id_size = s->bids[i].size;
				break;
			}
	}
	td_grow((void **)&s->dsos, &s->alloc_dsos, s->nr_dsos + 1, sizeof(*s->dsos));
	s->dsos[s->nr_dsos++] = d;
	return d;
}

/*
 * Map [start, start + len) into a process, whose maps stay sorted and
 * disjoint: what the new map covers is taken from the older ones (a later
 * mmap over a range replaces it, as in the kernel), so a lookup is a
 * binary search however many mmaps a process makes.
 */
static void add_map(struct sym_proc *p, uint64_t start, uint64_t len, uint64_t pgoff,
		    struct sym_dso *dso)
{
	uint64_t end = start + len;
	struct sym_map repl[3];
	size_t lo = 0, hi = p->nr_maps, first, last, n = 0;

	if (!len || end < start)
		return;
	while (lo < hi) { /* first map ending after start */
		size_t mid = (lo + hi) / 2;

		if (p->maps[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = last = lo;
	while (last < p->nr_maps && p->maps[last].start < end)
		last++;
	if (first < last && p->maps[first].start < start) { /* the part before stays */
		repl[n] = p->maps[first];
		repl[n++].end = start;
	}
	repl[n].start = start;
	repl[n].end = end;
	repl[n].pgoff = pgoff;
	repl[n++].dso = dso;
	if (first < last && p->maps[last - 1].end > end) { /* the part after stays */
		repl[n] = p->maps[last - 1];
		repl[n].pgoff += end - repl[n].start;
		repl[n++].start = end;
	}
	td_grow((void **)&p->maps, &p->alloc_maps, p->nr_maps + n, sizeof(*p->maps));
	memmove(p->maps + first + n, p->maps + last, (p->nr_maps - last) * sizeof(*p->maps));
	memcpy(p->maps + first, repl, n * sizeof(*repl));
	p->nr_maps = p->nr_maps - (last - first) + n;
}

/* The map of a process that holds ip, or NULL. */
static const struct sym_map *find_map(const struct sym_proc *p, uint64_t ip)
{
	size_t lo = count_at_or_below(p->maps, p->nr_maps, sizeof(*p->maps), ip);

	return lo && ip < p->maps[lo - 1].end ? &p->maps[lo - 1] : NULL;
}

int td_sym_feed(struct td_symbolizer *s, const struct td_pd_record *r)
{
	struct sym_proc *p, *parent;

	switch (r->type) {
	case TD_PD_MMAP:
	case TD_PD_MMAP2:
		if (r->u.mmap.pid == (uint32_t)-1 || !r->u.mmap.filename)
			return 0; /* kernel maps: kernel addresses go to kallsyms */
		p = find_proc(s, r->u.mmap.pid, 1);
		add_map(p, r->u.mmap.addr, r->u.mmap.len, r->u.mmap.pgoff,
			get_dso(s, r->u.mmap.filename, r->u.mmap.build_id,
				r->u.mmap.has_build_id ? r->u.mmap.build_id_size : 0));
		break;
	case TD_PD_COMM:
		if (!r->u.comm.exec)
			return 0;
		p = find_proc(s, r->u.comm.pid, 1);
		p->nr_maps = 0;
		p->gen++;
		return 1;
	case TD_PD_FORK:
		if (r->u.fork.pid == r->u.fork.ppid)
			return 0; /* a new thread shares its process' maps */
		p = find_proc(s, r->u.fork.pid, 1);
		parent = find_proc(s, r->u.fork.ppid, 0); /* find_proc may have moved it */
		/* a new process (perhaps a reused pid): the parent's maps */
		p->nr_maps = 0;
		p->gen++;
		if (parent) {
			size_t i;

			for (i = 0; i < parent->nr_maps; i++)
				add_map(p, parent->maps[i].start,
					parent->maps[i].end - parent->maps[i].start,
					parent->maps[i].pgoff, parent->maps[i].dso);
		}
		return 1;
	default:
		break;
	}
	return 0;
}

/* ---- frames ---- */

/* A copy of the function name as users read it: demangled when it is a
 * C++ ABI name the demangler takes, else as it is. */
static char *readable_name(const struct td_symbolizer *s, const char *name, int kernel)
{
	char *out;
	int status = -1;

	if (s->no_demangle || kernel || strncmp(name, "_Z", 2))
		return xstrdup(name);
	out = __cxa_demangle(name, NULL, NULL, &status);
	if (status || !out) {
		free(out);
		return xstrdup(name);
	}
	return out;
}

static struct td_frame *intern_frame(struct td_symbolizer *s, const char *name, const char *dso,
				     uint64_t offset, int known, int kernel)
{
	uint64_t h = hash_bytes(0xcbf29ce484222325ull, name, strlen(name) + 1);
	size_t i, mask;
	struct td_frame *f;

	h = hash_bytes(h, dso, strlen(dso) + 1);
	if (!known)
		h = hash_bytes(h, &offset, sizeof(offset));
	mask = s->frames_cap - 1;
	for (i = h & mask; s->frames_hash[i].frame; i = (i + 1) & mask) {
		const struct frame_slot *slot = &s->frames_hash[i];

		f = slot->frame;
		if (slot->hash == h && f->known == known &&
		    !strcmp(slot->symbol ? slot->symbol : f->name, name) &&
		    !strcmp(f->dso, dso) && (known || f->offset == offset))
			return f;
	}
	f = xcalloc(1, sizeof(*f));
	f->id = (int)s->nr_frames;
	f->name = readable_name(s, name, kernel);
	s->frames_hash[i].symbol = strcmp(f->name, name) ? xstrdup(name) : NULL;
	f->dso = dso;
	f->offset = offset;
	f->known = known;
	f->kernel = kernel;
	td_grow((void **)&s->frames, &s->alloc_frames, s->nr_frames + 1, sizeof(*s->frames));
	s->frames[s->nr_frames++] = f;
	s->frames_hash[i].hash = h;
	s->frames_hash[i].frame = f;
	if (s->nr_frames * 2 > s->frames_cap) {
		struct frame_slot *old = s->frames_hash;
		size_t oldcap = s->frames_cap, j;

		s->frames_cap *= 2;
		s->frames_hash = xcalloc(s->frames_cap, sizeof(*s->frames_hash));
		mask = s->frames_cap - 1;
		for (j = 0; j < oldcap; j++) {
			if (!old[j].frame)
				continue;
			for (i = old[j].hash & mask; s->frames_hash[i].frame; i = (i + 1) & mask)
				;
			s->frames_hash[i] = old[j];
		}
		free(old);
	}
	return f;
}

uint32_t td_sym_generation(struct td_symbolizer *s, uint32_t pid)
{
	struct sym_proc *p = find_proc(s, pid, 0);

	return p ? p->gen : 0;
}

size_t td_sym_nr_frames(const struct td_symbolizer *s)
{
	return s->nr_frames;
}

const struct td_frame *td_sym_frame(const struct td_symbolizer *s, size_t id)
{
	return id < s->nr_frames ? s->frames[id] : NULL;
}

static void add_hex(struct strbuf *hex, const unsigned char *id, int size)
{
	int k;

	for (k = 0; k < size; k++)
		strbuf_addf(hex, "%02x", id[k]);
}

int td_sym_build_id(const struct td_symbolizer *s, const char *dso, struct strbuf *hex)
{
	size_t i;

	for (i = 0; i < s->nr_dsos; i++)
		if (s->dsos[i]->build_id_size && !strcmp(s->dsos[i]->path, dso)) {
			add_hex(hex, s->dsos[i]->build_id, s->dsos[i]->build_id_size);
			return 1;
		}
	for (i = 0; i < s->nr_bids; i++)
		if (s->bids[i].size && !strcmp(s->bids[i].path, dso)) {
			add_hex(hex, s->bids[i].id, s->bids[i].size);
			return 1;
		}
	return 0;
}

/* ---- files the recording names ---- */

/* Say once per path that a file was not read, and why. */
static void note_skipped(struct td_symbolizer *s, const char *path, const char *why)
{
	size_t i;

	for (i = 0; i < s->skipped.nr; i++)
		if (!strcmp(s->skipped.v[i], path))
			return;
	strvec_push(&s->skipped, path);
	note("%s: %s; its symbols are not used", path, why);
}

/*
 * Open a file the recording names (see pd_open_regular): its descriptor,
 * or -1 when it is missing or unreadable (nothing said: a recording
 * outlives its files) or not a regular file (said once).
 */
static int open_named(struct td_symbolizer *s, const char *path, struct stat *st)
{
	int fd = pd_open_regular(path, 0, st);
	struct strbuf why = STRBUF_INIT;

	if (fd != PD_OPEN_NOT_REGULAR)
		return fd < 0 ? -1 : fd;
	strbuf_addf(&why, "%s, not a regular file", pd_file_kind(st->st_mode));
	note_skipped(s, path, why.buf);
	strbuf_release(&why);
	return -1;
}

/* Read a text file the recording names into sb: 0, or -1 (sb empty). */
static int read_named(struct td_symbolizer *s, const char *path, struct strbuf *sb)
{
	struct stat st;
	int fd = open_named(s, path, &st), ret;

	if (fd < 0)
		return -1;
	ret = td_read_fd(sb, fd);
	close(fd);
	if (ret < 0)
		strbuf_reset(sb);
	return ret;
}

/* ---- kernel ---- */

static int ksym_cmp(const void *a, const void *b)
{
	const struct sym_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Load kernel text symbols: perf's cached kallsyms of the recorded kernel
 * (~/.debug/[kernel.kallsyms]/BUILDID/kallsyms) when the file names one,
 * else the running kernel's /proc/kallsyms.
 */
static void load_ksyms(struct td_symbolizer *s)
{
	struct strbuf text = STRBUF_INIT;
	char *line, *next;

	s->ksyms_loaded = 1;
	if (s->offline)
		return;
	if (s->kernel_build_id) {
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "%s/[kernel.kallsyms]/%s/kallsyms", s->debug_home, s->kernel_build_id);
		read_named(s, path.buf, &text);
		strbuf_release(&path);
	}
	if (!text.len && read_named(s, "/proc/kallsyms", &text) < 0) {
		strbuf_release(&text);
		return;
	}
	s->ksym_text = strbuf_detach(&text, NULL);
	for (line = s->ksym_text; line && *line; line = next) {
		char *addr_end, *type, *name, *mod;
		uint64_t addr;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		addr = strtoull(line, &addr_end, 16);
		if (addr_end == line || *addr_end != ' ')
			continue;
		type = addr_end + 1;
		if (!strchr("tTwW", *type) || type[1] != ' ' || !addr)
			continue;
		name = type + 2;
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			if (*mod == '[') {
				mod++;
				mod[strcspn(mod, "]")] = '\0';
			}
		}
		TD_GROW(s->ksyms, s->alloc_ksyms, s->nr_ksyms + 1);
		s->ksyms[s->nr_ksyms].addr = addr;
		s->ksyms[s->nr_ksyms].name = name;
		s->ksyms[s->nr_ksyms].module = mod;
		s->nr_ksyms++;
	}
	qsort(s->ksyms, s->nr_ksyms, sizeof(*s->ksyms), ksym_cmp);
}

static struct td_frame *resolve_kernel(struct td_symbolizer *s, uint64_t ip)
{
	size_t lo;

	if (!s->ksyms_loaded)
		load_ksyms(s);
	lo = count_at_or_below(s->ksyms, s->nr_ksyms, sizeof(*s->ksyms), ip);
	if (lo == 0 || lo == s->nr_ksyms) /* before the first or past the last symbol */
		return intern_frame(s, "[unknown]", "[kernel.kallsyms]", ip, 0, 1);
	lo--;
	if (s->ksyms[lo].module) {
		struct strbuf dso = STRBUF_INIT;
		struct sym_dso *d;

		strbuf_addf(&dso, "[%s]", s->ksyms[lo].module);
		d = get_dso(s, dso.buf, NULL, 0);
		strbuf_release(&dso);
		return intern_frame(s, s->ksyms[lo].name, d->path, 0, 1, 1);
	}
	return intern_frame(s, s->ksyms[lo].name, "[kernel.kallsyms]", 0, 1, 1);
}

/* ---- JIT maps ---- */

static int jit_cmp(const void *a, const void *b)
{
	const struct sym_jit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * The text of a JIT map, when it can be trusted: /tmp is everyone's, so
 * any user can leave a perf-PID.map there for a process of someone else's
 * and name its samples.  As perf does (since 6.x), a map is read only when
 * its owner is the user tdperf runs as or root; and never through a
 * symbolic link, which would let its owner choose the file.  The owner is
 * that of the file open, not of a path looked at before.
 */
static int read_jit_map(struct td_symbolizer *s, const char *path, struct strbuf *text)
{
	struct stat st;
	struct strbuf why = STRBUF_INIT;
	int fd = pd_open_regular(path, PD_OPEN_NOFOLLOW, &st), ret;

	if (fd == PD_OPEN_FAILED && errno == ELOOP)
		strbuf_addstr(&why, "a symbolic link, not followed");
	else if (fd == PD_OPEN_NOT_REGULAR)
		strbuf_addf(&why, "%s, not a regular file", pd_file_kind(st.st_mode));
	else if (fd >= 0 && st.st_uid != geteuid() && st.st_uid != 0)
		strbuf_addf(&why, "owned by uid %lu, not by you or root", (unsigned long)st.st_uid);
	if (why.len)
		note_skipped(s, path, why.buf);
	strbuf_release(&why);
	if (fd < 0)
		return -1;
	ret = st.st_uid != geteuid() && st.st_uid != 0 ? -1 : td_read_fd(text, fd);
	close(fd);
	return ret;
}

/* Read /tmp/perf-PID.map: "START SIZE name" per line, hex numbers. */
static void load_jit(struct td_symbolizer *s, struct sym_proc *p)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char *line, *next;

	p->jit_loaded = 1;
	strbuf_addf(&path, "/tmp/perf-%" PRIu32 ".map", p->pid);
	p->jit_path = strbuf_detach(&path, NULL);
	if (s->offline || read_jit_map(s, p->jit_path, &text) < 0) {
		strbuf_release(&text);
		return;
	}
	for (line = text.buf; line && *line; line = next) {
		char *e1, *e2;
		uint64_t start, size;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		start = strtoull(line, &e1, 16);
		if (e1 == line || *e1 != ' ')
			continue;
		size = strtoull(e1 + 1, &e2, 16);
		if (e2 == e1 + 1 || *e2 != ' ' || !size)
			continue;
		TD_GROW(p->jit, p->alloc_jit, p->nr_jit + 1);
		p->jit[p->nr_jit].start = start;
		p->jit[p->nr_jit].end = start + size;
		p->jit[p->nr_jit].name = xstrdup(e2 + 1);
		p->nr_jit++;
	}
	strbuf_release(&text);
	qsort(p->jit, p->nr_jit, sizeof(*p->jit), jit_cmp);
}

static struct td_frame *resolve_jit(struct td_symbolizer *s, struct sym_proc *p, uint64_t ip)
{
	size_t lo;

	if (!p->jit_loaded)
		load_jit(s, p);
	lo = count_at_or_below(p->jit, p->nr_jit, sizeof(*p->jit), ip);
	if (lo && ip < p->jit[lo - 1].end) {
		struct sym_dso *d = get_dso(s, p->jit_path, NULL, 0);

		return intern_frame(s, p->jit[lo - 1].name, d->path, 0, 1, 0);
	}
	return NULL;
}

/* ---- ELF files through libdwfl ---- */

/* The build-id of the ELF file open at fd: its length (0: none), the bytes in id. */
static int fd_build_id(int fd, unsigned char id[PD_BUILD_ID_READ_MAX])
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *bits;
	ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &bits) : -1;
	int len = 0;

	if (n > 0 && n <= PD_BUILD_ID_READ_MAX) {
		memcpy(id, bits, (size_t)n);
		len = (int)n;
	}
	if (elf)
		elf_end(elf);
	return len;
}

static int fd_has_build_id(int fd, const unsigned char *id, int size)
{
	unsigned char have[PD_BUILD_ID_READ_MAX];

	return size && fd_build_id(fd, have) == size && !memcmp(have, id, (size_t)size);
}

/*
 * The CRC-32 that .gnu_debuglink records of its debug file (the common
 * reflected polynomial 0xedb88320), of the file open at fd: 0, or -1.
 */
static int fd_crc32(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	uint32_t c = 0xffffffffu;
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(fd, buf, sizeof(buf), off), i;
		int k;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		for (i = 0; i < n; i++)
			for (c ^= buf[i], k = 0; k < 8; k++)
				c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
		off += n;
	}
	*crc = ~c;
	return 0;
}

/*
 * A debug file candidate: its descriptor when it is a regular file with
 * the build-id want (want_len > 0), else with the CRC crc (crc != 0),
 * else any; -1 when not.
 */
static int open_debug_candidate(struct td_symbolizer *s, const char *path, const char *main_path,
				const unsigned char *want, int want_len, GElf_Word crc)
{
	struct stat st;
	uint32_t have;
	int fd;

	if (main_path && !strcmp(path, main_path))
		return -1;
	fd = open_named(s, path, &st);
	if (fd < 0)
		return -1;
	if (want_len ? fd_has_build_id(fd, want, want_len) :
	    !crc || (fd_crc32(fd, &have) == 0 && have == crc))
		return fd;
	close(fd);
	return -1;
}

/* The directory part of path ("." when it has none). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/*
 * The name and build-id that the .gnu_debugaltlink section of the ELF
 * file at path records (a dwz file of debug info shared by several
 * files): the build-id's length, or 0 when it has none.
 */
static int read_altlink(struct td_symbolizer *s, const char *path, char **name,
			unsigned char id[PD_BUILD_ID_READ_MAX])
{
	struct stat st;
	int fd = open_named(s, path, &st), len = 0;
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	*name = NULL;
	if (elf && !elf_getshdrstrndx(elf, &shstrndx)) {
		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;
			const char *sname;
			Elf_Data *data;
			size_t n;

			if (!gelf_getshdr(scn, &sh) ||
			    !(sname = elf_strptr(elf, shstrndx, sh.sh_name)) ||
			    strcmp(sname, ".gnu_debugaltlink"))
				continue;
			if (!(data = elf_getdata(scn, NULL)) || !data->d_buf)
				break;
			n = strnlen(data->d_buf, data->d_size);
			if (n && n < data->d_size && data->d_size - n - 1 <= PD_BUILD_ID_READ_MAX) {
				*name = xstrndup(data->d_buf, n);
				len = (int)(data->d_size - n - 1);
				memcpy(id, (const char *)data->d_buf + n + 1, (size_t)len);
			}
			break;
		}
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return len;
}

/* "/usr/lib/debug/.build-id/xx/rest.debug" of a build-id */
static void add_build_id_path(struct strvec *paths, const unsigned char *id, int len)
{
	struct strbuf sb = STRBUF_INIT;
	int k;

	if (len < 2)
		return;
	strbuf_addf(&sb, "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (k = 1; k < len; k++)
		strbuf_addf(&sb, "%02x", id[k]);
	strbuf_addstr(&sb, ".debug");
	strvec_push(paths, sb.buf);
	strbuf_release(&sb);
}

/*
 * Where a debug link name is looked for, as elfutils, gdb and perf do:
 * beside the file, in .debug/ beside it, and under /usr/lib/debug; for a
 * symbolic link, beside its target too.
 */
static void add_debuglink_paths(struct strvec *paths, const char *file, const char *link)
{
	char real[PATH_MAX];
	char *dirs[2];
	int nr = 0, k;

	if (link[0] == '/') {
		strvec_push(paths, link);
		return;
	}
	dirs[nr++] = dir_of(file);
	if (realpath(file, real)) {
		dirs[nr] = dir_of(real);
		if (strcmp(dirs[nr], dirs[0]))
			nr++;
		else
			free(dirs[nr]);
	}
	for (k = 0; k < nr; k++) {
		char *p = td_path_join(dirs[k], link), *dot = td_path_join(dirs[k], ".debug");
		char *in_dot = td_path_join(dot, link);
		struct strbuf sys = STRBUF_INIT;

		strvec_push(paths, p);
		strvec_push(paths, in_dot);
		if (dirs[k][0] == '/') {
			strbuf_addf(&sys, "/usr/lib/debug%s/%s",
				    strcmp(dirs[k], "/") ? dirs[k] : "", link);
			strvec_push(paths, sys.buf);
		}
		strbuf_release(&sys);
		free(p);
		free(dot);
		free(in_dot);
		free(dirs[k]);
	}
}

/*
 * Where the dwz file that the debug info of file refers to is: the
 * altlink's build-id under /usr/lib/debug, then its name, absolute or
 * beside file.
 */
static void add_altlink_paths(struct strvec *paths, const char *file, const char *altname,
			      const unsigned char *id, int len)
{
	char *dir, *p;

	add_build_id_path(paths, id, len);
	if (altname[0] == '/') {
		strvec_push(paths, altname);
		return;
	}
	dir = dir_of(file);
	p = td_path_join(dir, altname);
	strvec_push(paths, p);
	free(p);
	free(dir);
}

/* 1 when a path holds something that is neither a regular file nor a directory. */
static int is_special_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/*
 * libdwfl's find_debuginfo callback: a module's separate debug file (its
 * .gnu_debuglink, or its build-id under /usr/lib/debug), or the dwz file
 * its debug info refers to (.gnu_debugaltlink).  libdwfl's standard
 * search opens its candidates with a plain open(2), and the binary's own
 * directory is among them, so a FIFO planted there would block it; here
 * each is opened as pd_open_regular does and taken only with the right
 * build-id (or CRC).  No debuginfod download.
 *
 * A dwz link to a FIFO or a device is answered with the debug file
 * itself: libdw would otherwise look for the dwz file on its own, with a
 * plain open(2), when it meets a reference into it.  The hostile module
 * then loses the names its dwz file held, and nothing else.
 */
static int find_debuginfo_safely(Dwfl_Module *mod, void **userdata, const char *modname,
				 Dwarf_Addr base, const char *file_name, const char *debuglink_file,
				 GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct td_symbolizer *s = *userdata;
	struct strvec paths = STRVEC_INIT;
	unsigned char want[PD_BUILD_ID_READ_MAX];
	const unsigned char *bits;
	GElf_Addr vaddr;
	char *altname = NULL;
	int want_len = 0, alt = 0, fd = -1;
	size_t i;

	(void)modname;
	(void)base;
	if (!s || !file_name)
		return -1;
	/* libdwfl asks for a dwz file with its name and no CRC */
	if (debuglink_file && !debuglink_crc)
		want_len = read_altlink(s, file_name, &altname, want);
	if (want_len > 0 && !strcmp(altname, debuglink_file)) {
		alt = 1;
		add_altlink_paths(&paths, file_name, altname, want, want_len);
	} else {
		int n = dwfl_module_build_id(mod, &bits, &vaddr);

		want_len = n > 0 && n <= PD_BUILD_ID_READ_MAX ? n : 0;
		if (want_len)
			memcpy(want, bits, (size_t)want_len);
		add_build_id_path(&paths, want, want_len);
		if (debuglink_file)
			add_debuglink_paths(&paths, file_name, debuglink_file);
	}
	free(altname);
	for (i = 0; i < paths.nr && fd < 0; i++)
		fd = open_debug_candidate(s, paths.v[i], file_name, want, want_len, debuglink_crc);
	if (fd >= 0) {
		*debuginfo_file_name = xstrdup(paths.v[i - 1]);
	} else if (alt) {
		struct stat st;

		for (i = 0; i < paths.nr && !is_special_file(paths.v[i]); i++)
			;
		if (i < paths.nr && (fd = open_named(s, file_name, &st)) >= 0)
			*debuginfo_file_name = xstrdup(file_name);
	}
	strvec_clear(&paths);
	return fd;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf, /* not called: every module is reported with its file */
	.find_debuginfo = find_debuginfo_safely,
	.section_address = dwfl_offline_section_address,
};

/* The path of the DSO's copy in perf's build-id cache. */
static char *build_id_cache_path(const struct td_symbolizer *s, const struct sym_dso *d)
{
	struct strbuf sb = STRBUF_INIT;
	int k;

	strbuf_addf(&sb, "%s/.build-id/%02x/", s->debug_home, d->build_id[0]);
	for (k = 1; k < d->build_id_size; k++)
		strbuf_addf(&sb, "%02x", d->build_id[k]);
	strbuf_addstr(&sb, "/elf");
	return strbuf_detach(&sb, NULL);
}

/* Hand libdwfl the ELF file open at fd (which it then owns), read as path. */
static void report_dso(struct td_symbolizer *s, struct sym_dso *d, const char *path, int fd)
{
	void **userdata;

	d->dwfl = dwfl_begin(&dwfl_callbacks);
	if (d->dwfl)
		d->mod = dwfl_report_elf(d->dwfl, strrchr(d->path, '/') + 1, path, fd, 0, false);
	if (!d->mod) {
		close(fd);
		return;
	}
	dwfl_report_end(d->dwfl, NULL, NULL);
	/* the debug file search (find_debuginfo_safely) says what it skips */
	if (dwfl_module_info(d->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
		*userdata = s;
}

/*
 * Open the DSO's ELF file: the recorded path when it is still the file
 * that was recorded, else perf's build-id cache copy.  Each is opened
 * once, checked and read through the same descriptor (open_named).
 */
static void open_dso(struct td_symbolizer *s, struct sym_dso *d)
{
	struct stat st;
	char *cached = NULL;
	const char *path = d->path;
	int fd;

	d->opened = 1;
	if (d->anon || d->path[0] != '/' || s->offline)
		return;
	fd = open_named(s, path, &st);
	if (d->build_id_size && (fd < 0 || !fd_has_build_id(fd, d->build_id, d->build_id_size))) {
		if (fd >= 0)
			close(fd);
		path = cached = build_id_cache_path(s, d);
		fd = open_named(s, path, &st);
	}
	if (fd >= 0)
		report_dso(s, d, path, fd);
	free(cached);
}

/* The link-time address of a file offset, through the PT_LOAD headers. */
static int offset_to_vaddr(Dwfl_Module *mod, uint64_t off, uint64_t *addr)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t n, i;

	if (!elf || elf_getphdrnum(elf, &n))
		return -1;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (off >= ph.p_offset && off < ph.p_offset + ph.p_filesz) {
			*addr = off - ph.p_offset + ph.p_vaddr + bias;
			return 0;
		}
	}
	return -1;
}

/* "file.c:LINE" of an address from the DWARF line table, or NULL. */
static char *source_of(Dwfl_Module *mod, uint64_t addr)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
	const char *file;
	int lineno = 0;
	struct strbuf sb = STRBUF_INIT;

	if (!line || !(file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL)))
		return NULL;
	strbuf_addf(&sb, "%s:%d", file, lineno);
	return strbuf_detach(&sb, NULL);
}

/*
 * Of two function symbols at one address, the one perf report names:
 * sized over sizeless, not weak over weak, global over local, fewer
 * leading underscores, then the longer name.  Negative when a is better.
 */
static int better_func(const struct sym_func *a, const struct sym_func *b)
{
	static const int rank[] = { [STB_GLOBAL] = 0, [STB_LOCAL] = 1, [STB_WEAK] = 2 };
	int ra = a->bind <= STB_WEAK ? rank[a->bind] : 3, rb = b->bind <= STB_WEAK ? rank[b->bind] : 3;
	size_t ua = strspn(a->name, "_"), ub = strspn(b->name, "_");

	if (!a->size != !b->size)
		return a->size ? -1 : 1;
	if (ra != rb)
		return ra - rb;
	if (ua != ub)
		return ua < ub ? -1 : 1;
	return strlen(a->name) > strlen(b->name) ? -1 : strlen(a->name) < strlen(b->name);
}

static int func_cmp(const void *x, const void *y)
{
	const struct sym_func *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return better_func(a, b);
}

/*
 * Is section shndx of elf the .text section?  A label there (an STT_NOTYPE
 * symbol, such as the dynamic loader's _start in its debug file) names
 * code as perf names it: perf takes such labels as functions that end
 * where the next symbol starts, and a sample at ld.so's entry point is
 * "_start" in perf report, not an unnamed address.
 */
static int in_text(Elf *elf, GElf_Word shndx)
{
	size_t shstrndx;
	Elf_Scn *scn;
	GElf_Shdr shdr;
	const char *name;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) < 0 || !(scn = elf_getscn(elf, shndx)) ||
	    !gelf_getshdr(scn, &shdr))
		return 0;
	name = elf_strptr(elf, shstrndx, shdr.sh_name);
	return name && !strcmp(name, ".text");
}

/* The section of elf named name, with its header, or NULL. */
static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/*
 * The PLT's layout: the bytes of its header (the lazy resolver's stub)
 * and of each entry, by machine (the x86-64 and AArch64 psABIs); 0 for a
 * machine whose PLT we do not name.
 */
static size_t plt_entry_size(Elf *elf, size_t *header)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh))
		return 0;
	switch (eh.e_machine) {
	case EM_X86_64:
	case EM_386:
		*header = 16;
		return 16;
	case EM_AARCH64:
		*header = 32;
		return 16;
	default:
		return 0;
	}
}

/*
 * Name the PLT stubs as perf names them, "NAME@plt": perf report and perf
 * script (6.1, observed on this machine's libc) give the i-th relocation
 * of .rela.plt to the i-th entry after the header, in the relocations'
 * order, and a relocation without a symbol (R_X86_64_IRELATIVE, libc's
 * calls of its own ifuncs) names its entry "@plt".  Without these, a
 * sample in a stub had no function where perf has one.  A binary with a
 * separate .plt.sec (x86 IBT) has its stubs elsewhere: left unnamed.
 */
static void add_plt_funcs(struct sym_dso *d, size_t *cap)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(d->mod, &bias);
	GElf_Shdr plt, rela, dynsym, probe;
	Elf_Scn *plt_scn, *rela_scn, *sym_scn;
	Elf_Data *rd, *sd;
	size_t header = 0, entry, n, i;

	if (!elf || !(entry = plt_entry_size(elf, &header)) ||
	    !(plt_scn = section_named(elf, ".plt", &plt)) || section_named(elf, ".plt.sec", &probe) ||
	    !(rela_scn = section_named(elf, ".rela.plt", &rela)) || rela.sh_type != SHT_RELA ||
	    !(sym_scn = elf_getscn(elf, rela.sh_link)) || !gelf_getshdr(sym_scn, &dynsym) ||
	    !(rd = elf_getdata(rela_scn, NULL)) || !(sd = elf_getdata(sym_scn, NULL)) ||
	    !rela.sh_entsize)
		return;
	n = rela.sh_size / rela.sh_entsize;
	for (i = 0; i < n && header + (i + 1) * entry <= plt.sh_size; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name = "";
		size_t symi;

		if (!gelf_getrela(rd, (int)i, &r))
			break;
		symi = GELF_R_SYM(r.r_info);
		if (symi && gelf_getsym(sd, (int)symi, &sym))
			name = elf_strptr(elf, dynsym.sh_link, sym.st_name);
		strvec_pushf(&d->plt_names, "%s@plt", name ? name : "");
		TD_GROW(d->funcs, *cap, d->nr_funcs + 1);
		d->funcs[d->nr_funcs].addr = plt.sh_addr + bias + header + i * entry;
		d->funcs[d->nr_funcs].size = entry;
		d->funcs[d->nr_funcs].name = d->plt_names.v[d->plt_names.nr - 1];
		d->funcs[d->nr_funcs].bind = STB_GLOBAL;
		d->nr_funcs++;
	}
}

/*
 * The DSO's function symbols (from whichever symbol table libdwfl found:
 * the file's, its separate debug file's, or the dynamic one), sorted once
 * so that each lookup is a binary search; libdwfl's own address lookup
 * scans the whole table on every call.
 */
static void load_funcs(struct sym_dso *d)
{
	int n = dwfl_module_getsymtab(d->mod), i;
	size_t k, out = 0, cap;

	d->funcs_loaded = 1;
	if (n < 0)
		n = 0;
	cap = (size_t)n + 1;
	d->funcs = xmalloc(cap * sizeof(*d->funcs));
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		const char *name = dwfl_module_getsym_info(d->mod, i, &sym, &addr, &shndx, &elf, NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || sym.st_shndx == SHN_UNDEF || shndx == (GElf_Word)-1)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC && !(type == STT_NOTYPE && in_text(elf, shndx)))
			continue;
		d->funcs[d->nr_funcs].addr = addr;
		d->funcs[d->nr_funcs].size = sym.st_size;
		d->funcs[d->nr_funcs].name = name;
		d->funcs[d->nr_funcs].bind = (unsigned char)GELF_ST_BIND(sym.st_info);
		d->nr_funcs++;
	}
	add_plt_funcs(d, &cap);
	qsort(d->funcs, d->nr_funcs, sizeof(*d->funcs), func_cmp);
	for (k = 0; k < d->nr_funcs; k++) /* the best of each address was sorted first */
		if (!out || d->funcs[k].addr != d->funcs[out - 1].addr)
			d->funcs[out++] = d->funcs[k];
	d->nr_funcs = out;
}

/* The function containing addr; a sizeless one ends where the next starts. */
static const struct sym_func *find_func(struct sym_dso *d, uint64_t addr)
{
	size_t lo;
	const struct sym_func *f;

	if (!d->funcs_loaded)
		load_funcs(d);
	lo = count_at_or_below(d->funcs, d->nr_funcs, sizeof(*d->funcs), addr);
	if (!lo)
		return NULL;
	f = &d->funcs[lo - 1];
	if (f->size ? addr < f->addr + f->size : lo == d->nr_funcs || addr < d->funcs[lo].addr)
		return f;
	return NULL;
}

static struct td_frame *resolve_file(struct td_symbolizer *s, const struct sym_map *m, uint64_t ip)
{
	struct sym_dso *d = m->dso;
	uint64_t off = ip - m->start + m->pgoff, addr;
	const struct sym_func *fn;
	struct td_frame *f;

	if (!d->opened)
		open_dso(s, d);
	if (!d->mod || offset_to_vaddr(d->mod, off, &addr) < 0)
		return intern_frame(s, "[unknown]", d->path, off, 0, 0);
	fn = find_func(d, addr);
	if (!fn)
		return intern_frame(s, "[unknown]", d->path, off, 0, 0);
	f = intern_frame(s, fn->name, d->path, 0, 1, 0);
	if (!f->source && !f->source_tried) {
		f->source_tried = 1;
		f->source = source_of(d->mod, fn->addr);
	}
	return f;
}

/* Resolve a user address of process pid. */
static struct td_frame *resolve_user(struct td_symbolizer *s, uint32_t pid, uint64_t ip)
{
	struct sym_proc *p = find_proc(s, pid, 1);
	const struct sym_map *m = find_map(p, ip);
	struct td_frame *f;

	if (m && !m->dso->anon)
		return resolve_file(s, m, ip);
	f = resolve_jit(s, p, ip);
	if (f)
		return f;
	return m ? intern_frame(s, "[unknown]", m->dso->path, ip - m->start, 0, 0)
		 : intern_frame(s, "[unknown]", "[unknown]", ip, 0, 0);
}

static void ip_cache_grow(struct td_symbolizer *s)
{
	struct ip_slot *old = s->ips;
	size_t oldcap = s->ips_cap, j, i, mask;

	if (s->ips_cap >= SYM_IP_CACHE_MAX) { /* bounded: start over */
		memset(s->ips, 0, s->ips_cap * sizeof(*s->ips));
		s->ips_used = 0;
		return;
	}
	s->ips_cap *= 2;
	s->ips = xcalloc(s->ips_cap, sizeof(*s->ips));
	mask = s->ips_cap - 1;
	for (j = 0; j < oldcap; j++) {
		if (!old[j].gen)
			continue;
		for (i = hash_mix(old[j].ip ^ ((uint64_t)old[j].pid << 32) ^ old[j].kernel) & mask;
		     s->ips[i].gen; i = (i + 1) & mask)
			;
		s->ips[i] = old[j];
	}
	free(old);
}

const struct td_frame *td_sym_resolve(struct td_symbolizer *s, uint32_t pid, uint64_t ip, int kernel)
{
	struct sym_proc *p = kernel ? NULL : find_proc(s, pid, 1);
	uint32_t gen = (p ? p->gen : 0) + 1;
	size_t mask = s->ips_cap - 1, i;
	struct td_frame *f;

	if (kernel)
		pid = (uint32_t)-1;
	for (i = hash_mix(ip ^ ((uint64_t)pid << 32) ^ (uint32_t)kernel) & mask; s->ips[i].gen;
	     i = (i + 1) & mask)
		if (s->ips[i].ip == ip && s->ips[i].pid == pid && s->ips[i].gen == gen &&
		    s->ips[i].kernel == (uint32_t)kernel)
			return s->ips[i].frame;
	f = kernel ? resolve_kernel(s, ip) : resolve_user(s, pid, ip);
	s->ips[i].ip = ip;
	s->ips[i].pid = pid;
	s->ips[i].gen = gen;
	s->ips[i].kernel = (uint32_t)kernel;
	s->ips[i].frame = f;
	if (++s->ips_used * 2 > s->ips_cap)
		ip_cache_grow(s);
	return f;
}

/* ---- details of sampled instructions (source line, inlined function) ---- */

/* The module and link-time address of a user ip, or NULL. */
static Dwfl_Module *locate(struct td_symbolizer *s, uint32_t pid, uint64_t ip, uint64_t *addr)
{
	struct sym_proc *p = find_proc(s, pid, 0);
	const struct sym_map *m = p ? find_map(p, ip) : NULL;

	if (!m || m->dso->anon || !m->dso->opened || !m->dso->mod ||
	    offset_to_vaddr(m->dso->mod, ip - m->start + m->pgoff, addr) < 0)
		return NULL;
	return m->dso->mod;
}

static int new_detail(struct td_symbolizer *s, int frame, Dwfl_Module *mod, uint64_t addr)
{
	char *inl, *src, *chain;

	if ((size_t)frame >= s->alloc_func_scopes) {
		size_t old = s->alloc_func_scopes;

		td_grow((void **)&s->func_scopes, &s->alloc_func_scopes, (size_t)frame + 1,
			sizeof(*s->func_scopes));
		memset(s->func_scopes + old, 0, (s->alloc_func_scopes - old) * sizeof(*s->func_scopes));
	}
	pd_addr_detail(mod, addr, &s->func_scopes[frame], &inl, &src, &chain);
	if (!inl && !src)
		return -1;
	td_grow((void **)&s->details, &s->alloc_details, s->nr_details + 1, sizeof(*s->details));
	s->details[s->nr_details].frame = frame;
	s->details[s->nr_details].inlined = inl;
	s->details[s->nr_details].source = src;
	s->details[s->nr_details].inline_chain = chain;
	return (int)s->nr_details++;
}

static void detail_rehash(struct td_symbolizer *s)
{
	size_t oldcap = s->detail_cap, j, i, mask;
	__typeof__(s->detail_slots) old = s->detail_slots;

	s->detail_cap = oldcap ? 2 * oldcap : 1024;
	s->detail_slots = xcalloc(s->detail_cap, sizeof(*s->detail_slots));
	mask = s->detail_cap - 1;
	for (j = 0; j < oldcap; j++) {
		if (!old[j].mod)
			continue;
		for (i = hash_mix(old[j].addr ^ (uintptr_t)old[j].mod) & mask; s->detail_slots[i].mod;
		     i = (i + 1) & mask)
			;
		s->detail_slots[i] = old[j];
	}
	free(old);
}

int td_sym_leaf_detail(struct td_symbolizer *s, uint32_t pid, uint64_t ip, int kernel)
{
	const struct td_frame *f;
	Dwfl_Module *mod;
	uint64_t addr;
	size_t i, mask;
	int id;

	if (kernel || s->offline)
		return -1;
	f = td_sym_resolve(s, pid, ip, 0); /* opens the DSO when needed */
	if (!f->known || !(mod = locate(s, pid, ip, &addr)))
		return -1;
	if ((s->detail_used + 1) * 2 > s->detail_cap)
		detail_rehash(s);
	mask = s->detail_cap - 1;
	for (i = hash_mix(addr ^ (uintptr_t)mod) & mask; s->detail_slots[i].mod; i = (i + 1) & mask)
		if (s->detail_slots[i].mod == mod && s->detail_slots[i].addr == addr)
			return s->detail_slots[i].id;
	id = new_detail(s, f->id, mod, addr);
	s->detail_used++;
	s->detail_slots[i].mod = mod;
	s->detail_slots[i].addr = addr;
	s->detail_slots[i].id = id;
	return id;
}

const struct td_sym_detail *td_sym_detail(const struct td_symbolizer *s, int id)
{
	return id >= 0 && (size_t)id < s->nr_details ? &s->details[id] : NULL;
}
