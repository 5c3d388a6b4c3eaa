/*
 * metric.h - a figure a benchmark (or the cgroup scope) reports: its
 * name, unit, which way is better, and whether it is a key figure.
 * Apart from harness.h so that the modules below the harness (scope)
 * can name figures without including the top of the library.
 */
#ifndef VB_METRIC_H
#define VB_METRIC_H

#include "res.h"		/* enum vb_dir */

/* A figure the benchmark reports itself. */
struct vb_metric {
	const char *name;	/* [a-z0-9_], unique */
	const char *unit;	/* "forks/s", "MB/s", "us" */
	enum vb_dir dir;	/* which way is better */
	const char *desc;	/* one line, for --help */
	/*
	 * 1: a key figure, shown by the report's default view (written on
	 * the .res file's "key" line); the others only with --detail.
	 */
	int key;
};

#endif
