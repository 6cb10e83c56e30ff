/*
 * Leader-sampled groups of emulated events (perf's "{a,b}:S"): the leader
 * is a real cpu-clock sampling event of the kernel (see open_sampler() in
 * emu.c) and each member a real software dummy event in the kernel's
 * group, so the kernel writes every sample with a READ block of the right
 * size whose ids are the ids perf got for the members.  Only the values
 * are the kernel's wrong ones, so every ring buffer perf maps is a copy:
 * perf reads an anonymous ring that this file fills from the kernel's,
 * writing into each sample's READ block the emulated group counts.
 *
 * The counts depend on where the task is: between two samples of one
 * counter stream (event instance and thread) each event counts at the
 * rate of the function the later sample's IP falls in (PMU_EMU_IP_RATES:
 * "binary PATH", then "SYMBOL CONFIG=RATE ..." with rates per core cycle),
 * else at its default rate, for the cpu-clock time that passed.  What a
 * sample added is the true count of its function; it is logged once perf
 * has consumed the sample ("ipcount" lines), so the test knows what a
 * per-function report must say.
 */
#define _GNU_SOURCE
#include "emu.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_MEMBERS 16
#define MAX_SYMS 16

struct sgroup {
	int fd;                       /* the kernel's cpu-clock leader */
	uint64_t id;
	struct perf_event_attr attr;  /* as perf asked for the leader */
	int n;
	uint64_t config[MAX_MEMBERS], ids[MAX_MEMBERS], masks[MAX_MEMBERS];
	double rate[MAX_MEMBERS];     /* default, events per ns */
};

struct stream {
	uint64_t id;
	uint32_t tid;
	uint64_t last_ns;
	double cum[MAX_MEMBERS];
};

struct pending {                      /* a copied sample perf has not read yet */
	uint64_t end;                 /* fake ring offset after it */
	int sym, n;
	uint64_t config[MAX_MEMBERS];
	double add[MAX_MEMBERS];
};

struct ring {
	void *fake, *real;
	size_t len;
	uint64_t rtail, fhead;
	struct pending *q;
	size_t qhead, qlen, qcap;
};

struct symrange { uint64_t lo, hi; };

static struct sgroup *groups;
static int nr_groups;
static struct stream *streams;
static int nr_streams;
static struct ring *rings;
static int nr_rings;
static pthread_mutex_t slock = PTHREAD_MUTEX_INITIALIZER;
static int copier_started;

/* --ip-rates: the binary, its rated symbols, their rates */
static char ip_binary[PATH_MAX];
static int nr_syms;
static char sym_name[MAX_SYMS][128];
static struct symrange sym_range[MAX_SYMS];
static int nr_sym_rates[MAX_SYMS];
static uint64_t sym_config[MAX_SYMS][MAX_MEMBERS];
static double sym_rate[MAX_SYMS][MAX_MEMBERS];
static double ghz;
static void (*log_fn)(const char *fmt, ...);
static int had_rings, logged;
static int syms_resolved;
/* truth: [symbol or nr_syms for the rest][config slot] */
static uint64_t truth_config[MAX_MEMBERS];
static int nr_truth_configs;
static double truth[MAX_SYMS + 1][MAX_MEMBERS];
static uint64_t truth_samples[MAX_SYMS + 1];

static void log_truth(void);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static int (*real_poll)(struct pollfd *, nfds_t, int);

static void resolve(void)
{
	if (real_mmap)
		return;
	real_munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
	real_poll = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
}

/* Read PMU_EMU_IP_RATES once; a bad file ends the process with one line. */
void emu_sample_init(double core_ghz, void (*log)(const char *fmt, ...))
{
	const char *path = getenv("PMU_EMU_IP_RATES");
	char line[1024];
	FILE *f;
	int ln = 0;

	resolve();
	ghz = core_ghz;
	log_fn = log;
	if (!path)
		return;
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "pmu-emu: %s: cannot read the IP rates\n", path);
		_exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save;

		ln++;
		tok = strtok_r(line, " \t\n", &save);
		if (!tok || *tok == '#')
			continue;
		if (!strcmp(tok, "binary")) {
			tok = strtok_r(NULL, " \t\n", &save);
			if (!tok || !realpath(tok, ip_binary))
				goto bad;
			continue;
		}
		if (nr_syms == MAX_SYMS || strlen(tok) >= sizeof(sym_name[0]))
			goto bad;
		strcpy(sym_name[nr_syms], tok);
		while ((tok = strtok_r(NULL, " \t\n", &save))) {
			char *eq = strchr(tok, '='), *end;
			int k = nr_sym_rates[nr_syms];

			if (!eq || k == MAX_MEMBERS)
				goto bad;
			sym_config[nr_syms][k] = strtoull(tok, &end, 0);
			if (end != eq)
				goto bad;
			sym_rate[nr_syms][k] = strtod(eq + 1, &end);
			if (*end || end == eq + 1)
				goto bad;
			nr_sym_rates[nr_syms]++;
		}
		nr_syms++;
	}
	fclose(f);
	if (!*ip_binary)
		goto bad_nobin;
	return;
