/*
 * perf's Level 1 from the kernel's pre-Ice Lake topdown events.
 *
 * Before Ice Lake the kernel offers five generic events (Sandy Bridge
 * to Cascade Lake): topdown-total-slots (cycles times the issue width,
 * the width applied as the event's .scale), -slots-issued,
 * -slots-retired, -fetch-bubbles and -recovery-bubbles.  perf stat
 * --topdown (perf 4.8 to 6.2) computed from them, following Yasin (2014):
 *
 *	Frontend Bound  = fetch-bubbles / total-slots
 *	Bad Speculation = (slots-issued - slots-retired + recovery-bubbles) / total-slots
 *	Retiring        = slots-retired / total-slots
 *	Backend Bound   = 1 - (the three above)
 *
 * A formula table names the model-specific events instead, which such an
 * output does not have; this computes what perf computed, unclamped (perf
 * itself only zeroed values between -2 % and 0), so that absurd values
 * stay visible and get named by the sanity checks.
 */
#include "analyze/analyze-int.h"

#include <math.h>
#include <string.h>

/* The count of event name in s, NAN when missing. */
static double count_of(const struct td_scope *s, const char *pmu, const char *name)
{
	const struct td_count *c = td_scope_find(s, pmu, name);

	return c && c->status == TD_COUNT_OK ? c->value : NAN;
}

int td_legacy_level1(const struct td_scope *s, const char *pmu, struct td_legacy_l1 *out)
{
	double total = count_of(s, pmu, "topdown-total-slots");
	double issued = count_of(s, pmu, "topdown-slots-issued");
	double retired = count_of(s, pmu, "topdown-slots-retired");
	double fetch = count_of(s, pmu, "topdown-fetch-bubbles");
	double recovery = count_of(s, pmu, "topdown-recovery-bubbles");

	memset(out, 0, sizeof(*out));
	if (isnan(total) || isnan(issued) || isnan(retired) || isnan(fetch) || isnan(recovery) ||
	    total <= 0)
		return -1;
	out->frontend_bound = fetch / total;
	out->bad_speculation = (issued - retired + recovery) / total;
	out->retiring = retired / total;
	out->backend_bound = 1 - (out->frontend_bound + out->bad_speculation + out->retiring);
	out->total_below_issued = total < issued;
	out->total = total;
	out->issued = issued;
	return 0;
}

const char *td_legacy_level1_formula(const char *id)
{
	static const char *const f[][2] = {
		{ "frontend_bound", "topdown-fetch-bubbles / topdown-total-slots" },
		{ "bad_speculation", "(topdown-slots-issued - topdown-slots-retired + "
				     "topdown-recovery-bubbles) / topdown-total-slots" },
		{ "retiring", "topdown-slots-retired / topdown-total-slots" },
		{ "backend_bound", "1 - (frontend_bound + bad_speculation + retiring)" },
	};
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(f); i++)
		if (!strcmp(id, f[i][0]))
			return f[i][1];
	return NULL;
}

double td_legacy_level1_value(const struct td_legacy_l1 *l, const char *id)
{
	if (!strcmp(id, "frontend_bound"))
		return l->frontend_bound;
	if (!strcmp(id, "bad_speculation"))
		return l->bad_speculation;
	if (!strcmp(id, "retiring"))
		return l->retiring;
	if (!strcmp(id, "backend_bound"))
		return l->backend_bound;
	return NAN;
}
