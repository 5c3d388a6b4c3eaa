/*
 * util.h - allocation that cannot fail (it dies with "out of memory",
 * the only sensible answer in a benchmark harness) and removal of a
 * folder tree.  Shared by lib/, the programs and the report.
 */
#ifndef VB_UTIL_H
#define VB_UTIL_H

#include <stddef.h>

void *vb_xmalloc(size_t n);
void *vb_xcalloc(size_t n, size_t size);
void *vb_xrealloc(void *p, size_t n);
char *vb_xstrdup(const char *s);
char *vb_xstrndup(const char *s, size_t n);
/*
 * Remove @path and everything below it, not following symlinks.  0, or
 * -1 with errno of the first failure (it goes on removing the rest).
 */
int vb_rmtree(const char *path);

#endif
