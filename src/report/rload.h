/*
 * rload.h - reading result folders (rload.c): each folder's meta and
 * <bench>[@variant].res files, the union of their ids, and the queries
 * every other report module asks of them.  The bottom layer of the
 * report (docs/architecture.md): it includes nothing above it.
 *
 * The report only reads result folders; it never runs a benchmark and
 * never writes into a result folder.
 */
#ifndef VB_RLOAD_H
#define VB_RLOAD_H

#include <stddef.h>

#include "meta.h"
#include "res.h"
#include "util.h"

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
 * The same, @col the column of @metric in rl_find(@k, @id) when the
 * caller knows it (a hint, checked; -1: not known).
 */
int rl_run_means_col(const struct rl_kernel *k, const char *id,
    const char *metric, int col, double *out);
/*
 * Where iteration @i (0-based) of rl_find(@k, @id)'s pool comes from:
 * its run's index (runN) into *@run and its iteration there (1-based)
 * into *@iter.  0, or -1 when the pool has no such iteration.
 */
int rl_iter_origin(const struct rl_kernel *k, const char *id, int i,
    int *run, int *iter);
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
 * memory limit's and swap file's run figures, ab_side, ab_pair, the
 * runs' run, runs, boots, boot_id, uptime_start, unit, and vmboots'
 * timings of a boot, boot_to_suite_s, suite_s, shutdown_s) are
 * skipped, and config_cksum when config differs too.  Returns the
 * count, *@out allocated (rl_free_mdiffs()).
 */
int rl_meta_diffs(const struct rl_set *s, struct rl_mdiff **out);
void rl_free_mdiffs(struct rl_mdiff *d, int n);

#endif
