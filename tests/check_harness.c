/*
 * check_harness.c - the iteration child of src/lib/harness.c with
 * .exec_run: tests/iterchild reports, from inside run(), what its process
 * carries, exec'd (the default) and forked (VMBENCH_EXEC=0, the other way,
 * for contrast); a failing run(), the runner's error copy, --append's
 * numbering, a mode's figures, .fixed_layout (ADDR_NO_RANDOMIZE), and
 * forkbomb (which uses .exec_run) interrupted by SIGINT and beside a busy
 * loop on its one CPU.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "res.h"
#include "testutil.h"

/* Run a command line through the shell: tests/testutil.h. */
#define sh(...)	tu_sh_in(NULL, __VA_ARGS__)

/* Metric @name of iteration @i (0-based) of tu_dir/@base.res. */
static double
fig(const char *base, const char *name, int i)
{
	struct vb_res r;
	char path[512], err[512];
	double v;
	int m;

	snprintf(path, sizeof(path), "%s/%s.res", tu_dir, base);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	m = vb_res_metric_index(&r, name);
	ck_assert_msg(m >= 0, "%s: no %s", path, name);
	ck_assert_int_gt(r.niter, i);
	v = vb_res_get(&r, i, m);
	vb_res_free(&r);
	return v;
}

/* What every iteration child keeps, exec'd or not. */
static void
kept(const char *base, int i)
{
	ck_assert_int_eq((int)fig(base, "pdeathsig", i), SIGKILL);
	ck_assert_int_eq((int)fig(base, "own_pgrp", i), 1);
	ck_assert_int_eq((int)fig(base, "sigpipe_kills", i), 1);
	ck_assert_int_eq((int)fig(base, "workdir_ok", i), 1);
	ck_assert_int_eq((int)fig(base, "iter", i), i + 1);
}

/*
 * Exec'd: nothing of the harness (setup()'s memory, the sampler's
 * shared page, its open files; a stray descriptor of the caller, 7
 * here) reaches run(), which has stdio and the figures pipe only.
 */
START_TEST(exec_plain)
{
	int i;

	ck_assert_int_eq(sh("exec 7</dev/null; unset VMBENCH_EXEC; "
	    "tests/iterchild --iterations 2 --out %s/x --workdir %s "
	    ">/dev/null", tu_dir, tu_dir), 0);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq((int)fig("x", "setup_seen", i), 0);
		ck_assert_int_eq((int)fig("x", "shared_maps", i), 0);
		ck_assert_int_eq((int)fig("x", "open_fds", i), 4);
		kept("x", i);
	}
	/* the work folder is gone, nothing else left */
	ck_assert_int_eq(tu_count_except(tu_dir, "x."), 0);
}
END_TEST

/* VMBENCH_EXEC=0: the forked harness child, which carries the harness. */
START_TEST(forked_carries_harness)
{
	ck_assert_int_eq(sh("VMBENCH_EXEC=0 tests/iterchild --out %s/f "
	    "--workdir %s >/dev/null", tu_dir, tu_dir), 0);
	ck_assert_int_eq((int)fig("f", "setup_seen", 0), 1);
	ck_assert_int_ge((int)fig("f", "shared_maps", 0), 1);
	ck_assert_int_gt((int)fig("f", "open_fds", 0), 4);
	kept("f", 0);
}
END_TEST

/*
 * A run() that dies in the exec'd child: its message on stderr and in
 * the runner's progress pipe, the result failed, exit 1.
 */
START_TEST(exec_fail)
{
	char path[512];
	struct vb_res r;
	char err[512];

	ck_assert_int_eq(sh("VMBENCH_PROGRESS_FD=5 tests/iterchild --fail "
	    "--out %s/e --workdir %s >/dev/null 2>%s/stderr 5>%s/progress",
	    tu_dir, tu_dir, tu_dir, tu_dir), 1);
	ck_assert_int_eq(sh("grep -q '^iterchild: failing as asked$' "
	    "%s/stderr", tu_dir), 0);
	ck_assert_int_eq(sh("grep -q '^error iterchild: failing as asked$' "
	    "%s/progress", tu_dir), 0);
	snprintf(path, sizeof(path), "%s/e.res", tu_dir);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, "failed");
	ck_assert_int_eq(r.niter, 0);
	vb_res_free(&r);
}
END_TEST

