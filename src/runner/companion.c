/*
 * companion.c - the program beside a benchmark (with=probe): started
 * with it, stopped when it ends, its result kept.
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

/* The one companion program: with=probe (docs/benchmarks.md). */
static const char companion[] = "probe";

/*
 * The profile of a with= directive: NULL when the line has none, "" for
 * with=probe, "audio" or "video" for with=probe:PROFILE; dies on
 * anything else.
 */
const char *
rn_probe_profile(struct run_ctx *ctx, const struct vb_conf *c,
    const struct vb_conf_line *l)
{
	const char *w = vb_conf_dir(l, "with");
	char prog[PATH_MAX];

	if (!w)
		return NULL;
	if (strcmp(w, "probe") && strcmp(w, "probe:audio") &&
	    strcmp(w, "probe:video"))
		die("%s:%d: with=%s: unknown companion (known: probe, "
		    "probe:audio, probe:video)", c->path, l->lineno, w);
	if (access(rn_prog_path(ctx, "probe", prog, sizeof(prog)), X_OK) < 0)
		die("%s:%d: with=probe: no program %s", c->path, l->lineno,
		    prog);
	return w[5] ? w + 6 : "";
}

/*
 * Start the probe beside benchmark @label: probe@<label>.res and .log,
 * until SIGUSR1 (stop_probe()).  Waits (at most 10 s) until the probe
 * says on VMBENCH_READY_FD that it is calibrated and in its loop, so that
 * it covers the benchmark's whole run.
 */
pid_t
rn_start_probe(struct run_ctx *ctx, const char *dir, const char *label,
    const char *profile)
{
	char prog[PATH_MAX], out[PATH_MAX + 256], logp[PATH_MAX + 256];
	char *argv[16], c;
	int n = 0, logfd, ready[2];
	struct pollfd pfd;
	pid_t pid, runner = getpid();
	sigset_t held;

	rn_prog_path(ctx, "probe", prog, sizeof(prog));
	/* A/B: each run of the probe is added to its side's result after */
	snprintf(out, sizeof(out), "%s/%sprobe@%s", dir, ctx->append ?
	    ".slot-" : "", label);
	snprintf(logp, sizeof(logp), "%s/probe@%s.log", dir, label);
	snprintf(ctx->probe_res, sizeof(ctx->probe_res), "%s.res", out);
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
	argv[n++] = ctx->workdir;
	argv[n] = NULL;
	/* never through a symlink, never another user's file */
	logfd = ctx->append ? vb_open_own(logp, O_WRONLY | O_APPEND, 0644) :
	    vb_create(logp, O_WRONLY, 0644);
	if (logfd < 0)
		die_errno("cannot create %s", logp);
	if (pipe2(ready, O_CLOEXEC) < 0)
		die_errno("cannot create a pipe");
	/* a stop signal before its exec() ends it (proc.h) */
	pid = vb_fork_held(&held);
	if (pid < 0)
		die_errno("cannot fork");
	if (pid == 0) {
		vb_child_stdio(logfd);
		dup2(ready[1], 3);
		/* not the benchmark's progress pipe, or it never ends */
		for (n = 4; n < 1024; n++)
			close(n);
		setenv("VMBENCH_READY_FD", "3", 1);
		rn_enter_limit(ctx, runner, SIGHUP);
		execv(prog, argv);
		fprintf(stderr, "vmrun: cannot run %s: %s\n", prog,
		    strerror(errno));
		_exit(127);
	}
	close(logfd);
	close(ready[1]);
	probe_pid = pid;
	vb_fork_release(&held);
	snprintf(ctx->ours, sizeof(ctx->ours), "%ld,%ld", (long)getpid(),
	    (long)pid);
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
int
rn_stop_probe(struct run_ctx *ctx, const char *dir, const char *label)
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
		rn_mark_status(ctx->probe_res, "interrupted", 0);
		vb_warn("the probe beside %s was killed (signal %d): %s is "
		    "marked interrupted; see %s/probe@%s.log", label,
		    WTERMSIG(status), ctx->probe_res, dir, label);
		return 1;
	}
	vb_warn("the probe beside %s failed; see %s/probe@%s.log", label,
	    dir, label);
	return 1;
}

/*
 * A/B: add the result of one run of a program that cannot append
 * itself (the probe: .slot-NAME.res) to its side's NAME.res.  0, or 1
 * (said) when it cannot.
 */
int
rn_merge_slot(const char *dir, const char *name)
{
	char src[PATH_MAX + 300], dst[PATH_MAX + 300], err[1024];
	struct vb_res a, b;
	int rc = 0;

	snprintf(src, sizeof(src), "%s/.slot-%s.res", dir, name);
	snprintf(dst, sizeof(dst), "%s/%s.res", dir, name);
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

const char *
rn_companion(void)
{
	return companion;
}

char *
rn_companion_name(char *buf, size_t len, const char *label)
{
	snprintf(buf, len, "%s@%s", companion, label);
	return buf;
}

void
rn_companion_summary(const char *dir, const char *label)
{
	char path[PATH_MAX + 300], err[512];
	struct vb_res r;

	snprintf(path, sizeof(path), "%s/%s@%s.res", dir, companion, label);
	if (vb_res_read(path, &r, err, sizeof(err)) == 0) {
		int p = vb_res_metric_index(&r, "played_s");
		int t = vb_res_metric_index(&r, "total_s");

		if (p >= 0 && t >= 0 && r.niter > 0 &&
		    vb_res_get(&r, 0, t) > 0)
			fprintf(stderr, "  probe: played %.*f of %.*f "
			    "seconds (%.0f%%), %s\n",
			    vb_res_get(&r, 0, t) < 100, vb_res_get(&r,
			    0, p), vb_res_get(&r, 0, t) < 100,
			    vb_res_get(&r, 0, t), 100 * vb_res_get(&r,
			    0, p) / vb_res_get(&r, 0, t), r.status);
		vb_res_free(&r);
	}
}
