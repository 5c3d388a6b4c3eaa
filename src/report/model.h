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
	struct rs_desc *d;		/* nk; n == 0: missing */
	struct rs_cmp *c;		/* nk; c[0] unused */
};

/* The folders and their statistics: what every view reads. */
struct model {
	const struct rl_set *s;		/* the folders, indexed (rl_index()) */
	double min_change;		/* %: smaller changes are never marked */
	struct model_row **rows;	/* per id of s: model_rows()'s, */
	int *nrows;			/* computed at the first call */
};

/* The model of the folders @s (indexed); model_free() frees it. */
void model_init(struct model *m, const struct rl_set *s, double min_change);
void model_free(struct model *m);
/*
 * Every metric of @id (union over kernels, baseline order first), with
 * its statistics.  Computed once and kept in @m (freed by model_free()).
 */
int model_rows(const struct model *m, const char *id,
    struct model_row **rows);
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

#endif
