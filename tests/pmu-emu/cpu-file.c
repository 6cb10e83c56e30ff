/*
 * Reading a CPU description file (tests/pmu-emu/cpus/NAME.cpu) and the
 * facts the emulated PMU asks of it: which counters an event may use,
 * whether it is a fixed or a topdown metric event, and the model's rate.
 * The launcher reads the same file for the sysfs tree and /proc/cpuinfo.
 */
#include "emu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Set the bits "config:0-7,32-35" names in the mask of that config word. */
static int add_format_bits(struct emu_pmu *pmu, const char *spec)
{
	uint64_t *mask;
	const char *p;

	if (!strncmp(spec, "config:", 7))
		mask = &pmu->config_mask;
	else if (!strncmp(spec, "config1:", 8))
		mask = &pmu->config1_mask;
	else if (!strncmp(spec, "config2:", 8))
		mask = &pmu->config2_mask;
	else
		return -1;
	p = strchr(spec, ':') + 1;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0 || lo > 63)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			return -1;
		for (; lo <= hi; lo++)
			*mask |= 1ULL << lo;
		if (*end != ',' && *end)
			return -1;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int grow(void **v, int n, size_t size)
{
	void *p = realloc(*v, (size_t)(n + 1) * size);

	if (!p)
		return -1;
	*v = p;
	return 0;
}

/* One "KEYWORD ARGS..." line inside a "pmu" block. */
static int pmu_line(struct emu_pmu *pmu, const char *kw, char *args)
{
	char a[128] = "", b[128] = "", c[128] = "";
	int n = sscanf(args, "%127s %127s %127s", a, b, c);

	if (!strcmp(kw, "format"))
		return n == 2 ? add_format_bits(pmu, b) : -1;
	if (!strcmp(kw, "event") || !strcmp(kw, "caps") || !strcmp(kw, "file"))
		return 0;  /* sysfs only: the launcher writes them */
	if (!strcmp(kw, "hw")) {
		int id = atoi(a);

		if (n != 2 || id < 0 || id >= PERF_COUNT_HW_MAX)
			return -1;
		pmu->hw_config[id] = strtoull(b, NULL, 0);
		pmu->hw_ok[id] = 1;
		return 0;
	}
	if (!strcmp(kw, "fixed")) {
		struct emu_fixed *f;

		if (n < 2 || pmu->nr_fixeds == EMU_MAX_FIXED)
			return -1;
		f = &pmu->fixeds[pmu->nr_fixeds++];
		f->config = strtoull(a, NULL, 0);
		f->index = atoi(b);
		f->also_gp = n == 3 && !strcmp(c, "gp");
		return 0;
	}
	if (!strcmp(kw, "slots")) {
		pmu->slots_config = strtoull(a, NULL, 0);
		pmu->has_slots = 1;
		return n == 1 ? 0 : -1;
	}
	if (!strcmp(kw, "metric") || !strcmp(kw, "rate")) {
		struct emu_rate **v = !strcmp(kw, "metric") ? &pmu->metrics : &pmu->rates;
		int *nr = !strcmp(kw, "metric") ? &pmu->nr_metrics : &pmu->nr_rates;
		char *end;
		double r;

		if (n != 2)
			return -1;
		r = strtod(b, &end);
		if (*end || r < 0 || grow((void **)v, *nr, sizeof(**v)))
			return -1;
		(*v)[*nr].config = strtoull(a, NULL, 0);
		(*v)[(*nr)++].per_cycle = r;
		return 0;
	}
	if (!strcmp(kw, "default_rates")) {
		char *end1, *end2;

		pmu->rate_lo = strtod(a, &end1);
		pmu->rate_hi = strtod(b, &end2);
		return n == 2 && !*end1 && !*end2 && pmu->rate_lo > 0 &&
		       pmu->rate_hi > pmu->rate_lo ? 0 : -1;
	}
	if (!strcmp(kw, "constraint")) {
		if (n != 2 || grow((void **)&pmu->cons, pmu->nr_cons, sizeof(*pmu->cons)))
			return -1;
		pmu->cons[pmu->nr_cons].key = strtoull(a, NULL, 0);
		pmu->cons[pmu->nr_cons++].counters = strtoull(b, NULL, 0);
		return 0;
	}
	return -1;
}

/* The "pmu NAME type=N gp=N [gp_nosmt=N] fixed=N [fixed_ignore=M] mux_ms=N key_mask=M cpus=LIST" line. */
static int pmu_header(struct emu_cpu *cpu, char *args)
{
	struct emu_pmu *pmu;
	char *tok, *save = NULL;

	if (cpu->nr_pmus == EMU_MAX_PMUS)
		return -1;
	pmu = &cpu->pmus[cpu->nr_pmus++];
	memset(pmu, 0, sizeof(*pmu));
	pmu->mux_ms = 4;
	pmu->key_mask = 0xffff;
	tok = strtok_r(args, " \t", &save);
	if (!tok || strlen(tok) >= sizeof(pmu->name))
		return -1;
	strcpy(pmu->name, tok);
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (!strncmp(tok, "type=", 5))
			pmu->type = (uint32_t)strtoul(tok + 5, NULL, 0);
		else if (!strncmp(tok, "gp=", 3))
			pmu->gp = atoi(tok + 3);
		else if (!strncmp(tok, "gp_nosmt=", 9))
			pmu->gp_nosmt = atoi(tok + 9);
		else if (!strncmp(tok, "fixed=", 6))
			pmu->fixed = atoi(tok + 6);
		else if (!strncmp(tok, "mux_ms=", 7))
			pmu->mux_ms = atoi(tok + 7);
		else if (!strncmp(tok, "fixed_ignore=", 13))
			pmu->fixed_ignore = strtoull(tok + 13, NULL, 0);
		else if (!strncmp(tok, "key_mask=", 9))
			pmu->key_mask = strtoull(tok + 9, NULL, 0);
		else if (!strncmp(tok, "cpus=", 5) && strlen(tok + 5) < sizeof(pmu->cpus))
			strcpy(pmu->cpus, tok + 5);
		else
			return -1;
	}
	return pmu->type && pmu->gp > 0 && pmu->gp <= 32 && pmu->fixed <= EMU_MAX_FIXED &&
	       pmu->mux_ms > 0 ? 0 : -1;
}

