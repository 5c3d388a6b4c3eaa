/*
 * check_fleet.c - make fleet (deploy/fleet.sh, deploy/fleet.yml): bad
 * input gets one line and runs nothing; with Ansible installed, two hosts
 * that are both this machine (ansible_connection=local, each in its own
 * folder) run the test config end to end, their folders land in RESULTS
 * and make compare reads them; an unreachable host and a label that exists
 * fail alone, as do two hosts given one label, each named in the summary,
 * while the local host's folder lands.  An inventory without hosts is
 * refused before Ansible runs.  SIGINT and SIGHUP print the line that says
 * how to fetch the runs, and they, like a closed output, leave no staging
 * folder; a closed output does not end Ansible (a stand-in for it that
 * stops at a closed output goes to its end).  make fleet-fetch brings back
 * a host's existing folder and refuses the others (none, one a run holds,
 * one that exists here).  The Ansible tests are skipped (tu_skip(), counted
 * by the runner) when ansible-playbook is missing; the bad input needs no
 * Ansible.
 */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

/*
 * Start make with @args (NULL-terminated) from the source tree, output
 * and errors into @out (truncated first), in a process group of its own
 * with the default action for SIGINT and SIGHUP; its pid.
 */
static pid_t
start_make(const char *out, const char *const *args)
{
	const char *argv[24];
	int n = 0, fd;
	pid_t pid;

	argv[n++] = "make";
	argv[n++] = "-s";
	while (*args && n < 23)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* not the enclosing make's jobserver or flags */
		unsetenv("MAKEFLAGS");
		unsetenv("MFLAGS");
		unsetenv("MAKELEVEL");
		/*
		 * make fleet's hosts build unoptimized (a third of the CPU:
		 * only the flow is tested here; make fleet itself builds
		 * nothing, unlike make compare, whose CFLAGS would rebuild
		 * this tree), and Ansible sends each module down one pipe
		 * instead of through a temporary file
		 */
		if (strcmp(argv[2], "fleet") == 0)
			setenv("CFLAGS", "-O0", 1);
		setenv("ANSIBLE_PIPELINING", "1", 1);
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp("make", (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Wait for make @pid; its exit status, -1 if killed. */
static int
wait_make(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * Run make with @args (NULL-terminated) from the source tree, output and
 * errors into @out (truncated first); its exit status, -1 if killed.
 */
static int
run_make(const char *out, const char *const *args)
{
	return wait_make(start_make(out, args));
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

/* The end of @text, short enough for a failure message. */
static const char *
tail_of(const char *text)
{
	size_t n = strlen(text);

	return n > 1500 ? text + n - 1500 : text;
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

/*
 * Each refused before Ansible would run: with no Ansible installed, an
 * ansible-playbook that says PLAY stands in for it (a case that names
 * its own keeps it), so the checks are tested on any machine.
 */
START_TEST(fleet_bad_input)
{
	char args[5][600], out[512], inv[512], stub[512], *text;
	const char *argv[7];
	int i, rc, own = 0;

	if (strstr(bad[_i].says, "No such file in the suite") &&
	    tu_sh_in(NULL, "git rev-parse --git-dir >/dev/null 2>&1") != 0) {
		tu_skip("not a git checkout: the config is looked up in git");
		return;
	}
	/* a host that would be reached if anything ran */
	tu_write(inv, sizeof(inv), "hosts.ini",
	    "h ansible_host=192.0.2.1 ansible_port=1\n");
	tu_write(stub, sizeof(stub), "ansible-playbook",
	    "#!/bin/sh\necho PLAY \"$@\"\nexit 1\n");
	ck_assert_int_eq(chmod(stub, 0755), 0);
	argv[0] = "fleet";
	for (i = 0; i < 4 && bad[_i].args[i]; i++) {
		const char *a = bad[_i].args[i], *at = strchr(a, '@');

		if (at)
			snprintf(args[i], sizeof(args[i]), "%.*s%s%s",
			    (int)(at - a), a, tu_dir, at + 1);
		else
			snprintf(args[i], sizeof(args[i]), "%s", a);
		own |= strncmp(a, "ANSIBLE_PLAYBOOK=", 17) == 0;
		argv[i + 1] = args[i];
	}
	if (!own) {
		snprintf(args[i], sizeof(args[i]), "ANSIBLE_PLAYBOOK=%s", stub);
		argv[i + 1] = args[i];
		i++;
	}
	argv[i + 1] = NULL;
	rc = run_make(tu_path(out, sizeof(out), "out"), argv);
	text = tu_slurp_ok("%s", out);
	ck_assert_msg(rc != 0, "make fleet %s: exit 0", argv[1]);
	ck_assert_msg(count_lines(text, "make fleet: ") == 1 &&
	    line_with(text, "make fleet: ", bad[_i].says),
	    "make fleet %s %s: wanted one line with \"%s\", got:\n%s",
	    argv[1], argv[2] ? argv[2] : "", bad[_i].says, text);
	ck_assert_msg(!strstr(text, "PLAY"), "ansible ran:\n%s", tail_of(text));
	free(text);
}
END_TEST

/*
 * ansible-playbook on the PATH and a git checkout (the hosts get git
 * archive HEAD): else the test is skipped (the caller returns).
 */
static int
have_ansible(void)
{
	if (!tu_have("ansible-playbook")) {
		tu_skip("ansible-playbook not installed (apt-get install "
		    "ansible)");
		return 0;
	}
	if (tu_sh_in(NULL, "git rev-parse --git-dir >/dev/null 2>&1") != 0) {
		tu_skip("not a git checkout");
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

/*
 * One make fleet over two local hosts that run and four that fail
 * (unreachable, a label that exists here, two hosts with one label):
 * one playbook run, since each run builds the suite once per host.
 */
START_TEST(fleet_hosts)
{
	char inv[512], res[512], out[512], arg[3][600], path[600], *text;
	const char *argv[6], *l;
	int rc;

	if (!have_ansible())
		return;
	write_inventory(inv, sizeof(inv), "hosts.ini",
	    "[fleet]\n"
	    "alpha ansible_connection=local vmbench_label=fl-alpha "
	    "vmbench_dir=%s/alpha vmbench_poll=1\n"
	    "beta ansible_connection=local vmbench_label=fl-beta "
	    "vmbench_dir=%s/beta vmbench_poll=1\n"
	    "gone ansible_host=127.0.0.2 ansible_port=1 "
	    "ansible_connection=ssh\n"
	    "dup ansible_connection=local vmbench_label=fl-dup "
	    "vmbench_dir=%s/dup\n"
	    "twin1 ansible_connection=local vmbench_label=fl-twin "
	    "vmbench_dir=%s/twin1\n"
	    "twin2 ansible_connection=local vmbench_label=fl-twin "
	    "vmbench_dir=%s/twin2\n");
	ck_assert_int_eq(mkdir(tu_path(res, sizeof(res), "res-hosts"), 0755),
	    0);
	ck_assert_int_eq(mkdir(tu_path(path, sizeof(path),
	    "res-hosts/fl-dup"), 0755), 0);
	tu_write(path, sizeof(path), "res-hosts/fl-dup/meta",
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
	text = tu_slurp_ok("%s", out);
	ck_assert_msg(rc != 0, "make fleet: exit 0:\n%s", tail_of(text));
	ck_assert_msg(strstr(text, "make fleet: 2 host(s) ran, 4 failed") &&
	    line_with(text, "ran     alpha", "fl-alpha") &&
	    line_with(text, "ran     beta", "fl-beta"), "summary:\n%s",
	    tail_of(text));
	l = line_with(text, "failed  gone", "unreachable: ");
	ck_assert_msg(l && strstr(l, "127.0.0.2"), "gone:\n%s", tail_of(text));
	l = line_with(text, "failed  dup", "fl-dup exists; not overwritten");
	ck_assert_msg(l != NULL, "dup:\n%s", tail_of(text));
	l = line_with(text, "failed  twin1", "'fl-twin' is also the label of");
	ck_assert_msg(l && strstr(l, "twin2"), "twin1:\n%s", tail_of(text));
	ck_assert_msg(line_with(text, "failed  twin2", "also the label of "
	    "twin1"), "twin2:\n%s", tail_of(text));
	free(text);

	/* each folder is the host's own run */
	snprintf(path, sizeof(path), "%s/fl-alpha/run1/meta", res);
	text = tu_slurp_ok("%s", path);
	ck_assert_msg(strstr(text, "label=fl-alpha\n") &&
	    strstr(text, "config=configs/test.conf\n") &&
	    !strstr(text, "vmbench_version=unknown"), "%s:\n%s", path, text);
	free(text);
	snprintf(path, sizeof(path), "%s/fl-beta/run1/forkbomb.res", res);
	ck_assert_msg(access(path, F_OK) == 0, "no %s", path);
	/* each host in its own copy */
	snprintf(path, sizeof(path), "%s/beta/results/fl-beta/run1/meta",
	    tu_dir);
	ck_assert_msg(access(path, F_OK) == 0, "no %s", path);
	snprintf(path, sizeof(path), "%s/alpha/results/fl-beta", tu_dir);
	ck_assert_msg(access(path, F_OK) < 0, "%s exists", path);

	/* the existing folder is as it was, and nothing ran for it */
	snprintf(path, sizeof(path), "%s/fl-dup", res);
	ck_assert_int_eq(tu_count_except(path, ""), 1);
	snprintf(path, sizeof(path), "%s/fl-dup/meta", res);
	text = tu_slurp_ok("%s", path);
	ck_assert_str_eq(text, "label=fl-dup\n");
	free(text);
	snprintf(path, sizeof(path), "%s/dup", tu_dir);
	ck_assert_msg(access(path, F_OK) < 0, "%s exists", path);
	snprintf(path, sizeof(path), "%s/twin1", tu_dir);
	ck_assert_msg(access(path, F_OK) < 0, "%s exists", path);

	/* the report reads the two fetched folders */
	snprintf(arg[2], sizeof(arg[2]), "KERNELS=fl-alpha fl-beta");
	argv[0] = "compare";
	argv[1] = arg[1];
	argv[2] = arg[2];
	argv[3] = NULL;
	rc = run_make(out, argv);
	text = tu_slurp_ok("%s", out);
	ck_assert_msg(rc == 0 && strstr(text, "baseline fl-alpha") &&
	    strstr(text, "forkbomb"), "make compare: exit %d:\n%s", rc, text);
	free(text);
}
END_TEST

/*
 * Inventories with no host in them: an empty file, and a group with its
 * variables and no host.
 */
static const char *const empty_inv[] = {
	"",
	"# the fleet, to come\n[fleet]\n\n[fleet:vars]\nvmbench_poll=1\n",
};

/*
 * Each inventory without hosts is refused, by one make fleet: the first
 * as INVENTORY, the other as a second -i in FLEET_OPTS (each file an
 * inventory source of its own, as when given alone), so that Ansible,
 * a second of CPU to start, starts once for both; a host in either
 * would be a host of the fleet.
 */
START_TEST(fleet_empty_inventory)
{
	char inv[2][512], out[512], arg[3][600], *text;
	const char *argv[5];
	int rc;

	if (!have_ansible())
		return;
	tu_write(inv[0], sizeof(inv[0]), "empty.ini", empty_inv[0]);
	tu_write(inv[1], sizeof(inv[1]), "group.ini", empty_inv[1]);
	snprintf(arg[0], sizeof(arg[0]), "INVENTORY=%s", inv[0]);
	snprintf(arg[1], sizeof(arg[1]), "RESULTS=%s", tu_dir);
	snprintf(arg[2], sizeof(arg[2]), "FLEET_OPTS=-i %s", inv[1]);
	argv[0] = "fleet";
	argv[1] = arg[0];
	argv[2] = arg[1];
	argv[3] = arg[2];
	argv[4] = NULL;
	rc = run_make(tu_path(out, sizeof(out), "out"), argv);
	text = tu_slurp_ok("%s", out);
	ck_assert_msg(rc == 2, "make fleet: exit %d:\n%s", rc, tail_of(text));
	ck_assert_msg(count_lines(text, "make fleet: ") == 1 &&
	    line_with(text, "make fleet: inventory '", "': no hosts in it"),
	    "inventories \"%s\" and \"%s\": wanted one line, got:\n%s",
	    empty_inv[0], empty_inv[1], text);
	ck_assert_msg(!strstr(text, "PLAY"), "ansible ran:\n%s", tail_of(text));
	free(text);
}
END_TEST

/* The signals that stop make fleet, by the name it prints. */
static const struct {
	int sig;
	const char *name;
} stops[] = { { SIGINT, "INT" }, { SIGHUP, "HUP" } };

/*
 * A signal to the whole of make fleet (Ctrl-C, a closed terminal) while
 * Ansible waits on a host (an ssh that hangs): one line says the runs go
 * on and how to fetch them, and the staging folder is gone.
 */
START_TEST(fleet_signal)
{
	char inv[512], ssh[512], tmp[512], out[512], arg[3][600], want[1400];
	char name[16], *text;
	const char *argv[6];
	pid_t pid;
	int i, rc;

	if (!have_ansible())
		return;
	tu_write(ssh, sizeof(ssh), "hang-ssh", "#!/bin/sh\nexec sleep 60\n");
	ck_assert_int_eq(chmod(ssh, 0755), 0);
	write_inventory(inv, sizeof(inv), "hang.ini",
	    "hang ansible_host=127.0.0.1 ansible_connection=ssh "
	    "ansible_ssh_executable=%s/hang-ssh\n");
	snprintf(name, sizeof(name), "tmp-%s", stops[_i].name);
	ck_assert_int_eq(mkdir(tu_path(tmp, sizeof(tmp), name), 0755), 0);
	snprintf(arg[0], sizeof(arg[0]), "INVENTORY=%s", inv);
	snprintf(arg[1], sizeof(arg[1]), "RESULTS=%s", tu_dir);
	snprintf(arg[2], sizeof(arg[2]), "TMPDIR=%s", tmp);
	argv[0] = "fleet";
	argv[1] = arg[0];
	argv[2] = arg[1];
	argv[3] = arg[2];
	argv[4] = NULL;
	pid = start_make(tu_path(out, sizeof(out), "out"), argv);
	/* the staging folder made, then Ansible at the host */
	for (i = 0; i < 600 && tu_count_except(tmp, "") < 1; i++)
		usleep(100000);
	ck_assert_msg(i < 600, "no staging folder in %s", tmp);
	sleep(3);
	ck_assert_int_eq(kill(-pid, stops[_i].sig), 0);
	rc = wait_make(pid);
	text = tu_slurp_ok("%s", out);
	ck_assert_msg(rc != 0, "make fleet: exit 0 after SIG%s:\n%s",
	    stops[_i].name, tail_of(text));
	snprintf(want, sizeof(want), "make fleet: stopped by SIG%s; the runs "
	    "already started go on on their hosts", stops[_i].name);
	ck_assert_msg(line_with(text, want, "fetch them: make fleet-fetch "
	    "INVENTORY="), "SIG%s: no line \"%s\":\n%s", stops[_i].name,
	    want, tail_of(text));
	snprintf(want, sizeof(want), "make fleet-fetch %s %s", arg[0],
	    arg[1]);
	ck_assert_msg(strstr(text, want), "no \"%s\":\n%s", want,
	    tail_of(text));
	ck_assert_msg(tu_count_except(tmp, "") == 0,
	    "SIG%s: the staging folder is left in %s", stops[_i].name, tmp);
	free(text);
}
END_TEST

/* A closed output (make fleet | head -n 1) leaves no staging folder. */
START_TEST(fleet_closed_output)
{
	char inv[512], tmp[512];
	int rc;

	if (!have_ansible())
		return;
	tu_write(inv, sizeof(inv), "gone.ini",
	    "gone ansible_host=127.0.0.2 ansible_port=1 "
	    "ansible_connection=ssh\n");
	ck_assert_int_eq(mkdir(tu_path(tmp, sizeof(tmp), "tmp-closed"), 0755),
	    0);
	rc = tu_sh_in(NULL, "unset MAKEFLAGS MFLAGS MAKELEVEL; "
	    "make -s fleet INVENTORY='%s' RESULTS='%s' TMPDIR='%s' 2>&1 | "
	    "head -n 1 >/dev/null", inv, tu_dir, tmp);
	ck_assert_msg(rc == 0, "make fleet | head -n 1: status %d", rc);
	ck_assert_msg(tu_count_except(tmp, "") == 0,
	    "the staging folder is left in %s", tmp);
}
END_TEST

/*
 * A closed output does not end Ansible: with a stand-in for
 * ansible-playbook that, like Ansible, stops at a write to a closed
 * output, make fleet | head -n 1 lets it write on after head is gone
 * and go to its end, and the host's folder it "fetched" lands.
 */
START_TEST(fleet_closed_output_goes_on)
{
	char pb[512], inv[512], tmp[512], res[512], mark[512], path[600];
	char cmd[4096];
	int rc;

	if (system("git rev-parse --git-dir >/dev/null 2>&1") != 0) {
		tu_skip("not a git checkout");
		return;
	}
	tu_path(mark, sizeof(mark), "ended");
	snprintf(cmd, sizeof(cmd), "#!/bin/sh\nset -e\n"
	    "case \" $* \" in *' --list-hosts '*)\n"
	    "printf 'playbook: deploy/fleet.yml\\n\\n  play #1 (all): run\\n"
	    "    pattern: [all]\\n    hosts (1):\\n      h1\\n'; exit 0;; esac\n"
	    "i=0; while [ $i -lt 100 ]; do echo \"TASK $i\"; i=$((i+1)); "
	    "done\n"
	    "sleep 2\n"
	    "echo 'a task after the reader is gone'\n"
	    "echo 'a warning after the reader is gone' >&2\n"
	    "mkdir \"$VB_FLEET_STAGE/fl-x\"\n"
	    "echo label=fl-x >\"$VB_FLEET_STAGE/fl-x/meta\"\n"
	    "tar -czf \"$VB_FLEET_STAGE/fetch/fl-x.tar.gz\" -C "
	    "\"$VB_FLEET_STAGE\" fl-x\n"
	    "printf 'h1\\tok\\tfl-x\\t/d\\t\\n' >>\"$VB_FLEET_STAGE/status\"\n"
	    ": >'%s'\n", mark);
	tu_write(pb, sizeof(pb), "fake-playbook", cmd);
	ck_assert_int_eq(chmod(pb, 0755), 0);
	tu_write(inv, sizeof(inv), "one.ini", "h1\n");
	ck_assert_int_eq(mkdir(tu_path(tmp, sizeof(tmp), "tmp-goes-on"),
	    0755), 0);
	ck_assert_int_eq(mkdir(tu_path(res, sizeof(res), "res-goes-on"),
	    0755), 0);
	snprintf(cmd, sizeof(cmd), "unset MAKEFLAGS MFLAGS MAKELEVEL; "
	    "make -s fleet INVENTORY='%s' RESULTS='%s' TMPDIR='%s' "
	    "ANSIBLE_PLAYBOOK='%s' 2>&1 | head -n 1 >/dev/null", inv, res,
	    tmp, pb);
	rc = system(cmd);
	ck_assert_msg(rc != -1 && WIFEXITED(rc), "%s: status %d", cmd, rc);
	ck_assert_msg(access(mark, F_OK) == 0, "the playbook was ended by "
	    "the closed output");
	snprintf(path, sizeof(path), "%s/fl-x/meta", res);
	ck_assert_msg(access(path, F_OK) == 0, "no %s: the host's folder "
	    "did not land", path);
	ck_assert_msg(tu_count_except(tmp, "") == 0,
	    "the staging folder is left in %s", tmp);
}
END_TEST

/*
 * make fleet-fetch: each host's existing folder comes back, once; no
 * folder, a folder a run holds (vmrun's flock) and one that exists here
 * are refused, each in its line; nothing is removed on the hosts.  With
 * FLEET_OPTS=--limit, the summary is that of the hosts it names.
 */
START_TEST(fleet_fetch)
{
	char inv[512], res[512], out[512], arg[2][600], path[600], *text;
	const char *argv[5];
	int rc, fd;

	if (!have_ansible())
		return;
	write_inventory(inv, sizeof(inv), "fetch.ini",
	    "one ansible_connection=local vmbench_label=ff-one "
	    "vmbench_dir=%s/f-one\n"
	    "none ansible_connection=local vmbench_label=ff-none "
	    "vmbench_dir=%s/f-none\n"
	    "held ansible_connection=local vmbench_label=ff-held "
	    "vmbench_dir=%s/f-held\n"
	    "here ansible_connection=local vmbench_label=ff-here "
	    "vmbench_dir=%s/f-here\n");
	tu_fake("f-one/results/ff-one/meta",
	    "vmbench_meta=1\nlabel=ff-one\nstatus=complete\n");
	tu_fake("f-one/results/ff-one/forkbomb.res", "fetched\n");
	tu_fake("f-none/results/ff-other/meta", "label=ff-other\n");
	tu_fake("f-held/results/ff-held/meta",
	    "vmbench_meta=1\nlabel=ff-held\nstatus=running\n");
	tu_fake("f-held/results/.ff-held.lock", "1\n");
	tu_fake("f-here/results/ff-here/meta", "label=ff-here\n");
	tu_fake("res-fetch/ff-here/meta", "the local copy\n");
	tu_path(res, sizeof(res), "res-fetch");
	/* the run that holds ff-held: its lock, as vmrun takes it */
	fd = open(tu_path(path, sizeof(path), "f-held/results/.ff-held.lock"),
	    O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), 0);

	snprintf(arg[0], sizeof(arg[0]), "INVENTORY=%s", inv);
	snprintf(arg[1], sizeof(arg[1]), "RESULTS=%s", res);
	argv[0] = "fleet-fetch";
	argv[1] = arg[0];
	argv[2] = arg[1];
	argv[3] = NULL;
	rc = run_make(tu_path(out, sizeof(out), "out"), argv);
	text = tu_slurp_ok("%s", out);
	ck_assert_msg(rc != 0, "make fleet-fetch: exit 0:\n%s", tail_of(text));
	ck_assert_msg(strstr(text, "make fleet-fetch: 1 host(s) fetched, "
	    "3 failed") && line_with(text, "fetched one", "ff-one (status "
	    "complete) -> ") && line_with(text, "failed  none",
	    "nothing to fetch: no ") && line_with(text, "failed  held",
	    "ff-held: a run still holds it") && line_with(text,
	    "failed  here", "ff-here exists; not overwritten, nothing "
	    "fetched"), "summary:\n%s", tail_of(text));
	free(text);
	snprintf(path, sizeof(path), "%s/ff-one/forkbomb.res", res);
	text = tu_slurp_ok("%s", path);
	ck_assert_str_eq(text, "fetched\n");
	free(text);
	snprintf(path, sizeof(path), "%s/ff-here/meta", res);
	text = tu_slurp_ok("%s", path);
	ck_assert_str_eq(text, "the local copy\n");
	free(text);
	ck_assert_int_eq(tu_count_except(res, ""), 2);
	/* the hosts keep their copies, and nothing was run or copied */
	snprintf(path, sizeof(path), "%s/f-one/results/ff-one/meta", tu_dir);
	ck_assert_msg(access(path, F_OK) == 0, "%s removed", path);
	snprintf(path, sizeof(path), "%s/f-one/suite", tu_dir);
	ck_assert_msg(access(path, F_OK) < 0, "%s made", path);

	/* the run ended: its folder comes back, that host alone asked */
	close(fd);
	argv[3] = "FLEET_OPTS=--limit held";
	argv[4] = NULL;
	rc = run_make(out, argv);
	text = tu_slurp_ok("%s", out);
	ck_assert_msg(rc == 0 && strstr(text, "make fleet-fetch: 1 host(s) "
	    "fetched, 0 failed") && line_with(text, "fetched held",
	    "ff-held (status running) -> ") && !strstr(text, "\n  failed  "),
	    "fetch --limit held: exit %d:\n%s", rc, tail_of(text));
	free(text);
	snprintf(path, sizeof(path), "%s/ff-held/meta", res);
	ck_assert_msg(access(path, F_OK) == 0, "no %s", path);
}
END_TEST

Suite *
fleet_suite(void)
{
	Suite *s = suite_create("fleet");
	TCase *tc = tu_tcase_local("input");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, fleet_bad_input, 0,
	    (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, fleet_empty_inventory);
	suite_add_tcase(s, tc);

	/* each builds the suite in a fresh copy per host: a minute or two */
	tc = tu_tcase_slow("ansible");
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, fleet_hosts);
	tcase_add_loop_test(tc, fleet_signal, 0,
	    (int)(sizeof(stops) / sizeof(stops[0])));
	tcase_add_test(tc, fleet_closed_output);
	tcase_add_test(tc, fleet_closed_output_goes_on);
	tcase_add_test(tc, fleet_fetch);
	suite_add_tcase(s, tc);
	return s;
}
