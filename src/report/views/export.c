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
 * of make ab's: its iterations are its runs), run_p Welch's p on the
 * run means, adjusted_p within family (holm-key, bh-detail; none: not
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
 * same.
 *
 * JSON strings are valid UTF-8: control characters (C0, DEL and C1) as
 * \u00XX, a byte that is not part of a UTF-8 character as \ufffd (the
 * replacement character).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "model.h"
#include "setup.h"
#include "util.h"

#define VR_VIEW_EXPORT		/* its own header */
#include "export.h"

static void
csv_str(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

/* @v as "%d" prints it (the rows' integers, without printf). */
static void
put_int(FILE *f, int v)
{
	char b[16], *p = b + sizeof(b);
	unsigned u = v < 0 ? 0U - (unsigned)v : (unsigned)v;

	*--p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	fputs(p, f);
}

/* ",@a,@b" (integers). */
static void
put_2int(FILE *f, int a, int b)
{
	fputc(',', f);
	put_int(f, a);
	fputc(',', f);
	put_int(f, b);
}

static void
csv_num(FILE *f, double v)
{
	char b[1 + FMT_G10_LEN];

	b[0] = ',';
	b[1] = '\0';
	if (!isnan(v) && !isinf(v))
		fmt_g10(b + 1, v);
	fputs(b, f);
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
csv_setting(FILE *f, const char *kernel, const char *key, const char *val)
{
	csv_str(f, kernel);
	fputc(',', f);
	csv_str(f, key);
	fputc(',', f);
	if (val)
		csv_str(f, val);
	fputc('\n', f);
}

/*
 * --what settings: the settings that differ, per folder (key by key,
 * the order of the text view), then each folder's machine: its name
 * and its number (setup_machines_of()).
 */
void
export_csv_settings(FILE *f, const struct model *md,
    const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct setup_machines m;
	struct rl_mdiff *d;
	char name[512], no[16];
	int n = rl_meta_diffs(s, &d), i, k;

	(void)o;
	fputs("kernel,setting,value\n", f);
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
}

/*
 * --what summary: per kernel but the baseline, the geometric mean of
 * its time-like ratios to the baseline and its 95% interval, runs as
 * the unit (model_geo(), the text summary's table).
 */
void
export_csv_summary(FILE *f, const struct model *md,
    const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct rs_georun g;
	int k;

	(void)o;
	fputs("kernel,baseline,metrics,runs_baseline,runs,geomean_ratio,"
	    "geomean_ci_low,geomean_ci_high\n", f);
	for (k = 1; k < s->nk; k++) {
		model_geo(md, k, &g);
		csv_str(f, s->k[k].label);
		fputc(',', f);
		csv_str(f, s->k[0].label);
		fprintf(f, ",%d,", g.k);
		if (g.k)
			fprintf(f, "%d,%d", g.na, g.nb);
		else
			fputc(',', f);
		csv_num(f, g.k ? g.g : NAN);
		csv_num(f, g.k ? g.lo : NAN);
		csv_num(f, g.k ? g.hi : NAN);
		fputc('\n', f);
		rs_georun_free(&g);
	}
}

/* The run-level fields of kernel @k's row of @r (see the top). */
static void
csv_verdict(FILE *f, const struct model *md, const struct model_row *r,
    int k)
{
	const struct rv_verdict *v;
	enum model_family fam;

	put_2int(f, runs_of(md, r, k), md->s->k[k].nboots);
	if (k == 0 || !r->d[k].n) {
		fputs(",,,,,,,,,,", f);
		return;
	}
	v = model_verdict(md, r, k, &fam);
	csv_num(f, v->p);
	csv_num(f, fam == MODEL_FAM_NONE ? NAN : v->p_adj);
	fputc(',', f);
	fputs(model_family_name(fam), f);
	fputc(',', f);
	put_int(f, model_family_size(md, fam));
	fputc(',', f);
	fputs(rv_word_name(v->word), f);
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
csv_like(FILE *f, const struct per_kernel *pk)
{
	fputc(',', f);
	if (pk->q.mem_quiet >= 0)
		put_int(f, pk->q.mem_quiet);
	csv_num(f, pk->q.mem_mean);
	fputc(',', f);
	if (pk->work)
		csv_str(f, pk->work);
}

void
export_csv(FILE *f, const struct model *md, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct model_row *rows;
	int i, j, k, n, hl;

	fputs("kernel,benchmark,metric,unit,direction,status,n,mean,sd,cov,"
	    "min,median,max,ci_low,ci_high,change_pct,welch_p,welch_df,"
	    "significant,ratio,ratio_ci_low,ratio_ci_high,ratio_unbounded,"
	    "noisy,scope,quiet,foreign_cpu,runs,boots,run_p,adjusted_p,"
	    "family,family_size,verdict,same_bound_pct,tost_p,runs_needed,"
	    "change_ci_low,change_ci_high,key,headline,mem_quiet,"
	    "foreign_mem_pct,work_differs\n", f);
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
				fputc(',', f);
				csv_str(f, s->ids[i]);
				/* names, units: tokens without a comma */
				fputc(',', f);
				fputs(rows[j].name, f);
				fputc(',', f);
				fputs(rows[j].unit, f);
				fputc(',', f);
				fputs(vb_dir_name(rows[j].dir), f);
				fputc(',', f);
				fputs(status_of(s, k, s->ids[i]), f);
				fputc(',', f);
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
					fputs(",,,,,,,,", f);
				} else {
					csv_num(f, c->pct);
					csv_num(f, c->w.p);
					csv_num(f, c->w.df);
					/* no test (one run a side): empty */
					fputc(',', f);
					if (!isnan(rows[j].rc[k].w.p))
						put_int(f, c->sig);
					csv_num(f, c->ratio.r);
					csv_num(f, c->ratio.lo);
					csv_num(f, c->ratio.hi);
					fputc(',', f);
					if (has_interval(&rows[j].d[0], d))
						put_int(f,
						    c->ratio.unbounded);
				}
				/* no runs: not known, empty */
				fputc(',', f);
				if (d->n)
					put_int(f, noisy);
				fputc(',', f);
				fputs(model_scope_name(rows[j].scope), f);
				fputc(',', f);
				if (q->quiet >= 0)
					put_int(f, q->quiet);
				csv_num(f, q->mean);
				csv_verdict(f, md, &rows[j], k);
				put_2int(f, rows[j].key != 0, j == hl);
				csv_like(f, &pk[k]);
				fputc('\n', f);
			}
		}
		free(pk);
	}
}

