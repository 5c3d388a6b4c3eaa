/*
 * load.c - the loadfile parser (format in load.h).
 *
 * The whole file is parsed before any client starts, so a malformed
 * line is reported as "file:line: what is wrong" before anything is
 * created, and the clients replay an array instead of re-reading text.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"

const char *const fl_op_names[FL_NOPS] = {
	[FL_NTCREATEX] = "NTCreateX",
	[FL_CLOSE] = "Close",
	[FL_RENAME] = "Rename",
	[FL_UNLINK] = "Unlink",
	[FL_DELTREE] = "Deltree",
	[FL_MKDIR] = "Mkdir",
	[FL_RMDIR] = "Rmdir",
	[FL_QPATHINFO] = "QUERY_PATH_INFORMATION",
	[FL_QFILEINFO] = "QUERY_FILE_INFORMATION",
	[FL_QFSINFO] = "QUERY_FS_INFORMATION",
	[FL_SFILEINFO] = "SET_FILE_INFORMATION",
	[FL_FINDFIRST] = "FIND_FIRST",
	[FL_WRITEX] = "WriteX",
	[FL_READX] = "ReadX",
	[FL_LOCKX] = "LockX",
	[FL_UNLOCKX] = "UnlockX",
	[FL_FLUSH] = "Flush",
};

const char *const fl_op_stems[FL_NOPS] = {
	[FL_NTCREATEX] = "ntcreatex",
	[FL_CLOSE] = "close",
	[FL_RENAME] = "rename",
	[FL_UNLINK] = "unlink",
	[FL_DELTREE] = "deltree",
	[FL_MKDIR] = "mkdir",
	[FL_RMDIR] = "rmdir",
	[FL_QPATHINFO] = "qpathinfo",
	[FL_QFILEINFO] = "qfileinfo",
	[FL_QFSINFO] = "qfsinfo",
	[FL_SFILEINFO] = "sfileinfo",
	[FL_FINDFIRST] = "findfirst",
	[FL_WRITEX] = "writex",
	[FL_READX] = "readx",
	[FL_LOCKX] = "lockx",
	[FL_UNLOCKX] = "unlockx",
	[FL_FLUSH] = "flush",
};

/*
 * Arguments before the status: 'p' a quoted path, 'n' a number.  The
 * last @opt of them may be left out (Unlink's attributes).
 */
static const struct {
	const char *args;
	int opt;
} shapes[FL_NOPS] = {
	[FL_NTCREATEX] = { "pnnn", 0 },
	[FL_CLOSE] = { "n", 0 },
	[FL_RENAME] = { "pp", 0 },
	[FL_UNLINK] = { "pn", 1 },
	[FL_DELTREE] = { "p", 0 },
	[FL_MKDIR] = { "p", 0 },
	[FL_RMDIR] = { "p", 0 },
	[FL_QPATHINFO] = { "pn", 0 },
	[FL_QFILEINFO] = { "nn", 0 },
	[FL_QFSINFO] = { "n", 0 },
	[FL_SFILEINFO] = { "nn", 0 },
	[FL_FINDFIRST] = { "pnnn", 0 },
	[FL_WRITEX] = { "nnnn", 0 },
	[FL_READX] = { "nnnn", 0 },
	[FL_LOCKX] = { "nnn", 0 },
	[FL_UNLOCKX] = { "nnn", 0 },
	[FL_FLUSH] = { "n", 0 },
};

#define MAXTOK 16

struct tok {
	const char *s;
	size_t len;
	int quoted;
};

struct pctx {
	const char *name;
	unsigned lineno;
	char *err;
	size_t errlen;
};

