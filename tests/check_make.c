/*
 * check_make.c - the Makefile passes the user's values to the programs
 * without a shell or make parsing them: a value built to run a command (a
 * quote, $(shell ...), a backquote, a newline) reaches vmrun or vmreport
 * as text, is refused there in one line, and nothing runs.  FLEET_OPTS
 * reaches a stand-in for ansible-playbook, which records its arguments
 * (the value's words, each unchanged) and refuses them.  make bench-ltp
 * without LTP's mmap001 skips in one line.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "res.h"
#include "testutil.h"

/*
 * Values that would each touch @mark if anything parsed them, given to
 * the target's recipe alone (make -o all).  $(shell ...), which make
 * itself would run wherever it expanded the value, in a recipe of `all`
 * as well: `all` is built once with every variable's (build_expands_no_
 * value), as the user builds it with a target; its recipes take the
 * same variables, exported the same way, whatever the target.
 */
static const char *const payloads[] = {
	"q'; touch %s; echo '",
	"q\"; touch %s; echo \"",
	"$(shell touch %s)",
	"`touch %s`",
	"$$(touch %s)",
	"a\ntouch %s",
};

/*
 * The build this test runs is the one the tree was built with: without
 * the enclosing make's flags, make all would rebuild every program
 * plain under make check SANITIZE=1 (.build-flags), in the middle of
 * the other suites.  The test is built as the tree is.
 */
#ifdef __SANITIZE_ADDRESS__
#define BUILD_MODE "SANITIZE=1"
#else
#define BUILD_MODE "SANITIZE="
#endif

/* an inventory whose one host refuses ssh: nothing could run there */
#define FLEET_INV "INVENTORY=tests/fixtures/fleet-refused.ini"

/*
 * target, variable, and the other variables it needs; standin: the
 * value reaches ansible-playbook (ANSIBLE_PLAYBOOK= the stand-in); group:
 * the rows one make runs together (make -k), as a make costs ~20 ms of
 * CPU whatever it runs.  A group's rows are of different targets (a
 * recipe stops at its first refusal: two values of one would hide the
 * second), and no row's variables are read by another row's target.
 * Of the variables here, run reads KERNEL RUNS CPUS CONFIG RESULTS; ab
 * KERNEL A B CONFIG RESULTS; compare and post KERNELS REPORT_OPTS
 * RESULTS, plot those and PLOTS; fleet INVENTORY KERNEL CONFIG MEM SWAP
 * RESULTS ANSIBLE_PLAYBOOK FLEET_OPTS.  So each recipe sees what it
 * would alone.
 */
static const struct {
	const char *target, *var, *extra;
	int standin, group;
} targets[] = {
	{ "run", "KERNEL", "", 0, 0 },
	{ "run", "CONFIG", "KERNEL=mk-test", 0, 2 },
	{ "run", "RUNS", "KERNEL=mk-test", 0, 1 },
	{ "run", "CPUS", "KERNEL=mk-test", 0, 3 },
	{ "ab", "KERNEL", "A=thp=never B=thp=always", 0, 0 },
	{ "ab", "A", "KERNEL=mk-test B=thp=always", 0, 1 },
	{ "compare", "KERNELS", "", 0, 2 },
	{ "compare", "REPORT_OPTS", "KERNELS=mk-none", 0, 3 },
	{ "post", "KERNELS", "", 0, 2 },
	{ "plot", "PLOTS", "KERNELS=mk-none", 0, 4 },
	{ "plot", "RESULTS", "KERNELS=mk-none", 0, 5 },
	{ "fleet", "INVENTORY", "", 0, 3 },
	{ "fleet", "CONFIG", FLEET_INV, 0, 4 },
	{ "fleet", "MEM", FLEET_INV, 0, 6 },
	{ "fleet", "SWAP", FLEET_INV, 0, 7 },
	{ "fleet", "RESULTS", FLEET_INV, 0, 8 },
	{ "fleet", "ANSIBLE_PLAYBOOK", FLEET_INV, 0, 9 },
	{ "fleet", "FLEET_OPTS", FLEET_INV, 1, 10 },
};
#define NTARGETS	(sizeof(targets) / sizeof(targets[0]))
#define NGROUPS		11
/* groups 6 on: fleet's alone, a test case of their own run beside */
#define FLEET_GROUPS	6

