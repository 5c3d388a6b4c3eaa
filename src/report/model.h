/*
 * model.h - the row model every view reads (model.c).  For one
 * benchmark id: one row per metric, with each folder's descriptive
 * statistics and its comparison with the baseline, computed once and
 * kept in the struct model; the questions the views ask of a row (is
 * it shown, noisy, the headline?); and the small queries on results
 * (a metric's mean, the bench and variant of an id).  Below it: rload
 * and rstats only.
 */
#ifndef VB_MODEL_H
#define VB_MODEL_H

#include <stddef.h>

#include "res.h"
#include "rload.h"
#include "rstats.h"
#include "verdict.h"

/* Whose counter a metric is. */
enum model_scope {
	MODEL_BENCH,			/* the benchmark's own (rusage, figures) */
	MODEL_SYSTEM,			/* the whole machine (/proc/vmstat, load) */
	MODEL_CGROUP			/* the memory cgroup (MEM=): cg_* */
};

/* Statistics of metric @m (by name) of @id for every kernel. */
struct model_row {
	const char *name, *unit;
	enum vb_dir dir;
	enum model_scope scope;
	int integral;			/* every value a whole number */
	/*
	 * Shown by the default view: the headline, the common figures
	 * (elapsed, user, sys, majflt, pswpin, pswpout) and the metrics a
	 * .res names on its "key" line; the others only with --detail.
	 */
	int key;
	/*
	 * The benchmark's headline (model_headline()): the default
	 * verdict's first tier (Holm over the headlines of one kernel
	 * against the baseline).  A headline is a key row too.
	 */
	int head;
	struct rs_desc *d;		/* nk; n == 0: missing; of the
					   iterations, pooled over runs */
	/*
	 * c[k].sig is the star the views show: the verdict's (below),
	 * never Welch's on iterations; c[k].pct the run-level change
	 * (rc[k].change: the means of the run means), the one every view,
	 * export and gate shows; c[k]'s w and ratio stay the
	 * iteration-level figures --detail prints.
	 */
	struct rs_cmp *c;		/* nk; c[0] unused */
	/*
	 * The run-level comparison (verdict.h) of kernel k with the
	 * baseline on the run means (its moderated test, rc[k].m), and
	 * its verdicts: vk with the p adjusted in the default view's tier
	 * (headline rows: Holm over kernel k's headlines; the others but
	 * the load's: Benjamini-Hochberg over kernel k's), vd with
	 * the p Benjamini-Hochberg-adjusted over every figure of kernel
	 * k (--detail).  model_verdict() picks the one the report shows.
	 */
	struct rv_cmp *rc;		/* nk; rc[0] unused */
	struct rv_verdict *vk, *vd;	/* nk; [0] unused */
	/*
	 * A figure of the benchmark's amount of work (the .res "work"
	 * line), and per kernel: 1 when its work differs from the
	 * baseline's (model_work_of()) and this row is not a work
	 * figure: then nothing is compared (no test, no star, the
	 * verdict RV_OTHER_WORK).
	 */
	int work;
	unsigned char *other_work;	/* nk; [0] unused */
	/*
	 * Per kernel: the sides ran under different loads
	 * (model_load_cmp()) and this is a figure the load can move
	 * (model_load_moves()): its verdict is can't tell, never starred
	 * (rv_verdict.load).  [0] unused.
	 */
	unsigned char *load;
};

/*
 * The load beside each run of one result: the other processes' CPU
 * (foreign_cpu, % of one CPU) and memory (foreign_mem_kb, % of
 * mem_total_kb) the runner records at each iteration, a run's mean
 * over its iterations (NAN: not recorded in that run).  A folder of
 * make ab's, whose iterations are separate runs: each iteration.
 */
struct model_runload {
	int n;				/* runs (or iterations) */
	int *index;			/* each one's N: runN, iteration N */
	double *cpu, *mem;		/* per run */
	int iter;			/* 1: the runs are iterations */
};
void model_run_loads(const struct rl_kernel *k, const char *id,
    struct model_runload *l);
void model_runload_free(struct model_runload *l);

/*
 * Did kernel @k's runs of @id and the baseline's run under different
 * loads?  For the CPU: a side's load is the mean of its runs'
 * foreign_cpu; they differ when some run of either side is loud (its
 * mean above the quiet threshold, m->quiet) and the two sides' loads
 * differ by more than that threshold and by more than a quarter of the
 * larger.  For the memory the same with m->mem_quiet, the bound a
 * fifth of it.  Both sides must have recorded it.  docs/report.md,
 * "Sides under different loads".
 */
