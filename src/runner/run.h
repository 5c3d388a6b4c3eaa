/*
 * run.h - what the runner's modules share: the options (struct opts),
 * a side (one result folder: struct side) and the context of the run
 * (struct run_ctx), which main makes and passes, as a pointer, to every
 * function that reads or changes it, as fio passes its thread_data.
 *
 *	vmrun.c      main: options, checks, the plan
 *	line.c       one config line: the program, its log, its cause
 *	companion.c  the program beside a benchmark (with=NAME)
 *	abrun.c      make ab: two settings, interleaved
 *	runs.c       the runs of a label (RESULTS/LABEL/runN/)
 *	machine.c    locks, the machine record, the limit, teardown
 */
#ifndef VB_RUNNER_RUN_H
#define VB_RUNNER_RUN_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "config.h"
#include "knob.h"
#include "label.h"
#include "quiet.h"
#include "res.h"
#include "memlimit.h"
#include "meta.h"
#include "state.h"
#include "swapfile.h"

/* The pairs a run adds to every meta, and those of an A/B side. */
#define RN_EXTRA	32
#define RN_AB_PAIRS	6

struct opts {
	const char *kernel;
	const char *config;
	const char *results;
	uint64_t iterations;
	int force;
	const char *workdir;
	const char *mem;
	const char *swap;
	const char *set_a;
	const char *set_b;
	const char *label_a;
	const char *label_b;
	const char *order;
	const char *warmup;
	const char *runs;
	const char *cpus;
	const char *quiet;
	const char *quiet_wait;
	int clean_stale;
	int help;
};

/* One side of an A/B run (or the only one of a plain run). */
struct side {
	char dir[PATH_MAX];
	const char *label;
	char *settings;			/* meta lines, once in force */
	char desc[1024];		/* "thp=never" */
	struct vb_kv ab[RN_AB_PAIRS];	/* the side's own: ab_setting, ... */
	int nab;
	struct vb_kv extra[RN_EXTRA + RN_AB_PAIRS];	/* meta's, in order */
	int nextra;
	int failed;
	int made;			/* this run made the folder */
	int written;			/* meta exists: die() marks it */
	/* under MEM=: the cgroup's peak (kB) and limit hits on this side */
	double peak_kb;
	uint64_t hits;
	char peak_s[32], hits_s[32];
};

/* The runs of a label: results/<label>/runN/ (docs/results.md). */
struct run_runs {
	char dir[PATH_MAX];		/* results/<label> */
	int resfd;			/* results/, checked (safedir.h) */
	int flat;			/* one run at its top (meta): moved */
	int last;			/* the highest N of its runN/ */
	int first;			/* this call's first run */
	int empty;			/* the highest empty runN/ above last */
	int made;			/* this call made the label's folder */
	int n;				/* --runs */
	int failed;			/* runs before the last that failed */
	char boot_id[64], uptime[32];
};

/* Everything a run holds, from main to its end. */
struct run_ctx {
	char bindir[PATH_MAX - 64];	/* where the programs are */
	char workdir[PATH_MAX];
	char start[32];
	struct vb_meta_in meta;
	struct vb_kv extra[RN_EXTRA];	/* the run's pairs: rn_extra_add() */
	int nextra;
	struct vb_memlimit lim;		/* --mem */
	struct vb_swapfile swp;		/* --swap */
	char lim_desc[4200], swp_desc[4200], mem_h[32], peak[64], hits[32];
	struct vb_state state;		/* what to undo after a SIGKILL */
	struct vb_knobs knobs;		/* make ab's settings */
	int append;			/* A/B: add to the side's results */
	char ours[64];			/* VMBENCH_OURS: vmrun, companion */
	/* the with= companion while it runs: its name, .res, slot or not */
	char companion[VB_NAMELEN + 1];
	char companion_res[PATH_MAX + 300];
	int companion_slot;
	char slot[1200];		/* A/B: "A 1/6 (thp=never)" */
	int ab_line;			/* A/B: the line under way, or -1 */
	int warmup;			/* A/B: a discarded run of each line */
	const struct vb_conf *conf;	/* A/B: its config */
	struct vb_label_lock lk[2];	/* results/.<label>.lock, held */
	char statedir[4096];		/* the state files (state.h) */
	struct vb_machine mach;		/* the machine lock, when held */
	struct vb_machine seen;		/* the machine record at the start */
	char beside[2048];		/* runs seen beside this one */
	struct side *sd;		/* the result folders (one, or A, B) */
	int nside;
	char **cause;			/* per line: why it failed, or NULL,
					   in the side under way's causes */
	char **causes[2];		/* each side's */
	char *now;			/* the cause of the program running */
	char *appends;			/* per line: --append (1), or not (2) */
	struct run_runs rn;		/* the runs of the label */
	/* --quiet: the wait before each run, and its meta's values */
	double quiet_pct, quiet_max_s;	/* quiet_pct 0: no wait */
	struct vb_quiet_text quiet;	/* the wait's meta values */
};

