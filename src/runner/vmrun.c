/*
 * vmrun - the runner behind `make run`: runs every line of a suite
 * config, each benchmark for its iterations, into a new run of a label,
 * results/<label>/runN/ (docs/results.md).
 *
 *	bench/vmrun --kernel LABEL [--config configs/quick.conf]
 *	    [--results results] [--iterations N] [--runs N] [--force]
 *	    [--workdir DIR]
 *
 * Everything that can be checked is checked before anything runs: the
 * config, every benchmark's name, options (each program is asked with
 * --check), directives, and the label: a run is added to its runs
 * (run1/, run2/, ...), never written over one, and a label whose runs
 * used another config or another machine is refused; --force replaces
 * them all.  --runs N runs the config N times, every line of one run
 * before the next run.  Each benchmark runs as a separate program whose
 * output goes to <bench>[@variant].log; the program writes its own .res
 * and .vmstat (src/lib/harness.c).  Progress goes to stderr.
 *
 * Ctrl-C, SIGTERM, SIGHUP: the signal is passed to the running
 * benchmark (which kills its children, removes its temporary files and
 * keeps its finished iterations, marked interrupted); meta is marked
 * interrupted (make ab: both sides' results of the line under way too)
 * and vmrun exits 130.  With --runs, the runs that ended stay as they
 * are and no later run begins.  SIGPIPE is ignored: a closed stderr
 * only stops the printing.  A meta that cannot be written fails the run
 * (exit 1); die() marks it failed; a first meta that cannot be written
 * removes the folders the run made.  Every run's state file
 * (src/runner/state.h) names its result folders, for the run after a
 * SIGKILL.
 *
 * Also checked before anything runs: that no two lines write the same
 * file (probe@<label> of a with=probe line included), and that no other
 * run holds the label (a flock on RESULTS/.LABEL.lock, held to the end).
 * A benchmark's error lines come through its progress pipe too
 * ("error LINE", src/lib/msg.h): the first since its last finished
 * iteration is the cause given when it fails.
 *
 * --mem SIZE runs every benchmark (and its probe) inside a memory cgroup
 * (src/runner/memlimit.h) and --swap SIZE adds a swap file in the work folder
 * (src/runner/swapfile.h) for the run; both are set up after the config is
 * checked and before the result folder is made, so a refusal (not root,
 * no memory controller, a filesystem that cannot hold swap) leaves
 * nothing behind, and both are removed at the end, on die() and after a
 * signal.  The programs see the limit as VMBENCH_MEM_LIMIT and
 * VMBENCH_SWAP_LIMIT (bytes).  A line with with=probe (or
 * with=probe:video) runs bench/probe beside the benchmark for its whole
 * run, stopped with SIGUSR1 when it ends, into probe@<label>.res.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "benchlist.h"
#include "config.h"
#include "msg.h"
#include "memlimit.h"
#include "meta.h"
#include "opt.h"
#include "res.h"
#include "safedir.h"
#include "stats.h"
#include "util.h"
#include "swapfile.h"
#include "knob.h"
#include "label.h"
#include "state.h"
#include "ab.h"
#include "parentwatch.h"
#include "proc.h"
#include "runs.h"
#include <linux/magic.h>

struct opts {
	const char *kernel;
	const char *config;
	const char *results;
	uint64_t iterations;
	int force;
	const char *workdir;
	const char *mem;
	const char *swap;
	const char *set_a;
	const char *set_b;
	const char *label_a;
	const char *label_b;
	const char *order;
	const char *warmup;
	const char *runs;
	int clean_stale;
	int help;
};

static const struct vb_opt opt_tab[] = {
	{ .name = "kernel", .type = VB_OPT_STR, .arg = "LABEL",
	  .off = offsetof(struct opts, kernel),
	  .help = "result label (default: uname -r)" },
	{ .name = "config", .type = VB_OPT_STR, .arg = "FILE",
	  .off = offsetof(struct opts, config), .def = "configs/quick.conf",
	  .help = "suite to run" },
	{ .name = "results", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct opts, results), .def = "results",
	  .help = "folder holding one folder per label" },
	{ .name = "iterations", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct opts, iterations), .def = "0",
	  .min = 0, .max = 100000,
	  .help = "override every line's iteration count (0: the config's)" },
	{ .name = "force", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, force),
	  .help = "replace the label's runs (or result folder)" },
	{ .name = "workdir", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct opts, workdir),
	  .help = "folder for temporary files (default $VMBENCH_WORKDIR or "
	    "./work)" },
	{ .name = "mem", .type = VB_OPT_STR, .arg = "SIZE",
	  .off = offsetof(struct opts, mem),
	  .help = "run inside a memory limit of SIZE" },
	{ .name = "swap", .type = VB_OPT_STR, .arg = "SIZE",
	  .off = offsetof(struct opts, swap),
	  .help = "add a swap file of SIZE for the run" },
	{ .name = "a", .type = VB_OPT_STR, .arg = "SETTINGS",
	  .off = offsetof(struct opts, set_a),
	  .help = "A/B run: side A's settings, name=value,... (make ab A=)" },
	{ .name = "b", .type = VB_OPT_STR, .arg = "SETTINGS",
	  .off = offsetof(struct opts, set_b),
	  .help = "A/B run: side B's settings (make ab B=)" },
	{ .name = "label-a", .type = VB_OPT_STR, .arg = "LABEL",
	  .off = offsetof(struct opts, label_a),
	  .help = "A/B run: side A's folder (default LABEL-A)" },
	{ .name = "label-b", .type = VB_OPT_STR, .arg = "LABEL",
	  .off = offsetof(struct opts, label_b),
	  .help = "A/B run: side B's folder (default LABEL-B)" },
	{ .name = "order", .type = VB_OPT_STR, .arg = "ABBA",
	  .off = offsetof(struct opts, order), .def = "ABBA",
	  .help = "A/B run: the pattern the iterations follow" },
	{ .name = "warmup", .type = VB_OPT_STR, .arg = "0|1",
	  .off = offsetof(struct opts, warmup),
	  .help = "A/B run: 1 (default) runs each line once, discarded, "
	    "before its measured runs; 0 does not" },
	{ .name = "runs", .type = VB_OPT_STR, .arg = "N",
	  .off = offsetof(struct opts, runs),
	  .help = "run the config N times, each a new run of the label "
	    "(default 1)" },
	{ .name = "clean-stale", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, clean_stale),
	  .help = "undo what killed runs left behind, and exit" },
	{ .name = "help", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, help), .help = "this text" },
	{ 0 },
};

/*
 * Directives a config line may carry besides iterations= (src/runner/config.h).
 * Each is handled below where the benchmark is started.
 */
static const char *const known_dirs[] = {
	"with",
	NULL,
};

static volatile sig_atomic_t stop_signal;
static volatile pid_t running_pid;
static volatile pid_t probe_pid;		/* the with=probe companion */

static struct {
	char dir[PATH_MAX];		/* results/<label> */
	char bindir[PATH_MAX - 64];	/* where the programs are */
	char workdir[PATH_MAX];
	char start[32];
	struct vb_meta_in meta;
	struct vb_kv extra[32];
	int nextra;
	struct vb_memlimit lim;		/* --mem */
	struct vb_swapfile swp;		/* --swap */
	char lim_desc[4200], swp_desc[4200], mem_h[32], peak[64], hits[32];
	struct vb_state state;		/* what to undo after a SIGKILL */
	struct vb_knobs knobs;		/* make ab's settings */
	int append;			/* A/B: add to the side's results */
	char ours[64];			/* VMBENCH_OURS: vmrun and the probe */
	char probe_res[PATH_MAX + 300];	/* the probe's .res, while it runs */
	char slot[1200];		/* A/B: "A 1/6 (thp=never)" */
	int ab_line;			/* A/B: the line under way, or -1 */
	int warmup;			/* A/B: a discarded run of each line */
	const struct vb_conf *conf;	/* A/B: its config */
	struct vb_label_lock lk[2];	/* results/.<label>.lock, held */
	char statedir[4096];		/* the state files (state.h) */
	struct vb_machine mach;		/* the machine lock, when held */
	struct vb_machine seen;		/* the machine record at the start */
	char beside[2048];		/* runs seen beside this one */
	struct side *sd;		/* the result folders (one, or A and B) */
	int nside;
	char **cause;			/* per line: why it failed, or NULL,
					   in the side under way's causes */
	char **causes[2];		/* each side's */
	char *now;			/* the cause of the program running */
} S = { .lk = { { .fd = -1 }, { .fd = -1 } }, .mach = { .fd = -1 },
	.ab_line = -1 };

/* the runs of a label: results/<label>/runN/ (docs/results.md) */
static struct {
	char dir[PATH_MAX];		/* results/<label> */
	int resfd;			/* results/, checked (safedir.h) */
	int flat;			/* one run at its top (meta): to run1/ */
	int last;			/* the highest N of its runN/ */
	int first;			/* this call's first run */
	int empty;			/* the highest empty runN/ above last */
	int made;			/* this call made the label's folder */
	int n;				/* --runs */
	int failed;			/* runs before the last that failed */
	char boot_id[64], uptime[32];
} RN = { .n = 1, .resfd = -1 };

static void
on_signal(int sig)
{
	pid_t p = running_pid;

	stop_signal = sig;
	if (p > 0)
		kill(p, sig == SIGHUP ? SIGTERM : sig);
	/* the probe keeps what it measured, marked interrupted */
	if (probe_pid > 0)
		kill(probe_pid, SIGINT);
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: vmrun --kernel LABEL [options]\n"
	    "Run a vmbench suite into RESULTS/LABEL/runN/, a new run of "
	    "the label.\n\nOptions:\n");
	vb_opt_usage(f, opt_tab);
}

/*
 * A path from the command line (CONFIG=, RESULTS=, WORKDIR=) goes into
 * meta (one value a line) and into messages: no control characters, and
 * short enough for the folders and files made under it.
 */
static void
check_path(const char *what, const char *path)
{
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			die("%s '%s': a control character in a path", what,
			    path);
	if (strlen(path) >= PATH_MAX - 256)
		die("%s '%.60s...': path too long (%zu bytes)", what, path,
		    strlen(path));
}

static int
known_dir(const char *key)
{
	int i;

	for (i = 0; known_dirs[i]; i++)
		if (strcmp(known_dirs[i], key) == 0)
			return 1;
	return 0;
}

/* Path of program @name next to vmrun. */
static char *
prog_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", S.bindir, name);
	return buf;
}

/*
 * Run "@prog --check @args" quietly; on failure return -1 with the
 * program's first error line in @msg.
 */
static int
check_line(const char *prog, const struct vb_conf_line *l, char *msg,
    size_t len)
{
	char **argv = calloc((size_t)l->argc + 3, sizeof(char *)), *out;
	int i, rc;

	if (!argv)
		die_errno("cannot check %s", l->bench);
	argv[0] = (char *)prog;
	for (i = 0; i < l->argc; i++)
		argv[i + 1] = l->argv[i];
	argv[l->argc + 1] = "--check";
	rc = vb_run_both(argv, NULL, &out);
	if (rc == 127 && !*out)
		snprintf(msg, len, "cannot run %.900s", prog);
	else
		snprintf(msg, len, "%.*s", (int)strcspn(out, "\n"), out);
	free(out);
	free(argv);
	return rc == 0 ? 0 : -1;
}

/*
 * The profile of a with= directive: NULL when the line has none, "" for
 * with=probe, "audio" or "video" for with=probe:PROFILE; dies on
 * anything else.
 */
