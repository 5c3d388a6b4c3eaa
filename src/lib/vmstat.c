/*
 * vmstat.c - the sampler of /proc/vmstat, /proc/stat and /proc/meminfo
 * (see vmstat.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "msg.h"
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

/* bytes asked for beyond the last needed line: room for digits to grow */
#define VB_VM_SLACK	64

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

	init_names();	/* before the sampler process exists */
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
	/*
	 * /proc/stat's intr line grows with the CPU and IRQ count: the
	 * buffer doubles when a file fills it.
	 */
	p->bufsz = 16 * 1024;
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

/* Counters that sub-second samples leave to the whole readings. */
#define VB_SLOW_CTRS	((1u << VB_OOM_KILL) | (1u << VB_THP_FAULT_ALLOC))

/*
 * Of the learnt layout, the lines a quick reading walks: through the
 * last line of a counter not in VB_SLOW_CTRS.  It updates the counters
 * whose lines all lie there (a slow one printed earlier comes free).
 */
static void
learn_quick(struct vb_proc *p)
{
	uint32_t partial = 0;
	int k, last = -1;

	for (k = 0; k < p->nneed; k++)
		if (!(VB_SLOW_CTRS & (1u << p->need[k].ctr)))
			last = k;
	p->nquick = last + 1;
	p->quick = 0;
	for (k = 0; k < p->nneed; k++) {
		if (k < p->nquick)
			p->quick |= 1u << p->need[k].ctr;
		else
			partial |= 1u << p->need[k].ctr;
	}
	p->quick &= ~partial;
	p->want_quick = p->nquick ? p->need[p->nquick - 1].end +
	    VB_VM_SLACK : 1;
}

/*
 * The whole of /proc/vmstat in @p->buf (NUL-terminated) into @s, each
 * line's name looked up; the lines that feed a counter are remembered
 * in @p->need, with the bytes through the last of them (@p->want).
 */
static void
parse_vmstat(struct vb_proc *p, struct vb_snap *s)
{
	char *q = p->buf;
	size_t through = 0;
	int line = 0, n = 0;

	for (; *q; line++) {
		char *nl = strchr(q, '\n'), *sp;
		int i;

		if (ctr_first[(unsigned char)*q]) {
			sp = strchr(q, ' ');
			if (!sp || (nl && sp > nl))
				goto skip;
			i = ctr_of(q, (size_t)(sp - q));
			if (i < 0)
				goto skip;
			s->ctr[i] += strtoull(sp + 1, NULL, 10);
			s->present |= 1u << i;
			/* no layout for an unended last line or a long name */
			if (!nl || (size_t)(sp - q) >= sizeof(p->need[0].name))
				n = VB_VM_NEED_MAX;
			if (n < VB_VM_NEED_MAX) {
				p->need[n].line = line;
				p->need[n].ctr = i;
				p->need[n].nlen = (size_t)(sp - q);
				memcpy(p->need[n].name, q, p->need[n].nlen);
				through = (size_t)(nl + 1 - p->buf);
				p->need[n].end = through;
			}
			n++;
		}
skip:
		if (!nl)
			break;
		q = nl + 1;
	}
	/* more lines than the table holds, or none: always read it all */
	p->nneed = n <= VB_VM_NEED_MAX ? n : 0;
	p->want = through + VB_VM_SLACK;
	learn_quick(p);
}

/* A decimal number ending in '\n' at @q, before @end; NULL if it does not. */
static const char *
number(const char *q, const char *end, uint64_t *v)
{
	uint64_t x = 0;

	while (q < end && *q >= '0' && *q <= '9')
		x = x * 10 + (uint64_t)(*q++ - '0');
	if (q == end || *q != '\n')
		return NULL;
	*v = x;
	return q;
}

/*
 * Text of /proc/vmstat in @buf (@len bytes, from offset 0), by the
 * learnt layout: walk the lines through the @nk-th needed one and take
 * the counters in @mask from the lines the layout names, after checking
 * each one's name.  0 when done (*@through: the bytes walked), 1 if the
 * layout no longer holds (another name in a needed line), 2 if the text
 * ends first.
 */