bad:
	fprintf(stderr, "pmu-emu: %s:%d: malformed line\n", path, ln);
	_exit(2);
bad_nobin:
	fprintf(stderr, "pmu-emu: %s: no 'binary PATH' line\n", path);
	_exit(2);
}

static struct sgroup *group_by_fd(int fd)
{
	int i;

	for (i = 0; i < nr_groups; i++)
		if (groups[i].fd == fd)
			return &groups[i];
	return NULL;
}

static struct sgroup *group_by_id(uint64_t id)
{
	int i;

	for (i = 0; i < nr_groups; i++)
		if (groups[i].id == id)
			return &groups[i];
	return NULL;
}

/* A sampling leader opened as the kernel's cpu-clock 'fd': remember it as a group. */
void emu_sample_leader(int fd, const struct perf_event_attr *a, uint64_t config,
		       uint64_t counters, double rate)
{
	struct sgroup *g;
	uint64_t id = 0;

	if (!(a->sample_type & PERF_SAMPLE_READ) || !(a->read_format & PERF_FORMAT_GROUP))
		return;
	pthread_mutex_lock(&slock);
	g = realloc(groups, (size_t)(nr_groups + 1) * sizeof(*g));
	if (!g)
		abort();
	groups = g;
	g = &groups[nr_groups++];
	memset(g, 0, sizeof(*g));
	syscall(SYS_ioctl, fd, PERF_EVENT_IOC_ID, &id);
	g->fd = fd;
	g->id = id;
	g->attr = *a;
	g->n = 1;
	g->config[0] = config;
	g->ids[0] = id;
	g->masks[0] = counters;
	g->rate[0] = rate;
	pthread_mutex_unlock(&slock);
}

/*
 * A member of the sampling group led by kernel fd 'leader_fd': a software
 * dummy event in the kernel's group stands for it.  The fd, -1 with the
 * kernel's errno, -2 when 'leader_fd' leads no sampling group, -3 when the
 * group would not fit on the counters.
 */
int emu_sample_member(int leader_fd, const struct perf_event_attr *a, uint64_t config,
		      uint64_t counters, double rate, pid_t pid, int on_cpu, unsigned long flags,
		      long (*sys)(long, ...))
{
	struct perf_event_attr dummy = *a;
	struct sgroup *g;
	uint64_t id = 0;
	long fd;

	pthread_mutex_lock(&slock);
	g = group_by_fd(leader_fd);
	if (!g) {
		pthread_mutex_unlock(&slock);
		return -2;
	}
	g->masks[g->n] = counters;
	if (g->n == MAX_MEMBERS || !emu_counters_fit(g->masks, g->n + 1)) {
		pthread_mutex_unlock(&slock);
		return -3;
	}
	dummy.type = PERF_TYPE_SOFTWARE;
	dummy.config = PERF_COUNT_SW_DUMMY;
	dummy.config1 = dummy.config2 = 0;
	dummy.precise_ip = 0;
	fd = sys(SYS_perf_event_open, &dummy, (long)pid, (long)on_cpu, (long)leader_fd, (long)flags);
	if (fd >= 0) {
		syscall(SYS_ioctl, (int)fd, PERF_EVENT_IOC_ID, &id);
		g->config[g->n] = config;
		g->ids[g->n] = id;
		g->rate[g->n] = rate;
		g->n++;
	}
	pthread_mutex_unlock(&slock);
	return (int)fd;
}

/* --- where an IP is ---------------------------------------------------- */

