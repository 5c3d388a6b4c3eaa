/*
 * harness.h - the harness every benchmark program is a thin main() over.
 *
 * A benchmark is one const struct (designated initialisers) and a
 * main() that calls vb_main(), which VB_MAIN() writes:
 *
 *	static const struct vb_bench forkbomb = {
 *		.name = "forkbomb",
 *		.summary = "fork() and malloc() many times",
 *		.opts = opts, .cfg_size = sizeof(struct cfg),
 *		.metrics = metrics, .headline = "forks_per_s",
 *		.validate = validate, .run = run,
 *	};
 *
 *	VB_MAIN(forkbomb)
 *
 * What vb_main() does, so that no program re-implements it:
 *  - parses the bench's options and the common ones (--iterations,
 *    --out, --workdir, --interval, --variant, --check, --help), and
 *    records the bench's on the result's cmdline line (a one-letter
 *    spelling by its long name: -j4 as --jobs 4);
 *  - takes the figures and headline of the mode given, if any (.modes);
 *  - creates a private work folder <workdir>/vmbench-<name>.<pid> and
 *    removes it at the end, on error and on SIGINT/SIGTERM/SIGHUP;
 *  - runs the vmstat sampler (a process, see vmstat.h), writing
 *    <out>.vmstat, and, after setup(), mlockall()s itself;
 *  - for each iteration: reads /proc, forks a child in its own process
 *    group that calls bench->run(), reaps it with wait4() (rusage of the
 *    whole tree, see rusage.h), reads /proc again, and records elapsed
 *    (CLOCK_MONOTONIC from just before fork() to just after wait4()),
 *    the rusage figures, the vmstat deltas and the figures run()
 *    reported with vb_report();
 *  - rewrites <out>.res after every iteration (status "running"), and
 *    at the end with status complete, failed or interrupted;
 *  - on a signal: kills the child's process group, keeps the finished
 *    iterations, marks the result interrupted and exits 130;
 *  - ignores SIGPIPE (a closed stdout, stderr or progress pipe only
 *    stops that output), and so does the iteration child for those
 *    three (run() may print: `tio | head -1` runs to its end); any
 *    other pipe without a reader still ends a workload's process by
 *    SIGPIPE, as in a plain program;
 *  - a .res or .vmstat that cannot be written (a full disk) stops the
 *    run: said on stderr, the result marked failed, exit 1;
 *  - notes in the .res a sampler that died before its time ("vmstat
 *    series incomplete: sampler died (signal 9) at iteration 2").
 *
 * Elapsed includes one fork() and exit() of the harness child (about
 * 0.1 ms; with .exec_run also its exec: about 1 ms of CPU and 80 minor
 * faults, a few ms of elapsed time); figures that need better
 * resolution are timed inside run() and reported by the bench itself.
 *
 * Environment: VMBENCH_WORKDIR (default work folder, else /var/tmp),
 * VMBENCH_PROGRESS_FD (the runner's progress pipe: "iter I N SECONDS"
 * lines, and "error LINE" for each error or warning line), VMBENCH_PROC
 * (the /proc root, for tests), VMBENCH_EXEC=0 (see .exec_run);
 * VMBENCH_ITERATION is the harness's own, for an exec'd iteration child.
 */
#ifndef VB_HARNESS_H
#define VB_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "opt.h"
#include "res.h"

#include "metric.h"	/* struct vb_metric */

struct vb_iter;

/*
 * A figure that is the benchmark's amount of work (bytes filled, forks
 * made), not its speed: the report compares a benchmark's other figures
 * only between results whose work is the same, equal within @tol_pct
 * percent (0: exactly, for counts).  Written on the .res "work" line.
 */
struct vb_work {
	const char *metric;	/* a figure of .metrics (of every mode) */
	double tol_pct;
};

/*
 * A mode: a flag of the bench's options that makes it measure something
 * else, with figures and a headline of its own (tio --creates: bonnie++'s
 * creates and deletes, not tiobench's rates).  The harness picks the
 * figures after parsing; --help lists every mode's.
 */
struct vb_mode {
	const char *flag;		/* a VB_OPT_FLAG of .opts */
	const struct vb_metric *metrics; /* { 0 }-terminated */
	const char *headline;
};

