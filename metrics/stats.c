/*
 * Two-sample statistics for the regression gate (metrics/stats.h).
 *
 * Welch's t-test (B. L. Welch, "The generalization of 'Student's' problem
 * when several different population variances are involved", Biometrika
 * 34, 1947) with the Welch-Satterthwaite degrees of freedom: benchmark
 * runs of two builds rarely have equal variances, and there are few of
 * them (3 to 10), so neither the pooled-variance test nor a normal
 * approximation fits.
 *
 * Student's t distribution function through the regularized incomplete
 * beta function: for t > 0, P(T > t) = I_x(df/2, 1/2) / 2 with
 * x = df / (df + t^2) (Abramowitz & Stegun 26.7.1 and 26.5.27).  I_x is
 * evaluated by its continued fraction (A&S 26.5.8) with Lentz's method,
 * on the side of the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the
 * fraction converges quickly.
 */
#include "config.h"
#include "metrics/stats.h"

#include <float.h>
#include <math.h>

void td_sample_add(struct td_sample *s, double x)
{
	td_sample_add_group(s, 1, x, 0);
}

/* Chan, Golub and LeVeque's pairwise update of the mean and the sum of squares. */
void td_sample_add_group(struct td_sample *s, double n, double mean, double sem)
{
	double m2 = n > 1 ? sem * sem * n * (n - 1) : 0;
	double delta = mean - s->mean, total = s->n + n;

	if (!(n > 0))
		return;
	s->m2 += m2 + delta * delta * s->n * n / total;
	s->mean += delta * n / total;
	s->n = total;
}

double td_sample_var(const struct td_sample *s)
{
	return s->n >= 2 ? s->m2 / (s->n - 1) : NAN;
}

double td_sample_sd(const struct td_sample *s)
{
	return sqrt(td_sample_var(s));
}

/*
 * The continued fraction of I_x(a, b) without its prefactor (A&S 26.5.8),
 * 1 / (1 + d1 / (1 + d2 / (1 + ...))): Lentz's method evaluates the
 * denominator 1 + d1 / (1 + ...) as b0 + a1 / (b1 + ...) with b0 = 1.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double c = 1, d = 0, f = 1;
	int j;

	for (j = 1; j <= 10000; j++) {
		int m = j / 2;
		double coef, step;

		if (j % 2)
			coef = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else
			coef = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + coef * d;
		if (fabs(d) < tiny)
			d = tiny;
		d = 1 / d;
		c = 1 + coef / c;
		if (fabs(c) < tiny)
			c = tiny;
		step = c * d;
		f *= step;
		if (fabs(step - 1) < eps)
			break;
	}
	return 1 / f;
}

double td_beta_inc(double a, double b, double x)
{
	double front;

	if (!(a > 0 && b > 0) || !(x >= 0 && x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(a * log(x) + b * log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b)));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* P(T > |t|) + P(T < -|t|). */
static double two_sided_tail(double t, double df)
{
	if (isinf(t))
		return 0;
	return td_beta_inc(df / 2, 0.5, df / (df + t * t));
}

double td_student_t_cdf(double t, double df)
{
	double half_tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	half_tail = two_sided_tail(t, df) / 2;
	return t > 0 ? 1 - half_tail : half_tail;
}

/*
 * Bisection on the tail, which falls monotonically in t: slow but sure for
 * every df, and 200 halvings reach the precision of a double.
 */
double td_student_t_quantile(double p, double df)
{
	double want, lo = 0, hi = 1;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -td_student_t_quantile(1 - p, df);
	want = 2 * (1 - p);
	while (two_sided_tail(hi, df) > want && hi < 1e300)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > DBL_EPSILON * hi; i++) {
		double mid = lo + (hi - lo) / 2;

		if (two_sided_tail(mid, df) > want)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

int td_welch_test(const struct td_sample *base, const struct td_sample *new_,
		  double confidence, struct td_welch *out)
{
	double va, vb, q;

	out->diff = out->se = out->t = out->df = out->p = out->lo = out->hi = NAN;
	if (base->n < 2 || new_->n < 2)
		return -1;
	out->diff = new_->mean - base->mean;
	va = td_sample_var(base) / base->n;
	vb = td_sample_var(new_) / new_->n;
	out->se = sqrt(va + vb);
	if (out->se == 0) {
		/* identical values on each side: nothing varies, nothing to estimate */
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
		out->lo = out->hi = out->diff;
		return 0;
	}
	out->t = out->diff / out->se;
	out->df = (va + vb) * (va + vb) / (va * va / (base->n - 1) + vb * vb / (new_->n - 1));
	out->p = two_sided_tail(out->t, out->df);
	q = td_student_t_quantile(1 - (1 - confidence) / 2, out->df);
	out->lo = out->diff - q * out->se;
	out->hi = out->diff + q * out->se;
	return 0;
}
