/*
 * tiobench.c - tio's tables in the post's forms (make post): tiobench's
 * "Threaded I/O Bench" table, Num Thr | Rate (CPU%) Eff per mode, one
 * row per thread count and kernel, and bonnie++'s "Sequential Create"
 * and "Random Create" table, files/s, %CPU and Eff per kernel.
 *
 * The results are found by their figures: a tio result with
 * seq_read_mbs is a threaded I/O run (its thread count from the param
 * threads), one with seq_create_per_s a --creates run.  Figures are
 * means over the runs, and Eff is computed from the row's own means,
 * Rate / (CPU% / 100) and files/s / (%CPU / 100), so that a reader can
 * check every row from the figures printed beside it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "form.h"
#include "model.h"

/*
 * Eff of @mode in the table: the mean rate over the mean CPU% (as a
 * fraction), as tiobench prints it; NAN when the CPU% is 0 or absent.
 */
static double
eff_of(const struct vb_res *r, const char *mode)
{
	char rate[64], cpu[64];
	double c;

	snprintf(rate, sizeof(rate), "%s_mbs", mode);
	snprintf(cpu, sizeof(cpu), "%s_cpu", mode);
	c = model_mean(r, cpu);
	return c > 0 ? model_mean(r, rate) / (c / 100) : NAN;
}

/* Is @id a result of @bench with figure @metric? */
static int
is_tio(const struct rl_set *s, const char *id, const char *bench,
    const char *metric)
{
	const struct vb_res *r = model_any(s, id);

	return r && strcmp(r->bench, bench) == 0 &&
	    vb_res_metric_index(r, metric) >= 0;
}

static long
threads_of(const struct rl_set *s, const char *id)
{
	const char *t = vb_res_param(model_any(s, id), "threads");

	return t ? atol(t) : 0;
}

/* "Seq Read" and its "CPU" over the mode's three columns (27 wide). */
static const char *const io_mode[4] = {
	"seq_read", "rand_read", "seq_write", "rand_write",
};
static const char *const io_title[4] = {
	"Seq Read", "Rand Read", "Seq Write", "Rand Write",
};

static void
io_block(FILE *f, const struct rl_set *s, const char **ids, int n, int m0)
{
	char a[32], b[32], c[32], lab[24];
	int i, k, m;

	fprintf(f, "%-16s %3s", "", "Num");
	for (m = m0; m < m0 + 2; m++)
		fprintf(f, "  %-17s%8s", io_title[m], "CPU");
	fprintf(f, "\n%-16s %3s", "Kernel", "Thr");
	for (m = m0; m < m0 + 2; m++)
		fprintf(f, "  %8s %7s %8s", "Rate", "(CPU%)", "Eff");
	fprintf(f, "\n%-16s %3s", "----------------", "---");
	for (m = m0; m < m0 + 2; m++)
		fprintf(f, "  %s", "--------------------------");
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		for (k = 0; k < s->nk; k++) {
			const struct vb_res *r = rl_find(&s->k[k], ids[i]);

			fprintf(f, "%-16s %3ld", fmt_label(lab, sizeof(lab),
			    s, k, 16), threads_of(s, ids[i]));
			if (!r) {
				fprintf(f, "  missing\n");
				continue;
			}
			for (m = m0; m < m0 + 2; m++) {
				char name[64];

				snprintf(name, sizeof(name), "%s_mbs",
				    io_mode[m]);
				fmt_num(a, sizeof(a), "%.2f",
				    model_mean(r, name));
				snprintf(name, sizeof(name), "%s_cpu",
				    io_mode[m]);
				fmt_num(b, sizeof(b), "%.1f%%", model_mean(r,
				    name));
				fmt_num(c, sizeof(c), "%.2f", eff_of(r,
				    io_mode[m]));
				fprintf(f, "  %8s %7s %8s", a, b, c);
			}
			fputc('\n', f);
		}
	}
}

/* The ids of @bench's threaded runs, by thread count; their number. */
static int
io_ids(const struct rl_set *s, const char *bench, const char **ids)
{
	int i, j, n = 0;

	for (i = 0; i < s->nids; i++) {
		if (!is_tio(s, s->ids[i], bench, "seq_read_mbs"))
			continue;
		/* insertion by thread count, stable */
		for (j = n; j > 0 && threads_of(s, ids[j - 1]) >
		    threads_of(s, s->ids[i]); j--)
			ids[j] = ids[j - 1];
		ids[j] = s->ids[i];
		n++;
	}
	return n;
}

