/*
 * model.c - the row model (model.h): one row per metric of a benchmark
 * id, each folder's statistics and its comparison with the baseline,
 * computed at the first call and kept; and the questions every view
 * asks of a row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "msg.h"
#include "model.h"
#include "util.h"

/* ---- rows: one metric of one benchmark, every kernel ---- */

int
model_find_row(const struct model_row *rows, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return i;
	return -1;
}

static int
id_index(const struct rl_set *s, const char *id)
{
	int lo = 0, hi = s->nids - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(id, s->ids[mid]);

		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

/*
 * A machine-wide key figure (pswpout) whose cgroup counterpart the runs
 * recorded (cg_pswpout, MEM=): the cgroup's is the key figure, as the
 * machine's includes other processes' paging.
 */
static void
own_counters(const struct rl_set *s, struct model_row *rows, int n)
{
	char cg[128];
	int j, c, k;

	for (j = 0; j < n; j++) {
		if (!rows[j].key || rows[j].scope != MODEL_SYSTEM)
			continue;
		snprintf(cg, sizeof(cg), "cg_%s", rows[j].name);
		for (c = 0; c < n && strcmp(rows[c].name, cg); c++)
			;
		for (k = 0; c < n && k < s->nk && !rows[c].d[k].n; k++)
			;
		if (c < n && k < s->nk) {
			rows[j].key = 0;
			rows[c].key = 1;
		}
	}
}

/* A figure every benchmark's default view shows (see struct model_row). */
static int
common_figure(const char *name)
{
	static const char *const common[] = {
		"elapsed", "user", "sys", "majflt", "pswpin", "pswpout",
	};
	size_t i;

	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (strcmp(name, common[i]) == 0)
			return 1;
	return 0;
}

int
model_work_of(const struct rl_set *s, const char *id, int k,
    struct model_work *w)
{
	const struct vb_res *a = rl_find(&s->k[0], id);
	const struct vb_res *b = rl_find(&s->k[k], id);
	const struct vb_res *decl;
	int m;

	memset(w, 0, sizeof(*w));
	w->pct = NAN;
	if (!a || !b || k == 0)
		return 0;
	/* the baseline's declaration, else the kernel's */
	decl = a;
	for (m = 0; m < a->nmetrics && !a->metrics[m].work; m++)
		;
	if (m == a->nmetrics)
		decl = b;
	for (m = 0; m < decl->nmetrics; m++) {
		const char *name = decl->metrics[m].name;
		double x, y, tol;

		if (!decl->metrics[m].work)
			continue;
		tol = decl->metrics[m].work_tol;
		w->declared = 1;
		x = model_mean(a, name);
		y = model_mean(b, name);
		/* a side that did not measure it cannot be compared */
		if (isnan(x) || isnan(y))
			continue;
		if (tol > 0 ? fabs(y - x) <= tol / 100 * fabs(x) : x == y)
			continue;
		w->metric = name;
		w->base = x;
		w->val = y;
		w->tol = tol;
		w->pct = x != 0 ? 100 * (y - x) / fabs(x) : NAN;
		return 1;
	}
	return 0;
}

/* A work figure as the line shows it: whole below 1e6, else %.4g. */
static char *
work_num(char *buf, size_t len, double v)
{
	if (fabs(v) < 1e6 && v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

char *
model_work_line(char *buf, size_t len, const struct rl_set *s,
    const char *id, int k)
{
	struct model_work w;
	char x[32], y[32], p[48], t[48];

	if (!model_work_of(s, id, k, &w))
		return NULL;
	if (isnan(w.pct))
		snprintf(p, sizeof(p), "from 0");
	else
		snprintf(p, sizeof(p), "%+.1f%%", w.pct);
	if (w.tol > 0)
		snprintf(t, sizeof(t), "the same within %g%%", w.tol);
	else
		snprintf(t, sizeof(t), "a count: the same only when equal");
	snprintf(buf, len, "other work: %s %s in %s, %s in %s (%s; %s): "
	    "%s's other figures of %s are not compared", w.metric,
	    work_num(y, sizeof(y), w.val), s->k[k].label,
	    work_num(x, sizeof(x), w.base), s->k[0].label, p, t,
	    s->k[k].label, id);
	return buf;
}

/*
 * The run means of @metric of @id of kernel @k into @out, as
 * model_run_means(), @r being rl_find(@k, @id) and @col the column of
 * @metric in it (-1: none, or @r NULL); @out has room for
 * run_room(@k, @r).
 */
static int
run_means_at(const struct rl_kernel *k, const char *id,
    const struct vb_res *r, const char *metric, int col, double *out)
{
	int i, n = 0;

	if (!k->iter_is_run)
		return rl_run_means_col(k, id, metric, col, out);
	if (!r || col < 0)
		return 0;
	for (i = 0; i < r->niter; i++) {
		double v = vb_res_get(r, i, col);

		if (!isnan(v))
			out[n++] = v;
	}
	return n;
}

/* The room model_run_means() takes for kernel @k's result @r. */
static int
run_room(const struct rl_kernel *k, const struct vb_res *r)
{
	if (!k->iter_is_run)
		return k->nruns ? k->nruns : 1;
	return r && r->niter ? r->niter : 1;
}

/*
 * The run means of @metric of @id of kernel @k into *@out (allocated):
 * a folder of make ab's, whose iterations are separate runs, gives its
 * iterations; any other its runs' means (a one-run folder: one).
 */
int
model_run_means(const struct rl_kernel *k, const char *id, const char *metric,
    double **out)
{
	const struct vb_res *r = rl_find(k, id);

	*out = vb_xcalloc((size_t)run_room(k, r), sizeof(double));
	return run_means_at(k, id, r, metric, r ? vb_res_metric_index(r,
	    metric) : -1, *out);
}

/*
 * The rows' arrays come zeroed from blocks of their own, each mapped
 * fresh and twice the last (from 256 kB to 64 MB), never freed one by
 * one: 100 folders of 20 benchmarks make some 40 MB of them, and on a
 * virtual machine a page fault costs microseconds.  Blocks from 2 MB
 * on are asked for as transparent huge pages (a fault per 2 MB where
 * the kernel allows it, "madvise" mode included).
 */
#define ARENA_FIRST ((size_t)256 << 10)
#define ARENA_LAST ((size_t)64 << 20)
#define ARENA_HUGE ((size_t)2 << 20)

struct arena {
	struct arena *next;		/* the block before */
	size_t size, used;		/* bytes, this header's included */
};

/* @n zeroed bytes of @m's arena, 16-byte aligned. */
static void *
arena_zalloc(struct model *m, size_t n)
{
	struct arena *a = m->arena;
	size_t size, hdr = (sizeof(*a) + 15) & ~(size_t)15;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!a || a->used + n > a->size) {
		size = a ? 2 * a->size : ARENA_FIRST;
		if (size > ARENA_LAST)
			size = ARENA_LAST;
		while (size < hdr + n)
			size *= 2;
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("out of memory");
		/* a hint: without it (or THP off) the same, page by page */
		if (size >= ARENA_HUGE)
			(void)madvise(p, size, MADV_HUGEPAGE);
		a = p;
		a->next = m->arena;
		a->size = size;
		a->used = hdr;
		m->arena = a;
	}
	p = (char *)a + a->used;
	a->used += n;
	return p;
}

/* Unmap @m's arena. */
static void
arena_free(struct model *m)
{
	struct arena *a = m->arena, *next;

	for (; a; a = next) {
		next = a->next;
		munmap(a, a->size);
	}
	m->arena = NULL;
}

static int
build_rows(struct model *md, const char *id, struct model_row **out)
{
	const struct rl_set *s = md->s;
	double min_change = md->min_change;
	struct model_row *rows = NULL;
	const struct vb_res **res;
	double *a, *b;
	int n = 0, cap = 0, room = 1, i, j, m, it, *col;

	res = vb_xcalloc((size_t)s->nk, sizeof(*res));
	for (i = 0; i < s->nk; i++) {
		const struct vb_res *r = res[i] = rl_find(&s->k[i], id);

		if (run_room(&s->k[i], r) > room)
			room = run_room(&s->k[i], r);
		if (!r)
			continue;
		for (j = 0; j < r->nmetrics; j++) {
			/* the same place as in the last kernel, most often */
			if (j < n && !strcmp(rows[j].name,
			    r->metrics[j].name))
				m = j;
			else
				m = model_find_row(rows, n,
				    r->metrics[j].name);
			if (m >= 0) {
				rows[m].key |= r->metrics[j].key;
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 32;
				rows = realloc(rows, (size_t)cap *
				    sizeof(*rows));
				if (!rows)
					die("out of memory");
			}
			rows[n].name = r->metrics[j].name;
			rows[n].unit = r->metrics[j].unit;
			rows[n].dir = r->metrics[j].dir;
			rows[n].scope = model_scope_of(rows[n].name);
			rows[n].integral = 1;
			rows[n].head = 0;
			rows[n].key = common_figure(rows[n].name);
			rows[n].key |= r->metrics[j].key;
			rows[n].d = arena_zalloc(md, (size_t)s->nk *
			    sizeof(struct rs_desc));
			rows[n].c = arena_zalloc(md, (size_t)s->nk *
			    sizeof(struct rs_cmp));
			rows[n].rc = arena_zalloc(md, (size_t)s->nk *
			    sizeof(struct rv_cmp));
			rows[n].vk = arena_zalloc(md, (size_t)s->nk *
			    sizeof(struct rv_verdict));
			rows[n].vd = arena_zalloc(md, (size_t)s->nk *
			    sizeof(struct rv_verdict));
			rows[n].other_work = arena_zalloc(md, (size_t)s->nk);
			rows[n].load = arena_zalloc(md, (size_t)s->nk);
			rows[n].work = 0;
			n++;
		}
	}
	/* col[i * n + j]: row j's column in kernel i's result, or -1 */
	col = vb_xcalloc((size_t)s->nk * (size_t)(n ? n : 1), sizeof(int));
	for (i = 0; i < s->nk; i++) {
		const struct vb_res *r = res[i];

		for (j = 0; j < n; j++) {
			/* the same column as the last kernel, most often */
			m = -1;
			if (r && j < r->nmetrics &&
			    !strcmp(r->metrics[j].name, rows[j].name))
				m = j;
			else if (r)
				m = vb_res_metric_index(r, rows[j].name);
			col[(size_t)i * (size_t)n + (size_t)j] = m;
			if (m < 0) {
				rs_describe(NULL, 0, 1, &rows[j].d[i]);
				continue;
			}
			rs_describe(r->vals + m, r->niter, r->nmetrics,
			    &rows[j].d[i]);
			for (it = 0; it < r->niter; it++) {
				double v = vb_res_get(r, it, m);

				if (!isnan(v) && v != floor(v))
					rows[j].integral = 0;
			}
		}
	}
	/* a figure of the work in some folder: never "other work" itself */
	for (j = 0; j < n; j++)
		for (i = 0; i < s->nk && !rows[j].work; i++) {
			m = col[(size_t)i * (size_t)n + (size_t)j];
			rows[j].work = m >= 0 && res[i]->metrics[m].work;
		}
	for (i = 1; i < s->nk; i++) {
		struct model_work w;

		if (!model_work_of(s, id, i, &w))
			continue;
		for (j = 0; j < n; j++)
			rows[j].other_work[i] = !rows[j].work;
	}
	/* the sides under different loads: the figures it moves held */
	for (i = 1; i < s->nk; i++) {
		struct model_loadcmp lc;

		if (!model_load_cmp(md, id, i, &lc))
			continue;
		for (j = 0; j < n; j++)
			rows[j].load[i] = !rows[j].other_work[i] &&
			    model_load_moves(&rows[j], lc.differs);
	}
	a = vb_xcalloc((size_t)room, sizeof(double));
	b = vb_xcalloc((size_t)room, sizeof(double));
	for (j = 0; j < n; j++) {
		int na;

		na = run_means_at(&s->k[0], id, res[0], rows[j].name,
		    col[j], a);
		for (i = 1; i < s->nk; i++) {
			int nb = run_means_at(&s->k[i], id, res[i],
			    rows[j].name, col[(size_t)i * (size_t)n +
			    (size_t)j], b);

			rs_compare(&rows[j].d[0], &rows[j].d[i], rows[j].dir,
			    &rows[j].c[i]);
			rs_mark(&rows[j].d[0], &rows[j].d[i], rows[j].dir,
			    min_change, &rows[j].c[i]);
			/* the star is the verdict's (model_families()) */
			rows[j].c[i].sig = 0;
			rv_compare(a, na, b, nb, rows[j].dir, &rows[j].rc[i]);
			rv_no_spread_iters(&rows[j].rc[i], rows[j].d[0].n,
			    rows[j].d[0].sd, rows[j].d[i].n, rows[j].d[i].sd);
			/* one change figure: the run-level one, everywhere */
			rows[j].c[i].pct = rows[j].rc[i].change;
		}
	}
	free(a);
	free(b);
	free(col);
	free(res);
	own_counters(s, rows, n);
	if ((j = model_headline(s, id, rows, n)) >= 0)
		rows[j].key = rows[j].head = 1;
	*out = rows;
	return n;
}

/* The raw p of (@r, kernel @k) in @m's model. */
static double
row_p(const struct model *m, const struct model_row *r, int k)
{
	return m->legacy ? r->rc[k].w.p : r->rc[k].m.p;
}

/*
 * A figure of the load beside the benchmark (other processes' CPU and
 * memory, the machine's memory): not the kernel's doing, in --detail's
 * family only.
 */
static int
load_figure(const char *name)
{
	static const char *const load[] = {
		"foreign_cpu", "runq", "foreign_mem_kb", "mem_total_kb",
		"mem_avail_kb", "mem_avail_min_kb", NULL,
	};
	int i;

	for (i = 0; load[i]; i++)
		if (!strcmp(name, load[i]))
			return 1;
	return 0;
}

/*
 * The default view's family of @r: the legacy model's key figures
 * (else none but --detail's); the headlines; every other figure but
 * the load's (the second tier, "also changed").
 */
static enum model_family
tier_of(const struct model *m, const struct model_row *r)
{
	if (m->legacy)
		return r->key ? MODEL_FAM_KEY : MODEL_FAM_DETAIL;
	if (r->head)
		return MODEL_FAM_HEAD;
	return load_figure(r->name) ? MODEL_FAM_DETAIL : MODEL_FAM_KEY;
}

/* Is (@r, kernel @k) a test of family @f? */
static int
in_family(const struct model *m, const struct model_row *r, int k,
    enum model_family f)
{
	if (r->dir == VB_INFO || isnan(row_p(m, r, k)) || r->other_work[k])
		return 0;
	return f == MODEL_FAM_DETAIL || tier_of(m, r) == f;
}

/* Append @v to the growing array *@p of *@n (room *@cap). */
static void
push(double **p, int *n, int *cap, double v)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		*p = realloc(*p, (size_t)*cap * sizeof(**p));
		if (!*p)
			die("out of memory");
	}
	(*p)[(*n)++] = v;
}

