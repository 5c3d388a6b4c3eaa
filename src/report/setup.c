/*
 * setup.c - what the figures rest on, for every view (setup.h):
 *
 * - the settings and machine facts (meta keys) that differ between the
 *   folders, each folder's value, at the top; one line when none do;
 * - how quiet the machine was: the runner records per iteration the
 *   CPU used by processes outside the benchmark's tree (foreign_cpu, %
 *   of one CPU); a benchmark's run in a folder is "not quiet" when the
 *   mean over its iterations is above --quiet-threshold (5%).  The mean,
 *   not the highest: one iteration disturbed by a short burst of other
 *   work is the outlier notes' business, a run disturbed throughout is
 *   this warning's; the highest iteration is named beside the mean;
 * - which machine each folder ran on (host, CPU, memory from meta), and
 *   one warning when the folders come from more than one;
 * - how much of the memory others held: the runner records at each
 *   iteration's start the memory in use that was not the benchmark's
 *   (foreign_mem_kb: MemTotal - MemAvailable - our processes' RSS,
 *   src/lib/scope.h); a run is warned about when the mean over its
 *   iterations is above --mem-threshold (25%) of MemTotal.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "fmt.h"
#include "model.h"
#include "rstats.h"
#include "setup.h"
#include "util.h"

/* ---- the settings that differ ---- */

/* Is word @w (of length @n) one of the words of @text? */
static int
has_word(const char *text, const char *w, size_t n)
{
	const char *p = text;

	while (*p) {
		size_t m;

		p += strspn(p, " ");
		m = strcspn(p, " ");
		if (m == n && !strncmp(p, w, n))
			return 1;
		p += m;
	}
	return 0;
}

/*
 * The words of folder @k's kernel command line that are not in every
 * folder's: the full lines run to hundreds of characters and mostly
 * agree.  Allocated.
 */
static char *
uncommon_words(const struct rl_set *s, const struct rl_mdiff *d, int k)
{
	const char *p = d->val[k];
	char *out = vb_xcalloc(strlen(p) + 1, 1);
	size_t used = 0;
	int i;

	while (*p) {
		size_t n;
		int common = 1;

		p += strspn(p, " ");
		if (!(n = strcspn(p, " ")))
			break;
		for (i = 0; i < s->nk && common; i++)
			if (!d->val[i] || !has_word(d->val[i], p, n))
				common = 0;
		if (!common) {
			if (used)
				out[used++] = ' ';
			memcpy(out + used, p, n);
			used += n;
		}
		p += n;
	}
	out[used] = '\0';
	return out;
}

/* "v1 in a; v2 in b, c": each distinct value once, with its folders. */
static void
put_values(FILE *m, const struct rl_set *s, const struct rl_mdiff *d)
{
	char **v = vb_xcalloc((size_t)s->nk, sizeof(char *));
	int k, i, first = 1, cmdline = !strcmp(d->key, "cmdline");

	for (k = 0; k < s->nk; k++)
		v[k] = !d->val[k] ? NULL : cmdline ? uncommon_words(s, d, k) :
		    vb_xstrdup(d->val[k]);
	for (k = 0; k < s->nk; k++) {
		int seen = 0, nin = 0;

		for (i = 0; i < k && !seen; i++)
			seen = (!v[i] && !v[k]) || (v[i] && v[k] &&
			    !strcmp(v[i], v[k]));
		if (seen)
			continue;
		fprintf(m, "%s%s in", first ? "" : "; ", !v[k] ?
		    "not recorded" : !*v[k] ? "(empty)" : v[k]);
		first = 0;
		for (i = k; i < s->nk; i++)
			if ((!v[i] && !v[k]) || (v[i] && v[k] &&
			    !strcmp(v[i], v[k])))
				fprintf(m, "%s %s", nin++ ? "," : "",
				    s->k[i].label);
	}
	for (k = 0; k < s->nk; k++)
		free(v[k]);
	free(v);
}

char *
setup_setting_value(const struct rl_set *s, const struct rl_mdiff *d,
    int k)
{
	if (!d->val[k])
		return NULL;
	return strcmp(d->key, "cmdline") ? vb_xstrdup(d->val[k]) :
	    uncommon_words(s, d, k);
}

static const char *
key_title(const struct rl_mdiff *d)
{
	return strcmp(d->key, "cmdline") ? d->key :
	    "cmdline (words not in every folder)";
}

const char *
setup_accel(const struct rl_set *s)
{
	const char *a;
	int k;

	for (k = 0; k < s->nk; k++)
		if ((a = rl_meta(&s->k[k], "accel")) && !strcmp(a, "tcg"))
			return "emulated (TCG): compare only with other TCG "
			    "runs";
	return NULL;
}

