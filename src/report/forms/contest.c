/*
 * contest.c - contest's table of makesim's load variants (the text
 * report, the post and the results page), one block per load:
 *	Kernel [runs]   Time    CPU%    Loads   LCPU%   Ratio
 * Ratio = time under the load / the same kernel's no_load time.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "fmt.h"
#include "form.h"
#include "model.h"

/* The time figure of a build: its headline when in s, else elapsed. */
static double
build_time(const struct vb_res *r)
{
	int m;

	if (r && r->headline[0] && (m = vb_res_metric_index(r,
	    r->headline)) >= 0 && !strcmp(r->metrics[m].unit, "s"))
		return model_mean(r, r->headline);
	return model_mean(r, "elapsed");
}

/* The no_load run of @bench in kernel @k (else the plain one). */
static const struct vb_res *
noload_of(const struct rl_set *s, int k, const char *bench)
{
	char id[NAME_MAX + 16];
	const struct vb_res *r;

	snprintf(id, sizeof(id), "%s@no_load", bench);
	if ((r = rl_find(&s->k[k], id)))
		return r;
	return rl_find(&s->k[k], bench);
}

/* The table of @bench's load variants; the number of loads shown. */
static int
contest_table(FILE *f, const struct rl_set *s, const char *bench, int width)
{
	char b[NAME_MAX + 1], num[6][32];
	int i, k, w = fmt_label_width(s, 16), pass, shown = 0;

	(void)width;
	/* no_load first, as contest prints it */
	for (pass = 0; pass < 2; pass++)
	for (i = 0; i < s->nids; i++) {
		const char *v = model_variant_of(s->ids[i]);

		if (strcmp(model_bench_of(s->ids[i], b, sizeof(b)), bench) ||
		    (!strcmp(v, "no_load") || !strcmp(v, "default")) != !pass)
			continue;
		/*
		 * Only contest's runs: variants named after their load
		 * (makesim@io_load runs with load io_load), not builds
		 * such as makesim@j32 that only carry the default no_load.
		 */
		{
			const struct vb_res *r0 = model_any(s, s->ids[i]);
			const char *load = r0 ? vb_res_param(r0, "load") : NULL;

			if (!load || strcmp(load, v) != 0)
				continue;
		}
		shown++;
		fprintf(f, "%s:\n%-*s %6s %6s %6s %6s %6s\n",
		    model_variant_of(s->ids[i]), w, "Kernel [runs]", "Time",
		    "CPU%", "Loads", "LCPU%", "Ratio");
		for (k = 0; k < s->nk; k++) {
			const struct vb_res *r = rl_find(&s->k[k], s->ids[i]);
			const struct vb_res *nl = noload_of(s, k, bench);
			double t, t0 = NAN;
			int j;

			snprintf(b, sizeof(b), "%s [%d]", s->k[k].label,
			    r ? r->niter : 0);
			fprintf(f, "%-*s", w, b);
			if (!r) {
				fprintf(f, " missing\n");
				continue;
			}
			t = build_time(r);
			t0 = build_time(nl);
			fmt_num(num[0], 32, "%.1f", t);
			fmt_num(num[1], 32, "%.0f", vb_res_metric_index(r,
			    "build_cpu") >= 0 ? model_mean(r, "build_cpu") :
			    model_mean(r, "cpu"));
			fmt_num(num[2], 32, "%.0f", model_mean(r, "loads"));
			fmt_num(num[3], 32, "%.0f", model_mean(r, "lcpu"));
			fmt_num(num[4], 32, "%.2f", t0 > 0 ? t / t0 : NAN);
			for (j = 0; j < 5; j++)
				fprintf(f, " %6s", num[j]);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	return shown;
}

const struct form form_contest = {
	.bench = "makesim",
	.flags = FORM_TEXT | FORM_PAGE | FORM_POST,
	.title = "makesim: a parallel build under contest's loads",
	.text_title = "makesim under contest's loads (Ratio: time / no_load "
	    "time)",
	.anchor = "contest-table",
	.about = "Ratio: time under the load over the same kernel's no_load "
	    "time.",
	.table = contest_table,
};
