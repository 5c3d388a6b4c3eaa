/*
 * vmboots.c - make boots: kernels A and B booted alternately in QEMU
 * (KVM when it runs a guest, else TCG), BOOTS times each in the pattern
 * ORDER; each boot runs the whole config once in the guest, with the
 * suite's own vmrun, on a result disk that comes back as one run of its
 * label (results/LABEL/runN/).  docs/boots.md says what the guest sees.
 *
 * Every boot has its own result disk in a temporary folder
 * (WORKDIR/vmboots.XXXXXX, with a state file naming this process and
 * its QEMU): the next run, or --clean-stale, ends a QEMU that a killed
 * run left and removes the folder.  QEMU itself dies with this process
 * (PR_SET_PDEATHSIG).  Nothing the user gives reaches a shell: QEMU and
 * the e2fsprogs tools run from argv arrays, the kernel image is linked
 * into the temporary folder so QEMU's option parser sees only our paths.
 */

#include <errno.h>
#include <math.h>
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
#include "quiet.h"
#include "boots.h"

static const struct vb_opt opt_tab[] = {
	{ .name = "a-kernel", .type = VB_OPT_STR, .arg = "IMAGE",
	  .off = offsetof(struct opts, kernel[0]),
	  .help = "side A's kernel image (an x86 bzImage, vmlinuz)" },
	{ .name = "b-kernel", .type = VB_OPT_STR, .arg = "IMAGE",
	  .off = offsetof(struct opts, kernel[1]),
	  .help = "side B's kernel image (default: A's)" },
	{ .name = "a-label", .type = VB_OPT_STR, .arg = "LABEL",
	  .off = offsetof(struct opts, label[0]),
	  .help = "side A's result folder (default: from the image's "
	    "version and what differs)" },
	{ .name = "b-label", .type = VB_OPT_STR, .arg = "LABEL",
	  .off = offsetof(struct opts, label[1]),
	  .help = "side B's result folder" },
	{ .name = "a-cmdline", .type = VB_OPT_STR, .arg = "TEXT",
	  .off = offsetof(struct opts, cmdline[0]),
	  .help = "side A's kernel command line, added to vmboots' own" },
	{ .name = "b-cmdline", .type = VB_OPT_STR, .arg = "TEXT",
	  .off = offsetof(struct opts, cmdline[1]),
	  .help = "side B's kernel command line" },
	{ .name = "mem", .type = VB_OPT_STR, .arg = "SIZE",
	  .off = offsetof(struct opts, vm_mem), .def = "1G",
	  .help = "the VM's memory" },
	{ .name = "a-mem", .type = VB_OPT_STR, .arg = "SIZE",
	  .off = offsetof(struct opts, mem[0]),
	  .help = "side A's VM memory (default --mem)" },
	{ .name = "b-mem", .type = VB_OPT_STR, .arg = "SIZE",
	  .off = offsetof(struct opts, mem[1]),
	  .help = "side B's VM memory (default --mem)" },
	{ .name = "cpus", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct opts, cpus), .def = "2", .min = 1,
	  .max = 64, .help = "the VM's CPUs" },
	{ .name = "boots", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct opts, boots), .def = "3", .min = 1,
	  .max = BT_BOOTS_MAX, .help = "boots of each side" },
	{ .name = "order", .type = VB_OPT_STR, .arg = "ABBA",
	  .off = offsetof(struct opts, order), .def = "ABBA",
	  .help = "the pattern the boots follow" },
	{ .name = "config", .type = VB_OPT_STR, .arg = "FILE",
	  .off = offsetof(struct opts, config), .def = "configs/quick.conf",
	  .help = "suite each boot runs" },
	{ .name = "results", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct opts, results), .def = "results",
	  .help = "folder holding one folder per label" },
	{ .name = "workdir", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct opts, workdir),
	  .help = "folder for the images (default $VMBENCH_WORKDIR or "
	    "./work)" },
	{ .name = "accel", .type = VB_OPT_STR, .arg = "WHICH",
	  .off = offsetof(struct opts, accel), .def = "auto",
	  .choices = "auto|kvm|tcg",
	  .help = "auto: KVM when it runs a guest, else TCG" },
	{ .name = "a-modules", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct opts, modules[0]),
	  .help = "side A's lib/modules/RELEASE (default: beside the image)" },
	{ .name = "b-modules", .type = VB_OPT_STR, .arg = "DIR",
	  .off = offsetof(struct opts, modules[1]),
	  .help = "side B's lib/modules/RELEASE" },
	{ .name = "timeout", .type = VB_OPT_DOUBLE, .arg = "SECONDS",
	  .off = offsetof(struct opts, timeout), .def = "0", .dmin = 0,
	  .dmax = 1e6,
	  .help = "give a boot up after this long (0: from the config and "
	    "the accelerator)" },
	{ .name = "disk", .type = VB_OPT_STR, .arg = "SIZE",
	  .off = offsetof(struct opts, disk), .def = "4G",
	  .help = "the result disk (sparse; the guest's work folder)" },
	{ .name = "method", .type = VB_OPT_STR, .arg = "HOW",
	  .off = offsetof(struct opts, method), .def = "qemu",
	  .choices = "qemu|qemu-kexec|kexec",
	  .help = "a fresh QEMU a boot; one QEMU whose kernel kexecs from "
	    "boot to boot; this machine kexecs (root)" },
	{ .name = "a-initrd", .type = VB_OPT_STR, .arg = "FILE",
	  .off = offsetof(struct opts, initrd[0]),
	  .help = "kexec: side A's initramfs (default /boot/initrd.img-"
	    "RELEASE)" },
	{ .name = "b-initrd", .type = VB_OPT_STR, .arg = "FILE",
	  .off = offsetof(struct opts, initrd[1]),
	  .help = "kexec: side B's initramfs" },
	{ .name = "kexec-continue", .type = VB_OPT_STR, .arg = "PLAN",
	  .off = offsetof(struct opts, cont),
	  .help = "kexec: this boot's part of the plan, then the next jump "
	    "(what runs at boot)" },
	{ .name = "qemu", .type = VB_OPT_STR, .arg = "PROGRAM",
	  .off = offsetof(struct opts, qemu), .def = "qemu-system-x86_64",
	  .help = "the QEMU to run" },
	{ .name = "busybox", .type = VB_OPT_STR, .arg = "PROGRAM",
	  .off = offsetof(struct opts, busybox), .def = "busybox",
	  .help = "the guest's shell and tools" },
	{ .name = "quiet", .type = VB_OPT_STR, .arg = "PCT",
	  .off = offsetof(struct opts, quiet),
	  .help = "before each boot, wait until other processes use less "
	    "than PCT% of a CPU; recorded in meta (quiet_*)" },
	{ .name = "quiet-wait", .type = VB_OPT_STR, .arg = "DURATION",
	  .off = offsetof(struct opts, quiet_wait),
	  .help = "--quiet: wait at most this long (30s, 10m, 1h; default "
	    "10m), then boot all the same" },
	{ .name = "no-report", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, no_report),
	  .help = "do not compare the two labels at the end" },
	{ .name = "clean-stale", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, clean_stale),
	  .help = "end what killed runs left in the work folder, and exit" },
	{ .name = "help", .type = VB_OPT_FLAG,
	  .off = offsetof(struct opts, help), .help = "this text" },
	{ 0 },
};

