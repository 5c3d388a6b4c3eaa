/*
 * table.c - the comparison table of one benchmark and its notes
 * (table.h).  Everything fits the width given (80 columns by default);
 * kernels that do not fit continue in another block, which repeats the
 * baseline column.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "rstats.h"
#include "table.h"
#include "util.h"

#define VALW 9
#define CMPW 22		/* "   3398.52 (  +3.02%)*": a blank, 9, 12 */

/*
 * Kernel @k's label in a header cell of @w columns, right-aligned after
 * a space, '!' after it when @bang.  Labels often share a long prefix
 * (a kernel's version) and differ at the end, so a label too long for
 * its cell keeps its start and its end (fmt_label()).
 */
static void
label_cell(FILE *f, const struct rl_set *s, int k, int bang, int w)
{
	char buf[128];

	fputc(' ', f);
	fmt_label(buf, sizeof(buf) - 1, s, k, bang ? w - 1 : w);
	if (bang)
		strcat(buf, "!");
	fmt_cell(f, buf, w, 0);
}

/*
 * Metrics down, kernels across: the baseline's mean, then each other
 * kernel's mean with the change (positive = better) and '*' when the
 * difference is marked (rs_mark(): p < 0.05 and at least the minimum
 * change).  '~' after a metric name: noisy (CoV above the threshold in
 * some kernel); "[system]" or "[cgroup]" at the end of the name column:
 * whose counter it is (model_scope_of()); "!work" instead of the change:
 * that kernel did another amount of work (model_work_of()), so its
 * figures are not compared (table_notes() says which figure differed).
 */
void
table_print(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o)
{
	char num[64], pct[32], buf[128];
	int namew = 6, unitw = 4, basew, i, j, first, last, perblk, used;
	int shown = 0;
	/* per row, for every block: shown, noisy (~), decimals */
	struct { int shown, noisy, dec; } *rf;
	const struct vb_res **res;

	rf = vb_xcalloc((size_t)(nrows ? nrows : 1), sizeof(*rf));
	for (j = 0; j < nrows; j++) {
		rf[j].shown = model_row_shown(&rows[j], s->nk);
		rf[j].noisy = rf[j].shown &&
		    model_row_noisy(&rows[j], s->nk, o->noisy);
		rf[j].dec = rf[j].shown ? model_decimals(&rows[j], s->nk) : 0;
	}
	for (j = 0; j < nrows; j++) {
		if (!rf[j].shown)
			continue;
		shown++;
		i = (int)strlen(rows[j].name) + rf[j].noisy;
		if (*model_scope_tag(rows[j].scope))
			i += 1 + (int)strlen(model_scope_tag(rows[j].scope));
		if (i > namew)
			namew = i;
		i = (int)strlen(rows[j].unit);
		if (i > unitw)
			unitw = i;
	}
	if (!shown) {
		if (o->title)
			fprintf(f, "%s\n", o->title);
		fprintf(f, "  (every metric is zero or absent)\n");
		free(rf);
		return;
	}
	res = vb_xcalloc((size_t)s->nk, sizeof(*res));
	for (i = 0; i < s->nk; i++)
		res[i] = rl_find(&s->k[i], id);
	/* the default view's title fills the header's left part */
	if (o->title && (int)strlen(o->title) > namew + 1 + unitw)
		namew = (int)strlen(o->title) - 1 - unitw;
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
		fprintf(f, "%-*s", namew + 1 + unitw, o->title &&
		    first == 1 ? o->title : "");
		label_cell(f, s, 0, res[0] && strcmp(res[0]->status,
		    "complete"), basew - 1);
		for (i = first; i < last; i++) {
			const struct vb_res *r = res[i];

			label_cell(f, s, i, r && strcmp(r->status, "complete"),
			    CMPW - 2);
			fputc(' ', f);
		}
		fputc('\n', f);
		for (j = 0; j < nrows; j++) {
			const struct model_row *r = &rows[j];
			int dec = rf[j].dec;

			if (!rf[j].shown)
				continue;
			snprintf(buf, sizeof(buf), "%s%s", r->name,
			    rf[j].noisy ? "~" : "");
			/* whose counter: the tag ends the name column */
			fmt_cell(f, buf, namew -
			    (int)strlen(model_scope_tag(r->scope)), 1);
			fputs(model_scope_tag(r->scope), f);
			fputc(' ', f);
			fmt_cell(f, r->unit, unitw, 1);
			if (!res[0])
				fmt_cell(f, "missing", basew, 0);
			else
				fmt_cell(f, fmt_value(num, sizeof(num),
				    r->d[0].mean, dec), basew, 0);
			for (i = first; i < last; i++) {
				if (!res[i]) {
					fmt_cell(f, "missing", CMPW - 1, 0);
					fputc(' ', f);
					continue;
				}
				if (!r->d[i].n) {
					fmt_cell(f, "-", CMPW - 1, 0);
					fputc(' ', f);
					continue;
				}
				fmt_value(num, sizeof(num), r->d[i].mean, dec);
				/* another amount of work: no change to show */
				if (r->other_work[i])
					snprintf(pct, sizeof(pct), "!work");
				else
					fmt_pct(pct, sizeof(pct), r->c[i].pct);
				snprintf(buf, sizeof(buf), "%s (%8s)", num,
				    pct);
				fmt_cell(f, buf, CMPW - 1, 0);
				fputc(r->c[i].sig && r->dir != VB_INFO ? '*' :
				    ' ', f);
			}
			fputc('\n', f);
		}
		if (last >= s->nk)
			break;
		fputc('\n', f);
	}
	free(res);
	free(rf);
}

