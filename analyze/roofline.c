/*
 * The report document's "roofline" object (docs/report-schema.md): the
 * machine's roofs from its calibration and one point per run (total scope)
 * and per interval, each evaluated from the scope's own counts with the
 * roofline formulas (metrics/roofline.json) and placed by td_rl_analyze().
 */
#include "config.h"
#include "analyze/analyze-int.h"
#include "metrics/expr.h"
#include "metrics/roofline.h"
#include "parse/parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* ---- looking counts up in a scope of the document ---- */

struct scope_env {
	json_t *scope;
	double seconds;          /* the scope's duration, NAN unknown */
	char **keys;             /* canonical key of each event, made on first lookup */
	size_t nkeys;
};

static void event_key_of(const char *name, struct strbuf *key)
{
	struct strbuf pmu = STRBUF_INIT;

	td_event_key(name, &pmu, key);
	strbuf_release(&pmu);
}

/* Whether the document event e is the event a formula names. */
static int same_event(json_t *e, const char *name)
{
	struct strbuf k1 = STRBUF_INIT, k2 = STRBUF_INIT;
	const char *ename = td_json_str(e, "name");
	int same;

	if (!ename)
		return 0;
	event_key_of(name, &k1);
	event_key_of(ename, &k2);
	same = !strcmp(k1.buf, k2.buf);
	strbuf_release(&k1);
	strbuf_release(&k2);
	return same;
}

static void scope_env_release(struct scope_env *se)
{
	size_t i;

	for (i = 0; i < se->nkeys; i++)
		free(se->keys[i]);
	free(se->keys);
	se->keys = NULL;
	se->nkeys = 0;
}

/*
 * The first counted event of the scope a formula name means.  The
 * events' keys are made once per scope: an interval run has thousands of
 * scopes and each formula looks up several names.
 */
static int scope_lookup(void *ctx, const char *name, double *v)
{
	struct scope_env *se = ctx;
	json_t *events = json_object_get(se->scope, "events"), *e;
	struct strbuf want = STRBUF_INIT;
	size_t i;
	int found = -1;

	if (!strcmp(name, "duration_time")) {
		if (!isfinite(se->seconds))
			return -1;
		*v = se->seconds;
		return 0;
	}
	if (!se->keys) {
		struct strbuf k = STRBUF_INIT;

		se->nkeys = json_array_size(events);
		se->keys = xcalloc(se->nkeys + 1, sizeof(*se->keys));
		json_array_foreach(events, i, e) {
			strbuf_reset(&k);
			event_key_of(td_json_str_or(e, "name", ""), &k);
			se->keys[i] = xstrdup(k.buf);
		}
		strbuf_release(&k);
	}
	event_key_of(name, &want);
	json_array_foreach(events, i, e) {
		double x = td_json_num(json_object_get(e, "value"));
		const char *status = td_json_str(e, "status");
		if (i < se->nkeys && td_json_str(e, "name") && !strcmp(se->keys[i], want.buf) &&
		    (!status || !strcmp(status, "ok")) && isfinite(x)) {
			*v = x;
			found = 0;
			break;
		}
	}
	strbuf_release(&want);
	return found;
}

/* A scope's duration: duration_time counted, the interval, or the session's elapsed time. */
static double scope_seconds(json_t *doc, json_t *scope, double prev_time)
{
	json_t *events = json_object_get(scope, "events"), *e, *sessions;
	size_t i;
	double t = td_json_num(json_object_get(scope, "time"));
	json_int_t session;

	json_array_foreach(events, i, e)
		if (same_event(e, "duration_time")) {
			double ns = td_json_num(json_object_get(e, "value"));
			if (ns > 0)
				return ns * 1e-9;
		}
	if (isfinite(t))
		return t - (isfinite(prev_time) ? prev_time : 0);
	sessions = json_object_get(doc, "sessions");
	session = json_integer_value(json_object_get(scope, "session"));
	if (session >= 1 && (size_t)session <= json_array_size(sessions))
		return td_json_num(json_object_get(json_array_get(sessions, session - 1), "elapsed_s"));
	return NAN;
}

/* ---- the machine's roofs ---- */

static const char *unit_of(const struct td_rl_roof *r)
{
	return r->kind == TD_RL_ROOF_MEMORY ? "GB/s" : "GFLOP/s";
}

