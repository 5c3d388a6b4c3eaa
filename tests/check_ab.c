/*
 * make ab's pieces: the settings parser and writer (src/runner/knob.h) on a
 * fake /proc/sys and /sys tree, the ABBA schedule (src/runner/ab.h),
 * the state file a SIGKILLed run leaves and its recovery
 * (src/runner/state.h), the cgroup counters on fixture files and the foreign
 * CPU figure (src/lib/scope.h), and bench/vmrun --a/--b end to end on the
 * fake tree (and on the real one, as root, without changing a value).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "knob.h"
#include "meta.h"
#include "res.h"
#include "scope.h"
#include "state.h"
#include "testutil.h"
#include "ab.h"

/* Make tu_dir/@rel (and its folders) holding @text. */
static void
fake(const char *rel, const char *text)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", tu_dir, rel);
	for (p = path + strlen(tu_dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	tu_write(path, sizeof(path), rel, text);
}

/* The first line of tu_dir/@rel. */
static char *
slurp(const char *rel, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tu_dir, rel);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return buf;
}

/* Run a command line through the shell: tests/testutil.h. */
#define sh(...)	tu_sh_in(NULL, __VA_ARGS__)
static int state_item(const char *path, const char *key, char *val,
    size_t len);

/* A fake tree: swappiness 60, THP madvise, zswap N. */
static void
fake_tree(void)
{
	fake("proc/sys/vm/swappiness", "60\n");
	fake("proc/sys/vm/min_free_kbytes", "67584\n");
	fake("sys/kernel/mm/transparent_hugepage/enabled",
	    "always [madvise] never\n");
	fake("sys/module/zswap/parameters/enabled", "N\n");
}

static void
knobs_init(struct vb_knobs *ks)
{
	memset(ks, 0, sizeof(*ks));
	ks->root = tu_dir;
}

START_TEST(parse_names)
{
	struct vb_knobs ks;
	char err[512];

	knobs_init(&ks);
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "thp=never,vm.swappiness=0,"
	    "zswap=Y,min_free_kbytes=1000,zswap.compressor=lz4,"
	    "/proc/sys/vm/dirty_ratio=5,thp.16kB=never", err, sizeof(err)),
	    0);
	ck_assert_int_eq(ks.n, 7);
	ck_assert(strstr(ks.k[6].path, "/sys/kernel/mm/transparent_hugepage/"
	    "hugepages-16kB/enabled"));
	ck_assert(strstr(ks.k[0].path,
	    "/sys/kernel/mm/transparent_hugepage/enabled"));
	ck_assert(strstr(ks.k[1].path, "/proc/sys/vm/swappiness"));
	ck_assert(strstr(ks.k[2].path, "/sys/module/zswap/parameters/enabled"));
	ck_assert(strstr(ks.k[3].path, "/proc/sys/vm/min_free_kbytes"));
	ck_assert(strstr(ks.k[4].path, "/zswap/parameters/compressor"));
	ck_assert(strstr(ks.k[5].path, "/proc/sys/vm/dirty_ratio"));
	ck_assert_str_eq(ks.k[1].val[0], "0");
	/* B shares A's knob: one entry, two values */
	ck_assert_int_eq(vb_knobs_parse(&ks, 1, "vm.swappiness=100", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(ks.n, 7);
	ck_assert_str_eq(ks.k[1].val[1], "100");
	vb_knobs_free(&ks);
}
END_TEST

START_TEST(parse_refuses)
{
	static const char *const bad[] = {
		"thp", "=1", "vm.swappiness=", "../etc/passwd=1",
		"/etc/passwd=x", "vm.swap piness=1", "thp=a\tb",
		"vm.swappiness=1,vm.swappiness=2", "", "sys/kernel=1",
		"/proc/sys/../../etc/x=1",
	};
	struct vb_knobs ks;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		knobs_init(&ks);
		err[0] = '\0';
		ck_assert_msg(vb_knobs_parse(&ks, 0, bad[i], err,
		    sizeof(err)) < 0, "accepted '%s'", bad[i]);
		ck_assert_msg(err[0] && !strchr(err, '\n'), "'%s': '%s'",
		    bad[i], err);
		vb_knobs_free(&ks);
	}
}
END_TEST

START_TEST(check_apply_restore)
{
	struct vb_knobs ks;
	char err[512], v[256];

	fake_tree();
	knobs_init(&ks);
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "thp=never,vm.swappiness=0",
	    err, sizeof(err)), 0);
	ck_assert_int_eq(vb_knobs_parse(&ks, 1, "thp=always", err,
	    sizeof(err)), 0);
	ck_assert_msg(vb_knobs_check(&ks, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(ks.k[0].orig, "madvise");
	ck_assert_str_eq(ks.k[1].orig, "60");
	/* the check wrote 0 and then 60 back */
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_int_eq(vb_knobs_apply(&ks, 0, err, sizeof(err)), 0);
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "0");
	ck_assert_str_eq(slurp("sys/kernel/mm/transparent_hugepage/enabled", v,
	    sizeof(v)), "never");
	/* B leaves swappiness at its original value */
	ck_assert_int_eq(vb_knobs_apply(&ks, 1, err, sizeof(err)), 0);
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_str_eq(slurp("sys/kernel/mm/transparent_hugepage/enabled", v,
	    sizeof(v)), "always");
	ck_assert_int_eq(vb_knobs_restore(&ks), 0);
	ck_assert_str_eq(slurp("sys/kernel/mm/transparent_hugepage/enabled", v,
	    sizeof(v)), "madvise");
	ck_assert_str_eq(vb_knobs_describe(&ks, 0, v, sizeof(v)),
	    "thp=never,vm.swappiness=0");
	vb_knobs_free(&ks);
}
END_TEST

