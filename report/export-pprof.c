/*
 * pprof's profile.proto (github.com/google/pprof, proto/profile.proto),
 * gzip'd as pprof writes and reads it.
 *
 * A small hand encoder of the six messages we write (Profile, ValueType,
 * Sample, Mapping, Location, Line, Function) rather than protoc-c's
 * generated code: writing needs only varints and length-delimited
 * fields, and no runtime library besides zlib.
 *
 * One Sample per call path with self samples (per thread and call path,
 * labelled "thread" and "tid", when the samples name their thread, so
 * that pprof's -tagfocus and -tags split by thread); its values are the sample
 * count, the sampled event's period (CPU time in nanoseconds for
 * cpu-clock and task-clock) and, for a leader-sampled group, what each
 * member counted on the path.  One Location and Function per frame of
 * the document; one Mapping per DSO, with its build-id.  A frame's
 * Location has Line.line 0 (Function.start_line carries the function's
 * first line); a sampled instruction with debug info ("details") has its
 * own Location whose Lines are its inline chain, innermost first, as
 * pprof's profile.proto asks ("the last entry is the caller into which
 * the preceding entries were inlined") and addr2line -i prints it.
 */
#include "report/export.h"

#include "analyze/doc.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <zlib.h>

/* profile.proto's field numbers */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3, PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12, PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3,
	LABEL_KEY = 1, LABEL_STR = 2, LABEL_NUM = 3,
	MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6, MAPPING_HAS_FUNCTIONS = 7,
	MAPPING_HAS_FILENAMES = 8,
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1, LINE_LINE = 2,
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4,
	FUNCTION_START_LINE = 5,
};
#define WIRE_VARINT 0
#define WIRE_BYTES 2

static void put_varint(struct strbuf *b, uint64_t v)
{
	while (v >= 0x80) {
		strbuf_addch(b, (int)(v & 0x7f) | 0x80);
		v >>= 7;
	}
	strbuf_addch(b, (int)v);
}

static void put_key(struct strbuf *b, unsigned field, unsigned wire)
{
	put_varint(b, (uint64_t)field << 3 | wire);
}

/* An int64 or uint64 field; proto3 leaves zeros out. */
static void put_int(struct strbuf *b, unsigned field, int64_t v)
{
	if (!v)
		return;
	put_key(b, field, WIRE_VARINT);
	put_varint(b, (uint64_t)v);
}

static void put_bytes(struct strbuf *b, unsigned field, const void *data, size_t len)
{
	put_key(b, field, WIRE_BYTES);
	put_varint(b, len);
	strbuf_add(b, data, len);
}

/* An embedded message: its encoded bytes, then reset for the next one. */
static void put_message(struct strbuf *b, unsigned field, struct strbuf *msg)
{
	put_bytes(b, field, msg->buf, msg->len);
	strbuf_reset(msg);
}

/* The string table: index 0 is "", as the format requires. */
struct strings {
	json_t *index;          /* string -> its index */
	struct strbuf table;    /* the encoded string_table fields */
};

static int64_t str_id(struct strings *s, const char *str)
{
	json_t *v = json_object_get(s->index, str);
	int64_t id;

	if (v)
		return json_integer_value(v);
	id = (int64_t)json_object_size(s->index);
	json_object_set_new(s->index, str, json_integer(id));
	put_bytes(&s->table, PROFILE_STRING_TABLE, str, strlen(str));
	return id;
}

static void put_value_type(struct strbuf *out, unsigned field, struct strings *s,
			   const char *type, const char *unit)
{
	struct strbuf m = STRBUF_INIT;

	put_int(&m, VALUE_TYPE_TYPE, str_id(s, type));
	put_int(&m, VALUE_TYPE_UNIT, str_id(s, unit));
	put_message(out, field, &m);
	strbuf_release(&m);
}

/* cpu-clock and task-clock sample periods are nanoseconds of CPU time. */
static int event_is_time(const char *event)
{
	return !strcmp(event, "cpu-clock") || !strcmp(event, "task-clock");
}

