/*
 * What machine is this and what may perf measure on it?  Everything is
 * read from /proc and /sys, from the CPUID instruction on x86, from
 * 'perf --version', and from one test perf_event_open() of 'cycles' - the
 * only reliable way to tell a guest without a virtual PMU from a host.
 */
#include "collect/cpu.h"
#include "metrics/table.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define PMU_DIR "/sys/bus/event_source/devices"

/* Read a small sysfs/procfs file, trimmed; NULL when unreadable. */
static char *read_small(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (td_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_trim(&sb);
	return strbuf_detach(&sb, NULL);
}

/* Read an integer file; 'fallback' when unreadable or not a number. */
static int read_int(const char *path, int fallback)
{
	char *s = read_small(path), *end;
	long v;

	if (!s)
		return fallback;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || v < INT_MIN || v > INT_MAX)
		v = fallback;
	free(s);
	return (int)v;
}

/* Value of "key : value" on the first /proc/cpuinfo block, or NULL. */
static char *cpuinfo_field(const char *cpuinfo, const char *key)
{
	const char *line = cpuinfo;
	size_t klen = strlen(key);

	while (line && *line && *line != '\n') {
		const char *eol = strchr(line, '\n');
		const char *colon;

		if (!eol)
			eol = line + strlen(line);
		colon = memchr(line, ':', (size_t)(eol - line));
		if (colon && !strncmp(line, key, klen) &&
		    strspn(line + klen, " \t") == (size_t)(colon - line - (long)klen)) {
			const char *v = colon + 1;

			while (v < eol && (*v == ' ' || *v == '\t'))
				v++;
			return xstrndup(v, (size_t)(eol - v));
		}
		line = *eol ? eol + 1 : NULL;
	}
	return NULL;
}

static int field_int(const char *cpuinfo, const char *key)
{
	char *s = cpuinfo_field(cpuinfo, key);
	int v = s ? atoi(s) : TD_UNKNOWN;

	free(s);
	return v;
}

/* Whether 'flag' is in the "flags" line of /proc/cpuinfo. */
static int has_cpu_flag(const char *cpuinfo, const char *flag)
{
	char *flags = cpuinfo_field(cpuinfo, "flags");
	char *tok, *save = NULL;
	int found = 0;

	if (!flags)
		return 0;
	for (tok = strtok_r(flags, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, flag))
			found = 1;
	free(flags);
	return found;
}

/* Arm: the MIDR as perf writes it, the implementer as vendor (collect/cpu-arm.c). */
static void detect_arm_identity(struct td_cpu_info *ci)
{
	struct strbuf id = STRBUF_INIT, why = STRBUF_INIT, name = STRBUF_INIT;

	if (td_arm_identify("", &id, &why) == 0) {
		ci->cpuid = strbuf_detach(&id, NULL);
		ci->vendor = xstrdup(td_arm_implementer(ci->cpuid));
		strbuf_addf(&name, "%s CPU %s%s%s", ci->vendor, ci->cpuid, why.len ? "; " : "", why.buf);
		free(ci->name);
		ci->name = strbuf_detach(&name, NULL);
	}
	strbuf_release(&id);
	strbuf_release(&why);
}

static void detect_identity(struct td_cpu_info *ci)
{
	struct strbuf sb = STRBUF_INIT;
	struct strbuf id = STRBUF_INIT;

	if (td_read_file(&sb, "/proc/cpuinfo") < 0)
		return;
	ci->vendor = cpuinfo_field(sb.buf, "vendor_id");
	ci->name = cpuinfo_field(sb.buf, "model name");
	ci->family = field_int(sb.buf, "cpu family");
	ci->model = field_int(sb.buf, "model");
	ci->stepping = field_int(sb.buf, "stepping");
	ci->hypervisor = has_cpu_flag(sb.buf, "hypervisor");
	if (!ci->vendor && strstr(sb.buf, "CPU implementer")) {
		detect_arm_identity(ci);
		strbuf_release(&sb);
		return;
	}
	/* perf's CPUID string: family in decimal, model and stepping in hex */
	if (ci->vendor && ci->family >= 0 && ci->model >= 0) {
		strbuf_addf(&id, "%s-%d-%X", ci->vendor, ci->family, ci->model);
		if (ci->stepping >= 0)
			strbuf_addf(&id, "-%X", ci->stepping);
		ci->cpuid = strbuf_detach(&id, NULL);
	}
	strbuf_release(&sb);
}

