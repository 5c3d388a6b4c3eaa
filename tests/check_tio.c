/*
 * check_tio.c - tio: the arithmetic of its figures (plan.h), the
 * random offsets and orders, the report's tiobench and bonnie tables
 * against golden outputs (tests/golden/tio.out from tests/fixtures/tio-a
 * and tio-b; regenerate with `sh tests/golden/regen-tio.sh`), and
 * end-to-end runs of bench/tio on tiny sizes: every mode at 1 and 2
 * threads, the creates, bad options, and Ctrl-C.
 */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "forms/form.h"
#include "res.h"
#include "testutil.h"
#include "tio/plan.h"

#define MiB (1ULL << 20)

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

START_TEST(figures)
{
	struct tio_phase p = { .blocks = 2560, .block = 4096, .elapsed = 2,
	    .cpu = 0.4, .lat_sum = 0.512, .lat_max = 0.0125 };
	struct tio_fig f;
	double ps, cpu;

	tio_figures(&p, &f);
	/* 10 MB in 2 s at 0.4 s of CPU */
	ck_assert(near(f.rate, 5));
	ck_assert(near(f.cpu_pct, 20));
	ck_assert(near(f.eff, 25));
	ck_assert(near(f.lat_avg, 0.2));
	ck_assert(near(f.lat_max, 12.5));
	/* the post's first row: 13.23 MB/s at 43.2% is 30.62 */
	p.blocks = (uint64_t)(13.23 * 256 * 100);
	p.elapsed = 100;
	p.cpu = 43.2;
	tio_figures(&p, &f);
	ck_assert_msg(fabs(f.eff - 30.62) < 0.01, "%g", f.eff);
	/* nothing measured: no figure, never a division by zero */
	memset(&p, 0, sizeof(p));
	tio_figures(&p, &f);
	ck_assert(isnan(f.rate) && isnan(f.cpu_pct) && isnan(f.eff));
	ck_assert(isnan(f.lat_avg) && isnan(f.lat_max));
	p.elapsed = 1;
	p.block = 4096;
	tio_figures(&p, &f);
	ck_assert(f.rate == 0 && f.cpu_pct == 0 && isnan(f.eff));

	/* bonnie's: 16384 files in 4 s at 3.872 s of CPU */
	tio_file_figures(16384, 4, 3.872, &ps, &cpu);
	ck_assert(near(ps, 4096));
	ck_assert(near(cpu, 96.8));
	tio_file_figures(16384, 0, 1, &ps, &cpu);
	ck_assert(isnan(ps) && isnan(cpu));
}
END_TEST

START_TEST(sizes)
{
	/* twice the memory limit; without one, 256M */
	ck_assert_uint_eq(tio_default_size(512 * MiB, 4, 4096), 1024 * MiB);
	ck_assert_uint_eq(tio_default_size(0, 1, 4096), 256 * MiB);
	ck_assert_uint_eq(tio_default_size(0, 8, 4096), 256 * MiB);
	/* whole blocks per thread */
	ck_assert_uint_eq(tio_file_size(2000000, 3, 4096),
	    2000000 / 3 / 4096 * 4096);
	ck_assert_uint_eq(tio_default_size(1000000, 3, 4096),
	    2000000 / 3 / 4096 * 4096 * 3);
	ck_assert_uint_eq(tio_default_size(1000000, 3, 4096) % (3 * 4096), 0);
	/* less than a block a thread */
	ck_assert_uint_eq(tio_default_size(4096, 4, 4096), 0);
	ck_assert_uint_eq(tio_file_size(8191, 2, 4096), 0);
	ck_assert_uint_eq(tio_file_size(MiB, 0, 4096), 0);
}
END_TEST

START_TEST(random_offsets)
{
	static const uint64_t blocks[] = { 1, 7, 2560, 1ULL << 30 };
	uint64_t a, b, c, x, y;
	size_t i, k, same = 0;
	unsigned char *seen = calloc(2560, 1);
	int distinct = 0;

	ck_assert_ptr_nonnull(seen);
	for (k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
		a = tio_seed(1, 0);
		b = tio_seed(1, 0);
		c = tio_seed(1, 1);
		for (i = 0; i < 10000; i++) {
			x = tio_rand_offset(&a, blocks[k], 4096);
			y = tio_rand_offset(&b, blocks[k], 4096);
			/* the same seed, the same sequence */
			ck_assert_uint_eq(x, y);
			ck_assert_uint_eq(x % 4096, 0);
			ck_assert(x < blocks[k] * 4096);
			if (tio_rand_offset(&c, blocks[k], 4096) == x)
				same++;
			if (blocks[k] == 2560 && !seen[x / 4096]++)
				distinct++;
		}
	}
	/* another thread's sequence is another one */
	ck_assert_msg(same < 10000 + 10000 / 7 * 2 + 10, "%zu", same);
	/* 10000 draws of 2560 blocks reach nearly all of them */
	ck_assert_msg(distinct > 2400, "%d", distinct);
	ck_assert_uint_ne(tio_seed(1, 0), tio_seed(2, 0));
	ck_assert_uint_ne(tio_seed(0, 0), 0);
	free(seen);
}
END_TEST

