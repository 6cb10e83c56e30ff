/*
 * The emulated PMU inside a process: perf_event_open() of the emulated
 * core PMUs (and of PERF_TYPE_HARDWARE / PERF_TYPE_RAW, which the kernel
 * routes to them) is answered here, everything else goes to the kernel.
 *
 * An emulated event is a real file descriptor (an eventfd) so that close,
 * poll and fork behave; read() and ioctl() on it are answered from the
 * state below.  Events live in contexts (one per PMU, task and CPU, as in
 * the kernel); each context schedules its enabled groups onto the
 * counters in list order until one does not fit, and rotates the list
 * every mux interval when one did not, so time_enabled and time_running
 * come out as kernel multiplexing makes them.  Counts follow a model: a
 * fixed rate per event (see emu_pmu_rate()) times the time the event ran,
 * so perf's scaled count equals the rate times the time it was enabled,
 * which is logged as the event's true count when it is closed.
 */
#define _GNU_SOURCE
#include "emu.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_GROUP 64

struct emu_ctx;

struct emu_event {
	int fd;
	uint64_t id;
	struct emu_pmu *pmu;
	struct emu_ctx *ctx;
	struct perf_event_attr attr;
	uint64_t counters;           /* allowed counters; 0 for a metric event */
	double rate;                 /* events per ns */
	int enabled;
	int pending;                 /* enable_on_exec or ENABLE ioctl, not yet started */
	uint64_t enabled_ns, running_ns;
	struct emu_event *leader;
	struct emu_event *members[MAX_GROUP];  /* leader only; members[0] is itself */
	int nr_members;
	int running;                 /* leader only: on the counters now */
};

struct emu_ctx {
	struct emu_pmu *pmu;
	pid_t pid;
	int cpu;
	struct emu_event **groups;   /* leaders in rotation order */
	int nr_groups;
	uint64_t t, slice_end;
	int rotate;
	int ended;                   /* the task exited: time stands still */
	int nr_pending;              /* events waiting to start */
	struct emu_ctx *next;
};

static struct emu_cpu cpu;
static int active;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct emu_event **by_fd;
static int nr_by_fd;
static struct emu_ctx *contexts;
static uint64_t next_id = 1ULL << 40;
static uint64_t last_open_ns, last_enable_ns;
static void emu_init(void);
static int init_started;
static const char *log_path;

static long (*real_syscall)(long, ...);
static ssize_t (*real_read)(int, void *, size_t);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_close)(int);

static void resolve_real(void)
{
	if (real_syscall)
		return;
	real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Append one line to the log in one write, so processes do not interleave. */
static void log_line(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int fd, n;

	if (!log_path)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, buf, (size_t)n) < 0)
		n = 0;
	real_close(fd);
}

static struct emu_event *lookup(int fd)
{
	return fd >= 0 && fd < nr_by_fd ? by_fd[fd] : NULL;
}

static void remember(int fd, struct emu_event *e)
{
	if (fd >= nr_by_fd) {
		int n = fd + 256;
		struct emu_event **v = realloc(by_fd, (size_t)n * sizeof(*v));

		if (!v)
			abort();
		memset(v + nr_by_fd, 0, (size_t)(n - nr_by_fd) * sizeof(*v));
		by_fd = v;
		nr_by_fd = n;
	}
	by_fd[fd] = e;
}

/* --- scheduling and time ------------------------------------------------ */

/* The NMI watchdog's pinned cycles event takes its counter on every CPU. */
static int watchdog_mask(const struct emu_pmu *pmu, uint64_t *mask)
{
	if (!cpu.nmi_watchdog || !pmu->hw_ok[PERF_COUNT_HW_CPU_CYCLES])
		return 0;
	*mask = emu_pmu_counters(pmu, pmu->hw_config[PERF_COUNT_HW_CPU_CYCLES]);
	return 1;
}

/* Add the enabled members of group 'g' to masks[]; the new count. */
static int add_group_masks(const struct emu_event *g, uint64_t *masks, int n)
{
	int i;

	for (i = 0; i < g->nr_members && n < 4 * MAX_GROUP; i++)
		if (g->members[i]->enabled || i == 0)
			masks[n++] = g->members[i]->counters;
	return n;
}

