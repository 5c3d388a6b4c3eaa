/*
 * quiet.h - waiting for a quiet machine before a run (QUIET=, --quiet):
 * other processes' CPU is measured over 1-second windows, by the
 * definition of foreign CPU the harness records (src/lib/scope.h: the
 * machine's busy time less kernel threads, interrupts and our own
 * processes), until a window is below the threshold or the bound on
 * the wait passes.  The threshold means what the report's
 * --quiet-threshold means: % of one CPU.
 */
#ifndef VB_QUIET_H
#define VB_QUIET_H

#include <signal.h>
#include <stddef.h>

struct vb_quiet {
	double threshold;	/* % of one CPU, in (0, 100] */
	double max_s;		/* the bound on the wait, seconds */
	/* what the wait found */
	double waited_s;	/* seconds waited */
	double cpu;		/* the last window's foreign CPU, % of a CPU */
	int timeout;		/* 1: the bound passed, the machine not quiet */
};

/*
 * "5" or "5%": a percentage of one CPU in (0, 100] into @pct; 0, or -1
 * with a one-line message in @err.
 */
int vb_quiet_pct(const char *s, double *pct, char *err, size_t errlen);
/*
 * A duration: "30s", "10m", "1h" or seconds ("90"), above 0 and at most
 * a day, into @secs; 0, or -1 with a one-line message in @err.
 */
int vb_quiet_duration(const char *s, double *secs, char *err,
    size_t errlen);
/* "12 s", "10 min", "1 h 30 min" into @buf. */
char *vb_quiet_human(double secs, char *buf, size_t len);
/*
 * Wait for the machine to be quiet (@q->threshold, @q->max_s), reading
 * @proc_root/stat and its processes; a progress line on stderr, after
 * @who ("vmrun"), at the first loud window and every 10 s after.
 * Fills @q's findings.  0 when done (quiet, or @q->timeout), 1 when
 * *@stop became non-zero (a signal), -1 when /proc cannot be read.
 */
int vb_quiet_wait(struct vb_quiet *q, const char *proc_root, const char *who,
    volatile sig_atomic_t *stop);

/* The meta values of a wait: quiet_threshold, _waited_s, _cpu, _timeout. */
struct vb_quiet_text {
	char thr[32], waited[32], cpu[32], timeout[4];
};
/*
 * Before a run or a boot (@what: "run", "boot"): vb_quiet_wait() on
 * /proc, @t filled from what it found, and one line after @who when the
 * bound passed (the @what goes on, marked quiet_timeout=1).  The
 * return of vb_quiet_wait().
 */
int vb_quiet_before(struct vb_quiet *q, struct vb_quiet_text *t,
    const char *who, const char *what, volatile sig_atomic_t *stop);

#endif
