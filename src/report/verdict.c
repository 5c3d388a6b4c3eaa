/*
 * verdict.c - kernel A against kernel B with the run as the unit: the
 * comparison of run means, the two one-sided tests of "same", the
 * three-word verdict and the runs a side a decision needs.  The
 * formulas are in verdict.h and docs/report.md; the t and
 * normal distributions come from GSL.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_psi.h>

#include "verdict.h"

/* A side's run-to-run CoV; no spread is 0 even when the mean is 0. */
static double
side_cov(const struct rs_desc *d)
{
	return d->sd == 0 ? 0 : d->cov;
}

/* The scale of the run means @a[na], @b[nb] (NAN skipped). */
static enum rv_scale
scale_of(const double *a, int na, const double *b, int nb)
{
	int i, pos = 1, count = 1, n = 0;

	for (i = 0; i < na + nb; i++) {
		double v = i < na ? a[i] : b[i - na];

		if (isnan(v))
			continue;
		n++;
		if (!(v > 0 && isfinite(v)))
			pos = 0;
		if (!(v >= 0 && v < 9e15 && v == floor(v)))
			count = 0;
	}
	return !n ? RV_RAW : pos ? RV_LOG : count ? RV_LOG1P : RV_RAW;
}

/* @v[n] on scale @sc into @out; returns how many (NAN skipped). */
static int
on_scale(const double *v, int n, enum rv_scale sc, double *out)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			out[k++] = sc == RV_LOG ? log(v[i]) : sc == RV_LOG1P ?
			    log1p(v[i]) : v[i];
	return k;
}

/* Two-sided p of @t on @df degrees of freedom (infinite: normal). */
static double
p2(double t, double df)
{
	if (isnan(t))
		return NAN;
	if (!isfinite(df) || df > 1e7)
		return 2 * gsl_cdf_ugaussian_Q(fabs(t));
	return rs_t_p2(t, df);
}

/*
 * The test of c->m with no prior: pooled, t on d df; with no spread
 * the permutation p; not pooled, Welch on the scale.
 */
static void
mod_plain(struct rv_cmp *c, const struct rs_desc *la,
    const struct rs_desc *lb)
{
	struct rv_mod *m = &c->m;
	struct rs_welch w;

	m->s0sq = NAN;
	m->d0 = 0;
	m->s2_mod = m->s2;
	m->df = m->d;
	if (!m->pooled) {
		rs_welch(la, lb, &w);
		m->se = sqrt(la->sd * la->sd / la->n + lb->sd * lb->sd /
		    lb->n);
		m->t = w.t;
		m->df = w.df;
		m->p = w.p;
		return;
	}
	m->se = sqrt(m->s2 * (1.0 / c->a.n + 1.0 / c->b.n));
	if (m->se == 0) {
		m->t = m->diff == 0 ? 0 : m->diff > 0 ? INFINITY : -INFINITY;
		m->p = m->diff == 0 ? NAN : rs_perm_p(c->a.n, c->b.n);
		return;
	}
	m->t = m->diff / m->se;
	m->p = p2(m->t, m->df);
}

/*
 * c->m from the run means: the scale, the difference, the pooled
 * variance when the F test of the two allows it, and the test without
 * a prior.  Nothing is tested with fewer than 2 runs a side.
 */
static void
mod_init(struct rv_cmp *c, const double *a, int na, const double *b,
    int nb)
{
	struct rv_mod *m = &c->m;
	struct rs_desc la, lb;
	double *x, *y, f, pf;
	int nx, ny;

	m->diff = m->s2 = m->d = m->s0sq = m->s2_mod = m->df = NAN;
	m->se = m->t = m->p = NAN;
	m->d0 = 0;
	m->scale = scale_of(a, na, b, nb);
	if (c->a.n < 2 || c->b.n < 2)
		return;
	x = malloc((size_t)(na + nb) * sizeof(double));
	if (!x)
		return;
	y = x + na;
	nx = on_scale(a, na, m->scale, x);
	ny = on_scale(b, nb, m->scale, y);
	rs_describe(x, nx, 1, &la);
	rs_describe(y, ny, 1, &lb);
	free(x);
	m->diff = lb.mean - la.mean;
	if (la.sd == 0 && lb.sd == 0) {
		pf = 1;
	} else if (la.sd == 0 || lb.sd == 0) {
		pf = 0;
	} else {
		f = la.sd * la.sd / (lb.sd * lb.sd);
		pf = gsl_cdf_fdist_P(f, la.n - 1, lb.n - 1);
		pf = 2 * fmin(pf, 1 - pf);
	}
	m->pooled = pf >= RV_POOL_P;
	m->d = la.n + lb.n - 2;
	m->s2 = ((la.n - 1) * la.sd * la.sd + (lb.n - 1) * lb.sd * lb.sd) /
	    m->d;
	mod_plain(c, &la, &lb);
}

