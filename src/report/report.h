/*
 * report.h - the report generator's modules (src/report/vmreport.c is the
 * program; these are linked into it and into the tests).
 *
 *	rstats.c  statistics: descriptive, Student t, Welch, Fieller,
 *		  detectable change, geometric-mean summary, Holm and
 *		  Benjamini-Hochberg (GSL)
 *	verdict.c runs as the unit: run-level comparison, two one-sided
 *		  tests, the three-word verdict (its own header, verdict.h)
 *	rload.c   reading result folders (meta, .res via src/lib/res.h)
 *	rtext.c   the text views: comparison tables, summaries, the
 *		  posts' forms, ASCII bar charts, the vmstat dump
 *	rexport.c CSV and JSON of every statistic
 *	rplot.c   gnuplot charts (PNG and SVG)
 *	rhtml.c   the results page across many kernels (HTML, inline SVG)
 *	rlmbench.c LMbench's summary tables of vmlat's figures (the post)
 *	rsetup.c  what the figures rest on: the settings that differ between
 *		  the folders, which machine each ran on, how quiet the
 *		  machine was, whose counters
 *		  (the whole machine's or the memory cgroup's) a metric is
 *
 * The report only reads result folders; it never runs a benchmark and
 * never writes into a result folder.
 */
#ifndef VB_REPORT_H
#define VB_REPORT_H

#include <stdio.h>

#include "meta.h"
#include "res.h"
#include "util.h"

/* ---- rstats.c ---- */

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
 * exponentiated (rstats.c says why; docs/statistics-model.md).  No
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

/* ---- rload.c ---- */

/*
 * One run of a label: one vmrun of the config (docs/results.md).  A
 * label folder made by `make run` holds runN/ sub-folders, each a run;
 * a folder with meta at its top (older folders, make ab's sides) is one
 * run.
 */
struct rl_run {
	char *dir;			/* DIR/runN, or DIR for a one-run folder */
	int index;			/* N; 1 for a one-run folder */
	char *boot_id;			/* meta's boot_id; NULL: not recorded */
	int nmeta;
	struct vb_kv *meta;
	int nres;
	char **ids;			/* sorted, as rl_kernel's */
	struct vb_res *res;
};

struct rl_kernel {
	char *dir;			/* as given on the command line */
	char *label;			/* meta's label, else folder name */
	/*
	 * meta, ids and res are what the views read: for a one-run folder
	 * its own; for a label of several runs the first run's meta with
	 * runs=N and boots=M added (status: complete only when every run
	 * is, start of the first run, end of the last) and each result
	 * with every run's iterations pooled, in run order.
	 */
	int nmeta;
	struct vb_kv *meta;		/* src/lib/meta.h */
	int nres;
	char **ids;			/* "bench[@variant]", sorted */
	struct vb_res *res;
	/*
	 * The runs pooled into res, in index order: those that match the
	 * first run's config and machine and have an iteration (the rest
	 * are left out, said in note).  For a one-run folder runs[0]
	 * shares meta, ids and res with the kernel (grouped 0).
	 */
	int nruns;
	struct rl_run *runs;
	int nboots;			/* distinct boot ids (at least 1) */
	int grouped;			/* a label of runN/ sub-folders */
	/*
	 * make ab's side (meta unit=run-per-iteration, or an older one
	 * with ab_side): one folder, but every iteration a separate run of
	 * the program, so the statistics take its iterations as its runs.
	 */
	int iter_is_run;
	char *note;			/* runs left out, incomplete; or NULL */
};

struct rl_set {
	int nk;
	struct rl_kernel *k;		/* k[0] is the baseline */
	int nids;
	char **ids;			/* all kernels' ids, sorted */
	/* rt_rows()'s statistics per id, computed once (rtext.c) */
	struct rt_row **rows;
	int *nrows;
	double min_change;		/* %: smaller changes are never marked */
};

/*
 * Load folder @dir (one run, or a label of runs); -1 with a one-line
 * message in @err.  Runs left out or incomplete are said in k->note
 * and in one line on stderr.
 */
