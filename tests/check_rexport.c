/*
 * The exports as their users load them (docs/report.md): report/vmreport
 * --format csv (each --what table) read with Python's csv module, with
 * pandas and, where installed, with R's read.csv, and --format json
 * with json.loads refusing NaN, Infinity and repeated keys.
 * tests/export-load.py (and .R) check each table's columns and shape;
 * here the figures they read are compared with the text view's: a key
 * figure's mean in the default view and the summary's geometric mean
 * with its interval.  And --what's bad values.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define VMREPORT "report/vmreport"
#define LOADER "tests/export-load.py"
/* two shipped folders of 3 runs each: an interval for the geo mean */
#define AB "results/examples/aa-1 results/examples/aa-2"
#define KERNEL "aa-2"
#define BENCH "fileload@c2"
#define METRIC "elapsed"

/* The figures a loader printed (export-load.py) or the text shows. */
struct figs {
	double mean;			/* METRIC of BENCH on KERNEL */
	double g, lo, hi;		/* the geometric mean, its interval */
};

/* @cmd's standard output (malloc'd); its exit status must be 0. */
static char *
output(const char *cmd)
{
	size_t len = 1 << 20;
	char *out = malloc(len);

	ck_assert_ptr_nonnull(out);
	ck_assert_msg(tu_sh_out(out, len, "%s", cmd) == 0, "%s failed: %s",
	    cmd, out);
	ck_assert_uint_lt(strlen(out), len - 1);
	return out;
}

/* Write the four exports of AB into @dir. */
static void
write_exports(const char *dir)
{
	ck_assert_int_eq(tu_sh_in(dir, "%s --format csv " AB " >\"$T/"
	    "metrics.csv\" && %s --format csv --what settings " AB " >\"$T/"
	    "settings.csv\" && %s --format csv --what summary " AB " >\"$T/"
	    "summary.csv\" && %s --format json " AB " >\"$T/out.json\"",
	    VMREPORT, VMREPORT, VMREPORT, VMREPORT), 0);
}

/* Run the loader: @py MODE @path; its figures into @f. */
static void
load(const char *py, const char *mode, const char *path, struct figs *f)
{
	char cmd[1024], *out;

	snprintf(cmd, sizeof(cmd), "%s " LOADER " %s '%s' " KERNEL " " BENCH
	    " " METRIC " 2>&1", py, mode, path);
	out = output(cmd);
	ck_assert_msg(sscanf(out, "mean %lf\ngeomean %lf %lf %lf", &f->mean,
	    &f->g, &f->lo, &f->hi) == 4, "%s: %s", cmd, out);
	free(out);
}

/*
 * Does @v, printed with as many decimals as the text's @tok has, give
 * the text's figure?
 */
static void
assert_as_text(const char *what, double v, const char *tok)
{
	const char *dot = strchr(tok, '.');
	int dec = 0;
	char buf[64];

	if (dot)
		while (dot[1 + dec] >= '0' && dot[1 + dec] <= '9')
			dec++;
	snprintf(buf, sizeof(buf), "%.*f", dec, v);
	ck_assert_msg(!strncmp(buf, tok, strlen(buf)), "%s: %s in the export, "
	    "%s in the text", what, buf, tok);
}

/*
 * The figures of the text views: KERNEL's mean of METRIC in BENCH's
 * table of the default view, and KERNEL's row of the summary's
 * geometric means ("aa-2  91  3/3  1.0791  [0.7446, 1.5639]").
 */
static void
assert_text(const struct figs *f)
{
	char a[64], b[64], g[64], lo[64], hi[64], *text, *p;

	text = output(VMREPORT " " AB);
	p = strstr(text, "\n== " BENCH " ==");
	ck_assert_msg(p != NULL, "no table of " BENCH ": %s", text);
	p = strstr(p, "\n" METRIC);
	ck_assert_msg(p && sscanf(p, "%*s %*s %63s %63s", a, b) == 2,
	    "no row of " METRIC " under " BENCH);
	assert_as_text(BENCH " " METRIC " on " KERNEL, f->mean, b);
	free(text);
	text = output(VMREPORT " --summary " AB);
	p = strstr(text, "\ngeometric mean of the ratios");
	ck_assert_msg(p != NULL, "no geometric means: %s", text);
	p = strstr(p, "\n" KERNEL " ");
	ck_assert_msg(p && sscanf(p, "%*s %*d %*s %63s [%63[^,], %63[^]]",
	    g, lo, hi) == 3, "no geometric mean of " KERNEL ": %s", text);
	assert_as_text("geometric mean", f->g, g);
	assert_as_text("its interval's low end", f->lo, lo);
	assert_as_text("its interval's high end", f->hi, hi);
	free(text);
}

