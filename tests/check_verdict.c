/*
 * The run-level comparison, the verdict and the family correction
 * (src/report/verdict.c, rstats.c) against reference values computed
 * independently by tests/verdict-ref.py (mpmath's incomplete beta for
 * the t distribution, Python's NormalDist for z; the textbook formulas
 * written out there, not this code's).  Its output, quoted:
 *
 * RA = 101.3 98.7 100.4 99.1 (baseline), RB = 104.2 106.0 103.1:
 *   Welch t 4.40313649158412 df 3.85742848745667 p 0.0126452412951174
 *   Fieller 1.0162776312912 .. 1.07559789170089
 *   change (lower is better) -4.56403838130997%, CI -7.55978917008882
 *   .. -1.6277631291204
 *   TOST x 1%: p_low 0.00325362075432455 p_high 0.986079327690846
 *   TOST x 5%: p_low 0.0005123188320506 p_high 0.350189440494092
 *   CoV a 0.0119697380662023 b 0.0140186346990091
 * SA = 100.2 99.1 100.8 99.6 100.3, SB = 100.5 99.8 100.1 100.4:
 *   Welch p 0.57204671103076; change (higher) +0.200000000000002%
 *   TOST x 1%: p_low 0.005588027173591 p_high 0.0278870270628468
 *   TOST x 2%: p_low 0.000267293053838805 p_high 0.000960882546497241
 *   larger CoV 0.00659545297913648: runs needed x 1% 9, x 2% 4 (the
 *   change, 0.2%, is within the bound: the bound decides)
 * CA = 100 90 110, CB = 105 95: Welch p 1; TOST x 5%: p_low
 *   0.275824627838596 p_high 0.285385497740728; CoV 0.1: runs 70
 * RA against one run of 108: prediction interval from RA
 *   95.6213913490139 .. 104.128608650986 (t(0.975, 3) 3.18244630528371);
 *   runs needed from RA's CoV: x 1% 26, x 5% 3; to decide the change
 *   (-8.1%, above both bounds) 2
 * one run a side, RV_RUN_COV 0.10: runs needed x 5% 70, x 1% 1714; to
 *   decide a change of -3%: at x 5% 70 (the bound), at x 1% 176
 * runs needed alpha 0.01, CoV 3%, x 2%: 60; CoV 0.10 x 1% 1714 (the
 *   normal formula's 1569.8 and 1712.8 below it); CoV 0.001 x 0.5: 2
 * to decide: CoV 0.36, change -51%, bound 1%, family 6 (alpha 0.05/6):
 *   14
 *   (the smallest n >= 2 with 2 (t(1-a/2) + t(.8))^2 (cov/x)^2 <= n,
 *   and for "same" with 2 (t(1-a) + t(.9))^2 (cov/x)^2 <= n, t at df
 *   2n - 2; when the change is above the bound, the first at x = the
 *   change)
 */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "model.h"
#include "rload.h"
#include "rstats.h"
#include "testutil.h"
#include "verdict.h"

#define near(x, want, tol) \
	ck_assert_msg(fabs((x) - (want)) <= (tol), "%s = %.15g, want %.15g", \
	    #x, (double)(x), (double)(want))

static const double RA[] = { 101.3, 98.7, 100.4, 99.1 };
static const double RB[] = { 104.2, 106.0, 103.1 };
static const double SA[] = { 100.2, 99.1, 100.8, 99.6, 100.3 };
static const double SB[] = { 100.5, 99.8, 100.1, 100.4 };
static const double CA[] = { 100, 90, 110 };
static const double CB[] = { 105, 95 };

static struct rv_opts
opts(double alpha, double min_change, double equiv)
{
	struct rv_opts o;

	rv_opts_default(&o);
	ck_assert(o.alpha == 0.05 && o.min_change == 1 && o.equiv == 0);
	o.alpha = alpha;
	o.min_change = min_change;
	o.equiv = equiv;
	return o;
}

START_TEST(changed)
{
	struct rv_cmp c;
	struct rv_verdict v;
	struct rv_opts o = opts(0.05, 1, 0);

	rv_compare(RA, 4, RB, 3, VB_LOWER, &c);
	ck_assert_int_eq(c.why, RV_TESTED);
	ck_assert_ptr_null(rv_why_note(c.why));
	near(c.w.t, 4.40313649158412, 1e-10);
	near(c.w.df, 3.85742848745667, 1e-10);
	near(c.w.p, 0.0126452412951174, 1e-12);
	near(c.ratio.lo, 1.0162776312912, 1e-9);
	near(c.ratio.hi, 1.07559789170089, 1e-9);
	near(c.change, -4.56403838130997, 1e-10);
	near(c.run_cov, 0.0140186346990091, 1e-12);
	ck_assert(!c.run_cov_assumed && c.pi_side == 0);
	/* a family of one: the raw p */
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CHANGED);
	ck_assert_str_eq(rv_word_name(v.word), "changed");
	ck_assert(v.star);
	near(v.lo, -7.55978917008882, 1e-7);
	near(v.hi, -1.6277631291204, 1e-7);
	near(v.bound, 1, 0);
	near(v.p_low, 0.00325362075432455, 1e-12);
	near(v.p_high, 0.986079327690846, 1e-12);
	near(v.tost_p, 0.986079327690846, 1e-12);
	/* adjusted within a larger family to above alpha: can't tell */
	rv_verdict(&c, 0.06, &o, &v);
	ck_assert_int_eq(v.word, RV_CANT_TELL);
	ck_assert(!v.star);
	ck_assert_str_eq(rv_word_name(v.word), "can't tell");
	/* below the minimum change: not changed; not same within 5% */
	o = opts(0.05, 5, 0);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CANT_TELL);
	near(v.p_low, 0.0005123188320506, 1e-12);
	near(v.p_high, 0.350189440494092, 1e-12);
	/* an info metric: the word, never a star */
	rv_compare(RA, 4, RB, 3, VB_INFO, &c);
	o = opts(0.05, 1, 0);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CHANGED);
	ck_assert(!v.star);
	near(v.lo, 1.6277631291204, 1e-7);
	near(v.hi, 7.55978917008882, 1e-7);
}
END_TEST

START_TEST(same)
{
	struct rv_cmp c;
	struct rv_verdict v;
	struct rv_opts o = opts(0.05, 1, 0);

	rv_compare(SA, 5, SB, 4, VB_HIGHER, &c);
	ck_assert_int_eq(c.why, RV_TESTED);
	near(c.w.p, 0.57204671103076, 1e-12);
	near(c.change, 0.200000000000002, 1e-10);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_SAME);
	ck_assert_str_eq(rv_word_name(v.word), "same");
	ck_assert(!v.star);
	near(v.p_low, 0.005588027173591, 1e-12);
	near(v.p_high, 0.0278870270628468, 1e-12);
	near(v.runs_needed, 9, 0);
	/* a stated X apart from the minimum change */
	o = opts(0.05, 1, 2);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_SAME);
	near(v.bound, 2, 0);
	near(v.p_low, 0.000267293053838805, 1e-12);
	near(v.p_high, 0.000960882546497241, 1e-12);
	near(v.runs_needed, 4, 0);
	/* at alpha 0.01 the 1% bound is not shown: can't tell */
	o = opts(0.01, 1, 0);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CANT_TELL);
}
END_TEST

START_TEST(cant_tell)
{
	struct rv_cmp c;
	struct rv_verdict v;
	struct rv_opts o = opts(0.05, 5, 0);

	rv_compare(CA, 3, CB, 2, VB_LOWER, &c);
	near(c.w.p, 1, 1e-12);
	near(c.run_cov, 0.1, 1e-15);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CANT_TELL);
	near(v.p_low, 0.275824627838596, 1e-12);
	near(v.p_high, 0.285385497740728, 1e-12);
	near(v.runs_needed, 70, 0);
	near(rv_runs_needed(0.03, 0.02, 0.01), 60, 0);
	near(rv_runs_needed(0.10, 0.01, 0.05), 1714, 0);
	near(rv_runs_to_decide(0.36, -0.51, 0.01, 0.05 / 6), 14, 0);
	near(rv_runs_to_decide(0.10, -0.03, 0.01, 0.05), 176, 0);
	near(rv_runs_to_decide(0.10, -0.03, 0.05, 0.05), 70, 0);
	near(rv_runs_needed(0.001, 0.5, 0.05), 2, 0);
	/* no spread: 2/C(2n, n) < 0.05 first at n = 4 (2/70) */
	near(rv_runs_needed(0, 0.01, 0.05), 4, 0);
	ck_assert(isnan(rv_runs_needed(NAN, 0.01, 0.05)));
	ck_assert(isnan(rv_runs_needed(0.1, 0, 0.05)));
}
END_TEST

