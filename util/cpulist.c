/*
 * CPU lists ("0-3,8"), the form of perf's -C option, of sysfs's online
 * file and of the CPU lists in a perf.data header; and the names of the
 * Arm core PMUs, each of which counts on one such list.
 */
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* One decimal CPU number, or -1; *p moves past it. */
static long cpu_number(const char **p, size_t nbits)
{
	char *end;
	long v;

	if (**p < '0' || **p > '9')
		return -1;
	v = strtol(*p, &end, 10);
	*p = end;
	return v >= 0 && (size_t)v < nbits ? v : -1;
}

int td_cpu_list_parse(const char *list, unsigned char *set, size_t nbits)
{
	const char *p = list;
	int count = 0;

	if (!*p)
		return -1;
	for (;;) {
		long lo = cpu_number(&p, nbits), hi = lo, c;

		if (lo < 0)
			return -1;
		if (*p == '-') {
			p++;
			hi = cpu_number(&p, nbits);
			if (hi < lo)
				return -1;
		}
		for (c = lo; c <= hi; c++)
			if (!(set[c / 8] & (1u << (c % 8)))) {
				set[c / 8] |= 1u << (c % 8);
				count++;
			}
		if (!*p || *p == '\n')
			return *p && p[1] ? -1 : count;
		if (*p++ != ',')
			return -1;
	}
}

int td_arm_is_core_pmu(const char *name)
{
	return !strncmp(name, "armv8_", 6) || !strncmp(name, "armv9_", 6);
}
