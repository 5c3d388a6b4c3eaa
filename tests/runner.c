/*
 * runner.c - the one test runner: every tests/check_<module>.c exports
 * Suite *<module>_suite(void); tests/suites.h (made by the Makefile) lists
 * them.  Exits non-zero when any test fails.
 *
 *	tests/check_vmbench            all suites
 *	tests/check_vmbench size res   only these suites
 *	tests/check_vmbench -j 1 ...   one suite at a time
 *
 Each test case runs in a process of its own (the runner learns a
 * suite's test cases from tu_tcase(), tests/testutil.h; a suite that
 * does not use it runs whole), its output kept apart and printed when
 * it ends; a suite's line, with its counts, wall and CPU time, comes
 * when its last test case ends.  First the test cases that change what
 * the whole machine shares (a memory cgroup, swap, a sysctl, the
 * machine lock: made with tu_tcase_alone(), Check's tag "exclusive"),
 * one at a time and alone; then the rest, up to -j at once (default:
 * VB_JOBS, else twice the number of CPUs, since most test cases wait
 * on the programs they run more than they compute), the longest in the
 * last run first (<the runner>.times).
 *
 * The run's temporary folders live under one root it makes (and names
 * in VB_TEST_ROOT, tests/testutil.h) and removes at the end.  A test
 * that cannot run here calls tu_skip(): after the suites the runner
 * prints the skipped tests, each with its reason, and last the line
 * "N passed, N failed, N skipped".
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#define SUITE(n) Suite *n##_suite(void);
#include "suites.h"
#undef SUITE

static const struct {
	const char *name;
	Suite *(*fn)(void);
} suites[] = {
#define SUITE(n) { #n, n##_suite },
#include "suites.h"
#undef SUITE
};

#define NSUITES (sizeof(suites) / sizeof(suites[0]))

/*
 * The test cases tagged "slow" (tu_tcase_slow(): real Ansible runs,
 * QEMU boots, Chromium: a heavy outside program each, seconds to
 * minutes of CPU): VB_CHECK_SLOW unset or 0 leaves them out (make
 * check), 1 runs only them (make check-slow), all runs everything.  A slow test case never runs alone.
 */
enum { SLOW_NOT, SLOW_ONLY, SLOW_ALL };
static int slow_mode = SLOW_NOT;
/* when the run began (now()), for VB_CHECK_TIMES' start offsets */
static double run_t0;

/*
 * The slowest suites, started first so that the long ones do not end
 * the run alone (the others follow in their order); only an order.
 */
static const char *const slow_first[] = {
	"fleet", "boots", "html", "make", "plot", "state", "vmreport",
	"scope",
};

#define NSLOW (sizeof(slow_first) / sizeof(slow_first[0]))

/* Is @name in @list (@n names)?  With no list: is it a suite? */
static int
listed(const char *name, const char *const *list, size_t n)
{
	size_t i;

	if (!list) {
		for (i = 0; i < NSUITES; i++)
			if (strcmp(suites[i].name, name) == 0)
				return 1;
		return 0;
	}
	for (i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return 1;
	return 0;
}

/* Unmount what is left mounted under @root, then remove it. */
static void
remove_root(const char *root)
{
	tu_umount_under(root);
	if (tu_rmtree(root) < 0)
		fprintf(stderr, "check_vmbench: cannot remove %s: %s\n", root,
		    strerror(errno));
}

/*
 * The roots of earlier runs that were killed (SIGKILL skips the
 * removal): $base/vmbench-check.<pid>.*, whose pid is gone; only ours
 * (root removes any).
 */
static void
remove_stale_roots(const char *base)
{
	char pat[600];
	glob_t g;
	size_t i;

	snprintf(pat, sizeof(pat), "%s/vmbench-check.*.*", base);
	if (glob(pat, GLOB_NOSORT, NULL, &g) != 0)
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		const char *p = strrchr(g.gl_pathv[i], '/') + 1;
		long pid = strtol(p + strlen("vmbench-check."), NULL, 10);
		struct stat st;

		if (pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH &&
		    lstat(g.gl_pathv[i], &st) == 0 && S_ISDIR(st.st_mode) &&
		    (st.st_uid == geteuid() || geteuid() == 0))
			remove_root(g.gl_pathv[i]);
	}
	globfree(&g);
}

/*
 * The whole of @path, NUL-terminated (malloc'd), or NULL; not
 * tu_slurp(), whose checks work only inside a test.
 */
