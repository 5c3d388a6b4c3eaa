/*
 * proc.c - running the host's tools (see proc.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"

/* In the child: set up and exec; never returns. */
static void
child(char *const argv[], const char *cwd, const char *log, int outfd,
    pid_t parent)
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
		dup2(fd, 2);
		close(fd);
	}
	if (outfd >= 0)
		close(outfd);
	if (cwd && chdir(cwd) < 0)
		_exit(127);
	execvp(argv[0], argv);
	_exit(127);
}

/* bt_spawn() with the child's stdout on @outfd when >= 0. */
static pid_t
spawn(char *const argv[], const char *cwd, const char *log, int outfd)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(argv, cwd, log, outfd, parent);
	if (pid > 0)
		setpgid(pid, pid);	/* both sides: no race with kill() */
	return pid;
}

pid_t
bt_spawn(char *const argv[], const char *cwd, const char *log)
{
	return spawn(argv, cwd, log, -1);
}

int
bt_run(char *const argv[], const char *cwd, const char *log, char **out)
{
	struct vb_buf b = VB_BUF_INIT;
	int p[2] = { -1, -1 }, st;
	pid_t pid;

	if (out) {
		*out = NULL;
		if (pipe2(p, O_CLOEXEC) < 0)
			return 127;
	}
	pid = spawn(argv, cwd, log, out ? p[1] : -1);
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
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int
bt_have(const char *name)
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
