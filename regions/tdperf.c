/*
 * libtdperf.so: the marker library behind <tdperf.h>.
 *
 * 'tdperf record --regions' writes the run's event groups, resolved to
 * perf_event_attr fields, into a spec file in the run directory and names
 * it in TDPERF_REGIONS (collect/regions.c writes it, docs/regions.md
 * describes it).  When the library is loaded with that variable set, each
 * thread that enters a region opens every group for itself
 * (perf_event_open pid 0, cpu -1, PERF_FORMAT_GROUP with the enabled and
 * running times) and reads all of them at each begin and end.  A pass
 * adds its deltas to the region's inclusive counts, and, less the deltas
 * of the regions nested in it, to its exclusive counts.  The thread's own
 * life since it opened its groups is the root region "(root)".
 *
 * What is kept per value is raw: the count, and the group's enabled and
 * running times over the same passes, so that the reader scales
 * (count * enabled / running) and marks a multiplexed region as an
 * estimate.  Everything is written at exit (atexit, and SIGINT/SIGTERM
 * before the handler that was there runs), at _exit and before an exec
 * (the library's own _exit, _Exit and exec* come before libc's for the
 * program that links it) into regions-PID.json beside the spec; a process
 * that crashes loses its own regions.
 *
 * Each measured pass is also logged as an instance (its begin time, its
 * depth, its deltas) for the timeline of 'report --format trace': the
 * first 'instances N' of each thread (the spec says N), so the log of a
 * thread never holds more than N + 1 records of 3 + W words (the root's
 * own pass is always kept); the passes past N are counted as dropped.
 *
 * The library depends on libc alone: it is linked into the user's program.
 */
#define _GNU_SOURCE
#include "regions/tdperf.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#undef tdperf_region_begin
#undef tdperf_region_end

#define MAX_GROUPS 64
#define MAX_EVENTS 512
#define ROOT_NAME "(root)"

int tdperf_regions_active;

struct spec_event {
	char *name;
	struct perf_event_attr attr;
};

struct spec_group {
	char *pmu;
	size_t first, nr;        /* its events in spec.events */
};

/*
 * One reading of a thread's groups is a vector of W values: the
 * monotonic time, then per group its enabled and running times and its
 * counts.  Deltas, sums and differences are taken element by element.
 */
static struct {
	struct spec_event events[MAX_EVENTS];
	size_t nr_events;
	struct spec_group groups[MAX_GROUPS];
	size_t nr_groups;
	unsigned long sample;    /* count one pass in N of each region */
	unsigned long instances; /* passes logged per thread, for the timeline */
	char dir[PATH_MAX];      /* where regions-PID.json goes */
	size_t width;            /* W */
} spec;

struct region {
	const char *key;         /* the caller's pointer, for a quick match */
	char *name;              /* a copy: a caller's (Python's) may be freed before exit */
	const char *parent;      /* the enclosing region at its first pass */
	unsigned long long calls, measured;
	unsigned active;         /* passes of this name open on the stack (recursion) */
	uint64_t *incl, *excl;
};

struct frame {
	struct region *r;
	int measured;            /* counters read at begin (1 pass in spec.sample) */
	int outermost;           /* no pass of the same name below it */
	uint64_t *start, *child; /* reading at begin; nested measured passes' sum */
};