static int perr(struct pctx *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
perr(struct pctx *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%u: %s", p->name, p->lineno, msg);
	return -1;
}

int
fl_op_lookup(const char *name, size_t len)
{
	int i;

	for (i = 0; i < FL_NOPS; i++)
		if (strlen(fl_op_names[i]) == len &&
		    strncasecmp(fl_op_names[i], name, len) == 0)
			return i;
	return -1;
}

/* Split a line into tokens; quoted tokens lose their quotes. */
static int
tokenize(struct pctx *p, const char *s, const char *end, struct tok *t,
    int *nt)
{
	int n = 0;

	for (;;) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == end)
			break;
		if (n == MAXTOK)
			return perr(p, "too many fields (at most %d)", MAXTOK);
		if (*s == '"') {
			const char *q = memchr(s + 1, '"', (size_t)(end - s - 1));

			if (!q)
				return perr(p, "unterminated quote");
			t[n].s = s + 1;
			t[n].len = (size_t)(q - s - 1);
			t[n].quoted = 1;
			s = q + 1;
			if (s < end && *s != ' ' && *s != '\t' && *s != '\r')
				return perr(p, "text right after a closing "
				    "quote");
		} else {
			t[n].s = s;
			while (s < end && *s != ' ' && *s != '\t' &&
			    *s != '\r' && *s != '"')
				s++;
			if (s < end && *s == '"')
				return perr(p, "quote inside a word");
			t[n].len = (size_t)(s - t[n].s);
			t[n].quoted = 0;
		}
		n++;
	}
	*nt = n;
	return 0;
}

/* A non-negative decimal or 0x-hex number filling the whole token. */
static int
parse_num(struct pctx *p, const char *op, const struct tok *t, int64_t *v)
{
	char buf[32], *end;
	unsigned long long x;

	if (t->quoted || t->len == 0 || t->len >= sizeof(buf) ||
	    !(t->s[0] >= '0' && t->s[0] <= '9'))
		return perr(p, "%s: bad number '%.*s'", op, (int)t->len, t->s);
	memcpy(buf, t->s, t->len);
	buf[t->len] = '\0';
	errno = 0;
	x = strtoull(buf, &end, 0);
	if (errno || *end || x > (unsigned long long)INT64_MAX)
		return perr(p, "%s: bad number '%s'", op, buf);
	*v = (int64_t)x;
	return 0;
}

/* Append @len bytes and a NUL to the string arena; the offset. */
static int
arena_add(struct fl_load *l, const char *s, size_t len, uint32_t *off)
{
	if (l->strs_len + len + 1 > l->strs_cap) {
		size_t cap = l->strs_cap ? l->strs_cap : 4096;
		char *n;

		while (cap < l->strs_len + len + 1)
			cap *= 2;
		if (cap > UINT32_MAX || !(n = realloc(l->strs, cap)))
			return -1;
		l->strs = n;
		l->strs_cap = cap;
	}
	*off = (uint32_t)l->strs_len;
	memcpy(l->strs + l->strs_len, s, len);
	l->strs[l->strs_len + len] = '\0';
	l->strs_len += len + 1;
	return 0;
}

/*
 * A path relative to the client's directory: separators become '/',
 * leading ones go, empty components collapse; ".." is refused.
 */
static int
parse_path(struct pctx *p, struct fl_load *l, const char *op,
    const struct tok *t, uint32_t *off)
{
	char buf[4096];
	size_t i, n = 0;

	if (!t->quoted)
		return perr(p, "%s: expected a quoted path, got '%.*s'", op,
		    (int)t->len, t->s);
	if (t->len >= sizeof(buf))
		return perr(p, "%s: path longer than %zu bytes", op,
		    sizeof(buf) - 1);
	for (i = 0; i < t->len; i++) {
		char c = t->s[i] == '\\' ? '/' : t->s[i];

		if (c == '\0')
			return perr(p, "%s: NUL byte in a path", op);
		if (c == '/' && (n == 0 || buf[n - 1] == '/'))
			continue;
		buf[n++] = c;
	}
	while (n > 0 && buf[n - 1] == '/')
		n--;
	buf[n] = '\0';
	for (i = 0; i < n; ) {
		size_t e = i + strcspn(buf + i, "/");

		if (e - i == 2 && buf[i] == '.' && buf[i + 1] == '.')
			return perr(p, "%s: path '%.*s' has a '..' component "
			    "(paths must stay inside the client's "
			    "directory)", op, (int)t->len, t->s);
		i = e + 1;
	}
	if (n == 0) {
		buf[0] = '.';
		n = 1;
	}
	if (arena_add(l, buf, n, off) < 0)
		return perr(p, "out of memory");
	return 0;
}

