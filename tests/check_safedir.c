/*
 * check_safedir.c - src/lib/safedir.c: folders checked once (owner,
 * mode, symlinks on the way), files made relative to them, trees
 * removed through descriptors, bounded reads of regular files only.
 * Folders of another user are made by chown as root (skipped, and
 * counted, when not root).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "safedir.h"
#include "util.h"

#define NOBODY	65534

static char err[512];

/* A path below tu_dir into @buf. */
static char *
at(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tu_dir, name);
	return buf;
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

static char *
slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_msg(f != NULL, "cannot read %s", path);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* @want in err, or fail showing err. */
static void
err_has(const char *want)
{
	ck_assert_msg(strstr(err, want) != NULL, "wanted \"%s\" in: %s", want,
	    err);
}

static int
need_root(void)
{
	if (geteuid() == 0)
		return 1;
	tu_skip("not root: another user's folders cannot be made");
	return 0;
}

START_TEST(own_folder_made)
{
	char p[512], want[600];
	int fd;

	tu_mktmp();
	at(p, sizeof(p), "a/b/c");
	fd = vb_dir_open(p, 1, err, sizeof(err));
	ck_assert_msg(fd >= 0, "refused: %s", err);
	close(fd);
	/* without make, a missing folder is one line naming it */
	at(p, sizeof(p), "a/missing");
	ck_assert_int_eq(vb_dir_open(p, 0, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "cannot open folder %s: No such file or "
	    "directory", p);
	ck_assert_str_eq(err, want);
	/* a relative path is walked from the working folder */
	ck_assert_int_eq(chdir(tu_dir), 0);
	fd = vb_dir_open("a/./b/../b/c", 0, err, sizeof(err));
	ck_assert_msg(fd >= 0, "refused: %s", err);
	close(fd);
	tu_rmtree(tu_dir);
}
END_TEST

START_TEST(foreign_and_open_folders)
{
	char p[512], q[512];

	if (!need_root())
		return;
	tu_mktmp();
	ck_assert_int_eq(chmod(tu_dir, 0755), 0);
	/* a folder another user owns: refused, with its owner */
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "theirs"), 0755), 0);
	ck_assert_int_eq(chown(p, NOBODY, NOBODY), 0);
	ck_assert_int_eq(vb_dir_open(p, 0, err, sizeof(err)), -1);
	err_has("refusing folder");
	err_has(p);
	err_has("owned by uid 65534");
	/* ... and any folder below it, even one of ours */
	ck_assert_int_eq(mkdir(at(q, sizeof(q), "theirs/mine"), 0755), 0);
	ck_assert_int_eq(vb_dir_open(q, 0, err, sizeof(err)), -1);
	err_has("owned by uid 65534");
	/* writable by others: refused as the folder, and on the way */
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "open"), 0755), 0);
	ck_assert_int_eq(chmod(p, 0777), 0);
	ck_assert_int_eq(vb_dir_open(p, 0, err, sizeof(err)), -1);
	err_has("writable by others (mode 0777");
	ck_assert_int_eq(mkdir(at(q, sizeof(q), "open/x"), 0755), 0);
	ck_assert_int_eq(vb_dir_open(q, 0, err, sizeof(err)), -1);
	err_has("writable by others");
	/* sticky on the way is fine (/tmp), as the folder itself not */
	ck_assert_int_eq(chmod(p, 01777), 0);
	ck_assert_int_ge(vb_dir_open(q, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(vb_dir_open(p, 0, err, sizeof(err)), -1);
	ck_assert_int_ge(vb_dir_open_parent(p, err, sizeof(err)), 0);
	/* a sub-folder of another user in one of ours */
	{
		int dfd = vb_dir_open(tu_dir, 0, err, sizeof(err));

		ck_assert_msg(dfd >= 0, "%s", err);
		ck_assert_int_eq(vb_dir_sub(dfd, "theirs", "T/theirs", 0, err,
		    sizeof(err)), -1);
		err_has("refusing folder T/theirs: owned by uid 65534");
		close(dfd);
	}
	tu_rmtree(tu_dir);
}
END_TEST

START_TEST(symlinks_on_the_way)
{
	char p[512], q[512], r[512];
	int fd;

	if (!need_root())
		return;
	tu_mktmp();
	ck_assert_int_eq(chmod(tu_dir, 0755), 0);
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "real"), 0755), 0);
	/* root's own symlink is followed, and its target checked */
	ck_assert_int_eq(symlink("real", at(q, sizeof(q), "mine")), 0);
	fd = vb_dir_open(q, 0, err, sizeof(err));
	ck_assert_msg(fd >= 0, "refused: %s", err);
	close(fd);
	at(r, sizeof(r), "mine/sub");
	fd = vb_dir_open(r, 1, err, sizeof(err));
	ck_assert_msg(fd >= 0, "refused: %s", err);
	close(fd);
	ck_assert_int_eq(access(at(r, sizeof(r), "real/sub"), F_OK), 0);
	/* another user's symlink is not, wherever it is */
	ck_assert_int_eq(symlink(p, at(q, sizeof(q), "theirs")), 0);
	ck_assert_int_eq(lchown(q, NOBODY, NOBODY), 0);
	ck_assert_int_eq(vb_dir_open(q, 0, err, sizeof(err)), -1);
	err_has("refusing folder");
	err_has("a symlink owned by uid 65534");
	ck_assert_int_eq(vb_dir_open(at(r, sizeof(r), "theirs/sub"), 1, err,
	    sizeof(err)), -1);
	ck_assert_int_eq(access(at(r, sizeof(r), "real/sub2"), F_OK), -1);
	/* a symlink to a folder that fails the check fails it */
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "nob"), 0755), 0);
	ck_assert_int_eq(chown(p, NOBODY, NOBODY), 0);
	ck_assert_int_eq(symlink("nob", at(q, sizeof(q), "tonob")), 0);
	ck_assert_int_eq(vb_dir_open(q, 0, err, sizeof(err)), -1);
	err_has("nob: owned by uid 65534");
	/* vb_dir_sub never follows one */
	fd = vb_dir_open(tu_dir, 0, err, sizeof(err));
	ck_assert_int_eq(vb_dir_sub(fd, "mine", "mine", 0, err, sizeof(err)),
	    -1);
	err_has("refusing folder mine: a symlink");
	close(fd);
	/* a loop ends */
	ck_assert_int_eq(symlink("loop", at(q, sizeof(q), "loop")), 0);
	ck_assert_int_eq(vb_dir_open(q, 0, err, sizeof(err)), -1);
	err_has("Too many levels of symbolic links");
	tu_rmtree(tu_dir);
}
END_TEST