static const char *
probe_profile(const struct vb_conf *c, const struct vb_conf_line *l)
{
	const char *w = vb_conf_dir(l, "with");
	char prog[PATH_MAX];

	if (!w)
		return NULL;
	if (strcmp(w, "probe") && strcmp(w, "probe:audio") &&
	    strcmp(w, "probe:video"))
		die("%s:%d: with=%s: unknown companion (known: probe, "
		    "probe:audio, probe:video)", c->path, l->lineno, w);
	if (access(prog_path("probe", prog, sizeof(prog)), X_OK) < 0)
		die("%s:%d: with=probe: no program %s", c->path, l->lineno,
		    prog);
	return w[5] ? w + 6 : "";
}

/*
 * After fork(), in a benchmark's or the probe's child: die with the
 * runner @runner, by signal @sig (a SIGKILLed runner's benchmark then
 * stops like after Ctrl-C, keeping its iterations and removing its work
 * folder; the probe gets SIGHUP, which it records as interrupted, not
 * the SIGTERM that completes it), and enter the memory limit, if any.
 */
static void
enter_limit(pid_t runner, int sig)
{
	prctl(PR_SET_PDEATHSIG, sig);
	/* the runner died before the prctl(): no signal comes */
	if (getppid() != runner)
		_exit(127);
	if (S.lim.version && vb_memlimit_enter(&S.lim, 0) < 0) {
		fprintf(stderr, "vmrun: cannot enter memory cgroup %s: %s\n",
		    S.lim.path, strerror(errno));
		_exit(127);
	}
}

/*
 * Mark the result @path @status if it says running (or, with @complete,
 * complete: an A/B side one of whose runs failed).
 */
static void
mark_status(const char *path, const char *status, int complete)
{
	char err[1024];
	struct vb_res r;

	if (vb_res_read(path, &r, err, sizeof(err)) < 0)
		return;
	if (strcmp(r.status, "running") == 0 || (complete &&
	    strcmp(r.status, "complete") == 0)) {
		snprintf(r.status, sizeof(r.status), "%s", status);
		if (vb_res_write(path, &r) < 0)
			vb_warn_errno("cannot write %s", path);
	}
	vb_res_free(&r);
}

/*
 * Start the probe beside benchmark @label: probe@<label>.res and .log,
 * until SIGUSR1 (stop_probe()).  Waits (at most 10 s) until the probe
 * says on VMBENCH_READY_FD that it is calibrated and in its loop, so that
 * it covers the benchmark's whole run.
 */
static pid_t
start_probe(const char *label, const char *profile)
{
	char prog[PATH_MAX], out[PATH_MAX + 256], logp[PATH_MAX + 256];
	char *argv[16], c;
	int n = 0, logfd, ready[2];
	struct pollfd pfd;
	pid_t pid, runner = getpid();

	prog_path("probe", prog, sizeof(prog));
	/* A/B: each run of the probe is added to its side's result after */
	snprintf(out, sizeof(out), "%s/%sprobe@%s", S.dir, S.append ?
	    ".slot-" : "", label);
	snprintf(logp, sizeof(logp), "%s/probe@%s.log", S.dir, label);
	snprintf(S.probe_res, sizeof(S.probe_res), "%s.res", out);
	argv[n++] = prog;
	if (*profile) {
		argv[n++] = "--profile";
		argv[n++] = (char *)profile;
	}
	argv[n++] = "--out";
	argv[n++] = out;
	argv[n++] = "--variant";
	argv[n++] = (char *)label;
	argv[n++] = "--workdir";
	argv[n++] = S.workdir;
	argv[n] = NULL;
	/* never through a symlink, never another user's file */
	logfd = S.append ? vb_open_own(logp, O_WRONLY | O_APPEND, 0644) :
	    vb_create(logp, O_WRONLY, 0644);
	if (logfd < 0)
		die_errno("cannot create %s", logp);
	if (pipe2(ready, O_CLOEXEC) < 0)
		die_errno("cannot create a pipe");
	pid = fork();
	if (pid < 0)
		die_errno("cannot fork");
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(logfd, 1);
		dup2(logfd, 2);
		dup2(ready[1], 3);
		/* not the benchmark's progress pipe, or it never ends */
		for (n = 4; n < 1024; n++)
			close(n);
		setenv("VMBENCH_READY_FD", "3", 1);
		enter_limit(runner, SIGHUP);
		execv(prog, argv);
		fprintf(stderr, "vmrun: cannot run %s: %s\n", prog,
		    strerror(errno));
		_exit(127);
	}
	close(logfd);
	close(ready[1]);
	probe_pid = pid;
	snprintf(S.ours, sizeof(S.ours), "%ld,%ld", (long)getpid(), (long)pid);
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	while (poll(&pfd, 1, 10000) < 0 && errno == EINTR && !stop_signal)
		;
	if (!(pfd.revents & POLLIN) || read(ready[0], &c, 1) != 1)
		vb_warn("the probe beside %s did not start in time; see %s",
		    label, logp);
	close(ready[0]);
	return pid;
}

/* Stop the probe (SIGUSR1: its result is complete) and reap it. */
static int
stop_probe(const char *label)
{
	pid_t pid = probe_pid;
	int status;

	if (pid <= 0)
		return 0;
	kill(pid, stop_signal ? SIGINT : SIGUSR1);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	probe_pid = 0;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
	    (stop_signal && WEXITSTATUS(status) == 130)))
		return 0;
	/* killed (kill -9, the OOM killer): it could not mark its result */
	if (WIFSIGNALED(status)) {
		mark_status(S.probe_res, "interrupted", 0);
		vb_warn("the probe beside %s was killed (signal %d): %s is "
		    "marked interrupted; see %s/probe@%s.log", label,
		    WTERMSIG(status), S.probe_res, S.dir, label);
		return 1;
	}
	vb_warn("the probe beside %s failed; see %s/probe@%s.log", label, S.dir,
	    label);
	return 1;
}

/*
 * Every output a line makes is named after a stem, <label>.res, .vmstat
 * and .log, and probe@<label>.res and .log for with=probe: no two may
 * share a stem, or the later would overwrite the earlier's files.
 */
static void
unique_outputs(const struct vb_conf *c)
{
	char (*stem)[2 * VB_NAMELEN + 8];
	char msg[PATH_MAX + 4 * VB_NAMELEN + 200];
	int *line, *probe, n = 0, i, j;

	msg[0] = '\0';

	stem = calloc((size_t)c->nlines * 2, sizeof(*stem));
	line = calloc((size_t)c->nlines * 2, sizeof(*line));
	probe = calloc((size_t)c->nlines * 2, sizeof(*probe));
	if (!stem || !line || !probe)
		die("out of memory");
	for (i = 0; i < c->nlines; i++) {
		const struct vb_conf_line *l = &c->lines[i];
		char label[2 * VB_NAMELEN];

		vb_conf_label(l, label, sizeof(label));
		snprintf(stem[n], sizeof(stem[n]), "%s", label);
		line[n] = l->lineno;
		probe[n++] = 0;
		if (vb_conf_dir(l, "with")) {
			snprintf(stem[n], sizeof(stem[n]), "probe@%s", label);
			line[n] = l->lineno;
			probe[n++] = 1;
		}
	}
	for (i = 0; i < n && !msg[0]; i++)
		for (j = 0; j < i && !msg[0]; j++)
			if (strcmp(stem[i], stem[j]) == 0)
				snprintf(msg, sizeof(msg), "%s:%d: %s.res "
				    "would be written twice: by line %d%s and "
				    "by line %d%s", c->path, line[i], stem[i],
				    line[j], probe[j] ? " (its with=probe)" :
				    "", line[i], probe[i] ?
				    " (its with=probe)" : "");
	free(stem);
	free(line);
	free(probe);
	/* freed first: die() exits, and the sanitizers count what is left */
	if (msg[0])
		die("%s", msg);
}

/* Everything about the config that can fail, before anything runs. */
static void
validate(const struct vb_conf *c)
{
	char prog[PATH_MAX], msg[1024];
	int i, j;

	if (vb_conf_check_benches(c, msg, sizeof(msg)) < 0)
		die("%s", msg);
	for (i = 0; i < c->nlines; i++) {
		const struct vb_conf_line *l = &c->lines[i];

		if (access(prog_path(l->bench, prog, sizeof(prog)), X_OK) < 0)
			die("%s:%d: no program %s for benchmark '%s' (run "
			    "make)", c->path, l->lineno, prog, l->bench);
		for (j = 0; j < l->ndirs; j++)
			if (!known_dir(l->dirs[j].key))
				die("%s:%d: unknown directive '%s=' (known: "
				    "iterations=, with=)", c->path, l->lineno,
				    l->dirs[j].key);
		probe_profile(c, l);
		if (check_line(prog, l, msg, sizeof(msg)) < 0)
			die("%s:%d: %s", c->path, l->lineno, msg);
	}
	unique_outputs(c);
}

static void
fmt_dur(char *buf, size_t len, double s)
{
	if (s < 0 || !isfinite(s))
		snprintf(buf, len, "?");
	else if (s >= 3600)
		snprintf(buf, len, "%d:%02d:%02d", (int)s / 3600,
		    (int)s / 60 % 60, (int)s % 60);
	else
		snprintf(buf, len, "%d:%02d", (int)s / 60, (int)s % 60);
}

/*
 * Follow the program's progress pipe ("iter I N SECONDS" lines, see
 * src/lib/harness.h) and print a line per iteration on stderr.  "error LINE"
 * lines (src/lib/msg.h) are the program's error messages: the first since
 * the last finished iteration goes into S.now, the cause named when the
 * program fails.
 */
static void
follow(int fd, int idx, int total, const char *label, uint64_t suite_t0)
{
	char buf[4096];
	size_t len = 0;
	double done = 0;
	ssize_t n;

	for (;;) {
		char *nl, *p;

		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = '\0';
		p = buf;
		while ((nl = strchr(p, '\n'))) {
			int it, nit;
			double secs;
			char el[32], eta[32];

			*nl = '\0';
			if (strncmp(p, "error ", 6) == 0) {
				if (!S.now)
					S.now = strdup(p + 6);
				p = nl + 1;
				continue;
			}
			/* a line when each iteration ends */
			if (sscanf(p, "iter %d %d %lf", &it, &nit, &secs) ==
			    3 && secs > 0) {
				free(S.now);
				S.now = NULL;
				if (secs > 0)
					done += secs;
				fmt_dur(el, sizeof(el),
				    vb_elapsed_s(suite_t0));
				if (S.append) {
					fprintf(stderr, "[%d/%d] %-22s %s done "
					    "in %.1fs  elapsed %s\n", idx,
					    total, label, S.slot, secs, el);
					p = nl + 1;
					continue;
				}
				if (secs > 0)
					fmt_dur(eta, sizeof(eta), done / it *
					    (nit - it));
				else if (it > 1)
					fmt_dur(eta, sizeof(eta), done /
					    (it - 1) * (nit - it + 1));
				else
					snprintf(eta, sizeof(eta), "?");
				fprintf(stderr, "[%d/%d] %-22s iteration %d/%d "
				    "done in %.1fs  elapsed %s  ETA %s\n", idx,
				    total, label, it, nit, secs, el, eta);
			}
			p = nl + 1;
		}
		len -= (size_t)(p - buf);
		memmove(buf, p, len);
		if (len == sizeof(buf) - 1)
			len = 0;	/* a line too long to be ours */
	}
}

/* Last non-empty line of @path, for failure messages. */
static char *
last_line(const char *path, char *buf, size_t len)
{
	if (!vb_last_line(path, buf, len))
		snprintf(buf, len, "(no output)");
	return buf;
}

/*
 * A/B: add the result of one run of a program that cannot append
 * itself (the probe: .slot-NAME.res) to its side's NAME.res.  0, or 1
 * (said) when it cannot.
 */
