/*
 * End-to-end tests of report/vmreport (built by `make`): the golden
 * outputs of every view on the checked-in example folders
 * (tests/golden/cases; regenerate with `sh tests/golden/regen.sh`), the
 * chart step (valid PNG and SVG files, and the one-line message when
 * gnuplot is missing), the regression gate, and each kind of bad input.
 * Fixtures are copies of results/examples/ in a temporary folder,
 * changed with sed; the example folders themselves are never written
 * (checked).
 */
#include <check.h>
#include <dirent.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define EX "results/examples"
#define VMREPORT "report/vmreport"

/*
 * Each test works in its own folder under one base folder that the
 * (unchecked) fixture makes before the tests fork and removes after
 * them, so a failing test leaves nothing behind.
 */
static char base[100];
static char tmp[128];

static void
make_base(void)
{
	tu_mkdtemp(base, sizeof(base), "vmreport");
}

static void
remove_base(void)
{
	tu_rmtree(base);
}

static void
mktmp(void)
{
	snprintf(tmp, sizeof(tmp), "%s/t.XXXXXX", base);
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void
rmtmp(void)
{
	ck_assert_int_eq(tu_rmtree(tmp), 0);
}

/* A shell command, T set to the test's folder: tests/testutil.h. */
#define sh(...)	tu_sh_in(tmp, __VA_ARGS__)

/* T/@rel into @buf, of 256 bytes. */
static char *
at(char *buf, const char *rel)
{
	int n = snprintf(buf, 256, "%s/%s", tmp, rel);

	ck_assert_msg(n > 0 && n < 256, "path too long: %s/%s", tmp, rel);
	return buf;
}

/*
 * Copy result folder @src to T/@rel, and give it make ab's unit
 * (unit=run-per-iteration: its iterations are runs).
 */
static void
copy_ab(const char *src, const char *rel)
{
	char p[256];

	tu_copy_tree(src, at(p, rel));
	tu_meta_set(p, "unit", "run-per-iteration");
}

/* vmreport ARGS > T/out 2> T/err; returns the exit status. */
static int
report(const char *args)
{
	return sh("%s %s >\"$T/out\" 2>\"$T/err\"", VMREPORT, args);
}

/*
 * vmreport ARGS, which must exit 0: its output (malloc'd), as
 * tu_view() reads it; its errors stay in T/err.
 */
static char *
view(const char *args)
{
	return tu_view(tmp, "%s", args);
}

static char *
out_text(const char *which)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmp, which);
	return tu_slurp(path);
}

/* stderr is exactly one line containing @want. */
static void
one_line_error(const char *args, int status, const char *want)
{
	char *err;
	int rc = report(args);

	err = out_text("err");
	ck_assert_msg(rc == status, "%s: exit %d, want %d (stderr: %s)", args,
	    rc, status, err);
	ck_assert_msg(strstr(err, want), "%s: stderr '%s' lacks '%s'", args,
	    err, want);
	ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1,
	    "%s: not one line: '%s'", args, err);
	free(err);
}

START_TEST(golden)
{
	FILE *f = fopen("tests/golden/cases", "r");
	char line[1024], args[2048], path[1100], *name, *rest, *got, *want;
	int cases = 0;

	ck_assert_ptr_nonnull(f);
	mktmp();
	while (fgets(line, sizeof(line), f)) {
		char *p, *q;
		size_t used = 0;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		name = line;
		rest = line + strcspn(line, " ");
		*rest++ = '\0';
		/* E/ stands for results/examples/ */
		for (p = rest; *p; p = q) {
			q = strstr(p, "E/");
			if (!q) {
				used += (size_t)snprintf(args + used,
				    sizeof(args) - used, "%s", p);
				break;
			}
			used += (size_t)snprintf(args + used,
			    sizeof(args) - used, "%.*s" EX "/", (int)(q - p),
			    p);
			q += 2;
		}
		ck_assert_msg(report(args) == 0, "%s: vmreport failed", name);
		got = out_text("out");
		snprintf(path, sizeof(path), "tests/golden/%s.out", name);
		want = tu_slurp(path);
		ck_assert_msg(want != NULL, "%s missing (sh tests/golden/"
		    "regen.sh)", path);
		if (strcmp(got, want) != 0) {
			int ln = 1;
			size_t i;

			size_t b = 0;

			for (i = 0; got[i] && got[i] == want[i]; i++)
				if (got[i] == '\n') {
					ln++;
					b = i + 1;
				}
			ck_abort_msg("%s: output differs from %s at line %d:"
			    "\n got: %.*s\nwant: %.*s", name, path, ln,
			    (int)strcspn(got + b, "\n"), got + b,
			    (int)strcspn(want + b, "\n"), want + b);
		}
		free(got);
		free(want);
		cases++;
	}
	fclose(f);
	ck_assert_int_ge(cases, 10);
	rmtmp();
}
END_TEST

/* Every line of every text view fits 80 columns. */
START_TEST(width)
{
	static const char *const views[] = { "", "--post", "--summary",
		"--detail" };
	char args[512], *out, *p;
	size_t i;

	mktmp();
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		snprintf(args, sizeof(args), "%s " EX "/example-a "
		    EX "/example-b " EX "/example-c " EX "/example-d "
		    EX "/example-e", views[i]);
		out = view(args);
		for (p = out; *p; ) {
			size_t n = strcspn(p, "\n");

			ck_assert_msg(n <= 80, "'%s': line of %zu columns: "
			    "%.*s", views[i], n, (int)n, p);
			ck_assert_msg(n == 0 || p[n - 1] != ' ',
			    "trailing blank: %.*s", (int)n, p);
			p += n + (p[n] == '\n');
		}
		free(out);
	}
	rmtmp();
}
END_TEST

START_TEST(bad_folders)
{
	char args[512];

	mktmp();
	snprintf(args, sizeof(args), "%s/none", tmp);
	one_line_error(args, 1, "none: no such result folder");
	ck_assert_int_eq(sh("mkdir \"$T/empty\""), 0);
	snprintf(args, sizeof(args), EX "/example-a %s/empty", tmp);
	one_line_error(args, 1, "empty: empty folder");
	ck_assert_int_eq(sh("mkdir \"$T/notres\" && echo hi > "
	    "\"$T/notres/notes.txt\""), 0);
	snprintf(args, sizeof(args), "%s/notres", tmp);
	one_line_error(args, 1, "notres: not a result folder");
	snprintf(args, sizeof(args), "%s/notres/notes.txt", tmp);
	one_line_error(args, 1, "notes.txt: not a folder");
	one_line_error("", 2, "no result folder given");
	one_line_error("--format xml " EX "/example-a", 2,
	    "vmreport: --format: unknown value 'xml' (choose text|csv|json)");
	rmtmp();
}
END_TEST

/*
 * Bad usage is one line, as in every other program, never the whole
 * usage text; an --only that names nothing and a number strtod() would
 * read as hex are refused, not taken.
 */
START_TEST(bad_options)
{
	mktmp();
	one_line_error("--bogus " EX "/example-a", 2,
	    "vmreport: unknown option '--bogus' (see --help)");
	one_line_error("-x " EX "/example-a", 2,
	    "vmreport: unknown option '-x' (see --help)");
	one_line_error(EX "/example-a --only", 2,
	    "vmreport: --only needs a value (LIST)");
	/* whole names only, as every program on lib/opt */
	one_line_error("--det " EX "/example-a", 2,
	    "vmreport: unknown option '--det' (see --help)");
	one_line_error("--detail=1 " EX "/example-a", 2,
	    "vmreport: --detail takes no value");
	one_line_error("--format xml " EX "/example-a", 2,
	    "vmreport: --format: unknown value 'xml' (choose text|csv|json)");
	one_line_error("--only '' " EX "/example-a", 2,
	    "vmreport: --only: no benchmark named");
	one_line_error("--only , " EX "/example-a", 2,
	    "vmreport: --only: no benchmark named");
	one_line_error("--noisy 0x10 " EX "/example-a", 2,
	    "--noisy: bad number '0x10': expected a decimal number");
	one_line_error("--width 0x50 " EX "/example-a", 2,
	    "--width: bad number '0x50': expected a decimal number");
	ck_assert_int_eq(report("--noisy 1e1 --width 8e1 --summary "
	    EX "/example-a"), 0);
	rmtmp();
}
END_TEST

/*
 * --vmstat BENCH reads BENCH.vmstat of each folder: only a benchmark
 * the folders hold, never a name that leads out of them.
 */
START_TEST(vmstat_name_checked)
{
	static const char *const up[] = { "r", "r/a", "r/a/b", "r/a/b/c" };
	char args[512], p[256], *out;
	size_t i;

	mktmp();
	/* T/r/x.vmstat: ../../../../x from the folder T/r/a/b/c/example-a */
	for (i = 0; i < sizeof(up) / sizeof(up[0]); i++)
		ck_assert_int_eq(mkdir(at(p, up[i]), 0755), 0);
	tu_copy_tree(EX "/example-a", at(p, "r/a/b/c/example-a"));
	tu_copy_file(EX "/example-a/forkbomb.vmstat", at(p, "r/x.vmstat"));
	snprintf(args, sizeof(args), "--vmstat ../../../../x "
	    "%s/r/a/b/c/example-a", tmp);
	one_line_error(args, 1, "--vmstat: no benchmark '../../../../x' in "
	    "the folders given");
	out = out_text("out");
	ck_assert_str_eq(out, "");
	free(out);
	snprintf(args, sizeof(args), "--vmstat nosuch %s/r/a/b/c/example-a",
	    tmp);
	one_line_error(args, 1, "--vmstat: no benchmark 'nosuch'");
	/* a benchmark of the folder: its dump */
	snprintf(args, sizeof(args), "--vmstat forkbomb --iter 1 "
	    "%s/r/a/b/c/example-a", tmp);
	out = view(args);
	tu_assert_has(out, "example-a: forkbomb, iteration 1");
	free(out);
	rmtmp();
}
END_TEST

START_TEST(corrupt_res)
{
	char args[512];

	mktmp();
	ck_assert_int_eq(sh("cp -r " EX "/example-b \"$T/b\" && sed -i "
	    "'s/^iter 2 [^ ]*/iter 2 x1.5/' \"$T/b/forkbomb.res\""), 0);
	snprintf(args, sizeof(args), EX "/example-a %s/b", tmp);
	one_line_error(args, 1, "b/forkbomb.res:");
	one_line_error(args, 1, "bad value 'x1.5' for metric 'elapsed'");
	/* truncated: no 'end' */
	ck_assert_int_eq(sh("cp -r " EX "/example-b \"$T/c\" && sed -i "
	    "'/^end$/d' \"$T/c/memfill.res\""), 0);
	snprintf(args, sizeof(args), EX "/example-a %s/c", tmp);
	one_line_error(args, 1, "c/memfill.res:");
	rmtmp();
}
END_TEST

START_TEST(missing_benchmark_and_single)
{
	char args[512], p[256], *out;

	mktmp();
	tu_copy_tree(EX "/example-b", at(p, "b"));
	ck_assert_int_eq(unlink(at(p, "b/memfill.res")), 0);
	snprintf(args, sizeof(args), EX "/example-a %s/b", tmp);
	out = view(args);
	tu_assert_has(out, "example-b: no memfill results "
	    "(missing)");
	tu_assert_has(out, "missing");
	free(out);
	/* the baseline lacks it: still shown, as missing */
	snprintf(args, sizeof(args), "%s/b " EX "/example-a", tmp);
	out = view(args);
	tu_assert_has(out, "== memfill ==");
	free(out);
	/* one folder: statistics, no comparison */
	out = view("--detail " EX "/example-a");
	tu_assert_has(out, "95% CI low");
	tu_assert_has(out, "1 kernel, baseline example-a");
	free(out);
	rmtmp();
}
END_TEST

START_TEST(different_params)
{
	struct vb_res r;
	char args[512], p[256], *out, *err;

	mktmp();
	tu_copy_tree(EX "/example-b", at(p, "b"));
	tu_res_load(EX "/example-b/forkbomb.res", &r);
	ck_assert_str_eq(vb_res_param(&r, "forks"), "3000");
	tu_res_set_param(&r, "forks", "4000");
	tu_res_store(at(p, "b/forkbomb.res"), &r);
	snprintf(args, sizeof(args), EX "/example-a %s/b", tmp);
	ck_assert_int_eq(report(args), 1);
	err = out_text("err");
	tu_assert_has(err, "forkbomb: parameter forks is "
	    "3000 in example-a but 4000 in example-b");
	tu_assert_has(err, "--allow-different-params");
	free(err);
	snprintf(args, sizeof(args), "--allow-different-params "
	    EX "/example-a %s/b", tmp);
	out = view(args);
	tu_assert_has(out, "parameters differ");
	free(out);
	rmtmp();
}
END_TEST

START_TEST(interrupted)
{
	struct vb_res r;
	char args[512], p[256], *out;

	mktmp();
	/* what a Ctrl-C leaves: status interrupted, the whole iterations */
	tu_copy_tree(EX "/example-b", at(p, "b"));
	tu_meta_set(p, "status", "interrupted");
	tu_res_load(EX "/example-b/forkbomb.res", &r);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_int_eq(r.niter, 3);
	snprintf(r.status, sizeof(r.status), "interrupted");
	r.niter = 2;
	tu_res_store(at(p, "b/forkbomb.res"), &r);
	snprintf(args, sizeof(args), EX "/example-a %s/b", tmp);
	out = view(args);
	tu_assert_has(out, "example-b!");
	tu_assert_has(out, "! example-b: run interrupted, 2 "
	    "iterations kept");
	tu_assert_has(out, "! example-b: suite run "
	    "interrupted");
	free(out);
	snprintf(args, sizeof(args), "--post " EX "/example-a %s/b", tmp);
	out = view(args);
	tu_assert_has(out, "[interrupted]");
	free(out);
	rmtmp();
}
END_TEST