START_TEST(create_never_follows)
{
	char victim[512], p[512], buf[64];
	struct vb_wfile w;
	FILE *f;
	int dfd, fd;

	tu_mktmp();
	write_file(at(victim, sizeof(victim), "victim"), "precious\n");
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "out"), 0755), 0);
	dfd = vb_dir_open(p, 0, err, sizeof(err));
	ck_assert_msg(dfd >= 0, "%s", err);
	ck_assert_int_eq(symlinkat(victim, dfd, "log"), 0);
	fd = vb_create_at(dfd, "log", O_WRONLY, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "new\n", 4), 4);
	close(fd);
	ck_assert_str_eq(slurp(victim, buf, sizeof(buf)), "precious\n");
	ck_assert_str_eq(slurp(at(p, sizeof(p), "out/log"), buf,
	    sizeof(buf)), "new\n");
	/* a whole file through a temporary: the symlink's name replaced */
	ck_assert_int_eq(symlinkat(victim, dfd, "page.html"), 0);
	f = vb_wfile_open(&w, dfd, "page.html", 0644);
	ck_assert_ptr_nonnull(f);
	fputs("<p>page</p>\n", f);
	ck_assert_int_eq(vb_wfile_commit(&w), 0);
	ck_assert_str_eq(slurp(victim, buf, sizeof(buf)), "precious\n");
	ck_assert_str_eq(slurp(at(p, sizeof(p), "out/page.html"), buf,
	    sizeof(buf)), "<p>page</p>\n");
	/* aborted: nothing left, the old file kept */
	f = vb_wfile_open(&w, dfd, "page.html", 0644);
	fputs("half", f);
	vb_wfile_abort(&w);
	ck_assert_str_eq(slurp(at(p, sizeof(p), "out/page.html"), buf,
	    sizeof(buf)), "<p>page</p>\n");
	{
		char **left = NULL;
		int n = 0;
		DIR *d = fdopendir(dup(dfd));
		struct dirent *de;

		while ((de = readdir(d)))
			if (de->d_name[0] == '.' && strcmp(de->d_name, ".") &&
			    strcmp(de->d_name, ".."))
				n++;
		closedir(d);
		ck_assert_msg(n == 0, "%d temporaries left", n);
		(void)left;
	}
	close(dfd);
	tu_rmtree(tu_dir);
}
END_TEST