static void
io_table(FILE *f, const struct rl_set *s, const char **ids, int n)
{
	const struct vb_res *r0 = model_any(s, ids[0]);
	const char *dir = vb_res_param(r0, "direct");

	fprintf(f, "Threaded I/O Bench (tio, tiobench's method)\n"
	    "Read, Write, and Seeks are MB/sec\n"
	    "CPU Efficiency (CPU Eff) = (MB/sec) / CPU%% (bigger is "
	    "better)\n\n");
	io_block(f, s, ids, n, 0);
	fputc('\n', f);
	io_block(f, s, ids, n, 2);
	fprintf(f, "(means of runs; %s total, %s blocks, %s random blocks "
	    "a thread, %s)\n\n", vb_res_param(r0, "size") ?
	    vb_res_param(r0, "size") : "?", vb_res_param(r0, "block") ?
	    vb_res_param(r0, "block") : "?", vb_res_param(r0, "random-ops") ?
	    vb_res_param(r0, "random-ops") : "?", dir && !strcmp(dir, "1") ?
	    "O_DIRECT" : "buffered");
}

/* "-----Create-----" : @title centred in dashes, @w wide. */
static void
dashed(FILE *f, const char *title, int w)
{
	int t = (int)strlen(title) + 2, l = (w - t) / 2, i;

	for (i = 0; i < l; i++)
		fputc('-', f);
	fprintf(f, " %s ", title);
	for (i = l + t; i < w; i++)
		fputc('-', f);
}

static void
create_block(FILE *f, const struct rl_set *s, const char *id, int rnd)
{
	static const char *const op[2] = { "create", "delete" };
	char a[32], b[32], c[32], name[64], lab[24];
	int k, j;

	fprintf(f, "%-23s ", "");
	dashed(f, rnd ? "Random Create" : "Sequential Create", 41);
	fprintf(f, "\n%-23s ", "");
	dashed(f, "Create", 20);
	fputc(' ', f);
	dashed(f, "Delete", 20);
	fprintf(f, "\n%-16s %6s", "Kernel", "files");
	for (j = 0; j < 2; j++)
		fprintf(f, " %6s %5s %7s", "/sec", "%CPU", "Eff");
	fputc('\n', f);
	for (k = 0; k < s->nk; k++) {
		const struct vb_res *r = rl_find(&s->k[k], id);

		fprintf(f, "%-16s %6s", fmt_label(lab, sizeof(lab), s, k, 16),
		    r &&
		    vb_res_param(r, "files") ? vb_res_param(r, "files") : "-");
		if (!r) {
			fprintf(f, " missing\n");
			continue;
		}
		for (j = 0; j < 2; j++) {
			double ps, cpu;

			snprintf(name, sizeof(name), "%s_%s_per_s", rnd ?
			    "rand" : "seq", op[j]);
			ps = model_mean(r, name);
			snprintf(name, sizeof(name), "%s_%s_cpu", rnd ?
			    "rand" : "seq", op[j]);
			cpu = model_mean(r, name);
			fprintf(f, " %6s %5s %7s", fmt_num(a, sizeof(a), "%.0f",
			    ps), fmt_num(b, sizeof(b), "%.1f", cpu),
			    fmt_num(c, sizeof(c), "%.0f", cpu > 0 ?
			    ps / (cpu / 100) : NAN));
		}
		fputc('\n', f);
	}
}

/* tio's tables: the threaded I/O table, one per --creates run. */
static int
tiobench_tables(FILE *f, const struct rl_set *s, const char *bench,
    int width)
{
	const char **ids = calloc((size_t)s->nids + 1, sizeof(*ids));
	int n, i, shown = 0;

	(void)width;
	if (!ids)
		return 0;
	if ((n = io_ids(s, bench, ids)) > 0) {
		io_table(f, s, ids, n);
		shown++;
	}
	for (i = 0; i < s->nids; i++) {
		if (!is_tio(s, s->ids[i], bench, "seq_create_per_s"))
			continue;
		fprintf(f, "File creates and deletes (%s, bonnie++'s method, "
		    "empty files)\n\n", s->ids[i]);
		create_block(f, s, s->ids[i], 0);
		create_block(f, s, s->ids[i], 1);
		fprintf(f, "(means of runs; Eff = /sec / (%%CPU / 100))\n\n");
		shown++;
	}
	free(ids);
	return shown;
}

/*
 * tio's own key figures: each phase's rate, threaded (MB/s) or
 * --creates (files/s); the common figures sum the phases.
 */
static const char *const tiobench_key[] = {
	"seq_write_mbs", "rand_write_mbs", "seq_read_mbs", "rand_read_mbs",
	"seq_create_per_s", "seq_delete_per_s", "rand_create_per_s",
	"rand_delete_per_s", NULL,
};

const struct form form_tiobench = {
	.bench = "tio",
	.flags = FORM_POST_END,
	.table = tiobench_tables,
	.view_key = tiobench_key,
};
