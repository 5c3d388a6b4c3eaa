/*
 * probe.c - the interactivity probe: the mp3 player of the old posts ("mp3
 * played 297 seconds of 304 second run"), measured in the manner of Con
 * Kolivas's interbench.
 *
 * Every period it wakes on an absolute CLOCK_MONOTONIC timer, writes one
 * byte in each page of its own buffer (so it suffers when its pages are
 * evicted: it is deliberately not mlock()ed) and burns a calibrated
 * number of loops, so that buffer + loops cost --cpu percent of a CPU
 * per period.  Profiles: audio (50 ms, 5%; the default), video (60 Hz,
 * 40%).  The deadline accounting is in acct.c.
 *
 * Calibration: the loop's cost is measured once at start-up with the
 * thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), taking the median of
 * 51 short trials, so a busy machine at start-up (the probe starts beside
 * a benchmark) does not inflate it; the buffer pass is timed the same
 * way after the buffer is first faulted in.  Each period's work is timed
 * with the same clock: % desired CPU is the CPU the work actually got
 * over what the run's periods wanted; overhead_pct is the probe's own
 * CPU beyond its work (timer wake-ups, clock reads, bookkeeping), from
 * getrusage(), as a share of one CPU.
 *
 * It is not run through the harness: it must run beside another
 * benchmark for that benchmark's whole run and say what it measured when
 * the runner stops it.  With --duration 0 (the default) one iteration
 * lasts until SIGUSR1 or SIGTERM, after which the result is written as
 * complete; SIGINT or SIGHUP write it as interrupted.  When
 * VMBENCH_READY_FD names a descriptor, one byte is written to it once the
 * probe is calibrated and about to start (the runner waits for it).  With --duration S
 * each of --iterations lasts S seconds; a signal then ends the run and
 * only whole iterations are kept (SIGUSR1 keeps the current one).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "acct.h"
#include "res.h"
#include "rusage.h"
#include "vmstat.h"

struct cfg {
	const char *profile;
	double period_ms;
	double cpu_pct;
	uint64_t buffer;
	double duration;
	/* common options, as the harness's */
	uint64_t iterations;
	const char *out;
	const char *workdir;
	double interval;
	const char *variant;
	int check;
	int help;
};

enum { O_PROFILE, O_PERIOD, O_CPU };

static const struct vb_opt opts[] = {
	[O_PROFILE] = { .name = "profile", .type = VB_OPT_STR, .arg = "NAME",
	  .off = offsetof(struct cfg, profile), .def = "audio",
	  .choices = "audio|video",
	  .help = "audio: 50 ms, 5% of a CPU; video: 60 Hz, 40%" },
	[O_PERIOD] = { .name = "period", .type = VB_OPT_DOUBLE, .arg = "MS",
	  .off = offsetof(struct cfg, period_ms), .dmin = 1, .dmax = 10000,
	  .help = "period in milliseconds (overrides the profile)" },
	[O_CPU] = { .name = "cpu", .type = VB_OPT_DOUBLE, .arg = "PCT",
	  .off = offsetof(struct cfg, cpu_pct), .dmin = 0, .dmax = 95,
	  .help = "work per period, % of one CPU (overrides the profile)" },
	{ .name = "buffer", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, buffer), .def = "4M",
	  .min = 0, .max = 1ULL << 30,
	  .help = "buffer written every period (one byte a page)" },
	{ .name = "duration", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct cfg, duration), .def = "0",
	  .dmin = 0, .dmax = 1e7,
	  .help = "length of an iteration; 0: until SIGUSR1 or SIGTERM" },
	{ .name = "iterations", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, iterations), .def = "1",
	  .min = 1, .max = 100000, .help = "iterations (with --duration)" },
	{ .name = "out", .type = VB_OPT_STR, .arg = "PREFIX",
	  .off = offsetof(struct cfg, out), .help = "write PREFIX.res" },
	{ .name = "workdir", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct cfg, workdir),
	  .help = "accepted for the runner; the probe writes no files there" },
	{ .name = "interval", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct cfg, interval), .def = "1",
	  .dmin = 0.01, .dmax = 60,
	  .help = "accepted for the runner; the probe keeps no vmstat series" },
	{ .name = "variant", .type = VB_OPT_STR, .arg = "NAME",
	  .off = offsetof(struct cfg, variant),
	  .help = "variant recorded (the runner: the companion's label)" },
	{ .name = "check", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, check),
	  .help = "validate the options and exit" },
	{ .name = "help", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, help), .help = "this text" },
	{ 0 },
};

