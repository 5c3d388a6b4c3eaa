/*
 * overhead.c - what the harness itself costs (`make bench-overhead`).
 *
 * 1. The vmstat sampler's CPU cost.  Seven processes run side by side
 *    over the same span: two procps `vmstat -n 1`; three that run
 *    nothing but the vmbench sampler (src/lib/vmstat.c, a process of its
 *    own, counted with the one that started it), two at 1 Hz and one
 *    at 10 Hz, each writing its rows to a file as the harness does; and
 *    two floors, started just before and just after the 10 Hz sampler:
 *    bare loops that sleep to the same 10 Hz deadlines and read the
 *    same bytes of the same files, parsing and writing nothing (what
 *    any 10 Hz reader of these figures must pay on this machine).
 *    Pairs, because two copies of one program differ by up to a factor
 *    of two on a loaded VM: the 1 Hz figures are the pairs' sums, the
 *    floor the floors' mean.  Their start times are staggered so that
 *    their wake-ups do not coincide (a CPU that wakes once for two of
 *    them charges each less).  After a warm-up (so start-up, exec and the first read are
 *    excluded) the on-CPU time of every thread of each process is read
 *    from /proc/PID/task/TID/schedstat (the scheduler's sum_exec_runtime,
 *    in ns, user and kernel time together; /proc/PID/stat's ticks are
 *    too coarse for a few ms) at the edges of windows of about 5 s;
 *    each figure judged is the median over the windows.  Two rounds:
 *    the machine idle, then every CPU kept busy by a CPU-bound process,
 *    as a benchmark keeps it (the sampler then takes its time from the
 *    benchmark; waking an idle CPU costs more on a virtual machine, but
 *    takes nothing from anybody).  Targets, in each round: the 1 Hz
 *    sampler costs no more than vmstat 1 (median of the per-window
 *    ratios); the 10 Hz sampler's CPU time above the floor's, its own
 *    work, at most 20 us a sample (or, when the two floors came out
 *    further apart than that, within 20 us plus their distance, with
 *    its own code measured inside it by tools/sampler_phases at most
 *    20 us); and in the busy round the 10 Hz sampler under 0.1% of
 *    one CPU, or, where the floor measured in the same windows takes
 *    about that itself, no more than the floor's share plus 20 us a
 *    sample (0.02%).  Before each round,
 *    tools/sampler_phases splits a 10 Hz sampler's CPU time by phase
 *    (the wake-up, each file's read, the writing, its own code).
 *
 * 2. forkbomb's microseconds per fork against a bare loop.  The bare
 *    loop is this program re-executed (a fresh, small process) doing
 *    exactly forkbomb's child work: fork, the child mallocs and writes
 *    --ints ints and _exit()s, the parent wait()s, timed with
 *    CLOCK_MONOTONIC around the whole loop.  forkbomb runs the same
 *    loop under the full harness (the sampler at its default 1 Hz, an
 *    mlockall'd parent, an iteration child that re-executes the
 *    program: src/lib/harness.h's .exec_run); its us_per_fork is read back
 *    from its .res file.  A third side runs forkbomb with
 *    VMBENCH_EXEC=0, the loop in the forked harness child, which
 *    carries the harness's memory and mappings into every fork: the
 *    effect of .exec_run, measured in the same run.  The machine is
 *    shared and noisy, so the sides run as triples whose order rotates
 *    through the six permutations, and every figure is a median of
 *    per-triple ratios.  Target: forkbomb within 5% of the bare loop.
 *    It also prints the CPU time per fork of each side's process tree
 *    (wait4() of the bare process; the user and sys of forkbomb's
 *    .res, which cover its iteration child and the processes it
 *    forked), far less sensitive to the other work on the machine
 *    than wall time.
 *
 * Exit status 0 when every target is met; else 1, the last line naming
 * what missed.  Temporary files go to a private folder under $TMPDIR
 * (or /tmp), removed at the end.  Not a unit test: it takes about two
 * minutes.
 *
 *	tools/overhead [--span S] [--part all|sampler|fork] [--pairs N]
 *	    [--forks N] [--ints M]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "msg.h"
#include "opt.h"
#include "res.h"
#include "stats.h"
#include "util.h"
#include "vmstat.h"

struct cfg {
	double span;
	const char *part;
	uint64_t pairs;
	uint64_t forks;
	uint64_t ints;
};

static const struct vb_opt opts[] = {
	{ .name = "span", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct cfg, span), .def = "40",
	  .dmin = 5, .dmax = 3600, .help = "sampler measuring span" },
	{ .name = "part", .type = VB_OPT_STR, .arg = "WHICH",
	  .off = offsetof(struct cfg, part), .def = "all",
	  .choices = "all|sampler|fork", .help = "what to measure" },
	{ .name = "pairs", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, pairs), .def = "20",
	  .min = 1, .max = 1000, .help = "bare/forkbomb/forked triples" },
	{ .name = "forks", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, forks), .def = "1500",
	  .min = 100, .max = 10000000, .help = "forks per run" },
	{ .name = "ints", .type = VB_OPT_U64, .arg = "M",
	  .off = offsetof(struct cfg, ints), .def = "1000",
	  .min = 0, .max = 1 << 24, .help = "ints each child writes" },
	{ 0 },
};

static char tmpdir[256];
static char self[4096];
static pid_t kids[16];		/* alive children, for Ctrl-C */

