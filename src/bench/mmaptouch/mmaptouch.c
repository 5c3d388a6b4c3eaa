/*
 * mmaptouch.c - map a file, touch every page, msync, munmap (LTP mmap001,
 * as in Hron's 2001 "mmap, touch, msync, and munmap 500000 pages 5
 * times").
 *
 * Per iteration: create a file in the work folder and size it (lseek to
 * the last byte and write it, as mmap001 did, so the file is sparse),
 * map it PROT_READ|PROT_WRITE MAP_SHARED, write to it (one byte a page,
 * or every byte with --every-byte as mmap001 did), msync(MS_SYNC) (which
 * writes the pages back), munmap, close, unlink.  --anon maps anonymous
 * private memory instead, with no file and no msync.
 *
 * Each phase is timed with CLOCK_MONOTONIC inside the iteration: touch_s
 * (the stores and the faults they take), msync_s, munmap_s; map_s is the
 * whole sequence from open() to unlink() and gives pages_per_s.
 *
 * The file is sparse, so the stores allocate its blocks: a full work
 * folder shows as SIGBUS during the touch, reported as one line naming
 * the full file system (the iteration fails).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "size.h"

struct cfg {
	uint64_t pages;
	int every_byte;
	int anon;
	size_t page;
};

static const struct vb_opt opts[] = {
	{ .name = "pages", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, pages), .def = "500000",
	  .min = 1, .max = 1ULL << 32, .help = "pages to map" },
	{ .name = "every-byte", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, every_byte),
	  .help = "write every byte, not one a page (mmap001)" },
	{ .name = "anon", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, anon),
	  .help = "anonymous private mapping: no file, no msync" },
	{ 0 },
};

/* The amount of work: the bytes mapped, --pages x --page, exactly. */
static const struct vb_work work[] = {
	{ "bytes", 0 },
	{ NULL, 0 },
};

