/*
 * state.c - the state file a run leaves for the next one, and what the
 * next one undoes (see state.h; the machine-wide lock is mlock.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knob.h"
#include "label.h"
#include "memlimit.h"
#include "msg.h"
#include "runs.h"
#include "state.h"
#include "swapfile.h"
#include "util.h"

/* Messages name the program running the recovery (vmrun, vmboots, ...). */
#define PROG (vb_progname ? vb_progname : "vmrun")

/* A state file of ours is a few lines: anything bigger is not one. */
#define STATE_MAX (1 << 20)

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
unsigned long long
vb_pid_start(long pid)
{
	char buf[1024], *p = proc_stat(pid, buf, sizeof(buf));
	int i;

	/* p is at ")"; each step moves to the blank before field i */
	for (i = 3; i <= 22 && p; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
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

/* Does process @pid run, and is it the one that started at @start? */
int
vb_pid_alive(long pid, unsigned long long start)
{
	if (pid <= 0 || gone(pid))
		return 0;
	return vb_pid_start(pid) == start;
}

/* %-escape @s (spaces, %, controls, bytes >= 0x7f) into @f. */
void
vb_put_esc(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p == '%' || *p >= 0x7f)
			fprintf(f, "%%%02x", *p);
		else
			putc(*p, f);
}

/* Undo vb_put_esc() in place. */
void
vb_unesc(char *s)
{
	char *w = s;

	for (; *s; s++) {
		unsigned int c;

		if (*s == '%' && s[1] && s[2] && sscanf(s + 1, "%2x",
		    &c) == 1 && c) {
			*w++ = (char)c;
			s += 2;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

int
vb_state_dir(char *dir, size_t len, char *err, size_t errlen)
{
	const char *root = getenv("VMBENCH_SYSROOT");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char parent[4200];
	struct stat st;
	int w;

	if ((root && *root) || geteuid() == 0) {
		/* a fake tree's own run/ (the real one always exists) */
		if (root && *root) {
			snprintf(parent, sizeof(parent), "%s/run", root);
			mkdir(parent, 0755);
		}
		vb_machine_dir(dir, len);
		if (strlen(dir) + 64 >= len) {
			snprintf(err, errlen, "VMBENCH_SYSROOT: path too long");
			return -1;
		}
		return vb_own_dir(dir, 0755, err, errlen);
	}
	/* a user's own: its runtime folder, else one of its own in /tmp */
	if (xdg && xdg[0] == '/' && lstat(xdg, &st) == 0 &&
	    S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	    !(st.st_mode & 022))
		w = snprintf(dir, len, "%s/vmbench", xdg);
	else
		w = snprintf(dir, len, "/tmp/vmbench-%lu",
		    (unsigned long)geteuid());
	if (w < 0 || (size_t)w + 64 >= len) {
		snprintf(err, errlen, "XDG_RUNTIME_DIR: path too long");
		return -1;
	}
	return vb_own_dir(dir, 0700, err, errlen);
}

int
vb_state_begin(struct vb_state *st, const char *dir)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->path, sizeof(st->path), "%s/vmrun.%ld.state", dir,
	    (long)getpid());
	return vb_state_save(st);
}

int
vb_state_save(const struct vb_state *st)
{
	char tmp[4200];
	FILE *f;
	int i, fd;

	if (!st->path[0])
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", st->path);
	if ((fd = vb_create(tmp, O_WRONLY, 0600)) < 0)
		return -1;
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	fprintf(f, "vmbench-state 1\npid %ld\nstart %llu\n", (long)getpid(),
	    vb_pid_start((long)getpid()));
	for (i = 0; i < 2; i++)
		if (st->results[i][0]) {
			fputs("results ", f);
			vb_put_esc(f, st->results[i]);
			putc('\n', f);
		}
	for (i = 0; i < 2; i++)
		if (st->locks[i][0]) {
			fputs("lock ", f);
			vb_put_esc(f, st->locks[i]);
			putc('\n', f);
		}
	if (st->cgroup[0]) {
		fprintf(f, "cgroup %d ", st->cgroup_v);
		vb_put_esc(f, st->cgroup);
		putc('\n', f);
	}
	if (st->swapfile[0]) {
		fputs("swapfile ", f);
		vb_put_esc(f, st->swapfile);
		fprintf(f, "\nswapid %llu %llu %llu\n", st->swap_dev,
		    st->swap_ino, (unsigned long long)st->swap_size);
	}
	for (i = 0; st->knobs && i < st->knobs->n; i++) {
		const struct vb_knob *k = &st->knobs->k[i];

		if (!k->saved)
			continue;
		fputs("knob ", f);
		vb_put_esc(f, k->path);
		putc(' ', f);
		vb_put_esc(f, k->orig);
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

/*
 * Open @path for reading if it is a plain file of this user that no
 * one else may write (not a symlink, one link, at most @max bytes);
 * else NULL, with why in @why (when not NULL).
 */
static FILE *
open_trusted(const char *path, off_t max, char *why, size_t len)
{
	struct stat st;
	FILE *f;
	int fd;

	if (why)
		why[0] = '\0';
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (why)
			snprintf(why, len, "%s", errno == ELOOP ?
			    "a symlink" : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (why)
			snprintf(why, len, "not a regular file");
	} else if (st.st_uid != geteuid()) {
		if (why)
			snprintf(why, len, "owned by uid %lu, not by this user "
			    "(uid %lu)", (unsigned long)st.st_uid,
			    (unsigned long)geteuid());
	} else if (st.st_mode & 022) {
		if (why)
			snprintf(why, len, "writable by others (mode %04o)",
			    (unsigned)(st.st_mode & 07777));
	} else if (st.st_nlink != 1) {
		if (why)
			snprintf(why, len, "%lu links to it",
			    (unsigned long)st.st_nlink);
	} else if (st.st_size > max) {
		if (why)
			snprintf(why, len, "too big (%lld bytes)",
			    (long long)st.st_size);
	} else if ((f = fdopen(fd, "r"))) {
		return f;
	}
	close(fd);
	errno = EPERM;
	return NULL;
}

/*
 * In the file @path (a plain file of this user, at most @max bytes),
 * the line @from becomes @to, through a temporary renamed over it.  1
 * when changed, 0 when there was no such line (or no such file), -1
 * when it could not be rewritten.
 */
static int
rewrite_line(const char *path, off_t max, const char *from, const char *to)
{
	char tmp[4400], line[8192];
	FILE *in, *out;
	int changed = 0, fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(in = open_trusted(path, max, NULL, 0)))
		return 0;
	if ((fd = vb_create(tmp, O_WRONLY, 0644)) < 0 ||
	    !(out = fdopen(fd, "w"))) {
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		fclose(in);
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (!changed && strcmp(line, from) == 0) {
			fputs(to, out);
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

/*
 * A meta whose status is still running: mark it interrupted, and so
 * the results in its folder that still say running (a benchmark or a
 * probe killed with the run, which could not mark its own).  1 when
 * the meta was marked, with the results marked in *@nres.
 */
static int
mark_interrupted(const char *dir, int *nres)
{
	char path[4200];
	struct dirent *e;
	DIR *d;
	int rc;

	*nres = 0;
	snprintf(path, sizeof(path), "%s/meta", dir);
	rc = rewrite_line(path, STATE_MAX * 16, "status=running\n",
	    "status=interrupted\n");
	if (rc <= 0 || !(d = opendir(dir)))
		return rc;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.' || n < 5 ||
		    strcmp(e->d_name + n - 4, ".res") != 0)
			continue;
		snprintf(path, sizeof(path), "%.4000s/%.190s", dir,
		    e->d_name);
		*nres += rewrite_line(path, STATE_MAX * 64,
		    "status running\n", "status interrupted\n") > 0;
	}
	closedir(d);
	return rc;
}

/*
 * Is @name "vmbench-<word>.<pid>" of a process that is gone, and a
 * folder of this user that no one else may enter (as the harness makes
 * it) in @dir?  A folder another user made is never removed.
 */
static int
dead_workdir(const char *dir, const char *name)
{
	const char *dot = strrchr(name, '.');
	char path[4400];
	struct stat st;
	char *end;
	long pid;

	if (strncmp(name, "vmbench-", 8) != 0 || !dot || !dot[1] ||
	    strncmp(name, "vmbench-swap.", 13) == 0)
		return 0;
	pid = strtol(dot + 1, &end, 10);
	if (*end || pid <= 0 || !gone(pid))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid() && !(st.st_mode & 077);
}

/* Every .LABEL.lock in @dir no run holds: removed; how many. */
static int
clean_locks(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[4400];

		if (e->d_name[0] != '.' || len < 7 ||
		    strcmp(e->d_name + len - 5, ".lock") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		n += vb_label_lock_clean(path);
	}
	closedir(d);
	return n;
}

/*
 * The lock file of result folder @res, for a state file that names no
 * lock (older versions): <parent>/.<name>.lock, where a run's folder
 * <label>/runN is its label's.
 */
static int
clean_lock_of(const char *res)
{
	char dir[4400], path[4500], *slash;

	snprintf(dir, sizeof(dir), "%s", res);
	slash = strrchr(dir, '/');
	if (slash && vb_run_index(slash + 1) > 0)
		*slash = '\0';
	if (!(slash = strrchr(dir, '/')))
		snprintf(path, sizeof(path), ".%s.lock", dir);
	else
		snprintf(path, sizeof(path), "%.*s/.%s.lock",
		    (int)(slash - dir), dir, slash + 1);
	return vb_label_lock_clean(path);
}

/* A state file, read. */
struct saved {
	long pid;
	unsigned long long start;
	int nres;
	char results[2][PATH_MAX];
	int nlock;
	char locks[2][PATH_MAX + 16];
	int cgroup_v;
	char cgroup[4096];
	char swapfile[4096];
	unsigned long long swap_dev, swap_ino, swap_size;
	int nknob;
	struct {
		char *path, *val;
	} *knob;
};

static void
saved_free(struct saved *s)
{
	int i;

	for (i = 0; i < s->nknob; i++) {
		free(s->knob[i].path);
		free(s->knob[i].val);
	}
	free(s->knob);
}

/*
 * Read the state file @f into @s.  0, or -1 with why in @err (not a
 * state file, an item that does not parse).
 */
static int
parse_state(FILE *f, struct saved *s, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc = 0;

	memset(s, 0, sizeof(*s));
	while (rc == 0 && (n = getline(&line, &cap, f)) > 0) {
		char *key = line, *val, *rest;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			if (strcmp(line, "vmbench-state 1") != 0) {
				snprintf(err, errlen, "not a vmbench state "
				    "file");
				rc = -1;
			}
			continue;
		}
		if (!(val = strchr(line, ' ')))
			continue;
		*val++ = '\0';
		rest = strchr(val, ' ');
		if (strcmp(key, "pid") == 0) {
			s->pid = strtol(val, NULL, 10);
		} else if (strcmp(key, "start") == 0) {
			s->start = strtoull(val, NULL, 10);
		} else if (strcmp(key, "results") == 0 && s->nres < 2) {
			vb_unesc(val);
			snprintf(s->results[s->nres++], sizeof(s->results[0]),
			    "%s", val);
		} else if (strcmp(key, "lock") == 0 && s->nlock < 2) {
			vb_unesc(val);
			snprintf(s->locks[s->nlock++], sizeof(s->locks[0]),
			    "%s", val);
		} else if (strcmp(key, "cgroup") == 0 && rest) {
			s->cgroup_v = atoi(val);
			vb_unesc(++rest);
			snprintf(s->cgroup, sizeof(s->cgroup), "%s", rest);
		} else if (strcmp(key, "swapfile") == 0) {
			vb_unesc(val);
			snprintf(s->swapfile, sizeof(s->swapfile), "%s", val);
		} else if (strcmp(key, "swapid") == 0) {
			if (sscanf(val, "%llu %llu %llu", &s->swap_dev,
			    &s->swap_ino, &s->swap_size) != 3) {
				snprintf(err, errlen, "line %d: swapid: three "
				    "numbers expected", lineno);
				rc = -1;
			}
		} else if (strcmp(key, "knob") == 0) {
			if (!rest) {
				snprintf(err, errlen, "line %d: knob: a path "
				    "and a value expected", lineno);
				rc = -1;
				continue;
			}
			*rest++ = '\0';
			vb_unesc(val);
			vb_unesc(rest);
			s->knob = vb_xrealloc(s->knob, (size_t)(s->nknob + 1) *
			    sizeof(*s->knob));
			s->knob[s->nknob].path = vb_xstrdup(val);
			s->knob[s->nknob++].val = vb_xstrdup(rest);
		}
	}
	free(line);
	if (rc == 0 && lineno == 0) {
		snprintf(err, errlen, "empty");
		rc = -1;
	}
	return rc;
}

/*
 * Does every item of @s pass (state.h)?  0, or -1 with the first that
 * does not in @err.
 */
static int
check_saved(const struct saved *s, char *err, size_t errlen)
{
	const char *root = getenv("VMBENCH_SYSROOT");
	char e[4400];
	const unsigned char *p;
	int i;

	for (i = 0; i < s->nknob; i++) {
		if (vb_knob_allowed(root, s->knob[i].path, e, sizeof(e)) < 0) {
			snprintf(err, errlen, "knob %s", e);
			return -1;
		}
		for (p = (const unsigned char *)s->knob[i].val; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				break;
		if (*p || !s->knob[i].val[0] ||
		    strlen(s->knob[i].val) >= VB_KNOB_VALLEN) {
			snprintf(err, errlen, "knob %s: not a setting's value",
			    s->knob[i].path);
			return -1;
		}
	}
	if (s->swapfile[0]) {
		const char *base = strrchr(s->swapfile, '/');

		snprintf(e, sizeof(e), "vmbench-swap.%ld", s->pid);
		if (!base || strcmp(base + 1, e) != 0) {
			snprintf(err, errlen, "swapfile '%.4000s': not a swap "
			    "file vmrun makes (%.64s)", s->swapfile, e);
			return -1;
		}
		if (!s->swap_dev && !s->swap_ino && access(s->swapfile,
		    F_OK) == 0) {
			snprintf(err, errlen, "swapfile %.4000s: no device "
			    "and inode recorded, so not known to be vmrun's "
			    "(switch it off and remove it by hand)",
			    s->swapfile);
			return -1;
		}
	}
	if (s->cgroup[0] && access(s->cgroup, F_OK) == 0 &&
	    vb_memlimit_owned(s->cgroup, s->cgroup_v, s->pid, e,
	    sizeof(e)) < 0) {
		snprintf(err, errlen, "cgroup %s", e);
		return -1;
	}
	for (i = 0; i < s->nres; i++)
		for (p = (const unsigned char *)s->results[i]; *p; p++)
			if (*p < 0x20 || *p == 0x7f) {
				snprintf(err, errlen, "results: a control "
				    "character in the path");
				return -1;
			}
	for (i = 0; i < s->nlock; i++)
		for (p = (const unsigned char *)s->locks[i]; *p; p++)
			if (*p < 0x20 || *p == 0x7f) {
				snprintf(err, errlen, "lock: a control "
				    "character in the path");
				return -1;
			}
	return 0;
}

/* Add ", " and the printf-style text to @buf (@len) at *@used. */
static void said(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
said(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*used + 2 >= len)
		return;
	memcpy(buf + *used, ", ", 3);
	*used += 2;
	va_start(ap, fmt);
	w = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (w > 0)
		*used += (size_t)w < len - *used ? (size_t)w : len - *used - 1;
}

/*
 * Undo what the state @s (file @path) names; 0, or -1 when something
 * stays (said).  The machine first (the cgroup's processes killed: none
 * of the run's programs writes a result any more), then its results
 * marked, then its label locks removed; said in one line, the results
 * first.
 */
static int
undo(const char *path, const struct saved *s)
{
	char mach[4096] = "", done[16384] = "", err[4400];
	size_t um = 0, ud = 0;
	int rc = 0, nknob = 0, i;

	if (s->cgroup[0] && access(s->cgroup, F_OK) == 0) {
		struct vb_memlimit m;

		memset(&m, 0, sizeof(m));
		m.version = s->cgroup_v;
		snprintf(m.path, sizeof(m.path), "%s", s->cgroup);
		if (vb_memlimit_remove(&m, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", PROG, err);
			rc = -1;
		} else {
			said(mach, sizeof(mach), &um, "removed its memory "
			    "cgroup");
		}
	}
	if (s->swapfile[0]) {
		switch (vb_swapfile_reclaim(s->swapfile, s->pid, s->swap_dev,
		    s->swap_ino, s->swap_size, err, sizeof(err))) {
		case 1:
			said(mach, sizeof(mach), &um, "removed its swap file");
			break;
		case -1:
			fprintf(stderr, "%s: %s: %s\n", PROG, path, err);
			rc = -1;
			break;
		}
	}
	for (i = 0; i < s->nknob; i++) {
		if (vb_knob_write(s->knob[i].path, s->knob[i].val) < 0) {
			fprintf(stderr, "%s: cannot restore %s to %s: %s\n",
			    PROG, s->knob[i].path, s->knob[i].val, strerror(errno));
			rc = -1;
		} else {
			nknob++;
		}
	}
	if (nknob)
		said(mach, sizeof(mach), &um, "restored %d setting%s", nknob,
		    nknob == 1 ? "" : "s");
	for (i = 0; i < s->nres; i++) {
		int nr;

		if (mark_interrupted(s->results[i], &nr) <= 0)
			continue;
		said(done, sizeof(done), &ud, "marked %s interrupted",
		    s->results[i]);
		if (nr)
			snprintf(done + ud, sizeof(done) - ud, " (and %d "
			    "result%s in it still running)", nr, nr == 1 ?
			    "" : "s");
		ud = strlen(done);
	}
	if (um)
		said(done, sizeof(done), &ud, "%s", mach + 2);
	/* the machine is as it was: the label locks no run holds go */
	for (i = 0; rc == 0 && i < s->nlock; i++)
		if (vb_label_lock_clean(s->locks[i]))
			said(done, sizeof(done), &ud, "removed its lock file "
			    "%s", s->locks[i]);
	for (i = 0; rc == 0 && !s->nlock && i < s->nres; i++)
		if (clean_lock_of(s->results[i]))
			said(done, sizeof(done), &ud, "removed its lock file");
	if (ud)
		fprintf(stderr, "%s: a run killed earlier (pid %ld)%s: %s\n",
		    PROG, s->pid,
		    um || rc < 0 ? " left the machine changed" : "", done + 2);
	else
		fprintf(stderr, "%s: a run killed earlier (pid %ld) left "
		    "nothing to undo\n", PROG, s->pid);
	return rc;
}

/* "vmrun.<pid>.state": its pid, else 0. */
static long
state_name(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "vmrun.", 6) != 0 || name[6] < '1' ||
	    name[6] > '9')
		return 0;
	pid = strtol(name + 6, &end, 10);
	return strcmp(end, ".state") == 0 ? pid : 0;
}

/*
 * Recover the state files in @dir: the count cleaned, with *@bad set
 * when something could not be undone.
 */
static int
recover_dir(const char *dir, int machine, int *bad)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d) {
		if (errno != ENOENT)
			*bad = 1;
		return 0;
	}
	while ((e = readdir(d))) {
		char path[4400], why[4500];
		struct saved s;
		long pid = state_name(e->d_name);
		FILE *f;

		if (!pid)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!(f = open_trusted(path, STATE_MAX, why, sizeof(why)))) {
			if (errno != ENOENT)
				fprintf(stderr, "%s: ignored %s: %s\n", PROG,
				    path, why);
			continue;
		}
		if (parse_state(f, &s, why, sizeof(why)) < 0)
			s.pid = -1;
		else if (s.pid != pid) {
			snprintf(why, sizeof(why), "pid %ld in a file named "
			    "for pid %ld", s.pid, pid);
			s.pid = -1;
		}
		if (s.pid != pid) {
			fclose(f);
			fprintf(stderr, "%s: ignored %s: %s\n", PROG, path, why);
			saved_free(&s);
			continue;
		}
		fclose(f);
		/* alive, and the same process (not a reused pid): leave it */
		if (pid == (long)getpid() || vb_pid_alive(pid, s.start) ||
		    (kill((pid_t)pid, 0) < 0 && errno == EPERM)) {
			saved_free(&s);
			continue;
		}
		if (check_saved(&s, why, sizeof(why)) < 0) {
			fprintf(stderr, "%s: %s: %s; nothing undone, the "
			    "file is kept (remove it once the machine is "
			    "back as it was)\n", PROG, path, why);
			*bad = 1;
		} else if (!machine && (s.nknob || s.cgroup[0] ||
		    s.swapfile[0])) {
			fprintf(stderr, "%s: %s is left for later: another "
			    "run is changing the machine now\n", PROG, path);
		} else if (undo(path, &s) < 0) {
			*bad = 1;
			n++;
		} else {
			unlink(path);
			n++;
		}
		saved_free(&s);
	}
	closedir(d);
	return n;
}

