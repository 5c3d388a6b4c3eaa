/*
 * check_vmlat.c - vmlat: the timing loop (a fake clock and a sleeping
 * body), the arithmetic of each figure, LMbench's tables against a
 * golden output, end-to-end runs on tiny sizes, bad options, Ctrl-C.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "forms/form.h"
#include "testutil.h"
#include "vmlat/ops.h"
#include "vmlat/time.h"

/* ---- the timing loop ---- */

static uint64_t fake_ns;		/* the fake clock */
static uint64_t fake_cost;		/* ns each operation takes on it */
static uint64_t fake_ops, fake_pre, fake_post;

static uint64_t
fake_now(void)
{
	return fake_ns;
}

static int
fake_op(void *arg, uint64_t n)
{
	(void)arg;
	fake_ns += n * fake_cost;
	fake_ops += n;
	return 0;
}

static int
fake_pre_fn(void *arg, uint64_t n)
{
	(void)arg;
	fake_pre += n;
	fake_ns += 1000000000;		/* untimed: must not count */
	return 0;
}

static int
fake_post_fn(void *arg, uint64_t n)
{
	(void)arg;
	fake_post += n;
	return 0;
}

START_TEST(grows_until_long_enough)
{
	struct lt_spec s = { .enough_ns = 5000000, .reps = 11,
	    .max_n = 1 << 27, .now = fake_now };
	struct lt_body b = { fake_pre_fn, fake_op, fake_post_fn, NULL };
	struct lt_result r;
	char err[160];

	fake_ns = fake_ops = fake_pre = fake_post = 0;
	fake_cost = 1000;		/* 1 us an operation */
	ck_assert_int_eq(lt_measure(&s, &b, &r, err, sizeof(err)), 0);
	ck_assert_msg(fabs(r.ns_per_op - 1000) < 1e-9, "%g", r.ns_per_op);
	/* 1, 8, 64, 512, then scaled to 1.1 x 5 ms: 5501, kept 11 times */
	ck_assert_uint_eq(r.n, 5501);
	ck_assert_int_eq(r.intervals, 4 + 11);
	ck_assert_uint_eq(fake_ops, 1 + 8 + 64 + 512 + 11 * 5501);
	ck_assert_uint_eq(fake_pre, fake_ops);
	ck_assert_uint_eq(fake_post, fake_ops);
}
END_TEST

START_TEST(growth_rule)
{
	/* short and unscalable: times 8 */
	ck_assert_uint_eq(lt_grow(1, 100, 5000000), 8);
	/* above 150 us: scaled to 1.1 of the target */
	ck_assert_uint_eq(lt_grow(1000, 1000000, 5000000), 5501);
	/* within 0.99 to 1.2 of the target: kept as is */
	ck_assert_uint_eq(lt_grow(77, 5000000, 5000000), 77);
	ck_assert_uint_eq(lt_grow(77, 5999999, 5000000), 77);
	/* too long: scaled down */
	ck_assert_uint_eq(lt_grow(100, 10000000, 5000000), 56);
}
END_TEST

static uint64_t seq_i;

/* Each interval costs a different amount: the median must win. */
static int
uneven_op(void *arg, uint64_t n)
{
	static const uint64_t f[] = { 50, 10, 30, 20, 40 };

	(void)arg;
	fake_ns += n * 1000 * f[seq_i++ % 5] / 10;
	return 0;
}

START_TEST(median_of_kept)
{
	struct lt_spec s = { .enough_ns = 100, .reps = 5, .max_n = 1000,
	    .now = fake_now };
	struct lt_body b = { NULL, uneven_op, NULL, NULL };
	struct lt_result r;
	char err[160];
	double v[] = { 3, 1, 2, 4 };

	fake_ns = 0;
	seq_i = 0;
	ck_assert_int_eq(lt_measure(&s, &b, &r, err, sizeof(err)), 0);
	ck_assert_msg(fabs(r.ns_per_op - 3000) < 1e-9, "%g", r.ns_per_op);
	ck_assert_msg(fabs(r.min_ns_per_op - 1000) < 1e-9, "%g",
	    r.min_ns_per_op);
	ck_assert_double_eq(lt_median(v, 4), 2.5);
	ck_assert(isnan(lt_median(v, 0)));
}
END_TEST

