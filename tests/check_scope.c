/*
 * check_scope.c - what the harness measures around a benchmark
 * (src/lib/scope.c): the cgroup counters of v1 and v2 on fixture files,
 * and the foreign CPU figure (its arithmetic, kernel threads per thread,
 * and a CPU burner beside forkbomb).
 */
#include <check.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scope.h"
#include "testutil.h"

/* Run a command line through the shell: tests/testutil.h. */
#define sh(...)	tu_sh_in(NULL, __VA_ARGS__)

static const char v1_stat_a[] =
    "cache 0\nrss 4096\nworkingset_refault_anon 10\n"
    "workingset_refault_file 5\nswap 0\npgpgin 100\npgpgout 50\n"
    "pgfault 1000\npgmajfault 3\ntotal_pgfault 99999\n";
static const char v1_stat_b[] =
    "cache 0\nrss 4096\nworkingset_refault_anon 30\n"
    "workingset_refault_file 6\nswap 8388608\npgpgin 200\npgpgout 80\n"
    "pgfault 5000\npgmajfault 10\ntotal_pgfault 199999\n";

START_TEST(cgroup_v1_counters)
{
	struct vb_cgroup cg = { .version = 1 };
	struct vb_cgsnap a, b;
	double row[VB_NCG];

	snprintf(cg.path, sizeof(cg.path), "%s", tu_dir);
	tu_fake("memory.stat", v1_stat_a);
	tu_fake("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\n"
	    "oom_kill 1\n");
	tu_fake("memory.max_usage_in_bytes", "1048576\n");
	tu_fake("memory.memsw.max_usage_in_bytes", "1048576\n");
	vb_cgroup_read(&cg, &a);
	tu_fake("memory.stat", v1_stat_b);
	tu_fake("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\n"
	    "oom_kill 3\n");
	tu_fake("memory.max_usage_in_bytes", "2097152\n");
	tu_fake("memory.memsw.max_usage_in_bytes", "10485760\n");
	vb_cgroup_read(&cg, &b);
	vb_cgroup_row(row, &b, &a);
	ck_assert_double_eq(row[VB_CG_PGFAULT], 4000);
	ck_assert_double_eq(row[VB_CG_PGMAJFAULT], 7);
	ck_assert_double_eq(row[VB_CG_REFAULT], 21);
	ck_assert_double_eq(row[VB_CG_OOM], 2);
	ck_assert_double_eq(row[VB_CG_PEAK], 2048);
	ck_assert_double_eq(row[VB_CG_MEMSW_PEAK], 10240);
	/* v1 keeps no swap-in/out counts: absent, not zero */
	ck_assert(isnan(row[VB_CG_PSWPOUT]));
	ck_assert(isnan(row[VB_CG_THP]));
	/* the reset of the peak writes 0 */
	vb_cgroup_reset_peak(&cg);
	{
		char v[64];

		ck_assert_str_eq(tu_line("memory.max_usage_in_bytes", v,
		    sizeof(v)), "0");
		ck_assert_str_eq(tu_line("memory.memsw.max_usage_in_bytes", v,
		    sizeof(v)), "0");
	}
}
END_TEST

