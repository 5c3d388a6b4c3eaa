/*
 * stale.c - what a run of vmboots leaves and takes back: its state file,
 * its QEMU ended, the label locks, and what a killed run left (the boot
 * it had under way recorded, its folder removed: --clean-stale).
 */

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "config.h"
#include "msg.h"
#include "guest.h"
#include "kexec.h"
#include "label.h"
#include "meta.h"
#include "opt.h"
#include "ab.h"
#include "plan.h"
#include "proc.h"
#include "res.h"
#include "result.h"
#include "runs.h"
#include "size.h"
#include "safedir.h"
#include "util.h"
#include "parentwatch.h"
#include "boots.h"

/* The start time of process @pid (/proc/PID/stat field 22), 0: gone. */
static unsigned long long
proc_start(pid_t pid)
{
	char p[64], buf[1024], *s;
	unsigned long long t = 0;
	int i;

	snprintf(p, sizeof(p), "/proc/%ld/stat", (long)pid);
	if (vb_read_small(p, buf, sizeof(buf)) <= 0)
		return 0;
	s = strrchr(buf, ')');
	/* a zombie no longer runs anything */
	if (s && (s[2] == 'Z' || s[2] == 'X'))
		return 0;
	for (i = 0; s && i < 20; i++)
		s = strchr(s + 1, ' ');
	if (s)
		t = strtoull(s + 1, NULL, 10);
	return t;
}

/* The state file: who owns the temporary folder, its QEMU, staging. */
void
bt_save_state(struct boots_ctx *ctx)
{
	char p[PATH_MAX + 96], text[3 * PATH_MAX];
	int n;

	if (!ctx->tmp[0])
		return;
	snprintf(p, sizeof(p), "%s/state", ctx->tmp);
	n = snprintf(text, sizeof(text), "pid=%ld\nstart=%llu\nqemu=%ld\n"
	    "staging=%s\n", (long)getpid(), proc_start(getpid()),
	    (long)ctx->qemu, ctx->staging);
	/* the boot under way: what the next run records if this one dies */
	if (ctx->cur_boot > 0 && ctx->results_abs[0])
		n += snprintf(text + n, sizeof(text) - (size_t)n, "boot=%d\n"
		    "boot_side=%c\nboot_label=%s\nboot_results=%s\n",
		    ctx->cur_boot, 'A' + ctx->cur_side,
		    ctx->sd[ctx->cur_side].label, ctx->results_abs);
	if (vb_file_replace(p, text, (size_t)n) < 0)
		vb_warn_errno("cannot write %s", p);
}

/* End the process @pid: TERM, then KILL after @grace seconds. */
void
bt_end_process(pid_t pid, double grace, int child)
{
	uint64_t t0 = vb_now_ns();
	int st;

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	while (vb_elapsed_s(t0) < grace) {
		if (child ? waitpid(pid, &st, WNOHANG) == pid :
		    kill(pid, 0) < 0)
			return;
		usleep(20000);
	}
	kill(pid, SIGKILL);
	if (child)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	else
		for (t0 = vb_now_ns(); kill(pid, 0) == 0 &&
		    vb_elapsed_s(t0) < 5;)
			usleep(20000);
}

/* Leave nothing: QEMU ended, staging and temporary folders removed. */
void
bt_cleanup(struct boots_ctx *ctx)
{
	int k;

	if (ctx->qemu > 0) {
		bt_end_process(ctx->qemu, 2, 1);
		ctx->qemu = 0;
	}
	if (ctx->staging[0]) {
		vb_rmtree(ctx->staging);
		ctx->staging[0] = '\0';
	}
	if (ctx->tmp[0]) {
		if (vb_rmtree(ctx->tmp) < 0)
			vb_warn_errno("cannot remove %s", ctx->tmp);
		ctx->tmp[0] = '\0';
	}
	for (k = 0; k < 2; k++)
		vb_label_unlock(&ctx->lk[k]);
}

/* die()'s hook: cleanup() of the run under way. */
static void
die_cleanup(void *ctx)
{
	bt_cleanup(ctx);
}

