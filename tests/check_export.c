/*
 * check_export.c - the exports as their users load them
 * (docs/report.md): report/vmreport --format csv (each --what table)
 * read with Python's csv module, with pandas and, where installed, with
 * R's read.csv, and --format json with json.loads refusing NaN,
 * Infinity and repeated keys.  tests/export-load.py (and .R) check each
 * table's columns and shape; here the figures they read are compared
 * with the text view's: a key figure's mean in the default view and the
 * summary's geometric mean with its interval.  And --what's bad values.
 * The exports and the text views are written once, in tu_dir/ex, and
 * read by every test; one python3 loads them with its three readers
 * (csv, json, pandas: pandas imported once), its lines read by the test
 * of each.
 */
#include <check.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util.h"
#include "views/export.h"

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

/*
 * The four exports of AB and its two text views (text.txt, the
 * default; summary.txt, --summary) in tu_dir/ex, written by the first
 * test that asks (written again by the next when it failed); its path
 * into @dir.
 */
static void
exports(char *dir, size_t len)
{
	snprintf(dir, len, "%s/ex", tu_dir);
	if (access(dir, F_OK) == 0)
		return;
	ck_assert_int_eq(tu_sh_in(tu_dir, "rm -rf \"$T/ex.new\" && "
	    "mkdir \"$T/ex.new\" && "
	    "%s --format csv " AB " >\"$T/ex.new/metrics.csv\" && "
	    "%s --format csv --what settings " AB " >\"$T/ex.new/"
	    "settings.csv\" && %s --format csv --what summary " AB " >\"$T/"
	    "ex.new/summary.csv\" && %s --format json " AB " >\"$T/ex.new/"
	    "out.json\" && %s " AB " >\"$T/ex.new/text.txt\" && "
	    "%s --summary " AB " >\"$T/ex.new/summary.txt\" && "
	    "mv \"$T/ex.new\" \"$T/ex\"", VMREPORT, VMREPORT, VMREPORT,
	    VMREPORT, VMREPORT, VMREPORT), 0);
}

/*
 * The python3 to run: the system's (Debian's, where python3-pandas
 * installs pandas) when there is one, else the one in PATH (a pyenv
 * shim there costs a second of CPU to start); NULL when none.
 */
static const char *
python(void)
{
	if (access("/usr/bin/python3", X_OK) == 0)
		return "/usr/bin/python3";
	return tu_have("python3") ? "python3" : NULL;
}

/*
 * What export-load.py printed, run with @py on the exports in @dir
 * with its three readers, csv, json and pandas, in one process
 * (pandas, a second of CPU to import, imported once): the first test
 * that asks runs it, into @dir/loaded, and every test reads that
 * file (malloc'd).  Its exit status is not looked at: each reader's
 * test finds its own line or fails, the whole output in its message.
 */
static char *
loaded(const char *py, const char *dir)
{
	char path[sizeof(tu_dir) + 32];

	snprintf(path, sizeof(path), "%s/loaded", dir);
	if (access(path, F_OK) != 0)
		ck_assert_int_eq(tu_sh_in(NULL, "%s " LOADER " '%s' " KERNEL
		    " " BENCH " " METRIC " csv json pandas >'%s.new' 2>&1; "
		    "mv '%s.new' '%s'", py, dir, path, path, path), 0);
	return tu_slurp_ok("%s", path);
}

/* The rest of the line of @text that starts with "@reader ", or NULL. */
static const char *
reader_line(const char *text, const char *reader)
{
	size_t n = strlen(reader);
	const char *p;

	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, reader, n) && p[n] == ' ')
			return p + n + 1;
	return NULL;
}

