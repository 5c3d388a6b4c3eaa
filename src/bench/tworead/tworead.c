/*
 * tworead.c - the two-file page-cache reader of Iwamoto's 2006 clockpro
 * test ("2read"), and with --cached the "hdparm -T" cached-read figure
 * of Kulesa's 2002 post.
 *
 * 2read: two files are created once in the work folder (--size-a,
 * --size-b) and then read over and over: the first --range-a bytes of A
 * and the first --range-b bytes of B, one read() of --block bytes from
 * each in turn, each file read sequentially through its range and
 * starting over at the range's start (--random: a random block of the
 * range instead).  Sizes default to the original's scaled to the
 * memory of the run (plan.h), so that both ranges together
 * overflow memory a little; --sweep N picks the original's n.  It
 * prints the number of reads / 2 every --print-interval seconds (the
 * original's output) and stops after --duration seconds, or after
 * --reads N read() calls: a fixed amount of work, so that a run that
 * gets less CPU on a busy machine takes longer rather than reading
 * less (and putting less pressure on memory).
 *
 * Measurement notes: each iteration starts cold (the files are synced
 * once when created and every iteration drops their pages with
 * POSIX_FADV_DONTNEED first), the read loop is timed with
 * CLOCK_MONOTONIC and nothing else is in it; after the loop, mincore()
 * on a read-only mapping of each range tells how much of it sits in the
 * page cache, which is what the clockpro discussion turned on.
 *
 * --anon SIZE: before the files are read, SIZE of anonymous memory is
 * mapped and written (one byte a page), then left untouched while the
 * files are read: memory the kernel may swap out to keep the files'
 * pages, or not (vm.swappiness decides), the page-cache-beside-memory-
 * pressure case of make ab.  It is mapped in every iteration and freed
 * at its end; writing it is outside the timed loop.
 *
 * --cached: one file of --size-a (default 2M) is read once to cache
 * it, then read in --block (default 2M) read()s from its start, again
 * and again for --duration (default 2 s) or --reads N read()s, as
 * hdparm -T reads the buffer cache; the figure is MiB/s (hdparm's "MB"
 * is 2^20 bytes).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "size.h"
#include "plan.h"

struct cfg {
	uint64_t size_a, size_b, range_a, range_b, block, sweep, mem, anon;
	uint64_t reads;		/* stop after this many read()s; 0: time */
	double print_interval, duration;
	int random;
	int cached;
};

static const struct vb_opt opts[] = {
	{ .name = "size-a", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, size_a), .def = "0",
	  .min = 0, .max = 1ULL << 44,
	  .help = "size of file A (0: 1024 scaled MB; --cached: 2M)" },
	{ .name = "size-b", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, size_b), .def = "0",
	  .min = 0, .max = 1ULL << 44,
	  .help = "size of file B (0: 1500 scaled MB)" },
	{ .name = "range-a", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, range_a), .def = "0",
	  .min = 0, .max = 1ULL << 44,
	  .help = "bytes of A read over and over (0: n scaled MB)" },
	{ .name = "range-b", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, range_b), .def = "0",
	  .min = 0, .max = 1ULL << 44,
	  .help = "bytes of B read over and over (0: 1100 - n scaled MB)" },
	{ .name = "block", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, block), .def = "0",
	  .min = 0, .max = 64ULL << 20,
	  .help = "bytes per read() (0: 4K; --cached: 2M)" },
	{ .name = "sweep", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, sweep), .def = "0",
	  .min = 0, .max = 1099,
	  .help = "the original's n: ranges n and 1100 - n scaled MB "
	  "(0: n = 300 unless ranges are given)" },
	{ .name = "mem", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, mem), .def = "0",
	  .min = 0, .max = 1ULL << 50,
	  .help = "memory the sizes scale to (0: $VMBENCH_MEM_LIMIT, "
	  "the cgroup limit or MemTotal)" },
	{ .name = "print-interval", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct cfg, print_interval), .def = "5",
	  .dmin = 0.01, .dmax = 86400,
	  .help = "print reads/2 this often" },
	{ .name = "duration", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct cfg, duration), .def = "0",
	  .dmin = 0, .dmax = 86400,
	  .help = "seconds of reading (0: 300; --cached: 2)" },
	{ .name = "reads", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, reads), .def = "0",
	  .min = 0, .max = 1ULL << 40,
	  .help = "stop after N read() calls, a fixed amount of work, "
	  "instead of --duration (0: --duration)" },
	{ .name = "anon", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, anon), .def = "0",
	  .min = 0, .max = 1ULL << 44,
	  .help = "hold SIZE of idle anonymous memory while reading" },
	{ .name = "random", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, random),
	  .help = "read random blocks of the ranges, not in order" },
	{ .name = "cached", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, cached),
	  .help = "hdparm -T: MiB/s reading one cached file" },
	{ 0 },
};