void
rv_moderate(struct rv_cmp *c, double s0sq, double d0)
{
	struct rv_mod *m = &c->m;

	if (isnan(m->diff) || !m->pooled || m->scale == RV_RAW ||
	    !(d0 > 0) || !(s0sq > 0) || !isfinite(s0sq))
		return;
	/*
	 * No spread on either side: the prior alone would decide, which
	 * it may from 3 runs a side; with fewer, the permutation p.
	 */
	if (m->s2 == 0 && (c->a.n < 3 || c->b.n < 3))
		return;
	m->s0sq = s0sq;
	m->d0 = d0;
	m->s2_mod = isinf(d0) ? s0sq : (d0 * s0sq + m->d * m->s2) /
	    (d0 + m->d);
	m->df = d0 + m->d;
	m->se = sqrt(m->s2_mod * (1.0 / c->a.n + 1.0 / c->b.n));
	m->t = m->diff / m->se;
	/* one value repeated on both sides: nothing to tell apart */
	m->p = m->diff == 0 && m->s2 == 0 ? NAN : p2(m->t, m->df);
}

/*
 * trigamma(y) = x for y, by Newton's method on 1/trigamma as Smyth
 * (2004) does, from y = 0.5 + 1/x; the tails by their expansions.
 */
static double
trigamma_inv(double x)
{
	double y, tri, dif;
	int i;

	if (x > 1e7)
		return 1 / sqrt(x);
	if (x < 1e-6)
		return 1 / x;
	y = 0.5 + 1 / x;
	for (i = 0; i < 50; i++) {
		tri = gsl_sf_psi_1(y);
		dif = tri * (1 - tri / x) / gsl_sf_psi_n(2, y);
		y += dif;
		if (-dif / y < 1e-8)
			break;
	}
	return y;
}

void
rv_fit_prior(const double *s2, const double *d, int n, double *s0sq,
    double *d0)
{
	double se = 0, se2 = 0, tri = 0, e, mean, var;
	int i, k = 0;

	*s0sq = NAN;
	*d0 = 0;
	for (i = 0; i < n; i++) {
		if (!(s2[i] > 0 && isfinite(s2[i]) && d[i] > 0))
			continue;
		e = log(s2[i]) - gsl_sf_psi(d[i] / 2) + log(d[i] / 2);
		se += e;
		se2 += e * e;
		tri += gsl_sf_psi_1(d[i] / 2);
		k++;
	}
	if (k < 3)
		return;
	mean = se / k;
	var = (se2 - k * mean * mean) / (k - 1) - tri / k;
	if (var > 0) {
		*d0 = 2 * trigamma_inv(var);
		*s0sq = exp(mean + gsl_sf_psi(*d0 / 2) - log(*d0 / 2));
	} else {
		*d0 = INFINITY;
		*s0sq = exp(mean);
	}
}

/*
 * No spread on either side, one side at 0 and every run of the other
 * the same whole number k: a count that happened k times in each run
 * of one side and never in the other's (THP's thp_fault_alloc, 0
 * against 256).  The runs' own permutation p cannot fall below 0.1 at
 * 3 runs a side, and the log scale's prior cannot take a 0.  The exact
 * test of two Poisson counts does: given their total T = n_k k, each
 * event falls on the zero side with that side's share of the runs, so
 * all T on the other side has probability (n_k / (n_0 + n_k))^T; p is
 * twice that, at most 1.  A count of 1 in each of 3 runs against 0
 * gives p 0.25, of 2 p 0.031: a few stray events decide nothing.
 * Only from 3 runs a side (below).
 */
