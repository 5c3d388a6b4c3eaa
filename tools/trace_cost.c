/*
 * trace_cost.c - what tracing (src/lib/trace.h) costs a workload's CPU,
 * for make bench-overhead (docs/self.md).
 *
 * One process alternates short blocks with tracing on and off.  A block
 * is a forked child doing fixed work on one CPU (--cpu: a fork's child
 * on its parent's CPU or on the other moves the CPU time by more than
 * tracing could); its user + sys CPU comes from wait4() (the child and
 * the processes it reaped).  A block with
 * tracing is what the harness does around an iteration child with
 * VMBENCH_TRACE=1: vb_trace_open() (our tracefs instance, the events
 * enabled), vb_trace_start(), the fork, wait4(), vb_trace_stop(),
 * vb_trace_read(), vb_trace_close(); a block without has no instance,
 * as a run with VMBENCH_TRACE=0.  The workloads:
 *
 *	fork	forkbomb's child work, as tools/overhead.c's bare loop:
 *		--forks children, each mallocs and writes --ints ints
 *	fault	--passes times: mmap --fault-size of anonymous memory
 *		(no huge pages), write one byte a page, munmap
 *	memcg	the same loop inside a memory cgroup of --memcg-limit
 *		(src/runner/memlimit.h, no swap), each 1M written then
 *		given back with MADV_FREE, so that the cgroup's reclaim
 *		frees it and the memcg reclaim events fire
 *
 * The events fire in memcg only (on a machine with free memory nothing
 * else reclaims or compacts), so fork and fault give the cost of the
 * enabled tracepoints that do not fire, memcg the cost when they do.
 * After one warm-up pair, --pairs pairs of blocks in ABBA order (off on,
 * on off, ...); the figure is the median over the pairs of the ratio of
 * the CPU with tracing to without, with its sign-test interval: the
 * order statistics x(k) and x(n+1-k), k the largest with
 * 2 P(Binomial(n, 1/2) < k) <= 5%.  "within 1%" when the upper end is
 * at most 1.01, "above 1%" when the lower end is above 1.01, else "not
 * decided".
 *
 * Exit status: 0 every workload within 1%; 1 one above; 2 one not
 * decided (the target not shown); 77 no tracefs or not root (skipped).
 * About eight minutes with the defaults: short blocks (tens of ms) and
 * many pairs, since a block's spread did not shrink with its length on
 * the VM this was made on, and 600 pairs since at 300 the fork loop's
 * interval (about +-0.5%) reached past 1% around its +0.5% cost
 * (docs/self.md).  The instance, its state
 * record and the cgroup are removed at the end, on die() and on
 * SIGINT, SIGTERM and SIGHUP.  The cgroup is made under the runner's
 * machine lock and named in a state file of the runner's (state.h)
 * before anything runs in it, so that after a SIGKILL the next
 * trace_cost, vmrun or make clean-stale removes it.
 *
 *	tools/trace_cost [--part all|fork|fault|memcg] [--pairs N]
 *	    [--forks N] [--ints M] [--fault-size S] [--passes N]
 *	    [--memcg-limit S] [--verbose]
 */
#include <errno.h>
#include <sched.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "memlimit.h"
#include "msg.h"
#include "opt.h"
#include "state.h"
#include "trace.h"

struct cfg {
	const char *part;
	uint64_t pairs;
	uint64_t forks;
	uint64_t ints;
	uint64_t fault_size;
	uint64_t passes;
	uint64_t memcg_limit;
	int verbose;
	uint64_t cpu;
	uint64_t settle;
};