START_TEST(cgroup_v2_counters)
{
	struct vb_cgroup cg = { .version = 2 };
	struct vb_cgsnap a, b;
	double row[VB_NCG], kb = (double)sysconf(_SC_PAGESIZE) / 1024;

	snprintf(cg.path, sizeof(cg.path), "%s", tu_dir);
	tu_fake("memory.stat", "anon 1\npgfault 10\npgmajfault 1\npswpin 2\n"
	    "pswpout 3\npgscan 100\npgsteal 90\nworkingset_refault_anon 4\n"
	    "workingset_refault_file 5\nthp_fault_alloc 0\n");
	tu_fake("memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n");
	vb_cgroup_read(&cg, &a);
	tu_fake("memory.stat", "anon 1\npgfault 110\npgmajfault 1\npswpin 12\n"
	    "pswpout 1003\npgscan 600\npgsteal 590\n"
	    "workingset_refault_anon 4\nworkingset_refault_file 15\n"
	    "thp_fault_alloc 512\n");
	tu_fake("memory.events", "low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n");
	vb_cgroup_read(&cg, &b);
	vb_cgroup_row(row, &b, &a);
	ck_assert_double_eq(row[VB_CG_PGFAULT], 100);
	ck_assert_double_eq(row[VB_CG_PSWPIN], 10 * kb);
	ck_assert_double_eq(row[VB_CG_PSWPOUT], 1000 * kb);
	ck_assert_double_eq(row[VB_CG_PGSCAN], 500);
	ck_assert_double_eq(row[VB_CG_PGSTEAL], 500);
	ck_assert_double_eq(row[VB_CG_REFAULT], 10);
	ck_assert_double_eq(row[VB_CG_THP], 512);
	ck_assert_double_eq(row[VB_CG_OOM], 1);
	ck_assert(isnan(row[VB_CG_PEAK]));
	ck_assert(isnan(row[VB_CG_MEMSW_PEAK]));
}
END_TEST

/* The arithmetic: busy less kernel threads less ours, per second. */
START_TEST(foreign_cpu_sum)
{
	/* 2 s; the machine busy 3 s, kswapd 0.5 s, our tree 1.5 s */
	ck_assert_double_eq_tol(vb_foreign_cpu(3, 0.5, 1.5, 2), 50, 1e-9);
	ck_assert_double_eq_tol(vb_foreign_cpu(1.5, 0, 1.5, 2), 0, 1e-9);
	ck_assert(isnan(vb_foreign_cpu(1, 0, 0, 0)));
}
END_TEST

/* Kernel threads per thread: one that ends or is new does not skew. */
START_TEST(kthread_delta)
{
	struct vb_kthread ka[] = { { 2, 100 }, { 7, 50 }, { 9, 1000 } };
	struct vb_kthread kb[] = { { 2, 130 }, { 9, 1005 }, { 11, 4 } };
	struct vb_cpuown a = { .n = 3, .kt = ka }, b = { .n = 3, .kt = kb };

	/* 30 + 5 + 4; thread 7 ended (its 50 do not count against) */
	ck_assert_uint_eq(vb_cpuown_kthread_delta(&a, &b), 39);
	/* a reused pid that reads less: a new thread, counted from 0 */
	kb[1].ticks = 3;
	ck_assert_uint_eq(vb_cpuown_kthread_delta(&a, &b), 37);
}
END_TEST

/*
 * In a child that the test forked to run beside a benchmark: end with
 * the test, or after the test case's timeout at the latest.  The child
 * inherits Check's SIGALRM handler, which kills the test's whole
 * process group, the test itself included ("Received signal 9"): the
 * default action ends the child alone.
 */