struct thread_state {
	pid_t tid;
	int fds[MAX_GROUPS];     /* group leaders, -1 when the group did not open */
	int *member_fds;         /* every event's fd, to close */
	uint64_t *ids;           /* PERF_EVENT_IOC_ID of each event (0: unknown) */
	int open_errno[MAX_GROUPS];
	struct frame *stack;
	size_t depth, alloc_depth;
	struct region *regions;
	size_t nr_regions, alloc_regions;
	uint64_t *now;           /* scratch reading */
	uint64_t *log;           /* instances: region, depth, begin time, deltas (3 + W words each) */
	size_t nr_log, alloc_log;
	unsigned long long log_dropped;
	int finished;
	pthread_mutex_t lock;
	struct thread_state *next;
};

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct thread_state *threads;
static pthread_key_t thread_key;
static __thread struct thread_state *self;
static int written;
static pid_t owner;          /* the process the thread list belongs to */
static char written_path[PATH_MAX + 64]; /* regions-PID[.N].json, once chosen */
static char warnings[8192];
static size_t warnings_len;
static struct sigaction old_int, old_term;

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fprintf(stderr, "tdperf: %s\n", line);
	pthread_mutex_lock(&threads_lock);
	if (warnings_len + strlen(line) + 2 < sizeof(warnings)) {
		memcpy(warnings + warnings_len, line, strlen(line) + 1);
		warnings_len += strlen(line) + 1;
	}
	pthread_mutex_unlock(&threads_lock);
}

/* ---------------- the spec ---------------- */

static int parse_event(char *line, struct spec_event *e)
{
	unsigned long long type, config, config1, config2;
	char name[256];

	if (sscanf(line, "event %lli %lli %lli %lli %255s", &type, &config, &config1, &config2,
		   name) != 5)
		return -1;
	memset(&e->attr, 0, sizeof(e->attr));
	e->attr.size = sizeof(e->attr);
	e->attr.type = (uint32_t)type;
	e->attr.config = config;
	e->attr.config1 = config1;
	e->attr.config2 = config2;
	e->attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			      PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->attr.exclude_guest = 1;
	e->name = strdup(name);
	return e->name ? 0 : -1;
}

static int load_spec(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	const char *slash;
	int ok = 1;

	if (!f) {
		fprintf(stderr, "tdperf: %s: %s; regions are not counted\n", path, strerror(errno));
		return -1;
	}
	spec.sample = 1;
	while (ok && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "sample ", 7)) {
			spec.sample = strtoul(line + 7, NULL, 10);
			ok = spec.sample > 0;
		} else if (!strncmp(line, "instances ", 10)) {
			spec.instances = strtoul(line + 10, NULL, 10);
		} else if (!strncmp(line, "group ", 6)) {
			ok = spec.nr_groups < MAX_GROUPS;
			if (ok) {
				struct spec_group *g = &spec.groups[spec.nr_groups++];

				g->pmu = strdup(line + 6);
				g->first = spec.nr_events;
				g->nr = 0;
			}
		} else if (!strncmp(line, "event ", 6)) {
			ok = spec.nr_groups && spec.nr_events < MAX_EVENTS &&
			     !parse_event(line, &spec.events[spec.nr_events]);
			if (ok) {
				spec.nr_events++;
				spec.groups[spec.nr_groups - 1].nr++;
			}
		} else {
			ok = line[0] == '\0' || line[0] == '#' || !strncmp(line, "tdperf-regions-spec ", 20);
		}
	}
	fclose(f);
	if (!ok) {
		fprintf(stderr, "tdperf: %s: not a regions spec of this tdperf (at '%s'); "
			"regions are not counted\n", path, line);
		return -1;
	}
	slash = strrchr(path, '/');
	if (slash)
		snprintf(spec.dir, sizeof(spec.dir), "%.*s", (int)(slash - path), path);
	else
		snprintf(spec.dir, sizeof(spec.dir), ".");
	spec.width = 1 + 2 * spec.nr_groups + spec.nr_events;
	return 0;
}

/* ---------------- counting ---------------- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Offsets in a reading: group g's enabled time, and its first count. */
static size_t enabled_at(size_t g)
{
	return 1 + 2 * g;
}

static size_t count_at(size_t e)
{
	return 1 + 2 * spec.nr_groups + e;
}