START_TEST(rmtree_stays_inside)
{
	char p[512], keep[512], q[600];
	int dfd, i, fd;

	tu_mktmp();
	ck_assert_int_eq(mkdir(at(keep, sizeof(keep), "keep"), 0755), 0);
	write_file(at(p, sizeof(p), "keep/file"), "x");
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "tree"), 0755), 0);
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "tree/a"), 0755), 0);
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "tree/a/b"), 0755), 0);
	for (i = 0; i < 50; i++) {
		snprintf(q, sizeof(q), "%s/tree/a/b/f%d", tu_dir, i);
		write_file(q, "y");
	}
	ck_assert_int_eq(symlink(keep, at(p, sizeof(p), "tree/a/link")), 0);
	ck_assert_int_eq(mkfifo(at(p, sizeof(p), "tree/fifo"), 0600), 0);
	dfd = vb_dir_open(tu_dir, 0, err, sizeof(err));
	ck_assert_int_eq(vb_rmtree_at(dfd, "tree"), 0);
	ck_assert_int_eq(access(at(p, sizeof(p), "tree"), F_OK), -1);
	ck_assert_int_eq(access(at(p, sizeof(p), "keep/file"), F_OK), 0);
	/* the name given may itself be a symlink: only it goes */
	ck_assert_int_eq(symlink(keep, at(p, sizeof(p), "l2")), 0);
	ck_assert_int_eq(vb_rmtree_at(dfd, "l2"), 0);
	ck_assert_int_eq(access(at(p, sizeof(p), "keep/file"), F_OK), 0);
	ck_assert_int_eq(vb_rmtree_at(dfd, "not-there"), 0);
	fd = openat(dfd, "keep", O_RDONLY | O_DIRECTORY);
	ck_assert_int_eq(vb_rmtree_at(fd, "file"), 0);
	close(fd);
	ck_assert_int_eq(access(at(p, sizeof(p), "keep/file"), F_OK), -1);
	/* vb_rmtree() by path: the parent opened once, the rest as above */
	ck_assert_int_eq(symlink(keep, at(p, sizeof(p), "l3")), 0);
	ck_assert_int_eq(vb_rmtree(p), 0);
	ck_assert_int_eq(access(keep, F_OK), 0);
	ck_assert_int_eq(mkdir(at(p, sizeof(p), "t2"), 0755), 0);
	ck_assert_int_eq(symlink(keep, at(q, sizeof(q), "t2/l")), 0);
	strcat(p, "//");
	ck_assert_int_eq(vb_rmtree(p), 0);
	ck_assert_int_eq(access(at(p, sizeof(p), "t2"), F_OK), -1);
	ck_assert_int_eq(access(keep, F_OK), 0);
	ck_assert_int_eq(vb_rmtree(at(p, sizeof(p), "none")), 0);
	close(dfd);
	tu_rmtree(tu_dir);
}
END_TEST

START_TEST(read_only_regular)
{
	char p[512], q[512];
	FILE *f;
	int fd;

	tu_mktmp();
	write_file(at(p, sizeof(p), "meta"), "a=1\n");
	f = vb_fopen_read(p, 100, err, sizeof(err));
	ck_assert_msg(f != NULL, "%s", err);
	fclose(f);
	/* bigger than the bound */
	ck_assert_ptr_null(vb_fopen_read(p, 3, err, sizeof(err)));
	err_has("4 bytes, more than the 3");
	/* a FIFO: refused at once, not waited on */
	ck_assert_int_eq(mkfifo(at(q, sizeof(q), "fifo"), 0600), 0);
	ck_assert_ptr_null(vb_fopen_read(q, 100, err, sizeof(err)));
	err_has("not a regular file (a FIFO)");
	/* a symlink, even to a regular file; /dev/zero */
	ck_assert_int_eq(symlink("/dev/zero", at(q, sizeof(q), "zero")), 0);
	ck_assert_ptr_null(vb_fopen_read(q, 100, err, sizeof(err)));
	err_has("a symlink: not read");
	ck_assert_ptr_null(vb_fopen_read("/dev/zero", 100, err, sizeof(err)));
	err_has("a device");
	fd = vb_open_read_at(AT_FDCWD, tu_dir, "D", 100, err, sizeof(err));
	ck_assert_int_eq(fd, -1);
	err_has("D: not a regular file (a folder)");
	tu_rmtree(tu_dir);
}
END_TEST

Suite *
safedir_suite(void)
{
	Suite *s = suite_create("safedir");
	TCase *tc = tu_tcase_local("safedir");

	tcase_add_test(tc, own_folder_made);
	tcase_add_test(tc, foreign_and_open_folders);
	tcase_add_test(tc, symlinks_on_the_way);
	tcase_add_test(tc, create_never_follows);
	tcase_add_test(tc, rmtree_stays_inside);
	tcase_add_test(tc, read_only_regular);
	suite_add_tcase(s, tc);
	return s;
}
