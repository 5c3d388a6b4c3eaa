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

#endif