static void
json_str(FILE *f, const char *s)
{
	size_t n = strlen(s), u;

	fputc('"', f);
	while (n > 0) {
		unsigned char ch = (unsigned char)*s;

		/* a run of plain ASCII goes out as it is */
		for (u = 0; u < n && (unsigned char)s[u] >= 0x20 &&
		    (unsigned char)s[u] < 0x7f && s[u] != '"' &&
		    s[u] != '\\'; u++)
			;
		if (u) {
			fwrite(s, 1, u, f);
			s += u;
			n -= u;
			continue;
		}
		u = vb_utf8_len(s, n);
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else if (u == 2 && ch == 0xc2 && (unsigned char)s[1] < 0xa0)
			fprintf(f, "\\u%04x", (unsigned char)s[1]); /* C1 */
		else if (u == 0)
			fputs("\\ufffd", f);
		else
			fwrite(s, 1, u, f);
		u = u ? u : 1;
		s += u;
		n -= u;
	}
	fputc('"', f);
}

static void
json_num(FILE *f, const char *key, double v)
{
	char b[64 + FMT_G10_LEN];
	size_t n = strlen(key);

	/* one write: there are some thirty a kernel */
	if (n > 32) {
		fputs(", \"", f);
		fputs(key, f);
		fputs("\": ", f);
		n = 0;
	} else {
		memcpy(b, ", \"", 3);
		memcpy(b + 3, key, n);
		memcpy(b + 3 + n, "\": ", 3);
		n += 6;
	}
	if (isnan(v) || isinf(v))
		memcpy(b + n, "null", 5);
	else
		fmt_g10(b + n, v);
	fputs(b, f);
}

/* "settings_same" and "settings_differ": key -> { label: value } */
static void
json_settings(FILE *f, const struct rl_set *s)
{
	struct rl_mdiff *d;
	int n = rl_meta_diffs(s, &d), i, k;

	fprintf(f, "  \"settings_same\": %s,\n  \"settings_differ\": {",
	    n ? "false" : "true");
	for (i = 0; i < n; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		json_str(f, d[i].key);
		fputs(": {", f);
		for (k = 0; k < s->nk; k++) {
			fputs(k ? ", " : "", f);
			json_str(f, s->k[k].label);
			fputs(": ", f);
			if (d[i].val[k])
				json_str(f, d[i].val[k]);
			else
				fputs("null", f);
		}
		fputc('}', f);
	}
	fputs(n ? "\n  }" : "}", f);
	rl_free_mdiffs(d, n);
}

/*
 * "machines": per folder its machine's number and name; "mixed_machines":
 * whether the folders come from more than one machine.
 */
