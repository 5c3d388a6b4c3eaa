/*
 * rstats.h - the report's statistics (rstats.c): descriptive, Student
 * t, Welch, Fieller, modified Z-scores, detectable change, the
 * geometric-mean summary (GSL).  The bottom layer of the report, with
 * rload.h: it includes nothing above it.  (Not stats.h: that name is
 * src/lib's small statistics, on the same include path.)
 */
#ifndef VB_RSTATS_H
#define VB_RSTATS_H

#include "res.h"

/* Descriptive statistics of one metric of one kernel (NAN skipped). */
struct rs_desc {
	int n;
	double mean, sd, cov, min, median, max;
	double ci_lo, ci_hi;		/* 95% CI of the mean (Student t) */
};

/* Welch's t-test of b against a. */
struct rs_welch {
	double t, df, p;		/* p two-sided; NAN when untestable */
};

/* 95% confidence interval of the ratio b/a of the means (Fieller). */
struct rs_ratio {
	double r, lo, hi;
	int unbounded;			/* the interval is not finite */
};

/* A comparison of kernel b against the baseline a for one metric. */
struct rs_cmp {
	double pct;			/* change, positive = better */
	struct rs_welch w;
	struct rs_ratio ratio;
	int sig;			/* marked: see rs_mark() */
	int have_ratio;			/* ratio filled (rs_cmp_ratio) */
};

void rs_describe(const double *v, int n, int stride, struct rs_desc *d);
/* t such that P(T > t) = @p with @df degrees of freedom (NAN if df<=0). */
double rs_t_upper(double p, double df);
/* Two-sided p of |T| >= |t|. */
double rs_t_p2(double t, double df);
/*
 * p of the exact permutation test of @na values all equal against @nb
 * values all equal to another value: 2 / C(na + nb, na) when na = nb,
 * else 1 / C(na + nb, na); NAN with fewer than 2 on a side.
 */
double rs_perm_p(int na, int nb);
/*
 * A power of two near the largest |@v[i]|: values divided by it square
 * without overflow or underflow, exactly.
 */
double rs_scale(const double *v, int n);
void rs_welch(const struct rs_desc *a, const struct rs_desc *b,
    struct rs_welch *w);
void rs_fieller(const struct rs_desc *a, const struct rs_desc *b,
    double df, struct rs_ratio *r);
/* Change of @b against @a in %, signed so that positive = better. */
double rs_pct_better(double a, double b, enum vb_dir dir);
/* Change and Welch's test; the ratio's interval is left for later. */
void rs_compare(const struct rs_desc *a, const struct rs_desc *b,
    enum vb_dir dir, struct rs_cmp *c);
/*
 * Decide c->sig, the mark every view shows (and the regression gate
 * counts): Welch's p < 0.05, a metric that is not info, and a change
 * of at least @min_pct percent (a change from a baseline of 0 counts
 * as large).  rs_compare() leaves c->sig at p < 0.05 alone.
 */
void rs_mark(const struct rs_desc *a, const struct rs_desc *b,
    enum vb_dir dir, double min_pct, struct rs_cmp *c);
/* Fill c->ratio (Fieller) once; returns it. */
const struct rs_ratio *rs_cmp_ratio(const struct rs_desc *a,
    const struct rs_desc *b, struct rs_cmp *c);
/*
 * Modified Z-scores (Iglewicz and Hoaglin, as hyperfine uses them):
 * z = 0.6745 (x - median) / MAD, into @z (NAN for absent values); when
 * the MAD is 0, z = (x - median) / (1.253314 MeanAD), MeanAD the mean
 * absolute deviation from the median.  -1 when there are fewer than 5
 * values (with 3 or 4 the MAD is one or two deviations and nearly every
 * spread run looks like an outlier) or every value is the median.
 */
int rs_modz(const double *v, int n, int stride, double *z);
/* Runs per side to detect relative change @delta (alpha .05, power .8). */
double rs_runs_needed(double cov, double delta);
/* Smallest relative change detectable with @n runs per side (NAN: n<2). */
double rs_detectable(double cov, int n);

/* Geometric mean of ratios b/a over several metrics, with a 95% CI. */
struct rs_geo {
	int k;				/* metrics used */
	double sum_log, sum_var, sum_v2df;
	double g, lo, hi;
};
void rs_geo_init(struct rs_geo *g);
/* Add one metric (skipped, returning -1, when a mean is not > 0). */
int rs_geo_add(struct rs_geo *g, const struct rs_desc *a,
    const struct rs_desc *b);
void rs_geo_finish(struct rs_geo *g);

/*
 * The geometric mean of ratios b/a over metrics with runs as the unit:
 * one score per run, the mean over the metrics of log(run mean), and
 * Welch's 95% CI of the difference of the sides' mean scores,
 * exponentiated (rstats.c says why; docs/report.md).  No
 * interval (lo, hi NAN) with one run on a side.
 */
struct rs_georun {
	int na, nb, k;			/* runs a side; metrics used */
	double *la, *lb;		/* per run: sum of log(run mean) */
	double g, lo, hi, df;
};
/* -1 when a side has no run or out of memory. */
int rs_georun_init(struct rs_georun *g, int na, int nb);
/*
 * Add one metric: @a[na] and @b[nb] its run means, every one > 0 and
 * finite, else -1 and the metric is skipped (a log needs it).
 */
int rs_georun_add(struct rs_georun *g, const double *a, const double *b);
void rs_georun_finish(struct rs_georun *g);
void rs_georun_free(struct rs_georun *g);

/*
 * Adjusted p for a family: @p[n] raw p, NAN for a metric not tested
 * (left out of the family, NAN in @adj); @adj may be @p.  Returns the
 * family size m (the p that are not NAN), -1 when out of memory.
 * rs_holm: Holm's step-down, adj(k) = max_{j <= k} min(1, (m - j + 1)
 * p(j)) over the sorted p: adj < alpha holds the family-wise error
 * rate at alpha.  rs_bh: Benjamini and Hochberg's step-up, adj(k) =
 * min_{j >= k} min(1, m p(j) / j): the false discovery rate.
 */
int rs_holm(const double *p, int n, double *adj);
int rs_bh(const double *p, int n, double *adj);

#endif
