/*
 * replay.c - execute loadfile operations (see replay.h
 * for the mapping to system calls) and account for them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "replay.h"

int
fl_client_init(struct fl_client *c, const struct fl_load *l, int id,
    const char *dir, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->load = l;
	c->id = id;
	c->maxwarn = 5;
	c->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->dirfd < 0) {
		snprintf(err, errlen, "client %d: cannot open %s: %s", id, dir,
		    strerror(errno));
		return -1;
	}
	c->bufsize = l->max_io > 4096 ? l->max_io : 4096;
	c->buf = malloc(c->bufsize);
	c->wbuf = malloc(c->bufsize);
	if (!c->buf || !c->wbuf) {
		free(c->buf);
		free(c->wbuf);
		close(c->dirfd);
		snprintf(err, errlen, "client %d: out of memory", id);
		return -1;
	}
	/* what WriteX writes: not zeros, so nothing can special-case it */
	memset(c->buf, 0x5a, c->bufsize);
	return 0;
}

void
fl_client_fini(struct fl_client *c)
{
	size_t i;

	for (i = 0; i < c->nfh; i++)
		close(c->fh[i].fd);
	if (c->dirfd >= 0)
		close(c->dirfd);
	free(c->fh);
	free(c->buf);
	free(c->wbuf);
	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
}

/* The file open on @fd, for messages ("?" when unknown). */
static void
fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	if (n <= 0)
		snprintf(buf, len, "?");
	else
		buf[n] = '\0';
}

/* Index of @handle in the table, or -1. */
static long
fh_find(const struct fl_client *c, int64_t handle)
{
	size_t i;

	for (i = c->nfh; i-- > 0; )
		if (c->fh[i].handle == handle)
			return (long)i;
	return -1;
}

static int
fh_fd(const struct fl_client *c, int64_t handle)
{
	long i = fh_find(c, handle);

	return i < 0 ? -1 : c->fh[i].fd;
}

static int
fh_add(struct fl_client *c, int64_t handle, int fd, uint32_t path)
{
	long i = fh_find(c, handle);

	if (i >= 0) {		/* reused without a Close: drop the old */
		close(c->fh[i].fd);
		c->fh[i].fd = fd;
		c->fh[i].path = path;
		return 0;
	}
	if (c->nfh == c->capfh) {
		size_t cap = c->capfh ? c->capfh * 2 : 64;
		struct fl_fh *n = realloc(c->fh, cap * sizeof(*n));

		if (!n)
			return -1;
		c->fh = n;
		c->capfh = cap;
	}
	c->fh[c->nfh].handle = handle;
	c->fh[c->nfh].fd = fd;
	c->fh[c->nfh].path = path;
	c->nfh++;
	return 0;
}

static void
fh_del(struct fl_client *c, long i)
{
	c->fh[i] = c->fh[--c->nfh];
}

/* What getdents64() fills in (struct linux_dirent64). */
struct fl_dirent {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * Read the directory @dir (relative to the client's) as opendir(),
 * readdir() and closedir() read it, with their system calls: openat(),
 * fstat(), getdents64() in 32 KiB until @fn returns non-zero or the
 * directory ends, close().  (fdopendir() on an openat() would add two
 * fcntl() calls a directory, which dbench's opendir() does not make.)
 * @fn(@arg, name) sees every entry but "." and "..".
 */
static void
scan_dir(struct fl_client *c, const char *dir,
    int (*fn)(void *, const char *), void *arg)
{
	static char buf[32768];
	struct stat st;
	ssize_t n, i;
	int fd;

	fd = openat(c->dirfd, dir, O_RDONLY | O_NONBLOCK | O_DIRECTORY |
	    O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return;
	}
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; ) {
			const struct fl_dirent *e =
			    (const struct fl_dirent *)(buf + i);

			i += e->reclen;
			if (strcmp(e->name, ".") == 0 ||
			    strcmp(e->name, "..") == 0)
				continue;
			if (fn(arg, e->name))
				goto done;
		}
	}
done:
	close(fd);
}

/* The parent directory of @path ("." when none) into @dir. */
static const char *
parent_of(char *dir, size_t len, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash)
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, len, ".");
	return slash ? slash + 1 : path;
}

static int
same_name(void *name, const char *entry)
{
	return strcasecmp(name, entry) == 0;
}

/*
 * The directory scan a case-insensitive server does when a name is not
 * found: read @path's parent until an entry matches the name in any
 * case (dbench's resolve_name()).
 */
static void
miss_scan(struct fl_client *c, const char *path)
{
	char dir[4096];
	const char *base = parent_of(dir, sizeof(dir), path);

	scan_dir(c, dir, same_name, (void *)base);
}

/*
 * Name resolution, as a file server does it before it acts on a name:
 * stat it, and when it is not there, scan the parent directory (the
 * case-insensitive lookup).  1 if the name exists.
 */