static void
json_machines(FILE *f, const struct rl_set *s)
{
	struct setup_machines m;
	char name[512];
	int k;

	setup_machines_of(s, &m);
	fputs(",\n  \"machines\": [", f);
	for (k = 0; k < s->nk; k++) {
		fputs(k ? ",\n    {\"kernel\": " : "\n    {\"kernel\": ", f);
		json_str(f, s->k[k].label);
		fprintf(f, ", \"machine\": %d, \"name\": ", m.of[k] + 1);
		json_str(f, setup_machine_name(name, sizeof(name), &s->k[k]));
		fputc('}', f);
	}
	fprintf(f, "\n  ],\n  \"mixed_machines\": %s", m.n > 1 ? "true" :
	    "false");
	setup_machines_free(&m);
}

/* "load": per kernel, how busy the machine was with other work. */
static void
json_load(FILE *f, const struct rl_set *s, const char *id,
    const struct report_opts *o)
{
	struct setup_quiet q;
	int k;

	fputs(", \"load\": [", f);
	for (k = 0; k < s->nk; k++) {
		setup_mem_of(rl_find(&s->k[k], id), o, &q);
		fputs(k ? ", {\"kernel\": " : "{\"kernel\": ", f);
		json_str(f, s->k[k].label);
		fprintf(f, ", \"n\": %d", q.n);
		json_num(f, "foreign_cpu_mean", q.mean);
		json_num(f, "foreign_cpu_max", q.max);
		fprintf(f, ", \"quiet\": %s", q.quiet < 0 ? "null" :
		    q.quiet ? "true" : "false");
		json_num(f, "foreign_mem_pct_mean", q.mem_mean);
		json_num(f, "foreign_mem_pct_max", q.mem_max);
		json_num(f, "mem_avail_min_kb", q.avail_min_kb);
		fprintf(f, ", \"mem_quiet\": %s}", q.mem_quiet < 0 ? "null" :
		    q.mem_quiet ? "true" : "false");
	}
	fputc(']', f);
}

/*
 * The comparison fields of one kernel's entry, the same set in every
 * entry: null where there is nothing to compare (the baseline, a side
 * with no run) or no test (one run a side: significant and
 * ratio_unbounded null too).
 */
static void
json_cmp(FILE *f, const struct model *md, const struct model_row *r, int k,
    const struct rs_cmp *c, const struct rs_desc *a, const struct rs_desc *b)
{
	const struct rv_verdict *v = c ? model_verdict(md, r, k, NULL) : NULL;
	enum model_family fam = MODEL_FAM_NONE;

	if (v)
		model_verdict(md, r, k, &fam);
	json_num(f, "change_pct", c ? c->pct : NAN);
	json_num(f, "welch_p", c ? c->w.p : NAN);
	json_num(f, "welch_df", c ? c->w.df : NAN);
	fputs(", \"significant\": ", f);
	fputs(!c || isnan(r->rc[k].w.p) ? "null" : c->sig ? "true" : "false",
	    f);
	fputs(", \"runs\": ", f);
	put_int(f, runs_of(md, r, k));
	fputs(", \"boots\": ", f);
	put_int(f, md->s->k[k].nboots);
	json_num(f, "run_p", v ? v->p : NAN);
	json_num(f, "adjusted_p", v && fam != MODEL_FAM_NONE ? v->p_adj : NAN);
	fputs(", \"family\": ", f);
	if (v) {
		fputc('"', f);
		fputs(model_family_name(fam), f);
		fputs("\", \"family_size\": ", f);
		put_int(f, model_family_size(md, fam));
	} else {
		fputs("null, \"family_size\": null", f);
	}
	fputs(", \"verdict\": ", f);
	if (v)
		json_str(f, rv_word_name(v->word));
	else
		fputs("null", f);
	json_num(f, "same_bound_pct", v ? v->bound : NAN);
	json_num(f, "tost_p", v ? v->tost_p : NAN);
	json_num(f, "runs_needed", v ? v->runs_needed : NAN);
	json_num(f, "change_ci_low", v ? v->lo : NAN);
	json_num(f, "change_ci_high", v ? v->hi : NAN);
	json_num(f, "ratio", c ? c->ratio.r : NAN);
	json_num(f, "ratio_ci_low", c ? c->ratio.lo : NAN);
	json_num(f, "ratio_ci_high", c ? c->ratio.hi : NAN);
	fputs(", \"ratio_unbounded\": ", f);
	fputs(!c || !has_interval(a, b) ? "null" : c->ratio.unbounded ?
	    "true" : "false", f);
}

