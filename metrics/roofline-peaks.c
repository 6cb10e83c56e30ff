/*
 * The machine's roofs as 'tdperf calibrate' left them: names of the
 * roofline's dimensions, the per-CPU cache file's location, and reading
 * one entry of it (format in docs/calibration.md).
 */
#include "config.h"
#include "metrics/roofline.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const prec_names[] = { "sp", "dp" };
static const char *const width_names[] = { "scalar", "128", "256", "512" };
static const char *const level_names[] = { "L1", "L2", "L3", "DRAM" };
static const char *const buffer_names[] = { "rob", "rs", "sb", "lb", "lfb" };
static const char *const resource_names[] = { "fp", "l1", "l2", "l3", "dram" };

const char *td_rl_prec_name(enum td_rl_prec p) { return p < TD_RL_NR_PREC ? prec_names[p] : "?"; }
const char *td_rl_width_name(enum td_rl_width w) { return w < TD_RL_NR_WIDTH ? width_names[w] : "?"; }
const char *td_rl_level_name(enum td_rl_level l) { return l < TD_RL_NR_LEVEL ? level_names[l] : "?"; }
const char *td_rl_buffer_name(enum td_rl_buffer b) { return b < TD_RL_NR_BUFFER ? buffer_names[b] : "?"; }
const char *td_rl_resource_name(enum td_rl_resource r)
{
	return r < TD_RL_NR_RESOURCE ? resource_names[r] : "?";
}

static void measurement_unset(struct td_measurement *m)
{
	m->value = m->median = m->min = m->max = m->spread = NAN;
	m->reps = 0;
}

void td_peaks_init(struct td_peaks *p)
{
	memset(p, 0, sizeof(*p));
	measurement_unset(&p->clock_ghz);
	for (int i = 0; i < TD_RL_NR_PREC; i++)
		for (int w = 0; w < TD_RL_NR_WIDTH; w++)
			measurement_unset(&p->gflops[i][w]);
	for (int l = 0; l < TD_RL_NR_LEVEL; l++) {
		measurement_unset(&p->load_gbs[l]);
		measurement_unset(&p->store_gbs[l]);
		measurement_unset(&p->latency_ns[l]);
		p->working_set[l] = NAN;
	}
}

void td_peaks_release(struct td_peaks *p)
{
	free(p->source);
	free(p->cpu_key);
	free(p->cpu_name);
	free(p->date);
	free(p->mode);
	td_peaks_init(p);
}