/* The probe's figures, after the harness's standard columns. */
static const struct vb_metric metrics[] = {
	{ "played_pct", "%", VB_HIGHER,
	    "share of the run's periods played", 1 },
	{ "played_s", "s", VB_HIGHER, "seconds played", 0 },
	{ "total_s", "s", VB_INFO, "seconds of the run", 0 },
	{ "lat_mean", "ms", VB_LOWER, "wake-up latency, mean", 0 },
	{ "lat_sd", "ms", VB_LOWER, "wake-up latency, standard deviation", 0 },
	{ "lat_p50", "ms", VB_LOWER, "wake-up latency, median", 0 },
	{ "lat_p99", "ms", VB_LOWER, "wake-up latency, 99th percentile", 1 },
	{ "lat_max", "ms", VB_LOWER, "wake-up latency, maximum", 1 },
	{ "stall_max", "ms", VB_LOWER, "longest run of unplayed periods", 1 },
	{ "desired_cpu_pct", "%", VB_HIGHER, "CPU the work got / wanted", 0 },
	{ "deadlines_met_pct", "%", VB_HIGHER, "periods done by their "
	    "deadline", 0 },
	{ "overhead_pct", "%", VB_LOWER, "the probe's CPU beyond its work, "
	    "% of one CPU", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

static volatile sig_atomic_t stop_sig;

static void
on_signal(int sig)
{
	stop_sig = sig;
}

/* The real world behind probe_loop(). */
struct world {
	char *buf;
	size_t buflen, page;
	uint64_t loops;		/* burn loops per period */
};

static volatile uint64_t burn_sink;

/* The CPU work: a dependent multiply-add chain the compiler must keep. */
static void
burn(uint64_t n)
{
	uint64_t x = burn_sink, i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	burn_sink = x;
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * VB_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void
touch(struct world *w)
{
	size_t off;

	for (off = 0; off < w->buflen; off += w->page)
		((volatile char *)w->buf)[off]++;
}

static uint64_t
w_now(void *ctx)
{
	(void)ctx;
	return vb_now_ns();
}

/* Absolute sleep that a stop signal cuts short. */
static void
w_sleep_until(void *ctx, uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / VB_NSEC_PER_SEC),
		.tv_nsec = (long)(t % VB_NSEC_PER_SEC),
	};

	(void)ctx;
	while (!stop_sig && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
	    &ts, NULL) == EINTR)
		;
}

static uint64_t
w_work(void *ctx)
{
	struct world *w = ctx;
	uint64_t c0 = thread_cpu_ns();

	touch(w);
	burn(w->loops);
	return thread_cpu_ns() - c0;
}

static int
w_stop(void *ctx)
{
	(void)ctx;
	return stop_sig != 0;
}

