/*
 * rusage.h - CPU time, faults, switches, I/O and peak memory of one
 * iteration's whole process tree.
 *
 * The harness forks one child per iteration and reaps it with wait4(),
 * which returns that child's own usage plus that of every descendant it
 * waited for (the kernel folds a reaped child's usage into its parent's
 * RUSAGE_CHILDREN, and wait4() reports self + children of the reaped
 * process).  So each figure covers exactly the iteration's tree:
 *
 *	user, sys	CPU time in user and kernel mode (s)
 *	minflt, majflt	page faults served without / with I/O
 *	nvcsw, nivcsw	voluntary (blocked) / involuntary (preempted)
 *			context switches
 *	inblock, oublock  512-byte blocks read from / written to storage
 *			(what the filesystem submitted, not page-cache hits)
 *	maxrss		largest resident set of any single process of the
 *			tree (kB); a maximum, never a sum
 *
 * Descendants that were never reaped (double-forked daemons) are not
 * counted.  RUSAGE_CHILDREN differences are not used: its maxrss only
 * ever grows and a fork child's maxrss starts at its parent's.
 */
#ifndef VB_RUSAGE_H
#define VB_RUSAGE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/resource.h>

struct vb_rusage {
	double elapsed;		/* s, CLOCK_MONOTONIC, set by the caller */
	double user, sys;	/* s */
	long minflt, majflt;
	long nvcsw, nivcsw;
	long inblock, oublock;
	long maxrss;		/* kB */
};

/* Convert a struct rusage (from wait4()) and an elapsed time. */
void vb_rusage_from(struct vb_rusage *out, const struct rusage *ru,
    double elapsed);
/*
 * @b - @a for the cumulative figures; maxrss is taken from @b (it is a
 * peak, not a counter).  For RUSAGE_SELF deltas within one process.
 */
void vb_rusage_diff(struct vb_rusage *out, const struct vb_rusage *b,
    const struct vb_rusage *a);
/* (user + sys) / elapsed * 100; 0 when elapsed is 0. */
double vb_rusage_cpu_pct(const struct vb_rusage *u);
/*
 * tcsh's time(1) line, as the old posts quote it:
 *	1145.450u 74.290s 20:58.40 96.9%	0+0k 0+0io 1270393pf+0w
 * (avg shared+unshared text "0+0k", blocks in+out "io", major faults
 * "pf" and swaps "w", which Linux does not count and prints as 0).
 */
char *vb_rusage_tcsh(char *buf, size_t len, const struct vb_rusage *u);
/* GNU `/usr/bin/time -v` style lines ("\tUser time (seconds): 1.23"). */
void vb_rusage_print_verbose(FILE *f, const struct vb_rusage *u);

#endif
