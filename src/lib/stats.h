/*
 * stats.h - the small descriptive statistics the harness and runner
 * print (the report's full statistics, with GSL, live in report/).
 * NAN values (absent measurements) are skipped.
 */
#ifndef VB_STATS_H
#define VB_STATS_H

#include <stddef.h>

struct vb_desc {
	size_t n;
	double mean, sd, cov, min, max, median;
};

/* sd is the sample standard deviation (n - 1); cov = sd / |mean|. */
void vb_describe(const double *v, size_t n, size_t stride,
    struct vb_desc *d);

#endif
