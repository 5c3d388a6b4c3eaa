/*
 * post.h - the mail-ready post (views/post.c: make post, vmreport
 * --post).  A view's header is vmreport.c's (see views/text.h).
 */
#ifndef VB_VIEW_POST_H
#define VB_VIEW_POST_H

#if defined(VR_LAYER) && !defined(VR_VIEW_POST)
#error "views/post.h is vmreport.c's: a view never includes another view"
#endif

#include <stdio.h>

#include "model.h"
#include "options.h"

/* The post: header, each benchmark's section, the closing forms. */
void post_print(FILE *f, const struct model *m, const struct report_opts *o);

#endif
