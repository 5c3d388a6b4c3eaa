/*
 * check_makesim.c - makesim: the tree generator, make's job slots,
 * contest's ratio, the load sizes, and end-to-end runs of bench/makesim at
 * a tiny scale with two loads (plus one interrupted by SIGINT) that check
 * the result files and that no process or file is left behind.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "makesim/makesim.h"
#include "memlimit.h"
#include "res.h"
#include "testutil.h"

#define MAKESIM "bench/makesim"

/* A new temporary folder under the run's root (tests/testutil.h). */
#define make_tmp(buf)	tu_mkdtemp((buf), sizeof(buf), "makesim")

/* ---- the tree ---- */

START_TEST(tree_same_seed)
{
	struct ms_tree a, b, c;
	uint32_t i, k, diff = 0;

	ck_assert_int_eq(makesim_tree_plan(&a, 300, 42), 0);
	ck_assert_int_eq(makesim_tree_plan(&b, 300, 42), 0);
	ck_assert_int_eq(makesim_tree_plan(&c, 300, 43), 0);
	ck_assert_uint_eq(a.ndirs, b.ndirs);
	ck_assert_uint_eq(a.nhdrs, b.nhdrs);
	ck_assert_uint_eq(a.src_bytes, b.src_bytes);
	for (i = 0; i < a.nunits; i++) {
		ck_assert_uint_eq(a.units[i].size, b.units[i].size);
		ck_assert_uint_eq(a.units[i].dir, b.units[i].dir);
		ck_assert_uint_eq(a.units[i].nhdr, b.units[i].nhdr);
		for (k = 0; k < a.units[i].nhdr; k++)
			ck_assert_uint_eq(a.units[i].hdr[k],
			    b.units[i].hdr[k]);
		diff += a.units[i].size != c.units[i].size;
	}
	for (i = 0; i < a.nhdrs; i++)
		ck_assert_uint_eq(a.hdr_size[i], b.hdr_size[i]);
	ck_assert_msg(diff > 250, "seed 43 gives %u of 300 sizes different",
	    diff);
	makesim_tree_free(&a);
	makesim_tree_free(&b);
	makesim_tree_free(&c);
}
END_TEST

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* The shapes of a kernel tree: sizes, directories, includes. */
START_TEST(tree_shape)
{
	struct ms_tree t;
	uint64_t *sz, sum = 0;
	uint32_t i, k, d;

	ck_assert_int_eq(makesim_tree_plan(&t, 2000, 1), 0);
	sz = malloc(t.nunits * sizeof(*sz));
	for (i = 0; i < t.nunits; i++) {
		const struct ms_unit *u = &t.units[i];

		sz[i] = u->size;
		sum += u->size;
		ck_assert_uint_ge(u->nhdr, 6);
		ck_assert_uint_le(u->nhdr, 40);
		for (k = 0; k < u->nhdr; k++) {
			ck_assert_uint_lt(u->hdr[k], t.nhdrs);
			if (k)
				ck_assert_uint_lt(u->hdr[k - 1], u->hdr[k]);
		}
		if (i)
			ck_assert_uint_le(t.units[i - 1].dir, u->dir);
	}
	ck_assert_uint_eq(sum, t.src_bytes);
	qsort(sz, t.nunits, sizeof(*sz), cmp_u64);
	/* median about 9 KB, a long tail */
	ck_assert_uint_gt(sz[t.nunits / 2], 7000);
	ck_assert_uint_lt(sz[t.nunits / 2], 11500);
	ck_assert_uint_gt(sz[t.nunits * 99 / 100], 60000);
	ck_assert_uint_eq(t.ndirs, 167);
	ck_assert_uint_eq(t.nhdrs, 400);
	for (d = 0; d < t.ndirs; d++)
		ck_assert_uint_lt(t.dir_first[d], t.dir_first[d + 1]);
	ck_assert_uint_eq(t.dir_first[t.ndirs], t.nunits);
	free(sz);
	makesim_tree_free(&t);
}
END_TEST

