/*
 * The calibration file (docs/calibration.md): one JSON document per CPU
 * model under ~/.cache/tdperf/, holding one entry per thread count, each
 * saying what was measured and how (date, method, repetitions, spread).
 */
#include "config.h"
#include "collect/calibrate.h"
#include "metrics/roofline.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A number, or null for NAN (JSON has no NaN). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *measurement_json(const struct td_measurement *m)
{
	if (!m->reps)
		return json_null();
	return json_pack("{s:o s:o s:o s:o s:o s:i}", "value", num(m->value), "median", num(m->median),
			 "min", num(m->min), "max", num(m->max), "spread", num(m->spread), "reps", m->reps);
}

static const char *width_isa(enum td_rl_width w, int fma)
{
	switch (w) {
	case TD_RL_SCALAR:
		return fma ? "scalar FMA (vfmadd231sd/ss)" : "scalar mulsd/addsd";
	case TD_RL_V128:
		return fma ? "128-bit FMA" : "128-bit SSE mul/add";
	case TD_RL_V256:
		return fma ? "256-bit AVX FMA" : "256-bit AVX mul/add";
	default:
		return "512-bit AVX-512 FMA";
	}
}

static json_t *entry_json(const struct td_cal_result *r)
{
	const struct td_peaks *p = &r->peaks;
	double ghz = p->clock_ghz.value;
	json_t *e = json_object(), *flops = json_array(), *mem = json_array(), *sweep = json_array();
	json_t *warnings = json_array(), *caches = json_object();
	struct strbuf sb = STRBUF_INIT;

	json_object_set_new(e, "threads", json_integer(p->threads));
	json_object_set_new(e, "date", json_string(p->date ? p->date : ""));
	json_object_set_new(e, "mode", json_string(p->mode ? p->mode : "default"));
	json_object_set_new(e, "tdperf_version", json_string(PACKAGE_VERSION));
	json_object_set_new(e, "duration_s", num(r->duration_s));
	json_object_set_new(e, "load_average", num(r->load_average));
	json_object_set_new(e, "seconds_per_repetition", num(r->target_s));
	for (int l = 0; l < TD_RL_L3 + 1; l++)
		json_object_set_new(caches, td_rl_level_name(l), num(r->cache_size[l]));
	json_object_set_new(e, "cache_sizes", caches);

	json_object_set_new(e, "clock_ghz", measurement_json(&p->clock_ghz));
	json_object_set_new(e, "clock_method",
			    json_string("chain of dependent 1-cycle integer adds: cycles / time"));

	for (int w = 0; w < TD_RL_NR_WIDTH; w++)
		for (int pr = 0; pr < TD_RL_NR_PREC; pr++) {
			const struct td_measurement *m = &p->gflops[pr][w];
			if (!m->reps)
				continue;
			json_array_append_new(flops, json_pack("{s:s s:s s:s s:o s:o}",
				"precision", td_rl_prec_name(pr), "width", td_rl_width_name(w),
				"instructions", width_isa(w, w == TD_RL_V512 || r->fma),
				"gflops", measurement_json(m),
				"flops_per_cycle", num(m->value / ghz)));
		}
	json_object_set_new(e, "flops", flops);
	strbuf_addf(&sb, "12 independent multiply-add chains per thread (enough to cover latency x ports), "
		    "an FMA counted as 2 FLOPs; best of %d repetitions of %.0f ms",
		    p->gflops[TD_RL_DP][TD_RL_SCALAR].reps, r->target_s * 1e3);
	json_object_set_new(e, "flops_method", json_string(sb.buf));

	for (int l = 0; l < TD_RL_NR_LEVEL; l++) {
		if (!p->load_gbs[l].reps)
			continue;
		json_array_append_new(mem, json_pack("{s:s s:o s:o s:o s:o s:o s:o s:o}",
			"level", td_rl_level_name(l), "working_set", num(p->working_set[l]),
			"load_gbs", measurement_json(&p->load_gbs[l]),
			"store_gbs", measurement_json(&p->store_gbs[l]),
			"latency_ns", measurement_json(&p->latency_ns[l]),
			"load_bytes_per_cycle", num(p->load_gbs[l].value / ghz),
			"store_bytes_per_cycle", num(p->store_gbs[l].value / ghz),
			"latency_cycles", num(p->latency_ns[l].value * ghz)));
	}
	json_object_set_new(e, "memory", mem);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "bandwidth: %u-bit aligned loads (xor into 8 accumulators) / stores over a per-thread "
		    "working set; latency: pointer chase through a random cyclic permutation of the "
		    "working set's cache lines (one thread, transparent huge pages requested); "
		    "1 GB/s = 1e9 bytes/s", r->mem_vector_bits);
	json_object_set_new(e, "memory_method", json_string(sb.buf));

	for (size_t i = 0; i < r->nr_sweep; i++)
		json_array_append_new(sweep, json_pack("{s:o s:o s:o}",
			"working_set", num(r->sweep[i].working_set),
			"load_gbs", measurement_json(&r->sweep[i].load_gbs),
			"latency_ns", measurement_json(&r->sweep[i].latency_ns)));
	json_object_set_new(e, "sweep", sweep);
	for (size_t i = 0; i < r->nr_warnings; i++)
		json_array_append_new(warnings, json_string(r->warnings[i]));
	json_object_set_new(e, "warnings", warnings);
	strbuf_release(&sb);
	return e;
}

/* Load an existing calibration file; NULL with err set if it is not one. */
static json_t *load_existing(const char *path, struct strbuf *err)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr);

	if (!doc) {
		strbuf_addf(err, "%s:%d: %s; remove it to calibrate again", path, jerr.line, jerr.text);
		return NULL;
	}
	/* a file that is not ours is never silently overwritten */
	if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "format")) ||
	    strcmp(json_string_value(json_object_get(doc, "format")), "tdperf-calibration") ||
	    !json_is_array(json_object_get(doc, "entries"))) {
		strbuf_addf(err, "%s: not a tdperf calibration file; remove it to calibrate again", path);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

int td_cal_check_file(const char *path, struct strbuf *err)
{
	json_t *doc;

	if (!td_file_exists(path))
		return 0;
	doc = load_existing(path, err);
	json_decref(doc);
	return doc ? 0 : -1;
}

int td_cal_document(const char *path, const struct td_cal_cpu *cpu,
		    const struct td_cal_result *r, struct strbuf *out, struct strbuf *err)
{
	json_t *doc, *kept = json_array(), *e;
	size_t i;
	char *text;

	if (path && td_file_exists(path)) {
		doc = load_existing(path, err);
		if (!doc) {
			json_decref(kept);
			return -1;
		}
		json_array_foreach(json_object_get(doc, "entries"), i, e)
			if (json_integer_value(json_object_get(e, "threads")) != r->peaks.threads)
				json_array_append(kept, e);
		json_decref(doc);
	}
	json_array_append_new(kept, entry_json(r));
	doc = json_pack("{s:s s:i s:{s:s s:s s:i s:i s:i s:s s:s} s:o}",
			"format", "tdperf-calibration", "version", 1,
			"cpu", "key", cpu->key, "vendor", cpu->vendor, "family", cpu->family,
			"model", cpu->model, "stepping", cpu->stepping, "name", cpu->name,
			"cpuid", cpu->cpuid, "entries", kept);
	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	free(text);
	json_decref(doc);
	return 0;
}
