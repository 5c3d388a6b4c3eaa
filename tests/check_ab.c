/*
 * check_ab.c - make ab (src/lib/ab.c and vmrun --a/--b): the ABBA
 * schedule, and bench/vmrun --a/--b end to end on a fake settings tree
 * (every signal path, SIGKILL then the next run, a benchmark killed
 * mid-run), and on the real one, as root, without changing a value.
 */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ab.h"
#include "testutil.h"

/* Run a command line through the shell: tests/testutil.h. */
#define sh(...)	tu_sh_in(NULL, __VA_ARGS__)

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
 * The side that starts alternates from one config line to the next:
 * the order on lines 0, 2, ..., A and B swapped on lines 1, 3, ...; and
 * --warmup takes 1 (the default, also when not given) or 0, nothing
 * else.
 */
START_TEST(line_order_warmup_arg)
{
	char lo[17], out[256], err[256];
	int line, n;

	vb_ab_line_order("ABBA", 0, lo);
	ck_assert_str_eq(lo, "ABBA");
	vb_ab_line_order("ABBA", 1, lo);
	ck_assert_str_eq(lo, "BAAB");
	vb_ab_line_order("ABBA", 2, lo);
	ck_assert_str_eq(lo, "ABBA");
	vb_ab_line_order("BAAB", 1, lo);
	ck_assert_str_eq(lo, "ABBA");
	vb_ab_line_order("AB", 3, lo);
	ck_assert_str_eq(lo, "BA");
	vb_ab_line_order("ABBABAAB", 5, lo);
	ck_assert_str_eq(lo, "BAABABBA");
	/* every line's schedule starts with its own side, A on even lines */
	for (line = 0; line < 6; line++)
		for (n = 1; n <= 5; n++) {
			vb_ab_line_order("ABBA", line, lo);
			vb_ab_schedule(lo, n, out);
			ck_assert_int_eq(out[0], line % 2 ? 'B' : 'A');
		}
	ck_assert_int_eq(vb_ab_warmup_arg(NULL, err, sizeof(err)), 1);
	ck_assert_int_eq(vb_ab_warmup_arg("", err, sizeof(err)), 1);
	ck_assert_int_eq(vb_ab_warmup_arg("1", err, sizeof(err)), 1);
	ck_assert_int_eq(vb_ab_warmup_arg("0", err, sizeof(err)), 0);
	ck_assert_int_eq(vb_ab_warmup_arg("x", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "--warmup 'x': give 1 (a discarded run of each "
	    "line before its measured runs, the default) or 0 (none)");
	ck_assert_int_eq(vb_ab_warmup_arg("2", err, sizeof(err)), -1);
	ck_assert_int_eq(vb_ab_warmup_arg("00", err, sizeof(err)), -1);
	ck_assert_int_eq(vb_ab_warmup_arg("1 ", err, sizeof(err)), -1);
	ck_assert_int_eq(vb_ab_warmup_arg("0\n;x", err, sizeof(err)), -1);
	/* the value shown on one line */
	ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

/*
 * vmrun --a/--b on the fake tree: two folders, each with its iterations
 * in ABBA order, meta naming the setting, the fake knobs restored.
 */
static const char *res_status(const char *path, char *buf, size_t len,
    int *niter);

START_TEST(ab_end_to_end_fake)
{
	char v[256], path[700], dir[600];
	int n;

	tu_fake_settings();
	tu_fake("ab.conf", "iterations 2\nforkbomb --forks 2 --ints 10 "
	    "with=probe\n");
	ck_assert_int_eq(sh("VMBENCH_SYSROOT=%s bench/vmrun --kernel t "
	    "--a 'vm.swappiness=7' --b 'vm.swappiness=9,thp=never' "
	    "--config %s/ab.conf --results %s/r --workdir %s/w "
	    ">%s/out 2>%s/err", tu_dir, tu_dir, tu_dir, tu_dir, tu_dir,
	    tu_dir), 0);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_str_eq(tu_line(
	    "sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)),
	    "madvise");
	snprintf(dir, sizeof(dir), "%s/r/t-A", tu_dir);
	ck_assert_str_eq(tu_meta_val(dir, "ab_setting", v, sizeof(v)),
	    "vm.swappiness=7");
	ck_assert_str_eq(tu_meta_val(dir, "ab_order", v, sizeof(v)), "ABBA");
	ck_assert_str_eq(tu_meta_val(dir, "status", v, sizeof(v)), "complete");
	/* one folder a side, each iteration a run of its own */
	ck_assert_str_eq(tu_meta_val(dir, "unit", v, sizeof(v)),
	    "run-per-iteration");
	ck_assert_str_eq(tu_meta_val(dir, "run", v, sizeof(v)), "(none)");
	ck_assert_str_ne(tu_meta_val(dir, "boot_id", v, sizeof(v)), "(none)");
	snprintf(path, sizeof(path), "%s/forkbomb.res", dir);
	tu_res_mean(path, "elapsed", &n);
	ck_assert_int_eq(n, 2);
	/* the probe's runs, merged a slot at a time, end complete too */
	for (n = 0; n < 2; n++) {
		int ni;

		snprintf(path, sizeof(path), "%s/r/t-%c/probe@forkbomb.res",
		    tu_dir, n ? 'B' : 'A');
		ck_assert_str_eq(res_status(path, v, sizeof(v), &ni),
		    "complete");
		ck_assert_int_eq(ni, 2);
	}
	snprintf(dir, sizeof(dir), "%s/r/t-B", tu_dir);
	ck_assert_str_eq(tu_meta_val(dir, "ab_setting", v, sizeof(v)),
	    "vm.swappiness=9,thp=never");
	ck_assert_str_eq(tu_meta_val(dir, "ab_pair", v, sizeof(v)), "t-A");
	snprintf(path, sizeof(path), "%s/forkbomb.res", dir);
	tu_res_mean(path, "elapsed", &n);
	ck_assert_int_eq(n, 2);
	/* the order, as the progress said it */
	ck_assert_int_eq(sh("grep -q 'forkbomb: 2 iterations a side, ABBA,' "
	    "%s/err", tu_dir), 0);
	/* the comparison follows on stdout */
	ck_assert_int_eq(sh("grep -q 't-B' %s/out", tu_dir), 0);
	/* and run/vmbench, the fake tree's state folder (state.h) */
	ck_assert_int_eq(tu_count_except(tu_dir, ""), 8);
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
	/* an unknown setting or a bad value: one line, nothing made */
	tu_fake_settings();
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

/*
 * Start an A/B run on the fake tree in the background, with --warmup
 * @warmup unless NULL; its pid.
 */
static pid_t
start_abw(const char *label, const char *warmup)
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
		    warmup ? "--warmup" : (char *)NULL, warmup, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* start_abw() with the default warm-up. */
static pid_t
start_ab(const char *label)
{
	return start_abw(label, NULL);
}

/* Wait until the fake swappiness reads @want (at most 10 s). */
static int
wait_knob(const char *want)
{
	char v[64];
	int i;

	for (i = 0; i < 1000; i++) {
		if (strcmp(tu_line("proc/sys/vm/swappiness", v, sizeof(v)),
		    want) == 0)
			return 1;
		usleep(10000);
	}
	return 0;
}

/*
 * Wait until the benchmark of vmrun @pid forks (at most 20 s): its
 * iteration has a child (tests/testutil.h), looked for every 2 ms (a
 * benchmark that forks until stopped is stopped the sooner).  The tree
 * is counted once a turn: the child seen may be gone by a second count.
 */
static int
wait_forking(pid_t pid)
{
	int i, n = 0;

	for (i = 0; i < 10000 && (n = tu_tree_size(pid)) < 5; i++)
		usleep(2000);
	return n >= 5;
}

/*
 * Wait until vmrun @pid's child (the benchmark it runs, one at a time)
 * is the one whose command line holds @want, looked for every 2 ms (at
 * most 30 s); its pid, 0 if none came.
 */
static pid_t
wait_child(pid_t pid, const char *want)
{
	char path[128], kids[256], cmd[4096];
	long child;
	int i, k;
	FILE *f;

	for (i = 0; i < 15000; i++) {
		snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children",
		    (long)pid, (long)pid);
		kids[0] = '\0';
		if ((f = fopen(path, "r"))) {
			if (!fgets(kids, sizeof(kids), f))
				kids[0] = '\0';
			fclose(f);
		}
		child = atol(kids);
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", child);
		if (child > 0 && (f = fopen(path, "r"))) {
			k = (int)fread(cmd, 1, sizeof(cmd) - 1, f);
			fclose(f);
			cmd[k > 0 ? k : 0] = '\0';
			while (--k >= 0)
				if (!cmd[k])
					cmd[k] = ' ';
			if (strstr(cmd, want))
				return (pid_t)child;
		}
		usleep(2000);
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

	tu_fake_settings();
	tu_fake("ab.conf", "iterations 40\nforkbomb --forks 400 --ints 10\n");
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		pid_t pid;

		snprintf(label, sizeof(label), "s%d", sigs[i]);
		pid = start_ab(label);
		/* A's setting is in force and its benchmark forks */
		ck_assert_msg(wait_knob("7"), "A never applied");
		ck_assert_msg(wait_forking(pid), "A's benchmark never forked");
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
			/* stopped once its benchmark runs (a signal just as
			   vmrun forks it is lost in the child before its exec,
			   and the benchmark's 400 forks run to their end) */
			ck_assert_msg(wait_forking(next), "next never forked");
			kill(next, SIGINT);
			waitpid(next, &status, 0);
			ck_assert_int_eq(sh("grep -q 'a run killed earlier "
			    "(pid %ld) left the machine changed: marked "
			    ".*/r/s9-A interrupted' %s/err-next",
			    (long)pid, tu_dir), 0);
			snprintf(path, sizeof(path), "%s/r/s9-B", tu_dir);
			ck_assert_str_eq(tu_meta_val(path, "status", v,
			    sizeof(v)), "interrupted");
		} else {
			ck_assert_msg(WIFEXITED(status) &&
			    WEXITSTATUS(status) == 130, "signal %d: status "
			    "%d", sigs[i], status);
		}
		ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v,
		    sizeof(v)), "60");
		ck_assert_str_eq(tu_line(
		    "sys/kernel/mm/transparent_hugepage/enabled", v,
		    sizeof(v)), "madvise");
		snprintf(path, sizeof(path), "%s/w", tu_dir);
		ck_assert_int_eq(tu_count_except(path, ""), 0);
	}
}
END_TEST