START_TEST(regression_gate)
{
	struct vb_res r;
	char args[512], p[256], *err;

	mktmp();
	/* halve every forks_per_s of b */
	/*
	 * Folders of make ab's (unit=run-per-iteration): their iterations
	 * are runs, so the runs are the unit and a change can be starred.
	 */
	copy_ab(EX "/example-a", "a");
	copy_ab(EX "/example-a", "b");
	tu_res_load(EX "/example-a/forkbomb.res", &r);
	tu_res_scale(&r, "forks_per_s", 0.5);
	tu_res_store(at(p, "b/forkbomb.res"), &r);
	tu_meta_set(at(p, "b"), "label", "halved");
	snprintf(args, sizeof(args), "--fail-on-regression 10 "
	    "%s/a %s/b", tmp, tmp);
	ck_assert_int_eq(report(args), 3);
	err = out_text("err");
	tu_assert_has(err, "regression: halved forkbomb "
	    "forks_per_s: -50.00%");
	tu_assert_lacks(err, "us_per_fork");
	free(err);
	/* a threshold above the change: passes */
	snprintf(args, sizeof(args), "--fail-on-regression 60 "
	    "%s/a %s/b", tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	/* the same folder twice: nothing significant */
	snprintf(args, sizeof(args), "--fail-on-regression 0 %s/a %s/a", tmp,
	    tmp);
	ck_assert_int_eq(report(args), 0);
	/*
	 * One run a side: no figure can be tested, so the gate cannot
	 * pass anything: one line, exit 1 (it exited 0, a pass).
	 */
	one_line_error("--fail-on-regression 0 " EX "/example-a "
	    EX "/example-a", 1, "vmreport: --fail-on-regression: no figure "
	    "could be tested (one run a side, other work, only info "
	    "figures): nothing to gate (exit 1)");
	/*
	 * A baseline of 0 (us_per_fork, the last column, in every run of
	 * the copy): the change has no percentage but counts as large.
	 */
	copy_ab(EX "/example-a", "z");
	tu_res_load(EX "/example-a/forkbomb.res", &r);
	tu_res_set(&r, "us_per_fork", 0);
	tu_res_store(at(p, "z/forkbomb.res"), &r);
	copy_ab(EX "/example-b", "eb");
	/* not a headline: --detail's family, at the full alpha */
	snprintf(args, sizeof(args), "--detail --fail-on-regression 5 "
	    "--only forkbomb %s/z %s/eb", tmp, tmp);
	ck_assert_int_eq(report(args), 3);
	err = out_text("err");
	ck_assert_msg(strstr(err, "regression: example-b forkbomb "
	    "us_per_fork: from 0 to "), "%s", err);
	free(err);
	rmtmp();
}
END_TEST

/*
 * The post carries the second tier's stars the default view prints
 * under a benchmark's table (the THP pair: memfill's minflt and
 * thp_fault_alloc), the same line from the same verdicts.
 */
START_TEST(post_also_changed)
{
	static const char *const want = "also changed: minflt +99.2%*, "
	    "thp_fault_alloc 0 -> 591.6*\n";
	char *out, *p;

	mktmp();
	out = view(EX "/example-thp-A " EX "/example-thp-B");
	ck_assert_msg(strstr(out, want), "the text view:\n%s", out);
	free(out);
	out = view("--post " EX "/example-thp-A "
	    EX "/example-thp-B");
	p = strstr(out, "\nmemfill\n");
	ck_assert_msg(p && strstr(p, want), "the post:\n%s", out);
	free(out);
	rmtmp();
}
END_TEST

/*
 * A machine-wide key figure (pswpout) whose cgroup counterpart the
 * runs recorded (cg_pswpout, MEM=): the default view's table and the
 * post's show the cgroup's and leave the machine's to --detail (and to
 * "also changed").
 */
START_TEST(own_counter_key)
{
	struct vb_res r;
	char args[512], p[256], src[64], *out, *tab, *end;
	int k;

	mktmp();
	/* ab-A's and ab-B's memfill, with a cgroup pswpout of 900 kB */
	for (k = 0; k < 2; k++) {
		snprintf(src, sizeof(src), "%c", "AB"[k]);
		ck_assert_int_eq(mkdir(at(p, src), 0755), 0);
		snprintf(src, sizeof(src), "tests/fixtures/ab-%c/meta",
		    "AB"[k]);
		tu_copy_file(src, strcat(p, "/meta"));
		snprintf(src, sizeof(src), "tests/fixtures/ab-%c/memfill.res",
		    "AB"[k]);
		tu_res_load(src, &r);
		tu_res_add_col(&r, "cg_pswpout", "kB", VB_LOWER, 900);
		snprintf(src, sizeof(src), "%c/memfill.res", "AB"[k]);
		tu_res_store(at(p, src), &r);
	}
	snprintf(args, sizeof(args), "%s/A %s/B", tmp, tmp);
	out = view(args);
	ck_assert_ptr_nonnull(tab = strstr(out, "== memfill =="));
	ck_assert_ptr_nonnull(end = strstr(tab, "verdict "));
	*end = '\0';
	ck_assert_msg(strstr(tab, "\ncg_pswpout") &&
	    !strstr(tab, "\npswpout"), "the table:\n%s", tab);
	free(out);
	snprintf(args, sizeof(args), "--detail %s/A %s/B", tmp, tmp);
	out = view(args);
	ck_assert_msg(strstr(out, "\npswpout"), "--detail:\n%s", out);
	free(out);
	/* the post's short table: the cgroup's in place of the machine's */
	snprintf(args, sizeof(args), "--post %s/A %s/B", tmp, tmp);
	out = view(args);
	ck_assert_ptr_nonnull(tab = strstr(out, "\nfill_s "));
	ck_assert_ptr_nonnull(end = strstr(tab, "verdict "));
	*end = '\0';
	ck_assert_msg(strstr(tab, "\ncg_pswpout") &&
	    !strstr(tab, "\npswpout"), "the post's table:\n%s", tab);
	free(out);
	rmtmp();
}
END_TEST

/*
 * A machine-wide counter that other processes moved is said so under
 * the table that shows it: make ab's fixture pair ran quiet, and its
 * cgroup counted fewer faults (cg_pgfault 65601) than the machine
 * (pgfault 90000): --detail names pgfault, not pswpout (quiet, no
 * cgroup counterpart); the default view shows neither's note.
 */
START_TEST(system_moved_note)
{
	static const char *const want = "\n[system] counters other "
	    "processes moved too: pgfault\n";
	char *out;

	mktmp();
	out = view("--detail --only memfill tests/fixtures/ab-A "
	    "tests/fixtures/ab-B");
	ck_assert_msg(strstr(out, want), "--detail:\n%s", out);
	free(out);
	out = view("--only memfill tests/fixtures/ab-A "
	    "tests/fixtures/ab-B");
	ck_assert_msg(!strstr(out, "moved too"), "the default view:\n%s",
	    out);
	free(out);
	out = view("--only makesim@cacherun " EX "/example-a "
	    EX "/example-b");
	ck_assert_msg(strstr(out, "\n[system] counters other processes "
	    "moved too: pswpin (example-b), pswpout\n    (example-b)\n"),
	    "a loaded pair:\n%s", out);
	free(out);
	rmtmp();
}
END_TEST

/*
 * A benchmark's bar chart draws runs as the unit, as the verdict: two
 * labels of 3 runs of 3 iterations (aa-1, aa-2) give bars of 3 runs
 * each, not 9 iterations, with the interval of the run means.
 */
START_TEST(bars_of_runs)
{
	char args[512], *out;

	mktmp();
	snprintf(args, sizeof(args), "--only memfill --plot %s/ch " EX
	    "/aa-1 " EX "/aa-2", tmp);
	ck_assert_int_eq(report(args), 0);
	out = out_text("ch/memfill-fill_s.dat");
	ck_assert_msg(out && strstr(out, "\n0 \"aa-1 (3 runs)\" ") &&
	    strstr(out, "\n1 \"aa-2 (3 runs)\" ") && !strstr(out, "n=9"),
	    "%s", out);
	free(out);
	out = out_text("ch/memfill-fill_s.gp");
	ck_assert_msg(out && strstr(out, "95% CI of the run means"), "%s",
	    out);
	free(out);
	rmtmp();
}
END_TEST

/*
 * The forms' tables cut long labels as the report's own tables do:
 * tworead's n-by-kernel header (11 columns a kernel) keeps both ends of
 * labels that differ only in their last character, so they differ.
 */
START_TEST(form_labels)
{
	char args[512], p[256], *out;

	mktmp();
	tu_fixture_copy(EX "/example-a", at(p, "a"),
	    "6.1.0-57-cloud-amd64-a");
	tu_fixture_copy(EX "/example-b", at(p, "b"),
	    "6.1.0-57-cloud-amd64-b");
	snprintf(args, sizeof(args), "--only tworead %s/a %s/b", tmp, tmp);
	out = view(args);
	ck_assert_msg(strstr(out, "\n n       6.1.0..64-a 6.1.0..64-b\n"),
	    "%s", out);
	free(out);
	rmtmp();
}
END_TEST

/*
 * A side that ran in an emulated guest (make boots under TCG: meta
 * accel=tcg): every view says so once, whichever side it is; the
 * charts' titles and the page too.  Neither side emulated: no view.
 */
START_TEST(accel_tcg)
{
	static const char *const views[] = { "", "--detail", "--post",
		"--summary", "--vmstat forkbomb" };
	static const char *const tcg = "emulated (TCG): compare only with "
	    "other TCG runs";
	static const char *const files[] = { "meta", "forkbomb.res",
		"forkbomb.vmstat" };
	char args[512], src[64], path[256], *out, *p;
	size_t i;
	int n;

	mktmp();
	for (i = 0; i < 2; i++)
		for (n = 0; n < 3; n++) {
			snprintf(args, sizeof(args), EX "/example-%c/%s",
			    "ab"[i], files[n]);
			snprintf(src, sizeof(src), "%c", "ab"[i]);
			mkdir(at(path, src), 0755);
			snprintf(src, sizeof(src), "%c/%s", "ab"[i], files[n]);
			tu_copy_file(args, at(path, src));
		}
	tu_meta_set(at(path, "b"), "accel", "tcg");
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		snprintf(args, sizeof(args), "%s %s/a %s/b", views[i], tmp,
		    tmp);
		out = view(args);
		for (n = 0, p = out; (p = strstr(p, tcg)); p++)
			n++;
		ck_assert_msg(n == 1, "vmreport %s: \"%s\" %d times:\n%s",
		    views[i], tcg, n, out);
		free(out);
		/* the baseline emulated: the same */
		snprintf(args, sizeof(args), "%s %s/b %s/a", views[i], tmp,
		    tmp);
		out = view(args);
		ck_assert_msg(strstr(out, tcg), "vmreport %s b a:\n%s",
		    views[i], out);
		free(out);
	}
	snprintf(args, sizeof(args), "--html %s/h %s/a %s/b", tmp, tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	ck_assert_int_eq(sh("grep -c 'id=\"accel-warning\">warning: %s' "
	    "\"$T/h/index.html\" > \"$T/n\"", tcg), 0);
	out = out_text("n");
	ck_assert_msg(!strcmp(out, "1\n"), "the page: %s", out);
	free(out);
	snprintf(args, sizeof(args), "--plot %s/ch %s/a %s/b", tmp, tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	n = sh("for g in summary forkbomb-forks_per_s forkbomb-vmstat-free; "
	    "do grep -q '%s' \"$T/ch/$g.gp\" || { echo $g; exit 1; }; "
	    "done > \"$T/out\"", tcg);
	out = out_text("out");
	ck_assert_msg(n == 0, "no \"%s\" in the chart %s", tcg, out);
	free(out);
	/* no accel=tcg: nothing said */
	tu_meta_set(at(path, "b"), "accel", NULL);
	snprintf(args, sizeof(args), "--post %s/a %s/b", tmp, tmp);
	out = view(args);
	ck_assert_msg(!strstr(out, "TCG"), "%s", out);
	free(out);
	rmtmp();
}
END_TEST

/*
 * Labels longer than their column (a kernel's version, then what
 * differs): each header cell keeps a space before it, the label's
 * start and its end (where such labels differ), ".." between.
 */
START_TEST(long_labels)
{
	char args[512], p[256], *out;

	mktmp();
	tu_fixture_copy(EX "/example-a", at(p, "never"),
	    "6.1.0-57-cloud-amd64-transparent_hugepage-never");
	tu_fixture_copy(EX "/example-a", at(p, "always"),
	    "6.1.0-57-cloud-amd64-transparent_hugepage-always");
	snprintf(args, sizeof(args), "--only forkbomb %s/never %s/always",
	    tmp, tmp);
	out = view(args);
	ck_assert_msg(strstr(out, "== forkbomb ==      6.1.0-57-c..age-never "
	    "6.1.0-57-..ge-always\n"), "%s", out);
	free(out);
	rmtmp();
}
END_TEST

/*
 * The probe's line, from a real probe@memfill.res (tests/fixtures/: a
 * probe run beside memfill and stopped with SIGTERM, hence interrupted):
 * played_s 720.15 of total_s 728.5 (printed %.0f: 728, half to even).
 */
START_TEST(probe_line)
{
	char args[512], p[256], *out;

	mktmp();
	tu_copy_tree(EX "/example-a", at(p, "a"));
	tu_copy_files("tests/fixtures", p, "probe@memfill.res", NULL);
	snprintf(args, sizeof(args), "--post %s/a " EX "/example-b", tmp);
	out = view(args);
	tu_assert_has(out, "example-a  played 720 of 728 "
	    "seconds (99%)");
	/* shown with memfill, not as a test of its own */
	tu_assert_lacks(out, "\nprobe@memfill\n");
	free(out);
	rmtmp();
}
END_TEST

/*
 * Derived vmstat figures from known deltas: every iteration of b's
 * forkbomb gets pgscan_kswapd 1000, pgsteal_kswapd 800, pgscan_direct
 * 250, pgsteal_direct 100, elapsed 2.5 s, pswpin 40, pswpout 4000 kB.
 * By hand: kswapd efficiency 800/1000 = 80.00%, direct 100/250 =
 * 40.00%, scan rate 3 x 1250 / 7.5 s = 500 pages/s, direct share
 * 250/1250 = 20.00%, swap-in 40 and swap-out 4000 kB a run.
 */
START_TEST(derived_vmstat)
{
	static const struct { const char *name; double v; } set[] = {
		{ "pgscan_kswapd", 1000 }, { "pgsteal_kswapd", 800 },
		{ "pgscan_direct", 250 }, { "pgsteal_direct", 100 },
		{ "elapsed", 2.5 }, { "pswpin", 40 }, { "pswpout", 4000 },
		{ "pgscan_total", 1250 }, { "pgsteal_total", 900 },
	};
	struct vb_res r;
	char args[512], path[256], *out, *p;
	size_t i;

	mktmp();
	tu_copy_tree(EX "/example-b", at(path, "b"));
	tu_res_load(EX "/example-b/forkbomb.res", &r);
	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		tu_res_set(&r, set[i].name, set[i].v);
	tu_res_store(at(path, "b/forkbomb.res"), &r);
	snprintf(args, sizeof(args), "--detail --only forkbomb " EX
	    "/example-a %s/b", tmp);
	out = view(args);
	ck_assert_ptr_nonnull(p = strstr(out, "vmstat (derived)"));
	tu_assert_has(p, "swapin kB/run               0"
	    "            40\n");
	tu_assert_has(p, "swapout kB/run              0"
	    "          4000\n");
	tu_assert_has(p, "kswapd eff %                -"
	    "         80.00\n");
	tu_assert_has(p, "direct eff %                -"
	    "         40.00\n");
	tu_assert_has(p, "reclaim eff %               -"
	    "         72.00\n");
	tu_assert_has(p, "scan pages/s                0"
	    "           500\n");
	tu_assert_has(p, "direct scan %               -"
	    "         20.00\n");
	free(out);
	rmtmp();
}
END_TEST


/*
 * hyperfine's warnings: b's forkbomb (one run) gets iterations 4 and 5
 * (copies of 2 and 3), iteration 5's elapsed times 10 (an outlier: with
 * 5 the modified Z-score applies) and iteration 1's times 3 (a cold
 * first iteration).
 */
START_TEST(warnings)
{
	struct vb_res r;
	char args[512], p[256], *out;
	int m;

	mktmp();
	tu_copy_tree(EX "/example-b", at(p, "b"));
	tu_res_load(EX "/example-b/forkbomb.res", &r);
	m = tu_res_col(&r, "elapsed");
	ck_assert_int_eq(r.niter, 3);
	r.vals[m] *= 3;
	tu_res_dup_iter(&r, 1);
	tu_res_dup_iter(&r, 2)[m] *= 10;
	tu_res_store(at(p, "b/forkbomb.res"), &r);
	snprintf(args, sizeof(args), "--only forkbomb " EX "/example-a %s/b",
	    tmp);
	out = tu_unwrap(view(args));
	/* one run of 5 iterations: iterations, not runs */
	ck_assert_msg(strstr(out, "elapsed example-b iteration 5"), "no "
	    "outlier: %s", out);
	ck_assert_msg(strstr(out, "first iteration slower than the other "
	    "iterations' median (cold caches?): example-b"), "%s", out);
	free(out);
	rmtmp();
}
END_TEST

/* --only keeps the benchmarks named, a bare name all its variants. */
START_TEST(only)
{
	char *out;

	mktmp();
	out = view("--only tworead,forkbomb --summary "
	    EX "/example-a " EX "/example-b");
	tu_assert_has(out, "@n500");
	tu_assert_has(out, "forkbomb");
	tu_assert_lacks(out, "memfill");
	free(out);
	one_line_error("--only nosuch " EX "/example-a", 1,
	    "--only: no benchmark 'nosuch'");
	rmtmp();
}
END_TEST

static int
has_magic(const char *path, const char *magic, size_t n)
{
	char buf[16] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return 0;
	got = fread(buf, 1, n, f);
	fclose(f);
	return got == n && memcmp(buf, magic, n) == 0;
}

START_TEST(charts)
{
	char args[512], path[256], *svg;

	mktmp();
	/* two small folders: forkbomb only, to keep gnuplot quick */
	tu_copy_files(EX "/example-a", at(path, "a"), "meta", "forkbomb.res",
	    "forkbomb.vmstat", NULL);
	tu_copy_files(EX "/example-b", at(path, "b"), "meta", "forkbomb.res",
	    "forkbomb.vmstat", NULL);
	ck_assert_int_eq(sh("ls -l --time-style=+%%s.%%N \"$T/a\" \"$T/b\" "
	    "> \"$T/before\""), 0);
	snprintf(args, sizeof(args), "--plot %s/charts %s/a %s/b", tmp, tmp,
	    tmp);
	ck_assert_int_eq(report(args), 0);
	snprintf(path, sizeof(path), "%s/charts/forkbomb-forks_per_s.png",
	    tmp);
	ck_assert_msg(has_magic(path, "\x89PNG\r\n\x1a\n", 8), "%s", path);
	snprintf(path, sizeof(path), "%s/charts/forkbomb-vmstat-free.png",
	    tmp);
	ck_assert_msg(has_magic(path, "\x89PNG\r\n\x1a\n", 8), "%s", path);
	snprintf(path, sizeof(path), "%s/charts/forkbomb-forks_per_s.svg",
	    tmp);
	ck_assert_ptr_nonnull(svg = tu_slurp(path));
	ck_assert(strncmp(svg, "<?xml", 5) == 0);
	tu_assert_has(svg, "<svg");
	tu_assert_has(svg, "</svg>");
	free(svg);
	/* the data and the script stay beside the image */
	snprintf(path, sizeof(path), "%s/charts/forkbomb-forks_per_s.gp", tmp);
	ck_assert_int_eq(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/charts/forkbomb-forks_per_s.dat",
	    tmp);
	ck_assert_int_eq(access(path, R_OK), 0);
	/* nothing written into the result folders */
	ck_assert_int_eq(sh("ls -l --time-style=+%%s.%%N \"$T/a\" \"$T/b\" | "
	    "cmp -s - \"$T/before\""), 0);
	/* charts into a result folder: refused */
	snprintf(args, sizeof(args), "--plot %s/a/charts %s/a %s/b", tmp, tmp,
	    tmp);
	one_line_error(args, 1, "inside a result folder");
	/* no gnuplot: one line naming the package */
	snprintf(args, sizeof(args), "--plot %s/c2 %s/a %s/b", tmp, tmp, tmp);
	ck_assert_int_eq(sh("GNUPLOT=/nonexistent/gnuplot %s %s >/dev/null "
	    "2>\"$T/err\"", VMREPORT, args), 1);
	svg = out_text("err");
	tu_assert_has(svg, "apt-get install gnuplot-nox");
	ck_assert(strchr(svg, '\n') == svg + strlen(svg) - 1);
	free(svg);
	rmtmp();
}
END_TEST

START_TEST(examples_untouched)
{
	mktmp();
	ck_assert_int_eq(sh("ls -lR --time-style=+%%s.%%N " EX " > "
	    "\"$T/before\" && for v in '' --post --summary '--format csv' "
	    "'--format json' '--vmstat forkbomb'; do %s $v " EX "/example-a "
	    EX "/example-b > /dev/null || exit 1; done && ls -lR "
	    "--time-style=+%%s.%%N " EX " | cmp -s - \"$T/before\"", VMREPORT),
	    0);
	rmtmp();
}
END_TEST

/*
 * tests/fixtures/ab-A and ab-B: what `make ab` writes for thp=never
 * against thp=always under MEM= (meta with the ab_ keys, per-run keys
 * that differ, cgroup counters), with memfill's minflt 65568 against
 * 65569 in every run (an exact difference of 0.0015%), nvcsw (info)
 * doubled, and fileload@quick run while other processes used 97% of a
 * CPU in B (0.5% in A).
 */
#define FX "tests/fixtures"
#define AB FX "/ab-A " FX "/ab-B"

/* The line of @out that starts with @start (allocated), or NULL. */
static char *
line_of(const char *out, const char *start)
{
	const char *p = out;
	size_t n = strlen(start);

	while (p && *p) {
		if (!strncmp(p, start, n))
			return strndup(p, strcspn(p, "\n"));
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

static int
starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The part of @out from @from on (for one benchmark's section). */
static const char *
after(const char *out, const char *from)
{
	const char *p = strstr(out, from);

	ck_assert_msg(p != NULL, "no '%s' in the output", from);
	return p;
}

/* Field @n (1-based) of CSV line @line (no quoted commas in it). */
static char *
csv_field(const char *line, int n)
{
	const char *p = line;

	while (--n > 0 && p)
		p = (p = strchr(p, ',')) ? p + 1 : NULL;
	ck_assert_ptr_nonnull(p);
	return strndup(p, strcspn(p, ",\n"));
}

/*
 * The field of CSV line @line in the column named @name in the header,
 * the first line of @csv (columns addressed by name, never by number:
 * a new column moves the others).
 */
static void
assert_field(const char *csv, const char *line, const char *name,
    const char *want)
{
	size_t len = strlen(name);
	const char *h = csv;
	char *f;
	int n = 1;

	ck_assert_msg(line != NULL, "no such line (column %s)", name);
	while (strncmp(h, name, len) || (h[len] != ',' && h[len] != '\n')) {
		h += strcspn(h, ",\n");
		ck_assert_msg(*h == ',', "no column %s in the header of %.*s",
		    name, (int)strcspn(csv, "\n"), csv);
		h++;
		n++;
	}
	f = csv_field(line, n);
	ck_assert_msg(!strcmp(f, want), "%s (field %d) of '%s' is '%s', want "
	    "'%s'", name, n, line, f, want);
	free(f);
}

/*
 * The default view: per benchmark the headline and the common figures,
 * plus the metrics a .res names on its "key" line (the examples have
 * none: written before it); the rest, the probes beside a benchmark and
 * the statistics blocks only with --detail; contest's and tworead's
 * tables after the benchmarks, then the geometric means (the headline
 * summary only with three folders or more).
 */
START_TEST(default_view)
{
	static const char *const key[] = { "elapsed ", "user", "sys",
		"pswpin", "pswpout", "mb_per_s" };
	struct vb_res r;
	char args[512], p[256], *out, *l;
	const char *sec;
	size_t i;
	int k, m;

	mktmp();
	out = view(EX "/example-a " EX "/example-b");
	sec = after(out, "== fileload@c2 ==");
	for (i = 0; i < sizeof(key) / sizeof(key[0]); i++) {
		l = line_of(sec, key[i]);
		ck_assert_msg(l != NULL, "no %s row", key[i]);
		free(l);
	}
	tu_assert_lacks(out, "\nntcreatex_count");
	tu_assert_has(sec, "\nops_per_s");
	tu_assert_lacks(out, "\nmb_per_s (MB/s, higher");
	tu_assert_lacks(out, "vmstat (derived)");
	/* rows zero in every run: left out, said once in the legend */
	tu_assert_lacks(out, "\nzero in every run:");
	tu_assert_has(out, "Key figures not zero in every "
	    "run");
	/* one run a side: nothing starred, not in --detail either */
	tu_assert_lacks(out, "marked * there");
	/* probes beside their benchmark: a line, not a section */
	tu_assert_lacks(out, "== probe@memfill ==");
	tu_assert_has(after(out, "== memfill =="),
	    "example-b  played 0.6 of 0.6 seconds (100%)");
	/* contest's and tworead's tables, then the summary */
	sec = after(out, "makesim under contest's loads");
	sec = after(sec, "cacherun:\nKernel [runs]      Time   CPU%  Loads  "
	    "LCPU%  Ratio\n");
	sec = after(sec, "tworead: two files read over ranges n and 1100-n");
	sec = after(sec, "100           803828      900346\n");
	/* two folders: the headlines are in the tables, not summed up */
	tu_assert_lacks(sec, "Summary: each benchmark's headline");
	after(sec, "Time-like metrics");
	free(out);
	out = view("--detail " EX "/example-a " EX "/example-b");
	tu_assert_has(out, "\nntcreatex_count");
	tu_assert_has(out, "\nmb_per_s (MB/s, higher");
	tu_assert_has(out, "== probe@memfill ==");
	tu_assert_lacks(out, "--detail has");
	free(out);
	/* a key line adds its metrics to the default view */
	for (k = 0; k < 2; k++) {
		snprintf(args, sizeof(args), "%c", "ab"[k]);
		ck_assert_int_eq(mkdir(at(p, args), 0755), 0);
		snprintf(args, sizeof(args), EX "/example-%c/meta", "ab"[k]);
		tu_copy_file(args, strcat(p, "/meta"));
		snprintf(args, sizeof(args), EX "/example-%c/fileload@c2.res",
		    "ab"[k]);
		tu_res_load(args, &r);
		for (m = 0; m < r.nmetrics; m++)
			vb_res_set_key(&r, m, 0);
		vb_res_set_key(&r, tu_res_col(&r, "ops_per_s"), 1);
		snprintf(args, sizeof(args), "%c/fileload@c2.res", "ab"[k]);
		tu_res_store(at(p, args), &r);
	}
	snprintf(args, sizeof(args), "%s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(out, "ops_per_s~");
	ck_assert_msg(l && strstr(l, "22747     15188 ( -33.23%)"), "%s", l);
	free(l);
	/* the headline stays; what the key line leaves out goes */
	tu_assert_has(out, "\nmb_per_s~");
	tu_assert_lacks(out, "\nmax_latency_ms");
	tu_assert_lacks(out, "\nntcreatex_count");
	free(out);
	rmtmp();
}
END_TEST

/* Write @text to T/@rel. */
static void
put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * Folders T/a and T/b (the examples' meta) whose only result is a
 * forkbomb.res with the metrics below and the iterations @ita, @itb.
 */
#define EDGE_HEAD "vmbench-result 1\nbench forkbomb\nvariant default\n" \
	"cmdline forkbomb\nstatus complete\nstarted -\nended -\n" \
	"headline forks_per_s\nmetric elapsed s lower\n" \
	"metric majflt faults lower\nmetric pgscan_total pages info\n" \
	"metric delta ms lower\nmetric spread ms lower\n" \
	"metric forks_per_s forks/s higher\n"

static void
edge_folders(const char *ita, const char *itb)
{
	char text[2048], p[256];

	/* iterations as runs (make ab's unit): the tests on iterations */
	ck_assert_int_eq(mkdir(at(p, "a"), 0755), 0);
	tu_copy_file(EX "/example-a/meta", at(p, "a/meta"));
	tu_meta_set(at(p, "a"), "unit", "run-per-iteration");
	ck_assert_int_eq(mkdir(at(p, "b"), 0755), 0);
	tu_copy_file(EX "/example-b/meta", at(p, "b/meta"));
	tu_meta_set(at(p, "b"), "unit", "run-per-iteration");
	snprintf(text, sizeof(text), "%s%send\n", EDGE_HEAD, ita);
	put("a/forkbomb.res", text);
	snprintf(text, sizeof(text), "%s%send\n", EDGE_HEAD, itb);
	put("b/forkbomb.res", text);
}

/*
 * One run on a side: no test, so no detectable change and no ratio
 * interval: "-" in the text (not "unbounded"), empty fields in CSV and
 * nulls in JSON, and significant empty/null, not 0/false.
 */
START_TEST(one_run)
{
	char args[512], *out, *l;

	mktmp();
	edge_folders("iter 1 1.0 0 - -1 10 100\niter 2 1.1 0 - 1 12 110\n"
	    "iter 3 1.0 0 - 0 11 90\n", "iter 1 1.3 0 - 2 20 80\n");
	snprintf(args, sizeof(args), "--detail %s/a %s/b", tmp, tmp);
	out = view(args);
	ck_assert_msg(!strstr(out, "unbounded"), "unbounded shown");
	l = line_of(after(out, "forks_per_s (forks/s"), "ratio CI low");
	ck_assert_msg(l && !strcmp(l + strlen(l) - 2, " -"), "%s", l);
	free(l);
	/* a noisy metric with one run on a side: nothing detectable */
	tu_unwrap(out);
	ck_assert_msg(strstr(out, "(largest CoV: smallest change detectable "
	    "with 1 run a side): elapsed 5.6%: -, delta mean 0, SD 1: -, "
	    "spread 9.1%: -,"), "no such note");
	free(out);
	snprintf(args, sizeof(args), "--format csv %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(out, "example-b,forkbomb,forks_per_s,");
	assert_field(out, l, "welch_df", "");		/* welch_df */
	assert_field(out, l, "significant", "");		/* significant */
	assert_field(out, l, "ratio", "0.8");		/* ratio */
	assert_field(out, l, "ratio_ci_low", "");
	assert_field(out, l, "ratio_ci_high", "");
	assert_field(out, l, "ratio_unbounded", "");		/* ratio_unbounded */
	free(l);
	free(out);
	snprintf(args, sizeof(args), "--format json %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(after(after(out, "\"name\": \"forks_per_s\""),
	    "\"kernel\": \"example-b\""), "\"kernel\": \"example-b\"");
	ck_assert_msg(l && strstr(l, "\"significant\": null") &&
	    strstr(l, "\"ratio_ci_low\": null") &&
	    strstr(l, "\"ratio_unbounded\": null"), "%s", l);
	free(l);
	free(out);
	rmtmp();
}
END_TEST

/*
 * A metric "-" in every run is not measured, never zero in every run;
 * JSON has the same fields in every kernel's entry, whatever side has
 * no run; a mean of 0 with spread shows its SD and is noisy, never
 * steady.
 */
START_TEST(absent_and_zero_mean)
{
	static const char *const fields[] = { "\"change_pct\"",
		"\"welch_p\"", "\"welch_df\"", "\"significant\"", "\"ratio\"",
		"\"ratio_ci_low\"", "\"ratio_ci_high\"", "\"ratio_unbounded\"",
		"\"noisy\"" };
	char args[512], *out, *l;
	const char *p;
	size_t i;
	int k;

	mktmp();
	edge_folders("iter 1 1.0 0 - -1 10 100\niter 2 1.1 0 - 1 12 110\n"
	    "iter 3 1.0 0 - 0 11 90\n", "iter 1 1.3 0 - 2 20 80\n"
	    "iter 2 1.2 0 - 1 21 85\niter 3 1.3 0 - 3 22 82\n");
	snprintf(args, sizeof(args), "--detail %s/a %s/b", tmp, tmp);
	out = tu_unwrap(view(args));
	l = line_of(out, "zero in every run:");
	ck_assert_msg(l && !strcmp(l, "zero in every run: majflt"), "%s", l);
	free(l);
	l = line_of(out, "not measured");
	ck_assert_msg(l && strstr(l, ": pgscan_total"), "%s", l);
	free(l);
	/* delta: a's mean 0, SD 1 */
	ck_assert_msg(strstr(out, "delta mean 0, SD 1: -"), "no such note");
	l = line_of(out, "delta~");
	ck_assert_msg(l != NULL, "delta not marked noisy");
	free(l);
	free(out);
	snprintf(args, sizeof(args), "--format csv %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(out, "example-a,forkbomb,delta,");
	assert_field(out, l, "sd", "1");		/* sd */
	assert_field(out, l, "noisy", "1");		/* noisy */
	free(l);
	free(out);
	snprintf(args, sizeof(args), "--format json %s/a %s/b", tmp, tmp);
	out = view(args);
	p = after(out, "\"name\": \"pgscan_total\"");
	for (k = 0; k < 2; k++) {
		p = after(p, "{\"kernel\": ");
		l = line_of(p, "{\"kernel\": ");
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			ck_assert_msg(strstr(l, fields[i]), "no %s in %s",
			    fields[i], l);
		ck_assert_msg(strstr(l, "\"n\": 0"), "%s", l);
		free(l);
		p++;
	}
	l = line_of(after(after(out, "\"name\": \"delta\""),
	    "{\"kernel\": \"example-a\""), "{\"kernel\": \"example-a\"");
	ck_assert_msg(strstr(l, "\"sd\": 1,") && strstr(l, "\"cov\": null") &&
	    strstr(l, "\"noisy\": true"), "%s", l);
	free(l);
	free(out);
	rmtmp();
}
END_TEST

/*
 * The noise note takes n per metric: spread has a run fewer in a (n 4)
 * than elapsed (n 5); elapsed's largest CoV, b's, is sqrt(0.05) / 1.1 =
 * 20.3%, detectable 20.3% sqrt(15.7 / 5) = 36.02%, rounded up to 37%.
 * Outliers with a MAD of 0: b's elapsed is 1.0 in four runs of five,
 * 1.5 in run 5: MeanAD 0.1 stands in for the MAD, z = 0.5 / 0.1253314
 * = 3.99 > 3.5.
 */
START_TEST(noise_n_and_mad0)
{
	char args[512], *out;

	mktmp();
	edge_folders("iter 1 1.0 0 - 1 10 100\niter 2 1.3 0 - 1 - 110\n"
	    "iter 3 1.0 0 - 1 13 90\niter 4 1.2 0 - 1 11 95\n"
	    "iter 5 1.1 0 - 1 12 99\n",
	    "iter 1 1.0 0 - 1 20 80\niter 2 1.0 0 - 1 21 85\n"
	    "iter 3 1.0 0 - 1 22 82\niter 4 1.0 0 - 1 20 84\n"
	    "iter 5 1.5 0 - 1 22 83\n");
	snprintf(args, sizeof(args), "--detail %s/a %s/b", tmp, tmp);
	out = tu_unwrap(view(args));
	ck_assert_msg(strstr(out, "(largest CoV: smallest change detectable "
	    "with n runs a side): elapsed 20.3%: 37% (n 5), spread 11.2%: 23% "
	    "(n 4)"), "no such note");
	ck_assert_msg(strstr(out, "outliers (modified Z-score > 3.5): "
	    "elapsed example-b run 5 (4.0)"), "no such note");
	free(out);
	rmtmp();
}
END_TEST

/*
 * The summary's geometric mean takes runs as the unit (here make ab's
 * folders: each iteration a run): each run's score is the mean log of
 * its figures, and only the metrics of the run counts most metrics
 * share, of those with an interval, count, so one short benchmark
 * (forkbomb@one, one run, three metrics) does not void its interval:
 * forkbomb's elapsed (1.0 1.1 1.0 -> 1.3 1.2 1.3) and spread (10 12 11
 * -> 20 21 22) remain (delta's baseline mean is 0): exp(mean_b -
 * mean_a) of the scores (log e + log s) / 2 = 1.5315.
 */
START_TEST(geo_mean_two_runs)
{
	char args[512], text[2048], *out, *l;

	mktmp();
	edge_folders("iter 1 1.0 0 - -1 10 100\niter 2 1.1 0 - 1 12 110\n"
	    "iter 3 1.0 0 - 0 11 90\n", "iter 1 1.3 0 - 2 20 80\n"
	    "iter 2 1.2 0 - 1 21 85\niter 3 1.3 0 - 3 22 82\n");
	snprintf(text, sizeof(text), "vmbench-result 1\nbench forkbomb\n"
	    "variant one\n%siter 1 1.0 0 - 1 10 100\nend\n",
	    strstr(EDGE_HEAD, "cmdline"));
	put("a/forkbomb@one.res", text);
	put("b/forkbomb@one.res", text);
	snprintf(args, sizeof(args), "--summary %s/a %s/b", tmp, tmp);
	out = view(args);
	ck_assert_msg(strstr(out, "2 runs a side or more"), "%.300s", out);
	l = line_of(after(out, "95% CI"), "example-b ");
	ck_assert_msg(l && strstr(l, "  2   3/3   1.5315  ["), "%s", l);
	free(l);
	free(out);
	rmtmp();
}
END_TEST

/*
 * No run on a side (forkbomb@gone only in a): no change is detectable
 * (the note counts 0 runs a side, not a's 3), and noisy is not known
 * for b: empty in CSV, null in JSON.
 */
START_TEST(no_run_on_a_side)
{
	char args[512], text[2048], *out, *l;

	mktmp();
	edge_folders("iter 1 1.0 0 - -1 10 100\niter 2 1.1 0 - 1 12 110\n"
	    "iter 3 1.0 0 - 0 11 90\n", "iter 1 1.0 0 - -1 10 100\n"
	    "iter 2 1.1 0 - 1 12 110\niter 3 1.0 0 - 0 11 90\n");
	snprintf(text, sizeof(text), "vmbench-result 1\nbench forkbomb\n"
	    "variant gone\n%siter 1 1.0 0 - -1 10 100\n"
	    "iter 2 1.1 0 - 1 12 110\niter 3 1.0 0 - 0 11 90\nend\n",
	    strstr(EDGE_HEAD, "cmdline"));
	put("a/forkbomb@gone.res", text);
	snprintf(args, sizeof(args), "--detail %s/a %s/b", tmp, tmp);
	out = tu_unwrap(view(args));
	ck_assert_msg(strstr(after(out, "== forkbomb@gone =="), "(largest "
	    "CoV: smallest change detectable with 0 runs a side): elapsed "
	    "5.6%: -, delta mean 0, SD 1: -, spread 9.1%: -, forks_per_s "
	    "10.0%: -\n"), "no such note");
	free(out);
	snprintf(args, sizeof(args), "%s/a %s/b", tmp, tmp);
	out = view(args);
	ck_assert_msg(strstr(out, "\n~ detectable with 0 runs a side: "
	    "headline forks_per_s -\n"), "no such note");
	free(out);
	snprintf(args, sizeof(args), "--format csv %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(out, "example-b,forkbomb@gone,elapsed,");
	assert_field(out, l, "noisy", "");		/* noisy */
	free(l);
	l = line_of(out, "example-a,forkbomb@gone,elapsed,");
	assert_field(out, l, "noisy", "1");
	free(l);
	free(out);
	snprintf(args, sizeof(args), "--format json %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(after(after(out, "\"id\": \"forkbomb@gone\""),
	    "{\"kernel\": \"example-b\", \"status\""),
	    "{\"kernel\": \"example-b\"");
	ck_assert_msg(l && strstr(l, "\"noisy\": null"), "%s", l);
	free(l);
	free(out);
	rmtmp();
}
END_TEST

/*
 * The default view of the examples (every run that recorded the load
 * was not quiet): one warning at the top with the range instead of a
 * line under every table, and, one run in each folder, neither a
 * detectable change nor a verdict line; --detail keeps each warning
 * and every noisy metric's figure.
 */
START_TEST(short_notes)
{
	char *out, *p, *e;

	mktmp();
	out = view(EX "/example-a " EX "/example-b");
	ck_assert_msg(strstr(out, "warning: the machine was not quiet in all "
	    "18 benchmark runs that recorded it:\n    other "
	    "processes used "), "%.300s", out);
	tu_assert_lacks(out, "! not quiet");
	/* one run a side (of 3 iterations): no change is detectable */
	tu_assert_lacks(out, "\n~ detectable");
	/* nor a verdict line: the legend's can't tell covers every one */
	tu_assert_lacks(out, "\nverdict ");
	tu_assert_has(out, "cannot measure (can't tell);");
	/* every noise note is one line */
	for (p = out; (p = strstr(p, "\n~ ")); p = e) {
		e = strchr(p + 1, '\n');
		ck_assert_msg(e && strncmp(e, "\n    ", 5), "%.80s", p);
	}
	free(out);
	out = tu_unwrap(view("--detail " EX "/example-a " EX "/example-b"));
	tu_assert_has(out, "warning: forkbomb on example-a: "
	    "the machine was not quiet");
	tu_assert_has(out, "elapsed 11.7%: -, sys 9.3%: -,");
	free(out);
	rmtmp();
}
END_TEST

/*
 * A mean of 0 is "0" in every view: the table, the bar chart, the
 * statistics block and the summary (not 0.0 or 0.00).
 */
START_TEST(zero_one_form)
{
	char args[512], *out, *l;

	mktmp();
	edge_folders("iter 1 1.0 0 - -1 10 100\niter 2 1.1 0 - 1 12 110\n"
	    "iter 3 1.0 0 - 0 11 90\n", "iter 1 1.0 0 - -1 10 0\n"
	    "iter 2 1.1 0 - 1 12 0\niter 3 1.0 0 - 0 11 0\n");
	snprintf(args, sizeof(args), "--detail %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(out, "forks_per_s~ ");
	ck_assert_msg(l && strstr(l, " 100.0         0 (-100.00%)*"), "%s",
	    l);
	free(l);
	l = line_of(out, "example-b   ");
	ck_assert_msg(l && !strcmp(l, "example-b   0 forks/s"), "%s", l);
	free(l);
	l = line_of(after(out, "forks_per_s (forks/s, "), "mean ");
	ck_assert_msg(l && !strcmp(l + strlen(l) - 2, " 0"), "%s", l);
	free(l);
	free(out);
	snprintf(args, sizeof(args), "--summary %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(out, "example-b  ");
	ck_assert_msg(l && !strcmp(l + strlen(l) - 2, " 0"), "%s", l);
	free(l);
	free(out);
	rmtmp();
}
END_TEST

/*
 * The summary's column headers are cut so that a blank separates the
 * columns: no run of more than 9 characters without a blank (the
 * examples' probe@makesim@no_load ran into its neighbour).
 */
START_TEST(summary_headers_apart)
{
	char *out, *p, *end;
	int run = 0;

	mktmp();
	out = view("--summary " EX "/example-a " EX
	    "/example-b");
	p = strstr(out, "\nSummary:");
	ck_assert_ptr_nonnull(p);
	p = strstr(p, "\n\nKernel");
	end = strstr(out, "\nTime-like");
	ck_assert_msg(p && end, "no summary tables");
	for (; p < end; p++) {
		if (p[0] == '\n' && p[1] == '-')	/* the rule under it */
			p = strchr(p + 1, '\n');
		run = *p == ' ' || *p == '\n' ? 0 : run + 1;
		ck_assert_msg(run <= 9, "columns run together: %.40s",
		    p - run + 1);
	}
	free(out);
	rmtmp();
}
END_TEST

START_TEST(settings_differ)
{
	static const char *const views[] = { "", "--post", "--summary",
		"--detail" };
	char args[512], *out, *p;
	size_t i;

	mktmp();
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		snprintf(args, sizeof(args), "%s " AB, views[i]);
		out = view(args);
		ck_assert_msg(strstr(out, "Settings that differ between the "
		    "folders:\n  ab_setting: thp=never in x-A; thp=always in "
		    "x-B\n"), "'%s': no ab_setting line", views[i]);
		ck_assert_msg(strstr(out, "\n  thp_enabled: never in x-A; "
		    "always in x-B\n"), "'%s': no thp_enabled", views[i]);
		ck_assert_msg(strstr(out, "\n  cmdline (words not in every "
		    "folder): transparent_hugepage=never in x-A;\n      "
		    "transparent_hugepage=always in x-B\n"), "'%s': cmdline",
		    views[i]);
		/* differ by nature: never shown */
		tu_assert_lacks(out, "workdir:");
		tu_assert_lacks(out, "mem_limit_peak_kb");
		tu_assert_lacks(out, "ab_pair");
		tu_assert_lacks(out, "start:");
		/* at the top: before the first benchmark */
		p = strstr(out, "fileload");
		ck_assert(p && strstr(out, "thp_enabled") < p);
		free(out);
	}
	/* the post no longer presents the baseline's THP as everyone's */
	out = view("--post " AB);
	tu_assert_has(out, "Setup: THP differs, swappiness "
	    "60,");
	tu_assert_lacks(out, "THP never");
	free(out);
	out = view("--format csv --what settings " AB);
	ck_assert_msg(starts(out, "kernel,setting,value,format_version\n"
	    "x-A,ab_setting,thp=never,1\nx-B,ab_setting,thp=always,1\n"),
	    "%s", out);
	p = strstr(out, "\nx-A,thp_enabled,never,1\n");
	ck_assert_msg(p && !strcmp(p, "\nx-A,thp_enabled,never,1\n"
	    "x-B,thp_enabled,always,1\nx-A,machine,\"vm, AMD EPYC x 2, "
	    "23.5 GiB RAM\",1\nx-A,machine_no,1,1\nx-B,machine,\"vm, AMD "
	    "EPYC x 2, 23.5 GiB RAM\",1\nx-B,machine_no,1,1\n"), "%s", out);
	free(out);
	/* the metrics table alone: its header first */
	out = view("--format csv " AB);
	ck_assert(starts(out, "kernel,benchmark,metric,"));
	tu_assert_lacks(out, "thp_enabled");
	free(out);
	out = view("--format json " AB);
	tu_assert_has(out, "\"settings_same\": false");
	tu_assert_has(out, "\"thp_enabled\": {\"x-A\": "
	    "\"never\", \"x-B\": \"always\"}");
	free(out);
	/* the charts' titles */
	snprintf(args, sizeof(args), "--only memfill --plot %s/ch " AB, tmp);
	ck_assert_int_eq(sh("GNUPLOT=/nonexistent %s %s >/dev/null "
	    "2>&1", VMREPORT, args), 1);
	snprintf(args, sizeof(args), "%s/ch/memfill-fill_s.gp", tmp);
	ck_assert_ptr_nonnull(out = tu_slurp(args));
	tu_assert_has(out, "'settings differ: ab_setting "
	    "(thp=never in x-A; thp=always in x-B), cmdline, thp_enabled'");
	free(out);
	rmtmp();
}
END_TEST

/* Folders that differ only in per-run keys: one line says so. */
START_TEST(settings_same)
{
	char args[512], p[256], *out;

	mktmp();
	tu_fixture_copy(FX "/ab-A", at(p, "a2"), "x-A2");
	tu_meta_set(p, "start", "2026-12-02T00:00:00Z");
	tu_meta_set(p, "end", "2026-12-02T00:04:00Z");
	tu_meta_set(p, "workdir", "/w/run.999");
	tu_meta_set(p, "mem_limit_peak_kb", "1");
	tu_meta_set(p, "ab_side", "B");
	snprintf(args, sizeof(args), FX "/ab-A %s/a2", tmp);
	out = view(args);
	tu_assert_has(out, "\nSettings: the same in every "
	    "folder\n");
	tu_assert_lacks(out, "differ between");
	free(out);
	snprintf(args, sizeof(args), "--post " FX "/ab-A %s/a2", tmp);
	out = view(args);
	tu_assert_has(out, "\nSettings: the same in every "
	    "folder\n");
	tu_assert_has(out, "Setup: THP never,");
	free(out);
	snprintf(args, sizeof(args), "--format csv " FX "/ab-A %s/a2", tmp);
	out = view(args);
	ck_assert(starts(out, "kernel,benchmark,metric,"));
	free(out);
	/* no setting differs: the machines only */
	snprintf(args, sizeof(args), "--format csv --what settings " FX
	    "/ab-A %s/a2", tmp);
	out = view(args);
	ck_assert_str_eq(out, "kernel,setting,value,format_version\n"
	    "x-A,machine,\"vm, AMD EPYC x 2, 23.5 GiB RAM\",1\n"
	    "x-A,machine_no,1,1\nx-A2,machine,\"vm, AMD EPYC x 2, 23.5 GiB "
	    "RAM\",1\nx-A2,machine_no,1,1\n");
	free(out);
	snprintf(args, sizeof(args), "--format json " FX "/ab-A %s/a2", tmp);
	out = view(args);
	tu_assert_has(out, "\"settings_same\": true,\n  "
	    "\"settings_differ\": {},");
	free(out);
	rmtmp();
}
END_TEST

/*
 * 65,568 against 65,569 faults in every run: no spread on either side,
 * so p is the exact permutation p, 2 / C(6, 3) = 0.1, never 0; the
 * change, 0.0015%, is below the minimum change too: never marked in any
 * format nor counted by the gate, even with --min-change 0.
 */
START_TEST(min_change)
{
	char *out, *l;
	const char *sec;

	mktmp();
	out = view("--detail " AB);
	sec = after(out, "== memfill ==");
	ck_assert_ptr_nonnull(l = line_of(sec, "minflt "));
	ck_assert_msg(l[strlen(l) - 1] != '*', "starred: %s", l);
	free(l);
	/* a real change in the same table still is */
	ck_assert_ptr_nonnull(l = line_of(sec, "fill_s "));
	ck_assert_msg(l[strlen(l) - 1] == '*', "not starred: %s", l);
	free(l);
	tu_assert_has(out, "* changed (below) by at\nleast "
	    "1%");
	free(out);
	out = view("--detail --min-change 0 " AB);
	l = line_of(after(out, "== memfill =="), "minflt ");
	ck_assert_msg(l && l[strlen(l) - 1] != '*', "--min-change 0: %s", l);
	free(l);
	free(out);
	/* CSV: field 19 is significant */
	out = view("--format csv " AB);
	l = line_of(out, "x-B,memfill,minflt,");
	assert_field(out, l, "significant", "0");
	free(l);
	l = line_of(out, "x-B,memfill,fill_s,");
	assert_field(out, l, "significant", "1");
	free(l);
	free(out);
	out = view("--format csv --min-change 0 " AB);
	l = line_of(out, "x-B,memfill,minflt,");
	assert_field(out, l, "significant", "0");
	free(l);
	free(out);
	/* JSON: x-B's entry of minflt */
	out = view("--format json " AB);
	sec = after(after(out, "\"name\": \"minflt\""), "\"kernel\": \"x-B\"");
	ck_assert_ptr_nonnull(l = line_of(sec, "\"kernel\": \"x-B\""));
	ck_assert_msg(strstr(l, "\"significant\": false"), "%s", l);
	tu_assert_has(out, "\"min_change_pct\": 1,");
	free(l);
	free(out);
	/* the gate: fill_s counts, minflt does not */
	ck_assert_int_eq(report("--fail-on-regression 0 " AB), 3);
	out = out_text("err");
	tu_assert_has(out, "memfill fill_s");
	tu_assert_lacks(out, "minflt");
	free(out);
	ck_assert_int_eq(report("--fail-on-regression 0 --min-change 0 " AB),
	    3);
	out = out_text("err");
	tu_assert_lacks(out, "memfill minflt");
	free(out);
	one_line_error("--min-change -1 " AB, 2,
	    "vmreport: --min-change: number '-1' out of range (0 to 1e+06)");
	rmtmp();
}
END_TEST

/* nvcsw (info) doubled with p < 0.001: marked in no format. */
START_TEST(info_never_marked)
{
	char *out, *l;

	mktmp();
	out = view("--format csv " AB);
	l = line_of(out, "x-B,memfill,nvcsw,");
	assert_field(out, l, "direction", "info");
	assert_field(out, l, "significant", "0");
	free(l);
	free(out);
	out = view("--format csv --min-change 0 " AB);
	l = line_of(out, "x-B,memfill,nvcsw,");
	assert_field(out, l, "significant", "0");
	free(l);
	free(out);
	out = view("--format json --min-change 0 " AB);
	l = line_of(after(after(out, "\"name\": \"nvcsw\""),
	    "\"kernel\": \"x-B\""), "\"kernel\": \"x-B\"");
	ck_assert_msg(l && strstr(l, "\"significant\": false"), "%s", l);
	free(l);
	free(out);
	out = view("--detail --min-change 0 " AB);
	l = line_of(after(out, "== memfill =="), "nvcsw");
	ck_assert_msg(l && l[strlen(l) - 1] != '*', "starred: %s", l);
	free(l);
	free(out);
	rmtmp();
}
END_TEST

/*
 * tests/fixtures/like-a (the baseline), like-b and like-c (make ab's
 * shape, 3 runs a side): in b another process held 14 GiB (59% of
 * MemTotal) and memfill filled 4.2 GB instead of 18.1 GB; in c 20% was
 * held (below the 25% threshold) and memfill filled within 1% of a's.
 */
#define LIKE FX "/like-a " FX "/like-b " FX "/like-c"
#define LIKE_AB FX "/like-a " FX "/like-b"

/* Memory held by others: warned above --mem-threshold, in every view. */
START_TEST(foreign_memory)
{
	static const char warn_b[] = "warning: memfill on b: other processes "
	    "held 14.0 GiB of the memory, 59% of MemTotal (mean at an "
	    "iteration's start over 3 iterations, highest 59%; lowest "
	    "MemAvailable 9.4 GiB; threshold 25%)";
	char *out, *l;

	mktmp();
	out = tu_unwrap(view(LIKE));
	/* make ab's shape: each iteration of each benchmark a run */
	ck_assert_msg(strstr(out, "warning: other processes held more than "
	    "25% of the memory in 6 of 18 benchmark runs"), "%s", out);
	tu_assert_has(after(out, "== memfill =="), "! memory "
	    "held by others (mean at an iteration's start): 14.0 GiB (59%) "
	    "in b\n");
	/* c's 20% is below the threshold, a's 3% too */
	tu_assert_lacks(out, "in c\n");
	tu_assert_lacks(out, "(20%)");
	free(out);
	out = tu_unwrap(view("--detail " LIKE));
	tu_assert_has(out, warn_b);
	tu_assert_lacks(out, "memfill on c:");
	tu_assert_lacks(out, "memfill on a:");
	free(out);
	out = tu_unwrap(view("--post " LIKE));
	tu_assert_has(out, warn_b);
	tu_assert_lacks(out, "on c: other processes held");
	free(out);
	out = tu_unwrap(view("--summary " LIKE));
	tu_assert_has(out, warn_b);
	free(out);
	/* a lower threshold warns about c too; a higher one about none */
	out = tu_unwrap(view("--detail --mem-threshold 15 " LIKE));
	tu_assert_has(out, "warning: memfill on c: other "
	    "processes held 4.7 GiB of the memory, 20% of MemTotal");
	tu_assert_lacks(out, "memfill on a:");
	free(out);
	out = tu_unwrap(view("--mem-threshold 60 " LIKE));
	tu_assert_lacks(out, "warning: other processes held");
	tu_assert_lacks(out, "! memory held by others");
	tu_assert_has(out, "Memory: other processes held at "
	    "most 59% of it");
	free(out);
	one_line_error("--mem-threshold 101 " LIKE, 2,
	    "vmreport: --mem-threshold: number '101' out of range (0 to 100)");
	/* CSV: mem_quiet and foreign_mem_pct */
	out = view("--format csv " LIKE);
	l = line_of(out, "b,memfill,fill_s,");
	assert_field(out, l, "mem_quiet", "0");
	free(l);
	l = line_of(out, "c,memfill,fill_s,");
	assert_field(out, l, "mem_quiet", "1");
	free(l);
	free(out);
	out = view("--format json " LIKE);
	tu_assert_has(out, "\"foreign_mem_pct_mean\": "
	    "59.47176019");
	tu_assert_has(out, "\"mem_quiet\": false");
	free(out);
	/* folders that did not record it: no memory line at all */
	out = view(AB);
	tu_assert_lacks(out, "Memory:");
	tu_assert_lacks(out, "held");
	free(out);
	rmtmp();
}
END_TEST

/*
 * Another amount of work: b's memfill rows are flagged and never
 * starred, the line names the work figure and the change, in every
 * view; c's work is the same within 1% and its memfill is compared
 * (starred); forkbomb's work is the same everywhere.
 */
START_TEST(other_work)
{
	static const char line_b[] = "! other work: bytes 4.195e+09 in b, "
	    "1.807e+10 in a (-76.8%; the same within 1%): b's other figures "
	    "of memfill are not compared";
	const char *sec;
	char *out, *l, d[512];
	int views;

	mktmp();
	for (views = 0; views < 3; views++) {
		out = tu_unwrap(view(views == 0 ? LIKE : views == 1 ?
		    "--detail " LIKE : "--post " LIKE));
		sec = after(out, views == 1 ? "== memfill ==" : views == 2 ?
		    "\nmemfill\n" : "== memfill ==");
		ck_assert_msg(strstr(sec, line_b), "view %d: no work line",
		    views);
		/* b: never starred, the change not shown */
		l = line_of(sec, "fill_s ");
		ck_assert_msg(l && strstr(l, "(   !work)") && !strstr(l,
		    "+77"), "view %d: %s", views, l);
		free(l);
		/* c: starred (its own block in --detail and --post) */
		l = line_of(views ? after(sec, "c\n") : sec, "fill_s ");
		ck_assert_msg(l && l[strlen(l) - 1] == '*', "view %d: c not "
		    "starred: %s", views, l);
		free(l);
		l = line_of(sec, "elapsed ");
		ck_assert_msg(l && strstr(l, "!work"), "view %d: %s", views,
		    l);
		free(l);
		/* the work figure itself shows its change */
		if (views == 1) {
			l = line_of(sec, "bytes ");
			ck_assert_msg(l && strstr(l, "-76.78%"), "%s", l);
			free(l);
		}
		/* c is the same work: not named */
		tu_assert_lacks(out, "in c, 1.807e+10");
		/*
		 * forkbomb: the same work, compared; not starred: b ran
		 * beside 59% of the memory held by others, a beside 3%
		 * (different loads, docs/report.md)
		 */
		l = line_of(after(out, views == 2 ? "\nforkbomb\n" :
		    "== forkbomb =="), "forks_per_s ");
		ck_assert_msg(l && strstr(l, "(  -9.09%)") &&
		    !strstr(l, "(  -9.09%)*"), "view %d: %s", views, l);
		free(l);
		free(out);
	}
	out = view(LIKE);
	tu_assert_has(out, "verdict fill_s: b other work, c "
	    "changed* -20.0%");
	/*
	 * the summary marks it; the geometric mean leaves b's memfill out,
	 * and its forkbomb, which ran under another memory load
	 */
	l = line_of(after(out, "\nSummary:"), "b ");
	ck_assert_msg(l && strstr(l, "2.30!"), "%s", l);
	free(l);
	l = line_of(after(out, "\nTime-like"), "b ");
	ck_assert_msg(l && strstr(l, " 0     -        -"), "%s", l);
	free(l);
	free(out);
	/* CSV: the verdict and the work figure; no star */
	out = view("--format csv " LIKE);
	l = line_of(out, "b,memfill,fill_s,");
	assert_field(out, l, "significant", "0");
	assert_field(out, l, "verdict", "other work");
	assert_field(out, l, "work_differs", "bytes");
	free(l);
	l = line_of(out, "c,memfill,fill_s,");
	assert_field(out, l, "significant", "1");
	assert_field(out, l, "verdict", "changed");
	assert_field(out, l, "work_differs", "");
	free(l);
	/* b's forkbomb ran beside 59% of the memory held, a's 3% */
	l = line_of(out, "b,forkbomb,forks_per_s,");
	assert_field(out, l, "verdict", "can't tell");
	assert_field(out, l, "verdict_reason", "different_loads");
	free(l);
	free(out);
	out = view("--format json --only memfill " LIKE_AB);
	l = line_of(after(after(out, "\"name\": \"fill_s\""),
	    "\"kernel\": \"b\""), "\"kernel\": \"b\"");
	ck_assert_msg(l && strstr(l, "\"verdict\": \"other work\"") &&
	    strstr(l, "\"work_differs\": \"bytes\"") &&
	    strstr(l, "\"significant\": false"), "%s", l);
	free(l);
	free(out);
	/* the charts: no ratio for b's memfill, its bar named */
	snprintf(d, sizeof(d), "--plot \"$T/ch\" " LIKE_AB);
	ck_assert_int_eq(sh("%s %s >/dev/null 2>&1; test -f \"$T/ch/"
	    "summary.dat\"", VMREPORT, d), 0);
	out = out_text("ch/summary.dat");
	ck_assert_msg(strstr(out, " \"memfill fill_s\" lower NaN NaN NaN NaN "
	    "NaN 1 8 \"other work\" NaN 3 3 NaN NaN NaN\n"), "%s", out);
	free(out);
	out = out_text("ch/memfill-fill_s.dat");
	ck_assert_msg(strstr(out, "\"b (3 runs, !work: other work)\""), "%s",
	    out);
	free(out);
	/*
	 * The gate: a's memfill against b's is 335% slower, but on other
	 * work: no regression, and nothing else to test: one line, exit
	 * 1; c's -20% on the same work is one.
	 */
	one_line_error("--fail-on-regression 5 --only memfill " FX "/like-b "
	    FX "/like-a", 1, "--fail-on-regression: no figure could be "
	    "tested");
	ck_assert_int_eq(report("--fail-on-regression 5 --only memfill "
	    FX "/like-a " FX "/like-c"), 3);
	rmtmp();
}
END_TEST

START_TEST(quiet_machine)
{
	static const char warn97[] = "warning: fileload@quick on x-B: the "
	    "machine was not quiet: other processes used 97% of a CPU (mean "
	    "over 3 iterations, highest 98%; threshold 5%)";
	struct vb_res r;
	char args[512], p[256], *out, *l;
	int k;

	mktmp();
	/*
	 * the default view: one warning at the top naming the benchmark,
	 * no line under its table
	 */
	out = tu_unwrap(view(AB));
	/* make ab's sides: each iteration of each benchmark a run */
	ck_assert_msg(strstr(out, "warning: the machine was not quiet in 3 of "
	    "12 benchmark runs: other processes used 96% to 98% of a CPU (a "
	    "run's mean; threshold 5%; --detail: each run) in "
	    "fileload@quick\n"), "%s", out);
	tu_assert_lacks(out, "! not quiet");
	tu_assert_lacks(out, "% in x-A");
	free(out);
	out = tu_unwrap(view("--detail " AB));
	tu_assert_has(out, warn97);
	ck_assert_msg(strstr(out, "warning: the machine was not quiet in 3 "
	    "of 12 benchmark runs"), "%s", out);
	/* 0.5% of a CPU: quiet */
	tu_assert_lacks(out, "on x-A: the machine");
	tu_assert_lacks(out, "memfill on x-");
	free(out);
	out = tu_unwrap(view("--post " AB));
	tu_assert_has(out, warn97);
	free(out);
	out = tu_unwrap(view("--summary " AB));
	tu_assert_has(out, warn97);
	free(out);
	/* CSV: quiet and foreign_cpu end each row */
	out = view("--format csv " AB);
	tu_assert_has(out, ",noisy,scope,quiet,foreign_cpu,"
	    "runs,");
	l = line_of(out, "x-B,fileload@quick,mb_per_s,");
	assert_field(out, l, "quiet", "0");
	assert_field(out, l, "foreign_cpu", "97");
	free(l);
	l = line_of(out, "x-A,fileload@quick,mb_per_s,");
	assert_field(out, l, "quiet", "1");
	assert_field(out, l, "foreign_cpu", "0.5");
	free(l);
	free(out);
	out = view("--format json " AB);
	tu_assert_has(out, "{\"kernel\": \"x-B\", \"n\": 3, "
	    "\"foreign_cpu_mean\": 97, \"foreign_cpu_max\": 98, \"quiet\": "
	    "false, ");
	tu_assert_has(out, "{\"kernel\": \"x-A\", \"n\": 3, "
	    "\"foreign_cpu_mean\": 0.5, \"foreign_cpu_max\": 0.6, \"quiet\": "
	    "true, ");
	free(out);
	/* a higher threshold: quiet */
	out = view("--quiet-threshold 98 " AB);
	tu_assert_lacks(out, "not quiet");
	/* the loudest run (make ab's: an iteration) */
	ck_assert_msg(strstr(out, "Machine load: quiet; other processes used "
	    "at most 98% of a CPU"), "%s", out);
	free(out);
	/* folders without foreign_cpu: said, not guessed */
	for (k = 0; k < 2; k++) {
		snprintf(args, sizeof(args), "n%c", "ab"[k]);
		ck_assert_int_eq(mkdir(at(p, args), 0755), 0);
		snprintf(args, sizeof(args), EX "/example-%c/meta", "ab"[k]);
		tu_copy_file(args, strcat(p, "/meta"));
		snprintf(args, sizeof(args), EX "/example-%c/forkbomb.res",
		    "ab"[k]);
		tu_res_load(args, &r);
		tu_res_drop(&r, "foreign_cpu");
		snprintf(args, sizeof(args), "n%c/forkbomb.res", "ab"[k]);
		tu_res_store(at(p, args), &r);
	}
	l = tu_slurp_ok("%s/na/forkbomb.res", tmp);
	tu_assert_lacks(l, "foreign");
	free(l);
	snprintf(args, sizeof(args), "%s/na %s/nb", tmp, tmp);
	out = view(args);
	tu_assert_has(out, "Machine load: not recorded");
	free(out);
	rmtmp();
}
END_TEST

/* Whose counter: [system] (vmstat deltas), [cgroup] (cg_*), untagged. */
START_TEST(cgroup_labels)
{
	char *out, *l;
	const char *sec;

	mktmp();
	out = view("--detail " AB);
	sec = after(out, "== memfill ==");
	l = line_of(sec, "cg_pgfault ");
	ck_assert_msg(l && strstr(l, " [cgroup] faults"), "%s", l);
	free(l);
	l = line_of(sec, "pgfault ");
	ck_assert_msg(l && strstr(l, " [system] faults"), "%s", l);
	free(l);
	l = line_of(sec, "minflt ");
	ck_assert_msg(l && !strchr(l, '['), "%s", l);
	free(l);
	tu_assert_has(out, "[system]\na counter of the whole "
	    "machine, [cgroup] of the benchmark's memory cgroup");
	free(out);
	out = view("--post " AB);
	sec = after(out, "\nmemfill\n");
	tu_assert_has(sec, "x-B:      0.150u 0.900s 0:01.50");
	tu_assert_has(sec, "\n          Total kernel swapouts "
	    "during test = 3000 kB (system-wide)\n");
	tu_assert_has(sec, "\n          Cgroup swap peak "
	    "during test      = 0 kB (memory cgroup)\n");
	free(out);
	out = view("--format csv " AB);
	l = line_of(out, "x-A,memfill,cg_pgfault,");
	assert_field(out, l, "scope", "cgroup");
	free(l);
	l = line_of(out, "x-A,memfill,pswpout,");
	assert_field(out, l, "scope", "system");
	free(l);
	l = line_of(out, "x-A,memfill,fill_s,");
	assert_field(out, l, "scope", "benchmark");
	free(l);
	free(out);
	out = view("--format json " AB);
	tu_assert_has(out, "{\"name\": \"cg_swap_peak_kb\", "
	    "\"unit\": \"kB\", \"direction\": \"lower\", \"scope\": "
	    "\"cgroup\"");
	free(out);
	rmtmp();
}
END_TEST

/*
 * The report's layers (docs/architecture.md), read from its
 * sources: every #include "..." in src/report names a header of its own
 * module or of a layer below (src/lib's are below them all), so no
 * module calls one above it and no view another view; and no file but
 * the forms' names a benchmark (a string "NAME" or "NAME@...", NAME a
 * folder of src/bench/).  A new module fails here until it is placed
 * in layer[] below.
 */
static const struct {
	const char *mod;		/* its path under src/report, no suffix */
	int rank;			/* includes only lower ranks */
} layer[] = {
	{ "rload", 0 }, { "rstats", 0 }, { "options", 0 },
	{ "fmt", 1 }, { "verdict", 1 },	/* verdict: over rstats */
	{ "model", 2 }, { "outdir", 2 },
	{ "setup", 3 }, { "table", 3 }, { "bars", 3 },
	{ "forms", 4 },			/* forms/: one module, form.h its header */
	{ "views/", 5 },		/* each view a module of its own */
	{ "vmreport", 6 },
};

/*
 * The verdict on run means (docs/report.md): the shipped examples
 * (results/examples/example-a..e, one config on one kernel) are A/A,
 * and every pair of them, one run a side, stars nothing, in the
 * default view and in --detail, and says why once; a label of 3 of
 * them as runs against a label of the other 2 stars nothing either,
 * with the legend naming Holm and the family size JSON gives; and a
 * real shift (forkbomb's forks_per_s halved in copies of the five
 * runs, 5 runs a side) is starred changed.
 */
START_TEST(run_verdicts)
{
	static const char ex[] = "abcde";
	struct vb_res r;
	char args[512], want[256], path[256], *out, *p;
	int i, j, nkey;

	mktmp();
	for (i = 0; ex[i]; i++)
		for (j = i + 1; ex[j]; j++) {
			snprintf(args, sizeof(args), EX "/example-%c "
			    EX "/example-%c", ex[i], ex[j]);
			out = view(args);
			ck_assert_msg(!strstr(out, ")*"), "%s: starred", args);
			tu_assert_has(out, "One run a side: "
			    "nothing is starred.");
			p = strstr(out, "One run a side");
			tu_assert_lacks(p + 1, "One run a side");
			tu_assert_has(out, "can't tell");
			free(out);
			snprintf(args, sizeof(args), "--detail " EX
			    "/example-%c " EX "/example-%c", ex[i], ex[j]);
			out = view(args);
			ck_assert_msg(!strstr(out, ")*") && !strstr(out, "%*"),
			    "%s: starred", args);
			free(out);
		}
	/* A/A: 3 runs against 2 */
	for (i = 0; i < 5; i++) {
		snprintf(args, sizeof(args), EX "/example-%c", ex[i]);
		snprintf(want, sizeof(want), "%c", i < 3 ? 'a' : 'b');
		mkdir(at(path, want), 0755);
		snprintf(want, sizeof(want), "%c/run%d", i < 3 ? 'a' : 'b',
		    i < 3 ? i + 1 : i - 2);
		tu_copy_tree(args, at(path, want));
	}
	ck_assert_int_eq(mkdir(at(path, "h"), 0755), 0);
	snprintf(args, sizeof(args), "--format json %s/a %s/b", tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	/*
	 * Ten headlines, one a benchmark line of the examples (probe@memfill
	 * has none in the family): a number known here, not read from the
	 * output, so the JSON and the legend are both held to it.
	 */
	nkey = 10;
	out = out_text("out");
	tu_assert_has(out, "\"holm-headline\": 10,");
	free(out);
	snprintf(args, sizeof(args), "%s/a %s/b", tmp, tmp);
	out = view(args);
	ck_assert_msg(!strstr(out, ")*"), "A/A 3 runs vs 2: starred");
	tu_assert_has(out, "example-a: 3 runs on 1 boot");
	for (p = out; *p; p++)
		if (*p == '\n')
			*p = ' ';	/* the legend wraps at column 0 */
	snprintf(want, sizeof(want), "* changed (run means, 2 runs a side): "
	    "the headlines Holm-adjusted p < 0.032 over %d (one a benchmark, "
	    "each kernel against the baseline)", nkey);
	ck_assert_msg(strstr(out, want), "no legend: %s", want);
	tu_assert_lacks(out, "One run a side");
	free(out);
	/* a real shift, 5 runs a side */
	/* a: example-a to -e; h: the same with forks_per_s halved */
	for (i = 4; i <= 5; i++) {
		snprintf(args, sizeof(args), "%s/b/run%d", tmp, i - 3);
		snprintf(want, sizeof(want), "a/run%d", i);
		tu_copy_tree(args, at(path, want));
	}
	for (i = 1; i <= 5; i++) {
		snprintf(args, sizeof(args), "%s/a/run%d", tmp, i);
		snprintf(want, sizeof(want), "h/run%d", i);
		tu_copy_tree(args, at(path, want));
		tu_meta_set(path, "label", "halved");
		strcat(args, "/forkbomb.res");
		tu_res_load(args, &r);
		tu_res_scale(&r, "forks_per_s", 0.5);
		tu_res_store(strcat(path, "/forkbomb.res"), &r);
	}
	snprintf(args, sizeof(args), "%s/a %s/h", tmp, tmp);
	out = view(args);
	p = strstr(out, "\nforks_per_s~ ");
	ck_assert_ptr_nonnull(p);
	tu_assert_has(p, "( -50.00%)*\n");
	tu_assert_has(out, "verdict forks_per_s: changed* "
	    "-50.0% [");
	free(out);
	rmtmp();
}
END_TEST

/*
 * One run a side: no family has a figure to test, and the legend says
 * so in words ("no headline tested"), never "Holm over 0".
 */
START_TEST(empty_family_plain)
{
	char *out, *p;

	mktmp();
	ck_assert_int_eq(report("--post " EX "/example-a " EX "/example-b"), 0);
	out = out_text("out");
	for (p = out; *p; p++)
		if (*p == '\n')
			*p = ' ';	/* the post wraps at column 0 */
	tu_assert_has(out, "on the run means: no headline tested, no other "
	    "figure tested; --detail: no figure tested;");
	tu_assert_lacks(out, " over 0");
	free(out);
	rmtmp();
}
END_TEST

/*
 * A probe beside a benchmark has no section of its own in the default
 * view, but its figures are tested: one that is starred (significant in
 * CSV, counted by the gate) is shown under the benchmark it ran beside.
 * Three runs a side, the same but for probe@memfill's lat_mean times
 * 100 on one side.
 */
START_TEST(probe_star_shown)
{
	char args[512], *out, *p;
	int stars = 0;

	mktmp();
	ck_assert_int_eq(sh("mkdir \"$T/a\" \"$T/b\" && r=0 && "
	    "for l in a b c; do r=$((r + 1)); "
	    "cp -r " EX "/example-$l \"$T/a/run$r\" && "
	    "cp -r " EX "/example-$l \"$T/b/run$r\" && "
	    "sed -i 's/^label=.*/label=slow/' \"$T/b/run$r/meta\" && "
	    "awk '$1 == \"metric\" { n++; if ($2 == \"lat_mean\") c = n + 2 }"
	    " $1 == \"iter\" && c { $c = $c * 100 } { print }' "
	    EX "/example-$l/probe@memfill.res > "
	    "\"$T/b/run$r/probe@memfill.res\" || exit 1; done"), 0);
	snprintf(args, sizeof(args), "--format csv %s/a %s/b", tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	out = out_text("out");
	/* slow,probe@memfill,lat_mean,...: significant is the 19th field */
	for (p = out; (p = strstr(p, "\nslow,probe@")); p++) {
		const char *q = p + 1;
		int f;

		for (f = 1; f < 19 && (q = strchr(q, ',')); f++)
			q++;
		stars += q && *q == '1';
	}
	ck_assert_msg(stars == 1, "%d probe figures significant in CSV",
	    stars);
	free(out);
	snprintf(args, sizeof(args), "%s/a %s/b", tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	out = out_text("out");
	p = strstr(out, "== memfill ==");
	ck_assert_msg(p != NULL, "%s", out);
	tu_assert_has(p, "\nslow       played 0.6 of 0.6 seconds (100%)\n"
	    "probe@memfill: lat_mean -9900.0%*\n");
	free(out);
	/* and the post, under the same benchmark */
	snprintf(args, sizeof(args), "--post %s/a %s/b", tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	out = out_text("out");
	tu_assert_has(out, "probe@memfill: lat_mean -9900.0%*");
	free(out);
	rmtmp();
}
END_TEST

/* The summary's geometric-mean line of @out (a copy), or NULL. */
static char *
geo_line(const char *out)
{
	const char *p = strstr(out, " ratio  95% CI\n"), *e;

	if (!p)
		return NULL;
	p += strlen(" ratio  95% CI\n");
	e = strchr(p, '\n') ? strchr(p, '\n') : p + strlen(p);
	return strndup(p, (size_t)(e - p));
}

/*
 * The geometric mean's members do not depend on the order of names:
 * one benchmark (fileload@c2, first by name) has a run more on one
 * side than every other; renamed to sort last (zfileload@c2), the
 * summary's line is the same, and its metrics are the many of the run
 * counts most share, not the few of the first name (38 of 2/3 runs).
 */
START_TEST(geo_order_free)
{
	char args[512], *out, *l1, *l2;
	int nmet = 0;

	mktmp();
	ck_assert_int_eq(sh("mkdir \"$T/a\" \"$T/b\" && "
	    "cp -r " EX "/example-a \"$T/a/run1\" && "
	    "cp -r " EX "/example-b \"$T/a/run2\" && "
	    "cp -r " EX "/example-c \"$T/b/run1\" && "
	    "cp -r " EX "/example-d \"$T/b/run2\" && "
	    "cp -r " EX "/example-e \"$T/b/run3\" && "
	    "cd \"$T/b/run3\" && for f in *; do case $f in meta|fileload@c2.*)"
	    " ;; *) rm -f \"$f\";; esac; done"), 0);
	snprintf(args, sizeof(args), "--summary %s/a %s/b", tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	out = out_text("out");
	l1 = geo_line(out);
	ck_assert_msg(l1 != NULL, "no geometric mean: %s", out);
	free(out);
	ck_assert_int_eq(sh("for d in \"$T\"/a/run* \"$T\"/b/run*; do "
	    "for f in \"$d\"/fileload@c2.*; do mv \"$f\" "
	    "\"$d/zfileload@c2.${f##*.}\" || exit 1; done; "
	    "sed -i 's/^bench fileload$/bench zfileload/' "
	    "\"$d/zfileload@c2.res\" || exit 1; done"), 0);
	ck_assert_int_eq(report(args), 0);
	out = out_text("out");
	l2 = geo_line(out);
	ck_assert_msg(l2 != NULL, "no geometric mean: %s", out);
	ck_assert_msg(strstr(out, "zfileload") != NULL, "not renamed: %s",
	    out);
	free(out);
	ck_assert_msg(!strcmp(l1, l2), "fileload@c2: '%s', zfileload@c2: "
	    "'%s'", l1, l2);
	ck_assert_msg(sscanf(l1, "%*s %d", &nmet) == 1 && nmet >= 50,
	    "%d metrics: %s", nmet, l1);
	free(l1);
	free(l2);
	rmtmp();
}
END_TEST

/*
 * A run of a label made with other iterations (ITERATIONS=) or on other
 * CPUs cannot be pooled with the label's first run: it is left out, said
 * in one line on stderr naming the run, the setting and both values, and
 * the comparison goes on with the runs that pool.
 */
START_TEST(unpoolable_run_named)
{
	char args[512], *err, *out;

	mktmp();
	ck_assert_int_eq(sh("mkdir \"$T/m\" && "
	    "cp -r " EX "/example-a \"$T/m/run1\" && "
	    "cp -r " EX "/example-b \"$T/m/run2\" && "
	    "cp -r " EX "/example-c \"$T/m/run3\" && "
	    "sed -i 's/^iterations=.*/iterations=1/' \"$T/m/run2/meta\" && "
	    "echo cpus=0 >> \"$T/m/run3/meta\""), 0);
	snprintf(args, sizeof(args), EX "/example-d %s/m", tmp);
	ck_assert_int_eq(report(args), 0);
	err = out_text("err");
	ck_assert_msg(strstr(err, "run2 left out: other settings (iterations "
	    "1 (run1: 2-3)); run3 left out: other settings (cpus 0 (run1: "
	    "all))\n"), "%s", err);
	ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "not one "
	    "line: %s", err);
	out = out_text("out");
	ck_assert_msg(strstr(out, "1 run") != NULL, "%s", out);
	free(out);
	free(err);
	rmtmp();
}
END_TEST

/*
 * The default view's "--detail has N more metrics" counts what --detail
 * shows beyond it: of forkbomb's three metrics that are not key,
 * pgscan_total is zero in every run (a note, not a row, in --detail)
 * and is not counted; delta and spread are, and spread (10 against
 * about 100, 5 runs a side) is starred there.
 */
START_TEST(detail_more_count)
{
	char args[512], *out;

	mktmp();
	edge_folders("iter 1 1.0 0 0 -1 10 100\niter 2 1.1 0 0 1 12 110\n"
	    "iter 3 1.0 0 0 0 11 90\niter 4 1.05 0 0 1 10 95\n"
	    "iter 5 1.0 0 0 0 12 105\n",
	    "iter 1 1.0 0 0 1 100 101\niter 2 1.1 0 0 -1 102 108\n"
	    "iter 3 1.0 0 0 0 98 92\niter 4 1.05 0 0 1 101 96\n"
	    "iter 5 1.0 0 0 0 99 104\n");
	snprintf(args, sizeof(args), "%s/a %s/b", tmp, tmp);
	out = tu_unwrap(view(args));
	/* starred in the second tier: named under the benchmark */
	ck_assert_msg(strstr(out, "\nalso changed: spread -809.1%*\n"), "%s",
	    out);
	free(out);
	snprintf(args, sizeof(args), "--detail %s/a %s/b", tmp, tmp);
	out = view(args);
	tu_assert_lacks(out, "\npgscan_total");
	tu_assert_has(out, "\ndelta");
	tu_assert_has(out, "\nspread");
	free(out);
	rmtmp();
}
END_TEST

/*
 * docs/report.md's list of the machine's counters ([system]) names
 * every metric model_scope_of() tags so: the names quoted in its sys[]
 * list in src/report/model.c, each as `name` in the docs' paragraph
 * that begins "- the whole machine's".
 */
START_TEST(docs_system_list)
{
	char *src = tu_slurp("src/report/model.c");
	char *doc = tu_slurp("docs/report.md");
	char name[64], want[80];
	const char *p, *e, *para, *pend, *d;
	int n = 0;

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(doc);
	para = strstr(doc, "\n- the whole machine's");
	ck_assert_ptr_nonnull(para);
	pend = strstr(para + 1, "\n- ");
	ck_assert_ptr_nonnull(pend);
	p = strstr(src, "sys[] = {");
	ck_assert_ptr_nonnull(p);
	e = strstr(p, "NULL");
	ck_assert_ptr_nonnull(e);
	while ((p = strchr(p, '"')) && p < e) {
		size_t len = strcspn(p + 1, "\"");

		ck_assert_uint_lt(len, sizeof(name));
		memcpy(name, p + 1, len);
		name[len] = '\0';
		snprintf(want, sizeof(want), "`%s`", name);
		d = strstr(para, want);
		ck_assert_msg(d && d < pend, "docs/report.md: %s is not in the "
		    "[system] list", want);
		p += len + 2;
		n++;
	}
	ck_assert_int_ge(n, 18);
	free(src);
	free(doc);
}
END_TEST

/*
 * T/@side/runN (N = 1, 2, ...) holding a forkbomb.res each (EDGE_HEAD's
 * metrics), whose forks_per_s iterations are @fps[N - 1] - 1, fps, +1:
 * folders of several runs, as make run makes them.
 */
static void
run_folder(const char *side, const char *meta, const double *fps, int n)
{
	char rel[64], path[256], text[2048];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "%s", side);
		mkdir(at(path, rel), 0755);
		snprintf(rel, sizeof(rel), "%s/run%d", side, i + 1);
		snprintf(text, sizeof(text), EX "/%s", meta);
		tu_copy_files(text, at(path, rel), "meta", NULL);
		snprintf(text, sizeof(text), "%siter 1 1.0 0 - 1 10 %g\n"
		    "iter 2 1.0 0 - 1 10 %g\niter 3 1.0 0 - 1 10 %g\nend\n",
		    EDGE_HEAD, fps[i] - 1, fps[i], fps[i] + 1);
		snprintf(rel, sizeof(rel), "%s/run%d/forkbomb.res", side,
		    i + 1);
		put(rel, text);
	}
}

/*
 * T/@side/runN holding a forkbomb.res each whose forks_per_s iterations
 * are @fps[N - 1] - 1, fps, + 1 (elapsed 1000 / fps, minflt 500) and
 * whose foreign_cpu is @cpu[N - 1] in every iteration: the load beside
 * each run.
 */
#define LOAD_HEAD "vmbench-result 1\nbench forkbomb\nvariant default\n" \
	"cmdline forkbomb\nstatus complete\nstarted -\nended -\n" \
	"headline forks_per_s\nmetric elapsed s lower\n" \
	"metric minflt faults lower\nmetric forks_per_s forks/s higher\n" \
	"metric foreign_cpu % info\n"

static void
load_folder(const char *side, const double *fps, const double *cpu, int n)
{
	char rel[64], path[256], text[2048];
	int i, it, used;

	for (i = 0; i < n; i++) {
		/* example-a's meta (a folder of one run: no run key) */
		snprintf(rel, sizeof(rel), "%s", side);
		mkdir(at(path, rel), 0755);
		snprintf(rel, sizeof(rel), "%s/run%d", side, i + 1);
		tu_copy_files(EX "/example-a", at(path, rel), "meta", NULL);
		tu_meta_set(path, "label", side);
		used = snprintf(text, sizeof(text), "%s", LOAD_HEAD);
		for (it = 0; it < 3; it++)
			used += snprintf(text + used, sizeof(text) - used,
			    "iter %d %.6f 500 %g %g\n", it + 1, 1000 /
			    (fps[i] + it - 1), fps[i] + it - 1, cpu[i]);
		snprintf(text + used, sizeof(text) - used, "end\n");
		snprintf(rel, sizeof(rel), "%s/run%d/forkbomb.res", side,
		    i + 1);
		put(rel, text);
	}
}

/*
 * Sides under different loads (docs/report.md): a ran quiet but for
 * one run (1%, 2%, 95% of a CPU: mean 33%), b beside a CPU hog in
 * every run (150, 160, 170%: mean 160%, 127 points and 79% apart, more
 * than 5 points and a quarter of 160), the figures equal; c the same
 * load as b and forks_per_s 30% higher; w quiet as a's first runs and
 * 30% lower, l as w beside the hog.  b and c: can't tell, never
 * starred, in every view; w: changed*, a regression; l: none.
 */
START_TEST(load_sides)
{
	static const double fa[] = { 100, 101, 99 }, fc[] = { 130, 131, 129 };
	static const double fw[] = { 70, 71, 69 };
	static const double qa[] = { 1, 2, 95 }, qb[] = { 150, 160, 170 };
	static const double qw[] = { 1, 2, 1 };
	char args[512], *out, *l;

	mktmp();
	load_folder("a", fa, qa, 3);
	load_folder("b", fa, qb, 3);
	load_folder("c", fc, qb, 3);
	load_folder("w", fw, qw, 3);
	load_folder("l", fw, qb, 3);
	load_folder("q", fa, qw, 3);
	snprintf(args, sizeof(args), "%s/a %s/b %s/c", tmp, tmp, tmp);
	out = tu_unwrap(view(args));
	ck_assert_msg(strstr(out, "\na: 1 of 3 runs loud, 95% of a CPU; b: 3 "
	    "of 3 runs, 150-170%; c: 3 of 3 runs, 150-170% (loud: "), "%s",
	    out);
	ck_assert_msg(strstr(out, "warning: b and a ran under different loads "
	    "(other processes' CPU, the runs' means: a 1.0-95%, b 150-170% of "
	    "a CPU) in forkbomb: their time and rate figures read can't "
	    "tell"), "%s", out);
	/* one word for both: said once */
	ck_assert_msg(strstr(out, "\nverdict forks_per_s: can't tell: the "
	    "sides ran under different loads\n"), "%s", out);
	ck_assert_msg(!strstr(out, ")*"), "starred: %s", out);
	free(out);
	/* --detail: each run's load, and the verdict cell */
	snprintf(args, sizeof(args), "--detail %s/a %s/c", tmp, tmp);
	out = tu_unwrap(view(args));
	ck_assert_msg(strstr(out, "load by run (other processes' CPU, % of a "
	    "CPU, a run's mean over its iterations): a run 1 1.0%, run 2 "
	    "2.0%, run 3 95%; c run 1 150%, run 2 160%, run 3 170%\n"), "%s",
	    out);
	ck_assert_msg(strstr(out, "loads differ"), "%s", out);
	free(out);
	/* CSV and JSON: the reason; minflt, a count, is not held */
	snprintf(args, sizeof(args), "--format csv %s/a %s/c", tmp, tmp);
	out = view(args);
	l = line_of(out, "c,forkbomb,forks_per_s,");
	assert_field(out, l, "verdict", "can't tell");
	assert_field(out, l, "verdict_reason", "different_loads");
	free(l);
	l = line_of(out, "c,forkbomb,elapsed,");
	assert_field(out, l, "verdict_reason", "different_loads");
	free(l);
	l = line_of(out, "c,forkbomb,minflt,");
	assert_field(out, l, "verdict_reason", "");
	free(l);
	free(out);
	snprintf(args, sizeof(args), "--format json %s/a %s/c", tmp, tmp);
	out = view(args);
	ck_assert_msg(strstr(out, "\"verdict\": \"can't tell\"") &&
	    strstr(out, "\"verdict_reason\": \"different_loads\""), "%s",
	    out);
	free(out);
	/* the post, the charts' summary and the page */
	snprintf(args, sizeof(args), "--post %s/a %s/c", tmp, tmp);
	out = tu_unwrap(view(args));
	ck_assert_msg(strstr(out, "can't tell: the sides ran under different "
	    "loads") && !strstr(out, ")*"), "%s", out);
	free(out);
	snprintf(args, sizeof(args), "--plot %s/ch %s/a %s/c", tmp, tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	out = out_text("ch/summary.gp");
	ck_assert_msg(out && strstr(out, "'can''t tell: the sides ran under "
	    "different loads'"), "%s", out ? out : "no ch/summary.gp");
	free(out);
	snprintf(args, sizeof(args), "--html %s/h %s/a %s/c", tmp, tmp, tmp);
	ck_assert_int_eq(report(args), 0);
	out = out_text("h/index.html");
	ck_assert_msg(out && strstr(out, "can&#39;t tell: the sides ran under "
	    "different loads"), "%s", out ? out : "no h/index.html");
	free(out);
	/* the gate: a real change at equal loads, none under different */
	snprintf(args, sizeof(args), "--fail-on-regression 5 %s/q %s/w", tmp,
	    tmp);
	ck_assert_int_eq(report(args), 3);
	out = out_text("out");
	ck_assert_msg(strstr(out, "verdict forks_per_s: changed* -30.0%"),
	    "%s", out);
	free(out);
	snprintf(args, sizeof(args), "--fail-on-regression 5 %s/q %s/l", tmp,
	    tmp);
	ck_assert_int_eq(report(args), 0);
	rmtmp();
}
END_TEST

/*
 * The change the runs could detect counts runs and comes from the
 * verdict's own test: 3 runs a side whose forks_per_s run means are
 * 100, 120, 80 (iterations 99 100 101, ...): the pooled variance of
 * their logs 0.0412394 on 4 df, se sqrt(0.0412394 x 2/3) = 0.165810,
 * a family of one at the default view's level 0.04: e^((t(0.98, 4) +
 * t(0.8, 4)) se) - 1 = e^((2.998528 + 0.940965) 0.165810) - 1 =
 * 92.2%, said 93% (the 9
 * iterations pooled would give 9 "runs" and far less).  Against one run of 260: nothing
 * detectable, the verdict's runs a side from the 3 runs' CoV: the
 * change, +160%, is above the 1% bound, so the runs that would detect
 * +160% at CoV 20%: 2 (2 (t(0.975, 2) + t(0.8, 2))^2 (0.2 / 1.6)^2 =
 * 0.90 <= 2), and the prediction interval of one more run of a:
 * 100 +- t(0.975, 2) 20 sqrt(1 + 1/3) = 100 +- 4.3027 x 23.094 =
 * [0.63, 199.37], printed [0.6, 199.4], which 260 is outside.
 */
START_TEST(run_level_notes)
{
	static const double a[] = { 100, 120, 80 }, lone[] = { 260 };
	char args[512], *out;

	mktmp();
	run_folder("a", "example-a", a, 3);
	run_folder("b", "example-b", a, 3);
	run_folder("c", "example-b", lone, 1);
	snprintf(args, sizeof(args), "%s/a %s/b", tmp, tmp);
	out = view(args);
	ck_assert_msg(strstr(out, "\n~ detectable with 3 runs a side: "
	    "headline forks_per_s 93%\n"), "%s", out);
	free(out);
	snprintf(args, sizeof(args), "%s/a %s/c", tmp, tmp);
	out = tu_unwrap(view(args));
	/* never fewer runs a side than the comparison has */
	ck_assert_msg(strstr(out, "\nverdict forks_per_s: can't tell (4 "
	    "runs a side would decide); example-b's run is outside "
	    "example-a's 95% prediction interval [0.6, 199.4]\n"), "%s",
	    out);
	tu_assert_lacks(out, "~ detectable");
	free(out);
	rmtmp();
}
END_TEST

/*
 * Two folders of the quick suite (tests/fixtures/quick-a, quick-b: the
 * .res files and meta of two make run KERNEL=tv-a, tv-b of
 * configs/quick.conf, one run each, on a busy machine) fit the default
 * view's budget of 130 lines; a note said under several benchmarks is
 * said once at the top (the ext4 note of vmlat and tio's creates; a
 * note added here to every .res, once for both folders without a list
 * of benchmarks; every .res there has a note), one the settings already
 * say (ran beside) not again;
 * vmlat and tio show their own key figures, not the common ones; and
 * --detail keeps every note under every benchmark.
 */
START_TEST(quick_suite_budget)
{
	static const char ext4[] = "the work folder is on ext4 without a "
	    "journal";
	static const char every[] = "! tv-a, tv-b: the same note on every "
	    "benchmark\n";
	struct vb_res r;
	char args[512], *out, *p;
	int lines = 0, n;
	glob_t g;
	size_t i;

	mktmp();
	out = view(FX "/quick-a " FX "/quick-b");
	for (p = out; *p; p++)
		lines += *p == '\n';
	ck_assert_msg(lines <= 130, "%d lines", lines);
	tu_unwrap(out);
	for (n = 0, p = out; (p = strstr(p, ext4)); p++)
		n++;
	ck_assert_int_eq(n, 1);
	tu_assert_has(out, "\n! tv-a, tv-b (tio@creates_quick, "
	    "vmlat@quick): the work folder is on ext4");
	for (n = 0, p = out; (p = strstr(p, "ran beside another run")); p++)
		n++;
	ck_assert_int_eq(n, 1);		/* in the settings */
	p = strstr(out, "== vmlat@quick ==");
	ck_assert_ptr_nonnull(p);
	ck_assert_msg(!strncmp(strchr(p, '\n'), "\nfork_us~ ", 10), "%.80s",
	    p);
	p = strstr(out, "== tio@quick ==");
	ck_assert_msg(!strncmp(strchr(p, '\n'), "\nseq_write_mbs", 14),
	    "%.80s", p);
	free(out);
	tu_copy_tree(FX "/quick-a", at(args, "quick-a"));
	tu_copy_tree(FX "/quick-b", at(args, "quick-b"));
	snprintf(args, sizeof(args), "%s/quick-?/*.res", tmp);
	ck_assert_int_eq(glob(args, 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		tu_res_load(g.gl_pathv[i], &r);
		if (r.note)
			vb_res_add_note(&r, "the same note on every "
			    "benchmark");
		tu_res_store(g.gl_pathv[i], &r);
	}
	globfree(&g);
	snprintf(args, sizeof(args), "%s/quick-a %s/quick-b", tmp, tmp);
	out = view(args);
	p = strstr(out, every);
	ck_assert_msg(p && p < strstr(out, "\n== "), "%s", out);
	tu_assert_lacks(p + strlen(every), "the same note on");
	free(out);
	snprintf(args, sizeof(args), "--detail %s/quick-a %s/quick-b", tmp,
	    tmp);
	out = tu_unwrap(view(args));
	/* 14 results a folder, each note under its benchmark */
	for (n = 0, p = out; (p = strstr(p, "the same note on every")); p++)
		n++;
	ck_assert_int_eq(n, 28);
	for (n = 0, p = out; (p = strstr(p, ext4)); p++)
		n++;
	ck_assert_int_eq(n, 4);
	free(out);
	rmtmp();
}
END_TEST

/*
 * noisy is the metric's in every view: forks_per_s has a CoV of 10% in
 * a (100 110 90) and 0.5% in b (100 100.5 99.5): the text's ~ on the
 * name, and noisy 1/true in both kernels' CSV rows and JSON entries;
 * elapsed (1.0 everywhere) is noisy in neither.
 */
START_TEST(noisy_per_metric)
{
	char args[512], *out, *l;

	mktmp();
	edge_folders("iter 1 1.0 0 - 1 10 100\niter 2 1.0 0 - 1 12 110\n"
	    "iter 3 1.0 0 - 1 11 90\n", "iter 1 1.0 0 - 1 11 100\n"
	    "iter 2 1.0 0 - 1 11 100.5\niter 3 1.0 0 - 1 11 99.5\n");
	snprintf(args, sizeof(args), "%s/a %s/b", tmp, tmp);
	out = view(args);
	tu_assert_has(out, "\nforks_per_s~ ");
	tu_assert_has(out, "\nelapsed ");
	free(out);
	snprintf(args, sizeof(args), "--format csv %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(out, "example-a,forkbomb,forks_per_s,");
	assert_field(out, l, "noisy", "1");
	free(l);
	l = line_of(out, "example-b,forkbomb,forks_per_s,");
	assert_field(out, l, "noisy", "1");
	free(l);
	l = line_of(out, "example-b,forkbomb,elapsed,");
	assert_field(out, l, "noisy", "0");
	free(l);
	free(out);
	snprintf(args, sizeof(args), "--format json %s/a %s/b", tmp, tmp);
	out = view(args);
	l = line_of(after(after(out, "\"name\": \"forks_per_s\""),
	    "{\"kernel\": \"example-b\""), "{\"kernel\": \"example-b\"");
	ck_assert_msg(l && strstr(l, "\"noisy\": true"), "%s", l);
	free(l);
	free(out);
	rmtmp();
}
END_TEST

/* The module of src/report/@rel ("views/text.c": "views/text"). */
static void
module_of(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s", strncmp(rel, "forms/", 6) ? rel : "forms");
	if (strrchr(buf, '.') && !strchr(strrchr(buf, '.'), '/'))
		*strrchr(buf, '.') = '\0';
}

static int
rank_of(const char *mod)
{
	size_t i, n;

	for (i = 0; i < sizeof(layer) / sizeof(layer[0]); i++) {
		n = strlen(layer[i].mod);
		if (layer[i].mod[n - 1] == '/' ? !strncmp(mod, layer[i].mod,
		    n) : !strcmp(mod, layer[i].mod))
			return layer[i].rank;
	}
	return -1;
}

/*
 * The views table (VIEWS in src/report/vmreport.c): every view file
 * views/NAME.c has its views/NAME.h, a row named NAME, and its
 * #include in vmreport.c; every row's option is in --help with its
 * help line; and nothing else in vmreport.c lists the views (no
 * getopt table or switch, no usage text by hand): a view is its two
 * files and one row.
 */
START_TEST(views_table)
{
	char *src = tu_slurp_ok("src/report/vmreport.c"), *help, *p, *end;
	char name[64], opt[64], line[300], path[300];
	glob_t g;
	size_t i;
	int rows = 0;

	p = strstr(src, "#define VIEWS(X) \\\n");
	ck_assert_msg(p != NULL, "vmreport.c: no VIEWS(X) table");
	end = strstr(p, "\n\n");
	ck_assert_ptr_nonnull(end);
	help = malloc(1 << 16);
	ck_assert_ptr_nonnull(help);
	ck_assert_int_eq(tu_sh_out(help, 1 << 16, VMREPORT " --help"), 0);
	for (p = strstr(p, "\nX("); p && p < end; p = strstr(p + 1,
	    "\nX(")) {
		const char *h;

		ck_assert_int_eq(sscanf(p + 3, "%63[a-z_], %63[^,]", name,
		    opt), 2);
		rows++;
		if (!strcmp(opt, "NULL"))
			continue;		/* the default: no option */
		/* "--OPT ..." in --help, with the row's help text */
		snprintf(line, sizeof(line), "\n  --%.*s", (int)strlen(opt) - 2,
		    opt + 1);
		h = strstr(help, line);
		ck_assert_msg(h != NULL, "row %s: no %s in --help:\n%s", name,
		    line + 1, help);
		/* the help text: the row's second line, "..." */
		h = strstr(p, "\\\n    \"");
		ck_assert_msg(h && h < end, "row %s: no help line", name);
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(h + 7, "\""),
		    h + 7);
		ck_assert_msg(strstr(help, line) != NULL, "row %s: '%s' not in "
		    "--help:\n%s", name, line, help);
	}
	ck_assert_int_ge(rows, 7);
	ck_assert_int_eq(glob("src/report/views/*.c", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		struct stat st;

		ck_assert_int_eq(sscanf(g.gl_pathv[i], "src/report/views/"
		    "%63[a-z].c", name), 1);
		snprintf(path, sizeof(path), "src/report/views/%s.h", name);
		ck_assert_msg(stat(path, &st) == 0, "%s: no %s",
		    g.gl_pathv[i], path);
		snprintf(line, sizeof(line), "\nX(%s, ", name);
		ck_assert_msg(strstr(src, line) != NULL, "views/%s.c: no row "
		    "%s in VIEWS", name, line + 1);
		snprintf(line, sizeof(line), "#include \"views/%s.h\"", name);
		ck_assert_msg(strstr(src, line) != NULL, "vmreport.c: no %s",
		    line);
	}
	globfree(&g);
	/* no list of the views kept by hand beside the table */
	ck_assert_msg(!strstr(src, "getopt") && !strstr(src, "case '") &&
	    !strstr(src, "\"  --"), "vmreport.c: options kept by hand "
	    "beside its tables");
	free(help);
	free(src);
}
END_TEST

START_TEST(layers)
{
	static const char *const pat[] = { "src/report/*.[ch]",
		"src/report/*/*.[ch]" };
	char mod[256], tmod[256], dir[512], path[1024], name[256], q[300];
	glob_t g;
	DIR *d;
	struct dirent *e;
	size_t i, j;
	int ninc = 0;

	ck_assert_int_eq(glob(pat[0], 0, NULL, &g), 0);
	ck_assert_int_eq(glob(pat[1], GLOB_APPEND, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		const char *file = g.gl_pathv[i], *rel = file + 11;
		char *text = tu_slurp(file), *p;

		ck_assert_ptr_nonnull(text);
		module_of(mod, sizeof(mod), rel);
		ck_assert_msg(rank_of(mod) >= 0, "%s: module %s is in no layer "
		    "of this test (docs/architecture.md)", file, mod);
		snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(file, '/') -
		    file), file);
		for (p = text; (p = strstr(p, "#include \"")); p++) {
			struct stat st;

			ck_assert_int_eq(sscanf(p + 10, "%255[^\"]", name), 1);
			ninc++;
			/* where the compiler looks: here, src/lib, src/report */
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			if (stat(path, &st) != 0) {
				snprintf(path, sizeof(path), "src/lib/%s",
				    name);
				if (stat(path, &st) == 0)
					continue;	/* the core, below */
				snprintf(path, sizeof(path), "src/report/%s",
				    name);
				ck_assert_msg(stat(path, &st) == 0, "%s: no "
				    "header %s", file, name);
			}
			module_of(tmod, sizeof(tmod), path + 11);
			ck_assert_msg(!strcmp(mod, tmod) || rank_of(tmod) <
			    rank_of(mod), "%s includes %s: %s is not below %s",
			    file, name, tmod, mod);
		}
		/* the benchmarks are named in forms/ only */
		ck_assert_ptr_nonnull(d = opendir("src/bench"));
		while (strcmp(mod, "forms") && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			for (j = 0; j < 2; j++) {
				snprintf(q, sizeof(q), "\"%s%s", e->d_name,
				    j ? "@" : "\"");
				ck_assert_msg(!strstr(text, q), "%s names "
				    "the benchmark %s: a form's business "
				    "(src/report/forms/)", file, e->d_name);
			}
		}
		closedir(d);
		free(text);
	}
	ck_assert_int_gt(ninc, 50);
	globfree(&g);
}
END_TEST

Suite *
vmreport_suite(void)
{
	Suite *s = suite_create("vmreport");
	TCase *tc = tu_tcase_local("vmreport");

	tcase_set_timeout(tc, 30);
	tcase_add_unchecked_fixture(tc, make_base, remove_base);
	tcase_add_test(tc, golden);
	tcase_add_test(tc, width);
	tcase_add_test(tc, bad_folders);
	tcase_add_test(tc, bad_options);
	tcase_add_test(tc, vmstat_name_checked);
	tcase_add_test(tc, corrupt_res);
	tcase_add_test(tc, missing_benchmark_and_single);
	tcase_add_test(tc, different_params);
	tcase_add_test(tc, interrupted);
	tcase_add_test(tc, regression_gate);
	tcase_add_test(tc, long_labels);
	tcase_add_test(tc, accel_tcg);
	tcase_add_test(tc, post_also_changed);
	tcase_add_test(tc, own_counter_key);
	tcase_add_test(tc, system_moved_note);
	tcase_add_test(tc, bars_of_runs);
	tcase_add_test(tc, form_labels);
	tcase_add_test(tc, probe_line);
	tcase_add_test(tc, derived_vmstat);
	tcase_add_test(tc, warnings);
	tcase_add_test(tc, only);
	tcase_add_test(tc, charts);
	tcase_add_test(tc, examples_untouched);
	tcase_add_test(tc, geo_mean_two_runs);
	tcase_add_test(tc, no_run_on_a_side);
	tcase_add_test(tc, short_notes);
	tcase_add_test(tc, zero_one_form);
	tcase_add_test(tc, summary_headers_apart);
	tcase_add_test(tc, settings_differ);
	tcase_add_test(tc, settings_same);
	tcase_add_test(tc, min_change);
	tcase_add_test(tc, info_never_marked);
	tcase_add_test(tc, quiet_machine);
	tcase_add_test(tc, foreign_memory);
	tcase_add_test(tc, other_work);
	tcase_add_test(tc, cgroup_labels);
	tcase_add_test(tc, default_view);
	tcase_add_test(tc, one_run);
	tcase_add_test(tc, absent_and_zero_mean);
	tcase_add_test(tc, noise_n_and_mad0);
	tcase_add_test(tc, layers);
	tcase_add_test(tc, views_table);
	tcase_add_test(tc, run_verdicts);
	tcase_add_test(tc, detail_more_count);
	tcase_add_test(tc, unpoolable_run_named);
	tcase_add_test(tc, geo_order_free);
	tcase_add_test(tc, empty_family_plain);
	tcase_add_test(tc, probe_star_shown);
	tcase_add_test(tc, docs_system_list);
	tcase_add_test(tc, run_level_notes);
	tcase_add_test(tc, load_sides);
	tcase_add_test(tc, quick_suite_budget);
	tcase_add_test(tc, noisy_per_metric);
	suite_add_tcase(s, tc);
	return s;
}
