/*
 * 'tdperf calibrate': measures the roofs of this machine.
 *
 * Every figure is a throughput (or latency) timed with CLOCK_MONOTONIC over
 * a run long enough to make timer resolution and thread start-up
 * negligible ('target' seconds), repeated several times.  We keep the best
 * repetition as the roof (noise on a shared machine only ever slows a
 * benchmark down) and the spread, (max - min) / median, to say how much the
 * figure can be trusted.  The kernels are in calibrate-kernels.c.
 *
 * Working sets come from the cache sizes in sysfs: half of L1d for L1,
 * half of L2 for L2, 2-4 x L2 (within half of L3) for L3, and at least
 * twice L3 for DRAM.  With --threads N every thread streams its own buffer
 * and is pinned to its own CPU; shared levels (L3, DRAM) get 1/N of the
 * working set per thread.
 */
#include "config.h"
#include "collect/calibrate.h"
#include "metrics/roofline.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define KiB 1024.0
#define MiB (1024.0 * 1024.0)
#define HUGE_PAGE (2u << 20)
#define LINE 64

/* ---- CPU identity ---- */

static char *cpuinfo_field(const char *text, const char *field)
{
	size_t n = strlen(field);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, field, n) && (p[n] == ' ' || p[n] == '\t' || p[n] == ':')) {
			const char *colon = strchr(p, ':'), *end = strchr(p, '\n');
			if (!colon || (end && colon > end))
				return NULL;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			return xstrndup(colon, end ? (size_t)(end - colon) : strlen(colon));
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

int td_cal_cpu_detect(struct td_cal_cpu *cpu, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *family, *model, *stepping;
	struct strbuf id = STRBUF_INIT;

	memset(cpu, 0, sizeof(*cpu));
	if (td_read_file(&sb, "/proc/cpuinfo") < 0) {
		strbuf_addf(err, "/proc/cpuinfo: %s", strerror(errno));
		strbuf_release(&sb);
		return -1;
	}
	cpu->vendor = cpuinfo_field(sb.buf, "vendor_id");
	cpu->name = cpuinfo_field(sb.buf, "model name");
	family = cpuinfo_field(sb.buf, "cpu family");
	model = cpuinfo_field(sb.buf, "model");
	stepping = cpuinfo_field(sb.buf, "stepping");
	cpu->family = family ? atoi(family) : -1;
	cpu->model = model ? atoi(model) : -1;
	cpu->stepping = stepping ? atoi(stepping) : -1;
	free(family);
	free(model);
	free(stepping);
	strbuf_release(&sb);
	/* non-x86 kernels do not say; the machine is still worth calibrating */
	if (!cpu->vendor)
		cpu->vendor = xstrdup("unknown");
	if (!cpu->name)
		cpu->name = xstrdup("unknown CPU");
	strbuf_addf(&id, "%s-%d-%X-%d", cpu->vendor, cpu->family, cpu->model < 0 ? 0 : cpu->model,
		    cpu->stepping);
	cpu->cpuid = strbuf_detach(&id, NULL);
	cpu->key = td_peaks_cpu_key(cpu->vendor, cpu->family, cpu->model, cpu->stepping, cpu->name);
	return 0;
}

void td_cal_cpu_release(struct td_cal_cpu *cpu)
{
	free(cpu->vendor);
	free(cpu->name);
	free(cpu->cpuid);
	free(cpu->key);
	memset(cpu, 0, sizeof(*cpu));
}

/* ---- cache sizes ---- */

/* Parse "48K", "2048K", "260M" from sysfs; NAN when unreadable. */
static double sysfs_size(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *end;
	double v;

	if (td_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return NAN;
	}
	v = strtod(sb.buf, &end);
	if (end == sb.buf)
		v = NAN;
	else if (*end == 'K')
		v *= KiB;
	else if (*end == 'M')
		v *= MiB;
	else if (*end == 'G')
		v *= 1024 * MiB;
	strbuf_release(&sb);
	return v;
}

/* Data/unified cache sizes of cpu0 per level, from sysfs (NAN unknown). */
static void read_cache_sizes(double size[TD_RL_NR_LEVEL])
{
	for (int l = 0; l < TD_RL_NR_LEVEL; l++)
		size[l] = NAN;
	for (int i = 0; i < 16; i++) {
		char path[128];
		struct strbuf type = STRBUF_INIT, level = STRBUF_INIT;
		int lv;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (td_read_file(&type, path) < 0) {
			strbuf_release(&type);
			break;
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (td_read_file(&level, path) == 0 && strncmp(type.buf, "Instruction", 11)) {
			lv = atoi(level.buf);
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
			if (lv >= 1 && lv <= 3)
				size[lv - 1] = sysfs_size(path);
		}
		strbuf_release(&type);
		strbuf_release(&level);
	}
}

/* ---- timing and statistics ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of the calling thread: less than wall time when it was preempted. */
static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Summarize repetitions; higher_is_better picks the best as max or min. */
static struct td_measurement summarize(double *v, int n, int higher_is_better)
{
	struct td_measurement m;

	qsort(v, n, sizeof(*v), cmp_double);
	m.reps = n;
	m.min = v[0];
	m.max = v[n - 1];
	m.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	m.value = higher_is_better ? m.max : m.min;
	m.spread = m.median > 0 ? (m.max - m.min) / m.median : NAN;
	return m;
}

static struct td_measurement not_measured(void)
{
	struct td_measurement m = { NAN, NAN, NAN, NAN, NAN, 0 };

	return m;
}

/* ---- work items, run on one or several pinned threads ---- */

enum work_kind { W_FP, W_LOAD, W_STORE, W_CHASE, W_CLOCK };

struct work {
	enum work_kind kind;
	enum td_rl_prec prec;
	enum td_rl_width width;
	size_t bytes;            /* per-thread working set (memory kinds) */
	uint64_t count;          /* iterations, passes or hops */
};

struct worker {
	const struct work *w;
	void *buf;
	void **chase_pos;        /* where the pointer chase goes on */
	int cpu;                 /* CPU to pin to, -1 none */
	pthread_barrier_t *barrier;
	double t0, t1;
	double cpu_s;            /* thread CPU time of the run */
	double amount;           /* FLOPs, bytes, hops or cycles done */
	double sink;
};

/* Keeps results of kernels alive so that no compiler can drop them. */
static volatile double result_sink;

static void run_work(struct worker *k)
{
	const struct work *w = k->w;
	double c0 = thread_cpu_s();

	k->t0 = now_s();
	switch (w->kind) {
	case W_FP:
		k->amount = td_cal_fp_run(w->prec, w->width, w->count, &k->sink);
		break;
	case W_LOAD:
		k->sink += (double)td_cal_load(k->buf, w->bytes, w->count);
		k->amount = (double)w->bytes * w->count;
		break;
	case W_STORE:
		td_cal_store(k->buf, w->bytes, w->count);
		k->amount = (double)w->bytes * w->count;
		break;
	case W_CHASE:
		*k->chase_pos = td_cal_chase(*k->chase_pos, w->count);
		k->amount = (double)w->count;
		break;
	case W_CLOCK:
		k->sink += (double)td_cal_clock_chain(w->count);
		k->amount = 100.0 * w->count;
		break;
	}
	k->t1 = now_s();
	k->cpu_s = thread_cpu_s() - c0;
}

static void pin_to(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* best effort: a restricted cpuset still gives a valid measurement */
	sched_setaffinity(0, sizeof(set), &set);
}

static void *worker_main(void *arg)
{
	struct worker *k = arg;

	pin_to(k->cpu);
	pthread_barrier_wait(k->barrier);
	run_work(k);
	return NULL;
}

struct bench {
	const struct td_cal_opts *opts;
	int threads;
	int cpus[256];           /* CPU of each thread */
	void *bufs[256];         /* per-thread buffers */
	void *chase_pos[256];    /* the chase goes on where it stopped */
	size_t buf_size;
	double target_s;
	int reps;
	int runs, disturbed;     /* repetitions kept, and how many were preempted */
	struct work clock_work;
	double clock[64];        /* GHz samples taken along the way */
	size_t nr_clock;
	struct td_cal_result *r;
};

/*
 * Run w once on all threads; returns the aggregate rate (amount per
 * second, from the first start to the last finish) and the elapsed time.
 * *preempted (when not NULL) gets the largest fraction of the run any
 * thread spent off its CPU.
 */
static double run_once_checked(struct bench *b, const struct work *w, int threads,
			       double *elapsed, double *preempted)
{
	struct worker k[256];
	pthread_t tid[256];
	pthread_barrier_t barrier;
	double t0 = INFINITY, t1 = 0, amount = 0;
	int started = 0;

	memset(k, 0, sizeof(k));
	for (int i = 0; i < threads; i++) {
		k[i].w = w;
		k[i].buf = b->bufs[i];
		k[i].chase_pos = &b->chase_pos[i];
		k[i].cpu = b->cpus[i];
	}
	if (threads == 1) {
		run_work(&k[0]);
	} else {
		pthread_barrier_init(&barrier, NULL, threads);
		for (int i = 0; i < threads; i++) {
			k[i].barrier = &barrier;
			if (pthread_create(&tid[i], NULL, worker_main, &k[i]))
				die("cannot start benchmark thread %d of %d", i + 1, threads);
			started++;
		}
		for (int i = 0; i < started; i++)
			pthread_join(tid[i], NULL);
		pthread_barrier_destroy(&barrier);
	}
	for (int i = 0; i < threads; i++) {
		double wall = k[i].t1 - k[i].t0;

		t0 = fmin(t0, k[i].t0);
		t1 = fmax(t1, k[i].t1);
		amount += k[i].amount;
		result_sink += k[i].sink;
		if (preempted && wall > 0)
			*preempted = fmax(i ? *preempted : 0, 1 - k[i].cpu_s / wall);
	}
	*elapsed = t1 - t0;
	return *elapsed > 0 ? amount / *elapsed : NAN;
}

static double run_once(struct bench *b, const struct work *w, int threads, double *elapsed)
{
	return run_once_checked(b, w, threads, elapsed, NULL);
}

/*
 * Run w 'reps' times into v[].  A run during which a thread was off its
 * CPU for more than 2 % of the time says nothing about the machine: it is
 * run again, up to three times as many runs in all; disturbed runs are
 * kept only when the attempts run out.  Returns how many kept runs were
 * disturbed.
 */
static int run_reps(struct bench *b, const struct work *w, int threads, int reps,
		    double scale, int as_latency, double *v)
{
	double rate, t, pre;
	int kept = 0, disturbed = 0;

	for (int attempt = 0; attempt < 3 * reps && kept < reps; attempt++) {
		rate = run_once_checked(b, w, threads, &t, &pre);
		if (pre > 0.02 && attempt < 3 * reps - (reps - kept))
			continue;
		disturbed += pre > 0.02;
		v[kept++] = as_latency ? scale / rate : rate * scale;
	}
	b->disturbed += disturbed;
	b->runs += reps;
	return disturbed;
}

/*
 * Find the count that makes one single-threaded run last about 'target'
 * seconds: grow it fourfold until a run takes a tenth of the target, then
 * scale.  The threads of the real runs each get that count.
 */
static void size_work(struct bench *b, struct work *w, double target)
{
	double t;

	/* one pass over a DRAM-sized buffer already lasts tens of ms */
	w->count = w->kind == W_CHASE ? 1024 : w->kind == W_LOAD || w->kind == W_STORE ? 1 : 16;
	for (;;) {
		run_once(b, w, 1, &t);
		if (t >= target / 10 || w->count > (UINT64_C(1) << 50))
			break;
		w->count *= t > 1e-5 ? (uint64_t)fmin(64, fmax(2, target / 10 / t * 1.5)) : 4;
	}
	if (t > 0)
		w->count = (uint64_t)fmax(1, (double)w->count * target / t);
	if (w->kind == W_CHASE)
		w->count = (w->count + 7) / 8 * 8;
}

/* Size, then repeat w 'reps' times on all threads; rates summarized. */
static struct td_measurement measure(struct bench *b, struct work *w, int reps, double scale)
{
	double v[64];

	size_work(b, w, b->target_s);
	run_reps(b, w, b->threads, reps, scale, 0, v);
	return summarize(v, reps, 1);
}

static void add_warning(struct td_cal_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_warning(struct td_cal_result *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->warnings = xrealloc(r->warnings, (r->nr_warnings + 1) * sizeof(*r->warnings));
	r->warnings[r->nr_warnings++] = strbuf_detach(&sb, NULL);
}

/* ---- buffers ---- */

static void *alloc_buffer(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* fewer TLB misses, so DRAM latency is not mostly page walks */
	madvise(p, size, MADV_HUGEPAGE);
#endif
	memset(p, 1, size);
	return p;
}

/*
 * Link every stride-th cache line of the first 'bytes' of buf into one
 * random cycle (Sattolo's algorithm), so that no prefetcher can guess the
 * next line.  A fixed seed makes every calibration chase the same chain.
 * Returns the number of lines in the cycle.
 */
static size_t build_chase(void *buf, size_t bytes, size_t stride)
{
	size_t n = bytes / LINE / stride, step = stride * LINE;
	uint32_t *perm = xmalloc(n * sizeof(*perm));
	uint64_t s = 0x9e3779b97f4a7c15ull;
	char *base = buf;

	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j;
		uint32_t tmp;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		j = s % i; /* j < i: a single cycle */
		tmp = perm[i];
		perm[i] = perm[j];
		perm[j] = tmp;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(base + i * step) = base + (size_t)perm[i] * step;
	free(perm);
	return n;
}

/* Evict the lines of a chase built with 'stride' from every cache. */
static int flush_chase(void *buf, size_t bytes, size_t stride)
{
	for (size_t off = 0; off < bytes; off += stride * LINE)
		if (td_cal_flush((char *)buf + off, LINE) < 0)
			return -1;
	return 0;
}

static size_t round_down(double v, size_t unit)
{
	size_t n = (size_t)v / unit * unit;

	return n ? n : unit;
}

/* Per-thread working sets for L1, L2, L3 and DRAM (see the file comment). */
static void choose_working_sets(struct bench *b, const double cs[TD_RL_NR_LEVEL], double ws[TD_RL_NR_LEVEL])
{
	double l1 = isnan(cs[0]) ? 32 * KiB : cs[0];
	double l2 = isnan(cs[1]) ? 256 * KiB : cs[1];
	double l3 = isnan(cs[2]) ? NAN : cs[2];
	int n = b->threads;
	double avail = (double)sysconf(_SC_AVPHYS_PAGES) * sysconf(_SC_PAGESIZE);
	double dram_total;

	if (isnan(cs[0]) || isnan(cs[1]))
		add_warning(b->r, "cache sizes not in sysfs: assumed L1d 32 KiB and L2 256 KiB");
	ws[TD_RL_L1] = round_down(l1 / 2, 4096);
	ws[TD_RL_L2] = round_down(fmax(l2 / 2, 4 * l1), 4096);
	if (isnan(l3)) {
		ws[TD_RL_L3] = NAN;
		dram_total = fmax(64 * MiB, 8 * l2 * n);
		add_warning(b->r, "no L3 in sysfs: L3 not measured, DRAM working set %.0f MiB", dram_total / MiB);
	} else {
		/* 4 x L2: 3/4 of a random chase misses L2, yet it stays well inside L3
		 * (big shared L3s get slower far from the core, and are shared) */
		ws[TD_RL_L3] = round_down(fmax(2 * l2, fmin(4 * l2, l3 / (2.0 * n))), 4096);
		if (ws[TD_RL_L3] * n > l3 / 2)
			add_warning(b->r, "L3 working set %.1f MiB x %d threads exceeds half of L3 (%.1f MiB): "
				    "the L3 figure may include DRAM traffic",
				    ws[TD_RL_L3] / MiB, n, l3 / MiB);
		dram_total = fmax(64 * MiB, 2 * l3);
	}
	if (avail > 0 && dram_total > avail / 4) {
		add_warning(b->r, "DRAM working set capped at a quarter of available memory (%.0f MiB instead of %.0f MiB): "
			    "the DRAM figures may partly hit L3", avail / 4 / MiB, dram_total / MiB);
		dram_total = avail / 4;
	}
	ws[TD_RL_DRAM] = round_down(fmax(dram_total / n, 4 * l2), HUGE_PAGE);
}

/* ---- the calibration ---- */

static void progress(struct bench *b, const char *what)
{
	static double t0;

	if (!t0)
		t0 = now_s();
	if (b->opts->verbose)
		fprintf(stderr, "tdperf calibrate: %.2f s: %s\n", now_s() - t0, what);
}

/*
 * The clock is sampled before every FP and memory measurement, not once:
 * turbo frequency moves with what the other cores do, and FLOPs per cycle
 * divide the best FP rate by the best clock seen over the same period.
 */
static void sample_clock(struct bench *b)
{
	if (!b->clock_work.count || b->nr_clock >= TD_ARRAY_SIZE(b->clock))
		return;
	run_reps(b, &b->clock_work, 1, 1, 1e-9, 0, &b->clock[b->nr_clock++]);
}

static void start_clock(struct bench *b)
{
	if (!td_cal_clock_supported()) {
		add_warning(b->r, "core clock not measured on this architecture: no per-cycle figures");
		return;
	}
	b->clock_work.kind = W_CLOCK;
	size_work(b, &b->clock_work, b->target_s / 2);
	for (int i = 0; i < 2; i++)
		sample_clock(b);
}

static void finish_clock(struct bench *b)
{
	b->r->peaks.clock_ghz = b->nr_clock ? summarize(b->clock, (int)b->nr_clock, 1) : not_measured();
}

static void measure_flops(struct bench *b)
{
	struct td_peaks *p = &b->r->peaks;

	progress(b, "FP throughput");
	for (int w = 0; w < TD_RL_NR_WIDTH; w++) {
		int fma;

		if (!td_cal_fp_supported(w, &fma))
			continue;
		if (w == TD_RL_SCALAR)
			b->r->fma = fma;
		for (int pr = 0; pr < TD_RL_NR_PREC; pr++) {
			struct work wk = { .kind = W_FP, .prec = pr, .width = w };

			sample_clock(b);
			p->gflops[pr][w] = measure(b, &wk, b->reps, 1e-9);
		}
	}
}

static void measure_memory(struct bench *b, const double ws[TD_RL_NR_LEVEL])
{
	struct td_peaks *p = &b->r->peaks;

	for (int l = 0; l < TD_RL_NR_LEVEL; l++) {
		struct work ld = { .kind = W_LOAD }, st = { .kind = W_STORE }, ch = { .kind = W_CHASE };
		double v[64];

		p->working_set[l] = ws[l];
		if (isnan(ws[l]))
			continue;
		progress(b, td_rl_level_name(l));
		sample_clock(b);
		ld.bytes = st.bytes = ch.bytes = (size_t)ws[l];
		p->load_gbs[l] = measure(b, &ld, b->reps, 1e-9);
		p->store_gbs[l] = measure(b, &st, b->reps, 1e-9);
		/* latency: one thread only (it does not add up over threads) */
		progress(b, "latency");
		if (l == TD_RL_DRAM) {
			/*
			 * A random chase over twice L3 would still hit L3 half
			 * of the time.  With the chain's lines flushed, every
			 * hop comes from DRAM as long as a round of the cycle is
			 * longer than all our runs together: at >= 40 ns a hop,
			 * that bounds the lines needed, and a sparser chain
			 * (still spread over the whole buffer) is much quicker
			 * to build and flush.
			 */
			double hops = (b->reps + 4) * b->target_s / 40e-9;
			size_t stride = 1;

			while ((double)ch.bytes / LINE / (stride * 2) >= hops)
				stride *= 2;
			build_chase(b->bufs[0], ch.bytes, stride);
			if (flush_chase(b->bufs[0], ch.bytes, stride) < 0)
				add_warning(b->r, "cannot flush caches on this architecture: "
					    "DRAM latency may include L3 hits");
		} else {
			build_chase(b->bufs[0], ch.bytes, 1);
		}
		b->chase_pos[0] = b->bufs[0];
		size_work(b, &ch, b->target_s);
		run_reps(b, &ch, 1, b->reps, 1e9, 1, v);
		p->latency_ns[l] = summarize(v, b->reps, 0);
	}
}

/* Load bandwidth and latency at every power of two from 4 KiB. */
static void measure_sweep(struct bench *b, double max_ws)
{
	struct td_cal_result *r = b->r;
	double sweep_target = b->target_s / 2;

	progress(b, "working-set sweep");
	for (double ws = 4 * KiB; ws <= max_ws; ws *= 2) {
		struct td_cal_sweep_point *pt;
		struct work ld = { .kind = W_LOAD, .bytes = (size_t)ws };
		struct work ch = { .kind = W_CHASE, .bytes = (size_t)ws };
		double v[3];
		int reps = 3;

		r->sweep = xrealloc(r->sweep, (r->nr_sweep + 1) * sizeof(*r->sweep));
		pt = &r->sweep[r->nr_sweep++];
		pt->working_set = ws;
		size_work(b, &ld, sweep_target);
		run_reps(b, &ld, b->threads, reps, 1e-9, 0, v);
		pt->load_gbs = summarize(v, reps, 1);
		build_chase(b->bufs[0], ch.bytes, 1);
		b->chase_pos[0] = b->bufs[0];
		size_work(b, &ch, sweep_target);
		run_reps(b, &ch, 1, reps, 1e9, 1, v);
		pt->latency_ns = summarize(v, reps, 0);
	}
}


static double load_average(void)
{
	struct strbuf sb = STRBUF_INIT;
	double v = NAN;

	if (td_read_file(&sb, "/proc/loadavg") == 0)
		v = strtod(sb.buf, NULL);
	strbuf_release(&sb);
	return v;
}

/* The CPUs we may run on, in order; threads are pinned round-robin. */
static int allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

static char *utc_now(void)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

int td_calibrate(const struct td_cal_opts *opts, struct td_cal_result *r, struct strbuf *err)
{
	struct bench b;
	double ws[TD_RL_NR_LEVEL], start = now_s(), max_ws = 0;
	int cpus[256], ncpus, nthreads = opts->threads > 0 ? opts->threads : 1;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	memset(&b, 0, sizeof(b));
	td_peaks_init(&r->peaks);
	if (nthreads > 256) {
		strbuf_addf(err, "--threads %d: at most 256", nthreads);
		return -1;
	}
	b.opts = opts;
	b.r = r;
	b.threads = nthreads;
	b.target_s = opts->quick ? 0.01 : 0.04;
	b.reps = opts->quick ? 3 : 5;
	r->target_s = b.target_s;
	r->load_average = load_average();
	r->mem_vector_bits = td_cal_mem_vector_bits();
	ncpus = allowed_cpus(cpus, 256);
	for (int i = 0; i < nthreads; i++)
		b.cpus[i] = ncpus > 0 ? cpus[i % ncpus] : -1;
	if (ncpus > 0 && nthreads > ncpus)
		add_warning(r, "%d threads on %d CPUs: threads share CPUs, per-thread figures are not peaks",
			    nthreads, ncpus);
	if (r->load_average > 0.5 * (ncpus > 0 ? ncpus : 1))
		add_warning(r, "machine busy (load average %.2f on %d CPUs): figures may be low and noisy",
			    r->load_average, ncpus);

	read_cache_sizes(r->cache_size);
	choose_working_sets(&b, r->cache_size, ws);
	for (int l = 0; l < TD_RL_NR_LEVEL; l++)
		if (!isnan(ws[l]))
			max_ws = fmax(max_ws, ws[l]);
	b.buf_size = round_down(max_ws + HUGE_PAGE - 1, HUGE_PAGE);
	for (int i = 0; i < nthreads; i++) {
		b.bufs[i] = alloc_buffer(b.buf_size);
		if (!b.bufs[i]) {
			strbuf_addf(err, "cannot allocate %.0f MiB for the DRAM benchmark: %s",
				    b.buf_size / MiB, strerror(errno));
			ret = -1;
			goto out;
		}
	}

	r->peaks.threads = nthreads;
	r->peaks.mode = xstrdup(opts->quick ? "quick" : "default");
	r->peaks.date = utc_now();
	progress(&b, "clock");
	start_clock(&b);
	measure_flops(&b);
	measure_memory(&b, ws);
	if (!opts->quick)
		measure_sweep(&b, ws[TD_RL_DRAM]);
	sample_clock(&b);
	finish_clock(&b);
	progress(&b, "done");
	if (b.disturbed)
		add_warning(r, "%d of %d repetitions ran while a benchmark thread was preempted, even after "
			    "retrying: the machine is busy, figures are low", b.disturbed, b.runs);
	r->duration_s = now_s() - start;
out:
	for (int i = 0; i < nthreads; i++)
		if (b.bufs[i])
			munmap(b.bufs[i], b.buf_size);
	return ret;
}

void td_cal_result_release(struct td_cal_result *r)
{
	td_peaks_release(&r->peaks);
	free(r->sweep);
	for (size_t i = 0; i < r->nr_warnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	memset(r, 0, sizeof(*r));
}