static int
parse_known(const struct vb_proc *p, struct vb_snap *s, const char *buf,
    size_t len, int nk, uint32_t mask, size_t *through)
{
	const char *q = buf, *end = buf + len;
	int line = 0, k = 0;

	while (k < nk) {
		const struct vb_vmline *w = &p->need[k];
		const char *nl;
		uint64_t v;

		if (line != w->line) {
			if (!(nl = memchr(q, '\n', (size_t)(end - q))))
				return 2;
			q = nl + 1;
			line++;
			continue;
		}
		if ((size_t)(end - q) <= w->nlen)
			return 2;
		if (memcmp(q, w->name, w->nlen) != 0 || q[w->nlen] != ' ')
			return 1;
		/* no number: a whole line means another layout */
		if (!(nl = number(q + w->nlen + 1, end, &v)))
			return memchr(q, '\n', (size_t)(end - q)) ? 1 : 2;
		if (mask & (1u << w->ctr)) {
			s->ctr[w->ctr] += v;
			s->present |= 1u << w->ctr;
		}
		k++;
		q = nl + 1;
		line++;
	}
	*through = (size_t)(q - buf);
	return 0;
}

/*
 * /proc/vmstat by its learnt layout: ask for *@want bytes and parse
 * them (parse_known()).  Text cut short by the read (the file's digits
 * grew) is completed with more reads from where the kernel stopped and
 * parsed again; *@want follows the digits.  1 if the layout no longer
 * holds (another name in a needed line, or the file ends first), 0 when
 * done, -1 on a read error.
 */
