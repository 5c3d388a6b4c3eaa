/*
 * memfill.c - fill and write a share of memory (LTP mtest01 -p80 -w, as in
 * Hron's 2001 "Fill and write to 80% of virtual memory 10 times").
 *
 * The target is --bytes, or --percent of RAM + swap less what is in use
 * (of the memory limit + swap when run under one: the runner passes
 * VMBENCH_MEM_LIMIT and VMBENCH_SWAP_LIMIT in bytes); the arithmetic is
 * in plan.c.  It is computed once, before the first iteration,
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
 * fill_wait_s is the part of it the filling process spent runnable but
 * waiting for a CPU (the run_delay of /proc/thread-self/schedstat; with
 * --procs, the worker that finished last), and fill_run_s, the headline,
 * is fill_s less it: what other programs' CPU time did to the fill is
 * kept apart from what the fill cost (faults, zeroing, reclaim and
 * swap I/O stay in both).
 *
 * --reread N: between the fill and the free, N passes each read the
 * first word of every page back (every worker its own share, all at
 * once), in address order or, with --reread-pattern random, in a random
 * permutation of the pages (another for each pass, the same in every
 * run).  What the fill pushed out to swap comes back in: each pass is
 * timed on its own (from its start to the last worker's end), with its
 * major faults (the workers' getrusage()) and the system's pswpin and
 * pswpout; the figures are the passes' sums, the first pass and the
 * slowest and quickest, and the kB swapped in a major fault (more than
 * a page when swap readahead, vm.page-cluster, read the neighbours).
 * Each page holds a tag of its address, written as its one store of
 * --write; a pass checks the sum of what it read against the sum of the
 * tags, and a page read back wrong fails the run.
 *
 * Under strict overcommit (vm.overcommit_memory=2) the kernel refuses a
 * mapping once Committed_AS would pass CommitLimit: the target is also
 * capped by CommitLimit - Committed_AS (see plan.h), the log says so,
 * and a mapping refused then says "overcommit_memory=2: CommitLimit ...
 * reached".
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "fill.h"
#include "plan.h"
#include "vmstat.h"

#define MAXPASS 100

struct cfg {
	double percent;
	uint64_t bytes;
	uint64_t chunk;
	uint64_t map_align;
	uint64_t procs;
	int write;
	int every_byte;
	int force;
	uint64_t reread;
	const char *reread_pattern;
	/* computed by validate() */
	struct memfill_plan plan;
	struct memfill_meminfo mi;
	enum memfill_write mode;
	enum memfill_order order;
	size_t page;
	const char *proc;	/* /proc, or $VMBENCH_PROC */
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
	{ .name = "reread", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, reread), .def = "0",
	  .min = 0, .max = MAXPASS, .help = "with --write: then read every "
	  "page back N times (swap-in), each pass timed" },
	{ .name = "reread-pattern", .type = VB_OPT_STR, .arg = "ORDER",
	  .off = offsetof(struct cfg, reread_pattern), .def = "seq",
	  .choices = "seq|random", .help = "re-read the pages in address "
	  "order or in a random one" },
	{ 0 },
};

/*
 * The amount of work: the bytes filled, sized from MemAvailable (or a
 * limit) at the start, so they move a little from run to run; within 1%
 * (the report's default --min-change) they are the same work.
 */
static const struct vb_work work[] = {
	{ "bytes", 1 },
	{ NULL, 0 },
};

