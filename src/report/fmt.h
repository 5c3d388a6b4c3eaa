/*
 * fmt.h - how the report writes numbers and fits text to a width
 * (fmt.c), shared by every view so that a figure reads the same
 * everywhere.  Below it only rload.h (the labels' width).
 */
#ifndef VB_FMT_H
#define VB_FMT_H

#include <stddef.h>
#include <stdio.h>

#include "rload.h"

/*
 * @v with printf format @fmt (one double), "-" when it is NaN or
 * infinite, %.4g from 1e15 up (a %f of 1e300 would be 300 digits).
 */
char *fmt_num(char *buf, size_t len, const char *fmt, double v);
/* @v in a few characters, LMbench style: 1.23 45.6 789 1.2K 3.4M 5.6G. */
char *fmt_short(char *buf, size_t len, double v);
/*
 * A table's value: @dec decimals, fewer (then an exponent) to stay
 * within 9 characters; "0" for zero, "-" when not finite; a value that
 * is not zero is never shown as one (1e-300: "1.00e-300", not
 * "0.0000").
 */
char *fmt_value(char *buf, size_t len, double v, int dec);
/*
 * As fmt_value(), but a figure of a fixed precision (a CoV in percent,
 * two decimals) rounds to zero as printf rounds it: "0.00".
 */
char *fmt_fixed(char *buf, size_t len, double v, int dec);
/*
 * A change in at most 8 characters: "+3.02%", "+1234.5%", ">+9999%", or
 * "n/a" (NaN).
 */
char *fmt_pct(char *buf, size_t len, double p);
/*
 * @v as printf's "%.10g" prints it (the exports' numbers), into @buf of
 * at least FMT_G10_LEN bytes; most values without printf's cost.
 */
#define FMT_G10_LEN 32
char *fmt_g10(char *buf, double v);
/* Print @s cut to @w columns, left- or right-aligned. */
void fmt_cell(FILE *f, const char *s, int w, int left);
/* Print @text wrapped at @width, continuation lines indented by @ind. */
void fmt_wrap(FILE *f, const char *text, int width, int ind);
/*
 * Label @k of @labels (@n of them) in at most @w columns, into @buf:
 * as it is when it fits, else its start, "..", and its end.  Every
 * label of the set is cut at the same place, the one that keeps the
 * most of the end that still tells two different labels apart (more
 * of the end, then more of the start); when none does, the cut ends
 * in "#" and the label's place in the set.
 */
const char *fmt_cut(char *buf, size_t len, const char *const *labels, int n,
    int k, int w);
/* fmt_cut() of kernel @k's label among @s's. */
const char *fmt_label(char *buf, size_t len, const struct rl_set *s, int k,
    int w);
/* A label column: the longest label + 2, at least @min, at most 24. */
int fmt_label_width(const struct rl_set *s, int min);

#endif
