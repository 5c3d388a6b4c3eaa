/*
 * export.h - every statistic as CSV or JSON (views/export.c: vmreport
 * --format csv|json, --what).  A view's header is vmreport.c's (see
 * views/text.h).
 */
#ifndef VB_VIEW_EXPORT_H
#define VB_VIEW_EXPORT_H

#if defined(VR_LAYER) && !defined(VR_VIEW_EXPORT)
#error "views/export.h is vmreport.c's: a view never includes another view"
#endif

#include <stdio.h>

#include "model.h"
#include "options.h"

/*
 * The exports' format version: "format_version" in JSON's top level,
 * the last column of each CSV table.  Raised when a column or key is
 * renamed or removed or changes its meaning; a new one leaves it.
 */
#define EXPORT_FORMAT_VERSION 1

/* --what: the CSV's tables, in the order of export_what_of()'s names. */
enum export_what { EXPORT_METRICS, EXPORT_SETTINGS, EXPORT_SUMMARY };

/* "metrics", "settings" or "summary": its enum export_what, else -1. */
int export_what_of(const char *name);
/* One row per kernel, benchmark and metric (--what metrics). */
void export_csv(FILE *f, const struct model *m, const struct report_opts *o);
/* The settings that differ and each folder's machine (--what settings). */
void export_csv_settings(FILE *f, const struct model *m,
    const struct report_opts *o);
/* The geometric mean of each kernel's time-like ratios (--what summary). */
void export_csv_summary(FILE *f, const struct model *m,
    const struct report_opts *o);
/*
 * The metrics table's columns (export.c's EXPORT_COLUMNS, the CSV's
 * order): how many, and column @i's name (NULL past the end), its JSON
 * key into *@jname and into *@in_json 'K' (in each kernel's entry of
 * a metric), 'M' (in the metric's object) or 0 (not in the metric's
 * objects); either pointer may be NULL.
 */
int export_ncolumns(void);
const char *export_column(int i, const char **jname, int *in_json);
/* All of it in one object. */
void export_json(FILE *f, const struct model *m,
    const struct report_opts *o);

#endif
