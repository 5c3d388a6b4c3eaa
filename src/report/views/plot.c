/*
 * plot.c - gnuplot charts, the ones a post links:
 *
 *	summary.{dat,gp,png,svg}  every benchmark's headline figure as a
 *		ratio to the baseline with its 95% interval (Fieller,
 *		rs_cmp_ratio()), one bar group per kernel (two folders or
 *		more)
 *	<id>-<metric>.{dat,gp,png,svg}  one bar per kernel (the mean) with
 *		the 95% CI of the mean as an error bar: the headline (the
 *		metric model_headline() picks); with --detail also every metric
 *		that is not zero in every run and not "info"
 *	<id>-vmstat-{swap,free,cache}.{gp,png,svg} (data in <id>-vmstat.dat)
 *		the sampled series over time, one line per kernel (si and
 *		so; free; cache)
 *
 * Every title has a second line naming the settings that differ
 * between the folders (or saying they are the same), cut to fit.
 *
 * Every range is set from the data, never left to gnuplot's autoscale,
 * so a value equal in every run or a series of one sample draws without
 * a warning; an element with no point to draw is left out.  gnuplot's
 * own messages go to gnuplot.log in the chart folder (removed when
 * blank), never to the terminal; when gnuplot fails, one line says so.
 * Interrupted while gnuplot runs, vmreport stops it (run_gnuplot()).
 *
 * The data and scripts stay beside the images so a user can restyle a
 * chart and rerun `gnuplot NAME.gp` in that folder; all.gp loads every
 * script.  gnuplot is run once, on all.gp, in the chart folder.  Without
 * gnuplot the data and scripts are still written and one line says what
 * to install.  The chart folder may not be (or lie in) a result folder.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msg.h"
#include "model.h"
#include "outdir.h"
#include "setup.h"
#include "util.h"

#define VR_VIEW_PLOT		/* its own header */
#include "plot.h"

/* File-name-safe copy of @s. */
static char *
safe(char *buf, size_t len, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < len && s[i]; i++)
		buf[i] = isalnum((unsigned char)s[i]) ||
		    strchr("_.@-", s[i]) ? s[i] : '_';
	buf[i] = '\0';
	return buf;
}

static FILE *
open_in(const char *dir, const char *name, const char *ext)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	if (!(f = fopen(path, "w")))
		vb_warn_errno("cannot write %s", path);
	return f;
}

static int
close_ok(FILE *f, const char *dir, const char *name)
{
	if (fclose(f) != 0) {
		vb_warn_errno("cannot write %s/%s", dir, name);
		return -1;
	}
	return 0;
}

/*
 * gnuplot string literal into @b: single quotes, '' for a quote, and
 * control characters escaped (vb_esc()): a newline would end the string
 * and start a command in the script.
 */
static void
gp_quote(struct vb_buf *b, const char *s)
{
	size_t n = 4 * strlen(s) + 1;
	char *e = vb_xmalloc(n), *p;

	vb_esc(e, n, s, 0);
	vb_buf_printf(b, "'");
	for (p = e; *p; p++)
		vb_buf_printf(b, *p == '\'' ? "''" : "%c", *p);
	vb_buf_printf(b, "'");
	free(e);
}

static void
gp_str(FILE *f, const char *s)
{
	struct vb_buf b = VB_BUF_INIT;

	gp_quote(&b, s);
	fputs(b.s, f);
	vb_buf_free(&b);
}

/* @s for a .dat line: control characters escaped, '"' as '\''. */
static void
dat_str(FILE *f, const char *s)
{
	size_t n = 4 * strlen(s) + 1;
	char *e = vb_xmalloc(n), *p;

	vb_esc(e, n, s, 0);
	for (p = e; *p; p++)
		fputc(*p == '"' ? '\'' : *p, f);
	free(e);
}

