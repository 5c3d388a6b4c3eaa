/*
 * text.c - the text report (text.h): the per-benchmark comparison
 * tables (table.c) with their notes, the detailed statistics of every
 * metric (--detail), derived vmstat figures, ASCII bar charts (bars.c),
 * the forms of the benchmarks that have one (forms/), and the
 * LMbench-style summaries.  Everything fits the width given (80
 * columns by default).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bars.h"
#include "msg.h"
#include "fmt.h"
#include "forms/form.h"
#include "model.h"
#include "rstats.h"
#include "setup.h"
#include "table.h"
#include "util.h"

#define VR_VIEW_TEXT		/* its own header */
#include "text.h"

/* ---- detailed statistics of one metric ---- */

#define DETW 14

/* Kernel columns (DETW wide) that fit @width after @labw: at least 1. */
static int
per_block(int width, int labw)
{
	int n = (width - labw) / DETW;

	return n < 1 ? 1 : n;
}

/* A block's first line: @labw blanks, then kernels @first to @last. */
static void
kernel_header(FILE *f, const struct rl_set *s, int labw, int first,
    int last)
{
	char buf[DETW + 1];
	int i;

	fprintf(f, "%-*s", labw, "");
	/* a blank between the columns, always */
	for (i = first; i < last; i++)
		fmt_cell(f, fmt_label(buf, sizeof(buf), s, i, DETW - 1), DETW,
		    0);
	fputc('\n', f);
}

/* A p in a cell: "<0.0001" or four decimals, "-" when NAN. */
static char *
p_cell(char *num, size_t len, double p)
{
	if (!isnan(p) && p < 0.0001)
		snprintf(num, len, "<0.0001");
	else
		fmt_value(num, len, p, 4);
	return num;
}

/* Lines 15 on of the detail block: the run-level test and its verdict. */
static void
run_cell(char *num, size_t len, int l, const struct model *md,
    const struct model_row *r, int k)
{
	const struct rv_verdict *v = model_verdict(md, r, k, NULL);
	const struct rv_cmp *c = &r->rc[k];

	if (l == 15)
		snprintf(num, len, "%d/%d", c->a.n, c->b.n);
	else if (l == 16)
		p_cell(num, len, v->p);
	else if (l == 17)
		p_cell(num, len, v->p_adj);
	else if (l == 18)
		p_cell(num, len, v->tost_p);
	else if (v->load)
		snprintf(num, len, "loads differ");	/* can't tell */
	else
		table_verdict_word(num, len, v);
}

/* Line @l of the detail block for kernel @k (see lab[] below). */
static void
detail_cell(char *num, size_t len, int l, const struct model_row *r, int k,
    int dec)
{
	const struct rs_desc *d = &r->d[k];
	const struct rs_cmp *c = &r->c[k];
	const double v[] = { 0, d->mean, d->sd, d->cov * 100, d->min,
		d->median, d->max, d->ci_lo, d->ci_hi };

	if (l == 0)
		snprintf(num, len, "%d", d->n);
	else if (l == 3)
		fmt_fixed(num, len, v[l], 2);
	else if (l < 9)
		fmt_value(num, len, v[l], l == 2 ? dec + 1 : dec);
	else if (l == 9 && k > 0 && r->other_work[k])
		snprintf(num, len, "!work");	/* not compared */
	else if (l == 9) {
		fmt_pct(num, len, c->pct);
		if (c->sig && r->dir != VB_INFO)
			snprintf(num + strlen(num), len - strlen(num), "*");
	} else if (l >= 15)
		snprintf(num, len, "-");
	else if (l == 10 && !isnan(c->w.p) && c->w.p < 0.0001)
		snprintf(num, len, "<0.0001");
	else if (l == 10)
		fmt_value(num, len, c->w.p, 4);
	else if (l == 11)
		fmt_value(num, len, c->w.df, 2);
	else if (l == 12)
		fmt_value(num, len, c->ratio.r, 4);
	else if (c->ratio.unbounded)
		snprintf(num, len, "unbounded");
	else
		fmt_value(num, len, l == 13 ? c->ratio.lo : c->ratio.hi, 4);
}

/*
 * Lines 0-14 are of the iterations, pooled over a folder's runs (the
 * iteration-level spread); 15 on of the run means (verdict.h): runs a
 * side, Welch's p, the family's adjusted p, the two one-sided tests'
 * p and the verdict.
 */
