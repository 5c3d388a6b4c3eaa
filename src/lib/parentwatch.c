/*
 * parentwatch.c - a program that make runs stops when make is stopped
 * (parentwatch.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "parentwatch.h"

static pid_t watched;
static char status_path[64];	/* /proc/<watched>/status */

/* @n in decimal at @p; the end. */
static char *
put_num(char *p, long n)
{
	char d[24];
	int i = 0;

	do
		d[i++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	while (i > 0)
		*p++ = d[--i];
	return p;
}

/*
 * The SigBlk mask in @path (a /proc/PID/status), 0 when it cannot be
 * read; system calls only.
 */
static unsigned long long
read_sigblk(const char *path)
{
	static const char key[] = "\nSigBlk:";
	char buf[4096], *p;
	unsigned long long m = 0;
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while (got < (ssize_t)sizeof(buf) - 1 && (n = read(fd, buf + got,
	    sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	if (!(p = strstr(buf, key)))
		return 0;
	for (p += sizeof(key) - 1; *p == ' ' || *p == '\t'; p++)
		;
	for (;; p++) {
		int v;

		if (*p >= '0' && *p <= '9')
			v = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			v = *p - 'a' + 10;
		else
			break;
		m = m << 4 | (unsigned)v;
	}
	return m;
}

int
vb_parent_watch_sig(unsigned long long blk)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (blk & 1ULL << (sigs[i] - 1))
			return sigs[i];
	return 0;
}

/* The thread: make's SigBlk every 100 ms, the signal passed on once. */
static void *
watch(void *arg)
{
	struct timespec tick = { 0, 100000000 };
	int prev = 0, sig;

	(void)arg;
	for (;;) {
		nanosleep(&tick, NULL);
		if (getppid() != watched)
			return NULL;	/* gone: the death signal came */
		sig = vb_parent_watch_sig(read_sigblk(status_path));
		if (sig && sig == prev) {
			kill(getpid(), sig);
			return NULL;
		}
		prev = sig;
	}
}

/* Is @pid's command make (or gmake)? */
static int
is_make(pid_t pid)
{
	char path[64], comm[32], *p;
	ssize_t n;
	int fd;

	p = put_num(stpcpy(path, "/proc/"), (long)pid);
	strcpy(p, "/comm");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return !strcmp(comm, "make") || !strcmp(comm, "gmake");
}

int
vb_parent_watch(void)
{
	const char *v = getenv("VB_FROM_MAKE");
	sigset_t all, old;
	pthread_t t;
	int rc;

	if (!v || strcmp(v, "1"))
		return 0;
	unsetenv("VB_FROM_MAKE");
	watched = getppid();
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		return -1;
	/* make died before the death signal was asked for */
	if (getppid() != watched) {
		kill(getpid(), SIGTERM);
		return 0;
	}
	if (!is_make(watched))
		return 0;
	strcpy(put_num(stpcpy(status_path, "/proc/"), (long)watched),
	    "/status");
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t, NULL, watch, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	pthread_detach(t);
	return 1;
}
