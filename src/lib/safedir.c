/*
 * safedir.c - folders opened once and checked, files made relative to
 * them, trees removed through descriptors, bounded reads (safedir.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "safedir.h"
#include "util.h"

/* A path's symlinks followed at most this often, as the kernel's 40. */
#define MAX_LINKS	40
/* Folders below a removed one, at most (each holds a descriptor). */
#define MAX_DEPTH	128

/*
 * May @uid own a folder on the way to ours?  Root, this user, and the
 * user who ran sudo (who can run anything as root already).
 */
static int
trusted_owner(uid_t uid)
{
	const char *s = getenv("SUDO_UID");
	char *end;
	unsigned long u;

	if (uid == 0 || uid == geteuid())
		return 1;
	if (geteuid() != 0 || !s || !*s)
		return 0;
	errno = 0;
	u = strtoul(s, &end, 10);
	return !errno && !*end && u == (unsigned long)uid;
}

/*
 * Check the folder @st (@shown) on the way (@last 0) or at the end
 * (@last 1; @sticky: writable by others when sticky, the parent of a
 * temporary folder).  0, or -1 with the refusal in @err.
 */
static int
check_st(const struct stat *st, const char *shown, int last, int sticky,
    char *err, size_t errlen)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);
	int open_to_others = (st->st_mode & 022) != 0;

	if (!S_ISDIR(st->st_mode)) {
		snprintf(err, errlen, "refusing folder %s: not a folder", shown);
		return -1;
	}
	if (last && !sticky && st->st_uid != geteuid()) {
		snprintf(err, errlen, "refusing folder %s: owned by uid %lu, "
		    "not by uid %lu (mode %04o)", shown,
		    (unsigned long)st->st_uid, (unsigned long)geteuid(), mode);
		return -1;
	}
	if ((!last || sticky) && !trusted_owner(st->st_uid)) {
		snprintf(err, errlen, "refusing folder %s: owned by uid %lu, "
		    "not by root or uid %lu (mode %04o)", shown,
		    (unsigned long)st->st_uid, (unsigned long)geteuid(), mode);
		return -1;
	}
	if (open_to_others && ((last && !sticky) || !(st->st_mode & S_ISVTX))) {
		snprintf(err, errlen, "refusing folder %s: writable by others "
		    "(mode %04o, owner uid %lu)", shown, mode,
		    (unsigned long)st->st_uid);
		return -1;
	}
	return 0;
}

/* Append "/@comp" to @shown (cut, never overrun: it is for messages). */
static void
shown_add(char *shown, size_t len, const char *comp, size_t n)
{
	size_t used = strlen(shown);

	if (used == 1 && shown[0] == '/')
		used = 0;
	snprintf(shown + used, len - used, "/%.*s", (int)n, comp);
}

/*
 * Walk @path (made absolute from the working folder) from /, a
 * component at a time: see vb_dir_open().  @rest holds what is left to
 * walk; a symlink's target is put in front of it.
 */