/* The iterations in the .res @path, 0 when there is none. */
static int
res_niter(const char *path)
{
	int n;

	if (access(path, F_OK) < 0)
		return 0;
	tu_res_mean(path, "elapsed", &n);
	return n;
}

/*
 * The runs of an A/B run as their progress lines said they ended: a
 * letter a measured run (its side), "w" and a letter a warm-up run, from
 * the stderr @err of tu_dir.
 */
static int
runs_were(const char *err, const char *want)
{
	return sh("test \"$(awk '/ done in / { printf \"%%s\", $3 == "
	    "\"warm-up\" ? \"w\" $4 : $3 }' %s/%s)\" = '%s'", tu_dir, err,
	    want);
}

/*
 * The warm-up: before each line's measured runs, one run under the
 * side that starts the line (A on line 1, B on line 2: the start
 * alternates), kept apart in that side's warmup/ and in neither side's
 * results; the report reads none of it.
 */
START_TEST(ab_warmup_fake)
{
	static const char *const lines[2] = { "forkbomb", "forkbomb@b" };
	char v[256], path[700], dir[600];
	int k, l;

	tu_fake_settings();
	tu_fake("ab.conf", "iterations 2\nforkbomb --forks 2 --ints 10\n"
	    "forkbomb@b --forks 1 --ints 10\n");
	ck_assert_int_eq(sh("VMBENCH_SYSROOT=%s bench/vmrun --kernel w "
	    "--a 'vm.swappiness=7' --b 'vm.swappiness=9' --config %s/ab.conf "
	    "--results %s/r --workdir %s/w >%s/out 2>%s/err", tu_dir, tu_dir,
	    tu_dir, tu_dir, tu_dir, tu_dir), 0);
	for (k = 0; k < 2; k++) {
		snprintf(dir, sizeof(dir), "%s/r/w-%c", tu_dir, "AB"[k]);
		ck_assert_str_eq(tu_meta_val(dir, "status", v, sizeof(v)),
		    "complete");
		ck_assert_str_eq(tu_meta_val(dir, "ab_warmup", v, sizeof(v)),
		    "1");
		ck_assert_str_eq(tu_meta_val(dir, "ab_start", v, sizeof(v)),
		    "alternate");
		for (l = 0; l < 2; l++) {
			/* the measured runs only, 2 a side */
			snprintf(path, sizeof(path), "%s/%s.res", dir,
			    lines[l]);
			ck_assert_int_eq(res_niter(path), 2);
			/* the warm-up apart, under the line's first side */
			snprintf(path, sizeof(path), "%s/warmup/%s.res", dir,
			    lines[l]);
			ck_assert_int_eq(res_niter(path), k == l);
			snprintf(path, sizeof(path), "%s/warmup/%s.log", dir,
			    lines[l]);
			ck_assert_int_eq(access(path, F_OK) == 0, k == l);
		}
	}
	/* each line's warm-up first, then its order, B starting line 2 */
	ck_assert_int_eq(runs_were("err", "wAABBAwBBAAB"), 0);
	ck_assert_int_eq(sh("grep -qx '\\[1/2\\] forkbomb: 2 iterations a "
	    "side, ABBA, after a discarded warm-up run under A' %s/err",
	    tu_dir), 0);
	ck_assert_int_eq(sh("grep -qx '\\[2/2\\] forkbomb@b: 2 iterations a "
	    "side, BAAB, after a discarded warm-up run under B' %s/err",
	    tu_dir), 0);
	/* the comparison: 2 runs a side, nothing of the warm-up */
	ck_assert_int_eq(sh("grep -q 'w-B' %s/out && ! grep -q warmup "
	    "%s/out", tu_dir, tu_dir), 0);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)),
	    "60");
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
}
END_TEST