START_TEST(check_refuses)
{
	struct vb_knobs ks;
	char err[512];

	fake_tree();
	knobs_init(&ks);
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "thp=sometimes", err,
	    sizeof(err)), 0);
	ck_assert_int_lt(vb_knobs_check(&ks, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "not one of the choices (always madvise "
	    "never)"), "%s", err);
	vb_knobs_free(&ks);
	knobs_init(&ks);
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "vm.no_such_knob=1", err,
	    sizeof(err)), 0);
	ck_assert_int_lt(vb_knobs_check(&ks, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "no such setting"), "%s", err);
	vb_knobs_free(&ks);
}
END_TEST

START_TEST(schedule)
{
	static const char *const orders[] = { "ABBA", "AB", "BA", "AABB",
	    "ABBABAAB" };
	char out[256], err[256];
	size_t o;
	int n, k;

	vb_ab_schedule("ABBA", 3, out);
	ck_assert_str_eq(out, "ABBAAB");
	vb_ab_schedule("ABBA", 4, out);
	ck_assert_str_eq(out, "ABBAABBA");
	vb_ab_schedule("AABB", 1, out);
	ck_assert_str_eq(out, "AB");
	for (o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		ck_assert_int_eq(vb_ab_order_ok(orders[o], err, sizeof(err)),
		    0);
		for (n = 1; n <= 60; n++) {
			int a = 0;

			vb_ab_schedule(orders[o], n, out);
			ck_assert_int_eq((int)strlen(out), 2 * n);
			for (k = 0; out[k]; k++)
				a += out[k] == 'A';
			ck_assert_int_eq(a, n);
		}
	}
	ck_assert_int_lt(vb_ab_order_ok("ABA", err, sizeof(err)), 0);
	ck_assert_int_lt(vb_ab_order_ok("AABA", err, sizeof(err)), 0);
	ck_assert_int_lt(vb_ab_order_ok("AC", err, sizeof(err)), 0);
	ck_assert_int_lt(vb_ab_order_ok("", err, sizeof(err)), 0);
}
END_TEST

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

	fake_tree();
	fake("results/x/meta", "vmbench_meta=1\nlabel=x\nstatus=running\n");
	snprintf(work, sizeof(work), "%s/work", tu_dir);
	mkdir(work, 0755);
	knobs_init(&ks);
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
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "1");
	/* a live run (this one) is left alone */
	ck_assert_int_eq(vb_state_begin(&mine, work), 0);
	ck_assert_int_eq(tu_count_except(work, ""), 3);
	ck_assert_int_eq(vb_state_recover(work), 2);
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_str_eq(slurp("sys/kernel/mm/transparent_hugepage/enabled", v,
	    sizeof(v)), "madvise");
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
	ck_assert_int_eq(vb_state_recover(work), 0);
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

	fake("results/y/meta", "vmbench_meta=1\nlabel=y\nstatus=running\n");
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
	ck_assert_int_eq(vb_state_recover(work), 0);
	ck_assert_int_eq(access(path, F_OK), 0);
	/* the same pid, another start: a reused pid */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "vmbench-state 1\npid %ld\nstart 1\nresults %s/results/y"
	    "\n", (long)pid, tu_dir);
	fclose(f);
	ck_assert_int_eq(vb_state_recover(work), 1);
	ck_assert_int_lt(access(path, F_OK), 0);
	ck_assert_int_eq(sh("grep -q status=interrupted %s/results/y/meta",
	    tu_dir), 0);
	close(fds[1]);
	waitpid(pid, NULL, 0);
}
END_TEST

/* Paths with control characters are refused; a long one keeps its cause. */
START_TEST(paths_refused)
{
	char longp[6000];
	size_t i;

	fake("ab.conf", "forkbomb --forks 10 --ints 1\n");
	ck_assert_int_eq(sh("bench/vmrun --kernel p --config %s/ab.conf "
	    "--results %s/r --workdir '%s/w\nx' 2>%s/err", tu_dir, tu_dir,
	    tu_dir, tu_dir), 1);
	ck_assert_int_eq(sh("grep -q 'a control character in a path' %s/err",
	    tu_dir), 0);
	ck_assert_int_eq(sh("test $(wc -l < %s/err) = 1", tu_dir), 0);
	/* nothing made */
	ck_assert_int_ne(sh("test -e %s/r", tu_dir), 0);
	for (i = 0; i + 201 < sizeof(longp) - 1 && i < 5000; i += 201) {
		memset(longp + i, 'a', 200);
		longp[i + 200] = '/';
	}
	longp[i] = '\0';
	ck_assert_int_eq(sh("bench/vmrun --kernel p --config %s 2>%s/err",
	    longp, tu_dir), 1);
	ck_assert_int_eq(sh("grep -q '^vmrun: --config .*: path too long' "
	    "%s/err", tu_dir), 0);
}
END_TEST

