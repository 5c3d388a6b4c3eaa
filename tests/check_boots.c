/*
 * check_boots.c - make boots' pieces (src/boots/): the plan (the order,
 * the labels from the images' versions and what differs, the config's
 * iterations, the timeout), the kernel image check on fake bzImages, the
 * initramfs writer (read back here), the result collection from a fake
 * guest's result disk (an ext4 image made and read without root) into run
 * folders; then bench/vmboots on bad input, and under TCG end to end: one
 * boot that runs a tiny config and one that panics, a SIGTERM in the
 * middle of a boot and a SIGKILL then --clean-stale.  The boots are
 * skipped, with one line, when QEMU or a test kernel is absent (make
 * deps-boots test-kernel; VMBENCH_TEST_KERNEL=path picks one).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "cpio.h"
#include "guest.h"
#include "kexec.h"
#include "label.h"
#include "meta.h"
#include "ab.h"
#include "plan.h"
#include "proc.h"
#include "result.h"
#include "runs.h"
#include "testutil.h"
#include "util.h"

#define sh(...)	tu_sh_in(tu_dir, __VA_ARGS__)

static int exists(const char *rel);

START_TEST(order_and_schedule)
{
	char err[256], out[2 * BT_BOOTS_MAX + 1];

	ck_assert_int_eq(vb_ab_order_ok("ABBA", err, sizeof(err)), 0);
	ck_assert_int_eq(vb_ab_order_ok("AB", err, sizeof(err)), 0);
	ck_assert_int_eq(vb_ab_order_ok("ABA", err, sizeof(err)), -1);
	ck_assert_int_eq(vb_ab_order_ok("AABBX", err, sizeof(err)), -1);
	ck_assert_int_eq(vb_ab_order_ok("AAAB", err, sizeof(err)), -1);
	tu_assert_has(err, "as many A as B");
	ck_assert_int_eq(vb_ab_order_ok("", err, sizeof(err)), -1);
	vb_ab_schedule("ABBA", 3, out);
	ck_assert_str_eq(out, "ABBAAB");
	vb_ab_schedule("ABBA", 1, out);
	ck_assert_str_eq(out, "AB");
	vb_ab_schedule("AB", 3, out);
	ck_assert_str_eq(out, "ABABAB");
	vb_ab_schedule("BAAB", 2, out);
	ck_assert_str_eq(out, "BAAB");
	vb_ab_schedule("ABBA", 5, out);
	ck_assert_str_eq(out, "ABBAABBAAB");
}
END_TEST

/* A side as plan() makes it. */
static void
side(struct bt_side *s, const char *rel, const char *cmdline, uint64_t mem,
    const char *label)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->release, sizeof(s->release), "%s", rel);
	s->cmdline = cmdline;
	s->mem = mem;
	snprintf(s->label, sizeof(s->label), "%s", label);
}

START_TEST(default_labels)
{
	struct bt_side a, b;
	char err[256];

	/* two images: their releases */
	side(&a, "6.1.0-47-cloud-amd64", "", 1 << 30, "");
	side(&b, "6.1.0-57-cloud-amd64", "", 1 << 30, "");
	ck_assert_int_eq(bt_default_labels(&a, &b, err, sizeof(err)), 0);
	ck_assert_str_eq(a.label, "6.1.0-47-cloud-amd64");
	ck_assert_str_eq(b.label, "6.1.0-57-cloud-amd64");
	/* one image, two command lines: the words each side has alone */
	side(&a, "6.1.0-57-cloud-amd64", "quiet transparent_hugepage=never",
	    1 << 30, "");
	side(&b, "6.1.0-57-cloud-amd64", "transparent_hugepage=always quiet",
	    1 << 30, "");
	ck_assert_int_eq(bt_default_labels(&a, &b, err, sizeof(err)), 0);
	ck_assert_str_eq(a.label,
	    "6.1.0-57-cloud-amd64-transparent_hugepage-never");
	ck_assert_str_eq(b.label,
	    "6.1.0-57-cloud-amd64-transparent_hugepage-always");
	/* a line on one side only: the other is the release alone */
	side(&a, "6.1.0-57-cloud-amd64", "", 1 << 30, "");
	side(&b, "6.1.0-57-cloud-amd64", "mitigations=off", 1 << 30, "");
	ck_assert_int_eq(bt_default_labels(&a, &b, err, sizeof(err)), 0);
	ck_assert_str_eq(a.label, "6.1.0-57-cloud-amd64");
	ck_assert_str_eq(b.label, "6.1.0-57-cloud-amd64-mitigations-off");
	/* two memory sizes, as the posts' mem=192m */
	side(&a, "6.1.0-57-cloud-amd64", "", 192 << 20, "");
	side(&b, "6.1.0-57-cloud-amd64", "", 256 << 20, "");
	ck_assert_int_eq(bt_default_labels(&a, &b, err, sizeof(err)), 0);
	ck_assert_str_eq(a.label, "6.1.0-57-cloud-amd64-mem192M");
	ck_assert_str_eq(b.label, "6.1.0-57-cloud-amd64-mem256M");
	/* nothing differs: A against A */
	side(&a, "6.1.0-57-cloud-amd64", "", 1 << 30, "");
	side(&b, "6.1.0-57-cloud-amd64", "", 1 << 30, "");
	ck_assert_int_eq(bt_default_labels(&a, &b, err, sizeof(err)), 0);
	ck_assert_str_eq(a.label, "6.1.0-57-cloud-amd64-A");
	ck_assert_str_eq(b.label, "6.1.0-57-cloud-amd64-B");
	/* a given label is kept; a clash is refused */
	side(&a, "6.1.0-57-cloud-amd64", "", 1 << 30, "mine");
	side(&b, "6.1.0-47-cloud-amd64", "", 1 << 30, "");
	ck_assert_int_eq(bt_default_labels(&a, &b, err, sizeof(err)), 0);
	ck_assert_str_eq(a.label, "mine");
	ck_assert_str_eq(b.label, "6.1.0-47-cloud-amd64");
	side(&a, "x", "", 1 << 30, "same");
	side(&b, "y", "", 1 << 30, "same");
	ck_assert_int_eq(bt_default_labels(&a, &b, err, sizeof(err)), -1);
	tu_assert_has(err, "both sides are labelled 'same'");
	/* characters a label cannot hold become '-' */
	side(&a, "6.1", "foo=a/b,c", 1 << 30, "");
	side(&b, "6.1", "", 1 << 30, "");
	ck_assert_int_eq(bt_default_labels(&a, &b, err, sizeof(err)), 0);
	ck_assert_str_eq(a.label, "6.1-foo-a-b-c");
	ck_assert(vb_label_ok(a.label));
	ck_assert(!vb_label_ok("a/b"));
	ck_assert(!vb_label_ok(".."));
}
END_TEST

/* A fake bzImage @name whose version string is @version ("" none). */
static char *
fake_image(char *path, size_t len, const char *name, const char *version,
    int hdrs)
{
	unsigned char img[0x400];
	FILE *f;

	memset(img, 0, sizeof(img));
	img[0x1f1] = 1;			/* one setup sector: 1024 bytes */
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	if (hdrs)
		memcpy(img + 0x202, "HdrS", 4);
	if (*version) {
		img[0x20e] = 0x100 & 0xff;	/* at 0x200 + 0x100 */
		img[0x20f] = 0x100 >> 8;
		memcpy(img + 0x300, version, strlen(version));
	}
	tu_path(path, len, name);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fwrite(img, 1, sizeof(img), f), sizeof(img));
	fclose(f);
	return path;
}

