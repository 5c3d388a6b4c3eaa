/*
 * check_parentwatch.c - A signal to make's own pid reaches the program its
 * recipe runs (src/lib/parentwatch.c, the exec in mk/workflows.mk): `make
 * run` and `make ab` on a fake settings tree (VMBENCH_SYSROOT), stopped by
 * SIGTERM, SIGHUP or SIGINT sent to make's pid alone, or by `timeout -s
 * TERM`: the setting is back, the run under way is marked interrupted, no
 * later run begins, and nothing of the run is left running.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "parentwatch.h"
#include "proc.h"
#include "testutil.h"

/* as in check_make.c: make builds nothing, as the tree was built */
#ifdef __SANITIZE_ADDRESS__
#define BUILD_MODE "SANITIZE=1"
#else
#define BUILD_MODE "SANITIZE="
#endif

/* a run that lasts until it is stopped (60 s at most), at 1% of a CPU */
#define LONG_CONF "probe --duration 60 --cpu 1 --buffer 64K\n"

static void
sleep_ms(long ms)
{
	nanosleep(&(struct timespec){ ms / 1000, ms % 1000 * 1000000 }, NULL);
}

/* The masks make 4.3 shows while it waits on a signal. */
START_TEST(masks)
{
	ck_assert_int_eq(vb_parent_watch_sig(0), 0);
	/* SIGCHLD alone, as make blocks it in its normal run */
	ck_assert_int_eq(vb_parent_watch_sig(0x10000), 0);
	ck_assert_int_eq(vb_parent_watch_sig(0x10002), SIGINT);
	ck_assert_int_eq(vb_parent_watch_sig(0x10001), SIGHUP);
	ck_assert_int_eq(vb_parent_watch_sig(0x4000), SIGTERM);
	ck_assert_int_eq(vb_parent_watch_sig(0x4003), SIGTERM);
	/* without VB_FROM_MAKE: nothing */
	unsetenv("VB_FROM_MAKE");
	ck_assert_int_eq(vb_parent_watch(), 0);
}
END_TEST

static volatile sig_atomic_t caught;

static void
on_term(int sig)
{
	caught = sig;
}

/*
 * The runner's fork (vb_fork_held(), proc.h): a SIGTERM sent to the
 * child while it is still between fork() and exec() (here 300 ms
 * there, as a slow child under load) ends it; the copy of the
 * parent's handler a plain fork() leaves there would catch it and
 * the run would go on.  The parent's own SIGTERM, held until
 * vb_fork_release(), reaches its handler then.
 */
