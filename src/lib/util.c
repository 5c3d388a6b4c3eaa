/*
 * util.c - small helpers every program shares: allocation that cannot
 * fail, growing buffers, escaping, files made safely (see util.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "safedir.h"
#include "util.h"

void *
vb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *
vb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *
vb_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *
vb_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

char *
vb_xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die("out of memory");
	return p;
}

void
vb_buf_printf(struct vb_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("bad format '%s'", fmt);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = b->cap ? b->cap : 256;
		while (b->len + (size_t)n + 1 > b->cap)
			b->cap *= 2;
		b->s = vb_xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *
vb_buf_str(const struct vb_buf *b)
{
	return b->s ? b->s : "";
}

void
vb_buf_free(struct vb_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

size_t
vb_utf8_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned long cp;
	size_t len, i;

	if (n == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (n < len)
		return 0;
	cp = p[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * The next piece of @s shown safely (see vb_esc()) into @out (one UTF-8
 * character, or at most two bytes escaped as \xNN); returns the bytes
 * of @s it stands for.
 */
static size_t
esc_next(char out[17], const char *s, size_t n, int keep_nl)
{
	unsigned char c = (unsigned char)s[0];
	size_t u, i;

	if (c == '\n' && keep_nl) {
		snprintf(out, 17, "\n");
		return 1;
	}
	if (c == '\n' || c == '\r' || c == '\t') {
		snprintf(out, 17, "\\%c", c == '\n' ? 'n' : c == '\r' ?
		    'r' : 't');
		return 1;
	}
	if (c < 0x20 || c == 0x7f) {
		snprintf(out, 17, "\\x%02x", c);
		return 1;
	}
	u = vb_utf8_len(s, n);
	if (u == 1 || (u > 1 && !(c == 0xc2 &&
	    (unsigned char)s[1] < 0xa0))) {
		memcpy(out, s, u);
		out[u] = '\0';
		return u;
	}
	/* not UTF-8 (one byte), or a C1 control (two) */
	u = u ? u : 1;
	for (i = 0; i < u; i++)
		snprintf(out + 4 * i, 5, "\\x%02x", (unsigned char)s[i]);
	return u;
}

char *
vb_esc(char *buf, size_t len, const char *s, int keep_nl)
{
	size_t n = strlen(s), used = 0, k, w;
	char piece[17];

	buf[0] = '\0';
	while (n > 0) {
		k = esc_next(piece, s, n, keep_nl);
		w = strlen(piece);
		if (used + w >= len)
			break;
		memcpy(buf + used, piece, w + 1);
		used += w;
		s += k;
		n -= k;
	}
	return buf;
}

void
vb_fput_esc(FILE *f, const char *s, size_t n, int keep_nl)
{
	char piece[17];
	size_t k;

	while (n > 0) {
		/* runs of plain ASCII go out as they are */
		for (k = 0; k < n && (unsigned char)s[k] >= 0x20 &&
		    (unsigned char)s[k] < 0x7f; k++)
			;
		if (k) {
			fwrite(s, 1, k, f);
			s += k;
			n -= k;
			continue;
		}
		k = esc_next(piece, s, n, keep_nl);
		fputs(piece, f);
		s += k;
		n -= k;
	}
}

int
vb_rmtree(const char *path)
{
	char buf[PATH_MAX], *slash;
	const char *name, *parent;
	size_t n;
	int dfd, rc, e;

	/* the parent resolved once; below it, only descriptors (safedir.c) */
	if ((n = strlen(path)) >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n + 1);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	if (!(slash = strrchr(buf, '/'))) {
		name = buf;
		parent = ".";
	} else {
		name = slash + 1;
		*slash = '\0';
		parent = slash == buf ? "/" : buf;
	}
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
		errno = EINVAL;
		return -1;
	}
	if ((dfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -1;
	rc = vb_rmtree_at(dfd, name);
	e = errno;
	close(dfd);
	errno = e;
	return rc;
}

int
vb_create(const char *path, int flags, mode_t mode)
{
	int fd, i;

	flags = (flags & ~O_TRUNC) | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	/* a name someone makes again between unlink and open: a few tries */
	for (i = 0; i < 8; i++) {
		if ((fd = open(path, flags, mode)) >= 0 || errno != EEXIST)
			return fd;
		if (unlink(path) < 0 && errno != ENOENT)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

int
vb_open_own(const char *path, int flags, mode_t mode)
{
	struct stat st;
	int fd, i, fl;

	flags &= ~(O_CREAT | O_EXCL);
	for (i = 0; i < 8; i++) {
		fd = open(path, (flags & ~O_TRUNC) | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
		/* O_NONBLOCK: a FIFO planted there must not hang us */
		fd = open(path, (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue;
		if (fd < 0)
			return -1;
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid() || st.st_nlink != 1 ||
		    (fl = fcntl(fd, F_GETFL)) < 0 ||
		    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ||
		    ((flags & O_TRUNC) && ftruncate(fd, 0) < 0)) {
			close(fd);
			errno = EPERM;
			return -1;
		}
		return fd;
	}
	errno = EEXIST;
	return -1;
}

int
vb_own_dir(const char *path, mode_t mode, char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(path, mode) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create folder %s: %s", path,
		    strerror(errno));
		return -1;
	}
	if (lstat(path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode))
		snprintf(err, errlen, "%s: a symlink, not a folder", path);
	else if (!S_ISDIR(st.st_mode))
		snprintf(err, errlen, "%s: not a folder", path);
	else if (st.st_uid != geteuid())
		snprintf(err, errlen, "%s: owned by uid %lu, not by this user "
		    "(uid %lu)", path, (unsigned long)st.st_uid,
		    (unsigned long)geteuid());
	else if (st.st_mode & 022)
		snprintf(err, errlen, "%s: writable by others (mode %04o)",
		    path, (unsigned)(st.st_mode & 07777));
	else
		return 0;
	return -1;
}

ssize_t
vb_read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, len - 1);
	e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return -1;
	}
	buf[n] = '\0';
	return n;
}

