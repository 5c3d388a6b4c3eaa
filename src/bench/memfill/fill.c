/*
 * memfill-fill.c - allocate and write (see memfill-fill.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fill.h"

#define HPAGE_PMD_SIZE "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"

uint64_t
memfill_hpage_size(void)
{
	unsigned long long v = 0;
	FILE *f = fopen(HPAGE_PMD_SIZE, "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

uint64_t
memfill_map_unit(uint64_t chunk, uint64_t align)
{
	if (align <= 1)
		return chunk;
	return (chunk + align - 1) / align * align;
}

void
memfill_write(void *p, size_t len, enum memfill_write mode, size_t page)
{
	volatile char *c = p;
	size_t off;

	switch (mode) {
	case MEMFILL_NOWRITE:
		break;
	case MEMFILL_PAGE:
		for (off = 0; off < len; off += page)
			c[off] = 1;
		break;
	case MEMFILL_EVERY:
		/* not zero: a page of zeroes is still a written page, but
		   keep it unmistakably ours */
		memset(p, 0x5a, len);
		break;
	}
}

/*
 * Map @len bytes anonymous private at a multiple of @align: map
 * @align - @page more, then unmap the head and tail around the aligned
 * range.  MAP_FAILED with errno set by mmap().
 */
static void *
map_aligned(uint64_t len, uint64_t align, size_t page)
{
	uint64_t extra = align > page ? align - page : 0, head;
	char *p;

	p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || extra == 0)
		return p;
	head = (align - (uintptr_t)p % align) % align;
	if (head)
		munmap(p, head);
	if (extra > head)
		munmap(p + head + len, extra - head);
	return p + head;
}

int
memfill_alloc(struct memfill_region *r, uint64_t bytes,
    enum memfill_write mode, size_t page)
{
	uint64_t unit = memfill_map_unit(r->chunk, r->align), done = 0;

	while (done < bytes) {
		uint64_t len = bytes - done < unit ? bytes - done : unit;
		char *p;

		if (r->n == r->cap) {
			size_t ncap = r->cap ? r->cap * 2 : 1024;
			struct memfill_map *nm = realloc(r->maps,
			    ncap * sizeof(*nm));

			if (!nm) {
				errno = ENOMEM;
				return -1;
			}
			r->maps = nm;
			r->cap = ncap;
		}
		p = map_aligned(len, r->align, page);
		if (p == MAP_FAILED)
			return -1;
		r->maps[r->n].p = p;
		r->maps[r->n++].len = len;
		memfill_write(p, len, mode, page);
		r->bytes += len;
		done += len;
	}
	return 0;
}

void
memfill_free(struct memfill_region *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		munmap(r->maps[i].p, r->maps[i].len);
	free(r->maps);
	r->maps = NULL;
	r->n = r->cap = 0;
	r->bytes = 0;
}