static int is_core_pmu(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom") ||
	       td_arm_is_core_pmu(name) || !strncmp(name, "armv7", 5);
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct td_pmu *)a)->name, ((const struct td_pmu *)b)->name);
}

/* Read caps/ of one PMU into a JSON object (NULL when absent). */
static json_t *read_caps(const char *pmu_path)
{
	char *dir = td_path_join(pmu_path, "caps");
	DIR *d = opendir(dir);
	struct dirent *de;
	json_t *caps;

	if (!d) {
		free(dir);
		return NULL;
	}
	caps = json_object();
	while ((de = readdir(d))) {
		char *p, *v;

		if (de->d_name[0] == '.')
			continue;
		p = td_path_join(dir, de->d_name);
		v = read_small(p);
		if (v)
			json_object_set_new(caps, de->d_name, json_string(v));
		free(v);
		free(p);
	}
	closedir(d);
	free(dir);
	return caps;
}

/*
 * An Arm core PMU counts on the CPUs of one cluster (big.LITTLE systems
 * have one per core type): which CPUs, and which core they are.
 */
static void arm_cluster(struct td_pmu *p, const char *pmu_path)
{
	char *cpus_path = td_path_join(pmu_path, "cpus");
	struct strbuf id = STRBUF_INIT;

	p->cpus = read_small(cpus_path);
	if (p->cpus && !td_arm_cluster_cpuid("", p->cpus, &id))
		p->cpuid = strbuf_detach(&id, NULL);
	strbuf_release(&id);
	free(cpus_path);
}

static void detect_pmus(struct td_cpu_info *ci)
{
	DIR *d = opendir(PMU_DIR);
	struct dirent *de;
	size_t alloc = 0;
	int have_core = 0, have_atom = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct td_pmu *p;
		char *path, *tpath;

		if (de->d_name[0] == '.')
			continue;
		TD_GROW(ci->pmus, alloc, ci->nr_pmus + 1);
		p = &ci->pmus[ci->nr_pmus++];
		memset(p, 0, sizeof(*p));
		p->name = xstrdup(de->d_name);
		path = td_path_join(PMU_DIR, de->d_name);
		tpath = td_path_join(path, "type");
		p->type = read_int(tpath, -1);
		p->core = is_core_pmu(p->name);
		p->hybrid = !strcmp(p->name, "cpu_core") || !strcmp(p->name, "cpu_atom");
		if (p->core) {
			ci->core_pmu = 1;
			p->caps = read_caps(path);
		}
		if (td_arm_is_core_pmu(p->name))
			arm_cluster(p, path);
		have_core |= !strcmp(p->name, "cpu_core");
		have_atom |= !strcmp(p->name, "cpu_atom");
		free(tpath);
		free(path);
	}
	closedir(d);
	if (ci->nr_pmus)
		qsort(ci->pmus, ci->nr_pmus, sizeof(*ci->pmus), cmp_pmu);
	ci->hybrid = have_core && have_atom;
}

size_t td_cpu_arm_clusters(const struct td_cpu_info *ci)
{
	size_t i, n = 0;

	for (i = 0; i < ci->nr_pmus; i++)
		n += ci->pmus[i].cpuid != NULL; /* set for Arm core PMUs only */
	return n;
}

const struct td_pmu *td_cpu_find_pmu(const struct td_cpu_info *ci, const char *name)
{
	size_t i;

	for (i = 0; i < ci->nr_pmus; i++)
		if (!strcmp(ci->pmus[i].name, name))
			return &ci->pmus[i];
	return NULL;
}

/*
 * CPUID leaf 0xA (architectural performance monitoring) on Intel: the
 * version, general counters per logical CPU (already halved when SMT
 * shares them) and fixed counters.  A guest without a virtual PMU reads
 * version 0.
 */
static void detect_counters_cpuid(struct td_cpu_info *ci)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int eax, ebx, ecx, edx;

	if (!ci->vendor || strcmp(ci->vendor, "GenuineIntel"))
		return;
	if (!__get_cpuid_count(0xa, 0, &eax, &ebx, &ecx, &edx))
		return;
	ci->arch_perfmon_version = (int)(eax & 0xff);
	if (ci->arch_perfmon_version == 0)
		return;
	ci->gp_counters = (int)((eax >> 8) & 0xff);
	ci->fixed_counters = ci->arch_perfmon_version > 1 ? (int)(edx & 0x1f) : 0;
	ci->counters_source = "cpuid";
#else
	(void)ci;
#endif
}

