/*
 * trace.c - reclaim and compaction latency from tracepoints (trace.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "msg.h"
#include "trace.h"
#include "util.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC	0x74726163
#endif

const struct vb_metric vb_trace_metrics[] = {
	{ "reclaim_direct_n", "stalls", VB_LOWER, "direct reclaim stalls "
	    "(tracepoints, system-wide)", 0 },
	{ "reclaim_direct_us", "us", VB_LOWER, "time in direct reclaim, "
	    "all stalls (system-wide)", 0 },
	{ "reclaim_direct_p50_us", "us", VB_LOWER, "median direct reclaim "
	    "stall (system-wide)", 0 },
	{ "reclaim_direct_p99_us", "us", VB_LOWER, "99th percentile direct "
	    "reclaim stall (system-wide)", 1 },
	{ "reclaim_direct_max_us", "us", VB_LOWER, "longest direct reclaim "
	    "stall (system-wide)", 0 },
	{ "reclaim_memcg_n", "stalls", VB_LOWER, "memory cgroup reclaim "
	    "stalls (tracepoints, system-wide)", 0 },
	{ "reclaim_memcg_us", "us", VB_LOWER, "time in memory cgroup "
	    "reclaim, all stalls (system-wide)", 0 },
	{ "reclaim_memcg_p50_us", "us", VB_LOWER, "median memory cgroup "
	    "reclaim stall (system-wide)", 0 },
	{ "reclaim_memcg_p99_us", "us", VB_LOWER, "99th percentile memory "
	    "cgroup reclaim stall (system-wide)", 1 },
	{ "reclaim_memcg_max_us", "us", VB_LOWER, "longest memory cgroup "
	    "reclaim stall (system-wide)", 0 },
	{ "compaction_n", "runs", VB_LOWER, "compaction runs (tracepoints, "
	    "system-wide)", 0 },
	{ "compaction_us", "us", VB_LOWER, "time in compaction, all runs "
	    "(system-wide)", 0 },
	{ "compaction_p50_us", "us", VB_LOWER, "median compaction run "
	    "(system-wide)", 0 },
	{ "compaction_p99_us", "us", VB_LOWER, "99th percentile compaction "
	    "run (system-wide)", 0 },
	{ "compaction_max_us", "us", VB_LOWER, "longest compaction run "
	    "(system-wide)", 0 },
	{ "kswapd_wake_n", "wakeups", VB_LOWER, "kswapd wake-ups "
	    "(tracepoints, system-wide)", 0 },
	{ "trace_lost", "events", VB_INFO, "trace events the buffer "
	    "dropped (the figures above undercount)", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

/* The events: begin (0), end (1) or a count (2). */
static const struct tp_event {
	const char *sys, *name;
	int fam, kind;
} tp_events[] = {
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", VB_TP_DIRECT, 0 },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", VB_TP_DIRECT, 1 },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", VB_TP_MEMCG, 0 },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", VB_TP_MEMCG, 1 },
	{ "compaction", "mm_compaction_begin", VB_TP_COMPACT, 0 },
	{ "compaction", "mm_compaction_end", VB_TP_COMPACT, 1 },
	{ "vmscan", "mm_vmscan_kswapd_wake", VB_TP_KSWAPD, 2 },
	{ NULL, NULL, 0, 0 },
};

static const char *const fam_names[VB_NTPFAM] = {
	"direct reclaim", "memcg reclaim", "compaction", "kswapd wake-ups",
};

const char *
vb_trace_family(int fam)
{
	return fam >= 0 && fam < VB_NTPFAM ? fam_names[fam] : NULL;
}

/* ---- the arithmetic ---- */

void
vb_tpacc_init(struct vb_tpacc *a)
{
	memset(a, 0, sizeof(*a));
}

void
vb_tpacc_free(struct vb_tpacc *a)
{
	int f;

	free(a->open);
	for (f = 0; f < 3; f++)
		free(a->dur[f].us);
	vb_tpacc_init(a);
}

