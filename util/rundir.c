/*
 * Run directories are published atomically: everything is written into a
 * sibling directory "NAME.tmp-PID", and only a complete run is renamed to
 * NAME.  A reader therefore sees either the previous run or the new one,
 * never a mixture, and an interrupted record leaves no half-written run.
 */
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int td_rundir_begin(struct td_rundir *rd, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	rd->final_path = xstrndup(path, len);
	strbuf_addf(&sb, "%s.tmp-%ld", rd->final_path, (long)getpid());
	rd->tmp_path = strbuf_detach(&sb, NULL);
	td_remove_tree(rd->tmp_path);
	if (mkdir(rd->tmp_path, 0755) < 0) {
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
