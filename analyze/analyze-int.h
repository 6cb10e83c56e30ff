/*
 * Internal to analyze/: the inputs of a report (analyze/import.c) and the
 * pieces the builder and the renderers share.
 */
#ifndef TD_ANALYZE_INT_H
#define TD_ANALYZE_INT_H

#include "analyze/report.h"
#include "analyze/compare.h"
#include "parse/parse.h"
#include "metrics/table.h"

struct td_stream_input;

struct td_import {
	char *path;                  /* the file or run directory */
	struct strbuf data;          /* the input's bytes (file imports) */
	const char *format;          /* "text", "csv", "json", "perf.data", "run" */
	struct td_stat_file *stat;
	struct td_cpu_guess guess;
	const struct td_table *table;      /* NULL: counts only */
	const struct td_table *atom_table; /* hybrid: the cpu_atom table */
	struct td_table *owned_table, *owned_atom; /* loaded from files */
	/*
	 * big.LITTLE Arm runs: one section per cluster PMU counted, the
	 * first with 'table' (meta.json "table"."pmu" and its cluster keys).
	 */
	struct td_cluster {
		char *pmu;
		const struct td_table *table;
		struct td_table *owned;
	} *clusters;
	size_t nr_clusters;
	const char *cpu_source;      /* "--cpu", "--table", "run", "inferred from events" */
	json_t *cpu_inference;       /* how the tables fit (meta.json cpu.inference), or NULL */
	int smt;                     /* 1, 0, -1 unknown */
	const char *smt_source;
	json_t *meta;                /* meta.json (docs/run-format.md) */
	json_t *warnings;            /* array of strings, or NULL */
	/* perf.data: the CPU its header names (strings owned: hdr_cpuid_text, hdr_desc) */
	int has_hdr;
	struct td_pd_cpu hdr;
	char *hdr_cpuid_text, *hdr_desc;
	/* a long interval run read twice, not held (analyze/stream-input.c), or NULL */
	struct td_stream_input *streamed;
};

/* Import a perf stat output / perf.data file (argv: the command line, for meta.json). */
int td_import_load(const char *path, const struct td_report_opts *opts, int argc, char **argv,
		   struct td_import *imp, struct strbuf *err);
/* The same from its bytes, already read (taken from 'data'). */
int td_import_data(const char *path, struct strbuf *data, const struct td_report_opts *opts, int argc,
		   char **argv, struct td_import *imp, struct strbuf *err);
/*
 * analyze/stream-input.c: import path without holding its intervals when
 * it is a plain file of one perf stat session of interval totals (text
 * or CSV, at most max_len bytes, every interval of the first one's
 * shape).  1: done, imp->stat holds the session with its first interval
 * only, as td_import_load would have parsed it otherwise; 0: not such a
 * file (imp untouched; read it as usual).
 */
int td_import_stream(const char *path, size_t max_len, struct td_import *imp);
void td_stream_input_free(struct td_stream_input *si);
/* The derived total of a streamed import and its number of intervals; NULL when not streamed. */
const struct td_scope *td_import_streamed_sum(const struct td_import *imp, size_t *nr_scopes);
/*
 * Each interval scope of a streamed import, in input order, read again
 * from the file and freed after fn.  Dies (exit 2) naming the file when
 * the file is no longer the one the import read.
 */
void td_import_each_streamed(const struct td_import *imp, void (*fn)(const struct td_scope *s, void *ctx),
			     void *ctx);
/*
 * analyze/cpu-infer.c: within the family the event names gave (imp->guess),
 * the table that knows the counted events and reproduces perf's printed
 * tma_* values, and the SMT setting that does; rewrites imp->guess's table,
 * sentences and SMT when they tell.
 */
void td_import_infer_by_values(struct td_import *imp);
/* How the SMT sentence of a setting told by perf's values begins. */
#define TD_SMT_FROM_VALUES "inferred from perf's printed values"
/* Load a run directory. */
int td_run_load(const char *dir, const struct td_report_opts *opts, struct td_import *imp,
		struct strbuf *err);
/* Write an import as a run directory (atomically). */
int td_import_write_run(const struct td_import *imp, const char *dir, struct strbuf *err);
void td_import_release(struct td_import *imp);

