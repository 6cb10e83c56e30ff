/*
 * Inputs of a report: a perf stat output or perf.data file imported on
 * the fly, or a run directory (docs/run-format.md).  Either way the result
 * is the same: the count model, the formula table(s) that apply, the SMT
 * state, and the run's metadata as meta.json holds it.
 *
 * The CPU comes from --cpu / --table, else from the run's meta.json, else
 * from the event names (parse/stat-infer.c) and, within the family they
 * name, the table and SMT setting that reproduce perf's printed tma_*
 * values (analyze/cpu-infer.c), with the confidence said.  A
 * file with Top-Down events whose CPU cannot be told is refused with the
 * line of the first model-specific event; a file with only generic events
 * (software events, cycles, ...) gets no table and shows counts only.
 */
#include "config.h"
#include "analyze/analyze-int.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void td_import_release(struct td_import *imp)
{
	size_t i;

	free(imp->path);
	strbuf_release(&imp->data);
	td_stat_file_free(imp->stat);
	td_cpu_guess_release(&imp->guess);
	if (imp->owned_table)
		td_table_free(imp->owned_table);
	if (imp->owned_atom)
		td_table_free(imp->owned_atom);
	for (i = 0; i < imp->nr_clusters; i++) {
		free(imp->clusters[i].pmu);
		if (imp->clusters[i].owned)
			td_table_free(imp->clusters[i].owned);
	}
	free(imp->clusters);
	json_decref(imp->meta);
	json_decref(imp->warnings);
	json_decref(imp->cpu_inference);
	free(imp->hdr_cpuid_text);
	free(imp->hdr_desc);
	td_stream_input_free(imp->streamed);
	memset(imp, 0, sizeof(*imp));
}