/*
 * The stand-in for ansible-playbook (Ansible, starting up to refuse each
 * value, took half of the suite's CPU): its arguments, each ended by a
 * NUL, into its path with .args added, and exit 2 as a refusal would.
 */
#define STANDIN "#!/bin/sh\nprintf '%s\\0' \"$@\" > \"$0.args\"\nexit 2\n"

/*
 * The arguments the stand-in recorded in @path hold @val's words (split
 * on blanks, as fleet.sh splits FLEET_OPTS) one after the other, each
 * an argument of its own, unchanged.
 */
static void
assert_words(const char *path, const char *val)
{
	char got[4096], want[1200], *w, *copy;
	size_t len = 1, n = 1;
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "ansible-playbook (the stand-in) was not "
	    "run: %s", path);
	got[0] = '\0';
	len += fread(got + 1, 1, sizeof(got) - 1, f);
	fclose(f);
	want[0] = '\0';
	ck_assert_ptr_nonnull(copy = strdup(val));
	for (w = strtok(copy, " \t\n"); w; w = strtok(NULL, " \t\n")) {
		ck_assert(n + strlen(w) + 1 < sizeof(want));
		memcpy(want + n, w, strlen(w) + 1);
		n += strlen(w) + 1;
	}
	free(copy);
	ck_assert_msg(memmem(got, len, want, n) != NULL, "FLEET_OPTS=%s: "
	    "its words did not reach ansible-playbook unchanged", val);
}

/*
 * Add assignment @a (NAME=value) to the @n arguments of @argv unless a
 * NAME= is there already, which must then be the same: the rows of a
 * group may share an extra, never give a variable two values.  Returns
 * the number of arguments.
 */
static int
add_assign(char **argv, int n, char *a)
{
	size_t k = strcspn(a, "=") + 1;
	int i;

	for (i = 0; i < n; i++)
		if (strncmp(argv[i], a, k) == 0) {
			ck_assert_msg(strcmp(argv[i], a) == 0, "targets[]: "
			    "two values for %.*s in a group", (int)k - 1, a);
			return n;
		}
	argv[n++] = a;
	return n;
}

/*
 * Run make with @argv, its output (both streams) into @out, without the
 * enclosing make's jobserver and flags; its wait status.
 */
