/*
 * check_layers.c - the rooms of src/ as the sources say, read from the
 * tree (run from its top, as make check does): the four programs
 * (runner, boots, report, bench) are siblings over src/lib and include
 * nothing of each other; the runner and boots name no benchmark; the run
 * folders are named by src/lib/runs.c alone; and every file's opening
 * comment names the file as it is now ("foo.c - ...").
 */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

/* A list of paths, grown as the tree is walked. */
struct files {
	char **p;
	int n;
};

static int
is_source(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'c' ||
	    name[n - 1] == 'h');
}

/* The generated lists (make writes them), which are not sources. */
static int
generated(const char *path)
{
	return strstr(path, "benches.h") || strstr(path, "suites.h") ||
	    strstr(path, "progs.h") || strstr(path, "version.h");
}

/* Every .c and .h under @dir (recursively) into @f. */
static void
walk(const char *dir, struct files *f)
{
	char path[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);

	ck_assert_msg(d != NULL, "cannot read %s (run from the tree's top)",
	    dir);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (strcmp(e->d_name, "fuzz") && strcmp(e->d_name,
			    "fixtures") && strcmp(e->d_name, "golden"))
				walk(path, f);
		} else if (S_ISREG(st.st_mode) && is_source(e->d_name) &&
		    !generated(path)) {
			f->p = realloc(f->p, (size_t)(f->n + 1) * sizeof(*f->p));
			ck_assert_ptr_nonnull(f->p);
			f->p[f->n++] = strdup(path);
		}
	}
	closedir(d);
}

static void
files_free(struct files *f)
{
	int i;

	for (i = 0; i < f->n; i++)
		free(f->p[i]);
	free(f->p);
}

/*
 * The text of @path with its comments blanked (strings kept), so that a
 * rule reads the code and its strings, not what the comments say.
 */
static char *
code_of(const char *path)
{
	char *s = tu_slurp(path), *p;
	int q = 0;

	ck_assert_msg(s != NULL, "cannot read %s", path);
	for (p = s; *p; p++) {
		if (q) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'') {
			q = *p;
		} else if (p[0] == '/' && p[1] == '*') {
			char *e = strstr(p + 2, "*/");

			e = e ? e + 2 : p + strlen(p);
			for (; p < e; p++)
				if (*p != '\n')
					*p = ' ';
			p--;
		}
	}
	return s;
}

/* The benchmarks: the folders of src/bench/. */
static int
benches(char names[][256], int max)
{
	DIR *d = opendir("src/bench");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) && n < max)
		if (e->d_name[0] != '.' && e->d_type == DT_DIR)
			snprintf(names[n++], 256, "%s", e->d_name);
	closedir(d);
	return n;
}

/*
 * The runner and boots run benchmarks as programs named in a config:
 * no string of theirs names one, not even the companion of with=NAME,
 * whose --help declares what it is.
 */
START_TEST(no_benchmark_names)
{
	char names[64][256], re[400], bad[8192] = "";
	struct files f = { 0 };
	int nb = benches(names, 64), i, b;

	ck_assert_int_gt(nb, 5);
	walk("src/runner", &f);
	walk("src/boots", &f);
	for (i = 0; i < f.n; i++) {
		char *code = code_of(f.p[i]);

		for (b = 0; b < nb; b++) {
			regex_t r;

			snprintf(re, sizeof(re), "\"[^\"\n]*\\b%.60s\\b[^\"\n]*"
			    "\"", names[b]);
			ck_assert_int_eq(regcomp(&r, re, REG_EXTENDED |
			    REG_NOSUB), 0);
			if (regexec(&r, code, 0, NULL, 0) == 0)
				snprintf(bad + strlen(bad), sizeof(bad) -
				    strlen(bad), "%.200s names %.60s; ", f.p[i],
				    names[b]);
			regfree(&r);
		}
		free(code);
	}
	files_free(&f);
	ck_assert_msg(!bad[0], "%s", bad);
}
END_TEST

/*
 * A run folder's name is made and read by src/lib/runs.c only: no other
 * file of the runner, boots, lib or report builds a "run%d" or
 * ".../run%d" name into a buffer or reads "run" off a name by hand
 * (a message that says "run%d: ..." is no name).
 */
