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

struct opts {
	const char *kernel[2], *label[2], *cmdline[2], *mem[2], *modules[2];
	const char *vm_mem, *config, *results, *workdir, *order, *accel;
	const char *method, *qemu, *busybox, *disk, *initrd[2], *cont;
	uint64_t cpus, boots;
	double timeout;
	int clean_stale, no_report, help;
};

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

/* one boot of the plan, as it ended */
struct boot {
	int side, run;
	const char *status;	/* ok, failed, interrupted */
	char cause[256];
	double boot_s, suite_s, down_s, total_s;	/* < 0: not seen */
};

static struct {
	struct opts o;
	struct bt_side sd[2];
	char moddir[2][2 * PATH_MAX + 64];
	char labeldir[2][PATH_MAX];
	struct vb_label_lock lk[2];	/* RESULTS/.LABEL.lock (label.h) */
	char bindir[PATH_MAX], root[PATH_MAX];
	char workdir[PATH_MAX];
	char tmp[PATH_MAX + 32];	/* WORKDIR/vmboots.XXXXXX; "" none */
	char staging[PATH_MAX];	/* LABELDIR/.boot-PID while reading */
	char results_abs[PATH_MAX];	/* RESULTS, absolute */
	int cur_side, cur_boot;	/* the boot under way (cur_boot 0: none) */
	char initrd[2][PATH_MAX + 64];
	char toollog[PATH_MAX + 64];	/* mkfs, e2fsck, debugfs say */
	char config_in[PATH_MAX];
	char host_kernel[300], qemu_version[128];
	int tcg;
	int kexec;		/* 1: qemu-kexec, 2: this machine */
	int iterations;
	pid_t qemu;
	struct boot *boots;
	int nboots;
	char order[2 * BT_BOOTS_MAX + 1];
} S = { .lk = { { .fd = -1 }, { .fd = -1 } } };

static volatile sig_atomic_t stop_signal, nsignals;

static void
on_signal(int sig)
{
	stop_signal = sig;
	nsignals++;
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
static void
check_path(const char *what, const char *p)
{
	if (!p || !*p)
		die("%s: empty path", what);
	if (strchr(p, '\n') || strlen(p) > PATH_MAX - 200)
		die("%s: bad path (a newline, or too long)", what);
}

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
static void
save_state(void)
{
	char p[PATH_MAX + 96], text[3 * PATH_MAX];
	int n;

	if (!S.tmp[0])
		return;
	snprintf(p, sizeof(p), "%s/state", S.tmp);
	n = snprintf(text, sizeof(text), "pid=%ld\nstart=%llu\nqemu=%ld\n"
	    "staging=%s\n", (long)getpid(), proc_start(getpid()),
	    (long)S.qemu, S.staging);
	/* the boot under way: what the next run records if this one dies */
	if (S.cur_boot > 0 && S.results_abs[0])
		n += snprintf(text + n, sizeof(text) - (size_t)n, "boot=%d\n"
		    "boot_side=%c\nboot_label=%s\nboot_results=%s\n",
		    S.cur_boot, 'A' + S.cur_side, S.sd[S.cur_side].label,
		    S.results_abs);
	if (vb_file_replace(p, text, (size_t)n) < 0)
		vb_warn_errno("cannot write %s", p);
}

/* End the process @pid: TERM, then KILL after @grace seconds. */
static void
end_process(pid_t pid, double grace, int child)
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
static void
cleanup(void)
{
	int k;

	if (S.qemu > 0) {
		end_process(S.qemu, 2, 1);
		S.qemu = 0;
	}
	if (S.staging[0]) {
		vb_rmtree(S.staging);
		S.staging[0] = '\0';
	}
	if (S.tmp[0]) {
		if (vb_rmtree(S.tmp) < 0)
			vb_warn_errno("cannot remove %s", S.tmp);
		S.tmp[0] = '\0';
	}
	for (k = 0; k < 2; k++)
		vb_label_unlock(&S.lk[k]);
}

static int copy_file(const char *src, const char *dst);

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
	char disk[PATH_MAX + 300], err[1024], run[16], id[64], why[160];
	char up[32], rel[80];
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
	snprintf(run, sizeof(run), "%d", r);
	snprintf(why, sizeof(why), "vmboots (pid %ld) was killed during this "
	    "boot; recorded by the next run", pid);
#define KV(k_, v_) do { kv[n].key = (k_); kv[n].val = (char *)(v_); n++; \
	} while (0)
	KV("run", run);
	KV("method", "qemu");
	KV("boot_status", "interrupted");
	KV("boot_failure", why);
	KV("boot_side", side);
	if (bt_kv_get(p, "boot_id", id, sizeof(id)))
		KV("boot_id", id);
	if (bt_kv_get(p, "uptime_start", up, sizeof(up)))
		KV("uptime_start", up);
	if (bt_kv_get(p, "guest_release", rel, sizeof(rel)))
		KV("boot_release", rel);