START_TEST(too_fast_to_time)
{
	struct lt_spec s = { .enough_ns = 5000000, .reps = 3, .max_n = 4096,
	    .now = fake_now };
	struct lt_body b = { NULL, fake_op, NULL, NULL };
	struct lt_result r;
	char err[160];

	fake_ns = 0;
	fake_cost = 0;
	ck_assert_int_eq(lt_measure(&s, &b, &r, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "too fast to time"), "%s", err);
}
END_TEST

/* A body of real sleeps: 300 us an operation, on the real clock. */
static int
sleep_op(void *arg, uint64_t n)
{
	struct timespec ts = { 0, 300000 };

	(void)arg;
	while (n-- > 0)
		nanosleep(&ts, NULL);
	return 0;
}

START_TEST(sleeping_body)
{
	struct lt_spec s = { .enough_ns = 3000000, .reps = 3,
	    .max_n = 1 << 20 };
	struct lt_body b = { NULL, sleep_op, NULL, NULL };
	struct lt_result r;
	char err[160];

	ck_assert_int_eq(lt_measure(&s, &b, &r, err, sizeof(err)), 0);
	ck_assert_msg(r.ns_per_op >= 300000 && r.ns_per_op < 100000000, "%g",
	    r.ns_per_op);
	/* an interval was long enough: at least 0.95 of 3 ms */
	ck_assert_msg((double)r.n * r.ns_per_op >= 2850000, "n %llu",
	    (unsigned long long)r.n);
}
END_TEST

/* ---- the figures' arithmetic ---- */

START_TEST(figure_units)
{
	/* per operation: ns to us */
	ck_assert_double_eq_tol(lt_us(441930.2), 441.9302, 1e-9);
	/* bandwidth: 8M bytes in 2.5 ms is 3355.4432 MB/s (10^6 bytes) */
	ck_assert_double_eq_tol(lt_mbs(8388608, 2500000), 3355.4432, 1e-6);
	ck_assert(isnan(lt_mbs(1, 0)));
	/* per page: (with - without) / pages */
	ck_assert_double_eq_tol(lt_us_diff(2048000 + 512000, 512000, 2048),
	    1.0, 1e-12);
	/* noise that makes the difference negative is 0, as LMbench */
	ck_assert_double_eq(lt_us_diff(100, 200, 1), 0);
}
END_TEST

/* ---- the tables ---- */

START_TEST(lm_numbers)
{
	char b[32];

	ck_assert_str_eq(lmbench_num(b, sizeof(b), 1.0764, 5), "1.076");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), 8.04, 5), "8.040");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), 123.94, 6), "123.9");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), 2602.4, 7), "2602");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), 13612, 5), "13612");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), 123456, 5), "123K");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), 123456, 6), "123456");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), 1234567, 6), "1235K");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), 12345, 7), "12345");
	ck_assert_str_eq(lmbench_num(b, sizeof(b), NAN, 5), "-");
}
END_TEST

/* The tables of @n fixture folders into a string (caller frees). */
static char *
tables_of(const char *const *dirs, int n)
{
	struct rl_set s;
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	memset(&s, 0, sizeof(s));
	s.nk = n;
	s.k = calloc((size_t)n, sizeof(*s.k));
	for (i = 0; i < n; i++)
		ck_assert_msg(rl_load_kernel(dirs[i], &s.k[i], err,
		    sizeof(err)) == 0, "%s", err);
	rl_index(&s);
	f = open_memstream(&out, &len);
	ck_assert_int_eq(form_lmbench.table(f, &s, form_lmbench.bench, 80), 4);
	fclose(f);
	rl_free(&s);
	return out;
}

START_TEST(tables_golden)
{
	static const char *const dirs[] = { "tests/fixtures/lmbench-a",
		"tests/fixtures/lmbench-b" };
	char *out = tables_of(dirs, 2), *want, *p, *nl;
	size_t len = 0;
	FILE *f = fopen("tests/golden/lmbench.out", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(getdelim(&want, &len, '\0', f), 0);
	fclose(f);
	ck_assert_str_eq(out, want);
	for (p = out; (nl = strchr(p, '\n')); p = nl + 1)
		ck_assert_msg(nl - p <= 80, "wider than 80: %.*s",
		    (int)(nl - p), p);
	free(want);
	free(out);
}
END_TEST

/* ---- end to end ---- */

/*
 * Run bench/vmlat with @args (NULL-ended, after the program), stdout
 * to /dev/null, stderr into @err; exit status, -1 when killed.
 */
static int
vmlat(char *err, size_t len, const char *const *args)
{
	char *argv[32];
	int fds[2], status, i = 0;
	ssize_t n, got = 0;
	pid_t pid;

	argv[i++] = "bench/vmlat";
	while (*args && i < 31)
		argv[i++] = (char *)*args++;
	argv[i] = NULL;
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], err + got, len - 1 - (size_t)got)) > 0)
		got += n;
	err[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The values of metric @m in result file @path (up to @max). */
static int
values(const char *path, const char *m, double *v, int max)
{
	struct vb_res r;
	char err[256];
	int i, col, n = 0;

	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s",
	    err);
	col = vb_res_metric_index(&r, m);
	ck_assert_int_ge(col, 0);
	for (i = 0; i < r.niter && n < max; i++)
		v[n++] = vb_res_get(&r, i, col);
	vb_res_free(&r);
	return n;
}