/*
 * One run on a side: no test, never starred, the sentence to print,
 * the runs a side needed from the other side's run-to-run CoV, and the
 * prediction interval of the side with several runs, named as such.
 */
START_TEST(one_run)
{
	static const double lone[] = { 108.0 }, l100[] = { 100 },
	    l103[] = { 103 };
	struct rv_cmp c;
	struct rv_verdict v;
	struct rv_opts o = opts(0.05, 1, 0);

	rv_compare(RA, 4, lone, 1, VB_LOWER, &c);
	ck_assert_int_eq(c.why, RV_ONE_RUN);
	ck_assert(isnan(c.w.p));
	ck_assert_str_eq(rv_why_note(c.why), "one run a side cannot "
	    "measure run-to-run drift: nothing is starred");
	ck_assert_int_eq(c.pi_side, 1);
	near(c.pi_lo, 95.6213913490139, 1e-9);
	near(c.pi_hi, 104.128608650986, 1e-9);
	ck_assert(c.pi_outside);
	near(c.run_cov, 0.0119697380662023, 1e-12);
	ck_assert(!c.run_cov_assumed);
	rv_verdict(&c, 0.0001, &o, &v);	/* whatever the p given */
	ck_assert_int_eq(v.word, RV_CANT_TELL);
	ck_assert(!v.star);
	near(v.runs_needed, 2, 0);	/* the change, -8.1% */
	near(rv_runs_needed(c.run_cov, 0.01, 0.05), 26, 0);
	near(rv_runs_needed(c.run_cov, 0.05, 0.05), 3, 0);
	ck_assert(isnan(v.lo) && isnan(v.hi) && !v.unbounded);
	o = opts(0.05, 5, 0);
	rv_verdict(&c, NAN, &o, &v);
	near(v.runs_needed, 2, 0);
	/* the other way round: b has the runs */
	rv_compare((const double[]){ 100.0 }, 1, RA, 4, VB_LOWER, &c);
	ck_assert_int_eq(c.pi_side, 2);
	near(c.pi_lo, 95.6213913490139, 1e-9);
	ck_assert(!c.pi_outside);
	/* one run each: the stated default CoV */
	rv_compare(l100, 1, l103, 1, VB_LOWER, &c);
	ck_assert_int_eq(c.pi_side, 0);
	ck_assert(c.run_cov_assumed);
	near(c.run_cov, RV_RUN_COV, 0);
	near(c.change, -3, 1e-12);
	rv_verdict(&c, NAN, &o, &v);
	ck_assert_int_eq(v.word, RV_CANT_TELL);
	near(v.runs_needed, 70, 0);
	o = opts(0.05, 1, 0);
	rv_verdict(&c, NAN, &o, &v);
	near(v.runs_needed, 176, 0);
	/* a family of 6 plans at alpha 0.05 / 6 */
	o.family = 6;
	rv_compare((const double[]){ 100, 110, 90 }, 3,
	    (const double[]){ 49 }, 1, VB_LOWER, &c);
	rv_verdict(&c, NAN, &o, &v);
	near(v.runs_needed, rv_runs_to_decide(0.1, -0.51, 0.01, 0.05 / 6), 0);
}
END_TEST

/*
 * No spread within either side (a count that repeats exactly): the
 * permutation p, in the family like any p; 4 runs a side of 39
 * against 38 (p 2/70) is a change, 3 a side (p 0.1) is not yet (but
 * is when their iterations repeat it exactly too), and a difference
 * below the bound with no spread is the same.
 */
START_TEST(no_spread)
{
	static const double x[] = { 39, 39, 39, 39 }, y[] = { 38, 38, 38, 38 };
	static const double z[] = { 39.1, 39.1, 39.1 };
	static const double o0[] = { 0, 0 };
	struct rv_cmp c;
	struct rv_verdict v;
	struct rv_opts o = opts(0.05, 1, 0);

	rv_compare(x, 4, y, 4, VB_HIGHER, &c);
	ck_assert_int_eq(c.why, RV_NO_SPREAD);
	ck_assert_ptr_nonnull(rv_why_note(c.why));
	near(c.w.p, 2 / 70.0, 1e-15);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CHANGED);
	ck_assert(v.star);
	near(v.lo, -2.56410256410256, 1e-12);
	near(v.hi, -2.56410256410256, 1e-12);
	rv_compare(x, 3, y, 3, VB_HIGHER, &c);
	near(c.w.p, 0.1, 1e-15);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CANT_TELL);
	near(v.runs_needed, 4, 0);
	/*
	 * ... unless the iterations have no spread either (3 of 3 a
	 * side, all alike): their exact permutation p, 2 / C(18, 9)
	 */
	rv_no_spread_iters(&c, 9, 0, 9, 0);
	near(c.w.p, 2 / 48620.0, 1e-15);
	near(c.m.p, 2 / 48620.0, 1e-15);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CHANGED);
	/* iterations that vary, or one a run: the runs' p stays */
	rv_compare(x, 3, y, 3, VB_HIGHER, &c);
	rv_no_spread_iters(&c, 9, 0.5, 9, 0);
	near(c.w.p, 0.1, 1e-15);
	rv_no_spread_iters(&c, 3, 0, 3, 0);
	near(c.w.p, 0.1, 1e-15);
	rv_compare(x, 3, z, 3, VB_HIGHER, &c);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_SAME);
	near(v.tost_p, 0, 0);
	/*
	 * A count at 0 in every run against the same whole number in
	 * every run (make ab: a run an iteration): the exact test of two
	 * Poisson counts, 2 (1/2)^(3 k); a few stray events decide
	 * nothing, and a count that varies is the t test's
	 */
	{
		static const double z3[] = { 0, 0, 0 };
		static const double k256[] = { 256, 256, 256 };
		static const double k1[] = { 1, 1, 1 };
		static const double k2[] = { 2, 3, 1 };

		rv_compare(z3, 3, k256, 3, VB_HIGHER, &c);
		ck_assert(c.zero_count);
		ck_assert_msg(c.w.p < 1e-200 && c.m.p == c.w.p, "p %g %g",
		    c.w.p, c.m.p);
		rv_verdict(&c, c.w.p, &o, &v);
		ck_assert_int_eq(v.word, RV_CHANGED);
		rv_compare(k256, 3, z3, 3, VB_LOWER, &c);
		ck_assert(c.zero_count && c.w.p < 1e-200);
		rv_compare(z3, 3, k1, 3, VB_LOWER, &c);
		near(c.w.p, 0.25, 1e-15);
		rv_verdict(&c, c.w.p, &o, &v);
		ck_assert_int_ne(v.word, RV_CHANGED);
		rv_compare(z3, 3, k2, 3, VB_LOWER, &c);
		ck_assert(!c.zero_count);
		/*
		 * with 3 iterations a run, all alike: the iterations'
		 * permutation p (no Poisson assumption) replaces it
		 */
		rv_compare(z3, 3, k1, 3, VB_LOWER, &c);
		rv_no_spread_iters(&c, 9, 0, 9, 0);
		near(c.w.p, 2 / 48620.0, 1e-15);
	}
	/* 0 against 0: the same, no percentage, not in the family */
	rv_compare(o0, 2, o0, 2, VB_LOWER, &c);
	ck_assert_int_eq(c.why, RV_NO_SPREAD);
	ck_assert(isnan(c.w.p));
	ck_assert(isnan(c.change));
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_SAME);
}
END_TEST

