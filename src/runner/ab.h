/*
 * vmrun-ab.h - the order in which make ab runs the iterations of its two
 * settings (src/runner/ab.c), apart from the runner so it can be tested.
 */
#ifndef VB_VMRUN_AB_H
#define VB_VMRUN_AB_H

#include <stddef.h>

/*
 * Is @order a usable pattern: only 'A' and 'B', as many of each, at most
 * 16 letters?  0, or -1 with one line in @err.
 */
int vb_ab_order_ok(const char *order, char *err, size_t errlen);
/*
 * The schedule of @n iterations a side: @order repeated, a side skipped
 * once it has its @n, into @out (2 * @n letters and a NUL).
 */
void vb_ab_schedule(const char *order, int n, char *out);

#endif
