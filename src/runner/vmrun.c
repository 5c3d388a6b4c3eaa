/*
 * vmrun.c - the runner behind `make run` (main and its options, the
 * modules in run.h): runs every line of a suite
 * config, each benchmark for its iterations, into a new run of a label,
 * results/<label>/runN/ (docs/results.md).
 *
 *	bench/vmrun --kernel LABEL [--config configs/quick.conf]
 *	    [--results results] [--iterations N] [--runs N] [--force]
 *	    [--workdir DIR]
 *
 * Everything that can be checked is checked before anything runs: the
 * config, every benchmark's name, options (each program is asked with
 * --check), directives, and the label: a run is added to its runs
 * (run1/, run2/, ...), never written over one, and a label whose runs
 * used another config or another machine is refused; --force replaces
 * them all.  --runs N runs the config N times, every line of one run
 * before the next run.  Each benchmark runs as a separate program whose
 * output goes to <bench>[@variant].log; the program writes its own .res
 * and .vmstat (src/lib/harness.c).  Progress goes to stderr.
 *
 * Ctrl-C, SIGTERM, SIGHUP: the signal is passed to the running
 * benchmark (which kills its children, removes its temporary files and
 * keeps its finished iterations, marked interrupted); meta is marked
 * interrupted (make ab: both sides' results of the line under way too)
 * and vmrun exits 130.  With --runs, the runs that ended stay as they
 * are and no later run begins.  SIGPIPE is ignored: a closed stderr
 * only stops the printing.  A meta that cannot be written fails the run
 * (exit 1); die() marks it failed; a first meta that cannot be written
 * removes the folders the run made.  Every run's state file
 * (src/runner/state.h) names its result folders, for the run after a
 * SIGKILL.
 *
 * Also checked before anything runs: that no two lines write the same
 * file (probe@<label> of a with=probe line included), and that no other
 * run holds the label (a flock on RESULTS/.LABEL.lock, held to the end).
 * A benchmark's error lines come through its progress pipe too
 * ("error LINE", src/lib/msg.h): the first since its last finished
 * iteration is the cause given when it fails.
 *
 * --mem SIZE runs every benchmark (and its probe) inside a memory cgroup
 * (src/runner/memlimit.h) and --swap SIZE adds a swap file in the work folder
 * (src/runner/swapfile.h) for the run; both are set up after the config is
 * checked and before the result folder is made, so a refusal (not root,
 * no memory controller, a filesystem that cannot hold swap) leaves
 * nothing behind, and both are removed at the end, on die() and after a
 * signal.  The programs see the limit as VMBENCH_MEM_LIMIT and
 * VMBENCH_SWAP_LIMIT (bytes).  A line with with=probe (or
 * with=probe:video) runs bench/probe beside the benchmark for its whole
 * run, stopped with SIGUSR1 when it ends, into probe@<label>.res.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "benchlist.h"
#include "config.h"
#include "msg.h"
#include "memlimit.h"
#include "meta.h"
#include "opt.h"
#include "res.h"
#include "safedir.h"
#include "stats.h"
#include "util.h"
#include "swapfile.h"
#include "knob.h"
#include "label.h"
#include "state.h"
#include "ab.h"
#include "parentwatch.h"
#include "proc.h"
#include "quiet.h"
#include "runs.h"
#include "trace.h"
#include <linux/magic.h>
#include "run.h"

static const struct vb_opt opt_tab[] = {
	{ .name = "kernel", .type = VB_OPT_STR, .arg = "LABEL",
	  .off = offsetof(struct opts, kernel),
	  .help = "result label (default: uname -r)" },
	{ .name = "config", .type = VB_OPT_STR, .arg = "FILE",
	  .off = offsetof(struct opts, config), .def = "configs/quick.conf",
	  .help = "suite to run" },
	{ .name = "results", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct opts, results), .def = "results",
	  .help = "folder holding one folder per label" },
	{ .name = "iterations", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct opts, iterations), .def = "0",
	  .min = 0, .max = 100000,
	  .help = "override every line's iteration count (0: the config's)" },
	{ .name = "force", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, force),
	  .help = "replace the label's runs (or result folder)" },
	{ .name = "workdir", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct opts, workdir),
	  .help = "folder for temporary files (default $VMBENCH_WORKDIR or "
	    "./work)" },
	{ .name = "mem", .type = VB_OPT_STR, .arg = "SIZE",
	  .off = offsetof(struct opts, mem),
	  .help = "run inside a memory limit of SIZE" },
	{ .name = "swap", .type = VB_OPT_STR, .arg = "SIZE",
	  .off = offsetof(struct opts, swap),
	  .help = "add a swap file of SIZE for the run" },
	{ .name = "a", .type = VB_OPT_STR, .arg = "SETTINGS",
	  .off = offsetof(struct opts, set_a),
	  .help = "A/B run: side A's settings, name=value,... (make ab A=)" },
	{ .name = "b", .type = VB_OPT_STR, .arg = "SETTINGS",
	  .off = offsetof(struct opts, set_b),
	  .help = "A/B run: side B's settings (make ab B=)" },
	{ .name = "label-a", .type = VB_OPT_STR, .arg = "LABEL",
	  .off = offsetof(struct opts, label_a),
	  .help = "A/B run: side A's folder (default LABEL-A)" },
	{ .name = "label-b", .type = VB_OPT_STR, .arg = "LABEL",
	  .off = offsetof(struct opts, label_b),
	  .help = "A/B run: side B's folder (default LABEL-B)" },
	{ .name = "order", .type = VB_OPT_STR, .arg = "ABBA",
	  .off = offsetof(struct opts, order), .def = "ABBA",
	  .help = "A/B run: the pattern the iterations follow" },
	{ .name = "warmup", .type = VB_OPT_STR, .arg = "0|1",
	  .off = offsetof(struct opts, warmup),
	  .help = "A/B run: 1 (default) runs each line once, discarded, "
	    "before its measured runs; 0 does not" },
	{ .name = "runs", .type = VB_OPT_STR, .arg = "N",
	  .off = offsetof(struct opts, runs),
	  .help = "run the config N times, each a new run of the label "
	    "(default 1)" },
	{ .name = "cpus", .type = VB_OPT_STR, .arg = "LIST",
	  .off = offsetof(struct opts, cpus),
	  .help = "run every program on these CPUs only (0, 1, 0-1, 0,2: "
	    "as taskset -c); recorded in meta as cpus" },
	{ .name = "quiet", .type = VB_OPT_STR, .arg = "PCT",
	  .off = offsetof(struct opts, quiet),
	  .help = "before each run, wait until other processes use less "
	    "than PCT% of a CPU; recorded in meta (quiet_*)" },
	{ .name = "quiet-wait", .type = VB_OPT_STR, .arg = "DURATION",
	  .off = offsetof(struct opts, quiet_wait),
	  .help = "--quiet: wait at most this long (30s, 10m, 1h; default "
	    "10m), then run all the same" },
	{ .name = "clean-stale", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, clean_stale),
	  .help = "undo what killed runs left behind, and exit" },
	{ .name = "help", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, help), .help = "this text" },
	{ 0 },
};

/*
 * The runner's one file-scope mutable state, by exception: what
 * rn_on_signal() must reach (a handler gets no argument).  Everything
 * else goes through struct run_ctx.
 */
