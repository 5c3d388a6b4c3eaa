/*
 * rpost.c - the mail-ready post (make post) in the manner of the 2002
 * posts, and the `vmstat 1` dump of a benchmark's sampled series.
 *
 * The post: a header naming the kernels and the machine (from meta),
 * then per test its command, the tcsh time(1) line per kernel with the
 * swap totals under it, the benchmark's own form (contest's table for
 * makesim, the n-by-kernel table for tworead, "played X of Y seconds"
 * for the probe, a bar chart of the headline figure), and a short
 * comparison table; blank lines between sections, under 80 columns.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "report.h"
#include "util.h"
#include "clock.h"

/* ---- the vmstat dump ---- */

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
	char num[32];
	int rows = 0, lineno = 0, n, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.vmstat", k->dir, id);
	if (!(f = fopen(path, "r")))
		return -1;
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
			    rt_num(num, sizeof(num), "%.0f", v[i]));
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
rt_vmstat(FILE *f, const struct rl_set *s, const char *id, int iter)
{
	int k, found = 0;

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

/* ---- helpers ---- */


/* Mean of metric @name over the iterations of @r; NAN when absent. */
double
rt_metric_mean(const struct vb_res *r, const char *name)
{
	struct rs_desc d;
	int m;

	if (!r || (m = vb_res_metric_index(r, name)) < 0)
		return NAN;
	rs_describe(r->vals + m, r->niter, r->nmetrics, &d);
	return d.n ? d.mean : NAN;
}

static const char *
bench_of(const char *id, char *buf, size_t len)
{
	const char *at = strchr(id, '@');

	snprintf(buf, len, "%.*s", at ? (int)(at - id) : (int)strlen(id), id);
	return buf;
}

static const char *
variant_of(const char *id)
{
	const char *at = strchr(id, '@');

	return at ? at + 1 : "default";
}

static const struct vb_res *
any_res(const struct rl_set *s, const char *id)
{
	const struct vb_res *r;
	int k;

	for (k = 0; k < s->nk; k++)
		if ((r = rl_find(&s->k[k], id)))
			return r;
	return NULL;
}

static int
label_width(const struct rl_set *s, int min)
{
	int k, w = min;

	for (k = 0; k < s->nk; k++)
		if ((int)strlen(s->k[k].label) + 2 > w)
			w = (int)strlen(s->k[k].label) + 2;
	return w > 24 ? 24 : w;
}

/* ---- the post's forms ---- */

/*
 * The memory cgroup's own swap figures (MEM= runs), under the machine's:
 * swapped out and in (cgroup v2 counts them), else the cgroup's peak
 * of memory + swap (v1).  Printed when the cgroup swapped or the
 * machine did (@shown): a cgroup that swapped nothing while the machine
 * swapped is worth a line.
 */
static void
cgroup_swap_lines(FILE *f, const struct vb_res *r, int w, int shown)
{
	double co = rt_metric_mean(r, "cg_pswpout");
	double ci = rt_metric_mean(r, "cg_pswpin");
	double pk = rt_metric_mean(r, "cg_swap_peak_kb");
	const char *what = "Cgroup swap peak during test";
	char a[32], b[32];

	if (isnan(pk)) {
		pk = rt_metric_mean(r, "cg_memsw_peak_kb");
		what = "Cgroup memory+swap peak";
	}
	if (!isnan(co) && (shown || co > 0 || ci > 0))
		fprintf(f, "%*sCgroup swapouts during test       = %s kB "
		    "(memory cgroup)\n%*sCgroup swapins during test        = "
		    "%s kB (memory cgroup)\n", w, "", rt_num(a, sizeof(a),
		    "%.0f", co), w, "", rt_num(b, sizeof(b), "%.0f",
		    isnan(ci) ? 0 : ci));
	else if (!isnan(pk) && (shown || pk > 0))
		fprintf(f, "%*s%-33s = %s kB (memory cgroup)\n", w, "",
		    what, rt_num(a, sizeof(a), "%.0f", pk));
}

/*
 * tcsh's time(1) line (src/lib/rusage.c's vb_rusage_tcsh()) from the means
 * of a result's metrics, "-" for a figure the result lacks:
 *	193.260u 17.540s 3:49.86 93.5% 0+0k 0+0io 223130pf+0w
 */
static char *
tcsh_line(char *buf, size_t len, double el, double user, double sys,
    double majflt, double inb, double oub)
{
	char u[32], s[32], hms[32], cpu[32], in[32], out[32], pf[32];

	rt_num(u, sizeof(u), "%.3f", user);
	rt_num(s, sizeof(s), "%.3f", sys);
	vb_fmt_hms(hms, sizeof(hms), el);
	rt_num(cpu, sizeof(cpu), "%.1f", el > 0 ? (user + sys) / el * 100 :
	    NAN);
	/* whole counts rounded half away from zero, as lround() */
	rt_num(in, sizeof(in), "%.0f", round(inb));
	rt_num(out, sizeof(out), "%.0f", round(oub));
	rt_num(pf, sizeof(pf), "%.0f", round(majflt));
	snprintf(buf, len, "%su %ss %s %s%% 0+0k %s+%sio %spf+0w", u, s, hms,
	    cpu, in, out, pf);
	return buf;
}

/*
 * tcsh time(1) line of the mean run, and the swap totals under it:
 *	2.5.23:   193.260u 17.540s 3:49.86 93.5%  0+0k 0+0io 223130pf+0w
 *	          Total kernel swapouts during test = 143992 kB
 */
static void
time_lines(FILE *f, const struct rl_set *s, const char *id)
{
	char buf[512], a[32], b[32];
	int k, w = label_width(s, 10);

	for (k = 0; k < s->nk; k++) {
		const struct vb_res *r = rl_find(&s->k[k], id);
		double si, so;
		int m, shown;

		snprintf(buf, sizeof(buf), "%s:", s->k[k].label);
		fprintf(f, "%-*s", w, buf);
		if (!r || isnan(rt_metric_mean(r, "elapsed"))) {
			fprintf(f, "%s\n", r ? "(no time figures)" : "missing");
			continue;
		}
		/* makesim: the build's own figures, as `time make` */
		m = vb_res_metric_index(r, "build_time") >= 0;
		tcsh_line(buf, sizeof(buf),
		    rt_metric_mean(r, m ? "build_time" : "elapsed"),
		    rt_metric_mean(r, m ? "build_user" : "user"),
		    rt_metric_mean(r, m ? "build_sys" : "sys"),
		    rt_metric_mean(r, m ? "build_majflt" : "majflt"),
		    rt_metric_mean(r, "inblock"), rt_metric_mean(r, "oublock"));
		fprintf(f, "%s\n", buf);
		si = rt_metric_mean(r, "pswpin");
		so = rt_metric_mean(r, "pswpout");
		shown = !isnan(so) && (so > 0 || si > 0);
		if (shown)
			fprintf(f, "%*sTotal kernel swapouts during test = "
			    "%s kB (system-wide)\n%*sTotal kernel swapins "
			    "during test  = %s kB (system-wide)\n", w, "",
			    rt_num(a, sizeof(a), "%.0f", so), w, "",
			    rt_num(b, sizeof(b), "%.0f", isnan(si) ? 0 : si));
		cgroup_swap_lines(f, r, w, shown);
	}
}

/* The probe's "played X of Y seconds (Z%)", per kernel. */
int
rt_probe_lines(FILE *f, const struct rl_set *s, const char *id)
{
	static const char *const playn[] = { "played_s", "played", NULL };
	static const char *const runn[] = { "total_s", "run_s", "wanted_s",
		"expected_s", NULL };
	int k, i, w = label_width(s, 10), any = 0;
	char a[32], b[32], c[32];
	const char *fmt;

	for (k = 0; k < s->nk; k++) {
		const struct vb_res *r = rl_find(&s->k[k], id);
		double p = NAN, t = NAN;

		for (i = 0; playn[i] && isnan(p); i++)
			p = rt_metric_mean(r, playn[i]);
		for (i = 0; runn[i] && isnan(t); i++)
			t = rt_metric_mean(r, runn[i]);
		if (!isfinite(p) || !isfinite(t) || t <= 0)
			continue;
		if (!any++)
			fputc('\n', f);
		/* whole seconds as in the post; tenths for short runs */
		fmt = t < 100 ? "%.1f" : "%.0f";
		fprintf(f, "%-*splayed %s of %s seconds (%s%%)\n", w,
		    s->k[k].label, rt_num(a, sizeof(a), fmt, p),
		    rt_num(b, sizeof(b), fmt, t),
		    rt_num(c, sizeof(c), "%.0f", 100 * p / t));
	}
	return any;
}

/* The time figure of a makesim run: its headline when in s, else elapsed. */
static double
build_time(const struct vb_res *r)
{
	int m;

	if (r && r->headline[0] && (m = vb_res_metric_index(r,
	    r->headline)) >= 0 && !strcmp(r->metrics[m].unit, "s"))
		return rt_metric_mean(r, r->headline);
	return rt_metric_mean(r, "elapsed");
}

/* The no_load run of @bench in kernel @k (else the plain one). */
static const struct vb_res *
noload_of(const struct rl_set *s, int k, const char *bench)
{
	char id[NAME_MAX + 16];
	const struct vb_res *r;

	snprintf(id, sizeof(id), "%s@no_load", bench);
	if ((r = rl_find(&s->k[k], id)))
		return r;
	return rl_find(&s->k[k], bench);
}

/*
 * contest's table, one block per load (variant):
 *	Kernel [runs]   Time    CPU%    Loads   LCPU%   Ratio
 * Ratio = time under the load / the same kernel's no_load time.
 */
void
rt_contest_table(FILE *f, const struct rl_set *s, const char *bench)
{
	char b[NAME_MAX + 1], num[6][32];
	int i, k, w = label_width(s, 16), pass;

	/* no_load first, as contest prints it */
	for (pass = 0; pass < 2; pass++)
	for (i = 0; i < s->nids; i++) {
		const char *v = variant_of(s->ids[i]);

		if (strcmp(bench_of(s->ids[i], b, sizeof(b)), bench) ||
		    (!strcmp(v, "no_load") || !strcmp(v, "default")) != !pass)
			continue;
		/*
		 * Only contest's runs: variants named after their load
		 * (makesim@io_load runs with load io_load), not builds
		 * such as makesim@j32 that only carry the default no_load.
		 */
		{
			const struct vb_res *r0 = any_res(s, s->ids[i]);
			const char *load = r0 ? vb_res_param(r0, "load") : NULL;

			if (!load || strcmp(load, v) != 0)
				continue;
		}
		fprintf(f, "%s:\n%-*s %6s %6s %6s %6s %6s\n",
		    variant_of(s->ids[i]), w, "Kernel [runs]", "Time", "CPU%",
		    "Loads", "LCPU%", "Ratio");
		for (k = 0; k < s->nk; k++) {
			const struct vb_res *r = rl_find(&s->k[k], s->ids[i]);
			const struct vb_res *nl = noload_of(s, k, bench);
			double t, t0 = NAN;
			int j;

			snprintf(b, sizeof(b), "%s [%d]", s->k[k].label,
			    r ? r->niter : 0);
			fprintf(f, "%-*s", w, b);
			if (!r) {
				fprintf(f, " missing\n");
				continue;
			}
			t = build_time(r);
			t0 = build_time(nl);
			rt_num(num[0], 32, "%.1f", t);
			rt_num(num[1], 32, "%.0f", vb_res_metric_index(r,
			    "build_cpu") >= 0 ? rt_metric_mean(r, "build_cpu") :
			    rt_metric_mean(r, "cpu"));
			rt_num(num[2], 32, "%.0f", rt_metric_mean(r, "loads"));
			rt_num(num[3], 32, "%.0f", rt_metric_mean(r, "lcpu"));
			rt_num(num[4], 32, "%.2f", t0 > 0 ? t / t0 : NAN);
			for (j = 0; j < 5; j++)
				fprintf(f, " %6s", num[j]);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

/* The n of a tworead variant: its param sweep (or n), else the variant. */
static const char *
tworead_n(const struct vb_res *r, const char *id)
{
	const char *n = r ? vb_res_param(r, "sweep") : NULL;

	if (!n || !strcmp(n, "0"))
		n = r ? vb_res_param(r, "n") : NULL;
	return n ? n : variant_of(id);
}

/* Is @id a run of the 2read sweep (param sweep N, N > 0)? */
static int
is_sweep(const struct rl_set *s, const char *id)
{
	const struct vb_res *r = any_res(s, id);
	const char *n = r ? vb_res_param(r, "sweep") : NULL;

	return n && strcmp(n, "0") != 0;
}

/*
 * Iwamoto's table: one row per n, one column per kernel; only the sweep
 * variants (tworead@cached and other single runs are not rows of it).
 */
void
rt_tworead_table(FILE *f, const struct rl_set *s, const char *bench,
    const struct rt_opts *o)
{
	char b[NAME_MAX + 1], num[64];
	int i, k, first, last, perblk = (o->width - 8) / 12, rule;

	if (perblk < 1)
		perblk = 1;
	for (first = 0; first < s->nk; first += perblk) {
		const struct vb_res *r0 = NULL;

		last = first + perblk > s->nk ? s->nk : first + perblk;
		for (i = 0; i < s->nids && !r0; i++)
			if (!strcmp(bench_of(s->ids[i], b, sizeof(b)), bench) &&
			    is_sweep(s, s->ids[i]))
				r0 = any_res(s, s->ids[i]);
		if (!r0)
			return;
		fprintf(f, "%-8s", " n");
		for (k = first; k < last; k++)
			fprintf(f, "%12.11s", s->k[k].label);
		fputc('\n', f);
		rule = 8 + 12 * (last - first);
		while (rule-- > 0)
			fputc('=', f);
		fputc('\n', f);
		for (i = 0; i < s->nids; i++) {
			const struct vb_res *ri = any_res(s, s->ids[i]);

			if (strcmp(bench_of(s->ids[i], b, sizeof(b)), bench) ||
			    !is_sweep(s, s->ids[i]))
				continue;
			fprintf(f, "%-8.7s", tworead_n(ri, s->ids[i]));
			for (k = first; k < last; k++) {
				const struct vb_res *r = rl_find(&s->k[k],
				    s->ids[i]);
				double v = r && r->headline[0] ?
				    rt_metric_mean(r, r->headline) : NAN;

				if (!r)
					snprintf(num, sizeof(num), "missing");
				else
					rt_num(num, sizeof(num), "%.0f", v);
				fprintf(f, "%12s", num);
			}
			fputc('\n', f);
		}
		if (r0 && r0->headline[0])
			fprintf(f, "(%s, mean of runs)\n", r0->headline);
		fputc('\n', f);
	}
}

/*
 * Rows for the post's short table: the headline, the benchmark's first
 * four other own metrics, then elapsed, user, sys, major faults, swap
 * (the full table is `make compare`'s).
 */
static int
post_rows(const struct rl_set *s, const char *id, struct rt_row *rows,
    int n, struct rt_row *out)
{
	static const char *const std[] = {
		"elapsed", "user", "sys", "cpu", "minflt", "majflt", "nvcsw",
		"nivcsw", "inblock", "oublock", "maxrss", "pswpin", "pswpout",
		"pgmajfault", "pgfault", "pgscan_kswapd", "pgscan_direct",
		"pgsteal_kswapd", "pgsteal_direct", "allocstall",
		"workingset_refault", "thp_fault_alloc", "oom_kill", "pgpgin",
		"pgpgout", "pgscan_total", "pgsteal_total", NULL,
	};
	static const char *const tail[] = {
		"elapsed", "user", "sys", "majflt", "pswpin", "pswpout",
		"oom_kill", NULL,
	};
	const struct vb_res *r0 = any_res(s, id);
	int j, i, m = 0, own, nown = 0;

	for (j = 0; j < n; j++)
		if (r0 && !strcmp(rows[j].name, r0->headline))
			out[m++] = rows[j];
	for (j = 0; j < n; j++) {
		for (own = 1, i = 0; std[i]; i++)
			if (!strcmp(rows[j].name, std[i]))
				own = 0;
		/* at most four: fileload has three per operation */
		if (own && rows[j].dir != VB_INFO && nown < 4 &&
		    !(r0 && !strcmp(rows[j].name, r0->headline))) {
			out[m++] = rows[j];
			nown++;
		}
	}
	for (i = 0; tail[i]; i++)
		for (j = 0; j < n; j++)
			if (!strcmp(rows[j].name, tail[i]) &&
			    !(r0 && !strcmp(rows[j].name, r0->headline)))
				out[m++] = rows[j];
	return m;
}

/* Print "Key: value" wrapped, value cut at the width. */
static void
kv_line(FILE *f, const char *key, const char *val, int width)
{
	int w = width - (int)strlen(key) - 1;

	/* a long key (a long label) leaves no room: the key alone */
	fprintf(f, "%s %.*s\n", key, w > 0 ? w : 0, val);
}

static const char *
meta_or(const struct rl_kernel *k, const char *key, const char *dflt)
{
	const char *v = rl_meta(k, key);

	return v && *v && strcmp(v, "unknown") ? v : dflt;
}

/*
 * The value of meta @key when every folder has the same ("?" when none
 * records it), else "differs" (the settings block below names them).
 */
static const char *
same_or(const struct rl_set *s, const char *key)
{
	const char *v0 = meta_or(&s->k[0], key, NULL), *v;
	int k;

	for (k = 1; k < s->nk; k++) {
		v = meta_or(&s->k[k], key, NULL);
		if ((!v) != (!v0) || (v && strcmp(v, v0)))
			return "differs";
	}
	return v0 ? v0 : "?";
}

/* "Intel(R) Xeon(R) CPU @ 2.20GHz x 2, 23.5 GiB RAM, no swap" */
static char *
machine(char *buf, size_t len, const struct rl_kernel *k)
{
	double mem = atof(meta_or(k, "mem_total_kb", "0")) / 1048576;
	double swp = atof(meta_or(k, "swap_total_kb", "0")) / 1048576;
	char sw[64];

	if (swp > 0)
		snprintf(sw, sizeof(sw), "%.1f GiB swap", swp);
	else
		snprintf(sw, sizeof(sw), "no swap");
	snprintf(buf, len, "%s x %s, %.1f GiB RAM, %s",
	    meta_or(k, "cpu_model", "unknown CPU"),
	    meta_or(k, "cpu_count", "?"), mem, sw);
	return buf;
}

static void
post_header(FILE *f, const struct rl_set *s, const struct rt_opts *o)
{
	char buf[1024], buf2[1024];
	struct vb_buf line = VB_BUF_INIT;
	int k, w = label_width(s, 10), same = 1;

	vb_buf_printf(&line, "vmbench results: %s", s->k[0].label);
	for (k = 1; k < s->nk; k++)
		vb_buf_printf(&line, "%s%s", k == 1 ? " vs " : ", ",
		    s->k[k].label);
	fprintf(f, "%.*s\n\n", o->width, vb_buf_str(&line));
	vb_buf_free(&line);
	fprintf(f, "Kernels (the first is the baseline):\n");
	for (k = 0; k < s->nk; k++) {
		const struct rl_kernel *kk = &s->k[k];

		snprintf(buf, sizeof(buf), "%s %s %s",
		    meta_or(kk, "uname_r", "?"), meta_or(kk, "uname_v", ""),
		    meta_or(kk, "uname_m", ""));
		fprintf(f, "  %-*.*s%.*s%s\n", w, w - 1, kk->label,
		    o->width - w - 2 - (rl_meta(kk, "status") &&
		    strcmp(rl_meta(kk, "status"), "complete") ? 14 : 0), buf,
		    rl_meta(kk, "status") && strcmp(rl_meta(kk, "status"),
		    "complete") ? " [interrupted]" : "");
	}
	machine(buf, sizeof(buf), &s->k[0]);
	for (k = 1; k < s->nk; k++)
		if (strcmp(machine(buf2, sizeof(buf2), &s->k[k]), buf))
			same = 0;
	if (same) {
		kv_line(f, "Machine:", buf, o->width);
	} else {
		for (k = 0; k < s->nk; k++) {
			snprintf(buf2, sizeof(buf2), "Machine (%s):",
			    s->k[k].label);
			kv_line(f, buf2, machine(buf, sizeof(buf), &s->k[k]),
			    o->width);
		}
	}
	/* the baseline's value only where every folder has it */
	snprintf(buf, sizeof(buf), "THP %s, swappiness %s, dirty_ratio %s, "
	    "work folder on %s", same_or(s, "thp_enabled"),
	    same_or(s, "swappiness"), same_or(s, "dirty_ratio"),
	    same_or(s, "workdir_fstype"));
	kv_line(f, "Setup:", buf, o->width);
	for (k = 0; k < s->nk; k++)
		if (rl_meta(&s->k[k], "mem_limit")) {
			kv_line(f, "Memory limit:", same_or(s, "mem_limit"),
			    o->width);
			break;
		}
	snprintf(buf, sizeof(buf), "%s, %s iterations, vmbench %s",
	    same_or(s, "config"), same_or(s, "iterations"),
	    same_or(s, "vmbench_version"));
	kv_line(f, "Suite:", buf, o->width);
	rt_settings(f, s, o->width);
	rt_quiet_summary(f, s, o);
	fputc('\n', f);
	vb_buf_printf(&line, "Figures are means of all runs. In the "
	    "tables (+x.xx%%) is the change against %s, positive = better; "
	    "* marks a significant difference (Welch's t-test, p<0.05) of "
	    "at least %g%%, never on an info metric; ~ a noisy metric "
	    "(CoV > %.0f%%); [system] a counter of the whole machine, "
	    "[cgroup] of the benchmark's memory cgroup.", s->k[0].label,
	    s->min_change, o->noisy * 100);
	{
		/* wrap at the width */
		const char *p = vb_buf_str(&line);
		int col = 0;

		while (*p) {
			int n = (int)strcspn(p, " ");

			if (col && col + 1 + n > o->width) {
				fputc('\n', f);
				col = 0;
			} else if (col) {
				fputc(' ', f);
				col++;
			}
			fwrite(p, 1, (size_t)n, f);
			col += n;
			p += n;
			while (*p == ' ')
				p++;
		}
		fputs("\n\n", f);
	}
	vb_buf_free(&line);
}

static void
command_line(FILE *f, const struct vb_res *r, int width)
{
	fprintf(f, "$ %.*s", width - 2, r->cmdline);
	if ((int)strlen(r->cmdline) > width - 2)
		fprintf(f, "\n  %.*s", width - 4, r->cmdline + width - 2);
	fprintf(f, "   (%d run%s)\n", r->niter, r->niter == 1 ? "" : "s");
}

/* The short comparison table of @id. */
static void
short_table(FILE *f, const struct rl_set *s, const char *id,
    const struct rt_opts *o)
{
	struct rt_row *rows, *sel;
	int n, m;

	n = rt_rows(s, id, &rows);
	sel = vb_xcalloc((size_t)n, sizeof(*sel));
	m = post_rows(s, id, rows, n, sel);
	if (s->nk > 1 && m) {
		fputc('\n', f);
		rt_table(f, s, id, sel, m, o);
		rt_notes(f, s, id, sel, m, o);
	} else {
		rt_notes(f, s, id, sel, 0, o);
	}
	free(sel);
	rt_free_rows(rows, n, s->nk);
}

static void
bars_for(FILE *f, const struct rl_set *s, const char *id,
    const struct rt_opts *o)
{
	struct rt_row *rows;
	int n, h;

	n = rt_rows(s, id, &rows);
	h = rt_headline(s, id, rows, n);
	if (h >= 0) {
		fputc('\n', f);
		rt_headline_bars(f, s, &rows[h], o->width);
	}
	rt_free_rows(rows, n, s->nk);
}

void
rt_post(FILE *f, const struct rl_set *s, const struct rt_opts *o)
{
	/* ids are file names: NAME_MAX bytes at most */
	char b[NAME_MAX + 1], probe[NAME_MAX + 8], done[NAME_MAX + 1] = "";
	int i, j;

	post_header(f, s, o);
	for (i = 0; i < s->nids; i++) {
		const char *id = s->ids[i];
		const struct vb_res *r = any_res(s, id);

		bench_of(id, b, sizeof(b));
		if (!strcmp(b, "makesim") || !strcmp(b, "tworead")) {
			if (!strcmp(done, b))
				continue;
			snprintf(done, sizeof(done), "%s", b);
			fprintf(f, "%s\n\n", !strcmp(b, "makesim") ?
			    "makesim: a parallel build under contest's loads" :
			    "tworead: two files read over ranges n and 1100-n");
			for (j = i; j < s->nids; j++) {
				char b2[NAME_MAX + 1];

				if (!strcmp(bench_of(s->ids[j], b2,
				    sizeof(b2)), b))
					command_line(f, any_res(s, s->ids[j]),
					    o->width);
			}
			fputc('\n', f);
			if (!strcmp(b, "makesim"))
				rt_contest_table(f, s, b);
			else
				rt_tworead_table(f, s, b, o);
			for (j = i; j < s->nids; j++) {
				char b2[NAME_MAX + 1];

				if (strcmp(bench_of(s->ids[j], b2, sizeof(b2)),
				    b))
					continue;
				fprintf(f, "%s:\n", s->ids[j]);
				rt_quiet_warn(f, s, s->ids[j], o);
				time_lines(f, s, s->ids[j]);
				snprintf(probe, sizeof(probe), "probe@%s",
				    s->ids[j]);
				rt_probe_lines(f, s, probe);
				short_table(f, s, s->ids[j], o);
				fputc('\n', f);
			}
			continue;
		}
		/* probe@X is shown with X when X was run */
		if (!strcmp(b, "probe") && strchr(id, '@')) {
			int k, with = 0;

			for (k = 0; k < s->nk; k++)
				if (rl_find(&s->k[k], variant_of(id)))
					with = 1;
			if (with)
				continue;
		}
		fprintf(f, "%s\n", id);
		command_line(f, r, o->width);
		rt_quiet_warn(f, s, id, o);
		fputc('\n', f);
		time_lines(f, s, id);
		snprintf(probe, sizeof(probe), "probe@%s", id);
		rt_probe_lines(f, s, probe);
		if (!strcmp(b, "probe"))
			rt_probe_lines(f, s, id);
		bars_for(f, s, id, o);
		short_table(f, s, id, o);
		fputc('\n', f);
	}
	rt_lmbench(f, s);
	rt_tio(f, s, o);
}
