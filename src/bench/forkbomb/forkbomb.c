/*
 * forkbomb.c - fork() and malloc() many times (Kulesa, 2002: 10,000 forks
 * with 10,000 ints; 1,000,000 forks with 1,000 ints).
 *
 * Each child mallocs --ints ints, writes every one (so every page is
 * faulted in), and _exit()s; the parent reaps them, keeping at most
 * --concurrency alive (1: the original's fork-wait loop).  With
 * --parent-mem the parent first maps and touches that much anonymous
 * memory, so every fork() must copy those page tables and set up the
 * reverse mappings: the case that made rmap expensive.
 *
 * The fork loop is timed inside the child with CLOCK_MONOTONIC, after
 * --parent-mem is touched, so forks/s and us/fork exclude the parent's
 * set-up; the harness's elapsed includes it.
 *
 * Every fork() copies the forking process's page tables and mappings,
 * so the loop runs in a freshly exec'd copy of the program (the
 * harness's .exec_run), which carries no more than a plain program:
 * the figures are the kernel's fork, not the harness's size
 * (VMBENCH_EXEC=0 runs it in the forked harness child instead).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "proc.h"

struct cfg {
	uint64_t forks;
	uint64_t ints;
	uint64_t concurrency;
	uint64_t parent_mem;
	int one_cpu;
};

static const struct vb_opt opts[] = {
	{ .name = "forks", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, forks), .def = "10000",
	  .min = 1, .max = 1000000000, .help = "children to fork" },
	{ .name = "ints", .type = VB_OPT_U64, .arg = "M",
	  .off = offsetof(struct cfg, ints), .def = "10000",
	  .min = 0, .max = 1ULL << 28,
	  .help = "ints each child mallocs and writes" },
	{ .name = "concurrency", .type = VB_OPT_U64, .arg = "C",
	  .off = offsetof(struct cfg, concurrency), .def = "1",
	  .min = 1, .max = 4096, .help = "children alive at most at once" },
	{ .name = "parent-mem", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, parent_mem), .def = "0",
	  .min = 0, .max = 1ULL << 40,
	  .help = "anonymous memory the parent touches before forking" },
	{ .name = "one-cpu", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, one_cpu),
	  .help = "fork on the CPU the iteration starts on, children too" },
	{ 0 },
};

static const struct vb_metric metrics[] = {
	{ "forks_per_cpu_s", "forks/s", VB_HIGHER, "forks reaped per second "
	    "of the loop's CPU time (cpu_s)", 1 },
	{ "forks_per_s", "forks/s", VB_HIGHER, "forks reaped per second", 1 },
	{ "us_per_fork", "us", VB_LOWER, "microseconds per fork+exit+wait", 1 },
	{ "forks", "forks", VB_INFO, "children forked and reaped", 0 },
	{ "cpu_s", "s", VB_LOWER, "CPU time of the loop: the forking "
	    "process's and its children's (getrusage)", 0 },
	{ "wait_s", "s", VB_INFO, "the forking process's wait for a CPU "
	    "in the loop (/proc/thread-self/schedstat)", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

/* The amount of work: every fork counts (docs/benchmarks.md). */
static const struct vb_work work[] = {
	{ "forks", 0 },
	{ NULL, 0 },
};

/*
 * Refuse what cannot work before anything runs: a concurrency above
 * RLIMIT_NPROC, and a parent memory above what the machine has.
 */
static int
validate(void *p, char *err, size_t errlen)
{
	struct cfg *c = p;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	if (vb_check_nproc(c->concurrency, "concurrency", "cannot keep that "
	    "many children alive", err, errlen) < 0)
		return -1;
	if (pages > 0 && c->parent_mem > (uint64_t)pages * (uint64_t)psz / 2) {
		snprintf(err, errlen, "--parent-mem %llu bytes: more than half "
		    "of this machine's memory", (unsigned long long)c->parent_mem);
		return -1;
	}
	return 0;
}

/* The child's whole job: allocate, write every int, leave. */
static void
child(uint64_t ints)
{
	volatile int *v = malloc(ints ? ints * sizeof(int) : 1);
	uint64_t i;

	if (!v)
		_exit(3);
	for (i = 0; i < ints; i++)
		v[i] = (int)i;
	_exit(0);
}

