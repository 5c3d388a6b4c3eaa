/*
 * plan.h - the sizes of tworead's two files and ranges, scaled
 * from Iwamoto's 2006 clockpro test to this machine.
 *
 * The original ran on a machine booted with mem=1008m: file A ("zero")
 * of 1 GiB, file B ("zero2") of 1500 MiB, reading the first n MB of A
 * and the first 1100 - n MB of B, for n = 100, 200, 300, 400, 500: the
 * two ranges together (1100 MB) overflow memory a little.  Here one
 * "scaled MB" is mem / 1008 bytes, where mem is the memory the run may
 * use, so every size keeps its ratio to memory:
 *
 *	unit    = mem / 1008
 *	range A = n * unit,  range B = (1100 - n) * unit   (rounded down
 *	          to whole blocks)
 *	size A  = 1024 * unit, size B = 1500 * unit (rounded up to whole
 *	          blocks, and never smaller than the range)
 *
 * With mem = 1008 MiB the unit is 1 MiB and the sizes are the post's.
 */
#ifndef TWOREAD_PLAN_H
#define TWOREAD_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define TR_ORIG_MEM 1008	/* MB of memory in the original */
#define TR_ORIG_TOTAL 1100	/* MB read over both ranges */
#define TR_ORIG_SIZE_A 1024	/* MB: file "zero" */
#define TR_ORIG_SIZE_B 1500	/* MB: file "zero2" */
#define TR_DEFAULT_N 300	/* when neither --sweep nor ranges given */

/* The post's sweep: n = 100 ... 500, one variant each ("n100"). */
#define TR_NSWEEP 5
extern const unsigned tr_sweep_ns[TR_NSWEEP];

struct tr_plan {
	uint64_t mem;		/* bytes the sizes scale to */
	uint64_t unit;		/* one scaled MB, bytes */
	uint64_t block;		/* read() size */
	uint64_t size_a, size_b;
	uint64_t range_a, range_b;
	unsigned n;		/* the sweep's n, 0 when ranges were given */
};

/*
 * The memory to scale to: $VMBENCH_MEM_LIMIT (bytes, set by the runner
 * under MEM=) if set, else this process's cgroup memory.max if it is a
 * number, else MemTotal; @src names the one used.  -1 with a message.
 */
int tr_mem_basis(uint64_t *mem, const char **src, char *err, size_t errlen);
/*
 * Complete @p: on entry block, mem and any of size_a, size_b, range_a,
 * range_b the user gave (0: scale it) and @n (0: not given).  -1 with a
 * one-line message naming the option when the combination cannot work.
 */
int tr_plan_make(struct tr_plan *p, unsigned n, char *err, size_t errlen);
/* "n100" for n = 100: the variant name the configs use. */
char *tr_variant(char *buf, size_t len, unsigned n);

#endif