/* The accelerator's warning line, with the folders that were emulated. */
static void
accel_line(FILE *f, const struct rl_set *s, int width)
{
	struct vb_buf b = VB_BUF_INIT;
	const char *a;
	int k, n = 0;

	if (!setup_accel(s))
		return;
	vb_buf_printf(&b, "warning: %s (accel=tcg:", setup_accel(s));
	for (k = 0; k < s->nk; k++)
		if ((a = rl_meta(&s->k[k], "accel")) && !strcmp(a, "tcg"))
			vb_buf_printf(&b, "%s %s", n++ ? "," : "",
			    s->k[k].label);
	vb_buf_printf(&b, ")");
	fmt_wrap(f, vb_buf_str(&b), width, 4);
	vb_buf_free(&b);
}

void
setup_settings(FILE *f, const struct rl_set *s, int width)
{
	struct rl_mdiff *d;
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int n, i;

	if (s->nk < 2) {
		accel_line(f, s, width);
		return;
	}
	n = rl_meta_diffs(s, &d);
	if (!n) {
		fprintf(f, "Settings: the same in every folder\n");
		rl_free_mdiffs(d, n);
		setup_machines(f, s, width);
		accel_line(f, s, width);
		return;
	}
	fprintf(f, "Settings that differ between the folders:\n");
	for (i = 0; i < n; i++) {
		if (!(m = open_memstream(&text, &len)))
			die_errno("cannot build the settings");
		fprintf(m, "%s: ", key_title(&d[i]));
		put_values(m, s, &d[i]);
		if (fclose(m) != 0)
			die_errno("cannot build the settings");
		fputs("  ", f);
		fmt_wrap(f, text, width - 2, 6);
		free(text);
		text = NULL;
	}
	rl_free_mdiffs(d, n);
	setup_machines(f, s, width);
	accel_line(f, s, width);
}

/*
 * One line for a chart's title: each key with its values while they
 * fit in @len, then the keys alone, cut with "..." when even those do
 * not fit.
 */
char *
setup_settings_line(char *buf, size_t len, const struct rl_set *s)
{
	struct rl_mdiff *d;
	char *vals = NULL;
	size_t vlen = 0, used;
	FILE *m;
	int n, i;

	if (!len)
		return buf;
	buf[0] = '\0';
	used = setup_accel(s) ? (size_t)snprintf(buf, len, "%s%s",
	    setup_accel(s), s->nk < 2 ? "" : "; ") : 0;
	if (s->nk < 2 || used >= len)
		return buf;
	n = rl_meta_diffs(s, &d);
	used += (size_t)snprintf(buf + used, len - used, "%s", n ?
	    "settings differ:" : "settings: the same in every folder");
	for (i = 0; i < n && used < len; i++) {
		if (!(m = open_memstream(&vals, &vlen)))
			die_errno("cannot build the settings");
		fprintf(m, "%s %s (", i ? "," : "", d[i].key);
		put_values(m, s, &d[i]);
		fputc(')', m);
		if (fclose(m) != 0)
			die_errno("cannot build the settings");
		if (used + vlen < len)
			used += (size_t)snprintf(buf + used, len - used, "%s",
			    vals);
		else
			used += (size_t)snprintf(buf + used, len - used,
			    "%s %s", i ? "," : "", d[i].key);
		free(vals);
		vals = NULL;
	}
	if (used >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	rl_free_mdiffs(d, n);
	return buf;
}

/* ---- how quiet the machine was ---- */

/*
 * The memory figures of @r into @q (struct setup_quiet), mem_quiet
 * against the default threshold (setup_mem_of(): the option's).
 */
static void
mem_of(const struct vb_res *r, struct setup_quiet *q)
{
	double sum = 0, kb = 0;
	int f, t, a, i;

	q->mem_n = 0;
	q->mem_mean = q->mem_max = q->mem_kb = q->avail_min_kb = NAN;
	q->mem_quiet = -1;
	if (!r || (f = vb_res_metric_index(r, "foreign_mem_kb")) < 0 ||
	    (t = vb_res_metric_index(r, "mem_total_kb")) < 0)
		return;
	a = vb_res_metric_index(r, "mem_avail_min_kb");
	for (i = 0; i < r->niter; i++) {
		double x = vb_res_get(r, i, f), tot = vb_res_get(r, i, t);

		if (a >= 0 && !isnan(vb_res_get(r, i, a)) &&
		    !(vb_res_get(r, i, a) >= q->avail_min_kb))
			q->avail_min_kb = vb_res_get(r, i, a);
		if (isnan(x) || !(tot > 0))
			continue;
		x = 100 * x / tot;
		if (!q->mem_n || x > q->mem_max)
			q->mem_max = x;
		sum += x;
		kb += vb_res_get(r, i, f);
		q->mem_n++;
	}
	if (!q->mem_n)
		return;
	q->mem_mean = sum / q->mem_n;
	q->mem_kb = kb / q->mem_n;
	q->mem_quiet = !(q->mem_mean > SETUP_MEM_THRESHOLD);
}

void
setup_quiet_of(const struct vb_res *r, double threshold,
    struct setup_quiet *q)
{
	struct rs_desc d;
	int m;

	q->n = 0;
	q->mean = q->max = NAN;
	q->quiet = -1;
	mem_of(r, q);
	if (!r || (m = vb_res_metric_index(r, "foreign_cpu")) < 0)
		return;
	rs_describe(r->vals + m, r->niter, r->nmetrics, &d);
	if (!d.n)
		return;
	q->n = d.n;
	q->mean = d.mean;
	q->max = d.max;
	q->quiet = !(d.mean > threshold);
}

void
setup_mem_of(const struct vb_res *r, const struct report_opts *o,
    struct setup_quiet *q)
{
	setup_quiet_of(r, o->quiet, q);
	if (q->mem_n)
		q->mem_quiet = !(q->mem_mean > o->mem_quiet);
}

/* GiB with one decimal: "14.0 GiB". */
static char *
gib(char *buf, size_t len, double kb)
{
	snprintf(buf, len, "%.1f GiB", kb / 1048576);
	return buf;
}

/* A share of the memory: whole percent, tenths below 10%. */
static char *
mem_pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.*f%%", fabs(v) < 10 ? 1 : 0, v);
	return buf;
}

