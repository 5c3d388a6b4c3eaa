/*
 * check_fsinfo.c - src/lib/fsinfo.c on real filesystems: a tmpfs, and two
 * fresh ext4 on loop devices, one with a journal and one made with -O
 * ^has_journal; and end to end, the note bench/tio --creates and
 * bench/vmlat write into their result on each.  The ext4 need root,
 * mkfs.ext4 and loop devices: without them those tests are skipped, with
 * the reason.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsinfo.h"
#include "meta.h"
#include "res.h"
#include "testutil.h"

/* What the fixture mounted under tu_dir: "tmpfs", "journal", "none". */
static const char *const mnts[] = { "tmpfs", "journal", "none" };
static int mounted[3];
static const char *why;		/* why the ext4 are missing */

/* A 16M image tu_dir/@name.img made by mkfs.ext4 @opt, on tu_dir/@name. */
static int
mount_ext4(const char *name, const char *opt)
{
	char img[512], dir[512];
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", "-O", (char *)opt, img,
	    "16M", NULL };
	char *mnt[] = { "mount", "-o", "loop", img, dir, NULL };

	snprintf(img, sizeof(img), "%s/%s.img", tu_dir, name);
	tu_path(dir, sizeof(dir), name);
	if (mkdir(dir, 0700) < 0)
		return -1;
	if (tu_run(mkfs) != 0) {
		why = "mkfs.ext4 failed or is missing";
		return -1;
	}
	if (tu_run(mnt) != 0) {
		why = "cannot mount an ext4 on a loop device";
		return -1;
	}
	return 0;
}

static void
setup(void)
{
	char dir[512];

	/* a killed run's mounts: the runner unmounts them (testutil.h) */
	tu_mktmp();
	setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
	    "/sbin:/bin", 0);
	if (geteuid() != 0) {
		why = "needs root";
		return;
	}
	tu_path(dir, sizeof(dir), "tmpfs");
	mounted[0] = mkdir(dir, 0700) == 0 &&
	    mount("tmpfs", dir, "tmpfs", 0, "size=1m") == 0;
	mounted[1] = mount_ext4("journal", "has_journal") == 0;
	mounted[2] = mounted[1] && mount_ext4("none", "^has_journal") == 0;
}

/* Always: unmount (the loop device goes with it), then remove. */
static void
teardown(void)
{
	char dir[512];
	int i;

	for (i = 0; i < 3; i++) {
		if (!mounted[i])
			continue;
		tu_path(dir, sizeof(dir), mnts[i]);
		if (umount(dir) < 0)
			umount2(dir, MNT_DETACH);
		mounted[i] = 0;
	}
	tu_rmtmp();
}

/* Is fixture mount @i there?  If not, the test is skipped. */
static int
have(int i)
{
	if (!mounted[i])
		tu_skip("%s", why ? why : "cannot mount a tmpfs");
	return mounted[i];
}

START_TEST(tmpfs_has_none)
{
	char dir[512], dev[64] = "x";

	if (mounted[0])
		tu_path(dir, sizeof(dir), "tmpfs");
	else
		snprintf(dir, sizeof(dir), "/dev/shm");
	if (!tu_on_tmpfs(dir)) {
		tu_skip("no tmpfs (not root, and no /dev/shm)");
		return;
	}
	ck_assert_int_eq(vb_fs_nojournal(dir, dev, sizeof(dev)), 0);
	ck_assert_str_eq(dev, "");
	ck_assert_int_eq(vb_fs_create_note(dir, dev, sizeof(dev)), 0);
}
END_TEST

START_TEST(cannot_tell)
{
	char dir[512], dev[64] = "x";

	ck_assert_int_eq(vb_fs_nojournal(tu_path(dir, sizeof(dir),
	    "no-such-folder"), dev, sizeof(dev)), -1);
	ck_assert_str_eq(dev, "");
}
END_TEST

START_TEST(ext4_journal)
{
	char dir[512], dev[64], note[256];

	if (!have(1))
		return;
	tu_path(dir, sizeof(dir), "journal");
	ck_assert_int_eq(vb_fs_nojournal(dir, dev, sizeof(dev)), 0);
	ck_assert_msg(strncmp(dev, "loop", 4) == 0, "%s", dev);
	ck_assert_int_eq(vb_fs_create_note(dir, note, sizeof(note)), 0);
}
END_TEST

START_TEST(ext4_no_journal)
{
	char dir[512], sub[600], dev[64], dev2[64], note[256];

	if (!have(2))
		return;
	tu_path(dir, sizeof(dir), "none");
	ck_assert_int_eq(vb_fs_nojournal(dir, dev, sizeof(dev)), 1);
	ck_assert_msg(strncmp(dev, "loop", 4) == 0, "%s", dev);
	/* a folder below the mount point is on it too */
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_int_eq(vb_fs_nojournal(sub, dev2, sizeof(dev2)), 1);
	ck_assert_str_eq(dev2, dev);
	rmdir(sub);
	/* the name cut to the buffer, the answer the same */
	ck_assert_int_eq(vb_fs_nojournal(dir, dev2, 3), 1);
	ck_assert_str_eq(dev2, "lo");
	ck_assert_int_eq(vb_fs_create_note(dir, note, sizeof(note)), 1);
	ck_assert_msg(strstr(note, "ext4 without a journal") &&
	    strstr(note, dev), "%s", note);
}
END_TEST