/* Counters from the table when CPUID did not tell (AMD, hybrid, guests). */
static void counters_from_table(struct td_cpu_info *ci)
{
	const struct td_table_info *ti;

	if (ci->counters_source || !ci->table)
		return;
	ti = td_table_info(ci->table);
	ci->gp_counters = ci->smt == 1 ? ti->gp_counters_smt : ti->gp_counters;
	ci->fixed_counters = ti->fixed_counters;
	ci->counters_source = "table";
}

static void detect_state(struct td_cpu_info *ci)
{
	const char *p;
	int n = 0;

	ci->smt = read_int("/sys/devices/system/cpu/smt/active", TD_UNKNOWN);
	ci->smt_control = read_small("/sys/devices/system/cpu/smt/control");
	ci->nmi_watchdog = read_int("/proc/sys/kernel/nmi_watchdog", TD_UNKNOWN);
	ci->paranoid = read_int("/proc/sys/kernel/perf_event_paranoid", -100);
	ci->root = geteuid() == 0;
	ci->cpus_online = read_small("/sys/devices/system/cpu/online");
	/* count "0-3,8-11" */
	for (p = ci->cpus_online; p && *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += (int)(b - a + 1);
		p = *end == ',' ? end + 1 : end;
		if (*p && *p != ',' && (*p < '0' || *p > '9'))
			break;
	}
	ci->nr_cpus_online = ci->cpus_online ? n : TD_UNKNOWN;
}

/* Run a program with argv and capture its stdout (no shell).  0 on exit 0. */
static int capture_output(const char *const argv[], struct strbuf *out)
{
	int pfd[2], status;
	pid_t pid;
	char buf[4096];
	ssize_t n;

	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (!pid) {
		int devnull = open("/dev/null", O_RDWR);

		dup2(pfd[1], 1);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 2);
		}
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], (char *const *)argv); /* POSIX: execvp does not write argv */
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		strbuf_add(out, buf, (size_t)n);
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

int td_perf_knows_event(const char *event)
{
	struct strbuf out = STRBUF_INIT;
	const char *argv[] = { td_perf_program(), "stat", "-x,", "-o", "/dev/null", "-e", event, "true", NULL };
	int ok = !capture_output(argv, &out);

	strbuf_release(&out);
	return ok;
}

static void detect_perf(struct td_cpu_info *ci)
{
	struct strbuf out = STRBUF_INIT;
	const char *argv[3];
	const char *v;

	ci->perf_path = td_which(td_perf_program());
	if (!ci->perf_path)
		return;
	argv[0] = ci->perf_path;
	argv[1] = "--version";
	argv[2] = NULL;
	if (!capture_output(argv, &out)) {
		strbuf_trim(&out);
		v = strstr(out.buf, "version ");
		v = v ? v + 8 : out.buf;
		if (*v)
			ci->perf_version = xstrndup(v, strcspn(v, " \n"));
	}
	strbuf_release(&out);
}

/*
 * Can we record sched tracepoints?  perf needs the tracefs event
 * directory and, for non-root users, paranoid -1 for raw tracepoint data.
 */
static void detect_tracefs(struct td_cpu_info *ci)
{
	static const char *const mounts[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct strbuf why = STRBUF_INIT;
	size_t i;
	char *id;

	for (i = 0; i < TD_ARRAY_SIZE(mounts) && !ci->tracefs; i++) {
		char *ev = td_path_join(mounts[i], "events");

		if (td_is_dir(ev))
			ci->tracefs = xstrdup(mounts[i]);
		free(ev);
	}
	if (!ci->tracefs) {
		ci->tracepoints_why = xstrdup("tracefs is not mounted (neither /sys/kernel/tracing "
					      "nor /sys/kernel/debug/tracing has events/)");
		return;
	}
	id = td_path_join(ci->tracefs, "events/sched/sched_switch/id");
	if (access(id, R_OK))
		strbuf_addf(&why, "%s is not readable (%s)", id, strerror(errno));
	else if (!ci->root && ci->paranoid > -1)
		strbuf_addstr(&why, "recording tracepoint data needs root, CAP_PERFMON or "
			      "kernel.perf_event_paranoid = -1");
	else
		ci->tracepoints_ok = 1;
	if (why.len)
		ci->tracepoints_why = strbuf_detach(&why, NULL);
	strbuf_release(&why);
	free(id);
}

/*
 * Open 'cycles' for ourselves, user space only (allowed even at paranoid
 * 2).  ENOENT/EOPNOTSUPP: no hardware PMU is exposed (VM, container);
 * EACCES/EPERM: forbidden by paranoid or a security module.
 */
static void detect_cycles(struct td_cpu_info *ci)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0) {
		close((int)fd);
		ci->cycles_ok = 1;
		ci->hardware_pmu = 1;
		return;
	}
	ci->cycles_errno = errno;
	switch (errno) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		ci->cycles_why = xstrdup(ci->hypervisor
			? "this is a virtual machine whose hypervisor exposes no PMU "
			  "(perf_event_open of cycles: not supported)"
			: "no hardware PMU is exposed (perf_event_open of cycles: not supported)");
		break;
	case EACCES:
	case EPERM:
		ci->cycles_why = xstrdup("perf_event_open of cycles is not permitted "
					 "(kernel.perf_event_paranoid or a security policy)");
		break;
	case ENOSYS:
		ci->cycles_why = xstrdup("the kernel has no perf events (CONFIG_PERF_EVENTS off, or "
					 "perf_event_open blocked by seccomp)");
		break;
	default: {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "perf_event_open of cycles failed: %s", strerror(errno));
		ci->cycles_why = strbuf_detach(&sb, NULL);
	}
	}
	/* no access but a core PMU is there: the hardware exists, we may not use it */
	if ((errno == EACCES || errno == EPERM) && ci->core_pmu)
		ci->hardware_pmu = 0;
}