START_TEST(image_version)
{
	char p[512], v[256], r[65], err[256];

	fake_image(p, sizeof(p), "vmlinuz", "6.1.0-57-cloud-amd64 "
	    "(debian-kernel@lists.debian.org) #1 SMP Debian 6.1.192-3", 1);
	ck_assert_int_eq(bt_image_version(p, v, sizeof(v), r, sizeof(r), err,
	    sizeof(err)), 0);
	ck_assert_str_eq(r, "6.1.0-57-cloud-amd64");
	tu_assert_has(v, "Debian 6.1.192-3");
	/* shorter than its header says (syssize 1: 16 bytes more) */
	ck_assert_int_eq(sh("cp \"$T/vmlinuz\" \"$T/long\" && printf "
	    "'\\001' | dd of=\"$T/long\" bs=1 seek=500 conv=notrunc "
	    "2>/dev/null && { cat \"$T/long\"; head -c 16 /dev/zero; } > "
	    "\"$T/whole\" && head -c 1030 \"$T/whole\" > \"$T/cut\""), 0);
	tu_path(p, sizeof(p), "cut");
	ck_assert_int_eq(bt_image_version(p, v, sizeof(v), r, sizeof(r), err,
	    sizeof(err)), -1);
	ck_assert_msg(strstr(err, "truncated: 1030 bytes") != NULL, "%s", err);
	tu_path(p, sizeof(p), "whole");
	ck_assert_msg(bt_image_version(p, v, sizeof(v), r, sizeof(r), err,
	    sizeof(err)) == 0, "%s", err);
	/* no HdrS: not a kernel */
	fake_image(p, sizeof(p), "notkernel", "x", 0);
	ck_assert_int_eq(bt_image_version(p, v, sizeof(v), r, sizeof(r), err,
	    sizeof(err)), -1);
	tu_assert_has(err, "not a Linux kernel image");
	/* a header but no version */
	fake_image(p, sizeof(p), "noversion", "", 1);
	ck_assert_int_eq(bt_image_version(p, v, sizeof(v), r, sizeof(r), err,
	    sizeof(err)), -1);
	tu_assert_has(err, "no version");
	/* too short, and missing */
	tu_write(p, sizeof(p), "short", "MZ");
	ck_assert_int_eq(bt_image_version(p, v, sizeof(v), r, sizeof(r), err,
	    sizeof(err)), -1);
	tu_assert_has(err, "not a Linux kernel image");
	tu_path(p, sizeof(p), "missing");
	ck_assert_int_eq(bt_image_version(p, v, sizeof(v), r, sizeof(r), err,
	    sizeof(err)), -1);
	tu_assert_has(err, "cannot open");
}
END_TEST

/* vb_conf_iterations() of the config text @text; -1 when refused. */
static int
conf_iterations(const char *text)
{
	struct vb_conf c;
	char err[512];
	int n;

	if (vb_conf_parse("t.conf", text, &c, err, sizeof(err)) < 0)
		return -1;
	n = vb_conf_iterations(&c);
	vb_conf_free(&c);
	return n;
}

START_TEST(config_iterations_and_timeout)
{
	/* the runner's parser (src/lib/config.c) counts them */
	ck_assert_int_eq(conf_iterations("iterations 2\n"
	    "forkbomb --forks 500 --ints 100\n"
	    "forkbomb@par --forks 500 --concurrency 4 iterations=1\n"), 3);
	/* no suite count: once a line; comments and blank lines are none */
	ck_assert_int_eq(conf_iterations("# a\n\nmemfill --bytes 1M\n"
	    "  mmaptouch --pages 10 # iterations=7\n"), 2);
	ck_assert_int_eq(conf_iterations("probe@x iterations=4\n"
	    "iterations 3\nforkbomb\n"), 7);
	/* a '#' inside quotes is no comment (the copy boots had cut it) */
	ck_assert_int_eq(conf_iterations("fileload --name \"a#b\" "
	    "iterations=5\n"), 5);
	ck_assert_int_eq(conf_iterations("# nothing\n"), -1);
	/* TCG is given longer than KVM; a good boot sets the next limit */
	ck_assert(bt_timeout(0, 1, 3, 0) > bt_timeout(0, 0, 3, 0));
	ck_assert(bt_timeout(0, 1, 30, 0) > bt_timeout(0, 1, 3, 0));
	ck_assert(bt_timeout(0, 1, 3, 20) < bt_timeout(0, 1, 3, 0));
	ck_assert(bt_timeout(0, 1, 3, 20) >= 60);
	ck_assert(bt_timeout(45, 1, 3, 20) == 45);
}
END_TEST

/*
 * Read the newc archive @path back: "name mode size maj,min data|" for
 * each entry ("name|" alone without @data).
 */
static char *
read_cpio(const char *path, int data)
{
	struct vb_buf b = VB_BUF_INIT;
	char *all = tu_slurp(path), *p = all, *out;

	ck_assert_ptr_nonnull(all);
	for (;;) {
		char f[14][9];
		unsigned long mode, size, namesize, maj, min;
		int i;

		ck_assert_int_eq(strncmp(p, "070701", 6), 0);
		for (i = 0; i < 13; i++) {
			memcpy(f[i], p + 6 + 8 * i, 8);
			f[i][8] = '\0';
		}
		mode = strtoul(f[1], NULL, 16);
		size = strtoul(f[6], NULL, 16);
		maj = strtoul(f[9], NULL, 16);
		min = strtoul(f[10], NULL, 16);
		namesize = strtoul(f[11], NULL, 16);
		/* every entry root's */
		ck_assert_str_eq(f[2], "00000000");
		ck_assert_str_eq(f[3], "00000000");
		if (strcmp(p + 110, "TRAILER!!!") == 0)
			break;
		if (data)
			vb_buf_printf(&b, "%s %lo %lu %lu,%lu %.*s|", p + 110,
			    mode, size, maj, min, (int)size,
			    p + ((110 + namesize + 3) & ~3UL));
		else
			vb_buf_printf(&b, "%s|", p + 110);
		p += (110 + namesize + 3) & ~3UL;
		p += (size + 3) & ~3UL;
		ck_assert_int_eq((p - all) % 4, 0);
	}
	free(all);
	out = vb_xstrdup(vb_buf_str(&b));
	vb_buf_free(&b);
	return out;
}