/* Read every group of thread t into v (a group that did not open reads 0). */
static void read_all(struct thread_state *t, uint64_t *v)
{
	uint64_t buf[3 + MAX_EVENTS];
	size_t g, i;

	for (g = 0; g < spec.nr_groups; g++) {
		const struct spec_group *sg = &spec.groups[g];
		ssize_t want = (ssize_t)((3 + sg->nr) * sizeof(uint64_t));

		if (t->fds[g] < 0 || read(t->fds[g], buf, (size_t)want) != want || buf[0] != sg->nr) {
			v[enabled_at(g)] = v[enabled_at(g) + 1] = 0;
			for (i = 0; i < sg->nr; i++)
				v[count_at(sg->first + i)] = 0;
			continue;
		}
		v[enabled_at(g)] = buf[1];
		v[enabled_at(g) + 1] = buf[2];
		for (i = 0; i < sg->nr; i++)
			v[count_at(sg->first + i)] = buf[3 + i];
	}
	v[0] = now_ns();
}

static long perf_event_open(struct perf_event_attr *a, int group_fd)
{
	return syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* Open group g for the calling thread, disabled: it is enabled once read. */
static void open_group(struct thread_state *t, size_t g)
{
	const struct spec_group *sg = &spec.groups[g];
	size_t i;

	t->fds[g] = -1;
	for (i = 0; i < sg->nr; i++) {
		struct perf_event_attr a = spec.events[sg->first + i].attr;
		long fd;

		a.disabled = !i;
		fd = perf_event_open(&a, i ? t->fds[g] : -1);
		if (fd < 0) {
			t->open_errno[g] = errno;
			while (i--)
				close(t->member_fds[sg->first + i]);
			t->fds[g] = -1;
			return;
		}
		t->member_fds[sg->first + i] = (int)fd;
		if (!i)
			t->fds[g] = (int)fd;
		if (ioctl((int)fd, PERF_EVENT_IOC_ID, &t->ids[sg->first + i]) < 0)
			t->ids[sg->first + i] = 0;
	}
}

static struct region *find_region(struct thread_state *t, const char *name)
{
	size_t i;

	/* most programs have a handful of regions: a pointer match first */
	for (i = 0; i < t->nr_regions; i++)
		if (t->regions[i].key == name)
			return &t->regions[i];
	for (i = 0; i < t->nr_regions; i++)
		if (!strcmp(t->regions[i].name, name))
			return &t->regions[i];
	return NULL;
}

static struct region *add_region(struct thread_state *t, const char *name, const char *parent)
{
	struct region *r;

	if (t->nr_regions == t->alloc_regions) {
		size_t n = t->alloc_regions ? 2 * t->alloc_regions : 16;
		struct region *p = realloc(t->regions, n * sizeof(*p));

		if (!p)
			return NULL;
		/* frames point at regions: move them along */
		for (size_t i = 0; i < t->depth; i++)
			t->stack[i].r = p + (t->stack[i].r - t->regions);
		t->regions = p;
		t->alloc_regions = n;
	}
	r = &t->regions[t->nr_regions];
	memset(r, 0, sizeof(*r));
	r->key = name;
	r->name = strdup(name);
	r->parent = parent;
	r->incl = calloc(spec.width, sizeof(uint64_t));
	r->excl = calloc(spec.width, sizeof(uint64_t));
	if (!r->name || !r->incl || !r->excl) {
		free(r->name);
		free(r->incl);
		free(r->excl);
		return NULL;
	}
	t->nr_regions++;
	return r;
}

static struct frame *push_frame(struct thread_state *t)
{
	struct frame *f;

	if (t->depth == t->alloc_depth) {
		size_t n = t->alloc_depth ? 2 * t->alloc_depth : 16, i;
		struct frame *p = realloc(t->stack, n * sizeof(*p));

		if (!p)
			return NULL;
		for (i = t->alloc_depth; i < n; i++) {
			p[i].start = calloc(spec.width, sizeof(uint64_t));
			p[i].child = calloc(spec.width, sizeof(uint64_t));
			if (!p[i].start || !p[i].child)
				return t->stack = p, NULL;
		}
		t->stack = p;
		t->alloc_depth = n;
	}
	f = &t->stack[t->depth++];
	memset(f->child, 0, spec.width * sizeof(uint64_t));
	return f;
}

static void begin(struct thread_state *t, const char *name)
{
	const char *parent = t->depth ? t->stack[t->depth - 1].r->name : NULL;
	struct region *r = find_region(t, name);
	struct frame *f;

	if (!r && !(r = add_region(t, name, parent)))
		return;
	f = push_frame(t);
	if (!f)
		return;
	f->r = r;
	f->outermost = !r->active++;
	f->measured = r->calls++ % spec.sample == 0;
	if (f->measured) {
		r->measured++;
		read_all(t, f->start);
	}
}

static size_t log_record_width(void)
{
	return 3 + spec.width;
}

/*
 * Log frame f's pass, closed with reading v.  Past the bound the pass is
 * only counted, except the root's (depth 0), the one the timeline hangs on.
 */
static void log_instance(struct thread_state *t, const struct frame *f, const uint64_t *v)
{
	size_t w = log_record_width(), i;
	uint64_t *rec;

	if (t->nr_log >= spec.instances && t->depth) {
		t->log_dropped++;
		return;
	}
	if (t->nr_log == t->alloc_log) {
		size_t n = t->alloc_log ? 2 * t->alloc_log : 64;
		uint64_t *p;

		if (n > spec.instances + 1)
			n = spec.instances + 1;
		p = realloc(t->log, n * w * sizeof(*p));
		if (!p) {
			t->log_dropped++;
			return;
		}
		t->log = p;
		t->alloc_log = n;
	}
	rec = t->log + t->nr_log++ * w;
	rec[0] = (uint64_t)(f->r - t->regions);
	rec[1] = t->depth;
	rec[2] = f->start[0];
	for (i = 0; i < spec.width; i++)
		rec[3 + i] = v[i] - f->start[i];
}

/* Close the innermost frame with reading v (taken when it is measured). */
static void close_frame(struct thread_state *t, const uint64_t *v)
{
	struct frame *f = &t->stack[--t->depth];
	struct region *r = f->r;
	size_t i;

	r->active--;
	if (!f->measured)
		return;
	log_instance(t, f, v);
	for (i = 0; i < spec.width; i++) {
		uint64_t d = v[i] - f->start[i];

		if (f->outermost)
			r->incl[i] += d;
		r->excl[i] += d - f->child[i];
		if (t->depth)
			t->stack[t->depth - 1].child[i] += d;
	}
}

static void end(struct thread_state *t, const char *name)
{
	size_t i, at = t->depth;

	for (i = t->depth; i-- > 1;)   /* frame 0 is the root */
		if (!strcmp(t->stack[i].r->name, name)) {
			at = i;
			break;
		}
	if (at == t->depth) {
		warn("region '%s' ended in thread %d without a begin: the end is ignored", name,
		     (int)t->tid);
		return;
	}
	if (at != t->depth - 1)
		warn("region '%s' ended in thread %d while '%s' was open inside it: '%s' is "
		     "closed there too", name, (int)t->tid, t->stack[t->depth - 1].r->name,
		     t->stack[t->depth - 1].r->name);
	/* a sampled-out pass reads nothing (unless a counted pass closes with it) */
	for (i = at; i < t->depth; i++)
		if (t->stack[i].measured) {
			read_all(t, t->now);
			break;
		}
	while (t->depth > at)
		close_frame(t, t->now);
}

/* The end of a thread's counting: open regions closed, groups stopped and closed. */
static void finish(struct thread_state *t, const char *when)
{
	size_t g, e;

	if (t->finished)
		return;
	/* stop counting first, so that the last reading is the events' final count */
	for (g = 0; g < spec.nr_groups; g++)
		if (t->fds[g] >= 0)
			ioctl(t->fds[g], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	read_all(t, t->now);
	while (t->depth > 1) {
		warn("region '%s' of thread %d was still open %s: closed there",
		     t->stack[t->depth - 1].r->name, (int)t->tid, when);
		close_frame(t, t->now);
	}
	if (t->depth)
		close_frame(t, t->now);
	for (e = 0; e < spec.nr_events; e++)
		if (t->member_fds[e] >= 0)
			close(t->member_fds[e]);
	t->finished = 1;
}

static void thread_exit(void *arg)
{
	struct thread_state *t = arg;

	pthread_mutex_lock(&t->lock);
	finish(t, "when the thread exited");
	pthread_mutex_unlock(&t->lock);
}

static struct thread_state *thread_start(void)
{
	struct thread_state *t = calloc(1, sizeof(*t));
	size_t g, e;
	struct frame *f;

	if (!t)
		return NULL;
	t->tid = (pid_t)syscall(SYS_gettid);
	t->member_fds = malloc(spec.nr_events * sizeof(int) + 1);
	t->ids = calloc(spec.nr_events + 1, sizeof(uint64_t));
	t->now = calloc(spec.width, sizeof(uint64_t));
	if (!t->member_fds || !t->ids || !t->now)
		return NULL;
	for (e = 0; e < spec.nr_events; e++)
		t->member_fds[e] = -1;
	pthread_mutex_init(&t->lock, NULL);
	for (g = 0; g < spec.nr_groups; g++)
		open_group(t, g);
	/* the root: the groups' counts start at zero, enabled right after this reading */
	begin(t, ROOT_NAME);
	f = t->depth ? &t->stack[0] : NULL;
	for (g = 0; g < spec.nr_groups; g++)
		if (t->fds[g] >= 0)
			ioctl(t->fds[g], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	if (f)
		f->start[0] = now_ns();
	pthread_mutex_lock(&threads_lock);
	t->next = threads;
	threads = t;
	pthread_mutex_unlock(&threads_lock);
	pthread_setspecific(thread_key, t);
	return t;
}

static void at_exit(void);

/*
 * exit() runs atexit handlers registered after the program started before
 * the libraries' destructors, and those registered by a library's
 * constructor after them: registered at the first call, the write comes
 * while everything (a preloaded library, stdio) still works.
 */
static void register_at_exit(void)
{
	static int registered;

	if (!__atomic_exchange_n(&registered, 1, __ATOMIC_RELAXED))
		atexit(at_exit);
}

void tdperf_region_begin(const char *name)
{
	struct thread_state *t = self;

	if (!tdperf_regions_active || !name)
		return;
	register_at_exit();
	if (!t && !(t = self = thread_start()))
		return;
	pthread_mutex_lock(&t->lock);
	if (!t->finished)
		begin(t, name);
	pthread_mutex_unlock(&t->lock);
}

void tdperf_region_end(const char *name)
{
	struct thread_state *t = self;

	if (!tdperf_regions_active || !name)
		return;
	if (!t && !(t = self = thread_start()))
		return;
	pthread_mutex_lock(&t->lock);
	if (!t->finished)
		end(t, name);
	pthread_mutex_unlock(&t->lock);
}

/* ---------------- writing regions-PID.json ---------------- */

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_values(FILE *f, const char *key, const uint64_t *v)
{
	size_t g, e;

	fprintf(f, "\"%s\": {\"time_ns\": %llu, \"enabled_ns\": [", key, (unsigned long long)v[0]);
	for (g = 0; g < spec.nr_groups; g++)
		fprintf(f, "%s%llu", g ? ", " : "", (unsigned long long)v[enabled_at(g)]);
	fputs("], \"running_ns\": [", f);
	for (g = 0; g < spec.nr_groups; g++)
		fprintf(f, "%s%llu", g ? ", " : "", (unsigned long long)v[enabled_at(g) + 1]);
	fputs("], \"counts\": [", f);
	for (e = 0; e < spec.nr_events; e++)
		fprintf(f, "%s%llu", e ? ", " : "", (unsigned long long)v[count_at(e)]);
	fputs("]}", f);
}

/* The thread's logged passes, in the order they closed (regions index "regions"). */
static void put_instances(FILE *f, const struct thread_state *t)
{
	size_t i, w = log_record_width();

	fprintf(f, ",\n     \"instances_dropped\": %llu, \"instances\": [", t->log_dropped);
	for (i = 0; i < t->nr_log; i++) {
		const uint64_t *rec = t->log + i * w;

		fprintf(f, "%s\n      {\"region\": %llu, \"depth\": %llu, \"begin_ns\": %llu, ",
			i ? "," : "", (unsigned long long)rec[0], (unsigned long long)rec[1],
			(unsigned long long)rec[2]);
		put_values(f, "values", rec + 3);
		fputs("}", f);
	}
	fputs("]", f);
}

static void put_thread(FILE *f, const struct thread_state *t)
{
	size_t i, g;

	fprintf(f, "    {\"tid\": %d, \"complete\": %s, \"errno\": [", (int)t->tid,
		t->finished ? "true" : "false");
	for (g = 0; g < spec.nr_groups; g++)
		fprintf(f, "%s%d", g ? ", " : "", t->fds[g] < 0 ? t->open_errno[g] : 0);
	fputs("], \"ids\": [", f);
	for (i = 0; i < spec.nr_events; i++)
		fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)t->ids[i]);
	fputs("],\n     \"regions\": [\n", f);
	for (i = 0; i < t->nr_regions; i++) {
		const struct region *r = &t->regions[i];

		fputs("      {\"name\": ", f);
		put_string(f, r->name);
		fputs(", \"parent\": ", f);
		if (r->parent)
			put_string(f, r->parent);
		else
			fputs("null", f);
		fprintf(f, ", \"calls\": %llu, \"measured\": %llu,\n       ", r->calls, r->measured);
		put_values(f, "inclusive", r->incl);
		fputs(",\n       ", f);
		put_values(f, "exclusive", r->excl);
		fprintf(f, "}%s\n", i + 1 < t->nr_regions ? "," : "");
	}
	fputs("     ]", f);
	put_instances(f, t);
	fputs("}", f);
}

/*
 * Give the written file its name: regions-PID.json, or, when an earlier
 * image of this process (before an exec) wrote that, regions-PID.N.json,
 * so that neither program's regions replace the other's.  link() does not
 * replace an existing name.
 */
static int publish(const char *tmp, char *path, size_t size)
{
	int n;

	if (written_path[0]) {
		snprintf(path, size, "%s", written_path);
		return rename(tmp, path);
	}
	for (n = 0; n < 1000; n++) {
		if (n)
			snprintf(path, size, "%s/regions-%d.%d.json", spec.dir, (int)getpid(), n);
		else
			snprintf(path, size, "%s/regions-%d.json", spec.dir, (int)getpid());
		if (!link(tmp, path)) {
			snprintf(written_path, sizeof(written_path), "%s", path);
			return unlink(tmp);
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

static void write_all(const char *when)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 80];
	struct thread_state *t;
	size_t g, e, w;
	FILE *f;

	if (written)
		return;
	written = 1;
	pthread_mutex_lock(&threads_lock);
	t = threads;
	pthread_mutex_unlock(&threads_lock);
	for (; t; t = t->next) {
		/* a thread inside the library now (a signal) is left as it is */
		if (pthread_mutex_trylock(&t->lock))
			continue;
		finish(t, when);
		pthread_mutex_unlock(&t->lock);
	}
	snprintf(tmp, sizeof(tmp), "%s/regions-%d.json.tmp", spec.dir, (int)getpid());
	f = fopen(tmp, "we");
	if (!f) {
		fprintf(stderr, "tdperf: %s: %s: the regions of this process are lost\n", tmp,
			strerror(errno));
		return;
	}
	fprintf(f, "{\"format\": \"tdperf-regions\", \"version\": 1, \"pid\": %d, \"sample\": %lu, "
		"\"instances\": %lu,\n", (int)getpid(), spec.sample, spec.instances);
	fputs(" \"groups\": [", f);
	for (g = 0; g < spec.nr_groups; g++) {
		fprintf(f, "%s\n  {\"pmu\": ", g ? "," : "");
		put_string(f, spec.groups[g].pmu);
		fputs(", \"events\": [", f);
		for (e = 0; e < spec.groups[g].nr; e++) {
			fputs(e ? ", " : "", f);
			put_string(f, spec.events[spec.groups[g].first + e].name);
		}
		fputs("]}", f);
	}
	fputs("],\n \"warnings\": [", f);
	for (w = 0; w < warnings_len; w += strlen(warnings + w) + 1) {
		fputs(w ? ", " : "", f);
		put_string(f, warnings + w);
	}
	fputs("],\n \"threads\": [\n", f);
	for (t = threads; t; t = t->next) {
		put_thread(f, t);
		fputs(t->next ? ",\n" : "\n", f);
	}
	fputs(" ]}\n", f);
	if (fclose(f) || publish(tmp, path, sizeof(path)))
		fprintf(stderr, "tdperf: %s: %s: the regions of this process are lost\n", path,
			strerror(errno));
}

static void at_exit(void)
{
	write_all("at exit");
}

/* A program that never marked a region still has its root region. */
__attribute__((destructor)) static void tdperf_regions_fini(void)
{
	if (tdperf_regions_active)
		write_all("at exit");
}

static void on_signal(int sig)
{
	struct sigaction *old = sig == SIGINT ? &old_int : &old_term;

	write_all("when the process got a signal");
	sigaction(sig, old, NULL);
	if (old->sa_handler == SIG_DFL || old->sa_handler == SIG_IGN)
		raise(sig);
	else
		old->sa_handler(sig);
}

/*
 * A forked child counts itself: the parent's groups count the parent
 * (pid 0 when opened), and the parent writes the parent's regions.
 */
static void after_fork(void)
{
	threads = NULL;
	self = NULL;
	written = 0;
	written_path[0] = '\0';
	owner = getpid();
	warnings_len = 0;
	pthread_mutex_init(&threads_lock, NULL);
	self = thread_start();
}

static void catch(int sig, struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, NULL, old) == 0 && !(old->sa_flags & SA_SIGINFO) &&
	    old->sa_handler != SIG_IGN)
		sigaction(sig, &sa, NULL);
}

