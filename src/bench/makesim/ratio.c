/*
 * ratio.c - contest's Ratio: the build time under a load divided
 * by the same kernel's no_load build time (1.00 = the load cost
 * nothing; 2.50 = the build took 2.5 times as long).
 *
 * The ratio is of the means.  Its 95% interval comes from Welch's test
 * on the logarithms of the times (REFERENCES.md: "Simpler: Welch on
 * logarithms"): exp of (mean ln t - mean ln base) +- t(0.975, nu) * se,
 * which stays positive and needs no Fieller special case.  The Student
 * quantile is computed here by bisection on the regularised incomplete
 * beta function (continued fraction), so the module needs only libm.
 */
#include <math.h>
#include <stddef.h>

#include "makesim.h"

/* Continued fraction of the incomplete beta function (Lentz). */
static double
betacf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		if (fabs(d) < 1e-300)
			d = 1e-300;
		if (fabs(c) < 1e-300)
			c = 1e-300;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		if (fabs(d) < 1e-300)
			d = 1e-300;
		if (fabs(c) < 1e-300)
			c = 1e-300;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-12)
			break;
	}
	return h;
}

/* Regularised incomplete beta I_x(a, b). */
static double
ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* Two-sided tail P(|T| > t) of Student's t with @nu degrees. */
static double
t_tail2(double t, double nu)
{
	return ibeta(nu / 2, 0.5, nu / (nu + t * t));
}

/* t such that P(|T| > t) = 0.05. */
static double
t975(double nu)
{
	double lo = 0, hi = 1000;
	int i;

	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (t_tail2(mid, nu) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Mean and sample variance of ln(v); -1 if a value is not positive. */
static int
log_moments(const double *v, size_t n, double *mean, double *var, double *m)
{
	double s = 0, ss = 0, raw = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			return -1;
		s += log(v[i]);
		raw += v[i];
	}
	*mean = s / (double)n;
	*m = raw / (double)n;
	for (i = 0; i < n; i++)
		ss += (log(v[i]) - *mean) * (log(v[i]) - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
	return 0;
}

int
makesim_ratio(const double *t, size_t n, const double *base, size_t nb,
    struct ms_ratio *out)
{
	double la, va, ma, lb, vb, mb, se2, nu, q;

	out->ratio = out->lo = out->hi = NAN;
	if (n == 0 || nb == 0 || log_moments(t, n, &la, &va, &ma) < 0 ||
	    log_moments(base, nb, &lb, &vb, &mb) < 0)
		return -1;
	out->ratio = ma / mb;
	if (n < 2 || nb < 2)
		return 0;
	se2 = va / (double)n + vb / (double)nb;
	if (se2 <= 0) {
		/* identical runs on both sides: no spread to speak of */
		out->lo = out->hi = exp(la - lb);
		return 0;
	}
	nu = se2 * se2 / ((va / n) * (va / n) / (double)(n - 1) +
	    (vb / nb) * (vb / nb) / (double)(nb - 1));
	q = t975(nu) * sqrt(se2);
	out->lo = exp(la - lb - q);
	out->hi = exp(la - lb + q);
	return 0;
}