int rl_load_kernel(const char *dir, struct rl_kernel *k, char *err,
    size_t errlen);
void rl_free_kernel(struct rl_kernel *k);
/*
 * The per-run means of @metric of result @id of kernel @k, in run
 * order, into @out (room for k->nruns): a run with no value of it (no
 * complete iteration, or the counter absent) gives none.  Returns how
 * many.  A kernel whose iterations are its runs (k->iter_is_run) has
 * one run: the statistics take rl_find()'s iterations instead.
 */
int rl_run_means(const struct rl_kernel *k, const char *id,
    const char *metric, double *out);
/*
 * The header's runs lines, one a label: "x: 3 runs on 2 boots", with
 * its note, wrapped at @width; nothing when no folder is a label of
 * runs (one-run folders print as before).
 */
void rl_runs_header(FILE *f, const struct rl_set *s, int width);
/* Build the union of ids after loading every kernel. */
void rl_index(struct rl_set *s);
void rl_free(struct rl_set *s);
/* Result @id of kernel @k, or NULL when that kernel lacks it. */
const struct vb_res *rl_find(const struct rl_kernel *k, const char *id);
const char *rl_meta(const struct rl_kernel *k, const char *key);
/*
 * Parameters of @id that differ between kernels: one line per
 * difference appended to @out; returns the number of differences.
 */
int rl_param_diffs(const struct rl_set *s, const char *id,
    struct vb_buf *out);

/* A meta key whose value is not the same in every folder. */
struct rl_mdiff {
	const char *key;
	const char **val;		/* per kernel; NULL: not recorded */
};
/*
 * The settings and machine facts (meta keys) that differ between the
 * folders, ab_setting first, then in the order the folders list them;
 * keys that differ by nature (label, status, start, end, workdir, the
 * memory limit's and swap file's run figures, ab_side, ab_pair, and the
 * runs' run, runs, boots, boot_id, uptime_start, unit) are skipped, and config_cksum when config differs too.  Returns the count,
 * *@out allocated (rl_free_mdiffs()).
 */
int rl_meta_diffs(const struct rl_set *s, struct rl_mdiff **out);
void rl_free_mdiffs(struct rl_mdiff *d, int n);

/* ---- rtext.c ---- */

struct rt_opts {
	int width;			/* columns (80) */
	double noisy;			/* CoV threshold (0.05) */
	int detail;			/* statistics of every metric */
	int allow_diff;			/* --allow-different-params */
	double quiet;			/* % of a CPU: --quiet-threshold (5) */
};

/* Whose counter a metric is. */
enum rt_scope {
	RT_BENCH,			/* the benchmark's own (rusage, figures) */
	RT_SYSTEM,			/* the whole machine (/proc/vmstat, load) */
	RT_CGROUP			/* the memory cgroup (MEM=): cg_* */
};

/* Statistics of metric @m (by name) of @id for every kernel. */
struct rt_row {
	const char *name, *unit;
	enum vb_dir dir;
	enum rt_scope scope;
	int integral;			/* every value a whole number */
	/*
	 * Shown by the default view: the headline, the common figures
	 * (elapsed, user, sys, majflt, pswpin, pswpout) and the metrics a
	 * .res names on its "key" line; the others only with --detail.
	 */
	int key;
	struct rs_desc *d;		/* nk; n == 0: missing */
	struct rs_cmp *c;		/* nk; c[0] unused */
};

/*
 * Every metric of @id (union over kernels, baseline order first), with
 * its statistics.  Computed once and kept in @s (freed by rl_free()).
 */
int rt_rows(const struct rl_set *s, const char *id, struct rt_row **rows);
/* Rows are owned by the set: this does nothing, kept for symmetry. */
void rt_free_rows(struct rt_row *rows, int n, int nk);
/*
 * Is @d noisy: CoV above @thr, or a mean of 0 with spread (its CoV is
 * infinite: never called steady)?  Needs two runs.
 */
