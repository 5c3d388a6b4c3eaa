/*
 * steps.c - the boots by kexec: in one QEMU whose kernel kexecs from
 * boot to boot (METHOD=qemu-kexec), or on this machine (METHOD=kexec).
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

/* Set the plan's keys of side @k ("a_label", ...). */
static void
plan_side(struct boots_ctx *ctx, struct bt_kplan *pl, int k, const char *image,
    const char *initrd, const char *base)
{
	char key[32], c[BT_CMDLINE_MAX + 4096];

	snprintf(key, sizeof(key), "%c_label", 'a' + k);
	bt_kplan_set(pl, key, ctx->sd[k].label);
	snprintf(key, sizeof(key), "%c_image", 'a' + k);
	bt_kplan_set(pl, key, image);
	snprintf(key, sizeof(key), "%c_initrd", 'a' + k);
	bt_kplan_set(pl, key, initrd);
	snprintf(key, sizeof(key), "%c_own", 'a' + k);
	bt_kplan_set(pl, key, ctx->sd[k].cmdline);
	snprintf(c, sizeof(c), "%s%s%s", base, ctx->sd[k].cmdline[0] ? " " : "",
	    ctx->sd[k].cmdline);
	snprintf(key, sizeof(key), "%c_cmdline", 'a' + k);
	bt_kplan_set(pl, key, c);
}

/* Numeric order of "runN" names (runs.h). */
static int
by_run(const struct dirent **a, const struct dirent **b)
{
	return vb_run_index((*a)->d_name) - vb_run_index((*b)->d_name);
}

/* Is @e a run folder's name (runs.h)? */
static int
is_run(const struct dirent *e)
{
	return vb_run_index(e->d_name) > 0;
}

/*
 * Side @k's runs that the guest wrote (in ctx->staging), each moved to
 * its label's next run, its meta given the run's index and its step's
 * figures read into ctx->boots; the console (@con) copied beside each.
 */
static void
collect_side(struct boots_ctx *ctx, int k, const char *con)
{
	char p[3 * PATH_MAX], src[3 * PATH_MAX + 256], dst[2 * PATH_MAX];
	char err[1024], v[256], run[16];
	struct dirent **list;
	int i, n;

	snprintf(p, sizeof(p), "%s/results/%s", ctx->staging,
	    ctx->sd[k].label);
	n = scandir(p, &list, is_run, by_run);
	if (n > 0)
		bt_own_dir(ctx->labeldir[k]);
	for (i = 0; i < n; i++) {
		struct vb_kv kv[1];
		struct boot *x;
		int r, step;

		snprintf(src, sizeof(src), "%s/%s", p,
		    list[i]->d_name);
		free(list[i]);
		if (vb_runs_next(ctx->labeldir[k], &r, err,
		    sizeof(err)) < 0)
			die("%s", err);
		vb_run_path(dst, sizeof(dst), ctx->labeldir[k], r);
		if (rename(src, dst) < 0)
			die_errno("cannot move %s to %s", src, dst);
		snprintf(run, sizeof(run), "%d", r);
		kv[0].key = "run";
		kv[0].val = run;
		snprintf(src, sizeof(src), "%s/meta", dst);
		if (bt_meta_set(src, kv, 1, err, sizeof(err)) < 0)
			vb_warn("%s", err);
		snprintf(p, sizeof(p), "%s/console.txt", dst);
		if (bt_copy_file(con, p) < 0)
			vb_warn_errno("cannot copy the console to %s",
			    p);
		step = bt_kv_get(src, "boot_step", v, sizeof(v)) ?
		    atoi(v) - 1 : -1;
		snprintf(p, sizeof(p), "%s/results/%s", ctx->staging,
		    ctx->sd[k].label);
		if (step < 0 || step >= ctx->nboots)
			continue;
		x = &ctx->boots[step];
		x->side = k;
		x->run = r;
		x->status = bt_kv_get(src, "boot_status", v,
		    sizeof(v)) && !strcmp(v, "ok") ? "ok" : "failed";
		if (bt_kv_get(src, "boot_failure", v, sizeof(v)))
			snprintf(x->cause, sizeof(x->cause), "%s", v);
		x->boot_s = bt_kv_get(src, "boot_to_suite_s", v,
		    sizeof(v)) ? atof(v) : -1;
		x->suite_s = bt_kv_get(src, "suite_s", v, sizeof(v)) ?
		    atof(v) : -1;
		x->down_s = x->total_s = -1;
	}
	if (n > 0)
		free(list);
}

