/*
 * knob.h - kernel settings a run changes (make ab A="thp=never"): parsed,
 * checked before anything runs, applied, and restored on every path.
 *
 * A setting list is "name=value,name=value".  A name is one of:
 *
 *	thp, thp.enabled       /sys/kernel/mm/transparent_hugepage/enabled
 *	thp.defrag (thp_defrag), thp.shmem_enabled, thp.use_zero_page
 *	thp.16kB               .../transparent_hugepage/hugepages-16kB/enabled
 *	khugepaged.NAME        .../transparent_hugepage/khugepaged/NAME
 *	zswap, zswap.enabled   /sys/module/zswap/parameters/enabled
 *	zswap.NAME             /sys/module/zswap/parameters/NAME
 *	ksm, ksm.run           /sys/kernel/mm/ksm/run; ksm.NAME likewise
 *	lru_gen, mglru         /sys/kernel/mm/lru_gen/enabled
 *	vm.swappiness, kernel.numa_balancing, ...   /proc/sys/vm/swappiness
 *	swappiness             a bare name: /proc/sys/vm/NAME
 *	/proc/sys/..., /sys/kernel/mm/..., /sys/module/...  a path as is
 *
 * Every path is taken under a root folder ("" normally; tests pass a
 * fake tree).  A file whose text lists choices with the current one in
 * brackets ("always [madvise] never") reads as the bracketed choice and
 * accepts only a listed one.  Any other value is checked by writing it
 * and writing the original back, so the kernel itself judges it.
 */
#ifndef VB_KNOB_H
#define VB_KNOB_H

#include <stddef.h>

#define VB_KNOB_VALLEN 256

struct vb_knob {
	char *name;			/* as the user wrote it */
	char *path;			/* resolved, under the root */
	char orig[VB_KNOB_VALLEN];	/* the value before the run */
	char val[2][VB_KNOB_VALLEN];	/* A's and B's, "" when unset */
	int saved;			/* orig is valid */
	int changed;			/* written since saved */
};

struct vb_knobs {
	char *root;
	int n;
	struct vb_knob *k;
};

/*
 * Parse @list ("name=value,...") as side @side (0 = A, 1 = B) into
 * @ks, resolving names under @ks->root.  A name already present from
 * the other side is shared.  0, or -1 with one line in @err.
 */
int vb_knobs_parse(struct vb_knobs *ks, int side, const char *list,
    char *err, size_t errlen);
/*
 * Read every knob's current value into orig (saved = 1): each must
 * exist and be writable.  0, or -1 with one line in @err.
 */
int vb_knobs_save(struct vb_knobs *ks, char *err, size_t errlen);
/*
 * Save (if not yet) and check that each side's value is accepted.  0, or -1 with one line in @err
 * (every knob is back at its value).
 */
int vb_knobs_check(struct vb_knobs *ks, char *err, size_t errlen);
/*
 * Write side @side's values (a knob unset on that side gets its
 * original value).  0, or -1 with one line in @err.
 */
int vb_knobs_apply(struct vb_knobs *ks, int side, char *err,
    size_t errlen);
/*
 * Write every changed knob back to its original value.  Only open(),
 * write() and close(): usable from a signal path.  The number of knobs
 * that could not be restored.
 */
int vb_knobs_restore(struct vb_knobs *ks);
/* "thp=never,vm.swappiness=0" of side @side, into @buf. */
char *vb_knobs_describe(const struct vb_knobs *ks, int side, char *buf,
    size_t len);
void vb_knobs_free(struct vb_knobs *ks);

/* Write @val to @path (not through a symlink); 0, or -1 (errno). */
int vb_knob_write(const char *path, const char *val);
/*
 * May @path be written as a setting: under @root (NULL or "" for the
 * real tree), a file under /proc/sys/, /sys/kernel/mm/ or /sys/module/
 * in the names' alphabet, without "..": the check A= and B= paths
 * pass.  0, or -1 with one line in @err.
 */
int vb_knob_allowed(const char *root, const char *path, char *err,
    size_t errlen);

#endif