/* Is family @f's verdict of a row kept in vk (else vd)? */
static int
in_vk(enum model_family f)
{
	return f == MODEL_FAM_HEAD || f == MODEL_FAM_KEY;
}

/*
 * The p of every test of family @f over every id for the kernels from
 * @k0 to @k1 (the legacy model: all at once; else one kernel),
 * adjusted (Holm for the headlines and the legacy key figures,
 * Benjamini-Hochberg for the others) at level @alpha, and the
 * verdicts from them; returns the family's size.
 */
static int
family(struct model *m, enum model_family f, int k0, int k1, double alpha)
{
	const struct rl_set *s = m->s;
	struct rv_opts o;
	struct rv_verdict *v;
	double *p = NULL, *adj;
	int n = 0, cap = 0, size, i, j, k, t, holm;

	holm = f == MODEL_FAM_HEAD || (m->legacy && f == MODEL_FAM_KEY);
	for (i = 0; i < s->nids; i++)
		for (j = 0; j < m->nrows[i]; j++)
			for (k = k0; k <= k1; k++)
				push(&p, &n, &cap, in_family(m,
				    &m->rows[i][j], k, f) ?
				    row_p(m, &m->rows[i][j], k) : NAN);
	adj = vb_xcalloc((size_t)(n ? n : 1), sizeof(*adj));
	size = holm ? rs_holm(p, n, adj) : rs_bh(p, n, adj);
	if (size < 0)
		die("out of memory");
	rv_opts_default(&o);
	o.model = m->legacy ? RV_WELCH : RV_MODERATED;
	o.alpha = alpha;
	o.alpha_same = m->alpha;
	o.useful = m->useful;
	o.min_change = m->min_change;
	o.family = size;
	o.memo = &m->memo;
	for (i = 0, t = 0; i < s->nids; i++)
		for (j = 0; j < m->nrows[i]; j++)
			for (k = k0; k <= k1; k++, t++) {
				struct model_row *r = &m->rows[i][j];

				if (in_vk(f) && tier_of(m, r) != f)
					continue;
				v = in_vk(f) ? &r->vk[k] : &r->vd[k];
				rv_verdict(&r->rc[k], adj[t], &o, v);
				/* another amount of work: not compared */
				if (r->other_work[k]) {
					v->word = RV_OTHER_WORK;
					v->star = 0;
				} else if (r->load[k] && v->word != RV_NONE) {
					/* not evidence of the kernel's */
					v->word = RV_CANT_TELL;
					v->star = 0;
					v->load = 1;
					v->runs_needed = NAN;
				}
			}
	free(p);
	free(adj);
	return size;
}

