/*
 * load.c - contest's background loads, run beside the build.
 *
 * A load is a leader process with its workers, all in the iteration's
 * process group (so the harness's kill of that group on Ctrl-C reaches
 * them) and all with PR_SET_PDEATHSIG (so they die with their parent if
 * the build process dies first).  makesim_load_stop() sends the leader
 * SIGTERM; the leader passes it to its workers, SIGKILLs any still alive
 * after 10 s, reaps them (so their CPU time is in the leader's rusage),
 * removes the files of the iteration and exits.  Workers count finished
 * iterations ("Loads") in a shared page.
 *
 *	process_load  nproc processes in a ring of pipes, one 4 KiB message
 *		      per process circulating; a load is one message passing
 *		      member 0 (a lap)
 *	io_load       writes a file of the load size from a zero buffer, as
 *		      dd if=/dev/zero did, truncating it each time; a load is
 *		      one whole file
 *	read_load     reads the file made by makesim_load_prepare() and
 *		      drops its pages after each pass (POSIX_FADV_DONTNEED),
 *		      so every pass reads storage, as a file the size of RAM
 *		      did in contest even when the size was capped below
 *		      RAM; a load is one whole file
 *	mem_load      maps the load size and writes one word per page, the
 *		      pages visited with a large stride modulo their number
 *		      (no two neighbours in a row: no readahead, no locality);
 *		      a load is one pass over every page
 *	list_load     walks list_root (default /usr) as ls -lRa does: lstat
 *		      every entry, readlink every symlink; a load is one walk
 *	dbench_load   runs bench/fileload with nproc clients for dbench_secs
 *		      (no warm-up), over and over, as contest reran dbench;
 *		      a load is one completed fileload run
 *
 * no_load and cacherun start nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "msg.h"
#include "makesim.h"
#include "scope.h"
#include "vmstat.h"

#define CHUNK (1u << 20)
#define MSG 4096
#define MAXWORKERS 1024
#define STOP_GRACE_S 10

static const char *const names[MS_NLOADS] = {
	"no_load", "cacherun", "process_load", "io_load", "read_load",
	"mem_load", "list_load", "dbench_load",
};

const char makesim_load_choices[] = "no_load|cacherun|process_load|io_load|"
    "read_load|mem_load|list_load|dbench_load";

int
makesim_load_kind(const char *name)
{
	int i;

	for (i = 0; i < MS_NLOADS; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

const char *
makesim_load_name(enum ms_load_kind k)
{
	return (unsigned)k < MS_NLOADS ? names[k] : "?";
}

uint64_t
makesim_load_bytes(uint64_t base, double pct, uint64_t cap)
{
	uint64_t b = (uint64_t)((double)base * pct / 100.0);

	if (cap && b > cap)
		b = cap;
	return b & ~(uint64_t)4095;
}

static void
file_path(const struct ms_load *l, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", l->dir, name);
}

/* Write @size bytes to @path, fsync it and drop it from the cache. */
static int
make_file(const char *path, uint64_t size, char *err, size_t errlen)
{
	char *buf = malloc(CHUNK);
	uint64_t done = 0;
	int fd = -1, rc = -1;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(buf, 'r', CHUNK);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		goto fail;
	while (done < size) {
		size_t want = size - done < CHUNK ? (size_t)(size - done) :
		    CHUNK;
		ssize_t n = write(fd, buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			goto fail;
		}
		done += (uint64_t)n;
	}
	if (fdatasync(fd) < 0)
		goto fail;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	rc = 0;
fail:
	if (rc < 0)
		snprintf(err, errlen, "cannot write %s: %s", path,
		    strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

int
makesim_load_prepare(struct ms_load *l, char *err, size_t errlen)
{
	char path[4200];

	if (mkdir(l->dir, 0700) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", l->dir,
		    strerror(errno));
		return -1;
	}
	if ((l->kind == MS_IO_LOAD || l->kind == MS_READ_LOAD ||
	    l->kind == MS_MEM_LOAD) && l->size < 4096) {
		snprintf(err, errlen, "%s: load size %llu bytes is below one "
		    "page", names[l->kind], (unsigned long long)l->size);
		return -1;
	}
	if ((l->kind == MS_PROCESS_LOAD || l->kind == MS_DBENCH_LOAD) &&
	    (l->nproc == 0 || l->nproc > MAXWORKERS)) {
		snprintf(err, errlen, "%s: %u processes: expected 1 to %u",
		    names[l->kind], l->nproc, MAXWORKERS);
		return -1;
	}
	if (l->kind == MS_READ_LOAD) {
		file_path(l, "read_load.dat", path, sizeof(path));
		return make_file(path, l->size, err, errlen);
	}
	return 0;
}

/* ---- the workers (forked children of the leader) ---- */

static void
count(struct ms_load *l)
{
	__atomic_fetch_add(l->count, 1, __ATOMIC_RELAXED);
}

/* Read or write exactly @len bytes; 0 at EOF, -1 on error. */
static int
full_io(int fd, char *buf, size_t len, int wr)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = wr ? write(fd, buf + done, len - done) :
		    read(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 ? 0 : -1;
		done += (size_t)n;
	}
	return 1;
}

