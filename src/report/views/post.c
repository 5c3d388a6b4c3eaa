/*
 * post.c - the mail-ready post (post.h: make post) in the manner of the
 * 2002 posts: a header naming the kernels and the machine (from meta),
 * then per test its command, the tcsh time(1) line per kernel with the
 * swap totals under it, the benchmark's own form (forms/: contest's
 * table, tworead's n-by-kernel table, the probe's "played X of Y
 * seconds"), a bar chart of the headline figure, and a short comparison
 * table; the forms that close the post (LMbench's, tiobench's tables);
 * blank lines between sections, under 80 columns.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bars.h"
#include "clock.h"
#include "fmt.h"
#include "forms/form.h"
#include "model.h"
#include "setup.h"
#include "table.h"
#include "trace.h"
#include "util.h"

#define VR_VIEW_POST		/* its own header */
#include "post.h"

/* ---- the lines of each result ---- */

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
	double co = model_mean(r, "cg_pswpout");
	double ci = model_mean(r, "cg_pswpin");
	double pk = model_mean(r, "cg_swap_peak_kb");
	const char *what = "Cgroup swap peak during test";
	char a[32], b[32];

	if (isnan(pk)) {
		pk = model_mean(r, "cg_memsw_peak_kb");
		what = "Cgroup memory+swap peak";
	}
	if (!isnan(co) && (shown || co > 0 || ci > 0))
		fprintf(f, "%*sCgroup swapouts during test       = %s kB "
		    "(memory cgroup)\n%*sCgroup swapins during test        = "
		    "%s kB (memory cgroup)\n", w, "", fmt_num(a, sizeof(a),
		    "%.0f", co), w, "", fmt_num(b, sizeof(b), "%.0f",
		    isnan(ci) ? 0 : ci));
	else if (!isnan(pk) && (shown || pk > 0))
		fprintf(f, "%*s%-33s = %s kB (memory cgroup)\n", w, "",
		    what, fmt_num(a, sizeof(a), "%.0f", pk));
}

