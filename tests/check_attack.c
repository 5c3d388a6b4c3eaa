/*
 * check_attack.c - an unprivileged user against root's vmbench: each
 * attack of the kind a user who owns an output or label folder (a folder
 * in /tmp, or RESULTS=, PLOTS=, HTML= on a shared 1777 folder) can mount,
 * run as the user nobody (a forked child that drops to uid and gid 65534)
 * with root's programs run by the test.  Each test shows the victim (a file
 * or folder of root's, made for the test) unchanged, nothing run as root
 * (no marker file), nothing deleted, and the program exiting non-zero with
 * one line on stderr naming the folder it refused (`vmreport: refusing
 * folder DIR: owned by uid 65534, not by uid 0`).  A program that hangs is
 * killed after a few seconds, one that grows past 512 MiB at once; both
 * fail the test.
 *
 * Root only: without root the tests are skipped, and counted so.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#define NOBODY	65534
#define EX	"results/examples"

/* killed when still running after this (ms), or past this RSS (kB) */
#define HANG_MS		4000
#define RUN_MS		60000
#define MAX_RSS_KB	(512 * 1024)

#define sh(...)	tu_sh_in(NULL, __VA_ARGS__)

/* As root, else skipped (and counted). */
static int
need_root(void)
{
	if (geteuid() == 0)
		return 1;
	tu_skip("needs root (the attacks run as nobody against root)");
	return 0;
}


/*
 * The scene: tu_dir reachable by nobody (0755), s/ a shared folder
 * (1777) where nobody makes its folders, v/ root's (0755) holding the
 * victim file ("original") and root's folder v/keep, w/ root's work
 * folder, and the runs' state folder under tu_dir (VMBENCH_SYSROOT).
 */
static void
scene(void)
{
	char p[600];

	/* nobody must reach the scene: the run's root folder is 0700 */
	ck_assert_int_eq(chmod(tu_root(), 0711), 0);
	ck_assert_int_eq(chmod(tu_dir, 0755), 0);
	tu_folder(p, sizeof(p), "s", 01777);
	tu_folder(p, sizeof(p), "v", 0755);
	tu_folder(p, sizeof(p), "v/keep", 0755);
	tu_folder(p, sizeof(p), "w", 0755);
	tu_write(p, sizeof(p), "v/victim", "original\n");
	tu_write(p, sizeof(p), "one.conf",
	    "iterations 1\nforkbomb@par --forks 4 --ints 10\n");
	setenv("VMBENCH_SYSROOT", tu_dir, 1);
}

/*
 * The attacker's side: @fn(@arg) in a child running as nobody, which
 * writes a byte to @ready (its second argument) once it is set and
 * _exit()s with its result.
 */
typedef int (*nobody_fn)(const char *arg, int ready);

static pid_t
nobody_start(nobody_fn fn, const char *arg)
{
	int p[2];
	char c;
	pid_t pid;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 ||
		    setuid(NOBODY) < 0 || geteuid() != NOBODY)
			_exit(90);
		umask(022);
		alarm(60);
		_exit(fn(arg, p[1]));
	}
	close(p[1]);
	/* set (or gone) before the victim's program starts */
	if (read(p[0], &c, 1) != 1)
		c = 0;
	close(p[0]);
	return pid;
}