/* @reader's figures in the loader's output @text into @f. */
static void
reader_figs(const char *text, const char *reader, struct figs *f)
{
	const char *p = reader_line(text, reader);

	ck_assert_msg(p && sscanf(p, "mean %lf geomean %lf %lf %lf",
	    &f->mean, &f->g, &f->lo, &f->hi) == 4, "export-load.py %s: %s",
	    reader, text);
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
assert_text(const char *dir, const struct figs *f)
{
	char a[64], b[64], g[64], lo[64], hi[64], *text, *p;

	text = tu_slurp_ok("%s/text.txt", dir);
	p = strstr(text, "\n== " BENCH " ==");
	ck_assert_msg(p != NULL, "no table of " BENCH ": %s", text);
	p = strstr(p, "\n" METRIC);
	ck_assert_msg(p && sscanf(p, "%*s %*s %63s %63s", a, b) == 2,
	    "no row of " METRIC " under " BENCH);
	assert_as_text(BENCH " " METRIC " on " KERNEL, f->mean, b);
	free(text);
	text = tu_slurp_ok("%s/summary.txt", dir);
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

/* The loader's @reader (python3's) on the exports, its figures checked. */
static void
python_reader(const char *reader)
{
	const char *py = python();
	char dir[sizeof(tu_dir) + 8], *text;
	struct figs f;

	if (!py) {
		tu_skip("no python3");
		return;
	}
	exports(dir, sizeof(dir));
	text = loaded(py, dir);
	reader_figs(text, reader, &f);
	free(text);
	assert_text(dir, &f);
}

/* Python's csv module, no options: every table, then the figures. */
START_TEST(csv_module)
{
	python_reader("csv");
}
END_TEST

/*
 * pandas.read_csv, no options: a python3 that has pandas, the one of
 * the shared run (loaded()) or, when that has none, the one in PATH.
 */
START_TEST(csv_pandas)
{
	const char *py = python(), *p = NULL;
	char dir[sizeof(tu_dir) + 8], *text = NULL, out[4096];
	struct figs f;

	exports(dir, sizeof(dir));
	if (py) {
		text = loaded(py, dir);
		p = reader_line(text, "pandas");
		if (p && !strncmp(p, "missing", 7) &&
		    strcmp(py, "python3") != 0 && tu_have("python3")) {
			tu_sh_out(out, sizeof(out), "python3 " LOADER " '%s' "
			    KERNEL " " BENCH " " METRIC " pandas 2>&1", dir);
			free(text);
			text = strdup(out);
			ck_assert_ptr_nonnull(text);
			p = reader_line(text, "pandas");
		}
	}
	if (!py || (p && !strncmp(p, "missing", 7))) {
		free(text);
		tu_skip("no pandas (Debian: python3-pandas)");
		return;
	}
	reader_figs(text, "pandas", &f);
	free(text);
	assert_text(dir, &f);
}
END_TEST

/*
 * R's read.csv, no options (tests/export-load.R), in an R that attaches
 * utils (read.csv's package) alone of its default packages: half of
 * R's start.
 */
START_TEST(csv_r)
{
	char dir[sizeof(tu_dir) + 8], cmd[512], *out;
	struct figs f;

	if (!tu_have("Rscript")) {
		tu_skip("no Rscript (Debian: r-base-core)");
		return;
	}
	exports(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "Rscript --default-packages=utils "
	    "tests/export-load.R '%s' " KERNEL " " BENCH " " METRIC " 2>&1",
	    dir);
	out = output(cmd);
	ck_assert_msg(sscanf(out, "mean %lf\ngeomean %lf %lf %lf", &f.mean,
	    &f.g, &f.lo, &f.hi) == 4, "%s: %s", cmd, out);
	free(out);
	assert_text(dir, &f);
}
END_TEST

/* json.loads refusing NaN, Infinity and repeated keys. */
START_TEST(json_strict)
{
	python_reader("json");
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
	tu_assert_has(out, "\n  --what TABLE ");
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "%s --format csv --what "
	    "settings " AB " | head -1", VMREPORT), 0);
	ck_assert_str_eq(out, "kernel,setting,value,format_version\n");
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "%s --format csv --what "
	    "summary results/examples/aa-1", VMREPORT), 0);
	ck_assert_str_eq(out, "kernel,baseline,metrics,runs_baseline,runs,"
	    "geomean_ratio,geomean_ci_low,geomean_ci_high,format_version\n");
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

/*
 * The metrics table's columns come from one table (export.c's
 * EXPORT_COLUMNS, read through export_column()): the CSV's header is
 * its names in its order, every JSON metric object has its 'M' keys
 * (and "kernels"), every kernel entry its 'K' keys, docs/report.md's
 * column table lists its names in its order, and each name is one
 * row of the list in export.c, the only place that names it: a new
 * column is one row there (and one in the docs, which this test asks
 * for).  Each CSV table ends in format_version, JSON has it on top.
 */