/* The slot of @key in the open-addressing table (made when missing). */
static struct vb_tpopen *
slot(struct vb_tpacc *a, uint64_t key)
{
	size_t i, mask;

	if (2 * (a->nopen + 1) > a->capopen) {
		struct vb_tpopen *old = a->open;
		size_t n = a->capopen, j;

		a->capopen = n ? 2 * n : 256;
		a->open = vb_xcalloc(a->capopen, sizeof(*a->open));
		a->nopen = 0;
		for (j = 0; j < n; j++)
			if (old[j].key)
				*slot(a, old[j].key) = old[j];
		free(old);
	}
	mask = a->capopen - 1;
	for (i = (size_t)(key * 0x9e3779b97f4a7c15ull) & mask;
	    a->open[i].key && a->open[i].key != key; i = (i + 1) & mask)
		;
	if (!a->open[i].key) {
		a->open[i].key = key;
		a->open[i].t_us = UINT64_MAX;
		a->nopen++;
	}
	return &a->open[i];
}

static void
add_dur(struct vb_tpdur *d, uint64_t us)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 1024;
		d->us = vb_xrealloc(d->us, d->cap * sizeof(*d->us));
	}
	d->us[d->n++] = us;
}

/* Digits at @p into *@v; the end, or NULL when there are none. */
static const char *
digits(const char *p, uint64_t *v)
{
	const char *s = p;

	*v = 0;
	while (*p >= '0' && *p <= '9' && p - s < 19)
		*v = *v * 10 + (uint64_t)(*p++ - '0');
	return p > s ? p : NULL;
}

/*
 * "TASK-PID [CPU] FLAGS SECONDS.MICROS: EVENT: ..." as the kernel prints
 * it (the task's name may hold blanks and dashes: the pid is the number
 * before the blanks before the first "[digits]").
 */
int
vb_tpacc_line(struct vb_tpacc *a, const char *line)
{
	const struct tp_event *e;
	const char *p, *q, *ev;
	uint64_t pid, cpu, sec, usec, t;
	struct vb_tpopen *o;
	size_t n;

	if (line[0] == '#' || line[0] == '\0' || line[0] == '\n')
		return 0;
	/* "CPU:1 [LOST 42 EVENTS]" */
	if ((p = strstr(line, "[LOST ")) && digits(p + 6, &cpu)) {
		a->lost += (double)cpu;
		return 0;
	}
	for (p = strchr(line, '['); p; p = strchr(p + 1, '[')) {
		if (p == line || p[-1] != ' ' || !(q = digits(p + 1, &cpu)) ||
		    *q != ']')
			continue;
		for (q = p; q > line && q[-1] == ' '; q--)
			;
		n = 0;
		while (q > line && q[-1] >= '0' && q[-1] <= '9' && n < 19) {
			q--;
			n++;
		}
		if (n && q > line && q[-1] == '-')
			break;
	}
	if (!p || !digits(q, &pid))
		return -1;
	/* the flags, then the timestamp */
	p = strchr(p, ']') + 1;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ')
		p++;
	while (*p == ' ')
		p++;
	if (!(q = digits(p, &sec)) || *q != '.' || !(p = digits(q + 1,
	    &usec)) || p - q != 7 || p[0] != ':' || p[1] != ' ')
		return -1;
	t = sec * 1000000 + usec;
	ev = p + 2;
	n = strcspn(ev, ":");
	if (ev[n] != ':')
		return -1;
	for (e = tp_events; e->name; e++)
		if (strlen(e->name) == n && strncmp(ev, e->name, n) == 0)
			break;
	if (!e->name)
		return 0;
	if (e->kind == 2) {
		a->kswapd++;
		return 0;
	}
	o = slot(a, pid * VB_NTPFAM + (uint64_t)e->fam + 1);
	if (e->kind == 0) {
		o->t_us = t;
	} else if (o->t_us == UINT64_MAX || t < o->t_us) {
		a->unpaired++;
	} else {
		add_dur(&a->dur[e->fam], t - o->t_us);
		o->t_us = UINT64_MAX;
	}
	return 0;
}

