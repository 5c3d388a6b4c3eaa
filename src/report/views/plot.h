/*
 * plot.h - gnuplot charts (views/plot.c: vmreport --plot DIR, make
 * plot).  A view's header is vmreport.c's (see views/text.h).
 */
#ifndef VB_VIEW_PLOT_H
#define VB_VIEW_PLOT_H

#if defined(VR_LAYER) && !defined(VR_VIEW_PLOT)
#error "views/plot.h is vmreport.c's: a view never includes another view"
#endif

#include "model.h"

/*
 * Write charts into @dir (created): per chart a .dat, a .gp script, a
 * .png and a .svg; the summary and each benchmark's headline and vmstat
 * series, with @detail every metric's.  @gnuplot: the program to run.
 * Returns the number of charts, -1 on error (one line printed).
 */
int plot_charts(const struct model *m, const char *dir, const char *gnuplot,
    int detail);

#endif
