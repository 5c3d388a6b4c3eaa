/*
 * check_vmrun.c - end-to-end tests of the runner (bench/vmrun, behind
 * `make run`) and the harness: real programs on small configs
 * (configs/test.conf's lines, and others, at a few forks a line) into a
 * temporary results root, checked with the library's own readers; paths
 * vmrun refuses.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "meta.h"
#include "rload.h"
#include "res.h"
#include "testutil.h"

static char root[256];
static char case_dir[256];	/* the test case's, holding each root */

/*
 * Before the whole case, in the runner's own process: the case's folder
 * under the run's root, in which each test makes its own; other test
 * cases run beside this one, so what is left mounted is looked for in
 * it alone.
 */
static void
case_setup(void)
{
	tu_mkdtemp(case_dir, sizeof(case_dir), "vmrun");
}

/* The test's folder, in the case's (tests/testutil.h). */
static void
setup(void)
{
	if ((size_t)snprintf(root, sizeof(root), "%s/runner.XXXXXX",
	    case_dir) >= sizeof(root) || !mkdtemp(root))
		ck_abort_msg("cannot make a folder in %s", case_dir);
}

static void
teardown(void)
{
	char mnt[300];

	/* full_disk_fails's tmpfs, even when the test failed */
	snprintf(mnt, sizeof(mnt), "%s/full", root);
	umount2(mnt, MNT_DETACH);
	tu_rmtree(root);
}

/*
 * After the whole case, in the runner's own process: a test that failed
 * in its forked child skipped teardown(), so unmount any tmpfs it left
 * in the case's folder (the folder goes with the run's root).
 */
static void
umount_leftovers(void)
{
	tu_umount_under(case_dir);
}

/* A result file that the strict reader accepts, with @iters rows. */
static void
assert_res(const char *path, int iters, const char *status)
{
	struct vb_res r;
	char err[512];
	int m;

	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, status);
	ck_assert_int_eq(r.niter, iters);
	ck_assert_str_eq(r.bench, "forkbomb");
	m = vb_res_metric_index(&r, "forks_per_s");
	ck_assert_int_ge(m, 0);
	if (iters)
		ck_assert_double_gt(vb_res_get(&r, 0, m), 0);
	ck_assert_int_ge(vb_res_metric_index(&r, "pswpout"), 0);
	ck_assert_ptr_nonnull(vb_res_param(&r, "forks"));
	vb_res_free(&r);
}

static char *write_conf(char *, size_t, const char *, const char *);

/*
 * configs/test.conf's lines (two iterations of a line, one of a line of
 * 4 children at once) at 4 forks a line instead of 500, in @root: its
 * path.  A run of configs/test.conf itself, 1500 forks, took 4 s of CPU
 * and 10 s under load for the same checks.
 */
static char *
shape_conf(char *buf, size_t len)
{
	return write_conf(buf, len, "shape.conf", "iterations 2\nforkbomb "
	    "--forks 4 --ints 100\nforkbomb@par --forks 4 --ints 100 "
	    "--concurrency 4 iterations=1\n");
}