static int
run_make(char **argv, const char *out)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd;

		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp("make", argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/*
 * Whether make's output @got has its line for a failed recipe of
 * @target, "make: *** [FILE:LINE: target] Error N" (not one ignored).
 */
static int
recipe_failed(const char *got, const char *target)
{
	char want[64];
	const char *l, *e, *m;

	snprintf(want, sizeof(want), ": %s] Error ", target);
	for (l = got; *l; l = e + 1) {
		e = strchrnul(l, '\n');
		if (strncmp(l, "make: *** [", 11) == 0 &&
		    (m = strstr(l, want)) != NULL && m < e)
			return 1;
		if (*e == '\0')
			break;
	}
	return 0;
}

START_TEST(make_values_are_text)
{
	char mark[512], val[1024], out[600], sdir[512], pb[600], args[700];
	char arg[NTARGETS][1200], pbarg[700], desc[512] = "", got[8192];
	char *argv[48], *words[32], *extra[NTARGETS], *w;
	size_t p, r, nrow = 0, nword = 0, row[NTARGETS];
	int standin = 0;
	FILE *f;

	/* group _i's rows, each target once, and their extras' words */
	for (r = 0; r < NTARGETS; r++) {
		ck_assert(targets[r].group >= 0 && targets[r].group < NGROUPS);
		if (targets[r].group != _i)
			continue;
		for (p = 0; p < nrow; p++)
			ck_assert_str_ne(targets[row[p]].target,
			    targets[r].target);
		row[nrow++] = r;
		standin |= targets[r].standin;
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
		    "%s%s %s=", nrow > 1 ? ", " : "", targets[r].target,
		    targets[r].var);
		ck_assert_ptr_nonnull(extra[r] = strdup(targets[r].extra));
		for (w = strtok(extra[r], " "); w; w = strtok(NULL, " ")) {
			ck_assert(nword < sizeof(words) / sizeof(words[0]));
			words[nword++] = w;
		}
	}
	ck_assert_msg(nrow > 0, "group %d has no row", _i);
	snprintf(mark, sizeof(mark), "%s/ran", tu_dir);
	snprintf(out, sizeof(out), "%s/out", tu_dir);
	/* in a folder of its own: ab_needs_sides counts tu_dir's files */
	tu_mkdtemp(sdir, sizeof(sdir), "standin");
	snprintf(pb, sizeof(pb), "%s/ansible-playbook", sdir);
	snprintf(args, sizeof(args), "%s.args", pb);
	snprintf(pbarg, sizeof(pbarg), "ANSIBLE_PLAYBOOK=%s", pb);
	ck_assert_ptr_nonnull(f = fopen(pb, "w"));
	ck_assert_int_ge(fputs(STANDIN, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(pb, 0755), 0);
	for (p = 0; p < sizeof(payloads) / sizeof(payloads[0]); p++) {
		size_t len;
		int status, n = 0;

		snprintf(val, sizeof(val), payloads[p], mark);
		unlink(args);
		/* make -k: every target's recipe, though the first failed */
		argv[n++] = "make";
		argv[n++] = "-s";
		argv[n++] = "-k";
		argv[n++] = "-o";
		argv[n++] = "all";
		for (r = 0; r < nrow; r++)
			argv[n++] = (char *)targets[row[r]].target;
		for (r = 0; r < nrow; r++) {
			snprintf(arg[r], sizeof(arg[r]), "%s=%s",
			    targets[row[r]].var, val);
			n = add_assign(argv, n, arg[r]);
		}
		for (r = 0; r < nword; r++)
			n = add_assign(argv, n, words[r]);
		if (standin)
			n = add_assign(argv, n, pbarg);
		argv[n] = NULL;
		status = run_make(argv, out);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0,
		    "make %s with <payload %zu>: status %d", desc, p, status);
		ck_assert_msg(access(mark, F_OK) < 0, "make %s with %s ran it",
		    desc, val);
		/* each target's recipe refused it */
		ck_assert_ptr_nonnull(f = fopen(out, "r"));
		len = fread(got, 1, sizeof(got) - 1, f);
		fclose(f);
		got[len] = '\0';
		for (r = 0; r < nrow; r++)
			ck_assert_msg(recipe_failed(got, targets[row[r]].target),
			    "make %s %s=<payload %zu>: not refused: %s",
			    targets[row[r]].target, targets[row[r]].var, p,
			    got);
		if (standin)
			assert_words(args, val);
	}
	for (r = 0; r < nrow; r++)
		free(extra[row[r]]);
	tu_rmtree(sdir);
	/* nothing was written under results/ for the test labels */
	ck_assert_int_lt(access("results/mk-test", F_OK), 0);
	ck_assert_int_lt(access("results/mk-test-A", F_OK), 0);
}
END_TEST

/*
 * make all with every variable of targets[] set to a $(shell ...) that
 * would touch a mark of its own: the build's recipes run (need-deps and
 * src/lib/version.h always do) with the variables exported, and expand
 * none of them.
 */
START_TEST(build_expands_no_value)
{
	char *argv[6 + sizeof(targets) / sizeof(targets[0])];
	char vals[sizeof(targets) / sizeof(targets[0])][1200], out[600];
	size_t i, j, n = 0;
	int status;

	argv[n++] = "make";
	argv[n++] = "-s";
	argv[n++] = "all";
	argv[n++] = BUILD_MODE;
	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		for (j = 0; j < i; j++)
			if (strcmp(targets[j].var, targets[i].var) == 0)
				break;
		if (j < i)
			continue;	/* the same variable for another target */
		snprintf(vals[i], sizeof(vals[i]), "%s=$(shell touch %s/ran.%s)",
		    targets[i].var, tu_dir, targets[i].var);
		argv[n++] = vals[i];
	}
	argv[n] = NULL;
	snprintf(out, sizeof(out), "%s/build.out", tu_dir);
	status = run_make(argv, out);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "make all with the values: status %d", status);
	ck_assert_msg(tu_sh_in(tu_dir, "! ls \"$T\"/ran.* 2>/dev/null") == 0,
	    "make all expanded a value: %s", out);
	unlink(out);
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
	    BUILD_MODE " ab KERNEL=mk-test CONFIG=configs/test.conf RESULTS=\"$T/r\" "
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

