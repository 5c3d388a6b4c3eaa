/*
 * plot.c - gnuplot charts, the ones a post links:
 *
 *	summary.{dat,gp,png,svg}  (two folders or more) one row per
 *		benchmark's headline figure and kernel: the ratio to the
 *		baseline of the run means, oriented so that right of 1 is
 *		better, on a log axis centred on 1, Fieller's 95% interval
 *		as a line, the verdict (model_verdict()) as the point's
 *		shape and in the text report's words beside the row
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
#include <dirent.h>
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

#include "fmt.h"
#include "msg.h"
#include "model.h"
#include "outdir.h"
#include "safedir.h"
#include "setup.h"
#include "table.h"
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

	int fd;

	/* @dir is the private folder of plot_charts(): ours, mode 0700 */
	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	if ((fd = vb_create_at(AT_FDCWD, path, O_WRONLY, 0644)) < 0 ||
	    !(f = fdopen(fd, "w"))) {
		vb_warn_errno("cannot write %s", path);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
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

/* @v for a .dat as gnuplot reads it ("NaN", "Inf"), then @sep. */
static void
dat_num(FILE *f, double v, int sep)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "Inf" : "-Inf", f);
	else
		fprintf(f, "%.10g", v);
	fputc(sep, f);
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

/* @s as gnuplot string literals, its lines joined by "\n". */
static void
gp_lines(FILE *f, const char *s)
{
	const char *e;
	char *line;

	for (;;) {
		e = strchr(s, '\n');
		line = vb_xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		gp_str(f, line);
		free(line);
		if (!e)
			break;
		fputs(" . \"\\n\" . ", f);
		s = e + 1;
	}
}

/*
 * The common head of a script: the title with @settings (when not "")
 * as its second line, the axes' labels (lines split at '\n'); both
 * terminals are set by gp_tail.
 */
static void
gp_head(FILE *f, const char *name, const char *title, const char *settings,
    const char *xl, const char *yl)
{
	fprintf(f, "# vmbench chart %s: data in %s.dat; run `gnuplot %s.gp` "
	    "in this folder\nreset\nset title ", name, name, name);
	gp_str(f, title);
	if (settings[0]) {
		fputs(" . \"\\n\" . ", f);
		gp_str(f, settings);
	}
	fputs(" noenhanced\nset xlabel ", f);
	gp_lines(f, xl);
	fputs(" noenhanced\nset ylabel ", f);
	gp_lines(f, yl);
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
	fprintf(f, " %s (%s): kernel index, label, mean of the run means, "
	    "their 95%% CI low, high (NaN: not defined, one run), runs\n",
	    r->name, r->unit);
	for (k = 0; k < s->nk; k++) {
		struct rs_desc rd;
		const struct rs_desc *d = &rd;
		double *v = NULL;
		int nv;

		if (!r->d[k].n)
			continue;
		/* the runs, as the verdict: a run's iterations are one */
		nv = model_run_means(&s->k[k], id, r->name, &v);
		rs_describe(v, nv, 1, &rd);
		free(v);
		if (!d->n)
			continue;
		bars++;
		range_add(&y, d->mean);
		fprintf(f, "%d \"", k);
		dat_str(f, s->k[k].label);
		/* another amount of work: drawn, named, not compared */
		fprintf(f, " (%d run%s%s)\" %.10g ", d->n, d->n == 1 ? "" :
		    "s", r->other_work[k] ? ", !work: other work" : "",
		    d->mean);
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
	    "higher is better" : "information", cis ? "error bars: 95% CI "
	    "of the run means" : "one run: no interval");
	gp_head(f, name, title, ch->settings, "kernel", r->unit);
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

/*
 * The .vmstat file of @id for kernel @k opened: the folder's own, or in
 * a label of runs the first run's that has one (its index in *@run,
 * else 0).
 */
/*
 * @path's series, a regular file of bounded size only (never a FIFO or
 * a device: one line says why); NULL, silently, when it is not there.
 */
static FILE *
open_vmstat(const char *path)
{
	char err[PATH_MAX + 128];
	FILE *f = vb_fopen_read(path, VB_MAX_SERIES, err, sizeof(err));

	if (!f && errno != ENOENT)
		vb_warn("%s", err);
	return f;
}

static FILE *
open_series(const struct rl_kernel *k, const char *id, int *run)
{
	char path[PATH_MAX];
	FILE *f;
	int i;

	*run = 0;
	if (!k->grouped) {
		snprintf(path, sizeof(path), "%s/%s.vmstat", k->dir, id);
		return open_vmstat(path);
	}
	for (i = 0; i < k->nruns; i++) {
		snprintf(path, sizeof(path), "%s/%s.vmstat", k->runs[i].dir, id);
		if ((f = open_vmstat(path))) {
			*run = k->runs[i].index;
			return f;
		}
	}
	return NULL;
}

/*
 * The .vmstat series of @id for one kernel: t si so free cache (of the
 * run open_series() picks, its index in *@run).
 */
static int
copy_series(FILE *out, const struct rl_kernel *k, const char *id,
    struct vm_ranges *vr, int *run)
{
	char *line = NULL;
	size_t cap = 0;
	double v[10];
	int rows = 0;
	FILE *f;

	if (!(f = open_series(k, id, run)))
		return 0;
	if (*run)
		fprintf(out, "# run %d of %d\n", *run, k->nruns);
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
	int *run = vb_xcalloc((size_t)s->nk, sizeof(int));
	char key[300];
	struct vm_ranges vr = { RANGE_EMPTY, { RANGE_EMPTY, RANGE_EMPTY,
	    RANGE_EMPTY } };
	struct vb_buf plot = VB_BUF_INIT;
	FILE *f;

	if (!has)
		die("out of memory");
	snprintf(base, sizeof(base), "%s-vmstat", safe(a, sizeof(a), id));
	if (!(f = open_in(dir, base, "dat"))) {
		free(has);
		free(run);
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
		has[k] = copy_series(f, &s->k[k], id, &vr, &run[k]);
		nk += has[k] > 0;
		if (!has[k])
			fprintf(f, "NaN NaN NaN NaN NaN\n");
	}
	if (close_ok(f, dir, base) || !nk) {
		free(has);
		free(run);
		return nk ? -1 : 0;
	}
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "%s-%s", base, c[i].what);
		if (!(f = open_in(dir, name, "gp")))
			break;
		snprintf(title, sizeof(title), "%s: %s while it ran", id,
		    c[i].title);
		gp_head(f, name, title, ch->settings, "time (s)",
		    c[i].ylabel);
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
			/* a label of runs: the run drawn */
			if (run[k])
				snprintf(key, sizeof(key), "%s (run %d of %d)",
				    s->k[k].label, run[k], s->k[k].nruns);
			else
				snprintf(key, sizeof(key), "%s", s->k[k].label);
			if (i == 0) {
				struct vb_buf t = VB_BUF_INIT;

				vb_buf_printf(&t, "%s si", key);
				gp_quote(&plot, t.s);
				vb_buf_printf(&plot, ", '' index %d using 1:3 ",
				    k);
				series_style(&plot, has[k]);
				vb_buf_printf(&plot, " dt 2 title ");
				t.len = 0;
				vb_buf_printf(&t, "%s so", key);
				gp_quote(&plot, t.s);
				vb_buf_free(&t);
			} else {
				gp_quote(&plot, key);
			}
		}
		gp_tail(f, name, plot.s, 800, 500);
		vb_buf_free(&plot);
		fprintf(ch->all, "load '%s.gp'\n", name);
		if (close_ok(f, dir, name))
			break;
	}
	free(has);
	free(run);
	return i == 3 ? 3 : -1;
}

