/*
 * check_html.c - the results page (src/report/views/html.c, vmreport
 * --html DIR): escaping of every string from a result folder, the
 * figures taken from model_rows() as the text report prints them, each
 * run's warning that the machine was not quiet once on the page, the
 * HTML folder's rules (created, or an earlier page replaced; anything
 * else refused with one line and nothing written), and the browser test
 * (tests/html-browser.sh: 50 generated folders rendered under 2 s and
 * checked in headless Chromium; skipped with one line when chromium is
 * not installed). Fixtures are copies of results/examples/ in a
 * temporary folder.
 */
#include <check.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "model.h"
#include "table.h"
#include "setup.h"
#include "views/html.h"
#include "testutil.h"

#define EX "results/examples"

/* A shell command, T set to the test's folder: tests/testutil.h. */
#define sh(...)	tu_sh_in(tu_dir, __VA_ARGS__)

START_TEST(escape)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(m);
	html_esc(m, "<b a='1'>\"x\" & y</b>\x01\x7f\xff caf\xc3\xa9 \xc2\x85.");
	fclose(m);
	ck_assert_str_eq(text, "&lt;b a=&#39;1&#39;&gt;&quot;x&quot; &amp; "
	    "y&lt;/b&gt;&#xFFFD;&#xFFFD;&#xFFFD; caf\xc3\xa9 &#xFFFD;.");
	free(text);
}
END_TEST

/*
 * A label, a parameter value and a setting with markup in them come
 * out as text; the page is written once, in one piece.
 */
START_TEST(escaped_page)
{
	struct vb_res r;
	char path[512], src[64], *page;
	int k;

	for (k = 0; k < 2; k++) {
		snprintf(src, sizeof(src), EX "/example-%c", "ab"[k]);
		tu_copy_tree(src, tu_path(path, sizeof(path),
		    src + strlen(EX "/")));
		strcat(path, "/forkbomb.res");
		tu_res_load(path, &r);
		vb_res_set_cmdline(&r, "forkbomb <x>");
		tu_res_store(path, &r);
	}
	tu_path(path, sizeof(path), "example-b");
	tu_meta_set(path, "label", "<script>alert(1)</script>");
	tu_meta_set(path, "swappiness", "<i>9</i>");
	ck_assert_int_eq(sh("report/vmreport --html \"$T/h\" \"$T/example-a\" "
	    "\"$T/example-b\" > \"$T/out\" 2> \"$T/err\""), 0);
	page = tu_slurp_ok("%s/h/index.html", tu_dir);
	ck_assert_ptr_nonnull(page);
	tu_assert_lacks(page, "<script>alert");
	tu_assert_lacks(page, "<i>9");
	tu_assert_lacks(page, "forkbomb <x>");
	tu_assert_has(page, "&lt;script&gt;alert(1)"
	    "&lt;/script&gt;");
	tu_assert_has(page, "&lt;i&gt;9&lt;/i&gt;");
	tu_assert_has(page, "forkbomb &lt;x&gt;");
	/* one script only: the page's own, at its end */
	tu_assert_has(page, "<script>");
	tu_assert_lacks(strstr(page, "<script>") + 1, "<script");
	tu_assert_has(page, "</script>\n</body></html>\n");
	ck_assert_int_eq(sh("test ! -e \"$T/h/index.html.tmp\""), 0);
	free(page);
}
END_TEST