/* --append: the exec'd child is told the iteration's number. */
START_TEST(exec_append)
{
	ck_assert_int_eq(sh("tests/iterchild --out %s/a --workdir %s "
	    ">/dev/null && tests/iterchild --append --iterations 2 --out %s/a "
	    "--workdir %s >/dev/null", tu_dir, tu_dir, tu_dir, tu_dir), 0);
	ck_assert_int_eq((int)fig("a", "iter", 2), 3);
	ck_assert_int_eq((int)fig("a", "setup_seen", 2), 0);
}
END_TEST

/* The note of tu_dir/@base.res ("" when none), into @buf. */
static const char *
note_of(const char *base, char *buf, size_t len)
{
	struct vb_res r;
	char path[512], err[512];

	snprintf(path, sizeof(path), "%s/%s.res", tu_dir, base);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	snprintf(buf, len, "%s", r.note ? r.note : "");
	vb_res_free(&r);
	return buf;
}

/*
 * --discard 1: one iteration runs first (number 0) and is left out of
 * the result, which holds the 2 asked for, numbered 1 and 2, and a
 * note that says a warm-up ran; without it, no such note.
 */
START_TEST(warmup_discarded)
{
	struct vb_res r;
	char path[512], err[512], note[1024];

	ck_assert_int_eq(sh("tests/iterchild --discard 1 --iterations 2 "
	    "--out %s/w --workdir %s >%s/w.out", tu_dir, tu_dir, tu_dir), 0);
	snprintf(path, sizeof(path), "%s/w.res", tu_dir);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(r.niter == 2, "%d iterations recorded, not 2",
	    r.niter);
	vb_res_free(&r);
	ck_assert_int_eq((int)fig("w", "iter", 0), 1);
	ck_assert_int_eq((int)fig("w", "iter", 1), 2);
	ck_assert_msg(strstr(note_of("w", note, sizeof(note)),
	    "warm-up iteration (not recorded)") != NULL, "note: '%s'", note);
	ck_assert_int_eq(sh("grep -q '^warm-up iteration' %s/w.out", tu_dir),
	    0);
	ck_assert_int_eq(sh("tests/iterchild --iterations 2 --out %s/n "
	    "--workdir %s >/dev/null", tu_dir, tu_dir), 0);
	ck_assert_msg(strstr(note_of("n", note, sizeof(note)), "warm-up") ==
	    NULL, "note without --discard: '%s'", note);
}
END_TEST

/* --sync is noted in the result; --help lists both from the table. */
START_TEST(sync_noted)
{
	char note[1024];

	ck_assert_int_eq(sh("tests/iterchild --sync --out %s/s --workdir %s "
	    ">/dev/null", tu_dir, tu_dir), 0);
	ck_assert_msg(strstr(note_of("s", note, sizeof(note)),
	    "sync() before each iteration") != NULL, "note: '%s'", note);
	ck_assert_int_eq(sh("tests/iterchild --help | grep -q "
	    "'^  --discard N .*(default 0)$' && tests/iterchild --help | "
	    "grep -q '^  --sync  '"), 0);
	ck_assert_int_eq(sh("tests/iterchild --discard 101 --check "
	    "2>/dev/null"), 1);
}
END_TEST

/* Does this process (the test's) run with ADDR_NO_RANDOMIZE? */
static int
own_no_randomize(void)
{
	FILE *f = fopen("/proc/self/personality", "r");
	unsigned long pers = 0;

	ck_assert_msg(f != NULL, "cannot open /proc/self/personality");
	ck_assert_int_eq(fscanf(f, "%lx", &pers), 1);
	fclose(f);
	return (pers & 0x0040000) != 0;		/* ADDR_NO_RANDOMIZE */
}

/*
 * .fixed_layout: the exec'd iteration child, and so what run() forks,
 * has ADDR_NO_RANDOMIZE in its personality, and the result says so;
 * the forked child (VMBENCH_EXEC=0) keeps the harness's own, unnoted.
 */
START_TEST(fixed_layout)
{
	char note[1024];
	int i;

	ck_assert_int_eq(sh("unset VMBENCH_EXEC; tests/iterchild "
	    "--iterations 2 --out %s/l --workdir %s >/dev/null", tu_dir,
	    tu_dir), 0);
	for (i = 0; i < 2; i++)
		ck_assert_msg((int)fig("l", "no_randomize", i) == 1,
		    "iteration %d: no ADDR_NO_RANDOMIZE in the exec'd "
		    "child's /proc/self/personality", i + 1);
	ck_assert_msg(strstr(note_of("l", note, sizeof(note)),
	    "address-space layout fixed (ADDR_NO_RANDOMIZE") != NULL,
	    "note: '%s'", note);
	ck_assert_int_eq(sh("VMBENCH_EXEC=0 tests/iterchild --out %s/k "
	    "--workdir %s >/dev/null", tu_dir, tu_dir), 0);
	ck_assert_int_eq((int)fig("k", "no_randomize", 0), own_no_randomize());
	ck_assert_msg(strstr(note_of("k", note, sizeof(note)),
	    "address-space layout") == NULL, "note without the exec: '%s'",
	    note);
}
END_TEST

