/*
 * text.h - the text report (views/text.c): make compare's view (the
 * settings, each benchmark's comparison table and notes, the forms, the
 * summary) and --summary's kernel-per-row tables.
 *
 * A view's header is vmreport.c's (and the tests'): in any other report
 * file (VR_LAYER, which the Makefile defines for them) it compiles only
 * in its own view, so that no view calls another.
 */
#ifndef VB_VIEW_TEXT_H
#define VB_VIEW_TEXT_H

#if defined(VR_LAYER) && !defined(VR_VIEW_TEXT)
#error "views/text.h is vmreport.c's: a view never includes another view"
#endif

#include <stdio.h>

#include "model.h"
#include "options.h"

/* The whole comparison (make compare), every benchmark. */
void text_compare(FILE *f, const struct model *m,
    const struct report_opts *o);
/*
 * --summary: the settings, the machine's load, then one row per kernel
 * of each benchmark's headline figure, and the geometric means.
 */
void text_summary(FILE *f, const struct model *m,
    const struct report_opts *o);

#endif