/* How often @needle occurs in @hay. */
static int
occurs(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/*
 * Each run's warning that the machine was not quiet is on the page
 * once, in its benchmark's section; the top has one line for them all
 * when every run was loaded, the summary line when one was quiet.
 */
/*
 * The summary's best of each column is green only where the verdict
 * says changed: example-a against example-b (every headline can't
 * tell) has none; make ab's fixture pair has one, the baseline's where
 * the other side changed (for the worse), none where both are the same.
 */
/*
 * Long lines of the notes and warnings (written 200 columns wide) wrap
 * at the page's edge instead of running past it: the style of every
 * <pre> wraps.
 */
START_TEST(pre_wraps)
{
	char *page, *st, *end;

	ck_assert_int_eq(sh("report/vmreport --html \"$T/h\" " EX
	    "/example-a " EX "/example-b > \"$T/out\" 2> \"$T/err\""), 0);
	page = tu_slurp_ok("%s/h/index.html", tu_dir);
	ck_assert_ptr_nonnull(st = strstr(page, "\npre{"));
	ck_assert_ptr_nonnull(end = strchr(st + 1, '}'));
	*end = '\0';
	ck_assert_msg(strstr(st, "white-space:pre-wrap"), "the style of "
	    "pre: %s}", st + 1);
	free(page);
}
END_TEST

START_TEST(best_changed)
{
	static const struct {
		const char *a, *b;
		int best, in_base;
	} c[] = {
		{ EX "/example-a", EX "/example-b", 0, 0 },
		{ "tests/fixtures/ab-A", "tests/fixtures/ab-B", 1, 1 },
	};
	char *page, *t, *end, *base;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_int_eq(sh("rm -rf \"$T/h\" && report/vmreport --html "
		    "\"$T/h\" %s %s > \"$T/out\" 2> \"$T/err\"", c[i].a,
		    c[i].b), 0);
		page = tu_slurp_ok("%s/h/index.html", tu_dir);
		ck_assert_ptr_nonnull(t = strstr(page, "id=\"summary-table\""));
		ck_assert_ptr_nonnull(end = strstr(t, "</table>"));
		*end = '\0';
		ck_assert_msg(occurs(t, "num best") == c[i].best, "%s %s: %d "
		    "best cells, want %d:\n%s", c[i].a, c[i].b,
		    occurs(t, "num best"), c[i].best, t);
		ck_assert_ptr_nonnull(base = strstr(t, "<tr class=\"k base\""));
		ck_assert_ptr_nonnull(end = strstr(base, "</tr>"));
		*end = '\0';
		ck_assert_msg(occurs(base, "num best") == c[i].in_base, "%s %s: "
		    "the baseline's row: %s", c[i].a, c[i].b, base);
		free(page);
	}
}
END_TEST

START_TEST(quiet_once)
{
	static const char *const ids[] = { "forkbomb", "memfill",
		"makesim@no_load" };
	struct vb_res r;
	char w[512], label[16], *page, *top;
	size_t i;
	int k;

	for (k = 1; k <= 3; k++) {
		snprintf(label, sizeof(label), "k%d", k);
		tu_fixture_copy(EX "/example-a", tu_path(w, sizeof(w), label),
		    label);
	}
	ck_assert_int_eq(sh("report/vmreport --html \"$T/h\" \"$T/k1\" "
	    "\"$T/k2\" \"$T/k3\" > \"$T/out\" 2> \"$T/err\""), 0);
	page = tu_slurp_ok("%s/h/index.html", tu_dir);
	ck_assert_ptr_nonnull(page);
	ck_assert_int_eq(occurs(page, "not quiet in all 27 benchmark runs"),
	    1);
	top = strstr(page, "<pre class=\"load\">");
	ck_assert_ptr_nonnull(top);
	tu_assert_has(page, "id=\"summary\"");
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		for (k = 1; k <= 3; k++) {
			snprintf(w, sizeof(w), "warning: %s on k%d: the "
			    "machine was not quiet", ids[i], k);
			ck_assert_msg(occurs(page, w) == 1, "%d times: %s",
			    occurs(page, w), w);
			/* in the benchmark's section, below the summary */
			ck_assert(strstr(page, w) >
			    strstr(page, "id=\"summary\""));
		}
	free(page);
	/*
	 * k2's forkbomb quiet: the summary line, over the 27 runs that
	 * recorded it (33 with the probes, which do not)
	 */
	tu_path(w, sizeof(w), "k2/forkbomb.res");
	tu_res_load(w, &r);
	tu_res_set(&r, "foreign_cpu", 1);
	tu_res_store(w, &r);
	ck_assert_int_eq(sh("report/vmreport --html \"$T/h\" \"$T/k1\" "
	    "\"$T/k2\" \"$T/k3\" > \"$T/out\" 2> \"$T/err\""), 0);
	page = tu_slurp_ok("%s/h/index.html", tu_dir);
	ck_assert_ptr_nonnull(page);
	tu_assert_lacks(page, "not quiet in all");
	tu_assert_has(page, "not quiet in 26 of the 27 benchmark runs");
	ck_assert_int_eq(occurs(page, "warning: forkbomb on k2:"), 0);
	ck_assert_int_eq(occurs(page, "warning: forkbomb on k1: the machine "
	    "was not quiet"), 1);
	ck_assert_int_eq(occurs(page, "the machine was not quiet: other "), 26);
	free(page);
}
END_TEST

