/*
 * kexec.c - make boots by kexec (see kexec.h).
 *
 * The jump is kexec_file_load(2), the system call behind `kexec -s`:
 * the kernel reads the image, the initramfs and the command line
 * itself, so no kexec-tools binary (whose Debian build needs Xen's
 * libraries) has to be in the guest or on the machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/reboot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "kexec.h"
#include "meta.h"
#include "proc.h"
#include "result.h"
#include "runs.h"
#include "util.h"

#ifndef KEXEC_FILE_NO_INITRAMFS
#define KEXEC_FILE_NO_INITRAMFS 0x00000004
#endif

int
bt_kplan_read(struct bt_kplan *p, const char *path, char *err,
    size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;

	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "%s", path);
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
		    strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		char *eq;

		line[strcspn(line, "\n")] = '\0';
		if (!(eq = strchr(line, '=')))
			continue;
		*eq = '\0';
		bt_kplan_set(p, line, eq + 1);
	}
	free(line);
	fclose(f);
	if (strcmp(bt_kplan_get(p, "vmboots_plan"), "1") != 0) {
		snprintf(err, errlen, "%s: not a vmboots plan", path);
		bt_kplan_free(p);
		return -1;
	}
	return 0;
}

const char *
bt_kplan_get(const struct bt_kplan *p, const char *key)
{
	const char *v = vb_meta_get(p->kv, p->n, key);

	return v ? v : "";
}

void
bt_kplan_set(struct bt_kplan *p, const char *key, const char *val)
{
	int i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->kv[i].key, key) == 0) {
			free(p->kv[i].val);
			p->kv[i].val = vb_xstrdup(val);
			p->kv[i].val[strcspn(p->kv[i].val, "\n")] = '\0';
			return;
		}
	p->kv = vb_xrealloc(p->kv, (size_t)(p->n + 1) * sizeof(*p->kv));
	p->kv[p->n].key = vb_xstrdup(key);
	p->kv[p->n].val = vb_xstrdup(val);
	p->kv[p->n].val[strcspn(p->kv[p->n].val, "\n")] = '\0';
	p->n++;
}

int
bt_kplan_write(const struct bt_kplan *p)
{
	struct vb_buf b = VB_BUF_INIT;
	char tmp[8300];
	int i, fd, rc = -1;

	for (i = 0; i < p->n; i++)
		vb_buf_printf(&b, "%s=%s\n", p->kv[i].key, p->kv[i].val);
	snprintf(tmp, sizeof(tmp), "%s.tmp", p->path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0 && write(fd, vb_buf_str(&b), b.len) == (ssize_t)b.len &&
	    fsync(fd) == 0 && close(fd) == 0) {
		fd = -1;
		rc = rename(tmp, p->path);
	}
	if (fd >= 0)
		close(fd);
	vb_buf_free(&b);
	sync();
	return rc;
}

void
bt_kplan_free(struct bt_kplan *p)
{
	if (p->kv)
		vb_meta_free(p->kv, p->n);
	p->kv = NULL;
	p->n = 0;
}

int
bt_kexec_step(const char *cmdline)
{
	const char *p = cmdline;

	while ((p = strstr(p, "vmbench.boot="))) {
		if (p == cmdline || p[-1] == ' ') {
			char *end;
			long v = strtol(p + 13, &end, 10);

			if (end != p + 13 && (!*end || *end == ' ' ||
			    *end == '\n') && v >= 0 && v < 100000)
				return (int)v;
		}
		p += 13;
	}
	return -1;
}

int
bt_kexec_load(const char *image, const char *initrd, const char *cmdline,
    char *err, size_t errlen)
{
	int kfd, ifd = -1, rc;
	unsigned long flags = 0;

	kfd = open(image, O_RDONLY | O_CLOEXEC);
	if (kfd < 0) {
		snprintf(err, errlen, "%s: cannot open: %s", image,
		    strerror(errno));
		return -1;
	}
	if (initrd && *initrd) {
		ifd = open(initrd, O_RDONLY | O_CLOEXEC);
		if (ifd < 0) {
			snprintf(err, errlen, "%s: cannot open: %s", initrd,
			    strerror(errno));
			close(kfd);
			return -1;
		}
	} else {
		flags |= KEXEC_FILE_NO_INITRAMFS;
	}
	rc = (int)syscall(SYS_kexec_file_load, kfd, ifd,
	    strlen(cmdline) + 1, cmdline, flags);
	if (rc < 0)
		snprintf(err, errlen, "kexec_file_load %s: %s%s", image,
		    strerror(errno), errno == EPERM ? " (root is needed)" :
		    errno == EKEYREJECTED ? " (the kernel wants a signed "
		    "image)" : "");
	close(kfd);
	if (ifd >= 0)
		close(ifd);
	return rc < 0 ? -1 : 0;
}

int
bt_kexec_jump(int systemd)
{
	sync();
	if (systemd) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			execlp("systemctl", "systemctl", "kexec", (char *)NULL);
			_exit(127);
		}
		while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		/* systemd goes on with the jump: wait for it */
		if (pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
			for (;;)
				pause();
	}
	return reboot(LINUX_REBOOT_CMD_KEXEC);
}

