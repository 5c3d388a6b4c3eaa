/*
 * time.c - the timing loop (see time.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "time.h"

uint64_t
lt_grow(uint64_t n, uint64_t t_ns, uint64_t enough_ns)
{
	double next;

	if (t_ns >= enough_ns * 99 / 100 && t_ns <= enough_ns * 6 / 5)
		return n;
	if (t_ns > 150000) {
		next = (double)n / (double)t_ns * 1.1 * (double)enough_ns + 1;
		return next < 1 ? 1 : (uint64_t)next;
	}
	return n * 8;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
lt_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A kept interval: its time per operation and its CPU check. */
struct kept {
	double per_op;
	uint64_t ref;			/* 0 without the check */
};

static int
cmp_ref(const void *a, const void *b)
{
	uint64_t x = ((const struct kept *)a)->ref;
	uint64_t y = ((const struct kept *)b)->ref;

	return x < y ? -1 : x > y;
}

/* Kept intervals whose reference is within LT_REF_TOL of the best. */
static int
steady(const struct kept *v, int k)
{
	uint64_t best = UINT64_MAX;
	int i, n = 0;

	for (i = 0; i < k; i++)
		if (v[i].ref < best)
			best = v[i].ref;
	for (i = 0; i < k; i++)
		if ((double)v[i].ref <= LT_REF_TOL * (double)best)
			n++;
	return n;
}

/* Has the loop kept what it needs (see time.h)? */
static int
enough_kept(const struct lt_spec *s, const struct kept *v, int k, int cap)
{
	if (!s->ref)
		return k >= s->reps;
	return k >= cap || steady(v, k) >= s->reps;
}

uint64_t
lt_cpu_ref(void)
{
	uint64_t t0 = vb_now_ns(), x = t0;
	int i;

	for (i = 0; i < 8192; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ __volatile__("" : "+r"(x));
	}
	__asm__ __volatile__("" :: "r"(x));
	return vb_now_ns() - t0;
}

int
lt_measure(const struct lt_spec *s, const struct lt_body *b,
    struct lt_result *r, char *err, size_t errlen)
{
	uint64_t (*now)(void) = s->now ? s->now : vb_now_ns;
	uint64_t n = 1, t0, t, ref = 0, ref2;
	int cap = s->ref ? LT_REF_MAX(s->reps) : s->reps, k = 0, use, i;
	struct kept *kept;
	double *v;

	r->intervals = 0;
	r->slow = 0;
	kept = calloc((size_t)cap, sizeof(*kept));
	v = calloc((size_t)cap, sizeof(*v));
	if (!kept || !v) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	while (!enough_kept(s, kept, k, cap)) {
		if (s->stop && s->stop()) {
			snprintf(err, errlen, "stopped");
			goto fail;
		}
		if (n > s->max_n) {
			snprintf(err, errlen, "too fast to time: %llu "
			    "operations take less than %.0f us",
			    (unsigned long long)s->max_n,
			    (double)s->enough_ns / 1e3);
			goto fail;
		}
		if (b->pre && b->pre(b->arg, n) < 0)
			goto body;
		if (s->ref)
			ref = s->ref();
		t0 = now();
		if (b->op(b->arg, n) < 0)
			goto body;
		t = now() - t0;
		if (s->ref && (ref2 = s->ref()) > ref)
			ref = ref2;
		if (b->post && b->post(b->arg, n) < 0)
			goto body;
		r->intervals++;
		r->n = n;
		if (t >= s->enough_ns * 95 / 100) {
			kept[k].per_op = (double)t / (double)n;
			kept[k++].ref = ref;
		}
		n = lt_grow(n, t, s->enough_ns);
	}
	/* the check: the reps steadiest; without it, the reps kept */
	if (s->ref)
		qsort(kept, (size_t)k, sizeof(*kept), cmp_ref);
	use = k < s->reps ? k : s->reps;
	for (i = 0; i < use; i++)
		v[i] = kept[i].per_op;
	r->slow = k - use;
	r->ns_per_op = lt_median(v, use);
	r->min_ns_per_op = v[0];
	free(kept);
	free(v);
	return 0;
body:
	snprintf(err, errlen, "failed");
fail:
	free(kept);
	free(v);
	return -1;
}

double
lt_us(double ns_per_op)
{
	return ns_per_op / 1e3;
}

double
lt_mbs(double bytes, double ns_per_op)
{
	return ns_per_op > 0 ? bytes / (ns_per_op / 1e9) / 1e6 : NAN;
}

double
lt_us_diff(double with_ns, double without_ns, double units)
{
	double d = with_ns - without_ns;

	return d > 0 && units > 0 ? d / units / 1e3 : 0;
}