/* The page's figures are model_rows()'s, formatted as the tables are. */
START_TEST(same_figures)
{
	static const char *const ex[] = { EX "/example-a", EX "/example-c",
		EX "/example-d" };
	struct rl_set s = { 0 };
	struct report_opts o = { .width = 80, .noisy = 0.05, .quiet = 5,
	    .mem_quiet = SETUP_MEM_THRESHOLD };
	struct model m;
	struct model_row *rows;
	char err[512], dir[512], want[256], num[64], pct[32], *page;
	int i, n, h, k;

	s.nk = 3;
	s.k = calloc(3, sizeof(*s.k));
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(rl_load_kernel(ex[i], &s.k[i], err,
		    sizeof(err)), 0);
	rl_index(&s);
	model_init(&m, &s, 1);
	snprintf(dir, sizeof(dir), "%s/page", tu_dir);
	ck_assert_int_eq(html_page(&m, dir, &o), 0);
	page = tu_slurp_ok("%s/page/index.html", tu_dir);
	ck_assert_ptr_nonnull(page);
	for (i = 0; i < s.nids; i++) {
		n = model_rows(&m, s.ids[i], &rows);
		h = model_headline(&s, s.ids[i], rows, n);
		ck_assert_int_ge(h, 0);
		for (k = 1; k < s.nk; k++) {
			if (!rows[h].d[k].n)
				continue;
			/* the comparison table's cell */
			snprintf(want, sizeof(want), ">%s (%s)%s</td>",
			    table_mean(num, sizeof(num), &rows[h], s.nk, k),
			    fmt_pct(pct, sizeof(pct), rows[h].c[k].pct),
			    rows[h].c[k].sig && rows[h].dir != VB_INFO ?
			    "*" : "");
			ck_assert_msg(strstr(page, want), "%s: no '%s'",
			    s.ids[i], want);
			/* the chart's bar */
			snprintf(want, sizeof(want), "data-k=\"%d\" "
			    "data-v=\"%.10g\" transform", k,
			    rows[h].d[k].mean);
			ck_assert_msg(strstr(page, want), "%s: no '%s'",
			    s.ids[i], want);
		}
	}
	free(page);
	model_free(&m);
	rl_free(&s);
}
END_TEST

/* @s with "'" as html_esc() writes it, into @buf. */
static char *
esc_quote(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 6 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + n, "&#39;", 5);
			n += 5;
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return buf;
}

/*
 * The verdict words on the page: four labels (a, b = a times 1.5, c = a,
 * d = one run of a times 1.2; three runs each but d, a run's noise
 * +-0.1%) give changed, same and can't tell; each kernel's verdict on
 * each headline (model_verdict(), the text report's words by
 * table_verdict_word()) is under its figure in the summary table and
 * beside its bar in the chart, coloured by its class, and the section
 * has the text report's verdict line; the legend names the procedure.
 */
