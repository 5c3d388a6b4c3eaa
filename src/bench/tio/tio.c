/*
 * tio.c - tiobench's threaded I/O test (tiotest), and with --creates the
 * file creates and deletes of bonnie++.
 *
 * Threaded I/O: each of --threads threads has a file of its own in the
 * work folder, --size / --threads bytes (whole --block blocks).  Every
 * iteration runs tiotest's four phases in tiotest's order, all threads
 * of a phase at once:
 *
 *	seq_write   write each file from start to end, one block a call
 *	rand_write  --random-ops blocks at random offsets of each file
 *	seq_read    read each file from start to end
 *	rand_read   --random-ops random blocks of each file
 *
 * The random offsets are whole blocks from a fixed sequence per thread
 * (--seed), the same every run.  A phase's clock starts when every
 * thread has opened its file and is released together, and stops when
 * the last thread is done; each thread ends its phase with fsync() of
 * its file, inside the clock, as tiotest does (for the writes that is
 * what makes them durable; for the reads it costs nothing).  Latency is
 * the time of each block's pread() or pwrite() alone.
 *
 * Defeating the page cache: before every phase but the first, the
 * files are fsync()ed and their pages dropped with
 * posix_fadvise(POSIX_FADV_DONTNEED) (untimed, no global knob): reads
 * start cold and come from the disk at any --size.  --size defaults to
 * twice the memory limit when there is one (--mem, or
 * $VMBENCH_MEM_LIMIT from make run MEM=), more than the page cache
 * the limit allows, else to 256M.  --direct opens the files with
 * O_DIRECT instead of going through the page cache at all.
 *
 * Figures per phase (plan.h): rate in MB/s (2^20 bytes, as
 * tiobench), CPU% (the threads' user + system time, RUSAGE_THREAD,
 * over the elapsed time), CPU efficiency = rate / (CPU% / 100), and
 * the average and maximum latency per block in ms.
 *
 * --creates: bonnie++'s "Sequential Create" and "Random Create" with
 * files of size 0 (-n): --files empty files created (creat(), close())
 * in a fresh folder by bonnie++'s names, a 7-digit number and 0 to 12
 * random letters (plan.h).  Sequential: the number first, created
 * in number order, deleted in readdir() order; random: the letters
 * first, created in number order, deleted in a shuffled order (from
 * --seed).  files/s and CPU% (user + system over elapsed) of each of
 * the four phases.  On an ext4 without a journal the creates depend on
 * what the minutes before deleted: said on stderr and in a note of the
 * result (src/lib/fsinfo.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "clock.h"
#include "msg.h"
#include "fsinfo.h"
#include "size.h"
#include "plan.h"

#define TIO_MAXTHREADS 256

struct cfg {
	uint64_t threads, size, block, random_ops, seed, mem, files;
	double pause;
	int direct;
	int creates;
	int own_group;
};

static const struct vb_opt opts[] = {
	{ .name = "threads", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, threads), .def = "1",
	  .min = 1, .max = TIO_MAXTHREADS,
	  .help = "threads, each with a file of its own" },
	{ .name = "size", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, size), .def = "0",
	  .min = 0, .max = 1ULL << 44,
	  .help = "total of the threads' files (0: twice the memory "
	  "limit, else 256M)" },
	{ .name = "block", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, block), .def = "4K",
	  .min = 512, .max = 64ULL << 20,
	  .help = "bytes per read() or write()" },
	{ .name = "random-ops", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, random_ops), .def = "1000",
	  .min = 1, .max = 1ULL << 32,
	  .help = "random blocks per thread in the random phases" },
	{ .name = "seed", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, seed), .def = "1",
	  .min = 1, .max = UINT64_MAX,
	  .help = "seed of the random offsets and orders" },
	{ .name = "mem", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, mem), .def = "0",
	  .min = 0, .max = 1ULL << 50,
	  .help = "memory limit --size scales to (0: $VMBENCH_MEM_LIMIT "
	  "or none)" },
	{ .name = "pause", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct cfg, pause), .def = "0",
	  .dmin = 0, .dmax = 3600,
	  .help = "untimed wait before each phase but the first, after "
	  "its page drop" },
	{ .name = "direct", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, direct),
	  .help = "open the files O_DIRECT (no page cache)" },
	{ .name = "creates", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, creates),
	  .help = "bonnie++'s creates and deletes of empty files instead" },
	{ .name = "own-group", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, own_group),
	  .help = "--creates: the files in a block group ext4 picks anew "
	    "each iteration, as for a top-level folder (FS_TOPDIR_FL)" },
	{ .name = "files", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, files), .def = "16384",
	  .min = 1, .max = 10000000,
	  .help = "--creates: files created and deleted per phase" },
	{ 0 },
};

/* The four phases, in tiotest's order, and their figures' prefixes. */
enum { P_SEQ_WRITE, P_RAND_WRITE, P_SEQ_READ, P_RAND_READ, NPHASE };
static const char *const phase_name[NPHASE] = {
	"seq_write", "rand_write", "seq_read", "rand_read",
};
static const char *const phase_title[NPHASE] = {
	"Write", "Random Write", "Read", "Random Read",
};