START_TEST(run_writes_valid_folder)
{
	char out[8192], path[512], err[512], conf[512];
	struct vb_kv *kv;
	FILE *f;
	int n, rc;
	static const char *const keys[] = {
		"label", "uname_r", "uname_v", "uname_m", "cmdline",
		"cpu_model", "cpu_count", "mem_total_kb", "swap_total_kb",
		"thp_enabled", "swappiness", "dirty_ratio",
		"dirty_background_ratio", "workdir_fstype", "workdir_journal",
		"start", "end",
		"vmbench_version", "config", "config_cksum", "run", "boot_id",
		"uptime_start",
	};
	char boot[64];
	double up;
	size_t i;

	shape_conf(conf, sizeof(conf));
	rc = tu_sh_out(out, sizeof(out), "make -s run KERNEL=e2e-a "
	    "CONFIG=%s RESULTS=%s WORKDIR=%s/work 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "make run failed (%d): %s", rc, out);
	tu_assert_has(out, "forks_per_cpu_s");
	snprintf(path, sizeof(path), "%s/e2e-a/run1/forkbomb.res", root);
	assert_res(path, 2, "complete");
	snprintf(path, sizeof(path), "%s/e2e-a/run1/forkbomb@par.res", root);
	assert_res(path, 1, "complete");
	snprintf(path, sizeof(path), "%s/e2e-a/run1/forkbomb.vmstat", root);
	ck_assert_int_eq(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/e2e-a/run1/forkbomb.log", root);
	ck_assert_int_eq(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/e2e-a/run1/meta", root);
	ck_assert_msg(vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0,
	    "%s", err);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ck_assert_msg(vb_meta_get(kv, n, keys[i]) != NULL,
		    "meta lacks %s", keys[i]);
	ck_assert_str_eq(vb_meta_get(kv, n, "status"), "complete");
	ck_assert_str_eq(vb_meta_get(kv, n, "label"), "e2e-a");
	ck_assert_str_eq(vb_meta_get(kv, n, "run"), "1");
	/* this boot's id; an uptime since it, before now */
	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(boot, sizeof(boot), f));
	fclose(f);
	boot[strcspn(boot, "\n")] = '\0';
	ck_assert_str_eq(vb_meta_get(kv, n, "boot_id"), boot);
	f = fopen("/proc/uptime", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%lf", &up), 1);
	fclose(f);
	ck_assert_double_gt(atof(vb_meta_get(kv, n, "uptime_start")), 0);
	ck_assert_double_le(atof(vb_meta_get(kv, n, "uptime_start")), up);
	ck_assert_ptr_null(vb_meta_get(kv, n, "unit"));
	vb_meta_free(kv, n);
	/* the label holds the run and nothing else */
	snprintf(path, sizeof(path), "%s/e2e-a", root);
	ck_assert_int_eq(tu_count_except(path, "run1"), 0);
	ck_assert_msg(strstr(out, "/e2e-a: 1 run on 1 boot\n") != NULL, "%s",
	    out);
	/* the harness removed its private folders */
	snprintf(path, sizeof(path), "%s/work", root);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
}
END_TEST

/* Value of @key in the meta of run folder @dir (static buffer). */
static const char *
meta_val(const char *dir, const char *key)
{
	static char val[256];
	struct vb_kv *kv;
	char path[600], err[512];
	int n;

	snprintf(path, sizeof(path), "%s/meta", dir);
	ck_assert_msg(vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_msg(vb_meta_get(kv, n, key) != NULL, "%s lacks %s", path,
	    key);
	snprintf(val, sizeof(val), "%s", vb_meta_get(kv, n, key));
	vb_meta_free(kv, n);
	return val;
}

/* Write config @text to @root/@name; its path into @buf. */
static char *
write_conf(char *buf, size_t len, const char *name, const char *text)
{
	FILE *f;

	snprintf(buf, len, "%s/%s", root, name);
	f = fopen(buf, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/*
 * A config of one line of two short iterations, in @root: its path (2
 * forks an iteration: a run's CPU is then vmrun's own, not forkbomb's).
 */
static char *
two_iter_conf(char *buf, size_t len)
{
	return write_conf(buf, len, "two-iter.conf",
	    "iterations 2\nforkbomb --forks 2 --ints 10\n");
}

/*
 * A second run of a label adds run2/, run1 untouched; FORCE=1 replaces
 * every run.
 */
START_TEST(existing_label_adds_run)
{
	char out[8192], path[512], dir[512], conf[512];
	struct stat a, b;
	int rc;

	two_iter_conf(conf, sizeof(conf));
	rc = tu_sh_out(NULL, 0, "bench/vmrun --kernel same --config "
	    "%s --results %s --workdir %s 2>&1", conf, root, root);
	ck_assert_int_eq(rc, 0);
	snprintf(path, sizeof(path), "%s/same/run1/meta", root);
	ck_assert_int_eq(stat(path, &a), 0);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel same --config "
	    "%s --results %s --workdir %s 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_msg(strstr(out, "/same: 2 runs on 1 boot\n") != NULL, "%s",
	    out);
	ck_assert_int_eq(stat(path, &b), 0);
	ck_assert_int_eq(a.st_mtim.tv_sec, b.st_mtim.tv_sec);
	ck_assert_int_eq(a.st_mtim.tv_nsec, b.st_mtim.tv_nsec);
	snprintf(dir, sizeof(dir), "%s/same/run2", root);
	ck_assert_str_eq(meta_val(dir, "run"), "2");
	ck_assert_str_eq(meta_val(dir, "status"), "complete");
	snprintf(path, sizeof(path), "%s/same/run2/forkbomb.res", root);
	assert_res(path, 2, "complete");
	/* FORCE=1 replaces them all */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel same --config "
	    "%s --results %s --workdir %s --force 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_msg(strstr(out, "/same: 1 run on 1 boot\n") != NULL, "%s",
	    out);
	snprintf(dir, sizeof(dir), "%s/same", root);
	ck_assert_int_eq(tu_count_except(dir, "run1"), 0);
	snprintf(dir, sizeof(dir), "%s/same/run1", root);
	ck_assert_str_eq(meta_val(dir, "run"), "1");
}
END_TEST

/* A two-line config with one iteration a line, in @root: its path. */
static char *
tiny_conf(char *buf, size_t len)
{
	return write_conf(buf, len, "tiny.conf", "iterations 1\nforkbomb "
	    "--forks 2 --ints 10\nforkbomb@b --forks 2 --ints 10\n");
}

/* Label @label in @root holds run1..run3, complete, on this boot. */
static void
assert_three_runs(const char *label)
{
	char dir[512], boot[64], path[600], prev[32] = "";
	FILE *f;
	int i;

	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(boot, sizeof(boot), f));
	fclose(f);
	boot[strcspn(boot, "\n")] = '\0';
	snprintf(dir, sizeof(dir), "%s/%s", root, label);
	ck_assert_int_eq(tu_count_except(dir, "run"), 0);
	ck_assert_int_eq(tu_count_except(dir, ""), 3);
	for (i = 1; i <= 3; i++) {
		char want[8];

		snprintf(dir, sizeof(dir), "%s/%s/run%d", root, label, i);
		snprintf(want, sizeof(want), "%d", i);
		ck_assert_str_eq(meta_val(dir, "run"), want);
		ck_assert_str_eq(meta_val(dir, "status"), "complete");
		ck_assert_str_eq(meta_val(dir, "boot_id"), boot);
		/* each run its own start, in order, ended */
		ck_assert_msg(strcmp(meta_val(dir, "start"), prev) >= 0,
		    "run%d starts before run%d", i, i - 1);
		snprintf(prev, sizeof(prev), "%s", meta_val(dir, "start"));
		ck_assert_str_ne(meta_val(dir, "end"), "-");
		snprintf(path, sizeof(path), "%s/forkbomb@b.res", dir);
		ck_assert_int_eq(access(path, R_OK), 0);
	}
}

/*
 * RUNS=3 and three separate runs both give a label of three runs, which
 * the report reads as such; RUNS=3 runs every line of run 1, then of run
 * 2, then of run 3.  RUNS=3 goes through make; the separate runs call
 * bench/vmrun, as make run does (run_writes_valid_folder covers make).
 */
START_TEST(runs_three_ways)
{
	char out[16384], conf[512], order[16] = "", *p;
	int rc, i;

	tiny_conf(conf, sizeof(conf));
	rc = tu_sh_out(out, sizeof(out), "make -s run KERNEL=r3 RUNS=3 CONFIG=%s "
	    "RESULTS=%s WORKDIR=%s/work 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "make run RUNS=3 failed (%d): %s", rc, out);
	for (p = out; (p = strstr(p, "\n[")) && strlen(order) < 15; p++)
		if (!strncmp(p, "\n[1/2] forkbomb: ", 17) ||
		    !strncmp(p, "\n[2/2] forkbomb@b: ", 19))
			order[strlen(order)] = p[2];
	ck_assert_str_eq(order, "121212");
	for (i = 1; i <= 3; i++) {
		char want[64];

		snprintf(want, sizeof(want), "vmrun: run %d of 3 into ", i);
		ck_assert_msg(strstr(out, want) != NULL, "%s", out);
	}
	ck_assert_msg(strstr(out, "/r3: 3 runs on 1 boot\n") != NULL, "%s",
	    out);
	assert_three_runs("r3");
	for (i = 1; i <= 3; i++) {
		rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel s3 "
		    "--config %s --results %s --workdir %s/work 2>&1", conf,
		    root, root);
		ck_assert_msg(rc == 0, "run %d failed (%d): %s", i, rc, out);
	}
	ck_assert_msg(strstr(out, "/s3: 3 runs on 1 boot\n") != NULL, "%s",
	    out);
	assert_three_runs("s3");
	/* the report: three runs a label, every iteration pooled */
	rc = tu_sh_out(out, sizeof(out), "report/vmreport --detail %s/r3 %s/s3 2>&1",
	    root, root);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_msg(strstr(out, "\nr3: 3 runs on 1 boot (one boot: "
	    "boot-to-boot variance not measured)\ns3: 3 runs on 1 boot (one "
	    "boot: boot-to-boot variance not measured)\n") != NULL, "%.2000s",
	    out);
	{
		struct rl_kernel k;
		char dir[512], err[1024];
		double m[3];

		snprintf(dir, sizeof(dir), "%s/r3", root);
		ck_assert_msg(rl_load_kernel(dir, &k, err, sizeof(err)) == 0,
		    "%s", err);
		ck_assert_int_eq(k.nruns, 3);
		ck_assert_int_eq(k.nboots, 1);
		ck_assert_ptr_null(k.note);
		ck_assert_int_eq(rl_find(&k, "forkbomb@b")->niter, 3);
		ck_assert_int_eq(rl_run_means(&k, "forkbomb@b", "forks_per_s",
		    m), 3);
		/* one iteration a run: each run's mean is its iteration */
		for (i = 0; i < 3; i++)
			ck_assert_double_eq(m[i], vb_res_get(rl_find(&k,
			    "forkbomb@b"), i, vb_res_metric_index(rl_find(&k,
			    "forkbomb@b"), "forks_per_s")));
		rl_free_kernel(&k);
	}
}
END_TEST

/*
 * An older label folder (one run at its top) is moved into run1/ before
 * the next run: each entry renamed (the same inode), meta last; a move
 * cut short (meta still at the top) is finished.
 */
START_TEST(flat_moved_to_run1)
{
	char out[8192], conf[512], path[600], want[700];
	struct stat a, b;
	int rc;

	tiny_conf(conf, sizeof(conf));
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel fl --config %s "
	    "--results %s --workdir %s 2>&1 && cd %s/fl && mv run1/* . && "
	    "rmdir run1 && mkdir ../fh && cp -p * ../fh && mkdir ../fh/run1 "
	    "&& mv ../fh/forkbomb.log ../fh/run1/", conf, root, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(path, sizeof(path), "%s/fl/forkbomb.res", root);
	ck_assert_int_eq(stat(path, &a), 0);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel fl --config %s "
	    "--results %s --workdir %s 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(want, sizeof(want), "vmrun: %s/fl held one run (meta at its "
	    "top): moved into %s/fl/run1/, each entry renamed, meta last\n",
	    root, root);
	ck_assert_msg(strstr(out, want) != NULL, "%s", out);
	ck_assert_msg(strstr(out, "/fl: 2 runs on 1 boot\n") != NULL, "%s",
	    out);
	snprintf(path, sizeof(path), "%s/fl/run1/forkbomb.res", root);
	ck_assert_int_eq(stat(path, &b), 0);
	ck_assert_int_eq(a.st_ino, b.st_ino);
	snprintf(path, sizeof(path), "%s/fl", root);
	ck_assert_int_eq(tu_count_except(path, "run"), 0);
	snprintf(path, sizeof(path), "%s/fl/run1", root);
	/* meta, and .res .vmstat .log of each of the two lines */
	ck_assert_int_eq(tu_count_except(path, ""), 7);
	ck_assert_str_eq(meta_val(path, "status"), "complete");
	snprintf(path, sizeof(path), "%s/fl/run2", root);
	ck_assert_str_eq(meta_val(path, "run"), "2");
	/* the move cut short: forkbomb.log already in run1/ */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel fh --config %s "
	    "--results %s --workdir %s 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(path, sizeof(path), "%s/fh/run1", root);
	ck_assert_int_eq(tu_count_except(path, ""), 7);
	snprintf(path, sizeof(path), "%s/fh", root);
	ck_assert_int_eq(tu_count_except(path, "run"), 0);
	ck_assert_int_eq(tu_count_except(path, ""), 2);
}
END_TEST

/* RUNS= that is not a whole number from 1 to 1000: one line, nothing. */
START_TEST(bad_runs_refused)
{
	static const char *const bad[] = {
		"0", "x", "1001", "-1", "2.5", " 3", "3x", "",
	};
	char out[4096], dir[512], want[128];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel br --runs '%s' "
		    "--config configs/test.conf --results %s/res --workdir %s "
		    "2>&1", bad[i], root, root);
		snprintf(want, sizeof(want), "vmrun: --runs '%s': give a whole "
		    "number from 1 to 1000\n", bad[i]);
		ck_assert_msg(rc == 1, "'%s' accepted (%d): %s", bad[i], rc,
		    out);
		ck_assert_str_eq(out, want);
	}
	/* through make */
	rc = tu_sh_out(out, sizeof(out), "make -s run KERNEL=br RUNS=0 "
	    "CONFIG=configs/test.conf RESULTS=%s/res WORKDIR=%s 2>&1", root,
	    root);
	ck_assert_int_ne(rc, 0);
	ck_assert_msg(strstr(out, "vmrun: --runs '0': give a whole number "
	    "from 1 to 1000\n") == out, "%s", out);
	snprintf(dir, sizeof(dir), "%s/res/br", root);
	ck_assert_int_ne(access(dir, F_OK), 0);
	/* make ab has no runs of its own */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel br --a thp=never --b "
	    "thp=always --runs 2 --config configs/test.conf --results %s/res "
	    "--workdir %s 2>&1", root, root);
	ck_assert_int_ne(rc, 0);
	ck_assert_msg(strstr(out, "vmrun: --runs is for make run") == out &&
	    strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
}
END_TEST

/*
 * --cpus 0 (make run CPUS=0): what the programs start runs on CPU 0
 * only (vmlat's exec helper, a script here, writes the CPUs it may use)
 * and the meta says cpus=0; a list that is not one is refused in one
 * line before anything runs.
 */
START_TEST(cpus_pinned_and_recorded)
{
	static const char *const bad[] = { "1a", "0-", "", "2-1", "0,,1",
		"-1" };
	char out[4096], conf[512], text[1024], helper[512], list[512],
	    dir[512], got[64] = "";
	FILE *f;
	size_t i;
	int rc;

	snprintf(list, sizeof(list), "%s/allowed", root);
	snprintf(helper, sizeof(helper), "%s/cpus.sh", root);
	f = fopen(helper, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n/bin/sed -n 's/^Cpus_allowed_list:"
	    "[[:space:]]*//p' /proc/self/status > %s\n", list);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(helper, 0755), 0);
	snprintf(text, sizeof(text), "iterations 1\nvmlat --test exec "
	    "--helper %s --reps 1 --enough 1000\n", helper);
	write_conf(conf, sizeof(conf), "cpus.conf", text);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel cp --cpus 0 "
	    "--config %s --results %s/res --workdir %s 2>&1", conf, root,
	    root);
	ck_assert_msg(rc == 0, "%s", out);
	f = fopen(list, "r");
	ck_assert_msg(f != NULL, "the helper wrote no %s: %s", list, out);
	ck_assert_ptr_nonnull(fgets(got, sizeof(got), f));
	fclose(f);
	ck_assert_msg(strcmp(got, "0\n") == 0, "under --cpus 0 the helper "
	    "may run on '%s'", got);
	snprintf(dir, sizeof(dir), "%s/res/cp/run1", root);
	ck_assert_str_eq(meta_val(dir, "cpus"), "0");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel cb "
		    "--cpus '%s' --config %s --results %s/res --workdir %s "
		    "2>&1", bad[i], conf, root, root);
		ck_assert_msg(rc == 1 && strstr(out, "vmrun: --cpus '") ==
		    out && strchr(out, '\n') == out + strlen(out) - 1,
		    "'%s' (%d): %s", bad[i], rc, out);
	}
	snprintf(dir, sizeof(dir), "%s/res/cb", root);
	ck_assert_int_ne(access(dir, F_OK), 0);
}
END_TEST

