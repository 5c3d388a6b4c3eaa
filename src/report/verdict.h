/*
 * verdict.h - kernel A against kernel B with the run as the unit of
 * repetition (src/report/verdict.c; the model, its formulas and its
 * references are in docs/report.md).
 *
 * Each side of a comparison is a set of runs; each run is reduced to
 * its mean of one metric (the mean of its iterations), and every test
 * here is on those run means, never on iterations pooled across runs:
 * a run adds its own offset to every iteration in it (Kalibera and
 * Jones, "Rigorous benchmarking in reasonable time", ISMM 2013: the
 * interval is honest only at the highest level repeated).
 *
 *	rv_compare()	the run means of one metric, both sides: Welch's
 *			test, the change and Fieller's interval, or why
 *			there is no test; a prediction interval when one
 *			side has one run and the other several
 *	rs_holm(), rs_bh() (rstats.h) adjust the raw p of a family
 *	rv_verdict()	changed, same within +-X%, or can't tell, from a
 *			comparison and its adjusted p
 */
#ifndef VB_VERDICT_H
#define VB_VERDICT_H

#include "rstats.h"

/*
 * The run-to-run CoV assumed when no side has two runs, to say how many
 * runs a side a decision would need: 10%.  It is an assumption, said
 * as one wherever it is used.  For scale: over the key figures of the
 * five shipped runs of one config on one kernel (results/examples/
 * example-a..e, a 2-CPU VM), the run-to-run CoV of those that vary has
 * median 19% (elapsed of tworead 0.2%, forkbomb's forks/s 9.5%,
 * memfill's fill_s 23%); a quiet bare-metal machine does better.
 */
#define RV_RUN_COV 0.10

/* The power the runs-needed counts are for. */
#define RV_POWER 0.8

/* Why a comparison has the test it has. */
enum rv_why {
	RV_TESTED,		/* >= 2 runs a side: Welch on the run means */
	RV_NO_SPREAD,		/* >= 2 runs a side, all equal within each
				   side: the exact permutation p */
	RV_ONE_RUN,		/* one run on a side: no test at all */
	RV_MISSING		/* no run on a side: nothing to compare */
};

/*
 * The scale the moderated test works on (docs/report.md, "The
 * moderated t"): the log of the run means when every one is > 0 (a
 * ratio-scale figure: changes are multiplicative), log(1 + x) for
 * whole counts >= 0 of which some are 0, else the values themselves.
 */
enum rv_scale {
	RV_RAW,
	RV_LOG,
	RV_LOG1P
};

/*
 * The sides' variances are pooled unless the two-sided F test of
 * their ratio gives p below this.
 */
#define RV_POOL_P 0.01

/*
 * The moderated test of one metric (rv_compare() fills the scale, the
 * difference and the pooled variance; rv_moderate() the test with a
 * prior).  On the scale: diff = mean(b) - mean(a) of the transformed
 * run means, s2 the pooled run-to-run variance on d = na + nb - 2 df
 * (pooled 1) or, when the sides' variances differ (pooled 0), Welch's
 * test on the scale, never moderated.
 */
struct rv_mod {
	enum rv_scale scale;
	int pooled;
	double diff, s2, d;
	double s0sq, d0;	/* the prior used (d0 0: none) */
	double s2_mod, df;	/* (d0 s0sq + d s2) / (d0 + d), d0 + d */
	double se, t, p;	/* of diff; p two-sided, NAN: untested */
};

/* One metric, side a (the baseline) against side b, by run means. */
struct rv_cmp {
	enum vb_dir dir;
	enum rv_why why;
	struct rs_desc a, b;	/* of the run means: n = runs, sd = the
				   run-to-run SD, cov = its CoV */
	double change;		/* %, positive = better (rs_pct_better);
				   NAN from a baseline mean of 0 */
	struct rs_welch w;	/* on the run means: the raw p of the
				   family; RV_NO_SPREAD: rs_welch's
				   permutation p; NAN (left out of the
				   family) with one run on a side, and
				   with no spread and one value on both
				   sides, which no test could call
				   different */
	struct rs_ratio ratio;	/* b/a, Fieller's 95% CI on the run means */
	/*
	 * One run on one side, n >= 2 on the other: the 95% prediction
	 * interval for one new run of the side with several,
	 * mean +- t(0.975, n - 1) sd sqrt(1 + 1/n); pi_side 0 (none),
	 * 1 (the baseline has the runs) or 2 (b has them); pi_outside:
	 * the lone run of the other side lies outside it.  A hint, never
	 * a test: it is not in the family and never starred.
	 */
	int pi_side;
	double pi_lo, pi_hi;
	int pi_outside;
	/*
	 * The run-to-run CoV the runs-needed count uses: the larger of
	 * the two sides' when both have >= 2 runs, else that of the side
	 * that has, else RV_RUN_COV (run_cov_assumed 1).
	 */
	double run_cov;
	int run_cov_assumed;
	/*
	 * RV_NO_SPREAD with one side at 0 and the other's runs all the
	 * same whole number: p is the exact test of two Poisson counts
	 * (zero_count() in verdict.c), in w.p and m.p alike, unless the
	 * iterations give their own exact p (rv_no_spread_iters()).
	 */
	int zero_count;
	struct rv_mod m;	/* the moderated test (RV_MODERATED) */
};

