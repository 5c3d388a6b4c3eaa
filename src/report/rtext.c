/*
 * rtext.c - the text views: the per-benchmark comparison tables, the
 * detailed statistics, derived vmstat figures, ASCII bar charts, the
 * LMbench-style summaries, and the regression gate.  Everything fits
 * the width given (80 columns by default); kernels that do not fit
 * continue in another block, which repeats the baseline column.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "report.h"
#include "util.h"


/* ---- rows: one metric of one benchmark, every kernel ---- */

static int
find_row(struct rt_row *rows, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return i;
	return -1;
}

static int
id_index(const struct rl_set *s, const char *id)
{
	int lo = 0, hi = s->nids - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(id, s->ids[mid]);

		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

/* A figure every benchmark's default view shows (see struct rt_row). */
static int
common_figure(const char *name)
{
	static const char *const common[] = {
		"elapsed", "user", "sys", "majflt", "pswpin", "pswpout",
	};
	size_t i;

	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (strcmp(name, common[i]) == 0)
			return 1;
	return 0;
}

static int
build_rows(const struct rl_set *s, const char *id, struct rt_row **out)
{
	struct rt_row *rows = NULL;
	int n = 0, cap = 0, i, j, m, it;

	for (i = 0; i < s->nk; i++) {
		const struct vb_res *r = rl_find(&s->k[i], id);

		if (!r)
			continue;
		for (j = 0; j < r->nmetrics; j++) {
			if ((m = find_row(rows, n, r->metrics[j].name)) >= 0) {
				rows[m].key |= r->metrics[j].key;
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 32;
				rows = realloc(rows, (size_t)cap *
				    sizeof(*rows));
				if (!rows)
					die("out of memory");
			}
			rows[n].name = r->metrics[j].name;
			rows[n].unit = r->metrics[j].unit;
			rows[n].dir = r->metrics[j].dir;
			rows[n].scope = rt_scope_of(rows[n].name);
			rows[n].integral = 1;
			rows[n].key = common_figure(rows[n].name);
			rows[n].key |= r->metrics[j].key;
			rows[n].d = vb_xcalloc((size_t)s->nk,
			    sizeof(struct rs_desc));
			rows[n].c = vb_xcalloc((size_t)s->nk,
			    sizeof(struct rs_cmp));
			n++;
		}
	}
	for (i = 0; i < s->nk; i++) {
		const struct vb_res *r = rl_find(&s->k[i], id);

		for (j = 0; j < n; j++) {
			/* the same column as the last kernel, most often */
			m = -1;
			if (r && j < r->nmetrics &&
			    !strcmp(r->metrics[j].name, rows[j].name))
				m = j;
			else if (r)
				m = vb_res_metric_index(r, rows[j].name);
			if (m < 0) {
				rs_describe(NULL, 0, 1, &rows[j].d[i]);
				continue;
			}
			rs_describe(r->vals + m, r->niter, r->nmetrics,
			    &rows[j].d[i]);
			for (it = 0; it < r->niter; it++) {
				double v = vb_res_get(r, it, m);

				if (!isnan(v) && v != floor(v))
					rows[j].integral = 0;
			}
		}
	}
	for (j = 0; j < n; j++)
		for (i = 1; i < s->nk; i++) {
			rs_compare(&rows[j].d[0], &rows[j].d[i], rows[j].dir,
			    &rows[j].c[i]);
			rs_mark(&rows[j].d[0], &rows[j].d[i], rows[j].dir,
			    s->min_change, &rows[j].c[i]);
		}
	if ((j = rt_headline(s, id, rows, n)) >= 0)
		rows[j].key = 1;
	*out = rows;
	return n;
}

int
rt_rows(const struct rl_set *s, const char *id, struct rt_row **out)
{
	int i = id_index(s, id);

	if (i < 0 || !s->rows)
		die("bug: rt_rows(%s) before rl_index()", id);
	if (!s->rows[i])
		s->nrows[i] = build_rows(s, id, &s->rows[i]);
	*out = s->rows[i];
	return s->nrows[i];
}

void
rt_free_rows(struct rt_row *rows, int n, int nk)
{
	(void)rows;
	(void)n;
	(void)nk;
}

void
rt_free_cache(struct rl_set *s)
{
	int i, j;

	for (i = 0; s->rows && i < s->nids; i++) {
		for (j = 0; j < s->nrows[i]; j++) {
			free(s->rows[i][j].d);
			free(s->rows[i][j].c);
		}
		free(s->rows[i]);
	}
	free(s->rows);
	free(s->nrows);
	s->rows = NULL;
	s->nrows = NULL;
}

/* ---- number formatting ---- */

/* Decimals for a row: about five significant digits, at most four. */
static int
row_decimals(const struct rt_row *r, int nk)
{
	double big = 0;
	int i, mag;

	for (i = 0; i < nk; i++)
		if (r->d[i].n && isfinite(r->d[i].mean) &&
		    fabs(r->d[i].mean) > big)
			big = fabs(r->d[i].mean);
	if (big == 0)
		return 0;
	if (r->integral)
		return big >= 1000 ? 0 : 1;
	mag = (int)floor(log10(big));
	mag = 4 - mag;
	return mag < 0 ? 0 : mag > 4 ? 4 : mag;
}

static char *
fmt_num(char *buf, size_t len, double v, int dec)
{
	int p;

	if (!isfinite(v) || v == 0) {	/* 0 in one form in every view */
		snprintf(buf, len, "%s", v == 0 ? "0" : "-");
		return buf;
	}
	/* at most 9 characters: the table columns count on it */
	while (dec > 0 && snprintf(buf, len, "%.*f", dec, v) > 9)
		dec--;
	if (snprintf(buf, len, "%.*f", dec, v) > 9)
		for (p = 3; p >= 0; p--)
			if (snprintf(buf, len, "%.*e", p, v) <= 9)
				break;
	return buf;
}

static char *
fmt_pct(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "n/a");
	else if (fabs(p) >= 9999.5)
		snprintf(buf, len, "%s", p < 0 ? "<-9999%" : ">+9999%");
	else if (fabs(p) >= 1000)
		snprintf(buf, len, "%+.0f%%", p);
	else
		snprintf(buf, len, "%+.2f%%", p);
	return buf;
}

char *
rt_num(char *buf, size_t len, const char *fmt, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e15)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

char *
rt_short(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v == 0)	/* as the tables print it */
		snprintf(buf, len, "0");
	else if (a < 10)
		snprintf(buf, len, "%.2f", v);
	else if (a < 100)
		snprintf(buf, len, "%.1f", v);
	else if (a < 10000)
		snprintf(buf, len, "%.0f", v);
	else if (a < 1e6)
		snprintf(buf, len, "%.1fK", v / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (a < 1e15)
		snprintf(buf, len, "%.1fG", v / 1e9);
	else
		snprintf(buf, len, "%.2e", v);
	return buf;
}

