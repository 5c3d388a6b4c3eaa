/*
 * memlimit.c - memory cgroups for MEM= (see memlimit.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "memlimit.h"
#include "size.h"
#include "util.h"

/* Read a small file into @buf; length or -1. */
static ssize_t
read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/*
 * The mount point of a cgroup filesystem from /proc/self/mountinfo:
 * @v2 set, the cgroup2 mount; else the v1 mount whose super options
 * name the memory controller.
 */
static int
find_mount(int v2, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		char mnt[4096], *dash, type[64], src[256], opts[1024];

		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		dash = strstr(line, " - ");
		if (!dash || sscanf(dash + 3, "%63s %255s %1023s", type, src,
		    opts) != 3)
			continue;
		if (v2 && strcmp(type, "cgroup2") == 0)
			found = 1;
		else if (!v2 && strcmp(type, "cgroup") == 0) {
			char *o, *save = NULL;

			for (o = strtok_r(opts, ",", &save); o;
			    o = strtok_r(NULL, ",", &save))
				if (strcmp(o, "memory") == 0)
					found = 1;
		}
		if (found)
			snprintf(out, len, "%s", mnt);
	}
	fclose(f);
	return found ? 0 : -1;
}

/*
 * The caller's cgroup path from /proc/self/cgroup: the "0::" line for
 * v2, the line whose controllers include memory for v1.
 */
static int
own_cgroup(int v2, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') :
		    NULL;

		if (!c2)
			continue;
		line[strcspn(line, "\n")] = '\0';
		*c2 = '\0';
		if (v2 && strcmp(line, "0") == 0 && c1[1] == '\0')
			found = 1;
		else if (!v2) {
			char *o, *save = NULL;

			for (o = strtok_r(c1 + 1, ",", &save); o;
			    o = strtok_r(NULL, ",", &save))
				if (strcmp(o, "memory") == 0)
					found = 1;
		}
		if (found)
			snprintf(out, len, "%s", c2 + 1);
	}
	fclose(f);
	return found ? 0 : -1;
}

/*
 * The folder to create the cgroup in: <mount><own path> when it exists
 * (it may not inside a container with its own cgroup namespace view),
 * else the mount's root.
 */
static void
parent_dir(const char *mnt, const char *own, char *out, size_t len)
{
	struct stat st;

	snprintf(out, len, "%s%s", mnt, strcmp(own, "/") ? own : "");
	if (stat(out, &st) < 0 || !S_ISDIR(st.st_mode))
		snprintf(out, len, "%s", mnt);
}

/* Is the v2 memory controller available to children of @dir? */
static int
v2_usable(const char *mnt, char *dir, size_t len)
{
	char own[2048], buf[1024], path[4200];

	if (own_cgroup(1, own, sizeof(own)) < 0)
		snprintf(own, sizeof(own), "/");
	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	if (read_file(path, buf, sizeof(buf)) < 0 || !strstr(buf, "memory"))
		return 0;
	parent_dir(mnt, own, dir, len);
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	if (read_file(path, buf, sizeof(buf)) >= 0 && strstr(buf, "memory"))
		return 1;
	/* try to enable it; refused when the folder holds processes */
	return vb_put_at(dir, "cgroup.subtree_control", "+memory") == 0;
}

static const char *
sz(char *buf, size_t len, uint64_t v)
{
	return vb_fmt_size(buf, len, v);
}

int
vb_memlimit_create(struct vb_memlimit *m, uint64_t limit, uint64_t swap,
    char *err, size_t errlen)
{
	char mnt[4096], parent[4096], own[2048], val[64], a[32];
	int v2 = 0;

	memset(m, 0, sizeof(*m));
	m->limit = limit;
	m->swap = swap;
	if (geteuid() != 0) {
		snprintf(err, errlen, "a memory limit needs root (to create a "
		    "memory cgroup): run as root, or without MEM=");
		return -1;
	}
	if (limit < (4ULL << 20)) {
		snprintf(err, errlen, "memory limit %s: below 4M, nothing "
		    "could run in it", sz(a, sizeof(a), limit));
		return -1;
	}
	if (find_mount(1, mnt, sizeof(mnt)) == 0 &&
	    v2_usable(mnt, parent, sizeof(parent)))
		v2 = 1;
	if (!v2) {
		if (find_mount(0, mnt, sizeof(mnt)) < 0) {
			snprintf(err, errlen, "no memory controller: neither "
			    "cgroup v2 with memory nor a cgroup v1 memory "
			    "hierarchy is mounted");
			return -1;
		}
		if (own_cgroup(0, own, sizeof(own)) < 0)
			snprintf(own, sizeof(own), "/");
		parent_dir(mnt, own, parent, sizeof(parent));
	}
	m->version = v2 ? 2 : 1;
	snprintf(m->path, sizeof(m->path), "%.4000s/vmbench.%ld", parent,
	    (long)getpid());
	if (mkdir(m->path, 0755) < 0) {
		snprintf(err, errlen, "cannot create memory cgroup %s: %s",
		    m->path, strerror(errno));
		m->version = 0;
		return -1;
	}
	snprintf(val, sizeof(val), "%llu", (unsigned long long)limit);
	if (vb_put_at(m->path, v2 ? "memory.max" : "memory.limit_in_bytes",
	    val) < 0) {
		snprintf(err, errlen, "cannot set the memory limit to %s in "
		    "%s: %s", sz(a, sizeof(a), limit), m->path,
		    strerror(errno));
		goto fail;
	}
	if (vb_memlimit_sync(m) < 0) {
		snprintf(err, errlen, "cannot set memory.swappiness in %s: %s",
		    m->path, strerror(errno));
		goto fail;
	}
	if (swap != VB_MEMLIMIT_NOSWAP) {
		const char *knob = v2 ? "memory.swap.max" :
		    "memory.memsw.limit_in_bytes";

		snprintf(val, sizeof(val), "%llu", (unsigned long long)(v2 ?
		    swap : limit + swap));
		if (vb_exists_at(m->path, knob)) {
			if (vb_put_at(m->path, knob, val) < 0) {
				snprintf(err, errlen, "cannot set %s in %s: %s",
				    knob, m->path, strerror(errno));
				goto fail;
			}
			m->swap_limited = 1;
		}
	}
	return 0;
fail:
	rmdir(m->path);
	m->version = 0;
	return -1;
}

