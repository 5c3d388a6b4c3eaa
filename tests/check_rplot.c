/*
 * Tests of the charts (src/report/views/plot.c through vmreport --plot):
 * which charts the default writes and which --detail adds, the summary
 * chart's data against the statistics code's ratios (rs_cmp_ratio()),
 * no message from gnuplot on the examples and on a metric equal in
 * every run, and one line when gnuplot fails.  Fixtures are copies of
 * results/examples/ in a temporary folder, changed with awk.
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

/* Copy @files (shell words) of example-@k into T/@k. */
static void
copy_example(char k, const char *files)
{
	ck_assert_int_eq(sh("mkdir -p \"$T/%c\" && cd " EX "/example-%c && "
	    "cp meta %s \"$T/%c/\"", k, k, files, k), 0);
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
}
END_TEST

/* One field of a summary.dat row: a number or NaN. */
static void
same_value(double got, double want, const char *what, const char *row)
{
	if (isnan(want) || isinf(want)) {
		ck_assert_msg(isnan(got), "%s: %s is %g, want NaN", row, what,
		    got);
		return;
	}
	ck_assert_msg(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)),
	    "%s: %s is %.12g, want %.12g", row, what, got, want);
}

/*
 * Every row of summary.dat (three example folders, every benchmark)
 * holds the headline's ratio and Fieller interval as rs_cmp_ratio()
 * gives them for that kernel, and every benchmark has its row.
 */
