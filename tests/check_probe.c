/*
 * check_probe.c - the interactivity probe: its deadline accounting
 * (src/bench/probe/acct.c) driven on a fake clock, and end-to-end runs of
 * bench/probe (timed, and stopped by SIGUSR1 as the runner does).
 */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe/acct.h"
#include "res.h"
#include "testutil.h"

#define MS 1000000ULL

/* A fake world: time moves only when the loop sleeps or works. */
struct fake {
	uint64_t t;
	uint64_t work_ns;	/* every period's work takes this long */
	uint64_t late_at;	/* the wake-up for this deadline ... */
	uint64_t late_ns;	/* ... comes this late */
	uint64_t stop_at;	/* stop() true from this instant; 0: never */
	uint64_t periods;	/* work() calls */
};

static uint64_t
f_now(void *ctx)
{
	return ((struct fake *)ctx)->t;
}

static void
f_sleep(void *ctx, uint64_t until)
{
	struct fake *f = ctx;

	/* the stop signal cuts the sleep short, as in the real probe */
	if (f->stop_at && until > f->stop_at && f->t <= f->stop_at) {
		f->t = f->stop_at;
		return;
	}
	if (until > f->t)
		f->t = until;
	if (f->late_at && until == f->late_at)
		f->t += f->late_ns;
}

static uint64_t
f_work(void *ctx)
{
	struct fake *f = ctx;

	f->t += f->work_ns;
	f->periods++;
	return f->work_ns;
}

static int
f_stop(void *ctx)
{
	struct fake *f = ctx;

	return f->stop_at && f->t >= f->stop_at;
}

static const struct probe_ops fake_ops = {
	.now = f_now, .sleep_until = f_sleep, .work = f_work, .stop = f_stop,
};

#define T0 (1000 * MS)

START_TEST(idle_plays_everything)
{
	struct fake f = { .t = T0, .work_ns = 2 * MS };
	struct probe_acct a;
	struct probe_figures fig;
	uint64_t end = probe_loop(&a, &fake_ops, &f, 50 * MS, 10000 * MS);

	ck_assert_uint_eq(end, T0 + 10000 * MS);
	probe_acct_finish(&a, end, 2 * MS, &fig);
	ck_assert_uint_eq(fig.periods, 200);
	ck_assert_uint_eq(fig.played, 200);
	ck_assert_uint_eq(f.periods, 200);
	ck_assert_double_eq(fig.played_s, 10);
	ck_assert_double_eq(fig.total_s, 10);
	ck_assert_double_eq(fig.deadlines_met_pct, 100);
	ck_assert_double_eq(fig.desired_cpu_pct, 100);
	ck_assert_double_eq(fig.lat_max, 0);
	ck_assert_double_eq(fig.stall_max, 0);
	probe_acct_free(&a);
}
END_TEST

START_TEST(late_wakeup_skips_periods)
{
	/* the wake-up for period 10 comes 180 ms late */
	struct fake f = { .t = T0, .work_ns = 1 * MS,
	    .late_at = T0 + 500 * MS, .late_ns = 180 * MS };
	struct probe_acct a;
	struct probe_figures fig;
	uint64_t end = probe_loop(&a, &fake_ops, &f, 50 * MS, 10000 * MS);
	size_t i;

	probe_acct_finish(&a, end, 1 * MS, &fig);
	/*
	 * Period 10 wakes at 680 ms, done at 681 > d(11) = 550: missed.
	 * 11 and 12 are past (d(13) = 650 <= 681 < d(14)): skipped; 13 runs
	 * at once, 31 ms late, done at 682 < 700: played.
	 */
	ck_assert_uint_eq(fig.periods, 200);
	ck_assert_uint_eq(fig.played, 197);
	ck_assert_uint_eq(fig.ran, 198);
	ck_assert_double_eq_tol(fig.played_s, 9.85, 1e-9);
	ck_assert_double_eq_tol(fig.deadlines_met_pct, 98.5, 1e-9);
	ck_assert_double_eq(fig.stall_max, 150);
	ck_assert_double_eq(fig.lat_max, 180);
	ck_assert_double_eq_tol(fig.desired_cpu_pct, 99, 1e-9);
	for (i = 0; i < a.n && a.rec[i].k != 13; i++)
		;
	ck_assert_uint_lt(i, a.n);
	ck_assert_uint_eq(a.rec[i].lat_ns, 31 * MS);
	ck_assert_int_eq(a.rec[i].played, 1);
	ck_assert_int_eq(a.rec[i - 1].k, 10);
	ck_assert_int_eq(a.rec[i - 1].played, 0);
	probe_acct_free(&a);
}
END_TEST