/*
 * Put groups on the counters in list order, as the kernel's flexible
 * scheduling does: the first group that does not fit stops it, and the
 * context then rotates at the next mux tick.
 */
static void schedule(struct emu_ctx *ctx)
{
	uint64_t masks[4 * MAX_GROUP + 1];
	int n = watchdog_mask(ctx->pmu, masks), i, full = 0;

	ctx->rotate = 0;
	for (i = 0; i < ctx->nr_groups; i++) {
		struct emu_event *g = ctx->groups[i];
		int m;

		g->running = 0;
		if (!g->enabled)
			continue;
		if (full) {
			ctx->rotate = 1;
			continue;
		}
		m = add_group_masks(g, masks, n);
		if (emu_counters_fit(masks, m)) {
			g->running = 1;
			n = m;
		} else {
			full = 1;
			ctx->rotate = 1;
		}
	}
}

/* Move the first enabled group to the end of the list (the kernel's rotate_ctx). */
static void rotate(struct emu_ctx *ctx)
{
	struct emu_event *first;
	int i;

	for (i = 0; i < ctx->nr_groups && !ctx->groups[i]->enabled; i++)
		;
	if (i >= ctx->nr_groups)
		return;
	first = ctx->groups[i];
	memmove(ctx->groups + i, ctx->groups + i + 1, (size_t)(ctx->nr_groups - i - 1) * sizeof(first));
	ctx->groups[ctx->nr_groups - 1] = first;
}

/* Whether task 'pid' has exited (gone, or a zombie waiting to be reaped). */
static int task_gone(pid_t pid)
{
	char path[64], buf[256], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = real_read(fd, buf, sizeof(buf) - 1);
	real_close(fd);
	if (n <= 0)
		return 1;
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return !paren || paren[1] != ' ' || paren[2] == 'Z' || paren[2] == 'X';
}

/*
 * Account time up to 'now', rescheduling at each mux tick.  The events of
 * a task stop when it exits, as the kernel's do (advance()), so the count
 * perf reads after the workload ended is the final one.
 */
static void account(struct emu_ctx *ctx, uint64_t now)
{
	uint64_t mux_ns = (uint64_t)ctx->pmu->mux_ms * 1000000ULL;

	while (ctx->t < now) {
		uint64_t end = now < ctx->slice_end ? now : ctx->slice_end, dt = end - ctx->t;
		int i, k;

		for (i = 0; i < ctx->nr_groups; i++) {
			struct emu_event *g = ctx->groups[i];

			for (k = 0; k < g->nr_members; k++) {
				struct emu_event *m = g->members[k];

				/* a member counts only while its leader is on too */
				if (!m->enabled || !g->enabled)
					continue;
				m->enabled_ns += dt;
				if (g->running)
					m->running_ns += dt;
			}
		}
		ctx->t = end;
		if (end == ctx->slice_end) {
			if (ctx->rotate)
				rotate(ctx);
			schedule(ctx);
			ctx->slice_end += mux_ns;
		}
	}
}

/* account() up to 'now', unless the task ended before an earlier call. */
static void advance(struct emu_ctx *ctx, uint64_t now)
{
	if (ctx->ended)
		return;
	if (ctx->pid > 0 && task_gone(ctx->pid))
		ctx->ended = 1;  /* noticed now: it counted up to here */
	account(ctx, now);
}

static struct emu_ctx *find_ctx(struct emu_pmu *pmu, pid_t pid, int on_cpu)
{
	struct emu_ctx *c;
	uint64_t now = now_ns();

	for (c = contexts; c; c = c->next)
		if (c->pmu == pmu && c->pid == pid && c->cpu == on_cpu)
			return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		abort();
	c->pmu = pmu;
	c->pid = pid;
	c->cpu = on_cpu;
	c->t = now;
	c->slice_end = now + (uint64_t)pmu->mux_ms * 1000000ULL;
	c->next = contexts;
	contexts = c;
	return c;
}