#define PHASE_METRICS(p, what) \
	{ p "_mbs", "MB/s", VB_HIGHER, what " rate (2^20 bytes/s)", 1 }, \
	{ p "_cpu", "%", VB_INFO, what ": threads' user+sys / elapsed", 0 }, \
	{ p "_eff", "MB/s/CPU", VB_HIGHER, what ": rate / (CPU% / 100)", 0 }, \
	{ p "_lat_avg", "ms", VB_LOWER, what ": average per block", 0 }, \
	{ p "_lat_max", "ms", VB_LOWER, what ": slowest block", 0 }

static const struct vb_metric metrics[] = {
	PHASE_METRICS("seq_write", "sequential write"),
	PHASE_METRICS("rand_write", "random write"),
	PHASE_METRICS("seq_read", "sequential read"),
	PHASE_METRICS("rand_read", "random read"),
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

static const struct vb_metric create_metrics[] = {
	{ "seq_create_per_s", "files/s", VB_HIGHER, "sequential creates", 1 },
	{ "seq_create_cpu", "%", VB_INFO, "sequential creates: CPU", 0 },
	{ "seq_delete_per_s", "files/s", VB_HIGHER, "sequential deletes", 1 },
	{ "seq_delete_cpu", "%", VB_INFO, "sequential deletes: CPU", 0 },
	{ "rand_create_per_s", "files/s", VB_HIGHER, "random creates", 1 },
	{ "rand_create_cpu", "%", VB_INFO, "random creates: CPU", 0 },
	{ "rand_delete_per_s", "files/s", VB_HIGHER, "random deletes", 1 },
	{ "rand_delete_cpu", "%", VB_INFO, "random deletes: CPU", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

static const char *mem_src = "none";

/* Resolve the defaults so that the result's params are the real sizes. */
static int
validate(void *p, char *err, size_t errlen)
{
	struct cfg *c = p;
	unsigned t = (unsigned)c->threads;
	char a[32], b[32];

	if (c->creates) {
		if (c->size || c->direct || c->threads != 1 || c->pause) {
			snprintf(err, errlen, "--creates makes empty files in "
			    "one thread: --size, --direct, --threads and "
			    "--pause do not apply");
			return -1;
		}
		return 0;
	}
	if (c->own_group) {
		snprintf(err, errlen, "--own-group is for --creates only");
		return -1;
	}
	if (c->direct && c->block % 512) {
		snprintf(err, errlen, "--direct needs a --block of whole "
		    "512-byte sectors, not %s", vb_fmt_size(a, sizeof(a),
		    c->block));
		return -1;
	}
	if (!c->mem) {
		const char *env = getenv("VMBENCH_MEM_LIMIT");
		char why[VB_ERRLEN];

		if (env && *env) {
			if (vb_parse_u64(env, 1, UINT64_MAX, &c->mem,
			    why) < 0) {
				snprintf(err, errlen, "VMBENCH_MEM_LIMIT: %s",
				    why);
				return -1;
			}
			mem_src = "VMBENCH_MEM_LIMIT";
		}
	} else {
		mem_src = "--mem";
	}
	if (!c->size) {
		c->size = tio_default_size(c->mem, t, c->block);
		if (!c->size) {
			snprintf(err, errlen, "--mem %s leaves %s%u "
			    "thread%s less than one --block", vb_fmt_size(a,
			    sizeof(a), c->mem), t == 1 ? "" : "each of the ",
			    t, t == 1 ? "" : "s");
			return -1;
		}
	} else if (!tio_file_size(c->size, t, c->block)) {
		snprintf(err, errlen, "--size %s gives %s%u thread%s less "
		    "than one --block of %s", vb_fmt_size(a, sizeof(a),
		    c->size), t == 1 ? "" : "each of the ", t,
		    t == 1 ? "" : "s", vb_fmt_size(b, sizeof(b), c->block));
		return -1;
	} else {
		c->size = tio_file_size(c->size, t, c->block) * t;
	}
	return 0;
}

/*
 * Refuse sizes that would leave less than a tenth of the work folder's
 * file system free: a run must never fill the disk it writes to.
 * --creates: say when the work folder makes the creates depend on what
 * ran before (src/lib/fsinfo.h).
 */
static int
setup(void *p, const char *workdir)
{
	struct cfg *c = p;
	struct statvfs sv;
	uint64_t avail, keep;
	char a[32], b[32], lim[80], note[256];

	if (c->creates && c->own_group) {
		vb_fs_own_group(workdir, "each iteration's files", note,
		    sizeof(note));
		vb_note("%s", note);
		return 0;
	}
	if (c->creates) {
		if (vb_fs_create_note(workdir, note, sizeof(note))) {
			vb_note("%s", note);
			fprintf(stderr, "tio: %s\n", note);
		}
		return 0;
	}
	if (statvfs(workdir, &sv) < 0)
		die_errno("cannot statvfs %s", workdir);
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	keep = (uint64_t)sv.f_blocks * sv.f_frsize / 10;
	if (c->size + keep > avail)
		die("the files need %s but %s has %s free, of which a tenth "
		    "of the file system is kept; give a smaller --size",
		    vb_fmt_size(a, sizeof(a), c->size), workdir,
		    vb_fmt_size(b, sizeof(b), avail));
	if (c->mem)
		snprintf(lim, sizeof(lim), "memory limit %s: %s", mem_src,
		    vb_fmt_size(b, sizeof(b), c->mem));
	else
		snprintf(lim, sizeof(lim), "no memory limit");
	printf("%llu thread%s, %s each (%s), %s blocks%s\n",
	    (unsigned long long)c->threads, c->threads == 1 ? "" : "s",
	    vb_fmt_size(a, sizeof(a), c->size / c->threads), lim,
	    vb_fmt_size(b, sizeof(b), c->block), c->direct ? ", O_DIRECT" :
	    "");
	return 0;
}

/* One thread of a phase. */
struct thr {
	pthread_t tid;
	const struct cfg *c;
	pthread_barrier_t *ready, *go;
	int phase;
	int fd;
	unsigned idx;
	uint64_t fsize;		/* bytes */
	uint64_t seed;		/* the random sequence's state */
	char *buf;
	/* results */
	uint64_t blocks;
	double cpu, lat_sum, lat_max;
	uint64_t end;		/* ns, when its fsync() returned */
	int err;		/* errno of a failed call, 0 */
	const char *what;	/* which call failed */
};

static double
tv_s(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

static double
thread_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return NAN;
	return tv_s(&ru.ru_utime) + tv_s(&ru.ru_stime);
}

/* The blocks of one thread's phase, then fsync(); errors into @t. */
static void *
thr_run(void *arg)
{
	struct thr *t = arg;
	const struct cfg *c = t->c;
	uint64_t nblk = t->fsize / c->block, n, i, off;
	int wr = t->phase == P_SEQ_WRITE || t->phase == P_RAND_WRITE;
	int rnd = t->phase == P_RAND_WRITE || t->phase == P_RAND_READ;
	double cpu0;

	pthread_barrier_wait(t->ready);
	pthread_barrier_wait(t->go);
	cpu0 = thread_cpu();
	n = rnd ? c->random_ops : nblk;
	for (i = 0; i < n; i++) {
		uint64_t t0, dt;
		ssize_t r;

		off = rnd ? tio_rand_offset(&t->seed, nblk, c->block) :
		    i * c->block;
		t0 = vb_now_ns();
		if (wr)
			r = pwrite(t->fd, t->buf, (size_t)c->block,
			    (off_t)off);
		else
			r = pread(t->fd, t->buf, (size_t)c->block, (off_t)off);
		dt = vb_now_ns() - t0;
		if (r != (ssize_t)c->block) {
			t->err = r < 0 ? errno : EIO;
			t->what = wr ? "write" : "read";
			break;
		}
		t->blocks++;
		t->lat_sum += (double)dt / 1e9;
		if ((double)dt / 1e9 > t->lat_max)
			t->lat_max = (double)dt / 1e9;
	}
	if (!t->err && fsync(t->fd) < 0) {
		t->err = errno;
		t->what = "fsync";
	}
	t->end = vb_now_ns();
	t->cpu = thread_cpu() - cpu0;
	return NULL;
}

static char *
file_path(char *buf, size_t len, const char *dir, unsigned i)
{
	snprintf(buf, len, "%s/tio.%u", dir, i);
	return buf;
}

/* Write back and drop the pages of every file (untimed). */
static void
drop_pages(const struct cfg *c, const char *dir)
{
	char path[PATH_MAX];
	unsigned i;
	int fd, e;

	for (i = 0; i < c->threads; i++) {
		file_path(path, sizeof(path), dir, i);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			die_errno("cannot open %s", path);
		if (fsync(fd) < 0)
			die_errno("cannot sync %s", path);
		if ((e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)))
			die("cannot drop the pages of %s: %s", path,
			    strerror(e));
		close(fd);
	}
}

/*
 * Run phase @ph with every thread; its summed figures into @out.  The
 * clock starts when every thread is waiting at the start line (so that
 * no I/O can precede it however the threads are scheduled) and stops
 * at the last thread's end, not when the joins happen to return.
 */
static void
run_phase(const struct cfg *c, const char *dir, int ph, struct thr *t,
    struct tio_phase *out)
{
	pthread_barrier_t ready, go;
	char path[PATH_MAX];
	unsigned i, n = (unsigned)c->threads;
	uint64_t t0, t1;
	int flags = O_CLOEXEC | (c->direct ? O_DIRECT : 0), e;

	flags |= ph == P_SEQ_WRITE ? O_WRONLY | O_CREAT | O_TRUNC :
	    ph == P_RAND_WRITE ? O_WRONLY : O_RDONLY;
	if ((e = pthread_barrier_init(&ready, NULL, n + 1)) ||
	    (e = pthread_barrier_init(&go, NULL, n + 1)))
		die("cannot make a barrier: %s", strerror(e));
	for (i = 0; i < n; i++) {
		file_path(path, sizeof(path), dir, i);
		t[i].fd = open(path, flags, 0600);
		if (t[i].fd < 0 && errno == EINVAL && c->direct)
			die("--direct: the file system of %s does not take "
			    "O_DIRECT", dir);
		if (t[i].fd < 0)
			die_errno("cannot open %s", path);
		t[i].phase = ph;
		t[i].ready = &ready;
		t[i].go = &go;
		t[i].blocks = 0;
		t[i].cpu = t[i].lat_sum = t[i].lat_max = 0;
		t[i].err = 0;
		if ((e = pthread_create(&t[i].tid, NULL, thr_run, &t[i])))
			die("cannot start thread %u: %s", i, strerror(e));
	}
	pthread_barrier_wait(&ready);
	t0 = vb_now_ns();
	pthread_barrier_wait(&go);
	t1 = t0;
	for (i = 0; i < n; i++) {
		pthread_join(t[i].tid, NULL);
		if (t[i].end > t1)
			t1 = t[i].end;
	}
	memset(out, 0, sizeof(*out));
	out->elapsed = vb_ns_to_s(t1 - t0);
	out->block = c->block;
	for (i = 0; i < n; i++) {
		if (t[i].err) {
			errno = t[i].err;
			die_errno("thread %u: cannot %s %s", i, t[i].what,
			    file_path(path, sizeof(path), dir, i));
		}
		close(t[i].fd);
		out->blocks += t[i].blocks;
		out->cpu += t[i].cpu;
		out->lat_sum += t[i].lat_sum;
		if (t[i].lat_max > out->lat_max)
			out->lat_max = t[i].lat_max;
	}
	pthread_barrier_destroy(&ready);
	pthread_barrier_destroy(&go);
}

static void
report(struct vb_iter *it, const char *prefix, const char *what,
    double v)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_%s", prefix, what);
	vb_report(it, name, v);
}

static int
run_io(struct cfg *c, struct vb_iter *it)
{
	const char *dir = vb_iter_workdir(it);
	unsigned i, n = (unsigned)c->threads;
	struct thr *t = calloc(n, sizeof(*t));
	struct tio_phase ph;
	struct tio_fig f;
	int p;

	if (!t)
		die("out of memory");
	for (i = 0; i < n; i++) {
		t[i].c = c;
		t[i].idx = i;
		t[i].fsize = tio_file_size(c->size, n, c->block);
		t[i].seed = tio_seed(c->seed, i);
		/* aligned for O_DIRECT; the data is a pattern, not zeros */
		if (posix_memalign((void **)&t[i].buf, 4096,
		    (size_t)c->block))
			die("out of memory");
		memset(t[i].buf, 0x5a ^ (int)i, (size_t)c->block);
	}
	printf("%-13s %9s %8s %12s %7s %10s %10s\n", "Item", "MB", "Time s",
	    "Rate MB/s", "CPU%", "Lat avg ms", "Lat max ms");
	for (p = 0; p < NPHASE; p++) {
		if (p > 0) {
			drop_pages(c, dir);
			if (c->pause > 0)
				vb_sleep_until(vb_now_ns() +
				    (uint64_t)(c->pause * 1e9));
		}
		run_phase(c, dir, p, t, &ph);
		tio_figures(&ph, &f);
		printf("%-13s %9.1f %8.2f %12.3f %6.1f%% %10.3f %10.3f\n",
		    phase_title[p], (double)ph.blocks * (double)c->block /
		    1048576.0, ph.elapsed, f.rate, f.cpu_pct, f.lat_avg,
		    f.lat_max);
		report(it, phase_name[p], "mbs", f.rate);
		report(it, phase_name[p], "cpu", f.cpu_pct);
		report(it, phase_name[p], "eff", f.eff);
		report(it, phase_name[p], "lat_avg", f.lat_avg);
		report(it, phase_name[p], "lat_max", f.lat_max);
	}
	for (i = 0; i < n; i++) {
		char path[PATH_MAX];

		unlink(file_path(path, sizeof(path), dir, i));
		free(t[i].buf);
	}
	free(t);
	return 0;
}

static double
self_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return tv_s(&ru.ru_utime) + tv_s(&ru.ru_stime);
}