/* Notes under a table: omitted rows, noisy metrics, run status. */
/*
 * Where iteration @i of @k's pool of @id comes from, as the notes name
 * it: "run 3" (make ab's side: its iterations are runs), "iteration 3"
 * (a folder of one run), "run 2 iteration 1" (a label of runs).
 */
static void
origin_words(struct vb_buf *b, const struct rl_kernel *k, const char *id,
    int i)
{
	int run, it;

	if (k->iter_is_run)
		vb_buf_printf(b, "run %d", i + 1);
	else if (k->nruns <= 1 || rl_iter_origin(k, id, i, &run, &it) < 0)
		vb_buf_printf(b, "iteration %d", i + 1);
	else
		vb_buf_printf(b, "run %d iteration %d", run, it);
}

/*
 * The first run, or iteration, against the others' median: its ratio
 * to it, into *@ratio, and 'r' (runs: the run means of a label of 3
 * runs or more, or make ab's iterations) or 'i' (the iterations of a
 * folder of one run, 3 or more); 0 when there is no such comparison.
 */
static int
first_vs_rest(const struct rl_kernel *k, const char *id, const char *name,
    const struct vb_res *r, int m, double *ratio)
{
	double rest[256], *v = NULL, first;
	struct rs_desc d;
	int i, n, kind;

	if (k->iter_is_run || k->nruns <= 1) {
		if (r->niter < 3)
			return 0;
		first = vb_res_get(r, 0, m);
		for (i = 1; i < r->niter; i++)
			rest[i - 1] = vb_res_get(r, i, m);
		rs_describe(rest, r->niter - 1, 1, &d);
		kind = k->iter_is_run ? 'r' : 'i';
	} else {
		n = model_run_means(k, id, name, &v);
		if (n < 3 || n > 256) {
			free(v);
			return 0;
		}
		first = v[0];
		rs_describe(v + 1, n - 1, 1, &d);
		free(v);
		kind = 'r';
	}
	if (!d.n || !(first > 1.5 * d.median))
		return 0;
	*ratio = first / d.median;
	return kind;
}

/*
 * hyperfine's two warnings, for the headline figure and elapsed: the
 * iterations whose modified Z-score exceeds 3.5 (an outlier: an
 * interruption, other load; needs 5, see rs_modz()), named by their
 * run and iteration, and a first run over 1.5 times the median of the
 * other runs' means (a first iteration against the others' in a
 * folder of one run; cold caches; 3 or more).
 */
