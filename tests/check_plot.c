/*
 * check_plot.c - tests of the charts (src/report/views/plot.c through
 * vmreport --plot): which charts the default writes and which --detail
 * adds (the default's data and scripts the same bytes as --detail's),
 * the summary chart's data against the statistics code's ratios
 * (rs_cmp_ratio()), no message from gnuplot on the examples and on a
 * metric equal in every run, and one line when gnuplot fails.  Fixtures
 * are copies of results/examples/ in a temporary folder, changed with
 * awk.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model.h"
#include "table.h"
#include "verdict.h"
#include "testutil.h"

#define EX "results/examples"
#define VMREPORT "report/vmreport"

/* The running test's own folder under tu_dir ($T in sh()). */
static char tdir[512];

static void
use_dir(const char *name)
{
	snprintf(tdir, sizeof(tdir), "%s/%s", tu_dir, name);
	ck_assert_int_eq(mkdir(tdir, 0777), 0);
}

/* A shell command, T set to the test's folder: tests/testutil.h. */
#define sh(...)	tu_sh_in(tdir, __VA_ARGS__)

/* T/err is one line that contains @want. */
static void
err_one_line(const char *want)
{
	char *err = tu_slurp_ok("%s/err", tdir);

	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err, want), "stderr '%s' lacks '%s'", err, want);
	ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1,
	    "stderr is not one line: '%s'", err);
	free(err);
}

/* Copy meta and @files (names between blanks) of example-@k into T/@k. */
static void
copy_example(char k, const char *files)
{
	char src[64], dst[600], list[512], *name, *save = NULL;

	snprintf(src, sizeof(src), EX "/example-%c", k);
	snprintf(dst, sizeof(dst), "%s/%c", tdir, k);
	tu_copy_files(src, dst, "meta", NULL);
	snprintf(list, sizeof(list), "%s", files);
	for (name = strtok_r(list, " ", &save); name;
	    name = strtok_r(NULL, " ", &save))
		tu_copy_files(src, dst, name, NULL);
}

/*
 * The charts of example-a, -b and -c with --detail, in tu_dir/examples
 * (vmreport's stderr in tu_dir/examples.err): drawn once for the tests
 * that read them (a failed drawing is drawn again by the next).  With
 * --detail they hold every data file and script the default writes,
 * the same bytes (default_and_detail), and every chart: summary_values
 * reads the summary, no_gnuplot_messages what gnuplot said.
 */
static void
examples_charts(void)
{
	if (tu_sh_in(tu_dir, "test -d \"$T/examples\"") == 0)
		return;
	ck_assert_int_eq(tu_sh_in(tu_dir, "rm -rf \"$T/examples.new\" && "
	    VMREPORT " --detail --plot \"$T/examples.new\" " EX "/example-a "
	    EX "/example-b " EX "/example-c >/dev/null "
	    "2>\"$T/examples.err\" && mv \"$T/examples.new\" "
	    "\"$T/examples\""), 0);
}

/* A set of names, kept sorted to compare. */
struct names {
	int n;
	char *v[512];
};

static void
names_add(struct names *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
names_add(struct names *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], buf))
			return;
	ck_assert_int_lt(s->n, 512);
	s->v[s->n++] = strdup(buf);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
names_free(struct names *s)
{
	while (s->n > 0)
		free(s->v[--s->n]);
}

/* The charts drawn in T/@dir: the names of its .png files. */
static void
pngs(const char *dir, struct names *s)
{
	char path[sizeof(tdir) + 64];
	struct dirent *e;
	DIR *d;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", tdir, dir);
	ck_assert_ptr_nonnull(d = opendir(path));
	s->n = 0;
	while ((e = readdir(d))) {
		n = strlen(e->d_name);
		if (n > 4 && !strcmp(e->d_name + n - 4, ".png"))
			names_add(s, "%.*s", (int)(n - 4), e->d_name);
	}
	closedir(d);
}

static void
names_eq(struct names *got, struct names *want)
{
	int i;

	qsort(got->v, (size_t)got->n, sizeof(char *), cmp_str);
	qsort(want->v, (size_t)want->n, sizeof(char *), cmp_str);
	for (i = 0; i < got->n && i < want->n; i++)
		ck_assert_str_eq(got->v[i], want->v[i]);
	ck_assert_msg(got->n == want->n, "%d charts, want %d (next: %s)",
	    got->n, want->n, got->n > want->n ? got->v[i] : want->v[i]);
}

/*
 * The charts a .res file asks for, read with the library's reader:
 * its headline; with @detail every metric that is not info and not
 * zero in every run of either folder (a and b).
 */