char *td_peaks_cpu_key(const char *vendor, int family, int model, int stepping, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int dash = 0;

	strbuf_addf(&sb, "%s-%d-%X-%d_", vendor ? vendor : "unknown", family, model < 0 ? 0 : model,
		    stepping);
	for (const char *p = name ? name : ""; *p; p++) {
		int ok = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			 (*p >= '0' && *p <= '9') || *p == '.';
		if (ok) {
			if (dash && sb.buf[sb.len - 1] != '_')
				strbuf_addch(&sb, '-');
			strbuf_addch(&sb, *p);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * The home directory: $HOME when it is an absolute path, else the passwd
 * entry's.  Never the current directory: a missing or relative HOME (cron,
 * "env -i", some service managers) would put the cache, and take a
 * calibration from, wherever the command happens to run.  NULL when
 * neither names one.
 */
static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (home && home[0] == '/')
		return home;
	pw = getpwuid(geteuid());
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

char *td_peaks_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home;
	char *base, *dir;

	/* the XDG base directory spec: only absolute paths count */
	if (xdg && xdg[0] == '/')
		return td_path_join(xdg, "tdperf");
	home = home_dir();
	if (!home)
		return NULL;
	base = td_path_join(home, ".cache");
	dir = td_path_join(base, "tdperf");
	free(base);
	return dir;
}

void td_peaks_no_cache_dir(struct strbuf *sb)
{
	strbuf_addf(sb, "no calibration cache: HOME is %s and uid %lu has no home directory in the "
		    "passwd database", getenv("HOME") ? "not an absolute path" : "unset",
		    (unsigned long)geteuid());
}

char *td_peaks_cache_path(const char *cpu_key)
{
	struct strbuf name = STRBUF_INIT;
	char *dir = td_peaks_cache_dir(), *path;

	if (!dir)
		return NULL;
	strbuf_addf(&name, "calibration-%s.json", cpu_key);
	path = td_path_join(dir, name.buf);
	free(dir);
	strbuf_release(&name);
	return path;
}

/* A measurement object, or a number (taken as value); NAN when null. */
static void read_measurement(json_t *j, struct td_measurement *m)
{
	measurement_unset(m);
	if (json_is_number(j)) {
		m->value = m->median = m->min = m->max = json_number_value(j);
		m->reps = 1;
		return;
	}
	if (!json_is_object(j))
		return;
#define NUM(f) do { json_t *x = json_object_get(j, #f); if (json_is_number(x)) m->f = json_number_value(x); } while (0)
	NUM(value);
	NUM(median);
	NUM(min);
	NUM(max);
	NUM(spread);
#undef NUM
	if (json_is_integer(json_object_get(j, "reps")))
		m->reps = (int)json_integer_value(json_object_get(j, "reps"));
}

static int lookup_name(const char *const *names, int n, const char *s)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

static char *dup_string(json_t *j)
{
	return json_is_string(j) ? xstrdup(json_string_value(j)) : NULL;
}

/* Fill p from one entry object. */
static void read_entry(json_t *e, struct td_peaks *p)
{
	size_t i;
	json_t *x;

	p->threads = (int)json_integer_value(json_object_get(e, "threads"));
	p->date = dup_string(json_object_get(e, "date"));
	p->mode = dup_string(json_object_get(e, "mode"));
	read_measurement(json_object_get(e, "clock_ghz"), &p->clock_ghz);
	json_array_foreach(json_object_get(e, "flops"), i, x) {
		int pr = lookup_name(prec_names, TD_RL_NR_PREC, json_string_value(json_object_get(x, "precision")));
		int w = lookup_name(width_names, TD_RL_NR_WIDTH, json_string_value(json_object_get(x, "width")));
		if (pr >= 0 && w >= 0)
			read_measurement(json_object_get(x, "gflops"), &p->gflops[pr][w]);
	}
	json_array_foreach(json_object_get(e, "memory"), i, x) {
		int l = lookup_name(level_names, TD_RL_NR_LEVEL, json_string_value(json_object_get(x, "level")));
		json_t *ws = json_object_get(x, "working_set");
		if (l < 0)
			continue;
		read_measurement(json_object_get(x, "load_gbs"), &p->load_gbs[l]);
		read_measurement(json_object_get(x, "store_gbs"), &p->store_gbs[l]);
		read_measurement(json_object_get(x, "latency_ns"), &p->latency_ns[l]);
		if (json_is_number(ws))
			p->working_set[l] = json_number_value(ws);
	}
}

int td_peaks_load(const char *path, int threads, struct td_peaks *p, struct strbuf *err)
{
	json_error_t jerr;
	json_t *doc, *entries, *e, *best = NULL, *cpu;
	size_t i;
	int best_dist = 0;

	td_peaks_init(p);
	if (!path) {
		td_peaks_no_cache_dir(err);
		errno = ENOENT;
		return -1;
	}
	doc = json_load_file(path, 0, &jerr);
	if (!doc) {
		if (access(path, R_OK) < 0) {
			int saved = errno;
			strbuf_addf(err, "%s: %s", path, strerror(saved));
			errno = saved;
		} else {
			strbuf_addf(err, "%s:%d: %s", path, jerr.line, jerr.text);
			errno = EINVAL;
		}
		return -1;
	}
	if (!json_is_object(doc) ||
	    strcmp(json_string_value(json_object_get(doc, "format")) ? json_string_value(json_object_get(doc, "format")) : "",
		   "tdperf-calibration")) {
		strbuf_addf(err, "%s: not a tdperf calibration file (no \"format\": \"tdperf-calibration\")", path);
		json_decref(doc);
		errno = EINVAL;
		return -1;
	}
	if (json_integer_value(json_object_get(doc, "version")) > 1) {
		strbuf_addf(err, "%s: calibration format version %lld is newer than this tdperf understands (1)",
			    path, (long long)json_integer_value(json_object_get(doc, "version")));
		json_decref(doc);
		errno = EINVAL;
		return -1;
	}
	entries = json_object_get(doc, "entries");
	json_array_foreach(entries, i, e) {
		int t = (int)json_integer_value(json_object_get(e, "threads"));
		int want = threads > 0 ? threads : 1;
		int dist = abs(t - want);

		if (t <= 0)
			continue;
		if (!best || dist < best_dist) {
			best = e;
			best_dist = dist;
		}
	}
	if (!best) {
		strbuf_addf(err, "%s: no calibration entries", path);
		json_decref(doc);
		errno = EINVAL;
		return -1;
	}
	read_entry(best, p);
	cpu = json_object_get(doc, "cpu");
	p->cpu_key = dup_string(json_object_get(cpu, "key"));
	p->cpu_name = dup_string(json_object_get(cpu, "name"));
	p->source = xstrdup(path);
	json_decref(doc);
	return 0;
}
