/*
 * Which Arm core is this?  perf names an Arm CPU by its Main ID Register
 * (MIDR_EL1) written as "0x%016lx" ("0x00000000413fd0c1"), the string its
 * mapfile.csv and perf.data's CPUID feature use.  The kernel exposes the
 * register per CPU in sysfs (regs/identification/midr_el1); /proc/cpuinfo
 * has the same fields decoded ("CPU implementer", "CPU variant", "CPU
 * part", "CPU revision").  A big.LITTLE system has several MIDRs, one per
 * core type, and one PMU per cluster (armv8_cortex_a55, armv8_cortex_a76);
 * a server has one, and one PMU (armv8_pmuv3_0).
 *
 * Every reader takes the file system root as a parameter so the tests
 * can give a cpuinfo text and a sysfs tree from another machine.
 */
#include "collect/cpu.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Value after "key<spaces/tabs>:" on the first line that has it, or NULL. */
static char *arm_field(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);

		if (n > klen && !strncmp(line, key, klen)) {
			const char *p = line + klen;

			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == ':') {
				p++;
				while (*p == ' ' || *p == '\t')
					p++;
				return xstrndup(p, n - (size_t)(p - line));
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return NULL;
}

/* A cpuinfo number ("0x41", "1"); -1 when absent or not a number. */
static long arm_number(const char *text, const char *key)
{
	char *v = arm_field(text, key), *end;
	long n;

	if (!v)
		return -1;
	n = strtol(v, &end, 0);
	if (end == v || n < 0)
		n = -1;
	free(v);
	return n;
}

int td_arm_cpuid_from_cpuinfo(const char *cpuinfo, struct strbuf *out)
{
	long impl = arm_number(cpuinfo, "CPU implementer");
	long variant = arm_number(cpuinfo, "CPU variant");
	long part = arm_number(cpuinfo, "CPU part");
	long rev = arm_number(cpuinfo, "CPU revision");
	unsigned long midr;

	if (impl < 0 || part < 0 || impl > 0xff || part > 0xfff)
		return -1;
	if (variant < 0 || variant > 0xf)
		variant = 0;
	if (rev < 0 || rev > 0xf)
		rev = 0;
	/* architecture field [19:16] is 0xf: "defined by CPUID scheme" on every Armv8 core */
	midr = (unsigned long)impl << 24 | (unsigned long)variant << 20 | 0xful << 16 |
	       (unsigned long)part << 4 | (unsigned long)rev;
	strbuf_addf(out, "0x%016lx", midr);
	return 0;
}

int td_arm_cpuid_from_midr(const char *text, struct strbuf *out)
{
	char *end;
	unsigned long long v;

	while (*text == ' ' || *text == '\t')
		text++;
	if (strncasecmp(text, "0x", 2))
		return -1;
	v = strtoull(text, &end, 16);
	while (*end == ' ' || *end == '\n' || *end == '\t')
		end++;
	if (*end || end == text + 2 || v > 0xffffffffULL)
		return -1;
	strbuf_addf(out, "0x%016llx", v);
	return 0;
}

const char *td_arm_implementer(const char *cpuid)
{
	static const struct { const char *code, *name; } names[] = {
		{ "41", "ARM" }, { "42", "Broadcom" }, { "43", "Cavium" }, { "46", "Fujitsu" },
		{ "48", "HiSilicon" }, { "4e", "NVIDIA" }, { "51", "Qualcomm" }, { "61", "Apple" },
		{ "c0", "Ampere" }, { "6d", "Microsoft" },
	};
	size_t i;

	if (!cpuid || strlen(cpuid) != 18)
		return NULL;
	for (i = 0; i < TD_ARRAY_SIZE(names); i++)
		if (!strncasecmp(cpuid + 10, names[i].code, 2))
			return names[i].name;
	return "unknown implementer";
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The distinct MIDRs of <root>/sys/devices/system/cpu/cpu<N>/regs/
 * identification/midr_el1, sorted; their number (0 when sysfs has none).
 */
size_t td_arm_sysfs_cpuids(const char *root, char ***out)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT, id = STRBUF_INIT;
	char **ids = NULL;
	size_t n = 0, alloc = 0, i;
	struct dirent *de;
	DIR *d;

	strbuf_addf(&dir, "%s/sys/devices/system/cpu", root);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		int dup = 0;

		if (strncmp(de->d_name, "cpu", 3) || !isdigit((unsigned char)de->d_name[3]))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/regs/identification/midr_el1", dir.buf, de->d_name);
		strbuf_reset(&text);
		strbuf_reset(&id);
		if (td_read_file(&text, path.buf) < 0 || td_arm_cpuid_from_midr(text.buf, &id))
			continue;
		for (i = 0; i < n; i++)
			dup |= !strcmp(ids[i], id.buf);
		if (!dup) {
			TD_GROW(ids, alloc, n + 1);
			ids[n++] = strbuf_detach(&id, NULL);
		}
	}
	if (d)
		closedir(d);
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_cstr);
	*out = ids;
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&id);
	return n;
}

int td_arm_identify(const char *root, struct strbuf *cpuid, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char **ids = NULL;
	size_t n = td_arm_sysfs_cpuids(root, &ids), i;
	int rc = -1;

	if (n) {
		/*
		 * big.LITTLE: the first (lowest) MIDR names the CPU; each
		 * cluster has a core PMU of its own, which tdperf record counts
		 * with its core's table.
		 */
		strbuf_addstr(cpuid, ids[0]);
		if (n > 1) {
			strbuf_addf(why, "%zu core types (MIDRs", n);
			for (i = 0; i < n; i++)
				strbuf_addf(why, " %s", ids[i]);
			strbuf_addstr(why, "): a heterogeneous Arm system, one core PMU per cluster");
		}
		rc = 0;
	} else {
		strbuf_addf(&path, "%s/proc/cpuinfo", root);
		if (td_read_file(&text, path.buf) >= 0 && !td_arm_cpuid_from_cpuinfo(text.buf, cpuid))
			rc = 0;
	}
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

int td_arm_cluster_cpuid(const char *root, const char *cpus, struct strbuf *cpuid)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *p = cpus;
	int rc = -1;

	while (p && *p == ' ')
		p++;
	/* the first CPU of the list: every CPU of a cluster is the same core */
	if (p && *p >= '0' && *p <= '9') {
		strbuf_addf(&path, "%s/sys/devices/system/cpu/cpu%ld/regs/identification/midr_el1",
			    root, strtol(p, NULL, 10));
		if (td_read_file(&text, path.buf) >= 0 && !td_arm_cpuid_from_midr(text.buf, cpuid))
			rc = 0;
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

