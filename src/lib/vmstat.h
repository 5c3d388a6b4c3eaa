/*
 * vmstat.h - reading /proc/vmstat, /proc/stat and /proc/meminfo, and the
 * sampler that records them as a time series while a benchmark runs.
 *
 * Reading is cheap by construction: the three files are opened once and
 * re-read with pread() at offset 0 into one preallocated buffer; nothing
 * is allocated per sample.  The /proc root is a parameter so that tests
 * can point it at fixture files.
 *
 * Counters whose names changed between kernel versions are summed by
 * family (see vb_ctr_defs in vmstat.c): allocstall and allocstall_<zone>;
 * workingset_refault or workingset_refault_anon + _file; pgscan_kswapd or
 * pgscan_kswapd_<zone> (the same for pgscan_direct, pgsteal_kswapd,
 * pgsteal_direct; pgscan_direct_throttle is an event count, not pages,
 * and is left out).  pgsteal_anon/pgsteal_file and pgscan_anon/_file
 * count the same pages again by type and are never added to those.
 * They feed two counters of their own instead, pgscan_total and
 * pgsteal_total: reclaim on behalf of a memory cgroup's limit (MEM=) is
 * counted there and in the cgroup, but not in the global kswapd/direct
 * counters, so without them a run under a limit shows no reclaim.  A
 * counter absent from this kernel is marked absent, not zero.
 */
#ifndef VB_VMSTAT_H
#define VB_VMSTAT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

enum vb_ctr {
	VB_PSWPIN, VB_PSWPOUT, VB_PGMAJFAULT, VB_PGFAULT,
	VB_PGSCAN_KSWAPD, VB_PGSCAN_DIRECT, VB_PGSTEAL_KSWAPD,
	VB_PGSTEAL_DIRECT, VB_ALLOCSTALL, VB_WS_REFAULT, VB_THP_FAULT_ALLOC,
	VB_OOM_KILL, VB_PGPGIN, VB_PGPGOUT, VB_PGSCAN_TOTAL, VB_PGSTEAL_TOTAL,
	VB_NCTR
};

/* Name of each counter as recorded (e.g. "pgscan_kswapd"). */
extern const char *const vb_ctr_names[VB_NCTR];

/* One reading of the three files. */
struct vb_snap {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	uint64_t ctr[VB_NCTR];		/* /proc/vmstat, summed by family */
	uint32_t present;		/* bit per counter found */
	/* /proc/stat: jiffies per state, summed over CPUs */
	uint64_t cpu_user, cpu_nice, cpu_sys, cpu_idle, cpu_iowait,
	    cpu_irq, cpu_softirq, cpu_steal;
	uint64_t intr, ctxt;
	uint64_t procs_running, procs_blocked;
	/* /proc/meminfo, kB */
	uint64_t mem_total, mem_free, mem_available, buffers, cached,
	    sreclaimable, swap_total, swap_free;
};

/*
 * /proc/vmstat's layout as learnt from a whole reading: which lines feed
 * a counter (their index, name and counter), and how many bytes reach
 * through the last of them.  The kernel compiles the list of lines in
 * (vmstat_text[]), so it is fixed while the machine is up; only the
 * digits change.  See vb_proc_read_vmstat().
 */
#define VB_VM_NEED_MAX	96
struct vb_vmline {
	int line;
	int ctr;
	size_t nlen;
	size_t end;		/* where the line ended when learnt */
	char name[48];
};

struct vb_proc {
	int fd_vmstat, fd_stat, fd_meminfo;
	char *buf;
	size_t bufsz;
	struct vb_vmline need[VB_VM_NEED_MAX];
	int nneed;		/* 0: layout unknown, read the whole file */
	size_t want;		/* bytes to ask for */
	/* the same for the quick counters (vb_proc_read_vmstat()) */
	int nquick;
	uint32_t quick;		/* bit per counter a quick read updates */
	size_t want_quick;
	long relearnt;		/* whole readings after the first (tests) */
};

/* Open @root/vmstat, @root/stat and @root/meminfo. 0 or -1 (errno). */
int vb_proc_open(struct vb_proc *p, const char *root);
void vb_proc_close(struct vb_proc *p);
/* Read all three into @s.  0 or -1. */
int vb_proc_read(struct vb_proc *p, struct vb_snap *s);
/*
 * Read only /proc/vmstat's quick counters, those worth following below
 * a second (all but oom_kill and thp_fault_alloc, which the kernel
 * prints last): t_ns, and the ctr and present bits of the counters in
 * @p->quick, are replaced; the rest of @s is left as it was.  0 or -1.
 *
 * The first reading is whole and learns the layout; later ones ask only
 * for the bytes through the last line they need, and parse only the
 * lines that feed a counter.  The kernel prints /proc/vmstat a line at
 * a time as it is read, so the lines nobody asks for cost nothing: a
 * fifth of the file for vb_proc_read(), two fifths for the quick
 * counters on 6.x, and the read that would return 0 is saved too.  A
 * line found under another name, or missing, makes it read the whole
 * file again and relearn.
 */
