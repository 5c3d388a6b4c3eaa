/*
 * harness.c - a benchmark's life: options, iterations, the iteration
 * child, signals, the .res (see harness.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "psi.h"
#include "rusage.h"
#include "scope.h"
#include "stats.h"
#include "trace.h"
#include "util.h"
#include "vmstat.h"

const struct vb_metric vb_std_metrics[] = {
	{ "elapsed", "s", VB_LOWER, "wall-clock time (CLOCK_MONOTONIC)", 1 },
	{ "user", "s", VB_LOWER, "user CPU of the process tree", 1 },
	{ "sys", "s", VB_LOWER, "system CPU of the process tree", 1 },
	{ "cpu", "%", VB_INFO, "(user + sys) / elapsed", 0 },
	{ "minflt", "faults", VB_LOWER, "minor page faults", 0 },
	{ "majflt", "faults", VB_LOWER, "major page faults", 1 },
	{ "nvcsw", "switches", VB_INFO, "voluntary context switches", 0 },
	{ "nivcsw", "switches", VB_INFO, "involuntary context switches", 0 },
	{ "inblock", "blocks", VB_INFO, "512-byte blocks read", 0 },
	{ "oublock", "blocks", VB_INFO, "512-byte blocks written", 0 },
	{ "maxrss", "kB", VB_INFO, "peak RSS of one process of the tree", 0 },
	/* vmstat deltas, system-wide, over the iteration */
	{ "pswpin", "kB", VB_LOWER, "swapped in (system-wide)", 1 },
	{ "pswpout", "kB", VB_LOWER, "swapped out (system-wide)", 1 },
	{ "pgmajfault", "faults", VB_LOWER, "major faults (system-wide)", 0 },
	{ "pgfault", "faults", VB_INFO, "page faults (system-wide)", 0 },
	{ "pgscan_kswapd", "pages", VB_INFO, "scanned by kswapd", 0 },
	{ "pgscan_direct", "pages", VB_LOWER, "scanned by direct reclaim", 0 },
	{ "pgsteal_kswapd", "pages", VB_INFO, "reclaimed by kswapd", 0 },
	{ "pgsteal_direct", "pages", VB_INFO,
	    "reclaimed by direct reclaim", 0 },
	{ "allocstall", "stalls", VB_LOWER, "direct reclaim entries", 0 },
	{ "workingset_refault", "pages", VB_LOWER, "refaults of evicted "
	    "pages", 0 },
	/*
	 * Higher is better: a huge page at fault stands for 512 faults and
	 * their TLB entries; a change of it is what a THP setting or patch
	 * is judged by, so it is tested and marked like the faults.
	 */
	{ "thp_fault_alloc", "pages", VB_HIGHER, "THPs allocated at fault", 0 },
	{ "oom_kill", "kills", VB_LOWER, "OOM kills", 0 },
	{ "pgpgin", "kB", VB_INFO, "paged in from storage", 0 },
	{ "pgpgout", "kB", VB_INFO, "paged out to storage", 0 },
	{ "pgscan_total", "pages", VB_INFO, "scanned by all reclaim, memory "
	    "cgroup limits included", 0 },
	{ "pgsteal_total", "pages", VB_INFO, "reclaimed by all reclaim, "
	    "memory cgroup limits included", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

/*
 * The machine's other work during the iteration (src/lib/scope.h); after the
 * standard columns, before the cgroup's and the bench's own.
 */
static const struct vb_metric foreign_metric[] = {
	{ "foreign_cpu", "%", VB_INFO, "CPU used by other processes, % of "
	    "one CPU", 0 },
	/* the memory columns, in this order (see mem_row()) */
	{ "foreign_mem_kb", "kB", VB_INFO, "memory in use at the start "
	    "that was not ours (src/lib/scope.h)", 0 },
	{ "mem_total_kb", "kB", VB_INFO, "MemTotal", 0 },
	{ "mem_avail_kb", "kB", VB_INFO, "MemAvailable at the start", 0 },
	{ "mem_avail_min_kb", "kB", VB_INFO, "lowest MemAvailable seen "
	    "during the iteration (start, end, the sampler's whole "
	    "readings)", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

/* column of the first vmstat metric in vb_std_metrics */
#define VB_STD_RUSAGE 11

struct vb_iter {
	int num;
	int fd;			/* pipe to the parent */
	const char *workdir;
	const char *bench;	/* its name */
	const struct vb_metric *metrics;	/* the figures run() reports */
};

/* The state of the one run this process does. */
static struct run {
	const struct vb_bench *b;
	void *cfg;
	const struct vb_metric *metrics;	/* b's, or its mode's */
	const char *headline;
	struct vb_res res;
	char res_path[4096];
	char vm_path[4096];
	char workdir[4096];
	int have_workdir;
	int setup_done;
	FILE *vmf;
	struct vb_sampler sampler;
	int sampling;
	volatile pid_t child;
	int progress_fd;
	int write_failed;	/* a .res or .vmstat could not be written */
	const char *proc_root;
	int nstd;
	int foreign_col;	/* foreign_cpu's column */
	int mem_col;		/* foreign_mem_kb's, then the other three */
	struct vb_cgroup cg;	/* the memory cgroup we run in, if any */
	int cg_col;		/* its first column, or -1 */
	struct vb_psi psi, cg_psi;	/* the pressure files (psi.h) */
	int psi_col, cg_psi_col;	/* their first columns, or -1 */
	struct vb_trace tr;	/* our tracefs instance (trace.h) */
	int tr_col;		/* its first column, or -1 */
	int first_iter;		/* 1, or after the iterations appended to */
	char prior_status[16];	/* --append: "failed" etc., "" if complete */
	char **argv;		/* the program's, for an exec'd iteration */
	int exec_run;		/* .exec_run, unless VMBENCH_EXEC=0 */
	int sync;		/* --sync: sync() before each iteration */
} R = { .progress_fd = -1 };

/* The exec'd iteration child's handshake: "PPID NUM FD WORKDIR". */
#define VB_ITER_ENV	"VMBENCH_ITERATION"

static volatile sig_atomic_t stop_signal;

int
vb_stopping(void)
{
	return stop_signal != 0;
}

static void
on_signal(int sig)
{
	pid_t c = R.child;

	stop_signal = sig;
	if (c > 0)
		kill(-c, SIGKILL);
}

/*
 * The tracefs instance off and removed (trace.h), said in one line when
 * it cannot be (its record stays for the next run); idempotent.
 */
static void
close_trace(void)
{
	char why[8192];

	if (vb_trace_close(&R.tr, why, sizeof(why)) < 0)
		vb_warn("%s", why);
}

/* Kill the child, tear down, remove the work folder; idempotent. */
static void
cleanup(void)
{
	pid_t c = R.child;

	if (c > 0) {
		kill(-c, SIGKILL);
		kill(c, SIGKILL);
		while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
			;
		R.child = 0;
	}
	if (R.sampling) {
		vb_sampler_stop(&R.sampler);
		R.sampling = 0;
	}
	close_trace();
	if (R.vmf) {
		if (fclose(R.vmf) != 0 && !R.write_failed) {
			vb_warn_errno("cannot write %s", R.vm_path);
			R.write_failed = 1;
		}
		R.vmf = NULL;
	}
	if (R.setup_done && R.b->teardown) {
		R.setup_done = 0;
		R.b->teardown(R.cfg, R.workdir);
	}
	if (R.have_workdir) {
		vb_rmtree(R.workdir);
		R.have_workdir = 0;
	}
}

/*
 * Write the .res with @status.  A write that fails is a failure of the
 * run (the result is lost): said once, the file written last is marked
 * failed when @status is final (vb_res_save()), and -1.
 */
static int
save(const char *status)
{
	if (!R.res_path[0])
		return 0;
	/* appended to a result that failed: the whole stays failed */
	if (strcmp(status, "complete") == 0 && R.prior_status[0])
		status = R.prior_status;
	if (vb_res_save(R.res_path, &R.res, status) == 0)
		return 0;
	if (!R.write_failed)
		vb_warn_errno("cannot write %s", R.res_path);
	R.write_failed = 1;
	return -1;
}

/*
 * Has the sampler died before its time (killed, or stopped because it
 * could not write the .vmstat)?  Then say so, note it in the result,
 * and, for a write error, fail the run.  After each iteration and
 * before the final save; reaps the sampler, which then needs no stop.
 */
static void
check_sampler(int iter)
{
	int status, err;
	pid_t p;

	if (!R.sampling || !R.sampler.running)
		return;
	p = waitpid(R.sampler.pid, &status, WNOHANG | __WALL);
	if (p != R.sampler.pid)
		return;
	err = R.sampler.sh ? R.sampler.sh->err : 0;
	R.sampler.running = 0;
	R.sampler.pid = 0;
	if (err) {
		errno = err;
		vb_warn_errno("cannot write %s", R.vm_path);
		vb_res_add_note(&R.res, "vmstat series incomplete: cannot "
		    "write it: %s (iteration %d)", strerror(err), iter);
		R.write_failed = 1;
	} else if (WIFSIGNALED(status)) {
		vb_warn("the vmstat sampler died (signal %d) at iteration %d: "
		    "%s is incomplete", WTERMSIG(status), iter, R.vm_path);
		vb_res_add_note(&R.res, "vmstat series incomplete: sampler "
		    "died (signal %d) at iteration %d", WTERMSIG(status), iter);
	} else {
		vb_warn("the vmstat sampler ended (exit status %d) at "
		    "iteration %d: %s is incomplete", WEXITSTATUS(status), iter,
		    R.vm_path);
		vb_res_add_note(&R.res, "vmstat series incomplete: sampler "
		    "ended (exit status %d) at iteration %d",
		    WEXITSTATUS(status), iter);
	}
}

/* die() from the parent: keep what was measured, marked failed. */
static void
die_hook(void *unused)
{
	(void)unused;
	cleanup();
	if (R.res.nmetrics)
		save("failed");
}

void
vb_report(struct vb_iter *it, const char *metric, double value)
{
	char line[256];
	const struct vb_metric *m;
	int n;

	for (m = it->metrics; m && m->name; m++)
		if (strcmp(m->name, metric) == 0)
			break;
	if (!m || !m->name)
		die("bug: %s reports unknown metric '%s'", it->bench, metric);
	n = snprintf(line, sizeof(line), "%s %.17g\n", metric, value);
	/* one write(), shorter than PIPE_BUF: atomic */
	if (write(it->fd, line, (size_t)n) != n)
		die_errno("cannot report %s", metric);
}

const char *
vb_iter_workdir(const struct vb_iter *it)
{
	return it->workdir;
}

int
vb_iter_num(const struct vb_iter *it)
{
	return it->num;
}

void
vb_note(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vb_res_add_note(&R.res, "%s", msg);
}

int
vb_check_nproc(uint64_t n, const char *opt, const char *why, char *err,
    size_t errlen)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    n + 16 > rl.rlim_cur) {
		snprintf(err, errlen, "--%s %llu: RLIMIT_NPROC is %llu; %s",
		    opt, (unsigned long long)n,
		    (unsigned long long)rl.rlim_cur, why);
		return -1;
	}
	return 0;
}

/* The "Figures" paragraph of --help: @m, after a blank line. */
static void
usage_figures(FILE *f, const char *mode, const struct vb_metric *m)
{
	fprintf(f, "\nFigures%s%s (besides time, rusage and vmstat "
	    "deltas):\n", mode ? " with --" : "", mode ? mode : "");
	for (; m && m->name; m++)
		fprintf(f, "  %-22s %s (%s, %s)\n", m->name, m->desc,
		    m->unit, m->dir == VB_LOWER ? "lower is better" :
		    m->dir == VB_HIGHER ? "higher is better" : "information");
}

/*
 * The "Amount of work" paragraph of --help: the figures the report
 * needs equal before it compares the others (struct vb_work).
 */
static void
usage_work(FILE *f, const struct vb_work *w)
{
	fprintf(f, "\nAmount of work (the other figures are compared only "
	    "when it is the same):\n");
	if (!w || !w->metric)
		fprintf(f, "  fixed by the options (the report compares "
		    "them)\n");
	for (; w && w->metric; w++)
		if (w->tol_pct > 0)
			fprintf(f, "  %-22s equal within %g%%\n", w->metric,
			    w->tol_pct);
		else
			fprintf(f, "  %-22s exactly equal\n", w->metric);
}

struct common {
	uint64_t iterations;
	uint64_t warmup;
	int sync;
	const char *out;
	const char *workdir;
	double interval;
	const char *variant;
	int append;
	int check;
	int help;
};

/*
 * The harness's own options; the table drives their parsing, --help and
 * --check as a bench's table does its.  --discard and --sync are how an
 * iteration is prepared (vb_main(), iterate()): both go into the
 * result as notes, so a reader sees that the figures are of the
 * iterations after the warm-up, each started after a sync().
 */
static const struct vb_opt common_opts[] = {
	{ .name = "iterations", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct common, iterations), .def = "1",
	  .min = 1, .max = 100000, .help = "iterations" },
	{ .name = "discard", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct common, warmup), .def = "0",
	  .min = 0, .max = 100, .help = "iterations run first and "
	  "discarded (noted in the result)" },
	{ .name = "sync", .type = VB_OPT_FLAG,
	  .off = offsetof(struct common, sync),
	  .help = "sync() before each iteration, outside its clock" },
	{ .name = "out", .type = VB_OPT_STR, .arg = "PREFIX",
	  .off = offsetof(struct common, out),
	  .help = "write PREFIX.res and PREFIX.vmstat" },
	{ .name = "workdir", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct common, workdir),
	  .help = "folder for temporary files (default $VMBENCH_WORKDIR "
	  "or /var/tmp)" },
	{ .name = "interval", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct common, interval), .def = "1",
	  .dmin = 0.01, .dmax = 60, .help = "vmstat sampling interval" },
	{ .name = "variant", .type = VB_OPT_STR, .arg = "NAME",
	  .off = offsetof(struct common, variant),
	  .help = "variant name recorded in the result" },
	{ .name = "append", .type = VB_OPT_FLAG,
	  .off = offsetof(struct common, append),
	  .help = "add the iterations to an existing PREFIX.res" },
	{ .name = "check", .type = VB_OPT_FLAG,
	  .off = offsetof(struct common, check),
	  .help = "validate the options and exit" },
	{ .name = "help", .type = VB_OPT_FLAG,
	  .off = offsetof(struct common, help), .help = "this text" },
	{ 0 },
};