/*
 * Repeated runs (analyze/repeat.c): td_repeat_runs says how many runs of
 * 'tdperf record -r N' imp holds as plain repeats, 0 when they are not;
 * td_repeat_combine makes them one session of mean counts with perf
 * stat -r's spread; td_repeat_annotate gives each node of doc its values
 * in the runs of runs_doc (the document of the sessions as recorded) and
 * sets doc's "repeat"; td_repeat_note_perf sets it for a perf stat -r
 * input.
 */
int td_repeat_runs(const struct td_import *imp);
void td_repeat_combine(struct td_import *imp, int runs);
void td_repeat_annotate(json_t *doc, json_t *runs_doc, int runs);
void td_repeat_note_perf(json_t *doc);
/* Mark the warnings of doc that meta.json says record gave ("source": "record"). */
void td_repeat_mark_recorded_warnings(json_t *doc);

/* The table that evaluates a count of this PMU: a cluster's, cpu_atom's or the run's. */
const struct td_table *td_import_table_for_pmu(const struct td_import *imp, const char *pmu);
/* How many scopes each parsed scope of st gives: one per PMU section. */
size_t td_import_sections(const struct td_import *imp, const struct td_stat *st);

/* Event classification (analyze/events.c). */
int td_report_table_has_event(const struct td_table *t, const struct td_count *c);
int td_report_is_generic_event(const struct td_count *c);
int td_report_is_software_event(const struct td_count *c);

/* Scopes without hardware counts, perf's software events (analyze/software.c). */
/* OK counts of hardware events in s (of PMU 'pmu' when not NULL). */
size_t td_scope_hardware_counts(const struct td_scope *s, const char *pmu);
/* The reason every node of such a scope carries; meta: the run's meta.json. */
void td_nohw_reason(struct strbuf *sb, json_t *meta);
/* perf stat's derived software figures (CPUs utilized, rates per task second). */
json_t *td_software_metrics(const struct td_stat *st, const struct td_scope *s, const char *pmu);

/* Error bars (analyze/errorbars.c). */
struct td_spread_ctx {
	const struct td_scope *s;
	const char *pmu;
	int group;                   /* -1: any */
};
/* td_spread_fn over a scope's counts (ctx: struct td_spread_ctx). */
int td_report_count_spread(void *ctx, const char *name, double *rel, const void **id);
/* Does any count of s carry a spread (perf -r, or estimated from intervals)? */
int td_scope_has_spread(const struct td_scope *s);
/*
 * Set the spread of each count of 'total' (the sum of st's interval
 * scopes) from its per-interval values; 1 when done, 0 when st is not a
 * plain interval session.
 */
int td_scope_spread_from_intervals(struct td_scope *total, const struct td_stat *st);
/*
 * The derived total of a session without one: an empty total, to which
 * each scope is added in input order (analyze/build.c).
 */
struct td_scope *td_scope_sum_new(void);
void td_scope_sum_add(struct td_scope *sum, const struct td_scope *s);
/*
 * The same, for intervals seen one at a time (and never held together):
 * after td_scope_sum_add of each interval scope s to total, add s here;
 * once all are in, apply sets the spreads (nr_scopes: how many).  The
 * sums are those td_scope_spread_from_intervals takes, in its order.
 */
struct td_spread_sums {
	double sum, sumsq;
	int n;
};
struct td_interval_spread {
	struct td_spread_sums *sums; /* one per count of the total */
	size_t nr, alloc;
};
void td_interval_spread_add(struct td_interval_spread *sp, const struct td_scope *total,
			    const struct td_scope *s);
void td_interval_spread_apply(const struct td_interval_spread *sp, struct td_scope *total,
			      size_t nr_scopes);
/* The least share of time (%) any of the events was counted, NAN unknown. */
double td_scope_counted_pct(const struct td_scope *s, const char *pmu, int group,
			    char *const *events, size_t nr);
/* How a multiplexed node's value was estimated, one sentence. */
void td_estimate_sentence(struct strbuf *sb, double counted_pct);

/* Event groups from where perf printed its metrics (analyze/groups.c). */
struct td_group_hint {
	int line;                    /* input line perf printed the metric on */
	char **events;               /* the events of its formula (as the table names them) */
	size_t nr;
};
/*
 * A copy of s whose group boundaries (of PMU pmu, NULL the default) sit
 * where the printed metrics put them, or NULL when they do not move.
 * The copy shares the counts' strings; free it with td_scope_regroup_free.
 */
