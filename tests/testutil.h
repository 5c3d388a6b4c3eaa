/*
 * testutil.h - the helpers every Check suite shares: temporary folders
 * under the run's one root, a skip that the runner counts, reading
 * files, running commands, and result folders built and edited through
 * the library's own writers (res.h, meta.h).
 *
 * The runner (tests/runner.c) makes one folder for the whole run,
 * $TMPDIR/vmbench-check.<pid>.XXXXXX (TMPDIR unset: /var/tmp, which is
 * on disk, so a swap file can live there), names it in VB_TEST_ROOT,
 * and removes it at the end, unmounting what a failed test left mounted
 * in it; a run killed before that is cleaned up by the next one.  Every
 * temporary folder of a test lives in it.  tu_dir is the usual one, as
 * an unchecked fixture, so that the folder is made and removed in the
 * runner's own process (a failing test in a forked child cannot skip
 * the removal):
 *
 *	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
 *
 * A test that cannot run here says why and returns:
 *
 *	if (geteuid() != 0) {
 *		tu_skip("needs root");
 *		return;
 *	}
 *
 * Everything here is static inline so that a suite that does not use a
 * helper gets no warning.
 */
#ifndef VB_TESTUTIL_H
#define VB_TESTUTIL_H

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "meta.h"
#include "res.h"

#define TU_TMPFS_MAGIC 0x01021994

static char tu_dir[256];

/* The run's root folder (see above); outside the runner, $TMPDIR. */
static inline const char *
tu_root(void)
{
	const char *r = getenv("VB_TEST_ROOT");

	if (!r || !*r)
		r = getenv("TMPDIR");
	return r && *r ? r : "/var/tmp";
}

/*
 * Make a fresh folder <root>/@tag.XXXXXX into @buf; aborts (the test,
 * or the run when called from an unchecked fixture) when it cannot.
 */
static inline char *
tu_mkdtemp(char *buf, size_t len, const char *tag)
{
	if ((size_t)snprintf(buf, len, "%s/%s.XXXXXX", tu_root(), tag) >=
	    len || !mkdtemp(buf)) {
		fprintf(stderr, "cannot make a folder %s/%s.XXXXXX: %s\n",
		    tu_root(), tag, strerror(errno));
		abort();
	}
	return buf;
}

/*
 * Every test case is made with tu_tcase(), tu_tcase_alone() or
 * tu_tcase_slow(), never tcase_create(): the runner (tests/runner.c)
 * learns each suite's test cases from tu_tcase_seen() and runs each in
 * a process of its own, several at once.  @flags: TU_TC_ALONE,
 * TU_TC_SLOW, TU_TC_LOCAL.
 */
#define TU_TC_ALONE	1
#define TU_TC_SLOW	2
#define TU_TC_LOCAL	4
void tu_tcase_seen(const char *name, int flags);

static inline TCase *
tu_tcase_flags(const char *name, int flags)
{
	TCase *tc = tcase_create(name);

	tu_tcase_seen(name, flags);
	if (flags & TU_TC_ALONE)
		tcase_set_tags(tc, "exclusive");
	else if (flags & TU_TC_SLOW)
		tcase_set_tags(tc, "slow");
	return tc;
}

/* A test case that runs beside the others. */
static inline TCase *
tu_tcase(const char *name)
{
	return tu_tcase_flags(name, 0);
}

/*
 * A test case whose tests touch nothing but their own files and the
 * programs they run on them (fixtures, the report, --help): no setting,
 * cgroup, swap, lock or run of a benchmark.  The runner may run it
 * beside a test case that runs alone.
 */
static inline TCase *
tu_tcase_local(const char *name)
{
	return tu_tcase_flags(name, TU_TC_LOCAL);
}

/*
 * A test case whose tests change what the whole machine shares (a
 * memory cgroup, swap, a sysctl, THP, the machine lock, /run/vmbench's
 * record of a killed run): tagged "exclusive", which the runner
 * (tests/runner.c) runs alone, with no other test case beside it.
 */
static inline TCase *
tu_tcase_alone(const char *name)
{
	return tu_tcase_flags(name, TU_TC_ALONE);
}

/*
 * A test case that starts a heavy outside program (real Ansible runs,
 * QEMU boots, Chromium: seconds to minutes of CPU), tagged "slow": make
 * check leaves it out, make check-slow runs it (tests/runner.c,
 * VB_CHECK_SLOW).
 */
