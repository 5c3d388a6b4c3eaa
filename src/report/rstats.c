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
 *   variances are 0, t is infinite and p is the exact permutation p
 *   (rs_perm_p(): 1 / C(na + nb, na), twice that when na = nb), 1 when
 *   the means are equal: values that repeat are evidence only when
 *   enough of them do.  Variances are computed on values divided by a
 *   common power of two (rs_scale()): no overflow near 1e300, no
 *   underflow near 1e-300.  Equal values have sd 0 exactly.
 * - The change is (b - a) / |a| (negated when lower is better): NAN
 *   from a baseline of 0, both 0 included.
 * - A difference is marked (rs_mark(): '*', significant=1, counted by
 *   the regression gate) when p < 0.05, the metric is not info, and
 *   the change is at least the minimum change (--min-change, 1%): runs
 *   that differ by one fault in 65,000 may be certainly different but
 *   are not worth reading.
 * - Holm's and Benjamini-Hochberg's adjusted p over a family
 *   (rs_holm(), rs_bh()); the geometric mean of ratios with runs as
 *   the unit (rs_georun_*()): docs/report.md.
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

/*
 * Sort @n values (no NAN): a few by insertion (qsort()'s calls through
 * a pointer cost more than the sort), more by qsort().  Insertion keeps
 * equal values in their order, as glibc 2.36's qsort() (a merge sort)
 * does: of equal values only -0 and 0 can be told apart.
 */