static void put_mapping(struct strbuf *out, struct strings *s, json_t *ids, const char *dso, const char *bid)
{
	struct strbuf m = STRBUF_INIT;

	json_object_set_new(ids, dso, json_integer((json_int_t)json_object_size(ids) + 1));
	put_int(&m, MAPPING_ID, (int64_t)json_object_size(ids));
	put_int(&m, MAPPING_FILENAME, str_id(s, dso));
	if (bid)
		put_int(&m, MAPPING_BUILD_ID, str_id(s, bid));
	put_int(&m, MAPPING_HAS_FUNCTIONS, 1);
	put_int(&m, MAPPING_HAS_FILENAMES, 1);
	put_message(out, PROFILE_MAPPING, &m);
	strbuf_release(&m);
}

/*
 * Mappings, one per DSO (ids from 1), with the build-ids the document
 * has.  pprof names the profile after its first mapping: the file with
 * the most samples that is not "[kernel.kallsyms]" or another [name]
 * comes first (profile.dsos is in order of samples).
 */
static json_t *put_mappings(struct strbuf *out, struct strings *s, json_t *profile)
{
	json_t *ids = json_object(), *d, *frame;
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++)
		json_array_foreach(json_object_get(profile, "dsos"), i, d) {
			const char *dso = json_string_value(json_object_get(d, "dso"));

			if (dso && !json_object_get(ids, dso) && (pass || *dso != '['))
				put_mapping(out, s, ids, dso, json_string_value(json_object_get(d, "build_id")));
		}
	json_array_foreach(json_object_get(profile, "frames"), i, frame) {
		const char *dso = json_string_value(json_object_get(frame, "dso"));

		if (dso && !json_object_get(ids, dso))
			put_mapping(out, s, ids, dso, NULL);
	}
	return ids;
}

/* "file.c:LINE" into file (in *file) and LINE; 0 without a line. */
static int64_t split_source(const char *source, struct strbuf *file)
{
	const char *colon = strrchr(source, ':');

	strbuf_reset(file);
	if (!colon) {
		strbuf_addstr(file, source);
		return 0;
	}
	strbuf_add(file, source, (size_t)(colon - source));
	return strtoll(colon + 1, NULL, 10);
}

/* Function and Location i + 1 for frame i. */
static void put_frames(struct strbuf *out, struct strings *s, json_t *frames, json_t *mappings)
{
	struct strbuf m = STRBUF_INIT, line = STRBUF_INIT, file = STRBUF_INIT;
	json_t *f;
	size_t i;

	json_array_foreach(frames, i, f) {
		const char *name = json_string_value(json_object_get(f, "symbol"));
		const char *source = json_string_value(json_object_get(f, "source"));
		const char *dso = json_string_value(json_object_get(f, "dso"));
		int64_t start = source ? split_source(source, &file) : 0;

		if (!name)
			name = "[unknown]";
		put_int(&m, FUNCTION_ID, (int64_t)i + 1);
		put_int(&m, FUNCTION_NAME, str_id(s, name));
		put_int(&m, FUNCTION_SYSTEM_NAME, str_id(s, name));
		if (source)
			put_int(&m, FUNCTION_FILENAME, str_id(s, file.buf));
		put_int(&m, FUNCTION_START_LINE, start);
		put_message(out, PROFILE_FUNCTION, &m);

		put_int(&line, LINE_FUNCTION_ID, (int64_t)i + 1);
		put_int(&m, LOCATION_ID, (int64_t)i + 1);
		if (dso)
			put_int(&m, LOCATION_MAPPING_ID, json_integer_value(json_object_get(mappings, dso)));
		put_message(&m, LOCATION_LINE, &line);
		put_message(out, PROFILE_LOCATION, &m);
	}
	strbuf_release(&m);
	strbuf_release(&line);
	strbuf_release(&file);
}

/* The Location id of details[d] (after the frames'), or 0 for none. */
static uint64_t detail_location(const struct td_export_tree *t, json_int_t d)
{
	return d >= 0 ? json_array_size(t->frames) + 1 + (uint64_t)d : 0;
}