static char *
read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 4096, got;
	char *buf = NULL, *more;

	if (!f)
		return NULL;
	while ((more = realloc(buf, cap))) {
		buf = more;
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
		if (cap - len < 2)
			cap *= 2;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* A recorded skip: "suite: test: why". */
struct skip {
	char *suite, *test, *why;
	int done;
};

/*
 * Print the skips recorded in @root/skipped, one line for each suite
 * and reason, naming its tests (a loop test's runs counted once, with
 * their number); how many tests skipped.
 */
static int
print_skips(const char *root)
{
	char path[600], *text, *line, *end;
	struct skip *sk = NULL, *more;
	int n = 0, i, j, k;

	snprintf(path, sizeof(path), "%s/skipped", root);
	if (!(text = read_all(path)))
		return 0;
	for (line = text; (end = strchr(line, '\n')); line = end + 1) {
		char *t, *w;

		*end = '\0';
		if (!(t = strstr(line, ": ")) || !(w = strstr(t + 2, ": ")))
			continue;
		if (!(more = realloc(sk, (size_t)(n + 1) * sizeof(*sk))))
			break;
		sk = more;
		*t = *w = '\0';
		sk[n++] = (struct skip){ line, t + 2, w + 2, 0 };
	}
	if (n > 0)
		printf("%d skipped:\n", n);
	for (i = 0; i < n; i++) {
		const char *sep = "";

		if (sk[i].done)
			continue;
		printf("  %s: ", sk[i].suite);
		for (j = i; j < n; j++) {
			int runs = 0;

			if (sk[j].done || strcmp(sk[j].suite, sk[i].suite) ||
			    strcmp(sk[j].why, sk[i].why))
				continue;
			/* the runs of one (loop) test, all with this reason */
			for (k = j; k < n; k++)
				if (!sk[k].done &&
				    !strcmp(sk[k].test, sk[j].test) &&
				    !strcmp(sk[k].suite, sk[i].suite) &&
				    !strcmp(sk[k].why, sk[i].why)) {
					sk[k].done = 1;
					runs++;
				}
			printf(runs > 1 ? "%s%s (%d runs)" : "%s%s", sep,
			    sk[j].test, runs);
			sep = ", ";
		}
		printf(": %s\n", sk[i].why);
	}
	free(sk);
	free(text);
	return n;
}

/* A test case as tu_tcase_seen() saw it. */
struct tcinfo {
	const char *name;
	int flags;		/* TU_TC_ALONE, TU_TC_SLOW */
};

/* The test cases of the suite being made (tu_tcase_seen()). */
static struct tcinfo *seen;
static size_t nseen, seen_cap;

/* A part of a suite (alone or not): its counts and times so far. */
struct part {
	int jobs;		/* its jobs not ended yet */
	int checks, failures, errors;
	double start, end, cpu;
};

/* One suite's test cases, and its counts and times so far. */
struct suiteinfo {
	struct tcinfo *tc;	/* NULL: the suite runs whole */
	size_t ntc;
	struct part part[2];	/* [alone]: each part has its own line */
};

static struct suiteinfo sinfo[NSUITES];

/*
 * One job: a test case (or a whole suite) in a process of its own,
 * its counts and its times.
 */
struct job {
	size_t suite;
	const char *tcase;	/* NULL: the whole suite */
	int alone;		/* its "exclusive" test cases, else the rest */
	pid_t pid;
	int checks, failures, errors;
	double start, wall, cpu;
	double last;		/* its wall time in the last run, or -1 */
	size_t order;		/* its place in the order made first */
	int local;		/* TU_TC_LOCAL: may run beside an alone one */
	int started;
	int status;		/* -1 until it has ended */
};

void
tu_tcase_seen(const char *name, int flags)
{
	struct tcinfo *more;

	if (nseen == seen_cap) {
		seen_cap = seen_cap ? 2 * seen_cap : 16;
		if (!(more = realloc(seen, seen_cap * sizeof(*seen)))) {
			fprintf(stderr, "check_vmbench: out of memory\n");
			exit(2);
		}
		seen = more;
	}
	if (!(seen[nseen].name = strdup(name))) {
		fprintf(stderr, "check_vmbench: out of memory\n");
		exit(2);
	}
	seen[nseen++].flags = flags;
}

/*
 * Learn suite @i's test cases: make the suite (its tu_tcase() calls
 * report them) and free it.  Two test cases of one name are refused:
 * the runner could not run one without the other.
 */
static void
learn_suite(size_t i)
{
	struct suiteinfo *si = &sinfo[i];
	size_t a, b;

	nseen = 0;
	srunner_free(srunner_create(suites[i].fn()));
	for (a = 0; a < nseen; a++)
		for (b = a + 1; b < nseen; b++)
			if (strcmp(seen[a].name, seen[b].name) == 0) {
				fprintf(stderr, "check_vmbench: %s: two test "
				    "cases named %s\n", suites[i].name,
				    seen[a].name);
				exit(2);
			}
	si->ntc = nseen;
	si->tc = NULL;
	if (nseen && !(si->tc = malloc(nseen * sizeof(*si->tc)))) {
		fprintf(stderr, "check_vmbench: out of memory\n");
		exit(2);
	}
	if (nseen)
		memcpy(si->tc, seen, nseen * sizeof(*si->tc));
}

static volatile sig_atomic_t stop_sig;

static void
on_stop(int sig)
{
	stop_sig = sig;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Free what learn_suite() and main() allocated, and @jobs. */
static void
free_all(struct job *jobs)
{
	size_t i, t;

	for (i = 0; i < NSUITES; i++) {
		for (t = 0; t < sinfo[i].ntc; t++)
			free((char *)sinfo[i].tc[t].name);
		free(sinfo[i].tc);
	}
	free(seen);
	free(jobs);
}

/*
 * The file name part of job @j: "<suite>[.<test case>][.alone]".
 */
static void
job_name(const struct job *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", suites[j->suite].name,
	    j->tcase ? "." : "", j->tcase ? j->tcase : "",
	    j->alone ? ".alone" : "");
}

/*
 * In a child: run job @j with Check, its output into @root/out.<name>,
 * its counts ("checks failures errors") into @root/count.<name>.  A log
 * that Check writes (CK_XML_LOG_FILE_NAME, CK_LOG_FILE_NAME,
 * CK_TAP_LOG_FILE_NAME) gets the same name as a suffix.
 */
static void
run_job(const char *root, const struct job *j)
{
	static const char *const logs[] = { "CK_XML_LOG_FILE_NAME",
	    "CK_LOG_FILE_NAME", "CK_TAP_LOG_FILE_NAME" };
	char name[300], path[900], log[1200];
	SRunner *sr;
	TestResult **tr;
	int fd, n, k, f = 0, e = 0, verbose;
	FILE *out;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	job_name(j, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/out.%s", root, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		_exit(3);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	for (k = 0; k < 3; k++) {
		const char *v = getenv(logs[k]);

		if (v && *v && strcmp(v, "-") != 0) {
			snprintf(log, sizeof(log), "%s.%s", v, name);
			setenv(logs[k], log, 1);
		}
	}
	sr = srunner_create(suites[j->suite].fn());
	/* Check's lines only for a failure, unless CK_VERBOSITY asks */
	verbose = getenv("CK_VERBOSITY") != NULL;
	srunner_run_tagged(sr, NULL, j->tcase, j->alone ? "exclusive" :
	    slow_mode == SLOW_ONLY ? "slow" : NULL, j->alone ? (slow_mode ==
	    SLOW_NOT ? "slow" : NULL) : slow_mode == SLOW_NOT ?
	    "exclusive slow" : "exclusive", verbose ? CK_ENV : CK_SILENT);
	if (!verbose && srunner_ntests_failed(sr) > 0)
		srunner_print(sr, CK_NORMAL);
	fflush(stdout);
	n = srunner_ntests_run(sr);
	tr = srunner_failures(sr);
	for (k = 0; k < srunner_ntests_failed(sr); k++)
		if (tr_rtype(tr[k]) == CK_ERROR)
			e++;
		else
			f++;
	free(tr);
	srunner_free(sr);
	snprintf(path, sizeof(path), "%s/count.%s", root, name);
	if (!(out = fopen(path, "w")))
		_exit(3);
	fprintf(out, "%d %d %d\n", n, f, e);
	_exit(fclose(out) == 0 ? 0 : 3);
}

/* Start job @j in a child of its own. */
static void
start(struct job *j, const char *root)
{
	struct part *si = &sinfo[j->suite].part[j->alone];

	fflush(stdout);
	j->start = now();
	if (si->start == 0 || j->start < si->start)
		si->start = j->start;
	j->pid = fork();
	if (j->pid < 0) {
		fprintf(stderr, "check_vmbench: cannot fork: %s\n",
		    strerror(errno));
		return;
	}
	if (j->pid == 0)
		run_job(root, j);
}

/*
 * Job @j has ended (@status, @ru its CPU and its children's): print its
 * output and add its counts and times to its suite's; a job whose
 * process died or left no counts is one error.  When it is the last of
 * its suite's (in this part, alone or not), print the suite's line.
 */
static void
finish(struct job *j, const char *root, int status, const struct rusage *ru)
{
	const char *sname = suites[j->suite].name;
	struct part *si = &sinfo[j->suite].part[j->alone];
	char name[300], path[900], *text;
	FILE *f;

	job_name(j, name, sizeof(name));
	j->wall = now() - j->start;
	j->cpu = (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
	    (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
	j->status = status;
	snprintf(path, sizeof(path), "%s/out.%s", root, name);
	if ((text = read_all(path))) {
		fputs(text, stdout);
		if (*text && text[strlen(text) - 1] != '\n')
			putchar('\n');
		free(text);
	}
	snprintf(path, sizeof(path), "%s/count.%s", root, name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d %d %d", &j->checks, &j->failures,
	    &j->errors) != 3 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		const char *what = j->tcase ? j->tcase : "";

		if (WIFSIGNALED(status))
			printf("%s%s%s: the process was killed by signal "
			    "%d\n", sname, *what ? " " : "", what,
			    WTERMSIG(status));
		else
			printf("%s%s%s: the process ended with status %d, "
			    "its counts lost\n", sname, *what ? " " : "",
			    what, WIFEXITED(status) ? WEXITSTATUS(status) :
			    -1);
		j->errors++;
	}
	if (f)
		fclose(f);
	if (getenv("VB_CHECK_TIMES"))
		printf("%s: %.1f s, CPU %.1f s, from %.1f s\n", name,
		    j->wall, j->cpu, j->start - run_t0);
	si->checks += j->checks;
	si->failures += j->failures;
	si->errors += j->errors;
	si->cpu += j->cpu;
	if (j->start + j->wall > si->end)
		si->end = j->start + j->wall;
	if (--si->jobs > 0)
		return;
	/* a part without tests (no test case that runs alone): silent */
	if (si->checks == 0 && si->errors == 0)
		goto reset;
	printf("%s%s: %d checks, %d failures, %d errors; %.1f s, CPU %.1f "
	    "s\n", sname, j->alone ? " (alone)" : "", si->checks,
	    si->failures, si->errors, si->end - si->start, si->cpu);
	fflush(stdout);
reset:
	si->checks = si->failures = si->errors = 0;
	si->start = si->end = si->cpu = 0;
}

/*
 * The wall time of each test case in the last run, kept in
 * <the runner>.times ("seconds<TAB>name" lines) so that the next run
 * starts the longest first: a long test case started last would end
 * the run alone.  Only an order; a missing or odd file changes nothing
 * else.
 */
static void
times_read(const char *file, struct job *jobs, size_t n)
{
	char line[400], name[300], *tab;
	FILE *f = fopen(file, "r");
	size_t i;

	for (i = 0; i < n; i++)
		jobs[i].last = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!(tab = strchr(line, '\t')))
			continue;
		for (i = 0; i < n; i++) {
			job_name(&jobs[i], name, sizeof(name));
			if (strcmp(name, tab + 1) == 0)
				jobs[i].last = atof(line);
		}
	}
	fclose(f);
}