struct td_scope *td_scope_regroup(const struct td_scope *s, const char *pmu,
				  const struct td_group_hint *h, size_t nr);
void td_scope_regroup_free(struct td_scope *copy);
/*
 * The count of an event of another PMU than the groups' (msr/tsc: perf
 * cannot group it with core events and counts it once per metric that
 * needs it) that belongs with group 'group' of PMU pmu: the one printed
 * between that group's first count and the next group's.  Its own counts
 * are numbered by their own repeats, so c, found by that number (or
 * NULL), is what group g of the other PMU holds; c when none is printed
 * there, or the event shares the groups.
 */
const struct td_count *td_scope_group_outsider(const struct td_scope *s, const char *pmu, const char *event,
					       int group, const struct td_count *c);
/*
 * The group of s (of PMU pmu) perf printed metric pm in: the group of the
 * count on its line or the last one above it; pm->group when the line is
 * not known; -1 none.
 */
int td_scope_printed_group(const struct td_scope *s, const char *pmu, const struct td_perf_metric *pm);

/* perf's Level 1 from the kernel's pre-Ice Lake topdown events (analyze/legacy-topdown.c). */
struct td_legacy_l1 {
	double frontend_bound, bad_speculation, backend_bound, retiring;
	double total, issued;
	int total_below_issued;      /* topdown-total-slots < slots issued: counted as cycles */
};
/* 0 with out filled when s has all five events, else -1. */
int td_legacy_level1(const struct td_scope *s, const char *pmu, struct td_legacy_l1 *out);
/* perf's formula for a Level-1 id, or NULL. */
const char *td_legacy_level1_formula(const char *id);
/* The value for a Level-1 id, NAN for other ids. */
double td_legacy_level1_value(const struct td_legacy_l1 *l, const char *id);

/*
 * The tree of perf's built-in Top-Down values (analyze/perf-topdown.c),
 * for outputs that name no CPU (--topdown): its nodes take what perf
 * printed.  Loaded for the caller to free; NULL with err on failure.
 */
struct td_table *td_perf_topdown_table(struct strbuf *err);
/* Is t that table? */
int td_is_perf_topdown_table(const struct td_table *t);
/* Did perf print a built-in Top-Down value ("Retiring", ...) with a number? */
int td_stat_prints_builtin_topdown(const struct td_stat_file *st);

/* perf's names for our nodes (analyze/perf-names.c). */
/* "tma_Frontend Bound" -> "frontend_bound": tma_ dropped, lower case, '_' for ' ' and '-'. */
void td_perf_name_normalize(const char *in, struct strbuf *out);
/* Is in, normalized as above, the same as the normalized name? (allocates nothing) */
int td_perf_name_is(const char *normalized, const char *in);
/* Our id for a normalized perf name that differs from it ("ms_uops"), or NULL. */
const char *td_perf_name_alias(const char *normalized);

/* Out-of-range values named (analyze/sanity.c). */
struct td_sanity_scope {
	int nr_groups;               /* event groups of the scope */
	int legacy_topdown;          /* perf <= 6.2 --topdown session */
	int pre_icelake;             /* the kernel's pre-Ice Lake topdown-* events */
	int smt;                     /* 1, 0, -1 unknown */
	int core_wide;               /* counts cover whole cores */
	int needs_core;              /* the table's formulas use core-wide counts */
	const char *known_cause;     /* a fault of the input known for sure, or NULL */
};
struct td_sanity_node {
	const struct td_metric *m;
	double value, u;             /* u: NAN when no error bar */
	int group;                   /* group the value came from, -1 none */
	double counted_pct;          /* NAN when unknown */
};
/*
 * Check nodes (table pre-order) for values below 0, above 1, above their
 * parent, and Level 1 not summing to 1; sanity[i] gets the sentence (or
 * stays NULL; caller frees), and each goes into warnings too.
 */
void td_report_sanity(const struct td_sanity_scope *sc, const struct td_sanity_node *nodes,
		      size_t nr, char **sanity, json_t *warnings);

