/*
 * util/: the small shared toolkit every other directory builds on.
 *
 *  - strbuf: a growable, always NUL-terminated string (as in git); strvec,
 *    an argv being built.
 *  - messages: one format for every diagnostic, "tdperf: <what is wrong>",
 *    and die() for errors after which nothing sensible can continue.
 *  - files: whole-file reads and atomic writes.
 *  - run directories: create a run directory in a temporary place and
 *    publish it with one rename, keeping an existing one as NAME.old.
 *  - data directory: where formula tables and HTML templates live.
 *
 * The option parser of the commands has its own header, util/parse-options.h.
 *
 * Nothing here knows about perf, metrics or reports.
 */
#ifndef TD_UTIL_H
#define TD_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- memory: these never return NULL (they die on exhaustion) ---- */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Are a and b both NULL, or the same text? */
int td_str_same(const char *a, const char *b);
/* Grow *array so that it holds at least 'need' elements of 'elsize' bytes. */
void td_grow(void **array, size_t *alloc, size_t need, size_t elsize);
#define TD_GROW(arr, alloc, need) td_grow((void **)&(arr), &(alloc), (need), sizeof(*(arr)))

/* ---- strbuf ---- */
struct strbuf {
	size_t len;   /* bytes used, not counting the NUL */
	size_t alloc; /* bytes allocated */
	char *buf;    /* always NUL-terminated, never NULL after init */
};
#define STRBUF_INIT { 0, 0, (char *)td_strbuf_empty }
extern const char td_strbuf_empty[1];

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Hand the buffer to the caller (who frees it) and reset sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Let sb own s, a malloc'd NUL-terminated string (what it held is released). */
void strbuf_attach(struct strbuf *sb, char *s);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append s with HTML special characters (&<>"') escaped. */
void strbuf_add_html(struct strbuf *sb, const char *s);
/*
 * Append text from the input for a terminal or a text file: control
 * characters (C0, DEL, C1) and bytes that are not UTF-8 as \xNN, the rest
 * unchanged (util/message.c; messages go through it too).
 */
void strbuf_add_printable(struct strbuf *sb, const char *s);
void strbuf_add_printable_mem(struct strbuf *sb, const void *data, size_t len);
/*
 * The byte length of the UTF-8 character at s (at most 'left' bytes) when
 * it is one a terminal shows as text and XML allows, else 0: no C1
 * control, surrogate, overlong form, U+FFFE or U+FFFF.
 */
size_t td_utf8_text_len(const unsigned char *s, size_t left);
/*
 * s as strbuf_add_printable shows it, for a printf argument: s itself, or
 * a buffer reused 8 calls later (pass it straight to printf, never keep it).
 */
const char *td_printable(const char *s);
/* Append s as a CSV text cell: quoted as needed, a formula start neutralised. */
void strbuf_add_csv(struct strbuf *sb, const char *s);
void strbuf_trim(struct strbuf *sb);

/* ---- strvec: a NULL-terminated array of strings it owns (an argv to build) ---- */
struct strvec {
	char **v;     /* NULL-terminated once anything was pushed */
	size_t nr, alloc;
};
#define STRVEC_INIT { NULL, 0, 0 }
/* Append a copy of s. */
void strvec_push(struct strvec *sv, const char *s);
/* Append the printf-formatted string. */
void strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append a copy of each string of the NULL-terminated v (v may be NULL). */
void strvec_pushv(struct strvec *sv, char *const *v);
void strvec_clear(struct strvec *sv);

/* ---- messages ---- */
/*
 * All diagnostics go to stderr as one line: "tdperf: ...", "tdperf: warning: ...".
 * error() returns -1 so that callers can write 'return error(...)'.
 * die() prints and exits with status 2 (the exit code for bad input and usage).
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__attribute__((noreturn)) void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Flush and close stdout; 2 with one message when a write to it failed. */
int td_finish_stdout(int status);

/*
 * "Did you mean" (util/suggest.c): offer each known name; the result is
 * the one nearest the mistyped word when it is near enough and no other
 * thing (what: a node, an option) is as near, else NULL.  Names are
 * borrowed, not copied.
 */
struct td_suggest {
	const char *word, *best;
	const void *what;
	size_t distance;
	int ties;
};
size_t td_edit_distance(const char *a, const char *b);
void td_suggest_init(struct td_suggest *s, const char *word);
void td_suggest_offer(struct td_suggest *s, const char *name, const void *what);
const char *td_suggest_result(const struct td_suggest *s);
/* Report that a command exists but is not built yet; returns exit code 2. */
int td_not_built(const char *command);
/* Verbosity shared by all commands (-v increments it). */
extern int td_verbose;

/* ---- files ---- */
/*
 * Read a whole file into sb.  Returns 0, or -1 with errno set (the caller
 * names the file in its message).
 */
int td_read_file(struct strbuf *sb, const char *path);
/* Read all of a stream (e.g. stdin). */
int td_read_stream(struct strbuf *sb, FILE *f);
/*
 * Write data to path atomically: a temporary file in the same directory,
 * fsync'ed, then renamed over path; an existing file keeps its mode.  A
 * symbolic link made by us or root is followed (the file it names is
 * replaced; a dangling one is refused with ENOENT); one another user made
 * is refused (one line, exit 2, through die()).  A device, FIFO or socket
 * is written as a stream, never replaced (one swapped for a regular file
 * meanwhile: die()); a directory is EISDIR.  Returns 0 or -1 (errno set).
 */
int td_write_file_atomic(const char *path, const void *data, size_t len);
/* Do both paths name the same existing file (an output that is an input)? */
int td_same_file(const char *a, const char *b);
/* Say so and return -1 when the output file 'out' is the input 'in'. */
int td_refuse_input_as_output(const char *out, const char *in);
/* Join a directory and a name into a new string. */
char *td_path_join(const char *dir, const char *name);
int td_mkdir_p(const char *path);
/*
 * Remove a directory tree (unfinished run directories, NAME.old): never
 * through a symbolic link (one is unlinked), into another file system, or
 * into anything another user owns (left, and said in one warning line).
 * 0 when all is gone, -1 (errno set) when something stayed.
 */
int td_remove_tree(const char *path);
int td_is_dir(const char *path);
int td_file_exists(const char *path);
int td_is_regular_file(const char *path);
/*
 * May tdperf write runs into directory 'dir': is it ours or root's, and
 * can no other user write it (sticky ones such as /tmp excepted)?  0, or
 * -1 after one error line.  td_check_parent_trusted checks the directory
 * that holds 'path'.
 */
int td_check_dir_trusted(const char *dir);
int td_check_parent_trusted(const char *path);
/* td_write_file_atomic, but a file it creates gets 'mode' (not 0644). */
int td_write_file_mode(const char *path, const void *data, size_t len, unsigned mode);
/* Read all of fd into sb: 0, or -1 (errno set). */
int td_read_fd(struct strbuf *sb, int fd);
/*
 * Open 'name' in directory dirfd for reading when it is a regular file:
 * never through a symbolic link (ELOOP), never blocking on a FIFO.  The
 * fd, or -1 with errno (EISDIR, or EINVAL for a device, FIFO or socket).
 */
int td_open_regular_at(int dirfd, const char *name);
struct stat;
/*
 * openat(dirfd, name, flags) and fstat of what it opened into *st: the fd,
 * or -1 with errno (the open's or the fstat's, nothing left open).
 */
int td_open_stat_at(int dirfd, const char *name, int flags, struct stat *st);

/* ---- CPU lists ---- */
/*
 * A CPU list as perf and sysfs write it ("0-3,8,10-11"): the CPUs it
 * names are set in 'set', a bitmap of nbits bits (CPU c is bit c % 8 of
 * byte c / 8).  Returns the number of distinct CPUs, or -1 when the text
 * is not such a list or names a CPU of nbits or above.
 */
int td_cpu_list_parse(const char *list, unsigned char *set, size_t nbits);
/*
 * An Arm core PMU as the kernel names it: armv8_pmuv3_0 (ACPI),
 * armv8_pmuv3, armv8_cortex_a76, armv9_neoverse_v2 (device tree), one per
 * cluster on big.LITTLE systems.
 */
int td_arm_is_core_pmu(const char *name);

/* ---- run directories (format documented in docs/run-format.md) ---- */
#define TD_RUN_FORMAT_VERSION 1
#define TD_RUN_DEFAULT "tdperf.data"
/* Version of a job directory's meta.json (docs/job-format.md). */
#define TD_JOB_FORMAT_VERSION 1

struct td_rundir {
	char *final_path; /* where the run will live once committed */
	char *tmp_path;   /* where it is being written now */
	uint64_t dev, ino; /* what tmp_path is (made by td_rundir_begin) */
};
/*
 * Start a run directory that will become 'path'.  Files are written under
 * rd->tmp_path; nothing is visible at 'path' until td_rundir_commit().
 * A directory holding 'path' that is not td_check_dir_trusted(), or a
 * 'path' or 'path'.old that another user owns, ends the process (one
 * line, exit 2): nothing of theirs is renamed or removed.
 */
int td_rundir_begin(struct td_rundir *rd, const char *path);
/* Path of a file inside the run being written (caller frees). */
char *td_rundir_file(const struct td_rundir *rd, const char *name);
/*
 * Publish the run: an existing directory at final_path becomes
 * final_path.old (an older .old is removed), then tmp_path is renamed.
 */
int td_rundir_commit(struct td_rundir *rd);
/* Throw the unfinished run away (on error or interruption). */
void td_rundir_abort(struct td_rundir *rd);
/*
 * Did this process publish the run directory at 'path' (td_rundir_commit,
 * the latest one)?  1 with its device and inode, else 0.
 */
int td_rundir_published(const char *path, uint64_t *dev, uint64_t *ino);

/* ---- data directory ---- */
/*
 * Directory holding metrics/tables/ and templates/: $TDPERF_DATADIR if set,
 * the source tree when running the binary from its build tree, else the
 * installed pkgdatadir.  Returns a path under it (caller frees).
 */
char *td_data_path(const char *relative);

/* ---- external programs ---- */
/* $TDPERF_PERF or "perf"; $TDPERF_GNUPLOT or "gnuplot". */
const char *td_perf_program(void);
const char *td_gnuplot_program(void);
/* Search PATH (or take an absolute/relative path as is); caller frees. */
char *td_which(const char *program);

/* ---- numbers ---- */
/* Format a count with thousands separators into sb ("1,234,567"). */
void td_format_count(struct strbuf *sb, double v);

#endif /* TD_UTIL_H */
