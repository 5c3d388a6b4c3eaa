/*
 * plan.c - tworead's size arithmetic (see plan.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "size.h"
#include "plan.h"

const unsigned tr_sweep_ns[TR_NSWEEP] = { 100, 200, 300, 400, 500 };

/* memory.max of this process's cgroup (v2); 0 when there is none. */
static uint64_t
cgroup_limit(void)
{
	char line[4096], path[4200], val[64];
	uint64_t v = 0;
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");

		line[n] = '\0';
		if (strncmp(line, "0::", 3) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max",
		    line + 3);
		FILE *m = fopen(path, "r");

		if (m) {
			if (fgets(val, sizeof(val), m)) {
				char *end;

				errno = 0;
				v = strtoull(val, &end, 10);
				if (errno || end == val || (*end && *end != '\n'))
					v = 0;	/* "max" */
			}
			fclose(m);
		}
	}
	fclose(f);
	return v;
}

int
tr_mem_basis(uint64_t *mem, const char **src, char *err, size_t errlen)
{
	const char *env = getenv("VMBENCH_MEM_LIMIT");
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t total = pages > 0 && psz > 0 ?
	    (uint64_t)pages * (uint64_t)psz : 0, cg;
	char why[VB_ERRLEN];

	if (env && *env) {
		if (vb_parse_u64(env, 1, UINT64_MAX, mem, why) < 0) {
			snprintf(err, errlen, "VMBENCH_MEM_LIMIT: %s", why);
			return -1;
		}
		*src = "VMBENCH_MEM_LIMIT";
		return 0;
	}
	cg = cgroup_limit();
	if (cg && (!total || cg < total)) {
		*mem = cg;
		*src = "cgroup memory.max";
		return 0;
	}
	if (!total) {
		snprintf(err, errlen, "cannot tell how much memory this "
		    "machine has; give --mem");
		return -1;
	}
	*mem = total;
	*src = "MemTotal";
	return 0;
}

static uint64_t
down(uint64_t x, uint64_t b)
{
	return x / b * b;
}

static uint64_t
up(uint64_t x, uint64_t b)
{
	return (x + b - 1) / b * b;
}

int
tr_plan_make(struct tr_plan *p, unsigned n, char *err, size_t errlen)
{
	char a[32], b[32];

	if (p->block == 0) {
		snprintf(err, errlen, "--block must be at least 1 byte");
		return -1;
	}
	if (n && (p->range_a || p->range_b)) {
		snprintf(err, errlen, "--sweep %u sets both ranges: give "
		    "either --sweep or --range-a/--range-b", n);
		return -1;
	}
	if (n >= TR_ORIG_TOTAL) {
		snprintf(err, errlen, "--sweep %u: n must be between 1 and "
		    "%u", n, TR_ORIG_TOTAL - 1);
		return -1;
	}
	p->n = n ? n : p->range_a || p->range_b ? 0 : TR_DEFAULT_N;
	p->unit = p->mem / TR_ORIG_MEM;
	if (!p->range_a)
		p->range_a = down((uint64_t)(p->n ? p->n : TR_DEFAULT_N) *
		    p->unit, p->block);
	if (!p->range_b)
		p->range_b = down((uint64_t)(TR_ORIG_TOTAL -
		    (p->n ? p->n : TR_DEFAULT_N)) * p->unit, p->block);
	if (!p->size_a) {
		p->size_a = up((uint64_t)TR_ORIG_SIZE_A * p->unit, p->block);
		if (p->size_a < p->range_a)
			p->size_a = up(p->range_a, p->block);
	}
	if (!p->size_b) {
		p->size_b = up((uint64_t)TR_ORIG_SIZE_B * p->unit, p->block);
		if (p->size_b < p->range_b)
			p->size_b = up(p->range_b, p->block);
	}
	if (p->range_a < p->block || p->range_b < p->block) {
		snprintf(err, errlen, "--range-%c %s is smaller than one "
		    "--block (%s)", p->range_a < p->block ? 'a' : 'b',
		    vb_fmt_size(a, sizeof(a), p->range_a < p->block ?
		    p->range_a : p->range_b),
		    vb_fmt_size(b, sizeof(b), p->block));
		return -1;
	}
	if (p->range_a > p->size_a) {
		snprintf(err, errlen, "--range-a %s is larger than --size-a %s",
		    vb_fmt_size(a, sizeof(a), p->range_a),
		    vb_fmt_size(b, sizeof(b), p->size_a));
		return -1;
	}
	if (p->range_b > p->size_b) {
		snprintf(err, errlen, "--range-b %s is larger than --size-b %s",
		    vb_fmt_size(a, sizeof(a), p->range_b),
		    vb_fmt_size(b, sizeof(b), p->size_b));
		return -1;
	}
	return 0;
}

char *
tr_variant(char *buf, size_t len, unsigned n)
{
	snprintf(buf, len, "n%u", n);
	return buf;
}