START_TEST(cpio_newc)
{
	char arch[512], src[512], *got;
	struct bt_cpio c;

	tu_write(src, sizeof(src), "src", "hello\n");
	tu_path(arch, sizeof(arch), "a.cpio");
	ck_assert_int_eq(bt_cpio_open(&c, arch), 0);
	ck_assert_int_eq(bt_cpio_chardev(&c, "dev/console", 5, 1), 0);
	ck_assert_int_eq(bt_cpio_data(&c, "init", 0755, "#!/bin/sh\n", 10),
	    0);
	ck_assert_int_eq(bt_cpio_file(&c, "a/b/c.txt", 0644, src), 0);
	ck_assert_int_eq(bt_cpio_symlink(&c, "bin/sh", "busybox"), 0);
	ck_assert_int_eq(bt_cpio_dir(&c, "a/b"), 0);	/* once only */
	ck_assert_int_eq(bt_cpio_close(&c), 0);
	got = read_cpio(arch, 1);
	/* folders before what is in them, each once */
	ck_assert_str_eq(got, "dev 40755 0 0,0 |"
	    "dev/console 20600 0 5,1 |"
	    "init 100755 10 0,0 #!/bin/sh\n|"
	    "a 40755 0 0,0 |a/b 40755 0 0,0 |"
	    "a/b/c.txt 100644 6 0,0 hello\n|"
	    "bin 40755 0 0,0 |bin/sh 120777 7 0,0 busybox|");
	free(got);
	/* a file that cannot be read fails the archive */
	ck_assert_int_eq(bt_cpio_open(&c, arch), 0);
	tu_path(src, sizeof(src), "missing");
	ck_assert_int_eq(bt_cpio_file(&c, "x", 0644, src), -1);
	ck_assert_int_eq(bt_cpio_close(&c), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(initramfs_contents)
{
	char arch[512], dir[512], err[512], *got;
	struct bt_guest g;

	if (access("/bin/busybox", X_OK) < 0 || access("bench/forkbomb",
	    X_OK) < 0) {
		tu_skip("no /bin/busybox or bench/forkbomb");
		return;
	}
	/* a bench/ of two programs, one of them vmboots (left out) */
	ck_assert_int_eq(sh("mkdir -p \"$T/ib\" && cp bench/forkbomb "
	    "\"$T/ib/\" && cp bench/forkbomb \"$T/ib/vmboots\" && "
	    "echo text > \"$T/ib/notes\""), 0);
	memset(&g, 0, sizeof(g));
	g.bindir = tu_path(dir, sizeof(dir), "ib");
	g.root = ".";
	g.config = "configs/test.conf";
	g.config_in = "vmbench/configs/mine.conf";
	g.busybox = "/bin/busybox";
	tu_path(arch, sizeof(arch), "i.cpio");
	ck_assert_int_eq(bt_build_initramfs(&g, arch, err, sizeof(err)), 0);
	got = read_cpio(arch, 0);
	tu_assert_has(got, "|dev/console|");
	tu_assert_has(got, "|init|");
	tu_assert_has(got, "|bin/busybox|bin/sh|");
	tu_assert_has(got, "|vmbench/bench/forkbomb|");
	tu_assert_lacks(got, "vmbench/bench/vmboots");
	tu_assert_lacks(got, "notes");
	/* its libraries and the loader, at the paths it names */
	ck_assert_msg(strstr(got, "/libc.so.6|") != NULL, "%s", got);
	tu_assert_has(got, "ld-linux");
	tu_assert_has(got, "|vmbench/configs/test.conf|");
	tu_assert_has(got, "|vmbench/configs/mine.conf|");
	free(got);
	/* the init is the script, whole */
	got = read_cpio(arch, 1);
	tu_assert_has(got, "init 100755");
	tu_assert_has(got, "bench/vmrun --kernel \"$label\"");
	free(got);
	/* vmboots comes along for the kexec plans */
	g.with_vmboots = 1;
	ck_assert_int_eq(bt_build_initramfs(&g, arch, err, sizeof(err)), 0);
	got = read_cpio(arch, 0);
	tu_assert_has(got, "|vmbench/bench/vmboots|");
	free(got);
	/* a bench/ without programs is refused, the archive not made */
	ck_assert_int_eq(sh("rm -f \"$T/ib\"/* \"$T/i.cpio\""), 0);
	ck_assert_int_eq(bt_build_initramfs(&g, arch, err, sizeof(err)), -1);
	tu_assert_has(err, "no programs");
	ck_assert(!exists("i.cpio"));
}
END_TEST

START_TEST(meta_set_keys)
{
	char p[512], err[256], *t;
	struct vb_kv kv[] = { { "run", "2" }, { "status", "failed" },
	    { "accel", "tcg\nx=y" } };

	tu_write(p, sizeof(p), "meta", "vmbench_meta=1\nlabel=x\n"
	    "status=running\nrun=1\nend=-\n");
	ck_assert_int_eq(bt_meta_set(p, kv, 3, err, sizeof(err)), 0);
	t = tu_slurp(p);
	/* replaced where they were not kept; a newline cannot add a key */
	ck_assert_str_eq(t, "vmbench_meta=1\nlabel=x\nend=-\nrun=2\n"
	    "status=failed\naccel=tcg\n");
	free(t);
	tu_path(p, sizeof(p), "new-meta");
	ck_assert_int_eq(bt_meta_set(p, kv, 1, err, sizeof(err)), 0);
	t = tu_slurp(p);
	ck_assert_str_eq(t, "vmbench_meta=1\nrun=2\n");
	free(t);
}
END_TEST

/* Does tu_dir/@rel exist? */
static int
exists(const char *rel)
{
	char p[1024];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", tu_dir, rel);
	return lstat(p, &st) == 0;
}

/* Value of @key in the meta tu_dir/@rel, "" when absent. */
static const char *
meta_val(const char *rel, const char *key)
{
	static char v[1024];
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s", tu_dir, rel);
	if (!bt_kv_get(p, key, v, sizeof(v)))
		v[0] = '\0';
	return v;
}

START_TEST(collect_from_disk)
{
	char img[512], job[512], got[512], dir[512], err[512];
	char *fb[] = { "bench/forkbomb", "--forks", "1", "--ints", "1",
		"--out", dir, NULL };
	struct vb_kv kv[] = { { "run", "1" }, { "accel", "tcg" },
	    { "boot_id", "b1" } };
	int next;

	if (!vb_have("mkfs.ext4") && !vb_have("/sbin/mkfs.ext4")) {
		tu_skip("no mkfs.ext4 (e2fsprogs)");
		return;
	}
	setenv("PATH", "/usr/bin:/bin:/usr/sbin:/sbin", 1);
	/* what a guest leaves on its result disk */
	tu_fake("g/vmboots/guest", "boot_id=b1\nvmrun_exit=0\n");
	tu_folder(dir, sizeof(dir), "g/results", 0755);
	tu_folder(dir, sizeof(dir), "g/results/lab", 0755);
	tu_meta_set(dir, "vmbench_meta", "1");
	tu_meta_set(dir, "label", "lab");
	tu_meta_set(dir, "status", "complete");
	tu_meta_set(dir, "uname_r", "6.1");
	strcat(dir, "/forkbomb");
	ck_assert_int_eq(tu_run(fb), 0);
	tu_path(img, sizeof(img), "disk.img");
	tu_path(job, sizeof(job), "g");
	tu_path(got, sizeof(got), "res/lab/.boot-1");
	tu_path(dir, sizeof(dir), "res/lab");
	ck_assert_int_eq(bt_disk_make(img, 64 << 20, job, NULL, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(sh("rm -rf \"$T/g\" && mkdir -p \"$T/res/lab\""), 0);
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), 0);
	ck_assert_int_eq(next, 1);
	ck_assert_int_eq(bt_disk_read(img, got, NULL, err, sizeof(err)), 0);
	ck_assert(exists("res/lab/.boot-1/vmboots/guest"));
	ck_assert_int_eq(bt_collect(got, "lab", dir, next, NULL, kv, 3, err,
	    sizeof(err)), 0);
	ck_assert(exists("res/lab/run1/forkbomb.res"));
	ck_assert_str_eq(meta_val("res/lab/run1/meta", "uname_r"), "6.1");
	ck_assert_str_eq(meta_val("res/lab/run1/meta", "status"),
	    "complete");
	ck_assert_str_eq(meta_val("res/lab/run1/meta", "run"), "1");
	ck_assert_str_eq(meta_val("res/lab/run1/meta", "boot_id"), "b1");
	ck_assert_str_eq(meta_val("res/lab/run1/meta", "accel"), "tcg");
	/* the same disk again: the next run; a guest that died: failed */
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), 0);
	ck_assert_int_eq(next, 2);
	ck_assert_int_eq(sh("rm -rf \"$T/res/lab/.boot-1\""), 0);
	ck_assert_int_eq(bt_disk_read(img, got, NULL, err, sizeof(err)), 0);
	kv[0].val = "2";
	ck_assert_int_eq(bt_collect(got, "lab", dir, next, "failed", kv, 3,
	    err, sizeof(err)), 0);
	ck_assert_str_eq(meta_val("res/lab/run2/meta", "status"), "failed");
	ck_assert_str_eq(meta_val("res/lab/run2/meta", "run"), "2");
	/* nothing came back: a run that says so, labelled */
	ck_assert_int_eq(sh("rm -rf \"$T/res/lab/.boot-1\" && mkdir "
	    "\"$T/res/lab/.boot-1\""), 0);
	kv[0].val = "3";
	ck_assert_int_eq(bt_collect(got, "lab", dir, 3, "failed", kv, 3, err,
	    sizeof(err)), 0);
	ck_assert_str_eq(meta_val("res/lab/run3/meta", "vmbench_meta"), "1");
	ck_assert_str_eq(meta_val("res/lab/run3/meta", "label"), "lab");
	ck_assert_str_eq(meta_val("res/lab/run3/meta", "status"), "failed");
	/* a run already there is never overwritten */
	ck_assert_int_eq(bt_collect(got, "lab", dir, 3, "failed", kv, 3, err,
	    sizeof(err)), -1);
	tu_assert_has(err, "already exists");
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), 0);
	ck_assert_int_eq(next, 4);
	/* a folder of one run (make run) is not a folder of runs */
	ck_assert_int_eq(sh("mkdir -p \"$T/res/flat\" && echo vmbench_meta=1 "
	    "> \"$T/res/flat/meta\""), 0);
	tu_path(dir, sizeof(dir), "res/flat");
	ck_assert_int_eq(vb_runs_next(dir, &next, err, sizeof(err)), -1);
	tu_assert_has(err, "holds a single run");
}
END_TEST

