/*
 * The one test runner: every tests/check_<module>.c exports
 * Suite *<module>_suite(void); tests/suites.h (made by the Makefile)
 * lists them.  Exits non-zero when any test fails.
 *
 *	tests/check_vmbench            all suites
 *	tests/check_vmbench size res   only these suites
 *
 * The run's temporary folders live under one root it makes (and names
 * in VB_TEST_ROOT, tests/testutil.h) and removes at the end.  A test
 * that cannot run here calls tu_skip(): after Check's summary the
 * runner prints the skipped tests, each with its reason, and last the
 * line "N passed, N failed, N skipped".
 */
#include <check.h>
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define SUITE(n) Suite *n##_suite(void);
#include "suites.h"
#undef SUITE

static const struct {
	const char *name;
	Suite *(*fn)(void);
} suites[] = {
#define SUITE(n) { #n, n##_suite },
#include "suites.h"
#undef SUITE
};

/* Unmount what is left mounted under @root, then remove it. */
static void
remove_root(const char *root)
{
	tu_umount_under(root);
	if (tu_rmtree(root) < 0)
		fprintf(stderr, "check_vmbench: cannot remove %s: %s\n", root,
		    strerror(errno));
}

/*
 * The roots of earlier runs that were killed (SIGKILL skips the
 * removal): $base/vmbench-check.<pid>.*, whose pid is gone; only ours
 * (root removes any).
 */
static void
remove_stale_roots(const char *base)
{
	char pat[600];
	glob_t g;
	size_t i;

	snprintf(pat, sizeof(pat), "%s/vmbench-check.*.*", base);
	if (glob(pat, GLOB_NOSORT, NULL, &g) != 0)
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		const char *p = strrchr(g.gl_pathv[i], '/') + 1;
		long pid = strtol(p + strlen("vmbench-check."), NULL, 10);
		struct stat st;

		if (pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH &&
		    lstat(g.gl_pathv[i], &st) == 0 && S_ISDIR(st.st_mode) &&
		    (st.st_uid == geteuid() || geteuid() == 0))
			remove_root(g.gl_pathv[i]);
	}
	globfree(&g);
}

/*
 * The whole of @path, NUL-terminated (malloc'd), or NULL; not
 * tu_slurp(), whose checks work only inside a test.
 */
static char *
read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 4096, got;
	char *buf = NULL, *more;

	if (!f)
		return NULL;
	while ((more = realloc(buf, cap))) {
		buf = more;
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
		if (cap - len < 2)
			cap *= 2;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* A recorded skip: "suite: test: why". */
struct skip {
	char *suite, *test, *why;
	int done;
};

/*
 * Print the skips recorded in @root/skipped, one line for each suite
 * and reason, naming its tests (a loop test's runs counted once, with
 * their number); how many tests skipped.
 */
static int
print_skips(const char *root)
{
	char path[600], *text, *line, *end;
	struct skip *sk = NULL, *more;
	int n = 0, i, j, k;

	snprintf(path, sizeof(path), "%s/skipped", root);
	if (!(text = read_all(path)))
		return 0;
	for (line = text; (end = strchr(line, '\n')); line = end + 1) {
		char *t, *w;

		*end = '\0';
		if (!(t = strstr(line, ": ")) || !(w = strstr(t + 2, ": ")))
			continue;
		if (!(more = realloc(sk, (size_t)(n + 1) * sizeof(*sk))))
			break;
		sk = more;
		*t = *w = '\0';
		sk[n++] = (struct skip){ line, t + 2, w + 2, 0 };
	}
	if (n > 0)
		printf("%d skipped:\n", n);
	for (i = 0; i < n; i++) {
		const char *sep = "";

		if (sk[i].done)
			continue;
		printf("  %s: ", sk[i].suite);
		for (j = i; j < n; j++) {
			int runs = 0;

			if (sk[j].done || strcmp(sk[j].suite, sk[i].suite) ||
			    strcmp(sk[j].why, sk[i].why))
				continue;
			/* the runs of one (loop) test, all with this reason */
			for (k = j; k < n; k++)
				if (!sk[k].done &&
				    !strcmp(sk[k].test, sk[j].test) &&
				    !strcmp(sk[k].suite, sk[i].suite) &&
				    !strcmp(sk[k].why, sk[i].why)) {
					sk[k].done = 1;
					runs++;
				}
			printf(runs > 1 ? "%s%s (%d runs)" : "%s%s", sep,
			    sk[j].test, runs);
			sep = ", ";
		}
		printf(": %s\n", sk[i].why);
	}
	free(sk);
	free(text);
	return n;
}

int
main(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");
	char root[512];
	SRunner *sr = NULL;
	size_t i;
	int j, run, failed, skipped;

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		int want = argc < 2;

		for (j = 1; j < argc; j++)
			want |= strcmp(argv[j], suites[i].name) == 0;
		if (!want)
			continue;
		if (!sr)
			sr = srunner_create(suites[i].fn());
		else
			srunner_add_suite(sr, suites[i].fn());
	}
	if (!sr) {
		fprintf(stderr, "check_vmbench: no such suite\n");
		return 2;
	}
	if (!tmp || !*tmp)
		tmp = "/var/tmp";
	remove_stale_roots(tmp);
	snprintf(root, sizeof(root), "%s/vmbench-check.%ld.XXXXXX", tmp,
	    (long)getpid());
	if (!mkdtemp(root)) {
		fprintf(stderr, "check_vmbench: cannot make %s: %s\n", root,
		    strerror(errno));
		return 2;
	}
	setenv("VB_TEST_ROOT", root, 1);
	srunner_run_all(sr, CK_NORMAL);
	fflush(stdout);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	skipped = print_skips(root);
	remove_root(root);
	printf("%d passed, %d failed, %d skipped\n",
	    run - failed - skipped > 0 ? run - failed - skipped : 0, failed,
	    skipped);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
