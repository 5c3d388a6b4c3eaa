/*
 * opt.c - option tables that drive parsing, --help and --check (see
 * opt.h).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

#define FIELD(cfg, o, type) ((type *)((char *)(cfg) + (o)->off))

const struct vb_opt *
vb_opt_find(const struct vb_opt *tab, const char *name)
{
	for (; tab && tab->name; tab++)
		if (strcmp(tab->name, name) == 0)
			return tab;
	return NULL;
}

const struct vb_opt *
vb_opt_find_letter(const struct vb_opt *tab, char letter)
{
	for (; tab && tab->name; tab++)
		if (tab->letter && tab->letter == letter)
			return tab;
	return NULL;
}

int
vb_opt_flag(const struct vb_opt *tab, const void *cfg, const char *name)
{
	const struct vb_opt *o = vb_opt_find(tab, name);

	if (!o || o->type != VB_OPT_FLAG)
		return -1;
	return *FIELD(cfg, o, const int);
}

/* Is @val one of the '|'-separated @choices? */
static int
in_choices(const char *choices, const char *val)
{
	size_t n = strlen(val);
	const char *p = choices;

	while (*p) {
		size_t len = strcspn(p, "|");

		if (len == n && strncmp(p, val, n) == 0)
			return 1;
		p += len + (p[len] == '|');
	}
	return 0;
}

/*
 * Is @s (its first @n bytes) a plain decimal number: an optional sign,
 * digits with an optional fraction, an optional exponent?  strtod()
 * alone also takes hex floats ("0x10" is 16), "inf" and "nan", which
 * no option means.
 */
static int
decimal(const char *s, size_t n)
{
	size_t i = 0, dig = 0, e;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < n && isdigit((unsigned char)s[i]); i++)
		dig++;
	if (i < n && s[i] == '.')
		for (i++; i < n && isdigit((unsigned char)s[i]); i++)
			dig++;
	if (dig == 0)
		return 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (e = i; i < n && isdigit((unsigned char)s[i]); i++)
			;
		if (i == e)
			return 0;
	}
	return i == n;
}

int
vb_opt_decimal(const char *s)
{
	return s && decimal(s, strlen(s));
}

int
vb_opt_set(const struct vb_opt *o, void *cfg, const char *val, char *err,
    size_t errlen)
{
	char why[VB_ERRLEN];
	size_t n = val ? strlen(val) : 0;
	int rc = 0;

	/* seconds, fractions, percentages: decimal, as the help says */
	if (o->type == VB_OPT_DOUBLE && !decimal(val ? val : "", n)) {
		snprintf(err, errlen, "--%s: bad number '%s': expected a "
		    "decimal number", o->name, val ? val : "");
		return -1;
	}
	if (o->type == VB_OPT_SIZEPCT && n > 1 && val[n - 1] == '%' &&
	    !decimal(val, n - 1)) {
		snprintf(err, errlen, "--%s: bad percentage '%s': expected a "
		    "decimal number before the %%", o->name, val);
		return -1;
	}
	switch (o->type) {
	case VB_OPT_U64:
		rc = vb_parse_u64(val, o->min, o->max, FIELD(cfg, o, uint64_t),
		    why);
		break;
	case VB_OPT_SIZE:
		rc = vb_parse_size(val, o->min, o->max,
		    FIELD(cfg, o, uint64_t), why);
		break;
	case VB_OPT_SIZEPCT:
		rc = vb_parse_sizepct(val, o->min, o->max,
		    FIELD(cfg, o, struct vb_sizepct), why);
		break;
	case VB_OPT_DOUBLE:
		rc = vb_parse_double(val, o->dmin, o->dmax,
		    FIELD(cfg, o, double), why);
		break;
	case VB_OPT_FLAG:
		*FIELD(cfg, o, int) = val && strcmp(val, "0") != 0;
		break;
	case VB_OPT_STR:
		if (o->choices && !in_choices(o->choices, val)) {
			snprintf(why, sizeof(why), "unknown value '%s' "
			    "(choose %s)", val, o->choices);
			rc = -1;
		} else {
			*FIELD(cfg, o, const char *) = val;
		}
		break;
	case VB_OPT_END:
		break;
	}
	if (rc < 0)
		snprintf(err, errlen, "--%s: %s", o->name, why);
	return rc;
}