/*
 * METHOD=qemu-kexec: one QEMU machine started in step 1's kernel whose
 * init runs vmboots --kexec-continue (the unit of a real machine): each
 * step runs the config, then kexecs into the next.  The guest writes
 * the runs on the result disk; they are moved here, each to the next
 * free run of its label.
 */
void
bt_kexec_in_qemu(struct boots_ctx *ctx)
{
	char job[PATH_MAX + 96], kx[PATH_MAX + 128], p[3 * PATH_MAX];
	char disk[PATH_MAX + 96], con[PATH_MAX + 96], qlog[PATH_MAX + 96];
	char err[1024], src[3 * PATH_MAX + 256], dst[2 * PATH_MAX];
	char vm_mem[32], cpus[16], ikb[32];
	struct bt_kplan pl;
	struct stat st;
	double t[2], total, limit;
	uint64_t size;
	int k, i, vmrc;

	snprintf(job, sizeof(job), "%s/job", ctx->tmp);
	snprintf(kx, sizeof(kx), "%s/vmboots/kexec", job);
	snprintf(disk, sizeof(disk), "%s/disk.img", ctx->tmp);
	snprintf(con, sizeof(con), "%s/console", ctx->tmp);
	snprintf(qlog, sizeof(qlog), "%s/qemu.log", ctx->tmp);
	vb_rmtree(job);
	snprintf(p, sizeof(p), "%s/vmboots", job);
	if (mkdir(job, 0755) < 0 || mkdir(p, 0755) < 0 || mkdir(kx, 0755) < 0)
		die_errno("cannot create %s", kx);
	memset(&pl, 0, sizeof(pl));
	snprintf(pl.path, sizeof(pl.path), "%s/plan", kx);
	bt_kplan_set(&pl, "vmboots_plan", "1");
	bt_kplan_set(&pl, "order", ctx->order);
	bt_kplan_set(&pl, "booted", "0");	/* QEMU starts step 1 */
	bt_kplan_set(&pl, "next", "0");
	bt_kplan_set(&pl, "final", "poweroff");
	bt_kplan_set(&pl, "root", "/vmbench");
	bt_kplan_set(&pl, "config", ctx->config_in + strlen("vmbench/"));
	bt_kplan_set(&pl, "results", "/mnt/results");
	bt_kplan_set(&pl, "workdir", "/mnt/work");
	bt_kplan_set(&pl, "unit", "");
	for (k = 0; k < 2; k++) {
		char img[64], ird[64];

		snprintf(src, sizeof(src), "%s/%c.kernel", ctx->tmp, 'a' + k);
		snprintf(dst, sizeof(dst), "%s/%c.kernel", kx, 'a' + k);
		if (bt_copy_file(src, dst) < 0)
			die_errno("cannot copy %s", ctx->sd[k].image);
		snprintf(dst, sizeof(dst), "%s/%c.initramfs", kx, 'a' + k);
		if (bt_copy_file(ctx->initrd[k], dst) < 0)
			die_errno("cannot copy %s", ctx->initrd[k]);
		snprintf(img, sizeof(img), "/mnt/vmboots/kexec/%c.kernel",
		    'a' + k);
		snprintf(ird, sizeof(ird), "/mnt/vmboots/kexec/%c.initramfs",
		    'a' + k);
		plan_side(ctx, &pl, k, img, ird, "console=ttyS0 panic=-1 "
		    "rdinit=/init quiet");
	}
	vb_fmt_size(vm_mem, sizeof(vm_mem), ctx->sd[0].mem);
	snprintf(cpus, sizeof(cpus), "%llu", (unsigned long long)ctx->o.cpus);
	snprintf(ikb, sizeof(ikb), "%lld", stat(ctx->initrd[0], &st) == 0 ?
	    (long long)st.st_size >> 10 : -1LL);
	bt_kplan_set(&pl, "meta_vm_mem", vm_mem);
	bt_kplan_set(&pl, "meta_vm_cpus", cpus);
	bt_kplan_set(&pl, "meta_accel", ctx->tcg ? "tcg" : "kvm");
	bt_kplan_set(&pl, "meta_host_kernel", ctx->host_kernel);
	bt_kplan_set(&pl, "meta_qemu", ctx->qemu_version);
	bt_kplan_set(&pl, "meta_initramfs_kb", ikb);
	bt_kplan_set(&pl, "meta_workdir_device", "/dev/vda (virtio-blk, a "
	    "raw image file on the host), ext4 with a journal");
	if (bt_kplan_write(&pl) < 0)
		die_errno("cannot write %s", pl.path);
	bt_kplan_free(&pl);
	if (vb_parse_size(ctx->o.disk, 64 << 20, 1ULL << 44, &size, err) < 0)
		die("--disk: %s", err);
	if (bt_disk_make(disk, size, job, ctx->toollog, err, sizeof(err)) < 0)
		die("%s", err);
	vb_rmtree(job);
	/* every step's allowance, and one more for the jumps */
	limit = (ctx->nboots + 1) * bt_timeout(ctx->o.timeout, ctx->tcg,
	    ctx->iterations, 0);
	k = ctx->order[0] == 'B';
	fprintf(stderr, "vmboots: one QEMU machine, %d steps by kexec, "
	    "starting in %c (%s)\n", ctx->nboots, 'A' + k, ctx->sd[k].label);
	vmrc = bt_run_vm(ctx, k, disk, con, qlog, !ctx->tcg, limit, t, &total);

	/* the runs the guest wrote, each moved to its label's next */
	snprintf(ctx->staging, sizeof(ctx->staging), "%s/.kexec-%ld",
	    ctx->o.results, (long)getpid());
	vb_rmtree(ctx->staging);
	bt_save_state(ctx);
	if (bt_disk_read(disk, ctx->staging, ctx->toollog, err,
	    sizeof(err)) < 0)
		fprintf(stderr, "vmboots: %s\n", err);
	for (k = 0; k < 2; k++)
		collect_side(ctx, k, con);
	/* steps the machine never reached */
	for (i = 0; i < ctx->nboots; i++)
		if (!ctx->boots[i].status) {
			ctx->boots[i].side = ctx->order[i] == 'B';
			ctx->boots[i].status = vmrc == -2 ? "interrupted" :
			    "failed";
			ctx->boots[i].boot_s = ctx->boots[i].suite_s = -1;
			ctx->boots[i].down_s = ctx->boots[i].total_s = -1;
			bt_find_cause(ctx, vmrc, ctx->staging, con, qlog, limit,
			    ctx->boots[i].cause, sizeof(ctx->boots[i].cause));
		}
	vb_rmtree(ctx->staging);
	ctx->staging[0] = '\0';
	bt_save_state(ctx);
	unlink(disk);
}

