/*
 * plan.c - memfill's sizing arithmetic (see plan.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"

#define MiB (1ULL << 20)

/* Value in kB of the meminfo line "Name:   123 kB", or -1. */
static int
field(const char *text, const char *name, uint64_t *out)
{
	size_t n = strlen(name);
	const char *p = text;
	char *end;

	while (p && *p) {
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			unsigned long long v;

			errno = 0;
			v = strtoull(p + n + 1, &end, 10);
			if (errno || end == p + n + 1)
				return -1;
			*out = (uint64_t)v * 1024;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int
memfill_parse_meminfo(const char *text, struct memfill_meminfo *m,
    char *err, size_t errlen)
{
	static const char *const need[] = {
		"MemTotal", "MemFree", "SwapTotal", "SwapFree",
	};
	uint64_t *dst[] = {
		&m->mem_total, &m->mem_free, &m->swap_total, &m->swap_free,
	};
	uint64_t cached = 0, buffers = 0;
	size_t i;

	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		if (field(text, need[i], dst[i]) < 0) {
			snprintf(err, errlen, "meminfo: no '%s:' line", need[i]);
			return -1;
		}
	}
	m->has_commit = field(text, "CommitLimit", &m->commit_limit) == 0 &&
	    field(text, "Committed_AS", &m->committed_as) == 0;
	m->overcommit = -1;
	if (field(text, "MemAvailable", &m->mem_available) < 0) {
		/* before 3.14: free + page cache is the best guess */
		field(text, "Cached", &cached);
		field(text, "Buffers", &buffers);
		m->mem_available = m->mem_free + cached + buffers;
	}
	if (m->mem_total == 0 || m->mem_available > m->mem_total ||
	    m->swap_free > m->swap_total) {
		snprintf(err, errlen, "meminfo: inconsistent figures "
		    "(MemTotal %llu kB, MemAvailable %llu kB, SwapFree %llu "
		    "kB, SwapTotal %llu kB)",
		    (unsigned long long)m->mem_total / 1024,
		    (unsigned long long)m->mem_available / 1024,
		    (unsigned long long)m->swap_free / 1024,
		    (unsigned long long)m->swap_total / 1024);
		return -1;
	}
	return 0;
}

int
memfill_read_meminfo(const char *path, struct memfill_meminfo *m,
    char *err, size_t errlen)
{
	char buf[16384], tmp[256];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path,
		    strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path,
		    strerror(errno));
		return -1;
	}
	buf[n] = '\0';
	if (memfill_parse_meminfo(buf, m, tmp, sizeof(tmp)) < 0) {
		/* "/proc/meminfo: no 'MemTotal:' line" */
		snprintf(err, errlen, "%s: %s", path, tmp + 9);
		return -1;
	}
	return 0;
}

int
memfill_read_overcommit(const char *root)
{
	char path[4096], buf[16];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/sys/vm/overcommit_memory", root);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	/* "2\n" from the kernel; a test's copy may lack the newline */
	if (n < 1 || (n > 1 && buf[1] != '\n') || buf[0] < '0' ||
	    buf[0] > '2')
		return -1;
	return buf[0] - '0';
}

static uint64_t
max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t
min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int
memfill_plan(const struct memfill_meminfo *m, uint64_t limit,
    uint64_t swap_limit, const struct vb_sizepct *req, int force,
    uint64_t page, struct memfill_plan *p, char *err, size_t errlen)
{
	uint64_t avail, margin, syscap;
	char a[32], b[32], c[32];

	memset(p, 0, sizeof(*p));
	avail = m->mem_available + m->swap_free;
	margin = max64(128 * MiB, m->mem_total / 32);
	syscap = avail > margin ? avail - margin : 0;
	if (limit != MEMFILL_UNSET) {
		uint64_t swap = swap_limit != MEMFILL_UNSET ? swap_limit :
		    m->swap_total;
		uint64_t lmargin = max64(8 * MiB, limit / 16);
		uint64_t room = limit + min64(swap, m->swap_free);

		p->limited = 1;
		p->swap = swap;
		p->total = limit + swap;
		p->used = 0;
		p->cap = min64(room > lmargin ? room - lmargin : 0, syscap);
	} else {
		p->swap = m->swap_total;
		p->total = m->mem_total + m->swap_total;
		p->used = (m->mem_total - m->mem_available) +
		    (m->swap_total - m->swap_free);
		p->cap = syscap;
	}
	if (m->overcommit == 2 && m->has_commit) {
		uint64_t room = m->commit_limit > m->committed_as ?
		    m->commit_limit - m->committed_as : 0;
		uint64_t cmargin = max64(32 * MiB, room / 64);
		uint64_t ccap = room > cmargin ? room - cmargin : 0;

		p->strict = 1;
		p->commit_room = room;
		if (ccap < p->cap) {
			p->cap = ccap;
			p->commit_bound = 1;
		}
	}
	if (req->is_pct) {
		uint64_t share = (uint64_t)((double)p->total * req->pct / 100);

		if (share <= p->used) {
			snprintf(err, errlen, "%g%% of %s is %s, but %s is "
			    "already in use", req->pct,
			    vb_fmt_size(a, sizeof(a), p->total),
			    vb_fmt_size(b, sizeof(b), share),
			    vb_fmt_size(c, sizeof(c), p->used));
			return -1;
		}
		p->want = share - p->used;
	} else {
		p->want = req->bytes;
	}
	p->target = p->want;
	if (!force && p->target > p->cap) {
		p->target = p->cap;
		p->trimmed = 1;
	}
	p->target -= p->target % page;
	if (p->target == 0 && p->commit_bound) {
		snprintf(err, errlen, "nothing to fill: overcommit_memory=2: "
		    "CommitLimit %s reached (Committed_AS %s)",
		    vb_fmt_size(a, sizeof(a), m->commit_limit),
		    vb_fmt_size(b, sizeof(b), m->committed_as));
		return -1;
	}
	if (p->target == 0) {
		snprintf(err, errlen, "nothing to fill: %s available "
		    "(memory + free swap - margin)",
		    vb_fmt_size(a, sizeof(a), p->cap));
		return -1;
	}
	return 0;
}