static void
outlier_notes(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT, cold[2] = { VB_BUF_INIT,
		VB_BUF_INIT };
	const char *names[2] = { NULL, "elapsed" };
	int h, k, i, pass, nout = 0, ncold[2] = { 0, 0 }, kind, c;
	double z[256], ratio;
	char num[32];

	h = model_headline(s, id, rows, nrows);
	if (h >= 0 && strcmp(rows[h].name, "elapsed"))
		names[0] = rows[h].name;
	vb_buf_printf(&line, "outliers (modified Z-score > 3.5):");
	vb_buf_printf(&cold[0], "first run slower than the other runs' "
	    "median (cold caches?):");
	vb_buf_printf(&cold[1], "first iteration slower than the other "
	    "iterations' median (cold caches?):");
	for (pass = 0; pass < 2; pass++) {
		if (!names[pass] ||
		    model_find_row(rows, nrows, names[pass]) < 0)
			continue;
		for (k = 0; k < s->nk; k++) {
			const struct vb_res *r = rl_find(&s->k[k], id);
			int m = r ? vb_res_metric_index(r, names[pass]) : -1;

			if (m < 0 || r->niter > 256)
				continue;
			if (rs_modz(r->vals + m, r->niter, r->nmetrics,
			    z) == 0)
				for (i = 0; i < r->niter; i++) {
					if (!(fabs(z[i]) > 3.5))
						continue;
					vb_buf_printf(&line, "%s %s %s ",
					    nout++ ? "," : "", names[pass],
					    s->k[k].label);
					origin_words(&line, &s->k[k], id, i);
					vb_buf_printf(&line, " (%s)",
					    fmt_num(num, sizeof(num), "%.1f",
					    z[i]));
				}
			if (pass != 1 || !(kind = first_vs_rest(&s->k[k], id,
			    names[pass], r, m, &ratio)))
				continue;
			c = kind == 'i';
			vb_buf_printf(&cold[c], "%s %s %sx", ncold[c]++ ? "," :
			    "", s->k[k].label, fmt_num(num, sizeof(num),
			    "%.1f", ratio));
		}
	}
	if (nout)
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	for (c = 0; c < 2; c++) {
		if (ncold[c])
			fmt_wrap(f, vb_buf_str(&cold[c]), o->width, 4);
		vb_buf_free(&cold[c]);
	}
	vb_buf_free(&line);
}

/*
 * The metrics of @rows that are zero in every run, or (@absent) that no
 * run measured, as one wrapped line after @title; nothing if none.
 */
static void
name_list(FILE *f, const char *title, const struct model_row *rows,
    int nrows, int nk, int absent, int width)
{
	struct vb_buf line = VB_BUF_INIT;
	int j, n = 0;

	vb_buf_printf(&line, "%s", title);
	for (j = 0; j < nrows; j++)
		if (absent ? model_unmeasured(&rows[j], nk) :
		    model_all_zero(&rows[j], nk)) {
			n++;
			vb_buf_printf(&line, " %s", rows[j].name);
		}
	if (n)
		fmt_wrap(f, vb_buf_str(&line), width, 2);
	vb_buf_free(&line);
}

/*
 * The runs behind metric @r of @id: the fewest runs any folder has of
 * it (its run means, model_run_means(): make ab's iterations are runs)
 * into *@n, and the largest run-to-run CoV of the folders with two runs
 * or more (INFINITY for run means of mean 0 with spread, NAN when no
 * folder has two runs).
 */
static double
run_spread(const struct rl_set *s, const char *id, const struct model_row *r,
    int *n)
{
	struct rs_desc d;
	double *v, cov = NAN, c;
	int k, m;

	*n = -1;
	for (k = 0; k < s->nk; k++) {
		m = model_run_means(&s->k[k], id, r->name, &v);
		rs_describe(v, m, 1, &d);
		free(v);
		if (*n < 0 || d.n < *n)
			*n = d.n;
		if (d.n < 2)
			continue;
		c = d.sd == 0 ? 0 : model_cov(&d);
		if (isnan(cov) || c > cov)
			cov = c;
	}
	if (*n < 0)
		*n = 0;
	return cov;
}

/*
 * One metric of the noise note: "name CoV%: change%", or its SD; the
 * CoV is the iterations' (what makes it noisy), the change the
 * smallest the runs could detect, from their run-to-run CoV
 * (rs_detectable(); "-" with fewer than 2 runs on a side).
 */
static void
noise_item(struct vb_buf *line, const struct rl_set *s, const char *id,
    const struct model_row *r, int cov_too)
{
	char a[32], b[32];
	int who, n, nk = s->nk;
	double cov = model_max_cov(r, nk, &who);
	double rcov = run_spread(s, id, r, &n);

	fmt_num(b, sizeof(b), "%.0f", isinf(rcov) ? NAN :
	    ceil(rs_detectable(rcov, n) * 100));
	if (isinf(cov))		/* a mean of 0: no CoV, its SD */
		vb_buf_printf(line, "%s mean 0, SD %s: -", r->name,
		    fmt_num(a, sizeof(a), "%.4g", r->d[who].sd));
	else if (cov_too)
		vb_buf_printf(line, "%s %s%%: %s%s", r->name, fmt_num(a,
		    sizeof(a), "%.1f", cov * 100), b, strcmp(b, "-") ? "%" :
		    "");
	else
		vb_buf_printf(line, "%s %s%s", r->name, b, strcmp(b, "-") ?
		    "%" : "");
}