/*
 * Figure @r's run means of @id, the baseline's then kernel @k's, on
 * the scale of its test, less each side's mean, scaled to length 1,
 * into @u (room @len): 1 when both sides have all @len runs (@na of
 * the baseline's) and some spread, else 0.
 */
static int
unit_residual(const struct model *m, const char *id,
    const struct model_row *r, int k, int na, int len, double *u)
{
	const struct rv_mod *x = &r->rc[k].m;
	double *a, *b, ma = 0, mb = 0, ss = 0;
	int i, n1, n2;

	n1 = model_run_means(&m->s->k[0], id, r->name, &a);
	n2 = model_run_means(&m->s->k[k], id, r->name, &b);
	if (n1 != na || n1 + n2 != len) {
		free(a);
		free(b);
		return 0;
	}
	for (i = 0; i < len; i++) {
		double v = i < na ? a[i] : b[i - na];

		u[i] = x->scale == RV_LOG ? log(v) : log1p(v);
		if (i < na)
			ma += u[i] / na;
		else
			mb += u[i] / (len - na);
	}
	free(a);
	free(b);
	for (i = 0; i < len; i++) {
		u[i] -= i < na ? ma : mb;
		ss += u[i] * u[i];
	}
	if (!(ss > 0) || !isfinite(ss))
		return 0;
	for (i = 0; i < len; i++)
		u[i] /= sqrt(ss);
	return 1;
}