/* A negative baseline: the two one-sided tests trade places. */
START_TEST(negative_and_missing)
{
	double na[5], nb[4];
	struct rv_cmp c;
	struct rv_verdict pos, neg;
	struct rv_opts o = opts(0.05, 1, 0);
	int i;

	for (i = 0; i < 5; i++)
		na[i] = -SA[i];
	for (i = 0; i < 4; i++)
		nb[i] = -SB[i];
	rv_compare(SA, 5, SB, 4, VB_HIGHER, &c);
	rv_verdict(&c, c.w.p, &o, &pos);
	rv_compare(na, 5, nb, 4, VB_HIGHER, &c);
	rv_verdict(&c, c.w.p, &o, &neg);
	near(neg.p_low, pos.p_high, 1e-12);
	near(neg.p_high, pos.p_low, 1e-12);
	ck_assert_int_eq(neg.word, RV_SAME);
	/* -100.16 to -100.2 is lower: worse when higher is better */
	near(neg.change, -pos.change, 1e-12);
	ck_assert(neg.lo < neg.change && neg.change < neg.hi);
	near(neg.lo, -pos.hi, 1e-9);
	/* no run on a side: nothing compared */
	rv_compare(SA, 5, NULL, 0, VB_HIGHER, &c);
	ck_assert_int_eq(c.why, RV_MISSING);
	rv_verdict(&c, NAN, &o, &pos);
	ck_assert_int_eq(pos.word, RV_NONE);
	ck_assert_str_eq(rv_word_name(pos.word), "-");
	/* a run that did not measure the metric is skipped */
	rv_compare((const double[]){ 101.3, NAN, 98.7, 100.4, 99.1 }, 5, RB,
	    3, VB_LOWER, &c);
	ck_assert_int_eq(c.a.n, 4);
	near(c.w.p, 0.0126452412951174, 1e-12);
}
END_TEST

/*
 * The shipped examples: results/examples/example-a..e are five runs of
 * one config on one kernel, nothing changed between them, so any
 * split of them into two sides is an A/A comparison.  For each of the
 * 10 ways to put 3 runs on side A and 2 on side B, over the default
 * view's key figures (the headline, elapsed, user, sys, majflt,
 * pswpin, pswpout and each .res's "key" line; info metrics left out):
 *  - the old model, Welch on the iterations pooled across each side's
 *    runs, marks changes (p < 0.05, change >= 1%) in every split;
 *  - the run model, Welch on the run means with Holm's correction over
 *    the family of key figures, marks none in any split (and without
 *    the correction, some).
 * The summary's geometric mean of time-like ratios: its 95% CI with
 * runs as the unit (rs_georun) covers 1 in at least 9 of the 10
 * splits; adding each metric's variance as if the metrics were
 * independent (rs_geo, on the same run means) excludes 1 in most.
 * And the 10 pairs of one run a side: the old model marks changes in
 * them, the run model marks nothing (one run a side has no test).
 */
#define EX "results/examples/example-"
#define NRUN 5

static int
key_figure(const struct vb_res *r, int m)
{
	static const char *const common[] = { "elapsed", "user", "sys",
		"majflt", "pswpin", "pswpout" };
	const char *name = r->metrics[m].name;
	size_t i;

	if (r->metrics[m].dir == VB_INFO)
		return 0;
	if (r->metrics[m].key || !strcmp(name, r->headline))
		return 1;
	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (!strcmp(name, common[i]))
			return 1;
	return 0;
}

static int
time_like(const struct vb_res *r, int m)
{
	const char *u = r->metrics[m].unit;

	return r->metrics[m].dir == VB_LOWER && (!strcmp(u, "s") ||
	    !strcmp(u, "ms") || !strcmp(u, "us") || !strcmp(u, "ns"));
}

/* Run @k's column of @name in @id: its values, or NULL. */
static const struct vb_res *
column(const struct rl_kernel *k, const char *id, const char *name,
    int *m)
{
	const struct vb_res *r = rl_find(k, id);

	if (!r || (*m = vb_res_metric_index(r, name)) < 0)
		return NULL;
	return r;
}

static double
run_mean(const struct rl_kernel *k, const char *id, const char *name)
{
	const struct vb_res *r;
	struct rs_desc d;
	int m;

	if (!(r = column(k, id, name, &m)))
		return NAN;
	rs_describe(r->vals + m, r->niter, r->nmetrics, &d);
	return d.mean;
}

/* The iterations of @name in run @k, described. */
static void
iter_desc(const struct rl_kernel *k, const char *id, const char *name,
    struct rs_desc *d)
{
	const struct vb_res *r;
	int m;

	ck_assert_ptr_nonnull(r = column(k, id, name, &m));
	rs_describe(r->vals + m, r->niter, r->nmetrics, d);
}

/* The iterations of @name in the runs @runs[n], pooled into @out. */
static int
pooled(const struct rl_kernel *ks, const int *runs, int n, const char *id,
    const char *name, double *out, int cap)
{
	const struct vb_res *r;
	int i, it, m, k = 0;

	for (i = 0; i < n; i++) {
		if (!(r = column(&ks[runs[i]], id, name, &m)))
			continue;
		for (it = 0; it < r->niter && k < cap; it++)
			out[k++] = vb_res_get(r, it, m);
	}
	return k;
}

struct split_result {
	int old_marks, run_stars, raw_stars, family;
	double min_adj;
	int geo_runs_cover, geo_indep_cover;
};

static void
compare_split(const struct rl_kernel *ks, const int *sa, int na,
    const int *sb, int nb, struct split_result *sr)
{
	const struct rl_kernel *base = &ks[sa[0]];
	struct rv_cmp *cmp = NULL;
	struct rv_opts o = opts(0.05, 1, 0);
	struct rs_georun gr;
	struct rs_geo gi;
	double *p = NULL, *adj, va[64], vb[64], ma[NRUN], mb[NRUN];
	int i, j, m, n = 0, cap = 0;

	memset(sr, 0, sizeof(*sr));
	ck_assert_int_eq(rs_georun_init(&gr, na, nb), 0);
	rs_geo_init(&gi);
	for (i = 0; i < base->nres; i++) {
		const struct vb_res *r = &base->res[i];

		for (m = 0; m < r->nmetrics; m++) {
			const char *name = r->metrics[m].name;
			struct rs_desc da, db;
			struct rs_cmp old;
			int ka, kb;

			for (j = 0; j < na; j++)
				ma[j] = run_mean(&ks[sa[j]], base->ids[i],
				    name);
			for (j = 0; j < nb; j++)
				mb[j] = run_mean(&ks[sb[j]], base->ids[i],
				    name);
			if (time_like(r, m) &&
			    rs_georun_add(&gr, ma, mb) == 0) {
				rs_describe(ma, na, 1, &da);
				rs_describe(mb, nb, 1, &db);
				rs_geo_add(&gi, &da, &db);
			}
			if (!key_figure(r, m))
				continue;
			ka = pooled(ks, sa, na, base->ids[i], name, va, 64);
			kb = pooled(ks, sb, nb, base->ids[i], name, vb, 64);
			rs_describe(va, ka, 1, &da);
			rs_describe(vb, kb, 1, &db);
			rs_compare(&da, &db, r->metrics[m].dir, &old);
			rs_mark(&da, &db, r->metrics[m].dir, 1, &old);
			sr->old_marks += old.sig;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				cmp = realloc(cmp, (size_t)cap * sizeof(*cmp));
				ck_assert_ptr_nonnull(cmp);
			}
			rv_compare(ma, na, mb, nb, r->metrics[m].dir,
			    &cmp[n++]);
		}
	}
	p = calloc((size_t)n + 1, sizeof(double));
	adj = calloc((size_t)n + 1, sizeof(double));
	ck_assert(p && adj);
	for (i = 0; i < n; i++)
		p[i] = cmp[i].w.p;
	sr->family = rs_holm(p, n, adj);
	sr->min_adj = 1;
	for (i = 0; i < n; i++) {
		struct rv_verdict v;

		rv_verdict(&cmp[i], adj[i], &o, &v);
		sr->run_stars += v.star;
		rv_verdict(&cmp[i], p[i], &o, &v);
		sr->raw_stars += v.star;
		if (!isnan(adj[i]))
			sr->min_adj = fmin(sr->min_adj, adj[i]);
	}
	rs_georun_finish(&gr);
	rs_geo_finish(&gi);
	ck_assert_int_ge(gr.k, 20);
	sr->geo_runs_cover = gr.lo <= 1 && 1 <= gr.hi;
	sr->geo_indep_cover = gi.lo <= 1 && 1 <= gi.hi;
	rs_georun_free(&gr);
	free(p);
	free(adj);
	free(cmp);
}

