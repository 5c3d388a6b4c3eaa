/*
 * export.h - every statistic as CSV or JSON (views/export.c: vmreport
 * --format csv|json).  A view's header is vmreport.c's (see
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

void export_csv(FILE *f, const struct model *m, const struct report_opts *o);
void export_json(FILE *f, const struct model *m,
    const struct report_opts *o);

#endif