START_TEST(columns_table)
{
	struct vb_buf hdr = VB_BUF_INIT, doc = VB_BUF_INIT;
	struct vb_buf kj = VB_BUF_INIT, mj = VB_BUF_INIT;
	char dir[sizeof(tu_dir) + 8], out[4096], row[128];
	const char *name, *jname, *py = python();
	char *src, *md, *p, *end;
	int i, where, n = export_ncolumns();

	ck_assert_int_gt(n, 40);
	for (i = 0; i < n; i++) {
		name = export_column(i, &jname, &where);
		vb_buf_printf(&hdr, "%s%s", i ? "," : "", name);
		vb_buf_printf(&doc, "%s%s", i ? "," : "", name);
		if (where)
			vb_buf_printf(where == 'K' ? &kj : &mj, "%s%s",
			    (where == 'K' ? kj.len : mj.len) ? "," : "",
			    jname);
	}
	ck_assert_ptr_null(export_column(n, NULL, NULL));
	ck_assert_str_eq(export_column(n - 1, NULL, NULL), "format_version");
	exports(dir, sizeof(dir));
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "head -1 '%s/metrics.csv'",
	    dir), 0);
	out[strcspn(out, "\n")] = '\0';
	ck_assert_msg(!strcmp(out, vb_buf_str(&hdr)), "the header\n%s\nnot "
	    "the table's\n%s", out, vb_buf_str(&hdr));
	/* each name one row of the list, and no header kept by hand */
	src = tu_slurp_ok("src/report/views/export.c");
	for (i = 0; i < n; i++) {
		name = export_column(i, NULL, NULL);
		snprintf(row, sizeof(row), "\nX(%s, ", name);
		p = strstr(src, row);
		ck_assert_msg(p && !strstr(p + 1, row), "export.c: '%s' is "
		    "not one row of EXPORT_COLUMNS", name);
	}
	ck_assert_msg(!strstr(src, "kernel,benchmark"), "export.c: a header "
	    "kept by hand");
	free(src);
	/* the docs' column table: its first cells' names, in order */
	md = tu_slurp_ok("docs/report.md");
	p = strstr(md, "<!-- columns: metrics -->");
	end = p ? strstr(p, "<!-- end columns -->") : NULL;
	ck_assert_msg(p && end, "docs/report.md: no <!-- columns: metrics "
	    "--> ... <!-- end columns -->");
	vb_buf_free(&hdr);
	for (; (p = strstr(p, "\n| `")) && p < end; p++) {
		const char *cell = p + 3, *e = strchr(cell, '|');

		while (cell < e && (cell = memchr(cell, '`', (size_t)(e -
		    cell)))) {
			const char *q = memchr(cell + 1, '`', (size_t)(e -
			    cell - 1));

			ck_assert_ptr_nonnull(q);
			vb_buf_printf(&hdr, "%s%.*s", hdr.len ? "," : "",
			    (int)(q - cell - 1), cell + 1);
			cell = q + 1;
		}
	}
	ck_assert_msg(!strcmp(vb_buf_str(&hdr), vb_buf_str(&doc)),
	    "docs/report.md lists the columns\n%s\nthe table has\n%s",
	    vb_buf_str(&hdr), vb_buf_str(&doc));
	/* the count the docs give */
	snprintf(row, sizeof(row), "**metrics** (the default), %d columns ",
	    n);
	tu_assert_has(md, row);
	free(md);
	/* the JSON's keys; its top-level format_version */
	if (!py) {
		tu_skip("no python3");
	} else {
		ck_assert_msg(tu_sh_out(out, sizeof(out), "%s -c '"
		    "import json, sys\n"
		    "d = json.load(open(sys.argv[1]))\n"
		    "k, m = set(sys.argv[2].split(\",\")), "
		    "set(sys.argv[3].split(\",\")) | {\"kernels\"}\n"
		    "assert d[\"format_version\"] == 1, d[\"format_version\"]\n"
		    "for b in d[\"benchmarks\"]:\n"
		    " for x in b[\"metrics\"]:\n"
		    "  assert set(x) == m, (sorted(x), sorted(m))\n"
		    "  for e in x[\"kernels\"]:\n"
		    "   assert set(e) == k, (sorted(e), sorted(k))\n"
		    "print(\"ok\")' '%s/out.json' '%s' '%s' 2>&1", py, dir,
		    vb_buf_str(&kj), vb_buf_str(&mj)) == 0 &&
		    !strcmp(out, "ok\n"), "JSON keys: %s", out);
	}
	vb_buf_free(&hdr);
	vb_buf_free(&doc);
	vb_buf_free(&kj);
	vb_buf_free(&mj);
}
END_TEST

Suite *
export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tu_tcase_local("export");

	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, csv_module);
	tcase_add_test(tc, csv_pandas);
	tcase_add_test(tc, csv_r);
	tcase_add_test(tc, json_strict);
	tcase_add_test(tc, what_option);
	tcase_add_test(tc, columns_table);
	suite_add_tcase(s, tc);
	return s;
}
