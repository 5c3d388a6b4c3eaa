/*
 * check_label.c - src/lib/label.c: the one label rule and the one label
 * lock of vmrun and vmboots.  The rule on good and bad labels; the lock
 * taken, refused to a second taker with the holder's pid, refused on a
 * symlink, a hard link and another user's file (the file untouched), given
 * up; the clean-up of a killed run's lock file; then bench/vmboots, which
 * takes the same lock: a dot label, a symlinked lock and another user's
 * lock are refused in one line, before anything boots.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "label.h"
#include "testutil.h"

#define sh(...)	tu_sh_in(tu_dir, __VA_ARGS__)

START_TEST(rule)
{
	static const char *const good[] = {
		"x", "6.1.0-57-cloud-amd64", "a.b_c+d-e~f", "k9-A", "x.",
	};
	static const char *const bad[] = {
		"", ".", "..", ".x", ".cy.lock", "a/b", "a b", "a\nb", "x*",
		"\xc3\xa9",
	};
	char big[VB_LABEL_MAX + 2];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(vb_label_ok(good[i]), "'%s' refused", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!vb_label_ok(bad[i]), "'%s' accepted", bad[i]);
	memset(big, 'a', sizeof(big));
	big[VB_LABEL_MAX] = '\0';
	ck_assert(vb_label_ok(big));
	big[VB_LABEL_MAX] = 'a';
	big[VB_LABEL_MAX + 1] = '\0';
	ck_assert(!vb_label_ok(big));
}
END_TEST

/* The first line of tu_dir/@rel, or "(none)". */
static const char *
first_line(const char *rel, char *buf, size_t len)
{
	char path[1024];

	if (access(tu_path(path, sizeof(path), rel), F_OK) < 0)
		return "(none)";
	return tu_line(rel, buf, len);
}

START_TEST(lock_taken_and_refused)
{
	struct vb_label_lock a = { .fd = -1 }, b = { .fd = -1 };
	char err[1024], path[600], want[64], line[64];
	struct stat st;

	ck_assert_int_eq(vb_label_lock(&a, tu_dir, "x", err, sizeof(err)), 0);
	ck_assert_str_eq(a.path, tu_path(path, sizeof(path), ".x.lock"));
	ck_assert_int_ge(a.fd, 0);
	snprintf(want, sizeof(want), "%ld", (long)getpid());
	ck_assert_str_eq(first_line(".x.lock", line, sizeof(line)), want);
	/* a second taker (another open file: flock(2) refuses it too) */
	ck_assert_int_eq(vb_label_lock(&b, tu_dir, "x", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "/x is in use by another run (pid ") &&
	    strstr(err, want), "refusal: %s", err);
	ck_assert_int_eq(b.fd, -1);
	/* a refused lock's unlock removes nothing */
	vb_label_unlock(&b);
	ck_assert_int_eq(lstat(path, &st), 0);
	vb_label_unlock(&a);
	ck_assert_int_eq(a.fd, -1);
	ck_assert_int_lt(lstat(path, &st), 0);
	vb_label_unlock(&a);
	/* once given up, taken again */
	ck_assert_int_eq(vb_label_lock(&b, tu_dir, "x", err, sizeof(err)), 0);
	vb_label_unlock(&b);
}
END_TEST

/* tu_dir/victim holds "victim\n" and nothing else. */
static void
victim_unchanged(void)
{
	char *v = tu_slurp_ok("%s/victim", tu_dir);

	ck_assert_msg(strcmp(v, "victim\n") == 0, "the victim now holds "
	    "'%s'", v);
	free(v);
}

