/*
 * fuzz_res.c - libFuzzer target for the .res reader (vb_res_read()).
 *
 * Any input must give either a result or one "file:line: what" line.
 * A result that was read must survive a round trip: written out and
 * read back it reads, with the same shape and every value within the
 * writer's ten significant digits; and from the second writing on, the
 * bytes no longer change (the first may: 26843545691.41 is written as
 * 2.684354569e+10, which reads back as the whole 26843545690).
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

/* Read @path into @r, or fail: it was written from what was read. */
static void
reread(const char *path, struct vb_res *r)
{
	char err[1024];

	if (vb_res_read(path, r, err, sizeof(err)) < 0)
		fz_fail("what was read does not read back: %s", err);
}

/* Write @r to the folder's @name; its path into @buf. */
static const char *
rewrite(char *buf, size_t len, const char *name, const struct vb_res *r)
{
	snprintf(buf, len, "%s/%s", fz_folder(), name);
	if (vb_res_write(buf, r) < 0)
		fz_fail("cannot write %s: %s", buf, strerror(errno));
	return buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], out1[600], out2[600], out3[600], *a, *b;
	struct vb_res r, r2, r3;
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
	if (strcmp(r.status, "complete") && strcmp(r.status, "interrupted") &&
	    strcmp(r.status, "failed") && strcmp(r.status, "running"))
		fz_fail("status '%s' read", r.status);

	reread(rewrite(out1, sizeof(out1), "out1.res", &r), &r2);
	if (r2.nmetrics != r.nmetrics || r2.niter != r.niter ||
	    r2.nparams != r.nparams || strcmp(r2.bench, r.bench) ||
	    strcmp(r2.variant, r.variant) || strcmp(r2.status, r.status))
		fz_fail("round trip changed the header");
	for (m = 0; m < r.nmetrics; m++)
		if (r2.metrics[m].key != r.metrics[m].key)
			fz_fail("round trip changed the key of metric %d", m);
	for (i = 0; i < r.niter; i++)
		for (m = 0; m < r.nmetrics; m++) {
			double x = vb_res_get(&r, i, m);
			double y = vb_res_get(&r2, i, m);

			if (isinf(x))
				fz_fail("infinite value read");
			if (isnan(x) != isnan(y) ||
			    fabs(x - y) > 1e-9 * fabs(x))
				fz_fail("iteration %d, metric %d: %.17g "
				    "read back as %.17g", i + 1, m, x, y);
		}
	reread(rewrite(out2, sizeof(out2), "out2.res", &r2), &r3);
	rewrite(out3, sizeof(out3), "out3.res", &r3);
	a = slurp(out2, &alen);
	b = slurp(out3, &blen);
	if (alen != blen || memcmp(a, b, alen) != 0)
		fz_fail("writing what was read back gives other bytes");
	free(a);
	free(b);
	unlink(out1);
	unlink(out2);
	unlink(out3);
	vb_res_free(&r3);
	vb_res_free(&r2);
	vb_res_free(&r);
	return 0;
}
