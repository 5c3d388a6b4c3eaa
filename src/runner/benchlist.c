/*
 * benchlist.c - the benchmarks built here (see benchlist.h).
 */
#include <stdio.h>
#include <string.h>

#include "benchlist.h"
#include "util.h"

const char *const vb_benches[] = {
#define BENCH(name) name,
#include "benches.h"
#undef BENCH
	NULL
};

int
vb_is_bench(const char *name)
{
	const char *const *b;

	for (b = vb_benches; *b; b++)
		if (strcmp(*b, name) == 0)
			return 1;
	return 0;
}

int
vb_conf_check_benches(const struct vb_conf *c, char *err, size_t errlen)
{
	struct vb_buf list = VB_BUF_INIT;
	const char *const *b;
	int i;

	for (i = 0; i < c->nlines; i++)
		if (!vb_is_bench(c->lines[i].bench))
			break;
	if (i == c->nlines)
		return 0;
	for (b = vb_benches; *b; b++)
		vb_buf_printf(&list, "%s%s", b == vb_benches ? "" : ", ", *b);
	snprintf(err, errlen, "%s:%d: '%s' is not a benchmark; the "
	    "benchmarks are: %s", c->path, c->lines[i].lineno,
	    c->lines[i].bench, vb_buf_str(&list));
	vb_buf_free(&list);
	return -1;
}