/*
 * Write @file anew: the wall time of every job of this run that ended,
 * and the old lines of the test cases this run did not run.
 */
static void
times_write(const char *file, const struct job *jobs, size_t n)
{
	char tmp[600], line[400], name[300], *tab;
	FILE *in = fopen(file, "r"), *out;
	size_t i;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.%ld", file,
	    (long)getpid()) >= sizeof(tmp) || !(out = fopen(tmp, "w"))) {
		if (in)
			fclose(in);
		return;
	}
	while (in && fgets(line, sizeof(line), in)) {
		int ran = 0;

		if (!(tab = strchr(line, '\t')) || !strchr(tab, '\n'))
			continue;
		*strchr(tab, '\n') = '\0';
		for (i = 0; i < n && !ran; i++) {
			job_name(&jobs[i], name, sizeof(name));
			ran = jobs[i].status >= 0 && strcmp(name, tab + 1) == 0;
		}
		if (!ran)
			fprintf(out, "%s\n", line);
	}
	if (in)
		fclose(in);
	for (i = 0; i < n; i++)
		if (jobs[i].status >= 0) {
			job_name(&jobs[i], name, sizeof(name));
			fprintf(out, "%.1f\t%s\n", jobs[i].wall, name);
		}
	if (fclose(out) != 0 || rename(tmp, file) != 0)
		unlink(tmp);
}

