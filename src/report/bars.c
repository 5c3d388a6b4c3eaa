/*
 * bars.c - ASCII bar charts (bars.h): Hron's chart, one row per
 * kernel, best first, a row of '*' scaled so the largest fills the
 * width, the value with its unit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bars.h"
#include "fmt.h"
#include "util.h"

struct bar {
	const char *label;
	double v;
};

/* Bars with no value (NaN) last; the others largest first. */
static int
cmp_bar_desc(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	if (isnan(x->v) || isnan(y->v))
		return isnan(x->v) - isnan(y->v);
	return (x->v < y->v) - (x->v > y->v);
}

/* The same, smallest first (a metric where lower is better). */
static int
cmp_bar_asc(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	if (isnan(x->v) || isnan(y->v))
		return isnan(x->v) - isnan(y->v);
	return (x->v > y->v) - (x->v < y->v);
}

/*
 * A bar's value: 0 as every view prints it, else @fmt; a value that
 * @fmt rounds to zero (1e-300: "0.000") with three digits, as it is.
 */
static char *
bar_num(char *buf, size_t len, const char *fmt, double v)
{
	if (v == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	fmt_num(buf, len, fmt, v);
	if (isfinite(v) && !buf[strcspn(buf, "123456789")])
		snprintf(buf, len, "%.3g", v);
	return buf;
}

void
bars_print(FILE *f, const char *title, int n, const char *const *labels,
    const double *vals, const char *unit, int width, int ascending)
{
	struct bar *b = vb_xcalloc((size_t)n, sizeof(*b));
	char num[64], fmt[8], (*cut)[32] = vb_xcalloc((size_t)(n ? n : 1),
	    sizeof(*cut));
	double max = 0;
	int i, labw = 8, valw = 0, barw, dec;

	for (i = 0; i < n; i++) {
		b[i].v = vals[i];
		if ((int)strlen(labels[i]) + 2 > labw)
			labw = (int)strlen(labels[i]) + 2;
		if (isfinite(vals[i]) && fabs(vals[i]) > max)
			max = fabs(vals[i]);
	}
	if (labw > 24)
		labw = 24;
	for (i = 0; i < n; i++)
		b[i].label = fmt_cut(cut[i], sizeof(cut[i]), labels, n, i,
		    labw - 1);
	dec = max >= 10 ? 1 : max >= 1 ? 2 : 3;
	snprintf(fmt, sizeof(fmt), "%%.%df", dec);
	for (i = 0; i < n; i++) {
		int w = (int)strlen(bar_num(num, sizeof(num), fmt, vals[i])) +
		    1 + (int)strlen(unit);

		if (w > valw)
			valw = w;
	}
	qsort(b, (size_t)n, sizeof(*b), ascending ? cmp_bar_asc :
	    cmp_bar_desc);
	barw = width - labw - valw - 2;
	if (barw < 10)
		barw = 10;
	if (title)
		fprintf(f, "%s\n", title);
	for (i = 0; i < n; i++) {
		int stars;

		fprintf(f, "%-*.*s", labw, labw - 1, b[i].label);
		if (isnan(b[i].v)) {
			fprintf(f, "missing\n");
			continue;
		}
		if (!isfinite(b[i].v)) {
			fprintf(f, "- %s\n", unit);
			continue;
		}
		stars = max > 0 ? (int)lround(fabs(b[i].v) / max * barw) : 0;
		if (stars == 0 && b[i].v != 0)
			stars = 1;
		while (stars-- > 0)
			fputc('*', f);
		fprintf(f, " %s %s\n", bar_num(num, sizeof(num), fmt, b[i].v),
		    unit);
	}
	free(b);
	free(cut);
}

void
bars_headline(FILE *f, const struct rl_set *s, const struct model_row *r,
    int width)
{
	const char **lab = vb_xcalloc((size_t)s->nk, sizeof(char *));
	double *v = vb_xcalloc((size_t)s->nk, sizeof(double));
	char title[256];
	int i;

	for (i = 0; i < s->nk; i++) {
		lab[i] = s->k[i].label;
		v[i] = r->d[i].n ? r->d[i].mean : NAN;
	}
	snprintf(title, sizeof(title), "%s, mean of runs (%s)", r->name,
	    r->dir == VB_LOWER ? "lower is better" : r->dir == VB_HIGHER ?
	    "higher is better" : "information");
	bars_print(f, title, s->nk, lab, v, r->unit, width,
	    r->dir == VB_LOWER);
	free(lab);
	free(v);
}