/* A mean count as the post prints it: "1,204", "0.3". */
static char *
count_words(char *buf, size_t len, double v)
{
	char digits[32];
	size_t n, i, o = 0;

	if (!isfinite(v) || v < 0 || v >= 1e15)
		return fmt_num(buf, len, "%.4g", v);
	if (v < 100 && v != floor(v))
		return fmt_num(buf, len, "%.1f", v);
	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* A time in us as the post prints it: "850 us", "3.1 ms", "1.25 s". */
static char *
us_words(char *buf, size_t len, double us)
{
	if (us >= 1e6)
		snprintf(buf, len, "%.2f s", us / 1e6);
	else if (us >= 1e4)
		snprintf(buf, len, "%.0f ms", us / 1e3);
	else if (us >= 1e3)
		snprintf(buf, len, "%.1f ms", us / 1e3);
	else
		snprintf(buf, len, "%.0f us", us);
	return buf;
}

/*
 * The tracepoint figures of a result (trace.h's columns, where its .res
 * has them), one line a family at column @w, e.g.
 *	direct reclaim: 1,204 stalls, p99 3.1 ms (system-wide)
 *	kswapd wake-ups: 12 (system-wide)
 * and the events the buffer lost, when it lost any; the parenthesis
 * goes to a line of its own when the whole does not fit in @width.
 */
static void
trace_lines(FILE *f, const struct vb_res *r, int w, int width)
{
	const struct vb_metric *m = vb_trace_metrics;
	char line[256], c[32], t[32];
	double n, p99, lost;
	int fam, col;

	for (fam = 0; vb_trace_family(fam); fam++) {
		col = fam < VB_TRACE_KSWAPD / VB_NTPF ? fam * VB_NTPF +
		    VB_TPF_N : VB_TRACE_KSWAPD;
		if (isnan(n = model_mean(r, m[col].name)))
			continue;
		count_words(c, sizeof(c), n);
		if (col == VB_TRACE_KSWAPD) {
			snprintf(line, sizeof(line), "%s: %s",
			    vb_trace_family(fam), c);
		} else {
			p99 = model_mean(r, m[col - VB_TPF_N +
			    VB_TPF_P99].name);
			snprintf(line, sizeof(line), "%s: %s %s%s%s",
			    vb_trace_family(fam), c, m[col].unit,
			    isnan(p99) ? "" : ", p99 ", isnan(p99) ? "" :
			    us_words(t, sizeof(t), p99));
		}
		if (w + (int)strlen(line) + 14 > width)
			fprintf(f, "%*s%s\n%*s(system-wide)\n", w, "", line,
			    w + 4, "");
		else
			fprintf(f, "%*s%s (system-wide)\n", w, "", line);
	}
	lost = model_mean(r, m[VB_TRACE_LOST].name);
	if (!isnan(lost) && lost > 0)
		fprintf(f, "%*s%s trace %s lost: the figures above "
		    "undercount\n", w, "", count_words(c, sizeof(c), lost),
		    m[VB_TRACE_LOST].unit);
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

	fmt_num(u, sizeof(u), "%.3f", user);
	fmt_num(s, sizeof(s), "%.3f", sys);
	vb_fmt_hms(hms, sizeof(hms), el);
	fmt_num(cpu, sizeof(cpu), "%.1f", el > 0 ? (user + sys) / el * 100 :
	    NAN);
	/* whole counts rounded half away from zero, as lround() */
	fmt_num(in, sizeof(in), "%.0f", round(inb));
	fmt_num(out, sizeof(out), "%.0f", round(oub));
	fmt_num(pf, sizeof(pf), "%.0f", round(majflt));
	snprintf(buf, len, "%su %ss %s %s%% 0+0k %s+%sio %spf+0w", u, s, hms,
	    cpu, in, out, pf);
	return buf;
}

/* What a machine-wide figure's words add when others moved it. */
static const char *
others(const struct vb_res *r, const char *metric, double quiet)
{
	return setup_others_moved(r, metric, quiet) ?
	    ": includes other processes" : "";
}

/*
 * "@what@v kB (system-wide@more)" at column @w, its parenthesis on the
 * next line when the whole does not fit in @width.
 */
static void
swap_line(FILE *f, int w, int width, const char *what, double v,
    const char *more)
{
	char a[32], tail[96];
	int n;

	snprintf(tail, sizeof(tail), "(system-wide%s)", more);
	n = w + (int)strlen(what) + (int)strlen(fmt_num(a, sizeof(a), "%.0f",
	    v)) + 4 + (int)strlen(tail);
	fprintf(f, "%*s%s%s kB%s%*s%s\n", w, "", what, a, n > width ? "\n" :
	    " ", n > width ? w + 4 : 0, "", tail);
}

/*
 * tcsh time(1) line of the mean run, and the swap totals under it:
 *	2.5.23:   193.260u 17.540s 3:49.86 93.5%  0+0k 0+0io 223130pf+0w
 *	          Total kernel swapouts during test = 143992 kB (system-wide)
 * ("system-wide: includes other processes" when others moved it,
 * setup_others_moved(); on a line of its own when it does not fit),
 * then the tracepoint figures where the result has them (trace_lines).
 */
static void
time_lines(FILE *f, const struct rl_set *s, const char *id, double quiet,
    int width)
{
	char buf[512];
	int k, w = fmt_label_width(s, 10);

	for (k = 0; k < s->nk; k++) {
		const struct vb_res *r = rl_find(&s->k[k], id);
		double si, so;
		int m, shown;

		snprintf(buf, sizeof(buf), "%s:", s->k[k].label);
		fprintf(f, "%-*s", w, buf);
		if (!r || isnan(model_mean(r, "elapsed"))) {
			fprintf(f, "%s\n", r ? "(no time figures)" : "missing");
			continue;
		}
		/* makesim: the build's own figures, as `time make` */
		m = vb_res_metric_index(r, "build_time") >= 0;
		tcsh_line(buf, sizeof(buf),
		    model_mean(r, m ? "build_time" : "elapsed"),
		    model_mean(r, m ? "build_user" : "user"),
		    model_mean(r, m ? "build_sys" : "sys"),
		    model_mean(r, m ? "build_majflt" : "majflt"),
		    model_mean(r, "inblock"), model_mean(r, "oublock"));
		fprintf(f, "%s\n", buf);
		si = model_mean(r, "pswpin");
		so = model_mean(r, "pswpout");
		shown = !isnan(so) && (so > 0 || si > 0);
		if (shown) {
			swap_line(f, w, width, "Total kernel swapouts during "
			    "test = ", so, others(r, "pswpout", quiet));
			swap_line(f, w, width, "Total kernel swapins during "
			    "test  = ", isnan(si) ? 0 : si, others(r,
			    "pswpin", quiet));
		}
		cgroup_swap_lines(f, r, w, shown);
		trace_lines(f, r, w, width);
	}
}

/*
 * Row @j of @rows into @out[@m], or for a machine-wide counter whose
 * cgroup counterpart the runs recorded (MEM=), that one, once: the
 * machine's includes other processes'.  Returns the new count.
 */
static int
add_own(const struct rl_set *s, const struct model_row *rows, int n, int j,
    struct model_row *out, int m)
{
	char cg[128];
	int c, k, i;

	snprintf(cg, sizeof(cg), "cg_%s", rows[j].name);
	for (c = 0; rows[j].scope == MODEL_SYSTEM && c < n &&
	    strcmp(rows[c].name, cg); c++)
		;
	for (k = 0; c < n && k < s->nk && !rows[c].d[k].n; k++)
		;
	if (rows[j].scope != MODEL_SYSTEM || c >= n || k >= s->nk) {
		out[m++] = rows[j];
		return m;
	}
	for (i = 0; i < m && strcmp(out[i].name, cg); i++)
		;
	if (i == m)
		out[m++] = rows[c];
	return m;
}

/* Is @name one of the tracepoint figures (trace.h), not a benchmark's? */
static int
trace_figure(const char *name)
{
	const struct vb_metric *m;

	for (m = vb_trace_metrics; m->name; m++)
		if (!strcmp(m->name, name))
			return 1;
	return 0;
}

/*
 * Rows for the post's short table: the headline, the benchmark's first
 * four other own metrics (not the tracepoint figures: the lines under
 * the time lines say those), then elapsed, user, sys, major
 * faults, swap (the cgroup's, when the runs recorded it) (the full
 * table is `make compare`'s).
 */
static int
post_rows(const struct rl_set *s, const char *id, struct model_row *rows,
    int n, struct model_row *out)
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
	const struct vb_res *r0 = model_any(s, id);
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
		    !trace_figure(rows[j].name) &&
		    !(r0 && !strcmp(rows[j].name, r0->headline))) {
			out[m++] = rows[j];
			nown++;
		}
	}
	for (i = 0; tail[i]; i++)
		for (j = 0; j < n; j++)
			if (!strcmp(rows[j].name, tail[i]) &&
			    !(r0 && !strcmp(rows[j].name, r0->headline)))
				m = add_own(s, rows, n, j, out, m);
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
post_header(FILE *f, const struct model *md, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	char buf[1024], buf2[1024];
	struct vb_buf line = VB_BUF_INIT;
	int k, w = fmt_label_width(s, 10), same = 1;

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
	setup_settings(f, s, o->width);
	setup_quiet_summary(f, s, o);
	setup_loud_runs(f, s, o);
	setup_load_differs(f, md, o);
	fputc('\n', f);
	model_ready(md);
	vb_buf_printf(&line, "Figures are means of all runs' iterations; "
	    "each test names the runs and boots behind it. In the tables "
	    "(+x.xx%%) is the change against %s, positive = better; * marks "
	    "a change (verdict changed) of at least %g%%, never on an info "
	    "metric, on the run means: ", s->k[0].label, md->min_change);
	table_family_words(&line, md, 0);
	vb_buf_printf(&line, " ~ a noisy metric (CoV > %.0f%%); [system] a "
	    "counter of the whole machine, [cgroup] of the benchmark's "
	    "memory cgroup.", o->noisy * 100);
	if (md->runs_min == 1)
		vb_buf_printf(&line, " Where a side has one run nothing is "
		    "starred: a difference includes run-to-run drift that one "
		    "run a side cannot measure.");
	fmt_wrap(f, vb_buf_str(&line), o->width, 0);
	fputc('\n', f);
	vb_buf_free(&line);
}