static const struct vb_opt opts[] = {
	{ .name = "part", .type = VB_OPT_STR, .arg = "WHICH",
	  .off = offsetof(struct cfg, part), .def = "all",
	  .choices = "all|fork|fault|memcg", .help = "the workloads" },
	{ .name = "pairs", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, pairs), .def = "600",
	  .min = 6, .max = 10000, .help = "on/off pairs a workload" },
	{ .name = "forks", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, forks), .def = "300",
	  .min = 10, .max = 10000000, .help = "forks a fork block" },
	{ .name = "ints", .type = VB_OPT_U64, .arg = "M",
	  .off = offsetof(struct cfg, ints), .def = "1000",
	  .min = 0, .max = 1 << 24, .help = "ints each forked child writes" },
	{ .name = "fault-size", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, fault_size), .def = "64M",
	  .min = 1 << 20, .max = 1ull << 36, .help = "memory a fault pass "
	  "maps" },
	{ .name = "passes", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, passes), .def = "1",
	  .min = 1, .max = 1000, .help = "fault passes a block" },
	{ .name = "memcg-limit", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, memcg_limit), .def = "16M",
	  .min = 16 << 20, .max = 1ull << 36, .help = "the memcg block's "
	  "limit" },
	{ .name = "cpu", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, cpu), .def = "1",
	  .min = 0, .max = 4096, .help = "the CPU a block runs on (a CPU "
	  "past the last: any)" },
	{ .name = "settle", .type = VB_OPT_U64, .arg = "MS",
	  .off = offsetof(struct cfg, settle), .def = "30",
	  .min = 0, .max = 10000, .help = "pause before each block's fork" },
	{ .name = "verbose", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, verbose), .help = "print every pair" },
	{ 0 },
};

enum { W_FORK, W_FAULT, W_MEMCG, NW };
static const char *const wname[NW] = { "fork", "fault", "memcg" };

/* The tool's run: passed to every function that needs it. */
struct ctx {
	const struct cfg *c;
	struct vb_trace tr;
	struct vb_memlimit mem;
	struct vb_state st;		/* names the cgroup (state.h) */
	struct vb_machine mach;		/* held while the cgroup may exist */
	int rc;				/* worst verdict so far */
};

/* What the signal handler must reach (and nothing else). */
static volatile sig_atomic_t stop_signal;
static volatile pid_t child;

static void
on_signal(int sig)
{
	pid_t c = child;

	stop_signal = sig;
	if (c > 0)
		kill(-c, SIGKILL);
}

/* The machine as it was: the block's child, the instance, the cgroup. */
static void
teardown(void *arg)
{
	struct ctx *x = arg;
	char why[8192];
	pid_t c = child;

	if (c > 0) {
		kill(-c, SIGKILL);
		while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
			;
		child = 0;
	}
	if (vb_trace_close(&x->tr, why, sizeof(why)) < 0)
		vb_warn("%s", why);
	if (vb_memlimit_remove(&x->mem, why, sizeof(why)) < 0)
		vb_warn("%s", why);
	else if (x->st.path[0])
		vb_state_end(&x->st);
	vb_machine_unlock(&x->mach);
}

/*
 * The machine lock, what killed runs left undone (state.h), and a state
 * file of our own: before the memcg workload makes its cgroup.  0, or
 * -1 with one line in @err.
 */
static int
claim_machine(struct ctx *x, char *err, size_t errlen)
{
	char dir[4096], mdir[4096];

	if (vb_state_dir(dir, sizeof(dir), err, errlen) < 0)
		return -1;
	vb_machine_dir(mdir, sizeof(mdir));
	if (vb_machine_lock(&x->mach, mdir, "trace_cost: a memory cgroup",
	    1, &stop_signal, err, errlen) < 0)
		return -1;
	if (vb_state_recover(dir, NULL, NULL, 1) < 0) {
		snprintf(err, errlen, "what a killed run left could not be "
		    "undone");
		return -1;
	}
	if (vb_state_begin(&x->st, dir) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", x->st.path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* Name the cgroup just made in our state file; 0 or -1 (errno). */
static int
record_cgroup(struct ctx *x)
{
	snprintf(x->st.cgroup, sizeof(x->st.cgroup), "%s", x->mem.path);
	x->st.cgroup_v = x->mem.version;
	return vb_state_save(&x->st);
}

/* ---- the blocks' work, in the forked child ---- */

/* forkbomb's loop: fork, the child writes @ints ints, wait. */
static int
fork_work(uint64_t forks, uint64_t ints)
{
	uint64_t n, i;
	int status;

	/* as in overhead.c's bare(): the allocator set up before forking */
	{
		void *volatile p = malloc(1);

		free(p);
	}
	for (n = 0; n < forks; n++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
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
				return 1;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return 1;
	}
	return 0;
}

/*
 * @passes times: map @size bytes, write one byte a page, unmap.  @lazy:
 * each 1M given back with MADV_FREE once written (the memcg block).
 */
static int
fault_work(uint64_t size, uint64_t passes, int lazy)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), off, chunk = 1 << 20;
	uint64_t p;

	for (p = 0; p < passes; p++) {
		char *m = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return 1;
		madvise(m, size, MADV_NOHUGEPAGE);
		for (off = 0; off < size; off += page) {
			m[off] = 1;
			if (lazy && (off + page) % chunk == 0 &&
			    madvise(m + off + page - chunk, chunk,
			    MADV_FREE) < 0)
				return 1;
		}
		if (munmap(m, size) < 0)
			return 1;
	}
	return 0;
}

