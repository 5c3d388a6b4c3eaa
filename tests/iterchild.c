/*
 * iterchild.c - a benchmark whose run() reports what its iteration child
 * looks like, for tests/check_harness.c: the harness's .exec_run (see
 * src/lib/harness.h) must give run() a process that carries nothing of the
 * harness (no setup() state, no shared mapping, only the figures pipe
 * open beside stdio) and keeps what the harness relies on (its own
 * process group, SIGKILL at the parent's death, SIGPIPE's default
 * action on a pipe without a reader, the work folder, the iteration
 * number), and its .fixed_layout (ADDR_NO_RANDOMIZE in its personality).
 * --say N prints N lines on stdout and stderr from run().
 *
 * With --other, a mode (src/lib/harness.h): its own figure and headline,
 * reported by the exec'd child, which must pick the same mode.
 *
 *	tests/iterchild [--fail] [--other | -o] [--say N] [harness options]
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "msg.h"

struct cfg {
	int fail;
	int other;
	uint64_t say;
};

static const struct vb_opt opts[] = {
	{ .name = "fail", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, fail), .help = "die() in run()" },
	{ .name = "other", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, other), .letter = 'o',
	  .help = "the other mode" },
	{ .name = "say", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, say), .def = "0", .min = 0,
	  .max = 100000, .help = "print N lines on stdout and stderr" },
	{ 0 },
};

static const struct vb_metric metrics[] = {
	{ "setup_seen", "flag", VB_INFO, "1 if run() sees setup()'s memory",
	  0 },
	{ "shared_maps", "maps", VB_INFO, "shared mappings of the process", 0 },
	{ "open_fds", "fds", VB_INFO, "open file descriptors", 0 },
	{ "pdeathsig", "signal", VB_INFO, "PR_GET_PDEATHSIG", 0 },
	{ "own_pgrp", "flag", VB_INFO, "1 if the process leads its group", 0 },
	{ "sigpipe_kills", "flag", VB_INFO, "1 if a write to a pipe without "
	  "a reader ends a process by SIGPIPE", 0 },
	{ "workdir_ok", "flag", VB_INFO, "1 if the work folder exists", 0 },
	{ "iter", "number", VB_INFO, "the iteration number", 0 },
	{ "no_randomize", "flag", VB_INFO, "1 if /proc/self/personality has "
	  "ADDR_NO_RANDOMIZE", 0 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

static const struct vb_metric other_metrics[] = {
	{ "other_iter", "number", VB_INFO, "the iteration number", 1 },
	{ NULL, NULL, VB_INFO, NULL, 0 },
};

static const struct vb_mode modes[] = {
	{ "other", other_metrics, "other_iter" },
	{ 0 },
};

static int set_up;	/* set by setup(), in the harness */

static int
setup(void *cfg, const char *workdir)
{
	(void)cfg;
	(void)workdir;
	set_up = 1;
	return 0;
}

/* Lines of /proc/self/maps whose permissions say shared ("rw-s"). */
static double
shared_maps(void)
{
	char line[512], perm[8];
	FILE *f = fopen("/proc/self/maps", "r");
	int n = 0;

	if (!f)
		die_errno("cannot open /proc/self/maps");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %7s", perm) == 1 && perm[3] == 's')
			n++;
	fclose(f);
	return n;
}

/* Entries of /proc/self/fd, less the one reading it. */
static double
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		die_errno("cannot open /proc/self/fd");
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

/*
 * Does a write to a pipe whose reader is gone end a process forked
 * here by SIGPIPE, as in a plain program?
 */
static double
sigpipe_kills(void)
{
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) < 0)
		die_errno("cannot create a pipe");
	close(fds[0]);
	if ((pid = fork()) < 0)
		die_errno("cannot fork");
	if (pid == 0) {
		if (write(fds[1], "x", 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (waitpid(pid, &status, 0) != pid)
		die_errno("waitpid");
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE;
}

/* Is ADDR_NO_RANDOMIZE in /proc/self/personality (hex)? */
static double
no_randomize(void)
{
	FILE *f = fopen("/proc/self/personality", "r");
	unsigned long pers = 0;
	int n;

	if (!f)
		die_errno("cannot open /proc/self/personality");
	n = fscanf(f, "%lx", &pers);
	fclose(f);
	if (n != 1)
		die("/proc/self/personality: not a hexadecimal number");
	return (pers & ADDR_NO_RANDOMIZE) != 0;
}

static int
run(void *p, struct vb_iter *it)
{
	struct cfg *c = p;
	uint64_t i;
	int sig = 0;

	if (c->fail)
		die("failing as asked");
	for (i = 0; i < c->say; i++) {
		printf("line %llu of what run() says on stdout\n",
		    (unsigned long long)i + 1);
		fprintf(stderr, "line %llu of what run() says on stderr\n",
		    (unsigned long long)i + 1);
	}
	fflush(stdout);
	if (c->other) {
		vb_report(it, "other_iter", vb_iter_num(it));
		return 0;
	}
	prctl(PR_GET_PDEATHSIG, &sig);
	vb_report(it, "setup_seen", set_up);
	vb_report(it, "shared_maps", shared_maps());
	vb_report(it, "open_fds", open_fds());
	vb_report(it, "pdeathsig", sig);
	vb_report(it, "own_pgrp", getpgrp() == getpid());
	vb_report(it, "sigpipe_kills", sigpipe_kills());
	vb_report(it, "workdir_ok", access(vb_iter_workdir(it), W_OK) == 0);
	vb_report(it, "iter", vb_iter_num(it));
	vb_report(it, "no_randomize", no_randomize());
	return 0;
}

static const struct vb_bench iterchild = {
	.name = "iterchild",
	.summary = "report what the iteration child looks like",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.metrics = metrics,
	.modes = modes,
	.setup = setup,
	.run = run,
	.exec_run = 1,
	.fixed_layout = 1,
};

VB_MAIN(iterchild)
