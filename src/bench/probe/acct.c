/*
 * acct.c - the probe's deadline loop and accounting (see
 * acct.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acct.h"

void
probe_acct_init(struct probe_acct *a, uint64_t period_ns, uint64_t t0)
{
	memset(a, 0, sizeof(*a));
	a->period_ns = period_ns;
	a->t0 = t0;
}

void
probe_acct_free(struct probe_acct *a)
{
	free(a->rec);
	a->rec = NULL;
	a->n = a->cap = 0;
}

uint64_t
probe_acct_deadline(const struct probe_acct *a, uint64_t k)
{
	return a->t0 + k * a->period_ns;
}

int
probe_acct_period(struct probe_acct *a, uint64_t k, uint64_t wake,
    uint64_t done, uint64_t cpu_ns)
{
	struct probe_rec *r;
	uint64_t d = probe_acct_deadline(a, k);

	if (a->n == a->cap) {
		size_t ncap = a->cap ? a->cap * 2 : 4096;
		struct probe_rec *nr = realloc(a->rec, ncap * sizeof(*nr));

		if (!nr)
			return -1;
		a->rec = nr;
		a->cap = ncap;
	}
	r = &a->rec[a->n++];
	r->k = k;
	r->lat_ns = wake > d ? wake - d : 0;
	r->cpu_ns = cpu_ns;
	r->played = done <= probe_acct_deadline(a, k + 1);
	return r->played;
}

uint64_t
probe_acct_next(const struct probe_acct *a, uint64_t k, uint64_t now)
{
	uint64_t j;

	if (now < probe_acct_deadline(a, k + 2))
		return k + 1;
	/* d(j) <= now < d(j + 1): the first period still playable */
	j = (now - a->t0) / a->period_ns;
	return j > k + 1 ? j : k + 1;
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Nearest-rank percentile @p (0..100] of sorted @v[0..n). */
static double
pct(const uint64_t *v, size_t n, double p)
{
	size_t r = (size_t)ceil(p / 100 * (double)n);

	return (double)v[r ? r - 1 : 0];
}

void
probe_acct_finish(struct probe_acct *a, uint64_t end, uint64_t slice_cpu_ns,
    struct probe_figures *f)
{
	uint64_t total, played = 0, cpu = 0, prev = 0, gap, max_gap = 0;
	uint64_t *lat = NULL;
	double sum = 0, sq = 0, ms = 1e6;
	size_t i, n = 0;

	a->end = end;
	total = end > a->t0 ? (end - a->t0) / a->period_ns : 0;
	memset(f, 0, sizeof(*f));
	f->lat_mean = f->lat_sd = f->lat_p50 = f->lat_p99 = NAN;
	f->lat_max = f->desired_cpu_pct = f->deadlines_met_pct = NAN;
	if (a->n)
		lat = malloc(a->n * sizeof(*lat));
	for (i = 0; i < a->n; i++) {
		const struct probe_rec *r = &a->rec[i];

		/* the period in progress at the end is not part of the run */
		if (r->k >= total)
			break;
		if (lat)
			lat[n] = r->lat_ns;
		n++;
		sum += (double)r->lat_ns;
		cpu += r->cpu_ns;
		if (r->played) {
			/* periods prev .. k-1 were not played */
			gap = r->k - prev;
			max_gap = gap > max_gap ? gap : max_gap;
			prev = r->k + 1;
			played++;
		}
	}
	gap = total - (prev < total ? prev : total);
	max_gap = gap > max_gap ? gap : max_gap;
	f->periods = total;
	f->played = played;
	f->ran = n;
	f->played_s = (double)(played * a->period_ns) / 1e9;
	f->total_s = (double)(total * a->period_ns) / 1e9;
	f->stall_max = (double)(max_gap * a->period_ns) / ms;
	if (total) {
		f->deadlines_met_pct = 100.0 * (double)played / (double)total;
		if (slice_cpu_ns)
			f->desired_cpu_pct = 100.0 * (double)cpu /
			    ((double)total * (double)slice_cpu_ns);
	}
	if (n && lat) {
		double mean = sum / (double)n;

		for (i = 0; i < n; i++)
			sq += ((double)lat[i] - mean) * ((double)lat[i] - mean);
		qsort(lat, n, sizeof(*lat), cmp_u64);
		f->lat_mean = mean / ms;
		f->lat_sd = n > 1 ? sqrt(sq / (double)(n - 1)) / ms : 0;
		f->lat_p50 = pct(lat, n, 50) / ms;
		f->lat_p99 = pct(lat, n, 99) / ms;
		f->lat_max = (double)lat[n - 1] / ms;
	}
	free(lat);
}

uint64_t
probe_loop(struct probe_acct *a, const struct probe_ops *ops, void *ctx,
    uint64_t period_ns, uint64_t duration_ns)
{
	uint64_t t0 = ops->now(ctx), k = 0, end;

	probe_acct_init(a, period_ns, t0);
	for (;;) {
		uint64_t d = probe_acct_deadline(a, k), wake, done, cpu;

		if (duration_ns && d + period_ns > t0 + duration_ns)
			break;
		if (ops->stop(ctx))
			break;
		ops->sleep_until(ctx, d);
		if (ops->stop(ctx))
			break;
		wake = ops->now(ctx);
		cpu = ops->work(ctx);
		done = ops->now(ctx);
		if (probe_acct_period(a, k, wake, done, cpu) < 0)
			return 0;
		k = probe_acct_next(a, k, done);
	}
	if (duration_ns && !ops->stop(ctx)) {
		ops->sleep_until(ctx, t0 + duration_ns);
		end = ops->now(ctx);
		if (end > t0 + duration_ns && !ops->stop(ctx))
			end = t0 + duration_ns;
		return end;
	}
	return ops->now(ctx);
}