static void
usage(const struct vb_bench *b, FILE *f)
{
	const struct vb_mode *mode;

	fprintf(f, "usage: %s [options]\n%s.\n\nOptions:\n", b->name,
	    b->summary);
	vb_opt_usage(f, b->opts);
	fprintf(f, "\nCommon options:\n");
	vb_opt_usage(f, common_opts);
	usage_figures(f, NULL, b->metrics);
	for (mode = b->modes; mode && mode->flag; mode++)
		usage_figures(f, mode->flag, mode->metrics);
	usage_work(f, b->work);
}

/*
 * The figures and headline of this run: the bench's, or those of the
 * first mode whose flag @cfg has set (after parsing).
 */
static void
pick_mode(const struct vb_bench *b, const void *cfg)
{
	const struct vb_mode *mode;

	R.metrics = b->metrics;
	R.headline = b->headline;
	for (mode = b->modes; mode && mode->flag; mode++) {
		int on = vb_opt_flag(b->opts, cfg, mode->flag);

		if (on < 0)
			die("bug: mode --%s is not a flag of %s", mode->flag,
			    b->name);
		if (on) {
			R.metrics = mode->metrics;
			R.headline = mode->headline;
			return;
		}
	}
}

/*
 * Split argv between the common options and the bench's: a common
 * option is recognised by name, everything else goes to the bench
 * table, which reports unknown options.
 */