/* make ab's appending: rows added in order; another result refused. */
START_TEST(res_append)
{
	struct vb_res a, b;
	double *row;

	vb_res_init(&a, "forkbomb", NULL);
	vb_res_init(&b, "forkbomb", NULL);
	vb_res_set_cmdline(&a, "forkbomb --forks 10");
	vb_res_set_cmdline(&b, "forkbomb --forks 10");
	vb_res_add_metric(&a, "elapsed", "s", VB_LOWER);
	vb_res_add_metric(&b, "elapsed", "s", VB_LOWER);
	vb_res_add_iter(&a)[0] = 1;
	vb_res_add_iter(&b)[0] = 2;
	row = vb_res_add_iter(&b);
	row[0] = 3;
	ck_assert_int_eq(vb_res_append(&a, &b), 0);
	ck_assert_int_eq(a.niter, 3);
	ck_assert_double_eq(vb_res_get(&a, 1, 0), 2);
	ck_assert_double_eq(vb_res_get(&a, 2, 0), 3);
	vb_res_set_cmdline(&b, "forkbomb --forks 20");
	ck_assert_int_lt(vb_res_append(&a, &b), 0);
	ck_assert_int_eq(a.niter, 3);
	vb_res_free(&a);
	vb_res_free(&b);
}
END_TEST

static const char v1_stat_a[] =
    "cache 0\nrss 4096\nworkingset_refault_anon 10\n"
    "workingset_refault_file 5\nswap 0\npgpgin 100\npgpgout 50\n"
    "pgfault 1000\npgmajfault 3\ntotal_pgfault 99999\n";
static const char v1_stat_b[] =
    "cache 0\nrss 4096\nworkingset_refault_anon 30\n"
    "workingset_refault_file 6\nswap 8388608\npgpgin 200\npgpgout 80\n"
    "pgfault 5000\npgmajfault 10\ntotal_pgfault 199999\n";

START_TEST(cgroup_v1_counters)
{
	struct vb_cgroup cg = { .version = 1 };
	struct vb_cgsnap a, b;
	double row[VB_NCG];

	snprintf(cg.path, sizeof(cg.path), "%s", tu_dir);
	fake("memory.stat", v1_stat_a);
	fake("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\n"
	    "oom_kill 1\n");
	fake("memory.max_usage_in_bytes", "1048576\n");
	fake("memory.memsw.max_usage_in_bytes", "1048576\n");
	vb_cgroup_read(&cg, &a);
	fake("memory.stat", v1_stat_b);
	fake("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\n"
	    "oom_kill 3\n");
	fake("memory.max_usage_in_bytes", "2097152\n");
	fake("memory.memsw.max_usage_in_bytes", "10485760\n");
	vb_cgroup_read(&cg, &b);
	vb_cgroup_row(row, &b, &a);
	ck_assert_double_eq(row[VB_CG_PGFAULT], 4000);
	ck_assert_double_eq(row[VB_CG_PGMAJFAULT], 7);
	ck_assert_double_eq(row[VB_CG_REFAULT], 21);
	ck_assert_double_eq(row[VB_CG_OOM], 2);
	ck_assert_double_eq(row[VB_CG_PEAK], 2048);
	ck_assert_double_eq(row[VB_CG_MEMSW_PEAK], 10240);
	/* v1 keeps no swap-in/out counts: absent, not zero */
	ck_assert(isnan(row[VB_CG_PSWPOUT]));
	ck_assert(isnan(row[VB_CG_THP]));
	/* the reset of the peak writes 0 */
	vb_cgroup_reset_peak(&cg);
	{
		char v[64];

		ck_assert_str_eq(slurp("memory.max_usage_in_bytes", v,
		    sizeof(v)), "0");
		ck_assert_str_eq(slurp("memory.memsw.max_usage_in_bytes", v,
		    sizeof(v)), "0");
	}
}
END_TEST

