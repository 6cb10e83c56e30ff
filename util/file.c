/*
 * Whole-file reads and atomic writes.  Every output tdperf writes goes
 * through a temporary file and a rename, so an interrupted run never
 * leaves a half-written report behind.
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

int td_write_file_atomic(const char *path, const void *data, size_t len)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p = data;
	int fd, saved;

	strbuf_addf(&tmp, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		strbuf_release(&tmp);
		return -1;
	}
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += w;
		len -= (size_t)w;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0)
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

int td_file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}
