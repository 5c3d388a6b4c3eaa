/*
 * psi.c - pressure stall figures around an iteration (see psi.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "psi.h"
#include "util.h"

/*
 * The four figures of one source of PSI: @pre "psi_mem_some_us" and so
 * on, said to be "(PSI, @where)"; @key: is memory "some" a key figure.
 */
#define PSI_METRICS(pre, where, key) {					\
	{ pre "psi_mem_some_us", "us", VB_LOWER, "time some task stalled " \
	    "on memory (PSI, " where ")", key },			\
	{ pre "psi_mem_full_us", "us", VB_LOWER, "time every task stalled " \
	    "on memory (PSI, " where ")", 0 },				\
	{ pre "psi_io_some_us", "us", VB_LOWER, "time some task stalled " \
	    "on I/O (PSI, " where ")", 0 },				\
	{ pre "psi_io_full_us", "us", VB_LOWER, "time every task stalled " \
	    "on I/O (PSI, " where ")", 0 },				\
	{ NULL, NULL, VB_INFO, NULL, 0 },				\
}

const struct vb_metric vb_psi_metrics[] = PSI_METRICS("", "system-wide", 0);

/*
 * Under MEM= the cgroup's memory stall is the figure a reclaim patch is
 * judged by: a key figure (its own, unlike the system-wide one).
 */
const struct vb_metric vb_cg_psi_metrics[] = PSI_METRICS("cg_",
    "memory cgroup", 1);

void
vb_psi_system(struct vb_psi *p, const char *proc_root)
{
	snprintf(p->mem, sizeof(p->mem), "%s/pressure/memory", proc_root);
	snprintf(p->io, sizeof(p->io), "%s/pressure/io", proc_root);
}

void
vb_psi_cgroup(struct vb_psi *p, const char *cgdir)
{
	snprintf(p->mem, sizeof(p->mem), "%s/memory.pressure", cgdir);
	snprintf(p->io, sizeof(p->io), "%s/io.pressure", cgdir);
}

/* total= of the line starting with @kind in @text, or NAN. */
static double
total_of(const char *text, const char *kind)
{
	size_t n = strlen(kind);
	const char *p = text, *t, *nl;
	char *end;
	double v;

	for (; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (strncmp(p, kind, n) != 0 || p[n] != ' ')
			continue;
		t = strstr(p, " total=");
		if (!t || (nl && t > nl))
			return NAN;
		v = strtod(t + 7, &end);
		if (end == t + 7 || (*end && *end != '\n' && *end != ' '))
			return NAN;
		return v;
	}
	return NAN;
}

void
vb_psi_parse(const char *text, double *some, double *full)
{
	*some = total_of(text, "some");
	*full = total_of(text, "full");
}

/* One file into @some and @full; both NAN when it cannot be read. */
static void
read_one(const char *path, double *some, double *full)
{
	char buf[512];

	/* two lines of about 60 bytes: one read() of a small file */
	if (vb_read_small(path, buf, sizeof(buf)) < 0) {
		*some = *full = NAN;
		return;
	}
	vb_psi_parse(buf, some, full);
}

int
vb_psi_present(const struct vb_psi *p)
{
	double s, f;

	read_one(p->mem, &s, &f);
	return !isnan(s);
}

void
vb_psi_read(const struct vb_psi *p, struct vb_psisnap *s)
{
	read_one(p->mem, &s->v[VB_PSI_MEM_SOME], &s->v[VB_PSI_MEM_FULL]);
	read_one(p->io, &s->v[VB_PSI_IO_SOME], &s->v[VB_PSI_IO_FULL]);
}

void
vb_psi_row(double *row, const struct vb_psisnap *b,
    const struct vb_psisnap *a)
{
	int i;

	for (i = 0; i < VB_NPSI; i++)
		row[i] = isnan(a->v[i]) || isnan(b->v[i]) || b->v[i] <
		    a->v[i] ? NAN : b->v[i] - a->v[i];
}