/*
 * How many independent figures kernel @k's prior stands on: figures
 * that move together from run to run (a run offset shared by every
 * figure of a run) tell less about the spread than as many independent
 * ones.  Over the n figures of the fit with every run on both sides
 * (na and nb of them, d = na + nb - 2): u_i the figure's residuals
 * (unit_residual()), r_ij = u_i . u_j their correlation, whose square
 * averages 1/d between independent figures; rho^2 = (mean r^2 - 1/d) /
 * (1 - 1/d), at least 0, and n_eff = n / (1 + (n - 1) rho^2) (the
 * design effect of a mean of n variances, whose pairwise correlation
 * is rho^2).  INFINITY when nothing can be said (fewer than 3 such
 * figures, d < 2): no cap.
 */
static double
effective_figures(const struct model *m, int k)
{
	const struct rl_set *s = m->s;
	int na = s->k[0].iter_is_run ? 0 : s->k[0].nruns;
	int nb = s->k[k].iter_is_run ? 0 : s->k[k].nruns;
	int len = na + nb, n = 0, i, j, x, y;
	double *g, *u, ff = 0, mr2, rho2, d = len - 2;

	if (na < 2 || nb < 2 || d < 2)
		return INFINITY;
	g = vb_xcalloc((size_t)(len * len), sizeof(double));
	u = vb_xcalloc((size_t)len, sizeof(double));
	for (i = 0; i < s->nids; i++)
		for (j = 0; j < m->nrows[i]; j++) {
			const struct model_row *r = &m->rows[i][j];
			const struct rv_mod *mo = &r->rc[k].m;

			if (r->other_work[k] || !mo->pooled ||
			    mo->scale == RV_RAW || !(mo->s2 > 0) ||
			    !unit_residual(m, s->ids[i], r, k, na, len, u))
				continue;
			/* G = sum u u': sum over i, j of r_ij^2 = |G|^2 */
			for (x = 0; x < len; x++)
				for (y = 0; y < len; y++)
					g[x * len + y] += u[x] * u[y];
			n++;
		}
	for (x = 0; x < len * len; x++)
		ff += g[x] * g[x];
	free(g);
	free(u);
	if (n < 3)
		return INFINITY;
	mr2 = (ff - n) / ((double)n * (n - 1));
	rho2 = fmax(0, (mr2 - 1 / d) / (1 - 1 / d));
	return n / (1 + (n - 1) * rho2);
}

/*
 * Kernel @k's prior (Smyth 2004) fitted to the pooled variances of
 * all its figures on a log scale, its df capped at what the figures
 * hold ((n_eff - 1) dbar, effective_figures(), dbar their mean df:
 * the prior and the figure's own s^2 together on at most n_eff dbar
 * df), and every figure's test moderated with it; with d0 below the
 * figure's own df, the plain test where its p is the larger.
 */
static void
moderate(struct model *m, int k)
{
	const struct rl_set *s = m->s;
	double *s2 = NULL, *d = NULL, dsum = 0, cap;
	int n = 0, cap2 = 0, nd = 0, capd = 0, i, j;

	for (i = 0; i < s->nids; i++)
		for (j = 0; j < m->nrows[i]; j++) {
			const struct rv_mod *x = &m->rows[i][j].rc[k].m;

			if (m->rows[i][j].other_work[k] || !x->pooled ||
			    x->scale == RV_RAW || !(x->s2 > 0))
				continue;
			push(&s2, &n, &cap2, x->s2);
			push(&d, &nd, &capd, x->d);
			dsum += x->d;
		}
	rv_fit_prior(s2, d, n, &m->s0sq[k], &m->d0[k]);
	m->neff[k] = effective_figures(m, k);
	if (n && m->d0[k] > 0) {
		cap = (m->neff[k] - 1) * dsum / n;
		if (cap < m->d0[k])
			m->d0[k] = cap > 0 ? cap : 0;
	}
	for (i = 0; i < s->nids; i++)
		for (j = 0; j < m->nrows[i]; j++) {
			struct rv_mod *x = &m->rows[i][j].rc[k].m, plain = *x;

			rv_moderate(&m->rows[i][j].rc[k], m->s0sq[k],
			    m->d0[k]);
			/*
			 * A prior worth fewer df than the figure's own: the
			 * spreads differ more than one prior describes (0.2%
			 * and 30% in one comparison), and shrinking the
			 * widest towards it would make their test liberal.
			 * The more cautious test stands: the plain one when
			 * its p is the larger.
			 */
			if (m->d0[k] < plain.d && !isnan(plain.p) &&
			    !(plain.p <= x->p))
				*x = plain;
		}
	free(s2);
	free(d);
}