static const struct vb_metric metrics[] = {
	{ "bytes", "B", VB_INFO, "bytes mapped", 0 },
	{ "pages_per_s", "pages/s", VB_HIGHER, "pages mapped, touched, "
	    "synced and unmapped per second", 1 },
	{ "map_s", "s", VB_LOWER, "open to unlink", 0 },
	{ "touch_s", "s", VB_LOWER, "writing the mapping", 1 },
	{ "msync_s", "s", VB_LOWER, "msync(MS_SYNC)", 1 },
	{ "munmap_s", "s", VB_LOWER, "munmap()", 0 },
	{ "wait_s", "s", VB_INFO, "of map_s, waiting for a CPU "
	    "(/proc/thread-self/schedstat)", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

static int
validate(void *p, char *err, size_t errlen)
{
	struct cfg *c = p;
	long pages = sysconf(_SC_PHYS_PAGES);

	c->page = (size_t)sysconf(_SC_PAGESIZE);
	/* an anonymous mapping larger than RAM could only end in the OOM
	   killer; a file mapping is written back and may be larger */
	if (c->anon && pages > 0 && c->pages > (uint64_t)pages / 2) {
		snprintf(err, errlen, "--pages %llu --anon: more than half "
		    "of this machine's memory", (unsigned long long)c->pages);
		return -1;
	}
	return 0;
}

/* The file must fit on the work folder's filesystem: say so now. */
static int
setup(void *p, const char *workdir)
{
	struct cfg *c = p;
	struct statvfs sv;
	uint64_t need = c->pages * c->page, have;

	if (c->anon)
		return 0;
	if (statvfs(workdir, &sv) < 0)
		die_errno("cannot statvfs %s", workdir);
	have = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (need > have) {
		char a[32], b[32];

		die("--pages %llu: the file needs %s but %s has %s free",
		    (unsigned long long)c->pages, vb_fmt_size(a, sizeof(a),
		    need), workdir, vb_fmt_size(b, sizeof(b), have));
	}
	return 0;
}

/*
 * A store to a page of the sparse file that cannot get a block (the
 * work folder's file system is full) raises SIGBUS: say so in one line
 * and fail the iteration, rather than die with "Bus error".  The lines
 * are made before the touch; the handler only picks one and writes it.
 */
static int bus_fd = -1;
static char bus_full[4300], bus_other[4300];

static void
on_sigbus(int sig)
{
	struct statvfs sv;
	const char *m = bus_other;

	(void)sig;
	if (fstatvfs(bus_fd, &sv) == 0 && sv.f_bavail == 0)
		m = bus_full;
	vb_err_raw(m, strlen(m));
	_exit(1);
}

static void
catch_sigbus(int fd, const char *path, const char *workdir)
{
	struct sigaction sa;

	bus_fd = fd;
	snprintf(bus_full, sizeof(bus_full), "mmaptouch: cannot write a page "
	    "of %s: the file system of %s is full: %s\n", path, workdir,
	    strerror(ENOSPC));
	snprintf(bus_other, sizeof(bus_other), "mmaptouch: cannot write a "
	    "page of %s (SIGBUS): %s\n", path, strerror(EIO));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static void
touch(char *m, uint64_t len, int every, size_t page)
{
	uint64_t off;

	/* a store a byte, as mmap001 wrote its map (not one memset()) */
	if (every) {
		for (off = 0; off < len; off++)
			((volatile char *)m)[off] = (char)off;
		return;
	}
	for (off = 0; off < len; off += page)
		((volatile char *)m)[off] = 1;
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	uint64_t len = c->pages * c->page;
	uint64_t t0, t1, t2, t3, t4, t5;
	char path[4096];
	char *m;
	int fd = -1;
	int64_t w0, w1;

	snprintf(path, sizeof(path), "%s/mmaptouch.%d", vb_iter_workdir(it),
	    vb_iter_num(it));
	w0 = vb_run_delay_ns();
	t0 = vb_now_ns();
	if (c->anon) {
		m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	} else {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			die_errno("cannot create %s", path);
		if (pwrite(fd, "", 1, (off_t)len - 1) != 1)
			die_errno("cannot size %s to %llu bytes", path,
			    (unsigned long long)len);
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0);
	}
	if (m == MAP_FAILED)
		die_errno("cannot map %llu pages", (unsigned long long)c->pages);
	if (fd >= 0)
		catch_sigbus(fd, path, vb_iter_workdir(it));
	t1 = vb_now_ns();
	touch(m, len, c->every_byte, c->page);
	t2 = vb_now_ns();
	if (!c->anon && msync(m, len, MS_SYNC) < 0)
		die_errno("msync of %s", path);
	t3 = vb_now_ns();
	if (munmap(m, len) < 0)
		die_errno("munmap");
	t4 = vb_now_ns();
	if (fd >= 0) {
		if (close(fd) < 0)
			die_errno("close %s", path);
		if (unlink(path) < 0)
			die_errno("cannot remove %s", path);
	}
	t5 = vb_now_ns();
	w1 = vb_run_delay_ns();
	vb_report(it, "bytes", (double)len);
	vb_report(it, "pages_per_s", (double)c->pages / vb_ns_to_s(t5 - t0));
	vb_report(it, "map_s", vb_ns_to_s(t5 - t0));
	vb_report(it, "touch_s", vb_ns_to_s(t2 - t1));
	if (!c->anon)
		vb_report(it, "msync_s", vb_ns_to_s(t3 - t2));
	vb_report(it, "munmap_s", vb_ns_to_s(t4 - t3));
	if (w0 >= 0 && w1 >= w0)
		vb_report(it, "wait_s", vb_ns_to_s((uint64_t)(w1 - w0)));
	return 0;
}

static const struct vb_bench mmaptouch = {
	.name = "mmaptouch",
	.summary = "map a file MAP_SHARED, write it, msync, munmap, unlink "
	    "(LTP mmap001)",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "pages_per_s",
	.work = work,
	.validate = validate,
	.setup = setup,
	.run = run,
};

VB_MAIN(mmaptouch)
