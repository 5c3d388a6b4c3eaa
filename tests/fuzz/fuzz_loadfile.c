/*
 * fuzz_loadfile.c - libFuzzer target for fileload's loadfile parser
 * (fl_load_parse(), the in-memory form fl_load_read() calls).  The
 * input is passed as it is, not NUL-terminated, so a read past its end
 * is caught.
 *
 * Any input must give either operations whose paths stay inside the
 * client's folder or one "name:line: what" line.
 */
#include "fileload/load.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fl_load l;
	char err[1024];
	uint64_t total = 0;
	size_t i;
	int c;

	if (fl_load_parse("fuzz.load", (const char *)data, size, &l, err,
	    sizeof(err)) < 0) {
		fz_check_err(err, "fuzz.load");
		return 0;
	}
	if (l.nops == 0)
		fz_fail("a loadfile without operations was read");
	for (c = 0; c < FL_NOPS; c++)
		total += l.count[c];
	if (total != l.nops)
		fz_fail("counts add up to %llu, not %zu",
		    (unsigned long long)total, l.nops);
	if (l.max_io > FL_MAXIO)
		fz_fail("I/O size %llu read", (unsigned long long)l.max_io);
	for (i = 0; i < l.nops; i++) {
		const struct fl_op *o = &l.ops[i];
		const char *p[2];
		int k;

		if (o->code >= FL_NOPS || o->status > FL_ST_ERROR)
			fz_fail("op %zu: code %d status %d", i, o->code,
			    o->status);
		if (o->path >= l.strs_len || o->path2 >= l.strs_len)
			fz_fail("op %zu: path offset out of the arena", i);
		p[0] = fl_str(&l, o->path);
		p[1] = fl_str(&l, o->path2);
		for (k = 0; k < 2; k++) {
			const char *s = p[k];

			if (s[0] == '/' || strstr(s, "//"))
				fz_fail("op %zu: path '%s' not normalised",
				    i, s);
			for (; *s; s += strcspn(s, "/"), s += *s == '/')
				if (strncmp(s, "..", 2) == 0 &&
				    (s[2] == '/' || !s[2]))
					fz_fail("op %zu: path with '..'", i);
		}
	}
	fl_load_free(&l);
	return 0;
}