/* A stray VMBENCH_ITERATION (not from our parent) is ignored. */
START_TEST(stray_env)
{
	ck_assert_int_eq(sh("VMBENCH_ITERATION='1 1 1 /nonexistent' "
	    "tests/iterchild --out %s/s --workdir %s >/dev/null", tu_dir,
	    tu_dir), 0);
	ck_assert_int_eq((int)fig("s", "iter", 0), 1);
}
END_TEST

/*
 * A mode (--other, or its letter -o): its figures and headline in the
 * result, reported by the exec'd child as by the forked one, the option
 * recorded by its long name, and every mode listed by --help.
 */
START_TEST(mode_figures)
{
	static const char *const exec[] = { "", "VMBENCH_EXEC=0 " };
	static const char *const opt[] = { "-o", "--other" };
	struct vb_res r;
	char path[512], err[512];
	int i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(sh("%stests/iterchild %s --iterations 2 "
		    "--out %s/m%d --workdir %s >/dev/null", exec[i], opt[i],
		    tu_dir, i, tu_dir), 0);
		snprintf(path, sizeof(path), "%s/m%d.res", tu_dir, i);
		ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0,
		    "%s", err);
		ck_assert_str_eq(r.headline, "other_iter");
		ck_assert_str_eq(r.cmdline, "iterchild --other");
		ck_assert_int_lt(vb_res_metric_index(&r, "iter"), 0);
		ck_assert_int_eq(r.niter, 2);
		ck_assert_double_eq(vb_res_get(&r, 1,
		    vb_res_metric_index(&r, "other_iter")), 2);
		vb_res_free(&r);
	}
	ck_assert_int_eq(sh("tests/iterchild --help | grep -q '^Figures with "
	    "--other '"), 0);
	ck_assert_int_eq(sh("tests/iterchild --help | grep -q '^  other_iter "
	    "'"), 0);
}
END_TEST

/*
 * forkbomb (exec'd loop) stopped by SIGINT: exit 130, the result
 * interrupted, no work folder and no process of its group left.
 */
START_TEST(forkbomb_sigint)
{
	char path[512], err[512];
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	struct vb_res r;
	int status, i;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char out[300];

		snprintf(out, sizeof(out), "%s/fb", tu_dir);
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(126);
		execl("bench/forkbomb", "forkbomb", "--forks", "100000000",
		    "--ints", "10", "--out", out, "--workdir", tu_dir,
		    (char *)NULL);
		_exit(127);
	}
	/* the .res exists once the signals are caught; then into the loop */
	snprintf(path, sizeof(path), "%s/fb.res", tu_dir);
	for (i = 0; i < 200 && access(path, F_OK) < 0; i++)
		nanosleep(&ts, NULL);
	ck_assert_int_eq(access(path, F_OK), 0);
	ts.tv_nsec = 300 * 1000 * 1000;
	nanosleep(&ts, NULL);
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 130);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, "interrupted");
	vb_res_free(&r);
	ck_assert_int_eq(tu_count_except(tu_dir, "fb."), 0);
}
END_TEST

/*
 * forkbomb --one-cpu beside a busy loop on the same CPU: the loop waits
 * for the CPU half the time, so forks_per_s falls; the headline,
 * forks_per_cpu_s, counts the loop's CPU time only (forks / cpu_s), and
 * cpu_s is no more than the loop's wall-clock time.
 */