/*
 * The block on CPU @cpu alone, when there is one: where a fork's child
 * runs, on its parent's CPU or the other, moves its CPU time more than
 * tracing does.
 */
static void
pin(uint64_t cpu)
{
	cpu_set_t set;

	if (cpu >= (uint64_t)sysconf(_SC_NPROCESSORS_ONLN))
		return;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The child of a block: its work, its exit status. */
static int
block_child(struct ctx *x, int w)
{
	const struct cfg *c = x->c;

	switch (w) {
	case W_FORK:
		return fork_work(c->forks, c->ints);
	case W_FAULT:
		return fault_work(c->fault_size, c->passes, 0);
	default:
		if (vb_memlimit_enter(&x->mem, 0) < 0)
			return 2;
		return fault_work(c->fault_size, c->passes, 1);
	}
}

/*
 * One block of workload @w, with tracing when @traced.  The child's user
 * + sys CPU in seconds; @row (VB_TRACE_NCOL) gets the trace's figures,
 * NAN without tracing.  -1 when a signal stopped it.
 */
static double
block(struct ctx *x, int w, int traced, double *row)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	char why[8192];
	struct rusage ru;
	int status, k;
	pid_t pid;

	for (k = 0; k < VB_TRACE_NCOL; k++)
		row[k] = NAN;
	if (traced) {
		if (vb_trace_open(&x->tr, why, sizeof(why)) < 0)
			die("%s", why);
	}
	/*
	 * What opening the instance (and the last block's closing) set
	 * going in the kernel is done before the work starts, as in a run,
	 * where the instance is made before the first iteration.
	 */
	vb_sleep_until(vb_now_ns() + x->c->settle * 1000000);
	if (traced)
		vb_trace_start(&x->tr);
	pid = fork();
	if (pid < 0)
		die_errno("cannot fork");
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sigaction(SIGINT, &dfl, NULL);
		sigaction(SIGTERM, &dfl, NULL);
		sigaction(SIGHUP, &dfl, NULL);
		vb_set_die_hook(NULL, NULL);
		pin(x->c->cpu);
		_exit(block_child(x, w));
	}
	setpgid(pid, pid);
	child = pid;
	if (stop_signal)
		kill(-pid, SIGKILL);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			die_errno("cannot wait for the %s block", wname[w]);
	child = 0;
	if (traced) {
		vb_trace_stop(&x->tr);
		if (!stop_signal && vb_trace_read(&x->tr, row) < 0)
			die_errno("cannot read %s/trace", x->tr.inst);
		if (vb_trace_close(&x->tr, why, sizeof(why)) < 0)
			die("%s", why);
	}
	if (stop_signal)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("the %s block failed (%s %d)", wname[w],
		    WIFSIGNALED(status) ? "signal" : "exit status",
		    WIFSIGNALED(status) ? WTERMSIG(status) :
		    WEXITSTATUS(status));
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	    ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

/* ---- the figure ---- */

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @v (sorted in place). */
static double
median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The sign-test interval of the median of the sorted @v: k the largest
 * with 2 P(Binomial(n, 1/2) < k) <= 5%; *@lo, *@hi = x(k), x(n+1-k), its
 * coverage returned (0 when n is too small for one).
 */
