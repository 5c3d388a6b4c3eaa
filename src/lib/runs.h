/*
 * runs.h - the result folder's one contract between the programs that
 * write it (vmrun, vmboots) and the report: the runs of a label.
 *
 *	RESULTS/LABEL/runN/   one run each: meta, *.res, *.vmstat, *.log
 *
 * N counts from 1, in decimal, with no leading zero and nothing after
 * it: "run1", "run12"; "run0", "run007", "run1x", "run" are not runs
 * (and at most VB_RUN_MAX).  A label that holds a run at its top (a meta
 * there: a "flat" label, written before labels held runs) is one run;
 * vmrun moves it into run1/ before its own, vmboots refuses it.
 */
#ifndef VB_RUNS_H
#define VB_RUNS_H

#include <stddef.h>

#define VB_RUN_MAX	999999

/* N of a folder named "runN" (the rule above), else 0. */
int vb_run_index(const char *name);
/* "runN" into @buf (at least 16 bytes); @buf. */
char *vb_run_name(char *buf, size_t len, int n);
/* "DIR/runN" into @buf; @buf. */
char *vb_run_path(char *buf, size_t len, const char *dir, int n);
/* Is @name, at a label's top, the meta of a flat label's one run? */
int vb_run_flat_entry(const char *name);

/* What a label folder holds (vb_runs_scan()). */
struct vb_runs {
	int flat;		/* a meta at its top: one run there */
	int loose;		/* a .res at its top (a run's file) */
	int top;		/* the highest N of any runN entry */
	int last;		/* the highest N of a runN/ folder with files */
	int empty;		/* the highest N of an empty runN/ folder */
	char other[256];	/* the first entry that is none of these */
};

/*
 * Read the label folder @dir into @r (a missing @dir: all zero).  A
 * runN that is not a folder (lstat: a symlink is not) counts in top
 * only, and as other.  0, or -1 with errno (it could not be read).
 */
int vb_runs_scan(const char *dir, struct vb_runs *r);
/*
 * The index the next run of the label folder @dir takes: 1 when it
 * does not exist, else one past its highest runN.  A flat label (or a
 * .res at its top) is refused: "DIR holds a single run (make run wrote
 * it), not runs: choose another label".  0, or -1 with one line in @err.
 */
int vb_runs_next(const char *dir, int *next, char *err, size_t errlen);

#endif