/* Where the charts go and what each title says (plot_charts()). */
struct charts {
	const struct model *m;
	const struct rl_set *s;		/* m's folders */
	const char *dir;		/* the chart folder */
	FILE *all;			/* its all.gp */
	char settings[112];		/* every title's second line:
					   setup_settings_line() */
};

/* The common head of a script: both terminals are set by gp_tail. */
static void
gp_head(FILE *f, const struct charts *ch, const char *name,
    const char *title, const char *xl, const char *yl)
{
	fprintf(f, "# vmbench chart %s: data in %s.dat; run `gnuplot %s.gp` "
	    "in this folder\nreset\nset title ", name, name, name);
	gp_str(f, title);
	if (ch->settings[0]) {
		fputs(" . \"\\n\" . ", f);
		gp_str(f, ch->settings);
	}
	fputs(" noenhanced\nset xlabel ", f);
	gp_str(f, xl);
	fputs("\nset ylabel ", f);
	gp_str(f, yl);
	fputs(" noenhanced\nset grid ytics\nset key noenhanced\n", f);
}

/* Plot @plot once into PNG and once into SVG (@w x @h px). */
static void
gp_tail(FILE *f, const char *name, const char *plot, int w, int h)
{
	fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
	    "    set terminal pngcairo size %d,%d font ',11'\n"
	    "} else {\n    set terminal png size %d,%d\n}\n"
	    "set output '%s.png'\n%s\n"
	    "set terminal svg size %d,%d dynamic font ',11'\n"
	    "set output '%s.svg'\n%s\nunset output\n", w, h, w, h, name,
	    plot, w, h, name, plot);
}

/* The range [lo, hi] seen so far; empty while lo > hi. */
struct range {
	double lo, hi;
};

#define RANGE_EMPTY { INFINITY, -INFINITY }

static void
range_add(struct range *r, double v)
{
	if (!isfinite(v))
		return;
	if (v < r->lo)
		r->lo = v;
	if (v > r->hi)
		r->hi = v;
}

/*
 * "set Xrange [lo:hi]" for @r padded by @pad of its width on each side
 * (a side at @floor, e.g. 0 for a rate, stays there): never an empty
 * range, which gnuplot would widen with a warning.
 */
static void
gp_range(FILE *f, const char *axis, struct range r, double pad)
{
	double w;

	if (r.lo > r.hi)
		r.lo = 0, r.hi = 1;
	w = r.hi - r.lo;
	if (!(w > 0) || !isfinite(w)) {
		/* one value: a band around it (1% of it, at least 0.5) */
		w = fmax(fabs(r.lo) * 0.01, 0.5);
		r.lo -= w;
		r.hi += w;
	} else {
		r.lo -= w * pad;
		r.hi += w * pad;
	}
	fprintf(f, "set %srange [%.10g:%.10g]\n", axis, r.lo, r.hi);
}

/* Bar heights from 0: the range of @r with 0 in it, a margin above. */
static void
gp_bar_range(FILE *f, struct range r)
{
	range_add(&r, 0);
	if (r.lo == 0 && r.hi == 0)
		r.hi = 1;
	fprintf(f, "set yrange [%.10g:%.10g]\n", r.lo < 0 ? r.lo +
	    (r.lo - r.hi) * 0.08 : 0, r.hi > 0 ? r.hi + (r.hi - r.lo) * 0.08 :
	    0);
}

