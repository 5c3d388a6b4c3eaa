/*
 * check_vmstat.c - the /proc readers and the sampler (src/lib/vmstat.c),
 * fed with fixture /proc folders written at test time: an older kernel's
 * counter names (per-zone pgscan/pgsteal/allocstall, plain
 * workingset_refault, no oom_kill) and a newer kernel's
 * (workingset_refault_anon/_file, pgsteal_anon/_file and pgscan_anon/_file
 * beside the kswapd/direct families, pgscan_direct_throttle), the
 * vmstat(8) columns of a row, the sampler process writing a real file, and
 * forkbomb run end to end on a fixture /proc.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "res.h"
#include "testutil.h"
#include "vmstat.h"

#define BIT(c) (1u << (c))

static const char stat_a[] =
    "cpu  100 10 50 1000 20 5 5 2 0 0\n"
    "cpu0 50 5 25 500 10 3 3 1 0 0\n"
    "cpu1 50 5 25 500 10 2 2 1 0 0\n"
    "intr 5000 12 0 7 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
    "ctxt 10000\n"
    "btime 1764547200\n"
    "processes 4242\n"
    "procs_running 3\n"
    "procs_blocked 1\n"
    "softirq 900 1 2 3 4 5 6 7 8 9 10\n";

/* 2 s later: 1000 jiffies, of which us 100 sy 50 id 800 wa 40 st 10 */
static const char stat_b[] =
    "cpu  190 20 90 1800 60 10 10 12 0 0\n"
    "cpu0 95 10 45 900 30 5 5 6 0 0\n"
    "cpu1 95 10 45 900 30 5 5 6 0 0\n"
    "intr 9000 14 0 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
    "ctxt 16000\n"
    "btime 1764547200\n"
    "processes 4300\n"
    "procs_running 5\n"
    "procs_blocked 2\n"
    "softirq 950 1 2 3 4 5 6 7 8 9 10\n";

static const char meminfo_a[] =
    "MemTotal:       24684092 kB\n"
    "MemFree:         2000000 kB\n"
    "MemAvailable:    3000000 kB\n"
    "Buffers:             100 kB\n"
    "Cached:             2000 kB\n"
    "SwapCached:            0 kB\n"
    "Active:           123456 kB\n"
    "SwapTotal:          8000 kB\n"
    "SwapFree:           8000 kB\n"
    "Dirty:                 4 kB\n"
    "SReclaimable:        300 kB\n"
    "SUnreclaim:          500 kB\n";

static const char meminfo_b[] =
    "MemTotal:       24684092 kB\n"
    "MemFree:            1000 kB\n"
    "MemAvailable:       5000 kB\n"
    "Buffers:             200 kB\n"
    "Cached:             3000 kB\n"
    "SwapCached:           16 kB\n"
    "Active:           123456 kB\n"
    "SwapTotal:          8000 kB\n"
    "SwapFree:           6000 kB\n"
    "Dirty:                 4 kB\n"
    "SReclaimable:        400 kB\n"
    "SUnreclaim:          500 kB\n";

/* A 4.x kernel: per-zone families, plain workingset_refault, no oom_kill. */
static const char old_a[] =
    "nr_free_pages 500000\n"
    "nr_inactive_anon 1000\n"
    "workingset_refault 30\n"
    "workingset_activate 3\n"
    "pgpgin 100\n"
    "pgpgout 200\n"
    "pswpin 10\n"
    "pswpout 20\n"
    "pgalloc_normal 5\n"
    "pgfault 5000\n"
    "pgmajfault 7\n"
    "pgsteal_kswapd_dma 1\n"
    "pgsteal_kswapd_normal 100\n"
    "pgsteal_direct_normal 50\n"
    "pgscan_kswapd_dma 2\n"
    "pgscan_kswapd_normal 200\n"
    "pgscan_kswapd_movable 3\n"
    "pgscan_direct_normal 60\n"
    "pgscan_direct_throttle 9\n"
    "allocstall_dma 0\n"
    "allocstall_dma32 1\n"
    "allocstall_normal 3\n"
    "allocstall_movable 0\n"
    "thp_fault_alloc 5\n"
    "thp_fault_fallback 40\n";

