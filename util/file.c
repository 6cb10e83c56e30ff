/*
 * Whole-file reads and atomic writes.  Every regular file tdperf writes goes
 * through a temporary file and a rename, so an interrupted run never
 * leaves a half-written report behind.  Special files (devices, FIFOs) are
 * written as streams; symbolic links are followed.
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
 */
static int write_stream(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), saved;

	if (fd < 0)
		return -1;
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
static int replace_regular(const char *path, const struct stat *old, const void *data, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	mode_t mode = old ? old->st_mode & 07777 : 0644;
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

int td_write_file_atomic(const char *path, const void *data, size_t len)
{
	struct stat st, lst;
	char *real;
	int ret;

	if (stat(path, &st) < 0) {
		/* a symbolic link to nothing: refused, never replaced by a file */
		if (errno == ENOENT && lstat(path, &lst) == 0)
			return errno = ENOENT, -1;
		return errno == ENOENT ? replace_regular(path, NULL, data, len) : -1;
	}
	if (S_ISDIR(st.st_mode))
		return errno = EISDIR, -1;
	if (!S_ISREG(st.st_mode))
		return write_stream(path, data, len);
	if (lstat(path, &lst) < 0 || !S_ISLNK(lst.st_mode))
		return replace_regular(path, &st, data, len);
	/* a symbolic link is followed: the file it names is replaced, the link stays */
	real = realpath(path, NULL);
	if (!real)
		return -1;
	ret = replace_regular(real, &st, data, len);
	free(real);
	return ret;
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

int td_remove_tree(const char *path)
{
	DIR *d;
	struct dirent *de;
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *child;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		child = td_path_join(path, de->d_name);
		td_remove_tree(child);
		free(child);
	}
	closedir(d);
	return rmdir(path);
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
