/*
 * scope.h - which of the machine's activity during an iteration was the
 * benchmark's own: its memory cgroup's counters (under MEM=), and the
 * CPU time the rest of the machine used (to tell a quiet run from one
 * that shared the machine).
 *
 * The cgroup is named by the runner in the environment:
 * VMBENCH_CGROUP (its folder) and VMBENCH_CGROUP_VERSION (1 or 2).
 *
 *	counter            v2 (memory.stat, .events)    v1 (memory.stat, ...)
 *	cg_pgfault         pgfault                      pgfault
 *	cg_pgmajfault      pgmajfault                   pgmajfault
 *	cg_pswpin/out      pswpin/pswpout (pages->kB)   - (v1 has none)
 *	cg_pgscan/steal    pgscan/pgsteal               -
 *	cg_workingset_refault  _anon + _file            _anon + _file
 *	cg_thp_fault_alloc thp_fault_alloc              -
 *	cg_oom_kill        memory.events oom_kill       memory.oom_control
 *	cg_mem_peak_kb     -                            memory.max_usage_in_bytes
 *	cg_memsw_peak_kb   -                            memory.memsw.max_usage_in_bytes
 *
 * Counters are deltas over the iteration; the peaks are the cgroup's
 * peak memory, and memory + swap, during it (v1 resets them before each
 * iteration; v2 cannot, so they are absent there).
 *
 * Foreign CPU: the busy time of the machine over the iteration (every
 * CPU's time less the idle, iowait and steal of /proc/stat, which the
 * kernel measures exactly; its user and system columns are sampled at
 * each tick and miss part of a fork-heavy load), less the CPU time of
 * our own processes (the iteration's process tree, the harness, the
 * sampler, the runner and a companion probe, named in VMBENCH_OURS as
 * "pid,pid"), less the CPU of kernel threads and of interrupts
 * (kswapd, writeback, the completions of block I/O work for everyone,
 * the benchmark included, and cannot be told apart).  /proc/stat counts in ticks (10 ms at 100 Hz), so a single
 * short iteration carries that much error in either direction; the
 * report judges the mean over the iterations.
 */
#ifndef VB_SCOPE_H
#define VB_SCOPE_H

#include <sys/types.h>

#include "metric.h"		/* struct vb_metric */

enum vb_cg {
	VB_CG_PGFAULT, VB_CG_PGMAJFAULT, VB_CG_PSWPIN, VB_CG_PSWPOUT,
	VB_CG_PGSCAN, VB_CG_PGSTEAL, VB_CG_REFAULT, VB_CG_THP, VB_CG_OOM,
	VB_CG_PEAK, VB_CG_MEMSW_PEAK, VB_NCG
};

/* The cg_* metrics, in enum vb_cg order ({ 0 }-terminated). */
extern const struct vb_metric vb_cg_metrics[];

struct vb_cgroup {
	int version;			/* 0: none */
	char path[4096];
};

struct vb_cgsnap {
	double v[VB_NCG];		/* NAN: not available */
};

/* The cgroup named by the environment; 0, or -1 when there is none. */
int vb_cgroup_from_env(struct vb_cgroup *cg);
/* Read the counters of @cg; missing files and keys stay NAN. */
void vb_cgroup_read(const struct vb_cgroup *cg, struct vb_cgsnap *s);
/* Start per-iteration peaks (v1: reset the max_usage_in_bytes files). */
void vb_cgroup_reset_peak(const struct vb_cgroup *cg);
/* Fill @row[0..VB_NCG) with the iteration's figures from @a to @b. */
void vb_cgroup_row(double *row, const struct vb_cgsnap *b,
    const struct vb_cgsnap *a);

/*
 * CPU time (ticks) of each kernel thread and of the pids in VMBENCH_OURS,
 * and the resident memory of ours (those, the sampler and this process).
 */
struct vb_cpuown {
	unsigned long long ours;
	unsigned long long ours_rss_kb;	/* VmRSS of ours, kB */
	int n;
	struct vb_kthread {
		long pid;
		unsigned long long ticks;
	} *kt;			/* allocated, by pid */
};

/* Scan /proc (under @proc_root) for the figures above. */
void vb_cpuown_read(const char *proc_root, pid_t sampler,
    struct vb_cpuown *c);
/*
 * Ticks kernel threads used from @a to @b: per thread, so that one that
 * ended (kworkers come and go) takes nothing away and a new one counts
 * from zero.
 */
unsigned long long vb_cpuown_kthread_delta(const struct vb_cpuown *a,
    const struct vb_cpuown *b);
void vb_cpuown_free(struct vb_cpuown *c);

/*
 * Foreign CPU in % of one CPU: the machine's busy seconds over @secs
 * less kernel threads' and ours.  NAN when @secs is not positive.
 */
double vb_foreign_cpu(double busy_s, double kthread_s, double ours_s,
    double secs);

/*
 * Foreign memory, kB: the memory in use (@total_kb - @avail_kb, MemTotal
 * less MemAvailable of /proc/meminfo) less the resident memory of our
 * own processes (@ours_kb): what other processes, tmpfs and shared
 * memory files and the kernel's unreclaimable memory hold.  NAN when
 * MemAvailable is unknown (0: kernels before 3.14).
 */
double vb_foreign_mem_kb(double total_kb, double avail_kb, double ours_kb);

#endif