static json_t *peaks_json(const struct td_peaks *pk, const struct td_rl_result *r)
{
	json_t *o = json_object(), *roofs = json_array();

	json_object_set_new(o, "source", str_or_null(pk->source));
	json_object_set_new(o, "cpu", str_or_null(pk->cpu_name));
	json_object_set_new(o, "date", str_or_null(pk->date));
	json_object_set_new(o, "mode", str_or_null(pk->mode));
	json_object_set_new(o, "threads", json_integer(pk->threads));
	json_object_set_new(o, "clock_ghz", num(pk->clock_ghz.value));
	/* the lines, independent of any run: peaks and bandwidths */
	for (size_t i = 0; i < r->nr_roofs; i++) {
		const struct td_rl_roof *x = &r->roofs[i];
		if (x->kind != TD_RL_ROOF_COMPUTE && x->kind != TD_RL_ROOF_MEMORY)
			continue;
		if (!strcmp(x->id, "fp_mix"))
			continue;
		json_array_append_new(roofs, json_pack("{s:s s:s s:s s:o s:o s:s s:o}",
			"id", x->id, "label", x->label, "kind", td_rl_roof_kind_name(x->kind),
			"level", x->level >= 0 ? json_string(td_rl_level_name(x->level)) : json_null(),
			"value", num(x->peak), "unit", unit_of(x),
			"spread", num(x->kind == TD_RL_ROOF_MEMORY ? pk->load_gbs[x->level].spread : NAN)));
	}
	json_object_set_new(o, "roofs", roofs);
	return o;
}

static json_t *roof_ref(const struct td_rl_result *r, int i)
{
	if (i < 0)
		return json_null();
	return json_pack("{s:s s:s s:s s:o}", "id", r->roofs[i].id, "label", r->roofs[i].label,
			 "kind", td_rl_roof_kind_name(r->roofs[i].kind), "bound", num(r->roofs[i].bound));
}

static json_t *point_json(json_t *scope, const struct td_rl_input *in, const char *used[],
			  const struct td_rl_result *r)
{
	json_t *o = json_object(), *inten = json_object(), *bounds = json_array(), *inputs = json_object();
	json_t *notes = json_array();
	int approximate = 0;

	json_object_set_new(o, "scope", json_string(td_json_str(scope, "id") ? td_json_str(scope, "id") : "?"));
	json_object_set_new(o, "interval", json_boolean(td_scope_is_interval(scope)));
	json_object_set_new(o, "time", num(td_json_num(json_object_get(scope, "time"))));
	json_object_set_new(o, "gflops", num(r->gflops));
	json_object_set_new(o, "flops", num(r->flops));
	json_object_set_new(o, "seconds", num(r->seconds));
	for (int l = 0; l < TD_RL_NR_LEVEL; l++)
		json_object_set_new(inten, td_rl_level_name(l), num(r->intensity[l]));
	json_object_set_new(o, "intensity", inten);
	json_object_set_new(o, "attainable", num(r->attainable));
	json_object_set_new(o, "efficiency", num(r->efficiency));
	json_object_set_new(o, "binding", roof_ref(r, r->binding));
	json_object_set_new(o, "tightest", roof_ref(r, r->tightest));
	for (size_t i = 0; i < r->nr_roofs; i++) {
		const struct td_rl_roof *x = &r->roofs[i];
		if (x->reference)
			continue;
		json_array_append_new(bounds, json_pack("{s:s s:s s:s s:o s:o s:o s:o s:b s:b s:o}",
			"id", x->id, "label", x->label, "kind", td_rl_roof_kind_name(x->kind),
			"level", x->level >= 0 ? json_string(td_rl_level_name(x->level)) : json_null(),
			"peak", num(x->peak), "scale", num(x->scale),
			"bound", isinf(x->bound) ? json_null() : num(x->bound),
			"classic", x->classic, "violated", x->violated, "note", str_or_null(x->note)));
	}
	json_object_set_new(o, "bounds", bounds);
	for (int q = 0; q < TD_RL_NR_QTY; q++) {
		if (!used[q])
			continue;
		json_object_set_new(inputs, td_rl_qty_name(q), json_pack("{s:o s:s s:o}",
			"value", num(in->v[q]), "formula", used[q], "note", str_or_null(in->note[q])));
		approximate |= in->note[q] != NULL;
	}
	json_object_set_new(o, "inputs", inputs);
	for (size_t i = 0; i < r->nr_notes; i++)
		json_array_append_new(notes, json_string(r->notes[i]));
	json_object_set_new(o, "notes", notes);
	json_object_set_new(o, "approximate", json_boolean(approximate || r->nr_notes > 0));
	json_object_set_new(o, "reason", str_or_null(r->reason));
	return o;
}

