/*
 * The report and the readers on valid but unusual input, end to end
 * through report/vmreport (built by `make`) and through the library:
 * text of any length (hundreds of all-zero metrics, dozens of long
 * labels), meta files with CRLF line ends, results without the standard
 * metrics, values near DBL_MAX, and labels, file names and values with
 * control characters and bytes that are not UTF-8.  Each test failed
 * before the defect it names was fixed.
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "fmt.h"
#include "meta.h"
#include "rstats.h"
#include "testutil.h"

#define EX "results/examples"
#define VMREPORT "report/vmreport"

/* A shell command, T set to the test's folder: tests/testutil.h. */
#define sh(...)	tu_sh_in(tu_dir, __VA_ARGS__)

/* vmreport ARGS (folders under T): stdout and stderr into @out, @err. */
static int
report(char **out, char **err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
report(char **out, char **err, const char *fmt, ...)
{
	char args[8192], path[512], cwd[1024];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	rc = sh("cd \"$T\" && '%s'/%s %s >out 2>err", cwd, VMREPORT, args);
	*out = tu_slurp(tu_path(path, sizeof(path), "out"));
	*err = tu_slurp(tu_path(path, sizeof(path), "err"));
	ck_assert_ptr_nonnull(*out);
	ck_assert_ptr_nonnull(*err);
	return rc;
}

/* Write tu_dir/@dir/@name (the folder made if need be). */
static void
put(const char *dir, const char *name, const char *text)
{
	char path[512];

	FILE *f;

	tu_path(path, sizeof(path), dir);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/%s/%s", tu_dir, dir, name);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* A meta file labelled @label (bytes as they are). */
static void
put_meta(const char *dir, const char *label)
{
	char text[4096];

	snprintf(text, sizeof(text), "vmbench_meta=1\nlabel=%s\n"
	    "status=complete\n", label);
	put(dir, "meta", text);
}

/* Length of the UTF-8 character at @p (of @n bytes), 0 if not one. */
static size_t
utf8_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	len = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 &&
	    p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	if (!len || len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Every byte of @s is part of a UTF-8 character; no control but \n. */
static void
assert_clean(const char *what, const char *s)
{
	size_t i, n = strlen(s), u;

	for (i = 0; i < n; i += u) {
		unsigned char c = (unsigned char)s[i];

		ck_assert_msg(c >= 0x20 || c == '\n', "%s: control byte 0x%02x "
		    "at %zu", what, c, i);
		ck_assert_msg(c != 0x7f, "%s: DEL at %zu", what, i);
		u = utf8_len(s + i, n - i);
		ck_assert_msg(u > 0, "%s: byte 0x%02x at %zu is not UTF-8",
		    what, c, i);
		ck_assert_msg(!(c == 0xc2 && (unsigned char)s[i + 1] < 0xa0),
		    "%s: C1 control at %zu", what, i);
	}
}

/* "inf" (not "info") or "nan" printed as a value. */
static int
inf_or_nan(const char *s)
{
	const char *p;

	for (p = s; (p = strstr(p, "inf")); p++)
		if (p[3] != 'o')
			return 1;
	return strstr(s, "nan") != NULL;
}

/*
 * Defect: "zero in every run" was appended into a 4096-byte line with
 * no bound; 200 all-zero metrics overflowed it (SIGSEGV).
 */
START_TEST(many_zero_metrics)
{
	char *text, *out, *err, name[64], *p;
	size_t cap = 1 << 16, used = 0;
	int i, it;

	text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	used += (size_t)snprintf(text, cap, "vmbench-result 1\nbench zeros\n"
	    "variant default\ncmdline zeros\nstatus complete\nstarted -\n"
	    "ended -\nmetric elapsed s lower\n");
	for (i = 0; i < 200; i++)
		used += (size_t)snprintf(text + used, cap - used, "metric "
		    "zero_in_every_run_metric_%03d count lower\n", i);
	for (it = 1; it <= 3; it++) {
		used += (size_t)snprintf(text + used, cap - used,
		    "iter %d 1.%d", it, it);
		for (i = 0; i < 200; i++)
			used += (size_t)snprintf(text + used, cap - used, " 0");
		used += (size_t)snprintf(text + used, cap - used, "\n");
	}
	snprintf(text + used, cap - used, "end\n");
	ck_assert_int_lt(used + 8, cap);
	put("z1", "zeros.res", text);
	put("z2", "zeros.res", text);
	free(text);
	ck_assert_int_eq(report(&out, &err, "--detail z1 z2"), 0);
	tu_unwrap(out);
	ck_assert_ptr_nonnull(p = strstr(out, "zero in every run:"));
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), " zero_in_every_run_metric_%03d",
		    i);
		ck_assert_msg(strstr(p, name), "%s not listed", name);
	}
	free(out);
	free(err);
	/* the same note under --post's short table */
	ck_assert_int_eq(report(&out, &err, "--post z1 z2"), 0);
	tu_assert_has(out, "zero in every run:");
	free(out);
	free(err);
}
END_TEST

