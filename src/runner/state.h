/*
 * state.h - what a run has changed on the machine, in a small file in
 * the work folder (vmrun.<pid>.state), so that a run killed with
 * SIGKILL can be cleaned up by the next one.
 *
 *	vmbench-state 1
 *	pid 4242
 *	start 123456            the owner's start time (/proc/PID/stat)
 *	results results/x-A     a result folder being written
 *	cgroup 1 /sys/fs/cgroup/memory/.../vmbench.4242
 *	swapfile /work/main/work/vmbench-swap.4242
 *	knob /proc/sys/vm/swappiness 60
 *
 * Values are %-escaped (%25, %09, %0a, %20 ...), one item a line.  The
 * file is rewritten atomically whenever the run changes something more,
 * before it changes it, and removed at the end of every path but
 * SIGKILL.  vb_state_recover() finds files whose owner is gone and
 * undoes what they name: knobs written back, the cgroup's processes
 * killed and the cgroup removed, the swap file switched off and
 * removed, a result folder whose meta still says running marked
 * interrupted, and the owner's (and its benchmarks') leftover work
 * folders removed.
 */
#ifndef VB_STATE_H
#define VB_STATE_H

#include <limits.h>
#include <stddef.h>

struct vb_knobs;

struct vb_state {
	char path[4096];		/* "" when not in use */
	char cgroup[4096];
	int cgroup_v;
	char swapfile[4096];
	char results[2][PATH_MAX];
	const struct vb_knobs *knobs;
};

/* Start the state file of this process in @workdir; 0 or -1 (errno). */
int vb_state_begin(struct vb_state *st, const char *workdir);
/* Rewrite it with what @st names now; 0 or -1 (errno). */
int vb_state_save(const struct vb_state *st);
/* Remove it (the run undid everything itself). */
void vb_state_end(struct vb_state *st);
/*
 * Clean up after every run in @workdir whose owner is gone.  Each one
 * cleaned is said in one line on stderr.  The number of runs cleaned
 * (0: nothing was left), or -1 when something could not be undone
 * (said too).
 */
int vb_state_recover(const char *workdir);

#endif