START_TEST(verdict_words)
{
	static const char *const ids[] = { "forkbomb", "memfill" };
	static const double f[] = { 1, 1.5, 1, 1.2 };
	struct rl_set s = { 0 };
	struct report_opts o = { .width = 80, .noisy = 0.05, .quiet = 5 };
	struct model m;
	struct model_row *rows;
	char err[512], dir[512], want[512], w[64], e[128], pct[32], *page;
	int i, n, h, k, r, words[4] = { 0 };
	size_t j;

	/* the load beside the runs as recorded: the same on every side */
	for (k = 0; k < 4; k++)
		for (r = 1; r <= (k == 3 ? 1 : 3); r++)
			for (j = 0; j < 2; j++)
				tu_fixture_run(tu_path(dir, sizeof(dir), "v"),
				    (char[]){ "abcd"[k], '\0' }, r,
				    EX "/aa-1/run1", ids[j],
				    f[k] * (1 + 0.001 * (r - 2)));
	s.nk = 4;
	s.k = calloc(4, sizeof(*s.k));
	for (k = 0; k < 4; k++) {
		snprintf(dir, sizeof(dir), "%s/v/%c", tu_dir, "abcd"[k]);
		ck_assert_msg(rl_load_kernel(dir, &s.k[k], err,
		    sizeof(err)) == 0, "%s", err);
	}
	rl_index(&s);
	model_init(&m, &s, 1);
	snprintf(dir, sizeof(dir), "%s/vpage", tu_dir);
	ck_assert_int_eq(html_page(&m, dir, &o), 0);
	ck_assert_ptr_nonnull(page = tu_slurp_ok("%s/vpage/index.html",
	    tu_dir));
	ck_assert_msg(strstr(page, "Holm-adjusted p &lt; 0.032 over "),
	    "the legend does not name Holm");
	ck_assert_msg(!strstr(page, "Welch's t-test, p&lt;0.05"),
	    "the legend still names Welch at p<0.05");
	for (i = 0; i < s.nids; i++) {
		n = model_rows(&m, s.ids[i], &rows);
		h = model_headline(&s, s.ids[i], rows, n);
		ck_assert_int_ge(h, 0);
		snprintf(want, sizeof(want), "<p class=\"verdict\">verdict %s:",
		    rows[h].name);
		ck_assert_msg(strstr(page, want), "%s: no '%s'", s.ids[i],
		    want);
		for (k = 1; k < s.nk; k++) {
			const struct rv_verdict *v = model_verdict(&m,
			    &rows[h], k, NULL);
			const char *cls = v->word == RV_SAME ? "same" :
			    v->word != RV_CHANGED ? "cant" : v->change > 0 ?
			    "changed better" : "changed worse";

			words[v->word]++;
			esc_quote(e, sizeof(e), table_verdict_word(w,
			    sizeof(w), v));
			if (v->word == RV_CHANGED)
				snprintf(e + strlen(e), sizeof(e) - strlen(e),
				    " %s", fmt_pct(pct, sizeof(pct),
				    v->change));
			/* the summary's cell */
			snprintf(want, sizeof(want), "<span class=\"vw %s\">%s"
			    "</span></td>", cls, e);
			ck_assert_msg(strstr(page, want), "%s %c: no '%s'",
			    s.ids[i], "abcd"[k], want);
			/* the chart's row */
			snprintf(want, sizeof(want), "<text class=\"vw %s\" "
			    "x=\"690\" y=\"13\">%s</text></g>", cls, e);
			ck_assert_msg(strstr(page, want), "%s %c: no '%s'",
			    s.ids[i], "abcd"[k], want);
		}
	}
	/* the fixture gives every word: b changed, c same, d can't tell */
	ck_assert_int_eq(words[RV_CHANGED], 2);
	ck_assert_int_eq(words[RV_SAME], 2);
	ck_assert_int_eq(words[RV_CANT_TELL], 2);
	free(page);
	model_free(&m);
	rl_free(&s);
}
END_TEST

/*
 * A suite run that did not complete (meta status) is said at the top of
 * the page, as make compare says it; a complete one is not.
 */
