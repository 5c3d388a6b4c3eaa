/*
 * proc.h - running the host's tools (ldd, mkfs.ext4, e2fsck, debugfs,
 * QEMU) from an argv array, never through a shell.
 */
#ifndef BT_PROC_H
#define BT_PROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Start @argv (argv[0] searched in PATH) in @cwd (NULL: here), standard
 * input from /dev/null, output appended to @log (NULL: /dev/null), in
 * its own process group, killed with the caller (PR_SET_PDEATHSIG):
 * a runner killed by SIGKILL leaves no child behind.  The pid, or -1
 * (errno).
 */
pid_t bt_spawn(char *const argv[], const char *cwd, const char *log);
/*
 * bt_spawn() and wait: the exit status, 128 + the signal that ended it,
 * 127 when it could not be started.  With @out, its standard output is
 * read into *@out (allocated, NUL-terminated) instead of @log.
 */
int bt_run(char *const argv[], const char *cwd, const char *log, char **out);
/* Is @name a program in PATH (or a path to one)? */
int bt_have(const char *name);

#endif
