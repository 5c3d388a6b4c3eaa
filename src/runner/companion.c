/*
 * companion.c - the program beside a benchmark (with=NAME): started
 * with it, stopped when it ends, its result kept; what it is its
 * --help declares.
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
 * A companion is a program built here whose --help says so in a line
 * "Companion: ..." (docs/benchmarks.md): it runs beside a benchmark for
 * the benchmark's whole run, says on VMBENCH_READY_FD that it is in its
 * loop, ends its result complete on SIGUSR1 and interrupted on SIGINT
 * or SIGHUP.  Whether it can add to a result (--append) its --help says
 * too.  The runner names none: a line's with=NAME[:PROFILE] does.
 */

/* Does the program @prog's --help hold @needle?  -1: it cannot run. */
static int
help_has(const char *prog, const char *needle)
{
	char *argv[] = { (char *)prog, "--help", NULL }, *out;
	int rc;

	rc = vb_run(argv, NULL, NULL, &out) == 0 ? strstr(out, needle) !=
	    NULL : -1;
	free(out);
	return rc;
}

/* The companions built here, ", "-separated into @buf (the error's list). */
static void
known_companions(struct run_ctx *ctx, char *buf, size_t len)
{
	const char *const *b;
	char prog[PATH_MAX];
	size_t n = 0;

	buf[0] = '\0';
	for (b = vb_benches; *b && n < len; b++)
		if (help_has(rn_prog_path(ctx, *b, prog, sizeof(prog)),
		    "\nCompanion: ") == 1)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			    n ? ", " : "", *b);
}

/*
 * The companion of line @l: its name (the with= value up to ':') into
 * @name, and its profile: NULL when the line has none, "" for
 * with=NAME, PROFILE for with=NAME:PROFILE.
 */
const char *
rn_companion_of(const struct vb_conf_line *l, char *name, size_t len)
{
	const char *w = vb_conf_dir(l, "with"), *colon;

	if (!w)
		return NULL;
	colon = strchr(w, ':');
	snprintf(name, len, "%.*s", colon ? (int)(colon - w) : (int)strlen(w),
	    w);
	return colon ? colon + 1 : "";
}

/*
 * Before anything runs: die when line @l's with=NAME[:PROFILE] names no
 * companion built here or NAME refuses --profile PROFILE (its --check).
 */
void
rn_companion_check(struct run_ctx *ctx, const struct vb_conf *c,
    const struct vb_conf_line *l)
{
	const char *w = vb_conf_dir(l, "with"), *profile;
	char prog[PATH_MAX], known[1024], name[VB_NAMELEN + 1], *out;
	char *argv[] = { prog, "--profile", NULL, "--check", NULL };

	profile = rn_companion_of(l, name, sizeof(name));
	if (!profile)
		return;
	rn_prog_path(ctx, name, prog, sizeof(prog));
	if (!vb_is_bench(name) || help_has(prog, "\nCompanion: ") != 1) {
		if (vb_is_bench(name) && access(prog, X_OK) < 0)
			die("%s:%d: with=%s: no program %s", c->path,
			    l->lineno, name, prog);
		known_companions(ctx, known, sizeof(known));
		die("%s:%d: with=%s: unknown companion (known: %s)", c->path,
		    l->lineno, w, known[0] ? known : "none");
	}
	if (!*profile)
		return;
	argv[2] = (char *)profile;
	if (vb_run_both(argv, NULL, &out) != 0) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%.*s", (int)strcspn(out, "\n"),
		    out);
		free(out);
		die("%s:%d: with=%s: %s", c->path, l->lineno, w, msg);
	}
	free(out);
}

/* In the companion's child: its ready pipe as descriptor 3, and no other. */
static void
companion_child(void *arg)
{
	int *ready = arg, n;

	dup2(ready[1], 3);
	/* not the benchmark's progress pipe, or it never ends */
	for (n = 4; n < 1024; n++)
		close(n);
	setenv("VMBENCH_READY_FD", "3", 1);
}

/*
 * Start companion @name beside benchmark @label: NAME@<label>.res and
 * .log, until SIGUSR1 (rn_stop_companion()).  Waits (at most 10 s) until
 * it says on VMBENCH_READY_FD that it is in its loop, so that it covers
 * the benchmark's whole run.
 */