static int
read_known(struct vb_proc *p, struct vb_snap *s, int nk, uint32_t mask,
    size_t *want)
{
	struct vb_snap keep = *s;
	size_t len = 0, ask = *want, through;
	ssize_t n;
	int rc;

	for (;;) {
		if (ask == 0 || ask > p->bufsz - 1 - len)
			return 1;
		do
			n = pread(p->fd_vmstat, p->buf + len, ask, (off_t)len);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -1;
		len += (size_t)n;
		rc = parse_known(p, s, p->buf, len, nk, mask, &through);
		if (rc != 2)
			break;
		if (n == 0)
			return 1;	/* the file ended first */
		/* cut short: parse again with the rest */
		*s = keep;
		ask = p->bufsz - 1 - len;
	}
	if (rc == 0)
		*want = through + VB_VM_SLACK;
	return rc;
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

/* Zero the counters in @mask and their present bits. */
static void
clear_ctrs(struct vb_snap *s, uint32_t mask)
{
	int i;

	for (i = 0; i < VB_NCTR; i++)
		if (mask & (1u << i))
			s->ctr[i] = 0;
	s->present &= ~mask;
}

/*
 * /proc/vmstat into @s, by the learnt layout (all counters, or @quick
 * ones), else whole, learning the layout.
 */
static int
read_vmstat(struct vb_proc *p, struct vb_snap *s, int quick)
{
	uint32_t all = (1u << VB_NCTR) - 1;
	int rc;

	if (p->nneed > 0) {
		uint32_t mask = quick ? p->quick : all;

		clear_ctrs(s, mask);
		rc = quick ? read_known(p, s, p->nquick, mask, &p->want_quick) :
		    read_known(p, s, p->nneed, mask, &p->want);
		if (rc <= 0)
			return rc;
		p->relearnt++;
	}
	clear_ctrs(s, all);
	if (slurp(p, p->fd_vmstat, 0) < 0)
		return -1;
	parse_vmstat(p, s);
	return 0;
}

int
vb_proc_read_vmstat(struct vb_proc *p, struct vb_snap *s)
{
	s->t_ns = vb_now_ns();
	return read_vmstat(p, s, 1);
}

int
vb_proc_read(struct vb_proc *p, struct vb_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = vb_now_ns();
	if (read_vmstat(p, s, 0) < 0)
		return -1;
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
 * Sleep until @deadline_ns (CLOCK_MONOTONIC) or until the harness sets
 * the stop word.  A futex wait on the stop word (a shared page, so not
 * FUTEX_PRIVATE) with an absolute deadline: one system call a sample.
 * Returns whether to stop.
 */
static int
sleep_or_stop(struct vb_sampler *s, uint64_t deadline_ns)
{
	int *stop = &s->sh->stop;
	struct timespec ts;

	ts.tv_sec = (time_t)(deadline_ns / VB_NSEC_PER_SEC);
	ts.tv_nsec = (long)(deadline_ns % VB_NSEC_PER_SEC);
	while (!__atomic_load_n(stop, __ATOMIC_ACQUIRE)) {
		/* FUTEX_WAIT_BITSET: the time is absolute, on CLOCK_MONOTONIC */
		if (syscall(SYS_futex, stop, FUTEX_WAIT_BITSET, 0, &ts, NULL,
		    FUTEX_BITSET_MATCH_ANY) < 0 && errno == ETIMEDOUT)
			return 0;
		/* woken, EINTR or EAGAIN: look at the word again */
		if (vb_now_ns() >= deadline_ns)
			return __atomic_load_n(stop, __ATOMIC_ACQUIRE);
	}
	return 1;
}

/*
 * Below a second, most samples only read: the quick part of
 * /proc/vmstat goes as it is, with its time and iteration, into a slot
 * of a ring, and is parsed and formatted with the others at the next
 * whole reading (once a second).  Such a sample costs the wake-up and
 * the kernel's printing and nothing else: parsing and formatting ten in
 * a row finds their code and data in the caches, where one at a time,
 * a tenth of a second apart, found them cold (about 20 us a sample on
 * a 2-CPU VM).
 */
struct vb_slot {
	uint64_t t_ns;
	int iter;
	size_t len;
	char *buf;
};

#define VB_RING_MAX	256

/*
 * Parse and write the @n samples of @ring, in order; a sample whose text
 * does not fit the layout is dropped and the layout relearnt at the
 * next whole reading.  Returns the rows written.
 */
static long
drain(struct vb_sampler *s, struct vb_slot *ring, int n,
    const struct vb_snap *full, const struct vb_snap *before)
{
	struct vb_proc *p = &s->proc;
	long rows = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct vb_snap cur = s->prev;
		size_t through;

		cur.t_ns = ring[i].t_ns;
		clear_ctrs(&cur, p->quick);
		if (p->nneed == 0 || parse_known(p, &cur, ring[i].buf,
		    ring[i].len, p->nquick, p->quick, &through) != 0) {
			p->nneed = 0;
			continue;
		}
		p->want_quick = through + VB_VM_SLACK;
		vb_vmstat_row_split(s->out, &cur, &s->prev, full, before,
		    s->t0_ns, ring[i].iter);
		s->prev = cur;
		rows++;
	}
	return rows;
}

/*
 * The sampler's loop: absolute deadlines t0 + k * interval, so a late
 * wake-up does not drift the series.  Below 1 s, only /proc/vmstat's
 * quick counters are read every sample (the swap, paging and reclaim
 * counters, where the time resolution matters), into the ring; the
 * whole of it, /proc/stat and /proc/meminfo once a second, their
 * columns repeating the last whole reading and its one-second rates.
 * Rows are written and flushed at each whole reading (every row at the
 * default 1 s interval), so a killed run keeps its series but for the
 * last second.
 */
static void
sampler_main(struct vb_sampler *s)
{
	uint64_t next = s->t0_ns, c0 = thread_cpu_ns(), flushed = s->t0_ns;
	struct vb_snap cur, full = s->prev, before = s->prev;
	struct vb_proc *p = &s->proc;
	struct vb_slot *ring = NULL;
	size_t slotsz = 2 * p->want_quick + 256;
	long samples = 0;
	int nslots = 0, nring = 0, i;

	if (s->interval_ns < VB_NSEC_PER_SEC) {
		nslots = (int)((VB_NSEC_PER_SEC + s->interval_ns - 1) /
		    s->interval_ns);
		if (nslots > VB_RING_MAX)
			nslots = VB_RING_MAX;
		ring = malloc((size_t)nslots * sizeof(*ring));
		if (ring && !(ring[0].buf = malloc((size_t)nslots * slotsz))) {
			free(ring);
			ring = NULL;
		}
		if (!ring)
			nslots = 0;
		for (i = 1; i < nslots; i++)
			ring[i].buf = ring[0].buf + (size_t)i * slotsz;
	}
	for (;;) {
		uint64_t now;
		int iter, whole;
		ssize_t n;

		next += s->interval_ns;
		if (sleep_or_stop(s, next))
			break;
		iter = __atomic_load_n(&s->sh->iter, __ATOMIC_RELAXED);
		now = vb_now_ns();
		whole = s->interval_ns >= VB_NSEC_PER_SEC ||
		    now - full.t_ns + s->interval_ns / 2 >= VB_NSEC_PER_SEC;
		if (!whole && nring < nslots && p->nneed > 0 &&
		    p->want_quick <= slotsz) {
			struct vb_slot *sl = &ring[nring];

			sl->t_ns = now;
			sl->iter = iter;
			do
				n = pread(p->fd_vmstat, sl->buf, p->want_quick,
				    0);
			while (n < 0 && errno == EINTR);
			if (n > 0) {
				sl->len = (size_t)n;
				nring++;
			}
			goto skip;
		}
		samples += drain(s, ring, nring, &full, &before);
		nring = 0;
		if (whole) {
			if (vb_proc_read(p, &cur) == 0) {
				if (iter && cur.mem_available &&
				    cur.mem_available < __atomic_load_n(
				    &s->sh->avail_min, __ATOMIC_RELAXED))
					__atomic_store_n(&s->sh->avail_min,
					    cur.mem_available,
					    __ATOMIC_RELAXED);
				vb_vmstat_row_split(s->out, &cur, &s->prev,
				    &cur, &full, s->t0_ns, iter);
				before = full;
				full = cur;
				s->prev = cur;
				samples++;
			}
		} else {
			/* the ring is full, or the layout is being relearnt */
			cur = s->prev;
			if (vb_proc_read_vmstat(p, &cur) == 0) {
				vb_vmstat_row_split(s->out, &cur, &s->prev,
				    &full, &before, s->t0_ns, iter);
				s->prev = cur;
				samples++;
			}
		}
		/* deadlines, not stamps: at 1 s, every row, whatever jitter */
		if (next - flushed >= VB_NSEC_PER_SEC) {
			errno = 0;
			if (fflush(s->out) == EOF || ferror(s->out)) {
				/* disk full: stop, and say why */
				s->sh->err = errno ? errno : EIO;
				break;
			}
			flushed = next;
		}
skip:
		/* skip deadlines already missed rather than burst */
		while (next + s->interval_ns < vb_now_ns())
			next += s->interval_ns;
	}
	samples += drain(s, ring, nring, &full, &before);
	errno = 0;
	if ((fflush(s->out) == EOF || ferror(s->out)) && !s->sh->err)
		s->sh->err = errno ? errno : EIO;
	if (ring)
		free(ring[0].buf);
	free(ring);
	s->sh->samples = samples;
	s->sh->cpu_ns = thread_cpu_ns() - c0;
}

/*
 * The sampler process, just created: never returns.  It must not run
 * the harness's clean-up (die hook, atexit handlers), hence _exit().
 */
static void
sampler_child(struct vb_sampler *s, pid_t parent)
{
	struct sigaction sa;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	vb_set_die_hook(NULL, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* without privileges this only costs the guarantee */
	if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) < 0)
		mlockall(MCL_CURRENT | MCL_FUTURE);
	sampler_main(s);
	_exit(s->sh->err ? 1 : 0);
}

