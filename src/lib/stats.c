/*
 * stats.c - small statistics: mean, standard deviation, CoV (see stats.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
vb_describe(const double *v, size_t n, size_t stride, struct vb_desc *d)
{
	double *sorted, sum = 0, ss = 0;
	size_t i, k = 0;

	memset(d, 0, sizeof(*d));
	d->mean = d->sd = d->cov = d->min = d->max = d->median = NAN;
	sorted = malloc((n ? n : 1) * sizeof(double));
	if (!sorted)
		return;
	for (i = 0; i < n; i++)
		if (!isnan(v[i * stride]))
			sorted[k++] = v[i * stride];
	d->n = k;
	if (k == 0)
		goto out;
	qsort(sorted, k, sizeof(double), cmp_double);
	for (i = 0; i < k; i++)
		sum += sorted[i];
	d->mean = sum / (double)k;
	/* two-pass variance: no cancellation for large, close values */
	for (i = 0; i < k; i++)
		ss += (sorted[i] - d->mean) * (sorted[i] - d->mean);
	d->sd = k > 1 ? sqrt(ss / (double)(k - 1)) : 0;
	d->cov = d->mean != 0 ? d->sd / fabs(d->mean) : NAN;
	d->min = sorted[0];
	d->max = sorted[k - 1];
	d->median = k % 2 ? sorted[k / 2] :
	    (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
out:
	free(sorted);
}