static void warn(struct td_import *imp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int import_parsed(const char *path, const struct td_report_opts *opts, int argc, char **argv,
			 struct td_import *imp, struct strbuf *err);
static void arm_sections_from_counts(struct td_import *imp);
static int clusters_from_opts(struct td_import *imp, char **list, struct strbuf *err);
static void warn(struct td_import *imp, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (!imp->warnings)
		imp->warnings = json_array();
	json_array_append_new(imp->warnings, json_string(sb.buf));
	strbuf_release(&sb);
}

/* ":LINE:" for text inputs, ":" when the line is unknown (perf.data) */
static const char *where(int line)
{
	static char buf[32];

	if (line > 0)
		snprintf(buf, sizeof(buf), ":%d:", line);
	else
		snprintf(buf, sizeof(buf), ":");
	return buf;
}

/*
 * The CPU a perf.data file's header names (CPUID, CPUDESC, NRCPUS,
 * CPU_TOPOLOGY, PMU_MAPPINGS): certain where the events only let us guess.
 */
static void read_header_cpu(struct td_import *imp, const char *path)
{
	struct strbuf e = STRBUF_INIT;
	/* from the bytes already read: a pipe or FIFO cannot be opened twice */
	struct td_pd *pd = td_pd_open_mem(imp->data.buf, imp->data.len, path, 0, &e);

	strbuf_release(&e);
	if (!pd)
		return;
	td_pd_cpu(pd, &imp->hdr);
	imp->hdr_cpuid_text = imp->hdr.raw_cpuid ? xstrdup(imp->hdr.raw_cpuid) : NULL;
	imp->hdr_desc = imp->hdr.desc ? xstrdup(imp->hdr.desc) : NULL;
	imp->hdr.raw_cpuid = imp->hdr_cpuid_text;
	imp->hdr.desc = imp->hdr_desc;
	imp->has_hdr = 1;
	td_pd_close(pd);
}

/*
 * No event names the CPU, but perf printed its built-in Top-Down values
 * (--topdown: untitled columns, no counts): the tree of those values
 * (analyze/perf-topdown.c) rather than counts only, saying that no CPU
 * table was picked and what --cpu adds.
 */
static int take_perf_topdown_table(struct td_import *imp, struct strbuf *err)
{
	imp->owned_table = td_perf_topdown_table(err);
	if (!imp->owned_table)
		return -1;
	imp->table = imp->owned_table;
	imp->cpu_source = "none";
	warn(imp, "%s: no event tells the CPU, so no CPU table was picked: Levels 1-2 are the values perf "
	     "printed (its built-in Top-Down formulas), with Intel's Top-Down thresholds; --cpu NAME uses "
	     "that CPU's table (its descriptions and the levels below where counts give them)", imp->path);
	return 0;
}

/* Choose the table(s); -1 with err when a CPU is needed and unknown. */
static int choose_table(struct td_import *imp, const struct td_report_opts *opts,
			const char *meta_uarch, struct strbuf *err)
{
	struct strbuf terr = STRBUF_INIT;
	const struct td_cpu_guess *g = &imp->guess;

	imp->cpu_source = "inferred from events";
	if (opts && opts->table) {
		imp->owned_table = td_table_load(opts->table, &terr);
		if (!imp->owned_table) {
			strbuf_addf(err, "%s", terr.buf);
			strbuf_release(&terr);
			return -1;
		}
		imp->table = imp->owned_table;
		imp->cpu_source = "--table";
	} else if (opts && opts->cpu) {
		imp->table = td_table_find(opts->cpu, &terr);
		if (!imp->table) {
			strbuf_addf(err, "--cpu %s: %s", opts->cpu, terr.buf);
			strbuf_release(&terr);
			return -1;
		}
		imp->cpu_source = "--cpu";
	} else if (imp->has_hdr && imp->hdr.cpuid[0] &&
		   (imp->table = td_table_find(imp->hdr.cpuid, &terr)) != NULL) {
		imp->cpu_source = "perf.data header";
	} else if (meta_uarch && (imp->table = td_table_find(meta_uarch, &terr)) != NULL) {
		imp->cpu_source = "run";
	} else if (meta_uarch && !g->needs_cpu) {
		warn(imp, "the run's CPU '%s' has no formula table here; showing the counts only", meta_uarch);
	} else if (meta_uarch) {
		{
			strbuf_addf(err, "%s: the run's CPU '%s' has no formula table here: %s",
				    imp->path, meta_uarch, terr.buf);
			strbuf_release(&terr);
			return -1;
		}
	} else if (g->table) {
		if (imp->has_hdr && imp->hdr.cpuid[0])
			warn(imp, "the perf.data header names CPUID %s, which no formula table matches; "
			     "the CPU is inferred from the events", imp->hdr_cpuid_text);
		imp->table = td_table_find(g->table, &terr);
		if (!imp->table) {
			strbuf_addf(err, "%s%s the events say %s, but no formula table '%s' is built "
				    "in (%s); give --cpu NAME (tdperf list)", imp->path, where(g->line), g->what,
				    g->table, terr.buf);
			strbuf_release(&terr);
			return -1;
		}
	} else if (g->needs_cpu) {
		if (g->first_model_event)
			strbuf_addf(err, "%s%s cannot tell the CPU from the events (first model-specific "
				    "event '%s' belongs to no CPU tdperf knows); give --cpu NAME (tdperf list)",
				    imp->path, where(g->first_model_line), g->first_model_event);
		else
			strbuf_addf(err, "%s%s perf printed Top-Down metrics but no event tells the "
				    "CPU; give --cpu NAME (tdperf list)", imp->path,
				    where(imp->stat->nr_sessions ? imp->stat->sessions[0].line : 1));
		strbuf_release(&terr);
		return -1;
	} else if (td_stat_prints_builtin_topdown(imp->stat)) {
		if (take_perf_topdown_table(imp, err) < 0) {
			strbuf_release(&terr);
			return -1;
		}
	} else {
		warn(imp, "no Top-Down events in %s: showing the counts only", imp->path);
	}
	if (imp->table && !imp->atom_table)
		imp->atom_table = td_table_atom_partner(imp->table);
	strbuf_release(&terr);
	return 0;
}

static void choose_smt(struct td_import *imp, const struct td_report_opts *opts, json_t *meta_smt)
{
	imp->smt = imp->guess.smt;
	imp->smt_source = imp->smt < 0 ? "unknown" :
			  imp->guess.smt_reason && !strncmp(imp->guess.smt_reason, TD_SMT_FROM_VALUES,
							    strlen(TD_SMT_FROM_VALUES)) ?
			  "inferred from perf's values" : "inferred from events";
	if (imp->has_hdr && imp->hdr.smt >= 0) {
		imp->smt = imp->hdr.smt;
		imp->smt_source = "perf.data header";
	}
	if (meta_smt && json_is_boolean(json_object_get(meta_smt, "on"))) {
		imp->smt = json_is_true(json_object_get(meta_smt, "on"));
		imp->smt_source = "run";
	}
	if (opts && opts->smt) {
		imp->smt = !strcasecmp(opts->smt, "on") || !strcmp(opts->smt, "1");
		imp->smt_source = "--smt";
	}
}

/* The kernel's pre-Ice Lake topdown events: read by analyze/legacy-topdown.c, not by tables. */
static int is_pre_icelake_topdown(const struct td_count *c)
{
	static const char *const names[] = {
		"topdown-total-slots", "topdown-slots-issued", "topdown-slots-retired",
		"topdown-fetch-bubbles", "topdown-recovery-bubbles"
	};
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(names); i++)
		if (c->key && !strcmp(c->key, names[i]))
			return 1;
	return 0;
}

/* Warn once about events the table does not know (they are kept and shown). */
static void check_events(struct td_import *imp)
{
	struct strbuf unknown = STRBUF_INIT;
	size_t i, j, k, n = 0;

	if (!imp->table)
		return;
	for (i = 0; i < imp->stat->nr_sessions; i++) {
		const struct td_stat *st = &imp->stat->sessions[i];
		if (!st->nr_scopes)
			continue;
		for (k = 0; k < st->scopes[0].nr_counts; k++) {
			const struct td_count *c = &st->scopes[0].counts[k];
			const struct td_table *t = td_import_table_for_pmu(imp, c->pmu);
			if (td_report_table_has_event(t, c))
				continue;
			if (td_report_is_generic_event(c) || is_pre_icelake_topdown(c))
				continue;
			if (strstr(unknown.buf, c->event))
				continue;
			if (n++ < 8)
				strbuf_addf(&unknown, "%s%s", unknown.len ? ", " : "", c->event);
		}
	}
	if (n)
		warn(imp, "%zu event(s) unknown to table %s, shown as counts only: %s%s", n,
		     td_table_info(imp->table)->name, unknown.buf, n > 8 ? ", ..." : "");
	(void)j;
	strbuf_release(&unknown);
}

