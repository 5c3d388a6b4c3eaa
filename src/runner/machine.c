/*
 * machine.c - what a run holds and must give back: the label locks,
 * the machine record, the memory limit and swap file, the state file,
 * each side's meta, and the teardown on every path.
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
 * Remove the memory limit and the swap file (in that order: the cgroup's
 * processes are killed first, so nothing is using the swap any more);
 * idempotent.  -1 when either is left behind (said on stderr).
 */
int
rn_teardown(struct run_ctx *ctx)
{
	char err[1024];
	int rc = 0;

	if (companion_pid > 0) {
		kill(companion_pid, SIGINT);
		waitpid(companion_pid, NULL, 0);
		companion_pid = 0;
	}

	if (vb_memlimit_remove(&ctx->lim, err, sizeof(err)) < 0) {
		vb_warn("%s", err);
		rc = -1;
	}
	if (vb_swapfile_remove(&ctx->swp, err, sizeof(err)) < 0) {
		vb_warn("%s", err);
		rc = -1;
	}
	if (vb_knobs_restore(&ctx->knobs)) {
		vb_warn("could not restore every setting; see %s",
		    ctx->state.path);
		rc = -1;
	}
	/* the state file stays when something could not be undone */
	if (rc == 0)
		vb_state_end(&ctx->state);
	return rc;
}

/*
 * Write side @sd's meta with @status: the run's pairs, then the side's
 * (ab_*), and its settings as they were while it ran.  -1 (said on
 * stderr unless @quiet) when it cannot be written, errno set.
 */