/*
 * Values that are no value of theirs, refused in one line (besides
 * make's own "***" line) before anything is made: FORCE= other than 1,
 * 0 or empty; WORKDIR= a device, a regular file, /proc, /sys/kernel; a
 * control character in PLOTS= or HTML=.  RESULTS= is never created.
 */
START_TEST(bad_values_refused)
{
	static const struct {
		const char *target, *var, *val, *want;
	} rows[] = {
		{ "run", "FORCE", "yes", "make: FORCE= takes 1 " },
		{ "run", "FORCE", "true", "make: FORCE= takes 1 " },
		{ "run", "FORCE", "2", "make: FORCE= takes 1 " },
		{ "ab", "FORCE", "yes", "make: FORCE= takes 1 " },
		{ "run", "WORKDIR", "/dev/null", "vmrun: work folder /dev/null: "
		    "not a folder" },
		{ "run", "WORKDIR", "$T/file", "vmrun: work folder $T/file: "
		    "not a folder" },
		{ "run", "WORKDIR", "/proc", "vmrun: work folder /proc: on "
		    "proc," },
		{ "run", "WORKDIR", "/sys/kernel", "vmrun: work folder "
		    "/sys/kernel: on sysfs," },
		{ "run", "QUIET", "abc", "vmrun: --quiet 'abc': give a "
		    "percentage" },
		{ "run", "QUIET", "150", "vmrun: --quiet '150': give a "
		    "percentage" },
		{ "ab", "QUIET", "-5", "vmrun: --quiet '-5': give a "
		    "percentage" },
		{ "run", "QUIET_WAIT", "forever", "vmrun: --quiet-wait "
		    "'forever': give a duration" },
		{ "ab", "QUIET_WAIT", "0s", "vmrun: --quiet-wait '0s': give "
		    "a duration" },
		{ "boots", "QUIET", "abc", "vmboots: --quiet 'abc': give a "
		    "percentage" },
		{ "boots", "QUIET_WAIT", "forever", "vmboots: --quiet-wait "
		    "'forever': give a duration" },
		{ "plot", "PLOTS", "$T/a\nb", "vmreport: --plot '$T/a\\x0ab': "
		    "a control character" },
		{ "html", "HTML", "$T/a\tb", "vmreport: --html '$T/a\\x09b': "
		    "a control character" },
	};
	char out[600], res[600], val[600], want[600], assign[700], *got;
	char *argv[16], *l, *e;
	size_t i;
	int status, n, lines, hit;

	snprintf(out, sizeof(out), "%s/out", tu_dir);
	snprintf(res, sizeof(res), "RESULTS=%s/r", tu_dir);
	tu_write(val, sizeof(val), "file", "a file\n");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *t = strstr(rows[i].val, "$T");

		snprintf(val, sizeof(val), "%s%s", t ? tu_dir : rows[i].val,
		    t ? t + 2 : "");
		t = strstr(rows[i].want, "$T");
		snprintf(want, sizeof(want), "%.*s%s%s", t ? (int)(t -
		    rows[i].want) : (int)strlen(rows[i].want), rows[i].want,
		    t ? tu_dir : "", t ? t + 2 : "");
		snprintf(assign, sizeof(assign), "%s=%s", rows[i].var, val);
		n = 0;
		argv[n++] = "make";
		argv[n++] = "-s";
		argv[n++] = "-o";
		argv[n++] = "all";
		argv[n++] = BUILD_MODE;
		argv[n++] = (char *)rows[i].target;
		argv[n++] = "KERNEL=mk-bad";
		argv[n++] = "CONFIG=configs/test.conf";
		argv[n++] = "KERNELS=mk-none";
		argv[n++] = "A=vm.swappiness=60";
		argv[n++] = "B=vm.swappiness=60";
		argv[n++] = res;
		argv[n++] = assign;
		argv[n] = NULL;
		status = run_make(argv, out);
		got = tu_slurp_ok("%s", out);
		lines = hit = 0;
		for (l = got; *l; l = *e ? e + 1 : e) {
			e = strchrnul(l, '\n');
			if (strncmp(l, "make: *** [", 11) == 0)
				continue;
			lines++;
			hit |= strncmp(l, want, strlen(want)) == 0;
		}
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
		    lines == 1 && hit, "make %s %s=%s: status %d, not one line "
		    "\"%s...\"; it said: %s", rows[i].target, rows[i].var,
		    rows[i].val, status, want, got);
		free(got);
		ck_assert_msg(tu_sh_in(tu_dir, "test ! -e \"$T/r\" && test "
		    "! -e \"$T/a\" && test ! -e \"$T/a\nb\" && test ! -e "
		    "\"$T/a\tb\"") == 0, "make %s %s=%s: something was made",
		    rows[i].target, rows[i].var, rows[i].val);
	}
	ck_assert_int_lt(access("results/mk-bad", F_OK), 0);
}
END_TEST