static void
cleanup(void)
{
	/* its private mkdtemp() folder, through folder descriptors */
	if (tmpdir[0])
		vb_rmtree(tmpdir);
	tmpdir[0] = '\0';
}

static void
track(pid_t pid, int on)
{
	size_t i;

	for (i = 0; i < sizeof(kids) / sizeof(kids[0]); i++)
		if (on ? kids[i] == 0 : kids[i] == pid) {
			kids[i] = on ? pid : 0;
			return;
		}
}

/* Ctrl-C, SIGTERM, SIGPIPE: stop the children, remove the folder, leave. */
static void
on_signal(int sig)
{
	size_t i;

	/* SIGTERM: forkbomb's harness then stops its own children */
	for (i = 0; i < sizeof(kids) / sizeof(kids[0]); i++)
		if (kids[i] > 0)
			kill(kids[i], SIGTERM);
	for (i = 0; i < sizeof(kids) / sizeof(kids[0]); i++)
		if (kids[i] > 0)
			waitpid(kids[i], NULL, 0);
	cleanup();
	_exit(128 + sig);
}

/* ---- the bare loop (run as `overhead --bare FORKS INTS`) ---- */

static int
bare(uint64_t forks, uint64_t ints)
{
	uint64_t n, i, t0;
	int status;

	/*
	 * Any real program has used malloc() before it forks; without this
	 * each child would set up the allocator (3 page faults more a fork
	 * than in forkbomb's children).
	 */
	{
		void *volatile p = malloc(1);	/* volatile: not optimised out */

		free(p);
	}
	t0 = vb_now_ns();
	for (n = 0; n < forks; n++) {
		pid_t pid = fork();

		if (pid < 0)
			die_errno("fork");
		if (pid == 0) {
			volatile int *v = malloc(ints ? ints * sizeof(int) : 1);

			if (!v)
				_exit(3);
			for (i = 0; i < ints; i++)
				v[i] = (int)i;
			_exit(0);
		}
		while (wait(&status) < 0)
			if (errno != EINTR)
				die_errno("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			die("bare child failed");
	}
	printf("%.6f\n", vb_ns_to_s(vb_now_ns() - t0) * 1e6 / (double)forks);
	return 0;
}

/*
 * The floor (run as `overhead --floor NS`): sleep to absolute deadlines
 * NS apart, as the sampler sleeps (sleep_or_stop() in src/lib/vmstat.c),
 * and read what the sampler reads, the same bytes of the same
 * files at the same moments (see sampler_main() in src/lib/vmstat.c: below
 * a second, /proc/vmstat's quick counters, and once a second the whole
 * reading), but parse nothing and write nothing, until killed.  What
 * any sampler of these figures must pay on this machine.
 */
static int
floor_loop(uint64_t interval_ns)
{
	struct vb_proc p;
	struct vb_snap s;
	struct timespec ts;
	uint64_t next, whole;
	size_t len;
	char *buf;
	int *word;

	if (vb_proc_open(&p, "/proc") < 0 || vb_proc_read(&p, &s) < 0 ||
	    vb_proc_read_vmstat(&p, &s) < 0)
		die_errno("cannot read /proc");
	len = p.bufsz;
	buf = malloc(len);
	word = mmap(NULL, sizeof(*word), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!buf || word == MAP_FAILED)
		die("out of memory");
	*word = 0;
	/* as the sampler process locks itself */
	mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
	for (whole = next = vb_now_ns();;) {
		next += interval_ns;
		/* the sampler's sleep: a shared futex word, never woken */
		ts.tv_sec = (time_t)(next / VB_NSEC_PER_SEC);
		ts.tv_nsec = (long)(next % VB_NSEC_PER_SEC);
		for (;;) {
			long r = syscall(SYS_futex, word, FUTEX_WAIT_BITSET, 0,
			    &ts, NULL, FUTEX_BITSET_MATCH_ANY);

			if (r < 0 && errno == ETIMEDOUT)
				break;
			if (r < 0 && errno != EINTR && errno != EAGAIN)
				die_errno("futex");
			if (vb_now_ns() >= next)
				break;
		}
		(void)vb_now_ns();	/* the sampler's time stamp */
		if (next - whole + interval_ns / 2 >= VB_NSEC_PER_SEC) {
			whole = next;
			if (pread(p.fd_vmstat, buf, p.want, 0) < 0 ||
			    pread(p.fd_stat, buf, len, 0) < 0 ||
			    pread(p.fd_meminfo, buf, len, 0) < 0)
				die_errno("cannot read /proc");
		} else if (pread(p.fd_vmstat, buf, p.want_quick, 0) < 0) {
			die_errno("cannot read /proc/vmstat");
		}
	}
}

/* A CPU-bound thread: what a benchmark does to a CPU. */
static void *
spin(void *arg)
{
	volatile uint64_t n = 0;

	(void)arg;
	for (;;)
		n++;
	return NULL;
}

/* `overhead --spin N`: N CPU-bound threads, until killed. */
static int
spin_loop(long n)
{
	pthread_t t;

	while (--n > 0)
		if (pthread_create(&t, NULL, spin, NULL))
			die("cannot start a spinning thread");
	spin(NULL);
	return 0;
}

/* ---- processes ---- */

/* fork + exec @argv with stdout to @out_fd (or /dev/null), stdin null. */
static pid_t
spawn(char *const argv[], int out_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (nul < 0)
			_exit(127);
		dup2(nul, 0);
		dup2(out_fd >= 0 ? out_fd : nul, 1);
		dup2(nul, 2);
		execv(argv[0], argv);
		execvp(argv[0], argv);
		_exit(127);
	}
	track(pid, 1);
	return pid;
}