/* One Line of a Location: function id and line. */
static void put_line(struct strbuf *loc, int64_t function, int64_t line)
{
	struct strbuf m = STRBUF_INIT;

	put_int(&m, LINE_FUNCTION_ID, function);
	put_int(&m, LINE_LINE, line);
	put_message(loc, LOCATION_LINE, &m);
	strbuf_release(&m);
}

/* The Functions of inlined functions, by name and file, with ids after the frames'. */
struct inlined_functions {
	json_t *ids;
	int64_t next;
};

static int64_t inlined_function(struct strbuf *out, struct strings *s, struct inlined_functions *fns,
				const char *name, const char *file)
{
	struct strbuf key = STRBUF_INIT, m = STRBUF_INIT;
	json_t *v;
	int64_t id;

	strbuf_addf(&key, "%s\t%s", name, file);
	if ((v = json_object_get(fns->ids, key.buf))) {
		id = json_integer_value(v);
	} else {
		id = fns->next++;
		json_object_set_new(fns->ids, key.buf, json_integer(id));
		put_int(&m, FUNCTION_ID, id);
		put_int(&m, FUNCTION_NAME, str_id(s, name));
		put_int(&m, FUNCTION_SYSTEM_NAME, str_id(s, name));
		put_int(&m, FUNCTION_FILENAME, str_id(s, file));
		put_message(out, PROFILE_FUNCTION, &m);
	}
	strbuf_release(&key);
	strbuf_release(&m);
	return id;
}

/*
 * A Location per sampled instruction with a source line (profile.details,
 * ids after the frames'): its Lines innermost first, the last one in the
 * frame's own Function.
 */
static void put_detail_locations(struct strbuf *out, struct strings *s, const struct td_export_tree *t,
				 json_t *details, json_t *mappings)
{
	struct strbuf m = STRBUF_INIT, file = STRBUF_INIT;
	struct inlined_functions fns = { json_object(), (int64_t)json_array_size(t->frames) + 1 };
	json_t *d, *lvl, *f;
	size_t i, k, nr_levels;

	json_array_foreach(details, i, d) {
		const char *source = json_string_value(json_object_get(d, "source"));
		json_t *chain = json_object_get(d, "inline");
		json_int_t frame = json_integer_value(json_object_get(d, "frame"));
		const char *dso;

		f = json_array_get(t->frames, (size_t)frame);
		dso = json_string_value(json_object_get(f, "dso"));
		put_int(&m, LOCATION_ID, (int64_t)detail_location(t, (json_int_t)i));
		if (dso)
			put_int(&m, LOCATION_MAPPING_ID, json_integer_value(json_object_get(mappings, dso)));
		nr_levels = json_array_size(chain);
		json_array_foreach(chain, k, lvl) {
			const char *name = json_string_value(json_array_get(lvl, 0));
			int64_t line = split_source(json_string_value(json_array_get(lvl, 1)), &file);

			if (k + 1 < nr_levels && name && *name)
				put_line(&m, inlined_function(out, s, &fns, name, file.buf), line);
			else
				put_line(&m, frame + 1, line);
		}
		if (!nr_levels)
			put_line(&m, frame + 1, source ? split_source(source, &file) : 0);
		put_message(out, PROFILE_LOCATION, &m);
	}
	json_decref(fns.ids);
	strbuf_release(&m);
	strbuf_release(&file);
}

/*
 * Top-Down Level 1 in slots, one sample type per Level 1 node ("tma_" and
 * its id, as perf names the metric), for a leader-sampled group whose
 * functions have an estimate: a function's fractions times the slots its
 * own counts cover (hotspots[].topdown), split over its call paths by the
 * leader's count on each.  pprof's per-function values (-top) are then
 * the function's; the split between call paths of one function assumes
 * they behave alike (said in the profile's comments).
 */
#define MAX_L1 16
struct l1_slots {
	const char *ids[MAX_L1];
	struct strbuf names[MAX_L1];
	size_t n;
	json_t *funcs;          /* "symbol\tdso" -> its hotspots[] entry */
};