/* The link-time address of file offset 'off' of ELF file 'path' (its PT_LOAD headers). */
static int file_vaddr(const char *path, uint64_t off, uint64_t *vaddr)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, ok = 0;

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) && !memcmp(eh.e_ident, ELFMAG, SELFMAG))
		for (i = 0; i < eh.e_phnum && !ok; i++)
			if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) ==
				    sizeof(ph) && ph.p_type == PT_LOAD && off >= ph.p_offset &&
			    off < ph.p_offset + ph.p_filesz) {
				*vaddr = off - ph.p_offset + ph.p_vaddr;
				ok = 1;
			}
	syscall(SYS_close, fd);
	return ok;
}

/*
 * The rated symbols' address ranges, from the launcher's nm -S of the
 * binary (PMU_EMU_IP_SYMS): running nm here would fork a child whose exit
 * perf takes for the workload's.
 */
static void resolve_syms(void)
{
	const char *path = getenv("PMU_EMU_IP_SYMS");
	char line[512];
	FILE *f;

	syms_resolved = 1;
	f = path ? fopen(path, "re") : NULL;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr, size;
		char type, name[256];
		int i;

		if (sscanf(line, "%llx %llx %c %255s", &addr, &size, &type, name) != 4)
			continue;
		for (i = 0; i < nr_syms; i++)
			if (!strcmp(name, sym_name[i])) {
				sym_range[i].lo = addr;
				sym_range[i].hi = addr + size;
			}
	}
	fclose(f);
}

/* The rated symbol that 'ip' of process 'pid' falls in; nr_syms for any other place. */
static int sym_of(uint32_t pid, uint64_t ip)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;
	int found = nr_syms;

	if (!nr_syms)
		return 0;
	if (!syms_resolved)
		resolve_syms();
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return nr_syms;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char file[PATH_MAX];
		uint64_t va;
		int i;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &lo, &hi, &off, file) != 4 ||
		    ip < lo || ip >= hi)
			continue;
		if (!strcmp(file, ip_binary) && file_vaddr(file, ip - lo + off, &va))
			for (i = 0; i < nr_syms; i++)
				if (va >= sym_range[i].lo && va < sym_range[i].hi)
					found = i;
		break;
	}
	fclose(f);
	return found;
}

/* Events per ns of member 'k' of 'g' in symbol 's'. */
static double rate_in(const struct sgroup *g, int k, int s)
{
	int i;

	if (s < nr_syms)
		for (i = 0; i < nr_sym_rates[s]; i++)
			if (sym_config[s][i] == g->config[k])
				return sym_rate[s][i] * ghz;
	return g->rate[k];
}

/* --- rewriting samples --------------------------------------------------- */

static struct stream *stream_of(uint64_t id, uint32_t tid)
{
	struct stream *s;
	int i;

	for (i = 0; i < nr_streams; i++)
		if (streams[i].id == id && streams[i].tid == tid)
			return &streams[i];
	s = realloc(streams, (size_t)(nr_streams + 1) * sizeof(*s));
	if (!s)
		abort();
	streams = s;
	s = &streams[nr_streams++];
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->tid = tid;
	return s;
}

/*
 * Write the emulated counts into the READ block of sample 'rec' (kernel
 * layout, perf_event.h's PERF_RECORD_SAMPLE order) and say in 'p' what
 * it added to which function.  0 when the sample is not a group sampler's.
 */