static json_t *json_str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static void iso_now(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* meta.json of an imported run (docs/run-format.md). */
static json_t *import_meta(struct td_import *imp, int argc, char **argv)
{
	json_t *m = json_object(), *cpu = json_object(), *smt = json_object(), *pmus = json_array();
	json_t *files = json_array(), *f, *cl = json_array(), *host = json_object(), *tbl;
	const struct td_stat *st0 = imp->stat->nr_sessions ? &imp->stat->sessions[0] : NULL;
	char now[32], *base = xstrdup(imp->path);
	int i, hw = 0;
	size_t s, j, k;

	for (s = 0; s < imp->stat->nr_sessions; s++)
		for (j = 0; j < imp->stat->sessions[s].nr_scopes; j++)
			for (k = 0; k < imp->stat->sessions[s].scopes[j].nr_counts; k++) {
				const struct td_count *c = &imp->stat->sessions[s].scopes[j].counts[k];
				if (c->status == TD_COUNT_OK && !td_report_is_software_event(c))
					hw = 1;
			}
	iso_now(now, sizeof(now));
	json_object_set_new(m, "format", json_string("tdperf-run"));
	json_object_set_new(m, "version", json_integer(TD_RUN_FORMAT_VERSION));
	json_object_set_new(m, "tdperf_version", json_string(PACKAGE_VERSION));
	json_object_set_new(m, "kind", json_string("import"));
	for (i = 0; i < argc; i++)
		json_array_append_new(cl, json_string(argv[i]));
	json_object_set_new(m, "command_line", cl);
	json_object_set_new(m, "workload", json_null());
	json_object_set_new(m, "start_time", json_null());
	json_object_set_new(m, "end_time", json_null());
	json_object_set_new(m, "imported_at", json_string(now));
	json_object_set_new(m, "exit_status", json_null());
	json_object_set_new(m, "signal", json_null());
	json_object_set_new(host, "hostname", json_null());
	json_object_set_new(host, "kernel", json_null());
	json_object_set_new(host, "perf_version", json_str_or_null(st0 ? st0->perf_version : NULL));
	json_object_set_new(m, "host", host);

	if (imp->has_hdr && imp->hdr.vendor[0])
		json_object_set_new(cpu, "vendor", json_string(imp->hdr.vendor));
	else
		json_object_set_new(cpu, "vendor", imp->table ? json_str_or_null(td_table_info(imp->table)->vendor) : json_null());
	json_object_set_new(cpu, "family", imp->has_hdr && imp->hdr.family >= 0 ? json_integer(imp->hdr.family) : json_null());
	json_object_set_new(cpu, "model", imp->has_hdr && imp->hdr.model >= 0 ? json_integer(imp->hdr.model) : json_null());
	json_object_set_new(cpu, "stepping", imp->has_hdr && imp->hdr.stepping >= 0 ? json_integer(imp->hdr.stepping) : json_null());
	/* inferred: what the events tell, which may be less than the table's name */
	json_object_set_new(cpu, "name", json_str_or_null(imp->hdr_desc ? imp->hdr_desc :
							 td_is_perf_topdown_table(imp->table) ? NULL :
							 imp->table && !(imp->guess.what && imp->cpu_source &&
							 !strcmp(imp->cpu_source, "inferred from events")) ?
							 td_table_info(imp->table)->display : imp->guess.what));
	json_object_set_new(cpu, "cpuid", imp->has_hdr && imp->hdr.cpuid[0] ? json_string(imp->hdr.cpuid) : json_null());
	json_object_set_new(cpu, "microarchitecture", imp->table && !td_is_perf_topdown_table(imp->table) ?
			    json_string(td_table_info(imp->table)->name) : json_null());
	json_object_set_new(cpu, "source", json_string(imp->cpu_source));
	if (!strcmp(imp->cpu_source, "--cpu") || !strcmp(imp->cpu_source, "--table"))
		json_object_set_new(cpu, "confidence", json_string("certain: given on the command line"));
	else if (!strcmp(imp->cpu_source, "perf.data header"))
		json_object_set_new(cpu, "confidence", json_sprintf("certain: the file's CPUID feature says %s%s%s",
			imp->hdr_cpuid_text, imp->hdr_desc ? ", CPUDESC " : "", imp->hdr_desc ? imp->hdr_desc : ""));
	else if (td_is_perf_topdown_table(imp->table))
		json_object_set_new(cpu, "confidence", json_string("unknown: no event tells the CPU (perf's "
			"--topdown columns have no titles and no counts); no CPU table: --cpu NAME picks one"));
	else if (imp->guess.confidence)
		json_object_set_new(cpu, "confidence", json_string(imp->guess.confidence));
	else
		json_object_set_new(cpu, "confidence", json_string("unknown: no event tells the CPU"));
	if (imp->cpu_inference && !strcmp(imp->cpu_source, "inferred from events"))
		json_object_set(cpu, "inference", imp->cpu_inference);
	json_object_set_new(m, "cpu", cpu);

	json_object_set_new(smt, "on", imp->smt < 0 ? json_null() : json_boolean(imp->smt));
	json_object_set_new(smt, "source", json_string(imp->smt_source));
	json_object_set_new(smt, "reason", json_string(!strcmp(imp->smt_source, "--smt") ?
						      "given on the command line" :
						      !strcmp(imp->smt_source, "perf.data header") ? (imp->smt ?
						      "the file's CPU_TOPOLOGY lists cores with two threads" :
						      "the file's CPU_TOPOLOGY lists one thread per core") :
						      imp->guess.smt_reason ? imp->guess.smt_reason : "unknown"));
	json_object_set_new(m, "smt", smt);
	json_object_set_new(m, "cpus_online", json_null());
	json_object_set_new(m, "nr_cpus_online", imp->has_hdr && imp->hdr.nr_online ?
			    json_integer(imp->hdr.nr_online) : json_null());
	if (imp->guess.hybrid || (imp->has_hdr && imp->hdr.hybrid)) {
		json_array_append_new(pmus, json_pack("{s:s,s:n,s:b}", "name", "cpu_core", "type", "hybrid", 1));
		json_array_append_new(pmus, json_pack("{s:s,s:n,s:b}", "name", "cpu_atom", "type", "hybrid", 1));
	} else {
		json_array_append_new(pmus, json_pack("{s:s,s:n,s:b}", "name", "cpu", "type", "hybrid", 0));
	}
	json_object_set_new(m, "pmus", pmus);
	json_object_set_new(m, "hardware_pmu", json_boolean(hw));
	if (imp->table) {
		tbl = json_pack("{s:s,s:s}", "name", td_table_info(imp->table)->name, "file", "table.json");
		if (imp->atom_table)
			json_object_set_new(tbl, "cpu_atom", json_pack("{s:s,s:s}", "name",
				td_table_info(imp->atom_table)->name, "file", "table-cpu_atom.json"));
		json_object_set_new(m, "table", tbl);
	} else {
		json_object_set_new(m, "table", json_null());
	}
	f = json_object();
	json_object_set_new(f, "name", json_sprintf("input/%s", basename(base)));
	json_object_set_new(f, "role", json_string("input"));
	json_object_set_new(f, "format", json_string(imp->format));
	json_array_append_new(files, f);
	json_array_append_new(files, json_pack("{s:s,s:s}", "name", "meta.json", "role", "meta"));
	if (imp->table)
		json_array_append_new(files, json_pack("{s:s,s:s}", "name", "table.json", "role", "table"));
	if (imp->atom_table)
		json_array_append_new(files, json_pack("{s:s,s:s}", "name", "table-cpu_atom.json",
						       "role", "table"));
	json_object_set_new(m, "files", files);
	json_object_set_new(m, "analyses", json_pack("{s:{s:s}}", "topdown", "status",
						     imp->table ? "ok" : "impossible"));
	if (!imp->table)
		json_object_set_new(json_object_get(json_object_get(m, "analyses"), "topdown"), "reason",
				    json_string("no Top-Down events in the input"));
	json_object_set_new(m, "warnings", imp->warnings ? json_deep_copy(imp->warnings) : json_array());
	free(base);
	return m;
}

/*
 * The most text a perf stat output may hold: the parsers keep all of it and
 * its lines in memory, so an endless stream (yes(1), a growing log) ends
 * with an error at this size instead of exhausting memory.
 */
#define MAX_TEXT_INPUT ((size_t)1 << 30)

/*
 * Read an input (path "-": stdin) into sb, opening it once: a FIFO or a
 * pipe cannot be opened twice.  Text is checked as it arrives, so binary
 * data (/dev/zero, a sparse file) is refused at its first NUL byte, within
 * the first block, and text stops at MAX_TEXT_INPUT; a perf.data file
 * (binary by nature, known by its first 8 bytes) is read whole.
 */
int td_read_input(struct strbuf *sb, const char *path, struct strbuf *err)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0, binary = -1;
	size_t checked = 0;
	struct stat st;
	char buf[65536];

	if (fd < 0 || (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && (errno = EISDIR))) {
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		goto fail;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		const char *nul;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
			goto fail;
		}
		strbuf_add(sb, buf, (size_t)n);
		if (binary < 0 && (sb->len >= 8 || !n))
			binary = td_pd_is_perf_data(sb->buf, sb->len);
		if (!binary && (nul = memchr(sb->buf + checked, '\0', sb->len - checked))) {
			strbuf_addf(err, "%s: offset %zu: binary data (a NUL byte), not perf stat output",
				    path, (size_t)(nul - sb->buf));
			goto fail;
		}
		if (!binary) {
			checked = sb->len;
			if (sb->len > MAX_TEXT_INPUT) {
				strbuf_addf(err, "%s: more than %zu MiB of text: not a perf stat output tdperf reads"
					    " (split it, or record with perf stat record)", path, MAX_TEXT_INPUT >> 20);
				goto fail;
			}
		}
		if (!n)
			break;
	}
	if (fd > 0)
		close(fd);
	return 0;
