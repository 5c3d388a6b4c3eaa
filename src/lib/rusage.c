/*
 * rusage.c - the rusage of a process tree and its time(1) formats (see
 * rusage.h).
 */
#include <stdio.h>

#include "clock.h"
#include "rusage.h"

static double
tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void
vb_rusage_from(struct vb_rusage *out, const struct rusage *ru, double elapsed)
{
	out->elapsed = elapsed;
	out->user = tv_s(ru->ru_utime);
	out->sys = tv_s(ru->ru_stime);
	out->minflt = ru->ru_minflt;
	out->majflt = ru->ru_majflt;
	out->nvcsw = ru->ru_nvcsw;
	out->nivcsw = ru->ru_nivcsw;
	out->inblock = ru->ru_inblock;
	out->oublock = ru->ru_oublock;
	out->maxrss = ru->ru_maxrss;
}

void
vb_rusage_diff(struct vb_rusage *out, const struct vb_rusage *b,
    const struct vb_rusage *a)
{
	out->elapsed = b->elapsed - a->elapsed;
	out->user = b->user - a->user;
	out->sys = b->sys - a->sys;
	out->minflt = b->minflt - a->minflt;
	out->majflt = b->majflt - a->majflt;
	out->nvcsw = b->nvcsw - a->nvcsw;
	out->nivcsw = b->nivcsw - a->nivcsw;
	out->inblock = b->inblock - a->inblock;
	out->oublock = b->oublock - a->oublock;
	out->maxrss = b->maxrss;
}

double
vb_rusage_cpu_pct(const struct vb_rusage *u)
{
	if (u->elapsed <= 0)
		return 0;
	return (u->user + u->sys) / u->elapsed * 100.0;
}

char *
vb_rusage_tcsh(char *buf, size_t len, const struct vb_rusage *u)
{
	char hms[32];

	vb_fmt_hms(hms, sizeof(hms), u->elapsed);
	snprintf(buf, len, "%.3fu %.3fs %s %.1f%%\t0+0k %ld+%ldio %ldpf+0w",
	    u->user, u->sys, hms, vb_rusage_cpu_pct(u), u->inblock,
	    u->oublock, u->majflt);
	return buf;
}

void
vb_rusage_print_verbose(FILE *f, const struct vb_rusage *u)
{
	char hms[32];

	fprintf(f, "\tUser time (seconds): %.2f\n", u->user);
	fprintf(f, "\tSystem time (seconds): %.2f\n", u->sys);
	fprintf(f, "\tPercent of CPU this job got: %.0f%%\n",
	    vb_rusage_cpu_pct(u));
	fprintf(f, "\tElapsed (wall clock) time (h:mm:ss or m:ss): %s\n",
	    vb_fmt_hms(hms, sizeof(hms), u->elapsed));
	fprintf(f, "\tMaximum resident set size (kbytes): %ld\n", u->maxrss);
	fprintf(f, "\tMajor (requiring I/O) page faults: %ld\n", u->majflt);
	fprintf(f, "\tMinor (reclaiming a frame) page faults: %ld\n",
	    u->minflt);
	fprintf(f, "\tVoluntary context switches: %ld\n", u->nvcsw);
	fprintf(f, "\tInvoluntary context switches: %ld\n", u->nivcsw);
	fprintf(f, "\tFile system inputs: %ld\n", u->inblock);
	fprintf(f, "\tFile system outputs: %ld\n", u->oublock);
}
