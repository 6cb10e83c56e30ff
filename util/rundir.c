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
 * nothing is there or a directory of ours is: a device, FIFO, symbolic link or
 * regular file at the name is not ours to rename or remove (ENOTDIR).  A
 * directory another user owns ends the process (one line, exit 2, after
 * throwing away 'rd' when given): renaming it, or removing the .old, would
 * change their files.
 */
static int replaceable(const char *path, struct td_rundir *rd)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return errno = ENOTDIR, -1;
	if (st.st_uid != geteuid()) {
		char *name = xstrdup(path); /* path may be rd's, freed by the abort */

		if (rd)
			td_rundir_abort(rd);
		die("%s: owned by uid %lu; refusing to replace another user's directory "
		    "(use a directory of your own)", name, (unsigned long)st.st_uid);
	}
	return 0;
}

/*
 * Remove NAME.tmp-PID siblings left by runs of NAME whose process is gone
 * (killed with SIGKILL, or the machine rebooted).  A live one is another
 * run of NAME still writing: -1 with EBUSY, so that of concurrent runs of
 * the same NAME the later ones fail at once instead of one silently
 * replacing another's result.  One another user owns is not ours to
 * remove, nor a sign of a run of ours: it is left, said when its process
 * is gone (a live one is that user's run; publishing over it is refused
 * at commit, by the owner of NAME).
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
		struct stat st;
		long pid;
		int alive;

		if (strncmp(de->d_name, prefix.buf, prefix.len))
			continue;
		errno = 0;
		pid = strtol(de->d_name + prefix.len, &end, 10);
		if (*end || pid <= 0 || errno || pid == (long)getpid())
			continue;
		/* alive, or not ours to signal: still writing */
		alive = kill((pid_t)pid, 0) == 0 || errno != ESRCH;
		stale = slash ? td_path_join(dir, de->d_name) : xstrdup(de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			; /* gone meanwhile */
		} else if (st.st_uid != geteuid()) {
			if (!alive)
				warning("%s: owned by uid %lu, not removing it", stale, (unsigned long)st.st_uid);
		} else if (alive) {
			busy = 1;
		} else if (S_ISDIR(st.st_mode)) {
			td_remove_tree(stale);
		}
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

/* Note what rd->tmp_path is, so that commit renames only what begin made. */
static int note_identity(struct td_rundir *rd)
{
	struct stat st;
	int fd = td_open_stat_at(AT_FDCWD, rd->tmp_path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, &st);

	if (fd < 0)
		return -1;
	close(fd);
	rd->dev = st.st_dev;
	rd->ino = st.st_ino;
	return 0;
}

int td_rundir_begin(struct td_rundir *rd, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(path);
	int lock, ret;

	while (len > 1 && path[len - 1] == '/')
		len--;
	rd->final_path = xstrndup(path, len);
	rd->dev = rd->ino = 0;
	/* in a directory another user controls, what we write could be swapped for links */
	if (td_check_parent_trusted(rd->final_path) < 0)
		exit(2);
	strbuf_addf(&sb, "%s.old", rd->final_path);
	if (replaceable(rd->final_path, NULL) < 0 || replaceable(sb.buf, NULL) < 0) {
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
	if (!ret)
		ret = note_identity(rd);
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

/* The run directory this process published last (td_rundir_published). */
static char *published_path;
static uint64_t published_dev, published_ino;

int td_rundir_commit(struct td_rundir *rd)
{
	struct strbuf old = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	strbuf_addf(&old, "%s.old", rd->final_path);
	if (replaceable(rd->final_path, rd) < 0 || replaceable(old.buf, rd) < 0) {
		ret = -1;
		goto out;
	}
	/* only the directory begin made is published */
	if (lstat(rd->tmp_path, &st) < 0) {
		ret = -1;
		goto out;
	}
	if (st.st_dev != rd->dev || st.st_ino != rd->ino) {
		errno = ESTALE;
		ret = -1;
		goto out;
	}
	if (lstat(rd->final_path, &st) == 0) {
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
		free(published_path);
		published_path = rd->final_path;
		published_dev = rd->dev;
		published_ino = rd->ino;
		free(rd->tmp_path);
		rd->tmp_path = rd->final_path = NULL;
	}
	return ret;
}

int td_rundir_published(const char *path, uint64_t *dev, uint64_t *ino)
{
	if (!published_path || strcmp(path, published_path))
		return 0;
	*dev = published_dev;
	*ino = published_ino;
	return 1;
}

void td_rundir_abort(struct td_rundir *rd)
{
	if (rd->tmp_path)
		td_remove_tree(rd->tmp_path);
	free(rd->tmp_path);
	free(rd->final_path);
	rd->tmp_path = rd->final_path = NULL;
}