/*
 * The level of the default view's tier of the headlines (@head 1) or
 * of the other figures (0), @other the size of the other tier: the
 * view's level, MODEL_VIEW_SHARE of alpha, split MODEL_HEAD_SHARE to
 * the headlines and the rest to the second tier, or all of it to a
 * tier alone.
 */
static double
view_level(const struct model *m, int other, int head)
{
	double view = MODEL_VIEW_SHARE * m->alpha;

	if (!other)
		return view;
	return head ? MODEL_HEAD_SHARE * view : (1 - MODEL_HEAD_SHARE) *
	    view;
}

/* The families of the moderated model, one kernel at a time. */
static void
families(struct model *m)
{
	const struct rl_set *s = m->s;
	int k, i, j, nh, nk, *fs;

	m->alpha_head = m->alpha_key = m->alpha;
	for (k = 1; k < s->nk; k++) {
		moderate(m, k);
		/* the tiers' sizes first: they share alpha */
		for (nh = nk = 0, i = 0; i < s->nids; i++)
			for (j = 0; j < m->nrows[i]; j++) {
				nh += in_family(m, &m->rows[i][j], k,
				    MODEL_FAM_HEAD);
				nk += in_family(m, &m->rows[i][j], k,
				    MODEL_FAM_KEY);
			}
		m->alpha_head = view_level(m, nk, 1);
		m->alpha_key = view_level(m, nh, 0);
		fs = &m->fsize[4 * k];
		fs[MODEL_FAM_HEAD] = family(m, MODEL_FAM_HEAD, k, k,
		    m->alpha_head);
		fs[MODEL_FAM_KEY] = family(m, MODEL_FAM_KEY, k, k,
		    m->alpha_key);
		fs[MODEL_FAM_DETAIL] = family(m, MODEL_FAM_DETAIL, k, k,
		    m->alpha);
	}
	if (s->nk > 1)
		m->alpha_head = m->alpha_key = NAN;
	for (k = 1; k < s->nk; k++) {
		fs = &m->fsize[4 * k];
		if (isnan(m->alpha_head) || fs[MODEL_FAM_KEY])
			m->alpha_head = view_level(m, fs[MODEL_FAM_KEY], 1);
		if (isnan(m->alpha_key) || fs[MODEL_FAM_HEAD])
			m->alpha_key = view_level(m, fs[MODEL_FAM_HEAD], 0);
		m->nhead = fs[MODEL_FAM_HEAD] > m->nhead ?
		    fs[MODEL_FAM_HEAD] : m->nhead;
		m->nkey = fs[MODEL_FAM_KEY] > m->nkey ? fs[MODEL_FAM_KEY] :
		    m->nkey;
		m->ndetail = fs[MODEL_FAM_DETAIL] > m->ndetail ?
		    fs[MODEL_FAM_DETAIL] : m->ndetail;
	}
}

/*
 * Every id's rows, then the families, the stars the views show and
 * the figures of the legend.
 */
static void
build_all(struct model *m)
{
	const struct rl_set *s = m->s;
	int i, j, k;

	for (i = 0; i < s->nids; i++)
		m->nrows[i] = build_rows(m, s->ids[i], &m->rows[i]);
	m->nhead = m->nkey = m->ndetail = 0;
	if (m->legacy) {
		m->alpha_head = m->alpha_key = m->alpha;
		m->nkey = family(m, MODEL_FAM_KEY, 1, s->nk - 1, m->alpha);
		m->ndetail = family(m, MODEL_FAM_DETAIL, 1, s->nk - 1,
		    m->alpha);
		for (k = 1; k < s->nk; k++) {
			m->fsize[4 * k + MODEL_FAM_KEY] = m->nkey;
			m->fsize[4 * k + MODEL_FAM_DETAIL] = m->ndetail;
		}
	} else {
		families(m);
	}
	m->runs_min = m->runs_max = 0;
	m->nhidden = 0;
	for (i = 0; i < s->nids; i++)
		for (j = 0; j < m->nrows[i]; j++)
			for (k = 1; k < s->nk; k++) {
				struct model_row *r = &m->rows[i][j];
				const struct rv_cmp *c = &r->rc[k];
				int n = c->a.n < c->b.n ? c->a.n : c->b.n;

				r->c[k].sig = model_verdict(m, r, k,
				    NULL)->star;
				if (r->vd[k].star && !(in_vk(tier_of(m, r)) &&
				    r->vk[k].star))
					m->nhidden++;
				if (c->why == RV_MISSING)
					continue;
				if (!m->runs_min || n < m->runs_min)
					m->runs_min = n;
				if (n > m->runs_max)
					m->runs_max = n;
			}
}

const struct rv_verdict *
model_verdict_of(const struct model *m, const struct model_row *r, int k,
    int detail)
{
	if (detail)
		return &r->vd[k];
	return in_vk(tier_of(m, r)) ? &r->vk[k] : NULL;
}

const struct rv_verdict *
model_verdict(const struct model *m, const struct model_row *r, int k,
    enum model_family *fam)
{
	enum model_family f = m->detail ? MODEL_FAM_DETAIL : tier_of(m, r);

	if (fam)
		*fam = in_family(m, r, k, f) ? f : MODEL_FAM_NONE;
	return in_vk(f) ? &r->vk[k] : &r->vd[k];
}

const char *
model_family_name(const struct model *m, enum model_family f)
{
	switch (f) {
	case MODEL_FAM_HEAD:
		return "holm-headline";
	case MODEL_FAM_KEY:
		return m->legacy ? "holm-key" : "bh-secondary";
	case MODEL_FAM_DETAIL:
		return "bh-detail";
	default:
		return "none";
	}
}

int
model_family_size(const struct model *m, enum model_family f, int k)
{
	if (f == MODEL_FAM_NONE)
		return 0;
	if (k >= 1 && k < m->s->nk)
		return m->fsize[4 * k + f];
	return f == MODEL_FAM_HEAD ? m->nhead : f == MODEL_FAM_KEY ?
	    m->nkey : m->ndetail;
}