static int
reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid %ld", (long)pid);
	track(pid, 0);
	return status;
}

/*
 * A process that runs only the sampler at @interval_ns, writing to
 * @path, until its control pipe closes; then it reports the sampler's
 * own CPU time and sample count on @res_fd.  The sampler is a process
 * of its own (src/lib/vmstat.h), whose pid goes to *@sampler.
 */
static pid_t
sampler_proc(uint64_t interval_ns, const char *path, int *ctl_w,
    int *res_r, pid_t *sampler)
{
	int ctl[2], res[2];
	char line[64] = "";
	pid_t pid;

	if (pipe2(ctl, O_CLOEXEC) < 0 || pipe2(res, O_CLOEXEC) < 0)
		die_errno("pipe");
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		struct vb_sampler s;
		FILE *f;
		char c;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		close(ctl[1]);
		close(res[0]);
		if (!(f = fopen(path, "w")))
			die_errno("cannot create %s", path);
		/* as the harness does (not fatal without privileges) */
		mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
		if (vb_sampler_start(&s, "/proc", f, interval_ns) < 0)
			die_errno("cannot start the sampler");
		dprintf(res[1], "%ld\n", (long)s.pid);
		while (read(ctl[0], &c, 1) < 0 && errno == EINTR)
			;
		vb_sampler_stop(&s);
		fclose(f);
		dprintf(res[1], "%ld %llu\n", s.samples,
		    (unsigned long long)s.cpu_ns);
		_exit(0);
	}
	track(pid, 1);
	close(ctl[0]);
	close(res[1]);
	*ctl_w = ctl[1];
	*res_r = res[0];
	/* the sampler's pid, a line of its own */
	if (read(res[0], line, sizeof(line) - 1) <= 0 ||
	    (*sampler = (pid_t)strtol(line, NULL, 10)) <= 0)
		die("the sampler process did not start");
	return pid;
}

/*
 * On-CPU nanoseconds of every thread of @pid: the first field of
 * /proc/PID/task/TID/schedstat.  -1 when unavailable.
 */
static int64_t
proc_cpu_ns(pid_t pid)
{
	char path[320], buf[128];
	struct dirent *de;
	int64_t sum = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	if (!(d = opendir(path)))
		return -1;
	while ((de = readdir(d)) != NULL) {
		ssize_t n;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task/%s/schedstat",
		    (long)pid, de->d_name);
		if ((fd = open(path, O_RDONLY)) < 0)
			continue;	/* the thread just ended */
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0) {
			sum = -1;
			break;
		}
		buf[n] = '\0';
		sum += strtoll(buf, NULL, 10);
	}
	closedir(d);
	return sum;
}

/* proc_cpu_ns() of @pid and, when not 0, of its sampler @spid. */
static int64_t
tree_cpu_ns(pid_t pid, pid_t spid)
{
	int64_t a = proc_cpu_ns(pid), b = spid ? proc_cpu_ns(spid) : 0;

	return a < 0 || b < 0 ? -1 : a + b;
}

/* ---- part 1: the sampler against vmstat(8) ---- */

static double
thread_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/*
 * What a sample costs at the least on this machine, in this thread's
 * CPU time: waking up from a 100 ms sleep and nothing else; reading the
 * three files right after such a wake-up (caches and TLB cold, as the
 * sampler finds them); reading them in a tight loop (hot).  Not targets:
 * they say how much of the sampler's cost is the machine's.
 */
static void
sample_floor(void)
{
	enum { N = 25, HOT = 300 };
	double sl[N], rd[N], t, t1, hot_us;
	struct vb_desc ds, dr;
	struct vb_proc p;
	struct vb_snap snap;
	int i;

	if (vb_proc_open(&p, "/proc") < 0)
		die_errno("cannot open /proc");
	for (i = 0; i < N; i++) {
		t = thread_cpu_us();
		vb_sleep_until(vb_now_ns() + VB_NSEC_PER_SEC / 10);
		t1 = thread_cpu_us();
		vb_proc_read(&p, &snap);
		sl[i] = t1 - t;
		rd[i] = thread_cpu_us() - t1;
	}
	t = thread_cpu_us();
	for (i = 0; i < HOT; i++)
		vb_proc_read(&p, &snap);
	hot_us = (thread_cpu_us() - t) / HOT;
	vb_proc_close(&p);
	vb_describe(sl, N, 1, &ds);
	vb_describe(rd, N, 1, &dr);
	printf("  floor on this machine (this thread's CPU time, medians of "
	    "%d): a wake-up from\n  a 100 ms sleep %.0f us; reading the "
	    "three files after one %.0f us, in a\n  tight loop %.0f us\n", N,
	    ds.median, dr.median, hot_us);
}

