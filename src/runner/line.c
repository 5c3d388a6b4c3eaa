/*
 * line.c - one config line: its checks, the benchmark run as a program
 * (fork, progress pipe, log), the cause of its failure, the summary.
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
#include "run.h"

/*
 * Directives a config line may carry besides iterations= (src/runner/config.h).
 * Each is handled below where the benchmark is started.
 */
static const char *const known_directives[] = {
	"with",
	NULL,
};

static int
known_directive(const char *key)
{
	int i;

	for (i = 0; known_directives[i]; i++)
		if (strcmp(known_directives[i], key) == 0)
			return 1;
	return 0;
}

/* Path of program @name next to vmrun. */
char *
rn_prog_path(struct run_ctx *ctx, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", ctx->bindir, name);
	return buf;
}

/*
 * Run "@prog @args --check" quietly; on failure return -1 with the
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
 * After fork(), in a benchmark's or the probe's child: die with the
 * runner @runner, by signal @sig (a SIGKILLed runner's benchmark then
 * stops like after Ctrl-C, keeping its iterations and removing its work
 * folder; the probe gets SIGHUP, which it records as interrupted, not
 * the SIGTERM that completes it), and enter the memory limit, if any.
 */
void
rn_enter_limit(struct run_ctx *ctx, pid_t runner, int sig)
{
	prctl(PR_SET_PDEATHSIG, sig);
	/* the runner died before the prctl(): no signal comes */
	if (getppid() != runner)
		_exit(127);
	if (ctx->lim.version && vb_memlimit_enter(&ctx->lim, 0) < 0) {
		fprintf(stderr, "vmrun: cannot enter memory cgroup %s: %s\n",
		    ctx->lim.path, strerror(errno));
		_exit(127);
	}
}

/*
 * Mark the result @path @status if it says running (or, with @complete,
 * complete: an A/B side one of whose runs failed).
 */
void
rn_mark_status(const char *path, const char *status, int complete)
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

/* " (its with=NAME)" for the companion's output stem NAME@LABEL. */
static void
with_of(const char *stem, char *buf, size_t len)
{
	snprintf(buf, len, " (its with=%.*s)", (int)strcspn(stem, "@"), stem);
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
			rn_companion_name(l, stem[n], sizeof(stem[n]),
			    label);
			line[n] = l->lineno;
			probe[n++] = 1;
		}
	}
	for (i = 0; i < n && !msg[0]; i++)
		for (j = 0; j < i && !msg[0]; j++)
			if (strcmp(stem[i], stem[j]) == 0) {
				char wi[VB_NAMELEN + 16] = "";
				char wj[VB_NAMELEN + 16] = "";

				if (probe[i])
					with_of(stem[i], wi, sizeof(wi));
				if (probe[j])
					with_of(stem[j], wj, sizeof(wj));
				snprintf(msg, sizeof(msg), "%s:%d: %s.res "
				    "would be written twice: by line %d%s and "
				    "by line %d%s", c->path, line[i], stem[i],
				    line[j], wj, line[i], wi);
			}
	free(stem);
	free(line);
	free(probe);
	/* freed first: die() exits, and the sanitizers count what is left */
	if (msg[0])
		die("%s", msg);
}