static void
zero_count(struct rv_cmp *c)
{
	const struct rs_desc *zero, *k;
	double p;

	if (c->why != RV_NO_SPREAD || c->a.mean == c->b.mean)
		return;
	zero = c->a.mean == 0 ? &c->a : &c->b;
	k = zero == &c->a ? &c->b : &c->a;
	/*
	 * 3 runs a side at least: a machine-wide counter that other
	 * processes moved can read the same in two runs (352 kB of
	 * swap-in in both runs of one side of an A/A pair, 0 in the
	 * other's three), as a count of the run's own events would not
	 */
	if (zero->n < 3 || k->n < 3 || zero->mean != 0 || !(k->mean > 0) ||
	    k->mean > 1e9 || k->mean != floor(k->mean))
		return;
	p = 2 * pow((double)k->n / (zero->n + k->n), k->n * k->mean);
	c->w.p = c->m.p = fmin(p, 1);
	c->zero_count = 1;
}

void
rv_compare(const double *a, int na, const double *b, int nb,
    enum vb_dir dir, struct rv_cmp *c)
{
	const struct rs_desc *many, *lone;
	double h;

	memset(c, 0, sizeof(*c));
	c->dir = dir;
	rs_describe(a, na, 1, &c->a);
	rs_describe(b, nb, 1, &c->b);
	c->change = c->pi_lo = c->pi_hi = c->run_cov = NAN;
	c->w.t = c->w.df = c->w.p = NAN;
	c->ratio.r = c->ratio.lo = c->ratio.hi = NAN;
	if (!c->a.n || !c->b.n) {
		c->why = RV_MISSING;
		mod_init(c, a, na, b, nb);
		return;
	}
	c->change = rs_pct_better(c->a.mean, c->b.mean, dir);
	rs_welch(&c->a, &c->b, &c->w);	/* NAN with one run on a side */
	rs_fieller(&c->a, &c->b, c->w.df, &c->ratio);
	if (c->a.n < 2 || c->b.n < 2)
		c->why = RV_ONE_RUN;
	else if (c->a.sd == 0 && c->b.sd == 0) {
		c->why = RV_NO_SPREAD;
		/*
		 * One value on both sides: every sharing of the runs
		 * gives it, so no p could be small; left out of the
		 * family (Tarone's argument), it costs the others nothing.
		 */
		if (c->a.mean == c->b.mean)
			c->w.p = NAN;
	} else
		c->why = RV_TESTED;

	if (c->a.n >= 2 && c->b.n >= 2) {
		double ca = side_cov(&c->a), cb = side_cov(&c->b);

		c->run_cov = isnan(ca) || isnan(cb) ? NAN : fmax(ca, cb);
	} else if (c->a.n >= 2) {
		c->run_cov = side_cov(&c->a);
	} else if (c->b.n >= 2) {
		c->run_cov = side_cov(&c->b);
	} else {
		c->run_cov = RV_RUN_COV;
		c->run_cov_assumed = 1;
	}
	mod_init(c, a, na, b, nb);
	zero_count(c);

	if (c->why != RV_ONE_RUN || (c->a.n < 2 && c->b.n < 2))
		return;
	/* one new run of the side with several: mean +- t s sqrt(1+1/n) */
	c->pi_side = c->a.n >= 2 ? 1 : 2;
	many = c->pi_side == 1 ? &c->a : &c->b;
	lone = c->pi_side == 1 ? &c->b : &c->a;
	h = rs_t_upper(0.025, many->n - 1) * many->sd *
	    sqrt(1 + 1.0 / many->n);
	c->pi_lo = many->mean - h;
	c->pi_hi = many->mean + h;
	c->pi_outside = lone->mean < c->pi_lo || lone->mean > c->pi_hi;
}