/* Print @s cut to @w columns, left- or right-aligned. */
static void
cell(FILE *f, const char *s, int w, int left)
{
	fprintf(f, left ? "%-*.*s" : "%*.*s", w, w, s);
}

/* Print @text wrapped at @width, continuation lines indented by @ind. */
static void
wrap(FILE *f, const char *text, int width, int ind)
{
	const char *p = text;
	int col = 0, first = 1;

	while (*p) {
		const char *e;
		int n;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		e = p + strcspn(p, " ");
		n = (int)(e - p);
		if (!first && col + 1 + n > width) {
			fprintf(f, "\n%*s", ind, "");
			col = ind;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, (size_t)n, f);
		col += n;
		first = 0;
		p = e;
	}
	fputc('\n', f);
}

static int
kernel_has(const struct rl_set *s, int k, const char *id)
{
	return rl_find(&s->k[k], id) != NULL;
}

/* A metric is worth a row unless every run of every kernel is 0. */
static int
all_zero(const struct rt_row *r, int nk)
{
	int i, seen = 0;

	/* a metric no kernel measured ("-" throughout) is absent, not zero */
	for (i = 0; i < nk; i++) {
		if (r->d[i].n && (r->d[i].min != 0 || r->d[i].max != 0))
			return 0;
		seen += r->d[i].n > 0;
	}
	return seen > 0;
}

/* No kernel measured it (a counter this kernel or cgroup lacks). */
static int
unmeasured(const struct rt_row *r, int nk)
{
	int i;

	for (i = 0; i < nk; i++)
		if (r->d[i].n)
			return 0;
	return 1;
}

/* The CoV of @d, infinite for a mean of 0 with spread. */
static double
cov_of(const struct rs_desc *d)
{
	if (d->n > 1 && d->mean == 0 && d->sd > 0)
		return INFINITY;
	return d->cov;
}

int
rt_noisy(const struct rs_desc *d, double thr)
{
	return d->n > 1 && cov_of(d) > thr;
}

static double
max_cov(const struct rt_row *r, int nk, int *who)
{
	double m = 0;
	int i;

	*who = -1;
	for (i = 0; i < nk; i++)
		if (r->d[i].n > 1 && !isnan(cov_of(&r->d[i])) &&
		    cov_of(&r->d[i]) > m) {
			m = cov_of(&r->d[i]);
			*who = i;
		}
	return m;
}

/* Has some kernel a CoV of @r (two runs, a mean not 0 or spread)? */
static int
has_cov(const struct rt_row *r, int nk)
{
	int i;

	for (i = 0; i < nk; i++)
		if (r->d[i].n > 1 && !isnan(cov_of(&r->d[i])))
			return 1;
	return 0;
}

/*
 * The fewest runs of any kernel for @r: 0 when a kernel has none (a
 * benchmark or metric missing from its folder), so no change is
 * detectable.
 */
static int
min_n(const struct rt_row *r, int nk)
{
	int i, n = r->d[0].n;

	for (i = 1; i < nk; i++)
		if (r->d[i].n < n)
			n = r->d[i].n;
	return n;
}

/* ---- the comparison table ---- */

#define VALW 9
#define CMPW 22		/* "   3398.52 (  +3.02%)*": a blank, 9, 12 */

/* The default view's "== ID ==", left of the table's kernel labels. */
static const char *table_title;
/* The default view's noise note: the detectable change without the CoV. */
static int short_notes;

/*
 * Metrics down, kernels across: the baseline's mean, then each other
 * kernel's mean with the change (positive = better) and '*' when the
 * difference is marked (rs_mark(): p < 0.05 and at least the minimum
 * change).  '~' after a metric name: noisy (CoV above the threshold in
 * some kernel); "[system]" or "[cgroup]" at the end of the name column:
 * whose counter it is (rt_scope_of()).
 */
void
rt_table(FILE *f, const struct rl_set *s, const char *id,
    struct rt_row *rows, int nrows, const struct rt_opts *o)
{
	char num[64], pct[32], buf[128];
	int namew = 6, unitw = 4, basew, i, j, first, last, perblk, used;
	int shown = 0;

	for (j = 0; j < nrows; j++) {
		int who;

		if (all_zero(&rows[j], s->nk) || unmeasured(&rows[j], s->nk))
			continue;
		shown++;
		i = (int)strlen(rows[j].name) +
		    (max_cov(&rows[j], s->nk, &who) > o->noisy);
		if (*rt_scope_tag(rows[j].scope))
			i += 1 + (int)strlen(rt_scope_tag(rows[j].scope));
		if (i > namew)
			namew = i;
		i = (int)strlen(rows[j].unit);
		if (i > unitw)
			unitw = i;
	}
	if (!shown) {
		if (table_title)
			fprintf(f, "%s\n", table_title);
		fprintf(f, "  (every metric is zero or absent)\n");
		return;
	}
	/* the default view's title fills the header's left part */
	if (table_title && (int)strlen(table_title) > namew + 1 + unitw)
		namew = (int)strlen(table_title) - 1 - unitw;
	basew = VALW + 1;
	if ((int)strlen(s->k[0].label) + 1 > basew)
		basew = (int)strlen(s->k[0].label) + 1;
	if (basew > CMPW)
		basew = CMPW;
	used = namew + 1 + unitw + basew;
	perblk = (o->width - used) / CMPW;
	if (perblk < 1)
		perblk = 1;
	for (first = 1; first < s->nk || first == 1; first += perblk) {
		last = first + perblk;
		if (last > s->nk)
			last = s->nk;
		/* header: kernel labels, '!' marks an incomplete run */
		fprintf(f, "%-*s", namew + 1 + unitw, table_title &&
		    first == 1 ? table_title : "");
		snprintf(buf, sizeof(buf), "%s%s", s->k[0].label,
		    rl_find(&s->k[0], id) && strcmp(rl_find(&s->k[0],
		    id)->status, "complete") ? "!" : "");
		cell(f, buf, basew, 0);
		for (i = first; i < last; i++) {
			const struct vb_res *r = rl_find(&s->k[i], id);

			snprintf(buf, sizeof(buf), "%s%s", s->k[i].label,
			    r && strcmp(r->status, "complete") ? "!" : "");
			cell(f, buf, CMPW - 1, 0);
			fputc(' ', f);
		}
		fputc('\n', f);
		for (j = 0; j < nrows; j++) {
			struct rt_row *r = &rows[j];
			int dec = row_decimals(r, s->nk), who;

			if (all_zero(r, s->nk) || unmeasured(r, s->nk))
				continue;
			snprintf(buf, sizeof(buf), "%s%s", r->name,
			    max_cov(r, s->nk, &who) > o->noisy ? "~" : "");
			/* whose counter: the tag ends the name column */
			cell(f, buf, namew - (int)strlen(rt_scope_tag(r->scope)),
			    1);
			fputs(rt_scope_tag(r->scope), f);
			fputc(' ', f);
			cell(f, r->unit, unitw, 1);
			if (!kernel_has(s, 0, id))
				cell(f, "missing", basew, 0);
			else
				cell(f, fmt_num(num, sizeof(num), r->d[0].mean,
				    dec), basew, 0);
			for (i = first; i < last; i++) {
				if (!kernel_has(s, i, id)) {
					cell(f, "missing", CMPW - 1, 0);
					fputc(' ', f);
					continue;
				}
				if (!r->d[i].n) {
					cell(f, "-", CMPW - 1, 0);
					fputc(' ', f);
					continue;
				}
				fmt_num(num, sizeof(num), r->d[i].mean, dec);
				fmt_pct(pct, sizeof(pct), r->c[i].pct);
				snprintf(buf, sizeof(buf), "%s (%8s)", num,
				    pct);
				cell(f, buf, CMPW - 1, 0);
				fputc(r->c[i].sig && r->dir != VB_INFO ? '*' :
				    ' ', f);
			}
			fputc('\n', f);
		}
		if (last >= s->nk)
			break;
		fputc('\n', f);
	}
}