static void
sort_doubles(double *v, int n)
{
	int i, j;
	double x;

	if (n > 16) {
		qsort(v, (size_t)n, sizeof(double), cmp_double);
		return;
	}
	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
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
	sort_doubles(s, k);
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
	/*
	 * Equal values: no spread, exactly (a sum of 0.2s, which binary
	 * cannot hold, would round to a mean of 0.20000000000000004 and
	 * an SD of 3.4e-17).
	 */
	if (s[0] == s[k - 1]) {
		d->mean = d->median = s[0];
		d->sd = 0;
		d->cov = d->mean != 0 ? 0 : NAN;
		d->ci_lo = d->ci_hi = d->mean;
		goto out;
	}
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

/*
 * The exact permutation p of two samples with no spread whose values
 * differ: of the C(na + nb, na) ways to share the values between the
 * sides, the observed one alone is the most extreme (with na = nb its
 * mirror too).  1 / C = prod_{i <= min} i / (max + i), which underflows
 * to 0 rather than overflowing.
 */
double
rs_perm_p(int na, int nb)
{
	int lo = na < nb ? na : nb, hi = na < nb ? nb : na, i;
	double p = na == nb ? 2 : 1;

	if (lo < 2)
		return NAN;
	for (i = 1; i <= lo; i++)
		p *= (double)i / (hi + i);
	return p;
}

/*
 * A power of two near the largest of @n magnitudes: the variances are
 * computed from values divided by it (exact), so that squaring an SD
 * near 1e300 does not overflow nor one near 1e-300 underflow, while
 * ordinary figures come out bit for bit as without it.
 */
double
rs_scale(const double *v, int n)
{
	double m = 0, sc;
	int i, e;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			m = fmax(m, fabs(v[i]));
	if (m == 0)
		return 1;
	frexp(m, &e);
	sc = ldexp(1, e - 1);
	return sc > 0 && isfinite(sc) ? sc : 1;
}

void
rs_welch(const struct rs_desc *a, const struct rs_desc *b,
    struct rs_welch *w)
{
	double va, vb, se2, sc;

	w->t = w->df = w->p = NAN;
	if (a->n < 2 || b->n < 2)
		return;
	sc = rs_scale((const double[]){ a->mean, b->mean, a->sd, b->sd },
	    4);
	va = (a->sd / sc) * (a->sd / sc) / a->n;
	vb = (b->sd / sc) * (b->sd / sc) / b->n;
	se2 = va + vb;
	if (a->sd == 0 && b->sd == 0) {
		/* no spread: the exact permutation p, never 0 */
		w->df = a->n + b->n - 2;
		w->t = b->mean == a->mean ? 0 :
		    b->mean > a->mean ? INFINITY : -INFINITY;
		w->p = b->mean == a->mean ? 1 : rs_perm_p(a->n, b->n);
		return;
	}
	w->t = (b->mean / sc - a->mean / sc) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	w->p = rs_t_p2(w->t, w->df);
}

void
rs_fieller(const struct rs_desc *a, const struct rs_desc *b, double df,
    struct rs_ratio *r)
{
	double va, vb, t, t2, den, disc, ab, ma, mb, sc;

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
	if (a->sd == 0 && b->sd == 0) {
		if (a->mean == 0)
			r->unbounded = 1;
		else
			r->lo = r->hi = r->r;
		return;
	}
	/* the ratio is scale-free: compute it on scaled values */
	sc = rs_scale((const double[]){ a->mean, b->mean, a->sd, b->sd },
	    4);
	ma = a->mean / sc;
	mb = b->mean / sc;
	va = (a->sd / sc) * (a->sd / sc) / a->n;
	vb = (b->sd / sc) * (b->sd / sc) / b->n;
	t = rs_t_upper(0.025, df);
	t2 = t * t;
	den = ma * ma - t2 * va;
	if (!(den > 0)) {
		r->unbounded = 1;
		return;
	}
	ab = ma * mb;
	disc = ma * ma * vb + mb * mb * va - t2 * va * vb;
	if (disc < 0)
		disc = 0;
	r->lo = (ab - t * sqrt(disc)) / den;
	r->hi = (ab + t * sqrt(disc)) / den;
}

double
rs_pct_better(double a, double b, enum vb_dir dir)
{
	double d;

	/* from a baseline of 0 (both 0 included) there is no percentage */
	if (a == 0 || isnan(a) || isnan(b))
		return NAN;
	if (a == b)
		return 0;
	d = dir == VB_LOWER ? a - b : b - a;
	/* of values of both signs near DBL_MAX: halved, exactly */
	if (isinf(d))
		return (dir == VB_LOWER ? a / 2 - b / 2 : b / 2 - a / 2) /
		    fabs(a) * 200;
	return d / fabs(a) * 100;
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
	double ua, ub, v, df, r;

	if (!a->n || !b->n || !(a->mean > 0) || !(b->mean > 0))
		return -1;
	g->k++;
	r = b->mean / a->mean;
	/* 1e300 against 1e-300: the ratio overflows, its log does not */
	g->sum_log += r > 0 && isfinite(r) ? log(r) :
	    log(b->mean) - log(a->mean);
	if (a->n < 2 || b->n < 2) {
		g->sum_var = NAN;
		return 0;
	}
	/* from the CoVs: sd * sd would overflow near 1e300 */
	ua = (a->sd / a->mean) * (a->sd / a->mean) / a->n;
	ub = (b->sd / b->mean) * (b->sd / b->mean) / b->n;
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

/*
 * The family's p in ascending order, ties by position (the adjusted p
 * of tied p come out equal whatever their order).  Returns the family
 * size, -1 when out of memory; *@out allocated.
 */
struct pidx {
	double p;
	int i;
};

static int
cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

static int
family(const double *p, int n, double *adj, struct pidx **out)
{
	struct pidx *s;
	int i, m = 0;

	*out = NULL;
	for (i = 0; i < n; i++)
		m += !isnan(p[i]);
	if (m == 0) {
		for (i = 0; i < n; i++)
			adj[i] = NAN;
		return 0;
	}
	if (!(s = malloc((size_t)m * sizeof(*s))))
		return -1;
	for (i = 0, m = 0; i < n; i++)
		if (!isnan(p[i])) {
			s[m].p = p[i];
			s[m++].i = i;
		}
	qsort(s, (size_t)m, sizeof(*s), cmp_pidx);
	for (i = 0; i < n; i++)		/* @adj may be @p */
		adj[i] = NAN;
	*out = s;
	return m;
}

/*
 * Holm's step-down: with the m p of the family sorted, p(1) <= ... <=
 * p(m), adj(k) = max over j <= k of min(1, (m - j + 1) p(j)).
 */
int
rs_holm(const double *p, int n, double *adj)
{
	struct pidx *s;
	double run = 0, v;
	int m, k;

	if ((m = family(p, n, adj, &s)) <= 0)
		return m;
	for (k = 0; k < m; k++) {
		v = fmin(1, (m - k) * s[k].p);
		run = fmax(run, v);
		adj[s[k].i] = run;
	}
	free(s);
	return m;
}

/*
 * Benjamini and Hochberg's step-up: adj(k) = min over j >= k of
 * min(1, m p(j) / j).
 */
int
rs_bh(const double *p, int n, double *adj)
{
	struct pidx *s;
	double run = 1, v;
	int m, k;

	if ((m = family(p, n, adj, &s)) <= 0)
		return m;
	for (k = m - 1; k >= 0; k--) {
		v = fmin(1, s[k].p * m / (k + 1));
		run = fmin(run, v);
		adj[s[k].i] = run;
	}
	free(s);
	return m;
}

/*
 * The geometric mean of ratios with the run as the unit.  Each run of
 * a side gets one score, the mean over the k metrics of the log of its
 * run mean; the sides' scores are compared as any run means are:
 * G = exp(mean_b L - mean_a L), the geometric mean over the metrics of
 * the ratio of the runs' geometric means, and its 95% CI exp(d +-
 * t(0.975, df) sqrt(s_a^2/n_a + s_b^2/n_b)) with Welch's df.  A run's
 * offset moves all its metrics together: here it moves its one score,
 * so the interval carries it, where adding the metrics' variances as
 * if independent (rs_geo) does not.
 */
int
rs_georun_init(struct rs_georun *g, int na, int nb)
{
	memset(g, 0, sizeof(*g));
	g->g = g->lo = g->hi = g->df = NAN;
	if (na < 1 || nb < 1)
		return -1;
	g->la = calloc((size_t)na, sizeof(double));
	g->lb = calloc((size_t)nb, sizeof(double));
	if (!g->la || !g->lb) {
		rs_georun_free(g);
		return -1;
	}
	g->na = na;
	g->nb = nb;
	return 0;
}

int
rs_georun_add(struct rs_georun *g, const double *a, const double *b)
{
	int i;

	for (i = 0; i < g->na; i++)
		if (!(a[i] > 0) || isinf(a[i]))
			return -1;
	for (i = 0; i < g->nb; i++)
		if (!(b[i] > 0) || isinf(b[i]))
			return -1;
	for (i = 0; i < g->na; i++)
		g->la[i] += log(a[i]);
	for (i = 0; i < g->nb; i++)
		g->lb[i] += log(b[i]);
	g->k++;
	return 0;
}

void
rs_georun_finish(struct rs_georun *g)
{
	struct rs_desc a, b;
	struct rs_welch w;
	double d, h;
	int i;

	if (!g->k)
		return;
	for (i = 0; i < g->na; i++)
		g->la[i] /= g->k;
	for (i = 0; i < g->nb; i++)
		g->lb[i] /= g->k;
	rs_describe(g->la, g->na, 1, &a);
	rs_describe(g->lb, g->nb, 1, &b);
	d = b.mean - a.mean;
	g->g = exp(d);
	if (a.n < 2 || b.n < 2)
		return;
	if (a.sd == 0 && b.sd == 0) {
		g->lo = g->hi = g->g;
		return;
	}
	/* logs of finite doubles are below 710: no overflow in squares */
	rs_welch(&a, &b, &w);
	g->df = w.df;
	h = rs_t_upper(0.025, w.df) * sqrt(a.sd * a.sd / a.n +
	    b.sd * b.sd / b.n);
	g->lo = exp(d - h);
	g->hi = exp(d + h);
}

void
rs_georun_free(struct rs_georun *g)
{
	free(g->la);
	free(g->lb);
	g->la = g->lb = NULL;
}