static int
parse_status(struct pctx *p, const struct tok *t, uint8_t *st)
{
	static const char *const notfound[] = {
		"NT_STATUS_OBJECT_NAME_NOT_FOUND", "NT_STATUS_NO_SUCH_FILE",
		"NT_STATUS_OBJECT_PATH_NOT_FOUND",
	};
	size_t i;

	if (!t->quoted && t->len > 10 && strncmp(t->s, "NT_STATUS_", 10) == 0) {
		for (i = 10; i < t->len; i++)
			if (!((t->s[i] >= 'A' && t->s[i] <= 'Z') ||
			    (t->s[i] >= '0' && t->s[i] <= '9') ||
			    t->s[i] == '_'))
				goto bad;
		*st = FL_ST_ERROR;
		if (t->len == 12 && strncmp(t->s, "NT_STATUS_OK", 12) == 0)
			*st = FL_ST_OK;
		for (i = 0; i < sizeof(notfound) / sizeof(notfound[0]); i++)
			if (strlen(notfound[i]) == t->len &&
			    strncmp(notfound[i], t->s, t->len) == 0)
				*st = FL_ST_NOTFOUND;
		return 0;
	}
	if (!t->quoted && t->len > 2 && t->len <= 10 && t->s[0] == '0' &&
	    (t->s[1] == 'x' || t->s[1] == 'X')) {
		int zero = 1;

		for (i = 2; i < t->len; i++) {
			char c = t->s[i];

			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
			    (c >= 'A' && c <= 'F')))
				goto bad;
			zero &= c == '0';
		}
		*st = zero ? FL_ST_OK : FL_ST_ERROR;
		return 0;
	}
bad:
	return perr(p, "bad status '%.*s' (expected NT_STATUS_NAME or a 0x "
	    "number)", (int)t->len, t->s);
}

/* One non-comment line of @nt tokens into @op. */
static int
parse_line(struct pctx *p, struct fl_load *l, struct tok *t, int nt,
    struct fl_op *op)
{
	const char *shape, *name;
	int code, i, nargs, want, opt;

	memset(op, 0, sizeof(*op));
	op->lineno = p->lineno;
	op->when = -1;
	if (!t->quoted && t->s[0] >= '0' && t->s[0] <= '9') {
		char buf[64], *end;

		if (t->len >= sizeof(buf))
			return perr(p, "bad timestamp '%.*s'", (int)t->len,
			    t->s);
		memcpy(buf, t->s, t->len);
		buf[t->len] = '\0';
		errno = 0;
		op->when = strtod(buf, &end);
		if (errno || *end || !isfinite(op->when) || op->when < 0)
			return perr(p, "bad timestamp '%s'", buf);
		t++;
		nt--;
		if (nt == 0)
			return perr(p, "timestamp without an operation");
	}
	code = fl_op_lookup(t->s, t->len);
	if (t->quoted || code < 0)
		return perr(p, "unknown operation '%.*s'", (int)t->len, t->s);
	op->code = (uint8_t)code;
	name = fl_op_names[code];
	shape = shapes[code].args;
	opt = shapes[code].opt;
	want = (int)strlen(shape);
	if (nt < 2)
		return perr(p, "%s: missing status", name);
	if (parse_status(p, &t[nt - 1], &op->status) < 0)
		return -1;
	nargs = nt - 2;
	if (nargs > want || nargs < want - opt) {
		if (opt)
			return perr(p, "%s: expected %d to %d arguments before "
			    "the status, got %d", name, want - opt, want,
			    nargs);
		return perr(p, "%s: expected %d argument%s before the status, "
		    "got %d", name, want, want == 1 ? "" : "s", nargs);
	}
	for (i = 0; i < nargs; i++) {
		const struct tok *a = &t[1 + i];

		if (shape[i] == 'p') {
			if (parse_path(p, l, name, a,
			    op->path ? &op->path2 : &op->path) < 0)
				return -1;
		} else if (parse_num(p, name, a, &op->arg[i]) < 0) {
			return -1;
		}
	}
	switch (code) {
	case FL_NTCREATEX:
		if (op->arg[2] > 5)
			return perr(p, "%s: bad disposition %lld (0 to 5)",
			    name, (long long)op->arg[2]);
		break;
	case FL_READX:
	case FL_WRITEX:
		if (op->arg[2] > FL_MAXIO)
			return perr(p, "%s: size %lld larger than %u", name,
			    (long long)op->arg[2], FL_MAXIO);
		break;
	}
	return 0;
}

