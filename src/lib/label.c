/*
 * label.c - a result label's name rule and its lock (see label.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "label.h"
#include "util.h"

int
vb_label_ok(const char *s)
{
	const char *p;

	if (!*s || *s == '.' || strlen(s) > VB_LABEL_MAX)
		return 0;
	for (p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"
		    "YZ0123456789._+-~", *p))
			return 0;
	return 1;
}

int
vb_label_lock(struct vb_label_lock *l, const char *results,
    const char *label, char *err, size_t errlen)
{
	char buf[32];
	struct stat a, b;
	ssize_t n;
	int fd, w;

	l->fd = -1;
	w = snprintf(l->path, sizeof(l->path), "%s/.%s.lock", results, label);
	if (w < 0 || (size_t)w >= sizeof(l->path)) {
		snprintf(err, errlen, "%.200s/.%.140s.lock: path too long",
		    results, label);
		l->path[0] = '\0';
		return -1;
	}
	for (;;) {
		fd = vb_open_own(l->path, O_RDWR, 0644);
		if (fd < 0 && (errno == ELOOP || errno == EPERM)) {
			snprintf(err, errlen, "%s: not a lock file of this "
			    "user (%s): remove it", l->path, errno == ELOOP ?
			    "a symlink" : "another user's, or not a plain "
			    "file");
			break;
		}
		if (fd < 0) {
			snprintf(err, errlen, "cannot create %s: %s", l->path,
			    strerror(errno));
			break;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno != EWOULDBLOCK) {
				snprintf(err, errlen, "cannot lock %s: %s",
				    l->path, strerror(errno));
				close(fd);
				break;
			}
			n = pread(fd, buf, sizeof(buf) - 1, 0);
			buf[n > 0 ? n : 0] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(err, errlen, "%s/%s is in use by another run "
			    "(pid %s)", results, label, buf[0] ? buf :
			    "unknown");
			close(fd);
			break;
		}
		/* still the file of that name: not removed meanwhile */
		if (fstat(fd, &a) == 0 && lstat(l->path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			l->fd = fd;
			n = snprintf(buf, sizeof(buf), "%ld\n",
			    (long)getpid());
			if (ftruncate(fd, 0) == 0 &&
			    pwrite(fd, buf, (size_t)n, 0) != n)
				(void)ftruncate(fd, 0);
			return 0;
		}
		close(fd);
	}
	/* not ours: never removed by our unlock */
	l->path[0] = '\0';
	return -1;
}

void
vb_label_unlock(struct vb_label_lock *l)
{
	if (!l->path[0] || l->fd < 0)
		return;
	unlink(l->path);
	close(l->fd);
	l->fd = -1;
	l->path[0] = '\0';
}

/* Is the last name of @path ".LABEL.lock" of a good label? */
static int
lock_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char label[VB_LABEL_MAX + 1];
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (base[0] != '.' || n < 7 || n - 6 > VB_LABEL_MAX ||
	    strcmp(base + n - 5, ".lock") != 0)
		return 0;
	memcpy(label, base + 1, n - 6);
	label[n - 6] = '\0';
	return vb_label_ok(label);
}

int
vb_label_lock_clean(const char *path)
{
	struct stat a, b;
	int fd, rc = 0;

	if (!lock_name(path))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &a) == 0 && S_ISREG(a.st_mode) &&
	    a.st_uid == geteuid() && a.st_nlink == 1 &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0 && lstat(path, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
	    unlink(path) == 0)
		rc = 1;
	close(fd);
	return rc;
}