static const struct vb_metric metrics[] = {
	{ "bytes", "B", VB_INFO, "bytes allocated", 0 },
	{ "fill_s", "s", VB_LOWER, "time to allocate and write the target", 1 },
	{ "fill_mb_s", "MB/s", VB_HIGHER, "fill rate (10^6 bytes/s)", 1 },
	{ "free_s", "s", VB_LOWER, "time to free it", 1 },
	{ "fill_wait_s", "s", VB_INFO, "of fill_s, waiting for a CPU "
	    "(run queue; --procs: the last worker's)", 1 },
	{ "fill_run_s", "s", VB_LOWER, "fill_s less fill_wait_s", 1 },
	{ "reread_s", "s", VB_LOWER, "--reread: time of the passes", 1 },
	{ "reread_mb_s", "MB/s", VB_HIGHER, "--reread: bytes read back a "
	    "second (10^6)", 0 },
	{ "reread_pass1_s", "s", VB_LOWER, "--reread: the first pass", 0 },
	{ "reread_pass_min_s", "s", VB_LOWER, "--reread: the quickest pass",
	    0 },
	{ "reread_pass_max_s", "s", VB_LOWER, "--reread: the slowest pass",
	    0 },
	{ "reread_majflt", "faults", VB_LOWER, "--reread: major faults of "
	    "the passes", 1 },
	{ "reread_pswpin", "kB", VB_LOWER, "--reread: swapped in during the "
	    "passes (system-wide)", 1 },
	{ "reread_pswpout", "kB", VB_LOWER, "--reread: swapped out during "
	    "the passes (system-wide)", 0 },
	{ "swapin_mb_s", "MB/s", VB_INFO, "--reread: swap-in rate of the "
	    "passes (10^6 bytes/s)", 0 },
	{ "swapin_kb_fault", "kB", VB_INFO, "--reread: swapped in a major "
	    "fault (readahead: more than a page)", 0 },
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
	struct memfill_meminfo *mi = &c->mi;
	struct vb_sizepct req = { 0 };
	uint64_t limit, swap;
	const char *root = getenv("VMBENCH_PROC");
	char path[4096], a[32], b[32], d[32];

	c->proc = root && *root ? root : "/proc";
	c->page = (size_t)sysconf(_SC_PAGESIZE);
	if (c->percent > 0 && c->bytes) {
		snprintf(err, errlen, "--percent and --bytes: give one");
		return -1;
	}
	if (c->every_byte && !c->write) {
		snprintf(err, errlen, "--every-byte needs --write");
		return -1;
	}
	/* unwritten pages read back as the zero page: nothing to swap in */
	if (c->reread && !c->write) {
		snprintf(err, errlen, "--reread %llu needs --write (pages "
		    "never written are never swapped out)",
		    (unsigned long long)c->reread);
		return -1;
	}
	c->order = strcmp(c->reread_pattern, "random") == 0 ?
	    MEMFILL_RANDOM : MEMFILL_SEQ;
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
	snprintf(path, sizeof(path), "%s/meminfo", c->proc);
	if (memfill_read_meminfo(path, mi, err, errlen) < 0)
		return -1;
	mi->overcommit = memfill_read_overcommit(c->proc);
	if (memfill_plan(mi, limit, swap, &req, c->force, c->page, &c->plan,
	    err, errlen) < 0)
		return -1;
	if (c->plan.target / c->page < c->procs) {
		snprintf(err, errlen, "--procs %llu: more processes than "
		    "pages to fill", (unsigned long long)c->procs);
		return -1;
	}
	if (c->plan.trimmed && c->plan.commit_bound)
		vb_warn("asked for %s, more than overcommit_memory=2 leaves "
		    "(CommitLimit %s - Committed_AS %s, less a margin); "
		    "filling %s (--force to insist)",
		    vb_fmt_size(a, sizeof(a), c->plan.want),
		    vb_fmt_size(b, sizeof(b), mi->commit_limit),
		    vb_fmt_size(d, sizeof(d), mi->committed_as),
		    vb_fmt_size(path, sizeof(path), c->plan.target));
	else if (c->plan.trimmed)
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
	if (c->plan.strict)
		printf("memfill: overcommit_memory=2: %sCommitLimit %s - "
		    "Committed_AS %s = %s%s\n", c->plan.commit_bound ?
		    "sized from " : "", vb_fmt_size(t, sizeof(t),
		    c->mi.commit_limit), vb_fmt_size(tot, sizeof(tot),
		    c->mi.committed_as), vb_fmt_size(used, sizeof(used),
		    c->plan.commit_room), c->plan.commit_bound ?
		    ", less a margin" : ", more than memory + swap leave");
	if (c->reread)
		printf("memfill: then reading every page back %llu time%s, "
		    "%s\n", (unsigned long long)c->reread, c->reread == 1 ?
		    "" : "s", c->order == MEMFILL_RANDOM ? "in a random order" :
		    "in address order");
	if (c->reread && c->plan.swap == 0)
		vb_note("--reread without swap: nothing is swapped in, the "
		    "passes read memory (run it under MEM= with SWAP=)");
	return 0;
}