void
rv_no_spread_iters(struct rv_cmp *c, int ni_a, double sd_a, int ni_b,
    double sd_b)
{
	double p;

	if (c->why != RV_NO_SPREAD || c->a.mean == c->b.mean ||
	    sd_a != 0 || sd_b != 0 || ni_a <= c->a.n || ni_b <= c->b.n)
		return;
	p = rs_perm_p(ni_a, ni_b);
	if (isnan(p))
		return;
	c->w.p = p;
	c->m.p = p;
}

const char *
rv_why_note(enum rv_why why)
{
	switch (why) {
	case RV_NO_SPREAD:
		return "no spread within either side: p is the exact "
		    "permutation p of the run means";
	case RV_ONE_RUN:
		return "one run a side cannot measure run-to-run drift: "
		    "nothing is starred";
	case RV_MISSING:
		return "not measured on both sides";
	default:
		return NULL;
	}
}

void
rv_opts_default(struct rv_opts *o)
{
	o->model = RV_WELCH;
	o->alpha = 0.05;
	o->alpha_same = 0.05;
	o->useful = 10;
	o->min_change = 1;
	o->equiv = 0;
	o->family = 0;
	o->memo = NULL;
}

const char *
rv_word_name(enum rv_word w)
{
	switch (w) {
	case RV_CHANGED:
		return "changed";
	case RV_SAME:
		return "same";
	case RV_CANT_TELL:
		return "can't tell";
	case RV_OTHER_WORK:
		return "other work";
	default:
		return "-";
	}
}

void
rv_memo_free(struct rv_memo *m)
{
	int i;

	for (i = 0; i < m->n; i++)
		free(m->q[i].t);
	memset(m, 0, sizeof(*m));
}

/*
 * The pair (@q1, @q2)'s sums in @memo (struct rv_memo), or NULL when
 * there is no memo, it is full or out of memory.
 */
static struct rv_qsum *
qsum_of(struct rv_memo *memo, double q1, double q2)
{
	struct rv_qsum *m;
	int i;

	if (!memo)
		return NULL;
	for (i = 0; i < memo->n; i++)
		if (memo->q[i].q1 == q1 && memo->q[i].q2 == q2)
			return &memo->q[i];
	if (memo->n == RV_MEMO_PAIRS)
		return NULL;
	m = &memo->q[memo->n];
	if (!(m->t = malloc(RV_MEMO_N * sizeof(double))))
		return NULL;
	for (i = 0; i < RV_MEMO_N; i++)
		m->t[i] = NAN;
	m->q1 = q1;
	m->q2 = q2;
	m->z = gsl_cdf_ugaussian_Pinv(q1) + gsl_cdf_ugaussian_Pinv(q2);
	memo->n++;
	return m;
}

/* t(@q1, 2n - 2) + t(@q2, 2n - 2), from @m when it holds it. */
static double
qsum_t(struct rv_qsum *m, double q1, double q2, double n)
{
	double t;

	if (!m || n >= RV_MEMO_N)
		return gsl_cdf_tdist_Pinv(q1, 2 * n - 2) +
		    gsl_cdf_tdist_Pinv(q2, 2 * n - 2);
	t = m->t[(int)n];
	if (isnan(t))
		t = m->t[(int)n] = gsl_cdf_tdist_Pinv(q1, 2 * n - 2) +
		    gsl_cdf_tdist_Pinv(q2, 2 * n - 2);
	return t;
}

/*
 * The fewest runs a side n >= @nmin with 2 (t(@q1, df) + t(@q2, df))^2
 * @r <= n, df = @d0 + 2n - 2 (Welch's df with equal spread, plus the
 * prior's df of the moderated test): the normal formula's n with the
 * t quantiles it stands for, since at a few runs a side t is much
 * wider than z (3 runs: t(0.975, 4) 2.78 against 1.96).  Starts at the
 * normal formula's n, a lower bound.  @memo: the sums remembered
 * (NULL: none).
 */
