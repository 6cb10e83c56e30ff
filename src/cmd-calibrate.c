/*
 * tdperf calibrate: measure this machine's roofs (collect/calibrate.c) and
 * keep them per CPU model, where the roofline analysis finds them.
 */
#include "collect/calibrate.h"
#include "metrics/roofline.h"
#include "src/builtin.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const calibrate_usage[] = {
	"tdperf calibrate [--quick] [--threads N] [--format text|json] [--show] [--no-save]",
	"                 [-o FILE] [-v]",
	"",
	"Measure this machine's roofs for the roofline model with built-in micro-benchmarks",
	"(no hardware counters needed): peak FP throughput per precision and vector width,",
	"load and store bandwidth and load latency of L1, L2, L3 and DRAM, and the core clock.",
	"The result is kept per CPU model in $XDG_CACHE_HOME/tdperf/ (default ~/.cache/tdperf/),",
	"one entry per thread count, where 'tdperf report' finds it for the roofline.",
	"",
	"Close other work first: a busy machine gives low and noisy figures (the spread of the",
	"repetitions is kept with every figure).",
	NULL,
};

/* Print one measurement "value (spread x%)" into sb, "-" when absent. */
static void add_measure(struct strbuf *sb, json_t *m, double scale, const char *fmt)
{
	json_t *v = json_object_get(m, "value"), *s = json_object_get(m, "spread");

	if (!json_is_number(v)) {
		strbuf_addf(sb, "%22s", "-");
		return;
	}
	strbuf_addf(sb, fmt, json_number_value(v) * scale);
	if (json_is_number(s))
		strbuf_addf(sb, "  (±%4.1f%%)", 100 * json_number_value(s) / 2);
	else
		strbuf_addstr(sb, "           ");
}

static void human_size(struct strbuf *sb, double bytes)
{
	if (!isfinite(bytes))
		strbuf_addstr(sb, "?");
	else if (bytes >= 1 << 30)
		strbuf_addf(sb, "%.0f GiB", bytes / (1 << 30));
	else if (bytes >= 1 << 20)
		strbuf_addf(sb, "%.0f MiB", bytes / (1 << 20));
	else
		strbuf_addf(sb, "%.0f KiB", bytes / 1024);
}

/* The text view of one calibration entry. */
static void render_text(json_t *doc, json_t *e, const char *saved_to, struct strbuf *sb)
{
	json_t *cpu = json_object_get(doc, "cpu"), *x;
	size_t i;

	strbuf_addf(sb, "CPU:      %s (%s)\n", json_string_value(json_object_get(cpu, "name")),
		    json_string_value(json_object_get(cpu, "cpuid")));
	strbuf_addf(sb, "Measured: %s, %s mode, %lld thread(s), %.1f s, load average before %.2f\n",
		    json_string_value(json_object_get(e, "date")),
		    json_string_value(json_object_get(e, "mode")),
		    (long long)json_integer_value(json_object_get(e, "threads")),
		    json_number_value(json_object_get(e, "duration_s")),
		    json_number_value(json_object_get(e, "load_average")));
	strbuf_addstr(sb, "Clock:    ");
	add_measure(sb, json_object_get(e, "clock_ghz"), 1, "%6.2f GHz");
	strbuf_addstr(sb, "\n\nPeak FP throughput        GFLOP/s   (± half spread)  FLOP/cycle\n");
	json_array_foreach(json_object_get(e, "flops"), i, x) {
		json_t *fpc = json_object_get(x, "flops_per_cycle");
		strbuf_addf(sb, "  %-3s %-7s", json_string_value(json_object_get(x, "precision")),
			    json_string_value(json_object_get(x, "width")));
		strbuf_addstr(sb, "          ");
		add_measure(sb, json_object_get(x, "gflops"), 1, "%10.2f");
		if (json_is_number(fpc))
			strbuf_addf(sb, "  %9.2f", json_number_value(fpc));
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, "\nMemory   working set   load GB/s (± half spread)  store GB/s (± half spread)"
		      "  latency ns (± half spread)\n");
	json_array_foreach(json_object_get(e, "memory"), i, x) {
		struct strbuf ws = STRBUF_INIT;
		human_size(&ws, json_number_value(json_object_get(x, "working_set")));
		strbuf_addf(sb, "  %-5s %12s", json_string_value(json_object_get(x, "level")), ws.buf);
		add_measure(sb, json_object_get(x, "load_gbs"), 1, "%10.2f");
		add_measure(sb, json_object_get(x, "store_gbs"), 1, "%10.2f");
		add_measure(sb, json_object_get(x, "latency_ns"), 1, "%10.2f");
		strbuf_addch(sb, '\n');
		strbuf_release(&ws);
	}
	if (json_array_size(json_object_get(e, "sweep"))) {
		strbuf_addstr(sb, "\nWorking-set sweep    load GB/s   latency ns\n");
		json_array_foreach(json_object_get(e, "sweep"), i, x) {
			struct strbuf ws = STRBUF_INIT;
			human_size(&ws, json_number_value(json_object_get(x, "working_set")));
			strbuf_addf(sb, "  %12s %12.2f %12.2f\n", ws.buf,
				    json_number_value(json_object_get(json_object_get(x, "load_gbs"), "value")),
				    json_number_value(json_object_get(json_object_get(x, "latency_ns"), "value")));
			strbuf_release(&ws);
		}
	}
	json_array_foreach(json_object_get(e, "warnings"), i, x)
		strbuf_addf(sb, "\nwarning: %s", json_string_value(x));
	if (json_array_size(json_object_get(e, "warnings")))
		strbuf_addch(sb, '\n');
	if (saved_to)
		strbuf_addf(sb, "\nSaved to %s\n", saved_to);
}