START_TEST(lock_not_through_others)
{
	struct vb_label_lock l = { .fd = -1 };
	char err[1024], path[600], lk[600];

	tu_write(path, sizeof(path), "victim", "victim\n");
	tu_path(lk, sizeof(lk), ".s.lock");
	ck_assert_int_eq(symlink(path, lk), 0);
	ck_assert_int_eq(vb_label_lock(&l, tu_dir, "s", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, ".s.lock: not a lock file of this user "
	    "(a symlink): remove it"), "refusal: %s", err);
	vb_label_unlock(&l);
	victim_unchanged();
	ck_assert_int_eq(access(lk, F_OK), 0);
	/* a hard link to another file */
	tu_path(lk, sizeof(lk), ".h.lock");
	ck_assert_int_eq(link(path, lk), 0);
	ck_assert_int_eq(vb_label_lock(&l, tu_dir, "h", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "not a lock file of this user (another "
	    "user's, or not a plain file)"), "refusal: %s", err);
	victim_unchanged();
	/* a FIFO: refused, never waited on */
	tu_path(lk, sizeof(lk), ".f.lock");
	ck_assert_int_eq(mkfifo(lk, 0644), 0);
	ck_assert_int_eq(vb_label_lock(&l, tu_dir, "f", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "not a plain file"), "refusal: %s", err);
	if (geteuid() != 0) {
		tu_skip("lock_not_through_others in part: another user's "
		    "lock file needs root");
		return;
	}
	tu_path(lk, sizeof(lk), ".n.lock");
	tu_write(lk, sizeof(lk), ".n.lock", "1\n");
	ck_assert_int_eq(chown(lk, 65534, 65534), 0);
	ck_assert_int_eq(vb_label_lock(&l, tu_dir, "n", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, ".n.lock: not a lock file of this user "
	    "(another user's"), "refusal: %s", err);
	ck_assert_int_eq(sh("test \"$(cat \"$T/.n.lock\")\" = 1"), 0);
}
END_TEST