static void
parse_args(const struct vb_bench *b, int argc, char **argv,
    struct common *c, void *cfg)
{
	char **mine = calloc((size_t)argc + 1, sizeof(char *));
	char **theirs = calloc((size_t)argc + 1, sizeof(char *));
	const struct vb_opt *co;
	int nm = 0, nt = 0, i;
	char err[512];

	if (!mine || !theirs)
		die("out of memory");
	/* a bench option the harness's would shadow is a program's bug */
	for (co = common_opts; co->name; co++)
		if (b->opts && vb_opt_find(b->opts, co->name))
			die("--%s is both %s's and the harness's option",
			    co->name, b->name);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct vb_opt *o = NULL;

		if (strncmp(a, "--", 2) == 0) {
			char name[64];
			size_t n = strcspn(a + 2, "=");

			snprintf(name, sizeof(name), "%.*s", (int)n, a + 2);
			o = vb_opt_find(common_opts, name);
		}
		if (o) {
			mine[nm++] = argv[i];
			if (o->type != VB_OPT_FLAG && !strchr(a, '=') &&
			    i + 1 < argc)
				mine[nm++] = argv[++i];
		} else {
			theirs[nt++] = argv[i];
		}
	}
	if (vb_opt_parse(common_opts, c, nm, mine, NULL, err,
	    sizeof(err)) < 0)
		die("%s", err);
	if (c->help) {
		usage(b, stdout);
		exit(0);
	}
	if (vb_opt_parse(b->opts, cfg, nt, theirs, NULL, err, sizeof(err)) < 0)
		die("%s", err);
	free(mine);
	free(theirs);
}