/*
 * A run of another config, on another machine, or into a folder of
 * make ab is refused before anything runs, and nothing changes.
 */
START_TEST(other_config_refused)
{
	char out[8192], conf[512], conf1[512], ck1[64], ck2[64], want[2048];
	char dir[512], run1[600], mem[64];
	int rc;

	tiny_conf(conf, sizeof(conf));
	two_iter_conf(conf1, sizeof(conf1));
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel cm --config "
	    "%s --results %s --workdir %s 2>&1", conf1, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	/* the checksums by cksum(1), not by vmbench */
	ck_assert_int_eq(tu_sh_out(ck1, sizeof(ck1), "cksum < %s | tr -d '\\n'",
	    conf1), 0);
	ck_assert_int_eq(tu_sh_out(ck2, sizeof(ck2), "cksum < %s | tr -d '\\n'",
	    conf), 0);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel cm --config %s "
	    "--results %s --workdir %s 2>&1", conf, root, root);
	snprintf(want, sizeof(want), "vmrun: %s/cm: run1 used %s (cksum "
	    "%s), this run %s (cksum %s): use another label or FORCE=1\n",
	    root, conf1, ck1, conf, ck2);
	ck_assert_int_eq(rc, 1);
	ck_assert_str_eq(out, want);
	snprintf(dir, sizeof(dir), "%s/cm", root);
	ck_assert_int_eq(tu_count_except(dir, "run1"), 0);
	/* another machine: MemTotal 5 kB */
	snprintf(run1, sizeof(run1), "%s/run1", dir);
	tu_meta_set(run1, "mem_total_kb", "5");
	ck_assert_int_eq(tu_sh_out(mem, sizeof(mem), "awk '$1 == \"MemTotal:\" "
	    "{ printf \"%%s\", $2 }' /proc/meminfo"), 0);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel cm --config "
	    "%s --results %s --workdir %s 2>&1", conf1, root, root);
	snprintf(want, sizeof(want), "vmrun: %s/cm: run1 ran on another "
	    "machine: mem_total_kb '5' (here '%s'): use another label or "
	    "FORCE=1\n", root, mem);
	ck_assert_int_eq(rc, 1);
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(tu_count_except(dir, "run1"), 0);
	/* a side of make ab is no label of runs: left as it is */
	ck_assert_int_eq(tu_sh_out(NULL, 0, "cp -r tests/fixtures/ab-A %s/abx", root),
	    0);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel abx --config "
	    "configs/test.conf --results %s --workdir %s 2>&1", root, root);
	snprintf(want, sizeof(want), "vmrun: %s/abx is a folder of make ab "
	    "(each of its iterations a run): use another label or FORCE=1\n",
	    root);
	ck_assert_int_eq(rc, 1);
	ck_assert_str_eq(out, want);
	snprintf(dir, sizeof(dir), "%s/abx", root);
	ck_assert_int_eq(tu_count_except(dir, ""), 3);
	snprintf(dir, sizeof(dir), "%s/cm", root);
	/* FORCE=1 starts the label again */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel cm --config %s "
	    "--results %s --workdir %s --force 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(dir, sizeof(dir), "%s/cm/run1", root);
	ck_assert_str_eq(meta_val(dir, "config"), conf);
}
END_TEST

/*
 * A run of the label's config with other iterations (ITERATIONS=) or
 * on other CPUs (CPUS=) is refused like a run of another config: one
 * line naming the label, the old and the new value and FORCE=1; nothing
 * of the label changes.  The same settings add a run.
 */
START_TEST(other_iterations_refused)
{
	char out[8192], conf[512], want[2048], dir[512], r1[600];
	struct stat a, b;
	int rc;

	two_iter_conf(conf, sizeof(conf));
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel it --config "
	    "%s --results %s --workdir %s 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(dir, sizeof(dir), "%s/it", root);
	snprintf(r1, sizeof(r1), "%s/run1/meta", dir);
	ck_assert_int_eq(stat(r1, &a), 0);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel it --config "
	    "%s --iterations 1 --results %s --workdir %s 2>&1", conf, root,
	    root);
	snprintf(want, sizeof(want), "vmrun: %s: run1 differs from this run "
	    "in iterations 2 (this run 1): use another label, or FORCE=1 to "
	    "start the label over\n", dir);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(tu_count_except(dir, "run1"), 0);
	ck_assert_int_eq(stat(r1, &b), 0);
	ck_assert(a.st_mtime == b.st_mtime && a.st_size == b.st_size);
	/* two settings at once: both named, in one line */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel it --config "
	    "%s --iterations 1 --cpus 0 --results %s --workdir %s 2>&1", conf,
	    root, root);
	snprintf(want, sizeof(want), "vmrun: %s: run1 differs from this run "
	    "in iterations 2 (this run 1), cpus all (this run 0): use another "
	    "label, or FORCE=1 to start the label over\n", dir);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(tu_count_except(dir, "run1"), 0);
	/* ITERATIONS= equal to the config's is the same run */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel it --config "
	    "%s --iterations 2 --results %s --workdir %s 2>&1", conf, root,
	    root);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_int_eq(tu_count_except(dir, "run1"), 1);
	/* FORCE=1 starts over with the new iterations */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel it --config "
	    "%s --iterations 1 --force --results %s --workdir %s 2>&1", conf,
	    root, root);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_int_eq(tu_count_except(dir, "run1"), 0);
	snprintf(r1, sizeof(r1), "%s/run1", dir);
	ck_assert_str_eq(meta_val(r1, "iterations"), "1");
}
END_TEST

/*
 * Ctrl-C during RUNS=3, once run 1 has ended: run 1 stays complete, run
 * 2 is marked interrupted, run 3 never starts; nothing is left running
 * or in the work folder.
 */