void
setup_mem_line(FILE *f, const struct rl_set *s, const char *id,
    const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	struct setup_quiet q;
	char a[32], b[32];
	int k, n = 0;

	for (k = 0; k < s->nk; k++) {
		setup_mem_of(rl_find(&s->k[k], id), o, &q);
		if (q.mem_quiet != 0)
			continue;
		vb_buf_printf(&line, "%s %s (%s) in %s", n++ ? "," :
		    "! memory held by others (mean at an iteration's start):",
		    gib(a, sizeof(a), q.mem_kb), mem_pct(b, sizeof(b),
		    q.mem_mean), s->k[k].label);
	}
	if (n)
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
}

/* A share of a CPU: tenths below 10%, so 5.4 is not shown as 5. */
static char *
cpu_pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.*f%%", fabs(v) < 10 ? 1 : 0, v);
	return buf;
}

/* The mean of @metric over @r's iterations; NAN when it has none. */
static double
res_mean(const struct vb_res *r, const char *metric)
{
	double sum = 0;
	int m = vb_res_metric_index(r, metric), i, n = 0;

	for (i = 0; m >= 0 && i < r->niter; i++)
		if (!isnan(vb_res_get(r, i, m))) {
			sum += vb_res_get(r, i, m);
			n++;
		}
	return n ? sum / n : NAN;
}

int
setup_others_moved(const struct vb_res *r, const char *metric,
    double threshold)
{
	struct setup_quiet q;
	char cg[128];
	double v, own;

	if (!r || !(fabs(v = res_mean(r, metric)) > 0))
		return 0;
	snprintf(cg, sizeof(cg), "cg_%s", metric);
	own = res_mean(r, cg);
	if (!isnan(own) && own < v)
		return 1;
	setup_quiet_of(r, threshold, &q);
	return q.quiet == 0;
}

void
setup_others_note(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *rows, int nrows, const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	int j, k, n = 0, moved, had;

	for (j = 0; j < nrows; j++) {
		const char *nm = rows[j].name;

		if (rows[j].scope != MODEL_SYSTEM || !strcmp(nm, "runq") ||
		    !strncmp(nm, "foreign_", 8) || !strncmp(nm, "mem_", 4))
			continue;
		for (k = moved = had = 0; k < s->nk; k++) {
			had += rl_find(&s->k[k], id) != NULL;
			moved += setup_others_moved(rl_find(&s->k[k], id), nm,
			    o->quiet);
		}
		if (!moved)
			continue;
		vb_buf_printf(&line, "%s %s", n++ ? "," : "[system] counters "
		    "other processes moved too:", nm);
		if (moved == had)
			continue;
		for (k = moved = 0; k < s->nk; k++)
			if (setup_others_moved(rl_find(&s->k[k], id), nm,
			    o->quiet))
				vb_buf_printf(&line, "%s%s", moved++ ? ", " :
				    " (", s->k[k].label);
		vb_buf_printf(&line, ")");
	}
	if (n)
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
}