/* The summary's colours, one per kernel compared, in turn. */
static const char *const colours[] = {
	"#1f4e9c", "#d9813c", "#3d8a2f", "#8064a2", "#b94a48", "#2b9bb3",
	"#9b8c3a", "#555555", "#c45ca2", "#6b4f2a",
};
#define NCOLOURS ((int)(sizeof(colours) / sizeof(colours[0])))

/* The words' colours: better, worse, same, can't tell (or none). */
#define C_BETTER	"#1e7a1e"
#define C_WORSE		"#b02020"
#define C_SAME		"#505050"
#define C_CANT		"#8a6400"

/* The key to the summary's axis and marks, under it. */
#define EXPLAIN1 "oriented ratio to the baseline, right of 1 = better: " \
	"x2 = twice as good (a rate doubled, a time halved), /2 = half as " \
	"good; log scale"
#define EXPLAIN2 "filled: changed (* as in the text report); open " \
	"circle: same within the bound; triangle: can''t tell; line: 95% " \
	"interval"

/* The points: changed filled, same an open circle, can't tell a triangle. */
#define PT_CHANGED	7
#define PT_SAME		6
#define PT_CANT		8

/*
 * One row of the summary chart: kernel k's headline of one benchmark
 * against the baseline, on the run means (the verdict's comparison,
 * model_row.rc), oriented so that a ratio above 1 is better.
 */
struct srow {
	const char *id;
	const struct model_row *m;
	int k;
	double y;			/* the row, 0 at the top */
	double r;			/* oriented ratio; NAN: none */
	double lo, hi;			/* its 95% interval; 0 and INFINITY
					   for an open end; NAN: none */
	const struct rv_verdict *v;
	char text[192];			/* beside the row */
	const char *tc;			/* the text's colour */
};

/*
 * The power (1 or -1) that turns kernel/baseline into a ratio above 1
 * when better: a/b for a metric where lower is better; turned again
 * for a negative baseline mean, where a larger ratio is a more negative
 * mean.  An info metric keeps kernel/baseline (larger to the right).
 */
static int
orient(const struct rv_cmp *c)
{
	int s = c->a.mean < 0 ? -1 : 1;

	return c->dir == VB_LOWER ? -s : s;
}