/*
 * The report's own stars for @b against the baseline @a, from the model
 * every view draws them from (model.c): the default view's (the key
 * rows, Holm over the key figures) or --detail's (every row,
 * Benjamini-Hochberg).  The starred rows are named in @names ("id
 * metric; ..."); the verdict words of the key rows counted in @words
 * (indexed by enum rv_word), when not NULL.
 */
static int
model_stars(const char *a, const char *b, int detail, char *names,
    size_t len, int *words)
{
	struct rl_set s;
	struct model m;
	struct model_row *rows;
	char err[256];
	int i, j, n, stars = 0;

	memset(&s, 0, sizeof(s));
	s.nk = 2;
	ck_assert_ptr_nonnull(s.k = calloc(2, sizeof(*s.k)));
	ck_assert_msg(rl_load_kernel(a, &s.k[0], err, sizeof(err)) == 0,
	    "%s", err);
	ck_assert_msg(rl_load_kernel(b, &s.k[1], err, sizeof(err)) == 0,
	    "%s", err);
	rl_index(&s);
	model_init(&m, &s, 1);
	m.detail = detail;
	names[0] = '\0';
	for (i = 0; i < s.nids; i++) {
		n = model_rows(&m, s.ids[i], &rows);
		for (j = 0; j < n; j++) {
			const struct model_row *r = &rows[j];

			if (!detail && !r->key)
				continue;
			if (words && r->key)
				words[model_verdict(&m, r, 1, NULL)->word]++;
			if (!r->c[1].sig)
				continue;
			stars++;
			snprintf(names + strlen(names), len - strlen(names),
			    "%s%s %s", names[0] ? "; " : "", s.ids[i],
			    r->name);
		}
	}
	model_free(&m);
	rl_free(&s);
	return stars;
}

/* report/vmreport @args, which must exit 0: its output (malloc'd). */
static char *
vmreport_out(const char *args)
{
	char dir[512], *out;

	tu_mkdtemp(dir, sizeof(dir), "view");
	out = tu_view(dir, "%s", args);
	tu_rmtree(dir);
	return out;
}

/*
 * The summary's geometric mean of time-like ratios for the folders
 * @args (baseline first, one other): 1 when its 95% CI covers 1, 0
 * when it excludes 1, -1 when it gives no interval ("-": one run a
 * side).  The ratio goes to @ratio.
 */
static int
summary_geo_covers(const char *args, double *ratio)
{
	char a[1024], runs[16], *out, *line, *e, *br;
	double lo, hi;
	int k, rc = -1;

	snprintf(a, sizeof(a), "--summary %s", args);
	out = vmreport_out(a);
	ck_assert_msg((line = strstr(out, " ratio  95% CI\n")) != NULL,
	    "%s: no geometric mean in the summary", args);
	line += strlen(" ratio  95% CI\n");
	if ((e = strchr(line, '\n')))
		*e = '\0';
	ck_assert_msg(sscanf(line, "%*s %d %15s %lf", &k, runs, ratio) == 3,
	    "%s: geometric mean line: %s", args, line);
	ck_assert_msg(k >= 20, "%s: %d time-like metrics", args, k);
	if ((br = strchr(line, '[')))
		ck_assert_msg(sscanf(br, "[%lf, %lf]", &lo, &hi) == 2 &&
		    lo <= *ratio && *ratio <= hi, "%s: interval: %s", args,
		    line);
	else
		ck_assert_msg(!strcmp(line + strlen(line) - 1, "-"),
		    "%s: neither an interval nor -: %s", args, line);
	if (br)
		rc = lo <= 1 && 1 <= hi;
	free(out);
	return rc;
}

/*
 * The moderated t (Smyth 2004): the prior fitted to five figures'
 * pooled log variances (3 runs a side, 4 df each) and the test of two
 * of them, against tests/verdict-ref.py ("moderated"): s2 of figure 0
 * 0.000408610417529313, s0sq 3.84162141471079e-5, d0 0.626843034856479;
 * figure 0 t 6.15533977923794 on 4.62684303485648 df, p
 * 0.00216198502494208; figure 3 t 0.0171823900033665, p
 * 0.987007125481885.  And a counter constant on each side, 0 in every
 * run against 128 in every run: decided at 3 runs a side.
 */
START_TEST(moderated)
{
	static const double ma[5][3] = {
		{ 100, 103, 98 }, { 10.0, 10.4, 10.1 }, { 5.0, 5.6, 4.4 },
		{ 200, 190, 205 }, { 1.000, 1.001, 0.999 },
	}, mb[5][3] = {
		{ 110, 112, 109 }, { 10.2, 10.1, 10.3 }, { 5.2, 4.5, 5.5 },
		{ 198, 202, 195 }, { 1.001, 0.999, 1.000 },
	};
	static const double z3[] = { 0, 0, 0 }, c3[] = { 128, 128, 128 };
	struct rv_cmp c[5], k;
	struct rv_verdict v;
	struct rv_opts o = opts(0.05, 1, 0);
	double s2[5], d[5], s0, d0;
	int i;

	for (i = 0; i < 5; i++) {
		rv_compare(ma[i], 3, mb[i], 3, VB_HIGHER, &c[i]);
		ck_assert_int_eq(c[i].m.scale, RV_LOG);
		ck_assert_msg(c[i].m.pooled, "figure %d not pooled", i);
		s2[i] = c[i].m.s2;
		d[i] = c[i].m.d;
	}
	near(s2[0], 0.000408610417529313, 1e-15);
	near(d[0], 4, 0);
	rv_fit_prior(s2, d, 5, &s0, &d0);
	near(s0, 3.84162141471079e-5, 1e-15);
	near(d0, 0.626843034856479, 1e-9);
	rv_moderate(&c[0], s0, d0);
	near(c[0].m.t, 6.15533977923794, 1e-8);
	near(c[0].m.df, 4.62684303485648, 1e-9);
	near(c[0].m.p, 0.00216198502494208, 1e-10);
	rv_moderate(&c[3], s0, d0);
	near(c[3].m.t, 0.0171823900033665, 1e-9);
	near(c[3].m.p, 0.987007125481885, 1e-9);
	o.model = RV_MODERATED;
	rv_verdict(&c[0], c[0].m.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CHANGED);
	ck_assert_msg(v.lo > 0 && v.hi > v.lo, "interval [%g, %g]", v.lo,
	    v.hi);
	rv_verdict(&c[3], c[3].m.p, &o, &v);
	ck_assert_msg(v.word == RV_SAME || v.word == RV_CANT_TELL,
	    "figure 3: word %d", v.word);
	/* fewer than 3 variances: no prior */
	rv_fit_prior(s2, d, 2, &s0, &d0);
	near(d0, 0, 0);
	/* 0, 0, 0 against 128, 128, 128 with a prior: changed */
	rv_fit_prior(s2, d, 5, &s0, &d0);
	rv_compare(z3, 3, c3, 3, VB_INFO, &k);
	ck_assert_int_eq(k.m.scale, RV_LOG1P);
	/* without a prior: the exact test of two Poisson counts */
	ck_assert(k.zero_count);
	near(k.m.p, 2 * pow(0.5, 384), 1e-130);
	rv_moderate(&k, s0, d0);
	ck_assert_msg(k.m.p < 1e-4, "0 against 128: p %g", k.m.p);
	rv_verdict(&k, k.m.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CHANGED);
	/* the same value on both sides: not tested */
	rv_compare(c3, 3, c3, 3, VB_INFO, &k);
	rv_moderate(&k, s0, d0);
	ck_assert(isnan(k.m.p));
}
END_TEST

/*
 * Label folders @tmp/a@n and b@n for the report, their runs symbolic
 * links to the examples: b@n's the examples @j and @k (0: example-a),
 * a@n's the three others, in order.
 */