static int
walk(const char *path, int make, int sticky, char *err, size_t errlen)
{
	char *rest, *comp, *after, shown[PATH_MAX], target[PATH_MAX], cwd[PATH_MAX];
	size_t n, restlen;
	struct stat st;
	int cur, fd, links = 0, e;

	if (!*path) {
		snprintf(err, errlen, "an empty folder name");
		return -1;
	}
	if (*path != '/' && !getcwd(cwd, sizeof(cwd))) {
		snprintf(err, errlen, "%s: cannot find the working folder: %s",
		    path, strerror(errno));
		return -1;
	}
	restlen = strlen(path) + (*path != '/' ? strlen(cwd) + 2 : 1);
	rest = vb_xmalloc(restlen);
	snprintf(rest, restlen, "%s%s%s", *path != '/' ? cwd : "",
	    *path != '/' ? "/" : "", path);
	snprintf(shown, sizeof(shown), "/");
	if ((cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    fstat(cur, &st) < 0)
		goto fail_errno;
	comp = rest;
	for (;;) {
		while (*comp == '/')
			comp++;
		n = strcspn(comp, "/");
		after = comp + n + (comp[n] != '\0');
		if (n == 0 || (n == 1 && comp[0] == '.')) {
			if (n == 0) {
				/* the end: check the folder reached */
				if (check_st(&st, shown, 1, sticky, err,
				    errlen) < 0)
					goto fail;
				break;
			}
			comp += n;
			continue;
		}
		if (check_st(&st, shown, 0, 0, err, errlen) < 0)
			goto fail;
		comp[n] = '\0';
		if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT || !make || !strcmp(comp, "..") ||
			    (mkdirat(cur, comp, 0755) < 0 && errno != EEXIST) ||
			    fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				shown_add(shown, sizeof(shown), comp, n);
				goto fail_errno;
			}
		}
		shown_add(shown, sizeof(shown), comp, n);
		if (S_ISLNK(st.st_mode)) {
			ssize_t t;
			char *next;

			if (!trusted_owner(st.st_uid)) {
				snprintf(err, errlen, "refusing folder %s: a "
				    "symlink owned by uid %lu", shown,
				    (unsigned long)st.st_uid);
				goto fail;
			}
			if (++links > MAX_LINKS) {
				errno = ELOOP;
				goto fail_errno;
			}
			t = readlinkat(cur, comp, target, sizeof(target) - 1);
			if (t < 0)
				goto fail_errno;
			target[t] = '\0';
			/* the target, then what was left after the link */
			restlen = (size_t)t + strlen(after) + 2;
			next = vb_xmalloc(restlen);
			snprintf(next, restlen, "%s/%s", target, after);
			free(rest);
			rest = comp = next;
			if (*target == '/') {
				close(cur);
				snprintf(shown, sizeof(shown), "/");
				if ((cur = open("/", O_PATH | O_DIRECTORY |
				    O_CLOEXEC)) < 0 || fstat(cur, &st) < 0)
					goto fail_errno;
			} else {
				/* back to the folder that holds the link */
				char *sl = strrchr(shown, '/');

				if (sl && sl != shown)
					*sl = '\0';
				else
					shown[1] = '\0';
				if (fstat(cur, &st) < 0)
					goto fail_errno;
			}
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: exists and is not a folder",
			    shown);
			goto fail;
		}
		fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			if (fd >= 0)
				close(fd);
			if (errno == ELOOP) {
				snprintf(err, errlen, "refusing folder %s: it "
				    "became a symlink while checked", shown);
				goto fail;
			}
			goto fail_errno;
		}
		close(cur);
		cur = fd;
		comp = after;
	}
	free(rest);
	/* the folder itself, readable, for fdopendir() and openat() */
	fd = openat(cur, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	e = errno;
	close(cur);
	if (fd < 0)
		snprintf(err, errlen, "cannot open folder %s: %s", shown,
		    strerror(e));
	return fd;
fail_errno:
	e = errno;
	snprintf(err, errlen, "cannot open folder %s: %s", shown, strerror(e));
fail:
	free(rest);
	if (cur >= 0)
		close(cur);
	return -1;
}

int
vb_dir_open(const char *path, int make, char *err, size_t errlen)
{
	return walk(path, make, 0, err, errlen);
}

int
vb_dir_open_parent(const char *path, char *err, size_t errlen)
{
	return walk(path, 0, 1, err, errlen);
}

int
vb_dir_check_fd(int fd, const char *shown, char *err, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", shown, strerror(errno));
		return -1;
	}
	return check_st(&st, shown, 1, 0, err, errlen);
}

int
vb_dir_sub(int dfd, const char *name, const char *shown, int make,
    char *err, size_t errlen)
{
	int fd, e;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && make) {
		if (mkdirat(dfd, name, 0755) < 0 && errno != EEXIST)
			goto fail;
		fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	}
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR) {
			struct stat st;

			if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				snprintf(err, errlen, "refusing folder %s: a "
				    "symlink (owner uid %lu)", shown,
				    (unsigned long)st.st_uid);
			else
				snprintf(err, errlen, "refusing folder %s: "
				    "not a folder", shown);
			return -1;
		}
		goto fail;
	}
	if (vb_dir_check_fd(fd, shown, err, errlen) < 0) {
		close(fd);
		return -1;
	}
	return fd;
fail:
	e = errno;
	snprintf(err, errlen, "cannot open folder %s: %s", shown, strerror(e));
	errno = e;
	return -1;
}

