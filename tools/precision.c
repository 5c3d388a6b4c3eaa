/*
 * precision.c - the spread of each headline over the runs of one result
 * folder (make bench-precision, tools/bench-precision.sh).
 *
 *	tools/precision DIR
 *
 * DIR is a label's folder of make run RUNS=n (DIR/run1, DIR/run2, ...).
 * For every .res of the first run that names a headline, one line:
 *
 *	ID HEADLINE RUNS RUN_COV ITER_COV DIST SECONDS MEANS...
 *
 * RUN_COV the coefficient of variation of the runs' means (%),
 * ITER_COV the median over the runs of the CoV of a run's iterations
 * (%, "-" with one iteration a run), DIST the run whose mean is
 * farthest from the median of the means, as its distance from the mean
 * of the other runs in their standard deviations ("-" with fewer than
 * 3 runs, "inf" when the others do not spread), SECONDS the mean
 * machine time of one run of the benchmark (its .res started to ended,
 * at least the sum of its iterations' elapsed), MEANS the runs' means.
 * Only descriptive figures: how many runs a comparison needs comes from
 * the report's own test (vmreport's runs_needed), which the script
 * reads beside these.  Runs whose .res is missing or not complete are
 * left out of that headline.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msg.h"
#include "res.h"
#include "stats.h"

#define MAXRUNS 256

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "2026-12-06T20:58:47Z" as seconds, or NAN. */
static double
iso_s(const char *s)
{
	struct tm tm;
	const char *e;

	memset(&tm, 0, sizeof(tm));
	e = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return e && !*e ? (double)timegm(&tm) : NAN;
}

/* The iterations' values of column @m of @r (NAN ones left out). */
static int
column(const struct vb_res *r, int m, double *v)
{
	int i, n = 0;

	for (i = 0; i < r->niter; i++) {
		double x = vb_res_get(r, i, m);

		if (!isnan(x))
			v[n++] = x;
	}
	return n;
}

/* The run farthest from the median, in the others' sd; NAN: < 3 runs. */
static double
outlier(const double *mean, int n)
{
	double s[MAXRUNS], o[MAXRUNS], med, far = 0;
	struct vb_desc d;
	int i, k = -1, no;

	if (n < 3)
		return NAN;
	memcpy(s, mean, (size_t)n * sizeof(*s));
	med = median(s, n);
	for (i = 0; i < n; i++)
		if (k < 0 || fabs(mean[i] - med) > far) {
			far = fabs(mean[i] - med);
			k = i;
		}
	for (i = no = 0; i < n; i++)
		if (i != k)
			o[no++] = mean[i];
	vb_describe(o, (size_t)no, 1, &d);
	if (d.sd == 0)
		return mean[k] == d.mean ? 0 : INFINITY;
	return fabs(mean[k] - d.mean) / d.sd;
}

static void
one(const char *dir, int nruns, const char *file)
{
	double mean[MAXRUNS], icov[MAXRUNS], secs = 0, v[100000];
	char path[4096], err[512], id[256], hl[64] = "";
	struct vb_desc d;
	int k, n = 0, ni = 0, m, nv;

	snprintf(id, sizeof(id), "%.*s", (int)(strlen(file) - 4), file);
	for (k = 1; k <= nruns; k++) {
		struct vb_res r;
		double t, el = 0;
		int e;

		snprintf(path, sizeof(path), "%s/run%d/%s", dir, k, file);
		if (vb_res_read(path, &r, err, sizeof(err)) < 0)
			continue;
		if (!r.headline[0] || strcmp(r.status, "complete") != 0 ||
		    (m = vb_res_metric_index(&r, r.headline)) < 0 ||
		    (nv = column(&r, m, v)) == 0) {
			vb_res_free(&r);
			continue;
		}
		snprintf(hl, sizeof(hl), "%s", r.headline);
		vb_describe(v, (size_t)nv, 1, &d);
		mean[n] = d.mean;
		if (nv >= 2)
			icov[ni++] = d.cov * 100;
		if ((e = vb_res_metric_index(&r, "elapsed")) >= 0 &&
		    (nv = column(&r, e, v)) > 0)
			while (nv-- > 0)
				el += v[nv];
		t = iso_s(r.ended) - iso_s(r.started);
		secs += isnan(t) || t < el ? el : t;
		n++;
		vb_res_free(&r);
	}
	if (n == 0)
		return;
	vb_describe(mean, (size_t)n, 1, &d);
	printf("%s %s %d ", id, hl, n);
	if (n >= 2)
		printf("%.2f ", d.cov * 100);
	else
		printf("- ");
	if (ni)
		printf("%.2f ", median(icov, ni));
	else
		printf("- ");
	d.mean = outlier(mean, n);
	if (isnan(d.mean))
		printf("- ");
	else
		printf("%.2f ", d.mean);
	printf("%.1f", secs / n);
	for (k = 0; k < n; k++)
		printf(" %.6g", mean[k]);
	putchar('\n');
}

static int
cmp_s(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char **argv)
{
	char path[4096], *names[1024];
	struct dirent *e;
	int nruns, n = 0, i;
	DIR *d;

	vb_set_progname("precision");
	if (argc != 2)
		die("usage: precision DIR (a folder of make run RUNS=n)");
	for (nruns = 0; nruns < MAXRUNS; nruns++) {
		snprintf(path, sizeof(path), "%s/run%d", argv[1], nruns + 1);
		if (!(d = opendir(path)))
			break;
		closedir(d);
	}
	if (nruns == 0)
		die("%s: no run1 folder", argv[1]);
	snprintf(path, sizeof(path), "%s/run1", argv[1]);
	if (!(d = opendir(path)))
		die_errno("cannot open %s", path);
	while ((e = readdir(d)) && n < 1024) {
		size_t l = strlen(e->d_name);

		if (l > 4 && strcmp(e->d_name + l - 4, ".res") == 0 &&
		    !(names[n++] = strdup(e->d_name)))
			die("out of memory");
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(*names), cmp_s);
	for (i = 0; i < n; i++) {
		one(argv[1], nruns, names[i]);
		free(names[i]);
	}
	return 0;
}