/*
 * Noisy metrics: the largest CoV of any kernel's iterations, and the
 * smallest change the runs could have detected, n = 15.7 (CoV/delta)^2
 * solved for delta with n the fewest runs of any kernel for that
 * metric and CoV the largest run-to-run CoV (run_spread(): runs, never
 * iterations, are the unit), rounded up to a whole percent ("-" with
 * fewer than two runs on a side, none on one, or a mean of 0: its SD is
 * shown).  The header names n when every metric listed has the same,
 * else each metric carries its own.  The compare view's default
 * (o->short_notes) gives one line: the change the headline @hl's runs
 * could detect, whether noisy or not, and nothing with one run on a
 * side (the verdict line has the runs a side a decision needs); the ~
 * in the table names the noisy metrics, --detail gives each one's
 * figure.
 */
static void
noise_note(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows, int hl,
    const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	char a[32];
	int j, nz = 0, n0 = -1, same = 1;

	for (j = 0; j < nrows; j++) {
		int n;

		if (model_all_zero(&rows[j], s->nk) ||
		    !model_row_noisy(&rows[j], s->nk, o->noisy))
			continue;
		run_spread(s, id, &rows[j], &n);
		if (n0 >= 0 && n != n0)
			same = 0;
		n0 = n;
	}
	if (n0 < 0)
		return;
	if (o->short_notes && hl >= 0 &&
	    !model_all_zero(&rows[hl], s->nk) &&
	    model_has_cov(&rows[hl], s->nk)) {
		double det = NAN;
		int k;

		run_spread(s, id, &rows[hl], &n0);
		/* one run: nothing detectable; the verdict line (two
		   folders) says how many runs would decide */
		if (n0 == 1)
			return;
		/* the verdict's own test, family and df (the largest) */
		for (k = 1; k < s->nk; k++)
			if (isnan(det) || rows[hl].vk[k].detectable > det)
				det = rows[hl].vk[k].detectable;
		vb_buf_printf(&line, "~ detectable with %s run%s a side: "
		    "headline ", fmt_num(a, sizeof(a), "%.0f", n0),
		    n0 == 1 ? "" : "s");
		if (s->nk > 1)
			vb_buf_printf(&line, "%s %s%s", rows[hl].name,
			    fmt_num(a, sizeof(a), "%.0f", ceil(det)),
			    isnan(det) ? "" : "%");
		else
			noise_item(&line, s, id, &rows[hl], 0);
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
		vb_buf_free(&line);
		return;
	}
	if (o->short_notes)
		vb_buf_printf(&line, "~ detectable with %s run%s a side:",
		    same ? fmt_num(a, sizeof(a), "%.0f", n0) : "n",
		    same && n0 == 1 ? "" : "s");
	else
		vb_buf_printf(&line, "~ noisy, CoV > %.0f%% (largest CoV: "
		    "smallest change detectable with %s run%s a side):",
		    o->noisy * 100, same ? fmt_num(a, sizeof(a), "%.0f",
		    n0) : "n", same && n0 == 1 ? "" : "s");
	for (j = 0; j < nrows; j++) {
		const struct model_row *r = &rows[j];

		if (model_all_zero(r, s->nk) ||
		    !model_row_noisy(r, s->nk, o->noisy))
			continue;
		vb_buf_printf(&line, "%s ", nz++ ? "," : "");
		noise_item(&line, s, id, r, !o->short_notes);
		if (!same) {
			int n;

			run_spread(s, id, r, &n);
			vb_buf_printf(&line, " (n %d)", n);
		}
	}
	fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
}

void
table_notes(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	int i;

	/* the default view says once that it leaves such rows out */
	if (!o->short_notes)
		name_list(f, "zero in every run:", rows, nrows, s->nk, 0,
		    o->width);
	name_list(f, "not measured (\"-\" in every run):", rows, nrows,
	    s->nk, 1, o->width);
	noise_note(f, s, id, rows, nrows, model_headline(s, id, rows, nrows),
	    o);
	outlier_notes(f, s, id, rows, nrows, o);
	for (i = 1; i < s->nk; i++) {
		char w[512];

		if (model_work_line(w, sizeof(w), s, id, i)) {
			vb_buf_printf(&line, "! %s", w);
			fmt_wrap(f, vb_buf_str(&line), o->width, 4);
			vb_buf_free(&line);
		}
	}
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
		if (r && r->note && !o->notes_apart) {
			vb_buf_printf(&line, "! %s: %s", s->k[i].label,
			    r->note);
			fmt_wrap(f, vb_buf_str(&line), o->width, 4);
			vb_buf_free(&line);
		}
	}
}