static inline TCase *
tu_tcase_slow(const char *name)
{
	return tu_tcase_flags(name, TU_TC_SLOW);
}

/* A suite with testutil.h makes its test cases with the three above. */
#pragma GCC poison tcase_create

/*
 * A test case's name and its tests (NULL-terminated): a table of them
 * makes a suite's test cases that share their fixtures and settings.
 */
struct tu_case {
	const char *name;
	const TTest *tests[8];
};

/* Add @c's tests to @tc. */
static inline void
tu_add_tests(TCase *tc, const struct tu_case *c)
{
	size_t i;

	for (i = 0; c->tests[i]; i++)
		tcase_add_test(tc, c->tests[i]);
}

/* Make a fresh folder under the root into tu_dir. */
static inline void
tu_mktmp(void)
{
	tu_mkdtemp(tu_dir, sizeof(tu_dir), "t");
}

static inline int
tu_rm1(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/*
 * Remove @path and everything in it, never crossing into another
 * file system (a mount left there stays, and so does its folder); 0 or
 * -1.
 */
static inline int
tu_rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, tu_rm1, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

/* Remove tu_dir and everything in it. */
static inline void
tu_rmtmp(void)
{
	if (tu_dir[0])
		tu_rmtree(tu_dir);
	tu_dir[0] = '\0';
}

/*
 * Unmount (lazily) every mount at or under @dir, the deepest first:
 * what a test that failed left mounted.  Needs root to do anything.
 */
static inline void
tu_umount_under(const char *dir)
{
	char line[1024], mnt[64][512];
	size_t n = strlen(dir);
	int k = 0;
	FILE *f;

	if (geteuid() != 0 || !(f = fopen("/proc/self/mounts", "r")))
		return;
	while (k < 64 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %511s", mnt[k]) == 1 &&
		    strncmp(mnt[k], dir, n) == 0 &&
		    (mnt[k][n] == '/' || mnt[k][n] == '\0'))
			k++;
	fclose(f);
	while (k-- > 0)
		umount2(mnt[k], MNT_DETACH);
}

/* Is @path on a tmpfs? */
static inline int
tu_on_tmpfs(const char *path)
{
	struct statfs sf;

	return statfs(path, &sf) == 0 && sf.f_type == TU_TMPFS_MAGIC;
}

#define tu_skip(...)	tu_skip_in(__FILE__, __VA_ARGS__)

static inline void
tu_skip_in(const char *file, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * tu_skip(fmt, ...): the running test did not run here, and why (one
 * line).  Recorded as "suite: test: why" in <root>/skipped, which the
 * runner counts and prints after Check's summary (Check itself counts
 * the test as run); without the runner, printed.  The caller returns
 * right after.
 */
static inline void
tu_skip_in(const char *file, const char *fmt, ...)
{
	const char *base = strrchr(file, '/'), *root = getenv("VB_TEST_ROOT");
	char line[1024], path[600], *p;
	size_t n;
	va_list ap;
	int fd;

	base = base ? base + 1 : file;
	if (strncmp(base, "check_", 6) == 0)
		base += 6;
	snprintf(line, sizeof(line) - 1, "%.*s: %s: ",
	    (int)strcspn(base, "."), base, tcase_name());
	n = strlen(line);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - 1 - n, fmt, ap);
	va_end(ap);
	/* one line, whatever the reason quoted */
	for (p = line; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	while (p > line && p[-1] == ' ')
		p--;
	*p++ = '\n';
	n = (size_t)(p - line);
	if (!root || !*root) {
		fwrite(line, 1, n, stderr);
		return;
	}
	snprintf(path, sizeof(path), "%s/skipped", root);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	ck_assert_msg(fd >= 0, "cannot record a skip in %s: %s", path,
	    strerror(errno));
	ck_assert_int_eq(write(fd, line, n), (ssize_t)n);
	close(fd);
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

/*
 * The folder tu_dir/@rel, made if missing, with @mode exactly (not cut
 * by the umask); its path into @buf.
 */
static inline char *
tu_folder(char *buf, size_t len, const char *rel, mode_t mode)
{
	tu_path(buf, len, rel);
	ck_assert_msg(mkdir(buf, mode) == 0 || errno == EEXIST, "%s: %s", buf,
	    strerror(errno));
	ck_assert_int_eq(chmod(buf, mode), 0);
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

/* Write @text to tu_dir/@rel, making the folders on its way. */
static inline void
tu_fake(const char *rel, const char *text)
{
	char path[1024], *p;

	snprintf(path, sizeof(path), "%s/%s", tu_dir, rel);
	for (p = path + strlen(tu_dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		ck_assert_msg(mkdir(path, 0755) == 0 || errno == EEXIST,
		    "mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	tu_write(path, sizeof(path), rel, text);
}

/*
 * A fake settings tree under tu_dir, as VMBENCH_SYSROOT or a knob
 * root sees it: swappiness 60, min_free_kbytes 67584, THP madvise,
 * zswap N.
 */
static inline void
tu_fake_settings(void)
{
	tu_fake("proc/sys/vm/swappiness", "60\n");
	tu_fake("proc/sys/vm/min_free_kbytes", "67584\n");
	tu_fake("sys/kernel/mm/transparent_hugepage/enabled",
	    "always [madvise] never\n");
	tu_fake("sys/module/zswap/parameters/enabled", "N\n");
}

/*
 * The mean of metric @name over the iterations of result file @path
 * (NAN without any), their number into *@niter; read strictly.
 */
static inline double
tu_res_mean(const char *path, const char *name, int *niter)
{
	struct vb_res r;
	char err[512];
	double s = 0;
	int m, i;

	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	m = vb_res_metric_index(&r, name);
	ck_assert_msg(m >= 0, "%s: no metric %s", path, name);
	for (i = 0; i < r.niter; i++)
		s += vb_res_get(&r, i, m);
	*niter = r.niter;
	vb_res_free(&r);
	return *niter ? s / *niter : NAN;
}

/* The value of @key in @dir/meta into @buf, "(none)" when absent. */
static inline const char *
tu_meta_val(const char *dir, const char *key, char *buf, size_t len)
{
	struct vb_kv *kv;
	char path[1024], err[512];
	const char *v;
	int n;

	snprintf(path, sizeof(path), "%s/meta", dir);
	ck_assert_msg(vb_meta_read(path, &kv, &n, err, sizeof(err)) == 0, "%s",
	    err);
	v = vb_meta_get(kv, n, key);
	snprintf(buf, len, "%s", v ? v : "(none)");
	vb_meta_free(kv, n);
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

static inline char *
tu_slurp_ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * tu_slurp() of a path given printf-style, which must be readable: the
 * test fails, naming it, when it is not.
 */
static inline char *
tu_slurp_ok(const char *fmt, ...)
{
	char *path, *text;
	va_list ap;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&path, fmt, ap), 0);
	va_end(ap);
	text = tu_slurp(path);
	ck_assert_msg(text != NULL, "cannot read %s: %s", path,
	    strerror(errno));
	free(path);
	return text;
}

/*
 * Fixture builders: result folders made and edited through the
 * library's own readers and writers (res.h, meta.h), so that a fixture
 * is in the format the programs write.  Paths are absolute or relative
 * to the test's working directory (the top of the tree).
 */

/* Read result file @path strictly into @r; the test fails, saying why. */
static inline void
tu_res_load(const char *path, struct vb_res *r)
{
	char err[512];

	ck_assert_msg(vb_res_read(path, r, err, sizeof(err)) == 0, "%s", err);
}

/* Write @r to @path with the library's writer (vb_res_write), free it. */
static inline void
tu_res_store(const char *path, struct vb_res *r)
{
	ck_assert_msg(vb_res_write(path, r) == 0, "cannot write %s: %s", path,
	    strerror(errno));
	vb_res_free(r);
}

/* The column of metric @name in @r; the test fails when it has none. */
static inline int
tu_res_col(const struct vb_res *r, const char *name)
{
	int m = vb_res_metric_index(r, name);

	ck_assert_msg(m >= 0, "%s: no metric %s", r->bench, name);
	return m;
}

/* Set parameter @key of @r to @val; the test fails when it has none. */
static inline void
tu_res_set_param(struct vb_res *r, const char *key, const char *val)
{
	int i;

	for (i = 0; i < r->nparams; i++)
		if (!strcmp(r->params[i].key, key)) {
			free(r->params[i].val);
			r->params[i].val = strdup(val);
			ck_assert_ptr_nonnull(r->params[i].val);
			return;
		}
	ck_abort_msg("%s: no parameter %s", r->bench, key);
}

/* Set metric @name to @v in every iteration of @r. */
static inline void
tu_res_set(struct vb_res *r, const char *name, double v)
{
	int m = tu_res_col(r, name), i;

	for (i = 0; i < r->niter; i++)
		r->vals[(size_t)i * r->nmetrics + m] = v;
}

/* Multiply metric @name by @f in every iteration of @r. */
static inline void
tu_res_scale(struct vb_res *r, const char *name, double f)
{
	int m = tu_res_col(r, name), i;

	for (i = 0; i < r->niter; i++)
		r->vals[(size_t)i * r->nmetrics + m] *= f;
}

/*
 * Multiply every measured value of @r by @f, but those of the load
 * beside the run (foreign_*, runq*, mem_*), which stay as recorded.
 */
static inline void
tu_res_scale_all(struct vb_res *r, double f)
{
	const char *n;
	int m, i;

	for (m = 0; m < r->nmetrics; m++) {
		n = r->metrics[m].name;
		if (!strncmp(n, "foreign_", 8) || !strncmp(n, "runq", 4) ||
		    !strncmp(n, "mem_", 4))
			continue;
		for (i = 0; i < r->niter; i++)
			r->vals[(size_t)i * r->nmetrics + m] *= f;
	}
}

/* Drop metric @name, its column and its values, from @r. */
static inline void
tu_res_drop(struct vb_res *r, const char *name)
{
	int m = tu_res_col(r, name), n = r->nmetrics, i, j, k = 0;

	for (i = 0; i < r->niter; i++)
		for (j = 0; j < n; j++)
			if (j != m)
				r->vals[k++] = r->vals[(size_t)i * n + j];
	memmove(&r->metrics[m], &r->metrics[m + 1],
	    (size_t)(n - m - 1) * sizeof(*r->metrics));
	r->nmetrics--;
}

/* Add metric @name (@unit, @dir) as @r's last column, @v everywhere. */
static inline void
tu_res_add_col(struct vb_res *r, const char *name, const char *unit,
    enum vb_dir dir, double v)
{
	int n = r->nmetrics, i, j;
	double *vals = malloc(((size_t)r->niter * (n + 1) + 1) *
	    sizeof(double));
	struct vb_res_metric *m;

	ck_assert_ptr_nonnull(vals);
	for (i = 0; i < r->niter; i++) {
		for (j = 0; j < n; j++)
			vals[(size_t)i * (n + 1) + j] =
			    r->vals[(size_t)i * n + j];
		vals[(size_t)i * (n + 1) + n] = v;
	}
	free(r->vals);
	r->vals = vals;
	r->metrics = realloc(r->metrics, (size_t)(n + 1) *
	    sizeof(*r->metrics));
	ck_assert_ptr_nonnull(r->metrics);
	r->metrics_room = n + 1;
	m = &r->metrics[n];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->dir = dir;
	r->nmetrics++;
}

/* Append a copy of @r's iteration @i (0-based); returns the new row. */
static inline double *
tu_res_dup_iter(struct vb_res *r, int i)
{
	double *row = vb_res_add_iter(r);

	memcpy(row, r->vals + (size_t)i * r->nmetrics,
	    (size_t)r->nmetrics * sizeof(double));
	return row;
}

/* Copy regular file @src to @dst (made or replaced). */
static inline void
tu_copy_file(const char *src, const char *dst)
{
	char buf[65536];
	size_t got;
	FILE *in, *out;

	in = fopen(src, "rb");
	ck_assert_msg(in != NULL, "%s: %s", src, strerror(errno));
	out = fopen(dst, "wb");
	ck_assert_msg(out != NULL, "%s: %s", dst, strerror(errno));
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
		ck_assert_int_eq(fwrite(buf, 1, got, out), got);
	ck_assert_msg(!ferror(in), "cannot read %s", src);
	fclose(in);
	ck_assert_int_eq(fclose(out), 0);
}

/*
 * Copy the files named after @dst (a NULL-terminated list) from folder
 * @src into folder @dst, made if need be.
 */
static inline void
tu_copy_files(const char *src, const char *dst, ...)
{
	char s[1024], d[1024];
	const char *name;
	va_list ap;

	ck_assert_msg(mkdir(dst, 0755) == 0 || errno == EEXIST, "mkdir %s: %s",
	    dst, strerror(errno));
	va_start(ap, dst);
	while ((name = va_arg(ap, const char *))) {
		snprintf(s, sizeof(s), "%s/%s", src, name);
		snprintf(d, sizeof(d), "%s/%s", dst, name);
		tu_copy_file(s, d);
	}
	va_end(ap);
}

/*
 * Copy folder @src to @dst (made; its regular files and folders), as
 * `cp -r SRC DST` does when DST does not exist.
 */
static inline void
tu_copy_tree(const char *src, const char *dst)
{
	char s[1024], d[1024];
	struct dirent *e;
	struct stat st;
	DIR *dir;

	ck_assert_msg(mkdir(dst, 0755) == 0 || errno == EEXIST, "mkdir %s: %s",
	    dst, strerror(errno));
	dir = opendir(src);
	ck_assert_msg(dir != NULL, "%s: %s", src, strerror(errno));
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(s, sizeof(s), "%s/%s", src, e->d_name);
		snprintf(d, sizeof(d), "%s/%s", dst, e->d_name);
		ck_assert_msg(lstat(s, &st) == 0, "%s: %s", s,
		    strerror(errno));
		if (S_ISDIR(st.st_mode))
			tu_copy_tree(s, d);
		else if (S_ISREG(st.st_mode))
			tu_copy_file(s, d);
	}
	closedir(dir);
}

/*
 * Set @key to @val in @dir/meta (read with vb_meta_read(); a key it
 * lacks is added at the end; @val NULL: the key removed), written back
 * atomically as key=value lines (vb_file_replace()).  @dir/meta
 * missing: a new one.
 */
static inline void
tu_meta_set(const char *dir, const char *key, const char *val)
{
	struct vb_kv *kv = NULL;
	char path[1024], err[512], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int n = 0, i, done = 0;

	snprintf(path, sizeof(path), "%s/meta", dir);
	if (access(path, F_OK) == 0)
		ck_assert_msg(vb_meta_read(path, &kv, &n, err,
		    sizeof(err)) == 0, "%s", err);
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++) {
		if (strcmp(kv[i].key, key))
			fprintf(f, "%s=%s\n", kv[i].key, kv[i].val);
		else if (val && !done++)
			fprintf(f, "%s=%s\n", key, val);
	}
	if (val && !done)
		fprintf(f, "%s=%s\n", key, val);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(vb_file_replace(path, buf, len) == 0,
	    "cannot write %s: %s", path, strerror(errno));
	free(buf);
	vb_meta_free(kv, n);
}

/*
 * Copy result folder @src to @dst, its meta's label set to @label (NULL:
 * kept).
 */
static inline void
tu_fixture_copy(const char *src, const char *dst, const char *label)
{
	tu_copy_tree(src, dst);
	if (label)
		tu_meta_set(dst, "label", label);
}

/*
 * Run @run of label @label under @dir, made from the run folder @src:
 * @dir/@label/run@run/meta is @src's meta with that label and run, and
 * @bench.res there @src's with every measured value times @f but the
 * load beside the run (tu_res_scale_all()).  Folders made as needed;
 * a meta already there is rewritten.
 */
static inline void
tu_fixture_run(const char *dir, const char *label, int run, const char *src,
    const char *bench, double f)
{
	struct vb_res r;
	char d[1024], path[1100], to[1100], num[16];

	ck_assert_msg(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir %s: %s",
	    dir, strerror(errno));
	snprintf(d, sizeof(d), "%s/%s", dir, label);
	ck_assert_msg(mkdir(d, 0755) == 0 || errno == EEXIST, "mkdir %s: %s",
	    d, strerror(errno));
	snprintf(d, sizeof(d), "%s/%s/run%d", dir, label, run);
	ck_assert_msg(mkdir(d, 0755) == 0 || errno == EEXIST, "mkdir %s: %s",
	    d, strerror(errno));
	snprintf(path, sizeof(path), "%s/meta", src);
	snprintf(num, sizeof(num), "%d", run);
	snprintf(to, sizeof(to), "%s/meta", d);
	tu_copy_file(path, to);
	tu_meta_set(d, "label", label);
	tu_meta_set(d, "run", num);
	snprintf(path, sizeof(path), "%s/%s.res", src, bench);
	tu_res_load(path, &r);
	tu_res_scale_all(&r, f);
	snprintf(path, sizeof(path), "%s/%s.res", d, bench);
	tu_res_store(path, &r);
}

/*
 * The first line of tu_dir/@rel, without its newline, into @buf (""
 * when the file is empty); the test fails when it cannot be opened.
 */
static inline char *
tu_line(const char *rel, char *buf, size_t len)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tu_dir, rel);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
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

static inline int
tu_sh_out(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Run a shell command (printf-style); its exit status as tu_sh_in()'s,
 * its standard output into @out (the first @len - 1 bytes; the rest is
 * read and dropped).  @out NULL: the output is dropped.
 */
static inline int
tu_sh_out(char *out, size_t len, const char *fmt, ...)
{
	char *cmd, buf[4096];
	size_t n = 0, got;
	va_list ap;
	FILE *p;
	int st;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	p = popen(cmd, "r");
	ck_assert_msg(p != NULL, "cannot run %s: %s", cmd, strerror(errno));
	free(cmd);
	while ((got = fread(buf, 1, sizeof(buf), p)) > 0)
		for (size_t i = 0; out && i < got && n + 1 < len; i++)
			out[n++] = buf[i];
	if (out && len)
		out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * Run @argv (no shell, looked up in PATH) with its output and errors
 * going to /dev/null; its exit status as tu_sh_in()'s, 127 when it
 * cannot be run.
 */
static inline int
tu_run(char *const argv[])
{
	pid_t pid;
	int st, fd;

	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		if ((fd = open("/dev/null", O_WRONLY)) >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * The processes of @pid's tree, itself included; 0 when it is gone.
 * vmrun running a benchmark's iteration that forks is at least 5: vmrun,
 * the harness, its sampler, the iteration and a child of it.
 */
static inline int
tu_tree_size(pid_t pid)
{
	char path[128];
	FILE *f;
	long c;
	int n = 1;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children",
	    (long)pid, (long)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fscanf(f, "%ld", &c) == 1)
		n += tu_tree_size((pid_t)c);
	fclose(f);
	return n;
}

static inline char *
tu_view(const char *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * A view of the report: report/vmreport run with the arguments @fmt
 * (printf-style shell words, T set to the folder @t), its output into
 * @t/out and its errors into @t/err.  It must exit 0 (the test fails,
 * showing the status and the errors, when it does not); its output,
 * malloc'd.
 */
static inline char *
tu_view(const char *t, const char *fmt, ...)
{
	char *args, *err;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&args, fmt, ap), 0);
	va_end(ap);
	rc = tu_sh_in(t, "report/vmreport %s >\"$T/out\" 2>\"$T/err\"", args);
	if (rc != 0) {
		err = tu_slurp_ok("%s/err", t);
		ck_assert_msg(rc == 0, "vmreport %s: exit %d; it said:\n%.2000s",
		    args, rc, err);
	}
	free(args);
	return tu_slurp_ok("%s/out", t);
}

/*
 * Join the report's wrapped lines in @s, in place: a newline and the
 * indent after it become one blank.  Returns @s.
 */
static inline char *
tu_unwrap(char *s)
{
	char *d = s, *r = s;

	for (; *s; s++) {
		if (*s == '\n' && s[1] == ' ') {
			while (s[1] == ' ')
				s++;
			*d++ = ' ';
			continue;
		}
		*d++ = *s;
	}
	*d = '\0';
	return r;
}

/* Is @cmd a command the shell finds in PATH? */
static inline int
tu_have(const char *cmd)
{
	return tu_sh_in(NULL, "command -v '%s' >/dev/null 2>&1", cmd) == 0;
}

/*
 * Assert that @text holds @needle (tu_assert_has) or does not
 * (tu_assert_lacks); a failure prints both, the text cut at 2,000
 * bytes, so the log shows what the test saw, not only the expression.
 */
#define tu_assert_has(text, needle)	tu_assert_has_at(__FILE__, \
	__LINE__, #text, (text), (needle), 1)
#define tu_assert_lacks(text, needle)	tu_assert_has_at(__FILE__, \
	__LINE__, #text, (text), (needle), 0)

static inline void
tu_assert_has_at(const char *file, int line, const char *expr,
    const char *text, const char *needle, int want)
{
	int has = text && strstr(text, needle) != NULL;

	if (has == want)
		return;
	ck_assert_msg(has == want, "%s:%d: %s %s '%s'; it was:\n%.2000s%s",
	    file, line, expr, want ? "lacks" : "holds", needle,
	    text ? text : "(null)", text && strlen(text) > 2000 ?
	    "\n[...]" : "");
}

#endif