START_TEST(suite_status)
{
	char path[512], *page;

	tu_copy_tree(EX "/example-a", tu_path(path, sizeof(path),
	    "example-a"));
	tu_fixture_copy(EX "/example-b", tu_path(path, sizeof(path),
	    "example-b"), "inc2");
	tu_meta_set(path, "status", "interrupted");
	ck_assert_int_eq(sh("report/vmreport --html \"$T/h\" \"$T/example-a\" "
	    "\"$T/example-b\" > \"$T/out\" 2> \"$T/err\" && "
	    "report/vmreport --html \"$T/h2\" \"$T/example-a\" " EX
	    "/example-c > \"$T/out\" 2> \"$T/err\" && report/vmreport "
	    "\"$T/example-a\" \"$T/example-b\" | grep -qx '! inc2: suite "
	    "run interrupted'"), 0);
	page = tu_slurp_ok("%s/h/index.html", tu_dir);
	tu_assert_has(page, ">! inc2: suite run interrupted<");
	free(page);
	page = tu_slurp_ok("%s/h2/index.html", tu_dir);
	tu_assert_lacks(page, "suite run");
	free(page);
}
END_TEST

/*
 * An error bar whose interval reaches below zero stops at the chart's
 * axis: aa-1's runs of forkbomb (the interval of 3 run means, runs as
 * the unit) reach below zero.
 */
START_TEST(err_clipped)
{
	char *page, *p, *svg, *end;
	double axis, a, b;
	int bars = 0;

	ck_assert_int_eq(sh("report/vmreport --html \"$T/h\" " EX "/aa-1 "
	    EX "/aa-2 > \"$T/out\""), 0);
	page = tu_slurp_ok("%s/h/index.html", tu_dir);
	ck_assert_ptr_nonnull(page);
	svg = strstr(page, "<svg class=\"chart\"");
	ck_assert_ptr_nonnull(svg);
	for (; svg; svg = strstr(end, "<svg class=\"chart\"")) {
		end = strstr(svg, "</svg>");
		ck_assert_ptr_nonnull(end);
		p = strstr(svg, "<line x1=\"");
		ck_assert_ptr_nonnull(p);
		axis = strtod(p + strlen("<line x1=\""), NULL);
		/* every mean here is positive: no error bar left of 0 */
		for (p = svg; (p = strstr(p, "class=\"err\" x1=\"")) &&
		    p < end; p++) {
			a = strtod(p + strlen("class=\"err\" x1=\""), &p);
			ck_assert(!strncmp(p, "\" x2=\"", 6));
			b = strtod(p + 6, NULL);
			ck_assert_msg(a >= axis && b >= axis, "an error bar "
			    "%.1f-%.1f left of the axis at %.1f", a, b, axis);
			bars++;
		}
	}
	ck_assert_int_gt(bars, 0);
	/* forkbomb's interval does go below zero */
	ck_assert_msg(strstr(page, "aa-1: 1652.51 forks/s, 95% CI [-") &&
	    strstr(page, "], 3 runs</title>"), "%s", strstr(page, "<svg"));
	free(page);
}
END_TEST

/*
 * The HTML folder: created (with its parents); an earlier page
 * replaced; a folder with other things in it, a file, a folder that
 * cannot be made or one inside a result folder refused in one line,
 * exit 1, nothing written.
 */