/* The running kernel's command line, without the trailing newline. */
static void
proc_cmdline(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cmdline", "re");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/* A small /proc file's first line into @buf. */
static char *
first_line(const char *path, char *buf, size_t len)
{
	if (vb_read_small(path, buf, len) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, " \n")] = '\0';
	return buf;
}

/* Run vmrun for @label into @stage/results; its exit status. */
static int
run_suite(const struct bt_kplan *p, const char *label, const char *stage)
{
	char vmrun[PATH_MAX + 32], res[PATH_MAX + 64];
	pid_t pid;

	snprintf(vmrun, sizeof(vmrun), "%s/bench/vmrun",
	    bt_kplan_get(p, "root"));
	snprintf(res, sizeof(res), "%s/results", stage);
	if (mkdir(stage, 0755) < 0 && errno != EEXIST)
		return 127;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (chdir(bt_kplan_get(p, "root")) < 0)
			_exit(127);
		execl(vmrun, vmrun, "--kernel", label, "--config",
		    bt_kplan_get(p, "config"), "--results", res,
		    "--workdir", bt_kplan_get(p, "workdir"), (char *)NULL);
		_exit(127);
	}
	return pid < 0 ? 127 : vb_wait(pid);
}

/*
 * Record step @i (side @s) as a run of its label: what vmrun left in
 * the staging folder (or nothing), with the boot's keys.
 */
static void
record(const struct bt_kplan *p, int i, char s, const char *status,
    const char *cause, const char *stage, double up0, double suite)
{
	char key[32], dir[PATH_MAX], run[16], err[1024], id[64], up[32];
	char rel[80], su[32], stepbuf[16];
	struct vb_kv kv[40];
	struct utsname u;
	int n = 0, r, k;
	const char *label;

	snprintf(key, sizeof(key), "%c_label", s);
	label = bt_kplan_get(p, key);
	snprintf(dir, sizeof(dir), "%s/%s", bt_kplan_get(p, "results"),
	    label);
	if (vb_runs_next(dir, &r, err, sizeof(err)) < 0) {
		fprintf(stderr, "vmboots: step %d: %s\n", i + 1, err);
		return;
	}
	snprintf(run, sizeof(run), "%d", r);
	snprintf(stepbuf, sizeof(stepbuf), "%d", i + 1);
#define KV(k_, v_) do { kv[n].key = (char *)(k_); kv[n].val = (char *)(v_); \
	n++; } while (0)
	KV("run", run);
	KV("method", "kexec");
	KV("boot_status", status);
	if (cause && *cause)
		KV("boot_failure", cause);
	KV("boot_step", stepbuf);
	if (up0 >= 0) {	/* this kernel is the step's */
		KV("boot_id", first_line("/proc/sys/kernel/random/boot_id", id,
		    sizeof(id)));
		snprintf(up, sizeof(up), "%.2f", up0);
		KV("uptime_start", up);
		KV("boot_to_suite_s", up);
		if (uname(&u) == 0) {
			snprintf(rel, sizeof(rel), "%s", u.release);
			KV("boot_release", rel);
		}
	}
	if (suite >= 0) {
		snprintf(su, sizeof(su), "%.2f", suite);
		KV("suite_s", su);
	}
	snprintf(key, sizeof(key), "%c_image", s);
	KV("boot_image", bt_kplan_get(p, key));
	snprintf(key, sizeof(key), "%c_own", s);
	KV("boot_cmdline", bt_kplan_get(p, key));
	KV("boot_side", s == 'a' ? "A" : "B");
	KV("boot_pair", bt_kplan_get(p, s == 'a' ? "b_label" : "a_label"));
	KV("boot_order", bt_kplan_get(p, "order"));
	for (k = 0; k < p->n && n < (int)(sizeof(kv) / sizeof(kv[0])); k++)
		if (strncmp(p->kv[k].key, "meta_", 5) == 0)
			KV(p->kv[k].key + 5, p->kv[k].val);
