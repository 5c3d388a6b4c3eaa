/*
 * bars.h - ASCII bar charts in the manner of Hron's posts (bars.c),
 * for the text report and the post.  Below it: model and fmt.
 */
#ifndef VB_BARS_H
#define VB_BARS_H

#include <stdio.h>

#include "model.h"

/*
 * One row per label, best first (largest first, or smallest first when
 * @ascending), the label left-justified, a row of '*' scaled so the
 * largest fills @width, the value with @unit.  Labels without a value
 * (NaN) come last as "missing".  @title, when not NULL, heads it.
 */
void bars_print(FILE *f, const char *title, int n, const char *const *labels,
    const double *vals, const char *unit, int width, int ascending);
/* The chart of row @r's means, one bar per kernel, best first. */
void bars_headline(FILE *f, const struct rl_set *s,
    const struct model_row *r, int width);

#endif
