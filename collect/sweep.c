/*
 * tdperf record --sweep PARAM=V1,V2,...: the same workload recorded once per
 * value into one run directory, for the scaling view of Heirman et al. 2011
 * (stacked bars per thread count, speedup curve, the component that grows).
 *
 * For each value V the workload's arguments get "{PARAM}" replaced by V,
 * and for PARAM "threads" OMP_NUM_THREADS=V is also set, so both OpenMP
 * programs and programs taking a thread count work.  Each value is one
 * complete ordinary recording (the record command itself, with --sched so
 * that the thread analysis has its tracepoints) into the subdirectory
 * PARAM-V of the sweep directory; sweep.json lists them (docs/run-format.md).
 * The sweep directory is written like every run directory: in a temporary
 * place, renamed only when every value was recorded.
 */
#include "config.h"
#include "collect/sweep.h"
#include "util/util.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sweep_spec {
	char *param;
	double *values;
	char **labels;           /* the values as written by the user */
	size_t nr;
};

static void spec_release(struct sweep_spec *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->labels[i]);
	free(s->labels);
	free(s->values);
	free(s->param);
	memset(s, 0, sizeof(*s));
}

/*
 * Parse "threads=1,2,4,8".  Values must be positive numbers, distinct.
 * Returns 0, or -1 with err set.
 */
