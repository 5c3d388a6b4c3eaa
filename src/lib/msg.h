/*
 * msg.h - the one error module: every message vmbench prints about a
 * failure goes through here, so all of them look alike:
 *
 *	memfill: cannot map 512M: Cannot allocate memory
 *
 * die*() exit with status 1 (or vb_die_status if a program changed it);
 * vb_warn*() print and return.  The program name is set once by
 * vb_set_progname(), usually from main().  (Not err.h, which would hide
 * the C library's <err.h>, whose warn() is another function.)
 */
#ifndef VB_MSG_H
#define VB_MSG_H

#include <stddef.h>

#define VB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define VB_NORETURN __attribute__((noreturn))

extern const char *vb_progname;
/* Exit status used by die(); 1 unless a program sets it. */
extern int vb_die_status;

void vb_set_progname(const char *argv0);

void die(const char *fmt, ...) VB_PRINTF(1, 2) VB_NORETURN;
/* As die(), with ": strerror(errno)" appended. */
void die_errno(const char *fmt, ...) VB_PRINTF(1, 2) VB_NORETURN;
void vb_warn(const char *fmt, ...) VB_PRINTF(1, 2);
void vb_warn_errno(const char *fmt, ...) VB_PRINTF(1, 2);

/*
 * Cleanup hook run by die*() before exiting (the harness uses it to kill
 * children and remove its work folder), called with @arg (the runner's
 * and boots' context).  Only one; NULL to remove.
 */
void vb_set_die_hook(void (*hook)(void *), void *arg);

/*
 * Also send every error and warning line, as "error LINE\n", to @fd (the
 * runner's progress pipe, so that the runner can say why a benchmark
 * failed even when its log cannot be written); -1 stops.  A failed
 * write stops the copies.
 */
void vb_set_err_copy(int fd);
/*
 * Write the ready-made line @line (with its newline) to stderr and to
 * the copy fd: async-signal-safe, for signal handlers that die.
 */
void vb_err_raw(const char *line, size_t len);

#endif
