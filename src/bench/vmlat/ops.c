/*
 * ops.c - the bodies vmlat times (see ops.h, vmlat.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "ops.h"

#define LO_XFER		(64 * 1024)	/* read() size: LMbench's XFERSIZE */
#define LO_MMAP_STRIDE	(16 * 1024)	/* lat_mmap touches one byte ... */
#define LO_MMAP_PART	10		/* ... each 16K of the first tenth */
#define LO_PER_DIR	100		/* files per folder, as lat_fs */

static const char lo_file[] = "vmlat.data";

/*
 * Memory may have changed: a pass over a buffer is not hoisted out of
 * the loop that repeats it (the sum would be computed once).
 */
#define VB_CLOBBER()	__asm__ __volatile__("" ::: "memory")

/* Measure @b into ns per operation; NAN with c->err on failure. */
static double
measure(struct lo_ctx *c, const char *what, const struct lt_body *b)
{
	struct lt_result r;
	char why[160];

	if (lt_measure(&c->spec, b, &r, why, sizeof(why)) < 0) {
		if (!c->err[0])
			snprintf(c->err, sizeof(c->err), "%s: %s", what, why);
		return NAN;
	}
	return r.ns_per_op;
}

/* ---- processes ---- */

#if defined(__SANITIZE_ADDRESS__)	/* gcc */
#define VB_CHILD_EXIT(x)	_exit(x)
#elif defined(__has_feature)		/* clang */
#if __has_feature(address_sanitizer)
#define VB_CHILD_EXIT(x)	_exit(x)
#endif
#endif
#ifndef VB_CHILD_EXIT
#define VB_CHILD_EXIT(x)	exit(x)
#endif

struct proc_arg {
	struct lo_ctx *c;
	int kind;			/* 0 fork, 1 exec, 2 sh */
};

/*
 * fork, then exit, execve() the helper (with no environment) or
 * /bin/sh -c it (with ours), as lat_proc does; wait.  The fork child
 * leaves by exit(), the C library's, as lat_proc's does: it runs the
 * exit handlers and flushes stdio, whose writes copy the pages they
 * touch, and that is part of LMbench's figure (_exit() made it 15-25%
 * cheaper here).  proc() empties the stdio buffers before the clock
 * starts, so no child writes anything twice.  Sanitizer builds, whose
 * exit handlers check for leaks, use _exit(): they are not for
 * measuring.
 */
static int
proc_op(void *p, uint64_t n)
{
	struct proc_arg *a = p;
	char *const nav[] = { (char *)a->c->helper, NULL };
	char *const sav[] = { "sh", "-c", (char *)a->c->helper, NULL };
	char *const env[] = { NULL };
	int status;
	pid_t pid;

	while (n-- > 0) {
		pid = fork();
		if (pid < 0) {
			snprintf(a->c->err, sizeof(a->c->err), "fork: %s",
			    strerror(errno));
			return -1;
		}
		if (pid == 0) {
			if (a->kind == 0)
				VB_CHILD_EXIT(0);
			close(1);
			if (a->kind == 1)
				execve(a->c->helper, nav, env);
			else
				execve("/bin/sh", sav, environ);
			_exit(127);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return -1;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			snprintf(a->c->err, sizeof(a->c->err), "%s: cannot "
			    "run %s", a->kind == 2 ? "sh" : "exec",
			    a->c->helper);
			return -1;
		}
	}
	return 0;
}

static double
proc(struct lo_ctx *c, int kind)
{
	static const char *names[] = { "fork", "exec", "sh" };
	struct proc_arg a = { c, kind };
	struct lt_body b = { NULL, proc_op, NULL, &a };

	fflush(NULL);
	return lt_us(measure(c, names[kind], &b));
}

double
lo_fork(struct lo_ctx *c)
{
	return proc(c, 0);
}

double
lo_exec(struct lo_ctx *c)
{
	return proc(c, 1);
}

double
lo_sh(struct lo_ctx *c)
{
	return proc(c, 2);
}

/* ---- file create and delete ---- */

struct fs_arg {
	struct lo_ctx *c;
	size_t fsize;
	int del;
	int dfd;			/* the fresh folder of this interval */
	uint64_t n;
	char (*names)[24];		/* "D/F" under dfd */
	char *buf;
	unsigned seq;
};