START_TEST(cgroup_v2_counters)
{
	struct vb_cgroup cg = { .version = 2 };
	struct vb_cgsnap a, b;
	double row[VB_NCG], kb = (double)sysconf(_SC_PAGESIZE) / 1024;

	snprintf(cg.path, sizeof(cg.path), "%s", tu_dir);
	fake("memory.stat", "anon 1\npgfault 10\npgmajfault 1\npswpin 2\n"
	    "pswpout 3\npgscan 100\npgsteal 90\nworkingset_refault_anon 4\n"
	    "workingset_refault_file 5\nthp_fault_alloc 0\n");
	fake("memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n");
	vb_cgroup_read(&cg, &a);
	fake("memory.stat", "anon 1\npgfault 110\npgmajfault 1\npswpin 12\n"
	    "pswpout 1003\npgscan 600\npgsteal 590\n"
	    "workingset_refault_anon 4\nworkingset_refault_file 15\n"
	    "thp_fault_alloc 512\n");
	fake("memory.events", "low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n");
	vb_cgroup_read(&cg, &b);
	vb_cgroup_row(row, &b, &a);
	ck_assert_double_eq(row[VB_CG_PGFAULT], 100);
	ck_assert_double_eq(row[VB_CG_PSWPIN], 10 * kb);
	ck_assert_double_eq(row[VB_CG_PSWPOUT], 1000 * kb);
	ck_assert_double_eq(row[VB_CG_PGSCAN], 500);
	ck_assert_double_eq(row[VB_CG_PGSTEAL], 500);
	ck_assert_double_eq(row[VB_CG_REFAULT], 10);
	ck_assert_double_eq(row[VB_CG_THP], 512);
	ck_assert_double_eq(row[VB_CG_OOM], 1);
	ck_assert(isnan(row[VB_CG_PEAK]));
	ck_assert(isnan(row[VB_CG_MEMSW_PEAK]));
}
END_TEST

START_TEST(meta_settings)
{
	char *s = vb_meta_settings();

	ck_assert_ptr_nonnull(strstr(s, "thp_enabled="));
	ck_assert_ptr_nonnull(strstr(s, "\nswappiness="));
	ck_assert_ptr_nonnull(strstr(s, "\nzswap_enabled="));
	ck_assert_ptr_nonnull(strstr(s, "\nmin_free_kbytes="));
	free(s);
}
END_TEST

/* Mean of metric @name over the iterations of @path. */
static double
res_mean(const char *path, const char *name, int *niter)
{
	struct vb_res r;
	char err[512];
	double s = 0;
	int m, i;

	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	m = vb_res_metric_index(&r, name);
	ck_assert_int_ge(m, 0);
	for (i = 0; i < r.niter; i++)
		s += vb_res_get(&r, i, m);
	*niter = r.niter;
	vb_res_free(&r);
	return *niter ? s / *niter : NAN;
}

static const char *
meta_val(const char *dir, const char *key, char *buf, size_t len)
{
	struct vb_kv *kv;
	char path[600], err[512];
	const char *v;
	int n;

	snprintf(path, sizeof(path), "%s/meta", dir);
	ck_assert_msg(vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0, "%s",
	    err);
	v = vb_meta_get(kv, n, key);
	snprintf(buf, len, "%s", v ? v : "(none)");
	vb_meta_free(kv, n);
	return buf;
}

/*
 * vmrun --a/--b on the fake tree: two folders, each with its iterations
 * in ABBA order, meta naming the setting, the fake knobs restored.
 */
START_TEST(ab_end_to_end_fake)
{
	char v[256], path[700], dir[600];
	int n;

	fake_tree();
	fake("ab.conf", "iterations 3\nforkbomb --forks 200 --ints 10\n");
	ck_assert_int_eq(sh("VMBENCH_SYSROOT=%s bench/vmrun --kernel t "
	    "--a 'vm.swappiness=7' --b 'vm.swappiness=9,thp=never' "
	    "--config %s/ab.conf --results %s/r --workdir %s/w "
	    ">%s/out 2>%s/err", tu_dir, tu_dir, tu_dir, tu_dir, tu_dir,
	    tu_dir), 0);
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_str_eq(slurp("sys/kernel/mm/transparent_hugepage/enabled", v,
	    sizeof(v)), "madvise");
	snprintf(dir, sizeof(dir), "%s/r/t-A", tu_dir);
	ck_assert_str_eq(meta_val(dir, "ab_setting", v, sizeof(v)),
	    "vm.swappiness=7");
	ck_assert_str_eq(meta_val(dir, "ab_order", v, sizeof(v)), "ABBA");
	ck_assert_str_eq(meta_val(dir, "status", v, sizeof(v)), "complete");
	snprintf(path, sizeof(path), "%s/forkbomb.res", dir);
	res_mean(path, "elapsed", &n);
	ck_assert_int_eq(n, 3);
	snprintf(dir, sizeof(dir), "%s/r/t-B", tu_dir);
	ck_assert_str_eq(meta_val(dir, "ab_setting", v, sizeof(v)),
	    "vm.swappiness=9,thp=never");
	ck_assert_str_eq(meta_val(dir, "ab_pair", v, sizeof(v)), "t-A");
	snprintf(path, sizeof(path), "%s/forkbomb.res", dir);
	res_mean(path, "elapsed", &n);
	ck_assert_int_eq(n, 3);
	/* the order, as the progress said it */
	ck_assert_int_eq(sh("grep -q 'forkbomb: 3 iterations a side, ABBAAB' "
	    "%s/err", tu_dir), 0);
	/* the comparison follows on stdout */
	ck_assert_int_eq(sh("grep -q 't-B' %s/out", tu_dir), 0);
	ck_assert_int_eq(tu_count_except(tu_dir, ""), 7);
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
	/* an unknown setting or a bad value: one line, nothing made */
	fake_tree();
	ck_assert_int_eq(sh("VMBENCH_SYSROOT=%s bench/vmrun --kernel u "
	    "--a 'thp=sometimes' --b 'thp=never' --config %s/ab.conf "
	    "--results %s/r --workdir %s/w 2>%s/err", tu_dir, tu_dir, tu_dir,
	    tu_dir, tu_dir), 1);
	ck_assert_int_eq(sh("test $(wc -l < %s/err) = 1 && grep -q 'thp="
	    "sometimes: not one of the choices' %s/err", tu_dir, tu_dir), 0);
	ck_assert_int_eq(sh("VMBENCH_SYSROOT=%s bench/vmrun --kernel u "
	    "--a 'vm.nonesuch=1' --b '' --config %s/ab.conf --results %s/r "
	    "--workdir %s/w 2>%s/err", tu_dir, tu_dir, tu_dir, tu_dir,
	    tu_dir), 1);
	ck_assert_int_eq(sh("grep -q 'no such setting' %s/err", tu_dir), 0);
	snprintf(path, sizeof(path), "%s/r", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 2);
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
}
END_TEST