/* @row's oriented ratio and interval from its comparison @c. */
static void
srow_ratio(struct srow *row, const struct rv_cmp *c)
{
	const struct rs_ratio *q = &c->ratio;
	int s = orient(c);

	row->r = row->lo = row->hi = NAN;
	if (c->why == RV_MISSING || !isfinite(q->r) || !(q->r > 0))
		return;
	row->r = s > 0 ? q->r : 1 / q->r;
	if (q->unbounded) {
		row->lo = 0;
		row->hi = INFINITY;
		return;
	}
	if (!isfinite(q->lo) || !isfinite(q->hi) || !(q->hi > 0))
		return;
	if (s > 0) {
		row->lo = q->lo > 0 ? q->lo : 0;
		row->hi = q->hi;
	} else {
		row->lo = 1 / q->hi;
		row->hi = q->lo > 0 ? 1 / q->lo : INFINITY;
	}
}

/*
 * Why a can't tell is one, after its words: the runs a side that would
 * decide at the measured spread, as the text report's verdict line
 * says it, or that the spread was not measured (assumed: a side of one
 * run) or is unknown.  (The load's can't tell says its reason in its
 * word, table_verdict_word().)
 */
static void
cant_reason(struct srow *row, const struct rv_verdict *v,
    const struct rv_cmp *c)
{
	size_t n = strlen(row->text);

	if (!isnan(v->runs_needed) && !c->run_cov_assumed)
		snprintf(row->text + n, sizeof(row->text) - n, " (%.0f runs "
		    "a side would decide)", v->runs_needed);
	else if (c->run_cov_assumed)
		snprintf(row->text + n, sizeof(row->text) - n, " (too few "
		    "runs to measure the spread)");
	else
		snprintf(row->text + n, sizeof(row->text) - n, " (spread "
		    "unknown)");
}

/*
 * The text beside a row, as the text report's verdict line words it
 * (table_verdict_word()): "changed* -50.9% [-53.7, -46.4]", the
 * label first when several kernels are compared.
 */
static void
srow_text(struct srow *row, const struct rl_set *s)
{
	const struct rv_verdict *v = row->v;
	const struct rv_cmp *c = &row->m->rc[row->k];
	char w[64], a[32], b[32], p[32];
	size_t n;

	n = (size_t)snprintf(row->text, sizeof(row->text), "%s%s",
	    s->nk > 2 ? s->k[row->k].label : "", s->nk > 2 ? ": " : "");
	if (n >= sizeof(row->text))
		n = sizeof(row->text) - 1;
	row->tc = C_CANT;
	if (v->word == RV_NONE) {
		snprintf(row->text + n, sizeof(row->text) - n, "missing in %s",
		    !c->a.n ? s->k[0].label : s->k[row->k].label);
		return;
	}
	table_verdict_word(w, sizeof(w), v);
	if (v->load) {
		snprintf(row->text + n, sizeof(row->text) - n, "%s", w);
		return;
	}
	if (v->word == RV_OTHER_WORK) {
		snprintf(row->text + n, sizeof(row->text) - n, "%s: not "
		    "compared (!work)", w);
		return;
	}
	if (v->word == RV_CHANGED)
		row->tc = c->dir == VB_INFO ? C_SAME : v->change > 0 ?
		    C_BETTER : C_WORSE;
	else if (v->word == RV_SAME)
		row->tc = C_SAME;
	if (isnan(v->change)) {
		snprintf(row->text + n, sizeof(row->text) - n, "%s (no "
		    "ratio: the baseline's mean is 0)", w);
		return;
	}
	fmt_num(p, sizeof(p), "%+.1f", v->change);
	if (c->why == RV_ONE_RUN)
		snprintf(row->text + n, sizeof(row->text) - n, "%s %s%% (one "
		    "run a side)", w, p);
	else if (v->unbounded || isnan(v->lo))
		snprintf(row->text + n, sizeof(row->text) - n, "%s %s%% "
		    "(interval unbounded)", w, p);
	else
		snprintf(row->text + n, sizeof(row->text) - n, "%s %s%% [%s, "
		    "%s]", w, p, fmt_num(a, sizeof(a), "%+.1f", v->lo),
		    fmt_num(b, sizeof(b), "%+.1f", v->hi));
	if (v->word == RV_CANT_TELL && c->why != RV_ONE_RUN)
		cant_reason(row, v, c);
}

/* The point of @v's word. */
static int
word_point(const struct rv_verdict *v)
{
	return v->word == RV_CHANGED ? PT_CHANGED : v->word == RV_SAME ?
	    PT_SAME : PT_CANT;
}

/*
 * The half-width H (natural log) of the axis, which runs from e^-H to
 * e^H around 1: every point inside with a margin; the intervals as
 * far as they reach, but no further than 2.5 times the farthest point
 * or x1.5, whichever is more, so that one wide interval does not
 * squeeze every other row into the middle (its end is then cut with
 * an arrow head); at least x1.05.
 */