/*
 * Boots' one file-scope mutable state, by exception: what on_signal()
 * must reach (a handler gets no argument).  Everything else goes
 * through struct boots_ctx.
 */
volatile sig_atomic_t stop_signal, nsignals;

static void
on_signal(int sig)
{
	stop_signal = sig;
	nsignals++;
}

/* --quiet PCT, --quiet-wait DURATION (default 10 minutes). */
static void
parse_quiet(struct boots_ctx *ctx)
{
	char err[1024];

	ctx->quiet_max_s = 600;
	if (ctx->o.quiet_wait && vb_quiet_duration(ctx->o.quiet_wait,
	    &ctx->quiet_max_s, err, sizeof(err)) < 0)
		die("%s", err);
	if (!ctx->o.quiet) {
		if (ctx->o.quiet_wait)
			die("--quiet-wait bounds the wait for a quiet machine: "
			    "give --quiet PCT too (make QUIET=)");
		return;
	}
	if (vb_quiet_pct(ctx->o.quiet, &ctx->quiet_pct, err,
	    sizeof(err)) < 0)
		die("%s", err);
	snprintf(ctx->quiet.thr, sizeof(ctx->quiet.thr), "%g",
	    ctx->quiet_pct);
}

/*
 * Before a boot: wait for a quiet machine (src/lib/quiet.h), its
 * figures for the boot's meta (bt_boot_one()).  A signal ends the wait.
 */
