/*
 * gate.h - the regression gate (views/gate.c): --fail-on-regression's
 * lines.  A view's header is vmreport.c's (see views/text.h).
 */
#ifndef VB_VIEW_GATE_H
#define VB_VIEW_GATE_H

#if defined(VR_LAYER) && !defined(VR_VIEW_GATE)
#error "views/gate.h is vmreport.c's: a view never includes another view"
#endif

#include <stdio.h>

#include "model.h"

/*
 * Metrics significantly worse than the baseline by more than @pct
 * percent, one line each to @f; returns their count.
 */
int gate_regressions(FILE *f, const struct model *m, double pct);

#endif
