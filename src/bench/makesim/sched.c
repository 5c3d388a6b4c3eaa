/*
 * sched.c - make's job slots over a dependency graph.
 *
 * As GNU make -jN: at most N jobs (child processes) run at once; a job
 * starts only when every prerequisite has finished successfully; jobs
 * that are ready start in the order they were declared (make walks the
 * prerequisites left to right); when a job fails, nothing new starts,
 * the jobs already running are waited for, and the build fails.
 *
 * The scheduler is the parent of every job and reaps them with wait4(),
 * so the process that runs it accumulates the whole build's rusage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "makesim.h"

struct slot {
	pid_t pid;
	uint32_t job;
};

/* Describe how a job ended, into s->err. */
static void
job_failed(struct ms_sched *s, uint32_t j, int status)
{
	const char *name = s->jobs[j].name ? s->jobs[j].name : "job";

	if (WIFSIGNALED(status))
		snprintf(s->err, sizeof(s->err), "%s: killed by signal %d "
		    "(%s)%s", name, WTERMSIG(status),
		    strsignal(WTERMSIG(status)), WTERMSIG(status) == SIGKILL ?
		    "; out of memory? (see oom_kill in the results)" : "");
	else
		snprintf(s->err, sizeof(s->err), "%s: exit status %d", name,
		    WEXITSTATUS(status));
}

int
makesim_sched_run(struct ms_sched *s)
{
	uint32_t n = s->njobs, i, k, head = 0, tail = 0, running = 0;
	uint32_t *waiting = calloc(n ? n : 1, sizeof(uint32_t));
	uint32_t *nrdep = calloc(n ? n : 1, sizeof(uint32_t));
	uint32_t *rdep_first = calloc((size_t)n + 1, sizeof(uint32_t));
	uint32_t *rdep = NULL, *ready = calloc(n ? n : 1, sizeof(uint32_t));
	struct slot *slots = calloc(s->slots ? s->slots : 1, sizeof(*slots));
	size_t ndeps = 0;
	int failed = 0, rc = -1;

	s->started = s->finished = s->max_running = 0;
	s->err[0] = '\0';
	if (!waiting || !nrdep || !rdep_first || !ready || !slots) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		goto out;
	}
	if (s->slots == 0) {
		snprintf(s->err, sizeof(s->err), "no job slots");
		goto out;
	}
	/* reverse edges: who waits for job i */
	for (i = 0; i < n; i++) {
		for (k = 0; k < s->jobs[i].ndeps; k++) {
			uint32_t d = s->jobs[i].deps[k];

			if (d >= n) {
				snprintf(s->err, sizeof(s->err), "%s: depends "
				    "on job %u of %u", s->jobs[i].name, d, n);
				goto out;
			}
			nrdep[d]++;
		}
		waiting[i] = s->jobs[i].ndeps;
		ndeps += s->jobs[i].ndeps;
	}
	rdep = calloc(ndeps ? ndeps : 1, sizeof(uint32_t));
	if (!rdep) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		rdep_first[i + 1] = rdep_first[i] + nrdep[i];
	memset(nrdep, 0, n * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		for (k = 0; k < s->jobs[i].ndeps; k++) {
			uint32_t d = s->jobs[i].deps[k];

			rdep[rdep_first[d] + nrdep[d]++] = i;
		}
	for (i = 0; i < n; i++)
		if (waiting[i] == 0)
			ready[tail++] = i;

	while (s->finished < n) {
		struct rusage ru;
		int status;
		pid_t pid;

		/* fill the free slots with ready jobs, in order */
		while (!failed && running < s->slots && head < tail) {
			uint32_t j = ready[head++];

			fflush(NULL);
			pid = fork();
			if (pid < 0) {
				snprintf(s->err, sizeof(s->err), "%s: cannot "
				    "fork: %s", s->jobs[j].name,
				    strerror(errno));
				failed = 1;
				break;
			}
			if (pid == 0) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				_exit(s->fn(j, s->arg) & 0xff);
			}
			for (k = 0; slots[k].pid; k++)
				;
			slots[k].pid = pid;
			slots[k].job = j;
			running++;
			s->started++;
			if (running > s->max_running)
				s->max_running = running;
		}
		if (running == 0) {
			if (!failed)
				snprintf(s->err, sizeof(s->err), "dependency "
				    "cycle: %u of %u jobs cannot start",
				    n - s->finished, n);
			goto out;
		}
		pid = wait4(-1, &status, 0, &ru);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			snprintf(s->err, sizeof(s->err), "wait: %s",
			    strerror(errno));
			goto out;
		}
		for (k = 0; k < s->slots && slots[k].pid != pid; k++)
			;
		if (k == s->slots)
			continue;	/* not one of ours */
		slots[k].pid = 0;
		running--;
		i = slots[k].job;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			if (!failed)
				job_failed(s, i, status);
			failed = 1;
			continue;
		}
		s->finished++;
		for (k = rdep_first[i]; k < rdep_first[i + 1]; k++)
			if (--waiting[rdep[k]] == 0)
				ready[tail++] = rdep[k];
	}
	rc = 0;
out:
	free(waiting);
	free(nrdep);
	free(rdep_first);
	free(rdep);
	free(ready);
	free(slots);
	return rc;
}
