/*
 * Opening the files that a perf.data names: the binaries its MMAP records
 * mapped, perf's build-id cache, separate debug files, JIT maps, cached
 * kallsyms and the data.N streams of a perf.data directory.
 *
 * Whoever made the recording, or owns a directory on the way, chooses
 * what lies at those paths, and tdperf often runs as root.  A plain
 * open(2) of a FIFO waits for a writer that never comes (report
 * --hotspots hung), and checking the path before opening it checks a file
 * that can be swapped before the open.  So each such file is opened with
 * O_NONBLOCK (a FIFO opens at once), then the open file itself is checked
 * with fstat, and only a regular file is read, through that descriptor.
 */
#include "parse/perfdata-internal.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int pd_open_regular(const char *path, unsigned flags, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
		      (flags & PD_OPEN_NOFOLLOW ? O_NOFOLLOW : 0));

	if (fd < 0)
		return PD_OPEN_FAILED;
	if (fstat(fd, st) < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return PD_OPEN_FAILED;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return PD_OPEN_NOT_REGULAR;
	}
	return fd;
}

const char *pd_file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "not a regular file";
}