/*
 * make as the tree was built (as in check_make.c): without the
 * enclosing make's flags, make all would rebuild every program plain
 * under make check SANITIZE=1 (.build-flags), in the middle of the
 * other suites.
 */
#ifdef __SANITIZE_ADDRESS__
#define BUILD_MODE "SANITIZE=1"
#else
#define BUILD_MODE "SANITIZE="
#endif

/*
 * make ab through make, as the user runs it, on the fake tree; MAKE_AB_O
 * its recipe alone (-o all: the programs are built, and make all's
 * check of every file, a fifth of a second of CPU, is done once).
 */
#define MAKE_AB_OPT(o) "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL " \
	"VMBENCH_SYSROOT=%s make -s " o "ab " BUILD_MODE " " \
	"A='vm.swappiness=7' B='vm.swappiness=9' "
#define MAKE_AB		MAKE_AB_OPT("")
#define MAKE_AB_O	MAKE_AB_OPT("-o all ")

/*
 * make ab WARMUP=0: no warm-up run (the start side still alternates);
 * a WARMUP that is neither 0 nor 1 is refused in one line before
 * anything is made, and never reaches a shell.
 */
START_TEST(ab_warmup_make)
{
	static const char *const bad[] = { "x", "2", "0;touch %s/pwned",
	    "$(touch %s/pwned)", "`touch %s/pwned`" };
	char v[256], path[700], dir[600], w[128];
	size_t i;
	int k;

	tu_fake_settings();
	tu_fake("ab.conf", "iterations 1\nforkbomb --forks 2 --ints 10\n"
	    "forkbomb@b --forks 1 --ints 10\n");
	ck_assert_int_eq(sh(MAKE_AB "KERNEL=z WARMUP=0 CONFIG=%s/ab.conf "
	    "RESULTS=%s/r WORKDIR=%s/w >%s/out 2>%s/err", tu_dir, tu_dir,
	    tu_dir, tu_dir, tu_dir, tu_dir), 0);
	ck_assert_int_eq(runs_were("err", "ABBA"), 0);
	ck_assert_int_eq(sh("! grep -q warm-up %s/err", tu_dir), 0);
	for (k = 0; k < 2; k++) {
		snprintf(dir, sizeof(dir), "%s/r/z-%c", tu_dir, "AB"[k]);
		ck_assert_str_eq(tu_meta_val(dir, "ab_warmup", v, sizeof(v)),
		    "0");
		snprintf(path, sizeof(path), "%s/forkbomb@b.res", dir);
		ck_assert_int_eq(res_niter(path), 1);
		snprintf(path, sizeof(path), "%s/warmup", dir);
		ck_assert_int_ne(access(path, F_OK), 0);
	}
	/* WARMUP=1 is the default's (one line is enough to show it) */
	tu_fake("ab1.conf", "iterations 1\nforkbomb --forks 2 --ints 10\n");
	ck_assert_int_eq(sh(MAKE_AB_O "KERNEL=o WARMUP=1 CONFIG=%s/ab1.conf "
	    "RESULTS=%s/r WORKDIR=%s/w >%s/out 2>%s/err", tu_dir, tu_dir,
	    tu_dir, tu_dir, tu_dir, tu_dir), 0);
	ck_assert_int_eq(runs_were("err", "wAAB"), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(w, sizeof(w), bad[i], tu_dir);
		ck_assert_int_ne(sh(MAKE_AB_O "KERNEL=bad WARMUP='%s' "
		    "CONFIG=%s/ab.conf RESULTS=%s/r WORKDIR=%s/w >%s/out "
		    "2>%s/err", tu_dir, w, tu_dir, tu_dir, tu_dir, tu_dir,
		    tu_dir), 0);
		/* one line of vmrun's (then make's own), nothing made */
		ck_assert_msg(sh("test $(grep -c . %s/err) -le 2 && "
		    "test $(grep -c '^vmrun: ' %s/err) = 1 && grep -q "
		    "\"^vmrun: --warmup '.*': give 1 (a discarded run of each "
		    "line before its measured runs, the default) or 0 (none)$\" "
		    "%s/err", tu_dir, tu_dir, tu_dir) == 0, "WARMUP=%s", w);
		snprintf(path, sizeof(path), "%s/pwned", tu_dir);
		ck_assert_int_ne(access(path, F_OK), 0);
		snprintf(path, sizeof(path), "%s/r/bad-A", tu_dir);
		ck_assert_int_ne(access(path, F_OK), 0);
	}
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)),
	    "60");
}
END_TEST

