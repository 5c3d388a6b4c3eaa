/*
 * html.h - the results page across many kernels (views/html.c:
 * vmreport --html DIR, make html).  A view's header is vmreport.c's
 * (see views/text.h).
 */
#ifndef VB_VIEW_HTML_H
#define VB_VIEW_HTML_H

#if defined(VR_LAYER) && !defined(VR_VIEW_HTML)
#error "views/html.h is vmreport.c's: a view never includes another view"
#endif

#include <stdio.h>

#include "model.h"
#include "options.h"

/* @s as HTML text: & < > " ' as entities, what is not text as U+FFFD. */
void html_esc(FILE *f, const char *s);
/*
 * The results page: @dir/index.html (@dir created, or an earlier page
 * of vmreport's replaced; anything else there is refused and nothing
 * written).  0, or -1 with one line printed.
 */
int html_page(const struct model *m, const char *dir,
    const struct report_opts *o);

#endif
