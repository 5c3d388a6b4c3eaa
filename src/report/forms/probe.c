/*
 * probe.c - the interactivity probe's line per kernel, as the 2002
 * posts gave it: "played 297 of 304 seconds (98%)".  A probe that ran
 * beside a benchmark X (its result probe@X) is shown with X.
 */
#include <math.h>

#include "fmt.h"
#include "form.h"
#include "model.h"

/* "played X of Y seconds (Z%)" per kernel from result @id; 1 if any. */
static int
probe_lines(FILE *f, const struct rl_set *s, const char *id)
{
	static const char *const playn[] = { "played_s", "played", NULL };
	static const char *const runn[] = { "total_s", "run_s", "wanted_s",
		"expected_s", NULL };
	int k, i, w = fmt_label_width(s, 10), any = 0;
	char a[32], b[32], c[32];
	const char *fmt;

	for (k = 0; k < s->nk; k++) {
		const struct vb_res *r = rl_find(&s->k[k], id);
		double p = NAN, t = NAN;

		for (i = 0; playn[i] && isnan(p); i++)
			p = model_mean(r, playn[i]);
		for (i = 0; runn[i] && isnan(t); i++)
			t = model_mean(r, runn[i]);
		if (!isfinite(p) || !isfinite(t) || t <= 0)
			continue;
		if (!any++)
			fputc('\n', f);
		/* whole seconds as in the post; tenths for short runs */
		fmt = t < 100 ? "%.1f" : "%.0f";
		fprintf(f, "%-*splayed %s of %s seconds (%s%%)\n", w,
		    s->k[k].label, fmt_num(a, sizeof(a), fmt, p),
		    fmt_num(b, sizeof(b), fmt, t),
		    fmt_num(c, sizeof(c), "%.0f", 100 * p / t));
	}
	return any > 0;
}

const struct form form_probe = {
	.bench = "probe",
	.flags = FORM_BESIDE,
	.lines = probe_lines,
};