static void l1_slots_init(struct l1_slots *ls, json_t *doc, const struct td_export_tree *t)
{
	json_t *fn, *node;
	size_t i, k;

	memset(ls, 0, sizeof(*ls));
	ls->funcs = json_object();
	if (!t->nr_names)
		return;
	json_array_foreach(json_object_get(doc, "hotspots"), i, fn) {
		json_t *td = json_object_get(fn, "topdown");
		struct strbuf key = STRBUF_INIT;

		if (!json_is_number(json_object_get(td, "slots")))
			continue;
		if (!json_object_size(ls->funcs))
			json_array_foreach(json_object_get(td, "nodes"), k, node)
				if (json_integer_value(json_object_get(node, "level")) == 1 && ls->n < MAX_L1)
					ls->ids[ls->n++] = json_string_value(json_object_get(node, "id"));
		strbuf_addf(&key, "%s\t%s", td_json_str_or(fn, "symbol", "?"), td_json_str_or(fn, "dso", "?"));
		json_object_set(ls->funcs, key.buf, fn);
		strbuf_release(&key);
	}
	for (k = 0; k < ls->n; k++) {
		strbuf_init(&ls->names[k], 0);
		strbuf_addf(&ls->names[k], "tma_%s", ls->ids[k]);
	}
}

static void l1_slots_release(struct l1_slots *ls)
{
	size_t k;

	for (k = 0; k < ls->n; k++)
		strbuf_release(&ls->names[k]);
	json_decref(ls->funcs);
}

/* The Level 1 slots of a path of node i whose leader counted 'leader'. */
static void l1_slots_values(const struct l1_slots *ls, const struct td_export_tree *t, size_t i, double leader,
			    uint64_t *out)
{
	json_int_t frame = json_integer_value(json_object_get(json_array_get(t->nodes, i), "frame"));
	json_t *f = json_array_get(t->frames, (size_t)frame), *fn, *td, *node;
	struct strbuf key = STRBUF_INIT;
	double slots, own, v;
	size_t k, j;

	for (k = 0; k < ls->n; k++)
		out[k] = 0;
	if (!ls->n || !f)
		return;
	strbuf_addf(&key, "%s\t%s", td_json_str_or(f, "symbol", "?"), td_json_str_or(f, "dso", "?"));
	fn = json_object_get(ls->funcs, key.buf);
	strbuf_release(&key);
	td = json_object_get(fn, "topdown");
	slots = json_number_value(json_object_get(td, "slots"));
	own = json_number_value(json_object_get(json_object_get(fn, "counts"), t->names[0]));
	if (!fn || !(own > 0) || !(leader > 0))
		return;
	for (k = 0; k < ls->n; k++)
		json_array_foreach(json_object_get(td, "nodes"), j, node)
			if (!strcmp(td_json_str_or(node, "id", ""), ls->ids[k]) &&
			    isfinite(v = json_number_value(json_object_get(node, "value"))) && v > 0)
				out[k] = (uint64_t)llround(v * slots * leader / own);
}

/* The sample types, in value order: samples, the event, each member after the leader. */
static void put_sample_types(struct strbuf *out, struct strings *s, const struct td_export_tree *t,
			     const char *event, const struct l1_slots *ls)
{
	size_t k;

	put_value_type(out, PROFILE_SAMPLE_TYPE, s, "samples", "count");
	put_value_type(out, PROFILE_SAMPLE_TYPE, s, event, event_is_time(event) ? "nanoseconds" : "count");
	for (k = 1; k < t->nr_names; k++)
		put_value_type(out, PROFILE_SAMPLE_TYPE, s, t->names[k], "count");
	for (k = 0; k < ls->n; k++)
		put_value_type(out, PROFILE_SAMPLE_TYPE, s, ls->names[k].buf, "slots");
}

/* One Sample: the path of node i (leaf first) and its values. */
struct path_buf {
	int *path;
	size_t alloc;
};