/* Its exit status (128 + signal), after SIGKILL when @stop. */
static int
nobody_end(pid_t pid, int stop)
{
	int st;

	if (stop)
		kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* @fn as nobody, waited for: its exit status, which must be 0. */
static void
as_nobody(nobody_fn fn, const char *arg)
{
	int rc = nobody_end(nobody_start(fn, arg), 0);

	ck_assert_msg(rc == 0, "nobody's step failed (exit %d) on %s", rc,
	    arg);
}

static void
ready(int fd)
{
	if (write(fd, "r", 1) != 1)
		_exit(89);
	close(fd);
}

/*
 * How root's program ended: its exit status (128 + signal), whether
 * it was killed for running too long or for growing, its peak RSS.
 */
struct ran {
	int status, hung, grew;
	long maxrss_kb;
	char err[600];			/* its stderr, a file */
};

/* The VmRSS of @pid in kB, 0 when gone. */
static long
rss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * Run @argv as root in a process group of its own, stdout to
 * /dev/null and stderr into tu_dir/@errname; killed (the whole group)
 * after @ms or once its RSS passes MAX_RSS_KB.
 */
static void
run_root(struct ran *r, const char *errname, int ms, char *const argv[])
{
	struct rusage ru;
	struct timespec t0, t;
	pid_t pid, w;
	int st, fd;

	memset(r, 0, sizeof(*r));
	tu_path(r->err, sizeof(r->err), errname);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setpgid(0, 0);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		fd = open(r->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	for (;;) {
		w = wait4(pid, &st, WNOHANG, &ru);
		ck_assert_int_ge(w, 0);
		if (w == pid)
			break;
		if (rss_kb(pid) > MAX_RSS_KB && !r->grew) {
			r->grew = 1;
			kill(-pid, SIGKILL);
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec -
		    t0.tv_nsec) / 1000000 > ms && !r->hung) {
			r->hung = 1;
			kill(-pid, SIGKILL);
		}
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	}
	/* what it started (gnuplot) goes with it */
	kill(-pid, SIGKILL);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->maxrss_kb = ru.ru_maxrss;
}

/* The text of what @r's program said (malloc'd), "" when nothing. */
static char *
said(const struct ran *r)
{
	char *t = tu_slurp(r->err);

	return t ? t : strdup("");
}

/*
 * Does @t name, as the folder it refuses ("refusing folder P: ..."),
 * @dir or a folder on its path (a shared RESULTS= above a label is
 * refused whole), or say it did not read a file in @dir?
 */
static int
names_refusal(const char *t, const char *dir)
{
	const char *p = strstr(t, "refusing folder "), *end;
	size_t n;

	if (p) {
		p += strlen("refusing folder ");
		if (!(end = strchr(p, ':')))
			return 0;
		n = (size_t)(end - p);
		return strncmp(dir, p, n) == 0 && (dir[n] == '\0' ||
		    dir[n] == '/');
	}
	return strstr(t, dir) && strstr(t, "not read");
}

/*
 * @r's program stopped by itself, in time and small, exiting non-zero
 * with one line on stderr that refuses @dir or a folder on its path,
 * or a file in it ("not read").
 */
static void
assert_refused(const struct ran *r, const char *dir, const char *what)
{
	char *t = said(r), *nl;
	int lines = 0;

	for (nl = t; (nl = strchr(nl, '\n')); nl++)
		lines++;
	if (*t && t[strlen(t) - 1] != '\n')
		lines++;
	ck_assert_msg(!r->hung, "%s: still running after its time, killed; "
	    "it said: %s", what, t);
	ck_assert_msg(!r->grew, "%s: grew past %d MiB, killed; it said: %s",
	    what, MAX_RSS_KB / 1024, t);
	ck_assert_msg(r->status != 0, "%s: exit 0, not refused; it said: %s",
	    what, t);
	ck_assert_msg(lines == 1 && names_refusal(t, dir), "%s: exit %d; not "
	    "one line \"refusing folder\" %s (or a folder above it), or a "
	    "file in it \"not read\"; it said: %s", what, r->status, dir, t);
	free(t);
}

/* No file at @path; when there is one, what it holds and @r said. */
static void
assert_no_marker(const char *path, const struct ran *r)
{
	char *m = tu_slurp(path), *t = said(r);

	ck_assert_msg(m == NULL, "%s was made (holding: %s): root ran "
	    "nobody's command; exit %d, it said: %s", path, m, r->status, t);
	free(t);
}

/* The victim holds what it held: "original". */
static void
assert_victim(const struct ran *r)
{
	char v[600], *text, *t;

	tu_path(v, sizeof(v), "v/victim");
	text = tu_slurp(v);
	t = said(r);
	ck_assert_msg(text && strcmp(text, "original\n") == 0, "%s was "
	    "changed (now: %.200s); exit %d, it said: %s", v, text ? text :
	    "(gone)", r->status, t);
	free(text);
	free(t);
}

/* Root's folder v/keep holds @n entries, as it did. */
static void
assert_keep(const struct ran *r, int n)
{
	char k[600], *t = said(r);
	int got;

	tu_path(k, sizeof(k), "v/keep");
	got = tu_count_except(k, "");
	ck_assert_msg(got == n, "%s: %d entries, not %d (written into, or "
	    "deleted from); exit %d, it said: %s", k, got, n, r->status, t);
	free(t);
}

/* ---- the attacker's steps (as nobody) ---- */

/* mkdir @arg, 0755. */
static int
n_mkdir(const char *arg, int r)
{
	ready(r);
	return mkdir(arg, 0755) == 0 ? 0 : 1;
}

/* "TARGET\tLINK": symlink LINK -> TARGET. */
static int
n_symlink(const char *arg, int r)
{
	char buf[2048], *tab;

	ready(r);
	snprintf(buf, sizeof(buf), "%s", arg);
	if (!(tab = strchr(buf, '\t')))
		return 2;
	*tab = '\0';
	return symlink(buf, tab + 1) == 0 ? 0 : 1;
}

/* mkfifo @arg. */
static int
n_mkfifo(const char *arg, int r)
{
	ready(r);
	return mkfifo(arg, 0644) == 0 ? 0 : 1;
}

/* "PATH\tTEXT": a new file PATH holding TEXT. */
static int
n_write(const char *arg, int r)
{
	char buf[2048], *tab;
	FILE *f;

	ready(r);
	snprintf(buf, sizeof(buf), "%s", arg);
	if (!(tab = strchr(buf, '\t')))
		return 2;
	*tab = '\0';
	if (!(f = fopen(buf, "wx")) || fputs(tab + 1, f) < 0 || fclose(f))
		return 1;
	return 0;
}

/* The name of the last `load '...'` line of @gp into @name. */
static int
last_load(const char *gp, char *name, size_t len)
{
	char line[1024], *q;
	FILE *f = fopen(gp, "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "load '", 6) == 0 &&
		    (q = strchr(line + 6, '\''))) {
			snprintf(name, len, "%.*s", (int)(q - line - 6),
			    line + 6);
			found = 1;
		}
	fclose(f);
	return found;
}

/*
 * "DIR\tMARKER": once vmreport has written DIR/all.gp (and gnuplot is
 * about to run it), rename a script of nobody's over the last one it
 * loads, running `id -u > MARKER`.  Exit 0 once done, 3 when all.gp
 * never came.
 */
static int
n_plot_race(const char *arg, int r)
{
	char dir[700], gp[800], name[600], evil[800], dst[1400];
	char ev[4096] __attribute__((aligned(8)));
	const char *tab = strchr(arg, '\t');
	ssize_t n;
	FILE *f;
	int fd;

	if (!tab)
		return 2;
	snprintf(dir, sizeof(dir), "%.*s", (int)(tab - arg), arg);
	if ((fd = inotify_init1(IN_CLOEXEC)) < 0 || inotify_add_watch(fd, dir,
	    IN_CLOSE_WRITE | IN_MOVED_TO) < 0)
		return 4;
	ready(r);
	alarm(30);
	while ((n = read(fd, ev, sizeof(ev))) > 0) {
		char *p;

		for (p = ev; p < ev + n; ) {
			struct inotify_event *e = (struct inotify_event *)p;

			p += sizeof(*e) + e->len;
			if (!e->len || strcmp(e->name, "all.gp"))
				continue;
			snprintf(gp, sizeof(gp), "%s/all.gp", dir);
			if (!last_load(gp, name, sizeof(name)))
				return 5;
			snprintf(evil, sizeof(evil), "%s/.evil", dir);
			if (!(f = fopen(evil, "w")))
				return 6;
			fprintf(f, "system \"id -u > %s\"\n", tab + 1);
			fclose(f);
			snprintf(dst, sizeof(dst), "%s/%s", dir, name);
			return rename(evil, dst) == 0 ? 0 : 7;
		}
	}
	return 3;
}

/*
 * "X\tEVIL", X a label folder of nobody's, EVIL its folder elsewhere
 * holding forkbomb@par.log -> the victim: the moment root makes run1/
 * in X, rename it away and EVIL into its place.  Exit 0 once done, 3
 * when run1 never came.
 */
static int
n_run1_swap(const char *arg, int r)
{
	char ev[4096] __attribute__((aligned(8))), x[700], b[800], old[800];
	const char *evil = strchr(arg, '\t');
	ssize_t n;
	int fd;

	if (!evil)
		return 2;
	snprintf(x, sizeof(x), "%.*s", (int)(evil++ - arg), arg);
	if ((fd = inotify_init1(IN_CLOEXEC)) < 0 || inotify_add_watch(fd, x,
	    IN_CREATE) < 0)
		return 4;
	ready(r);
	alarm(30);
	snprintf(b, sizeof(b), "%s/run1", x);
	snprintf(old, sizeof(old), "%s/run1.old", x);
	while ((n = read(fd, ev, sizeof(ev))) > 0) {
		char *p;

		for (p = ev; p < ev + n; ) {
			struct inotify_event *e = (struct inotify_event *)p;

			p += sizeof(*e) + e->len;
			if (e->len && strcmp(e->name, "run1") == 0)
				return rename(b, old) == 0 && rename(evil,
				    b) == 0 ? 0 : 7;
		}
	}
	return 3;
}

/*
 * "EMPTY\tLINK\tVICTIM\tUS": US microseconds after EMPTY (LINK's
 * target) has been read and closed, point LINK at VICTIM instead.
 * Exit 0 once done.
 */
static int
n_html_repoint(const char *arg, int r)
{
	char ev[4096] __attribute__((aligned(8)));
	char buf[2000], *link, *victim, *us, tmp[1100];
	int fd;

	snprintf(buf, sizeof(buf), "%s", arg);
	if (!(link = strchr(buf, '\t')) || !(victim = strchr(link + 1,
	    '\t')) || !(us = strchr(victim + 1, '\t')))
		return 2;
	*link++ = '\0';
	*victim++ = '\0';
	*us++ = '\0';
	if ((fd = inotify_init1(IN_CLOEXEC)) < 0 || inotify_add_watch(fd, buf,
	    IN_CLOSE_NOWRITE) < 0)
		return 4;
	ready(r);
	alarm(30);
	if (read(fd, ev, sizeof(ev)) <= 0)
		return 3;
	usleep((useconds_t)atoi(us));
	snprintf(tmp, sizeof(tmp), "%s.new", link);
	if (symlink(victim, tmp) < 0)
		return 5;
	return rename(tmp, link) == 0 ? 0 : 6;
}

/* In folder @arg, 20,000 files f00000 ... f19999 (nobody's). */
static int
n_fill(const char *arg, int r)
{
	char p[800];
	int i, fd;

	ready(r);
	for (i = 0; i < 20000; i++) {
		snprintf(p, sizeof(p), "%s/f%05d", arg, i);
		if ((fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0)
			return 1;
		close(fd);
	}
	return 0;
}

/*
 * "RUN1\tKEEP": at the first file deleted in RUN1/d, rename d away and
 * put a symlink d -> KEEP (root's folder) in its place.  Exit 0 once
 * done, 3 when nothing was deleted.
 */
static int
n_rm_swap(const char *arg, int r)
{
	char ev[4096] __attribute__((aligned(8)));
	char run1[700], d[800], old[800];
	const char *tab = strchr(arg, '\t');
	int fd;

	if (!tab)
		return 2;
	snprintf(run1, sizeof(run1), "%.*s", (int)(tab - arg), arg);
	snprintf(d, sizeof(d), "%s/d", run1);
	snprintf(old, sizeof(old), "%s/d.old", run1);
	if ((fd = inotify_init1(IN_CLOEXEC)) < 0 || inotify_add_watch(fd, d,
	    IN_DELETE) < 0)
		return 4;
	ready(r);
	alarm(30);
	if (read(fd, ev, sizeof(ev)) <= 0)
		return 3;
	if (rename(d, old) < 0)
		return 5;
	return symlink(tab + 1, d) == 0 ? 0 : 6;
}

/* nobody's step @fn on "@a\t@b". */
static void
as_nobody2(nobody_fn fn, const char *a, const char *b)
{
	char arg[2048];

	snprintf(arg, sizeof(arg), "%s\t%s", a, b);
	as_nobody(fn, arg);
}

/* ---- (1) the gnuplot race ---- */

/*
 * PLOTS= a folder nobody made; while gnuplot runs all.gp, nobody
 * renames its own script over the last one all.gp loads, holding
 * `system "id -u > MARKER"`.  Nothing of nobody's runs as root: the
 * folder is refused before anything is written.
 */
START_TEST(plot_race)
{
	char plots[600], mark[600], arg[1300];
	struct ran r;
	pid_t w;

	if (!need_root())
		return;
	scene();
	tu_path(plots, sizeof(plots), "s/plots");
	tu_path(mark, sizeof(mark), "pwned");
	as_nobody(n_mkdir, plots);
	snprintf(arg, sizeof(arg), "%s\t%s", plots, mark);
	w = nobody_start(n_plot_race, arg);
	run_root(&r, "err", RUN_MS, (char *const []){ "report/vmreport",
	    "--plot", plots, EX "/example-a", EX "/example-b", NULL });
	nobody_end(w, 1);
	assert_no_marker(mark, &r);
	assert_refused(&r, plots, "vmreport --plot (nobody's folder)");
}
END_TEST

/* ---- (2) planted symlinks ---- */

/* all.gp -> the victim in nobody's chart folder: never written. */
START_TEST(plot_gp_symlink)
{
	char plots[600], v[600], link[700];
	struct ran r;

	if (!need_root())
		return;
	scene();
	tu_path(plots, sizeof(plots), "s/plots");
	tu_path(v, sizeof(v), "v/victim");
	as_nobody(n_mkdir, plots);
	snprintf(link, sizeof(link), "%s/all.gp", plots);
	as_nobody2(n_symlink, v, link);
	run_root(&r, "err", RUN_MS, (char *const []){ "report/vmreport",
	    "--plot", plots, EX "/example-a", EX "/example-b", NULL });
	assert_victim(&r);
	assert_refused(&r, plots, "vmreport --plot (all.gp a symlink)");
}
END_TEST

/* PLOTS= nobody's symlink to root's folder: nothing written there. */
START_TEST(plots_dir_symlink)
{
	char plots[600], keep[600];
	struct ran r;

	if (!need_root())
		return;
	scene();
	tu_path(plots, sizeof(plots), "s/plots");
	tu_path(keep, sizeof(keep), "v/keep");
	as_nobody2(n_symlink, keep, plots);
	run_root(&r, "err", RUN_MS, (char *const []){ "report/vmreport",
	    "--plot", plots, EX "/example-a", EX "/example-b", NULL });
	assert_keep(&r, 0);
	assert_refused(&r, plots, "vmreport --plot (PLOTS a symlink)");
}
END_TEST

/*
 * index.html.tmp in nobody's HTML= folder: a symlink to nobody's empty
 * file (what an interrupted run leaves, accepted), re-pointed at the
 * victim just after vmreport has looked at it (100 us to 12.8 ms
 * after, one try each, until the victim is hit or vmreport refuses).
 */
START_TEST(html_tmp_symlink)
{
	char html[600], v[600], link[700], empty[600], arg[2000], *text;
	struct ran r;
	pid_t w;
	int i;

	if (!need_root())
		return;
	scene();
	tu_path(html, sizeof(html), "s/html");
	tu_path(v, sizeof(v), "v/victim");
	tu_path(empty, sizeof(empty), "s/empty");
	as_nobody(n_mkdir, html);
	as_nobody2(n_write, empty, "");
	snprintf(link, sizeof(link), "%s/index.html.tmp", html);
	for (i = 0; i < 8; i++) {
		unlink(link);
		as_nobody2(n_symlink, empty, link);
		snprintf(arg, sizeof(arg), "%s\t%s\t%s\t%d", empty, link, v,
		    100 << i);
		w = nobody_start(n_html_repoint, arg);
		run_root(&r, "err", RUN_MS, (char *const []){
		    "report/vmreport", "--html", html, EX "/example-a",
		    EX "/example-b", NULL });
		nobody_end(w, 1);
		text = tu_slurp(v);
		if (!text || strcmp(text, "original\n") || r.status) {
			free(text);
			break;
		}
		free(text);
	}
	assert_victim(&r);
	assert_refused(&r, html, "vmreport --html (index.html.tmp a "
	    "symlink)");
}
END_TEST

/* ---- (3) a run into nobody's label folder ---- */

/* bench/vmrun --kernel x, one forkbomb line, into tu_dir/s. */
static void
vmrun_x(struct ran *r, const char *err, int force, int ms)
{
	char conf[600], res[600], w[600];

	tu_path(conf, sizeof(conf), "one.conf");
	tu_path(res, sizeof(res), "s");
	tu_path(w, sizeof(w), "w");
	run_root(r, err, ms, (char *const []){ "bench/vmrun", "--kernel",
	    "x", "--config", conf, "--results", res, "--workdir", w,
	    force ? "--force" : NULL, NULL });
}

/*
 * RESULTS= a shared folder where nobody made the label folder x: the
 * moment root makes x/run1, nobody renames it away and its own folder
 * holding forkbomb@par.log -> the victim into its place.
 */
START_TEST(label_run1_swap)
{
	char x[600], evil[700], v[600], link[800], arg[1400];
	struct ran r;
	pid_t w;

	if (!need_root())
		return;
	scene();
	tu_path(x, sizeof(x), "s/x");
	tu_path(v, sizeof(v), "v/victim");
	as_nobody(n_mkdir, x);
	tu_path(evil, sizeof(evil), "s/evil");
	as_nobody(n_mkdir, evil);
	snprintf(link, sizeof(link), "%s/forkbomb@par.log", evil);
	as_nobody2(n_symlink, v, link);
	snprintf(arg, sizeof(arg), "%s\t%s", x, evil);
	w = nobody_start(n_run1_swap, arg);
	vmrun_x(&r, "err", 0, RUN_MS);
	nobody_end(w, 1);
	assert_victim(&r);
	assert_refused(&r, x, "vmrun into nobody's label folder (run1 "
	    "swapped)");
}
END_TEST

/* The same folder without any trick: nobody's, so refused. */
START_TEST(label_folder_foreign)
{
	char x[600];
	struct ran r;

	if (!need_root())
		return;
	scene();
	tu_path(x, sizeof(x), "s/x");
	as_nobody(n_mkdir, x);
	vmrun_x(&r, "err", 0, RUN_MS);
	assert_refused(&r, x, "vmrun into nobody's label folder");
}
END_TEST

/*
 * The same label folder of nobody's (chown) in root's own RESULTS=
 * (0755): the label folder itself is refused, by name.
 */
START_TEST(label_folder_foreign_in_own)
{
	char s_[600], x[600];
	struct ran r;

	if (!need_root())
		return;
	scene();
	ck_assert_int_eq(chmod(tu_path(s_, sizeof(s_), "s"), 0755), 0);
	tu_folder(x, sizeof(x), "s/x", 0755);
	ck_assert_int_eq(chown(x, NOBODY, NOBODY), 0);
	vmrun_x(&r, "err", 0, RUN_MS);
	assert_refused(&r, x, "vmrun into nobody's label folder in root's "
	    "RESULTS=");
	{
		char *t = said(&r);

		ck_assert_msg(strstr(t, "owned by uid 65534"), "the line does "
		    "not name the owner: %s", t);
		free(t);
	}
}
END_TEST

/*
 * WORKDIR= a folder nobody owns (not sticky: nobody could rename a
 * benchmark's private folder away): refused by name before anything
 * runs or is made, RESULTS= included.
 */
START_TEST(workdir_foreign)
{
	char s_[600], w[600];
	struct ran r;

	if (!need_root())
		return;
	scene();
	ck_assert_int_eq(chmod(tu_path(s_, sizeof(s_), "s"), 0755), 0);
	tu_path(w, sizeof(w), "w");
	ck_assert_int_eq(chown(w, NOBODY, NOBODY), 0);
	vmrun_x(&r, "err", 0, RUN_MS);
	assert_refused(&r, w, "vmrun with nobody's WORKDIR=");
	ck_assert_int_eq(tu_count_except(s_, ""), 0);
}
END_TEST

/* ---- (4) FORCE=1 and a swapped subfolder ---- */

/*
 * The scene of the FORCE tests: root's label folder x of tu_dir/s
 * (RESULTS= 1777, or root's own 0755 when @own) whose run1 is nobody's,
 * holding d/ with 20,000 files, and root's v/keep with 10 files named
 * as d's are; then vmrun --force into @r while nobody, at the first
 * delete in d, swaps d for a symlink to v/keep.  x and run1's paths
 * into @x and @run1.
 */
static void
force_swap(struct ran *r, int own, char *x, size_t xlen, char *run1,
    size_t run1len)
{
	char d[800], keep[600], p[900], rel[64], arg[1400];
	pid_t w;
	int i;

	scene();
	if (own)
		ck_assert_int_eq(chmod(tu_path(p, sizeof(p), "s"), 0755), 0);
	tu_folder(x, xlen, "s/x", 0755);
	snprintf(run1, run1len, "%s/run1", x);
	ck_assert_int_eq(mkdir(run1, 0755), 0);
	ck_assert_int_eq(chown(run1, NOBODY, NOBODY), 0);
	snprintf(d, sizeof(d), "%s/d", run1);
	as_nobody(n_mkdir, d);
	as_nobody(n_fill, d);
	tu_path(keep, sizeof(keep), "v/keep");
	for (i = 0; i < 10; i++) {
		snprintf(rel, sizeof(rel), "v/keep/f%05d", 19999 - i * 2000);
		tu_write(p, sizeof(p), rel, "root's\n");
	}
	snprintf(arg, sizeof(arg), "%s\t%s", run1, keep);
	w = nobody_start(n_rm_swap, arg);
	vmrun_x(r, "err", 1, RUN_MS);
	nobody_end(w, 1);
}

/* In a shared RESULTS=: refused whole, root's 10 files stay. */
START_TEST(force_rm_swap)
{
	char x[600], run1[700];
	struct ran r;

	if (!need_root())
		return;
	force_swap(&r, 0, x, sizeof(x), run1, sizeof(run1));
	assert_keep(&r, 10);
	assert_refused(&r, x, "vmrun --force (nobody's run1 swapped)");
}
END_TEST

/*
 * In root's own RESULTS= (0755) the run goes on and --force removes the
 * label's tree, nobody's run1 with it, during the swap: the removal,
 * through folder descriptors, takes the symlink's name, never root's 10
 * files, and the label is replaced.
 */
START_TEST(force_rm_swap_in_own)
{
	char x[600], run1[700], *t;
	struct stat st;
	struct ran r;

	if (!need_root())
		return;
	force_swap(&r, 1, x, sizeof(x), run1, sizeof(run1));
	assert_keep(&r, 10);
	t = said(&r);
	ck_assert_msg(!r.hung && r.status == 0, "vmrun --force in root's "
	    "RESULTS=: exit %d; it said: %s", r.status, t);
	ck_assert_msg(lstat(run1, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == 0, "%s: not root's new run folder; vmrun said: %s",
	    run1, t);
	free(t);
}
END_TEST

/* ---- (5) the flat label's move into run1 ---- */

/*
 * A one-run label at its top (meta, evil.sh) that nobody owns, whose
 * run1 is nobody's symlink to root's v/keep: nothing moved there.
 */
START_TEST(flat_run1_symlink)
{
	char x[600], p[700], keep[600];
	struct ran r;

	if (!need_root())
		return;
	scene();
	tu_path(x, sizeof(x), "s/x");
	tu_path(keep, sizeof(keep), "v/keep");
	as_nobody(n_mkdir, x);
	snprintf(p, sizeof(p), "%s/meta", x);
	as_nobody2(n_write, p, "vmbench_meta=1\nlabel=x\nstatus=complete\n");
	snprintf(p, sizeof(p), "%s/evil.sh", x);
	as_nobody2(n_write, p, "#!/bin/sh\nid\n");
	snprintf(p, sizeof(p), "%s/run1", x);
	as_nobody2(n_symlink, keep, p);
	vmrun_x(&r, "err", 0, RUN_MS);
	assert_keep(&r, 0);
	assert_refused(&r, x, "vmrun on nobody's flat label (run1 a "
	    "symlink)");
}
END_TEST

/* ---- (6) metas and .res that are no regular files ---- */

/*
 * nobody's label folder x of tu_dir/s with a FIFO meta, then
 * meta -> /dev/zero: vmrun neither hangs nor grows, and refuses.
 */
START_TEST(vmrun_meta_fifo_zero)
{
	char x[600], p[700];
	struct ran r;

	if (!need_root())
		return;
	scene();
	tu_path(x, sizeof(x), "s/x");
	as_nobody(n_mkdir, x);
	snprintf(p, sizeof(p), "%s/meta", x);
	as_nobody(n_mkfifo, p);
	vmrun_x(&r, "err", 0, HANG_MS);
	ck_assert_msg(!r.hung, "vmrun on a FIFO meta hung (killed after its "
	    "time)");
	assert_refused(&r, x, "vmrun (meta a FIFO)");
	ck_assert_int_eq(sh("rm -rf '%s'", x), 0);
	as_nobody(n_mkdir, x);
	as_nobody2(n_symlink, "/dev/zero", p);
	vmrun_x(&r, "err", 0, HANG_MS);
	ck_assert_msg(r.maxrss_kb < 100 * 1024, "vmrun on meta -> /dev/zero "
	    "grew to %ld kB", r.maxrss_kb);
	assert_refused(&r, x, "vmrun (meta -> /dev/zero)");
}
END_TEST

/*
 * The same in root's own label folder (nothing to refuse but the
 * file): no hang, no growth, a line naming meta, and no run.
 */
START_TEST(vmrun_meta_fifo_own)
{
	char x[600], p[700], *t;
	struct ran r;
	int k;

	if (!need_root())
		return;
	scene();
	/* RESULTS= root's own too, not the shared folder of the others */
	ck_assert_int_eq(chmod(tu_path(p, sizeof(p), "s"), 0755), 0);
	tu_folder(x, sizeof(x), "s/x", 0755);
	snprintf(p, sizeof(p), "%s/meta", x);
	for (k = 0; k < 2; k++) {
		unlink(p);
		ck_assert_int_eq(k ? symlink("/dev/zero", p) : mkfifo(p, 0644),
		    0);
		vmrun_x(&r, "err", 0, HANG_MS);
		t = said(&r);
		ck_assert_msg(!r.hung && !r.grew && r.maxrss_kb < 100 * 1024,
		    "vmrun on %s: hung %d, grew %d, %ld kB; it said: %s",
		    k ? "meta -> /dev/zero" : "a FIFO meta", r.hung, r.grew,
		    r.maxrss_kb, t);
		ck_assert_msg(r.status != 0 && strstr(t, p), "vmrun on %s: "
		    "exit %d, no line naming %s; it said: %s", k ? "meta -> "
		    "/dev/zero" : "a FIFO meta", r.status, p, t);
		free(t);
	}
}
END_TEST

/* The report's views; "$OUT" a new folder for --plot and --html. */
static const char *const views[][3] = {
	{ NULL }, { "--detail" }, { "--post" }, { "--format", "csv" },
	{ "--format", "json" }, { "--plot", "$OUT" }, { "--html", "$OUT" },
};
#define NVIEWS	(sizeof(views) / sizeof(views[0]))

/* vmreport in view @v on root's example-a and @dir; killed early. */
static void
report_view(struct ran *r, size_t v, const char *dir, int ms)
{
	char out[600], name[32];
	char *argv[8];
	int n = 0, i;

	snprintf(name, sizeof(name), "out%zu", v);
	tu_path(out, sizeof(out), name);
	argv[n++] = "report/vmreport";
	for (i = 0; i < 2 && views[v][i]; i++)
		argv[n++] = strcmp(views[v][i], "$OUT") ? (char *)views[v][i] :
		    out;
	argv[n++] = EX "/example-a";
	argv[n++] = (char *)dir;
	argv[n] = NULL;
	run_root(r, "err", ms, argv);
	sh("rm -rf '%s'", out);
}

/* The view's words, for messages. */
static const char *
view_name(size_t v)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "vmreport %s%s%s", views[v][0] ?
	    views[v][0] : "(plain)", views[v][1] ? " " : "", views[v][1] ?
	    views[v][1] : "");
	return buf;
}

/*
 * nobody's copy of example-b, k, in tu_dir/s, with @file (meta or
 * forkbomb.res) replaced by a FIFO (@how 'f') or a symlink to
 * /dev/zero ('z').
 */
static void
foreign_label(char *k, size_t len, const char *file, int how)
{
	char p[700];

	tu_path(k, len, "s/k");
	ck_assert_int_eq(sh("rm -rf '%s' && cp -r " EX "/example-b '%s' && "
	    "rm -f '%s/%s' && chown -R %d:%d '%s'", k, k, k, file, NOBODY,
	    NOBODY, k), 0);
	snprintf(p, sizeof(p), "%s/%s", k, file);
	if (how == 'f')
		as_nobody(n_mkfifo, p);
	else
		as_nobody2(n_symlink, "/dev/zero", p);
}

/* Each view on nobody's label whose @file is made by @how: refused. */
static void
report_foreign(const char *file, int how)
{
	char k[600], what[200];
	struct ran r;
	size_t v;

	foreign_label(k, sizeof(k), file, how);
	for (v = 0; v < NVIEWS; v++) {
		report_view(&r, v, k, HANG_MS);
		snprintf(what, sizeof(what), "%s (nobody's label, %s %s)",
		    view_name(v), file, how == 'f' ? "a FIFO" :
		    "-> /dev/zero");
		assert_refused(&r, k, what);
	}
}

START_TEST(report_meta_fifo)
{
	if (need_root()) {
		scene();
		report_foreign("meta", 'f');
	}
}
END_TEST

START_TEST(report_meta_zero)
{
	if (need_root()) {
		scene();
		report_foreign("meta", 'z');
	}
}
END_TEST

START_TEST(report_res_fifo)
{
	if (need_root()) {
		scene();
		report_foreign("forkbomb.res", 'f');
	}
}
END_TEST

/*
 * In root's own copy of example-b (nothing to refuse but the file): a
 * FIFO forkbomb.res, a FIFO meta, meta -> /dev/zero, and a 6.9 MB meta
 * of 200,000 keys on one line each.  Each view ends in time, small,
 * with a line naming the file.
 */
START_TEST(report_bounded_reads)
{
	static const struct {
		const char *file, *make, *what;
	} cases[] = {
		{ "forkbomb.res", "mkfifo \"$F\"", "a FIFO .res" },
		{ "meta", "mkfifo \"$F\"", "a FIFO meta" },
		{ "meta", "ln -s /dev/zero \"$F\"", "meta -> /dev/zero" },
		{ "meta", "cp '" EX "/example-b/meta' \"$F\" && awk 'BEGIN { "
		    "for (i = 0; i < 200000; i++) printf \"key%06d=%s\\n\", "
		    "i, \"valuevaluevaluevaluevalue\" }' >> \"$F\"",
		    "a 6.9 MB meta of 200,000 keys" },
	};
	char k[600], what[200], *t;
	struct ran r;
	size_t c, v;

	if (!need_root())
		return;
	scene();
	tu_path(k, sizeof(k), "own");
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		ck_assert_int_eq(sh("rm -rf '%s' && cp -r " EX "/example-b "
		    "'%s' && F='%s/%s' && rm -f \"$F\" && %s", k, k, k,
		    cases[c].file, cases[c].make), 0);
		for (v = 0; v < NVIEWS; v++) {
			report_view(&r, v, k, HANG_MS);
			snprintf(what, sizeof(what), "%s (%s)", view_name(v),
			    cases[c].what);
			t = said(&r);
			ck_assert_msg(!r.hung, "%s: still running after %d "
			    "ms, killed; it said: %s", what, HANG_MS, t);
			ck_assert_msg(!r.grew && r.maxrss_kb < 200 * 1024,
			    "%s: grew to %ld kB; it said: %s", what,
			    r.maxrss_kb, t);
			ck_assert_msg(strstr(t, cases[c].file) != NULL, "%s: "
			    "exit %d, no line naming %s; it said: %s", what,
			    r.status, cases[c].file, t);
			free(t);
		}
	}
}
END_TEST

