/*
 * state.h - what a run has changed on the machine, in a small file
 * (vmrun.<pid>.state) in a folder only its user can write, so that a run
 * killed with SIGKILL can be cleaned up by the next one; and the
 * machine-wide lock that lets one run at a time change the machine.
 *
 * The folder is <root>/run/vmbench (root: $VMBENCH_SYSROOT, the fake
 * tree of the tests, else ""), made 0755 by root and checked each time
 * (lstat: a folder, not a symlink, owned by the user, writable by no
 * one else).  A user other than root without $VMBENCH_SYSROOT cannot
 * change the machine; its runs keep their state in
 * $XDG_RUNTIME_DIR/vmbench, else /tmp/vmbench-<uid>, checked alike.
 *
 *	vmbench-state 1
 *	pid 4242
 *	start 123456            the owner's start time (/proc/PID/stat)
 *	results /abs/results/x-A        a result folder being written
 *	lock /abs/results/.x-A.lock     its label's lock file
 *	cgroup 1 /sys/fs/cgroup/memory/.../vmbench.4242
 *	swapfile /work/main/work/vmbench-swap.4242
 *	swapid 2049 1234567 268435456   its device, inode and size
 *	knob /proc/sys/vm/swappiness 60
 *
 * Values are %-escaped (%25, %09, %0a, %20 ...), one item a line.  The
 * file is rewritten atomically whenever the run changes something more,
 * before it changes it, and removed at the end of every path but
 * SIGKILL.  vb_state_recover() finds files whose owner is gone and
 * undoes what they name: knobs written back, the cgroup's processes
 * killed and the cgroup removed, the swap file switched off and
 * removed, a result folder whose meta still says running marked
 * interrupted (and its results still saying running), and the
 * owner's (and its benchmarks') leftover work folders and label lock
 * files removed.
 *
 * A state file is trusted only when it is a regular file of the user
 * recovering, with one link, that no one else may write, and its every
 * item passes: a knob a file A= and B= may name (knob.h), a cgroup
 * vmbench.<pid> on a cgroup filesystem, a swap file vmbench-swap.<pid>
 * whose device, inode and size are those recorded.  Any other is
 * ignored (said in one line); one with an item that does not pass is
 * left as it is and the recovery fails, naming it.  State files of
 * older versions, in the work folder, are recovered on the same terms.
 */
#ifndef VB_STATE_H
#define VB_STATE_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct vb_knobs;

struct vb_state {
	char path[4096];		/* "" when not in use */
	char cgroup[4096];
	int cgroup_v;
	char swapfile[4096];
	unsigned long long swap_dev, swap_ino;
	uint64_t swap_size;
	char results[2][PATH_MAX];
	char locks[2][PATH_MAX + 16];	/* the label locks (label.h) */
	const struct vb_knobs *knobs;
};

/*
 * The folder of this user's state files (made, checked) into @dir.
 * 0, or -1 with one line in @err.
 */
int vb_state_dir(char *dir, size_t len, char *err, size_t errlen);
/* Start the state file of this process in @dir; 0 or -1 (errno). */
int vb_state_begin(struct vb_state *st, const char *dir);
/* Rewrite it with what @st names now; 0 or -1 (errno). */
int vb_state_save(const struct vb_state *st);
/* Remove it (the run undid everything itself). */
void vb_state_end(struct vb_state *st);
/*
 * Clean up after every run whose owner is gone: the state files in @dir
 * and (older versions) @workdir, work folders in @workdir, label lock
 * files (.LABEL.lock) in @results (NULL: none) and beside each result
 * folder a state file names.  With @machine (the caller holds the
 * machine lock) what a run changed on the machine is undone; without
 * it, a state file that names such changes is left for a run that
 * holds the lock.  Each run cleaned is said in one line on stderr,
 * naming what was done ("marked results/x/run2 interrupted, removed
 * its lock file results/.x.lock"), and "left the machine changed" only
 * when a setting, a cgroup or a swap file was undone.
 * The number of runs cleaned (0: nothing was left), or -1 when
 * something could not be undone (said too).
 */
int vb_state_recover(const char *dir, const char *workdir,
    const char *results, int machine);
/*
 * Live runs other than this one whose state files are in @dir, as
 * "pid 4242 (results/x)" items, "; "-separated, into @buf ("" when
 * none).
 */
char *vb_state_others(const char *dir, char *buf, size_t len);

/*
 * The machine-wide lock: one run at a time changes settings, cgroups
 * or swap.  An flock(2) on <dir>/lock held for the run's life, where
 * <dir> is the folder of vb_state_dir() for root, and a record,
 * <dir>/machine (readable by all), of who holds it and how many runs
 * have taken it, so that a run that changes nothing can tell that one
 * that does ran beside it.
 */
struct vb_machine {
	int fd;				/* the lock while held, else -1 */
	char dir[4096];
	unsigned long long gen;		/* runs that took the lock so far;
					   0: held without a record */
	long pid;			/* the live holder, 0 if none */
	char what[1024];		/* what it changes (the last one's) */
};

/*
 * Shared by state.c and mlock.c: is @pid alive and started at @start
 * (vb_pid_start(), its start time in /proc/PID/stat; 0 when gone)?
 * A value written as one escaped line (\\ and \\n) and read back.
 */
unsigned long long vb_pid_start(long pid);
int vb_pid_alive(long pid, unsigned long long start);
void vb_put_esc(FILE *f, const char *s);
void vb_unesc(char *s);

/*
 * The folder of the machine lock and record: <root>/run/vmbench,
 * whoever asks.
 */
char *vb_machine_dir(char *dir, size_t len);
/*
 * Take the lock in @dir (made and checked as by vb_state_dir()) for a
 * run that changes @what (NULL: only to clean up after killed runs; the
 * record is left as it is).  Held: with @wait, wait for it, saying for
 * whom in one line on stderr (a signal, *@stop set, ends the wait: -1,
 * errno EINTR); without, return 1.  0 once taken, or -1 with one line
 * in @err.
 */
int vb_machine_lock(struct vb_machine *m, const char *dir, const char *what,
    int wait, volatile sig_atomic_t *stop, char *err, size_t errlen);
/* Give it up (the record keeps what the run changed); idempotent. */
void vb_machine_unlock(struct vb_machine *m);
/*
 * The record in @dir into @m (fd -1): 0, or -1 when there is none or it
 * is not trusted (not root's or this user's, or writable by others).
 */
int vb_machine_peek(const char *dir, struct vb_machine *m);

#endif
