/*
 * res.c - the .res writer and its strict reader (see res.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "msg.h"
#include "opt.h"
#include "res.h"
#include "safedir.h"
#include "util.h"

/* @src into @dst of @len bytes, cut to fit (snprintf's "%s" without it). */
static void
copy(char *dst, size_t len, const char *src)
{
	size_t n;

	if (!len)
		return;
	n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void
vb_res_init(struct vb_res *r, const char *bench, const char *variant)
{
	memset(r, 0, sizeof(*r));
	copy(r->bench, sizeof(r->bench), bench ? bench : "");
	copy(r->variant, sizeof(r->variant),
	    variant && *variant ? variant : "default");
	copy(r->status, sizeof(r->status), "running");
}

void
vb_res_free(struct vb_res *r)
{
	int i;

	for (i = 0; i < r->nparams; i++) {
		free(r->params[i].key);
		free(r->params[i].val);
	}
	free(r->params);
	free(r->cmdline);
	free(r->note);
	free(r->metrics);
	free(r->vals);
	memset(r, 0, sizeof(*r));
}

void
vb_res_set_cmdline(struct vb_res *r, const char *cmdline)
{
	free(r->cmdline);
	r->cmdline = vb_xstrdup(cmdline);
}

void
vb_res_add_param(struct vb_res *r, const char *key, const char *val)
{
	r->params = vb_xrealloc(r->params, (size_t)(r->nparams + 1) *
	    sizeof(*r->params));
	r->params[r->nparams].key = vb_xstrdup(key);
	r->params[r->nparams].val = vb_xstrdup(val);
	r->nparams++;
}

int
vb_res_add_metric(struct vb_res *r, const char *name, const char *unit,
    enum vb_dir dir)
{
	struct vb_res_metric *m;

	if (r->niter)
		die("bug: metric '%s' added after the first iteration", name);
	/* room doubled: a reader adds one column a line */
	if (r->nmetrics >= r->metrics_room) {
		r->metrics_room = r->nmetrics < 8 ? 8 : 2 * r->nmetrics;
		r->metrics = vb_xrealloc(r->metrics,
		    (size_t)r->metrics_room * sizeof(*r->metrics));
	}
	m = &r->metrics[r->nmetrics];
	copy(m->name, sizeof(m->name), name);
	copy(m->unit, sizeof(m->unit), unit);
	m->dir = dir;
	m->key = 0;
	m->work = 0;
	m->work_tol = 0;
	return r->nmetrics++;
}

void
vb_res_set_key(struct vb_res *r, int m, int key)
{
	r->metrics[m].key = key != 0;
}

void
vb_res_set_work(struct vb_res *r, int m, double tol_pct)
{
	r->metrics[m].work = 1;
	r->metrics[m].work_tol = tol_pct;
}

double *
vb_res_add_iter(struct vb_res *r)
{
	double *row;
	int i;

	r->vals = vb_xrealloc(r->vals, (size_t)(r->niter + 1) *
	    (size_t)r->nmetrics * sizeof(double));
	row = r->vals + (size_t)r->niter * (size_t)r->nmetrics;
	for (i = 0; i < r->nmetrics; i++)
		row[i] = NAN;
	r->niter++;
	return row;
}

/*
 * Does the note @note hold @part as one of its "; "-separated parts?
 * (A note said again, as each part of make ab says its setup's, is not
 * repeated.)
 */
static int
has_part(const char *note, const char *part)
{
	size_t n = strlen(part);
	const char *p = note;

	for (; note && (p = strstr(p, part)); p++)
		if ((p == note || (p - note >= 2 && p[-2] == ';' &&
		    p[-1] == ' ')) && (p[n] == '\0' || (p[n] == ';' &&
		    p[n + 1] == ' ')))
			return 1;
	return 0;
}

/* Add each "; "-separated part of @note to @r's note. */
static void
add_parts(struct vb_res *r, const char *note)
{
	const char *p = note, *e;

	while (p && *p) {
		e = strstr(p, "; ");
		vb_res_add_note(r, "%.*s", (int)(e ? (size_t)(e - p) :
		    strlen(p)), p);
		p = e ? e + 2 : NULL;
	}
}

int
vb_res_append(struct vb_res *dst, const struct vb_res *src)
{
	char *mine;
	int i;

	if (strcmp(dst->bench, src->bench) || strcmp(dst->variant,
	    src->variant) || dst->nmetrics != src->nmetrics ||
	    !dst->cmdline != !src->cmdline || (dst->cmdline &&
	    strcmp(dst->cmdline, src->cmdline)))
		return -1;
	for (i = 0; i < src->nmetrics; i++)
		if (strcmp(dst->metrics[i].name, src->metrics[i].name))
			return -1;
	for (i = 0; i < src->niter; i++)
		memcpy(vb_res_add_iter(dst), src->vals + (size_t)i *
		    (size_t)src->nmetrics, (size_t)src->nmetrics *
		    sizeof(double));
	/* the notes: @src's first, each part once */
	mine = dst->note;
	dst->note = NULL;
	add_parts(dst, src->note);
	add_parts(dst, mine);
	free(mine);
	return 0;
}

int
vb_res_metric_index(const struct vb_res *r, const char *name)
{
	int i;

	/* the first letters differ mostly: no call then */
	for (i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].name[0] == name[0] &&
		    strcmp(r->metrics[i].name, name) == 0)
			return i;
	return -1;
}

