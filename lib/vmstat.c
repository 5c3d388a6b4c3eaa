#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "vmstat.h"

const char *const vb_ctr_names[VB_NCTR] = {
	"pswpin", "pswpout", "pgmajfault", "pgfault", "pgscan_kswapd",
	"pgscan_direct", "pgsteal_kswapd", "pgsteal_direct", "allocstall",
	"workingset_refault", "thp_fault_alloc", "oom_kill", "pgpgin",
	"pgpgout", "pgscan_total", "pgsteal_total",
};

/*
 * Which /proc/vmstat lines feed each counter: the exact name, plus, for
 * counters the kernel has split, any "<name>_<suffix>" except the
 * excluded suffixes.  Older kernels split per zone (pgscan_kswapd_dma,
 * allocstall_normal), newer ones by type (workingset_refault_anon).
 */
static const char *const scan_by_type[] = {
	"pgscan_anon", "pgscan_file", NULL,
};
static const char *const steal_by_type[] = {
	"pgsteal_anon", "pgsteal_file", NULL,
};

static const struct {
	int split;		/* sum <name>_* too */
	const char *exclude;	/* suffix that is not part of the family */
	const char *const *from;	/* fed by these lines instead */
} ctr_defs[VB_NCTR] = {
	[VB_PGSCAN_TOTAL] = { 0, NULL, scan_by_type },
	[VB_PGSTEAL_TOTAL] = { 0, NULL, steal_by_type },
	[VB_PGSCAN_KSWAPD] = { 1, NULL },
	[VB_PGSCAN_DIRECT] = { 1, "throttle" },
	[VB_PGSTEAL_KSWAPD] = { 1, NULL },
	[VB_PGSTEAL_DIRECT] = { 1, NULL },
	[VB_ALLOCSTALL] = { 1, NULL },
	[VB_WS_REFAULT] = { 1, NULL },
};

/*
 * Parsing must cost little next to the kernel's own work of printing
 * the files (the sampler's budget is a few tens of microseconds a
 * sample): the names' lengths are computed once, and a /proc/vmstat
 * line whose first letter starts no counter name (nr_*, numa_*, ...:
 * most of the file) is skipped without comparing or converting.
 */
static size_t ctr_len[VB_NCTR];
static unsigned char ctr_first[256];

static void
init_names(void)
{
	int i;

	if (ctr_len[0])
		return;
	for (i = 0; i < VB_NCTR; i++) {
		const char *const *f;

		ctr_len[i] = strlen(vb_ctr_names[i]);
		ctr_first[(unsigned char)vb_ctr_names[i][0]] = 1;
		for (f = ctr_defs[i].from; f && *f; f++)
			ctr_first[(unsigned char)(*f)[0]] = 1;
	}
}