/*
 * The mount point and type of the file system holding @dir, from
 * /proc/self/mountinfo (the entry of @dir's device whose mount point is
 * the longest prefix of @dir's real path); 0, or -1 when not found.
 */
static int
fs_of(const char *dir, char *mnt, size_t mlen, char *type, size_t tlen)
{
	char real[PATH_MAX], m[PATH_MAX], t[64], *line = NULL;
	unsigned int maj, min;
	size_t cap = 0, best = 0;
	struct stat st;
	FILE *f;

	if (!realpath(dir, real) || stat(real, &st) < 0 ||
	    !(f = fopen("/proc/self/mountinfo", "re")))
		return -1;
	while (getline(&line, &cap, f) > 0) {
		const char *sep = strstr(line, " - ");
		size_t n;

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - TYPE SOURCE ... */
		if (!sep || sscanf(line, "%*s %*s %u:%u %*s %4095s", &maj, &min,
		    m) != 3 || sscanf(sep + 3, "%63s", t) != 1 ||
		    makedev(maj, min) != st.st_dev)
			continue;
		n = strlen(m);
		if (strncmp(real, m, n) != 0 || (real[n] != '/' &&
		    real[n] != '\0' && n != 1) || n < best)
			continue;
		best = n;
		snprintf(mnt, mlen, "%s", m);
		snprintf(type, tlen, "%s", t);
	}
	free(line);
	fclose(f);
	return best ? 0 : -1;
}

