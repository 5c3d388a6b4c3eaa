/*
 * vm.c - one boot in QEMU: the guest's job and disk, QEMU's command
 * line, its console watched, a stop asked for, the cause of a boot that
 * failed, and whether KVM runs a guest here.
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

/* Seconds a guest asked to stop has to end its suite and flush. */
#define STOP_GRACE_SIGNAL 60
#define STOP_GRACE_TIMEOUT 20

/*
 * The modules folder of side @k: --X-modules, else lib/modules/RELEASE
 * beside the image (IMAGE/../../lib/modules/RELEASE, as dpkg-deb -x
 * lays a package out), else the host's /lib/modules/RELEASE; "" when
 * none (a kernel with virtio built in needs none).
 */
void
bt_find_modules(struct boots_ctx *ctx, int k)
{
	char img[PATH_MAX], p[2 * PATH_MAX], *s;
	struct stat st;

	ctx->moddir[k][0] = '\0';
	if (ctx->o.modules[k]) {
		bt_check_path(k ? "B_MODULES" : "A_MODULES", ctx->o.modules[k]);
		if (stat(ctx->o.modules[k], &st) < 0 || !S_ISDIR(st.st_mode))
			die("%s=%s: not a folder", k ? "B_MODULES" :
			    "A_MODULES", ctx->o.modules[k]);
		snprintf(ctx->moddir[k], sizeof(ctx->moddir[k]), "%s",
		    ctx->o.modules[k]);
		return;
	}
	if (realpath(ctx->sd[k].image, img)) {
		if ((s = strrchr(img, '/')))
			*s = '\0';
		if ((s = strrchr(img, '/')))
			*s = '\0';
		snprintf(p, sizeof(p), "%s/lib/modules/%s", img,
		    ctx->sd[k].release);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(ctx->moddir[k], sizeof(ctx->moddir[k]), "%s",
			    p);
			return;
		}
	}
	snprintf(p, sizeof(p), "/lib/modules/%s", ctx->sd[k].release);
	if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(ctx->moddir[k], sizeof(ctx->moddir[k]), "%s", p);
		return;
	}
	fprintf(stderr, "vmboots: %c (%s): no modules folder for %s "
	    "(%s_MODULES=): its kernel must have virtio_pci and "
	    "virtio_blk built in\n", 'A' + k, ctx->sd[k].label,
	    ctx->sd[k].release, k ? "B" : "A");
}

/* Write the small file @dir/@name holding @text and a newline. */
static void
put_file(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX + 64], *t;
	int rc;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (asprintf(&t, "%s\n", text) < 0)
		die("out of memory");
	rc = vb_file_replace(p, t, strlen(t));
	free(t);
	if (rc < 0)
		die_errno("cannot write %s", p);
}