static int rewrite_sample(uint64_t *rec, size_t words, struct pending *p)
{
	const struct sgroup *g0 = nr_groups ? &groups[0] : NULL;
	uint64_t st, rf, *w = rec + 1, id = 0, ip = 0, *vals;
	uint32_t pid = 0, tid = 0;
	struct sgroup *g;
	struct stream *s;
	double delta;
	int k, nr, stride, sym;

	if (!g0)
		return 0;
	st = g0->attr.sample_type;
	rf = g0->attr.read_format;
#define NEED(n) do { if ((size_t)(w - rec) + (n) > words) return 0; } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER) { NEED(1); id = *w++; }
	if (st & PERF_SAMPLE_IP) { NEED(1); ip = *w++; }
	if (st & PERF_SAMPLE_TID) { NEED(1); pid = (uint32_t)*w; tid = (uint32_t)(*w >> 32); w++; }
	if (st & PERF_SAMPLE_TIME) w++;
	if (st & PERF_SAMPLE_ADDR) w++;
	if (st & PERF_SAMPLE_ID) { NEED(1); id = *w++; }
	if (st & PERF_SAMPLE_STREAM_ID) w++;
	if (st & PERF_SAMPLE_CPU) w++;
	if (st & PERF_SAMPLE_PERIOD) w++;
	g = group_by_id(id);
	if (!g)
		return 0;
	stride = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	NEED(1);
	nr = (int)*w++;
	w += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	vals = w;
	NEED((size_t)nr * stride);
	if (nr != g->n)
		return 0;
#undef NEED
	sym = sym_of(pid, ip);
	s = stream_of(id, tid);
	/* the kernel's leader value is the cpu-clock time of this instance */
	delta = vals[0] >= s->last_ns ? (double)(vals[0] - s->last_ns) : (double)vals[0];
	s->last_ns = vals[0];
	p->sym = sym;
	p->n = nr;
	for (k = 0; k < nr; k++) {
		double add = rate_in(g, k, sym) * delta;

		s->cum[k] += add;
		vals[k * stride] = (uint64_t)(s->cum[k] + 0.5);
		p->config[k] = g->config[k];
		p->add[k] = add;
	}
	return 1;
}

/* Add what perf has consumed (fake ring tail 'tail') to the truth. */
static void consume(struct ring *r, uint64_t tail)
{
	while (r->qhead < r->qlen && r->q[r->qhead].end <= tail) {
		const struct pending *p = &r->q[r->qhead++];
		int k, c;

		truth_samples[p->sym]++;
		for (k = 0; k < p->n; k++) {
			for (c = 0; c < nr_truth_configs; c++)
				if (truth_config[c] == p->config[k])
					break;
			if (c == nr_truth_configs) {
				if (c == MAX_MEMBERS)
					continue;
				truth_config[nr_truth_configs++] = p->config[k];
			}
			truth[p->sym][c] += p->add[k];
		}
	}
	if (r->qhead == r->qlen)
		r->qhead = r->qlen = 0;
}

static void ring_copy(void *dst_base, size_t size, uint64_t pos, const void *src, size_t n, int to_ring)
{
	size_t at = (size_t)(pos & (size - 1)), first = n < size - at ? n : size - at;
	char *ring = dst_base;

	if (to_ring) {
		memcpy(ring + at, src, first);
		memcpy(ring, (const char *)src + first, n - first);
	} else {
		memcpy((void *)src, ring + at, first);
		memcpy((char *)src + first, ring, n - first);
	}
}

/* Move what the kernel wrote since the last call into perf's ring; whether any moved. */
static int sync_ring(struct ring *r)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *rp = r->real, *fp = r->fake;
	size_t size = r->len - (size_t)page;
	char *rdata = (char *)r->real + page, *fdata = (char *)r->fake + page;
	uint64_t rhead = __atomic_load_n(&rp->data_head, __ATOMIC_ACQUIRE);
	uint64_t ftail = __atomic_load_n(&fp->data_tail, __ATOMIC_ACQUIRE);
	static uint64_t rec[65536 / 8];
	int moved = 0;

	consume(r, ftail);
	while (r->rtail < rhead) {
		struct perf_event_header h;
		struct pending p;

		ring_copy(rdata, size, r->rtail, &h, sizeof(h), 0);
		if (h.size < sizeof(h) || size - (r->fhead - ftail) < h.size)
			break;
		ring_copy(rdata, size, r->rtail, rec, h.size, 0);
		if (h.type == PERF_RECORD_SAMPLE && rewrite_sample(rec, h.size / 8, &p)) {
			if (r->qlen == r->qcap) {
				r->qcap = r->qcap ? 2 * r->qcap : 1024;
				r->q = realloc(r->q, r->qcap * sizeof(*r->q));
				if (!r->q)
					abort();
			}
			p.end = r->fhead + h.size;
			r->q[r->qlen++] = p;
		}
		ring_copy(fdata, size, r->fhead, rec, h.size, 1);
		r->fhead += h.size;
		r->rtail += h.size;
		moved = 1;
	}
	__atomic_store_n(&fp->data_head, r->fhead, __ATOMIC_RELEASE);
	__atomic_store_n(&rp->data_tail, r->rtail, __ATOMIC_RELEASE);
	return moved;
}