static double
axis_half(const struct srow *rows, int n)
{
	double p = 0, e = 0, h;
	int i;

	for (i = 0; i < n; i++) {
		if (isnan(rows[i].r))
			continue;
		p = fmax(p, fabs(log(rows[i].r)));
		if (rows[i].lo > 0)
			e = fmax(e, fabs(log(rows[i].lo)));
		if (isfinite(rows[i].hi))
			e = fmax(e, fabs(log(rows[i].hi)));
	}
	h = fmax(p * 1.15, log(1.05));
	h = fmax(h, fmin(e * 1.05, fmax(2.5 * p, log(1.5))));
	/* beyond 1e12 a ratio is not read off a chart */
	return fmin(h, log(1e12));
}

/*
 * The x tics: 1, and each factor f of 1.01 1.02 1.05 1.1 1.2 1.5 2 3 5
 * 10 ... 1e12 that fits in @h as xf and /f, at least a sixth of @h
 * apart.
 */
static void
axis_tics(FILE *f, double h)
{
	static const double base[] = { 1, 2, 3, 5 }, small[] = { 1.01,
	    1.02, 1.05, 1.1, 1.2, 1.5 };
	double fs[64], last = 0, v;
	int n = 0, i, j;
	char b[32];

	for (i = 0; i < 6; i++)
		fs[n++] = small[i];
	for (i = 0; i < 12; i++)
		for (j = 0; j < 4; j++)
			if (i || j)
				fs[n++] = base[j] * pow(10, i);
	fputs("set xtics (\"1\" 1", f);
	for (i = 0; i < n; i++) {
		v = log(fs[i]);
		if (v > h * 1.001 || v < last + h / 6)
			continue;
		last = v;
		fmt_num(b, sizeof(b), "%g", fs[i]);
		fprintf(f, ", \"x%s\" %.10g, \"/%s\" %.10g", b, fs[i], b,
		    1 / fs[i]);
	}
	fputs(")\n", f);
}

/*
 * The load note of the summary chart, when some run of some side was
 * loud (other processes above the model's quiet thresholds of CPU or
 * memory, a run's mean over a benchmark's iterations; a run counts
 * once, loud in any benchmark charted): "loud runs: aa1 3 of 3, aa2 0
 * of 3 (other processes above 5% of a CPU or 10% of the memory); 4
 * verdicts can't tell: the sides ran under different loads".  1 with
 * the note in @buf, else 0.
 */
static int
load_note(const struct charts *ch, const struct srow *rows, int nrows,
    char *buf, size_t len)
{
	const struct rl_set *s = ch->s;
	const struct model *m = ch->m;
	struct model_runload l;
	struct vb_buf b = VB_BUF_INIT;
	int k, j, i, any = 0, nload = 0, room, rec, loud, ab = 0;
	char *seen;

	vb_buf_printf(&b, "loud runs:");
	for (k = 0; k < s->nk; k++) {
		room = 1;
		for (j = 0; j < nrows; j += s->nk - 1) {
			model_run_loads(&s->k[k], rows[j].id, &l);
			for (i = 0; i < l.n; i++)
				if (l.index[i] >= room)
					room = l.index[i] + 1;
			model_runload_free(&l);
		}
		/* per run: 1 recorded, 2 loud */
		seen = vb_xcalloc((size_t)room, 1);
		for (j = 0; j < nrows; j += s->nk - 1) {
			model_run_loads(&s->k[k], rows[j].id, &l);
			for (i = 0; i < l.n; i++) {
				if (l.index[i] < 0 || (isnan(l.cpu[i]) &&
				    isnan(l.mem[i])))
					continue;
				seen[l.index[i]] |= l.cpu[i] > m->quiet ||
				    l.mem[i] > m->mem_quiet ? 3 : 1;
			}
			model_runload_free(&l);
		}
		for (i = rec = loud = 0; i < room; i++) {
			rec += seen[i] & 1;
			loud += (seen[i] & 2) != 0;
		}
		free(seen);
		any |= loud > 0;
		if (rec)
			vb_buf_printf(&b, "%s %s %d of %d", b.len > 10 ?
			    "," : "", s->k[k].label, loud, rec);
		ab |= s->k[k].iter_is_run;
	}
	if (ab)
		vb_buf_printf(&b, " (make ab: each iteration a run)");
	for (j = 0; j < nrows; j++)
		nload += rows[j].v->load != 0;
	vb_buf_printf(&b, " (other processes above %g%% of a CPU or %g%% of "
	    "the memory)", m->quiet, m->mem_quiet);
	if (nload)
		vb_buf_printf(&b, "; %d verdict%s can't tell: the sides ran "
		    "under different loads", nload, nload == 1 ? "" : "s");
	snprintf(buf, len, "%s", vb_buf_str(&b));
	vb_buf_free(&b);
	return any;
}

