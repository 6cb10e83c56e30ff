/*
 * Internal to parse/: one line of perf stat output, recognized.
 *
 * The perf stat parser works in two passes.  The first (stat-lines.c)
 * looks at every line alone and says what it is: a count, a metric perf
 * printed, a block header, the elapsed time, a wrapped continuation, or
 * prose.  The second (stat.c) groups the recognized lines into sessions
 * and scopes, which needs to see neighbours (a wrapped metric name, where
 * a pasted block ends).
 */
#ifndef TD_PARSE_STAT_LINES_H
#define TD_PARSE_STAT_LINES_H

#include "parse/parse.h"

enum rec_kind {
	R_OTHER = 0,  /* prose, commands, anything else */
	R_BLANK,
	R_COMMENT,    /* "# started on ...", "#  time  counts unit events" */
	R_ELISION,    /* "(...)", "...": an author left lines out */
	R_HEADER,     /* " Performance counter stats for 'x' (3 runs):" */
	R_COUNT,      /* a counter reading, maybe with a metric annotation */
	R_METRIC,     /* a metric annotation alone on its line */
	R_CONT,       /* a wrapped line: metric name and/or "(71.07%)" */
	R_ELAPSED,    /* "1.001 seconds time elapsed" */
	R_USER,       /* "0.0002 seconds user" */
	R_SYS,        /* "0.0017 seconds sys" */
	R_VERSION,    /* "perf version 6.16.12" */
	R_BAD,        /* a line of CSV/JSON output that is malformed (err says why) */
	R_COLS,       /* --metric-only header: the titles of the value columns */
	R_ROW,        /* --metric-only / --topdown: a row of values, no event */
};

enum rec_fmt { F_TEXT = 0, F_CSV, F_JSON };

/*
 * The numbers of a line other than metric values: each has a range perf
 * cannot print outside of (a count is a 64-bit counter, a percentage of
 * running time is at most 100, no time is negative).  Metric values are
 * not among them: perf prints negative ones.
 */
enum rec_reading {
	RD_NONE = 0,
	RD_COUNT,     /* counter-value */
	RD_RUN_TIME,  /* run-time, event-runtime (ns) */
	RD_PCT,       /* pcnt-running, "(71.07%)" */
	RD_VARIANCE,  /* -r: "( +- 1.55% )", "2.93%" */
	RD_TIME,      /* -I: the interval time */
	RD_ELAPSED,   /* "seconds time elapsed" */
	RD_USER,      /* "seconds user" */
	RD_SYS,       /* "seconds sys" */
	RD_CPUS,      /* JSON aggregate-number */
	RD_REPEATS,   /* "(5 runs)" */
};

struct rec {
	enum rec_kind kind;
	enum rec_fmt fmt;
	int line;
	int nfields;               /* CSV: fields in the row */
	double time;               /* interval time or NAN */
	enum td_scope_kind skind;
	char *label;               /* CPU3, S0-D0-C1, comm-tid */
	int cpus;
	/* count */
	char *event, *unit;
	enum td_count_status status;
	double value, running_ns, pct, variance;
	/* perf's metric annotation */
	int has_metric;
	double mvalue;
	double mstep;              /* the printed value's resolution (see td_perf_metric) */
	int mblank;                /* perf printed no number */
	char *mname, *munit, *mthreshold, *mpmu;
	enum td_perf_metric_kind mkind; /* what the printed title says it is */
	char *m2name, *m2unit;     /* CSV: a second metric on the row (perf 6.1's Level-2 pairs) */
	double m2value, m2step;
	enum td_perf_metric_kind m2kind;
	/* R_COLS: column titles; R_ROW: values, their steps, blanks */
	char **cols, **col_units;  /* name and unit of each title */
	enum td_perf_metric_kind *col_kinds;
	size_t ncols;
	double *vals, *steps;
	size_t nvals;
	/* header: target; version: the version string */
	char *text;
	int repeats;
	double secs;
	char *err;
	/*
	 * The first number of the line that perf cannot have printed
	 * (RD_NONE: none): its value, or its text when it is no number.
	 * Refused by the reader that uses the line (rec_why_bad), not
	 * here: a line of prose may look like a count.
	 */
	enum rec_reading bad;
	double bad_value;
	char *bad_text;
};

void rec_init(struct rec *r, int line);
void rec_release(struct rec *r);

/*
 * Recognize one line (already stripped of mail quoting and colour codes).
 * csv_sep: the separator of the CSV block being read, or NULL; on a new
 * CSV line *found_sep receives the separator that fits.
 */
void rec_parse(const char *line, const char *csv_sep, char *found_sep, size_t found_len,
	       struct rec *r);

/*
 * Why the numbers of r cannot be perf's, in one line naming the number
 * and the event ("count out of range for cycles: -5 is negative ..."):
 * 1 with the reason appended to why, 0 when they all can be.  The one
 * check for text, CSV and JSON alike.
 */
int rec_why_bad(const struct rec *r, struct strbuf *why);

/* The step of the digits of a number printed from p to end (0.1 for "41.1"). */
double rec_printed_step(const char *p, const char *end);

/*
 * perf's names of the --topdown columns it prints under no header, in its
 * order (Level 1 then the Level-2 pairs), for n values; NULL when perf
 * prints no such row of n values.
 */
const char *const *rec_topdown_names(size_t n);

/* Set m->kind from its name (after the name changed). */
void td_perf_metric_classify(struct td_perf_metric *m);

/* Numbers as perf prints them (exposed for the unit tests). */
const char *td_stat_scan_count(const char *p, double *out);
const char *td_stat_scan_decimal(const char *p, double *out);

#endif
