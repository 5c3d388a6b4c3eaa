/*
 * runs.c - the runs of a label: RESULTS/LABEL/runN/ checked, made and
 * counted (the folder rule is src/lib/runs.h).
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
#include "size.h"
#include "stats.h"
#include "util.h"
#include "swapfile.h"
#include "knob.h"
#include "label.h"
#include "state.h"
#include "ab.h"
#include "proc.h"
#include "quiet.h"
#include "parentwatch.h"
#include "proc.h"
#include "runs.h"
#include <linux/magic.h>
#include "run.h"

/* The boot id and uptime of now into the meta of the run(s) begun. */
void
rn_run_facts(struct run_ctx *ctx)
{
	ctx->meta.boot_id = vb_boot_id(ctx->rn.boot_id,
	    sizeof(ctx->rn.boot_id));
	ctx->meta.uptime_start = vb_uptime(ctx->rn.uptime,
	    sizeof(ctx->rn.uptime));
}

/*
 * Append "what (old, this run new)" to @why when a run's @old value of
 * a setting that changes what the benchmarks do is not this run's @now.
 */
static void
differs(char *why, size_t len, const char *what, const char *old,
    const char *now)
{
	size_t l = strlen(why);

	if (!strcmp(old, now) || l >= len)
		return;
	snprintf(why + l, len - l, "%s%s %s (this run %s)", l ? ", " : "",
	    what, old, now);
}

/*
 * What this run does differently from a run whose meta is @kv (@n
 * pairs): the iterations (ITERATIONS= or the config's), --cpus, --mem
 * and --swap, each "what old (this run new)" into @why ("" when none).
 * A run made before its meta recorded iterations is not asked them.
 */
static void
run_settings_diff(const struct run_ctx *ctx, const struct opts *o,
    struct vb_kv *kv, int n, char *why, size_t len)
{
	char mem[32] = "none", swap[32] = "none", err[VB_ERRLEN];
	const char *v, *sp;
	uint64_t sz;

	why[0] = '\0';
	v = vb_meta_get(kv, n, "iterations");
	if (v && strcmp(v, "-") && ctx->meta.iterations)
		differs(why, len, "iterations", v, ctx->meta.iterations);
	v = vb_meta_get(kv, n, "cpus");
	differs(why, len, "cpus", v ? v : "all", o->cpus ? o->cpus : "all");
	if (o->mem && vb_parse_size(o->mem, 0, UINT64_MAX, &sz, err) == 0)
		vb_fmt_size(mem, sizeof(mem), sz);
	v = vb_meta_get(kv, n, "mem_limit");
	differs(why, len, "mem limit", v ? v : "none", mem);
	if (o->swap && vb_parse_size(o->swap, 0, UINT64_MAX, &sz, err) == 0)
		vb_fmt_size(swap, sizeof(swap), sz);
	/* swap_file: "PATH SIZE" */
	v = vb_meta_get(kv, n, "swap_file");
	sp = v ? strrchr(v, ' ') : NULL;
	differs(why, len, "swap file", sp ? sp + 1 : v ? v : "none", swap);
}

/*
 * A run already in the label must have been made with this config and
 * on this machine, and not by make ab: the runs of a label are
 * repetitions of one thing, so also with the same iterations, CPUs,
 * memory limit and swap file (run_settings_diff()).  @meta is its meta
 * file, @idx its index (a run at the top: 1).
 */
static void
run_same(struct run_ctx *ctx, const char *meta, int idx,
    const struct opts *o, const char *cks)
{
	const char *config = o->config;
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
		    "use another label or FORCE=1", ctx->rn.dir);
	v = vb_meta_get(kv, n, "config_cksum");
	if (v && strcmp(v, "unknown") && strcmp(cks, "unknown") &&
	    strcmp(v, cks)) {
		die("%s: run%d used %s (cksum %s), this run %s (cksum %s): "
		    "use another label or FORCE=1", ctx->rn.dir, idx,
		    vb_meta_get(kv, n, "config") ? vb_meta_get(kv, n,
		    "config") : "an unnamed config", v, config, cks);
	}
	if (vb_meta_machine_diff(kv, n, NULL, 0, "here", why,
	    sizeof(why)) > 0)
		die("%s: run%d ran on another machine: %s: use another label "
		    "or FORCE=1", ctx->rn.dir, idx, why);
	run_settings_diff(ctx, o, kv, n, why, sizeof(why));
	if (why[0])
		die("%s: run%d differs from this run in %s: use another label, "
		    "or FORCE=1 to start the label over", ctx->rn.dir, idx,
		    why);
	vb_meta_free(kv, n);
}

