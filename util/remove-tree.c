/*
 * Removing a directory tree that other users may be watching.
 *
 * tdperf removes trees it made (an unfinished run, a stale NAME.tmp-PID, a
 * NAME.old) in directories such as /tmp that other users can write.  A
 * walk by path strings can be redirected: swap a directory for a symbolic
 * link while the walk is inside it, and "DIR/a/NAME" names a file
 * elsewhere.  So the walk holds each directory open and works relative to
 * it (openat, fstatat, unlinkat), opens with O_NOFOLLOW, checks that what
 * it opened is what it looked at (device and inode), and never enters a
 * symbolic link (it is unlinked), another file system (a mount point) or
 * a directory another user owns.  What another user owns is left where it
 * is, said in one line.
 *
 * The depth is unbounded (a planted tree may be 10,000 deep) but neither
 * the C stack nor the descriptors are: the levels are an explicit stack,
 * and only the deepest OPEN_LEVELS of them keep their descriptor; a level
 * whose descriptor was closed is opened again from its nearest open
 * ancestor, name by name, each checked against the inode first seen.
 */
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Descriptors a walk keeps open at most (besides the top's parent). */
#define OPEN_LEVELS 32
/* Entries left behind that are named one by one; then only counted. */
#define NAMED_LEFT 8

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

struct level {
	int fd;          /* the directory, or -1 while closed to spare descriptors */
	dev_t dev;       /* what it was when first looked at */
	ino_t ino;
	char *name;      /* its name in the level below (the top's: its path) */
	char **subdirs;  /* subdirectories found in it, still to be removed */
	size_t nr_subdirs, alloc_subdirs, next_subdir;
};

struct walk {
	uid_t uid;           /* whose files we remove: ours */
	dev_t dev;           /* the top's file system, never left */
	struct level *levels;
	size_t depth, alloc; /* levels[0] is the top */
	unsigned long left;  /* entries not removed */
};

/* The path of entry 'name' of level i, for messages. */
static char *entry_path(const struct walk *w, size_t i, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k;

	for (k = 0; k <= i; k++) {
		if (k)
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, w->levels[k].name);
	}
	if (name) {
		strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, name);
	}
	return strbuf_detach(&sb, NULL);
}

/* Count an entry left behind, and say why while few were. */
static void leave(struct walk *w, size_t i, const char *name, const char *why)
{
	if (++w->left <= NAMED_LEFT) {
		char *path = entry_path(w, i, name);

		warning("%s: %s", path, why);
		free(path);
	}
}

/*
 * May the walk enter or remove an entry it looked at as 'st'?  Says why
 * not and returns 0 when another user owns it, or (a directory) when it
 * lies on another file system.
 */
static int ours(struct walk *w, size_t i, const char *name, const struct stat *st)
{
	if (st->st_uid != w->uid) {
		struct strbuf why = STRBUF_INIT;

		strbuf_addf(&why, "owned by uid %lu, not removing it", (unsigned long)st->st_uid);
		leave(w, i, name, why.buf);
		strbuf_release(&why);
		return 0;
	}
	if (S_ISDIR(st->st_mode) && st->st_dev != w->dev) {
		leave(w, i, name, "another file system is mounted here, not removing it");
		return 0;
	}
	return 1;
}

/*
 * Open directory 'name' in dirfd, never through a symbolic link, and only
 * when it is still the directory (dev, ino) seen before.  The fd, or -1.
 */