START_TEST(forkbomb_cpu_time)
{
	cpu_set_t old, one;
	struct vb_res r;
	char path[512], err[512];
	double waited = 0;
	int cpu, i;
	pid_t hog;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(old), &old), 0);
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &old); cpu++)
		;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(one), &one), 0);
	hog = fork();
	ck_assert_int_ge(hog, 0);
	if (hog == 0) {
		/* gone with the test's process, however it ends */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(0);
		for (;;)
			;
	}
	i = sh("bench/forkbomb --forks 2000 --ints 10 --one-cpu "
	    "--iterations 2 --out '%s/fbc' --workdir '%s' >/dev/null 2>&1",
	    tu_dir, tu_dir);
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	sched_setaffinity(0, sizeof(old), &old);
	ck_assert_int_eq(i, 0);
	snprintf(path, sizeof(path), "%s/fbc.res", tu_dir);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.headline, "forks_per_cpu_s");
	for (i = 0; i < r.niter; i++) {
		double n = vb_res_get(&r, i, tu_res_col(&r, "forks"));
		double rate = vb_res_get(&r, i, tu_res_col(&r, "forks_per_s"));
		double crate = vb_res_get(&r, i, tu_res_col(&r,
		    "forks_per_cpu_s"));
		double c = vb_res_get(&r, i, tu_res_col(&r, "cpu_s"));
		double w = vb_res_get(&r, i, tu_res_col(&r, "wait_s"));

		ck_assert_msg(n == 2000 && c > 0 && fabs(n / c - crate) <
		    1e-6 * crate && c <= n / rate * 1.02 + 0.005 &&
		    crate > rate, "iteration %d: forks %g, forks_per_s %g, "
		    "forks_per_cpu_s %g, cpu_s %g, wait_s %g", i + 1, n,
		    rate, crate, c, w);
		waited += w;
	}
	vb_res_free(&r);
	/* a busy loop on the one CPU: the loop must have waited */
	ck_assert_msg(waited > 0.005, "beside a busy loop on CPU %d the "
	    "fork loops waited %.6f s in all", cpu, waited);
}
END_TEST

/*
 * @cmd (a shell command) with stdout and stderr on a pipe whose reader
 * is gone (`| head` once head has exited), SIGPIPE at its default as a
 * shell leaves it; its exit status.
 */
static int
closed_pipe(const char *cmd)
{
	int fds[2], status;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	close(fds[0]);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 +
	    WTERMSIG(status);
}

/* The status word of tu_dir/@base.res. */
static void
assert_status(const char *base, const char *status, int niter)
{
	struct vb_res r;
	char path[512], err[512];

	snprintf(path, sizeof(path), "%s/%s.res", tu_dir, base);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, status);
	ck_assert_int_eq(r.niter, niter);
	vb_res_free(&r);
}

/*
 * Output is a courtesy, in run() too: a run() that prints, with stdout
 * and stderr on a closed pipe (`bench/tio ... | head -1`), exec'd and
 * forked, runs every iteration to a complete result and exit 0; tio and
 * its --creates, which print from run(), the same.
 */
START_TEST(closed_output_in_run)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "tests/iterchild --say 2000 --iterations 2 "
	    "--out %s/p --workdir %s", tu_dir, tu_dir);
	ck_assert_int_eq(closed_pipe(cmd), 0);
	assert_status("p", "complete", 2);
	snprintf(cmd, sizeof(cmd), "VMBENCH_EXEC=0 tests/iterchild --say 2000 "
	    "--iterations 2 --out %s/f --workdir %s", tu_dir, tu_dir);
	ck_assert_int_eq(closed_pipe(cmd), 0);
	assert_status("f", "complete", 2);
	snprintf(cmd, sizeof(cmd), "bench/tio --threads 1 --size 1M "
	    "--iterations 2 --out %s/t --workdir %s", tu_dir, tu_dir);
	ck_assert_int_eq(closed_pipe(cmd), 0);
	assert_status("t", "complete", 2);
	snprintf(cmd, sizeof(cmd), "bench/tio --creates --files 100 "
	    "--iterations 2 --out %s/c --workdir %s", tu_dir, tu_dir);
	ck_assert_int_eq(closed_pipe(cmd), 0);
	assert_status("c", "complete", 2);
	/* the same, output open: SIGPIPE of a pipe of run()'s own kills */
	ck_assert_int_eq(sh("tests/iterchild --out %s/o --workdir %s "
	    ">/dev/null", tu_dir, tu_dir), 0);
	ck_assert_int_eq((int)fig("o", "sigpipe_kills", 0), 1);
	ck_assert_int_eq(tu_count_except(tu_dir, ""), 10);
}
END_TEST

Suite *
harness_suite(void)
{
	Suite *s = suite_create("harness");
	TCase *tc = tu_tcase("iteration child");

	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, exec_plain);
	tcase_add_test(tc, forked_carries_harness);
	tcase_add_test(tc, exec_fail);
	tcase_add_test(tc, exec_append);
	tcase_add_test(tc, warmup_discarded);
	tcase_add_test(tc, sync_noted);
	tcase_add_test(tc, fixed_layout);
	tcase_add_test(tc, stray_env);
	tcase_add_test(tc, mode_figures);
	tcase_add_test(tc, forkbomb_sigint);
	tcase_add_test(tc, forkbomb_cpu_time);
	tcase_add_test(tc, closed_output_in_run);
	suite_add_tcase(s, tc);
	return s;
}