/*
 * A guest stopped before its page cache reached the disk (no
 * vmboots/synced): its empty .res, .log, .vmstat and meta are not kept,
 * each named; a whole .res is.
 */
START_TEST(collect_keeps_whole)
{
	char img[512], job[512], got[512], dir[512], err[512], *out;
	struct vb_kv kv[] = { { "run", "1" } };
	int save, fd;

	if (!vb_have("mkfs.ext4") && !vb_have("/sbin/mkfs.ext4")) {
		tu_skip("no mkfs.ext4 (e2fsprogs)");
		return;
	}
	setenv("PATH", "/usr/bin:/bin:/usr/sbin:/sbin", 1);
	/* a whole .res: what a benchmark writes (forkbomb, one fork) */
	ck_assert_int_eq(sh("mkdir -p \"$T/w1/vmboots\" "
	    "\"$T/w1/results/whole\" \"$T/res/whole\" && echo boot_id=b1 "
	    "> \"$T/w1/vmboots/guest\" && cd \"$T/w1/results/whole\" && "
	    ": > meta && : > fileload@small.res && "
	    ": > fileload@small.log && : > fileload@small.vmstat && "
	    "\"$OLDPWD/bench/forkbomb\" --forks 1 --ints 1 --iterations 1 "
	    "--out forkbomb > forkbomb.log 2>&1"), 0);
	tu_path(img, sizeof(img), "disk.img");
	tu_path(job, sizeof(job), "w1");
	tu_path(got, sizeof(got), "res/whole/.boot-1");
	tu_path(dir, sizeof(dir), "res/whole");
	ck_assert_int_eq(bt_disk_make(img, 64 << 20, job, NULL, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(bt_disk_read(img, got, NULL, err, sizeof(err)), 0);
	save = dup(2);
	fd = open(tu_path(err, sizeof(err), "said"), O_WRONLY | O_CREAT |
	    O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	fd = bt_collect(got, "whole", dir, 1, "interrupted", kv, 1, err,
	    sizeof(err));
	fflush(stderr);
	dup2(save, 2);
	close(save);
	out = tu_slurp(tu_path(img, sizeof(img), "said"));
	ck_assert_msg(fd == 0, "%s: %s", err, out);
	ck_assert_msg(!exists("res/whole/run1/fileload@small.res") &&
	    !exists("res/whole/run1/fileload@small.log") &&
	    !exists("res/whole/run1/fileload@small.vmstat"),
	    "empty files kept: %s", out);
	ck_assert_msg(strstr(out, "run1/fileload@small.res:1: empty file: "
	    "not kept") != NULL, "%s", out);
	ck_assert(exists("res/whole/run1/forkbomb.res"));
	ck_assert(exists("res/whole/run1/forkbomb.log"));
	ck_assert_str_eq(meta_val("res/whole/run1/meta", "vmbench_meta"), "1");
	ck_assert_str_eq(meta_val("res/whole/run1/meta", "status"),
	    "interrupted");
	ck_assert_msg(strstr(meta_val("res/whole/run1/meta", "boot_lost"),
	    "fileload@small.res") != NULL, "boot_lost=%s",
	    meta_val("res/whole/run1/meta", "boot_lost"));
	free(out);
}
END_TEST

/* The test kernel: $VMBENCH_TEST_KERNEL, or the first in the cache. */
static const char *
test_kernel(void)
{
	static char path[1024];
	const char *e = getenv("VMBENCH_TEST_KERNEL"), *h = getenv("HOME");
	const char *c = getenv("VMBENCH_CACHE"), *x = getenv("XDG_CACHE_HOME");
	glob_t g;

	if (e && *e)
		return access(e, R_OK) == 0 ? e : NULL;
	/* where make test-kernel (src/boots/get-kernel.sh) puts them */
	if (c && *c)
		snprintf(path, sizeof(path), "%s/kernels/*/boot/vmlinuz-*", c);
	else if (x && *x)
		snprintf(path, sizeof(path), "%s/vmbench/kernels/*/boot/"
		    "vmlinuz-*", x);
	else
		snprintf(path, sizeof(path), "%s/.cache/vmbench/kernels/*/"
		    "boot/vmlinuz-*", h && *h ? h : "/root");
	if (glob(path, 0, NULL, &g) != 0)
		return NULL;
	snprintf(path, sizeof(path), "%s", g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
	return path;
}

START_TEST(modules_of_test_kernel)
{
	const char *k = test_kernel();
	char mod[1024], *s, **paths, err[512];
	int n, i;

	if (!k) {
		tu_skip("no test kernel (make test-kernel)");
		return;
	}
	/* IMAGE/../../lib/modules/RELEASE, as dpkg-deb -x lays it out */
	snprintf(mod, sizeof(mod), "%s", k);
	*strrchr(mod, '/') = '\0';
	s = strrchr(mod, '/');
	snprintf(s, sizeof(mod) - (size_t)(s - mod), "/lib/modules/%s",
	    strstr(k, "vmlinuz-") + 8);
	if (access(mod, R_OK) < 0) {
		tu_skip("%s has no modules", k);
		return;
	}
	ck_assert_int_eq(bt_modules_closure(mod, bt_guest_modules, &paths,
	    &n, err, sizeof(err)), 0);
	ck_assert_int_ge(n, 2);
	/* each after what it depends on: virtio_ring first, the users last */
	for (i = 0; i < n; i++) {
		char deps[512], *d, *tok;
		int j;

		ck_assert_int_eq(bt_modinfo_depends(paths[i], deps,
		    sizeof(deps), err, sizeof(err)), 0);
		for (d = deps; (tok = strsep(&d, ","));) {
			for (j = 0; j < i; j++)
				if (strstr(paths[j], tok))
					break;
			ck_assert_msg(!*tok || j < i, "%s before its %s",
			    paths[i], tok);
		}
	}
	tu_assert_has(paths[n - 1], "virtio_blk.ko");
	bt_free_list(paths, n);
	/* a module that is nowhere */
	{
		const char *const want[] = { "no_such_module", NULL };

		ck_assert_int_eq(bt_modules_closure(mod, want, &paths, &n,
		    err, sizeof(err)), -1);
		tu_assert_has(err, "no module no_such_module");
	}
	ck_assert_int_eq(bt_modinfo_depends(k, mod, sizeof(mod), err,
	    sizeof(err)), -1);
}
END_TEST

/* The program's output is @out; its status is returned. */
static int
vmboots(char **out, const char *args)
{
	char log[512];
	int rc;

	tu_path(log, sizeof(log), "out");
	rc = sh("bench/vmboots --results \"$T/res\" --workdir \"$T/w\" %s "
	    "> \"$T/out\" 2>&1", args);
	*out = tu_slurp(log);
	return rc;
}

START_TEST(bad_input)
{
	char img[512], *out;
	const char *k = test_kernel();

	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$T/none\""), 0);
	tu_assert_has(out, "A_KERNEL=");
	tu_assert_has(out, "cannot open");
	ck_assert_ptr_null(strchr(strchr(out, '\n') + 1, '\n'));
	free(out);
	tu_write(img, sizeof(img), "notakernel", "just text, long enough? "
	    "no\n");
	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$T/notakernel\""), 0);
	tu_assert_has(out, "not a Linux kernel image");
	free(out);
	ck_assert_int_ne(vmboots(&out, ""), 0);
	tu_assert_has(out, "A_KERNEL=/path");
	free(out);
	/* refused before anything is made: no work folder */
	ck_assert_int_ne(sh("bench/vmboots --results \"$T/res\" --workdir "
	    "\"$T/neww\" --a-kernel /nonexistent > \"$T/out\" 2>&1"), 0);
	out = tu_slurp(tu_path(img, sizeof(img), "out"));
	ck_assert_msg(strstr(out, "A_KERNEL=/nonexistent: cannot open") &&
	    !exists("neww"), "work folder made: %s", out);
	free(out);
	if (!k) {
		tu_skip("bad_input in part: no test kernel (make test-kernel)");
		return;
	}
	setenv("K", k, 1);
	/* a kernel image cut short: one line, "truncated" */
	ck_assert_int_eq(sh("head -c 3000000 \"$K\" > \"$T/cut\""), 0);
	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$T/cut\""), 0);
	ck_assert_msg(strstr(out, "cut: truncated: 3000000 bytes") &&
	    !strchr(strchr(out, '\n') + 1, '\n'), "%s", out);
	free(out);
	/* a results folder that cannot be made: refused before QEMU runs */
	ck_assert_int_eq(sh("printf '#!/bin/sh\\ntouch \"%s/qemu-ran\"\\n"
	    "echo QEMU emulator version 0\\n' > \"$T/fakeqemu\" && chmod +x "
	    "\"$T/fakeqemu\"", tu_dir), 0);
	ck_assert_int_ne(sh("bench/vmboots --results /nonexistent/x "
	    "--workdir \"$T/w2\" --a-kernel \"$K\" --qemu \"$T/fakeqemu\" "
	    "--config configs/test.conf > \"$T/out\" 2>&1"), 0);
	out = tu_slurp(tu_path(img, sizeof(img), "out"));
	ck_assert_msg(strstr(out, "RESULTS=/nonexistent/x") &&
	    !strchr(strchr(out, '\n') + 1, '\n'), "%s", out);
	ck_assert_msg(!exists("qemu-ran") && !exists("w2"), "QEMU ran or "
	    "the work folder was made: %s", out);
	free(out);
	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$K\" --order ABA"), 0);
	tu_assert_has(out, "order 'ABA'");
	free(out);
	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$K\" --qemu "
	    "\"$T/no-qemu\""), 0);
	tu_assert_has(out, "no-qemu not found");
	free(out);
	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$K\" --mem 1X"), 0);
	tu_assert_has(out, "VM_MEM=1X");
	free(out);
	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$K\" --disk 1M"), 0);
	tu_assert_has(out, "VM_DISK=1M");
	free(out);
	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$K\" --config "
	    "\"$T/none.conf\""), 0);
	/* the runner's parser's words: vmrun says the same */
	tu_assert_has(out, "cannot read config ");
	tu_assert_has(out, "none.conf: No such file");
	free(out);
	/* a label folder of one run is refused, before anything boots */
	ck_assert_int_eq(sh("mkdir -p \"$T/res/flat\" && echo "
	    "vmbench_meta=1 > \"$T/res/flat/meta\""), 0);
	ck_assert_int_ne(vmboots(&out, "--a-kernel \"$K\" --a-label flat "
	    "--config configs/test.conf"), 0);
	tu_assert_has(out, "holds a single run");
	ck_assert_ptr_null(strchr(strchr(out, '\n') + 1, '\n'));
	free(out);
	ck_assert(!exists("res/flat/run1"));
	ck_assert(!exists("res/flat/.boot-1"));
}
END_TEST