/* "forkbomb --forks 10000 --ints 10000" for the result file. */
static void
record_params(const struct vb_bench *b, void *cfg, int argc, char **argv)
{
	const struct vb_opt *o;
	struct vb_buf cmd = VB_BUF_INIT;
	char val[256];
	int i;

	vb_buf_printf(&cmd, "%s", b->name);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--append") == 0)
			continue;	/* how it ran, not what */
		if (strncmp(argv[i], "--out", 5) == 0 ||
		    strncmp(argv[i], "--workdir", 9) == 0 ||
		    strncmp(argv[i], "--interval", 10) == 0 ||
		    strncmp(argv[i], "--iterations", 12) == 0 ||
		    strncmp(argv[i], "--variant", 9) == 0) {
			if (!strchr(argv[i], '='))
				i++;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1] != '-' && (o =
		    vb_opt_find_letter(b->opts, argv[i][1]))) {
			/* -j4, -j 4: written --jobs 4, as the table names it */
			vb_buf_printf(&cmd, " --%s", o->name);
			if (o->type == VB_OPT_FLAG)
				continue;
			if (argv[i][2])
				vb_buf_printf(&cmd, " %s", argv[i] + 2);
			else if (i + 1 < argc)
				vb_buf_printf(&cmd, " %s", argv[++i]);
			continue;
		}
		vb_buf_printf(&cmd, " %s", argv[i]);
	}
	vb_res_set_cmdline(&R.res, cmd.s);
	vb_buf_free(&cmd);
	for (o = b->opts; o && o->name; o++) {
		vb_opt_format(o, cfg, val, sizeof(val));
		/* values are single words in the file */
		for (i = 0; val[i]; i++)
			if (val[i] == ' ' || val[i] == '\t')
				val[i] = '_';
		vb_res_add_param(&R.res, o->name, val[0] ? val : "-");
	}
}

static void
progress(int iter, int n, double secs)
{
	char line[128];
	int len;

	if (R.progress_fd < 0)
		return;
	len = snprintf(line, sizeof(line), "iter %d %d %.3f\n", iter, n, secs);
	/* the runner is gone (EPIPE): carry on without it */
	if (write(R.progress_fd, line, (size_t)len) < 0) {
		R.progress_fd = -1;
		vb_set_err_copy(-1);
	}
}

/* One "name value" line from the child into the row @arg. */
static void
figure_line(void *arg, char *line)
{
	char name[VB_NAMELEN];
	double v, *row = arg;

	if (sscanf(line, "%63s %lf", name, &v) == 2) {
		int m = vb_res_metric_index(&R.res, name);

		if (m >= 0)
			row[m] = v;
	}
}

/* Read "name value" lines from the child into @row. */
static void
read_figures(int fd, double *row)
{
	vb_read_lines(fd, 65536, &stop_signal, figure_line, row);
}

void
vb_std_row(double *row, const struct vb_rusage *u, const struct vb_snap *b,
    const struct vb_snap *a)
{
	uint64_t d[VB_NCTR];
	uint32_t present;
	int i;

	row[0] = u->elapsed;
	row[1] = u->user;
	row[2] = u->sys;
	row[3] = vb_rusage_cpu_pct(u);
	row[4] = (double)u->minflt;
	row[5] = (double)u->majflt;
	row[6] = (double)u->nvcsw;
	row[7] = (double)u->nivcsw;
	row[8] = (double)u->inblock;
	row[9] = (double)u->oublock;
	row[10] = (double)u->maxrss;
	if (!a || !b)
		return;
	vb_snap_delta(b, a, d, &present);
	for (i = 0; i < VB_NCTR; i++) {
		if (!(present & (1u << i)))
			continue;	/* absent on this kernel: "-" */
		if (i == VB_PSWPIN || i == VB_PSWPOUT)
			row[VB_STD_RUSAGE + i] = vb_pages_kb(d[i]);
		else
			row[VB_STD_RUSAGE + i] = (double)d[i];
	}
}

static double
tv_s(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	    (double)(b->tv_usec - a->tv_usec) / 1e6;
}

/*
 * The CPU the rest of the machine used from @a to @b, in % of one CPU
 * (src/lib/scope.h): busy time of /proc/stat, less kernel threads, less
 * our own processes (the harness, every child reaped since @a, the
 * sampler, the runner and a probe).  Tick-grained: can be a little
 * below 0 for a quiet, short iteration.
 */
static double
foreign_cpu(const struct vb_snap *a, const struct vb_snap *b,
    const struct vb_cpuown *oa, const struct vb_cpuown *ob,
    const struct rusage *sa, const struct rusage *sb,
    const struct rusage *ka, const struct rusage *kb)
{
	double hz = (double)sysconf(_SC_CLK_TCK), busy, ours;

	if (hz <= 0)
		return NAN;
	/*
	 * Busy = every CPU's time less idle, iowait and steal: the kernel
	 * measures idle time exactly (nohz), while user and system are
	 * sampled at each tick, which misses ~5% of a fork-heavy load.
	 */
	busy = (double)sysconf(_SC_NPROCESSORS_ONLN) * (double)(b->t_ns -
	    a->t_ns) / 1e9 - ((double)(b->cpu_idle + b->cpu_iowait +
	    b->cpu_steal) - (double)(a->cpu_idle + a->cpu_iowait +
	    a->cpu_steal)) / hz;
	/* interrupts serve the benchmark's own I/O as much as anyone's */
	busy -= ((double)(b->cpu_irq + b->cpu_softirq) -
	    (double)(a->cpu_irq + a->cpu_softirq)) / hz;
	ours = tv_s(&sa->ru_utime, &sb->ru_utime) +
	    tv_s(&sa->ru_stime, &sb->ru_stime) +
	    tv_s(&ka->ru_utime, &kb->ru_utime) +
	    tv_s(&ka->ru_stime, &kb->ru_stime) +
	    ((double)ob->ours - (double)oa->ours) / hz;
	return vb_foreign_cpu(busy, (double)vb_cpuown_kthread_delta(oa, ob) /
	    hz, ours, (double)(b->t_ns - a->t_ns) / 1e9);
}

/*
 * The memory columns (foreign_metric[1..4]): the memory others held at
 * the iteration's start (@a, with our own processes' resident memory in
 * @own), MemTotal, MemAvailable at the start and the lowest MemAvailable
 * of the start, the end (@b) and the sampler's readings in between
 * (once a second).  NAN where the kernel has no MemAvailable.
 */
static void
mem_row(double *row, const struct vb_snap *a, const struct vb_snap *b,
    const struct vb_cpuown *own)
{
	uint64_t lo = vb_sampler_mem_min(&R.sampler);

	row[0] = vb_foreign_mem_kb((double)a->mem_total,
	    (double)a->mem_available, (double)own->ours_rss_kb);
	row[1] = a->mem_total ? (double)a->mem_total : NAN;
	if (!a->mem_available || !b->mem_available) {
		row[2] = row[3] = NAN;
		return;
	}
	row[2] = (double)a->mem_available;
	if (a->mem_available < lo)
		lo = a->mem_available;
	if (b->mem_available < lo)
		lo = b->mem_available;
	row[3] = (double)lo;
}

