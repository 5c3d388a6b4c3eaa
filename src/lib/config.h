/*
 * config.h - suite definitions (configs/NAME.conf).
 *
 * Plain text, one benchmark invocation a line:
 *
 *	# the quick suite
 *	iterations 3			suite-wide iteration count
 *	forkbomb --forks 10000 --ints 10000
 *	forkbomb@big --forks 1000000 --ints 1000 iterations=1
 *	memfill --percent 80 --write with=probe
 *
 * A line is "BENCH[@VARIANT] [--option value ...] [key=value ...]".
 * Words of the form key=value (a lower-case key, no leading dash) are
 * runner directives, not benchmark options (an option value of that
 * shape must be joined to its option: --opt=key=value): iterations=N
 * overrides the count for that line, with=PROGRAM runs a companion (the
 * probe) beside it; the runner rejects keys it does not know.  '#' starts a comment;
 * double quotes group words.  Names are [A-Za-z0-9_.-]; the result files
 * are <bench>[@variant].res, and a bench that appears twice needs
 * distinct variants.  Parsing takes any such name; the runner then
 * accepts only the benchmarks built here (src/runner/benchlist.h).
 * Read by vmrun and vmboots (which counts a suite's iterations).
 *
 * Bounds: a config is a regular file of at most VB_CONF_MAXSIZE bytes,
 * with lines of at most VB_CONF_MAXLINE bytes, words of at most 4095
 * and at most VB_CONF_MAXLINES benchmark lines; anything else is refused
 * in one line before it is read further.
 */
#ifndef VB_CONFIG_H
#define VB_CONFIG_H

#include <stddef.h>

#include "kv.h"

#define VB_CONF_MAXSIZE (1 << 20)
#define VB_CONF_MAXLINE 8192
#define VB_CONF_MAXLINES 1000

struct vb_conf_line {
	int lineno;
	char *bench;
	char *variant;		/* NULL when none */
	int argc;		/* benchmark options */
	char **argv;
	int iterations;		/* 0: the suite's */
	int ndirs;		/* directives other than iterations= */
	struct vb_kv *dirs;
};

struct vb_conf {
	char *path;
	int iterations;		/* "iterations N"; 0 when not given */
	int nlines;
	struct vb_conf_line *lines;
};

/* Parse @path; -1 with "file:line: what is wrong" in @err. */
int vb_conf_read(const char *path, struct vb_conf *c, char *err,
    size_t errlen);
/* The same from a string (@name used in messages). */
int vb_conf_parse(const char *name, const char *text, struct vb_conf *c,
    char *err, size_t errlen);
void vb_conf_free(struct vb_conf *c);
/*
 * The iterations @c runs in all: each line's iterations=, else the
 * suite's "iterations N", else 1.
 */
int vb_conf_iterations(const struct vb_conf *c);
/* Value of directive @key on @l, or NULL. */
const char *vb_conf_dir(const struct vb_conf_line *l, const char *key);
/* "bench" or "bench@variant" into @buf. */
char *vb_conf_label(const struct vb_conf_line *l, char *buf, size_t len);

#endif