/*
 * The two-level model's exact case: no spread between the runs of
 * either side (RV_NO_SPREAD, different values) and none between the
 * iterations either (@ni_a and @ni_b iterations a side, all alike):
 * the iterations are exchangeable, so p is the exact permutation p of
 * the iterations, 1 / C(ni_a + ni_b, ni_a) (twice that for equal
 * counts), for the plain and the moderated test alike.  A counter at
 * 0 in every iteration of 3 runs of 3 against 256 in every one is
 * decided at 3 runs a side (p 4e-5), where the runs' own permutation
 * p cannot fall below 0.1.  Anything else: nothing changes.
 */
void rv_no_spread_iters(struct rv_cmp *c, int ni_a, double sd_a, int ni_b,
    double sd_b);
/*
 * Compare the run means @a (@na of them, the baseline) and @b (@nb) of
 * one metric whose direction is @dir.  NAN run means (a run that did
 * not measure the metric) are skipped.
 */
void rv_compare(const double *a, int na, const double *b, int nb,
    enum vb_dir dir, struct rv_cmp *c);

/*
 * Fit the prior of Smyth (2004) to @n variances @s2 (each > 0, finite)
 * on @d degrees of freedom (each > 0): log s2 is modelled as the log of
 * a scaled inverse chi-square, s0sq (d0 / chi2_d0), and s0sq, d0 are
 * fitted by moments: e_i = log s2_i - digamma(d_i / 2) + log(d_i / 2),
 * trigamma(d0 / 2) = var(e) - mean(trigamma(d_i / 2)), s0sq =
 * exp(mean(e) + digamma(d0 / 2) - log(d0 / 2)).  d0 is INFINITY when
 * the variances are no more spread than chance would make them (s0sq
 * exp(mean(e))), 0 with fewer than 3 variances (no prior).
 */
void rv_fit_prior(const double *s2, const double *d, int n, double *s0sq,
    double *d0);

/*
 * The moderated t of @c with the prior (@s0sq, @d0): on a pooled log
 * or log1p scale, s2_mod = (d0 s0sq + d s2) / (d0 + d) on d0 + d df
 * (@d0 INFINITY: s0sq on infinite df, a z test); else (raw scale, or
 * the sides' variances not pooled, or @d0 0) the test of rv_compare()
 * stands, and so does it (the permutation p) for no spread on either
 * side with fewer than 3 runs on one.  One value repeated on both
 * sides is not tested.
 */
void rv_moderate(struct rv_cmp *c, double s0sq, double d0);

/* The sentence a view prints once for @why (NULL for RV_TESTED). */
const char *rv_why_note(enum rv_why why);

/* The three words (RV_NONE: nothing compared, a side has no run). */
enum rv_word {
	RV_NONE,
	RV_CHANGED,		/* "changed" */
	RV_SAME,		/* "same" (within +-bound%) */
	RV_CANT_TELL,		/* "can't tell" */
	RV_OTHER_WORK		/* "other work": the benchmark's amount
				   of work differs, nothing compared
				   (model.h, struct model_work) */
};

/* Which test decides (rv_opts.model). */
enum rv_model {
	RV_WELCH,		/* Welch on the run means, "same" at +-X */
	RV_MODERATED		/* the moderated t (struct rv_mod), "same
				   +-X" at the smallest X it confirms */
};

/*
 * The sums of quantiles the planning figures ask for (runs_t() in
 * verdict.c), remembered for one report: it asks for the same few pairs
 * (q1, q2) (a family's level and the power) at the same runs a side for
 * thousands of rows, and gsl_cdf_tdist_Pinv is slow.  Each pair keeps
 * z, the normal quantiles' sum, and t[n], the t quantiles' sum at df
 * 2n - 2 for n < RV_MEMO_N (NAN: not yet).  All zero: empty; freed by
 * rv_memo_free().
 */
#define RV_MEMO_PAIRS 8
#define RV_MEMO_N 4096

struct rv_memo {
	struct rv_qsum {
		double q1, q2, z;
		double *t;
	} q[RV_MEMO_PAIRS];
	int n;
};

/* Free what @m holds and empty it. */
void rv_memo_free(struct rv_memo *m);