static void
command_line(FILE *f, const struct vb_res *r, int width)
{
	fprintf(f, "$ %.*s", width - 2, r->cmdline);
	if ((int)strlen(r->cmdline) > width - 2)
		fprintf(f, "\n  %.*s", width - 4, r->cmdline + width - 2);
	/* the runs and iterations of each side: the runs line below */
	fputc('\n', f);
}

/*
 * The runs and boots behind @id's figures, one item a kernel:
 * "runs: a 3 on 2 boots (15 iterations), b 1 on 1 boot (5 iterations)"
 * (make ab's sides: its iterations are its runs).
 */
static void
runs_line(FILE *f, const struct rl_set *s, const char *id, int width)
{
	struct vb_buf line = VB_BUF_INIT;
	int k;

	vb_buf_printf(&line, "runs:");
	for (k = 0; k < s->nk; k++) {
		const struct rl_kernel *kk = &s->k[k];
		const struct vb_res *r = rl_find(kk, id);
		int n = r ? r->niter : 0;

		if (kk->iter_is_run)
			vb_buf_printf(&line, "%s %s %d (make ab: each "
			    "iteration a run) on %d boot%s", k ? "," : "",
			    kk->label, n, kk->nboots, kk->nboots == 1 ? "" :
			    "s");
		else
			vb_buf_printf(&line, "%s %s %d on %d boot%s (%d "
			    "iteration%s)", k ? "," : "", kk->label,
			    r ? kk->nruns : 0, kk->nboots, kk->nboots == 1 ?
			    "" : "s", n, n == 1 ? "" : "s");
	}
	fmt_wrap(f, vb_buf_str(&line), width, 4);
	vb_buf_free(&line);
}

