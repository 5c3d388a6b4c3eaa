/*
 * memfill-fill.h - memfill's allocate-and-write loop, shared with the
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

/* The chunks one process holds. */
struct memfill_region {
	void **chunks;
	size_t n, cap;
	uint64_t chunk;		/* bytes per chunk; the last may be shorter */
	uint64_t bytes;		/* mapped so far */
};

/*
 * Write @len bytes at @p the @mode way: one store per page, or memset()
 * of every byte (the C library's fastest store loop, so the figure is
 * the kernel's and the memory's, not memfill's).
 */
void memfill_write(void *p, size_t len, enum memfill_write mode,
    size_t page);
/*
 * Map @bytes more in anonymous private chunks of r->chunk bytes, each
 * written as @mode says right after it is mapped (so the first touch of
 * every page is a fault, as in mtest01's malloc-then-write loop).
 * 0, or -1 with errno set by mmap().
 */
int memfill_alloc(struct memfill_region *r, uint64_t bytes,
    enum memfill_write mode, size_t page);
/* Unmap every chunk. */
void memfill_free(struct memfill_region *r);

#endif
