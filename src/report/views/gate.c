/*
 * gate.c - the regression gate (gate.h): every change the report stars
 * (the verdict changed on the run means, its p adjusted in its family:
 * model_verdict(); at least the minimum change, not an info metric)
 * that is worse than the baseline by more than the percentage given,
 * one line each, for vmreport's exit status 3.
 */
#include <math.h>

#include "fmt.h"
#include "model.h"

#define VR_VIEW_GATE		/* its own header */
#include "gate.h"

/*
 * Is kernel @k's marked change of row @r a regression by more than
 * @pct percent?  A change from a baseline mean of 0 has no percentage
 * and counts as large (rv_verdict()): then the direction decides.
 */
static int
regressed(const struct model_row *r, int k, double pct)
{
	const struct rs_cmp *c = &r->c[k];
	double a = r->d[0].mean, b = r->d[k].mean;

	if (!c->sig)
		return 0;
	if (!isnan(c->pct))
		return c->pct < -pct;
	return r->dir == VB_LOWER ? b > a : b < a;
}

int
gate_regressions(FILE *f, const struct model *m, double pct)
{
	const struct rl_set *s = m->s;
	struct model_row *rows;
	char num[48], mean[32];
	int nreg = 0, i, j, n, k;

	for (i = 0; i < s->nids; i++) {
		n = model_rows(m, s->ids[i], &rows);
		for (j = 0; j < n; j++) {
			if (rows[j].dir == VB_INFO)
				continue;
			for (k = 1; k < s->nk; k++) {
				const struct rs_cmp *c = &rows[j].c[k];

				if (!regressed(&rows[j], k, pct))
					continue;
				nreg++;
				if (isnan(c->pct))
					snprintf(num, sizeof(num), "from 0 "
					    "to %s", fmt_num(mean,
					    sizeof(mean), "%.4g",
					    rows[j].d[k].mean));
				else
					snprintf(num, sizeof(num), "%s%%",
					    fmt_num(mean, sizeof(mean),
					    "%.2f", c->pct));
				fprintf(f, "regression: %s %s %s: %s "
				    "(worse than %s, adjusted p %.4f)\n",
				    s->k[k].label, s->ids[i], rows[j].name,
				    num, s->k[0].label, model_verdict(m,
				    &rows[j], k, NULL)->p_adj);
			}
		}
	}
	return nreg;
}
