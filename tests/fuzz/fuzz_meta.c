/*
 * fuzz_meta.c - libFuzzer target for the meta reader (vb_meta_read()).
 *
 * Any input must give either key=value pairs (non-empty keys, no line
 * breaks, vmbench_meta among them) or one "file:line: what" line.
 */
#include "fuzz.h"
#include "meta.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vb_kv *kv;
	char err[1024];
	const char *path;
	int n, i;

	path = fz_file("meta", data, size);
	if (vb_meta_read(path, &kv, &n, err, sizeof(err)) < 0) {
		fz_check_err(err, path);
		if (kv || n)
			fz_fail("pairs left after a failed read");
		return 0;
	}
	if (!vb_meta_get(kv, n, "vmbench_meta"))
		fz_fail("a meta file without vmbench_meta was read");
	for (i = 0; i < n; i++) {
		if (!kv[i].key[0] || strchr(kv[i].key, '='))
			fz_fail("bad key '%s'", kv[i].key);
		if (strchr(kv[i].key, '\n') || strchr(kv[i].val, '\n'))
			fz_fail("a line break in pair %d", i);
	}
	vb_meta_free(kv, n);
	return 0;
}
