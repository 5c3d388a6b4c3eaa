/*
 * table.h - the comparison table of one benchmark and the notes under
 * it (table.c), as the text report, the post and the results page
 * print them.  Below it: model, fmt, rstats, rload and the options.
 */
#ifndef VB_TABLE_H
#define VB_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"
#include "util.h"
#include "options.h"

/*
 * The comparison table of @id, @rows (model_rows()'s, or a selection
 * of them) down, kernels across, fitted to o->width; o->title heads it.
 */
void table_print(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o);
/*
 * The notes under it: the metrics left out (zero, not measured), the
 * noise (o->short_notes: one line), outliers and cold first runs, a
 * kernel that did another amount of work (model_work_line()), runs
 * missing or incomplete.
 */
void table_notes(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o);
/*
 * The verdict @v in a few words: "changed*" ("changed" on an info
 * metric), "same +-1%", "can't tell", "-".
 */
char *table_verdict_word(char *buf, size_t len, const struct rv_verdict *v);
/*
 * The headline's verdict of @id under its table (@rows: model_rows()'s
 * or a selection with the headline), one line: "verdict fill_s:
 * changed* -50.0% [-53.7, -46.4]", a kernel's label before its word
 * when the words differ.
 */
void table_verdict_line(FILE *f, const struct model *md, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o);
/*
 * What the stars and the words mean, for the legends (text, post,
 * html): the families of @md, their procedures, levels and sizes, and
 * "same +-X%" (@detail: --detail's family); appended to @b.
 */
void table_family_words(struct vb_buf *b, const struct model *md,
    int detail);
/*
 * The second tier's stars (model_verdict()) on figures of @rows that
 * the table of @sel does not show, one line a kernel: "also changed:
 * minflt -99.7%*, thp_fault_alloc 0 -> 128*" ("also changed in b:"
 * with several kernels); the text view and the post.
 */
void table_also_changed(FILE *f, const struct model *md,
    const struct model_row *rows, int nrows, const struct model_row *sel,
    int n, const struct report_opts *o);
/*
 * The stars on the figures of result @bid, which has no section of its
 * own in the default view (a result that ran beside a benchmark,
 * form_rides()), one line a kernel: "BENCH@ID: NAME -3.1%*".  Every
 * figure the gate and the exports count as starred is so shown.
 */
void table_beside_changed(FILE *f, const struct model *md, const char *bid,
    const struct report_opts *o);
/* Kernel @k's mean of @r as the table prints it. */
char *table_mean(char *buf, size_t len, const struct model_row *r, int nk,
    int k);

#endif
