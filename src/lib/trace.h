/*
 * trace.h - reclaim and compaction latency from the kernel's
 * tracepoints, per iteration, with nothing but tracefs.
 *
 * Events (tracefs events/<system>/<event>):
 *
 *	family          begin                          end
 *	reclaim_direct  vmscan:mm_vmscan_direct_reclaim_begin   _end
 *	reclaim_memcg   vmscan:mm_vmscan_memcg_reclaim_begin    _end
 *	compaction      compaction:mm_compaction_begin  mm_compaction_end
 *	kswapd_wake     vmscan:mm_vmscan_kswapd_wake    (a count)
 *
 * A begin and the next end of the same task (pid of the trace line) make
 * one stall; per family and iteration the figures are the count, the
 * total time and the p50, p99 and max of the stalls, in us
 * (nearest-rank percentiles of the stalls themselves, not of a
 * histogram), plus kswapd's wake-ups and trace_lost, the events the
 * buffer had to drop (then the figures undercount).  An end without its
 * begin (the stall began before the iteration) and a begin without its
 * end (it ended after) are not counted; a second begin of a task
 * replaces the first (its end was lost).  The events are machine-wide,
 * like /proc/vmstat's counters: a stall of another process during the
 * iteration counts (filtering by pid, set_event_pid with event-fork,
 * puts a probe on every fork, exit and context switch of the machine:
 * 8% more CPU for forkbomb).
 *
 * Where: a tracefs instance of our own, instances/vmbench-<pid> of
 * <VMBENCH_SYSROOT>/sys/kernel/tracing, so that the top-level buffer
 * and another tracer's instances are never touched; its clock is
 * "mono" (a task that migrates between begin and end is timed on one
 * clock; the default "local" is per CPU), its buffer 2048 kB a CPU.
 * Each iteration empties the buffer and turns tracing on just before
 * the fork, off just after wait4(), and then reads the "trace" file
 * (text, microsecond timestamps: each stall is +-1 us) once.
 *
 * The instance is a change to the machine: before it is made, a state
 * record <VMBENCH_SYSROOT>/run/vmbench/trace.<pid>.state (the runner's
 * format, state.h: "vmbench-state 1", pid, start, then "trace PATH")
 * names it; vb_trace_close() turns the events off and removes the
 * instance, then the record, on every path but SIGKILL;
 * vb_trace_recover() removes what a killed process left (its owner
 * gone or another process under its pid).  The record is not a
 * vmrun.<pid>.state, so vmrun's own recovery neither reads nor removes it.
 */
#ifndef VB_TRACE_H
#define VB_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"

enum vb_tp_fam { VB_TP_DIRECT, VB_TP_MEMCG, VB_TP_COMPACT, VB_TP_KSWAPD,
	VB_NTPFAM };

/* Figures of a latency family, in this order, 5 columns a family. */
enum { VB_TPF_N, VB_TPF_US, VB_TPF_P50, VB_TPF_P99, VB_TPF_MAX, VB_NTPF };

/*
 * The columns: 5 for each of the three latency families, then
 * kswapd_wake_n and trace_lost ({ 0 }-terminated).
 */
extern const struct vb_metric vb_trace_metrics[];
#define VB_TRACE_NCOL	(3 * VB_NTPF + 2)
/* Column of kswapd_wake_n and of trace_lost in vb_trace_metrics. */
#define VB_TRACE_KSWAPD	(3 * VB_NTPF)
#define VB_TRACE_LOST	(3 * VB_NTPF + 1)

/* A family's name in words ("direct reclaim"), NULL out of range. */
const char *vb_trace_family(int fam);

/* The stalls of one iteration, as read from the trace. */
struct vb_tpacc {
	struct vb_tpopen {
		uint64_t key;		/* pid * VB_NTPFAM + family, +1 */
		uint64_t t_us;		/* its begin; UINT64_MAX: none */
	} *open;
	size_t nopen, capopen;		/* capopen: a power of two */
	struct vb_tpdur {
		uint64_t *us;
		size_t n, cap;
	} dur[3];
	double kswapd;
	double lost;
	long unpaired;			/* ends without begins, tests */
};

void vb_tpacc_init(struct vb_tpacc *a);
void vb_tpacc_free(struct vb_tpacc *a);
/*
 * One line of a tracefs "trace" file.  0: used or ignored (a comment, an
 * event not ours); -1: not a trace line.
 */
int vb_tpacc_line(struct vb_tpacc *a, const char *line);
/* Every line of @text. */
void vb_tpacc_text(struct vb_tpacc *a, const char *text);
/* The VB_TRACE_NCOL figures into @row (sorts the stalls). */
void vb_tpacc_row(struct vb_tpacc *a, double *row);

/*
 * Is tracing asked for?  VMBENCH_TRACE=1: yes; 0: no; unset or empty:
 * yes under a memory limit (VMBENCH_CGROUP set, MEM=), else no.
 */
int vb_trace_wanted(void);

struct vb_trace {
	int on;				/* instance set: figures recorded */
	int made;			/* we made the instance */
	unsigned fams;			/* bit per family whose events are on */
	unsigned evs;			/* bit per event we enabled */
	char root[4096];		/* tracefs */
	char inst[4200];		/* root/instances/vmbench-<pid> */
	char record[4200];		/* the state record, "" when none */
};

/*
 * Make and set the instance; 0 when tracing is on (some families may be
 * missing: @why then names them, else ""), -1 when it is not, with the
 * one line why in @why (nothing is left changed).
 */
int vb_trace_open(struct vb_trace *t, char *why, size_t len);
/* Before an iteration: empty the buffer, tracing on. */
void vb_trace_start(struct vb_trace *t);
/* Just after it: tracing off. */
void vb_trace_stop(struct vb_trace *t);
/*
 * Read the trace into @row (VB_TRACE_NCOL figures; the families not on
 * are NAN).  -1 with errno when the trace cannot be read (all NAN).
 */
int vb_trace_read(struct vb_trace *t, double *row);
/*
 * Events off, instance removed, record removed: the machine as it was.
 * Idempotent.  -1 with a line in @why when the instance cannot be
 * removed (busy: a reader holds one of its files); its record is then
 * kept, for vb_trace_recover().
 */
int vb_trace_close(struct vb_trace *t, char *why, size_t len);
/*
 * Undo what killed processes left: for each trace.<pid>.state of the
 * state folder whose owner is gone, its instance's events off, the
 * instance and then the record removed, each said in one line on
 * stderr.  The number cleaned, or -1 when one could not be (said).
 */
int vb_trace_recover(void);

#endif
