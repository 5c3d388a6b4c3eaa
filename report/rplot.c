/*
 * rplot.c - gnuplot charts.  For every benchmark:
 *
 *	<id>-<metric>.{dat,gp,png,svg}  one bar per kernel (the mean) with
 *		the 95% CI of the mean as an error bar; every metric that is
 *		not zero in every run and not "info", plus the headline
 *	<id>-vmstat-{swap,free,cache}.{dat,gp,png,svg}  the sampled series
 *		over time, one line per kernel (si and so; free; cache)
 *
 * Every title has a second line naming the settings that differ
 * between the folders (or saying they are the same), cut to fit.
 *
 * The data and scripts stay beside the images so a user can restyle a
 * chart and rerun `gnuplot NAME.gp` in that folder; all.gp loads every
 * script.  gnuplot is run once, on all.gp, in the chart folder.  Without
 * gnuplot the data and scripts are still written and one line says what
 * to install.  The chart folder may not be (or lie in) a result folder.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "report.h"
#include "util.h"

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
		warn_errno("cannot write %s", path);
	return f;
}

static int
close_ok(FILE *f, const char *dir, const char *name)
{
	if (fclose(f) != 0) {
		warn_errno("cannot write %s/%s", dir, name);
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

/* The title's second line: rt_settings_line(), set by rp_plot(). */
static char settings_line[112];

/* The common head of a script: both terminals are set by gp_tail. */
static void
gp_head(FILE *f, const char *name, const char *title, const char *xl,
    const char *yl)
{
	fprintf(f, "# vmbench chart %s: data in %s.dat; run `gnuplot %s.gp` "
	    "in this folder\nreset\nset title ", name, name, name);
	gp_str(f, title);
	if (settings_line[0]) {
		fputs(" . \"\\n\" . ", f);
		gp_str(f, settings_line);
	}
	fputs(" noenhanced\nset xlabel ", f);
	gp_str(f, xl);
	fputs("\nset ylabel ", f);
	gp_str(f, yl);
	fputs(" noenhanced\nset grid ytics\nset key noenhanced\n", f);
}

/* Plot @plot once into PNG and once into SVG (800x500 px). */
static void
gp_tail(FILE *f, const char *name, const char *plot)
{
	fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
	    "    set terminal pngcairo size 800,500 font ',11'\n"
	    "} else {\n    set terminal png size 800,500\n}\n"
	    "set output '%s.png'\n%s\n"
	    "set terminal svg size 800,500 dynamic font ',11'\n"
	    "set output '%s.svg'\n%s\nunset output\n", name, plot, name, plot);
}

static int
bar_chart(const struct rl_set *s, const char *dir, const char *id,
    const struct rt_row *r, FILE *all)
{
	char name[512], a[256], b[128], title[512], plot[1024];
	double ymax = 0;
	FILE *f;
	int k;

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
		/* gnuplot reads NaN, not inf: an infinite bound is "NaN" */
		if (isfinite(d->mean) && d->mean > ymax)
			ymax = d->mean;
		if (isfinite(d->ci_hi) && d->ci_hi > ymax)
			ymax = d->ci_hi;
		fprintf(f, "%d \"", k);
		dat_str(f, s->k[k].label);
		if (isfinite(d->mean))
			fprintf(f, " (n=%d)\" %.10g ", d->n, d->mean);
		else
			fprintf(f, " (n=%d)\" NaN ", d->n);
		if (!isfinite(d->ci_lo) || !isfinite(d->ci_hi))
			fprintf(f, "NaN NaN %d\n", d->n);
		else
			fprintf(f, "%.10g %.10g %d\n", d->ci_lo, d->ci_hi,
			    d->n);
	}
	if (close_ok(f, dir, name) || !(f = open_in(dir, name, "gp")))
		return -1;
	snprintf(title, sizeof(title), "%s: %s (%s; error bars: 95%% CI)", id,
	    r->name, r->dir == VB_LOWER ? "lower is better" : r->dir ==
	    VB_HIGHER ? "higher is better" : "information");
	gp_head(f, name, title, "kernel", r->unit);
	fprintf(f, "set style fill solid 0.5 border -1\nset boxwidth 0.6\n"
	    "set xrange [-0.7:%d.7]\nset xtics noenhanced\nunset key\n",
	    s->nk - 1);
	/* the whole interval in view, however wide */
	if (ymax > 0 && isfinite(ymax * 1.08))
		fprintf(f, "set yrange [0:%.6g]\n", ymax * 1.08);
	else
		fputs("set yrange [*:*]\n", f);
	snprintf(plot, sizeof(plot), "plot '%s.dat' using 1:3:xtic(2) with "
	    "boxes lc rgb '#4a7ebb', \\\n     '' using 1:3:4:5 with "
	    "yerrorbars lc rgb 'black' pt 7 ps 0.3 lw 1.5", name);
	gp_tail(f, name, plot);
	fprintf(all, "load '%s.gp'\n", name);
	return close_ok(f, dir, name);
}

/* The .vmstat series of @id for one kernel: t si so free cache. */
static int
copy_series(FILE *out, const struct rl_kernel *k, const char *id)
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
		fprintf(out, "%.3f %.0f %.0f %.1f %.1f\n", v[0], v[8], v[9],
		    v[5] / 1024, v[7] / 1024);
		rows++;
	}
	free(line);
	fclose(f);
	return rows;
}

