/*
 * ab.c - make ab's iteration order and make boots' boot order (see ab.h).
 *
 * ABBA by default: a drift of the machine over the run (a warming cache,
 * a neighbour starting) then adds as much to A as to B, where plain
 * alternation AB AB ... would favour whichever side runs second.  The
 * side that starts alternates from one config line to the next (ABBA...
 * then BAAB...), and the runner runs each line once, discarded, before
 * its measured runs (docs/ab.md), so that no side always gets a line's
 * first, cold run.
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

void
vb_ab_line_order(const char *order, int line, char *out)
{
	size_t i;

	for (i = 0; order[i]; i++)
		out[i] = line % 2 == 0 ? order[i] : order[i] == 'A' ? 'B' :
		    'A';
	out[i] = '\0';
}

int
vb_ab_warmup_arg(const char *s, char *err, size_t errlen)
{
	char shown[40];
	size_t i;

	if (!s || !*s || strcmp(s, "1") == 0)
		return 1;
	if (strcmp(s, "0") == 0)
		return 0;
	/* the value as given, on one line */
	for (i = 0; s[i] && i < sizeof(shown) - 1; i++)
		shown[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	shown[i] = '\0';
	snprintf(err, errlen, "--warmup '%s%s': give 1 (a discarded run of "
	    "each line before its measured runs, the default) or 0 (none)",
	    shown, s[i] ? "..." : "");
	return -1;
}