/*
 * Map and write @bytes into @r, or die saying how far it got, and, when
 * overcommit is strict (read again now), that CommitLimit was the cause.
 */
static void
fill(struct cfg *c, struct memfill_region *r, uint64_t bytes)
{
	struct memfill_meminfo mi;
	char a[32], b[32], l[32], d[32], path[4096], e[256];
	int saved;

	memset(r, 0, sizeof(*r));
	r->chunk = c->chunk;
	r->align = c->map_align;
	r->stamp = c->reread > 0;
	if (memfill_alloc(r, bytes, c->mode, c->page) == 0)
		return;
	saved = errno;
	vb_fmt_size(a, sizeof(a), memfill_map_unit(c->chunk, c->map_align));
	vb_fmt_size(b, sizeof(b), r->bytes);
	snprintf(path, sizeof(path), "%s/meminfo", c->proc);
	if (saved == ENOMEM && memfill_read_overcommit(c->proc) == 2 &&
	    memfill_read_meminfo(path, &mi, e, sizeof(e)) == 0 &&
	    mi.has_commit)
		die("cannot map %s after %s: overcommit_memory=2: CommitLimit "
		    "%s reached (Committed_AS %s)", a, b,
		    vb_fmt_size(l, sizeof(l), mi.commit_limit),
		    vb_fmt_size(d, sizeof(d), mi.committed_as));
	errno = saved;
	die_errno("cannot map %s after %s", a, b);
}

/* The re-read phase's figures, summed over the workers and passes. */
struct reread {
	uint64_t ns[MAXPASS];		/* each pass */
	uint64_t majflt;
	uint64_t pswpin, pswpout;	/* pages, system-wide */
	int have_swp;			/* /proc/vmstat had both counters */
	struct vb_proc proc;
	struct vb_snap before, prev;
	int proc_ok;
};

/* Major faults of this process so far. */
static uint64_t
majflt_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_majflt;
}

/*
 * One pass over @r in this process; its major faults.  A page that
 * does not hold its tag ends the program, naming the pass.
 */
static uint64_t
reread_pass(struct cfg *c, const struct memfill_region *r, int pass)
{
	struct memfill_pass ps;
	uint64_t m0 = majflt_now();

	memfill_reread(r, c->order, (uint64_t)pass, c->page, &ps);
	if (ps.bad || ps.sum != ps.want)
		die("re-read pass %d: %llu of %llu pages do not hold what was "
		    "written (checksum %016llx, expected %016llx)", pass,
		    (unsigned long long)ps.bad, (unsigned long long)ps.pages,
		    (unsigned long long)ps.sum, (unsigned long long)ps.want);
	return majflt_now() - m0;
}

/* Read /proc/vmstat's counters before the first pass. */
static void
reread_begin(struct cfg *c, struct reread *rr)
{
	memset(rr, 0, sizeof(*rr));
	rr->proc_ok = vb_proc_open(&rr->proc, c->proc) == 0 &&
	    vb_proc_read_vmstat(&rr->proc, &rr->before) == 0;
	rr->prev = rr->before;
}

