/*
 * makesim.c - a simulated parallel kernel build (`time make -jN bzImage`,
 * Kulesa 2002) and Con Kolivas's contest: the same build timed while a
 * background load runs beside it.
 *
 * Once per run (setup), a synthetic source tree is generated in the
 * work folder from --seed (see tree.c): --units .c files scaled
 * by --scale, ~12 a directory, plus shared headers, then written back to
 * storage (syncfs) so its pages are clean.  Each iteration is one build:
 *
 *  1. make clean: the previous iteration's objects are removed;
 *  2. the cache: every source and header is dropped from the page cache
 *     (POSIX_FADV_DONTNEED on its own files only: the rest of the page
 *     cache is untouched), so each build starts cold, as after a reboot; with
 *     --load cacherun they are read once instead, so the build starts
 *     warm (contest's second run without flushing);
 *  3. the load (if any) starts;
 *  4. "make" is forked: it runs the graph with --jobs slots (see
 *     sched.c; a compile job is a real process that reads its
 *     sources, writes a working set and computes, job.c) and is
 *     reaped with wait4(), whose rusage is exactly the build's;
 *  5. the load is stopped and reaped, its rusage taken apart.
 *
 * Timing: build_time is CLOCK_MONOTONIC from just before make's fork()
 * to just after its wait4(): steps 1-3 and 5 are excluded (the harness's
 * elapsed includes them).  Under a load, the harness's user/sys cover
 * the build and the load together; build_user/build_sys/build_cpu are
 * the build's alone, lcpu the load's.  contest's table is Time =
 * build_time, CPU% = build_cpu, Loads = loads, LCPU% = lcpu, Ratio =
 * build_time / the same kernel's makesim@no_load build_time.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "makesim.h"
#include "rusage.h"
#include "size.h"

/*
 * Operations per KB of source.  Fixed, never calibrated: every machine
 * and kernel runs the same instructions.  Chosen so that the default
 * build (2000 files, 27 MB of source, 5.6e10 operations) takes 1-2
 * minutes at -j2 on a 2-core EPYC VM (about 1.9 ns an operation
 * there; see the figures in docs/benchmarks.md).
 */
#define DEF_OPS_PER_KB "2000000"

struct cfg {
	uint64_t jobs;
	uint64_t units;
	double scale;
	uint64_t seed;
	uint64_t ops_per_kb;
	uint64_t ws_base, ws_per_kb, ws_max;
	const char *load;
	uint64_t load_size;
	double load_pct;
	uint64_t load_max;
	uint64_t load_procs;
	const char *list_root;
	const char *fileload;
	const char *loadfile;
	uint64_t dbench_time;
	/* not options: set by validate() and setup() */
	enum ms_load_kind kind;
	uint32_t nunits;	/* units x scale */
	struct ms_tree tree;
	struct ms_build build;
	struct ms_load ld;
	char root[4096];
	char fileload_path[PATH_MAX];
};

