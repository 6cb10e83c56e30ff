/*
 * metrics/guidance.c: the guidance files beside the formula tables
 * (metrics/guidance/FAMILY.json, docs/guidance.md): load, check, look up a
 * node by table, then by the vendor's family.
 */
#include "metrics/guidance.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A file read once: root is NULL when the file does not exist. */
struct guidance_file {
	char *name;   /* "intel", "skylakex" */
	json_t *root;
};

static struct guidance_file *files;
static size_t nr_files, alloc_files;

static const struct {
	const char *vendor, *family;
} families[] = {
	{ "GenuineIntel", "intel" },
	{ "AuthenticAMD", "amd" },
	{ "HygonGenuine", "amd" },
	{ "ARM", "arm" },
};

const char *td_guidance_family(const char *vendor)
{
	size_t i;

	for (i = 0; vendor && i < TD_ARRAY_SIZE(families); i++)
		if (!strcmp(vendor, families[i].vendor))
			return families[i].family;
	return NULL;
}

/* A table name is used as a file name only when it cannot leave the directory. */
static int plain_name(const char *s)
{
	if (!s || !*s || *s == '.')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return 0;
	return 1;
}

static int string_array(json_t *a)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a) || !json_array_size(a))
		return 0;
	json_array_foreach(a, i, v)
		if (!json_is_string(v) || !*json_string_value(v))
			return 0;
	return 1;
}

/* Every node has its four texts and cites only sources the file names. */
static int check_node(json_t *refs, const char *id, json_t *n, const char *path, struct strbuf *err)
{
	static const char *const lists[] = { "causes", "try", "next", "refs" };
	json_t *r;
	size_t i;

	if (!json_is_object(n) || !json_is_string(json_object_get(n, "meaning"))) {
		strbuf_addf(err, "%s: node %s: needs a \"meaning\" string", path, id);
		return -1;
	}
	for (i = 0; i < TD_ARRAY_SIZE(lists); i++)
		if (!string_array(json_object_get(n, lists[i]))) {
			strbuf_addf(err, "%s: node %s: \"%s\" must be a non-empty array of strings",
				    path, id, lists[i]);
			return -1;
		}
	json_array_foreach(json_object_get(n, "refs"), i, r)
		if (!json_is_string(json_object_get(refs, json_string_value(r)))) {
			strbuf_addf(err, "%s: node %s: source \"%s\" is not in the file's \"refs\"",
				    path, id, json_string_value(r));
			return -1;
		}
	return 0;
}

static int check_file(json_t *root, const char *path, struct strbuf *err)
{
	json_t *nodes = json_object_get(root, "nodes"), *refs = json_object_get(root, "refs"), *n;
	const char *id;

	if (!json_is_object(root) || !json_is_object(nodes) || !json_is_object(refs)) {
		strbuf_addf(err, "%s: not a guidance file (needs \"nodes\" and \"refs\" objects)", path);
		return -1;
	}
	json_object_foreach(nodes, id, n)
		if (check_node(refs, id, n, path, err) < 0)
			return -1;
	return 0;
}

/* The cached file metrics/guidance/NAME.json; *root NULL when there is none. */
static int load_file(const char *name, json_t **root, struct strbuf *err)
{
	struct strbuf rel = STRBUF_INIT;
	json_error_t je;
	char *path;
	size_t i;

	for (i = 0; i < nr_files; i++)
		if (!strcmp(files[i].name, name)) {
			*root = files[i].root;
			return 0;
		}
	strbuf_addf(&rel, "metrics/guidance/%s.json", name);
	path = td_data_path(rel.buf);
	strbuf_release(&rel);
	*root = NULL;
	if (td_file_exists(path)) {
		*root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
		if (!*root)
			strbuf_addf(err, "%s: line %d: %s", path, je.line, je.text);
		else if (check_file(*root, path, err) < 0) {
			json_decref(*root);
			*root = NULL;
		}
		if (!*root) {
			free(path);
			return -1;
		}
	}
	free(path);
	TD_GROW(files, alloc_files, nr_files + 1);
	files[nr_files].name = xstrdup(name);
	files[nr_files++].root = *root;
	return 0;
}

/* The node's entry, its sources spelled out, and the file it came from. */
static json_t *entry_json(json_t *root, json_t *n, const char *name)
{
	json_t *out = json_deep_copy(n), *refs = json_array(), *r;
	struct strbuf from = STRBUF_INIT;
	size_t i;

	json_array_foreach(json_object_get(n, "refs"), i, r)
		json_array_append(refs, json_object_get(json_object_get(root, "refs"),
							json_string_value(r)));
	json_object_set_new(out, "refs", refs);
	strbuf_addf(&from, "metrics/guidance/%s.json", name);
	json_object_set_new(out, "from", json_string(from.buf));
	strbuf_release(&from);
	return out;
}

int td_guidance_find(const char *table, const char *vendor, const char *id, json_t **out,
		     struct strbuf *err)
{
	const char *names[2] = { plain_name(table) ? table : NULL, td_guidance_family(vendor) };
	size_t i;

	*out = NULL;
	for (i = 0; i < TD_ARRAY_SIZE(names); i++) {
		json_t *root, *n;

		if (!names[i])
			continue;
		if (load_file(names[i], &root, err) < 0)
			return -1;
		n = json_object_get(json_object_get(root, "nodes"), id);
		if (n) {
			*out = entry_json(root, n, names[i]);
			return 1;
		}
	}
	return 0;
}
