/*
 * plan.h - tio's arithmetic, apart from its I/O so that the tests can
 * check it: the default total size, the random block sequence, the
 * figures of a phase (rate, CPU%, CPU efficiency, latency) and the
 * create order of the bonnie-style file phases.
 *
 * Units are tiobench's: MB is 2^20 bytes, rates are MB/s, CPU% is the
 * threads' user + system time over the phase's elapsed time (100% is
 * one CPU busy), CPU efficiency is rate / (CPU% / 100), the post's
 * "(MB/sec) / CPU%" (13.23 MB/s at 43.2% is 30.62), latencies are
 * milliseconds per block.
 */
#ifndef TIO_PLAN_H
#define TIO_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define TIO_DEFAULT_SIZE (256ULL << 20)	/* total, without a limit */
#define TIO_MEM_FACTOR 2	/* times the memory limit: never cached */

/*
 * The total size to use: @mem_limit (0: none) times TIO_MEM_FACTOR,
 * else TIO_DEFAULT_SIZE, rounded down to whole blocks per thread.  0
 * when that leaves a thread less than one block.
 */
uint64_t tio_default_size(uint64_t mem_limit, unsigned threads,
    uint64_t block);
/* Bytes of each thread's file: @total / @threads in whole blocks. */
uint64_t tio_file_size(uint64_t total, unsigned threads, uint64_t block);

/* The random sequence's state for thread @thread of a run seeded @seed. */
uint64_t tio_seed(uint64_t seed, unsigned thread);
/* Next value of the sequence (xorshift64*). */
uint64_t tio_rand(uint64_t *state);
/* The offset of the next random block of a file of @blocks blocks. */
uint64_t tio_rand_offset(uint64_t *state, uint64_t blocks, uint64_t block);

/* What one phase measured, summed over its threads. */
struct tio_phase {
	uint64_t blocks;	/* blocks read or written */
	uint64_t block;		/* bytes per block */
	double elapsed;		/* s, start to the last thread's end */
	double cpu;		/* s, user + system of the threads */
	double lat_sum;		/* s, over every block */
	double lat_max;		/* s, the slowest block */
};

struct tio_fig {
	double rate;		/* MB/s (2^20 bytes) */
	double cpu_pct;		/* % of one CPU */
	double eff;		/* rate / (cpu_pct / 100) */
	double lat_avg;		/* ms per block */
	double lat_max;		/* ms */
};

/* The figures of @p; NAN where a divisor is 0. */
void tio_figures(const struct tio_phase *p, struct tio_fig *f);
/* Files per second and CPU% of a create or delete phase. */
void tio_file_figures(uint64_t files, double elapsed, double cpu,
    double *per_s, double *cpu_pct);

/* bonnie++'s file names: the number in 7 digits and 0 to 12 random
 * letters and digits, after the number (sequential) or before it
 * (random, which scatters the names). */
#define TIO_NAME_EXTRA 12
#define TIO_NAME_MAX (7 + TIO_NAME_EXTRA + 1)
char *tio_name(char *buf, size_t len, uint32_t i, int random_first,
    uint64_t *state);

/*
 * @order[0..n) = a permutation of 0..n-1: in order when @seed is 0,
 * else shuffled (Fisher-Yates) from @seed, the same every run.
 */
void tio_order(uint32_t *order, uint32_t n, uint64_t seed);

#endif