static const struct vb_opt opts[] = {
	{ .name = "jobs", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, jobs), .def = "2", .min = 1,
	  .max = 1024, .letter = 'j', .help = "job slots, as make -jN" },
	{ .name = "units", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, units), .def = "2000", .min = 1,
	  .max = 200000, .help = ".c files in the tree (before --scale)" },
	{ .name = "scale", .type = VB_OPT_DOUBLE, .arg = "F",
	  .off = offsetof(struct cfg, scale), .def = "1", .dmin = 0.0001,
	  .dmax = 100, .help = "multiplies the number of files: the whole "
	  "build shrinks or grows" },
	{ .name = "seed", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, seed), .def = "1", .min = 0,
	  .max = UINT64_MAX, .help = "seed of the tree (same seed, same "
	  "tree)" },
	{ .name = "cpu", .type = VB_OPT_U64, .arg = "OPS",
	  .off = offsetof(struct cfg, ops_per_kb), .def = DEF_OPS_PER_KB,
	  .min = 0, .max = 1ULL << 40,
	  .help = "CPU operations per KB of source in a compile" },
	{ .name = "ws-base", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, ws_base), .def = "12M", .min = 0,
	  .max = 1ULL << 34, .help = "working set of every compile" },
	{ .name = "ws-per-kb", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, ws_per_kb), .def = "1M", .min = 0,
	  .max = 1ULL << 30, .help = "plus this per KB of source" },
	{ .name = "ws-max", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, ws_max), .def = "160M", .min = 0,
	  .max = 1ULL << 34, .help = "working set cap of one compile" },
	{ .name = "load", .type = VB_OPT_STR, .arg = "NAME",
	  .off = offsetof(struct cfg, load), .def = "no_load",
	  .choices = makesim_load_choices,
	  .help = "background load (contest)" },
	{ .name = "load-size", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, load_size), .def = "0", .min = 0,
	  .max = 1ULL << 44, .help = "io/read/mem load size (0: from "
	  "memory, see --load-pct)" },
	{ .name = "load-pct", .type = VB_OPT_DOUBLE, .arg = "PCT",
	  .off = offsetof(struct cfg, load_pct), .def = "0", .dmin = 0,
	  .dmax = 1000, .help = "load size in % of RAM or of the memory "
	  "limit (0: 100, mem_load 110)" },
	{ .name = "load-max", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, load_max), .def = "1G", .min = 0,
	  .max = 1ULL << 44, .help = "cap of a load size from memory (0: "
	  "none)" },
	{ .name = "load-procs", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, load_procs), .def = "0", .min = 0,
	  .max = 1024, .help = "process_load ring size, dbench_load clients "
	  "(0: 4 or 16 x CPUs)" },
	{ .name = "list-root", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct cfg, list_root), .def = "/usr",
	  .help = "tree list_load walks" },
	{ .name = "fileload", .type = VB_OPT_STR, .arg = "PATH",
	  .off = offsetof(struct cfg, fileload),
	  .help = "dbench_load's program (default: fileload beside "
	  "makesim)" },
	{ .name = "loadfile", .type = VB_OPT_STR, .arg = "FILE",
	  .off = offsetof(struct cfg, loadfile),
	  .help = "dbench_load's --loadfile (default: fileload's)" },
	{ .name = "dbench-time", .type = VB_OPT_U64, .arg = "SECONDS",
	  .off = offsetof(struct cfg, dbench_time), .def = "5", .min = 1,
	  .max = 3600, .help = "length of one fileload run of dbench_load" },
	{ 0 },
};

/*
 * The amount of work: the jobs of the build, exactly, and the load's
 * size, sized from the memory (or a limit) and equal within 1%.
 */
static const struct vb_work work[] = {
	{ "jobs", 0 },
	{ "load_mb", 1 },
	{ NULL, 0 },
};

static const struct vb_metric metrics[] = {
	{ "build_time", "s", VB_LOWER,
	    "make's elapsed time (contest: Time)", 1 },
	{ "build_user", "s", VB_LOWER, "user CPU of make and its jobs", 0 },
	{ "build_sys", "s", VB_LOWER, "system CPU of make and its jobs", 0 },
	{ "build_cpu", "%", VB_INFO, "(user + sys) / build_time (contest: "
	  "CPU%)", 1 },
	{ "build_minflt", "faults", VB_LOWER, "minor faults of the build", 0 },
	{ "build_majflt", "faults", VB_LOWER, "major faults of the build", 1 },
	{ "jobs", "jobs", VB_INFO, "jobs run (compiles, archives, link)", 0 },
	{ "max_jobs", "jobs", VB_INFO, "most jobs running at once", 0 },
	{ "loads", "loads", VB_INFO, "load iterations completed during the "
	  "build (contest: Loads)", 1 },
	{ "lcpu", "%", VB_INFO, "the load's CPU / the time it ran beside "
	  "the build (contest: LCPU%)", 0 },
	{ "load_mb", "MB", VB_INFO, "io/read/mem load size", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

/* MemTotal, or the memory limit the runner set (VMBENCH_MEM_LIMIT). */
static uint64_t
mem_base(int *limited)
{
	const char *e = getenv("VMBENCH_MEM_LIMIT");
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	char *end;

	*limited = 0;
	if (e && *e) {
		unsigned long long v = strtoull(e, &end, 10);

		if (*end == '\0' && v > 0) {
			*limited = 1;
			return v;
		}
	}
	return (uint64_t)pages * (uint64_t)psz;
}

/* A /proc/meminfo field in bytes, or 0. */
static uint64_t
meminfo(const char *field)
{
	char line[256];
	size_t n = strlen(field);
	uint64_t v = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, field, n) == 0 && line[n] == ':') {
			v = strtoull(line + n + 1, NULL, 10) * 1024;
			break;
		}
	fclose(f);
	return v;
}