START_TEST(run_folders_in_lib)
{
	static const char *const rooms[] = { "src/runner", "src/boots",
		"src/lib", "src/report" };
	char bad[4096] = "";
	struct files f = { 0 };
	regex_t mk, rd;
	size_t k;
	int i;

	ck_assert_int_eq(regcomp(&mk, "snprintf\\([^;]*\"([^\"]*/)?run%d\"",
	    REG_EXTENDED | REG_NOSUB), 0);
	ck_assert_int_eq(regcomp(&rd, "str(n)?cmp\\([^;]*\"run\"",
	    REG_EXTENDED | REG_NOSUB), 0);
	for (k = 0; k < sizeof(rooms) / sizeof(rooms[0]); k++)
		walk(rooms[k], &f);
	for (i = 0; i < f.n; i++) {
		char *code;

		if (!strcmp(f.p[i], "src/lib/runs.c"))
			continue;
		code = code_of(f.p[i]);
		if (regexec(&mk, code, 0, NULL, 0) == 0 ||
		    regexec(&rd, code, 0, NULL, 0) == 0)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
			    "%.200s; ", f.p[i]);
		free(code);
	}
	regfree(&mk);
	regfree(&rd);
	files_free(&f);
	ck_assert_msg(!bad[0], "run folders named outside src/lib/runs.c: %s",
	    bad);
}
END_TEST

/* Does @name exist as a file in @dir? */
static int
exists_in(const char *dir, const char *name)
{
	char path[2 * PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/*
 * Each program sees its own headers and the library's: an include in
 * src/runner, src/boots, src/report or src/bench/NAME resolves in its
 * own folder (or its room's top: src/report's forms/, views/) or in
 * src/lib, never only in a sibling's.
 */
START_TEST(no_sibling_includes)
{
	static const char *const rooms[] = { "src/runner", "src/boots",
		"src/report", "src/bench" };
	char bad[4096] = "", line[1024], dir[PATH_MAX], inc[256];
	struct files f = { 0 };
	size_t k;
	int i, from;

	for (k = 0; k < sizeof(rooms) / sizeof(rooms[0]); k++) {
		from = f.n;
		walk(rooms[k], &f);
		for (i = from; i < f.n; i++) {
			FILE *in = fopen(f.p[i], "r");

			ck_assert_ptr_nonnull(in);
			snprintf(dir, sizeof(dir), "%s", f.p[i]);
			*strrchr(dir, '/') = '\0';
			while (fgets(line, sizeof(line), in)) {
				if (sscanf(line, "#include \"%255[^\"]\"",
				    inc) != 1)
					continue;
				if (exists_in(dir, inc) || exists_in(rooms[k],
				    inc) || exists_in("src/lib", inc) ||
				    !strcmp(inc, "benches.h"))
					continue;
				snprintf(bad + strlen(bad), sizeof(bad) -
				    strlen(bad), "%.200s includes %.60s; ",
				    f.p[i], inc);
			}
			fclose(in);
		}
	}
	files_free(&f);
	ck_assert_msg(!bad[0], "%s", bad);
}
END_TEST

/*
 * Line 2 of every source names its file as it is now: " * foo.c - "
 * (or " * foo.c: ").  The report's files and its test suites are left
 * to the report's own renaming.
 */
START_TEST(first_line_names_file)
{
	static const char *const rooms[] = { "src/lib", "src/runner",
		"src/boots", "src/bench", "tests", "tools" };
	char bad[8192] = "", want[300], want2[300];
	struct files f = { 0 };
	regex_t report_suite;
	size_t k;
	int i;

	ck_assert_int_eq(regcomp(&report_suite, "^tests/check_(r[a-z]+|"
	    "vmreport|verdict)\\.c$", REG_EXTENDED | REG_NOSUB), 0);
	for (k = 0; k < sizeof(rooms) / sizeof(rooms[0]); k++)
		walk(rooms[k], &f);
	for (i = 0; i < f.n; i++) {
		const char *base = strrchr(f.p[i], '/') + 1;
		char *text, *l2;

		if (regexec(&report_suite, f.p[i], 0, NULL, 0) == 0)
			continue;
		text = tu_slurp(f.p[i]);
		ck_assert_ptr_nonnull(text);
		l2 = strchr(text, '\n');
		snprintf(want, sizeof(want), "\n * %s - ", base);
		snprintf(want2, sizeof(want2), "\n * %s: ", base);
		if (strncmp(text, "/*\n", 3) != 0 || !l2 || (strncmp(l2, want,
		    strlen(want)) && strncmp(l2, want2, strlen(want2))))
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
			    "%.200s; ", f.p[i]);
		free(text);
	}
	regfree(&report_suite);
	files_free(&f);
	ck_assert_msg(!bad[0], "line 2 does not name the file: %s", bad);
}
END_TEST

Suite *
layers_suite(void)
{
	Suite *s = suite_create("layers");
	TCase *tc = tu_tcase_local("layers");

	tcase_add_test(tc, no_benchmark_names);
	tcase_add_test(tc, run_folders_in_lib);
	tcase_add_test(tc, no_sibling_includes);
	tcase_add_test(tc, first_line_names_file);
	suite_add_tcase(s, tc);
	return s;
}
