/*
 * check_memfill.c - memfill and mmaptouch: the sizing arithmetic on
 * fixture meminfo (src/bench/memfill/plan.c), strict overcommit included,
 * how memfill maps and reads back (src/bench/memfill/fill.c), and
 * end-to-end runs of both programs on small sizes, bad input included; and
 * make ab's sides each with its own status, one failing under strict
 * overcommit on a fake /proc.  The fault counts expected end to end follow
 * the machine's THP modes, read from sysfs; no test changes them.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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
	tu_assert_has(err, "MemFree");
	ck_assert_int_lt(memfill_parse_meminfo("MemTotal: 1000 kB\n"
	    "MemFree: 5 kB\nMemAvailable: 2000 kB\nSwapTotal: 0 kB\n"
	    "SwapFree: 0 kB\n", &m, err, sizeof(err)), 0);
	tu_assert_has(err, "inconsistent");
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

/*
 * overcommit_memory=2: the cap is CommitLimit - Committed_AS less a
 * margin, when that is the smaller; a full CommitLimit is named.
 */
START_TEST(strict_overcommit)
{
	struct memfill_meminfo m;
	struct memfill_plan p;
	struct vb_sizepct req = { .is_pct = 1, .pct = 80 };
	char err[256], text[1024];

	/* CommitLimit 2G, Committed_AS 1G */
	snprintf(text, sizeof(text), "%sCommitLimit:     2097152 kB\n"
	    "Committed_AS:    1048576 kB\n", fixture);
	parse(text, &m);
	ck_assert_int_eq(m.has_commit, 1);
	ck_assert_uint_eq(m.commit_limit, 2 * GiB);
	ck_assert_uint_eq(m.committed_as, 1 * GiB);
	/* overcommit 0 (or unknown): the commit lines do not count */
	m.overcommit = 0;
	ck_assert_int_eq(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.strict, 0);
	ck_assert_uint_eq(p.target, 8 * GiB - 2 * GiB - 512 * MiB);
	/* strict: 1G of room less max(32M, 1G/64 = 16M) */
	m.overcommit = 2;
	ck_assert_int_eq(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.strict, 1);
	ck_assert_int_eq(p.commit_bound, 1);
	ck_assert_int_eq(p.trimmed, 1);
	ck_assert_uint_eq(p.commit_room, 1 * GiB);
	ck_assert_uint_eq(p.target, 1 * GiB - 32 * MiB);
	/* --force: reported, not applied */
	ck_assert_int_eq(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    1, 4096, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.target, p.want);
	/* under a limit of 64M: the limit's cap is the smaller */
	ck_assert_int_eq(memfill_plan(&m, 64 * MiB, 0, &req, 0, 4096, &p,
	    err, sizeof(err)), 0);
	ck_assert_int_eq(p.commit_bound, 0);
	ck_assert_uint_eq(p.target, 64 * MiB * 80 / 100 / 4096 * 4096);
	/* CommitLimit reached: nothing to fill, and why */
	snprintf(text, sizeof(text), "%sCommitLimit:     2097152 kB\n"
	    "Committed_AS:    2100000 kB\n", fixture);
	parse(text, &m);
	m.overcommit = 2;
	ck_assert_int_lt(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "overcommit_memory=2: CommitLimit 2G "
	    "reached") != NULL, "%s", err);
	/* no commit lines (a fixture of old): not strict whatever the mode */
	parse(fixture, &m);
	m.overcommit = 2;
	ck_assert_int_eq(memfill_plan(&m, MEMFILL_UNSET, MEMFILL_UNSET, &req,
	    0, 4096, &p, err, sizeof(err)), 0);
	ck_assert_int_eq(p.strict, 0);
}
END_TEST

