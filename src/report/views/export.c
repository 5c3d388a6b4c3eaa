/*
 * export.c - every statistic as CSV (RFC 4180 quoting) or JSON.  Absent
 * or undefined values are empty fields in CSV and null in JSON (never
 * NaN or Infinity).  Numbers are printed with 10 significant digits, so
 * the files round-trip.
 *
 * CSV is three tables, each one rectangular with a fixed header, one
 * a call (vmreport --format csv --what metrics|settings|summary), each
 * ending in the column format_version (EXPORT_FORMAT_VERSION, export.h;
 * JSON: a top-level field).  The metrics table's columns, CSV's and
 * JSON's, are one list (EXPORT_COLUMNS, below):
 * - metrics (the default): one row per kernel, benchmark and metric;
 * - settings: "kernel,setting,value", one row per kernel and setting
 *   that differs between the folders (rl_meta_diffs(); an empty value:
 *   not recorded), then per kernel its machine (setup_machines_of():
 *   "machine", its name, and "machine_no", its number: more than one
 *   number, the folders come from more than one machine);
 * - summary: per kernel but the baseline, the geometric mean of its
 *   time-like ratios to the baseline with its 95% interval
 *   (model_geo(): the text summary's figure).
 * JSON is one object holding all three: "settings_differ", key ->
 * { kernel label -> value or null }, "machines", [{kernel, machine
 * (its number), name}], "mixed_machines", true or false; "summary",
 * the summary's rows; "benchmarks", one object per benchmark.
 *
 * The metrics' fields n ... ratio_unbounded are of the iterations,
 * pooled over a folder's runs (welch_p, welch_df and the ratio: the
 * iteration-level test, never starred); ratio_unbounded and the ratio's
 * interval are empty/null with one iteration on a side.  significant is
 * the star of the view asked for, from the row's own tier (model_verdict():
 * without --detail a headline's Holm family, every other figure but the
 * load's the secondary Benjamini-Hochberg family, the load's figures
 * --detail's; with --detail every figure the detail family: the family
 * column names it); significant_default is always the default view's
 * star (empty for the load's figures, which it does not test) and
 * significant_detail always --detail's; each is empty/null when there is
 * no run-level test (one run on a side, no spread and one value on both
 * sides).
 * The run-level fields: runs and boots of that kernel's side (a folder
 * of make ab's: its iterations are its runs), run_p the raw p of the
 * test that decides (the moderated t on the run means), adjusted_p
 * within family (holm-key, bh-detail; none: not tested) of family_size
 * tests, verdict (changed, same, can't tell),
 * same_bound_pct X of "same within +-X%", tost_p the larger p of the
 * two one-sided tests, runs_needed the runs a side a decision would
 * need at this spread, change_ci_low/high the change's 95% interval in
 * % (Fieller's on the run means).  Every JSON kernel entry has the same
 * fields, null where they do not apply (the baseline, a side with no
 * run).  noisy: the metric's, as the text's ~: CoV above the threshold,
 * or a mean of 0 with spread, in some kernel (model_row_noisy()), the
 * same in each kernel's row; empty/null for a kernel with no run; scope says
 * whose counter a metric is (benchmark, system, cgroup); quiet and
 * foreign_cpu say how busy the machine was with other work during that
 * kernel's run of the benchmark (1/true: quiet; empty/null: not
 * recorded); key: a key figure (the default view's); headline: the
 * benchmark's headline figure (the summary's table); mem_quiet and
 * foreign_mem_pct the same of the memory other processes held (% of
 * MemTotal, mean at an iteration's start; JSON: in "load");
 * work_differs names the benchmark's work figure that differs between
 * that kernel and the baseline (model_work_of(); its rows are then not
 * compared: verdict "other work"), empty/null when the work is the
 * same; verdict_reason "different_loads" when the sides ran under
 * different loads and the load can move the figure (model_load_cmp():
 * verdict can't tell whatever the test), else empty/null.
 *
 * JSON strings are valid UTF-8: control characters (C0, DEL and C1) as
 * \u00XX, a byte that is not part of a UTF-8 character as \ufffd (the
 * replacement character).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "model.h"
#include "msg.h"
#include "setup.h"
#include "util.h"

#define VR_VIEW_EXPORT		/* its own header */
#include "export.h"