/*
 * perf enables its events one call at a time: opened with enable_on_exec
 * they start when its forked workload execs, which comes after perf
 * opened them all; by ENABLE ioctls, one after the other.  The kernel
 * takes microseconds for either; here a call may take a millisecond on a
 * loaded machine, which would skew the groups' times apart.  So pending
 * events start together, at the last open or enable of this process,
 * when the process next does anything else with them.
 */
static void start_pending(struct emu_ctx *ctx)
{
	uint64_t start = last_open_ns > last_enable_ns ? last_open_ns : last_enable_ns;
	int i, k;

	if (!ctx->nr_pending)
		return;
	if (ctx->t < start && !ctx->ended)
		account(ctx, start);
	for (i = 0; i < ctx->nr_groups; i++)
		for (k = 0; k < ctx->groups[i]->nr_members; k++) {
			struct emu_event *m = ctx->groups[i]->members[k];

			if (m->pending)
				m->enabled = 1, m->pending = 0;
		}
	ctx->nr_pending = 0;
	schedule(ctx);
}

/* --- counts ----------------------------------------------------------- */

static uint64_t count_for(const struct emu_event *e, uint64_t ns)
{
	return (uint64_t)(e->rate * (double)ns + 0.5);
}

static void log_event(const struct emu_event *e, const char *why)
{
	char comm[32] = "?";
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		ssize_t n = real_read(fd, comm, sizeof(comm) - 1);

		comm[n > 0 ? n : 0] = '\0';
		comm[strcspn(comm, "\n ")] = '\0';
		real_close(fd);
	}
	log_line("%s proc=%d comm=%s pmu=%s pid=%d cpu=%d config=%#llx config1=%#llx id=%llu leader=%llu "
		 "true=%llu count=%llu enabled_ns=%llu running_ns=%llu", why, (int)getpid(), comm,
		 e->pmu->name,
		 (int)e->ctx->pid, e->ctx->cpu, (unsigned long long)e->attr.config,
		 (unsigned long long)e->attr.config1, (unsigned long long)e->id,
		 (unsigned long long)e->leader->id, (unsigned long long)count_for(e, e->enabled_ns),
		 (unsigned long long)count_for(e, e->running_ns),
		 (unsigned long long)e->enabled_ns, (unsigned long long)e->running_ns);
}

/* --- perf_event_open -------------------------------------------------- */

static struct emu_pmu *pmu_of(const struct perf_event_attr *a, uint64_t *config)
{
	struct emu_pmu *pmu;

	*config = a->config;
	if (a->type == PERF_TYPE_HARDWARE) {
		uint32_t ext = (uint32_t)(a->config >> PERF_PMU_TYPE_SHIFT);
		uint64_t id = a->config & 0xffffffffULL;

		pmu = ext ? emu_cpu_pmu_by_type(&cpu, ext) : &cpu.pmus[0];
		if (!pmu || id >= PERF_COUNT_HW_MAX || !pmu->hw_ok[id])
			return NULL;
		*config = pmu->hw_config[id];
		return pmu;
	}
	if (a->type == PERF_TYPE_RAW)
		return &cpu.pmus[0];
	return emu_cpu_pmu_by_type(&cpu, a->type);
}

/* Whether perf_event_open of this attr is ours to answer. */
static int is_emulated(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	       a->type == PERF_TYPE_RAW || emu_cpu_pmu_by_type(&cpu, a->type);
}

/* Whether CPU 'n' is in the list "0-3,8" ("" is every CPU). */
static int cpu_in_list(const char *list, int n)
{
	const char *p = list;

	if (!*list)
		return 1;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (n >= a && n <= b)
			return 1;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return 0;
}

static int refuse(int err, const struct perf_event_attr *a, const char *why)
{
	log_line("refused type=%u config=%#llx errno=%d why=%s", a->type,
		 (unsigned long long)a->config, err, why);
	errno = err;
	return -1;
}

/* The checks the kernel makes before it accepts an event (see README.md). */
static int validate(struct emu_event *e, const struct perf_event_attr *a, uint64_t config,
		    struct emu_event *leader, int on_cpu)
{
	struct emu_pmu *pmu = e->pmu;
	double share;
	int metric = emu_pmu_metric(pmu, config, &share);

