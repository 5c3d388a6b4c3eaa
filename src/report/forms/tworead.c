/*
 * tworead.c - Iwamoto's table of the 2read sweep (the text report, the
 * post and the results page): one row per n, one column per kernel,
 * the headline figure's mean.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "fmt.h"
#include "form.h"
#include "model.h"

/* The n of a tworead variant: its param sweep (or n), else the variant. */
static const char *
tworead_n(const struct vb_res *r, const char *id)
{
	const char *n = r ? vb_res_param(r, "sweep") : NULL;

	if (!n || !strcmp(n, "0"))
		n = r ? vb_res_param(r, "n") : NULL;
	return n ? n : model_variant_of(id);
}

/* Is @id a run of the 2read sweep (param sweep N, N > 0)? */
static int
is_sweep(const struct rl_set *s, const char *id)
{
	const struct vb_res *r = model_any(s, id);
	const char *n = r ? vb_res_param(r, "sweep") : NULL;

	return n && strcmp(n, "0") != 0;
}

/*
 * Only the sweep variants are rows (tworead@cached and other single
 * runs are not); kernels that do not fit @width continue in another
 * block.  The number of blocks.
 */
static int
tworead_table(FILE *f, const struct rl_set *s, const char *bench, int width)
{
	char b[NAME_MAX + 1], num[64], lab[16];
	int i, k, first, last, perblk = (width - 8) / 12, rule, shown = 0;

	if (perblk < 1)
		perblk = 1;
	for (first = 0; first < s->nk; first += perblk) {
		const struct vb_res *r0 = NULL;

		last = first + perblk > s->nk ? s->nk : first + perblk;
		for (i = 0; i < s->nids && !r0; i++)
			if (!strcmp(model_bench_of(s->ids[i], b, sizeof(b)),
			    bench) && is_sweep(s, s->ids[i]))
				r0 = model_any(s, s->ids[i]);
		if (!r0)
			return shown;
		shown++;
		fprintf(f, "%-8s", " n");
		for (k = first; k < last; k++)
			fprintf(f, "%12s", fmt_label(lab, sizeof(lab), s, k,
			    11));
		fputc('\n', f);
		rule = 8 + 12 * (last - first);
		while (rule-- > 0)
			fputc('=', f);
		fputc('\n', f);
		for (i = 0; i < s->nids; i++) {
			const struct vb_res *ri = model_any(s, s->ids[i]);

			if (strcmp(model_bench_of(s->ids[i], b, sizeof(b)),
			    bench) || !is_sweep(s, s->ids[i]))
				continue;
			fprintf(f, "%-8.7s", tworead_n(ri, s->ids[i]));
			for (k = first; k < last; k++) {
				const struct vb_res *r = rl_find(&s->k[k],
				    s->ids[i]);
				double v = r && r->headline[0] ?
				    model_mean(r, r->headline) : NAN;

				if (!r)
					snprintf(num, sizeof(num), "missing");
				else
					fmt_num(num, sizeof(num), "%.0f", v);
				fprintf(f, "%12s", num);
			}
			fputc('\n', f);
		}
		if (r0 && r0->headline[0])
			fprintf(f, "(%s, mean of runs)\n", r0->headline);
		fputc('\n', f);
	}
	return shown;
}

const struct form form_tworead = {
	.bench = "tworead",
	.flags = FORM_TEXT | FORM_PAGE | FORM_POST,
	.title = "tworead: two files read over ranges n and 1100-n",
	.anchor = "tworead-table",
	.about = "One row per n, one column per kernel: the headline figure, "
	    "mean of runs.",
	.table = tworead_table,
};
