/*
 * plan.h - how much memfill fills: the mtest01 arithmetic and
 * the safety cap, kept apart from the program so tests can feed it
 * fixture meminfo files and limits.
 */
#ifndef MEMFILL_PLAN_H
#define MEMFILL_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "size.h"

/*
 * The /proc/meminfo fields memfill needs, in bytes, and the overcommit
 * policy (/proc/sys/vm/overcommit_memory), which the caller sets.
 */
struct memfill_meminfo {
	uint64_t mem_total, mem_free, mem_available;
	uint64_t swap_total, swap_free;
	uint64_t commit_limit, committed_as;	/* CommitLimit, Committed_AS */
	int has_commit;		/* both lines were there */
	int overcommit;		/* 0, 1, 2; -1 when unknown */
};

/* What memfill will fill, and why. */
struct memfill_plan {
	uint64_t total;		/* RAM + swap, or limit + swap */
	uint64_t swap;		/* the swap in total */
	uint64_t used;		/* subtracted from a percentage */
	uint64_t want;		/* what was asked for */
	uint64_t cap;		/* the most it may fill without --force */
	uint64_t target;	/* what it will fill (page multiple) */
	int trimmed;		/* target < want because of cap */
	int limited;		/* sized from a memory limit */
	int strict;		/* overcommit_memory=2: commit_room counts */
	uint64_t commit_room;	/* CommitLimit - Committed_AS (strict) */
	int commit_bound;	/* cap is commit_room less a margin */
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
 * @root/sys/vm/overcommit_memory (@root: "/proc" or a test's copy):
 * 0, 1 or 2; -1 when it cannot be read.
 */
int memfill_read_overcommit(const char *root);

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
 * Under strict overcommit (@m->overcommit 2, the commit lines read) the
 * kernel refuses a private writable mapping once Committed_AS would pass
 * CommitLimit, whatever is free: the cap is also CommitLimit -
 * Committed_AS less max(32M, a 64th of it), the room left for the
 * program's own mappings and forks (commit_bound says when that is the
 * smaller cap).
 *
 * With @force the cap is reported but not applied.  @page is the page
 * size; the target is rounded down to it.  -1 with a one-line message
 * when the percentage is already in use or nothing can be filled.
 */
int memfill_plan(const struct memfill_meminfo *m, uint64_t limit,
    uint64_t swap_limit, const struct vb_sizepct *req, int force,
    uint64_t page, struct memfill_plan *p, char *err, size_t errlen);

#endif
