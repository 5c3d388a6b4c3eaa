/*
 * Memory limits and swap files (lib/memlimit.c, lib/swapfile.c): the
 * swap header, the one-line refusals, and memfill run inside MEM=64M
 * SWAP=256M, which must swap, and leave no cgroup and no swap file.
 * The tests that need root say so and are skipped without it.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memlimit.h"
#include "res.h"
#include "swapfile.h"

#define MiB (1ULL << 20)

static int
need_root(const char *test)
{
	if (geteuid() == 0)
		return 1;
	fprintf(stderr, "memlimit: %s skipped: needs root\n", test);
	return 0;
}

START_TEST(swap_header)
{
	char path[] = "/tmp/check_swaphdr.XXXXXX";
	unsigned char page[4096];
	uint32_t w[3];
	int fd = mkstemp(path);

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

/* In a child running as nobody: both refuse, naming root, one line. */
START_TEST(not_root_refused)
{
	int fds[2], status;
	char msg[1024] = "";
	ssize_t n;
	pid_t pid;

	if (!need_root("not_root_refused"))
		return;
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		struct vb_memlimit m;
		struct vb_swapfile s;
		char err[512];

		if (setgid(65534) < 0 || setuid(65534) < 0)
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
	n = read(fds[0], msg, sizeof(msg) - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_msg(strstr(msg, "memory limit needs root") != NULL, "%s",
	    msg);
	ck_assert_msg(strstr(msg, "swap file needs root") != NULL, "%s", msg);
}
END_TEST

START_TEST(tmpfs_cannot_hold_swap)
{
	struct vb_swapfile s;
	char err[512], path[64];

	if (!need_root("tmpfs_cannot_hold_swap"))
		return;
	if (access("/dev/shm", W_OK) < 0)
		return;
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

	if (!need_root("bad_limits"))
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

START_TEST(memfill_swaps_under_limit)
{
	struct vb_memlimit m;
	struct vb_swapfile s;
	struct vb_res r;
	char err[512], dir[] = "/var/tmp/check_memlimit.XXXXXX";
	char out[128], res[160], cg[4096], sw[4096];
	int status, col;
	pid_t pid;

	if (!need_root("memfill_swaps_under_limit"))
		return;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_msg(vb_memlimit_create(&m, 64 * MiB, 256 * MiB, err,
	    sizeof(err)) == 0, "%s", err);
	strcpy(cg, m.path);
	if (vb_swapfile_create(&s, dir, 256 * MiB, err, sizeof(err)) < 0) {
		vb_memlimit_remove(&m, err, sizeof(err));
		ck_abort_msg("%s", err);
	}
	strcpy(sw, s.path);
	ck_assert(in_proc_swaps(sw));
	snprintf(out, sizeof(out), "%s/memfill", dir);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		if (vb_memlimit_enter(&m, 0) < 0)
			_exit(126);
		setenv("VMBENCH_MEM_LIMIT", "64M", 1);
		setenv("VMBENCH_SWAP_LIMIT", "256M", 1);
		execl("bench/memfill", "memfill", "--percent", "80", "--write",
		    "--out", out, "--workdir", dir, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	ck_assert_int_eq(vb_swapfile_remove(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(vb_memlimit_remove(&m, err, sizeof(err)), 0);
	/* gone: the cgroup folder, the swap file, its /proc/swaps line */
	ck_assert_msg(access(cg, F_OK) < 0 && errno == ENOENT, "%s", cg);
	ck_assert_msg(access(sw, F_OK) < 0 && errno == ENOENT, "%s", sw);
	ck_assert(!in_proc_swaps(sw));
	ck_assert_int_eq(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);

	snprintf(res, sizeof(res), "%s.res", out);
	ck_assert_msg(vb_res_read(res, &r, err, sizeof(err)) == 0, "%s", err);
	/* 80% of 64M + 256M, nothing in use */
	col = vb_res_metric_index(&r, "bytes");
	ck_assert_double_eq(vb_res_get(&r, 0, col), 256.0 * MiB);
	/* 256M through a 64M limit: at least 128M must have gone to swap */
	col = vb_res_metric_index(&r, "pswpout");
	ck_assert_msg(vb_res_get(&r, 0, col) >= 128 * 1024, "pswpout %g kB",
	    vb_res_get(&r, 0, col));
	vb_res_free(&r);
	snprintf(res, sizeof(res), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(res), 0);
}
END_TEST

Suite *
memlimit_suite(void)
{
	Suite *s = suite_create("memlimit");
	TCase *tc = tcase_create("memlimit");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, swap_header);
	tcase_add_test(tc, not_root_refused);
	tcase_add_test(tc, tmpfs_cannot_hold_swap);
	tcase_add_test(tc, bad_limits);
	tcase_add_test(tc, memfill_swaps_under_limit);
	suite_add_tcase(s, tc);
	return s;
}