/* Reap one child; -1 if it failed. */
static int
reap(void)
{
	int status;
	pid_t p;

	while ((p = wait(&status)) < 0 && errno == EINTR)
		;
	if (p < 0)
		die_errno("wait");
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* CPU time so far of this process and of its reaped children, in ns. */
static uint64_t
tree_cpu_ns(void)
{
	struct rusage s, ch;
	uint64_t ns = 0;

	if (getrusage(RUSAGE_SELF, &s) < 0 ||
	    getrusage(RUSAGE_CHILDREN, &ch) < 0)
		die_errno("getrusage");
	ns += (uint64_t)s.ru_utime.tv_sec * 1000000000ULL +
	    (uint64_t)s.ru_utime.tv_usec * 1000;
	ns += (uint64_t)s.ru_stime.tv_sec * 1000000000ULL +
	    (uint64_t)s.ru_stime.tv_usec * 1000;
	ns += (uint64_t)ch.ru_utime.tv_sec * 1000000000ULL +
	    (uint64_t)ch.ru_utime.tv_usec * 1000;
	ns += (uint64_t)ch.ru_stime.tv_sec * 1000000000ULL +
	    (uint64_t)ch.ru_stime.tv_usec * 1000;
	return ns;
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	uint64_t n, alive = 0, failed = 0, t0, c0, cpu;
	char *mem = NULL;
	double secs;
	int64_t w0, w1;

	/*
	 * --one-cpu: the loop and every child stay on one CPU, so that
	 * which CPU the scheduler picks for a child (and the wake-up
	 * across CPUs it costs) is the same in every iteration.
	 */
	if (c->one_cpu && vb_pin_here() < 0)
		return 1;
	if (c->parent_mem) {
		long psz = sysconf(_SC_PAGESIZE);
		uint64_t off;

		mem = mmap(NULL, c->parent_mem, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			die_errno("cannot map %llu bytes",
			    (unsigned long long)c->parent_mem);
		for (off = 0; off < c->parent_mem; off += (uint64_t)psz)
			mem[off] = 1;
	}
	w0 = vb_run_delay_ns();
	c0 = tree_cpu_ns();
	t0 = vb_now_ns();
	for (n = 0; n < c->forks && !vb_stopping(); n++) {
		pid_t pid;

		if (alive == c->concurrency) {
			failed += reap() < 0;
			alive--;
		}
		pid = fork();
		if (pid < 0) {
			if (errno == EAGAIN && alive > 0) {
				/* transient: make room and retry */
				failed += reap() < 0;
				alive--;
				n--;
				continue;
			}
			die_errno("fork %llu of %llu failed",
			    (unsigned long long)n + 1,
			    (unsigned long long)c->forks);
		}
		if (pid == 0)
			child(c->ints);
		alive++;
	}
	while (alive > 0) {
		failed += reap() < 0;
		alive--;
	}
	secs = vb_elapsed_s(t0);
	cpu = tree_cpu_ns() - c0;
	w1 = vb_run_delay_ns();
	if (failed)
		die("%llu of %llu children failed to allocate %llu ints",
		    (unsigned long long)failed, (unsigned long long)n,
		    (unsigned long long)c->ints);
	if (cpu > 0)
		vb_report(it, "forks_per_cpu_s", (double)n / vb_ns_to_s(cpu));
	vb_report(it, "forks_per_s", (double)n / secs);
	vb_report(it, "cpu_s", vb_ns_to_s(cpu));
	vb_report(it, "us_per_fork", secs * 1e6 / (double)n);
	vb_report(it, "forks", (double)n);
	if (w0 >= 0 && w1 >= w0)
		vb_report(it, "wait_s", vb_ns_to_s((uint64_t)(w1 - w0)));
	if (mem)
		munmap(mem, c->parent_mem);
	return 0;
}

static const struct vb_bench forkbomb = {
	.name = "forkbomb",
	.summary = "fork() and malloc() many times: each child mallocs and "
	    "writes --ints ints, then exits",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "forks_per_cpu_s",
	.work = work,
	.validate = validate,
	.run = run,
	/* fork() copies the forking process: make it a plain program's */
	.exec_run = 1,
};

VB_MAIN(forkbomb)
