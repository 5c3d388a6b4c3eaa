/*
 * form.h - the benchmarks' own forms: tables in the shape of the
 * classic posts a benchmark comes from (contest's, tworead's,
 * tiobench's and bonnie++'s, LMbench's), and the lines one benchmark
 * adds to another's results (the probe's "played X of Y seconds").
 *
 * Every form is one entry of forms[] (forms.c), which names its
 * benchmark, says where it is shown (flags) and how it is titled.  The
 * views loop over forms[] and test the flags: no view names a
 * benchmark.  A new form is a file here and a line in forms[].  Below
 * the forms: model, fmt, rstats and rload; never a view.
 */
#ifndef VB_FORM_H
#define VB_FORM_H

#include <stddef.h>
#include <stdio.h>

#include "rload.h"

/* Where a form is shown. */
enum {
	FORM_TEXT = 1 << 0,	/* after the text report's sections, under
				   text_title (else title) */
	FORM_PAGE = 1 << 1,	/* a section of the results page */
	FORM_POST = 1 << 2,	/* in the post, heading its benchmark's
				   results, which it gathers */
	FORM_POST_END = 1 << 3,	/* at the end of the post (titled by itself) */
	FORM_BESIDE = 1 << 4,	/* BENCH@ID is shown with ID's results: its
				   lines, not a section of its own */
};

struct form {
	const char *bench;		/* the benchmark it shows */
	int flags;
	const char *title;		/* FORM_POST, FORM_PAGE: the heading */
	const char *text_title;		/* FORM_TEXT: the heading, else title */
	const char *anchor;		/* FORM_PAGE: the section's id */
	const char *about;		/* FORM_PAGE: one line under the title */
	/*
	 * The table of @bench's results in @s, fitted to @width where it
	 * can be; the number of tables printed (0: none, nothing printed).
	 */
	int (*table)(FILE *f, const struct rl_set *s, const char *bench,
	    int width);
	/* FORM_BESIDE: the lines of result @id; 1 when any printed. */
	int (*lines)(FILE *f, const struct rl_set *s, const char *id);
	/*
	 * The figures the text report's default view shows for the
	 * benchmark, besides its headline, NULL-terminated; NULL: its key
	 * figures (the common ones and its .res key line).  For a
	 * benchmark of many figures whose common ones (elapsed, user,
	 * sys, ...) say little: --detail shows every one.
	 */
	const char *const *view_key;
};

/* Every form, in the order the views show them; NULL-terminated. */
extern const struct form *const forms[];

/* The form of @id's benchmark having every flag of @flags, or NULL. */
const struct form *form_of(const char *id, int flags);
/*
 * Is @id the result BENCH@X of a FORM_BESIDE form, X a result of some
 * folder?  Then the views show it with X, not on its own.
 */
int form_rides(const struct rl_set *s, const char *id);
/*
 * The lines every FORM_BESIDE form has for @id (of its results
 * BENCH@ID); 1 when any printed (each form's begin with a blank line).
 */
int form_beside(FILE *f, const struct rl_set *s, const char *id);

/* The forms (contest.c, tworead.c, probe.c, lmbench.c, tiobench.c). */
extern const struct form form_contest, form_tworead, form_probe,
    form_lmbench, form_tiobench;

/* @v in at most @width characters, as LMbench's num(); "-" if absent. */
char *lmbench_num(char *buf, size_t len, double v, int width);

#endif
