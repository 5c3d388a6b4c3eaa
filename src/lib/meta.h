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
 * min_free_kbytes, watermark_scale_factor, page-cluster, workdir,
 * workdir_fstype, vmbench_version (git describe at build time), config,
 * config_cksum (POSIX cksum: CRC and length, as `cksum FILE` prints),
 * iterations, then any extra pairs the runner passes (mem_limit,
 * swap_file, ...).  Values that cannot be read are "unknown".
 */
#ifndef VB_META_H
#define VB_META_H

#include <stddef.h>
#include <stdint.h>


/* One "key=value" line of a meta file, or a config directive. */
struct vb_kv {
	char *key;
	char *val;
};

struct vb_meta_in {
	const char *label;
	const char *status;	/* running, complete, interrupted, failed */
	const char *start;	/* ISO 8601 UTC */
	const char *end;	/* NULL while running */
	const char *workdir;
	const char *config;	/* path */
	const char *iterations;	/* "3", or "5-10" when lines differ */
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
 * Read a meta file into @kv (allocated, @n pairs).  0, or -1 with
 * "file:line: what is wrong" in @err.
 */
int vb_meta_read(const char *path, struct vb_kv **kv, int *n, char *err,
    size_t errlen);
void vb_meta_free(struct vb_kv *kv, int n);
/* Value of @key in @kv, or NULL. */
const char *vb_meta_get(const struct vb_kv *kv, int n, const char *key);
/* POSIX cksum(1) CRC of @path; -1 when unreadable. */
int vb_cksum_file(const char *path, uint32_t *crc, uint64_t *len);
/* The filesystem type of the mount holding @path ("ext4"), or NULL. */
char *vb_fstype(const char *path, char *buf, size_t len);

#endif
