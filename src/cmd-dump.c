/*
 * tdperf dump: not built yet.
 */
#include "src/builtin.h"
#include "util/util.h"

#include <string.h>

static const char usage[] = "usage: tdperf dump [options]\n";

int cmd_dump(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return td_usage_ok(usage);
	return td_not_built("dump");
}