/*
 * Creating @what in @dir failed (errno): one line naming the file,
 * the folder and, when the file system is full (ENOSPC, EDQUOT), which
 * one and whether of blocks or of inodes.
 */
static void
create_failed(const char *dir, const char *what)
{
	char mnt[PATH_MAX], type[64], why[160] = "is full";
	struct statvfs sv;
	int e = errno;

	if ((e != ENOSPC && e != EDQUOT) || fs_of(dir, mnt, sizeof(mnt), type,
	    sizeof(type)) < 0) {
		errno = e;
		die_errno("cannot create %s in %s", what, dir);
	}
	if (statvfs(dir, &sv) == 0 && sv.f_files > 0 && sv.f_favail == 0)
		snprintf(why, sizeof(why), "has no free inodes (%llu in all)",
		    (unsigned long long)sv.f_files);
	else if (e == EDQUOT)
		snprintf(why, sizeof(why), "is over your quota");
	errno = e;
	die_errno("cannot create %s in %s: the %s file system at %s %s", what,
	    dir, type, mnt, why);
}

/*
 * One timed phase in folder @dfd (@dir): create the files @names[0..n) in
 * that order (@what 0), delete them in @order (1), or delete whatever
 * the folder holds in readdir() order (2); files/s and CPU% out.
 */