START_TEST(lock_clean)
{
	struct vb_label_lock l = { .fd = -1 };
	char err[1024], path[600], lk[600];

	/* held: stays */
	ck_assert_int_eq(vb_label_lock(&l, tu_dir, "held", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(vb_label_lock_clean(l.path), 0);
	ck_assert_int_eq(access(l.path, F_OK), 0);
	vb_label_unlock(&l);
	/* left by a killed run (nobody holds it): removed */
	tu_write(lk, sizeof(lk), ".dead.lock", "4242\n");
	ck_assert_int_eq(vb_label_lock_clean(lk), 1);
	ck_assert_int_lt(access(lk, F_OK), 0);
	/* not a label's lock file by its name: stays */
	tu_write(lk, sizeof(lk), "dead.lock", "");
	ck_assert_int_eq(vb_label_lock_clean(lk), 0);
	tu_write(lk, sizeof(lk), ".a b.lock", "");
	ck_assert_int_eq(vb_label_lock_clean(lk), 0);
	tu_write(lk, sizeof(lk), "..x.lock", "");
	ck_assert_int_eq(vb_label_lock_clean(lk), 0);
	/* a symlink, and what it names, stay */
	tu_write(path, sizeof(path), "victim", "victim\n");
	tu_path(lk, sizeof(lk), ".s.lock");
	ck_assert_int_eq(symlink(path, lk), 0);
	ck_assert_int_eq(vb_label_lock_clean(lk), 0);
	victim_unchanged();
	ck_assert_int_eq(sh("test -L \"$T/.s.lock\""), 0);
}
END_TEST

/* A fake bzImage whose version string is "6.1.0-x", as tu_dir/img. */
static void
fake_image(void)
{
	unsigned char img[0x400];
	char path[600];
	FILE *f;

	memset(img, 0, sizeof(img));
	img[0x1f1] = 1;			/* one setup sector: 1024 bytes */
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00;		/* kernel_version at 0x200 + 0x100 */
	img[0x20f] = 0x01;
	memcpy(img + 0x300, "6.1.0-x (fake)", 14);
	f = fopen(tu_path(path, sizeof(path), "img"), "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fwrite(img, 1, sizeof(img), f), sizeof(img));
	fclose(f);
}

/*
 * bench/vmboots with side A labelled @label; its status, and its output
 * (stdout and stderr) in tu_dir/out.  Nothing may boot: the QEMU it is
 * given answers --version and writes tu_dir/booted on any other call.
 */
static int
vmboots(const char *label)
{
	return sh("mkdir -p \"$T/bin\" && printf '#!/bin/sh\\ntest \"$1\" = "
	    "--version && exec qemu-system-x86_64 --version\\ntouch "
	    "\"%s/booted\"\\nexit 1\\n' > \"$T/bin/qemu\" && chmod +x "
	    "\"$T/bin/qemu\" && bench/vmboots --results "
	    "\"$T/res\" --workdir \"$T/w\" --qemu \"$T/bin/qemu\" "
	    "--a-kernel \"$T/img\" --a-modules \"$T\" --b-modules \"$T\" "
	    "--a-label '%s' --config configs/test.conf > \"$T/out\" 2>&1",
	    tu_dir, label);
}

/* tu_dir/out is one line holding @want; nothing booted or was made. */
static void
refused(const char *want)
{
	char *out = tu_slurp_ok("%s/out", tu_dir);
	char *nl = strchr(out, '\n');

	ck_assert_msg(strstr(out, want) && nl && !nl[1], "vmboots said '%s', "
	    "not one line with '%s'", out, want);
	free(out);
	ck_assert_msg(sh("test -e \"$T/booted\"") != 0, "QEMU was run");
	ck_assert_msg(sh("ls -d \"$T\"/w/vmboots.* 2>/dev/null | grep -q .")
	    != 0, "a vmboots folder was made");
}

START_TEST(vmboots_refuses)
{
	char path[600], lk[600];

	if (access("/usr/bin/qemu-system-x86_64", X_OK) < 0 &&
	    sh("command -v qemu-system-x86_64 >/dev/null") != 0) {
		tu_skip("vmboots_refuses: no qemu-system-x86_64 (make "
		    "deps-boots)");
		return;
	}
	fake_image();
	/* the rule vmrun and the guest apply */
	ck_assert_int_ne(vmboots(".x"), 0);
	refused("A_LABEL '.x': use letters, digits and . _ + - ~ (no "
	    "slashes, not starting with a dot, at most 128)");
	/* a symlink planted as the label's lock: not written through */
	ck_assert_int_eq(sh("mkdir -p \"$T/res\""), 0);
	tu_write(path, sizeof(path), "victim", "victim\n");
	tu_path(lk, sizeof(lk), "res/.x.lock");
	ck_assert_int_eq(symlink(path, lk), 0);
	ck_assert_int_ne(vmboots("x"), 0);
	refused("res/.x.lock: not a lock file of this user (a symlink): "
	    "remove it");
	victim_unchanged();
	ck_assert_int_eq(sh("test -L \"$T/res/.x.lock\""), 0);
	/* a lock held by another run: its pid named */
	ck_assert_int_eq(sh("export T; flock \"$T/res/.y.lock\" sh -c 'echo "
	    "4242 > \"$T/res/.y.lock\"; bench/vmboots --results \"$T/res\" "
	    "--workdir \"$T/w\" --qemu \"$T/bin/qemu\" --a-kernel "
	    "\"$T/img\" --a-modules \"$T\" --b-modules \"$T\" --a-label y "
	    "--config configs/test.conf > \"$T/out\" 2>&1; test $? != 0'"),
	    0);
	refused("res/y is in use by another run (pid 4242)");
	if (geteuid() != 0) {
		tu_skip("vmboots_refuses in part: another user's lock file "
		    "needs root");
		return;
	}
	tu_write(lk, sizeof(lk), "res/.n.lock", "1\n");
	ck_assert_int_eq(chown(lk, 65534, 65534), 0);
	ck_assert_int_ne(vmboots("n"), 0);
	refused("res/.n.lock: not a lock file of this user (another user's, "
	    "or not a plain file): remove it");
	ck_assert_int_eq(sh("test \"$(cat \"$T/res/.n.lock\")\" = 1"), 0);
}
END_TEST

Suite *
label_suite(void)
{
	Suite *s = suite_create("label");
	TCase *tc = tu_tcase_local("label");
	TCase *vb = tu_tcase("vmboots");

	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, rule);
	tcase_add_test(tc, lock_taken_and_refused);
	tcase_add_test(tc, lock_not_through_others);
	tcase_add_test(tc, lock_clean);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(vb, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(vb, 60);
	tcase_add_test(vb, vmboots_refuses);
	suite_add_tcase(s, vb);
	return s;
}