/*
 * One line of the file.  Lines indented by whitespace belong to the last
 * "pmu" block; the identity lines (vendor_id, model_name, flags, ...) are
 * the launcher's and ignored here.
 */
static int cpu_line(struct emu_cpu *cpu, char *line)
{
	int indented = line[0] == ' ' || line[0] == '\t';
	char *kw = line + strspn(line, " \t"), *args;

	args = kw + strcspn(kw, " \t");
	if (*args)
		*args++ = '\0';
	args += strspn(args, " \t");
	if (indented)
		return cpu->nr_pmus ? pmu_line(&cpu->pmus[cpu->nr_pmus - 1], kw, args) : -1;
	if (!strcmp(kw, "pmu"))
		return pmu_header(cpu, args);
	if (!strcmp(kw, "cpu"))
		return snprintf(cpu->name, sizeof(cpu->name), "%s", args) < (int)sizeof(cpu->name) ? 0 : -1;
	if (!strcmp(kw, "ghz"))
		return (cpu->ghz = atof(args)) > 0 ? 0 : -1;
	if (!strcmp(kw, "nmi_watchdog"))
		return (cpu->nmi_watchdog = atoi(args)), 0;
	return 0;
}

/* Load the description at 'path'; -1 with a message naming the line on error. */
int emu_cpu_load(struct emu_cpu *cpu, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int lineno = 0;

	memset(cpu, 0, sizeof(*cpu));
	cpu->ghz = 2.0;
	if (!f) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[strspn(line, " \t")] == '#' || !line[strspn(line, " \t")])
			continue;
		if (cpu_line(cpu, line) < 0) {
			snprintf(err, errlen, "%s:%d: malformed line", path, lineno);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!cpu->nr_pmus) {
		snprintf(err, errlen, "%s: no pmu", path);
		return -1;
	}
	return 0;
}

struct emu_pmu *emu_cpu_pmu_by_type(struct emu_cpu *cpu, uint32_t type)
{
	int i;

	for (i = 0; i < cpu->nr_pmus; i++)
		if (cpu->pmus[i].type == type)
			return &cpu->pmus[i];
	return NULL;
}

/*
 * Events per core cycle the model gives an event: the file's "rate" for
 * its exact config, else a fixed pseudo-random share in [0.002, 0.6)
 * (or the PMU's "default_rates LO HI") derived from the encoding
 * (FNV-1a), so every event has its own count and a test can tell two
 * events apart.  A narrow, low range keeps the Top-Down fractions of
 * events without a rate line small parts of their parents.
 */
double emu_pmu_rate(const struct emu_pmu *pmu, uint64_t config, uint64_t config1)
{
	uint64_t h = 1469598103934665603ULL, words[2] = { config, config1 };
	const unsigned char *b = (const unsigned char *)words;
	size_t i;
	int k;

	for (k = 0; k < pmu->nr_rates; k++)
		if (pmu->rates[k].config == config)
			return pmu->rates[k].per_cycle;
	for (i = 0; i < sizeof(words); i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	if (pmu->rate_hi > 0)
		return pmu->rate_lo + (pmu->rate_hi - pmu->rate_lo) * (double)(h >> 11) /
		       (double)(1ULL << 53);
	return 0.002 + 0.598 * (double)(h >> 11) / (double)(1ULL << 53);
}

/*
 * The counters an event may use: bit n is general counter n, bit 32+n
 * fixed counter n.  A fixed-counter encoding (exact config, no cmask,
 * edge or invert) gets its fixed counter, plus the general ones when the
 * kernel allows that (bits in fixed_ignore, like AnyThread, which the
 * fixed counters support too, do not matter); others get the perfmon "Counter" constraint of their
 * event select and umask, or every general counter.
 */
uint64_t emu_pmu_counters(const struct emu_pmu *pmu, uint64_t config)
{
	uint64_t all_gp = (1ULL << pmu->gp) - 1;
	int i;

	for (i = 0; i < pmu->nr_fixeds; i++)
		if (pmu->fixeds[i].config == (config & ~pmu->fixed_ignore))
			return (1ULL << (EMU_FIXED_BIT + pmu->fixeds[i].index)) |
			       (pmu->fixeds[i].also_gp ? all_gp : 0);
	for (i = 0; i < pmu->nr_cons; i++)
		if (pmu->cons[i].key == (config & pmu->key_mask))
			return pmu->cons[i].counters & all_gp;
	return all_gp;
}

/* Whether 'config' is a topdown metric event (PERF_METRICS); its share of slots. */
int emu_pmu_metric(const struct emu_pmu *pmu, uint64_t config, double *share)
{
	int i;

	for (i = 0; i < pmu->nr_metrics; i++)
		if (pmu->metrics[i].config == config) {
			*share = pmu->metrics[i].per_cycle;
			return 1;
		}
	return 0;
}
