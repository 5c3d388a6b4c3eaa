/*
 * config.c - the suite files' parser (see config.h): vmrun runs their
 * lines, vmboots counts their iterations.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "msg.h"
#include "util.h"

static int VB_PRINTF(4, 5)
bad(char *err, size_t errlen, const char *where, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", where, msg);
	return -1;
}

static int
good_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return 0;
	return 1;
}

/*
 * Is @w one of the options the runner gives every benchmark (after the
 * line's own, so that a line's copy would be silently overridden)?
 * The hint to show, or NULL.
 */
static const char *
runner_option(const char *w)
{
	static const struct { const char *opt, *hint; } own[] = {
		{ "--iterations", ": use iterations=N on the line" },
		{ "--out", "" }, { "--variant", ": use NAME@VARIANT" },
		{ "--workdir", ": use WORKDIR=" }, { "--append", "" },
	};
	size_t i, n;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		n = strlen(own[i].opt);
		if (strncmp(w, own[i].opt, n) == 0 && (w[n] == '\0' ||
		    w[n] == '='))
			return own[i].hint;
	}
	return NULL;
}

/* Is @w a directive ("key=value" with a lower-case key)? */
static int
is_directive(const char *w)
{
	const char *eq = strchr(w, '=');
	const char *p;

	if (!eq || eq == w || w[0] == '-')
		return 0;
	for (p = w; p < eq; p++)
		if (!islower((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

/*
 * Split one line into words: blanks separate, double quotes group,
 * '#' outside quotes ends the line.  Returns the count or -1.
 */
static int
words(const char *s, char ***out, const char **why)
{
	char **w = NULL, buf[4096];
	int n = 0;

	for (;;) {
		size_t len = 0;
		int quoted = 0, any = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			break;
		while (*s && (quoted || (*s != ' ' && *s != '\t' &&
		    *s != '#'))) {
			if (*s == '"') {
				quoted = !quoted;
				s++;
				any = 1;
				continue;
			}
			if (len + 1 >= sizeof(buf)) {
				*why = "word too long";
				goto fail;
			}
			buf[len++] = *s++;
			any = 1;
		}
		if (quoted) {
			*why = "unterminated quote";
			goto fail;
		}
		if (!any)
			break;
		w = realloc(w, (size_t)(n + 2) * sizeof(char *));
		if (!w)
			die("out of memory");
		w[n++] = vb_xstrndup(buf, len);
		w[n] = NULL;
	}
	*out = w;
	return n;
fail:
	while (n > 0)
		free(w[--n]);
	free(w);
	return -1;
}

static int
parse_iterations(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno || v < 1 ||
	    v > 100000)
		return -1;
	*out = (int)v;
	return 0;
}

static int
parse_line(struct vb_conf *c, const char *line, int lineno, char *err,
    size_t errlen)
{
	char where[4200], **w = NULL, *at;
	const char *why = NULL;
	struct vb_conf_line *l;
	int n, i, rc = 0;

	snprintf(where, sizeof(where), "%s:%d", c->path, lineno);
	n = words(line, &w, &why);
	if (n < 0)
		return bad(err, errlen, where, "%s", why);
	if (n == 0)
		return 0;
	if (strcmp(w[0], "iterations") == 0) {
		if (n != 2 || parse_iterations(w[1], &c->iterations) < 0)
			rc = bad(err, errlen, where, "'iterations' needs one "
			    "number from 1 to 100000");
		goto out;
	}
	if (c->nlines >= VB_CONF_MAXLINES) {
		rc = bad(err, errlen, where, "more than %d benchmark lines",
		    VB_CONF_MAXLINES);
		goto out;
	}
	c->lines = realloc(c->lines, (size_t)(c->nlines + 1) * sizeof(*l));
	if (!c->lines)
		die("out of memory");
	l = &c->lines[c->nlines++];
	memset(l, 0, sizeof(*l));
	l->lineno = lineno;
	at = strchr(w[0], '@');
	l->bench = vb_xstrndup(w[0], at ? (size_t)(at - w[0]) : strlen(w[0]));
	l->variant = at ? vb_xstrndup(at + 1, strlen(at + 1)) : NULL;
	if (!good_name(l->bench) || (l->variant && !good_name(l->variant))) {
		rc = bad(err, errlen, where, "bad benchmark name '%s' (use "
		    "NAME or NAME@VARIANT)", w[0]);
		goto out;
	}
	l->argv = vb_xcalloc((size_t)n, sizeof(char *));
	l->dirs = vb_xcalloc((size_t)n, sizeof(struct vb_kv));
	for (i = 1; i < n; i++) {
		char *eq;

		if (!is_directive(w[i])) {
			const char *own = runner_option(w[i]);

			if (own) {
				rc = bad(err, errlen, where, "'%s' is the "
				    "runner's to give (it would be "
				    "overridden)%s", w[i], own);
				goto out;
			}
			l->argv[l->argc++] = vb_xstrndup(w[i], strlen(w[i]));
			continue;
		}
		eq = strchr(w[i], '=');
		if (strncmp(w[i], "iterations=", 11) == 0) {
			if (parse_iterations(eq + 1, &l->iterations) < 0) {
				rc = bad(err, errlen, where, "bad '%s': "
				    "iterations must be 1 to 100000", w[i]);
				goto out;
			}
			continue;
		}
		l->dirs[l->ndirs].key = vb_xstrndup(w[i], (size_t)(eq - w[i]));
		l->dirs[l->ndirs].val = vb_xstrndup(eq + 1, strlen(eq + 1));
		l->ndirs++;
	}
	/*
	 * Two lines may not write the same result file, nor results that
	 * say the same variant: a line without one is "default".
	 */
	for (i = 0; i < c->nlines - 1; i++) {
		struct vb_conf_line *o = &c->lines[i];
		const char *ov = o->variant ? o->variant : "default";
		const char *lv = l->variant ? l->variant : "default";

		if (strcmp(o->bench, l->bench) != 0 || strcmp(ov, lv) != 0)
			continue;
		if (!o->variant != !l->variant)
			rc = bad(err, errlen, where, "'%s' repeats line %d "
			    "(a line without a variant is %s@default); give "
			    "one of them another variant", w[0], o->lineno,
			    l->bench);
		else
			rc = bad(err, errlen, where, "'%s' repeats line %d; "
			    "give one of them a variant (%s@NAME)", w[0],
			    o->lineno, l->bench);
		goto out;
	}
out:
	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
	return rc;
}

int
vb_conf_parse(const char *name, const char *text, struct vb_conf *c,
    char *err, size_t errlen)
{
	int lineno = 0;

	memset(c, 0, sizeof(*c));
	c->path = vb_xstrndup(name, strlen(name));
	while (*text) {
		size_t len = strcspn(text, "\n");
		/* a CRLF file's '\r' is not part of the last word */
		size_t n = len - (len > 0 && text[len - 1] == '\r');
		char *line = vb_xstrndup(text, n);
		int rc;

		lineno++;
		if (len > VB_CONF_MAXLINE) {
			free(line);
			vb_conf_free(c);
			snprintf(err, errlen, "%s:%d: line too long (%zu bytes; "
			    "at most %d)", name, lineno, len, VB_CONF_MAXLINE);
			return -1;
		}
		if (strlen(line) != n) {
			free(line);
			vb_conf_free(c);
			snprintf(err, errlen, "%s:%d: NUL byte", name, lineno);
			return -1;
		}
		rc = parse_line(c, line, lineno, err, errlen);
		free(line);
		if (rc < 0) {
			vb_conf_free(c);
			return -1;
		}
		text += len + (text[len] == '\n');
	}
	if (c->nlines == 0) {
		snprintf(err, errlen, "%s: no benchmark lines", name);
		vb_conf_free(c);
		return -1;
	}
	return 0;
}

/*
 * The whole of config @path into @text (NUL-terminated, @len bytes):
 * only a regular file (a device, a FIFO or a folder is refused, opened
 * without waiting for a writer) of at most VB_CONF_MAXSIZE bytes, also
 * if it grows while read.  0, or -1 with one line in @err.
 */
static int
slurp(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	ssize_t n;
	int fd;

	*text = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot read config %s: %s", path,
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "config %s: not a regular file", path);
		close(fd);
		return -1;
	}
	/* one byte more than allowed: a file that grew is seen to */
	*text = vb_xmalloc(VB_CONF_MAXSIZE + 2);
	while (st.st_size <= VB_CONF_MAXSIZE && *len <= VB_CONF_MAXSIZE) {
		n = read(fd, *text + *len, VB_CONF_MAXSIZE + 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "cannot read config %s: %s",
			    path, strerror(errno));
			close(fd);
			free(*text);
			*text = NULL;
			return -1;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	close(fd);
	if (st.st_size > VB_CONF_MAXSIZE || *len > VB_CONF_MAXSIZE) {
		snprintf(err, errlen, "config %s: too big (a config is at "
		    "most %d bytes)", path, VB_CONF_MAXSIZE);
		free(*text);
		*text = NULL;
		return -1;
	}
	(*text)[*len] = '\0';
	return 0;
}

int
vb_conf_read(const char *path, struct vb_conf *c, char *err, size_t errlen)
{
	char *text;
	size_t len;
	int rc;

	memset(c, 0, sizeof(*c));
	if (slurp(path, &text, &len, err, errlen) < 0)
		return -1;
	if (strlen(text) != len) {
		snprintf(err, errlen, "%s: not a text file", path);
		free(text);
		return -1;
	}
	rc = vb_conf_parse(path, text, c, err, errlen);
	free(text);
	return rc;
}

void
vb_conf_free(struct vb_conf *c)
{
	int i, j;

	for (i = 0; i < c->nlines; i++) {
		struct vb_conf_line *l = &c->lines[i];

		free(l->bench);
		free(l->variant);
		for (j = 0; j < l->argc; j++)
			free(l->argv[j]);
		free(l->argv);
		for (j = 0; j < l->ndirs; j++) {
			free(l->dirs[j].key);
			free(l->dirs[j].val);
		}
		free(l->dirs);
	}
	free(c->lines);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

int
vb_conf_iterations(const struct vb_conf *c)
{
	int i, n = 0;

	for (i = 0; i < c->nlines; i++)
		n += c->lines[i].iterations ? c->lines[i].iterations :
		    c->iterations ? c->iterations : 1;
	return n;
}

const char *
vb_conf_dir(const struct vb_conf_line *l, const char *key)
{
	int i;

	for (i = 0; i < l->ndirs; i++)
		if (strcmp(l->dirs[i].key, key) == 0)
			return l->dirs[i].val;
	return NULL;
}

char *
vb_conf_label(const struct vb_conf_line *l, char *buf, size_t len)
{
	if (l->variant)
		snprintf(buf, len, "%s@%s", l->bench, l->variant);
	else
		snprintf(buf, len, "%s", l->bench);
	return buf;
}
