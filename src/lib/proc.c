/*
 * proc.c - running programs from an argv array (see proc.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "msg.h"
#include "util.h"

/*
 * In the child: set up and exec; never returns.  Its stdout on @outfd
 * when >= 0, its stderr too when @both.
 */
static void
child(char *const argv[], const char *cwd, const char *log, int outfd,
    int both, pid_t parent)
{
	int fd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* the parent died between fork() and prctl() */
	if (getppid() != parent)
		_exit(127);
	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if ((fd = open("/dev/null", O_RDONLY)) >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	fd = log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0644) :
	    open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(outfd >= 0 ? outfd : fd, 1);
		dup2(outfd >= 0 && both ? outfd : fd, 2);
		close(fd);
	}
	if (outfd >= 0)
		close(outfd);
	if (cwd && chdir(cwd) < 0)
		_exit(127);
	execvp(argv[0], argv);
	_exit(127);
}

pid_t
vb_fork_held(sigset_t *old)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t set;
	pid_t pid;
	size_t i;
	int e;

	sigemptyset(&set);
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		sigaddset(&set, stops[i]);
	sigprocmask(SIG_BLOCK, &set, old);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
			signal(stops[i], SIG_DFL);
		sigprocmask(SIG_SETMASK, old, NULL);
	} else if (pid < 0) {
		e = errno;
		sigprocmask(SIG_SETMASK, old, NULL);
		errno = e;
	}
	return pid;
}

void
vb_fork_release(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* vb_spawn() with the child's stdout (and stderr: @both) on @outfd. */
static pid_t
spawn(char *const argv[], const char *cwd, const char *log, int outfd,
    int both)
{
	pid_t parent = getpid(), pid;
	sigset_t old;

	fflush(NULL);
	pid = vb_fork_held(&old);
	if (pid == 0)
		child(argv, cwd, log, outfd, both, parent);
	if (pid > 0) {
		setpgid(pid, pid);	/* both sides: no race with kill() */
		vb_fork_release(&old);
	}
	return pid;
}

pid_t
vb_spawn(char *const argv[], const char *cwd, const char *log)
{
	return spawn(argv, cwd, log, -1, 0);
}

/* vb_run() and vb_run_both(). */
static int
run(char *const argv[], const char *cwd, const char *log, char **out,
    int both)
{
	struct vb_buf b = VB_BUF_INIT;
	int p[2] = { -1, -1 };
	pid_t pid;

	if (out) {
		*out = NULL;
		if (pipe2(p, O_CLOEXEC) < 0)
			return 127;
	}
	pid = spawn(argv, cwd, log, out ? p[1] : -1, both);
	if (out) {
		char buf[4096];
		ssize_t n;

		close(p[1]);
		while (pid > 0 && ((n = read(p[0], buf, sizeof(buf) - 1)) > 0 ||
		    (n < 0 && errno == EINTR))) {
			if (n < 0)
				continue;
			buf[n] = '\0';
			vb_buf_printf(&b, "%s", buf);
		}
		close(p[0]);
		*out = vb_xstrdup(vb_buf_str(&b));
		vb_buf_free(&b);
	}
	if (pid < 0)
		return 127;
	return vb_wait(pid);
}

int
vb_run(char *const argv[], const char *cwd, const char *log, char **out)
{
	return run(argv, cwd, log, out, 0);
}

int
vb_run_both(char *const argv[], const char *cwd, char **out)
{
	return run(argv, cwd, NULL, out, 1);
}

int
vb_wait(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return vb_exit_status(st);
}

int
vb_exit_status(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ?
	    128 + WTERMSIG(st) : 127;
}

int
vb_bindir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *s;

	if (n < 0)
		return -1;
	buf[n] = '\0';
	if ((s = strrchr(buf, '/')))
		*s = '\0';
	return 0;
}

int
vb_run_report(const char *bindir, const char *a, const char *b)
{
	char prog[PATH_MAX + 32];
	sigset_t old;
	pid_t pid;

	snprintf(prog, sizeof(prog), "%s/../report/vmreport", bindir);
	if (access(prog, X_OK) < 0)
		return -1;
	fflush(NULL);
	pid = vb_fork_held(&old);
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		execl(prog, prog, a, b, (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	if (pid > 0)
		vb_fork_release(&old);
	return pid < 0 ? 127 : vb_wait(pid);
}

void
vb_catch_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void
vb_child_stdio(int fd)
{
	int null = open("/dev/null", O_RDONLY);

	dup2(null, 0);
	dup2(fd, 1);
	dup2(fd, 2);
}

int
vb_have(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? path : ".",
		    name);
		if (access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

int
vb_pin_here(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0) {
		vb_warn_errno("--one-cpu: sched_getcpu");
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		vb_warn_errno("--one-cpu: cannot run on CPU %d only", cpu);
		return -1;
	}
	return 0;
}
