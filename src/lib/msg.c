/*
 * msg.c - messages: one line to stderr, die() and its hook (see msg.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "util.h"

const char *vb_progname = "vmbench";
int vb_die_status = 1;
static void (*die_hook)(void *);
static void *die_arg;
static int copy_fd = -1;

void
vb_set_progname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	vb_progname = slash ? slash + 1 : argv0;
}

void
vb_set_die_hook(void (*hook)(void *), void *arg)
{
	die_hook = hook;
	die_arg = hook ? arg : NULL;
}

void
vb_set_err_copy(int fd)
{
	copy_fd = fd;
}

/*
 * "error " and the line to the copy fd, in one write() (shorter than
 * PIPE_BUF, so lines of several processes do not mix); a failed write
 * (EPIPE: the reader is gone) stops the copies.  Async-signal-safe.
 */
static void
copy_line(const char *line, size_t len)
{
	char buf[1200];

	if (copy_fd < 0)
		return;
	if (len > sizeof(buf) - 7)
		len = sizeof(buf) - 7;
	memcpy(buf, "error ", 6);
	memcpy(buf + 6, line, len);
	if (buf[6 + len - 1] != '\n')
		buf[6 + len++] = '\n';
	if (write(copy_fd, buf, 6 + len) < 0)
		copy_fd = -1;
}

void
vb_err_raw(const char *line, size_t len)
{
	ssize_t n;

	n = write(2, line, len);
	(void)n;
	copy_line(line, len);
}

/*
 * One line: "prog: message[: strerror]\n", written with a single
 * fprintf, and copied to the copy fd if any.  A closed stderr (EPIPE)
 * is ignored: output is a courtesy.  Control characters in the message
 * (from a file name or a value read from a file) are shown escaped, so
 * the message stays one line and cannot drive the terminal.
 */
static void
vreport(int errnum, const char *fmt, va_list ap)
{
	char *raw = NULL, *msg = NULL, *line = NULL;
	size_t cap;
	int n;

	/* any length: a long path must not cut off the cause after it */
	if (vasprintf(&raw, fmt, ap) < 0)
		raw = NULL;
	cap = raw ? 4 * strlen(raw) + 1 : 0;
	if (raw && (msg = malloc(cap)))
		vb_esc(msg, cap, raw, 0);
	fflush(stdout);
	if (errnum)
		n = asprintf(&line, "%s: %s: %s\n", vb_progname, msg ? msg :
		    "(out of memory)", strerror(errnum));
	else
		n = asprintf(&line, "%s: %s\n", vb_progname, msg ? msg :
		    "(out of memory)");
	if (n >= 0) {
		fputs(line, stderr);
		fflush(stderr);
		copy_line(line, (size_t)n);
		free(line);
	}
	free(msg);
	free(raw);
}

static void VB_NORETURN
finish(void)
{
	void (*hook)(void *) = die_hook;

	die_hook = NULL;	/* a failing hook must not loop */
	if (hook)
		hook(die_arg);
	exit(vb_die_status);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(0, fmt, ap);
	va_end(ap);
	finish();
}

void
die_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport(e, fmt, ap);
	va_end(ap);
	finish();
}

void
vb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(0, fmt, ap);
	va_end(ap);
}

void
vb_warn_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport(e, fmt, ap);
	va_end(ap);
}
