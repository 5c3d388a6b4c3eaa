/*
 * dump.c - the `vmstat 1` dump of a benchmark's sampled series
 * (dump.h: vmreport --vmstat), one per folder, in procps' layout.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "msg.h"
#include "fmt.h"
#include "safedir.h"
#include "setup.h"

#define VR_VIEW_DUMP		/* its own header */
#include "dump.h"

static const char vm_head1[] =
    "procs -----------memory---------- ---swap-- -----io---- -system-- "
    "------cpu-----";
static const char vm_head2[] =
    " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs "
    "us sy id wa st";

/*
 * One kernel's series: the procps `vmstat 1` layout (its column widths,
 * widening where a number needs it).  The first sample of the file is
 * already a rate over its first interval (the sampler writes rows from
 * two snapshots), so no since-boot line is printed.
 */
static int
dump_one(FILE *out, const struct rl_kernel *k, const char *id, int iter)
{
	char path[PATH_MAX], *line = NULL;
	/* the procps column widths: r b swpd free ... wa st */
	static const int vm_w[17] = { 2, 2, 6, 6, 6, 6, 4, 4, 5, 5, 4, 4, 2, 2,
		2, 2, 2 };
	size_t cap = 0;
	double v[19];
	char num[32], err[PATH_MAX + 128];
	int rows = 0, lineno = 0, n, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.vmstat", k->dir, id);
	/* a regular file of bounded size only: never a FIFO or a device */
	if (!(f = vb_fopen_read(path, VB_MAX_SERIES, err, sizeof(err)))) {
		if (errno != ENOENT)
			vb_warn("%s", err);
		return -1;
	}
	fprintf(out, "%s: %s%s", k->label, id, iter ? "" : "\n");
	if (iter)
		fprintf(out, ", iteration %d\n", iter);
	fprintf(out, "%s\n%s\n", vm_head1, vm_head2);
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		n = sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf "
		    "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2],
		    &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10],
		    &v[11], &v[12], &v[13], &v[14], &v[15], &v[16], &v[17],
		    &v[18]);
		if (n != 19) {
			free(line);
			fclose(f);
			die("%s:%d: not a vmstat sample line", path, lineno);
		}
		if (iter && v[1] != iter)
			continue;
		for (i = 2; i < 19; i++)
			fprintf(out, "%s%*s", i > 2 ? " " : "", vm_w[i - 2],
			    fmt_num(num, sizeof(num), "%.0f", v[i]));
		fputc('\n', out);
		rows++;
	}
	if (!rows)
		fprintf(out, "(no samples%s)\n", iter ? " in that iteration" :
		    "");
	free(line);
	fclose(f);
	return rows;
}

int
dump_vmstat(FILE *f, const struct rl_set *s, const char *id, int iter,
    int width)
{
	int k, found = 0;

	setup_settings(f, s, width);
	for (k = 0; k < s->nk; k++) {
		if (k)
			fputc('\n', f);
		if (dump_one(f, &s->k[k], id, iter) >= 0)
			found++;
		else
			fprintf(f, "%s: no %s.vmstat\n", s->k[k].label, id);
	}
	return found ? 0 : -1;
}