static int
vmstat_charts(const struct rl_set *s, const char *dir, const char *id,
    FILE *all)
{
	static const struct {
		const char *what, *ylabel, *title;
	} c[] = {
		{ "swap", "kB/s", "swap-in (si) and swap-out (so)" },
		{ "free", "MiB", "free memory" },
		{ "cache", "MiB", "page cache (cache)" },
	};
	char base[300], name[512], title[512], a[256];
	int k, i, nk = 0, *has = calloc((size_t)s->nk, sizeof(int));
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
		has[k] = copy_series(f, &s->k[k], id);
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
		gp_head(f, name, title, "time (s)", c[i].ylabel);
		/* rates from 0; memory where it moved */
		fprintf(f, "set key outside right top\n%s", i == 0 ?
		    "set yrange [0:*]\n" : "");
		/* one line per kernel; labels quoted for gnuplot */
		vb_buf_printf(&plot, "plot");
		for (k = 0; k < s->nk; k++) {
			if (!has[k])
				continue;
			vb_buf_printf(&plot, "%s '%s.dat' index %d using 1:%d "
			    "with lines lw 1.5 title ", plot.len > 4 ?
			    ", \\\n " : "", base, k, i == 0 ? 2 : i == 1 ?
			    4 : 5);
			if (i == 0) {
				struct vb_buf t = VB_BUF_INIT;

				vb_buf_printf(&t, "%s si", s->k[k].label);
				gp_quote(&plot, t.s);
				vb_buf_printf(&plot, ", '' index %d using 1:3 "
				    "with lines lw 1.5 dt 2 title ", k);
				t.len = 0;
				vb_buf_printf(&t, "%s so", s->k[k].label);
				gp_quote(&plot, t.s);
				vb_buf_free(&t);
			} else {
				gp_quote(&plot, s->k[k].label);
			}
		}
		gp_tail(f, name, plot.s);
		vb_buf_free(&plot);
		fprintf(all, "load '%s.gp'\n", name);
		if (close_ok(f, dir, name))
			break;
	}
	free(has);
	return i == 3 ? 3 : -1;
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

/* Refuse a chart folder that is, or lies inside, a result folder. */
static int
inside_results(const struct rl_set *s, const char *dir)
{
	char rd[PATH_MAX], kd[PATH_MAX];
	int k;
	size_t n;

	if (!realpath(dir, rd))
		return 0;
	for (k = 0; k < s->nk; k++) {
		if (!realpath(s->k[k].dir, kd))
			continue;
		n = strlen(kd);
		if (strncmp(rd, kd, n) == 0 && (rd[n] == '\0' || rd[n] == '/'))
			return 1;
	}
	return 0;
}

static int
mkdir_p(const char *dir)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int
rp_plot(const struct rl_set *s, const char *dir, const char *gnuplot)
{
	struct rt_row *rows;
	int i, j, n, charts = 0, st;
	char gp[PATH_MAX];
	FILE *all;
	pid_t pid;

	if (mkdir_p(dir) != 0) {
		warn_errno("cannot create chart folder %s", dir);
		return -1;
	}
	if (inside_results(s, dir)) {
		warn("%s: is inside a result folder; charts go elsewhere", dir);
		return -1;
	}
	snprintf(gp, sizeof(gp), "%s/all.gp", dir);
	if (!(all = fopen(gp, "w"))) {
		warn_errno("cannot write %s", gp);
		return -1;
	}
	fputs("# every chart: gnuplot all.gp (in this folder)\n", all);
	rt_settings_line(settings_line, sizeof(settings_line), s);
	for (i = 0; i < s->nids; i++) {
		n = rt_rows(s, s->ids[i], &rows);
		for (j = 0; j < n; j++) {
			const struct vb_res *h = NULL;
			int k, zero = 1, ishead = 0;

			for (k = 0; k < s->nk; k++) {
				if (rows[j].d[k].n && (rows[j].d[k].min ||
				    rows[j].d[k].max))
					zero = 0;
				if (!h)
					h = rl_find(&s->k[k], s->ids[i]);
			}
			ishead = h && !strcmp(h->headline, rows[j].name);
			if (zero || (rows[j].dir == VB_INFO && !ishead))
				continue;
			if (bar_chart(s, dir, s->ids[i], &rows[j], all)) {
				rt_free_rows(rows, n, s->nk);
				fclose(all);
				return -1;
			}
			charts++;
		}
		rt_free_rows(rows, n, s->nk);
		if ((j = vmstat_charts(s, dir, s->ids[i], all)) < 0) {
			fclose(all);
			return -1;
		}
		charts += j;
	}
	if (fclose(all) != 0) {
		warn_errno("cannot write %s", gp);
		return -1;
	}
	if (!have_program(gnuplot)) {
		warn("%s not found: %d charts not drawn (data and scripts are "
		    "in %s); install gnuplot: apt-get install gnuplot-nox",
		    gnuplot, charts, dir);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		warn_errno("cannot fork gnuplot");
		return -1;
	}
	if (pid == 0) {
		if (chdir(dir) != 0)
			_exit(127);
		execlp(gnuplot, gnuplot, "all.gp", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		warn("%s failed on %s/all.gp", gnuplot, dir);
		return -1;
	}
	fprintf(stderr, "vmreport: %d charts (PNG and SVG) in %s\n", charts,
	    dir);
	return charts;
}