static int
bar_chart(const struct charts *ch, const char *id, const struct model_row *r)
{
	const struct rl_set *s = ch->s;
	const char *dir = ch->dir;
	char name[512], a[256], b[128], title[512], plot[1024];
	struct range y = RANGE_EMPTY;
	int k, bars = 0, cis = 0;
	FILE *f;

	/*
	 * Means beyond 1e300 (their intervals overflow) are beyond what
	 * gnuplot can draw: no chart for such a metric, not a failed plot.
	 */
	for (k = 0; k < s->nk; k++)
		if (r->d[k].n && !(fabs(r->d[k].mean) < 1e300))
			return 0;
	snprintf(name, sizeof(name), "%s-%s", safe(a, sizeof(a), id),
	    safe(b, sizeof(b), r->name));
	if (!(f = open_in(dir, name, "dat")))
		return -1;
	fputs("# ", f);
	dat_str(f, id);
	fprintf(f, " %s (%s): kernel index, label, mean, 95%% CI low, "
	    "high (NaN: not defined, n < 2), n\n", r->name, r->unit);
	for (k = 0; k < s->nk; k++) {
		const struct rs_desc *d = &r->d[k];

		if (!d->n)
			continue;
		bars++;
		range_add(&y, d->mean);
		fprintf(f, "%d \"", k);
		dat_str(f, s->k[k].label);
		/* another amount of work: drawn, named, not compared */
		fprintf(f, " (n=%d%s)\" %.10g ", d->n, r->other_work[k] ?
		    ", !work: other work" : "", d->mean);
		/* gnuplot reads NaN, not inf: an infinite bound is "NaN" */
		if (!isfinite(d->ci_lo) || !isfinite(d->ci_hi)) {
			fprintf(f, "NaN NaN %d\n", d->n);
			continue;
		}
		cis++;
		range_add(&y, d->ci_lo);
		range_add(&y, d->ci_hi);
		fprintf(f, "%.10g %.10g %d\n", d->ci_lo, d->ci_hi, d->n);
	}
	if (close_ok(f, dir, name) || !(f = open_in(dir, name, "gp")))
		return -1;
	snprintf(title, sizeof(title), "%s: %s (%s; %s)", id, r->name,
	    r->dir == VB_LOWER ? "lower is better" : r->dir == VB_HIGHER ?
	    "higher is better" : "information", cis ? "error bars: 95% CI" :
	    "one run: no interval");
	gp_head(f, ch, name, title, "kernel", r->unit);
	fprintf(f, "set style fill solid 0.5 border -1\nset boxwidth 0.6\n"
	    "set xrange [-0.7:%d.7]\nset xtics noenhanced\nunset key\n",
	    s->nk - 1);
	/* the whole interval in view, however wide */
	gp_bar_range(f, y);
	snprintf(plot, sizeof(plot), "plot '%s.dat' using 1:3:xtic(2) with "
	    "boxes lc rgb '#4a7ebb'%s", name, cis ? ", \\\n     '' using "
	    "1:3:4:5 with yerrorbars lc rgb 'black' pt 7 ps 0.3 lw 1.5" : "");
	gp_tail(f, name, plot, 800, 500);
	if (bars)
		fprintf(ch->all, "load '%s.gp'\n", name);
	return close_ok(f, dir, name) ? -1 : bars > 0;
}

/* What the vmstat charts show, over every kernel. */
struct vm_ranges {
	struct range t, y[3];		/* time; si/so, free, cache */
};

/* The .vmstat series of @id for one kernel: t si so free cache. */
static int
copy_series(FILE *out, const struct rl_kernel *k, const char *id,
    struct vm_ranges *vr)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	double v[10];
	int rows = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.vmstat", k->dir, id);
	if (!(f = fopen(path, "r")))
		return 0;
	while (getline(&line, &cap, f) >= 0) {
		if (line[0] == '#' || sscanf(line, "%lf %lf %lf %lf %lf %lf "
		    "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4],
		    &v[5], &v[6], &v[7], &v[8], &v[9]) != 10)
			continue;
		/* rounded as written, so the ranges hold what is drawn */
		v[0] = round(v[0] * 1000) / 1000;
		v[8] = round(v[8]);
		v[9] = round(v[9]);
		v[5] = round(v[5] / 1024 * 10) / 10;
		v[7] = round(v[7] / 1024 * 10) / 10;
		fprintf(out, "%.3f %.0f %.0f %.1f %.1f\n", v[0], v[8], v[9],
		    v[5], v[7]);
		range_add(&vr->t, v[0]);
		range_add(&vr->y[0], v[8]);
		range_add(&vr->y[0], v[9]);
		range_add(&vr->y[1], v[5]);
		range_add(&vr->y[2], v[7]);
		rows++;
	}
	free(line);
	fclose(f);
	return rows;
}

