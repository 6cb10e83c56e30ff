/*
 * The roofline's inputs from a run's counts: candidate formulas per
 * quantity, kept as data in metrics/roofline.json (docs/roofline.md) and
 * evaluated with the metric expression evaluator, so that Intel and AMD
 * event names (which never collide) can sit side by side.
 */
#include "config.h"
#include "metrics/expr.h"
#include "metrics/roofline.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct candidate {
	char *text;
	char *note;              /* the approximation it makes, or NULL */
	struct td_expr *expr;
};

struct td_rl_formulas {
	struct candidate *cand[TD_RL_NR_QTY];
	size_t nr[TD_RL_NR_QTY];
};

void td_rl_formulas_free(struct td_rl_formulas *f)
{
	if (!f)
		return;
	for (int q = 0; q < TD_RL_NR_QTY; q++) {
		for (size_t i = 0; i < f->nr[q]; i++) {
			free(f->cand[q][i].text);
			free(f->cand[q][i].note);
			td_expr_free(f->cand[q][i].expr);
		}
		free(f->cand[q]);
	}
	free(f);
}

struct td_rl_formulas *td_rl_formulas_load(const char *path, struct strbuf *err)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr), *qs, *list, *c;
	struct td_rl_formulas *f;
	const char *name;

	if (!doc) {
		strbuf_addf(err, "%s:%d: %s", path, jerr.line, jerr.text);
		return NULL;
	}
	qs = json_object_get(doc, "quantities");
	if (!json_is_object(qs)) {
		strbuf_addf(err, "%s: no \"quantities\" object", path);
		json_decref(doc);
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	json_object_foreach(qs, name, list) {
		int q = td_rl_qty_lookup(name);
		size_t i;

		if (q < 0 || !json_is_array(list)) {
			strbuf_addf(err, "%s: unknown quantity \"%s\" (or not a list of candidates)", path, name);
			goto fail;
		}
		f->cand[q] = xcalloc(json_array_size(list) + 1, sizeof(*f->cand[q]));
		json_array_foreach(list, i, c) {
			const char *text = json_string_value(json_object_get(c, "formula"));
			const char *note = json_string_value(json_object_get(c, "note"));
			struct candidate *k = &f->cand[q][f->nr[q]];
			struct strbuf perr = STRBUF_INIT;

			if (!text) {
				strbuf_addf(err, "%s: %s candidate %zu has no \"formula\"", path, name, i + 1);
				goto fail;
			}
			k->expr = td_expr_parse(text, &perr);
			if (!k->expr) {
				strbuf_addf(err, "%s: %s candidate %zu: %s", path, name, i + 1, perr.buf);
				strbuf_release(&perr);
				goto fail;
			}
			k->text = xstrdup(text);
			k->note = note ? xstrdup(note) : NULL;
			f->nr[q]++;
		}
	}
	json_decref(doc);
	return f;
fail:
	json_decref(doc);
	td_rl_formulas_free(f);
	return NULL;
}

const struct td_rl_formulas *td_rl_formulas_builtin(struct strbuf *err)
{
	static struct td_rl_formulas *builtin;
	char *path;

	if (builtin)
		return builtin;
	path = td_data_path("metrics/roofline.json");
	builtin = td_rl_formulas_load(path, err);
	free(path);
	return builtin;
}

void td_rl_input_eval(const struct td_rl_formulas *f, const struct td_env *env,
		      struct td_rl_input *in, const char *used[TD_RL_NR_QTY])
{
	for (int q = 0; q < TD_RL_NR_QTY; q++) {
		if (used)
			used[q] = NULL;
		for (size_t i = 0; i < f->nr[q]; i++) {
			double v = td_expr_eval(f->cand[q][i].expr, env, NULL);
			if (isnan(v))
				continue;
			in->v[q] = v;
			in->note[q] = f->cand[q][i].note;
			if (used)
				used[q] = f->cand[q][i].text;
			break;
		}
	}
}