/*
 * Ctrl-C (SIGTERM, SIGHUP) during the warm-up: the settings are put
 * back, exit 130, both sides' meta say interrupted, nothing measured
 * and nothing left in the work folder; a warm-up whose benchmark is
 * killed is said, and the measured runs go on.
 */
START_TEST(ab_warmup_interrupt)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	char v[256], path[700], label[32];
	size_t i;
	int status, j, k;
	pid_t pid, child;

	tu_fake_settings();
	tu_fake("ab.conf", "iterations 2\nforkbomb --forks 30000 --ints 10\n");
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		snprintf(label, sizeof(label), "wi%d", sigs[i]);
		pid = start_ab(label);
		snprintf(path, sizeof(path), "%s/r/%s-A/warmup/forkbomb.log",
		    tu_dir, label);
		for (j = 0; j < 1000 && access(path, F_OK) < 0; j++)
			usleep(10000);
		ck_assert_msg(access(path, F_OK) == 0, "no warm-up");
		ck_assert_msg(wait_forking(pid), "the warm-up never forked");
		/* still the warm-up: no measured run has begun */
		snprintf(path, sizeof(path), "%s/r/%s-A/forkbomb.log", tu_dir,
		    label);
		ck_assert_msg(access(path, F_OK) < 0, "warm-up too short");
		ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v,
		    sizeof(v)), "7");
		kill(pid, sigs[i]);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 130,
		    "signal %d: status %d", sigs[i], status);
		ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v,
		    sizeof(v)), "60");
		ck_assert_str_eq(tu_line(
		    "sys/kernel/mm/transparent_hugepage/enabled", v,
		    sizeof(v)), "madvise");
		for (k = 0; k < 2; k++) {
			snprintf(path, sizeof(path), "%s/r/%s-%c", tu_dir,
			    label, "AB"[k]);
			ck_assert_str_eq(tu_meta_val(path, "status", v,
			    sizeof(v)), "interrupted");
			snprintf(path, sizeof(path), "%s/r/%s-%c/forkbomb.res",
			    tu_dir, label, "AB"[k]);
			ck_assert_int_ne(access(path, F_OK), 0);
		}
		snprintf(path, sizeof(path), "%s/w", tu_dir);
		ck_assert_int_eq(tu_count_except(path, ""), 0);
	}

	/* the warm-up's benchmark killed: said, and the runs go on (a
	   shorter line: its 2 measured runs follow; long enough for the
	   warm-up to be found running, looked for every 2 ms: the harness
	   of 20 forks lives a tenth of a second or more) */
	tu_fake("ab.conf", "iterations 1\nforkbomb --forks 20 --ints 10\n");
	pid = start_ab("wk");
	/* vmrun's child that is the warm-up: its --out is in warmup/ */
	child = wait_child(pid, "/wk-A/warmup/forkbomb");
	ck_assert_msg(child > 0, "no warm-up under vmrun");
	kill(child, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "status %d", status);
	ck_assert_int_eq(sh("grep -q 'forkbomb: the warm-up run failed' "
	    "%s/err-wk", tu_dir), 0);
	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/r/wk-%c", tu_dir, "AB"[k]);
		ck_assert_str_eq(tu_meta_val(path, "status", v, sizeof(v)),
		    "complete");
		snprintf(path, sizeof(path), "%s/r/wk-%c/forkbomb.res",
		    tu_dir, "AB"[k]);
		ck_assert_int_eq(res_niter(path), 1);
	}
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)),
	    "60");
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
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

	tu_fake_settings();
	tu_fake("ab.conf", "iterations 40\nforkbomb --forks 30 --ints 10\n");
	/*
	 * No warm-up: B then begins after A's first run.  Wait for that
	 * (up to 40 s: a run of 400 forks under AddressSanitizer on a busy
	 * machine took more than 10 s).  Then for a benchmark forking,
	 * looked for every 2 ms: B's (30 forks, tens of milliseconds) or,
	 * were it missed, a later run's; either side's run is cut short.
	 */
	pid = start_abw("ib", "0");
	/* ABBA: B's result exists once its first run has begun */
	snprintf(path, sizeof(path), "%s/r/ib-B/forkbomb.res", tu_dir);
	for (i = 0; i < 4000 && access(path, F_OK) < 0; i++)
		usleep(10000);
	ck_assert_msg(access(path, F_OK) == 0, "B never ran");
	ck_assert_msg(wait_forking(pid), "no benchmark forked");
	kill(pid, SIGINT);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 130,
	    "status %d", status);
	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/r/ib-%c", tu_dir, "AB"[k]);
		ck_assert_str_eq(tu_meta_val(path, "status", v, sizeof(v)),
		    "interrupted");
		snprintf(path, sizeof(path), "%s/r/ib-%c/forkbomb.res", tu_dir,
		    "AB"[k]);
		ck_assert_str_eq(res_status(path, v, sizeof(v), &n[k]),
		    "interrupted");
		ck_assert_int_lt(n[k], 40);
	}
	/* A's first run ended before B's began */
	ck_assert_int_ge(n[0], 1);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);

	pid = start_abw("ik", "0");
	snprintf(path, sizeof(path), "%s/r/ik-B/forkbomb.res", tu_dir);
	for (i = 0; i < 4000 && access(path, F_OK) < 0; i++)
		usleep(10000);
	ck_assert_msg(access(path, F_OK) == 0, "B never ran");
	ck_assert_msg(wait_forking(pid), "no benchmark forked");
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
	tu_fake_settings();
	tu_fake("ab.conf", "iterations 1\nforkbomb --forks 2 --ints 10\n");
	tu_path(mnt, sizeof(mnt), "full");
	ck_assert_int_eq(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=1m,mode=0755") < 0) {
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
		tu_meta_val(path, "status", v, sizeof(v));
	/* unmounted before any assertion */
	umount2(mnt, MNT_DETACH);
	ck_assert_int_eq(left, 0);
	ck_assert_msg(rc == 0, "refused or failed: %d", rc);
	ck_assert_str_eq(v, "complete");
	ck_assert_int_eq(sh("test $(wc -l < %s/err) = 1 && grep -q 'vmrun: "
	    "cannot write .*/fab-A/meta: No space left on device' %s/err",
	    tu_dir, tu_dir), 0);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	snprintf(path, sizeof(path), "%s/w", tu_dir);
	ck_assert_int_eq(tu_count_except(path, ""), 0);
}
END_TEST