static void
link_split(const char *tmp, int n, int j, int k)
{
	char cwd[512], dir[600], to[600];
	int x, i = 0;

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	snprintf(dir, sizeof(dir), "%s/a%d", tmp, n);
	ck_assert_msg(mkdir(dir, 0755) == 0, "%s: %s", dir, strerror(errno));
	snprintf(dir, sizeof(dir), "%s/b%d", tmp, n);
	ck_assert_msg(mkdir(dir, 0755) == 0, "%s: %s", dir, strerror(errno));
	for (x = 0; x < NRUN; x++) {
		snprintf(to, sizeof(to), "%s/" EX "%c", cwd, 'a' + x);
		if (x == j || x == k)
			snprintf(dir, sizeof(dir), "%s/b%d/run%d", tmp, n,
			    x == j ? 1 : 2);
		else
			snprintf(dir, sizeof(dir), "%s/a%d/run%d", tmp, n,
			    ++i);
		ck_assert_msg(symlink(to, dir) == 0, "%s: %s", dir,
		    strerror(errno));
	}
}

START_TEST(examples_aa)
{
	struct rl_kernel ks[NRUN];
	struct split_result sr;
	char dir[300], err[256], tmp[256], args[1024], names[256];
	double ratio;
	int i, j, k, splits = 0, old_split_marks = 0, run_stars = 0;
	int runs_cover = 0, indep_cover = 0, pair_marks = 0, pair_stars = 0;
	int raw_stars = 0, sum_cover = 0, sum_none = 0;

	for (i = 0; i < NRUN; i++) {
		snprintf(dir, sizeof(dir), EX "%c", 'a' + i);
		ck_assert_msg(rl_load_kernel(dir, &ks[i], err,
		    sizeof(err)) == 0, "%s", err);
	}
	/*
	 * label folders a1, b1 ... a10, b10 for the report, their runs
	 * symbolic links to the examples: the splits in the order of the
	 * loop below
	 */
	tu_mkdtemp(tmp, sizeof(tmp), "verdict");
	for (i = 0, j = 0; j < NRUN; j++)
		for (k = j + 1; k < NRUN; k++)
			link_split(tmp, ++i, j, k);
	/* B is the two runs j < k, A the other three */
	for (j = 0; j < NRUN; j++)
		for (k = j + 1; k < NRUN; k++) {
			int sa[3], sb[2] = { j, k }, n = 0;

			for (i = 0; i < NRUN; i++)
				if (i != j && i != k)
					sa[n++] = i;
			compare_split(ks, sa, 3, sb, 2, &sr);
			ck_assert_int_ge(sr.family, 40);
			splits++;
			old_split_marks += sr.old_marks > 0;
			run_stars += sr.run_stars;
			raw_stars += sr.raw_stars;
			runs_cover += sr.geo_runs_cover;
			indep_cover += sr.geo_indep_cover;
			/* the same split through the report's summary */
			snprintf(args, sizeof(args), "%s/a%d %s/b%d", tmp,
			    splits, tmp, splits);
			sum_cover += summary_geo_covers(args, &ratio) == 1;
			snprintf(args, sizeof(args), "%s/a%d", tmp, splits);
			snprintf(dir, sizeof(dir), "%s/b%d", tmp, splits);
			ck_assert_msg(model_stars(args, dir, 0, names,
			    sizeof(names), NULL) == 0, "%c%c%c against %c%c: "
			    "the default view stars %s", 'a' + sa[0],
			    'a' + sa[1], 'a' + sa[2], 'a' + j, 'a' + k, names);
			/* and the pair j, k: one run a side */
			compare_split(ks, &j, 1, &k, 1, &sr);
			pair_marks += sr.old_marks;
			pair_stars += sr.run_stars;
			ck_assert_int_eq(sr.family, 0);
			snprintf(args, sizeof(args), EX "%c " EX "%c",
			    'a' + j, 'a' + k);
			sum_none += summary_geo_covers(args, &ratio) == -1;
		}
	ck_assert_int_eq(tu_rmtree(tmp), 0);
	ck_assert_int_eq(splits, 10);
	ck_assert_msg(old_split_marks == 10, "old model marked changes in "
	    "%d of 10 splits", old_split_marks);
	ck_assert_msg(run_stars == 0, "run model: %d stars", run_stars);
	/* the correction is what removes them: without it, 21 */
	ck_assert_msg(raw_stars > 0, "run model, no correction: %d stars",
	    raw_stars);
	ck_assert_msg(runs_cover >= 9, "run-level geometric mean covers 1 "
	    "in %d of 10", runs_cover);
	ck_assert_msg(indep_cover <= 5, "independent-metrics geometric mean "
	    "covers 1 in %d of 10", indep_cover);
	ck_assert_msg(pair_marks > 0, "old model, pairs: %d marks",
	    pair_marks);
	ck_assert_int_eq(pair_stars, 0);
	/*
	 * the summary, run-level: covers 1 in at least 9 of the 10 splits;
	 * one run a side gives a ratio but no interval (never excludes 1)
	 */
	ck_assert_msg(sum_cover >= 9, "the summary's geometric mean covers 1 "
	    "in %d of 10 splits", sum_cover);
	ck_assert_msg(sum_none == 10, "one run a side: the summary gave an "
	    "interval in %d of 10 pairs", 10 - sum_none);
	for (i = 0; i < NRUN; i++)
		rl_free_kernel(&ks[i]);
}
END_TEST

/*
 * The shipped several-run pairs (docs/report.md, "A worked example"),
 * through the report's model and its text view:
 *  - aa-1 against aa-2, 3 runs each of configs/examples.conf made
 *    alternately on one kernel with the same settings: an A/A pair.
 *    Nothing is starred in the default view, either way round; every
 *    key figure ends in "same" or "can't tell", and the view shows the
 *    words; the summary's geometric mean, 3 runs a side, covers 1.
 *  - thp-never against thp-always, 3 runs each of
 *    configs/truth-thp.conf with THP written between runs: memfill's
 *    minflt and thp_fault_alloc are starred in --detail (verdict
 *    changed), and the default view names them as --detail stars.
 */
#define EXD "results/examples/"

START_TEST(examples_runs)
{
	static const char *const aa[][2] = {
		{ EXD "aa-1", EXD "aa-2" }, { EXD "aa-2", EXD "aa-1" } };
	char names[1024], args[256], *out, *p;
	int words[RV_CANT_TELL + 1], i, n;
	double ratio;

	for (i = 0; i < 2; i++) {
		memset(words, 0, sizeof(words));
		n = model_stars(aa[i][0], aa[i][1], 0, names, sizeof(names),
		    words);
		ck_assert_msg(n == 0, "%s against %s: the default view stars "
		    "%s", aa[i][0], aa[i][1], names);
		ck_assert_int_eq(words[RV_CHANGED], 0);
		ck_assert_int_gt(words[RV_SAME] + words[RV_CANT_TELL], 20);
		snprintf(args, sizeof(args), "%s %s", aa[i][0], aa[i][1]);
		out = vmreport_out(args);
		ck_assert_msg(!strstr(out, ")*"), "%s: starred", args);
		tu_assert_has(out, "-1: 3 runs on 1 boot");
		tu_assert_has(out, "-2: 3 runs on 1 boot");
		tu_assert_has(out, "\nverdict ");
		tu_assert_lacks(out, "One run a side");
		free(out);
		ck_assert_msg(summary_geo_covers(args, &ratio) == 1, "%s: the "
		    "geometric mean (%g) excludes 1", args, ratio);
	}
	n = model_stars(EXD "thp-never", EXD "thp-always", 1, names,
	    sizeof(names), NULL);
	ck_assert_msg(strstr(names, "memfill minflt") &&
	    strstr(names, "memfill thp_fault_alloc"), "THP pair, --detail: "
	    "starred %d: %s", n, names);
	out = vmreport_out("--detail " EXD "thp-never " EXD "thp-always");
	ck_assert_ptr_nonnull(p = strstr(out, "\nminflt"));
	ck_assert_msg(strstr(p, ")*\n") < strchr(p + 1, '\n'), "minflt "
	    "not starred: %.100s", p + 1);
	ck_assert_ptr_nonnull(p = strstr(out, "\nthp_fault_alloc"));
	ck_assert_msg(strstr(p, ")*\n") < strchr(p + 1, '\n'),
	    "thp_fault_alloc not starred: %.100s", p + 1);
	/* its block of figures ends in the word */
	ck_assert_ptr_nonnull(p = strstr(out, "\nminflt (faults"));
	ck_assert_ptr_nonnull(p = strstr(p, "\nverdict "));
	ck_assert_msg(strstr(p, "changed*\n") < strchr(p + 1, '\n'),
	    "minflt's verdict: %.60s", p + 1);
	free(out);
	/* the default view's second tier names them under memfill */
	out = vmreport_out(EXD "thp-never " EXD "thp-always");
	ck_assert_msg((p = strstr(out, "\nalso changed: ")) != NULL,
	    "no also changed line:\n%s", out);
	*strchr(p + 1, '\n') = 0;
	ck_assert_msg(strstr(p, "minflt +99.8%*") &&
	    strstr(p, "thp_fault_alloc 0 -> 269.8*"), "also changed: %s",
	    p + 1);
	free(out);
}
END_TEST

