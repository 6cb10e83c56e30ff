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
#include <stdio.h>

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
	int group;           /* event group index within the scope and PMU, -1
	                        unknown: perf prints a group's events together, and
	                        an event repeated within a scope starts the next
	                        group of its PMU */
	int line;            /* input line it came from, 0 unknown */
	char *key;           /* internal: canonical matching key (td_event_key),
	                        filled by td_scope_add_count; NULL is allowed */
};

/*
 * What a value perf printed is, by how perf computed it.  perf prints two
 * kinds of Top-Down numbers, and they differ (Frontend Bound 25.0 % beside
 * tma_frontend_bound 23.2 % on one run): keep them apart.
 */
enum td_perf_metric_kind {
	TD_PM_OTHER = 0,   /* anything else: "insn per cycle", "GHz", info metrics */
	TD_PM_TMA,         /* a metric of perf's event tables (tma_*, Arm's
	                      frontend_bound, AMD's PipelineL1/L2, perf 5.x's
	                      Frontend_Bound): the table's formula on the counts */
	TD_PM_BUILTIN,     /* perf's own Top-Down code (stat-shadow.c): "Retiring",
	                      "Bad Speculation", "frontend bound", ... and the
	                      Level-2 pairs ("Heavy Operations" ...), printed next
	                      to topdown-* events and by --topdown; perf <= 6.2
	                      divides by the sum of the four, not by slots */
};
/*
 * The parser decides the kind from how perf printed the title: "30.0%
 * Retiring" and a bare CSV/JSON "Retiring" with one decimal (or JSON's
 * six) are TD_PM_BUILTIN; "%  name" and "UNIT  name" (Arm's "percent of
 * slots  retiring") and perf 5.x's two-decimal ratios ("0.04 Retiring")
 * are table metrics.
 */

/*
 * A metric value perf printed ("# 41.1 % tma_frontend_bound", a CSV or
 * JSON metric column, a --metric-only or --topdown column).  Kept to
 * compare with ours, and as the node's value when the counts to compute it
 * are not in the file (analyze/).
 */
struct td_perf_metric {
	char *name;          /* as printed: "tma_frontend_bound", "frontend bound",
	                        "insn per cycle"; --topdown columns (no header)
	                        get perf's names by position ("Retiring", ...) */
	char *pmu;           /* hybrid PMU when it could be told, else NULL */
	double value;        /* as printed: 41.1 for "41.1 %"; NAN when perf
	                        printed no number (see blank) */
	char *unit;          /* "%", "insn per cycle", "percent of slots", ...;
	                        "%" for TD_PM_BUILTIN values, which perf prints
	                        with "%%" in text and without any unit in CSV/JSON */
	char *threshold;     /* perf >= 6.13 CSV/JSON: "good", "bad", ...; else NULL */
	int group;           /* group of the count perf printed it next to, -1 none */
	int line;            /* input line, 0 unknown */
	enum td_perf_metric_kind kind;
	double resolution;   /* the step of the printed digits in the metric's
	                        unit: 0.1 for "41.1", 0.01 for "0.96", 1e-6 for
	                        JSON's "%f"; perf rounded to the nearest step,
	                        so the true value is within resolution / 2.
	                        NAN when value is NAN (or a producer did not
	                        say: td_scope_add_perf_metric leaves it NAN) */
	int blank;           /* perf printed the metric with no number: a CSV
	                        field perf 6.1 left empty (its CSV printer keeps
	                        only digits and '.', so a negative value or nan
	                        prints as nothing), "nan" in text/JSON.  value
	                        is NAN: the number is unknown, not 0 */
};

/*
 * A printed value as a share (0..1) of slots or cycles, the unit of
 * Top-Down nodes: "%" and Arm's "percent of slots"/"percent of cycles"
 * divided by 100, perf 5.x's bare ratios ("0.96 Backend_Bound") as they
 * are.  *resolution (may be NULL) gets the print step in that share.
 * NAN (resolution NAN) when m is no share or perf printed no number.
 */
double td_perf_metric_share(const struct td_perf_metric *m, double *resolution);
/* Is name one of perf's built-in Top-Down names ("Bad Speculation",
 * "frontend bound", "Heavy Operations", ...)? */
