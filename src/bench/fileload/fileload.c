/*
 * fileload.c - a dbench-4 style file-server load: --clients processes
 * replay a loadfile (load.h) with real system calls, each in
 * its own directory, looping over the file until the time is up.
 *
 * Timing, as dbench 4 does it: the clients are forked, set up their
 * directories, and wait on a pipe; closing it releases them together
 * (t0).  The first --warmup seconds (default a fifth of --time) are a
 * warm-up, excluded from every figure; then --time seconds are
 * measured, so a run lasts warm-up + time, like `dbench -t TIME`.
 * An operation belongs to the phase in which it started.
 *
 * Figures, over the measured seconds only: MB/s = bytes of ReadX and
 * WriteX (the sizes asked for, as dbench counts them) / seconds / 10^6;
 * operations per second; per operation its count and mean and max
 * latency (CLOCK_MONOTONIC around the system calls of one operation);
 * the number of operations whose outcome differed from the loadfile's
 * status.  A progress line is printed every second.  Removing the
 * clients' directories at the end is not timed.
 *
 * --own-group: the work folder is marked FS_TOPDIR_FL (chattr +T), so
 * that ext4 places each client's directory as it places a new
 * top-level one, in a block group it picks from the name's hash, and
 * the client's files with it; the names carry the client's pid, so
 * that every iteration draws its groups anew.  Without it the files
 * share the work folder's group with every program before, and on an
 * ext4 without a journal a create there passes over the inodes they
 * deleted in the last minutes (src/lib/fsinfo.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "fsinfo.h"
#include "msg.h"
#include "load.h"
#include "replay.h"

struct cfg {
	uint64_t clients;
	double time;
	double warmup;
	const char *loadfile;
	int own_group;
};

static const struct vb_opt opts[] = {
	{ .name = "clients", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, clients), .def = "1",
	  .min = 1, .max = 512, .help = "client processes" },
	{ .name = "time", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct cfg, time), .def = "60",
	  .dmin = 0.1, .dmax = 86400,
	  .help = "measured seconds, after the warm-up" },
	{ .name = "warmup", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct cfg, warmup), .def = "-1",
	  .dmin = -1, .dmax = 86400,
	  .help = "warm-up seconds, not measured (-1: a fifth of --time)" },
	{ .name = "loadfile", .type = VB_OPT_STR, .arg = "FILE",
	  .off = offsetof(struct cfg, loadfile),
	  .help = "dbench-4 loadfile (default: configs/fileload.load)" },
	{ .name = "own-group", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, own_group),
	  .help = "each client's folder (and files) in a block group ext4 "
	    "picks anew, as for a top-level folder (FS_TOPDIR_FL)" },
	{ 0 },
};

#define OPM(s, n)							\
	{ s "_count", "ops", VB_INFO, n " operations measured", 0 },	\
	{ s "_mean_ms", "ms", VB_LOWER, "mean latency of " n, 0 },	\
	{ s "_max_ms", "ms", VB_LOWER, "max latency of " n, 0 }

static const struct vb_metric metrics[] = {
	{ "mb_per_s", "MB/s", VB_HIGHER,
	  "ReadX+WriteX bytes / measured s / 10^6 (dbench's figure)", 1 },
	{ "ops_per_s", "ops/s", VB_HIGHER,
	    "operations per measured second", 1 },
	{ "max_latency_ms", "ms", VB_LOWER, "slowest operation", 1 },
	{ "mismatches", "ops", VB_LOWER,
	  "operations whose outcome differed from the loadfile's status", 1 },
	OPM("ntcreatex", "NTCreateX"), OPM("close", "Close"),
	OPM("rename", "Rename"), OPM("unlink", "Unlink"),
	OPM("deltree", "Deltree"), OPM("mkdir", "Mkdir"),
	OPM("rmdir", "Rmdir"), OPM("qpathinfo", "QUERY_PATH_INFORMATION"),
	OPM("qfileinfo", "QUERY_FILE_INFORMATION"),
	OPM("qfsinfo", "QUERY_FS_INFORMATION"),
	OPM("sfileinfo", "SET_FILE_INFORMATION"),
	OPM("findfirst", "FIND_FIRST"), OPM("writex", "WriteX"),
	OPM("readx", "ReadX"), OPM("lockx", "LockX"),
	OPM("unlockx", "UnlockX"), OPM("flush", "Flush"),
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

/* The loadfile, parsed once in validate() and shared by the clients. */
static struct fl_load load;
static char loadpath[PATH_MAX];