/* Start an A/B run on the fake tree in the background; its pid. */
static pid_t
start_ab(const char *label)
{
	char cmd[2048];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "%s/r", tu_dir);
	mkdir(cmd, 0755);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char conf[600], res[600], wd[600], err[600];
		int fd;

		snprintf(conf, sizeof(conf), "%s/ab.conf", tu_dir);
		snprintf(res, sizeof(res), "%s/r", tu_dir);
		snprintf(wd, sizeof(wd), "%s/w", tu_dir);
		snprintf(err, sizeof(err), "%s/err-%s", tu_dir, label);
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		dup2(fd, 1);
		setenv("VMBENCH_SYSROOT", tu_dir, 1);
		execl("bench/vmrun", "vmrun", "--kernel", label, "--a",
		    "vm.swappiness=7,thp=never", "--b", "thp=always",
		    "--config", conf, "--results", res, "--workdir", wd,
		    (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Wait until the fake swappiness reads @want (at most 10 s). */
static int
wait_knob(const char *want)
{
	char v[64];
	int i;

	for (i = 0; i < 1000; i++) {
		if (strcmp(slurp("proc/sys/vm/swappiness", v, sizeof(v)),
		    want) == 0)
			return 1;
		usleep(10000);
	}
	return 0;
}

/*
 * Every path restores the settings: SIGINT, SIGTERM, SIGHUP in the
 * middle of a run; SIGKILL, then the next run undoes it and says so.
 */
START_TEST(ab_restore_every_path)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGKILL };
	char v[256], label[32], path[600];
	size_t i;
	int status;

	fake_tree();
	fake("ab.conf", "iterations 40\nforkbomb --forks 400 --ints 10\n");
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		pid_t pid;

		snprintf(label, sizeof(label), "s%d", sigs[i]);
		pid = start_ab(label);
		/* A's setting is in force: the run is under way */
		ck_assert_msg(wait_knob("7"), "A never applied");
		usleep(100000);
		kill(pid, sigs[i]);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		if (sigs[i] == SIGKILL) {
			pid_t next;

			ck_assert(WIFSIGNALED(status));
			/* the next run puts things back first, and says so */
			next = start_ab("next");
			/* first put back (60), then A's again (7) */
			ck_assert_msg(wait_knob("60"), "not restored");
			ck_assert_msg(wait_knob("7"), "next run never started");
			kill(next, SIGINT);
			waitpid(next, &status, 0);
			ck_assert_int_eq(sh("grep -q 'a run killed earlier "
			    "(pid %ld) left the machine changed: cleaned up, "
			    "marked .*/r/s9-A interrupted' %s/err-next",
			    (long)pid, tu_dir), 0);
			snprintf(path, sizeof(path), "%s/r/s9-B", tu_dir);
			ck_assert_str_eq(meta_val(path, "status", v,
			    sizeof(v)), "interrupted");
		} else {
			ck_assert_msg(WIFEXITED(status) &&
			    WEXITSTATUS(status) == 130, "signal %d: status "
			    "%d", sigs[i], status);
		}
		ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)),
		    "60");
		ck_assert_str_eq(slurp(
		    "sys/kernel/mm/transparent_hugepage/enabled", v,
		    sizeof(v)), "madvise");
		snprintf(path, sizeof(path), "%s/w", tu_dir);
		ck_assert_int_eq(tu_count_except(path, ""), 0);
	}
}
END_TEST