START_TEST(interrupt_between_runs)
{
	char conf[512], work[512], path[600], line[4096], all[32768] = "";
	char want[700], err[1024];
	struct rl_kernel k;
	int fds[2], status, sent = 0;
	FILE *f;
	pid_t pid;

	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	snprintf(conf, sizeof(conf), "%s/two.conf", root);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	/*
	 * line 1 long enough to be running when the SIGINT comes: the
	 * probe, a second of wall time at 1% of a CPU
	 */
	fputs("iterations 1\nprobe --duration 1 --cpu 1 --buffer 64K\n"
	    "forkbomb@b --forks 10 --ints 10\n", f);
	fclose(f);
	snprintf(work, sizeof(work), "%s/work", root);
	mkdir(work, 0755);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execl("bench/vmrun", "vmrun", "--kernel", "i3", "--runs", "3",
		    "--config", conf, "--results", root, "--workdir", work,
		    (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	ck_assert_ptr_nonnull(f);
	snprintf(want, sizeof(want), "vmrun: %s/i3/run1: complete (run 1 of "
	    "3)\n", root);
	/* SIGINT once run 1's end is seen; read on to the end */
	while (fgets(line, sizeof(line), f)) {
		if (strlen(all) + strlen(line) < sizeof(all))
			strcat(all, line);
		if (!sent && strcmp(line, want) == 0) {
			kill(pid, SIGINT);
			sent = 1;
		}
	}
	fclose(f);
	ck_assert_msg(sent, "no '%s' in:\n%s", want, all);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 130,
	    "status 0x%x:\n%s", status, all);
	/* nothing below us (what outlived vmrun became our child) */
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
	ck_assert_int_eq(tu_count_except(work, ""), 0);
	snprintf(path, sizeof(path), "%s/i3/run1", root);
	ck_assert_str_eq(meta_val(path, "status"), "complete");
	snprintf(path, sizeof(path), "%s/i3/run1/forkbomb@b.res", root);
	ck_assert_int_eq(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/i3/run2", root);
	ck_assert_str_eq(meta_val(path, "status"), "interrupted");
	ck_assert_str_eq(meta_val(path, "run"), "2");
	snprintf(path, sizeof(path), "%s/i3/run3", root);
	ck_assert_int_ne(access(path, F_OK), 0);
	snprintf(want, sizeof(want), "vmrun: %s/i3: 2 runs on 1 boot (1 not "
	    "complete)\n", root);
	ck_assert_msg(strstr(all, want) != NULL, "%s", all);
	ck_assert_msg(strstr(all, "vmrun: run 3 of 3") == NULL, "%s", all);
	/* the report: run 1, and run 2 only with what it completed */
	snprintf(path, sizeof(path), "%s/i3", root);
	ck_assert_msg(rl_load_kernel(path, &k, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_ptr_nonnull(k.note);
	ck_assert_msg(strstr(k.note, "run2 interrupted: only its complete "
	    "iterations count") || strstr(k.note, "run2 left out: no "
	    "complete iteration (interrupted)"), "%s", k.note);
	ck_assert_int_eq(k.nruns, strstr(k.note, "left out") ? 1 : 2);
	rl_free_kernel(&k);
}
END_TEST

/* Each bad input: one line naming the problem, nothing created. */
START_TEST(bad_input_refused)
{
	static const struct {
		const char *conf;	/* config text, NULL: missing file */
		const char *label;
		const char *want;
	} t[] = {
		{ "nosuch --x 1\n", "b1", "test.conf:1: 'nosuch' is not a "
		    "benchmark; the benchmarks are: fileload, forkbomb, " },
		/* programs of bench/ that are not benchmarks */
		{ "forkbomb\nvmrun --help\n", "b10", "test.conf:2: 'vmrun' "
		    "is not a benchmark; the benchmarks are: " },
		{ "vmlat_hello\n", "b11", "test.conf:1: 'vmlat_hello' is not "
		    "a benchmark; the benchmarks are: " },
		{ "# c\nforkbomb --forks x\n", "b2", "test.conf:2: forkbomb: "
		    "--forks: bad number 'x'" },
		{ "forkbomb --bogus 1\n", "b3", "unknown option '--bogus'" },
		{ "forkbomb\nforkbomb\n", "b4", "test.conf:2: 'forkbomb' "
		    "repeats line 1" },
		{ "forkbomb frob=1\n", "b5", "unknown directive 'frob='" },
		{ "forkbomb \"--forks 1\n", "b6", "unterminated quote" },
		{ "# nothing\n", "b7", "no benchmark lines" },
		{ NULL, "b8", "cannot read config" },
		{ "forkbomb --forks 10\n", "a/b", "bad kernel label 'a/b'" },
		{ "iterations 0\nforkbomb\n", "b9", "test.conf:1: 'iterations'" },
	};
	char out[4096], conf[512], dir[512];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(conf, sizeof(conf), "%s/test.conf", root);
		unlink(conf);
		if (t[i].conf) {
			FILE *f = fopen(conf, "w");

			ck_assert_ptr_nonnull(f);
			fputs(t[i].conf, f);
			fclose(f);
		}
		rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel '%s' "
		    "--config %s --results %s/res --workdir %s 2>&1",
		    t[i].label, conf, root, root);
		ck_assert_msg(rc != 0, "case %zu accepted", i);
		ck_assert_msg(strstr(out, t[i].want) != NULL,
		    "case %zu: want '%s', got '%s'", i, t[i].want, out);
		ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1,
		    "case %zu: not one line: '%s'", i, out);
		snprintf(dir, sizeof(dir), "%s/res/%s", root, t[i].label);
		ck_assert_msg(access(dir, F_OK) < 0, "case %zu created %s", i,
		    dir);
	}
}
END_TEST

/*
 * Ctrl-C mid-run: exit 130, the result kept and marked interrupted, no
 * process left (the test is a subreaper, so any orphan would come back
 * to it) and no temporary file left.
 */
START_TEST(interrupt_cleans_up)
{
	char conf[512], path[512], work[512];
	FILE *f;
	pid_t pid;
	int status, i;

	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	snprintf(conf, sizeof(conf), "%s/long.conf", root);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	fputs("iterations 2\nforkbomb --forks 20 --ints 10\n"
	    "forkbomb@long --forks 10000000 --ints 10 --concurrency 4\n", f);
	fclose(f);
	snprintf(work, sizeof(work), "%s/work", root);
	mkdir(work, 0755);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char lp[512];
		int null;

		snprintf(lp, sizeof(lp), "%s/vmrun.out", root);
		null = open(lp, O_WRONLY | O_CREAT, 0644);
		dup2(null, 1);
		dup2(null, 2);
		execl("bench/vmrun", "vmrun", "--kernel", "intr", "--config",
		    conf, "--results", root, "--workdir", work, (char *)NULL);
		_exit(127);
	}
	/*
	 * wait until the long benchmark forks: its result made, and below
	 * vmrun its harness, the sampler, the iteration and a forked child
	 */
	snprintf(path, sizeof(path), "%s/intr/run1/forkbomb@long.res", root);
	for (i = 0; i < 2000 && (access(path, F_OK) < 0 ||
	    tu_tree_size(pid) < 5); i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	if (access(path, F_OK) < 0) {
		tu_sh_out(NULL, 0, "cat %s/vmrun.out >&2", root);
	}
	ck_assert_int_eq(access(path, F_OK), 0);
	ck_assert_msg(tu_tree_size(pid) >= 5, "the long benchmark never forked");
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 130);
	/*
	 * nothing left running or unreaped below us (what outlived vmrun
	 * was made our child when vmrun ended)
	 */
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
	ck_assert_int_eq(tu_count_except(work, ""), 0);
	snprintf(path, sizeof(path), "%s/intr/run1/forkbomb.res", root);
	assert_res(path, 2, "complete");
	snprintf(path, sizeof(path), "%s/intr/run1/forkbomb@long.res", root);
	assert_res(path, 0, "interrupted");
	{
		struct vb_kv *kv;
		char err[512];
		int n;

		snprintf(path, sizeof(path), "%s/intr/run1/meta", root);
		ck_assert_msg(vb_meta_read(path, &kv, &n, err, sizeof(err)) ==
		    0, "%s", err);
		ck_assert_str_eq(vb_meta_get(kv, n, "status"), "interrupted");
		vb_meta_free(kv, n);
	}
}
END_TEST

/* Status in meta of result folder @dir. */
static void
assert_meta_status(const char *dir, const char *status)
{
	struct vb_kv *kv;
	char path[512], err[512];
	int n;

	snprintf(path, sizeof(path), "%s/meta", dir);
	ck_assert_msg(vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_str_eq(vb_meta_get(kv, n, "status"), status);
	vb_meta_free(kv, n);
}

/*
 * Run @argv with stdout and stderr on a pipe whose reader is closed
 * (`| head` after head has exited), @env_progress: the progress pipe
 * too.  Returns the wait status.
 */
static int
run_closed_pipe(char *const argv[], int progress)
{
	int fds[2], pfd[2], status;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_eq(pipe(pfd), 0);
	close(fds[0]);
	close(pfd[0]);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char buf[16];

		/* as a shell would leave it: SIGPIPE not ignored */
		signal(SIGPIPE, SIG_DFL);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		if (progress) {
			snprintf(buf, sizeof(buf), "%d", pfd[1]);
			setenv("VMBENCH_PROGRESS_FD", buf, 1);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	close(pfd[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/*
 * A config of configs/test.conf's shape (two iterations of a line, one
 * of a line of 4 children at once) but a tenth of its forks, in @root:
 * its path.
 */
static char *
pipe_conf(char *buf, size_t len)
{
	return write_conf(buf, len, "pipe.conf", "iterations 2\nforkbomb "
	    "--forks 50 --ints 100\nforkbomb@par --forks 50 --ints 100 "
	    "--concurrency 4 iterations=1\n");
}

/*
 * SIGPIPE: vmrun's stderr on a closed pipe must not stop the run: meta
 * complete, every result complete, no work folder or lock left.
 */
START_TEST(sigpipe_on_stderr)
{
	char res[512], work[512], path[600], conf[512];
	char *argv[] = { "bench/vmrun", "--kernel", "pipe", "--config",
	    conf, "--results", res, "--workdir", work, NULL };
	int status;

	pipe_conf(conf, sizeof(conf));
	snprintf(res, sizeof(res), "%s/res", root);
	snprintf(work, sizeof(work), "%s/work", root);
	status = run_closed_pipe(argv, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "vmrun ended with status 0x%x", status);
	snprintf(path, sizeof(path), "%s/pipe/run1", res);
	assert_meta_status(path, "complete");
	snprintf(path, sizeof(path), "%s/pipe/run1/forkbomb.res", res);
	assert_res(path, 2, "complete");
	snprintf(path, sizeof(path), "%s/pipe/run1/forkbomb@par.res", res);
	assert_res(path, 1, "complete");
	ck_assert_int_eq(tu_count_except(work, ""), 0);
	ck_assert_int_eq(tu_count_except(res, "pipe"), 0);
}
END_TEST

/*
 * The same inside a memory limit (root, cgroup v1 memory controller):
 * the cgroup is removed too.  One line of pipe.conf's two, one
 * iteration: the whole config is sigpipe_on_stderr's.
 */
START_TEST(sigpipe_with_limit)
{
	char res[512], work[512], path[600], line[4400], *cg = NULL, *sp;
	char conf[512];
	char *argv[] = { "bench/vmrun", "--kernel", "pipe", "--config",
	    conf, "--results", res, "--workdir", work, "--mem", "256M", NULL };
	FILE *f;
	int status;

	if (geteuid() != 0 || access("/sys/fs/cgroup/memory/memory.limit_in_"
	    "bytes", F_OK) < 0) {
		tu_skip("needs root and the cgroup v1 memory controller");
		return;
	}
	write_conf(conf, sizeof(conf), "pipe1.conf", "iterations 1\n"
	    "forkbomb@par --forks 50 --ints 100 --concurrency 4\n");
	snprintf(res, sizeof(res), "%s/res", root);
	snprintf(work, sizeof(work), "%s/work", root);
	status = run_closed_pipe(argv, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "vmrun ended with status 0x%x", status);
	snprintf(path, sizeof(path), "%s/pipe/run1", res);
	assert_meta_status(path, "complete");
	snprintf(path, sizeof(path), "%s/pipe/run1/forkbomb@par.res", res);
	assert_res(path, 1, "complete");
	ck_assert_int_eq(tu_count_except(work, ""), 0);
	/* "mem_limit_cgroup=cgroup v1 PATH limit 256M ...": PATH is gone */
	snprintf(path, sizeof(path), "%s/pipe/run1/meta", res);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "mem_limit_cgroup=cgroup v", 25) == 0) {
			cg = strchr(line + 25, ' ');
			break;
		}
	fclose(f);
	ck_assert_msg(cg != NULL, "meta names no cgroup");
	cg++;
	sp = strchr(cg, ' ');
	ck_assert_ptr_nonnull(sp);
	*sp = '\0';
	ck_assert_msg(strstr(cg, "/vmbench.") != NULL, "%s", cg);
	ck_assert_msg(access(cg, F_OK) < 0, "%s left behind", cg);
}
END_TEST

/* A benchmark whose runner is gone (progress pipe closed) finishes. */
START_TEST(progress_pipe_closed)
{
	char out[512], work[512], path[512];
	char *argv[] = { "bench/forkbomb", "--forks", "20", "--ints", "10",
	    "--iterations", "3", "--out", out, "--workdir", work, NULL };
	int status;

	snprintf(out, sizeof(out), "%s/fb", root);
	snprintf(work, sizeof(work), "%s/work", root);
	ck_assert_int_eq(mkdir(work, 0755), 0);
	status = run_closed_pipe(argv, 1);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "forkbomb ended with status 0x%x", status);
	snprintf(path, sizeof(path), "%s/fb.res", root);
	assert_res(path, 3, "complete");
	ck_assert_int_eq(tu_count_except(work, ""), 0);
}
END_TEST

/* Two with=probe outputs of the same name: refused before anything. */
START_TEST(duplicate_outputs_refused)
{
	char out[4096], conf[512], dir[512];
	FILE *f;
	int rc;

	snprintf(conf, sizeof(conf), "%s/dup.conf", root);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	fputs("forkbomb --forks 100 with=probe\nprobe@forkbomb\n", f);
	fclose(f);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel dup --config %s "
	    "--results %s/res --workdir %s 2>&1", conf, root, root);
	ck_assert_msg(rc != 0, "accepted: %s", out);
	ck_assert_msg(strstr(out, "dup.conf:2: probe@forkbomb.res would be "
	    "written twice: by line 1 (its with=probe) and by line 2") !=
	    NULL, "%s", out);
	ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1,
	    "not one line: '%s'", out);
	snprintf(dir, sizeof(dir), "%s/res/dup", root);
	ck_assert_int_ne(access(dir, F_OK), 0);
}
END_TEST