/*
 * Defect: --post's first line appended every label into a 4096-byte
 * line with no bound; 34 kernels with 128-character labels overflowed
 * it.  The chart script's plot line (8192 bytes) refused them too.
 */
START_TEST(many_long_labels)
{
	char label[160], dir[16], args[512], cwd[1024], path[512], *out, *err;
	char *p;
	size_t used = 0;
	int i;

	for (i = 0; i < 34; i++) {
		snprintf(dir, sizeof(dir), "k%02d", i);
		memset(label, 'a' + i % 26, 128);
		snprintf(label + 120, sizeof(label) - 120, "-%07d", i);
		ck_assert_int_eq(strlen(label), 128);
		put_meta(dir, label);
		tu_copy_files(EX "/example-a", tu_path(path, sizeof(path), dir),
		    "forkbomb.res", "forkbomb.vmstat", NULL);
		used += (size_t)snprintf(args + used, sizeof(args) - used,
		    " %s", dir);
	}
	ck_assert_int_eq(report(&out, &err, "--post %s", args), 0);
	ck_assert_int_eq(strncmp(out, "vmbench results: aaaa", 21), 0);
	p = strchr(out, '\n');
	ck_assert_int_eq(p - out, 80);
	/* every kernel has its time line */
	for (i = 0, p = out; (p = strstr(p, " 0+0k ")); p++)
		i++;
	ck_assert_int_eq(i, 34);
	free(out);
	free(err);
	/* charts: every label in the vmstat chart's plot line */
	ck_assert_int_eq(sh("GNUPLOT=/nonexistent/gnuplot; export GNUPLOT; "
	    "cd \"$T\" && '%s'/%s --plot charts %s >out 2>err",
	    getcwd(cwd, sizeof(cwd)), VMREPORT, args), 1);
	ck_assert_ptr_nonnull(out = tu_slurp(tu_path(args, sizeof(args),
	    "charts/forkbomb-vmstat-free.gp")));
	tu_assert_has(out, "-0000033'");
	free(out);
}
END_TEST

