/*
 * swapfile.h - a swap file for one run (SWAP=1G): created in the work
 * folder, switched on, and switched off and removed afterwards.
 *
 * The file is allocated with fallocate() (written with zeroes where the
 * filesystem cannot preallocate), given a version-1 swap header (the
 * format mkswap writes: version, last page and "SWAPSPACE2" at the end
 * of the first page) and enabled with swapon().  A filesystem that
 * cannot hold swap (tmpfs, copy-on-write files, NFS without swap
 * support) makes swapon() fail: that is reported in one line and the
 * file is removed before anything runs.
 *
 * The file is made with O_EXCL | O_NOFOLLOW and kept open; swapon() and
 * swapoff() name it as /proc/self/fd/N, so a work folder that others
 * may write cannot swap another file in under its name.
 */
#ifndef VB_SWAPFILE_H
#define VB_SWAPFILE_H

#include <stddef.h>
#include <stdint.h>

struct vb_swapfile {
	char path[4096];
	uint64_t size;		/* bytes */
	int created;		/* the file exists */
	int active;		/* swapon() succeeded */
	int fd;			/* open while created: swapon, swapoff by it */
	unsigned long long dev, ino;	/* its identity, for the state file */
};

/*
 * Create and enable a swap file of @size bytes in @dir.  0, or -1 with a
 * one-line message in @err (the file is removed again).
 */
int vb_swapfile_create(struct vb_swapfile *s, const char *dir,
    uint64_t size, char *err, size_t errlen);
/*
 * Write the swap header for @size bytes to the open file @fd.  0 or -1
 * (errno).  Separate so tests can check it without root.
 */
int vb_swapfile_header(int fd, uint64_t size, size_t page);
/* swapoff() and unlink(); idempotent.  -1 with a message on failure. */
int vb_swapfile_remove(struct vb_swapfile *s, char *err, size_t errlen);
/*
 * After a run killed with SIGKILL (its state file): switch off and
 * remove its swap file @path, only if it is the file that run made:
 * named vmbench-swap.@pid, a regular file of this user with one link,
 * of device @dev, inode @ino and @size bytes.  1 when removed, 0 when
 * it is no longer there, -1 with one line in @err (refused, or it
 * cannot be switched off).
 */
int vb_swapfile_reclaim(const char *path, long pid, unsigned long long dev,
    unsigned long long ino, uint64_t size, char *err, size_t errlen);

#endif