void
vb_tpacc_text(struct vb_tpacc *a, const char *text)
{
	char line[1024];
	const char *p, *nl;
	size_t n;

	for (p = text; *p; p = nl ? nl + 1 : p + n) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		vb_tpacc_line(a, line);
		if (!nl)
			break;
	}
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Nearest rank: the smallest stall with at least @p of them at or below. */
static double
rank(const struct vb_tpdur *d, double p)
{
	size_t k = (size_t)ceil(p * (double)d->n);

	return (double)d->us[k ? k - 1 : 0];
}

void
vb_tpacc_row(struct vb_tpacc *a, double *row)
{
	int f;
	size_t i;

	for (f = 0; f < 3; f++) {
		struct vb_tpdur *d = &a->dur[f];
		double *r = row + f * VB_NTPF, sum = 0;

		r[VB_TPF_N] = (double)d->n;
		/* no stall: no time, and no percentile of nothing */
		r[VB_TPF_P50] = r[VB_TPF_P99] = r[VB_TPF_MAX] = NAN;
		for (i = 0; i < d->n; i++)
			sum += (double)d->us[i];
		r[VB_TPF_US] = sum;
		if (!d->n)
			continue;
		qsort(d->us, d->n, sizeof(*d->us), cmp_u64);
		r[VB_TPF_P50] = rank(d, 0.50);
		r[VB_TPF_P99] = rank(d, 0.99);
		r[VB_TPF_MAX] = (double)d->us[d->n - 1];
	}
	row[3 * VB_NTPF] = a->kswapd;
	row[3 * VB_NTPF + 1] = a->lost;
}

/* ---- the instance ---- */

int
vb_trace_wanted(void)
{
	const char *v = getenv("VMBENCH_TRACE");
	const char *cg = getenv("VMBENCH_CGROUP");

	if (v && *v)
		return strcmp(v, "0") != 0;
	return cg && *cg;
}

static const char *
sysroot(void)
{
	const char *r = getenv("VMBENCH_SYSROOT");

	return r && *r ? r : "";
}

/* The state folder (state.h's): <sysroot>/run/vmbench, checked. */
static int
state_dir(char *dir, size_t len)
{
	char parent[4200], err[512];

	if (*sysroot()) {
		snprintf(parent, sizeof(parent), "%s/run", sysroot());
		mkdir(parent, 0755);
	}
	snprintf(dir, len, "%s/run/vmbench", sysroot());
	return vb_own_dir(dir, 0755, err, sizeof(err));
}