volatile sig_atomic_t stop_signal;
volatile pid_t running_pid;
volatile pid_t companion_pid;		/* the with= companion */

void
rn_on_signal(int sig)
{
	pid_t p = running_pid;

	stop_signal = sig;
	if (p > 0)
		kill(p, sig == SIGHUP ? SIGTERM : sig);
	/* the companion keeps what it measured, marked interrupted */
	if (companion_pid > 0)
		kill(companion_pid, SIGINT);
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: vmrun --kernel LABEL [options]\n"
	    "Run a vmbench suite into RESULTS/LABEL/runN/, a new run of "
	    "the label.\n\nOptions:\n");
	vb_opt_usage(f, opt_tab);
}

/*
 * A path from the command line (CONFIG=, RESULTS=, WORKDIR=) goes into
 * meta (one value a line) and into messages: no control characters, and
 * short enough for the folders and files made under it.
 */
static void
check_path(const char *what, const char *path)
{
	char err[512];

	if (vb_path_check(what, path, err, sizeof(err)) < 0)
		die("%s", err);
}

/*
 * --cpus LIST: vmrun, and so every program it starts (affinity is
 * inherited), runs on those CPUs only; the list as given goes into the
 * meta as cpus=.  A CPU this process may not run on, or anything but
 * N and N-M items separated by commas, stops the run with one line.
 */