/*
 * A v1 memory cgroup copies its parent's memory.swappiness when it is
 * made and then uses its own copy for its reclaim, whatever
 * /proc/sys/vm/swappiness says; v2 has no copy (the global value
 * applies).  So on v1 the copy is set from the global value, at
 * creation and whenever a run changes that value.
 */
int
vb_memlimit_sync(const struct vb_memlimit *m)
{
	char val[64];

	if (m->version != 1)
		return 0;
	if (read_file("/proc/sys/vm/swappiness", val, sizeof(val)) <= 0)
		return -1;
	val[strcspn(val, "\n")] = '\0';
	return vb_put_at(m->path, "memory.swappiness", val);
}

int
vb_memlimit_read(const struct vb_memlimit *m, const char *file, char *val,
    size_t len)
{
	char path[4200];

	if (!m->version || len < 2)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", m->path, file);
	if (read_file(path, val, len) < 0)
		return -1;
	val[strcspn(val, "\n")] = '\0';
	return 0;
}

int
vb_memlimit_enter(const struct vb_memlimit *m, pid_t pid)
{
	char val[32];
	int n = 0, i;
	long p = pid ? (long)pid : (long)getpid();

	if (!m->version) {
		errno = ENOENT;
		return -1;
	}
	/* no snprintf: keep it async-signal-safe for after fork() */
	do {
		val[n++] = (char)('0' + p % 10);
		p /= 10;
	} while (p && n < 30);
	for (i = 0; i < n / 2; i++) {
		char t = val[i];

		val[i] = val[n - 1 - i];
		val[n - 1 - i] = t;
	}
	val[n] = '\0';
	return vb_put_at(m->path, "cgroup.procs", val);
}

int
vb_memlimit_peak(const struct vb_memlimit *m, uint64_t *peak,
    uint64_t *hits)
{
	char path[4200], buf[4096], *p;

	if (!m->version)
		return -1;
	snprintf(path, sizeof(path), "%s/%s", m->path, m->version == 2 ?
	    "memory.peak" : "memory.max_usage_in_bytes");
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	*peak = strtoull(buf, NULL, 10);
	*hits = 0;
	if (m->version == 1) {
		snprintf(path, sizeof(path), "%s/memory.failcnt", m->path);
		if (read_file(path, buf, sizeof(buf)) >= 0)
			*hits = strtoull(buf, NULL, 10);
	} else {
		snprintf(path, sizeof(path), "%s/memory.events", m->path);
		if (read_file(path, buf, sizeof(buf)) >= 0 &&
		    (p = strstr(buf, "\nmax ")))
			*hits = strtoull(p + 5, NULL, 10);
	}
	return 0;
}

/* SIGKILL every process listed in @dir/cgroup.procs; how many. */
static int
kill_inside(const char *dir)
{
	char path[4200], buf[8192], *p, *end;
	int n = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf; *p; p = end) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
			n++;
	}
	return n;
}

int
vb_memlimit_remove(struct vb_memlimit *m, char *err, size_t errlen)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	if (!m->version)
		return 0;
	/* up to 5 s: killed processes leave once they are reaped */
	for (i = 0; i < 500; i++) {
		kill_inside(m->path);
		if (rmdir(m->path) == 0 || errno == ENOENT) {
			m->version = 0;
			return 0;
		}
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	snprintf(err, errlen, "cannot remove memory cgroup %s: %s", m->path,
	    strerror(errno));
	return -1;
}

int
vb_memlimit_owned(const char *path, int version, long pid, char *err,
    size_t errlen)
{
	char name[64], real[PATH_MAX];
	const char *base = strrchr(path, '/');
	struct statfs sf;
	struct stat st;

	snprintf(name, sizeof(name), "vmbench.%ld", pid);
	if (path[0] != '/' || !base || strcmp(base + 1, name) != 0) {
		snprintf(err, errlen, "'%s': not a cgroup vmrun makes (%s)",
		    path, name);
		return -1;
	}
	if (version != 1 && version != 2) {
		snprintf(err, errlen, "'%s': cgroup version %d", path, version);
		return -1;
	}
	if (lstat(path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* a folder of a cgroup filesystem, reached without a symlink */
	if (!S_ISDIR(st.st_mode) || statfs(path, &sf) < 0 ||
	    (unsigned long)sf.f_type != (version == 2 ? 0x63677270UL :
	    0x27e0ebUL) || !realpath(path, real) || strcmp(real, path)) {
		snprintf(err, errlen, "'%s': not a cgroup v%d folder", path,
		    version);
		return -1;
	}
	return 0;
}

char *
vb_memlimit_describe(const struct vb_memlimit *m, char *buf, size_t len)
{
	char a[32], b[32];

	if (!m->version) {
		snprintf(buf, len, "none");
		return buf;
	}
	snprintf(buf, len, "cgroup v%d %s limit %s swap %s", m->version,
	    m->path, sz(a, sizeof(a), m->limit),
	    m->swap == VB_MEMLIMIT_NOSWAP ? "unlimited" :
	    m->swap_limited ? sz(b, sizeof(b), m->swap) :
	    "not-enforced(no-swap-accounting)");
	return buf;
}
