/*
 * Whole-file reads and atomic writes.  Every regular file tdperf writes goes
 * through a temporary file and a rename, so an interrupted run never
 * leaves a half-written report behind.  Special files (devices, FIFOs) are
 * written as streams.  A symbolic link is followed only when we or root
 * made it: tdperf often runs as root, writing into directories such as
 * /tmp or a shared job directory where another user could have planted a
 * link aimed at a file of root's.
 */
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int td_read_stream(struct strbuf *sb, FILE *f)
{
	char chunk[65536];
	size_t n;

	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(sb, chunk, n);
	return ferror(f) ? -1 : 0;
}

int td_read_file(struct strbuf *sb, const char *path)
{
	FILE *f;
	int ret, saved;
	struct stat st;

	if (!strcmp(path, "-"))
		return td_read_stream(sb, stdin);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	f = fopen(path, "rb");
	if (!f)
		return -1;
	ret = td_read_stream(sb, f);
	saved = errno;
	fclose(f);
	errno = saved;
	return ret;
}

char *td_path_join(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, dir);
	if (sb.len && sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, name);
	return strbuf_detach(&sb, NULL);
}

/* Write all of data to fd (a short write or EINTR is retried). */
static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * A device, FIFO or socket as the output (/dev/stdout of a pipe, a terminal,
 * /dev/null): the data are streamed into it.  Renaming a temporary file
 * over it would replace the special file itself with a regular file.
 * 'follow' says whether 'path' is a symbolic link we may go through; else
 * a link put there since we looked is not opened.  What was opened must
 * still be no regular file or directory: one swapped in since we looked is
 * never written.
 */
static int write_stream(const char *path, int follow, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW)), saved;
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
		close(fd);
		die("%s: was replaced while tdperf opened it; not writing into it", path);
	}
	if (write_all(fd, data, len) < 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return close(fd);
}

/*
 * Replace the regular file 'path' (or create it) through a temporary file
 * in the same directory and a rename.  An existing file keeps its mode and,
 * where we may, its owner: overwriting a 0600 report does not publish it.
 */
static int replace_regular(const char *path, const struct stat *old, mode_t new_mode,
			   const void *data, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	mode_t mode = old ? old->st_mode & 07777 : new_mode;
	int fd, saved;

	strbuf_addf(&tmp, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		strbuf_release(&tmp);
		return -1;
	}
	if (write_all(fd, data, len) < 0)
		goto fail;
	/* another user's file keeps its owner where we may (root); else it becomes ours */
	if (old && (old->st_uid != geteuid() || old->st_gid != getegid()))
		(void)!fchown(fd, old->st_uid, old->st_gid);
	if (fchmod(fd, mode) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp.buf, path) < 0)
		goto fail;
	strbuf_release(&tmp);
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp.buf);
	strbuf_release(&tmp);
	errno = saved;
	return -1;
}

/*
 * May we write through the symbolic link seen as 'st'?  Only when we or
 * root made it.  Another user's link, in a directory both of us can write
 * (a job directory, /tmp), would aim our write at a file of their choice;
 * the kernel's protected_symlinks guard covers sticky directories only,
 * and is often off.
 */
