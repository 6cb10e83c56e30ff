/*
 * parse/: reads what perf writes.  Nothing here evaluates metrics or prints
 * reports; it turns perf's outputs into the count model below (perf stat
 * text, CSV and JSON output; perf.data files) and back into raw records.
 *
 * Name prefix: td_stat_ (counting data), td_pd_ (perf.data reader).
 *
 * Errors: every parser returns NULL/-1 and fills a struct strbuf with one
 * line "FILE:LINE: what is wrong" (text inputs) or "FILE: offset N: what is
 * wrong" (binary inputs); the caller prefixes "tdperf: " via error().
 */
#ifndef TD_PARSE_H
#define TD_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/* ====================================================================
 * The count model: what one perf stat session measured.
 * ==================================================================== */

enum td_count_status {
	TD_COUNT_OK = 0,
	TD_COUNT_NOT_COUNTED,   /* "<not counted>": scheduled but never ran */
	TD_COUNT_NOT_SUPPORTED, /* "<not supported>": no such event here */
};

/* Kinds of scope a count belongs to (perf's aggregation modes). */
enum td_scope_kind {
	TD_SCOPE_TOTAL = 0, /* whole run, aggregated over everything */
	TD_SCOPE_CPU,       /* -A / --no-aggr: one logical CPU */
	TD_SCOPE_CORE,      /* --per-core */
	TD_SCOPE_DIE,       /* --per-die */
	TD_SCOPE_SOCKET,    /* --per-socket */
	TD_SCOPE_NODE,      /* --per-node */
	TD_SCOPE_THREAD,    /* --per-thread: "comm-tid" */
};
const char *td_scope_kind_name(enum td_scope_kind kind);

/* One counter reading as perf printed it. */
struct td_count {
	char *event;         /* event name as printed, PMU prefix stripped:
	                        "cycles", "TOPDOWN.SLOTS", "topdown-fe-bound" */
	char *pmu;           /* "cpu_core", "cpu_atom", or NULL for the default PMU */
	char *modifiers;     /* ":u", ":k", ... as printed, or NULL */
	double value;        /* scaled count (NAN unless status == OK) */
	char *unit;          /* "msec" for task-clock etc., or NULL */
	enum td_count_status status;
	double running_pct;  /* multiplexing: % of time counted (100 = not
	                        multiplexed); NAN when perf did not say */
	double enabled_ns;   /* from CSV/JSON/perf.data when known, else NAN */
	double running_ns;
	double variance_pct; /* -r N: the "+- x%" column, NAN when absent */
	int group;           /* perf event group index within the block, -1 unknown */
};

/* A metric value perf printed next to a count ("# 41.1 % tma_frontend_bound").
 * Kept to compare with ours; never used as input. */
struct td_perf_metric {
	char *name;          /* as printed: "tma_frontend_bound", "frontend bound",
	                        "insn per cycle" */
	char *pmu;           /* hybrid PMU when it could be told, else NULL */
	double value;        /* as printed: 41.1 for "41.1 %" */
	char *unit;          /* "%", "insn per cycle", ... */
};

/* All counts of one scope at one time: one CPU, one thread, one interval. */
struct td_scope {
	enum td_scope_kind kind;
	char *label;         /* "CPU3", "S0-D0-C1", "comm-1234", NULL for total */
	int cpus;            /* aggregated CPUs perf printed for per-core etc., 0 unknown */
	double time;         /* interval mode: the interval's end in seconds
	                        since start; NAN outside interval mode */
	struct td_count *counts;
	size_t nr_counts, alloc_counts;
	struct td_perf_metric *perf_metrics;
	size_t nr_perf_metrics, alloc_perf_metrics;
};

/*
 * One perf stat session ("Performance counter stats for ..." block, or one
 * CSV/JSON output).  A file may hold several sessions (pasted runs).
 */
struct td_stat {
	char *source;        /* file name it came from */
	char *format;        /* "text", "csv", "json", "perf.data" */
	char *target;        /* "sleep 1", "system wide", "CPU(s) 0-3" */
	char *perf_version;  /* when the input says so, else NULL */
	double elapsed_s;    /* "seconds time elapsed", NAN when absent */
	double user_s, sys_s;
	int repeats;         /* -r N, 1 otherwise */
	int interval;        /* nonzero in interval mode */
	int hybrid;          /* counts for cpu_core/cpu_atom PMUs seen */
	int legacy_topdown;  /* perf <= 6.2 --topdown style annotations seen */
	struct td_scope *scopes; /* in file order; intervals in time order */
	size_t nr_scopes, alloc_scopes;
};

struct td_stat_file {
	struct td_stat *sessions;
	size_t nr_sessions, alloc_sessions;
};

/*
 * Parse perf stat output of any kind (text in any locale, -x CSV with any
 * separator, --json), detected from the content.  'name' is used in error
 * messages.  Returns NULL and fills err on failure.
 */
struct td_stat_file *td_stat_parse(const char *data, size_t len, const char *name,
				   struct strbuf *err);
struct td_stat_file *td_stat_parse_file(const char *path, struct strbuf *err);
void td_stat_file_free(struct td_stat_file *f);

/* Find a count in a scope by event name: case-insensitive, perf alias forms
 * accepted; pmu NULL matches any PMU.  Returns NULL when absent. */
const struct td_count *td_scope_find(const struct td_scope *s, const char *pmu,
				     const char *event);

/* ====================================================================
 * perf.data reader (section owned by the perf.data work; see
 * docs/perf-data-format.md in shared docs and docs/dump-format.md).
 * ==================================================================== */

/* PERF_DATA_READER_API_BEGIN */
/* True when the data starts like a perf.data file (file or pipe mode). */
int td_pd_is_perf_data(const void *data, size_t len);
/*
 * Read a 'perf stat record' perf.data file into the count model (totals,
 * and intervals with -I), as 'perf stat report' would show it.  NULL with
 * "FILE: offset N: what is wrong" in err on failure.
 */
struct td_stat_file *td_pd_read_stat(const char *path, struct strbuf *err);
/* PERF_DATA_READER_API_END */

#endif /* TD_PARSE_H */