static void
detail_block(FILE *f, const struct model *md, struct model_row *r,
    const struct report_opts *o)
{
	static const char *const lab[] = {
		"n", "mean", "sd", "CoV%", "min", "median", "max",
		"95% CI low", "95% CI high", "change%", "Welch p", "Welch df",
		"ratio", "ratio CI low", "ratio CI high", "runs a/b",
		"run p", "adjusted p", "same p", "verdict",
	};
	const struct rl_set *s = md->s;
	char num[64];
	int dec = model_decimals(r, s->nk), perblk, first, last, i, l;

	for (i = 1; i < s->nk; i++)
		rs_cmp_ratio(&r->d[0], &r->d[i], &r->c[i]);
	fprintf(f, "%s (%s, %s)\n", r->name, r->unit,
	    r->dir == VB_LOWER ? "lower is better" : r->dir == VB_HIGHER ?
	    "higher is better" : "information only");
	perblk = per_block(o->width, 13);
	for (first = 0; first < s->nk; first += perblk) {
		last = first + perblk > s->nk ? s->nk : first + perblk;
		kernel_header(f, s, 13, first, last);
		for (l = 0; l < (int)(sizeof(lab) / sizeof(lab[0])); l++) {
			if (l >= 9 && s->nk == 1)
				break;	/* nothing to compare with */
			fprintf(f, "%-13s", lab[l]);
			for (i = first; i < last; i++) {
				const struct rs_desc *d = &r->d[i];

				if (l >= 9 && i == 0) {
					fmt_cell(f, "", DETW, 0);
					continue;
				}
				if (l >= 15)
					run_cell(num, sizeof(num), l, md, r,
					    i);
				else
					detail_cell(num, sizeof(num), l, r, i,
					    dec);
				if (d->n == 0 && l != 0)
					snprintf(num, sizeof(num), "-");
				fmt_cell(f, num, DETW, 0);
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
    const struct report_opts *o)
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
	perblk = per_block(o->width, 15);
	for (first = 0; first < s->nk; first += perblk) {
		last = first + perblk > s->nk ? s->nk : first + perblk;
		kernel_header(f, s, 15, first, last);
		for (l = 0; l < DV_N; l++) {
			fprintf(f, "%-15s", lab[l]);
			for (i = first; i < last; i++)
				fmt_cell(f, fmt_value(num, sizeof(num),
				    v[i][l], l == DV_SWPIN || l == DV_SWPOUT ||
				    l == DV_SCANRATE ? 0 : 2), DETW, 0);
			fputc('\n', f);
		}
	}
	free(v);
}

/* ---- the folders' notes, folded ---- */

/*
 * The next part of a note from *@pos, split at "; " outside
 * parentheses (a part may hold "; " in its parentheses): its start in
 * *@b and length in *@n; 0 when there is none left.
 */
static int
note_next(const char **pos, const char **b, size_t *n)
{
	const char *p = *pos;
	int depth = 0;

	if (!p)
		return 0;
	for (*b = p;; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		if (*p && !(depth == 0 && p[0] == ';' && p[1] == ' '))
			continue;
		*n = (size_t)(p - *b);
		*pos = *p ? p + 2 : NULL;
		return 1;
	}
}

/* The parts of @note into *@out (allocated, each allocated); how many. */
static int
note_parts(const char *note, char ***out)
{
	const char *pos = note, *b;
	char **v = NULL;
	size_t len;
	int n = 0;

	*out = NULL;
	if (!note || !*note)
		return 0;
	while (note_next(&pos, &b, &len)) {
		v = vb_xrealloc(v, (size_t)(n + 1) * sizeof(*v));
		v[n] = vb_xcalloc(len + 1, 1);
		memcpy(v[n++], b, len);
	}
	*out = v;
	return n;
}

static void
free_parts(char **v, int n)
{
	while (n-- > 0)
		free(v[n]);
	free(v);
}

/*
 * Is @part one of the parts of kernel @k's note on @id?  Compared where
 * they lie, not copied: part_mask() asks this of every section for
 * every part of every note.
 */
static int
has_note_part(const struct rl_set *s, int k, const char *id,
    const char *part)
{
	const struct vb_res *r = rl_find(&s->k[k], id);
	const char *pos, *b;
	size_t n = strlen(part), len;

	if (!r || !r->note || !*r->note)
		return 0;
	pos = r->note;
	while (note_next(&pos, &b, &len))
		if (len == n && !memcmp(b, part, n))
			return 1;
	return 0;
}

/* Does id @i get a section of its own in the default view? */
static int
shown_id(const struct rl_set *s, int i)
{
	return !form_rides(s, s->ids[i]);
}

/*
 * Where @part is in kernel @k's notes: @mask (nids + 1 bytes) gets '1'
 * for each section whose note has it, else '0'; the number of '1's.
 */
static int
part_mask(const struct rl_set *s, int k, const char *part, char *mask)
{
	int i, n = 0;

	for (i = 0; i < s->nids; i++) {
		mask[i] = shown_id(s, i) && has_note_part(s, k, s->ids[i],
		    part) ? '1' : '0';
		n += mask[i] == '1';
	}
	mask[s->nids] = '\0';
	return n;
}

/* Does @mask name every section kernel @k has? */
static int
every_section(const struct rl_set *s, int k, const char *mask)
{
	int i;

	for (i = 0; i < s->nids; i++)
		if (shown_id(s, i) && rl_find(&s->k[k], s->ids[i]) &&
		    mask[i] != '1')
			return 0;
	return 1;
}

/* @text with every run of blanks and newlines as one blank (allocated). */
static char *
squeeze(const char *text)
{
	char *d = vb_xcalloc(strlen(text) + 1, 1), *q = d;

	for (; *text; text++) {
		if (*text == ' ' || *text == '\n') {
			if (q > d && q[-1] != ' ')
				*q++ = ' ';
			continue;
		}
		*q++ = *text;
	}
	*q = '\0';
	return d;
}

/*
 * The default view's folders' notes said under more than one
 * benchmark, once at the top: "! a, b: NOTE" when under every
 * benchmark of those folders, else "! a, b (ID, ID): NOTE"; what the
 * settings above already say (@said, their text) is left out.  A note
 * is taken by its parts (note_parts()); the parts said under one
 * benchmark only stay there (local_notes()).
 */
static void
top_notes(FILE *f, const struct rl_set *s, const char *said,
    const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	char *mask = vb_xcalloc((size_t)s->nids + 1, 1);
	char *mask2 = vb_xcalloc((size_t)s->nids + 1, 1);
	char *ssaid = squeeze(said), *sq, **v;
	int i, j, k, k2, n, np, all, first, dup;

	for (k = 0; k < s->nk; k++)
		for (i = 0; i < s->nids; i++) {
			const struct vb_res *r = rl_find(&s->k[k], s->ids[i]);

			if (!shown_id(s, i) || !r || !r->note)
				continue;
			np = note_parts(r->note, &v);
			for (j = 0; j < np; j++) {
				/* once: at its first section, if in two */
				if (part_mask(s, k, v[j], mask) < 2 ||
				    strchr(mask, '1') - mask < i)
					continue;
				sq = squeeze(v[j]);
				dup = strstr(ssaid, sq) != NULL;
				free(sq);
				/* a folder before k with the same: said */
				for (k2 = 0; !dup && k2 < k; k2++)
					dup = (part_mask(s, k2, v[j], mask2),
					    !strcmp(mask, mask2));
				if (dup)
					continue;
				vb_buf_printf(&line, "! %s", s->k[k].label);
				for (k2 = k + 1; k2 < s->nk; k2++)
					if (part_mask(s, k2, v[j], mask2),
					    !strcmp(mask, mask2))
						vb_buf_printf(&line, ", %s",
						    s->k[k2].label);
				all = every_section(s, k, mask);
				for (first = 1, n = 0; !all && n < s->nids;
				    n++)
					if (mask[n] == '1') {
						vb_buf_printf(&line, "%s%s",
						    first ? " (" : ", ",
						    s->ids[n]);
						first = 0;
					}
				vb_buf_printf(&line, "%s: %s", all ? "" : ")",
				    v[j]);
				fmt_wrap(f, vb_buf_str(&line), o->width, 4);
				vb_buf_free(&line);
			}
			free_parts(v, np);
		}
	free(ssaid);
	free(mask);
	free(mask2);
}

/*
 * The notes of @id's section that top_notes() does not fold: each
 * folder's parts said under this benchmark only, "! a: NOTE", or
 * "! a, b: NOTE" when the same in several folders.
 */
static void
local_notes(FILE *f, const struct rl_set *s, const char *id,
    const struct report_opts *o)
{
	struct vb_buf *loc = vb_xcalloc((size_t)s->nk, sizeof(*loc));
	struct vb_buf line = VB_BUF_INIT;
	char *mask = vb_xcalloc((size_t)s->nids + 1, 1), **v;
	int k, k2, j, np;

	for (k = 0; k < s->nk; k++) {
		const struct vb_res *r = rl_find(&s->k[k], id);

		if (!r || !r->note)
			continue;
		np = note_parts(r->note, &v);
		for (j = 0; j < np; j++)
			if (part_mask(s, k, v[j], mask) < 2)
				vb_buf_printf(&loc[k], "%s%s", loc[k].len ?
				    "; " : "", v[j]);
		free_parts(v, np);
	}
	for (k = 0; k < s->nk; k++) {
		if (!loc[k].len)
			continue;
		for (k2 = 0; k2 < k; k2++)
			if (!strcmp(vb_buf_str(&loc[k2]), vb_buf_str(&loc[k])))
				break;
		if (k2 < k)
			continue;	/* printed with k2 */
		vb_buf_printf(&line, "! %s", s->k[k].label);
		for (k2 = k + 1; k2 < s->nk; k2++)
			if (!strcmp(vb_buf_str(&loc[k2]), vb_buf_str(&loc[k])))
				vb_buf_printf(&line, ", %s", s->k[k2].label);
		vb_buf_printf(&line, ": %s", vb_buf_str(&loc[k]));
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
		vb_buf_free(&line);
	}
	for (k = 0; k < s->nk; k++)
		vb_buf_free(&loc[k]);
	free(loc);
	free(mask);
}

/* ---- the compare view ---- */

/*
 * The default view's one line on a machine busy with other work during
 * @id (setup_quiet_warn() has the details: --detail); nothing when the
 * top warning has them all (o->quiet_merged).
 */
static void
quiet_line(FILE *f, const struct rl_set *s, const char *id,
    const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	struct setup_quiet q;
	int k, n = 0;

	for (k = 0; k < s->nk; k++) {
		setup_quiet_of(rl_find(&s->k[k], id), o->quiet, &q);
		if (q.quiet != 0)
			continue;
		vb_buf_printf(&line, "%s %.*f%% in %s", n++ ? "," :
		    "! not quiet: other processes used (mean, % of a CPU)",
		    fabs(q.mean) < 10 ? 1 : 0, q.mean, s->k[k].label);
	}
	if (n && !o->quiet_merged)
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
}

/* Has some folder several runs (make ab's: several iterations)? */
static int
several_runs(const struct rl_set *s)
{
	int k;

	for (k = 0; k < s->nk; k++)
		if (s->k[k].nruns > 1 || s->k[k].iter_is_run)
			return 1;
	return 0;
}

/* Is @name one of @list (NULL-terminated)? */
static int
listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

/*
 * The default view of @id: the table of the key rows (struct
 * model_row) under "== ID ==" (the command is --detail's), their notes,
 * the other load, which of the metrics only --detail shows are marked,
 * and the forms' lines of what ran beside it (the probe).
 */
static void
key_section(FILE *f, const struct model *md, const char *id,
    struct model_row *rows, int nrows, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct model_row *sel = vb_xcalloc((size_t)nrows, sizeof(*sel));
	struct vb_buf line = VB_BUF_INIT, marks = VB_BUF_INIT;
	struct report_opts ko = *o;
	char *buf = NULL;
	size_t len = 0;
	const struct form *fm;
	int n = 0, more = 0, nmark = 0, i, j, h;
	FILE *m;

	h = model_headline(s, id, rows, nrows);
	fm = form_of(id, 0);
	for (j = 0; j < nrows; j++) {
		if (fm && fm->view_key ? j == h || listed(fm->view_key,
		    rows[j].name) : rows[j].key) {
			sel[n++] = rows[j];
			/* a star of --detail's family this view drops */
			for (i = 1; i < s->nk; i++)
				if (rows[j].vd[i].star && !model_verdict(md,
				    &rows[j], i, NULL)->star)
					break;
			if (i < s->nk && nmark++ < 5)
				vb_buf_printf(&marks, "%s %s", nmark > 1 ?
				    "," : ":", rows[j].name);
			continue;
		}
		/* what --detail shows beyond this view: its table's rows */
		if (!model_row_shown(&rows[j], s->nk))
			continue;
		more++;
		/* starred here: "also changed"; else --detail's only */
		for (i = 1; i < s->nk; i++)
			if (rows[j].vd[i].star && !model_verdict(md,
			    &rows[j], i, NULL)->star)
				break;
		/* five names at most: a few lines per benchmark */
		if (i < s->nk && nmark++ < 5)
			vb_buf_printf(&marks, "%s %s", nmark > 1 ? "," : ":",
			    rows[j].name);
	}
	if (nmark > 5)
		vb_buf_printf(&marks, " and %d more", nmark - 5);
	vb_buf_printf(&line, "== %s ==", id);
	ko.title = vb_buf_str(&line);
	table_print(f, s, id, sel, n, &ko);
	ko.title = NULL;
	vb_buf_free(&line);
	/* one run in every folder: the legend's can't tell says it all */
	if (several_runs(s))
		table_verdict_line(f, md, id, sel, n, o);
	if (rl_param_diffs(s, id, &line))
		fprintf(f, "parameters differ (--allow-different-params):\n%s",
		    vb_buf_str(&line));
	vb_buf_free(&line);
	ko.short_notes = 1;
	ko.notes_apart = 1;
	table_notes(f, s, id, sel, n, &ko);
	setup_others_note(f, s, id, sel, n, &ko);
	local_notes(f, s, id, o);
	quiet_line(f, s, id, o);
	setup_mem_line(f, s, id, o);
	table_also_changed(f, md, rows, nrows, sel, n, o);
	if (nmark) {
		vb_buf_printf(&line, "--detail has %d more metric%s; marked * "
		    "there (Benjamini-Hochberg)%s", more, more == 1 ? "" : "s",
		    vb_buf_str(&marks));
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	}
	vb_buf_free(&line);
	vb_buf_free(&marks);
	/* the forms' lines, without the blank line the other views want */
	m = open_memstream(&buf, &len);
	if (!m)
		die("out of memory");
	form_beside(m, s, id);
	fclose(m);
	fputs(buf[0] == '\n' ? buf + 1 : buf, f);
	free(buf);
	/* their starred figures: counted by the gate, so shown */
	for (i = 0; i < s->nids; i++) {
		const char *at = strchr(s->ids[i], '@');

		if (at && !strcmp(at + 1, id) && form_rides(s, s->ids[i]))
			table_beside_changed(f, md, s->ids[i], o);
	}
	fputc('\n', f);
	free(sel);
}

/* --detail's view of @id: every metric and its statistics. */
static void
section(FILE *f, const struct model *md, const char *id,
    const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	const struct vb_res *r0 = model_any(s, id);
	struct model_row *rows;
	struct vb_buf text = VB_BUF_INIT;
	int nrows, h, j;

	nrows = model_rows(md, id, &rows);
	if (!o->detail) {
		key_section(f, md, id, rows, nrows, o);
		return;
	}
	vb_buf_printf(&text, "== %s == %s", id, r0->cmdline);
	fmt_wrap(f, vb_buf_str(&text), o->width, 4);
	vb_buf_free(&text);
	if (rl_param_diffs(s, id, &text))
		fprintf(f, "parameters differ (--allow-different-params):\n%s",
		    vb_buf_str(&text));
	vb_buf_free(&text);
	setup_quiet_warn(f, s, id, o);
	setup_run_load_lines(f, md, id, o);
	fputc('\n', f);
	table_print(f, s, id, rows, nrows, o);
	table_notes(f, s, id, rows, nrows, o);
	setup_others_note(f, s, id, rows, nrows, o);
	fputc('\n', f);
	derived_table(f, s, id, o);
	h = model_headline(s, id, rows, nrows);
	/* what ran beside it, if anything (the probe) */
	form_beside(f, s, id);
	if (h >= 0) {
		fputc('\n', f);
		bars_headline(f, s, &rows[h], o->width);
		fputc('\n', f);
		detail_block(f, md, &rows[h], o);
	}
	for (j = 0; o->detail && j < nrows; j++)
		if (j != h && model_row_shown(&rows[j], s->nk)) {
			fputc('\n', f);
			detail_block(f, md, &rows[j], o);
		}
	fputc('\n', f);
}

/*
 * The benchmarks' own forms after the sections (FORM_TEXT: contest's
 * table of makesim's load variants, tworead's n-by-kernel table), each
 * only when the folders have such runs.
 */
static void
text_forms(FILE *f, const struct rl_set *s, const struct report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int i;

	for (i = 0; forms[i]; i++) {
		if (!(forms[i]->flags & FORM_TEXT))
			continue;
		m = open_memstream(&buf, &len);
		if (!m)
			die("out of memory");
		forms[i]->table(m, s, forms[i]->bench, o->width);
		fclose(m);
		if (len) {
			fprintf(f, "%s\n\n", forms[i]->text_title ?
			    forms[i]->text_title : forms[i]->title);
			fwrite(buf, 1, len, f);
		}
		free(buf);
		buf = NULL;
		len = 0;
	}
}

static void summary_tables(FILE *f, const struct model *md,
    const struct report_opts *o, int headlines);

/* "3" or "2 to 5": the runs a side of the comparisons. */
static char *
runs_range(char *buf, size_t len, const struct model *md)
{
	if (md->runs_min == md->runs_max)
		snprintf(buf, len, "%d", md->runs_min);
	else
		snprintf(buf, len, "%d to %d", md->runs_min, md->runs_max);
	return buf;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The run-to-run CoV behind the one-run line: the median over the
 * headlines compared with one run on a side of the CoV of the side
 * with several runs; RV_RUN_COV (*@assumed 1) when none has.
 */
static double
one_run_cov(const struct model *md, int *assumed)
{
	const struct rl_set *s = md->s;
	struct model_row *rows;
	double *v = vb_xcalloc((size_t)(s->nids * s->nk + 1), sizeof(*v));
	double cov;
	int n = 0, i, k, h, nr;

	for (i = 0; i < s->nids; i++) {
		nr = model_rows(md, s->ids[i], &rows);
		if ((h = model_headline(s, s->ids[i], rows, nr)) < 0)
			continue;
		for (k = 1; k < s->nk; k++)
			if (rows[h].rc[k].why == RV_ONE_RUN &&
			    !rows[h].rc[k].run_cov_assumed &&
			    isfinite(rows[h].rc[k].run_cov))
				v[n++] = rows[h].rc[k].run_cov;
	}
	*assumed = n == 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	cov = n == 0 ? RV_RUN_COV : n % 2 ? v[n / 2] :
	    (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	return cov;
}

/*
 * The legend of the stars and the words: the procedure and its family
 * size, what one run a side means, the --detail stars the default view
 * does not show.
 */
static void
legend(FILE *f, const struct model *md, const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	char runs[64], b1[32];
	double cov, n1, n10;
	int assumed;

	model_ready(md);
	runs_range(runs, sizeof(runs), md);
	if (!several_runs(md->s))
		;	/* every verdict can't tell: the line below */
	else if (md->runs_max < 2)
		vb_buf_printf(&line, "Verdicts:");
	else {
		vb_buf_printf(&line, "* changed (run means, %s run%s a side): ",
		    runs, md->runs_max == 1 ? "" : "s");
		table_family_words(&line, md, o->detail);
	}
	if (several_runs(md->s))
		fmt_wrap(f, vb_buf_str(&line), o->width, 0);
	vb_buf_free(&line);
	if (md->runs_min == 1) {
		cov = one_run_cov(md, &assumed);
		n1 = rv_runs_needed(cov, md->min_change / 100, md->alpha);
		n10 = rv_runs_needed(cov, 0.10, md->alpha);
		vb_buf_printf(&line, "One run a side: nothing is starred. A "
		    "difference includes run-to-run drift that one run a "
		    "side cannot measure%s; at a run-to-run CoV of %s%% (%s), "
		    "about %.0f runs a side would decide a %g%% change, %.0f "
		    "a 10%% change.", several_runs(md->s) ? "" :
		    " (can't tell)", fmt_num(b1, sizeof(b1), "%.3g",
		    cov * 100), assumed ? "assumed" :
		    "median of the headlines' side with several runs", n1,
		    md->min_change, n10);
		fmt_wrap(f, vb_buf_str(&line), o->width, 0);
		vb_buf_free(&line);
	}
	if (!o->detail && md->nhidden) {
		vb_buf_printf(&line, "--detail stars %d figure%s this view does "
		    "not star (Benjamini-Hochberg).", md->nhidden,
		    md->nhidden == 1 ? "" : "s");
		fmt_wrap(f, vb_buf_str(&line), o->width, 0);
		vb_buf_free(&line);
	}
}

void
text_compare(FILE *f, const struct model *md, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct report_opts ko = *o;
	char line[1024], *said = NULL;
	size_t len = 0;
	FILE *m;
	int i;

	snprintf(line, sizeof(line), "vmbench report: %d kernel%s, baseline "
	    "%s (%s)", s->nk, s->nk == 1 ? "" : "s", s->k[0].label,
	    s->k[0].dir);
	fmt_wrap(f, line, o->width, 4);
	rl_runs_header(f, s, o->width);
	m = open_memstream(&said, &len);
	if (!m)
		die("out of memory");
	setup_settings(m, s, o->width);
	fclose(m);
	fputs(said, f);
	ko.quiet_merged = !o->detail &&
	    (setup_all_loaded(f, s, o, "--detail: each run") ||
	    setup_some_loaded(f, s, o, "--detail: each run"));
	if (!ko.quiet_merged)
		setup_quiet_summary(f, s, o);
	setup_loud_runs(f, s, o);
	setup_load_differs(f, md, o);
	if (!o->detail)
		top_notes(f, s, said, o);
	free(said);
	fputc('\n', f);
	if (o->detail)
		snprintf(line, sizeof(line), "Means of all runs' iterations; "
		    "(+x.xx%%) is the change against the baseline, positive = "
		    "better (for info metrics: the plain change); * changed "
		    "(below) by at least %g%% (never on info metrics); ~ noisy "
		    "(CoV > %.0f%%); ! run incomplete; [system] a counter of "
		    "the whole machine, [cgroup] of the benchmark's memory "
		    "cgroup (MEM=).", md->min_change, o->noisy * 100);
	else
		snprintf(line, sizeof(line), "Key figures not zero in every "
		    "run, means of all runs (--detail: all); "
		    "(+x.xx%%) change, + = better (info: plain); * changed "
		    "(below; change >= %g%%, not info); ~ noisy (CoV > %.0f%%; "
		    "note: the change the headline's runs could detect); ! "
		    "incomplete; [system] machine-wide, [cgroup] the memory "
		    "cgroup's (MEM=).", md->min_change, o->noisy * 100);
	fmt_wrap(f, line, o->width, 0);
	if (s->nk > 1)
		legend(f, md, o);
	for (i = 0; i < s->nk; i++)
		if (rl_meta(&s->k[i], "status") &&
		    strcmp(rl_meta(&s->k[i], "status"), "complete"))
			fprintf(f, "! %s: suite run %s\n", s->k[i].label,
			    rl_meta(&s->k[i], "status"));
	fputc('\n', f);
	for (i = 0; i < s->nids; i++)
		if (o->detail || !form_rides(s, s->ids[i]))
			section(f, md, s->ids[i], &ko);
	text_forms(f, s, o);
	/* two folders: the sections' tables have every headline already */
	summary_tables(f, md, o, o->detail || s->nk != 2);
}

/* ---- LMbench-style summaries: one kernel per row ---- */

#define SUMW 10

/* The summary's three header lines: bench, @variant, unit. */
static void
summary_header(FILE *f, const struct rl_set *s, struct model_row **rows,
    const int *hl, int first, int last, int labw)
{
	char buf[128];
	int j, k;

	for (k = 0; k < 3; k++) {
		fmt_cell(f, k == 0 ? "Kernel" : "", labw, 1);
		for (j = first; j < last; j++) {
			const char *id = s->ids[j], *at = strchr(id, '@');
			const struct model_row *r = hl[j] >= 0 ?
			    &rows[j][hl[j]] : NULL;

			if (k == 0)
				model_bench_of(id, buf, sizeof(buf));
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
			fmt_cell(f, buf, SUMW, 0);
		}
		fputc('\n', f);
	}
}

/*
 * Per kernel: the geometric mean of its time-like ratios with runs as
 * the unit, and its 95% CI with two runs a side or more.
 */
static void
geo_table(FILE *f, const struct model *md, int labw, int lead)
{
	const struct rl_set *s = md->s;
	char num[32], lab[32];
	int i;

	fprintf(f, "%sTime-like metrics (s, ms, us, ns; lower is better), "
	    "runs as the unit:\ngeometric mean of the ratios kernel/"
	    "baseline, with its 95%% CI\n(2 runs a side or more); below 1 = "
	    "faster\n\n", lead ? "\n" : "");
	fprintf(f, "%-*s %7s %5s %8s  %s\n", labw, "Kernel", "metrics",
	    "runs", "ratio", "95% CI");
	for (i = 1; i < s->nk; i++) {
		struct rs_georun g;

		model_geo(md, i, &g);
		fmt_cell(f, fmt_label(lab, sizeof(lab), s, i, labw - 1), labw,
		    1);
		if (!g.k) {
			fprintf(f, " %7d %5s %8s\n", 0, "-", "-");
			rs_georun_free(&g);
			continue;
		}
		snprintf(num, sizeof(num), "%d/%d", g.na, g.nb);
		fprintf(f, " %7d %5s", g.k, num);
		fprintf(f, " %8s  ", fmt_num(num, sizeof(num), "%.4f", g.g));
		if (!isfinite(g.lo) || !isfinite(g.hi))
			fprintf(f, "-\n");
		else
			fprintf(f, "[%.4f, %.4f]\n", g.lo, g.hi);
		rs_georun_free(&g);
	}
}

/*
 * The headline of every benchmark, one row per kernel (@headlines),
 * and the geometric means.
 */
static void
summary_tables(FILE *f, const struct model *md, const struct report_opts *o,
    int headlines)
{
	const struct rl_set *s = md->s;
	struct model_row **rows = vb_xcalloc((size_t)s->nids, sizeof(*rows));
	int *nrows = vb_xcalloc((size_t)s->nids, sizeof(int));
	int *hl = vb_xcalloc((size_t)s->nids, sizeof(int));
	int labw = 10, perblk, first, last, i, j, k, nwork;
	char num[64], lab[32];

	for (i = 0; i < s->nk; i++)
		if ((int)strlen(s->k[i].label) + 1 > labw)
			labw = (int)strlen(s->k[i].label) + 1;
	if (labw > 24)
		labw = 24;
	for (j = 0; j < s->nids; j++) {
		nrows[j] = model_rows(md, s->ids[j], &rows[j]);
		hl[j] = model_headline(s, s->ids[j], rows[j], nrows[j]);
	}
	nwork = 0;
	if (headlines)
		fprintf(f, "Summary: each benchmark's headline figure, mean of "
		    "runs\n(unit with + higher is better, - lower is "
		    "better)\n");
	perblk = (o->width - labw) / SUMW;
	if (perblk < 1)
		perblk = 1;
	for (first = 0; headlines && first < s->nids; first += perblk) {
		last = first + perblk > s->nids ? s->nids : first + perblk;
		fputc('\n', f);
		summary_header(f, s, rows, hl, first, last, labw);
		for (k = 0; k < labw; k++)
			fputc('-', f);
		for (j = first; j < last; j++)
			fprintf(f, " %.*s", SUMW - 1, "---------");
		fputc('\n', f);
		for (i = 0; i < s->nk; i++) {
			fmt_cell(f, fmt_label(lab, sizeof(lab), s, i, labw -
			    1), labw, 1);
			for (j = first; j < last; j++) {
				const struct model_row *r = hl[j] >= 0 ?
				    &rows[j][hl[j]] : NULL;

				if (!r || !rl_find(&s->k[i], s->ids[j]))
					fmt_cell(f, "missing", SUMW, 0);
				else {
					fmt_short(num, sizeof(num), r->d[i].n ?
					    r->d[i].mean : NAN);
					/* another amount of work */
					if (r->other_work[i]) {
						strcat(num, "!");
						nwork++;
					}
					fmt_cell(f, num, SUMW, 0);
				}
			}
			fputc('\n', f);
		}
	}
	if (nwork)
		fprintf(f, "! other work than the baseline's: not compared "
		    "(the notes say which figure)\n");
	if (s->nk > 1)
		geo_table(f, md, labw, headlines);
	free(rows);
	free(nrows);
	free(hl);
}

void
text_summary(FILE *f, const struct model *md, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	int i;

	setup_settings(f, s, o->width);
	setup_quiet_summary(f, s, o);
	for (i = 0; i < s->nids; i++)
		setup_quiet_warn(f, s, s->ids[i], o);
	setup_loud_runs(f, s, o);
	setup_load_differs(f, md, o);
	fputc('\n', f);
	summary_tables(f, md, o, 1);
}
