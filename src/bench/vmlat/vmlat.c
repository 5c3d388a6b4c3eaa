/*
 * vmlat.c - LMbench's process, file and VM latencies and its local
 * bandwidths (the tables of Hron's 2002 radix-tree page-cache post),
 * measured as LMbench 3 measures them.
 *
 * Each figure is one timed loop (src/bench/vmlat/time.h): n operations per
 * interval, n grown until an interval lasts --enough, --reps kept
 * intervals, the median time per operation.  One harness iteration
 * measures every figure of --test once (all of them by default) and
 * writes each as that iteration's value:
 *
 *   fork, exec, sh	fork+exit+wait; fork+execve of vmlat_hello+wait;
 *			fork+/bin/sh -c vmlat_hello+wait (lat_proc), us
 *   fs0k, fs10k	create, then delete, n files of 0 or 10K in a fresh
 *			folder, 100 to a sub-folder (lat_fs), us per file
 *   mmap		map --size of a file shared, write a byte per 16K of
 *			its first tenth, unmap (lat_mmap), us
 *   prot		a store to a read-only shared page, caught, less the
 *			cost of catching a signal (lat_sig prot), us
 *   pagefault		read the pages of a --size file mapping in random
 *			order, remap with msync(MS_INVALIDATE); less the
 *			remap alone (lat_pagefault), us per page; on
 *			Linux the pages stay cached (a minor fault each)
 *   pagefault_cold	before each pass, untimed, drop the file's pages
 *			(POSIX_FADV_DONTNEED, checked gone by mincore());
 *			map MADV_RANDOM, read a byte a page in the same
 *			random order, unmap; less the pass without the
 *			reads, us per page (one page read from the disk a
 *			fault: no readahead, nothing for fault-around)
 *   anonfault		map --size anonymous, write a byte a page, unmap;
 *			less map and unmap alone, us per page
 *   filerd		read() a cached --size file in 64K blocks, summing
 *			(bw_file_rd io_only), MB/s
 *   mmaprd		sum a mapping of it (bw_mmap_rd mmap_only), MB/s
 *   memrd, memwr	read or write every 4th int of --size (bw_mem rd,
 *			wr), MB/s
 *   bcopy		memmove() of --size/2 (bw_mem bcopy), MB/s
 *
 * MB is 10^6 bytes, as LMbench.  The data file is made in the work
 * folder (written and fsync()ed) once per iteration.  On an ext4
 * without a journal the creates depend on what the minutes before
 * deleted: said on stderr and in a note of the result (src/lib/fsinfo.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "proc.h"
#include "fsinfo.h"
#include "ops.h"

struct cfg {
	const char *test;
	uint64_t size;
	uint64_t enough_us;
	uint64_t reps;
	const char *helper;
	int one_cpu;
	char helper_path[PATH_MAX];
};

static const struct vb_opt opts[] = {
	{ .name = "test", .type = VB_OPT_STR, .arg = "NAME",
	  .off = offsetof(struct cfg, test), .def = "all",
	  .choices = "all|fork|exec|sh|fs0k|fs10k|mmap|prot|pagefault|"
	  "pagefault_cold|anonfault|filerd|mmaprd|memrd|memwr|bcopy",
	  .help = "the figure to measure" },
	{ .name = "size", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, size), .def = "8M",
	  .min = 1 << 20, .max = 1ULL << 32,
	  .help = "file, mapping and buffer size (LMbench's default)" },
	{ .name = "enough", .type = VB_OPT_U64, .arg = "US",
	  .off = offsetof(struct cfg, enough_us), .def = "5000",
	  .min = 100, .max = 10000000,
	  .help = "microseconds a timed interval lasts at least" },
	{ .name = "reps", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, reps), .def = "11",
	  .min = 1, .max = 1001,
	  .help = "intervals per figure; the median is reported" },
	{ .name = "helper", .type = VB_OPT_STR, .arg = "PATH",
	  .off = offsetof(struct cfg, helper),
	  .help = "program exec and sh run (when not given: vmlat_hello "
	  "beside vmlat)" },
	{ .name = "one-cpu", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, one_cpu),
	  .help = "run on the CPU the iteration starts on, children too "
	  "(LMbench's LMBENCH_SCHED=SINGLE)" },
	{ 0 },
};

/*
 * Key figures (the default compare view; --detail and make post show
 * every one): the ones a page-cache or VM change moves first.
 */
