/*
 * time.h - vmlat's timing loop and the arithmetic of its figures,
 * in the manner of LMbench's benchmp(): a timed interval of n operations,
 * n grown until one interval lasts about --enough; kept intervals (at
 * least 0.95 of --enough) repeated --reps times; the figure is the
 * median time per operation of the kept intervals.
 *
 * Growth, as LMbench: after an interval of t that is shorter than 0.99
 * or longer than 1.2 of the target, n becomes n / t * 1.1 * target + 1
 * when t is above 150 us (enough to scale by), else n * 8.
 */
#ifndef VB_VMLAT_TIME_H
#define VB_VMLAT_TIME_H

#include <stddef.h>
#include <stdint.h>

struct lt_spec {
	uint64_t enough_ns;		/* the interval to aim at */
	int reps;			/* kept intervals; the median wins */
	uint64_t max_n;			/* operations per interval at most */
	uint64_t (*now)(void);		/* the clock; NULL: vb_now_ns() */
	int (*stop)(void);		/* asked to stop?  NULL: never */
};

/*
 * The work: pre() and post() surround every interval untimed (make the
 * files that op() deletes, remove what op() made); op() does n
 * operations.  Each returns 0, or -1 with a message in the body's own
 * state (the caller reports it).  pre and post may be NULL.
 */
struct lt_body {
	int (*pre)(void *arg, uint64_t n);
	int (*op)(void *arg, uint64_t n);
	int (*post)(void *arg, uint64_t n);
	void *arg;
};

struct lt_result {
	double ns_per_op;		/* median of the kept intervals */
	double min_ns_per_op;		/* the best one */
	uint64_t n;			/* operations in the last interval */
	int intervals;			/* timed, kept or not */
};

/*
 * Measure @b; 0, or -1 with a one-line reason in @err (a body that
 * failed, an operation too fast to time within max_n, a stop).
 */
int lt_measure(const struct lt_spec *s, const struct lt_body *b,
    struct lt_result *r, char *err, size_t errlen);

/* The next interval's n after one of @t_ns with @n operations. */
uint64_t lt_grow(uint64_t n, uint64_t t_ns, uint64_t enough_ns);

/* Median of @v[0..n) (sorted in place); NAN when n is 0. */
double lt_median(double *v, int n);

/* Microseconds per operation from nanoseconds per operation. */
double lt_us(double ns_per_op);
/* MB/s (10^6 bytes, as LMbench) of @bytes moved per operation. */
double lt_mbs(double bytes, double ns_per_op);
/*
 * Microseconds per unit of a difference: (@with - @without) / @units
 * in ns per operation, 0 when the difference is negative (noise).
 */
double lt_us_diff(double with_ns, double without_ns, double units);

#endif