int
vb_create_at(int dfd, const char *name, int flags, mode_t mode)
{
	int fd, i;

	flags = (flags & ~O_TRUNC) | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	/* a name someone makes again between unlink and open: a few tries */
	for (i = 0; i < 8; i++) {
		if ((fd = openat(dfd, name, flags, mode)) >= 0 ||
		    errno != EEXIST)
			return fd;
		if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

FILE *
vb_wfile_open(struct vb_wfile *w, int dfd, const char *name, mode_t mode)
{
	static unsigned seq;
	struct timespec ts;
	int fd = -1, i;

	w->dfd = dfd;
	w->f = NULL;
	if (snprintf(w->name, sizeof(w->name), "%s", name) >=
	    (int)sizeof(w->name)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	for (i = 0; i < 16 && fd < 0; i++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(w->tmp, sizeof(w->tmp), ".%s.%06lx", name,
		    ((unsigned long)ts.tv_nsec ^ (unsigned long)getpid() << 8 ^
		    ++seq) & 0xffffff);
		fd = openat(dfd, w->tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST)
			return NULL;
	}
	if (fd < 0)
		return NULL;
	if (!(w->f = fdopen(fd, "w"))) {
		close(fd);
		unlinkat(dfd, w->tmp, 0);
	}
	return w->f;
}

int
vb_wfile_commit(struct vb_wfile *w)
{
	int bad = ferror(w->f), e;

	if (fclose(w->f) != 0 || bad ||
	    renameat(w->dfd, w->tmp, w->dfd, w->name) < 0) {
		e = errno ? errno : EIO;
		unlinkat(w->dfd, w->tmp, 0);
		w->f = NULL;
		errno = e;
		return -1;
	}
	w->f = NULL;
	return 0;
}

void
vb_wfile_abort(struct vb_wfile *w)
{
	if (w->f)
		fclose(w->f);
	w->f = NULL;
	unlinkat(w->dfd, w->tmp, 0);
}

/* The names in folder @fd but . and .. (NULL-terminated), or NULL. */
static char **
dir_names(int fd, int *n)
{
	char **names = NULL;
	struct dirent *de;
	DIR *d;
	size_t cap = 0;
	int dup_fd = dup(fd);

	*n = 0;
	if (dup_fd < 0)
		return NULL;
	if (!(d = fdopendir(dup_fd))) {
		close(dup_fd);
		return NULL;
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		/* doubled: a folder of 20,000 files is not 20,000 reallocs */
		if ((size_t)*n + 2 > cap) {
			cap = cap ? 2 * cap : 64;
			names = vb_xrealloc(names, cap * sizeof(*names));
		}
		names[(*n)++] = vb_xstrdup(de->d_name);
		names[*n] = NULL;
	}
	closedir(d);
	if (!names)
		names = vb_xcalloc(1, sizeof(*names));
	return names;
}

/* vb_rmtree_at() at @depth; @first keeps the first failure's errno. */
static void
rm_at(int dfd, const char *name, int depth, int *first)
{
	struct stat st;
	char **names;
	int fd, n, i, pass;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT && !*first)
			*first = errno;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT && !*first)
			*first = errno;
		return;
	}
	if (depth >= MAX_DEPTH) {
		if (!*first)
			*first = ELOOP;
		return;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0) {
		/* made a symlink (or a file) since: remove the name only */
		if ((errno == ELOOP || errno == ENOTDIR) &&
		    unlinkat(dfd, name, 0) == 0)
			return;
		if (errno != ENOENT && !*first)
			*first = errno;
		return;
	}
	/* entries added while we remove: a few passes */
	for (pass = 0; pass < 4; pass++) {
		if (!(names = dir_names(fd, &n))) {
			if (!*first)
				*first = errno;
			break;
		}
		for (i = 0; i < n; i++) {
			rm_at(fd, names[i], depth + 1, first);
			free(names[i]);
		}
		free(names);
		if (n == 0)
			break;
	}
	close(fd);
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0) {
		/* a symlink put in its place meanwhile: that name goes */
		if (errno == ENOTDIR && unlinkat(dfd, name, 0) == 0)
			return;
		if (errno != ENOENT && !*first)
			*first = errno;
	}
}

int
vb_rmtree_at(int dfd, const char *name)
{
	int first = 0;

	rm_at(dfd, name, 0, &first);
	errno = first;
	return first ? -1 : 0;
}

int
vb_open_read_at(int dfd, const char *name, const char *shown, size_t max,
    char *err, size_t errlen)
{
	struct stat st;
	int fd, fl, e;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP)
			snprintf(err, errlen, "%s: a symlink: not read", shown);
		else
			snprintf(err, errlen, "%s: cannot open: %s", shown,
			    strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		snprintf(err, errlen, "cannot read %s: %s", shown,
		    strerror(e));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		e = EINVAL;
		snprintf(err, errlen, "%s: not a regular file (%s): not read",
		    shown, S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode)
		    ? "a folder" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ?
		    "a device" : "a special file");
		goto fail;
	}
	if ((uintmax_t)st.st_size > max) {
		e = EFBIG;
		snprintf(err, errlen, "%s: %jd bytes, more than the %zu a file "
		    "of its kind may hold: not read", shown,
		    (intmax_t)st.st_size, max);
		goto fail;
	}
	if ((fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		e = errno;
		snprintf(err, errlen, "cannot read %s: %s", shown,
		    strerror(e));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	errno = e;
	return -1;
}

FILE *
vb_fopen_read(const char *path, size_t max, char *err, size_t errlen)
{
	int fd = vb_open_read_at(AT_FDCWD, path, path, max, err, errlen);
	FILE *f;
	int e;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "r"))) {
		e = errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		close(fd);
		errno = e;
	}
	return f;
}
