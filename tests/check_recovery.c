/*
 * The state file a run keeps (src/runner/state.c) and the recovery from
 * a run that died without cleaning up: a child that leaves changed
 * settings, a result folder and a work folder behind; a pid reused by
 * another process; and, as root, a vmrun under MEM= and SWAP= killed
 * with SIGKILL, cleaned up by the next (vmrun --clean-stale).
 */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "knob.h"
#include "meta.h"
#include "state.h"
#include "testutil.h"

/* Run a command line through the shell: tests/testutil.h. */
#define sh(...)	tu_sh_in(NULL, __VA_ARGS__)

/* The first line of @path starting with @key, its rest into @val. */
static int
state_item(const char *path, const char *key, char *val, size_t len)
{
	char line[4500];
	FILE *f = fopen(path, "r");
	size_t n = strlen(key);
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (strncmp(line, key, n) == 0 && line[n] == ' ') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(val, len, "%s", line + n + 1);
			found = 1;
		}
	fclose(f);
	return found;
}

/*
 * A run that dies without cleaning up (as after SIGKILL): a child
 * saves a state naming changed knobs and a result folder, changes the
 * knobs, leaves a benchmark work folder, and _exit()s.  Recovery must
 * undo all of it and leave a live run's state alone.
 */
START_TEST(state_recover)
{
	struct vb_knobs ks;
	struct vb_state mine;
	char err[512], v[256], work[300], path[600];
	int status, n, i;
	struct vb_kv *kv;
	pid_t pid;

	tu_fake_settings();
	tu_fake("results/x/meta", "vmbench_meta=1\nlabel=x\nstatus=running\n");
	snprintf(work, sizeof(work), "%s/work", tu_dir);
	mkdir(work, 0755);
	/* the knobs are the fake tree's: recovery takes them under it */
	setenv("VMBENCH_SYSROOT", tu_dir, 1);
	ks = (struct vb_knobs){ .root = tu_dir };
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "thp=never,vm.swappiness=1",
	    err, sizeof(err)), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct vb_state st;

		if (vb_state_begin(&st, work) < 0)
			_exit(2);
		snprintf(st.results[0], sizeof(st.results[0]), "%s/results/x",
		    tu_dir);
		if (vb_knobs_save(&ks, err, sizeof(err)) < 0)
			_exit(3);
		st.knobs = &ks;
		if (vb_state_save(&st) < 0 ||
		    vb_knobs_apply(&ks, 0, err, sizeof(err)) < 0)
			_exit(4);
		snprintf(path, sizeof(path), "%s/vmbench-forkbomb.%ld", work,
		    (long)getpid());
		mkdir(path, 0700);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "1");
	/* a live run (this one) is left alone */
	ck_assert_int_eq(vb_state_begin(&mine, work), 0);
	ck_assert_int_eq(tu_count_except(work, ""), 3);
	ck_assert_int_eq(vb_state_recover(work, work, NULL, 1), 2);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_str_eq(tu_line(
	    "sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)),
	    "madvise");
	snprintf(path, sizeof(path), "%s/results/x/meta", tu_dir);
	ck_assert_int_eq(vb_meta_read(path, &kv, &n, err, sizeof(err)), 0);
	ck_assert_str_eq(vb_meta_get(kv, n, "status"), "interrupted");
	vb_meta_free(kv, n);
	/* only the live run's state file is left */
	ck_assert_int_eq(tu_count_except(work, ""), 1);
	ck_assert_int_eq(access(mine.path, F_OK), 0);
	vb_state_end(&mine);
	ck_assert_int_eq(tu_count_except(work, ""), 0);
	/* nothing left: nothing to do */
	ck_assert_int_eq(vb_state_recover(work, work, NULL, 1), 0);
	for (i = 0; i < ks.n; i++)
		ks.k[i].changed = 0;
	vb_knobs_free(&ks);
}
END_TEST

/*
 * A state file whose pid runs but is not the run that wrote it (its
 * start time differs: the pid was reused) is cleaned up; the state of
 * a live run is left alone.
 */
START_TEST(state_pid_reused)
{
	char work[300], path[600], line[256];
	int fds[2];
	FILE *f;
	pid_t pid;

	tu_fake("results/y/meta", "vmbench_meta=1\nlabel=y\nstatus=running\n");
	snprintf(work, sizeof(work), "%s/work", tu_dir);
	mkdir(work, 0755);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct vb_state st;
		char c = 0;

		close(fds[1]);
		if (vb_state_begin(&st, work) < 0)
			_exit(2);
		snprintf(st.results[0], sizeof(st.results[0]), "%s/results/y",
		    tu_dir);
		if (vb_state_save(&st) < 0)
			_exit(3);
		/* alive until the parent closes the pipe */
		if (read(fds[0], &c, 1) < 0)
			_exit(4);
		_exit(0);
	}
	close(fds[0]);
	snprintf(path, sizeof(path), "%s/vmrun.%ld.state", work, (long)pid);
	while (access(path, F_OK) < 0 || !state_item(path, "results", line,
	    sizeof(line)))
		usleep(10000);
	/* its own start time, not 0 */
	ck_assert(state_item(path, "start", line, sizeof(line)));
	ck_assert_msg(strtoull(line, NULL, 10) > 0, "start %s", line);
	ck_assert_int_eq(vb_state_recover(work, work, NULL, 1), 0);
	ck_assert_int_eq(access(path, F_OK), 0);
	/* the same pid, another start: a reused pid */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "vmbench-state 1\npid %ld\nstart 1\nresults %s/results/y"
	    "\n", (long)pid, tu_dir);
	fclose(f);
	ck_assert_int_eq(vb_state_recover(work, work, NULL, 1), 1);
	ck_assert_int_lt(access(path, F_OK), 0);
	ck_assert_int_eq(sh("grep -q status=interrupted %s/results/y/meta",
	    tu_dir), 0);
	close(fds[1]);
	waitpid(pid, NULL, 0);
}
END_TEST

