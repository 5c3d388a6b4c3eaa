/*
 * makesim.h - the modules of makesim (a simulated parallel kernel build
 * with contest's background loads), shared by src/bench/makesim/makesim.c and the
 * Check tests:
 *
 *	tree.c		the synthetic source tree: plan (pure arithmetic
 *			from a seed) and writing it to disk
 *	sched.c		make's job slots over a dependency graph
 *	job.c		what one compile, archive or link job does
 *	load.c		contest's background loads
 *	ratio.c		contest's Ratio (loaded time / no_load time)
 *
 * Every non-static symbol starts with makesim_ (types with ms_).
 */
#ifndef VB_MAKESIM_H
#define VB_MAKESIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* ---- deterministic pseudo-random numbers (splitmix64) ---- */

static inline uint64_t
makesim_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* ---- the source tree ---- */

struct ms_unit {
	uint32_t dir;		/* index into dirs */
	uint32_t nhdr;
	uint32_t *hdr;		/* header indices, sorted, distinct */
	uint64_t size;		/* bytes of the .c file */
};

struct ms_tree {
	uint64_t seed;
	uint32_t nunits, ndirs, nhdrs;
	struct ms_unit *units;	/* ordered by directory */
	uint32_t *dir_first;	/* ndirs + 1: units of dir d are */
				/* [dir_first[d], dir_first[d + 1]) */
	uint64_t *hdr_size;
	uint64_t src_bytes, hdr_bytes;
};

/*
 * Plan a tree of @nunits .c files (sizes log-normal, median about 9 KB,
 * like a 2.5-era kernel tree's), about 12 per directory, with nunits/5
 * shared headers (at least 8), each unit including 6 to 40 of them, the
 * popular ones more often.  Pure arithmetic on @seed: the same seed gives
 * the same tree.  0, or -1 when out of memory.
 */
int makesim_tree_plan(struct ms_tree *t, uint32_t nunits, uint64_t seed);
void makesim_tree_free(struct ms_tree *t);
/* Paths under the tree root (no leading slash). */
char *makesim_unit_path(const struct ms_tree *t, uint32_t u, const char *ext,
    char *buf, size_t len);
char *makesim_hdr_path(const struct ms_tree *t, uint32_t h, char *buf,
    size_t len);
char *makesim_dir_path(const struct ms_tree *t, uint32_t d, char *buf,
    size_t len);
/*
 * Write the planned tree under @root (created if missing): include/ and
 * one folder per directory, C-looking text derived from the seed.  0, or
 * -1 with a one-line message in @err.
 */
int makesim_tree_write(const struct ms_tree *t, const char *root, char *err,
    size_t errlen);

/* ---- make's job slots ---- */

struct ms_job {
	const char *name;	/* for messages: "CC drivers/d012/u0001.o" */
	uint32_t ndeps;
	const uint32_t *deps;	/* jobs that must finish first */
};

/* Runs job @j in a forked child; its return value is the exit status. */
typedef int (*ms_job_fn)(uint32_t j, void *arg);

struct ms_sched {
	/* in */
	uint32_t njobs;
	const struct ms_job *jobs;
	uint32_t slots;		/* make -jN */
	ms_job_fn fn;
	void *arg;
	/* out */
	uint32_t started, finished;
	uint32_t max_running;
	char err[256];		/* why the build failed */
};

/*
 * Run every job, at most @slots at once, each only after all its deps
 * finished successfully; ready jobs start in index order, as make walks
 * its prerequisites.  When a job fails, no new job starts, the running
 * ones are waited for (make's "Waiting for unfinished jobs") and the
 * build fails.  0, or -1 with the reason in s->err ("CC x.o: exit
 * status 1", "dependency cycle", "cannot fork: ...").
 */
int makesim_sched_run(struct ms_sched *s);

/* ---- the jobs ---- */

struct ms_build {
	const struct ms_tree *tree;
	const char *root;		/* tree root */
	uint64_t ws_base, ws_per_kb, ws_max;	/* working set, bytes */
	uint64_t ops_per_kb;		/* CPU work per KB of source */
	uint32_t njobs;			/* units + dirs + 1 (link) */
	struct ms_job *jobs;
	uint32_t *depbuf;
	char *namebuf;
};