static const struct vb_metric metrics[] = {
	{ "fork_us", "us", VB_LOWER, "fork+exit+wait", 1 },
	{ "exec_us", "us", VB_LOWER, "fork+execve+wait of a static helper", 1 },
	{ "sh_us", "us", VB_LOWER, "fork+/bin/sh -c helper+wait", 0 },
	{ "create_0k_us", "us/file", VB_LOWER, "create an empty file", 0 },
	{ "delete_0k_us", "us/file", VB_LOWER, "delete an empty file", 0 },
	{ "create_10k_us", "us/file", VB_LOWER, "create a 10K file", 1 },
	{ "delete_10k_us", "us/file", VB_LOWER, "delete a 10K file", 0 },
	{ "mmap_us", "us", VB_LOWER, "map, touch, unmap --size of a file", 1 },
	{ "prot_fault_us", "us", VB_LOWER, "protection fault", 0 },
	{ "page_fault_us", "us/page", VB_LOWER, "fault of a file page", 0 },
	{ "page_fault_cold_us", "us/page", VB_LOWER,
	    "fault of a file page not in the cache", 1 },
	{ "anon_fault_us", "us/page", VB_LOWER,
	    "first touch of an anonymous page", 0 },
	{ "file_reread_mbs", "MB/s", VB_HIGHER, "read() of a cached file", 1 },
	{ "mmap_reread_mbs", "MB/s", VB_HIGHER, "read of a file mapping", 0 },
	{ "mem_read_mbs", "MB/s", VB_HIGHER, "memory read", 0 },
	{ "mem_write_mbs", "MB/s", VB_HIGHER, "memory write", 0 },
	{ "bcopy_mbs", "MB/s", VB_HIGHER, "memmove of --size/2", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

/* The file tests: create or delete files of 0 or 10K. */
static double
create_0k(struct lo_ctx *x)
{
	return lo_fs(x, 0, 0);
}

static double
delete_0k(struct lo_ctx *x)
{
	return lo_fs(x, 0, 1);
}

static double
create_10k(struct lo_ctx *x)
{
	return lo_fs(x, 10240, 0);
}

static double
delete_10k(struct lo_ctx *x)
{
	return lo_fs(x, 10240, 1);
}

/* A --test: whether it needs the data file, its figures and how. */
struct test {
	const char *name;
	int file;
	struct {
		const char *metric;
		double (*fn)(struct lo_ctx *);
	} fig[2];
};

static const struct test tests[] = {
	{ "fork", 0, { { "fork_us", lo_fork } } },
	{ "exec", 0, { { "exec_us", lo_exec } } },
	{ "sh", 0, { { "sh_us", lo_sh } } },
	{ "fs0k", 0, { { "create_0k_us", create_0k },
	    { "delete_0k_us", delete_0k } } },
	{ "fs10k", 0, { { "create_10k_us", create_10k },
	    { "delete_10k_us", delete_10k } } },
	{ "mmap", 1, { { "mmap_us", lo_mmap } } },
	{ "prot", 1, { { "prot_fault_us", lo_prot } } },
	{ "pagefault", 1, { { "page_fault_us", lo_pagefault } } },
	{ "pagefault_cold", 1, { { "page_fault_cold_us",
	    lo_pagefault_cold } } },
	{ "anonfault", 0, { { "anon_fault_us", lo_anonfault } } },
	{ "filerd", 1, { { "file_reread_mbs", lo_filerd } } },
	{ "mmaprd", 1, { { "mmap_reread_mbs", lo_mmaprd } } },
	{ "memrd", 0, { { "mem_read_mbs", lo_memrd } } },
	{ "memwr", 0, { { "mem_write_mbs", lo_memwr } } },
	{ "bcopy", 0, { { "bcopy_mbs", lo_bcopy } } },
	{ NULL, 0, { { NULL, NULL } } },
};

/* Characters a helper path may have: it is run by /bin/sh -c. */
static int
plain_path(const char *s)
{
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"
		    "XYZ0123456789/._+-", *s))
			return 0;
	return 1;
}