enum { PH_WARMUP, PH_MEASURE, PH_STOP };

/* One client's slot in the shared mapping. */
struct slot {
	uint64_t bytes_all;	/* progress: every phase */
	uint64_t bytes_meas;	/* progress: measured phase */
	uint64_t ops_all;
	uint64_t recent_max_ns;	/* progress: reset by the parent */
	struct fl_stats m;	/* read by the parent after exit */
};

struct shared {
	int phase;
	struct slot slot[];
};

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/* The default loadfile: ../configs/fileload.load next to the program. */
#define DEFAULT_LOADFILE "configs/fileload.load"
static int
default_loadfile(char *buf, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -1;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return -1;
	*slash = '\0';
	n = snprintf(buf, len, "%s/../" DEFAULT_LOADFILE, exe);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Resolve defaults and parse the loadfile before anything is created. */
static int
validate(void *p, char *err, size_t errlen)
{
	struct cfg *c = p;
	char path[PATH_MAX], dflt[PATH_MAX];

	if (vb_check_nproc(c->clients, "clients", "cannot run that many "
	    "clients", err, errlen) < 0)
		return -1;
	if (c->warmup < 0)
		c->warmup = c->time / 5;
	if (c->loadfile) {
		snprintf(path, sizeof(path), "%s", c->loadfile);
	} else if (default_loadfile(path, sizeof(path)) < 0) {
		snprintf(err, errlen, "cannot find the default loadfile; give "
		    "--loadfile");
		return -1;
	}
	if (!realpath(path, loadpath)) {
		snprintf(err, errlen, "loadfile %s: %s", path, strerror(errno));
		return -1;
	}
	/*
	 * The parameter the .res records: the suite's own loadfile by its
	 * name in the suite, so that runs from two copies of the suite (two
	 * hosts of a fleet, two clones) compare; any other by its path.
	 */
	c->loadfile = loadpath;
	if (default_loadfile(path, sizeof(path)) == 0 &&
	    realpath(path, dflt) && !strcmp(dflt, loadpath))
		c->loadfile = DEFAULT_LOADFILE;
	return fl_load_read(loadpath, &load, err, errlen);
}

/*
 * Once, in the parent: --own-group marks the work folder, and the note
 * says what the clients' files share (a create on an ext4 without a
 * journal costs what was deleted near it in the last minutes).
 */
static int
setup(void *p, const char *workdir)
{
	struct cfg *c = p;
	char note[256];

	if (c->own_group) {
		vb_fs_own_group(workdir, "each client's folder and files",
		    note, sizeof(note));
		vb_note("%s", note);
		return 0;
	}
	if (vb_fs_create_note(workdir, note, sizeof(note))) {
		vb_note("%s", note);
		fprintf(stderr, "fileload: %s\n", note);
	}
	return 0;
}

/* Sleep until @deadline, in steps short enough to notice a stop. */
static int
wait_until(struct shared *sh, uint64_t deadline)
{
	uint64_t now;

	while ((now = vb_now_ns()) < deadline) {
		if (LOAD(sh->phase) == PH_STOP)
			return -1;
		vb_sleep_until(deadline - now > 50000000 ? now + 50000000 :
		    deadline);
	}
	return 0;
}

/* A client process: set up, wait for the release, loop, clean up. */
static void VB_NORETURN
client(int id, const char *workdir, int own_group, struct shared *sh,
    int ready, int go)
{
	struct slot *s = &sh->slot[id];
	struct fl_client fc;
	char dir[PATH_MAX], err[512], c;
	int rc = 0;
	size_t i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (own_group)
		snprintf(dir, sizeof(dir), "%s/client%d.%ld", workdir, id,
		    (long)getpid());
	else
		snprintf(dir, sizeof(dir), "%s/client%d", workdir, id);
	if (mkdir(dir, 0777) < 0)
		die_errno("client %d: cannot create %s", id, dir);
	if (fl_client_init(&fc, &load, id, dir, err, sizeof(err)) < 0)
		die("%s", err);
	if (write(ready, "r", 1) != 1)
		die_errno("client %d: cannot signal readiness", id);
	close(ready);
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	close(go);
	for (;;) {
		uint64_t pass = vb_now_ns();

		for (i = 0; i < load.nops; i++) {
			const struct fl_op *op = &load.ops[i];
			int phase = LOAD(sh->phase), r;
			uint64_t t1, ns, b;

			if (phase == PH_STOP)
				goto done;
			if (op->when >= 0 &&
			    wait_until(sh, pass + (uint64_t)(op->when * 1e9)) < 0)
				goto done;
			t1 = vb_now_ns();
			r = fl_exec(&fc, op, err, sizeof(err));
			ns = vb_now_ns() - t1;
			if (r < 0) {
				vb_warn("%s", err);
				rc = 1;
				goto done;
			}
			b = fl_op_bytes(op);
			STORE(s->bytes_all, s->bytes_all + b);
			STORE(s->ops_all, s->ops_all + 1);
			if (ns > LOAD(s->recent_max_ns))
				STORE(s->recent_max_ns, ns);
			if (phase == PH_MEASURE) {
				STORE(s->bytes_meas, s->bytes_meas + b);
				fl_account(&s->m, op, ns, r);
			}
		}
	}
done:
	fl_client_fini(&fc);
	if (fl_rmtree(AT_FDCWD, dir) < 0) {
		vb_warn_errno("client %d: cannot remove %s", id, dir);
		rc = 1;
	}
	fflush(NULL);
	_exit(rc);
}

/* Reap any client that has exited; -1 if one failed. */
static int
reap(pid_t *pids, int n, int block, int *alive)
{
	int status, i, rc = 0;
	pid_t p;

	while (*alive > 0 &&
	    (p = waitpid(-1, &status, block ? 0 : WNOHANG)) != 0) {
		if (p < 0) {
			if (errno == EINTR)
				continue;
			die_errno("waitpid");
		}
		for (i = 0; i < n; i++)
			if (pids[i] == p)
				break;
		if (i == n)
			continue;
		pids[i] = 0;
		(*alive)--;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			vb_warn("client %d failed (%s %d)", i,
			    WIFEXITED(status) ? "exit status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) :
			    WTERMSIG(status));
			rc = -1;
		}
	}
	return rc;
}