int
fl_load_parse(const char *name, const char *text, size_t len,
    struct fl_load *l, char *err, size_t errlen)
{
	struct pctx p = { .name = name, .err = err, .errlen = errlen };
	const char *s = text, *end = text + len;
	size_t cap = 0;
	uint32_t zero;

	memset(l, 0, sizeof(*l));
	if (!(l->name = strdup(name)) || arena_add(l, "", 0, &zero) < 0) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto fail;
	}
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		struct tok t[MAXTOK];
		int nt = 0;

		p.lineno++;
		if (memchr(s, '\0', (size_t)(e - s))) {
			perr(&p, "NUL byte in the line (not a text file?)");
			goto fail;
		}
		if (tokenize(&p, s, e, t, &nt) < 0)
			goto fail;
		s = nl ? nl + 1 : end;
		if (nt == 0 || (!t[0].quoted && t[0].s[0] == '#'))
			continue;
		if (l->nops == cap) {
			struct fl_op *n;

			cap = cap ? cap * 2 : 1024;
			if (!(n = realloc(l->ops, cap * sizeof(*n)))) {
				perr(&p, "out of memory");
				goto fail;
			}
			l->ops = n;
		}
		if (parse_line(&p, l, t, nt, &l->ops[l->nops]) < 0)
			goto fail;
		{
			const struct fl_op *o = &l->ops[l->nops];

			l->count[o->code]++;
			if (o->code == FL_READX)
				l->read_bytes += (uint64_t)o->arg[2];
			else if (o->code == FL_WRITEX)
				l->write_bytes += (uint64_t)o->arg[2];
			if ((o->code == FL_READX || o->code == FL_WRITEX) &&
			    (uint64_t)o->arg[2] > l->max_io)
				l->max_io = (uint64_t)o->arg[2];
		}
		l->nops++;
	}
	if (l->nops == 0) {
		snprintf(err, errlen, "%s: no operations in the file", name);
		goto fail;
	}
	return 0;
fail:
	fl_load_free(l);
	return -1;
}

int
fl_load_read(const char *path, struct fl_load *l, char *err, size_t errlen)
{
	struct stat st;
	char *text = NULL;
	size_t got = 0;
	int fd, rc;

	memset(l, 0, sizeof(*l));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &st) < 0)
		goto syserr;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	if (!(text = malloc((size_t)st.st_size + 1))) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, text + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto syserr;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	rc = fl_load_parse(path, text, got, l, err, errlen);
	free(text);
	return rc;
syserr:
	snprintf(err, errlen, "cannot read loadfile %s: %s", path,
	    strerror(errno));
	if (fd >= 0)
		close(fd);
	free(text);
	return -1;
}

void
fl_load_free(struct fl_load *l)
{
	free(l->name);
	free(l->ops);
	free(l->strs);
	memset(l, 0, sizeof(*l));
}
