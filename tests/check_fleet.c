/*
 * make fleet (deploy/fleet.sh, deploy/fleet.yml): bad input gets one
 * line and runs nothing; with Ansible installed, two hosts that are both
 * this machine (ansible_connection=local, each in its own folder) run the
 * test config end to end, their folders land in RESULTS and make compare
 * reads them; an unreachable host and a label that exists fail alone,
 * as do two hosts given one label, each named in the summary, while the
 * local host's folder lands.  The Ansible tests are skipped, with one
 * line, when ansible-playbook is missing.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

/*
 * Run make with @args (NULL-terminated) from the source tree, output and
 * errors into @out (truncated first); its exit status, -1 if killed.
 */
static int
run_make(const char *out, const char *const *args)
{
	const char *argv[24];
	int n = 0, status, fd;
	pid_t pid;

	argv[n++] = "make";
	argv[n++] = "-s";
	while (*args && n < 23)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* not the enclosing make's jobserver or flags */
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp("make", (char *const *)argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The whole of file @path, NUL-terminated, malloc'ed ("" if absent). */
static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t len = 0, cap = 4096, got;

	buf = malloc(cap);
	ck_assert_ptr_nonnull(buf);
	if (f) {
		while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
			len += got;
			if (cap - len < 2) {
				cap *= 2;
				buf = realloc(buf, cap);
				ck_assert_ptr_nonnull(buf);
			}
		}
		fclose(f);
	}
	buf[len] = '\0';
	return buf;
}

/* The line of @text that contains both @a and @b, or NULL. */
static const char *
line_with(const char *text, const char *a, const char *b)
{
	static char line[1024];
	const char *p = text, *e;

	while (*p) {
		size_t n;

		e = strchr(p, '\n');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		if (strstr(line, a) && strstr(line, b))
			return line;
		if (!e)
			break;
		p = e + 1;
	}
	return NULL;
}