static const char old_b[] =
    "nr_free_pages 400000\n"
    "nr_inactive_anon 2000\n"
    "workingset_refault 45\n"
    "workingset_activate 13\n"
    "pgpgin 1100\n"
    "pgpgout 2200\n"
    "pswpin 266\n"
    "pswpout 532\n"
    "pgalloc_normal 500\n"
    "pgfault 6000\n"
    "pgmajfault 17\n"
    "pgsteal_kswapd_dma 2\n"
    "pgsteal_kswapd_normal 200\n"
    "pgsteal_direct_normal 80\n"
    "pgscan_kswapd_dma 4\n"
    "pgscan_kswapd_normal 400\n"
    "pgscan_kswapd_movable 9\n"
    "pgscan_direct_normal 100\n"
    "pgscan_direct_throttle 99\n"
    "allocstall_dma 0\n"
    "allocstall_dma32 2\n"
    "allocstall_normal 7\n"
    "allocstall_movable 1\n"
    "thp_fault_alloc 8\n"
    "thp_fault_fallback 400\n";

/*
 * A 6.x kernel: refaults split by type; pgsteal/pgscan by type beside
 * kswapd/direct (the same pages again); khugepaged; oom_kill present.
 */
static const char new_a[] =
    "nr_free_pages 500000\n"
    "workingset_refault_anon 10\n"
    "workingset_refault_file 20\n"
    "workingset_activate_anon 1\n"
    "pgpgin 100\n"
    "pgpgout 200\n"
    "pswpin 10\n"
    "pswpout 20\n"
    "pgfault 5000\n"
    "pgmajfault 7\n"
    "pgsteal_kswapd 100\n"
    "pgsteal_direct 50\n"
    "pgsteal_khugepaged 5\n"
    "pgscan_kswapd 300\n"
    "pgscan_direct 100\n"
    "pgscan_khugepaged 6\n"
    "pgscan_direct_throttle 4\n"
    "pgscan_anon 200\n"
    "pgscan_file 206\n"
    "pgsteal_anon 80\n"
    "pgsteal_file 75\n"
    "allocstall_dma 0\n"
    "allocstall_dma32 1\n"
    "allocstall_normal 2\n"
    "allocstall_movable 0\n"
    "allocstall_device 0\n"
    "oom_kill 1\n"
    "thp_fault_alloc 3\n"
    "thp_fault_fallback 9\n"
    "thp_fault_fallback_charge 1\n";

static const char new_b[] =
    "nr_free_pages 400000\n"
    "workingset_refault_anon 110\n"
    "workingset_refault_file 1020\n"
    "workingset_activate_anon 500\n"
    "pgpgin 600\n"
    "pgpgout 1200\n"
    "pswpin 20\n"
    "pswpout 70\n"
    "pgfault 9000\n"
    "pgmajfault 8\n"
    "pgsteal_kswapd 400\n"
    "pgsteal_direct 60\n"
    "pgsteal_khugepaged 500\n"
    "pgscan_kswapd 900\n"
    "pgscan_direct 150\n"
    "pgscan_khugepaged 600\n"
    "pgscan_direct_throttle 400\n"
    "pgscan_anon 700\n"
    "pgscan_file 956\n"
    "pgsteal_anon 280\n"
    "pgsteal_file 235\n"
    "allocstall_dma 0\n"
    "allocstall_dma32 3\n"
    "allocstall_normal 12\n"
    "allocstall_movable 0\n"
    "allocstall_device 1\n"
    "oom_kill 3\n"
    "thp_fault_alloc 13\n"
    "thp_fault_fallback 900\n"
    "thp_fault_fallback_charge 100\n";

/* Write the three files of a fixture /proc into tu_dir/@sub. */
static char *
fixture(char *root, size_t len, const char *sub, const char *vmstat,
    const char *stat, const char *meminfo)
{
	char path[512], name[64];

	tu_path(root, len, sub);
	mkdir(root, 0700);
	snprintf(name, sizeof(name), "%s/vmstat", sub);
	tu_write(path, sizeof(path), name, vmstat);
	snprintf(name, sizeof(name), "%s/stat", sub);
	tu_write(path, sizeof(path), name, stat);
	snprintf(name, sizeof(name), "%s/meminfo", sub);
	tu_write(path, sizeof(path), name, meminfo);
	return root;
}

/* Read a, rewrite the files in place with b, read b (same open files). */
static void
two_snaps(const char *sub, const char *va, const char *vb, const char *sa,
    const char *sb, const char *ma, const char *mb, struct vb_snap *a,
    struct vb_snap *b)
{
	struct vb_proc p;
	char root[512];