/* Find the calibration of the run's CPU; 0, or -1 with the reason in why. */
static int find_peaks(json_t *doc, struct td_peaks *pk, struct strbuf *why)
{
	const char *forced = getenv("TDPERF_CALIBRATION"), *tenv = getenv("TDPERF_ROOFLINE_THREADS");
	json_t *cpu = json_object_get(json_object_get(doc, "run"), "cpu");
	int threads = tenv ? atoi(tenv) : 1;
	struct strbuf err = STRBUF_INIT;
	char *path, *key;
	int ret;

	if (forced && *forced) {
		path = xstrdup(forced);
	} else {
		if (!json_is_string(json_object_get(cpu, "vendor")) || !json_is_string(json_object_get(cpu, "name"))) {
			strbuf_addstr(why, "the run does not say which CPU it ran on, so no calibration applies "
				      "(set TDPERF_CALIBRATION to a 'tdperf calibrate' file)");
			return -1;
		}
		key = td_peaks_cpu_key(td_json_str(cpu, "vendor"),
				       (int)json_integer_value(json_object_get(cpu, "family")),
				       (int)json_integer_value(json_object_get(cpu, "model")),
				       (int)json_integer_value(json_object_get(cpu, "stepping")),
				       td_json_str(cpu, "name"));
		path = td_peaks_cache_path(key);
		free(key);
	}
	ret = td_peaks_load(path, threads, pk, &err);
	if (ret < 0)
		strbuf_addf(why, "no calibration for this CPU (%s): run 'tdperf calibrate' on the machine of "
			    "the run, or set TDPERF_CALIBRATION", err.buf);
	strbuf_release(&err);
	free(path);
	return ret;
}

int td_report_add_roofline(json_t *doc, struct strbuf *err)
{
	const struct td_rl_formulas *f = td_rl_formulas_builtin(err);
	json_t *scopes = json_object_get(doc, "scopes"), *scope, *points = json_array(), *out = json_object();
	struct td_peaks pk;
	struct strbuf why = STRBUF_INIT;
	double prev_time = NAN;
	int have_peaks, any_fp = 0;
	size_t i;

	if (!f)
		return -1;
	have_peaks = find_peaks(doc, &pk, &why) == 0;
	if (!have_peaks)
		td_peaks_init(&pk);
	json_array_foreach(scopes, i, scope) {
		const char *kind = td_json_str(scope, "kind");
		struct scope_env se = { scope, NAN, NULL, 0 };
		struct td_env env = { scope_lookup, &se };
		struct td_rl_input in;
		struct td_rl_result r;
		const char *used[TD_RL_NR_QTY];
		int interval = td_scope_is_interval(scope);

		/* the run and its intervals; per-CPU/thread scopes are not placed */
		if (!kind || (strcmp(kind, "total") && strcmp(kind, "interval")))
			continue;
		se.seconds = scope_seconds(doc, scope, interval ? prev_time : NAN);
		if (interval)
			prev_time = td_json_num(json_object_get(scope, "time"));
		td_rl_input_init(&in);
		td_rl_input_eval(f, &env, &in, used);
		scope_env_release(&se);
		if (!used[TD_RL_Q_FLOPS] && !used[TD_RL_Q_FLOPS_PW(TD_RL_DP, TD_RL_SCALAR)] &&
		    !used[TD_RL_Q_FLOPS_PW(TD_RL_SP, TD_RL_SCALAR)]) {
			int split = 0;
			for (int q = TD_RL_Q_FLOPS_SPLIT; q < TD_RL_Q_BYTES; q++)
				split |= used[q] != NULL;
			if (!split)
				continue;
		}
		any_fp = 1;
		td_rl_analyze(&pk, &in, &r);
		if (!json_object_get(out, "peaks") && have_peaks)
			json_object_set_new(out, "peaks", peaks_json(&pk, &r));
		json_array_append_new(points, point_json(scope, &in, used, &r));
		td_rl_result_release(&r);
	}
	if (!any_fp) {
		/* nothing to place: say why, so that the user knows what to count */
		json_decref(points);
		json_decref(out);
		json_object_set_new(doc, "roofline", json_pack("{s:o s:[] s:s}",
			"peaks", json_null(), "points",
			"reason", "no FP operations counted (record FP_ARITH_INST_RETIRED.* on Intel or "
				  "fp_ret_sse_avx_ops.all on AMD, plus cache traffic events, for a roofline)"));
		td_peaks_release(&pk);
		strbuf_release(&why);
		return 0;
	}
	if (!json_object_get(out, "peaks"))
		json_object_set_new(out, "peaks", json_null());
	json_object_set_new(out, "points", points);
	json_object_set_new(out, "reason", have_peaks ? json_null() : json_string(why.buf));
	json_object_set_new(doc, "roofline", out);
	td_peaks_release(&pk);
	strbuf_release(&why);
	return 0;
}

int td_roofline_nr_levels(void)
{
	return TD_RL_NR_LEVEL;
}

const char *td_roofline_level_name(int level)
{
	return td_rl_level_name((enum td_rl_level)level);
}
