/*
 * Unit tests for Arm CPU identification (collect/cpu-arm.c) and the
 * table lookup by perf's Arm CPUID: cpuinfo texts and sysfs trees of Arm
 * machines are written into a temporary root, as the functions take the
 * file system root as a parameter (this test runs on any machine).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/cpu.h"
#include "collect/sched.h"
#include "metrics/table.h"
#include "parse/parse.h"

/* The identification block /proc/cpuinfo shows for one CPU of an AWS Graviton2 (Neoverse N1 r3p1). */
static const char graviton2_cpuinfo[] =
	"processor\t: 0\n"
	"BogoMIPS\t: 243.75\n"
	"Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid "
	"asimdrdm lrcpc dcpop asimddp ssbs\n"
	"CPU implementer\t: 0x41\n"
	"CPU architecture: 8\n"
	"CPU variant\t: 0x3\n"
	"CPU part\t: 0xd0c\n"
	"CPU revision\t: 1\n\n";

static char root[256];

static void write_file(const char *rel, const char *text)
{
	char path[512], cmd[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/td-arm-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void cpuinfo_to_midr(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(td_arm_cpuid_from_cpuinfo(graviton2_cpuinfo, &sb), 0);
	assert_string_equal(sb.buf, "0x00000000413fd0c1");
	strbuf_reset(&sb);
	/* an x86 cpuinfo has no implementer */
	assert_int_equal(td_arm_cpuid_from_cpuinfo("vendor_id\t: GenuineIntel\n", &sb), -1);
	strbuf_release(&sb);
}

static void midr_file_forms(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(td_arm_cpuid_from_midr("0x00000000410fd4f1\n", &sb), 0);
	assert_string_equal(sb.buf, "0x00000000410fd4f1");
	strbuf_reset(&sb);
	assert_int_equal(td_arm_cpuid_from_midr("0xc00fac30", &sb), 0);
	assert_string_equal(sb.buf, "0x00000000c00fac30");
	strbuf_reset(&sb);
	assert_int_equal(td_arm_cpuid_from_midr("garbage", &sb), -1);
	assert_int_equal(td_arm_cpuid_from_midr("0x", &sb), -1);
	assert_string_equal(td_arm_implementer("0x00000000c00fac30"), "Ampere");
	assert_string_equal(td_arm_implementer("0x00000000480fd010"), "HiSilicon");
	strbuf_release(&sb);
}

/* sysfs first; cpuinfo when sysfs has no midr_el1; big.LITTLE says so. */
static void identify_from_root(void **state)
{
	struct strbuf id = STRBUF_INIT, why = STRBUF_INIT;
	char **ids = NULL;
	size_t n, i;

	(void)state;
	write_file("proc/cpuinfo", graviton2_cpuinfo);
	assert_int_equal(td_arm_identify(root, &id, &why), 0);
	assert_string_equal(id.buf, "0x00000000413fd0c1");
	assert_int_equal(why.len, 0);

	write_file("sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "0x00000000410fd4f1\n");
	write_file("sys/devices/system/cpu/cpu1/regs/identification/midr_el1", "0x00000000410fd4f1\n");
	strbuf_reset(&id);
	assert_int_equal(td_arm_identify(root, &id, &why), 0);
	assert_string_equal(id.buf, "0x00000000410fd4f1");
	assert_int_equal(why.len, 0);

	/* a phone: Cortex-A55 little cores beside Cortex-A76 big ones */
	write_file("sys/devices/system/cpu/cpu4/regs/identification/midr_el1", "0x00000000411fd050\n");
	n = td_arm_sysfs_cpuids(root, &ids);
	assert_int_equal(n, 2);
	assert_string_equal(ids[0], "0x00000000410fd4f1");
	assert_string_equal(ids[1], "0x00000000411fd050");
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	strbuf_reset(&id);
	assert_int_equal(td_arm_identify(root, &id, &why), 0);
	assert_non_null(strstr(why.buf, "2 core types"));

	/* each cluster's PMU names its CPUs: the core of the first of them */
	strbuf_reset(&id);
	assert_int_equal(td_arm_cluster_cpuid(root, "4-7", &id), 0);
	assert_string_equal(id.buf, "0x00000000411fd050");
	strbuf_reset(&id);
	assert_int_equal(td_arm_cluster_cpuid(root, "0-1,4", &id), 0);
	assert_string_equal(id.buf, "0x00000000410fd4f1");
	assert_int_equal(td_arm_cluster_cpuid(root, "2-3", &id), -1);
	assert_int_equal(td_arm_cluster_cpuid(root, "", &id), -1);
	strbuf_release(&id);
	strbuf_release(&why);
}

/* Every MIDR of the issue finds its table, with any variant and revision. */
static void midr_finds_table(void **state)
{
	static const struct { const char *midr, *table; } cases[] = {
		{ "0x00000000413fd0c1", "neoverse-n1" }, { "0x00000000410fd490", "neoverse-n2" },
		{ "0x00000000410fd4f0", "neoverse-v2" }, { "0x00000000411fd401", "neoverse-v1" },
		{ "0x00000000410fd8e0", "neoverse-n3" }, { "0x00000000410fd830", "neoverse-v3" },
		{ "0x00000000c00fac30", "ampereone" }, { "0x00000000c00fac40", "ampereonex" },
		{ "0x00000000480fd010", "hip08" },
	};
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct td_table *t = td_table_find(cases[i].midr, &err);

		assert_non_null(t);
		assert_string_equal(td_table_info(t)->name, cases[i].table);
	}
	/* an Arm part without a table: an error that names an Arm table */
	assert_null(td_table_find("0x00000000410fd999", &err));
	assert_non_null(strstr(err.buf, "neoverse"));
	strbuf_release(&err);
}

static void arm_pmu_names(void **state)
{
	(void)state;
	assert_true(td_arm_is_core_pmu("armv8_pmuv3_0"));
	assert_true(td_arm_is_core_pmu("armv8_pmuv3"));
	assert_true(td_arm_is_core_pmu("armv8_cortex_a76"));
	assert_true(td_arm_is_core_pmu("armv9_cortex_x2"));
	assert_false(td_arm_is_core_pmu("arm_cmn_0"));
	assert_false(td_arm_is_core_pmu("cpu"));
}

/* A device-tree machine names its PMU armv8_neoverse_v2: the table's events go there. */
static void events_on_this_machines_pmu(void **state)
{
	char v2[] = "armv8_neoverse_v2", sw[] = "software", pmuv3[] = "armv8_pmuv3_0";
	struct td_pmu pmus[2] = { { .name = v2, .core = 1 }, { .name = sw, .core = 0 } };
	struct td_cpu_info ci = { 0 };
	struct td_sched_request req = { .level = 1 };
	struct td_sched_budget b;
	struct td_sched s;
	struct strbuf err = STRBUF_INIT;
	const struct td_table *t = td_table_find("neoverse-v2", &err);
	size_t g, e, n = 0;

	(void)state;
	assert_non_null(t);
	ci.smt = ci.nmi_watchdog = TD_UNKNOWN;
	ci.gp_counters = ci.fixed_counters = TD_UNKNOWN;
	ci.pmus = pmus;
	ci.nr_pmus = 2;
	td_sched_default_budget(t, &ci, &b);
	assert_string_equal(b.pmu_name, "armv8_neoverse_v2");
	assert_int_equal(b.gp, 6);
	assert_int_equal(td_sched_build(t, &req, &b, &s, &err), 0);
	for (g = 0; g < s.nr_groups; g++)
		for (e = 0; e < s.groups[g].nr_events; e++, n++)
			assert_int_equal(strncmp(s.groups[g].events[e].perf_name, "armv8_neoverse_v2/event=0x", 26), 0);
	assert_int_equal(n, 6);
	td_sched_release(&s);
	/* an ACPI server's armv8_pmuv3_0 is the table's own name: nothing renamed */
	pmus[0].name = pmuv3;
	td_sched_default_budget(t, &ci, &b);
	assert_null(b.pmu_name);
	strbuf_release(&err);
}

/*
 * perf.data keeps the recording machine's CPUID (the MIDR on Arm): when
 * the events do not tell the core (raw r-encodings), it names the table.
 */
static void perfdata_cpuid_names_the_table(void **state)
{
	static const char text[] =
		" Performance counter stats for 'true':\n\n"
		"     3,406,548,064      r11\n"
		"     7,961,814,801      r3e\n\n"
		"       0.455229807 seconds time elapsed\n";
	struct strbuf err = STRBUF_INIT;
	struct td_stat_file *f = td_stat_parse(text, sizeof(text) - 1, "t.txt", &err);
	struct td_cpu_guess g;
	const struct td_table *t;

	(void)state;
	assert_non_null(f);
	assert_int_equal(td_stat_infer_cpu(f, &g), 0);
	assert_null(g.table);            /* r11, r3e: no core told */
	td_cpu_guess_release(&g);
	f->sessions[0].cpuid = xstrdup("0x00000000410fd4f1");
	assert_int_equal(td_stat_infer_cpu(f, &g), 0);
	assert_non_null(g.table);
	t = td_table_find(g.table, &err);
	assert_non_null(t);
	assert_string_equal(td_table_info(t)->name, "neoverse-v2");
	td_cpu_guess_release(&g);
	td_stat_file_free(f);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpuinfo_to_midr),
		cmocka_unit_test(midr_file_forms),
		cmocka_unit_test(identify_from_root),
		cmocka_unit_test(midr_finds_table),
		cmocka_unit_test(arm_pmu_names),
		cmocka_unit_test(events_on_this_machines_pmu),
		cmocka_unit_test(perfdata_cpuid_names_the_table),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
