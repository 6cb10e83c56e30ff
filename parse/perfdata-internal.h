/*
 * Private to parse/perfdata*.c: the state of an open perf.data.  The public
 * interface is the td_pd_ section of parse/parse.h.
 *
 * Layout facts come from the perf.data format notes (header, attrs,
 * feature sections, records, tracing data); see docs/dump-format.md for
 * what we print.
 */
#ifndef TD_PERFDATA_INTERNAL_H
#define TD_PERFDATA_INTERNAL_H

#include "parse/parse.h"

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <zstd.h>

#define PD_MAGIC "PERFILE2"
#define PD_MAGIC_SWAPPED "2ELIFREP"
#define PD_PIPE_HEADER_SIZE 16
#define PD_NR_FEATURES 256
#define PD_TRACEPOINT_TYPE 2

/* Bytes read without alignment in the file's byte order. */
static inline uint64_t pd_get64(const void *p, int swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static inline uint32_t pd_get32(const void *p, int swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint16_t pd_get16(const void *p, int swap)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

/* A record copied out of a transient buffer while it waits to be sorted. */
struct pd_block {
	struct pd_block *next;  /* free list */
	struct pd_block *all_next; /* every block of the stream, for freeing */
	size_t used, size;
	size_t live;            /* queued records still pointing here */
	unsigned char data[];
};

struct pd_queued {
	uint64_t time, seq;
	const unsigned char *rec;
	uint64_t offset;
	struct pd_block *block; /* NULL when rec points into the mapped file */
	uint32_t size;
	int compressed;
};

/*
 * One input stream: the main file, or one data.N of a directory.  Either
 * mapped (base/len) or read through a buffer from a pipe (fd >= 0).
 */
struct pd_stream {
	char *name;             /* for messages */
	int index;
	/* mapped input */
	const unsigned char *base;
	size_t len;
	void *map;
	size_t map_len;
	/* piped input: buf holds [buf_off, buf_off + buf_end) of the stream */
	int fd;
	unsigned char *buf;
	size_t buf_alloc, buf_pos, buf_end;
	uint64_t buf_off;
	int eof;
	uint64_t released;      /* mapped pages before this were given back */
	/* the data to read: [pos, end) */
	uint64_t pos, end;
	/* PERF_RECORD_COMPRESSED: one zstd stream per input stream */
	ZSTD_DStream *zds;
	unsigned char *zbuf;
	size_t zalloc, zpos, zlen;
	uint64_t zoff;          /* offset of zbuf[zpos] in the decompressed stream */
	uint64_t zsrc;          /* offset of the last COMPRESSED record */
	/* time ordering */
	struct pd_queued *heap;
	size_t nr_heap, alloc_heap;
	uint64_t seq, max_time, flush_limit;
	uint64_t max_time_round; /* largest time at the last FINISHED_ROUND */
	uint64_t round_off;     /* a FINISHED_ROUND to show (TD_PD_KEEP_RAW) */
	int round_pending, round_compressed;
	struct pd_block *cur_block, *free_blocks, *all_blocks;
	struct pd_block *held_block; /* block of the record handed out last */
	int at_eof;
	/* the decoded record handed out, plus its scratch space */
	struct td_pd_record rec;
	int have_rec;           /* rec is the peeked head (directory merge) */
	uint64_t rec_time;
	uint64_t *chain;        /* callchain copies (swapped or unaligned) */
	struct td_pd_read_value *values;
	char *strbuf;           /* comm/filename copies that lacked a NUL */
	unsigned char *copy;    /* a swapped or unaligned record, realigned */
};

struct pd_idmap {
	uint64_t id;
	int event;
};

struct td_pd {
	char *path;
	unsigned flags;
	int swap, pipe, dir;
	uint64_t header_size, attr_size;
	uint64_t attrs_off, attrs_size, data_off, data_size;
	uint64_t feat_bits[4];
	/* events */
	struct td_pd_event *events;
	size_t nr_events, alloc_events;
	struct pd_idmap *ids;
	size_t nr_ids, alloc_ids;
	int ids_sorted;
	int id_pos, is_pos;     /* of the first event (perf requires all equal) */
	uint64_t first_sample_type;
	/* features: payload offsets in the main stream, or copies (pipe mode) */
	struct { const unsigned char *data; size_t len; uint64_t off; int present; } feat[PD_NR_FEATURES];
	unsigned char *feat_copies[PD_NR_FEATURES];
	char *cmdline;
	/* the string features, copied out by td_pd_feature_string: one per
	 * file, so the strings td_pd_cpu points to live as long as the file */
	struct strbuf feat_strings[PD_NR_FEATURES];
	/* tracing */
	struct tep_handle *tep;
	unsigned char *tracing_copy; /* pipe mode: the blob */
	/* streams */
	struct pd_stream *streams;
	size_t nr_streams;
	const struct td_pd_record *last;
	struct strbuf err;
	int failed;
	int compressed_feature; /* COMPRESSED feature says zstd */
	uint32_t comp_mmap_len;
};

/* perfdata.c */
int pd_fail(struct td_pd *pd, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pd_fail_at(struct td_pd *pd, struct pd_stream *st, int compressed, uint64_t off,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int pd_add_event(struct td_pd *pd, const unsigned char *attr, size_t avail, uint64_t off);
int pd_add_id(struct td_pd *pd, uint64_t id, int event);
const struct td_pd_event *pd_event_for(struct td_pd *pd, uint64_t id);
void pd_set_event_name(struct td_pd *pd, struct td_pd_event *ev, const char *name, size_t len);
void pd_name_events(struct td_pd *pd);

/* perfdata-read.c */
int pd_stream_next(struct td_pd *pd, struct pd_stream *st, const struct td_pd_record **out);
void pd_stream_release(struct pd_stream *st);
int pd_decode(struct td_pd *pd, struct pd_stream *st, const unsigned char *rec, uint32_t size,
	      uint64_t off, int compressed, struct td_pd_record *r);
/* Time of a record for sorting: 1 with *time set, 0 when it has none. */
int pd_record_time(struct td_pd *pd, const unsigned char *rec, uint32_t size, uint64_t *time);

/* perfdata-trace.c */
int pd_parse_tracing_data(struct td_pd *pd, const unsigned char *blob, size_t len, uint64_t off);
void pd_attach_tracepoints(struct td_pd *pd);
void pd_free_tracing(struct td_pd *pd);

/* perfdata-feature.c */
int pd_read_features(struct td_pd *pd, struct pd_stream *main_st);
int pd_apply_feature(struct td_pd *pd, int feat, const unsigned char *data, size_t len, uint64_t off);
void pd_free_features(struct td_pd *pd);

/* perfdata-inline.c: source line and innermost inlined function of a
 * module address (link-time), each NULL when the debug info does not say.
 * *fs caches the function's debug-info entry across the addresses of one
 * function (NULL at first; release with free). */
struct Dwfl_Module;
struct pd_func_scope;
void pd_addr_detail(struct Dwfl_Module *mod, uint64_t addr, struct pd_func_scope **fs,
		    char **inlined, char **source, char **chain);

/*
 * perfdata-open.c: files a perf.data names (binaries, the build-id cache,
 * debug files, JIT maps, data.N), whose paths someone else may control.
 * pd_open_regular opens path read-only without waiting (a FIFO there
 * cannot block) and returns the descriptor of a regular file, checked
 * with fstat after the open (*st), so the file checked is the file read;
 * PD_OPEN_FAILED with errno set when it cannot be opened (with
 * PD_OPEN_NOFOLLOW, ELOOP for a symbolic link), PD_OPEN_NOT_REGULAR when
 * it is something else (st_mode says what: pd_file_kind).
 */
struct stat;
#define PD_OPEN_NOFOLLOW 1u
#define PD_OPEN_FAILED (-1)
#define PD_OPEN_NOT_REGULAR (-2)
int pd_open_regular(const char *path, unsigned flags, struct stat *st);
const char *pd_file_kind(mode_t mode);

#endif /* TD_PERFDATA_INTERNAL_H */