/* Defect: a meta with CRLF line ends kept the \r in every value. */
START_TEST(meta_crlf)
{
	char path[512], err[512], *out, *serr;
	struct vb_kv *kv;
	int n;

	put("crlf", "meta", "vmbench_meta=1\r\nlabel=crlf-kernel\r\n"
	    "status=complete\r\n# a comment\r\n\r\nuname_r=6.18.0\r\n");
	snprintf(path, sizeof(path), "%s/crlf/meta", tu_dir);
	ck_assert_msg(vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_eq(n, 4);
	ck_assert_str_eq(vb_meta_get(kv, n, "vmbench_meta"), "1");
	ck_assert_str_eq(vb_meta_get(kv, n, "label"), "crlf-kernel");
	ck_assert_str_eq(vb_meta_get(kv, n, "status"), "complete");
	ck_assert_str_eq(vb_meta_get(kv, n, "uname_r"), "6.18.0");
	vb_meta_free(kv, n);
	/* a NUL byte would cut a value short unseen: refused, like .res */
	ck_assert_int_eq(sh("printf 'vmbench_meta=1\\nlabel=a\\000b\\n' > "
	    "\"$T/crlf/meta0\""), 0);
	snprintf(path, sizeof(path), "%s/crlf/meta0", tu_dir);
	ck_assert_int_eq(vb_meta_read(path, &kv, &n, err, sizeof(err)), -1);
	tu_assert_has(err, "meta0:2: NUL byte in line");
	/* the report: complete, not "suite run complete\r" or interrupted */
	tu_copy_files(EX "/example-a", tu_path(path, sizeof(path), "crlf"),
	    "forkbomb.res", NULL);
	ck_assert_int_eq(report(&out, &serr, "--post crlf crlf"), 0);
	tu_assert_lacks(out, "interrupted");
	ck_assert_ptr_null(strchr(out, '\r'));
	tu_assert_has(out, "crlf-kernel ");
	free(out);
	free(serr);
}
END_TEST

/*
 * Defect: a result without user, sys, majflt, inblock, oublock printed
 * "nanu nans ... nan%" and "-9223372036854775808io" in --post.
 */
START_TEST(missing_standard_metrics)
{
	static const char res[] = "vmbench-result 1\nbench own\n"
	    "variant default\ncmdline own --ops 10\nstatus complete\n"
	    "started -\nended -\nheadline ops\nmetric elapsed s lower\n"
	    "metric ops ops/s higher\niter 1 1.5 10\niter 2 1.6 12\nend\n";
	char *out, *err;

	put("m1", "own.res", res);
	put("m2", "own.res", res);
	ck_assert_int_eq(report(&out, &err, "--post m1 m2"), 0);
	ck_assert_msg(strstr(out, "m1:       -u -s 0:01.55 -% 0+0k -+-io "
	    "-pf+0w\n"), "%s", out);
	tu_assert_lacks(out, "nan");
	tu_assert_lacks(out, "9223372036854775808");
	free(out);
	free(err);
}
END_TEST

/*
 * Defect: finite values near DBL_MAX summed to inf (the mean, the
 * median), printed as "inf", and the elapsed time's conversion to
 * centiseconds (a long) was undefined ("-9:-18.08").
 */
START_TEST(huge_values)
{
	static const char res[] = "vmbench-result 1\nbench big\n"
	    "variant default\ncmdline big\nstatus complete\nstarted -\n"
	    "ended -\nheadline ops\nmetric elapsed s lower\n"
	    "metric user s lower\nmetric sys s lower\n"
	    "metric majflt faults lower\nmetric inblock blocks info\n"
	    "metric ops ops/s higher\n"
	    "iter 1 1.7e308 1.7e308 1.7e308 1.7e308 1.7e308 1.7e308\n"
	    "iter 2 1.6e308 1.6e308 1.6e308 1.6e308 1.6e308 1.6e308\n"
	    "iter 3 1.7e308 1.7e308 1.7e308 1.7e308 1.7e308 1.7e308\n"
	    "end\n";
	static const char *const views[] = { "", "--post", "--summary",
		"--detail" };
	const double v[] = { 1.7e308, 1.6e308, 1.7e308, 1.5e308 };
	struct rs_desc d;
	char buf[64], *out, *err;
	size_t i;

	rs_describe(v, 3, 1, &d);
	ck_assert(isfinite(d.mean));
	ck_assert_double_eq_tol(d.mean / 1e308, 5.0 / 3, 1e-12);
	ck_assert(isfinite(d.sd));
	ck_assert_double_eq_tol(d.sd / 1e306, 5.7735026919, 1e-6);
	rs_describe(v, 4, 1, &d);
	ck_assert(isfinite(d.median));
	ck_assert_double_eq_tol(d.median / 1e308, 1.65, 1e-12);
	/* ordinary figures are not changed by the scaling */
	{
		const double w[] = { 0.1, 0.2, 0.4 };

		rs_describe(w, 3, 1, &d);
		ck_assert(d.mean == (0.1 + 0.2 + 0.4) / 3);
	}
	ck_assert_str_eq(vb_fmt_hms(buf, sizeof(buf), 1.7e308), "-");
	ck_assert_str_eq(vb_fmt_hms(buf, sizeof(buf), -1.5), "-");
	ck_assert_str_eq(vb_fmt_hms(buf, sizeof(buf), NAN), "-");
	ck_assert_str_eq(vb_fmt_hms(buf, sizeof(buf), INFINITY), "-");
	ck_assert_str_eq(vb_fmt_hms(buf, sizeof(buf), 3.5), "0:03.50");
	ck_assert_str_eq(vb_fmt_hms(buf, sizeof(buf), 3723), "1:02:03");
	put("b1", "big.res", res);
	put("b2", "big.res", res);
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		ck_assert_int_eq(report(&out, &err, "%s b1 b2", views[i]), 0);
		ck_assert_msg(!inf_or_nan(out), "'%s': %s", views[i], out);
		ck_assert_msg(!strstr(out, "66666666"), "'%s': %s", views[i],
		    out);
		ck_assert_msg(!strstr(out, "-9:-"), "%s", out);
		free(out);
		free(err);
	}
	ck_assert_int_eq(report(&out, &err, "b1 b2"), 0);
	tu_assert_has(out, "1.67e+308");
	free(out);
	free(err);
}
END_TEST