/* `vmstat -n 1`, writing to tmpdir/vmstat-@tag.out. */
static pid_t
spawn_vmstat(const char *tag)
{
	char path[512], *argv[] = { "vmstat", "-n", "1", NULL };
	pid_t pid;
	int fd;

	snprintf(path, sizeof(path), "%s/vmstat-%s.out", tmpdir, tag);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die_errno("cannot create %s", path);
	pid = spawn(argv, fd);
	close(fd);
	return pid;
}

/* `self --MODE ARG` as a child, stdout to /dev/null. */
static pid_t
spawn_self(const char *mode, unsigned long long arg)
{
	char a[32], *argv[] = { self, (char *)mode, a, NULL };

	snprintf(a, sizeof(a), "%llu", arg);
	return spawn(argv, -1);
}

/*
 * Where the 10 Hz sampler's time goes in this round, phase by phase:
 * tools/sampler_phases, run for 10 s before this round's processes
 * start, its table printed.  Returns its "own code" figure, us a
 * sample (the sampler's CPU time less its wake-ups, reads and writes,
 * measured inside it), or -1 when it could not run.
 */
static double
run_phases(void)
{
	char path[4200], *argv[] = { path, "10", "10", NULL };
	char out[4096], *slash, *own;
	size_t len = 0;
	ssize_t n;
	int p[2], status;

	snprintf(path, sizeof(path), "%s", self);
	if ((slash = strrchr(path, '/')))
		slash[1] = '\0';
	strncat(path, "sampler_phases", sizeof(path) - strlen(path) - 1);
	if (access(path, X_OK) < 0) {
		printf("  (%s not built: no split by phase)\n", path);
		return -1;
	}
	if (pipe2(p, O_CLOEXEC) < 0)
		die_errno("pipe");
	status = spawn(argv, p[1]);
	close(p[1]);
	while (len < sizeof(out) - 1 && ((n = read(p[0], out + len,
	    sizeof(out) - 1 - len)) > 0 || (n < 0 && errno == EINTR)))
		len += n > 0 ? (size_t)n : 0;
	close(p[0]);
	out[len] = '\0';
	status = reap(status);
	fputs(out, stdout);
	own = strstr(out, "its own code");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !own ||
	    !(own = strchr(own, ')'))) {
		printf("  (%s failed: no split by phase)\n", path);
		return -1;
	}
	return strtod(own + 1, NULL);
}

/* What missed its target, for the last line: "; "-separated. */
static char failed[1024];

static void
miss(const char *what)
{
	size_t n = strlen(failed);

	snprintf(failed + n, sizeof(failed) - n, "%s%s", n ? "; " : "",
	    what);
}

/* One judged figure: "  what   value  (target: ...)   PASS". */
static void
verdict(const char *what, const char *value, const char *target, int ok)
{
	int pad = 16 - (int)strlen(target);

	printf("  %-32s %7s  (target: %s)%*s%s\n", what, value, target,
	    pad > 1 ? pad : 1, "", ok ? "PASS" : "FAIL");
}

static double
median(const double *v, size_t n)
{
	struct vb_desc d;

	vb_describe(v, n, 1, &d);
	return d.median;
}

/*
 * One round of part 1 (@busy: every CPU kept busy meanwhile).  The span
 * is cut into windows of about 5 s; each figure judged is the median of
 * its per-window values, so that a burst of other work in one window
 * does not decide.  Returns whether the round's targets were met.
 */