int
setup_quiet_warn(FILE *f, const struct rl_set *s, const char *id,
    const struct report_opts *o)
{
	struct setup_quiet q;
	char line[1024], a[32], b[32], c[32];
	int k, n = 0;

	for (k = 0; k < s->nk; k++) {
		setup_mem_of(rl_find(&s->k[k], id), o, &q);
		if (q.mem_quiet == 0) {
			snprintf(line, sizeof(line), "warning: %s on %s: "
			    "other processes held %s of the memory, %s of "
			    "MemTotal (mean at an iteration's start over %d "
			    "iteration%s, highest %s", id, s->k[k].label,
			    gib(a, sizeof(a), q.mem_kb), mem_pct(b,
			    sizeof(b), q.mem_mean), q.mem_n, q.mem_n == 1 ?
			    "" : "s", mem_pct(c, sizeof(c), q.mem_max));
			if (!isnan(q.avail_min_kb))
				snprintf(line + strlen(line), sizeof(line) -
				    strlen(line), "; lowest MemAvailable %s",
				    gib(a, sizeof(a), q.avail_min_kb));
			snprintf(line + strlen(line), sizeof(line) -
			    strlen(line), "; threshold %g%%)", o->mem_quiet);
			fmt_wrap(f, line, o->width, 4);
			n++;
		}
		if (q.quiet != 0)
			continue;
		snprintf(line, sizeof(line), "warning: %s on %s: the machine "
		    "was not quiet: other processes used %s of a CPU (mean "
		    "over %d iteration%s, highest %s; threshold %g%%)", id,
		    s->k[k].label, cpu_pct(a, sizeof(a), q.mean), q.n,
		    q.n == 1 ? "" : "s", cpu_pct(b, sizeof(b), q.max),
		    o->quiet);
		fmt_wrap(f, line, o->width, 4);
		n++;
	}
	return n;
}

/* The quiet figures over every benchmark run of every folder. */
struct quiet_scan {
	int runs;			/* results */
	int rec;			/* of those, with foreign_cpu */
	int loud;			/* of those, not quiet */
	double lo, hi;			/* their lowest and highest mean */
	int mem_rec, mem_loud;		/* the same of the memory */
	double mem_hi;			/* its highest mean, % */
};

/*
 * Every benchmark's every run (model_run_loads(): a run of a label, an
 * iteration of make ab's), each its own mean over its iterations.
 */
static void
quiet_scan(const struct rl_set *s, const struct report_opts *o,
    struct quiet_scan *qs)
{
	struct model_runload l;
	int i, k, r;

	qs->runs = qs->rec = qs->loud = 0;
	qs->mem_rec = qs->mem_loud = 0;
	qs->mem_hi = -INFINITY;
	qs->lo = INFINITY;
	qs->hi = -INFINITY;
	for (i = 0; i < s->nids; i++)
		for (k = 0; k < s->nk; k++) {
			model_run_loads(&s->k[k], s->ids[i], &l);
			for (r = 0; r < l.n; r++) {
				qs->runs++;
				if (!isnan(l.mem[r])) {
					qs->mem_rec++;
					qs->mem_loud += l.mem[r] >
					    o->mem_quiet;
					qs->mem_hi = fmax(qs->mem_hi,
					    l.mem[r]);
				}
				if (isnan(l.cpu[r]))
					continue;
				qs->rec++;
				qs->loud += l.cpu[r] > o->quiet;
				qs->lo = fmin(qs->lo, l.cpu[r]);
				qs->hi = fmax(qs->hi, l.cpu[r]);
			}
			model_runload_free(&l);
		}
}

/*
 * The memory others held over every run, when some recorded it: one
 * line, a warning when some run is above the threshold.
 */
static void
mem_summary(FILE *f, const struct quiet_scan *qs,
    const struct report_opts *o)
{
	char line[512], a[32];

	if (!qs->mem_rec)
		return;
	if (!qs->mem_loud)
		snprintf(line, sizeof(line), "Memory: other processes held "
		    "at most %s of it (mean at an iteration's start over a "
		    "run; threshold %g%%)%s", mem_pct(a, sizeof(a),
		    fmax(qs->mem_hi, 0)), o->mem_quiet, qs->mem_rec <
		    qs->runs ? "; not recorded for every run" : "");
	else
		snprintf(line, sizeof(line), "warning: other processes held "
		    "more than %g%% of the memory in %d of %d benchmark "
		    "run%s (see the warnings below): what a benchmark sized "
		    "from memory gets, and when reclaim starts, depend on "
		    "it%s", o->mem_quiet, qs->mem_loud, qs->runs,
		    qs->runs == 1 ? "" : "s", qs->mem_rec < qs->runs ?
		    "; not recorded for every run" : "");
	fmt_wrap(f, line, o->width, 4);
}

