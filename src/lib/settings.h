/*
 * settings.h - the memory-management settings vmbench records in every
 * meta and make ab may change, one row each: what a new setting takes.
 *
 *	X(key, path, knob, show)
 *
 * key   its name in meta (settings=, and the report's tables)
 * path  the file it is read from (a sysctl under /proc/sys is read as
 *       its one line; a sysfs switch "always [madvise] never" as the
 *       bracketed word)
 * knob  make ab's short name for it (A="thp=never"), or NULL when it is
 *       given as its sysctl name or path (A="vm.swappiness=10")
 * show  VB_SHOW_PAGE: the results page's settings list shows it
 *
 * Read by meta.c (what a run records), the runner's knob.c (make ab's
 * names) and the report's views (the settings they list).
 */
#ifndef VB_SETTINGS_H
#define VB_SETTINGS_H

#define VB_SHOW_PAGE	1

#define VB_THP		"/sys/kernel/mm/transparent_hugepage/"
#define VB_ZSWAP	"/sys/module/zswap/parameters/"
#define VB_VM		"/proc/sys/vm/"

#define MM_SETTINGS(X)							\
	X("thp_enabled", VB_THP "enabled", "thp", VB_SHOW_PAGE)		\
	X("thp_defrag", VB_THP "defrag", "thp_defrag", VB_SHOW_PAGE)	\
	X("khugepaged_defrag", VB_THP "khugepaged/defrag", NULL, 0)	\
	X("zswap_enabled", VB_ZSWAP "enabled", "zswap", 0)		\
	X("zswap_compressor", VB_ZSWAP "compressor", NULL, 0)		\
	X("zswap_max_pool_percent", VB_ZSWAP "max_pool_percent", NULL, 0) \
	X("ksm_run", "/sys/kernel/mm/ksm/run", "ksm", 0)		\
	X("lru_gen_enabled", "/sys/kernel/mm/lru_gen/enabled", "lru_gen", 0) \
	X("swappiness", VB_VM "swappiness", NULL, VB_SHOW_PAGE)		\
	X("dirty_ratio", VB_VM "dirty_ratio", NULL, VB_SHOW_PAGE)	\
	X("dirty_background_ratio", VB_VM "dirty_background_ratio", NULL, \
	    VB_SHOW_PAGE)						\
	X("dirty_bytes", VB_VM "dirty_bytes", NULL, 0)			\
	X("dirty_background_bytes", VB_VM "dirty_background_bytes", NULL, 0) \
	X("vfs_cache_pressure", VB_VM "vfs_cache_pressure", NULL,	\
	    VB_SHOW_PAGE)						\
	X("overcommit_memory", VB_VM "overcommit_memory", NULL,		\
	    VB_SHOW_PAGE)						\
	X("min_free_kbytes", VB_VM "min_free_kbytes", NULL, VB_SHOW_PAGE) \
	X("watermark_scale_factor", VB_VM "watermark_scale_factor", NULL, 0) \
	X("page-cluster", VB_VM "page-cluster", NULL, 0)			\
	X("page_reporting_order",					\
	    "/sys/module/page_reporting/parameters/page_reporting_order",	\
	    "page_reporting", 0)

struct vb_setting {
	const char *key;
	const char *path;
	const char *knob;	/* NULL: none */
	int show;
};

/* How many rows MM_SETTINGS has (a constant). */
#define VB_SETTING_ONE(key, path, knob, show)	+ 1
#define VB_NSETTINGS	(0 MM_SETTINGS(VB_SETTING_ONE))

/* The rows of MM_SETTINGS, in order, ended by a row whose key is NULL. */
extern const struct vb_setting vb_settings[];

#endif