/* FNV-1a over every file of the tree, in plan order. */
static uint64_t
tree_digest(const struct ms_tree *t, const char *root)
{
	uint64_t h = 1469598103934665603ULL, bytes;
	char rel[64], path[4200], buf[4096];
	uint32_t i;

	for (i = 0; i < t->nunits + t->nhdrs; i++) {
		ssize_t n;
		int fd;

		if (i < t->nunits)
			makesim_unit_path(t, i, ".c", rel, sizeof(rel));
		else
			makesim_hdr_path(t, i - t->nunits, rel, sizeof(rel));
		snprintf(path, sizeof(path), "%s/%s", root, rel);
		fd = open(path, O_RDONLY);
		ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
		bytes = 0;
		while ((n = read(fd, buf, sizeof(buf))) > 0) {
			ssize_t j;

			for (j = 0; j < n; j++)
				h = (h ^ (uint8_t)buf[j]) * 1099511628211ULL;
			bytes += (uint64_t)n;
		}
		close(fd);
		ck_assert_uint_eq(bytes, i < t->nunits ? t->units[i].size :
		    t->hdr_size[i - t->nunits]);
	}
	return h;
}

START_TEST(tree_written_same)
{
	char d1[256], d2[256];
	char r1[300], r2[300], err[256];
	struct ms_tree t, u;

	make_tmp(d1);
	make_tmp(d2);
	snprintf(r1, sizeof(r1), "%s/tree", d1);
	snprintf(r2, sizeof(r2), "%s/tree", d2);
	ck_assert_int_eq(makesim_tree_plan(&t, 60, 5), 0);
	ck_assert_int_eq(makesim_tree_plan(&u, 60, 6), 0);
	ck_assert_int_eq(makesim_tree_write(&t, r1, err, sizeof(err)), 0);
	ck_assert_int_eq(makesim_tree_write(&t, r2, err, sizeof(err)), 0);
	ck_assert_uint_eq(tree_digest(&t, r1), tree_digest(&t, r2));
	tu_rmtree(r2);
	ck_assert_int_eq(makesim_tree_write(&u, r2, err, sizeof(err)), 0);
	ck_assert_uint_ne(tree_digest(&t, r1), tree_digest(&u, r2));
	/* a root that cannot be made: one clear line */
	ck_assert_int_lt(makesim_tree_write(&t, "/proc/nonexistent/tree", err,
	    sizeof(err)), 0);
	tu_assert_has(err, "cannot create /proc/nonexistent");
	tu_rmtree(d1);
	tu_rmtree(d2);
	makesim_tree_free(&t);
	makesim_tree_free(&u);
}
END_TEST

/* ---- the scheduler ---- */

/* Shared between the jobs (children) and the test. */
struct watch {
	int running, max_running;
	int seq;
	int start[64], end[64];	/* sequence numbers, 0: never */
	int fail;		/* job that exits 1, or -1 */
	int hold;		/* wait (up to 2 s) until this many ran at once */
};

static struct watch *
watch_new(void)
{
	struct watch *w = mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(w, MAP_FAILED);
	memset(w, 0, sizeof(*w));
	w->fail = -1;
	return w;
}

/*
 * A job: note its start, overlap a little with others (with w->hold:
 * until w->hold jobs have run at once, or 2 s have passed, so that a
 * fork slower than the job's own sleep cannot hide the overlap), note
 * its end.
 */