/* die() from now on cleans up what @ctx holds. */
void
bt_die_hook(struct boots_ctx *ctx)
{
	vb_set_die_hook(die_cleanup, ctx);
}

/* Is the boot @id already a run of the label folder @dir? */
static int
boot_recorded(const char *dir, const char *id)
{
	char p[2 * PATH_MAX + 300], v[128];
	struct dirent *e;
	DIR *d = opendir(dir);
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (!vb_run_index(e->d_name))
			continue;
		snprintf(p, sizeof(p), "%s/%s/meta", dir, e->d_name);
		found = bt_kv_get(p, "boot_id", v, sizeof(v)) && !strcmp(v, id);
	}
	closedir(d);
	return found;
}

/*
 * The boot a killed run (pid @pid) had under way, from its folder @dir
 * (state file @st): what its result disk holds becomes the next run of
 * its label, marked interrupted, as a signal would have left it.  The
 * label is skipped when another run holds its lock.  Said in one line.
 */
static void
record_killed_boot(const char *dir, const char *st, long pid)
{
	char label[BT_LABEL_MAX + 1], res[PATH_MAX], v[64], side[8];
	char bdir[2 * PATH_MAX], stage[2 * PATH_MAX + 32], p[3 * PATH_MAX];
	char disk[PATH_MAX + 300], err[1024], id[64], why[160];
	struct bt_boot_ids ids;
	struct vb_kv kv[12];
	int n = 0, r, fd;

	if (!bt_kv_get(st, "boot", v, sizeof(v)) || !bt_kv_get(st,
	    "boot_label", label, sizeof(label)) || !vb_label_ok(label) ||
	    !bt_kv_get(st, "boot_results", res, sizeof(res)) || res[0] != '/' ||
	    !bt_kv_get(st, "boot_side", side, sizeof(side)))
		return;
	snprintf(bdir, sizeof(bdir), "%s/%s", res, label);
	snprintf(disk, sizeof(disk), "%s/disk.img", dir);
	/* another run of the label holds its lock: leave the label alone */
	snprintf(p, sizeof(p), "%s/.%s.lock", res, label);
	fd = open(p, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "vmboots: a killed run (pid %ld) lost its boot "
		    "%s into %s: the label is in use by another run\n", pid, v,
		    bdir);
		close(fd);
		return;
	}
	if (mkdir(bdir, 0755) < 0 && errno != EEXIST)
		snprintf(err, sizeof(err), "cannot create it: %s",
		    strerror(errno));
	else if (vb_runs_next(bdir, &r, err, sizeof(err)) == 0)
		err[0] = '\0';
	if (err[0]) {
		fprintf(stderr, "vmboots: a killed run (pid %ld) lost its boot "
		    "%s into %s: %s\n", pid, v, bdir, err);
		goto out;
	}
	snprintf(stage, sizeof(stage), "%s/.boot-%ld", bdir, (long)getpid());
	vb_rmtree(stage);
	if (access(disk, F_OK) < 0 || bt_disk_read(disk, stage, NULL, err,
	    sizeof(err)) < 0)
		mkdir(stage, 0755);	/* nothing came back: a run saying so */
	snprintf(p, sizeof(p), "%s/vmboots/guest", stage);
	if (bt_kv_get(p, "boot_id", id, sizeof(id)) && boot_recorded(bdir,
	    id)) {
		vb_rmtree(stage);
		goto out;	/* it died after recording the boot */
	}
	snprintf(why, sizeof(why), "vmboots (pid %ld) was killed during this "
	    "boot; recorded by the next run", pid);
	n = bt_boot_pairs(kv, 0, &ids, r, "interrupted", why, side, p);
	if (bt_collect(stage, label, bdir, r, "interrupted", kv, n, err,
	    sizeof(err)) < 0) {
		fprintf(stderr, "vmboots: a killed run (pid %ld) lost its boot "
		    "%s: %s\n", pid, v, err);
	} else {
		char con[PATH_MAX + 300];

		snprintf(con, sizeof(con), "%s/console", dir);
		vb_run_path(p, sizeof(p) - 12, bdir, r);
		strcat(p, "/console.txt");
		bt_copy_file(con, p);
		fprintf(stderr, "vmboots: recorded the boot a killed run (pid "
		    "%ld) had under way as %s/run%d, interrupted\n", pid, bdir,
		    r);
	}
	vb_rmtree(stage);