struct vb_bench {
	const char *name;
	const char *summary;		/* one line for --help */
	const struct vb_opt *opts;	/* { 0 }-terminated */
	size_t cfg_size;		/* the struct opts store into */
	const struct vb_metric *metrics; /* { 0 }-terminated */
	const char *headline;		/* metric for the run summary */
	/*
	 * The figures that are the amount of work, { 0 }-terminated, or
	 * NULL when the parameters alone fix it (the report compares
	 * those: param lines).
	 */
	const struct vb_work *work;
	/* { 0 }-terminated, or NULL; the first whose flag is set applies */
	const struct vb_mode *modes;
	/*
	 * After parsing, before anything is created: check combinations
	 * and limits (RLIMIT_NPROC: vb_check_nproc(), memory).  -1 with a
	 * message in @err.
	 */
	int (*validate)(void *cfg, char *err, size_t errlen);
	/*
	 * Once, in the parent, after the work folder exists.  -1: fail.
	 * The parent mlockall()s itself after setup(): whatever setup()
	 * leaves allocated stays pinned, so keep it small (or do big work
	 * in a child).
	 */
	int (*setup)(void *cfg, const char *workdir);
	/* One iteration, in a forked child.  0 on success. */
	int (*run)(void *cfg, struct vb_iter *it);
	/*
	 * 1: the forked iteration child re-executes the program, which
	 * parses the same options and calls run() at once, so that run()
	 * starts in a process that carries no more than a plain program
	 * does (none of the harness's heap, buffers, sampler mapping or
	 * open files, which a fork-heavy run() would copy at every fork).
	 * run() then sees the options but nothing setup() left in memory.
	 * VMBENCH_EXEC=0 in the environment runs it in the forked harness
	 * child instead, as when 0 (for comparison).
	 */
	int exec_run;
	/*
	 * 1 (with .exec_run): the iteration child re-executes with
	 * ADDR_NO_RANDOMIZE in its personality (setarch -R), which what
	 * run() forks and execs inherits, so that every run, iteration and
	 * kernel times processes of one address-space layout.  Drawn anew
	 * at each exec, the layout changes how many page-table pages a
	 * fork copies and frees (vmlat's VmPTE 44 to 52 kB from run to
	 * run, 32 kB fixed): a per-run offset in what a fork costs.
	 * Noted in the result; VMBENCH_EXEC=0 (no exec) keeps the
	 * harness's own layout, and no note.
	 */
	int fixed_layout;
	/* Once, in the parent, also after a failure or an interrupt. */
	void (*teardown)(void *cfg, const char *workdir);
};

int vb_main(const struct vb_bench *b, int argc, char **argv);

/* The main() of a benchmark program: vb_main() over its descriptor. */
#define VB_MAIN(bench)							\
int									\
main(int argc, char **argv)						\
{									\
	return vb_main(&(bench), argc, argv);				\
}

/*
 * From validate(): can this user run @n more processes at once?
 * RLIMIT_NPROC less a margin of 16 (what the user already runs is not
 * cheaply known).  -1 with "--@opt N: RLIMIT_NPROC is M; @why" in @err.
 */
int vb_check_nproc(uint64_t n, const char *opt, const char *why, char *err,
    size_t errlen);

/*
 * From run(): record a figure of this iteration (name from .metrics, or
 * from the mode's).
 */
void vb_report(struct vb_iter *it, const char *metric, double value);
/* From run(): the private work folder (exists, empty at the start). */
const char *vb_iter_workdir(const struct vb_iter *it);
/* From run(): 1-based iteration number. */
int vb_iter_num(const struct vb_iter *it);
/* Has the parent been asked to stop?  (For long-running run()s.) */
int vb_stopping(void);
/*
 * From setup(), in the parent: add a note (one line) to the result, which
 * the report shows as "! <label>: <note>".
 */
void vb_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The harness's own per-iteration metrics, in .res column order. */
extern const struct vb_metric vb_std_metrics[];

struct vb_rusage;
struct vb_snap;
/*
 * Fill the vb_std_metrics columns of @row: rusage figures from @u, the
 * vmstat deltas @b - @a (swap in kB; absent counters stay NAN).  For
 * programs that measure themselves outside vb_main() (the probe).
 * @a or @b NULL: rusage only.
 */
void vb_std_row(double *row, const struct vb_rusage *u,
    const struct vb_snap *b, const struct vb_snap *a);

#endif
