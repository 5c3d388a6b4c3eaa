/*
 * psi.h - pressure stall information (PSI, Linux 4.20+) around an
 * iteration: how long tasks stalled for memory and for I/O.
 *
 * /proc/pressure/memory and /proc/pressure/io (under VMBENCH_PROC's
 * root), and the run's memory cgroup's memory.pressure and io.pressure
 * where it has them (cgroup v2; v1 has none), hold
 *
 *	some avg10=0.00 avg60=0.00 avg300=0.00 total=123456
 *	full avg10=0.00 avg60=0.00 avg300=0.00 total=23456
 *
 * where total= is the stall time so far in microseconds: "some" while
 * at least one task stalled, "full" while every non-idle task did.  A
 * figure is the delta of total= over the iteration, in us, lower is
 * better.  The avg fields are decaying averages over fixed windows
 * that do not line up with an iteration, so they are not used.
 *
 * A file that is not there (a kernel without PSI, psi=0 on its command
 * line, a v1 cgroup) or does not parse leaves its figures absent (NAN,
 * "-" in the .res), never zero; a "full" line missing (the io file of
 * early kernels has one, cpu's had none before 5.13) leaves full absent.
 */
#ifndef VB_PSI_H
#define VB_PSI_H

#include <stddef.h>

#include "harness.h"

enum vb_psi_fig {
	VB_PSI_MEM_SOME, VB_PSI_MEM_FULL, VB_PSI_IO_SOME, VB_PSI_IO_FULL,
	VB_NPSI
};

/* psi_mem_some_us ... (system-wide), in enum order, { 0 }-terminated. */
extern const struct vb_metric vb_psi_metrics[];
/* cg_psi_mem_some_us ... (the run's memory cgroup), the same order. */
extern const struct vb_metric vb_cg_psi_metrics[];

/* Where to read: a folder and the names of its memory and io files. */
struct vb_psi {
	char mem[4200];
	char io[4200];
};

/* One reading: total= in us, NAN where absent. */
struct vb_psisnap {
	double v[VB_NPSI];
};

/* The system's files under @proc_root (/proc/pressure/...). */
void vb_psi_system(struct vb_psi *p, const char *proc_root);
/* A cgroup folder's memory.pressure and io.pressure. */
void vb_psi_cgroup(struct vb_psi *p, const char *cgdir);
/*
 * Is @p's memory file there and readable (a line for the user when
 * not)?  1 or 0.
 */
int vb_psi_present(const struct vb_psi *p);
/*
 * Parse one pressure file's text: total= of its some and full lines
 * into *@some and *@full (NAN when the line or its total= is missing).
 */
void vb_psi_parse(const char *text, double *some, double *full);
void vb_psi_read(const struct vb_psi *p, struct vb_psisnap *s);
/*
 * The iteration's figures, @b - @a, into @row[0..VB_NPSI): NAN where
 * either reading lacks it; a counter that went backwards (it cannot,
 * but a file replaced between readings can) is absent too.
 */
void vb_psi_row(double *row, const struct vb_psisnap *b,
    const struct vb_psisnap *a);

#endif