fail:
	if (fd > 0)
		close(fd);
	return -1;
}

int td_import_load(const char *path, const struct td_report_opts *opts, int argc, char **argv,
		   struct td_import *imp, struct strbuf *err)
{
	struct strbuf data = STRBUF_INIT;

	if (opts && opts->stream_scopes && opts->streamed_nodes_only &&
	    td_import_stream(path, MAX_TEXT_INPUT, imp) > 0)
		return import_parsed(path, opts, argc, argv, imp, err);
	if (td_read_input(&data, path, err) < 0) {
		memset(imp, 0, sizeof(*imp));
		strbuf_init(&imp->data, 0);
		strbuf_release(&data);
		return -1;
	}
	return td_import_data(path, &data, opts, argc, argv, imp, err);
}

int td_import_data(const char *path, struct strbuf *data, const struct td_report_opts *opts, int argc,
		   char **argv, struct td_import *imp, struct strbuf *err)
{
	memset(imp, 0, sizeof(*imp));
	imp->data = *data;
	strbuf_init(data, 0);
	imp->path = xstrdup(path);
	if (td_pd_is_perf_data(imp->data.buf, imp->data.len)) {
		imp->stat = td_pd_read_stat_mem(imp->data.buf, imp->data.len, path, err);
		imp->format = "perf.data";
		if (imp->stat)
			read_header_cpu(imp, path);
	} else {
		imp->stat = td_stat_parse(imp->data.buf, imp->data.len, path, err);
		imp->format = imp->stat && imp->stat->nr_sessions ? imp->stat->sessions[0].format : "text";
	}
	if (!imp->stat)
		return -1;
	return import_parsed(path, opts, argc, argv, imp, err);
}

