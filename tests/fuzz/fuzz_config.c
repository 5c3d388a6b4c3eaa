/*
 * fuzz_config.c - libFuzzer target for the suite reader
 * (vb_conf_read(), which parses with vb_conf_parse()).
 *
 * Any input must give either benchmark lines with valid names and
 * iteration counts or one "file:line: what" line.
 */
#include <ctype.h>

#include "config.h"
#include "fuzz.h"

/* [A-Za-z0-9_.-]+, as config.h says names are. */
static int
name_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return 0;
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vb_conf c;
	char err[1024], label[300];
	const char *path;
	int i, j;

	path = fz_file("in.conf", data, size);
	if (vb_conf_read(path, &c, err, sizeof(err)) < 0) {
		fz_check_err(err, path);
		return 0;
	}
	if (c.nlines < 1 || c.iterations < 0 || c.iterations > 100000)
		fz_fail("%d lines, iterations %d", c.nlines, c.iterations);
	for (i = 0; i < c.nlines; i++) {
		const struct vb_conf_line *l = &c.lines[i];

		if (!name_ok(l->bench) || (l->variant && !name_ok(l->variant)))
			fz_fail("line %d: bad name read", l->lineno);
		if (l->iterations < 0 || l->iterations > 100000)
			fz_fail("line %d: iterations %d", l->lineno,
			    l->iterations);
		if (l->argc < 0 || l->ndirs < 0)
			fz_fail("line %d: negative counts", l->lineno);
		for (j = 0; j < l->argc; j++)
			if (!l->argv[j])
				fz_fail("line %d: NULL word", l->lineno);
		for (j = 0; j < l->ndirs; j++)
			if (vb_conf_dir(l, l->dirs[j].key) == NULL)
				fz_fail("line %d: directive not found",
				    l->lineno);
		vb_conf_label(l, label, sizeof(label));
	}
	vb_conf_free(&c);
	return 0;
}