/* The entry of a document for 'threads' threads (NULL: the last one). */
static json_t *find_entry(json_t *doc, int threads)
{
	json_t *entries = json_object_get(doc, "entries"), *e;
	size_t i;

	json_array_foreach(entries, i, e)
		if (json_integer_value(json_object_get(e, "threads")) == threads)
			return e;
	return NULL;
}

static int print_document(const char *text, int threads, int json, const char *saved_to)
{
	json_error_t jerr;
	json_t *doc = json_loads(text, 0, &jerr), *e;
	struct strbuf sb = STRBUF_INIT;

	if (!doc)
		die("internal error: calibration document: %s", jerr.text);
	if (json) {
		fputs(text, stdout);
	} else {
		e = find_entry(doc, threads);
		if (!e) {
			json_decref(doc);
			return error("no calibration for %d thread(s) in %s: run 'tdperf calibrate --threads %d'",
				     threads, saved_to ? saved_to : "the file", threads);
		}
		render_text(doc, e, saved_to, &sb);
		fputs(sb.buf, stdout);
	}
	strbuf_release(&sb);
	json_decref(doc);
	return 0;
}

/* Create the directory that will hold 'path' (the cache's); 0, or -1 after one line. */
static int make_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int ret = 0;

	if (!slash || slash == path)
		return 0;
	dir = xstrndup(path, (size_t)(slash - path));
	if (td_mkdir_p(dir) < 0)
		ret = error("%s: cannot create: %s", dir, strerror(errno));
	free(dir);
	return ret;
}

int cmd_calibrate(int argc, char **argv)
{
	struct td_cal_opts opts = { .threads = 1 };
	struct td_cal_cpu cpu;
	struct td_cal_result r;
	struct strbuf err = STRBUF_INIT, doc = STRBUF_INIT;
	const char *output = NULL, *format = "text";
	char *path;
	int json, show = 0, save = 1, ret = 0;
	const struct td_option options[] = {
		TD_OPT_BOOL(0, "quick", &opts.quick,
			    "about 3 seconds: shorter runs, 3 repetitions, no working-set sweep"),
		TD_OPT_INT_RANGE(0, "threads", &opts.threads, 1, 256, "N",
				 "N benchmark threads, each pinned to its own CPU (default 1)"),
		TD_OPT_CHOICE(0, "format", &format, "text|json",
			      "text (default) or json (the calibration file's document)"),
		TD_OPT_BOOL(0, "show", &show, "print the saved calibration of this CPU; measure nothing"),
		TD_OPT_SET_INT(0, "no-save", &save, 0, "measure and print, keep nothing"),
		TD_OPT_STRING('o', "output", &output, "FILE", "save to FILE instead of the per-CPU cache file"),
		TD_OPT_BOOL('v', "verbose", &opts.verbose, "say what is being measured"),
		TD_OPT_END(),
	};

	argc = td_parse_options(argc, argv, options, calibrate_usage, 0);
	if (argc > 0)
		return td_usage_error(calibrate_usage, "unexpected argument '%s'", argv[0]);
	json = !strcmp(format, "json");

	if (td_cal_cpu_detect(&cpu, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	path = output ? xstrdup(output) : td_peaks_cache_path(cpu.key);
	if (!path && (show || save)) {
		/* no home: say so, and keep nothing rather than a ./.cache wherever we run */
		td_peaks_no_cache_dir(&err);
		if (show) {
			error("%s (name the file with -o)", err.buf);
			ret = 2;
			goto out;
		}
		warning("%s; the calibration is not saved (name a file with -o)", err.buf);
		strbuf_reset(&err);
		save = 0;
	}

	if (show) {
		if (td_read_file(&doc, path) < 0) {
			ret = error("%s: %s%s", path, strerror(errno),
				    errno == ENOENT ? " (this CPU is not calibrated yet: run 'tdperf calibrate')" : "");
			ret = 2;
		} else {
			ret = print_document(doc.buf, opts.threads, json, path) ? 2 : 0;
		}
		goto out;
	}

	/* refuse before measuring, not after */
	if (save && td_cal_check_file(path, &err) < 0) {
		error("%s", err.buf);
		ret = 2;
		goto out;
	}
	if (save && make_parent(path) < 0) {
		ret = 2;
		goto out;
	}
	if (td_calibrate(&opts, &r, &err) < 0) {
		error("%s", err.buf);
		ret = 2;
		goto out;
	}
	if (td_cal_document(save ? path : NULL, &cpu, &r, &doc, &err) < 0) {
		error("%s", err.buf);
		ret = 2;
	} else if (save) {
		if (td_write_file_atomic(path, doc.buf, doc.len) < 0) {
			error("%s: cannot write: %s", path, strerror(errno));
			ret = 2;
		}
	}
	if (!ret)
		print_document(doc.buf, opts.threads, json, save ? path : NULL);
	td_cal_result_release(&r);
out:
	free(path);
	td_cal_cpu_release(&cpu);
	strbuf_release(&doc);
	strbuf_release(&err);
	return ret;
}
