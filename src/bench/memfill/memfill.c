/*
 * memfill - fill and write a share of memory (LTP mtest01 -p80 -w, as in
 * Hron's 2001 "Fill and write to 80% of virtual memory 10 times").
 *
 * The target is --bytes, or --percent of RAM + swap less what is in use
 * (of the memory limit + swap when run under one: the runner passes
 * VMBENCH_MEM_LIMIT and VMBENCH_SWAP_LIMIT in bytes); the arithmetic is
 * in memfill-size.c.  It is computed once, before the first iteration,
 * and trimmed to available memory + free swap less a margin unless
 * --force.  Each iteration maps the target in pieces of --chunk rounded
 * up to a multiple of --map-align, each at an address that is a multiple
 * of --map-align (by default the PMD huge page size, so that THP, when
 * its mode allows it for memory nobody madvise()d, can back every whole
 * huge-page range at its first fault), writes each piece as soon as it
 * is mapped (one byte a page with --write, every byte with --every-byte),
 * split over --procs processes that each hold their share until all are
 * done; then everything is freed.  --map-align 4K maps each chunk on its
 * own, wherever mmap() puts it.
 *
 * fill_s is timed with CLOCK_MONOTONIC from the first mmap() (before the
 * workers are forked) to the last worker's "done"; it includes page
 * faults, zeroing, reclaim and swap-out, which are the point.  Freeing
 * (munmap, exit of the workers) is timed separately as free_s.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "fill.h"
#include "plan.h"

struct cfg {
	double percent;
	uint64_t bytes;
	uint64_t chunk;
	uint64_t map_align;
	uint64_t procs;
	int write;
	int every_byte;
	int force;
	/* computed by validate() */
	struct memfill_plan plan;
	enum memfill_write mode;
	size_t page;
};

static const struct vb_opt opts[] = {
	{ .name = "percent", .type = VB_OPT_DOUBLE, .arg = "P",
	  .off = offsetof(struct cfg, percent), .dmin = 0.01, .dmax = 100,
	  .help = "fill P% of RAM + swap less what is in use (default 80)" },
	{ .name = "bytes", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, bytes), .min = 4096, .max = 1ULL << 50,
	  .help = "fill SIZE bytes instead of a percentage" },
	{ .name = "write", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, write),
	  .help = "write what is allocated (one byte a page)" },
	{ .name = "every-byte", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, every_byte),
	  .help = "with --write: write every byte (2002 mtest01)" },
	{ .name = "chunk", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, chunk), .def = "1M",
	  .min = 4096, .max = 1ULL << 30, .help = "allocation unit" },
	{ .name = "map-align", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, map_align), .min = 4096,
	  .max = 1ULL << 30, .help = "map in SIZE-aligned multiples of SIZE "
	  "(default: huge page size; 4K: chunks apart)" },
	{ .name = "procs", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, procs), .def = "1",
	  .min = 1, .max = 1024, .help = "split the target over N processes" },
	{ .name = "force", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, force),
	  .help = "do not trim the target to available memory + swap" },
	{ 0 },
};