/*
 * The summary chart: one row per benchmark's headline figure (with
 * several kernels, one row per kernel in each benchmark's band), the
 * ratio kernel / baseline of the run means oriented so that right of
 * 1 is better, on a log axis centred on 1, Fieller's 95% interval as a
 * line (an arrow head where the axis cuts it), the point filled when
 * the verdict is changed, open when same, a triangle when can't tell,
 * and beside each row the verdict as the text report words it.  The
 * .dat has one block (index) per kernel compared.  Returns 1 when
 * written, 0 when there is nothing to draw (one folder, or no ratio
 * defined).
 */
static int
summary_chart(const struct charts *ch)
{
	const struct model *m = ch->m;
	const struct rl_set *s = ch->s;
	const char *dir = ch->dir;
	const char *name = "summary";
	struct vb_buf tics = VB_BUF_INIT, plot = VB_BUF_INIT, lab = VB_BUF_INIT;
	struct srow *rows;
	struct model_row *mr;
	int *kpts, *kivs, i, k, j, n = 0, nb = 0, ret = -1, pts = 0, hl, nr;
	int longest = 0, longtext = 0, rowpx, w, hgt;
	double gap = s->nk > 2 ? 0.8 : 0, h, lo, hi, ymax = 0;
	char title[512], settings[200], note[400];
	int loud;
	FILE *f;

	if (s->nk < 2)
		return 0;
	rows = vb_xcalloc((size_t)s->nids * (size_t)(s->nk - 1),
	    sizeof(*rows));
	kpts = vb_xcalloc((size_t)s->nk, sizeof(int));
	kivs = vb_xcalloc((size_t)s->nk, sizeof(int));
	/* the rows, benchmark by benchmark, the kernels in each */
	for (i = 0; i < s->nids; i++) {
		nr = model_rows(m, s->ids[i], &mr);
		if ((hl = model_headline(s, s->ids[i], mr, nr)) < 0 ||
		    !model_row_shown(&mr[hl], s->nk))
			continue;
		for (k = 1; k < s->nk; k++) {
			struct srow *r = &rows[n++];

			r->id = s->ids[i];
			r->m = &mr[hl];
			r->k = k;
			r->y = nb * (s->nk - 1 + gap) + (k - 1);
			r->v = model_verdict(m, r->m, k, NULL);
			srow_ratio(r, &r->m->rc[k]);
			/* another amount of work: not compared, no ratio */
			if (r->m->other_work[k])
				r->r = r->lo = r->hi = NAN;
			srow_text(r, s);
			if ((int)strlen(r->text) > longtext)
				longtext = (int)strlen(r->text);
			ymax = r->y;
		}
		nb++;
	}
	h = axis_half(rows, n);
	lo = exp(-h);
	hi = exp(h);
	if (!(f = open_in(dir, name, "dat")))
		goto out;
	fputs("# every benchmark's headline figure, kernel against the "
	    "baseline (", f);
	dat_str(f, s->k[0].label);
	fputs(")\n# on the run means, as the verdict compares them, "
	    "oriented so that a ratio above 1\n# is better (a rate up, a "
	    "time down: baseline / kernel when lower is better);\n# one "
	    "block (index) per kernel compared.  Columns:\n"
	    "#  1 y (the row, 0 at the top)  2 benchmark and metric  "
	    "3 direction\n"
	    "#  4 ratio, oriented (NaN: none)  5 6 its 95% interval "
	    "(Fieller; NaN: none,\n"
	    "#    0 or Inf: that end unbounded)  7 8 the interval as drawn, "
	    "cut at the axis\n"
	    "#  9 arrow: 1 whole, 2 cut on the right, 3 cut on the left, "
	    "4 both\n"
	    "#  10 point: 7 changed, 6 same, 8 can't tell  11 verdict  "
	    "12 change % (+ = better)\n"
	    "#  13 14 runs baseline, kernel  15 kernel / baseline  16 17 "
	    "its 95% interval\n", f);
	for (k = 1; k < s->nk; k++) {
		fprintf(f, "%s# ", k > 1 ? "\n\n" : "");
		dat_str(f, s->k[k].label);
		fputc('\n', f);
		for (j = 0; j < n; j++) {
			struct srow *r = &rows[j];
			const struct rv_cmp *c;
			double a, b;
			int ow;

			if (r->k != k)
				continue;
			c = &r->m->rc[k];
			fprintf(f, "%g \"", r->y);
			dat_str(f, r->id);
			fputc(' ', f);
			dat_str(f, r->m->name);
			fprintf(f, "\" %s ", c->dir == VB_LOWER ? "lower" :
			    c->dir == VB_HIGHER ? "higher" : "info");
			dat_num(f, r->r, ' ');
			a = fmax(r->lo, lo);
			b = fmin(r->hi, hi);
			/* an interval wholly off the axis: not drawn */
			if (isnan(r->r) || isnan(r->lo) || !(a <= b)) {
				dat_num(f, r->lo, ' ');
				dat_num(f, r->hi, ' ');
				fputs("NaN NaN 1 ", f);
			} else {
				dat_num(f, r->lo, ' ');
				dat_num(f, r->hi, ' ');
				fprintf(f, "%.10g %.10g %d ", a, b, 1 +
				    (r->hi > hi) + 2 * (r->lo < lo));
				kivs[k]++;
			}
			fprintf(f, "%d \"%s\" ", word_point(r->v),
			    rv_word_name(r->v->word));
			/* another amount of work: no change, no ratio */
			ow = r->m->other_work[k];
			dat_num(f, ow ? NAN : r->v->change, ' ');
			fprintf(f, "%d %d ", c->a.n, c->b.n);
			dat_num(f, ow ? NAN : c->ratio.r, ' ');
			dat_num(f, ow || c->ratio.unbounded ? NAN : c->ratio.lo,
			    ' ');
			dat_num(f, ow || c->ratio.unbounded ? NAN : c->ratio.hi,
			    '\n');
			if (!isnan(r->r)) {
				kpts[k]++;
				pts++;
			}
		}
	}
	if (close_ok(f, dir, name) || !(f = open_in(dir, name, "gp")))
		goto out;
	if (s->nk == 2)
		snprintf(title, sizeof(title), "headline figures: %s against "
		    "%s (run means, 95%% interval)", s->k[1].label,
		    s->k[0].label);
	else
		snprintf(title, sizeof(title), "headline figures: %d kernels "
		    "against %s (run means, 95%% interval)", s->nk - 1,
		    s->k[0].label);
	setup_settings_line(settings, sizeof(settings), s);
	loud = load_note(ch, rows, n, note, sizeof(note));
	/*
	 * The title, the settings and the key to the marks as labels from
	 * the left edge: a title centred on the plot would be cut where
	 * the headlines' names push the plot to the right.
	 */
	fprintf(f, "# vmbench chart %s: data in %s.dat; run `gnuplot %s.gp` "
	    "in this folder\nreset\nset label 100 ", name, name, name);
	gp_str(f, title);
	fputs(" at screen 0, screen 1 offset 1,-1.2 left noenhanced\n"
	    "set label 101 ", f);
	gp_str(f, settings);
	fprintf(f, " at screen 0, screen 1 offset 1,-2.4 left noenhanced\n"
	    "set label 102 '%s' at screen 0, screen 0 offset 1,%.1f left\n"
	    "set label 103 '%s' at screen 0, screen 0 offset 1,%.1f left\n",
	    EXPLAIN1, 2.4, EXPLAIN2, 1.2);
	/* a side that was loud: said under the settings, in can't tell's */
	if (loud) {
		fputs("set label 104 ", f);
		gp_str(f, note);
		fprintf(f, " at screen 0, screen 1 offset 1,-3.6 left "
		    "noenhanced tc rgb '%s'\n", C_CANT);
	}
	/* the headlines down the left, the first at the top */
	for (j = 0; j < n; j += s->nk - 1) {
		lab.len = 0;
		vb_buf_printf(&lab, "%s %s%s", rows[j].id, rows[j].m->name,
		    rows[j].m->dir == VB_INFO ? " (info)" : "");
		if ((int)lab.len > longest)
			longest = (int)lab.len;
		vb_buf_printf(&tics, "%s", tics.len ? ", " : "");
		gp_quote(&tics, lab.s);
		vb_buf_printf(&tics, " %g", rows[j].y + (s->nk - 2) / 2.0);
	}
	fprintf(f, "set logscale x\nset xrange [%.10g:%.10g]\n"
	    "set yrange [%g:%g]\nset ytics scale 0 noenhanced (%s)\n"
	    "set tmargin %d\nset bmargin 5\nset lmargin %d\nset rmargin %d\n"
	    "unset key\n", exp(-h * 1.04), exp(h * 1.04), ymax + 0.7, -0.7,
	    tics.s ? tics.s : "", loud ? 6 : 5, longest + 3, longtext + 3);
	axis_tics(f, h);
	/* which side is which: shaded, and named above the plot */
	fprintf(f, "set object 1 rect from graph 0, graph 0 to first 1, "
	    "graph 1 behind fc rgb '#fbeaea' fs solid noborder\n"
	    "set object 2 rect from first 1, graph 0 to graph 1, graph 1 "
	    "behind fc rgb '#e8f4e8' fs solid noborder\n"
	    "set label 1 '< worse' at graph 0, graph 1 offset 0,0.7 left "
	    "tc rgb '%s'\nset label 2 'better >' at graph 1, graph 1 "
	    "offset 0,0.7 right tc rgb '%s'\n"
	    "set arrow 1 from first 1, graph 0 to first 1, graph 1 nohead "
	    "lc rgb 'gray30' lw 1.5\n", C_WORSE, C_BETTER);
	/* a line through each row (one kernel), between bands (several) */
	for (j = 0; j < n; j++) {
		if (s->nk == 2)
			fprintf(f, "set arrow from graph 0, first %g to graph 1, "
			    "first %g nohead lc rgb '#d8d8d8' back\n", rows[j].y,
			    rows[j].y);
		else if (rows[j].k == s->nk - 1 && j + 1 < n)
			fprintf(f, "set arrow from graph 0, first %g to graph 1, "
			    "first %g nohead lc rgb '#b8b8b8' back\n",
			    rows[j].y + (1 + gap) / 2, rows[j].y + (1 + gap) / 2);
	}
	/* the verdicts, beside the rows */
	for (j = 0; j < n; j++) {
		/* 1-2, 100-103 are taken above */
		fprintf(f, "set label %d ", j + 1000);
		gp_str(f, rows[j].text);
		fprintf(f, " at graph 1, first %g offset 1,0 left noenhanced "
		    "tc rgb '%s'\n", rows[j].y, rows[j].tc);
	}
	/* per kernel: arrow styles 4(k-1)+1..4: whole, cut right, left, both */
	for (k = 1; k < s->nk; k++) {
		const char *c = colours[(k - 1) % NCOLOURS];

		fprintf(f, "set style arrow %d nohead lw 2 lc rgb '%s'\n"
		    "set style arrow %d head filled size screen 0.01,25 lw 2 "
		    "lc rgb '%s'\nset style arrow %d backhead filled size "
		    "screen 0.01,25 lw 2 lc rgb '%s'\nset style arrow %d heads "
		    "filled size screen 0.01,25 lw 2 lc rgb '%s'\n",
		    4 * k - 3, c, 4 * k - 2, c, 4 * k - 1, c, 4 * k, c);
	}
	vb_buf_printf(&plot, "plot");
	for (k = 1; k < s->nk; k++) {
		const char *c = colours[(k - 1) % NCOLOURS];

		/* an element with no point would make gnuplot warn */
		if (kivs[k])
			vb_buf_printf(&plot, "%s '%s.dat' index %d using "
			    "7:1:($8-$7):(0):($9+%d) with vectors arrowstyle "
			    "variable notitle", plot.len > 4 ? ", \\\n " : "",
			    name, k - 1, 4 * (k - 1));
		if (kpts[k]) {
			vb_buf_printf(&plot, "%s '%s.dat' index %d using "
			    "4:1:10 with points pt variable ps 1.6 lw 2 "
			    "lc rgb '%s' title ", plot.len > 4 ? ", \\\n " : "",
			    name, k - 1, c);
			gp_quote(&plot, s->k[k].label);
		}
	}
	rowpx = s->nk > 2 ? 16 : 24;
	w = 660 + 7 * longest + 7 * longtext;
	/* the title and settings lines whole */
	w = (int)fmax(w, 7.2 * fmax(strlen(title), fmax(strlen(settings),
	    loud ? strlen(note) : 0)) + 30);
	hgt = 190 + (loud ? 18 : 0) + rowpx * (int)ceil(ymax + 1.4);
	gp_tail(f, name, plot.s, w < 900 ? 900 : w, hgt < 320 ? 320 : hgt);
	if (pts)
		fprintf(ch->all, "load '%s.gp'\n", name);
	ret = close_ok(f, dir, name) ? -1 : pts > 0;
out:
	vb_buf_free(&tics);
	vb_buf_free(&plot);
	vb_buf_free(&lab);
	free(rows);
	free(kpts);
	free(kivs);
	return ret;
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
run_gnuplot(const char *dir, const char *shown, const char *gnuplot)
{
	char log[PATH_MAX + 16], msg[256];
	struct sigaction old[NSTOP];
	sigset_t stops, prev;
	pid_t pid;
	int fd, st, i, sig;

	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	if ((fd = vb_create_at(AT_FDCWD, log, O_WRONLY, 0644)) < 0) {
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
		vb_rmtree_at(AT_FDCWD, dir);
		vb_warn("interrupted by signal %d (%s): %s stopped, no charts "
		    "written to %s", sig, strsignal(sig), gnuplot, shown);
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
			    WTERMSIG(st), strsignal(WTERMSIG(st)), shown);
		else
			vb_warn("%s stopped with status %d and no message on "
			    "%s/all.gp (interrupted?): the charts there are "
			    "incomplete", gnuplot, WEXITSTATUS(st), shown);
		return -1;
	}
	last_line(msg, sizeof(msg), log);
	if (WIFSIGNALED(st))
		vb_warn("%s was killed by signal %d (%s) on %s/all.gp, after: %s "
		    "(all it said: %s/gnuplot.log)", gnuplot, WTERMSIG(st),
		    strsignal(WTERMSIG(st)), shown, msg, shown);
	else
		vb_warn("%s failed on %s/all.gp: %s (all it said: "
		    "%s/gnuplot.log)", gnuplot, shown, msg, shown);
	return -1;
}