int td_perf_metric_is_builtin(const char *name);

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
	int nr_groups;       /* groups seen (see td_count.group; per PMU) */
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
	char *cpuid;         /* perf.data's CPUID feature ("GenuineIntel-6-55-4", Arm "0x00000000410fd4f0"), else NULL */
	double elapsed_s;    /* "seconds time elapsed", NAN when absent; from
	                        the duration_time count (ns / 1e9) of a CSV or
	                        JSON output that has no such line */
	int elapsed_from_run; /* elapsed_s is the workload's wall time from
	                         a run directory's meta.json, not perf's */
	int elapsed_from_duration; /* elapsed_s came from duration_time */
	double user_s, sys_s;
	int repeats;         /* -r N, 1 otherwise */
	int interval;        /* nonzero in interval mode */
	int hybrid;          /* counts for cpu_core/cpu_atom PMUs seen */
	int legacy_topdown;  /* perf <= 6.2 --topdown style annotations seen
	                        (a TD_PM_BUILTIN metric) */
	int metric_only;     /* --metric-only or --topdown: perf printed values
	                        in columns, without the counts */
	int has_variance;    /* the -r "+- x%" column was present */
	int elided;          /* the input elides lines ("(...)") inside the block */
	int line;            /* first input line of the session */
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
/*
 * The same, reading fp line by line and holding no more of it than the
 * interval being read: each interval scope, once the next interval has
 * begun or its session has ended, goes to fn with the index of its
 * session (sessions so far, less one) and the session as read so far.
 * fn returns 0 to have the scope freed, 1 to keep it in its session, -1
 * to stop.  Sessions without interval times keep their scopes.  Returns
 * 0 with *out set; 1 when fn stopped it; -1 with err set (the message
 * td_stat_parse gives; a NUL byte is reported where it is met).
 */
typedef int td_stat_scope_fn(size_t session, const struct td_stat *st, struct td_scope *s,
			     void *ctx);
enum td_stat_stream_flags {
	TD_STAT_STREAM_INTERVALS = 1, /* stop (return 1) at the first scope without an interval time */
};
int td_stat_parse_stream(FILE *fp, const char *name, unsigned flags, td_stat_scope_fn *fn, void *ctx,
			 struct td_stat_file **out, struct strbuf *err);
void td_stat_file_free(struct td_stat_file *f);

/* Find a count in a scope by event name: case-insensitive, perf alias forms
 * accepted; pmu NULL matches any PMU.  Returns NULL when absent. */
const struct td_count *td_scope_find(const struct td_scope *s, const char *pmu,
				     const char *event);
/* The same, only among the counts of one event group (group < 0: any). */
const struct td_count *td_scope_find_group(const struct td_scope *s, const char *pmu,
					   const char *event, int group);

/*
 * Canonical key of an event name, for matching: the PMU ("cpu_core"; ""
 * for the default core PMU) into pmu, and into key the lower-cased event
 * name with its qualifiers normalized ("uops_decoded.dec0,cmask=1") and
 * perf's aliases folded ("TOPDOWN.SLOTS" -> "slots", "topdown-fe-bound" =
 * "PERF_METRICS.FRONTEND_BOUND").  Accepts every spelling perf prints or a
 * formula uses: "cpu_core/slots/", "cpu@INT_MISC.CLEARS_COUNT@",
 * "cycles:u", "UOPS_DECODED.DEC0:c1", "cpu/event=0x3c,umask=0x0,name=X/".
 */
void td_event_key(const char *event, struct strbuf *pmu, struct strbuf *key);
/*
 * The generic event a model-specific key counts the same as ("cycles" for
 * "cpu_clk_unhalted.thread" and "ls_not_halted_cyc"), or NULL.
 */
const char *td_event_weak_class(const char *key);

/*
 * Building the model (used by the parsers here and by td_pd_read_stat):
 * add a session, find-or-add a scope, add a count.  td_scope_add_count
 * splits the printed name into pmu/event/modifiers, sets every number to
 * NAN (value 0 status OK is up to the caller), fills key and assigns the
 * group (a repeated event starts a new group).
 */
struct td_stat *td_stat_add_session(struct td_stat_file *f, const char *source,
				    const char *format);
struct td_scope *td_stat_scope(struct td_stat *st, enum td_scope_kind kind,
			       const char *label, double time);