/*
 * The verdict @v in a few words: "changed*" ("changed" on an info
 * metric), "same +-1%", "can't tell", "-".
 */
char *
table_verdict_word(char *buf, size_t len, const struct rv_verdict *v)
{
	char b[32];

	if (v->load)
		snprintf(buf, len, "can't tell: the sides ran under different "
		    "loads");
	else if (v->word == RV_SAME)
		snprintf(buf, len, "same +-%s%%", fmt_num(b, sizeof(b),
		    "%.3g", v->bound));
	else
		snprintf(buf, len, "%s%s", rv_word_name(v->word),
		    v->star ? "*" : "");
	return buf;
}

/*
 * One run on one side and several on the other (rv_cmp's pi_side):
 * whether the lone run lies inside the 95% prediction interval of one
 * more run of the side with several, "; b's run is outside a's 95%
 * prediction interval [95.6, 104.1]".  A hint, never a test.
 */
static void
pi_words(struct vb_buf *line, const struct rl_set *s,
    const struct model_row *r, int k)
{
	const struct rv_cmp *c = &r->rc[k];
	char lo[32], hi[32];
	int dec = model_decimals(r, s->nk);

	if (!c->pi_side || isnan(c->pi_lo))
		return;
	vb_buf_printf(line, "; %s's run is %s %s's 95%% prediction interval "
	    "[%s, %s]", s->k[c->pi_side == 1 ? k : 0].label, c->pi_outside ?
	    "outside" : "inside", s->k[c->pi_side == 1 ? 0 : k].label,
	    fmt_value(lo, sizeof(lo), c->pi_lo, dec), fmt_value(hi,
	    sizeof(hi), c->pi_hi, dec));
}

/*
 * The headline's verdict under the table, one item a kernel:
 * "verdict mb_per_s: b changed* -33.2% [-40.1, -25.3], c same +-1%,
 * d can't tell (12 runs a side)"; the label only with several kernels.
 * The runs a side are from a run-to-run CoV measured on a side with
 * several runs (never the assumed one, which the legend states once),
 * also with one run on the other side, whose prediction interval
 * follows (pi_words()).
 */
void
table_verdict_line(FILE *f, const struct model *md, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct vb_buf line = VB_BUF_INIT;
	char w[64], a[32], b[32], c[32];
	int h = model_headline(s, id, rows, nrows), k, named;

	if (h < 0 || s->nk < 2 || !model_row_shown(&rows[h], s->nk))
		return;
	vb_buf_printf(&line, "verdict %s:", rows[h].name);
	/* one word for all: said once, without the labels */
	for (k = 2; k < s->nk; k++)
		if (rows[h].vk[k].word != rows[h].vk[1].word ||
		    rows[h].vk[k].word == RV_CHANGED)
			break;
	named = s->nk > 2 && k < s->nk;
	for (k = 1; k < s->nk; k++) {
		const struct rv_verdict *v = model_verdict(md, &rows[h], k,
		    NULL);

		if (k > 1 && !named)
			break;
		vb_buf_printf(&line, "%s%s%s %s", k > 1 ? "," : "",
		    named ? " " : "", named ? s->k[k].label : "",
		    table_verdict_word(w, sizeof(w), v));
		if (v->word == RV_CHANGED && !isnan(v->lo))
			vb_buf_printf(&line, " %s%% [%s, %s]", fmt_num(c,
			    sizeof(c), "%+.1f", v->change), fmt_num(a,
			    sizeof(a), "%+.1f", v->lo), fmt_num(b, sizeof(b),
			    "%+.1f", v->hi));
		else if (v->word == RV_CANT_TELL && !isnan(v->runs_needed) &&
		    !rows[h].rc[k].run_cov_assumed)
			vb_buf_printf(&line, " (%.0f runs a side would "
			    "decide)", v->runs_needed);
		pi_words(&line, s, &rows[h], k);
	}
	fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
}