static double
runs_t(struct rv_memo *memo, double q1, double q2, double r, double d0,
    double nmin)
{
	struct rv_qsum *m = d0 == 0 ? qsum_of(memo, q1, q2) : NULL;
	double z, n, t;

	z = m ? m->z : gsl_cdf_ugaussian_Pinv(q1) +
	    gsl_cdf_ugaussian_Pinv(q2);
	n = fmax(nmin, ceil(2 * z * z * r));
	if (!isfinite(n))
		return NAN;
	if (n > 1e6 || isinf(d0))
		return n;	/* t and z agree to 1e-6 there */
	for (;; n++) {
		t = d0 == 0 ? qsum_t(m, q1, q2, n) :
		    gsl_cdf_tdist_Pinv(q1, d0 + 2 * n - 2) +
		    gsl_cdf_tdist_Pinv(q2, d0 + 2 * n - 2);
		if (2 * t * t * r <= n)
			return n;
	}
}

/*
 * The runs a side for one test at run CoV @cov and bound @delta: the
 * detection formula, and with @same the two one-sided tests' too (the
 * larger of the two); @d0 the prior's df, at least @nmin runs; @memo
 * as runs_t()'s.
 */
static double
runs_for_df(struct rv_memo *memo, double cov, double delta, double alpha,
    int same, double d0, double nmin)
{
	double r, n;
	int k;

	if (isnan(cov) || !(delta > 0) || !(alpha > 0 && alpha < 1))
		return NAN;
	if (cov == 0) {
		/* no spread: the permutation p falls with the runs */
		for (k = (int)nmin; k < 64; k++)
			if (rs_perm_p(k, k) < alpha)
				return k;
		return NAN;
	}
	r = (cov / delta) * (cov / delta);
	n = runs_t(memo, 1 - alpha / 2, RV_POWER, r, d0, nmin);
	if (same)
		n = fmax(n, runs_t(memo, 1 - alpha, 1 - (1 - RV_POWER) / 2, r,
		    d0, nmin));
	return n;
}

/* runs_for_df() with no prior, from 2 runs a side. */
static double
runs_for(struct rv_memo *memo, double cov, double delta, double alpha,
    int same)
{
	return runs_for_df(memo, cov, delta, alpha, same, 0, 2);
}

double
rv_runs_needed(double cov, double delta, double alpha)
{
	return runs_for(NULL, cov, delta, alpha, 1);
}

/* rv_runs_to_decide(), the sums remembered in @memo (NULL: none). */
static double
runs_to_decide(struct rv_memo *memo, double cov, double change,
    double bound, double alpha)
{
	change = fabs(change);
	if (isfinite(change) && change > bound)
		return runs_for(memo, cov, change, alpha, 0);
	return runs_for(memo, cov, bound, alpha, 1);
}

double
rv_runs_to_decide(double cov, double change, double bound, double alpha)
{
	return runs_to_decide(NULL, cov, change, bound, alpha);
}

/*
 * Two one-sided tests of |rel| < x, rel = (mb - ma) / |ma| and x a
 * fraction, on the ratio as Fieller's interval is: with s the sign of
 * ma, "rel <= -x" is mb - (1 - x s) ma <= 0 and "rel >= x" is
 * mb - (1 + x s) ma >= 0; each linear form D = mb - th ma has variance
 * vb + th^2 va, tested by t = D / sqrt(vb + th^2 va) with that sum's
 * Welch-Satterthwaite df.  Computed on values scaled as rs_welch's.
 */
static void
tost(const struct rv_cmp *c, double x, double *plow, double *phigh)
{
	const struct rs_desc *a = &c->a, *b = &c->b;
	double sc, ma, mb, va, vb, th, v, d, df, t, sg;
	int k;

	*plow = *phigh = NAN;
	if (a->mean == 0 || !(x > 0))
		return;
	sc = rs_scale((const double[]){ a->mean, b->mean, a->sd, b->sd }, 4);
	ma = a->mean / sc;
	mb = b->mean / sc;
	va = (a->sd / sc) * (a->sd / sc) / a->n;
	vb = (b->sd / sc) * (b->sd / sc) / b->n;
	sg = ma > 0 ? 1 : -1;
	for (k = 0; k < 2; k++) {
		th = k == 0 ? 1 - x * sg : 1 + x * sg;
		v = vb + th * th * va;
		d = mb - th * ma;
		if (v == 0) {
			/* th = 0 and no spread in b: D is exact */
			if (k == 0)
				*plow = d > 0 ? 0 : 1;
			else
				*phigh = d < 0 ? 0 : 1;
			continue;
		}
		df = v * v / (vb * vb / (b->n - 1) +
		    th * th * th * th * va * va / (a->n - 1));
		t = d / sqrt(v);
		if (k == 0)
			*plow = gsl_cdf_tdist_Q(t, df);
		else
			*phigh = gsl_cdf_tdist_P(t, df);
	}
}

