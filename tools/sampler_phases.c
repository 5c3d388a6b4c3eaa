/*
 * sampler_phases.c - where the vmstat sampler's CPU time goes, phase by
 * phase (run by tools/overhead, or alone).
 *
 *	tools/sampler_phases [SECONDS [HZ]]	(defaults: 10 s at 10 Hz)
 *
 * The sampler's own source (src/lib/vmstat.c) is compiled into this
 * program with its system calls wrapped, and runs as the harness runs
 * it: vb_sampler_start(), a process of its own, mlockall'd, writing
 * its rows to a file.  Each wrapper takes the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID, the scheduler's sum_exec_runtime, as
 * /proc/PID/schedstat) around the call: the futex wait that sleeps to
 * the next deadline (the wake-up), each pread() by file, and the stdio
 * calls that write the rows (fwrite, fflush).  What the sampler's
 * total CPU time holds beyond these is its own code: parsing,
 * formatting, the loop.  A clock read costs a system call: its cost,
 * measured first, is taken off each phase and the rest, so the phases
 * add up to the sampler's total.  The wrappers only time; the code
 * and what it reads and writes are the library's.
 */
#include <stdarg.h>
#include <stdio.h>

/* the wrappers, declared before the library's source uses them */
static long ph_syscall(long nr, ...);
static ssize_t ph_pread(int fd, void *buf, size_t n, off_t off);
static size_t ph_fwrite(const void *p, size_t sz, size_t n, FILE *f);
static int ph_fflush(FILE *f);

#include <sys/syscall.h>
#include <unistd.h>
#define syscall ph_syscall
#define pread ph_pread
#define fwrite ph_fwrite
#define fflush ph_fflush
#include "vmstat.c"
#undef syscall
#undef pread
#undef fwrite
#undef fflush

enum { WAKE, RD_VMSTAT, RD_STAT, RD_MEMINFO, WRITE, NPH };
static const char *const ph_name[NPH] = {
	"wake-up (futex wait to the deadline)", "pread /proc/vmstat",
	"pread /proc/stat", "pread /proc/meminfo", "write the rows (stdio)",
};

struct ph_acc {				/* a shared page: the sampler's counts */
	int on;
	uint64_t ns[NPH];
	long calls[NPH];
};

static struct ph_acc *acc;
static struct vb_sampler smp;
static uint64_t clock_ns;		/* what one clock read costs */

/* Count @t0's phase @ph: the time since @t0 less one clock read. */
static void
ph_add(int ph, uint64_t t0)
{
	uint64_t d = thread_cpu_ns() - t0;

	if (!acc || !acc->on)
		return;
	acc->ns[ph] += d > clock_ns ? d - clock_ns : 0;
	acc->calls[ph]++;
}

static long
ph_syscall(long nr, ...)
{
	long a[6];
	uint64_t t0;
	va_list ap;
	long r;
	int i, e;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr != SYS_futex || (a[1] & FUTEX_CMD_MASK) != FUTEX_WAIT_BITSET)
		return syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	t0 = thread_cpu_ns();
	r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	e = errno;
	ph_add(WAKE, t0);
	errno = e;
	return r;
}

static ssize_t
ph_pread(int fd, void *buf, size_t n, off_t off)
{
	uint64_t t0 = thread_cpu_ns();
	ssize_t r = pread(fd, buf, n, off);
	int e = errno;

	ph_add(fd == smp.proc.fd_stat ? RD_STAT : fd == smp.proc.fd_meminfo ?
	    RD_MEMINFO : RD_VMSTAT, t0);
	errno = e;
	return r;
}

static size_t
ph_fwrite(const void *p, size_t sz, size_t n, FILE *f)
{
	uint64_t t0 = thread_cpu_ns();
	size_t r = fwrite(p, sz, n, f);
	int e = errno;

	ph_add(WRITE, t0);
	errno = e;
	return r;
}

static int
ph_fflush(FILE *f)
{
	uint64_t t0 = thread_cpu_ns();
	int r = fflush(f);
	int e = errno;

	ph_add(WRITE, t0);
	errno = e;
	return r;
}

int
main(int argc, char **argv)
{
	char path[] = "/tmp/vmbench-phases.XXXXXX";
	double secs = argc > 1 ? strtod(argv[1], NULL) : 10;
	double hz = argc > 2 ? strtod(argv[2], NULL) : 10;
	uint64_t t, sum = 0, clocks = 0, total, n;
	double per, calls;
	FILE *out;
	int fd, i;

	vb_set_progname("sampler_phases");
	if (argc > 3 || !(secs >= 1 && secs <= 3600) ||
	    !(hz >= 1 && hz <= 100)) {
		fprintf(stderr, "usage: tools/sampler_phases [SECONDS (1-3600) "
		    "[HZ (1-100)]]\n");
		return 2;
	}
	/* one clock read, in a tight loop */
	t = thread_cpu_ns();
	for (i = 0; i < 1000; i++)
		(void)thread_cpu_ns();
	clock_ns = (thread_cpu_ns() - t) / 1001;
	acc = mmap(NULL, sizeof(*acc), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (acc == MAP_FAILED)
		die_errno("mmap");
	if ((fd = mkstemp(path)) < 0)
		die_errno("cannot create %s", path);
	unlink(path);
	if (!(out = fdopen(fd, "w")))
		die_errno("fdopen");
	if (vb_sampler_start(&smp, "/proc", out, (uint64_t)(1e9 / hz)) < 0)
		die_errno("cannot start the sampler");
	/* the sampler's first wake-up is a deadline away: counted whole */
	acc->on = 1;
	vb_sleep_until(vb_now_ns() + (uint64_t)(secs * 1e9));
	vb_sampler_stop(&smp);
	fclose(out);
	if (smp.samples <= 0)
		die("the sampler took no sample");
	n = (uint64_t)smp.samples;
	printf("  where a %.0f Hz sampler's CPU time goes (%ld samples, "
	    "tools/sampler_phases;\n  a clock read, %.1f us, taken off "
	    "each):\n", hz, smp.samples, (double)clock_ns / 1e3);
	printf("    %-38s %9s %11s\n", "", "calls", "us/sample");
	for (i = 0; i < NPH; i++) {
		calls = (double)acc->calls[i] / (double)n;
		per = (double)acc->ns[i] / 1e3 / (double)n;
		sum += acc->ns[i];
		clocks += 2 * (uint64_t)acc->calls[i] * clock_ns;
		printf("    %-38s %9.2f %11.1f\n", ph_name[i], calls, per);
	}
	/* the wrappers' two clock reads a call are nobody's phase */
	total = smp.cpu_ns > clocks ? smp.cpu_ns - clocks : 0;
	t = total > sum ? total - sum : 0;
	printf("    %-38s %9s %11.1f\n", "its own code (parse, format, loop)",
	    "", (double)t / 1e3 / (double)n);
	printf("    %-38s %9s %11.1f\n", "total, the sampler's thread CPU", "",
	    (double)total / 1e3 / (double)n);
	return 0;
}