static const struct vb_metric metrics[] = {
	{ "half_reads", "reads", VB_HIGHER,
	  "reads / 2 in --duration (the number 2read printed; "
	  "--reads N: N / 2)", 1 },
	{ "reads", "reads", VB_HIGHER, "read() calls in --duration", 0 },
	{ "reads_per_s", "reads/s", VB_HIGHER, "read() calls per second", 0 },
	{ "mb_per_s", "MB/s", VB_HIGHER, "bytes read / s / 10^6", 1 },
	{ "resident_a_pct", "%", VB_INFO,
	  "range A in the page cache at the end", 1 },
	{ "resident_b_pct", "%", VB_INFO,
	  "range B in the page cache at the end", 1 },
	{ "resident_a_mib", "MiB", VB_INFO, "range A cached at the end", 0 },
	{ "resident_b_mib", "MiB", VB_INFO, "range B cached at the end", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

static const struct vb_metric cached_metrics[] = {
	{ "cached_run_mib_per_s", "MiB/s", VB_HIGHER,
	  "cached_mib_per_s over the time less wait_s", 1 },
	{ "cached_mib_per_s", "MiB/s", VB_HIGHER,
	  "cached read() speed, hdparm -T style (2^20 bytes)", 1 },
	{ "reads", "reads", VB_INFO, "read() calls in --duration (or "
	  "--reads)", 0 },
	{ "wait_s", "s", VB_INFO, "of the reading, waiting for a CPU "
	  "(/proc/thread-self/schedstat)", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

static char path_a[PATH_MAX], path_b[PATH_MAX];
static const char *mem_src = "--mem";	/* where c->mem came from */

/* Resolve every default so that the result's params are the real sizes. */
static int
validate(void *p, char *err, size_t errlen)
{
	struct cfg *c = p;
	struct tr_plan pl;
	const char *src = "--mem";

	if (c->reads && c->duration) {
		snprintf(err, errlen, "--reads and --duration both end the "
		    "reading: give one");
		return -1;
	}
	if (c->cached) {
		if (c->sweep || c->range_a || c->range_b || c->size_b ||
		    c->random) {
			snprintf(err, errlen, "--cached reads one file: "
			    "--sweep, --range-a, --range-b, --size-b and "
			    "--random do not apply");
			return -1;
		}
		if (!c->size_a)
			c->size_a = 2ULL << 20;
		if (!c->block)
			c->block = 2ULL << 20;
		if (!c->duration && !c->reads)
			c->duration = 2;
		if (c->block > c->size_a) {
			snprintf(err, errlen, "--block is larger than "
			    "--size-a");
			return -1;
		}
		return 0;
	}
	if (!c->block)
		c->block = 4096;
	if (!c->duration && !c->reads)
		c->duration = 300;
	memset(&pl, 0, sizeof(pl));
	if (!c->mem && tr_mem_basis(&c->mem, &src, err, errlen) < 0)
		return -1;
	pl.mem = c->mem;
	pl.block = c->block;
	pl.size_a = c->size_a;
	pl.size_b = c->size_b;
	pl.range_a = c->range_a;
	pl.range_b = c->range_b;
	if (tr_plan_make(&pl, (unsigned)c->sweep, err, errlen) < 0)
		return -1;
	c->size_a = pl.size_a;
	c->size_b = pl.size_b;
	c->range_a = pl.range_a;
	c->range_b = pl.range_b;
	c->sweep = pl.n;
	mem_src = src;
	if (c->anon && c->anon >= c->mem - c->mem / 8) {
		char a[32], m[32];

		snprintf(err, errlen, "--anon %s: keep it under 7/8 of the %s "
		    "the run has (%s), or the reader has no room",
		    vb_fmt_size(a, sizeof(a), c->anon), vb_fmt_size(m,
		    sizeof(m), c->mem), src);
		return -1;
	}
	return 0;
}

/* Create @path of @size bytes, written in 1 MiB blocks and synced. */
static int
create_file(const char *path, uint64_t size)
{
	static char buf[1 << 20];
	uint64_t off;
	int fd;

	memset(buf, 0x5a, sizeof(buf));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die_errno("cannot create %s", path);
	for (off = 0; off < size && !vb_stopping(); ) {
		size_t n = size - off < sizeof(buf) ? (size_t)(size - off) :
		    sizeof(buf);
		ssize_t w = pwrite(fd, buf, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die_errno("cannot write %s", path);
		off += (uint64_t)w;
	}
	if (fdatasync(fd) < 0 && !vb_stopping())
		die_errno("cannot sync %s", path);
	close(fd);
	return 0;
}

/*
 * Create the files once.  Refuse when they would leave less than a
 * tenth of the work folder's file system free: a run must never fill
 * the file system it shares with the rest of the machine.
 */
static int
setup(void *p, const char *workdir)
{
	struct cfg *c = p;
	struct statvfs sv;
	uint64_t need = c->size_a + (c->cached ? 0 : c->size_b), avail, keep;
	char a[32], b[32];
	uint64_t t0 = vb_now_ns();

	if (statvfs(workdir, &sv) < 0)
		die_errno("cannot statvfs %s", workdir);
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	keep = (uint64_t)sv.f_blocks * sv.f_frsize / 10;
	if (need + keep > avail)
		die("the files need %s but %s has %s free, of which a tenth "
		    "of the file system is kept; give smaller sizes or a "
		    "memory limit (MEM=, --mem)", vb_fmt_size(a, sizeof(a),
		    need), workdir, vb_fmt_size(b, sizeof(b), avail));
	if (!c->cached)
		printf("memory %llu (%s): A %llu bytes reading %llu, B %llu "
		    "bytes reading %llu\n", (unsigned long long)c->mem,
		    mem_src, (unsigned long long)c->size_a,
		    (unsigned long long)c->range_a,
		    (unsigned long long)c->size_b,
		    (unsigned long long)c->range_b);
	snprintf(path_a, sizeof(path_a), "%s/a", workdir);
	snprintf(path_b, sizeof(path_b), "%s/b", workdir);
	create_file(path_a, c->size_a);
	if (!c->cached)
		create_file(path_b, c->size_b);
	if (!vb_stopping())
		printf("created %s of files in %.1f s\n",
		    vb_fmt_size(a, sizeof(a), need), vb_elapsed_s(t0));
	return 0;
}

/* Bytes of [0, @len) of @fd in the page cache (mincore). */
static uint64_t
resident(int fd, uint64_t len)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t pages = (size_t)((len + (uint64_t)psz - 1) / (uint64_t)psz), i;
	unsigned char *vec = malloc(pages ? pages : 1);
	uint64_t n = 0;
	void *m;

	if (!vec)
		die("out of memory");
	m = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die_errno("cannot map a range for mincore");
	if (mincore(m, (size_t)len, vec) < 0)
		die_errno("mincore");
	for (i = 0; i < pages; i++)
		n += vec[i] & 1;
	munmap(m, (size_t)len);
	free(vec);
	return n * (uint64_t)psz > len ? len : n * (uint64_t)psz;
}

static int
open_ro(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die_errno("cannot open %s", path);
	return fd;
}

/* xorshift64*: the --random block sequence, the same every run. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* One read of @c->block at the file's next place; dies on an error. */
static void
read_one(const struct cfg *c, int fd, uint64_t range, uint64_t *pos,
    uint64_t *seed, char *buf, const char *name)
{
	ssize_t n;

	if (c->random) {
		uint64_t off = rnd(seed) % (range / c->block) * c->block;

		n = pread(fd, buf, (size_t)c->block, (off_t)off);
	} else {
		if (*pos + c->block > range) {
			if (lseek(fd, 0, SEEK_SET) < 0)
				die_errno("lseek %s", name);
			*pos = 0;
		}
		n = read(fd, buf, (size_t)c->block);
		*pos += c->block;
	}
	if (n != (ssize_t)c->block) {
		if (n < 0)
			die_errno("read %s", name);
		die("short read of %s: %zd of %llu bytes", name, n,
		    (unsigned long long)c->block);
	}
}

static int
run_cached(struct cfg *c, struct vb_iter *it)
{
	int fd = open_ro(path_a);
	char *buf = malloc((size_t)c->block);
	uint64_t reads = 0, off = 0, t0, end;
	int64_t w0, w1;
	double secs;

	if (!buf)
		die("out of memory");
	/* bring it into the cache first, untimed */
	while (off < c->size_a) {
		if (pread(fd, buf, (size_t)c->block, (off_t)off) <= 0)
			die_errno("read %s", path_a);
		off += c->block;
	}
	w0 = vb_run_delay_ns();
	t0 = vb_now_ns();
	end = t0 + (uint64_t)(c->duration * 1e9);
	off = 0;
	do {
		if (off + c->block > c->size_a)
			off = 0;
		if (pread(fd, buf, (size_t)c->block, (off_t)off) !=
		    (ssize_t)c->block)
			die_errno("read %s", path_a);
		off += c->block;
		reads++;
	} while ((c->reads ? reads < c->reads : vb_now_ns() < end) &&
	    !vb_stopping());
	secs = vb_elapsed_s(t0);
	w1 = vb_run_delay_ns();
	printf("Timing cached reads: %llu MiB in %.2f seconds = %.2f MiB/sec\n",
	    (unsigned long long)(reads * c->block >> 20), secs,
	    (double)(reads * c->block) / 1048576.0 / secs);
	vb_report(it, "cached_mib_per_s",
	    (double)(reads * c->block) / 1048576.0 / secs);
	vb_report(it, "reads", (double)reads);
	if (w0 >= 0 && w1 >= w0) {
		double w = vb_ns_to_s((uint64_t)(w1 - w0));

		vb_report(it, "wait_s", w);
		if (secs - w > 0)
			vb_report(it, "cached_run_mib_per_s",
			    (double)(reads * c->block) / 1048576.0 /
			    (secs - w));
	}
	free(buf);
	close(fd);
	return 0;
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	int fa, fb;
	char *buf;
	uint64_t reads = 0, pa = 0, pb = 0, seed = 0x2007c10c, t0, end, next;
	uint64_t ra, rb, step = (uint64_t)(c->print_interval * 1e9);
	double secs;

	if (c->cached)
		return run_cached(c, it);
	if (c->anon) {
		uint64_t off;
		char *m = mmap(NULL, (size_t)c->anon, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			die_errno("cannot map --anon %llu bytes",
			    (unsigned long long)c->anon);
		/* freed when the iteration's process exits */
		for (off = 0; off < c->anon; off += 4096)
			m[off] = 1;
	}
	fa = open_ro(path_a);
	fb = open_ro(path_b);
	if (!(buf = malloc((size_t)c->block)))
		die("out of memory");
	/* start cold: the files are clean, so this drops their pages */
	posix_fadvise(fa, 0, 0, POSIX_FADV_DONTNEED);
	posix_fadvise(fb, 0, 0, POSIX_FADV_DONTNEED);
	t0 = vb_now_ns();
	end = t0 + (uint64_t)(c->duration * 1e9);
	next = t0 + step;
	for (;;) {
		uint64_t now;

		read_one(c, fa, c->range_a, &pa, &seed, buf, path_a);
		/* --reads N: an odd N ends after A's read */
		if (++reads == c->reads)
			break;
		read_one(c, fb, c->range_b, &pb, &seed, buf, path_b);
		reads++;
		now = vb_now_ns();
		if (now >= next) {
			printf("%8.1f s  %llu\n", vb_ns_to_s(now - t0),
			    (unsigned long long)reads / 2);
			next += step;
		}
		if ((c->reads ? reads >= c->reads : now >= end) ||
		    vb_stopping())
			break;
	}
	secs = vb_elapsed_s(t0);
	ra = resident(fa, c->range_a);
	rb = resident(fb, c->range_b);
	printf("%llu reads/2 in %.1f s (%.0f reads/s); cached at the end: "
	    "A %.1f%%, B %.1f%%\n", (unsigned long long)reads / 2, secs,
	    (double)reads / secs, 100.0 * (double)ra / (double)c->range_a,
	    100.0 * (double)rb / (double)c->range_b);
	vb_report(it, "half_reads", (double)(reads / 2));
	vb_report(it, "reads", (double)reads);
	vb_report(it, "reads_per_s", (double)reads / secs);
	vb_report(it, "mb_per_s", (double)(reads * c->block) / secs / 1e6);
	vb_report(it, "resident_a_pct", 100.0 * (double)ra /
	    (double)c->range_a);
	vb_report(it, "resident_b_pct", 100.0 * (double)rb /
	    (double)c->range_b);
	vb_report(it, "resident_a_mib", (double)ra / 1048576.0);
	vb_report(it, "resident_b_mib", (double)rb / 1048576.0);
	free(buf);
	close(fa);
	close(fb);
	return 0;
}

/* --cached: its own figures and headline */
static const struct vb_mode modes[] = {
	{ "cached", cached_metrics, "cached_run_mib_per_s" },
	{ 0 },
};

static const struct vb_bench tworead = {
	.name = "tworead",
	.summary = "read two files' ranges alternately, the clockpro "
	    "\"2read\" test (--cached: hdparm -T cached reads)",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "half_reads",
	.modes = modes,
	.validate = validate,
	.setup = setup,
	.run = run,
};

VB_MAIN(tworead)
