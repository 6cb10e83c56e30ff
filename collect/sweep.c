/*
 * tdperf record --sweep PARAM=V1,V2,...: the same workload recorded once per
 * value into one run directory, for the scaling view of Heirman et al. 2011
 * (stacked bars per thread count, speedup curve, the component that grows).
 *
 * For each value V the workload's arguments get "{PARAM}" replaced by V,
 * and for PARAM "threads" OMP_NUM_THREADS=V is also set, so both OpenMP
 * programs and programs taking a thread count work.  Each value is one
 * complete ordinary recording (with --sched, so that the thread analysis
 * has its tracepoints) into the subdirectory PARAM-V of the sweep
 * directory; sweep.json lists them (docs/run-format.md).  The sweep
 * directory is written like every run directory: in a temporary place,
 * renamed only when every value was recorded.
 *
 * The record command runs the values (src/cmd-record.c); here are the
 * pieces it is made of: the PARAM=V1,V2,... list, the substitution, and
 * the sweep's own files.
 */
#include "config.h"
#include "collect/sweep.h"
#include "util/util.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void td_sweep_release(struct td_sweep *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->labels[i]);
	free(s->labels);
	free(s->values);
	free(s->param);
	json_decref(s->runs);
	memset(s, 0, sizeof(*s));
}

int td_sweep_parse(const char *text, struct td_sweep *s, struct strbuf *err)
{
	const char *eq = strchr(text, '=');
	const char *p;
	size_t i, alloc = 0;

	memset(s, 0, sizeof(*s));
	if (!eq || eq == text || !eq[1]) {
		strbuf_addf(err, "--sweep '%s': expected PARAM=V1,V2,... (e.g. threads=1,2,4,8)", text);
		goto fail;
	}
	s->param = xstrndup(text, eq - text);
	for (p = s->param; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9'))) {
			strbuf_addf(err, "--sweep '%s': the parameter name may only hold letters, digits and _",
				    text);
			goto fail;
		}
	for (p = eq + 1; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char *label = xstrndup(p, len), *end;
		double v = strtod(label, &end);

		if (!len || *end || !(v > 0) || !isfinite(v)) {
			strbuf_addf(err, "--sweep '%s': '%s' is not a positive number", text, label);
			free(label);
			goto fail;
		}
		for (i = 0; i < s->nr; i++)
			if (s->values[i] == v) {
				strbuf_addf(err, "--sweep '%s': %s is given twice", text, label);
				free(label);
				goto fail;
			}
		if (s->nr == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			s->values = xrealloc(s->values, alloc * sizeof(*s->values));
			s->labels = xrealloc(s->labels, alloc * sizeof(*s->labels));
		}
		s->values[s->nr] = v;
		s->labels[s->nr++] = label;
		p += len;
		if (*p == ',')
			p++;
	}
	if (s->nr < 1) {
		strbuf_addf(err, "--sweep '%s': no values", text);
		goto fail;
	}
	return 0;
fail:
	td_sweep_release(s);
	return -1;
}

char *td_sweep_substitute(const char *arg, const char *param, const char *value)
{
	struct strbuf sb = STRBUF_INIT, key = STRBUF_INIT;
	const char *p = arg, *hit;

	strbuf_addf(&key, "{%s}", param);
	while ((hit = strstr(p, key.buf)) != NULL) {
		strbuf_add(&sb, p, hit - p);
		strbuf_addstr(&sb, value);
		p = hit + key.len;
	}
	strbuf_addstr(&sb, p);
	strbuf_release(&key);
	return strbuf_detach(&sb, NULL);
}

static json_t *argv_json(int argc, char *const *argv)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < argc; i++)
		json_array_append_new(a, json_string(argv[i]));
	return a;
}

char *td_sweep_dirname(const struct td_sweep *s, size_t i)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s-%s", s->param, s->labels[i]);
	return strbuf_detach(&sb, NULL);
}

void td_sweep_add_run(struct td_sweep *s, size_t i, int argc, char *const *workload, int exit_status)
{
	char *dir = td_sweep_dirname(s, i);

	if (!s->runs)
		s->runs = json_array();
	json_array_append_new(s->runs, json_pack("{s:f, s:s, s:o, s:i}",
		"value", s->values[i], "dir", dir, "workload", argv_json(argc, workload),
		"exit_status", exit_status));
	free(dir);
}

/* Write a JSON document atomically into the sweep directory. */
static int write_json(const struct td_rundir *rd, const char *name, json_t *j, struct strbuf *err)
{
	char *path = td_rundir_file(rd, name);
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	int ret = td_write_file_atomic(path, text, strlen(text));

	if (ret < 0)
		strbuf_addf(err, "%s: %s", path, strerror(errno));
	free(path);
	free(text);
	return ret;
}

int td_sweep_write_index(const struct td_rundir *rd, const struct td_sweep *s, int argc, char **argv,
			 int first_cmd, const char *start_time, struct strbuf *err)
{
	json_t *cl = argv_json(argc, argv), *sweep, *meta, *files;
	size_t i;
	int ret;

	json_array_insert_new(cl, 0, json_string("tdperf")); /* the command line as typed */
	sweep = json_pack("{s:s, s:i, s:s, s:O, s:o, s:s, s:O}",
			  "format", "tdperf-sweep", "version", 1, "parameter", s->param,
			  "command_line", cl, "workload", argv_json(argc - first_cmd, argv + first_cmd),
			  "start_time", start_time, "runs", s->runs);
	files = json_array();
	json_array_append_new(files, json_pack("{s:s, s:s}", "name", "sweep.json", "role", "sweep"));
	for (i = 0; i < json_array_size(s->runs); i++)
		json_array_append_new(files, json_pack("{s:s, s:s}", "name",
			json_string_value(json_object_get(json_array_get(s->runs, i), "dir")), "role", "sweep-run"));
	meta = json_pack("{s:s, s:i, s:s, s:s, s:o, s:o, s:s, s:o}",
			 "format", "tdperf-run", "version", TD_RUN_FORMAT_VERSION,
			 "tdperf_version", PACKAGE_VERSION, "kind", "sweep",
			 "command_line", cl, "workload", argv_json(argc - first_cmd, argv + first_cmd),
			 "start_time", start_time, "files", files);
	ret = write_json(rd, "sweep.json", sweep, err) < 0 || write_json(rd, "meta.json", meta, err) < 0 ? -1 : 0;
	json_decref(sweep);
	json_decref(meta);
	return ret;
}