out:
	if (fd >= 0)
		close(fd);
}

/*
 * What killed runs left in @workdir: each vmboots.* folder whose owner is
 * gone (or is another program now) has its QEMU ended (when it is still
 * that folder's QEMU), its staging folder and itself removed.  The
 * number of folders removed.
 */
int
bt_clean_stale(const char *workdir)
{
	DIR *d = opendir(workdir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char dir[PATH_MAX + 256], st[PATH_MAX + 300], v[PATH_MAX];
		char cmd[4096];
		char said[64] = "";
		pid_t pid = 0, qemu = 0;
		ssize_t len;

		if (strncmp(e->d_name, "vmboots.", 8) != 0)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", workdir, e->d_name);
		snprintf(st, sizeof(st), "%s/state", dir);
		if (bt_kv_get(st, "pid", v, sizeof(v)))
			pid = (pid_t)atol(v);
		if (pid > 0 && pid != getpid() && bt_kv_get(st, "start", v,
		    sizeof(v)) && proc_start(pid) == strtoull(v, NULL, 10))
			continue;	/* its owner runs */
		if (pid == getpid())
			continue;
		if (bt_kv_get(st, "qemu", v, sizeof(v)))
			qemu = (pid_t)atol(v);
		snprintf(cmd, sizeof(cmd), "/proc/%ld/cmdline", (long)qemu);
		len = qemu > 0 ? vb_read_small(cmd, cmd, sizeof(cmd)) : -1;
		if (len > 0) {
			ssize_t i;

			for (i = 0; i < len; i++)
				cmd[i] = cmd[i] ? cmd[i] : ' ';
			if (strstr(cmd, dir)) {
				bt_end_process(qemu, 2, 0);
				snprintf(said, sizeof(said), ", ended its QEMU "
				    "(pid %ld)", (long)qemu);
			}
		}
		/* only a folder this program names so */
		if (bt_kv_get(st, "staging", v, sizeof(v)) && v[0] &&
		    (strstr(v, "/.boot-") || strstr(v, "/.kexec-")))
			vb_rmtree(v);
		record_killed_boot(dir, st, (long)pid);
		if (vb_rmtree(dir) < 0)
			vb_warn_errno("cannot remove %s", dir);
		fprintf(stderr, "vmboots: removed what a killed run left: "
		    "%s%s\n", dir, said);
		n++;
	}
	closedir(d);
	return n;
}

/*
 * @dir made when missing and checked (safedir.h): every folder on its
 * path root's or ours, the folder itself ours and writable by no one
 * else, no symlink but ours; else one line and exit 1.
 */
void
bt_own_dir(const char *dir)
{
	char err[PATH_MAX + 128];
	int fd = vb_dir_open(dir, 1, err, sizeof(err));

	if (fd < 0)
		die("%s", err);
	close(fd);
}

/* RESULTS= and the two label folders there, before anything is written. */
void
bt_own_results(struct boots_ctx *ctx)
{
	struct stat st;
	int k;

	bt_own_dir(ctx->o.results);
	for (k = 0; k < 2; k++)
		if (lstat(ctx->labeldir[k], &st) == 0)
			bt_own_dir(ctx->labeldir[k]);
}

/*
 * One run of a label at a time, the lock vmrun takes (label.h):
 * RESULTS/.LABEL.lock; a symlink or another user's file there is
 * refused.  Before anything boots, in one line.
 */
void
bt_lock_label(struct boots_ctx *ctx, int k)
{
	char err[PATH_MAX + 300];

	if (vb_label_lock(&ctx->lk[k], ctx->o.results, ctx->sd[k].label, err,
	    sizeof(err)) < 0) {
		bt_cleanup(ctx);
		die("%s", err);
	}
}