const char *
vb_res_param(const struct vb_res *r, const char *key)
{
	int i;

	for (i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].key, key) == 0)
			return r->params[i].val;
	return NULL;
}

double
vb_res_get(const struct vb_res *r, int i, int m)
{
	return r->vals[(size_t)i * (size_t)r->nmetrics + (size_t)m];
}

const char *
vb_dir_name(enum vb_dir d)
{
	return d == VB_LOWER ? "lower" : d == VB_HIGHER ? "higher" : "info";
}

/*
 * Write @len bytes of @buf over the existing file @path in place, then
 * cut it to @len: for a full file system, where a new file cannot get a
 * block.  Only when the blocks the file already holds cover @len (so no
 * write needs a new one and a failure cannot leave half a file).  0, or
 * -1 with errno set.
 */
static int
write_in_place(const char *path, const char *buf, size_t len)
{
	struct stat st;
	size_t off = 0;
	ssize_t n;
	int fd, e;

	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1 ||
	    (uint64_t)st.st_blocks * 512 < len) {
		e = errno;
		close(fd);
		errno = S_ISREG(st.st_mode) ? e : EINVAL;
		return -1;
	}
	while (off < len) {
		n = pwrite(fd, buf + off, len - off, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			close(fd);
			errno = e;
			return -1;
		}
		off += (size_t)n;
	}
	if (ftruncate(fd, (off_t)len) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

int
vb_file_replace(const char *path, const char *buf, size_t len)
{
	char tmp[4200];
	size_t off = 0;
	ssize_t n;
	int fd, e;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path,
	    (long)getpid()) >= sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* never through a symlink planted in a shared folder */
	fd = vb_create(tmp, O_WRONLY, 0644);
	if (fd < 0)
		goto full;
	while (off < len) {
		n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* a short write: the next one says why */
			e = n < 0 ? errno : EIO;
			close(fd);
			unlink(tmp);
			errno = e;
			goto full;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0) {
		e = errno;
		unlink(tmp);
		errno = e;
		goto full;
	}
	if (rename(tmp, path) < 0) {
		e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
full:
	e = errno;
	if ((e == ENOSPC || e == EDQUOT) &&
	    write_in_place(path, buf, len) == 0)
		return 0;
	errno = e;
	return -1;
}

/* The text of @r as it goes into the file, into *@buf (malloc'd). */
static int
format_res(const struct vb_res *r, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	int i, j;

	if (!f)
		return -1;
	fprintf(f, "vmbench-result %d\n", VB_RES_VERSION);
	fprintf(f, "bench %s\nvariant %s\n", r->bench, r->variant);
	fprintf(f, "cmdline %s\n", r->cmdline ? r->cmdline : r->bench);
	for (i = 0; i < r->nparams; i++)
		fprintf(f, "param %s %s\n", r->params[i].key, r->params[i].val);
	fprintf(f, "status %s\n", r->status);
	fprintf(f, "started %s\n", r->started[0] ? r->started : "-");
	fprintf(f, "ended %s\n", r->ended[0] ? r->ended : "-");
	if (r->note)
		fprintf(f, "note %s\n", r->note);
	if (r->headline[0])
		fprintf(f, "headline %s\n", r->headline);
	for (i = 0; i < r->nmetrics; i++)
		fprintf(f, "metric %s %s %s\n", r->metrics[i].name,
		    r->metrics[i].unit, vb_dir_name(r->metrics[i].dir));
	for (i = j = 0; i < r->nmetrics; i++)
		if (r->metrics[i].key)
			fprintf(f, "%s %s", j++ ? "" : "key",
			    r->metrics[i].name);
	if (j)
		fputc('\n', f);
	for (i = j = 0; i < r->nmetrics; i++)
		if (r->metrics[i].work)
			fprintf(f, "%s %s %.10g", j++ ? "" : "work",
			    r->metrics[i].name, r->metrics[i].work_tol);
	if (j)
		fputc('\n', f);
	for (i = 0; i < r->niter; i++) {
		fprintf(f, "iter %d", i + 1);
		for (j = 0; j < r->nmetrics; j++) {
			double v = vb_res_get(r, i, j);

			/*
			 * Counts are written whole, however large (every
			 * integer below 2^53 exactly); other values with ten
			 * significant digits, more than any timer here has.
			 */
			if (isnan(v))
				fputs(" -", f);
			else if (v == floor(v) && fabs(v) < 9007199254740992.0)
				fprintf(f, " %.0f", v);
			else
				fprintf(f, " %.10g", v);
		}
		fputc('\n', f);
	}
	fputs("end\n", f);
	if (ferror(f)) {
		fclose(f);
		free(*buf);
		*buf = NULL;
		errno = ENOMEM;
		return -1;
	}
	if (fclose(f) != 0) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

int
vb_res_write(const char *path, const struct vb_res *r)
{
	char *buf = NULL;
	size_t len = 0;
	int rc, e;

	if (format_res(r, &buf, &len) < 0)
		return -1;
	rc = vb_file_replace(path, buf, len);
	e = errno;
	free(buf);
	errno = e;
	return rc;
}

int
vb_res_mark(const char *path, const char *status)
{
	static const char key[] = "\nstatus running\n";
	char buf[16384], word[16];
	size_t n, wl = strlen(status);
	struct stat st;
	ssize_t got;
	char *p;
	int fd, e;

	if (wl > strlen("running")) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* only a plain file of ours (not a link planted in its place) */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	got = pread(fd, buf, sizeof(buf) - 1, 0);
	if (got < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	buf[got] = '\0';
	p = strstr(buf, key);
	if (!p) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	/* "failed " for "running": the reader ignores the blank */
	memset(word, ' ', sizeof(word));
	memcpy(word, status, wl);
	n = strlen("running");
	if (pwrite(fd, word, n, p + 8 - buf) != (ssize_t)n) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

int
vb_res_save(const char *path, struct vb_res *r, const char *status)
{
	int e;

	snprintf(r->status, sizeof(r->status), "%s", status);
	if (strcmp(status, "running") != 0)
		vb_iso_time(r->ended, sizeof(r->ended));
	if (vb_res_write(path, r) == 0)
		return 0;
	e = errno;
	/* what was written last stays; its status at least is right */
	if (strcmp(status, "running") != 0)
		vb_res_mark(path, "failed");
	errno = e;
	return -1;
}

void
vb_res_add_note(struct vb_res *r, const char *fmt, ...)
{
	char msg[512], *p;
	size_t old = r->note ? strlen(r->note) : 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* one line of text */
	for (p = msg; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	if (!msg[0] || has_part(r->note, msg))
		return;
	r->note = vb_xrealloc(r->note, old + strlen(msg) + 3);
	if (old)
		memcpy(r->note + old, "; ", 2), old += 2;
	memcpy(r->note + old, msg, strlen(msg) + 1);
}

/* ---- reader ---- */

struct rd {
	const char *path;
	int line;
	char *err;
	size_t errlen;
};

static int VB_PRINTF(2, 3)
bad(struct rd *rd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s:%d: %s", rd->path, rd->line, msg);
	return -1;
}

/* A name: letters, digits, and _ . - + / @ % (no spaces). */
static int
good_token(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n == 0 || n >= max)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-+/@%:", *s))
			return 0;
	return 1;
}

/*
 * Split @s at runs of blanks into at most @max words; returns the
 * count, or -1 when there are more.
 */
static int
split(char *s, char **w, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return -1;
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/*
 * strtod() of @s, most values without its cost: a word that is all a
 * plain decimal ([-+]digits[.digits][e[-+]digits]) whose digits make
 * an integer m <= 2^53 and whose power of ten p is within 1e22 is m *
 * p or m / p, one IEEE operation on exact operands and so rounded as
 * strtod() rounds it (Clinger's fast path); any other plain decimal
 * (vb_opt_decimal()) goes to strtod() itself, and a word that is not
 * one (a hex float, inf, nan) is no number: *@end = @s.
 */
static double
parse_num(const char *s, char **end)
{
	static const double p10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
		1e22,
	};
	const char *p = s;
	unsigned long long m = 0;
	int neg = 0, nd = 0, frac = 0, e = 0, eneg = 0, ed = 0;
	double v;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; *p >= '0' && *p <= '9'; p++, nd++)
		m = m * 10 + (unsigned)(*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, nd++, frac++)
			m = m * 10 + (unsigned)(*p - '0');
	if (nd && (*p == 'e' || *p == 'E')) {
		p++;
		if (*p == '-' || *p == '+')
			eneg = *p++ == '-';
		for (; *p >= '0' && *p <= '9' && ed < 4; p++, ed++)
			e = e * 10 + (*p - '0');
		if (!ed)
			p = "?";	/* not a whole number: strtod's */
	}
	e = (eneg ? -e : e) - frac;
	if (*p || !nd || nd > 19 || m > 1ULL << 53 || e < -22 || e > 22) {
		/* decimal only: strtod() also reads 0x1p3 as 8, inf, nan */
		if (!vb_opt_decimal(s)) {
			*end = (char *)s;
			return 0;
		}
		return strtod(s, end);
	}
	*end = (char *)p;
	v = e < 0 ? (double)m / p10[-e] : (double)m * p10[e];
	return neg ? -v : v;
}

/* The header keywords, in the order they must appear. */
enum { K_MAGIC, K_BENCH, K_VARIANT, K_CMDLINE, K_PARAM, K_STATUS,
	K_STARTED, K_ENDED, K_NOTE, K_HEADLINE, K_METRIC, K_KEY, K_WORK,
	K_ITER, K_END };

static const char *const kwords[] = {
	"vmbench-result", "bench", "variant", "cmdline", "param", "status",
	"started", "ended", "note", "headline", "metric", "key", "work",
	"iter", "end",
};

static int
parse_line(struct rd *rd, struct vb_res *r, char *line, int *stage)
{
	char *w[4096], *rest;
	int n, k, i;

	rest = line + strcspn(line, " \t");
	if (*rest)
		*rest++ = '\0';
	if (*stage == K_END)
		return bad(rd, "text after 'end'");
	for (k = 0; k <= K_END; k++)
		if (line[0] == kwords[k][0] && strcmp(line, kwords[k]) == 0)
			break;
	if (k > K_END)
		return bad(rd, "unknown keyword '%s'", line);
	if (k < *stage || (k == *stage && k != K_PARAM && k != K_METRIC &&
	    k != K_ITER))
		return bad(rd, "'%s' out of place", line);
	/* mandatory lines may not be skipped */
	for (i = *stage + 1; i < k; i++)
		if (i != K_PARAM && i != K_NOTE && i != K_HEADLINE &&
		    i != K_KEY && i != K_WORK && i != K_ITER)
			return bad(rd, "missing '%s' line before '%s'",
			    kwords[i], line);
	if (k == K_MAGIC && *stage != -1)
		return bad(rd, "'%s' out of place", line);
	*stage = k;
	if (k == K_CMDLINE) {
		while (*rest == ' ')
			rest++;
		if (!*rest)
			return bad(rd, "empty cmdline");
		vb_res_set_cmdline(r, rest);
		return 0;
	}
	if (k == K_NOTE) {
		while (*rest == ' ' || *rest == '\t')
			rest++;
		if (!*rest)
			return bad(rd, "empty note");
		r->note = vb_xstrdup(rest);
		return 0;
	}
	n = split(rest, w, (int)(sizeof(w) / sizeof(w[0])) - 1);
	if (n < 0)
		return bad(rd, "too many words (at most %d)",
		    (int)(sizeof(w) / sizeof(w[0])) - 1);
	switch (k) {
	case K_MAGIC:
		if (n != 1 || strcmp(w[0], "1") != 0)
			return bad(rd, "unsupported format version '%s' "
			    "(this reader knows 1)", n ? w[0] : "");
		return 0;
	case K_BENCH:
	case K_VARIANT:
	case K_HEADLINE:
		if (n != 1 || !good_token(w[0], VB_NAMELEN))
			return bad(rd, "%s needs one name", line);
		copy(k == K_BENCH ? r->bench : k == K_VARIANT ? r->variant :
		    r->headline, VB_NAMELEN, w[0]);
		return 0;
	case K_PARAM:
		if (n != 2 || !good_token(w[0], VB_NAMELEN))
			return bad(rd, "param needs a name and a value");
		if (vb_res_param(r, w[0]))
			return bad(rd, "duplicate param '%s'", w[0]);
		vb_res_add_param(r, w[0], w[1]);
		return 0;
	case K_STATUS:
		if (n != 1 || (strcmp(w[0], "complete") &&
		    strcmp(w[0], "interrupted") && strcmp(w[0], "failed") &&
		    strcmp(w[0], "running")))
			return bad(rd, "status must be complete, interrupted, "
			    "failed or running");
		copy(r->status, sizeof(r->status), w[0]);
		return 0;
	case K_STARTED:
	case K_ENDED:
		if (n != 1 || strlen(w[0]) >= sizeof(r->started))
			return bad(rd, "%s needs one time stamp", line);
		copy(k == K_STARTED ? r->started : r->ended,
		    sizeof(r->started), strcmp(w[0], "-") ? w[0] : "");
		return 0;
	case K_METRIC: {
		enum vb_dir d;

		if (n != 3)
			return bad(rd, "metric needs NAME UNIT DIRECTION");
		if (!good_token(w[0], VB_NAMELEN) || !good_token(w[1], 24))
			return bad(rd, "bad metric name or unit");
		if (strcmp(w[2], "lower") == 0)
			d = VB_LOWER;
		else if (strcmp(w[2], "higher") == 0)
			d = VB_HIGHER;
		else if (strcmp(w[2], "info") == 0)
			d = VB_INFO;
		else
			return bad(rd, "metric direction must be lower, higher "
			    "or info, not '%s'", w[2]);
		if (vb_res_metric_index(r, w[0]) >= 0)
			return bad(rd, "duplicate metric '%s'", w[0]);
		vb_res_add_metric(r, w[0], w[1], d);
		return 0;
	}
	case K_KEY:
		if (n == 0)
			return bad(rd, "key needs at least one metric name");
		for (i = 0; i < n; i++) {
			int m = vb_res_metric_index(r, w[i]);

			if (m < 0)
				return bad(rd, "key '%s' is not a metric of "
				    "this file", w[i]);
			if (r->metrics[m].key)
				return bad(rd, "duplicate key '%s'", w[i]);
			r->metrics[m].key = 1;
		}
		return 0;
	case K_WORK:
		if (n == 0 || n % 2)
			return bad(rd, "work needs pairs of a metric name and "
			    "a tolerance in %%");
		for (i = 0; i < n; i += 2) {
			int m = vb_res_metric_index(r, w[i]);
			char *end;
			double tol;

			if (m < 0)
				return bad(rd, "work '%s' is not a metric of "
				    "this file", w[i]);
			if (r->metrics[m].work)
				return bad(rd, "duplicate work '%s'", w[i]);
			errno = 0;
			tol = parse_num(w[i + 1], &end);
			if (*end || end == w[i + 1] || errno == ERANGE ||
			    !(tol >= 0 && tol <= 100))
				return bad(rd, "work '%s': tolerance '%s' is "
				    "not a percentage from 0 to 100", w[i],
				    w[i + 1]);
			vb_res_set_work(r, m, tol);
		}
		return 0;
	case K_ITER: {
		double *row;
		char *end;
		long it;

		if (n == 0)
			return bad(rd, "iter needs a number and %d values",
			    r->nmetrics);
		if (n != r->nmetrics + 1)
			return bad(rd, "iteration has %d values, expected %d",
			    n - 1, r->nmetrics);
		it = strtol(w[0], &end, 10);
		if (*end || it != r->niter + 1)
			return bad(rd, "iteration number '%s', expected %d",
			    w[0], r->niter + 1);
		row = vb_res_add_iter(r);
		for (i = 0; i < r->nmetrics; i++) {
			if (strcmp(w[i + 1], "-") == 0)
				continue;
			errno = 0;
			row[i] = parse_num(w[i + 1], &end);
			if (*end || end == w[i + 1] || errno == ERANGE ||
			    !isfinite(row[i]))
				return bad(rd, "bad value '%s' for metric '%s'",
				    w[i + 1], r->metrics[i].name);
		}
		return 0;
	}
	case K_END:
		if (n != 0)
			return bad(rd, "text after 'end'");
		if (r->nmetrics == 0)
			return bad(rd, "no metric lines");
		return 0;
	}
	return 0;
}

int
vb_res_read(const char *path, struct vb_res *r, char *err, size_t errlen)
{
	struct rd rd = { .path = path, .err = err, .errlen = errlen };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int stage = -1, rc = 0;
	FILE *f;

	vb_res_init(r, "", "");
	r->variant[0] = '\0';
	/* a regular file of bounded size only: never a FIFO or a device */
	if (!(f = vb_fopen_read(path, VB_MAX_RES, err, errlen)))
		return -1;
	while ((len = getline(&line, &cap, f)) >= 0) {
		rd.line++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			rc = bad(&rd, "NUL byte in line");
			break;
		}
		/* one CR ends a CRLF line; another would not survive a rewrite */
		if (strchr(line, '\r')) {
			rc = bad(&rd, "carriage return inside a line");
			break;
		}
		if (len == 0 || line[0] == '#')
			continue;
		if (stage == -1 && (strncmp(line, "vmbench-result", 14) != 0 ||
		    !strchr(" \t", line[14]))) {
			rc = bad(&rd, "not a vmbench result file (no "
			    "'vmbench-result' line)");
			break;
		}
		if ((rc = parse_line(&rd, r, line, &stage)) < 0)
			break;
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", path,
		    strerror(errno));
		rc = -1;
	}
	if (rc == 0 && stage == -1) {
		rd.line = rd.line ? rd.line : 1;
		rc = bad(&rd, "empty file");
	} else if (rc == 0 && stage != K_END) {
		rd.line++;
		rc = bad(&rd, "truncated: no 'end' line");
	}
	free(line);
	fclose(f);
	if (rc < 0) {
		vb_res_free(r);
		return rc;
	}
	/* the room vb_res_add_metric() kept, given back */
	if (r->metrics_room > r->nmetrics) {
		r->metrics = vb_xrealloc(r->metrics, (size_t)r->nmetrics *
		    sizeof(*r->metrics));
		r->metrics_room = r->nmetrics;
	}
	return rc;
}