/* Python's csv module, no options: every table, then the figures. */
START_TEST(csv_module)
{
	char dir[256];
	struct figs f;

	if (!tu_have("python3")) {
		tu_skip("no python3");
		return;
	}
	tu_mkdtemp(dir, sizeof(dir), "rexport");
	write_exports(dir);
	load("python3", "csv", dir, &f);
	assert_text(&f);
	ck_assert_int_eq(tu_rmtree(dir), 0);
}
END_TEST

/*
 * pandas.read_csv, no options: a python3 that has pandas (the one in
 * PATH, else the system's, where python3-pandas installs it).
 */
START_TEST(csv_pandas)
{
	static const char *const pys[] = { "python3", "/usr/bin/python3" };
	const char *py = NULL;
	char dir[256];
	struct figs f;
	size_t i;

	for (i = 0; i < sizeof(pys) / sizeof(pys[0]) && !py; i++)
		if (tu_sh_in(NULL, "%s -c 'import pandas' >/dev/null 2>&1",
		    pys[i]) == 0)
			py = pys[i];
	if (!py) {
		tu_skip("no pandas (Debian: python3-pandas)");
		return;
	}
	tu_mkdtemp(dir, sizeof(dir), "rexport");
	write_exports(dir);
	load(py, "pandas", dir, &f);
	assert_text(&f);
	ck_assert_int_eq(tu_rmtree(dir), 0);
}
END_TEST

/* R's read.csv, no options (tests/export-load.R). */
START_TEST(csv_r)
{
	char dir[256], cmd[512], *out;
	struct figs f;

	if (!tu_have("Rscript")) {
		tu_skip("no Rscript (Debian: r-base-core)");
		return;
	}
	tu_mkdtemp(dir, sizeof(dir), "rexport");
	write_exports(dir);
	snprintf(cmd, sizeof(cmd), "Rscript tests/export-load.R '%s' " KERNEL
	    " " BENCH " " METRIC " 2>&1", dir);
	out = output(cmd);
	ck_assert_msg(sscanf(out, "mean %lf\ngeomean %lf %lf %lf", &f.mean,
	    &f.g, &f.lo, &f.hi) == 4, "%s: %s", cmd, out);
	free(out);
	assert_text(&f);
	ck_assert_int_eq(tu_rmtree(dir), 0);
}
END_TEST

/* json.loads refusing NaN, Infinity and repeated keys. */
START_TEST(json_strict)
{
	char dir[256], path[300];
	struct figs f;

	if (!tu_have("python3")) {
		tu_skip("no python3");
		return;
	}
	tu_mkdtemp(dir, sizeof(dir), "rexport");
	write_exports(dir);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	load("python3", "json", path, &f);
	assert_text(&f);
	ck_assert_int_eq(tu_rmtree(dir), 0);
}
END_TEST

/*
 * --what: in --help; each table begins with its header, the summary
 * with one folder is its header alone; a bad value, or --what without
 * --format csv, is one line and exit 2.
 */
START_TEST(what_option)
{
	static const char *const bad[] = {
		"--format csv --what metric",
		"--format csv --what ''",
		"--what summary",
		"--format json --what settings",
		"--format text --what metrics",
	};
	char cmd[512], out[4096];
	size_t i;

	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "%s --help", VMREPORT),
	    0);
	ck_assert_ptr_nonnull(strstr(out, "\n  --what TABLE "));
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "%s --format csv --what "
	    "settings " AB " | head -1", VMREPORT), 0);
	ck_assert_str_eq(out, "kernel,setting,value\n");
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "%s --format csv --what "
	    "summary results/examples/aa-1", VMREPORT), 0);
	ck_assert_str_eq(out, "kernel,baseline,metrics,runs_baseline,runs,"
	    "geomean_ratio,geomean_ci_low,geomean_ci_high\n");
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "%s --format csv --what "
	    "metrics " AB " | head -1 | cut -d, -f1-3", VMREPORT), 0);
	ck_assert_str_eq(out, "kernel,benchmark,metric\n");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s %s " AB " 2>&1 >/dev/null",
		    VMREPORT, bad[i]);
		ck_assert_msg(tu_sh_out(out, sizeof(out), "%s", cmd) == 2,
		    "%s: not exit 2", bad[i]);
		ck_assert_msg(!strncmp(out, "vmreport: --what: ", 18) &&
		    strchr(out, '\n') == out + strlen(out) - 1, "%s: %s",
		    bad[i], out);
	}
}
END_TEST

Suite *
rexport_suite(void)
{
	Suite *s = suite_create("rexport");
	TCase *tc = tu_tcase("rexport");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, csv_module);
	tcase_add_test(tc, csv_pandas);
	tcase_add_test(tc, csv_r);
	tcase_add_test(tc, json_strict);
	tcase_add_test(tc, what_option);
	suite_add_tcase(s, tc);
	return s;
}
