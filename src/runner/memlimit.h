/*
 * memlimit.h - running benchmarks inside a memory limit: a memory cgroup,
 * the modern stand-in for booting with mem=256m.
 *
 * cgroup v2 is used when its memory controller is available (memory.max,
 * memory.swap.max), else cgroup v1 (memory.limit_in_bytes and, when a
 * swap limit is asked for and the kernel accounts swap,
 * memory.memsw.limit_in_bytes = limit + swap).  The cgroup is created
 * beside the caller's own (a child of its cgroup), named
 * vmbench.<pid>; the runner moves each benchmark into it between fork()
 * and exec() and removes it at the end, on error and on a signal.
 *
 * Every failure is one line in @err, before anything has run: not root,
 * no memory controller, a limit the kernel refuses.
 */
#ifndef VB_MEMLIMIT_H
#define VB_MEMLIMIT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define VB_MEMLIMIT_NOSWAP UINT64_MAX	/* no swap limit asked for */

struct vb_memlimit {
	int version;		/* 1 or 2; 0 when not created */
	char path[4096];	/* the cgroup's folder */
	uint64_t limit;		/* bytes of memory */
	uint64_t swap;		/* bytes of swap, or VB_MEMLIMIT_NOSWAP */
	int swap_limited;	/* the kernel enforces @swap */
};

/*
 * Create the cgroup with @limit bytes of memory and, unless @swap is
 * VB_MEMLIMIT_NOSWAP, at most @swap bytes of swap.  0, or -1 with a
 * one-line message in @err (nothing is left behind).
 */
int vb_memlimit_create(struct vb_memlimit *m, uint64_t limit, uint64_t swap,
    char *err, size_t errlen);
/*
 * Make the cgroup's own copies of global settings equal to them (v1:
 * memory.swappiness from vm.swappiness).  Called by create and after a
 * run changes a setting.  0, or -1 (errno).
 */
int vb_memlimit_sync(const struct vb_memlimit *m);
/* The first line of the cgroup's file @file into @val; 0 or -1. */
int vb_memlimit_read(const struct vb_memlimit *m, const char *file,
    char *val, size_t len);
/*
 * Move process @pid (0: the caller) into the cgroup.  Only open(),
 * write() and close(): safe between fork() and exec().  0 or -1 (errno).
 */
int vb_memlimit_enter(const struct vb_memlimit *m, pid_t pid);
/*
 * The cgroup's peak usage (bytes) and how often the limit was hit
 * (v1 failcnt, v2 memory.events "max"); -1 when unreadable.
 */
int vb_memlimit_peak(const struct vb_memlimit *m, uint64_t *peak,
    uint64_t *hits);
/*
 * Kill whatever is still inside and remove the cgroup.  Idempotent: 0
 * when there is nothing to remove.  -1 with a message when the folder
 * cannot be removed within a few seconds.
 */
int vb_memlimit_remove(struct vb_memlimit *m, char *err, size_t errlen);
/*
 * Is @path a cgroup the run with pid @pid made (a state file's): a
 * folder vmbench.@pid of a cgroup v@version filesystem, reached without
 * a symlink?  0, or -1 with one line in @err.
 */
int vb_memlimit_owned(const char *path, int version, long pid, char *err,
    size_t errlen);
/* "cgroup v1 /sys/fs/cgroup/memory/x/vmbench.123 limit 64M swap 256M" */
char *vb_memlimit_describe(const struct vb_memlimit *m, char *buf,
    size_t len);

#endif