/* Notes under a table: omitted rows, noisy metrics, run status. */
/*
 * hyperfine's two warnings, for the headline figure and elapsed: runs
 * whose modified Z-score exceeds 3.5 (an outlier: an interruption, other
 * load; needs 5 runs, see rs_modz()), and a first run over 1.5 times the median of the others (cold
 * caches; only with 3 runs or more).
 */
static void
outlier_notes(FILE *f, const struct rl_set *s, const char *id,
    struct rt_row *rows, int nrows, const struct rt_opts *o)
{
	struct vb_buf line = VB_BUF_INIT, cold = VB_BUF_INIT;
	const char *names[2] = { NULL, "elapsed" };
	int h, k, i, pass, nout = 0, ncold = 0;
	double z[256], rest[256];
	char num[32];
	struct rs_desc d;

	h = rt_headline(s, id, rows, nrows);
	if (h >= 0 && strcmp(rows[h].name, "elapsed"))
		names[0] = rows[h].name;
	vb_buf_printf(&line, "outliers (modified Z-score > 3.5):");
	vb_buf_printf(&cold, "first run slower than the others' median "
	    "(cold caches?):");
	for (pass = 0; pass < 2; pass++) {
		if (!names[pass] || find_row(rows, nrows, names[pass]) < 0)
			continue;
		for (k = 0; k < s->nk; k++) {
			const struct vb_res *r = rl_find(&s->k[k], id);
			int m = r ? vb_res_metric_index(r, names[pass]) : -1;

			if (m < 0 || r->niter > 256)
				continue;
			if (rs_modz(r->vals + m, r->niter, r->nmetrics, z) == 0)
				for (i = 0; i < r->niter; i++)
					if (fabs(z[i]) > 3.5)
						vb_buf_printf(&line,
						    "%s %s %s run %d (%s)",
						    nout++ ? "," : "",
						    names[pass], s->k[k].label,
						    i + 1, rt_num(num,
						    sizeof(num), "%.1f", z[i]));
			if (pass != 1 || r->niter < 3)
				continue;
			for (i = 1; i < r->niter; i++)
				rest[i - 1] = vb_res_get(r, i, m);
			rs_describe(rest, r->niter - 1, 1, &d);
			if (d.n && vb_res_get(r, 0, m) > 1.5 * d.median)
				vb_buf_printf(&cold, "%s %s %sx",
				    ncold++ ? "," : "", s->k[k].label,
				    rt_num(num, sizeof(num), "%.1f",
				    vb_res_get(r, 0, m) / d.median));
		}
	}
	if (nout)
		wrap(f, vb_buf_str(&line), o->width, 4);
	if (ncold)
		wrap(f, vb_buf_str(&cold), o->width, 4);
	vb_buf_free(&line);
	vb_buf_free(&cold);
}

/*
 * The metrics of @rows that are zero in every run, or (@absent) that no
 * run measured, as one wrapped line after @title; nothing if none.
 */
static void
name_list(FILE *f, const char *title, struct rt_row *rows, int nrows,
    int nk, int absent, int width)
{
	struct vb_buf line = VB_BUF_INIT;
	int j, n = 0;

	vb_buf_printf(&line, "%s", title);
	for (j = 0; j < nrows; j++)
		if (absent ? unmeasured(&rows[j], nk) :
		    all_zero(&rows[j], nk)) {
			n++;
			vb_buf_printf(&line, " %s", rows[j].name);
		}
	if (n)
		wrap(f, vb_buf_str(&line), width, 2);
	vb_buf_free(&line);
}

/* One metric of the noise note: "name CoV%: change%", or its SD. */
static void
noise_item(struct vb_buf *line, const struct rt_row *r, int nk, int cov_too)
{
	char a[32], b[32];
	int who, n = min_n(r, nk);
	double cov = max_cov(r, nk, &who);

	rt_num(b, sizeof(b), "%.0f", ceil(rs_detectable(cov, n) * 100));
	if (isinf(cov))		/* a mean of 0: no CoV, its SD */
		vb_buf_printf(line, "%s mean 0, SD %s: -", r->name,
		    rt_num(a, sizeof(a), "%.4g", r->d[who].sd));
	else if (cov_too)
		vb_buf_printf(line, "%s %s%%: %s%s", r->name, rt_num(a,
		    sizeof(a), "%.1f", cov * 100), b, n > 1 ? "%" : "");
	else
		vb_buf_printf(line, "%s %s%s", r->name, b, n > 1 ? "%" : "");
}

/*
 * Noisy metrics: the largest CoV of any kernel, and the smallest change
 * the runs could have detected, n = 15.7 (CoV/delta)^2 solved for delta
 * with the fewest runs of any kernel for that metric, rounded up to a
 * whole percent ("-" with fewer than two runs on a side, none on one,
 * or a mean of 0: its SD is shown).  The header names n when every
 * metric listed has the same, else each metric carries its own.  The
 * compare view's default (short_notes) gives one line: the change the
 * headline @hl's runs could detect, whether noisy or not; the ~ in the
 * table names the noisy metrics, --detail gives each one's figure.
 */