/* A folder labelled with an escape sequence, DEL and stray bytes. */
static const char odd_label[] = "odd\033[31m\x7f\x80\xff\xc3\xa9\xc2\x9bz";

/*
 * Defect: JSON carried the label's bytes 0x80-0xff as they were (not
 * UTF-8) and DEL and C1 controls raw.
 */
/*
 * Defect: values near 1e-300 printed as 0 beside a change of +49.02%
 * ("0.0000 0.0000 (+49.02%)*"): a value that is not zero is shown as
 * what it is, in every view; a CoV in percent keeps its two decimals.
 */
START_TEST(tiny_values)
{
	static const char *const views[] = { "", "--post", "--detail" };
	char buf[64], *out, *err;
	size_t i;

	ck_assert_str_eq(fmt_value(buf, sizeof(buf), 1e-300, 4),
	    "1.00e-300");
	ck_assert_str_eq(fmt_value(buf, sizeof(buf), -1.5e-300, 4),
	    "-1.5e-300");
	ck_assert_str_eq(fmt_value(buf, sizeof(buf), 0.00004, 4),
	    "4.000e-05");
	ck_assert_str_eq(fmt_value(buf, sizeof(buf), 0.5, 4), "0.5000");
	ck_assert_str_eq(fmt_value(buf, sizeof(buf), 0, 4), "0");
	ck_assert_str_eq(fmt_fixed(buf, sizeof(buf), 0.0013, 2), "0.00");
	put("t1", "tiny.res", "vmbench-result 1\nbench tiny\n"
	    "variant default\ncmdline tiny\nstatus complete\nstarted -\n"
	    "ended -\nheadline ops\nmetric ops ops/s higher\n"
	    "iter 1 1.00e-300\niter 2 1.02e-300\niter 3 0.98e-300\nend\n");
	put("t2", "tiny.res", "vmbench-result 1\nbench tiny\n"
	    "variant default\ncmdline tiny\nstatus complete\nstarted -\n"
	    "ended -\nheadline ops\nmetric ops ops/s higher\n"
	    "iter 1 1.49e-300\niter 2 1.51e-300\niter 3 1.47e-300\nend\n");
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		ck_assert_int_eq(report(&out, &err, "%s t1 t2", views[i]), 0);
		ck_assert_msg(!strstr(out, " 0.000") && strstr(out, "e-300"),
		    "'%s': %s", views[i], out);
		free(out);
		free(err);
	}
}
END_TEST

/*
 * Defect: -0 in the exports: a mean, min or median of -0 values, and
 * --min-change -0, were printed "-0" (a number a reader takes as it
 * is, but that no figure means).  Zero is 0 in CSV and JSON.
 */
START_TEST(no_negative_zero)
{
	static const char *const views[] = { "--format csv",
		"--format csv --what summary", "--format json" };
	static const char res[] = "vmbench-result 1\nbench nz\n"
	    "variant default\ncmdline nz\nstatus complete\nstarted -\n"
	    "ended -\nheadline ops\nmetric elapsed s lower\n"
	    "metric ops ops/s higher\n"
	    "iter 1 -0 -0\niter 2 -0 -0\niter 3 -0 -0\nend\n";
	char *out, *err;
	size_t i;

	put("z1", "nz.res", res);
	put("z2", "nz.res", res);
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		ck_assert_int_eq(report(&out, &err, "%s --min-change -0 z1 z2",
		    views[i]), 0);
		ck_assert_msg(!strstr(out, ",-0,") && !strstr(out, ",-0\n") &&
		    !strstr(out, ": -0,") && !strstr(out, ": -0}"),
		    "'%s': %s", views[i], out);
		free(out);
		free(err);
	}
}
END_TEST