int vb_proc_read_vmstat(struct vb_proc *p, struct vb_snap *s);

/*
 * Deltas b - a of the counters, into @delta; @present receives the bits
 * of counters present in both.  pswpin/pswpout stay in pages here;
 * vb_ctr_kb() converts.
 */
void vb_snap_delta(const struct vb_snap *b, const struct vb_snap *a,
    uint64_t *delta, uint32_t *present);
/* Pages to kB with this machine's page size. */
double vb_pages_kb(uint64_t pages);

/*
 * The sampler: a process of its own that reads /proc every @interval_ns
 * on absolute deadlines and appends one line per sample to @out (the
 * .vmstat file: the `vmstat 1` columns, then the raw counters); it locks
 * its memory (mlockall) so that memory pressure cannot stall it.
 * vb_sampler_set_iter() labels the following samples.
 *
 * A process, not a thread: once a process has had a second thread,
 * glibc's fork() takes its multi-threaded path in it and in every child
 * forked from it (all malloc arenas and the stdio list locked and
 * unlocked around each fork, atfork work in the child: forkbomb took
 * 27 page faults a fork instead of 14), and the harness forks the
 * benchmarks' iteration processes.  It is a "clone child" (no exit signal), so the harness's
 * wait(-1) loops, which reap an iteration's orphans, neither see it nor
 * wait for it; it ignores SIGINT, SIGTERM and SIGHUP (the harness stops
 * it in order, flushing its rows) and dies with the harness.
 */
struct vb_sampler_shared {		/* a shared page */
	int stop;			/* a futex word: 1 asks to stop */
	int iter;
	long samples;			/* written by the sampler at its end */
	uint64_t cpu_ns;
	int err;			/* errno of a failed write: it stopped */
	/*
	 * The lowest MemAvailable (kB) of the whole readings taken while
	 * an iteration was set (vb_sampler_set_iter() not 0), since the
	 * last vb_sampler_mem_reset(); UINT64_MAX when none.
	 */
	uint64_t avail_min;
};

struct vb_sampler {
	pid_t pid;			/* the sampler process, or 0 */
	struct vb_sampler_shared *sh;
	struct vb_proc proc;
	FILE *out;
	uint64_t interval_ns;
	struct vb_snap prev;
	int running;
	uint64_t t0_ns;
	long samples;			/* after vb_sampler_stop() */
	uint64_t cpu_ns;		/* CPU time the sampler used */
	int err;			/* after vb_sampler_stop(): errno of a
					   failed write of @out, or 0 */
};

int vb_sampler_start(struct vb_sampler *s, const char *root, FILE *out,
    uint64_t interval_ns);
void vb_sampler_set_iter(struct vb_sampler *s, int iter);
void vb_sampler_stop(struct vb_sampler *s);
/* Start a new lowest MemAvailable (struct vb_sampler_shared). */
void vb_sampler_mem_reset(struct vb_sampler *s);
/* The lowest MemAvailable since the reset, kB; UINT64_MAX: none seen. */
uint64_t vb_sampler_mem_min(const struct vb_sampler *s);
/* Write the .vmstat header (column names) to @out. */
void vb_vmstat_header(FILE *out, uint64_t interval_ns);
/*
 * Format one sample row from two consecutive snapshots (rates over the
 * time between them): "t iter r b swpd free buff cache si so bi bo in cs
 * us sy id wa st" then the raw counters ("-" when absent).
 */
void vb_vmstat_row(FILE *out, const struct vb_snap *cur,
    const struct vb_snap *prev, uint64_t t0_ns, int iter);
/*
 * The same with the /proc/stat and /proc/meminfo columns (r b swpd free
 * buff cache in cs us sy id wa st) taken from @scur, their rates over
 * @sprev..@scur: for samples that read only /proc/vmstat.
 */
void vb_vmstat_row_split(FILE *out, const struct vb_snap *cur,
    const struct vb_snap *prev, const struct vb_snap *scur,
    const struct vb_snap *sprev, uint64_t t0_ns, int iter);

#endif