static void
noise_note(FILE *f, const struct rl_set *s, struct rt_row *rows, int nrows,
    int hl, const struct rt_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	char a[32];
	int j, nz = 0, n0 = -1, same = 1, who;

	for (j = 0; j < nrows; j++) {
		int n;

		if (all_zero(&rows[j], s->nk) ||
		    !(max_cov(&rows[j], s->nk, &who) > o->noisy))
			continue;
		n = min_n(&rows[j], s->nk);
		if (n0 >= 0 && n != n0)
			same = 0;
		n0 = n;
	}
	if (n0 < 0)
		return;
	if (short_notes && hl >= 0 && !all_zero(&rows[hl], s->nk) &&
	    has_cov(&rows[hl], s->nk)) {
		n0 = min_n(&rows[hl], s->nk);
		vb_buf_printf(&line, "~ detectable with %s run%s a side: "
		    "headline ", rt_num(a, sizeof(a), "%.0f", n0),
		    n0 == 1 ? "" : "s");
		noise_item(&line, &rows[hl], s->nk, 0);
		wrap(f, vb_buf_str(&line), o->width, 4);
		vb_buf_free(&line);
		return;
	}
	if (short_notes)
		vb_buf_printf(&line, "~ detectable with %s run%s a side:",
		    same ? rt_num(a, sizeof(a), "%.0f", n0) : "n",
		    same && n0 == 1 ? "" : "s");
	else
		vb_buf_printf(&line, "~ noisy, CoV > %.0f%% (largest CoV: "
		    "smallest change detectable with %s run%s a side):",
		    o->noisy * 100, same ? rt_num(a, sizeof(a), "%.0f", n0) :
		    "n", same && n0 == 1 ? "" : "s");
	for (j = 0; j < nrows; j++) {
		struct rt_row *r = &rows[j];

		if (all_zero(r, s->nk) || !(max_cov(r, s->nk, &who) >
		    o->noisy))
			continue;
		vb_buf_printf(&line, "%s ", nz++ ? "," : "");
		noise_item(&line, r, s->nk, !short_notes);
		if (!same)
			vb_buf_printf(&line, " (n %d)", min_n(r, s->nk));
	}
	wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
}

void
rt_notes(FILE *f, const struct rl_set *s, const char *id,
    struct rt_row *rows, int nrows, const struct rt_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	int i;

	name_list(f, "zero in every run:", rows, nrows, s->nk, 0, o->width);
	name_list(f, "not measured (\"-\" in every run):", rows, nrows,
	    s->nk, 1, o->width);
	noise_note(f, s, rows, nrows, rt_headline(s, id, rows, nrows), o);
	outlier_notes(f, s, id, rows, nrows, o);
	for (i = 0; i < s->nk; i++) {
		const struct vb_res *r = rl_find(&s->k[i], id);

		if (!r)
			fprintf(f, "%s: no %s results (missing)\n",
			    s->k[i].label, id);
		else if (strcmp(r->status, "complete"))
			fprintf(f, "! %s: run %s, %d iteration%s kept\n",
			    s->k[i].label, strcmp(r->status, "running") ?
			    r->status : "interrupted (status running)",
			    r->niter, r->niter == 1 ? "" : "s");
		if (r && r->note) {
			vb_buf_printf(&line, "! %s: %s", s->k[i].label,
			    r->note);
			wrap(f, vb_buf_str(&line), o->width, 4);
			vb_buf_free(&line);
		}
	}
}

/* ---- detailed statistics of one metric ---- */

#define DETW 14

/* Line @l of the detail block for kernel @k (see lab[] below). */
static void
detail_cell(char *num, size_t len, int l, const struct rt_row *r, int k,
    int dec)
{
	const struct rs_desc *d = &r->d[k];
	const struct rs_cmp *c = &r->c[k];
	const double v[] = { 0, d->mean, d->sd, d->cov * 100, d->min,
		d->median, d->max, d->ci_lo, d->ci_hi };

	if (l == 0)
		snprintf(num, len, "%d", d->n);
	else if (l < 9)
		fmt_num(num, len, v[l], l == 2 ? dec + 1 : l == 3 ? 2 : dec);
	else if (l == 9) {
		fmt_pct(num, len, c->pct);
		if (c->sig && r->dir != VB_INFO)
			snprintf(num + strlen(num), len - strlen(num), "*");
	} else if (l == 10 && !isnan(c->w.p) && c->w.p < 0.0001)
		snprintf(num, len, "<0.0001");
	else if (l == 10)
		fmt_num(num, len, c->w.p, 4);
	else if (l == 11)
		fmt_num(num, len, c->w.df, 2);
	else if (l == 12)
		fmt_num(num, len, c->ratio.r, 4);
	else if (c->ratio.unbounded)
		snprintf(num, len, "unbounded");
	else
		fmt_num(num, len, l == 13 ? c->ratio.lo : c->ratio.hi, 4);
}

static void
detail_block(FILE *f, const struct rl_set *s, struct rt_row *r,
    const struct rt_opts *o)
{
	static const char *const lab[] = {
		"n", "mean", "sd", "CoV%", "min", "median", "max",
		"95% CI low", "95% CI high", "change%", "Welch p", "Welch df",
		"ratio", "ratio CI low", "ratio CI high",
	};
	char num[64];
	int dec = row_decimals(r, s->nk), perblk, first, last, i, l;

	for (i = 1; i < s->nk; i++)
		rs_cmp_ratio(&r->d[0], &r->d[i], &r->c[i]);
	fprintf(f, "%s (%s, %s)\n", r->name, r->unit,
	    r->dir == VB_LOWER ? "lower is better" : r->dir == VB_HIGHER ?
	    "higher is better" : "information only");
	perblk = (o->width - 13) / DETW;
	if (perblk < 1)
		perblk = 1;
	for (first = 0; first < s->nk; first += perblk) {
		last = first + perblk > s->nk ? s->nk : first + perblk;
		fprintf(f, "%-13s", "");
		for (i = first; i < last; i++)
			cell(f, s->k[i].label, DETW, 0);
		fputc('\n', f);
		for (l = 0; l < (int)(sizeof(lab) / sizeof(lab[0])); l++) {
			if (l >= 9 && s->nk == 1)
				break;	/* nothing to compare with */
			fprintf(f, "%-13s", lab[l]);
			for (i = first; i < last; i++) {
				const struct rs_desc *d = &r->d[i];

				if (l >= 9 && i == 0) {
					cell(f, "", DETW, 0);
					continue;
				}
				detail_cell(num, sizeof(num), l, r, i, dec);
				if (d->n == 0 && l != 0)
					snprintf(num, sizeof(num), "-");
				cell(f, num, DETW, 0);
			}
			fputc('\n', f);
		}
		if (last < s->nk)
			fputc('\n', f);
	}
}