START_TEST(every_figure_tiny)
{
	static const char *const m[] = { "fork_us", "exec_us", "sh_us",
		"create_0k_us", "delete_0k_us", "create_10k_us",
		"delete_10k_us", "mmap_us", "prot_fault_us", "page_fault_us",
		"page_fault_cold_us", "anon_fault_us", "file_reread_mbs", "mmap_reread_mbs",
		"mem_read_mbs", "mem_write_mbs", "bcopy_mbs", NULL };
	char out[300], res[320], err[2048];
	const char *args[] = { "--iterations", "2", "--size", "1M",
		"--enough", "300", "--reps", "1", "--out", out, "--workdir",
		tu_dir, NULL };
	double v[4];
	int i;

	snprintf(out, sizeof(out), "%s/all", tu_dir);
	ck_assert_msg(vmlat(err, sizeof(err), args) == 0, "%s", err);
	snprintf(res, sizeof(res), "%s.res", out);
	for (i = 0; m[i]; i++) {
		ck_assert_int_eq(values(res, m[i], v, 4), 2);
		/* the faults are differences of two loops, which noise
		   on so short a run can bring to 0; the rest are positive */
		ck_assert_msg(!isnan(v[0]) && !isnan(v[1]) && v[0] >= 0 &&
		    (v[0] > 0 || strstr(m[i], "fault")), "%s: %g", m[i],
		    v[0]);
	}
	/* the work folder is gone */
	ck_assert_int_eq(tu_count_except(tu_dir, "all."), 0);
}
END_TEST

/*
 * vmlat with --test and @opts (NULL-terminated, up to 8) into T/@tag:
 * its figure @metric, which must lie in (@lo, @hi), and @absent, a
 * figure of another test, not measured; returns the figure.
 */
static double
one_figure(const char *tag, const char *const *opts, const char *metric,
    double lo, double hi, const char *absent)
{
	char out[300], res[320], err[2048];
	const char *args[16];
	double v[2], fig;
	int i = 0;

	snprintf(out, sizeof(out), "%s/%s", tu_dir, tag);
	while (*opts && i < 8)
		args[i++] = *opts++;
	args[i++] = "--reps";
	args[i++] = "3";
	args[i++] = "--out";
	args[i++] = out;
	args[i++] = "--workdir";
	args[i++] = tu_dir;
	args[i] = NULL;
	ck_assert_msg(vmlat(err, sizeof(err), args) == 0, "%s", err);
	snprintf(res, sizeof(res), "%s.res", out);
	ck_assert_int_eq(values(res, metric, v, 2), 1);
	ck_assert_msg(v[0] > lo && v[0] < hi, "%s: %g", metric, v[0]);
	fig = v[0];
	ck_assert_int_eq(values(res, absent, v, 2), 1);
	ck_assert(isnan(v[0]));
	return fig;
}

START_TEST(one_test_only)
{
	static const char *const opts[] = { "--test", "fork", "--iterations",
		"1", "--enough", "2000", NULL };

	/* a fork, exit and wait takes 10 us to 100 ms on any machine */
	one_figure("fork", opts, "fork_us", 10, 100000, "mmap_us");
}
END_TEST

/*
 * The processes whose fork is timed run at a fixed address-space
 * layout: the exec figure's helper, a script here, finds
 * ADDR_NO_RANDOMIZE (0x0040000) in its personality, inherited from the
 * iteration child through fork and exec; the result says so.
 */