static int
validate(void *p, char *err, size_t errlen)
{
	struct cfg *c = p;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	char self[PATH_MAX - 32], *slash;
	ssize_t n;

	if (pages > 0 && c->size > (uint64_t)pages * (uint64_t)psz / 8) {
		snprintf(err, errlen, "--size %llu bytes: more than an eighth "
		    "of this machine's memory", (unsigned long long)c->size);
		return -1;
	}
	if (psz > 0 && c->size % (uint64_t)psz) {
		snprintf(err, errlen, "--size %llu bytes: not a whole number "
		    "of %ld-byte pages", (unsigned long long)c->size, psz);
		return -1;
	}
	if (c->helper && c->helper[0]) {
		snprintf(c->helper_path, sizeof(c->helper_path), "%s",
		    c->helper);
	} else {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n < 0) {
			snprintf(err, errlen, "cannot find vmlat's folder: %s",
			    strerror(errno));
			return -1;
		}
		self[n] = '\0';
		if ((slash = strrchr(self, '/')))
			*slash = '\0';
		snprintf(c->helper_path, sizeof(c->helper_path),
		    "%s/vmlat_hello", self);
	}
	if (strcmp(c->test, "all") && strcmp(c->test, "exec") &&
	    strcmp(c->test, "sh"))
		return 0;
	if (c->helper_path[0] != '/' || !plain_path(c->helper_path)) {
		snprintf(err, errlen, "--helper %s: not an absolute path of "
		    "letters, digits and /._+-", c->helper_path);
		return -1;
	}
	if (access(c->helper_path, X_OK) < 0) {
		snprintf(err, errlen, "--helper %s: %s", c->helper_path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * When the figures include file creates: say when the work folder makes
 * them depend on what ran before (src/lib/fsinfo.h).
 */
static int
setup(void *p, const char *workdir)
{
	struct cfg *c = p;
	char note[256];

	if (strcmp(c->test, "all") && strcmp(c->test, "fs0k") &&
	    strcmp(c->test, "fs10k"))
		return 0;
	if (vb_fs_create_note(workdir, note, sizeof(note))) {
		vb_note("%s", note);
		fprintf(stderr, "vmlat: %s\n", note);
	}
	return 0;
}

/* Measure the figures of test @t and report them; 0, or -1 (said). */
static int
measure(struct lo_ctx *x, const struct test *t, struct vb_iter *it)
{
	double v;
	int i;

	for (i = 0; i < 2 && t->fig[i].fn; i++) {
		v = t->fig[i].fn(x);
		if (x->err[0]) {
			fprintf(stderr, "vmlat: %s\n", x->err);
			return -1;
		}
		vb_report(it, t->fig[i].metric, v);
	}
	return 0;
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	struct lo_ctx x;
	const struct test *t;
	int all = !strcmp(c->test, "all"), made = 0;

	/*
	 * --one-cpu: the loops and every child they fork stay on one CPU,
	 * so that a fork's child never waits for, or wakes, the other
	 * CPU's work: which CPU the scheduler picks for it changes from
	 * interval to interval and run to run, and on a 2-CPU machine
	 * that choice, not fork, made most of fork_us's spread.
	 */
	if (c->one_cpu && vb_pin_here() < 0)
		return 1;
	memset(&x, 0, sizeof(x));
	x.spec.enough_ns = c->enough_us * 1000;
	x.spec.reps = (int)c->reps;
	x.spec.max_n = 1ULL << 27;
	x.spec.stop = vb_stopping;
	x.dir = vb_iter_workdir(it);
	x.helper = c->helper_path;
	x.size = c->size;
	for (t = tests; t->name; t++) {
		if (!all && strcmp(c->test, t->name))
			continue;
		if (t->file && !made) {
			if (lo_make_file(&x) < 0) {
				fprintf(stderr, "vmlat: %s\n", x.err);
				return 1;
			}
			made = 1;
		}
		if (measure(&x, t, it) < 0)
			return 1;
	}
	return 0;
}

static const struct vb_bench vmlat = {
	.name = "vmlat",
	.summary = "LMbench's process, file and VM latencies and local "
	    "bandwidths, measured as LMbench measures them",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "fork_us",
	.validate = validate,
	.setup = setup,
	.run = run,
	/*
	 * The processes whose fork is timed: a plain vmlat, exec'd in the
	 * iteration child (none of the harness's memory for each fork to
	 * copy), at a fixed address-space layout (harness.h).
	 */
	.exec_run = 1,
	.fixed_layout = 1,
};

VB_MAIN(vmlat)