/*
 * The exports' text goes through a buffer of their own, written out in
 * large pieces: a CSV of 100 folders is some 3 million fields, and a
 * stdio call a field cost more than the figures.
 */
struct out {
	FILE *f;
	size_t len;
	char s[1 << 16];
};

static void
out_flush(struct out *o)
{
	if (o->len)
		fwrite(o->s, 1, o->len, o->f);
	o->len = 0;
}

static void
out_mem(struct out *o, const char *p, size_t n)
{
	if (o->len + n > sizeof(o->s)) {
		out_flush(o);
		if (n > sizeof(o->s)) {
			fwrite(p, 1, n, o->f);
			return;
		}
	}
	memcpy(o->s + o->len, p, n);
	o->len += n;
}

static void
out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static void
out_chr(struct out *o, int c)
{
	if (o->len == sizeof(o->s))
		out_flush(o);
	o->s[o->len++] = (char)c;
}

static void VB_PRINTF(2, 3)
out_printf(struct out *o, const char *fmt, ...)
{
	char b[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(b)) {
		out_mem(o, b, (size_t)n);
		return;
	}
	big = vb_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	out_mem(o, big, (size_t)n);
	free(big);
}

static void
csv_str(struct out *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n")) {
		out_chr(f, '"');
		for (; *s; s++) {
			if (*s == '"')
				out_chr(f, '"');
			out_chr(f, *s);
		}
		out_chr(f, '"');
	} else {
		out_str(f, s);
	}
}

/* @v as "%d" prints it (the rows' integers, without printf). */
static void
put_int(struct out *f, int v)
{
	char b[16], *p = b + sizeof(b);
	unsigned u = v < 0 ? 0U - (unsigned)v : (unsigned)v;

	*--p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	out_str(f, p);
}

/*
 * A number as the exports print it: 10 significant digits, and zero
 * as 0 (never -0, which a mean of -0 values or a rounding gives).
 */
static const char *
xnum(char *b, double v)
{
	return fmt_g10(b, v == 0 ? 0 : v);
}

static void
csv_num(struct out *f, double v)
{
	char b[FMT_G10_LEN];

	out_chr(f, ',');
	if (!isnan(v) && !isinf(v))
		out_str(f, xnum(b, v));
}

/* The runs of kernel @k behind row @r (its iterations: make ab). */
static int
runs_of(const struct model *md, const struct model_row *r, int k)
{
	if (md->s->nk > 1)
		return k ? r->rc[k].b.n : r->rc[1].a.n;
	return md->s->k[k].nruns;
}

/* Is there a ratio interval (bounded or not): two runs a side or more? */
static int
has_interval(const struct rs_desc *a, const struct rs_desc *b)
{
	return a->n > 1 && b->n > 1;
}

static const char *
status_of(const struct rl_set *s, int k, const char *id)
{
	const struct vb_res *r = rl_find(&s->k[k], id);

	return r ? r->status : "missing";
}

static const char *const what_names[] = { "metrics", "settings", "summary" };

int
export_what_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(what_names) / sizeof(what_names[0]); i++)
		if (!strcmp(name, what_names[i]))
			return (int)i;
	return -1;
}

/* A row "kernel,setting,value" of the settings table. */
static void
csv_setting(struct out *f, const char *kernel, const char *key, const char *val)
{
	csv_str(f, kernel);
	out_chr(f, ',');
	csv_str(f, key);
	out_chr(f, ',');
	if (val)
		csv_str(f, val);
	out_chr(f, ',');
	put_int(f, EXPORT_FORMAT_VERSION);
	out_chr(f, '\n');
}

/*
 * --what settings: the settings that differ, per folder (key by key,
 * the order of the text view), then each folder's machine: its name
 * and its number (setup_machines_of()).
 */