struct model;
#define MODEL_LOAD_CPU 1
#define MODEL_LOAD_MEM 2
struct model_loadcmp {
	int differs;			/* MODEL_LOAD_CPU, _MEM or both */
	int n[2], loud[2];		/* runs with foreign_cpu, of those
					   loud: baseline, kernel k */
	double cpu[2], lo[2], hi[2];	/* the mean, lowest, highest run */
	int mem_n[2], mem_loud[2];	/* the same of the memory */
	double mem[2], mem_lo[2], mem_hi[2];
};
int model_load_cmp(const struct model *m, const char *id, int k,
    struct model_loadcmp *c);
/*
 * Can a load of kind @differs (MODEL_LOAD_*) move figure @r?  The CPU
 * others use moves the time-like figures (a unit s, ms, us or ns) and
 * the rates (a unit per second, "/s"), whichever way is better; the
 * memory they hold moves those and the machine's and the cgroup's
 * counters (reclaim, swap, faults).  The load's own figures and the
 * work's are never held.
 */
int model_load_moves(const struct model_row *r, int differs);

/*
 * Did kernel @k do the baseline's amount of work in @id?  The figures
 * the .res files name on their "work" line (the baseline's, else
 * kernel @k's), each compared by its mean over the runs: equal within
 * its tolerance (|k - base| <= tol% of |base|; tol 0: exactly).
 */
struct model_work {
	const char *metric;		/* the first that differs, or NULL */
	double base, val;		/* its means: baseline, kernel k */
	double pct;			/* (val - base) / |base|, %; NAN
					   from a base of 0 */
	double tol;			/* its tolerance, % */
	int declared;			/* some work figure is declared */
};
/* 1 when the work differs (*@w filled), else 0. */
int model_work_of(const struct rl_set *s, const char *id, int k,
    struct model_work *w);
/*
 * The line a view prints when kernel @k's work of @id differs: "other
 * work: bytes 4.195e+09 in b, 1.807e+10 in a (-76.8%; the same within
 * 1%): b's figures of memfill are not compared".  Into @buf; NULL when
 * the work is the same.
 */
char *model_work_line(char *buf, size_t len, const struct rl_set *s,
    const char *id, int k);

/*
 * The families the stars are corrected over, each of one kernel
 * against the baseline (a third folder changes no pair's family).
 * The default view's level is MODEL_VIEW_SHARE of alpha (0.04 of
 * 0.05), shared by its two tiers: MODEL_HEAD_SHARE to the headlines
 * (Holm at 0.032), the rest to the other figures (BH at 0.008; either
 * alone takes all of it), so that the chance of any false star in the
 * view is at most 4% (Bonferroni over the two tiers) and a measured
 * rate's interval can end below 5-6%; --detail is at alpha.
 */
#define MODEL_VIEW_SHARE 0.8
#define MODEL_HEAD_SHARE 0.8
enum model_family {
	MODEL_FAM_NONE,			/* untested: in no family */
	MODEL_FAM_KEY,			/* the second tier: every figure
					   but the headlines and the load's,
					   BH (legacy: the key figures,
					   Holm) */
	MODEL_FAM_DETAIL,		/* every figure: BH (--detail) */
	MODEL_FAM_HEAD			/* the headlines: Holm */
};

/* Today's model (model.legacy 1) and the moderated one (0). */

/* The folders and their statistics: what every view reads. */
struct model {
	const struct rl_set *s;		/* the folders, indexed (rl_index()) */
	double min_change;		/* %: smaller changes are never marked */
	double alpha;			/* the families' level (0.05) */
	int detail;			/* the stars are the detail family's */
	/*
	 * 1: the model before the moderated t (Welch on the run means,
	 * Holm over every key figure of every kernel, BH over all);
	 * make bench-stats measures it beside the default, 0.
	 */
	int legacy;
	double useful;			/* %, --useful: "same +-X" up to it
					   (10) */
	double quiet;			/* % of a CPU: a loud run (5) */
	double mem_quiet;		/* % of MemTotal: a run whose others
					   held more (25) */
	struct model_row **rows;	/* per id of s: model_rows()'s, */
	int *nrows;			/* all computed at the first call */
	int built;
	/* filled with the rows: */
	int nhead, nkey, ndetail;	/* the families' sizes (the largest
					   over the kernels) */
	int *fsize;			/* per kernel k: fsize[4 k + f] */
	double alpha_head, alpha_key;	/* the default view's tiers */
	double *s0sq, *d0;		/* per kernel: the prior (rv_fit_prior),
					   d0 capped by neff */
	double *neff;			/* per kernel: the independent
					   figures the prior stands on
					   (INFINITY: not measured) */
	int runs_min, runs_max;		/* runs a side over the kernels */
	int nhidden;			/* --detail stars the default view
					   does not show */
	void *arena;			/* the rows' arrays (model.c) */
	struct rv_memo memo;		/* the verdicts' planning sums */
};

/*
 * The model of the folders @s (indexed); model_free() frees it.  alpha
 * 0.05 and detail 0 until the caller sets them, before the first
 * model_rows().
 */