static int
sampler_round(const struct cfg *c, int busy)
{
	enum {
		VMSTAT, VMSTAT2, S1, S1B, S10, FLOOR, FLOOR2, N, MAXW = 64
	};
	static const char *const name[N] = {
		"vmstat 1 (procps) a", "vmstat 1 (procps) b", "sampler 1 Hz a",
		"sampler 1 Hz b", "sampler 10 Hz", "floor 10 Hz, after",
		"floor 10 Hz, before",
	};
	static const double hz[N] = { 1, 1, 1, 1, 10, 10, 10 };
	int64_t cpu[MAXW + 1][N];
	uint64_t tw[MAXW + 1];
	pid_t pid[N], spid[N] = { 0 }, spinner = -1;
	int ctl[N], resfd[N], i, w, nw, ok1, okf, ok10, status;
	double own, fs[MAXW], mfs;
	char path[512], what[160];
	double r1[MAXW], above[MAXW], p10[MAXW], pf[MAXW], pd[MAXW], pct[N];
	double m1, mf, m10, mpf, mpd, dt;
	const char *round = busy ? "busy" : "idle";

	nw = (int)(c->span / 5 + 0.5);
	nw = nw < 1 ? 1 : nw > MAXW ? MAXW : nw;
	printf("\n  round %d: %s\n", busy + 1, busy ? "every CPU busy with a "
	    "CPU-bound process (as under a benchmark)" : "machine idle");
	if (busy)
		spinner = spawn_self("--spin",
		    (unsigned long long)sysconf(_SC_NPROCESSORS_ONLN));
	own = run_phases();
	/*
	 * Staggered: 0, 25, 50, 75, 330, 500 and 660 ms past each whole
	 * second, the windows' edges near 160 ms.  Two of each 1 Hz
	 * process, and a floor just before the 10 Hz sampler and one just
	 * after it, so that neither the order of the wake-ups nor one
	 * process's luck (the CPU it wakes on) decides a figure.
	 */
	for (i = 0; i < N; i++)
		ctl[i] = resfd[i] = -1;
	pid[VMSTAT] = spawn_vmstat("a");
	usleep(25 * 1000);
	pid[FLOOR2] = spawn_self("--floor", VB_NSEC_PER_SEC / 10);
	usleep(25 * 1000);
	snprintf(path, sizeof(path), "%s/s10.vmstat", tmpdir);
	pid[S10] = sampler_proc(VB_NSEC_PER_SEC / 10, path, &ctl[S10],
	    &resfd[S10], &spid[S10]);
	usleep(25 * 1000);
	pid[FLOOR] = spawn_self("--floor", VB_NSEC_PER_SEC / 10);
	usleep(255 * 1000);
	snprintf(path, sizeof(path), "%s/s1.vmstat", tmpdir);
	pid[S1] = sampler_proc(VB_NSEC_PER_SEC, path, &ctl[S1], &resfd[S1],
	    &spid[S1]);
	usleep(170 * 1000);
	pid[VMSTAT2] = spawn_vmstat("b");
	usleep(160 * 1000);
	snprintf(path, sizeof(path), "%s/s1b.vmstat", tmpdir);
	pid[S1B] = sampler_proc(VB_NSEC_PER_SEC, path, &ctl[S1B],
	    &resfd[S1B], &spid[S1B]);

	/* warm-up: exec, dynamic linking, first reads are not counted */
	usleep(1500 * 1000);
	for (w = 0; w <= nw; w++) {
		if (w > 0)
			vb_sleep_until(tw[0] + (uint64_t)(c->span * 1e9 *
			    w / nw));
		tw[w] = vb_now_ns();
		for (i = 0; i < N; i++)
			if ((cpu[w][i] = tree_cpu_ns(pid[i], spid[i])) < 0)
				die("cannot read /proc/%ld/task/*/schedstat "
				    "(kernel without CONFIG_SCHED_INFO?)",
				    (long)pid[i]);
	}
	dt = vb_ns_to_s(tw[nw] - tw[0]);

	for (i = 0; i < N; i++) {
		if (ctl[i] >= 0)
			continue;	/* a sampler: below */
		kill(pid[i], SIGTERM);
		status = reap(pid[i]);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			die("cannot run vmstat(8): install procps");
	}
	if (spinner > 0) {
		kill(spinner, SIGTERM);
		reap(spinner);
	}
	for (i = 0; i < N; i++) {
		char line[128] = "";
		ssize_t n;

		if (ctl[i] < 0)
			continue;

		/* a byte, not EOF: later children hold copies of the pipe */
		if (write(ctl[i], "x", 1) != 1)
			die_errno("cannot stop the sampler");
		close(ctl[i]);
		n = read(resfd[i], line, sizeof(line) - 1);
		close(resfd[i]);
		reap(pid[i]);
		if (n > 0) {
			long samples = 0;
			unsigned long long ns = 0;

			line[n] = '\0';
			sscanf(line, "%ld %llu", &samples, &ns);
			printf("  (%s: thread CPU %.2f ms over %ld samples "
			    "in its whole life, %.0f us/sample)\n", name[i],
			    (double)ns / 1e6, samples, samples ?
			    (double)ns / 1e3 / (double)samples : 0);
		}
	}

	printf("\n  %-20s %8s %9s %12s %11s\n", "", "samples", "CPU ms",
	    "% of 1 CPU", "us/sample");
	for (i = 0; i < N; i++) {
		double ms = (double)(cpu[nw][i] - cpu[0][i]) / 1e6;
		double samples = dt * hz[i];

		pct[i] = ms / 1e3 / dt * 100;
		printf("  %-20s %8.0f %9.2f %11.4f%% %11.0f\n", name[i],
		    samples, ms, pct[i], ms * 1e3 / samples);
	}
	/* per window: the ratio to vmstat, the work above the floor */
	for (w = 0; w < nw; w++) {
		double s = vb_ns_to_s(tw[w + 1] - tw[w]);
		double d[N];

		for (i = 0; i < N; i++)
			d[i] = (double)(cpu[w + 1][i] - cpu[w][i]);
		d[S1] += d[S1B];
		d[VMSTAT] += d[VMSTAT2];
		r1[w] = d[VMSTAT] > 0 ? d[S1] / d[VMSTAT] : INFINITY;
		fs[w] = fabs(d[FLOOR] - d[FLOOR2]) / 1e3 / (s * hz[S10]);
		d[FLOOR] = (d[FLOOR] + d[FLOOR2]) / 2;
		above[w] = (d[S10] - d[FLOOR]) / 1e3 / (s * hz[S10]);
		p10[w] = d[S10] / 1e9 / s * 100;
		pf[w] = d[FLOOR] / 1e9 / s * 100;
		pd[w] = p10[w] - pf[w];
	}
	m1 = median(r1, (size_t)nw);
	mf = median(above, (size_t)nw);
	m10 = median(p10, (size_t)nw);
	mpf = median(pf, (size_t)nw);
	mpd = median(pd, (size_t)nw);
	mfs = median(fs, (size_t)nw);
	ok1 = m1 <= 1;
	/*
	 * The sampler's own work: at most 20 us a sample above the floor;
	 * or, when the machine moves one process's cost by more than that
	 * (the two floors, the same program, came out mfs apart in the
	 * same windows), its own code measured inside it (run_phases())
	 * at most 20 us and the excess within the floors' own spread.
	 */
	okf = mf <= 20 || (own >= 0 && own <= 20 && mf <= 20 + mfs);
	/*
	 * Busy, the sampler's share of a CPU: under 0.1%, or, where the
	 * floor measured in the same windows takes about that much itself,
	 * no more than the floor's plus 20 us a sample (the same budget as
	 * above, as a share of a CPU at 10 Hz).
	 */
	ok10 = !busy || m10 < 0.1 || mpd <= 20e-6 * hz[S10] * 100;
	printf("\n  medians of %d windows of %.0f s:\n", nw, dt / nw);
	snprintf(what, sizeof(what), "%.3f", m1);
	verdict("sampler 1 Hz / vmstat 1", what, "at most 1", ok1);
	snprintf(what, sizeof(what), "%.1f us", mf);
	verdict("10 Hz: above the floor, a sample", what, "at most 20 us",
	    okf);
	if (own < 0)
		snprintf(what, sizeof(what), "n/a");
	else
		snprintf(what, sizeof(what), "%.1f us", own);
	printf("  %-32s %7s  (the two floors %.1f us apart; its own code,\n"
	    "  %-32s %7s   measured inside it, %s%s)\n", "", "", mfs, "", "",
	    what, mf > 20 && okf ? "; within the floors' spread: pass" : "");
	snprintf(what, sizeof(what), "%.4f%%", m10);
	if (busy) {
		verdict("sampler 10 Hz, % of one CPU", what,
		    "under 0.1% or the floor's + 0.02%", ok10);
		printf("  %-32s %7s  (the floor %.4f%%, the sampler %+.4f%% "
		    "above it)\n", "", "", mpf, mpd);
	} else {
		printf("  %-32s %7s  (no target idle; the floor: %.4f%%)\n",
		    "sampler 10 Hz, % of one CPU", what, mpf);
	}
	if (!ok1) {
		snprintf(what, sizeof(what), "sampler 1 Hz above vmstat 1 "
		    "(%s, x%.3f)", round, m1);
		miss(what);
	}
	if (!okf) {
		snprintf(what, sizeof(what), "sampler 10 Hz %.1f us a sample "
		    "above the floor (%s, target 20; its own code %.1f, the "
		    "floors %.1f apart)", mf, round, own, mfs);
		miss(what);
	}
	if (!ok10) {
		snprintf(what, sizeof(what), "sampler 10 Hz %.4f%% of a CPU, "
		    "%+.4f%% against the floor (%s, target under 0.1%% or "
		    "+0.02%%)", m10, mpd, round);
		miss(what);
	}
	return ok1 && okf && ok10;
}