static void put_sample(struct strbuf *out, const struct td_export_tree *t, size_t i, struct path_buf *pb,
		       const uint64_t *values, size_t nr_values, const struct strbuf *labels, uint64_t leaf)
{
	struct strbuf m = STRBUF_INIT, packed = STRBUF_INIT;
	size_t n = td_export_path(t, i, &pb->path, &pb->alloc), k;
	int *path = pb->path;

	if (!n)
		return;
	/* repeated scalars packed, as proto3 writes them */
	for (k = n; k-- > 0;)
		put_varint(&packed, k == n - 1 && leaf ? leaf : (uint64_t)path[k] + 1);
	put_message(&m, SAMPLE_LOCATION_ID, &packed);
	for (k = 0; k < nr_values; k++)
		put_varint(&packed, values[k]);
	put_message(&m, SAMPLE_VALUE, &packed);
	strbuf_add(&m, labels->buf, labels->len);
	put_message(out, PROFILE_SAMPLE, &m);
	strbuf_release(&m);
	strbuf_release(&packed);
}

/* Samples per call path of the whole recording. */
static void put_samples(struct strbuf *out, const struct td_export_tree *t, const struct l1_slots *ls)
{
	uint64_t *v = xcalloc(t->nr_names + 2 + ls->n, sizeof(*v));
	size_t nr_values = (t->nr_names > 1 ? t->nr_names + 1 : 2) + ls->n;
	struct strbuf none = STRBUF_INIT;
	struct path_buf pb = { NULL, 0 };
	size_t i, k;

	for (i = 0; i < json_array_size(t->nodes); i++) {
		if (td_export_weight(t, i, "samples") <= 0)
			continue;
		v[0] = (uint64_t)td_export_weight(t, i, "samples");
		v[1] = (uint64_t)td_export_weight(t, i, "period");
		for (k = 1; k < t->nr_names; k++)
			v[k + 1] = (uint64_t)td_export_weight(t, i, t->names[k]);
		if (ls->n)
			l1_slots_values(ls, t, i, td_export_weight(t, i, t->names[0]), v + nr_values - ls->n);
		put_sample(out, t, i, &pb, v, nr_values, &none, 0);
	}
	free(pb.path);
	free(v);
}

static void put_label(struct strbuf *out, struct strings *s, const char *key, const char *str, int64_t num)
{
	struct strbuf m = STRBUF_INIT;

	put_int(&m, LABEL_KEY, str_id(s, key));
	if (str)
		put_int(&m, LABEL_STR, str_id(s, str));
	else
		put_int(&m, LABEL_NUM, num);
	put_message(out, SAMPLE_LABEL, &m);
	strbuf_release(&m);
}

/* Samples per thread and call path (profile.threads: [node, samples, period, counts]). */
static void put_thread_samples(struct strbuf *out, struct strings *s, const struct td_export_tree *t,
			       json_t *threads, const struct l1_slots *ls)
{
	uint64_t *v = xcalloc(t->nr_names + 2 + ls->n, sizeof(*v));
	size_t nr_values = (t->nr_names > 1 ? t->nr_names + 1 : 2) + ls->n;
	struct strbuf labels = STRBUF_INIT;
	struct path_buf pb = { NULL, 0 };
	json_t *th, *p;
	size_t i, j, k;

	json_array_foreach(threads, i, th) {
		const char *name = json_string_value(json_object_get(th, "name"));

		strbuf_reset(&labels);
		put_label(&labels, s, "thread", name ? name : "?", 0);
		put_label(&labels, s, "tid", NULL, json_integer_value(json_object_get(th, "tid")));
		json_array_foreach(json_object_get(th, "paths"), j, p) {
			json_t *counts = json_array_get(p, 3);
			double c;

			v[0] = (uint64_t)json_integer_value(json_array_get(p, 1));
			v[1] = (uint64_t)json_integer_value(json_array_get(p, 2));
			for (k = 1; k < t->nr_names; k++) {
				c = json_number_value(json_array_get(counts, k));
				v[k + 1] = c > 0 ? (uint64_t)(c + 0.5) : 0;
			}
			if (ls->n)
				l1_slots_values(ls, t, (size_t)json_integer_value(json_array_get(p, 0)),
						json_number_value(json_array_get(counts, 0)), v + nr_values - ls->n);
			put_sample(out, t, (size_t)json_integer_value(json_array_get(p, 0)), &pb, v, nr_values, &labels,
				   detail_location(t, json_is_integer(json_array_get(p, 4)) ?
						   json_integer_value(json_array_get(p, 4)) : -1));
		}
	}
	free(pb.path);
	strbuf_release(&labels);
	free(v);
}