static void
child_bounded(void)
{
	signal(SIGALRM, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	alarm(120);
}

/*
 * A process burning a CPU beside a benchmark shows up in foreign_cpu
 * (the benchmark's own CPU is subtracted; other load only adds).  The
 * burner runs at nice 19: it takes the CPU no one else wants (on an
 * idle machine a whole one), not the CPU of the tests beside it, and
 * whatever it leaves is other processes' load, foreign as well.
 */
START_TEST(foreign_cpu_burner)
{
	char path[600];
	double busy;
	pid_t burner;
	int n;

	burner = fork();
	ck_assert_int_ge(burner, 0);
	if (burner == 0) {
		volatile unsigned long x = 0;

		child_bounded();
		if (nice(19) < 0)
			_exit(1);
		for (;;)
			x++;
	}
	/* an iteration of 0.3 s or more (300 forks, 0.7 ms or more each):
	   /proc/stat counts in ticks of 10 ms, a few ticks off each way
	   against the burner's 30 or more; one is enough, and the burner
	   burns for as long as the benchmark runs */
	ck_assert_int_eq(sh("bench/forkbomb --forks 300 --ints 10 "
	    "--iterations 1 --out %s/busy --workdir %s >/dev/null", tu_dir,
	    tu_dir), 0);
	kill(burner, SIGKILL);
	waitpid(burner, NULL, 0);
	snprintf(path, sizeof(path), "%s/busy.res", tu_dir);
	busy = tu_res_mean(path, "foreign_cpu", &n);
	ck_assert_int_eq(n, 1);
	ck_assert_msg(busy > 50, "with a CPU burner: foreign %.1f%%", busy);
}
END_TEST

/* The arithmetic: in use (total less available) less ours. */
START_TEST(foreign_mem_sum)
{
	ck_assert_double_eq(vb_foreign_mem_kb(1000, 600, 100), 300);
	ck_assert_double_eq(vb_foreign_mem_kb(1000, 1000, 0), 0);
	/* no MemAvailable (before 3.14), no MemTotal: not known */
	ck_assert(isnan(vb_foreign_mem_kb(1000, 0, 0)));
	ck_assert(isnan(vb_foreign_mem_kb(0, 600, 0)));
}
END_TEST

/* MemTotal (kB) of the real /proc/meminfo. */
static double
meminfo_total_kb(void)
{
	char line[256];
	double v = NAN;
	FILE *f = fopen("/proc/meminfo", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %lf kB", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* This process's resident memory (/proc/self/statm), in bytes; 0: unknown. */
static unsigned long
resident_bytes(void)
{
	unsigned long size, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * (unsigned long)getpagesize();
}

/*
 * A process holding 512 MiB (resident: its pages allocated by
 * MAP_POPULATE, which costs a tenth of writing to each page, and
 * counted) beside a benchmark shows up in foreign_mem_kb: at least what
 * it holds, whatever else the machine does (other use only adds).
 * MemTotal is the real one, MemAvailable within it, and its lowest no
 * higher than at the start.
 */
START_TEST(foreign_mem_holder)
{
	const size_t hold = 512UL << 20;
	char path[600], c;
	double held, total, avail, lo;
	pid_t holder;
	int p[2], n;

	ck_assert_int_eq(pipe(p), 0);
	holder = fork();
	ck_assert_int_ge(holder, 0);
	if (holder == 0) {
		unsigned long before = resident_bytes();
		char *m = mmap(NULL, hold, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		child_bounded();
		/* pages of its own (the zero page is not counted) */
		if (m == MAP_FAILED || resident_bytes() < before + hold)
			_exit(1);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], &c, 1), 1);
	close(p[0]);
	ck_assert_int_eq(sh("bench/forkbomb --forks 50 --ints 10 "
	    "--iterations 2 --out %s/held --workdir %s >/dev/null", tu_dir,
	    tu_dir), 0);
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	snprintf(path, sizeof(path), "%s/held.res", tu_dir);
	held = tu_res_mean(path, "foreign_mem_kb", &n);
	ck_assert_int_eq(n, 2);
	ck_assert_msg(held >= 0.95 * (double)(hold >> 10), "with 512 MiB "
	    "held: foreign %.0f kB", held);
	total = tu_res_mean(path, "mem_total_kb", &n);
	ck_assert_double_eq(total, meminfo_total_kb());
	avail = tu_res_mean(path, "mem_avail_kb", &n);
	lo = tu_res_mean(path, "mem_avail_min_kb", &n);
	ck_assert(avail > 0 && avail + held <= total);
	ck_assert(lo > 0 && lo <= avail);
}
END_TEST

Suite *
scope_suite(void)
{
	Suite *s = suite_create("scope");
	TCase *tc;

	tc = tu_tcase("scope");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, cgroup_v1_counters);
	tcase_add_test(tc, cgroup_v2_counters);
	tcase_add_test(tc, foreign_cpu_sum);
	tcase_add_test(tc, kthread_delta);
	tcase_add_test(tc, foreign_mem_sum);
	suite_add_tcase(s, tc);

	tc = tu_tcase("e2e");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, foreign_cpu_burner);
	tcase_add_test(tc, foreign_mem_holder);
	suite_add_tcase(s, tc);
	return s;
}