/*
 * The worked example of docs/report.md, against
 * tests/verdict-ref.py (which reads the .res files itself): forkbomb's
 * forks/s, higher is better, runs example-a, b, c (run means
 * 2561.17545733333, 2565.201908, 3113.638114) against example-d, e
 * (3070.98824666667, 2966.73401466667): Welch t 1.42696048491071, df
 * 2.30582102439336, p 0.273992054554974; change +9.90978614924558%,
 * CI -13.2578358412684 .. 48.21436023836%; TOST at 1%: p_low
 * 0.118481744615637, p_high 0.841487651161554; runs needed (CoV
 * 0.115706762257162) at 1%: 2294, at 5%: 93, at 10%: 24; to decide
 * the change (+9.9%) at 1% and 5%: 23 (detect +9.9%), at 10%: 24.  The old
 * model's a against d: Welch on iterations t 7.04523229926856, df
 * 3.97917664140381, p 0.00218204245200121.
 */
START_TEST(worked_example)
{
	struct rl_kernel ks[NRUN];
	struct rs_desc da, dd;
	struct rs_cmp old;
	struct rv_cmp c;
	struct rv_verdict v;
	struct rv_opts o = opts(0.05, 1, 0);
	double mean[NRUN];
	char dir[64], err[256];
	int i;

	for (i = 0; i < NRUN; i++) {
		snprintf(dir, sizeof(dir), EX "%c", 'a' + i);
		ck_assert_msg(rl_load_kernel(dir, &ks[i], err,
		    sizeof(err)) == 0, "%s", err);
		mean[i] = run_mean(&ks[i], "forkbomb", "forks_per_s");
	}
	near(mean[0], 2561.17545733333, 1e-9);
	near(mean[4], 2966.73401466667, 1e-9);
	rv_compare(mean, 3, mean + 3, 2, VB_HIGHER, &c);
	near(c.w.t, 1.42696048491071, 1e-10);
	near(c.w.df, 2.30582102439336, 1e-10);
	near(c.w.p, 0.273992054554974, 1e-12);
	near(c.run_cov, 0.115706762257162, 1e-12);
	rv_verdict(&c, c.w.p, &o, &v);
	ck_assert_int_eq(v.word, RV_CANT_TELL);
	near(v.change, 9.90978614924558, 1e-10);
	near(v.lo, -13.2578358412684, 1e-7);
	near(v.hi, 48.21436023836, 1e-7);
	near(v.p_low, 0.118481744615637, 1e-12);
	near(v.p_high, 0.841487651161554, 1e-12);
	near(v.runs_needed, 23, 0);
	near(rv_runs_needed(c.run_cov, 0.01, 0.05), 2294, 0);
	o = opts(0.05, 5, 0);
	rv_verdict(&c, c.w.p, &o, &v);
	near(v.runs_needed, 23, 0);
	near(rv_runs_needed(c.run_cov, 0.05, 0.05), 93, 0);
	o = opts(0.05, 10, 0);
	rv_verdict(&c, c.w.p, &o, &v);
	near(v.runs_needed, 24, 0);
	/* the old model: run a against run d, iterations as the unit */
	iter_desc(&ks[0], "forkbomb", "forks_per_s", &da);
	iter_desc(&ks[3], "forkbomb", "forks_per_s", &dd);
	rs_compare(&da, &dd, VB_HIGHER, &old);
	rs_mark(&da, &dd, VB_HIGHER, 1, &old);
	near(old.w.t, 7.04523229926856, 1e-10);
	near(old.w.df, 3.97917664140381, 1e-10);
	near(old.w.p, 0.00218204245200121, 1e-12);
	ck_assert(old.sig);
	for (i = 0; i < NRUN; i++)
		rl_free_kernel(&ks[i]);
}
END_TEST

/*
 * The load beside the runs against tests/verdict-ref.py ("loads"): the
 * same foreign_cpu figures, each iteration's, of forkbomb and
 * forkbomb@b in three runs of aa1 (the baseline), aa2 and aa3, written
 * as make run writes them.  The script's output, quoted:
 *
 *   aa1 run loads 146.0 160.0 174.0 loud 3 of 3 range 146.0 174.0
 *   aa2 run loads 73.25 75.25 65.7 loud 3 of 3 range 65.7 75.25
 *   aa3 run loads 3.0 2.0 95.0 loud 1 of 3 range 95.0 95.0
 *   forkbomb aa1 n loud mean lo hi 3 3 160 146 174
 *   forkbomb aa2 n loud mean lo hi 3 3 141.666666666667 130 150 same load
 *   forkbomb aa3 n loud mean lo hi 3 1 33.3333333333333 2 95 differs
 *   forkbomb@b aa2 n loud mean lo hi 3 0 1.13333333333333 0.5 1.5 differs
 *   forkbomb@b aa3 n loud mean lo hi 3 1 33.3333333333333 2 95 differs
 *
 * (aa2's forkbomb: 18.3 points apart, more than the threshold but less
 * than a quarter of 160: the same load.)
 */
static const double LOADS[3][2][3][3] = {
	{ { { 150, 146, 142 }, { 160, 158, 162 }, { 170, 175, 177 } },
	  { { 140, 148, 150 }, { 161, 159, 160 }, { 172, 174, 176 } } },
	{ { { 140, 150, 145 }, { 150, 152, 148 }, { 130, 128, 132 } },
	  { { 1, 2, 1.5 }, { 0.5, 0.4, 0.6 }, { 2, 1, 1.2 } } },
	{ { { 3, 4, 2 }, { 1, 2, 3 }, { 90, 100, 95 } },
	  { { 2, 3, 4 }, { 2, 2, 2 }, { 95, 96, 94 } } },
};

/* Label @l (aa1..aa3) of LOADS under tu_dir, its path into @dir. */
static void
load_label(int l, char *dir, size_t len)
{
	static const char *const ids[] = { "forkbomb", "forkbomb@b" };
	char path[PATH_MAX], text[2048], rel[64];
	int r, b, i;

	snprintf(rel, sizeof(rel), "aa%d", l + 1);
	tu_folder(dir, len, rel, 0755);
	for (r = 0; r < 3; r++) {
		snprintf(rel, sizeof(rel), "aa%d/run%d", l + 1, r + 1);
		tu_folder(path, sizeof(path), rel, 0755);
		ck_assert_int_eq(tu_sh_in(tu_dir, "sed "
		    "'s/^label=.*/label=aa%d/' " EXD "example-a/meta > "
		    "\"$T/%s/meta\" && echo run=%d >> \"$T/%s/meta\"", l + 1,
		    rel, r + 1, rel), 0);
		for (b = 0; b < 2; b++) {
			snprintf(text, sizeof(text), "vmbench-result 1\nbench "
			    "forkbomb\nvariant %s\ncmdline forkbomb\nstatus "
			    "complete\nstarted -\nended -\nheadline "
			    "forks_per_s\nmetric elapsed s lower\nmetric "
			    "foreign_cpu %% info\nmetric forks_per_s forks/s "
			    "higher\n", b ? "b" : "default");
			for (i = 0; i < 3; i++)
				snprintf(text + strlen(text), sizeof(text) -
				    strlen(text), "iter %d %.2f %.17g %.1f\n",
				    i + 1, 1.0 + 0.01 * (r + i),
				    LOADS[l][b][r][i], 1000.0 + 10 * (r + i));
			strcat(text, "end\n");
			snprintf(rel, sizeof(rel), "aa%d/run%d/%s.res", l + 1,
			    r + 1, ids[b]);
			tu_write(path, sizeof(path), rel, text);
		}
	}
}

