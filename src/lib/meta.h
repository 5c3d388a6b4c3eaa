/*
 * meta.h - the result folder's `meta` file: who, where, when, and how
 * the machine was set up, as key=value lines (one per line, values to
 * the end of the line):
 *
 *	label=2.5.23-rmap
 *	uname_r=6.18.44 ...
 *
 * Keys written by vb_meta_write(): vmbench_meta (format, 1), label,
 * status, start, end, uname_r, uname_v, uname_m, hostname, cmdline
 * (/proc/cmdline), cpu_model, cpu_count, mem_total_kb, swap_total_kb,
 * thp_enabled, thp_defrag, khugepaged_defrag, zswap_enabled,
 * zswap_compressor, zswap_max_pool_percent, ksm_run, lru_gen_enabled,
 * swappiness, dirty_ratio, dirty_background_ratio, dirty_bytes,
 * dirty_background_bytes, vfs_cache_pressure, overcommit_memory,
 * min_free_kbytes, watermark_scale_factor, page-cluster,
 * page_reporting_order (free page reporting to a hypervisor), workdir,
 * workdir_fstype, workdir_journal (yes, no; "-" when not ext4),
 * vmbench_version (git describe at build time), config,
 * config_cksum (POSIX cksum: CRC and length, as `cksum FILE` prints),
 * iterations; then, when the runner gives them: run (the run's index in
 * its label, results/<label>/runN/), unit (run-per-iteration: make ab's
 * folders, whose every iteration is a separate run of the program),
 * boot_id (/proc/sys/kernel/random/boot_id) and uptime_start (seconds,
 * /proc/uptime, when the run began); then any extra pairs the runner
 * passes (mem_limit, swap_file, ...).  Values that cannot be read are
 * "unknown".
 */
#ifndef VB_META_H
#define VB_META_H

#include <stddef.h>
#include <stdint.h>

#include "kv.h"

struct vb_meta_in {
	const char *label;
	const char *status;	/* running, complete, interrupted, failed */
	const char *start;	/* ISO 8601 UTC */
	const char *end;	/* NULL while running */
	const char *workdir;
	const char *config;	/* path */
	const char *iterations;	/* "3", or "5-10" when lines differ */
	int run;		/* index in the label (runN/); 0: none */
	const char *unit;	/* "run-per-iteration"; NULL: not written */
	const char *boot_id;	/* NULL: not written */
	const char *uptime_start;
	const struct vb_kv *extra;
	int nextra;
	/* the settings' lines (vb_meta_settings()); NULL: read them now */
	const char *settings;
};

/*
 * The memory-management settings as meta lines ("thp_enabled=never\n"
 * ...), read now: for a run that changes them (make ab), taken while
 * each side's values are in force.  Allocated.
 */
char *vb_meta_settings(void);
/* Write @path atomically.  0, or -1 with errno set. */
int vb_meta_write(const char *path, const struct vb_meta_in *in);
/*
 * Read a meta file into @kv (allocated, @n pairs): a regular file of at
 * most VB_MAX_META bytes and VB_META_MAX_KEYS keys (safedir.h).  0, or
 * -1 with "file:line: what is wrong" in @err.
 */
#define VB_META_MAX_KEYS	10000
int vb_meta_read(const char *path, struct vb_kv **kv, int *n, char *err,
    size_t errlen);
void vb_meta_free(struct vb_kv *kv, int n);
/* Value of @key in @kv, or NULL. */
const char *vb_meta_get(const struct vb_kv *kv, int n, const char *key);
/* POSIX cksum(1) CRC of @path; -1 when unreadable. */
int vb_cksum_file(const char *path, uint32_t *crc, uint64_t *len);
/* "CRC LENGTH" of @path as meta's config_cksum, or "unknown". */
char *vb_meta_cksum(const char *path, char *buf, size_t len);
/* This boot's id (/proc/sys/kernel/random/boot_id), or "unknown". */
char *vb_boot_id(char *buf, size_t len);
/* Seconds since boot (/proc/uptime's first figure), or "unknown". */
char *vb_uptime(char *buf, size_t len);
/*
 * The machine facts a label's runs must share: cpu_model, uname_m, and
 * mem_total_kb within 1% (it moves by some kB between kernel builds).
 * Those of meta @a that differ from meta @b's (@b NULL: this machine's
 * now), as "mem_total_kb '5' (BNAME '24683584'), ..." in @out.  The
 * number that differ (a key either lacks does not count).
 */
int vb_meta_machine_diff(const struct vb_kv *a, int na, const struct vb_kv *b,
    int nb, const char *bname, char *out, size_t len);
/* The filesystem type of the mount holding @path ("ext4"), or NULL. */
char *vb_fstype(const char *path, char *buf, size_t len);

#endif