static int
sampler_cost(const struct cfg *c)
{
	int ok = sampler_round(c, 0);

	return sampler_round(c, 1) && ok;
}

/* ---- part 2: forkbomb against the bare loop ---- */

/* The bare loop: us per fork; *@cpu: the tree's CPU us per fork. */
static double
run_bare(const struct cfg *c, double *cpu)
{
	char f[32], n[32], out[64] = "", *argv[] = { self, "--bare", f, n,
	    NULL };
	struct rusage ru;
	int p[2], status;
	ssize_t len;
	pid_t pid;

	snprintf(f, sizeof(f), "%llu", (unsigned long long)c->forks);
	snprintf(n, sizeof(n), "%llu", (unsigned long long)c->ints);
	if (pipe2(p, O_CLOEXEC) < 0)
		die_errno("pipe");
	pid = spawn(argv, p[1]);
	close(p[1]);
	len = read(p[0], out, sizeof(out) - 1);
	close(p[0]);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			die_errno("wait4");
	track(pid, 0);
	if (len <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("the bare fork loop failed");
	*cpu = ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	    ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6)
	    * 1e6 / (double)c->forks;
	return strtod(out, NULL);
}

/*
 * forkbomb: us per fork; *@cpu: the iteration tree's CPU us per fork;
 * *@foreign: the CPU other processes used meanwhile (its foreign_cpu,
 * % of one CPU).  @forked: VMBENCH_EXEC=0, the loop in the forked
 * harness child (the way before .exec_run), else in the exec'd one.
 */