__attribute__((constructor)) static void tdperf_regions_init(void)
{
	const char *path = getenv("TDPERF_REGIONS");

	if (!path || !*path || load_spec(path) < 0)
		return;
	if (pthread_key_create(&thread_key, thread_exit))
		return;
	tdperf_regions_active = 1;
	owner = getpid();
	catch(SIGINT, &old_int);
	catch(SIGTERM, &old_term);
	pthread_atfork(NULL, NULL, after_fork);
	/* the main thread counts from here: its root is the whole run */
	self = thread_start();
}

/* ---------------- _exit and exec ---------------- */

/*
 * The process image ends without exit(), which runs no atexit handler:
 * its regions are written first.  Not in a vfork child (it shares the
 * parent's memory, thread list included, under another pid): those
 * regions are the parent's, which writes them itself.
 */
static void image_ends(const char *when)
{
	if (tdperf_regions_active && getpid() == owner)
		write_all(when);
}

void _exit(int status)
{
	image_ends("at _exit");
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}

void _Exit(int status)
{
	image_ends("at _Exit");
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}

/*
 * libc's functions behind ours, looked up once when the library loads:
 * a vfork child must not run the dynamic linker's lookup (it shares the
 * parent's memory while the parent's other threads run).
 */
enum { NEXT_EXECVE, NEXT_EXECVPE, NEXT_EXECV, NEXT_EXECVP, NEXT_FEXECVE, NEXT__NR };
static const char *const next_names[NEXT__NR] = { "execve", "execvpe", "execv", "execvp", "fexecve" };
static void *next_fns[NEXT__NR];