static int
fs_fail(struct fs_arg *a, const char *what, const char *name)
{
	snprintf(a->c->err, sizeof(a->c->err), "%s %s/%s: %s", what,
	    a->c->dir, name, strerror(errno));
	return -1;
}

/* Create files [0, n) under a->dfd, the last first (as lat_fs). */
static int
fs_create(struct fs_arg *a, uint64_t n)
{
	uint64_t i;
	int fd;

	for (i = n; i-- > 0;) {
		fd = openat(a->dfd, a->names[i], O_WRONLY | O_CREAT | O_TRUNC,
		    0666);
		if (fd < 0)
			return fs_fail(a, "cannot create", a->names[i]);
		if (a->fsize && write(fd, a->buf, a->fsize) !=
		    (ssize_t)a->fsize) {
			close(fd);
			return fs_fail(a, "cannot write", a->names[i]);
		}
		close(fd);
	}
	return 0;
}

/* Delete them, the last first. */
static int
fs_delete(struct fs_arg *a, uint64_t n)
{
	uint64_t i;

	for (i = n; i-- > 0;)
		if (unlinkat(a->dfd, a->names[i], 0) < 0)
			return fs_fail(a, "cannot remove", a->names[i]);
	return 0;
}

/* A fresh folder with a sub-folder per 100 names; create for delete. */
static int
fs_pre(void *p, uint64_t n)
{
	struct fs_arg *a = p;
	char top[40], sub[24];
	uint64_t i;

	snprintf(top, sizeof(top), "fs.%u", a->seq++);
	if (mkdirat(AT_FDCWD, top, 0700) < 0 && errno != EEXIST)
		return fs_fail(a, "cannot make", top);
	if ((a->dfd = open(top, O_RDONLY | O_DIRECTORY)) < 0)
		return fs_fail(a, "cannot open", top);
	a->names = calloc(n, sizeof(*a->names));
	a->n = n;
	if (!a->names)
		return fs_fail(a, "out of memory for", top);
	for (i = 0; i < n; i++) {
		if (i % LO_PER_DIR == 0) {
			snprintf(sub, sizeof(sub), "%llu",
			    (unsigned long long)(i / LO_PER_DIR));
			if (mkdirat(a->dfd, sub, 0700) < 0)
				return fs_fail(a, "cannot make", sub);
		}
		snprintf(a->names[i], sizeof(a->names[i]), "%llu/%llu",
		    (unsigned long long)(i / LO_PER_DIR),
		    (unsigned long long)(i % LO_PER_DIR));
	}
	return a->del ? fs_create(a, n) : 0;
}

static int
fs_op(void *p, uint64_t n)
{
	struct fs_arg *a = p;

	return a->del ? fs_delete(a, n) : fs_create(a, n);
}

/* Remove what is left: the files (after create), the folders. */
static int
fs_post(void *p, uint64_t n)
{
	struct fs_arg *a = p;
	char sub[24], top[40];
	uint64_t i;
	int rc = 0;

	if (!a->del && fs_delete(a, n) < 0)
		rc = -1;
	for (i = 0; i < n; i += LO_PER_DIR) {
		snprintf(sub, sizeof(sub), "%llu",
		    (unsigned long long)(i / LO_PER_DIR));
		if (unlinkat(a->dfd, sub, AT_REMOVEDIR) < 0 && !rc)
			rc = fs_fail(a, "cannot remove", sub);
	}
	close(a->dfd);
	free(a->names);
	a->names = NULL;
	snprintf(top, sizeof(top), "fs.%u", a->seq - 1);
	if (rmdir(top) < 0 && !rc)
		rc = fs_fail(a, "cannot remove", top);
	return rc;
}