/* "summary": the rows of --what summary (export_csv_summary()). */
static void
json_summary(FILE *f, const struct model *md)
{
	const struct rl_set *s = md->s;
	struct rs_georun g;
	int k;

	fputs(",\n  \"summary\": [", f);
	for (k = 1; k < s->nk; k++) {
		model_geo(md, k, &g);
		fputs(k > 1 ? ",\n    {\"kernel\": " : "\n    {\"kernel\": ",
		    f);
		json_str(f, s->k[k].label);
		fputs(", \"baseline\": ", f);
		json_str(f, s->k[0].label);
		fprintf(f, ", \"metrics\": %d, \"runs_baseline\": ", g.k);
		if (g.k)
			fprintf(f, "%d, \"runs\": %d", g.na, g.nb);
		else
			fputs("null, \"runs\": null", f);
		json_num(f, "geomean_ratio", g.k ? g.g : NAN);
		json_num(f, "geomean_ci_low", g.k ? g.lo : NAN);
		json_num(f, "geomean_ci_high", g.k ? g.hi : NAN);
		fputc('}', f);
		rs_georun_free(&g);
	}
	fputs(s->nk > 1 ? "\n  ]" : "]", f);
}

/* "work_differs": the work figure that differs (@pk), or null. */
static void
json_work(FILE *f, const struct per_kernel *pk)
{
	fputs(", \"work_differs\": ", f);
	if (pk->work)
		json_str(f, pk->work);
	else
		fputs("null", f);
}

void
export_json(FILE *f, const struct model *md, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct model_row *rows;
	int i, j, k, n, hl;

	fputs("{\n  \"baseline\": ", f);
	json_str(f, s->k[0].label);
	fputs(",\n  \"kernels\": [", f);
	for (k = 0; k < s->nk; k++) {
		fputs(k ? ", " : "", f);
		json_str(f, s->k[k].label);
	}
	model_ready(md);
	fprintf(f, "],\n  \"noisy_cov\": %.10g,\n  \"min_change_pct\": "
	    "%.10g,\n  \"quiet_threshold_pct\": %.10g,\n  "
	    "\"mem_threshold_pct\": %.10g,\n  \"alpha\": "
	    "%.10g,\n  \"families\": {\"holm-key\": %d, \"bh-detail\": "
	    "%d},\n", o->noisy, md->min_change, o->quiet, o->mem_quiet,
	    md->alpha, md->nkey, md->ndetail);
	json_settings(f, s);
	json_machines(f, s);
	json_summary(f, md);
	fputs(",\n  \"benchmarks\": [", f);
	for (i = 0; i < s->nids; i++) {
		struct per_kernel *pk = per_kernel_of(s, s->ids[i], o);

		n = model_rows(md, s->ids[i], &rows);
		hl = model_headline(s, s->ids[i], rows, n);
		fprintf(f, "%s\n    {\"id\": ", i ? "," : "");
		json_str(f, s->ids[i]);
		json_load(f, s, s->ids[i], o);
		fputs(", \"metrics\": [", f);
		for (j = 0; j < n; j++) {
			int noisy = model_row_noisy(&rows[j], s->nk, o->noisy);

			fprintf(f, "%s\n      {\"name\": ", j ? "," : "");
			json_str(f, rows[j].name);
			fputs(", \"unit\": ", f);
			json_str(f, rows[j].unit);
			fprintf(f, ", \"direction\": \"%s\", \"scope\": "
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

				fputs(k ? ",\n        {\"kernel\": " :
				    "\n        {\"kernel\": ", f);
				json_str(f, s->k[k].label);
				fputs(", \"status\": \"", f);
				fputs(status_of(s, k, s->ids[i]), f);
				fputs("\", \"n\": ", f);
				put_int(f, d->n);
				json_num(f, "mean", d->mean);
				json_num(f, "sd", d->sd);
				json_num(f, "cov", d->cov);
				json_num(f, "min", d->min);
				json_num(f, "median", d->median);
				json_num(f, "max", d->max);
				json_num(f, "ci_low", d->ci_lo);
				json_num(f, "ci_high", d->ci_hi);
				fputs(", \"noisy\": ", f);
				fputs(!d->n ? "null" : noisy ? "true" :
				    "false", f);
				json_cmp(f, md, &rows[j], k, k > 0 && d->n ?
				    c : NULL, &rows[j].d[0], d);
				json_work(f, &pk[k]);
				fputc('}', f);
			}
			fputs("]}", f);
		}
		fputs("]}", f);
		free(pk);
	}
	fputs("\n  ]\n}\n", f);
}