struct rv_opts {
	enum rv_model model;	/* RV_WELCH */
	double alpha;		/* the family's level (0.05) */
	double alpha_same;	/* RV_MODERATED: the level of "same" (0.05) */
	double useful;		/* %, RV_MODERATED: "same +-X" only for X
				   up to it, else can't tell (10) */
	double min_change;	/* %, --min-change (1) */
	double equiv;		/* %, X of "same within +-X%";
				   <= 0: min_change */
	int family;		/* the family's size: runs_needed plans
				   at alpha / family (Bonferroni, Holm's
				   first step); 0 or 1: alpha */
	struct rv_memo *memo;	/* the caller's, kept between calls;
				   NULL: nothing remembered */
};

/*
 * RV_WELCH, alpha 0.05, min_change 1, equiv 0 (= min_change), family
 * 0, no memo; alpha_same 0.05 and useful 10 for RV_MODERATED.
 */
void rv_opts_default(struct rv_opts *o);

struct rv_verdict {
	enum rv_word word;
	int star;		/* changed by a test in the family: shown
				   '*' and counted by the regression gate */
	double p, p_adj;	/* raw (c->w.p; RV_MODERATED: c->m.p) and
				   as given */
	double change;		/* %, positive = better (c->change) */
	double lo, hi;		/* its 95% CI in %, from Fieller's; NAN
				   when there is none */
	int unbounded;		/* Fieller's interval is not finite */
	double bound;		/* X, % */
	/*
	 * Two one-sided tests of |change| < X: p_low of H0 "change <= -X",
	 * p_high of H0 "change >= +X", tost_p the larger; same when
	 * tost_p < alpha.  NAN when untested.
	 */
	double p_low, p_high, tost_p;
	/*
	 * Runs a side that would decide at this spread, from c->run_cov
	 * (rv_runs_to_decide() at the observed change, X and alpha):
	 * filled for every word but RV_NONE, printed with can't tell.
	 * NAN when the spread is unknown (a mean of 0 with spread), or X
	 * is 0 and so is the change.  RV_MODERATED: from the test's own
	 * variance and df, at least one more than the larger side has.
	 */
	double runs_needed;
	/*
	 * RV_MODERATED: the smallest change, %, this very test would
	 * find with power RV_POWER at its family's planning level
	 * (alpha / family, two-sided) and its df: (t(1 - a/2, df) +
	 * t(RV_POWER, df)) se, as e^x - 1 on the log scale; NAN when
	 * untested (and with RV_WELCH).
	 */
	double detectable;
	/*
	 * The sides ran under different loads and the load can move this
	 * figure (model.h, model_load_cmp()): word RV_CANT_TELL, never
	 * starred, whatever the test says.  Set by the model, 0 here.
	 */
	int load;
};

/*
 * The verdict of @c, whose raw p (c->w.p) has been adjusted to @p_adj
 * within its family (rs_holm(), rs_bh(); p_adj = c->w.p for a family
 * of one):
 *   changed    p_adj < alpha and |change| >= min_change (from a
 *              baseline of 0, any change); starred unless @c's metric
 *              is info;
 *   same       the two one-sided tests at +-X both give p < alpha
 *              (X = equiv, else min_change); with no spread, when
 *              |change| < X;
 *   can't tell otherwise, and always with one run on a side, with
 *              runs_needed.
 */
void rv_verdict(const struct rv_cmp *c, double p_adj,
    const struct rv_opts *o, struct rv_verdict *v);

/*
 * RV_MODERATED (@o->model), with p_adj the moderated p adjusted:
 *   changed    p_adj < alpha and |change| >= min_change, as above;
 *   same +-X   X the smallest bound two one-sided tests at alpha_same
 *              accept (the 1 - 2 alpha_same interval of the ratio
 *              inside 1 +- X), rounded up (0.1 below 1%, else 1%),
 *              when X <= useful;
 *   can't tell otherwise, with the runs a side from the same test.
 */

/* "changed", "same", "can't tell", "-". */
const char *rv_word_name(enum rv_word w);

/*
 * Runs a side to decide at run-to-run CoV @cov and bound @delta (a
 * fraction: 0.01 for 1%) at level @alpha with power RV_POWER: the
 * larger of 2 (z(1 - alpha/2) + z(power))^2 (cov/delta)^2 (detect a
 * change of delta) and 2 (z(1 - alpha) + z(1 - (1 - power)/2))^2
 * (cov/delta)^2 (two one-sided tests when nothing changed), rounded
 * up, at least 2; with @cov 0, the fewest runs a side whose
 * permutation p (rs_perm_p) is below @alpha.  NAN when @cov is NAN or
 * @delta is not > 0.
 */
double rv_runs_needed(double cov, double delta, double alpha);

/*
 * The runs a side that would decide a comparison whose observed change
 * is @change (a fraction, signed; NAN: unknown) at bound @bound: when
 * |change| > @bound, the runs that would detect a change of |change|
 * (detection formula only: "same" cannot hold there); else
 * rv_runs_needed(@cov, @bound, @alpha).
 */
double rv_runs_to_decide(double cov, double change, double bound,
    double alpha);

#endif