/* ---- derived vmstat figures ---- */

/* Sum of metric @name over every iteration; NAN when never measured. */
static double
msum(const struct vb_res *r, const char *name)
{
	double sum = 0;
	int m, i, seen = 0;

	if (!r || (m = vb_res_metric_index(r, name)) < 0)
		return NAN;
	for (i = 0; i < r->niter; i++) {
		double v = vb_res_get(r, i, m);

		if (!isnan(v)) {
			sum += v;
			seen++;
		}
	}
	return seen ? sum : NAN;
}

static double
ratio_or_nan(double a, double b)
{
	return isnan(a) || isnan(b) || b == 0 ? NAN : a / b;
}

enum { DV_SWPIN, DV_SWPOUT, DV_EFF_K, DV_EFF_D, DV_EFF_ALL, DV_SCANRATE,
	DV_DSHARE, DV_N };

/*
 * The figures kernel developers quote, from the per-iteration deltas
 * in the .res file, as ratios of sums over all iterations (not means
 * of per-iteration ratios, which an iteration with few scans would
 * dominate): swap in/out per run (kB), reclaim efficiency = pages
 * stolen / pages scanned (%, kswapd and direct, and of all reclaim:
 * pgsteal_total / pgscan_total, which alone sees reclaim forced by a
 * memory cgroup's limit), scan rate = pages scanned (all reclaim where
 * the kernel counts it, else kswapd + direct) / elapsed seconds, direct
 * share = direct scans / (kswapd + direct) scans (%).
 */
static void
derived(const struct vb_res *r, double *v)
{
	double sk = msum(r, "pgscan_kswapd"), sd = msum(r, "pgscan_direct");
	double tk = msum(r, "pgsteal_kswapd"), td = msum(r, "pgsteal_direct");
	double at = msum(r, "pgscan_total"), as = msum(r, "pgsteal_total");
	double el = msum(r, "elapsed"), sc;

	v[DV_SWPIN] = r ? msum(r, "pswpin") / r->niter : NAN;
	v[DV_SWPOUT] = r ? msum(r, "pswpout") / r->niter : NAN;
	v[DV_EFF_K] = ratio_or_nan(tk, sk) * 100;
	v[DV_EFF_D] = ratio_or_nan(td, sd) * 100;
	v[DV_EFF_ALL] = ratio_or_nan(as, at) * 100;
	sc = isnan(sk) ? sd : isnan(sd) ? sk : sk + sd;
	v[DV_DSHARE] = ratio_or_nan(sd, sc) * 100;
	v[DV_SCANRATE] = ratio_or_nan(isnan(at) ? sc : at, el);
}

static void
derived_table(FILE *f, const struct rl_set *s, const char *id,
    const struct rt_opts *o)
{
	static const char *const lab[DV_N] = {
		"swapin kB/run", "swapout kB/run", "kswapd eff %",
		"direct eff %", "reclaim eff %", "scan pages/s",
		"direct scan %",
	};
	double (*v)[DV_N] = vb_xcalloc((size_t)s->nk, sizeof(*v));
	char num[64];
	int i, l, any = 0, perblk, first, last;

	for (i = 0; i < s->nk; i++) {
		derived(rl_find(&s->k[i], id), v[i]);
		for (l = 0; l < DV_N; l++)
			if (!isnan(v[i][l]) && v[i][l] != 0)
				any = 1;
	}
	if (!any) {
		fprintf(f, "vmstat: no swapping and no reclaim scanning\n");
		free(v);
		return;
	}
	fprintf(f, "vmstat (derived)\n");
	perblk = (o->width - 15) / DETW;
	if (perblk < 1)
		perblk = 1;
	for (first = 0; first < s->nk; first += perblk) {
		last = first + perblk > s->nk ? s->nk : first + perblk;
		fprintf(f, "%-15s", "");
		for (i = first; i < last; i++)
			cell(f, s->k[i].label, DETW, 0);
		fputc('\n', f);
		for (l = 0; l < DV_N; l++) {
			fprintf(f, "%-15s", lab[l]);
			for (i = first; i < last; i++)
				cell(f, fmt_num(num, sizeof(num), v[i][l],
				    l == DV_SWPIN || l == DV_SWPOUT ||
				    l == DV_SCANRATE ? 0 : 2), DETW, 0);
			fputc('\n', f);
		}
	}
	free(v);
}

/* ---- ASCII bar charts ---- */

struct bar {
	const char *label;
	double v;
};

static int bar_ascending;

static int
cmp_bar(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	if (isnan(x->v) || isnan(y->v))
		return isnan(x->v) - isnan(y->v);
	if (bar_ascending)
		return (x->v > y->v) - (x->v < y->v);
	return (x->v < y->v) - (x->v > y->v);
}

/*
 * Hron's chart: one row per kernel, best first (largest first unless
 * @unit's metric is lower-is-better: rt_bars_order()), name left-justified,
 * a row of '*' scaled so the largest fills the width, the value with
 * its unit.  Kernels without a value are listed last as "missing".
 */
void
rt_bars_order(int ascending)
{
	bar_ascending = ascending;
}