double
model_family_alpha(const struct model *m, enum model_family f)
{
	return f == MODEL_FAM_HEAD ? m->alpha_head : f == MODEL_FAM_KEY ?
	    m->alpha_key : m->alpha;
}

void
model_init(struct model *m, const struct rl_set *s, double min_change)
{
	memset(m, 0, sizeof(*m));
	m->s = s;
	m->alpha = 0.05;
	m->useful = 10;
	m->quiet = 5;
	m->mem_quiet = 25;
	m->min_change = min_change;
	m->fsize = vb_xcalloc((size_t)(4 * (s->nk + 1)), sizeof(int));
	m->s0sq = vb_xcalloc((size_t)(s->nk + 1), sizeof(double));
	m->d0 = vb_xcalloc((size_t)(s->nk + 1), sizeof(double));
	m->neff = vb_xcalloc((size_t)(s->nk + 1), sizeof(double));
	m->rows = vb_xcalloc((size_t)(s->nids ? s->nids : 1),
	    sizeof(*m->rows));
	m->nrows = vb_xcalloc((size_t)(s->nids ? s->nids : 1), sizeof(int));
}

void
model_ready(const struct model *m)
{
	/* computed once, on first use: the views hold a const model */
	struct model *w = (struct model *)m;

	if (!m->rows)
		die("bug: model_ready() before model_init()");
	if (!m->built) {
		build_all(w);
		w->built = 1;
	}
}

int
model_rows(const struct model *m, const char *id, struct model_row **out)
{
	int i = id_index(m->s, id);

	if (i < 0 || !m->rows)
		die("bug: model_rows(%s) before model_init()", id);
	model_ready(m);
	*out = m->rows[i];
	return m->nrows[i];
}

void
model_free(struct model *m)
{
	int i;

	for (i = 0; m->rows && i < m->s->nids; i++)
		free(m->rows[i]);
	arena_free(m);
	rv_memo_free(&m->memo);
	free(m->rows);
	free(m->nrows);
	free(m->fsize);
	free(m->s0sq);
	free(m->d0);
	free(m->neff);
	m->fsize = NULL;
	m->s0sq = m->d0 = m->neff = NULL;
	m->rows = NULL;
	m->nrows = NULL;
}

/* The metric a benchmark is judged by: its headline, else elapsed. */
int
model_headline(const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows)
{
	int i, j;

	for (i = 0; i < s->nk; i++) {
		const struct vb_res *r = rl_find(&s->k[i], id);

		if (r && r->headline[0] &&
		    (j = model_find_row(rows, nrows, r->headline)) >= 0)
			return j;
	}
	if ((j = model_find_row(rows, nrows, "elapsed")) >= 0)
		return j;
	for (j = 0; j < nrows; j++)
		if (rows[j].dir != VB_INFO)
			return j;
	return nrows ? 0 : -1;
}

/* ---- the load beside each run ---- */

/* A time unit: s, ms, us, ns. */
static int
time_unit(const char *unit)
{
	static const char *const units[] = { "s", "ms", "us", "ns" };
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i]))
			return 1;
	return 0;
}

/* Result @id of run @r, or NULL. */
static const struct vb_res *
run_find(const struct rl_run *r, const char *id)
{
	int i;

	for (i = 0; i < r->nres; i++)
		if (!strcmp(r->ids[i], id))
			return &r->res[i];
	return NULL;
}

/*
 * Iterations @i0 to @i1 of @r: the mean foreign_cpu into *@cpu and
 * the mean share of MemTotal others held into *@mem (NAN: none).
 */
static void
iter_load(const struct vb_res *r, int i0, int i1, double *cpu, double *mem)
{
	int f = vb_res_metric_index(r, "foreign_cpu");
	int fm = vb_res_metric_index(r, "foreign_mem_kb");
	int t = vb_res_metric_index(r, "mem_total_kb");
	double sc = 0, sm = 0;
	int i, nc = 0, nm = 0;

	for (i = i0; i < i1; i++) {
		double x = f >= 0 ? vb_res_get(r, i, f) : NAN;
		double y = fm >= 0 ? vb_res_get(r, i, fm) : NAN;
		double tot = t >= 0 ? vb_res_get(r, i, t) : NAN;

		if (!isnan(x)) {
			sc += x;
			nc++;
		}
		if (!isnan(y) && tot > 0) {
			sm += 100 * y / tot;
			nm++;
		}
	}
	*cpu = nc ? sc / nc : NAN;
	*mem = nm ? sm / nm : NAN;
}

void
model_run_loads(const struct rl_kernel *k, const char *id,
    struct model_runload *l)
{
	const struct vb_res *r = rl_find(k, id);
	int i, room;

	memset(l, 0, sizeof(*l));
	l->iter = k->iter_is_run;
	room = run_room(k, r);
	l->index = vb_xcalloc((size_t)room, sizeof(int));
	l->cpu = vb_xcalloc((size_t)room, sizeof(double));
	l->mem = vb_xcalloc((size_t)room, sizeof(double));
	if (!r)
		return;
	if (k->iter_is_run) {
		for (i = 0; i < r->niter; i++, l->n++) {
			l->index[l->n] = i + 1;
			iter_load(r, i, i + 1, &l->cpu[l->n], &l->mem[l->n]);
		}
		return;
	}
	for (i = 0; i < k->nruns && l->n < room; i++) {
		const struct vb_res *x = run_find(&k->runs[i], id);

		if (!x || !x->niter)
			continue;
		l->index[l->n] = k->runs[i].index;
		iter_load(x, 0, x->niter, &l->cpu[l->n], &l->mem[l->n]);
		l->n++;
	}
}

void
model_runload_free(struct model_runload *l)
{
	free(l->index);
	free(l->cpu);
	free(l->mem);
	memset(l, 0, sizeof(*l));
}

