/*
 * check_memlimit.c - memory limits and swap files (src/runner/memlimit.c,
 * src/runner/swapfile.c): the swap header and the one-line refusals; then
 * bench/vmrun --mem 64M --swap 64M running memfill (with the probe beside
 * it), which must swap, record both in meta and leave no cgroup and no
 * swap file behind, also after Ctrl-C and after the benchmark is
 * OOM-killed in the limit.  64M of memory, not less: under AddressSanitizer
 * (make SANITIZE=1) memfill's shadow memory is in the limit too.  The tests
 * that need root are skipped without it (tu_skip(), counted by the
 * runner); not_root_refused runs as user nobody either way.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memlimit.h"
#include "res.h"
#include "swapfile.h"
#include "testutil.h"

#define MiB (1ULL << 20)

/* Root, else the running test is skipped (the caller returns). */
static int
need_root(void)
{
	if (geteuid() == 0)
		return 1;
	tu_skip("needs root");
	return 0;
}

START_TEST(swap_header)
{
	char path[600];
	unsigned char page[4096];
	uint32_t w[3];
	int fd;

	snprintf(path, sizeof(path), "%s/swaphdr.XXXXXX", tu_root());
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(vb_swapfile_header(fd, 1000 * 4096, 4096), 0);
	ck_assert_int_eq(pread(fd, page, sizeof(page), 0), 4096);
	close(fd);
	unlink(path);
	memcpy(w, page + 1024, sizeof(w));
	ck_assert_uint_eq(w[0], 1);		/* version */
	ck_assert_uint_eq(w[1], 999);		/* last page */
	ck_assert_uint_eq(w[2], 0);		/* bad pages */
	ck_assert_int_eq(memcmp(page + 4096 - 10, "SWAPSPACE2", 10), 0);
}
END_TEST

/*
 * In a child running as nobody (root drops its privileges first; any
 * other user has none to drop): both refuse, naming root, one line.
 */
START_TEST(not_root_refused)
{
	int fds[2], status;
	char msg[1024] = "";
	size_t len;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		struct vb_memlimit m;
		struct vb_swapfile s;
		char err[512];

		if (geteuid() == 0 && (setgroups(0, NULL) < 0 ||
		    setgid(65534) < 0 || setuid(65534) < 0))
			_exit(2);
		if (geteuid() == 0 || getuid() == 0)
			_exit(2);
		if (vb_memlimit_create(&m, 64 * MiB, 0, err, sizeof(err)) == 0)
			_exit(3);
		dprintf(fds[1], "%s\n", err);
		if (vb_swapfile_create(&s, "/tmp", 1 * MiB, err,
		    sizeof(err)) == 0)
			_exit(4);
		dprintf(fds[1], "%s\n", err);
		_exit(0);
	}
	close(fds[1]);
	/* both lines: read to end-of-file, not just the first write */
	len = 0;
	while ((n = read(fds[0], msg + len, sizeof(msg) - 1 - len)) > 0)
		len += (size_t)n;
	msg[len] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "child: status 0x%x (exit 2: still root)", status);
	ck_assert_msg(strstr(msg, "memory limit needs root") != NULL, "%s",
	    msg);
	ck_assert_msg(strstr(msg, "swap file needs root") != NULL, "%s", msg);
}
END_TEST

START_TEST(tmpfs_cannot_hold_swap)
{
	struct vb_swapfile s;
	char err[512], path[64];

	if (!need_root())
		return;
	if (access("/dev/shm", W_OK) < 0 || !tu_on_tmpfs("/dev/shm")) {
		tu_skip("no tmpfs to write in at /dev/shm");
		return;
	}
	ck_assert_int_lt(vb_swapfile_create(&s, "/dev/shm", 1 * MiB, err,
	    sizeof(err)), 0);
	ck_assert_msg(strstr(err, "tmpfs filesystem of /dev/shm cannot hold "
	    "swap") != NULL, "%s", err);
	ck_assert_ptr_null(strchr(err, '\n'));
	snprintf(path, sizeof(path), "/dev/shm/vmbench-swap.%ld",
	    (long)getpid());
	ck_assert_int_lt(access(path, F_OK), 0);
	ck_assert_int_eq(s.created, 0);
	ck_assert_int_eq(s.active, 0);
}
END_TEST