/* @n runs of label folder @rel (under tu_dir), their meta pairing @pair. */
static void
runs_paired(const char *rel, int n, const char *pair)
{
	ck_assert_int_eq(sh("for i in $(seq %d); do mkdir -p \"$T/%s/run$i\" "
	    "&& printf 'vmbench_meta=1\\nlabel=x\\nboot_side=B\\n"
	    "boot_pair=%s\\n' > \"$T/%s/run$i/meta\" || exit 1; done", n,
	    rel, pair, rel), 0);
}

/*
 * A label folder another plan made: make boots' default label of the
 * side without a command line is the bare release, which a second plan
 * (mitigations=off against none) shares with a first one (56 against
 * 57).  bt_label_plan_check() refuses runs paired with another label,
 * in one line naming the run, the pairings and the way out; accepts
 * this pairing's runs, make run's (no boot_pair) and no folder.  Then
 * vmboots itself, on fake images and a fake QEMU: refused before
 * anything boots, QEMU never started, no run added.
 */
START_TEST(label_of_another_plan)
{
	char err[1024], a[512], b[512], *out, *p;

	runs_paired("lp/res/57", 3, "56");
	tu_path(a, sizeof(a), "lp/res/57");
	ck_assert_int_eq(bt_label_plan_check(a, "57", "57-mitigations-off",
	    'B', err, sizeof(err)), -1);
	tu_assert_has(err, "lp/res/57 holds runs of another plan (run1: 57 "
	    "against 56, not 57-mitigations-off): give B_LABEL= a label of "
	    "its own, or remove ");
	ck_assert_ptr_null(strchr(err, '\n'));
	/* the same pairing, make run's runs, no folder: fine */
	ck_assert_int_eq(bt_label_plan_check(a, "57", "56", 'B', err,
	    sizeof(err)), 0);
	ck_assert_int_eq(sh("mkdir -p \"$T/lp/res/mr/run1\" && echo "
	    "vmbench_meta=1 > \"$T/lp/res/mr/run1/meta\""), 0);
	tu_path(b, sizeof(b), "lp/res/mr");
	ck_assert_int_eq(bt_label_plan_check(b, "mr", "56", 'A', err,
	    sizeof(err)), 0);
	tu_path(b, sizeof(b), "lp/res/none");
	ck_assert_int_eq(bt_label_plan_check(b, "none", "56", 'A', err,
	    sizeof(err)), 0);
	/* vmboots: mitigations=off against none into the 56-57 plan's 57 */
	if (!vb_have("mkfs.ext4") || !vb_have("e2fsck") ||
	    !vb_have("debugfs") || !vb_have("busybox")) {
		tu_skip("label_of_another_plan in part: no e2fsprogs or "
		    "busybox (make deps-boots)");
		return;
	}
	fake_image(a, sizeof(a), "lp-vmlinuz", "6.1.0-57-plan (fake) #1", 1);
	runs_paired("lp/r2/6.1.0-57-plan", 3, "6.1.0-56-plan");
	ck_assert_int_eq(sh("printf '#!/bin/sh\\ncase \"$1\" in --version) "
	    "echo QEMU emulator version 0;; *) touch \"$T/lp/qemu-ran\";; "
	    "esac\\n' > \"$T/lp/fakeqemu\" && chmod +x \"$T/lp/fakeqemu\""),
	    0);
	ck_assert_int_ne(sh("bench/vmboots --results \"$T/lp/r2\" --workdir "
	    "\"$T/lp/w\" --a-kernel '%s' --b-kernel '%s' --a-cmdline "
	    "mitigations=off --qemu \"$T/lp/fakeqemu\" --config "
	    "configs/test.conf --accel tcg > \"$T/lp/out\" 2>&1", a, a), 0);
	out = tu_slurp(tu_path(b, sizeof(b), "lp/out"));
	tu_assert_has(out, "6.1.0-57-plan holds runs of another plan (run1: "
	    "6.1.0-57-plan against 6.1.0-56-plan, not "
	    "6.1.0-57-plan-mitigations-off): give B_LABEL=");
	/* the refusal is the last line, whole (the fake images have no
	 * modules folder: said before it) */
	p = strstr(out, "holds runs of another plan");
	ck_assert_msg(p && strchr(p, '\n') == out + strlen(out) - 1,
	    "not the one last line: %s", out);
	free(out);
	ck_assert(!exists("lp/qemu-ran"));
	ck_assert(!exists("lp/r2/6.1.0-57-plan/run4"));
	ck_assert(!exists("lp/r2/6.1.0-57-plan-mitigations-off/run1"));
}
END_TEST

