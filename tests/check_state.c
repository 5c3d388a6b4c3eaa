/*
 * check_state.c - what other users and other runs can do to a run: state
 * files and symlinks planted by an unprivileged user in shared folders
 * (the test drops to nobody to plant them, and compares checksums of
 * root's files before and after), one machine-changing run at a time
 * (src/runner/state.h), labels and their lock files.  The runs use a fake
 * tree (VMBENCH_SYSROOT) so that their state folder and machine lock are
 * the test's own.  Tests that plant files as nobody need root and skip
 * without it.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "knob.h"
#include "state.h"
#include "testutil.h"
#include "util.h"

#define NOBODY 65534

#define sh(...)	tu_sh_in(NULL, __VA_ARGS__)

/* As root, else say why the test is skipped. */
static int
need_root(const char *test)
{
	if (geteuid() == 0)
		return 1;
	fprintf(stderr, "%s: skipped (needs root to plant files as nobody)\n",
	    test);
	return 0;
}


/* FNV-1a of @path's bytes; 0 when it cannot be read. */
static unsigned long long
checksum(const char *path)
{
	unsigned long long h = 1469598103934665603ULL;
	unsigned char buf[4096];
	ssize_t n, i;
	int fd = open(path, O_RDONLY | O_NOFOLLOW);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ULL;
	close(fd);
	return h;
}

/* The first line of @path (without its newline) into @buf. */
static char *
first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/*
 * Do as nobody, in a child: @what 's' makes the symlink @b -> @a, 'w'
 * writes the text @b into the new file @a.  0 when done.
 */
