/*
 * lmbench.c - LMbench's summary tables in the post (make post), from
 * vmlat's results: "Processor, Processes", "File & VM system latencies"
 * and "*Local* Communication bandwidths", one row per kernel, in the
 * form of LMbench 2.0's summary (as in Hron's 2002 posts), with the
 * columns vmlat measures.
 *
 * A kernel's figure is the median over the iterations of the first
 * vmlat result (bench "vmlat", any variant, in name order: "vmlat"
 * before "vmlat@fork") that has it; a figure no
 * result has is "-".  Numbers get as many decimals as fit, as LMbench's
 * num(): 3 below 10 (when the column has room), 1 up to 1000, none
 * above, and K or M when even that is too wide.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "form.h"
#include "rstats.h"

struct lm_col {
	const char *metric;
	const char *head1, *head2;
	int width;
};

struct lm_table {
	const char *title;
	const struct lm_col *cols;
};

static const struct lm_col proc_cols[] = {
	{ "fork_us", "fork", "proc", 5 },
	{ "exec_us", "exec", "proc", 5 },
	{ "sh_us", "sh", "proc", 5 },
	{ NULL, NULL, NULL, 0 },
};

static const struct lm_col fs_cols[] = {
	{ "create_0k_us", "0K File", "Create", 6 },
	{ "delete_0k_us", "", "Delete", 6 },
	{ "create_10k_us", "10K File", "Create", 6 },
	{ "delete_10k_us", "", "Delete", 6 },
	{ "mmap_us", "Mmap", "Latency", 7 },
	{ "prot_fault_us", "Prot", "Fault", 5 },
	{ "page_fault_us", "Page", "Fault", 5 },
	{ "anon_fault_us", "Anon", "Fault", 5 },
	{ NULL, NULL, NULL, 0 },
};

static const struct lm_col bw_cols[] = {
	{ "file_reread_mbs", "File", "reread", 6 },
	{ "mmap_reread_mbs", "Mmap", "reread", 6 },
	{ "bcopy_mbs", "Bcopy", "(libc)", 6 },
	{ "mem_read_mbs", "Mem", "read", 6 },
	{ "mem_write_mbs", "Mem", "write", 6 },
	{ NULL, NULL, NULL, 0 },
};

/* vmlat's own: LMbench's page fault finds the pages cached on Linux. */
static const struct lm_col cold_cols[] = {
	{ "page_fault_cold_us", "Page", "Fault", 6 },
	{ NULL, NULL, NULL, 0 },
};

static const struct lm_table tables[] = {
	{ "Processor, Processes - times in microseconds - smaller is better",
	  proc_cols },
	{ "File & VM system latencies in microseconds - smaller is better",
	  fs_cols },
	{ "*Local* Communication bandwidths in MB/s - bigger is better",
	  bw_cols },
	{ "Page fault, pages not in the cache (vmlat, not LMbench) - us/page",
	  cold_cols },
	{ NULL, NULL },
};

#define LM_OSW	15			/* "Linux 2.4.17rat" */

/* The median of @metric in kernel @k's first @bench result having it. */
static double
figure(const struct rl_kernel *k, const char *bench, const char *metric)
{
	const struct vb_res *r;
	struct rs_desc d;
	int i, m;

	for (i = 0; i < k->nres; i++) {
		r = &k->res[i];
		if (strcmp(r->bench, bench) ||
		    (m = vb_res_metric_index(r, metric)) < 0)
			continue;
		rs_describe(r->vals + m, r->niter, r->nmetrics, &d);
		if (d.n)
			return d.median;
	}
	return NAN;
}

char *
lmbench_num(char *buf, size_t len, double v, int width)
{
	static const char *sfx[] = { "", "K", "M", "G" };
	int prec, s;

	if (!isfinite(v) || v < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	prec = v < 10 ? 3 : v < 1000 ? 1 : 0;
	for (; prec >= 0; prec--)
		if (snprintf(buf, len, "%.*f", prec, v) <= width)
			return buf;
	for (s = 1; s < 4; s++) {
		v /= 1000;
		if (snprintf(buf, len, "%.1f%s", v, sfx[s]) <= width ||
		    snprintf(buf, len, "%.0f%s", v, sfx[s]) <= width)
			return buf;
	}
	return buf;
}

/* @n dashes. */
static void
dashes(FILE *f, int n)
{
	while (n-- > 0)
		fputc('-', f);
}

static void
table(FILE *f, const struct rl_set *s, const char *bench,
    const struct lm_table *t)
{
	const struct lm_col *c;
	char os[64], num[32];
	int k;

	fprintf(f, "%s\n", t->title);
	dashes(f, (int)strlen(t->title));
	fprintf(f, "\n%-*s", LM_OSW, "OS");
	for (c = t->cols; c->metric; c++)
		fprintf(f, " %*s", c->width, c->head1);
	fprintf(f, "\n%-*s", LM_OSW, "");
	for (c = t->cols; c->metric; c++)
		fprintf(f, " %*s", c->width, c->head2);
	fputc('\n', f);
	dashes(f, LM_OSW);
	for (c = t->cols; c->metric; c++) {
		fputc(' ', f);
		dashes(f, c->width);
	}
	fputc('\n', f);
	for (k = 0; k < s->nk; k++) {
		snprintf(os, sizeof(os), "Linux %s", s->k[k].label);
		fprintf(f, "%-*.*s", LM_OSW, LM_OSW, os);
		for (c = t->cols; c->metric; c++)
			fprintf(f, " %*s", c->width, lmbench_num(num,
			    sizeof(num), figure(&s->k[k], bench, c->metric),
			    c->width));
		fputc('\n', f);
	}
}

/* The tables any kernel has a figure of; their number. */
static int
lmbench_tables(FILE *f, const struct rl_set *s, const char *bench, int width)
{
	const struct lm_table *t;
	const struct lm_col *c;
	int k, shown = 0, any;

	(void)width;
	for (t = tables; t->title; t++) {
		any = 0;
		for (k = 0; k < s->nk && !any; k++)
			for (c = t->cols; c->metric && !any; c++)
				any = !isnan(figure(&s->k[k], bench,
				    c->metric));
		if (!any)
			continue;
		if (!shown++)
			fprintf(f, "%s: LMbench's tables (medians)\n\n", bench);
		table(f, s, bench, t);
		fputc('\n', f);
	}
	return shown;
}

/*
 * vmlat's own key figures (its .res key line less the common ones: a
 * run's elapsed and rusage are the sum of all its latency loops).
 */
static const char *const lmbench_key[] = {
	"fork_us", "exec_us", "create_10k_us", "mmap_us",
	"page_fault_cold_us", "file_reread_mbs", NULL,
};

const struct form form_lmbench = {
	.bench = "vmlat",
	.flags = FORM_POST_END,
	.table = lmbench_tables,
	.view_key = lmbench_key,
};