static void
ring_member(struct ms_load *l, int in, int out, int first)
{
	char buf[MSG];

	memset(buf, first ? 'p' : 'q', sizeof(buf));
	if (full_io(out, buf, sizeof(buf), 1) <= 0)
		die_errno("process_load: cannot write to the ring");
	for (;;) {
		int r = full_io(in, buf, sizeof(buf), 0);

		if (r == 0)
			_exit(0);	/* a neighbour stopped: ring over */
		if (r < 0)
			die_errno("process_load: cannot read from the ring");
		if (full_io(out, buf, sizeof(buf), 1) <= 0)
			die_errno("process_load: cannot write to the ring");
		if (first)
			count(l);
	}
}

static void
io_worker(struct ms_load *l)
{
	char path[4200], *buf = calloc(1, CHUNK);

	if (!buf)
		die("io_load: out of memory");
	file_path(l, "io_load.dat", path, sizeof(path));
	for (;;) {
		uint64_t done = 0;
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0600);

		if (fd < 0)
			die_errno("io_load: cannot create %s", path);
		while (done < l->size) {
			size_t want = l->size - done < CHUNK ?
			    (size_t)(l->size - done) : CHUNK;

			if (full_io(fd, buf, want, 1) <= 0)
				die_errno("io_load: cannot write %s", path);
			done += want;
		}
		close(fd);
		count(l);
	}
}

static void
read_worker(struct ms_load *l)
{
	char path[4200], *buf = malloc(CHUNK);

	if (!buf)
		die("read_load: out of memory");
	file_path(l, "read_load.dat", path, sizeof(path));
	for (;;) {
		int fd = open(path, O_RDONLY | O_CLOEXEC), r;

		if (fd < 0)
			die_errno("read_load: cannot open %s", path);
		while ((r = full_io(fd, buf, CHUNK, 0)) > 0)
			;
		if (r < 0)
			die_errno("read_load: cannot read %s", path);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
		count(l);
	}
}