pid_t
rn_start_companion(struct run_ctx *ctx, const char *dir, const char *name,
    const char *label, const char *profile)
{
	char prog[PATH_MAX], out[PATH_MAX + 256], logp[PATH_MAX + 256];
	char *argv[16], c;
	int n = 0, ready[2];
	struct pollfd pfd;
	pid_t pid;
	sigset_t held;

	rn_prog_path(ctx, name, prog, sizeof(prog));
	/* A/B, a companion without --append: its run into a slot, merged */
	ctx->companion_slot = ctx->append && help_has(prog, "\n  --append ")
	    != 1;
	snprintf(out, sizeof(out), "%s/%s%s@%s", dir, ctx->companion_slot ?
	    ".slot-" : "", name, label);
	snprintf(logp, sizeof(logp), "%s/%s@%s.log", dir, name, label);
	snprintf(ctx->companion_res, sizeof(ctx->companion_res), "%s.res",
	    out);
	snprintf(ctx->companion, sizeof(ctx->companion), "%s", name);
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
	if (ctx->append && !ctx->companion_slot)
		argv[n++] = "--append";
	argv[n] = NULL;
	if (pipe2(ready, O_CLOEXEC) < 0)
		die_errno("cannot create a pipe");
	pid = rn_spawn(ctx, argv, logp, SIGHUP, companion_child, ready,
	    &held);
	close(ready[1]);
	companion_pid = pid;
	vb_fork_release(&held);
	snprintf(ctx->ours, sizeof(ctx->ours), "%ld,%ld", (long)getpid(),
	    (long)pid);
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	while (poll(&pfd, 1, 10000) < 0 && errno == EINTR && !stop_signal)
		;
	if (!(pfd.revents & POLLIN) || read(ready[0], &c, 1) != 1)
		vb_warn("the %s beside %s did not start in time; see %s",
		    name, label, logp);
	close(ready[0]);
	return pid;
}

/*
 * Stop the companion (SIGUSR1: its result is complete), reap it and,
 * A/B, add its slot to its side's result.  0, or 1 (said) when it
 * failed.
 */
int
rn_stop_companion(struct run_ctx *ctx, const char *dir, const char *label)
{
	pid_t pid = companion_pid;
	const char *name = ctx->companion;
	char stem[3 * VB_NAMELEN];
	int status, rc = 1;

	if (pid <= 0)
		return 0;
	kill(pid, stop_signal ? SIGINT : SIGUSR1);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die_errno("waitpid");
	companion_pid = 0;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
	    (stop_signal && WEXITSTATUS(status) == 130)))
		rc = 0;
	/* killed (kill -9, the OOM killer): it could not mark its result */
	else if (WIFSIGNALED(status)) {
		rn_mark_status(ctx->companion_res, "interrupted", 0);
		vb_warn("the %s beside %s was killed (signal %d): %s is "
		    "marked interrupted; see %s/%s@%s.log", name, label,
		    WTERMSIG(status), ctx->companion_res, dir, name, label);
	} else
		vb_warn("the %s beside %s failed; see %s/%s@%s.log", name,
		    label, dir, name, label);
	if (ctx->companion_slot) {
		snprintf(stem, sizeof(stem), "%s@%s", name, label);
		rc |= rn_merge_slot(dir, stem);
	}
	return rc;
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
		vb_warn("%s: the parameters or figures of %s changed between "
		    "runs", dst, name);
		rc = 1;
	} else {
		/*
		 * The side is as complete as its least complete run;
		 * "running" only said that more runs were to come
		 * (abrun.c), so this run's status replaces it.
		 */
		if (strcmp(b.status, "complete") != 0 ||
		    strcmp(a.status, "running") == 0)
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

/* The results' name of line @l's companion beside @label into @buf. */
char *
rn_companion_name(const struct vb_conf_line *l, char *buf, size_t len,
    const char *label)
{
	const char *w = vb_conf_dir(l, "with");

	snprintf(buf, len, "%.*s@%s", (int)strcspn(w, ":"), w, label);
	return buf;
}