/*
 * A heterogeneous Arm system whose first core type has no table: the
 * first cluster whose core has one becomes the CPU the run is named by
 * (tdperf record counts the others on their own PMUs).
 */
static const struct td_table *arm_table_of_a_cluster(struct td_cpu_info *ci)
{
	struct strbuf ignored = STRBUF_INIT;
	const struct td_table *t = NULL;
	size_t i;

	for (i = 0; i < ci->nr_pmus && !t; i++) {
		const char *id = ci->pmus[i].cpuid;

		if (!id || (ci->cpuid && !strcmp(id, ci->cpuid)))
			continue;
		t = td_table_find(id, &ignored);
		if (t) {
			free(ci->cpuid);
			ci->cpuid = xstrdup(id);
		}
		strbuf_reset(&ignored);
	}
	strbuf_release(&ignored);
	return t;
}

static void detect_table(struct td_cpu_info *ci, const char *cpu_override)
{
	struct strbuf err = STRBUF_INIT;
	const char *key = cpu_override ? cpu_override : ci->cpuid;

	if (!key) {
		ci->table_error = xstrdup("the CPU could not be identified from /proc/cpuinfo");
		return;
	}
	ci->table = td_table_find(key, &err);
	if (!ci->table && !cpu_override)
		ci->table = arm_table_of_a_cluster(ci);
	if (!ci->table)
		ci->table_error = strbuf_detach(&err, NULL);
	strbuf_release(&err);
}

void td_cpu_detect(struct td_cpu_info *ci, const char *cpu_override)
{
	struct utsname u;

	memset(ci, 0, sizeof(*ci));
	ci->family = ci->model = ci->stepping = TD_UNKNOWN;
	ci->arch_perfmon_version = TD_UNKNOWN;
	ci->gp_counters = ci->fixed_counters = TD_UNKNOWN;
	detect_identity(ci);
	detect_pmus(ci);
	detect_state(ci);
	detect_counters_cpuid(ci);
	detect_table(ci, cpu_override);
	counters_from_table(ci);
	detect_perf(ci);
	detect_tracefs(ci);
	detect_cycles(ci);
	if (!uname(&u)) {
		ci->hostname = xstrdup(u.nodename);
		ci->kernel = xstrdup(u.release);
	}
}

void td_cpu_info_release(struct td_cpu_info *ci)
{
	size_t i;

	free(ci->vendor);
	free(ci->name);
	free(ci->cpuid);
	free(ci->table_error);
	for (i = 0; i < ci->nr_pmus; i++) {
		free(ci->pmus[i].name);
		free(ci->pmus[i].cpus);
		free(ci->pmus[i].cpuid);
		if (ci->pmus[i].caps)
			json_decref(ci->pmus[i].caps);
	}
	free(ci->pmus);
	free(ci->smt_control);
	free(ci->cpus_online);
	free(ci->perf_path);
	free(ci->perf_version);
	free(ci->tracefs);
	free(ci->tracepoints_why);
	free(ci->cycles_why);
	free(ci->hostname);
	free(ci->kernel);
	memset(ci, 0, sizeof(*ci));
}