START_TEST(bad_dirs)
{
	static const struct {
		const char *dir, *want;
	} bad[] = {
		{ "$T/other", "exists and is not an HTML page of vmreport" },
		{ "$T/file", "exists and is not a folder" },
		{ "$T/file/sub", "/file: exists and is not a folder" },
		{ "$T/ex/html", "is inside a result folder" },
		{ "$T/ex", "is inside a result folder" },
	};
	char *err, *keep;
	size_t i;

	ck_assert_int_eq(sh("cp -r " EX "/example-a \"$T/ex\" && "
	    "mkdir \"$T/other\" && echo mine > \"$T/other/index.html\" && "
	    "echo mine > \"$T/file\""), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(sh("report/vmreport --html \"%s\" \"$T/ex\" "
		    "> \"$T/out\" 2> \"$T/err\"", bad[i].dir), 1);
		err = tu_slurp_ok("%s/err", tu_dir);
		ck_assert_msg(strstr(err, bad[i].want) && strchr(err, '\n') ==
		    err + strlen(err) - 1, "%s: stderr '%s'", bad[i].dir, err);
		free(err);
	}
	keep = tu_slurp_ok("%s/other/index.html", tu_dir);
	ck_assert_str_eq(keep, "mine\n");
	free(keep);
	ck_assert_int_eq(sh("test ! -e \"$T/ex/html\" && test ! -e "
	    "\"$T/ex/index.html\" && test \"$(ls \"$T/other\")\" = "
	    "index.html"), 0);
	/* new, with its parents; then the same folder again */
	ck_assert_int_eq(sh("report/vmreport --html \"$T/a/b/html\" \"$T/ex\" "
	    "> \"$T/out\" 2> \"$T/err\" && report/vmreport --html "
	    "\"$T/a/b/html\" \"$T/ex\" \"$T/ex\" > \"$T/out\" 2> \"$T/err\" && "
	    "grep -q '2 kernels' \"$T/a/b/html/index.html\" && "
	    "test ! -s \"$T/err\""), 0);
}
END_TEST

/*
 * A run stopped between writing index.html.tmp and renaming it leaves
 * only the .tmp: the next run accepts it (vmreport's, or empty) and
 * replaces it; an index.html.tmp that is not vmreport's is refused and
 * kept, even beside vmreport's index.html.
 */
START_TEST(leftover_tmp)
{
	char *err, *keep;

	ck_assert_int_eq(sh("cp -r " EX "/example-a \"$T/ex\" && "
	    "report/vmreport --html \"$T/h\" \"$T/ex\" > \"$T/out\" && "
	    "mkdir \"$T/left\" \"$T/empty\" \"$T/foreign\" && "
	    "cp \"$T/h/index.html\" \"$T/left/index.html.tmp\" && "
	    ": > \"$T/empty/index.html.tmp\" && "
	    "cp \"$T/h/index.html\" \"$T/foreign/index.html\" && "
	    "echo mine > \"$T/foreign/index.html.tmp\""), 0);
	ck_assert_int_eq(sh("for d in left empty; do report/vmreport --html "
	    "\"$T/$d\" \"$T/ex\" \"$T/ex\" > \"$T/out\" 2> \"$T/err\" && "
	    "test ! -s \"$T/err\" && test \"$(ls \"$T/$d\")\" = index.html "
	    "&& grep -q '2 kernels' \"$T/$d/index.html\" || exit 1; done"),
	    0);
	ck_assert_int_eq(sh("report/vmreport --html \"$T/foreign\" \"$T/ex\" "
	    "> \"$T/out\" 2> \"$T/err\""), 1);
	err = tu_slurp_ok("%s/err", tu_dir);
	ck_assert_msg(strstr(err, "index.html.tmp is not vmreport's") &&
	    strchr(err, '\n') == err + strlen(err) - 1, "stderr '%s'", err);
	free(err);
	keep = tu_slurp_ok("%s/foreign/index.html.tmp", tu_dir);
	ck_assert_str_eq(keep, "mine\n");
	free(keep);
}
END_TEST

/* 50 folders: rendered under 2 s, and checked in headless Chromium. */
START_TEST(browser)
{
	int rc = sh("sh tests/html-browser.sh 50 >\"$T/out\" 2>&1");
	char *out = tu_slurp_ok("%s/out", tu_dir);

	if (rc == 77) {
		/* the rendering's time was checked; the browser cannot be */
		free(out);
		tu_skip("no chromium (apt-get install chromium)");
		return;
	}
	ck_assert_msg(rc == 0, "tests/html-browser.sh failed:\n%s", out);
	free(out);
}
END_TEST

