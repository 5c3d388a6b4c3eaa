/*
 * check_runs.c - src/lib/runs.c: the result folder's run rule, the one
 * vmrun, vmboots and the report share.  A run is "runN", N from 1 with
 * no leading zero: run007 and run1x are not runs (boots once counted
 * both), and a label's next run skips neither.  A flat label (meta at
 * its top) is refused as a folder of runs; a scan says what a label
 * holds; and the report loads run1/ and run2/ but not run007/.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs.h"
#include "testutil.h"

/* a shell command in tu_dir ($OLDPWD: the tree) */
#define sh(...)	tu_sh_in(tu_dir, "cd \"$T\" && " __VA_ARGS__)

START_TEST(index_rule)
{
	static const struct { const char *name; int n; } t[] = {
		{ "run1", 1 }, { "run9", 9 }, { "run10", 10 },
		{ "run999999", 999999 }, { "run", 0 }, { "run0", 0 },
		{ "run007", 0 }, { "run01", 0 }, { "run1x", 0 },
		{ "run-1", 0 }, { "run 1", 0 }, { "Run1", 0 },
		{ "run1000000", 0 }, { "xrun1", 0 }, { "run1/", 0 },
		{ "", 0 }, { "meta", 0 },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_msg(vb_run_index(t[i].name) == t[i].n,
		    "'%s': %d, not %d", t[i].name, vb_run_index(t[i].name),
		    t[i].n);
	ck_assert_str_eq(vb_run_name(buf, sizeof(buf), 12), "run12");
	ck_assert_int_eq(vb_run_index(vb_run_name(buf, sizeof(buf), 7)), 7);
	ck_assert_str_eq(vb_run_path(buf, sizeof(buf), "r/x", 3), "r/x/run3");
	ck_assert(vb_run_flat_entry("meta"));
	ck_assert(!vb_run_flat_entry("run1"));
}
END_TEST

START_TEST(next_drift)
{
	char dir[1024], err[1024];
	int next = -1;

	/* a label that is not there: its first run */
	tu_path(dir, sizeof(dir), "lab");
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), 0);
	ck_assert_int_eq(next, 1);
	/* run007 and run1x are no runs: they move nothing on */
	ck_assert_int_eq(sh("mkdir -p lab/run1 lab/run2 lab/run007 "
	    "lab/run1x lab/run0 && touch lab/run1/meta"), 0);
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), 0);
	ck_assert_int_eq(next, 3);
	ck_assert_int_eq(sh("mkdir lab/run12"), 0);
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), 0);
	ck_assert_int_eq(next, 13);
	/* a flat label (meta at its top), or a .res there, is one run */
	ck_assert_int_eq(sh("mkdir flat && echo vmbench_meta=1 > "
	    "flat/meta"), 0);
	tu_path(dir, sizeof(dir), "flat");
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), -1);
	tu_assert_has(err, "holds a single run");
	ck_assert_int_eq(sh("mkdir loose && touch loose/forkbomb.res"), 0);
	tu_path(dir, sizeof(dir), "loose");
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), -1);
	tu_assert_has(err, "loose holds a single run");
}
END_TEST

START_TEST(scan)
{
	struct vb_runs r;
	char dir[1024];

	tu_path(dir, sizeof(dir), "lab");
	ck_assert_int_eq(vb_runs_scan(dir, &r), 0);
	ck_assert_int_eq(r.top + r.last + r.empty + r.flat, 0);
	ck_assert_int_eq(sh("mkdir -p lab/run1 lab/run2 lab/run5 lab/run007 "
	    "&& touch lab/run1/meta lab/run2/meta lab/run9 && "
	    "ln -s run1 lab/run3"), 0);
	ck_assert_int_eq(vb_runs_scan(dir, &r), 0);
	ck_assert_int_eq(r.last, 2);		/* run3 is a symlink */
	ck_assert_int_eq(r.empty, 5);
	ck_assert_int_eq(r.top, 9);		/* a file, but a run's name */
	ck_assert_int_eq(r.flat, 0);
	ck_assert_int_eq(r.loose, 0);
	ck_assert(r.other[0]);
	ck_assert_int_eq(sh("touch lab/meta"), 0);
	ck_assert_int_eq(vb_runs_scan(dir, &r), 0);
	ck_assert_int_eq(r.flat, 1);
}
END_TEST

/* The report reads the same rule: run007/ is not one of the runs. */
START_TEST(report_same_rule)
{
	char out[8192], dir[512], to[512], num[8], res[600];
	char *fb[] = { "bench/forkbomb", "--forks", "1", "--ints", "1",
		"--iterations", "2", "--out", res, NULL };
	int rc, r;

	ck_assert_int_eq(mkdir(tu_path(dir, sizeof(dir), "lab"), 0755), 0);
	for (r = 1; r <= 2; r++) {
		snprintf(num, sizeof(num), "%d", r);
		snprintf(dir, sizeof(dir), "%s/lab/run%d", tu_dir, r);
		ck_assert_int_eq(mkdir(dir, 0755), 0);
		tu_meta_set(dir, "vmbench_meta", "1");
		tu_meta_set(dir, "label", "lab");
		tu_meta_set(dir, "status", "complete");
		tu_meta_set(dir, "run", num);
		snprintf(res, sizeof(res), "%s/forkbomb", dir);
		ck_assert_int_eq(tu_run(fb), 0);
	}
	tu_copy_tree(dir, tu_path(to, sizeof(to), "lab/run007"));
	tu_copy_tree(dir, tu_path(to, sizeof(to), "lab/run1x"));
	rc = tu_sh_out(out, sizeof(out), "cd '%s' && \"$OLDPWD\"/report/"
	    "vmreport lab lab 2>&1", tu_dir);
	ck_assert_msg(rc == 0, "vmreport: %d: %s", rc, out);
	tu_assert_has(out, "lab: 2 runs on 1 boot");
	tu_assert_lacks(out, "lab: 3 runs");
	tu_assert_lacks(out, "lab: 4 runs");
}
END_TEST

Suite *
runs_suite(void)
{
	Suite *s = suite_create("runs");
	TCase *tc = tu_tcase_local("runs");

	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, index_rule);
	tcase_add_test(tc, next_drift);
	tcase_add_test(tc, scan);
	tcase_add_test(tc, report_same_rule);
	suite_add_tcase(s, tc);
	return s;
}