static void
set_cpus(struct run_ctx *ctx, const char *list)
{
	static char val[128];
	cpu_set_t want, may;
	const char *p = list;
	char *end;
	long a, b;
	int i;

	if (!list)
		return;
	CPU_ZERO(&want);
	if (sched_getaffinity(0, sizeof(may), &may) < 0)
		die_errno("--cpus: cannot read this process's CPUs");
	for (;;) {
		if (*p < '0' || *p > '9')
			goto bad;
		a = b = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtol(p, &end, 10);
		}
		if (a > b || b >= CPU_SETSIZE)
			goto bad;
		for (i = (int)a; i <= (int)b; i++) {
			if (!CPU_ISSET(i, &may))
				die("--cpus '%.64s': CPU %d is not one this "
				    "machine lets vmrun run on", list, i);
			CPU_SET(i, &want);
		}
		if (!*end)
			break;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
	if (sched_setaffinity(0, sizeof(want), &want) < 0)
		die_errno("--cpus '%.64s': cannot run there", list);
	snprintf(val, sizeof(val), "%s", list);
	rn_extra_add(ctx, "cpus", val);
	return;
bad:
	die("--cpus '%.64s': give CPU numbers and ranges separated by "
	    "commas (0, 0-1, 0,2)", list);
}

/*
 * --mem and --swap: parse now and export them to the programs (so that
 * their --check sees the limit too); created by make_limit().
 */
static void
parse_limit(const struct opts *o, uint64_t *mem, uint64_t *swap)
{
	char err[VB_ERRLEN], buf[32];

	*mem = *swap = 0;
	if (o->mem && vb_parse_size(o->mem, 4ULL << 20, 1ULL << 50, mem,
	    err) < 0)
		die("--mem: %s", err);
	if (o->swap && vb_parse_size(o->swap, 1ULL << 20, 1ULL << 44, swap,
	    err) < 0)
		die("--swap: %s", err);
	if (*mem) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)*mem);
		setenv("VMBENCH_MEM_LIMIT", buf, 1);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)*swap);
		if (*swap)
			setenv("VMBENCH_SWAP_LIMIT", buf, 1);
	}
}

/*
 * --quiet PCT, --quiet-wait DURATION (default 10 minutes): the wait
 * before each run and the pairs of its meta (rn_quiet_wait()).
 */
static void
parse_quiet(struct run_ctx *ctx, const struct opts *o)
{
	char err[1024];

	ctx->quiet_max_s = 600;
	if (o->quiet_wait && vb_quiet_duration(o->quiet_wait,
	    &ctx->quiet_max_s, err, sizeof(err)) < 0)
		die("%s", err);
	if (!o->quiet) {
		if (o->quiet_wait)
			die("--quiet-wait bounds the wait for a quiet machine: "
			    "give --quiet PCT too (make QUIET=)");
		return;
	}
	if (vb_quiet_pct(o->quiet, &ctx->quiet_pct, err, sizeof(err)) < 0)
		die("%s", err);
	snprintf(ctx->quiet.thr, sizeof(ctx->quiet.thr), "%g",
	    ctx->quiet_pct);
	rn_extra_add(ctx, "quiet_threshold", ctx->quiet.thr);
	rn_extra_add(ctx, "quiet_waited_s", ctx->quiet.waited);
	rn_extra_add(ctx, "quiet_cpu", ctx->quiet.cpu);
	rn_extra_add(ctx, "quiet_timeout", ctx->quiet.timeout);
}

/*
 * The work folder holds the benchmarks' files and the swap file: a
 * writable folder of a file system that stores files.  /dev/null, a
 * regular file, /proc or /sys are refused before anything is made.
 */