#define RUN_CTX_INIT { .lk = { { .fd = -1 }, { .fd = -1 } }, \
	.mach = { .fd = -1 }, .ab_line = -1, .rn = { .n = 1, .resfd = -1 } }

/* Set by the signal handler (vmrun.c), read by every module. */
extern volatile sig_atomic_t stop_signal;
extern volatile pid_t running_pid;	/* the benchmark under way */
extern volatile pid_t companion_pid;	/* the with= companion */

/* vmrun.c */
void rn_on_signal(int sig);

/* line.c */
char * rn_prog_path(struct run_ctx *ctx, const char *name, char *buf,
    size_t len);
void rn_enter_limit(struct run_ctx *ctx, pid_t runner, int sig);
void rn_mark_status(const char *path, const char *status, int complete);
void rn_validate(struct run_ctx *ctx, const struct vb_conf *c);
int rn_run_line(struct run_ctx *ctx, const char *dir, const struct vb_conf *c,
    int idx, int iterations, uint64_t t0);
void rn_line_status(struct run_ctx *ctx, const struct vb_conf *c, int i, int k,
    const char *status, int running);
void rn_cut_short(struct run_ctx *ctx, const struct vb_conf *c, int i,
    const char *status);
int rn_line_iterations(const struct vb_conf *c, int i, const struct opts *o);
void rn_summary(struct run_ctx *ctx, const char *dir, const struct vb_conf *c);
pid_t rn_spawn(struct run_ctx *ctx, char **argv, const char *logp, int sig,
    void (*setup)(void *), void *arg, sigset_t *held);

/* companion.c */
/*
 * Line @l's companion (with=NAME[:PROFILE]): NAME into @name, and its
 * profile ("" without one), or NULL when the line has none.
 */
const char *rn_companion_of(const struct vb_conf_line *l, char *name,
    size_t len);
/* Dies unless NAME's --help declares it a companion taking PROFILE. */
void rn_companion_check(struct run_ctx *ctx, const struct vb_conf *c,
    const struct vb_conf_line *l);
/* Its results' name beside line @label: "NAME@LABEL" into @buf. */
char *rn_companion_name(const struct vb_conf_line *l, char *buf, size_t len,
    const char *label);
pid_t rn_start_companion(struct run_ctx *ctx, const char *dir,
    const char *name, const char *label, const char *profile);
int rn_stop_companion(struct run_ctx *ctx, const char *dir, const char *label);
int rn_merge_slot(const char *dir, const char *name);

/* abrun.c */
int rn_run_ab(struct run_ctx *ctx, const struct vb_conf *c,
    const struct opts *o, struct side *sd, uint64_t t0);

/* runs.c */
void rn_run_facts(struct run_ctx *ctx);
void rn_runs_check(struct run_ctx *ctx, const struct side *sd,
    const struct opts *o);
void rn_runs_folder(struct run_ctx *ctx, struct side *sd, const struct opts *o);
int rn_run_plain(struct run_ctx *ctx, const struct vb_conf *c,
    const struct opts *o, struct side *sd, uint64_t t0);
void rn_runs_say(struct run_ctx *ctx, const struct side *sd);
void rn_quiet_wait(struct run_ctx *ctx);

/* machine.c */
int rn_teardown(struct run_ctx *ctx);
int rn_side_meta(struct run_ctx *ctx, struct side *sd, const char *status,
    int ended, int quiet);
void rn_unmake_sides(struct run_ctx *ctx);
void rn_unlock_label(struct run_ctx *ctx);
void rn_lock_label(struct run_ctx *ctx, int k, const char *results,
    const char *label);
void rn_machine_what(char *buf, size_t len, const struct side *sd, int nside,
    int ab, const struct opts *o);
void rn_machine_begin(struct run_ctx *ctx, int changes, const char *what,
    const char *results);
int rn_machine_end(struct run_ctx *ctx, struct side *sd, int nside);
void rn_machine_next(struct run_ctx *ctx);
void rn_make_limit(struct run_ctx *ctx, uint64_t mem, uint64_t swap);
char * rn_settings_now(struct run_ctx *ctx);
uint64_t rn_limit_hits(struct run_ctx *ctx);
void rn_limit_after(struct run_ctx *ctx, struct side *sd, uint64_t before,
    const char *label);
void rn_state_result(struct run_ctx *ctx, int k, const char *dir);
void rn_state_lock(struct run_ctx *ctx, int k, const char *results);
void rn_die_hook(struct run_ctx *ctx);
void rn_extra_add(struct run_ctx *ctx, const char *key, const char *val);
void rn_ab_add(struct side *sd, const char *key, const char *val);

#endif
