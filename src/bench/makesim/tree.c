/*
 * tree.c - the synthetic source tree of makesim.
 *
 * The plan is pure arithmetic on the seed (splitmix64, and log() and
 * cos() from libm for the log-normal sizes), so one seed always gives
 * the same directories, file sizes and include lists.  Shapes, from a
 * 2.5-era kernel tree: .c files log-normal with a median of about 9 KB
 * and a long tail (a few of 100 KB and more, capped at 400 KB); about 12
 * files a directory; shared headers (median about 3 KB) of which each
 * file includes 6 to 40, popular ones (linux/kernel.h-like) far more
 * often than the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "makesim.h"

#define SRC_MEDIAN	9000.0	/* bytes */
#define SRC_SIGMA	1.0	/* of ln(size) */
#define SRC_MIN		300
#define SRC_MAX		(400u << 10)
#define HDR_MEDIAN	3000.0
#define HDR_SIGMA	0.9
#define HDR_MIN		200
#define HDR_MAX		(64u << 10)
#define PER_DIR		12

/* Uniform in (0, 1). */
static double
unif(uint64_t *s)
{
	return ((double)(makesim_rng(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* Log-normal (Box-Muller on two uniforms), clamped to [lo, hi]. */
static uint64_t
lognormal(uint64_t *s, double median, double sigma, uint64_t lo,
    uint64_t hi)
{
	double u1 = unif(s), u2 = unif(s);
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	double v = median * exp(sigma * z);

	if (v < (double)lo)
		return lo;
	if (v > (double)hi)
		return hi;
	return (uint64_t)v;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

void
makesim_tree_free(struct ms_tree *t)
{
	uint32_t i;

	if (t->units)
		for (i = 0; i < t->nunits; i++)
			free(t->units[i].hdr);
	free(t->units);
	free(t->dir_first);
	free(t->hdr_size);
	memset(t, 0, sizeof(*t));
}

int
makesim_tree_plan(struct ms_tree *t, uint32_t nunits, uint64_t seed)
{
	uint64_t s = seed * 0x2545f4914f6cdd1dULL + 1;
	uint32_t i, d;

	memset(t, 0, sizeof(*t));
	if (nunits == 0)
		return -1;
	t->seed = seed;
	t->nunits = nunits;
	t->ndirs = (nunits + PER_DIR - 1) / PER_DIR;
	t->nhdrs = nunits / 5 < 8 ? 8 : nunits / 5;
	t->units = calloc(nunits, sizeof(*t->units));
	t->dir_first = calloc(t->ndirs + 1, sizeof(*t->dir_first));
	t->hdr_size = calloc(t->nhdrs, sizeof(*t->hdr_size));
	if (!t->units || !t->dir_first || !t->hdr_size)
		goto fail;
	for (i = 0; i < t->nhdrs; i++) {
		t->hdr_size[i] = lognormal(&s, HDR_MEDIAN, HDR_SIGMA, HDR_MIN,
		    HDR_MAX);
		t->hdr_bytes += t->hdr_size[i];
	}
	/* directories of uneven size: cut points drawn, then sorted */
	for (d = 1; d < t->ndirs; d++)
		t->dir_first[d] = (uint32_t)(makesim_rng(&s) % nunits);
	t->dir_first[t->ndirs] = nunits;
	qsort(t->dir_first + 1, t->ndirs - 1, sizeof(uint32_t), cmp_u32);
	/* every directory compiles at least one unit */
	for (d = 1; d < t->ndirs; d++) {
		if (t->dir_first[d] <= t->dir_first[d - 1])
			t->dir_first[d] = t->dir_first[d - 1] + 1;
		if (t->dir_first[d] > nunits - (t->ndirs - d))
			t->dir_first[d] = nunits - (t->ndirs - d);
	}
	for (d = 0; d < t->ndirs; d++)
		for (i = t->dir_first[d]; i < t->dir_first[d + 1]; i++)
			t->units[i].dir = d;
	for (i = 0; i < nunits; i++) {
		struct ms_unit *u = &t->units[i];
		uint32_t want = 6 + (uint32_t)(makesim_rng(&s) % 35), n = 0, k;

		if (want > t->nhdrs)
			want = t->nhdrs;
		u->size = lognormal(&s, SRC_MEDIAN, SRC_SIGMA, SRC_MIN,
		    SRC_MAX);
		t->src_bytes += u->size;
		u->hdr = malloc(want * sizeof(uint32_t));
		if (!u->hdr)
			goto fail;
		/* skewed choice: index = nhdrs * x^3 favours the first ones */
		while (n < want) {
			double x = unif(&s);
			uint32_t h = (uint32_t)((double)t->nhdrs * x * x * x);

			if (h >= t->nhdrs)
				h = t->nhdrs - 1;
			for (k = 0; k < n && u->hdr[k] != h; k++)
				;
			if (k == n)
				u->hdr[n++] = h;
		}
		qsort(u->hdr, n, sizeof(uint32_t), cmp_u32);
		u->nhdr = n;
	}
	return 0;
fail:
	makesim_tree_free(t);
	return -1;
}

char *
makesim_dir_path(const struct ms_tree *t, uint32_t d, char *buf, size_t len)
{
	(void)t;
	snprintf(buf, len, "d%03u", d);
	return buf;
}

char *
makesim_unit_path(const struct ms_tree *t, uint32_t u, const char *ext,
    char *buf, size_t len)
{
	snprintf(buf, len, "d%03u/u%05u%s", t->units[u].dir, u, ext);
	return buf;
}

char *
makesim_hdr_path(const struct ms_tree *t, uint32_t h, char *buf, size_t len)
{
	(void)t;
	snprintf(buf, len, "include/h%04u.h", h);
	return buf;
}

/*
 * Fill @buf with @len bytes of C-looking text from @s: function
 * definitions and declarations, so the files compress and read like
 * source, not like zeros.
 */
static void
fill_text(char *buf, size_t len, uint64_t s)
{
	static const char *const kw[] = {
		"static int", "unsigned long", "struct page *", "void",
		"static inline int", "long", "struct inode *", "int",
	};
	size_t n = 0;

	while (n < len) {
		char line[160];
		uint64_t r = makesim_rng(&s);
		int k = snprintf(line, sizeof(line),
		    "%s fn_%05llx(int a%u, long b%u)\n{\n\treturn a%u * %u + "
		    "(b%u >> %u);\n}\n\n", kw[r & 7],
		    (unsigned long long)((r >> 8) & 0xfffff),
		    (unsigned)(r >> 28) & 7, (unsigned)(r >> 31) & 7,
		    (unsigned)(r >> 28) & 7, (unsigned)(r >> 34) & 255,
		    (unsigned)(r >> 31) & 7, (unsigned)(r >> 42) & 31);
		size_t m = (size_t)k < len - n ? (size_t)k : len - n;

		memcpy(buf + n, line, m);
		n += m;
	}
}

/* Create @path holding @size bytes of text seeded by @s. */
static int
write_file(const char *path, uint64_t size, uint64_t s, char *buf,
    char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t n;

	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path,
		    strerror(errno));
		return -1;
	}
	fill_text(buf, (size_t)size, s);
	for (n = 0; n < size;) {
		ssize_t w = write(fd, buf + n, (size_t)size - n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			snprintf(err, errlen, "cannot write %s: %s", path,
			    w < 0 ? strerror(errno) : "short write");
			close(fd);
			return -1;
		}
		n += (size_t)w;
	}
	if (close(fd) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
make_dir(const char *path, char *err, size_t errlen)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

int
makesim_tree_write(const struct ms_tree *t, const char *root, char *err,
    size_t errlen)
{
	char path[4096], rel[64];
	char *buf = malloc(SRC_MAX > HDR_MAX ? SRC_MAX : HDR_MAX);
	uint32_t i;
	int rc = -1;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (make_dir(root, err, errlen) < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/include", root);
	if (make_dir(path, err, errlen) < 0)
		goto out;
	for (i = 0; i < t->ndirs; i++) {
		snprintf(path, sizeof(path), "%s/%s", root,
		    makesim_dir_path(t, i, rel, sizeof(rel)));
		if (make_dir(path, err, errlen) < 0)
			goto out;
	}
	for (i = 0; i < t->nhdrs; i++) {
		snprintf(path, sizeof(path), "%s/%s", root,
		    makesim_hdr_path(t, i, rel, sizeof(rel)));
		if (write_file(path, t->hdr_size[i], t->seed ^ (0x100000000ULL
		    + i), buf, err, errlen) < 0)
			goto out;
	}
	for (i = 0; i < t->nunits; i++) {
		snprintf(path, sizeof(path), "%s/%s", root,
		    makesim_unit_path(t, i, ".c", rel, sizeof(rel)));
		if (write_file(path, t->units[i].size, t->seed ^ (0x200000000ULL
		    + i), buf, err, errlen) < 0)
			goto out;
	}
	rc = 0;
out:
	free(buf);
	return rc;
}