START_TEST(orders)
{
	uint32_t a[1000], b[1000], c[1000];
	unsigned char seen[1000];
	int i, moved = 0;

	tio_order(a, 1000, 0);
	for (i = 0; i < 1000; i++)
		ck_assert_uint_eq(a[i], (uint32_t)i);
	tio_order(a, 1000, 5);
	tio_order(b, 1000, 5);
	tio_order(c, 1000, 6);
	ck_assert(memcmp(a, b, sizeof(a)) == 0);
	ck_assert(memcmp(a, c, sizeof(a)) != 0);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 1000; i++) {
		ck_assert(a[i] < 1000 && !seen[a[i]]);
		seen[a[i]] = 1;
		moved += a[i] != (uint32_t)i;
	}
	ck_assert_int_gt(moved, 900);
	tio_order(a, 1, 9);
	ck_assert_uint_eq(a[0], 0);
}
END_TEST

START_TEST(names)
{
	char a[TIO_NAME_MAX], b[TIO_NAME_MAX], num[8];
	uint64_t s1 = tio_seed(1, 0), s2 = tio_seed(1, 0);
	size_t len, j, minlen = 99, maxlen = 0;
	uint32_t i;
	int k;

	for (k = 0; k < 2; k++)
	for (i = 0; i < 3000; i += 7) {
		tio_name(a, sizeof(a), i, k, &s1);
		tio_name(b, sizeof(b), i, k, &s2);
		/* the same seed, the same names */
		ck_assert_str_eq(a, b);
		len = strlen(a);
		ck_assert(len >= 7 && len <= 7 + TIO_NAME_EXTRA);
		snprintf(num, sizeof(num), "%07u", (unsigned)i);
		/* the number first (sequential) or last (random) */
		ck_assert_msg(strncmp(k ? a + len - 7 : a, num, 7) == 0, "%s",
		    a);
		for (j = 0; j < len; j++)
			ck_assert(isalnum((unsigned char)a[j]));
		if (len < minlen)
			minlen = len;
		if (len > maxlen)
			maxlen = len;
	}
	/* 0 to 12 extra characters, all lengths met */
	ck_assert_uint_eq(minlen, 7);
	ck_assert_uint_eq(maxlen, 7 + TIO_NAME_EXTRA);
}
END_TEST

/* tio's form (forms/tiobench.c) of the fixtures, as text (caller frees). */
static char *
tio_tables(void)
{
	static const char *const dirs[2] = {
		"tests/fixtures/tio-a", "tests/fixtures/tio-b",
	};
	struct rl_set s = { 0 };
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *m;
	int i;

	s.nk = 2;
	s.k = calloc(2, sizeof(*s.k));
	ck_assert_ptr_nonnull(s.k);
	for (i = 0; i < 2; i++)
		ck_assert_msg(rl_load_kernel(dirs[i], &s.k[i], err,
		    sizeof(err)) == 0, "%s", err);
	rl_index(&s);
	ck_assert_ptr_nonnull(m = open_memstream(&text, &len));
	ck_assert_int_eq(form_tiobench.table(m, &s, form_tiobench.bench, 80),
	    2);
	fclose(m);
	rl_free(&s);
	return text;
}

START_TEST(golden_tables)
{
	char *got = tio_tables(), *want = tu_slurp("tests/golden/tio.out");
	const char *p, *nl;

	ck_assert_msg(want != NULL, "tests/golden/tio.out missing (sh "
	    "tests/golden/regen-tio.sh)");
	ck_assert_msg(strcmp(got, want) == 0, "tio's tables differ from "
	    "tests/golden/tio.out:\n%s", got);
	/* 80 columns, and the post's headings */
	for (p = got; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		ck_assert_msg(nl - p <= 80, "too wide: %.*s", (int)(nl - p), p);
	}
	tu_assert_has(got, "Thr      Rate  (CPU%)      Eff");
	tu_assert_has(got, "Sequential Create");
	tu_assert_has(got, "Random Create");
	free(got);
	free(want);
	/* and make post prints them */
	ck_assert_int_eq(tu_sh_in(NULL, "report/vmreport --post "
	    "tests/fixtures/tio-a tests/fixtures/tio-b 2>&1 | "
	    "grep -q '^Threaded I/O Bench'"), 0);
}
END_TEST