/*
 * The short comparison table of @id, its notes, and the figures it
 * leaves out that changed (as the text view says them).
 */
static void
short_table(FILE *f, const struct model *md, const char *id,
    const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct model_row *rows, *sel;
	int n, m, i;

	n = model_rows(md, id, &rows);
	sel = vb_xcalloc((size_t)n, sizeof(*sel));
	m = post_rows(s, id, rows, n, sel);
	if (s->nk > 1 && m) {
		fputc('\n', f);
		table_print(f, s, id, sel, m, o);
		table_verdict_line(f, md, id, rows, n, o);
		table_notes(f, s, id, sel, m, o);
		setup_others_note(f, s, id, sel, m, o);
		table_also_changed(f, md, rows, n, sel, m, o);
	} else {
		table_notes(f, s, id, sel, 0, o);
	}
	/* what ran beside it: its stars count for the gate, so shown */
	if (s->nk > 1)
		for (i = 0; i < s->nids; i++) {
			const char *at = strchr(s->ids[i], '@');

			if (at && !strcmp(at + 1, id) &&
			    form_rides(s, s->ids[i]))
				table_beside_changed(f, md, s->ids[i], o);
		}
	free(sel);
}

static void
bars_for(FILE *f, const struct model *md, const char *id,
    const struct report_opts *o)
{
	struct model_row *rows;
	int n, h;

	n = model_rows(md, id, &rows);
	h = model_headline(md->s, id, rows, n);
	if (h >= 0) {
		fputc('\n', f);
		bars_headline(f, md->s, &rows[h], o->width);
	}
}

/*
 * A form's benchmark (FORM_POST): its title, the command of each of its
 * results, the form's table, then each result's time lines and short
 * table, all at its first id @i.
 */
static void
form_section(FILE *f, const struct model *md, const struct form *fm, int i,
    const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	int j;

	fprintf(f, "%s\n\n", fm->title);
	for (j = i; j < s->nids; j++)
		if (form_of(s->ids[j], FORM_POST) == fm)
			command_line(f, model_any(s, s->ids[j]), o->width);
	fputc('\n', f);
	fm->table(f, s, fm->bench, o->width);
	for (j = i; j < s->nids; j++) {
		if (form_of(s->ids[j], FORM_POST) != fm)
			continue;
		fprintf(f, "%s:\n", s->ids[j]);
		runs_line(f, s, s->ids[j], o->width);
		setup_quiet_warn(f, s, s->ids[j], o);
		time_lines(f, s, s->ids[j], o->quiet, o->width);
		form_beside(f, s, s->ids[j]);
		short_table(f, md, s->ids[j], o);
		fputc('\n', f);
	}
}

void
post_print(FILE *f, const struct model *md, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	const struct form *fm, *done = NULL;
	int i;

	post_header(f, md, o);
	for (i = 0; i < s->nids; i++) {
		const char *id = s->ids[i];

		if ((fm = form_of(id, FORM_POST))) {
			if (fm != done)
				form_section(f, md, fm, i, o);
			done = fm;
			continue;
		}
		/* what ran beside another benchmark is shown with it */
		if (form_rides(s, id))
			continue;
		fprintf(f, "%s\n", id);
		command_line(f, model_any(s, id), o->width);
		runs_line(f, s, id, o->width);
		setup_quiet_warn(f, s, id, o);
		fputc('\n', f);
		time_lines(f, s, id, o->quiet, o->width);
		form_beside(f, s, id);
		if ((fm = form_of(id, FORM_BESIDE)))
			fm->lines(f, s, id);
		bars_for(f, md, id, o);
		short_table(f, md, id, o);
		fputc('\n', f);
	}
	for (i = 0; forms[i]; i++)
		if (forms[i]->flags & FORM_POST_END)
			forms[i]->table(f, s, forms[i]->bench, o->width);
}
