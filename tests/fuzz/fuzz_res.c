/*
 * fuzz_res.c - libFuzzer target for the .res reader (vb_res_read()).
 *
 * Any input must give either a result or one "file:line: what" line.
 * A result that was read must survive a round trip: written out and
 * read back it reads, and writing that gives the same bytes again.
 */
#include <math.h>

#include "fuzz.h"
#include "res.h"

/* The whole content of @path into a malloc'd buffer, its size in @len. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n;

	if (!f)
		fz_fail("cannot read back %s: %s", path, strerror(errno));
	*len = 0;
	do {
		if (*len + 4096 > cap) {
			cap = (cap + 4096) * 2;
			if (!(buf = realloc(buf, cap)))
				fz_fail("out of memory");
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	return buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], out1[600], out2[600], *a, *b;
	struct vb_res r, r2;
	size_t alen, blen;
	const char *path;
	int i, m;

	path = fz_file("in.res", data, size);
	if (vb_res_read(path, &r, err, sizeof(err)) < 0) {
		fz_check_err(err, path);
		return 0;
	}
	if (r.nmetrics < 1 || r.niter < 0)
		fz_fail("read %d metrics, %d iterations", r.nmetrics, r.niter);
	for (i = 0; i < r.niter; i++)
		for (m = 0; m < r.nmetrics; m++)
			if (isinf(vb_res_get(&r, i, m)))
				fz_fail("infinite value read");
	if (strcmp(r.status, "complete") && strcmp(r.status, "interrupted") &&
	    strcmp(r.status, "failed") && strcmp(r.status, "running"))
		fz_fail("status '%s' read", r.status);

	snprintf(out1, sizeof(out1), "%s/out1.res", fz_folder());
	snprintf(out2, sizeof(out2), "%s/out2.res", fz_folder());
	if (vb_res_write(out1, &r) < 0)
		fz_fail("cannot write %s: %s", out1, strerror(errno));
	if (vb_res_read(out1, &r2, err, sizeof(err)) < 0)
		fz_fail("what was read does not read back: %s", err);
	if (r2.nmetrics != r.nmetrics || r2.niter != r.niter ||
	    r2.nparams != r.nparams)
		fz_fail("round trip changed the shape");
	if (vb_res_write(out2, &r2) < 0)
		fz_fail("cannot write %s: %s", out2, strerror(errno));
	a = slurp(out1, &alen);
	b = slurp(out2, &blen);
	if (alen != blen || memcmp(a, b, alen) != 0)
		fz_fail("writing what was read back gives other bytes");
	free(a);
	free(b);
	unlink(out1);
	unlink(out2);
	vb_res_free(&r2);
	vb_res_free(&r);
	return 0;
}