void model_init(struct model *m, const struct rl_set *s, double min_change);
void model_free(struct model *m);
/*
 * Every metric of @id (union over kernels, baseline order first), with
 * its statistics.  Computed once and kept in @m (freed by model_free()).
 */
int model_rows(const struct model *m, const char *id,
    struct model_row **rows);
/*
 * The run means of @metric of @id of kernel @k into *@out (allocated,
 * the caller frees): a folder of make ab's gives its iterations (each
 * a separate run), any other its runs' means (a one-run folder: one).
 * Returns how many.
 */
int model_run_means(const struct rl_kernel *k, const char *id,
    const char *metric, double **out);
/*
 * Compute every id's rows, the families and the figures above (done by
 * the first model_rows() too).
 */
void model_ready(const struct model *m);
/*
 * The verdicts of kernel @k (>= 1) on @r by view, whatever --detail:
 * @detail 0 the default view's (vk, its tier: the headlines' Holm or
 * the others' Benjamini-Hochberg), NULL when the default view tests
 * no such figure (the load's); @detail 1 --detail's (vd).
 */
const struct rv_verdict *model_verdict_of(const struct model *m,
    const struct model_row *r, int k, int detail);
/*
 * The verdict of kernel @k (>= 1) on @r the report shows, and its
 * family in *@fam (may be NULL): with --detail the detail family's,
 * else a key row's Holm verdict and another row's detail verdict.
 */
const struct rv_verdict *model_verdict(const struct model *m,
    const struct model_row *r, int k, enum model_family *fam);
/*
 * "holm-headline", "bh-secondary", "bh-detail" or "none" (CSV, JSON;
 * "holm-key" for the key family of the legacy model).
 */
const char *model_family_name(const struct model *m, enum model_family f);
/* The size of family @f of kernel @k; @k < 1: the largest. */
int model_family_size(const struct model *m, enum model_family f, int k);
/* The level the stars of family @f are at. */
double model_family_alpha(const struct model *m, enum model_family f);

/* Index of @id's headline row (else elapsed), or -1. */
int model_headline(const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows);
/* Index of the row of metric @name, or -1. */
int model_find_row(const struct model_row *rows, int n, const char *name);

/* Zero in every run of every kernel that measured it (and one did). */
int model_all_zero(const struct model_row *r, int nk);
/* No kernel measured it (a counter this kernel or cgroup lacks). */
int model_unmeasured(const struct model_row *r, int nk);
/* Worth a line: not zero in every run, measured somewhere. */
int model_row_shown(const struct model_row *r, int nk);
/* The CoV of @d, infinite for a mean of 0 with spread. */
double model_cov(const struct rs_desc *d);
/*
 * Is @d noisy: CoV above @thr, or a mean of 0 with spread (its CoV is
 * infinite: never called steady)?  Needs two runs.
 */
int model_noisy(const struct rs_desc *d, double thr);
/* The largest CoV of any kernel with two runs (its index in *@who). */
double model_max_cov(const struct model_row *r, int nk, int *who);
/* Has some kernel a CoV of @r (two runs, a mean not 0 or spread)? */
int model_has_cov(const struct model_row *r, int nk);
/* Is some kernel's CoV of @r above @noisy? */
int model_row_noisy(const struct model_row *r, int nk, double noisy);
/*
 * The fewest runs of any kernel for @r: 0 when a kernel has none (a
 * benchmark or metric missing from its folder), so no change is
 * detectable.
 */
int model_min_n(const struct model_row *r, int nk);
/* Decimals for a row: about five significant digits, at most four. */
int model_decimals(const struct model_row *r, int nk);

enum model_scope model_scope_of(const char *metric);
/* "benchmark", "system" or "cgroup" (CSV and JSON). */
const char *model_scope_name(enum model_scope sc);
/* The table's tag: "", "[system]" or "[cgroup]". */
const char *model_scope_tag(enum model_scope sc);

/* The first folder's result of @id, or NULL when none has it. */
const struct vb_res *model_any(const struct rl_set *s, const char *id);
/* Mean of metric @name over the runs of @r; NAN when absent. */
double model_mean(const struct vb_res *r, const char *name);
/* The benchmark of @id (what precedes its first '@') into @buf. */
const char *model_bench_of(const char *id, char *buf, size_t len);
/* The variant of @id, after its '@'; "default" when it has none. */
const char *model_variant_of(const char *id);

/* A time-like metric: a time unit (s, ms, us, ns), lower is better. */
int model_time_like(const struct model_row *r);
/*
 * The summary's geometric mean of kernel @k's (>= 1) time-like ratios
 * to the baseline over every id of @m, runs as the unit (rs_georun):
 * g->k metrics used (0: none, g->g NAN), no interval with one run a
 * side.  The caller frees @g with rs_georun_free().
 */
void model_geo(const struct model *m, int k, struct rs_georun *g);

#endif