static int
merge_slot(const char *name)
{
	char src[PATH_MAX + 300], dst[PATH_MAX + 300], err[1024];
	struct vb_res a, b;
	int rc = 0;

	snprintf(src, sizeof(src), "%s/.slot-%s.res", S.dir, name);
	snprintf(dst, sizeof(dst), "%s/%s.res", S.dir, name);
	if (vb_res_read(src, &b, err, sizeof(err)) < 0) {
		vb_warn("%s left no result: %s", name, err);
		unlink(src);
		return 1;
	}
	if (access(dst, F_OK) < 0) {
		rc = vb_res_write(dst, &b) < 0;
		if (rc)
			vb_warn_errno("cannot write %s", dst);
		vb_res_free(&b);
		unlink(src);
		return rc;
	}
	if (vb_res_read(dst, &a, err, sizeof(err)) < 0) {
		vb_warn("%s", err);
		vb_res_free(&b);
		unlink(src);
		return 1;
	}
	if (vb_res_append(&a, &b) < 0) {
		vb_warn("%s: the probe's parameters or figures changed between "
		    "runs", dst);
		rc = 1;
	} else {
		/* the side is as complete as its least complete run */
		if (strcmp(b.status, "complete") != 0)
			snprintf(a.status, sizeof(a.status), "%s", b.status);
		snprintf(a.ended, sizeof(a.ended), "%s", b.ended);
		if (vb_res_write(dst, &a) < 0) {
			vb_warn_errno("cannot write %s", dst);
			rc = 1;
		}
	}
	vb_res_free(&a);
	vb_res_free(&b);
	unlink(src);
	return rc;
}


/*
 * A benchmark killed by a signal (the OOM killer, kill -9) could not
 * mark its result or remove its work folder: its .res (@out.res) still
 * says running, and <workdir>/vmbench-<bench>.<pid> is left.  Mark the
 * one failed and remove the other.
 */
static void
after_killed(const char *bench, pid_t pid, const char *out)
{
	char path[PATH_MAX + 300];

	snprintf(path, sizeof(path), "%s/vmbench-%s.%ld", S.workdir, bench,
	    (long)pid);
	if (access(path, F_OK) == 0 && vb_rmtree(path) < 0)
		vb_warn_errno("cannot remove %s", path);
	snprintf(path, sizeof(path), "%s.res", out);
	mark_status(path, "failed", 0);
}

/* Run one config line; returns the program's exit status. */
static int
run_line(const struct vb_conf *c, int idx, int iterations, uint64_t t0)
{
	const struct vb_conf_line *l = &c->lines[idx];
	char label[2 * VB_NAMELEN], prog[PATH_MAX], out[PATH_MAX + 256];
	char logp[PATH_MAX + 256], nit[16], fdbuf[16];
	char **argv;
	const char *profile = probe_profile(c, l);
	int pfd[2], logfd, status, n = 0, i, probe_failed = 0, self_slot;
	pid_t pid, runner = getpid();

	vb_conf_label(l, label, sizeof(label));
	prog_path(l->bench, prog, sizeof(prog));
	free(S.now);
	S.now = NULL;
	/* the probe cannot append: A/B runs it into a slot, merged after */
	self_slot = S.append && strcmp(l->bench, "probe") == 0;
	snprintf(out, sizeof(out), "%s/%s%s", S.dir, self_slot ? ".slot-" :
	    "", label);
	snprintf(logp, sizeof(logp), "%s/%s.log", S.dir, label);
	snprintf(nit, sizeof(nit), "%d", iterations);
	argv = calloc((size_t)l->argc + 12, sizeof(char *));
	if (!argv)
		die("out of memory");
	argv[n++] = prog;
	for (i = 0; i < l->argc; i++)
		argv[n++] = l->argv[i];
	argv[n++] = "--out";
	argv[n++] = out;
	argv[n++] = "--iterations";
	argv[n++] = nit;
	argv[n++] = "--workdir";
	argv[n++] = S.workdir;
	if (S.append && !self_slot)
		argv[n++] = "--append";
	if (l->variant) {
		argv[n++] = "--variant";
		argv[n++] = l->variant;
	}
	argv[n] = NULL;

	/* never through a symlink, never another user's file */
	logfd = S.append ? vb_open_own(logp, O_WRONLY | O_APPEND, 0644) :
	    vb_create(logp, O_WRONLY, 0644);
	if (logfd < 0)
		die_errno("cannot create %s", logp);
	if (pipe(pfd) < 0)
		die_errno("cannot create a pipe");
	if (!S.append)
		fprintf(stderr, "[%d/%d] %s: %d iteration%s%s\n", idx + 1,
		    c->nlines, label, iterations, iterations == 1 ? "" : "s",
		    profile ? ", with the probe" : "");
	snprintf(S.ours, sizeof(S.ours), "%ld", (long)getpid());
	if (profile)
		start_probe(label, profile);
	pid = fork();
	if (pid < 0)
		die_errno("cannot fork");
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(logfd, 1);
		dup2(logfd, 2);
		close(pfd[0]);
		snprintf(fdbuf, sizeof(fdbuf), "%d", pfd[1]);
		setenv("VMBENCH_PROGRESS_FD", fdbuf, 1);
		setenv("VMBENCH_WORKDIR", S.workdir, 1);
		setenv("VMBENCH_OURS", S.ours, 1);
		enter_limit(runner, SIGTERM);
		execv(prog, argv);
		fprintf(stderr, "vmrun: cannot run %s: %s\n", prog,
		    strerror(errno));
		_exit(127);
	}
	running_pid = pid;
	if (stop_signal)
		kill(pid, SIGTERM);
	close(pfd[1]);
	close(logfd);
	follow(pfd[0], idx + 1, c->nlines, label, t0);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	running_pid = 0;
	free(argv);
	probe_failed = stop_probe(label);
	if (profile && S.append) {
		char name[3 * VB_NAMELEN];

		snprintf(name, sizeof(name), "probe@%s", label);
		probe_failed |= merge_slot(name);
	}
	if (self_slot && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		probe_failed |= merge_slot(label);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return probe_failed;
	/* what a killed program could not do itself */
	if (WIFSIGNALED(status))
		after_killed(l->bench, pid, out);
	if (stop_signal || (WIFEXITED(status) && WEXITSTATUS(status) == 130))
		return 130;
	{
		char ll[1024], how[64];

		/*
		 * the program's own first error line, else its log's last:
		 * this run's, in this side's causes (A/B: not the other
		 * side's, whose log this is not)
		 */
		free(S.cause[idx]);
		S.cause[idx] = S.now ? S.now : strdup(last_line(logp, ll,
		    sizeof(ll)));
		S.now = NULL;
		if (WIFEXITED(status))
			snprintf(how, sizeof(how), "exit status %d",
			    WEXITSTATUS(status));
		else
			snprintf(how, sizeof(how), "signal %d",
			    WTERMSIG(status));
		vb_warn("%s failed (%s): %s; see %s", label, how,
		    S.cause[idx] ? S.cause[idx] : "(no output)", logp);
	}
	return 1;
}

/*
 * Remove the memory limit and the swap file (in that order: the cgroup's
 * processes are killed first, so nothing is using the swap any more);
 * idempotent.  -1 when either is left behind (said on stderr).
 */
static int
teardown(void)
{
	char err[1024];
	int rc = 0;

	if (probe_pid > 0) {
		kill(probe_pid, SIGINT);
		waitpid(probe_pid, NULL, 0);
		probe_pid = 0;
	}

	if (vb_memlimit_remove(&S.lim, err, sizeof(err)) < 0) {
		vb_warn("%s", err);
		rc = -1;
	}
	if (vb_swapfile_remove(&S.swp, err, sizeof(err)) < 0) {
		vb_warn("%s", err);
		rc = -1;
	}
	if (vb_knobs_restore(&S.knobs)) {
		vb_warn("could not restore every setting; see %s",
		    S.state.path);
		rc = -1;
	}
	/* the state file stays when something could not be undone */
	if (rc == 0)
		vb_state_end(&S.state);
	return rc;
}

/* One side of an A/B run (or the only one of a plain run). */
struct side {
	char dir[PATH_MAX];
	const char *label;
	char *settings;			/* meta lines, once in force */
	char desc[1024];		/* "thp=never" */
	struct vb_kv extra[44];		/* [38..43]: the side's ab_* */
	int nextra;
	int failed;
	int made;			/* this run made the folder */
	int written;			/* meta exists: die() marks it */
	/* under MEM=: the cgroup's peak (kB) and limit hits on this side */
	double peak_kb;
	uint64_t hits;
	char peak_s[32], hits_s[32];
};

/*
 * Write side @sd's meta with @status: the run's pairs, then the side's
 * (ab_*), and its settings as they were while it ran.  -1 (said on
 * stderr unless @quiet) when it cannot be written, errno set.
 */
static int
side_meta(struct side *sd, const char *status, int ended, int quiet)
{
	char end[32], path[PATH_MAX + 8];
	struct vb_meta_in m = S.meta;
	int i, e;

	m.label = sd->label;
	m.status = status;
	m.end = ended ? vb_iso_time(end, sizeof(end)) : NULL;
	sd->nextra = 0;
	snprintf(sd->peak_s, sizeof(sd->peak_s), "%.0f", sd->peak_kb);
	snprintf(sd->hits_s, sizeof(sd->hits_s), "%llu",
	    (unsigned long long)sd->hits);
	for (i = 0; i < S.nextra; i++) {
		sd->extra[sd->nextra] = S.extra[i];
		/* the limit's figures are the side's own */
		if (strcmp(S.extra[i].key, "mem_limit_peak_kb") == 0)
			sd->extra[sd->nextra].val = sd->peak_s;
		if (strcmp(S.extra[i].key, "mem_limit_hits") == 0)
			sd->extra[sd->nextra].val = sd->hits_s;
		sd->nextra++;
	}
	for (i = 0; i < 6 && sd->extra[38 + i].key; i++)
		sd->extra[sd->nextra++] = sd->extra[38 + i];
	m.extra = sd->extra;
	m.nextra = sd->nextra;
	m.settings = sd->settings;
	snprintf(path, sizeof(path), "%s/meta", sd->dir);
	if (vb_meta_write(path, &m) < 0) {
		e = errno;
		if (!quiet)
			vb_warn_errno("cannot write %s", path);
		errno = e;
		return -1;
	}
	sd->written = 1;
	return 0;
}

/*
 * The result folders could not all be started (a full disk): remove
 * those this run made, which hold nothing measured (a meta at most), so
 * that the same command can simply be run again.  Keeps errno.
 */
static void
unmake_sides(void)
{
	int k, e = errno;

	for (k = 0; k < S.nside; k++)
		if (S.sd[k].made) {
			if (vb_rmtree(S.sd[k].dir) < 0)
				vb_warn_errno("cannot remove %s", S.sd[k].dir);
			S.sd[k].made = S.sd[k].written = 0;
		}
	/* a label folder this call made holds nothing now */
	if (RN.made && rmdir(RN.dir) == 0)
		RN.made = 0;
	errno = e;
}

/*
 * A/B: the results of line @i of @c in side @k's folder, the
 * benchmark's and its probe's: those that say complete (or running,
 * with @running) are made to say @status.
 */
static void
line_status(const struct vb_conf *c, int i, int k, const char *status,
    int running)
{
	char label[2 * VB_NAMELEN], path[PATH_MAX + 300], err[1024];
	struct vb_res r;
	int p;

	vb_conf_label(&c->lines[i], label, sizeof(label));
	for (p = 0; p < 1 + (vb_conf_dir(&c->lines[i], "with") != NULL);
	    p++) {
		snprintf(path, sizeof(path), "%s/%s%s.res", S.sd[k].dir, p ?
		    "probe@" : "", label);
		if (vb_res_read(path, &r, err, sizeof(err)) < 0)
			continue;
		if (strcmp(r.status, "complete") == 0 || (running &&
		    strcmp(r.status, "running") == 0)) {
			snprintf(r.status, sizeof(r.status), "%s", status);
			if (vb_res_write(path, &r) < 0)
				vb_warn_errno("cannot write %s", path);
		}
		vb_res_free(&r);
	}
}

