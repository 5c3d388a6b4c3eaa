/*
 * job.c - the build graph and what each job does.
 *
 * The graph is a kernel build's: one compile job per .c file, then one
 * archive job per directory (after that directory's compiles, like
 * built-in.a), then one link job after every archive, which reads every
 * object.  Job indices: units [0, nunits), archives [nunits, nunits +
 * ndirs), the link last.
 *
 * A compile job, like cc1: reads its .c and every header it includes
 * (read(), so page cache or storage), maps and writes an anonymous
 * working set of ws_base + ws_per_kb per KB of source (capped at
 * ws_max), runs ops_per_kb deterministic operations per KB of source
 * that keep writing into the working set (a cache line every 64
 * operations, sweeping through it in order, and a pseudo-random word
 * every 4096 operations: a compiler's locality, mostly its current
 * function, sometimes any older structure; a working set pushed out to
 * swap is faulted back in), and writes an object of 3/4 of the source's
 * size.  The
 * work depends only on the tree and the options, never on the machine:
 * no calibration, so two kernels run exactly the same instructions.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "msg.h"
#include "makesim.h"

#define IOBUF (64u << 10)

int
makesim_build_init(struct ms_build *b, const struct ms_tree *t,
    const char *root)
{
	uint32_t i, d, nd = 0, njobs = t->nunits + t->ndirs + 1;
	size_t namelen = 48;
	char rel[64];

	b->tree = t;
	b->root = root;
	b->njobs = njobs;
	b->jobs = calloc(njobs, sizeof(*b->jobs));
	/* each unit once (its archive), each archive once (the link) */
	b->depbuf = calloc((size_t)t->nunits + t->ndirs, sizeof(uint32_t));
	b->namebuf = calloc(njobs, namelen);
	if (!b->jobs || !b->depbuf || !b->namebuf) {
		makesim_build_free(b);
		return -1;
	}
	for (i = 0; i < t->nunits; i++) {
		char *nm = b->namebuf + i * namelen;

		snprintf(nm, namelen, "CC %s",
		    makesim_unit_path(t, i, ".o", rel, sizeof(rel)));
		b->jobs[i].name = nm;
	}
	for (d = 0; d < t->ndirs; d++) {
		uint32_t j = t->nunits + d;
		char *nm = b->namebuf + (size_t)j * namelen;

		snprintf(nm, namelen, "AR %s/built-in.a",
		    makesim_dir_path(t, d, rel, sizeof(rel)));
		b->jobs[j].name = nm;
		b->jobs[j].ndeps = t->dir_first[d + 1] - t->dir_first[d];
		b->jobs[j].deps = b->depbuf + nd;
		for (i = t->dir_first[d]; i < t->dir_first[d + 1]; i++)
			b->depbuf[nd++] = i;
	}
	snprintf(b->namebuf + (size_t)(njobs - 1) * namelen, namelen,
	    "LD vmlinux");
	b->jobs[njobs - 1].name = b->namebuf + (size_t)(njobs - 1) * namelen;
	b->jobs[njobs - 1].ndeps = t->ndirs;
	b->jobs[njobs - 1].deps = b->depbuf + nd;
	for (d = 0; d < t->ndirs; d++)
		b->depbuf[nd++] = t->nunits + d;
	return 0;
}

void
makesim_build_free(struct ms_build *b)
{
	free(b->jobs);
	free(b->depbuf);
	free(b->namebuf);
	b->jobs = NULL;
	b->depbuf = NULL;
	b->namebuf = NULL;
}

uint64_t
makesim_ws_bytes(const struct ms_build *b, uint64_t size)
{
	uint64_t ws = b->ws_base + b->ws_per_kb * size / 1024;

	return ws > b->ws_max ? b->ws_max : ws;
}

uint64_t
makesim_cpu_work(uint64_t ops, uint64_t *ws, uint64_t words, uint64_t seed)
{
	uint64_t x = seed | 1, acc = 0, i, seq = 0;

	for (i = 0; i < ops; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		acc += x ^ (acc >> 3);
		if ((i & 63) == 0 && words) {
			/* mostly a sweep, one cache line at a time ... */
			ws[seq] += acc;
			seq += 8;
			if (seq >= words)
				seq = 0;
			/* ... and now and then anywhere */
			if ((i & 4095) == 0)
				ws[(uint64_t)(((unsigned __int128)x *
				    words) >> 64)] += acc;
		}
	}
	return acc;
}

/* Read all of @path (relative to root); folds the bytes into *@h. */
static int
read_all(const struct ms_build *b, const char *rel, char *buf, uint64_t *h,
    uint64_t *bytes)
{
	char path[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", b->root, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		vb_warn_errno("cannot open %s", path);
		return -1;
	}
	while ((n = read(fd, buf, IOBUF)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			vb_warn_errno("cannot read %s", path);
			close(fd);
			return -1;
		}
		*h = *h * 31 + (uint64_t)buf[0] + (uint64_t)buf[n - 1];
		*bytes += (uint64_t)n;
	}
	close(fd);
	return 0;
}