int
vb_state_recover(const char *dir, const char *workdir, const char *results,
    int machine)
{
	DIR *d;
	struct dirent *e;
	int n, bad = 0, nwork = 0, nlock = 0;

	n = recover_dir(dir, machine, &bad);
	/* older versions kept their state files in the work folder */
	if (workdir && strcmp(workdir, dir) != 0)
		n += recover_dir(workdir, machine, &bad);
	if (workdir && (d = opendir(workdir))) {
		while ((e = readdir(d))) {
			char path[4400];

			if (!dead_workdir(workdir, e->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s", workdir,
			    e->d_name);
			if (vb_rmtree(path) == 0)
				nwork++;
		}
		closedir(d);
	}
	if (results)
		nlock += clean_locks(results);
	if (nwork)
		fprintf(stderr, "%s: removed %d work folder%s left by "
		    "killed benchmarks in %s\n", PROG, nwork, nwork == 1 ? "" : "s",
		    workdir);
	if (nlock)
		fprintf(stderr, "%s: removed %d lock file%s left by killed "
		    "runs%s%s\n", PROG, nlock, nlock == 1 ? "" : "s", results ?
		    " in " : "", results ? results : "");
	return bad ? -1 : n + (nwork > 0) + (nlock > 0);
}

char *
vb_state_others(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t used = 0;

	buf[0] = '\0';
	if (!d)
		return buf;
	while ((e = readdir(d)) && used + 1 < len) {
		char path[4400], why[256];
		long pid = state_name(e->d_name);
		struct saved s;
		FILE *f;
		int w;

		if (!pid || pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!(f = open_trusted(path, STATE_MAX, NULL, 0)))
			continue;
		if (parse_state(f, &s, why, sizeof(why)) == 0 &&
		    s.pid == pid && vb_pid_alive(pid, s.start)) {
			w = snprintf(buf + used, len - used, "%spid %ld (%s%s%s)",
			    used ? "; " : "", pid, s.nres ? s.results[0] :
			    "starting", s.nres > 1 ? ", " : "", s.nres > 1 ?
			    s.results[1] : "");
			if (w > 0)
				used += (size_t)w;
		}
		fclose(f);
		saved_free(&s);
	}
	closedir(d);
	if (used >= len)
		buf[len - 1] = '\0';
	return buf;
}
