/*
 * metrics/stats.h: two-sample statistics for the regression gate.
 *
 * Summaries of repeated measurements (count, mean, sample variance),
 * pooled from raw values and from groups perf already summarized (perf
 * stat -r N prints the mean and the standard error of the mean), and
 * Welch's unequal-variance t-test on two of them: t, the
 * Welch-Satterthwaite degrees of freedom, the two-sided p-value and the
 * confidence interval of the difference.  The Student t distribution is
 * computed from the regularized incomplete beta function (continued
 * fraction), so any confidence level and any fractional df work: there is
 * no table.
 *
 * Ownership: plain structs filled by the caller's pointers; nothing is
 * allocated.
 *
 * Errors: a quantity that cannot be computed is NAN (a side with fewer
 * than two values has no variance, so no test).
 */
#ifndef TD_METRICS_STATS_H
#define TD_METRICS_STATS_H

#include <stddef.h>

struct td_sample {
	double n;    /* number of measurements (a double: pooled groups add up) */
	double mean;
	double m2;   /* sum of squared deviations from the mean */
};

#define TD_SAMPLE_INIT { 0, 0, 0 }

/* Add one measured value. */
void td_sample_add(struct td_sample *s, double x);

/*
 * Add a group of n measurements known by their mean and the standard
 * error of that mean (perf stat -r N: "+- 0.12 %" is sem / mean).  Exact:
 * the pooled mean and sum of squares are those of the n values.
 */
void td_sample_add_group(struct td_sample *s, double n, double mean, double sem);

/* The sample variance (n - 1 in the denominator); NAN below two values. */
double td_sample_var(const struct td_sample *s);
double td_sample_sd(const struct td_sample *s);

/* Welch's test of new - base. */
struct td_welch {
	double diff;     /* mean(new) - mean(base) */
	double se;       /* standard error of diff */
	double t;        /* diff / se; +-INFINITY when se is 0 and diff is not */
	double df;       /* Welch-Satterthwaite; NAN when se is 0 */
	double p;        /* two-sided p-value of "no difference" */
	double lo, hi;   /* the confidence interval of diff */
};

/*
 * Returns 0, or -1 (everything NAN) when a side has fewer than two
 * measurements.  Both variances 0: se 0, and the difference is either
 * exactly 0 (p = 1) or certain (p = 0), with the interval [diff, diff].
 */
int td_welch_test(const struct td_sample *base, const struct td_sample *new_,
		  double confidence, struct td_welch *out);

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double td_beta_inc(double a, double b, double x);

/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
double td_student_t_cdf(double t, double df);

/* The t with P(T <= t) = p, 0 < p < 1. */
double td_student_t_quantile(double p, double df);

#endif