#undef KV
	if (bt_collect(stage, label, bdir, r, "interrupted", kv, n, err,
	    sizeof(err)) < 0) {
		fprintf(stderr, "vmboots: a killed run (pid %ld) lost its boot "
		    "%s: %s\n", pid, v, err);
	} else {
		char con[PATH_MAX + 300];

		snprintf(con, sizeof(con), "%s/console", dir);
		snprintf(p, sizeof(p), "%s/run%d/console.txt", bdir, r);
		copy_file(con, p);
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
static int
clean_stale(const char *workdir)
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
				end_process(qemu, 2, 0);
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
static void
own_dir(const char *dir)
{
	char err[PATH_MAX + 128];
	int fd = vb_dir_open(dir, 1, err, sizeof(err));

	if (fd < 0)
		die("%s", err);
	close(fd);
}

/* RESULTS= and the two label folders there, before anything is written. */
static void
own_results(void)
{
	struct stat st;
	int k;

	own_dir(S.o.results);
	for (k = 0; k < 2; k++)
		if (lstat(S.labeldir[k], &st) == 0)
			own_dir(S.labeldir[k]);
}

/*
 * One run of a label at a time, the lock vmrun takes (label.h):
 * RESULTS/.LABEL.lock; a symlink or another user's file there is
 * refused.  Before anything boots, in one line.
 */
static void
lock_label(int k)
{
	char err[PATH_MAX + 300];

	if (vb_label_lock(&S.lk[k], S.o.results, S.sd[k].label, err,
	    sizeof(err)) < 0) {
		cleanup();
		die("%s", err);
	}
}

/*
 * The modules folder of side @k: --X-modules, else lib/modules/RELEASE
 * beside the image (IMAGE/../../lib/modules/RELEASE, as dpkg-deb -x
 * lays a package out), else the host's /lib/modules/RELEASE; "" when
 * none (a kernel with virtio built in needs none).
 */
static void
find_modules(int k)
{
	char img[PATH_MAX], p[2 * PATH_MAX], *s;
	struct stat st;

	S.moddir[k][0] = '\0';
	if (S.o.modules[k]) {
		check_path(k ? "B_MODULES" : "A_MODULES", S.o.modules[k]);
		if (stat(S.o.modules[k], &st) < 0 || !S_ISDIR(st.st_mode))
			die("%s=%s: not a folder", k ? "B_MODULES" :
			    "A_MODULES", S.o.modules[k]);
		snprintf(S.moddir[k], sizeof(S.moddir[k]), "%s",
		    S.o.modules[k]);
		return;
	}
	if (realpath(S.sd[k].image, img)) {
		if ((s = strrchr(img, '/')))
			*s = '\0';
		if ((s = strrchr(img, '/')))
			*s = '\0';
		snprintf(p, sizeof(p), "%s/lib/modules/%s", img,
		    S.sd[k].release);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(S.moddir[k], sizeof(S.moddir[k]), "%s", p);
			return;
		}
	}
	snprintf(p, sizeof(p), "/lib/modules/%s", S.sd[k].release);
	if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(S.moddir[k], sizeof(S.moddir[k]), "%s", p);
		return;
	}
	fprintf(stderr, "vmboots: %c (%s): no modules folder for %s "
	    "(%s_MODULES=): its kernel must have virtio_pci and "
	    "virtio_blk built in\n", 'A' + k, S.sd[k].label,
	    S.sd[k].release, k ? "B" : "A");
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
static char *
fmt_time(char *buf, size_t len, double s)
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
qemu_argv(int k, const char *disk, const char *console, const char *ctl,
    int kvm)
{
	static char mem[32], cpus[16], drive[2 * PATH_MAX], serial[PATH_MAX +
	    16], kernel[PATH_MAX + 64], append[BT_CMDLINE_MAX + 128];
	static char ctlarg[PATH_MAX + 96];
	static char *argv[40];
	const char *p;
	size_t o = 0;
	int i = 0;

	snprintf(mem, sizeof(mem), "%lluM",
	    (unsigned long long)(S.sd[k].mem >> 20));
	snprintf(cpus, sizeof(cpus), "%llu", (unsigned long long)S.o.cpus);
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
	snprintf(kernel, sizeof(kernel), "%s/%c.kernel", S.tmp, 'a' + k);
	snprintf(append, sizeof(append), "console=ttyS0 panic=-1 "
	    "rdinit=/init quiet%s%s%s", S.sd[k].cmdline[0] ? " " : "",
	    S.sd[k].cmdline, S.kexec ? " vmbench.boot=0" : "");
	argv[i++] = (char *)S.o.qemu;
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
	argv[i++] = S.initrd[k];
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
static int
copy_file(const char *src, const char *dst)
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

/* The line of @path that holds @needle, from it to its end, in @out. */
static int
grep_line(const char *path, const char *needle, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, needle);

		if (p) {
			p[strcspn(p, "\r\n")] = '\0';
			snprintf(out, len, "%s", p);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* The last line of @path that starts with @prefix, into @out. */
static int
last_match(const char *path, const char *prefix, char *out, size_t len)
{
	FILE *f = fopen(path, "re");
	char line[512];
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (strncmp(line, prefix, strlen(prefix)) == 0) {
			snprintf(out, len, "%s", line);
			found = 1;
		}
	}
	fclose(f);
	return found;
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

/* Seconds a guest asked to stop has to end its suite and flush. */
#define STOP_GRACE_SIGNAL 60
#define STOP_GRACE_TIMEOUT 20

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
static int
run_vm(int k, const char *disk, const char *console, const char *qlog,
    int kvm, double limit, double t[2], double *total)
{
	char ctl[PATH_MAX + 64];
	char **argv;
	uint64_t t0 = vb_now_ns();
	off_t off = 0;
	double asked = -1;
	int st, rc = 0, why = 0;

	snprintf(ctl, sizeof(ctl), "%s/ctl", S.tmp);
	if (make_ctl(ctl) < 0)
		die_errno("cannot make %s.in", ctl);
	argv = qemu_argv(k, disk, console, ctl, kvm);
	t[0] = t[1] = -1;
	S.qemu = vb_spawn(argv, NULL, qlog);
	if (S.qemu < 0) {
		S.qemu = 0;
		return -3;
	}
	save_state();
	for (;;) {
		pid_t w = waitpid(S.qemu, &st, WNOHANG);
		double now = vb_elapsed_s(t0);

		watch_console(console, &off, t, now);
		if (w == S.qemu) {
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
			end_process(S.qemu, 2, 1);
			rc = why;
			break;
		}
		/* a signal during a timeout's grace: the signal's */
		if (why == -1 && stop_signal)
			why = -2;
		usleep(50000);
	}
	*total = vb_elapsed_s(t0);
	S.qemu = 0;
	save_state();
	return rc;
}

/*
 * Why a boot that did not end well ended so, from what came back (the
 * guest's files in @got), the console and QEMU's messages.
 */
static void
find_cause(int vmrc, const char *got, const char *console, const char *qlog,
    double limit, char *cause, size_t len)
{
	char p[PATH_MAX + 32], v[512], line[600];
	struct stat st;

	if (vmrc == -2) {
		snprintf(cause, len, "interrupted");
		return;
	}
	if (vmrc == -3) {
		snprintf(cause, len, "cannot start %s: %s", S.o.qemu,
		    strerror(errno));
		return;
	}
	snprintf(p, sizeof(p), "%s/vmboots/failed", got);
	if (bt_kv_get(p, "", v, sizeof(v)) || vb_last_line(p, v, sizeof(v))) {
		snprintf(cause, len, "%.200s", v);
		return;
	}
	if (grep_line(console, "Kernel panic - not syncing", line,
	    sizeof(line))) {
		snprintf(cause, len, "kernel panic: %.200s", line + 28);
		return;
	}
	if (grep_line(console, "Out of memory: Killed process", line,
	    sizeof(line)) || grep_line(console, "invoked oom-killer", line,
	    sizeof(line))) {
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
		if (last_match(console, "vmrun: ", line, sizeof(line)))
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
make_job(int k, const char *job, int probe)
{
	char p[PATH_MAX + 96];

	vb_rmtree(job);
	snprintf(p, sizeof(p), "%s/vmboots", job);
	if (mkdir(job, 0755) < 0 || mkdir(p, 0755) < 0)
		die_errno("cannot create %s", p);
	if (probe) {
		put_file(p, "probe", "");
		return;
	}
	put_file(p, "label", S.sd[k].label);
	put_file(p, "config", S.config_in + strlen("vmbench/"));
}

/*
 * ACCEL=auto: KVM when /dev/kvm opens and a probe boot of side A's
 * kernel under it reaches init and writes to its disk within 30 s; else
 * TCG, saying why.
 */
static int
probe_kvm(void)
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
	snprintf(job, sizeof(job), "%s/probe-job", S.tmp);
	snprintf(disk, sizeof(disk), "%s/probe.img", S.tmp);
	snprintf(con, sizeof(con), "%s/probe.console", S.tmp);
	snprintf(qlog, sizeof(qlog), "%s/probe.qemu", S.tmp);
	snprintf(got, sizeof(got), "%s/probe-got", S.tmp);
	make_job(0, job, 1);
	if (bt_disk_make(disk, 64 << 20, job, S.toollog, err, sizeof(err)) < 0)
		die("%s", err);
	rc = run_vm(0, disk, con, qlog, 1, 30, t, &total);
	snprintf(p, sizeof(p), "%s/vmboots/probe", got);
	if (rc >= 0 && bt_disk_read(disk, got, S.toollog, err,
	    sizeof(err)) == 0 && vb_last_line(p, v, sizeof(v)) &&
	    strcmp(v, "ok") == 0)
		ok = 1;
	if (stop_signal)
		return 0;
	if (!ok) {
		if (rc == -1)
			snprintf(why, sizeof(why), "a guest did not reach "
			    "init in 30 s");
		else if (!grep_line(qlog, "error:", why, sizeof(why)) &&
		    !vb_last_line(qlog, why, sizeof(why)))
			snprintf(why, sizeof(why), "the probe boot failed");
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
static void
boot_one(int i, int k, struct boot *b, double limit)
{
	char job[PATH_MAX + 96], disk[PATH_MAX + 96], con[PATH_MAX + 96];
	char qlog[PATH_MAX + 96], p[2 * PATH_MAX], err[1024], v[256];
	char vm_mem[32], cpus[16], run[16], bs[32], ss[32], ds[32];
	char id[64], up[32], rel[80], ikb[32];
	struct stat ist;
	const char *status;
	double t[2], total;
	struct vb_kv kv[28];
	int n = 0, vmrc, got_ok;
	uint64_t size;

	memset(b, 0, sizeof(*b));
	b->side = k;
	b->boot_s = b->suite_s = b->down_s = -1;
	snprintf(job, sizeof(job), "%s/job", S.tmp);
	snprintf(disk, sizeof(disk), "%s/disk.img", S.tmp);
	snprintf(con, sizeof(con), "%s/console", S.tmp);
	snprintf(qlog, sizeof(qlog), "%s/qemu.log", S.tmp);
	unlink(con);
	unlink(qlog);
	make_job(k, job, 0);
	if (vb_parse_size(S.o.disk, 64 << 20, 1ULL << 44, &size, err) < 0)
		die("--disk: %s", err);
	if (bt_disk_make(disk, size, job, S.toollog, err, sizeof(err)) < 0)
		die("boot %d: %s", i + 1, err);
	S.cur_boot = i + 1;
	S.cur_side = k;
	vmrc = run_vm(k, disk, con, qlog, !S.tcg, limit, t, &total);
	b->total_s = total;
	if (t[0] >= 0) {
		b->boot_s = t[0];
		if (t[1] >= 0) {
			b->suite_s = t[1] - t[0];
			b->down_s = total - t[1];
		}
	}

	/* what came back: read it beside the label's runs, then move it */
	own_dir(S.labeldir[k]);
	snprintf(S.staging, sizeof(S.staging), "%s/.boot-%ld", S.labeldir[k],
	    (long)getpid());
	vb_rmtree(S.staging);
	save_state();
	got_ok = vmrc != -3 && bt_disk_read(disk, S.staging, S.toollog, err,
	    sizeof(err)) == 0;
	if (vmrc != -3 && !got_ok)
		fprintf(stderr, "vmboots: boot %d: %s\n", i + 1, err);
	snprintf(p, sizeof(p), "%s/vmboots/guest", S.staging);
	if (vmrc == 0 && got_ok && bt_kv_get(p, "vmrun_exit", v, sizeof(v)) &&
	    strcmp(v, "0") == 0)
		status = "ok";
	else
		status = vmrc == -2 ? "interrupted" : "failed";
	if (strcmp(status, "ok") != 0)
		find_cause(vmrc, S.staging, con, qlog, limit, b->cause,
		    sizeof(b->cause));
	b->status = status;

	if (vb_runs_next(S.labeldir[k], &b->run, err, sizeof(err)) < 0)
		die("%s", err);
	snprintf(run, sizeof(run), "%d", b->run);
	vb_fmt_size(vm_mem, sizeof(vm_mem), S.sd[k].mem);
	snprintf(cpus, sizeof(cpus), "%llu", (unsigned long long)S.o.cpus);
#define KV(k_, v_) do { kv[n].key = (k_); kv[n].val = (char *)(v_); n++; \
	} while (0)
	KV("run", run);
	KV("method", "qemu");
	KV("boot_status", status);
	if (b->cause[0])
		KV("boot_failure", b->cause);
	if (bt_kv_get(p, "boot_id", id, sizeof(id)))
		KV("boot_id", id);
	if (bt_kv_get(p, "uptime_start", up, sizeof(up)))
		KV("uptime_start", up);
	if (bt_kv_get(p, "guest_release", rel, sizeof(rel)))
		KV("boot_release", rel);
	KV("boot_image", S.sd[k].image);
	KV("boot_cmdline", S.sd[k].cmdline);
	KV("boot_side", k ? "B" : "A");
	KV("boot_pair", S.sd[!k].label);
	KV("boot_order", S.order);
	KV("vm_mem", vm_mem);
	KV("vm_cpus", cpus);
	KV("accel", S.tcg ? "tcg" : "kvm");
	KV("host_kernel", S.host_kernel);
	KV("qemu", S.qemu_version);
	snprintf(ikb, sizeof(ikb), "%lld", stat(S.initrd[k], &ist) == 0 ?
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
#undef KV
	if (bt_collect(S.staging, S.sd[k].label, S.labeldir[k], b->run,
	    strcmp(status, "ok") == 0 ? NULL : status, kv, n, err,
	    sizeof(err)) < 0)
		die("boot %d: %s", i + 1, err);
	snprintf(p, sizeof(p), "%s/run%d/console.txt", S.labeldir[k], b->run);
	if (copy_file(con, p) < 0)
		vb_warn_errno("cannot copy the console to %s", p);
	vb_rmtree(S.staging);
	S.staging[0] = '\0';
	S.cur_boot = 0;
	save_state();
	unlink(disk);
}

/* Set the plan's keys of side @k ("a_label", ...). */
static void
plan_side(struct bt_kplan *pl, int k, const char *image, const char *initrd,
    const char *base)
{
	char key[32], c[BT_CMDLINE_MAX + 4096];

	snprintf(key, sizeof(key), "%c_label", 'a' + k);
	bt_kplan_set(pl, key, S.sd[k].label);
	snprintf(key, sizeof(key), "%c_image", 'a' + k);
	bt_kplan_set(pl, key, image);
	snprintf(key, sizeof(key), "%c_initrd", 'a' + k);
	bt_kplan_set(pl, key, initrd);
	snprintf(key, sizeof(key), "%c_own", 'a' + k);
	bt_kplan_set(pl, key, S.sd[k].cmdline);
	snprintf(c, sizeof(c), "%s%s%s", base, S.sd[k].cmdline[0] ? " " : "",
	    S.sd[k].cmdline);
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
 * METHOD=qemu-kexec: one QEMU machine started in step 1's kernel whose
 * init runs vmboots --kexec-continue (the unit of a real machine): each
 * step runs the config, then kexecs into the next.  The guest writes
 * the runs on the result disk; they are moved here, each to the next
 * free run of its label.
 */
static void
kexec_in_qemu(void)
{
	char job[PATH_MAX + 96], kx[PATH_MAX + 128], p[3 * PATH_MAX];
	char disk[PATH_MAX + 96], con[PATH_MAX + 96], qlog[PATH_MAX + 96];
	char err[1024], v[256], src[3 * PATH_MAX + 256], dst[2 * PATH_MAX];
	char vm_mem[32], cpus[16], ikb[32], run[16];
	struct bt_kplan pl;
	struct stat st;
	struct dirent **list;
	double t[2], total, limit;
	uint64_t size;
	int k, i, vmrc, n;

	snprintf(job, sizeof(job), "%s/job", S.tmp);
	snprintf(kx, sizeof(kx), "%s/vmboots/kexec", job);
	snprintf(disk, sizeof(disk), "%s/disk.img", S.tmp);
	snprintf(con, sizeof(con), "%s/console", S.tmp);
	snprintf(qlog, sizeof(qlog), "%s/qemu.log", S.tmp);
	vb_rmtree(job);
	snprintf(p, sizeof(p), "%s/vmboots", job);
	if (mkdir(job, 0755) < 0 || mkdir(p, 0755) < 0 || mkdir(kx, 0755) < 0)
		die_errno("cannot create %s", kx);
	memset(&pl, 0, sizeof(pl));
	snprintf(pl.path, sizeof(pl.path), "%s/plan", kx);
	bt_kplan_set(&pl, "vmboots_plan", "1");
	bt_kplan_set(&pl, "order", S.order);
	bt_kplan_set(&pl, "booted", "0");	/* QEMU starts step 1 */
	bt_kplan_set(&pl, "next", "0");
	bt_kplan_set(&pl, "final", "poweroff");
	bt_kplan_set(&pl, "root", "/vmbench");
	bt_kplan_set(&pl, "config", S.config_in + strlen("vmbench/"));
	bt_kplan_set(&pl, "results", "/mnt/results");
	bt_kplan_set(&pl, "workdir", "/mnt/work");
	bt_kplan_set(&pl, "unit", "");
	for (k = 0; k < 2; k++) {
		char img[64], ird[64];

		snprintf(src, sizeof(src), "%s/%c.kernel", S.tmp, 'a' + k);
		snprintf(dst, sizeof(dst), "%s/%c.kernel", kx, 'a' + k);
		if (copy_file(src, dst) < 0)
			die_errno("cannot copy %s", S.sd[k].image);
		snprintf(dst, sizeof(dst), "%s/%c.initramfs", kx, 'a' + k);
		if (copy_file(S.initrd[k], dst) < 0)
			die_errno("cannot copy %s", S.initrd[k]);
		snprintf(img, sizeof(img), "/mnt/vmboots/kexec/%c.kernel",
		    'a' + k);
		snprintf(ird, sizeof(ird), "/mnt/vmboots/kexec/%c.initramfs",
		    'a' + k);
		plan_side(&pl, k, img, ird, "console=ttyS0 panic=-1 "
		    "rdinit=/init quiet");
	}
	vb_fmt_size(vm_mem, sizeof(vm_mem), S.sd[0].mem);
	snprintf(cpus, sizeof(cpus), "%llu", (unsigned long long)S.o.cpus);
	snprintf(ikb, sizeof(ikb), "%lld", stat(S.initrd[0], &st) == 0 ?
	    (long long)st.st_size >> 10 : -1LL);
	bt_kplan_set(&pl, "meta_vm_mem", vm_mem);
	bt_kplan_set(&pl, "meta_vm_cpus", cpus);
	bt_kplan_set(&pl, "meta_accel", S.tcg ? "tcg" : "kvm");
	bt_kplan_set(&pl, "meta_host_kernel", S.host_kernel);
	bt_kplan_set(&pl, "meta_qemu", S.qemu_version);
	bt_kplan_set(&pl, "meta_initramfs_kb", ikb);
	bt_kplan_set(&pl, "meta_workdir_device", "/dev/vda (virtio-blk, a "
	    "raw image file on the host), ext4 with a journal");
	if (bt_kplan_write(&pl) < 0)
		die_errno("cannot write %s", pl.path);
	bt_kplan_free(&pl);
	if (vb_parse_size(S.o.disk, 64 << 20, 1ULL << 44, &size, err) < 0)
		die("--disk: %s", err);
	if (bt_disk_make(disk, size, job, S.toollog, err, sizeof(err)) < 0)
		die("%s", err);
	vb_rmtree(job);
	/* every step's allowance, and one more for the jumps */
	limit = (S.nboots + 1) * bt_timeout(S.o.timeout, S.tcg,
	    S.iterations, 0);
	k = S.order[0] == 'B';
	fprintf(stderr, "vmboots: one QEMU machine, %d steps by kexec, "
	    "starting in %c (%s)\n", S.nboots, 'A' + k, S.sd[k].label);
	vmrc = run_vm(k, disk, con, qlog, !S.tcg, limit, t, &total);

	/* the runs the guest wrote, each moved to its label's next */
	snprintf(S.staging, sizeof(S.staging), "%s/.kexec-%ld", S.o.results,
	    (long)getpid());
	vb_rmtree(S.staging);
	save_state();
	if (bt_disk_read(disk, S.staging, S.toollog, err, sizeof(err)) < 0)
		fprintf(stderr, "vmboots: %s\n", err);
	for (k = 0; k < 2; k++) {
		snprintf(p, sizeof(p), "%s/results/%s", S.staging,
		    S.sd[k].label);
		n = scandir(p, &list, is_run, by_run);
		if (n > 0)
			own_dir(S.labeldir[k]);
		for (i = 0; i < n; i++) {
			struct vb_kv kv[1];
			struct boot *x;
			int r, step;

			snprintf(src, sizeof(src), "%s/%s", p,
			    list[i]->d_name);
			free(list[i]);
			if (vb_runs_next(S.labeldir[k], &r, err,
			    sizeof(err)) < 0)
				die("%s", err);
			vb_run_path(dst, sizeof(dst), S.labeldir[k], r);
			if (rename(src, dst) < 0)
				die_errno("cannot move %s to %s", src, dst);
			snprintf(run, sizeof(run), "%d", r);
			kv[0].key = "run";
			kv[0].val = run;
			snprintf(src, sizeof(src), "%s/meta", dst);
			if (bt_meta_set(src, kv, 1, err, sizeof(err)) < 0)
				vb_warn("%s", err);
			snprintf(p, sizeof(p), "%s/console.txt", dst);
			if (copy_file(con, p) < 0)
				vb_warn_errno("cannot copy the console to %s", p);
			step = bt_kv_get(src, "boot_step", v, sizeof(v)) ?
			    atoi(v) - 1 : -1;
			snprintf(p, sizeof(p), "%s/results/%s", S.staging,
			    S.sd[k].label);
			if (step < 0 || step >= S.nboots)
				continue;
			x = &S.boots[step];
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
	/* steps the machine never reached */
	for (i = 0; i < S.nboots; i++)
		if (!S.boots[i].status) {
			S.boots[i].side = S.order[i] == 'B';
			S.boots[i].status = vmrc == -2 ? "interrupted" :
			    "failed";
			S.boots[i].boot_s = S.boots[i].suite_s = -1;
			S.boots[i].down_s = S.boots[i].total_s = -1;
			find_cause(vmrc, S.staging, con, qlog, limit,
			    S.boots[i].cause, sizeof(S.boots[i].cause));
		}
	vb_rmtree(S.staging);
	S.staging[0] = '\0';
	save_state();
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
kexec_initrd(int k, char *out, size_t len)
{
	char p[128];

	out[0] = '\0';
	if (S.o.initrd[k] && *S.o.initrd[k]) {
		if (!realpath(S.o.initrd[k], out))
			die_errno("%c_INITRD=%s", 'A' + k, S.o.initrd[k]);
		return;
	}
	snprintf(p, sizeof(p), "/boot/initrd.img-%s", S.sd[k].release);
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
static void
kexec_here(void)
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
	bt_kplan_set(&pl, "order", S.order);
	bt_kplan_set(&pl, "booted", "-1");
	bt_kplan_set(&pl, "next", "0");
	bt_kplan_set(&pl, "final", "original");
	bt_kplan_set(&pl, "root", S.root);
	if (!realpath(S.o.config, p))
		die_errno("CONFIG=%s", S.o.config);
	bt_kplan_set(&pl, "config", p);
	if (!realpath(S.o.results, p))
		die_errno("RESULTS=%s", S.o.results);
	bt_kplan_set(&pl, "results", p);
	bt_kplan_set(&pl, "workdir", S.workdir);
	bt_kplan_set(&pl, "unit", unit);
	for (k = 0; k < 2; k++) {
		if (!realpath(S.sd[k].image, img))
			die_errno("%c_KERNEL=%s", 'A' + k, S.sd[k].image);
		kexec_initrd(k, ird, sizeof(ird));
		plan_side(&pl, k, img, ird, base);
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
	snprintf(self, sizeof(self), "%s/vmboots", S.bindir);
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
	    S.nboots, u.release);
	cleanup();
	exit(bt_kexec_continue(pl.path) == 0 ? 0 : 1);
}

/* The comparison of the two labels, as make ab prints it; its status. */
static int
report(void)
{
	int rc = vb_run_report(S.bindir, S.labeldir[0], S.labeldir[1]);

	if (rc < 0)
		fprintf(stderr, "vmboots: cannot run %s/../report/vmreport: "
		    "%s\n", S.bindir, strerror(ENOENT));
	return rc < 0 ? 127 : rc;
}

/* The closing summary: a line per boot, then each side's count. */
static void
summary(double elapsed)
{
	char a[32], b[32], c[32], d[32], run[16];
	int i, ok[2] = { 0, 0 }, all[2] = { 0, 0 }, k, w = 5;

	for (k = 0; k < 2; k++)
		if ((int)strlen(S.sd[k].label) > w)
			w = (int)strlen(S.sd[k].label);
	fprintf(stderr, "\n%4s %-4s %-*s %-6s %-11s %8s %8s %8s %8s\n",
	    "boot", "side", w, "label", "run", "status", "boot", "suite",
	    "shutdown", "total");
	for (i = 0; i < S.nboots; i++) {
		struct boot *x = &S.boots[i];

		snprintf(run, sizeof(run), "run%d", x->run);
		fprintf(stderr, "%4d %-4c %-*s %-6s %-11s %8s %8s %8s "
		    "%8s\n", i + 1, 'A' + x->side, w, S.sd[x->side].label, run,
		    x->status, fmt_time(a, sizeof(a), x->boot_s),
		    fmt_time(b, sizeof(b), x->suite_s),
		    fmt_time(c, sizeof(c), x->down_s),
		    fmt_time(d, sizeof(d), x->total_s));
		if (x->cause[0])
			fprintf(stderr, "%10s%s\n", "", x->cause);
		all[x->side]++;
		ok[x->side] += strcmp(x->status, "ok") == 0;
	}
	for (k = 0; k < 2; k++)
		fprintf(stderr, "%s%c: %d of %d boots ok, into %s/", k ? ", " :
		    "vmboots: ", 'A' + k, ok[k], all[k], S.labeldir[k]);
	fprintf(stderr, "; %s under %s\n", fmt_time(a, sizeof(a), elapsed),
	    S.tcg ? "TCG (emulated: compare these figures only with each "
	    "other)" : "KVM");
}

/* The QEMU version's first line, for meta. */
static void
qemu_version(void)
{
	char *argv[] = { (char *)S.o.qemu, "--version", NULL }, *out;
	int rc = vb_run(argv, NULL, NULL, &out);

	if (rc == 127)
		die("%s not found: install it (apt-get install "
		    "qemu-system-x86, or make deps-boots)", S.o.qemu);
	out[strcspn(out, "\n")] = '\0';
	snprintf(S.qemu_version, sizeof(S.qemu_version), "%s",
	    rc == 0 && out[0] ? out : "unknown");
	free(out);
}

/* Where the config goes in the guest: its own path, or configs/NAME. */
static void
config_in(const char *config)
{
	const char *b = strrchr(config, '/');
	const char *c = config;

	while (strncmp(c, "./", 2) == 0)
		c += 2;
	if (c[0] != '/' && strncmp(c, "../", 3) != 0 && !strstr(c, "/../"))
		snprintf(S.config_in, sizeof(S.config_in), "vmbench/%s", c);
	else
		snprintf(S.config_in, sizeof(S.config_in),
		    "vmbench/configs/%s", b ? b + 1 : config);
}

/* Read the config (to count its iterations) and see that it is text. */
static void
read_config(const char *path)
{
	struct vb_conf c;
	char err[1024];

	if (vb_conf_read(path, &c, err, sizeof(err)) < 0)
		die("%s", err);
	S.iterations = vb_conf_iterations(&c);
	vb_conf_free(&c);
}

/* Check the options and make the plan. */
static void
plan(void)
{
	char err[VB_ERRLEN + 300];
	uint64_t mem, m;
	int k;

	if (!S.o.kernel[0] || !*S.o.kernel[0])
		die("name side A's kernel: A_KERNEL=/path/vmlinuz (make "
		    "test-kernel fetches Debian's into ~/.cache/vmbench)");
	if (!S.o.kernel[1] || !*S.o.kernel[1])
		S.o.kernel[1] = S.o.kernel[0];
	if (vb_ab_order_ok(S.o.order, err, sizeof(err)) < 0)
		die("%s", err);
	if (vb_parse_size(S.o.vm_mem, 64 << 20, 1ULL << 42, &mem, err) < 0)
		die("VM_MEM=%s: %s", S.o.vm_mem, err);
	if (vb_parse_size(S.o.disk, 64 << 20, 1ULL << 44, &m, err) < 0)
		die("VM_DISK=%s: %s", S.o.disk, err);
	check_path("CONFIG", S.o.config);
	check_path("RESULTS", S.o.results);
	for (k = 0; k < 2; k++) {
		struct bt_side *s = &S.sd[k];
		const char *name = k ? "B_KERNEL" : "A_KERNEL";

		check_path(name, S.o.kernel[k]);
		s->image = S.o.kernel[k];
		if (bt_image_version(s->image, s->version, sizeof(s->version),
		    s->release, sizeof(s->release), err, sizeof(err)) < 0)
			die("%s=%s: %s", name, s->image, err);
		s->cmdline = S.o.cmdline[k] ? S.o.cmdline[k] : "";
		if (strlen(s->cmdline) > BT_CMDLINE_MAX ||
		    strpbrk(s->cmdline, "\n\r"))
			die("%s_CMDLINE: one line of at most %d characters",
			    k ? "B" : "A", BT_CMDLINE_MAX);
		m = mem;
		if (S.o.mem[k] && vb_parse_size(S.o.mem[k], 64 << 20,
		    1ULL << 42, &m, err) < 0)
			die("%s_MEM=%s: %s", k ? "B" : "A", S.o.mem[k], err);
		s->mem = m;
		if (S.o.label[k] && *S.o.label[k])
			snprintf(s->label, sizeof(s->label), "%s",
			    S.o.label[k]);
		if (S.o.label[k] && !vb_label_ok(S.o.label[k]))
			die("%s_LABEL '%s': " VB_LABEL_RULE, k ? "B" : "A",
			    S.o.label[k]);
	}
	if (bt_default_labels(&S.sd[0], &S.sd[1], err, sizeof(err)) < 0)
		die("%s", err);
	vb_ab_schedule(S.o.order, (int)S.o.boots, S.order);
	for (k = 0; k < 2; k++) {
		snprintf(S.labeldir[k], sizeof(S.labeldir[k]), "%s/%s",
		    S.o.results, S.sd[k].label);
		find_modules(k);
	}
	read_config(S.o.config);
	config_in(S.o.config);
}

/* The suite's folder (bench/, where this program is) and the tree's. */
static void
find_bindir(void)
{
	char *s;

	if (vb_bindir(S.bindir, sizeof(S.bindir)) < 0)
		die_errno("cannot find my own program");
	snprintf(S.root, sizeof(S.root), "%s", S.bindir);
	if ((s = strrchr(S.root, '/')))
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
workdir_name(void)
{
	const char *w = S.o.workdir;

	if (!w || !*w)
		w = getenv("VMBENCH_WORKDIR");
	if (!w || !*w)
		w = "work";
	check_path("WORKDIR", w);
	return w;
}

/* The work folder made (when @make) and resolved; 0, or -1: none. */
static int
find_workdir(int make)
{
	const char *w = workdir_name();

	if (make && mkdir(w, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create the work folder %s", w);
	if (!realpath(w, S.workdir)) {
		if (!make && errno == ENOENT) {
			snprintf(S.workdir, sizeof(S.workdir), "%s", w);
			return -1;
		}
		die_errno("the work folder %s", w);
	}
	/* its folders are the boots': ours or root's, sticky if shared */
	{
		char err[PATH_MAX + 128];
		int fd = vb_dir_open_parent(S.workdir, err, sizeof(err));

		if (fd < 0)
			die("%s (WORKDIR=)", err);
		close(fd);
	}
	return 0;
}

/* The tools the plan needs, each named with its package when missing. */
static void
need_tools(void)
{
	static const char *const tool[][2] = {
		{ "mkfs.ext4", "e2fsprogs" }, { "e2fsck", "e2fsprogs" },
		{ "debugfs", "e2fsprogs" }, { "ldd", "libc-bin" },
	};
	size_t i;

	qemu_version();
	for (i = 0; i < sizeof(tool) / sizeof(tool[0]); i++)
		if (!vb_have(tool[i][0]))
			die("%s not found: install %s (make deps-boots)",
			    tool[i][0], tool[i][1]);
	if (!vb_have(S.o.busybox))
		die("%s not found: install busybox-static (make deps-boots)",
		    S.o.busybox);
}

/* Link the images into the temporary folder and build the initramfs. */
static void
prepare(void)
{
	char p[PATH_MAX + 64], img[PATH_MAX], bb[PATH_MAX], err[1024];
	struct bt_guest g;
	int k;

	if (!strchr(S.o.busybox, '/')) {
		char *argv[] = { "which", (char *)S.o.busybox, NULL }, *out;

		if (vb_run(argv, NULL, NULL, &out) != 0)
			die("%s not found: install busybox-static",
			    S.o.busybox);
		out[strcspn(out, "\n")] = '\0';
		snprintf(bb, sizeof(bb), "%s", out);
		free(out);
	} else {
		snprintf(bb, sizeof(bb), "%s", S.o.busybox);
	}
	for (k = 0; k < 2; k++) {
		snprintf(p, sizeof(p), "%s/%c.kernel", S.tmp, 'a' + k);
		if (!realpath(S.sd[k].image, img) || symlink(img, p) < 0)
			die_errno("cannot link %s", S.sd[k].image);
		snprintf(S.initrd[k], sizeof(S.initrd[k]), "%s/%c.initramfs",
		    S.tmp, 'a' + k);
		if (k == 1 && strcmp(S.moddir[0], S.moddir[1]) == 0) {
			snprintf(S.initrd[1], sizeof(S.initrd[1]), "%s",
			    S.initrd[0]);
			continue;
		}
		memset(&g, 0, sizeof(g));
		g.bindir = S.bindir;
		g.root = S.root;
		g.config = S.o.config;
		g.config_in = S.config_in;
		g.busybox = bb;
		g.moddir = S.moddir[k][0] ? S.moddir[k] : NULL;
		g.with_vmboots = S.kexec;
		if (bt_build_initramfs(&g, S.initrd[k], err, sizeof(err)) < 0)
			die("%c: the guest's initramfs: %s", 'A' + k, err);
	}
}

int
main(int argc, char **argv)
{
	char err[VB_ERRLEN + 300], a[32], b[32], *path;
	struct sigaction sa;
	struct utsname u;
	uint64_t t0;
	double slowest = 0, limit, done_s = 0;
	int i, k, nok = 0, tried[2] = { 0, 0 }, rc;

	vb_set_progname("vmboots");
	signal(SIGPIPE, SIG_IGN);
	/* started by make: stop when make is stopped (parentwatch.h) */
	if (vb_parent_watch() < 0)
		vb_warn_errno("cannot watch make, its parent");
	if (vb_opt_parse(opt_tab, &S.o, argc - 1, argv + 1, NULL, err,
	    sizeof(err)) < 0)
		die("%s", err);
	if (S.o.help) {
		usage(stdout);
		return 0;
	}
	/* at boot, under a kexec plan: this step, then the next jump */
	if (S.o.cont)
		return bt_kexec_continue(S.o.cont) == 0 ? 0 : 1;
	S.kexec = !strcmp(S.o.method, "qemu-kexec") ? 1 :
	    !strcmp(S.o.method, "kexec") ? 2 : 0;
	/* mkfs.ext4 and friends live in sbin, not always in a user's PATH */
	path = getenv("PATH");
	if (asprintf(&path, "%s:/usr/sbin:/sbin", path && *path ? path :
	    "/usr/local/bin:/usr/bin:/bin") < 0)
		die("out of memory");
	setenv("PATH", path, 1);
	free(path);
	find_bindir();
	if (S.o.clean_stale) {
		if (find_workdir(0) < 0)
			fprintf(stderr, "vmboots: nothing left by earlier runs "
			    "in %s (no such folder)\n", S.workdir);
		else if (clean_stale(S.workdir) == 0)
			fprintf(stderr, "vmboots: nothing left by earlier runs "
			    "in %s\n", S.workdir);
		return 0;
	}
	/* bad input refused before anything is run or made */
	plan();
	check_out_dir("RESULTS", S.o.results);
	check_out_dir("WORKDIR", workdir_name());
	if (S.kexec == 2) {
		find_workdir(1);
		own_results();
		S.nboots = (int)strlen(S.order);
		kexec_here();
	}
	need_tools();
	find_workdir(1);
	clean_stale(S.workdir);
	if (uname(&u) == 0)
		snprintf(S.host_kernel, sizeof(S.host_kernel), "%s", u.release);
	own_results();
	if (!realpath(S.o.results, S.results_abs))
		die_errno("RESULTS=%s", S.o.results);
	/* from here on a signal ends the plan and cleans up */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (k = 0; k < 2; k++) {
		int next;

		lock_label(k);
		if (vb_runs_next(S.labeldir[k], &next, err, sizeof(err)) < 0) {
			cleanup();
			die("%s", err);
		}
	}
	vb_set_die_hook(cleanup);
	snprintf(S.tmp, sizeof(S.tmp), "%s/vmboots.XXXXXX", S.workdir);
	if (!mkdtemp(S.tmp)) {
		S.tmp[0] = '\0';
		die_errno("cannot create a folder in %s", S.workdir);
	}
	save_state();
	snprintf(S.toollog, sizeof(S.toollog), "%s/tools.log", S.tmp);
	prepare();
	if (!strcmp(S.o.accel, "tcg"))
		S.tcg = 1;
	else if (!strcmp(S.o.accel, "kvm"))
		S.tcg = 0;
	else
		S.tcg = !probe_kvm();
	S.nboots = (int)strlen(S.order);
	S.boots = vb_xcalloc((size_t)S.nboots, sizeof(*S.boots));
	fprintf(stderr, "vmboots: %s, %d boots (order %s) under %s, "
	    "%s and %d CPU%s a VM; A: %s%s%s into %s/, B: %s%s%s into %s/\n",
	    S.o.config, S.nboots, S.order, S.tcg ? "TCG" : "KVM",
	    vb_fmt_size(a, sizeof(a), S.sd[0].mem), (int)S.o.cpus,
	    S.o.cpus == 1 ? "" : "s", S.sd[0].release,
	    S.sd[0].cmdline[0] ? " " : "", S.sd[0].cmdline, S.labeldir[0],
	    S.sd[1].release, S.sd[1].cmdline[0] ? " " : "", S.sd[1].cmdline,
	    S.labeldir[1]);
	if (S.sd[0].mem != S.sd[1].mem)
		fprintf(stderr, "vmboots: A has %s, B %s\n",
		    vb_fmt_size(a, sizeof(a), S.sd[0].mem),
		    vb_fmt_size(b, sizeof(b), S.sd[1].mem));
	t0 = vb_now_ns();
	if (S.kexec == 1) {
		kexec_in_qemu();
		for (i = 0; i < S.nboots; i++)
			nok += strcmp(S.boots[i].status, "ok") == 0;
	}
	for (i = S.kexec ? S.nboots : 0; i < S.nboots && !stop_signal; i++) {
		struct boot *x = &S.boots[i];

		k = S.order[i] == 'B';
		limit = bt_timeout(S.o.timeout, S.tcg, S.iterations, slowest);
		fprintf(stderr, "vmboots: boot %d of %d: %c (%s), elapsed %s, "
		    "ETA %s\n", i + 1, S.nboots, 'A' + k, S.sd[k].label,
		    fmt_time(a, sizeof(a), vb_elapsed_s(t0)), i == 0 ? "-" :
		    fmt_time(b, sizeof(b), done_s / i * (S.nboots - i)));
		boot_one(i, k, x, limit);
		done_s += x->total_s;
		tried[k]++;
		if (strcmp(x->status, "ok") == 0) {
			nok++;
			if (x->total_s > slowest)
				slowest = x->total_s;
			fprintf(stderr, "vmboots: boot %d: %c ok in %s (boot "
			    "%s, suite %s) -> %s/run%d\n", i + 1, 'A' + k,
			    fmt_time(a, sizeof(a), x->total_s),
			    fmt_time(b, sizeof(b), x->boot_s),
			    fmt_time(err, sizeof(err), x->suite_s),
			    S.labeldir[k], x->run);
		} else {
			fprintf(stderr, "vmboots: boot %d (%c, %s): %s: %s; "
			    "recorded as %s/run%d\n", i + 1, 'A' + k,
			    S.sd[k].label, x->status, x->cause,
			    S.labeldir[k], x->run);
		}
		/* a kernel that never boots does not get BOOTS chances */
		if (!stop_signal && nok == 0 && tried[0] && tried[1]) {
			fprintf(stderr, "vmboots: every boot so far failed, "
			    "A's and B's: stopping the plan\n");
			i++;
			break;
		}
	}
	S.nboots = i;
	summary(vb_elapsed_s(t0));
	cleanup();
	vb_set_die_hook(NULL);
	if (stop_signal) {
		fprintf(stderr, "vmboots: interrupted; the boots that ended "
		    "are kept in %s/ and %s/\n", S.labeldir[0], S.labeldir[1]);
		return 130;
	}
	if (nok == 0) {
		fprintf(stderr, "vmboots: every boot failed\n");
		return 1;
	}
	rc = nok == S.nboots ? 0 : 1;
	/* a report that failed said so: not a plan that ended well */
	if (!S.o.no_report && (k = report()) != 0) {
		fprintf(stderr, "vmboots: the report of %s/ and %s/ failed "
		    "(vmreport exit %d)\n", S.labeldir[0], S.labeldir[1], k);
		rc = 1;
	}
	free(S.boots);
	return rc;
}