/*
 * Before anything runs: what results/<label> holds.  Nothing (a new
 * label), runN/ folders, or one run at its top (meta: an older folder,
 * moved into run1/ before this run begins).  A run of another config
 * or another machine is refused.  With --force everything there goes.
 */
void
rn_runs_check(struct run_ctx *ctx, const struct side *sd, const struct opts *o)
{
	char path[PATH_MAX + NAME_MAX + 2], cks[64];
	struct vb_runs r;
	struct stat st;
	int n;

	memcpy(ctx->rn.dir, sd->dir, sizeof(ctx->rn.dir));
	if (o->force)
		return;
	if (lstat(ctx->rn.dir, &st) < 0) {
		if (errno != ENOENT)
			die_errno("%s", ctx->rn.dir);
		return;
	}
	if (!S_ISDIR(st.st_mode))
		die("%s exists and is not a folder: choose another KERNEL= "
		    "label, or FORCE=1 to replace it", ctx->rn.dir);
	if (vb_runs_scan(ctx->rn.dir, &r) < 0)
		die_errno("cannot read %s", ctx->rn.dir);
	ctx->rn.flat = r.flat;
	ctx->rn.last = r.last;
	/* an empty runN/ (a run that never began) is not a run */
	ctx->rn.empty = r.empty < r.last ? 0 : r.empty;
	if (ctx->rn.flat && ctx->rn.last > 1)
		die("%s holds a run at its top (meta) and run folders up to "
		    "run%d: move one or the other away, or FORCE=1 to replace "
		    "it all", ctx->rn.dir, ctx->rn.last);
	if (!ctx->rn.flat && !ctx->rn.last && r.other[0])
		die("%s holds no run (no meta, no run1/, but '%s'): choose "
		    "another KERNEL= label, or FORCE=1 to replace it",
		    ctx->rn.dir, r.other);
	vb_meta_cksum(o->config, cks, sizeof(cks));
	if (ctx->rn.flat) {
		snprintf(path, sizeof(path), "%s/meta", ctx->rn.dir);
		run_same(ctx, path, 1, o, cks);
	}
	for (n = 1; !ctx->rn.flat && n <= ctx->rn.last; n++) {
		vb_run_path(path, sizeof(path) - 5, ctx->rn.dir, n);
		strcat(path, "/meta");
		run_same(ctx, path, n, o, cks);
	}
}

/*
 * Move @name of the label's top (@lfd) into run1/ (@r1fd); never over
 * something.  renameat(): by name in the two checked folders.
 */
