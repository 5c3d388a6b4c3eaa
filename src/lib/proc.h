/*
 * proc.h - running programs from an argv array, never through a shell:
 * the host's tools (ldd, mkfs.ext4, e2fsck, debugfs, QEMU) for vmboots,
 * a benchmark's --check for vmrun, and the comparison both print at
 * their end (report/vmreport).  An exit status is the program's, or 128
 * + the signal that ended it, as the shell says it.
 */
#ifndef VB_PROC_H
#define VB_PROC_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Start @argv (argv[0] searched in PATH) in @cwd (NULL: here), standard
 * input from /dev/null, output appended to @log (NULL: /dev/null), in
 * its own process group, killed with the caller (PR_SET_PDEATHSIG):
 * a runner killed by SIGKILL leaves no child behind.  The pid, or -1
 * (errno).
 */
pid_t vb_spawn(char *const argv[], const char *cwd, const char *log);
/*
 * vb_spawn() and wait: the exit status, 128 + the signal that ended it,
 * 127 when it could not be started.  With @out, its standard output is
 * read into *@out (allocated, NUL-terminated) instead of @log.
 */
int vb_run(char *const argv[], const char *cwd, const char *log, char **out);
/* vb_run() with its standard error in *@out too (@log NULL). */
int vb_run_both(char *const argv[], const char *cwd, char **out);
/*
 * @handler for SIGINT, SIGTERM and SIGHUP, without SA_RESTART (a signal
 * ends a blocking call with EINTR): how the programs stop on Ctrl-C.
 */
void vb_catch_signals(void (*handler)(int));
/*
 * fork() with SIGINT, SIGTERM and SIGHUP held: in the child they are
 * back at their default action, then released, so a stop signal sent
 * to the child before it calls exec() ends it instead of running a
 * copy of the parent's handler (which exec() forgets, and the run
 * would go on).  In the parent they stay held, the mask before the
 * call in *@old, until vb_fork_release(): the caller first records
 * the child where its handler forwards signals.  The pid, or -1
 * (errno; nothing held).
 */
pid_t vb_fork_held(sigset_t *old);
/* In the parent, after vb_fork_held(): the signals held come now. */
void vb_fork_release(const sigset_t *old);
/* In a child after fork(): stdin from /dev/null, stdout and stderr @fd. */
void vb_child_stdio(int fd);
/*
 * Pin the calling process, and what it forks from now on, to the CPU it
 * runs on (a benchmark's --one-cpu): 0, or -1 having said why in one
 * line ("--one-cpu: cannot run on CPU 1 only: ...").
 */
int vb_pin_here(void);
/* Is @name a program in PATH (or a path to one)? */
int vb_have(const char *name);
/*
 * Wait for @pid (through EINTR): its exit status, 128 + the signal
 * that ended it, 127 when it cannot be waited for.
 */
int vb_wait(pid_t pid);
/* A wait status @st as vb_wait() says it. */
int vb_exit_status(int st);
/*
 * The folder this program was started from (/proc/self/exe's), where
 * the suite's programs are (bench/), into @buf.  0, or -1 (errno).
 */
int vb_bindir(char *buf, size_t len);
/*
 * The comparison of the result folders @a and @b on stdout:
 * @bindir/../report/vmreport A B, run and waited for.  Its status, or
 * -1 when there is no vmreport there.
 */
int vb_run_report(const char *bindir, const char *a, const char *b);

#endif