static int open_same_dir(int dirfd, const char *name, dev_t dev, ino_t ino)
{
	int fd = openat(dirfd, name, DIR_FLAGS);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_dev != dev || st.st_ino != ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/*
 * Unlink the plain entries of level i (files, symbolic links: a link is
 * removed, never followed) and note its subdirectories for later.
 */
static int scan_level(struct walk *w, size_t i)
{
	struct level *l = &w->levels[i];
	int fd = dup(l->fd);
	struct dirent *de;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(l->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				w->left++;
			continue;
		}
		if (!ours(w, i, de->d_name, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			TD_GROW(l->subdirs, l->alloc_subdirs, l->nr_subdirs + 1);
			l->subdirs[l->nr_subdirs++] = xstrdup(de->d_name);
		} else if (unlinkat(l->fd, de->d_name, 0) < 0 && errno != ENOENT) {
			w->left++;
		}
	}
	closedir(d);
	return 0;
}

/* Make sure level i has its descriptor, opening it again from below if needed. */
static int reopen_level(struct walk *w, size_t i)
{
	size_t base = i, k;

	while (w->levels[base].fd < 0)
		base--; /* the top always stays open */
	for (k = base + 1; k <= i; k++) {
		struct level *l = &w->levels[k];

		l->fd = open_same_dir(w->levels[k - 1].fd, l->name, l->dev, l->ino);
		/* keep the deepest ones, the walk goes back through them next */
		if (k - 1 > base && k - 1 + OPEN_LEVELS <= i) {
			close(w->levels[k - 1].fd);
			w->levels[k - 1].fd = -1;
		}
		if (l->fd < 0)
			return -1;
	}
	return 0;
}

/* Enter subdirectory 'name' of the deepest level: a new level, scanned. */
static int descend(struct walk *w, char *name)
{
	size_t i = w->depth - 1;
	struct level *l;
	struct stat st;
	int fd;

	if (fstatat(w->levels[i].fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
	    !ours(w, i, name, &st)) {
		free(name);
		return 0; /* gone, or no longer a directory of ours: nothing to enter */
	}
	fd = open_same_dir(w->levels[i].fd, name, st.st_dev, st.st_ino);
	if (fd < 0) {
		struct strbuf why = STRBUF_INIT;

		if (errno == ESTALE)
			strbuf_addstr(&why, "changed while being removed, not removing it");
		else
			strbuf_addf(&why, "cannot open it (%s), not removing it", strerror(errno));
		leave(w, i, name, why.buf);
		strbuf_release(&why);
		free(name);
		return 0;
	}
	TD_GROW(w->levels, w->alloc, w->depth + 1);
	l = &w->levels[w->depth++];
	memset(l, 0, sizeof(*l));
	l->fd = fd;
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->name = name;
	if (w->depth > OPEN_LEVELS + 1 && w->levels[w->depth - OPEN_LEVELS - 1].fd >= 0) {
		close(w->levels[w->depth - OPEN_LEVELS - 1].fd);
		w->levels[w->depth - OPEN_LEVELS - 1].fd = -1;
	}
	return scan_level(w, w->depth - 1);
}

/* The deepest level is done: close it and remove it from its parent. */
static int ascend(struct walk *w)
{
	struct level *l = &w->levels[--w->depth];
	int ret = 0;

	if (l->fd >= 0)
		close(l->fd);
	free(l->subdirs);
	if (reopen_level(w, w->depth - 1) < 0) {
		/* the way back up is not the way we came down: go no further */
		char *path = entry_path(w, w->depth - 1, NULL);

		warning("%s: changed while being removed, stopped removing it", path);
		free(path);
		ret = -1;
	} else if (unlinkat(w->levels[w->depth - 1].fd, l->name, AT_REMOVEDIR) < 0 &&
		   errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST) {
		w->left++; /* not empty: what it holds was counted already */
	}
	free(l->name);
	return ret;
}

/* Remove everything under the open top directory that may be removed. */
static int remove_contents(struct walk *w)
{
	int ret = scan_level(w, 0);

	while (!ret && (w->depth > 1 || w->levels[0].next_subdir < w->levels[0].nr_subdirs)) {
		struct level *l = &w->levels[w->depth - 1];

		if (l->next_subdir < l->nr_subdirs)
			ret = descend(w, l->subdirs[l->next_subdir++]);
		else
			ret = ascend(w);
	}
	return ret;
}

static void release_walk(struct walk *w)
{
	size_t i, k;

	for (i = 0; i < w->depth; i++) {
		struct level *l = &w->levels[i];

		if (l->fd >= 0)
			close(l->fd);
		for (k = l->next_subdir; k < l->nr_subdirs; k++)
			free(l->subdirs[k]);
		free(l->subdirs);
		if (i)
			free(l->name);
	}
	free(w->levels);
}

/* Split 'path' into its directory (opened) and its last name. */
static int open_parent(const char *path, char **base)
{
	char *copy = xstrdup(path), *slash;
	size_t len = strlen(copy);
	int fd;

	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	slash = strrchr(copy, '/');
	*base = xstrdup(slash ? slash + 1 : copy);
	if (slash)
		*(slash == copy ? slash + 1 : slash) = '\0';
	fd = open(slash ? copy : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd >= 0 && (!**base || !strcmp(*base, ".") || !strcmp(*base, ".."))) {
		close(fd);
		errno = EINVAL;
		fd = -1;
	}
	if (fd < 0) {
		free(*base);
		*base = NULL;
	}
	return fd;
}

int td_remove_tree(const char *path)
{
	struct walk w = { .uid = geteuid() };
	struct level *top;
	struct stat st;
	char *base;
	int parent = open_parent(path, &base), ret, saved;

	if (parent < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstatat(parent, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		ret = errno == ENOENT ? 0 : -1;
		goto out;
	}
	if (st.st_uid != w.uid) {
		warning("%s: owned by uid %lu, not removing it", path, (unsigned long)st.st_uid);
		errno = EPERM;
		ret = -1;
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		ret = unlinkat(parent, base, 0);
		goto out;
	}
	TD_GROW(w.levels, w.alloc, 1);
	top = &w.levels[w.depth++];
	memset(top, 0, sizeof(*top));
	top->fd = open_same_dir(parent, base, st.st_dev, st.st_ino);
	top->name = (char *)path;
	top->dev = w.dev = st.st_dev;
	top->ino = st.st_ino;
	if (top->fd < 0) {
		ret = -1;
		goto out;
	}
	ret = remove_contents(&w);
	if (w.left > NAMED_LEFT)
		warning("%s: %lu more entries not removed", path, w.left - NAMED_LEFT);
	if (!ret && unlinkat(parent, base, AT_REMOVEDIR) < 0)
		ret = -1;
out:
	saved = errno;
	release_walk(&w);
	close(parent);
	free(base);
	errno = saved;
	return ret;
}
