/*
 * tdperf check: what this machine can measure, and for each problem the
 * command that fixes it.
 */
#include "collect/cpu.h"
#include "metrics/table.h"
#include "src/builtin.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const check_usage[] = {
	"tdperf check [--json | --quiet-pmu] [--cpu CPU]",
	"",
	"Tell what this machine can measure: perf and its version, perf_event_paranoid,",
	"whether a hardware PMU is exposed (PMUs under /sys/bus/event_source/devices and a",
	"test open of 'cycles'), counters, NMI watchdog, SMT, hybrid PMUs, and tracefs",
	"access for sched tracepoints.  Each problem comes with the command that fixes it.",
	"",
	"Exit status: 0 when hardware counting works, 1 when it does not (the rest of the",
	"report says what tdperf can still do), 2 on bad usage.",
	NULL,
};

struct problem {
	const char *what;
	char *detail;
	const char *fix;
};

struct check {
	struct problem items[16];
	size_t nr;
};

static void add_problem(struct check *c, const char *what, const char *detail, const char *fix)
{
	if (c->nr >= TD_ARRAY_SIZE(c->items))
		return;
	c->items[c->nr].what = what;
	c->items[c->nr].detail = detail ? xstrdup(detail) : NULL;
	c->items[c->nr].fix = fix;
	c->nr++;
}