START_TEST(json_utf8)
{
	char path[512], *out, *err;

	put_meta("odd", odd_label);
	tu_copy_files(EX "/example-b", tu_path(path, sizeof(path), "odd"),
	    "forkbomb.res", NULL);
	tu_copy_files(EX "/example-a", tu_path(path, sizeof(path), "a"),
	    "meta", "forkbomb.res", NULL);
	ck_assert_int_eq(report(&out, &err, "--format json a odd"), 0);
	assert_clean("json", out);
	tu_assert_has(out, "\"odd\\u001b[31m\\u007f\\ufffd"
	    "\\ufffd\xc3\xa9\\u009bz\"");
	free(out);
	free(err);
	/* CSV: the label quoted when it holds a CR */
	put_meta("cr", "x\ry");
	tu_copy_files(EX "/example-b", tu_path(path, sizeof(path), "cr"),
	    "forkbomb.res", NULL);
	ck_assert_int_eq(report(&out, &err, "--format csv a cr"), 0);
	tu_assert_has(out, "\n\"x\ry\",forkbomb,");
	free(out);
	free(err);
}
END_TEST

/* Defect: the text views printed the label's escape sequence raw. */
START_TEST(text_escaped)
{
	static const char *const views[] = { "", "--post", "--summary",
		"--detail", "--vmstat forkbomb" };
	char path[512], *out, *err;
	size_t i;

	put_meta("odd", odd_label);
	tu_copy_files(EX "/example-b", tu_path(path, sizeof(path), "odd"),
	    "forkbomb.res", "forkbomb.vmstat", NULL);
	tu_copy_files(EX "/example-a", tu_path(path, sizeof(path), "a"),
	    "meta", "forkbomb.res", "forkbomb.vmstat", NULL);
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		ck_assert_int_eq(report(&out, &err, "%s a odd", views[i]), 0);
		assert_clean(views[i], out);
		ck_assert_msg(strstr(out, "odd\\x1b[31m"), "'%s': %s",
		    views[i], out);
		free(out);
		free(err);
	}
}
END_TEST

/*
 * Defect: error messages echoed a folder name's or a parameter value's
 * control characters raw (a newline split the one-line message).
 */
START_TEST(errors_escaped)
{
	struct vb_res r;
	char path[512], *out, *err;

	ck_assert_int_eq(report(&out, &err, "\"$(printf 'no\\033[2Jsuch\\n"
	    "dir')\""), 1);
	ck_assert_str_eq(err, "vmreport: no\\x1b[2Jsuch\\ndir: no such "
	    "result folder\n");
	free(out);
	free(err);
	/* parameters that differ: one line each, the value escaped */
	ck_assert_int_eq(mkdir(tu_path(path, sizeof(path), "p1"), 0777), 0);
	tu_copy_file(EX "/example-a/forkbomb.res", strcat(path,
	    "/forkbomb.res"));
	ck_assert_int_eq(mkdir(tu_path(path, sizeof(path), "p2"), 0777), 0);
	tu_res_load(EX "/example-a/forkbomb.res", &r);
	ck_assert_str_eq(vb_res_param(&r, "forks"), "3000");
	tu_res_set_param(&r, "forks", "3000\033[2J");
	tu_res_store(tu_path(path, sizeof(path), "p2/forkbomb.res"), &r);
	ck_assert_int_eq(report(&out, &err, "p1 p2"), 1);
	ck_assert_ptr_null(strchr(err, '\033'));
	tu_assert_has(err, "forkbomb: parameter forks is 3000 "
	    "in p1 but 3000\\x1b[2J in p2\n");
	free(out);
	free(err);
	/* the regression gate's lines name the label */
	put_meta("r", "bad\033[2Jlabel");
	tu_res_load(EX "/example-a/forkbomb.res", &r);
	tu_res_scale(&r, "forks_per_s", 0.5);
	tu_res_store(tu_path(path, sizeof(path), "r/forkbomb.res"), &r);
	/* make ab's unit, iterations as runs: a change can be starred */
	tu_meta_set(tu_path(path, sizeof(path), "r"), "unit",
	    "run-per-iteration");
	put_meta("p1", "p1");
	tu_meta_set(tu_path(path, sizeof(path), "p1"), "unit",
	    "run-per-iteration");
	ck_assert_int_eq(report(&out, &err, "--fail-on-regression 10 p1 r"),
	    3);
	ck_assert_ptr_null(strchr(err, '\033'));
	tu_assert_has(err, "regression: bad\\x1b[2Jlabel "
	    "forkbomb forks_per_s: -50.00%");
	free(out);
	free(err);
}
END_TEST

