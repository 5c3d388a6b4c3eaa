#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "util.h"

const char *vb_progname = "vmbench";
int vb_die_status = 1;
static void (*die_hook)(void);

void
vb_set_progname(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	vb_progname = slash ? slash + 1 : argv0;
}

void
vb_set_die_hook(void (*hook)(void))
{
	die_hook = hook;
}

/*
 * One line: "prog: message[: strerror]\n", written with a single fprintf.
 * Control characters in the message (from a file name or a value read
 * from a file) are shown escaped, so the message stays one line and
 * cannot drive the terminal.
 */
static void
vreport(int errnum, const char *fmt, va_list ap)
{
	char raw[1024], msg[4 * sizeof(raw)];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	vb_esc(msg, sizeof(msg), raw, 0);
	fflush(stdout);
	if (errnum)
		fprintf(stderr, "%s: %s: %s\n", vb_progname, msg,
		    strerror(errnum));
	else
		fprintf(stderr, "%s: %s\n", vb_progname, msg);
}

static void VB_NORETURN
finish(void)
{
	void (*hook)(void) = die_hook;

	die_hook = NULL;	/* a failing hook must not loop */
	if (hook)
		hook();
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
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(0, fmt, ap);
	va_end(ap);
}

void
warn_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport(e, fmt, ap);
	va_end(ap);
}