int
vb_proc_open(struct vb_proc *p, const char *root)
{
	char path[4096];

	init_names();	/* before any sampler thread exists */
	memset(p, 0, sizeof(*p));
	p->fd_vmstat = p->fd_stat = p->fd_meminfo = -1;
	snprintf(path, sizeof(path), "%s/vmstat", root);
	if ((p->fd_vmstat = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		goto fail;
	snprintf(path, sizeof(path), "%s/stat", root);
	if ((p->fd_stat = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		goto fail;
	snprintf(path, sizeof(path), "%s/meminfo", root);
	if ((p->fd_meminfo = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		goto fail;
	/* /proc/stat's intr line grows with the CPU and IRQ count */
	p->bufsz = 256 * 1024;
	if (!(p->buf = malloc(p->bufsz)))
		goto fail;
	return 0;
fail:
	vb_proc_close(p);
	return -1;
}

void
vb_proc_close(struct vb_proc *p)
{
	int e = errno;

	if (p->fd_vmstat >= 0)
		close(p->fd_vmstat);
	if (p->fd_stat >= 0)
		close(p->fd_stat);
	if (p->fd_meminfo >= 0)
		close(p->fd_meminfo);
	free(p->buf);
	p->buf = NULL;
	p->fd_vmstat = p->fd_stat = p->fd_meminfo = -1;
	errno = e;
}

/*
 * Read a whole file with pread() at offset 0; NUL-terminated.  @whole:
 * the file is known to come in one read when the buffer is big enough.
 */
static ssize_t
slurp(struct vb_proc *p, int fd, int whole)
{
	size_t len = 0;
	ssize_t n;

	for (;;) {
		n = pread(fd, p->buf + len, p->bufsz - 1 - len, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		len += (size_t)n;
		/*
		 * /proc/stat and /proc/meminfo are printed in one piece
		 * (single_open): a read that did not fill the buffer got
		 * all of it, so the read that would return 0 is saved.
		 * /proc/vmstat comes a page at a time: read to the end.
		 */
		if (whole && len < p->bufsz - 1)
			break;
		if (len == p->bufsz - 1) {
			char *nb = realloc(p->buf, p->bufsz * 2);

			if (!nb)
				return -1;
			p->buf = nb;
			p->bufsz *= 2;
		}
	}
	p->buf[len] = '\0';
	return (ssize_t)len;
}

/* Which counter the vmstat line @name (length @nlen) feeds, or -1. */
static int
ctr_of(const char *name, size_t nlen)
{
	int i;

	for (i = 0; i < VB_NCTR; i++) {
		const char *base = vb_ctr_names[i];
		size_t blen = ctr_len[i];
		const char *const *f;

		for (f = ctr_defs[i].from; f && *f; f++)
			if (strlen(*f) == nlen && memcmp(name, *f, nlen) == 0)
				return i;
		if (ctr_defs[i].from)
			continue;
		if (nlen < blen || name[0] != base[0] ||
		    memcmp(name, base, blen) != 0)
			continue;
		if (nlen == blen)
			return i;
		if (!ctr_defs[i].split || name[blen] != '_')
			continue;
		if (ctr_defs[i].exclude &&
		    nlen - blen - 1 == strlen(ctr_defs[i].exclude) &&
		    memcmp(name + blen + 1, ctr_defs[i].exclude,
		    nlen - blen - 1) == 0)
			continue;
		return i;
	}
	return -1;
}

static void
parse_vmstat(struct vb_snap *s, char *p)
{
	while (*p) {
		char *nl = strchr(p, '\n'), *sp;
		int i;

		if (ctr_first[(unsigned char)*p]) {
			sp = strchr(p, ' ');
			if (!sp || (nl && sp > nl))
				goto next;
			i = ctr_of(p, (size_t)(sp - p));
			if (i >= 0) {
				s->ctr[i] += strtoull(sp + 1, NULL, 10);
				s->present |= 1u << i;
			}
		}
next:
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* The numbers after "cpu " into @v (missing ones stay 0). */
static void
parse_cpu(char *p, uint64_t *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		char *end;

		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return;
		p = end;
	}
}

/*
 * /proc/stat: "cpu " (the sum over CPUs), then cpuN lines (skipped),
 * intr (first number: the total; the rest of this long line is skipped
 * with one strchr), ctxt, btime, processes, procs_running,
 * procs_blocked, softirq.  Stops after procs_blocked.
 */
static void
parse_stat(struct vb_snap *s, char *p)
{
	while (*p) {
		char *nl = strchr(p, '\n');

		if (strncmp(p, "cpu ", 4) == 0) {
			uint64_t v[8] = { 0 };

			parse_cpu(p + 4, v, 8);
			s->cpu_user = v[0];
			s->cpu_nice = v[1];
			s->cpu_sys = v[2];
			s->cpu_idle = v[3];
			s->cpu_iowait = v[4];
			s->cpu_irq = v[5];
			s->cpu_softirq = v[6];
			s->cpu_steal = v[7];
		} else if (strncmp(p, "intr ", 5) == 0) {
			s->intr = strtoull(p + 5, NULL, 10);
		} else if (strncmp(p, "ctxt ", 5) == 0) {
			s->ctxt = strtoull(p + 5, NULL, 10);
		} else if (strncmp(p, "procs_running ", 14) == 0) {
			s->procs_running = strtoull(p + 14, NULL, 10);
		} else if (strncmp(p, "procs_blocked ", 14) == 0) {
			s->procs_blocked = strtoull(p + 14, NULL, 10);
			break;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
}

static void
parse_meminfo(struct vb_snap *s, char *p)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MemTotal:", offsetof(struct vb_snap, mem_total) },
		{ "MemFree:", offsetof(struct vb_snap, mem_free) },
		{ "MemAvailable:", offsetof(struct vb_snap, mem_available) },
		{ "Buffers:", offsetof(struct vb_snap, buffers) },
		{ "Cached:", offsetof(struct vb_snap, cached) },
		{ "SReclaimable:", offsetof(struct vb_snap, sreclaimable) },
		{ "SwapTotal:", offsetof(struct vb_snap, swap_total) },
		{ "SwapFree:", offsetof(struct vb_snap, swap_free) },
	};
	size_t i, found = 0;

	while (*p) {
		char *nl = strchr(p, '\n');

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t n = strlen(keys[i].key);

			if (p[0] == keys[i].key[0] &&
			    strncmp(p, keys[i].key, n) == 0) {
				*(uint64_t *)((char *)s + keys[i].off) =
				    strtoull(p + n, NULL, 10);
				found++;
				break;
			}
		}
		if (!nl || found == sizeof(keys) / sizeof(keys[0]))
			break;
		p = nl + 1;
	}
}

int
vb_proc_read_vmstat(struct vb_proc *p, struct vb_snap *s)
{
	s->t_ns = vb_now_ns();
	memset(s->ctr, 0, sizeof(s->ctr));
	s->present = 0;
	if (slurp(p, p->fd_vmstat, 0) < 0)
		return -1;
	parse_vmstat(s, p->buf);
	return 0;
}

int
vb_proc_read(struct vb_proc *p, struct vb_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = vb_now_ns();
	if (slurp(p, p->fd_vmstat, 0) < 0)
		return -1;
	parse_vmstat(s, p->buf);
	if (slurp(p, p->fd_stat, 1) < 0)
		return -1;
	parse_stat(s, p->buf);
	if (slurp(p, p->fd_meminfo, 1) < 0)
		return -1;
	parse_meminfo(s, p->buf);
	return 0;
}

void
vb_snap_delta(const struct vb_snap *b, const struct vb_snap *a,
    uint64_t *delta, uint32_t *present)
{
	int i;

	*present = a->present & b->present;
	for (i = 0; i < VB_NCTR; i++)
		delta[i] = b->ctr[i] >= a->ctr[i] ? b->ctr[i] - a->ctr[i] : 0;
}

double
vb_pages_kb(uint64_t pages)
{
	static long psz;

	if (!psz)
		psz = sysconf(_SC_PAGESIZE);
	return (double)pages * (double)psz / 1024.0;
}

/* ---- the time series ---- */

void
vb_vmstat_header(FILE *out, uint64_t interval_ns)
{
	int i;

	fprintf(out, "# vmbench-vmstat 1 interval=%.3f pagesize=%ld\n",
	    vb_ns_to_s(interval_ns), sysconf(_SC_PAGESIZE));
	fprintf(out, "# t: seconds since start; iter: iteration (0 between); "
	    "memory in kB; si so bi bo in cs per second; us sy id wa st in "
	    "%%; raw counters cumulative, - when absent\n");
	fprintf(out, "# t iter r b swpd free buff cache si so bi bo in cs "
	    "us sy id wa st");
	for (i = 0; i < VB_NCTR; i++)
		fprintf(out, " %s", vb_ctr_names[i]);
	fputc('\n', out);
}

/* @x per second over @dt seconds, rounded. */
static uint64_t
rate(double x, double dt)
{
	return (uint64_t)(x / dt + 0.5);
}

/* " <v>" in decimal at @p; returns the end. */
static char *
put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	*p++ = ' ';
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

/* 100 * @x / @tot, rounded. */
static uint64_t
pct(uint64_t x, uint64_t tot)
{
	return (200 * x + tot) / (2 * tot);
}

void
vb_vmstat_row(FILE *out, const struct vb_snap *cur, const struct vb_snap *prev,
    uint64_t t0_ns, int iter)
{
	vb_vmstat_row_split(out, cur, prev, cur, prev, t0_ns, iter);
}

void
vb_vmstat_row_split(FILE *out, const struct vb_snap *cur,
    const struct vb_snap *prev, const struct vb_snap *scur,
    const struct vb_snap *sprev, uint64_t t0_ns, int iter)
{
	double dt = vb_ns_to_s(cur->t_ns - prev->t_ns);
	double dts = vb_ns_to_s(scur->t_ns - sprev->t_ns);
	uint64_t d[VB_NCTR];
	uint32_t present;
	uint64_t cu, cs, ci, cw, cst, tot, ms;
	char line[48 * (19 + VB_NCTR)], *p = line;
	int i;

	if (dt <= 0)
		dt = 1e-9;
	if (dts <= 0)
		dts = 1e-9;
	vb_snap_delta(cur, prev, d, &present);
	cu = (scur->cpu_user + scur->cpu_nice) -
	    (sprev->cpu_user + sprev->cpu_nice);
	cs = (scur->cpu_sys + scur->cpu_irq + scur->cpu_softirq) -
	    (sprev->cpu_sys + sprev->cpu_irq + sprev->cpu_softirq);
	ci = scur->cpu_idle - sprev->cpu_idle;
	cw = scur->cpu_iowait - sprev->cpu_iowait;
	cst = scur->cpu_steal - sprev->cpu_steal;
	tot = cu + cs + ci + cw + cst;
	if (tot == 0)
		tot = 1;
	/*
	 * cache as procps vmstat shows it: page cache + reclaimable slab.
	 * Whole numbers, rounded, as vmstat(8) prints them, put together
	 * in a buffer and written with one fwrite(): stdio's printf
	 * machinery was a tenth of the sampler's own CPU time.
	 */
	ms = (cur->t_ns - t0_ns + 500000) / 1000000;
	p = put_u64(p, ms / 1000);
	*p++ = '.';
	*p++ = (char)('0' + ms / 100 % 10);
	*p++ = (char)('0' + ms / 10 % 10);
	*p++ = (char)('0' + ms % 10);
	p = put_u64(p, (uint64_t)(iter < 0 ? 0 : iter));
	p = put_u64(p, scur->procs_running);
	p = put_u64(p, scur->procs_blocked);
	p = put_u64(p, scur->swap_total - scur->swap_free);
	p = put_u64(p, scur->mem_free);
	p = put_u64(p, scur->buffers);
	p = put_u64(p, scur->cached + scur->sreclaimable);
	p = put_u64(p, rate(vb_pages_kb(d[VB_PSWPIN]), dt));
	p = put_u64(p, rate(vb_pages_kb(d[VB_PSWPOUT]), dt));
	p = put_u64(p, rate((double)d[VB_PGPGIN], dt));
	p = put_u64(p, rate((double)d[VB_PGPGOUT], dt));
	p = put_u64(p, rate((double)(scur->intr - sprev->intr), dts));
	p = put_u64(p, rate((double)(scur->ctxt - sprev->ctxt), dts));
	p = put_u64(p, pct(cu, tot));
	p = put_u64(p, pct(cs, tot));
	p = put_u64(p, pct(ci, tot));
	p = put_u64(p, pct(cw, tot));
	p = put_u64(p, pct(cst, tot));
	for (i = 0; i < VB_NCTR; i++) {
		if (cur->present & (1u << i)) {
			p = put_u64(p, cur->ctr[i]);
		} else {
			*p++ = ' ';
			*p++ = '-';
		}
	}
	*p++ = '\n';
	/* the time stamp has no leading blank */
	fwrite(line + 1, 1, (size_t)(p - line - 1), out);
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * VB_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/*
 * The sampler thread: absolute deadlines t0 + k * interval, so a late
 * wake-up does not drift the series.  Rows are flushed at least once a
 * second (every row at the default 1 s interval), so a killed run keeps
 * its series but for the last second; a write per row at 10 Hz was a
 * tenth of the sampler's cost.
 */
static void *
sampler_main(void *arg)
{
	struct vb_sampler *s = arg;
	uint64_t next = s->t0_ns, c0 = thread_cpu_ns(), flushed = s->t0_ns;
	struct vb_snap cur, full = s->prev, before = s->prev;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		struct timespec ts;

		next += s->interval_ns;
		ts.tv_sec = (time_t)(next / VB_NSEC_PER_SEC);
		ts.tv_nsec = (long)(next % VB_NSEC_PER_SEC);
		/* absolute wake-up; vb_sampler_stop() wakes it early */
		while (!s->stop && pthread_cond_timedwait(&s->cond, &s->lock,
		    &ts) != ETIMEDOUT)
			;
		if (s->stop)
			break;
		pthread_mutex_unlock(&s->lock);
		/*
		 * Below 1 s, only /proc/vmstat is read every sample (the
		 * swap, paging and reclaim counters, where the time
		 * resolution matters); /proc/stat and /proc/meminfo at most
		 * once a second, their columns repeating the last full
		 * reading and its one-second rates.  The wake-up and the
		 * kernel's printing of the files are the whole cost here.
		 */
		if (s->interval_ns >= VB_NSEC_PER_SEC ||
		    vb_now_ns() - full.t_ns + s->interval_ns / 2 >=
		    VB_NSEC_PER_SEC) {
			if (vb_proc_read(&s->proc, &cur) < 0)
				goto again;
			vb_vmstat_row_split(s->out, &cur, &s->prev, &cur,
			    &full, s->t0_ns, s->iter);
			before = full;
			full = cur;
		} else {
			if (vb_proc_read_vmstat(&s->proc, &cur) < 0)
				goto again;
			vb_vmstat_row_split(s->out, &cur, &s->prev, &full,
			    &before, s->t0_ns, s->iter);
		}
		/* deadlines, not stamps: at 1 s, every row, whatever jitter */
		if (next - flushed >= VB_NSEC_PER_SEC) {
			fflush(s->out);
			flushed = next;
		}
		s->prev = cur;
		s->samples++;
		/* skip deadlines already missed rather than burst */
		while (next + s->interval_ns < vb_now_ns())
			next += s->interval_ns;
again:
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	fflush(s->out);
	s->cpu_ns = thread_cpu_ns() - c0;
	return NULL;
}

int
vb_sampler_start(struct vb_sampler *s, const char *root, FILE *out,
    uint64_t interval_ns)
{
	pthread_condattr_t cattr;
	pthread_attr_t attr;
	int rc;

	memset(s, 0, sizeof(*s));
	if (vb_proc_open(&s->proc, root) < 0)
		return -1;
	s->out = out;
	s->interval_ns = interval_ns;
	if (vb_proc_read(&s->proc, &s->prev) < 0) {
		vb_proc_close(&s->proc);
		return -1;
	}
	s->t0_ns = s->prev.t_ns;
	if (out) {
		vb_vmstat_header(out, interval_ns);
		fflush(out);
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &cattr);
	pthread_condattr_destroy(&cattr);
	pthread_attr_init(&attr);
	/* a small stack: the process may be mlockall()ed */
	pthread_attr_setstacksize(&attr, 64 * 1024);
	rc = out ? pthread_create(&s->thread, &attr, sampler_main, s) : 0;
	pthread_attr_destroy(&attr);
	if (rc) {
		vb_proc_close(&s->proc);
		errno = rc;
		return -1;
	}
	s->running = out != NULL;
	return 0;
}

void
vb_sampler_set_iter(struct vb_sampler *s, int iter)
{
	s->iter = iter;
}

void
vb_sampler_stop(struct vb_sampler *s)
{
	if (s->running) {
		pthread_mutex_lock(&s->lock);
		s->stop = 1;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		s->running = 0;
	}
	vb_proc_close(&s->proc);
}