/* One kernel's series: a line, or points when it has one sample. */
static void
series_style(struct vb_buf *plot, int rows)
{
	vb_buf_printf(plot, rows > 1 ? "with lines lw 1.5" :
	    "with points pt 7 ps 1");
}

static int
vmstat_charts(const struct charts *ch, const char *id)
{
	const struct rl_set *s = ch->s;
	const char *dir = ch->dir;
	static const struct {
		const char *what, *ylabel, *title;
	} c[] = {
		{ "swap", "kB/s", "swap-in (si) and swap-out (so)" },
		{ "free", "MiB", "free memory" },
		{ "cache", "MiB", "page cache (cache)" },
	};
	char base[300], name[512], title[512], a[256];
	int k, i, nk = 0, *has = calloc((size_t)s->nk, sizeof(int));
	struct vm_ranges vr = { RANGE_EMPTY, { RANGE_EMPTY, RANGE_EMPTY,
	    RANGE_EMPTY } };
	struct vb_buf plot = VB_BUF_INIT;
	FILE *f;

	if (!has)
		die("out of memory");
	snprintf(base, sizeof(base), "%s-vmstat", safe(a, sizeof(a), id));
	if (!(f = open_in(dir, base, "dat"))) {
		free(has);
		return -1;
	}
	fputs("# ", f);
	dat_str(f, id);
	fputs(": the sampled series, one block (index) per kernel:\n"
	    "# t (s) si so (kB/s) free cache (MiB)\n", f);
	for (k = 0; k < s->nk; k++) {
		fprintf(f, "%s# ", k ? "\n\n" : "");
		dat_str(f, s->k[k].label);
		fputc('\n', f);
		has[k] = copy_series(f, &s->k[k], id, &vr);
		nk += has[k] > 0;
		if (!has[k])
			fprintf(f, "NaN NaN NaN NaN NaN\n");
	}
	if (close_ok(f, dir, base) || !nk) {
		free(has);
		return nk ? -1 : 0;
	}
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "%s-%s", base, c[i].what);
		if (!(f = open_in(dir, name, "gp")))
			break;
		snprintf(title, sizeof(title), "%s: %s while it ran", id,
		    c[i].title);
		gp_head(f, ch, name, title, "time (s)", c[i].ylabel);
		fputs("set key outside right top\n", f);
		gp_range(f, "x", vr.t, 0);
		/* rates from 0; memory where it moved */
		if (i == 0) {
			range_add(&vr.y[0], 0);
			fprintf(f, "set yrange [0:%.10g]\n", vr.y[0].hi > 0 ?
			    vr.y[0].hi * 1.05 : 1);
		} else {
			gp_range(f, "y", vr.y[i], 0.05);
		}
		/* one line per kernel; labels quoted for gnuplot */
		vb_buf_printf(&plot, "plot");
		for (k = 0; k < s->nk; k++) {
			if (!has[k])
				continue;
			vb_buf_printf(&plot, "%s '%s.dat' index %d using 1:%d ",
			    plot.len > 4 ? ", \\\n " : "", base, k, i == 0 ?
			    2 : i == 1 ? 4 : 5);
			series_style(&plot, has[k]);
			vb_buf_printf(&plot, " title ");
			if (i == 0) {
				struct vb_buf t = VB_BUF_INIT;

				vb_buf_printf(&t, "%s si", s->k[k].label);
				gp_quote(&plot, t.s);
				vb_buf_printf(&plot, ", '' index %d using 1:3 ",
				    k);
				series_style(&plot, has[k]);
				vb_buf_printf(&plot, " dt 2 title ");
				t.len = 0;
				vb_buf_printf(&t, "%s so", s->k[k].label);
				gp_quote(&plot, t.s);
				vb_buf_free(&t);
			} else {
				gp_quote(&plot, s->k[k].label);
			}
		}
		gp_tail(f, name, plot.s, 800, 500);
		vb_buf_free(&plot);
		fprintf(ch->all, "load '%s.gp'\n", name);
		if (close_ok(f, dir, name))
			break;
	}
	free(has);
	return i == 3 ? 3 : -1;
}