	fixture(root, sizeof(root), sub, va, sa, ma);
	ck_assert_int_eq(vb_proc_open(&p, root), 0);
	ck_assert_int_eq(vb_proc_read(&p, a), 0);
	fixture(root, sizeof(root), sub, vb, sb, mb);
	ck_assert_int_eq(vb_proc_read(&p, b), 0);
	vb_proc_close(&p);
}

START_TEST(old_kernel)
{
	struct vb_snap a, b;
	uint64_t d[VB_NCTR];
	uint32_t present;

	two_snaps("old", old_a, old_b, stat_a, stat_b, meminfo_a, meminfo_b,
	    &a, &b);
	/* absolute values: families summed */
	ck_assert_uint_eq(a.ctr[VB_PGSCAN_KSWAPD], 2 + 200 + 3);
	ck_assert_uint_eq(a.ctr[VB_PGSCAN_DIRECT], 60);	/* not throttle */
	ck_assert_uint_eq(a.ctr[VB_PGSTEAL_KSWAPD], 101);
	ck_assert_uint_eq(a.ctr[VB_ALLOCSTALL], 4);
	ck_assert_uint_eq(a.ctr[VB_THP_FAULT_ALLOC], 5);	/* no fallback */
	vb_snap_delta(&b, &a, d, &present);
	ck_assert_uint_eq(d[VB_PSWPIN], 256);
	ck_assert_uint_eq(d[VB_PSWPOUT], 512);
	ck_assert_uint_eq(d[VB_PGFAULT], 1000);
	ck_assert_uint_eq(d[VB_PGMAJFAULT], 10);
	ck_assert_uint_eq(d[VB_PGSCAN_KSWAPD], 2 + 200 + 6);
	ck_assert_uint_eq(d[VB_PGSCAN_DIRECT], 40);
	ck_assert_uint_eq(d[VB_PGSTEAL_KSWAPD], 101);
	ck_assert_uint_eq(d[VB_PGSTEAL_DIRECT], 30);
	ck_assert_uint_eq(d[VB_ALLOCSTALL], 1 + 4 + 1);
	ck_assert_uint_eq(d[VB_WS_REFAULT], 15);
	ck_assert_uint_eq(d[VB_THP_FAULT_ALLOC], 3);
	ck_assert_uint_eq(d[VB_PGPGIN], 1000);
	ck_assert_uint_eq(d[VB_PGPGOUT], 2000);
	/* oom_kill appeared in 4.13: absent, not zero */
	ck_assert_uint_eq(present & BIT(VB_OOM_KILL), 0);
	/* no per-type reclaim counters before 5.x: the totals are absent */
	ck_assert_uint_eq(present, ((1u << VB_NCTR) - 1) & ~BIT(VB_OOM_KILL) &
	    ~BIT(VB_PGSCAN_TOTAL) & ~BIT(VB_PGSTEAL_TOTAL));
}
END_TEST

START_TEST(new_kernel)
{
	struct vb_snap a, b;
	uint64_t d[VB_NCTR];
	uint32_t present;

	two_snaps("new", new_a, new_b, stat_a, stat_b, meminfo_a, meminfo_b,
	    &a, &b);
	vb_snap_delta(&b, &a, d, &present);
	ck_assert_uint_eq(present, (1u << VB_NCTR) - 1);
	ck_assert_uint_eq(a.ctr[VB_WS_REFAULT], 30);
	ck_assert_uint_eq(d[VB_WS_REFAULT], 100 + 1000);
	/* kswapd + direct only: not _anon/_file, khugepaged, throttle */
	ck_assert_uint_eq(d[VB_PGSTEAL_KSWAPD], 300);
	ck_assert_uint_eq(d[VB_PGSTEAL_DIRECT], 10);
	ck_assert_uint_eq(d[VB_PGSCAN_KSWAPD], 600);
	ck_assert_uint_eq(d[VB_PGSCAN_DIRECT], 50);
	/* _anon + _file feed the totals, and only them */
	ck_assert_uint_eq(d[VB_PGSCAN_TOTAL], (700 + 956) - (200 + 206));
	ck_assert_uint_eq(d[VB_PGSTEAL_TOTAL], (280 + 235) - (80 + 75));
	ck_assert_uint_eq(d[VB_ALLOCSTALL], 2 + 10 + 1);
	ck_assert_uint_eq(d[VB_OOM_KILL], 2);
	ck_assert_uint_eq(d[VB_THP_FAULT_ALLOC], 10);
	ck_assert_uint_eq(d[VB_PSWPIN], 10);
	ck_assert_uint_eq(d[VB_PSWPOUT], 50);
	ck_assert_uint_eq(d[VB_PGFAULT], 4000);
	ck_assert_uint_eq(d[VB_PGMAJFAULT], 1);
	/* pages to kB with this machine's page size */
	ck_assert_double_eq(vb_pages_kb(d[VB_PSWPOUT]),
	    50.0 * (double)sysconf(_SC_PAGESIZE) / 1024);
	ck_assert_double_eq(vb_pages_kb(0), 0);
}
END_TEST