void
table_family_words(struct vb_buf *b, const struct model *md, int detail)
{
	/* an empty family is said so, never "over 0" */
	if (md->legacy) {
		if (detail && md->ndetail)
			vb_buf_printf(b, "Benjamini-Hochberg-adjusted p < %g "
			    "over %d tests", md->alpha, md->ndetail);
		else if (detail)
			vb_buf_printf(b, "no figure tested");
		if (detail && md->nkey)
			vb_buf_printf(b, "; default view: Holm over %d key "
			    "figures", md->nkey);
		else if (detail)
			vb_buf_printf(b, "; default view: no key figure "
			    "tested");
		if (!detail && md->nkey)
			vb_buf_printf(b, "Holm-adjusted p < %g over %d key "
			    "figures", md->alpha, md->nkey);
		else if (!detail)
			vb_buf_printf(b, "no key figure tested");
		if (!detail && md->ndetail)
			vb_buf_printf(b, "; --detail: Benjamini-Hochberg over "
			    "%d", md->ndetail);
		else if (!detail)
			vb_buf_printf(b, "; --detail: no figure tested");
		vb_buf_printf(b, ". same +-X%%: two one-sided tests at X = "
		    "--min-change; can't tell: neither.");
		return;
	}
	if (detail && md->ndetail)
		vb_buf_printf(b, "Benjamini-Hochberg-adjusted p < %g over %d "
		    "figures of each kernel against the baseline", md->alpha,
		    md->ndetail);
	else if (detail)
		vb_buf_printf(b, "no figure tested");
	if (!detail) {
		if (md->nhead)
			vb_buf_printf(b, "the headlines Holm-adjusted p < %g "
			    "over %d (one a benchmark, each kernel against "
			    "the baseline), ", md->alpha_head, md->nhead);
		else
			vb_buf_printf(b, "no headline tested, ");
		if (md->nkey)
			vb_buf_printf(b, "the other figures Benjamini-Hochberg "
			    "at %g over %d (\"also changed\"); ",
			    md->alpha_key, md->nkey);
		else
			vb_buf_printf(b, "no other figure tested; ");
		if (md->ndetail)
			vb_buf_printf(b, "--detail: Benjamini-Hochberg over "
			    "%d", md->ndetail);
		else
			vb_buf_printf(b, "--detail: no figure tested");
	}
	vb_buf_printf(b, "; moderated t on the log run means (Smyth 2004). "
	    "same +-X%%: the smallest X two one-sided tests confirm, up to "
	    "--useful %g%%; can't tell: a wider X.", md->useful);
}

char *
table_mean(char *buf, size_t len, const struct model_row *r, int nk, int k)
{
	return fmt_value(buf, len, r->d[k].mean, model_decimals(r, nk));
}

/* Is the row named @name one of @sel[n]? */
static int
selected(const struct model_row *sel, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(sel[i].name, name))
			return 1;
	return 0;
}

/*
 * The stars (model_verdict()) on the figures of @rows the table of
 * @sel does not show, one line a kernel, each begun "@head:" ("@head in
 * LABEL:" with several kernels).
 */
static void
changed_lines(FILE *f, const struct model *md, const struct model_row *rows,
    int nrows, const struct model_row *sel, int n, const char *head,
    const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct vb_buf line = VB_BUF_INIT;
	char x[32], y[32];
	int i, j, got;

	for (i = 1; i < s->nk; i++) {
		got = 0;
		for (j = 0; j < nrows; j++) {
			const struct model_row *r = &rows[j];
			const struct rv_verdict *v = model_verdict(md, r, i,
			    NULL);

			if (!v->star || selected(sel, n, r->name))
				continue;
			if (!got++)
				vb_buf_printf(&line, "%s%s%s:", head,
				    s->nk > 2 ? " in " : "", s->nk > 2 ?
				    s->k[i].label : "");
			else
				vb_buf_printf(&line, ",");
			if (isnan(v->change))
				vb_buf_printf(&line, " %s %s -> %s*", r->name,
				    table_mean(x, sizeof(x), r, s->nk, 0),
				    table_mean(y, sizeof(y), r, s->nk, i));
			else
				vb_buf_printf(&line, " %s %s%%*", r->name,
				    fmt_num(x, sizeof(x), "%+.1f", v->change));
		}
		if (got) {
			fmt_wrap(f, vb_buf_str(&line), o->width, 4);
			vb_buf_free(&line);
		}
	}
}

void
table_also_changed(FILE *f, const struct model *md,
    const struct model_row *rows, int nrows, const struct model_row *sel,
    int n, const struct report_opts *o)
{
	changed_lines(f, md, rows, nrows, sel, n, "also changed", o);
}

void
table_beside_changed(FILE *f, const struct model *md, const char *bid,
    const struct report_opts *o)
{
	struct model_row *rows;
	int n = model_rows(md, bid, &rows);

	changed_lines(f, md, rows, n, NULL, 0, bid, o);
}