START_TEST(loads)
{
	static const struct {
		const char *id;
		int k, loud, differs;
		double mean, lo, hi;
	} want[] = {
		{ "forkbomb", 0, 3, 0, 160, 146, 174 },
		{ "forkbomb", 1, 3, 0, 141.666666666667, 130, 150 },
		{ "forkbomb", 2, 1, MODEL_LOAD_CPU, 33.3333333333333, 2, 95 },
		{ "forkbomb@b", 1, 0, MODEL_LOAD_CPU, 1.13333333333333, 0.5,
		  1.5 },
		{ "forkbomb@b", 2, 1, MODEL_LOAD_CPU, 33.3333333333333, 2, 95 },
	};
	struct model_loadcmp c;
	struct rl_set s;
	struct model m;
	char dir[3][512], err[256], args[2048], *out, *p, *d;
	size_t i;
	int l;

	tu_mktmp();
	memset(&s, 0, sizeof(s));
	s.nk = 3;
	ck_assert_ptr_nonnull(s.k = calloc(3, sizeof(*s.k)));
	for (l = 0; l < 3; l++) {
		load_label(l, dir[l], sizeof(dir[l]));
		ck_assert_msg(rl_load_kernel(dir[l], &s.k[l], err,
		    sizeof(err)) == 0, "%s", err);
	}
	rl_index(&s);
	model_init(&m, &s, 1);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int side = want[i].k ? 1 : 0;

		model_load_cmp(&m, want[i].id, want[i].k ? want[i].k : 1, &c);
		ck_assert_msg(c.n[side] == 3 && c.loud[side] == want[i].loud &&
		    fabs(c.cpu[side] - want[i].mean) < 1e-9 &&
		    c.lo[side] == want[i].lo && c.hi[side] == want[i].hi,
		    "%s aa%d: n %d loud %d mean %.15g lo %g hi %g", want[i].id,
		    want[i].k + 1, c.n[side], c.loud[side], c.cpu[side],
		    c.lo[side], c.hi[side]);
		if (want[i].k)
			ck_assert_msg(c.differs == want[i].differs, "%s aa%d: "
			    "differs %d, want %d", want[i].id, want[i].k + 1,
			    c.differs, want[i].differs);
	}
	model_free(&m);
	rl_free(&s);
	/* the header's loud runs of each label */
	snprintf(args, sizeof(args), "%s %s %s", dir[0], dir[1], dir[2]);
	out = vmreport_out(args);
	for (p = d = out; *p; p++) {
		if (*p == '\n' && p[1] == ' ') {
			while (p[1] == ' ')
				p++;
			*d++ = ' ';
		} else {
			*d++ = *p;
		}
	}
	*d = '\0';
	tu_assert_has(out, "aa1: 3 of 3 runs loud, 146-174% of a CPU; aa2: 3 "
	    "of 3 runs, 66-75%; aa3: 1 of 3 runs, 95%");
	tu_assert_has(out, "aa3 and aa1 ran under different loads");
	free(out);
	ck_assert_int_eq(tu_rmtree(tu_dir), 0);
}
END_TEST

/*
 * A change keeps decimals up to 9999.9% (one from 1000%, where two
 * would not fit the tables' 8 characters), and no rounding at a bound
 * makes it wider than 8.
 */