/* Status and iteration count of the .res @path. */
static const char *
res_status(const char *path, char *buf, size_t len, int *niter)
{
	struct vb_res r;
	char err[512];

	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	snprintf(buf, len, "%s", r.status);
	*niter = r.niter;
	vb_res_free(&r);
	return buf;
}

/*
 * Ctrl-C in the middle of an A/B line: the side whose run was stopped
 * and the side that was waiting both say interrupted, each with fewer
 * iterations than planned (the waiting side's last run had completed).
 * After a SIGKILL of vmrun neither says complete either: the waiting
 * side's result said running between its runs.
 */
START_TEST(ab_interrupt_marks_both)
{
	char v[256], path[700];
	int status, i, n[2], k;
	pid_t pid;

	fake_tree();
	fake("ab.conf", "iterations 40\nforkbomb --forks 400 --ints 10\n");
	pid = start_ab("ib");
	/* ABBA: B's result exists once its first run has begun */
	snprintf(path, sizeof(path), "%s/r/ib-B/forkbomb.res", tu_dir);
	for (i = 0; i < 1000 && access(path, F_OK) < 0; i++)
		usleep(10000);
	ck_assert_msg(access(path, F_OK) == 0, "B never ran");
	usleep(300000);
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 130,
	    "status %d", status);
	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/r/ib-%c", tu_dir, "AB"[k]);
		ck_assert_str_eq(meta_val(path, "status", v, sizeof(v)),
		    "interrupted");
		snprintf(path, sizeof(path), "%s/r/ib-%c/forkbomb.res", tu_dir,
		    "AB"[k]);
		ck_assert_str_eq(res_status(path, v, sizeof(v), &n[k]),
		    "interrupted");
		ck_assert_int_lt(n[k], 40);
	}
	/* A's first run ended before B's began */
	ck_assert_int_ge(n[0], 1);
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);

	pid = start_ab("ik");
	snprintf(path, sizeof(path), "%s/r/ik-B/forkbomb.res", tu_dir);
	for (i = 0; i < 1000 && access(path, F_OK) < 0; i++)
		usleep(10000);
	ck_assert_msg(access(path, F_OK) == 0, "B never ran");
	usleep(300000);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	/* the running benchmark stops on its own (SIGTERM from the kernel) */
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	for (i = 0; i < 500 && tu_count_except(path, "vmrun.") > 0; i++)
		usleep(10000);
	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/r/ik-%c/forkbomb.res", tu_dir,
		    "AB"[k]);
		res_status(path, v, sizeof(v), &n[k]);
		ck_assert_msg(strcmp(v, "interrupted") == 0 ||
		    strcmp(v, "running") == 0, "%c: %s", "AB"[k], v);
	}
	/* what the SIGKILL left: undone */
	sh("VMBENCH_SYSROOT=%s bench/vmrun --clean-stale --workdir %s/w "
	    ">/dev/null 2>&1", tu_dir, tu_dir);
}
END_TEST

/*
 * make ab into a full results file system (a 1M tmpfs, root only):
 * refused in one line, and nothing left there, neither folder nor
 * lock, so that the same command runs once there is room.
 */
START_TEST(ab_full_results_disk)
{
	char mnt[512], v[256] = "", path[700];
	int rc, left;

	if (geteuid() != 0) {
		fprintf(stderr, "ab_full_results_disk: skipped: needs root to "
		    "mount a tmpfs\n");
		return;
	}
	fake_tree();
	fake("ab.conf", "iterations 1\nforkbomb --forks 100 --ints 10\n");
	tu_path(mnt, sizeof(mnt), "full");
	ck_assert_int_eq(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=1m") < 0) {
		fprintf(stderr, "ab_full_results_disk: skipped: cannot mount a "
		    "tmpfs\n");
		return;
	}
	/* every block taken */
	sh("dd if=/dev/zero of=%s/fill bs=4k count=1000 2>/dev/null", mnt);
	rc = sh("VMBENCH_SYSROOT=%s bench/vmrun --kernel fab --a "
	    "vm.swappiness=7 --b '' --config %s/ab.conf --results %s "
	    "--workdir %s/w 2>%s/err", tu_dir, tu_dir, mnt, tu_dir, tu_dir);
	left = tu_count_except(mnt, "fill");
	if (rc == 1 && left == 0) {
		/* room again: the same command runs */
		unlink(strcat(strcpy(path, mnt), "/fill"));
		rc = sh("VMBENCH_SYSROOT=%s bench/vmrun --kernel fab --a "
		    "vm.swappiness=7 --b '' --config %s/ab.conf --results %s "
		    "--workdir %s/w >/dev/null 2>%s/err2", tu_dir, tu_dir, mnt,
		    tu_dir, tu_dir);
	} else {
		rc = -rc;
	}
	snprintf(path, sizeof(path), "%s/fab-B", mnt);
	if (rc == 0)
		meta_val(path, "status", v, sizeof(v));
	/* unmounted before any assertion */
	umount2(mnt, MNT_DETACH);
	ck_assert_int_eq(left, 0);
	ck_assert_msg(rc == 0, "refused or failed: %d", rc);
	ck_assert_str_eq(v, "complete");
	ck_assert_int_eq(sh("test $(wc -l < %s/err) = 1 && grep -q 'vmrun: "
	    "cannot write .*/fab-A/meta: No space left on device' %s/err",
	    tu_dir, tu_dir), 0);
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
}
END_TEST