/* "1m05s", "12.3s" */
char *
bt_fmt_time(char *buf, size_t len, double s)
{
	if (s < 0)
		snprintf(buf, len, "-");
	else if (s < 60)
		snprintf(buf, len, "%.1fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
	else
		snprintf(buf, len, "%dh%02dm", (int)s / 3600,
		    (int)s % 3600 / 60);
	return buf;
}

/*
 * The QEMU command for a boot of side @k (or the KVM probe) on @disk:
 * the console on the first serial port, the host's word to the guest
 * ("stop") on the second, through the FIFOs @ctl.in and @ctl.out.
 */
static char **
qemu_argv(struct boots_ctx *ctx, int k, const char *disk, const char *console,
    const char *ctl, int kvm)
{
	static char mem[32], cpus[16], drive[2 * PATH_MAX], serial[PATH_MAX +
	    16], kernel[PATH_MAX + 64], append[BT_CMDLINE_MAX + 128];
	static char ctlarg[PATH_MAX + 96];
	static char *argv[40];
	const char *p;
	size_t o = 0;
	int i = 0;

	snprintf(mem, sizeof(mem), "%lluM",
	    (unsigned long long)(ctx->sd[k].mem >> 20));
	snprintf(cpus, sizeof(cpus), "%llu", (unsigned long long)ctx->o.cpus);
	/* a comma in a -drive value is written twice */
	o = (size_t)snprintf(drive, sizeof(drive), "file=");
	for (p = disk; *p && o + 3 < sizeof(drive); p++) {
		drive[o++] = *p;
		if (*p == ',')
			drive[o++] = ',';
	}
	snprintf(drive + o, sizeof(drive) - o, ",format=raw,if=virtio,"
	    "cache=writeback");
	snprintf(serial, sizeof(serial), "file:%s", console);
	snprintf(kernel, sizeof(kernel), "%s/%c.kernel", ctx->tmp, 'a' + k);
	snprintf(append, sizeof(append), "console=ttyS0 panic=-1 "
	    "rdinit=/init quiet%s%s%s", ctx->sd[k].cmdline[0] ? " " : "",
	    ctx->sd[k].cmdline, ctx->kexec ? " vmbench.boot=0" : "");
	argv[i++] = (char *)ctx->o.qemu;
	argv[i++] = "-name";
	argv[i++] = "vmboots";
	argv[i++] = "-nodefaults";
	argv[i++] = "-no-user-config";
	argv[i++] = "-machine";
	argv[i++] = "pc";
	argv[i++] = "-accel";
	argv[i++] = kvm ? "kvm" : "tcg";
	argv[i++] = "-cpu";
	argv[i++] = kvm ? "host" : "qemu64";
	argv[i++] = "-m";
	argv[i++] = mem;
	argv[i++] = "-smp";
	argv[i++] = cpus;
	argv[i++] = "-kernel";
	argv[i++] = kernel;
	argv[i++] = "-initrd";
	argv[i++] = ctx->initrd[k];
	argv[i++] = "-append";
	argv[i++] = append;
	argv[i++] = "-drive";
	argv[i++] = drive;
	argv[i++] = "-serial";
	argv[i++] = serial;
	snprintf(ctlarg, sizeof(ctlarg), "pipe:%s", ctl);
	argv[i++] = "-serial";
	argv[i++] = ctlarg;
	argv[i++] = "-display";
	argv[i++] = "none";
	argv[i++] = "-monitor";
	argv[i++] = "none";
	argv[i++] = "-no-reboot";
	argv[i] = NULL;
	return argv;
}

/*
 * Scan what the console file @path gained since *@off for the guest's
 * markers; the time each was first seen into @t (suite start, suite
 * end).
 */
static void
watch_console(const char *path, off_t *off, double t[2], double now)
{
	static const char *const mark[] = { "vmboots-guest: suite start",
	    "vmboots-guest: suite end" };
	char buf[8192 + 64];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i;

	if (fd < 0)
		return;
	/* 40 bytes back: a marker split between two reads */
	while ((n = pread(fd, buf, sizeof(buf) - 1, *off > 40 ? *off - 40 :
	    0)) > 0) {
		off_t start = *off > 40 ? *off - 40 : 0;

		buf[n] = '\0';
		for (i = 0; i < 2; i++)
			if (t[i] < 0 && memmem(buf, (size_t)n, mark[i],
			    strlen(mark[i])))
				t[i] = now;
		if (start + n <= *off)
			break;
		*off = start + n;
	}
	close(fd);
}

/* Copy @src to @dst; 0 or -1. */
int
bt_copy_file(const char *src, const char *dst)
{
	char buf[65536];
	ssize_t n;
	int in = open(src, O_RDONLY | O_CLOEXEC), out, rc = 0;

	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -1;
			break;
		}
	if (n < 0 || close(out) < 0)
		rc = -1;
	close(in);
	return rc;
}

/*
 * The guest's control line: FIFOs @ctl.in (host to guest) and @ctl.out,
 * which QEMU opens read-write (so no open blocks).  0 or -1.
 */
static int
make_ctl(const char *ctl)
{
	char p[PATH_MAX + 80];
	const char *end[] = { "in", "out" };
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s.%s", ctl, end[i]);
		unlink(p);
		if (mkfifo(p, 0600) < 0)
			return -1;
	}
	return 0;
}

/* Ask the guest to end its suite, flush and power off; 0 or -1. */
static int
ask_stop(const char *ctl)
{
	char p[PATH_MAX + 80];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s.in", ctl);
	fd = open(p, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, "stop\n", 5);
	close(fd);
	return n == 5 ? 0 : -1;
}

/*
 * Boot the machine of side @k on the disk @disk (console to @console,
 * QEMU's messages to @qlog), under KVM when @kvm, and wait until it
 * stops, @limit seconds at most or until a signal.  At either, a guest
 * whose suite has started is asked to end it, flush what it wrote and
 * power off (ask_stop()), and given STOP_GRACE_* seconds (a second
 * signal ends it at once); then QEMU is ended.  Returns QEMU's exit
 * status (128 + signal), or -1 when it timed out, -2 when stopped by a
 * signal, -3 when QEMU could not be started; the marker times in @t.
 */
