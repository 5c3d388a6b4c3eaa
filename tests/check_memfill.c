/*
 * memfill and mmaptouch: the sizing arithmetic on fixture meminfo
 * (src/bench/memfill/plan.c), how memfill maps (src/bench/memfill/fill.c), and
 * end-to-end runs of both programs on small sizes, bad input included.
 * The fault counts expected end to end follow the machine's THP modes,
 * read from sysfs; no test changes them.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memfill/fill.h"
#include "memfill/plan.h"
#include "res.h"
#include "testutil.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

/* 8 GiB RAM, 6 GiB available, 2 GiB swap of which 1.5 GiB free */
static const char fixture[] =
    "MemTotal:        8388608 kB\n"
    "MemFree:         4194304 kB\n"
    "MemAvailable:    6291456 kB\n"
    "Buffers:           10240 kB\n"
    "Cached:          2000000 kB\n"
    "SwapCached:            0 kB\n"
    "SwapTotal:       2097152 kB\n"
    "SwapFree:        1572864 kB\n";

static void
parse(const char *text, struct memfill_meminfo *m)
{
	char err[256];

	ck_assert_msg(memfill_parse_meminfo(text, m, err, sizeof(err)) == 0,
	    "%s", err);
}

START_TEST(meminfo_fields)
{
	struct memfill_meminfo m;
	char err[256];

	parse(fixture, &m);
	ck_assert_uint_eq(m.mem_total, 8 * GiB);
	ck_assert_uint_eq(m.mem_available, 6 * GiB);
	ck_assert_uint_eq(m.swap_total, 2 * GiB);
	ck_assert_uint_eq(m.swap_free, 1536 * MiB);
	/* before 3.14: no MemAvailable, estimated from free + cache */
	parse("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 10 kB\n"
	    "Cached: 200 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n", &m);
	ck_assert_uint_eq(m.mem_available, 310 * 1024);
	ck_assert_int_lt(memfill_parse_meminfo("MemTotal: 1000 kB\n", &m,
	    err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "MemFree"));
	ck_assert_int_lt(memfill_parse_meminfo("MemTotal: 1000 kB\n"
	    "MemFree: 5 kB\nMemAvailable: 2000 kB\nSwapTotal: 0 kB\n"
	    "SwapFree: 0 kB\n", &m, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "inconsistent"));
}
END_TEST

START_TEST(percent_of_ram_and_swap)
{
	struct memfill_meminfo m;
	struct memfill_plan p;
	struct vb_sizepct req = { .is_pct = 1, .pct = 80 };
	char err[256];

	parse(fixture, &m);
	ck_assert_int_eq(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	/* total 10G; in use 2G RAM + 0.5G swap; 80% = 8G; 8G - 2.5G */
	ck_assert_uint_eq(p.total, 10 * GiB);
	ck_assert_uint_eq(p.used, 2 * GiB + 512 * MiB);
	ck_assert_uint_eq(p.want, 8 * GiB - 2 * GiB - 512 * MiB);
	/* cap: 6G + 1.5G less max(128M, 8G/32 = 256M) */
	ck_assert_uint_eq(p.cap, 7 * GiB + 512 * MiB - 256 * MiB);
	ck_assert_uint_eq(p.target, p.want);
	ck_assert_int_eq(p.trimmed, 0);
	ck_assert_int_eq(p.limited, 0);

	/* 20% of 10G is 2G: below what is in use */
	req.pct = 20;
	ck_assert_int_lt(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "already in use") != NULL, "%s", err);
}
END_TEST