/* After pass @pass (1-based) took @ns: its swap traffic, said in the log. */
static void
reread_after(struct cfg *c, struct reread *rr, int pass, uint64_t ns,
    uint64_t majflt)
{
	uint64_t d[VB_NCTR];
	uint32_t present = 0;
	struct vb_snap now;
	char in[32] = "?", out[32] = "?";

	rr->ns[pass - 1] = ns;
	rr->majflt += majflt;
	if (rr->proc_ok && vb_proc_read_vmstat(&rr->proc, &now) == 0) {
		vb_snap_delta(&now, &rr->prev, d, &present);
		rr->prev = now;
		if ((present & (1u << VB_PSWPIN)) &&
		    (present & (1u << VB_PSWPOUT))) {
			vb_fmt_size(in, sizeof(in), d[VB_PSWPIN] * c->page);
			vb_fmt_size(out, sizeof(out), d[VB_PSWPOUT] * c->page);
		}
	}
	printf("memfill: re-read pass %d of %llu: %.3f s, %llu major faults, "
	    "%s swapped in, %s out\n", pass, (unsigned long long)c->reread,
	    vb_ns_to_s(ns), (unsigned long long)majflt, in, out);
	fflush(stdout);
}

/* After the last pass: the phase's swap traffic. */
static void
reread_end(struct reread *rr)
{
	uint64_t d[VB_NCTR];
	uint32_t present = 0;

	if (!rr->proc_ok)
		return;
	vb_snap_delta(&rr->prev, &rr->before, d, &present);
	rr->have_swp = (present & (1u << VB_PSWPIN)) &&
	    (present & (1u << VB_PSWPOUT));
	rr->pswpin = d[VB_PSWPIN];
	rr->pswpout = d[VB_PSWPOUT];
	vb_proc_close(&rr->proc);
}

/* The re-read figures of this iteration. */
static void
reread_report(struct cfg *c, struct reread *rr, struct vb_iter *it)
{
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0, i;
	double secs;

	for (i = 0; i < c->reread; i++) {
		sum += rr->ns[i];
		lo = rr->ns[i] < lo ? rr->ns[i] : lo;
		hi = rr->ns[i] > hi ? rr->ns[i] : hi;
	}
	secs = vb_ns_to_s(sum);
	vb_report(it, "reread_s", secs);
	vb_report(it, "reread_mb_s", (double)c->plan.target *
	    (double)c->reread / 1e6 / secs);
	vb_report(it, "reread_pass1_s", vb_ns_to_s(rr->ns[0]));
	vb_report(it, "reread_pass_min_s", vb_ns_to_s(lo));
	vb_report(it, "reread_pass_max_s", vb_ns_to_s(hi));
	vb_report(it, "reread_majflt", (double)rr->majflt);
	if (!rr->have_swp)
		return;
	vb_report(it, "reread_pswpin", vb_pages_kb(rr->pswpin));
	vb_report(it, "reread_pswpout", vb_pages_kb(rr->pswpout));
	vb_report(it, "swapin_mb_s", (double)rr->pswpin * (double)c->page /
	    1e6 / secs);
	if (rr->majflt)
		vb_report(it, "swapin_kb_fault", vb_pages_kb(rr->pswpin) /
		    (double)rr->majflt);
}

/* Wait for end-of-file on @fd (the other side closed). */
static void
wait_eof(int fd)
{
	ssize_t n;
	char x;

	while ((n = read(fd, &x, 1)) != 0)
		if (n < 0 && errno != EINTR)
			break;
}

/*
 * One worker of --procs: fill @share, write on @done the time it waited
 * for a CPU meanwhile (an int64_t, ns, -1 unknown); for each pass,
 * wait for the end of go[pass], read its share back and write its major
 * faults on back[pass]; hold it all until @hold reaches end-of-file,
 * free it and leave.
 */