static void
quiet_wait(struct boots_ctx *ctx)
{
	struct vb_quiet q = { .threshold = ctx->quiet_pct,
	    .max_s = ctx->quiet_max_s };

	if (!(ctx->quiet_pct > 0))
		return;
	if (vb_quiet_before(&q, &ctx->quiet, "vmboots", "boot",
	    &stop_signal) < 0)
		die_errno("--quiet: cannot read /proc/stat");
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: vmboots --a-kernel IMAGE [--b-kernel IMAGE] "
	    "[options]\n"
	    "Boot kernels A and B alternately in QEMU, each boot running the "
	    "config once;\n"
	    "each boot's results become one run of its label "
	    "(RESULTS/LABEL/runN/).\n\nOptions:\n");
	vb_opt_usage(f, opt_tab);
}

/* A path given by the user: no newline (meta and the state file). */
void
bt_check_path(const char *what, const char *p)
{
	char err[512];

	if (!p || !*p)
		die("%s: empty path", what);
	if (vb_path_check(what, p, err, sizeof(err)) < 0)
		die("%s", err);
}

/* The comparison of the two labels, as make ab prints it; its status. */
static int
report(struct boots_ctx *ctx)
{
	int rc = vb_run_report(ctx->bindir, ctx->labeldir[0], ctx->labeldir[1]);

	if (rc < 0)
		fprintf(stderr, "vmboots: cannot run %s/../report/vmreport: "
		    "%s\n", ctx->bindir, strerror(ENOENT));
	return rc < 0 ? 127 : rc;
}

/* The closing summary: a line per boot, then each side's count. */
static void
summary(struct boots_ctx *ctx, double elapsed)
{
	char a[32], b[32], c[32], d[32], run[16];
	int i, ok[2] = { 0, 0 }, all[2] = { 0, 0 }, k, w = 5;

	for (k = 0; k < 2; k++)
		if ((int)strlen(ctx->sd[k].label) > w)
			w = (int)strlen(ctx->sd[k].label);
	fprintf(stderr, "\n%4s %-4s %-*s %-6s %-11s %8s %8s %8s %8s\n",
	    "boot", "side", w, "label", "run", "status", "boot", "suite",
	    "shutdown", "total");
	for (i = 0; i < ctx->nboots; i++) {
		struct boot *x = &ctx->boots[i];

		vb_run_name(run, sizeof(run), x->run);
		fprintf(stderr, "%4d %-4c %-*s %-6s %-11s %8s %8s %8s "
		    "%8s\n", i + 1, 'A' + x->side, w, ctx->sd[x->side].label,
		    run, x->status, bt_fmt_time(a, sizeof(a), x->boot_s),
		    bt_fmt_time(b, sizeof(b), x->suite_s),
		    bt_fmt_time(c, sizeof(c), x->down_s),
		    bt_fmt_time(d, sizeof(d), x->total_s));
		if (x->cause[0])
			fprintf(stderr, "%10s%s\n", "", x->cause);
		all[x->side]++;
		ok[x->side] += strcmp(x->status, "ok") == 0;
	}
	for (k = 0; k < 2; k++)
		fprintf(stderr, "%s%c: %d of %d boots ok, into %s/", k ? ", " :
		    "vmboots: ", 'A' + k, ok[k], all[k], ctx->labeldir[k]);
	fprintf(stderr, "; %s under %s\n", bt_fmt_time(a, sizeof(a), elapsed),
	    ctx->tcg ? "TCG (emulated: compare these figures only with each "
	    "other)" : "KVM");
}