/* The random order visits each of n indices once, not in order. */
START_TEST(perm_each_once)
{
	static const uint64_t ns[] = { 1, 2, 3, 7, 64, 1000, 4097 };
	size_t k;

	for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		uint64_t n = ns[k], i, x, got = 0, inplace = 0, same = 0;
		unsigned char *seen = calloc(n, 1);
		uint64_t *order = calloc(n, sizeof(*order));
		struct memfill_perm p;

		ck_assert_ptr_nonnull(seen);
		ck_assert_ptr_nonnull(order);
		memfill_perm_init(&p, n, 1);
		while (memfill_perm_next(&p, &x)) {
			ck_assert_uint_lt(x, n);
			ck_assert_msg(!seen[x], "n %llu: %llu twice",
			    (unsigned long long)n, (unsigned long long)x);
			seen[x] = 1;
			inplace += x == got;
			order[got++] = x;
		}
		ck_assert_uint_eq(got, n);
		ck_assert_int_eq(memfill_perm_next(&p, &x), 0);
		if (n < 1000)
			goto next;
		/* not address order; another seed, another order */
		ck_assert_uint_lt(inplace, n / 20);
		memfill_perm_init(&p, n, 2);
		for (i = 0; memfill_perm_next(&p, &x); i++)
			same += x == order[i];
		ck_assert_uint_lt(same, n / 20);
		/* neighbours rarely follow each other (no readahead help) */
		for (i = 1, same = 0; i < n; i++)
			same += order[i] == order[i - 1] + 1;
		ck_assert_uint_lt(same, n / 20);
next:
		free(seen);
		free(order);
	}
}
END_TEST

/*
 * A stamped region reads back what was written, in either order, and a
 * page that changed is seen by the checksum and counted.
 */
START_TEST(reread_checksums)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	enum memfill_write modes[] = { MEMFILL_PAGE, MEMFILL_EVERY };
	size_t k;

	for (k = 0; k < 2; k++) {
		struct memfill_region r = { .chunk = 5 * page, .align = page,
		    .stamp = 1 };
		struct memfill_pass a, b;
		volatile uint64_t *w;

		ck_assert_int_eq(memfill_alloc(&r, 23 * page, modes[k], page),
		    0);
		/* 5 mappings of 5 pages and one of 3 */
		ck_assert_uint_eq(r.n, 5);
		memfill_reread(&r, MEMFILL_SEQ, 1, page, &a);
		ck_assert_uint_eq(a.pages, 23);
		ck_assert_uint_eq(a.bad, 0);
		ck_assert(a.sum == a.want);
		memfill_reread(&r, MEMFILL_RANDOM, 7, page, &b);
		ck_assert_uint_eq(b.pages, 23);
		ck_assert_uint_eq(b.bad, 0);
		ck_assert(b.sum == a.sum);
		/* every byte written past the tag with --every-byte */
		if (modes[k] == MEMFILL_EVERY)
			ck_assert_int_eq(((char *)r.maps[4].p)[page + 100],
			    0x5a);
		/* page 17 (mapping 3, page 2) holds another word */
		w = (volatile uint64_t *)((char *)r.maps[3].p + 2 * page);
		ck_assert(*w == memfill_tag((const void *)w));
		*w += 1;
		memfill_reread(&r, MEMFILL_RANDOM, 3, page, &b);
		ck_assert_uint_eq(b.bad, 1);
		ck_assert(b.sum != b.want);
		ck_assert(b.sum == a.sum + 1);
		/* a page holding another page's tag is seen too */
		*w = memfill_tag((const char *)w - page);
		memfill_reread(&r, MEMFILL_SEQ, 1, page, &b);
		ck_assert_uint_eq(b.bad, 1);
		memfill_free(&r);
	}
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
 * fill_run_s is fill_s less fill_wait_s, the time the fill waited for a
 * CPU: beside a busy loop on its one CPU the fill waits, and the
 * headline is the part it ran.  With --procs 2 the same sum holds.
 */