static double
run_forkbomb(const struct cfg *c, int forked, double *cpu, double *foreign)
{
	char f[32], n[32], prefix[300], path[320], err[1024];
	char *argv[] = { "bench/forkbomb", "--forks", f, "--ints", n,
	    "--iterations", "1", "--out", prefix, "--workdir", tmpdir, NULL };
	struct vb_res r;
	double us;
	int status, m, u, s, o;

	snprintf(f, sizeof(f), "%llu", (unsigned long long)c->forks);
	snprintf(n, sizeof(n), "%llu", (unsigned long long)c->ints);
	snprintf(prefix, sizeof(prefix), "%s/fb", tmpdir);
	snprintf(path, sizeof(path), "%s.res", prefix);
	/* one thread: the child spawn() forks inherits it */
	if (setenv("VMBENCH_EXEC", forked ? "0" : "1", 1) < 0)
		die_errno("setenv");
	status = reap(spawn(argv, -1));
	unsetenv("VMBENCH_EXEC");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("bench/forkbomb failed (status %d); run `make` first",
		    status);
	if (vb_res_read(path, &r, err, sizeof(err)) < 0)
		die("%s", err);
	m = vb_res_metric_index(&r, "us_per_fork");
	u = vb_res_metric_index(&r, "user");
	s = vb_res_metric_index(&r, "sys");
	o = vb_res_metric_index(&r, "foreign_cpu");
	if (m < 0 || u < 0 || s < 0 || o < 0 || r.niter != 1)
		die("%s: no us_per_fork, user, sys or foreign_cpu figure",
		    path);
	us = vb_res_get(&r, 0, m);
	*foreign = vb_res_get(&r, 0, o);
	*cpu = (vb_res_get(&r, 0, u) + vb_res_get(&r, 0, s)) * 1e6 /
	    (double)c->forks;
	vb_res_free(&r);
	return us;
}

/*
 * Part 2: bare, forkbomb (exec'd loop) and forkbomb with the loop in
 * the forked harness child, as triples; their order cycles through the
 * six permutations, so that each side runs first, second and third
 * equally often.  The verdict: the median of the per-triple ratios
 * forkbomb / bare, within 5%.
 */
static int
fork_cost(const struct cfg *c)
{
	enum { BARE, EXEC, FORKED, NS };
	static const int perm[6][NS] = {
		{ 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 },
		{ 2, 1, 0 }, { 1, 0, 2 }, { 0, 2, 1 },
	};
	static const char letter[NS] = { 'b', 'e', 'f' };
	size_t n = c->pairs, i, k;
	double *v = calloc(n * NS * 4, sizeof(double));
	double *fo = calloc(2 * n, sizeof(double));
	double *wall[NS], *cpu[NS], *re, *rf, *rfe, *ce, *cf;
	double me, mf, mfe, mce, mcf;
	enum { FOREIGN_MAX = 50 };	/* % of one CPU */
	char what[160], order[NS + 1];
	double mo;
	int ok, okc, okw;

	if (!v || !fo)
		die("out of memory");
	for (k = 0; k < NS; k++) {
		wall[k] = v + k * n;
		cpu[k] = v + (NS + k) * n;
	}
	re = v + 2 * NS * n;
	rf = re + n;
	rfe = rf + n;
	ce = v + 3 * NS * n;
	cf = ce + n;
	printf("\n  %4s %-5s %25s %13s   %17s\n", "", "",
	    "------ wall us/fork -----", "-- / bare --", "CPU/fork / bare");
	printf("  %4s %-5s %8s %8s %8s %6s %6s   %8s %8s\n", "", "order",
	    "bare", "exec'd", "forked", "exec'd", "forked", "exec'd",
	    "forked");
	for (i = 0; i < n; i++) {
		for (k = 0; k < NS; k++) {
			int s = perm[i % 6][k];

			order[k] = letter[s];
			if (s == BARE)
				wall[s][i] = run_bare(c, &cpu[s][i]);
			else
				wall[s][i] = run_forkbomb(c, s == FORKED,
				    &cpu[s][i], &fo[(s == FORKED) * n + i]);
		}
		order[NS] = '\0';
		re[i] = wall[EXEC][i] / wall[BARE][i];
		rf[i] = wall[FORKED][i] / wall[BARE][i];
		rfe[i] = wall[FORKED][i] / wall[EXEC][i];
		ce[i] = cpu[EXEC][i] / cpu[BARE][i];
		cf[i] = cpu[FORKED][i] / cpu[BARE][i];
		printf("  %4zu %-5s %8.1f %8.1f %8.1f %6.3f %6.3f   %8.3f "
		    "%8.3f\n", i + 1, order, wall[BARE][i], wall[EXEC][i],
		    wall[FORKED][i], re[i], rf[i], ce[i], cf[i]);
		fflush(stdout);
	}
	me = median(re, n);
	mf = median(rf, n);
	mfe = median(rfe, n);
	mce = median(ce, n);
	mcf = median(cf, n);
	printf("\n  (b bare, e forkbomb with its loop exec'd, f forkbomb "
	    "with its loop in the\n  forked harness child, VMBENCH_EXEC=0)"
	    "\n  medians, wall us/fork: bare %.1f, exec'd %.1f, forked "
	    "%.1f\n", median(wall[BARE], n), median(wall[EXEC], n),
	    median(wall[FORKED], n));
	printf("  medians of %zu ratios:         wall          CPU per fork"
	    "\n    forked / bare             %6.3f (%+5.1f%%)  %6.3f "
	    "(%+5.1f%%)\n    forked / exec'd           %6.3f (%+5.1f%%)"
	    "\n    exec'd / bare             %6.3f (%+5.1f%%)  %6.3f "
	    "(%+5.1f%%)\n", n, mf, (mf - 1) * 100, mcf, (mcf - 1) * 100,
	    mfe, (mfe - 1) * 100, me, (me - 1) * 100, mce, (mce - 1) * 100);
	/*
	 * Wall time per fork is the figure forkbomb reports, but when other
	 * processes keep a CPU busy it measures their queue for the CPUs
	 * as much as fork: then only the CPU time per fork is judged.
	 */
	mo = median(fo, 2 * n);
	okc = fabs(mce - 1) <= 0.05;
	okw = fabs(me - 1) <= 0.05;
	printf("  other processes' CPU during forkbomb's runs (its "
	    "foreign_cpu): median %.0f%%\n  of one CPU\n", mo);
	snprintf(what, sizeof(what), "%+.1f%%", (mce - 1) * 100);
	verdict("forkbomb / bare, CPU per fork", what, "within 5%", okc);
	snprintf(what, sizeof(what), "%+.1f%%", (me - 1) * 100);
	if (mo <= FOREIGN_MAX) {
		verdict("forkbomb / bare, wall us/fork", what, "within 5%",
		    okw);
	} else {
		printf("  %-32s %7s  (not judged: foreign CPU over %d%%)\n",
		    "forkbomb / bare, wall us/fork", what, FOREIGN_MAX);
		okw = 1;
	}
	if (!okc) {
		snprintf(what, sizeof(what), "forkbomb %+.1f%% CPU per fork "
		    "against the bare loop (target within 5%%)",
		    (mce - 1) * 100);
		miss(what);
	}
	if (!okw) {
		snprintf(what, sizeof(what), "forkbomb %+.1f%% wall time per "
		    "fork against the bare loop (target within 5%%)",
		    (me - 1) * 100);
		miss(what);
	}
	ok = okc && okw;
	free(fo);
	free(v);
	return ok;
}