/* Field 22 of /proc/@pid/stat, the start time; 0 when gone. */
static unsigned long long
start_time(long pid)
{
	char path[64], buf[1024], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (vb_read_small(path, buf, sizeof(buf)) <= 0 ||
	    !(p = strrchr(buf, ')')))
		return 0;
	for (i = 3; i <= 22 && p; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* The record of @t: written before the instance is made. */
static int
write_record(struct vb_trace *t)
{
	char dir[4096], text[4600];
	int fd, n;

	if (state_dir(dir, sizeof(dir)) < 0)
		return -1;
	snprintf(t->record, sizeof(t->record), "%s/trace.%ld.state", dir,
	    (long)getpid());
	n = snprintf(text, sizeof(text), "vmbench-state 1\npid %ld\n"
	    "start %llu\ntrace %s\n", (long)getpid(),
	    start_time((long)getpid()), t->inst);
	if ((fd = vb_create(t->record, O_WRONLY, 0600)) < 0 ||
	    write(fd, text, (size_t)n) != n || close(fd) < 0) {
		if (fd >= 0)
			unlink(t->record);
		t->record[0] = '\0';
		return -1;
	}
	return 0;
}

/* Events off, tracing off, instance gone.  0, or -1 (errno). */
static int
unmake(const char *inst, unsigned evs)
{
	const struct tp_event *e;
	struct statfs sf;
	char file[256];
	int i;

	for (e = tp_events, i = 0; e->name; e++, i++) {
		snprintf(file, sizeof(file), "events/%s/%s/enable", e->sys,
		    e->name);
		if ((evs & (1u << i)) || evs == ~0u)
			vb_put_at(inst, file, "0");
	}
	vb_put_at(inst, "tracing_on", "0");
	if (statfs(inst, &sf) < 0)
		return errno == ENOENT ? 0 : -1;
	/* a folder standing for tracefs (the tests'): removed as a tree */
	if (sf.f_type != TRACEFS_MAGIC)
		return vb_rmtree(inst);
	return rmdir(inst) < 0 && errno != ENOENT ? -1 : 0;
}

int
vb_trace_close(struct vb_trace *t, char *why, size_t len)
{
	if (why && len)
		why[0] = '\0';
	if (t->made && unmake(t->inst, t->evs) < 0) {
		if (why)
			snprintf(why, len, "cannot remove tracefs instance %s "
			    "(%s): left for the next run to remove", t->inst,
			    strerror(errno));
		t->on = 0;
		return -1;
	}
	t->made = t->on = 0;
	t->evs = t->fams = 0;
	if (t->record[0])
		unlink(t->record);
	t->record[0] = '\0';
	return 0;
}

/*
 * What a failed write or mkdir in tracefs says about it, for the one
 * line a run prints: read-only, busy (another tracer holds what we
 * need), half there (no instances folder), else nothing beyond errno.
 */
static const char *
why_not(int err)
{
	switch (err) {
	case EROFS:
	case EACCES:
	case EPERM:
		return ", tracefs read-only";
	case EBUSY:
		return ", tracefs busy";
	case ENOENT:
	case ENOTDIR:
		return ", tracefs half there";
	default:
		return "";
	}
}

int
vb_trace_open(struct vb_trace *t, char *why, size_t len)
{
	const struct tp_event *e;
	const char *miss = NULL;
	char file[256], missing[256] = "", sink[16];
	unsigned failed = 0;
	struct stat st;
	int i, f;

	memset(t, 0, sizeof(*t));
	why[0] = '\0';
	snprintf(t->root, sizeof(t->root), "%s/sys/kernel/tracing",
	    sysroot());
	snprintf(t->inst, sizeof(t->inst), "%s/instances/vmbench-%ld",
	    t->root, (long)getpid());
	if (!vb_exists_at(t->root, "instances")) {
		snprintf(why, len, "no tracefs at %s (mount -t tracefs nodev "
		    "%s): no reclaim or compaction latency recorded",
		    t->root, t->root);
		return -1;
	}
	if (geteuid() != 0 && !*sysroot()) {
		snprintf(why, len, "tracing needs root: no reclaim or "
		    "compaction latency recorded");
		return -1;
	}
	if (write_record(t) < 0) {
		snprintf(why, len, "cannot record the tracing state in "
		    "%s/run/vmbench (%s): tracing left off", sysroot(),
		    strerror(errno));
		return -1;
	}
	/*
	 * Our pid's name: there already, it is what a killed process
	 * under this pid left (no live one but us can hold the name); it
	 * is taken over and removed at the end like one we made.
	 */
	if (mkdir(t->inst, 0700) < 0 && errno != EEXIST) {
		snprintf(why, len, "cannot make tracefs instance %s (%s%s): "
		    "no reclaim or compaction latency recorded", t->inst,
		    strerror(errno), why_not(errno));
		vb_trace_close(t, NULL, 0);
		return -1;
	}
	if (lstat(t->inst, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s is there and is not a tracefs instance "
		    "(tracefs busy): no reclaim or compaction latency "
		    "recorded", t->inst);
		vb_trace_close(t, NULL, 0);
		return -1;
	}
	t->made = 1;
	/* a real instance has these at once: a half-there tracefs not */
	if (!vb_exists_at(t->inst, "tracing_on"))
		miss = "tracing_on";
	else if (!vb_exists_at(t->inst, "trace"))
		miss = "trace";
	else if (!vb_exists_at(t->inst, "events"))
		miss = "events";
	if (miss) {
		snprintf(why, len, "tracefs instance %s has no %s (tracefs "
		    "half there): no reclaim or compaction latency recorded",
		    t->inst, miss);
		t->evs = ~0u;
		vb_trace_close(t, NULL, 0);
		return -1;
	}
	if (vb_put_at(t->inst, "tracing_on", "0") < 0) {
		snprintf(why, len, "cannot set %s/tracing_on (%s%s): "
		    "no reclaim or compaction latency recorded", t->inst,
		    strerror(errno), why_not(errno));
		t->evs = ~0u;
		vb_trace_close(t, NULL, 0);
		return -1;
	}
	/* the instance's own settings: they go with it */
	vb_put_at(t->inst, "trace_clock", "mono");
	vb_put_at(t->inst, "buffer_size_kb", "2048");
	/*
	 * Every process's events, not only the run's (set_event_pid with
	 * event-fork would add a probe to every fork, exit and context
	 * switch of the machine: forkbomb took 8% more CPU); the figures
	 * are system-wide, like /proc/vmstat's.
	 */
	for (e = tp_events, i = 0; e->name; e++, i++) {
		snprintf(file, sizeof(file), "events/%s/%s/enable", e->sys,
		    e->name);
		if (!vb_exists_at(t->inst, file) || vb_put_at(t->inst, file, "1") < 0) {
			failed |= 1u << e->fam;
			continue;
		}
		t->evs |= 1u << i;
	}
	for (f = 0; f < VB_NTPFAM; f++) {
		if (!(failed & (1u << f))) {
			t->fams |= 1u << f;
			continue;
		}
		snprintf(sink, sizeof(sink), "%s", missing[0] ? ", " : "");
		strncat(missing, sink, sizeof(missing) - strlen(missing) - 1);
		strncat(missing, fam_names[f], sizeof(missing) -
		    strlen(missing) - 1);
	}
	if (!t->fams) {
		snprintf(why, len, "tracefs instance %s: none of the vmscan "
		    "and compaction events can be enabled: no reclaim or "
		    "compaction latency recorded", t->inst);
		vb_trace_close(t, NULL, 0);
		return -1;
	}
	if (missing[0])
		snprintf(why, len, "tracefs instance %s: no events for %s: "
		    "those figures are not recorded", t->inst, missing);
	t->on = 1;
	return 0;
}

void
vb_trace_start(struct vb_trace *t)
{
	if (!t->on)
		return;
	/* opening "trace" for writing with O_TRUNC empties the buffer */
	vb_put_at(t->inst, "trace", "");
	vb_put_at(t->inst, "tracing_on", "1");
}

void
vb_trace_stop(struct vb_trace *t)
{
	if (t->on)
		vb_put_at(t->inst, "tracing_on", "0");
}

/* "# entries-in-buffer/entries-written: 124/130 ...": 6 lost. */
static void
header(struct vb_tpacc *a, const char *line)
{
	unsigned long long in, written;

	if (sscanf(line, "# entries-in-buffer/entries-written: %llu/%llu",
	    &in, &written) == 2 && written > in)
		a->lost += (double)(written - in);
}

int
vb_trace_read(struct vb_trace *t, double *row)
{
	struct vb_tpacc a;
	char path[4400], buf[65536], *p, *nl;
	size_t len = 0;
	ssize_t n;
	int fd, f, k, e;

	for (k = 0; k < VB_TRACE_NCOL; k++)
		row[k] = NAN;
	if (!t->on)
		return 0;
	snprintf(path, sizeof(path), "%s/trace", t->inst);
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -1;
	vb_tpacc_init(&a);
	/* a line at a time through one buffer: the text is megabytes */
	for (;;) {
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = '\0';
		for (p = buf; (nl = strchr(p, '\n')); p = nl + 1) {
			*nl = '\0';
			if (p[0] == '#')
				header(&a, p);
			else
				vb_tpacc_line(&a, p);
		}
		len -= (size_t)(p - buf);
		memmove(buf, p, len);
		if (len == sizeof(buf) - 1)
			len = 0;	/* no line is that long */
	}
	e = errno;
	close(fd);
	if (n < 0) {
		vb_tpacc_free(&a);
		errno = e;
		return -1;
	}
	vb_tpacc_row(&a, row);
	vb_tpacc_free(&a);
	for (f = 0; f < 3; f++)
		if (!(t->fams & (1u << f)))
			for (k = 0; k < VB_NTPF; k++)
				row[f * VB_NTPF + k] = NAN;
	if (!(t->fams & (1u << VB_TP_KSWAPD)))
		row[3 * VB_NTPF] = NAN;
	return 0;
}

/* ---- after SIGKILL ---- */

/* Has @pid ended, or is it another process than the one of @start? */
static int
owner_gone(long pid, unsigned long long start)
{
	char path[64], buf[1024], *p;

	if (pid <= 0)
		return 1;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (vb_read_small(path, buf, sizeof(buf)) <= 0 ||
	    !(p = strrchr(buf, ')')))
		return 1;
	if (p[2] == 'Z' || p[2] == 'X')
		return 1;
	return start_time(pid) != start;
}

/*
 * Read the record @path into @inst (checked: <tracefs>/instances/
 * vmbench-<its pid>), its owner into *@pid and *@start.  0 or -1.
 */
static int
read_record(const char *path, char *inst, size_t len, long *pid,
    unsigned long long *start)
{
	char buf[8192], want[4400], *p;
	struct stat st;
	int fd;
	ssize_t n;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != geteuid() || (st.st_mode & 022) ||
	    (n = read(fd, buf, sizeof(buf) - 1)) <= 0) {
		close(fd);
		return -1;
	}
	close(fd);
	buf[n] = '\0';
	if (strncmp(buf, "vmbench-state 1\n", 16) != 0)
		return -1;
	*pid = 0;
	*start = 0;
	inst[0] = '\0';
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "pid ", 4) == 0)
			*pid = strtol(p + 4, NULL, 10);
		else if (strncmp(p, "start ", 6) == 0)
			*start = strtoull(p + 6, NULL, 10);
		else if (strncmp(p, "trace ", 6) == 0)
			snprintf(inst, len, "%.*s", (int)strcspn(p + 6, "\n"),
			    p + 6);
	}
	snprintf(want, sizeof(want), "%s/sys/kernel/tracing/instances/"
	    "vmbench-%ld", sysroot(), *pid);
	return *pid > 0 && strcmp(inst, want) == 0 ? 0 : -1;
}