void
export_csv_settings(FILE *file, const struct model *md,
    const struct report_opts *o)
{
	struct out ob = { .f = file }, *f = &ob;
	const struct rl_set *s = md->s;
	struct setup_machines m;
	struct rl_mdiff *d;
	char name[512], no[16];
	int n = rl_meta_diffs(s, &d), i, k;

	(void)o;
	out_str(f, "kernel,setting,value,format_version\n");
	for (i = 0; i < n; i++)
		for (k = 0; k < s->nk; k++)
			csv_setting(f, s->k[k].label, d[i].key, d[i].val[k]);
	rl_free_mdiffs(d, n);
	setup_machines_of(s, &m);
	for (k = 0; k < s->nk; k++) {
		csv_setting(f, s->k[k].label, "machine",
		    setup_machine_name(name, sizeof(name), &s->k[k]));
		snprintf(no, sizeof(no), "%d", m.of[k] + 1);
		csv_setting(f, s->k[k].label, "machine_no", no);
	}
	setup_machines_free(&m);
	out_flush(f);
}

/*
 * --what summary: per kernel but the baseline, the geometric mean of
 * its time-like ratios to the baseline and its 95% interval, runs as
 * the unit (model_geo(), the text summary's table).
 */
void
export_csv_summary(FILE *file, const struct model *md,
    const struct report_opts *o)
{
	struct out ob = { .f = file }, *f = &ob;
	const struct rl_set *s = md->s;
	struct rs_georun g;
	int k;

	(void)o;
	out_str(f, "kernel,baseline,metrics,runs_baseline,runs,geomean_ratio,"
	    "geomean_ci_low,geomean_ci_high,format_version\n");
	for (k = 1; k < s->nk; k++) {
		model_geo(md, k, &g);
		csv_str(f, s->k[k].label);
		out_chr(f, ',');
		csv_str(f, s->k[0].label);
		out_printf(f, ",%d,", g.k);
		if (g.k)
			out_printf(f, "%d,%d", g.na, g.nb);
		else
			out_chr(f, ',');
		csv_num(f, g.k ? g.g : NAN);
		csv_num(f, g.k ? g.lo : NAN);
		csv_num(f, g.k ? g.hi : NAN);
		out_chr(f, ',');
		put_int(f, EXPORT_FORMAT_VERSION);
		out_chr(f, '\n');
		rs_georun_free(&g);
	}
	out_flush(f);
}

/*
 * What every row of one benchmark shares per kernel, worked out once
 * for all its metrics: the load figures (setup_mem_of(), whose CPU
 * figures are setup_quiet_of()'s at o->quiet) and the work figure that
 * differs (model_work_of(); NULL when none).
 */
struct per_kernel {
	struct setup_quiet q;
	const char *work;
};

/* @id's struct per_kernel of every kernel (allocated). */
static struct per_kernel *
per_kernel_of(const struct rl_set *s, const char *id,
    const struct report_opts *o)
{
	struct per_kernel *pk = vb_xcalloc((size_t)s->nk, sizeof(*pk));
	struct model_work w;
	int k;

	for (k = 0; k < s->nk; k++) {
		setup_mem_of(rl_find(&s->k[k], id), o, &pk[k].q);
		pk[k].work = model_work_of(s, id, k, &w) ? w.metric : NULL;
	}
	return pk;
}

static void
json_str(struct out *f, const char *s)
{
	size_t n = strlen(s), u;

	out_chr(f, '"');
	while (n > 0) {
		unsigned char ch = (unsigned char)*s;

		/* a run of plain ASCII goes out as it is */
		for (u = 0; u < n && (unsigned char)s[u] >= 0x20 &&
		    (unsigned char)s[u] < 0x7f && s[u] != '"' &&
		    s[u] != '\\'; u++)
			;
		if (u) {
			out_mem(f, s, u);
			s += u;
			n -= u;
			continue;
		}
		u = vb_utf8_len(s, n);
		if (ch == '"' || ch == '\\')
			out_printf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			out_printf(f, "\\u%04x", ch);
		else if (u == 2 && ch == 0xc2 && (unsigned char)s[1] < 0xa0)
			out_printf(f, "\\u%04x", (unsigned char)s[1]); /* C1 */
		else if (u == 0)
			out_str(f, "\\ufffd");
		else
			out_mem(f, s, u);
		u = u ? u : 1;
		s += u;
		n -= u;
	}
	out_chr(f, '"');
}