int
bt_run_vm(struct boots_ctx *ctx, int k, const char *disk, const char *console,
    const char *qlog, int kvm, double limit, double t[2], double *total)
{
	char ctl[PATH_MAX + 64];
	char **argv;
	uint64_t t0 = vb_now_ns();
	off_t off = 0;
	double asked = -1;
	int st, rc = 0, why = 0;

	snprintf(ctl, sizeof(ctl), "%s/ctl", ctx->tmp);
	if (make_ctl(ctl) < 0)
		die_errno("cannot make %s.in", ctl);
	argv = qemu_argv(ctx, k, disk, console, ctl, kvm);
	t[0] = t[1] = -1;
	ctx->qemu = vb_spawn(argv, NULL, qlog);
	if (ctx->qemu < 0) {
		ctx->qemu = 0;
		return -3;
	}
	bt_save_state(ctx);
	for (;;) {
		pid_t w = waitpid(ctx->qemu, &st, WNOHANG);
		double now = vb_elapsed_s(t0);

		watch_console(console, &off, t, now);
		if (w == ctx->qemu) {
			rc = why ? why : vb_exit_status(st);
			break;
		}
		if (!why && (stop_signal || now > limit))
			why = stop_signal ? -2 : -1;
		if (why && asked < 0 && t[0] >= 0 && nsignals < 2 &&
		    ask_stop(ctl) == 0) {
			asked = now;
			if (stop_signal)
				fprintf(stderr, "vmboots: ending the guest's "
				    "suite and keeping what it wrote (a "
				    "second Ctrl-C ends it at once)\n");
		}
		if (why && (asked < 0 || nsignals >= 2 || now - asked >
		    (why == -2 ? STOP_GRACE_SIGNAL : STOP_GRACE_TIMEOUT))) {
			bt_end_process(ctx->qemu, 2, 1);
			rc = why;
			break;
		}
		/* a signal during a timeout's grace: the signal's */
		if (why == -1 && stop_signal)
			why = -2;
		usleep(50000);
	}
	*total = vb_elapsed_s(t0);
	ctx->qemu = 0;
	bt_save_state(ctx);
	return rc;
}

/*
 * Why a boot that did not end well ended so, from what came back (the
 * guest's files in @got), the console and QEMU's messages.
 */
void
bt_find_cause(struct boots_ctx *ctx, int vmrc, const char *got,
    const char *console, const char *qlog, double limit, char *cause,
    size_t len)
{
	char p[PATH_MAX + 32], v[512], line[600];
	struct stat st;

	if (vmrc == -2) {
		snprintf(cause, len, "interrupted");
		return;
	}
	if (vmrc == -3) {
		snprintf(cause, len, "cannot start %s: %s", ctx->o.qemu,
		    strerror(errno));
		return;
	}
	snprintf(p, sizeof(p), "%s/vmboots/failed", got);
	if (bt_kv_get(p, "", v, sizeof(v)) || vb_last_line(p, v, sizeof(v))) {
		snprintf(cause, len, "%.200s", v);
		return;
	}
	if (vb_grep_file(console, "Kernel panic - not syncing", 0,
	    line, sizeof(line))) {
		snprintf(cause, len, "kernel panic: %.200s", line + 28);
		return;
	}
	if (vb_grep_file(console, "Out of memory: Killed process", 0, line,
	    sizeof(line)) || vb_grep_file(console, "invoked oom-killer", 0,
	    line, sizeof(line))) {
		snprintf(cause, len, "the guest ran out of memory (%.200s)",
		    line);
		return;
	}
	if (vmrc == -1) {
		snprintf(cause, len, "no end after %.0f s (the boot timeout; "
		    "BOOT_TIMEOUT= sets it)", limit);
		return;
	}
	if (vmrc != 0 && vb_last_line(qlog, line, sizeof(line))) {
		snprintf(cause, len, "QEMU exit %d: %.200s", vmrc, line);
		return;
	}
	snprintf(p, sizeof(p), "%s/vmboots/guest", got);
	if (bt_kv_get(p, "vmrun_exit", v, sizeof(v))) {
		/* vmrun's own one-line error, when it stopped on one */
		if (vb_grep_file(console, "vmrun: ", VB_GREP_LAST |
		    VB_GREP_START, line, sizeof(line)))
			snprintf(cause, len, "the suite failed in the guest "
			    "(vmrun exit %.20s): %.180s", v, line);
		else
			snprintf(cause, len, "the suite failed in the guest "
			    "(vmrun exit %.20s; see the run's logs)", v);
		return;
	}
	if (stat(console, &st) < 0 || st.st_size == 0)
		snprintf(cause, len, "the kernel stopped before it printed "
		    "anything (too little memory for it? VM_MEM=)");
	else
		snprintf(cause, len, "the guest stopped before the suite "
		    "ended (see console.txt)");
}