/* Run bench/tio with @args; its exit status, output in tio.out. */
static int
tio(const char *args)
{
	return tu_sh_in(NULL, "bench/tio %s --workdir %s --out %s/tio "
	    ">%s/tio.out 2>&1", args, tu_dir, tu_dir, tu_dir);
}

static char *
output(char *buf, size_t len)
{
	char p[512];
	FILE *f = fopen(tu_path(p, sizeof(p), "tio.out"), "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * What a run left: entries in tu_dir besides tio.*, plus the processes
 * still running with tu_dir on their command line (a thread or child
 * left behind).
 */
static int
leftovers(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = tu_count_except(tu_dir, "tio.");

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[300], cmd[4096];
		size_t len, i;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		len = fread(cmd, 1, sizeof(cmd) - 1, f);
		fclose(f);
		for (i = 0; i < len; i++)
			if (!cmd[i])
				cmd[i] = ' ';
		cmd[len] = '\0';
		if (strstr(cmd, tu_dir) && strstr(cmd, "bench/tio"))
			n++;
	}
	closedir(d);
	return n;
}

static void
readres(struct vb_res *r)
{
	char p[512], err[512];

	ck_assert_msg(vb_res_read(tu_path(p, sizeof(p), "tio.res"), r, err,
	    sizeof(err)) == 0, "%s", err);
}

static double
get(const struct vb_res *r, const char *m)
{
	int i = vb_res_metric_index(r, m);

	ck_assert_msg(i >= 0, "no metric %s", m);
	return vb_res_get(r, r->niter - 1, i);
}

START_TEST(e2e_modes)
{
	static const char *const mode[4] = {
		"seq_write", "rand_write", "seq_read", "rand_read",
	};
	static const char *const args[2] = {
		"--threads 1 --size 2M --random-ops 50 --iterations 2",
		"--threads 2 --size 3M --random-ops 50 --iterations 2",
	};
	struct vb_res r;
	char name[64], buf[8192];
	int t, m;

	for (t = 0; t < 2; t++) {
		ck_assert_int_eq(tio(args[t]), 0);
		readres(&r);
		ck_assert_str_eq(r.status, "complete");
		ck_assert_str_eq(r.headline, "seq_read_mbs");
		ck_assert_int_eq(r.niter, 2);
		ck_assert_str_eq(vb_res_param(&r, "threads"), t ? "2" : "1");
		/* 3M over 2 threads: 1.5M each, whole 4K blocks */
		ck_assert_str_eq(vb_res_param(&r, "size"), t ? "3M" : "2M");
		ck_assert_str_eq(vb_res_param(&r, "block"), "4K");
		for (m = 0; m < 4; m++) {
			double mbs, cpu, eff, avg, max;

			snprintf(name, sizeof(name), "%s_mbs", mode[m]);
			mbs = get(&r, name);
			snprintf(name, sizeof(name), "%s_cpu", mode[m]);
			cpu = get(&r, name);
			snprintf(name, sizeof(name), "%s_eff", mode[m]);
			eff = get(&r, name);
			snprintf(name, sizeof(name), "%s_lat_avg", mode[m]);
			avg = get(&r, name);
			snprintf(name, sizeof(name), "%s_lat_max", mode[m]);
			max = get(&r, name);
			ck_assert_msg(mbs > 0 && isfinite(mbs), "%s %g",
			    mode[m], mbs);
			ck_assert_msg(cpu >= 0, "%s cpu %g", mode[m], cpu);
			ck_assert(cpu == 0 || fabs(eff - mbs / (cpu / 100)) <=
			    1e-6 * eff);
			ck_assert_msg(avg > 0 && max >= avg, "%s %g %g",
			    mode[m], avg, max);
		}
		vb_res_free(&r);
		output(buf, sizeof(buf));
		ck_assert_msg(strstr(buf, "Random Read") != NULL, "%s", buf);
		ck_assert_int_eq(leftovers(), 0);
	}
}
END_TEST

/*
 * --pause waits before each phase but the first, outside the phases'
 * clocks: three waits of 0.3 s lengthen the iteration by 0.9 s or more
 * and leave the rates of phases that take milliseconds alone.
 */
START_TEST(e2e_pause)
{
	struct vb_res r;
	struct timespec a, b;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &a);
	ck_assert_int_eq(tio("--size 1M --random-ops 20 --pause 0.3"), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec -
	    a.tv_nsec) / 1e9;
	ck_assert_msg(s >= 0.9, "%g s", s);
	readres(&r);
	ck_assert_str_eq(vb_res_param(&r, "pause"), "0.3");
	/* 1M read in under 0.3 s: the wait is not in the figure */
	ck_assert_msg(get(&r, "seq_read_mbs") > 1 / 0.3, "%g",
	    get(&r, "seq_read_mbs"));
	vb_res_free(&r);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

START_TEST(e2e_creates)
{
	static const char *const fig[4] = {
		"seq_create", "seq_delete", "rand_create", "rand_delete",
	};
	struct vb_res r;
	char name[64];
	int i;

	ck_assert_int_eq(tio("--creates --files 300 --variant creates"), 0);
	readres(&r);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_str_eq(r.variant, "creates");
	ck_assert_str_eq(r.headline, "seq_create_per_s");
	ck_assert_str_eq(vb_res_param(&r, "files"), "300");
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "%s_per_s", fig[i]);
		ck_assert_msg(get(&r, name) > 0, "%s", name);
		snprintf(name, sizeof(name), "%s_cpu", fig[i]);
		ck_assert_msg(get(&r, name) >= 0, "%s", name);
	}
	vb_res_free(&r);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