static uint64_t
gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void
mem_worker(struct ms_load *l)
{
	uint64_t npages = l->size / 4096, stride, i, pass = 0;
	volatile uint64_t *m;

	m = mmap(NULL, l->size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		die_errno("mem_load: cannot map %llu bytes",
		    (unsigned long long)l->size);
	/* about 0.618 of the pages, coprime with their number */
	stride = npages * 618 / 1000 | 1;
	while (npages > 1 && gcd(stride, npages) != 1)
		stride += 2;
	for (;;) {
		uint64_t p = 0;

		pass++;
		for (i = 0; i < npages; i++) {
			m[p * 512 + (i & 511)] += pass;
			p += stride;
			if (p >= npages)
				p %= npages;
		}
		count(l);
	}
}

static int
list_entry(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	char target[4096];

	(void)st;
	(void)ftw;
	if (flag == FTW_SL && readlink(path, target, sizeof(target)) < 0)
		return 0;
	return 0;
}

static void
list_worker(struct ms_load *l)
{
	for (;;) {
		if (nftw(l->list_root, list_entry, 32, FTW_PHYS) < 0)
			die_errno("list_load: cannot walk %s", l->list_root);
		count(l);
	}
}

static volatile pid_t dbench_child;
static volatile sig_atomic_t dbench_stop;

static void
dbench_term(int sig)
{
	pid_t c = dbench_child;

	dbench_stop = 1;
	if (c > 0)
		kill(c, sig);
	else
		_exit(0);
}

/*
 * fileload over and over.  SIGTERM is passed on to the running fileload
 * (which removes its files and exits); then this worker exits.
 */
static void
dbench_worker(struct ms_load *l)
{
	struct sigaction sa = { .sa_handler = dbench_term };
	char clients[16], secs[16], wd[4200];
	sigset_t none, term;

	snprintf(clients, sizeof(clients), "%u", l->nproc);
	snprintf(secs, sizeof(secs), "%u", l->dbench_secs);
	snprintf(wd, sizeof(wd), "%s/dbench", l->dir);
	if (mkdir(wd, 0700) < 0 && errno != EEXIST)
		die_errno("dbench_load: cannot create %s", wd);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&none);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	for (;;) {
		int status;
		pid_t pid;

		/* no SIGTERM between fork() and noting the child */
		sigprocmask(SIG_SETMASK, &term, NULL);
		pid = fork();
		if (pid < 0)
			die_errno("dbench_load: cannot fork");
		if (pid == 0) {
			const char *argv[16];
			int n = 0, fd = open("/dev/null", O_WRONLY);

			prctl(PR_SET_PDEATHSIG, SIGTERM);
			sigprocmask(SIG_SETMASK, &none, NULL);
			/* its per-second lines would flood our log */
			if (fd >= 0)
				dup2(fd, 1);
			argv[n++] = l->fileload;
			argv[n++] = "--clients";
			argv[n++] = clients;
			argv[n++] = "--time";
			argv[n++] = secs;
			argv[n++] = "--warmup";
			argv[n++] = "0";
			argv[n++] = "--workdir";
			argv[n++] = wd;
			if (l->loadfile) {
				argv[n++] = "--loadfile";
				argv[n++] = l->loadfile;
			}
			argv[n] = NULL;
			execv(l->fileload, (char **)argv);
			die_errno("dbench_load: cannot run %s", l->fileload);
		}
		dbench_child = pid;
		sigprocmask(SIG_SETMASK, &none, NULL);
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				die_errno("dbench_load: wait");
		dbench_child = 0;
		if (dbench_stop)
			_exit(0);	/* stopped by our SIGTERM */
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			die("dbench_load: %s failed (%s %d)", l->fileload,
			    WIFEXITED(status) ? "exit status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) :
			    WTERMSIG(status));
		}
		count(l);
	}
}

/* Remove what an iteration of the load leaves behind. */
static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void
remove_iteration_files(const struct ms_load *l)
{
	char path[4200];

	file_path(l, "io_load.dat", path, sizeof(path));
	unlink(path);
	file_path(l, "dbench", path, sizeof(path));
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- the leader ---- */

static pid_t
spawn(struct ms_load *l, pid_t *pids, uint32_t *n, void (*fn)(struct ms_load
    *, int, int, int), int a, int b, int c, int *closefds, int nclose)
{
	pid_t pid = fork();
	int i;

	if (pid < 0)
		die_errno("%s: cannot fork", names[l->kind]);
	if (pid == 0) {
		sigset_t none;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (i = 0; i < nclose; i++)
			if (closefds[i] != a && closefds[i] != b)
				close(closefds[i]);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		fn(l, a, b, c);
		_exit(0);
	}
	pids[(*n)++] = pid;
	return pid;
}

static void
w_ring(struct ms_load *l, int in, int out, int first)
{
	ring_member(l, in, out, first);
}

static void
w_single(struct ms_load *l, int a, int b, int c)
{
	(void)a;
	(void)b;
	(void)c;
	switch (l->kind) {
	case MS_IO_LOAD:
		io_worker(l);
		break;
	case MS_READ_LOAD:
		read_worker(l);
		break;
	case MS_MEM_LOAD:
		mem_worker(l);
		break;
	case MS_LIST_LOAD:
		list_worker(l);
		break;
	case MS_DBENCH_LOAD:
		dbench_worker(l);
		break;
	default:
		break;
	}
}

/* Stop every worker: SIGTERM, then SIGKILL after the grace period. */
static int
stop_workers(pid_t *pids, uint32_t n)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 };
	uint64_t t0 = vb_now_ns();
	uint32_t i, alive = n;
	int failed = 0;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	while (alive) {
		int status;
		pid_t p = waitpid(-1, &status, WNOHANG);

		if (p < 0 && errno == ECHILD)
			break;
		if (p <= 0) {
			if (vb_elapsed_s(t0) > STOP_GRACE_S)
				for (i = 0; i < n; i++)
					if (pids[i] > 0)
						kill(pids[i], SIGKILL);
			nanosleep(&ts, NULL);
			continue;
		}
		for (i = 0; i < n; i++)
			if (pids[i] == p) {
				pids[i] = 0;
				alive--;
				if (WIFEXITED(status) &&
				    WEXITSTATUS(status) != 0)
					failed = 1;
			}
	}
	return failed;
}

