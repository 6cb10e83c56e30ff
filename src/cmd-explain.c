/*
 * tdperf explain: not built yet.
 */
#include "src/builtin.h"
#include "util/util.h"

#include <string.h>

static const char usage[] = "usage: tdperf explain [options]\n";

int cmd_explain(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return td_usage_ok(usage);
	return td_not_built("explain");
}
