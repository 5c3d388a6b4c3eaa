/*
 * The Makefile passes the user's values to the programs without a shell
 * or make parsing them: a value built to run a command (a quote, $(shell
 * ...), a backquote, a newline) reaches vmrun or vmreport as text, is
 * refused there in one line, and nothing runs.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

/* Values that would each touch @mark if anything parsed them. */
static const char *const payloads[] = {
	"q'; touch %s; echo '",
	"q\"; touch %s; echo \"",
	"$(shell touch %s)",
	"`touch %s`",
	"$$(touch %s)",
	"a\ntouch %s",
};

/* an inventory whose one host refuses ssh: nothing could run there */
#define FLEET_INV "INVENTORY=tests/fixtures/fleet-refused.ini"

/* target, variable, and the other variables it needs */
static const struct {
	const char *target, *var, *extra;
} targets[] = {
	{ "run", "KERNEL", "" },
	{ "run", "CONFIG", "KERNEL=mk-test" },
	{ "run", "RUNS", "KERNEL=mk-test" },
	{ "ab", "KERNEL", "A=thp=never B=thp=always" },
	{ "ab", "A", "KERNEL=mk-test B=thp=always" },
	{ "compare", "KERNELS", "" },
	{ "compare", "REPORT_OPTS", "KERNELS=mk-none" },
	{ "post", "KERNELS", "" },
	{ "plot", "PLOTS", "KERNELS=mk-none" },
	{ "plot", "RESULTS", "KERNELS=mk-none" },
	{ "fleet", "INVENTORY", "" },
	{ "fleet", "CONFIG", FLEET_INV },
	{ "fleet", "MEM", FLEET_INV },
	{ "fleet", "SWAP", FLEET_INV },
	{ "fleet", "RESULTS", FLEET_INV },
	{ "fleet", "ANSIBLE_PLAYBOOK", FLEET_INV },
	{ "fleet", "FLEET_OPTS", FLEET_INV },
};

START_TEST(make_values_are_text)
{
	char mark[512], val[1024], out[600];
	size_t p;

	snprintf(mark, sizeof(mark), "%s/ran", tu_dir);
	snprintf(out, sizeof(out), "%s/out", tu_dir);
	for (p = 0; p < sizeof(payloads) / sizeof(payloads[0]); p++) {
		int status;
		pid_t pid;

		snprintf(val, sizeof(val), payloads[p], mark);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			char arg[1200], *argv[16];
			int n = 0, fd;
			char *extra, *w;

			/* not the enclosing make's jobserver or flags */
			unsetenv("MAKEFLAGS");
			unsetenv("MFLAGS");
			unsetenv("MAKELEVEL");
			fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);
			dup2(fd, 1);
			dup2(fd, 2);
			argv[n++] = "make";
			argv[n++] = "-s";
			argv[n++] = (char *)targets[_i].target;
			snprintf(arg, sizeof(arg), "%s=%s", targets[_i].var, val);
			argv[n++] = arg;
			extra = strdup(targets[_i].extra);
			for (w = strtok(extra, " "); w && n < 14;
			    w = strtok(NULL, " "))
				argv[n++] = w;
			argv[n] = NULL;
			execvp("make", argv);
			_exit(127);
		}
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0,
		    "make %s %s=<payload %zu>: status %d", targets[_i].target,
		    targets[_i].var, p, status);
		ck_assert_msg(access(mark, F_OK) < 0, "make %s %s=%s ran it",
		    targets[_i].target, targets[_i].var, val);
	}
	/* nothing was written under results/ for the test labels */
	ck_assert_int_lt(access("results/mk-test", F_OK), 0);
	ck_assert_int_lt(access("results/mk-test-A", F_OK), 0);
}
END_TEST

/*
 * make ab without A= and B= would be a plain run under another name:
 * refused in one line (besides make's own "***" line), nothing run.
 */
START_TEST(ab_needs_sides)
{
	int rc;

	rc = tu_sh_in(tu_dir, "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s "
	    "ab KERNEL=mk-test CONFIG=configs/test.conf RESULTS=\"$T/r\" "
	    "WORKDIR=\"$T/w\" >\"$T/out\" 2>\"$T/err\"");
	ck_assert_int_ne(rc, 0);
	ck_assert_int_eq(tu_sh_in(tu_dir, "grep -v '^make: \\*\\*\\*' "
	    "\"$T/err\" > \"$T/ours\"; test $(wc -l < \"$T/ours\") = 1 && "
	    "grep -q '^make ab: give both sides: A=\"name=value,...\" "
	    "B=\"name=value,...\"' \"$T/ours\" && test ! -s \"$T/out\""), 0);
	ck_assert_int_eq(tu_count_except(tu_dir, ""), 3);
	ck_assert_int_lt(access("results/mk-test", F_OK), 0);
}
END_TEST

Suite *
make_suite(void)
{
	Suite *s = suite_create("make");
	TCase *tc = tcase_create("values");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, make_values_are_text, 0,
	    (int)(sizeof(targets) / sizeof(targets[0])));
	tcase_add_test(tc, ab_needs_sides);
	suite_add_tcase(s, tc);
	return s;
}
