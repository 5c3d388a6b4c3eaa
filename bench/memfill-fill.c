/*
 * memfill-fill.c - allocate and write (see memfill-fill.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "memfill-fill.h"

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

int
memfill_alloc(struct memfill_region *r, uint64_t bytes,
    enum memfill_write mode, size_t page)
{
	uint64_t done = 0;

	while (done < bytes) {
		uint64_t len = bytes - done < r->chunk ? bytes - done :
		    r->chunk;
		void *p;

		if (r->n == r->cap) {
			size_t ncap = r->cap ? r->cap * 2 : 1024;
			void **nc = realloc(r->chunks, ncap * sizeof(void *));

			if (!nc) {
				errno = ENOMEM;
				return -1;
			}
			r->chunks = nc;
			r->cap = ncap;
		}
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		r->chunks[r->n++] = p;
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
	uint64_t left = r->bytes;

	for (i = 0; i < r->n; i++) {
		uint64_t len = left < r->chunk ? left : r->chunk;

		munmap(r->chunks[i], len);
		left -= len;
	}
	free(r->chunks);
	r->chunks = NULL;
	r->n = r->cap = 0;
	r->bytes = 0;
}