int rt_noisy(const struct rs_desc *d, double thr);
void rt_free_cache(struct rl_set *s);

/* The comparison table of @id (rows from rt_rows()) and its notes. */
void rt_table(FILE *f, const struct rl_set *s, const char *id,
    struct rt_row *rows, int nrows, const struct rt_opts *o);
void rt_notes(FILE *f, const struct rl_set *s, const char *id,
    struct rt_row *rows, int nrows, const struct rt_opts *o);
/* Index of @id's headline row (else elapsed), or -1. */
int rt_headline(const struct rl_set *s, const char *id,
    struct rt_row *rows, int nrows);
void rt_headline_bars(FILE *f, const struct rl_set *s,
    const struct rt_row *r, int width);
void rt_compare(FILE *f, const struct rl_set *s, const struct rt_opts *o);
void rt_summary(FILE *f, const struct rl_set *s, const struct rt_opts *o);
void rt_post(FILE *f, const struct rl_set *s, const struct rt_opts *o);
/* Mean of metric @name over the runs of @r; NAN when absent (rpost.c). */
double rt_metric_mean(const struct vb_res *r, const char *name);
void rt_bars(FILE *f, const char *title, int n, const char *const *labels,
    const double *vals, const char *unit, int width);
/* contest's table of @bench's load variants (rpost.c); nothing if none. */
void rt_contest_table(FILE *f, const struct rl_set *s, const char *bench);
/* tworead's n-by-kernel table of @bench's sweep (rpost.c). */
void rt_tworead_table(FILE *f, const struct rl_set *s, const char *bench,
    const struct rt_opts *o);
/* "played X of Y seconds (Z%)" per kernel from @probe_id; 0 if none. */
int rt_probe_lines(FILE *f, const struct rl_set *s, const char *probe_id);
/* Sort the next charts smallest first (lower is better) or largest first. */
void rt_bars_order(int ascending);
/* The .vmstat series of @id as `vmstat 1` dumps; -1 if none found. */
int rt_vmstat(FILE *f, const struct rl_set *s, const char *id, int iter);
/*
 * Metrics significantly worse than the baseline by more than @pct
 * percent, one line each to @f; returns their count.
 */
int rt_regressions(FILE *f, const struct rl_set *s, double pct);
/* Value formatting shared by the views (LMbench style: 1.2K 3.4M). */
char *rt_short(char *buf, size_t len, double v);
/* Print @text wrapped at @width, continuation lines indented by @ind. */
void rt_wrap(FILE *f, const char *text, int width, int ind);
/*
 * The comparison table's pieces for other views: is row @r shown (not
 * zero in every run, measured somewhere), is it noisy (some kernel's
 * CoV above @noisy), kernel @k's mean as the table prints it, and a
 * change as "+3.02%".
 */
int rt_row_shown(const struct rt_row *r, int nk);
int rt_row_noisy(const struct rt_row *r, int nk, double noisy);
char *rt_row_mean(char *buf, size_t len, const struct rt_row *r, int nk,
    int k);
char *rt_pct(char *buf, size_t len, double p);

/* ---- rlmbench.c ---- */

/*
 * LMbench's process, file & VM and bandwidth tables of the vmlat
 * results, one row per kernel; returns the number of tables printed.
 */
int rt_lmbench(FILE *f, const struct rl_set *s);
/* @v in at most @width characters, as LMbench's num(); "-" if absent. */
char *rt_lm_num(char *buf, size_t len, double v, int width);

/* ---- rsetup.c ---- */

enum rt_scope rt_scope_of(const char *metric);
/* "benchmark", "system" or "cgroup" (CSV and JSON). */
const char *rt_scope_name(enum rt_scope sc);
/* The table's tag: "", "[system]" or "[cgroup]". */
const char *rt_scope_tag(enum rt_scope sc);
/*
 * The settings block at the top of every text view: the keys of
 * rl_meta_diffs() with each folder's value, or one line saying they
 * are the same.  Nothing with a single folder.
 */