/*
 * The meta a run with its work folder on fixture mount @i writes: its
 * workdir_journal, copied into @val.
 */
static void
meta_journal(int i, char *val, size_t len)
{
	struct vb_meta_in in = { .label = "j", .status = "complete",
	    .start = "2026-01-01T00:00:00Z", .config = "/dev/null",
	    .settings = "" };
	char dir[512], path[512], err[512];
	struct vb_kv *kv;
	const char *v;
	int n;

	in.workdir = tu_path(dir, sizeof(dir), mnts[i]);
	snprintf(path, sizeof(path), "%s/meta.%d", tu_dir, i);
	ck_assert_int_eq(vb_meta_write(path, &in), 0);
	ck_assert_msg(vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0,
	    "%s", err);
	v = vb_meta_get(kv, n, "workdir_journal");
	snprintf(val, len, "%s", v ? v : "(none)");
	vb_meta_free(kv, n);
}

/* meta says which ext4 had a journal, and "-" where it is not ext4 */
START_TEST(meta_records_journal)
{
	static const char *const want[] = { "-", "yes", "no" };
	char val[64];
	int i;

	if (!have(2) || !have(0))
		return;
	for (i = 0; i < 3; i++) {
		meta_journal(i, val, sizeof(val));
		ck_assert_msg(!strcmp(val, want[i]), "work folder on %s: "
		    "workdir_journal=%s, want %s", mnts[i], val, want[i]);
	}
}
END_TEST

/*
 * Run @prog @args with the work folder on fixture mount @i into
 * tu_dir/<i>.res; its .res note ("" without) into @note, its output
 * into @out.
 */
static void
bench(const char *prog, const char *args, int i, char *note, size_t nlen,
    char *out, size_t olen)
{
	char path[512], err[512];
	struct vb_res r;
	char *text;

	ck_assert_msg(tu_sh_in(NULL, "%s %s --iterations 1 --workdir %s/%s "
	    "--out %s/%d >%s/%d.out 2>&1", prog, args, tu_dir, mnts[i],
	    tu_dir, i, tu_dir, i) == 0, "%s %s failed", prog, args);
	snprintf(path, sizeof(path), "%s/%d.res", tu_dir, i);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s",
	    err);
	snprintf(note, nlen, "%s", r.note ? r.note : "");
	vb_res_free(&r);
	snprintf(path, sizeof(path), "%s/%d.out", tu_dir, i);
	text = tu_slurp(path);
	ck_assert_ptr_nonnull(text);
	snprintf(out, olen, "%s", text);
	free(text);
}

/* How many times @needle is in @s. */
static int
count(const char *s, const char *needle)
{
	int n = 0;

	while ((s = strstr(s, needle)))
		n++, s++;
	return n;
}

START_TEST(tio_notes)
{
	char note[1024], out[16384], dev[64], want[512];
	int i;

	if (!have(2))
		return;
	for (i = 1; i <= 2; i++) {
		bench("bench/tio", "--creates --files 64", i, note,
		    sizeof(note), out, sizeof(out));
		if (i == 1) {
			ck_assert_msg(!strstr(note, "journal"), "%s", note);
			ck_assert_msg(!strstr(out, "journal"), "%s", out);
			continue;
		}
		tu_path(want, sizeof(want), "none");
		ck_assert_int_eq(vb_fs_nojournal(want, dev, sizeof(dev)), 1);
		snprintf(want, sizeof(want), "ext4 without a journal (%s)",
		    dev);
		ck_assert_msg(strstr(note, want), "%s", note);
		ck_assert_int_eq(count(note, "journal"), 1);
		snprintf(want, sizeof(want), "tio: the work folder is on "
		    "ext4 without a journal (%s)", dev);
		ck_assert_msg(count(out, want) == 1, "%s", out);
	}
}
END_TEST

START_TEST(vmlat_notes)
{
	char note[1024], out[16384];

	if (!have(2))
		return;
	/* creates: said; no creates: nothing to say */
	bench("bench/vmlat", "--test fs0k --reps 1 --enough 100", 2, note,
	    sizeof(note), out, sizeof(out));
	ck_assert_msg(strstr(note, "ext4 without a journal"), "%s", note);
	ck_assert_int_eq(count(out, "vmlat: the work folder is on ext4"), 1);
	bench("bench/vmlat", "--test memrd --size 1M --reps 1 --enough 100",
	    2, note, sizeof(note), out, sizeof(out));
	ck_assert_msg(!strstr(note, "journal"), "%s", note);
	ck_assert_msg(!strstr(out, "journal"), "%s", out);
	bench("bench/vmlat", "--test fs10k --reps 1 --enough 100", 1, note,
	    sizeof(note), out, sizeof(out));
	ck_assert_msg(!strstr(note, "journal"), "%s", note);
}
END_TEST

Suite *
fsinfo_suite(void)
{
	Suite *s = suite_create("fsinfo");
	TCase *tc = tu_tcase("fs");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, tmpfs_has_none);
	tcase_add_test(tc, cannot_tell);
	tcase_add_test(tc, ext4_journal);
	tcase_add_test(tc, ext4_no_journal);
	tcase_add_test(tc, meta_records_journal);
	tcase_add_test(tc, tio_notes);
	tcase_add_test(tc, vmlat_notes);
	suite_add_tcase(s, tc);
	return s;
}