	if (a->type != PERF_TYPE_HARDWARE &&
	    ((config & ~pmu->config_mask) || (a->config1 & ~pmu->config1_mask) ||
	     (a->config2 & ~pmu->config2_mask)))
		return refuse(EINVAL, a, "config bits outside format/");
	if (on_cpu >= 0 && !cpu_in_list(pmu->cpus, on_cpu))
		return refuse(ENOENT, a, "CPU not in the PMU's cpus");
	if (metric && (!leader || leader->pmu != pmu || !pmu->has_slots ||
		       leader->attr.config != pmu->slots_config))
		return refuse(EINVAL, a, "topdown metric event outside a group led by slots");
	e->counters = metric ? 0 : emu_pmu_counters(pmu, config);
	if (!metric && !e->counters)
		return refuse(EINVAL, a, "no counter can count this event");
	if (leader) {
		uint64_t masks[MAX_GROUP + 1];
		int n = 0, i;

		if (leader->pmu != pmu || leader->leader != leader)
			return refuse(EINVAL, a, "group leader on another PMU or not a leader");
		if (leader->ctx->pid != e->ctx->pid || leader->ctx->cpu != e->ctx->cpu)
			return refuse(EINVAL, a, "group leader on another task or CPU");
		if (leader->nr_members >= MAX_GROUP)
			return refuse(EINVAL, a, "group too large");
		for (i = 0; i < leader->nr_members; i++)
			masks[n++] = leader->members[i]->counters;
		masks[n++] = e->counters;
		if (!emu_counters_fit(masks, n))
			return refuse(EINVAL, a, "group does not fit on the counters");
	}
	e->rate = cpu.ghz * (metric ? share * emu_pmu_rate(pmu, pmu->slots_config, 0)
				    : emu_pmu_rate(pmu, config, a->config1));
	return 0;
}

/*
 * A sampling event of the emulated PMU is a real cpu-clock event of the
 * kernel with the same sample type, so that IPs, callchains, threads and
 * MMAP records are real: a period of N events becomes N / rate
 * nanoseconds, a frequency stays.  Its fd is the kernel's; read, mmap and
 * ioctl go there.  A leader of sampled READ groups is handed to sample.c,
 * which fills in its members' counts.
 */
static int open_sampler(const struct emu_event *e, const struct perf_event_attr *a, pid_t pid,
			int on_cpu, unsigned long flags)
{
	struct perf_event_attr clock = *a;
	long fd;

	clock.type = PERF_TYPE_SOFTWARE;
	clock.config = PERF_COUNT_SW_CPU_CLOCK;
	clock.config1 = clock.config2 = 0;
	clock.precise_ip = 0;
	if (!a->freq) {
		double ns = (double)a->sample_period / e->rate;

		clock.sample_period = ns < 1000 ? 1000 : (uint64_t)ns;
	}
	fd = real_syscall(SYS_perf_event_open, &clock, (long)pid, (long)on_cpu, -1L, (long)flags);
	if (fd >= 0)
		log_line("sampler proc=%d pmu=%s config=%#llx period=%llu freq=%d clock_period_ns=%llu fd=%ld",
			 (int)getpid(), e->pmu->name, (unsigned long long)e->attr.config,
			 (unsigned long long)a->sample_period, (int)a->freq,
			 (unsigned long long)clock.sample_period, fd);
	return (int)fd;
}

/*
 * A counting member of a leader-sampled group (perf's {a,b}:S) whose
 * leader open_sampler() made a kernel cpu-clock: checked as the hardware
 * checks it, then stood for by a kernel dummy event in that group
 * (sample.c fills in its counts in the samples).
 */
static int open_sampled_member(struct emu_event *e, const struct perf_event_attr *a,
			       uint64_t config, int group_fd, pid_t pid, int on_cpu,
			       unsigned long flags)
{
	int fd;

	if (validate(e, a, config, NULL, on_cpu) < 0)
		return -1;
	if (a->sample_period || a->freq)
		return refuse(EINVAL, a, "group leader is not an emulated event");
	fd = emu_sample_member(group_fd, a, config, e->counters, e->rate, pid, on_cpu, flags,
			       real_syscall);
	if (fd == -2)
		return refuse(EINVAL, a, "group leader is not an emulated event");
	if (fd == -3)
		return refuse(EINVAL, a, "group does not fit on the counters");
	if (fd >= 0)
		log_line("member proc=%d pmu=%s config=%#llx leader_fd=%d fd=%d", (int)getpid(),
			 e->pmu->name, (unsigned long long)config, group_fd, fd);
	return fd;
}