struct td_count *td_scope_add_count(struct td_scope *s, const char *printed_event);
/* Free what a scope owns (its counts, perf's metrics, its label), not s itself. */
void td_scope_release(struct td_scope *s);
struct td_perf_metric *td_scope_add_perf_metric(struct td_scope *s, const char *name,
						const char *unit, double value);
/*
 * Fill what a producer left out: keys (td_event_key), the PMU from a
 * "pmu/event/" name, group -1 -> 0.  Readers call it on any model they did
 * not build with td_scope_add_count (e.g. td_pd_read_stat's).
 */
void td_stat_file_normalize(struct td_stat_file *f);
/* The same for one scope (td_stat_parse_stream's, as they come). */
void td_scope_normalize(struct td_scope *s);
/* Remove (and free) the last session of f. */
void td_stat_file_drop_last(struct td_stat_file *f);

/* ====================================================================
 * What the events say about the machine (parse/stat-infer.c).
 * ==================================================================== */

/*
 * The CPU and SMT state a perf stat output was taken on, as far as its
 * event names tell.  perf asks for model-specific events only on the CPUs
 * that have them, so their names narrow the machine down to a formula
 * table; the confidence sentence says how far.
 */
struct td_cpu_guess {
	const char *table;       /* table to ask td_table_find for ("icelake"), NULL none */
	const char *what;        /* "Intel Ice Lake class (Sunny Cove cores)" */
	char *confidence;        /* one sentence: why, and how sure */
	int line;                /* input line of the deciding event, 0 none */
	int hybrid;              /* cpu_core + cpu_atom: evaluate per PMU */
	int needs_cpu;           /* the file has Top-Down events: a table is needed */
	const char *first_model_event; /* first model-specific event, for messages */
	int first_model_line;
	int smt;                 /* 1 on, 0 off, -1 unknown */
	char *smt_reason;        /* one sentence */
	int core_wide;           /* counts cover whole cores (system wide or --per-core) */
};

/* Is this event key (td_event_key) one of perf's generic events (cycles,
 * task-clock, L1-dcache-loads, ...), which every CPU has? */
int td_event_is_generic(const char *key);

/* Fill g from the events of every session of f; returns 0 (always). */
int td_stat_infer_cpu(const struct td_stat_file *f, struct td_cpu_guess *g);
void td_cpu_guess_release(struct td_cpu_guess *g);

/* ====================================================================
 * perf.data reader (section owned by the perf.data work; see
 * docs/perf-data-format.md in shared docs and docs/dump-format.md).
 * ==================================================================== */

/* PERF_DATA_READER_API_BEGIN */
/*
 * Reading perf.data without perf.  Usage:
 *
 *	struct td_pd *pd = td_pd_open("perf.data", 0, &err);
 *	const struct td_pd_record *r;
 *	int ret;
 *	while ((ret = td_pd_next(pd, &r)) > 0) {
 *		if (r->type == TD_PD_SAMPLE && r->sample.event->tp) {
 *			uint64_t pid;
 *			td_pd_tp_num(&r->sample, "next_pid", &pid);
 *			...
 *		}
 *	}
 *	if (ret < 0) error("%s", td_pd_error(pd));
 *	td_pd_close(pd);
 *
 * Records come in time order (perf's FINISHED_ROUND rule; a k-way merge of
 * the streams of a --threads directory) unless TD_PD_FILE_ORDER is given.
 * A record and everything it points to stays valid until the next
 * td_pd_next() call; nothing is allocated per record.  Numbers are in host
 * byte order whatever the file's order; RAW tracepoint bytes stay in the
 * file's order (the tracepoint accessors below handle that).
 *
 * Errors are one line "FILE: offset N: what is wrong" (offset in the file,
 * or "in the decompressed stream" for records inside PERF_RECORD_COMPRESSED).
 */
struct td_pd;                  /* an open perf.data (opaque) */
struct td_pd_field;            /* a tracepoint field (opaque) */