/* The QEMU version's first line, for meta. */
static void
qemu_version(struct boots_ctx *ctx)
{
	char *argv[] = { (char *)ctx->o.qemu, "--version", NULL }, *out;
	int rc = vb_run(argv, NULL, NULL, &out);

	if (rc == 127)
		die("%s not found: install it (apt-get install "
		    "qemu-system-x86, or make deps-boots)", ctx->o.qemu);
	out[strcspn(out, "\n")] = '\0';
	snprintf(ctx->qemu_version, sizeof(ctx->qemu_version), "%s",
	    rc == 0 && out[0] ? out : "unknown");
	free(out);
}

/* Where the config goes in the guest: its own path, or configs/NAME. */
static void
config_in(struct boots_ctx *ctx, const char *config)
{
	const char *b = strrchr(config, '/');
	const char *c = config;

	while (strncmp(c, "./", 2) == 0)
		c += 2;
	if (c[0] != '/' && strncmp(c, "../", 3) != 0 && !strstr(c, "/../"))
		snprintf(ctx->config_in, sizeof(ctx->config_in), "vmbench/%s",
		    c);
	else
		snprintf(ctx->config_in, sizeof(ctx->config_in),
		    "vmbench/configs/%s", b ? b + 1 : config);
}

/* Read the config (to count its iterations) and see that it is text. */
static void
read_config(struct boots_ctx *ctx, const char *path)
{
	struct vb_conf c;
	char err[1024];

	if (vb_conf_read(path, &c, err, sizeof(err)) < 0)
		die("%s", err);
	ctx->iterations = vb_conf_iterations(&c);
	vb_conf_free(&c);
}

/* Check the options and make the plan. */
static void
plan(struct boots_ctx *ctx)
{
	char err[VB_ERRLEN + 300];
	uint64_t mem, m;
	int k;

	if (!ctx->o.kernel[0] || !*ctx->o.kernel[0])
		die("name side A's kernel: A_KERNEL=/path/vmlinuz (make "
		    "test-kernel fetches Debian's into ~/.cache/vmbench)");
	if (!ctx->o.kernel[1] || !*ctx->o.kernel[1])
		ctx->o.kernel[1] = ctx->o.kernel[0];
	if (vb_ab_order_ok(ctx->o.order, err, sizeof(err)) < 0)
		die("%s", err);
	if (vb_parse_size(ctx->o.vm_mem, 64 << 20, 1ULL << 42, &mem, err) < 0)
		die("VM_MEM=%s: %s", ctx->o.vm_mem, err);
	if (vb_parse_size(ctx->o.disk, 64 << 20, 1ULL << 44, &m, err) < 0)
		die("VM_DISK=%s: %s", ctx->o.disk, err);
	bt_check_path("CONFIG", ctx->o.config);
	bt_check_path("RESULTS", ctx->o.results);
	for (k = 0; k < 2; k++) {
		struct bt_side *s = &ctx->sd[k];
		const char *name = k ? "B_KERNEL" : "A_KERNEL";

		bt_check_path(name, ctx->o.kernel[k]);
		s->image = ctx->o.kernel[k];
		if (bt_image_version(s->image, s->version, sizeof(s->version),
		    s->release, sizeof(s->release), err, sizeof(err)) < 0)
			die("%s=%s: %s", name, s->image, err);
		s->cmdline = ctx->o.cmdline[k] ? ctx->o.cmdline[k] : "";
		if (strlen(s->cmdline) > BT_CMDLINE_MAX ||
		    strpbrk(s->cmdline, "\n\r"))
			die("%s_CMDLINE: one line of at most %d characters",
			    k ? "B" : "A", BT_CMDLINE_MAX);
		m = mem;
		if (ctx->o.mem[k] && vb_parse_size(ctx->o.mem[k], 64 << 20,
		    1ULL << 42, &m, err) < 0)
			die("%s_MEM=%s: %s", k ? "B" : "A", ctx->o.mem[k], err);
		s->mem = m;
		if (ctx->o.label[k] && *ctx->o.label[k])
			snprintf(s->label, sizeof(s->label), "%s",
			    ctx->o.label[k]);
		if (ctx->o.label[k] && !vb_label_ok(ctx->o.label[k]))
			die("%s_LABEL '%s': " VB_LABEL_RULE, k ? "B" : "A",
			    ctx->o.label[k]);
	}
	if (bt_default_labels(&ctx->sd[0], &ctx->sd[1], err, sizeof(err)) < 0)
		die("%s", err);
	vb_ab_schedule(ctx->o.order, (int)ctx->o.boots, ctx->order);
	for (k = 0; k < 2; k++) {
		snprintf(ctx->labeldir[k], sizeof(ctx->labeldir[k]), "%s/%s",
		    ctx->o.results, ctx->sd[k].label);
		bt_find_modules(ctx, k);
	}
	read_config(ctx, ctx->o.config);
	config_in(ctx, ctx->o.config);
}