static int trusted_link(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

/* The text of the symbolic link 'path' (caller frees), or NULL. */
static char *read_link(const char *path, const struct stat *st)
{
	size_t size = st->st_size > 0 ? (size_t)st->st_size + 1 : 256;

	for (;;) {
		char *buf = xmalloc(size);
		ssize_t n = readlink(path, buf, size);

		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		size *= 2;
	}
}

/*
 * Check each symbolic link on the way from 'path' to the file it names:
 * one that neither we nor root made is refused (one line, exit 2).  1
 * when path is a symbolic link, 0 when it is not, -1 with errno.  The
 * walk stops at a link whose text names nothing (a dangling link, or a
 * "magic" one of /proc such as /proc/self/fd/1 of a pipe): stat(path)
 * then says which.
 */
static int check_links(const char *path)
{
	char *cur = xstrdup(path);
	int hops;

	for (hops = 0; hops < 40; hops++) {
		struct stat st;
		char *text, *next;

		if (lstat(cur, &st) < 0) {
			free(cur);
			if (hops)
				return 1;
			return errno == ENOENT ? 0 : -1;
		}
		if (!S_ISLNK(st.st_mode)) {
			free(cur);
			return hops > 0;
		}
		if (!trusted_link(&st))
			die("%s: a symbolic link owned by uid %lu; refusing to write through it "
			    "(remove it, or write elsewhere)", cur, (unsigned long)st.st_uid);
		text = read_link(cur, &st);
		if (!text) {
			free(cur);
			return -1;
		}
		if (text[0] == '/' || !strchr(cur, '/')) {
			next = text;
		} else {
			next = xstrndup(cur, strrchr(cur, '/') + 1 - cur);
			next = xrealloc(next, strlen(next) + strlen(text) + 1);
			strcat(next, text);
			free(text);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return -1;
}

int td_write_file_mode(const char *path, const void *data, size_t len, unsigned new_mode)
{
	int link = check_links(path), ret;
	struct stat st;
	char *real;

	if (link < 0)
		return -1;
	if (stat(path, &st) < 0) {
		/* a symbolic link to nothing: refused, never replaced by a file */
		if (errno == ENOENT && link)
			return errno = ENOENT, -1;
		return errno == ENOENT ? replace_regular(path, NULL, new_mode, data, len) : -1;
	}
	if (S_ISDIR(st.st_mode))
		return errno = EISDIR, -1;
	if (!S_ISREG(st.st_mode))
		return write_stream(path, link, data, len);
	if (!link)
		return replace_regular(path, &st, new_mode, data, len);
	/* a link of ours is followed: the file it names is replaced, the link stays */
	real = realpath(path, NULL);
	if (!real)
		return -1;
	ret = replace_regular(real, &st, new_mode, data, len);
	free(real);
	return ret;
}

int td_write_file_atomic(const char *path, const void *data, size_t len)
{
	return td_write_file_mode(path, data, len, 0644);
}

int td_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int td_refuse_input_as_output(const char *out, const char *in)
{
	struct stat st;

	/* a regular file only: /dev/stdout as both is a stream, never overwritten */
	if (!out || !in || stat(out, &st) < 0 || !S_ISREG(st.st_mode) || !td_same_file(out, in))
		return 0;
	error("%s: is the input %s; refusing to overwrite it", out, in);
	return -1;
}

int td_mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST) {
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

/*
 * Can a user other than us and root write directory st (or replace what
 * is in it)?  Group write counts only for a group that is not our own; a
 * sticky directory (/tmp) lets nobody replace another's entries.
 */
static int others_can_write(const struct stat *st)
{
	if (st->st_mode & S_ISVTX)
		return 0;
	return (st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid != getegid());
}

/* The refusal of directory 'dir', seen as st (and the link lst); -1, or 0 when it may hold runs. */
static int refuse_dir(const char *dir, const struct stat *lst, const struct stat *st)
{
	if (S_ISLNK(lst->st_mode) && !trusted_link(lst))
		return error("%s: a symbolic link owned by uid %lu; refusing to write through it "
			     "(use a directory of your own)", dir, (unsigned long)lst->st_uid);
	if (!S_ISDIR(st->st_mode))
		return error("%s: %s", dir, strerror(ENOTDIR));
	if (st->st_uid != geteuid() && st->st_uid != 0)
		return error("%s: owned by uid %lu; refusing to write a run into another user's directory "
			     "(use a directory of your own)", dir, (unsigned long)st->st_uid);
	if (others_can_write(st))
		return error("%s: other users can write it (mode %04o, not sticky); refusing to write a run "
			     "into it (use a directory of your own)", dir, (unsigned)(st->st_mode & 07777));
	return 0;
}

int td_check_dir_trusted(const char *dir)
{
	struct stat lst, st;
	char *cwd;
	int ret;

	if (lstat(dir, &lst) < 0 || stat(dir, &st) < 0)
		return error("%s: %s", dir, strerror(errno));
	if (strcmp(dir, ".") || !(cwd = getcwd(NULL, 0)))
		return refuse_dir(dir, &lst, &st);
	ret = refuse_dir(cwd, &lst, &st); /* "." would say little */
	free(cwd);
	return ret;
}

int td_check_parent_trusted(const char *path)
{
	char *dir = xstrdup(path), *slash;
	size_t len = strlen(dir);
	struct stat st;
	int ret;

	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	/* a directory that is not there holds nothing yet: creating in it fails, and says so */
	if (lstat(slash ? dir : ".", &st) < 0 && errno == ENOENT)
		ret = 0;
	else
		ret = td_check_dir_trusted(slash ? dir : ".");
	free(dir);
	return ret;
}

int td_read_fd(struct strbuf *sb, int fd)
{
	char chunk[65536];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		strbuf_add(sb, chunk, (size_t)n);
	}
	return 0;
}

int td_open_stat_at(int dirfd, const char *name, int flags, struct stat *st)
{
	int fd = openat(dirfd, name, flags);

	if (fd < 0)
		return -1;
	if (fstat(fd, st) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

int td_open_regular_at(int dirfd, const char *name)
{
	struct stat st;
	int fd = td_open_stat_at(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, &st);

	if (fd < 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	/* a regular file: reads never block, and should not fail as if they might */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int td_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int td_is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int td_file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}