/*
 * The three load averages: the machine's other load is what makes
 * these figures move, so they are printed beside them.
 */
static char *
loadavg(char *buf, size_t len)
{
	ssize_t n = -1;
	int fd = open("/proc/loadavg", O_RDONLY);

	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	/* keep "1.00 0.50 0.25", drop "2/98 32486" */
	if (n > 0) {
		char *p = buf;
		int i;

		for (i = 0; i < 3 && p; i++)
			p = strchr(p + 1, ' ');
		if (p)
			*p = '\0';
	}
	return buf;
}

int
main(int argc, char **argv)
{
	struct cfg c;
	char err[512], load[128] = "?";
	uint64_t t0 = vb_now_ns();
	ssize_t n;
	int ok;

	vb_set_progname("overhead");
	if (argc == 4 && strcmp(argv[1], "--bare") == 0)
		return bare(strtoull(argv[2], NULL, 10),
		    strtoull(argv[3], NULL, 10));
	if (argc == 3 && strcmp(argv[1], "--floor") == 0)
		return floor_loop(strtoull(argv[2], NULL, 10));
	if (argc == 3 && strcmp(argv[1], "--spin") == 0)
		return spin_loop(strtol(argv[2], NULL, 10));
	if (vb_opt_parse(opts, &c, argc - 1, argv + 1, NULL, err,
	    sizeof(err)) < 0) {
		fprintf(stderr, "overhead: %s\nusage: tools/overhead [options]"
		    "\n", err);
		vb_opt_usage(stderr, opts);
		return 2;
	}
	if (access("bench/forkbomb", X_OK) < 0)
		die("bench/forkbomb not found: run from the top folder after "
		    "`make`");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		die_errno("cannot read /proc/self/exe");
	self[n] = '\0';
	snprintf(tmpdir, sizeof(tmpdir), "%s/vmbench-overhead.XXXXXX",
	    getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") :
	    "/tmp");
	if (!mkdtemp(tmpdir))
		die_errno("cannot create %s", tmpdir);
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGPIPE, on_signal);	/* `| head` must not leave the folder */
	printf("vmbench harness overhead (%ld CPUs, load average %s)\n\n",
	    sysconf(_SC_NPROCESSORS_ONLN), loadavg(load, sizeof(load)));
	ok = 1;
	if (strcmp(c.part, "fork") != 0) {
		printf("1. vmstat sampler CPU cost: vmstat -n 1, the sampler "
		    "at 1 and 10 Hz and a bare\n   10 Hz floor side by side, "
		    "on-CPU time from /proc/PID/task/*/schedstat\n   over the "
		    "same %.0f s, idle and busy\n", c.span);
		fflush(stdout);
		sample_floor();
		ok &= sampler_cost(&c);
	}
	if (strcmp(c.part, "sampler") != 0) {
		printf("\n2. forkbomb --forks %llu --ints %llu (harness, "
		    "sampler at 1 Hz) against a bare\n   fork/exit/wait loop "
		    "doing the same child work, and forkbomb with its\n   loop "
		    "in the forked harness child (VMBENCH_EXEC=0); %llu "
		    "triples, the order\n   rotating\n",
		    (unsigned long long)c.forks, (unsigned long long)c.ints,
		    (unsigned long long)c.pairs);
		fflush(stdout);
		ok &= fork_cost(&c);
	}
	printf("\noverhead: %s in %.0f s (load average %s)\n",
	    ok ? "PASS" : "FAIL", vb_elapsed_s(t0),
	    loadavg(load, sizeof(load)));
	if (!ok)
		printf("overhead: missed: %s\n", failed);
	return ok ? 0 : 1;
}
