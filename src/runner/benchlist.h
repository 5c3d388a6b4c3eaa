/*
 * benchlist.h - the benchmarks built here, the only names vmrun takes
 * on a config line (src/lib/config.h parses any name).
 */
#ifndef VB_BENCHLIST_H
#define VB_BENCHLIST_H

#include <stddef.h>

#include "config.h"

/*
 * The benchmarks built here, NULL-terminated: src/runner/benches.h,
 * which the Makefile writes from the folders of src/bench/.
 */
extern const char *const vb_benches[];
/* Is @name one of vb_benches? */
int vb_is_bench(const char *name);
/*
 * Does every line of @c name a benchmark?  -1 with "file:line: 'x' is
 * not a benchmark; the benchmarks are: a, b, ..." in @err for the
 * first that does not.
 */
int vb_conf_check_benches(const struct vb_conf *c, char *err,
    size_t errlen);

#endif
