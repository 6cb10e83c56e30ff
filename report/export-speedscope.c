/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json,
 * version 0.0.1): the frames once in "shared", then one "sampled" profile
 * per quantity the recording weighs its call paths by (samples, the
 * sampled event, each member of a leader-sampled group), each sample a
 * call path (frame indices, root first) with its weight; then, when more
 * than one thread was sampled, one profile per thread ("name tid"),
 * weighted by the sampled event, from the document's profile.threads.
 */
#include "config.h"
#include "report/export.h"

#include <stdlib.h>
#include <string.h>

static const char *thread_name(json_t *th)
{
	const char *s = json_string_value(json_object_get(th, "name"));

	return s ? s : "thread";
}

static json_t *shared_frames(const struct td_export_tree *t)
{
	json_t *frames = json_array(), *f;
	size_t i;

	json_array_foreach(t->frames, i, f) {
		const char *source = json_string_value(json_object_get(f, "source"));
		json_t *o = json_pack("{s:s}", "name", td_export_symbol(t, (int)i));

		if (source) {
			const char *colon = strrchr(source, ':');

			json_object_set_new(o, "file", colon ? json_stringn(source, (size_t)(colon - source))
							     : json_string(source));
			if (colon && atoi(colon + 1) > 0)
				json_object_set_new(o, "line", json_integer(atoi(colon + 1)));
		} else if (json_string_value(json_object_get(f, "dso"))) {
			json_object_set_new(o, "file", json_deep_copy(json_object_get(f, "dso")));
		}
		json_array_append_new(frames, o);
	}
	return frames;
}

/* A speedscope "sampled" profile being filled: one stack and weight per call path. */
struct sampled {
	json_t *samples, *weights;
	int *path;
	size_t alloc;
	double total;
};

/* Call path 'node' of t, weighing w: added unless it weighs nothing or has no frames. */
static void add_path(struct sampled *sp, const struct td_export_tree *t, size_t node, double w)
{
	json_t *stack;
	size_t n, k;

	if (w <= 0 || !(n = td_export_path(t, node, &sp->path, &sp->alloc)))
		return;
	stack = json_array();
	for (k = 0; k < n; k++)
		json_array_append_new(stack, json_integer(sp->path[k]));
	json_array_append_new(sp->samples, stack);
	json_array_append_new(sp->weights, json_real(w));
	sp->total += w;
}

static json_t *sampled_json(struct sampled *sp, const char *name, const char *unit)
{
	free(sp->path);
	return json_pack("{s:s, s:s, s:s, s:i, s:f, s:o, s:o}", "type", "sampled", "name", name, "unit", unit,
			 "startValue", 0, "endValue", sp->total, "samples", sp->samples, "weights", sp->weights);
}

/* One sampled profile weighted by 'weight' ("samples", "period" or a member). */
static json_t *sampled_profile(const struct td_export_tree *t, const char *weight, const char *name,
			       const char *unit)
{
	struct sampled sp = { json_array(), json_array(), NULL, 0, 0 };
	size_t i;

	for (i = 0; i < json_array_size(t->nodes); i++)
		add_path(&sp, t, i, td_export_weight(t, i, weight));
	return sampled_json(&sp, name, unit);
}

/* Thread th's profile: its paths ([node, samples, period]) weighted by period. */
static json_t *thread_profile(const struct td_export_tree *t, json_t *th, const char *unit)
{
	struct sampled sp = { json_array(), json_array(), NULL, 0, 0 };
	struct strbuf name = STRBUF_INIT;
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(th, "paths"), i, p) {
		json_int_t node = json_integer_value(json_array_get(p, 0));

		if (node >= 0)
			add_path(&sp, t, (size_t)node, (double)json_integer_value(json_array_get(p, 2)));
	}
	strbuf_addf(&name, "%s %" JSON_INTEGER_FORMAT, thread_name(th), json_integer_value(json_object_get(th, "tid")));
	p = sampled_json(&sp, name.buf, unit);
	strbuf_release(&name);
	return p;
}

int td_export_speedscope(json_t *doc, FILE *out, struct strbuf *err)
{
	json_t *profile = json_object_get(doc, "profile"), *ss, *profiles;
	const char *event = json_string_value(json_object_get(profile, "event"));
	const char *source = json_string_value(json_object_get(profile, "source"));
	struct td_export_tree t;
	struct strbuf name = STRBUF_INIT;
	int time = event && (!strcmp(event, "cpu-clock") || !strcmp(event, "task-clock"));
	size_t k;

	if (td_export_tree(doc, &t, err) < 0)
		return -1;
	if (!event)
		event = "period";
	profiles = json_array();
	strbuf_addf(&name, "%s (%s)", event, time ? "CPU time" : "period");
	json_array_append_new(profiles, sampled_profile(&t, "period", name.buf, time ? "nanoseconds" : "none"));
	json_array_append_new(profiles, sampled_profile(&t, "samples", "samples", "none"));
	for (k = 1; k < t.nr_names; k++)
		json_array_append_new(profiles, sampled_profile(&t, t.names[k], t.names[k], "none"));
	if (json_array_size(json_object_get(profile, "threads")) > 1) {
		json_t *th;

		json_array_foreach(json_object_get(profile, "threads"), k, th)
			json_array_append_new(profiles, thread_profile(&t, th, time ? "nanoseconds" : "none"));
	}
	ss = json_pack("{s:s, s:s, s:s, s:i, s:{s:o}, s:o}",
		       "$schema", "https://www.speedscope.app/file-format-schema.json",
		       "exporter", "tdperf " PACKAGE_VERSION, "name", source ? source : "tdperf",
		       "activeProfileIndex", 0, "shared", "frames", shared_frames(&t), "profiles", profiles);
	json_dumpf(ss, out, JSON_COMPACT);
	fputc('\n', out);
	json_decref(ss);
	strbuf_release(&name);
	td_export_tree_release(&t);
	return 0;
}
