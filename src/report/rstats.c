/*
 * rstats.c - the report's statistics.  The t distribution comes from
 * GSL (gsl_cdf_tdist_*); the arithmetic around it is ours.
 *
 * Conventions (also in docs/report.md):
 * - sd is the sample standard deviation (n - 1); CoV = sd / |mean|.
 * - The 95% CI of a mean is mean +- t(0.975, n-1) * sd / sqrt(n); it
 *   needs n >= 2 (NAN otherwise).
 * - Welch's t-test: t = (mb - ma) / sqrt(va + vb) with va = sa^2/na,
 *   Welch-Satterthwaite df; two-sided p.  With n < 2 on either side the
 *   test is not possible (p NAN, never significant).  When both
 *   variances are 0 the difference is exact: p = 1 if the means are
 *   equal, else 0.
 * - A difference is marked (rs_mark(): '*', significant=1, counted by
 *   the regression gate) when p < 0.05, the metric is not info, and
 *   the change is at least the minimum change (--min-change, 1%): two
 *   identical runs that differ by one fault in 65,000 are "exactly"
 *   different (both variances 0, p = 0) but not worth reading.
 * - Fieller's 95% CI of the ratio b/a, with the Welch df; unbounded
 *   when a^2 <= t^2 va (the baseline mean is not clearly non-zero);
 *   none at all (lo, hi NAN, not unbounded) with one run on a side.
 * - Modified Z-scores: 0.6745 (x - median) / MAD; when the MAD is 0
 *   (more than half of the runs equal the median) the mean absolute
 *   deviation from the median stands in for it, as (x - median) /
 *   (1.253314 MeanAD) (IBM SPSS's convention); with no deviation at
 *   all there is no outlier.
 * - Runs per side to detect a relative change delta at alpha 0.05 and
 *   power 0.8: n = 2 (z.975 + z.8)^2 (CoV/delta)^2 = 15.7 (CoV/delta)^2;
 *   the smallest detectable change, CoV sqrt(15.7 / n), needs n >= 2.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "rstats.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
rs_describe(const double *v, int n, int stride, struct rs_desc *d)
{
	double buf[64], *s = buf, sum = 0, ss = 0, h, sc, dv;
	int i, k = 0, e;

	d->n = 0;
	d->mean = d->sd = d->cov = d->min = d->median = d->max = NAN;
	d->ci_lo = d->ci_hi = NAN;
	if (n > 64) {
		s = malloc((size_t)n * sizeof(double));
		if (!s)
			return;
	}
	for (i = 0; i < n; i++)
		if (!isnan(v[(size_t)i * (size_t)stride]))
			s[k++] = v[(size_t)i * (size_t)stride];
	d->n = k;
	if (k == 0)
		goto out;
	qsort(s, (size_t)k, sizeof(double), cmp_double);
	/*
	 * Sums of values scaled by a power of two near the largest |value|
	 * (exact, so ordinary figures come out bit for bit the same): a
	 * sum of finite values near DBL_MAX does not overflow to inf.
	 */
	frexp(fmax(fabs(s[0]), fabs(s[k - 1])), &e);
	sc = ldexp(1, e - 1);
	if (!(sc > 0 && isfinite(sc)))
		sc = 1;
	for (i = 0; i < k; i++)
		sum += s[i] / sc;
	d->mean = sum / k * sc;
	d->min = s[0];
	d->max = s[k - 1];
	d->median = k % 2 ? s[k / 2] : s[k / 2 - 1] / 2 + s[k / 2] / 2;
	if (k < 2)
		goto out;
	/* two-pass variance: no cancellation for large, close values */
	for (i = 0; i < k; i++) {
		dv = s[i] / sc - sum / k;
		ss += dv * dv;
	}
	d->sd = sqrt(ss / (k - 1)) * sc;
	d->cov = d->mean != 0 ? d->sd / fabs(d->mean) : NAN;
	h = rs_t_upper(0.025, k - 1) * d->sd / sqrt(k);
	d->ci_lo = d->mean - h;
	d->ci_hi = d->mean + h;
out:
	if (s != buf)
		free(s);
}

/*
 * gsl_cdf_tdist_Qinv costs ~20 us; the 95% CI of a mean asks for the
 * same few whole df over and over, so those are remembered.
 */
double
rs_t_upper(double p, double df)
{
	static double memo[1025];
	int i;

	if (!(df > 0) || !(p > 0 && p < 1))
		return NAN;
	if (p != 0.025 || df != floor(df) || df > 1024)
		return gsl_cdf_tdist_Qinv(p, df);
	i = (int)df;
	if (!memo[i])
		memo[i] = gsl_cdf_tdist_Qinv(p, df);
	return memo[i];
}

double
rs_t_p2(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}

void
rs_welch(const struct rs_desc *a, const struct rs_desc *b,
    struct rs_welch *w)
{
	double va, vb, se2;

	w->t = w->df = w->p = NAN;
	if (a->n < 2 || b->n < 2)
		return;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se2 = va + vb;
	if (se2 == 0) {
		w->df = a->n + b->n - 2;
		w->t = b->mean == a->mean ? 0 :
		    b->mean > a->mean ? INFINITY : -INFINITY;
		w->p = b->mean == a->mean ? 1 : 0;
		return;
	}
	w->t = (b->mean - a->mean) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	w->p = rs_t_p2(w->t, w->df);
}

void
rs_fieller(const struct rs_desc *a, const struct rs_desc *b, double df,
    struct rs_ratio *r)
{
	double va, vb, t, t2, den, disc, ab;