/*
 * The private folder the scripts, the data and gnuplot's work live in
 * until the charts are made: mkdtemp() (mode 0700) in $TMPDIR or /tmp,
 * whose path is checked first, so that no other user can put a script
 * where gnuplot loads one.  Its path in @buf, or -1 after one line.
 */
static int
private_dir(char *buf, size_t len)
{
	const char *t = getenv("TMPDIR");
	char err[PATH_MAX + 128];
	int fd;

	if (!t || !*t)
		t = "/tmp";
	if ((fd = vb_dir_open_parent(t, err, sizeof(err))) < 0) {
		vb_warn("%s (for the charts' private folder; TMPDIR=)", err);
		return -1;
	}
	close(fd);
	if ((size_t)snprintf(buf, len, "%s/vmreport-plot.XXXXXX", t) >= len ||
	    !mkdtemp(buf)) {
		vb_warn_errno("cannot make a private folder in %s", t);
		return -1;
	}
	return 0;
}

/*
 * Move every file of the private folder @priv into the chart folder
 * @out (@shown): renameat(), or a copy through a temporary when the two
 * are on different file systems.  0, or -1 after one line.
 */
static int
move_out(const char *priv, int out, const char *shown)
{
	char err[PATH_MAX + 128], buf[65536];
	struct dirent *de;
	struct vb_wfile w;
	int pfd, in, rc = 0;
	ssize_t n;
	DIR *d;

	if ((pfd = open(priv, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0 || !(d = fdopendir(pfd))) {
		vb_warn_errno("cannot read %s", priv);
		if (pfd >= 0)
			close(pfd);
		return -1;
	}
	while (rc == 0 && (de = readdir(d))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		if (renameat(pfd, de->d_name, out, de->d_name) == 0)
			continue;
		if (errno != EXDEV) {
			vb_warn_errno("cannot move %s into %s", de->d_name,
			    shown);
			rc = -1;
			break;
		}
		in = vb_open_read_at(pfd, de->d_name, de->d_name,
		    VB_MAX_SERIES, err, sizeof(err));
		if (in < 0 || !(f = vb_wfile_open(&w, out, de->d_name,
		    0644))) {
			if (in < 0)
				vb_warn("%s", err);
			else
				vb_warn_errno("cannot write %s/%s", shown,
				    de->d_name);
			if (in >= 0)
				close(in);
			rc = -1;
			break;
		}
		while ((n = read(in, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, f);
		close(in);
		if (n < 0 || vb_wfile_commit(&w) < 0) {
			vb_warn_errno("cannot write %s/%s", shown, de->d_name);
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

int
plot_charts(const struct model *m, const char *dir, const char *gnuplot,
    int detail)
{
	const struct rl_set *s = m->s;
	char priv[PATH_MAX], err[PATH_MAX + 128];
	struct charts ch = { .m = m, .s = m->s, .dir = priv };
	struct model_row *rows;
	int i, j, n, h, charts = 0, summary, out, drawn;
	char gp[PATH_MAX + 16];
	FILE *all;

	if (outdir_inside(s, dir)) {
		vb_warn("%s: is inside a result folder; charts go elsewhere", dir);
		return -1;
	}
	/* checked before anything is written: ours, no one else's */
	if ((out = vb_dir_open(dir, 1, err, sizeof(err))) < 0) {
		vb_warn("%s (the chart folder, PLOTS=)", err);
		return -1;
	}
	if (private_dir(priv, sizeof(priv)) < 0) {
		close(out);
		return -1;
	}
	/* an earlier run's gnuplot.log says nothing of this one */
	unlinkat(out, "gnuplot.log", 0);
	snprintf(gp, sizeof(gp), "%s/all.gp", priv);
	if (!(all = open_in(priv, "all", "gp")))
		goto fail_priv;
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
		goto fail_priv;
	}
	drawn = have_program(gnuplot);
	if (drawn && run_gnuplot(priv, dir, gnuplot) != 0) {
		/* what gnuplot said is worth keeping beside the scripts */
		move_out(priv, out, dir);
		goto fail_priv;
	}
	/* only now, the finished charts (or the scripts) into dir */
	if (move_out(priv, out, dir) < 0)
		goto fail_priv;
	vb_rmtree_at(AT_FDCWD, priv);
	close(out);
	if (!drawn) {
		vb_warn("%s not found: %d charts not drawn (data and scripts are "
		    "in %s); install gnuplot: apt-get install gnuplot-nox",
		    gnuplot, charts, dir);
		return -1;
	}
	fprintf(stderr, "vmreport: %d charts (PNG and SVG) in %s: %s%s\n",
	    charts, dir, summary ? "the summary, " : "", detail ? "every "
	    "metric and the vmstat series of each benchmark" : "each "
	    "benchmark's headline and vmstat series (--detail: every metric)");
	return charts;
fail:
	fclose(all);
fail_priv:
	vb_rmtree_at(AT_FDCWD, priv);
	close(out);
	return -1;
}