static int emu_open(const struct perf_event_attr *a, pid_t pid, int on_cpu, int group_fd,
		    unsigned long flags)
{
	struct emu_event *e, *leader = NULL;
	uint64_t config;
	struct emu_pmu *pmu;
	int fd;

	if (a->type == PERF_TYPE_HW_CACHE)
		return refuse(ENOENT, a, "hardware cache events are not emulated");
	pmu = pmu_of(a, &config);
	if (!pmu)
		return refuse(ENOENT, a, "generic event not supported by this CPU");
	e = calloc(1, sizeof(*e));
	if (!e)
		abort();
	e->pmu = pmu;
	e->attr = *a;
	e->attr.config = config;
	e->ctx = find_ctx(pmu, pid, on_cpu);
	if (group_fd >= 0 && !(leader = lookup(group_fd))) {
		fd = open_sampled_member(e, a, config, group_fd, pid, on_cpu, flags);
		free(e);
		return fd;
	}
	if (validate(e, a, config, leader, on_cpu) < 0) {
		free(e);
		return -1;
	}
	if (a->sample_period || a->freq) {
		fd = leader ? refuse(EINVAL, a, "sampling in an emulated group is not emulated")
			    : open_sampler(e, a, pid, on_cpu, flags);
		if (fd >= 0)
			emu_sample_leader(fd, a, config, e->counters, e->rate);
		free(e);
		return fd;
	}
	fd = eventfd(0, (flags & PERF_FLAG_FD_CLOEXEC) ? EFD_CLOEXEC : 0);
	if (fd < 0) {
		free(e);
		return -1;
	}
	e->fd = fd;
	e->id = next_id++;
	last_open_ns = now_ns();
	advance(e->ctx, last_open_ns);
	e->enabled = !a->disabled;
	if (a->disabled && a->enable_on_exec) {
		e->pending = 1;
		e->ctx->nr_pending++;
	}
	e->leader = leader ? leader : e;
	e->leader->members[e->leader->nr_members++] = e;
	if (!leader) {
		struct emu_ctx *c = e->ctx;
		struct emu_event **v = realloc(c->groups, (size_t)(c->nr_groups + 1) * sizeof(*v));

		if (!v)
			abort();
		c->groups = v;
		c->groups[c->nr_groups++] = e;
	}
	schedule(e->ctx);
	remember(fd, e);
	return fd;
}

/* --- read ------------------------------------------------------------- */

static void put(uint64_t **p, uint64_t v)
{
	*(*p)++ = v;
}

static ssize_t emu_read(struct emu_event *e, void *buf, size_t n)
{
	uint64_t vals[4 + 3 * MAX_GROUP], *p = vals, fmt = e->attr.read_format;
	size_t size;
	int i;

	start_pending(e->ctx);
	advance(e->ctx, now_ns());
	if (fmt & PERF_FORMAT_GROUP) {
		struct emu_event *g = e->leader;

		put(&p, (uint64_t)g->nr_members);
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			put(&p, g->enabled_ns);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			put(&p, g->running_ns);
		for (i = 0; i < g->nr_members; i++) {
			put(&p, count_for(g->members[i], g->members[i]->running_ns));
			if (fmt & PERF_FORMAT_ID)
				put(&p, g->members[i]->id);
			if (fmt & PERF_FORMAT_LOST)
				put(&p, 0);
		}
	} else {
		put(&p, count_for(e, e->running_ns));
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			put(&p, e->enabled_ns);
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			put(&p, e->running_ns);
		if (fmt & PERF_FORMAT_ID)
			put(&p, e->id);
		if (fmt & PERF_FORMAT_LOST)
			put(&p, 0);
	}
	size = (size_t)(p - vals) * sizeof(uint64_t);
	if (n < size) {
		errno = ENOSPC;
		return -1;
	}
	memcpy(buf, vals, size);
	return (ssize_t)size;
}