/*
 * SIGPIPE in an iteration (iteration_sigpipe()): the workload keeps
 * the default action (a load's ring of pipes ends by it), but output is
 * a courtesy: when stdout, stderr or the runner's progress pipe has
 * lost its reader (`| head`), poll() says POLLERR (a socket: POLLHUP),
 * and the signal is taken as that write's failure, EPIPE, not as the
 * end of the iteration.  A handler, not SIG_IGN: a program run() execs
 * starts with the default action again.
 */
static void
on_iteration_sigpipe(int sig)
{
	struct pollfd p[3] = {
		{ .fd = 1 }, { .fd = 2 }, { .fd = R.progress_fd },
	};
	int e = errno, i;

	if (poll(p, 3, 0) > 0)
		for (i = 0; i < 3; i++)
			if (p[i].revents & (POLLERR | POLLHUP)) {
				errno = e;
				return;
			}
	/* any other pipe: the default action, once the handler returns */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = e;
}

/* In an iteration child, before run(): SIGPIPE as said above. */
static void
iteration_sigpipe(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_iteration_sigpipe;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/*
 * In the forked iteration child (.exec_run): re-execute the program
 * with the figures pipe @fd and nothing else open but stdio and the
 * runner's progress pipe; iteration_main() takes over.  The process
 * (pid, process group, death signal, rusage, cgroup) stays the same:
 * only its memory is a plain program's.  Returns if the exec fails
 * (no /proc), and run() then runs here, as without .exec_run.
 */
static void
exec_iteration(int num, int fd)
{
	char env[sizeof(R.workdir) + 64];

	snprintf(env, sizeof(env), "%ld %d %d %s", (long)getppid(), num, fd,
	    R.workdir);
	if (setenv(VB_ITER_ENV, env, 1) < 0)
		return;
	/* .fixed_layout: the new image's layout is not randomised */
	if (R.b->fixed_layout)
		personality((unsigned long)personality(0xffffffff) |
		    ADDR_NO_RANDOMIZE);
	/* not close(): on failure the child goes on with what it had */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	fcntl(fd, F_SETFD, 0);
	if (R.progress_fd >= 0)
		fcntl(R.progress_fd, F_SETFD, 0);
	execv("/proc/self/exe", R.argv);
	unsetenv(VB_ITER_ENV);
}

/*
 * The exec'd iteration child (see exec_iteration()): parse the options
 * as the harness did and run one iteration.  Never returns.  @env is
 * VMBENCH_ITERATION's value, already checked to name our parent.
 */
static void
iteration_main(const struct vb_bench *b, int argc, char **argv,
    const char *env, long ppid)
{
	struct common c;
	struct vb_iter it;
	const char *p;
	char *workdir, err[512];
	void *cfg;
	int num, fd, n = 0, rc;

	if (sscanf(env, "%*d %d %d %n", &num, &fd, &n) != 2 || n == 0)
		die("%s: malformed: %s", VB_ITER_ENV, env);
	p = env + n;
	if (!(workdir = strdup(p)) || !(cfg = calloc(1, b->cfg_size ?
	    b->cfg_size : 1)))
		die("out of memory");
	unsetenv(VB_ITER_ENV);
	/* kept across execve(), but said again: the harness may be gone */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != (pid_t)ppid)
		_exit(1);
	/* as the forked child had them: not inherited by what run() execs */
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	p = getenv("VMBENCH_PROGRESS_FD");
	if (p && *p) {
		R.progress_fd = atoi(p);
		fcntl(R.progress_fd, F_SETFD, FD_CLOEXEC);
		vb_set_err_copy(R.progress_fd);
	}
	parse_args(b, argc, argv, &c, cfg);
	pick_mode(b, cfg);
	/* what validate() derives (vmlat's helper path) is part of cfg */
	if (b->validate && b->validate(cfg, err, sizeof(err)) < 0)
		die("%s", err);
	iteration_sigpipe();
	it.num = num;
	it.fd = fd;
	it.workdir = workdir;
	it.bench = b->name;
	it.metrics = R.metrics;
	rc = b->run(cfg, &it);
	fflush(NULL);
	_exit(rc == 0 ? 0 : 1);
}

/*
 * A warm-up iteration's record: a note in the result with its elapsed
 * time and headline, and the same on stdout (the log).
 */
static void
warmup_note(const double *row, const struct vb_rusage *u)
{
	char hl[128] = "";
	int h;

	if (R.res.headline[0] &&
	    (h = vb_res_metric_index(&R.res, R.res.headline)) >= 0)
		snprintf(hl, sizeof(hl), ", %s %.6g %s", R.res.headline,
		    row[h], R.res.metrics[h].unit);
	vb_note("warm-up iteration (not recorded): elapsed %.3f s%s",
	    u->elapsed, hl);
	printf("warm-up iteration (not recorded): elapsed %.3f s%s\n",
	    u->elapsed, hl);
	fflush(stdout);
}

/*
 * One iteration; 0, or -1 after a signal, or the child's failure.
 * @keep 0: a warm-up (--discard), run and measured as any other but not
 * added to the result: a note says it ran and what its headline was.
 */