/* The result disk's job folder for a boot of side @k. */
static void
make_job(struct boots_ctx *ctx, int k, const char *job, int probe)
{
	char p[PATH_MAX + 96];

	vb_rmtree(job);
	snprintf(p, sizeof(p), "%s/vmboots", job);
	if (mkdir(job, 0755) < 0 || mkdir(p, 0755) < 0)
		die_errno("cannot create %s", p);
	if (probe) {
		put_file(p, "kvmcheck", "");
		return;
	}
	put_file(p, "label", ctx->sd[k].label);
	put_file(p, "config", ctx->config_in + strlen("vmbench/"));
}

/*
 * ACCEL=auto: KVM when /dev/kvm opens and a check boot of side A's
 * kernel under it reaches init and writes to its disk within 30 s; else
 * TCG, saying why.
 */
int
bt_probe_kvm(struct boots_ctx *ctx)
{
	char job[PATH_MAX + 96], disk[PATH_MAX + 96], con[PATH_MAX + 96];
	char qlog[PATH_MAX + 96], got[PATH_MAX + 96], p[PATH_MAX + 160];
	char err[1024], v[64], why[300];
	double t[2], total;
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), rc, ok = 0;

	if (fd < 0) {
		fprintf(stderr, "vmboots: no KVM (/dev/kvm: %s); using TCG\n",
		    strerror(errno));
		return 0;
	}
	close(fd);
	snprintf(job, sizeof(job), "%s/kvmcheck-job", ctx->tmp);
	snprintf(disk, sizeof(disk), "%s/kvmcheck.img", ctx->tmp);
	snprintf(con, sizeof(con), "%s/kvmcheck.console", ctx->tmp);
	snprintf(qlog, sizeof(qlog), "%s/kvmcheck.qemu", ctx->tmp);
	snprintf(got, sizeof(got), "%s/kvmcheck-got", ctx->tmp);
	make_job(ctx, 0, job, 1);
	if (bt_disk_make(disk, 64 << 20, job, ctx->toollog, err,
	    sizeof(err)) < 0)
		die("%s", err);
	rc = bt_run_vm(ctx, 0, disk, con, qlog, 1, 30, t, &total);
	snprintf(p, sizeof(p), "%s/vmboots/kvmcheck", got);
	if (rc >= 0 && bt_disk_read(disk, got, ctx->toollog, err,
	    sizeof(err)) == 0 && vb_last_line(p, v, sizeof(v)) &&
	    strcmp(v, "ok") == 0)
		ok = 1;
	if (stop_signal)
		return 0;
	if (!ok) {
		if (rc == -1)
			snprintf(why, sizeof(why), "a guest did not reach "
			    "init in 30 s");
		else if (!vb_grep_file(qlog, "error:", 0, why, sizeof(why)) &&
		    !vb_last_line(qlog, why, sizeof(why)))
			snprintf(why, sizeof(why), "the KVM check boot failed");
		fprintf(stderr, "vmboots: KVM does not run a guest here "
		    "(%.200s); using TCG\n", why);
	}
	unlink(disk);
	vb_rmtree(job);
	vb_rmtree(got);
	unlink(con);
	unlink(qlog);
	return ok;
}

