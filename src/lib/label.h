/*
 * label.h - a result label: the one rule for its name and the one lock
 * that keeps two runs out of it, for every program that writes a label
 * (vmrun, vmboots).
 *
 * A label becomes a folder name, RESULTS/LABEL: letters, digits and
 * . _ + - ~, at most VB_LABEL_MAX bytes, never starting with a dot
 * (hidden, and the locks' own .LABEL.lock beside the folders).
 *
 * One run of a label at a time: an exclusive flock(2) on
 * RESULTS/.LABEL.lock, held to the run's end, with the holder's pid in
 * it (a courtesy to the run refused: the lock is the flock).  The file
 * is opened with O_NOFOLLOW and must be a plain file of this user with
 * one link: a symlink or another user's file planted there in a shared
 * results folder is refused, never written through.  A run that finds
 * the file removed between its open() and its flock() (the clean-up of
 * a killed run) takes it again.
 */
#ifndef VB_LABEL_H
#define VB_LABEL_H

#include <limits.h>
#include <stddef.h>

#define VB_LABEL_MAX 128

/* What a good label is, for the one line that refuses a bad one. */
#define VB_LABEL_RULE "use letters, digits and . _ + - ~ (no slashes, " \
	"not starting with a dot, at most 128)"

/* Is @s a good label (above)?  1 or 0. */
int vb_label_ok(const char *s);

struct vb_label_lock {
	char path[PATH_MAX + 16];	/* RESULTS/.LABEL.lock */
	int fd;				/* held, else -1 */
};

/*
 * Take the lock of @label in @results into @l.  0, or -1 with one line
 * in @err: "RESULTS/LABEL is in use by another run (pid 4242)", "PATH:
 * not a lock file of this user (a symlink): remove it", "cannot create
 * PATH: ...".
 */
int vb_label_lock(struct vb_label_lock *l, const char *results,
    const char *label, char *err, size_t errlen);
/* Remove the file and give the lock up; idempotent (fd -1: nothing). */
void vb_label_unlock(struct vb_label_lock *l);
/*
 * A lock file @path left by a run that was killed: removed when it is a
 * plain file of this user, named .LABEL.lock, that no run holds.  1 when
 * removed, else 0.
 */
int vb_label_lock_clean(const char *path);

#endif