static int
watched_job(uint32_t j, void *arg)
{
	struct watch *w = arg;
	struct timespec ts = { 0, (long)(1 + j % 3) * 1000000L };
	int r = __atomic_add_fetch(&w->running, 1, __ATOMIC_SEQ_CST), m;

	while ((m = __atomic_load_n(&w->max_running, __ATOMIC_SEQ_CST)) < r &&
	    !__atomic_compare_exchange_n(&w->max_running, &m, r, 0,
	    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	w->start[j] = __atomic_add_fetch(&w->seq, 1, __ATOMIC_SEQ_CST);
	for (m = 0; __atomic_load_n(&w->max_running, __ATOMIC_SEQ_CST) <
	    __atomic_load_n(&w->hold, __ATOMIC_SEQ_CST); m++) {
		if (m == 2000) {	/* never came: no one waits again */
			__atomic_store_n(&w->hold, 0, __ATOMIC_SEQ_CST);
			break;
		}
		usleep(1000);
	}
	nanosleep(&ts, NULL);
	if ((int)j == w->fail) {
		__atomic_sub_fetch(&w->running, 1, __ATOMIC_SEQ_CST);
		return 1;
	}
	w->end[j] = __atomic_add_fetch(&w->seq, 1, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&w->running, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* A random DAG of @n jobs (edges only from lower to higher indices). */
static void
make_dag(struct ms_job *jobs, uint32_t (*deps)[4], char (*names)[16],
    uint32_t n, uint64_t seed)
{
	uint32_t i, k;

	for (i = 0; i < n; i++) {
		snprintf(names[i], 16, "J%u", i);
		jobs[i].name = names[i];
		jobs[i].ndeps = i < 8 ? 0 : (uint32_t)(makesim_rng(&seed) % 5);
		for (k = 0; k < jobs[i].ndeps; k++)
			deps[i][k] = (uint32_t)(makesim_rng(&seed) % i);
		jobs[i].deps = deps[i];
	}
}

START_TEST(sched_slots_and_deps)
{
	static const uint32_t slots[] = { 1, 3 };
	struct ms_job jobs[60];
	uint32_t deps[60][4], i, k;
	char names[60][16];
	size_t t;

	make_dag(jobs, deps, names, 60, 9);
	for (t = 0; t < 2; t++) {
		struct watch *w = watch_new();
		struct ms_sched s = { .njobs = 60, .jobs = jobs,
		    .slots = slots[t], .fn = watched_job, .arg = w };

		w->hold = (int)slots[t];
		ck_assert_msg(makesim_sched_run(&s) == 0, "%s", s.err);
		ck_assert_uint_eq(s.finished, 60);
		ck_assert_uint_eq(s.started, 60);
		ck_assert_int_le(w->max_running, (int)slots[t]);
		ck_assert_uint_le(s.max_running, slots[t]);
		/* with 8 roots and 3 slots, 3 run at once at some point */
		ck_assert_int_eq(w->max_running, (int)slots[t]);
		for (i = 0; i < 60; i++) {
			ck_assert_int_gt(w->start[i], 0);
			ck_assert_int_gt(w->end[i], w->start[i]);
			for (k = 0; k < jobs[i].ndeps; k++)
				ck_assert_msg(w->end[deps[i][k]] <
				    w->start[i], "J%u started before its "
				    "dependency J%u ended", i, deps[i][k]);
		}
		munmap(w, sizeof(*w));
	}
}
END_TEST

START_TEST(sched_failure)
{
	struct ms_job jobs[60];
	uint32_t deps[60][4], i, k;
	char names[60][16];
	struct watch *w = watch_new();
	struct ms_sched s = { .njobs = 60, .jobs = jobs, .slots = 2,
	    .fn = watched_job, .arg = w };

	make_dag(jobs, deps, names, 60, 9);
	/* J20 fails; the link-like last job depends on everything */
	w->fail = 20;
	ck_assert_int_lt(makesim_sched_run(&s), 0);
	ck_assert_str_eq(s.err, "J20: exit status 1");
	ck_assert_uint_lt(s.finished, 60);
	/* nothing that depends on J20 started */
	for (i = 21; i < 60; i++)
		for (k = 0; k < jobs[i].ndeps; k++)
			if (deps[i][k] == 20)
				ck_assert_int_eq(w->start[i], 0);
	/* nothing started after the failure was seen, beyond the slot */
	ck_assert_int_eq(w->running, 0);
	munmap(w, sizeof(*w));
}
END_TEST

/* Job 1 is killed by SIGKILL, as the OOM killer would. */
static int
killed_job(uint32_t j, void *arg)
{
	(void)arg;
	if (j == 1)
		kill(getpid(), SIGKILL);
	return 0;
}

START_TEST(sched_killed)
{
	static const uint32_t d2[] = { 0, 1 };
	struct ms_job jobs[3] = {
		{ .name = "CC a.o" }, { .name = "CC b.o" },
		{ .name = "LD vmlinux", .ndeps = 2, .deps = d2 },
	};
	struct ms_sched s = { .njobs = 3, .jobs = jobs, .slots = 2,
	    .fn = killed_job };

	ck_assert_int_lt(makesim_sched_run(&s), 0);
	ck_assert_str_eq(s.err, "CC b.o: killed by signal 9 (Killed); out of "
	    "memory? (see oom_kill in the results)");
	ck_assert_uint_eq(s.started, 2);
}
END_TEST

START_TEST(sched_cycle)
{
	static const uint32_t d0[] = { 1 }, d1[] = { 0 }, d3[] = { 9 };
	struct ms_job jobs[3] = {
		{ .name = "a", .ndeps = 1, .deps = d0 },
		{ .name = "b", .ndeps = 1, .deps = d1 },
		{ .name = "c" },
	};
	struct watch *w = watch_new();
	struct ms_sched s = { .njobs = 3, .jobs = jobs, .slots = 4,
	    .fn = watched_job, .arg = w };

	ck_assert_int_lt(makesim_sched_run(&s), 0);
	tu_assert_has(s.err, "dependency cycle: 2 of 3");
	ck_assert_uint_eq(s.finished, 1);
	jobs[2].ndeps = 1;
	jobs[2].deps = d3;
	ck_assert_int_lt(makesim_sched_run(&s), 0);
	ck_assert_str_eq(s.err, "c: depends on job 9 of 3");
	munmap(w, sizeof(*w));
}
END_TEST

/* ---- the build graph ---- */

START_TEST(build_graph)
{
	struct ms_tree t;
	struct ms_build b = { 0 };
	uint32_t i, k;

	ck_assert_int_eq(makesim_tree_plan(&t, 100, 3), 0);
	ck_assert_int_eq(makesim_build_init(&b, &t, "/nonexistent"), 0);
	ck_assert_uint_eq(b.njobs, t.nunits + t.ndirs + 1);
	for (i = 0; i < t.nunits; i++)
		ck_assert_uint_eq(b.jobs[i].ndeps, 0);
	for (i = 0; i < t.ndirs; i++) {
		const struct ms_job *j = &b.jobs[t.nunits + i];

		ck_assert_uint_eq(j->ndeps, t.dir_first[i + 1] -
		    t.dir_first[i]);
		for (k = 0; k < j->ndeps; k++)
			ck_assert_uint_eq(t.units[j->deps[k]].dir, i);
	}
	ck_assert_str_eq(b.jobs[b.njobs - 1].name, "LD vmlinux");
	ck_assert_uint_eq(b.jobs[b.njobs - 1].ndeps, t.ndirs);
	ck_assert_str_eq(b.jobs[0].name, "CC d000/u00000.o");
	b.ws_base = 12 << 20;
	b.ws_per_kb = 1 << 20;
	b.ws_max = 160 << 20;
	ck_assert_uint_eq(makesim_ws_bytes(&b, 10240), 22 << 20);
	ck_assert_uint_eq(makesim_ws_bytes(&b, 400 << 10), 160 << 20);
	makesim_build_free(&b);
	makesim_tree_free(&t);
}
END_TEST

START_TEST(cpu_work_deterministic)
{
	uint64_t a[512] = { 0 }, b[512] = { 0 };

	ck_assert_uint_eq(makesim_cpu_work(100000, a, 512, 7),
	    makesim_cpu_work(100000, b, 512, 7));
	ck_assert_int_eq(memcmp(a, b, sizeof(a)), 0);
	ck_assert_uint_ne(makesim_cpu_work(100000, a, 512, 7),
	    makesim_cpu_work(100001, b, 512, 7));
}
END_TEST

/* ---- ratio and load sizes ---- */

START_TEST(ratio)
{
	const double e = exp(1);
	double t[3] = { e, e * e, e * e * e }, base[3] = { 1, e, e * e };
	double same[3] = { 60, 60, 60 }, twice[3] = { 120, 120, 120 };
	double bad[2] = { 60, 0 };
	struct ms_ratio r;

	ck_assert_int_eq(makesim_ratio(twice, 3, same, 3, &r), 0);
	ck_assert_double_eq_tol(r.ratio, 2.0, 1e-12);
	ck_assert_double_eq_tol(r.lo, 2.0, 1e-12);
	ck_assert_double_eq_tol(r.hi, 2.0, 1e-12);
	/* logs 1,2,3 against 0,1,2: nu = 4, t(0.975, 4) = 2.7764 */
	ck_assert_int_eq(makesim_ratio(t, 3, base, 3, &r), 0);
	ck_assert_double_eq_tol(r.ratio, (e + e * e + e * e * e) /
	    (1 + e + e * e), 1e-12);
	ck_assert_double_eq_tol(r.lo, exp(1 - 2.7764 * sqrt(2.0 / 3)), 1e-3);
	ck_assert_double_eq_tol(r.hi, exp(1 + 2.7764 * sqrt(2.0 / 3)), 1e-1);
	/* one run a side: a ratio, no interval */
	ck_assert_int_eq(makesim_ratio(twice, 1, same, 1, &r), 0);
	ck_assert_double_eq_tol(r.ratio, 2.0, 1e-12);
	ck_assert(isnan(r.lo) && isnan(r.hi));
	ck_assert_int_lt(makesim_ratio(bad, 2, same, 3, &r), 0);
	ck_assert_int_lt(makesim_ratio(same, 3, bad, 0, &r), 0);
}
END_TEST

START_TEST(load_names_and_sizes)
{
	ck_assert_int_eq(makesim_load_kind("no_load"), MS_NO_LOAD);
	ck_assert_int_eq(makesim_load_kind("dbench_load"), MS_DBENCH_LOAD);
	ck_assert_int_eq(makesim_load_kind("ctar_load"), -1);
	ck_assert_str_eq(makesim_load_name(MS_MEM_LOAD), "mem_load");
	tu_assert_has(makesim_load_choices, "list_load");
	ck_assert_uint_eq(makesim_load_bytes(256ULL << 20, 110, 1ULL << 30),
	    (uint64_t)(256.0 * 1.1 * (1 << 20)) & ~4095ULL);
	ck_assert_uint_eq(makesim_load_bytes(24ULL << 30, 110, 1ULL << 30),
	    1ULL << 30);
	ck_assert_uint_eq(makesim_load_bytes(24ULL << 30, 100, 0),
	    24ULL << 30);
}
END_TEST

/* ---- end to end ---- */

/*
 * Run bench/makesim with @args (NULL-terminated), its output into @log
 * (NULL: /dev/null); SIGINT after @sigint_after_ms if not 0.  Exit
 * status.
 */
static int
run_makesim_log(const char *const *args, int sigint_after_ms,
    const char *log)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600) :
		    open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execv(MAKESIM, (char **)args);
		_exit(127);
	}
	if (sigint_after_ms) {
		struct timespec ts = { sigint_after_ms / 1000,
		    (sigint_after_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		kill(pid, SIGINT);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static int
run_makesim(const char *const *args, int sigint_after_ms)
{
	return run_makesim_log(args, sigint_after_ms, NULL);
}

/* No descendant left (we are their subreaper) and @dir is empty. */
static void
nothing_left(const char *dir)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			ck_assert_msg(n++ < 0, "%s/%s left behind", dir,
			    de->d_name);
	closedir(d);
}

static double
res_val(const struct vb_res *r, const char *metric, int iter)
{
	int m = vb_res_metric_index(r, metric);

	ck_assert_msg(m >= 0, "no metric %s", metric);
	return vb_res_get(r, iter, m);
}

START_TEST(e2e_two_loads)
{
	static const char *const loads[] = { "process_load", "io_load" };
	char dir[256], wd[300], out[300], path[400];
	char err[512];
	size_t i;

	ck_assert_msg(access(MAKESIM, X_OK) == 0, "%s not built", MAKESIM);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	make_tmp(dir);
	snprintf(wd, sizeof(wd), "%s/work", dir);
	ck_assert_int_eq(mkdir(wd, 0700), 0);
	for (i = 0; i < 2; i++) {
		const char *args[] = { MAKESIM, "--units", "20", "--jobs", "3",
		    "--cpu", "40000", "--ws-base", "1M", "--ws-per-kb", "64K",
		    "--load", loads[i], "--load-size", "4M", "--load-procs",
		    "4", "--iterations", "2", "--variant", loads[i],
		    "--workdir", wd, "--out", out, NULL };
		struct vb_res r;
		int it;

		snprintf(out, sizeof(out), "%s/makesim@%s", dir, loads[i]);
		ck_assert_int_eq(run_makesim(args, 0), 0);
		snprintf(path, sizeof(path), "%s.res", out);
		ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0,
		    "%s", err);
		ck_assert_str_eq(r.status, "complete");
		ck_assert_str_eq(r.variant, loads[i]);
		ck_assert_str_eq(vb_res_param(&r, "load"), loads[i]);
		ck_assert_str_eq(r.headline, "build_time");
		ck_assert_int_eq(r.niter, 2);
		for (it = 0; it < 2; it++) {
			double bt = res_val(&r, "build_time", it);

			/* 20 units, 2 directories, 1 link */
			ck_assert_double_eq(res_val(&r, "jobs", it), 23);
			ck_assert_double_le(res_val(&r, "max_jobs", it), 3);
			ck_assert_double_gt(bt, 0);
			ck_assert_double_le(bt, res_val(&r, "elapsed", it));
			ck_assert_double_gt(res_val(&r, "build_user", it), 0);
			ck_assert_double_ge(res_val(&r, "loads", it), 1);
			ck_assert_double_gt(res_val(&r, "lcpu", it), 1);
			/* the harness's tree CPU covers build and load */
			ck_assert_double_gt(res_val(&r, "user", it) +
			    res_val(&r, "sys", it), res_val(&r, "build_user",
			    it) + res_val(&r, "build_sys", it));
		}
		vb_res_free(&r);
		nothing_left(wd);
	}
	snprintf(path, sizeof(path), "%s/makesim@io_load.res", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/makesim@io_load.vmstat", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/makesim@process_load.res", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/makesim@process_load.vmstat", dir);
	unlink(path);
	rmdir(wd);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Ctrl-C in the middle of a build beside io_load. */
START_TEST(e2e_interrupted)
{
	char dir[256], wd[300], out[300], path[400];
	char err[512];
	struct vb_res r;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	make_tmp(dir);
	snprintf(wd, sizeof(wd), "%s/work", dir);
	ck_assert_int_eq(mkdir(wd, 0700), 0);
	snprintf(out, sizeof(out), "%s/makesim", dir);
	{
		const char *args[] = { MAKESIM, "--units", "40", "--cpu",
		    "4000000", "--ws-base", "1M", "--ws-per-kb", "64K",
		    "--load", "io_load", "--load-size", "4M", "--iterations",
		    "3", "--workdir", wd, "--out", out, NULL };

		ck_assert_int_eq(run_makesim(args, 700), 130);
	}
	snprintf(path, sizeof(path), "%s.res", out);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_str_eq(r.status, "interrupted");
	ck_assert_int_eq(r.niter, 0);
	vb_res_free(&r);
	nothing_left(wd);
	unlink(path);
	snprintf(path, sizeof(path), "%s.vmstat", out);
	unlink(path);
	rmdir(wd);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A load that fails on its own fails the iteration, and says so. */
START_TEST(e2e_load_fails)
{
	char dir[256], wd[300], out[300], path[400];
	char log[300], err[512], text[4096];
	struct vb_res r;
	ssize_t n;
	int fd;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	make_tmp(dir);
	snprintf(wd, sizeof(wd), "%s/work", dir);
	ck_assert_int_eq(mkdir(wd, 0700), 0);
	snprintf(out, sizeof(out), "%s/makesim", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	{
		/* fileload replaced by /bin/false: every run fails */
		const char *args[] = { MAKESIM, "--units", "20", "--cpu",
		    "20000", "--ws-base", "1M", "--ws-per-kb", "64K",
		    "--load", "dbench_load", "--fileload", "/bin/false",
		    "--workdir", wd, "--out", out, NULL };

		ck_assert_int_eq(run_makesim_log(args, 0, log), 1);
	}
	fd = open(log, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	ck_assert_int_gt(n, 0);
	text[n] = '\0';
	ck_assert_msg(strstr(text, "dbench_load: /bin/false failed (exit "
	    "status 1)") && strstr(text, "dbench_load failed during the "
	    "build"), "log: %s", text);
	snprintf(path, sizeof(path), "%s.res", out);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_str_eq(r.status, "failed");
	ck_assert_int_eq(r.niter, 0);
	vb_res_free(&r);
	nothing_left(wd);
	unlink(path);
	snprintf(path, sizeof(path), "%s.vmstat", out);
	unlink(path);
	unlink(log);
	rmdir(wd);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * mem_load killed by the OOM killer: the iteration's line names it,
 * with the counter that rose: the memory cgroup's when the runner named
 * one (VMBENCH_CGROUP), else the system's.  Inside a 48M cgroup of our
 * own without swap, mem_load asks for 128M (needs root and a memory
 * controller; skipped otherwise).
 */
START_TEST(e2e_mem_load_oom)
{
	char dir[64], wd[80], out[96], log[80], err[512], *text[2];
	const char *tail;
	size_t n;
	struct vb_memlimit m;
	int k, status[2], removed;

#if defined(__SANITIZE_ADDRESS__)
	/* ASan's shadow memory makes makesim itself the victim at 48M */
	tu_skip("a 48M cgroup cannot hold makesim under AddressSanitizer");
	return;
#endif
	if (vb_memlimit_create(&m, 48 << 20, 0, err, sizeof(err)) < 0) {
		tu_skip("%s", err);
		return;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	make_tmp(dir);
	snprintf(wd, sizeof(wd), "%s/work", dir);
	snprintf(out, sizeof(out), "%s/makesim", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	mkdir(wd, 0700);
	/*
	 * No assertion until the cgroup is removed: nothing left behind.
	 * The build must outlast mem_load's way to the limit (1 to 2.5 s
	 * here under load, reclaiming the build's pages as it goes): 24
	 * units at -j1, one compile at a time beside the load, end about
	 * 1 s after the OOM kill here, with one CPU kept busy too, as 40
	 * units at -j2 (two compiles to the one load) did, with 0.6 times
	 * their CPU.
	 */
	for (k = 0; k < 2; k++) {
		const char *args[] = { MAKESIM, "-j", "1", "--units", "24",
		    "--cpu", "400000", "--ws-base", "1M", "--ws-per-kb", "64K",
		    "--load", "mem_load", "--load-size", "128M", "--workdir",
		    wd, "--out", out, NULL };
		char version[2] = { (char)('0' + m.version), 0 };
		pid_t pid = fork();

		if (pid == 0) {
			int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC,
			    0600);

			if (vb_memlimit_enter(&m, 0) < 0)
				_exit(126);
			if (k == 0) {
				setenv("VMBENCH_CGROUP", m.path, 1);
				setenv("VMBENCH_CGROUP_VERSION", version, 1);
			} else {
				unsetenv("VMBENCH_CGROUP");
			}
			dup2(fd, 1);
			dup2(fd, 2);
			execv(MAKESIM, (char **)args);
			_exit(127);
		}
		status[k] = -1;
		if (pid > 0)
			waitpid(pid, &status[k], 0);
		text[k] = tu_slurp(log);
	}
	removed = vb_memlimit_remove(&m, err, sizeof(err));
	ck_assert_msg(removed == 0, "%s", err);
	for (k = 0; k < 2; k++) {
		ck_assert_ptr_nonnull(text[k]);
		/* the log's end: Check cannot carry a message of over 4K */
		n = strlen(text[k]);
		tail = text[k] + (n > 2000 ? n - 2000 : 0);
		ck_assert_msg(WIFEXITED(status[k]) &&
		    WEXITSTATUS(status[k]) == 1, "status %d: %s", status[k],
		    tail);
		ck_assert_msg(strstr(text[k], "mem_load failed during the "
		    "build: its worker was killed by the OOM killer (SIGKILL; ")
		    && strstr(text[k], k == 0 ? "in the memory cgroup " :
		    "the system's oom_kill +"), "%s", tail);
		free(text[k]);
	}
	nothing_left(wd);
	ck_assert_int_eq(tu_sh_in(NULL, "rm -rf '%s'", dir), 0);
}
END_TEST

/* Bad input: one line naming it, non-zero exit, nothing run. */
START_TEST(e2e_bad_load)
{
	const char *args[] = { MAKESIM, "--load", "ctar_load", "--check",
	    NULL };
	const char *args2[] = { MAKESIM, "--load", "mem_load", "--load-max",
	    "0", "--check", NULL };

	const char *args3[] = { MAKESIM, "-j32", "--check", NULL };
	const char *args4[] = { MAKESIM, "-j", "x", "--check", NULL };

	unsetenv("VMBENCH_MEM_LIMIT");
	ck_assert_int_ne(run_makesim(args, 0), 0);
	/* make's spelling of --jobs */
	ck_assert_int_eq(run_makesim(args3, 0), 0);
	ck_assert_int_ne(run_makesim(args4, 0), 0);
	/* 110% of RAM with no limit and no cap: refused */
	ck_assert_int_ne(run_makesim(args2, 0), 0);
}
END_TEST

Suite *
makesim_suite(void)
{
	Suite *s = suite_create("makesim");
	TCase *tc = tu_tcase("units");
	TCase *e2e = tu_tcase("end-to-end");

	tcase_add_test(tc, tree_same_seed);
	tcase_add_test(tc, tree_shape);
	tcase_add_test(tc, tree_written_same);
	tcase_add_test(tc, sched_slots_and_deps);
	tcase_add_test(tc, sched_failure);
	tcase_add_test(tc, sched_killed);
	tcase_add_test(tc, sched_cycle);
	tcase_add_test(tc, build_graph);
	tcase_add_test(tc, cpu_work_deterministic);
	tcase_add_test(tc, ratio);
	tcase_add_test(tc, load_names_and_sizes);
	suite_add_tcase(s, tc);
	tcase_set_timeout(e2e, 30);
	tcase_add_test(e2e, e2e_two_loads);
	tcase_add_test(e2e, e2e_interrupted);
	tcase_add_test(e2e, e2e_load_fails);
	tcase_add_test(e2e, e2e_bad_load);
	suite_add_tcase(s, e2e);
	/* a memory cgroup, the OOM killer, the system's oom_kill count */
	e2e = tu_tcase_alone("machine");
	tcase_set_timeout(e2e, 30);
	tcase_add_test(e2e, e2e_mem_load_oom);
	suite_add_tcase(s, e2e);
	return s;
}
