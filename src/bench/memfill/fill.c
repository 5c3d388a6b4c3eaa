/*
 * fill.c - allocate and write (see fill.h).
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

uint64_t
memfill_tag(const void *addr)
{
	/* splitmix64's finaliser */
	uint64_t x = (uint64_t)(uintptr_t)addr + 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Write each page's tag in its first word (after memfill_write()). */
static void
stamp(char *p, size_t len, size_t page)
{
	size_t off;

	for (off = 0; off < len; off += page)
		*(volatile uint64_t *)(p + off) = memfill_tag(p + off);
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
		/* stamped: the tag is the one store a page of --write */
		if (!r->stamp || mode == MEMFILL_EVERY)
			memfill_write(p, len, mode, page);
		if (r->stamp)
			stamp(p, len, page);
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

void
memfill_perm_init(struct memfill_perm *p, uint64_t n, uint64_t seed)
{
	int bits = 0;

	while (bits < 62 && (n - 1) >> bits)
		bits++;
	p->n = n;
	p->mask = (1ULL << bits) - 1;
	p->shift = bits / 2 + 1;
	p->seed = seed * 0x9e3779b97f4a7c15ULL;
	p->i = 0;
}

/* A bijection of the numbers of p->mask's bits. */
static uint64_t
perm_mix(const struct memfill_perm *p, uint64_t x)
{
	/* each step is invertible modulo 2^k: +, * odd, ^= >> */
	x = (x + p->seed) & p->mask;
	x = (x * 0xbf58476d1ce4e5b9ULL) & p->mask;
	x ^= x >> p->shift;
	x = (x * 0x94d049bb133111ebULL) & p->mask;
	x ^= x >> p->shift;
	x = (x + (p->seed >> 32)) & p->mask;
	return x;
}

int
memfill_perm_next(struct memfill_perm *p, uint64_t *out)
{
	/* mask < 2^62 (n is a count of pages): i never wraps */
	while (p->i <= p->mask) {
		uint64_t x = perm_mix(p, p->i++);

		if (x < p->n) {
			*out = x;
			return 1;
		}
	}
	return 0;
}

/* Read page @i of @r into @out. */
static void
read_page(const struct memfill_region *r, uint64_t per, uint64_t i,
    size_t page, struct memfill_pass *out)
{
	const char *a = (const char *)r->maps[i / per].p + i % per * page;
	uint64_t v = *(const volatile uint64_t *)a, t = memfill_tag(a);

	out->sum += v;
	out->want += t;
	out->bad += v != t;
	out->pages++;
}

void
memfill_reread(const struct memfill_region *r, enum memfill_order order,
    uint64_t seed, size_t page, struct memfill_pass *out)
{
	uint64_t n = r->bytes / page, per, i;
	struct memfill_perm p;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	/* every mapping but the last is whole: maps[0] is the unit */
	per = r->maps[0].len / page;
	if (order == MEMFILL_SEQ) {
		for (i = 0; i < n; i++)
			read_page(r, per, i, page, out);
		return;
	}
	memfill_perm_init(&p, n, seed);
	while (memfill_perm_next(&p, &i))
		read_page(r, per, i, page, out);
}