/*
 * A benchmark killed with SIGKILL in the middle of an A/B run: the run
 * goes on with the other iterations, exits 1, puts the settings back,
 * marks that side's result failed and removes the killed program's
 * work folder.
 */
START_TEST(ab_killed_benchmark)
{
	char v[256], path[700], kids[256];
	long child = 0;
	int status, i;
	pid_t pid;
	FILE *f;

	fake_tree();
	fake("ab.conf", "iterations 6\nforkbomb --forks 3000 --ints 10\n");
	pid = start_ab("kb");
	ck_assert_msg(wait_knob("7"), "A never applied");
	/* the benchmark: vmrun's child (it has none but it) */
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children",
	    (long)pid, (long)pid);
	for (i = 0; i < 500 && !child; i++) {
		if ((f = fopen(path, "r"))) {
			if (fgets(kids, sizeof(kids), f))
				child = atol(kids);
			fclose(f);
		}
		if (!child)
			usleep(10000);
	}
	ck_assert_msg(child > 0, "no benchmark under vmrun");
	kill((pid_t)child, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1,
	    "status %d", status);
	ck_assert_str_eq(slurp("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_str_eq(slurp("sys/kernel/mm/transparent_hugepage/enabled", v,
	    sizeof(v)), "madvise");
	snprintf(path, sizeof(path), "%s/r/kb-A", tu_dir);
	ck_assert_str_eq(meta_val(path, "status", v, sizeof(v)), "failed");
	/* the side whose run was killed says so; its iterations are kept */
	ck_assert_int_eq(sh("grep -q '^status failed' %s/r/kb-A/forkbomb.res",
	    tu_dir), 0);
	ck_assert_int_eq(sh("grep -q '^status complete' "
	    "%s/r/kb-B/forkbomb.res", tu_dir), 0);
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
}
END_TEST

/*
 * As root, `make ab` on the real knobs, without changing a value: A and
 * B both set vm.swappiness to what it is, under a memory cgroup; meta
 * records the cgroup's own copy, the .res the cgroup's counters, and
 * the comparison follows on stdout.
 */