/*
 * --creates --own-group: the files in a folder of their own name each
 * iteration under a work folder marked FS_TOPDIR_FL (ext4), said in a
 * note either way; nothing left behind.
 */
START_TEST(e2e_creates_own_group)
{
	struct statfs sf;
	struct vb_res r;
	char p[512], *res;

	ck_assert_int_eq(statfs(tu_dir, &sf), 0);
	ck_assert_int_eq(tio("--creates --files 200 --iterations 2 "
	    "--own-group"), 0);
	readres(&r);
	ck_assert_str_eq(r.status, "complete");
	ck_assert_str_eq(vb_res_param(&r, "own-group"), "1");
	ck_assert_msg(get(&r, "seq_create_per_s") > 0, "seq_create_per_s");
	vb_res_free(&r);
	res = tu_slurp_ok("%s", tu_path(p, sizeof(p), "tio.res"));
	if (sf.f_type == 0xEF53)
		tu_assert_has(res, "\nnote --own-group: each iteration's files "
		    "in a block group ext4 picks anew (FS_TOPDIR_FL");
	else
		tu_assert_has(res, "\nnote --own-group: the file system does "
		    "not take FS_TOPDIR_FL (");
	free(res);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

/*
 * --creates on a file system out of inodes (a tmpfs of 50, root only):
 * the failure names the file, its folder and the file system (type,
 * mount point, what it lacks), and the result says failed.
 */
START_TEST(e2e_creates_enospc)
{
	char mnt[512], cmd[2048], want[1024], *err;
	struct vb_res r;
	int rc;

	if (geteuid() != 0) {
		tu_skip("needs root to mount a tmpfs");
		return;
	}
	tu_path(mnt, sizeof(mnt), "m");
	ck_assert_int_eq(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=4m,nr_inodes=50") < 0) {
		tu_skip("cannot mount a tmpfs");
		rmdir(mnt);
		return;
	}
	snprintf(cmd, sizeof(cmd), "bench/tio --creates --files 300 "
	    "--workdir %s --out %s/tio >/dev/null 2>%s/tio.err", mnt, tu_dir,
	    tu_dir);
	rc = system(cmd);
	/* nothing left in it; unmounted before any assertion */
	ck_assert_int_eq(tu_count_except(mnt, ""), 0);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 1, "status %d", rc);
	err = tu_slurp(tu_path(cmd, sizeof(cmd), "tio.err"));
	ck_assert_ptr_nonnull(err);
	snprintf(want, sizeof(want), "tio: cannot create file ");
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
	snprintf(want, sizeof(want), " in %s/vmbench-tio.", mnt);
	ck_assert_msg(strstr(err, want) != NULL, "%s", err);
	snprintf(want, sizeof(want), "/files: the tmpfs file system at %s "
	    "has no free inodes (50 in all): No space left on device\n", mnt);
	ck_assert_msg(strstr(err, want) != NULL, "%s", err);
	free(err);
	readres(&r);
	ck_assert_str_eq(r.status, "failed");
	vb_res_free(&r);
}
END_TEST

