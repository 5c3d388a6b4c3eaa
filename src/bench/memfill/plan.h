/*
 * memfill-size.h - how much memfill fills: the mtest01 arithmetic and
 * the safety cap, kept apart from the program so tests can feed it
 * fixture meminfo files and limits.
 */
#ifndef MEMFILL_SIZE_H
#define MEMFILL_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "size.h"

/* The /proc/meminfo fields memfill needs, in bytes. */
struct memfill_meminfo {
	uint64_t mem_total, mem_free, mem_available;
	uint64_t swap_total, swap_free;
};

/* What memfill will fill, and why. */
struct memfill_plan {
	uint64_t total;		/* RAM + swap, or limit + swap */
	uint64_t used;		/* subtracted from a percentage */
	uint64_t want;		/* what was asked for */
	uint64_t cap;		/* the most it may fill without --force */
	uint64_t target;	/* what it will fill (page multiple) */
	int trimmed;		/* target < want because of cap */
	int limited;		/* sized from a memory limit */
};

/* "no limit" for memfill_plan()'s @limit and @swap_limit */
#define MEMFILL_UNSET UINT64_MAX

/*
 * Parse /proc/meminfo text (kB lines).  MemAvailable is estimated as
 * MemFree + Cached + Buffers on kernels that lack it.  -1 with a
 * message when MemTotal, MemFree, SwapTotal or SwapFree is missing.
 */
int memfill_parse_meminfo(const char *text, struct memfill_meminfo *m,
    char *err, size_t errlen);
/* The same from a file (e.g. "/proc/meminfo"). */
int memfill_read_meminfo(const char *path, struct memfill_meminfo *m,
    char *err, size_t errlen);

/*
 * The plan for a request @req (bytes or percentage).
 *
 * Without a limit: total = MemTotal + SwapTotal; a percentage asks for
 * pct% of total minus what is in use, (MemTotal - MemAvailable) +
 * (SwapTotal - SwapFree), as mtest01 -p did; the cap is MemAvailable +
 * SwapFree minus a margin of max(128M, MemTotal/32).
 *
 * Under a memory limit @limit (bytes): total = limit + swap, where swap
 * is @swap_limit when set, else SwapTotal; nothing is taken as in use
 * (the cgroup's page cache is reclaimable); the cap is limit +
 * min(swap, SwapFree) minus max(8M, limit/16), and never above the
 * machine's own cap.
 *
 * With @force the cap is reported but not applied.  @page is the page
 * size; the target is rounded down to it.  -1 with a one-line message
 * when the percentage is already in use or nothing can be filled.
 */
int memfill_plan(const struct memfill_meminfo *m, uint64_t limit,
    uint64_t swap_limit, const struct vb_sizepct *req, int force,
    uint64_t page, struct memfill_plan *p, char *err, size_t errlen);

#endif