static void
file_phase(int dfd, const char *dir, const char *names,
    const uint32_t *order, uint32_t n, int what, double *per_s,
    double *cpu_pct)
{
	char file[TIO_NAME_MAX + 8];
	double cpu0 = self_cpu();
	uint64_t t0 = vb_now_ns(), done = 0;
	struct dirent *e;
	const char *name;
	uint32_t i;
	DIR *d;
	int fd;

	if (what == 2) {
		if ((fd = dup(dfd)) < 0 || !(d = fdopendir(fd)))
			die_errno("cannot read the files' folder");
		rewinddir(d);
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			if (unlinkat(dfd, e->d_name, 0) < 0)
				die_errno("cannot delete file %s", e->d_name);
			done++;
		}
		closedir(d);
		if (done != n)
			die("deleted %llu files of %u", (unsigned long long)done,
			    (unsigned)n);
	}
	for (i = 0; what != 2 && i < n; i++) {
		name = names + (size_t)(what ? order[i] : i) * TIO_NAME_MAX;
		if (what) {
			if (unlinkat(dfd, name, 0) < 0)
				die_errno("cannot delete file %s", name);
			continue;
		}
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC |
		    O_CLOEXEC, 0600);
		if (fd < 0) {
			snprintf(file, sizeof(file), "file %s", name);
			create_failed(dir, file);
		}
		close(fd);
	}
	tio_file_figures(n, vb_elapsed_s(t0), self_cpu() - cpu0, per_s,
	    cpu_pct);
}