/*
 * One side's loads @v (@nv runs, NAN: not recorded): the runs that
 * recorded it into *@n, the loud ones (above @thr) into *@loud, their
 * mean, lowest and highest.
 */
static void
side_load(const double *v, int nv, double thr, int *n, int *loud,
    double *mean, double *lo, double *hi)
{
	double sum = 0;
	int i;

	*n = *loud = 0;
	*mean = *lo = *hi = NAN;
	for (i = 0; i < nv; i++) {
		if (isnan(v[i]))
			continue;
		if (!*n || v[i] < *lo)
			*lo = v[i];
		if (!*n || v[i] > *hi)
			*hi = v[i];
		sum += v[i];
		*loud += v[i] > thr;
		(*n)++;
	}
	if (*n)
		*mean = sum / *n;
}

/* The rule of model_load_cmp() for one kind: 1 when the sides differ. */
static int
loads_differ(const int *n, const int *loud, const double *mean,
    double bound)
{
	double d;

	if (!n[0] || !n[1] || !(loud[0] + loud[1]))
		return 0;
	d = fabs(mean[1] - mean[0]);
	return d > bound && d > 0.25 * fmax(mean[0], mean[1]);
}

int
model_load_cmp(const struct model *m, const char *id, int k,
    struct model_loadcmp *c)
{
	struct model_runload l;
	int side;

	memset(c, 0, sizeof(*c));
	for (side = 0; side < 2; side++) {
		model_run_loads(&m->s->k[side ? k : 0], id, &l);
		side_load(l.cpu, l.n, m->quiet, &c->n[side], &c->loud[side],
		    &c->cpu[side], &c->lo[side], &c->hi[side]);
		side_load(l.mem, l.n, m->mem_quiet, &c->mem_n[side],
		    &c->mem_loud[side], &c->mem[side], &c->mem_lo[side],
		    &c->mem_hi[side]);
		model_runload_free(&l);
	}
	if (k < 1)
		return 0;
	if (loads_differ(c->n, c->loud, c->cpu, m->quiet))
		c->differs |= MODEL_LOAD_CPU;
	if (loads_differ(c->mem_n, c->mem_loud, c->mem, m->mem_quiet / 5))
		c->differs |= MODEL_LOAD_MEM;
	return c->differs;
}

int
model_load_moves(const struct model_row *r, int differs)
{
	size_t n = strlen(r->unit);

	if (r->work || load_figure(r->name) || !differs)
		return 0;
	if (time_unit(r->unit) || (n >= 2 &&
	    !strcmp(r->unit + n - 2, "/s")))
		return 1;
	return (differs & MODEL_LOAD_MEM) && r->scope != MODEL_BENCH;
}

/* ---- what the views ask of a row ---- */

/* A metric is worth a row unless every run of every kernel is 0. */
int
model_all_zero(const struct model_row *r, int nk)
{
	int i, seen = 0;

	/* a metric no kernel measured ("-" throughout) is absent, not zero */
	for (i = 0; i < nk; i++) {
		if (r->d[i].n && (r->d[i].min != 0 || r->d[i].max != 0))
			return 0;
		seen += r->d[i].n > 0;
	}
	return seen > 0;
}

int
model_unmeasured(const struct model_row *r, int nk)
{
	int i;

	for (i = 0; i < nk; i++)
		if (r->d[i].n)
			return 0;
	return 1;
}

int
model_row_shown(const struct model_row *r, int nk)
{
	return !model_all_zero(r, nk) && !model_unmeasured(r, nk);
}

double
model_cov(const struct rs_desc *d)
{
	if (d->n > 1 && d->mean == 0 && d->sd > 0)
		return INFINITY;
	return d->cov;
}

int
model_noisy(const struct rs_desc *d, double thr)
{
	return d->n > 1 && model_cov(d) > thr;
}

double
model_max_cov(const struct model_row *r, int nk, int *who)
{
	double m = 0;
	int i;

	*who = -1;
	for (i = 0; i < nk; i++)
		if (r->d[i].n > 1 && !isnan(model_cov(&r->d[i])) &&
		    model_cov(&r->d[i]) > m) {
			m = model_cov(&r->d[i]);
			*who = i;
		}
	return m;
}

int
model_has_cov(const struct model_row *r, int nk)
{
	int i;

	for (i = 0; i < nk; i++)
		if (r->d[i].n > 1 && !isnan(model_cov(&r->d[i])))
			return 1;
	return 0;
}

int
model_row_noisy(const struct model_row *r, int nk, double noisy)
{
	int who;

	return model_max_cov(r, nk, &who) > noisy;
}

int
model_min_n(const struct model_row *r, int nk)
{
	int i, n = r->d[0].n;

	for (i = 1; i < nk; i++)
		if (r->d[i].n < n)
			n = r->d[i].n;
	return n;
}

int
model_decimals(const struct model_row *r, int nk)
{
	double big = 0;
	int i, mag;

	for (i = 0; i < nk; i++)
		if (r->d[i].n && isfinite(r->d[i].mean) &&
		    fabs(r->d[i].mean) > big)
			big = fabs(r->d[i].mean);
	if (big == 0)
		return 0;
	if (r->integral)
		return big >= 1000 ? 0 : 1;
	mag = (int)floor(log10(big));
	mag = 4 - mag;
	return mag < 0 ? 0 : mag > 4 ? 4 : mag;
}

/* ---- whose counter ---- */

