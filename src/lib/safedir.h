/*
 * safedir.h - the one way vmbench touches the folders it writes into.
 * vmbench runs as root, so a folder another user can change (its own
 * folder under /tmp, RESULTS= or PLOTS= on a shared 1777 folder) could
 * turn a write, a delete or a script gnuplot loads into one of that
 * user's choosing.  A folder is therefore opened once and checked, the
 * rule sudo and OpenSSH's StrictModes apply: every folder on its path
 * owned by root or this user (or by the user who ran sudo) and writable
 * by no one else unless sticky, the folder itself this user's and
 * writable by no one else, no symlink but those root or this user
 * made.  Files are then made relative to its descriptor, never through
 * a symlink, trees removed through folder descriptors, and only
 * regular files of a bounded size read.  Shared by the runner, boots,
 * the report and its views.
 */
#ifndef VB_SAFEDIR_H
#define VB_SAFEDIR_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Open the folder @path (made, with its missing parents, mode 0755,
 * when @make) after walking it from / a component at a time with
 * O_NOFOLLOW and checking each as above.  An O_DIRECTORY descriptor,
 * or -1 with one line in @err naming the folder, its owner and its
 * mode: "refusing folder /tmp/x: owned by uid 65534, not by uid 0".
 */
int vb_dir_open(const char *path, int make, char *err, size_t errlen);
/*
 * The same for a folder whose children may be made by others but never
 * renamed away (a sticky /tmp as the parent of a temporary folder):
 * the last component may be writable by others when it is sticky.
 */
int vb_dir_open_parent(const char *path, char *err, size_t errlen);
/*
 * The folder @name in @dfd (@shown: its path, for messages), made with
 * mode 0755 when @make and missing; it must be a folder (not a symlink)
 * of this user that no one else may write.  A descriptor, or -1 with
 * one line in @err ("refusing folder ...", or errno's text).
 */
int vb_dir_sub(int dfd, const char *name, const char *shown, int make,
    char *err, size_t errlen);
/*
 * Is the folder @fd (@shown) one this user may write into: a folder of
 * this user that no one else may write?  0, or -1 with one line in @err.
 */
int vb_dir_check_fd(int fd, const char *shown, char *err, size_t errlen);

/*
 * A new file @name in @dfd, opened with @flags | O_CREAT | O_EXCL |
 * O_NOFOLLOW | O_CLOEXEC; what was at @name (a file or a symlink: the
 * name, never what it points to) unlinked first.  The fd, or -1.
 */
int vb_create_at(int dfd, const char *name, int flags, mode_t mode);

/*
 * A file written whole or not at all: a temporary ".NAME.XXXXXX" made
 * in @dfd with O_EXCL, renamed over @name by vb_wfile_commit().
 */
struct vb_wfile {
	int dfd;
	FILE *f;
	char name[256], tmp[280];
};
FILE *vb_wfile_open(struct vb_wfile *w, int dfd, const char *name,
    mode_t mode);
/* Close and rename into place: 0, or -1 (errno; the temporary removed). */
int vb_wfile_commit(struct vb_wfile *w);
/* Close and remove the temporary. */
void vb_wfile_abort(struct vb_wfile *w);

/*
 * Remove @name in @dfd and everything below it, through folder
 * descriptors: each folder opened with O_NOFOLLOW, each entry removed
 * with unlinkat() by name in its folder, so that no path is resolved
 * twice and no symlink is followed.  0, or -1 with errno of the first
 * failure (it goes on with the rest).
 */
int vb_rmtree_at(int dfd, const char *name);

/*
 * Open @name in @dfd (AT_FDCWD: a path) for reading, only as a regular
 * file of at most @max bytes: O_NOFOLLOW | O_NONBLOCK (a FIFO, a
 * device or a symlink is refused, never waited on), then fstat.  The
 * fd (blocking again), or -1 with one line in @err naming @shown.
 */
int vb_open_read_at(int dfd, const char *name, const char *shown,
    size_t max, char *err, size_t errlen);
/* As vb_open_read_at(), as a stdio stream ("re"). */
FILE *vb_fopen_read(const char *path, size_t max, char *err, size_t errlen);

/* Sizes the readers allow: a meta, a .res, a .vmstat or log. */
#define VB_MAX_META	(1u << 20)
#define VB_MAX_RES	(64u << 20)
#define VB_MAX_SERIES	(256u << 20)

#endif