START_TEST(fixed_layout_timed)
{
	char helper[300], out[300], res[320], pers[320], err[2048], cmd[700];
	const char *args[] = { "--test", "exec", "--helper", helper, "--reps",
		"1", "--enough", "1000", "--out", out, "--workdir", tu_dir,
		NULL };
	unsigned long p = 0;
	char *text;
	FILE *f;

	snprintf(pers, sizeof(pers), "%s/pers", tu_dir);
	snprintf(cmd, sizeof(cmd), "#!/bin/sh\n/bin/cat /proc/self/personality "
	    "> %s\n", pers);
	tu_write(helper, sizeof(helper), "pers.sh", cmd);
	ck_assert_int_eq(chmod(helper, 0755), 0);
	snprintf(out, sizeof(out), "%s/layout", tu_dir);
	ck_assert_msg(vmlat(err, sizeof(err), args) == 0, "%s", err);
	f = fopen(pers, "r");
	ck_assert_msg(f != NULL, "the helper wrote no %s", pers);
	ck_assert_int_eq(fscanf(f, "%lx", &p), 1);
	fclose(f);
	ck_assert_msg(p & 0x0040000, "the timed helper's personality is %08lx: "
	    "no ADDR_NO_RANDOMIZE", p);
	snprintf(res, sizeof(res), "%s.res", out);
	text = tu_slurp(res);
	ck_assert_msg(text != NULL, "no %s", res);
	tu_assert_has(text, "address-space layout fixed (ADDR_NO_RANDOMIZE");
	free(text);
}
END_TEST

/*
 * --one-cpu: what the timed loops fork runs on one CPU.  The exec
 * figure's helper, a script here, writes the CPUs it may run on
 * (Cpus_allowed_list) into a file; without --one-cpu they are all of
 * them (a list with "," or "-" on a machine of 2 or more), with it a
 * single number.
 */
static void
allowed_of_helper(int one, char *got, size_t len)
{
	char helper[300], out[300], list[320], err[2048], cmd[700];
	const char *args[16];
	FILE *f;
	int i = 0;

	snprintf(list, sizeof(list), "%s/allowed", tu_dir);
	snprintf(cmd, sizeof(cmd), "#!/bin/sh\n/bin/sed -n 's/^Cpus_allowed_list:"
	    "[[:space:]]*//p' /proc/self/status > %s\n", list);
	tu_write(helper, sizeof(helper), "cpus.sh", cmd);
	ck_assert_int_eq(chmod(helper, 0755), 0);
	snprintf(out, sizeof(out), "%s/one%d", tu_dir, one);
	args[i++] = "--test";
	args[i++] = "exec";
	args[i++] = "--helper";
	args[i++] = helper;
	args[i++] = "--reps";
	args[i++] = "1";
	args[i++] = "--enough";
	args[i++] = "1000";
	args[i++] = "--out";
	args[i++] = out;
	args[i++] = "--workdir";
	args[i++] = tu_dir;
	if (one)
		args[i++] = "--one-cpu";
	args[i] = NULL;
	ck_assert_msg(vmlat(err, sizeof(err), args) == 0, "%s", err);
	f = fopen(list, "r");
	ck_assert_msg(f != NULL, "the helper wrote no %s", list);
	ck_assert(fgets(got, (int)len, f) != NULL);
	fclose(f);
	got[strcspn(got, "\n")] = '\0';
}

START_TEST(one_cpu_pins_children)
{
	char all[128], one[128];

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		tu_skip("needs 2 CPUs or more");
		return;
	}
	allowed_of_helper(0, all, sizeof(all));
	allowed_of_helper(1, one, sizeof(one));
	ck_assert_msg(strpbrk(all, ",-") != NULL, "without --one-cpu the "
	    "helper may run on '%s' only", all);
	ck_assert_msg(one[0] && strspn(one, "0123456789") == strlen(one),
	    "with --one-cpu the helper may run on '%s', not one CPU", one);
}
END_TEST

/*
 * The cold page fault: the data file's pages are in the cache after it
 * is written, gone after lo_drop_cache (mincore), and gone before every
 * timed pass; each page then costs a read from the disk.
 */