/* Lines of @text that start with @prefix. */
static int
count_lines(const char *text, const char *prefix)
{
	const char *p = text;
	int n = 0;

	while (*p) {
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			n++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

/* Bad input, one case per loop index: arguments and what the line says. */
static const struct {
	const char *args[4];
	const char *says;
} bad[] = {
	{ { "INVENTORY=" }, "INVENTORY=hosts.ini" },
	{ { "INVENTORY=@/none.ini" }, "none.ini': No such file" },
	{ { "INVENTORY=@/hosts.ini", "ANSIBLE_PLAYBOOK=@/no-ansible" },
	  "no-ansible: not found; install Ansible" },
	{ { "INVENTORY=@/hosts.ini", "CONFIG=configs/none.conf" },
	  "'configs/none.conf': No such file in the suite" },
	{ { "INVENTORY=@/hosts.ini", "CONFIG=/etc/passwd" },
	  "name a config inside the suite" },
	{ { "INVENTORY=@/hosts.ini", "MEM=1G x" }, "not a size" },
	{ { "INVENTORY=@/hosts.ini", "RESULTS=@/none" },
	  "none': No such directory" },
	{ { "INVENTORY=@/hosts.ini", "KERNEL=x" }, "KERNEL does not apply" },
};

START_TEST(fleet_bad_input)
{
	char args[4][512], out[512], inv[512], *text;
	const char *argv[6];
	int i, rc;

	/* a host that would be reached if anything ran */
	tu_write(inv, sizeof(inv), "hosts.ini",
	    "h ansible_host=192.0.2.1 ansible_port=1\n");
	argv[0] = "fleet";
	for (i = 0; i < 4 && bad[_i].args[i]; i++) {
		const char *a = bad[_i].args[i], *at = strchr(a, '@');

		if (at)
			snprintf(args[i], sizeof(args[i]), "%.*s%s%s",
			    (int)(at - a), a, tu_dir, at + 1);
		else
			snprintf(args[i], sizeof(args[i]), "%s", a);
		argv[i + 1] = args[i];
	}
	argv[i + 1] = NULL;
	rc = run_make(tu_path(out, sizeof(out), "out"), argv);
	text = slurp(out);
	ck_assert_msg(rc != 0, "make fleet %s: exit 0", argv[1]);
	ck_assert_msg(count_lines(text, "make fleet: ") == 1 &&
	    line_with(text, "make fleet: ", bad[_i].says),
	    "make fleet %s %s: wanted one line with \"%s\", got:\n%s",
	    argv[1], argv[2] ? argv[2] : "", bad[_i].says, text);
	ck_assert_msg(!strstr(text, "PLAY"), "ansible ran:\n%s", text);
	free(text);
}
END_TEST

/*
 * ansible-playbook on the PATH and a git checkout (the hosts get git
 * archive HEAD): else say the test is skipped.
 */
static int
have_ansible(const char *test)
{
	if (system("command -v ansible-playbook >/dev/null 2>&1") != 0) {
		fprintf(stderr, "fleet: %s skipped: ansible-playbook not "
		    "installed (apt-get install ansible)\n", test);
		return 0;
	}
	if (system("git rev-parse --git-dir >/dev/null 2>&1") != 0) {
		fprintf(stderr, "fleet: %s skipped: not a git checkout\n",
		    test);
		return 0;
	}
	return 1;
}

/* Write inventory @name in tu_dir from @fmt, its %s (up to 6) tu_dir. */
static char *
write_inventory(char *buf, size_t len, const char *name, const char *fmt)
{
	char text[2048];

	snprintf(text, sizeof(text), fmt, tu_dir, tu_dir, tu_dir, tu_dir,
	    tu_dir, tu_dir);
	return tu_write(buf, len, name, text);
}

START_TEST(fleet_two_local_hosts)
{
	char inv[512], res[512], out[512], arg[3][600], meta[600], *text;
	const char *argv[6];
	int rc;

	if (!have_ansible("fleet_two_local_hosts"))
		return;
	write_inventory(inv, sizeof(inv), "two.ini",
	    "[fleet]\n"
	    "alpha ansible_connection=local vmbench_label=fl-alpha "
	    "vmbench_dir=%s/alpha vmbench_poll=1\n"
	    "beta ansible_connection=local vmbench_label=fl-beta "
	    "vmbench_dir=%s/beta vmbench_poll=1\n");
	ck_assert_int_eq(mkdir(tu_path(res, sizeof(res), "res-two"), 0755),
	    0);
	snprintf(arg[0], sizeof(arg[0]), "INVENTORY=%s", inv);
	snprintf(arg[1], sizeof(arg[1]), "RESULTS=%s", res);
	argv[0] = "fleet";
	argv[1] = arg[0];
	argv[2] = arg[1];
	argv[3] = "CONFIG=configs/test.conf";
	argv[4] = NULL;
	rc = run_make(tu_path(out, sizeof(out), "out"), argv);
	text = slurp(out);
	ck_assert_msg(rc == 0, "make fleet: exit %d:\n%s", rc, text);
	ck_assert_msg(strstr(text, "make fleet: 2 host(s) ran, 0 failed") &&
	    line_with(text, "ran     alpha", "fl-alpha") &&
	    line_with(text, "ran     beta", "fl-beta"), "summary:\n%s", text);
	free(text);

	/* each folder is the host's own run */
	snprintf(meta, sizeof(meta), "%s/fl-alpha/meta", res);
	text = slurp(meta);
	ck_assert_msg(strstr(text, "label=fl-alpha\n") &&
	    strstr(text, "config=configs/test.conf\n") &&
	    !strstr(text, "vmbench_version=unknown"), "%s:\n%s", meta, text);
	free(text);
	snprintf(meta, sizeof(meta), "%s/fl-beta/forkbomb.res", res);
	ck_assert_msg(access(meta, F_OK) == 0, "no %s", meta);
	/* each host in its own copy */
	snprintf(meta, sizeof(meta), "%s/beta/results/fl-beta/meta", tu_dir);
	ck_assert_msg(access(meta, F_OK) == 0, "no %s", meta);
	snprintf(meta, sizeof(meta), "%s/alpha/results/fl-beta", tu_dir);
	ck_assert_msg(access(meta, F_OK) < 0, "%s exists", meta);

	/* the report reads the two fetched folders */
	snprintf(arg[2], sizeof(arg[2]), "KERNELS=fl-alpha fl-beta");
	argv[0] = "compare";
	argv[1] = arg[1];
	argv[2] = arg[2];
	argv[3] = NULL;
	rc = run_make(out, argv);
	text = slurp(out);
	ck_assert_msg(rc == 0 && strstr(text, "baseline fl-alpha") &&
	    strstr(text, "forkbomb"), "make compare: exit %d:\n%s", rc, text);
	free(text);
}
END_TEST

START_TEST(fleet_failed_hosts)
{
	char inv[512], res[512], out[512], arg[2][600], path[600], *text;
	const char *argv[6], *l;
	int rc;

	if (!have_ansible("fleet_failed_hosts"))
		return;
	write_inventory(inv, sizeof(inv), "failed.ini",
	    "here ansible_connection=local vmbench_label=fl-here "
	    "vmbench_dir=%s/here vmbench_poll=1\n"
	    "gone ansible_host=127.0.0.2 ansible_port=1 "
	    "ansible_connection=ssh\n"
	    "dup ansible_connection=local vmbench_label=fl-dup "
	    "vmbench_dir=%s/dup\n"
	    "twin1 ansible_connection=local vmbench_label=fl-twin "
	    "vmbench_dir=%s/twin1\n"
	    "twin2 ansible_connection=local vmbench_label=fl-twin "
	    "vmbench_dir=%s/twin2\n");
	ck_assert_int_eq(mkdir(tu_path(res, sizeof(res), "res-failed"), 0755),
	    0);
	ck_assert_int_eq(mkdir(tu_path(path, sizeof(path),
	    "res-failed/fl-dup"), 0755), 0);
	tu_write(path, sizeof(path), "res-failed/fl-dup/meta",
	    "label=fl-dup\n");
	snprintf(arg[0], sizeof(arg[0]), "INVENTORY=%s", inv);
	snprintf(arg[1], sizeof(arg[1]), "RESULTS=%s", res);
	argv[0] = "fleet";
	argv[1] = arg[0];
	argv[2] = arg[1];
	argv[3] = "CONFIG=configs/test.conf";
	argv[4] = "ITERATIONS=1";
	argv[5] = NULL;
	rc = run_make(tu_path(out, sizeof(out), "out"), argv);
	text = slurp(out);
	ck_assert_msg(rc != 0, "make fleet: exit 0:\n%s", text);
	ck_assert_msg(strstr(text, "make fleet: 1 host(s) ran, 4 failed") &&
	    line_with(text, "ran     here", "fl-here"), "summary:\n%s", text);
	l = line_with(text, "failed  gone", "unreachable: ");
	ck_assert_msg(l && strstr(l, "127.0.0.2"), "gone:\n%s", text);
	l = line_with(text, "failed  dup", "fl-dup exists; not overwritten");
	ck_assert_msg(l != NULL, "dup:\n%s", text);
	l = line_with(text, "failed  twin1", "'fl-twin' is also the label of");
	ck_assert_msg(l && strstr(l, "twin2"), "twin1:\n%s", text);
	ck_assert_msg(line_with(text, "failed  twin2", "also the label of "
	    "twin1"), "twin2:\n%s", text);
	free(text);

	/* the local host's folder landed; the existing one is as it was */
	snprintf(path, sizeof(path), "%s/fl-here/meta", res);
	ck_assert_msg(access(path, F_OK) == 0, "no %s", path);
	snprintf(path, sizeof(path), "%s/fl-dup", res);
	ck_assert_int_eq(tu_count_except(path, ""), 1);
	snprintf(path, sizeof(path), "%s/fl-dup/meta", res);
	text = slurp(path);
	ck_assert_str_eq(text, "label=fl-dup\n");
	free(text);
	/* and nothing ran for them */
	snprintf(path, sizeof(path), "%s/dup", tu_dir);
	ck_assert_msg(access(path, F_OK) < 0, "%s exists", path);
	snprintf(path, sizeof(path), "%s/twin1", tu_dir);
	ck_assert_msg(access(path, F_OK) < 0, "%s exists", path);
}
END_TEST

Suite *
fleet_suite(void)
{
	Suite *s = suite_create("fleet");
	TCase *tc = tcase_create("input");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, fleet_bad_input, 0,
	    (int)(sizeof(bad) / sizeof(bad[0])));
	suite_add_tcase(s, tc);

	/* each builds the suite in a fresh copy per host: a minute or two */
	tc = tcase_create("ansible");
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, fleet_two_local_hosts);
	tcase_add_test(tc, fleet_failed_hosts);
	suite_add_tcase(s, tc);
	return s;
}