/*
 * make bench-precision's descriptive figures (tools/precision): three
 * runs of a headline whose iterations are 9 11, 10 12 and 11 13.  The
 * run means 10, 11, 12: run CoV 1 / 11 = 9.09%; iteration CoVs 14.14,
 * 12.86 and 11.79%, median 12.86; the farthest run from the median 11
 * is the first (10, the first of the two as far), 2.12 sd of the other
 * two (11 and 12, sd 0.707) from their mean 11.5.
 */
START_TEST(precision_figures)
{
	static const double v[3][2] = { { 9, 11 }, { 10, 12 }, { 11, 13 } };
	char path[512], out[1024];
	int k, i;

	for (k = 0; k < 3; k++) {
		struct vb_res r;

		snprintf(path, sizeof(path), "%s/p/run%d", tu_dir, k + 1);
		ck_assert_int_eq(tu_sh_in(NULL, "mkdir -p %s", path), 0);
		vb_res_init(&r, "x", NULL);
		vb_res_add_metric(&r, "rate", "MB/s", VB_HIGHER);
		snprintf(r.headline, sizeof(r.headline), "rate");
		for (i = 0; i < 2; i++)
			vb_res_add_iter(&r)[0] = v[k][i];
		snprintf(path, sizeof(path), "%s/p/run%d/x.res", tu_dir, k + 1);
		ck_assert_int_eq(vb_res_save(path, &r, "complete"), 0);
		vb_res_free(&r);
	}
	/* built by make check: a make of it here would rebuild the tree
	   (.build-flags with tools/'s -Isrc/bench) under the other suites */
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "tools/precision %s/p",
	    tu_dir), 0);
	ck_assert_msg(strncmp(out, "x rate 3 9.09 12.86 2.12 ", 25) == 0 &&
	    strstr(out, " 10 11 12\n") != NULL, "tools/precision: '%s'", out);
}
END_TEST

/*
 * The objects of every program know their headers: make's database
 * (make -pq, nothing built) has the .d files' rules for boots' objects
 * too, read after mk/boots.mk added them, so touching src/boots/plan.h
 * or src/lib/ab.h rebuilds vmboots.o.
 */
START_TEST(boots_headers_known)
{
	static const char *const want[][2] = {
		{ "src/boots/vmboots.o:", "src/boots/plan.h" },
		{ "src/boots/vmboots.o:", "src/lib/ab.h" },
		{ "src/boots/plan.o:", "src/boots/plan.h" },
		{ "src/runner/vmrun.o:", "src/lib/ab.h" },
	};
	char out[512];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		rc = tu_sh_out(out, sizeof(out), "env -u MAKEFLAGS -u MFLAGS "
		    "-u MAKELEVEL make -pq .build-flags 2>/dev/null | grep "
		    "'^%s ' | tr ' ' '\\n' | grep -x '%s'", want[i][0],
		    want[i][1]);
		ck_assert_msg(rc == 0, "make does not know that %s needs %s",
		    want[i][0], want[i][1]);
		tu_assert_has(out, want[i][1]);
	}
}
END_TEST