/*
 * Fieller's interval of b/a as a change in %, positive = better:
 * rel = (r - 1) sign(ma), negated when lower is better.
 */
static void
change_interval(const struct rv_cmp *c, struct rv_verdict *v)
{
	double k, e1, e2;

	v->lo = v->hi = NAN;
	v->unbounded = c->ratio.unbounded;
	if (c->ratio.unbounded || isnan(c->ratio.lo) || c->a.mean == 0)
		return;
	k = c->a.mean > 0 ? 100 : -100;
	if (c->dir == VB_LOWER)
		k = -k;
	e1 = k * (c->ratio.lo - 1);
	e2 = k * (c->ratio.hi - 1);
	v->lo = fmin(e1, e2);
	v->hi = fmax(e1, e2);
}

/* At least the minimum change; from a baseline of 0, any change. */
static int
large(const struct rv_cmp *c, double min_change)
{
	if (isnan(c->change))
		return c->a.mean == 0 && c->b.mean != 0;
	return fabs(c->change) >= min_change;
}

/* @x % rounded up: to 0.1 below 1, else to a whole percent. */
static double
round_up_pct(double x)
{
	double r = x < 1 ? ceil(x * 10 - 1e-9) / 10 : ceil(x - 1e-9);

	return r > 0 ? r : 0.1;
}

/*
 * The relative change of @m's ratio at @l (a difference on the scale)
 * as a fraction: e^l - 1 on the log scale, l / |@ma| on the raw one
 * (the baseline's uncertainty left to the test's variance).
 */
static double
rel_at(const struct rv_mod *m, double l, double ma)
{
	return m->scale == RV_LOG ? expm1(l) : l / fabs(ma);
}

/*
 * The verdict of the moderated test (rv_verdict() with RV_MODERATED):
 * the change interval, X from the one-sided intervals at alpha_same,
 * the word, the runs a side from the test's variance and df.
 */
static void
verdict_mod(const struct rv_cmp *c, double p_adj, const struct rv_opts *o,
    struct rv_verdict *v)
{
	const struct rv_mod *m = &c->m;
	double tq, lo, hi, x, cov, chg, nmin, al;
	int k = c->dir == VB_LOWER ? -1 : 1;