__attribute__((constructor)) static void find_next_symbols(void)
{
	size_t i;

	for (i = 0; i < NEXT__NR; i++)
		next_fns[i] = dlsym(RTLD_NEXT, next_names[i]);
}

static void *next_symbol(int which)
{
	if (!next_fns[which])
		next_fns[which] = dlsym(RTLD_NEXT, next_names[which]);
	if (!next_fns[which])
		errno = ENOSYS;
	return next_fns[which];
}

/* What a failed exec leaves: the groups were closed when the regions were written. */
static int exec_failed(const char *file)
{
	int err = errno;

	if (tdperf_regions_active && getpid() == owner) {
		warn("exec of '%s' failed: this process's regions were written before it, "
		     "nothing after it is counted", file);
		written = 0;    /* written again at exit, with this warning, under the same name */
	}
	errno = err;
	return -1;
}

typedef int exec_env_fn(const char *, char *const[], char *const[]);
typedef int exec_fn(const char *, char *const[]);

static int call_exec_env(int which, const char *file, char *const argv[], char *const envp[])
{
	void *sym = next_symbol(which);
	exec_env_fn *fn;

	if (!sym)
		return -1;
	memcpy(&fn, &sym, sizeof(fn));
	image_ends("before exec");
	fn(file, argv, envp);
	return exec_failed(file);
}