/* A counter that the first reading lacks is absent from the delta. */
START_TEST(counter_appears)
{
	struct vb_snap a, b;
	uint64_t d[VB_NCTR];
	uint32_t present;

	two_snaps("appear", old_a, new_b, stat_a, stat_b, meminfo_a,
	    meminfo_b, &a, &b);
	ck_assert_uint_eq(a.present & BIT(VB_OOM_KILL), 0);
	ck_assert_uint_ne(b.present & BIT(VB_OOM_KILL), 0);
	vb_snap_delta(&b, &a, d, &present);
	ck_assert_uint_eq(present & BIT(VB_OOM_KILL), 0);
	ck_assert_uint_ne(present & BIT(VB_PGFAULT), 0);
}
END_TEST

/*
 * The layout learnt from the first reading: later readings ask only for
 * the bytes through the last needed line.  Each check compares with a
 * fresh reader, whose first reading is whole and parsed line by line.
 */
static const char *const lay_names[] = {
	"nr_free_pages", "workingset_refault_anon", "workingset_refault_file",
	"pgpgin", "pgpgout", "pswpin", "pswpout", "pgalloc_normal",
	"allocstall_normal", "allocstall_movable", "pgfault", "pgmajfault",
	"pgsteal_kswapd", "pgsteal_direct", "pgscan_kswapd", "pgscan_direct",
	"pgscan_direct_throttle", "pgscan_anon", "pgscan_file",
	"pgsteal_anon", "pgsteal_file", "pgrotated", "oom_kill",
	"unevictable_pgs_culled", "thp_fault_alloc", "thp_fault_fallback",
	"swap_ra", "swap_ra_hit", "direct_map_level2_splits",
};
#define NLAY (sizeof(lay_names) / sizeof(lay_names[0]))

/* Lines "name base+i" for the names in @order (indices into lay_names). */
static void
lay_write(const char *sub, const int *order, size_t n, uint64_t base)
{
	char path[512], name[64], *text = malloc(n * 64 + 1), *p = text;
	size_t i;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s %llu\n", lay_names[order[i]],
		    (unsigned long long)(base + i));
	snprintf(name, sizeof(name), "%s/vmstat", sub);
	tu_write(path, sizeof(path), name, text);
	free(text);
}

static const int lay_order[NLAY] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	20, 21, 22, 23, 24, 25, 26, 27, 28,
};

/* @s's counters equal a fresh whole reading of the same files. */
static void
same_as_fresh(const char *root, const struct vb_snap *s, uint32_t mask)
{
	struct vb_proc q;
	struct vb_snap f;
	int i;

	ck_assert_int_eq(vb_proc_open(&q, root), 0);
	ck_assert_int_eq(vb_proc_read(&q, &f), 0);
	vb_proc_close(&q);
	ck_assert_uint_eq(s->present & mask, f.present & mask);
	for (i = 0; i < VB_NCTR; i++)
		if (mask & BIT(i))
			ck_assert_msg(s->ctr[i] == f.ctr[i], "%s: %llu, not %llu",
			    vb_ctr_names[i], (unsigned long long)s->ctr[i],
			    (unsigned long long)f.ctr[i]);
}

/* A layout fixture /proc: @sub with vmstat in lay_order, base @base. */
static char *
lay_fixture(char *root, size_t len, const char *sub, uint64_t base)
{
	fixture(root, len, sub, "x 1\n", stat_a, meminfo_a);
	lay_write(sub, lay_order, NLAY, base);
	return root;
}

