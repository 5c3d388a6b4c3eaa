/*
 * export.c - every statistic as CSV (RFC 4180 quoting) or JSON.  Absent
 * or undefined values are empty fields in CSV and null in JSON (never
 * NaN or Infinity).  Numbers are printed with 10 significant digits, so
 * the files round-trip.
 *
 * CSV is three tables, each one rectangular with a fixed header, one
 * a call (vmreport --format csv --what metrics|settings|summary):
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
 * the star of the text view: the run-level verdict's (model_verdict():
 * the Holm family of the key figures, every other metric and --detail
 * the Benjamini-Hochberg family), empty/null when there is no run-level
 * test (one run on a side, no spread and one value on both sides).
 * The run-level fields: runs and boots of that kernel's side (a folder
 * of make ab's: its iterations are its runs), run_p the raw p of the
 * test that decides (the moderated t on the run means), adjusted_p within family (holm-key, bh-detail; none: not
 * tested) of family_size tests, verdict (changed, same, can't tell),
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

/* ",@a,@b" (integers). */
static void
put_2int(struct out *f, int a, int b)
{
	out_chr(f, ',');
	put_int(f, a);
	out_chr(f, ',');
	put_int(f, b);
}

static void
csv_num(struct out *f, double v)
{
	char b[FMT_G10_LEN];

	out_chr(f, ',');
	if (!isnan(v) && !isinf(v))
		out_str(f, fmt_g10(b, v));
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
	out_str(f, "kernel,setting,value\n");
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
	    "geomean_ci_low,geomean_ci_high\n");
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
		out_chr(f, '\n');
		rs_georun_free(&g);
	}
	out_flush(f);
}

