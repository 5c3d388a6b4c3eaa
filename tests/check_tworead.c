/*
 * check_tworead.c - tworead: the range and sweep arithmetic (scaling the
 * 2006 clockpro test to a memory size), the memory basis, and end-to-end
 * runs of bench/tworead (2read, --sweep, --cached, bad input, Ctrl-C)
 * checked through the result reader and the work folder left behind.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "res.h"
#include "testutil.h"
#include "tworead/plan.h"

#define MiB (1ULL << 20)

static struct tr_plan
plan(uint64_t mem, uint64_t block)
{
	struct tr_plan p;

	memset(&p, 0, sizeof(p));
	p.mem = mem;
	p.block = block;
	return p;
}

/* mem=1008m gives back the post's numbers exactly. */
START_TEST(plan_original)
{
	struct tr_plan p = plan(1008 * MiB, 4096);
	char err[256];
	size_t i;

	ck_assert_msg(tr_plan_make(&p, 0, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(p.unit, MiB);
	ck_assert_uint_eq(p.n, 300);
	ck_assert_uint_eq(p.range_a, 300 * MiB);
	ck_assert_uint_eq(p.range_b, 800 * MiB);
	ck_assert_uint_eq(p.size_a, 1073741824ULL);
	ck_assert_uint_eq(p.size_b, 1572864000ULL);
	for (i = 0; i < TR_NSWEEP; i++) {
		unsigned n = tr_sweep_ns[i];

		p = plan(1008 * MiB, 4096);
		ck_assert_int_eq(tr_plan_make(&p, n, err, sizeof(err)), 0);
		ck_assert_uint_eq(p.n, n);
		ck_assert_uint_eq(p.range_a, n * MiB);
		ck_assert_uint_eq(p.range_b, (1100 - n) * MiB);
	}
	ck_assert_uint_eq(tr_sweep_ns[0], 100);
	ck_assert_uint_eq(tr_sweep_ns[TR_NSWEEP - 1], 500);
}
END_TEST

/* Any memory: the ranges keep their ratio to it and overflow it. */
START_TEST(plan_scaled)
{
	static const uint64_t mems[] = { 16 * MiB, 256 * MiB, 1000 * MiB,
	    3 * 1024 * MiB + 12345, 24ULL * 1024 * MiB };
	static const uint64_t blocks[] = { 4096, 65536, 1000 };
	char err[256];
	size_t i, j, k;

	for (i = 0; i < sizeof(mems) / sizeof(mems[0]); i++)
	for (j = 0; j < sizeof(blocks) / sizeof(blocks[0]); j++)
	for (k = 0; k < TR_NSWEEP; k++) {
		struct tr_plan p = plan(mems[i], blocks[j]);
		unsigned n = tr_sweep_ns[k];
		double total, unit = (double)mems[i] / 1008;

		ck_assert_int_eq(tr_plan_make(&p, n, err, sizeof(err)), 0);
		ck_assert_uint_eq(p.range_a % p.block, 0);
		ck_assert_uint_eq(p.range_b % p.block, 0);
		ck_assert_uint_eq(p.size_a % p.block, 0);
		ck_assert(p.range_a <= p.size_a && p.range_b <= p.size_b);
		/* within a block (and the unit's rounding) of n units */
		ck_assert(fabs((double)p.range_a - n * unit) <=
		    p.block + n);
		ck_assert(fabs((double)p.range_b - (1100 - n) * unit) <=
		    p.block + 1100);
		total = (double)(p.range_a + p.range_b);
		/* both ranges: 1100/1008 of memory, "a little" over */
		ck_assert_msg(total > (double)mems[i] &&
		    total < 1.1 * (double)mems[i], "mem %llu n %u: %.0f",
		    (unsigned long long)mems[i], n, total);
		ck_assert(fabs((double)p.size_b / (double)p.size_a -
		    1500.0 / 1024) < 0.01);
	}
}
END_TEST

START_TEST(plan_given_and_errors)
{
	struct tr_plan p = plan(1008 * MiB, 4096);
	char err[256];

	/* given ranges: no n, sizes still scaled */
	p.range_a = 10 * MiB;
	p.range_b = 20 * MiB;
	ck_assert_int_eq(tr_plan_make(&p, 0, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_uint_eq(p.range_a, 10 * MiB);
	ck_assert_uint_eq(p.size_a, 1024 * MiB);
	/* a range above the default size grows the file */
	p = plan(1008 * MiB, 4096);
	p.range_b = 2000 * MiB;
	ck_assert_int_eq(tr_plan_make(&p, 0, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.size_b, 2000 * MiB);

	p = plan(1008 * MiB, 4096);
	p.range_a = MiB;
	ck_assert_int_lt(tr_plan_make(&p, 200, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "--sweep 200 sets both ranges: give either "
	    "--sweep or --range-a/--range-b");
	p = plan(1008 * MiB, 4096);
	p.range_a = 2048 * MiB;
	p.size_a = 1024 * MiB;
	ck_assert_int_lt(tr_plan_make(&p, 0, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "--range-a 2G is larger than --size-a 1G");
	p = plan(1008 * MiB, 4096);
	p.range_b = 100;
	ck_assert_int_lt(tr_plan_make(&p, 0, err, sizeof(err)), 0);
	tu_assert_has(err, "--range-b 100 is smaller than one "
	    "--block");
	p = plan(1008 * MiB, 4096);
	ck_assert_int_lt(tr_plan_make(&p, 1100, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "--sweep 1100: n must be between 1 and 1099");
	/* a memory too small for one block per range */
	p = plan(1008 * 4, 4096);
	ck_assert_int_lt(tr_plan_make(&p, 100, err, sizeof(err)), 0);
	tu_assert_has(err, "smaller than one --block");
}
END_TEST

START_TEST(variants_and_basis)
{
	char buf[16], err[256];
	const char *src;
	uint64_t mem;
	size_t i;

	for (i = 0; i < TR_NSWEEP; i++) {
		char want[16];

		snprintf(want, sizeof(want), "n%u", 100 * (unsigned)(i + 1));
		ck_assert_str_eq(tr_variant(buf, sizeof(buf), tr_sweep_ns[i]),
		    want);
	}
	setenv("VMBENCH_MEM_LIMIT", "268435456", 1);
	ck_assert_int_eq(tr_mem_basis(&mem, &src, err, sizeof(err)), 0);
	ck_assert_uint_eq(mem, 256 * MiB);
	ck_assert_str_eq(src, "VMBENCH_MEM_LIMIT");
	setenv("VMBENCH_MEM_LIMIT", "256M", 1);
	ck_assert_int_lt(tr_mem_basis(&mem, &src, err, sizeof(err)), 0);
	tu_assert_has(err, "VMBENCH_MEM_LIMIT: ");
	tu_assert_has(err, "256M");
	unsetenv("VMBENCH_MEM_LIMIT");
	ck_assert_int_eq(tr_mem_basis(&mem, &src, err, sizeof(err)), 0);
	ck_assert_uint_gt(mem, 0);
	ck_assert(mem <= (uint64_t)sysconf(_SC_PHYS_PAGES) *
	    (uint64_t)sysconf(_SC_PAGESIZE));
}
END_TEST

/* Run bench/tworead with @args; its exit status, output in tr.out. */
static int
tworead(const char *args)
{
	return tu_sh_in(NULL, "bench/tworead %s --workdir %s --out %s/tr "
	    ">%s/tr.out 2>&1", args, tu_dir, tu_dir, tu_dir);
}

static char *
output(char *buf, size_t len)
{
	char p[512];
	FILE *f = fopen(tu_path(p, sizeof(p), "tr.out"), "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Entries in tu_dir besides tr.* (the work folder must be gone). */
static int
leftovers(void)
{
	return tu_count_except(tu_dir, "tr.");
}

static void
readres(struct vb_res *r)
{
	char p[512], err[512];

	ck_assert_msg(vb_res_read(tu_path(p, sizeof(p), "tr.res"), r, err,
	    sizeof(err)) == 0, "%s", err);
}

static double
get(const struct vb_res *r, const char *m)
{
	int i = vb_res_metric_index(r, m);

	ck_assert_msg(i >= 0, "no metric %s", m);
	return vb_res_get(r, r->niter - 1, i);
}

START_TEST(e2e_tworead)
{
	struct vb_res r;
	char buf[8192];
	double a, b;

	ck_assert_int_eq(tworead("--size-a 8M --size-b 12M --range-a 2M "
	    "--range-b 6M --duration 0.6 --print-interval 0.2 --iterations 2"),
	    0);
	readres(&r);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_str_eq(r.headline, "half_reads");
	ck_assert_int_eq(r.niter, 2);
	ck_assert_str_eq(vb_res_param(&r, "range-a"), "2M");
	ck_assert_str_eq(vb_res_param(&r, "block"), "4K");
	ck_assert(get(&r, "half_reads") > 0);
	ck_assert(get(&r, "reads") == 2 * get(&r, "half_reads"));
	ck_assert(fabs(get(&r, "reads_per_s") * get(&r, "elapsed") /
	    get(&r, "reads") - 1) < 0.2);
	a = get(&r, "resident_a_pct");
	b = get(&r, "resident_b_pct");
	/* small ranges read many times over: they end up cached */
	ck_assert_msg(a > 50 && a <= 100 && b > 50 && b <= 100, "%g %g", a, b);
	ck_assert(get(&r, "resident_a_mib") <= 2.0);
	vb_res_free(&r);
	output(buf, sizeof(buf));
	/* the original's progress lines: seconds and reads/2 */
	ck_assert_msg(strstr(buf, "     0.2 s  ") != NULL, "%s", buf);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

START_TEST(e2e_sweep_and_cached)
{
	struct vb_res r;
	char want[32];

	ck_assert_int_eq(tworead("--sweep 200 --mem 16M --duration 0.3 "
	    "--variant n200"), 0);
	readres(&r);
	ck_assert_str_eq(r.variant, "n200");
	ck_assert_str_eq(vb_res_param(&r, "sweep"), "200");
	/* unit = 16M / 1008 = 16644 bytes; 200 of them, whole 4K blocks */
	snprintf(want, sizeof(want), "%.1fM",
	    (double)(16644ULL * 200 / 4096 * 4096) / MiB);
	ck_assert_str_eq(vb_res_param(&r, "range-a"), want);
	ck_assert(get(&r, "half_reads") > 0);
	vb_res_free(&r);
	ck_assert_int_eq(leftovers(), 0);

	ck_assert_int_eq(tworead("--cached --duration 0.3 --variant cached"),
	    0);
	readres(&r);
	/* the headline: the reading's MiB/s over its time less its wait */
	ck_assert_str_eq(r.headline, "cached_run_mib_per_s");
	ck_assert_str_eq(vb_res_param(&r, "size-a"), "2M");
	ck_assert(get(&r, "cached_mib_per_s") > 10);
	ck_assert_msg(get(&r, "wait_s") >= 0 && get(&r,
	    "cached_run_mib_per_s") >= get(&r, "cached_mib_per_s"),
	    "cached_run_mib_per_s %g, cached_mib_per_s %g, wait_s %g",
	    get(&r, "cached_run_mib_per_s"), get(&r, "cached_mib_per_s"),
	    get(&r, "wait_s"));
	ck_assert(get(&r, "reads") > 0);
	vb_res_free(&r);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

/*
 * --reads N: a fixed amount of work, in 2read and --cached mode: every
 * iteration stops after exactly N read() calls (an odd N after A's),
 * however long they take.
 */
START_TEST(e2e_reads)
{
	struct vb_res r;
	int i, m, h;

	ck_assert_int_eq(tworead("--size-a 8M --size-b 12M --range-a 2M "
	    "--range-b 6M --reads 3001 --iterations 2"), 0);
	readres(&r);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_str_eq(vb_res_param(&r, "reads"), "3001");
	ck_assert_str_eq(vb_res_param(&r, "duration"), "0");
	ck_assert_int_eq(r.niter, 2);
	m = vb_res_metric_index(&r, "reads");
	h = vb_res_metric_index(&r, "half_reads");
	ck_assert(m >= 0 && h >= 0);
	for (i = 0; i < r.niter; i++) {
		ck_assert_msg(vb_res_get(&r, i, m) == 3001, "iteration %d: "
		    "%g reads", i + 1, vb_res_get(&r, i, m));
		ck_assert(vb_res_get(&r, i, h) == 1500);
	}
	vb_res_free(&r);
	ck_assert_int_eq(leftovers(), 0);

	ck_assert_int_eq(tworead("--cached --reads 40 --variant cached"), 0);
	readres(&r);
	ck_assert_str_eq(vb_res_param(&r, "reads"), "40");
	ck_assert(get(&r, "reads") == 40);
	ck_assert(get(&r, "cached_mib_per_s") > 0);
	vb_res_free(&r);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

START_TEST(e2e_bad_input)
{
	static const struct {
		const char *args, *want;
	} t[] = {
		{ "--sweep 200 --range-a 1M", "--sweep 200 sets both ranges" },
		{ "--cached --sweep 100", "--cached reads one file" },
		{ "--range-a 9M --size-a 8M --range-b 1M",
		  "--range-a 9M is larger than --size-a 8M" },
		{ "--block 0x", "--block" },
		{ "--reads 100 --duration 1", "--reads and --duration both "
		  "end the reading: give one" },
		{ "--cached --reads 10 --duration 1", "--reads and --duration" },
		{ "--reads ten", "--reads: bad number 'ten'" },
		{ "--reads -5", "--reads: bad number" },
		{ "--reads 2000000000000", "--reads: number '2000000000000' "
		  "out of range" },
		/* far more than any disk: refused before writing */
		{ "--size-a 16T --range-a 1M --range-b 1M --duration 1",
		  "the files need" },
	};
	char buf[2048];
	size_t i, n;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_int_ne(tworead(t[i].args), 0);
		output(buf, sizeof(buf));
		n = strlen(buf);
		ck_assert_msg(strstr(buf, t[i].want) != NULL, "%s: %s",
		    t[i].args, buf);
		ck_assert_msg(n > 0 && strchr(buf, '\n') == buf + n - 1,
		    "not one line: %s", buf);
		ck_assert_int_eq(leftovers(), 0);
	}
}
END_TEST

START_TEST(e2e_sigint)
{
	char out[512], wd[512];
	struct vb_res r;
	int status;
	pid_t pid;

	tu_path(out, sizeof(out), "tr");
	snprintf(wd, sizeof(wd), "%s", tu_dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execl("bench/tworead", "tworead", "--size-a", "4M", "--size-b",
		    "4M", "--range-a", "1M", "--range-b", "1M", "--duration",
		    "30", "--workdir", wd, "--out", out, (char *)NULL);
		_exit(127);
	}
	usleep(500000);
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 130);
	readres(&r);
	ck_assert_str_eq(r.status, "interrupted");
	vb_res_free(&r);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

Suite *
tworead_suite(void)
{
	Suite *s = suite_create("tworead");
	TCase *tc = tu_tcase_local("plan");
	TCase *e2e = tu_tcase("e2e");

	tcase_add_test(tc, plan_original);
	tcase_add_test(tc, plan_scaled);
	tcase_add_test(tc, plan_given_and_errors);
	tcase_add_test(tc, variants_and_basis);
	suite_add_tcase(s, tc);

	tcase_add_unchecked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 20);
	tcase_add_test(e2e, e2e_tworead);
	tcase_add_test(e2e, e2e_sweep_and_cached);
	tcase_add_test(e2e, e2e_reads);
	tcase_add_test(e2e, e2e_bad_input);
	tcase_add_test(e2e, e2e_sigint);
	suite_add_tcase(s, e2e);
	return s;
}