static void put_comments(struct strbuf *out, struct strings *s, json_t *profile)
{
	struct strbuf c = STRBUF_INIT;
	const char *note = json_string_value(json_object_get(profile, "topdown_note"));

	strbuf_addf(&c, "tdperf report --format pprof of %s: %" JSON_INTEGER_FORMAT " samples of %s",
		    json_string_value(json_object_get(profile, "source")),
		    json_integer_value(json_object_get(profile, "samples")),
		    json_string_value(json_object_get(profile, "event")));
	put_int(out, PROFILE_COMMENT, str_id(s, c.buf));
	if (note)
		put_int(out, PROFILE_COMMENT, str_id(s, note));
	strbuf_release(&c);
}

/* gzip (RFC 1952) of data, as pprof expects its files. */
static int write_gzip(const struct strbuf *data, FILE *out, struct strbuf *err)
{
	z_stream z;
	unsigned char buf[65536];
	int ret;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		strbuf_addstr(err, "cannot start zlib");
		return -1;
	}
	z.next_in = (unsigned char *)data->buf;
	z.avail_in = (uInt)data->len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		ret = deflate(&z, Z_FINISH);
		fwrite(buf, 1, sizeof(buf) - z.avail_out, out);
	} while (ret == Z_OK);
	deflateEnd(&z);
	if (ret != Z_STREAM_END) {
		strbuf_addstr(err, "zlib failed to compress the profile");
		return -1;
	}
	return 0;
}

int td_export_pprof(json_t *doc, FILE *out, struct strbuf *err)
{
	json_t *profile = json_object_get(doc, "profile"), *mappings;
	struct td_export_tree t;
	struct l1_slots ls;
	struct strings s = { json_object(), STRBUF_INIT };
	struct strbuf body = STRBUF_INIT, all = STRBUF_INIT;
	const char *event = json_string_value(json_object_get(profile, "event"));
	int ret;

	if (td_export_tree(doc, &t, err) < 0) {
		json_decref(s.index);
		return -1;
	}
	if (!event)
		event = "samples";
	str_id(&s, "");
	l1_slots_init(&ls, doc, &t);
	put_sample_types(&body, &s, &t, event, &ls);
	if (json_array_size(json_object_get(profile, "threads")))
		put_thread_samples(&body, &s, &t, json_object_get(profile, "threads"), &ls);
	else
		put_samples(&body, &t, &ls);
	mappings = put_mappings(&body, &s, profile);
	put_frames(&body, &s, t.frames, mappings);
	put_detail_locations(&body, &s, &t, json_object_get(profile, "details"), mappings);
	put_int(&body, PROFILE_DURATION_NANOS, json_integer_value(json_object_get(profile, "duration_ns")));
	put_value_type(&body, PROFILE_PERIOD_TYPE, &s, event, event_is_time(event) ? "nanoseconds" : "count");
	put_comments(&body, &s, profile);
	if (ls.n)
		put_int(&body, PROFILE_COMMENT, str_id(&s, "tma_* sample types: each function's Top-Down Level 1 "
			"fractions times the slots of its own counts; split over its call paths by the leader's "
			"count, approximate per call path; functions without an estimate (too few samples) have none"));
	put_int(&body, PROFILE_DEFAULT_SAMPLE_TYPE, str_id(&s, event));
	/* the string table last: every index is known by then */
	strbuf_add(&all, body.buf, body.len);
	strbuf_add(&all, s.table.buf, s.table.len);
	ret = write_gzip(&all, out, err);
	json_decref(mappings);
	json_decref(s.index);
	strbuf_release(&s.table);
	strbuf_release(&body);
	strbuf_release(&all);
	l1_slots_release(&ls);
	td_export_tree_release(&t);
	return ret;
}