int
vb_read_setting(const char *path, char *val, size_t len)
{
	char buf[4096], *lb, *rb;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	lb = strchr(buf, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (lb && rb) {
		*rb = '\0';
		snprintf(val, len, "%s", lb + 1);
	} else {
		snprintf(val, len, "%s", buf);
	}
	return 0;
}

int
vb_grep_file(const char *path, const char *needle, int flags, char *buf,
    size_t len)
{
	char line[1024], err[64], *p;
	FILE *f = vb_fopen_read(path, VB_MAX_SERIES, err, sizeof(err));
	int found = 0;
	size_t n;

	if (!f)
		return 0;
	while ((!found || (flags & VB_GREP_LAST)) && fgets(line, sizeof(line),
	    f)) {
		n = strcspn(line, "\n");
		if (n > 0 && line[n - 1] == '\r')
			n--;
		line[n] = '\0';
		if (!needle)
			p = line[0] ? line : NULL;
		else if (flags & VB_GREP_START)
			p = strncmp(line, needle, strlen(needle)) ? NULL : line;
		else
			p = strstr(line, needle);
		if (p) {
			snprintf(buf, len, "%s", p);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

int
vb_last_line(const char *path, char *buf, size_t len)
{
	return vb_grep_file(path, NULL, VB_GREP_LAST, buf, len);
}

int
vb_dir_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n == 0;
}

void
vb_read_lines(int fd, size_t cap, const volatile sig_atomic_t *stop,
    void (*fn)(void *arg, char *line), void *arg)
{
	char *buf = vb_xmalloc(cap), *p, *nl;
	size_t len = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR) {
			if (stop && *stop)
				break;
			continue;
		}
		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = '\0';
		p = buf;
		while ((nl = strchr(p, '\n'))) {
			*nl = '\0';
			fn(arg, p);
			p = nl + 1;
		}
		len -= (size_t)(p - buf);
		memmove(buf, p, len);
		if (len == cap - 1)
			len = 0;	/* a line too long to be one */
	}
	free(buf);
}

int
vb_path_check(const char *what, const char *path, char *err, size_t errlen)
{
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(err, errlen, "%s '%.200s': a control character "
			    "in a path", what, path);
			return -1;
		}
	if (strlen(path) >= PATH_MAX - 256) {
		snprintf(err, errlen, "%s '%.60s...': path too long (%zu "
		    "bytes)", what, path, strlen(path));
		return -1;
	}
	return 0;
}

const char *
vb_workdir_name(const char *given)
{
	const char *w = given;

	if (!w || !*w)
		w = getenv("VMBENCH_WORKDIR");
	return w && *w ? w : "work";
}

int
vb_workdir_find(const char *name, int make, char *out, int *made_failed)
{
	*made_failed = 0;
	if (make && mkdir(name, 0755) < 0 && errno != EEXIST) {
		*made_failed = 1;
		return -1;
	}
	if (!realpath(name, out))
		return !make && errno == ENOENT ? 1 : -1;
	return 0;
}

int
vb_put_at(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX + NAME_MAX + 2];
	size_t n = strlen(val);
	ssize_t w;
	int fd, e;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	w = n ? write(fd, val, n) : 0;
	e = errno;
	if (close(fd) < 0 && w == (ssize_t)n)
		return -1;
	errno = e;
	return w == (ssize_t)n ? 0 : -1;
}

int
vb_exists_at(const char *dir, const char *file)
{
	char path[PATH_MAX + NAME_MAX + 2];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    sizeof(path))
		return 0;
	return access(path, F_OK) == 0;
}
