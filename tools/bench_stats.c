/*
 * bench_stats.c - make bench-stats: the verdict's two error rates on
 * synthetic label folders (docs/validation.md, "The verdict's error
 * rates").  Runs no benchmark: each pair is two labels of runN/meta and
 * .res files written with the library's own writers (res.h, meta.h),
 * read back by the report's loader and judged by its model (model.h),
 * the moderated model and today's (model.legacy) side by side.
 *
 *	tools/bench_stats [PAIRS [SEED [POWER]]]	(1000, 1, 200)
 *
 * PAIRS A/A pairs a model of noise, POWER pairs a power cell.  The
 * folders are written under $TMPDIR, else /dev/shm when it is a
 * folder (a memory file system: the pairs cost their writing, not a
 * disk's), else /tmp.  VB_STATS_WHY=1 names every false star of an
 * A/A pair on standard error (its figure, tier, p and prior).
 *
 * Prints, per model of noise and view, the share of A/A pairs with any
 * star and its 95% Wilson interval; the power grid (3 and 5 runs a side
 * x shifts 5/10/20% x run CoV 1/3/10%) beside the known-variance limit
 * (a z test with the true variance, Holm over the same headlines at the
 * same level); the median "same +-X%" at CoV 3%, 3 runs a side; and the
 * targets, exiting 1 when one is missed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "meta.h"
#include "model.h"
#include "msg.h"
#include "res.h"
#include "rload.h"
#include "rstats.h"
#include "util.h"

#define NBENCH 12
#define NFIG 8			/* figures a benchmark: ~100 a label */
#define ITERS 3
#define ITER_COV 0.02

/* One model of noise: how the runs of a pair are drawn. */
struct noise {
	const char *name;
	double cov;		/* run-to-run CoV of every figure */
	int mixed;		/* CoVs 0.2..30% across the figures */
	double offset;		/* a run offset shared by every figure */
	int na, nb;		/* runs a side */
	int short_run;		/* b's last run has one iteration */
	double shift;		/* true change of 10 headlines (power) */
};

/* The CoV of figure @f of benchmark @b under @n. */
static double
fig_cov(const struct noise *n, int b, int f)
{
	static const double mix[] = { 0.002, 0.01, 0.03, 0.10, 0.30 };

	return n->mixed ? mix[(b * NFIG + f) % 5] : n->cov;
}

/* Make @path a folder (it may exist). */
static void
mkdir_p(const char *path)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		die_errno("mkdir %s", path);
}

/*
 * One label @dir of @runs runs: every figure's run mean drawn around
 * its true value (shifted by @shift for the headlines of benchmarks 0
 * to 9 on side b), its iterations around that; the true log run means
 * kept in @lm[run][bench] for the known-variance test.
 */
static void
write_label(gsl_rng *g, const char *dir, const char *label,
    const struct noise *n, int runs, int side_b, double lm[][NBENCH])
{
	char path[512], name[32], iters[8];
	struct vb_meta_in in = { 0 };
	int r, b, f, it, nit, m;

	mkdir_p(dir);
	for (r = 0; r < runs; r++) {
		double off = n->offset > 0 ? gsl_ran_gaussian(g, n->offset) : 0;

		snprintf(path, sizeof(path), "%s/run%d", dir, r + 1);
		mkdir_p(path);
		nit = side_b && n->short_run && r == runs - 1 ? 1 : ITERS;
		for (b = 0; b < NBENCH; b++) {
			struct vb_res res;

			snprintf(name, sizeof(name), "sb%02d", b);
			vb_res_init(&res, name, NULL);
			snprintf(res.headline, sizeof(res.headline), "f0");
			for (f = 0; f < NFIG; f++) {
				snprintf(name, sizeof(name), "f%d", f);
				m = vb_res_add_metric(&res, name, f % 2 ? "s" :
				    "ops/s", f % 2 ? VB_LOWER : VB_HIGHER);
				if (f < 3)
					vb_res_set_key(&res, m, 1);
			}
			{
				double run[NFIG];

				for (f = 0; f < NFIG; f++) {
					double c = fig_cov(n, b, f);
					double mu = log(1 + b + 0.1 * f);

					if (f == 0 && side_b && b < 10)
						mu += log(1 + n->shift);
					run[f] = mu + off + gsl_ran_gaussian(g,
					    sqrt(log(1 + c * c)));
					if (f == 0)
						lm[r][b] = run[f];
				}
				for (it = 0; it < nit; it++) {
					double *v = vb_res_add_iter(&res);

					for (f = 0; f < NFIG; f++)
						v[f] = exp(run[f] +
						    gsl_ran_gaussian(g,
						    ITER_COV));
				}
			}
			snprintf(path, sizeof(path), "%s/run%d/sb%02d.res",
			    dir, r + 1, b);
			if (vb_res_save(path, &res, nit < ITERS ?
			    "interrupted" : "complete") < 0)
				die_errno("%s", path);
			vb_res_free(&res);
		}
		snprintf(iters, sizeof(iters), "%d", ITERS);
		in.label = label;
		in.status = "complete";
		in.start = "2026-12-07T00:00:00Z";
		in.end = "2026-12-07T00:01:00Z";
		in.workdir = "/tmp";
		in.config = "configs/stats.conf";
		in.iterations = iters;
		in.run = r + 1;
		in.settings = "";
		snprintf(path, sizeof(path), "%s/run%d/meta", dir, r + 1);
		if (vb_meta_write(path, &in) < 0)
			die_errno("%s", path);
	}
}

