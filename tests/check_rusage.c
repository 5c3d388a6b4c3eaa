/*
 * rusage figures (src/lib/rusage.c) and their time(1) formats
 * (src/lib/clock.c's vb_fmt_hms): the 2002 rmap post's tcsh line rebuilt
 * from its figures, and real children touching pages.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "rusage.h"
#include "testutil.h"

/* `time make -j2 bzImage` on 2.4.19-rmap (Kulesa, 2002) */
static void
kulesa(struct rusage *ru)
{
	memset(ru, 0, sizeof(*ru));
	ru->ru_utime.tv_sec = 1145;
	ru->ru_utime.tv_usec = 450000;
	ru->ru_stime.tv_sec = 74;
	ru->ru_stime.tv_usec = 290000;
	ru->ru_majflt = 1270393;
	ru->ru_minflt = 42;
	ru->ru_nvcsw = 7;
	ru->ru_nivcsw = 8;
	ru->ru_inblock = 0;
	ru->ru_oublock = 0;
	ru->ru_maxrss = 65536;
}

START_TEST(from_struct)
{
	struct vb_rusage u;
	struct rusage ru;

	kulesa(&ru);
	ru.ru_inblock = 12;
	ru.ru_oublock = 34;
	vb_rusage_from(&u, &ru, 1258.40);
	ck_assert_double_eq(u.elapsed, 1258.40);
	ck_assert_double_eq_tol(u.user, 1145.45, 1e-9);
	ck_assert_double_eq_tol(u.sys, 74.29, 1e-9);
	ck_assert_int_eq(u.majflt, 1270393);
	ck_assert_int_eq(u.minflt, 42);
	ck_assert_int_eq(u.nvcsw, 7);
	ck_assert_int_eq(u.nivcsw, 8);
	ck_assert_int_eq(u.inblock, 12);
	ck_assert_int_eq(u.oublock, 34);
	ck_assert_int_eq(u.maxrss, 65536);
	/* (1145.45 + 74.29) / 1258.40 */
	ck_assert_double_eq_tol(vb_rusage_cpu_pct(&u), 96.9278, 1e-3);
	u.elapsed = 0;
	ck_assert_double_eq(vb_rusage_cpu_pct(&u), 0);
}
END_TEST

START_TEST(diff)
{
	struct vb_rusage a = {
		.elapsed = 1, .user = 0.5, .sys = 0.25, .minflt = 100,
		.majflt = 2, .nvcsw = 10, .nivcsw = 1, .inblock = 8,
		.oublock = 16, .maxrss = 5000,
	}, b = {
		.elapsed = 3.5, .user = 1.75, .sys = 0.5, .minflt = 1100,
		.majflt = 5, .nvcsw = 30, .nivcsw = 4, .inblock = 80,
		.oublock = 24, .maxrss = 4000,
	}, d;

	vb_rusage_diff(&d, &b, &a);
	ck_assert_double_eq(d.elapsed, 2.5);
	ck_assert_double_eq(d.user, 1.25);
	ck_assert_double_eq(d.sys, 0.25);
	ck_assert_int_eq(d.minflt, 1000);
	ck_assert_int_eq(d.majflt, 3);
	ck_assert_int_eq(d.nvcsw, 20);
	ck_assert_int_eq(d.nivcsw, 3);
	ck_assert_int_eq(d.inblock, 72);
	ck_assert_int_eq(d.oublock, 8);
	ck_assert_int_eq(d.maxrss, 4000);	/* a peak: b's, not b - a */
	ck_assert_double_eq_tol(vb_rusage_cpu_pct(&d), 60, 1e-9);
}
END_TEST

START_TEST(tcsh_line)
{
	struct vb_rusage u;
	struct rusage ru;
	char buf[128];

	kulesa(&ru);
	vb_rusage_from(&u, &ru, 1258.40);
	ck_assert_str_eq(vb_rusage_tcsh(buf, sizeof(buf), &u),
	    "1145.450u 74.290s 20:58.40 96.9%\t0+0k 0+0io 1270393pf+0w");
	u.inblock = 5;
	u.oublock = 6;
	u.majflt = 0;
	u.user = 3.1;
	u.sys = 1.2;
	u.elapsed = 4.76;
	ck_assert_str_eq(vb_rusage_tcsh(buf, sizeof(buf), &u),
	    "3.100u 1.200s 0:04.76 90.3%\t0+0k 5+6io 0pf+0w");
	/* a short buffer is truncated, never overrun */
	memset(buf, 'x', sizeof(buf));
	vb_rusage_tcsh(buf, 10, &u);
	ck_assert_str_eq(buf, "3.100u 1.");
	ck_assert_int_eq(buf[10], 'x');
}
END_TEST

