/*
 * dump.h - a benchmark's sampled series as `vmstat 1` dumps
 * (views/dump.c: vmreport --vmstat).  A view's header is vmreport.c's
 * (see views/text.h).
 */
#ifndef VB_VIEW_DUMP_H
#define VB_VIEW_DUMP_H

#if defined(VR_LAYER) && !defined(VR_VIEW_DUMP)
#error "views/dump.h is vmreport.c's: a view never includes another view"
#endif

#include <stdio.h>

#include "rload.h"

/*
 * The settings block (@width), then the .vmstat series of @id in every
 * folder (only iteration @iter when not 0); -1 if no folder has it.
 */
int dump_vmstat(FILE *f, const struct rl_set *s, const char *id, int iter,
    int width);

#endif