/* PERF_RECORD_* numbers that callers switch on. */
enum td_pd_record_type {
	TD_PD_MMAP = 1, TD_PD_LOST = 2, TD_PD_COMM = 3, TD_PD_EXIT = 4,
	TD_PD_THROTTLE = 5, TD_PD_UNTHROTTLE = 6, TD_PD_FORK = 7, TD_PD_READ = 8,
	TD_PD_SAMPLE = 9, TD_PD_MMAP2 = 10, TD_PD_LOST_SAMPLES = 13,
	TD_PD_SWITCH = 14, TD_PD_SWITCH_CPU_WIDE = 15,
	TD_PD_HEADER_ATTR = 64, TD_PD_HEADER_TRACING_DATA = 66,
	TD_PD_HEADER_BUILD_ID = 67, TD_PD_FINISHED_ROUND = 68, TD_PD_ID_INDEX = 69,
	TD_PD_THREAD_MAP = 73, TD_PD_CPU_MAP = 74, TD_PD_STAT_CONFIG = 75,
	TD_PD_STAT = 76, TD_PD_STAT_ROUND = 77, TD_PD_EVENT_UPDATE = 78,
	TD_PD_TIME_CONV = 79, TD_PD_HEADER_FEATURE = 80, TD_PD_COMPRESSED = 81,
	TD_PD_FINISHED_INIT = 82, TD_PD_COMPRESSED2 = 83,
};
/* Name of a record type ("SAMPLE", "MMAP2", ...; "UNKNOWN" otherwise). */
const char *td_pd_record_name(uint32_t type);

/* PERF_SAMPLE_* bits (attr.sample_type) and PERF_FORMAT_* (read_format). */
#define TD_PD_S_IP (1u << 0)
#define TD_PD_S_TID (1u << 1)
#define TD_PD_S_TIME (1u << 2)
#define TD_PD_S_ADDR (1u << 3)
#define TD_PD_S_READ (1u << 4)
#define TD_PD_S_CALLCHAIN (1u << 5)
#define TD_PD_S_ID (1u << 6)
#define TD_PD_S_CPU (1u << 7)
#define TD_PD_S_PERIOD (1u << 8)
#define TD_PD_S_STREAM_ID (1u << 9)
#define TD_PD_S_RAW (1u << 10)
#define TD_PD_S_IDENTIFIER (1u << 16)
#define TD_PD_F_TOTAL_TIME_ENABLED (1u << 0)
#define TD_PD_F_TOTAL_TIME_RUNNING (1u << 1)
#define TD_PD_F_ID (1u << 2)
#define TD_PD_F_GROUP (1u << 3)
#define TD_PD_F_LOST (1u << 4)
#define TD_PD_CONTEXT_MAX ((uint64_t)-4095) /* callchain entries >= this are
						  context markers (PERF_CONTEXT_*) */

/* One event (attr) of the file. */
struct td_pd_event {
	int index;              /* position in the attr section */
	const char *name;       /* "sched:sched_switch", "cpu-clock", ... */
	uint32_t type;          /* attr.type (2 = tracepoint) */
	uint32_t attr_size;     /* attr.size as written */
	uint64_t config, sample_period, sample_type, read_format, flags;
	uint64_t config1, config2, config3, branch_sample_type;
	uint64_t sample_regs_user, sample_regs_intr;
	uint32_t sample_stack_user;
	int32_t clockid;
	const uint64_t *ids;    /* sample ids of this event */
	size_t nr_ids;
	int sample_id_all;      /* flag bit 18 */
	int freq;               /* flag bit 10 */
	const char *unit;       /* EVENT_UPDATE unit, or NULL */
	double scale;           /* EVENT_UPDATE scale, 1 if none */
	void *tp;               /* libtraceevent's struct tep_event *, NULL
	                           unless a tracepoint with a known format */
};

/* One value of PERF_SAMPLE_READ / PERF_RECORD_READ. */
struct td_pd_read_value {
	uint64_t value, id, lost;
	const struct td_pd_event *event; /* the member this id belongs to, or NULL */
};

/*
 * A decoded sample, or the sample_id trailer of another record (then only
 * the TID/TIME/ID/STREAM_ID/CPU fields are filled).  'fields' says which
 * PERF_SAMPLE_* fields are present; absent ones are 0.
 */
struct td_pd_sample {
	const struct td_pd_event *event; /* NULL when the id matches no event */
	uint64_t fields;
	uint64_t ip, time, addr, id, stream_id, period;
	uint32_t pid, tid, cpu;
	/* PERF_SAMPLE_READ */
	uint64_t time_enabled, time_running; /* 0 unless in read_format */
	size_t nr_values;                    /* 1 without GROUP */
	const struct td_pd_read_value *values;
	/* PERF_SAMPLE_CALLCHAIN: ips, with context markers kept */
	size_t callchain_nr;
	const uint64_t *callchain;
	/* PERF_SAMPLE_RAW: tracepoint data, in the file's byte order */
	uint32_t raw_size;
	const unsigned char *raw;
	/* PERF_SAMPLE_BRANCH_STACK: nr entries of {from, to, flags} */
	uint64_t branch_nr;
	/* later fields, when present */
	uint64_t weight, data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	struct td_pd *pd;                    /* for the tracepoint accessors */
};