int
vb_sampler_start(struct vb_sampler *s, const char *root, FILE *out,
    uint64_t interval_ns)
{
	pid_t parent = getpid(), pid;
	int e;

	memset(s, 0, sizeof(*s));
	if (vb_proc_open(&s->proc, root) < 0)
		return -1;
	s->out = out;
	s->interval_ns = interval_ns;
	if (vb_proc_read(&s->proc, &s->prev) < 0)
		goto fail;
	s->t0_ns = s->prev.t_ns;
	if (!out)
		return 0;
	vb_vmstat_header(out, interval_ns);
	/* flushed: the harness's copy of the buffer must stay empty */
	if (fflush(out) == EOF)
		goto fail;
	s->sh = mmap(NULL, sizeof(*s->sh), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->sh == MAP_FAILED) {
		s->sh = NULL;
		goto fail;
	}
	/*
	 * fork() without SIGCHLD: a clone child (see vmstat.h).  No
	 * CLONE_VM, so it has its own copy of everything, as after fork();
	 * the harness is single-threaded here, so no lock is held.
	 */
	pid = (pid_t)syscall(SYS_clone, 0UL, NULL, NULL, NULL, 0UL);
	if (pid < 0)
		goto fail;
	if (pid == 0)
		sampler_child(s, parent);
	s->pid = pid;
	s->running = 1;
	return 0;
fail:
	e = errno;
	if (s->sh)
		munmap(s->sh, sizeof(*s->sh));
	s->sh = NULL;
	vb_proc_close(&s->proc);
	errno = e;
	return -1;
}

void
vb_sampler_set_iter(struct vb_sampler *s, int iter)
{
	if (s->sh)
		__atomic_store_n(&s->sh->iter, iter, __ATOMIC_RELAXED);
}

void
vb_sampler_mem_reset(struct vb_sampler *s)
{
	if (s->sh)
		__atomic_store_n(&s->sh->avail_min, UINT64_MAX,
		    __ATOMIC_RELAXED);
}

uint64_t
vb_sampler_mem_min(const struct vb_sampler *s)
{
	return s->sh ? __atomic_load_n(&s->sh->avail_min, __ATOMIC_RELAXED) :
	    UINT64_MAX;
}

void
vb_sampler_stop(struct vb_sampler *s)
{
	int status;

	if (s->running) {
		__atomic_store_n(&s->sh->stop, 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, &s->sh->stop, FUTEX_WAKE, 1, NULL, NULL, 0);
		while (waitpid(s->pid, &status, __WALL) < 0 && errno == EINTR)
			;
		s->samples = s->sh->samples;
		s->cpu_ns = s->sh->cpu_ns;
		s->err = s->sh->err;
		s->running = 0;
		s->pid = 0;
	}
	if (s->sh) {
		munmap(s->sh, sizeof(*s->sh));
		s->sh = NULL;
	}
	vb_proc_close(&s->proc);
}
