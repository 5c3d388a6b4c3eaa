/*
 * vmrun-ab.c - make ab's iteration order (see vmrun-ab.h).
 *
 * ABBA by default: a drift of the machine over the run (a warming cache,
 * a neighbour starting) then adds as much to A as to B, where plain
 * alternation AB AB ... would favour whichever side runs second.
 */
#include <stdio.h>
#include <string.h>

#include "ab.h"

int
vb_ab_order_ok(const char *order, char *err, size_t errlen)
{
	size_t len = strlen(order), i, a = 0;

	if (len == 0 || len > 16 || len % 2) {
		snprintf(err, errlen, "order '%s': give 2 to 16 letters A and "
		    "B, as many of each (e.g. ABBA)", order);
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (order[i] != 'A' && order[i] != 'B') {
			snprintf(err, errlen, "order '%s': only the letters A "
			    "and B (e.g. ABBA, AB)", order);
			return -1;
		}
		a += order[i] == 'A';
	}
	if (a * 2 != len) {
		snprintf(err, errlen, "order '%s': as many A as B, so that "
		    "each side runs as often", order);
		return -1;
	}
	return 0;
}

void
vb_ab_schedule(const char *order, int n, char *out)
{
	size_t len = strlen(order), k = 0;
	int have[2] = { 0, 0 }, done = 0;

	while (done < 2 * n) {
		int s = order[k++ % len] == 'B';

		if (have[s] >= n)
			continue;
		have[s]++;
		out[done++] = s ? 'B' : 'A';
	}
	out[done] = '\0';
}
