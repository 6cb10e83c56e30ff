/*
 * The call-path tree of a hotspots document as the exporters walk it
 * (report/export.h): node i's frames from the root, and its self weight.
 */
#include "report/export.h"

#include <math.h>
#include <string.h>

int td_export_tree(json_t *doc, struct td_export_tree *t, struct strbuf *err)
{
	json_t *profile = json_object_get(doc, "profile"), *group, *v;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->frames = json_object_get(profile, "frames");
	t->nodes = json_object_get(profile, "callpaths");
	if (!json_is_array(t->frames) || !json_array_size(t->nodes)) {
		strbuf_addstr(err, "this format exports the samples of a perf.data: give --hotspots "
			      "(and a run recorded with --hotspots, or a perf.data)");
		return -1;
	}
	group = json_object_get(profile, "group");
	t->nr_names = json_array_size(group);
	if (t->nr_names)
		t->names = xcalloc(t->nr_names, sizeof(*t->names));
	json_array_foreach(group, i, v)
		t->names[i] = json_string_value(v);
	return 0;
}

void td_export_tree_release(struct td_export_tree *t)
{
	free(t->names);
	t->names = NULL;
}

size_t td_export_path(const struct td_export_tree *t, size_t i, int **path, size_t *alloc)
{
	size_t n = 0, nr_nodes = json_array_size(t->nodes), k;
	json_t *node = json_array_get(t->nodes, i);

	/* parents come before children: a chain longer than the tree is a bad document */
	while (node && n < nr_nodes) {
		json_int_t frame = json_integer_value(json_object_get(node, "frame"));
		json_int_t parent = json_integer_value(json_object_get(node, "parent"));

		if (frame < 0)
			break;
		td_grow((void **)path, alloc, n + 1, sizeof(int));
		(*path)[n++] = (int)frame;
		node = parent >= 0 ? json_array_get(t->nodes, (size_t)parent) : NULL;
	}
	for (k = 0; k < n / 2; k++) {
		int x = (*path)[k];

		(*path)[k] = (*path)[n - 1 - k];
		(*path)[n - 1 - k] = x;
	}
	return n;
}

int td_export_has_weight(const struct td_export_tree *t, const char *weight)
{
	size_t k;

	if (!strcmp(weight, "samples") || !strcmp(weight, "period"))
		return 1;
	for (k = 0; k < t->nr_names; k++)
		if (!strcmp(t->names[k], weight))
			return 1;
	return 0;
}

double td_export_weight(const struct td_export_tree *t, size_t i, const char *weight)
{
	json_t *node = json_array_get(t->nodes, i);
	double v;

	if (!strcmp(weight, "samples"))
		return (double)json_integer_value(json_object_get(node, "samples"));
	if (!strcmp(weight, "period"))
		return (double)json_integer_value(json_object_get(node, "period"));
	v = json_number_value(json_object_get(json_object_get(node, "counts"), weight));
	return isfinite(v) ? round(v) : 0;
}

const char *td_export_symbol(const struct td_export_tree *t, int frame)
{
	const char *s = json_string_value(json_object_get(json_array_get(t->frames, (size_t)frame), "symbol"));

	return s ? s : "[unknown]";
}