/* Bar colours of the summary, one per kernel, in turn. */
static const char *const colours[] = {
	"#4a7ebb", "#d9813c", "#5a9e4b", "#b94a48", "#8064a2", "#4bacc6",
	"#9b8c3a", "#7f7f7f",
};

/*
 * The summary chart: for every kernel but the baseline, one group of
 * bars, a bar per benchmark: its headline figure's ratio kernel /
 * baseline with Fieller's 95% interval, a dashed line at 1.  The .dat
 * has one block (index) per kernel.  Returns 1 when written, 0 when
 * there is nothing to draw (one folder, or no ratio defined).
 */
static int
summary_chart(const struct charts *ch)
{
	const struct rl_set *s = ch->s;
	const char *dir = ch->dir;
	const char *name = "summary";
	struct vb_buf tics = VB_BUF_INIT, plot = VB_BUF_INIT, lab = VB_BUF_INIT;
	struct range y = RANGE_EMPTY;
	int *hl, k, i, nb = 0, pos, npos, bars = 0, *kbars, *kcis;
	size_t longest = 0;
	char title[512];
	struct model_row **rows;
	FILE *f;

	if (s->nk < 2)
		return 0;
	rows = vb_xcalloc((size_t)s->nids, sizeof(*rows));
	hl = vb_xcalloc((size_t)s->nids, sizeof(int));
	kbars = vb_xcalloc((size_t)s->nk, sizeof(int));
	kcis = vb_xcalloc((size_t)s->nk, sizeof(int));
	for (i = 0; i < s->nids; i++) {
		int n = model_rows(ch->m, s->ids[i], &rows[i]);

		if ((hl[i] = model_headline(s, s->ids[i], rows[i], n)) >= 0)
			nb++;
	}
	if (!(f = open_in(dir, name, "dat"))) {
		nb = -1;
		goto out;
	}
	fprintf(f, "# every benchmark's headline figure as a ratio kernel / "
	    "baseline (");
	dat_str(f, s->k[0].label);
	fputs(") of the means, with\n# its 95% interval (Fieller; NaN: none, "
	    "as with one run or a baseline\n# not clearly away from 0), one "
	    "block (index) per kernel:\n# x, benchmark and metric, ratio, "
	    "95% low, high, n baseline, n kernel\n", f);
	/* groups of nb bars, one position apart */
	for (k = 1; k < s->nk; k++) {
		fprintf(f, "%s# ", k > 1 ? "\n\n" : "");
		dat_str(f, s->k[k].label);
		fputc('\n', f);
		pos = (k - 1) * (nb + 1);
		for (i = 0; i < s->nids; i++) {
			struct model_row *r;
			const struct rs_ratio *q;

			if (hl[i] < 0)
				continue;
			r = &rows[i][hl[i]];
			lab.len = 0;
			vb_buf_printf(&lab, "%s %s%s%s", s->ids[i], r->name,
			    r->dir == VB_LOWER ? " (-)" : r->dir ==
			    VB_HIGHER ? " (+)" : "", r->other_work[k] ?
			    " !work" : "");
			if (lab.len > longest)
				longest = lab.len;
			vb_buf_printf(&tics, "%s", tics.len ? ", " : "");
			gp_quote(&tics, lab.s);
			vb_buf_printf(&tics, " %d", pos);
			fprintf(f, "%d \"", pos++);
			dat_str(f, lab.s);
			fputs("\" ", f);
			/* another amount of work: no ratio (not compared) */
			if (!r->d[0].n || !r->d[k].n || r->other_work[k] ||
			    !isfinite((q = rs_cmp_ratio(&r->d[0], &r->d[k],
			    &r->c[k]))->r)) {
				fprintf(f, "NaN NaN NaN %d %d\n", r->d[0].n,
				    r->d[k].n);
				continue;
			}
			bars++;
			kbars[k]++;
			range_add(&y, q->r);
			fprintf(f, "%.10g ", q->r);
			if (q->unbounded || !isfinite(q->lo) ||
			    !isfinite(q->hi)) {
				fprintf(f, "NaN NaN %d %d\n", r->d[0].n,
				    r->d[k].n);
				continue;
			}
			kcis[k]++;
			range_add(&y, q->lo);
			range_add(&y, q->hi);
			fprintf(f, "%.10g %.10g %d %d\n", q->lo, q->hi,
			    r->d[0].n, r->d[k].n);
		}
	}
	if (close_ok(f, dir, name) || !(f = open_in(dir, name, "gp"))) {
		nb = -1;
		goto out;
	}
	npos = (s->nk - 1) * (nb + 1) - 1;
	snprintf(title, sizeof(title), "headline figures: ratio kernel / %s "
	    "(error bars: 95%% interval, Fieller)", s->k[0].label);
	gp_head(f, ch, name, title, "(+) higher is better, (-) lower is better",
	    "ratio to the baseline");
	/* the labels stand upright under the bars: room for the longest */
	fprintf(f, "set style fill solid 0.6 border -1\nset boxwidth 0.8\n"
	    "set xrange [-0.8:%d.8]\nset xtics rotate by 90 right "
	    "noenhanced (%s)\nset bmargin %d\nset key outside right top\n"
	    "set arrow from graph 0, first 1 to graph 1, first 1 nohead "
	    "dt 2 lc rgb 'gray30'\n", npos, tics.s ? tics.s : "",
	    (int)(longest * 0.5) + 4);
	range_add(&y, 1);
	gp_bar_range(f, y);
	vb_buf_printf(&plot, "plot");
	for (k = 1; k < s->nk; k++) {
		const char *c = colours[(k - 1) % (sizeof(colours) /
		    sizeof(colours[0]))];

		/* an element with no point would make gnuplot warn */
		if (kbars[k]) {
			vb_buf_printf(&plot, "%s '%s.dat' index %d using 1:3 "
			    "with boxes lc rgb '%s' title ", plot.len > 4 ?
			    ", \\\n " : "", name, k - 1, c);
			gp_quote(&plot, s->k[k].label);
		}
		if (kcis[k])
			vb_buf_printf(&plot, ", \\\n '' index %d using 1:3:4:5 "
			    "with yerrorbars lc rgb 'black' pt 7 ps 0.3 lw 1.5 "
			    "notitle", k - 1);
	}
	gp_tail(f, name, plot.s, npos > 20 ? 300 + 25 * npos : 800,
	    400 + 6 * (int)longest);
	if (bars)
		fprintf(ch->all, "load '%s.gp'\n", name);
	nb = close_ok(f, dir, name) ? -1 : bars > 0;
out:
	vb_buf_free(&tics);
	vb_buf_free(&plot);
	vb_buf_free(&lab);
	free(rows);
	free(hl);
	free(kbars);
	free(kcis);
	return nb;
}
/* @path on $PATH (or as given when it has a '/'). */
static int
have_program(const char *prog)
{
	char buf[PATH_MAX];
	const char *p = getenv("PATH"), *e;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (; p && *p; p = *e ? e + 1 : e) {
		e = p + strcspn(p, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(e - p), p, prog);
		if (access(buf, X_OK) == 0)
			return 1;
	}
	return 0;
}

