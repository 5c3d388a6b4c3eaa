/*
 * quiet.c - waiting for a quiet machine (see quiet.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "opt.h"
#include "quiet.h"
#include "scope.h"
#include "util.h"

/* The progress line's period, seconds. */
#define QUIET_EVERY	10

int
vb_quiet_pct(const char *s, double *pct, char *err, size_t errlen)
{
	char num[64];
	size_t n = s ? strlen(s) : 0;
	double v;

	if (n && s[n - 1] == '%')
		n--;
	if (!n || n >= sizeof(num))
		goto bad;
	memcpy(num, s, n);
	num[n] = '\0';
	if (!vb_opt_decimal(num))
		goto bad;
	v = strtod(num, NULL);
	if (!(v > 0) || v > 100)
		goto bad;
	*pct = v;
	return 0;
bad:
	snprintf(err, errlen, "--quiet '%.64s': give a percentage of one CPU "
	    "above 0 and at most 100 (5 or 5%%)", s ? s : "");
	return -1;
}

int
vb_quiet_duration(const char *s, double *secs, char *err, size_t errlen)
{
	static const struct {
		const char *unit;
		double secs;
	} units[] = { { "", 1 }, { "s", 1 }, { "m", 60 }, { "min", 60 },
	    { "h", 3600 } };
	char num[64];
	size_t n = 0, i;

	while (s && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.'))
		n++;
	if (!n || n >= sizeof(num))
		goto bad;
	memcpy(num, s, n);
	num[n] = '\0';
	if (!vb_opt_decimal(num))
		goto bad;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double v;

		if (strcmp(s + n, units[i].unit))
			continue;
		v = strtod(num, NULL) * units[i].secs;
		if (!(v > 0) || v > 86400)
			goto bad;
		*secs = v;
		return 0;
	}
bad:
	snprintf(err, errlen, "--quiet-wait '%.64s': give a duration above 0 "
	    "and at most a day: 30s, 10m, 1h", s ? s : "");
	return -1;
}

char *
vb_quiet_human(double secs, char *buf, size_t len)
{
	long s = lround(secs);

	if (s < 60)
		snprintf(buf, len, "%ld s", s);
	else if (s < 3600)
		snprintf(buf, len, s % 60 ? "%ld min %ld s" : "%ld min",
		    s / 60, s % 60);
	else
		snprintf(buf, len, s % 3600 / 60 ? "%ld h %ld min" : "%ld h",
		    s / 3600, s % 3600 / 60);
	return buf;
}

/* One reading: the clock, /proc/stat's CPU line, our CPU and kthreads. */
struct reading {
	uint64_t t_ns;
	unsigned long long busy_ticks;	/* all less idle, iowait, steal,
					   irq, softirq */
	unsigned long long total_ticks;
	double ours_s;			/* this process and its children */
	struct vb_cpuown own;
};

static double
tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

static int
read_now(const char *proc_root, struct reading *r)
{
	char path[4200], buf[4096];
	unsigned long long v[8] = { 0 };
	struct rusage self, kids;
	int i;

	snprintf(path, sizeof(path), "%s/stat", proc_root);
	if (vb_read_small(path, buf, sizeof(buf)) < 0 ||
	    strncmp(buf, "cpu ", 4) || sscanf(buf + 4, "%llu %llu %llu %llu "
	    "%llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
	    &v[6], &v[7]) < 4)
		return -1;
	r->t_ns = vb_now_ns();
	r->total_ticks = 0;
	for (i = 0; i < 8; i++)
		r->total_ticks += v[i];
	/* idle 3, iowait 4, irq 5, softirq 6, steal 7 */
	r->busy_ticks = r->total_ticks - v[3] - v[4] - v[5] - v[6] - v[7];
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	r->ours_s = tv(&self.ru_utime) + tv(&self.ru_stime) +
	    tv(&kids.ru_utime) + tv(&kids.ru_stime);
	vb_cpuown_read(proc_root, 0, &r->own);
	return 0;
}

/*
 * Foreign CPU from @a to @b, % of one CPU.  Busy time is counted as the
 * harness counts it: the CPUs' time less idle, iowait, steal and
 * interrupts.  The window's length is the clock's, and the CPUs' time
 * is that length times the CPUs online (idle is measured exactly).
 */
static double
window_cpu(const struct reading *a, const struct reading *b)
{
	double hz = (double)sysconf(_SC_CLK_TCK), secs, busy, idle;

	if (hz <= 0)
		return NAN;
	secs = (double)(b->t_ns - a->t_ns) / 1e9;
	idle = ((double)(b->total_ticks - b->busy_ticks) -
	    (double)(a->total_ticks - a->busy_ticks)) / hz;
	busy = (double)sysconf(_SC_NPROCESSORS_ONLN) * secs - idle;
	return vb_foreign_cpu(busy, (double)vb_cpuown_kthread_delta(&a->own,
	    &b->own) / hz, b->ours_s - a->ours_s +
	    ((double)b->own.ours - (double)a->own.ours) / hz, secs);
}

int
vb_quiet_wait(struct vb_quiet *q, const char *proc_root, const char *who,
    volatile sig_atomic_t *stop)
{
	struct reading a, b;
	double next_say = 0;
	uint64_t t0 = vb_now_ns();
	char h1[32], h2[32];
	int rc = 0;

	q->waited_s = 0;
	q->cpu = NAN;
	q->timeout = 0;
	if (read_now(proc_root, &a) < 0)
		return -1;
	for (;;) {
		struct timespec ts = { 1, 0 };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !*stop)
			;
		if (*stop) {
			rc = 1;
			break;
		}
		if (read_now(proc_root, &b) < 0) {
			rc = -1;
			break;
		}
		q->cpu = window_cpu(&a, &b);
		vb_cpuown_free(&a.own);
		a = b;
		q->waited_s = (double)(vb_now_ns() - t0) / 1e9;
		if (q->cpu < q->threshold)
			break;
		if (q->waited_s >= q->max_s) {
			q->timeout = 1;
			break;
		}
		if (q->waited_s >= next_say) {
			fprintf(stderr, "%s: waiting for a quiet machine: other "
			    "processes use %.0f%% of a CPU (threshold %g%%), "
			    "%s of at most %s\n", who, q->cpu, q->threshold,
			    vb_quiet_human(q->waited_s, h1, sizeof(h1)),
			    vb_quiet_human(q->max_s, h2, sizeof(h2)));
			next_say = q->waited_s + QUIET_EVERY;
		}
	}
	vb_cpuown_free(&a.own);
	return rc;
}

int
vb_quiet_before(struct vb_quiet *q, struct vb_quiet_text *t,
    const char *who, const char *what, volatile sig_atomic_t *stop)
{
	char h[32];
	int rc = vb_quiet_wait(q, "/proc", who, stop);

	snprintf(t->thr, sizeof(t->thr), "%g", q->threshold);
	if (rc < 0)
		return rc;
	snprintf(t->waited, sizeof(t->waited), "%.1f", q->waited_s);
	if (isnan(q->cpu))
		snprintf(t->cpu, sizeof(t->cpu), "unknown");
	else
		snprintf(t->cpu, sizeof(t->cpu), "%.1f", q->cpu);
	snprintf(t->timeout, sizeof(t->timeout), "%d", q->timeout);
	if (q->timeout)
		fprintf(stderr, "%s: not quiet after %s (other processes use "
		    "%.0f%% of a CPU, threshold %g%%): the %s goes on, marked "
		    "quiet_timeout=1 in its meta\n", who, vb_quiet_human(
		    q->waited_s, h, sizeof(h)), q->cpu, q->threshold, what);
	return rc;
}