/* Digits grow well past the slack: the rest comes with one more read. */
START_TEST(layout_digits_grow)
{
	struct vb_proc p;
	struct vb_snap s;
	char root[512];
	size_t want;

	lay_fixture(root, sizeof(root), "grow", 1);
	ck_assert_int_eq(vb_proc_open(&p, root), 0);
	ck_assert_int_eq(vb_proc_read(&p, &s), 0);
	ck_assert_int_gt(p.nneed, 10);
	want = p.want;
	/* the file holds more than the reader asks for */
	ck_assert_uint_lt(want, NLAY * 20);
	lay_write("grow", lay_order, NLAY, 1000000000000000ULL);
	ck_assert_int_eq(vb_proc_read(&p, &s), 0);
	same_as_fresh(root, &s, ~0u);
	ck_assert_int_eq(p.relearnt, 0);
	ck_assert_uint_gt(p.want, want + 300);	/* follows the digits */
	ck_assert_int_eq(vb_proc_read_vmstat(&p, &s), 0);
	same_as_fresh(root, &s, ~0u);
	ck_assert_int_eq(p.relearnt, 0);
	/* and shrink again */
	lay_write("grow", lay_order, NLAY, 7);
	ck_assert_int_eq(vb_proc_read(&p, &s), 0);
	same_as_fresh(root, &s, ~0u);
	ck_assert_uint_le(p.want, want + 64);
	vb_proc_close(&p);
}
END_TEST

/* Another line where a needed one was, or a file cut short: relearn. */
START_TEST(layout_relearn)
{
	int swapped[NLAY];
	struct vb_proc p;
	struct vb_snap s;
	char root[512];

	memcpy(swapped, lay_order, sizeof(swapped));
	swapped[5] = 6;		/* pswpout where pswpin was */
	swapped[6] = 5;
	lay_fixture(root, sizeof(root), "relearn", 10);
	ck_assert_int_eq(vb_proc_open(&p, root), 0);
	ck_assert_int_eq(vb_proc_read(&p, &s), 0);
	lay_write("relearn", swapped, NLAY, 500);
	ck_assert_int_eq(vb_proc_read(&p, &s), 0);
	ck_assert_int_eq(p.relearnt, 1);
	same_as_fresh(root, &s, ~0u);
	ck_assert_uint_eq(s.ctr[VB_PSWPIN], 500 + 6);
	ck_assert_uint_eq(s.ctr[VB_PSWPOUT], 500 + 5);
	/* learnt anew: the next reading needs no relearning */
	ck_assert_int_eq(vb_proc_read_vmstat(&p, &s), 0);
	ck_assert_int_eq(p.relearnt, 1);
	/* cut before oom_kill: those counters are absent now */
	lay_write("relearn", lay_order, 19, 900);
	ck_assert_int_eq(vb_proc_read(&p, &s), 0);
	ck_assert_int_eq(p.relearnt, 2);
	same_as_fresh(root, &s, ~0u);
	ck_assert_uint_eq(s.present & BIT(VB_OOM_KILL), 0);
	ck_assert_uint_eq(s.present & BIT(VB_PGSTEAL_TOTAL), 0);
	ck_assert_uint_ne(s.present & BIT(VB_PGSCAN_TOTAL), 0);
	vb_proc_close(&p);
}
END_TEST

/*
 * A quick reading updates all but oom_kill and thp_fault_alloc, which
 * keep the last whole reading's values; it reads no further than it
 * needs (a file cut after pgsteal_file is enough).
 */
START_TEST(layout_quick)
{
	uint32_t slow = BIT(VB_OOM_KILL) | BIT(VB_THP_FAULT_ALLOC);
	struct vb_proc p;
	struct vb_snap s;
	char root[512];

	lay_fixture(root, sizeof(root), "quick", 100);
	ck_assert_int_eq(vb_proc_open(&p, root), 0);
	ck_assert_int_eq(vb_proc_read(&p, &s), 0);
	ck_assert_uint_eq(p.quick & slow, 0);
	ck_assert_uint_lt(p.want_quick, p.want);
	ck_assert_uint_eq(s.ctr[VB_OOM_KILL], 100 + 22);
	lay_write("quick", lay_order, NLAY, 5000);
	ck_assert_int_eq(vb_proc_read_vmstat(&p, &s), 0);
	same_as_fresh(root, &s, ~slow);
	ck_assert_uint_eq(s.ctr[VB_OOM_KILL], 100 + 22);
	ck_assert_uint_eq(s.ctr[VB_THP_FAULT_ALLOC], 100 + 24);
	ck_assert_uint_ne(s.present & BIT(VB_OOM_KILL), 0);
	/* the quick lines alone, through pgsteal_file: no relearning */
	lay_write("quick", lay_order, 21, 6000);
	ck_assert_int_eq(vb_proc_read_vmstat(&p, &s), 0);
	ck_assert_int_eq(p.relearnt, 0);
	ck_assert_uint_eq(s.ctr[VB_PSWPOUT], 6000 + 6);
	ck_assert_uint_eq(s.ctr[VB_PGSTEAL_TOTAL], 6000 + 19 + 6000 + 20);
	/* a whole reading sees the cut and relearns */
	ck_assert_int_eq(vb_proc_read(&p, &s), 0);
	ck_assert_int_eq(p.relearnt, 1);
	ck_assert_uint_eq(s.present & slow, 0);
	vb_proc_close(&p);
}
END_TEST

