/*
 * ab.h - the order in which make ab (vmrun) and make boots (vmboots) run
 * the iterations or boots of their two sides: ABBA and its like.
 */
#ifndef VB_AB_H
#define VB_AB_H

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
/*
 * The pattern config line @line (from 0) follows: @order itself on
 * lines 0, 2, 4, ..., @order with A and B swapped on lines 1, 3, ...,
 * so that the side that starts a line alternates.  Into @out (as long
 * as @order, and a NUL).
 */
void vb_ab_line_order(const char *order, int line, char *out);
/*
 * --warmup (make ab WARMUP=): NULL or empty is the default, 1; "0" or
 * "1" as given.  -1 with one line in @err for anything else.
 */
int vb_ab_warmup_arg(const char *s, char *err, size_t errlen);

#endif
