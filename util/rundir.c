/*
 * Run directories are published atomically: everything is written into a
 * sibling directory "NAME.tmp-PID", and only a complete run is renamed to
 * NAME.  A reader therefore sees either the previous run or the new one,
 * never a mixture, and an interrupted record leaves no half-written run.
 */
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * May a run be published at 'path' (or kept as its .old)?  Only when
 * nothing is there or a directory is: a device, FIFO, symbolic link or
 * regular file at the name is not ours to rename or remove (ENOTDIR).
 */
static int replaceable(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return errno = ENOTDIR, -1;
	return 0;
}

/*
 * Remove NAME.tmp-PID siblings left by runs of NAME whose process is gone
 * (killed with SIGKILL, or the machine rebooted).  A live one is another
 * run of NAME still writing: -1 with EBUSY, so that of concurrent runs of
 * the same NAME the later ones fail at once instead of one silently
 * replacing another's result.
 */
static int remove_stale_tmp(const char *final_path)
{
	char *dir = xstrdup(final_path), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : final_path;
	struct strbuf prefix = STRBUF_INIT;
	struct dirent *de;
	int busy = 0;
	DIR *d;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	d = opendir(slash ? dir : ".");
	strbuf_addf(&prefix, "%s.tmp-", base);
	while (d && (de = readdir(d))) {
		char *end, *stale;
		long pid;

		if (strncmp(de->d_name, prefix.buf, prefix.len))
			continue;
		errno = 0;
		pid = strtol(de->d_name + prefix.len, &end, 10);
		if (*end || pid <= 0 || errno || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) {
			busy = 1; /* alive (or not ours to signal): still writing */
			continue;
		}
		stale = slash ? td_path_join(dir, de->d_name) : xstrdup(de->d_name);
		if (td_is_dir(stale))
			td_remove_tree(stale);
		free(stale);
	}
	if (d)
		closedir(d);
	strbuf_release(&prefix);
	free(dir);
	if (busy)
		errno = EBUSY;
	return busy ? -1 : 0;
}

/*
 * Hold an exclusive flock on the directory that will hold 'final_path'
 * while checking for concurrent runs and creating ours, so two runs
 * starting at the same moment cannot both see none.  The fd, or -1.
 */
static int lock_parent(const char *final_path)
{
	char *dir = xstrdup(final_path), *slash = strrchr(dir, '/');
	int fd;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd >= 0)
		flock(fd, LOCK_EX);
	return fd;
}

int td_rundir_begin(struct td_rundir *rd, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(path);
	int lock, ret;

	while (len > 1 && path[len - 1] == '/')
		len--;
	rd->final_path = xstrndup(path, len);
	strbuf_addf(&sb, "%s.old", rd->final_path);
	if (replaceable(rd->final_path) < 0 || replaceable(sb.buf) < 0) {
		int saved = errno;

		strbuf_release(&sb);
		free(rd->final_path);
		rd->final_path = rd->tmp_path = NULL;
		errno = saved;
		return -1;
	}
	strbuf_reset(&sb);
	lock = lock_parent(rd->final_path);
	if (remove_stale_tmp(rd->final_path) < 0) {
		strbuf_release(&sb);
		free(rd->final_path);
		rd->final_path = rd->tmp_path = NULL;
		if (lock >= 0)
			close(lock);
		errno = EBUSY;
		return -1;
	}
	strbuf_addf(&sb, "%s.tmp-%ld", rd->final_path, (long)getpid());
	rd->tmp_path = strbuf_detach(&sb, NULL);
	td_remove_tree(rd->tmp_path);
	ret = mkdir(rd->tmp_path, 0755);
	if (lock >= 0) {
		int saved = errno;

		close(lock); /* releases the flock */
		errno = saved;
	}
	if (ret < 0) {
		int saved = errno;

		free(rd->final_path);
		free(rd->tmp_path);
		rd->final_path = rd->tmp_path = NULL;
		errno = saved;
		return -1;
	}
	return 0;
}

char *td_rundir_file(const struct td_rundir *rd, const char *name)
{
	return td_path_join(rd->tmp_path, name);
}

int td_rundir_commit(struct td_rundir *rd)
{
	struct strbuf old = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&old, "%s.old", rd->final_path);
	if (replaceable(rd->final_path) < 0 || replaceable(old.buf) < 0) {
		ret = -1;
		goto out;
	}
	if (td_file_exists(rd->final_path)) {
		td_remove_tree(old.buf);
		if (rename(rd->final_path, old.buf) < 0) {
			ret = -1;
			goto out;
		}
	}
	if (rename(rd->tmp_path, rd->final_path) < 0)
		ret = -1;
out:
	strbuf_release(&old);
	if (!ret) {
		free(rd->tmp_path);
		free(rd->final_path);
		rd->tmp_path = rd->final_path = NULL;
	}
	return ret;
}

void td_rundir_abort(struct td_rundir *rd)
{
	if (rd->tmp_path)
		td_remove_tree(rd->tmp_path);
	free(rd->tmp_path);
	free(rd->final_path);
	rd->tmp_path = rd->final_path = NULL;
}