static int
lookup(struct fl_client *c, const char *path)
{
	struct stat st;

	if (fstatat(c->dirfd, path, &st, 0) == 0)
		return 1;
	if (errno == ENOENT)
		miss_scan(c, path);
	return 0;
}

/* DOS wildcards to fnmatch(): '<' '*', '>' '?', '"' '.'. */
static void
dos_pattern(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = src[i] == '<' ? '*' : src[i] == '>' ? '?' :
		    src[i] == '"' ? '.' : src[i];
	dst[i] = '\0';
}

struct find {
	const char *pat;
	int64_t left;		/* matches still wanted */
	int found;
};

static int
find_one(void *arg, const char *entry)
{
	struct find *f = arg;

	if (fnmatch(f->pat, entry, FNM_CASEFOLD) == 0) {
		f->found = 1;
		f->left--;
	}
	return f->left <= 0;
}

/* FIND_FIRST: 1 when something matches @pattern, 0 when not. */
static int
find_first(struct fl_client *c, const char *pattern, int64_t maxcnt)
{
	char dir[4096], pat[1024];
	const char *base = parent_of(dir, sizeof(dir), pattern);
	struct find f = { pat, maxcnt, 0 };
	struct stat st;

	if (!strpbrk(base, "*?<>\""))
		return fstatat(c->dirfd, pattern, &st, 0) == 0;
	if (maxcnt <= 0)
		return 0;
	dos_pattern(pat, sizeof(pat), base);
	scan_dir(c, dir, find_one, &f);
	return f.found;
}

