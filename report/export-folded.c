/*
 * Folded stacks for Brendan Gregg's flamegraph.pl and the tools that read
 * its input (inferno, speedscope, Firefox's importer): one line per
 * distinct call path, "root;caller;leaf COUNT".  A ';' inside a name
 * would split a frame, so it is written as ':' (C++ names rarely hold
 * one); paths whose names coincide add up on one line, as the scripts'
 * own folding does.
 */
#include "report/export.h"

#include <inttypes.h>
#include <string.h>

static void add_frame_name(struct strbuf *line, const char *name)
{
	for (; *name; name++)
		strbuf_addch(line, *name == ';' ? ':' : *name == '\n' ? ' ' : *name);
}

/* jansson's object keeps insertion order and hashes: the line -> count map */
static void count_line(json_t *lines, const char *line, double w)
{
	json_t *v = json_object_get(lines, line);

	if (v)
		json_real_set(v, json_real_value(v) + w);
	else
		json_object_set_new(lines, line, json_real(w));
}

int td_export_folded(json_t *doc, const char *weight, FILE *out, struct strbuf *err)
{
	struct td_export_tree t;
	struct strbuf line = STRBUF_INIT;
	json_t *lines, *v;
	const char *key;
	int *path = NULL;
	size_t alloc = 0, i, n, k;

	if (td_export_tree(doc, &t, err) < 0)
		return -1;
	if (!weight)
		weight = "samples";
	if (!td_export_has_weight(&t, weight)) {
		strbuf_addf(err, "--weight %s: the recording has no such event (it has samples, period", weight);
		for (k = 0; k < t.nr_names; k++)
			strbuf_addf(err, ", %s", t.names[k]);
		strbuf_addstr(err, ")");
		td_export_tree_release(&t);
		return -1;
	}
	lines = json_object();
	for (i = 0; i < json_array_size(t.nodes); i++) {
		double w = td_export_weight(&t, i, weight);

		if (w <= 0)
			continue;
		n = td_export_path(&t, i, &path, &alloc);
		if (!n)
			continue;
		strbuf_reset(&line);
		for (k = 0; k < n; k++) {
			if (k)
				strbuf_addch(&line, ';');
			add_frame_name(&line, td_export_symbol(&t, path[k]));
		}
		count_line(lines, line.buf, w);
	}
	json_object_foreach(lines, key, v)
		fprintf(out, "%s %.0f\n", key, json_real_value(v));
	json_decref(lines);
	free(path);
	strbuf_release(&line);
	td_export_tree_release(&t);
	return 0;
}
