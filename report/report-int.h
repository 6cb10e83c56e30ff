/*
 * Internal to report/: the inputs of a report (report/import.c) and the
 * pieces the builder and the renderers share.
 */
#ifndef TD_REPORT_INT_H
#define TD_REPORT_INT_H

#include "report/report.h"
#include "parse/parse.h"
#include "metrics/metrics.h"

struct td_import {
	char *path;                  /* the file or run directory */
	struct strbuf data;          /* the input's bytes (file imports) */
	const char *format;          /* "text", "csv", "json", "perf.data", "run" */
	struct td_stat_file *stat;
	struct td_cpu_guess guess;
	const struct td_table *table;      /* NULL: counts only */
	const struct td_table *atom_table; /* hybrid: the cpu_atom table */
	struct td_table *owned_table, *owned_atom; /* loaded from files */
	const char *cpu_source;      /* "--cpu", "--table", "run", "inferred from events" */
	int smt;                     /* 1, 0, -1 unknown */
	const char *smt_source;
	json_t *meta;                /* meta.json (docs/run-format.md) */
	json_t *warnings;            /* array of strings, or NULL */
};

/* Import a perf stat output / perf.data file (argv: the command line, for meta.json). */
int td_import_load(const char *path, const struct td_report_opts *opts, int argc, char **argv,
		   struct td_import *imp, struct strbuf *err);
/* The same from its bytes, already read (taken from 'data'). */
int td_import_data(const char *path, struct strbuf *data, const struct td_report_opts *opts, int argc,
		   char **argv, struct td_import *imp, struct strbuf *err);
/* Load a run directory. */
int td_run_load(const char *dir, const struct td_report_opts *opts, struct td_import *imp,
		struct strbuf *err);
/* Write an import as a run directory (atomically). */
int td_import_write_run(const struct td_import *imp, const char *dir, struct strbuf *err);
void td_import_release(struct td_import *imp);

/* Event classification (report/events.c). */
int td_report_table_has_event(const struct td_table *t, const struct td_count *c);
int td_report_is_generic_event(const struct td_count *c);
int td_report_is_software_event(const struct td_count *c);

/* Scopes without hardware counts, perf's software events (report/software.c). */
/* OK counts of hardware events in s (of PMU 'pmu' when not NULL). */
size_t td_scope_hardware_counts(const struct td_scope *s, const char *pmu);
/* The reason every node of such a scope carries; meta: the run's meta.json. */
void td_nohw_reason(struct strbuf *sb, json_t *meta);
/* perf stat's derived software figures (CPUs utilized, rates per task second). */
json_t *td_software_metrics(const struct td_scope *s, const char *pmu, double elapsed_s);

/* gnuplot script text from input strings (report/plot.c): a literal that
 * gnuplot never interprets, and comment lines. */
void td_gp_string(struct strbuf *sb, const char *s);
void td_gp_comment(struct strbuf *sb, const char *prefix, const char *text);

#endif
