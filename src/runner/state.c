/*
 * state.c - the state file a run leaves for the next one (see state.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <unistd.h>

#include "knob.h"
#include "memlimit.h"
#include "state.h"
#include "util.h"

/*
 * /proc/@pid/stat into @buf; the fields after the command's ")" (the
 * first is field 3, the state), or NULL when there is no such process.
 */
static char *
proc_stat(long pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strrchr(buf, ')');
}

/* Field 22 of /proc/@pid/stat (start time in ticks); 0 when gone. */
static unsigned long long
start_time(long pid)
{
	char buf[1024], *p = proc_stat(pid, buf, sizeof(buf));
	int i;

	/* p is at ")"; each step moves to the blank before field i */
	for (i = 3; i <= 22 && p; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* %-escape @s (spaces, %, controls, bytes >= 0x7f) into @f. */
static void
put_esc(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p == '%' || *p >= 0x7f)
			fprintf(f, "%%%02x", *p);
		else
			putc(*p, f);
}

/* Undo put_esc() in place. */
static void
unesc(char *s)
{
	char *w = s;

	for (; *s; s++) {
		unsigned int c;

		if (*s == '%' && sscanf(s + 1, "%2x", &c) == 1 &&
		    s[1] && s[2]) {
			*w++ = (char)c;
			s += 2;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

int
vb_state_begin(struct vb_state *st, const char *workdir)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->path, sizeof(st->path), "%s/vmrun.%ld.state", workdir,
	    (long)getpid());
	return vb_state_save(st);
}

int
vb_state_save(const struct vb_state *st)
{
	char tmp[4200];
	FILE *f;
	int i;

	if (!st->path[0])
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", st->path);
	if (!(f = fopen(tmp, "we")))
		return -1;
	fprintf(f, "vmbench-state 1\npid %ld\nstart %llu\n", (long)getpid(),
	    start_time((long)getpid()));
	for (i = 0; i < 2; i++)
		if (st->results[i][0]) {
			fputs("results ", f);
			put_esc(f, st->results[i]);
			putc('\n', f);
		}
	if (st->cgroup[0]) {
		fprintf(f, "cgroup %d ", st->cgroup_v);
		put_esc(f, st->cgroup);
		putc('\n', f);
	}
	if (st->swapfile[0]) {
		fputs("swapfile ", f);
		put_esc(f, st->swapfile);
		putc('\n', f);
	}
	for (i = 0; st->knobs && i < st->knobs->n; i++) {
		const struct vb_knob *k = &st->knobs->k[i];

		if (!k->saved)
			continue;
		fputs("knob ", f);
		put_esc(f, k->path);
		putc(' ', f);
		put_esc(f, k->orig);
		putc('\n', f);
	}
	if (fflush(f) != 0 || fsync(fileno(f)) < 0) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) != 0 || rename(tmp, st->path) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

void
vb_state_end(struct vb_state *st)
{
	if (st->path[0])
		unlink(st->path);
	st->path[0] = '\0';
}

/* A meta whose status is still running: mark it interrupted. */
static int
mark_interrupted(const char *dir)
{
	char path[4200], tmp[4300], line[8192];
	FILE *in, *out;
	int changed = 0;

	snprintf(path, sizeof(path), "%s/meta", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(in = fopen(path, "re")))
		return 0;
	if (!(out = fopen(tmp, "we"))) {
		fclose(in);
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (strcmp(line, "status=running\n") == 0) {
			fputs("status=interrupted\n", out);
			changed = 1;
		} else {
			fputs(line, out);
		}
	}
	fclose(in);
	if (fclose(out) != 0 || !changed || rename(tmp, path) < 0) {
		unlink(tmp);
		return changed ? -1 : 0;
	}
	return 1;
}

/* Has process @pid ended (no such process, or a zombie)? */
static int
gone(long pid)
{
	char buf[1024], *p;

	if (kill((pid_t)pid, 0) < 0)
		return errno == ESRCH;
	p = proc_stat(pid, buf, sizeof(buf));
	return p && (p[2] == 'Z' || p[2] == 'X');
}

/* Is @name "vmbench-<word>.<pid>" of a process that is gone? */
static int
dead_workdir(const char *name)
{
	const char *dot = strrchr(name, '.');
	char *end;
	long pid;

	if (strncmp(name, "vmbench-", 8) != 0 || !dot || !dot[1] ||
	    strncmp(name, "vmbench-swap.", 13) == 0)
		return 0;
	pid = strtol(dot + 1, &end, 10);
	if (*end || pid <= 0)
		return 0;
	return gone(pid);
}

/* Undo what the state file @path names; 0, or -1 when something stays. */
static int
recover_one(const char *path, long pid)
{
	char line[16384], done[1024] = "";
	size_t used = 0;
	FILE *f = fopen(path, "re");
	int rc = 0, nknob = 0;

#define SAID(...) do { if (used < sizeof(done)) { \
	int w_ = snprintf(done + used, sizeof(done) - used, __VA_ARGS__); \
	if (w_ > 0) used += (size_t)w_; } } while (0)

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *key = line, *val = strchr(line, ' ');

		line[strcspn(line, "\n")] = '\0';
		if (!val)
			continue;
		*val++ = '\0';
		if (strcmp(key, "knob") == 0) {
			char *orig = strchr(val, ' ');

			if (!orig)
				continue;
			*orig++ = '\0';
			unesc(val);
			unesc(orig);
			if (vb_knob_write(val, orig) < 0) {
				fprintf(stderr, "vmrun: cannot restore %s to "
				    "%s: %s\n", val, orig, strerror(errno));
				rc = -1;
			} else {
				nknob++;
			}
		} else if (strcmp(key, "cgroup") == 0) {
			struct vb_memlimit m;
			char err[4400], *p = strchr(val, ' ');

			if (!p)
				continue;
			memset(&m, 0, sizeof(m));
			m.version = atoi(val);
			unesc(++p);
			snprintf(m.path, sizeof(m.path), "%s", p);
			if (access(m.path, F_OK) < 0)
				continue;
			if (vb_memlimit_remove(&m, err, sizeof(err)) < 0) {
				fprintf(stderr, "vmrun: %s\n", err);
				rc = -1;
			} else {
				SAID(", removed its memory cgroup");
			}
		} else if (strcmp(key, "swapfile") == 0) {
			unesc(val);
			if (swapoff(val) < 0 && errno != EINVAL &&
			    errno != ENOENT) {
				fprintf(stderr, "vmrun: cannot switch off swap "
				    "file %s: %s\n", val, strerror(errno));
				rc = -1;
			} else if (unlink(val) == 0) {
				SAID(", removed its swap file");
			}
		} else if (strcmp(key, "results") == 0) {
			unesc(val);
			if (mark_interrupted(val) > 0)
				SAID(", marked %s interrupted", val);
		}
	}
	fclose(f);
	if (nknob)
		SAID(", restored %d setting%s", nknob, nknob == 1 ? "" : "s");
	fprintf(stderr, "vmrun: a run killed earlier (pid %ld) left the "
	    "machine changed: cleaned up%s\n", pid, done[0] ? done : "");