/* One "name   value" line, with an optional mark at the start. */
static void line(const char *mark, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line(const char *mark, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("  %-4s %-14s ", mark, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *paranoid_meaning(int p)
{
	if (p <= -1)
		return "everything allowed to every user";
	if (p == 0)
		return "CPU-wide counting allowed, no raw tracepoint data for users";
	if (p == 1)
		return "users may count their own processes and CPU-wide, user and kernel";
	if (p == 2)
		return "users may count their own processes, user space only";
	return "perf forbidden to users (Debian's level 3)";
}

static void print_identity(const struct td_cpu_info *ci)
{
	const struct td_table_info *ti = ci->table ? td_table_info(ci->table) : NULL;

	line("", "CPU", "%s", ci->name ? ci->name : "unknown");
	line("", "CPUID", "%s (family %d, model %d = 0x%X, stepping %d)%s",
	     ci->cpuid ? ci->cpuid : "unknown", ci->family, ci->model,
	     ci->model < 0 ? 0 : (unsigned)ci->model, ci->stepping,
	     ci->hypervisor ? ", virtual machine" : "");
	if (ti)
		line("ok", "table", "%s (%s)", ti->name, ti->display ? ti->display : "");
	else
		line("--", "table", "none: %s", ci->table_error ? ci->table_error : "unknown CPU");
	line("", "host", "%s, kernel %s", ci->hostname ? ci->hostname : "?",
	     ci->kernel ? ci->kernel : "?");
}

static void check_perf(const struct td_cpu_info *ci, struct check *c)
{
	if (!ci->perf_path) {
		line("NO", "perf", "'%s' not found in PATH", td_perf_program());
		add_problem(c, "perf is not installed", NULL,
			    "sudo apt-get install linux-perf   (or set TDPERF_PERF=/path/to/perf)");
		return;
	}
	if (!ci->perf_version) {
		/* TDPERF_PERF=/bin/false is found, but is no perf */
		line("NO", "perf", "%s does not run as perf ('%s --version' failed)", ci->perf_path,
		     ci->perf_path);
		add_problem(c, "the perf program does not run", NULL,
			    "sudo apt-get install linux-perf   (or set TDPERF_PERF=/path/to/perf)");
		return;
	}
	line("ok", "perf", "%s, version %s", ci->perf_path, ci->perf_version);
}

static void check_paranoid(const struct td_cpu_info *ci, struct check *c)
{
	if (ci->paranoid == -100) {
		line("--", "paranoid", "unknown (/proc/sys/kernel/perf_event_paranoid unreadable)");
		return;
	}
	if (ci->root) {
		line("ok", "paranoid", "%d (%s); running as root, so no limit applies",
		     ci->paranoid, paranoid_meaning(ci->paranoid));
		return;
	}
	line(ci->paranoid > 1 ? "!!" : "ok", "paranoid", "%d: %s", ci->paranoid,
	     paranoid_meaning(ci->paranoid));
	if (ci->paranoid > 1)
		add_problem(c, "perf_event_paranoid keeps -a/-C and kernel counts from users", NULL,
			    "sudo sysctl -w kernel.perf_event_paranoid=1   (or run tdperf as root)");
}

/* big.LITTLE Arm: one line per cluster; 0 when the machine has fewer than two. */
static int check_arm_clusters(const struct td_cpu_info *ci)
{
	size_t i, n = td_cpu_arm_clusters(ci);

	if (n < 2)
		return 0;
	line("", "hybrid", "yes: %zu Arm clusters, each with a core PMU of its own", n);
	for (i = 0; i < ci->nr_pmus; i++) {
		const struct td_pmu *p = &ci->pmus[i];
		struct strbuf err = STRBUF_INIT;
		const struct td_table *t;

		if (!p->cpuid)
			continue;
		t = td_table_find(p->cpuid, &err);
		line("", "cluster", "%s: CPUs %s, MIDR %s, %s%s", p->name, p->cpus ? p->cpus : "?",
		     p->cpuid, t ? "table " : "no table for this core: tdperf record does not count it",
		     t ? td_table_info(t)->name : "");
		strbuf_release(&err);
	}
	return 1;
}

static void check_pmus(const struct td_cpu_info *ci, struct check *c)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < ci->nr_pmus; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", ci->pmus[i].name);
	line(ci->core_pmu ? "ok" : "NO", "PMUs", "%s%s", sb.len ? sb.buf : "none",
	     ci->core_pmu ? "" : "  (no core PMU: no cpu, cpu_core or cpu_atom)");
	strbuf_release(&sb);
	if (ci->cycles_ok) {
		line("ok", "cycles", "a hardware cycles counter opens");
	} else {
		line("NO", "cycles", "%s", ci->cycles_why ? ci->cycles_why : "cannot be opened");
		if (ci->cycles_errno == EACCES || ci->cycles_errno == EPERM)
			add_problem(c, "hardware counters are not permitted", ci->cycles_why,
				    "sudo sysctl -w kernel.perf_event_paranoid=1   (or run as root / "
				    "grant CAP_PERFMON)");
		else if (ci->hypervisor)
			add_problem(c, "no hardware PMU is exposed to this virtual machine", ci->cycles_why,
				    "give the guest a virtual PMU: QEMU/KVM '-cpu host,pmu=on', libvirt "
				    "'<pmu state=\"on\"/>' in <features>, VMware 'vPMC', or a cloud "
				    "instance type that exposes the PMU (bare metal / full socket)");
		else
			add_problem(c, "no hardware PMU is exposed", ci->cycles_why,
				    "run on a host whose kernel has a PMU driver for this CPU (check "
				    "'dmesg | grep -i perf'); in a container, allow perf_event_open "
				    "(e.g. docker --cap-add PERFMON or --privileged)");
	}
	if (ci->hybrid)
		line("", "hybrid", "yes: cpu_core and cpu_atom are scheduled apart");
	else if (!check_arm_clusters(ci))
		line("", "hybrid", "no");
}

static void check_counters(const struct td_cpu_info *ci, struct check *c)
{
	if (ci->arch_perfmon_version == 0 && ci->gp_counters != TD_UNKNOWN)
		line("--", "counters", "none exposed: CPUID leaf 0xA reports no architectural PMU "
		     "(the %s table says the hardware has %d general + %d fixed)",
		     td_table_info(ci->table)->name, ci->gp_counters, ci->fixed_counters);
	else if (ci->gp_counters != TD_UNKNOWN)
		line("", "counters", "%d general + %d fixed per logical CPU (from %s)",
		     ci->gp_counters, ci->fixed_counters, ci->counters_source);
	else if (ci->arch_perfmon_version == 0)
		line("--", "counters", "none: CPUID leaf 0xA reports no architectural PMU");
	else
		line("--", "counters", "unknown");

	if (ci->nmi_watchdog == TD_UNKNOWN) {
		line("", "NMI watchdog", "unknown");
	} else if (ci->nmi_watchdog && ci->hardware_pmu) {
		line("!!", "NMI watchdog", "on: it holds one counter, Top-Down groups get one less");
		add_problem(c, "the NMI watchdog takes a hardware counter", NULL,
			    "sudo sysctl -w kernel.nmi_watchdog=0");
	} else {
		line("ok", "NMI watchdog", "%s", ci->nmi_watchdog ? "on (no hardware PMU to take)" : "off");
	}
	if (ci->smt == TD_UNKNOWN)
		line("", "SMT", "unknown (/sys/devices/system/cpu/smt/active unreadable)");
	else
		line("", "SMT", "%s%s%s%s", ci->smt ? "on" : "off",
		     ci->smt_control ? " (control: " : "", ci->smt_control ? ci->smt_control : "",
		     ci->smt_control ? ")" : "");
	line("", "CPUs online", "%s (%d)", ci->cpus_online ? ci->cpus_online : "?", ci->nr_cpus_online);
}

static void check_tracefs(const struct td_cpu_info *ci, struct check *c)
{
	if (ci->tracepoints_ok) {
		line("ok", "tracefs", "%s: sched tracepoints can be recorded", ci->tracefs);
		return;
	}
	line("NO", "tracefs", "%s", ci->tracepoints_why);
	if (!ci->tracefs)
		add_problem(c, "tracefs is not mounted (per-thread run/wait times need sched tracepoints)",
			    NULL, "sudo mount -t tracefs nodev /sys/kernel/tracing");
	else
		add_problem(c, "sched tracepoints cannot be recorded by this user", ci->tracepoints_why,
			    "sudo sysctl -w kernel.perf_event_paranoid=-1 && "
			    "sudo chmod -R go+rX /sys/kernel/tracing   (or run as root)");
}

static void print_verdict(const struct td_cpu_info *ci, const struct check *c)
{
	size_t i;

	putchar('\n');
	if (ci->hardware_pmu && ci->perf_path) {
		printf("Hardware counting works: tdperf record measures Top-Down%s.\n",
		       ci->table ? "" : " once a table is chosen with --cpu (none matches this CPU)");
	} else {
		printf("No hardware PMU is usable here: Top-Down, CPI/FLOPS stacks, frontend and\n"
		       "roofline analyses need hardware counters and are impossible on this machine.\n");
		printf("\nWhat tdperf can still do here:\n");
		if (ci->perf_path)
			printf("  - tdperf record ./app: software counts (task-clock, context switches,\n"
			       "    CPU migrations, page faults)%s\n",
			       ci->tracepoints_ok ? " and per-thread run/wait time from sched tracepoints"
						  : "");
		printf("  - tdperf import / report / diff / explain on perf outputs recorded elsewhere\n"
		       "    (perf stat text, CSV or JSON, perf.data), e.g. tests/fixtures/perf-stat-published\n");
		printf("  - tdperf record --dry-run --cpu NAME ...: the event groups and perf command\n"
		       "    lines for any CPU with a table (tdperf list shows them)\n");
	}
	if (!c->nr) {
		printf("\nNo problems found.\n");
		return;
	}
	printf("\nProblems and how to fix them:\n");
	for (i = 0; i < c->nr; i++) {
		printf("  %zu. %s\n", i + 1, c->items[i].what);
		printf("     fix: %s\n", c->items[i].fix);
	}
}

int cmd_check(int argc, char **argv)
{
	struct td_cpu_info ci;
	struct check c = { .nr = 0 };
	const char *cpu = NULL;
	int as_json = 0, quiet = 0, ret;
	size_t i;
	const struct td_option options[] = {
		TD_OPT_BOOL(0, "json", &as_json, "print what was detected as one JSON object"),
		TD_OPT_BOOL(0, "quiet-pmu", &quiet,
			    "print nothing; only the exit status tells whether hardware counting works "
			    "(for scripts)"),
		TD_OPT_STRING(0, "cpu", &cpu, "CPU", "look up the formula table for CPU (name or CPUID string)"),
		TD_OPT_END(),
	};

	argc = td_parse_options(argc, argv, options, check_usage, 0);
	if (argc > 0)
		return td_usage_error(check_usage, "unexpected argument '%s'", argv[0]);

	td_cpu_detect(&ci, cpu);
	ret = ci.hardware_pmu && ci.perf_path ? 0 : 1;
	if (quiet) {
		td_cpu_info_release(&ci);
		return ret;
	}
	if (as_json) {
		json_t *o = td_cpu_info_json(&ci);

		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(o);
		td_cpu_info_release(&ci);
		return ret;
	}
	printf("tdperf check: what this machine can measure\n\n");
	print_identity(&ci);
	check_perf(&ci, &c);
	check_paranoid(&ci, &c);
	check_pmus(&ci, &c);
	check_counters(&ci, &c);
	check_tracefs(&ci, &c);
	print_verdict(&ci, &c);
	for (i = 0; i < c.nr; i++)
		free(c.items[i].detail);
	td_cpu_info_release(&ci);
	return ret;
}