double
lo_fs(struct lo_ctx *c, size_t fsize, int del)
{
	struct fs_arg a = { .c = c, .fsize = fsize, .del = del };
	struct lt_body b = { fs_pre, fs_op, fs_post, &a };
	char what[32];
	int cwd;
	double ns;

	if ((cwd = open(".", O_RDONLY | O_DIRECTORY)) < 0 || chdir(c->dir)) {
		snprintf(c->err, sizeof(c->err), "cannot enter %s: %s",
		    c->dir, strerror(errno));
		return NAN;
	}
	a.buf = calloc(1, fsize ? fsize : 1);
	snprintf(what, sizeof(what), "%zuK file %s", fsize / 1024,
	    del ? "delete" : "create");
	ns = a.buf ? measure(c, what, &b) : NAN;
	if (a.names)			/* a failed interval: tidy up */
		fs_post(&a, a.n);
	free(a.buf);
	if (fchdir(cwd) < 0)
		ns = NAN;
	close(cwd);
	return lt_us(ns);
}

/* ---- the data file and its mappings ---- */

int
lo_make_file(struct lo_ctx *c)
{
	char path[4096], *buf;
	uint64_t done;
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", c->dir, lo_file);
	if (!(buf = malloc(LO_XFER)))
		return -1;
	for (i = 0; i < LO_XFER; i++)
		buf[i] = (char)(i * 7 + 1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	for (done = 0; fd >= 0 && done < c->size; done += LO_XFER) {
		size_t len = c->size - done < LO_XFER ? c->size - done :
		    LO_XFER;

		if (write(fd, buf, len) != (ssize_t)len)
			break;
	}
	free(buf);
	if (fd < 0 || done < c->size || fsync(fd) < 0) {
		snprintf(c->err, sizeof(c->err), "cannot write %.200s: %s", path,
		    errno ? strerror(errno) : "short write");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int
open_file(struct lo_ctx *c, int flags)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", c->dir, lo_file);
	if ((fd = open(path, flags)) < 0)
		snprintf(c->err, sizeof(c->err), "cannot open %.200s: %s", path,
		    strerror(errno));
	return fd;
}

struct map_arg {
	struct lo_ctx *c;
	int fd;
	size_t size, pagesz, npages;
	char *where;			/* the current mapping */
	size_t *order;			/* page offsets, shuffled */
	int reads;			/* cold_op: read the pages */
	volatile long sink;
};

static int
map_fail(struct map_arg *a, const char *what)
{
	snprintf(a->c->err, sizeof(a->c->err), "%s: %s", what,
	    strerror(errno));
	return -1;
}

/* lat_mmap: map shared, write a byte per 16K of the first tenth, unmap. */
static int
mmap_op(void *p, uint64_t n)
{
	struct map_arg *a = p;
	char *w, *end, *q;

	while (n-- > 0) {
		w = mmap(NULL, a->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    a->fd, 0);
		if (w == MAP_FAILED)
			return map_fail(a, "mmap");
		end = w + a->size / LO_MMAP_PART;
		for (q = w; q < end; q += LO_MMAP_STRIDE)
			*q = (char)a->size;
		munmap(w, a->size);
	}
	return 0;
}

double
lo_mmap(struct lo_ctx *c)
{
	struct map_arg a = { .c = c, .size = c->size };
	struct lt_body b = { NULL, mmap_op, NULL, &a };
	double ns;

	if ((a.fd = open_file(c, O_RDWR)) < 0)
		return NAN;
	ns = measure(c, "mmap", &b);
	close(a.fd);
	return lt_us(ns);
}

/* Map the file again, asking the kernel to invalidate its pages. */
static int
remap(struct map_arg *a)
{
	if (a->where)
		munmap(a->where, a->size);
	a->where = mmap(NULL, a->size, PROT_READ, MAP_SHARED, a->fd, 0);
	if (a->where == MAP_FAILED) {
		a->where = NULL;
		return map_fail(a, "mmap");
	}
	if (msync(a->where, a->size, MS_INVALIDATE) < 0)
		return map_fail(a, "msync");
	return 0;
}

/* lat_pagefault: read every page in a random order, then remap. */
static int
fault_op(void *p, uint64_t n)
{
	struct map_arg *a = p;
	long sum = 0;
	size_t i;

	while (n-- > 0) {
		for (i = 0; i < a->npages; i++)
			sum += a->where[a->order[i]];
		if (remap(a) < 0)
			return -1;
	}
	a->sink = sum;
	return 0;
}

static int
remap_op(void *p, uint64_t n)
{
	while (n-- > 0)
		if (remap(p) < 0)
			return -1;
	return 0;
}

/* The page offsets in a fixed pseudo-random order. */
static size_t *
shuffled(size_t npages, size_t pagesz)
{
	size_t *o = malloc(npages * sizeof(*o)), i, j, t;
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	if (!o)
		return NULL;
	for (i = 0; i < npages; i++)
		o[i] = i * pagesz;
	for (i = npages; i > 1; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		j = (size_t)(x % i);
		t = o[i - 1], o[i - 1] = o[j], o[j] = t;
	}
	return o;
}

double
lo_pagefault(struct lo_ctx *c)
{
	struct map_arg a = { .c = c, .size = c->size };
	struct lt_body with = { NULL, fault_op, NULL, &a };
	struct lt_body without = { NULL, remap_op, NULL, &a };
	double w = NAN, wo = NAN;

	a.pagesz = (size_t)sysconf(_SC_PAGESIZE);
	a.npages = a.size / a.pagesz;
	if ((a.fd = open_file(c, O_RDONLY)) < 0)
		return NAN;
	if ((a.order = shuffled(a.npages, a.pagesz)) && remap(&a) == 0) {
		wo = measure(c, "page fault", &without);
		w = measure(c, "page fault", &with);
	}
	if (a.where)
		munmap(a.where, a.size);
	free(a.order);
	close(a.fd);
	return isnan(w) || isnan(wo) ? NAN :
	    lt_us_diff(w, wo, (double)a.npages);
}

/* ---- page fault on pages not in the cache ---- */

/*
 * Time spent dropping pages inside a timed interval: the clock the
 * timing loop reads (cold_now) leaves it out.
 */
static uint64_t lo_paused_ns;

static uint64_t
cold_now(void)
{
	return vb_now_ns() - lo_paused_ns;
}

int
lo_drop_cache(struct lo_ctx *c, int fd)
{
	int e;

	if ((e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))) {
		snprintf(c->err, sizeof(c->err), "posix_fadvise %s: %s",
		    lo_file, strerror(e));
		return -1;
	}
	return 0;
}

long
lo_cached_pages(struct lo_ctx *c, int fd)
{
	size_t pagesz = (size_t)sysconf(_SC_PAGESIZE), npages, i;
	unsigned char *vec;
	long n = 0;
	void *m;

	npages = (c->size + pagesz - 1) / pagesz;
	if (!(vec = malloc(npages))) {
		snprintf(c->err, sizeof(c->err), "mincore: out of memory");
		return -1;
	}
	m = mmap(NULL, c->size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED || mincore(m, c->size, vec) < 0) {
		snprintf(c->err, sizeof(c->err), "%s %s: %s",
		    m == MAP_FAILED ? "mmap" : "mincore", lo_file,
		    strerror(errno));
		n = -1;
	}
	for (i = 0; n >= 0 && i < npages; i++)
		n += vec[i] & 1;
	if (m != MAP_FAILED)
		munmap(m, c->size);
	free(vec);
	return n;
}

/* Drop the file's pages, check they are gone; untimed (see cold_now). */
static int
cold_drop(struct map_arg *a)
{
	uint64_t t0 = vb_now_ns();
	long left;

	if (lo_drop_cache(a->c, a->fd) < 0 ||
	    (left = lo_cached_pages(a->c, a->fd)) < 0)
		return -1;
	if (left > 0) {
		snprintf(a->c->err, sizeof(a->c->err), "%ld of %zu pages of "
		    "%s stay in the cache after POSIX_FADV_DONTNEED (a file "
		    "system in memory?)", left, a->npages, lo_file);
		return -1;
	}
	a->c->cold_passes++;
	lo_paused_ns += vb_now_ns() - t0;
	return 0;
}

/*
 * One pass per operation: drop the pages (untimed), map the file with
 * MADV_RANDOM (no readahead: one page read a fault), read a byte a
 * page in the fixed random order when a->reads, unmap.
 */
static int
cold_op(void *p, uint64_t n)
{
	struct map_arg *a = p;
	long sum = 0;
	size_t i;
	char *w;

	while (n-- > 0) {
		if (cold_drop(a) < 0)
			return -1;
		w = mmap(NULL, a->size, PROT_READ, MAP_SHARED, a->fd, 0);
		if (w == MAP_FAILED)
			return map_fail(a, "mmap");
		if (madvise(w, a->size, MADV_RANDOM) < 0) {
			munmap(w, a->size);
			return map_fail(a, "madvise");
		}
		for (i = 0; a->reads && i < a->npages; i++)
			sum += w[a->order[i]];
		munmap(w, a->size);
	}
	a->sink = sum;
	return 0;
}

double
lo_pagefault_cold(struct lo_ctx *c)
{
	struct map_arg a = { .c = c, .size = c->size };
	struct lt_body b = { NULL, cold_op, NULL, &a };
	struct lt_spec keep = c->spec;
	double w = NAN, wo = NAN;

	a.pagesz = (size_t)sysconf(_SC_PAGESIZE);
	a.npages = a.size / a.pagesz;
	if ((a.fd = open_file(c, O_RDONLY)) < 0)
		return NAN;
	/* written through a shared mapping by mmap: dirty pages stay */
	if (fsync(a.fd) < 0) {
		snprintf(c->err, sizeof(c->err), "fsync %s: %s", lo_file,
		    strerror(errno));
		close(a.fd);
		return NAN;
	}
	c->spec.now = cold_now;
	lo_paused_ns = 0;
	if ((a.order = shuffled(a.npages, a.pagesz))) {
		wo = measure(c, "page fault cold", &b);
		a.reads = 1;
		if (!isnan(wo))
			w = measure(c, "page fault cold", &b);
	} else
		snprintf(c->err, sizeof(c->err), "out of memory");
	c->spec = keep;
	free(a.order);
	close(a.fd);
	return isnan(w) || isnan(wo) ? NAN :
	    lt_us_diff(w, wo, (double)a.npages);
}

/* Anonymous first touch: map, write a byte a page, unmap. */
static int
anon_op(void *p, uint64_t n)
{
	struct map_arg *a = p;
	size_t i;
	char *w;

	while (n-- > 0) {
		w = mmap(NULL, a->size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (w == MAP_FAILED)
			return map_fail(a, "mmap");
		if (a->npages)		/* 0: the cost of map and unmap */
			for (i = 0; i < a->size; i += a->pagesz)
				w[i] = 1;
		munmap(w, a->size);
	}
	return 0;
}

double
lo_anonfault(struct lo_ctx *c)
{
	struct map_arg a = { .c = c, .size = c->size };
	struct lt_body b = { NULL, anon_op, NULL, &a };
	double w, wo;
	size_t npages;

	a.pagesz = (size_t)sysconf(_SC_PAGESIZE);
	npages = a.size / a.pagesz;
	wo = measure(c, "anonymous fault", &b);
	a.npages = npages;
	w = measure(c, "anonymous fault", &b);
	return isnan(w) || isnan(wo) ? NAN :
	    lt_us_diff(w, wo, (double)npages);
}

/* ---- the protection fault ---- */

static sigjmp_buf prot_env;
static volatile sig_atomic_t prot_left;

/* Return to the faulting store (which faults again) until done. */
static void
on_fault(int sig)
{
	(void)sig;
	if (--prot_left <= 0)
		siglongjmp(prot_env, 1);
}

static void
on_usr1(int sig)
{
	(void)sig;
}

static int
prot_op(void *p, uint64_t n)
{
	struct map_arg *a = p;

	prot_left = (sig_atomic_t)n;
	if (sigsetjmp(prot_env, 1) == 0)
		*(volatile char *)a->where = 1;
	return 0;
}

static int
catch_op(void *p, uint64_t n)
{
	pid_t me = getpid();

	(void)p;
	while (n-- > 0)
		kill(me, SIGUSR1);
	return 0;
}

static int
send_op(void *p, uint64_t n)
{
	pid_t me = getpid();

	(void)p;
	while (n-- > 0)
		kill(me, 0);
	return 0;
}

/*
 * lat_sig prot: stores into a read-only shared page, each caught by a
 * handler, less the cost of catching a signal (a caught kill() less a
 * kill() of signal 0).
 */
double
lo_prot(struct lo_ctx *c)
{
	struct map_arg a = { .c = c, .size = 4096 };
	struct lt_body bp = { NULL, prot_op, NULL, &a };
	struct lt_body bc = { NULL, catch_op, NULL, NULL };
	struct lt_body bs = { NULL, send_op, NULL, NULL };
	struct sigaction sa, osegv, obus, ousr;
	double prot = NAN, caught = NAN, sent = NAN;

	if ((a.fd = open_file(c, O_RDONLY)) < 0)
		return NAN;
	a.where = mmap(NULL, a.size, PROT_READ, MAP_SHARED, a.fd, 0);
	close(a.fd);
	if (a.where == MAP_FAILED) {
		map_fail(&a, "mmap");
		return NAN;
	}
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, &ousr);
	sa.sa_handler = on_fault;
	sigaction(SIGSEGV, &sa, &osegv);
	sigaction(SIGBUS, &sa, &obus);
	sent = measure(c, "signal send", &bs);
	caught = measure(c, "signal catch", &bc);
	prot = measure(c, "protection fault", &bp);
	sigaction(SIGSEGV, &osegv, NULL);
	sigaction(SIGBUS, &obus, NULL);
	sigaction(SIGUSR1, &ousr, NULL);
	munmap(a.where, a.size);
	if (getenv("VMLAT_DEBUG"))
		fprintf(stderr, "prot %f catch %f send %f\n", prot, caught, sent);
	if (isnan(prot) || isnan(caught) || isnan(sent))
		return NAN;
	return lt_us_diff(prot, caught - sent, 1);
}

/* ---- bandwidths ---- */

struct bw_arg {
	struct lo_ctx *c;
	int fd;
	size_t size;
	unsigned long *buf, *buf2;
	volatile unsigned long sink;
};

/*
 * Sum every long of @p[0..@len): the reading half of a bandwidth, done
 * as LMbench's bread() does it.  The longs go in blocks of 128 (then
 * 16, then one); within a block each long is added to the block's sum
 * one after another, a single chain, and the block's sum is added to
 * the total.  The chains of successive blocks are independent, so the
 * processor overlaps them as far as it can, as it does LMbench's.  The
 * empty asm after each addition keeps the compiler from splitting a
 * chain or vectorising it: either makes the pass cheaper than
 * LMbench's (mmap reread ran 2.5 times LMbench's rate on the same
 * kernel), and the figure would then measure the compiler.
 */
static unsigned long
sum_longs(const unsigned long *p, size_t len)
{
	const unsigned long *end = p + len / sizeof(long), *q, *bend;
	unsigned long s = 0, t;
	size_t blk;

#define VB_ADD(i)	do { t += q[i]; __asm__("" : "+r"(t)); } while (0)
	for (; p < end; p = bend) {
		blk = end - p >= 128 ? 128 : end - p >= 16 ? 16 : 1;
		bend = p + blk;
		t = 0;
		for (q = p; bend - q >= 8; q += 8) {
			VB_ADD(0); VB_ADD(1); VB_ADD(2); VB_ADD(3);
			VB_ADD(4); VB_ADD(5); VB_ADD(6); VB_ADD(7);
		}
		for (; q < bend; q++)
			VB_ADD(0);
		s += t;
	}
#undef VB_ADD
	return s;
}

/* bw_file_rd io_only: 64K read()s of the whole file, each summed. */
static int
filerd_op(void *p, uint64_t n)
{
	struct bw_arg *a = p;
	size_t left;
	ssize_t got;
	unsigned long s = 0;

	while (n-- > 0) {
		if (lseek(a->fd, 0, SEEK_SET) < 0)
			return -1;
		for (left = a->size; left > 0; left -= (size_t)got) {
			got = read(a->fd, a->buf, left < LO_XFER ? left :
			    LO_XFER);
			if (got <= 0) {
				snprintf(a->c->err, sizeof(a->c->err),
				    "file reread: short read");
				return -1;
			}
			s += sum_longs(a->buf, (size_t)got);
		}
	}
	a->sink = s;
	return 0;
}

static int
mmaprd_op(void *p, uint64_t n)
{
	struct bw_arg *a = p;
	unsigned long s = 0;

	while (n-- > 0) {
		s += sum_longs(a->buf, a->size);
		VB_CLOBBER();
	}
	a->sink = s;
	return 0;
}

/* bw_mem rd and wr: every fourth int, the whole buffer counted. */
static int
memrd_op(void *p, uint64_t n)
{
	struct bw_arg *a = p;
	const unsigned *q, *end = (const unsigned *)((char *)a->buf +
	    a->size);
	unsigned s0 = 0, s1 = 0, s2 = 0, s3 = 0;

	/* --size is whole pages: whole steps of 16 ints */
	while (n-- > 0) {
		for (q = (const unsigned *)a->buf; q < end; q += 16) {
			s0 += q[0], s1 += q[4];
			s2 += q[8], s3 += q[12];
		}
		VB_CLOBBER();
	}
	a->sink = s0 + s1 + s2 + s3;
	return 0;
}

static int
memwr_op(void *p, uint64_t n)
{
	struct bw_arg *a = p;
	volatile int *q, *end = (int *)((char *)a->buf + a->size);

	while (n-- > 0)
		for (q = (int *)a->buf; q < end; q += 4)
			*q = 1;
	return 0;
}

static int
bcopy_op(void *p, uint64_t n)
{
	struct bw_arg *a = p;

	while (n-- > 0) {
		memmove(a->buf2, a->buf, a->size);
		a->sink += a->buf2[n % (a->size / sizeof(long))];
	}
	return 0;
}

/* A page-aligned buffer of @len bytes, written (faulted in). */
static unsigned long *
buffer(struct lo_ctx *c, size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len)) {
		snprintf(c->err, sizeof(c->err), "cannot allocate %zu bytes",
		    len);
		return NULL;
	}
	memset(p, 1, len);
	return p;
}

