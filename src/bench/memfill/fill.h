/*
 * fill.h - memfill's allocate-and-write loop, shared with the
 * bench-memfill measurement so that what is measured there is exactly
 * what memfill runs.
 */
#ifndef MEMFILL_FILL_H
#define MEMFILL_FILL_H

#include <stddef.h>
#include <stdint.h>

enum memfill_write {
	MEMFILL_NOWRITE,	/* only map (mtest01 without -w) */
	MEMFILL_PAGE,		/* one byte a page (later mtest01 -w) */
	MEMFILL_EVERY,		/* every byte (2002 mtest01 -w) */
};

/*
 * The mappings one process holds.  Each is memfill_map_unit(chunk,
 * align) bytes (the last may be shorter) and starts at a multiple of
 * align, so that with align the PMD huge page size every aligned
 * huge-page range of a mapping lies wholly inside it when its first
 * page is written, and transparent huge pages can back it when THP
 * allows.  align 0 or the page size: each chunk is mapped on its own,
 * wherever mmap() puts it.
 */
struct memfill_map {
	void *p;
	uint64_t len;
};

struct memfill_region {
	struct memfill_map *maps;
	size_t n, cap;
	uint64_t chunk;		/* allocation unit (--chunk) */
	uint64_t align;		/* mapping alignment (--map-align) */
	uint64_t bytes;		/* mapped so far */
	int stamp;		/* write each page's tag (for memfill_reread) */
};

/* The order of a re-read pass (--reread-pattern). */
enum memfill_order {
	MEMFILL_SEQ,		/* address order, mapping by mapping */
	MEMFILL_RANDOM,		/* a random permutation of the pages */
};

/* What one re-read pass read. */
struct memfill_pass {
	uint64_t pages;		/* pages read */
	uint64_t sum;		/* checksum: the sum of the words read */
	uint64_t want;		/* the sum of the pages' tags */
	uint64_t bad;		/* pages whose word is not their tag */
};

/*
 * A permutation of 0..n-1 without storage: a bijection of the k-bit
 * numbers (k the bits of n - 1: an odd multiplier and xor-shifts, keyed
 * by a seed) walked from 0 to 2^k - 1, skipping what falls past n - 1.
 */
struct memfill_perm {
	uint64_t n, mask, i, seed;
	int shift;
};

/* The size of PMD huge pages from sysfs, or 0 when the kernel has none. */
uint64_t memfill_hpage_size(void);
/* Bytes per mapping: @chunk rounded up to a multiple of @align. */
uint64_t memfill_map_unit(uint64_t chunk, uint64_t align);
/*
 * Write @len bytes at @p the @mode way: one store per page, or memset()
 * of every byte (the C library's fastest store loop, so the figure is
 * the kernel's and the memory's, not memfill's).
 */
void memfill_write(void *p, size_t len, enum memfill_write mode,
    size_t page);
/*
 * Map @bytes more (a multiple of @page) in anonymous private mappings as
 * struct memfill_region says, each written as @mode says right after it
 * is mapped (so the first touch of every page is a fault, as in
 * mtest01's malloc-then-write loop).  0, or -1 with errno set by mmap().
 */
int memfill_alloc(struct memfill_region *r, uint64_t bytes,
    enum memfill_write mode, size_t page);
/* Unmap every mapping. */
void memfill_free(struct memfill_region *r);

/*
 * The tag of the page at @addr: the word a stamped region holds at the
 * start of each page (a hash of the address, so that a page read back
 * from another page's place is seen).
 */
uint64_t memfill_tag(const void *addr);
/* Start a permutation of 0..@n-1 (@n >= 1) keyed by @seed. */
void memfill_perm_init(struct memfill_perm *p, uint64_t n, uint64_t seed);
/* The next index into @out: 1, or 0 when all n have been given. */
int memfill_perm_next(struct memfill_perm *p, uint64_t *out);
/*
 * Read the first word of every page of the stamped region @r once, in
 * @order (@seed picks the random one), into @out: a read of a page that
 * was swapped out is a major fault and a swap-in, which is what a pass
 * measures.
 */
void memfill_reread(const struct memfill_region *r, enum memfill_order order,
    uint64_t seed, size_t page, struct memfill_pass *out);

#endif