static void
workdir_usable(const char *dir)
{
	static const struct {
		long magic;
		const char *name;
	} pseudo[] = {
		{ PROC_SUPER_MAGIC, "proc" }, { SYSFS_MAGIC, "sysfs" },
		{ DEBUGFS_MAGIC, "debugfs" }, { TRACEFS_MAGIC, "tracefs" },
		{ CGROUP_SUPER_MAGIC, "cgroup" },
		{ CGROUP2_SUPER_MAGIC, "cgroup2" },
		{ SECURITYFS_MAGIC, "securityfs" }, { BPF_FS_MAGIC, "bpf" },
		{ DEVPTS_SUPER_MAGIC, "devpts" },
	};
	struct statfs fs;
	struct stat st;
	size_t i;

	if (stat(dir, &st) < 0 || statfs(dir, &fs) < 0)
		die_errno("work folder %s", dir);
	if (!S_ISDIR(st.st_mode))
		die("work folder %s: not a folder (WORKDIR= names a folder on "
		    "disk or tmpfs)", dir);
	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if ((long)fs.f_type == pseudo[i].magic)
			die("work folder %s: on %s, which holds no files of its "
			    "own (WORKDIR= names a folder on disk or tmpfs)",
			    dir, pseudo[i].name);
	if (fs.f_flags & ST_RDONLY)
		die("work folder %s: on a read-only file system", dir);
	if (access(dir, W_OK | X_OK) < 0)
		die_errno("work folder %s: not writable", dir);
	/*
	 * The benchmarks' private folders are made in it: it and its path
	 * ours or root's, writable by others only when sticky (a 1777
	 * /tmp), so that no one can rename them away (safedir.h)
	 */
	{
		char err[PATH_MAX + 128];
		int fd = vb_dir_open_parent(dir, err, sizeof(err));

		if (fd < 0)
			die("%s (WORKDIR=)", err);
		close(fd);
	}
}

/*
 * The work folder: --workdir, $VMBENCH_WORKDIR, or ./work; made when
 * @make.  0, or -1 when it does not exist and was not to be made.
 */
static int
find_workdir(struct run_ctx *ctx, struct opts *o, int make)
{
	int rc, made_failed;

	o->workdir = vb_workdir_name(o->workdir);
	check_path("the work folder", o->workdir);
	rc = vb_workdir_find(o->workdir, make, ctx->workdir, &made_failed);
	if (rc > 0)
		return -1;
	if (rc < 0 && made_failed)
		die_errno("cannot create work folder %s", o->workdir);
	if (rc < 0)
		die_errno("work folder %s", o->workdir);
	workdir_usable(o->workdir);
	return 0;
}