double
lo_filerd(struct lo_ctx *c)
{
	struct bw_arg a = { .c = c, .size = c->size };
	struct lt_body b = { NULL, filerd_op, NULL, &a };
	double ns = NAN;

	if ((a.fd = open_file(c, O_RDONLY)) < 0)
		return NAN;
	if ((a.buf = buffer(c, LO_XFER)))
		ns = measure(c, "file reread", &b);
	free(a.buf);
	close(a.fd);
	return lt_mbs((double)a.size, ns);
}

double
lo_mmaprd(struct lo_ctx *c)
{
	struct bw_arg a = { .c = c, .size = c->size };
	struct lt_body b = { NULL, mmaprd_op, NULL, &a };
	double ns;
	void *m;

	if ((a.fd = open_file(c, O_RDONLY)) < 0)
		return NAN;
	m = mmap(NULL, a.size, PROT_READ, MAP_SHARED, a.fd, 0);
	close(a.fd);
	if (m == MAP_FAILED) {
		snprintf(c->err, sizeof(c->err), "mmap: %s", strerror(errno));
		return NAN;
	}
	a.buf = m;
	ns = measure(c, "mmap reread", &b);
	munmap(m, a.size);
	return lt_mbs((double)a.size, ns);
}

/* Memory read, write (@kind 0, 1) over size, or bcopy (2) of size/2. */
static double
mem(struct lo_ctx *c, int kind)
{
	static int (*const ops[])(void *, uint64_t) = { memrd_op, memwr_op,
		bcopy_op };
	static const char *names[] = { "mem read", "mem write", "bcopy" };
	struct bw_arg a = { .c = c, .size = kind == 2 ? c->size / 2 :
	    c->size };
	struct lt_body b = { NULL, ops[kind], NULL, &a };
	double ns = NAN;

	if ((a.buf = buffer(c, a.size)) &&
	    (kind != 2 || (a.buf2 = buffer(c, a.size))))
		ns = measure(c, names[kind], &b);
	free(a.buf);
	free(a.buf2);
	return lt_mbs((double)a.size, ns);
}

double
lo_memrd(struct lo_ctx *c)
{
	return mem(c, 0);
}

double
lo_memwr(struct lo_ctx *c)
{
	return mem(c, 1);
}

double
lo_bcopy(struct lo_ctx *c)
{
	return mem(c, 2);
}