static double
sign_interval(const double *v, size_t n, double *lo, double *hi)
{
	double p = pow(0.5, (double)n), cdf = 0;
	size_t i, k = 0;

	for (i = 0; 2 * (cdf + p) <= 0.05 && i < n / 2; i++) {
		cdf += p;
		k = i + 1;
		p = p * (double)(n - i) / (double)(i + 1);
	}
	if (!k)
		return 0;
	*lo = v[k - 1];
	*hi = v[n - k];
	return 1 - 2 * cdf;
}

/*
 * Workload @w: a warm-up pair, then the pairs in ABBA order, the verdict
 * printed and folded into x->rc.  -1 when a signal stopped it.
 */
static int
workload(struct ctx *x, int w)
{
	size_t n = x->c->pairs, i;
	double *ratio = calloc(n, sizeof(double));
	double *on = calloc(n, sizeof(double));
	double *off = calloc(n, sizeof(double));
	double row[VB_TRACE_NCOL], ev[NW] = { 0 }, lost = 0;
	double m, lo = 0, hi = 0, cov, mon, moff, don, doff, t0;
	const char *say;
	int o, s;

	if (!ratio || !on || !off)
		die("out of memory");
	t0 = vb_ns_to_s(vb_now_ns());
	if (block(x, w, 0, row) < 0 || block(x, w, 1, row) < 0)
		goto stopped;
	for (i = 0; i < n; i++) {
		/* ABBA: off first in even pairs, on first in odd ones */
		for (o = 0; o < 2; o++) {
			int traced = (int)(i % 2) ^ o;
			double cpu = block(x, w, traced, row);

			if (cpu < 0)
				goto stopped;
			if (!traced) {
				off[i] = cpu;
				continue;
			}
			on[i] = cpu;
			ev[0] += row[VB_TP_DIRECT * VB_NTPF + VB_TPF_N];
			ev[1] += row[VB_TP_MEMCG * VB_NTPF + VB_TPF_N];
			ev[2] += row[VB_TRACE_KSWAPD];
			lost += row[VB_TRACE_LOST];
		}
		ratio[i] = on[i] / off[i];
		if (x->c->verbose)
			printf("  %s %4zu %s %8.2f %8.2f ms %7.4f\n", wname[w],
			    i + 1, i % 2 ? "on,off" : "off,on", on[i] * 1e3,
			    off[i] * 1e3, ratio[i]);
	}
	don = 0;
	doff = 0;
	for (i = 0; i < n; i++) {
		don += on[i];
		doff += off[i];
	}
	mon = median(on, n);
	moff = median(off, n);
	m = median(ratio, n);
	cov = sign_interval(ratio, n, &lo, &hi);
	printf("  %s: CPU a block, medians: %.1f ms with tracing, %.1f ms "
	    "without (%.0f s)\n", wname[w], mon * 1e3, moff * 1e3,
	    vb_ns_to_s(vb_now_ns()) - t0);
	/* the events a traced block recorded, NAN where not traced */
	printf("  %s: events a traced block: direct reclaim %.0f, memcg "
	    "reclaim %.0f, kswapd wake-ups %.0f, lost %.0f", wname[w],
	    ev[0] / (double)n, ev[1] / (double)n, ev[2] / (double)n,
	    lost / (double)n);
	/* elsewhere the events are other processes' (system-wide) */
	if (w == W_MEMCG && ev[1] + ev[0] > 0)
		printf("; %+.2f us of CPU a stall (mean difference)",
		    (don - doff) / (ev[0] + ev[1]) * 1e6);
	printf("\n");
	if (hi <= 1.01 && cov > 0) {
		say = "within 1%";
		s = 0;
	} else if (lo > 1.01 && cov > 0) {
		say = "above 1%";
		s = 1;
	} else {
		say = "not decided";
		s = 2;
	}
	printf("trace_cost: %s CPU with tracing / without: median %.4f "
	    "(%+.2f%%) over %zu pairs, %.1f%% interval [%.4f, %.4f] "
	    "(%+.2f%%, %+.2f%%): %s\n", wname[w], m, (m - 1) * 100, n,
	    cov * 100, lo, hi, (lo - 1) * 100, (hi - 1) * 100, say);
	fflush(stdout);
	/* above beats not decided beats within */
	if (s == 1 || (s == 2 && x->rc == 0))
		x->rc = s;
	free(ratio);
	free(on);
	free(off);
	return 0;
stopped:
	free(ratio);
	free(on);
	free(off);
	return -1;
}