/* One line a second, like dbench's. */
static void
progress(struct shared *sh, int n, uint64_t t0, uint64_t tmeas, int phase)
{
	uint64_t now = vb_now_ns(), bytes = 0, ops = 0, lat = 0, x;
	double t;
	int i;

	for (i = 0; i < n; i++) {
		struct slot *s = &sh->slot[i];

		bytes += phase == PH_MEASURE ? LOAD(s->bytes_meas) :
		    LOAD(s->bytes_all);
		ops += LOAD(s->ops_all);
		x = LOAD(s->recent_max_ns);
		STORE(s->recent_max_ns, 0);
		if (x > lat)
			lat = x;
	}
	t = vb_ns_to_s(now - (phase == PH_MEASURE ? tmeas : t0));
	printf("%4d clients %10llu ops %9.2f MB/sec  %s %4.0f sec  latency "
	    "%.3f ms\n", n, (unsigned long long)ops, fl_mb_per_s(bytes, t),
	    phase == PH_MEASURE ? "execute" : "warmup ", t,
	    (double)lat / 1e6);
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	int n = (int)c->clients, i, alive = 0, failed = 0, ready[2], go[2];
	uint64_t t0, tw, te, tmeas, tend, next, sec = VB_NSEC_PER_SEC;
	size_t shsize = sizeof(struct shared) + (size_t)n * sizeof(struct slot);
	struct fl_stats sum;
	struct shared *sh;
	pid_t *pids;
	double secs, maxms = 0;
	char ch;

	sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc((size_t)n, sizeof(*pids));
	if (sh == MAP_FAILED || !pids)
		die_errno("cannot allocate the clients' shared state");
	sh->phase = c->warmup > 0 ? PH_WARMUP : PH_MEASURE;
	if (pipe2(ready, O_CLOEXEC) < 0 || pipe2(go, O_CLOEXEC) < 0)
		die_errno("cannot create pipes");
	fflush(NULL);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			vb_warn_errno("cannot fork client %d", i);
			failed = 1;
			break;
		}
		if (pid == 0) {
			close(ready[0]);
			close(go[1]);
			client(i, vb_iter_workdir(it), c->own_group, sh,
			    ready[1], go[0]);
		}
		pids[i] = pid;
		alive++;
	}
	close(ready[1]);
	close(go[0]);
	/* each client writes one byte when ready; EOF early: one died */
	for (i = 0; i < alive; i++)
		if (read(ready[0], &ch, 1) != 1)
			break;
	close(ready[0]);
	if (failed || i < n) {
		STORE(sh->phase, PH_STOP);
		close(go[1]);
		reap(pids, n, 1, &alive);
		die("could not start %d clients", n);
	}
	printf("%d clients released; warm-up %.3g s, then %.3g s measured\n",
	    n, c->warmup, c->time);
	t0 = vb_now_ns();
	close(go[1]);		/* release */
	tw = t0 + (uint64_t)(c->warmup * 1e9);
	te = tw + (uint64_t)(c->time * 1e9);
	tmeas = sh->phase == PH_MEASURE ? t0 : 0;
	next = t0 + sec;
	for (;;) {
		int phase = LOAD(sh->phase);
		uint64_t target = phase == PH_WARMUP ? tw : te, now;

		vb_sleep_until(next < target ? next : target);
		now = vb_now_ns();
		if (phase == PH_WARMUP && now >= tw) {
			STORE(sh->phase, PH_MEASURE);
			tmeas = now;
			phase = PH_MEASURE;
		}
		if (phase == PH_MEASURE && now >= te)
			break;
		if (now >= next) {
			progress(sh, n, t0, tmeas, phase);
			next += sec;
		}
		if (reap(pids, n, 0, &alive) < 0 || alive < n) {
			failed = 1;
			break;
		}
	}
	STORE(sh->phase, PH_STOP);
	tend = vb_now_ns();
	if (reap(pids, n, 1, &alive) < 0 || failed)
		die("a client failed; no figures for this iteration");

	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < n; i++)
		fl_stats_add(&sum, &sh->slot[i].m);
	secs = vb_ns_to_s(tend - tmeas);
	printf("\n %-24s %9s %10s %10s\n", "Operation", "Count", "AvgLat ms",
	    "MaxLat ms");
	for (i = 0; i < FL_NOPS; i++) {
		const struct fl_opstat *o = &sum.op[i];
		char name[64];

		snprintf(name, sizeof(name), "%s_count", fl_op_stems[i]);
		vb_report(it, name, (double)o->count);
		if (!o->count)
			continue;
		snprintf(name, sizeof(name), "%s_mean_ms", fl_op_stems[i]);
		vb_report(it, name, fl_mean_ms(o));
		snprintf(name, sizeof(name), "%s_max_ms", fl_op_stems[i]);
		vb_report(it, name, (double)o->max_ns / 1e6);
		if ((double)o->max_ns / 1e6 > maxms)
			maxms = (double)o->max_ns / 1e6;
		printf(" %-24s %9llu %10.3f %10.3f\n", fl_op_names[i],
		    (unsigned long long)o->count, fl_mean_ms(o),
		    (double)o->max_ns / 1e6);
	}
	printf("\nThroughput %.4f MB/sec  %d clients  %.1f ops/sec  "
	    "max_latency=%.3f ms  mismatches=%llu\n", fl_mb_per_s(sum.bytes,
	    secs), n, (double)sum.ops / secs, maxms,
	    (unsigned long long)sum.mismatches);
	vb_report(it, "mb_per_s", fl_mb_per_s(sum.bytes, secs));
	vb_report(it, "ops_per_s", (double)sum.ops / secs);
	vb_report(it, "max_latency_ms", maxms);
	vb_report(it, "mismatches", (double)sum.mismatches);
	munmap(sh, shsize);
	free(pids);
	return 0;
}

static const struct vb_bench fileload = {
	.name = "fileload",
	.summary = "dbench-4 style file-server load: --clients processes "
	    "replay a loadfile with real system calls for --time seconds "
	    "after a warm-up",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "mb_per_s",
	.validate = validate,
	.setup = setup,
	.run = run,
};

VB_MAIN(fileload)