void
setup_quiet_summary(FILE *f, const struct rl_set *s,
    const struct report_opts *o)
{
	struct quiet_scan qs;
	char line[512], a[32];

	quiet_scan(s, o, &qs);
	/* counted over the runs that recorded it, as the other views do */
	if (!qs.rec)
		snprintf(line, sizeof(line), "Machine load: not recorded "
		    "(these folders have no foreign_cpu figures)");
	else if (!qs.loud)
		snprintf(line, sizeof(line), "Machine load: quiet; other "
		    "processes used at most %s of a CPU (mean over a run's "
		    "iterations; threshold %g%%)%s", cpu_pct(a, sizeof(a),
		    fmax(qs.hi, 0)), o->quiet, qs.rec < qs.runs ? "; not "
		    "recorded for every run" : "");
	else
		snprintf(line, sizeof(line), "warning: the machine was not "
		    "quiet in %d of %s%d benchmark run%s%s: other processes "
		    "used more than %g%% of a CPU (see the warnings below)",
		    qs.loud, qs.rec < qs.runs ? "the " : "", qs.rec,
		    qs.rec == 1 ? "" : "s", qs.rec < qs.runs ? " that "
		    "recorded it" : "", o->quiet);
	fmt_wrap(f, line, o->width, 4);
	mem_summary(f, &qs, o);
}

int
setup_all_loaded(FILE *f, const struct rl_set *s,
    const struct report_opts *o, const char *more)
{
	struct quiet_scan qs;
	char line[512], a[32], b[32];

	quiet_scan(s, o, &qs);
	if (!qs.rec || qs.loud < qs.rec)
		return 0;
	snprintf(line, sizeof(line), "warning: the machine was not quiet in "
	    "%s%d benchmark run%s%s: other processes used %s to %s of a CPU "
	    "(a run's mean; threshold %g%%; %s)", qs.rec == 1 ? "its " :
	    "all ", qs.rec, qs.rec == 1 ? "" : "s", qs.rec < qs.runs ?
	    " that recorded it" : "", cpu_pct(a, sizeof(a), qs.lo),
	    cpu_pct(b, sizeof(b), qs.hi), o->quiet, more);
	fmt_wrap(f, line, o->width, 4);
	mem_summary(f, &qs, o);
	return 1;
}

/*
 * The default view's one warning when some, not all, benchmark runs
 * were not quiet: the range of those runs' means and which benchmarks
 * they were, in place of a line under each (--detail has those); the
 * memory line after it.  1 when it wrote, 0 when every run was quiet,
 * every run was loud (setup_all_loaded()) or none recorded it.
 */
int
setup_some_loaded(FILE *f, const struct rl_set *s,
    const struct report_opts *o, const char *more)
{
	struct vb_buf line = VB_BUF_INIT, ids = VB_BUF_INIT;
	struct quiet_scan qs;
	struct model_runload l;
	double lo = INFINITY, hi = -INFINITY;
	char a[32], b[32];
	int i, k, r, n = 0, loud;

	quiet_scan(s, o, &qs);
	if (!qs.rec || !qs.loud || qs.loud == qs.rec)
		return 0;
	/* the loud runs' range, and the benchmarks with one */
	for (i = 0; i < s->nids; i++) {
		for (k = 0, loud = 0; k < s->nk; k++) {
			model_run_loads(&s->k[k], s->ids[i], &l);
			for (r = 0; r < l.n; r++) {
				if (!(l.cpu[r] > o->quiet))
					continue;
				loud = 1;
				lo = fmin(lo, l.cpu[r]);
				hi = fmax(hi, l.cpu[r]);
			}
			model_runload_free(&l);
		}
		if (loud)
			vb_buf_printf(&ids, "%s %s", n++ ? "," : "", s->ids[i]);
	}
	cpu_pct(a, sizeof(a), lo);
	cpu_pct(b, sizeof(b), hi);
	vb_buf_printf(&line, "warning: the machine was not quiet in %d of %d "
	    "benchmark runs: other processes used %s%s%s of a CPU (a run's "
	    "mean; threshold %g%%; %s) in%s", qs.loud, qs.rec, a,
	    strcmp(a, b) ? " to " : "", strcmp(a, b) ? b : "", o->quiet,
	    more, vb_buf_str(&ids));
	vb_buf_free(&ids);
	if (qs.rec < qs.runs)
		vb_buf_printf(&line, "; not recorded for every run");
	fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
	mem_summary(f, &qs, o);
	return 1;
}