START_TEST(bad_limits)
{
	struct vb_memlimit m;
	struct vb_swapfile s;
	char err[512];

	if (!need_root())
		return;
	ck_assert_int_lt(vb_memlimit_create(&m, 1 * MiB, VB_MEMLIMIT_NOSWAP,
	    err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "below 4M") != NULL, "%s", err);
	ck_assert_int_lt(vb_swapfile_create(&s, "/tmp", 4096, err,
	    sizeof(err)), 0);
	ck_assert_msg(strstr(err, "out of range") != NULL, "%s", err);
	ck_assert_int_lt(vb_swapfile_create(&s, "/nonexistent", 1 * MiB, err,
	    sizeof(err)), 0);
	ck_assert_msg(strstr(err, "/nonexistent") != NULL, "%s", err);
}
END_TEST

/* Is @path listed in /proc/swaps? */
static int
in_proc_swaps(const char *path)
{
	char buf[8192];
	int fd = open("/proc/swaps", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return strstr(buf, path) != NULL;
}

/*
 * Made by an unchecked fixture under the run's root (on disk unless
 * TMPDIR says otherwise: the swap file lives in it), removed by it even
 * when a test fails.
 */
static char basedir[256];

static void
base_setup(void)
{
	tu_mkdtemp(basedir, sizeof(basedir), "memlimit");
}

static void
base_teardown(void)
{
	tu_rmtree(basedir);
}

/*
 * Root, and a root folder that can hold a swap file; else the running
 * test is skipped (the caller returns).
 */
static int
need_swap(void)
{
	if (!need_root())
		return 0;
	if (tu_on_tmpfs(basedir)) {
		tu_skip("%s is on tmpfs, which cannot hold a swap file (set "
		    "TMPDIR to a folder on disk)", basedir);
		return 0;
	}
	return 1;
}

/* A run of bench/vmrun under MEM=64M SWAP=64M in a fresh folder. */
struct run {
	char dir[512];
	char meta[600];
	int status;		/* vmrun's exit status */
};

/*
 * Write @conf and start vmrun on it; with @sig, send it that signal
 * once res/t/@started exists (a file the benchmark writes once its own
 * signal handlers are in place, the probe beside it already running:
 * the runner starts the benchmark once the probe says it is ready).
 * Leaves the folder for the checks.
 */
static void
vmrun(struct run *r, const char *conf, int sig, const char *started)
{
	char cpath[600], res[600], work[600];
	FILE *f;
	int status;
	pid_t pid;

	snprintf(r->dir, sizeof(r->dir), "%s/t.XXXXXX", basedir);
	ck_assert_ptr_nonnull(mkdtemp(r->dir));
	snprintf(cpath, sizeof(cpath), "%s/t.conf", r->dir);
	snprintf(res, sizeof(res), "%s/res", r->dir);
	snprintf(work, sizeof(work), "%s/work", r->dir);
	snprintf(r->meta, sizeof(r->meta), "%s/res/t/run1/meta", r->dir);
	f = fopen(cpath, "w");
	ck_assert_ptr_nonnull(f);
	fputs(conf, f);
	fclose(f);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execl("bench/vmrun", "vmrun", "--kernel", "t", "--config",
		    cpath, "--results", res, "--workdir", work, "--mem", "64M",
		    "--swap", "64M", (char *)NULL);
		_exit(127);
	}
	if (sig) {
		char path[700];
		pid_t ended = 0;

		/* however long the swap file or the machine lock takes */
		snprintf(path, sizeof(path), "%s/%s", res, started);
		while (access(path, F_OK) < 0 &&
		    (ended = waitpid(pid, &status, WNOHANG)) == 0)
			usleep(10000);
		if (ended == pid) {
			r->status = WIFEXITED(status) ? WEXITSTATUS(status) :
			    -1;
			ck_abort_msg("vmrun ended (status %d) before %s was "
			    "there", r->status, path);
		}
		kill(pid, sig);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The value of @key in the run's meta, into @buf ("" when absent). */
static char *
meta(const struct run *r, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(r->meta, "r");
	char line[4400];
	size_t k = strlen(key);

	buf[0] = '\0';
	ck_assert_msg(f != NULL, "no %s", r->meta);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, k) == 0 && line[k] == '=') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line + k + 1);
		}
	fclose(f);
	return buf;
}

/*
 * What every exit path must leave: meta recording the limit and the
 * swap file, and neither of them left on the machine.
 */
