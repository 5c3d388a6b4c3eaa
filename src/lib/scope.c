/*
 * scope.c - the benchmark's own share of the machine (see scope.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scope.h"
#include "util.h"

const struct vb_metric vb_cg_metrics[] = {
	{ "cg_pgfault", "faults", VB_INFO, "page faults (memory cgroup)", 0 },
	{ "cg_pgmajfault", "faults", VB_LOWER, "major faults (memory "
	    "cgroup)", 1 },
	{ "cg_pswpin", "kB", VB_LOWER, "swapped in (memory cgroup)", 1 },
	{ "cg_pswpout", "kB", VB_LOWER, "swapped out (memory cgroup)", 1 },
	{ "cg_pgscan", "pages", VB_INFO, "scanned by reclaim (memory "
	    "cgroup)", 0 },
	{ "cg_pgsteal", "pages", VB_INFO, "reclaimed (memory cgroup)", 0 },
	{ "cg_workingset_refault", "pages", VB_LOWER, "refaults of evicted "
	    "pages (memory cgroup)", 0 },
	{ "cg_thp_fault_alloc", "pages", VB_HIGHER, "THPs allocated at fault "
	    "(memory cgroup)", 0 },
	{ "cg_oom_kill", "kills", VB_LOWER, "OOM kills (memory cgroup)", 0 },
	{ "cg_mem_peak_kb", "kB", VB_INFO, "peak memory use (memory "
	    "cgroup)", 0 },
	{ "cg_memsw_peak_kb", "kB", VB_INFO, "peak memory + swap use "
	    "(memory cgroup)", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

int
vb_cgroup_from_env(struct vb_cgroup *cg)
{
	const char *p = getenv("VMBENCH_CGROUP");
	const char *v = getenv("VMBENCH_CGROUP_VERSION");

	memset(cg, 0, sizeof(*cg));
	if (!p || !*p || !v || (strcmp(v, "1") && strcmp(v, "2")) ||
	    strlen(p) >= sizeof(cg->path))
		return -1;
	cg->version = *v - '0';
	snprintf(cg->path, sizeof(cg->path), "%s", p);
	return 0;
}

/* Read @dir/@file into @buf (NUL-terminated); length or -1. */
static ssize_t
slurp(const char *dir, const char *file, char *buf, size_t len)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return vb_read_small(path, buf, len);
}

/* Value of "key N" line @key in @text, or NAN. */
static double
kv(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, key, n) == 0 && p[n] == ' ')
			return strtod(p + n + 1, NULL);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NAN;
}

/* @a + @b where either may be absent; NAN only when both are. */
static double
sum2(double a, double b)
{
	if (isnan(a))
		return b;
	return isnan(b) ? a : a + b;
}

void
vb_cgroup_read(const struct vb_cgroup *cg, struct vb_cgsnap *s)
{
	/* memory.stat is ~1.5K on v1, ~3K on v2; bounded by the kernel */
	char st[16384], ev[4096], one[64];
	int i;

	for (i = 0; i < VB_NCG; i++)
		s->v[i] = NAN;
	if (!cg->version)
		return;
	if (slurp(cg->path, "memory.stat", st, sizeof(st)) < 0)
		st[0] = '\0';
	s->v[VB_CG_PGFAULT] = kv(st, "pgfault");
	s->v[VB_CG_PGMAJFAULT] = kv(st, "pgmajfault");
	s->v[VB_CG_REFAULT] = sum2(kv(st, "workingset_refault_anon"),
	    kv(st, "workingset_refault_file"));
	if (cg->version == 2) {
		s->v[VB_CG_PSWPIN] = kv(st, "pswpin");
		s->v[VB_CG_PSWPOUT] = kv(st, "pswpout");
		s->v[VB_CG_PGSCAN] = kv(st, "pgscan");
		s->v[VB_CG_PGSTEAL] = kv(st, "pgsteal");
		s->v[VB_CG_THP] = kv(st, "thp_fault_alloc");
		if (slurp(cg->path, "memory.events", ev, sizeof(ev)) >= 0)
			s->v[VB_CG_OOM] = kv(ev, "oom_kill");
	} else {
		if (slurp(cg->path, "memory.memsw.max_usage_in_bytes", one,
		    sizeof(one)) > 0)
			s->v[VB_CG_MEMSW_PEAK] = strtod(one, NULL) / 1024;
		if (slurp(cg->path, "memory.oom_control", ev, sizeof(ev)) >= 0)
			s->v[VB_CG_OOM] = kv(ev, "oom_kill");
		if (slurp(cg->path, "memory.max_usage_in_bytes", one,
		    sizeof(one)) > 0)
			s->v[VB_CG_PEAK] = strtod(one, NULL) / 1024;
	}
}

void
vb_cgroup_reset_peak(const struct vb_cgroup *cg)
{
	static const char *const files[] = { "memory.max_usage_in_bytes",
	    "memory.memsw.max_usage_in_bytes" };
	char path[4200];
	size_t i;
	int fd;

	if (cg->version != 1)
		return;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", cg->path, files[i]);
		/* on failure the peak is the run's so far */
		if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) >= 0) {
			ssize_t n = write(fd, "0", 1);

			(void)n;
			close(fd);
		}
	}
}