/* ---- the load of each run ---- */

/* Add @r's foreign_cpu of iterations @i0 to @i1 to *@sum, *@n. */
static void
add_cpu(const struct vb_res *r, int i0, int i1, double *sum, int *n)
{
	int c = vb_res_metric_index(r, "foreign_cpu"), i;

	for (i = i0; c >= 0 && i < i1 && i < r->niter; i++)
		if (!isnan(vb_res_get(r, i, c))) {
			*sum += vb_res_get(r, i, c);
			(*n)++;
		}
}

/*
 * The runs of folder @k: a label's runs (a one-run folder: one); a side
 * of make ab's, every iteration of every benchmark, each a separate
 * run of its program.
 */
static int
label_runs(const struct rl_kernel *k)
{
	int j, n = 0;

	if (!k->iter_is_run)
		return k->nruns > 0 ? k->nruns : 1;
	for (j = 0; j < k->nres; j++)
		n += k->res[j].niter;
	return n ? n : 1;
}

/*
 * The load of each run of folder @k (label_runs()): a label's run, the
 * mean foreign_cpu over all its iterations of every benchmark in it.
 * Into @cpu (NAN: not recorded), room label_runs(@k); returns how many.
 */
static int
label_run_loads(const struct rl_kernel *k, double *cpu)
{
	int i, j, n = 0, c;
	double sum;

	if (k->iter_is_run) {
		for (j = 0; j < k->nres; j++)
			for (i = 0; i < k->res[j].niter; i++) {
				sum = 0;
				c = 0;
				add_cpu(&k->res[j], i, i + 1, &sum, &c);
				cpu[n++] = c ? sum / c : NAN;
			}
		return n;
	}
	for (i = 0; i < label_runs(k); i++) {
		sum = 0;
		c = 0;
		for (j = 0; i < k->nruns && j < k->runs[i].nres; j++)
			add_cpu(&k->runs[i].res[j], 0, INT_MAX, &sum, &c);
		cpu[n++] = c ? sum / c : NAN;
	}
	return n;
}

/* "146%" or "146-174%" for the range @lo to @hi. */
static char *
cpu_range(char *buf, size_t len, double lo, double hi)
{
	char a[32], b[32];

	cpu_pct(a, sizeof(a), lo);
	cpu_pct(b, sizeof(b), hi);
	if (!strcmp(a, b))
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%.*s-%s", (int)strlen(a) - 1, a, b);
	return buf;
}

void
setup_loud_runs(FILE *f, const struct rl_set *s, const struct report_opts *o)
{
	struct vb_buf line = VB_BUF_INIT;
	char r[64];
	double *cpu, lo, hi;
	int k, i, n, rec, loud, said = 0;

	for (k = 0; k < s->nk; k++) {
		cpu = vb_xcalloc((size_t)label_runs(&s->k[k]),
		    sizeof(double));
		n = label_run_loads(&s->k[k], cpu);
		lo = INFINITY;
		hi = -INFINITY;
		for (i = rec = loud = 0; i < n; i++) {
			if (isnan(cpu[i]))
				continue;
			rec++;
			if (!(cpu[i] > o->quiet))
				continue;
			loud++;
			lo = fmin(lo, cpu[i]);
			hi = fmax(hi, cpu[i]);
		}
		free(cpu);
		if (!loud)
			continue;
		vb_buf_printf(&line, "%s%s: %d of %d %s%s, %s%s", said ? "; " :
		    "", s->k[k].label, loud, rec, s->k[k].iter_is_run ?
		    "benchmark runs" : "runs", said ? "" : " loud",
		    cpu_range(r, sizeof(r), lo, hi), said ? "" :
		    " of a CPU");
		said++;
	}
	if (said) {
		vb_buf_printf(&line, " (loud: other processes used more than "
		    "%g%% of a CPU, a run's mean over all its iterations)",
		    o->quiet);
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	}
	vb_buf_free(&line);
}

/* What the load of kind @d is: "CPU", "memory", "CPU and memory". */
static const char *
load_kind(int d)
{
	return d == (MODEL_LOAD_CPU | MODEL_LOAD_MEM) ? "CPU and memory" :
	    d == MODEL_LOAD_MEM ? "memory" : "CPU";
}

/*
 * "aa1 146-174%, aa3 33-95% of a CPU" for the sides of @c (the runs'
 * loads), the memory's when @d is MODEL_LOAD_MEM alone.
 */
