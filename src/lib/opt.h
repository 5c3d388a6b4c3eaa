/*
 * opt.h - table-driven command-line options, in the manner of stress-ng:
 * one table per program drives parsing, validation, defaults, `--help`
 * and the "param" lines of the result file.
 *
 * Each option stores into a field of the program's own configuration
 * struct, found by offsetof():
 *
 *	static const struct vb_opt opts[] = {
 *		{ .name = "forks", .type = VB_OPT_U64, .arg = "N",
 *		  .off = offsetof(struct cfg, forks), .def = "10000",
 *		  .min = 1, .max = 100000000, .help = "number of forks" },
 *		{ 0 }
 *	};
 *
 * Field types: U64 and SIZE -> uint64_t, SIZEPCT -> struct vb_sizepct,
 * DOUBLE -> double, FLAG -> int (0/1), STR -> const char *.
 * Options are written "--name value" or "--name=value"; flags take none.
 * An option may also have a one-letter spelling (.letter = 'j': "-j 4"
 * or "-j4", as make's -jN), declared in the table like the rest.
 */
#ifndef VB_OPT_H
#define VB_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "size.h"

enum vb_opt_type {
	VB_OPT_END = 0,
	VB_OPT_U64,		/* whole number in [min, max] */
	VB_OPT_SIZE,		/* size in bytes in [min, max]: 64M */
	VB_OPT_SIZEPCT,		/* size in [min, max] or percentage: 80% */
	VB_OPT_DOUBLE,		/* real number in [dmin, dmax] */
	VB_OPT_FLAG,		/* no argument; sets the int to 1 */
	VB_OPT_STR,		/* string; one of .choices when given */
};

#define VB_MAXOPTS 64

struct vb_opt {
	const char *name;	/* long name without the dashes */
	enum vb_opt_type type;
	size_t off;		/* offsetof() the field in the config */
	const char *def;	/* default, parsed as user input; NULL: none */
	uint64_t min, max;	/* U64, SIZE, SIZEPCT (bytes) */
	double dmin, dmax;	/* DOUBLE */
	const char *choices;	/* STR: "audio|video", NULL for any */
	const char *arg;	/* metavariable for --help: "N", "SIZE" */
	const char *help;	/* one line */
	char letter;		/* also "-L VALUE", "-LVALUE"; 0: none */
};

/*
 * Set every option to its default, then parse @argv[0..argc).  Returns
 * the number of arguments used (argc on success) or -1 with a one-line
 * message in @err ("--forks: bad number 'x': expected a whole number").
 * @given, if not NULL, receives a bit per table entry set on the command
 * line.
 */
int vb_opt_parse(const struct vb_opt *tab, void *cfg, int argc,
    char **argv, uint64_t *given, char *err, size_t errlen);
/* Parse one value for one option into @cfg. */
int vb_opt_set(const struct vb_opt *o, void *cfg, const char *val,
    char *err, size_t errlen);
/* Print "  --name ARG   help (default: x)" lines. */
void vb_opt_usage(FILE *f, const struct vb_opt *tab);
/* The value of option @o in @cfg as text (for result files). */
char *vb_opt_format(const struct vb_opt *o, const void *cfg, char *buf,
    size_t len);
/*
 * Is @s a plain decimal number (sign, digits, fraction, exponent), not
 * a hex float, inf or nan that strtod() would also take?  1 or 0.
 */
int vb_opt_decimal(const char *s);
/* The table entry named @name, or NULL. */
const struct vb_opt *vb_opt_find(const struct vb_opt *tab, const char *name);
/* The table entry spelt -@letter, or NULL. */
const struct vb_opt *vb_opt_find_letter(const struct vb_opt *tab,
    char letter);
/*
 * The value in @cfg of the flag @name of @tab (after vb_opt_parse()), or
 * -1 when @tab has no flag of that name.
 */
int vb_opt_flag(const struct vb_opt *tab, const void *cfg, const char *name);

#endif