START_TEST(stat_and_meminfo)
{
	struct vb_snap a, b;

	two_snaps("sm", old_a, old_b, stat_a, stat_b, meminfo_a, meminfo_b,
	    &a, &b);
	ck_assert_uint_eq(a.cpu_user, 100);
	ck_assert_uint_eq(a.cpu_nice, 10);
	ck_assert_uint_eq(a.cpu_sys, 50);
	ck_assert_uint_eq(a.cpu_idle, 1000);
	ck_assert_uint_eq(a.cpu_iowait, 20);
	ck_assert_uint_eq(a.cpu_irq, 5);
	ck_assert_uint_eq(a.cpu_softirq, 5);
	ck_assert_uint_eq(a.cpu_steal, 2);
	ck_assert_uint_eq(a.intr, 5000);
	ck_assert_uint_eq(a.ctxt, 10000);
	ck_assert_uint_eq(a.procs_running, 3);
	ck_assert_uint_eq(a.procs_blocked, 1);
	ck_assert_uint_eq(b.mem_total, 24684092);
	ck_assert_uint_eq(b.mem_free, 1000);
	ck_assert_uint_eq(b.mem_available, 5000);
	ck_assert_uint_eq(b.buffers, 200);
	ck_assert_uint_eq(b.cached, 3000);	/* not SwapCached */
	ck_assert_uint_eq(b.sreclaimable, 400);
	ck_assert_uint_eq(b.swap_total, 8000);
	ck_assert_uint_eq(b.swap_free, 6000);
}
END_TEST

START_TEST(missing_files)
{
	struct vb_proc p;
	char root[512], path[512];

	fixture(root, sizeof(root), "nostat", old_a, stat_a, meminfo_a);
	unlink(tu_path(path, sizeof(path), "nostat/stat"));
	ck_assert_int_eq(vb_proc_open(&p, root), -1);
	ck_assert_int_eq(vb_proc_open(&p, tu_path(path, sizeof(path),
	    "nowhere")), -1);
}
END_TEST

/* Split a line into words; returns the count. */
static int
split(char *s, char **w, int max)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(s, " \n", &save); t && n < max;
	    t = strtok_r(NULL, " \n", &save))
		w[n++] = t;
	return n;
}

/* The vmstat(8) columns over 2 s, from fixture values. */
START_TEST(row_columns)
{
	static const char *const want[] = {
		"2.000", "7",		/* t iter */
		"5", "2",		/* r b */
		"2000", "1000", "200", "3400",	/* swpd free buff cache */
		NULL, NULL,		/* si so: page-size dependent */
		"500", "1000",		/* bi bo (pgpgin/out are kB) */
		"2000", "3000",		/* in cs */
		"10", "5", "80", "4", "1",	/* us sy id wa st */
	};
	struct vb_snap a, b;
	char *buf = NULL, *w[64];
	size_t len = 0, i;
	double psz = (double)sysconf(_SC_PAGESIZE) / 1024;
	FILE *f;
	int n;

	two_snaps("row", old_a, old_b, stat_a, stat_b, meminfo_a, meminfo_b,
	    &a, &b);
	b.t_ns = a.t_ns + 2 * VB_NSEC_PER_SEC;
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	vb_vmstat_row(f, &b, &a, a.t_ns, 7);
	fclose(f);
	ck_assert_msg(len > 0 && buf[len - 1] == '\n', "row: '%s'", buf);
	ck_assert_msg(strchr(buf, '\n') == buf + len - 1, "not one line");
	n = split(buf, w, 64);
	ck_assert_int_eq(n, 19 + VB_NCTR);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (want[i])
			ck_assert_msg(strcmp(w[i], want[i]) == 0,
			    "column %zu: '%s', want '%s'", i, w[i], want[i]);
	/* si, so: kB per second */
	ck_assert_double_eq_tol(strtod(w[8], NULL), 256 * psz / 2, 0.5);
	ck_assert_double_eq_tol(strtod(w[9], NULL), 512 * psz / 2, 0.5);
	/* raw counters, cumulative; oom_kill absent on this kernel */
	ck_assert_str_eq(w[19 + VB_PSWPIN], "266");
	ck_assert_str_eq(w[19 + VB_PGSCAN_KSWAPD], "413");
	ck_assert_str_eq(w[19 + VB_ALLOCSTALL], "10");
	ck_assert_str_eq(w[19 + VB_OOM_KILL], "-");
	free(buf);
}
END_TEST