/* A bar's value: 0 as every view prints it, else @fmt. */
static char *
bar_num(char *buf, size_t len, const char *fmt, double v)
{
	if (v == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	return rt_num(buf, len, fmt, v);
}

void
rt_bars(FILE *f, const char *title, int n, const char *const *labels,
    const double *vals, const char *unit, int width)
{
	struct bar *b = vb_xcalloc((size_t)n, sizeof(*b));
	char num[64], fmt[8];
	double max = 0;
	int i, labw = 8, valw = 0, barw, dec;

	for (i = 0; i < n; i++) {
		b[i].label = labels[i];
		b[i].v = vals[i];
		if ((int)strlen(labels[i]) + 2 > labw)
			labw = (int)strlen(labels[i]) + 2;
		if (isfinite(vals[i]) && fabs(vals[i]) > max)
			max = fabs(vals[i]);
	}
	if (labw > 24)
		labw = 24;
	dec = max >= 10 ? 1 : max >= 1 ? 2 : 3;
	snprintf(fmt, sizeof(fmt), "%%.%df", dec);
	for (i = 0; i < n; i++) {
		int w = (int)strlen(bar_num(num, sizeof(num), fmt, vals[i])) +
		    1 + (int)strlen(unit);

		if (w > valw)
			valw = w;
	}
	qsort(b, (size_t)n, sizeof(*b), cmp_bar);
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
}

/* The metric a benchmark is judged by: its headline, else elapsed. */
int
rt_headline(const struct rl_set *s, const char *id, struct rt_row *rows,
    int nrows)
{
	int i, j;

	for (i = 0; i < s->nk; i++) {
		const struct vb_res *r = rl_find(&s->k[i], id);

		if (r && r->headline[0] &&
		    (j = find_row(rows, nrows, r->headline)) >= 0)
			return j;
	}
	if ((j = find_row(rows, nrows, "elapsed")) >= 0)
		return j;
	for (j = 0; j < nrows; j++)
		if (rows[j].dir != VB_INFO)
			return j;
	return nrows ? 0 : -1;
}

void
rt_headline_bars(FILE *f, const struct rl_set *s, const struct rt_row *r,
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
	rt_bars_order(r->dir == VB_LOWER);
	rt_bars(f, title, s->nk, lab, v, r->unit, width);
	rt_bars_order(0);
	free(lab);
	free(v);
}

static const struct vb_res *
first_res(const struct rl_set *s, const char *id)
{
	const struct vb_res *r;
	int i;

	for (i = 0; i < s->nk; i++)
		if ((r = rl_find(&s->k[i], id)))
			return r;
	return NULL;
}

/* ---- the compare view ---- */

/* The default view's quiet lines are merged into the top warning. */
static int quiet_merged;

/* One line for every run not quiet, at the top (report.h). */
int
rt_all_loaded(FILE *f, const struct rl_set *s, const struct rt_opts *o,
    const char *more)
{
	struct rt_quiet q;
	char line[512];
	double lo = INFINITY, hi = -INFINITY;
	int i, k, runs = 0, rec = 0;

	for (i = 0; i < s->nids; i++)
		for (k = 0; k < s->nk; k++) {
			const struct vb_res *r = rl_find(&s->k[k], s->ids[i]);

			if (!r)
				continue;
			runs++;
			rt_quiet_of(r, o->quiet, &q);
			if (q.quiet < 0)
				continue;
			if (q.quiet)
				return 0;
			rec++;
			lo = fmin(lo, q.mean);
			hi = fmax(hi, q.mean);
		}
	if (!rec)
		return 0;
	snprintf(line, sizeof(line), "warning: the machine was not quiet in "
	    "%s%d benchmark run%s%s: other processes used %.*f%% to "
	    "%.*f%% of a CPU (a run's mean; threshold %g%%; %s)",
	    rec == 1 ? "its " : "all ", rec, rec == 1 ? "" : "s",
	    rec < runs ? " that recorded it" : "", fabs(lo) < 10 ? 1 : 0, lo,
	    fabs(hi) < 10 ? 1 : 0, hi, o->quiet, more);
	wrap(f, line, o->width, 4);
	return 1;
}

/*
 * The default view's one line on a machine busy with other work during
 * @id (rt_quiet_warn() has the details: --detail).
 */
static void
quiet_line(FILE *f, const struct rl_set *s, const char *id,
    const struct rt_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	struct rt_quiet q;
	int k, n = 0;

	for (k = 0; k < s->nk; k++) {
		rt_quiet_of(rl_find(&s->k[k], id), o->quiet, &q);
		if (q.quiet != 0)
			continue;
		vb_buf_printf(&line, "%s %.*f%% in %s", n++ ? "," :
		    "! not quiet: other processes used (mean, % of a CPU)",
		    fabs(q.mean) < 10 ? 1 : 0, q.mean, s->k[k].label);
	}
	if (n && !quiet_merged)
		wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
}

/* A probe that ran beside a benchmark of the folders: shown with it. */
static int
beside(const struct rl_set *s, const char *id)
{
	const char *at = strchr(id, '@');
	int k;

	if (strncmp(id, "probe@", 6) != 0 || !at)
		return 0;
	for (k = 0; k < s->nk; k++)
		if (rl_find(&s->k[k], at + 1))
			return 1;
	return 0;
}

/*
 * The default view of @id: the table of the key rows (struct rt_row)
 * under "== ID ==" (the command is --detail's), their notes, the other
 * load, which of the metrics only --detail shows are marked, and the
 * probe that ran beside it.
 */
static void
key_section(FILE *f, const struct rl_set *s, const char *id,
    struct rt_row *rows, int nrows, const struct rt_opts *o)
{
	struct rt_row *sel = vb_xcalloc((size_t)nrows, sizeof(*sel));
	struct vb_buf line = VB_BUF_INIT, marks = VB_BUF_INIT;
	char probe[sizeof("probe@") + NAME_MAX];	/* ids are file names */
	char *buf = NULL;
	size_t len = 0;
	int n = 0, more = 0, nmark = 0, i, j;
	FILE *m;

	for (j = 0; j < nrows; j++) {
		if (rows[j].key) {
			sel[n++] = rows[j];
			continue;
		}
		if (unmeasured(&rows[j], s->nk))
			continue;
		more++;
		for (i = 1; i < s->nk; i++)
			if (rows[j].c[i].sig && rows[j].dir != VB_INFO)
				break;
		/* five names at most: a few lines per benchmark */
		if (i < s->nk && nmark++ < 5)
			vb_buf_printf(&marks, "%s %s", nmark > 1 ? "," : ":",
			    rows[j].name);
	}
	if (nmark > 5)
		vb_buf_printf(&marks, " and %d more", nmark - 5);
	vb_buf_printf(&line, "== %s ==", id);
	table_title = vb_buf_str(&line);
	rt_table(f, s, id, sel, n, o);
	table_title = NULL;
	vb_buf_free(&line);
	if (rl_param_diffs(s, id, &line))
		fprintf(f, "parameters differ (--allow-different-params):\n%s",
		    vb_buf_str(&line));
	vb_buf_free(&line);
	short_notes = 1;
	rt_notes(f, s, id, sel, n, o);
	short_notes = 0;
	quiet_line(f, s, id, o);
	if (nmark) {
		vb_buf_printf(&line, "--detail has %d more metric%s; marked * "
		    "there%s", more, more == 1 ? "" : "s", vb_buf_str(&marks));
		wrap(f, vb_buf_str(&line), o->width, 4);
	}
	vb_buf_free(&line);
	vb_buf_free(&marks);
	/* the probe's lines, without the blank line the other views want */
	snprintf(probe, sizeof(probe), "probe@%s", id);
	m = open_memstream(&buf, &len);
	if (!m)
		die("out of memory");
	rt_probe_lines(m, s, probe);
	fclose(m);
	fputs(buf[0] == '\n' ? buf + 1 : buf, f);
	free(buf);
	fputc('\n', f);
	free(sel);
}

static void
section(FILE *f, const struct rl_set *s, const char *id,
    const struct rt_opts *o)
{
	const struct vb_res *r0 = first_res(s, id);
	struct rt_row *rows;
	struct vb_buf text = VB_BUF_INIT;
	char probe[sizeof("probe@") + NAME_MAX];	/* ids are file names */
	int nrows, h, j;

	nrows = rt_rows(s, id, &rows);
	if (!o->detail) {
		key_section(f, s, id, rows, nrows, o);
		return;
	}
	vb_buf_printf(&text, "== %s == %s", id, r0->cmdline);
	wrap(f, vb_buf_str(&text), o->width, 4);
	vb_buf_free(&text);
	if (rl_param_diffs(s, id, &text))
		fprintf(f, "parameters differ (--allow-different-params):\n%s",
		    vb_buf_str(&text));
	vb_buf_free(&text);
	rt_quiet_warn(f, s, id, o);
	fputc('\n', f);
	rt_table(f, s, id, rows, nrows, o);
	rt_notes(f, s, id, rows, nrows, o);
	fputc('\n', f);
	derived_table(f, s, id, o);
	h = rt_headline(s, id, rows, nrows);
	/* the probe that ran beside it, if any */
	snprintf(probe, sizeof(probe), "probe@%s", id);
	rt_probe_lines(f, s, probe);
	if (h >= 0) {
		fputc('\n', f);
		rt_headline_bars(f, s, &rows[h], o->width);
		fputc('\n', f);
		detail_block(f, s, &rows[h], o);
	}
	for (j = 0; o->detail && j < nrows; j++)
		if (j != h && !all_zero(&rows[j], s->nk) &&
		    !unmeasured(&rows[j], s->nk)) {
			fputc('\n', f);
			detail_block(f, s, &rows[j], o);
		}
	fputc('\n', f);
	rt_free_rows(rows, nrows, s->nk);
}

/*
 * The benchmarks' own forms after the sections: contest's table of
 * makesim's load variants and tworead's n-by-kernel table (each only
 * when the folders have such runs).
 */
static void
forms(FILE *f, const struct rl_set *s, const struct rt_opts *o)
{
	static const char *const title[] = {
		"makesim under contest's loads (Ratio: time / no_load time)",
		"tworead: two files read over ranges n and 1100-n",
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int k;

	for (k = 0; k < 2; k++) {
		m = open_memstream(&buf, &len);
		if (!m)
			die("out of memory");
		if (k == 0)
			rt_contest_table(m, s, "makesim");
		else
			rt_tworead_table(m, s, "tworead", o);
		fclose(m);
		if (len) {
			fprintf(f, "%s\n\n", title[k]);
			fwrite(buf, 1, len, f);
		}
		free(buf);
		buf = NULL;
		len = 0;
	}
}

void
rt_compare(FILE *f, const struct rl_set *s, const struct rt_opts *o)
{
	char line[1024];
	int i;

	snprintf(line, sizeof(line), "vmbench report: %d kernel%s, baseline "
	    "%s (%s)", s->nk, s->nk == 1 ? "" : "s", s->k[0].label,
	    s->k[0].dir);
	wrap(f, line, o->width, 4);
	rt_settings(f, s, o->width);
	quiet_merged = !o->detail &&
	    rt_all_loaded(f, s, o, "--detail: each run");
	if (!quiet_merged)
		rt_quiet_summary(f, s, o);
	fputc('\n', f);
	if (o->detail)
		snprintf(line, sizeof(line), "Means of all runs; (+x.xx%%) is "
		    "the change against the baseline, positive = better (for "
		    "info metrics: the plain change); * significant (Welch's "
		    "t-test, p<0.05) and a change of at least %g%% (never on "
		    "info metrics); ~ noisy (CoV > %.0f%%); ! run incomplete; "
		    "[system] a counter of the whole machine, [cgroup] of the "
		    "benchmark's memory cgroup (MEM=).", s->min_change,
		    o->noisy * 100);
	else
		snprintf(line, sizeof(line), "Key figures, means of all runs "
		    "(--detail: all); (+x.xx%%) change, + = better (info: "
		    "plain); * significant (Welch p<0.05, change >= %g%%, not "
		    "info); ~ noisy (CoV > %.0f%%; note: the change the "
		    "headline's runs could detect); ! incomplete; [system] "
		    "machine-wide, [cgroup] the memory cgroup's (MEM=).",
		    s->min_change, o->noisy * 100);
	wrap(f, line, o->width, 0);
	for (i = 0; i < s->nk; i++)
		if (rl_meta(&s->k[i], "status") &&
		    strcmp(rl_meta(&s->k[i], "status"), "complete"))
			fprintf(f, "! %s: suite run %s\n", s->k[i].label,
			    rl_meta(&s->k[i], "status"));
	fputc('\n', f);
	for (i = 0; i < s->nids; i++)
		if (o->detail || !beside(s, s->ids[i]))
			section(f, s, s->ids[i], o);
	forms(f, s, o);
	rt_summary(f, s, o);
	quiet_merged = 0;
}

/* ---- LMbench-style summaries: one kernel per row ---- */

#define SUMW 10

/* The summary's three header lines: bench, @variant, unit. */
static void
summary_header(FILE *f, const struct rl_set *s, struct rt_row **rows,
    const int *hl, int first, int last, int labw)
{
	char buf[128];
	int j, k;

	for (k = 0; k < 3; k++) {
		cell(f, k == 0 ? "Kernel" : "", labw, 1);
		for (j = first; j < last; j++) {
			const char *id = s->ids[j], *at = strchr(id, '@');
			const struct rt_row *r = hl[j] >= 0 ?
			    &rows[j][hl[j]] : NULL;
			int blen = at ? (int)(at - id) : (int)strlen(id);

			if (k == 0)
				snprintf(buf, sizeof(buf), "%.*s", blen, id);
			else if (k == 1)
				snprintf(buf, sizeof(buf), "%s", at ? at : "");
			else
				snprintf(buf, sizeof(buf), "%s%s",
				    r ? r->unit : "", !r ? "" :
				    r->dir == VB_HIGHER ? "+" :
				    r->dir == VB_LOWER ? "-" : "");
			/* cut to leave a blank between the columns */
			if (strlen(buf) > SUMW - 1)
				buf[SUMW - 1] = '\0';
			cell(f, buf, SUMW, 0);
		}
		fputc('\n', f);
	}
}

/* A time-like metric: a time unit, lower is better. */
static int
time_like(const struct rt_row *r)
{
	static const char *const units[] = { "s", "ms", "us", "ns" };
	size_t i;

	if (r->dir != VB_LOWER)
		return 0;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(r->unit, units[i]))
			return 1;
	return 0;
}

/*
 * Per kernel: the geometric mean of its time-like ratios, with CI.  A
 * metric with fewer than 2 runs on a side has no variance, and would
 * void the interval: it is left out.
 */
static void
geo_table(FILE *f, const struct rl_set *s, struct rt_row **rows,
    const int *nrows, int labw)
{
	char num[32];
	int i, j, k;

	fprintf(f, "\nTime-like metrics (s, ms, us, ns; lower is better; 2 "
	    "runs a side or more):\ngeometric mean of the ratios "
	    "kernel/baseline, with its 95%% CI; below 1 = faster\n\n");
	fprintf(f, "%-*s %7s %8s  %s\n", labw, "Kernel", "metrics", "ratio",
	    "95% CI");
	for (i = 1; i < s->nk; i++) {
		struct rs_geo g;

		rs_geo_init(&g);
		for (j = 0; j < s->nids; j++)
			for (k = 0; k < nrows[j]; k++)
				if (time_like(&rows[j][k]) &&
				    rows[j][k].d[0].n >= 2 &&
				    rows[j][k].d[i].n >= 2)
					rs_geo_add(&g, &rows[j][k].d[0],
					    &rows[j][k].d[i]);
		rs_geo_finish(&g);
		cell(f, s->k[i].label, labw, 1);
		if (!g.k) {
			fprintf(f, " %7d %8s\n", 0, "-");
			continue;
		}
		fprintf(f, " %7d %8s  ", g.k, rt_num(num, sizeof(num), "%.4f",
		    g.g));
		if (!isfinite(g.lo) || !isfinite(g.hi))
			fprintf(f, "-\n");
		else
			fprintf(f, "[%.4f, %.4f]\n", g.lo, g.hi);
	}
}

void
rt_summary(FILE *f, const struct rl_set *s, const struct rt_opts *o)
{
	struct rt_row **rows = vb_xcalloc((size_t)s->nids, sizeof(*rows));
	int *nrows = vb_xcalloc((size_t)s->nids, sizeof(int));
	int *hl = vb_xcalloc((size_t)s->nids, sizeof(int));
	int labw = 10, perblk, first, last, i, j, k;
	char num[64];

	for (i = 0; i < s->nk; i++)
		if ((int)strlen(s->k[i].label) + 1 > labw)
			labw = (int)strlen(s->k[i].label) + 1;
	if (labw > 24)
		labw = 24;
	for (j = 0; j < s->nids; j++) {
		nrows[j] = rt_rows(s, s->ids[j], &rows[j]);
		hl[j] = rt_headline(s, s->ids[j], rows[j], nrows[j]);
	}
	fprintf(f, "Summary: each benchmark's headline figure, mean of runs\n"
	    "(unit with + higher is better, - lower is better)\n");
	perblk = (o->width - labw) / SUMW;
	if (perblk < 1)
		perblk = 1;
	for (first = 0; first < s->nids; first += perblk) {
		last = first + perblk > s->nids ? s->nids : first + perblk;
		fputc('\n', f);
		summary_header(f, s, rows, hl, first, last, labw);
		for (k = 0; k < labw; k++)
			fputc('-', f);
		for (j = first; j < last; j++)
			fprintf(f, " %.*s", SUMW - 1, "---------");
		fputc('\n', f);
		for (i = 0; i < s->nk; i++) {
			cell(f, s->k[i].label, labw, 1);
			for (j = first; j < last; j++) {
				const struct rt_row *r = hl[j] >= 0 ?
				    &rows[j][hl[j]] : NULL;

				if (!r || !kernel_has(s, i, s->ids[j]))
					cell(f, "missing", SUMW, 0);
				else
					cell(f, rt_short(num, sizeof(num),
					    r->d[i].n ? r->d[i].mean : NAN),
					    SUMW, 0);
			}
			fputc('\n', f);
		}
	}
	if (s->nk > 1)
		geo_table(f, s, rows, nrows, labw);
	for (j = 0; j < s->nids; j++)
		rt_free_rows(rows[j], nrows[j], s->nk);
	free(rows);
	free(nrows);
	free(hl);
}

/* ---- the regression gate ---- */

/*
 * Is kernel @k's marked change of row @r a regression by more than
 * @pct percent?  A change from a baseline mean of 0 has no percentage
 * and counts as large (rs_mark()): then the direction decides.
 */
static int
regressed(const struct rt_row *r, int k, double pct)
{
	const struct rs_cmp *c = &r->c[k];
	double a = r->d[0].mean, b = r->d[k].mean;

	if (!c->sig)
		return 0;
	if (!isnan(c->pct))
		return c->pct < -pct;
	return r->dir == VB_LOWER ? b > a : b < a;
}

int
rt_regressions(FILE *f, const struct rl_set *s, double pct)
{
	struct rt_row *rows;
	char num[48], mean[32];
	int nreg = 0, i, j, n, k;

	for (i = 0; i < s->nids; i++) {
		n = rt_rows(s, s->ids[i], &rows);
		for (j = 0; j < n; j++) {
			if (rows[j].dir == VB_INFO)
				continue;
			for (k = 1; k < s->nk; k++) {
				const struct rs_cmp *c = &rows[j].c[k];

				if (!regressed(&rows[j], k, pct))
					continue;
				nreg++;
				if (isnan(c->pct))
					snprintf(num, sizeof(num), "from 0 "
					    "to %s", rt_num(mean,
					    sizeof(mean), "%.4g",
					    rows[j].d[k].mean));
				else
					snprintf(num, sizeof(num), "%s%%",
					    rt_num(mean, sizeof(mean), "%.2f",
					    c->pct));
				fprintf(f, "regression: %s %s %s: %s "
				    "(worse than %s, p %.4f)\n",
				    s->k[k].label, s->ids[i], rows[j].name,
				    num, s->k[0].label, c->w.p);
			}
		}
		rt_free_rows(rows, n, s->nk);
	}
	return nreg;
}

void
rt_wrap(FILE *f, const char *text, int width, int ind)
{
	wrap(f, text, width, ind);
}

/* ---- the table's cells for other views (src/report/rhtml.c) ---- */

int
rt_row_shown(const struct rt_row *r, int nk)
{
	return !all_zero(r, nk) && !unmeasured(r, nk);
}

int
rt_row_noisy(const struct rt_row *r, int nk, double noisy)
{
	int who;

	return max_cov(r, nk, &who) > noisy;
}

char *
rt_row_mean(char *buf, size_t len, const struct rt_row *r, int nk, int k)
{
	return fmt_num(buf, len, r->d[k].mean, row_decimals(r, nk));
}

char *
rt_pct(char *buf, size_t len, double p)
{
	return fmt_pct(buf, len, p);
}
