/*
 * options.h - what vmreport's options ask of the views, in one struct
 * that main fills and every view passes down to the blocks it prints
 * (table.c, setup.c, the forms).  A view that wants a block printed
 * another way sets a field on its own copy; nothing is steered by a
 * file-level variable.
 */
#ifndef VB_OPTIONS_H
#define VB_OPTIONS_H

struct report_opts {
	int width;			/* columns (80) */
	double noisy;			/* CoV threshold (0.05) */
	int detail;			/* statistics of every metric */
	int allow_diff;			/* --allow-different-params */
	double quiet;			/* % of a CPU: --quiet-threshold (5) */
	double mem_quiet;		/* % of MemTotal: --mem-threshold
					   (25) */
	/* set by a view on its copy, for the blocks it prints: */
	const char *title;		/* table_print(): "== ID ==" left of
					   its header (the default view) */
	int short_notes;		/* table_notes(): the noise note as one
					   line, the headline's detectable
					   change */
	int quiet_merged;		/* the per-benchmark quiet lines are
					   in the top warning (text view) */
	int notes_apart;		/* table_notes(): the folders' notes
					   are the caller's (the text view
					   folds those said more than once) */
};

#endif