/* One record, decoded by type. */
struct td_pd_record {
	uint32_t type;          /* enum td_pd_record_type or anything else */
	uint16_t misc;          /* misc & 7 = cpumode */
	uint32_t size;          /* h.size (plus the payload of TRACING_DATA) */
	uint64_t offset;        /* byte offset of the record in its stream */
	int stream;             /* 0: the main file; N+1: data.N of a directory */
	int compressed;         /* 1: came out of PERF_RECORD_COMPRESSED(2):
	                           offset is then in the decompressed stream */
	const unsigned char *data; /* the raw record, file byte order */
	int has_sample;         /* SAMPLE, or a trailer was decoded */
	struct td_pd_sample sample;
	union {
		struct { uint32_t pid, tid; const char *comm; int exec; } comm;
		struct { uint32_t pid, ppid, tid, ptid; uint64_t time; } fork; /* and EXIT */
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t maj, min, prot, flags;       /* MMAP2 only */
			uint64_t ino, ino_generation;         /* MMAP2 only */
			int has_build_id;                     /* MMAP2 misc bit 14 */
			uint8_t build_id_size;
			const unsigned char *build_id;
			const char *filename;
		} mmap;                 /* MMAP and MMAP2 */
		struct { uint64_t id, lost; } lost;
		struct { uint64_t lost; } lost_samples;
		struct { uint32_t pid, tid; uint64_t value; } read; /* values in sample */
		struct { uint64_t id; uint32_t cpu, thread; uint64_t val, ena, run; } stat;
		struct { uint64_t type, time; } stat_round;
		struct { uint64_t type, id; const char *str; double scale; } event_update;
		struct { uint64_t feat_id; } header_feature;
		struct { uint32_t size; } tracing_data;
	} u;
};

enum td_pd_open_flags {
	TD_PD_FILE_ORDER = 1,   /* records in file order, no sorting */
	TD_PD_KEEP_RAW = 2,     /* also return COMPRESSED/FINISHED_ROUND
	                           records themselves (for dump) */
};
/*
 * Open a perf.data file, a --threads directory, or "-" (stdin, pipe mode).
 * Reads the header, attrs, features and tracing data.  NULL with err set
 * on failure.
 */
struct td_pd *td_pd_open(const char *path, unsigned flags, struct strbuf *err);
/* The same over a buffer (the caller keeps it alive until td_pd_close). */
struct td_pd *td_pd_open_mem(const void *data, size_t len, const char *name,
			     unsigned flags, struct strbuf *err);
void td_pd_close(struct td_pd *pd);
/* Next record: 1 with *rec set, 0 at the end, -1 on error (td_pd_error). */
int td_pd_next(struct td_pd *pd, const struct td_pd_record **rec);
const char *td_pd_error(const struct td_pd *pd);

/* Header facts. */
int td_pd_pipe_mode(const struct td_pd *pd);
int td_pd_needs_swap(const struct td_pd *pd);
int td_pd_is_directory(const struct td_pd *pd);
size_t td_pd_nr_events(const struct td_pd *pd);
const struct td_pd_event *td_pd_event(const struct td_pd *pd, size_t idx);
/* The event a sample id belongs to, or NULL. */
const struct td_pd_event *td_pd_event_by_id(const struct td_pd *pd, uint64_t id);
/* Event by name ("sched:sched_switch"), or NULL. */
const struct td_pd_event *td_pd_event_by_name(const struct td_pd *pd, const char *name);