/*
 * Defect: a label with a quote broke the gnuplot script (the label went
 * into a single-quoted title as it was).
 */
START_TEST(gnuplot_quotes)
{
	char path[512], *gp, *out, *err;

	put_meta("q", "it's");
	tu_copy_files(EX "/example-b", tu_path(path, sizeof(path), "q"),
	    "forkbomb.res", "forkbomb.vmstat", NULL);
	tu_copy_files(EX "/example-a", tu_path(path, sizeof(path), "a"),
	    "meta", "forkbomb.res", "forkbomb.vmstat", NULL);
	ck_assert_int_eq(report(&out, &err, "--plot ch a q"), 0);
	free(out);
	free(err);
	gp = tu_slurp(tu_path(path, sizeof(path), "ch/forkbomb-vmstat-swap.gp"));
	ck_assert_ptr_nonnull(gp);
	tu_assert_has(gp, "title 'it''s si'");
	free(gp);
	gp = tu_slurp(tu_path(path, sizeof(path), "ch/forkbomb-vmstat-free.gp"));
	ck_assert_ptr_nonnull(gp);
	tu_assert_has(gp, "title 'it''s'");
	free(gp);
}
END_TEST

/*
 * Defect: the vmstat dump converted a sample's iteration (a double from
 * the file) to int, undefined for 1e300, and printed "nan" and 300-digit
 * numbers.
 */
START_TEST(vmstat_odd_samples)
{
	char path[512], *out, *err;

	put_meta("v", "v");
	tu_copy_files(EX "/example-a", tu_path(path, sizeof(path), "v"),
	    "forkbomb.res", NULL);
	put("v", "forkbomb.vmstat", "1.0 1e300 1 0 0 nan 1 1 0 0 0 0 0 0 "
	    "1e300 1 1 1 0\n2.0 1 1 0 0 100 1 1 0 0 0 0 0 0 1 1 98 0 0\n");
	ck_assert_int_eq(report(&out, &err, "--vmstat forkbomb --iter 1 v"),
	    0);
	tu_assert_has(out, "\n 1  0      0    100 ");
	tu_assert_lacks(out, "nan");
	free(out);
	free(err);
	ck_assert_int_eq(report(&out, &err, "--vmstat forkbomb v"), 0);
	tu_assert_lacks(out, "nan");
	tu_assert_has(out, "     - ");
	tu_assert_has(out, " 1e+300 ");
	free(out);
	free(err);
}
END_TEST

Suite *
robust_suite(void)
{
	Suite *s = suite_create("robust");
	TCase *tc = tu_tcase_local("robust");

	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, many_zero_metrics);
	tcase_add_test(tc, many_long_labels);
	tcase_add_test(tc, meta_crlf);
	tcase_add_test(tc, missing_standard_metrics);
	tcase_add_test(tc, huge_values);
	tcase_add_test(tc, tiny_values);
	tcase_add_test(tc, no_negative_zero);
	tcase_add_test(tc, json_utf8);
	tcase_add_test(tc, text_escaped);
	tcase_add_test(tc, errors_escaped);
	tcase_add_test(tc, gnuplot_quotes);
	tcase_add_test(tc, vmstat_odd_samples);
	suite_add_tcase(s, tc);
	return s;
}