START_TEST(overloaded_plays_nothing)
{
	/* 60 ms of work every 50 ms: never done in time */
	struct fake f = { .t = T0, .work_ns = 60 * MS };
	struct probe_acct a;
	struct probe_figures fig;
	uint64_t end = probe_loop(&a, &fake_ops, &f, 50 * MS, 1000 * MS);

	probe_acct_finish(&a, end, 2500 * MS / 1000, &fig);
	ck_assert_uint_eq(fig.periods, 20);
	ck_assert_uint_eq(fig.played, 0);
	ck_assert_double_eq(fig.deadlines_met_pct, 0);
	ck_assert_double_eq(fig.stall_max, 1000);
	ck_assert_double_eq(fig.played_s, 0);
	/* it runs every period late, and skips some as it falls behind */
	ck_assert_uint_lt(fig.ran, fig.periods);
	ck_assert_uint_gt(fig.ran, 10);
	ck_assert_double_gt(fig.lat_mean, 0);
	probe_acct_free(&a);
}
END_TEST

START_TEST(stop_mode_counts_whole_periods)
{
	/* stopped 1234 ms in: 24 whole periods; the 25th is not counted */
	struct fake f = { .t = T0, .work_ns = 1 * MS,
	    .stop_at = T0 + 1234 * MS };
	struct probe_acct a;
	struct probe_figures fig;
	uint64_t end = probe_loop(&a, &fake_ops, &f, 50 * MS, 0);

	ck_assert_uint_ge(end, T0 + 1234 * MS);
	probe_acct_finish(&a, end, 1 * MS, &fig);
	ck_assert_uint_eq(fig.periods, 24);
	ck_assert_uint_eq(fig.played, 24);
	ck_assert_double_eq_tol(fig.total_s, 1.2, 1e-9);
	ck_assert_double_eq(fig.deadlines_met_pct, 100);
	probe_acct_free(&a);
}
END_TEST

START_TEST(latency_statistics)
{
	struct probe_acct a;
	struct probe_figures f;
	uint64_t k;

	/* latencies 1..100 ms in a 1 s period, all played */
	probe_acct_init(&a, 1000 * MS, T0);
	for (k = 0; k < 100; k++) {
		uint64_t d = probe_acct_deadline(&a, k);

		ck_assert_int_eq(probe_acct_period(&a, k, d + (k + 1) * MS,
		    d + (k + 2) * MS, 0), 1);
	}
	probe_acct_finish(&a, probe_acct_deadline(&a, 100), 0, &f);
	ck_assert_double_eq_tol(f.lat_mean, 50.5, 1e-9);
	ck_assert_double_eq_tol(f.lat_sd, sqrt(841.0 + 2.0 / 3), 1e-9);
	ck_assert_double_eq(f.lat_p50, 50);
	ck_assert_double_eq(f.lat_p99, 99);
	ck_assert_double_eq(f.lat_max, 100);
	ck_assert(isnan(f.desired_cpu_pct));
	probe_acct_free(&a);
	/* nothing ran: no latency, zero seconds */
	probe_acct_init(&a, 50 * MS, T0);
	probe_acct_finish(&a, T0 + 10 * MS, MS, &f);
	ck_assert_uint_eq(f.periods, 0);
	ck_assert(isnan(f.lat_mean));
	ck_assert(isnan(f.deadlines_met_pct));
	probe_acct_free(&a);
}
END_TEST