START_TEST(e2e_bad_input)
{
	static const struct {
		const char *args, *want;
	} t[] = {
		{ "--threads 0", "--threads" },
		{ "--threads 2 --size 4K", "--size 4K gives each of the 2 "
		  "threads less than one --block" },
		{ "--creates --threads 2", "--creates makes empty files" },
		{ "--creates --size 1M", "--creates makes empty files" },
		{ "--creates --pause 1", "--creates makes empty files" },
		{ "--own-group", "--own-group is for --creates only" },
		{ "--pause -1", "--pause" },
		{ "--direct --block 1000", "--direct needs a --block of "
		  "whole 512-byte sectors" },
		{ "--block 100", "--block" },
		{ "--files x", "--files" },
		{ "--frobnicate", "frobnicate" },
		{ "--mem 4K --threads 4", "--mem 4K leaves each of the 4 "
		  "threads" },
		/* far more than any disk: refused before writing */
		{ "--size 16T", "the files need" },
	};
	char buf[2048];
	size_t i, n;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_int_ne(tio(t[i].args), 0);
		output(buf, sizeof(buf));
		n = strlen(buf);
		ck_assert_msg(strstr(buf, t[i].want) != NULL, "%s: %s",
		    t[i].args, buf);
		ck_assert_msg(n > 0 && strchr(buf, '\n') == buf + n - 1,
		    "not one line: %s", buf);
		ck_assert_int_eq(leftovers(), 0);
	}
	setenv("VMBENCH_MEM_LIMIT", "lots", 1);
	ck_assert_int_ne(tio(""), 0);
	unsetenv("VMBENCH_MEM_LIMIT");
	output(buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "VMBENCH_MEM_LIMIT") != NULL, "%s", buf);
}
END_TEST

/* --help lists the figures of both modes, --creates' after the rest. */
START_TEST(e2e_help_figures)
{
	static const char *const want[] = {
		"\nFigures (besides", "  rand_write_lat_max ",
		"  seq_read_mbs ", "\nFigures with --creates (besides",
		"  seq_create_per_s ", "  seq_delete_cpu ",
		"  rand_create_per_s ",
		"  rand_delete_per_s ", "  rand_delete_cpu ",
	};
	static char buf[16384];
	const char *at = buf;
	size_t i;

	ck_assert_int_eq(tio("--help"), 0);
	output(buf, sizeof(buf));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ck_assert_msg((at = strstr(at, want[i])) != NULL, "--help "
		    "lacks '%s' (in this order)", want[i]);
		at++;
	}
	/* --creates --help: the same text */
	ck_assert_int_eq(tio("--creates --help"), 0);
	ck_assert_msg(strstr(output(buf, sizeof(buf)), "\nFigures (besides "
	    "time, rusage and vmstat deltas):\n  seq_write_mbs "), "%s", buf);
}
END_TEST

START_TEST(e2e_sigint)
{
	char out[512], wd[512];
	struct vb_res r;
	int status;
	pid_t pid;

	tu_path(out, sizeof(out), "tio");
	snprintf(wd, sizeof(wd), "%s", tu_dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		/* 4 threads writing 4G: seconds of work when stopped */
		execl("bench/tio", "tio", "--threads", "4", "--size", "4G",
		    "--workdir", wd, "--out", out, (char *)NULL);
		_exit(127);
	}
	usleep(700000);
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 130);
	readres(&r);
	ck_assert_str_eq(r.status, "interrupted");
	vb_res_free(&r);
	/* threads stopped, files and work folder removed */
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

Suite *
tio_suite(void)
{
	Suite *s = suite_create("tio");
	TCase *tc = tu_tcase_local("plan");
	TCase *e2e = tu_tcase("e2e");

	tcase_add_test(tc, figures);
	tcase_add_test(tc, sizes);
	tcase_add_test(tc, random_offsets);
	tcase_add_test(tc, orders);
	tcase_add_test(tc, names);
	tcase_add_test(tc, golden_tables);
	suite_add_tcase(s, tc);

	tcase_add_unchecked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 60);
	tcase_add_test(e2e, e2e_modes);
	tcase_add_test(e2e, e2e_pause);
	tcase_add_test(e2e, e2e_creates);
	tcase_add_test(e2e, e2e_creates_own_group);
	tcase_add_test(e2e, e2e_creates_enospc);
	tcase_add_test(e2e, e2e_bad_input);
	tcase_add_test(e2e, e2e_help_figures);
	tcase_add_test(e2e, e2e_sigint);
	suite_add_tcase(s, e2e);
	return s;
}