static void
want_bars(const char *id, int detail, struct names *s)
{
	struct vb_res r[2];
	char path[1024], err[256];
	int k, m, i;

	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%c/%s.res", tdir, "ab"[k],
		    id);
		ck_assert_msg(vb_res_read(path, &r[k], err, sizeof(err)) == 0,
		    "%s", err);
	}
	ck_assert(r[0].headline[0]);
	names_add(s, "%s-%s", id, r[0].headline);
	for (m = 0; detail && m < r[0].nmetrics; m++) {
		int nonzero = 0;

		if (r[0].metrics[m].dir == VB_INFO)
			continue;
		for (k = 0; k < 2; k++) {
			int j = vb_res_metric_index(&r[k],
			    r[0].metrics[m].name);

			for (i = 0; j >= 0 && i < r[k].niter; i++)
				if (vb_res_get(&r[k], i, j) != 0 &&
				    !isnan(vb_res_get(&r[k], i, j)))
					nonzero = 1;
		}
		if (nonzero)
			names_add(s, "%s-%s", id, r[0].metrics[m].name);
	}
	vb_res_free(&r[0]);
	vb_res_free(&r[1]);
}

static void
want_vmstat(const char *id, struct names *s)
{
	names_add(s, "%s-vmstat-swap", id);
	names_add(s, "%s-vmstat-free", id);
	names_add(s, "%s-vmstat-cache", id);
}

/*
 * Default: the summary, per benchmark the headline and the three vmstat
 * charts (none for a benchmark without a .vmstat: the probe); --detail
 * adds every metric's chart.  The last line counts them.
 */
START_TEST(default_and_detail)
{
	static const char *const ids[] = { "forkbomb", "makesim@no_load",
	    "probe@makesim@no_load" };
	struct names got = { 0 }, want = { 0 };
	char line[sizeof(tdir) + 80];
	int d;
	size_t i;

	use_dir("default_and_detail");
	copy_example('a', "forkbomb.res forkbomb.vmstat makesim@no_load.res "
	    "makesim@no_load.vmstat probe@makesim@no_load.res");
	copy_example('b', "forkbomb.res forkbomb.vmstat makesim@no_load.res "
	    "makesim@no_load.vmstat probe@makesim@no_load.res");
	for (d = 0; d < 2; d++) {
		ck_assert_int_eq(sh(VMREPORT " %s --plot \"$T/ch%d\" \"$T/a\" "
		    "\"$T/b\" >/dev/null 2>\"$T/err\"", d ? "--detail" : "",
		    d), 0);
		want.n = 0;
		names_add(&want, "summary");
		for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			want_bars(ids[i], d, &want);
			if (strncmp(ids[i], "probe@", 6))
				want_vmstat(ids[i], &want);
		}
		pngs(d ? "ch1" : "ch0", &got);
		names_eq(&got, &want);
		snprintf(line, sizeof(line), "vmreport: %d charts (PNG and "
		    "SVG) in %s/ch%d: the summary, ", want.n, tdir, d);
		err_one_line(line);
		names_free(&got);
		names_free(&want);
	}
	/* --detail adds charts: the default's data and scripts are its,
	   byte for byte (all.gp, the list of scripts, aside) */
	ck_assert_int_eq(sh("cd \"$T/ch0\" && for f in *.dat *.gp; do "
	    "[ \"$f\" = all.gp ] || cmp -s \"$f\" \"../ch1/$f\" || "
	    "{ echo \"$f differs\" >&2; exit 1; }; done"), 0);
}
END_TEST

/* One field of a summary.dat row: a number or NaN. */
static void
same_value(double got, double want, const char *what, const char *row)
{
	if (isnan(want)) {
		ck_assert_msg(isnan(got), "%s: %s is %g, want NaN", row, what,
		    got);
		return;
	}
	if (isinf(want)) {
		ck_assert_msg(got == want, "%s: %s is %g, want %g", row, what,
		    got, want);
		return;
	}
	ck_assert_msg(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)),
	    "%s: %s is %.12g, want %.12g", row, what, got, want);
}

/* A row of summary.dat (plot.c summary_chart() names its columns). */
struct srow {
	double y, r, lo, hi, from, to, change, raw, rlo, rhi;
	char name[512], dir[16], word[32];
	int arrow, pt, na, nb;
};

