/*
 * record --regions: the spec of the marker library (collect/regions.h).
 */
#include "collect/regions.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#define SYSFS_PMUS "/sys/bus/event_source/devices"

struct attr4 {
	unsigned long type;
	uint64_t config[3];      /* config, config1, config2 */
};

/* perf's generic names (PERF_TYPE_HARDWARE), as perf's parser spells them */
static const struct { const char *name; unsigned long config; } generic[] = {
	{ "cycles", PERF_COUNT_HW_CPU_CYCLES }, { "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
};

static int read_trimmed(struct strbuf *sb, const char *path)
{
	strbuf_reset(sb);
	if (td_read_file(sb, path) < 0)
		return -1;
	strbuf_trim(sb);
	return 0;
}

/*
 * Put value v into the bits a format file names ("config:0-7",
 * "config1:0-15", "config:0-7,32-35": the value's low bits fill the
 * ranges in order), as the kernel documents sysfs-bus-event_source-devices-format.
 */
static int apply_format(const char *format, uint64_t v, struct attr4 *a, struct strbuf *err)
{
	const char *colon = strchr(format, ':'), *p;
	int which;

	if (!colon)
		return strbuf_addf(err, "format '%s' has no field", format), -1;
	if (!strncmp(format, "config:", 7))
		which = 0;
	else if (!strncmp(format, "config1:", 8))
		which = 1;
	else if (!strncmp(format, "config2:", 8))
		which = 2;
	else
		return strbuf_addf(err, "format '%s': unknown field", format), -1;
	for (p = colon + 1; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		int bits;

		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (lo < 0 || hi < lo || hi > 63)
			return strbuf_addf(err, "format '%s': bad bit range", format), -1;
		bits = (int)(hi - lo + 1);
		a->config[which] |= (bits == 64 ? v : v & ((UINT64_C(1) << bits) - 1)) << lo;
		v = bits == 64 ? 0 : v >> bits;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return strbuf_addf(err, "format '%s': bad bit range", format), -1;
	}
	if (v)
		return strbuf_addf(err, "value too wide for format '%s'", format), -1;
	return 0;
}

static int apply_terms(const char *sysfs, const char *pmu, const char *terms, struct attr4 *a,
		       int depth, struct strbuf *err);

/* One term of a PMU spelling: "event=0x3c", "any=1", "any", or an events/ alias. */
static int apply_term(const char *sysfs, const char *pmu, const char *term, struct attr4 *a,
		      int depth, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	const char *eq = strchr(term, '=');
	char *key = eq ? xstrndup(term, (size_t)(eq - term)) : xstrdup(term);
	int ret = -1;

	if (!strcmp(key, "name")) {
		ret = 0;
		goto out;
	}
	strbuf_addf(&path, "%s/%s/format/%s", sysfs, pmu, key);
	if (!read_trimmed(&sb, path.buf)) {
		char *end;
		uint64_t v = eq ? strtoull(eq + 1, &end, 0) : 1;

		if (eq && *end)
			strbuf_addf(err, "%s/%s: '%s' is not a number", pmu, key, eq + 1);
		else
			ret = apply_format(sb.buf, v, a, err);
		goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/events/%s", sysfs, pmu, key);
	if (!eq && depth < 2 && !read_trimmed(&sb, path.buf)) {
		ret = apply_terms(sysfs, pmu, sb.buf, a, depth + 1, err);
		goto out;
	}
	strbuf_addf(err, "%s has no format or event '%s' in %s", pmu, key, sysfs);
out:
	free(key);
	strbuf_release(&path);
	strbuf_release(&sb);
	return ret;
}

/* Comma-separated terms; a quoted value (name='a,b') is one term. */
static int apply_terms(const char *sysfs, const char *pmu, const char *terms, struct attr4 *a,
		       int depth, struct strbuf *err)
{
	struct strbuf term = STRBUF_INIT;
	const char *p;
	int quoted = 0, ret = 0;

	for (p = terms; ret == 0; p++) {
		if (*p == '\'') {
			quoted = !quoted;
			continue;
		}
		if (*p && (quoted || *p != ',')) {
			strbuf_addch(&term, *p);
			continue;
		}
		if (term.len)
			ret = apply_term(sysfs, pmu, term.buf, a, depth, err);
		strbuf_reset(&term);
		if (!*p)
			break;
	}
	strbuf_release(&term);
	return ret;
}

int td_regions_resolve(const char *sysfs, const char *perf_name, struct strbuf *out,
		       struct strbuf *err)
{
	const char *slash = strchr(perf_name, '/');
	struct attr4 a = { 0, { 0, 0, 0 } };
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	size_t i;
	int ret = -1;

	if (!slash) {
		for (i = 0; i < TD_ARRAY_SIZE(generic); i++)
			if (!strcmp(perf_name, generic[i].name)) {
				strbuf_addf(out, "%d %lu 0 0", PERF_TYPE_HARDWARE, generic[i].config);
				return 0;
			}
		return strbuf_addf(err, "'%s': not a PMU event spelling this tdperf can open "
				   "without perf", perf_name), -1;
	}
	{
		char *pmu = xstrndup(perf_name, (size_t)(slash - perf_name));
		const char *close = strrchr(perf_name, '/');
		char *terms = xstrndup(slash + 1, (size_t)(close - slash - 1));
		char *end;

		strbuf_addf(&path, "%s/%s/type", sysfs, pmu);
		if (close == slash || close[1])
			strbuf_addf(err, "'%s': modifiers after the PMU's terms are not supported",
				    perf_name);
		else if (read_trimmed(&sb, path.buf) < 0)
			strbuf_addf(err, "%s: %s", path.buf, strerror(errno));
		else if ((a.type = strtoul(sb.buf, &end, 10)), *end)
			strbuf_addf(err, "%s: not a number", path.buf);
		else if (!apply_terms(sysfs, pmu, terms, &a, 0, err)) {
			strbuf_addf(out, "%lu %#" PRIx64 " %#" PRIx64 " %#" PRIx64, a.type,
				    a.config[0], a.config[1], a.config[2]);
			ret = 0;
		}
		if (ret < 0 && err->len && !strstr(err->buf, perf_name)) {
			char *why = strbuf_detach(err, NULL);

			strbuf_addf(err, "'%s': %s", perf_name, why);
			free(why);
		}
		free(pmu);
		free(terms);
	}
	strbuf_release(&path);
	strbuf_release(&sb);
	return ret;
}

int td_regions_spec_write(const struct td_plan *p, const char *path, unsigned long sample,
			  struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *sysfs = getenv("TDPERF_SYSFS_PMUS") ? getenv("TDPERF_SYSFS_PMUS") : SYSFS_PMUS;
	size_t g, e;
	int ret = -1;

	/* the timeline (report --format trace) keeps each thread's first passes: bounded memory */
	strbuf_addf(&sb, "tdperf-regions-spec 1\nsample %lu\ninstances %d\n", sample,
		    TD_REGION_INSTANCES);
	/* always counted: what a region costs in CPU time, switches and faults */
	strbuf_addf(&sb, "group software\nevent %d %d 0 0 task-clock\nevent %d %d 0 0 "
		    "context-switches\nevent %d %d 0 0 page-faults\n",
		    PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, PERF_TYPE_SOFTWARE,
		    PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	for (g = 0; p->hardware && p->have_sched && g < p->sched.nr_groups; g++) {
		const struct td_sched_group *sg = &p->sched.groups[g];

		strbuf_addf(&sb, "group %s\n", sg->pmu);
		for (e = 0; e < sg->nr_events; e++) {
			const struct td_sched_event *ev = &sg->events[e];

			if (strpbrk(ev->name, " \t\n")) {
				strbuf_addf(err, "event '%s': a name with spaces cannot go into the "
					    "regions spec", ev->name);
				goto out;
			}
			strbuf_addstr(&sb, "event ");
			if (td_regions_resolve(sysfs, ev->perf_name ? ev->perf_name : ev->name, &sb,
					       err) < 0)
				goto out;
			strbuf_addf(&sb, " %s\n", ev->name);
		}
	}
	if (td_write_file_atomic(path, sb.buf, sb.len) < 0) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}

void td_regions_drop_perf_jobs(struct td_plan *p)
{
	size_t i, j, k;

	for (i = 0; i < p->nr_runs; i++) {
		struct td_plan_run *run = &p->runs[i];

		for (j = k = 0; j < run->nr_jobs; j++) {
			if (strcmp(run->jobs[j].role, "perf-stat")) {
				run->jobs[k++] = run->jobs[j];
				continue;
			}
			free(run->jobs[j].file);
			strvec_clear(&run->jobs[j].argv);
		}
		run->nr_jobs = k;
	}
}