START_TEST(header_columns)
{
	char *buf = NULL, *line, *w[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int n, i;

	vb_vmstat_header(f, VB_NSEC_PER_SEC / 4);
	fclose(f);
	tu_assert_has(buf, "interval=0.250");
	line = strstr(buf, "# t iter r b swpd free buff cache si so bi bo "
	    "in cs us sy id wa st ");
	ck_assert_ptr_nonnull(line);
	n = split(line + 2, w, 64);
	ck_assert_int_eq(n, 19 + VB_NCTR);
	for (i = 0; i < VB_NCTR; i++)
		ck_assert_str_eq(w[19 + i], vb_ctr_names[i]);
	free(buf);
}
END_TEST

/* The thread: 20 ms for about 230 ms into a real file. */
START_TEST(sampler_thread)
{
	struct vb_sampler s;
	char root[512], path[512], line[1024];
	double t, last = 0;
	int rows = 0, hdr = 0, seen3 = 0;
	FILE *f;

	fixture(root, sizeof(root), "thr", new_a, stat_a, meminfo_a);
	f = fopen(tu_path(path, sizeof(path), "thr.vmstat"), "w+");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(vb_sampler_start(&s, root, f, 20 * 1000 * 1000), 0);
	vb_sampler_set_iter(&s, 3);
	usleep(230 * 1000);
	vb_sampler_stop(&s);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char *w[64];
		int n;

		if (line[0] == '#') {
			hdr += strncmp(line, "# t iter r b swpd", 17) == 0;
			continue;
		}
		n = split(line, w, 64);
		ck_assert_int_eq(n, 19 + VB_NCTR);
		t = strtod(w[0], NULL);
		ck_assert_msg(t > last, "time stamps not increasing");
		last = t;
		/*
		 * the iteration: 3 from set_iter() on; a row sampled
		 * before it (the thread's first deadline came before the
		 * call, on a loaded machine) says 0, never after a 3
		 */
		ck_assert_msg(!strcmp(w[1], "3") || (!strcmp(w[1], "0") &&
		    !seen3), "iter %s in row %d", w[1], rows);
		seen3 |= !strcmp(w[1], "3");
		ck_assert_str_eq(w[19 + VB_WS_REFAULT], "30");
		rows++;
	}
	fclose(f);
	ck_assert_int_eq(hdr, 1);
	/* rows after set_iter(), whose sleep the later deadlines end in */
	ck_assert_msg(seen3, "no row says iteration 3");
	/* 11 deadlines in 230 ms; a loaded machine may skip a few */
	ck_assert_msg(rows >= 5 && rows <= 12, "%d rows", rows);
	ck_assert_int_eq(rows, (int)s.samples);
	ck_assert_msg(last >= 0.1 && last < 0.26, "last row at %.3f s", last);
	ck_assert_uint_gt(s.cpu_ns, 0);
}
END_TEST

/*
 * The sampler below a second keeps its samples' text and parses it at
 * the next whole reading.  The layout changes under it (pgscan_kswapd
 * and pgscan_direct, names of one length, swap lines): samples read in
 * the new layout with the old one learnt are dropped, never misread,
 * and after the whole reading the rows carry the new values.
 */