/* Parse @line into @r; 0 when it is a row. */
static int
parse_srow(const char *line, struct srow *r)
{
	return sscanf(line, "%lf \"%511[^\"]\" %15s %lf %lf %lf %lf %lf %d "
	    "%d \"%31[^\"]\" %lf %d %d %lf %lf %lf", &r->y, r->name, r->dir,
	    &r->r, &r->lo, &r->hi, &r->from, &r->to, &r->arrow, &r->pt,
	    r->word, &r->change, &r->na, &r->nb, &r->raw, &r->rlo,
	    &r->rhi) == 17 ? 0 : -1;
}

/* @s (of @len bytes) as gnuplot quotes it: ' doubled. */
static void
gp_quoted(char *s, size_t len)
{
	char *p;

	for (p = s; (p = strchr(p, '\'')); p += 2) {
		ck_assert(strlen(s) + 2 <= len);
		memmove(p + 1, p, strlen(p) + 1);
	}
}

/* The folders @dirs (@n of them) loaded and their model. */
static void
load_set(struct rl_set *s, struct model *m, const char *const *dirs, int n)
{
	char err[512];
	int k;

	memset(s, 0, sizeof(*s));
	s->nk = n;
	s->k = calloc((size_t)n, sizeof(*s->k));
	for (k = 0; k < n; k++)
		ck_assert_msg(rl_load_kernel(dirs[k], &s->k[k], err,
		    sizeof(err)) == 0, "%s", err);
	rl_index(s);
	model_init(m, s, 1);
}

/*
 * Every row of summary.dat (@n folders, every benchmark with a
 * headline) against a recomputation: the run means of the headline
 * (model_run_means()) compared again with rv_compare() give the ratio
 * kernel / baseline and Fieller's interval (columns 15-17) and, turned
 * over when lower is better, the oriented ratio and interval (4-6);
 * the verdict word, its point and the change are the model's verdict
 * (model_verdict(), as the text report prints it); the interval as
 * drawn lies inside the axis of summary.gp, a log axis centred on 1,
 * with an arrow head where it was cut.  Every benchmark has its row.
 */
