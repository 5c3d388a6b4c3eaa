/*
 * plan.c - tio's arithmetic (see plan.h).
 */
#include <math.h>
#include <stdio.h>

#include "plan.h"

uint64_t
tio_file_size(uint64_t total, unsigned threads, uint64_t block)
{
	if (!threads || !block)
		return 0;
	return total / threads / block * block;
}

uint64_t
tio_default_size(uint64_t mem_limit, unsigned threads, uint64_t block)
{
	uint64_t total = mem_limit ? mem_limit * TIO_MEM_FACTOR :
	    TIO_DEFAULT_SIZE;

	return tio_file_size(total, threads, block) * threads;
}

uint64_t
tio_seed(uint64_t seed, unsigned thread)
{
	/* splitmix64 of the pair: distinct, never 0 for xorshift */
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (thread + 1ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 1;
}

uint64_t
tio_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

uint64_t
tio_rand_offset(uint64_t *s, uint64_t blocks, uint64_t block)
{
	return blocks ? tio_rand(s) % blocks * block : 0;
}

void
tio_figures(const struct tio_phase *p, struct tio_fig *f)
{
	double mb = (double)p->blocks * (double)p->block / 1048576.0;

	f->rate = p->elapsed > 0 ? mb / p->elapsed : NAN;
	f->cpu_pct = p->elapsed > 0 ? 100.0 * p->cpu / p->elapsed : NAN;
	f->eff = f->cpu_pct > 0 ? f->rate / (f->cpu_pct / 100.0) : NAN;
	f->lat_avg = p->blocks ? 1000.0 * p->lat_sum / (double)p->blocks :
	    NAN;
	f->lat_max = p->blocks ? 1000.0 * p->lat_max : NAN;
}

void
tio_file_figures(uint64_t files, double elapsed, double cpu, double *per_s,
    double *cpu_pct)
{
	*per_s = elapsed > 0 ? (double)files / elapsed : NAN;
	*cpu_pct = elapsed > 0 ? 100.0 * cpu / elapsed : NAN;
}

void
tio_order(uint32_t *order, uint32_t n, uint64_t seed)
{
	uint64_t s = tio_seed(seed, 0);
	uint32_t i, j, t;

	for (i = 0; i < n; i++)
		order[i] = i;
	if (!seed)
		return;
	for (i = n; i > 1; i--) {
		j = (uint32_t)(tio_rand(&s) % i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}

char *
tio_name(char *buf, size_t len, uint32_t i, int random_first,
    uint64_t *state)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
	    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char extra[TIO_NAME_EXTRA + 1];
	unsigned n = (unsigned)(tio_rand(state) % (TIO_NAME_EXTRA + 1)), j;

	for (j = 0; j < n; j++)
		extra[j] = chars[tio_rand(state) % (sizeof(chars) - 1)];
	extra[n] = '\0';
	if (random_first)
		snprintf(buf, len, "%s%07u", extra, (unsigned)i);
	else
		snprintf(buf, len, "%07u%s", (unsigned)i, extra);
	return buf;
}