/*
 * with=NAME takes what NAME's --help declares a companion, its
 * :PROFILE as NAME's own --check takes it: a benchmark that is none and
 * a profile the probe refuses are each refused in one line, before
 * anything runs.
 */
START_TEST(companion_declared)
{
	static const char *const bad[][2] = {
		{ "forkbomb --forks 100 with=memfill\n",
		  "c.conf:1: with=memfill: unknown companion (known: probe)" },
		{ "forkbomb --forks 100 with=probe:radio\n",
		  "c.conf:1: with=probe:radio: probe: --profile" },
	};
	char out[4096], conf[512], dir[512];
	FILE *f;
	size_t i;
	int rc;

	snprintf(conf, sizeof(conf), "%s/c.conf", root);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = fopen(conf, "w");
		ck_assert_ptr_nonnull(f);
		fputs(bad[i][0], f);
		fclose(f);
		rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel c "
		    "--config %s --results %s/res --workdir %s 2>&1", conf,
		    root, root);
		ck_assert_msg(rc != 0, "accepted: %s", out);
		tu_assert_has(out, bad[i][1]);
		ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1,
		    "not one line: '%s'", out);
	}
	snprintf(dir, sizeof(dir), "%s/res/c", root);
	ck_assert_int_ne(access(dir, F_OK), 0);
}
END_TEST

/* A second run of a label in use is refused and changes nothing. */
START_TEST(concurrent_label_refused)
{
	char conf[512], path[512], out[4096], want[64];
	struct stat a, b;
	FILE *f;
	pid_t pid;
	int status, rc, i;

	snprintf(conf, sizeof(conf), "%s/long.conf", root);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	/* until stopped (60 s at most), at 1% of a CPU */
	fputs("probe --duration 60 --cpu 1 --buffer 64K\n", f);
	fclose(f);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execl("bench/vmrun", "vmrun", "--kernel", "busy", "--config",
		    conf, "--results", root, "--workdir", root, "--force",
		    (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "%s/busy/run1/probe.res", root);
	for (i = 0; i < 400 && access(path, F_OK) < 0; i++)
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	ck_assert_int_eq(stat(path, &a), 0);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel busy --config "
	    "%s --results %s --workdir %s --force 2>&1", conf, root, root);
	ck_assert_int_ne(rc, 0);
	snprintf(want, sizeof(want), "/busy is in use by another run (pid "
	    "%ld)", (long)pid);
	ck_assert_msg(strstr(out, want) != NULL, "%s", out);
	/* the running one's folder is untouched */
	ck_assert_int_eq(stat(path, &b), 0);
	ck_assert_int_eq(a.st_ino, b.st_ino);
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(status), 130);
	snprintf(path, sizeof(path), "%s/.busy.lock", root);
	ck_assert_int_ne(access(path, F_OK), 0);
}
END_TEST

/* The harness's sampler process: its child in the harness's group. */
static pid_t
find_sampler(pid_t harness)
{
	char path[128];
	FILE *f;
	long c;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children",
	    (long)harness, (long)harness);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%ld", &c) == 1)
		if (getpgid((pid_t)c) == getpgid(harness)) {
			fclose(f);
			return (pid_t)c;
		}
	fclose(f);
	return -1;
}

/*
 * A killed sampler is noted in the result, which stays complete.  The
 * harness's progress pipe (VMBENCH_PROGRESS_FD) is full before it
 * starts, so its first progress line, written after the sampler has
 * started and before iteration 1, blocks it: the sampler is killed
 * while the result has fewer than its 3 iterations, so a check of the
 * sampler (after each iteration, and at the end) is still ahead of it,
 * however fast the run.  Then the pipe is read to its end.
 */