START_TEST(next_period)
{
	struct probe_acct a;

	probe_acct_init(&a, 50 * MS, T0);
	/* finished in its own period: the next one */
	ck_assert_uint_eq(probe_acct_next(&a, 3, T0 + 180 * MS), 4);
	/* in period 4 (200..250): 4 is still playable */
	ck_assert_uint_eq(probe_acct_next(&a, 3, T0 + 249 * MS), 4);
	/* at 250 period 4's deadline is gone: run 5 */
	ck_assert_uint_eq(probe_acct_next(&a, 3, T0 + 250 * MS), 5);
	ck_assert_uint_eq(probe_acct_next(&a, 3, T0 + 1010 * MS), 20);
}
END_TEST

static char tmpdir[100];	/* the test's folder, under the run's root */

/* A fresh folder for the test; the probe's output prefix in it. */
static const char *
tmp_out(void)
{
	static char out[300];

	tu_mkdtemp(tmpdir, sizeof(tmpdir), "probe");
	snprintf(out, sizeof(out), "%s/probe", tmpdir);
	return out;
}

static void
rm_tmp(void)
{
	ck_assert_int_eq(tu_rmtree(tmpdir), 0);
}

static pid_t
spawn(char *const argv[])
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/*
 * spawn(), then wait (30 s at most) until the probe says it is ready
 * on VMBENCH_READY_FD, as the runner does: its signal handlers are in
 * place and its loop starts, however slow the machine is.
 */
static pid_t
spawn_ready(char *const argv[])
{
	struct pollfd pfd;
	char c = 0, fd[16];
	int fds[2];
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	snprintf(fd, sizeof(fd), "%d", fds[1]);
	setenv("VMBENCH_READY_FD", fd, 1);
	pid = spawn(argv);
	unsetenv("VMBENCH_READY_FD");
	close(fds[1]);
	pfd = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	ck_assert_msg(poll(&pfd, 1, 30000) == 1 && read(fds[0], &c, 1) == 1 &&
	    c == 'r', "the probe never said it was ready");
	close(fds[0]);
	return pid;
}