/*
 * A/B: line @i will not run all its iterations (a signal, or die()):
 * both sides' results say @status, also the side that was waiting for
 * its next run, whose result would otherwise read complete with only
 * part of its iterations.
 */
static void
cut_short(const struct vb_conf *c, int i, const char *status)
{
	int k;

	for (k = 0; k < S.nside; k++)
		line_status(c, i, k, status, 1);
}

/* Give up the labels (label.h). */
static void
unlock_label(void)
{
	vb_label_unlock(&S.lk[0]);
	vb_label_unlock(&S.lk[1]);
}

/*
 * die() once anything exists: remove the limit and the swap file, mark
 * meta failed (it would stay "running") and give up the label.
 */
static void
die_teardown(void)
{
	int k;

	teardown();
	/* an A/B line cut short: both sides' results say failed */
	if (S.ab_line >= 0)
		cut_short(S.conf, S.ab_line, "failed");
	vb_machine_unlock(&S.mach);
	for (k = 0; k < S.nside; k++)
		if (S.sd[k].written)
			side_meta(&S.sd[k], "failed", 1, 0);
	unlock_label();
}

/*
 * One run of a label at a time (label.h): RESULTS/.LABEL.lock, beside
 * the result folder (which --force removes and makes again), held until
 * vmrun exits; a second run is refused before it touches anything.  The
 * file is removed at the end, and by the next run or make clean-stale
 * when its run was killed (state.c).
 */
static void
lock_label(int k, const char *results, const char *label)
{
	char err[PATH_MAX + 300];

	if (vb_label_lock(&S.lk[k], results, label, err, sizeof(err)) < 0)
		die("%s", err);
}

/*
 * What this run changes on the machine, for the machine record and so
 * for the runs beside it: "results/x-A, results/x-B: thp=never |
 * thp=always; memory limit 64M; swap file 256M".
 */
static void
machine_what(char *buf, size_t len, const struct side *sd, int nside,
    int ab, const struct opts *o)
{
	int w = snprintf(buf, len, "%s%s%s:", sd[0].dir, nside > 1 ? ", " :
	    "", nside > 1 ? sd[1].dir : "");

	if (w > 0 && (size_t)w < len && ab)
		w += snprintf(buf + w, len - (size_t)w, " %s | %s", sd[0].desc,
		    sd[1].desc);
	if (w > 0 && (size_t)w < len && o->mem)
		w += snprintf(buf + w, len - (size_t)w, "%s memory limit %s",
		    ab ? ";" : "", o->mem);
	if (w > 0 && (size_t)w < len && o->swap)
		snprintf(buf + w, len - (size_t)w, "%s swap file %s",
		    ab || o->mem ? ";" : "", o->swap);
}

/*
 * One run that changes the machine (settings, a memory cgroup, a swap
 * file: @changes) at a time.  Such a run takes the machine lock
 * (state.h), waiting for the run that holds it with a line saying
 * which; then it undoes what killed runs left, under the lock, and
 * notes the live runs beside it.  A run that changes nothing notes
 * who holds the lock now (vb_machine_peek()), and cleans up what it
 * may: all, when the lock is free.  A user other than root (without
 * a fake tree) can change nothing and takes no lock.
 */
static void
machine_begin(int changes, const char *what, const char *results)
{
	const char *root = getenv("VMBENCH_SYSROOT");
	char mdir[4096], err[1024];
	struct sigaction sa;
	int rc, own = geteuid() == 0 || (root && *root);

	vb_machine_dir(mdir, sizeof(mdir));
	if (vb_state_dir(S.statedir, sizeof(S.statedir), err,
	    sizeof(err)) < 0)
		die("%s", err);
	if (changes && own) {
		/* a signal ends the wait (flock() returns EINTR) */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		if (vb_machine_lock(&S.mach, mdir, what, 1, &stop_signal, err,
		    sizeof(err)) < 0) {
			if (stop_signal)
				vb_die_status = 130;
			die("%s", stop_signal ? "interrupted while waiting "
			    "for the machine" : err);
		}
		if (vb_state_recover(S.statedir, S.workdir, results, 1) < 0)
			die("could not undo what an earlier run left; see "
			    "above");
		vb_state_others(S.statedir, S.beside, sizeof(S.beside));
		return;
	}
	rc = own ? vb_machine_lock(&S.mach, mdir, NULL, 0, NULL,
	    err, sizeof(err)) : 1;
	if (rc < 0)
		die("%s", err);
	if (vb_state_recover(S.statedir, S.workdir, results, rc == 0) < 0)
		die("could not undo what an earlier run left; see above");
	vb_machine_unlock(&S.mach);
	if (vb_machine_peek(mdir, &S.seen) < 0)
		memset(&S.seen, 0, sizeof(S.seen));
	if (S.seen.pid)
		vb_warn("pid %ld is changing this machine (%s): this run is "
		    "marked as run beside it", S.seen.pid, S.seen.what);
}

/*
 * At the end of a run (with --runs, of each): the runs that ran beside
 * it, in meta (concurrent=..., the last of S.extra: 1 when added) and
 * as a note in each result, which every view of the report shows ("!
 * label: ...").  A run that changed nothing looks whether one that
 * changes the machine held the lock at its start or end, or took it in
 * between (the record's count moved); one that changed it names the
 * runs live at its start or end.
 */
static int
machine_end(struct side *sd, int nside)
{
	static char val[2400];
	char mdir[4096], now[2048], path[PATH_MAX + 300], err[1024], *p;
	struct vb_machine m;
	struct vb_res r;
	DIR *d;
	struct dirent *e;
	int k;

	if (S.mach.fd >= 0) {
		vb_state_others(S.statedir, now, sizeof(now));
		/* the runs live at the end that were not at the start */
		for (p = strtok(now, ";"); p; p = strtok(NULL, ";")) {
			size_t used = strlen(S.beside);

			p += *p == ' ';
			if (!strstr(S.beside, p))
				snprintf(S.beside + used, sizeof(S.beside) -
				    used, "%s%s", used ? "; " : "", p);
		}
		if (!S.beside[0])
			return 0;
		snprintf(val, sizeof(val), "other vmbench runs ran beside "
		    "this one, which changed the machine: %s", S.beside);
	} else {
		long pid;
		unsigned long long n;

		vb_machine_peek(vb_machine_dir(mdir, sizeof(mdir)), &m);
		/* the runs that held the lock while this one ran */
		n = (S.seen.pid != 0) + (m.gen > S.seen.gen ? m.gen -
		    S.seen.gen : 0);
		if (!n && !m.pid)
			return 0;
		pid = S.seen.pid ? S.seen.pid : m.pid;
		if (pid)
			snprintf(val, sizeof(val), "ran beside pid %ld, which "
			    "changed this machine (%s)%s", pid, S.seen.pid ?
			    S.seen.what : m.what, n > 1 ? ", and other runs "
			    "that did" : "");
		else
			snprintf(val, sizeof(val), "ran beside %s that changed "
			    "this machine (the last: %s)", n > 1 ? "other runs" :
			    "another run", m.what);
	}
	vb_warn("%s", val);
	S.extra[S.nextra].key = "concurrent";
	S.extra[S.nextra++].val = val;
	for (k = 0; k < nside; k++) {
		if (!(d = opendir(sd[k].dir)))
			continue;
		while ((e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (e->d_name[0] == '.' || n < 5 ||
			    strcmp(e->d_name + n - 4, ".res") != 0)
				continue;
			snprintf(path, sizeof(path), "%.4095s/%.255s",
			    sd[k].dir, e->d_name);
			if (vb_res_read(path, &r, err, sizeof(err)) < 0)
				continue;
			vb_res_add_note(&r, "%s", val);
			if (vb_res_write(path, &r) < 0)
				vb_warn_errno("cannot write %s", path);
			vb_res_free(&r);
		}
		closedir(d);
	}
	return 1;
}

/*
 * Between two runs of one call (--runs): the next run's start for
 * machine_end(): who changes the machine now, or the live runs beside
 * a run that changes it.
 */
static void
machine_next(void)
{
	char mdir[4096];
	long before = S.seen.pid;

	if (S.mach.fd >= 0) {
		vb_state_others(S.statedir, S.beside, sizeof(S.beside));
		return;
	}
	if (vb_machine_peek(vb_machine_dir(mdir, sizeof(mdir)), &S.seen) < 0)
		memset(&S.seen, 0, sizeof(S.seen));
	if (S.seen.pid && S.seen.pid != before)
		vb_warn("pid %ld is changing this machine (%s): this run is "
		    "marked as run beside it", S.seen.pid, S.seen.what);
}

/*
 * --mem and --swap: parse now and export them to the programs (so that
 * their --check sees the limit too); created by make_limit().
 */
static void
parse_limit(const struct opts *o, uint64_t *mem, uint64_t *swap)
{
	char err[VB_ERRLEN], buf[32];

	*mem = *swap = 0;
	if (o->mem && vb_parse_size(o->mem, 4ULL << 20, 1ULL << 50, mem,
	    err) < 0)
		die("--mem: %s", err);
	if (o->swap && vb_parse_size(o->swap, 1ULL << 20, 1ULL << 44, swap,
	    err) < 0)
		die("--swap: %s", err);
	if (*mem) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)*mem);
		setenv("VMBENCH_MEM_LIMIT", buf, 1);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)*swap);
		if (*swap)
			setenv("VMBENCH_SWAP_LIMIT", buf, 1);
	}
}

/* Create the swap file and the cgroup; one line and exit on refusal. */
static void
make_limit(uint64_t mem, uint64_t swap)
{
	char err[1024], a[32];
	struct sigaction sa;

	if (!mem && !swap)
		return;
	/* a signal while they are made must not leave them behind */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	vb_set_die_hook(die_teardown);
	if (swap) {
		if (vb_swapfile_create(&S.swp, S.workdir, swap, err,
		    sizeof(err)) < 0)
			die("--swap %s: %s", vb_fmt_size(a, sizeof(a), swap),
			    err);
		snprintf(S.swp_desc, sizeof(S.swp_desc), "%s %s", S.swp.path,
		    vb_fmt_size(a, sizeof(a), swap));
		snprintf(S.state.swapfile, sizeof(S.state.swapfile), "%s",
		    S.swp.path);
		S.state.swap_dev = S.swp.dev;
		S.state.swap_ino = S.swp.ino;
		S.state.swap_size = S.swp.size;
		if (vb_state_save(&S.state) < 0)
			die_errno("cannot write %s", S.state.path);
		S.extra[S.nextra].key = "swap_file";
		S.extra[S.nextra++].val = S.swp_desc;
	}
	if (mem) {
		if (vb_memlimit_create(&S.lim, mem, swap ? swap :
		    VB_MEMLIMIT_NOSWAP, err, sizeof(err)) < 0)
			die("--mem %s: %s", vb_fmt_size(a, sizeof(a), mem),
			    err);
		vb_memlimit_describe(&S.lim, S.lim_desc, sizeof(S.lim_desc));
		snprintf(S.state.cgroup, sizeof(S.state.cgroup), "%s",
		    S.lim.path);
		S.state.cgroup_v = S.lim.version;
		if (vb_state_save(&S.state) < 0)
			die_errno("cannot write %s", S.state.path);
		/* the programs read their cgroup's own counters (scope.h) */
		setenv("VMBENCH_CGROUP", S.lim.path, 1);
		setenv("VMBENCH_CGROUP_VERSION", S.lim.version == 2 ? "2" :
		    "1", 1);
		S.extra[S.nextra].key = "mem_limit";
		S.extra[S.nextra++].val = vb_fmt_size(S.mem_h,
		    sizeof(S.mem_h), mem);
		S.extra[S.nextra].key = "mem_limit_cgroup";
		S.extra[S.nextra++].val = S.lim_desc;
		S.extra[S.nextra].key = "mem_limit_peak_kb";
		S.extra[S.nextra++].val = S.peak;
		S.extra[S.nextra].key = "mem_limit_hits";
		S.extra[S.nextra++].val = S.hits;
		snprintf(S.peak, sizeof(S.peak), "unknown");
		snprintf(S.hits, sizeof(S.hits), "unknown");
	}
	if (stop_signal) {
		teardown();
		vb_die_status = 130;
		die("interrupted before anything ran");
	}
	fprintf(stderr, "vmrun: %s%s%s\n", mem ? S.lim_desc : "",
	    mem && swap ? "; swap file " : swap ? "swap file " : "",
	    swap ? S.swp_desc : "");
}