/*
 * make ab whose results disk fills once both metas are written (a 64K
 * tmpfs with 16K free, root only): each side's failure line names that
 * side's .res and log, never the other side's (the cause was kept per
 * line, not per side: B's line gave A's file, with B's log empty).
 */
START_TEST(ab_full_disk_blames_side)
{
	char mnt[512], *err, *p, *nl, side[16], other[16];
	int rc, lines = 0, sides = 0;

	if (geteuid() != 0) {
		tu_skip("needs root to mount a tmpfs");
		return;
	}
	tu_fake_settings();
	tu_fake("ab.conf", "iterations 2\nforkbomb --forks 2 --ints 10\n");
	tu_path(mnt, sizeof(mnt), "full");
	ck_assert_int_eq(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=64k,mode=0755") < 0) {
		tu_skip("cannot mount a tmpfs: %s", strerror(errno));
		return;
	}
	/* room for the two metas and the two locks, not for a result */
	sh("dd if=/dev/zero of=%s/fill bs=4k count=12 2>/dev/null", mnt);
	rc = sh("VMBENCH_SYSROOT=%s bench/vmrun --kernel fb --a "
	    "vm.swappiness=7 --b '' --warmup 0 --config %s/ab.conf "
	    "--results %s --workdir %s/w >/dev/null 2>%s/err", tu_dir, tu_dir,
	    mnt, tu_dir, tu_dir);
	umount2(mnt, MNT_DETACH);
	err = tu_slurp_ok("%s/err", tu_dir);
	ck_assert_msg(rc == 1, "vmrun exited %d: %s", rc, err);
	for (p = err; (p = strstr(p, "vmrun: forkbomb failed")); p = nl) {
		char *w = strstr(p, "cannot write "), *see = strstr(p, "; see ");

		nl = strchr(p, '\n');
		ck_assert_msg(nl && w && see && w < nl && see < nl, "%s", err);
		snprintf(side, sizeof(side), "%.5s", strstr(w, "/fb-") ?
		    strstr(w, "/fb-") : "?");
		snprintf(other, sizeof(other), "%.5s", strstr(see, "/fb-") ?
		    strstr(see, "/fb-") : "!");
		ck_assert_msg(strcmp(side, other) == 0, "a failure of %s "
		    "blames %s's file: %.*s", other, side, (int)(nl - p), p);
		sides |= strcmp(side, "/fb-A") == 0 ? 1 : 2;
		lines++;
	}
	ck_assert_msg(lines == 4 && sides == 3, "4 failed runs of A and B "
	    "expected: %s", err);
	free(err);
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
	char v[256], path[700];
	int status;
	pid_t pid, child;

	tu_fake_settings();
	/* ABBA: A killed, then B, B and A run on; no warm-up, so the
	   first benchmark is a measured run of A (long enough to be found
	   running, looked for every 2 ms: the harness of 20 forks lives a
	   tenth of a second or more, the three runs after it as long) */
	tu_fake("ab.conf", "iterations 2\nforkbomb --forks 20 --ints 10\n");
	pid = start_abw("kb", "0");
	ck_assert_msg(wait_knob("7"), "A never applied");
	/* the benchmark: vmrun's child that writes A's result */
	child = wait_child(pid, "/kb-A/forkbomb");
	ck_assert_msg(child > 0, "no benchmark of A under vmrun");
	kill(child, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1,
	    "status %d", status);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_str_eq(tu_line(
	    "sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)),
	    "madvise");
	snprintf(path, sizeof(path), "%s/r/kb-A", tu_dir);
	ck_assert_str_eq(tu_meta_val(path, "status", v, sizeof(v)), "failed");
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
		tu_skip("needs root");
		return;
	}
	f = fopen("/proc/sys/vm/swappiness", "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(cur, sizeof(cur), f));
	fclose(f);
	cur[strcspn(cur, "\n")] = '\0';
	tu_fake("ab.conf", "iterations 2\nmemfill --bytes 16M --write\n");
	/*
	 * through make, as the user runs it (not the enclosing make's
	 * flags, but its build mode); without the warm-up run, which
	 * ab_warmup_make tests
	 */
	if (sh("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s ab "
	    BUILD_MODE " KERNEL=real WARMUP=0 A='vm.swappiness=%s' "
	    "B='vm.swappiness=%s' MEM=64M CONFIG=%s/ab.conf RESULTS=%s/r "
	    "WORKDIR=%s/w >%s/out 2>%s/err", cur, cur, tu_dir, tu_dir,
	    tu_dir, tu_dir, tu_dir) != 0 &&
	    sh("grep -q 'no memory controller' %s/err", tu_dir) == 0) {
		tu_skip("no memory cgroup controller");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/r/real-B", tu_dir);
	ck_assert_str_eq(tu_meta_val(dir, "status", v, sizeof(v)), "complete");
	/* the comparison on stdout, the setting named at its top */
	ck_assert_int_eq(sh("grep -q 'vmbench report: 2 kernels, baseline "
	    "real-A' %s/out", tu_dir), 0);
	ck_assert_str_eq(tu_meta_val(dir, "swappiness", v, sizeof(v)), cur);
	ck_assert_str_eq(tu_meta_val(dir, "cg_swappiness", v, sizeof(v)), cur);
	snprintf(path, sizeof(path), "%s/memfill.res", dir);
	/* 16M written inside the cgroup: at least its pages were faulted */
	ck_assert_double_gt(tu_res_mean(path, "cg_mem_peak_kb", &n), 8192);
	ck_assert_int_eq(n, 2);
	f = fopen("/proc/sys/vm/swappiness", "r");
	ck_assert_ptr_nonnull(fgets(v, sizeof(v), f));
	fclose(f);
	v[strcspn(v, "\n")] = '\0';
	ck_assert_str_eq(v, cur);
}
END_TEST

Suite *
ab_suite(void)
{
	Suite *s = suite_create("ab");
	TCase *tc;

	tc = tu_tcase("schedule");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, schedule);
	tcase_add_test(tc, line_order_warmup_arg);
	suite_add_tcase(s, tc);

	tc = tu_tcase("e2e");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ab_end_to_end_fake);
	tcase_add_test(tc, ab_restore_every_path);
	tcase_add_test(tc, ab_full_results_disk);
	tcase_add_test(tc, ab_full_disk_blames_side);
	suite_add_tcase(s, tc);

	/* a benchmark killed, vmrun stopped between and during runs */
	tc = tu_tcase("kill");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ab_killed_benchmark);
	tcase_add_test(tc, ab_interrupt_marks_both);
	suite_add_tcase(s, tc);

	/* the real vm.swappiness under MEM=64M */
	tc = tu_tcase_alone("machine");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ab_real_root);
	suite_add_tcase(s, tc);

	tc = tu_tcase("warmup");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ab_warmup_fake);
	tcase_add_test(tc, ab_warmup_make);
	suite_add_tcase(s, tc);

	tc = tu_tcase("warmup_kill");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ab_warmup_interrupt);
	suite_add_tcase(s, tc);
	return s;
}