static int sync_all(void)
{
	int i, moved = 0;

	for (i = 0; i < nr_rings; i++)
		moved |= sync_ring(&rings[i]);
	return moved;
}

/* The copier: the kernel wakes perf, not us, so look every 200 us. */
static void *copier(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&slock);
		sync_all();
		pthread_mutex_unlock(&slock);
		usleep(200);
	}
	return NULL;
}

/* --- the interposed functions ------------------------------------------ */

/* Whether 'fd' is a perf event of the kernel. */
static int is_perf_fd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	return !strcmp(target, "anon_inode:[perf_event]");
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct ring *r;
	void *real, *fake;
	pthread_t t;

	resolve();
	if (!nr_groups || fd < 0 || off || !(flags & MAP_SHARED) || !(prot & PROT_WRITE) ||
	    !is_perf_fd(fd))
		return real_mmap(addr, len, prot, flags, fd, off);
	real = real_mmap(NULL, len, prot, flags, fd, 0);
	if (real == MAP_FAILED)
		return real;
	fake = real_mmap(addr, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fake == MAP_FAILED) {
		real_munmap(real, len);
		return fake;
	}
	pthread_mutex_lock(&slock);
	memcpy(fake, real, (size_t)sysconf(_SC_PAGESIZE));
	((struct perf_event_mmap_page *)fake)->data_head = 0;
	((struct perf_event_mmap_page *)fake)->data_tail = 0;
	r = realloc(rings, (size_t)(nr_rings + 1) * sizeof(*r));
	if (!r)
		abort();
	rings = r;
	r = &rings[nr_rings++];
	memset(r, 0, sizeof(*r));
	r->fake = fake;
	r->real = real;
	r->len = len;
	r->rtail = ((struct perf_event_mmap_page *)real)->data_tail;
	had_rings = 1;
	if (!copier_started && pthread_create(&t, NULL, copier, NULL) == 0) {
		pthread_detach(t);
		copier_started = 1;
	}
	pthread_mutex_unlock(&slock);
	return fake;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len)
{
	int i;

	resolve();
	pthread_mutex_lock(&slock);
	for (i = 0; i < nr_rings; i++)
		if (rings[i].fake == addr) {
			struct ring *r = &rings[i];

			consume(r, __atomic_load_n(&((struct perf_event_mmap_page *)r->fake)->data_tail,
						   __ATOMIC_ACQUIRE));
			real_munmap(r->real, r->len);
			free(r->q);
			*r = rings[--nr_rings];
			if (!nr_rings)
				log_truth();
			break;
		}
	pthread_mutex_unlock(&slock);
	return real_munmap(addr, len);
}

/* perf reads its rings after poll returns: copy before it sleeps and when it wakes. */
int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	int moved, ret;

	resolve();
	if (!nr_rings)
		return real_poll(fds, n, timeout);
	pthread_mutex_lock(&slock);
	moved = sync_all();
	pthread_mutex_unlock(&slock);
	ret = real_poll(fds, n, moved ? 0 : timeout);
	pthread_mutex_lock(&slock);
	sync_all();
	pthread_mutex_unlock(&slock);
	return ret;
}

/*
 * Log the true per-function counts of the samples perf consumed, once:
 * when perf unmaps its last ring, or at exit (perf record stopped by
 * SIGINT re-raises it from an atexit handler, before any destructor).
 */
static void log_truth(void)
{
	int s, c, i;

	if (logged || !had_rings)
		return;
	logged = 1;
	for (i = 0; i < nr_rings; i++)
		consume(&rings[i], __atomic_load_n(&((struct perf_event_mmap_page *)rings[i].fake)->data_tail,
						   __ATOMIC_ACQUIRE));
	for (s = 0; s <= nr_syms; s++)
		for (c = 0; c < nr_truth_configs; c++)
			if (truth_samples[s])
				log_fn("ipcount proc=%d sym=%s config=%#llx samples=%llu true=%.0f",
				       (int)getpid(), s < nr_syms ? sym_name[s] : "[other]",
				       (unsigned long long)truth_config[c],
				       (unsigned long long)truth_samples[s], truth[s][c]);
}

void emu_sample_log(void)
{
	pthread_mutex_lock(&slock);
	log_truth();
	pthread_mutex_unlock(&slock);
}