START_TEST(sampler_killed_noted)
{
	char out[512], work[512], path[512], err[512], buf[4096];
	struct vb_res r;
	pid_t pid, smp = -1;
	int pfd[2], status, i, fl, killed = 0;

	snprintf(out, sizeof(out), "%s/fb", root);
	snprintf(work, sizeof(work), "%s/work", root);
	ck_assert_int_eq(mkdir(work, 0755), 0);
	ck_assert_int_eq(pipe(pfd), 0);
	/* fill the pipe (one page at the smallest) */
	fcntl(pfd[1], F_SETPIPE_SZ, 4096);
	fl = fcntl(pfd[1], F_GETFL);
	ck_assert_int_eq(fcntl(pfd[1], F_SETFL, fl | O_NONBLOCK), 0);
	memset(buf, 'x', sizeof(buf));
	while (write(pfd[1], buf, sizeof(buf)) > 0 || write(pfd[1], buf, 1) > 0)
		;
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_int_eq(fcntl(pfd[1], F_SETFL, fl), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		close(pfd[0]);
		snprintf(buf, sizeof(buf), "%d", pfd[1]);
		setenv("VMBENCH_PROGRESS_FD", buf, 1);
		execl("bench/forkbomb", "forkbomb", "--forks", "20",
		    "--ints", "10", "--iterations", "3", "--out", out,
		    "--workdir", work, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	snprintf(path, sizeof(path), "%s/fb.res", root);
	for (i = 0; i < 4000 && !killed; i++) {
		if (access(path, F_OK) == 0 && (smp = find_sampler(pid)) > 0 &&
		    vb_res_read(path, &r, err, sizeof(err)) == 0) {
			ck_assert_msg(r.niter < 3, "the run ended before its "
			    "sampler was killed");
			vb_res_free(&r);
			ck_assert_int_eq(kill(smp, SIGKILL), 0);
			killed = 1;
		}
		if (!killed)
			nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	}
	/* let the harness go on: read the pipe to its end */
	while (read(pfd[0], buf, sizeof(buf)) > 0)
		;
	close(pfd[0]);
	ck_assert_msg(killed, "the sampler was never found");
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_int_eq(r.niter, 3);
	ck_assert_ptr_nonnull(r.note);
	ck_assert_msg(strstr(r.note, "vmstat series incomplete: sampler died "
	    "(signal 9) at iteration ") == r.note, "%s", r.note);
	vb_res_free(&r);
	ck_assert_int_eq(tu_count_except(work, ""), 0);
}
END_TEST

/*
 * A plain run (no MEM=, no make ab) killed with SIGKILL: the next
 * clean-up, run from another folder, marks its meta interrupted and
 * says so; the benchmark it ran stopped on its own, leaving its
 * iterations marked interrupted and no work folder.
 */
START_TEST(sigkill_plain_run_marked)
{
	char conf[512], work[512], path[700], dir[400], out[8192], vmrun[4096];
	int status, i, rc;
	pid_t pid;
	FILE *f;

	ck_assert_ptr_nonnull(realpath("bench/vmrun", vmrun));
	snprintf(conf, sizeof(conf), "%s/long.conf", root);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	fputs("iterations 2\nforkbomb@long --forks 10000000 --ints 10 "
	    "--concurrency 4\n", f);
	fclose(f);
	snprintf(work, sizeof(work), "%s/work", root);
	ck_assert_int_eq(mkdir(work, 0755), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		/* RESULTS relative to the run's folder, not the clean-up's */
		if (chdir(root) < 0)
			_exit(126);
		execl(vmrun, "vmrun", "--kernel", "k9", "--config", conf,
		    "--results", "r", "--workdir", work, (char *)NULL);
		_exit(127);
	}
	snprintf(dir, sizeof(dir), "%s/r/k9/run1", root);
	snprintf(path, sizeof(path), "%s/forkbomb@long.res", dir);
	for (i = 0; i < 400 && access(path, F_OK) < 0; i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	ck_assert_int_eq(access(path, F_OK), 0);
	/* the long one forks: vmrun, harness, sampler, iteration, child */
	for (i = 0; i < 2000 && tu_tree_size(pid) < 5; i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	ck_assert_msg(tu_tree_size(pid) >= 5, "the long one never forked");
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	assert_meta_status(dir, "running");
	/* the benchmark got SIGTERM from the kernel: it stops by itself */
	for (i = 0; i < 400 && tu_count_except(work, "vmrun.") > 0; i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --clean-stale --workdir %s "
	    "2>&1", work);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(path, sizeof(path), "a run killed earlier (pid %ld)",
	    (long)pid);
	ck_assert_msg(strstr(out, path) != NULL, "%s", out);
	snprintf(path, sizeof(path), "marked %s interrupted", dir);
	ck_assert_msg(strstr(out, path) != NULL, "%s", out);
	assert_meta_status(dir, "interrupted");
	snprintf(path, sizeof(path), "%s/forkbomb@long.res", dir);
	assert_res(path, 0, "interrupted");
	ck_assert_int_eq(tu_count_except(work, ""), 0);
	/* said once: the next clean-up has nothing to say */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --clean-stale --workdir %s "
	    "2>&1", work);
	ck_assert_msg(rc == 0 && strstr(out, "nothing left behind"), "%s",
	    out);
}
END_TEST

/*
 * make clean-stale with a work folder that does not exist: nothing to
 * clean, said, and the folder is not made.
 */
START_TEST(clean_stale_makes_nothing)
{
	char out[4096], want[600];
	int rc;

	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --clean-stale --workdir "
	    "%s/new/er 2>&1", root);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(want, sizeof(want), "vmrun: nothing left behind in %s/new/er "
	    "(no such folder)\n", root);
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(tu_count_except(root, ""), 0);
	rc = tu_sh_out(out, sizeof(out), "VMBENCH_WORKDIR=%s/new bench/vmrun "
	    "--clean-stale 2>&1", root);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_int_eq(tu_count_except(root, ""), 0);
}
END_TEST

/*
 * A full results file system (a 1M tmpfs, root only): the failure to
 * write a .res is a failure, named, and the result is not left
 * "running"; so is the run's meta.
 */
START_TEST(full_disk_fails)
{
	char mnt[512], out[8192], path[600], err[512];
	struct vb_res r;
	int rc;

	if (geteuid() != 0) {
		tu_skip("needs root to mount a tmpfs");
		return;
	}
	snprintf(mnt, sizeof(mnt), "%s/full", root);
	ck_assert_int_eq(mkdir(mnt, 0755), 0);
	rc = tu_sh_out(out, sizeof(out), "mount -t tmpfs -o size=1M,mode=0755 tmpfs "
	    "%s 2>&1", mnt);
	if (rc != 0) {
		tu_skip("cannot mount a tmpfs: %s", out);
		return;
	}
	/*
	 * 12K left: the .res outgrows it after about 60 iterations (some
	 * 190 bytes each; short ones: only their number counts), with or
	 * without the .vmstat beside it; 200 leave no doubt
	 */
	rc = tu_sh_out(out, sizeof(out), "dd if=/dev/zero of=%s/fill bs=1k "
	    "count=1012 2>&1", mnt);
	ck_assert_msg(rc == 0, "dd: %s", out);
	rc = tu_sh_out(out, sizeof(out), "bench/forkbomb --forks 1 --ints 10 "
	    "--iterations 200 --out %s/fb --workdir %s 2>&1 >/dev/null", mnt,
	    root);
	snprintf(path, sizeof(path), "%s/fb.res", mnt);
	ck_assert_msg(rc == 1, "forkbomb exited %d: %s", rc, out);
	ck_assert_msg(strstr(out, "forkbomb: cannot write ") && strstr(out,
	    "/fb.res: No space left on device"), "%s", out);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, "failed");
	ck_assert_int_gt(r.niter, 0);
	vb_res_free(&r);
	/* the runner: non-zero, meta not left running */
	tu_sh_out(NULL, 0, "rm -f %s/fb.*", mnt);
	rc = tu_sh_out(out, sizeof(out), "echo 'forkbomb --forks 1 --ints 10' "
	    "> %s/short.conf && bench/vmrun --kernel full --config "
	    "%s/short.conf --results %s --workdir %s --iterations 200 2>&1",
	    root, root, mnt, root);
	ck_assert_msg(rc == 1, "vmrun exited %d: %s", rc, out);
	ck_assert_msg(strstr(out, "No space left on device") != NULL, "%s",
	    out);
	snprintf(path, sizeof(path), "%s/full/run1", mnt);
	assert_meta_status(path, "failed");
}
END_TEST

/*
 * A full work folder (a 2M tmpfs, root only): the runner's failure line
 * gives the benchmark's own cause, ENOSPC named, not only the exit
 * status of an iteration.
 */
START_TEST(full_workdir_named)
{
	char mnt[512], out[8192], conf[512];
	FILE *f;
	int rc, left;

	if (geteuid() != 0) {
		tu_skip("needs root to mount a tmpfs");
		return;
	}
	snprintf(mnt, sizeof(mnt), "%s/full", root);
	ck_assert_int_eq(mkdir(mnt, 0755), 0);
	rc = tu_sh_out(out, sizeof(out), "mount -t tmpfs -o size=2M,mode=0755 tmpfs "
	    "%s 2>&1", mnt);
	if (rc != 0) {
		tu_skip("cannot mount a tmpfs: %s", out);
		return;
	}
	snprintf(conf, sizeof(conf), "%s/fl.conf", root);
	f = fopen(conf, "w");
	ck_assert_ptr_nonnull(f);
	fputs("fileload --clients 2 --time 2 --warmup 0 --loadfile "
	    "configs/fileload.load\n", f);
	fclose(f);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel fw --config %s "
	    "--results %s --workdir %s --iterations 1 2>&1", conf, root, mnt);
	/* the work folder is empty again; unmounted before any assertion */
	left = tu_count_except(mnt, "");
	umount2(mnt, MNT_DETACH);
	ck_assert_msg(rc == 1, "vmrun exited %d: %s", rc, out);
	ck_assert_msg(strstr(out, "vmrun: fileload failed (exit status 1): "
	    "fileload: client ") != NULL, "%s", out);
	/* a failed write or a short one: "WriteX to" or "WriteX of N bytes" */
	ck_assert_msg(strstr(out, "WriteX ") && strstr(out, ": No space "
	    "left on device; see "), "%s", out);
	ck_assert_int_eq(left, 0);
}
END_TEST

/* Paths with control characters are refused; a long one keeps its cause. */
START_TEST(paths_refused)
{
	char longp[6000];
	size_t i;

	ck_assert_int_eq(tu_sh_in(root, "echo 'forkbomb --forks 10 --ints 1' "
	    ">\"$T/p.conf\""), 0);
	ck_assert_int_eq(tu_sh_in(root, "bench/vmrun --kernel p --config "
	    "\"$T/p.conf\" --results \"$T/r\" --workdir \"$T/w\nx\" "
	    "2>\"$T/err\""), 1);
	ck_assert_int_eq(tu_sh_in(root, "grep -q 'a control character in a "
	    "path' \"$T/err\""), 0);
	ck_assert_int_eq(tu_sh_in(root, "test $(wc -l < \"$T/err\") = 1"), 0);
	/* nothing made */
	ck_assert_int_ne(tu_sh_in(root, "test -e \"$T/r\""), 0);
	for (i = 0; i + 201 < sizeof(longp) - 1 && i < 5000; i += 201) {
		memset(longp + i, 'a', 200);
		longp[i + 200] = '/';
	}
	longp[i] = '\0';
	ck_assert_int_eq(tu_sh_in(root, "bench/vmrun --kernel p --config %s "
	    "2>\"$T/err\"", longp), 1);
	ck_assert_int_eq(tu_sh_in(root, "grep -q '^vmrun: --config .*: path "
	    "too long' \"$T/err\""), 0);
}
END_TEST

/*
 * vmrun --kernel @label --config @conf --results ROOT/r --workdir @work
 * @more (NULL-terminated), started with its stderr in ROOT/@err and its
 * stdout on /dev/null; its pid.
 */