static void
json_num(struct out *f, const char *key, double v)
{
	char b[FMT_G10_LEN];

	out_mem(f, ", \"", 3);
	out_str(f, key);
	out_mem(f, "\": ", 3);
	if (isnan(v) || isinf(v))
		out_mem(f, "null", 4);
	else
		out_str(f, xnum(b, v));
}

struct xrow;
static long star_in(const struct xrow *x, int detail);

/*
 * The metrics table's columns, one row each: the CSV's header and
 * rows (in this order) and the JSON's metric and kernel entries come
 * from it.  A row: the column's name, its JSON key (0: the same), its
 * type, where JSON has it and in which place there, and its value for
 * one kernel's row of one metric (struct xrow *x), null as NAN (NUM),
 * -1 (INT, BOOL) or NULL (STR).  Where: K in each kernel's entry of a
 * metric, M in the metric's object (the same for every kernel), N not
 * in the metric's objects (the benchmark's "id"; the load figures,
 * which JSON holds per benchmark in "load"; format_version, a
 * top-level field).  A new column is one row: the CSV gains it at its
 * place, the JSON's entry at its number.
 */
#define EXPORT_COLUMNS(X) \
X(kernel, 0, STR, K, 0, x->s->k[x->k].label) \
X(benchmark, 0, STR, N, 0, x->id) \
X(metric, "name", STR, M, 0, x->r->name) \
X(unit, 0, STR, M, 1, x->r->unit) \
X(direction, 0, STR, M, 2, vb_dir_name(x->r->dir)) \
X(status, 0, STR, K, 1, status_of(x->s, x->k, x->id)) \
X(n, 0, INT, K, 2, x->d->n) \
X(mean, 0, NUM, K, 3, x->d->mean) \
X(sd, 0, NUM, K, 4, x->d->sd) \
X(cov, 0, NUM, K, 5, x->d->cov) \
X(min, 0, NUM, K, 6, x->d->min) \
X(median, 0, NUM, K, 7, x->d->median) \
X(max, 0, NUM, K, 8, x->d->max) \
X(ci_low, 0, NUM, K, 9, x->d->ci_lo) \
X(ci_high, 0, NUM, K, 10, x->d->ci_hi) \
X(change_pct, 0, NUM, K, 12, x->c ? x->c->pct : NAN) \
X(welch_p, 0, NUM, K, 13, x->c ? x->c->w.p : NAN) \
X(welch_df, 0, NUM, K, 14, x->c ? x->c->w.df : NAN) \
X(significant, 0, BOOL, K, 15, \
    x->c && !isnan(x->v->p) ? x->c->sig : -1) \
X(significant_default, 0, BOOL, K, 34, star_in(x, 0)) \
X(significant_detail, 0, BOOL, K, 35, star_in(x, 1)) \
X(ratio, 0, NUM, K, 28, x->c ? x->c->ratio.r : NAN) \
X(ratio_ci_low, 0, NUM, K, 29, x->c ? x->c->ratio.lo : NAN) \
X(ratio_ci_high, 0, NUM, K, 30, x->c ? x->c->ratio.hi : NAN) \
X(ratio_unbounded, 0, BOOL, K, 31, x->c && has_interval(&x->r->d[0], \
    x->d) ? x->c->ratio.unbounded : -1) \