/* What one pair's model says. */
struct judged {
	int star_default, star_detail;	/* any star in the view */
	int found;			/* shifted headlines starred */
	double x0;			/* b00's "same +-X", % */
	int x_cover;			/* shifted headlines with X >= d */
};

/* What @md says of the loaded pair (@shift: the headlines' true shift). */
static void
judge_model(struct model *md, const struct rl_set *s, double shift,
    struct judged *j)
{
	struct model_row *rows;
	int i, r, n;

	memset(j, 0, sizeof(*j));
	j->x0 = NAN;
	model_ready(md);
	for (i = 0; i < s->nids; i++) {
		n = model_rows(md, s->ids[i], &rows);
		for (r = 0; r < n; r++) {
			const struct rv_verdict *v;

			md->detail = 1;
			j->star_detail |= model_verdict(md, &rows[r], 1,
			    NULL)->star;
			md->detail = 0;
			v = model_verdict(md, &rows[r], 1, NULL);
			j->star_default |= v->star;
			if (v->star && shift == 0 && getenv("VB_STATS_WHY")) {
				const struct rv_cmp *c = &rows[r].rc[1];

				fprintf(stderr, "why %s %s %s head %d p %.3g "
				    "adj %.3g pooled %d s2 %.3g s0sq %.3g d0 "
				    "%.3g df %.3g chg %.2f\n", md->legacy ?
				    "legacy" : "mod", s->ids[i],
				    rows[r].name, rows[r].head, c->m.p,
				    v->p_adj, c->m.pooled, c->m.s2,
				    c->m.s0sq, c->m.d0, c->m.df, c->change);
			}
			if (!rows[r].head)
				continue;
			if (i == 0)
				j->x0 = v->word == RV_SAME ? v->bound : NAN;
			if (i < 10 && shift > 0) {
				j->found += v->star;
				j->x_cover += !(v->bound < 100 * shift);
			}
		}
	}
}

/*
 * Load the pair @a, @b once and judge it with the moderated model
 * (*@j) and today's (*@l).
 */
static void
judge(const char *a, const char *b, double shift, struct judged *j,
    struct judged *l)
{
	struct rl_set s = { 0 };
	struct model md;
	char err[512];

	s.nk = 2;
	s.k = vb_xcalloc(2, sizeof(*s.k));
	if (rl_load_kernel(a, &s.k[0], err, sizeof(err)) < 0 ||
	    rl_load_kernel(b, &s.k[1], err, sizeof(err)) < 0)
		die("%s", err);
	rl_index(&s);
	model_init(&md, &s, 1);
	judge_model(&md, &s, shift, j);
	model_free(&md);
	model_init(&md, &s, 1);
	md.legacy = 1;
	judge_model(&md, &s, shift, l);
	model_free(&md);
	rl_free(&s);
}

/*
 * The known-variance limit on one pair: a z test of each headline's
 * log run means with the true variance, Holm over the 12 at @alpha;
 * returns the shifted ones (benchmarks 0..9) it finds.
 */