/* Feature sections (HEADER_* numbers: 3 HOSTNAME, 7 NRCPUS, ...). */
enum td_pd_feature {
	TD_PD_FEAT_TRACING_DATA = 1, TD_PD_FEAT_BUILD_ID = 2, TD_PD_FEAT_HOSTNAME = 3,
	TD_PD_FEAT_OSRELEASE = 4, TD_PD_FEAT_VERSION = 5, TD_PD_FEAT_ARCH = 6,
	TD_PD_FEAT_NRCPUS = 7, TD_PD_FEAT_CPUDESC = 8, TD_PD_FEAT_CPUID = 9,
	TD_PD_FEAT_TOTAL_MEM = 10, TD_PD_FEAT_CMDLINE = 11, TD_PD_FEAT_EVENT_DESC = 12,
	TD_PD_FEAT_CPU_TOPOLOGY = 13, TD_PD_FEAT_NUMA_TOPOLOGY = 14,
	TD_PD_FEAT_PMU_MAPPINGS = 16, TD_PD_FEAT_GROUP_DESC = 17, TD_PD_FEAT_STAT = 19,
	TD_PD_FEAT_SAMPLE_TIME = 21, TD_PD_FEAT_CLOCKID = 23, TD_PD_FEAT_DIR_FORMAT = 24,
	TD_PD_FEAT_COMPRESSED = 27, TD_PD_FEAT_CPU_PMU_CAPS = 28,
	TD_PD_FEAT_CLOCK_DATA = 29, TD_PD_FEAT_HYBRID_TOPOLOGY = 30,
	TD_PD_FEAT_PMU_CAPS = 31,
};
const char *td_pd_feature_name(int feat);
/* 1 when the file has the feature, with its raw payload (file byte order). */
int td_pd_feature(const struct td_pd *pd, int feat, const void **data, size_t *len);
/* String features (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID), or NULL. */
const char *td_pd_feature_string(const struct td_pd *pd, int feat);
/* CMDLINE joined with spaces, or NULL. */
const char *td_pd_cmdline(const struct td_pd *pd);
/* NRCPUS: 0 when absent. */
uint32_t td_pd_nr_cpus_online(const struct td_pd *pd);
uint32_t td_pd_nr_cpus_avail(const struct td_pd *pd);
/*
 * Describe every feature present in stable text form (docs/dump-format.md),
 * one "feature NAME: ..." block each.
 */
void td_pd_describe_features(const struct td_pd *pd, struct strbuf *out);

/*
 * Tracepoints: the fields of a sample's RAW data, using the formats stored
 * in the file (libtraceevent).  Lookups by name are a short list walk;
 * keep the td_pd_field handle when decoding millions of samples.
 */
const struct td_pd_field *td_pd_tp_field(const struct td_pd_event *ev, const char *name);
/* A numeric field (sign-extended when signed).  0, or -1 when missing,
 * not numeric, or outside the sample's RAW bytes. */
int td_pd_field_num(const struct td_pd_field *f, const struct td_pd_sample *s, int64_t *val);
/* A string/char-array field (static or __data_loc), appended to out.  0 or -1. */
int td_pd_field_str(const struct td_pd_field *f, const struct td_pd_sample *s, struct strbuf *out);
/* The same by name. */
int td_pd_tp_num(const struct td_pd_sample *s, const char *name, int64_t *val);
int td_pd_tp_str(const struct td_pd_sample *s, const char *name, struct strbuf *out);
/* The event's printed form as perf script shows it after "name:"
 * ("prev_comm=bash prev_pid=1 ..."); -1 when not a decodable tracepoint. */
int td_pd_tp_print(const struct td_pd_sample *s, struct strbuf *out);
/* Names of the event's fields, in format order, excluding common_*;
 * returns how many were put in names (at most max). */
size_t td_pd_tp_field_names(const struct td_pd_event *ev, const char **names, size_t max);

/* CPU_TOPOLOGY: 1 when a core has two threads, 0 when none has, -1 absent. */
int td_pd_topology_smt(const struct td_pd *pd);
/* The PMU_MAPPINGS name of PMU type 'type' in *name; -1 when not listed. */
int td_pd_pmu_name(const struct td_pd *pd, uint32_t type, struct strbuf *name);
/* PMU_MAPPINGS lists a PMU of this name ("cpu_core"). */
int td_pd_has_pmu(const struct td_pd *pd, const char *name);

/* The CPU of the recording, from the file's header (parse/perfdata-cpu.c). */
struct td_pd_cpu {
	char vendor[32];
	int family, model, stepping;  /* -1 unknown */
	char cpuid[64];          /* "GenuineIntel-6-55-4" (model, stepping hex), "" unknown */
	const char *raw_cpuid;   /* the CPUID feature as written, or NULL */
	const char *desc;        /* CPUDESC, or NULL */
	uint32_t nr_online;      /* NRCPUS, 0 unknown */
	int smt;                 /* from CPU_TOPOLOGY: 1, 0, -1 unknown */
	int hybrid;              /* PMU_MAPPINGS has cpu_core and cpu_atom */
};
/* Fill c; its strings point into pd and live until td_pd_close(pd).  0 when
 * CPUID gave vendor/family/model, else -1. */