/* Build the graph: units, then one archive per dir, then the link. */
int makesim_build_init(struct ms_build *b, const struct ms_tree *t,
    const char *root);
void makesim_build_free(struct ms_build *b);
/* The ms_job_fn of a build (arg: the struct ms_build). */
int makesim_build_job(uint32_t j, void *arg);
/* Remove the outputs of a previous build (make clean). */
void makesim_build_clean(const struct ms_build *b);
/* Working set of a compile of @size bytes of source. */
uint64_t makesim_ws_bytes(const struct ms_build *b, uint64_t size);
/*
 * The deterministic CPU work of @ops operations over @ws (@words 64-bit
 * words: a cache line written every 64 operations, sweeping in order,
 * and a pseudo-random word every 4096, so the working set stays in use
 * as cc1's does).  Returns a digest.
 */
uint64_t makesim_cpu_work(uint64_t ops, uint64_t *ws, uint64_t words,
    uint64_t seed);

/* ---- contest's loads ---- */

enum ms_load_kind {
	MS_NO_LOAD, MS_CACHERUN, MS_PROCESS_LOAD, MS_IO_LOAD, MS_READ_LOAD,
	MS_MEM_LOAD, MS_LIST_LOAD, MS_DBENCH_LOAD, MS_NLOADS
};

/* "no_load|cacherun|..." for option tables and messages. */
extern const char makesim_load_choices[];
/* The kind named @name, or -1. */
int makesim_load_kind(const char *name);
const char *makesim_load_name(enum ms_load_kind k);

struct ms_load {
	/* set before makesim_load_prepare() */
	enum ms_load_kind kind;
	char dir[4096];		/* private folder for the load's files */
	uint64_t size;		/* io/read file, mem_load bytes */
	uint32_t nproc;		/* process_load ring, dbench clients */
	const char *list_root;	/* list_load */
	const char *fileload;	/* dbench_load: path of bench/fileload */
	const char *loadfile;	/* dbench_load: --loadfile, or NULL */
	uint32_t dbench_secs;	/* dbench_load: --time of one run */
	/* state */
	pid_t leader;
	uint64_t t0;
	/*
	 * A shared page: [0] iterations completed, [1] the wait status + 1
	 * of the first worker that ended on its own (0: none)
	 */
	volatile uint64_t *count;
	double oom0_sys, oom0_cg;	/* oom_kill counters at the start */
	/* results of makesim_load_stop() */
	double loads;		/* iterations completed */
	double secs;		/* wall time it ran */
	double cpu_s;		/* user + sys of the load's processes */
	double lcpu;		/* cpu_s / secs * 100 */
};

/* Create the load's folder and files (read_load's file).  0 or -1. */
int makesim_load_prepare(struct ms_load *l, char *err, size_t errlen);
/* Fork the load's processes; 0, or -1 with a message. */
int makesim_load_start(struct ms_load *l, char *err, size_t errlen);
/*
 * Stop the load (SIGTERM, then SIGKILL after 10 s), reap it, fill in
 * loads, secs, cpu_s, lcpu and remove its per-iteration files.  0, or -1
 * when the load had failed on its own (the message in @err, naming how
 * its worker ended: its exit status, its signal, or the OOM killer when
 * the memory cgroup's or the system's oom_kill counter rose meanwhile).
 */
int makesim_load_stop(struct ms_load *l, char *err, size_t errlen);
/* Remove the load's folder (after the last iteration). */
void makesim_load_cleanup(struct ms_load *l);
/*
 * The size of an io/read/mem load: @base (the memory limit, or MemTotal)
 * times @pct/100, capped at @cap (0: no cap).
 */
uint64_t makesim_load_bytes(uint64_t base, double pct, uint64_t cap);

/* ---- contest's Ratio ---- */

struct ms_ratio {
	double ratio;		/* mean(load) / mean(base) */
	double lo, hi;		/* 95% interval (Welch on logarithms); */
				/* NAN when fewer than 2 runs a side */
};

/*
 * Ratio of the mean build time under a load (@t, @n runs) to the same
 * kernel's no_load mean (@base, @nb runs).  0, or -1 when a side has no
 * runs or a time is not positive.
 */
int makesim_ratio(const double *t, size_t n, const double *base, size_t nb,
    struct ms_ratio *out);

#endif