static void
move_entry(struct run_ctx *ctx, int lfd, int r1fd, const char *name)
{
	struct stat st;

	if (fstatat(r1fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		die("cannot move %s/%s into %s/run1/: %s/run1/%s is there "
		    "already", ctx->rn.dir, name, ctx->rn.dir, ctx->rn.dir,
		    name);
	if (renameat(lfd, name, r1fd, name) < 0)
		die_errno("cannot move %s/%s to %s/run1/%s", ctx->rn.dir, name,
		    ctx->rn.dir, name);
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
move_flat(struct run_ctx *ctx)
{
	char r1[PATH_MAX + 8], **names = NULL, err[PATH_MAX + 128];
	const char *label = strrchr(ctx->rn.dir, '/') ? strrchr(ctx->rn.dir,
	    '/') + 1 : ctx->rn.dir;
	struct dirent *de;
	DIR *d;
	int n = 0, i, lfd, r1fd, fd;

	snprintf(r1, sizeof(r1), "%s/run1", ctx->rn.dir);
	if ((lfd = vb_dir_sub(ctx->rn.resfd, label, ctx->rn.dir, 0, err,
	    sizeof(err))) < 0)
		die("%s", err);
	if ((r1fd = vb_dir_sub(lfd, "run1", r1, 1, err, sizeof(err))) < 0)
		die("%s", err);
	if ((fd = dup(lfd)) < 0 || !(d = fdopendir(fd)))
		die_errno("cannot read %s", ctx->rn.dir);
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
		move_entry(ctx, lfd, r1fd, names[i]);
		free(names[i]);
	}
	free(names);
	move_entry(ctx, lfd, r1fd, "meta");
	close(r1fd);
	close(lfd);
	ctx->rn.last = 1;
	fprintf(stderr, "vmrun: %s held one run (meta at its top): moved into "
	    "%s/, each entry renamed, meta last\n", ctx->rn.dir, r1);
}

/*
 * Make run @idx's folder and point the side, the state file
 * (a SIGKILLed run's meta is marked by the next) and meta at it.
 */
static void
run_dir(struct run_ctx *ctx, struct side *sd, int idx)
{
	char dir[PATH_MAX + 16];

	vb_run_path(dir, sizeof(dir), ctx->rn.dir, idx);
	if (strlen(dir) >= sizeof(sd->dir))
		die("%s: path too long", dir);
	memcpy(sd->dir, dir, strlen(dir) + 1);
	if (mkdir(sd->dir, 0755) < 0)
		die_errno("cannot create %s", sd->dir);
	sd->made = 1;
	rn_state_result(ctx, 0, sd->dir);
	if (vb_state_save(&ctx->state) < 0)
		die_errno("cannot write %s", ctx->state.path);
	ctx->meta.run = idx;
	rn_run_facts(ctx);
}

/*
 * The label's folder, once the limit and swap file are ready: replaced
 * with --force, an older one-run folder moved into run1/, and the
 * folder of this call's first run made.
 */
void
rn_runs_folder(struct run_ctx *ctx, struct side *sd, const struct opts *o)
{
	struct stat st;

	const char *label = strrchr(ctx->rn.dir, '/') ? strrchr(ctx->rn.dir,
	    '/') + 1 : ctx->rn.dir;
	char path[PATH_MAX + 16], err[PATH_MAX + 128];
	int n, fd;

	/* through folder descriptors: no path resolved twice */
	if (o->force && fstatat(ctx->rn.resfd, label, &st,
	    AT_SYMLINK_NOFOLLOW) == 0 && vb_rmtree_at(ctx->rn.resfd, label) < 0)
		die_errno("cannot remove %s", ctx->rn.dir);
	if (mkdirat(ctx->rn.resfd, label, 0755) == 0)
		ctx->rn.made = 1;
	else if (errno != EEXIST)
		die_errno("cannot create %s", ctx->rn.dir);
	if ((fd = vb_dir_sub(ctx->rn.resfd, label, ctx->rn.dir, 0, err,
	    sizeof(err))) < 0)
		die("%s", err);
	close(fd);
	if (ctx->rn.flat)
		move_flat(ctx);
	/* empty run folders after the last run: this call numbers from it */
	for (n = ctx->rn.empty; n > ctx->rn.last; n--) {
		vb_run_path(path, sizeof(path), ctx->rn.dir, n);
		if (rmdir(path) < 0 && errno != ENOENT)
			die_errno("cannot remove the empty %s", path);
	}
	ctx->rn.first = ctx->rn.last + 1;
	run_dir(ctx, sd, ctx->rn.first);
}

/*
 * Between two runs of one call: close run @sd (its meta's status and
 * end, its summary, a line saying it ended), then begin run @idx in its
 * own folder with the settings, start time, boot id and uptime of now.
 */
static void
run_next(struct run_ctx *ctx, const struct vb_conf *c, struct side *sd,
    int failed, int idx)
{
	const char *status = failed ? "failed" : "complete";
	int i, beside;

	/* the runs beside this one are this one's, not the next's */
	beside = rn_machine_end(ctx, sd, 1);
	if (rn_side_meta(ctx, sd, status, 1, 0) < 0)
		failed = 1;
	if (beside)
		ctx->nextra--;
	rn_machine_next(ctx);
	ctx->rn.failed += failed != 0;
	rn_summary(ctx, sd->dir, c);
	fprintf(stderr, "vmrun: %s: %s (run %d of %d)\n", sd->dir, status,
	    idx - ctx->rn.first, ctx->rn.n);
	sd->written = 0;
	sd->peak_kb = 0;
	sd->hits = 0;
	for (i = 0; i < c->nlines; i++) {
		free(ctx->cause[i]);
		ctx->cause[i] = NULL;
	}
	free(sd->settings);
	sd->settings = rn_settings_now(ctx);
	rn_quiet_wait(ctx);
	vb_iso_time(ctx->start, sizeof(ctx->start));
	run_dir(ctx, sd, idx);
	if (rn_side_meta(ctx, sd, "running", 0, 1) < 0) {
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
int
rn_run_plain(struct run_ctx *ctx, const struct vb_conf *c, const struct opts *o,
    struct side *sd, uint64_t t0)
{
	int r, i, rc, failed = 0;

	for (r = 0; r < ctx->rn.n; r++) {
		if (r > 0)
			run_next(ctx, c, sd, failed, ctx->rn.first + r);
		failed = 0;
		if (ctx->rn.n > 1)
			fprintf(stderr, "vmrun: run %d of %d into %s/\n", r + 1,
			    ctx->rn.n, sd->dir);
		for (i = 0; i < c->nlines && !stop_signal; i++) {
			int n = rn_line_iterations(c, i, o);
			char label[2 * VB_NAMELEN];
			uint64_t hits = rn_limit_hits(ctx);

			rc = rn_run_line(ctx, sd->dir, c, i, n, t0);
			vb_conf_label(&c->lines[i], label, sizeof(label));
			rn_limit_after(ctx, sd, hits, label);
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
void
rn_runs_say(struct run_ctx *ctx, const struct side *sd)
{
	char path[PATH_MAX + NAME_MAX + 8], err[1024], (*boot)[64] = NULL;
	struct dirent *de;
	struct vb_kv *kv;
	DIR *d;
	int nruns = 0, nboots = 0, nbad = 0, nunk = 0, n, i;

	snprintf(path, sizeof(path), "%s/meta", sd->dir);
	if (ctx->rn.n > 1 && vb_meta_read(path, &kv, &n, err,
	    sizeof(err)) == 0) {
		const char *st = vb_meta_get(kv, n, "status");

		fprintf(stderr, "vmrun: %s: %s (run %d of %d)\n", sd->dir,
		    st ? st : "unknown", ctx->meta.run - ctx->rn.first + 1,
		    ctx->rn.n);
		vb_meta_free(kv, n);
	}
	if (!(d = opendir(ctx->rn.dir)))
		return;
	while ((de = readdir(d))) {
		const char *b = NULL, *st = NULL;

		if (!vb_run_index(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/meta", ctx->rn.dir,
		    de->d_name);
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
	fprintf(stderr, "vmrun: %s: %d run%s on %d boot%s", ctx->rn.dir, nruns,
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
 * --quiet: before a run, wait until other processes use less than the
 * threshold (src/lib/quiet.h), at most --quiet-wait; the wait's figures
 * go into the run's meta (quiet_waited_s, quiet_cpu, quiet_timeout).  A
 * signal during the wait sets stop_signal and ends it.
 */
void
rn_quiet_wait(struct run_ctx *ctx)
{
	struct vb_quiet q = { .threshold = ctx->quiet_pct,
	    .max_s = ctx->quiet_max_s };

	if (!(ctx->quiet_pct > 0))
		return;
	vb_catch_signals(rn_on_signal);
	if (vb_quiet_before(&q, &ctx->quiet, "vmrun", "run", &stop_signal) < 0)
		die_errno("--quiet: cannot read /proc/stat");
}