static void
sides_words(struct vb_buf *b, const struct rl_set *s, int k,
    const struct model_loadcmp *c, int d)
{
	char x[64], y[64];

	if (d & MODEL_LOAD_CPU) {
		vb_buf_printf(b, "%s %s, %s %s of a CPU", s->k[0].label,
		    cpu_range(x, sizeof(x), c->lo[0], c->hi[0]),
		    s->k[k].label, cpu_range(y, sizeof(y), c->lo[1],
		    c->hi[1]));
		if (!(d & MODEL_LOAD_MEM))
			return;
		vb_buf_printf(b, "; ");
	}
	vb_buf_printf(b, "%s %s, %s %s of the memory", s->k[0].label,
	    cpu_range(x, sizeof(x), c->mem_lo[0], c->mem_hi[0]),
	    s->k[k].label, cpu_range(y, sizeof(y), c->mem_lo[1],
	    c->mem_hi[1]));
}

int
setup_load_differs(FILE *f, const struct model *m,
    const struct report_opts *o)
{
	const struct rl_set *s = m->s;
	struct vb_buf line = VB_BUF_INIT, ids = VB_BUF_INIT;
	struct model_loadcmp c, all;
	int k, i, n, d, said = 0;

	for (k = 1; k < s->nk; k++) {
		memset(&all, 0, sizeof(all));
		all.lo[0] = all.lo[1] = all.mem_lo[0] = all.mem_lo[1] =
		    INFINITY;
		all.hi[0] = all.hi[1] = all.mem_hi[0] = all.mem_hi[1] =
		    -INFINITY;
		for (i = n = d = 0; i < s->nids; i++) {
			int x;

			if (!model_load_cmp(m, s->ids[i], k, &c))
				continue;
			d |= c.differs;
			vb_buf_printf(&ids, "%s %s", n++ ? "," : "",
			    s->ids[i]);
			for (x = 0; x < 2; x++) {
				all.lo[x] = fmin(all.lo[x], c.lo[x]);
				all.hi[x] = fmax(all.hi[x], c.hi[x]);
				all.mem_lo[x] = fmin(all.mem_lo[x],
				    c.mem_lo[x]);
				all.mem_hi[x] = fmax(all.mem_hi[x],
				    c.mem_hi[x]);
			}
		}
		if (!n)
			continue;
		vb_buf_printf(&line, "warning: %s and %s ran under different "
		    "loads (other processes' %s, the runs' means: ",
		    s->k[k].label, s->k[0].label, load_kind(d));
		sides_words(&line, s, k, &all, d);
		vb_buf_printf(&line, ") in%s: their %s figures read can't "
		    "tell, whatever the test (docs/report.md)",
		    vb_buf_str(&ids), d & MODEL_LOAD_MEM ? "time, rate and "
		    "machine-counter" : "time and rate");
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
		vb_buf_free(&line);
		vb_buf_free(&ids);
		said++;
	}
	return said;
}

void
setup_run_load_lines(FILE *f, const struct model *m, const char *id,
    const struct report_opts *o)
{
	const struct rl_set *s = m->s;
	struct vb_buf line = VB_BUF_INIT;
	struct model_runload l;
	struct model_loadcmp c;
	char a[32];
	int k, r, rec = 0, mem = 0;

	vb_buf_printf(&line, "load by run (other processes' CPU, %% of a "
	    "CPU, a run's mean over its iterations):");
	for (k = 0; k < s->nk; k++) {
		model_run_loads(&s->k[k], id, &l);
		vb_buf_printf(&line, "%s %s", k ? ";" : "", s->k[k].label);
		for (r = 0; r < l.n; r++) {
			vb_buf_printf(&line, "%s %s %d %s", r ? "," : "",
			    l.iter ? "iteration" : "run", l.index[r],
			    isnan(l.cpu[r]) ? "-" : cpu_pct(a, sizeof(a),
			    l.cpu[r]));
			rec += !isnan(l.cpu[r]);
			mem += !isnan(l.mem[r]) && l.mem[r] > o->mem_quiet;
		}
		if (!l.n)
			vb_buf_printf(&line, " no run");
		model_runload_free(&l);
	}
	if (rec)
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
	vb_buf_free(&line);
	if (mem) {
		vb_buf_printf(&line, "memory held by others by run (%% of "
		    "MemTotal, a run's mean at its iterations' start):");
		for (k = 0; k < s->nk; k++) {
			model_run_loads(&s->k[k], id, &l);
			vb_buf_printf(&line, "%s %s", k ? ";" : "",
			    s->k[k].label);
			for (r = 0; r < l.n; r++)
				vb_buf_printf(&line, "%s %s %d %s", r ? "," :
				    "", l.iter ? "iteration" : "run",
				    l.index[r], isnan(l.mem[r]) ? "-" :
				    mem_pct(a, sizeof(a), l.mem[r]));
			model_runload_free(&l);
		}
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
		vb_buf_free(&line);
	}
	for (k = 1; k < s->nk; k++) {
		if (!model_load_cmp(m, id, k, &c))
			continue;
		vb_buf_printf(&line, "! %s and %s ran under different loads "
		    "(other processes' %s: ", s->k[k].label, s->k[0].label,
		    load_kind(c.differs));
		sides_words(&line, s, k, &c, c.differs);
		vb_buf_printf(&line, "): %s's %s figures read can't tell",
		    s->k[k].label, c.differs & MODEL_LOAD_MEM ? "time, rate "
		    "and machine-counter" : "time and rate");
		fmt_wrap(f, vb_buf_str(&line), o->width, 4);
		vb_buf_free(&line);
	}
}

