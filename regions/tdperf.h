/*
 * <tdperf.h>: tdperf's marker API.  Link with -ltdperf (pkg-config tdperf).
 *
 * Name the parts of a program that 'tdperf record --regions' should count
 * apart:
 *
 *	tdperf_region_begin("solve");
 *	solve();
 *	tdperf_region_end("solve");
 *
 * or, for the rest of a block (GCC and Clang, C and C++):
 *
 *	{
 *		TDPERF_REGION("solve");
 *		solve();
 *	}
 *
 * Regions nest, and one name may recur (recursion counts its outermost
 * pass in the inclusive counts); every thread keeps its own stack.  'name'
 * must stay valid until the program exits (a string literal is best).
 *
 * When the program does not run under 'tdperf record --regions' the
 * library found no TDPERF_REGIONS in the environment when it was loaded,
 * and each call below is one load and one branch: nothing is called.
 *
 * docs/regions.md says how counting works and what it costs.
 */
#ifndef TDPERF_H
#define TDPERF_H

#ifdef __cplusplus
extern "C" {
#endif

/* Non-zero when the library counts (set once, when it is loaded). */
extern int tdperf_regions_active;

/* Enter and leave a region of this thread.  An end whose name is not the
 * innermost open region's is a warning (stderr and the run's report). */
void tdperf_region_begin(const char *name);
void tdperf_region_end(const char *name);

/* The calls, behind the one branch that makes them free outside tdperf. */
#define tdperf_region_begin(name) \
	((void)(tdperf_regions_active ? tdperf_region_begin(name) : (void)0))
#define tdperf_region_end(name) \
	((void)(tdperf_regions_active ? tdperf_region_end(name) : (void)0))

static inline const char *tdperf_scope_begin_(const char *name)
{
	tdperf_region_begin(name);
	return name;
}

static inline void tdperf_scope_end_(const char *const *name)
{
	tdperf_region_end(*name);
}

#define TDPERF_CAT2_(a, b) a##b
#define TDPERF_CAT_(a, b) TDPERF_CAT2_(a, b)
/* A region from here to the end of the enclosing block (the cleanup attribute). */
#define TDPERF_REGION(name) \
	const char *const TDPERF_CAT_(tdperf_scope_, __LINE__) \
		__attribute__((cleanup(tdperf_scope_end_), unused)) = tdperf_scope_begin_(name)

#ifdef __cplusplus
}
#endif

#endif /* TDPERF_H */