/*
 * The last line gnuplot wrote to @log (its error, after the echo of the
 * offending command) into @buf, control characters escaped; "" if none.
 */
static char *
last_line(char *buf, size_t len, const char *log)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(log, "r");

	buf[0] = '\0';
	if (!f)
		return buf;
	while ((n = getline(&line, &cap, f)) >= 0) {
		while (n > 0 && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (n > 0)
			vb_esc(buf, len, line, 0);
	}
	free(line);
	fclose(f);
	return buf;
}

/*
 * While gnuplot runs, SIGINT, SIGTERM and SIGHUP to vmreport stop it
 * (the handler passes SIGTERM on) and are answered after it is reaped.
 */
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP	((int)(sizeof(stop_sigs) / sizeof(stop_sigs[0])))
static volatile sig_atomic_t stop_sig;
static volatile pid_t gnuplot_pid;

static void
on_stop(int sig)
{
	int e = errno;

	stop_sig = sig;
	if (gnuplot_pid > 0)
		kill(gnuplot_pid, SIGTERM);
	errno = e;
}

/* Catch the stop signals (those not ignored on entry); @old keeps them. */
static void
catch_stops(struct sigaction *old)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSTOP; i++) {
		sigaction(stop_sigs[i], NULL, &old[i]);
		if (old[i].sa_handler != SIG_IGN)
			sigaction(stop_sigs[i], &sa, NULL);
	}
}