START_TEST(cold_pages_gone)
{
	struct lo_ctx c;
	char path[300];
	double us;
	int fd;

	memset(&c, 0, sizeof(c));
	c.spec.enough_ns = 300000;
	c.spec.reps = 1;
	c.spec.max_n = 1ULL << 27;
	c.dir = tu_dir;
	c.size = 1 << 20;
	ck_assert_msg(lo_make_file(&c) == 0, "%s", c.err);
	snprintf(path, sizeof(path), "%s/vmlat.data", tu_dir);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_gt(lo_cached_pages(&c, fd), 0);
	ck_assert_msg(lo_drop_cache(&c, fd) == 0, "%s", c.err);
	ck_assert_int_eq(lo_cached_pages(&c, fd), 0);
	close(fd);
	us = lo_pagefault_cold(&c);
	ck_assert_msg(c.err[0] == '\0', "%s", c.err);
	/* one pass at least with the reads and one without, each checked */
	ck_assert_uint_ge(c.cold_passes, 2);
	ck_assert_msg(us > 0 && !isnan(us), "%g", us);
	/* the timing loop's clock is the caller's again */
	ck_assert_ptr_null(c.spec.now);
}
END_TEST

START_TEST(pagefault_cold_only)
{
	static const char *const cold[] = { "--test", "pagefault_cold",
		"--size", "1M", "--enough", "300", NULL };
	static const char *const cached[] = { "--test", "pagefault",
		"--size", "1M", "--enough", "300", NULL };
	double c, w;

	/*
	 * a page read from a disk: above twice a fault on a cached page of
	 * the same file (about 100 us against 0.1 us on a virtio disk),
	 * below 1 s
	 */
	c = one_figure("cold", cold, "page_fault_cold_us", 0, 1e6,
	    "page_fault_us");
	/* a cached fault may round to 0 us on a fast machine: >= 0 */
	w = one_figure("cached", cached, "page_fault_us", -1, 1e6,
	    "page_fault_cold_us");
	ck_assert_msg(c > 2 * w, "cold fault %g us, cached %g us", c, w);
}
END_TEST

START_TEST(bad_options)
{
	static const char *const bad[][4] = {
		{ "--test", "nope", NULL },
		{ "--size", "10K", NULL },
		{ "--reps", "0", NULL },
		{ "--test", "exec", "--helper", "/no such" },
		{ "--test", "sh", "--helper", "/nonexistent/hello" },
		{ "--enough", "x", NULL },
		{ "--size", "1500001", NULL },
	};
	char err[2048];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[8] = { bad[i][0], bad[i][1], bad[i][2],
			bad[i][3], NULL };

		if (!args[2])
			args[3] = NULL;
		ck_assert_int_ne(vmlat(err, sizeof(err), args), 0);
		ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1,
		    "%s: '%s'", bad[i][0], err);
	}
}
END_TEST

START_TEST(ctrl_c_leaves_nothing)
{
	char out[300], w[300];
	int status;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/int", tu_dir);
	snprintf(w, sizeof(w), "%s/w", tu_dir);
	ck_assert_int_eq(mkdir(w, 0700), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		/* thousands of files a second for a long time */
		execl("bench/vmlat", "vmlat", "--test", "fs0k", "--enough",
		    "2000000", "--reps", "50", "--out", out, "--workdir", w,
		    (char *)NULL);
		_exit(127);
	}
	/* wait for the files to appear, then interrupt */
	ck_assert_int_eq(tu_sh_in(NULL, "for i in $(seq 100); do "
	    "ls -d '%s'/vmbench-vmlat.*/fs.* >/dev/null 2>&1 && exit 0; "
	    "sleep 0.05; done; exit 1", w), 0);
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 130,
	    "status %d", status);
	ck_assert_int_eq(tu_count_except(w, ""), 0);
}
END_TEST

Suite *
vmlat_suite(void)
{
	Suite *s = suite_create("vmlat");
	TCase *tc = tu_tcase("timing");
	TCase *e2e = tu_tcase("end-to-end");

	tcase_add_test(tc, grows_until_long_enough);
	tcase_add_test(tc, growth_rule);
	tcase_add_test(tc, median_of_kept);
	tcase_add_test(tc, too_fast_to_time);
	tcase_add_test(tc, sleeping_body);
	tcase_add_test(tc, figure_units);
	tcase_add_test(tc, lm_numbers);
	tcase_add_test(tc, tables_golden);
	suite_add_tcase(s, tc);
	tcase_add_unchecked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 60);
	tcase_add_test(e2e, every_figure_tiny);
	tcase_add_test(e2e, one_test_only);
	tcase_add_test(e2e, one_cpu_pins_children);
	tcase_add_test(e2e, fixed_layout_timed);
	tcase_add_test(e2e, cold_pages_gone);
	tcase_add_test(e2e, pagefault_cold_only);
	tcase_add_test(e2e, bad_options);
	tcase_add_test(e2e, ctrl_c_leaves_nothing);
	suite_add_tcase(s, e2e);
	return s;
}