enum model_scope
model_scope_of(const char *metric)
{
	static const char *const sys[] = {
		"pswpin", "pswpout", "pgmajfault", "pgfault", "pgscan_kswapd",
		"pgscan_direct", "pgsteal_kswapd", "pgsteal_direct",
		"allocstall", "workingset_refault", "thp_fault_alloc",
		"oom_kill", "pgpgin", "pgpgout", "pgscan_total",
		"pgsteal_total", "foreign_cpu", "runq", "foreign_mem_kb",
		"mem_total_kb", "mem_avail_kb", "mem_avail_min_kb", NULL,
	};
	int i;

	if (!strncmp(metric, "cg_", 3))
		return MODEL_CGROUP;
	/* PSI and the tracepoint figures (src/lib/psi.h, trace.h) */
	if (!strncmp(metric, "psi_", 4) || !strncmp(metric, "reclaim_", 8) ||
	    !strncmp(metric, "compaction_", 11) || !strcmp(metric,
	    "kswapd_wake_n") || !strcmp(metric, "trace_lost"))
		return MODEL_SYSTEM;
	for (i = 0; sys[i]; i++)
		if (!strcmp(metric, sys[i]))
			return MODEL_SYSTEM;
	return MODEL_BENCH;
}

const char *
model_scope_name(enum model_scope sc)
{
	return sc == MODEL_SYSTEM ? "system" : sc == MODEL_CGROUP ?
	    "cgroup" : "benchmark";
}

const char *
model_scope_tag(enum model_scope sc)
{
	return sc == MODEL_SYSTEM ? "[system]" : sc == MODEL_CGROUP ?
	    "[cgroup]" : "";
}

/* ---- results and ids ---- */

const struct vb_res *
model_any(const struct rl_set *s, const char *id)
{
	const struct vb_res *r;
	int k;

	for (k = 0; k < s->nk; k++)
		if ((r = rl_find(&s->k[k], id)))
			return r;
	return NULL;
}

double
model_mean(const struct vb_res *r, const char *name)
{
	struct rs_desc d;
	int m;

	if (!r || (m = vb_res_metric_index(r, name)) < 0)
		return NAN;
	rs_describe(r->vals + m, r->niter, r->nmetrics, &d);
	return d.n ? d.mean : NAN;
}

const char *
model_bench_of(const char *id, char *buf, size_t len)
{
	const char *at = strchr(id, '@');

	snprintf(buf, len, "%.*s", at ? (int)(at - id) : (int)strlen(id), id);
	return buf;
}

const char *
model_variant_of(const char *id)
{
	const char *at = strchr(id, '@');

	return at ? at + 1 : "default";
}

/* ---- the summary's geometric mean ---- */

int
model_time_like(const struct model_row *r)
{
	return r->dir == VB_LOWER && time_unit(r->unit);
}

/* A metric the geometric mean may take: an id's index and its row. */
struct geo_member {
	int id;
	const char *name;
	int na, nb;
};

/* By id, then by name: the order members are added in. */
static int
cmp_member(const void *x, const void *y)
{
	const struct geo_member *a = x, *b = y;

	return a->id != b->id ? (a->id > b->id) - (a->id < b->id) :
	    strcmp(a->name, b->name);
}

/* Every value of @v[0..n-1] positive and finite (a log can be taken). */
static int
all_positive(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0) || isinf(v[i]))
			return 0;
	return n > 0;
}

/*
 * Run counts @x, shared by @cx members, before @y's (@cy members): an
 * interval first (2 runs a side or more), then more members, then more
 * runs, then more of the baseline's.
 */
static int
geo_better(const struct geo_member *x, int cx, const struct geo_member *y,
    int cy)
{
	int ix = x->na > 1 && x->nb > 1, iy = y->na > 1 && y->nb > 1;

	if (ix != iy)
		return ix > iy;
	if (cx != cy)
		return cx > cy;
	if (x->na + x->nb != y->na + y->nb)
		return x->na + x->nb > y->na + y->nb;
	return x->na > y->na;
}

/*
 * Over every id's time-like rows, runs as the unit: a score a run needs
 * every metric of that run, so the members are the metrics of the run
 * counts (na, nb) most of them share, of those that give an interval
 * (geo_better()), the others left out.  Membership and the order of
 * the sums depend on the metrics, never on the order of their names.
 */
void
model_geo(const struct model *m, int k, struct rs_georun *g)
{
	const struct rl_set *s = m->s;
	struct model_row *rows;
	struct geo_member *mem = NULL;
	double *a, *b;
	int i, j, n, na, nb, nm = 0, best = -1, bn = 0, c;

	memset(g, 0, sizeof(*g));
	g->g = g->lo = g->hi = g->df = NAN;
	for (i = 0; i < s->nids; i++) {
		n = model_rows(m, s->ids[i], &rows);
		for (j = 0; j < n; j++) {
			/* another amount of work is not compared */
			if (!model_time_like(&rows[j]) ||
			    rows[j].other_work[k] || rows[j].load[k])
				continue;
			na = model_run_means(&s->k[0], s->ids[i],
			    rows[j].name, &a);
			nb = model_run_means(&s->k[k], s->ids[i],
			    rows[j].name, &b);
			if (all_positive(a, na) && all_positive(b, nb)) {
				mem = vb_xrealloc(mem, (size_t)(nm + 1) *
				    sizeof(*mem));
				mem[nm].id = i;
				mem[nm].name = rows[j].name;
				mem[nm].na = na;
				mem[nm++].nb = nb;
			}
			free(a);
			free(b);
		}
	}
	/* the run counts most members share, of those with an interval */
	for (i = 0; i < nm; i++) {
		for (c = 0, j = 0; j < nm; j++)
			c += mem[j].na == mem[i].na && mem[j].nb == mem[i].nb;
		if (best < 0 || geo_better(&mem[i], c, &mem[best], bn)) {
			best = i;
			bn = c;
		}
	}
	if (best < 0 || rs_georun_init(g, mem[best].na, mem[best].nb) < 0) {
		free(mem);
		return;
	}
	qsort(mem, (size_t)nm, sizeof(*mem), cmp_member);
	for (i = 0; i < nm; i++) {
		if (mem[i].na != g->na || mem[i].nb != g->nb)
			continue;
		model_run_means(&s->k[0], s->ids[mem[i].id], mem[i].name, &a);
		model_run_means(&s->k[k], s->ids[mem[i].id], mem[i].name, &b);
		rs_georun_add(g, a, b);
		free(a);
		free(b);
	}
	free(mem);
	rs_georun_finish(g);
}
