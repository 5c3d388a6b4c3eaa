/*
 * bench_memfill.c - does memfill measure the kernel, not itself?
 *
 * Three comparisons on the same machine in the same run, each side
 * alternating (A B, B A, ...) over 24 rounds, the median of the paired
 * per-round rate ratios compared against a limit of 10%:
 *
 *  1. writing every byte of memory that is already faulted in: memfill's
 *     write path (memfill_write(), mapping by mapping) against one plain
 *     memset() over the same region;
 *  2. first touch, one byte a page: memfill_alloc() (1M chunks in 2M
 *     mappings aligned to 2M, the huge page size, as memfill maps them by
 *     default; each mmap()ed then touched) against one mmap() of the
 *     whole region and a bare page-touch loop;
 *  3. first touch, every byte: the same with memset().
 *
 * Only the fill is timed, never the munmap(), and with the thread's CPU
 * clock (CLOCK_THREAD_CPUTIME_ID: user + system time, the page faults
 * included), not the wall clock: on a shared, loaded machine the wall
 * clock mostly measures waiting for a CPU, which is neither memfill's
 * cost nor the kernel's.  Region
 * 512M by default (argv[1]), far below the 2G that may be allocated
 * outside a memory cgroup.  Both sides' mappings are aligned to the
 * huge page size, so THP can back both alike; the THP mode is printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "msg.h"
#include "memfill/fill.h"
#include "size.h"

#define ROUNDS 24
#define CHUNK (1ULL << 20)

static size_t page;
static uint64_t len, align;

/* CPU time of this thread, in ns */
static uint64_t
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static double
cpu_s(uint64_t t0)
{
	return (double)(cpu_ns() - t0) / 1e9;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* 1: memfill's writes over a faulted region, mapping by mapping. */
static double
faulted_memfill(struct memfill_region *r)
{
	uint64_t t0 = cpu_ns();
	size_t i;

	for (i = 0; i < r->n; i++)
		memfill_write(r->maps[i].p, r->maps[i].len, MEMFILL_EVERY,
		    page);
	return cpu_s(t0);
}

/* 1: plain memset() of the same mappings (contiguous or not). */
static double
faulted_memset(struct memfill_region *r, int c)
{
	uint64_t t0 = cpu_ns();
	size_t i;

	for (i = 0; i < r->n; i++)
		memset(r->maps[i].p, c, r->maps[i].len);
	return cpu_s(t0);
}

/* 2, 3: memfill's allocate-and-write of fresh memory. */
static double
fresh_memfill(enum memfill_write mode)
{
	struct memfill_region r = { .chunk = CHUNK, .align = align };
	uint64_t t0 = cpu_ns();
	double s;

	if (memfill_alloc(&r, len, mode, page) < 0)
		die_errno("cannot map %llu bytes", (unsigned long long)len);
	s = cpu_s(t0);
	memfill_free(&r);
	return s;
}

/* 2, 3: one mmap() and a bare loop (or memset()). */
static double
fresh_bare(enum memfill_write mode)
{
	uint64_t t0 = cpu_ns(), off;
	volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double s;

	if (p == MAP_FAILED)
		die_errno("cannot map %llu bytes", (unsigned long long)len);
	if (mode == MEMFILL_EVERY)
		memset((char *)p, 0x5a, len);
	else
		for (off = 0; off < len; off += page)
			p[off] = 1;
	s = cpu_s(t0);
	munmap((void *)p, len);
	return s;
}

/*
 * Print one comparison; 1 when within the limit.  The verdict is the
 * median of the per-round ratios (paired: each round's two sides ran
 * back to back, so load from other processes that drifts over the run
 * cancels out); the medians of each side are shown too.
 */
static int
verdict(const char *what, double *a, double *b)
{
	double ratio[ROUNDS], ma, mb, d;
	int i, ok;

	for (i = 0; i < ROUNDS; i++)
		ratio[i] = b[i] / a[i];		/* rate of a / rate of b */
	d = (median(ratio, ROUNDS) - 1) * 100;
	ma = median(a, ROUNDS);
	mb = median(b, ROUNDS);
	ok = d > -10 && d < 10;
	printf("%-30s memfill %6.0f MB/s  reference %6.0f MB/s  paired "
	    "%+5.1f%%  %s\n", what, (double)len / 1e6 / ma,
	    (double)len / 1e6 / mb, d, ok ? "ok" : "OUT OF 10%");
	return ok;
}

int
main(int argc, char **argv)
{
	double a[ROUNDS], b[ROUNDS];
	struct memfill_region r = { .chunk = CHUNK };
	char err[VB_ERRLEN], thp[64] = "unknown";
	FILE *f;
	int i, ok = 1;

	vb_set_progname("bench-memfill");
	page = (size_t)sysconf(_SC_PAGESIZE);
	/* memfill's default --map-align */
	if (!(align = memfill_hpage_size()))
		align = 2ULL << 20;
	r.align = align;
	len = 512ULL << 20;
	if (argc > 1 && vb_parse_size(argv[1], 16ULL << 20, 2ULL << 30, &len,
	    err) < 0)
		die("%s", err);
	if ((f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r"))) {
		if (!fgets(thp, sizeof(thp), f))
			strcpy(thp, "unknown\n");
		fclose(f);
		thp[strcspn(thp, "\n")] = '\0';
	}
	{
		double la[3] = { 0, 0, 0 };

		getloadavg(la, 3);
		printf("bench-memfill: %llu MB, %d alternating rounds; THP: "
		    "%s; load average %.2f\n", (unsigned long long)(len >> 20),
		    ROUNDS, thp, la[0]);
	}

	if (memfill_alloc(&r, len, MEMFILL_EVERY, page) < 0)
		die_errno("cannot map %llu bytes", (unsigned long long)len);
	for (i = 0; i < ROUNDS; i++) {
		if (i % 2) {
			b[i] = faulted_memset(&r, i);
			a[i] = faulted_memfill(&r);
		} else {
			a[i] = faulted_memfill(&r);
			b[i] = faulted_memset(&r, i);
		}
	}
	memfill_free(&r);
	ok &= verdict("faulted memory, every byte:", a, b);

	for (i = 0; i < ROUNDS; i++) {
		if (i % 2) {
			b[i] = fresh_bare(MEMFILL_PAGE);
			a[i] = fresh_memfill(MEMFILL_PAGE);
		} else {
			a[i] = fresh_memfill(MEMFILL_PAGE);
			b[i] = fresh_bare(MEMFILL_PAGE);
		}
	}
	ok &= verdict("first touch, one byte a page:", a, b);
	printf("%-30s memfill %6.3f us/page  bare loop %6.3f us/page\n", "",
	    median(a, ROUNDS) * 1e6 / (double)(len / page),
	    median(b, ROUNDS) * 1e6 / (double)(len / page));

	for (i = 0; i < ROUNDS; i++) {
		if (i % 2) {
			b[i] = fresh_bare(MEMFILL_EVERY);
			a[i] = fresh_memfill(MEMFILL_EVERY);
		} else {
			a[i] = fresh_memfill(MEMFILL_EVERY);
			b[i] = fresh_bare(MEMFILL_EVERY);
		}
	}
	ok &= verdict("first touch, every byte:", a, b);
	return ok ? 0 : 1;
}