static int
known_variance(double la[][NBENCH], int na, double lb[][NBENCH], int nb,
    double cov, double alpha)
{
	double p[NBENCH], adj[NBENCH], var = log(1 + cov * cov);
	int b, r, found = 0;

	for (b = 0; b < NBENCH; b++) {
		double ma = 0, mb = 0, z;

		for (r = 0; r < na; r++)
			ma += la[r][b] / na;
		for (r = 0; r < nb; r++)
			mb += lb[r][b] / nb;
		z = (mb - ma) / sqrt(var * (1.0 / na + 1.0 / nb));
		p[b] = 2 * gsl_cdf_ugaussian_Q(fabs(z));
	}
	rs_holm(p, NBENCH, adj);
	for (b = 0; b < 10; b++)
		found += adj[b] < alpha;
	return found;
}

/* Wilson's 95% interval of @k in @n, in %. */
static void
wilson(int k, int n, double *lo, double *hi)
{
	double z = 1.959964, p = (double)k / n, d = 1 + z * z / n;
	double c = (p + z * z / (2 * n)) / d;
	double h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / d;

	*lo = 100 * fmax(0, c - h);
	*hi = 100 * fmin(1, c + h);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Remove the pair's folders @a and @b. */
static void
drop(const char *a, const char *b)
{
	if (vb_rmtree(a) < 0 || vb_rmtree(b) < 0)
		die_errno("removing %s, %s", a, b);
}

int
main(int argc, char **argv)
{
	static const struct noise aa[] = {
		{ "run CoV 0.2%", 0.002, 0, 0, 3, 3, 0, 0 },
		{ "run CoV 1%", 0.01, 0, 0, 3, 3, 0, 0 },
		{ "run CoV 3%", 0.03, 0, 0, 3, 3, 0, 0 },
		{ "run CoV 10%", 0.10, 0, 0, 3, 3, 0, 0 },
		{ "run CoV 30%", 0.30, 0, 0, 3, 3, 0, 0 },
		{ "spreads 0.2-30%", 0, 1, 0, 3, 3, 0, 0 },
		{ "run offset 3%", 0.01, 0, 0.03, 3, 3, 0, 0 },
		{ "2 runs a side", 0.03, 0, 0, 2, 2, 0, 0 },
		{ "5 runs a side", 0.03, 0, 0, 5, 5, 0, 0 },
		{ "10 runs a side", 0.03, 0, 0, 10, 10, 0, 0 },
		{ "3 against 5", 0.03, 0, 0, 3, 5, 0, 0 },
		{ "an interrupted run", 0.03, 0, 0, 3, 3, 1, 0 },
	};
	static const double shifts[] = { 0.05, 0.10, 0.20 };
	static const double covs[] = { 0.01, 0.03, 0.10 };
	static const int sides[] = { 3, 5 };
	double la[10][NBENCH], lb[10][NBENCH], lo, hi, *xs;
	char root[512], a[600], b[600];
	int pairs = argc > 1 ? atoi(argv[1]) : 1000;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
	int npow = argc > 3 ? atoi(argv[3]) : 200;
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	int i, p, s, sh, c, fail = 0, nx = 0;
	/* the default view's headline level (model.h), alpha 0.05 */
	double head = 0.05 * MODEL_VIEW_SHARE * MODEL_HEAD_SHARE;
	gsl_rng *g;

	vb_set_progname("bench_stats");
	if (pairs < 10 || npow < 10)
		die("PAIRS, POWER: at least 10");
	if (!tmp || !*tmp)
		tmp = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
		    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(root, sizeof(root), "%s/vmbench-stats.XXXXXX", tmp);
	if (!mkdtemp(root))
		die_errno("mkdtemp");
	g = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(g, seed);
	xs = vb_xcalloc((size_t)pairs, sizeof(double));
	snprintf(a, sizeof(a), "%s/a", root);
	snprintf(b, sizeof(b), "%s/b", root);
	printf("A/A pairs with any star (%d pairs a model, 12 benchmarks x "
	    "%d figures, %d iterations of CoV %g%%, seed %lu), %% [95%% "
	    "interval]:\n\n", pairs, NFIG, ITERS, ITER_COV * 100, seed);
	printf("%-20s %-22s %-22s %-22s\n", "model", "default view",
	    "--detail", "today's default view");
	for (i = 0; i < (int)(sizeof(aa) / sizeof(aa[0])); i++) {
		int kd = 0, kt = 0, kl = 0;

		for (p = 0; p < pairs; p++) {
			struct judged j, l;

			write_label(g, a, "a", &aa[i], aa[i].na, 0, la);
			write_label(g, b, "b", &aa[i], aa[i].nb, 1, lb);
			judge(a, b, 0, &j, &l);
			kd += j.star_default;
			kt += j.star_detail;
			kl += l.star_default;
			if (i == 2 && !isnan(j.x0))
				xs[nx++] = j.x0;
			drop(a, b);
		}
		printf("%-20s", aa[i].name);
		wilson(kd, pairs, &lo, &hi);
		printf(" %5.2f [%5.2f, %5.2f]  ", 100.0 * kd / pairs, lo, hi);
		fail |= 100.0 * kd / pairs > 5 || hi > 6;
		wilson(kt, pairs, &lo, &hi);
		printf(" %5.2f [%5.2f, %5.2f]  ", 100.0 * kt / pairs, lo, hi);
		fail |= 100.0 * kt / pairs > 5 || hi > 6;
		wilson(kl, pairs, &lo, &hi);
		printf(" %5.2f [%5.2f, %5.2f]\n", 100.0 * kl / pairs, lo, hi);
	}
	if (nx) {
		/* the median of |diff| + z(0.95) se with se known */
		double se = sqrt((log(1 + 0.03 * 0.03) + ITER_COV * ITER_COV /
		    ITERS) * 2 / 3);
		double kv = 100 * expm1((gsl_cdf_ugaussian_Qinv(0.25) +
		    gsl_cdf_ugaussian_Qinv(0.05)) * se);

		qsort(xs, (size_t)nx, sizeof(double), cmp_double);
		printf("\nsame +-X%% of b00's headline, run CoV 3%%, 3 runs a "
		    "side: median X %g%% (%d of %d pairs said same); the "
		    "known-variance limit's X %.2f%%\n", xs[nx / 2], nx,
		    pairs, kv);
		fail |= xs[nx / 2] > 1.5 * kv;
	}
	printf("\nPower: shifted headlines starred in the default view, "
	    "%% (10 of 12 headlines shifted; %d pairs a cell), the moderated "
	    "model / today's / the known-variance limit (z, Holm over the "
	    "12 at %g); X >= shift in %% of them\n\n", npow, head);
	printf("%-5s %-6s %-8s %9s %9s %9s %8s\n", "runs", "shift",
	    "run CoV", "moderated", "today", "z limit", "X >= d");
	for (s = 0; s < 2; s++)
		for (sh = 0; sh < 3; sh++)
			for (c = 0; c < 3; c++) {
				struct noise n = { "power", covs[c], 0, 0,
				    sides[s], sides[s], 0, shifts[sh] };
				int f = 0, fl = 0, fz = 0, xc = 0, np = npow;
				double pw;

				for (p = 0; p < np; p++) {
					struct judged j, l;

					write_label(g, a, "a", &n, n.na, 0, la);
					write_label(g, b, "b", &n, n.nb, 1, lb);
					judge(a, b, n.shift, &j, &l);
					f += j.found;
					fl += l.found;
					xc += j.x_cover;
					fz += known_variance(la, n.na, lb,
					    n.nb, sqrt(expm1(log(1 + covs[c] *
					    covs[c]) + ITER_COV * ITER_COV /
					    ITERS)), head);
					drop(a, b);
				}
				pw = 100.0 * f / (10 * np);
				printf("%-5d %4.0f%%  %6.0f%%  %8.2f%% %8.2f%% "
				    "%8.2f%% %7.2f%%\n", n.na, 100 * n.shift,
				    100 * n.cov, pw, 100.0 * fl / (10 * np),
				    100.0 * fz / (10 * np),
				    100.0 * xc / (10 * np));
				if (c == 1 && ((s == 0 && sh == 2 && pw < 95) ||
				    (s == 0 && sh == 1 && pw < 70) ||
				    (s == 1 && sh == 1 && pw < 95)))
					fail = 1;
			}
	if (vb_rmtree(root) < 0)
		die_errno("removing %s", root);
	gsl_rng_free(g);
	free(xs);
	printf("\ntargets (A/A <= 5%% with the upper end <= 6%%, both views; "
	    "median X within 1.5x of the limit's; power at CoV 3%%: 3 runs "
	    "20%% >= 95%%, 10%% >= 70%%, 5 runs 10%% >= 95%%): %s\n",
	    fail ? "MISSED" : "met");
	return fail;
}