/* The suite's folder (bench/, where this program is) and the tree's. */
static void
find_bindir(struct boots_ctx *ctx)
{
	char *s;

	if (vb_bindir(ctx->bindir, sizeof(ctx->bindir)) < 0)
		die_errno("cannot find my own program");
	snprintf(ctx->root, sizeof(ctx->root), "%s", ctx->bindir);
	if ((s = strrchr(ctx->root, '/')))
		*s = '\0';
}

/*
 * Refuse, before anything is run or made, the folder @path (the option
 * @what) when it is not a folder or, missing, cannot be made: its
 * parent is not a folder.
 */
static void
check_out_dir(const char *what, const char *path)
{
	char parent[PATH_MAX], *s;
	struct stat st;

	if (stat(path, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			die("%s=%s: not a folder", what, path);
		return;
	}
	if (errno != ENOENT)
		die("%s=%s: %s", what, path, strerror(errno));
	snprintf(parent, sizeof(parent), "%s", path);
	while ((s = strrchr(parent, '/')) && s > parent && !s[1])
		*s = '\0';
	s = strrchr(parent, '/');
	if (!s)
		return;		/* in the current folder */
	s[s == parent] = '\0';
	if (stat(parent, &st) < 0)
		die("%s=%s: cannot create it: %s", what, path,
		    strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die("%s=%s: cannot create it: %s is not a folder", what, path,
		    parent);
}

/* The work folder: --workdir, $VMBENCH_WORKDIR, or ./work. */
static const char *
workdir_name(struct boots_ctx *ctx)
{
	const char *w = vb_workdir_name(ctx->o.workdir);

	bt_check_path("WORKDIR", w);
	return w;
}

/* The work folder made (when @make) and resolved; 0, or -1: none. */
static int
find_workdir(struct boots_ctx *ctx, int make)
{
	const char *w = workdir_name(ctx);
	int rc, made_failed;

	rc = vb_workdir_find(w, make, ctx->workdir, &made_failed);
	if (rc > 0) {
		snprintf(ctx->workdir, sizeof(ctx->workdir), "%s", w);
		return -1;
	}
	if (rc < 0 && made_failed)
		die_errno("cannot create the work folder %s", w);
	if (rc < 0)
		die_errno("the work folder %s", w);
	/* its folders are the boots': ours or root's, sticky if shared */
	{
		char err[PATH_MAX + 128];
		int fd = vb_dir_open_parent(ctx->workdir, err, sizeof(err));

		if (fd < 0)
			die("%s (WORKDIR=)", err);
		close(fd);
	}
	return 0;
}

/* The tools the plan needs, each named with its package when missing. */
static void
need_tools(struct boots_ctx *ctx)
{
	static const char *const tool[][2] = {
		{ "mkfs.ext4", "e2fsprogs" }, { "e2fsck", "e2fsprogs" },
		{ "debugfs", "e2fsprogs" }, { "ldd", "libc-bin" },
	};
	size_t i;

	qemu_version(ctx);
	for (i = 0; i < sizeof(tool) / sizeof(tool[0]); i++)
		if (!vb_have(tool[i][0]))
			die("%s not found: install %s (make deps-boots)",
			    tool[i][0], tool[i][1]);
	if (!vb_have(ctx->o.busybox))
		die("%s not found: install busybox-static (make deps-boots)",
		    ctx->o.busybox);
}

/* Link the images into the temporary folder and build the initramfs. */
static void
prepare(struct boots_ctx *ctx)
{
	char p[PATH_MAX + 64], img[PATH_MAX], bb[PATH_MAX], err[1024];
	struct bt_guest g;
	int k;

	if (!strchr(ctx->o.busybox, '/')) {
		char *argv[] = { "which", (char *)ctx->o.busybox, NULL }, *out;

		if (vb_run(argv, NULL, NULL, &out) != 0)
			die("%s not found: install busybox-static",
			    ctx->o.busybox);
		out[strcspn(out, "\n")] = '\0';
		snprintf(bb, sizeof(bb), "%s", out);
		free(out);
	} else {
		snprintf(bb, sizeof(bb), "%s", ctx->o.busybox);
	}
	for (k = 0; k < 2; k++) {
		snprintf(p, sizeof(p), "%s/%c.kernel", ctx->tmp, 'a' + k);
		if (!realpath(ctx->sd[k].image, img) || symlink(img, p) < 0)
			die_errno("cannot link %s", ctx->sd[k].image);
		snprintf(ctx->initrd[k], sizeof(ctx->initrd[k]),
		    "%s/%c.initramfs", ctx->tmp, 'a' + k);
		if (k == 1 && strcmp(ctx->moddir[0], ctx->moddir[1]) == 0) {
			snprintf(ctx->initrd[1], sizeof(ctx->initrd[1]), "%s",
			    ctx->initrd[0]);
			continue;
		}
		memset(&g, 0, sizeof(g));
		g.bindir = ctx->bindir;
		g.root = ctx->root;
		g.config = ctx->o.config;
		g.config_in = ctx->config_in;
		g.busybox = bb;
		g.moddir = ctx->moddir[k][0] ? ctx->moddir[k] : NULL;
		g.with_vmboots = ctx->kexec;
		if (bt_build_initramfs(&g, ctx->initrd[k], err,
		    sizeof(err)) < 0)
			die("%c: the guest's initramfs: %s", 'A' + k, err);
	}
}

/*
 * The plan's start: the signals caught (a signal ends the plan and
 * cleans up), both labels locked and checked (a folder of one run, or
 * one whose runs another plan made, is refused), the temporary folder and
 * its state file made, the guest prepared, the accelerator chosen; the
 * line that says what will boot.
 */
static void
begin(struct boots_ctx *ctx)
{
	char err[VB_ERRLEN + 300], a[32], b[32];
	int k;

	/* from here on a signal ends the plan and cleans up */
	vb_catch_signals(on_signal);
	for (k = 0; k < 2; k++) {
		int next;

		bt_lock_label(ctx, k);
		if (vb_runs_next(ctx->labeldir[k], &next, err,
		    sizeof(err)) < 0 || bt_label_plan_check(ctx->labeldir[k],
		    ctx->sd[k].label, ctx->sd[!k].label, 'A' + k, err,
		    sizeof(err)) < 0) {
			bt_cleanup(ctx);
			die("%s", err);
		}
	}
	bt_die_hook(ctx);
	if ((size_t)snprintf(ctx->tmp, sizeof(ctx->tmp), "%s/vmboots.XXXXXX",
	    ctx->workdir) >= sizeof(ctx->tmp))
		die("%s: path too long", ctx->workdir);
	if (!mkdtemp(ctx->tmp)) {
		ctx->tmp[0] = '\0';
		die_errno("cannot create a folder in %s", ctx->workdir);
	}
	bt_save_state(ctx);
	if ((size_t)snprintf(ctx->toollog, sizeof(ctx->toollog), "%s/tools.log",
	    ctx->tmp) >= sizeof(ctx->toollog))
		die("%s: path too long", ctx->tmp);
	prepare(ctx);
	if (!strcmp(ctx->o.accel, "tcg"))
		ctx->tcg = 1;
	else if (!strcmp(ctx->o.accel, "kvm"))
		ctx->tcg = 0;
	else
		ctx->tcg = !bt_probe_kvm(ctx);
	ctx->nboots = (int)strlen(ctx->order);
	ctx->boots = vb_xcalloc((size_t)ctx->nboots, sizeof(*ctx->boots));
	fprintf(stderr, "vmboots: %s, %d boots (order %s) under %s, "
	    "%s and %d CPU%s a VM; A: %s%s%s into %s/, B: %s%s%s into %s/\n",
	    ctx->o.config, ctx->nboots, ctx->order, ctx->tcg ? "TCG" : "KVM",
	    vb_fmt_size(a, sizeof(a), ctx->sd[0].mem), (int)ctx->o.cpus,
	    ctx->o.cpus == 1 ? "" : "s", ctx->sd[0].release,
	    ctx->sd[0].cmdline[0] ? " " : "", ctx->sd[0].cmdline,
	    ctx->labeldir[0], ctx->sd[1].release, ctx->sd[1].cmdline[0] ? " " :
	    "", ctx->sd[1].cmdline, ctx->labeldir[1]);
	if (ctx->sd[0].mem != ctx->sd[1].mem)
		fprintf(stderr, "vmboots: A has %s, B %s\n",
		    vb_fmt_size(a, sizeof(a), ctx->sd[0].mem),
		    vb_fmt_size(b, sizeof(b), ctx->sd[1].mem));
}

/*
 * The boots of the plan, in its order, each with its time limit (from
 * the slowest good boot so far); a line each.  Stops at a signal, or
 * when every boot of both sides has failed.  The boots that ended well.
 */
static int
run_boots(struct boots_ctx *ctx, uint64_t t0)
{
	char a[32], b[32], c[32];
	double slowest = 0, limit, done_s = 0;
	int i, k, nok = 0, tried[2] = { 0, 0 };

	if (ctx->kexec == 1) {
		bt_kexec_in_qemu(ctx);
		for (i = 0; i < ctx->nboots; i++)
			nok += strcmp(ctx->boots[i].status, "ok") == 0;
	}
	for (i = ctx->kexec ? ctx->nboots : 0; i < ctx->nboots && !stop_signal;
	    i++) {
		struct boot *x = &ctx->boots[i];

		k = ctx->order[i] == 'B';
		limit = bt_timeout(ctx->o.timeout, ctx->tcg, ctx->iterations,
		    slowest);
		fprintf(stderr, "vmboots: boot %d of %d: %c (%s), elapsed %s, "
		    "ETA %s\n", i + 1, ctx->nboots, 'A' + k, ctx->sd[k].label,
		    bt_fmt_time(a, sizeof(a), vb_elapsed_s(t0)), i == 0 ? "-" :
		    bt_fmt_time(b, sizeof(b), done_s / i * (ctx->nboots - i)));
		quiet_wait(ctx);
		if (stop_signal)
			break;
		bt_boot_one(ctx, i, k, x, limit);
		done_s += x->total_s;
		tried[k]++;
		if (strcmp(x->status, "ok") == 0) {
			nok++;
			if (x->total_s > slowest)
				slowest = x->total_s;
			fprintf(stderr, "vmboots: boot %d: %c ok in %s (boot "
			    "%s, suite %s) -> %s/run%d\n", i + 1, 'A' + k,
			    bt_fmt_time(a, sizeof(a), x->total_s),
			    bt_fmt_time(b, sizeof(b), x->boot_s),
			    bt_fmt_time(c, sizeof(c), x->suite_s),
			    ctx->labeldir[k], x->run);
		} else {
			fprintf(stderr, "vmboots: boot %d (%c, %s): %s: %s; "
			    "recorded as %s/run%d\n", i + 1, 'A' + k,
			    ctx->sd[k].label, x->status, x->cause,
			    ctx->labeldir[k], x->run);
		}
		/* a kernel that never boots does not get BOOTS chances */
		if (!stop_signal && nok == 0 && tried[0] && tried[1]) {
			fprintf(stderr, "vmboots: every boot so far failed, "
			    "A's and B's: stopping the plan\n");
			i++;
			break;
		}
	}
	ctx->nboots = i;
	return nok;
}

int
main(int argc, char **argv)
{
	/* static: what it holds stays reachable to the end (exit()) */
	static struct boots_ctx run = BOOTS_CTX_INIT;
	struct boots_ctx *ctx = &run;
	char err[VB_ERRLEN + 300], *path;
	struct utsname u;
	uint64_t t0;
	int k, nok, rc;

	vb_set_progname("vmboots");
	signal(SIGPIPE, SIG_IGN);
	/* started by make: stop when make is stopped (parentwatch.h) */
	if (vb_parent_watch() < 0)
		vb_warn_errno("cannot watch make, its parent");
	if (vb_opt_parse(opt_tab, &ctx->o, argc - 1, argv + 1, NULL, err,
	    sizeof(err)) < 0)
		die("%s", err);
	if (ctx->o.help) {
		usage(stdout);
		return 0;
	}
	/* at boot, under a kexec plan: this step, then the next jump */
	if (ctx->o.cont)
		return bt_kexec_continue(ctx->o.cont) == 0 ? 0 : 1;
	ctx->kexec = !strcmp(ctx->o.method, "qemu-kexec") ? 1 :
	    !strcmp(ctx->o.method, "kexec") ? 2 : 0;
	parse_quiet(ctx);
	if (ctx->kexec && ctx->quiet_pct > 0)
		die("--quiet waits before each boot in QEMU (--method qemu), "
		    "not under --method %s", ctx->o.method);
	/* mkfs.ext4 and friends live in sbin, not always in a user's PATH */
	path = getenv("PATH");
	if (asprintf(&path, "%s:/usr/sbin:/sbin", path && *path ? path :
	    "/usr/local/bin:/usr/bin:/bin") < 0)
		die("out of memory");
	setenv("PATH", path, 1);
	free(path);
	find_bindir(ctx);
	if (ctx->o.clean_stale) {
		if (find_workdir(ctx, 0) < 0)
			fprintf(stderr, "vmboots: nothing left by earlier runs "
			    "in %s (no such folder)\n", ctx->workdir);
		else if (bt_clean_stale(ctx->workdir) == 0)
			fprintf(stderr, "vmboots: nothing left by earlier runs "
			    "in %s\n", ctx->workdir);
		return 0;
	}
	/* bad input refused before anything is run or made */
	plan(ctx);
	check_out_dir("RESULTS", ctx->o.results);
	check_out_dir("WORKDIR", workdir_name(ctx));
	if (ctx->kexec == 2) {
		find_workdir(ctx, 1);
		bt_own_results(ctx);
		ctx->nboots = (int)strlen(ctx->order);
		bt_kexec_here(ctx);
	}
	need_tools(ctx);
	find_workdir(ctx, 1);
	bt_clean_stale(ctx->workdir);
	if (uname(&u) == 0)
		snprintf(ctx->host_kernel, sizeof(ctx->host_kernel), "%s",
		    u.release);
	bt_own_results(ctx);
	if (!realpath(ctx->o.results, ctx->results_abs))
		die_errno("RESULTS=%s", ctx->o.results);
	begin(ctx);
	t0 = vb_now_ns();
	nok = run_boots(ctx, t0);
	summary(ctx, vb_elapsed_s(t0));
	bt_cleanup(ctx);
	vb_set_die_hook(NULL, NULL);
	if (stop_signal) {
		fprintf(stderr, "vmboots: interrupted; the boots that ended "
		    "are kept in %s/ and %s/\n", ctx->labeldir[0],
		    ctx->labeldir[1]);
		return 130;
	}
	if (nok == 0) {
		fprintf(stderr, "vmboots: every boot failed\n");
		return 1;
	}
	rc = nok == ctx->nboots ? 0 : 1;
	/* a report that failed said so: not a plan that ended well */
	if (!ctx->o.no_report && (k = report(ctx)) != 0) {
		fprintf(stderr, "vmboots: the report of %s/ and %s/ failed "
		    "(vmreport exit %d)\n", ctx->labeldir[0], ctx->labeldir[1],
		    k);
		rc = 1;
	}
	free(ctx->boots);
	return rc;
}