int
vb_opt_parse(const struct vb_opt *tab, void *cfg, int argc, char **argv,
    uint64_t *given, char *err, size_t errlen)
{
	const struct vb_opt *o;
	int i;

	if (given)
		*given = 0;
	for (o = tab; o && o->name; o++) {
		if (o->type == VB_OPT_STR)
			*FIELD(cfg, o, const char *) = o->def;
		else if (o->type == VB_OPT_FLAG)
			*FIELD(cfg, o, int) = o->def && strcmp(o->def, "0");
		else if (o->def && vb_opt_set(o, cfg, o->def, err, errlen) < 0)
			return -1;	/* a bad default is a program bug */
	}
	for (i = 0; i < argc; i++) {
		char name[64];
		const char *arg = argv[i], *val = NULL, *eq;
		size_t n;

		if (arg[0] == '-' && arg[1] != '-' && arg[1] != '\0' &&
		    (o = vb_opt_find_letter(tab, arg[1]))) {
			/* -L VALUE, -LVALUE; a flag is -L alone */
			snprintf(name, sizeof(name), "-%c", arg[1]);
			eq = arg[2] ? arg + 2 : NULL;
		} else if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
			snprintf(err, errlen, "unexpected argument '%s'", arg);
			return -1;
		} else {
			arg += 2;
			eq = strchr(arg, '=');
			n = eq ? (size_t)(eq - arg) : strlen(arg);
			if (n >= sizeof(name) - 2)
				n = sizeof(name) - 3;
			snprintf(name, sizeof(name), "--%.*s", (int)n, arg);
			if (eq)
				eq++;
			if (!(o = vb_opt_find(tab, name + 2))) {
				snprintf(err, errlen, "unknown option '%s' (see "
				    "--help)", name);
				return -1;
			}
		}
		if (o->type == VB_OPT_FLAG) {
			if (eq) {
				snprintf(err, errlen, "%s takes no value",
				    name);
				return -1;
			}
			val = "1";
		} else if (eq) {
			val = eq;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			snprintf(err, errlen, "%s needs a value (%s)", name,
			    o->arg ? o->arg : "an argument");
			return -1;
		}
		if (vb_opt_set(o, cfg, val, err, errlen) < 0)
			return -1;
		if (given && o - tab < 64)
			*given |= 1ULL << (o - tab);
	}
	return argc;
}

char *
vb_opt_format(const struct vb_opt *o, const void *cfg, char *buf, size_t len)
{
	const struct vb_sizepct *sp;
	const char *s;

	switch (o->type) {
	case VB_OPT_U64:
		snprintf(buf, len, "%" PRIu64, *FIELD(cfg, o, const uint64_t));
		break;
	case VB_OPT_SIZE:
		vb_fmt_size(buf, len, *FIELD(cfg, o, const uint64_t));
		break;
	case VB_OPT_SIZEPCT:
		sp = FIELD(cfg, o, const struct vb_sizepct);
		if (sp->is_pct)
			snprintf(buf, len, "%g%%", sp->pct);
		else
			vb_fmt_size(buf, len, sp->bytes);
		break;
	case VB_OPT_DOUBLE:
		snprintf(buf, len, "%g", *FIELD(cfg, o, const double));
		break;
	case VB_OPT_FLAG:
		snprintf(buf, len, "%d", *FIELD(cfg, o, const int));
		break;
	case VB_OPT_STR:
		s = *FIELD(cfg, o, const char *const);
		snprintf(buf, len, "%s", s ? s : "-");
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

void
vb_opt_usage(FILE *f, const struct vb_opt *tab)
{
	for (; tab && tab->name; tab++) {
		const char *arg = tab->type == VB_OPT_FLAG ? "" : tab->arg ?
		    tab->arg : "X";
		char left[48], letter[16] = "";

		if (tab->letter)
			snprintf(letter, sizeof(letter), "-%c%s, ",
			    tab->letter, arg);
		snprintf(left, sizeof(left), "%s--%s%s%s", letter, tab->name,
		    *arg ? " " : "", arg);
		fprintf(f, "  %-22s %s", left, tab->help ? tab->help : "");
		if (tab->def && tab->type != VB_OPT_FLAG)
			fprintf(f, " (default %s)", tab->def);
		if (tab->choices)
			fprintf(f, " [%s]", tab->choices);
		fputc('\n', f);
	}
}