int
main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct cfg c;
	struct ctx x;
	struct utsname u;
	char err[8192], stamp[64], l1[16] = "?", l5[16] = "?", l15[16] = "?";
	time_t now = time(NULL);
	FILE *f;
	int w;

	vb_set_progname("trace_cost");
	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		printf("usage: tools/trace_cost [options]\n");
		vb_opt_usage(stdout, opts);
		return 0;
	}
	if (vb_opt_parse(opts, &c, argc - 1, argv + 1, NULL, err,
	    sizeof(err)) < 0) {
		fprintf(stderr, "trace_cost: %s\nusage: tools/trace_cost "
		    "[options]\n", err);
		vb_opt_usage(stderr, opts);
		return 2;
	}
	memset(&x, 0, sizeof(x));
	x.mach.fd = -1;
	x.c = &c;
	/* no SA_RESTART: wait4() returns, the block ends, we clean up */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	vb_set_die_hook(teardown, &x);
	vb_trace_recover();
	if (vb_trace_open(&x.tr, err, sizeof(err)) < 0) {
		printf("trace_cost: %s: skipped\n", err);
		return 77;
	}
	if (err[0])
		printf("trace_cost: %s\n", err);
	if (vb_trace_close(&x.tr, err, sizeof(err)) < 0)
		die("%s", err);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	uname(&u);
	if ((f = fopen("/proc/loadavg", "r"))) {
		if (fscanf(f, "%15s %15s %15s", l1, l5, l15) != 3)
			snprintf(l1, sizeof(l1), "?");
		fclose(f);
	}
	printf("trace_cost: %s, Linux %s, %ld CPUs, load average %s %s %s; "
	    "%llu pairs a workload, ABBA\n", stamp, u.release,
	    sysconf(_SC_NPROCESSORS_ONLN), l1, l5, l15,
	    (unsigned long long)c.pairs);
	printf("  fork: %llu forks, %llu ints each; fault: %llu x %llu MiB "
	    "mapped, a byte a page;\n  memcg: the same under a %llu MiB "
	    "memory cgroup, MADV_FREE each MiB\n",
	    (unsigned long long)c.forks, (unsigned long long)c.ints,
	    (unsigned long long)c.passes,
	    (unsigned long long)(c.fault_size >> 20),
	    (unsigned long long)(c.memcg_limit >> 20));
	fflush(stdout);
	for (w = 0; w < NW && !stop_signal; w++) {
		if (strcmp(c.part, "all") && strcmp(c.part, wname[w]))
			continue;
		if (w == W_MEMCG && c.fault_size <= c.memcg_limit) {
			printf("trace_cost: memcg: left out: --fault-size is "
			    "not above --memcg-limit: nothing to reclaim\n");
			continue;
		}
		if (w == W_MEMCG && (claim_machine(&x, err, sizeof(err)) < 0 ||
		    vb_memlimit_create(&x.mem, c.memcg_limit,
		    VB_MEMLIMIT_NOSWAP, err, sizeof(err)) < 0)) {
			printf("trace_cost: memcg: left out: %s\n", err);
			continue;
		}
		if (w == W_MEMCG && record_cgroup(&x) < 0)
			die_errno("cannot write %s", x.st.path);
		if (workload(&x, w) < 0)
			break;
		if (w == W_MEMCG && vb_memlimit_remove(&x.mem, err,
		    sizeof(err)) < 0)
			vb_warn("%s", err);
		else if (w == W_MEMCG) {
			x.st.cgroup[0] = '\0';
			if (vb_state_save(&x.st) < 0)
				die_errno("cannot write %s", x.st.path);
		}
	}
	teardown(&x);
	if (stop_signal) {
		fprintf(stderr, "trace_cost: stopped by signal %d, tracing "
		    "state restored\n", (int)stop_signal);
		return 128 + stop_signal;
	}
	return x.rc;
}