/* Skip unless QEMU and a test kernel are here; the kernel into $K. */
static int
can_boot(const char *test)
{
	const char *k = test_kernel();

	(void)test;
	if (!vb_have("qemu-system-x86_64") || !k) {
		tu_skip(!k ? "no test kernel (make test-kernel)" :
		    "no qemu-system-x86_64 (make deps-boots)");
		return 0;
	}
	setenv("K", k, 1);
	return 1;
}

/* No QEMU of ours and no vmboots.* folder are left. */
static void
nothing_left(void)
{
	ck_assert_int_eq(sh("ls -d \"$T\"/w/vmboots.* 2>/dev/null | "
	    "grep -q ."), 1);
	ck_assert_int_eq(sh("pgrep -f \"$T/w/vmboots\" >/dev/null"), 1);
}

START_TEST(boot_end_to_end)
{
	char *out;

	if (!can_boot("boot_end_to_end"))
		return;
	ck_assert_int_eq(sh("echo 'forkbomb --forks 50 --ints 10 "
	    "iterations=1' > \"$T/tiny.conf\""), 0);
	/* B boots, runs the config and comes home; A panics (no init) */
	ck_assert_int_eq(vmboots(&out, "--a-kernel \"$K\" --accel tcg "
	    "--boots 1 --config \"$T/tiny.conf\" --no-report --a-label a "
	    "--b-label b --a-cmdline 'rdinit=/none root=/dev/none' "
	    "--timeout 240 --mem 256M --cpus 1"), 1);
	ck_assert_msg(strstr(out, "boot 1 of 2: A (a)") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "boot 1 (A, a): failed: kernel panic") !=
	    NULL, "%s", out);
	ck_assert_msg(strstr(out, "boot 2: B ok") != NULL, "%s", out);
	ck_assert(exists("res/b/run1/forkbomb.res"));
	ck_assert(exists("res/b/run1/console.txt"));
	ck_assert_str_eq(meta_val("res/b/run1/meta", "status"), "complete");
	ck_assert_str_eq(meta_val("res/b/run1/meta", "run"), "1");
	ck_assert_str_eq(meta_val("res/b/run1/meta", "accel"), "tcg");
	ck_assert_str_eq(meta_val("res/b/run1/meta", "vm_mem"), "256M");
	ck_assert_str_eq(meta_val("res/b/run1/meta", "workdir_fstype"),
	    "ext4");
	ck_assert_str_eq(meta_val("res/b/run1/meta", "boot_status"), "ok");
	ck_assert_int_eq(strlen(meta_val("res/b/run1/meta", "boot_id")), 36);
	ck_assert_str_eq(meta_val("res/b/run1/meta", "boot_order"), "AB");
	ck_assert_str_eq(meta_val("res/a/run1/meta", "status"), "failed");
	tu_assert_has(meta_val("res/a/run1/meta",
	    "boot_failure"), "kernel panic");
	ck_assert(exists("res/a/run1/console.txt"));
	ck_assert(!exists("res/a/.boot-1"));
	nothing_left();
	free(out);
}
END_TEST

START_TEST(kexec_plan)
{
	struct bt_kplan p;
	char path[512], err[512], dir[512];

	ck_assert_int_eq(bt_kexec_step("console=ttyS0 vmbench.boot=3 quiet"),
	    3);
	ck_assert_int_eq(bt_kexec_step("vmbench.boot=0"), 0);
	ck_assert_int_eq(bt_kexec_step("xvmbench.boot=3"), -1);
	ck_assert_int_eq(bt_kexec_step("vmbench.boot= quiet"), -1);
	ck_assert_int_eq(bt_kexec_step("vmbench.boot=2x"), -1);
	ck_assert_int_eq(bt_kexec_step("quiet"), -1);
	/* written, read back, a value changed */
	memset(&p, 0, sizeof(p));
	tu_path(p.path, sizeof(p.path), "plan");
	bt_kplan_set(&p, "vmboots_plan", "1");
	bt_kplan_set(&p, "order", "AB");
	bt_kplan_set(&p, "a_cmdline", "quiet x=1\ny=2");
	ck_assert_int_eq(bt_kplan_write(&p), 0);
	bt_kplan_free(&p);
	ck_assert_int_eq(bt_kplan_read(&p, tu_path(path, sizeof(path),
	    "plan"), err, sizeof(err)), 0);
	ck_assert_str_eq(bt_kplan_get(&p, "order"), "AB");
	ck_assert_str_eq(bt_kplan_get(&p, "a_cmdline"), "quiet x=1");
	ck_assert_str_eq(bt_kplan_get(&p, "none"), "");
	bt_kplan_set(&p, "order", "BA");
	ck_assert_int_eq(bt_kplan_write(&p), 0);
	bt_kplan_free(&p);
	ck_assert_int_eq(bt_kplan_read(&p, path, err, sizeof(err)), 0);
	ck_assert_str_eq(bt_kplan_get(&p, "order"), "BA");
	bt_kplan_free(&p);
	tu_write(path, sizeof(path), "notplan", "a=b\n");
	ck_assert_int_eq(bt_kplan_read(&p, path, err, sizeof(err)), -1);
	tu_assert_has(err, "not a vmboots plan");
	ck_assert_int_eq(bt_kexec_load("/nonexistent/vmlinuz", "", "quiet",
	    err, sizeof(err)), -1);
	tu_assert_has(err, "cannot open");
	/*
	 * A plan whose kernel this machine is not running (no
	 * vmbench.boot= here) and whose next kernels cannot be opened:
	 * each step is recorded as a failed run, and the plan ends
	 * without a jump (the images do not exist: nothing is loaded).
	 */
	tu_path(dir, sizeof(dir), "kres");
	memset(&p, 0, sizeof(p));
	tu_path(p.path, sizeof(p.path), "kplan");
	bt_kplan_set(&p, "vmboots_plan", "1");
	bt_kplan_set(&p, "order", "ABA");
	bt_kplan_set(&p, "booted", "0");
	bt_kplan_set(&p, "next", "0");
	bt_kplan_set(&p, "final", "poweroff");
	bt_kplan_set(&p, "results", dir);
	bt_kplan_set(&p, "a_label", "ka");
	bt_kplan_set(&p, "b_label", "kb");
	bt_kplan_set(&p, "a_image", "/nonexistent/a");
	bt_kplan_set(&p, "b_image", "/nonexistent/b");
	bt_kplan_set(&p, "meta_accel", "none");
	ck_assert_int_eq(bt_kplan_write(&p), 0);
	bt_kplan_free(&p);
	{
		/* its lines (one a step) are not the test's output */
		int save = dup(2), nul = open("/dev/null", O_WRONLY);

		ck_assert_int_ge(nul, 0);
		fflush(stderr);
		dup2(nul, 2);
		close(nul);
		ck_assert_int_eq(bt_kexec_continue(p.path), 0);
		fflush(stderr);
		dup2(save, 2);
		close(save);
	}
	ck_assert_str_eq(meta_val("kres/ka/run1/meta", "status"), "failed");
	tu_assert_has(meta_val("kres/ka/run1/meta",
	    "boot_failure"), "did not come up");
	ck_assert_str_eq(meta_val("kres/kb/run1/meta", "status"), "failed");
	tu_assert_has(meta_val("kres/kb/run1/meta",
	    "boot_failure"), "cannot open");
	ck_assert_str_eq(meta_val("kres/ka/run2/meta", "boot_step"), "3");
	ck_assert_str_eq(meta_val("kres/ka/run2/meta", "method"), "kexec");
	ck_assert_str_eq(meta_val("kres/ka/run2/meta", "accel"), "none");
	ck_assert_str_eq(meta_val("kplan", "next"), "3");
	ck_assert(!exists("kres/.kexec-stage"));
}
END_TEST