START_TEST(memfill_run_and_wait)
{
	char out[128], err[1024], procs[2][4] = { "1", "2" };
	struct vb_res r;
	cpu_set_t old, one;
	double waited = 0;
	int cpu, k, i;
	pid_t hog;
	char *argv[] = { "bench/memfill", "--bytes", "64M", "--write",
	    "--procs", NULL, "--iterations", "3", "--out", out, "--workdir",
	    tmpdir, NULL };

	mk_tmp();
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
	for (k = 0; k < 2; k++) {
		argv[5] = procs[k];
		snprintf(out, sizeof(out), "%s/memfill%d", tmpdir, k);
		ck_assert_msg(run_prog(argv, NULL, err, sizeof(err)) == 0,
		    "%s", err);
		res_value(out, "fill_s", 0, &r);
		ck_assert_str_eq(r.headline, "fill_run_s");
		for (i = 0; i < r.niter; i++) {
			double f = vb_res_get(&r, i, tu_res_col(&r, "fill_s"));
			double w = vb_res_get(&r, i, tu_res_col(&r,
			    "fill_wait_s"));
			double run = vb_res_get(&r, i, tu_res_col(&r,
			    "fill_run_s"));

			ck_assert_msg(w >= 0 && w <= f && run > 0 &&
			    fabs(f - w - run) < 1e-6, "--procs %s, iteration "
			    "%d: fill_s %.9f, fill_wait_s %.9f, fill_run_s "
			    "%.9f", procs[k], i + 1, f, w, run);
			waited += w;
		}
		vb_res_free(&r);
	}
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	sched_setaffinity(0, sizeof(old), &old);
	/* a busy loop on the one CPU: the fills must have waited */
	ck_assert_msg(waited > 0.005, "beside a busy loop on CPU %d the "
	    "fills waited %.6f s in all", cpu, waited);
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

/* @m of @r's iteration @i. */
static double
val(const struct vb_res *r, const char *m, int i)
{
	int k = vb_res_metric_index(r, m);

	ck_assert_msg(k >= 0, "no metric %s", m);
	return vb_res_get(r, i, k);
}

/*
 * --reread: each iteration's passes read 16M back; the figures are
 * there and agree with each other (the pages' checksums are checked by
 * memfill itself, which fails the run on a page read back wrong).
 */
START_TEST(memfill_reread_e2e)
{
	static const char *const procs[] = { "1", "3" };
	static const char *const order[] = { "seq", "random" };
	char out[128], err[1024];
	size_t k;

	mk_tmp();
	snprintf(out, sizeof(out), "%s/memfill", tmpdir);
	for (k = 0; k < 2; k++) {
		char *argv[] = { "bench/memfill", "--bytes", "16M", "--write",
		    "--reread", "3", "--reread-pattern", (char *)order[k],
		    "--procs", (char *)procs[k], "--chunk", "256K",
		    "--iterations", "2", "--out", out, "--workdir", tmpdir,
		    NULL };
		struct vb_res r;
		int i;

		ck_assert_msg(run_prog(argv, NULL, err, sizeof(err)) == 0,
		    "%s", err);
		res_value(out, "bytes", 1, &r);
		ck_assert_str_eq(r.status, "complete");
		ck_assert_str_eq(vb_res_param(&r, "reread"), "3");
		ck_assert_str_eq(vb_res_param(&r, "reread-pattern"), order[k]);
		for (i = 0; i < 2; i++) {
			double s = val(&r, "reread_s", i);
			double lo = val(&r, "reread_pass_min_s", i);
			double hi = val(&r, "reread_pass_max_s", i);
			double p1 = val(&r, "reread_pass1_s", i);

			ck_assert_double_gt(lo, 0);
			ck_assert_double_le(lo, p1);
			ck_assert_double_le(p1, hi);
			/* the sum of three passes */
			ck_assert_double_le(3 * lo, s * (1 + 1e-9));
			ck_assert_double_ge(3 * hi, s * (1 - 1e-9));
			ck_assert_double_le(s, val(&r, "elapsed", i));
			ck_assert_double_eq_tol(val(&r, "reread_mb_s", i),
			    3 * 16.0 * MiB / 1e6 / s, 1e-6 * 3 * 16 * MiB / s);
			ck_assert_double_ge(val(&r, "reread_majflt", i), 0);
			ck_assert_double_le(val(&r, "reread_majflt", i),
			    val(&r, "majflt", i));
			ck_assert_double_ge(val(&r, "reread_pswpin", i), 0);
			ck_assert_double_le(val(&r, "reread_pswpin", i),
			    val(&r, "pswpin", i));
			ck_assert_double_eq_tol(val(&r, "swapin_mb_s", i),
			    val(&r, "reread_pswpin", i) * 1024 / 1e6 / s,
			    1e-6);
			/* kB a major fault, when there was one */
			ck_assert(val(&r, "reread_majflt", i) == 0 ?
			    isnan(val(&r, "swapin_kb_fault", i)) :
			    fabs(val(&r, "swapin_kb_fault", i) * val(&r,
			    "reread_majflt", i) - val(&r, "reread_pswpin",
			    i)) < 1e-6 * (1 + val(&r, "reread_pswpin", i)));
		}
		vb_res_free(&r);
		/* the log says each pass */
		ck_assert_int_eq(tu_sh_in(NULL, "bench/memfill --bytes 8M "
		    "--write --reread 2 --procs %s --out '%s' --workdir '%s' "
		    "2>/dev/null | grep -c '^memfill: re-read pass [12] of 2:' "
		    "| grep -qx 2", procs[k], out, tmpdir), 0);
	}
	rm_tmp();
}
END_TEST

/*
 * Under a memory limit with swap (vmrun --mem 32M --swap 64M, as root),
 * 36M written leaves at least 4M in swap: every pass reads it back,
 * with major faults and swap-ins (a pass in address order may swap in
 * the whole fill: its size sets the test's time).  Skipped when not
 * root.
 */
START_TEST(memfill_reread_swaps)
{
	char dir[160], err[1024], work[40];
	struct vb_res r;
	int i, rc;

	if (geteuid() != 0) {
		printf("memfill_reread_swaps: skipped: a memory limit and a "
		    "swap file need root\n");
		return;
	}
	mk_tmp();
	ck_assert_int_eq(tu_sh_in(NULL, "printf 'iterations 2\\nmemfill "
	    "--bytes 36M --write --reread 2\\n' >'%s/sw.conf'", tmpdir), 0);
	/* a work folder that can hold a swap file (not a tmpfs /tmp) */
	ck_assert_ptr_nonnull(mkdtemp(strcpy(work,
	    "/var/tmp/check_memfill.XXXXXX")));
	snprintf(err, sizeof(err), "%s/err", tmpdir);
	rc = tu_sh_in(NULL, "bench/vmrun --kernel sw --config '%s/sw.conf' "
	    "--results '%s/r' --workdir '%s' --mem 32M --swap 64M >/dev/null "
	    "2>'%s'", tmpdir, tmpdir, work, err);
	ck_assert_int_eq(tu_sh_in(NULL, "rm -rf '%s'", work), 0);
	ck_assert_msg(rc == 0, "vmrun: %s", tu_slurp(err));
	snprintf(dir, sizeof(dir), "%s/r/sw/run1/memfill", tmpdir);
	res_value(dir, "bytes", 1, &r);
	for (i = 0; i < 2; i++) {
		ck_assert_double_gt(val(&r, "reread_majflt", i), 0);
		ck_assert_double_ge(val(&r, "reread_pswpin", i), 2 * 4 * 1024);
		ck_assert_double_gt(val(&r, "swapin_mb_s", i), 0);
		ck_assert_double_gt(val(&r, "swapin_kb_fault", i), 0);
		ck_assert_double_le(val(&r, "reread_pswpin", i),
		    val(&r, "pswpin", i));
		/* the rate and the kB a fault agree with the kB, not 0 here */
		ck_assert_double_eq_tol(val(&r, "swapin_mb_s", i),
		    val(&r, "reread_pswpin", i) * 1024 / 1e6 / val(&r,
		    "reread_s", i), 1e-6 * val(&r, "swapin_mb_s", i));
		ck_assert_double_eq_tol(val(&r, "swapin_kb_fault", i) *
		    val(&r, "reread_majflt", i), val(&r, "reread_pswpin", i),
		    1e-6 * val(&r, "reread_pswpin", i));
	}
	vb_res_free(&r);
	rm_tmp();
}
END_TEST

/*
 * Write a fake /proc under @dir: @meminfo, overcommit_memory @mode and
 * the machine's vmstat and stat (for the harness's sampler).
 */
static void
fake_proc(const char *dir, const char *meminfo, int mode)
{
	char path[256];
	FILE *f;

	ck_assert_int_eq(tu_sh_in(NULL, "mkdir -p '%s/sys/vm' && "
	    "cat /proc/vmstat >'%s/vmstat' && cat /proc/stat >'%s/stat'", dir,
	    dir, dir), 0);
	snprintf(path, sizeof(path), "%s/meminfo", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(meminfo, f);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/sys/vm/overcommit_memory", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fprintf(f, "%d\n", mode);
	ck_assert_int_eq(fclose(f), 0);
}

/* 64M of room under a CommitLimit of 4G */
static const char strict_meminfo[] =
    "MemTotal:        8388608 kB\n"
    "MemFree:         4194304 kB\n"
    "MemAvailable:    6291456 kB\n"
    "SwapTotal:             0 kB\n"
    "SwapFree:              0 kB\n"
    "CommitLimit:     4194304 kB\n"
    "Committed_AS:    4128768 kB\n";

/*
 * Strict overcommit: --percent 80 is sized from CommitLimit -
 * Committed_AS (the log says so), and a map refused by the kernel then
 * names CommitLimit in its one line.
 */
START_TEST(memfill_strict_overcommit)
{
	char proc[128], env[160], out[128], err[1024], *log;
	struct vb_res r;
	char *argv[] = { "bench/memfill", "--percent", "80", "--write",
	    "--out", out, "--workdir", tmpdir, NULL };

	mk_tmp();
	snprintf(proc, sizeof(proc), "%s/proc", tmpdir);
	snprintf(env, sizeof(env), "VMBENCH_PROC=%s", proc);
	snprintf(out, sizeof(out), "%s/memfill", tmpdir);
	fake_proc(proc, strict_meminfo, 2);
	ck_assert_msg(run_prog(argv, env, err, sizeof(err)) == 0, "%s", err);
	/* trimmed, and the one warning says by what */
	ck_assert_msg(strstr(err, "more than overcommit_memory=2 leaves "
	    "(CommitLimit 4G - Committed_AS 3.9G"), "%s", err);
	/* 64M less the margin of 32M */
	ck_assert_double_eq(res_value(out, "bytes", 0, &r), 32.0 * MiB);
	vb_res_free(&r);
	ck_assert_int_eq(tu_sh_in(NULL, "VMBENCH_PROC='%s' bench/memfill "
	    "--percent 80 --write --out '%s' --workdir '%s' 2>/dev/null | "
	    "grep -q 'memfill: overcommit_memory=2: sized from CommitLimit "
	    "4G - Committed_AS 3.9G = 64M, less a margin'", proc, out,
	    tmpdir), 0);
#if defined(__SANITIZE_ADDRESS__)
	/* ASan reserves terabytes of address space: no ulimit -v under it */
	tu_skip("the RLIMIT_AS half cannot run under AddressSanitizer");
	return;
#endif
	/*
	 * CommitLimit all but reached: --force maps past it; the mapping
	 * the kernel refuses (here for RLIMIT_AS: this kernel's own
	 * overcommit policy is left alone) is put down to CommitLimit.
	 */
	fake_proc(proc, "MemTotal:        8388608 kB\n"
	    "MemFree:         4194304 kB\nMemAvailable:    6291456 kB\n"
	    "SwapTotal:             0 kB\nSwapFree:              0 kB\n"
	    "CommitLimit:     4194304 kB\nCommitted_AS:    4193304 kB\n", 2);
	ck_assert_int_eq(tu_sh_in(NULL, "ulimit -v 40000; VMBENCH_PROC='%s' "
	    "bench/memfill --bytes 1G --force --write --out '%s' --workdir "
	    "'%s' >/dev/null 2>'%s/err'", proc, out, tmpdir, tmpdir), 1);
	snprintf(env, sizeof(env), "%s/err", tmpdir);
	log = tu_slurp(env);
	ck_assert_ptr_nonnull(log);
	ck_assert_msg(strstr(log, "memfill: cannot map 2M after ") &&
	    strstr(log, ": overcommit_memory=2: CommitLimit 4G reached "
	    "(Committed_AS "), "%s", log);
	/* one line, and the iteration's failure */
	ck_assert_int_eq(tu_sh_in(NULL, "test $(grep -c CommitLimit '%s') = "
	    "1", env), 0);
	free(log);
	/* not strict: the same refusal is the kernel's errno */
	fake_proc(proc, strict_meminfo, 0);
	ck_assert_int_eq(tu_sh_in(NULL, "ulimit -v 40000; VMBENCH_PROC='%s' "
	    "bench/memfill --bytes 1G --force --write --out '%s' --workdir "
	    "'%s' >/dev/null 2>'%s/err'", proc, out, tmpdir, tmpdir), 1);
	log = tu_slurp(env);
	ck_assert_ptr_nonnull(log);
	ck_assert_msg(strstr(log, ": Cannot allocate memory\n") &&
	    !strstr(log, "CommitLimit"), "%s", log);
	free(log);
	rm_tmp();
}
END_TEST

/* The status= line of @dir/@rel into @buf. */
static char *
status_of(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[256], *text, *p;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(buf, len, "(no status)");
	if (!(text = tu_slurp(path)))
		return buf;
	if ((p = strstr(text, "\nstatus=")))
		snprintf(buf, len, "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
	free(text);
	return buf;
}

/*
 * make ab with A="vm.overcommit_memory=2" B="vm.overcommit_memory=0" on
 * a fake tree where strict overcommit leaves nothing: A's memfill fails,
 * B's completes, and each side's meta says its own status.
 */
START_TEST(ab_each_side_its_status)
{
	char proc[128], dir[160], cmd[2048], meta[64];
	struct vb_res r;

	mk_tmp();
	snprintf(proc, sizeof(proc), "%s/proc", tmpdir);
	fake_proc(proc, "MemTotal:        8388608 kB\n"
	    "MemFree:         4194304 kB\nMemAvailable:    6291456 kB\n"
	    "SwapTotal:             0 kB\nSwapFree:              0 kB\n"
	    "CommitLimit:     4194304 kB\nCommitted_AS:    4194304 kB\n", 0);
	ck_assert_int_eq(tu_sh_in(NULL, "printf 'iterations 2\\nmemfill "
	    "--bytes 4M --write\\n' >'%s/ab.conf'", tmpdir), 0);
	snprintf(cmd, sizeof(cmd), "VMBENCH_SYSROOT='%s' VMBENCH_PROC='%s' "
	    "bench/vmrun --kernel oc --a vm.overcommit_memory=2 --b "
	    "vm.overcommit_memory=0 --config '%s/ab.conf' --results '%s/r' "
	    "--workdir '%s/w' >'%s/out' 2>'%s/err'", tmpdir, proc, tmpdir,
	    tmpdir, tmpdir, tmpdir, tmpdir);
	ck_assert_int_eq(tu_sh_in(NULL, "%s", cmd), 1);
	/* the setting is back */
	ck_assert_int_eq(tu_sh_in(NULL, "grep -qx 0 '%s/sys/vm/"
	    "overcommit_memory'", proc), 0);
	/* A failed, and said why */
	ck_assert_int_eq(tu_sh_in(NULL, "grep -q 'overcommit_memory=2: "
	    "CommitLimit 4G reached' '%s/err'", tmpdir), 0);
	ck_assert_int_eq(tu_sh_in(NULL, "grep -qx status=failed "
	    "'%s/r/oc-A/meta'", tmpdir), 0);
	/* B completed: its meta says so */
	ck_assert_msg(tu_sh_in(NULL, "grep -qx status=complete "
	    "'%s/r/oc-B/meta'", tmpdir) == 0, "B's meta: %s",
	    status_of(tmpdir, "r/oc-B/meta", meta, sizeof(meta)));
	snprintf(dir, sizeof(dir), "%s/r/oc-B/memfill", tmpdir);
	ck_assert_double_eq(res_value(dir, "bytes", 1, &r), 4.0 * MiB);
	ck_assert_str_eq(r.status, "complete");
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
		{ { "bench/memfill", "--write", "--reread", "101", NULL },
		  "--reread: number '101' out of range" },
		{ { "bench/memfill", "--write", "--reread", "x", NULL },
		  "--reread: bad number 'x'" },
		{ { "bench/memfill", "--reread", "2", NULL },
		  "--reread 2 needs --write" },
		{ { "bench/memfill", "--write", "--reread-pattern", "zig" },
		  "--reread-pattern: unknown value 'zig'" },
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
	TCase *tc = tu_tcase_local("size");
	TCase *e2e = tu_tcase("end-to-end");

	tcase_add_test(tc, meminfo_fields);
	tcase_add_test(tc, percent_of_ram_and_swap);
	tcase_add_test(tc, trim_and_force);
	tcase_add_test(tc, under_a_limit);
	tcase_add_test(tc, strict_overcommit);
	tcase_add_test(tc, perm_each_once);
	tcase_add_test(tc, reread_checksums);
	tcase_add_test(tc, map_units);
	tcase_add_test(tc, maps_aligned);
	suite_add_tcase(s, tc);
	tcase_add_unchecked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 30);
	tcase_add_test(e2e, memfill_end_to_end);
	tcase_add_test(e2e, memfill_run_and_wait);
	tcase_add_test(e2e, memfill_thp);
	tcase_add_test(e2e, memfill_limit_from_env);
	tcase_add_test(e2e, memfill_reread_e2e);
	tcase_add_test(e2e, memfill_strict_overcommit);
	tcase_add_test(e2e, ab_each_side_its_status);
	tcase_add_test(e2e, mmaptouch_end_to_end);
	tcase_add_test(e2e, bad_input);
	suite_add_tcase(s, e2e);
	/* vmrun --mem --swap: a memory cgroup and a swap file */
	e2e = tu_tcase_alone("machine");
	tcase_add_unchecked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 30);
	tcase_add_test(e2e, memfill_reread_swaps);
	suite_add_tcase(s, e2e);
	return s;
}