static const struct vb_metric metrics[] = {
	{ "bytes", "B", VB_INFO, "bytes allocated", 0 },
	{ "fill_s", "s", VB_LOWER, "time to allocate and write the target", 1 },
	{ "fill_mb_s", "MB/s", VB_HIGHER, "fill rate (10^6 bytes/s)", 1 },
	{ "free_s", "s", VB_LOWER, "time to free it", 1 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

/* A size from the environment (bytes), or MEMFILL_UNSET. */
static int
env_size(const char *name, uint64_t *out, char *err, size_t errlen)
{
	const char *v = getenv(name);
	char e[VB_ERRLEN];

	*out = MEMFILL_UNSET;
	if (!v || !*v)
		return 0;
	if (vb_parse_size(v, 0, 1ULL << 50, out, e) < 0) {
		snprintf(err, errlen, "%s: %s", name, e);
		return -1;
	}
	return 0;
}

/* Size the fill from /proc/meminfo and the limit, before anything runs. */
static int
validate(void *p, char *err, size_t errlen)
{
	struct cfg *c = p;
	struct memfill_meminfo mi;
	struct vb_sizepct req = { 0 };
	uint64_t limit, swap;
	const char *root = getenv("VMBENCH_PROC");
	char path[4096], a[32], b[32];

	c->page = (size_t)sysconf(_SC_PAGESIZE);
	if (c->percent > 0 && c->bytes) {
		snprintf(err, errlen, "--percent and --bytes: give one");
		return -1;
	}
	if (c->every_byte && !c->write) {
		snprintf(err, errlen, "--every-byte needs --write");
		return -1;
	}
	if (c->chunk % c->page) {
		snprintf(err, errlen, "--chunk %llu: not a multiple of the "
		    "page size (%zu)", (unsigned long long)c->chunk, c->page);
		return -1;
	}
	if (c->map_align % c->page) {
		snprintf(err, errlen, "--map-align %llu: not a multiple of "
		    "the page size (%zu)", (unsigned long long)c->map_align,
		    c->page);
		return -1;
	}
	/* the default, stored so that the result's params say it */
	if (!c->map_align && !(c->map_align = memfill_hpage_size()))
		c->map_align = 2ULL << 20;
	c->mode = !c->write ? MEMFILL_NOWRITE : c->every_byte ?
	    MEMFILL_EVERY : MEMFILL_PAGE;
	if (c->bytes) {
		req.bytes = c->bytes;
	} else {
		/* the default, stored so that the result's params say it */
		if (c->percent <= 0)
			c->percent = 80;
		req.is_pct = 1;
		req.pct = c->percent;
	}
	if (env_size("VMBENCH_MEM_LIMIT", &limit, err, errlen) < 0 ||
	    env_size("VMBENCH_SWAP_LIMIT", &swap, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/meminfo", root && *root ? root :
	    "/proc");
	if (memfill_read_meminfo(path, &mi, err, errlen) < 0)
		return -1;
	if (memfill_plan(&mi, limit, swap, &req, c->force, c->page, &c->plan,
	    err, errlen) < 0)
		return -1;
	if (c->plan.target / c->page < c->procs) {
		snprintf(err, errlen, "--procs %llu: more processes than "
		    "pages to fill", (unsigned long long)c->procs);
		return -1;
	}
	if (c->plan.trimmed)
		vb_warn("asked for %s, more than available memory + free swap "
		    "less a margin; filling %s (--force to insist)",
		    vb_fmt_size(a, sizeof(a), c->plan.want),
		    vb_fmt_size(b, sizeof(b), c->plan.target));
	return 0;
}

/* Say what will be filled (in the log), once. */
static int
setup(void *p, const char *workdir)
{
	struct cfg *c = p;
	char t[32], tot[32], used[32], ch[32], al[32], un[32];
	static const char *const how[] = {
		"without writing", "writing one byte a page",
		"writing every byte",
	};

	(void)workdir;
	printf("memfill: filling %s of %s %s (%s in use) in %s chunks, "
	    "mapped %s at a time at %s-aligned addresses, by %llu "
	    "process%s, %s\n", vb_fmt_size(t, sizeof(t), c->plan.target),
	    vb_fmt_size(tot, sizeof(tot), c->plan.total),
	    c->plan.limited ? "limit + swap" : "RAM + swap",
	    vb_fmt_size(used, sizeof(used), c->plan.used),
	    vb_fmt_size(ch, sizeof(ch), c->chunk),
	    vb_fmt_size(un, sizeof(un), memfill_map_unit(c->chunk,
	    c->map_align)), vb_fmt_size(al, sizeof(al), c->map_align),
	    (unsigned long long)c->procs, c->procs == 1 ? "" : "es",
	    how[c->mode]);
	return 0;
}

/* Map and write @bytes into @r, or die saying how far it got. */
static void
fill(struct cfg *c, struct memfill_region *r, uint64_t bytes)
{
	char a[32], b[32];

	memset(r, 0, sizeof(*r));
	r->chunk = c->chunk;
	r->align = c->map_align;
	if (memfill_alloc(r, bytes, c->mode, c->page) < 0)
		die_errno("cannot map %s after %s", vb_fmt_size(a, sizeof(a),
		    memfill_map_unit(c->chunk, c->map_align)),
		    vb_fmt_size(b, sizeof(b), r->bytes));
}

/*
 * One worker of --procs: fill @share, say "d" on @done, hold it until
 * @hold reaches end-of-file, free it and leave.
 */
static void
worker(struct cfg *c, uint64_t share, int done, int hold)
{
	struct memfill_region r;
	char x;

	fill(c, &r, share);
	if (write(done, "d", 1) != 1)
		_exit(1);
	close(done);
	while (read(hold, &x, 1) < 0 && errno == EINTR)
		;
	memfill_free(&r);
	_exit(0);
}

/* Fill with --procs workers; returns the fill time in ns. */
static uint64_t
fill_procs(struct cfg *c, uint64_t *free_ns)
{
	int done[2], hold[2], status, failed = 0;
	uint64_t share = c->plan.target / c->procs / c->page * c->page;
	uint64_t t0, t1, i, ok = 0;
	char buf[64];
	ssize_t n;

	if (pipe(done) < 0 || pipe(hold) < 0)
		die_errno("cannot create a pipe");
	t0 = vb_now_ns();
	for (i = 0; i < c->procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die_errno("cannot fork worker %llu",
			    (unsigned long long)i + 1);
		if (pid == 0) {
			close(done[0]);
			close(hold[1]);
			worker(c, i + 1 < c->procs ? share :
			    c->plan.target - share * (c->procs - 1), done[1],
			    hold[0]);
		}
	}
	close(done[1]);
	close(hold[0]);
	/* end-of-file once every worker has said done or died */
	while ((n = read(done[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_errno("cannot read from the workers");
		ok += (uint64_t)n;
	}
	t1 = vb_now_ns();
	close(done[0]);
	close(hold[1]);
	while (wait(&status) > 0 || errno == EINTR)
		failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	*free_ns = vb_now_ns() - t1;
	/* a worker that died before "done", or exited non-zero after it */
	if (ok < c->procs || failed)
		die("%llu of %llu workers failed", (unsigned long long)(ok <
		    c->procs ? c->procs - ok : (uint64_t)failed),
		    (unsigned long long)c->procs);
	return t1 - t0;
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	uint64_t fill_ns, free_ns;

	if (c->procs == 1) {
		struct memfill_region r;
		uint64_t t0 = vb_now_ns(), t1;

		fill(c, &r, c->plan.target);
		t1 = vb_now_ns();
		memfill_free(&r);
		fill_ns = t1 - t0;
		free_ns = vb_now_ns() - t1;
	} else {
		fill_ns = fill_procs(c, &free_ns);
	}
	vb_report(it, "bytes", (double)c->plan.target);
	vb_report(it, "fill_s", vb_ns_to_s(fill_ns));
	vb_report(it, "fill_mb_s", (double)c->plan.target / 1e6 /
	    vb_ns_to_s(fill_ns));
	vb_report(it, "free_s", vb_ns_to_s(free_ns));
	return 0;
}

static const struct vb_bench memfill = {
	.name = "memfill",
	.summary = "allocate and write a share of RAM + swap, then free it "
	    "(LTP mtest01 -p80 -w)",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "fill_s",
	.validate = validate,
	.setup = setup,
	.run = run,
};

VB_MAIN(memfill)