static void
restore_stops(const struct sigaction *old)
{
	int i;

	for (i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &old[i], NULL);
}

/* Does @log hold nothing but white space (a gnuplot stopped by ^C)? */
static int
blank_file(const char *log)
{
	FILE *f = fopen(log, "r");
	int c, blank = 1;

	if (!f)
		return 1;
	while (blank && (c = getc(f)) != EOF)
		blank = isspace(c);
	fclose(f);
	return blank;
}

/*
 * Run @gnuplot on all.gp in @dir, its output into @dir/gnuplot.log
 * (removed when blank).  0, or -1 after one line saying why.  When
 * vmreport is interrupted meanwhile, gnuplot is stopped and reaped, the
 * log removed, one line says the charts are incomplete, and vmreport
 * exits 128 + the signal (130 for ^C).
 */
static int
run_gnuplot(const char *dir, const char *gnuplot)
{
	char log[PATH_MAX], msg[256];
	struct sigaction old[NSTOP];
	sigset_t stops, prev;
	pid_t pid;
	int fd, st, i, sig;

	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	if ((fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) < 0) {
		vb_warn_errno("cannot write %s", log);
		return -1;
	}
	fflush(NULL);
	/* held until gnuplot_pid is set, so the handler always sees it */
	sigemptyset(&stops);
	for (i = 0; i < NSTOP; i++)
		sigaddset(&stops, stop_sigs[i]);
	stop_sig = 0;
	catch_stops(old);
	sigprocmask(SIG_BLOCK, &stops, &prev);
	pid = fork();
	if (pid < 0) {
		vb_warn_errno("cannot fork gnuplot");
		sigprocmask(SIG_SETMASK, &prev, NULL);
		restore_stops(old);
		close(fd);
		return -1;
	}
	if (pid == 0) {
		restore_stops(old);
		sigprocmask(SIG_SETMASK, &prev, NULL);
		if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || chdir(dir) != 0)
			_exit(127);
		execlp(gnuplot, gnuplot, "all.gp", (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	gnuplot_pid = pid;
	sigprocmask(SIG_SETMASK, &prev, NULL);
	close(fd);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			vb_warn_errno("cannot wait for %s", gnuplot);
			gnuplot_pid = 0;
			restore_stops(old);
			return -1;
		}
	gnuplot_pid = 0;
	restore_stops(old);
	if ((sig = stop_sig) != 0) {
		unlink(log);
		vb_warn("interrupted by signal %d (%s): %s stopped, the charts in "
		    "%s are incomplete", sig, strsignal(sig), gnuplot, dir);
		exit(128 + sig);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		if (blank_file(log))
			unlink(log);
		return 0;
	}
	if (blank_file(log)) {
		/* nothing worth keeping: what a ^C to gnuplot alone leaves */
		unlink(log);
		if (WIFSIGNALED(st))
			vb_warn("%s was killed by signal %d (%s) on %s/all.gp: "
			    "the charts there are incomplete", gnuplot,
			    WTERMSIG(st), strsignal(WTERMSIG(st)), dir);
		else
			vb_warn("%s stopped with status %d and no message on "
			    "%s/all.gp (interrupted?): the charts there are "
			    "incomplete", gnuplot, WEXITSTATUS(st), dir);
		return -1;
	}
	last_line(msg, sizeof(msg), log);
	if (WIFSIGNALED(st))
		vb_warn("%s was killed by signal %d (%s) on %s/all.gp, after: %s "
		    "(all it said: %s)", gnuplot, WTERMSIG(st),
		    strsignal(WTERMSIG(st)), dir, msg, log);
	else
		vb_warn("%s failed on %s/all.gp: %s (all it said: %s)", gnuplot,
		    dir, msg, log);
	return -1;
}

int
plot_charts(const struct model *m, const char *dir, const char *gnuplot,
    int detail)
{
	const struct rl_set *s = m->s;
	struct charts ch = { .m = m, .s = m->s, .dir = dir };
	struct model_row *rows;
	int i, j, n, h, charts = 0, summary;
	char gp[PATH_MAX];
	FILE *all;

	if (outdir_inside(s, dir)) {
		vb_warn("%s: is inside a result folder; charts go elsewhere", dir);
		return -1;
	}
	if (outdir_make(dir) != 0) {
		vb_warn_errno("cannot create chart folder %s", dir);
		return -1;
	}
	snprintf(gp, sizeof(gp), "%s/all.gp", dir);
	if (!(all = fopen(gp, "w"))) {
		vb_warn_errno("cannot write %s", gp);
		return -1;
	}
	fputs("# every chart: gnuplot all.gp (in this folder)\n", all);
	ch.all = all;
	setup_settings_line(ch.settings, sizeof(ch.settings), s);
	if ((summary = summary_chart(&ch)) < 0)
		goto fail;
	charts += summary;
	for (i = 0; i < s->nids; i++) {
		n = model_rows(m, s->ids[i], &rows);
		h = model_headline(s, s->ids[i], rows, n);
		for (j = 0; j < n; j++) {
			/* zero in every run, or measured nowhere */
			int zero = !model_row_shown(&rows[j], s->nk), c;

			/* the headline; with --detail the others too */
			if (j != h && (!detail || zero ||
			    rows[j].dir == VB_INFO))
				continue;
			if (j == h && zero)
				continue;
			if ((c = bar_chart(&ch, s->ids[i], &rows[j])) < 0)
				goto fail;
			charts += c;
		}
		if ((j = vmstat_charts(&ch, s->ids[i])) < 0)
			goto fail;
		charts += j;
	}
	if (fclose(all) != 0) {
		vb_warn_errno("cannot write %s", gp);
		return -1;
	}
	if (!have_program(gnuplot)) {
		vb_warn("%s not found: %d charts not drawn (data and scripts are "
		    "in %s); install gnuplot: apt-get install gnuplot-nox",
		    gnuplot, charts, dir);
		return -1;
	}
	if (run_gnuplot(dir, gnuplot) != 0)
		return -1;
	fprintf(stderr, "vmreport: %d charts (PNG and SVG) in %s: %s%s\n",
	    charts, dir, summary ? "the summary, " : "", detail ? "every "
	    "metric and the vmstat series of each benchmark" : "each "
	    "benchmark's headline and vmstat series (--detail: every metric)");
	return charts;
fail:
	fclose(all);
	return -1;
}