/* Iterations of line @i: ITERATIONS=, else its iterations=, else suite's. */
static int
line_iterations(const struct vb_conf *c, int i, const struct opts *o)
{
	const struct vb_conf_line *l = &c->lines[i];

	return o->iterations ? (int)o->iterations : l->iterations ?
	    l->iterations : c->iterations ? c->iterations : 1;
}

/* The closing summary: each benchmark's headline figure and spread. */
static void
summary(const struct vb_conf *c)
{
	int i;

	fprintf(stderr, "\n%-18s %-18s %11s %10s %6s %3s  %s\n", "benchmark",
	    "figure", "mean", "sd", "cov%", "n", "status");
	for (i = 0; i < c->nlines; i++) {
		char label[2 * VB_NAMELEN], path[PATH_MAX + 256], err[512];
		struct vb_res r;
		struct vb_desc d;
		int m;

		vb_conf_label(&c->lines[i], label, sizeof(label));
		snprintf(path, sizeof(path), "%s/%s.res", S.dir, label);
		if (access(path, F_OK) < 0) {
			fprintf(stderr, "%-18s (%s)\n", label, S.cause[i] ?
			    S.cause[i] : "not run");
			continue;
		}
		if (vb_res_read(path, &r, err, sizeof(err)) < 0) {
			fprintf(stderr, "%-18s %s\n", label, err);
			if (S.cause[i])
				fprintf(stderr, "  cause: %s\n", S.cause[i]);
			continue;
		}
		m = vb_res_metric_index(&r, r.headline[0] ? r.headline :
		    "elapsed");
		if (m < 0)
			m = 0;
		vb_describe(r.vals + m, (size_t)r.niter, (size_t)r.nmetrics, &d);
		if (d.n == 0)	/* nothing to describe: no nan */
			fprintf(stderr, "%-18s %-18s %11s %10s %6s %3zu  %s "
			    "(%s)\n", label, r.metrics[m].name, "-", "-", "-",
			    d.n, r.status, r.metrics[m].unit);
		else
			fprintf(stderr, "%-18s %-18s %11.6g %10.4g %6.2f %3zu  "
			    "%s (%s)\n", label, r.metrics[m].name, d.mean,
			    d.sd, isnan(d.cov) ? 0.0 : d.cov * 100, d.n,
			    r.status, r.metrics[m].unit);
		if (r.note)
			fprintf(stderr, "  note: %s\n", r.note);
		if (S.cause[i] && strcmp(r.status, "complete") != 0)
			fprintf(stderr, "  cause: %s\n", S.cause[i]);
		vb_res_free(&r);
		/* the probe beside it: the posts' line */
		snprintf(path, sizeof(path), "%s/probe@%s.res", S.dir, label);
		if (vb_conf_dir(&c->lines[i], "with") &&
		    vb_res_read(path, &r, err, sizeof(err)) == 0) {
			int p = vb_res_metric_index(&r, "played_s");
			int t = vb_res_metric_index(&r, "total_s");

			if (p >= 0 && t >= 0 && r.niter > 0 &&
			    vb_res_get(&r, 0, t) > 0)
				fprintf(stderr, "  probe: played %.*f of %.*f "
				    "seconds (%.0f%%), %s\n",
				    vb_res_get(&r, 0, t) < 100, vb_res_get(&r, 0,
				    p), vb_res_get(&r, 0, t) < 100,
				    vb_res_get(&r, 0, t), 100 * vb_res_get(&r,
				    0, p) / vb_res_get(&r, 0, t), r.status);
			vb_res_free(&r);
		}
	}
	fprintf(stderr, "\nresults in %s/\n", S.dir);
}

/*
 * The cgroup's own copies of global settings (v1 memory.swappiness; v2
 * memory.zswap.*), as meta lines: what the benchmarks ran under.
 */
static void
cg_settings(FILE *f)
{
	char v[256];

	if (!S.lim.version)
		return;
	if (S.lim.version == 1 && vb_memlimit_read(&S.lim,
	    "memory.swappiness", v, sizeof(v)) == 0)
		fprintf(f, "cg_swappiness=%s\n", v);
	if (S.lim.version == 2) {
		if (vb_read_setting("/proc/sys/vm/swappiness", v, sizeof(v)) == 0)
			fprintf(f, "cg_swappiness=%s\n", v);
		if (vb_memlimit_read(&S.lim, "memory.zswap.max", v,
		    sizeof(v)) == 0)
			fprintf(f, "cg_zswap_max=%s\n", v);
		if (vb_memlimit_read(&S.lim, "memory.zswap.writeback", v,
		    sizeof(v)) == 0)
			fprintf(f, "cg_zswap_writeback=%s\n", v);
	}
}

/* The settings in force now, for meta (src/lib/meta.h). Allocated. */
static char *
settings_now(void)
{
	char *base = vb_meta_settings(), *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		die("out of memory");
	fputs(base, f);
	cg_settings(f);
	if (fclose(f) != 0)
		die("out of memory");
	free(base);
	return text;
}

/*
 * The work folder holds the benchmarks' files and the swap file: a
 * writable folder of a file system that stores files.  /dev/null, a
 * regular file, /proc or /sys are refused before anything is made.
 */
static void
workdir_usable(const char *dir)
{
	static const struct {
		long magic;
		const char *name;
	} pseudo[] = {
		{ PROC_SUPER_MAGIC, "proc" }, { SYSFS_MAGIC, "sysfs" },
		{ DEBUGFS_MAGIC, "debugfs" }, { TRACEFS_MAGIC, "tracefs" },
		{ CGROUP_SUPER_MAGIC, "cgroup" },
		{ CGROUP2_SUPER_MAGIC, "cgroup2" },
		{ SECURITYFS_MAGIC, "securityfs" }, { BPF_FS_MAGIC, "bpf" },
		{ DEVPTS_SUPER_MAGIC, "devpts" },
	};
	struct statfs fs;
	struct stat st;
	size_t i;

	if (stat(dir, &st) < 0 || statfs(dir, &fs) < 0)
		die_errno("work folder %s", dir);
	if (!S_ISDIR(st.st_mode))
		die("work folder %s: not a folder (WORKDIR= names a folder on "
		    "disk or tmpfs)", dir);
	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if ((long)fs.f_type == pseudo[i].magic)
			die("work folder %s: on %s, which holds no files of its "
			    "own (WORKDIR= names a folder on disk or tmpfs)",
			    dir, pseudo[i].name);
	if (fs.f_flags & ST_RDONLY)
		die("work folder %s: on a read-only file system", dir);
	if (access(dir, W_OK | X_OK) < 0)
		die_errno("work folder %s: not writable", dir);
	/*
	 * The benchmarks' private folders are made in it: it and its path
	 * ours or root's, writable by others only when sticky (a 1777
	 * /tmp), so that no one can rename them away (safedir.h)
	 */
	{
		char err[PATH_MAX + 128];
		int fd = vb_dir_open_parent(dir, err, sizeof(err));

		if (fd < 0)
			die("%s (WORKDIR=)", err);
		close(fd);
	}
}

/*
 * The work folder: --workdir, $VMBENCH_WORKDIR, or ./work; made when
 * @make.  0, or -1 when it does not exist and was not to be made.
 */