static void
leader(struct ms_load *l, pid_t parent)
{
	static pid_t pids[MAXWORKERS];
	uint32_t n = 0, i;
	sigset_t set;
	int failed = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(3);	/* the parent died before PDEATHSIG was set */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (l->kind == MS_PROCESS_LOAD) {
		static int fds[2 * MAXWORKERS];

		for (i = 0; i < l->nproc; i++)
			if (pipe2(fds + 2 * i, O_CLOEXEC) < 0)
				die_errno("process_load: cannot create pipe "
				    "%u of %u", i + 1, l->nproc);
		/* member i reads pipe i and writes pipe i + 1 */
		for (i = 0; i < l->nproc; i++)
			spawn(l, pids, &n, w_ring, fds[2 * i],
			    fds[2 * ((i + 1) % l->nproc) + 1], i == 0, fds,
			    2 * (int)l->nproc);
		for (i = 0; i < 2 * l->nproc; i++)
			close(fds[i]);
	} else {
		spawn(l, pids, &n, w_single, -1, -1, 0, NULL, 0);
	}
	for (;;) {
		siginfo_t si;

		if (sigwaitinfo(&set, &si) < 0)
			continue;
		if (si.si_signo == SIGTERM)
			break;
		/* SIGCHLD: a worker ended on its own: the load failed */
		for (i = 0; i < n; i++) {
			int status;

			if (pids[i] > 0 && waitpid(pids[i], &status,
			    WNOHANG) == pids[i]) {
				pids[i] = 0;
				failed = 1;
				/* how it ended, for makesim_load_stop() */
				if (!l->count[1])
					l->count[1] = (uint64_t)(unsigned)
					    status + 1;
			}
		}
		if (failed)
			break;
	}
	failed |= stop_workers(pids, n);
	remove_iteration_files(l);
	_exit(failed ? 2 : 0);
}

/*
 * The OOM kills counted so far: the system's (/proc/vmstat oom_kill,
 * which counts a memory cgroup's too) and, under the runner's limit
 * (VMBENCH_CGROUP), its cgroup's; NAN where unknown.
 */
static void
oom_counts(double *sys, double *cg)
{
	const char *root = getenv("VMBENCH_PROC");
	struct vb_cgroup g;
	struct vb_cgsnap cs;
	struct vb_proc p;
	struct vb_snap s;

	*sys = *cg = NAN;
	if (vb_proc_open(&p, root && *root ? root : "/proc") == 0) {
		if (vb_proc_read(&p, &s) == 0 &&
		    (s.present & (1u << VB_OOM_KILL)))
			*sys = (double)s.ctr[VB_OOM_KILL];
		vb_proc_close(&p);
	}
	if (vb_cgroup_from_env(&g) == 0) {
		vb_cgroup_read(&g, &cs);
		*cg = cs.v[VB_CG_OOM];
	}
}