int
rn_side_meta(struct run_ctx *ctx, struct side *sd, const char *status,
    int ended, int quiet)
{
	char end[32], path[PATH_MAX + 8];
	struct vb_meta_in m = ctx->meta;
	int i, e;

	m.label = sd->label;
	m.status = status;
	m.end = ended ? vb_iso_time(end, sizeof(end)) : NULL;
	sd->nextra = 0;
	snprintf(sd->peak_s, sizeof(sd->peak_s), "%.0f", sd->peak_kb);
	snprintf(sd->hits_s, sizeof(sd->hits_s), "%llu",
	    (unsigned long long)sd->hits);
	for (i = 0; i < ctx->nextra; i++) {
		sd->extra[sd->nextra] = ctx->extra[i];
		/* the limit's figures are the side's own */
		if (strcmp(ctx->extra[i].key, "mem_limit_peak_kb") == 0)
			sd->extra[sd->nextra].val = sd->peak_s;
		if (strcmp(ctx->extra[i].key, "mem_limit_hits") == 0)
			sd->extra[sd->nextra].val = sd->hits_s;
		sd->nextra++;
	}
	for (i = 0; i < sd->nab; i++)
		sd->extra[sd->nextra++] = sd->ab[i];
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
void
rn_unmake_sides(struct run_ctx *ctx)
{
	int k, e = errno;

	for (k = 0; k < ctx->nside; k++)
		if (ctx->sd[k].made) {
			if (vb_rmtree(ctx->sd[k].dir) < 0)
				vb_warn_errno("cannot remove %s",
				    ctx->sd[k].dir);
			ctx->sd[k].made = ctx->sd[k].written = 0;
		}
	/* a label folder this call made holds nothing now */
	if (ctx->rn.made && rmdir(ctx->rn.dir) == 0)
		ctx->rn.made = 0;
	errno = e;
}

/* Give up the labels (label.h). */
void
rn_unlock_label(struct run_ctx *ctx)
{
	vb_label_unlock(&ctx->lk[0]);
	vb_label_unlock(&ctx->lk[1]);
}

/*
 * die() once anything exists: remove the limit and the swap file, mark
 * meta failed (it would stay "running") and give up the label.
 */
static void
die_teardown(void *arg)
{
	struct run_ctx *ctx = arg;
	int k;

	rn_teardown(ctx);
	/* an A/B line cut short: both sides' results say failed */
	if (ctx->ab_line >= 0)
		rn_cut_short(ctx, ctx->conf, ctx->ab_line, "failed");
	vb_machine_unlock(&ctx->mach);
	for (k = 0; k < ctx->nside; k++)
		if (ctx->sd[k].written)
			rn_side_meta(ctx, &ctx->sd[k], "failed", 1, 0);
	rn_unlock_label(ctx);
}

/* Add @key=@val to @kv (*@n of @max); one more than @max: a bug. */
static void
kv_add(struct vb_kv *kv, int *n, int max, const char *key, const char *val)
{
	if (*n >= max)
		die("internal: more than %d pairs for meta (%s)", max, key);
	kv[*n].key = (char *)key;
	kv[(*n)++].val = (char *)val;
}

/* Add @key=@val to every meta of the run. */
void
rn_extra_add(struct run_ctx *ctx, const char *key, const char *val)
{
	kv_add(ctx->extra, &ctx->nextra, RN_EXTRA, key, val);
}

/* Add @key=@val to side @sd's meta. */
void
rn_ab_add(struct side *sd, const char *key, const char *val)
{
	kv_add(sd->ab, &sd->nab, RN_AB_PAIRS, key, val);
}

/* die() from now on undoes what @ctx holds (die_teardown()). */
void
rn_die_hook(struct run_ctx *ctx)
{
	vb_set_die_hook(die_teardown, ctx);
}

/*
 * One run of a label at a time (label.h): RESULTS/.LABEL.lock, beside
 * the result folder (which --force removes and makes again), held until
 * vmrun exits; a second run is refused before it touches anything.  The
 * file is removed at the end, and by the next run or make clean-stale
 * when its run was killed (state.c).
 */
void
rn_lock_label(struct run_ctx *ctx, int k, const char *results,
    const char *label)
{
	char err[PATH_MAX + 300];

	if (vb_label_lock(&ctx->lk[k], results, label, err, sizeof(err)) < 0)
		die("%s", err);
}

/*
 * What this run changes on the machine, for the machine record and so
 * for the runs beside it: "results/x-A, results/x-B: thp=never |
 * thp=always; memory limit 64M; swap file 256M".
 */
void
rn_machine_what(char *buf, size_t len, const struct side *sd, int nside,
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
void
rn_machine_begin(struct run_ctx *ctx, int changes, const char *what,
    const char *results)
{
	const char *root = getenv("VMBENCH_SYSROOT");
	char mdir[4096], err[1024];
	int rc, own = geteuid() == 0 || (root && *root);

	vb_machine_dir(mdir, sizeof(mdir));
	if (vb_state_dir(ctx->statedir, sizeof(ctx->statedir), err,
	    sizeof(err)) < 0)
		die("%s", err);
	if (changes && own) {
		/* a signal ends the wait (flock() returns EINTR) */
		vb_catch_signals(rn_on_signal);
		if (vb_machine_lock(&ctx->mach, mdir, what, 1, &stop_signal,
		    err, sizeof(err)) < 0) {
			if (stop_signal)
				vb_die_status = 130;
			die("%s", stop_signal ? "interrupted while waiting "
			    "for the machine" : err);
		}
		if (vb_state_recover(ctx->statedir, ctx->workdir, results,
		    1) < 0)
			die("could not undo what an earlier run left; see "
			    "above");
		vb_state_others(ctx->statedir, ctx->beside,
		    sizeof(ctx->beside));
		return;
	}
	rc = own ? vb_machine_lock(&ctx->mach, mdir, NULL, 0, NULL,
	    err, sizeof(err)) : 1;
	if (rc < 0)
		die("%s", err);
	if (vb_state_recover(ctx->statedir, ctx->workdir, results, rc == 0) < 0)
		die("could not undo what an earlier run left; see above");
	vb_machine_unlock(&ctx->mach);
	if (vb_machine_peek(mdir, &ctx->seen) < 0)
		memset(&ctx->seen, 0, sizeof(ctx->seen));
	if (ctx->seen.pid)
		vb_warn("pid %ld is changing this machine (%s): this run is "
		    "marked as run beside it", ctx->seen.pid, ctx->seen.what);
}

/*
 * At the end of a run (with --runs, of each): the runs that ran beside
 * it, in meta (concurrent=..., the last of ctx->extra: 1 when added) and
 * as a note in each result, which every view of the report shows ("!
 * label: ...").  A run that changed nothing looks whether one that
 * changes the machine held the lock at its start or end, or took it in
 * between (the record's count moved); one that changed it names the
 * runs live at its start or end.
 */
int
rn_machine_end(struct run_ctx *ctx, struct side *sd, int nside)
{
	static char val[2400];
	char mdir[4096], now[2048], path[PATH_MAX + 300], err[1024], *p;
	struct vb_machine m;
	struct vb_res r;
	DIR *d;
	struct dirent *e;
	int k;

	if (ctx->mach.fd >= 0) {
		vb_state_others(ctx->statedir, now, sizeof(now));
		/* the runs live at the end that were not at the start */
		for (p = strtok(now, ";"); p; p = strtok(NULL, ";")) {
			size_t used = strlen(ctx->beside);

			p += *p == ' ';
			if (!strstr(ctx->beside, p))
				snprintf(ctx->beside + used,
				    sizeof(ctx->beside) - used, "%s%s",
				    used ? "; " : "", p);
		}
		if (!ctx->beside[0])
			return 0;
		snprintf(val, sizeof(val), "other vmbench runs ran beside "
		    "this one, which changed the machine: %s", ctx->beside);
	} else {
		long pid;
		unsigned long long n;

		vb_machine_peek(vb_machine_dir(mdir, sizeof(mdir)), &m);
		/* the runs that held the lock while this one ran */
		n = (ctx->seen.pid != 0) + (m.gen > ctx->seen.gen ? m.gen -
		    ctx->seen.gen : 0);
		if (!n && !m.pid)
			return 0;
		pid = ctx->seen.pid ? ctx->seen.pid : m.pid;
		if (pid)
			snprintf(val, sizeof(val), "ran beside pid %ld, which "
			    "changed this machine (%s)%s", pid, ctx->seen.pid ?
			    ctx->seen.what : m.what, n > 1 ? ", and other runs "
			    "that did" : "");
		else
			snprintf(val, sizeof(val), "ran beside %s that changed "
			    "this machine (the last: %s)",
			    n > 1 ? "other runs" : "another run", m.what);
	}
	vb_warn("%s", val);
	rn_extra_add(ctx, "concurrent", val);
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
void
rn_machine_next(struct run_ctx *ctx)
{
	char mdir[4096];
	long before = ctx->seen.pid;

	if (ctx->mach.fd >= 0) {
		vb_state_others(ctx->statedir, ctx->beside,
		    sizeof(ctx->beside));
		return;
	}
	if (vb_machine_peek(vb_machine_dir(mdir, sizeof(mdir)), &ctx->seen) < 0)
		memset(&ctx->seen, 0, sizeof(ctx->seen));
	if (ctx->seen.pid && ctx->seen.pid != before)
		vb_warn("pid %ld is changing this machine (%s): this run is "
		    "marked as run beside it", ctx->seen.pid, ctx->seen.what);
}

/* Create the swap file and the cgroup; one line and exit on refusal. */
void
rn_make_limit(struct run_ctx *ctx, uint64_t mem, uint64_t swap)
{
	char err[1024], a[32];

	if (!mem && !swap)
		return;
	/* a signal while they are made must not leave them behind */
	vb_catch_signals(rn_on_signal);
	rn_die_hook(ctx);
	if (swap) {
		if (vb_swapfile_create(&ctx->swp, ctx->workdir, swap, err,
		    sizeof(err)) < 0)
			die("--swap %s: %s", vb_fmt_size(a, sizeof(a), swap),
			    err);
		snprintf(ctx->swp_desc, sizeof(ctx->swp_desc), "%s %s",
		    ctx->swp.path, vb_fmt_size(a, sizeof(a), swap));
		snprintf(ctx->state.swapfile, sizeof(ctx->state.swapfile), "%s",
		    ctx->swp.path);
		ctx->state.swap_dev = ctx->swp.dev;
		ctx->state.swap_ino = ctx->swp.ino;
		ctx->state.swap_size = ctx->swp.size;
		if (vb_state_save(&ctx->state) < 0)
			die_errno("cannot write %s", ctx->state.path);
		rn_extra_add(ctx, "swap_file", ctx->swp_desc);
	}
	if (mem) {
		if (vb_memlimit_create(&ctx->lim, mem, swap ? swap :
		    VB_MEMLIMIT_NOSWAP, err, sizeof(err)) < 0)
			die("--mem %s: %s", vb_fmt_size(a, sizeof(a), mem),
			    err);
		vb_memlimit_describe(&ctx->lim, ctx->lim_desc,
		    sizeof(ctx->lim_desc));
		snprintf(ctx->state.cgroup, sizeof(ctx->state.cgroup), "%s",
		    ctx->lim.path);
		ctx->state.cgroup_v = ctx->lim.version;
		if (vb_state_save(&ctx->state) < 0)
			die_errno("cannot write %s", ctx->state.path);
		/* the programs read their cgroup's own counters (scope.h) */
		setenv("VMBENCH_CGROUP", ctx->lim.path, 1);
		setenv("VMBENCH_CGROUP_VERSION", ctx->lim.version == 2 ? "2" :
		    "1", 1);
		rn_extra_add(ctx, "mem_limit", vb_fmt_size(ctx->mem_h,
		    sizeof(ctx->mem_h), mem));
		rn_extra_add(ctx, "mem_limit_cgroup", ctx->lim_desc);
		rn_extra_add(ctx, "mem_limit_peak_kb", ctx->peak);
		rn_extra_add(ctx, "mem_limit_hits", ctx->hits);
		snprintf(ctx->peak, sizeof(ctx->peak), "unknown");
		snprintf(ctx->hits, sizeof(ctx->hits), "unknown");
	}
	if (stop_signal) {
		rn_teardown(ctx);
		vb_die_status = 130;
		die("interrupted before anything ran");
	}
	fprintf(stderr, "vmrun: %s%s%s\n", mem ? ctx->lim_desc : "",
	    mem && swap ? "; swap file " : swap ? "swap file " : "",
	    swap ? ctx->swp_desc : "");
}

/*
 * The cgroup's own copies of global settings (v1 memory.swappiness; v2
 * memory.zswap.*), as meta lines: what the benchmarks ran under.
 */
static void
cg_settings(struct run_ctx *ctx, FILE *f)
{
	char v[256];

	if (!ctx->lim.version)
		return;
	if (ctx->lim.version == 1 && vb_memlimit_read(&ctx->lim,
	    "memory.swappiness", v, sizeof(v)) == 0)
		fprintf(f, "cg_swappiness=%s\n", v);
	if (ctx->lim.version == 2) {
		if (vb_read_setting("/proc/sys/vm/swappiness", v,
		    sizeof(v)) == 0)
			fprintf(f, "cg_swappiness=%s\n", v);
		if (vb_memlimit_read(&ctx->lim, "memory.zswap.max", v,
		    sizeof(v)) == 0)
			fprintf(f, "cg_zswap_max=%s\n", v);
		if (vb_memlimit_read(&ctx->lim, "memory.zswap.writeback", v,
		    sizeof(v)) == 0)
			fprintf(f, "cg_zswap_writeback=%s\n", v);
	}
}

/* The settings in force now, for meta (src/lib/meta.h). Allocated. */
char *
rn_settings_now(struct run_ctx *ctx)
{
	char *base = vb_meta_settings(), *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		die("out of memory");
	fputs(base, f);
	cg_settings(ctx, f);
	if (fclose(f) != 0)
		die("out of memory");
	free(base);
	return text;
}

/* The memory limit's hits so far (0 without a limit). */
uint64_t
rn_limit_hits(struct run_ctx *ctx)
{
	uint64_t peak, hits;

	if (!ctx->lim.version || vb_memlimit_peak(&ctx->lim, &peak, &hits) < 0)
		return 0;
	return hits;
}

/*
 * After a program of side @sd ran (@label): add the limit hits since
 * @before to the side's, and raise its peak to the cgroup's peak now and
 * to each iteration's (cg_mem_peak_kb: the harness resets the cgroup's
 * peak before every iteration).
 */
void
rn_limit_after(struct run_ctx *ctx, struct side *sd, uint64_t before,
    const char *label)
{
	char path[PATH_MAX + 300], err[1024];
	uint64_t peak, hits;
	struct vb_res r;
	int m, i;

	if (!ctx->lim.version || vb_memlimit_peak(&ctx->lim, &peak, &hits) < 0)
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
 * Result folder @dir into the state's slot @k as an absolute path (the
 * clean-up after a SIGKILL may run from another folder): the folder's
 * real path, or its parent's with its name when it is not made yet.
 */
void
rn_state_result(struct run_ctx *ctx, int k, const char *dir)
{
	char real[PATH_MAX], parent[PATH_MAX];
	const char *slash = strrchr(dir, '/'), *name = slash ? slash + 1 : dir;
	int n;

	if (realpath(dir, real)) {
		n = snprintf(ctx->state.results[k],
		    sizeof(ctx->state.results[k]), "%s", real);
	} else {
		if (slash)
			snprintf(parent, sizeof(parent), "%.*s",
			    (int)(slash - dir), dir);
		else
			snprintf(parent, sizeof(parent), ".");
		if (!realpath(slash == dir ? "/" : parent, real))
			die_errno("cannot find %s", parent);
		n = snprintf(ctx->state.results[k],
		    sizeof(ctx->state.results[k]), "%s/%s", real, name);
	}
	if (n < 0 || (size_t)n >= sizeof(ctx->state.results[k]))
		die("%s: path too long", dir);
}

/*
 * The label lock @k (held) into the state, as an absolute path: after a
 * SIGKILL the clean-up removes it, from whatever folder it runs.
 */
void
rn_state_lock(struct run_ctx *ctx, int k, const char *results)
{
	char real[PATH_MAX];
	const char *base = strrchr(ctx->lk[k].path, '/');
	int n;

	if (!realpath(results, real))
		die_errno("cannot find %s", results);
	n = snprintf(ctx->state.locks[k], sizeof(ctx->state.locks[k]), "%s/%s",
	    real, base ? base + 1 : ctx->lk[k].path);
	if (n < 0 || (size_t)n >= sizeof(ctx->state.locks[k]))
		die("%s: path too long", ctx->lk[k].path);
}
