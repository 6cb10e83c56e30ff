/*
 * Finding tdperf's data (formula tables, HTML templates) and the external
 * programs it drives.  perf and gnuplot are looked up at run time, never at
 * build time, so one binary works on machines that install them later.
 */
#include "util/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef TD_PKGDATADIR
#define TD_PKGDATADIR "/usr/local/share/tdperf"
#endif

/*
 * A binary run from its build tree uses the source tree's data, so that
 * developers and 'make check' never pick up an older installed copy.
 */
static int running_from_build_tree(void)
{
#ifdef TD_ABS_BUILDDIR
	char exe[PATH_MAX], dir[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	if (!realpath(TD_ABS_BUILDDIR, dir))
		return 0;
	/* tdperf itself, or a test program one or two levels below */
	return !strncmp(exe, dir, strlen(dir));
#else
	return 0;
#endif
}

char *td_data_path(const char *relative)
{
	const char *env = getenv("TDPERF_DATADIR");

	if (env && *env)
		return td_path_join(env, relative);
#ifdef TD_ABS_SRCDIR
	if (running_from_build_tree())
		return td_path_join(TD_ABS_SRCDIR, relative);
#endif
	return td_path_join(TD_PKGDATADIR, relative);
}

const char *td_perf_program(void)
{
	const char *env = getenv("TDPERF_PERF");

	return env && *env ? env : "perf";
}

const char *td_gnuplot_program(void)
{
	const char *env = getenv("TDPERF_GNUPLOT");

	return env && *env ? env : "gnuplot";
}

char *td_which(const char *program)
{
	const char *path = getenv("PATH");
	const char *p, *end;

	if (strchr(program, '/'))
		return access(program, X_OK) == 0 ? xstrdup(program) : NULL;
	if (!path)
		path = "/usr/bin:/bin";
	for (p = path; *p; p = *end ? end + 1 : end) {
		struct strbuf sb = STRBUF_INIT;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			strbuf_addch(&sb, '.');
		else
			strbuf_add(&sb, p, (size_t)(end - p));
		strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, program);
		if (access(sb.buf, X_OK) == 0)
			return strbuf_detach(&sb, NULL);
		strbuf_release(&sb);
	}
	return NULL;
}