/* ---- jobs (analyze/job.c, job-rank.c) ---- */
/* One rank's summary for the merge, from its report document. */
json_t *td_report_rank_summary(json_t *doc);
/* What reading a rank says besides its summary; one kept from rank to rank. */
struct td_rank_read {
	struct strbuf origin; /* the file the summary came from, or the rank directory */
	struct strbuf text;   /* the file's bytes: one buffer for all ranks */
	int bad;              /* a file holds what no recording writes */
};
#define TD_RANK_READ_INIT { STRBUF_INIT, STRBUF_INIT, 0 }
/*
 * A rank's summary.json when written by this tdperf, else its analysis now.
 * NULL with err set when the rank cannot be read, and with rd->bad set too
 * when one of its files holds what no recording writes (analyze/job.c then
 * refuses the job).
 */
json_t *td_report_rank_summary_load(const char *rankdir, const struct td_report_opts *opts,
				    struct td_rank_read *rd, struct strbuf *err);
/*
 * The most ranks a job can have.  MPI numbers ranks with a C int, but the
 * largest machines built hold 7.6 (Fugaku) to 10.6 million cores (Sunway
 * TaihuLight), so 2^24 leaves room for one rank per core on any of them; a
 * larger "ranks" or rank number is a corrupt or hostile file, not a job.
 */
#define TD_JOB_MAX_RANKS 16777216L
/*
 * 0, or -1 with "FILE: FIELD: what is wrong" in err: every number of a rank
 * summary finite and in its range (counts and times >= 0 and within 64
 * bits, shares in [0, 1], Top-Down fractions within what a ratio of 64-bit
 * counts gives, rank below size), every other field of its type.
 */
int td_rank_summary_check(json_t *sum, const char *file, struct strbuf *err);
/* jansson's error text without the input it stopped at ("near '...'"). */
void td_json_error_text(struct strbuf *sb, const json_error_t *jerr);
/*
 * The ranks of [0, size) not in seen[0..nr-1] (sorted, ascending; other
 * numbers ignored), as [first, last] pairs; *count gets how many.
 */
json_t *td_job_missing_ranges(const long *seen, size_t nr, long size, long *count);
/* Diff beyond Top-Down (analyze/diff-counts.c): elapsed time, the counts
 * both sides have, per-thread stack fractions (report/diff-counts.c draws them). */
void td_diff_add_counts(json_t *diff, json_t *a, json_t *sa, json_t *b, json_t *sb);

/* analyze/count-memo.c: which count an event name resolves to, kept while
 * the scopes keep one shape (the intervals of a run). */
void td_count_memo_enter(const struct td_scope *s);
void td_count_memo_reset(void);
struct td_env;
struct td_tree_opts;
struct td_tree_result;
/*
 * td_tree_eval, taking the reasons from an earlier evaluation of the same
 * layout (the lookups it depends on, see analyze/reason-memo.c) when
 * nothing in this one depended on the values.  nodes_only: the caller
 * reads no info metric's reason (a streamed scope's rows), so none is
 * copied.  Forget them all with td_reason_memo_reset() when the tables
 * may go.
 */
int td_reason_memo_eval(const struct td_table *t, const struct td_env *env,
			const struct td_tree_opts *opts, const struct strbuf *layout, int nodes_only,
			struct td_tree_result *out);
void td_reason_memo_reset(void);
int td_count_memo_get(const void *table, const char *pmu, const char *name, int group, long *idx);
void td_count_memo_put(const void *table, const char *pmu, const char *name, int group, long idx);

/* analyze/build.c: the scope(s) of one parsed scope (two on a hybrid CPU). */
void td_report_add_scopes(json_t *scopes, const struct td_import *imp,
			  const struct td_report_opts *opts, size_t si, const struct td_scope *s,
			  const char *derived, json_t *warnings);
/* The same as typed rows, each passed to fn and freed (analyze/doc.h). */
void td_report_scope_rows(const struct td_import *imp, const struct td_report_opts *opts, size_t si,
			  const struct td_scope *s, void (*fn)(const struct td_scope_rows *rows, void *ctx),
			  void *ctx);
/* analyze/stream.c: keep the import for td_report_each_scope (moves *imp). */
void td_report_stream_keep(json_t *doc, struct td_import *imp, const struct td_report_opts *opts);
/* Is the scope a run's own total (not an interval, CPU or thread)? */
int td_scope_is_main(const struct td_scope *s);

#endif
