/*
 * rexport.c - every statistic as CSV (one row per kernel, benchmark and
 * metric; RFC 4180 quoting) or JSON (one object per benchmark).  Absent
 * or undefined values are empty fields in CSV and null in JSON.  Numbers
 * are printed with 10 significant digits, so the files round-trip.
 * JSON strings are valid UTF-8: control characters (C0, DEL and C1) as
 * \u00XX, a byte that is not part of a UTF-8 character as \ufffd (the
 * replacement character).
 */
#include <math.h>
#include <string.h>

#include "report.h"
#include "util.h"

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

static void
csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.10g", v);
}

static const char *
status_of(const struct rl_set *s, int k, const char *id)
{
	const struct vb_res *r = rl_find(&s->k[k], id);

	return r ? r->status : "missing";
}

void
rx_csv(FILE *f, const struct rl_set *s, const struct rt_opts *o)
{
	struct rt_row *rows;
	int i, j, k, n;

	fputs("kernel,benchmark,metric,unit,direction,status,n,mean,sd,cov,"
	    "min,median,max,ci_low,ci_high,change_pct,welch_p,welch_df,"
	    "significant,ratio,ratio_ci_low,ratio_ci_high,ratio_unbounded,"
	    "noisy\n", f);
	for (i = 0; i < s->nids; i++) {
		n = rt_rows(s, s->ids[i], &rows);
		for (j = 0; j < n; j++)
			for (k = 0; k < s->nk; k++) {
				const struct rs_desc *d = &rows[j].d[k];
				const struct rs_cmp *c = &rows[j].c[k];

				if (k > 0)
					rs_cmp_ratio(&rows[j].d[0], d,
					    &rows[j].c[k]);

				csv_str(f, s->k[k].label);
				fputc(',', f);
				csv_str(f, s->ids[i]);
				fprintf(f, ",%s,%s,%s,%s,%d", rows[j].name,
				    rows[j].unit, vb_dir_name(rows[j].dir),
				    status_of(s, k, s->ids[i]), d->n);
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
					fprintf(f, ",%d", c->sig);
					csv_num(f, c->ratio.r);
					csv_num(f, c->ratio.lo);
					csv_num(f, c->ratio.hi);
					fprintf(f, ",%d", c->ratio.unbounded);
				}
				fprintf(f, ",%d\n", d->n > 1 &&
				    d->cov > o->noisy);
			}
		rt_free_rows(rows, n, s->nk);
	}
}

static void
json_str(FILE *f, const char *s)
{
	size_t n = strlen(s), u;

	fputc('"', f);
	while (n > 0) {
		unsigned char ch = (unsigned char)*s;

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
	fprintf(f, ", \"%s\": ", key);
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.10g", v);
}

void
rx_json(FILE *f, const struct rl_set *s, const struct rt_opts *o)
{
	struct rt_row *rows;
	int i, j, k, n;

	fputs("{\n  \"baseline\": ", f);
	json_str(f, s->k[0].label);
	fputs(",\n  \"kernels\": [", f);
	for (k = 0; k < s->nk; k++) {
		fputs(k ? ", " : "", f);
		json_str(f, s->k[k].label);
	}
	fprintf(f, "],\n  \"noisy_cov\": %.10g,\n  \"benchmarks\": [",
	    o->noisy);
	for (i = 0; i < s->nids; i++) {
		n = rt_rows(s, s->ids[i], &rows);
		fprintf(f, "%s\n    {\"id\": ", i ? "," : "");
		json_str(f, s->ids[i]);
		fputs(", \"metrics\": [", f);
		for (j = 0; j < n; j++) {
			fprintf(f, "%s\n      {\"name\": ", j ? "," : "");
			json_str(f, rows[j].name);
			fputs(", \"unit\": ", f);
			json_str(f, rows[j].unit);
			fprintf(f, ", \"direction\": \"%s\", \"kernels\": [",
			    vb_dir_name(rows[j].dir));
			for (k = 0; k < s->nk; k++) {
				const struct rs_desc *d = &rows[j].d[k];
				const struct rs_cmp *c = &rows[j].c[k];

				if (k > 0)
					rs_cmp_ratio(&rows[j].d[0], d,
					    &rows[j].c[k]);

				fprintf(f, "%s\n        {\"kernel\": ",
				    k ? "," : "");
				json_str(f, s->k[k].label);
				fprintf(f, ", \"status\": \"%s\", \"n\": %d",
				    status_of(s, k, s->ids[i]), d->n);
				json_num(f, "mean", d->mean);
				json_num(f, "sd", d->sd);
				json_num(f, "cov", d->cov);
				json_num(f, "min", d->min);
				json_num(f, "median", d->median);
				json_num(f, "max", d->max);
				json_num(f, "ci_low", d->ci_lo);
				json_num(f, "ci_high", d->ci_hi);
				fprintf(f, ", \"noisy\": %s", d->n > 1 &&
				    d->cov > o->noisy ? "true" : "false");
				if (k > 0 && d->n) {
					json_num(f, "change_pct", c->pct);
					json_num(f, "welch_p", c->w.p);
					json_num(f, "welch_df", c->w.df);
					fprintf(f, ", \"significant\": %s",
					    c->sig ? "true" : "false");
					json_num(f, "ratio", c->ratio.r);
					json_num(f, "ratio_ci_low",
					    c->ratio.lo);
					json_num(f, "ratio_ci_high",
					    c->ratio.hi);
					fprintf(f, ", \"ratio_unbounded\": %s",
					    c->ratio.unbounded ? "true" :
					    "false");
				}
				fputc('}', f);
			}
			fputs("]}", f);
		}
		fputs("]}", f);
		rt_free_rows(rows, n, s->nk);
	}
	fputs("\n  ]\n}\n", f);
}