/* The kernel command line as it is now, without the loader's words. */
static void
base_cmdline(char *out, size_t len)
{
	char buf[4096], *p, *w;
	FILE *f = fopen("/proc/cmdline", "re");

	out[0] = '\0';
	if (!f || !fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	for (p = buf; (w = strsep(&p, " "));) {
		if (!*w || strncmp(w, "BOOT_IMAGE=", 11) == 0 ||
		    strncmp(w, "vmbench.boot=", 13) == 0)
			continue;
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
		    out[0] ? " " : "", w);
	}
}

/* The initramfs of side @k for METHOD=kexec, "" when none. */
static void
kexec_initrd(struct boots_ctx *ctx, int k, char *out, size_t len)
{
	char p[128];

	out[0] = '\0';
	if (ctx->o.initrd[k] && *ctx->o.initrd[k]) {
		if (!realpath(ctx->o.initrd[k], out))
			die_errno("%c_INITRD=%s", 'A' + k, ctx->o.initrd[k]);
		return;
	}
	snprintf(p, sizeof(p), "/boot/initrd.img-%s", ctx->sd[k].release);
	if (access(p, R_OK) == 0)
		snprintf(out, len, "%s", p);
	else
		fprintf(stderr, "vmboots: %c: no %s (%c_INITRD=): its kernel "
		    "must mount the root file system by itself\n", 'A' + k, p,
		    'A' + k);
}

/*
 * METHOD=kexec on this machine (root, systemd): the plan in
 * /var/lib/vmbench/boots/plan, a unit that runs vmboots --kexec-continue
 * at every boot until the plan is done, then the jump into step 1.  At
 * the end the machine returns by kexec to the kernel it started from.
 */