/*
 * Swap a memory-limited run can push into: the runner's SWAP=
 * (VMBENCH_SWAP_LIMIT, bytes; its swap file may not exist yet when the
 * runner asks --check), else SwapFree.
 */
static uint64_t
swap_room(void)
{
	const char *e = getenv("VMBENCH_SWAP_LIMIT");

	if (e && *e)
		return strtoull(e, NULL, 10);
	return meminfo("SwapFree");
}

/*
 * Size the io/read/mem loads, never so that they could OOM the machine:
 * without a limit, a mem_load must fit in half of MemAvailable; under a
 * limit without swap to push it into, mem_load is cut to half of the
 * limit (the build needs the rest), with a warning.
 */
static int
validate(void *p, char *err, size_t errlen)
{
	struct cfg *c = p;
	uint64_t units = (uint64_t)((double)c->units * c->scale + 0.5);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int limited;
	uint64_t base = mem_base(&limited);
	char a[32], b[32];

	c->kind = (enum ms_load_kind)makesim_load_kind(c->load);
	if (units < 1 || units > 1000000) {
		snprintf(err, errlen, "--units %llu --scale %g gives %llu "
		    "files: expected 1 to 1000000",
		    (unsigned long long)c->units, c->scale,
		    (unsigned long long)units);
		return -1;
	}
	c->nunits = (uint32_t)units;
	if (ncpu < 1)
		ncpu = 1;
	if (c->load_procs == 0)
		c->load_procs = (uint64_t)ncpu * (c->kind == MS_DBENCH_LOAD ?
		    16 : 4);
	if (c->load_pct == 0)
		c->load_pct = c->kind == MS_MEM_LOAD ? 110 : 100;
	c->ld.size = 0;
	if (c->kind == MS_IO_LOAD || c->kind == MS_READ_LOAD ||
	    c->kind == MS_MEM_LOAD) {
		c->ld.size = c->load_size ? c->load_size & ~4095ULL :
		    makesim_load_bytes(base, c->load_pct, c->load_max);
		if (c->ld.size < 4096) {
			snprintf(err, errlen, "--load %s: size below one page",
			    c->load);
			return -1;
		}
	}
	if (c->kind == MS_MEM_LOAD) {
		uint64_t avail = meminfo("MemAvailable");

		if (!limited && c->ld.size > avail / 2) {
			snprintf(err, errlen, "--load mem_load: %s is more "
			    "than half of the available memory (%s) and no "
			    "memory limit is set; lower --load-max",
			    vb_fmt_size(a, sizeof(a), c->ld.size),
			    vb_fmt_size(b, sizeof(b), avail));
			return -1;
		}
		if (limited && c->ld.size > base / 2 &&
		    swap_room() < c->ld.size - base / 2) {
			vb_warn("mem_load: not enough swap for %s beside a %s "
			    "limit; touching %s instead",
			    vb_fmt_size(a, sizeof(a), c->ld.size),
			    vb_fmt_size(b, sizeof(b), base),
			    vb_fmt_size(b, sizeof(b), base / 2));
			c->ld.size = base / 2 & ~4095ULL;
		}
	}
	if (c->kind == MS_LIST_LOAD && access(c->list_root, R_OK | X_OK)) {
		snprintf(err, errlen, "--list-root %s: %s", c->list_root,
		    strerror(errno));
		return -1;
	}
	if (c->kind == MS_DBENCH_LOAD) {
		if (c->fileload) {
			snprintf(c->fileload_path, sizeof(c->fileload_path),
			    "%s", c->fileload);
		} else {
			char self[PATH_MAX - 32];
			ssize_t n = readlink("/proc/self/exe", self,
			    sizeof(self) - 1);
			char *slash;

			if (n < 0) {
				snprintf(err, errlen, "cannot find my own "
				    "path: %s", strerror(errno));
				return -1;
			}
			self[n] = '\0';
			slash = strrchr(self, '/');
			if (slash)
				*slash = '\0';
			snprintf(c->fileload_path, sizeof(c->fileload_path),
			    "%s/fileload", self);
		}
		if (access(c->fileload_path, X_OK)) {
			snprintf(err, errlen, "--load dbench_load: %s: %s",
			    c->fileload_path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int
setup(void *p, const char *workdir)
{
	struct cfg *c = p;
	struct statvfs sv;
	char err[512];
	int fd;

	snprintf(c->root, sizeof(c->root), "%s/tree", workdir);
	if (makesim_tree_plan(&c->tree, c->nunits, c->seed) < 0) {
		vb_warn("cannot plan a tree of %llu units: out of memory",
		    (unsigned long long)c->nunits);
		return -1;
	}
	if (statvfs(workdir, &sv) == 0) {
		uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		/* sources, objects (3/4), archives (3/4), vmlinux */
		uint64_t need = c->tree.src_bytes * 3 + c->tree.hdr_bytes +
		    (c->kind == MS_IO_LOAD || c->kind == MS_READ_LOAD ?
		    c->ld.size : 0);

		if (need > avail / 2) {
			vb_warn("%s: the tree and load need %llu MB, more than "
			    "half of the %llu MB free", workdir,
			    (unsigned long long)(need >> 20),
			    (unsigned long long)(avail >> 20));
			return -1;
		}
	}
	if (makesim_tree_write(&c->tree, c->root, err, sizeof(err)) < 0) {
		vb_warn("%s", err);
		return -1;
	}
	/* clean pages, so that DONTNEED can drop them before each build */
	fd = open(c->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd) < 0) {
		vb_warn_errno("cannot sync %s", c->root);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	c->build.ws_base = c->ws_base;
	c->build.ws_per_kb = c->ws_per_kb;
	c->build.ws_max = c->ws_max;
	c->build.ops_per_kb = c->ops_per_kb;
	if (makesim_build_init(&c->build, &c->tree, c->root) < 0) {
		vb_warn("cannot build the job graph: out of memory");
		return -1;
	}
	c->ld.kind = c->kind;
	snprintf(c->ld.dir, sizeof(c->ld.dir), "%s/load", workdir);
	c->ld.nproc = (uint32_t)c->load_procs;
	c->ld.list_root = c->list_root;
	c->ld.fileload = c->fileload_path;
	c->ld.loadfile = c->loadfile;
	c->ld.dbench_secs = (uint32_t)c->dbench_time;
	if (makesim_load_prepare(&c->ld, err, sizeof(err)) < 0) {
		vb_warn("%s", err);
		return -1;
	}
	printf("makesim: %u files (%llu KB) in %u directories, %u headers "
	    "(%llu KB); %u jobs, -j%llu, load %s\n", c->tree.nunits,
	    (unsigned long long)(c->tree.src_bytes >> 10), c->tree.ndirs,
	    c->tree.nhdrs, (unsigned long long)(c->tree.hdr_bytes >> 10),
	    c->build.njobs, (unsigned long long)c->jobs, c->load);
	return 0;
}

static void
teardown(void *p, const char *workdir)
{
	struct cfg *c = p;

	(void)workdir;
	makesim_load_cleanup(&c->ld);
	makesim_build_free(&c->build);
	makesim_tree_free(&c->tree);
}

/* Drop (cold) or read (warm) every source and header of the tree. */
static void
set_cache(const struct cfg *c, int warm)
{
	char rel[64], path[4200];
	char *buf = warm ? malloc(1 << 16) : NULL;
	uint32_t i, n = c->tree.nunits + c->tree.nhdrs;

	for (i = 0; i < n; i++) {
		int fd;

		if (i < c->tree.nunits)
			makesim_unit_path(&c->tree, i, ".c", rel, sizeof(rel));
		else
			makesim_hdr_path(&c->tree, i - c->tree.nunits, rel,
			    sizeof(rel));
		snprintf(path, sizeof(path), "%s/%s", c->root, rel);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die_errno("cannot open %s", path);
		if (buf)
			while (read(fd, buf, 1 << 16) > 0)
				;
		else
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
	free(buf);
}

/* The "make" process: run the graph, report the scheduler's figures. */
static void
make_main(struct cfg *c, struct vb_iter *it)
{
	struct ms_sched s = {
		.njobs = c->build.njobs, .jobs = c->build.jobs,
		.slots = (uint32_t)c->jobs, .fn = makesim_build_job,
		.arg = &c->build,
	};

	if (makesim_sched_run(&s) < 0) {
		vb_warn("build failed: %s", s.err);
		if (s.started > s.finished)
			vb_warn("%u of %u jobs had started, %u finished",
			    s.started, s.njobs, s.finished);
		_exit(2);
	}
	vb_report(it, "jobs", s.finished);
	vb_report(it, "max_jobs", s.max_running);
	fflush(NULL);
	_exit(0);
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	struct vb_rusage u;
	struct rusage ru;
	char err[512], line[256];
	uint64_t t0, t1;
	int status, lrc;
	pid_t make;

	makesim_build_clean(&c->build);
	set_cache(c, c->kind == MS_CACHERUN);
	if (makesim_load_start(&c->ld, err, sizeof(err)) < 0)
		die("%s", err);
	fflush(NULL);
	t0 = vb_now_ns();
	make = fork();
	if (make < 0) {
		makesim_load_stop(&c->ld, err, sizeof(err));
		die_errno("cannot fork make");
	}
	if (make == 0)
		make_main(c, it);
	while (wait4(make, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			makesim_load_stop(&c->ld, err, sizeof(err));
			die_errno("cannot wait for make");
		}
	t1 = vb_now_ns();
	lrc = makesim_load_stop(&c->ld, err, sizeof(err));
	makesim_build_clean(&c->build);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		vb_warn("iteration %d: the build failed", vb_iter_num(it));
		return 1;
	}
	if (lrc < 0) {
		vb_warn("iteration %d: %s", vb_iter_num(it), err);
		return 1;
	}
	vb_rusage_from(&u, &ru, vb_ns_to_s(t1 - t0));
	vb_report(it, "build_time", u.elapsed);
	vb_report(it, "build_user", u.user);
	vb_report(it, "build_sys", u.sys);
	vb_report(it, "build_cpu", vb_rusage_cpu_pct(&u));
	vb_report(it, "build_minflt", (double)u.minflt);
	vb_report(it, "build_majflt", (double)u.majflt);
	vb_report(it, "loads", c->ld.loads);
	vb_report(it, "lcpu", c->ld.lcpu);
	vb_report(it, "load_mb", (double)c->ld.size / (1 << 20));
	printf("make -j%llu: %s", (unsigned long long)c->jobs,
	    vb_rusage_tcsh(line, sizeof(line), &u));
	if (c->kind != MS_NO_LOAD && c->kind != MS_CACHERUN)
		printf("  %s: %.0f loads, %.1f%% CPU", c->load, c->ld.loads,
		    c->ld.lcpu);
	putchar('\n');
	return 0;
}

static const struct vb_bench makesim = {
	.name = "makesim",
	.summary = "a simulated parallel kernel build (make -jN) on a "
	    "generated source tree, alone or beside one of contest's loads",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "build_time",
	.work = work,
	.validate = validate,
	.setup = setup,
	.run = run,
	.teardown = teardown,
};

VB_MAIN(makesim)