START_TEST(kexec_in_a_guest)
{
	char *out;

	if (!can_boot("kexec_in_a_guest"))
		return;
	ck_assert_int_eq(sh("echo 'forkbomb --forks 50 --ints 10 "
	    "iterations=1' > \"$T/tiny.conf\""), 0);
	/* one machine: A's kernel, then by kexec B's (another line) */
	ck_assert_int_eq(vmboots(&out, "--method qemu-kexec --a-kernel "
	    "\"$K\" --accel tcg --boots 1 --config \"$T/tiny.conf\" "
	    "--no-report --a-label a --b-label b --b-cmdline vmbench.b=1 "
	    "--mem 512M --cpus 1"), 0);
	ck_assert_msg(strstr(out, "one QEMU machine, 2 steps by kexec") !=
	    NULL, "%s", out);
	ck_assert(exists("res/a/run1/forkbomb.res"));
	ck_assert(exists("res/b/run1/forkbomb.res"));
	ck_assert_str_eq(meta_val("res/a/run1/meta", "method"), "kexec");
	ck_assert_str_eq(meta_val("res/b/run1/meta", "boot_status"), "ok");
	ck_assert_str_eq(meta_val("res/b/run1/meta", "boot_step"), "2");
	ck_assert_str_eq(meta_val("res/b/run1/meta", "accel"), "tcg");
	tu_assert_has(meta_val("res/b/run1/meta", "cmdline"), "vmbench.b=1 vmbench.boot=1");
	/* two boots, two boot ids */
	ck_assert_int_eq(strlen(meta_val("res/a/run1/meta", "boot_id")), 36);
	{
		char id[64];

		snprintf(id, sizeof(id), "%s", meta_val("res/a/run1/meta",
		    "boot_id"));
		ck_assert_str_ne(id, meta_val("res/b/run1/meta", "boot_id"));
	}
	nothing_left();
	free(out);
}
END_TEST

START_TEST(boot_timeout)
{
	char *out;

	if (!can_boot("boot_timeout"))
		return;
	ck_assert_int_eq(sh("echo 'forkbomb --forks 50 --ints 10' > "
	    "\"$T/tiny.conf\""), 0);
	/* no kernel reaches its suite in 2 s under TCG: both given up */
	ck_assert_int_eq(vmboots(&out, "--a-kernel \"$K\" --accel tcg "
	    "--boots 2 --config \"$T/tiny.conf\" --no-report --a-label a "
	    "--b-label b --timeout 2 --mem 256M --cpus 1"), 1);
	ck_assert_msg(strstr(out, "boot 1 (A, a): failed: no end after 2 s "
	    "(the boot timeout; BOOT_TIMEOUT= sets it)") != NULL, "%s", out);
	/* every boot so far failed, A's and B's: the plan stops */
	ck_assert_msg(strstr(out, "stopping the plan") != NULL, "%s", out);
	ck_assert(!exists("res/a/run2"));
	ck_assert_str_eq(meta_val("res/b/run1/meta", "boot_status"),
	    "failed");
	nothing_left();
	free(out);
}
END_TEST

/* Start vmboots in the background; its pid once QEMU runs. */
static pid_t
start_boot(void)
{
	char pidf[512], *p;
	pid_t pid = 0;
	int i;

	ck_assert_int_eq(sh("echo 'forkbomb --forks 50 --ints 10' > "
	    "\"$T/tiny.conf\"; bench/vmboots --results \"$T/res\" --workdir "
	    "\"$T/w\" --a-kernel \"$K\" --accel tcg --boots 1 --config "
	    "\"$T/tiny.conf\" --no-report --a-label a --b-label b --mem 256M "
	    "> \"$T/out\" 2>&1 & echo $! > \"$T/pid\""), 0);
	p = tu_slurp(tu_path(pidf, sizeof(pidf), "pid"));
	pid = (pid_t)atol(p);
	free(p);
	/* QEMU runs once its console file is there */
	for (i = 0; i < 600; i++) {
		if (sh("ls \"$T\"/w/vmboots.*/console >/dev/null 2>&1") == 0 &&
		    sh("pgrep -f \"$T/w/vmboots\" >/dev/null") == 0)
			break;
		usleep(50000);
	}
	ck_assert_int_lt(i, 600);
	return pid;
}

START_TEST(sigterm_mid_boot)
{
	char *out, p[512];
	pid_t pid;
	int i;

	if (!can_boot("sigterm_mid_boot"))
		return;
	pid = start_boot();
	usleep(500000);
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	for (i = 0; i < 200 && kill(pid, 0) == 0; i++)
		usleep(50000);
	ck_assert_int_lt(i, 200);
	out = tu_slurp(tu_path(p, sizeof(p), "out"));
	ck_assert_msg(strstr(out, "interrupted") != NULL, "%s", out);
	/* the boot is kept, marked; nothing else is left */
	ck_assert_str_eq(meta_val("res/a/run1/meta", "status"),
	    "interrupted");
	ck_assert(!exists("res/b/run1"));
	nothing_left();
	free(out);
}
END_TEST

/*
 * Start bench/vmboots with @args (shell words) in a process group of
 * its own, as a terminal's foreground job: a child of this process, so
 * that its exit status can be waited for; its output in $T/out.
 */