/* The import of parsed counts: the CPU, its table, the checks, meta.json. */
static int import_parsed(const char *path, const struct td_report_opts *opts, int argc, char **argv,
			 struct td_import *imp, struct strbuf *err)
{
	td_stat_file_normalize(imp->stat);
	td_stat_infer_cpu(imp->stat, &imp->guess);
	td_import_infer_by_values(imp);
	if (choose_table(imp, opts, NULL, err) < 0)
		return -1;
	choose_smt(imp, opts, NULL);
	if (opts && clusters_from_opts(imp, opts->clusters, err) < 0)
		return -1;
	check_events(imp);
	arm_sections_from_counts(imp);
	if (imp->stat->nr_sessions > 1)
		warn(imp, "%s holds %zu perf stat sessions; each is reported as its own set of scopes",
		     path, imp->stat->nr_sessions);
	imp->meta = import_meta(imp, argc, argv);
	return 0;
}

/* Copy a file into the run directory being written. */
static int copy_into(const struct td_rundir *rd, const char *src, const char *name, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *dst;
	int ret = 0;

	if (td_read_file(&sb, src) < 0) {
		strbuf_addf(err, "%s: cannot read: %s", src, strerror(errno));
		strbuf_release(&sb);
		return -1;
	}
	dst = td_rundir_file(rd, name);
	if (td_write_file_atomic(dst, sb.buf, sb.len) < 0) {
		strbuf_addf(err, "%s: cannot write: %s", dst, strerror(errno));
		ret = -1;
	}
	free(dst);
	strbuf_release(&sb);
	return ret;
}