START_TEST(pct_format)
{
	static const struct {
		double p;
		const char *want;
	} c[] = {
		{ 3.024, "+3.02%" }, { -999.99, "-999.99%" },
		{ 999.996, "+1000.0%" }, { 1234.56, "+1234.6%" },
		{ -2500.04, "-2500.0%" }, { 9999.94, "+9999.9%" },
		{ 9999.95, ">+9999%" }, { -12000, "<-9999%" }, { NAN, "n/a" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fmt_pct(buf, sizeof(buf), c[i].p);
		ck_assert_msg(!strcmp(buf, c[i].want), "%g: '%s', want '%s'",
		    c[i].p, buf, c[i].want);
		ck_assert_int_le(strlen(buf), 8);
	}
}
END_TEST

/* fmt_g10(@v) is printf's "%.10g" of @v. */
static void
g10_is_printf(double v)
{
	char want[64], got[FMT_G10_LEN];

	snprintf(want, sizeof(want), "%.10g", v);
	fmt_g10(got, v);
	ck_assert_msg(!strcmp(got, want), "%.17g: '%s', want '%s'", v, got,
	    want);
}

/*
 * fmt_g10() prints what printf's "%.10g" prints (the exports' numbers).
 * First the edges, each decimal exponent from 1e-7 to 1e16 (across the fast
 * path's bounds, 1e-5 and 1e15, and the switches to an exponent at 1e-5 and
 * 1e10), either sign: the power of ten and its neighbours, the carries just
 * below it (9.999999999|5 and its neighbours, where the tenth digit rounds
 * up into the next power), a tie-like 1.000000000|5, one and two significant
 * digits (trailing zeros dropped, with and without a point), and exact
 * binary ties at the tenth digit (printf rounds them to even).  Then random
 * values of every magnitude, short decimals as read from result files, near
 * ties and carries: 2000 rounds of 12 values (50000 took 3 s of CPU).  The
 * coverage argument: each round draws its exponent anew, so the 26 exponents
 * get some 77 rounds each; each of 12 deliberate bugs in fmt.c's fmt_g10()
 * (a tie not left to printf, a carry missed, a shift one bit short, the
 * exponent form one power late at either end, a trailing zero kept, a point
 * with no digit after it, a wrong digit pair, the exponent's digits swapped,
 * a lost minus sign or -0, a zero too few after the point) failed the
 * 50000-round loop within its first 5 rounds, and the edges alone catch all
 * 12 and a 13th that 50000 rounds never caught ("1.2e+10" printed as
 * "1e+10").
 */
START_TEST(g10_format)
{
	static const char *const mant[] = { "1", "1.2", "2", "9.999999999",
	    "9.9999999995", "9.99999999949", "9.99999999951", "1.0000000005",
	    "1.00000000049", "1.23456789", "5.5" };
	static const double ties[] = { 12345678905.0, 12345678915.0,
	    123456789.25, 123456789.75, 12345678.125, 1234567.0625 };
	char t[64];
	unsigned long long x = 88172645463325252ULL;
	double v[12], w;
	int i, j, e, s, n;
	size_t k;

	for (e = -7; e <= 16; e++)
		for (k = 0; k < sizeof(mant) / sizeof(mant[0]); k++)
			for (s = -1; s <= 1; s += 2) {
				snprintf(t, sizeof(t), "%s%se%d", s < 0 ? "-" :
				    "", mant[k], e);
				w = strtod(t, NULL);
				g10_is_printf(w);
				g10_is_printf(nextafter(w, 0));
				g10_is_printf(nextafter(w, s * INFINITY));
			}
	for (k = 0; k < sizeof(ties) / sizeof(ties[0]); k++) {
		g10_is_printf(ties[k]);
		g10_is_printf(-ties[k]);
	}
	g10_is_printf(0.0);
	g10_is_printf(-0.0);
	for (i = 0; i < 2000; i++) {
		/* xorshift64: the same values every run */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		e = (int)(x % 26) - 8;
		memcpy(&v[0], &x, sizeof(v[0]));
		v[1] = ldexp((double)(x >> 11), -53) * pow(10, e);
		v[2] = -v[1];
		snprintf(t, sizeof(t), "%llue%d", x % 1000000, e - 3);
		v[3] = strtod(t, NULL);
		snprintf(t, sizeof(t), "%llu5e%d", 1000000000ULL +
		    x % 9000000000ULL, e);
		v[4] = strtod(t, NULL);
		v[5] = nextafter(v[4], 0);
		v[6] = nextafter(v[4], INFINITY);
		v[7] = (double)(x % 100000000000ULL);
		v[8] = pow(10, e) * (0.99999999995 + (double)(x % 3) * 1e-12);
		v[9] = nextafter(pow(10, e), 0);
		v[10] = (double)(x % 1000) / (double)(1 + (x >> 20) % 1000);
		v[11] = i < 2 ? (i ? -0.0 : 0.0) : exp(-(double)(x % 40000) /
		    1000);
		n = sizeof(v) / sizeof(v[0]);
		for (j = 0; j < n; j++)
			if (isfinite(v[j]))
				g10_is_printf(v[j]);
	}
}
END_TEST

/*
 * fmt_fixed() as it was written with snprintf() alone; with @tiny,
 * fmt_value() (a value that is not 0 never shown as 0).
 */
static char *
value_ref(char *buf, size_t len, double v, int dec, int tiny)
{
	int p, n;

	if (!isfinite(v) || v == 0) {
		snprintf(buf, len, "%s", v == 0 ? "0" : "-");
		return buf;
	}
	while (dec > 0 && snprintf(buf, len, "%.*f", dec, v) > 9)
		dec--;
	n = snprintf(buf, len, "%.*f", dec, v);
	if (n > 9 || (tiny && !strpbrk(buf, "123456789")))
		for (p = 3; p >= 0; p--)
			if (snprintf(buf, len, "%.*e", p, v) <= 9)
				break;
	return buf;
}

/*
 * fmt_value(@v, @dec) and fmt_fixed() are what value_ref() prints, and
 * so are -@v's.
 */
static void
value_is_ref(double v, int dec)
{
	char want[64], got[64];
	int s, tiny;

	for (s = 0; s < 2; s++, v = -v)
		for (tiny = 0; tiny < 2; tiny++) {
			value_ref(want, sizeof(want), v, dec, tiny);
			(tiny ? fmt_value : fmt_fixed)(got, sizeof(got), v,
			    dec);
			ck_assert_msg(!strcmp(got, want), "%.17g, %d%s: '%s', "
			    "want '%s'", v, dec, tiny ? "" : " (fixed)", got,
			    want);
		}
}

/*
 * fmt_value() (which formats most values without printf) prints what
 * printf's "%.*f" and "%.*e" print.  First the edges, for every number of
 * decimals from 0 to 6, either sign: the powers of ten from 1e-23 to 1e13
 * and their neighbours (the fast path's bound at 1e12, the widths where a
 * decimal or the fixed form no longer fits 9 characters, values that round
 * to zero, "-0.00" included), powers of two around 2^-68 (where the exact
 * remainder stops being kept), and exact binary ties at the last decimal, m
 * + k / 2^(dec + 1) with k odd (printf rounds them to even) and their
 * neighbours.  Then random values of every magnitude, negative values that
 * round to zero, and ties and near ties at the last decimal: 2000 rounds of
 * 6 values, each also negated (50000 rounds took 2 s of CPU).  The coverage
 * argument: each of 6 deliberate bugs in fmt.c's fmt_value() (a tie not left
 * to printf, the exact remainder dropped from 2^-60 down, half one bit off,
 * the minus sign of a value rounded to zero lost, 10 characters taken for 9
 * in either place) failed the 50000-round loop within its first 53 rounds,
 * and the edges alone catch all 6.
 */
/*
 * fmt_cut(): a label too long for its column keeps its start and its
 * end with ".." between; labels that differ only near their end keep
 * more of the end; labels apart only in their middle end in "#N"; no
 * two different labels print alike, and none is wider than the column.
 */
START_TEST(label_cut)
{
	static const struct {
		const char *l[3];
		int n, w;
		const char *want[3];
	} c[] = {
		{ { "6.1.0-57-cloud-amd64-A", "6.1.0-57-cloud-amd64-B" }, 2,
		    13, { "6.1.0-..d64-A", "6.1.0-..d64-B" } },
		{ { "linux-6.1-A-build", "linux-6.1-B-build" }, 2, 10,
		    { "l..A-build", "l..B-build" } },
		{ { "aaaaXaaaa", "aaaaYaaaa" }, 2, 6,
		    { "aaaa#1", "aaaa#2" } },
		{ { "short", "6.1.0-57-cloud-amd64-A", "short" }, 3, 8,
		    { "short", "6.1..4-A", "short" } },
	};
	char got[3][64];
	size_t i;
	int k, j;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (k = 0; k < c[i].n; k++) {
			fmt_cut(got[k], sizeof(got[k]), c[i].l, c[i].n, k,
			    c[i].w);
			ck_assert_msg(!strcmp(got[k], c[i].want[k]) &&
			    (int)strlen(got[k]) <= c[i].w, "%s in %d: \"%s\", "
			    "want \"%s\"", c[i].l[k], c[i].w, got[k],
			    c[i].want[k]);
			for (j = 0; j < k; j++)
				ck_assert_msg(!strcmp(c[i].l[j], c[i].l[k]) ||
				    strcmp(got[j], got[k]), "%s and %s both "
				    "\"%s\"", c[i].l[j], c[i].l[k], got[k]);
		}
}
END_TEST

START_TEST(value_format)
{
	static const double whole[] = { 0, 1, 12, 99999, 1234567, 99999999,
	    999999999 };
	char t[64];
	unsigned long long x = 2463534242ULL;
	double v[6], w, f;
	int i, j, dec, e, k;
	size_t m;

	for (dec = 0; dec <= 6; dec++) {
		for (e = -23; e <= 13; e++) {
			snprintf(t, sizeof(t), "1e%d", e);
			w = strtod(t, NULL);
			value_is_ref(w, dec);
			value_is_ref(nextafter(w, 0), dec);
			value_is_ref(nextafter(w, INFINITY), dec);
			value_is_ref(w * 0.99999995, dec);
			value_is_ref(w * 0.5, dec);
			value_is_ref(w * 0.49999999, dec);
		}
		for (e = -76; e <= -60; e++) {
			value_is_ref(ldexp(1, e), dec);
			value_is_ref(ldexp(3, e), dec);
			value_is_ref(ldexp(0x1fffffffffffffULL, e - 52), dec);
		}
		f = ldexp(1, -(dec + 1));
		for (m = 0; m < sizeof(whole) / sizeof(whole[0]); m++)
			for (k = 1; k < 1 << (dec + 1); k += k < 9 ? 2 : 14) {
				w = whole[m] + k * f;
				value_is_ref(w, dec);
				value_is_ref(nextafter(w, 0), dec);
				value_is_ref(nextafter(w, INFINITY), dec);
			}
	}
	for (i = 0; i < 2000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		dec = (int)(x % 6);
		memcpy(&v[0], &x, sizeof(v[0]));
		v[1] = ldexp((double)(x >> 11), -53) * pow(10, (int)(x % 24) -
		    12);
		v[2] = -v[1];
		snprintf(t, sizeof(t), "%llu.%0*llu5", x % 100000, dec,
		    (x >> 17) % (unsigned long long)pow(10, dec));
		v[3] = strtod(t, NULL);
		v[4] = nextafter(v[3], 0);
		v[5] = -nextafter(v[3], INFINITY);
		for (j = 0; j < 6; j++)
			value_is_ref(v[j], dec);
	}
}
END_TEST

Suite *
verdict_suite(void)
{
	Suite *s = suite_create("verdict");
	TCase *tc = tu_tcase_local("verdict");

	/* the examples' tests run the report some 40 times */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, changed);
	tcase_add_test(tc, same);
	tcase_add_test(tc, cant_tell);
	tcase_add_test(tc, one_run);
	tcase_add_test(tc, no_spread);
	tcase_add_test(tc, negative_and_missing);
	tcase_add_test(tc, moderated);
	tcase_add_test(tc, examples_aa);
	tcase_add_test(tc, examples_runs);
	tcase_add_test(tc, worked_example);
	tcase_add_test(tc, loads);
	tcase_add_test(tc, pct_format);
	tcase_add_test(tc, g10_format);
	tcase_add_test(tc, value_format);
	tcase_add_test(tc, label_cut);
	suite_add_tcase(s, tc);
	return s;
}