void
bt_kexec_here(struct boots_ctx *ctx)
{
	static const char dir[] = "/var/lib/vmbench/boots";
	static const char unit[] = "/etc/systemd/system/vmbench-boots.service";
	char base[4096], img[PATH_MAX], ird[PATH_MAX], p[2 * PATH_MAX];
	char text[5 * PATH_MAX], self[PATH_MAX + 16];
	char *en[] = { "systemctl", "enable", "--quiet",
	    "vmbench-boots.service", NULL };
	struct bt_kplan pl;
	struct utsname u;
	int k;

	if (geteuid() != 0)
		die("METHOD=kexec boots this machine into each kernel: it "
		    "needs root (METHOD=qemu-kexec tries it in QEMU)");
	/* a label folder another plan made is refused, as under QEMU */
	for (k = 0; k < 2; k++)
		if (bt_label_plan_check(ctx->labeldir[k], ctx->sd[k].label,
		    ctx->sd[!k].label, 'A' + k, text, sizeof(text)) < 0)
			die("%s", text);
	if (access("/run/systemd/system", F_OK) < 0)
		die("METHOD=kexec: no systemd here to carry the plan on at "
		    "each boot");
	if (mkdir("/var/lib/vmbench", 0755) < 0 && errno != EEXIST)
		die_errno("cannot create /var/lib/vmbench");
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create %s", dir);
	base_cmdline(base, sizeof(base));
	memset(&pl, 0, sizeof(pl));
	snprintf(pl.path, sizeof(pl.path), "%s/plan", dir);
	bt_kplan_set(&pl, "vmboots_plan", "1");
	bt_kplan_set(&pl, "order", ctx->order);
	bt_kplan_set(&pl, "booted", "-1");
	bt_kplan_set(&pl, "next", "0");
	bt_kplan_set(&pl, "final", "original");
	bt_kplan_set(&pl, "root", ctx->root);
	if (!realpath(ctx->o.config, p))
		die_errno("CONFIG=%s", ctx->o.config);
	bt_kplan_set(&pl, "config", p);
	if (!realpath(ctx->o.results, p))
		die_errno("RESULTS=%s", ctx->o.results);
	bt_kplan_set(&pl, "results", p);
	bt_kplan_set(&pl, "workdir", ctx->workdir);
	bt_kplan_set(&pl, "unit", unit);
	for (k = 0; k < 2; k++) {
		if (!realpath(ctx->sd[k].image, img))
			die_errno("%c_KERNEL=%s", 'A' + k, ctx->sd[k].image);
		kexec_initrd(ctx, k, ird, sizeof(ird));
		plan_side(ctx, &pl, k, img, ird, base);
	}
	if (uname(&u) < 0)
		die_errno("uname");
	snprintf(p, sizeof(p), "/boot/vmlinuz-%s", u.release);
	bt_kplan_set(&pl, "orig_image", p);
	snprintf(p, sizeof(p), "/boot/initrd.img-%s", u.release);
	bt_kplan_set(&pl, "orig_initrd", access(p, R_OK) == 0 ? p : "");
	bt_kplan_set(&pl, "orig_cmdline", base);
	bt_kplan_set(&pl, "meta_accel", "none");
	bt_kplan_set(&pl, "meta_host_kernel", u.release);
	if (bt_kplan_write(&pl) < 0)
		die_errno("cannot write %s", pl.path);
	snprintf(self, sizeof(self), "%s/vmboots", ctx->bindir);
	snprintf(text, sizeof(text), "[Unit]\nDescription=vmbench: make boots "
	    "METHOD=kexec, the next step of %s/plan\nAfter=local-fs.target "
	    "systemd-udev-settle.service\n\n[Service]\nType=oneshot\n"
	    "ExecStart=%s --kexec-continue %s/plan\n"
	    "StandardOutput=journal+console"
	    "\nStandardError=journal+console\n\n[Install]\n"
	    "WantedBy=multi-user.target\n", dir, self, dir);
	bt_kplan_free(&pl);
	if (vb_file_replace(unit, text, strlen(text)) < 0)
		die_errno("cannot write %s", unit);
	if (vb_run(en, NULL, NULL, NULL) != 0)
		die("systemctl enable vmbench-boots.service failed");
	fprintf(stderr, "vmboots: the plan is %s/plan, carried on at each "
	    "boot by %s; %d steps by kexec, then back to %s\n", dir, unit,
	    ctx->nboots, u.release);
	bt_cleanup(ctx);
	exit(bt_kexec_continue(pl.path) == 0 ? 0 : 1);
}