#undef KV
	if (bt_collect(stage, label, dir, r, strcmp(status, "ok") ? status :
	    NULL, kv, n, err, sizeof(err)) < 0)
		fprintf(stderr, "vmboots: step %d: %s\n", i + 1, err);
	else
		fprintf(stderr, "vmboots: step %d (%c, %s): %s -> %s/run%d\n",
		    i + 1, s - 32, label, status, dir, r);
}

/*
 * Step @booted of plan @p (at @path) came up (@here: the step this
 * kernel was booted for, from its command line @cmd): its suite run and
 * recorded into @stage, or recorded failed when the machine came back
 * some other way.  The next step's index, written into the plan.
 */
static int
step_done(struct bt_kplan *p, const char *path, int booted, int here,
    const char *cmd, const char *stage)
{
	const char *order = bt_kplan_get(p, "order");
	char err[1024], key[32], num[16], up[64];
	int n = (int)strlen(order), next, rc;

	char s = order[booted] == 'B' ? 'b' : 'a';
	const char *label;

	snprintf(key, sizeof(key), "%c_label", s);
	label = bt_kplan_get(p, key);
	vb_rmtree(stage);
	if (here == booted) {
		double up0, t0;

		first_line("/proc/uptime", up, sizeof(up));
		up0 = atof(up);
		fprintf(stderr, "vmboots: step %d of %d: %c (%s) "
		    "booted by kexec; suite start\n", booted + 1, n,
		    s - 32, label);
		t0 = vb_now_ns() / 1e9;
		rc = run_suite(p, label, stage);
		snprintf(err, sizeof(err), "the suite failed (vmrun "
		    "exit %d)", rc);
		record(p, booted, s, rc == 0 ? "ok" : "failed",
		    rc == 0 ? "" : err, stage, up0,
		    vb_now_ns() / 1e9 - t0);
	} else {
		/* the machine came back some other way */
		snprintf(err, sizeof(err), "the kexec into it did not "
		    "come up (the machine came back in %s)",
		    cmd[0] ? cmd : "?");
		if (mkdir(stage, 0755) < 0 && errno != EEXIST)
			fprintf(stderr, "vmboots: %s: %s\n", stage,
			    strerror(errno));
		record(p, booted, s, "failed", err, stage, -1, -1);
	}
	vb_rmtree(stage);
	next = booted + 1;
	bt_kplan_set(p, "booted", "-1");
	snprintf(num, sizeof(num), "%d", next);
	bt_kplan_set(p, "next", num);
	if (bt_kplan_write(p) < 0)
		fprintf(stderr, "vmboots: cannot write %s: %s\n", path,
		    strerror(errno));
	return next;
}