/* Everything about the config that can fail, before anything runs. */
void
rn_validate(struct run_ctx *ctx, const struct vb_conf *c)
{
	char prog[PATH_MAX], msg[1024];
	int i, j;

	if (vb_conf_check_benches(c, msg, sizeof(msg)) < 0)
		die("%s", msg);
	for (i = 0; i < c->nlines; i++) {
		const struct vb_conf_line *l = &c->lines[i];

		if (access(rn_prog_path(ctx, l->bench, prog, sizeof(prog)),
		    X_OK) < 0)
			die("%s:%d: no program %s for benchmark '%s' (run "
			    "make)", c->path, l->lineno, prog, l->bench);
		for (j = 0; j < l->ndirs; j++)
			if (!known_directive(l->dirs[j].key))
				die("%s:%d: unknown directive '%s=' (known: "
				    "iterations=, with=)", c->path, l->lineno,
				    l->dirs[j].key);
		rn_companion_check(ctx, c, l);
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

/* What follow() keeps from line to line. */
struct follow {
	struct run_ctx *ctx;
	int idx, total;
	const char *label;
	uint64_t t0;		/* the suite's start */
	double done;		/* seconds of the iterations that ended */
};

/*
 * Follow the program's progress pipe ("iter I N SECONDS" lines, see
 * src/lib/harness.h) and print a line per iteration on stderr.  "error LINE"
 * lines (src/lib/msg.h) are the program's error messages: the first since
 * the last finished iteration goes into ctx->now, the cause named when the
 * program fails.
 */
static void
follow_line(void *arg, char *p)
{
	struct follow *fw = arg;
	struct run_ctx *ctx = fw->ctx;
	int it, nit;
	double secs;
	char el[32], eta[32];

	if (strncmp(p, "error ", 6) == 0) {
		if (!ctx->now)
			ctx->now = strdup(p + 6);
		return;
	}
	/* a line when each iteration ends */
	if (sscanf(p, "iter %d %d %lf", &it, &nit, &secs) != 3 || secs <= 0)
		return;
	free(ctx->now);
	ctx->now = NULL;
	fw->done += secs;
	fmt_dur(el, sizeof(el), vb_elapsed_s(fw->t0));
	if (ctx->append) {
		fprintf(stderr, "[%d/%d] %-22s %s done in %.1fs  elapsed %s\n",
		    fw->idx, fw->total, fw->label, ctx->slot, secs, el);
		return;
	}
	fmt_dur(eta, sizeof(eta), fw->done / it * (nit - it));
	fprintf(stderr, "[%d/%d] %-22s iteration %d/%d done in %.1fs  "
	    "elapsed %s  ETA %s\n", fw->idx, fw->total, fw->label, it, nit,
	    secs, el, eta);
}

static void
follow(struct run_ctx *ctx, int fd, int idx, int total, const char *label,
    uint64_t suite_t0)
{
	struct follow fw = { ctx, idx, total, label, suite_t0, 0 };

	vb_read_lines(fd, 4096, NULL, follow_line, &fw);
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
 * A benchmark killed by a signal (the OOM killer, kill -9) could not
 * mark its result or remove its work folder: its .res (@out.res) still
 * says running, and <workdir>/vmbench-<bench>.<pid> is left.  Mark the
 * one failed and remove the other.
 */
static void
after_killed(struct run_ctx *ctx, const char *bench, pid_t pid, const char *out)
{
	char path[PATH_MAX + 300];

	snprintf(path, sizeof(path), "%s/vmbench-%s.%ld", ctx->workdir, bench,
	    (long)pid);
	if (access(path, F_OK) == 0 && vb_rmtree(path) < 0)
		vb_warn_errno("cannot remove %s", path);
	snprintf(path, sizeof(path), "%s.res", out);
	rn_mark_status(path, "failed", 0);
}

/*
 * Does line @idx's program @prog take --append?  Its own option table
 * says, in its --help (the harness's common options list it; a program
 * that cannot add to a result, the probe, does not).  Asked once a line.
 */
static int
takes_append(struct run_ctx *ctx, const char *prog, int idx)
{
	char *argv[] = { (char *)prog, "--help", NULL }, *out;

	if (!ctx->appends[idx]) {
		ctx->appends[idx] = vb_run(argv, NULL, NULL, &out) == 0 &&
		    strstr(out, "\n  --append ") ? 1 : 2;
		free(out);
	}
	return ctx->appends[idx] == 1;
}

/*
 * Line @idx's program ended with @status, not 0: its cause is the
 * program's own first error line, else its log's (@logp) last line:
 * this run's, in this side's causes (A/B: not the other side's, whose
 * log this is not); said in one line.
 */
static void
line_cause(struct run_ctx *ctx, int idx, int status, const char *label,
    const char *logp)
{
	char ll[1024], how[64];

	free(ctx->cause[idx]);
	ctx->cause[idx] = ctx->now ? ctx->now : strdup(last_line(logp, ll,
	    sizeof(ll)));
	ctx->now = NULL;
	if (WIFEXITED(status))
		snprintf(how, sizeof(how), "exit status %d",
		    WEXITSTATUS(status));
	else
		snprintf(how, sizeof(how), "signal %d", WTERMSIG(status));
	vb_warn("%s failed (%s): %s; see %s", label, how,
	    ctx->cause[idx] ? ctx->cause[idx] : "(no output)", logp);
}

/*
 * Open the log @logp (A/B: added to), fork with the stop signals held
 * (@held: a stop signal before its exec() ends it, proc.h) and, in the
 * child: stdout and stderr to the log, @setup(@arg) (descriptors,
 * environment), the memory limit, death with the runner by @sig, and
 * exec @argv.  The parent gets the pid, the signals still held: it
 * records the pid where rn_on_signal() reaches it, then
 * vb_fork_release(@held).
 */
pid_t
rn_spawn(struct run_ctx *ctx, char **argv, const char *logp, int sig,
    void (*setup)(void *), void *arg, sigset_t *held)
{
	pid_t pid, runner = getpid();
	int logfd;

	/* never through a symlink, never another user's file */
	logfd = ctx->append ? vb_open_own(logp, O_WRONLY | O_APPEND, 0644) :
	    vb_create(logp, O_WRONLY, 0644);
	if (logfd < 0)
		die_errno("cannot create %s", logp);
	pid = vb_fork_held(held);
	if (pid < 0)
		die_errno("cannot fork");
	if (pid == 0) {
		vb_child_stdio(logfd);
		setup(arg);
		rn_enter_limit(ctx, runner, sig);
		execv(argv[0], argv);
		fprintf(stderr, "vmrun: cannot run %s: %s\n", argv[0],
		    strerror(errno));
		_exit(127);
	}
	close(logfd);
	return pid;
}

/* What a benchmark's child is set up with: line_child()'s argument. */
struct line_child {
	struct run_ctx *ctx;
	int *pfd;			/* the progress pipe */
};

/* In a benchmark's child: the progress pipe and the runner's variables. */
static void
line_child(void *arg)
{
	struct line_child *lc = arg;
	struct run_ctx *ctx = lc->ctx;
	char fdbuf[16];

	close(lc->pfd[0]);
	snprintf(fdbuf, sizeof(fdbuf), "%d", lc->pfd[1]);
	setenv("VMBENCH_PROGRESS_FD", fdbuf, 1);
	setenv("VMBENCH_WORKDIR", ctx->workdir, 1);
	setenv("VMBENCH_OURS", ctx->ours, 1);
}

/* Run one config line; returns the program's exit status. */
int
rn_run_line(struct run_ctx *ctx, const char *dir, const struct vb_conf *c,
    int idx, int iterations, uint64_t t0)
{
	const struct vb_conf_line *l = &c->lines[idx];
	char label[2 * VB_NAMELEN], prog[PATH_MAX], out[PATH_MAX + 256];
	char logp[PATH_MAX + 256], nit[16], with[VB_NAMELEN + 16];
	char comp[VB_NAMELEN + 1];
	char **argv;
	const char *profile = rn_companion_of(l, comp, sizeof(comp));
	int pfd[2], status, n = 0, i, probe_failed = 0, self_slot;
	struct line_child lc = { ctx, pfd };
	pid_t pid;
	sigset_t held;

	vb_conf_label(l, label, sizeof(label));
	if (profile)
		snprintf(with, sizeof(with), ", with the %s", comp);
	rn_prog_path(ctx, l->bench, prog, sizeof(prog));
	free(ctx->now);
	ctx->now = NULL;
	/* a program without --append: A/B runs it into a slot, merged after */
	self_slot = ctx->append && !takes_append(ctx, prog, idx);
	snprintf(out, sizeof(out), "%s/%s%s", dir, self_slot ? ".slot-" :
	    "", label);
	snprintf(logp, sizeof(logp), "%s/%s.log", dir, label);
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
	argv[n++] = ctx->workdir;
	if (ctx->append && !self_slot)
		argv[n++] = "--append";
	if (l->variant) {
		argv[n++] = "--variant";
		argv[n++] = l->variant;
	}
	argv[n] = NULL;

	if (pipe(pfd) < 0)
		die_errno("cannot create a pipe");
	if (!ctx->append)
		fprintf(stderr, "[%d/%d] %s: %d iteration%s%s\n", idx + 1,
		    c->nlines, label, iterations, iterations == 1 ? "" : "s",
		    profile ? with : "");
	snprintf(ctx->ours, sizeof(ctx->ours), "%ld", (long)getpid());
	if (profile)
		rn_start_companion(ctx, dir, comp, label, profile);
	pid = rn_spawn(ctx, argv, logp, SIGTERM, line_child, &lc, &held);
	running_pid = pid;
	vb_fork_release(&held);
	if (stop_signal)
		kill(pid, SIGTERM);
	close(pfd[1]);
	follow(ctx, pfd[0], idx + 1, c->nlines, label, t0);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	running_pid = 0;
	free(argv);
	probe_failed = rn_stop_companion(ctx, dir, label);
	if (self_slot && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		probe_failed |= rn_merge_slot(dir, label);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return probe_failed;
	/* what a killed program could not do itself */
	if (WIFSIGNALED(status))
		after_killed(ctx, l->bench, pid, out);
	if (stop_signal || (WIFEXITED(status) && WEXITSTATUS(status) == 130))
		return 130;
	line_cause(ctx, idx, status, label, logp);
	return 1;
}

/*
 * A/B: the results of line @i of @c in side @k's folder, the
 * benchmark's and its probe's: those that say complete (or running,
 * with @running) are made to say @status.
 */
void
rn_line_status(struct run_ctx *ctx, const struct vb_conf *c, int i, int k,
    const char *status, int running)
{
	char label[2 * VB_NAMELEN], path[PATH_MAX + 300], err[1024];
	char name[3 * VB_NAMELEN];
	struct vb_res r;
	int p;

	vb_conf_label(&c->lines[i], label, sizeof(label));
	for (p = 0; p < 1 + (vb_conf_dir(&c->lines[i], "with") != NULL);
	    p++) {
		if (p)
			rn_companion_name(&c->lines[i], name,
			    sizeof(name), label);
		snprintf(path, sizeof(path), "%s/%s.res", ctx->sd[k].dir, p ?
		    name : label);
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
void
rn_cut_short(struct run_ctx *ctx, const struct vb_conf *c, int i,
    const char *status)
{
	int k;

	for (k = 0; k < ctx->nside; k++)
		rn_line_status(ctx, c, i, k, status, 1);
}

/* Iterations of line @i: ITERATIONS=, else its iterations=, else suite's. */
int
rn_line_iterations(const struct vb_conf *c, int i, const struct opts *o)
{
	const struct vb_conf_line *l = &c->lines[i];

	return o->iterations ? (int)o->iterations : l->iterations ?
	    l->iterations : c->iterations ? c->iterations : 1;
}

/*
 * One row of the closing summary: the result @path of @label, its
 * headline figure and spread, through the harness's vb_describe();
 * @cause: why its program failed, or NULL.
 */
static void
summary_row(const char *label, const char *path, const char *cause)
{
	char err[512];
	struct vb_res r;
	struct vb_desc d;
	int m;

	if (access(path, F_OK) < 0) {
		fprintf(stderr, "%-18s (%s)\n", label, cause ? cause :
		    "not run");
		return;
	}
	if (vb_res_read(path, &r, err, sizeof(err)) < 0) {
		fprintf(stderr, "%-18s %s\n", label, err);
		if (cause)
			fprintf(stderr, "  cause: %s\n", cause);
		return;
	}
	m = vb_res_metric_index(&r, r.headline[0] ? r.headline : "elapsed");
	if (m < 0)
		m = 0;
	vb_describe(r.vals + m, (size_t)r.niter, (size_t)r.nmetrics, &d);
	if (d.n == 0)	/* nothing to describe: no nan */
		fprintf(stderr, "%-18s %-18s %11s %10s %6s %3zu  %s (%s)\n",
		    label, r.metrics[m].name, "-", "-", "-", d.n, r.status,
		    r.metrics[m].unit);
	else
		fprintf(stderr, "%-18s %-18s %11.6g %10.4g %6.2f %3zu  %s "
		    "(%s)\n", label, r.metrics[m].name, d.mean, d.sd,
		    isnan(d.cov) ? 0.0 : d.cov * 100, d.n, r.status,
		    r.metrics[m].unit);
	if (r.note)
		fprintf(stderr, "  note: %s\n", r.note);
	if (cause && strcmp(r.status, "complete") != 0)
		fprintf(stderr, "  cause: %s\n", cause);
	vb_res_free(&r);
}

/*
 * The closing summary: each benchmark's headline figure and spread,
 * and its companion's (with=) in a row of its own.
 */
void
rn_summary(struct run_ctx *ctx, const char *dir, const struct vb_conf *c)
{
	int i;

	fprintf(stderr, "\n%-18s %-18s %11s %10s %6s %3s  %s\n", "benchmark",
	    "figure", "mean", "sd", "cov%", "n", "status");
	for (i = 0; i < c->nlines; i++) {
		char label[2 * VB_NAMELEN], path[PATH_MAX + 256];
		char name[3 * VB_NAMELEN];

		vb_conf_label(&c->lines[i], label, sizeof(label));
		snprintf(path, sizeof(path), "%s/%s.res", dir, label);
		summary_row(label, path, ctx->cause[i]);
		if (!vb_conf_dir(&c->lines[i], "with"))
			continue;
		rn_companion_name(&c->lines[i], name, sizeof(name), label);
		snprintf(path, sizeof(path), "%s/%s.res", dir, name);
		if (access(path, F_OK) == 0)
			summary_row(name, path, NULL);
	}
	fprintf(stderr, "\nresults in %s/\n", dir);
}