/* Does a file match the glob pattern T/@pat? */
static int
exists_in_t(const char *pat)
{
	char p[1024];
	glob_t g;
	int n;

	snprintf(p, sizeof(p), "%s/%s", tu_dir, pat);
	n = glob(p, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	if (n)
		globfree(&g);
	return n;
}

/*
 * Ctrl-C (SIGINT to the process group, as a terminal sends it) while
 * the browser is open: the script stops, exit 130, no error printed,
 * the browser killed (none of its processes outlives the script), and
 * its temporary folder and the browser's files are gone.
 */
START_TEST(browser_interrupt)
{
	struct timespec ms100 = { 0, 100000000 };
	char tmp[512], out[512], *text;
	pid_t pid;
	int st = 0, done = 0, left;

	snprintf(tmp, sizeof(tmp), "%s/tmp", tu_dir);
	snprintf(out, sizeof(out), "%s/out", tu_dir);
	ck_assert_int_eq(mkdir(tmp, 0777), 0);
	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		setsid();
		signal(SIGINT, SIG_DFL);
		dup2(fd, 1);
		dup2(fd, 2);
		setenv("TMPDIR", tmp, 1);
		execlp("sh", "sh", "tests/html-browser.sh", "3", (char *)NULL);
		_exit(127);
	}
	/*
	 * until the page is open in the browser, then until the
	 * browser itself runs (it has made its profile folder): however
	 * long that takes, the suite's timeout the only bound
	 */
	while (!done && !exists_in_t("tmp/vmbench-html.*/browser.log")) {
		nanosleep(&ms100, NULL);
		done = waitpid(pid, &st, WNOHANG) == pid;
	}
	if (done && WIFEXITED(st) && WEXITSTATUS(st) == 77) {
		tu_skip("no chromium (apt-get install chromium)");
		return;
	}
	ck_assert_msg(!done, "html-browser.sh ended before the browser");
	while (!done && !exists_in_t("tmp/vmbench-html.*/profile")) {
		nanosleep(&ms100, NULL);
		done = waitpid(pid, &st, WNOHANG) == pid;
	}
	ck_assert_msg(!done, "html-browser.sh ended before the browser ran");
	ck_assert_int_eq(kill(-pid, SIGINT), 0);
	/*
	 * its end, however slow the machine (the suite's timeout the
	 * bound); the browser killed, not awaited: none of its processes
	 * (their command lines name the temporary folder) outlives it
	 */
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	/* [v]: the pattern does not match the shell that runs pgrep */
	left = tu_sh_in(NULL, "pgrep -f '%s/[v]mbench-html' >/dev/null", tmp);
	text = tu_slurp_ok("%s/out", tu_dir);
	ck_assert_msg(left != 0, "the browser outlived html-browser.sh:\n%s",
	    text);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 130,
	    "html-browser.sh: status %#x after SIGINT, not exit 130:\n%s", st,
	    text);
	ck_assert_msg(!strstr(text, "grep") && !strstr(text, "No such file"),
	    "html-browser.sh went on after SIGINT:\n%s", text);
	ck_assert_msg(!exists_in_t("tmp/*"), "html-browser.sh left files "
	    "in its TMPDIR");
	free(text);
}
END_TEST

Suite *
html_suite(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tu_tcase_local("html");
	TCase *br = tu_tcase_slow("browser");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, escape);
	tcase_add_test(tc, escaped_page);
	tcase_add_test(tc, quiet_once);
	tcase_add_test(tc, same_figures);
	tcase_add_test(tc, verdict_words);
	tcase_add_test(tc, suite_status);
	tcase_add_test(tc, err_clipped);
	tcase_add_test(tc, bad_dirs);
	tcase_add_test(tc, leftover_tmp);
	tcase_add_test(tc, best_changed);
	tcase_add_test(tc, pre_wraps);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	tcase_add_unchecked_fixture(br, tu_mktmp, tu_rmtmp);
	tcase_add_test(br, browser);
	tcase_add_test(br, browser_interrupt);
	tcase_set_timeout(br, 300);
	suite_add_tcase(s, br);
	return s;
}