/* --runs N: 1 to 1000; anything else stops the run with one line. */
static int
runs_arg(const char *s)
{
	char shown[48], *end;
	size_t i;
	long n;

	if (!s)
		return 1;
	errno = 0;
	n = strtol(s, &end, 10);
	if (s[0] >= '0' && s[0] <= '9' && !*end && !errno && n >= 1 &&
	    n <= 1000)
		return (int)n;
	/* the value as given, on one line */
	for (i = 0; s[i] && i < sizeof(shown) - 1; i++)
		shown[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	shown[i] = '\0';
	die("--runs '%s%s': give a whole number from 1 to 1000", shown,
	    s[i] ? "..." : "");
	return 0;
}

/*
 * Run vmreport on the two folders (the comparison on stdout), as a
 * program, not through a shell.
 */
static void
compare(struct run_ctx *ctx, const struct side *sd)
{
	vb_run_report(ctx->bindir, sd[0].dir, sd[1].dir);
}

/*
 * make clean-stale: undo what killed runs left (state.h), taking the
 * machine lock when it is free; a run that holds it undid what was
 * left when it took it.
 */
static int
clean_stale(struct run_ctx *ctx, struct opts *o)
{
	const char *root = getenv("VMBENCH_SYSROOT");
	char mdir[4096], err[1024];
	struct vb_machine m;
	int rc, held = 1, none;

	/* a work folder that is not there is not made: nothing in it */
	none = find_workdir(ctx, o, 0) < 0;
	if (none)
		snprintf(ctx->workdir, sizeof(ctx->workdir), "%s", o->workdir);
	check_path("--results", o->results);
	if (vb_state_dir(ctx->statedir, sizeof(ctx->statedir), err,
	    sizeof(err)) < 0)
		die("%s", err);
	vb_machine_dir(mdir, sizeof(mdir));
	if (geteuid() == 0 || (root && *root)) {
		held = vb_machine_lock(&ctx->mach, mdir, NULL, 0, NULL,
		    err, sizeof(err));
		if (held < 0)
			die("%s", err);
	}
	rc = vb_state_recover(ctx->statedir, ctx->workdir, o->results,
	    held == 0);
	/* a killed benchmark's tracefs instance (trace.h): its own record */
	{
		int t = vb_trace_recover();

		rc = rc < 0 || t < 0 ? -1 : rc + t;
	}
	vb_machine_unlock(&ctx->mach);
	if (held == 1 && vb_machine_peek(mdir, &m) == 0 && m.pid)
		fprintf(stderr, "vmrun: pid %ld is changing this machine now "
		    "(%s); it undoes that itself\n", m.pid, m.what);
	if (rc == 0)
		fprintf(stderr, "vmrun: nothing left behind in %s%s\n",
		    ctx->workdir, none ? " (no such folder)" : "");
	return rc < 0 ? 1 : 0;
}

/*
 * An A/B run's two sides from --a, --b, --order and the labels: the
 * settings parsed, each side's label (KERNEL-A, KERNEL-B unless named)
 * and description; one line and exit for anything wrong.
 */
static void
ab_sides(struct run_ctx *ctx, const struct opts *o, struct side *sd)
{
	char err[1024];
	int k;

	const char *root = getenv("VMBENCH_SYSROOT");
	static char la[160], lb[160];

	if (!o->set_a || !o->set_b || (!*o->set_a && !*o->set_b))
		die("an A/B run needs both sides: A=\"name=value,...\" "
		    "B=\"name=value,...\" (one side may be given "
		    "empty, B=, for the settings as they are)");
	if (vb_ab_order_ok(o->order, err, sizeof(err)) < 0)
		die("%s", err);
	ctx->knobs.root = root && *root ? vb_xstrdup(root) : NULL;
	if ((*o->set_a && vb_knobs_parse(&ctx->knobs, 0, o->set_a, err,
	    sizeof(err)) < 0) || (*o->set_b &&
	    vb_knobs_parse(&ctx->knobs, 1, o->set_b, err,
	    sizeof(err)) < 0))
		die("%s", err);
	snprintf(la, sizeof(la), "%s-A", o->kernel);
	snprintf(lb, sizeof(lb), "%s-B", o->kernel);
	sd[0].label = o->label_a ? o->label_a : la;
	sd[1].label = o->label_b ? o->label_b : lb;
	for (k = 0; k < 2; k++)
		if (!vb_label_ok(sd[k].label))
			die("bad label '%s': " VB_LABEL_RULE,
			    sd[k].label);
	if (strcmp(sd[0].label, sd[1].label) == 0)
		die("both sides are labelled '%s'", sd[0].label);
	vb_knobs_describe(&ctx->knobs, 0, sd[0].desc,
	    sizeof(sd[0].desc));
	vb_knobs_describe(&ctx->knobs, 1, sd[1].desc,
	    sizeof(sd[1].desc));
	for (k = 0; k < 2; k++)
		if (!sd[k].desc[0])
			snprintf(sd[k].desc, sizeof(sd[k].desc),
			    "as found");
}

/*
 * Each side's label folder, RESULTS/LABEL: checked when it is there
 * (ours, no one else's), its lock taken, and what it holds checked
 * (make run adds a run; make ab refuses one that exists, unless FORCE).
 */
static void
open_labels(struct run_ctx *ctx, const struct opts *o, struct side *sd,
    int nside, int ab)
{
	char err[1024];
	struct stat st;
	int k;

	for (k = 0; k < nside; k++) {
		snprintf(sd[k].dir, sizeof(sd[k].dir), "%s/%s", o->results,
		    sd[k].label);
		/* a label folder that is there: ours, no one else's,
		   FORCE or not */
		if (fstatat(ctx->rn.resfd, sd[k].label, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && (S_ISDIR(st.st_mode) ||
		    S_ISLNK(st.st_mode))) {
			int fd = vb_dir_sub(ctx->rn.resfd, sd[k].label,
			    sd[k].dir, 0, err, sizeof(err));

			if (fd < 0)
				die("%s", err);
			close(fd);
		}
		rn_lock_label(ctx, k, o->results, sd[k].label);
		if (!ab)
			rn_runs_check(ctx, &sd[k], o);
		else if (lstat(sd[k].dir, &st) == 0 && !o->force)
			die("%s already exists: choose another %s label, or "
			    "FORCE=1 to replace it", sd[k].dir, !ab ?
			    "KERNEL=" : k == 0 && o->label_a ? "A_LABEL=" :
			    k == 1 && o->label_b ? "B_LABEL=" : "KERNEL=");
	}
}

/*
 * An A/B run's two result folders, made new (FORCE's old ones removed
 * through folder descriptors); a side that cannot be made removes both.
 */
static void
ab_folders(struct run_ctx *ctx, struct side *sd)
{
	char err[1024];
	struct stat st;
	int k;

	for (k = 0; k < 2; k++) {
		int fd;

		if (fstatat(ctx->rn.resfd, sd[k].label, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && vb_rmtree_at(ctx->rn.resfd,
		    sd[k].label) < 0)
			die_errno("cannot remove %s", sd[k].dir);
		if (mkdirat(ctx->rn.resfd, sd[k].label, 0755) < 0) {
			int e = errno;

			rn_unmake_sides(ctx);
			errno = e;
			die_errno("cannot create %s", sd[k].dir);
		}
		if ((fd = vb_dir_sub(ctx->rn.resfd, sd[k].label, sd[k].dir, 0,
		    err, sizeof(err))) < 0) {
			rn_unmake_sides(ctx);
			die("%s", err);
		}
		close(fd);
		sd[k].made = 1;
	}
}

/*
 * The iterations of every meta of the run, @buf: "3", or "5-10" when
 * lines differ (iterations=N); set before the label is checked, whose
 * runs must have had the same (rn_runs_check()).
 */
static void
iterations_desc(struct run_ctx *ctx, const struct vb_conf *c,
    const struct opts *o, char *buf, size_t len)
{
	int k, lo = 0, hi = 0;

	for (k = 0; k < c->nlines; k++) {
		int n = rn_line_iterations(c, k, o);

		lo = k == 0 || n < lo ? n : lo;
		hi = n > hi ? n : hi;
	}
	if (lo == hi)
		snprintf(buf, len, "%d", lo);
	else
		snprintf(buf, len, "%d-%d", lo, hi);
	ctx->meta.iterations = buf;
}

/*
 * What every meta of the run says (start, work folder, config, the
 * iterations), the causes of failure kept a line, an A/B side's own
 * pairs; then each side's first meta, "running".
 */
static void
sides_begin(struct run_ctx *ctx, const struct vb_conf *c,
    const struct opts *o, struct side *sd, int nside, int ab)
{
	int k;

	ctx->meta.start = vb_iso_time(ctx->start, sizeof(ctx->start));
	ctx->meta.workdir = ctx->workdir;
	ctx->meta.config = o->config;
	for (k = 0; k < 2; k++)
		if (!(ctx->causes[k] = calloc((size_t)c->nlines,
		    sizeof(*ctx->causes[k]))))
			die("out of memory");
	ctx->cause = ctx->causes[0];
	ctx->appends = vb_xcalloc((size_t)c->nlines, 1);
	if (ab) {
		for (k = 0; k < 2; k++) {
			rn_ab_add(&sd[k], "ab_setting", sd[k].desc);
			rn_ab_add(&sd[k], "ab_side", k ? "B" : "A");
			rn_ab_add(&sd[k], "ab_pair", sd[!k].label);
			rn_ab_add(&sd[k], "ab_order", o->order);
			/* docs/ab.md: the order of each line, the warm-up */
			rn_ab_add(&sd[k], "ab_start", "alternate");
			rn_ab_add(&sd[k], "ab_warmup", ctx->warmup ? "1" : "0");
		}
		ctx->append = 1;
		/* each iteration a separate run of the program (docs/ab.md) */
		ctx->meta.unit = "run-per-iteration";
		rn_run_facts(ctx);
	} else {
		sd[0].settings = rn_settings_now(ctx);
	}
	/* nothing measured yet: a side that cannot start leaves none */
	for (k = 0; k < nside; k++)
		if (rn_side_meta(ctx, &sd[k], "running", 0, 1) < 0) {
			rn_unmake_sides(ctx);
			die_errno("cannot write %s/meta", sd[k].dir);
		}
}

/*
 * Each side's last meta (interrupted, failed or complete) and summary;
 * the exit status: 130 after a signal, 1 when something failed (a meta
 * that cannot be written too), else 0; an A/B run's comparison.
 */
static int
sides_end(struct run_ctx *ctx, const struct vb_conf *c, struct side *sd,
    int nside, int ab, int rc, int failed, int td_failed)
{
	int k, meta_failed = 0;

	for (k = 0; k < nside; k++) {
		/* an A/B side's status is its own lines' (and teardown's) */
		int side_failed = ab ? sd[k].failed || td_failed : failed;
		const char *status = stop_signal || rc == 130 ?
		    "interrupted" : side_failed ? "failed" : "complete";

		/* a meta that cannot be written is a failure, not a stop */
		if (rn_side_meta(ctx, &sd[k], status, 1, 0) < 0)
			meta_failed = 1;
		ctx->cause = ctx->causes[k];
		rn_summary(ctx, sd[k].dir, c);
	}
	if (stop_signal || rc == 130) {
		fprintf(stderr, "vmrun: interrupted; what was measured is kept "
		    "in %s/%s%s%s, marked interrupted\n", sd[0].dir,
		    ab ? " and " : "", ab ? sd[1].dir : "", ab ? "/" : "");
		rc = meta_failed ? 1 : 130;
	} else {
		rc = failed || meta_failed || ctx->rn.failed ? 1 : 0;
		/* the report marks what is incomplete ("!") */
		if (ab)
			compare(ctx, sd);
	}
	return rc;
}

/*
 * The options that do not depend on the machine: the label (uname -r
 * when none), what an A/B run takes and a plain run does not, --runs,
 * --warmup; the sides' labels.  1 for an A/B run, else 0.
 */
static int
check_options(struct run_ctx *ctx, struct opts *o, struct side *sd)
{
	struct utsname u;
	char err[1024];
	int ab;

	if (!o->kernel || !*o->kernel) {
		if (uname(&u) < 0)
			die_errno("uname");
		o->kernel = strdup(u.release);
	}
	if (!vb_label_ok(o->kernel))
		die("bad kernel label '%s': " VB_LABEL_RULE, o->kernel);
	ab = o->set_a || o->set_b;
	if (!ab && (o->label_a || o->label_b))
		die("--label-a and --label-b are for an A/B run (--a, --b)");
	if (ab && o->runs)
		die("--runs is for make run: an A/B run repeats each setting's "
		    "runs by its iterations (ITERATIONS=)");
	if (!ab && o->warmup)
		die("--warmup is for an A/B run (--a, --b; make ab WARMUP=)");
	ctx->rn.n = runs_arg(o->runs);
	if (ab && (ctx->warmup = vb_ab_warmup_arg(o->warmup, err,
	    sizeof(err))) < 0)
		die("%s", err);
	if (ab)
		ab_sides(ctx, o, sd);
	else
		sd[0].label = o->kernel;
	return ab;
}

/*
 * Take the machine (one run that changes it at a time, what a killed
 * run left undone first), catch the signals, write the state file a
 * SIGKILL leaves behind, save make ab's settings, make the memory limit
 * and swap file: from here on every path undoes what the run changed.
 */
static void
begin_changes(struct run_ctx *ctx, const struct opts *o, struct side *sd,
    int nside, int ab, uint64_t mem, uint64_t swap)
{
	char err[1024];
	int k;

	/*
	 * One run that changes the machine at a time; what a run killed
	 * with SIGKILL left is undone before anything (state.h).
	 */
	{
		char what[2048];

		rn_machine_what(what, sizeof(what), sd, nside, ab, o);
		rn_machine_begin(ctx, ab || mem || swap, what, o->results);
	}
	/* from here on, every path undoes what the run changed */
	vb_catch_signals(rn_on_signal);
	rn_die_hook(ctx);
	if (vb_state_begin(&ctx->state, ctx->statedir) < 0)
		die_errno("cannot write %s", ctx->state.path);
	/*
	 * Every run's result folders, as absolute paths (make clean-stale
	 * may run elsewhere): after a SIGKILL the next run marks a meta
	 * still "running" interrupted, and says so.
	 */
	for (k = 0; k < nside; k++) {
		rn_state_result(ctx, k, sd[k].dir);
		rn_state_lock(ctx, k, o->results);
	}
	if (vb_state_save(&ctx->state) < 0)
		die_errno("cannot write %s", ctx->state.path);
	if (ab) {
		if (vb_knobs_save(&ctx->knobs, err, sizeof(err)) < 0)
			die("%s", err);
		ctx->state.knobs = &ctx->knobs;
	}
	if (vb_state_save(&ctx->state) < 0)
		die_errno("cannot write %s", ctx->state.path);
	if (ab && vb_knobs_check(&ctx->knobs, err, sizeof(err)) < 0)
		die("%s", err);
	rn_make_limit(ctx, mem, swap);
	if (stop_signal) {
		rn_teardown(ctx);
		vb_die_status = 130;
		die("interrupted before anything ran");
	}
}

int
main(int argc, char **argv)
{
	/* static: what it holds stays reachable to the end (exit()) */
	static struct run_ctx run = RUN_CTX_INIT;
	struct run_ctx *ctx = &run;
	struct opts o;
	struct vb_conf conf;
	struct side sd[2];
	char err[1024], itbuf[32];
	uint64_t t0, mem, swap;
	int i, k, rc = 0, failed = 0, ab, nside, td_failed;

	vb_set_progname("vmrun");
	memset(sd, 0, sizeof(sd));
	/*
	 * Output is a courtesy: with stderr on a closed pipe (`| head`)
	 * the writes fail with EPIPE and only the printing stops, never
	 * the run or its clean-up.
	 */
	signal(SIGPIPE, SIG_IGN);
	/* started by make: stop when make is stopped (parentwatch.h) */
	if (vb_parent_watch() < 0)
		vb_warn_errno("cannot watch make, its parent");
	if (vb_opt_parse(opt_tab, &o, argc - 1, argv + 1, NULL, err,
	    sizeof(err)) < 0)
		die("%s", err);
	if (o.help) {
		usage(stdout);
		return 0;
	}
	if (o.clean_stale)
		return clean_stale(ctx, &o);
	ab = check_options(ctx, &o, sd);
	nside = ab ? 2 : 1;
	check_path("--config", o.config);
	check_path("--results", o.results);
	parse_limit(&o, &mem, &swap);
	set_cpus(ctx, o.cpus);
	parse_quiet(ctx, &o);

	/* programs live beside vmrun, wherever it was started from */
	if (vb_bindir(ctx->bindir, sizeof(ctx->bindir)) < 0)
		die_errno("cannot find my own program");

	if (vb_conf_read(o.config, &conf, err, sizeof(err)) < 0)
		die("%s", err);
	rn_validate(ctx, &conf);
	/* the first run's wait: nothing is made or changed yet */
	rn_quiet_wait(ctx);
	if (stop_signal) {
		vb_die_status = 130;
		die("interrupted while waiting for a quiet machine: nothing "
		    "ran");
	}

	/* the work folder: a real filesystem, not tmpfs, by default */
	find_workdir(ctx, &o, 1);
	/*
	 * The result folder: never silently overwritten.  Refused before
	 * the limit and swap file are made; with FORCE the old folder goes
	 * only once they are ready.
	 */
	if ((ctx->rn.resfd = vb_dir_open(o.results, 1, err, sizeof(err))) < 0)
		die("%s (RESULTS=)", err);
	ctx->sd = sd;
	ctx->nside = nside;
	rn_die_hook(ctx);
	iterations_desc(ctx, &conf, &o, itbuf, sizeof(itbuf));
	open_labels(ctx, &o, sd, nside, ab);
	begin_changes(ctx, &o, sd, nside, ab, mem, swap);
	if (!ab)
		rn_runs_folder(ctx, &sd[0], &o);
	if (ab)
		ab_folders(ctx, sd);

	sides_begin(ctx, &conf, &o, sd, nside, ab);

	t0 = vb_now_ns();
	if (ab) {
		fprintf(stderr, "vmrun: %s, %d benchmark%s, A (%s) into %s/, "
		    "B (%s) into %s/, order %s\n", o.config, conf.nlines,
		    conf.nlines == 1 ? "" : "s", sd[0].desc, sd[0].dir,
		    sd[1].desc, sd[1].dir, o.order);
		rc = rn_run_ab(ctx, &conf, &o, sd, t0);
		failed = rc == 130 ? 0 : rc;
	} else {
		fprintf(stderr, "vmrun: %s, %d benchmark%s, into %s/\n",
		    o.config, conf.nlines, conf.nlines == 1 ? "" : "s",
		    sd[0].dir);
		rc = rn_run_plain(ctx, &conf, &o, sd, t0);
		failed = rc == 130 ? 0 : rc;
	}
	vb_set_die_hook(NULL, NULL);
	td_failed = rn_teardown(ctx) < 0;
	failed += td_failed;
	rn_machine_end(ctx, sd, nside);
	vb_machine_unlock(&ctx->mach);
	rc = sides_end(ctx, &conf, sd, nside, ab, rc, failed, td_failed);
	if (!ab)
		rn_runs_say(ctx, &sd[0]);
	for (k = 0; k < nside; k++)
		free(sd[k].settings);
	vb_knobs_free(&ctx->knobs);
	free(ctx->knobs.root);
	rn_unlock_label(ctx);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < conf.nlines; i++)
			free(ctx->causes[k][i]);
		free(ctx->causes[k]);
	}
	free(ctx->now);
	free(ctx->appends);
	vb_conf_free(&conf);
	return rc;
}