X(noisy, 0, BOOL, K, 11, x->d->n ? x->noisy : -1) \
X(scope, 0, STR, M, 3, model_scope_name(x->r->scope)) \
X(quiet, 0, BOOL, N, 0, x->pk->q.quiet) \
X(foreign_cpu, 0, NUM, N, 0, x->pk->q.mean) \
X(runs, 0, INT, K, 16, runs_of(x->md, x->r, x->k)) \
X(boots, 0, INT, K, 17, x->s->k[x->k].nboots) \
X(run_p, 0, NUM, K, 18, x->v ? x->v->p : NAN) \
X(adjusted_p, 0, NUM, K, 19, \
    x->v && x->fam != MODEL_FAM_NONE ? x->v->p_adj : NAN) \
X(family, 0, STR, K, 20, x->v ? model_family_name(x->md, x->fam) : NULL) \
X(family_size, 0, INT, K, 21, \
    x->v ? model_family_size(x->md, x->fam, x->k) : -1) \
X(verdict, 0, STR, K, 22, x->v ? rv_word_name(x->v->word) : NULL) \
X(same_bound_pct, 0, NUM, K, 23, x->v ? x->v->bound : NAN) \
X(tost_p, 0, NUM, K, 24, x->v ? x->v->tost_p : NAN) \
X(runs_needed, 0, NUM, K, 25, x->v ? x->v->runs_needed : NAN) \
X(change_ci_low, 0, NUM, K, 26, x->v ? x->v->lo : NAN) \
X(change_ci_high, 0, NUM, K, 27, x->v ? x->v->hi : NAN) \
X(key, 0, BOOL, M, 4, x->r->key != 0) \
X(headline, 0, BOOL, M, 5, x->headline) \
X(mem_quiet, 0, BOOL, N, 0, x->pk->q.mem_quiet) \
X(foreign_mem_pct, 0, NUM, N, 0, x->pk->q.mem_mean) \
X(work_differs, 0, STR, K, 32, x->pk->work) \
X(verdict_reason, 0, STR, K, 33, x->k && x->v && x->v->load ? \
    "different_loads" : NULL) \
X(format_version, 0, INT, N, 0, EXPORT_FORMAT_VERSION)

/*
 * One kernel's row of one metric, as the columns see it: @c, @v NULL
 * for the baseline and a kernel with no run of it (nothing compared),
 * @fam the family of @v.
 */
struct xrow {
	const struct model *md;
	const struct rl_set *s;
	const char *id;
	const struct model_row *r;
	int k, headline, noisy;
	const struct rs_desc *d;
	const struct rs_cmp *c;
	const struct rv_verdict *v;
	enum model_family fam;
	const struct per_kernel *pk;
};

/*
 * The star of the default view (@detail 0: its tier's verdict) or of
 * --detail's (1) on @x, whichever view the report was asked for; -1
 * (empty) for the baseline, a kernel with no run, a figure that view
 * does not test, and no run-level test (one run on a side).
 */
static long
star_in(const struct xrow *x, int detail)
{
	const struct rv_verdict *v;

	if (!x->c || !(v = model_verdict_of(x->md, x->r, x->k, detail)))
		return -1;
	return isnan(v->p) ? -1 : v->star;
}

/* A column's value: num (NUM), i (INT, BOOL) or s (STR). */
struct xval {
	double num;
	long i;
	const char *s;
};

enum xtype { XT_NUM, XT_INT, XT_BOOL, XT_STR };
enum xwhere { XW_K, XW_M, XW_N };

#define XV_NUM(e)	{ .num = (e) }
#define XV_INT(e)	{ .i = (e) }
#define XV_BOOL(e)	{ .i = (e) }
#define XV_STR(e)	{ .s = (e) }

#define X(name, jname, type, where, ord, expr) \
static struct xval \
get_##name(const struct xrow *x) \
{ \
	const struct xval v = XV_##type(expr); \
 \
	(void)x; \
	return v; \
}
EXPORT_COLUMNS(X)
#undef X

struct xcol {
	const char *name, *jname;
	enum xtype type;
	enum xwhere where;
	int ord;			/* the place in JSON's object */
	struct xval (*get)(const struct xrow *x);
};