static int
find_workdir(struct opts *o, int make)
{
	if (!o->workdir)
		o->workdir = getenv("VMBENCH_WORKDIR");
	if (!o->workdir || !*o->workdir)
		o->workdir = "work";
	check_path("the work folder", o->workdir);
	if (make && mkdir(o->workdir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create work folder %s", o->workdir);
	if (!realpath(o->workdir, S.workdir)) {
		if (!make && errno == ENOENT)
			return -1;
		die_errno("work folder %s", o->workdir);
	}
	workdir_usable(o->workdir);
	return 0;
}


/* The memory limit's hits so far (0 without a limit). */
static uint64_t
limit_hits(void)
{
	uint64_t peak, hits;

	if (!S.lim.version || vb_memlimit_peak(&S.lim, &peak, &hits) < 0)
		return 0;
	return hits;
}

/*
 * After a program of side @sd ran (@label): add the limit hits since
 * @before to the side's, and raise its peak to the cgroup's peak now and
 * to each iteration's (cg_mem_peak_kb: the harness resets the cgroup's
 * peak before every iteration).
 */
static void
limit_after(struct side *sd, uint64_t before, const char *label)
{
	char path[PATH_MAX + 300], err[1024];
	uint64_t peak, hits;
	struct vb_res r;
	int m, i;

	if (!S.lim.version || vb_memlimit_peak(&S.lim, &peak, &hits) < 0)
		return;
	sd->hits += hits >= before ? hits - before : 0;
	if ((double)(peak >> 10) > sd->peak_kb)
		sd->peak_kb = (double)(peak >> 10);
	snprintf(path, sizeof(path), "%s/%s.res", sd->dir, label);
	if (vb_res_read(path, &r, err, sizeof(err)) < 0)
		return;
	m = vb_res_metric_index(&r, "cg_mem_peak_kb");
	for (i = 0; m >= 0 && i < r.niter; i++)
		if (vb_res_get(&r, i, m) > sd->peak_kb)
			sd->peak_kb = vb_res_get(&r, i, m);
	vb_res_free(&r);
}

/*
 * make ab: side @s's settings in force before a run of it, when @*cur
 * (the side whose settings are in force, -1 for none) is the other;
 * the side's meta, with its settings as they were then, on the first.
 */
static void
ab_switch(struct side *sd, int s, int *cur)
{
	char err[1024];

	if (s == *cur)
		return;
	if (vb_knobs_apply(&S.knobs, s, err, sizeof(err)) < 0)
		die("%s", err);
	if (vb_memlimit_sync(&S.lim) < 0)
		die_errno("cannot set memory.swappiness in %s", S.lim.path);
	*cur = s;
	if (!sd[s].settings) {
		sd[s].settings = settings_now();
		side_meta(&sd[s], "running", 0, 0);
	}
}

/*
 * make ab: the warm-up of line @i, one run under side @s's settings
 * into <side>/warmup/ (its .res, .vmstat and .log), which the report
 * never reads: the line's first run after another program is cold
 * (its program and files not yet in the page cache) and no side should
 * get it.  Its limit hits and peak count for neither side.  A failed
 * warm-up is said and the measured runs go on.  0, or 130 after a
 * signal.
 */
static int
ab_warmup(const struct vb_conf *c, int i, struct side *sd, int s,
    uint64_t t0)
{
	char label[2 * VB_NAMELEN];
	int rc;

	vb_conf_label(&c->lines[i], label, sizeof(label));
	if ((size_t)snprintf(S.dir, sizeof(S.dir), "%s/warmup", sd[s].dir) >=
	    sizeof(S.dir))
		die("%s/warmup: path too long", sd[s].dir);
	if (mkdir(S.dir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create %s", S.dir);
	snprintf(S.slot, sizeof(S.slot), "warm-up %c (%s), discarded",
	    "AB"[s], sd[s].desc);
	S.cause = S.causes[s];
	rc = run_line(c, i, 1, t0);
	if (rc == 130)
		return 130;
	if (rc) {
		vb_warn("%s: the warm-up run failed (kept apart in %s/); the "
		    "measured runs go on", label, S.dir);
		free(S.cause[i]);
		S.cause[i] = NULL;
	}
	return 0;
}

/*
 * make ab: each config line's iterations, A's and B's, in the order's
 * pattern (A and B swapped on every other line, so that the side that
 * starts alternates), each a run of the program with --iterations 1
 * --append into its side's folder, with that side's settings written
 * just before; with S.warmup, after a discarded warm-up run of the line
 * under the side that starts it.  Returns the number of failed lines,
 * or 130 after a signal.
 */
static int
run_ab(const struct vb_conf *c, const struct opts *o, struct side *sd,
    uint64_t t0)
{
	char sched[2 * 100000 + 1], lorder[17];
	int i, k, failed = 0, cur = -1;
	uint64_t hits;

	S.conf = c;
	for (i = 0; i < c->nlines && !stop_signal; i++) {
		int n = line_iterations(c, i, o), rc, line_failed = 0;
		char label[2 * VB_NAMELEN];

		S.ab_line = i;
		vb_conf_label(&c->lines[i], label, sizeof(label));
		vb_ab_line_order(o->order, i, lorder);
		vb_ab_schedule(lorder, n, sched);
		fprintf(stderr, "[%d/%d] %s: %d iteration%s a side, %.16s%s",
		    i + 1, c->nlines, label, n, n == 1 ? "" : "s", sched,
		    strlen(sched) > 16 ? "..." : "");
		if (S.warmup)
			fprintf(stderr, ", after a discarded warm-up run under "
			    "%c", sched[0]);
		fputc('\n', stderr);
		if (S.warmup) {
			ab_switch(sd, sched[0] == 'B', &cur);
			if (ab_warmup(c, i, sd, sched[0] == 'B', t0) == 130) {
				S.ab_line = -1;
				return 130;
			}
		}
		for (k = 0; sched[k] && !stop_signal; k++) {
			int s = sched[k] == 'B';

			ab_switch(sd, s, &cur);
			memcpy(S.dir, sd[s].dir, sizeof(S.dir));
			S.cause = S.causes[s];
			snprintf(S.slot, sizeof(S.slot), "%c %d/%d (%s)",
			    sched[k], k + 1, 2 * n, sd[s].desc);
			hits = limit_hits();
			rc = run_line(c, i, 1, t0);
			limit_after(&sd[s], hits, label);
			if (rc == 130)
				break;
			/*
			 * A side with runs to come is not complete yet: its
			 * result says running until its last run (so also
			 * after a SIGKILL of vmrun), as a plain run's does.
			 */
			if (strchr(sched + k + 1, sched[k]))
				line_status(c, i, s, "running", 0);
			if (rc) {
				sd[s].failed = 1;
				line_failed |= 1 << s;
			}
		}
		/* stopped before the line's last run: both sides say so */
		if (sched[k]) {
			cut_short(c, i, "interrupted");
			S.ab_line = -1;
			return 130;
		}
		/* a side one of whose runs failed: its result says so */
		for (k = 0; k < 2; k++)
			if (line_failed & (1 << k)) {
				char path[PATH_MAX + 300];

				snprintf(path, sizeof(path), "%s/%s.res",
				    sd[k].dir, label);
				mark_status(path, "failed", 1);
			}
		failed += line_failed != 0;
	}
	S.ab_line = -1;
	return stop_signal ? 130 : failed;
}

/* ---- several runs a label: results/<label>/runN/ (docs/results.md) ---- */


/* --runs N: 1 to 1000; anything else stops the run with one line. */
static int
runs_arg(const char *s)
{
	char shown[48], *end;
	size_t i;
	long n;

	if (!s)
		return 1;
	errno = 0;
	n = strtol(s, &end, 10);
	if (s[0] >= '0' && s[0] <= '9' && !*end && !errno && n >= 1 &&
	    n <= 1000)
		return (int)n;
	/* the value as given, on one line */
	for (i = 0; s[i] && i < sizeof(shown) - 1; i++)
		shown[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	shown[i] = '\0';
	die("--runs '%s%s': give a whole number from 1 to 1000", shown,
	    s[i] ? "..." : "");
	return 0;
}

/* The boot id and uptime of now into the meta of the run(s) begun. */
static void
run_facts(void)
{
	S.meta.boot_id = vb_boot_id(RN.boot_id, sizeof(RN.boot_id));
	S.meta.uptime_start = vb_uptime(RN.uptime, sizeof(RN.uptime));
}

/*
 * A run already in the label must have been made with this config and
 * on this machine, and not by make ab: the runs of a label are
 * repetitions of one thing.  @meta is its meta file, @idx its index (a
 * run at the top: 1).
 */
static void
run_same(const char *meta, int idx, const char *config, const char *cks)
{
	char err[1024], why[4096];
	struct vb_kv *kv;
	const char *v;
	int n;

	struct stat st;

	if (vb_meta_read(meta, &kv, &n, err, sizeof(err)) < 0) {
		/* a FIFO, a device, a symlink or a huge file: refused */
		if (lstat(meta, &st) == 0 && (!S_ISREG(st.st_mode) ||
		    (uintmax_t)st.st_size > VB_MAX_META))
			die("%s: use another label or FORCE=1", err);
		return;		/* nothing to compare: the report says */
	}
	/* a side of make ab: its iterations are runs of one setting */
	if (vb_meta_get(kv, n, "ab_side") || vb_meta_get(kv, n, "unit"))
		die("%s is a folder of make ab (each of its iterations a run): "
		    "use another label or FORCE=1", RN.dir);
	v = vb_meta_get(kv, n, "config_cksum");
	if (v && strcmp(v, "unknown") && strcmp(cks, "unknown") &&
	    strcmp(v, cks)) {
		die("%s: run%d used %s (cksum %s), this run %s (cksum %s): "
		    "use another label or FORCE=1", RN.dir, idx,
		    vb_meta_get(kv, n, "config") ? vb_meta_get(kv, n,
		    "config") : "an unnamed config", v, config, cks);
	}
	if (vb_meta_machine_diff(kv, n, NULL, 0, "here", why,
	    sizeof(why)) > 0)
		die("%s: run%d ran on another machine: %s: use another label "
		    "or FORCE=1", RN.dir, idx, why);
	vb_meta_free(kv, n);
}

/*
 * Before anything runs: what results/<label> holds.  Nothing (a new
 * label), runN/ folders, or one run at its top (meta: an older folder,
 * moved into run1/ before this run begins).  A run of another config
 * or another machine is refused.  With --force everything there goes.
 */
static void
runs_check(const struct side *sd, const struct opts *o)
{
	char path[PATH_MAX + NAME_MAX + 2], cks[64];
	struct vb_runs r;
	struct stat st;
	int n;

	memcpy(RN.dir, sd->dir, sizeof(RN.dir));
	if (o->force)
		return;
	if (lstat(RN.dir, &st) < 0) {
		if (errno != ENOENT)
			die_errno("%s", RN.dir);
		return;
	}
	if (!S_ISDIR(st.st_mode))
		die("%s exists and is not a folder: choose another KERNEL= "
		    "label, or FORCE=1 to replace it", RN.dir);
	if (vb_runs_scan(RN.dir, &r) < 0)
		die_errno("cannot read %s", RN.dir);
	RN.flat = r.flat;
	RN.last = r.last;
	/* an empty runN/ (a run that never began) is not a run */
	RN.empty = r.empty < r.last ? 0 : r.empty;
	if (RN.flat && RN.last > 1)
		die("%s holds a run at its top (meta) and run folders up to "
		    "run%d: move one or the other away, or FORCE=1 to replace "
		    "it all", RN.dir, RN.last);
	if (!RN.flat && !RN.last && r.other[0])
		die("%s holds no run (no meta, no run1/, but '%s'): choose "
		    "another KERNEL= label, or FORCE=1 to replace it", RN.dir,
		    r.other);
	vb_meta_cksum(o->config, cks, sizeof(cks));
	if (RN.flat) {
		snprintf(path, sizeof(path), "%s/meta", RN.dir);
		run_same(path, 1, o->config, cks);
	}
	for (n = 1; !RN.flat && n <= RN.last; n++) {
		snprintf(path, sizeof(path), "%s/run%d/meta", RN.dir, n);
		run_same(path, n, o->config, cks);
	}
}

/*
 * Move @name of the label's top (@lfd) into run1/ (@r1fd); never over
 * something.  renameat(): by name in the two checked folders.
 */
static void
move_entry(int lfd, int r1fd, const char *name)
{
	struct stat st;

	if (fstatat(r1fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		die("cannot move %s/%s into %s/run1/: %s/run1/%s is there "
		    "already", RN.dir, name, RN.dir, RN.dir, name);
	if (renameat(lfd, name, r1fd, name) < 0)
		die_errno("cannot move %s/%s to %s/run1/%s", RN.dir, name,
		    RN.dir, name);
}

/*
 * A label folder holding one run at its top (made before labels held
 * runs): move it into run1/, an entry at a time (each rename(2) is
 * atomic), meta last, so that until meta moves the folder still reads
 * as that one run, and a move cut short is finished by the next run.
 * The label folder and run1/ are checked first (ours, no one else may
 * write them, not symlinks): an existing run1 that is not the move's
 * own is refused.
 */
static void
move_flat(void)
{
	char r1[PATH_MAX + 8], **names = NULL, err[PATH_MAX + 128];
	const char *label = strrchr(RN.dir, '/') ? strrchr(RN.dir, '/') + 1 :
	    RN.dir;
	struct dirent *de;
	DIR *d;
	int n = 0, i, lfd, r1fd, fd;

	snprintf(r1, sizeof(r1), "%s/run1", RN.dir);
	if ((lfd = vb_dir_sub(RN.resfd, label, RN.dir, 0, err,
	    sizeof(err))) < 0)
		die("%s", err);
	if ((r1fd = vb_dir_sub(lfd, "run1", r1, 1, err, sizeof(err))) < 0)
		die("%s", err);
	if ((fd = dup(lfd)) < 0 || !(d = fdopendir(fd)))
		die_errno("cannot read %s", RN.dir);
	/* the names first: the folder is not changed while it is read */
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "run1") || !strcmp(de->d_name, "meta"))
			continue;
		names = vb_xrealloc(names, (size_t)(n + 1) * sizeof(*names));
		names[n++] = vb_xstrdup(de->d_name);
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		move_entry(lfd, r1fd, names[i]);
		free(names[i]);
	}
	free(names);
	move_entry(lfd, r1fd, "meta");
	close(r1fd);
	close(lfd);
	RN.last = 1;
	fprintf(stderr, "vmrun: %s held one run (meta at its top): moved into "
	    "%s/, each entry renamed, meta last\n", RN.dir, r1);
}

/*
 * Result folder @dir into the state's slot @k as an absolute path (the
 * clean-up after a SIGKILL may run from another folder): the folder's
 * real path, or its parent's with its name when it is not made yet.
 */
static void
state_result(int k, const char *dir)
{
	char real[PATH_MAX], parent[PATH_MAX];
	const char *slash = strrchr(dir, '/'), *name = slash ? slash + 1 : dir;
	int n;

	if (realpath(dir, real)) {
		n = snprintf(S.state.results[k], sizeof(S.state.results[k]),
		    "%s", real);
	} else {
		if (slash)
			snprintf(parent, sizeof(parent), "%.*s",
			    (int)(slash - dir), dir);
		else
			snprintf(parent, sizeof(parent), ".");
		if (!realpath(slash == dir ? "/" : parent, real))
			die_errno("cannot find %s", parent);
		n = snprintf(S.state.results[k], sizeof(S.state.results[k]),
		    "%s/%s", real, name);
	}
	if (n < 0 || (size_t)n >= sizeof(S.state.results[k]))
		die("%s: path too long", dir);
}

/*
 * The label lock @k (held) into the state, as an absolute path: after a
 * SIGKILL the clean-up removes it, from whatever folder it runs.
 */
static void
state_lock(int k, const char *results)
{
	char real[PATH_MAX];
	const char *base = strrchr(S.lk[k].path, '/');
	int n;

	if (!realpath(results, real))
		die_errno("cannot find %s", results);
	n = snprintf(S.state.locks[k], sizeof(S.state.locks[k]), "%s/%s",
	    real, base ? base + 1 : S.lk[k].path);
	if (n < 0 || (size_t)n >= sizeof(S.state.locks[k]))
		die("%s: path too long", S.lk[k].path);
}

/*
 * Make run @idx's folder and point the side, S.dir, the state file
 * (a SIGKILLed run's meta is marked by the next) and meta at it.
 */
static void
run_dir(struct side *sd, int idx)
{
	char dir[PATH_MAX + 16];

	snprintf(dir, sizeof(dir), "%s/run%d", RN.dir, idx);
	if (strlen(dir) >= sizeof(sd->dir))
		die("%s: path too long", dir);
	memcpy(sd->dir, dir, strlen(dir) + 1);
	if (mkdir(sd->dir, 0755) < 0)
		die_errno("cannot create %s", sd->dir);
	sd->made = 1;
	memcpy(S.dir, sd->dir, sizeof(S.dir));
	state_result(0, sd->dir);
	if (vb_state_save(&S.state) < 0)
		die_errno("cannot write %s", S.state.path);
	S.meta.run = idx;
	run_facts();
}

/*
 * The label's folder, once the limit and swap file are ready: replaced
 * with --force, an older one-run folder moved into run1/, and the
 * folder of this call's first run made.
 */
static void
runs_folder(struct side *sd, const struct opts *o)
{
	struct stat st;

	const char *label = strrchr(RN.dir, '/') ? strrchr(RN.dir, '/') + 1 :
	    RN.dir;
	char path[PATH_MAX + 16], err[PATH_MAX + 128];
	int n, fd;

	/* through folder descriptors: no path resolved twice */
	if (o->force && fstatat(RN.resfd, label, &st, AT_SYMLINK_NOFOLLOW) ==
	    0 && vb_rmtree_at(RN.resfd, label) < 0)
		die_errno("cannot remove %s", RN.dir);
	if (mkdirat(RN.resfd, label, 0755) == 0)
		RN.made = 1;
	else if (errno != EEXIST)
		die_errno("cannot create %s", RN.dir);
	if ((fd = vb_dir_sub(RN.resfd, label, RN.dir, 0, err,
	    sizeof(err))) < 0)
		die("%s", err);
	close(fd);
	if (RN.flat)
		move_flat();
	/* empty run folders after the last run: this call numbers from it */
	for (n = RN.empty; n > RN.last; n--) {
		snprintf(path, sizeof(path), "%s/run%d", RN.dir, n);
		if (rmdir(path) < 0 && errno != ENOENT)
			die_errno("cannot remove the empty %s", path);
	}
	RN.first = RN.last + 1;
	run_dir(sd, RN.first);
}

/*
 * Between two runs of one call: close run @sd (its meta's status and
 * end, its summary, a line saying it ended), then begin run @idx in its
 * own folder with the settings, start time, boot id and uptime of now.
 */
static void
run_next(const struct vb_conf *c, struct side *sd, int failed, int idx)
{
	const char *status = failed ? "failed" : "complete";
	int i, beside;

	/* the runs beside this one are this one's, not the next's */
	beside = machine_end(sd, 1);
	if (side_meta(sd, status, 1, 0) < 0)
		failed = 1;
	if (beside)
		S.nextra--;
	machine_next();
	RN.failed += failed != 0;
	summary(c);
	fprintf(stderr, "vmrun: %s: %s (run %d of %d)\n", sd->dir, status,
	    idx - RN.first, RN.n);
	sd->written = 0;
	sd->peak_kb = 0;
	sd->hits = 0;
	for (i = 0; i < c->nlines; i++) {
		free(S.cause[i]);
		S.cause[i] = NULL;
	}
	free(sd->settings);
	sd->settings = settings_now();
	vb_iso_time(S.start, sizeof(S.start));
	run_dir(sd, idx);
	if (side_meta(sd, "running", 0, 1) < 0) {
		int e = errno;

		rmdir(sd->dir);		/* empty: nothing was recorded */
		errno = e;
		die_errno("cannot write %s/meta", sd->dir);
	}
}

/*
 * make run: every line of the config, into run N; with --runs, every
 * line of the first run, then of the second, ..., each run in its own
 * runN/.  The failed lines of the last run, or 130 after a signal (a
 * signal between two runs begins the next only to mark it interrupted:
 * nothing of it runs).
 */
static int
run_plain(const struct vb_conf *c, const struct opts *o, struct side *sd,
    uint64_t t0)
{
	int r, i, rc, failed = 0;

	for (r = 0; r < RN.n; r++) {
		if (r > 0)
			run_next(c, sd, failed, RN.first + r);
		failed = 0;
		if (RN.n > 1)
			fprintf(stderr, "vmrun: run %d of %d into %s/\n", r + 1,
			    RN.n, sd->dir);
		for (i = 0; i < c->nlines && !stop_signal; i++) {
			int n = line_iterations(c, i, o);
			char label[2 * VB_NAMELEN];
			uint64_t hits = limit_hits();

			rc = run_line(c, i, n, t0);
			vb_conf_label(&c->lines[i], label, sizeof(label));
			limit_after(sd, hits, label);
			if (rc == 130)
				return 130;
			failed += rc != 0;
		}
		if (stop_signal)
			return 130;
	}
	return failed;
}

/*
 * After a call of several runs, how its last run (@sd) ended; then what
 * the label holds now, on stderr: "vmrun: results/x: 3 runs on 2
 * boots", and how many did not complete.  A run whose meta has no boot
 * id (made before it was recorded) may share a boot with any other: it
 * adds no boot of its own (one, when no run has an id).
 */
static void
runs_say(const struct side *sd)
{
	char path[PATH_MAX + NAME_MAX + 8], err[1024], (*boot)[64] = NULL;
	struct dirent *de;
	struct vb_kv *kv;
	DIR *d;
	int nruns = 0, nboots = 0, nbad = 0, nunk = 0, n, i;

	snprintf(path, sizeof(path), "%s/meta", sd->dir);
	if (RN.n > 1 && vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0) {
		const char *st = vb_meta_get(kv, n, "status");

		fprintf(stderr, "vmrun: %s: %s (run %d of %d)\n", sd->dir,
		    st ? st : "unknown", S.meta.run - RN.first + 1, RN.n);
		vb_meta_free(kv, n);
	}
	if (!(d = opendir(RN.dir)))
		return;
	while ((de = readdir(d))) {
		const char *b = NULL, *st = NULL;

		if (!vb_run_index(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/meta", RN.dir, de->d_name);
		kv = NULL;
		n = 0;
		if (vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0) {
			b = vb_meta_get(kv, n, "boot_id");
			st = vb_meta_get(kv, n, "status");
		}
		nruns++;
		nbad += !st || strcmp(st, "complete") != 0;
		if (!b || !strcmp(b, "unknown")) {
			nunk++;
			vb_meta_free(kv, n);
			continue;
		}
		for (i = 0; i < nboots && strcmp(boot[i], b); i++)
			;
		if (i == nboots) {
			boot = vb_xrealloc(boot, (size_t)(nboots + 1) *
			    sizeof(*boot));
			snprintf(boot[nboots++], sizeof(*boot), "%s", b);
		}
		vb_meta_free(kv, n);
	}
	closedir(d);
	free(boot);
	if (!nboots && nunk)
		nboots = 1;
	fprintf(stderr, "vmrun: %s: %d run%s on %d boot%s", RN.dir, nruns,
	    nruns == 1 ? "" : "s", nboots, nboots == 1 ? "" : "s");
	i = 0;
	if (nunk && nunk < nruns)
		fprintf(stderr, "%s%d without a boot id", i++ ? ", " : " (",
		    nunk);
	if (nbad)
		fprintf(stderr, "%s%d not complete", i++ ? ", " : " (", nbad);
	fputs(i ? ")\n" : "\n", stderr);
}

/*
 * Run vmreport on the two folders (the comparison on stdout), as a
 * program, not through a shell.
 */
static void
compare(const struct side *sd)
{
	vb_run_report(S.bindir, sd[0].dir, sd[1].dir);
}

/*
 * make clean-stale: undo what killed runs left (state.h), taking the
 * machine lock when it is free; a run that holds it undid what was
 * left when it took it.
 */
static int
clean_stale(struct opts *o)
{
	const char *root = getenv("VMBENCH_SYSROOT");
	char mdir[4096], err[1024];
	struct vb_machine m;
	int rc, held = 1, none;

	/* a work folder that is not there is not made: nothing in it */
	none = find_workdir(o, 0) < 0;
	if (none)
		snprintf(S.workdir, sizeof(S.workdir), "%s", o->workdir);
	check_path("--results", o->results);
	if (vb_state_dir(S.statedir, sizeof(S.statedir), err,
	    sizeof(err)) < 0)
		die("%s", err);
	vb_machine_dir(mdir, sizeof(mdir));
	if (geteuid() == 0 || (root && *root)) {
		held = vb_machine_lock(&S.mach, mdir, NULL, 0, NULL,
		    err, sizeof(err));
		if (held < 0)
			die("%s", err);
	}
	rc = vb_state_recover(S.statedir, S.workdir, o->results, held == 0);
	vb_machine_unlock(&S.mach);
	if (held == 1 && vb_machine_peek(mdir, &m) == 0 && m.pid)
		fprintf(stderr, "vmrun: pid %ld is changing this machine now "
		    "(%s); it undoes that itself\n", m.pid, m.what);
	if (rc == 0)
		fprintf(stderr, "vmrun: nothing left behind in %s%s\n",
		    S.workdir, none ? " (no such folder)" : "");
	return rc < 0 ? 1 : 0;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct vb_conf conf;
	struct sigaction sa;
	struct utsname u;
	struct stat st;
	struct side sd[2];
	char err[1024];
	uint64_t t0, mem, swap;
	int i, k, rc = 0, failed = 0, ab, nside, meta_failed = 0, td_failed;

	vb_set_progname("vmrun");
	memset(sd, 0, sizeof(sd));
	/*
	 * Output is a courtesy: with stderr on a closed pipe (`| head`)
	 * the writes fail with EPIPE and only the printing stops, never
	 * the run or its clean-up.
	 */
	signal(SIGPIPE, SIG_IGN);
	/* started by make: stop when make is stopped (parentwatch.h) */
	if (vb_parent_watch() < 0)
		vb_warn_errno("cannot watch make, its parent");
	if (vb_opt_parse(opt_tab, &o, argc - 1, argv + 1, NULL, err,
	    sizeof(err)) < 0)
		die("%s", err);
	if (o.help) {
		usage(stdout);
		return 0;
	}
	if (o.clean_stale)
		return clean_stale(&o);
	if (!o.kernel || !*o.kernel) {
		if (uname(&u) < 0)
			die_errno("uname");
		o.kernel = strdup(u.release);
	}
	if (!vb_label_ok(o.kernel))
		die("bad kernel label '%s': " VB_LABEL_RULE, o.kernel);
	ab = o.set_a || o.set_b;
	nside = ab ? 2 : 1;
	if (!ab && (o.label_a || o.label_b))
		die("--label-a and --label-b are for an A/B run (--a, --b)");
	if (ab && o.runs)
		die("--runs is for make run: an A/B run repeats each setting's "
		    "runs by its iterations (ITERATIONS=)");
	if (!ab && o.warmup)
		die("--warmup is for an A/B run (--a, --b; make ab WARMUP=)");
	RN.n = runs_arg(o.runs);
	if (ab && (S.warmup = vb_ab_warmup_arg(o.warmup, err,
	    sizeof(err))) < 0)
		die("%s", err);
	if (ab) {
		const char *root = getenv("VMBENCH_SYSROOT");
		static char la[160], lb[160];

		if (!o.set_a || !o.set_b || (!*o.set_a && !*o.set_b))
			die("an A/B run needs both sides: A=\"name=value,...\" "
			    "B=\"name=value,...\" (one side may be given "
			    "empty, B=, for the settings as they are)");
		if (vb_ab_order_ok(o.order, err, sizeof(err)) < 0)
			die("%s", err);
		S.knobs.root = root && *root ? vb_xstrdup(root) : NULL;
		if ((*o.set_a && vb_knobs_parse(&S.knobs, 0, o.set_a, err,
		    sizeof(err)) < 0) || (*o.set_b &&
		    vb_knobs_parse(&S.knobs, 1, o.set_b, err,
		    sizeof(err)) < 0))
			die("%s", err);
		snprintf(la, sizeof(la), "%s-A", o.kernel);
		snprintf(lb, sizeof(lb), "%s-B", o.kernel);
		sd[0].label = o.label_a ? o.label_a : la;
		sd[1].label = o.label_b ? o.label_b : lb;
		for (k = 0; k < 2; k++)
			if (!vb_label_ok(sd[k].label))
				die("bad label '%s': " VB_LABEL_RULE,
				    sd[k].label);
		if (strcmp(sd[0].label, sd[1].label) == 0)
			die("both sides are labelled '%s'", sd[0].label);
		vb_knobs_describe(&S.knobs, 0, sd[0].desc, sizeof(sd[0].desc));
		vb_knobs_describe(&S.knobs, 1, sd[1].desc, sizeof(sd[1].desc));
		for (k = 0; k < 2; k++)
			if (!sd[k].desc[0])
				snprintf(sd[k].desc, sizeof(sd[k].desc),
				    "as found");
	} else {
		sd[0].label = o.kernel;
	}
	check_path("--config", o.config);
	check_path("--results", o.results);
	parse_limit(&o, &mem, &swap);

	/* programs live beside vmrun, wherever it was started from */
	if (vb_bindir(S.bindir, sizeof(S.bindir)) < 0)
		die_errno("cannot find my own program");

	if (vb_conf_read(o.config, &conf, err, sizeof(err)) < 0)
		die("%s", err);
	validate(&conf);

	/* the work folder: a real filesystem, not tmpfs, by default */
	find_workdir(&o, 1);
	/*
	 * The result folder: never silently overwritten.  Refused before
	 * the limit and swap file are made; with FORCE the old folder goes
	 * only once they are ready.
	 */
	if ((RN.resfd = vb_dir_open(o.results, 1, err, sizeof(err))) < 0)
		die("%s (RESULTS=)", err);
	S.sd = sd;
	S.nside = nside;
	vb_set_die_hook(die_teardown);
	for (k = 0; k < nside; k++) {
		snprintf(sd[k].dir, sizeof(sd[k].dir), "%s/%s", o.results,
		    sd[k].label);
		/* a label folder that is there: ours, no one else's, FORCE or not */
		if (fstatat(RN.resfd, sd[k].label, &st, AT_SYMLINK_NOFOLLOW) ==
		    0 && (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))) {
			int fd = vb_dir_sub(RN.resfd, sd[k].label, sd[k].dir,
			    0, err, sizeof(err));

			if (fd < 0)
				die("%s", err);
			close(fd);
		}
		lock_label(k, o.results, sd[k].label);
		if (!ab)
			runs_check(&sd[k], &o);
		else if (lstat(sd[k].dir, &st) == 0 && !o.force)
			die("%s already exists: choose another %s label, or "
			    "FORCE=1 to replace it", sd[k].dir, !ab ? "KERNEL=" :
			    k == 0 && o.label_a ? "A_LABEL=" : k == 1 &&
			    o.label_b ? "B_LABEL=" : "KERNEL=");
	}
	/*
	 * One run that changes the machine at a time; what a run killed
	 * with SIGKILL left is undone before anything (state.h).
	 */
	{
		char what[2048];

		machine_what(what, sizeof(what), sd, nside, ab, &o);
		machine_begin(ab || mem || swap, what, o.results);
	}

	/* from here on, every path undoes what the run changed */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	vb_set_die_hook(die_teardown);
	if (vb_state_begin(&S.state, S.statedir) < 0)
		die_errno("cannot write %s", S.state.path);
	/*
	 * Every run's result folders, as absolute paths (make clean-stale
	 * may run elsewhere): after a SIGKILL the next run marks a meta
	 * still "running" interrupted, and says so.
	 */
	for (k = 0; k < nside; k++) {
		state_result(k, sd[k].dir);
		state_lock(k, o.results);
	}
	if (vb_state_save(&S.state) < 0)
		die_errno("cannot write %s", S.state.path);
	if (ab) {
		if (vb_knobs_save(&S.knobs, err, sizeof(err)) < 0)
			die("%s", err);
		S.state.knobs = &S.knobs;
	}
	if (vb_state_save(&S.state) < 0)
		die_errno("cannot write %s", S.state.path);
	if (ab && vb_knobs_check(&S.knobs, err, sizeof(err)) < 0)
		die("%s", err);
	make_limit(mem, swap);
	if (stop_signal) {
		teardown();
		vb_die_status = 130;
		die("interrupted before anything ran");
	}
	if (!ab)
		runs_folder(&sd[0], &o);
	for (k = 0; k < nside && ab; k++) {
		int fd;

		if (fstatat(RN.resfd, sd[k].label, &st, AT_SYMLINK_NOFOLLOW) ==
		    0 && vb_rmtree_at(RN.resfd, sd[k].label) < 0)
			die_errno("cannot remove %s", sd[k].dir);
		if (mkdirat(RN.resfd, sd[k].label, 0755) < 0) {
			int e = errno;

			unmake_sides();
			errno = e;
			die_errno("cannot create %s", sd[k].dir);
		}
		if ((fd = vb_dir_sub(RN.resfd, sd[k].label, sd[k].dir, 0, err,
		    sizeof(err))) < 0) {
			unmake_sides();
			die("%s", err);
		}
		close(fd);
		sd[k].made = 1;
	}

	S.meta.start = vb_iso_time(S.start, sizeof(S.start));
	S.meta.workdir = S.workdir;
	S.meta.config = o.config;
	{
		/* "3", or "5-10" when lines differ (iterations=N) */
		static char itbuf[32];
		int lo = 0, hi = 0;

		for (k = 0; k < conf.nlines; k++) {
			int n = line_iterations(&conf, k, &o);

			lo = k == 0 || n < lo ? n : lo;
			hi = n > hi ? n : hi;
		}
		if (lo == hi)
			snprintf(itbuf, sizeof(itbuf), "%d", lo);
		else
			snprintf(itbuf, sizeof(itbuf), "%d-%d", lo, hi);
		S.meta.iterations = itbuf;
	}
	for (k = 0; k < 2; k++)
		if (!(S.causes[k] = calloc((size_t)conf.nlines,
		    sizeof(*S.causes[k]))))
			die("out of memory");
	S.cause = S.causes[0];
	if (ab) {
		for (k = 0; k < 2; k++) {
			sd[k].extra[38].key = "ab_setting";
			sd[k].extra[38].val = sd[k].desc;
			sd[k].extra[39].key = "ab_side";
			sd[k].extra[39].val = k ? "B" : "A";
			sd[k].extra[40].key = "ab_pair";
			sd[k].extra[40].val = (char *)sd[!k].label;
			sd[k].extra[41].key = "ab_order";
			sd[k].extra[41].val = (char *)o.order;
			/* docs/ab.md: the order of each line, the warm-up */
			sd[k].extra[42].key = "ab_start";
			sd[k].extra[42].val = "alternate";
			sd[k].extra[43].key = "ab_warmup";
			sd[k].extra[43].val = S.warmup ? "1" : "0";
		}
		S.append = 1;
		/* each iteration a separate run of the program (docs/ab.md) */
		S.meta.unit = "run-per-iteration";
		run_facts();
	} else {
		sd[0].settings = settings_now();
		memcpy(S.dir, sd[0].dir, sizeof(S.dir));
	}
	/* nothing measured yet: a side that cannot start leaves none */
	for (k = 0; k < nside; k++)
		if (side_meta(&sd[k], "running", 0, 1) < 0) {
			unmake_sides();
			die_errno("cannot write %s/meta", sd[k].dir);
		}

	t0 = vb_now_ns();
	if (ab) {
		fprintf(stderr, "vmrun: %s, %d benchmark%s, A (%s) into %s/, "
		    "B (%s) into %s/, order %s\n", o.config, conf.nlines,
		    conf.nlines == 1 ? "" : "s", sd[0].desc, sd[0].dir,
		    sd[1].desc, sd[1].dir, o.order);
		rc = run_ab(&conf, &o, sd, t0);
		failed = rc == 130 ? 0 : rc;
	} else {
		fprintf(stderr, "vmrun: %s, %d benchmark%s, into %s/\n",
		    o.config, conf.nlines, conf.nlines == 1 ? "" : "s",
		    S.dir);
		rc = run_plain(&conf, &o, sd, t0);
		failed = rc == 130 ? 0 : rc;
	}
	vb_set_die_hook(NULL);
	td_failed = teardown() < 0;
	failed += td_failed;
	machine_end(sd, nside);
	vb_machine_unlock(&S.mach);
	for (k = 0; k < nside; k++) {
		/* an A/B side's status is its own lines' (and teardown's) */
		int side_failed = ab ? sd[k].failed || td_failed : failed;
		const char *status = stop_signal || rc == 130 ?
		    "interrupted" : side_failed ? "failed" : "complete";

		/* a meta that cannot be written is a failure, not a stop */
		if (side_meta(&sd[k], status, 1, 0) < 0)
			meta_failed = 1;
		memcpy(S.dir, sd[k].dir, sizeof(S.dir));
		S.cause = S.causes[k];
		summary(&conf);
	}
	if (stop_signal || rc == 130) {
		fprintf(stderr, "vmrun: interrupted; what was measured is kept "
		    "in %s/%s%s%s, marked interrupted\n", sd[0].dir,
		    ab ? " and " : "", ab ? sd[1].dir : "", ab ? "/" : "");
		rc = meta_failed ? 1 : 130;
	} else {
		rc = failed || meta_failed || RN.failed ? 1 : 0;
		/* the report marks what is incomplete ("!") */
		if (ab)
			compare(sd);
	}
	if (!ab)
		runs_say(&sd[0]);
	for (k = 0; k < nside; k++)
		free(sd[k].settings);
	vb_knobs_free(&S.knobs);
	unlock_label();
	for (k = 0; k < 2; k++) {
		for (i = 0; i < conf.nlines; i++)
			free(S.causes[k][i]);
		free(S.causes[k]);
	}
	free(S.now);
	vb_conf_free(&conf);
	return rc;
}