static void
check_summary(const char *const *dirs, int n, const char *chdir)
{
	struct rl_set s;
	struct model m;
	char *dat, *gp, *line, *save = NULL, *p;
	double xlo, xhi;
	int k, i, block = 0, rows = 0, *seen, want = 0;

	load_set(&s, &m, dirs, n);
	seen = calloc((size_t)s.nids * (size_t)n, sizeof(int));
	ck_assert_ptr_nonnull(gp = tu_slurp_ok("%s/%s/summary.gp", tdir,
	    chdir));
	ck_assert_msg(strstr(gp, "\nset logscale x\n"), "no log axis");
	ck_assert_ptr_nonnull(p = strstr(gp, "\nset xrange ["));
	ck_assert_int_eq(sscanf(p, "\nset xrange [%lf:%lf]", &xlo, &xhi), 2);
	ck_assert_msg(xlo < 1 && xhi > 1 && fabs(log(xlo) + log(xhi)) < 1e-6,
	    "the axis [%g, %g] is not centred on 1", xlo, xhi);
	ck_assert_ptr_nonnull(dat = tu_slurp_ok("%s/%s/summary.dat", tdir,
	    chdir));
	for (line = strtok_r(dat, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		struct model_row *r;
		const struct rv_verdict *v;
		struct rv_cmp c;
		struct srow row;
		double *ra, *rb, olo, ohi, q;
		int na, nb, h, nr, sg;
		char id[256], text[600];

		/* "# label" starts the next kernel's block */
		if (line[0] == '#') {
			for (k = 1; k < n; k++)
				if (!strcmp(line + 2, s.k[k].label))
					block = k;
			continue;
		}
		ck_assert_msg(parse_srow(line, &row) == 0, "bad row: %s", line);
		ck_assert_int_ge(block, 1);
		ck_assert_int_eq(sscanf(row.name, "%255s", id), 1);
		for (i = 0; i < s.nids && strcmp(s.ids[i], id); i++)
			;
		ck_assert_msg(i < s.nids, "no benchmark %s", id);
		seen[i * n + block]++;
		nr = model_rows(&m, id, &r);
		h = model_headline(&s, id, r, nr);
		ck_assert_int_ge(h, 0);
		ck_assert_str_eq(row.name + strlen(id) + 1, r[h].name);
		ck_assert_str_eq(row.dir, r[h].dir == VB_LOWER ? "lower" :
		    r[h].dir == VB_HIGHER ? "higher" : "info");
		/* the recomputation */
		na = model_run_means(&s.k[0], id, r[h].name, &ra);
		nb = model_run_means(&s.k[block], id, r[h].name, &rb);
		rv_compare(ra, na, rb, nb, r[h].dir, &c);
		free(ra);
		free(rb);
		ck_assert_int_eq(row.na, c.a.n);
		ck_assert_int_eq(row.nb, c.b.n);
		same_value(row.raw, c.ratio.r, "ratio", line);
		same_value(row.rlo, c.ratio.unbounded ? NAN : c.ratio.lo,
		    "low", line);
		same_value(row.rhi, c.ratio.unbounded ? NAN : c.ratio.hi,
		    "high", line);
		/* oriented: a/b when lower is better (positive baselines) */
		ck_assert(c.a.mean > 0);
		sg = r[h].dir == VB_LOWER ? -1 : 1;
		q = c.ratio.r > 0 ? pow(c.ratio.r, sg) : NAN;
		same_value(row.r, q, "oriented ratio", line);
		if (isnan(q) || c.ratio.unbounded || isnan(c.ratio.lo)) {
			olo = ohi = NAN;
		} else if (sg > 0) {
			olo = fmax(c.ratio.lo, 0);
			ohi = c.ratio.hi;
		} else {
			olo = 1 / c.ratio.hi;
			ohi = c.ratio.lo > 0 ? 1 / c.ratio.lo : INFINITY;
		}
		if (!isnan(q) && c.ratio.unbounded)
			olo = 0, ohi = INFINITY;
		same_value(row.lo, olo, "oriented low", line);
		same_value(row.hi, ohi, "oriented high", line);
		/* the point inside the axis; the line cut at it */
		if (!isnan(q))
			ck_assert_msg(q > xlo && q < xhi, "%s: outside [%g, %g]",
			    line, xlo, xhi);
		if (!isnan(olo)) {
			ck_assert_msg(row.from >= xlo && row.to <= xhi &&
			    row.from <= row.to, "%s: drawn outside the axis",
			    line);
			same_value(row.from, fmax(olo, row.from), "from", line);
			ck_assert_int_eq(row.arrow, 1 + (ohi > row.to * 1.0001)
			    + 2 * (olo < row.from * 0.9999));
			ck_assert_int_eq(row.arrow == 1, olo >= row.from *
			    0.9999 && ohi <= row.to * 1.0001);
		} else {
			ck_assert(isnan(row.from) && isnan(row.to));
		}
		/* the verdict: its word, its point, its change */
		v = model_verdict(&m, &r[h], block, NULL);
		ck_assert_str_eq(row.word, rv_word_name(v->word));
		ck_assert_int_eq(row.pt, v->word == RV_CHANGED ? 7 :
		    v->word == RV_SAME ? 6 : 8);
		same_value(row.change, v->change, "change", line);
		/* its words beside the row, as the text report has them */
		table_verdict_word(text, sizeof(text), v);
		gp_quoted(text, sizeof(text));
		ck_assert_msg(strstr(gp, text), "%s: no '%s' in summary.gp",
		    line, text);
		rows++;
	}
	for (i = 0; i < s.nids; i++) {
		struct model_row *r;
		int nr = model_rows(&m, s.ids[i], &r);
		int h = model_headline(&s, s.ids[i], r, nr);

		if (h < 0 || !model_row_shown(&r[h], n))
			continue;
		want++;
		for (k = 1; k < n; k++)
			ck_assert_msg(seen[i * n + k] == 1, "%s: %d rows for "
			    "kernel %d", s.ids[i], seen[i * n + k], k);
	}
	ck_assert_int_eq(rows, want * (n - 1));
	free(dat);
	free(gp);
	free(seen);
	model_free(&m);
	rl_free(&s);
}

/*
 * The summary chart's data against the recomputation: three one-run
 * folders (example-a, -b, -c; no interval, can't tell), and two labels
 * of three runs each (aa-1, aa-2; thp-never, thp-always).  aa's charts
 * are written and not drawn: check_summary() reads the summary's data
 * and script, which vmreport writes before gnuplot runs, and labels of
 * runs are drawn here with thp's charts (and in summary_orientation).
 */
START_TEST(summary_values)
{
	static const char *const ex[] = { EX "/example-a", EX "/example-b",
	    EX "/example-c" }, *aa[] = { EX "/aa-1", EX "/aa-2" },
	    *thp[] = { EX "/thp-never", EX "/thp-always" };

	use_dir("summary_values");
	examples_charts();
	check_summary(ex, 3, "../examples");
	/* true stands in for gnuplot: a second of CPU less */
	ck_assert_int_eq(sh("GNUPLOT=true " VMREPORT " --plot \"$T/aa\" " EX
	    "/aa-1 " EX "/aa-2 >/dev/null 2>\"$T/err\""), 0);
	check_summary(aa, 2, "aa");
	ck_assert_int_eq(sh(VMREPORT " --plot \"$T/thp\" " EX "/thp-never "
	    EX "/thp-always >/dev/null 2>\"$T/err\""), 0);
	check_summary(thp, 2, "thp");
	/* a label of runs has its vmstat charts, from its first run */
	ck_assert_int_eq(sh("test -s \"$T/thp/memfill-vmstat-free.png\" && "
	    "grep -q \"'thp-never (run 1 of 3)'\" "
	    "\"$T/thp/memfill-vmstat-free.gp\""), 0);
}
END_TEST

/*
 * Orientation: two labels of three runs, b every value of a times 1.5
 * (a run's noise +-0.1%): memfill's fill_s (lower is better) worsens
 * and is drawn left of 1 at a / b = 1/1.5, red, changed; forkbomb's
 * forks_per_s (higher is better) improves and is drawn right at 1.5,
 * green, changed.  tworead's half_reads, its runs in b times 0.2, 1
 * and 1.8, has an interval far wider than the others: cut at the axis
 * with an arrow head, the axis not widened to hold it; its verdict
 * can't tell, a triangle.
 */
START_TEST(summary_orientation)
{
	static const char *const ids[] = { "memfill", "forkbomb",
	    "tworead@n100" };
	const char *dirs[2];
	char a[600], b[600], want[128], *dat, *gp, *line, *save = NULL;
	struct srow row;
	double xlo = 0, xhi = 0, f;
	int k, r, seen = 0;
	size_t i;

	use_dir("summary_orientation");
	/*
	 * the 18 files: the load beside the runs (foreign_*, runq, mem_*)
	 * as recorded, the same on both sides
	 */
	for (k = 0; k < 2; k++)
		for (r = 1; r <= 3; r++)
			for (i = 0; i < 3; i++) {
				f = (1 + 0.001 * (r - 2)) * (k == 0 ? 1 :
				    i < 2 ? 1.5 : 0.2 + 0.8 * (r - 1));
				tu_fixture_run(tdir, k ? "b" : "a", r,
				    EX "/aa-1/run1", ids[i], f);
			}
	snprintf(a, sizeof(a), "%s/a", tdir);
	snprintf(b, sizeof(b), "%s/b", tdir);
	dirs[0] = a;
	dirs[1] = b;
	ck_assert_int_eq(sh(VMREPORT " --plot \"$T/ch\" \"$T/a\" \"$T/b\" "
	    ">/dev/null 2>\"$T/err\""), 0);
	ck_assert_int_ne(sh("test -e \"$T/ch/gnuplot.log\""), 0);
	check_summary(dirs, 2, "ch");
	ck_assert_ptr_nonnull(gp = tu_slurp_ok("%s/ch/summary.gp", tdir));
	ck_assert_int_eq(sscanf(strstr(gp, "\nset xrange ["),
	    "\nset xrange [%lf:%lf]", &xlo, &xhi), 2);
	ck_assert_ptr_nonnull(dat = tu_slurp_ok("%s/ch/summary.dat", tdir));
	for (line = strtok_r(dat, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		ck_assert_int_eq(parse_srow(line, &row), 0);
		if (!strcmp(row.name, "memfill fill_s")) {
			ck_assert_str_eq(row.dir, "lower");
			ck_assert_msg(fabs(row.r - 1 / 1.5) < 1e-3, "%s", line);
			ck_assert_str_eq(row.word, "changed");
			ck_assert_int_eq(row.pt, 7);
			ck_assert(row.change < 0);
			ck_assert_int_eq(row.arrow, 1);
			/* red, beside its row */
			snprintf(want, sizeof(want), "' at graph 1, first %g "
			    "offset 1,0 left noenhanced tc rgb '#b02020'",
			    row.y);
			ck_assert_msg(strstr(gp, want), "no %s", want);
			seen |= 1;
		} else if (!strcmp(row.name, "forkbomb forks_per_s")) {
			ck_assert_str_eq(row.dir, "higher");
			ck_assert_msg(fabs(row.r - 1.5) < 1e-3, "%s", line);
			ck_assert_str_eq(row.word, "changed");
			ck_assert_int_eq(row.pt, 7);
			ck_assert(row.change > 0);
			snprintf(want, sizeof(want), "' at graph 1, first %g "
			    "offset 1,0 left noenhanced tc rgb '#1e7a1e'",
			    row.y);
			ck_assert_msg(strstr(gp, want), "no %s", want);
			seen |= 2;
		} else if (!strcmp(row.name, "tworead@n100 half_reads")) {
			ck_assert_str_eq(row.word, "can't tell");
			ck_assert_int_eq(row.pt, 8);
			ck_assert_msg(row.arrow > 1 && (row.lo < xlo ||
			    row.hi > xhi), "%s: not cut in [%g, %g]", line,
			    xlo, xhi);
			seen |= 4;
		}
	}
	ck_assert_int_eq(seen, 7);
	/* the axis holds the points, not the whole wide interval */
	ck_assert_msg(xhi < 4, "axis to %g", xhi);
	free(dat);
	free(gp);
}
END_TEST

/*
 * The summary chart says why: make ab's fixture pair, x-B's three runs
 * loud and x-A's quiet, gets a load note under its title naming the
 * loud runs of each side and the verdicts the load made can't tell,
 * and that verdict beside its row; two labels of runs
 * (aa-1, aa-2) have each can't tell's runs a side that would decide
 * beside it, as the text report's verdict line; a pair of quiet sides
 * (every foreign_cpu and mem_ set to 0) has no note.  gnuplot is not
 * run (true): the script is written before.
 */
START_TEST(summary_reasons)
{
	char *gp;

	use_dir("summary_reasons");
	ck_assert_int_eq(sh("GNUPLOT=true " VMREPORT " --plot \"$T/ab\" "
	    "tests/fixtures/ab-A tests/fixtures/ab-B >/dev/null "
	    "2>\"$T/err\""), 0);
	ck_assert_ptr_nonnull(gp = tu_slurp_ok("%s/ab/summary.gp", tdir));
	tu_assert_has(gp, "set label 104 'loud runs: x-A 0 of 3, x-B 3 of 3 "
	    "(make ab: each iteration a run) (other processes above 5% of a "
	    "CPU or 25% of the memory); 1 verdict can''t tell: the sides ran "
	    "under different loads' at screen 0, screen 1 offset 1,-3.6");
	tu_assert_has(gp, "\nset tmargin 6\n");
	tu_assert_has(gp, "'can''t tell: the sides ran under different loads' "
	    "at graph 1");
	free(gp);
	ck_assert_int_eq(sh("GNUPLOT=true " VMREPORT " --plot \"$T/aa\" " EX
	    "/aa-1 " EX "/aa-2 >/dev/null 2>\"$T/err\""), 0);
	ck_assert_ptr_nonnull(gp = tu_slurp_ok("%s/aa/summary.gp", tdir));
	tu_assert_has(gp, "'can''t tell -29.8% [-75.4, +174.7] (96 runs a "
	    "side would decide)' at graph 1");
	tu_assert_has(gp, "'loud runs: aa-1 3 of 3, aa-2 3 of 3 (other");
	free(gp);
	/* quiet sides: no note, the usual margin */
	ck_assert_int_eq(sh("for k in A B; do mkdir -p \"$T/q$k\" && cp "
	    "tests/fixtures/ab-$k/meta \"$T/q$k/\" && awk '$1 == \"metric\" "
	    "{ m++; if ($2 ~ /^(foreign_|mem_)/) z[m + 2] = 1 } $1 == "
	    "\"iter\" { for (c in z) $c = 0 } { print }' "
	    "tests/fixtures/ab-$k/memfill.res > \"$T/q$k/memfill.res\" || "
	    "exit 1; done && GNUPLOT=true " VMREPORT " --plot \"$T/q\" "
	    "\"$T/qA\" \"$T/qB\" >/dev/null 2>\"$T/err\""), 0);
	ck_assert_ptr_nonnull(gp = tu_slurp_ok("%s/q/summary.gp", tdir));
	tu_assert_lacks(gp, "set label 104");
	tu_assert_lacks(gp, "different loads");
	tu_assert_has(gp, "\nset tmargin 5\n");
	free(gp);
}
END_TEST

/*
 * gnuplot says nothing (no warning on stderr, no gnuplot.log) on the
 * examples with every chart, and on folders where a metric and the
 * headline are the same in every run of both, the vmstat series are
 * flat (si, so 0; free and cache constant), and a benchmark ran once
 * with one sample.
 */
START_TEST(no_gnuplot_messages)
{
	struct vb_res r;
	char path[600];
	int k;

	use_dir("no_gnuplot_messages");
	examples_charts();
	ck_assert_int_eq(sh("cp \"$T/../examples.err\" \"$T/err\""), 0);
	err_one_line("charts (PNG and SVG)");
	ck_assert_int_ne(sh("test -e \"$T/../examples/gnuplot.log\""), 0);
	for (k = 0; k < 2; k++) {
		copy_example("ab"[k], "forkbomb.res forkbomb.vmstat "
		    "memfill.res memfill.vmstat");
		/* forks_per_s and minflt: one value */
		snprintf(path, sizeof(path), "%s/%c/forkbomb.res", tdir,
		    "ab"[k]);
		tu_res_load(path, &r);
		tu_res_set(&r, "forks_per_s", 2500);
		tu_res_set(&r, "minflt", 108051);
		tu_res_store(path, &r);
		/* memfill: its first iteration alone */
		snprintf(path, sizeof(path), "%s/%c/memfill.res", tdir,
		    "ab"[k]);
		tu_res_load(path, &r);
		r.niter = 1;
		tu_res_store(path, &r);
		/* the vmstat series (no library writer): one free and cache
		 * figure; memfill's first sample alone */
		ck_assert_int_eq(sh("cd \"$T/%c\" && "
		    "awk '/^#/ { print; next } { $6 = 22000000; "
		    "$8 = 800000; $9 = 0; $10 = 0; print }' forkbomb.vmstat "
		    "> x && mv x forkbomb.vmstat && "
		    "awk '/^#/ || n++ < 1' memfill.vmstat "
		    "> x && mv x memfill.vmstat", "ab"[k]), 0);
	}
	ck_assert_int_eq(sh("grep -c '^iter .* 2500 [0-9.]*$' \"$T/b/"
	    "forkbomb.res\" | grep -qx 3"), 0);
	ck_assert_int_eq(sh(VMREPORT " --detail --plot \"$T/fx\" \"$T/a\" "
	    "\"$T/b\" >/dev/null 2>\"$T/err\""), 0);
	err_one_line("charts (PNG and SVG)");
	ck_assert_int_ne(sh("test -e \"$T/fx/gnuplot.log\""), 0);
	/*
	 * the constant headline: one run a side (a folder of one run),
	 * ratio 1, no interval; one run: a point, no interval
	 */
	ck_assert_int_eq(sh("grep -q '^0 \"forkbomb forks_per_s\" higher 1 "
	    "NaN NaN NaN NaN 1 8 \"can.t tell\" 0 1 1 1 NaN NaN$' "
	    "\"$T/fx/summary.dat\""), 0);
	ck_assert_int_eq(sh("grep -q '^1 \"memfill fill_s\" lower [0-9.]* "
	    "NaN NaN NaN NaN 1 8 \"can.t tell\" [-0-9.]* 1 1 [0-9.]* NaN "
	    "NaN$' \"$T/fx/summary.dat\""), 0);
}
END_TEST

/*
 * A gnuplot that fails: one line with its last message, its output kept
 * in gnuplot.log.  Without gnuplot the text report works.
 */
START_TEST(gnuplot_fails)
{
	use_dir("gnuplot_fails");
	copy_example('a', "forkbomb.res forkbomb.vmstat");
	copy_example('b', "forkbomb.res forkbomb.vmstat");
	ck_assert_int_eq(sh("printf '#!/bin/sh\\necho plot x >&2\\n"
	    "echo \"     ^\" >&2\\necho \\\"all.gp\\\" line 3: undefined "
	    "variable: x >&2\\nexit 1\\n' > \"$T/gp\" && chmod +x \"$T/gp\""),
	    0);
	ck_assert_int_eq(sh("GNUPLOT=\"$T/gp\" " VMREPORT " --plot \"$T/ch\" "
	    "\"$T/a\" \"$T/b\" >/dev/null 2>\"$T/err\""), 1);
	err_one_line("failed on");
	err_one_line("\"all.gp\" line 3: undefined variable: x");
	ck_assert_int_eq(sh("grep -q '^plot x$' \"$T/ch/gnuplot.log\""), 0);
	/* killed: says so */
	ck_assert_int_eq(sh("printf '#!/bin/sh\\nkill -9 $$\\n' > \"$T/gp\""),
	    0);
	ck_assert_int_eq(sh("GNUPLOT=\"$T/gp\" " VMREPORT " --plot \"$T/ch\" "
	    "\"$T/a\" \"$T/b\" >/dev/null 2>\"$T/err\""), 1);
	err_one_line("was killed by signal 9 (Killed)");
	err_one_line("incomplete");
	ck_assert_int_ne(sh("test -e \"$T/ch/gnuplot.log\""), 0);
	/* a ^C that reaches gnuplot alone: a blank line, exit 1 */
	ck_assert_int_eq(sh("printf '#!/bin/sh\\necho\\nexit 1\\n' > "
	    "\"$T/gp\""), 0);
	ck_assert_int_eq(sh("GNUPLOT=\"$T/gp\" " VMREPORT " --plot \"$T/ch\" "
	    "\"$T/a\" \"$T/b\" >/dev/null 2>\"$T/err\""), 1);
	err_one_line("stopped with status 1 and no message");
	ck_assert_int_ne(sh("test -e \"$T/ch/gnuplot.log\""), 0);
	/* none: one line; the text report needs no gnuplot */
	ck_assert_int_eq(sh("GNUPLOT=/nonexistent/gnuplot " VMREPORT " --plot "
	    "\"$T/ch2\" \"$T/a\" \"$T/b\" >/dev/null 2>\"$T/err\""), 1);
	err_one_line("apt-get install gnuplot-nox");
	ck_assert_int_eq(sh("GNUPLOT=/nonexistent/gnuplot PATH=/nonexistent "
	    VMREPORT " \"$T/a\" \"$T/b\" >\"$T/out\" 2>\"$T/err\" && "
	    "grep -q '^== forkbomb ==' \"$T/out\" && ! test -s \"$T/err\""),
	    0);
}
END_TEST

/*
 * A ^C to vmreport while gnuplot draws (here a gnuplot that sends it
 * and sleeps): gnuplot is stopped and reaped, nothing is moved into
 * the chart folder (gnuplot works in a private one), one line says so,
 * and the exit status is 130.
 */
START_TEST(interrupted_gnuplot)
{
	use_dir("interrupted_gnuplot");
	copy_example('a', "forkbomb.res forkbomb.vmstat");
	copy_example('b', "forkbomb.res forkbomb.vmstat");
	ck_assert_int_eq(sh("printf '#!/bin/sh\\necho $$ > \"%s/gp.pid\"\\n"
	    "kill -INT $PPID\\nexec sleep 30\\n' > \"$T/gp\" && "
	    "chmod +x \"$T/gp\"", tdir), 0);
	/* system() passes on the caller's SIGINT: not ignored */
	signal(SIGINT, SIG_DFL);
	ck_assert_int_eq(sh("GNUPLOT=\"$T/gp\" " VMREPORT " --plot \"$T/ch\" "
	    "\"$T/a\" \"$T/b\" >/dev/null 2>\"$T/err\""), 130);
	err_one_line("interrupted by signal 2 (Interrupt): ");
	err_one_line("no charts written to");
	ck_assert_int_ne(sh("kill -0 $(cat \"$T/gp.pid\") 2>/dev/null"), 0);
	ck_assert_int_ne(sh("test -e \"$T/ch/gnuplot.log\""), 0);
}
END_TEST

/*
 * A chart folder inside a result folder is refused before anything is
 * made: no empty folder is left behind, however the path is spelled.
 */
START_TEST(inside_results_leaves_nothing)
{
	use_dir("inside_results");
	copy_example('a', "forkbomb.res forkbomb.vmstat");
	copy_example('b', "forkbomb.res forkbomb.vmstat");
	ck_assert_int_eq(sh(VMREPORT " --plot \"$T/a/plots\" \"$T/a\" "
	    "\"$T/b\" >/dev/null 2>\"$T/err\""), 1);
	err_one_line("is inside a result folder");
	ck_assert_int_ne(sh("test -e \"$T/a/plots\""), 0);
	ck_assert_int_eq(sh(VMREPORT " --plot \"$T/x/y/../../b/p/q\" "
	    "\"$T/a\" \"$T/b\" >/dev/null 2>\"$T/err\""), 1);
	err_one_line("is inside a result folder");
	ck_assert_int_ne(sh("test -e \"$T/x\" || test -e \"$T/b/p\""), 0);
}
END_TEST

Suite *
plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tu_tcase_local("charts"), *ex = tu_tcase_local("examples");

	/* gnuplot draws a few dozen charts on a busy machine */
	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, default_and_detail);
	tcase_add_test(tc, summary_orientation);
	tcase_add_test(tc, summary_reasons);
	tcase_add_test(tc, gnuplot_fails);
	tcase_add_test(tc, inside_results_leaves_nothing);
	tcase_add_test(tc, interrupted_gnuplot);
	suite_add_tcase(s, tc);
	/* the two that read the examples' charts (examples_charts()) */
	tcase_set_timeout(ex, 120);
	tcase_add_unchecked_fixture(ex, tu_mktmp, tu_rmtmp);
	tcase_add_test(ex, summary_values);
	tcase_add_test(ex, no_gnuplot_messages);
	suite_add_tcase(s, ex);
	return s;
}