#define X(name, jname, type, where, ord, expr) \
	{ #name, jname ? jname : #name, XT_##type, XW_##where, ord, \
	  get_##name },
static const struct xcol xcols[] = { EXPORT_COLUMNS(X) };
#undef X

#define NXCOLS ((int)(sizeof(xcols) / sizeof(xcols[0])))

int
export_ncolumns(void)
{
	return NXCOLS;
}

const char *
export_column(int i, const char **jname, int *in_json)
{
	if (i < 0 || i >= NXCOLS)
		return NULL;
	if (jname)
		*jname = xcols[i].jname;
	if (in_json)
		*in_json = xcols[i].where == XW_K ? 'K' :
		    xcols[i].where == XW_M ? 'M' : 0;
	return xcols[i].name;
}

/* Is @v null as a value of type @t? */
static int
xval_null(enum xtype t, const struct xval *v)
{
	return t == XT_NUM ? !isfinite(v->num) : t == XT_STR ? !v->s :
	    v->i < 0;
}


/* Column @c's value in @x into the CSV row (no separator). */
static void
csv_col(struct out *f, const struct xcol *c, const struct xrow *x)
{
	char b[FMT_G10_LEN];
	struct xval v = c->get(x);

	if (xval_null(c->type, &v))
		return;
	if (c->type == XT_NUM)
		out_str(f, xnum(b, v.num));
	else if (c->type == XT_STR)
		csv_str(f, v.s);
	else
		put_int(f, (int)v.i);
}

/* @k's row of metric @r of @id into @x (the verdict once). */
static void
xrow_of(struct xrow *x, const struct model *md, const char *id,
    struct model_row *r, int k)
{
	x->md = md;
	x->s = md->s;
	x->id = id;
	x->r = r;
	x->k = k;
	x->d = &r->d[k];
	x->c = NULL;
	x->v = NULL;
	x->fam = MODEL_FAM_NONE;
	if (k > 0)
		rs_cmp_ratio(&r->d[0], x->d, &r->c[k]);
	if (k > 0 && x->d->n) {
		x->c = &r->c[k];
		x->v = model_verdict(md, r, k, &x->fam);
	}
}

void
export_csv(FILE *file, const struct model *md, const struct report_opts *o)
{
	struct out ob = { .f = file }, *f = &ob;
	const struct rl_set *s = md->s;
	struct model_row *rows;
	struct xrow x;
	int i, j, k, c, n, hl;

	for (c = 0; c < NXCOLS; c++) {
		if (c)
			out_chr(f, ',');
		out_str(f, xcols[c].name);
	}
	out_chr(f, '\n');
	for (i = 0; i < s->nids; i++) {
		struct per_kernel *pk = per_kernel_of(s, s->ids[i], o);

		n = model_rows(md, s->ids[i], &rows);
		hl = model_headline(s, s->ids[i], rows, n);
		for (j = 0; j < n; j++) {
			int noisy = model_row_noisy(&rows[j], s->nk, o->noisy);

			for (k = 0; k < s->nk; k++) {
				xrow_of(&x, md, s->ids[i], &rows[j], k);
				x.headline = j == hl;
				x.noisy = noisy;
				x.pk = &pk[k];
				for (c = 0; c < NXCOLS; c++) {
					if (c)
						out_chr(f, ',');
					csv_col(f, &xcols[c], &x);
				}
				out_chr(f, '\n');
			}
		}
		free(pk);
	}
	out_flush(f);
}

/* "settings_same" and "settings_differ": key -> { label: value } */
static void
json_settings(struct out *f, const struct rl_set *s)
{
	struct rl_mdiff *d;
	int n = rl_meta_diffs(s, &d), i, k;

	out_printf(f, "  \"settings_same\": %s,\n  \"settings_differ\": {",
	    n ? "false" : "true");
	for (i = 0; i < n; i++) {
		out_printf(f, "%s\n    ", i ? "," : "");
		json_str(f, d[i].key);
		out_str(f, ": {");
		for (k = 0; k < s->nk; k++) {
			out_str(f, k ? ", " : "");
			json_str(f, s->k[k].label);
			out_str(f, ": ");
			if (d[i].val[k])
				json_str(f, d[i].val[k]);
			else
				out_str(f, "null");
		}
		out_chr(f, '}');
	}
	out_str(f, n ? "\n  }" : "}");
	rl_free_mdiffs(d, n);
}

/*
 * "machines": per folder its machine's number and name; "mixed_machines":
 * whether the folders come from more than one machine.
 */
static void
json_machines(struct out *f, const struct rl_set *s)
{
	struct setup_machines m;
	char name[512];
	int k;

	setup_machines_of(s, &m);
	out_str(f, ",\n  \"machines\": [");
	for (k = 0; k < s->nk; k++) {
		out_str(f, k ? ",\n    {\"kernel\": " : "\n    {\"kernel\": ");
		json_str(f, s->k[k].label);
		out_printf(f, ", \"machine\": %d, \"name\": ", m.of[k] + 1);
		json_str(f, setup_machine_name(name, sizeof(name), &s->k[k]));
		out_chr(f, '}');
	}
	out_printf(f, "\n  ],\n  \"mixed_machines\": %s", m.n > 1 ? "true" :
	    "false");
	setup_machines_free(&m);
}

/* "load": per kernel, how busy the machine was with other work. */
static void
json_load(struct out *f, const struct rl_set *s, const char *id,
    const struct report_opts *o)
{
	struct setup_quiet q;
	int k;

	out_str(f, ", \"load\": [");
	for (k = 0; k < s->nk; k++) {
		setup_mem_of(rl_find(&s->k[k], id), o, &q);
		out_str(f, k ? ", {\"kernel\": " : "{\"kernel\": ");
		json_str(f, s->k[k].label);
		out_printf(f, ", \"n\": %d", q.n);
		json_num(f, "foreign_cpu_mean", q.mean);
		json_num(f, "foreign_cpu_max", q.max);
		out_printf(f, ", \"quiet\": %s", q.quiet < 0 ? "null" :
		    q.quiet ? "true" : "false");
		json_num(f, "foreign_mem_pct_mean", q.mem_mean);
		json_num(f, "foreign_mem_pct_max", q.mem_max);
		json_num(f, "mem_avail_min_kb", q.avail_min_kb);
		out_printf(f, ", \"mem_quiet\": %s}", q.mem_quiet < 0 ? "null" :
		    q.mem_quiet ? "true" : "false");
	}
	out_chr(f, ']');
}

/* "summary": the rows of --what summary (export_csv_summary()). */
static void
json_summary(struct out *f, const struct model *md)
{
	const struct rl_set *s = md->s;
	struct rs_georun g;
	int k;

	out_str(f, ",\n  \"summary\": [");
	for (k = 1; k < s->nk; k++) {
		model_geo(md, k, &g);
		out_str(f, k > 1 ? ",\n    {\"kernel\": " :
		    "\n    {\"kernel\": ");
		json_str(f, s->k[k].label);
		out_str(f, ", \"baseline\": ");
		json_str(f, s->k[0].label);
		out_printf(f, ", \"metrics\": %d, \"runs_baseline\": ", g.k);
		if (g.k)
			out_printf(f, "%d, \"runs\": %d", g.na, g.nb);
		else
			out_str(f, "null, \"runs\": null");
		json_num(f, "geomean_ratio", g.k ? g.g : NAN);
		json_num(f, "geomean_ci_low", g.k ? g.lo : NAN);
		json_num(f, "geomean_ci_high", g.k ? g.hi : NAN);
		out_chr(f, '}');
		rs_georun_free(&g);
	}
	out_str(f, s->nk > 1 ? "\n  ]" : "]");
}

/* Column @c's value in @x as JSON ("key": value). */
static void
json_col(struct out *f, const struct xcol *c, const struct xrow *x)
{
	char b[FMT_G10_LEN];
	struct xval v = c->get(x);

	out_chr(f, '"');
	out_str(f, c->jname);
	out_mem(f, "\": ", 3);
	if (xval_null(c->type, &v))
		out_mem(f, "null", 4);
	else if (c->type == XT_NUM)
		out_str(f, xnum(b, v.num));
	else if (c->type == XT_STR)
		json_str(f, v.s);
	else if (c->type == XT_BOOL)
		out_str(f, v.i ? "true" : "false");
	else
		put_int(f, (int)v.i);
}

/*
 * The columns JSON has in @where, in their order there, into @idx;
 * returns how many.
 */
static int
json_cols(enum xwhere where, int *idx)
{
	int c, n = 0, i;

	for (c = 0; c < NXCOLS; c++) {
		if (xcols[c].where != where)
			continue;
		for (i = n++; i > 0 && xcols[idx[i - 1]].ord > xcols[c].ord;
		    i--)
			idx[i] = idx[i - 1];
		idx[i] = c;
	}
	return n;
}

/* The fields @idx[0..@n) of @x, ", " between them. */
static void
json_fields(struct out *f, const int *idx, int n, const struct xrow *x)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			out_mem(f, ", ", 2);
		json_col(f, &xcols[idx[i]], x);
	}
}

