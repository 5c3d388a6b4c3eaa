/*
 * testutil.h - small helpers shared by the Check suites: a temporary
 * folder per test case and writing fixture files into it.
 *
 * Use as an unchecked fixture, so the folder is made and removed in the
 * runner's own process (a failing test in a forked child cannot skip the
 * removal):
 *
 *	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
 *
 * Everything here is static inline so that a suite that does not use a
 * helper gets no warning.
 */
#ifndef VB_TESTUTIL_H
#define VB_TESTUTIL_H

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char tu_dir[256];

/* Make a fresh folder under $TMPDIR (or /tmp) into tu_dir. */
static inline void
tu_mktmp(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tu_dir, sizeof(tu_dir), "%s/vmbench-test.XXXXXX",
	    t && *t ? t : "/tmp");
	if (!mkdtemp(tu_dir)) {
		perror(tu_dir);
		abort();
	}
}

static inline int
tu_rm1(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* Remove tu_dir and everything in it. */
static inline void
tu_rmtmp(void)
{
	if (tu_dir[0])
		nftw(tu_dir, tu_rm1, 16, FTW_DEPTH | FTW_PHYS);
	tu_dir[0] = '\0';
}

/*
 * Entries in @dir (other than . and ..) whose names do not start with
 * @keep ("" keeps none): what a program left behind.  -1: unreadable.
 */
static inline int
tu_count_except(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    (!*keep || strncmp(e->d_name, keep, strlen(keep))))
			n++;
	closedir(d);
	return n;
}

/* tu_dir/@name into @buf. */
static inline char *
tu_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tu_dir, name);
	return buf;
}

/* Write @text to tu_dir/@name (creating it); the full path into @buf. */
static inline char *
tu_write(char *buf, size_t len, const char *name, const char *text)
{
	FILE *f;

	tu_path(buf, len, name);
	f = fopen(buf, "w");
	ck_assert_msg(f != NULL, "cannot create %s: %s", buf,
	    strerror(errno));
	ck_assert_int_eq(fputs(text, f) >= 0 || !*text, 1);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/*
 * The whole of @path as a NUL-terminated string (malloc'd), or NULL when
 * it cannot be opened; read in chunks, so a pipe or /proc file works too.
 */
static inline char *
tu_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t len = 0, cap = 4096, got;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	ck_assert_ptr_nonnull(buf);
	while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
	}
	ck_assert_msg(!ferror(f), "cannot read %s", path);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static inline int
tu_sh_in(const char *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * Run a shell command (printf-style), with T set to @t first when @t is
 * not NULL (a folder name without a quote); its exit status, 128 + the
 * signal when a signal ended it.
 */
static inline int
tu_sh_in(const char *t, const char *fmt, ...)
{
	char *cmd, *full;
	va_list ap;
	int st;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	if (t) {
		ck_assert_int_ge(asprintf(&full, "T='%s'; %s", t, cmd), 0);
		free(cmd);
		cmd = full;
	}
	st = system(cmd);
	free(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#endif