static int parse_spec(const char *text, struct sweep_spec *s, struct strbuf *err)
{
	const char *eq = strchr(text, '=');
	const char *p;
	size_t i, alloc = 0;

	memset(s, 0, sizeof(*s));
	if (!eq || eq == text || !eq[1]) {
		strbuf_addf(err, "--sweep '%s': expected PARAM=V1,V2,... (e.g. threads=1,2,4,8)", text);
		return -1;
	}
	s->param = xstrndup(text, eq - text);
	for (p = s->param; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9'))) {
			strbuf_addf(err, "--sweep '%s': the parameter name may only hold letters, digits and _",
				    text);
			return -1;
		}
	for (p = eq + 1; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char *label = xstrndup(p, len), *end;
		double v = strtod(label, &end);

		if (!len || *end || !(v > 0) || !isfinite(v)) {
			strbuf_addf(err, "--sweep '%s': '%s' is not a positive number", text, label);
			free(label);
			return -1;
		}
		for (i = 0; i < s->nr; i++)
			if (s->values[i] == v) {
				strbuf_addf(err, "--sweep '%s': %s is given twice", text, label);
				free(label);
				return -1;
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
		return -1;
	}
	return 0;
}

/* Replace every "{param}" in arg by value (a new string). */
static char *substitute(const char *arg, const char *param, const char *value)
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

static char *utc_now(void)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

static json_t *argv_json(int argc, char **argv)
{
	json_t *a = json_array();
	int i;

	if (argc > 0 && !strcmp(argv[0], "record"))
		json_array_append_new(a, json_string("tdperf")); /* the command line as typed */
	for (i = 0; i < argc; i++)
		json_array_append_new(a, json_string(argv[i]));
	return a;
}

/*
 * Options of 'tdperf record' that take a separate argument (see its usage
 * text in src/cmd-record.c): needed to tell where the command starts when
 * it is not preceded by "--".
 */
int td_record_option_takes_argument(const char *opt)
{
	static const char *const with_arg[] = {
		"-l", "--level", "-r", "--repeat", "-I", "--interval-print", "-C", "--cpu-list",
		"--nodes", "--metrics", "--stacks", "--cpu", "--tolerance", "--smt",
		"--nmi-watchdog", "--counters", "-o", "--output", "-p", "--pid", "--sweep", "--gather",
	};
	size_t i;

	for (i = 0; i < sizeof(with_arg) / sizeof(with_arg[0]); i++)
		if (!strcmp(opt, with_arg[i]))
			return 1;
	return 0;
}

int td_sweep_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--sweep") || !strncmp(argv[i], "--sweep=", 8))
			return 1;
	return 0;
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

int td_sweep_record(int argc, char **argv, int (*record)(int argc, char **argv))
{
	struct strbuf err = STRBUF_INIT;
	struct sweep_spec spec;
	struct td_rundir rd;
	const char *spec_text = NULL, *output = TD_RUN_DEFAULT;
	char **opts = xcalloc(argc + 4, sizeof(char *));
	int nr_opts = 0, first_cmd = argc, i, worst = 0, ret = 2;
	size_t v;
	json_t *sweep, *runs, *meta, *files;
	char *start_time;

	/* split: record's own options (minus --sweep/-o), then the workload */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			first_cmd = i + 1;
			break;
		}
		if (!strcmp(argv[i], "--sweep") && i + 1 < argc)
			spec_text = argv[++i];
		else if (!strncmp(argv[i], "--sweep=", 8))
			spec_text = argv[i] + 8;
		else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc)
			output = argv[++i];
		else if (!strncmp(argv[i], "--output=", 9))
			output = argv[i] + 9;
		else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pid") ||
			 !strcmp(argv[i], "-a") || !strcmp(argv[i], "--all-cpus")) {
			error("--sweep runs a command once per value: it cannot be used with %s", argv[i]);
			free(opts);
			return 2;
		} else if (argv[i][0] != '-') {
			first_cmd = i; /* the command starts without "--" */
			break;
		} else {
			opts[nr_opts++] = argv[i];
			if (td_record_option_takes_argument(argv[i]) && i + 1 < argc)
				opts[nr_opts++] = argv[++i];
		}
	}
	if (!spec_text) {
		free(opts);
		return error("--sweep needs PARAM=V1,V2,... (e.g. threads=1,2,4,8)"), 2;
	}
	if (first_cmd >= argc) {
		free(opts);
		return error("--sweep needs a command to run"), 2;
	}
	if (parse_spec(spec_text, &spec, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		spec_release(&spec);
		free(opts);
		return 2;
	}
	if (td_rundir_begin(&rd, output) < 0) {
		error("%s: cannot create the run directory: %s", output, strerror(errno));
		spec_release(&spec);
		free(opts);
		return 2;
	}
	start_time = utc_now();
	runs = json_array();
	for (v = 0; v < spec.nr; v++) {
		struct strbuf dir = STRBUF_INIT;
		int nr_cmd = argc - first_cmd, k = 0, rc, j;
		char **sub = xcalloc(nr_opts + nr_cmd + 6, sizeof(char *));
		char **cmd = xcalloc(nr_cmd + 1, sizeof(char *));
		char *subpath;

		strbuf_addf(&dir, "%s-%s", spec.param, spec.labels[v]);
		subpath = td_rundir_file(&rd, dir.buf);
		sub[k++] = argv[0];
		for (j = 0; j < nr_opts; j++)
			sub[k++] = opts[j];
		sub[k++] = "--sched"; /* the thread analysis needs the tracepoints */
		sub[k++] = "-o";
		sub[k++] = subpath;
		sub[k++] = "--";
		for (j = 0; j < nr_cmd; j++)
			sub[k++] = cmd[j] = substitute(argv[first_cmd + j], spec.param, spec.labels[v]);
		if (!strcmp(spec.param, "threads"))
			setenv("OMP_NUM_THREADS", spec.labels[v], 1);
		note("sweep: %s=%s", spec.param, spec.labels[v]);
		rc = record(k, sub);
		json_array_append_new(runs, json_pack("{s:f, s:s, s:o, s:i}",
			"value", spec.values[v], "dir", dir.buf,
			"workload", argv_json(nr_cmd, cmd), "exit_status", rc));
		for (j = 0; j < nr_cmd; j++)
			free(cmd[j]);
		free(cmd);
		free(sub);
		free(subpath);
		strbuf_release(&dir);
		subpath = td_rundir_file(&rd, json_string_value(json_object_get(json_array_get(runs, v), "dir")));
		if (!td_is_dir(subpath)) {
			error("sweep: %s=%s was not recorded (exit status %d): the sweep is abandoned",
			      spec.param, spec.labels[v], rc);
			free(subpath);
			json_decref(runs);
			goto fail;
		}
		free(subpath);
		if (rc && !worst)
			worst = rc;
	}
	sweep = json_pack("{s:s, s:i, s:s, s:o, s:o, s:s, s:o}",
			  "format", "tdperf-sweep", "version", 1, "parameter", spec.param,
			  "command_line", argv_json(argc, argv),
			  "workload", argv_json(argc - first_cmd, argv + first_cmd),
			  "start_time", start_time, "runs", runs);
	files = json_array();
	json_array_append_new(files, json_pack("{s:s, s:s}", "name", "sweep.json", "role", "sweep"));
	for (v = 0; v < spec.nr; v++)
		json_array_append_new(files, json_pack("{s:s, s:s}", "name",
			json_string_value(json_object_get(json_array_get(runs, v), "dir")), "role", "sweep-run"));
	meta = json_pack("{s:s, s:i, s:s, s:s, s:o, s:o, s:s, s:o}",
			 "format", "tdperf-run", "version", TD_RUN_FORMAT_VERSION,
			 "tdperf_version", PACKAGE_VERSION, "kind", "sweep",
			 "command_line", argv_json(argc, argv),
			 "workload", argv_json(argc - first_cmd, argv + first_cmd),
			 "start_time", start_time, "files", files);
	if (write_json(&rd, "sweep.json", sweep, &err) < 0 ||
	    write_json(&rd, "meta.json", meta, &err) < 0) {
		error("%s", err.buf);
		json_decref(sweep);
		json_decref(meta);
		goto fail;
	}
	json_decref(sweep);
	json_decref(meta);
	if (td_rundir_commit(&rd) < 0) {
		error("%s: cannot publish the run directory: %s", output, strerror(errno));
		goto fail;
	}
	ret = worst;
	goto out;
fail:
	td_rundir_abort(&rd);
	ret = 2;
out:
	free(start_time);
	spec_release(&spec);
	strbuf_release(&err);
	free(opts);
	return ret;
}