void
export_json(FILE *file, const struct model *md, const struct report_opts *o)
{
	struct out ob = { .f = file }, *f = &ob;
	const struct rl_set *s = md->s;
	struct model_row *rows;
	struct xrow x;
	int kc[NXCOLS], mc[NXCOLS], nkc, nmc, i, j, k, n, hl;

	nkc = json_cols(XW_K, kc);
	nmc = json_cols(XW_M, mc);
	out_printf(f, "{\n  \"format_version\": %d,\n  \"baseline\": ",
	    EXPORT_FORMAT_VERSION);
	json_str(f, s->k[0].label);
	out_str(f, ",\n  \"kernels\": [");
	for (k = 0; k < s->nk; k++) {
		out_str(f, k ? ", " : "");
		json_str(f, s->k[k].label);
	}
	model_ready(md);
	out_printf(f, "],\n  \"noisy_cov\": %.10g,\n  \"min_change_pct\": "
	    "%.10g,\n  \"quiet_threshold_pct\": %.10g,\n  "
	    "\"mem_threshold_pct\": %.10g,\n  \"alpha\": "
	    "%.10g,\n  \"useful_pct\": %.10g,\n  \"families\": "
	    "{\"holm-headline\": %d, \"bh-secondary\": %d, "
	    "\"bh-detail\": %d},\n", o->noisy + 0.0, md->min_change + 0.0,
	    o->quiet + 0.0, o->mem_quiet + 0.0, md->alpha, md->useful,
	    md->nhead, md->nkey, md->ndetail);	/* + 0.0: never -0 */
	json_settings(f, s);
	json_machines(f, s);
	json_summary(f, md);
	out_str(f, ",\n  \"benchmarks\": [");
	for (i = 0; i < s->nids; i++) {
		struct per_kernel *pk = per_kernel_of(s, s->ids[i], o);

		n = model_rows(md, s->ids[i], &rows);
		hl = model_headline(s, s->ids[i], rows, n);
		out_printf(f, "%s\n    {\"id\": ", i ? "," : "");
		json_str(f, s->ids[i]);
		json_load(f, s, s->ids[i], o);
		out_str(f, ", \"metrics\": [");
		for (j = 0; j < n; j++) {
			int noisy = model_row_noisy(&rows[j], s->nk, o->noisy);

			for (k = 0; k < s->nk; k++) {
				xrow_of(&x, md, s->ids[i], &rows[j], k);
				x.headline = j == hl;
				x.noisy = noisy;
				x.pk = &pk[k];
				if (k == 0) {
					out_str(f, j ? ",\n      {" :
					    "\n      {");
					json_fields(f, mc, nmc, &x);
					out_str(f, ", \"kernels\": [");
				}
				out_str(f, k ? ",\n        {" :
				    "\n        {");
				json_fields(f, kc, nkc, &x);
				out_chr(f, '}');
			}
			out_str(f, "]}");
		}
		out_str(f, "]}");
		free(pk);
	}
	out_str(f, "\n  ]\n}\n");
	out_flush(f);
}