START_TEST(hms)
{
	static const struct {
		double s;
		const char *want;
	} t[] = {
		{ 0, "0:00.00" }, { 4.76, "0:04.76" }, { 59.994, "0:59.99" },
		{ 59.996, "1:00.00" }, { 61.5, "1:01.50" },
		{ 1258.40, "20:58.40" }, { 3599.99, "59:59.99" },
		{ 3600, "1:00:00" }, { 3723, "1:02:03" },
		{ 36000 + 59, "10:00:59" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_msg(strcmp(vb_fmt_hms(buf, sizeof(buf), t[i].s),
		    t[i].want) == 0, "%g s: '%s', want '%s'", t[i].s, buf,
		    t[i].want);
}
END_TEST

START_TEST(verbose)
{
	struct vb_rusage u;
	struct rusage ru;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kulesa(&ru);
	vb_rusage_from(&u, &ru, 1258.40);
	vb_rusage_print_verbose(f, &u);
	fclose(f);
	tu_assert_has(buf, "\tUser time (seconds): 1145.45\n");
	tu_assert_has(buf, "\tSystem time (seconds): 74.29\n");
	tu_assert_has(buf,
	    "\tPercent of CPU this job got: 97%\n");
	tu_assert_has(buf, "\tElapsed (wall clock) time "
	    "(h:mm:ss or m:ss): 20:58.40\n");
	tu_assert_has(buf,
	    "\tMajor (requiring I/O) page faults: 1270393\n");
	tu_assert_has(buf,
	    "\tMinor (reclaiming a frame) page faults: 42\n");
	tu_assert_has(buf,
	    "\tMaximum resident set size (kbytes): 65536\n");
	free(buf);
}
END_TEST

#define NPAGES 2048	/* 8M with 4K pages */

/* Map and write @n fresh anonymous pages. */
static void
touch(long n)
{
	long psz = sysconf(_SC_PAGESIZE), i;
	char *p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		_exit(2);
	/* no huge pages: one fault per page */
	madvise(p, (size_t)(n * psz), MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		p[i * psz] = 1;
}

/*
 * Fork a child that touches NPAGES pages, itself (@depth 0) or in a
 * grandchild it waits for (@depth 1); return wait4()'s figures.
 */
static void
child_tree(int depth, struct vb_rusage *u)
{
	struct rusage ru;
	uint64_t t0 = vb_now_ns();
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (depth > 0) {
			pid_t g = fork();

			if (g < 0)
				_exit(3);
			if (g == 0) {
				touch(NPAGES);
				_exit(0);
			}
			if (waitpid(g, &status, 0) != g || status != 0)
				_exit(4);
		} else {
			touch(NPAGES);
		}
		_exit(0);
	}
	ck_assert_int_eq(wait4(pid, &status, 0, &ru), pid);
	ck_assert_int_eq(status, 0);
	vb_rusage_from(u, &ru, vb_ns_to_s(vb_now_ns() - t0));
}

START_TEST(real_child)
{
	long kb = NPAGES * (sysconf(_SC_PAGESIZE) / 1024);
	struct vb_rusage u;

	child_tree(0, &u);
	ck_assert_int_ge(u.minflt, NPAGES);
	ck_assert_int_ge(u.maxrss, kb);
	ck_assert(u.user + u.sys > 0);
	ck_assert(u.elapsed > 0);
	/* the tree's figures include a reaped grandchild's */
	child_tree(1, &u);
	ck_assert_int_ge(u.minflt, NPAGES);
	ck_assert_int_ge(u.maxrss, kb);
}
END_TEST

Suite *
rusage_suite(void)
{
	Suite *s = suite_create("rusage");
	TCase *tc = tu_tcase("rusage");

	tcase_add_test(tc, from_struct);
	tcase_add_test(tc, diff);
	tcase_add_test(tc, tcsh_line);
	tcase_add_test(tc, hms);
	tcase_add_test(tc, verbose);
	tcase_add_test(tc, real_child);
	suite_add_tcase(s, tc);
	return s;
}
