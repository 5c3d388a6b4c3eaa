/*
 * abrun.c - make ab: the lines of a config run for two settings in an
 * ABBA order (src/lib/ab.h), each side into its own result folder.
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
 * make ab: side @s's settings in force before a run of it, when @*cur
 * (the side whose settings are in force, -1 for none) is the other;
 * the side's meta, with its settings as they were then, on the first.
 */
static void
ab_switch(struct run_ctx *ctx, struct side *sd, int s, int *cur)
{
	char err[1024];

	if (s == *cur)
		return;
	if (vb_knobs_apply(&ctx->knobs, s, err, sizeof(err)) < 0)
		die("%s", err);
	if (vb_memlimit_sync(&ctx->lim) < 0)
		die_errno("cannot set memory.swappiness in %s", ctx->lim.path);
	*cur = s;
	if (!sd[s].settings) {
		sd[s].settings = rn_settings_now(ctx);
		rn_side_meta(ctx, &sd[s], "running", 0, 0);
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
ab_warmup(struct run_ctx *ctx, const struct vb_conf *c, int i, struct side *sd,
    int s, uint64_t t0)
{
	char label[2 * VB_NAMELEN], dir[PATH_MAX];
	int rc;

	vb_conf_label(&c->lines[i], label, sizeof(label));
	if ((size_t)snprintf(dir, sizeof(dir), "%s/warmup", sd[s].dir) >=
	    sizeof(dir))
		die("%s/warmup: path too long", sd[s].dir);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create %s", dir);
	snprintf(ctx->slot, sizeof(ctx->slot), "warm-up %c (%s), discarded",
	    "AB"[s], sd[s].desc);
	ctx->cause = ctx->causes[s];
	rc = rn_run_line(ctx, dir, c, i, 1, t0);
	if (rc == 130)
		return 130;
	if (rc) {
		vb_warn("%s: the warm-up run failed (kept apart in %s/); the "
		    "measured runs go on", label, dir);
		free(ctx->cause[i]);
		ctx->cause[i] = NULL;
	}
	return 0;
}

/*
 * make ab: each config line's iterations, A's and B's, in the order's
 * pattern (A and B swapped on every other line, so that the side that
 * starts alternates), each a run of the program with --iterations 1
 * --append into its side's folder, with that side's settings written
 * just before; with ctx->warmup, after a discarded warm-up run of the line
 * under the side that starts it.  Returns the number of failed lines,
 * or 130 after a signal.
 */
int
rn_run_ab(struct run_ctx *ctx, const struct vb_conf *c, const struct opts *o,
    struct side *sd, uint64_t t0)
{
	char sched[2 * 100000 + 1], lorder[17];
	int i, k, failed = 0, cur = -1;
	uint64_t hits;

	ctx->conf = c;
	for (i = 0; i < c->nlines && !stop_signal; i++) {
		int n = rn_line_iterations(c, i, o), rc, line_failed = 0;
		char label[2 * VB_NAMELEN];

		ctx->ab_line = i;
		vb_conf_label(&c->lines[i], label, sizeof(label));
		vb_ab_line_order(o->order, i, lorder);
		vb_ab_schedule(lorder, n, sched);
		fprintf(stderr, "[%d/%d] %s: %d iteration%s a side, %.16s%s",
		    i + 1, c->nlines, label, n, n == 1 ? "" : "s", sched,
		    strlen(sched) > 16 ? "..." : "");
		if (ctx->warmup)
			fprintf(stderr, ", after a discarded warm-up run under "
			    "%c", sched[0]);
		fputc('\n', stderr);
		if (ctx->warmup) {
			ab_switch(ctx, sd, sched[0] == 'B', &cur);
			if (ab_warmup(ctx, c, i, sd, sched[0] == 'B',
			    t0) == 130) {
				ctx->ab_line = -1;
				return 130;
			}
		}
		for (k = 0; sched[k] && !stop_signal; k++) {
			int s = sched[k] == 'B';

			ab_switch(ctx, sd, s, &cur);
			ctx->cause = ctx->causes[s];
			snprintf(ctx->slot, sizeof(ctx->slot), "%c %d/%d (%s)",
			    sched[k], k + 1, 2 * n, sd[s].desc);
			hits = rn_limit_hits(ctx);
			rc = rn_run_line(ctx, sd[s].dir, c, i, 1, t0);
			rn_limit_after(ctx, &sd[s], hits, label);
			if (rc == 130)
				break;
			/*
			 * A side with runs to come is not complete yet: its
			 * result says running until its last run (so also
			 * after a SIGKILL of vmrun), as a plain run's does.
			 */
			if (strchr(sched + k + 1, sched[k]))
				rn_line_status(ctx, c, i, s, "running", 0);
			if (rc) {
				sd[s].failed = 1;
				line_failed |= 1 << s;
			}
		}
		/* stopped before the line's last run: both sides say so */
		if (sched[k]) {
			rn_cut_short(ctx, c, i, "interrupted");
			ctx->ab_line = -1;
			return 130;
		}
		/* a side one of whose runs failed: its result says so */
		for (k = 0; k < 2; k++)
			if (line_failed & (1 << k)) {
				char path[PATH_MAX + 300];

				snprintf(path, sizeof(path), "%s/%s.res",
				    sd[k].dir, label);
				rn_mark_status(path, "failed", 1);
			}
		failed += line_failed != 0;
	}
	ctx->ab_line = -1;
	return stop_signal ? 130 : failed;
}
