/*
 * mlock.c - the machine-wide lock and its record, /run/vmbench/lock and
 * /run/vmbench/machine: one run at a time changes the machine (see
 * state.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state.h"
#include "util.h"

/* <$VMBENCH_SYSROOT>/run/vmbench into @dir. */
char *
vb_machine_dir(char *dir, size_t len)
{
	const char *root = getenv("VMBENCH_SYSROOT");

	snprintf(dir, len, "%s/run/vmbench", root && *root ? root : "");
	return dir;
}

/*
 * Write the machine record @dir/machine: @gen, the holder @pid (0: none)
 * and @what.  0 or -1 (errno).
 */
static int
write_record(const char *dir, unsigned long long gen, long pid,
    const char *what)
{
	char path[4200], tmp[4300];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/machine", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((fd = vb_create(tmp, O_WRONLY, 0644)) < 0)
		return -1;
	/* readable by every user's runs, whatever the umask */
	if (fchmod(fd, 0644) < 0 || !(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	fprintf(f, "vmbench-machine 1\ngen %llu\npid %ld\nstart %llu\nwhat ",
	    gen, pid, pid ? vb_pid_start(pid) : 0);
	vb_put_esc(f, what);
	putc('\n', f);
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int
vb_machine_peek(const char *dir, struct vb_machine *m)
{
	char path[4200], line[4096];
	unsigned long long start = 0;
	struct stat st;
	FILE *f;
	int fd;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	snprintf(m->dir, sizeof(m->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/machine", dir);
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) < 0)
		return -1;
	/* root's (or this user's), written by no one else */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (st.st_uid != 0 &&
	    st.st_uid != geteuid()) || (st.st_mode & 022) ||
	    !(f = fdopen(fd, "r"))) {
		close(fd);
		return -1;
	}
	if (!fgets(line, sizeof(line), f) ||
	    strcmp(line, "vmbench-machine 1\n") != 0) {
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "gen ", 4) == 0)
			m->gen = strtoull(line + 4, NULL, 10);
		else if (strncmp(line, "pid ", 4) == 0)
			m->pid = strtol(line + 4, NULL, 10);
		else if (strncmp(line, "start ", 6) == 0)
			start = strtoull(line + 6, NULL, 10);
		else if (strncmp(line, "what ", 5) == 0) {
			vb_unesc(line + 5);
			snprintf(m->what, sizeof(m->what), "%.*s",
			    (int)sizeof(m->what) - 1, line + 5);
		}
	}
	fclose(f);
	if (!vb_pid_alive(m->pid, start))
		m->pid = 0;
	return 0;
}

int
vb_machine_lock(struct vb_machine *m, const char *dir, const char *what,
    int wait, volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct vb_machine cur;
	char path[4200];
	int fd;

	m->fd = -1;
	snprintf(m->dir, sizeof(m->dir), "%s", dir);
	if (vb_own_dir(dir, 0755, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/lock", dir);
	if ((fd = vb_open_own(path, O_RDWR, 0600)) < 0) {
		snprintf(err, errlen, "cannot open the machine lock %s: %s",
		    path, errno == EPERM ? "not a plain file of this user" :
		    strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK) {
			snprintf(err, errlen, "cannot lock %s: %s", path,
			    strerror(errno));
			close(fd);
			return -1;
		}
		if (!wait) {
			close(fd);
			return 1;
		}
		if (vb_machine_peek(dir, &cur) == 0 && cur.pid)
			fprintf(stderr, "vmrun: waiting for pid %ld, which is "
			    "changing this machine (%s)\n", cur.pid, cur.what);
		else
			fprintf(stderr, "vmrun: waiting for another run that "
			    "holds %s\n", path);
		while (flock(fd, LOCK_EX) < 0) {
			if (errno != EINTR || (stop && *stop)) {
				int e = errno;

				snprintf(err, errlen, "cannot lock %s: %s",
				    path, strerror(e));
				close(fd);
				errno = e;
				return -1;
			}
		}
	}
	m->fd = fd;
	m->gen = 0;
	if (!what)
		return 0;
	/* held: the record says who, and counts one run more */
	if (vb_machine_peek(dir, &cur) < 0)
		cur.gen = 0;
	m->gen = cur.gen + 1;
	m->pid = (long)getpid();
	snprintf(m->what, sizeof(m->what), "%s", what);
	if (write_record(dir, m->gen, m->pid, what) < 0) {
		snprintf(err, errlen, "cannot write %s/machine: %s", dir,
		    strerror(errno));
		vb_machine_unlock(m);
		return -1;
	}
	return 0;
}

void
vb_machine_unlock(struct vb_machine *m)
{
	if (m->fd < 0)
		return;
	/* the last holder's what stays: a run beside it names it */
	if (m->gen)
		write_record(m->dir, m->gen, 0, m->what);
	close(m->fd);
	m->fd = -1;
	m->pid = 0;
}