/* --- ioctl ------------------------------------------------------------ */

/* ENABLE marks events to start with the others (start_pending); DISABLE stops them now. */
static void set_enabled(struct emu_event *e, int on, int group)
{
	int i, n = group ? e->leader->nr_members : 1;

	for (i = 0; i < n; i++) {
		struct emu_event *m = group ? e->leader->members[i] : e;

		if (on && !m->enabled && !m->pending) {
			m->pending = 1;
			m->ctx->nr_pending++;
		} else if (!on) {
			if (m->pending)
				m->ctx->nr_pending--;
			m->pending = 0;
			m->enabled = 0;
		}
	}
	if (on)
		last_enable_ns = now_ns();
}

static int emu_ioctl(struct emu_event *e, unsigned long req, unsigned long arg)
{
	int group = (arg & PERF_IOC_FLAG_GROUP) != 0, i;

	if (req != PERF_EVENT_IOC_ENABLE)
		start_pending(e->ctx);
	advance(e->ctx, now_ns());
	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
		set_enabled(e, 1, group);
		break;
	case PERF_EVENT_IOC_DISABLE:
		set_enabled(e, 0, group);
		break;
	case PERF_EVENT_IOC_RESET:
		for (i = 0; i < (group ? e->leader->nr_members : 1); i++) {
			struct emu_event *m = group ? e->leader->members[i] : e;

			m->running_ns = m->enabled_ns = 0;
		}
		break;
	case PERF_EVENT_IOC_ID:
		if (!arg) {
			errno = EFAULT;
			return -1;
		}
		*(uint64_t *)arg = e->id;
		return 0;
	default:
		errno = ENOTTY;
		return -1;
	}
	schedule(e->ctx);
	return 0;
}

/* --- close ------------------------------------------------------------ */

static void drop_from_group(struct emu_event *e)
{
	struct emu_ctx *c = e->ctx;
	int i;

	if (e->leader != e) {
		struct emu_event *g = e->leader;

		for (i = 0; i < g->nr_members; i++)
			if (g->members[i] == e) {
				memmove(g->members + i, g->members + i + 1,
					(size_t)(g->nr_members - i - 1) * sizeof(e));
				g->nr_members--;
				break;
			}
		return;
	}
	/* a closed leader leaves its members as singletons, as the kernel does */
	for (i = 1; i < e->nr_members; i++) {
		struct emu_event *m = e->members[i];
		struct emu_event **v = realloc(c->groups, (size_t)(c->nr_groups + 1) * sizeof(*v));

		if (!v)
			abort();
		c->groups = v;
		c->groups[c->nr_groups++] = m;
		m->leader = m;
		m->members[0] = m;
		m->nr_members = 1;
	}
	for (i = 0; i < c->nr_groups; i++)
		if (c->groups[i] == e) {
			memmove(c->groups + i, c->groups + i + 1, (size_t)(c->nr_groups - i - 1) * sizeof(e));
			c->nr_groups--;
			break;
		}
}

/*
 * Closing an event starts no pending one: perf closes the events of a
 * weak group that did not fit and reopens them one by one before its
 * workload execs, and the events opened before that close must start
 * with those opened after it, at the exec (the next read or ioctl), as
 * the kernel's enable_on_exec does.  A pending event closed before it
 * started never counted.
 */
static void emu_close(struct emu_event *e)
{
	if (e->pending) {
		e->pending = 0;
		e->ctx->nr_pending--;
	}
	advance(e->ctx, now_ns());
	log_event(e, "event");
	drop_from_group(e);
	by_fd[e->fd] = NULL;
	schedule(e->ctx);
	free(e);
}

/* --- the interposed libc functions ------------------------------------ */