/* Boot number @i of the plan (side @k); its record in @b. */
void
bt_boot_one(struct boots_ctx *ctx, int i, int k, struct boot *b, double limit)
{
	char job[PATH_MAX + 96], disk[PATH_MAX + 96], con[PATH_MAX + 96];
	char qlog[PATH_MAX + 96], p[2 * PATH_MAX], err[1024], v[256];
	char vm_mem[32], cpus[16], bs[32], ss[32], ds[32], ikb[32];
	struct bt_boot_ids ids;
	struct stat ist;
	const char *status;
	double t[2], total;
	struct vb_kv kv[28];
	int n = 0, vmrc, got_ok;
	uint64_t size;

	memset(b, 0, sizeof(*b));
	b->side = k;
	b->boot_s = b->suite_s = b->down_s = -1;
	snprintf(job, sizeof(job), "%s/job", ctx->tmp);
	snprintf(disk, sizeof(disk), "%s/disk.img", ctx->tmp);
	snprintf(con, sizeof(con), "%s/console", ctx->tmp);
	snprintf(qlog, sizeof(qlog), "%s/qemu.log", ctx->tmp);
	unlink(con);
	unlink(qlog);
	make_job(ctx, k, job, 0);
	if (vb_parse_size(ctx->o.disk, 64 << 20, 1ULL << 44, &size, err) < 0)
		die("--disk: %s", err);
	if (bt_disk_make(disk, size, job, ctx->toollog, err, sizeof(err)) < 0)
		die("boot %d: %s", i + 1, err);
	ctx->cur_boot = i + 1;
	ctx->cur_side = k;
	vmrc = bt_run_vm(ctx, k, disk, con, qlog, !ctx->tcg, limit, t, &total);
	b->total_s = total;
	if (t[0] >= 0) {
		b->boot_s = t[0];
		if (t[1] >= 0) {
			b->suite_s = t[1] - t[0];
			b->down_s = total - t[1];
		}
	}

	/* what came back: read it beside the label's runs, then move it */
	bt_own_dir(ctx->labeldir[k]);
	snprintf(ctx->staging, sizeof(ctx->staging), "%s/.boot-%ld",
	    ctx->labeldir[k], (long)getpid());
	vb_rmtree(ctx->staging);
	bt_save_state(ctx);
	got_ok = vmrc != -3 && bt_disk_read(disk, ctx->staging, ctx->toollog,
	    err, sizeof(err)) == 0;
	if (vmrc != -3 && !got_ok)
		fprintf(stderr, "vmboots: boot %d: %s\n", i + 1, err);
	snprintf(p, sizeof(p), "%s/vmboots/guest", ctx->staging);
	if (vmrc == 0 && got_ok && bt_kv_get(p, "vmrun_exit", v, sizeof(v)) &&
	    strcmp(v, "0") == 0)
		status = "ok";
	else
		status = vmrc == -2 ? "interrupted" : "failed";
	if (strcmp(status, "ok") != 0)
		bt_find_cause(ctx, vmrc, ctx->staging, con, qlog, limit,
		    b->cause, sizeof(b->cause));
	b->status = status;

	if (vb_runs_next(ctx->labeldir[k], &b->run, err, sizeof(err)) < 0)
		die("%s", err);
	n = bt_boot_pairs(kv, 0, &ids, b->run, status, b->cause[0] ? b->cause :
	    NULL, NULL, p);
	vb_fmt_size(vm_mem, sizeof(vm_mem), ctx->sd[k].mem);
	snprintf(cpus, sizeof(cpus), "%llu", (unsigned long long)ctx->o.cpus);
#define KV(k_, v_) do { kv[n].key = (k_); kv[n].val = (char *)(v_); n++; \
	} while (0)
	KV("boot_image", ctx->sd[k].image);
	KV("boot_cmdline", ctx->sd[k].cmdline);
	KV("boot_side", k ? "B" : "A");
	KV("boot_pair", ctx->sd[!k].label);
	KV("boot_order", ctx->order);
	KV("vm_mem", vm_mem);
	KV("vm_cpus", cpus);
	KV("accel", ctx->tcg ? "tcg" : "kvm");
	KV("host_kernel", ctx->host_kernel);
	KV("qemu", ctx->qemu_version);
	snprintf(ikb, sizeof(ikb), "%lld", stat(ctx->initrd[k], &ist) == 0 ?
	    (long long)ist.st_size >> 10 : -1LL);
	KV("initramfs_kb", ikb);
	KV("workdir_device", "/dev/vda (virtio-blk, a raw image file on the "
	    "host), ext4 with a journal");
	snprintf(bs, sizeof(bs), "%.2f", b->boot_s);
	snprintf(ss, sizeof(ss), "%.2f", b->suite_s);
	snprintf(ds, sizeof(ds), "%.2f", b->down_s);
	if (b->boot_s >= 0)
		KV("boot_to_suite_s", bs);
	if (b->suite_s >= 0) {
		KV("suite_s", ss);
		KV("shutdown_s", ds);
	}
	if (ctx->quiet_pct > 0) {
		KV("quiet_threshold", ctx->quiet.thr);
		KV("quiet_waited_s", ctx->quiet.waited);
		KV("quiet_cpu", ctx->quiet.cpu);
		KV("quiet_timeout", ctx->quiet.timeout);
	}
#undef KV
	if (bt_collect(ctx->staging, ctx->sd[k].label, ctx->labeldir[k], b->run,
	    strcmp(status, "ok") == 0 ? NULL : status, kv, n, err,
	    sizeof(err)) < 0)
		die("boot %d: %s", i + 1, err);
	vb_run_path(p, sizeof(p) - 12, ctx->labeldir[k], b->run);
	strcat(p, "/console.txt");
	if (bt_copy_file(con, p) < 0)
		vb_warn_errno("cannot copy the console to %s", p);
	vb_rmtree(ctx->staging);
	ctx->staging[0] = '\0';
	ctx->cur_boot = 0;
	bt_save_state(ctx);
	unlink(disk);
}