void
vb_cgroup_row(double *row, const struct vb_cgsnap *b,
    const struct vb_cgsnap *a)
{
	long page = sysconf(_SC_PAGESIZE);
	int i;

	for (i = 0; i < VB_NCG; i++) {
		if (i == VB_CG_PEAK || i == VB_CG_MEMSW_PEAK) {
			row[i] = b->v[i];
			continue;
		}
		row[i] = isnan(a->v[i]) || isnan(b->v[i]) ? NAN :
		    b->v[i] - a->v[i];
		if ((i == VB_CG_PSWPIN || i == VB_CG_PSWPOUT) && !isnan(row[i]))
			row[i] *= (double)page / 1024;
	}
}

/* utime + stime (ticks) and whether it is a kernel thread, of /proc/pid/stat. */
static int
proc_cpu(const char *proc_root, const char *pid, unsigned long long *ticks,
    int *kthread)
{
	char path[512], buf[1024], *p;
	unsigned long flags = 0;
	unsigned long long ut = 0, stt = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/stat", proc_root, pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')))
		return -1;
	/* fields 3.. after ")": state ppid pgrp sid tty_nr tpgid flags
	 * minflt cminflt majflt cmajflt utime stime */
	if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu %*u %*u %*u %*u "
	    "%llu %llu", &flags, &ut, &stt) != 3)
		return -1;
	*ticks = ut + stt;
	*kthread = (flags & 0x00200000) != 0;	/* PF_KTHREAD */
	return 0;
}

/* VmRSS of /proc/pid/statm (resident pages) in kB, or 0. */
static unsigned long long
proc_rss_kb(const char *proc_root, const char *pid)
{
	char path[512], buf[256];
	unsigned long long size, res;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/statm", proc_root, pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &size, &res) != 2)
		return 0;
	return res * (unsigned long long)sysconf(_SC_PAGESIZE) / 1024;
}

static int
by_pid(const void *x, const void *y)
{
	const struct vb_kthread *a = x, *b = y;

	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

unsigned long long
vb_cpuown_kthread_delta(const struct vb_cpuown *a, const struct vb_cpuown *b)
{
	unsigned long long sum = 0;
	int i, j = 0;

	for (i = 0; i < b->n; i++) {
		unsigned long long before = 0;

		while (j < a->n && a->kt[j].pid < b->kt[i].pid)
			j++;
		if (j < a->n && a->kt[j].pid == b->kt[i].pid)
			before = a->kt[j].ticks;
		/* a reused pid may read less than before: a new thread */
		sum += b->kt[i].ticks >= before ? b->kt[i].ticks - before :
		    b->kt[i].ticks;
	}
	return sum;
}

void
vb_cpuown_free(struct vb_cpuown *c)
{
	free(c->kt);
	c->kt = NULL;
	c->n = 0;
}

void
vb_cpuown_read(const char *proc_root, pid_t sampler, struct vb_cpuown *c)
{
	const char *ours = getenv("VMBENCH_OURS");
	unsigned long long t;
	struct dirent *e;
	char pid[32];
	int kt;
	DIR *d;

	int cap = 0;

	c->ours = 0;
	c->ours_rss_kb = 0;
	c->n = 0;
	c->kt = NULL;
	if ((d = opendir(proc_root))) {
		while ((e = readdir(d))) {
			if (!isdigit((unsigned char)e->d_name[0]))
				continue;
			if (proc_cpu(proc_root, e->d_name, &t, &kt) < 0 || !kt)
				continue;
			if (c->n == cap) {
				cap = cap ? 2 * cap : 256;
				c->kt = vb_xrealloc(c->kt, (size_t)cap *
				    sizeof(*c->kt));
			}
			c->kt[c->n].pid = atol(e->d_name);
			c->kt[c->n++].ticks = t;
		}
		closedir(d);
		if (c->n > 1)
			qsort(c->kt, (size_t)c->n, sizeof(*c->kt), by_pid);
	}
	/* this process's CPU is its getrusage()'s; its memory counts here */
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	c->ours_rss_kb += proc_rss_kb(proc_root, pid);
	if (sampler > 0) {
		snprintf(pid, sizeof(pid), "%ld", (long)sampler);
		if (proc_cpu(proc_root, pid, &t, &kt) == 0)
			c->ours += t;
		c->ours_rss_kb += proc_rss_kb(proc_root, pid);
	}
	while (ours && *ours) {
		size_t n = strspn(ours, "0123456789");

		if (n && n < sizeof(pid)) {
			snprintf(pid, sizeof(pid), "%.*s", (int)n, ours);
			if (proc_cpu(proc_root, pid, &t, &kt) == 0)
				c->ours += t;
			if (atol(pid) != (long)getpid())
				c->ours_rss_kb += proc_rss_kb(proc_root, pid);
		}
		ours += n;
		ours += strcspn(ours, "0123456789");
	}
}

double
vb_foreign_cpu(double busy_s, double kthread_s, double ours_s, double secs)
{
	if (!(secs > 0))
		return NAN;
	return 100 * (busy_s - kthread_s - ours_s) / secs;
}

double
vb_foreign_mem_kb(double total_kb, double avail_kb, double ours_kb)
{
	if (!(total_kb > 0) || !(avail_kb > 0))
		return NAN;
	return total_kb - avail_kb - ours_kb;
}