/*
 * bonnie++'s -n test: sequential names created in order and deleted in
 * readdir() order; random names (random letters first) created in
 * order and deleted in a shuffled order.
 */
static int
run_creates(struct cfg *c, struct vb_iter *it)
{
	static const char *const title[4] = {
		"Sequential Create", "Sequential Delete", "Random Create",
		"Random Delete",
	};
	static const char *const name[4] = {
		"seq_create", "seq_delete", "rand_create", "rand_delete",
	};
	uint32_t n = (uint32_t)c->files, i;
	uint32_t *order = malloc(n * sizeof(*order));
	char *names = malloc((size_t)n * TIO_NAME_MAX), dir[PATH_MAX];
	uint64_t st = tio_seed(c->seed, 0);
	double per_s, cpu;
	int p, dfd;

	if (!order || !names)
		die("out of memory");
	/*
	 * --own-group: a name of its own each iteration, since ext4 picks
	 * a top-level folder's group from its name's hash.
	 */
	if (c->own_group)
		snprintf(dir, sizeof(dir), "%s/files.%ld.%d",
		    vb_iter_workdir(it), (long)getpid(), vb_iter_num(it));
	else
		snprintf(dir, sizeof(dir), "%s/files", vb_iter_workdir(it));
	if (mkdir(dir, 0700) < 0)
		create_failed(vb_iter_workdir(it), "folder files");
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		die_errno("cannot open %s", dir);
	printf("%u files of size 0 in one folder\n", n);
	for (p = 0; p < 4; p++) {
		if (p == 0 || p == 2)
			for (i = 0; i < n; i++)
				tio_name(names + (size_t)i * TIO_NAME_MAX,
				    TIO_NAME_MAX, i, p == 2, &st);
		if (p == 3)
			tio_order(order, n, c->seed);
		file_phase(dfd, dir, names, order, n, p == 1 ? 2 : p == 3,
		    &per_s, &cpu);
		printf("%-18s %10.0f files/s %6.1f%% CPU\n", title[p], per_s,
		    cpu);
		report(it, name[p], "per_s", per_s);
		report(it, name[p], "cpu", cpu);
	}
	close(dfd);
	rmdir(dir);
	free(names);
	free(order);
	return 0;
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;

	return c->creates ? run_creates(c, it) : run_io(c, it);
}

/* --creates: its own figures and headline */
static const struct vb_mode modes[] = {
	{ "creates", create_metrics, "seq_create_per_s" },
	{ 0 },
};

static const struct vb_bench tio = {
	.name = "tio",
	.summary = "tiobench's threaded sequential and random reads and "
	    "writes (--creates: bonnie++'s file creates and deletes)",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.headline = "seq_read_mbs",
	.modes = modes,
	.validate = validate,
	.setup = setup,
	.run = run,
};

VB_MAIN(tio)