START_TEST(stop_before_exec)
{
	struct sigaction sa = { .sa_handler = on_term };
	sigset_t old;
	pid_t pid;
	int st;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	caught = 0;
	pid = vb_fork_held(&old);
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sleep_ms(300);
		execlp("true", "true", (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	raise(SIGTERM);
	ck_assert_msg(caught == 0, "the parent's SIGTERM was not held");
	vb_fork_release(&old);
	ck_assert_msg(caught == SIGTERM, "the parent's SIGTERM never came "
	    "after vb_fork_release()");
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	    "a SIGTERM before exec() did not end the child: %s %d",
	    WIFSIGNALED(st) ? "killed by signal" : "exit status",
	    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	signal(SIGTERM, SIG_DFL);
}
END_TEST

/*
 * Start make (or `timeout -s TERM 5 make`, @timeout) with @args (one
 * string, split on blanks) in the tree, on the fake tree of tu_dir,
 * its output into tu_dir/out; the signals make acts on at their
 * default (a test run in the background of a shell ignores SIGINT).
 */
static pid_t
start_make(int timeout, const char *args)
{
	char *argv[40], *copy, *w, path[600];
	int n = 0, fd;
	pid_t pid;

	ck_assert_ptr_nonnull(copy = strdup(args));
	if (timeout) {
		argv[n++] = "timeout";
		argv[n++] = "-s";
		argv[n++] = "TERM";
		argv[n++] = "5";
	}
	argv[n++] = "make";
	argv[n++] = "-s";
	argv[n++] = "-o";
	argv[n++] = "all";
	argv[n++] = BUILD_MODE;
	for (w = strtok(copy, " "); w && n < 38; w = strtok(NULL, " "))
		argv[n++] = w;
	argv[n] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sigset_t none;

		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		unsetenv("VB_FROM_MAKE");
		setenv("VMBENCH_SYSROOT", tu_dir, 1);
		/*
		 * timeout signals its whole group, so a second TERM (the
		 * runner's, forwarded) can reach a sanitized program during
		 * its exit leak check: LeakSanitizer's stop-the-world then
		 * livelocks (a probe spinning for 10 min, its tracer child
		 * in wait4), and the test times out.  The leaks are checked
		 * by every other test; here what is tested is the stop.
		 */
		if (timeout)
			setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		snprintf(path, sizeof(path), "%s/out", tu_dir);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	free(copy);
	return pid;
}

/* Its exit status, 128 + the signal that ended it. */
static int
finish(pid_t pid)
{
	int st;

	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The processes (other than this one) whose command line holds tu_dir. */
static int
running_here(char *names, size_t len)
{
	char path[300], buf[4096];
	struct dirent *e;
	DIR *d = opendir("/proc");
	int n = 0;
	FILE *f;
	size_t got, i;

	ck_assert_ptr_nonnull(d);
	names[0] = '\0';
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    atol(e->d_name) == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		got = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (i = 0; i < got; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[got] = '\0';
		if (strstr(buf, tu_dir)) {
			n++;
			if (strlen(names) + strlen(buf) + 4 < len)
				strcat(strcat(names, buf), "; ");
		}
	}
	closedir(d);
	return n;
}

/* Nothing of the run left running (after a grace of 3 s). */
static void
assert_nothing_running(const char *what)
{
	char names[2048];
	int i, n = 0;

	for (i = 0; i < 30; i++) {
		if ((n = running_here(names, sizeof(names))) == 0)
			return;
		sleep_ms(100);
	}
	ck_assert_msg(n == 0, "%s: still running after make ended: %s", what,
	    names);
}

/* Wait (at most 20 s) until tu_dir/@rel exists. */
static int
wait_file(const char *rel)
{
	char p[600];
	int i;

	tu_path(p, sizeof(p), rel);
	for (i = 0; i < 2000; i++) {
		if (access(p, F_OK) == 0)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

/* Wait (at most 20 s) until the fake swappiness reads @want. */
static int
wait_knob(const char *want)
{
	char v[64];
	int i;

	for (i = 0; i < 2000; i++) {
		if (strcmp(tu_line("proc/sys/vm/swappiness", v, sizeof(v)),
		    want) == 0)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

/* What make and the program said, for a failed assertion. */
static char *
out(void)
{
	char *t = tu_slurp_ok("%s/out", tu_dir);

	return t;
}

/*
 * make ab stopped by @sig on make's pid (0: by `timeout -s TERM 5`):
 * swappiness back to 60, both sides marked interrupted, nothing left.
 */
static void
ab_stopped(int sig)
{
	char args[1200], v[64], dir[600], *t;
	const char *side;
	pid_t pid;
	int rc, k;

	snprintf(args, sizeof(args), "ab KERNEL=k%d A=vm.swappiness=7 "
	    "B=vm.swappiness=9 WARMUP=0 CONFIG=%s/long.conf RESULTS=%s/r "
	    "WORKDIR=%s/w", sig, tu_dir, tu_dir, tu_dir);
	pid = start_make(sig == 0, args);
	ck_assert_msg(wait_knob("7"), "A never applied: %s", out());
	sleep_ms(500);
	if (sig)
		kill(pid, sig);
	rc = finish(pid);
	t = out();
	ck_assert_msg(rc != 0, "make ab stopped by %s: exit 0; it said: %s",
	    sig ? strsignal(sig) : "timeout", t);
	ck_assert_msg(strcmp(tu_line("proc/sys/vm/swappiness", v, sizeof(v)),
	    "60") == 0, "make ab stopped by %s: swappiness %s, not back to "
	    "60; it said: %s", sig ? strsignal(sig) : "timeout", v, t);
	assert_nothing_running(sig ? strsignal(sig) : "timeout");
	ck_assert_msg(strcmp(tu_line("proc/sys/vm/swappiness", v, sizeof(v)),
	    "60") == 0, "after make ab stopped by %s: swappiness %s",
	    sig ? strsignal(sig) : "timeout", v);
	for (k = 0; k < 2; k++) {
		side = k ? "B" : "A";
		snprintf(dir, sizeof(dir), "%s/r/k%d-%s", tu_dir, sig, side);
		ck_assert_msg(strcmp(tu_meta_val(dir, "status", v, sizeof(v)),
		    "interrupted") == 0, "make ab stopped by %s: side %s "
		    "says %s; it said: %s", sig ? strsignal(sig) : "timeout",
		    side, v, t);
	}
	free(t);
}

START_TEST(ab_timeout_term)
{
	tu_fake_settings();
	tu_fake("long.conf", LONG_CONF);
	ab_stopped(0);
}
END_TEST

START_TEST(ab_term_make_pid)
{
	tu_fake_settings();
	tu_fake("long.conf", LONG_CONF);
	ab_stopped(SIGTERM);
}
END_TEST

/*
 * make run RUNS=3 stopped during run 1 by @sig on make's pid (0: by
 * `timeout -s TERM 5`): run1 interrupted, no run2, nothing left.
 */
static void
run_stopped(int sig)
{
	char args[1200], v[64], dir[600], rel[64], *t;
	const char *how = sig ? strsignal(sig) : "timeout -s TERM";
	pid_t pid;
	int rc;

	snprintf(args, sizeof(args), "run KERNEL=r%d RUNS=3 "
	    "CONFIG=%s/long.conf RESULTS=%s/r WORKDIR=%s/w", sig, tu_dir,
	    tu_dir, tu_dir);
	pid = start_make(sig == 0, args);
	snprintf(rel, sizeof(rel), "r/r%d/run1/probe.res", sig);
	ck_assert_msg(wait_file(rel), "run1 never started: %s", out());
	sleep_ms(300);
	if (sig)
		kill(pid, sig);
	rc = finish(pid);
	t = out();
	ck_assert_msg(rc != 0, "make run stopped by %s: exit 0; it said: %s",
	    how, t);
	assert_nothing_running(how);
	snprintf(dir, sizeof(dir), "%s/r/r%d/run1", tu_dir, sig);
	ck_assert_msg(strcmp(tu_meta_val(dir, "status", v, sizeof(v)),
	    "interrupted") == 0, "make run stopped by %s: run1 says %s; it "
	    "said: %s", how, v, t);
	snprintf(dir, sizeof(dir), "%s/r/r%d/run2", tu_dir, sig);
	ck_assert_msg(access(dir, F_OK) != 0, "make run stopped by %s: run2 "
	    "began; it said: %s", how, t);
	snprintf(dir, sizeof(dir), "%s/w", tu_dir);
	ck_assert_msg(tu_count_except(dir, "") <= 0, "make run stopped by "
	    "%s: the work folder holds files", how);
	free(t);
}

START_TEST(run_timeout_term)
{
	tu_fake_settings();
	tu_fake("long.conf", LONG_CONF);
	run_stopped(0);
}
END_TEST

START_TEST(run_signals_make_pid)
{
	tu_fake_settings();
	tu_fake("long.conf", LONG_CONF);
	run_stopped(SIGTERM);
	run_stopped(SIGHUP);
	run_stopped(SIGINT);
}
END_TEST

Suite *
parentwatch_suite(void)
{
	Suite *s = suite_create("parentwatch");
	TCase *tc;

	tc = tu_tcase_local("masks");
	tcase_add_test(tc, masks);
	tcase_add_test(tc, stop_before_exec);
	suite_add_tcase(s, tc);

	/* on the fake tree: their own state folder and machine lock */
	tc = tu_tcase("make");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ab_timeout_term);
	tcase_add_test(tc, ab_term_make_pid);
	tcase_add_test(tc, run_timeout_term);
	tcase_add_test(tc, run_signals_make_pid);
	suite_add_tcase(s, tc);
	return s;
}