long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	resolve_real();
	if (!init_started && nr == SYS_perf_event_open)
		emu_init();
	if (active && nr == SYS_perf_event_open && a[0] &&
	    is_emulated((const struct perf_event_attr *)a[0])) {
		long fd;

		pthread_mutex_lock(&lock);
		fd = emu_open((const struct perf_event_attr *)a[0], (pid_t)a[1], (int)a[2],
			      (int)a[3], (unsigned long)a[4]);
		pthread_mutex_unlock(&lock);
		return fd;
	}
	if (active && nr == SYS_perf_event_open && (int)a[3] >= 0) {
		pthread_mutex_lock(&lock);
		i = lookup((int)a[3]) != NULL;
		pthread_mutex_unlock(&lock);
		if (i)
			return refuse(EINVAL, (const struct perf_event_attr *)a[0],
				      "kernel event in an emulated group");
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t read(int fd, void *buf, size_t n)
{
	struct emu_event *e;
	ssize_t r;

	resolve_real();
	if (!active)
		return real_read(fd, buf, n);
	pthread_mutex_lock(&lock);
	e = lookup(fd);
	r = e ? emu_read(e, buf, n) : 0;
	pthread_mutex_unlock(&lock);
	return e ? r : real_read(fd, buf, n);
}

/* glibc declares it only to a -D_FORTIFY_SOURCE build, but perf calls it. */
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	if (n > buflen)
		abort();
	return read(fd, buf, n);
}

int ioctl(int fd, unsigned long req, ...)
{
	struct emu_event *e;
	unsigned long arg;
	va_list ap;
	int r = 0;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	resolve_real();
	if (!active)
		return real_ioctl(fd, req, arg);
	pthread_mutex_lock(&lock);
	e = lookup(fd);
	if (e)
		r = emu_ioctl(e, req, arg);
	pthread_mutex_unlock(&lock);
	return e ? r : real_ioctl(fd, req, arg);
}

int close(int fd)
{
	struct emu_event *e;

	resolve_real();
	if (active) {
		pthread_mutex_lock(&lock);
		e = lookup(fd);
		if (e)
			emu_close(e);
		pthread_mutex_unlock(&lock);
	}
	return real_close(fd);
}

/*
 * A forked child shares the parent's events, as with real perf fds; only
 * the parent keeps their state (and logs them), so the child forgets them.
 */
static void forget_after_fork(void)
{
	if (by_fd)
		memset(by_fd, 0, (size_t)nr_by_fd * sizeof(*by_fd));
	contexts = NULL;
}

/* With SMT off a thread has the counters its sibling would have used. */
static void use_nosmt_counters(void)
{
	int i;

	for (i = 0; i < cpu.nr_pmus; i++)
		if (cpu.pmus[i].gp_nosmt)
			cpu.pmus[i].gp = cpu.pmus[i].gp_nosmt;
}

/*
 * Load the CPU description once per process; without one, stay out of the
 * way.  Also called by the first perf_event_open: a library's constructor
 * (libtdperf.so opening its groups at load) may run before this one, and
 * a kernel answers from the first instruction.
 */
__attribute__((constructor)) static void emu_init(void)
{
	const char *path = getenv("PMU_EMU_CPU_FILE");
	char err[512];

	if (init_started)
		return;
	init_started = 1;
	resolve_real();
	log_path = getenv("PMU_EMU_LOG");
	if (!path)
		return;
	if (emu_cpu_load(&cpu, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "pmu-emu: %s\n", err);
		_exit(2);
	}
	if (getenv("PMU_EMU_NMI_WATCHDOG"))
		cpu.nmi_watchdog = atoi(getenv("PMU_EMU_NMI_WATCHDOG"));
	if (getenv("PMU_EMU_SMT") && !atoi(getenv("PMU_EMU_SMT")))
		use_nosmt_counters();
	emu_sample_init(cpu.ghz, log_line);
	pthread_atfork(NULL, NULL, forget_after_fork);
	active = 1;
}

/* Events a process never closed are logged when it exits. */
__attribute__((destructor)) static void emu_fini(void)
{
	int fd;

	if (!active)
		return;
	pthread_mutex_lock(&lock);
	for (fd = 0; fd < nr_by_fd; fd++)
		if (by_fd[fd]) {
			advance(by_fd[fd]->ctx, now_ns());
			log_event(by_fd[fd], "event");
		}
	pthread_mutex_unlock(&lock);
	emu_sample_log();
}