int td_import_write_run(const struct td_import *imp, const char *dir, struct strbuf *err)
{
	struct td_rundir rd;
	char *p = NULL, *base = xstrdup(imp->path), *text = NULL;
	struct strbuf name = STRBUF_INIT;

	if (td_rundir_begin(&rd, dir) < 0) {
		if (errno == EBUSY)
			strbuf_addf(err, "%s: another tdperf is writing this run now (%s.tmp-PID exists)", dir, dir);
		else
			strbuf_addf(err, "%s: cannot create the run directory: %s", dir, strerror(errno));
		free(base);
		return -1;
	}
	p = td_rundir_file(&rd, "input");
	if (td_mkdir_p(p) < 0) {
		strbuf_addf(err, "%s: cannot create: %s", p, strerror(errno));
		goto fail;
	}
	free(p);
	strbuf_addf(&name, "input/%s", basename(base));
	p = td_rundir_file(&rd, name.buf);
	if (td_write_file_atomic(p, imp->data.buf, imp->data.len) < 0) {
		strbuf_addf(err, "%s: cannot write: %s", p, strerror(errno));
		goto fail;
	}
	free(p);
	p = NULL;
	if (imp->table && copy_into(&rd, td_table_path(imp->table), "table.json", err) < 0)
		goto fail;
	if (imp->atom_table && copy_into(&rd, td_table_path(imp->atom_table), "table-cpu_atom.json", err) < 0)
		goto fail;
	text = json_dumps(imp->meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	p = td_rundir_file(&rd, "meta.json");
	if (!text || td_write_file_atomic(p, text, strlen(text)) < 0) {
		strbuf_addf(err, "%s: cannot write: %s", p, strerror(errno));
		goto fail;
	}
	if (td_rundir_commit(&rd) < 0) {
		strbuf_addf(err, "%s: cannot publish the run directory: %s", dir, strerror(errno));
		goto fail;
	}
	free(p);
	free(text);
	free(base);
	strbuf_release(&name);
	return 0;
fail:
	td_rundir_abort(&rd);
	free(p);
	free(text);
	free(base);
	strbuf_release(&name);
	return -1;
}

/* ---- run directories ---- */

/*
 * meta.json's version and files: a version that is not a positive integer
 * (a string "1", 1e308, -1) is named as found, not as "missing" or "newer";
 * "files" must be an array of objects whose names are strings.
 */
static int check_meta(json_t *meta, const char *metapath, struct strbuf *err)
{
	json_t *v = json_object_get(meta, "version"), *files = json_object_get(meta, "files"), *f;
	size_t i;

	if (!v) {
		strbuf_addf(err, "%s: no run format version (\"version\" is missing)", metapath);
		return -1;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 1) {
		char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

		strbuf_addf(err, "%s: run format version %.40s is not a version number (an integer from 1)",
			    metapath, text ? text : "?");
		free(text);
		return -1;
	}
	if (json_integer_value(v) > TD_RUN_FORMAT_VERSION) {
		strbuf_addf(err, "%s: run format version %lld is newer than this tdperf understands (%d)",
			    metapath, (long long)json_integer_value(v), TD_RUN_FORMAT_VERSION);
		return -1;
	}
	if (files && !json_is_array(files)) {
		strbuf_addf(err, "%s: \"files\" is not an array", metapath);
		return -1;
	}
	json_array_foreach(files, i, f) {
		json_t *name = json_object_get(f, "name"), *role = json_object_get(f, "role");

		if (!json_is_object(f) || !json_is_string(name) || (role && !json_is_string(role))) {
			strbuf_addf(err, "%s: files[%zu] is not an object with a string \"name\" and \"role\"",
				    metapath, i);
			return -1;
		}
	}
	return 0;
}

/*
 * A file a run's meta.json names must lie inside the run directory: a name
 * like "../../etc/passwd" or a symbolic link out of the run would make a
 * report read (and quote) any file on the machine.
 */
static int inside_run(const char *dir, const char *path, const char *name, size_t i, struct strbuf *err)
{
	char *rd = realpath(dir, NULL), *rp = realpath(path, NULL);
	size_t n = rd ? strlen(rd) : 0;
	int ok = rd && (!rp || (!strncmp(rp, rd, n) && rp[n] == '/'));

	if (name[0] == '/' || !strcmp(name, "..") || !strncmp(name, "../", 3) || strstr(name, "/../") ||
	    (strlen(name) >= 3 && !strcmp(name + strlen(name) - 3, "/..")))
		ok = 0;
	if (!ok)
		strbuf_addf(err, "%s: meta.json files[%zu] names a file outside the run directory", dir, i);
	free(rd);
	free(rp);
	return ok ? 0 : -1;
}

/* Append the sessions of one more perf-stat file of a recorded run. */
static void merge_stat(struct td_stat_file *into, struct td_stat_file *more)
{
	size_t i;

	for (i = 0; i < more->nr_sessions; i++) {
		TD_GROW(into->sessions, into->alloc_sessions, into->nr_sessions + 1);
		into->sessions[into->nr_sessions++] = more->sessions[i];
	}
	more->nr_sessions = 0;
	td_stat_file_free(more);
}

/*
 * perf stat -x prints no "seconds time elapsed"; tdperf record keeps the
 * workload's wall time in meta.json runs[].seconds.  A session without an
 * elapsed time takes its run's, marked as such (duration_time, CPUs
 * utilized and FLOP/s need it).
 */
static void run_elapsed(json_t *meta, json_t *file, struct td_stat_file *sf)
{
	json_t *runs = json_object_get(meta, "runs"), *r;
	json_int_t index = json_integer_value(json_object_get(file, "run"));
	size_t i, k;

	json_array_foreach(runs, i, r) {
		double secs = td_json_num(json_object_get(r, "seconds"));

		if (json_integer_value(json_object_get(r, "index")) != index || isnan(secs) || secs <= 0)
			continue;
		for (k = 0; k < sf->nr_sessions; k++)
			if (isnan(sf->sessions[k].elapsed_s) && !sf->sessions[k].interval) {
				sf->sessions[k].elapsed_s = secs;
				sf->sessions[k].elapsed_from_run = 1;
			}
	}
}

const struct td_table *td_import_table_for_pmu(const struct td_import *imp, const char *pmu)
{
	size_t i;

	if (pmu && !strcmp(pmu, "cpu_atom") && imp->atom_table)
		return imp->atom_table;
	for (i = 0; pmu && i < imp->nr_clusters; i++)
		if (!strcmp(pmu, imp->clusters[i].pmu))
			return imp->clusters[i].table;
	return imp->table;
}

size_t td_import_sections(const struct td_import *imp, const struct td_stat *st)
{
	if (!imp->table)
		return 1;
	if (imp->nr_clusters)
		return imp->nr_clusters;
	return st->hybrid ? 2 : 1;
}

/* A PMU name as the kernel writes them: it becomes part of a file name. */
static int is_pmu_name(const char *s)
{
	return *s && strlen(s) < 64 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(s);
}

/*
 * big.LITTLE Arm runs: meta.json "table" has "pmu" (the first cluster's
 * core PMU) and an object per other cluster, keyed by its PMU, whose
 * table tdperf record copied to table-PMU.json.
 */
static int load_clusters(struct td_import *imp, const char *dir, json_t *table, struct strbuf *err)
{
	const char *first = json_string_value(json_object_get(table, "pmu")), *key;
	json_t *v;

	if (!first)
		return 0;
	if (!is_pmu_name(first)) {
		strbuf_addf(err, "%s/meta.json: table.pmu is not a PMU name", dir);
		return -1;
	}
	imp->clusters = xcalloc(json_object_size(table) + 1, sizeof(*imp->clusters));
	imp->clusters[0].pmu = xstrdup(first);
	imp->clusters[0].table = imp->table;
	imp->nr_clusters = 1;
	json_object_foreach(table, key, v) {
		struct td_cluster *c;
		struct strbuf path = STRBUF_INIT;

		if (!json_is_object(v) || !strcmp(key, "cpu_atom"))
			continue;
		if (!is_pmu_name(key) || !strcmp(key, first)) {
			strbuf_addf(err, "%s/meta.json: table has a cluster entry that is not a PMU name "
				    "or repeats the first", dir);
			return -1;
		}
		strbuf_addf(&path, "%s/table-%s.json", dir, key);
		c = &imp->clusters[imp->nr_clusters];
		c->owned = td_table_load(path.buf, err);
		strbuf_release(&path);
		if (!c->owned)
			return -1;
		c->pmu = xstrdup(key);
		c->table = c->owned;
		imp->nr_clusters++;
	}
	return 0;
}

/*
 * The clusters a live recording counts (opts->clusters, "PMU=TABLE"),
 * each with its core's table, as a run directory's meta.json gives them.
 */
static int clusters_from_opts(struct td_import *imp, char **list, struct strbuf *err)
{
	size_t n = 0, i;

	while (list && list[n])
		n++;
	if (!n || !imp->table)
		return 0;
	imp->clusters = xcalloc(n, sizeof(*imp->clusters));
	for (i = 0; i < n; i++) {
		const char *eq = strchr(list[i], '=');
		struct td_cluster *c = &imp->clusters[imp->nr_clusters];

		if (!eq) {
			strbuf_addf(err, "cluster '%s': not PMU=TABLE", list[i]);
			return -1;
		}
		c->table = i ? td_table_find(eq + 1, err) : imp->table;
		if (!c->table)
			return -1;
		c->pmu = xstrndup(list[i], (size_t)(eq - list[i]));
		imp->nr_clusters++;
	}
	return 0;
}

/*
 * perf stat output of a big.LITTLE Arm system: perf counts an event on
 * every cluster's core PMU and prints each apart
 * ("armv8_cortex_a55/cpu_cycles/", "armv8_cortex_a76/cpu_cycles/").
 * Without the table of each cluster's core, which tdperf record keeps,
 * each PMU still gets a tree of its own rather than a mix of the two, all
 * with the one table there is, and the report says whose core it fits.
 */
static void arm_sections_from_counts(struct td_import *imp)
{
	struct strbuf names = STRBUF_INIT;
	const char **pmus = NULL;
	size_t i, k, j, n = 0;

	if (!imp->table || imp->nr_clusters || !imp->stat)
		return;
	for (i = 0; i < imp->stat->nr_sessions; i++) {
		const struct td_stat *st = &imp->stat->sessions[i];

		for (k = 0; st->nr_scopes && k < st->scopes[0].nr_counts; k++) {
			const char *pmu = st->scopes[0].counts[k].pmu;

			if (!pmu || !td_arm_is_core_pmu(pmu))
				continue;
			for (j = 0; j < n && strcmp(pmus[j], pmu); j++)
				;
			if (j < n)
				continue;
			pmus = xrealloc(pmus, (n + 1) * sizeof(*pmus));
			pmus[n++] = pmu;
			strbuf_addf(&names, "%s%s", n > 1 ? ", " : "", pmu);
		}
	}
	if (n > 1) {
		imp->clusters = xcalloc(n, sizeof(*imp->clusters));
		for (j = 0; j < n; j++) {
			imp->clusters[j].pmu = xstrdup(pmus[j]);
			imp->clusters[j].table = imp->table;
		}
		imp->nr_clusters = n;
		warn(imp, "counts of %zu Arm core PMUs (%s): a big.LITTLE system; each PMU has a tree "
		     "of its own, all with table %s, which fits only the clusters of that core "
		     "(tdperf record counts each cluster with its core's table)", n, names.buf,
		     td_table_info(imp->table)->name);
	}
	free(pmus);
	strbuf_release(&names);
}

int td_run_load(const char *dir, const struct td_report_opts *opts, struct td_import *imp,
		struct strbuf *err)
{
	char *metapath = td_path_join(dir, "meta.json");
	json_error_t jerr;
	json_t *files, *v, *cpu;
	size_t i;
	const char *uarch = NULL;

	memset(imp, 0, sizeof(*imp));
	strbuf_init(&imp->data, 0);
	imp->path = xstrdup(dir);
	imp->format = "run";
	imp->meta = json_load_file(metapath, 0, &jerr);
	if (!imp->meta) {
		if (!td_file_exists(metapath))
			strbuf_addf(err, "%s: not a tdperf run directory (no meta.json)", dir);
		else
			strbuf_addf(err, "%s:%d: %s", metapath, jerr.line, jerr.text);
		free(metapath);
		return -1;
	}
	if (check_meta(imp->meta, metapath, err) < 0) {
		free(metapath);
		return -1;
	}
	free(metapath);
	files = json_object_get(imp->meta, "files");
	json_array_foreach(files, i, v) {
		const char *role = json_string_value(json_object_get(v, "role"));
		const char *name = json_string_value(json_object_get(v, "name"));
		char *p;
		struct td_stat_file *sf;

		if (!role || !name || (strcmp(role, "input") && strcmp(role, "perf-stat")))
			continue;
		p = td_path_join(dir, name);
		if (inside_run(dir, p, name, i, err) < 0) {
			free(p);
			return -1;
		}
		strbuf_reset(&imp->data);
		if (td_read_input(&imp->data, p, err) < 0) {
			free(p);
			return -1;
		}
		if (td_pd_is_perf_data(imp->data.buf, imp->data.len))
			sf = td_pd_read_stat_mem(imp->data.buf, imp->data.len, p, err);
		else
			sf = td_stat_parse(imp->data.buf, imp->data.len, p, err);
		free(p);
		if (!sf)
			return -1;
		td_stat_file_normalize(sf);
		run_elapsed(imp->meta, v, sf);
		if (!imp->stat)
			imp->stat = sf;
		else
			merge_stat(imp->stat, sf);
	}
	if (!imp->stat) {
		strbuf_addf(err, "%s: the run holds no perf stat data (meta.json lists no input or perf-stat file)", dir);
		return -1;
	}
	td_stat_infer_cpu(imp->stat, &imp->guess);
	td_import_infer_by_values(imp);
	cpu = json_object_get(imp->meta, "cpu");
	uarch = json_string_value(json_object_get(cpu, "microarchitecture"));
	if (!(opts && (opts->cpu || opts->table))) {
		/* the run's own copy of the table first: reports reproduce anywhere */
		char *tp = td_path_join(dir, "table.json");
		if (td_file_exists(tp)) {
			struct strbuf terr = STRBUF_INIT;
			imp->owned_table = td_table_load(tp, &terr);
			if (!imp->owned_table) {
				strbuf_addf(err, "%s", terr.buf);
				strbuf_release(&terr);
				free(tp);
				return -1;
			}
			imp->table = imp->owned_table;
			imp->cpu_source = "run";
			strbuf_release(&terr);
			free(tp);
			tp = td_path_join(dir, "table-cpu_atom.json");
			if (td_file_exists(tp)) {
				imp->owned_atom = td_table_load(tp, &terr);
				imp->atom_table = imp->owned_atom;
				strbuf_release(&terr);
			}
			if (load_clusters(imp, dir, json_object_get(imp->meta, "table"), err) < 0) {
				free(tp);
				return -1;
			}
		}
		free(tp);
	}
	if (!imp->table && choose_table(imp, opts, (opts && (opts->cpu || opts->table)) ? NULL : uarch, err) < 0)
		return -1;
	choose_smt(imp, opts, json_object_get(imp->meta, "smt"));
	check_events(imp);
	arm_sections_from_counts(imp);
	v = json_object_get(imp->meta, "warnings");
	json_array_foreach(v, i, files)
		if (json_is_string(files))
			warn(imp, "%s", json_string_value(files));
	return 0;
}

int td_report_import_run(const char *path, const char *dir, const struct td_report_opts *opts,
			 int argc, char **argv, struct strbuf *summary, struct strbuf *err)
{
	struct td_import imp;
	size_t i, scopes = 0;
	int ret = -1;

	memset(&imp, 0, sizeof(imp));
	if (td_import_load(path, opts, argc, argv, &imp, err) < 0 ||
	    td_import_write_run(&imp, dir, err) < 0)
		goto out;
	for (i = 0; i < imp.stat->nr_sessions; i++)
		scopes += imp.stat->sessions[i].nr_scopes;
	strbuf_addf(summary, "%s: %zu session%s, %zu scope%s, CPU %s (%s), written to %s", path,
		    imp.stat->nr_sessions, imp.stat->nr_sessions == 1 ? "" : "s", scopes,
		    scopes == 1 ? "" : "s", imp.table ? td_table_info(imp.table)->name : "none",
		    imp.cpu_source, dir);
	ret = 0;
out:
	td_import_release(&imp);
	return ret;
}

double td_report_file_count(const char *path, const char *event)
{
	struct strbuf err = STRBUF_INIT;
	struct td_stat_file *f = td_stat_parse_file(path, &err);
	const struct td_count *c = NULL;
	double v = NAN;

	if (f && f->nr_sessions && f->sessions[0].nr_scopes)
		c = td_scope_find(&f->sessions[0].scopes[0], NULL, event);
	if (c && c->status == TD_COUNT_OK)
		v = c->value;
	if (f)
		td_stat_file_free(f);
	strbuf_release(&err);
	return v;
}