static pid_t
start_vmrun(const char *label, const char *conf, const char *work,
    const char *err, const char *more)
{
	char res[400], errp[400];
	pid_t pid;

	snprintf(res, sizeof(res), "%s/r", root);
	snprintf(errp, sizeof(errp), "%s/%s", root, err);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		int fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(null, 1);
		dup2(fd, 2);
		execl("bench/vmrun", "vmrun", "--kernel", label, "--config",
		    conf, "--results", res, "--workdir", work, more,
		    (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Wait (at most @s seconds) until @path exists; whether it does. */
static int
wait_path(const char *path, int s)
{
	int i;

	for (i = 0; i < s * 40 && access(path, F_OK) < 0; i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	return access(path, F_OK) == 0;
}

/* The status of result @path into @buf ("unreadable: ..." if none). */
static const char *
res_status(const char *path, char *buf, size_t len)
{
	struct vb_res r;
	char err[512];

	if (vb_res_read(path, &r, err, sizeof(err)) < 0) {
		snprintf(buf, len, "unreadable: %s", err);
		return buf;
	}
	snprintf(buf, len, "%s", r.status);
	vb_res_free(&r);
	return buf;
}

/* The pid of the probe child of @runner, 0 when there is none. */
static pid_t
probe_of(pid_t runner)
{
	char out[64];

	if (tu_sh_out(out, sizeof(out), "pgrep -P %ld -x probe", (long)runner)
	    != 0)
		return 0;
	return (pid_t)atol(out);
}

/* Wait (at most 10 s) until the probe beside @runner runs: its pid. */
static pid_t
wait_probe(pid_t runner, const char *res)
{
	pid_t p = 0;
	int i;

	ck_assert_msg(wait_path(res, 10), "no %s", res);
	for (i = 0; i < 400 && !(p = probe_of(runner)); i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	ck_assert_msg(p > 0, "no probe beside vmrun %ld", (long)runner);
	return p;
}

/*
 * The probe beside a benchmark killed with SIGKILL (kill -9, the OOM
 * killer) cannot mark its result: the runner marks it interrupted
 * (it said running for good) and says so; the benchmark runs to its
 * end and the run fails.
 */
START_TEST(probe_killed_marked)
{
	char conf[512], work[512], path[700], dir[400], st[600], *err;
	int status;
	pid_t pid, probe;

	/* long enough to find the probe; short under ASan on a busy machine */
	write_conf(conf, sizeof(conf), "probe.conf", "forkbomb@x --forks "
	    "3000 --ints 10 with=probe\n");
	snprintf(work, sizeof(work), "%s/work", root);
	ck_assert_int_eq(mkdir(work, 0755), 0);
	pid = start_vmrun("pk", conf, work, "err", NULL);
	snprintf(dir, sizeof(dir), "%s/r/pk/run1", root);
	snprintf(path, sizeof(path), "%s/probe@forkbomb@x.res", dir);
	probe = wait_probe(pid, path);
	snprintf(path, sizeof(path), "%s/forkbomb@x.log", dir);
	ck_assert(wait_path(path, 10));
	kill(probe, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	err = tu_slurp_ok("%s/err", root);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1,
	    "vmrun: status %d: %s", status, err);
	snprintf(path, sizeof(path), "%s/probe@forkbomb@x.res", dir);
	ck_assert_msg(strcmp(res_status(path, st, sizeof(st)),
	    "interrupted") == 0, "the killed probe's result says %s; "
	    "vmrun said: %s", st, err);
	ck_assert_msg(strstr(err, "the probe beside forkbomb@x was killed "
	    "(signal 9): ") && strstr(err, "probe@forkbomb@x.res is marked "
	    "interrupted"), "%s", err);
	free(err);
	snprintf(path, sizeof(path), "%s/forkbomb@x.res", dir);
	ck_assert_str_eq(res_status(path, st, sizeof(st)), "complete");
	assert_meta_status(dir, "failed");
}
END_TEST

/*
 * vmrun killed with SIGKILL while the probe runs beside a benchmark:
 * the benchmark stops as after Ctrl-C (interrupted) and so does the
 * probe (its death signal is SIGHUP, not the SIGTERM that would end it
 * complete); the next clean-up marks meta interrupted.  Killed with the
 * probe (both SIGKILLed), the clean-up marks the probe's result too.
 */
START_TEST(sigkill_probe_not_complete)
{
	char conf[512], work[512], path[700], dir[400], st[600], st2[600];
	char out[8192];
	int status, i, rc;
	pid_t pid, probe;

	write_conf(conf, sizeof(conf), "long.conf", "forkbomb@long --forks "
	    "10000000 --ints 10 --concurrency 4 with=probe\n");
	snprintf(work, sizeof(work), "%s/work", root);
	ck_assert_int_eq(mkdir(work, 0755), 0);
	pid = start_vmrun("sp", conf, work, "err", NULL);
	snprintf(dir, sizeof(dir), "%s/r/sp/run1", root);
	snprintf(path, sizeof(path), "%s/probe@forkbomb@long.res", dir);
	wait_probe(pid, path);
	for (i = 0; i < 2000 && tu_tree_size(pid) < 6; i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	ck_assert_msg(tu_tree_size(pid) >= 6, "the long one never forked");
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	for (i = 0; i < 400 && strcmp(res_status(path, st, sizeof(st)),
	    "running") == 0; i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	snprintf(path, sizeof(path), "%s/forkbomb@long.res", dir);
	for (i = 0; i < 400 && strcmp(res_status(path, st2, sizeof(st2)),
	    "running") == 0; i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	for (i = 0; i < 400 && tu_count_except(work, "vmrun.") > 0; i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	/* cleaned up first: a failure here leaves no record behind */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --clean-stale "
	    "--workdir %s 2>&1", work);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_msg(strcmp(st, "interrupted") == 0, "the probe beside a "
	    "SIGKILLed vmrun wrote %s", st);
	ck_assert_str_eq(st2, "interrupted");
	assert_meta_status(dir, "interrupted");

	/* the probe killed with it: marked by the clean-up */
	pid = start_vmrun("sq", conf, work, "err2", NULL);
	snprintf(dir, sizeof(dir), "%s/r/sq/run1", root);
	snprintf(path, sizeof(path), "%s/probe@forkbomb@long.res", dir);
	probe = wait_probe(pid, path);
	for (i = 0; i < 2000 && tu_tree_size(pid) < 6; i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	kill(probe, SIGKILL);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_str_eq(res_status(path, st, sizeof(st)), "running");
	for (i = 0; i < 400 && tu_count_except(work, "vmrun.") > 0; i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --clean-stale "
	    "--workdir %s 2>&1", work);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_msg(strstr(out, "/r/sq/run1 interrupted (and 1 result in "
	    "it still running)"), "%s", out);
	ck_assert_msg(strcmp(res_status(path, st, sizeof(st)),
	    "interrupted") == 0, "after the clean-up the probe's result "
	    "says %s: %s", st, out);
	assert_meta_status(dir, "interrupted");
}
END_TEST

/*
 * Start a long plain run of @label into ROOT/@results, wait until its
 * benchmark forks, SIGKILL it and wait until the benchmark is gone.
 * Its pid.
 */
static pid_t
killed_run(const char *label, const char *results, const char *work)
{
	char conf[512], more[400], path[900];
	int status, i;
	pid_t pid;

	write_conf(conf, sizeof(conf), "long.conf", "forkbomb@long --forks "
	    "10000000 --ints 10 --concurrency 4\n");
	snprintf(more, sizeof(more), "--results=%s/%s", root, results);
	pid = start_vmrun(label, conf, work, "err-killed", more);
	snprintf(path, sizeof(path), "%s/%s/%s/run1/forkbomb@long.log", root,
	    results, label);
	ck_assert_msg(wait_path(path, 10), "no %s", path);
	for (i = 0; i < 2000 && tu_tree_size(pid) < 5; i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	ck_assert_msg(tu_tree_size(pid) >= 5, "the long one never forked");
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	for (i = 0; i < 400 && tu_count_except(work, "vmrun.") > 0; i++)
		nanosleep(&(struct timespec){ 0, 25000000 }, NULL);
	return pid;
}

/*
 * A plain run killed with SIGKILL in a RESULTS= folder of its own: the
 * clean-up (make clean-stale, or the next run, whatever its RESULTS=)
 * removes its label lock there, not only the runs' default folder's,
 * and says what it did, not that it left the machine changed.
 */
START_TEST(stale_lock_elsewhere_removed)
{
	char work[512], out[8192], want[2048], lock[700], conf[512];
	int rc;
	pid_t pid;

	snprintf(work, sizeof(work), "%s/work", root);
	ck_assert_int_eq(mkdir(work, 0755), 0);
	pid = killed_run("lk", "rA", work);
	snprintf(lock, sizeof(lock), "%s/rA/.lk.lock", root);
	ck_assert_int_eq(access(lock, F_OK), 0);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --clean-stale "
	    "--workdir %s 2>&1", work);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(want, sizeof(want), "vmrun: a run killed earlier (pid %ld): "
	    "marked %s/rA/lk/run1 interrupted, removed its lock file %s\n",
	    (long)pid, root, lock);
	ck_assert_msg(strstr(out, want), "clean-stale said '%s', not '%s'",
	    out, want);
	ck_assert_msg(access(lock, F_OK) < 0, "%s is left: %s", lock, out);
	ck_assert_msg(!strstr(out, "machine changed"), "%s", out);
	/* the next run, into another folder, does it too */
	pid = killed_run("lk", "rB", work);
	snprintf(lock, sizeof(lock), "%s/rB/.lk.lock", root);
	ck_assert_int_eq(access(lock, F_OK), 0);
	write_conf(conf, sizeof(conf), "tiny.conf", "forkbomb --forks 2 "
	    "--ints 10\n");
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel next --config "
	    "%s --results %s/rC --workdir %s 2>&1", conf, root, work);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(want, sizeof(want), "vmrun: a run killed earlier (pid %ld): "
	    "marked %s/rB/lk/run1 interrupted, removed its lock file %s\n",
	    (long)pid, root, lock);
	ck_assert_msg(strstr(out, want), "the next run said '%s', not '%s'",
	    out, want);
	ck_assert_msg(access(lock, F_OK) < 0, "%s is left: %s", lock, out);
}
END_TEST

/*
 * A first meta that cannot be written (a full results tmpfs, root
 * only): the run is refused in one line and leaves no run folder, so
 * the same command, once there is room, makes run1 (it made run2 after
 * an empty run1).  An empty run folder left after a label's last run
 * (by a run that never began) is not counted: the next run takes its
 * number.
 */
START_TEST(first_meta_unwritten)
{
	char mnt[512], out[8192], conf[512], path[700];
	int rc;

	write_conf(conf, sizeof(conf), "tiny.conf", "forkbomb --forks 2 "
	    "--ints 10\n");
	/* without a full disk: an empty run2 after run1 is not a run */
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel e --config %s "
	    "--results %s/r --workdir %s 2>&1 && mkdir %s/r/e/run2 && "
	    "bench/vmrun --kernel e --config %s --results %s/r --workdir %s "
	    "2>&1", conf, root, root, root, conf, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(path, sizeof(path), "%s/r/e/run2", root);
	assert_meta_status(path, "complete");
	snprintf(path, sizeof(path), "%s/r/e/run3", root);
	ck_assert_msg(access(path, F_OK) < 0, "the second run went into "
	    "run3, after an empty run2: %s", out);
	if (geteuid() != 0) {
		tu_skip("first_meta_unwritten in part: needs root to mount a "
		    "tmpfs");
		return;
	}
	snprintf(mnt, sizeof(mnt), "%s/full", root);
	ck_assert_int_eq(mkdir(mnt, 0755), 0);
	rc = tu_sh_out(out, sizeof(out), "mount -t tmpfs -o size=64k,mode=0755 tmpfs "
	    "%s 2>&1", mnt);
	if (rc != 0) {
		tu_skip("cannot mount a tmpfs: %s", out);
		return;
	}
	tu_sh_out(NULL, 0, "dd if=/dev/zero of=%s/fill bs=4k 2>/dev/null",
	    mnt);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel x --config %s "
	    "--results %s --workdir %s 2>&1", conf, mnt, root);
	ck_assert_msg(rc == 1, "vmrun exited %d: %s", rc, out);
	ck_assert_msg(strstr(out, "vmrun: cannot write ") && strstr(out,
	    "/x/run1/meta: No space left on device\n"), "%s", out);
	snprintf(path, sizeof(path), "%s/x/run1", mnt);
	ck_assert_msg(access(path, F_OK) < 0, "%s is left behind", path);
	snprintf(path, sizeof(path), "%s/x", mnt);
	ck_assert_msg(access(path, F_OK) < 0, "%s is left behind", path);
	ck_assert_int_eq(tu_count_except(mnt, "fill"), 0);
	/* room again: the same command makes run1 */
	tu_sh_out(NULL, 0, "rm -f %s/fill", mnt);
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel x --config %s "
	    "--results %s --workdir %s 2>&1", conf, mnt, root);
	ck_assert_msg(rc == 0, "vmrun exited %d: %s", rc, out);
	snprintf(path, sizeof(path), "%s/x/run1", mnt);
	assert_meta_status(path, "complete");
	snprintf(path, sizeof(path), "%s/x/run2", mnt);
	ck_assert_msg(access(path, F_OK) < 0, "the run went into run2: %s",
	    out);
}
END_TEST

/* A CPU burner, `sh -c 'while :; do :; done'`, ended with this process. */
static pid_t
busy_loop(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl("/bin/sh", "sh", "-c", "while :; do :; done",
		    (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void
busy_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Lines of @out that begin with @prefix. */
static int
count_lines(const char *out, const char *prefix)
{
	const char *l;
	int n = 0;

	for (l = out; *l; l = strchrnul(l, '\n'), l += *l == '\n')
		n += strncmp(l, prefix, strlen(prefix)) == 0;
	return n;
}

/*
 * --quiet 100 (make run QUIET=100), two runs: each run's meta records
 * its wait; a window under 100% of a CPU ends it, and on a machine
 * other work keeps above that the bound (--quiet-wait) does, said in
 * one line.  Either way what the meta says holds together.
 */
START_TEST(quiet_wait_recorded)
{
	char out[16384], conf[512], dir[512];
	double waited, cpu;
	int rc, r;

	shape_conf(conf, sizeof(conf));
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel qw --quiet 100 "
	    "--quiet-wait 10s --runs 2 --iterations 1 --config %s --results "
	    "%s/res --workdir %s 2>&1", conf, root, root);
	ck_assert_msg(rc == 0, "%s", out);
	for (r = 1; r <= 2; r++) {
		snprintf(dir, sizeof(dir), "%s/res/qw/run%d", root, r);
		ck_assert_str_eq(meta_val(dir, "quiet_threshold"), "100");
		waited = atof(meta_val(dir, "quiet_waited_s"));
		cpu = atof(meta_val(dir, "quiet_cpu"));
		ck_assert_msg(waited >= 0.9 && waited < 20, "run%d waited "
		    "%g s: %s", r, waited, out);
		if (strcmp(meta_val(dir, "quiet_timeout"), "0") == 0)
			ck_assert_msg(cpu < 100, "run%d: quiet at %g%%", r,
			    cpu);
		else
			ck_assert_msg(waited >= 10 && cpu >= 100 &&
			    strstr(out, "vmrun: not quiet after "), "run%d: "
			    "timed out after %g s at %g%%: %s", r, waited, cpu,
			    out);
	}
}
END_TEST

/*
 * --quiet 1 --quiet-wait 2s beside a CPU burner: the wait ends at its
 * bound, about 2 s, with one progress line and one line saying the run
 * goes on; the meta says quiet_timeout=1 and the burner's load.
 */
START_TEST(quiet_wait_bounded)
{
	char out[16384], conf[512], dir[512];
	double waited, cpu;
	pid_t busy;
	int rc;

	two_iter_conf(conf, sizeof(conf));
	busy = busy_loop();
	rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel qb --quiet 1%% "
	    "--quiet-wait 2s --config %s --results %s/res --workdir %s 2>&1",
	    conf, root, root);
	busy_stop(busy);
	ck_assert_msg(rc == 0, "%s", out);
	snprintf(dir, sizeof(dir), "%s/res/qb/run1", root);
	ck_assert_str_eq(meta_val(dir, "quiet_threshold"), "1");
	ck_assert_str_eq(meta_val(dir, "quiet_timeout"), "1");
	waited = atof(meta_val(dir, "quiet_waited_s"));
	cpu = atof(meta_val(dir, "quiet_cpu"));
	ck_assert_msg(waited >= 1.9 && waited < 5, "waited %g s: %s", waited,
	    out);
	ck_assert_msg(cpu >= 1, "beside a burner: %g%%", cpu);
	ck_assert_msg(count_lines(out, "vmrun: waiting for a quiet machine: "
	    "other processes use ") == 1 && strstr(out, "(threshold 1%), "
	    "1 s of at most 2 s\n"), "not one progress line: %s", out);
	ck_assert_msg(count_lines(out, "vmrun: not quiet after 2 s (") == 1,
	    "%s", out);
}
END_TEST

/*
 * A SIGINT (Ctrl-C) during the first wait (beside a CPU burner, once
 * its progress line is out): vmrun stops with 130 and one line, and
 * nothing is made.
 */
START_TEST(quiet_wait_interrupted)
{
	char conf[512], res[512], outp[512], *out;
	int status, i, said = 0;
	pid_t busy, pid;

	two_iter_conf(conf, sizeof(conf));
	snprintf(res, sizeof(res), "%s/res", root);
	snprintf(outp, sizeof(outp), "%s/out", root);
	close(open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	busy = busy_loop();
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 2);
		execl("bench/vmrun", "vmrun", "--kernel", "qi", "--quiet", "1",
		    "--quiet-wait", "1m", "--config", conf, "--results", res,
		    "--workdir", root, (char *)NULL);
		_exit(127);
	}
	/* in the wait: its progress line said so (at most 30 s) */
	for (i = 0; i < 300; i++) {
		out = tu_slurp_ok("%s", outp);
		said = strstr(out, "vmrun: waiting for a quiet machine") != NULL;
		free(out);
		if (said)
			break;
		usleep(100000);
	}
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	busy_stop(busy);
	out = tu_slurp_ok("%s", outp);
	ck_assert_msg(said, "no progress line: %s", out);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 130 &&
	    strstr(out, "vmrun: interrupted while waiting for a quiet "
	    "machine: nothing ran\n"), "status %d: %s", status, out);
	free(out);
	ck_assert_int_ne(access(res, F_OK), 0);
}
END_TEST

Suite *
vmrun_suite(void)
{
	const struct tu_case cases[] = {
		/* runs and labels */
		{ "e2e", { run_writes_valid_folder, existing_label_adds_run,
		    runs_three_ways, flat_moved_to_run1, other_config_refused,
		    other_iterations_refused, cpus_pinned_and_recorded,
		    NULL } },
		/* --quiet: the wait for a quiet machine */
		{ "quiet", { quiet_wait_recorded, quiet_wait_bounded,
		    quiet_wait_interrupted, NULL } },
		/* signals, pipes and locks */
		{ "signals", { interrupt_between_runs, interrupt_cleans_up,
		    sigpipe_on_stderr, progress_pipe_closed,
		    concurrent_label_refused, sampler_killed_noted,
		    probe_killed_marked, NULL } },
		/* refused input, full disks */
		{ "refused", { bad_runs_refused, bad_input_refused,
		    duplicate_outputs_refused, companion_declared,
		    full_disk_fails, full_workdir_named, paths_refused,
		    NULL } },
		/* a results folder that cannot hold a run's first meta */
		{ "unwritten", { first_meta_unwritten, NULL } },
	};
	Suite *s = suite_create("vmrun");
	TCase *tc;
	size_t i;

	/* three test cases with the same fixtures, run side by side */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tc = tu_tcase(cases[i].name);
		tcase_add_checked_fixture(tc, setup, teardown);
		tcase_add_unchecked_fixture(tc, case_setup, umount_leftovers);
		tcase_set_timeout(tc, 60);
		tu_add_tests(tc, &cases[i]);
		suite_add_tcase(s, tc);
	}
	/*
	 * a memory cgroup (--mem); a run SIGKILLed, whose record in
	 * /run/vmbench another suite's run would clean up; --clean-stale,
	 * which names every run that changes the machine
	 */
	tc = tu_tcase_alone("machine");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_unchecked_fixture(tc, case_setup, umount_leftovers);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sigpipe_with_limit);
	tcase_add_test(tc, sigkill_plain_run_marked);
	tcase_add_test(tc, sigkill_probe_not_complete);
	tcase_add_test(tc, stale_lock_elsewhere_removed);
	tcase_add_test(tc, clean_stale_makes_nothing);
	suite_add_tcase(s, tc);
	return s;
}