int
bt_kexec_continue(const char *path)
{
	char err[1024], cmd[4096], stage[PATH_MAX + 32], key[32], c[4200];
	char num[16];
	struct bt_kplan p;
	const char *order;
	int booted, next, here, n, rc;

	if (bt_kplan_read(&p, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "vmboots: %s\n", err);
		return -1;
	}
	order = bt_kplan_get(&p, "order");
	n = (int)strlen(order);
	booted = atoi(bt_kplan_get(&p, "booted"));
	next = atoi(bt_kplan_get(&p, "next"));
	proc_cmdline(cmd, sizeof(cmd));
	here = bt_kexec_step(cmd);
	snprintf(stage, sizeof(stage), "%s/.kexec-stage",
	    bt_kplan_get(&p, "results"));
	/* made by make boots (a machine) or by the guest's init */
	if (mkdir(bt_kplan_get(&p, "results"), 0755) < 0 && errno != EEXIST)
		fprintf(stderr, "vmboots: cannot create %s: %s\n",
		    bt_kplan_get(&p, "results"), strerror(errno));
	if (booted >= 0 && booted < n)
		next = step_done(&p, path, booted, here, cmd, stage);
	/* the next step's kernel; a step whose kernel cannot load fails */
	while (next < n) {
		char s = order[next] == 'B' ? 'b' : 'a';
		const char *image, *initrd;

		snprintf(key, sizeof(key), "%c_image", s);
		image = bt_kplan_get(&p, key);
		snprintf(key, sizeof(key), "%c_initrd", s);
		initrd = bt_kplan_get(&p, key);
		snprintf(key, sizeof(key), "%c_cmdline", s);
		snprintf(c, sizeof(c), "%s vmbench.boot=%d",
		    bt_kplan_get(&p, key), next);
		snprintf(num, sizeof(num), "%d", next);
		bt_kplan_set(&p, "booted", num);
		if (bt_kplan_write(&p) < 0) {
			fprintf(stderr, "vmboots: cannot write %s: %s\n", path,
			    strerror(errno));
			bt_kplan_free(&p);
			return -1;
		}
		if (bt_kexec_load(image, initrd, c, err, sizeof(err)) == 0) {
			fprintf(stderr, "vmboots: step %d of %d: kexec into "
			    "%c (%s)\n", next + 1, n, s - 32, image);
			bt_kexec_jump(*bt_kplan_get(&p, "unit") != '\0');
			snprintf(err, sizeof(err), "kexec: %s",
			    strerror(errno));
		}
		fprintf(stderr, "vmboots: step %d: %s\n", next + 1, err);
		vb_rmtree(stage);
		if (mkdir(stage, 0755) == 0)
			record(&p, next, s, "failed", err, stage, -1, -1);
		vb_rmtree(stage);
		next++;
		snprintf(num, sizeof(num), "%d", next);
		bt_kplan_set(&p, "next", num);
		bt_kplan_set(&p, "booted", "-1");
		bt_kplan_write(&p);
	}
	fprintf(stderr, "vmboots: the kexec plan is done (%d steps)\n", n);
	rc = 0;
	if (*bt_kplan_get(&p, "unit")) {
		char *argv[] = { "systemctl", "disable", "--quiet",
		    "vmbench-boots.service", NULL };

		vb_run(argv, NULL, NULL, NULL);
		unlink(bt_kplan_get(&p, "unit"));
	}
	if (strcmp(bt_kplan_get(&p, "final"), "original") == 0) {
		snprintf(c, sizeof(c), "%s", bt_kplan_get(&p, "orig_cmdline"));
		if (bt_kexec_load(bt_kplan_get(&p, "orig_image"),
		    bt_kplan_get(&p, "orig_initrd"), c, err,
		    sizeof(err)) == 0) {
			fprintf(stderr, "vmboots: back to %s\n",
			    bt_kplan_get(&p, "orig_image"));
			bt_kexec_jump(1);
		}
		fprintf(stderr, "vmboots: cannot return to the first kernel: "
		    "%s; reboot by hand\n", err);
		rc = -1;
	}
	bt_kplan_free(&p);
	return rc;
}