START_TEST(sampler_relayout)
{
	int swapped[NLAY];
	struct vb_sampler s;
	char root[512], path[512], line[1024];
	int rows = 0, old = 0, new = 0;
	FILE *f;

	memcpy(swapped, lay_order, sizeof(swapped));
	swapped[14] = 15;
	swapped[15] = 14;
	lay_fixture(root, sizeof(root), "relay", 10);
	f = fopen(tu_path(path, sizeof(path), "relay.vmstat"), "w+");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(vb_sampler_start(&s, root, f, 50 * 1000 * 1000), 0);
	usleep(320 * 1000);
	lay_write("relay", swapped, NLAY, 500);
	usleep(1300 * 1000);
	vb_sampler_stop(&s);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		char *w[64];
		int n;

		if (line[0] == '#')
			continue;
		n = split(line, w, 64);
		ck_assert_int_eq(n, 19 + VB_NCTR);
		rows++;
		/* pgscan_kswapd, _direct: 24, 25 before; 515, 514 after */
		if (strcmp(w[19 + VB_PGSCAN_KSWAPD], "24") == 0) {
			ck_assert_str_eq(w[19 + VB_PGSCAN_DIRECT], "25");
			ck_assert_msg(new == 0, "old values after new ones");
			old++;
		} else {
			ck_assert_str_eq(w[19 + VB_PGSCAN_KSWAPD], "515");
			ck_assert_str_eq(w[19 + VB_PGSCAN_DIRECT], "514");
			new++;
		}
	}
	fclose(f);
	ck_assert_int_eq(rows, (int)s.samples);
	ck_assert_msg(old >= 3 && new >= 3, "%d old rows, %d new", old, new);
}
END_TEST

/*
 * forkbomb on the old-kernel fixture: the harness records unchanged
 * counters as 0 and oom_kill, which that kernel lacks, as "-".
 */
START_TEST(forkbomb_on_fixture)
{
	char root[512], out[512], env[600], path[600], err[1024];
	struct vb_res r;
	int status, m;
	pid_t pid;

	ck_assert_msg(access("bench/forkbomb", X_OK) == 0,
	    "bench/forkbomb not built (run from the top folder)");
	fixture(root, sizeof(root), "fb", old_a, stat_a, meminfo_a);
	tu_path(out, sizeof(out), "fb");
	snprintf(env, sizeof(env), "VMBENCH_PROC=%s", root);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *argv[] = { "bench/forkbomb", "--forks", "20", "--ints",
		    "10", "--iterations", "2", "--interval", "0.05", "--out",
		    out, "--workdir", tu_dir, NULL };
		char *envp[] = { env, "PATH=/usr/bin:/bin", NULL };

		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "forkbomb status %d", status);
	snprintf(path, sizeof(path), "%s.res", out);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.niter, 2);
	m = vb_res_metric_index(&r, "oom_kill");
	ck_assert_int_ge(m, 0);
	ck_assert(isnan(vb_res_get(&r, 0, m)));
	ck_assert(isnan(vb_res_get(&r, 1, m)));
	m = vb_res_metric_index(&r, "pgscan_kswapd");
	ck_assert_int_ge(m, 0);
	ck_assert_double_eq(vb_res_get(&r, 0, m), 0);
	m = vb_res_metric_index(&r, "minflt");	/* real rusage still */
	ck_assert_double_gt(vb_res_get(&r, 0, m), 20);
	vb_res_free(&r);
	/* the series was read from the fixture too */
	snprintf(path, sizeof(path), "%s.vmstat", out);
	ck_assert_int_eq(access(path, R_OK), 0);
}
END_TEST

Suite *
vmstat_suite(void)
{
	Suite *s = suite_create("vmstat");
	TCase *tc = tu_tcase("proc");
	TCase *te = tu_tcase("sampler");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, old_kernel);
	tcase_add_test(tc, new_kernel);
	tcase_add_test(tc, counter_appears);
	tcase_add_test(tc, layout_digits_grow);
	tcase_add_test(tc, layout_relearn);
	tcase_add_test(tc, layout_quick);
	tcase_add_test(tc, stat_and_meminfo);
	tcase_add_test(tc, missing_files);
	tcase_add_test(tc, row_columns);
	tcase_add_test(tc, header_columns);
	suite_add_tcase(s, tc);

	tcase_add_unchecked_fixture(te, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(te, 20);
	tcase_add_test(te, sampler_thread);
	tcase_add_test(te, sampler_relayout);
	tcase_add_test(te, forkbomb_on_fixture);
	suite_add_tcase(s, te);
	return s;
}