int
vb_trace_recover(void)
{
	char dir[4096], path[4400], inst[4400];
	unsigned long long start;
	struct dirent *d;
	DIR *dp;
	long pid, fpid;
	char *end;
	int n = 0, bad = 0;

	snprintf(dir, sizeof(dir), "%s/run/vmbench", sysroot());
	if (!(dp = opendir(dir)))
		return 0;
	while ((d = readdir(dp))) {
		if (strncmp(d->d_name, "trace.", 6) != 0)
			continue;
		fpid = strtol(d->d_name + 6, &end, 10);
		if (fpid <= 0 || strcmp(end, ".state") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (read_record(path, inst, sizeof(inst), &pid, &start) < 0 ||
		    pid != fpid) {
			fprintf(stderr, "%s: ignored %s: not a tracing record "
			    "of vmbench's\n", vb_progname ? vb_progname :
			    "vmbench", path);
			continue;
		}
		if (pid == (long)getpid() || !owner_gone(pid, start))
			continue;
		if (unmake(inst, ~0u) < 0) {
			fprintf(stderr, "%s: a run killed earlier (pid %ld) "
			    "left tracefs instance %s, which cannot be "
			    "removed: %s\n", vb_progname ? vb_progname :
			    "vmbench", pid, inst, strerror(errno));
			bad = 1;
			continue;
		}
		unlink(path);
		fprintf(stderr, "%s: a run killed earlier (pid %ld) left the "
		    "machine changed: removed its tracefs instance %s\n",
		    vb_progname ? vb_progname : "vmbench", pid, inst);
		n++;
	}
	closedir(dp);
	return bad ? -1 : n;
}