static int
as_nobody(int what, const char *a, const char *b)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		FILE *f;

		if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 ||
		    setuid(NOBODY) < 0 || geteuid() != NOBODY)
			_exit(90);
		if (what == 's')
			_exit(symlink(a, b) == 0 ? 0 : 91);
		if (!(f = fopen(a, "wx")) || fputs(b, f) < 0 || fclose(f))
			_exit(92);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The test's folders: tu_dir itself open to nobody (0755), the victims'
 * folder v/ (root's, 0755) holding victim ("original") and victim2
 * ("keep"), and a fake tree (swappiness 60, THP madvise) whose
 * run/vmbench the runs use (VMBENCH_SYSROOT).
 */
static void
scene(void)
{
	char p[600];

	/* nobody must reach the scene: the run's root folder is 0700 */
	ck_assert_int_eq(chmod(tu_root(), 0711), 0);
	ck_assert_int_eq(chmod(tu_dir, 0755), 0);
	tu_folder(p, sizeof(p), "v", 0755);
	tu_write(p, sizeof(p), "v/victim", "original\n");
	tu_write(p, sizeof(p), "v/victim2", "keep\n");
	tu_folder(p, sizeof(p), "proc", 0755);
	tu_folder(p, sizeof(p), "proc/sys", 0755);
	tu_folder(p, sizeof(p), "proc/sys/vm", 0755);
	tu_write(p, sizeof(p), "proc/sys/vm/swappiness", "60\n");
	tu_folder(p, sizeof(p), "sys", 0755);
	tu_folder(p, sizeof(p), "sys/kernel", 0755);
	tu_folder(p, sizeof(p), "sys/kernel/mm", 0755);
	tu_folder(p, sizeof(p), "sys/kernel/mm/transparent_hugepage", 0755);
	tu_write(p, sizeof(p), "sys/kernel/mm/transparent_hugepage/enabled",
	    "always [madvise] never\n");
	tu_write(p, sizeof(p), "quick.conf",
	    "iterations 2\nforkbomb --forks 10 --ints 10\n");
	setenv("VMBENCH_SYSROOT", tu_dir, 1);
}

/*
 * A run that lasts until it is stopped (60 s at most) and costs no CPU
 * while the test acts beside it: the probe, at 1% of a CPU.
 */
#define LONG_CONF "probe --duration 60 --cpu 1 --buffer 64K\n"

/*
 * Start @argv (bench/vmrun ...) in a child that waits until
 * release() before it execs, with stdout and stderr into tu_dir/@log:
 * its pid is known before it runs, so files can be planted for it.
 */
static int gate[2];

static pid_t
start_held(const char *log, char *const argv[])
{
	char path[600], c;
	pid_t pid;

	ck_assert_int_eq(pipe(gate), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd;

		close(gate[1]);
		if (read(gate[0], &c, 1) != 1)
			_exit(126);
		close(gate[0]);
		tu_path(path, sizeof(path), log);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	close(gate[0]);
	return pid;
}

static void
release(void)
{
	ck_assert_int_eq(write(gate[1], "g", 1), 1);
	close(gate[1]);
}

/* Start @argv now (see start_held()). */
static pid_t
start(const char *log, char *const argv[])
{
	pid_t pid = start_held(log, argv);

	release();
	return pid;
}

/* Wait for @pid; its exit status, 128 + signal when killed. */
static int
finish(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
}

/* Wait (at most 20 s) until tu_dir/@rel reads @want on its first line. */
static int
wait_text(const char *rel, const char *want)
{
	char p[600], v[256];
	int i;

	tu_path(p, sizeof(p), rel);
	for (i = 0; i < 2000; i++) {
		if (strcmp(first_line(p, v, sizeof(v)), want) == 0)
			return 1;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return 0;
}

/* Does a file match @pattern (glob(3), with braces)? */
static int
matches(const char *pattern)
{
	glob_t g;
	int n = glob(pattern, GLOB_BRACE | GLOB_NOSORT, NULL, &g) == 0;

	if (n)
		globfree(&g);
	return n;
}

/* Wait (at most 20 s) until a file matches tu_dir/@rel (a glob). */
static int
wait_file(const char *rel)
{
	char p[600];
	int i;

	tu_path(p, sizeof(p), rel);
	for (i = 0; i < 2000 && !matches(p); i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	return matches(p);
}

/*
 * Item 1 as reported: nobody plants a state file in a shared (1777)
 * work folder naming root's files as a setting and a swap file; root's
 * clean-up ignores it, says why, and both files are as they were.
 */
START_TEST(planted_state_ignored)
{
	char w[600], v1[600], v2[600], st[700], text[2048];
	unsigned long long s1, s2;

	if (!need_root("planted_state_ignored"))
		return;
	scene();
	tu_folder(w, sizeof(w), "w", 01777);
	tu_path(v1, sizeof(v1), "v/victim");
	tu_path(v2, sizeof(v2), "v/victim2");
	s1 = checksum(v1);
	s2 = checksum(v2);
	snprintf(st, sizeof(st), "%s/vmrun.999999.state", w);
	snprintf(text, sizeof(text), "vmbench-state 1\npid 999999\nstart 1\n"
	    "knob %s PWNED\nswapfile %s\n", v1, v2);
	ck_assert_int_eq(as_nobody('w', st, text), 0);
	ck_assert_int_eq(sh("bench/vmrun --clean-stale --workdir %s "
	    "--results %s/r 2>%s/err", w, tu_dir, tu_dir), 0);
	ck_assert_msg(checksum(v1) == s1, "victim changed");
	ck_assert_msg(checksum(v2) == s2, "victim2 changed or removed");
	ck_assert_int_eq(sh("grep -q 'ignored %s: owned by uid 65534, not by "
	    "this user (uid 0)' %s/err", st, tu_dir), 0);
}
END_TEST

/*
 * A state file of root's own (so trusted as a file) whose items do not
 * pass: a knob outside /proc/sys and /sys, a swap file that is not the
 * one recorded.  Nothing is undone, the file is kept, the clean-up
 * fails naming it; the files named are as they were.
 */
START_TEST(bad_items_refused)
{
	char w[600], v1[600], swp[600], st[700], text[2048];
	unsigned long long s1, s2;

	if (!need_root("bad_items_refused"))
		return;
	scene();
	tu_folder(w, sizeof(w), "w", 0755);
	tu_path(v1, sizeof(v1), "v/victim");
	/* named as vmrun names them, but not the file it made */
	tu_write(swp, sizeof(swp), "w/vmbench-swap.999998", "not swap\n");
	s1 = checksum(v1);
	s2 = checksum(swp);
	snprintf(st, sizeof(st), "%s/vmrun.999998.state", w);
	snprintf(text, sizeof(text), "vmbench-state 1\npid 999998\nstart 1\n"
	    "knob %s PWNED\n", v1);
	tu_write(st, sizeof(st), "w/vmrun.999998.state", text);
	ck_assert_int_eq(sh("bench/vmrun --clean-stale --workdir %s "
	    "2>%s/err", w, tu_dir), 1);
	ck_assert_msg(checksum(v1) == s1, "victim changed");
	ck_assert_int_eq(access(st, F_OK), 0);
	ck_assert_int_eq(sh("grep -q 'vmrun.999998.state: knob .*only files "
	    "under /proc/sys/' %s/err", tu_dir), 0);
	/* the swap file: a recorded inode that is not its inode */
	snprintf(text, sizeof(text), "vmbench-state 1\npid 999998\nstart 1\n"
	    "swapfile %s\nswapid 1 2 4096\n", swp);
	tu_write(st, sizeof(st), "w/vmrun.999998.state", text);
	ck_assert_int_eq(sh("bench/vmrun --clean-stale --workdir %s "
	    "2>%s/err", w, tu_dir), 1);
	ck_assert_msg(checksum(swp) == s2, "the swap file was touched");
	ck_assert_int_eq(sh("grep -q 'not the swap file the run made' "
	    "%s/err", tu_dir), 0);
}
END_TEST

/*
 * The state folder's rules, on the library: a state file nobody made,
 * one others may write, a symlink: ignored; root's own in the old place
 * (the work folder), with a knob of the fake tree: recovered.
 */
START_TEST(state_trust_rules)
{
	char dir[600], w[600], v1[600], p[700], text[2048], err[512];
	unsigned long long s1;

	if (!need_root("state_trust_rules"))
		return;
	scene();
	tu_folder(dir, sizeof(dir), "st", 0755);
	tu_folder(w, sizeof(w), "w", 01777);
	tu_path(v1, sizeof(v1), "v/victim");
	s1 = checksum(v1);
	snprintf(text, sizeof(text), "vmbench-state 1\npid 999997\nstart 1\n"
	    "knob %s/proc/sys/vm/swappiness 33\n", tu_dir);
	/* writable by others */
	tu_write(p, sizeof(p), "st/vmrun.999997.state", text);
	ck_assert_int_eq(chmod(p, 0666), 0);
	/* a symlink to a state file */
	snprintf(p, sizeof(p), "%s/vmrun.999996.state", dir);
	ck_assert_int_eq(symlink("vmrun.999997.state", p), 0);
	/* nobody's, in the shared old place */
	snprintf(p, sizeof(p), "%s/vmrun.999995.state", w);
	ck_assert_int_eq(as_nobody('w', p, "vmbench-state 1\npid 999995\n"
	    "start 1\n"), 0);
	ck_assert_int_eq(vb_state_recover(dir, w, NULL, 1), 0);
	ck_assert_int_eq(sh("grep -qx 60 %s/proc/sys/vm/swappiness", tu_dir),
	    0);
	/* root's own, 0600, in the old place: recovered */
	snprintf(text, sizeof(text), "vmbench-state 1\npid 999994\nstart 1\n"
	    "knob %s/proc/sys/vm/swappiness 33\n", tu_dir);
	tu_write(p, sizeof(p), "w/vmrun.999994.state", text);
	ck_assert_int_eq(chmod(p, 0600), 0);
	ck_assert_int_eq(vb_state_recover(dir, w, NULL, 1), 1);
	ck_assert_int_eq(sh("grep -qx 33 %s/proc/sys/vm/swappiness", tu_dir),
	    0);
	ck_assert_int_lt(access(p, F_OK), 0);
	ck_assert_msg(checksum(v1) == s1, "victim changed");
	/* the folder itself: not a symlink, not writable by others */
	ck_assert_int_lt(vb_own_dir(w, 0755, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "writable by others") != NULL, "%s", err);
	snprintf(p, sizeof(p), "%s/link", tu_dir);
	ck_assert_int_eq(symlink(dir, p), 0);
	ck_assert_int_lt(vb_own_dir(p, 0755, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "a symlink") != NULL, "%s", err);
	ck_assert_int_eq(vb_own_dir(dir, 0755, err, sizeof(err)), 0);
	/* knob paths: as A= and B= */
	ck_assert_int_eq(vb_knob_allowed(NULL, "/proc/sys/vm/swappiness",
	    err, sizeof(err)), 0);
	ck_assert_int_lt(vb_knob_allowed(NULL, "/proc/sys/../../etc/passwd",
	    err, sizeof(err)), 0);
	ck_assert_int_lt(vb_knob_allowed(NULL, "/etc/passwd", err,
	    sizeof(err)), 0);
	ck_assert_int_lt(vb_knob_allowed("/x", "/proc/sys/vm/swappiness",
	    err, sizeof(err)), 0);
	ck_assert_int_eq(vb_knob_allowed("/x", "/x/sys/module/zswap/"
	    "parameters/enabled", err, sizeof(err)), 0);
}
END_TEST

/*
 * Item 2: nobody plants symlinks to root's file where a run will create
 * files, named for the run's pid: vmrun.<pid>.state(.tmp) in the work
 * folder of a refused A/B run; <out>.vmstat and <out>.res.tmp<pid>
 * beside a benchmark's --out; .LABEL.lock in a shared results folder.
 * The file is never written through them.
 */
START_TEST(symlinks_not_followed)
{
	char w[600], o[600], r[600], v1[600], conf[600], out[700];
	char link[800], name[700];
	unsigned long long s1;
	char *argv[20];
	pid_t pid;

	if (!need_root("symlinks_not_followed"))
		return;
	scene();
	tu_folder(w, sizeof(w), "w", 01777);
	tu_folder(o, sizeof(o), "o", 01777);
	tu_folder(r, sizeof(r), "r", 01777);
	tu_path(v1, sizeof(v1), "v/victim");
	tu_path(conf, sizeof(conf), "quick.conf");
	s1 = checksum(v1);

	/* the case: an A/B run refused before anything ran */
	argv[0] = "bench/vmrun";
	argv[1] = "--kernel";
	argv[2] = "t";
	argv[3] = "--a";
	argv[4] = "thp=bogus";
	argv[5] = "--b";
	argv[6] = "thp=never";
	argv[7] = "--config";
	argv[8] = conf;
	argv[9] = "--results";
	argv[10] = tu_dir;
	argv[11] = "--workdir";
	argv[12] = w;
	argv[13] = NULL;
	pid = start_held("err-ab", argv);
	snprintf(link, sizeof(link), "%s/vmrun.%ld.state.tmp", w, (long)pid);
	ck_assert_int_eq(as_nobody('s', v1, link), 0);
	snprintf(link, sizeof(link), "%s/vmrun.%ld.state", w, (long)pid);
	ck_assert_int_eq(as_nobody('s', v1, link), 0);
	release();
	ck_assert_int_eq(finish(pid), 1);
	ck_assert_msg(checksum(v1) == s1, "victim changed by vmrun --a");
	ck_assert_int_eq(sh("grep -q 'thp=bogus: not one of the choices' "
	    "%s/err-ab", tu_dir), 0);

	/* a benchmark run by hand, --out in a shared folder */
	snprintf(out, sizeof(out), "%s/fb", o);
	argv[0] = "bench/forkbomb";
	argv[1] = "--forks";
	argv[2] = "10";
	argv[3] = "--ints";
	argv[4] = "10";
	argv[5] = "--iterations";
	argv[6] = "1";
	argv[7] = "--out";
	argv[8] = out;
	argv[9] = "--workdir";
	argv[10] = w;
	argv[11] = NULL;
	pid = start_held("err-fb", argv);
	snprintf(link, sizeof(link), "%s.vmstat", out);
	ck_assert_int_eq(as_nobody('s', v1, link), 0);
	snprintf(link, sizeof(link), "%s.res.tmp%ld", out, (long)pid);
	ck_assert_int_eq(as_nobody('s', v1, link), 0);
	release();
	ck_assert_int_eq(finish(pid), 0);
	ck_assert_msg(checksum(v1) == s1, "victim changed by forkbomb");
	ck_assert_int_eq(sh("grep -q '^status complete' %s.res", out), 0);
	ck_assert_int_eq(sh("test -f %s.vmstat && ! test -L %s.vmstat", out,
	    out), 0);

	/*
	 * a label's lock file planted in a shared results folder: the
	 * folder itself is refused (others may write it), before any lock
	 */
	snprintf(link, sizeof(link), "%s/.x.lock", r);
	ck_assert_int_eq(as_nobody('s', v1, link), 0);
	ck_assert_int_eq(sh("bench/vmrun --kernel x --config %s --results %s "
	    "--workdir %s 2>%s/err", conf, r, w, tu_dir), 1);
	ck_assert_msg(checksum(v1) == s1, "victim changed by the label lock");
	ck_assert_int_eq(sh("grep -q 'refusing folder %s: writable by others "
	    "(mode 1777' %s/err", r, tu_dir), 0);
	snprintf(name, sizeof(name), "%s/x", r);
	ck_assert_int_lt(access(name, F_OK), 0);
}
END_TEST

/* The library's two ways of making a file, against planted names. */
START_TEST(create_helpers)
{
	char v1[600], p[600], q[600], buf[64];
	unsigned long long s1;
	int fd;

	if (!need_root("create_helpers"))
		return;
	scene();
	tu_folder(p, sizeof(p), "o", 01777);
	tu_path(v1, sizeof(v1), "v/victim");
	s1 = checksum(v1);
	/* vb_create(): the symlink is replaced, its target untouched */
	tu_path(p, sizeof(p), "o/new");
	ck_assert_int_eq(as_nobody('s', v1, p), 0);
	fd = vb_create(p, O_WRONLY, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "mine\n", 5), 5);
	close(fd);
	ck_assert_msg(checksum(v1) == s1, "victim changed");
	ck_assert_str_eq(first_line(p, buf, sizeof(buf)), "mine");
	/* vb_open_own(): a symlink, nobody's file, a hard link: refused */
	tu_path(p, sizeof(p), "o/app");
	ck_assert_int_eq(as_nobody('s', v1, p), 0);
	ck_assert_int_lt(vb_open_own(p, O_WRONLY | O_APPEND, 0644), 0);
	ck_assert_int_eq(errno, ELOOP);
	tu_path(p, sizeof(p), "o/theirs");
	ck_assert_int_eq(as_nobody('w', p, "theirs\n"), 0);
	ck_assert_int_lt(vb_open_own(p, O_WRONLY | O_TRUNC, 0644), 0);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_str_eq(first_line(p, buf, sizeof(buf)), "theirs");
	tu_path(q, sizeof(q), "o/hard");
	ck_assert_int_eq(link(v1, q), 0);
	ck_assert_int_lt(vb_open_own(q, O_WRONLY | O_TRUNC, 0644), 0);
	ck_assert_int_eq(errno, EPERM);
	ck_assert_msg(checksum(v1) == s1, "victim changed");
	/* our own: appended to; a new one: made */
	tu_path(p, sizeof(p), "o/new");
	fd = vb_open_own(p, O_WRONLY | O_APPEND, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "more\n", 5), 5);
	close(fd);
	ck_assert_int_eq(sh("test \"$(cat %s)\" = \"$(printf 'mine\\nmore')\"",
	    p), 0);
	tu_path(p, sizeof(p), "o/fresh");
	fd = vb_open_own(p, O_WRONLY | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
}
END_TEST

/*
 * Item 3: two A/B runs of the same settings at once.  The second waits
 * for the first, saying so, and saves the values as the first left
 * them (the originals): at the end every setting is as it was.  The
 * first is held (SIGSTOP) under A's settings until the second says it
 * waits, once its warm-up run under A has begun (before, vmrun's
 * check of the value wrote 7 and 60 back).  The first runs the probe
 * (half a second a run, at 1% of a CPU), so that it stays under A,
 * through its warm-up run and A's, long enough to be caught there
 * (looked for every 10 ms); the second a few forks.
 */
START_TEST(one_changer_at_a_time)
{
	char conf[600], conf2[600], r[600], w[600], p[600];
	char *a1[20], *a2[20], want[128], *text;
	pid_t p1, p2;
	int i, st, waits = 0;

	if (!need_root("one_changer_at_a_time"))
		return;
	scene();
	tu_write(conf, sizeof(conf), "ab.conf",
	    "iterations 1\nprobe --duration 0.5 --cpu 1 --buffer 64K\n");
	tu_write(conf2, sizeof(conf2), "ab2.conf",
	    "iterations 1\nforkbomb --forks 10 --ints 10\n");
	tu_folder(r, sizeof(r), "r", 0755);
	tu_folder(w, sizeof(w), "w", 0755);
	a1[0] = "bench/vmrun";
	a1[1] = "--kernel";
	a1[2] = "one";
	a1[3] = "--a";
	a1[4] = "vm.swappiness=7,thp=never";
	a1[5] = "--b";
	a1[6] = "thp=always";
	a1[7] = "--config";
	a1[8] = conf;
	a1[9] = "--results";
	a1[10] = r;
	a1[11] = "--workdir";
	a1[12] = w;
	a1[13] = NULL;
	for (i = 0; i < 14; i++)
		a2[i] = a1[i];
	a2[2] = "two";
	a2[8] = conf2;
	p1 = start("err-one", a1);
	ck_assert_msg(wait_file("r/one-A/warmup/probe.res"), "the warm-up "
	    "never began");
	ck_assert_msg(wait_text("proc/sys/vm/swappiness", "7"),
	    "A never applied");
	ck_assert_int_eq(kill(p1, SIGSTOP), 0);
	ck_assert_int_eq(waitpid(p1, &st, WUNTRACED), p1);
	ck_assert_msg(WIFSTOPPED(st), "the first run ended: 0x%x", st);
	tu_path(p, sizeof(p), "proc/sys/vm/swappiness");
	ck_assert_msg(strcmp(first_line(p, want, sizeof(want)), "7") == 0,
	    "the first run was past A when stopped: swappiness %s", want);
	p2 = start("err-two", a2);
	tu_path(p, sizeof(p), "err-two");
	for (i = 0; i < 2000 && !waits; i++) {
		if ((text = tu_slurp(p))) {
			waits = strstr(text, "vmrun: waiting for pid ") != NULL;
			free(text);
		}
		if (!waits)
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	ck_assert_int_eq(kill(p1, SIGCONT), 0);
	ck_assert_msg(waits, "the second run did not wait for the first");
	ck_assert_int_eq(finish(p1), 0);
	ck_assert_int_eq(finish(p2), 0);
	ck_assert_int_eq(sh("grep -qx 60 %s/proc/sys/vm/swappiness", tu_dir),
	    0);
	/* (a fake file reads as the value written to it) */
	ck_assert_int_eq(sh("grep -qx madvise "
	    "%s/sys/kernel/mm/transparent_hugepage/enabled", tu_dir), 0);
	snprintf(want, sizeof(want), "vmrun: waiting for pid %ld, which is "
	    "changing this machine (", (long)p1);
	ck_assert_int_eq(sh("grep -qF '%s' %s/err-two", want, tu_dir), 0);
}
END_TEST

/*
 * Item 3: a plain run beside one that changes the machine, in either
 * order, is recorded in meta (concurrent=) and noted in its results,
 * which the report shows as a "!" line.
 */
START_TEST(plain_beside_changer)
{
	char conf[600], long_conf[600], r[600], w[600];
	char *ab[20], *pl[20];
	pid_t pa, pp;

	if (!need_root("plain_beside_changer"))
		return;
	scene();
	tu_path(conf, sizeof(conf), "quick.conf");
	tu_write(long_conf, sizeof(long_conf), "long.conf", LONG_CONF);
	tu_folder(r, sizeof(r), "r", 0755);
	tu_folder(w, sizeof(w), "w", 0755);
	ab[0] = "bench/vmrun";
	ab[1] = "--kernel";
	ab[2] = "ch";
	ab[3] = "--a";
	ab[4] = "vm.swappiness=7";
	ab[5] = "--b";
	ab[6] = "";
	ab[7] = "--config";
	ab[8] = long_conf;
	ab[9] = "--results";
	ab[10] = r;
	ab[11] = "--workdir";
	ab[12] = w;
	ab[13] = NULL;
	pa = start("err-ch", ab);
	ck_assert_msg(wait_text("proc/sys/vm/swappiness", "7"),
	    "A never applied");
	/* (one run of quick.conf's forks each way: beside is beside) */
	ck_assert_int_eq(sh("bench/vmrun --kernel p --iterations 1 --config "
	    "%s --results %s --workdir %s 2>%s/err-p", conf, r, w, tu_dir), 0);
	/*
	 * the interrupt once A's probe runs (its warm-up's or A's own:
	 * its .res, which the harness writes, in its slot or its side)
	 */
	ck_assert_msg(wait_file("r/ch-A/{warmup/,}{.slot-,}probe.res"),
	    "A's probe never started");
	kill(pa, SIGINT);
	ck_assert_int_eq(finish(pa), 130);
	ck_assert_int_eq(sh("grep -q '^concurrent=ran beside pid %ld, which "
	    "changed this machine (.*vm.swappiness=7' %s/p/run1/meta", (long)pa,
	    r), 0);
	ck_assert_int_eq(sh("grep -q '^note ran beside pid %ld' "
	    "%s/p/run1/forkbomb.res", (long)pa, r), 0);
	ck_assert_int_eq(sh("report/vmreport %s/p 2>&1 | grep -q '^! p: ran "
	    "beside pid %ld'", r, (long)pa), 0);
	/* the other order: the changer starts second, and ends first */
	pl[0] = "bench/vmrun";
	pl[1] = "--kernel";
	pl[2] = "q";
	pl[3] = "--config";
	pl[4] = long_conf;
	pl[5] = "--results";
	pl[6] = r;
	pl[7] = "--workdir";
	pl[8] = w;
	pl[9] = NULL;
	pp = start("err-q", pl);
	ck_assert_msg(wait_file("r/q/run1/probe.res"), "the plain run never "
	    "started");
	ck_assert_int_eq(sh("bench/vmrun --kernel ch2 --a vm.swappiness=9 "
	    "--b '' --iterations 1 --warmup 0 --config %s --results %s "
	    "--workdir %s >/dev/null 2>%s/err-ch2", conf, r, w, tu_dir), 0);
	kill(pp, SIGINT);
	ck_assert_int_eq(finish(pp), 130);
	ck_assert_int_eq(sh("grep -q '^concurrent=other vmbench runs ran "
	    "beside this one, which changed the machine: pid %ld (%s/q/run1)' "
	    "%s/ch2-A/meta", (long)pp, r, r), 0);
	ck_assert_int_eq(sh("grep -q '^concurrent=ran beside another run "
	    "that changed this machine (the last: .*vm.swappiness=9' "
	    "%s/q/run1/meta", r), 0);
	ck_assert_int_eq(sh("grep -qx 60 %s/proc/sys/vm/swappiness", tu_dir),
	    0);
}
END_TEST

/*
 * A plain run of three runs (--runs 3) with make ab started during its
 * first run and stopped once its second has begun: the note is on every
 * run it overlapped, runs 1 and 2, and not on run 3 (it was on run 3
 * alone: the runs were one span).
 */
START_TEST(beside_every_run)
{
	char conf[600], long_conf[600], r[600], w[600], p[700], *err;
	char *ab[20], *pl[20];
	pid_t pa, pp;
	int i;

	scene();
	tu_write(conf, sizeof(conf), "three.conf", "probe --duration 3 --cpu "
	    "1 --buffer 64K\n");
	tu_write(long_conf, sizeof(long_conf), "long.conf", LONG_CONF);
	tu_folder(r, sizeof(r), "r", 0755);
	tu_folder(w, sizeof(w), "w", 0755);
	pl[0] = "bench/vmrun";
	pl[1] = "--kernel";
	pl[2] = "pr";
	pl[3] = "--runs";
	pl[4] = "3";
	pl[5] = "--config";
	pl[6] = conf;
	pl[7] = "--results";
	pl[8] = r;
	pl[9] = "--workdir";
	pl[10] = w;
	pl[11] = NULL;
	pp = start("err-pr", pl);
	ck_assert_msg(wait_file("r/pr/run1/probe.res"), "the plain run never "
	    "started");
	ab[0] = "bench/vmrun";
	ab[1] = "--kernel";
	ab[2] = "cx";
	ab[3] = "--a";
	ab[4] = "vm.swappiness=7";
	ab[5] = "--b";
	ab[6] = "";
	ab[7] = "--warmup";
	ab[8] = "0";
	ab[9] = "--config";
	ab[10] = long_conf;
	ab[11] = "--results";
	ab[12] = r;
	ab[13] = "--workdir";
	ab[14] = w;
	ab[15] = NULL;
	pa = start("err-cx", ab);
	ck_assert_msg(wait_text("proc/sys/vm/swappiness", "7"),
	    "A never applied");
	tu_path(p, sizeof(p), "r/pr/run2");
	ck_assert_msg(access(p, F_OK) < 0, "make ab began after run 1");
	ck_assert_msg(wait_file("r/pr/run2/probe.res"), "run 2 never began");
	kill(pa, SIGINT);
	ck_assert_int_eq(finish(pa), 130);
	tu_path(p, sizeof(p), "r/pr/run3");
	ck_assert_msg(access(p, F_OK) < 0, "make ab ended after run 2");
	ck_assert_int_eq(finish(pp), 0);
	err = tu_slurp_ok("%s/err-pr", tu_dir);
	for (i = 1; i <= 3; i++) {
		int noted = sh("grep -q '^concurrent=ran beside pid %ld, which "
		    "changed this machine (.*vm.swappiness=7' %s/pr/run%d/meta",
		    (long)pa, r, i) == 0;
		int res = sh("grep -q '^note ran beside pid %ld' "
		    "%s/pr/run%d/probe.res", (long)pa, r, i) == 0;

		ck_assert_msg(noted == (i < 3) && res == (i < 3), "run%d: "
		    "concurrent= %s, the note %s; vmrun said: %s", i, noted ?
		    "set" : "not set", res ? "there" : "not there", err);
	}
	free(err);
}
END_TEST

/*
 * Item 4: a label may not begin with a dot, so that a run cannot take
 * another label's lock file: while cy runs, KERNEL=.cy.lock FORCE=1 is
 * refused in one line and cy's lock stays a file.
 */
START_TEST(dot_labels_refused)
{
	char conf[600], r[600], w[600], lock[700];
	char *cy[20];
	struct stat st;
	pid_t pid;

	scene();
	tu_write(conf, sizeof(conf), "long.conf", LONG_CONF);
	tu_folder(r, sizeof(r), "r", 0755);
	tu_folder(w, sizeof(w), "w", 0755);
	cy[0] = "bench/vmrun";
	cy[1] = "--kernel";
	cy[2] = "cy";
	cy[3] = "--config";
	cy[4] = conf;
	cy[5] = "--results";
	cy[6] = r;
	cy[7] = "--workdir";
	cy[8] = w;
	cy[9] = NULL;
	pid = start("err-cy", cy);
	ck_assert_msg(wait_file("r/cy/run1/probe.res"), "cy never started");
	ck_assert_int_eq(sh("bench/vmrun --kernel .cy.lock --force --config "
	    "%s --results %s --workdir %s 2>%s/err", conf, r, w, tu_dir), 1);
	ck_assert_int_eq(sh("test $(wc -l < %s/err) = 1 && grep -q \"bad "
	    "kernel label '.cy.lock'.*not starting with a dot\" %s/err",
	    tu_dir, tu_dir), 0);
	ck_assert_int_eq(sh("bench/vmrun --kernel x --a vm.swappiness=1 --b "
	    "'' --label-a .x --config %s --results %s --workdir %s "
	    "2>%s/err", conf, r, w, tu_dir), 1);
	ck_assert_int_eq(sh("grep -q \"bad label '.x'\" %s/err", tu_dir), 0);
	snprintf(lock, sizeof(lock), "%s/.cy.lock", r);
	ck_assert_int_eq(lstat(lock, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	kill(pid, SIGINT);
	ck_assert_int_eq(finish(pid), 130);
	ck_assert_int_lt(access(lock, F_OK), 0);
}
END_TEST

/*
 * Item 4: the lock file of a run killed with SIGKILL is removed by make
 * clean-stale, and by the next run (of any label); a live run's stays.
 */
START_TEST(stale_locks_removed)
{
	char conf[600], r[600], w[600], lock[700];
	char *run[20];
	pid_t pid, live;
	int i;

	scene();
	tu_write(conf, sizeof(conf), "long.conf", LONG_CONF);
	tu_folder(r, sizeof(r), "r", 0755);
	tu_folder(w, sizeof(w), "w", 0755);
	run[0] = "bench/vmrun";
	run[1] = "--kernel";
	run[2] = "live";
	run[3] = "--config";
	run[4] = conf;
	run[5] = "--results";
	run[6] = r;
	run[7] = "--workdir";
	run[8] = w;
	run[9] = NULL;
	live = start("err-live", run);
	ck_assert_msg(wait_file("r/live/run1/probe.res"), "live never started");
	for (i = 0; i < 2; i++) {
		run[2] = i ? "k2" : "k1";
		pid = start(i ? "err-k2" : "err-k1", run);
		ck_assert_msg(wait_file(i ? "r/k2/run1/probe.res" :
		    "r/k1/run1/probe.res"), "%s never started", run[2]);
		kill(pid, SIGKILL);
		ck_assert_int_eq(finish(pid), 128 + SIGKILL);
		snprintf(lock, sizeof(lock), "%s/.%s.lock", r, run[2]);
		ck_assert_int_eq(access(lock, F_OK), 0);
		if (i == 0)
			ck_assert_int_eq(sh("bench/vmrun --clean-stale "
			    "--results %s --workdir %s 2>%s/err", r, w,
			    tu_dir), 0);
		else
			ck_assert_int_eq(sh("bench/vmrun --kernel other "
			    "--config %s/quick.conf --results %s --workdir %s "
			    "2>%s/err", tu_dir, r, w, tu_dir), 0);
		ck_assert_int_lt(access(lock, F_OK), 0);
		ck_assert_int_eq(sh("grep -q 'removed its lock file %s$' "
		    "%s/err", lock, tu_dir), 0);
		/* its meta: the next run marked it interrupted */
		ck_assert_int_eq(sh("grep -qx status=interrupted %s/%s/run1/meta",
		    r, run[2]), 0);
	}
	snprintf(lock, sizeof(lock), "%s/.live.lock", r);
	ck_assert_int_eq(access(lock, F_OK), 0);
	kill(live, SIGINT);
	ck_assert_int_eq(finish(live), 130);
}
END_TEST

Suite *
state_suite(void)
{
	const struct tu_case cases[] = {
		/* planted files and the state folder's rules */
		{ "state", { planted_state_ignored, bad_items_refused,
		    state_trust_rules, symlinks_not_followed, create_helpers,
		    NULL } },
		/* runs that change the (fake) machine */
		{ "changer", { one_changer_at_a_time, plain_beside_changer,
		    NULL } },
		/* a changer beside some of a plain call's runs */
		{ "beside_runs", { beside_every_run, NULL } },
		/* labels and their lock files */
		{ "locks", { dot_labels_refused, stale_locks_removed, NULL } },
	};
	Suite *s = suite_create("state");
	TCase *tc;
	size_t i;

	/* test cases with the same fixtures, run side by side */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tc = tu_tcase(cases[i].name);
		tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
		tcase_set_timeout(tc, 120);
		tu_add_tests(tc, &cases[i]);
		suite_add_tcase(s, tc);
	}
	return s;
}