START_TEST(summary_values)
{
	struct rl_set s = { 0 };
	struct model m;
	char dir[64], err[512], *dat, *line, *save = NULL, id[256], lab[512];
	int k, i, block = 1, rows = 0, *seen;

	use_dir("summary_values");
	ck_assert_int_eq(sh(VMREPORT " --plot \"$T/ch\" " EX "/example-a "
	    EX "/example-b " EX "/example-c >/dev/null 2>\"$T/err\""), 0);
	s.nk = 3;
	s.k = calloc(3, sizeof(*s.k));
	for (k = 0; k < 3; k++) {
		snprintf(dir, sizeof(dir), EX "/example-%c", "abc"[k]);
		ck_assert_msg(rl_load_kernel(dir, &s.k[k], err,
		    sizeof(err)) == 0, "%s", err);
	}
	rl_index(&s);
	model_init(&m, &s, 1);
	seen = calloc((size_t)s.nids * 3, sizeof(int));
	ck_assert_ptr_nonnull(dat = tu_slurp_ok("%s/ch/summary.dat", tdir));
	for (line = strtok_r(dat, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		struct model_row *r;
		const struct rs_ratio *q;
		double v[3];
		int x, na, nb, n, h;

		/* "# label" starts the next kernel's block */
		if (line[0] == '#') {
			if (!strncmp(line, "# example-", 10))
				block = line[10] - 'a';
			continue;
		}
		ck_assert_msg(sscanf(line, "%d \"%255s %511[^\"]\" %lf %lf "
		    "%lf %d %d", &x, id, lab, &v[0], &v[1], &v[2], &na,
		    &nb) == 8, "bad row: %s", line);
		ck_assert_int_ge(block, 1);
		for (i = 0; i < s.nids && strcmp(s.ids[i], id); i++)
			;
		ck_assert_msg(i < s.nids, "no benchmark %s", id);
		seen[i * 3 + block]++;
		n = model_rows(&m, id, &r);
		h = model_headline(&s, id, r, n);
		ck_assert_int_ge(h, 0);
		ck_assert_msg(!strncmp(lab, r[h].name, strlen(r[h].name)),
		    "%s: metric %s, want %s", line, lab, r[h].name);
		ck_assert_int_eq(na, r[h].d[0].n);
		ck_assert_int_eq(nb, r[h].d[block].n);
		q = rs_cmp_ratio(&r[h].d[0], &r[h].d[block], &r[h].c[block]);
		same_value(v[0], q->r, "ratio", line);
		same_value(v[1], q->unbounded ? NAN : q->lo, "low", line);
		same_value(v[2], q->unbounded ? NAN : q->hi, "high", line);
		rows++;
	}
	for (i = 0; i < s.nids; i++)
		for (k = 1; k < 3; k++)
			ck_assert_msg(seen[i * 3 + k] == 1, "%s: %d rows for "
			    "kernel %d", s.ids[i], seen[i * 3 + k], k);
	ck_assert_int_eq(rows, s.nids * 2);
	free(dat);
	free(seen);
	model_free(&m);
	rl_free(&s);
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
	int k;

	use_dir("no_gnuplot_messages");
	ck_assert_int_eq(sh(VMREPORT " --detail --plot \"$T/ex\" "
	    EX "/example-a " EX "/example-b " EX "/example-c >/dev/null "
	    "2>\"$T/err\""), 0);
	err_one_line("charts (PNG and SVG)");
	ck_assert_int_ne(sh("test -e \"$T/ex/gnuplot.log\""), 0);
	for (k = 0; k < 2; k++) {
		copy_example("ab"[k], "forkbomb.res forkbomb.vmstat "
		    "memfill.res memfill.vmstat");
		/* forks_per_s and minflt: one value (their fields found
		 * from the metric lines) */
		ck_assert_int_eq(sh("cd \"$T/%c\" && "
		    "awk '$1 == \"metric\" { m++; f[$2] = m + 2 } "
		    "$1 == \"iter\" { $f[\"forks_per_s\"] = 2500; "
		    "$f[\"minflt\"] = 108051 } "
		    "{ print }' forkbomb.res > x && mv x forkbomb.res && "
		    "awk '/^#/ { print; next } { $6 = 22000000; "
		    "$8 = 800000; $9 = 0; $10 = 0; print }' forkbomb.vmstat "
		    "> x && mv x forkbomb.vmstat && "
		    "awk '$1 != \"iter\" || $2 == 1' memfill.res > x && "
		    "mv x memfill.res && awk '/^#/ || n++ < 1' memfill.vmstat "
		    "> x && mv x memfill.vmstat", "ab"[k]), 0);
	}
	ck_assert_int_eq(sh("grep -c '^iter .* 2500 [0-9.]*$' \"$T/b/"
	    "forkbomb.res\" | grep -qx 3"), 0);
	ck_assert_int_eq(sh(VMREPORT " --detail --plot \"$T/fx\" \"$T/a\" "
	    "\"$T/b\" >/dev/null 2>\"$T/err\""), 0);
	err_one_line("charts (PNG and SVG)");
	ck_assert_int_ne(sh("test -e \"$T/fx/gnuplot.log\""), 0);
	/* the constant headline: ratio 1, interval [1, 1] */
	ck_assert_int_eq(sh("grep -q '^0 \"forkbomb forks_per_s (+)\" 1 1 1 "
	    "3 3$' \"$T/fx/summary.dat\""), 0);
	/* one run: a bar, no interval */
	ck_assert_int_eq(sh("grep -q '^1 \"memfill fill_s (-)\" [0-9.]* "
	    "NaN NaN 1 1$' \"$T/fx/summary.dat\""), 0);
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
 * and sleeps): gnuplot is stopped and reaped, gnuplot.log removed, one
 * line says the charts are incomplete, and the exit status is 130.
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
	err_one_line("are incomplete");
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
rplot_suite(void)
{
	Suite *s = suite_create("rplot");
	TCase *tc = tcase_create("charts");

	/* gnuplot draws a few dozen charts on a busy machine */
	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, default_and_detail);
	tcase_add_test(tc, summary_values);
	tcase_add_test(tc, no_gnuplot_messages);
	tcase_add_test(tc, gnuplot_fails);
	tcase_add_test(tc, inside_results_leaves_nothing);
	tcase_add_test(tc, interrupted_gnuplot);
	suite_add_tcase(s, tc);
	return s;
}