static void
worker(struct cfg *c, uint64_t share, int done, int hold, int (*go)[2],
    int (*back)[2])
{
	struct memfill_region r;
	uint64_t p;
	int64_t w0 = vb_run_delay_ns(), w;

	fill(c, &r, share);
	w = vb_run_delay_ns();
	w = w0 >= 0 && w >= w0 ? w - w0 : -1;
	/* 8 bytes, less than PIPE_BUF: one write, never split */
	if (write(done, &w, sizeof(w)) != (ssize_t)sizeof(w))
		_exit(1);
	close(done);
	for (p = 0; p < c->reread; p++) {
		char line[32];
		int n;

		wait_eof(go[p][0]);
		close(go[p][0]);
		n = snprintf(line, sizeof(line), "%llu\n", (unsigned long long)
		    reread_pass(c, &r, (int)p + 1));
		if (write(back[p][1], line, (size_t)n) != n)
			_exit(1);
		close(back[p][1]);
	}
	wait_eof(hold);
	memfill_free(&r);
	_exit(0);
}

/*
 * Pass @pass with --procs workers: end go's write side, which starts
 * every worker at once, and read their major faults until the last has
 * closed its end of @back.  The number of workers that answered.
 */
static uint64_t
procs_pass(int go, int back, uint64_t *majflt)
{
	char buf[4096], *e;
	uint64_t n = 0;
	size_t len = 0;
	ssize_t k;

	close(go);
	for (;;) {
		k = read(back, buf + len, sizeof(buf) - 1 - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		len += (size_t)k;
		buf[len] = '\0';
		/* whole lines only; the rest waits for more */
		while ((e = strchr(buf, '\n'))) {
			*majflt += strtoull(buf, NULL, 10);
			n++;
			len -= (size_t)(e + 1 - buf);
			memmove(buf, e + 1, len + 1);
		}
	}
	close(back);
	return n;
}

/*
 * Fill with --procs workers, then the re-read passes (into @rr); returns
 * the fill time in ns, and in @wait_ns the run-queue wait of the worker
 * that finished its fill last (-1 unknown).
 */
static uint64_t
fill_procs(struct cfg *c, uint64_t *free_ns, struct reread *rr,
    int64_t *wait_ns)
{
	static int go[MAXPASS][2], back[MAXPASS][2];
	static pid_t pids[1024];
	int done[2], hold[2], status, failed = 0;
	uint64_t share = c->plan.target / c->procs / c->page * c->page;
	uint64_t t0, t1, tf, i, ok = 0, pass, next = 0, answered = c->procs;
	int64_t buf[64];
	size_t have = 0;
	ssize_t n;

	if (pipe(done) < 0 || pipe(hold) < 0)
		die_errno("cannot create a pipe");
	for (i = 0; i < c->reread; i++)
		if (pipe(go[i]) < 0 || pipe(back[i]) < 0)
			die_errno("cannot create the pipes of re-read pass "
			    "%llu", (unsigned long long)i + 1);
	t0 = vb_now_ns();
	for (i = 0; i < c->procs; i++) {
		pid_t pid = fork();
		uint64_t p;

		if (pid < 0)
			die_errno("cannot fork worker %llu",
			    (unsigned long long)i + 1);
		pids[i] = pid;
		if (pid == 0) {
			close(done[0]);
			close(hold[1]);
			for (p = 0; p < c->reread; p++) {
				close(go[p][1]);
				close(back[p][0]);
			}
			worker(c, i + 1 < c->procs ? share :
			    c->plan.target - share * (c->procs - 1), done[1],
			    hold[0], go, back);
		}
	}
	close(done[1]);
	close(hold[0]);
	for (i = 0; i < c->reread; i++) {
		close(go[i][0]);
		close(back[i][1]);
	}
	/* end-of-file once every worker has said done or died */
	*wait_ns = -1;
	while ((n = read(done[0], (char *)buf + have,
	    sizeof(buf) - have)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_errno("cannot read from the workers");
		have += (size_t)n;
		/* whole records only; the last one is the last worker's */
		ok += have / sizeof(buf[0]);
		if (have >= sizeof(buf[0]))
			*wait_ns = buf[have / sizeof(buf[0]) - 1];
		memmove(buf, (char *)buf + have / sizeof(buf[0]) *
		    sizeof(buf[0]), have % sizeof(buf[0]));
		have %= sizeof(buf[0]);
	}
	t1 = vb_now_ns();
	close(done[0]);
	if (ok == c->procs && c->reread) {
		reread_begin(c, rr);
		for (pass = 0; pass < c->reread; pass++) {
			uint64_t m = 0, tp = vb_now_ns();

			answered = procs_pass(go[pass][1], back[pass][0], &m);
			next = pass + 1;
			reread_after(c, rr, (int)pass + 1, vb_now_ns() - tp, m);
			if (answered < c->procs)
				break;
		}
		reread_end(rr);
	}
	/* a fill or a pass cut short: the others would start the next pass */
	if (ok < c->procs || answered < c->procs)
		for (i = 0; i < c->procs; i++)
			kill(pids[i], SIGKILL);
	for (i = next; i < c->reread; i++) {
		close(go[i][1]);
		close(back[i][0]);
	}
	tf = vb_now_ns();
	close(hold[1]);
	while (wait(&status) > 0 || errno == EINTR)
		failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	*free_ns = vb_now_ns() - tf;
	/* a worker that died before "done", or exited non-zero after it */
	if (ok < c->procs)
		die("%llu of %llu workers failed", (unsigned long long)
		    (c->procs - ok), (unsigned long long)c->procs);
	if (answered < c->procs)
		die("%llu of %llu workers failed in re-read pass %llu",
		    (unsigned long long)(c->procs - answered),
		    (unsigned long long)c->procs, (unsigned long long)next);
	if (failed)
		die("%llu of %llu workers failed", (unsigned long long)failed,
		    (unsigned long long)c->procs);
	return t1 - t0;
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	struct reread rr;
	uint64_t fill_ns, free_ns;
	int64_t fill_wait = -1;

	memset(&rr, 0, sizeof(rr));
	if (c->procs == 1) {
		struct memfill_region r;
		uint64_t t0, t1, i;
		int64_t w0 = vb_run_delay_ns(), w1;

		t0 = vb_now_ns();
		fill(c, &r, c->plan.target);
		fill_ns = vb_now_ns() - t0;
		w1 = vb_run_delay_ns();
		if (w0 >= 0 && w1 >= w0)
			fill_wait = w1 - w0;
		if (c->reread) {
			reread_begin(c, &rr);
			for (i = 0; i < c->reread; i++) {
				uint64_t tp = vb_now_ns(), m;

				m = reread_pass(c, &r, (int)i + 1);
				reread_after(c, &rr, (int)i + 1,
				    vb_now_ns() - tp, m);
			}
			reread_end(&rr);
		}
		t1 = vb_now_ns();
		memfill_free(&r);
		free_ns = vb_now_ns() - t1;
	} else {
		fill_ns = fill_procs(c, &free_ns, &rr, &fill_wait);
	}
	vb_report(it, "bytes", (double)c->plan.target);
	vb_report(it, "fill_s", vb_ns_to_s(fill_ns));
	vb_report(it, "fill_mb_s", (double)c->plan.target / 1e6 /
	    vb_ns_to_s(fill_ns));
	vb_report(it, "free_s", vb_ns_to_s(free_ns));
	if (fill_wait >= 0) {
		uint64_t w = (uint64_t)fill_wait;

		vb_report(it, "fill_wait_s", vb_ns_to_s(w));
		vb_report(it, "fill_run_s", vb_ns_to_s(fill_ns > w ?
		    fill_ns - w : 0));
	}
	if (c->reread)
		reread_report(c, &rr, it);
	return 0;
}

static const struct vb_bench memfill = {
	.name = "memfill",
	.summary = "allocate and write a share of RAM + swap, then free it "
	    "(LTP mtest01 -p80 -w)",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "fill_run_s",
	.work = work,
	.validate = validate,
	.setup = setup,
	.run = run,
};

VB_MAIN(memfill)