/*
 * make bench-ltp where LTP's mmap001 cannot be had: tools/mmaptouch-vs-
 * ltp.sh says why in one line and exits 77 (skipped), which the target
 * takes as success, before it builds or measures anything (the work
 * folder stays empty).  No LTP_SRC, one that does not exist, a tree of
 * an LTP without mmap001.c (mmap21 in its place), a git folder that
 * never had it.
 */
START_TEST(ltp_skips)
{
	static const struct {
		const char *src, *want;
	} rows[] = {
		{ NULL, "bench-ltp: skipped: no LTP source (set LTP_SRC" },
		{ "/nonexistent", "bench-ltp: skipped: no LTP source at "
		    "/nonexistent (set LTP_SRC" },
		{ "tree", "/tree: no testcases/kernel/syscalls/mmap/mmap001.c "
		    "(LTP after 20250130 has mmap21 in its place" },
		{ "git", "/git: no testcases/kernel/syscalls/mmap/mmap001.c "
		    "in its history" },
	};
	char out[1024], src[512];
	size_t i;
	int rc;

	ck_assert_int_eq(tu_sh_in(tu_dir, "mkdir -p \"$T/w\" "
	    "\"$T/tree/testcases/kernel/mem\" \"$T/tree/lib\" && "
	    "git init -q \"$T/g\" && git -C \"$T/g\" -c user.name=t "
	    "-c user.email=t@t commit -q --allow-empty -m t && "
	    "mv \"$T/g/.git\" \"$T/git\" && rmdir \"$T/g\""), 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!rows[i].src)
			snprintf(src, sizeof(src), "(unset)");
		else if (rows[i].src[0] == '/')
			snprintf(src, sizeof(src), "%s", rows[i].src);
		else
			snprintf(src, sizeof(src), "%s/%s", tu_dir,
			    rows[i].src);
		rc = tu_sh_out(out, sizeof(out), "env -u LTP_SRC %s%s%s "
		    "VMBENCH_WORKDIR='%s/w' sh tools/mmaptouch-vs-ltp.sh "
		    "2>&1", rows[i].src ? "LTP_SRC='" : "", rows[i].src ?
		    src : "", rows[i].src ? "'" : "", tu_dir);
		ck_assert_msg(rc == 77, "LTP_SRC=%s: exit %d, not 77: %s",
		    src, rc, out);
		tu_assert_has(out, rows[i].want);
		ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1,
		    "LTP_SRC=%s: not one line: %s", src, out);
	}
	rc = tu_sh_out(out, sizeof(out), "env -u MAKEFLAGS -u MFLAGS "
	    "-u MAKELEVEL make -s -o all " BUILD_MODE " bench-ltp "
	    "LTP_SRC=/nonexistent VMBENCH_WORKDIR='%s/w' 2>&1", tu_dir);
	ck_assert_msg(rc == 0, "make bench-ltp, no source: exit %d: %s", rc,
	    out);
	tu_assert_has(out, "bench-ltp: skipped: no LTP source at /nonexistent");
	ck_assert_int_eq(tu_count_except(tu_dir, ""), 3);
	ck_assert_int_eq(tu_sh_in(tu_dir, "test -z \"$(ls -A \"$T/w\")\""),
	    0);
}
END_TEST

Suite *
make_suite(void)
{
	Suite *s = suite_create("make");
	TCase *tc = tu_tcase_local("values");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, make_values_are_text, 0, FLEET_GROUPS);
	tcase_add_test(tc, build_expands_no_value);
	tcase_add_test(tc, ab_needs_sides);
	tcase_add_test(tc, precision_figures);
	suite_add_tcase(s, tc);
	/* make fleet's values, beside: each case has its own tu_dir */
	tc = tu_tcase_local("fleet");
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, make_values_are_text, FLEET_GROUPS, NGROUPS);
	suite_add_tcase(s, tc);
	/* values with no meaning, refused before anything is made */
	tc = tu_tcase_local("bad");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, bad_values_refused);
	tcase_add_test(tc, boots_headers_known);
	tcase_add_test(tc, ltp_skips);
	suite_add_tcase(s, tc);
	return s;
}
