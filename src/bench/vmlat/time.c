/*
 * time.c - the timing loop (see time.h).
 */
#include <math.h>
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

int
lt_measure(const struct lt_spec *s, const struct lt_body *b,
    struct lt_result *r, char *err, size_t errlen)
{
	uint64_t (*now)(void) = s->now ? s->now : vb_now_ns;
	uint64_t n = 1, t0, t;
	double *kept;
	int k = 0;

	r->intervals = 0;
	kept = calloc((size_t)s->reps, sizeof(*kept));
	if (!kept) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while (k < s->reps) {
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
		t0 = now();
		if (b->op(b->arg, n) < 0)
			goto body;
		t = now() - t0;
		if (b->post && b->post(b->arg, n) < 0)
			goto body;
		r->intervals++;
		r->n = n;
		if (t >= s->enough_ns * 95 / 100)
			kept[k++] = (double)t / (double)n;
		n = lt_grow(n, t, s->enough_ns);
	}
	r->ns_per_op = lt_median(kept, k);
	r->min_ns_per_op = kept[0];
	free(kept);
	return 0;
body:
	snprintf(err, errlen, "failed");
fail:
	free(kept);
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