#undef SAID
	return rc;
}

int
vb_state_recover(const char *workdir)
{
	DIR *d = opendir(workdir);
	struct dirent *e;
	int n = 0, bad = 0, nwork = 0;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		char path[4400], line[256];
		unsigned long long start = 0;
		long pid = 0;
		FILE *f;

		if (strncmp(e->d_name, "vmrun.", 6) != 0 ||
		    strlen(e->d_name) < 12 || strcmp(e->d_name +
		    strlen(e->d_name) - 6, ".state") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", workdir, e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		while (fgets(line, sizeof(line), f)) {
			sscanf(line, "pid %ld", &pid);
			sscanf(line, "start %llu", &start);
		}
		fclose(f);
		if (pid <= 0)
			continue;
		/* alive, and the same process (not a reused pid): leave it */
		if (pid == (long)getpid() || (kill((pid_t)pid, 0) == 0 &&
		    start_time(pid) == start) || (kill((pid_t)pid, 0) < 0 &&
		    errno == EPERM))
			continue;
		if (recover_one(path, pid) < 0)
			bad = 1;
		else
			unlink(path);
		n++;
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		char path[4400];

		if (!dead_workdir(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", workdir, e->d_name);
		if (vb_rmtree(path) == 0)
			nwork++;
	}
	closedir(d);
	if (nwork)
		fprintf(stderr, "vmrun: removed %d work folder%s left by "
		    "killed benchmarks in %s\n", nwork, nwork == 1 ? "" : "s",
		    workdir);
	return bad ? -1 : n + (nwork > 0);
}