/* The run-level fields of kernel @k's row of @r (see the top). */
static void
csv_verdict(struct out *f, const struct model *md, const struct model_row *r,
    int k)
{
	const struct rv_verdict *v;
	enum model_family fam;

	put_2int(f, runs_of(md, r, k), md->s->k[k].nboots);
	if (k == 0 || !r->d[k].n) {
		out_str(f, ",,,,,,,,,,");
		return;
	}
	v = model_verdict(md, r, k, &fam);
	csv_num(f, v->p);
	csv_num(f, fam == MODEL_FAM_NONE ? NAN : v->p_adj);
	out_chr(f, ',');
	out_str(f, model_family_name(md, fam));
	out_chr(f, ',');
	put_int(f, model_family_size(md, fam, k));
	out_chr(f, ',');
	out_str(f, rv_word_name(v->word));
	csv_num(f, v->bound);
	csv_num(f, v->tost_p);
	csv_num(f, v->runs_needed);
	csv_num(f, v->lo);
	csv_num(f, v->hi);
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

/*
 * The like-with-like fields of kernel @k's rows: mem_quiet,
 * foreign_mem_pct, work_differs (see the top), from @pk.
 */
static void
csv_like(struct out *f, const struct per_kernel *pk)
{
	out_chr(f, ',');
	if (pk->q.mem_quiet >= 0)
		put_int(f, pk->q.mem_quiet);
	csv_num(f, pk->q.mem_mean);
	out_chr(f, ',');
	if (pk->work)
		csv_str(f, pk->work);
}

void
export_csv(FILE *file, const struct model *md, const struct report_opts *o)
{
	struct out ob = { .f = file }, *f = &ob;
	const struct rl_set *s = md->s;
	struct model_row *rows;
	int i, j, k, n, hl;

	out_str(f, "kernel,benchmark,metric,unit,direction,status,n,mean,sd,"
	    "cov,min,median,max,ci_low,ci_high,change_pct,welch_p,welch_df,"
	    "significant,ratio,ratio_ci_low,ratio_ci_high,ratio_unbounded,"
	    "noisy,scope,quiet,foreign_cpu,runs,boots,run_p,adjusted_p,"
	    "family,family_size,verdict,same_bound_pct,tost_p,runs_needed,"
	    "change_ci_low,change_ci_high,key,headline,mem_quiet,"
	    "foreign_mem_pct,work_differs,verdict_reason\n");
	for (i = 0; i < s->nids; i++) {
		struct per_kernel *pk = per_kernel_of(s, s->ids[i], o);

		n = model_rows(md, s->ids[i], &rows);
		hl = model_headline(s, s->ids[i], rows, n);
		for (j = 0; j < n; j++) {
			int noisy = model_row_noisy(&rows[j], s->nk, o->noisy);

			for (k = 0; k < s->nk; k++) {
				const struct rs_desc *d = &rows[j].d[k];
				const struct rs_cmp *c = &rows[j].c[k];
				const struct setup_quiet *q = &pk[k].q;

				if (k > 0)
					rs_cmp_ratio(&rows[j].d[0], d,
					    &rows[j].c[k]);

				csv_str(f, s->k[k].label);
				out_chr(f, ',');
				csv_str(f, s->ids[i]);
				/* names, units: tokens without a comma */
				out_chr(f, ',');
				out_str(f, rows[j].name);
				out_chr(f, ',');
				out_str(f, rows[j].unit);
				out_chr(f, ',');
				out_str(f, vb_dir_name(rows[j].dir));
				out_chr(f, ',');
				out_str(f, status_of(s, k, s->ids[i]));
				out_chr(f, ',');
				put_int(f, d->n);
				csv_num(f, d->mean);
				csv_num(f, d->sd);
				csv_num(f, d->cov);
				csv_num(f, d->min);
				csv_num(f, d->median);
				csv_num(f, d->max);
				csv_num(f, d->ci_lo);
				csv_num(f, d->ci_hi);
				if (k == 0 || !d->n) {
					out_str(f, ",,,,,,,,");
				} else {
					csv_num(f, c->pct);
					csv_num(f, c->w.p);
					csv_num(f, c->w.df);
					/* no test (one run a side): empty */
					out_chr(f, ',');
					if (!isnan(model_verdict(md, &rows[j],
					    k, NULL)->p))
						put_int(f, c->sig);
					csv_num(f, c->ratio.r);
					csv_num(f, c->ratio.lo);
					csv_num(f, c->ratio.hi);
					out_chr(f, ',');
					if (has_interval(&rows[j].d[0], d))
						put_int(f,
						    c->ratio.unbounded);
				}
				/* no runs: not known, empty */
				out_chr(f, ',');
				if (d->n)
					put_int(f, noisy);
				out_chr(f, ',');
				out_str(f, model_scope_name(rows[j].scope));
				out_chr(f, ',');
				if (q->quiet >= 0)
					put_int(f, q->quiet);
				csv_num(f, q->mean);
				csv_verdict(f, md, &rows[j], k);
				put_2int(f, rows[j].key != 0, j == hl);
				csv_like(f, &pk[k]);
				/* why can't tell whatever the test */
				out_str(f, k && model_verdict(md, &rows[j], k,
				    NULL)->load ? ",different_loads\n" :
				    ",\n");
			}
		}
		free(pk);
	}
	out_flush(f);
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
		out_str(f, fmt_g10(b, v));
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

/*
 * The comparison fields of one kernel's entry, the same set in every
 * entry: null where there is nothing to compare (the baseline, a side
 * with no run) or no test (one run a side: significant and
 * ratio_unbounded null too).
 */
static void
json_cmp(struct out *f, const struct model *md, const struct model_row *r,
    int k, const struct rs_cmp *c, const struct rs_desc *a,
    const struct rs_desc *b)
{
	const struct rv_verdict *v = c ? model_verdict(md, r, k, NULL) : NULL;
	enum model_family fam = MODEL_FAM_NONE;

	if (v)
		model_verdict(md, r, k, &fam);
	json_num(f, "change_pct", c ? c->pct : NAN);
	json_num(f, "welch_p", c ? c->w.p : NAN);
	json_num(f, "welch_df", c ? c->w.df : NAN);
	out_str(f, ", \"significant\": ");
	out_str(f, !c || !v || isnan(v->p) ? "null" : c->sig ? "true" :
	    "false");
	out_str(f, ", \"runs\": ");
	put_int(f, runs_of(md, r, k));
	out_str(f, ", \"boots\": ");
	put_int(f, md->s->k[k].nboots);
	json_num(f, "run_p", v ? v->p : NAN);
	json_num(f, "adjusted_p", v && fam != MODEL_FAM_NONE ? v->p_adj : NAN);
	out_str(f, ", \"family\": ");
	if (v) {
		out_chr(f, '"');
		out_str(f, model_family_name(md, fam));
		out_str(f, "\", \"family_size\": ");
		put_int(f, model_family_size(md, fam, k));
	} else {
		out_str(f, "null, \"family_size\": null");
	}
	out_str(f, ", \"verdict\": ");
	if (v)
		json_str(f, rv_word_name(v->word));
	else
		out_str(f, "null");
	out_str(f, ", \"verdict_reason\": ");
	out_str(f, v && v->load ? "\"different_loads\"" : "null");
	json_num(f, "same_bound_pct", v ? v->bound : NAN);
	json_num(f, "tost_p", v ? v->tost_p : NAN);
	json_num(f, "runs_needed", v ? v->runs_needed : NAN);
	json_num(f, "change_ci_low", v ? v->lo : NAN);
	json_num(f, "change_ci_high", v ? v->hi : NAN);
	json_num(f, "ratio", c ? c->ratio.r : NAN);
	json_num(f, "ratio_ci_low", c ? c->ratio.lo : NAN);
	json_num(f, "ratio_ci_high", c ? c->ratio.hi : NAN);
	out_str(f, ", \"ratio_unbounded\": ");
	out_str(f, !c || !has_interval(a, b) ? "null" : c->ratio.unbounded ?
	    "true" : "false");
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

/* "work_differs": the work figure that differs (@pk), or null. */
static void
json_work(struct out *f, const struct per_kernel *pk)
{
	out_str(f, ", \"work_differs\": ");
	if (pk->work)
		json_str(f, pk->work);
	else
		out_str(f, "null");
}

void
export_json(FILE *file, const struct model *md, const struct report_opts *o)
{
	struct out ob = { .f = file }, *f = &ob;
	const struct rl_set *s = md->s;
	struct model_row *rows;
	int i, j, k, n, hl;

	out_str(f, "{\n  \"baseline\": ");
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
	    "\"bh-detail\": %d},\n", o->noisy, md->min_change, o->quiet,
	    o->mem_quiet, md->alpha, md->useful, md->nhead, md->nkey,
	    md->ndetail);
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

			out_printf(f, "%s\n      {\"name\": ", j ? "," : "");
			json_str(f, rows[j].name);
			out_str(f, ", \"unit\": ");
			json_str(f, rows[j].unit);
			out_printf(f, ", \"direction\": \"%s\", \"scope\": "
			    "\"%s\", \"key\": %s, \"headline\": %s, "
			    "\"kernels\": [", vb_dir_name(rows[j].dir),
			    model_scope_name(rows[j].scope), rows[j].key ?
			    "true" : "false", j == hl ? "true" : "false");
			for (k = 0; k < s->nk; k++) {
				const struct rs_desc *d = &rows[j].d[k];
				const struct rs_cmp *c = &rows[j].c[k];

				if (k > 0)
					rs_cmp_ratio(&rows[j].d[0], d,
					    &rows[j].c[k]);

				out_str(f, k ? ",\n        {\"kernel\": " :
				    "\n        {\"kernel\": ");
				json_str(f, s->k[k].label);
				out_str(f, ", \"status\": \"");
				out_str(f, status_of(s, k, s->ids[i]));
				out_str(f, "\", \"n\": ");
				put_int(f, d->n);
				json_num(f, "mean", d->mean);
				json_num(f, "sd", d->sd);
				json_num(f, "cov", d->cov);
				json_num(f, "min", d->min);
				json_num(f, "median", d->median);
				json_num(f, "max", d->max);
				json_num(f, "ci_low", d->ci_lo);
				json_num(f, "ci_high", d->ci_hi);
				out_str(f, ", \"noisy\": ");
				out_str(f, !d->n ? "null" : noisy ? "true" :
				    "false");
				json_cmp(f, md, &rows[j], k, k > 0 && d->n ?
				    c : NULL, &rows[j].d[0], d);
				json_work(f, &pk[k]);
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