	r->r = a->mean != 0 ? b->mean / a->mean : NAN;
	r->lo = r->hi = NAN;
	r->unbounded = 0;
	/* one run on a side: no variance, so no interval at all */
	if (a->n < 2 || b->n < 2)
		return;
	if (isnan(df)) {
		r->unbounded = 1;
		return;
	}
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	if (va == 0 && vb == 0) {
		if (a->mean == 0)
			r->unbounded = 1;
		else
			r->lo = r->hi = r->r;
		return;
	}
	t = rs_t_upper(0.025, df);
	t2 = t * t;
	den = a->mean * a->mean - t2 * va;
	if (!(den > 0)) {
		r->unbounded = 1;
		return;
	}
	ab = a->mean * b->mean;
	disc = a->mean * a->mean * vb + b->mean * b->mean * va - t2 * va * vb;
	if (disc < 0)
		disc = 0;
	r->lo = (ab - t * sqrt(disc)) / den;
	r->hi = (ab + t * sqrt(disc)) / den;
}

double
rs_pct_better(double a, double b, enum vb_dir dir)
{
	if (a == b)
		return 0;
	if (a == 0 || isnan(a) || isnan(b))
		return NAN;
	if (dir == VB_LOWER)
		return (a - b) / fabs(a) * 100;
	return (b - a) / fabs(a) * 100;
}

void
rs_compare(const struct rs_desc *a, const struct rs_desc *b,
    enum vb_dir dir, struct rs_cmp *c)
{
	c->pct = a->n && b->n ? rs_pct_better(a->mean, b->mean, dir) : NAN;
	rs_welch(a, b, &c->w);
	c->sig = c->w.p < 0.05;
	c->have_ratio = 0;
}

void
rs_mark(const struct rs_desc *a, const struct rs_desc *b, enum vb_dir dir,
    double min_pct, struct rs_cmp *c)
{
	c->sig = c->w.p < 0.05 && dir != VB_INFO;
	if (!c->sig)
		return;
	if (isnan(c->pct))	/* from a baseline of 0: a whole change */
		c->sig = a->n && b->n && a->mean == 0 && b->mean != 0;
	else
		c->sig = fabs(c->pct) >= min_pct;
}

const struct rs_ratio *
rs_cmp_ratio(const struct rs_desc *a, const struct rs_desc *b,
    struct rs_cmp *c)
{
	if (!c->have_ratio) {
		rs_fieller(a, b, c->w.df, &c->ratio);
		c->have_ratio = 1;
	}
	return &c->ratio;
}

int
rs_modz(const double *v, int n, int stride, double *z)
{
	double *dev = malloc((size_t)(n ? n : 1) * sizeof(double)), med, mad;
	double meanad;
	struct rs_desc d;
	int i, k = 0;

	if (!dev)
		return -1;
	rs_describe(v, n, stride, &d);
	med = d.median;
	for (i = 0; i < n; i++) {
		double x = v[(size_t)i * (size_t)stride];

		if (!isnan(x))
			dev[k++] = fabs(x - med);
	}
	rs_describe(dev, k, 1, &d);
	mad = d.median;
	meanad = d.mean;
	free(dev);
	if (k < 5 || !(meanad > 0))
		return -1;
	for (i = 0; i < n; i++) {
		double x = v[(size_t)i * (size_t)stride] - med;

		/* 0.6745 / MAD, or with MAD 0, 1 / (1.253314 MeanAD) */
		z[i] = mad > 0 ? 0.6745 * x / mad : x / (1.253314 * meanad);
	}
	return 0;
}

double
rs_runs_needed(double cov, double delta)
{
	return 15.7 * (cov / delta) * (cov / delta);
}

double
rs_detectable(double cov, int n)
{
	/* one run a side has no test, so no change is detectable */
	return n > 1 ? cov * sqrt(15.7 / n) : NAN;
}

/*
 * The geometric mean of ratios over k metrics is exp(mean of log
 * ratios).  Each log ratio's variance is taken by the delta method,
 * sb^2/(nb mb^2) + sa^2/(na ma^2), with Welch-Satterthwaite df; the
 * variances add, and the df of the sum is Satterthwaite's again.  The
 * interval is exp(M +- t(0.975, df) sqrt(V)).
 */
void
rs_geo_init(struct rs_geo *g)
{
	memset(g, 0, sizeof(*g));
	g->g = g->lo = g->hi = NAN;
}

int
rs_geo_add(struct rs_geo *g, const struct rs_desc *a,
    const struct rs_desc *b)
{
	double ua, ub, v, df;

	if (!a->n || !b->n || !(a->mean > 0) || !(b->mean > 0))
		return -1;
	g->k++;
	g->sum_log += log(b->mean / a->mean);
	if (a->n < 2 || b->n < 2) {
		g->sum_var = NAN;
		return 0;
	}
	ua = a->sd * a->sd / (a->n * a->mean * a->mean);
	ub = b->sd * b->sd / (b->n * b->mean * b->mean);
	v = ua + ub;
	g->sum_var += v;
	if (v > 0) {
		df = v * v / (ua * ua / (a->n - 1) + ub * ub / (b->n - 1));
		g->sum_v2df += v * v / df;
	}
	return 0;
}

void
rs_geo_finish(struct rs_geo *g)
{
	double m, se, t, df;

	if (!g->k)
		return;
	m = g->sum_log / g->k;
	g->g = exp(m);
	if (isnan(g->sum_var))
		return;
	if (g->sum_var == 0) {
		g->lo = g->hi = g->g;
		return;
	}
	df = g->sum_var * g->sum_var / g->sum_v2df;
	se = sqrt(g->sum_var) / g->k;
	t = rs_t_upper(0.025, df);
	g->lo = exp(m - t * se);
	g->hi = exp(m + t * se);
}