/* ---- which machine ---- */

/*
 * Do kernels @a and @b come from the same machine?  The same host
 * name, CPU model and count, and MemTotal within 2% (each kernel keeps
 * a slightly different share of the same RAM for itself; a mem= boot
 * limit is another machine for the figures).  A fact recorded in one
 * folder and not in the other differs.
 */
static int
same_machine(const struct rl_kernel *a, const struct rl_kernel *b)
{
	static const char *const keys[] = { "hostname", "cpu_model",
		"cpu_count" };
	const char *x, *y;
	double ma, mb;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		x = rl_meta(a, keys[i]);
		y = rl_meta(b, keys[i]);
		if (!x != !y || (x && strcmp(x, y)))
			return 0;
	}
	x = rl_meta(a, "mem_total_kb");
	y = rl_meta(b, "mem_total_kb");
	if (!x != !y)
		return 0;
	if (!x)
		return 1;
	ma = strtod(x, NULL);
	mb = strtod(y, NULL);
	return fabs(ma - mb) <= 0.02 * fmax(fabs(ma), fabs(mb));
}

void
setup_machines_of(const struct rl_set *s, struct setup_machines *m)
{
	int k, j;

	m->n = 0;
	m->of = vb_xcalloc((size_t)s->nk + 1, sizeof(int));
	m->first = vb_xcalloc((size_t)s->nk + 1, sizeof(int));
	for (k = 0; k < s->nk; k++) {
		for (j = 0; j < m->n; j++)
			if (same_machine(&s->k[m->first[j]], &s->k[k]))
				break;
		if (j == m->n)
			m->first[m->n++] = k;
		m->of[k] = j;
	}
}

void
setup_machines_free(struct setup_machines *m)
{
	free(m->of);
	free(m->first);
	m->of = m->first = NULL;
}

char *
setup_machine_name(char *buf, size_t len, const struct rl_kernel *k)
{
	const char *host = rl_meta(k, "hostname");
	const char *cpu = rl_meta(k, "cpu_model");
	const char *ncpu = rl_meta(k, "cpu_count");
	const char *mem = rl_meta(k, "mem_total_kb");

	snprintf(buf, len, "%s, %s x %s, ", host ? host : "unknown host",
	    cpu ? cpu : "unknown CPU", ncpu ? ncpu : "?");
	if (mem)
		snprintf(buf + strlen(buf), len - strlen(buf), "%.1f GiB RAM",
		    strtod(mem, NULL) / 1048576);
	else
		snprintf(buf + strlen(buf), len - strlen(buf),
		    "RAM not recorded");
	return buf;
}

void
setup_machines(FILE *f, const struct rl_set *s, int width)
{
	struct setup_machines m;
	struct vb_buf line = VB_BUF_INIT;
	char name[512];
	int j, k, nin;

	setup_machines_of(s, &m);
	if (m.n < 2) {
		setup_machines_free(&m);
		return;
	}
	fprintf(f, "Machines (from meta: host, CPU, memory):\n");
	for (j = 0; j < m.n; j++) {
		vb_buf_printf(&line, "m%d %s:", j + 1, setup_machine_name(name,
		    sizeof(name), &s->k[m.first[j]]));
		for (k = nin = 0; k < s->nk; k++)
			if (m.of[k] == j)
				vb_buf_printf(&line, "%s %s", nin++ ? "," : "",
				    s->k[k].label);
		fputs("  ", f);
		fmt_wrap(f, vb_buf_str(&line), width - 2, 6);
		vb_buf_free(&line);
	}
	vb_buf_printf(&line, "warning: these folders come from %d machines: "
	    "a difference between folders of two machines may be the "
	    "machine's, not the kernel's", m.n);
	fmt_wrap(f, vb_buf_str(&line), width, 4);
	vb_buf_free(&line);
	setup_machines_free(&m);
}