void rt_settings(FILE *f, const struct rl_set *s, int width);
/* The same as one line for chart titles, cut to @len. */
char *rt_settings_line(char *buf, size_t len, const struct rl_set *s);
/*
 * Folder @k's value of setting @d as the settings block shows it (for
 * cmdline: only the words not in every folder); allocated, NULL when
 * not recorded.
 */
char *rt_setting_value(const struct rl_set *s, const struct rl_mdiff *d,
    int k);

/*
 * The machines the folders ran on: the same host name, CPU model and
 * count, and MemTotal within 2%.  Machines are numbered in the order
 * of their first folder.
 */
struct rt_machines {
	int n;				/* distinct machines */
	int *of;			/* per folder: its machine */
	int *first;			/* per machine: its first folder */
};
void rt_machines_of(const struct rl_set *s, struct rt_machines *m);
void rt_machines_free(struct rt_machines *m);
/* "vm, AMD EPYC x 2, 23.5 GiB RAM" for folder @k. */
char *rt_machine_name(char *buf, size_t len, const struct rl_kernel *k);
/*
 * With folders from more than one machine: one line per machine with
 * its folders, then one warning line (part of rt_settings()).
 */
void rt_machines(FILE *f, const struct rl_set *s, int width);

/* How busy the machine was with other work during one result. */
struct rt_quiet {
	int n;				/* iterations with foreign_cpu */
	double mean, max;		/* foreign_cpu, % of one CPU */
	int quiet;			/* 1, 0 (mean above), -1 not recorded */
};
void rt_quiet_of(const struct vb_res *r, double threshold,
    struct rt_quiet *q);
/* One warning line per kernel whose run of @id was not quiet. */
int rt_quiet_warn(FILE *f, const struct rl_set *s, const char *id,
    const struct rt_opts *o);
/* One line over every benchmark and kernel (top of text and post). */
void rt_quiet_summary(FILE *f, const struct rl_set *s,
    const struct rt_opts *o);
/*
 * Was every benchmark run that recorded the other processes' CPU not
 * quiet?  Then one warning line on @f with the range of the runs'
 * means, @more in its parentheses (where each run is), and 1;
 * otherwise nothing and 0.
 */
int rt_all_loaded(FILE *f, const struct rl_set *s, const struct rt_opts *o,
    const char *more);
/*
 * @v with printf format @fmt (one double), "-" when it is NaN or
 * infinite, %.4g from 1e15 up (a %f of 1e300 would be 300 digits).
 */
char *rt_num(char *buf, size_t len, const char *fmt, double v);

/* ---- rtio.c ---- */

/*
 * tio's tables in the post's forms: tiobench's Num Thr | Rate (CPU%)
 * Eff and bonnie++'s creates and deletes.  The number of tables.
 */
int rt_tio(FILE *f, const struct rl_set *s, const struct rt_opts *o);

/* ---- rexport.c ---- */

void rx_csv(FILE *f, const struct rl_set *s, const struct rt_opts *o);
void rx_json(FILE *f, const struct rl_set *s, const struct rt_opts *o);

/* ---- rplot.c ---- */

/*
 * Write charts into @dir (created): per chart a .dat, a .gp script, a
 * .png and a .svg; the summary and each benchmark's headline and vmstat
 * series, with @detail every metric's.  @gnuplot: the program to run.
 * Returns the number of charts, -1 on error (one line printed).
 */
int rp_plot(const struct rl_set *s, const char *dir, const char *gnuplot,
    int detail);

/* ---- rhtml.c ---- */

/* @s as HTML text: & < > " ' as entities, what is not text as U+FFFD. */
void rh_esc(FILE *f, const char *s);
/*
 * The results page: @dir/index.html (@dir created, or an earlier page
 * of vmreport's replaced; anything else there is refused and nothing
 * written).  0, or -1 with one line printed.
 */
int rh_html(const struct rl_set *s, const char *dir,
    const struct rt_opts *o);

#endif