/*
 * Why the load failed, into @err: how its first worker ended (recorded
 * by the leader), else how the leader did (@status); a SIGKILL while
 * an oom_kill counter rose is the OOM killer's, and says which counter.
 */
static void
failure(const struct ms_load *l, int status, char *err, size_t errlen)
{
	uint64_t rec = l->count[1];
	int ws = rec ? (int)(rec - 1) : status;
	const char *who = rec ? "its worker" : "it";
	double sys, cg;
	char how[256];

	oom_counts(&sys, &cg);
	if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL &&
	    cg > l->oom0_cg)
		snprintf(how, sizeof(how), "%s was killed by the OOM killer "
		    "(SIGKILL; oom_kill +%.0f in the memory cgroup %s)", who,
		    cg - l->oom0_cg, getenv("VMBENCH_CGROUP"));
	else if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL &&
	    sys > l->oom0_sys)
		snprintf(how, sizeof(how), "%s was killed by the OOM killer "
		    "(SIGKILL; the system's oom_kill +%.0f)", who,
		    sys - l->oom0_sys);
	else if (WIFSIGNALED(ws))
		snprintf(how, sizeof(how), "%s was killed by signal %d (%s)",
		    who, WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else
		snprintf(how, sizeof(how), "%s exit status %d", rec ?
		    "its worker's" : "its", WEXITSTATUS(ws));
	snprintf(err, errlen, "%s failed during the build: %s",
	    names[l->kind], how);
}

int
makesim_load_start(struct ms_load *l, char *err, size_t errlen)
{
	pid_t parent;

	l->leader = 0;
	l->loads = l->secs = l->cpu_s = l->lcpu = 0;
	if (l->kind == MS_NO_LOAD || l->kind == MS_CACHERUN)
		return 0;
	if (!l->count) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			snprintf(err, errlen, "cannot map a shared page: %s",
			    strerror(errno));
			return -1;
		}
		l->count = p;
	}
	l->count[0] = l->count[1] = 0;
	oom_counts(&l->oom0_sys, &l->oom0_cg);
	fflush(NULL);
	parent = getpid();
	l->t0 = vb_now_ns();
	l->leader = fork();
	if (l->leader < 0) {
		snprintf(err, errlen, "%s: cannot fork: %s", names[l->kind],
		    strerror(errno));
		l->leader = 0;
		return -1;
	}
	if (l->leader == 0)
		leader(l, parent);
	return 0;
}

int
makesim_load_stop(struct ms_load *l, char *err, size_t errlen)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 10 * 1000 * 1000 };
	struct rusage ru;
	uint64_t t0;
	int status, early = 0;
	pid_t p;

	if (!l->leader)
		return 0;
	l->secs = vb_elapsed_s(l->t0);
	l->loads = (double)__atomic_load_n(l->count, __ATOMIC_RELAXED);
	/* did it end on its own (a worker failed)? */
	p = wait4(l->leader, &status, WNOHANG, &ru);
	if (p == l->leader) {
		early = 1;
	} else {
		kill(l->leader, SIGTERM);
		t0 = vb_now_ns();
		while ((p = wait4(l->leader, &status, WNOHANG, &ru)) == 0) {
			if (vb_elapsed_s(t0) > STOP_GRACE_S + 5)
				kill(l->leader, SIGKILL);
			nanosleep(&ts, NULL);
		}
		if (p < 0) {
			snprintf(err, errlen, "%s: cannot wait for the load: "
			    "%s", names[l->kind], strerror(errno));
			l->leader = 0;
			remove_iteration_files(l);
			return -1;
		}
	}
	l->leader = 0;
	remove_iteration_files(l);
	l->cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	l->lcpu = l->secs > 0 ? l->cpu_s / l->secs * 100 : 0;
	if (early || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		failure(l, status, err, errlen);
		return -1;
	}
	return 0;
}

void
makesim_load_cleanup(struct ms_load *l)
{
	char err[256];

	if (l->leader)
		makesim_load_stop(l, err, sizeof(err));
	if (l->dir[0])
		nftw(l->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (l->count) {
		munmap((void *)l->count, 4096);
		l->count = NULL;
	}
}