int td_pd_cpu(const struct td_pd *pd, struct td_pd_cpu *c);

/* True when the data starts like a perf.data file (file or pipe mode). */
int td_pd_is_perf_data(const void *data, size_t len);
/*
 * Read a 'perf stat record' perf.data file into the count model (totals,
 * and intervals with -I), as 'perf stat report' would show it.  NULL with
 * "FILE: offset N: what is wrong" in err on failure.
 */
struct td_stat_file *td_pd_read_stat(const char *path, struct strbuf *err);
/* The same from data already read (a pipe or FIFO cannot be opened twice). */
struct td_stat_file *td_pd_read_stat_mem(const void *data, size_t len, const char *name,
					 struct strbuf *err);
/*
 * Symbols of sampled addresses (parse/perfdata-symbols.c, elfutils'
 * libdwfl): feed every record to td_sym_feed so the process maps follow
 * MMAP/COMM/FORK, then resolve sample and callchain addresses.  Frames are
 * interned: one td_frame per function (per DSO and offset when unknown),
 * alive until td_sym_free.
 */
struct td_frame {
	int id;                 /* 0, 1, ... in order of first appearance */
	const char *name;       /* function, or "[unknown]" */
	const char *dso;        /* file path, "[kernel.kallsyms]", "[module]",
	                           "/tmp/perf-PID.map", or "[unknown]" */
	uint64_t offset;        /* unknown frames: offset in the DSO */
	const char *source;     /* "file.c:LINE" of the function start, or NULL */
	int known, kernel, source_tried;
};
struct td_symbolizer;
struct td_symbolizer *td_sym_new(const struct td_pd *pd);
void td_sym_free(struct td_symbolizer *s);
/* Keep C++ ABI names mangled (perf report --no-demangle); call before
 * the first td_sym_resolve. */
void td_sym_no_demangle(struct td_symbolizer *s);
/* Read no file (ELF, kallsyms, JIT maps): every address unknown (fuzzing). */
void td_sym_offline(struct td_symbolizer *s);
/* 1 when the record reset a process' maps (exec): earlier resolutions
 * of its addresses no longer hold. */
int td_sym_feed(struct td_symbolizer *s, const struct td_pd_record *r);
/* The frame of ip in process pid (kernel: a kernel address). */
const struct td_frame *td_sym_resolve(struct td_symbolizer *s, uint32_t pid, uint64_t ip, int kernel);
size_t td_sym_nr_frames(const struct td_symbolizer *s);
/* Bumped each time a process' maps are reset (exec, fork of a new process):
 * a cache of pid's resolutions keyed with it stays right. */
uint32_t td_sym_generation(struct td_symbolizer *s, uint32_t pid);
/*
 * What the debug info says of a sampled (leaf) user address: its source
 * line and innermost inlined function.  Returns a detail id, or -1 when
 * there is none (no debug info, kernel, JIT, unknown).
 */
struct td_sym_detail {
	int frame;              /* the function's frame id */
	const char *inlined;    /* innermost inlined function, or NULL */
	const char *source;     /* "file.c:LINE", or NULL */
	/* with 'inlined': per level, innermost first, "NAME\tFILE:LINE\n"
	 * (addr2line -i's lines; the last, the function itself, has an empty
	 * NAME), or NULL */
	const char *inline_chain;
};
int td_sym_leaf_detail(struct td_symbolizer *s, uint32_t pid, uint64_t ip, int kernel);
const struct td_sym_detail *td_sym_detail(const struct td_symbolizer *s, int id);
const struct td_frame *td_sym_frame(const struct td_symbolizer *s, size_t id);
/* The build-id of a DSO path as hex in *hex: from its MMAP2 record, else
 * the BUILD_ID feature.  1 when known, 0 (hex untouched) when not. */
int td_sym_build_id(const struct td_symbolizer *s, const char *dso, struct strbuf *hex);
/* PERF_DATA_READER_API_END */

#endif /* TD_PARSE_H */