/* Write @size bytes derived from @h to @rel. */
static int
write_out(const struct ms_build *b, const char *rel, uint64_t size,
    uint64_t h, char *buf)
{
	char path[4096];
	uint64_t done = 0, s = h;
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", b->root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		vb_warn_errno("cannot create %s", path);
		return -1;
	}
	for (i = 0; i + 8 <= IOBUF; i += 8) {
		uint64_t r = makesim_rng(&s);

		memcpy(buf + i, &r, 8);
	}
	while (done < size) {
		size_t want = size - done < IOBUF ? (size_t)(size - done) :
		    IOBUF;
		ssize_t n = write(fd, buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			vb_warn_errno("cannot write %s", path);
			close(fd);
			return -1;
		}
		done += (uint64_t)n;
	}
	if (close(fd) < 0) {
		vb_warn_errno("cannot write %s", path);
		return -1;
	}
	return 0;
}

/* Map and write every page of a working set of @bytes. */
static uint64_t *
ws_map(uint64_t bytes, uint64_t seed)
{
	uint64_t *ws, i, words = bytes / 8;

	ws = mmap(NULL, bytes ? bytes : 8, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ws == MAP_FAILED) {
		vb_warn_errno("cannot map a working set of %llu bytes",
		    (unsigned long long)bytes);
		return NULL;
	}
	for (i = 0; i < words; i++)
		ws[i] = seed + i;
	return ws;
}

static int
compile(const struct ms_build *b, uint32_t u, char *buf)
{
	const struct ms_tree *t = b->tree;
	const struct ms_unit *un = &t->units[u];
	uint64_t h = t->seed + u, bytes = 0, ws_bytes, *ws, ops;
	char rel[64];
	uint32_t k;

	if (read_all(b, makesim_unit_path(t, u, ".c", rel, sizeof(rel)), buf,
	    &h, &bytes) < 0)
		return 1;
	for (k = 0; k < un->nhdr; k++)
		if (read_all(b, makesim_hdr_path(t, un->hdr[k], rel,
		    sizeof(rel)), buf, &h, &bytes) < 0)
			return 1;
	ws_bytes = makesim_ws_bytes(b, un->size);
	if (!(ws = ws_map(ws_bytes, h)))
		return 1;
	ops = b->ops_per_kb * un->size / 1024;
	h ^= makesim_cpu_work(ops, ws, ws_bytes / 8, t->seed + u);
	munmap(ws, ws_bytes);
	return write_out(b, makesim_unit_path(t, u, ".o", rel, sizeof(rel)),
	    un->size * 3 / 4, h, buf) < 0;
}

/* Object size of unit @u (what compile() wrote). */
static uint64_t
obj_size(const struct ms_tree *t, uint32_t u)
{
	return t->units[u].size * 3 / 4;
}

static int
archive(const struct ms_build *b, uint32_t d, char *buf)
{
	const struct ms_tree *t = b->tree;
	uint64_t h = d, bytes = 0, total = 0;
	char rel[64], dir[32];
	uint32_t u;

	for (u = t->dir_first[d]; u < t->dir_first[d + 1]; u++) {
		if (read_all(b, makesim_unit_path(t, u, ".o", rel,
		    sizeof(rel)), buf, &h, &bytes) < 0)
			return 1;
		total += obj_size(t, u);
	}
	if (bytes != total) {
		vb_warn("%s: objects hold %llu bytes, expected %llu",
		    makesim_dir_path(t, d, dir, sizeof(dir)),
		    (unsigned long long)bytes, (unsigned long long)total);
		return 1;
	}
	snprintf(rel, sizeof(rel), "%s/built-in.a",
	    makesim_dir_path(t, d, dir, sizeof(dir)));
	return write_out(b, rel, total + 8, h, buf) < 0;
}

/*
 * The link: reads every object, keeps a symbol table of 1/4 of their
 * size, does 1/16 of a compile's work per KB, writes half their size.
 */
static int
link_all(const struct ms_build *b, char *buf)
{
	const struct ms_tree *t = b->tree;
	uint64_t h = 7, bytes = 0, *ws, ws_bytes;
	char rel[64];
	uint32_t u;

	for (u = 0; u < t->nunits; u++)
		if (read_all(b, makesim_unit_path(t, u, ".o", rel,
		    sizeof(rel)), buf, &h, &bytes) < 0)
			return 1;
	ws_bytes = (bytes / 4 + 4095) & ~4095ULL;
	if (!(ws = ws_map(ws_bytes, h)))
		return 1;
	h ^= makesim_cpu_work(b->ops_per_kb / 16 * (bytes / 1024), ws,
	    ws_bytes / 8, h);
	munmap(ws, ws_bytes);
	return write_out(b, "vmlinux", bytes / 2, h, buf) < 0;
}

int
makesim_build_job(uint32_t j, void *arg)
{
	const struct ms_build *b = arg;
	const struct ms_tree *t = b->tree;
	char *buf = malloc(IOBUF);
	int rc;

	if (!buf)
		return 1;
	if (j < t->nunits)
		rc = compile(b, j, buf);
	else if (j < t->nunits + t->ndirs)
		rc = archive(b, j - t->nunits, buf);
	else
		rc = link_all(b, buf);
	free(buf);
	return rc;
}

void
makesim_build_clean(const struct ms_build *b)
{
	const struct ms_tree *t = b->tree;
	char rel[64], dir[32], path[4096];
	uint32_t i;

	for (i = 0; i < t->nunits; i++) {
		snprintf(path, sizeof(path), "%s/%s", b->root,
		    makesim_unit_path(t, i, ".o", rel, sizeof(rel)));
		unlink(path);
	}
	for (i = 0; i < t->ndirs; i++) {
		snprintf(path, sizeof(path), "%s/%s/built-in.a", b->root,
		    makesim_dir_path(t, i, dir, sizeof(dir)));
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/vmlinux", b->root);
	unlink(path);
}