static pid_t
spawn_group(const char *args)
{
	char *cmd;
	pid_t pid;

	ck_assert_int_ge(asprintf(&cmd, "T='%s'; exec bench/vmboots "
	    "--results \"$T/res\" --workdir \"$T/w\" --a-kernel \"$K\" "
	    "%s > \"$T/out\" 2>&1", tu_dir, args), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setpgid(0, 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	free(cmd);
	return pid;
}

/*
 * Ctrl-C while the guest runs the config (SIGINT to vmboots' process
 * group, as a terminal sends it): the guest stops its suite, flushes
 * and powers off; the run holds the benchmark that ended, whole, and
 * vmreport loads the label with the interrupted benchmark left out and
 * named.
 */
START_TEST(interrupt_in_config)
{
	char *out, *rep, p[512];
	pid_t pid = 0;
	int i, st;

	if (!can_boot("interrupt_in_config"))
		return;
	ck_assert_int_eq(sh("printf 'forkbomb --forks 50 --ints 10 "
	    "iterations=1\\nforkbomb@long --forks 5000000 --ints 10 "
	    "iterations=1\\n' > \"$T/two.conf\""), 0);
	pid = spawn_group("--accel tcg --boots 1 --config \"$T/two.conf\" "
	    "--no-report --a-label a --b-label b --mem 256M");
	/* the second benchmark runs in the guest */
	for (i = 0; i < 3000; i++) {
		if (sh("grep -qs '2/2] forkbomb@long' \"$T\"/w/vmboots.*/"
		    "console") == 0)
			break;
		usleep(100000);
	}
	out = tu_slurp(tu_path(p, sizeof(p), "out"));
	ck_assert_msg(i < 3000, "the guest never started forkbomb@long: %s",
	    out);
	free(out);
	usleep(500000);
	ck_assert_int_eq(kill(-pid, SIGINT), 0);
	for (i = 0; i < 1800 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(100000);
	ck_assert_int_lt(i, 1800);
	out = tu_slurp(tu_path(p, sizeof(p), "out"));
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 130, "exit %d: %s",
	    st, out);
	ck_assert_msg(!strcmp(meta_val("res/a/run1/meta", "status"),
	    "interrupted"), "meta status %s: %s", meta_val("res/a/run1/meta",
	    "status"), out);
	free(out);
	/* the benchmark that ended is whole */
	out = tu_slurp(tu_path(p, sizeof(p), "res/a/run1/forkbomb.res"));
	ck_assert_msg(out && strstr(out, "status complete"),
	    "forkbomb.res: %s; %s", out ? out : "(none)",
	    tu_slurp(tu_path(p, sizeof(p), "out")));
	free(out);
	/* the report loads the label; the interrupted one left out, named */
	ck_assert_int_eq(sh("report/vmreport \"$T/res/a\" > \"$T/rep\" "
	    "2>&1; echo $? >> \"$T/rep\""), 0);
	rep = tu_slurp(tu_path(p, sizeof(p), "rep"));
	ck_assert_msg(strstr(rep, "forkbomb@long") && strstr(rep, "left out")
	    && !strstr(rep, "empty file") && strstr(rep, "\n0\n"),
	    "vmreport: %s", rep);
	free(rep);
	nothing_left();
}
END_TEST

/*
 * timeout -s SIG 5 vmboots (SIGTERM, SIGINT, SIGHUP), whatever it is
 * doing at 5 s (building the initramfs, booting, running the suite):
 * it ends, exit 124, no QEMU and no temporary folder are left, and a
 * label it wrote loads (vmreport reads every file, or finds no run).
 */
START_TEST(timeout_signals)
{
	static const char *const sig[] = { "TERM", "INT", "HUP" };
	char *out, *rep, p[512];
	size_t i;
	int rc;

	if (!can_boot("timeout_signals"))
		return;
	ck_assert_int_eq(sh("echo 'forkbomb --forks 5000000 --ints 10 "
	    "iterations=1' > \"$T/long.conf\""), 0);
	for (i = 0; i < sizeof(sig) / sizeof(sig[0]); i++) {
		ck_assert_int_eq(sh("rm -rf \"$T/res\""), 0);
		rc = sh("timeout -s %s 5 bench/vmboots --results \"$T/res\" "
		    "--workdir \"$T/w\" --a-kernel \"$K\" --accel tcg "
		    "--boots 1 --config \"$T/long.conf\" --no-report "
		    "--a-label a --b-label b --mem 256M > \"$T/out\" 2>&1",
		    sig[i]);
		out = tu_slurp(tu_path(p, sizeof(p), "out"));
		ck_assert_msg(rc == 124, "SIG%s: exit %d: %s", sig[i], rc, out);
		ck_assert_msg(strstr(out, "interrupted") != NULL, "SIG%s: %s",
		    sig[i], out);
		nothing_left();
		if (exists("res/a/run1")) {
			ck_assert_int_eq(sh("report/vmreport \"$T/res/a\" > "
			    "\"$T/rep\" 2>&1; echo \"exit $?\" >> "
			    "\"$T/rep\""), 0);
			rep = tu_slurp(tu_path(p, sizeof(p), "rep"));
			ck_assert_msg(strstr(rep, "exit 0") || strstr(rep,
			    "no run to compare"), "SIG%s: %s\n%s", sig[i],
			    rep, out);
			free(rep);
		}
		free(out);
	}
}
END_TEST

/*
 * make boots stopped through make: `timeout -s TERM 5 make boots` (the
 * whole process group) and a SIGTERM to make's own pid, which make
 * passes on to its recipe's program only because the recipe execs it.
 * Either way no QEMU and no vmboots.* folder is left, nothing is left
 * running, and what was kept loads.
 */
START_TEST(make_boots_signals)
{
	static const char *const how[] = {
		"timeout -s TERM 5 make %s; echo $? > \"$T/rc\"",
		"make %s & p=$!; sleep 5; kill -TERM $p; wait $p; "
		    "echo $? > \"$T/rc\"",
	};
	char cmd[2048], args[1024], *out, *rc, p[512];
	size_t i;

	if (!can_boot("make_boots_signals"))
		return;
	ck_assert_int_eq(sh("echo 'forkbomb --forks 5000000 --ints 10 "
	    "iterations=1' > \"$T/long.conf\""), 0);
	snprintf(args, sizeof(args), "-s -o all boots A_KERNEL=\"$K\" "
	    "ACCEL=tcg BOOTS=1 CONFIG=\"$T/long.conf\" RESULTS=\"$T/res\" "
	    "WORKDIR=\"$T/w\" A_LABEL=a B_LABEL=b VM_MEM=256M "
	    "> \"$T/out\" 2>&1");
	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		ck_assert_int_eq(sh("rm -rf \"$T/res\""), 0);
		snprintf(cmd, sizeof(cmd), how[i], args);
		ck_assert_int_eq(sh("%s", cmd), 0);
		out = tu_slurp(tu_path(p, sizeof(p), "out"));
		rc = tu_slurp(tu_path(p, sizeof(p), "rc"));
		ck_assert_msg(rc && atoi(rc) != 0, "%s: exit %s: %s", how[i],
		    rc ? rc : "?", out);
		ck_assert_msg(strstr(out, "interrupted") != NULL, "%s: %s",
		    how[i], out);
		nothing_left();
		ck_assert_int_eq(sh("pgrep -x vmboots >/dev/null"), 1);
		if (exists("res/a/run1")) {
			char *rep;

			ck_assert_int_eq(sh("report/vmreport \"$T/res/a\" > "
			    "\"$T/rep\" 2>&1; echo \"exit $?\" >> "
			    "\"$T/rep\""), 0);
			rep = tu_slurp(tu_path(p, sizeof(p), "rep"));
			ck_assert_msg(strstr(rep, "exit 0") || strstr(rep,
			    "no run to compare"), "%s: the kept run: %s",
			    how[i], rep);
			free(rep);
		}
		free(out);
		free(rc);
	}
}
END_TEST

START_TEST(sigkill_then_clean_stale)
{
	char *out;
	pid_t pid;
	int i;

	if (!can_boot("sigkill_then_clean_stale"))
		return;
	pid = start_boot();
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	/* QEMU dies with its parent (PR_SET_PDEATHSIG) */
	for (i = 0; i < 100 && sh("pgrep -f \"$T/w/vmboots\" >/dev/null") ==
	    0; i++)
		usleep(50000);
	ck_assert_int_lt(i, 100);
	ck_assert_int_eq(sh("ls -d \"$T\"/w/vmboots.* >/dev/null 2>&1"), 0);
	ck_assert_int_eq(vmboots(&out, "--clean-stale"), 0);
	ck_assert_msg(strstr(out, "removed what a killed run left") != NULL,
	    "%s", out);
	/* the boot it had under way is a run of its label, interrupted */
	ck_assert_msg(strstr(out, "recorded the boot a killed run") &&
	    strstr(out, "/res/a/run1, interrupted"), "%s", out);
	ck_assert_str_eq(meta_val("res/a/run1/meta", "status"),
	    "interrupted");
	ck_assert_str_eq(meta_val("res/a/run1/meta", "boot_status"),
	    "interrupted");
	tu_assert_has(meta_val("res/a/run1/meta",
	    "boot_failure"), "was killed during this boot");
	ck_assert(exists("res/a/run1/console.txt"));
	ck_assert(!exists("res/b/run1"));
	nothing_left();
	free(out);
	ck_assert_int_eq(vmboots(&out, "--clean-stale"), 0);
	tu_assert_has(out, "nothing left");
	free(out);
}
END_TEST

Suite *
boots_suite(void)
{
	Suite *s = suite_create("boots");
	TCase *tc = tu_tcase_local("plan");
	TCase *e2e = tu_tcase_slow("boot");

	/* cpio of busybox and vmboots' runs: seconds under AddressSanitizer */
	tcase_set_timeout(tc, 60);
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, order_and_schedule);
	tcase_add_test(tc, default_labels);
	tcase_add_test(tc, image_version);
	tcase_add_test(tc, config_iterations_and_timeout);
	tcase_add_test(tc, cpio_newc);
	tcase_add_test(tc, initramfs_contents);
	tcase_add_test(tc, meta_set_keys);
	tcase_add_test(tc, collect_from_disk);
	tcase_add_test(tc, collect_keeps_whole);
	tcase_add_test(tc, modules_of_test_kernel);
	tcase_add_test(tc, bad_input);
	tcase_add_test(tc, label_of_another_plan);
	tcase_add_test(tc, kexec_plan);
	suite_add_tcase(s, tc);
	/* a fresh folder each: checked fixtures run in the test's child */
	tcase_add_checked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 600);
	tcase_add_test(e2e, boot_end_to_end);
	tcase_add_test(e2e, kexec_in_a_guest);
	tcase_add_test(e2e, boot_timeout);
	tcase_add_test(e2e, sigterm_mid_boot);
	tcase_add_test(e2e, sigkill_then_clean_stale);
	tcase_add_test(e2e, interrupt_in_config);
	tcase_add_test(e2e, timeout_signals);
	tcase_add_test(e2e, make_boots_signals);
	suite_add_tcase(s, e2e);
	return s;
}