int
fl_rmtree(int dirfd, const char *path)
{
	struct dirent *e;
	int fd, rc = 0;
	DIR *d;

	if (unlinkat(dirfd, path, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fl_rmtree(fd, e->d_name) < 0)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(dirfd, path, AT_REMOVEDIR) < 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

static int
open_flags(int64_t disposition)
{
	switch (disposition) {
	case 0:			/* supersede */
	case 5:			/* overwrite-if */
		return O_CREAT | O_TRUNC;
	case 2:			/* create */
	case 3:			/* open-if */
		return O_CREAT;
	case 4:			/* overwrite */
		return O_TRUNC;
	default:		/* 1: open */
		return 0;
	}
}

/* NTCreateX; 1 if the open succeeded. */
static int
ntcreatex(struct fl_client *c, const struct fl_op *op, const char *path)
{
	struct stat st;
	int fd;

	lookup(c, path);
	if (op->arg[1] & 0x1) {		/* FILE_DIRECTORY_FILE */
		if (open_flags(op->arg[2]) & O_CREAT)
			mkdirat(c->dirfd, path, 0777);
		fd = openat(c->dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		fd = openat(c->dirfd, path, O_RDWR | O_CLOEXEC |
		    open_flags(op->arg[2]), 0666);
		if (fd < 0 && errno == EISDIR)
			fd = openat(c->dirfd, path, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
	}
	if (fd < 0)
		return 0;
	if (op->status != FL_ST_OK) {
		close(fd);	/* expected to fail: do not keep it */
		return 1;
	}
	if (fh_add(c, op->arg[3], fd, op->path) < 0) {
		close(fd);
		return 0;
	}
	/* what it opened: a file or a directory (dbench's fstat()) */
	return fstat(fd, &st) == 0;
}

static int
lock(int fd, const struct fl_op *op, short type)
{
	struct flock fl = {
		.l_type = type, .l_whence = SEEK_SET,
		.l_start = (off_t)op->arg[1], .l_len = (off_t)op->arg[2],
	};

	return fcntl(fd, F_SETLK, &fl) == 0;
}

int
fl_exec(struct fl_client *c, const struct fl_op *op, char *err,
    size_t errlen)
{
	const char *path = fl_str(c->load, op->path);
	const char *path2 = fl_str(c->load, op->path2);
	struct stat st;
	struct statvfs sv;
	int ok = 0, fd = -1, matched;
	ssize_t n;
	long i;

	switch (op->code) {
	case FL_NTCREATEX:
		ok = ntcreatex(c, op, path);
		break;
	case FL_CLOSE:
		if ((i = fh_find(c, op->arg[0])) >= 0) {
			ok = close(c->fh[i].fd) == 0;
			fh_del(c, i);
		}
		break;
	case FL_RENAME:
		lookup(c, path);
		lookup(c, path2);
		ok = renameat(c->dirfd, path, c->dirfd, path2) == 0;
		break;
	case FL_UNLINK:
		lookup(c, path);
		ok = unlinkat(c->dirfd, path, 0) == 0;
		break;
	case FL_DELTREE:
		ok = fl_rmtree(c->dirfd, path) == 0;
		break;
	case FL_MKDIR:
		lookup(c, path);
		ok = mkdirat(c->dirfd, path, 0777) == 0;
		break;
	case FL_RMDIR:
		lookup(c, path);
		ok = unlinkat(c->dirfd, path, AT_REMOVEDIR) == 0;
		break;
	case FL_QPATHINFO:
		ok = lookup(c, path);
		break;
	case FL_QFILEINFO:
		ok = (fd = fh_fd(c, op->arg[0])) >= 0 && fstat(fd, &st) == 0;
		break;
	case FL_QFSINFO:
		ok = fstatvfs(c->dirfd, &sv) == 0;
		break;
	case FL_SFILEINFO:
		/* dbench: fstat(), then utime() of the file by its name,
		 * its times moved back 10 s (access) and 12 s (change) */
		if ((i = fh_find(c, op->arg[0])) >= 0 &&
		    fstat(c->fh[i].fd, &st) == 0) {
			struct timespec tm[2] = {
				{ st.st_atime - 10, 0 }, { st.st_mtime - 12, 0 },
			};

			ok = utimensat(c->dirfd, fl_str(c->load,
			    c->fh[i].path), tm, 0) == 0;
		}
		break;
	case FL_FINDFIRST:
		lookup(c, path);
		ok = find_first(c, path, op->arg[2]);
		break;
	case FL_WRITEX:
		if ((fd = fh_fd(c, op->arg[0])) < 0)
			break;
		/* the data arrives in the server's buffer first */
		memcpy(c->wbuf, c->buf, (size_t)op->arg[2]);
		n = pwrite(fd, c->wbuf, (size_t)op->arg[2], (off_t)op->arg[1]);
		if (n < 0 || n != (ssize_t)op->arg[2]) {
			char fp[PATH_MAX];
			int e = errno;

			/* a short write: writing the rest says why */
			if (n >= 0) {
				e = pwrite(fd, c->wbuf + n, (size_t)(op->arg[2] -
				    n), (off_t)op->arg[1] + n) < 0 ? errno : EIO;
			}
			fd_path(fd, fp, sizeof(fp));
			if (n < 0)
				snprintf(err, errlen, "client %d: %s:%u: "
				    "WriteX of %lld bytes to %s: %s", c->id,
				    c->load->name, op->lineno,
				    (long long)op->arg[2], fp, strerror(e));
			else
				snprintf(err, errlen, "client %d: %s:%u: "
				    "WriteX to %s: wrote %zd of %lld bytes: %s",
				    c->id, c->load->name, op->lineno, fp, n,
				    (long long)op->arg[2], strerror(e));
			return -1;
		}
		ok = n == (ssize_t)op->arg[3];
		break;
	case FL_READX:
		if ((fd = fh_fd(c, op->arg[0])) < 0)
			break;
		n = pread(fd, c->buf, (size_t)op->arg[2], (off_t)op->arg[1]);
		ok = n == (ssize_t)op->arg[3];
		break;
	case FL_LOCKX:
		ok = (fd = fh_fd(c, op->arg[0])) >= 0 && lock(fd, op, F_WRLCK);
		break;
	case FL_UNLOCKX:
		ok = (fd = fh_fd(c, op->arg[0])) >= 0 && lock(fd, op, F_UNLCK);
		break;
	case FL_FLUSH:
		ok = (fd = fh_fd(c, op->arg[0])) >= 0 && fsync(fd) == 0;
		break;
	}
	matched = ok == (op->status == FL_ST_OK);
	if (!matched && c->warned < c->maxwarn) {
		c->warned++;
		fprintf(stderr, "fileload: client %d: %s:%u: %s %s%s%sexpected "
		    "%s, got %s%s\n", c->id, c->load->name, op->lineno,
		    fl_op_names[op->code], *path ? "'" : "", path,
		    *path ? "' " : "",
		    op->status == FL_ST_OK ? "success" : "failure",
		    ok ? "success" : "failure",
		    c->warned == c->maxwarn ? " (further mismatches counted "
		    "only)" : "");
	}
	return matched;
}

uint64_t
fl_op_bytes(const struct fl_op *op)
{
	if (op->code == FL_READX || op->code == FL_WRITEX)
		return (uint64_t)op->arg[2];
	return 0;
}

void
fl_account(struct fl_stats *s, const struct fl_op *op, uint64_t ns,
    int matched)
{
	struct fl_opstat *o = &s->op[op->code];

	s->bytes += fl_op_bytes(op);
	s->ops++;
	s->mismatches += !matched;
	o->count++;
	o->total_ns += ns;
	if (ns > o->max_ns)
		o->max_ns = ns;
}

void
fl_stats_add(struct fl_stats *sum, const struct fl_stats *s)
{
	int i;

	sum->bytes += s->bytes;
	sum->ops += s->ops;
	sum->mismatches += s->mismatches;
	for (i = 0; i < FL_NOPS; i++) {
		sum->op[i].count += s->op[i].count;
		sum->op[i].total_ns += s->op[i].total_ns;
		if (s->op[i].max_ns > sum->op[i].max_ns)
			sum->op[i].max_ns = s->op[i].max_ns;
	}
}

double
fl_mb_per_s(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes / secs / 1e6 : 0;
}

double
fl_mean_ms(const struct fl_opstat *st)
{
	return st->count ? (double)st->total_ns / (double)st->count / 1e6 : 0;
}