static int call_exec(int which, const char *file, char *const argv[])
{
	void *sym = next_symbol(which);
	exec_fn *fn;

	if (!sym)
		return -1;
	memcpy(&fn, &sym, sizeof(fn));
	image_ends("before exec");
	fn(file, argv);
	return exec_failed(file);
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	return call_exec_env(NEXT_EXECVE, path, argv, envp);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	return call_exec_env(NEXT_EXECVPE, file, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	return call_exec(NEXT_EXECV, path, argv);
}

int execvp(const char *file, char *const argv[])
{
	return call_exec(NEXT_EXECVP, file, argv);
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	void *sym = next_symbol(NEXT_FEXECVE);
	int (*fn)(int, char *const[], char *const[]);

	if (!sym)
		return -1;
	memcpy(&fn, &sym, sizeof(fn));
	image_ends("before exec");
	fn(fd, argv, envp);
	return exec_failed("(a file descriptor)");
}

/*
 * The list forms: arg and what follows, up to the NULL, as an argv (and
 * the environment after the NULL for execle).  NULL when out of memory.
 */
static char **list_to_argv(const char *arg, va_list ap, char *const **envp)
{
	va_list count;
	size_t n = 1, i;
	char **argv;

	va_copy(count, ap);
	if (arg)
		while (va_arg(count, char *))
			n++;
	va_end(count);
	argv = malloc((n + 1) * sizeof(*argv));
	if (!argv)
		return NULL;
	argv[0] = (char *)arg;
	for (i = 1; arg && i < n; i++)
		argv[i] = va_arg(ap, char *);
	argv[arg ? n : 0] = NULL;
	if (arg)
		(void)va_arg(ap, char *);
	if (envp)
		*envp = va_arg(ap, char *const *);
	return argv;
}

/* A list form: its argv (and execle's environment), then the exec. */
static int exec_list(int which, const char *file, const char *arg, va_list ap, int with_env)
{
	char *const *envp = NULL;
	char **argv = list_to_argv(arg, ap, with_env ? &envp : NULL);
	int ret;

	if (!argv)
		return errno = ENOMEM, -1;
	ret = with_env ? call_exec_env(which, file, argv, envp) : call_exec(which, file, argv);
	free(argv);
	return ret;
}

int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = exec_list(NEXT_EXECV, path, arg, ap, 0);
	va_end(ap);
	return ret;
}

int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = exec_list(NEXT_EXECVP, file, arg, ap, 0);
	va_end(ap);
	return ret;
}

int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int ret;

	va_start(ap, arg);
	ret = exec_list(NEXT_EXECVE, path, arg, ap, 1);
	va_end(ap);
	return ret;
}
