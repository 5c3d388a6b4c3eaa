/*
 * res.h - the result file (<bench>[@variant].res): writer and strict
 * reader, shared by the benchmarks, the runner and the report.
 *
 * The format is line-oriented text, readable by awk and gnuplot:
 *
 *	vmbench-result 1
 *	bench forkbomb
 *	variant default
 *	cmdline forkbomb --forks 10000 --ints 10000
 *	param forks 10000
 *	param ints 10000
 *	status complete
 *	started 2026-12-01T00:20:07Z
 *	ended 2026-12-01T00:20:31Z
 *	note vmstat series incomplete: sampler died (signal 9) at iteration 2
 *	headline forks_per_s
 *	metric elapsed s lower
 *	metric forks_per_s forks/s higher
 *	key elapsed forks_per_s
 *	work forks 0
 *	iter 1 2.5012 3998.1
 *	iter 2 2.4873 4020.4
 *	end
 *
 * The header lines come in that order (param: zero or more; note and
 * headline optional, at most one each; note is free text to the end of
 * the line: what went wrong around the measurement, such as a vmstat
 * series cut short, while the iterations themselves are sound); "metric NAME UNIT DIR" lines (DIR is lower, higher or info:
 * which way is better) fix the columns; an optional "key NAME..." line
 * after them names the metrics the benchmark declares key (the report's
 * default view shows them beside the headline and elapsed, user, sys,
 * majflt, pswpin, pswpout), each a metric of the file, at most once;
 * an optional "work NAME TOL..." line after it names the metrics that
 * are the benchmark's amount of work (bytes filled, forks made), each
 * with the relative difference in % up to which two results count as
 * the same work (0: exactly equal); the report does not compare a
 * benchmark's other figures between results whose work differs;
 * "iter N v1 v2 ..." lines hold
 * every iteration's raw values in that column order, "-" for a value
 * that was not measured (a counter this kernel lacks); "end" closes the
 * file, so a truncated file is detected.  '#' lines and blank lines are
 * comments.  status is complete, interrupted (Ctrl-C, SIGTERM: the
 * iterations kept are whole ones), failed (an iteration failed) or
 * running (the program was killed before it could say; read as
 * interrupted).
 *
 * awk:     awk '$1 == "iter" { s += $3 } END { print s / NR }'
 * gnuplot: plot "< grep ^iter forkbomb.res" using 2:4
 */
#ifndef VB_RES_H
#define VB_RES_H

#include <stddef.h>

#define VB_RES_VERSION 1
#define VB_NAMELEN 64

enum vb_dir { VB_LOWER, VB_HIGHER, VB_INFO };

struct vb_res_metric {
	char name[VB_NAMELEN];
	char unit[24];
	enum vb_dir dir;
	int key;		/* named on the "key" line */
	int work;		/* named on the "work" line */
	double work_tol;	/* its tolerance, % (0: exact) */
};

struct vb_res_param {
	char *key;
	char *val;
};

struct vb_res {
	char bench[VB_NAMELEN];
	char variant[VB_NAMELEN];	/* "default" when none */
	char *cmdline;
	int nparams;
	struct vb_res_param *params;
	char status[16];
	char started[32];
	char ended[32];
	char *note;			/* NULL when none */
	char headline[VB_NAMELEN];	/* "" when none */
	int nmetrics;
	struct vb_res_metric *metrics;
	int metrics_room;		/* metrics allocated by
					   vb_res_add_metric(); 0: nmetrics */
	int niter;
	double *vals;			/* niter x nmetrics; NAN: absent */
};

/* Start an empty result (metrics added with vb_res_add_metric()). */
void vb_res_init(struct vb_res *r, const char *bench, const char *variant);
void vb_res_free(struct vb_res *r);
void vb_res_set_cmdline(struct vb_res *r, const char *cmdline);
void vb_res_add_param(struct vb_res *r, const char *key, const char *val);
/* Returns the new column's index. */
int vb_res_add_metric(struct vb_res *r, const char *name, const char *unit,
    enum vb_dir dir);
/* Mark column @m key (1) or not (0): the "key" line. */
void vb_res_set_key(struct vb_res *r, int m, int key);
/*
 * Mark column @m a figure of the amount of work, equal within @tol_pct
 * percent (0: exactly): the "work" line.
 */
void vb_res_set_work(struct vb_res *r, int m, double tol_pct);
/* Append an iteration; returns a row of nmetrics NANs to fill in. */
double *vb_res_add_iter(struct vb_res *r);
/*
 * Append @src's iterations to @dst: the same benchmark, variant,
 * command line and metrics, else -1 (nothing appended).  @src's note
 * comes first in @dst's, each "; "-separated part once.
 */
int vb_res_append(struct vb_res *dst, const struct vb_res *src);
/* Column of metric @name, or -1. */
int vb_res_metric_index(const struct vb_res *r, const char *name);
/* Value of parameter @key, or NULL. */
const char *vb_res_param(const struct vb_res *r, const char *key);
/* Value at iteration @i (0-based) of column @m. */
double vb_res_get(const struct vb_res *r, int i, int m);
const char *vb_dir_name(enum vb_dir d);

/*
 * Write @r to @path atomically (a temporary file renamed over it), so a
 * reader never sees half a file.  0, or -1 with errno set.
 */
int vb_res_write(const char *path, const struct vb_res *r);
/*
 * Set @r's status (and its end time, unless "running") and write it.
 * When the write fails and the status is final, the file written last
 * is marked failed in place (vb_res_mark()), so that it does not stay
 * "running".  0, or -1 with errno set (of the write).
 */
int vb_res_save(const char *path, struct vb_res *r, const char *status);
/*
 * Replace the word "running" of @path's status line by @status (at most
 * as long), in place: no new block is needed, so it works on a full
 * file system.  0, or -1 with errno set.
 */
int vb_res_mark(const char *path, const char *status);
/*
 * Append "; "-separated text to @r's note (one line); text that is
 * already one of its parts is not added again.
 */
void vb_res_add_note(struct vb_res *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * Replace @path by @len bytes of @buf atomically (a temporary file
 * renamed over it).  When the file system is full (ENOSPC, EDQUOT), the
 * existing file is rewritten in place instead, if the blocks it already
 * holds are enough.  0, or -1 with errno set.
 */
int vb_file_replace(const char *path, const char *buf, size_t len);
/*
 * Read and validate @path strictly.  0 on success; -1 with
 * "file:line: what is wrong" in @err.  @r is freed on failure.
 */
int vb_res_read(const char *path, struct vb_res *r, char *err,
    size_t errlen);

#endif