START_TEST(ab_real_root)
{
	char v[256], cur[64], dir[600], path[700];
	int n;
	FILE *f;

	if (geteuid() != 0) {
		fprintf(stderr, "ab_real_root: skipped (needs root)\n");
		return;
	}
	f = fopen("/proc/sys/vm/swappiness", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(cur, sizeof(cur), f));
	fclose(f);
	cur[strcspn(cur, "\n")] = '\0';
	fake("ab.conf", "iterations 2\nmemfill --bytes 16M --write\n");
	/* through make, as the user runs it (not the enclosing make's flags) */
	if (sh("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s ab "
	    "KERNEL=real A='vm.swappiness=%s' B='vm.swappiness=%s' MEM=64M "
	    "CONFIG=%s/ab.conf RESULTS=%s/r WORKDIR=%s/w >%s/out 2>%s/err",
	    cur, cur, tu_dir, tu_dir, tu_dir, tu_dir, tu_dir) != 0 &&
	    sh("grep -q 'no memory controller' %s/err", tu_dir) == 0) {
		fprintf(stderr, "ab_real_root: skipped (no memory cgroup)\n");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/r/real-B", tu_dir);
	ck_assert_str_eq(meta_val(dir, "status", v, sizeof(v)), "complete");
	/* the comparison on stdout, the setting named at its top */
	ck_assert_int_eq(sh("grep -q 'vmbench report: 2 kernels, baseline "
	    "real-A' %s/out", tu_dir), 0);
	ck_assert_str_eq(meta_val(dir, "swappiness", v, sizeof(v)), cur);
	ck_assert_str_eq(meta_val(dir, "cg_swappiness", v, sizeof(v)), cur);
	snprintf(path, sizeof(path), "%s/memfill.res", dir);
	/* 16M written inside the cgroup: at least its pages were faulted */
	ck_assert_double_gt(res_mean(path, "cg_mem_peak_kb", &n), 8192);
	ck_assert_int_eq(n, 2);
	f = fopen("/proc/sys/vm/swappiness", "r");
	ck_assert_ptr_nonnull(fgets(v, sizeof(v), f));
	fclose(f);
	v[strcspn(v, "\n")] = '\0';
	ck_assert_str_eq(v, cur);
}
END_TEST

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
		fprintf(stderr, "sigkill_then_next_run: skipped (needs root)\n");
		return;
	}
	fake("k.conf", "iterations 100\nmemfill --bytes 96M --write\n");
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
	snprintf(state, sizeof(state), "%s/vmrun.%ld.state", wd, (long)pid);
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
	usleep(500000);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	/* "1 /sys/fs/cgroup/memory/.../vmbench.PID": left behind */
	ck_assert_int_eq(access(strchr(cg, ' ') + 1, F_OK), 0);
	ck_assert_int_eq(access(swp, F_OK), 0);
	ck_assert_int_eq(sh("bench/vmrun --clean-stale --workdir %s "
	    "2>%s/err", wd, tu_dir), 0);
	ck_assert_int_eq(sh("grep -q 'a run killed earlier (pid %ld) left the "
	    "machine changed: cleaned up, marked .*interrupted, removed its "
	    "memory cgroup, removed its swap file' %s/err", (long)pid,
	    tu_dir), 0);
	ck_assert_int_lt(access(strchr(cg, ' ') + 1, F_OK), 0);
	ck_assert_int_lt(access(swp, F_OK), 0);
	ck_assert_int_ne(sh("grep -q 'vmbench-swap.%ld' /proc/swaps",
	    (long)pid), 0);
	snprintf(dir, sizeof(dir), "%s/r/k", tu_dir);
	ck_assert_str_eq(meta_val(dir, "status", v, sizeof(v)),
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

/* The arithmetic: busy less kernel threads less ours, per second. */
START_TEST(foreign_cpu_sum)
{
	/* 2 s; the machine busy 3 s, kswapd 0.5 s, our tree 1.5 s */
	ck_assert_double_eq_tol(vb_foreign_cpu(3, 0.5, 1.5, 2), 50, 1e-9);
	ck_assert_double_eq_tol(vb_foreign_cpu(1.5, 0, 1.5, 2), 0, 1e-9);
	ck_assert(isnan(vb_foreign_cpu(1, 0, 0, 0)));
}
END_TEST

/* Kernel threads per thread: one that ends or is new does not skew. */
START_TEST(kthread_delta)
{
	struct vb_kthread ka[] = { { 2, 100 }, { 7, 50 }, { 9, 1000 } };
	struct vb_kthread kb[] = { { 2, 130 }, { 9, 1005 }, { 11, 4 } };
	struct vb_cpuown a = { .n = 3, .kt = ka }, b = { .n = 3, .kt = kb };

	/* 30 + 5 + 4; thread 7 ended (its 50 do not count against) */
	ck_assert_uint_eq(vb_cpuown_kthread_delta(&a, &b), 39);
	/* a reused pid that reads less: a new thread, counted from 0 */
	kb[1].ticks = 3;
	ck_assert_uint_eq(vb_cpuown_kthread_delta(&a, &b), 37);
}
END_TEST

/*
 * A process burning a CPU beside a benchmark shows up in foreign_cpu
 * (the benchmark's own CPU is subtracted; other load only adds).
 */
START_TEST(foreign_cpu_burner)
{
	char path[600];
	double busy;
	pid_t burner;
	int n;

	burner = fork();
	ck_assert_int_ge(burner, 0);
	if (burner == 0) {
		volatile unsigned long x = 0;

		alarm(60);
		for (;;)
			x++;
	}
	ck_assert_int_eq(sh("bench/forkbomb --forks 3000 --ints 10 "
	    "--iterations 3 --out %s/busy --workdir %s >/dev/null", tu_dir,
	    tu_dir), 0);
	kill(burner, SIGKILL);
	waitpid(burner, NULL, 0);
	snprintf(path, sizeof(path), "%s/busy.res", tu_dir);
	busy = res_mean(path, "foreign_cpu", &n);
	ck_assert_int_eq(n, 3);
	ck_assert_msg(busy > 50, "with a CPU burner: foreign %.1f%%", busy);
}
END_TEST

Suite *
ab_suite(void)
{
	Suite *s = suite_create("ab");
	TCase *tc = tcase_create("knobs");
	TCase *e2e = tcase_create("e2e");

	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, parse_names);
	tcase_add_test(tc, parse_refuses);
	tcase_add_test(tc, check_apply_restore);
	tcase_add_test(tc, check_refuses);
	tcase_add_test(tc, schedule);
	tcase_add_test(tc, state_recover);
	tcase_add_test(tc, state_pid_reused);
	tcase_add_test(tc, paths_refused);
	tcase_add_test(tc, res_append);
	tcase_add_test(tc, cgroup_v1_counters);
	tcase_add_test(tc, cgroup_v2_counters);
	tcase_add_test(tc, meta_settings);
	tcase_add_test(tc, foreign_cpu_sum);
	tcase_add_test(tc, kthread_delta);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 120);
	tcase_add_test(e2e, ab_end_to_end_fake);
	tcase_add_test(e2e, ab_restore_every_path);
	tcase_add_test(e2e, ab_killed_benchmark);
	tcase_add_test(e2e, ab_interrupt_marks_both);
	tcase_add_test(e2e, ab_full_results_disk);
	tcase_add_test(e2e, ab_real_root);
	tcase_add_test(e2e, sigkill_then_next_run);
	tcase_add_test(e2e, foreign_cpu_burner);
	suite_add_tcase(s, e2e);
	return s;
}