Suite *
attack_suite(void)
{
	Suite *s = suite_create("attack");
	TCase *tc;

	/* the report: only its own files and the test's */
	tc = tu_tcase("report");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, plot_race);
	tcase_add_test(tc, plot_gp_symlink);
	tcase_add_test(tc, plots_dir_symlink);
	tcase_add_test(tc, html_tmp_symlink);
	suite_add_tcase(s, tc);

	tc = tu_tcase("reads");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, report_meta_fifo);
	tcase_add_test(tc, report_meta_zero);
	tcase_add_test(tc, report_res_fifo);
	tcase_add_test(tc, report_bounded_reads);
	suite_add_tcase(s, tc);

	/* vmrun takes the machine's locks: alone */
	tc = tu_tcase_alone("vmrun");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, label_run1_swap);
	tcase_add_test(tc, label_folder_foreign);
	tcase_add_test(tc, label_folder_foreign_in_own);
	tcase_add_test(tc, workdir_foreign);
	tcase_add_test(tc, force_rm_swap);
	tcase_add_test(tc, force_rm_swap_in_own);
	tcase_add_test(tc, flat_run1_symlink);
	tcase_add_test(tc, vmrun_meta_fifo_zero);
	tcase_add_test(tc, vmrun_meta_fifo_own);
	suite_add_tcase(s, tc);
	return s;
}