	v->word = RV_CANT_TELL;
	nmin = fmax(c->a.n, c->b.n) + 1;
	al = o->family > 1 ? o->alpha / o->family : o->alpha;
	/* the test's spread: sqrt(s2) is the CoV on the log scale */
	cov = m->scale == RV_LOG && !isnan(m->s2_mod) ? sqrt(m->s2_mod) :
	    c->run_cov;
	if (c->why == RV_ONE_RUN || isnan(m->diff)) {
		v->runs_needed = runs_to_decide(o->memo, c->run_cov,
		    c->change / 100, o->useful / 100, al);
		if (!isnan(v->runs_needed))
			v->runs_needed = fmax(v->runs_needed, nmin);
		return;
	}
	if (m->scale == RV_LOG && m->se > 0 && !isnan(m->df)) {
		tq = isinf(m->df) || m->df > 1e7 ?
		    gsl_cdf_ugaussian_Qinv(0.025) :
		    gsl_cdf_tdist_Qinv(0.025, m->df);
		lo = 100 * k * expm1(m->diff - tq * m->se);
		hi = 100 * k * expm1(m->diff + tq * m->se);
		v->lo = fmin(lo, hi);
		v->hi = fmax(lo, hi);
		v->unbounded = 0;
	}
	if (m->se > 0 && !isnan(m->df) && (m->scale == RV_LOG ||
	    c->a.mean != 0)) {
		int z = isinf(m->df) || m->df > 1e7;
		double q = z ? gsl_cdf_ugaussian_Qinv(al / 2) +
		    gsl_cdf_ugaussian_Pinv(RV_POWER) :
		    gsl_cdf_tdist_Qinv(al / 2, m->df) +
		    gsl_cdf_tdist_Pinv(RV_POWER, m->df);

		v->detectable = 100 * rel_at(m, q * m->se, c->a.mean);
	}
	/* the smallest X two one-sided tests at alpha_same accept */
	x = NAN;
	if (m->se == 0) {
		x = c->a.mean == c->b.mean ? 0 : c->a.mean == 0 ? NAN :
		    100 * fabs(c->b.mean - c->a.mean) / fabs(c->a.mean);
	} else if (!isnan(m->se) && (m->scale == RV_LOG || c->a.mean != 0)) {
		tq = isinf(m->df) || m->df > 1e7 ?
		    gsl_cdf_ugaussian_Qinv(o->alpha_same) :
		    gsl_cdf_tdist_Qinv(o->alpha_same, m->df);
		x = 100 * fmax(-rel_at(m, m->diff - tq * m->se, c->a.mean),
		    rel_at(m, m->diff + tq * m->se, c->a.mean));
	}
	if (!isnan(x)) {
		v->bound = round_up_pct(x);
		v->tost_p = v->p_low = v->p_high = o->alpha_same;
	}
	if (p_adj < o->alpha && large(c, o->min_change)) {
		v->word = RV_CHANGED;
		v->star = c->dir != VB_INFO;
	} else if (!isnan(x) && v->bound <= o->useful) {
		v->word = RV_SAME;
	}
	chg = isnan(c->change) ? NAN : c->change / 100;
	if (!isnan(chg) && fabs(chg) > o->useful / 100)
		v->runs_needed = runs_for_df(o->memo, cov, fabs(chg), al, 0,
		    m->d0, nmin);
	else
		v->runs_needed = runs_for_df(o->memo, cov, o->useful / 100,
		    al, 1, m->d0, nmin);
}

void
rv_verdict(const struct rv_cmp *c, double p_adj, const struct rv_opts *o,
    struct rv_verdict *v)
{
	double x, rel;

	memset(v, 0, sizeof(*v));
	v->word = RV_NONE;
	v->p = o->model == RV_MODERATED ? c->m.p : c->w.p;
	v->p_adj = p_adj;
	v->change = c->change;
	v->bound = x = o->equiv > 0 ? o->equiv : o->min_change;
	v->p_low = v->p_high = v->tost_p = v->runs_needed = NAN;
	v->detectable = NAN;
	change_interval(c, v);
	if (c->why == RV_MISSING)
		return;
	if (o->model == RV_MODERATED) {
		verdict_mod(c, p_adj, o, v);
		return;
	}
	v->runs_needed = runs_to_decide(o->memo, c->run_cov, c->change /
	    100, x / 100, o->family > 1 ? o->alpha / o->family : o->alpha);
	if (c->why == RV_ONE_RUN) {
		v->word = RV_CANT_TELL;
		return;
	}
	if (c->why == RV_NO_SPREAD) {
		/* exact: within the bound or not */
		if (c->a.mean == c->b.mean) {
			v->p_low = v->p_high = 0;
		} else if (c->a.mean == 0) {
			v->p_low = v->p_high = 1;
		} else {
			rel = (c->b.mean - c->a.mean) / fabs(c->a.mean);
			v->p_low = rel > -x / 100 ? 0 : 1;
			v->p_high = rel < x / 100 ? 0 : 1;
		}
	} else {
		tost(c, x / 100, &v->p_low, &v->p_high);
	}
	v->tost_p = isnan(v->p_low) || isnan(v->p_high) ? NAN :
	    fmax(v->p_low, v->p_high);
	if (p_adj < o->alpha && large(c, o->min_change)) {
		v->word = RV_CHANGED;
		v->star = c->dir != VB_INFO;
	} else if (v->tost_p < o->alpha) {
		v->word = RV_SAME;
	} else {
		v->word = RV_CANT_TELL;
	}
}