/*
 * As root: a run under MEM= and SWAP= killed with SIGKILL leaves its
 * cgroup and swap file; the next vmrun (--clean-stale) removes both,
 * marks its meta interrupted, and leaves the work folder empty.
 */
START_TEST(sigkill_then_next_run)
{
	char state[700], cg[4500] = "", swp[4500] = "", v[256], dir[600];
	char wd[600];
	int status, i;
	pid_t pid;

	if (geteuid() != 0) {
		tu_skip("needs root");
		return;
	}
	tu_fake("k.conf", "iterations 100\nmemfill --bytes 96M --write\n");
	snprintf(wd, sizeof(wd), "%s/w", tu_dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char conf[600], res[600];
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		snprintf(conf, sizeof(conf), "%s/k.conf", tu_dir);
		snprintf(res, sizeof(res), "%s/r", tu_dir);
		execl("bench/vmrun", "vmrun", "--kernel", "k", "--mem", "64M",
		    "--swap", "256M", "--config", conf, "--results", res,
		    "--workdir", wd, (char *)NULL);
		_exit(127);
	}
	/* root's state folder (state.h) */
	snprintf(state, sizeof(state), "/run/vmbench/vmrun.%ld.state",
	    (long)pid);
	/* wait until the cgroup and the swap file are in the state */
	for (i = 0; i < 1000 && !(state_item(state, "cgroup", cg,
	    sizeof(cg)) && state_item(state, "swapfile", swp, sizeof(swp)));
	    i++)
		usleep(10000);
	if (!cg[0] || !swp[0]) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		ck_abort_msg("the run never made its cgroup and swap file");
	}
	/*
	 * and until memfill runs: it writes its .vmstat once its signal
	 * handlers and work folder are in place
	 */
	snprintf(dir, sizeof(dir), "%s/r/k/run1/memfill.vmstat", tu_dir);
	for (i = 0; i < 3000 && access(dir, F_OK) < 0 &&
	    waitpid(pid, &status, WNOHANG) == 0; i++)
		usleep(10000);
	if (access(dir, F_OK) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		ck_abort_msg("memfill never started (%s)", dir);
	}
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	/* "1 /sys/fs/cgroup/memory/.../vmbench.PID": left behind */
	ck_assert_int_eq(access(strchr(cg, ' ') + 1, F_OK), 0);
	ck_assert_int_eq(access(swp, F_OK), 0);
	ck_assert_int_eq(sh("bench/vmrun --clean-stale --workdir %s "
	    "2>%s/err", wd, tu_dir), 0);
	ck_assert_int_eq(sh("grep -q 'a run killed earlier (pid %ld) left the "
	    "machine changed: marked .*interrupted.*, removed its "
	    "memory cgroup, removed its swap file' %s/err", (long)pid,
	    tu_dir), 0);
	ck_assert_int_lt(access(strchr(cg, ' ') + 1, F_OK), 0);
	ck_assert_int_lt(access(swp, F_OK), 0);
	ck_assert_int_ne(sh("grep -q 'vmbench-swap.%ld' /proc/swaps",
	    (long)pid), 0);
	snprintf(dir, sizeof(dir), "%s/r/k/run1", tu_dir);
	ck_assert_str_eq(tu_meta_val(dir, "status", v, sizeof(v)),
	    "interrupted");
	/* the benchmark stopped on its own (SIGTERM from the kernel) */
	for (i = 0; i < 500 && tu_count_except(wd, "") > 0; i++)
		usleep(10000);
	ck_assert_int_eq(tu_count_except(wd, ""), 0);
	/* nothing left: the next clean-up has nothing to say */
	ck_assert_int_eq(sh("bench/vmrun --clean-stale --workdir %s 2>&1 | "
	    "grep -q 'nothing left behind'", wd), 0);
}
END_TEST

Suite *
recovery_suite(void)
{
	Suite *s = suite_create("recovery");
	TCase *tc;

	tc = tu_tcase("recovery");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, state_recover);
	tcase_add_test(tc, state_pid_reused);
	suite_add_tcase(s, tc);

	/* a run under MEM= and SWAP= killed, cleaned up by the next */
	tc = tu_tcase_alone("e2e");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, sigkill_then_next_run);
	suite_add_tcase(s, tc);
	return s;
}