static void
check_gone(const struct run *r)
{
	char cg[4400], sw[4400], *sp;

	ck_assert_str_eq(meta(r, "mem_limit", cg, sizeof(cg)), "64M");
	meta(r, "mem_limit_cgroup", cg, sizeof(cg));
	meta(r, "swap_file", sw, sizeof(sw));
	/* "cgroup v1 PATH limit 64M swap 64M", "PATH 64M" */
	ck_assert_msg(strncmp(cg, "cgroup v", 8) == 0, "%s", cg);
	memmove(cg, cg + 10, strlen(cg + 10) + 1);
	ck_assert_ptr_nonnull(sp = strstr(cg, " limit 64M swap 64M"));
	*sp = '\0';
	ck_assert_ptr_nonnull(sp = strstr(sw, " 64M"));
	*sp = '\0';
	ck_assert_msg(access(cg, F_OK) < 0 && errno == ENOENT,
	    "cgroup %s left behind", cg);
	ck_assert_msg(access(sw, F_OK) < 0 && errno == ENOENT,
	    "swap file %s left behind", sw);
	ck_assert_msg(!in_proc_swaps(sw), "%s still in /proc/swaps", sw);
}

static void
rm_run(const struct run *r)
{
	ck_assert_int_eq(tu_rmtree(r->dir), 0);
}

static struct vb_res *
read_res(const struct run *r, const char *name, struct vb_res *res)
{
	char path[700], err[512];

	snprintf(path, sizeof(path), "%s/res/t/run1/%s.res", r->dir, name);
	ck_assert_msg(vb_res_read(path, res, err, sizeof(err)) == 0, "%s",
	    err);
	return res;
}

START_TEST(memfill_swaps_under_limit)
{
	struct run r;
	struct vb_res res;
	int col;

	if (!need_swap())
		return;
	vmrun(&r, "iterations 1\nmemfill --percent 75 --write with=probe\n",
	    0, NULL);
	ck_assert_int_eq(r.status, 0);
	check_gone(&r);
	read_res(&r, "memfill", &res);
	ck_assert_str_eq(res.status, "complete");
	/* 75% of 64M + 64M, nothing in use */
	col = vb_res_metric_index(&res, "bytes");
	ck_assert_double_eq(vb_res_get(&res, 0, col), 96.0 * MiB);
	/* 96M through a 64M limit: at least 32M must have gone to swap */
	col = vb_res_metric_index(&res, "pswpout");
	ck_assert_msg(vb_res_get(&res, 0, col) >= 32 * 1024, "pswpout %g kB",
	    vb_res_get(&res, 0, col));
	vb_res_free(&res);
	/* the probe ran beside it, for the whole run, and said so */
	read_res(&r, "probe@memfill", &res);
	ck_assert_str_eq(res.status, "complete");
	ck_assert_str_eq(res.variant, "memfill");
	ck_assert_double_gt(vb_res_get(&res, 0, vb_res_metric_index(&res,
	    "total_s")), 0);
	vb_res_free(&res);
	rm_run(&r);
}
END_TEST

START_TEST(removed_after_interrupt)
{
	struct run r;
	struct vb_res res;

	if (!need_swap())
		return;
	/* 50 fills: far longer than the wait for the first to start */
	vmrun(&r, "iterations 50\nmemfill --percent 75 --write with=probe\n",
	    SIGINT, "t/run1/memfill.vmstat");
	ck_assert_int_eq(r.status, 130);
	check_gone(&r);
	read_res(&r, "probe@memfill", &res);
	ck_assert_str_eq(res.status, "interrupted");
	vb_res_free(&res);
	rm_run(&r);
}
END_TEST

START_TEST(removed_after_failure)
{
	struct run r;
	struct vb_res res;

	if (!need_swap())
		return;
	/* 256M forced into 64M + 64M: the OOM killer, inside the cgroup */
	vmrun(&r, "iterations 1\nmemfill --bytes 256M --force --write\n", 0,
	    NULL);
	ck_assert_int_eq(r.status, 1);
	check_gone(&r);
	read_res(&r, "memfill", &res);
	ck_assert_str_eq(res.status, "failed");
	vb_res_free(&res);
	rm_run(&r);
}
END_TEST

Suite *
memlimit_suite(void)
{
	Suite *s = suite_create("memlimit");
	TCase *tc = tu_tcase_alone("memlimit");

	tcase_add_unchecked_fixture(tc, base_setup, base_teardown);
	/* a hang guard: a swap file on a loaded disk takes its time */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, swap_header);
	tcase_add_test(tc, not_root_refused);
	tcase_add_test(tc, tmpfs_cannot_hold_swap);
	tcase_add_test(tc, bad_limits);
	tcase_add_test(tc, memfill_swaps_under_limit);
	tcase_add_test(tc, removed_after_interrupt);
	tcase_add_test(tc, removed_after_failure);
	suite_add_tcase(s, tc);
	return s;
}