static int
iterate(int num, struct vb_proc *proc, int keep)
{
	struct vb_snap a, b;
	struct vb_rusage u;
	struct rusage ru, self_a, self_b, kids_a, kids_b;
	struct vb_cgsnap cga, cgb;
	struct vb_psisnap pa, pb, cpa, cpb;
	struct vb_cpuown own_a, own_b;
	struct vb_iter it;
	uint64_t t0, t1;
	double row[1024];
	double *dst;
	int fds[2], status, i;
	pid_t pid;

	for (i = 0; i < R.res.nmetrics; i++)
		row[i] = NAN;
	if (pipe2(fds, O_CLOEXEC) < 0)
		die_errno("cannot create a pipe");
	/*
	 * --sync: what earlier work (an iteration, a benchmark before
	 * this one) left dirty is written back before the snapshots and
	 * the clock, so that no iteration pays for another's writeback.
	 */
	if (R.sync)
		sync();
	vb_sampler_set_iter(&R.sampler, num);
	vb_sampler_mem_reset(&R.sampler);
	vb_cgroup_reset_peak(&R.cg);
	vb_cgroup_read(&R.cg, &cga);
	vb_cpuown_read(R.proc_root, R.sampler.pid, &own_a);
	getrusage(RUSAGE_SELF, &self_a);
	getrusage(RUSAGE_CHILDREN, &kids_a);
	if (vb_proc_read(proc, &a) < 0)
		die_errno("cannot read %s", R.proc_root);
	vb_psi_read(&R.psi, &pa);
	if (R.cg_psi_col >= 0)
		vb_psi_read(&R.cg_psi, &cpa);
	vb_trace_start(&R.tr);
	t0 = vb_now_ns();
	pid = fork();
	if (pid < 0)
		die_errno("cannot fork");
	if (pid == 0) {
		struct sigaction sa = { .sa_handler = SIG_DFL };

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		/*
		 * The workload runs with the signals a program normally has:
		 * the harness ignores SIGPIPE for its own output only (a
		 * load's pipe ring stops by SIGPIPE when the load ends), and
		 * so does the iteration, for the output it shares.
		 */
		iteration_sigpipe();
		vb_set_die_hook(NULL, NULL);
		munlockall();
		close(fds[0]);
		if (R.exec_run)
			exec_iteration(num, fds[1]);
		it.num = num;
		it.fd = fds[1];
		it.workdir = R.workdir;
		it.bench = R.b->name;
		it.metrics = R.metrics;
		i = R.b->run(R.cfg, &it);
		fflush(NULL);
		_exit(i == 0 ? 0 : 1);
	}
	setpgid(pid, pid);	/* both sides, to close the race */
	R.child = pid;
	if (stop_signal)
		kill(-pid, SIGKILL);
	close(fds[1]);
	read_figures(fds[0], row);
	close(fds[0]);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR)
			die_errno("cannot wait for iteration %d", num);
	}
	t1 = vb_now_ns();
	vb_trace_stop(&R.tr);
	vb_psi_read(&R.psi, &pb);
	if (R.cg_psi_col >= 0)
		vb_psi_read(&R.cg_psi, &cpb);
	/*
	 * Nothing of the iteration may outlive it: kill what is left of its
	 * process group and reap descendants that were orphaned to us (we
	 * are their subreaper), so no process or zombie is left behind.
	 */
	kill(-pid, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	R.child = 0;
	vb_sampler_set_iter(&R.sampler, 0);
	if (stop_signal || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		vb_cpuown_free(&own_a);
	if (stop_signal)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			vb_warn("iteration %d failed: killed by signal %d (%s)",
			    num, WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			vb_warn("iteration %d failed: exit status %d", num,
			    WEXITSTATUS(status));
		return -2;
	}
	if (vb_proc_read(proc, &b) < 0)
		die_errno("cannot read %s", R.proc_root);
	vb_rusage_from(&u, &ru, vb_ns_to_s(t1 - t0));
	vb_std_row(row, &u, &b, &a);
	getrusage(RUSAGE_SELF, &self_b);
	getrusage(RUSAGE_CHILDREN, &kids_b);
	vb_cpuown_read(R.proc_root, R.sampler.pid, &own_b);
	row[R.foreign_col] = foreign_cpu(&a, &b, &own_a, &own_b, &self_a,
	    &self_b, &kids_a, &kids_b);
	mem_row(row + R.mem_col, &a, &b, &own_a);
	vb_cpuown_free(&own_a);
	vb_cpuown_free(&own_b);
	if (R.cg_col >= 0) {
		vb_cgroup_read(&R.cg, &cgb);
		vb_cgroup_row(row + R.cg_col, &cgb, &cga);
	}
	vb_psi_row(row + R.psi_col, &pb, &pa);
	if (R.cg_psi_col >= 0)
		vb_psi_row(row + R.cg_psi_col, &cpb, &cpa);
	if (R.tr_col >= 0 && vb_trace_read(&R.tr, row + R.tr_col) < 0)
		vb_warn_errno("iteration %d: cannot read %s/trace", num,
		    R.tr.inst);
	if (!keep) {
		warmup_note(row, &u);
		return 0;
	}
	dst = vb_res_add_iter(&R.res);
	memcpy(dst, row, (size_t)R.res.nmetrics * sizeof(double));
	{
		char tl[256];

		printf("iteration %d: %s", num, vb_rusage_tcsh(tl, sizeof(tl),
		    &u));
		if (R.res.headline[0]) {
			int h = vb_res_metric_index(&R.res, R.res.headline);

			printf("  %s %.6g %s", R.res.headline, row[h],
			    R.res.metrics[h].unit);
		}
		putchar('\n');
		fflush(stdout);
	}
	return 0;
}

/*
 * --append (make ab): continue the result @path, which must be of the
 * same benchmark, variant, parameters and columns; its iterations come
 * first and the new ones are numbered after them.
 */
static void
append_to(const char *path)
{
	struct vb_res old;
	char err[512];

	if (vb_res_read(path, &old, err, sizeof(err)) < 0)
		die("cannot append: %s", err);
	if (vb_res_append(&R.res, &old) < 0)
		die("cannot append to %s: it holds another benchmark, "
		    "variant, parameters or set of figures", path);
	snprintf(R.res.started, sizeof(R.res.started), "%s", old.started);
	R.first_iter = old.niter + 1;
	if (strcmp(old.status, "complete") != 0 &&
	    strcmp(old.status, "running") != 0)
		snprintf(R.prior_status, sizeof(R.prior_status), "%s",
		    old.status);
	vb_res_free(&old);
}

/* Add @m's columns ({ 0 }-terminated); the first one's index. */
static int
add_columns(const struct vb_metric *m)
{
	int first = R.res.nmetrics;

	for (; m->name; m++)
		vb_res_set_key(&R.res, vb_res_add_metric(&R.res, m->name,
		    m->unit, m->dir), m->key);
	return first;
}

/*
 * The pressure columns, after the cgroup's: PSI always (absent where
 * the kernel has none), the cgroup's PSI with a cgroup, and the
 * tracepoint figures when tracing is asked for (trace.h); each source
 * that is not there is said in one line, its figures absent.
 */
static void
pressure_columns(void)
{
	vb_psi_system(&R.psi, R.proc_root);
	R.psi_col = add_columns(vb_psi_metrics);
	if (!vb_psi_present(&R.psi))
		vb_warn("no %s (a kernel without PSI, or booted with psi=0): "
		    "no pressure stall figures", R.psi.mem);
	R.cg_psi_col = -1;
	if (R.cg_col >= 0) {
		vb_psi_cgroup(&R.cg_psi, R.cg.path);
		R.cg_psi_col = add_columns(vb_cg_psi_metrics);
		if (!vb_psi_present(&R.cg_psi))
			vb_warn("the memory cgroup (v%d) has no "
			    "memory.pressure: no cgroup pressure figures, "
			    "only the system-wide ones", R.cg.version);
	}
	R.tr_col = -1;
	if (vb_trace_wanted())
		R.tr_col = add_columns(vb_trace_metrics);
}

/*
 * Tracing on, when asked for: what a killed run left first, then our
 * own instance; what is not there is one line, and the run goes on.
 */
static void
open_trace(void)
{
	char why[8192];

	if (R.tr_col < 0)
		return;
	vb_trace_recover();
	if (vb_trace_open(&R.tr, why, sizeof(why)) < 0 || why[0])
		vb_warn("%s", why);
}

static void
print_summary(void)
{
	int m;

	printf("\n%s%s%s: %d iteration%s, %s\n", R.res.bench,
	    strcmp(R.res.variant, "default") ? "@" : "",
	    strcmp(R.res.variant, "default") ? R.res.variant : "",
	    R.res.niter, R.res.niter == 1 ? "" : "s", R.res.status);
	printf("  %-20s %-8s %12s %10s %6s %12s %12s\n", "metric", "unit",
	    "mean", "sd", "cov%", "min", "max");
	for (m = 0; m < R.res.nmetrics; m++) {
		struct vb_desc d;

		vb_describe(R.res.vals + m, (size_t)R.res.niter,
		    (size_t)R.res.nmetrics, &d);
		if (d.n == 0)
			continue;
		printf("  %-20s %-8s %12.6g %10.4g %6.2f %12.6g %12.6g\n",
		    R.res.metrics[m].name, R.res.metrics[m].unit, d.mean, d.sd,
		    isnan(d.cov) ? 0.0 : d.cov * 100, d.min, d.max);
	}
	fflush(stdout);
}

int
vb_main(const struct vb_bench *b, int argc, char **argv)
{
	struct common c;
	struct sigaction sa;
	struct vb_proc proc;
	const struct vb_metric *m;
	char err[512];
	const char *env;
	int i, rc = 0;

	vb_set_progname(b->name);
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* an iteration child of ours, exec'd (.exec_run): run() only */
	env = getenv(VB_ITER_ENV);
	if (env) {
		long ppid = strtol(env, NULL, 10);

		if (ppid > 1 && ppid == (long)getppid())
			iteration_main(b, argc, argv, env, ppid);
		unsetenv(VB_ITER_ENV);	/* not for us */
	}
	/*
	 * Output is a courtesy: a closed stdout, stderr or progress pipe
	 * (`| head`, a runner that is gone) fails its writes with EPIPE,
	 * which stops the printing, never the run or its clean-up.
	 */
	signal(SIGPIPE, SIG_IGN);
	R.b = b;
	R.argv = argv;
	env = getenv("VMBENCH_EXEC");
	R.exec_run = b->exec_run && !(env && strcmp(env, "0") == 0);
	R.cfg = calloc(1, b->cfg_size ? b->cfg_size : 1);
	if (!R.cfg)
		die("out of memory");
	parse_args(b, argc, argv, &c, R.cfg);
	pick_mode(b, R.cfg);
	if (b->validate && b->validate(R.cfg, err, sizeof(err)) < 0)
		die("%s", err);
	if (!c.workdir)
		c.workdir = getenv("VMBENCH_WORKDIR");
	if (!c.workdir || !*c.workdir)
		c.workdir = "/var/tmp";
	if (c.check)
		return 0;
	env = getenv("VMBENCH_PROGRESS_FD");
	if (env && *env) {
		R.progress_fd = atoi(env);
		fcntl(R.progress_fd, F_SETFD, FD_CLOEXEC);
		/* error lines reach the runner even if the log cannot */
		vb_set_err_copy(R.progress_fd);
	}
	R.proc_root = getenv("VMBENCH_PROC");
	if (!R.proc_root || !*R.proc_root)
		R.proc_root = "/proc";

	/* the result: standard columns, then the bench's own */
	vb_res_init(&R.res, b->name, c.variant);
	vb_iso_time(R.res.started, sizeof(R.res.started));
	record_params(b, R.cfg, argc, argv);
	for (m = vb_std_metrics; m->name; m++)
		vb_res_set_key(&R.res, vb_res_add_metric(&R.res, m->name,
		    m->unit, m->dir), m->key);
	R.foreign_col = vb_res_add_metric(&R.res, foreign_metric->name,
	    foreign_metric->unit, foreign_metric->dir);
	R.mem_col = R.res.nmetrics;
	for (m = foreign_metric + 1; m->name; m++)
		vb_res_add_metric(&R.res, m->name, m->unit, m->dir);
	R.cg_col = -1;
	if (vb_cgroup_from_env(&R.cg) == 0) {
		R.cg_col = R.res.nmetrics;
		for (m = vb_cg_metrics; m->name; m++)
			vb_res_set_key(&R.res, vb_res_add_metric(&R.res,
			    m->name, m->unit, m->dir), m->key);
	}
	pressure_columns();
	for (m = R.metrics; m && m->name; m++) {
		if (vb_res_metric_index(&R.res, m->name) >= 0)
			die("bug: metric '%s' defined twice", m->name);
		vb_res_set_key(&R.res, vb_res_add_metric(&R.res, m->name,
		    m->unit, m->dir), m->key);
	}
	for (i = 0; b->work && b->work[i].metric; i++) {
		int w = vb_res_metric_index(&R.res, b->work[i].metric);

		if (w < 0)
			die("bug: work figure '%s' is not a metric",
			    b->work[i].metric);
		vb_res_set_work(&R.res, w, b->work[i].tol_pct);
	}
	if (R.res.nmetrics > 1024)
		die("bug: too many metrics");
	if (R.headline)
		snprintf(R.res.headline, sizeof(R.res.headline), "%s",
		    R.headline);
	if (c.out) {
		snprintf(R.res_path, sizeof(R.res_path), "%s.res", c.out);
		snprintf(R.vm_path, sizeof(R.vm_path), "%s.vmstat", c.out);
	}
	R.first_iter = 1;
	if (c.append && R.res_path[0] && access(R.res_path, F_OK) == 0)
		append_to(R.res_path);

	vb_set_die_hook(die_hook, NULL);
	/* orphans of an iteration come back to us, to be killed and reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: wait4() returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	snprintf(R.workdir, sizeof(R.workdir), "%s/vmbench-%s.%ld", c.workdir,
	    b->name, (long)getpid());
	if (mkdir(R.workdir, 0700) < 0)
		die_errno("cannot create work folder %s", R.workdir);
	R.have_workdir = 1;
	if (R.res_path[0] && vb_res_save(R.res_path, &R.res, "running") < 0) {
		R.write_failed = 1;
		die_errno("cannot write %s", R.res_path);
	}

	if (R.vm_path[0]) {
		/* never through a symlink planted beside --out (util.h) */
		int fd = c.append ? vb_open_own(R.vm_path, O_WRONLY | O_APPEND,
		    0644) : vb_create(R.vm_path, O_WRONLY, 0644);

		if (fd < 0 || !(R.vmf = fdopen(fd, c.append ? "a" : "w")))
			die_errno("cannot create %s", R.vm_path);
	}
	if (vb_sampler_start(&R.sampler, R.proc_root, R.vmf,
	    (uint64_t)(c.interval * 1e9)) < 0) {
		if (errno == ENOSPC || errno == EDQUOT || errno == EIO)
			die_errno("cannot write %s", R.vm_path);
		die_errno("cannot start the vmstat sampler on %s",
		    R.proc_root);
	}
	R.sampling = 1;
	if (vb_proc_open(&proc, R.proc_root) < 0)
		die_errno("cannot open %s", R.proc_root);

	if (b->setup && !stop_signal) {
		if (b->setup(R.cfg, R.workdir) < 0)
			die("setup failed");
		R.setup_done = 1;
	}
	open_trace();
	/*
	 * Lock the harness (not the children: locks are not inherited) so
	 * that memory pressure cannot stall its bookkeeping (the sampler
	 * process locks itself).
	 * After setup(), so that what setup() allocated and freed is not
	 * pinned.  Failure (RLIMIT_MEMLOCK without root) only costs that
	 * guarantee.  MCL_ONFAULT (Linux 4.4) locks pages as they are
	 * touched instead of populating every mapping: populated, the
	 * harness's whole heap, stack and /proc buffers (920K of anonymous
	 * memory instead of 150K) were inherited by each iteration child,
	 * and every fork() a benchmark makes copied their page tables
	 * (forkbomb: ~25% more CPU and wall time per fork, see make
	 * bench-overhead).
	 */
	if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) < 0 &&
	    (errno != EINVAL || mlockall(MCL_CURRENT | MCL_FUTURE) < 0) &&
	    geteuid() == 0)
		vb_warn_errno("mlockall");
	/* .fixed_layout: said in the result, as --discard and --sync */
	if (R.exec_run && b->fixed_layout)
		vb_note("address-space layout fixed (ADDR_NO_RANDOMIZE, as "
		    "setarch -R) for the iteration and what it forks");
	/*
	 * --discard: warm-up iterations that pay for what the first one alone
	 * would (memory the machine hands out for the first time, files
	 * and page tables met for the first time), run like the others
	 * and dropped; a failed one fails the run as an iteration would.
	 */
	R.sync = c.sync;
	if (c.sync)
		vb_note("sync() before each iteration (and warm-up), "
		    "outside its clock");
	rc = 0;
	for (i = 0; i < (int)c.warmup && !stop_signal && rc == 0; i++)
		rc = iterate(0, &proc, 0);
	for (i = 1; i <= (int)c.iterations && !stop_signal && rc == 0;
	    i++) {
		uint64_t t = vb_now_ns();

		progress(i, (int)c.iterations, 0);
		rc = iterate(R.first_iter - 1 + i, &proc, 1);
		if (rc < 0)
			break;
		progress(i, (int)c.iterations, vb_elapsed_s(t));
		check_sampler(i);
		/* what cannot be recorded need not be measured */
		if (R.write_failed || save("running") < 0)
			break;
	}
	vb_proc_close(&proc);
	vb_set_die_hook(NULL, NULL);
	check_sampler(i > (int)c.iterations ? (int)c.iterations : i);
	cleanup();
	if (R.sampler.err && !R.write_failed) {
		errno = R.sampler.err;
		vb_warn_errno("cannot write %s", R.vm_path);
		vb_res_add_note(&R.res, "vmstat series incomplete: cannot "
		    "write it: %s", strerror(R.sampler.err));
		R.write_failed = 1;
	}
	if (R.write_failed) {
		save("failed");
		print_summary();
		rc = 1;
	} else if (stop_signal) {
		save("interrupted");
		print_summary();
		fprintf(stderr, "%s: interrupted by signal %d after %d "
		    "iteration%s\n", b->name, (int)stop_signal, R.res.niter,
		    R.res.niter == 1 ? "" : "s");
		rc = 130;
	} else if (rc < 0) {
		save("failed");
		rc = 1;
	} else if (save("complete") < 0) {
		rc = 1;
	} else {
		print_summary();
	}
	vb_res_free(&R.res);
	free(R.cfg);
	return rc;
}