static int
reap(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static double
get(const struct vb_res *r, const char *metric)
{
	int m = vb_res_metric_index(r, metric);

	ck_assert_msg(m >= 0, "no metric %s", metric);
	return vb_res_get(r, r->niter - 1, m);
}

static void
read_res(const char *out, struct vb_res *r)
{
	char path[160], err[512];

	snprintf(path, sizeof(path), "%s.res", out);
	ck_assert_msg(vb_res_read(path, r, err, sizeof(err)) == 0, "%s", err);
}

START_TEST(timed_run)
{
	const char *out = tmp_out();
	char *argv[] = { "bench/probe", "--duration", "1", "--out",
	    (char *)out, "--variant", "memfill", NULL };
	struct vb_res r;

	ck_assert_int_eq(reap(spawn(argv)), 0);
	read_res(out, &r);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_str_eq(r.variant, "memfill");
	ck_assert_int_eq(r.niter, 1);
	ck_assert_double_eq_tol(get(&r, "total_s"), 1.0, 1e-6);
	ck_assert_double_le(get(&r, "played_s"), get(&r, "total_s") + 1e-9);
	ck_assert_double_gt(get(&r, "played_s"), 0);
	ck_assert_double_ge(get(&r, "lat_max"), get(&r, "lat_p99"));
	ck_assert_double_ge(get(&r, "lat_p99"), get(&r, "lat_p50"));
	ck_assert_str_eq(vb_res_param(&r, "profile"), "audio");
	vb_res_free(&r);
	rm_tmp();
}
END_TEST

/* The CPU time of process @pid so far, in seconds; -1 when gone. */
static double
cpu_seconds(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	/* after the command's closing parenthesis: state, then 10 more */
	if (!(p = strrchr(buf, ')')) || sscanf(p + 2, "%*c %*d %*d %*d %*d "
	    "%*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/*
 * Stopped by SIGUSR1 half a second into its loop.  The loop's start is
 * an event the test sees: once the probe says it is ready, only its
 * loop's work uses CPU, so 30 ms more CPU than at that moment (a few
 * periods of 6.7 ms of work; the code before the loop takes far less)
 * means the loop has begun, however slow the machine.  Half a second
 * after that the signal goes: the figures are whole 16.7 ms periods of
 * at least that time, and no more than the probe lived (from before
 * its start to after its end).
 */
START_TEST(stopped_by_sigusr1)
{
	const char *out = tmp_out();
	char *argv[] = { "bench/probe", "--profile", "video", "--buffer",
	    "1M", "--out", (char *)out, NULL };
	struct vb_res r;
	struct timespec a, b, ms5 = { 0, 5000000 };
	double alive, base, cpu;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = spawn_ready(argv);
	base = cpu_seconds(pid);
	ck_assert_double_ge(base, 0);
	while ((cpu = cpu_seconds(pid)) >= 0 && cpu < base + 0.03)
		nanosleep(&ms5, NULL);
	ck_assert_msg(cpu >= 0, "the probe ended before SIGUSR1");
	usleep(500000);
	ck_assert_int_eq(kill(pid, SIGUSR1), 0);
	ck_assert_int_eq(reap(pid), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	alive = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec -
	    a.tv_nsec) / 1e9;
	read_res(out, &r);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_int_eq(r.niter, 1);
	ck_assert_double_gt(get(&r, "total_s"), 0.4);
	ck_assert_double_le(get(&r, "total_s"), alive);
	ck_assert_double_ge(get(&r, "elapsed"), get(&r, "total_s"));
	vb_res_free(&r);
	rm_tmp();
}
END_TEST

START_TEST(interrupted_by_sigint)
{
	const char *out = tmp_out();
	char *argv[] = { "bench/probe", "--out", (char *)out, NULL };
	struct vb_res r;
	pid_t pid = spawn_ready(argv);

	usleep(300000);
	ck_assert_int_eq(kill(pid, SIGINT), 0);
	ck_assert_int_eq(reap(pid), 130);
	read_res(out, &r);
	ck_assert_str_eq(r.status, "interrupted");
	vb_res_free(&r);
	rm_tmp();
}
END_TEST

START_TEST(bad_input)
{
	static const struct {
		char *argv[4];
		const char *says;
	} t[] = {
		{ { "bench/probe", "--profile", "radio", NULL }, "radio" },
		{ { "bench/probe", "--period", "0", NULL }, "--period" },
		{ { "bench/probe", "--cpu", "200", NULL }, "--cpu" },
		{ { "bench/probe", "--iterations", "2", NULL }, "--duration" },
		{ { "bench/probe", "--duration", "0.001", NULL }, "period" },
		{ { "bench/probe", "--bogus", NULL }, "bogus" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *argv[6] = { 0 }, err[512];
		int fds[2], j;
		ssize_t n;
		pid_t pid;

		for (j = 0; j < 3 && t[i].argv[j]; j++)
			argv[j] = t[i].argv[j];
		argv[j] = "--check";
		ck_assert_int_eq(pipe(fds), 0);
		pid = fork();
		if (pid == 0) {
			dup2(fds[1], 2);
			execv(argv[0], argv);
			_exit(127);
		}
		close(fds[1]);
		n = read(fds[0], err, sizeof(err) - 1);
		err[n > 0 ? n : 0] = '\0';
		close(fds[0]);
		ck_assert_int_eq(reap(pid), 1);
		ck_assert_msg(strstr(err, t[i].says) != NULL, "%s: '%s'",
		    t[i].argv[1], err);
		ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1,
		    "%s: '%s'", t[i].argv[1], err);
	}
}
END_TEST

Suite *
probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tu_tcase_local("accounting");
	TCase *e2e = tu_tcase("end-to-end");

	tcase_add_test(tc, idle_plays_everything);
	tcase_add_test(tc, late_wakeup_skips_periods);
	tcase_add_test(tc, overloaded_plays_nothing);
	tcase_add_test(tc, stop_mode_counts_whole_periods);
	tcase_add_test(tc, latency_statistics);
	tcase_add_test(tc, next_period);
	suite_add_tcase(s, tc);
	tcase_add_unchecked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 20);
	tcase_add_test(e2e, timed_run);
	tcase_add_test(e2e, stopped_by_sigusr1);
	tcase_add_test(e2e, interrupted_by_sigint);
	tcase_add_test(e2e, bad_input);
	suite_add_tcase(s, e2e);
	return s;
}
