/*
 * setup.h - what the figures rest on (setup.c): the settings that
 * differ between the folders, which machine each ran on, and how quiet
 * the machine was during each run, as blocks the views print.  Below
 * it: model, rload, rstats, fmt and the options.
 */
#ifndef VB_SETUP_H
#define VB_SETUP_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "res.h"
#include "rload.h"

/*
 * The settings block at the top of every text view: the keys of
 * rl_meta_diffs() with each folder's value, or one line saying they
 * are the same (nothing with a single folder); then the machines, and
 * the accelerator's warning (setup_accel()).
 */
void setup_settings(FILE *f, const struct rl_set *s, int width);
/*
 * The same as one line for chart titles, cut to @len; the
 * accelerator's warning first.
 */
char *setup_settings_line(char *buf, size_t len, const struct rl_set *s);
/*
 * "emulated (TCG): compare only with other TCG runs" when some folder
 * ran in an emulated guest (meta accel=tcg, make boots); NULL when none
 * did.
 */
const char *setup_accel(const struct rl_set *s);
/*
 * Folder @k's value of setting @d as the settings block shows it (for
 * cmdline: only the words not in every folder); allocated, NULL when
 * not recorded.
 */
char *setup_setting_value(const struct rl_set *s, const struct rl_mdiff *d,
    int k);

/*
 * The machines the folders ran on: the same host name, CPU model and
 * count, and MemTotal within 2%.  Machines are numbered in the order
 * of their first folder.
 */
struct setup_machines {
	int n;				/* distinct machines */
	int *of;			/* per folder: its machine */
	int *first;			/* per machine: its first folder */
};
void setup_machines_of(const struct rl_set *s, struct setup_machines *m);
void setup_machines_free(struct setup_machines *m);
/* "vm, AMD EPYC x 2, 23.5 GiB RAM" for folder @k. */
char *setup_machine_name(char *buf, size_t len, const struct rl_kernel *k);
/*
 * With folders from more than one machine: one line per machine with
 * its folders, then one warning line (part of setup_settings()).
 */
void setup_machines(FILE *f, const struct rl_set *s, int width);

/*
 * How busy the machine was with other work during one result: the CPU
 * other processes used, and the memory they held (foreign_mem_kb of
 * MemTotal at each iteration's start, src/lib/scope.h).
 */
struct setup_quiet {
	int n;				/* iterations with foreign_cpu */
	double mean, max;		/* foreign_cpu, % of one CPU */
	int quiet;			/* 1, 0 (mean above), -1 not recorded */
	int mem_n;			/* iterations with foreign_mem_kb */
	double mem_mean, mem_max;	/* foreign memory, % of MemTotal */
	double mem_kb;			/* its mean, kB */
	double avail_min_kb;		/* lowest MemAvailable seen, kB */
	int mem_quiet;			/* 1, 0 (mean above), -1 not recorded */
};
/* @threshold: % of a CPU; the memory's: setup_mem_of(). */
/*
 * The default memory threshold, % of MemTotal (--mem-threshold): an
 * idle server's kernel and daemons hold a few % (3-4% on a 24 GiB VM),
 * a small VM's up to about 15%; a quarter of the memory held by others
 * changes what a benchmark sized from memory gets and when reclaim
 * starts (docs/report.md).
 */
#define SETUP_MEM_THRESHOLD 25
void setup_quiet_of(const struct vb_res *r, double threshold,
    struct setup_quiet *q);
/* setup_quiet_of() and the memory figures against @mem_threshold %. */
void setup_mem_of(const struct vb_res *r, const struct report_opts *o,
    struct setup_quiet *q);
/*
 * Did other processes move the machine-wide counter @metric of @r
 * (a [system] figure)?  Yes when it is not zero and the run was not
 * quiet at @threshold % of a CPU, or when the run's own memory cgroup
 * counted less of it (cg_@metric, MEM=).
 */
int setup_others_moved(const struct vb_res *r, const char *metric,
    double threshold);
/*
 * The machine-wide counters among @rows (struct model_row) that other
 * processes moved too (setup_others_moved()), in one line under a
 * table, with the kernels where they did when not every kernel's:
 * "[system] counters other processes moved too: pswpout, pgfault (b)".
 * Not the load's own figures (foreign_cpu, runq, the memory's): they
 * are the others' by design.
 */
struct model_row;
void setup_others_note(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o);
/*
 * One warning line per kernel whose run of @id was not quiet, and one
 * per kernel whose other processes held more than o->mem_quiet % of
 * the memory.
 */
int setup_quiet_warn(FILE *f, const struct rl_set *s, const char *id,
    const struct report_opts *o);
/*
 * The default view's one line on the memory others held during @id,
 * above the threshold ("! memory held by others ..."); nothing when
 * below or not recorded.
 */
void setup_mem_line(FILE *f, const struct rl_set *s, const char *id,
    const struct report_opts *o);
/*
 * One line over every benchmark and kernel (top of text and post),
 * then one on the memory others held, when some folder recorded it.
 */
void setup_quiet_summary(FILE *f, const struct rl_set *s,
    const struct report_opts *o);
/*
 * Was every benchmark run that recorded the other processes' CPU not
 * quiet?  Then one warning line on @f with the range of the runs'
 * means, @more in its parentheses (where each run is), the memory line
 * of setup_quiet_summary(), and 1; otherwise nothing and 0.
 */
int setup_all_loaded(FILE *f, const struct rl_set *s,
    const struct report_opts *o, const char *more);
/*
 * Were some, not all, of those runs not quiet?  Then one warning line
 * with the range of their means, @more, and the benchmarks they were,
 * the memory line, and 1 (the default view's, in place of a line a
 * benchmark); otherwise nothing and 0.
 */
int setup_some_loaded(FILE *f, const struct rl_set *s,
    const struct report_opts *o, const char *more);

/*
 * The loud runs of each folder, one line when some run was loud: "aa1:
 * 3 of 3 runs loud, 146-174% of a CPU; aa3: 1 of 3, 95% (loud: ...)".
 * A run's load is the mean foreign_cpu over all its iterations of
 * every benchmark in it (a side of make ab's: each iteration a run).
 */
void setup_loud_runs(FILE *f, const struct rl_set *s,
    const struct report_opts *o);
/*
 * One warning a kernel whose runs of some benchmark ran under another
 * load than the baseline's (model_load_cmp()): the sides' run loads
 * and the benchmarks, whose figures the load moves read can't tell.
 * Returns how many lines.
 */
struct model;
int setup_load_differs(FILE *f, const struct model *m,
    const struct report_opts *o);
/*
 * --detail: each run's load of @id in every folder (CPU; memory when
 * some run's others held more than the threshold), and a line a
 * kernel whose sides differ.
 */
void setup_run_load_lines(FILE *f, const struct model *m, const char *id,
    const struct report_opts *o);

#endif