START_TEST(trim_and_force)
{
	struct memfill_meminfo m;
	struct memfill_plan p;
	struct vb_sizepct req = { .is_pct = 1, .pct = 100 };
	char err[256];

	parse(fixture, &m);
	ck_assert_int_eq(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.want, 10 * GiB - 2 * GiB - 512 * MiB);
	ck_assert_int_eq(p.trimmed, 1);
	ck_assert_uint_eq(p.target, 7 * GiB + 256 * MiB);
	ck_assert_int_eq(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    1, 4096, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.trimmed, 0);
	ck_assert_uint_eq(p.target, p.want);

	/* bytes: not reduced by what is in use; rounded to pages */
	req.is_pct = 0;
	req.bytes = 100 * MiB + 123;
	ck_assert_int_eq(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.target, 100 * MiB);

	/* nothing available at all */
	parse("MemTotal: 1048576 kB\nMemFree: 1000 kB\nMemAvailable: 1000 kB"
	    "\nSwapTotal: 0 kB\nSwapFree: 0 kB\n", &m);
	ck_assert_int_lt(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "nothing to fill") != NULL, "%s", err);
}
END_TEST

START_TEST(under_a_limit)
{
	struct memfill_meminfo m;
	struct memfill_plan p;
	struct vb_sizepct req = { .is_pct = 1, .pct = 80 };
	char err[256];

	parse(fixture, &m);
	/* MEM=64M SWAP=256M: 80% of 320M, nothing taken as in use */
	ck_assert_int_eq(memfill_plan(&m, 64 * MiB, 256 * MiB, &req, 0, 4096,
	    &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.limited, 1);
	ck_assert_uint_eq(p.total, 320 * MiB);
	ck_assert_uint_eq(p.used, 0);
	ck_assert_uint_eq(p.target, 256 * MiB);
	/* cap: 64M + 256M less max(8M, 4M) */
	ck_assert_uint_eq(p.cap, 312 * MiB);

	/* swap limit above what is free: only free swap counts in the cap */
	req.pct = 100;
	ck_assert_int_eq(memfill_plan(&m, 1 * GiB, 4 * GiB, &req, 0, 4096,
	    &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.total, 5 * GiB);
	ck_assert_uint_eq(p.cap, 1 * GiB + 1536 * MiB - 64 * MiB);
	ck_assert_int_eq(p.trimmed, 1);

	/* no swap limit given: the machine's swap */
	ck_assert_int_eq(memfill_plan(&m, 1 * GiB, MEMFILL_UNSET, &req, 0,
	    4096, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.total, 3 * GiB);

	/* a limit above the machine: the machine's cap still applies */
	ck_assert_int_eq(memfill_plan(&m, 64 * GiB, 0, &req, 0, 4096, &p,
	    err, sizeof(err)), 0);
	ck_assert_uint_eq(p.cap, 7 * GiB + 256 * MiB);
}
END_TEST

START_TEST(map_units)
{
	ck_assert_uint_eq(memfill_map_unit(1 * MiB, 2 * MiB), 2 * MiB);
	ck_assert_uint_eq(memfill_map_unit(2 * MiB, 2 * MiB), 2 * MiB);
	ck_assert_uint_eq(memfill_map_unit(3 * MiB, 2 * MiB), 4 * MiB);
	ck_assert_uint_eq(memfill_map_unit(1 * GiB, 2 * MiB), 1 * GiB);
	ck_assert_uint_eq(memfill_map_unit(256 * 1024, 4096), 256 * 1024);
	ck_assert_uint_eq(memfill_map_unit(1 * MiB, 64 * MiB), 64 * MiB);
}
END_TEST

/*
 * Map (without writing) @bytes in @chunk pieces aligned to @align and
 * check every mapping: its address a multiple of @align, its length
 * the map unit except for a shorter last one, the lengths adding up.
 */
static void
check_maps(uint64_t bytes, uint64_t chunk, uint64_t align)
{
	struct memfill_region r = { .chunk = chunk, .align = align };
	uint64_t unit = memfill_map_unit(chunk, align), sum = 0;
	size_t i, page = (size_t)sysconf(_SC_PAGESIZE);

	ck_assert_int_eq(memfill_alloc(&r, bytes, MEMFILL_NOWRITE, page), 0);
	ck_assert_uint_eq(r.n, (bytes + unit - 1) / unit);
	ck_assert_uint_eq(r.bytes, bytes);
	for (i = 0; i < r.n; i++) {
		ck_assert_msg((uintptr_t)r.maps[i].p % align == 0,
		    "mapping %zu of %zu at %p: not %llu-aligned", i, r.n,
		    r.maps[i].p, (unsigned long long)align);
		ck_assert_uint_eq(r.maps[i].len, i + 1 < r.n ? unit :
		    bytes - unit * i);
		sum += r.maps[i].len;
	}
	ck_assert_uint_eq(sum, bytes);
	memfill_free(&r);
	ck_assert_uint_eq(r.n, 0);
}

START_TEST(maps_aligned)
{
	/* 1M chunks in 2M mappings; the short last one aligned too (the
	   kernel itself aligns only lengths that are 2M multiples) */
	check_maps(5 * MiB + 64 * 1024, 1 * MiB, 2 * MiB);
	/* 3M chunks in 4M mappings */
	check_maps(9 * MiB, 3 * MiB, 2 * MiB);
	/* an alignment the kernel never picks by itself */
	check_maps(130 * MiB + 4096, 1 * MiB, 64 * MiB);
	/* 4K: every chunk on its own */
	check_maps(1 * MiB + 4096, 256 * 1024, 4096);
}
END_TEST

/*
 * The THP mode in brackets in sysfs file @path ("always [madvise]
 * never" -> "madvise") into @mode; 0, or -1 when there is no file.
 */
static int
thp_mode(const char *path, char *mode, size_t len)
{
	char line[256], *a, *b;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	if (!(a = strchr(line, '[')) || !(b = strchr(a, ']')))
		return -1;
	*b = '\0';
	snprintf(mode, len, "%s", a + 1);
	return 0;
}

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

/*
 * The largest folio the kernel may give anonymous memory nobody
 * madvise()d at a fault, in bytes: the largest hugepages-<size>kB whose
 * mode is "always", or "inherit" with the top-level mode "always"; on
 * kernels without per-size modes, the PMD size when the top-level mode
 * is "always"; else one page.  @pmd_only: only the PMD size counts.
 */
static uint64_t
anon_folio_max(int pmd_only)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), best = page;
	uint64_t pmd = memfill_hpage_size();
	char top[32], mode[32], path[512];
	struct dirent *de;
	DIR *d;

	if (thp_mode(THP_DIR "/enabled", top, sizeof(top)) < 0)
		return page;
	snprintf(path, sizeof(path), THP_DIR "/hugepages-%llukB/enabled",
	    (unsigned long long)(pmd >> 10));
	if (access(path, F_OK) < 0)
		return strcmp(top, "always") == 0 && pmd ? pmd : page;
	if (!(d = opendir(THP_DIR)))
		return page;
	while ((de = readdir(d))) {
		unsigned long long kb;
		char tail;

		if (sscanf(de->d_name, "hugepages-%llukB%c", &kb, &tail) != 1)
			continue;
		if (pmd_only && kb << 10 != pmd)
			continue;
		snprintf(path, sizeof(path), THP_DIR "/%s/enabled",
		    de->d_name);
		if (thp_mode(path, mode, sizeof(mode)) < 0)
			continue;
		if ((strcmp(mode, "always") == 0 || (strcmp(mode,
		    "inherit") == 0 && strcmp(top, "always") == 0)) &&
		    kb << 10 > best)
			best = kb << 10;
	}
	closedir(d);
	return best;
}

/*
 * Run @argv with stderr into @errbuf (first line kept); exit status, or
 * -1 when killed.  @env: one extra "NAME=value", or NULL.
 */
static int
run_prog(char *const argv[], const char *env, char *errbuf, size_t len)
{
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(fds[1], 2);
		close(fds[0]);
		if (env)
			putenv((char *)env);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	n = read(fds[0], errbuf, len - 1);
	errbuf[n > 0 ? n : 0] = '\0';
	while (read(fds[0], &status, sizeof(status)) > 0)
		;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char tmpdir[100];	/* the test's folder, under the run's root */

static void
mk_tmp(void)
{
	tu_mkdtemp(tmpdir, sizeof(tmpdir), "memfill");
}

static void
rm_tmp(void)
{
	ck_assert_int_eq(tu_rmtree(tmpdir), 0);
}

/* Read @prefix.res and return the value of @metric in iteration @i. */
static double
res_value(const char *prefix, const char *metric, int i, struct vb_res *r)
{
	char path[256], err[512];
	int m;

	snprintf(path, sizeof(path), "%s.res", prefix);
	ck_assert_msg(vb_res_read(path, r, err, sizeof(err)) == 0, "%s", err);
	m = vb_res_metric_index(r, metric);
	ck_assert_int_ge(m, 0);
	ck_assert_int_gt(r->niter, i);
	return vb_res_get(r, i, m);
}

START_TEST(memfill_end_to_end)
{
	char out[128], err[1024];
	struct vb_res r;
	char *argv[] = { "bench/memfill", "--bytes", "16M", "--write",
	    "--procs", "2", "--chunk", "256K", "--iterations", "2", "--out",
	    out, "--workdir", tmpdir, NULL };

	mk_tmp();
	snprintf(out, sizeof(out), "%s/memfill", tmpdir);
	ck_assert_msg(run_prog(argv, NULL, err, sizeof(err)) == 0, "%s", err);
	ck_assert_double_eq(res_value(out, "bytes", 1, &r), 16.0 * MiB);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_int_eq(r.niter, 2);
	/* every page written: one fault per folio the THP modes allow at
	   the most (4096 with THP off), and each process's 8M resident */
	ck_assert_double_ge(vb_res_get(&r, 1, vb_res_metric_index(&r,
	    "minflt")), (double)(16 * MiB / anon_folio_max(0)));
	ck_assert_double_ge(vb_res_get(&r, 1, vb_res_metric_index(&r,
	    "maxrss")), 8 * 1024);
	ck_assert_double_gt(vb_res_get(&r, 0, vb_res_metric_index(&r,
	    "fill_mb_s")), 0);
	vb_res_free(&r);
	rm_tmp();
}
END_TEST

/*
 * When THP may give PMD huge pages to memory nobody madvise()d, a fill
 * of 64M takes far fewer faults than pages: at most one per 64K (16 4K
 * pages) where huge pages give one per 2M, plus the program's own.
 */
START_TEST(memfill_thp)
{
	char out[128], err[1024];
	struct vb_res r;
	double minflt, thp;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t pmd = memfill_hpage_size();
	char *argv[] = { "bench/memfill", "--bytes", "64M", "--write",
	    "--out", out, "--workdir", tmpdir, NULL };

	if (!pmd || anon_folio_max(1) < pmd) {
		tu_skip("THP does not give huge pages to memory without "
		    "madvise here (%s/enabled)", THP_DIR);
		return;
	}
	mk_tmp();
	snprintf(out, sizeof(out), "%s/memfill", tmpdir);
	ck_assert_msg(run_prog(argv, NULL, err, sizeof(err)) == 0, "%s", err);
	minflt = res_value(out, "minflt", 0, &r);
	thp = vb_res_get(&r, 0, vb_res_metric_index(&r, "thp_fault_alloc"));
	ck_assert_msg(minflt < (double)(64 * MiB / page / 16),
	    "64M with THP: %.0f minor faults for %llu pages "
	    "(thp_fault_alloc %.0f)", minflt,
	    (unsigned long long)(64 * MiB / page), thp);
	vb_res_free(&r);
	rm_tmp();
}
END_TEST

START_TEST(memfill_limit_from_env)
{
	char out[128], err[1024];
	struct vb_res r;
	char *argv[] = { "bench/memfill", "--percent", "50", "--out", out,
	    "--workdir", tmpdir, NULL };

	/* 50% of a 16M limit with no swap is 8M, whatever the machine */
	mk_tmp();
	snprintf(out, sizeof(out), "%s/memfill", tmpdir);
	setenv("VMBENCH_SWAP_LIMIT", "0", 1);
	ck_assert_msg(run_prog(argv, "VMBENCH_MEM_LIMIT=16M", err,
	    sizeof(err)) == 0, "%s", err);
	unsetenv("VMBENCH_SWAP_LIMIT");
	ck_assert_double_eq(res_value(out, "bytes", 0, &r), 8.0 * MiB);
	vb_res_free(&r);
	rm_tmp();
}
END_TEST

START_TEST(mmaptouch_end_to_end)
{
	char out[128], err[1024];
	struct vb_res r;
	char *argv[] = { "bench/mmaptouch", "--pages", "2000", "--out", out,
	    "--workdir", tmpdir, NULL };
	long page = sysconf(_SC_PAGESIZE);

	mk_tmp();
	snprintf(out, sizeof(out), "%s/mmaptouch", tmpdir);
	ck_assert_msg(run_prog(argv, NULL, err, sizeof(err)) == 0, "%s", err);
	ck_assert_double_eq(res_value(out, "bytes", 0, &r), 2000.0 * page);
	ck_assert_str_eq(r.status, "complete");
	/* the file-backed run has an msync phase; every phase took time */
	ck_assert_double_gt(vb_res_get(&r, 0, vb_res_metric_index(&r,
	    "msync_s")), 0);
	ck_assert_double_gt(vb_res_get(&r, 0, vb_res_metric_index(&r,
	    "touch_s")), 0);
	vb_res_free(&r);
	/* nothing left behind but the result and vmstat files */
	ck_assert_int_eq(tu_count_except(tmpdir, ""), 2);
	rm_tmp();
}
END_TEST

START_TEST(bad_input)
{
	static const struct {
		char *argv[6];
		const char *says;
	} t[] = {
		{ { "bench/memfill", "--bytes", "12Q", NULL }, "12Q" },
		{ { "bench/memfill", "--percent", "101", NULL }, "--percent" },
		{ { "bench/memfill", "--percent", "50", "--bytes", "1M" },
		  "give one" },
		{ { "bench/memfill", "--every-byte", NULL }, "--write" },
		{ { "bench/memfill", "--procs", "0", NULL }, "--procs" },
		{ { "bench/memfill", "--map-align", "6K", NULL },
		  "--map-align" },
		{ { "bench/memfill", "--frobnicate", NULL }, "frobnicate" },
		{ { "bench/mmaptouch", "--pages", "-1", NULL }, "-1" },
		{ { "bench/mmaptouch", "--pages", NULL }, "--pages" },
	};
	char err[1024];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *argv[8] = { 0 };
		int j;

		for (j = 0; j < 6 && t[i].argv[j]; j++)
			argv[j] = t[i].argv[j];
		argv[j++] = "--check";
		ck_assert_int_ne(run_prog(argv, NULL, err, sizeof(err)), 0);
		ck_assert_msg(strstr(err, t[i].says) != NULL, "%s %s: '%s'",
		    argv[0], argv[1], err);
		/* one line */
		ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1,
		    "%s: '%s'", argv[1], err);
	}
}
END_TEST

Suite *
memfill_suite(void)
{
	Suite *s = suite_create("memfill");
	TCase *tc = tcase_create("size");
	TCase *e2e = tcase_create("end-to-end");

	tcase_add_test(tc, meminfo_fields);
	tcase_add_test(tc, percent_of_ram_and_swap);
	tcase_add_test(tc, trim_and_force);
	tcase_add_test(tc, under_a_limit);
	tcase_add_test(tc, map_units);
	tcase_add_test(tc, maps_aligned);
	suite_add_tcase(s, tc);
	tcase_add_unchecked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 30);
	tcase_add_test(e2e, memfill_end_to_end);
	tcase_add_test(e2e, memfill_thp);
	tcase_add_test(e2e, memfill_limit_from_env);
	tcase_add_test(e2e, mmaptouch_end_to_end);
	tcase_add_test(e2e, bad_input);
	suite_add_tcase(s, e2e);
	return s;
}