static const struct probe_ops world_ops = {
	.now = w_now, .sleep_until = w_sleep_until, .work = w_work,
	.stop = w_stop,
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Loops per period so that buffer pass + loops cost @slice_ns of CPU:
 * the median of 51 short trials of each (see the header comment).  Not
 * the fastest: that underestimates what a slice usually costs, so the
 * probe would ask for 10-20% more CPU than configured; the median is
 * what a slice costs on a quiet machine, and a few slow trials (in a
 * virtual machine the thread's CPU clock also runs while the host runs
 * something else) do not move it.
 */
static uint64_t
calibrate(struct world *w, uint64_t slice_ns)
{
	enum { TRIALS = 51 };
	const uint64_t n = 200000;
	uint64_t loop[TRIALS], tch[TRIALS], t;
	int i;

	for (i = 0; i < TRIALS; i++) {
		t = thread_cpu_ns();
		burn(n);
		loop[i] = thread_cpu_ns() - t;
		t = thread_cpu_ns();
		touch(w);
		tch[i] = thread_cpu_ns() - t;
	}
	qsort(loop, TRIALS, sizeof(loop[0]), cmp_u64);
	qsort(tch, TRIALS, sizeof(tch[0]), cmp_u64);
	if (loop[TRIALS / 2] == 0)
		loop[TRIALS / 2] = 1;
	if (slice_ns <= tch[TRIALS / 2])
		return 0;
	return (uint64_t)((double)(slice_ns - tch[TRIALS / 2]) * (double)n /
	    (double)loop[TRIALS / 2]);
}

static void
usage(void)
{
	const struct vb_metric *m;

	printf("usage: probe [options]\nThe interactivity probe: a periodic "
	    "deadline task (interbench audio/video) that runs beside a "
	    "benchmark.\n\nOptions:\n");
	vb_opt_usage(stdout, opts);
	/* what the runner reads: a companion, without --append */
	printf("\nCompanion: with=probe[:PROFILE] in a config runs it "
	    "beside the line's\nbenchmark; it says it is ready on "
	    "VMBENCH_READY_FD and ends complete\non SIGUSR1.\n");
	printf("\nFigures (besides time, rusage and vmstat deltas):\n");
	for (m = metrics; m->name; m++)
		printf("  %-22s %s (%s, %s)\n", m->name, m->desc, m->unit,
		    m->dir == VB_LOWER ? "lower is better" : m->dir ==
		    VB_HIGHER ? "higher is better" : "information");
}

/* The "cmdline" and "param" lines, as the harness writes them. */
static void
record(struct vb_res *r, const struct cfg *c, int argc, char **argv)
{
	const struct vb_opt *o;
	char buf[4096], val[256];
	size_t len;
	int i;

	len = (size_t)snprintf(buf, sizeof(buf), "probe");
	for (i = 1; i < argc && len < sizeof(buf); i++) {
		const char *a = argv[i];

		if (!strncmp(a, "--out", 5) || !strncmp(a, "--workdir", 9) ||
		    !strncmp(a, "--interval", 10) ||
		    !strncmp(a, "--iterations", 12) ||
		    !strncmp(a, "--variant", 9)) {
			if (!strchr(a, '='))
				i++;
			continue;
		}
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %s", a);
	}
	vb_res_set_cmdline(r, buf);
	for (o = opts; o->name; o++) {
		if (o->off >= offsetof(struct cfg, iterations))
			break;
		vb_opt_format(o, c, val, sizeof(val));
		vb_res_add_param(r, o->name, val[0] ? val : "-");
	}
}

static int write_failed;

/*
 * Write the result with @status; a failure is said once and fails the
 * run (the file written last is marked failed, see vb_res_save()).
 */
static void
save(struct vb_res *r, const char *path, const char *status)
{
	if (!path || vb_res_save(path, r, status) == 0)
		return;
	if (!write_failed)
		vb_warn_errno("cannot write %s", path);
	write_failed = 1;
}

/*
 * One iteration: the loop, then the row.  Returns 0, or -1 when it was
 * cut short by a signal other than SIGUSR1 in --duration mode.
 */
static int
iterate(struct vb_res *r, const struct cfg *c, struct world *w,
    struct vb_proc *proc, int num, uint64_t period_ns, uint64_t slice_ns)
{
	struct probe_acct a;
	struct probe_figures f;
	struct vb_snap s0, s1;
	struct rusage ru0, ru1;
	struct vb_rusage u0, u1, u;
	uint64_t end, t0, work = 0;
	double *row, v[16];
	size_t i;
	int m, ok_proc;

	ok_proc = vb_proc_read(proc, &s0) == 0;
	getrusage(RUSAGE_SELF, &ru0);
	t0 = vb_now_ns();
	end = probe_loop(&a, &world_ops, w, period_ns, (uint64_t)(c->duration
	    * 1e9));
	if (!end)
		die("out of memory after %zu periods", a.n);
	getrusage(RUSAGE_SELF, &ru1);
	ok_proc = ok_proc && vb_proc_read(proc, &s1) == 0;
	probe_acct_finish(&a, end, slice_ns, &f);
	if (c->duration > 0 && stop_sig && stop_sig != SIGUSR1) {
		probe_acct_free(&a);
		return -1;
	}
	for (i = 0; i < a.n; i++)
		work += a.rec[i].cpu_ns;
	probe_acct_free(&a);

	vb_rusage_from(&u0, &ru0, 0);
	vb_rusage_from(&u1, &ru1, vb_ns_to_s(end - t0));
	vb_rusage_diff(&u, &u1, &u0);
	u.elapsed = vb_ns_to_s(end - t0);
	row = vb_res_add_iter(r);
	vb_std_row(row, &u, ok_proc ? &s1 : NULL, ok_proc ? &s0 : NULL);
	v[0] = f.deadlines_met_pct;
	v[1] = f.played_s;
	v[2] = f.total_s;
	v[3] = f.lat_mean;
	v[4] = f.lat_sd;
	v[5] = f.lat_p50;
	v[6] = f.lat_p99;
	v[7] = f.lat_max;
	v[8] = f.stall_max;
	v[9] = f.desired_cpu_pct;
	v[10] = f.deadlines_met_pct;
	v[11] = u.elapsed > 0 ? ((u.user + u.sys) - vb_ns_to_s(work)) /
	    u.elapsed * 100 : NAN;
	m = vb_res_metric_index(r, "played_pct");
	for (i = 0; i < 12; i++)
		row[m + (int)i] = v[i];
	printf("iteration %d: played %.*f of %.*f seconds (%.0f%%); latency "
	    "%.3f +/- %.3f ms, p99 %.3f, max %.3f; longest stall %.0f ms; "
	    "desired CPU %.1f%%; deadlines met %.1f%%\n", num,
	    f.total_s < 100, f.played_s, f.total_s < 100, f.total_s,
	    isnan(f.deadlines_met_pct) ? 0 : f.deadlines_met_pct,
	    f.lat_mean, f.lat_sd, f.lat_p99, f.lat_max, f.stall_max,
	    f.desired_cpu_pct, f.deadlines_met_pct);
	fflush(stdout);
	return 0;
}

int
main(int argc, char **argv)
{
	struct cfg c;
	struct world w = { 0 };
	struct vb_res r;
	struct vb_proc proc;
	struct sigaction sa;
	const struct vb_metric *m;
	char err[512], path[4096];
	const char *root = getenv("VMBENCH_PROC"), *ready;
	uint64_t given = 0, period_ns, slice_ns;
	int i, rc = 0;

	vb_set_progname("probe");
	/* a closed stdout or stderr only stops the printing */
	signal(SIGPIPE, SIG_IGN);
	memset(&c, 0, sizeof(c));
	if (vb_opt_parse(opts, &c, argc - 1, argv + 1, &given, err,
	    sizeof(err)) < 0)
		die("%s", err);
	if (c.help) {
		usage();
		return 0;
	}
	if (!(given & (1u << O_PERIOD)))
		c.period_ms = strcmp(c.profile, "video") ? 50 : 1000.0 / 60;
	if (!(given & (1u << O_CPU)))
		c.cpu_pct = strcmp(c.profile, "video") ? 5 : 40;
	if (c.duration > 0 && c.duration * 1000 < c.period_ms)
		die("--duration %g: shorter than one period (%g ms)",
		    c.duration, c.period_ms);
	if (c.duration == 0 && c.iterations > 1)
		die("--iterations %llu: needs --duration (without it one run "
		    "lasts until SIGUSR1 or SIGTERM)",
		    (unsigned long long)c.iterations);
	if (c.check)
		return 0;
	period_ns = (uint64_t)(c.period_ms * 1e6);
	slice_ns = (uint64_t)((double)period_ns * c.cpu_pct / 100);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	w.page = (size_t)sysconf(_SC_PAGESIZE);
	w.buflen = (size_t)c.buffer;
	if (w.buflen) {
		w.buf = mmap(NULL, w.buflen, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (w.buf == MAP_FAILED)
			die_errno("cannot map a %llu-byte buffer",
			    (unsigned long long)c.buffer);
		memset(w.buf, 1, w.buflen);
	}
	w.loops = calibrate(&w, slice_ns);
	if (vb_proc_open(&proc, root && *root ? root : "/proc") < 0)
		die_errno("cannot open %s", root && *root ? root : "/proc");

	vb_res_init(&r, "probe", c.variant);
	vb_iso_time(r.started, sizeof(r.started));
	record(&r, &c, argc, argv);
	for (m = vb_std_metrics; m->name; m++)
		vb_res_set_key(&r, vb_res_add_metric(&r, m->name,
		    m->unit, m->dir), m->key);
	for (m = metrics; m->name; m++)
		vb_res_set_key(&r, vb_res_add_metric(&r, m->name,
		    m->unit, m->dir), m->key);
	snprintf(r.headline, sizeof(r.headline), "played_pct");
	if (c.out)
		snprintf(path, sizeof(path), "%s.res", c.out);
	save(&r, c.out ? path : NULL, "running");
	if (write_failed)
		return 1;
	printf("probe: every %.3g ms, %.3g%% of a CPU (%llu loops + %llu kB "
	    "buffer), %s\n", c.period_ms, c.cpu_pct,
	    (unsigned long long)w.loops, (unsigned long long)c.buffer >> 10,
	    c.duration > 0 ? "timed" : "until SIGUSR1 or SIGTERM");
	fflush(stdout);
	/* the runner waits for this before it starts the benchmark */
	ready = getenv("VMBENCH_READY_FD");
	if (ready && *ready) {
		int fd = atoi(ready);

		if (write(fd, "r", 1) != 1)
			vb_warn_errno("cannot tell the runner that I am ready");
		close(fd);
	}

	for (i = 1; i <= (int)c.iterations; i++) {
		if (iterate(&r, &c, &w, &proc, i, period_ns, slice_ns) < 0 ||
		    stop_sig)
			break;
		save(&r, c.out ? path : NULL, "running");
	}
	vb_proc_close(&proc);
	/* stopping as asked (the runner's SIGUSR1/SIGTERM) is completion */
	if (stop_sig == SIGINT || stop_sig == SIGHUP ||
	    (stop_sig == SIGTERM && c.duration > 0)) {
		save(&r, c.out ? path : NULL, "interrupted");
		fprintf(stderr, "probe: interrupted by signal %d after %d "
		    "iteration%s\n", (int)stop_sig, r.niter,
		    r.niter == 1 ? "" : "s");
		rc = 130;
	} else {
		save(&r, c.out ? path : NULL, "complete");
	}
	if (write_failed)
		rc = 1;
	vb_res_free(&r);
	if (w.buf)
		munmap(w.buf, w.buflen);
	return rc;
}