/*
 * qsort: a test case never timed first (it may be long), then the
 * longest last time first; the order made otherwise kept.
 */
static int
by_last(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	double lx = x->last < 0 ? 1e9 : x->last;
	double ly = y->last < 0 ? 1e9 : y->last;

	if (lx != ly)
		return lx < ly ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The next job of @jobs (@n) to start, or NULL: a job that runs alone
 * starts when nothing but local test cases (TU_TC_LOCAL) runs, and
 * while one runs or waits, only local ones start beside it, at most
 * @par - 2 (one at least) so that the alone job, which the rest waits
 * for, keeps a CPU's worth; the rest start in their order once every
 * alone job has ended.
 */
static struct job *
next_job(struct job *jobs, size_t n, int par)
{
	size_t i, alone_running = 0, other_running = 0, alone_left = 0;
	size_t local_running = 0;

	for (i = 0; i < n; i++) {
		int running = jobs[i].pid > 0 && jobs[i].status < 0;

		if (jobs[i].alone) {
			alone_running += running;
			alone_left += !jobs[i].started || running;
		} else if (running && !jobs[i].local)
			other_running++;
		else if (running)
			local_running++;
	}
	if (alone_left == 0) {
		for (i = 0; i < n; i++)
			if (!jobs[i].started)
				return &jobs[i];
		return NULL;
	}
	if (!alone_running && !other_running)
		for (i = 0; i < n; i++)
			if (jobs[i].alone && !jobs[i].started)
				return &jobs[i];
	/* a CPU's worth left to the alone job, which the rest waits for */
	if (local_running + 2 > (size_t)par && local_running > 0)
		return NULL;
	for (i = 0; i < n; i++)
		if (!jobs[i].alone && jobs[i].local && !jobs[i].started)
			return &jobs[i];
	return NULL;
}

/*
 * Run @jobs (@n of them), at most @par at once (next_job() says which
 * may start); 0, or the signal that stopped the run (the running jobs
 * are sent it and awaited).
 */
static int
run_jobs(struct job *jobs, size_t n, int par, const char *root)
{
	size_t running = 0, i;
	struct rusage ru;
	struct job *j;
	int status;
	pid_t pid;

	for (;;) {
		while (!stop_sig && running < (size_t)par &&
		    (j = next_job(jobs, n, par))) {
			j->started = 1;
			start(j, root);
			if (j->pid > 0)
				running++;
			else
				j->errors++;
		}
		if (running == 0)
			break;
		pid = wait4(-1, &status, 0, &ru);
		if (pid < 0) {
			if (errno != EINTR)
				break;
			if (stop_sig)
				for (i = 0; i < n; i++)
					if (jobs[i].pid > 0 &&
					    jobs[i].status < 0)
						kill(jobs[i].pid, stop_sig);
			continue;
		}
		for (i = 0; i < n; i++)
			if (jobs[i].pid == pid && jobs[i].status < 0) {
				finish(&jobs[i], root, status, &ru);
				running--;
			}
	}
	return stop_sig;
}

int
main(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR"), *env = getenv("VB_JOBS");
	struct job *jobs;
	size_t i, k, t, n = 0, nex = 0, cap = 0, nsuites = 0;
	char root[512], times[512];
	int j, first, par, checks = 0, failures = 0, errors = 0, skipped, sig;
	struct sigaction sa;
	double t0 = run_t0 = now();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	par = env && *env ? atoi(env) : 2 * (int)(ncpu > 0 ? ncpu : 1);
	env = getenv("VB_CHECK_SLOW");
	if (!env || !*env || strcmp(env, "0") == 0)
		slow_mode = SLOW_NOT;
	else if (strcmp(env, "1") == 0)
		slow_mode = SLOW_ONLY;
	else if (strcmp(env, "all") == 0)
		slow_mode = SLOW_ALL;
	else {
		fprintf(stderr, "check_vmbench: VB_CHECK_SLOW: '%s' is not 0 "
		    "(leave the slow test cases out), 1 (only them) or all\n",
		    env);
		return 2;
	}
	first = 1;
	if (argc > 1 && strcmp(argv[1], "-j") == 0) {
		par = argc > 2 ? atoi(argv[2]) : 0;
		first = 3;
	}
	if (par < 1) {
		fprintf(stderr, "check_vmbench: -j or VB_JOBS: not a number "
		    "of test cases at once (1 or more)\n");
		return 2;
	}
	for (j = first; j < argc; j++)
		if (!listed(argv[j], NULL, 0)) {
			fprintf(stderr, "check_vmbench: no such suite: %s\n",
			    argv[j]);
			return 2;
		}
	/* every suite's test cases, learnt from tu_tcase() */
	for (i = 0; i < NSUITES; i++) {
		learn_suite(i);
		cap += sinfo[i].ntc ? sinfo[i].ntc : 2;
	}
	if (!(jobs = calloc(cap, sizeof(*jobs)))) {
		fprintf(stderr, "check_vmbench: out of memory\n");
		return 2;
	}
	/*
	 * the test cases that run alone, then the rest: the slow suites'
	 * first; a suite made without tu_tcase() as one job in each part
	 */
	for (k = 0; k < 3; k++)
		for (i = 0; i < NSUITES; i++) {
			const struct suiteinfo *si = &sinfo[i];
			const char *s = suites[i].name;
			int sl = listed(s, slow_first, NSLOW);
			int want = first >= argc;

			for (j = first; j < argc; j++)
				want |= strcmp(argv[j], s) == 0;
			nsuites += want && k == 0;
			if (!want || (k == 1 && !sl) || (k == 2 && sl) ||
			    (k == 0 && slow_mode == SLOW_ONLY))
				continue;
			for (t = 0; t < (si->ntc ? si->ntc : 1); t++) {
				int fl = si->ntc ? si->tc[t].flags : 0;

				if (si->ntc && (!(fl & TU_TC_ALONE) != (k > 0) ||
				    (slow_mode == SLOW_NOT && fl & TU_TC_SLOW) ||
				    (slow_mode == SLOW_ONLY &&
				    !(fl & TU_TC_SLOW))))
					continue;
				jobs[n].alone = k == 0;
				jobs[n].local = !!(fl & TU_TC_LOCAL);
				jobs[n].order = n;
				jobs[n].status = -1;
				jobs[n].suite = i;
				jobs[n].tcase = si->ntc ? si->tc[t].name : NULL;
				sinfo[i].part[k == 0].jobs++;
				n++;
				nex += k == 0;
			}
		}
	if (!tmp || !*tmp)
		tmp = "/var/tmp";
	remove_stale_roots(tmp);
	snprintf(root, sizeof(root), "%s/vmbench-check.%ld.XXXXXX", tmp,
	    (long)getpid());
	if (!mkdtemp(root)) {
		fprintf(stderr, "check_vmbench: cannot make %s: %s\n", root,
		    strerror(errno));
		free_all(jobs);
		return 2;
	}
	setenv("VB_TEST_ROOT", root, 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: wait4() returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	snprintf(times, sizeof(times), "%s.times", argv[0]);
	times_read(times, jobs, n);
	qsort(jobs + nex, n - nex, sizeof(*jobs), by_last);
	sig = run_jobs(jobs, n, par, root);
	times_write(times, jobs, n);
	for (i = 0; i < n; i++) {
		checks += jobs[i].checks;
		failures += jobs[i].failures;
		errors += jobs[i].errors;
	}
	free_all(jobs);
	printf("%d%%: Checks: %d, Failures: %d, Errors: %d; %zu suites, %zu "
	    "jobs, %d at once, %.1f s\n", checks ? 100 * (checks -
	    failures - errors) / checks : 0, checks, failures, errors,
	    nsuites, n, par, now() - t0);
	skipped = print_skips(root);
	remove_root(root);
	if (sig) {
		printf("check_vmbench: stopped by signal %d\n", sig);
		return 128 + sig;
	}
	printf("%d passed, %d failed, %d skipped\n",
	    checks - failures - errors - skipped > 0 ? checks - failures -
	    errors - skipped : 0, failures + errors, skipped);
	if (slow_mode == SLOW_NOT)
		printf("not run: the test cases tagged slow (real Ansible "
		    "runs, QEMU boots, Chromium): make check-slow\n");
	else if (slow_mode == SLOW_ONLY)
		printf("run: only the test cases tagged slow (make check "
		    "runs the others)\n");
	return failures + errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
