/*
 * html.c - the results page across many kernels (vmreport --html DIR,
 * make html): one self-contained index.html in DIR, its charts inline
 * SVG, its only script inline (ordering the charts' bars, sorting the
 * summary); nothing is fetched from anywhere, so the page reads the
 * same from a file:// URL and from any web server.
 *
 * From the top: the folders whose suite run did not complete, the
 * settings and machine of each folder and what differs between them
 * (setup.c), the summary (one row per kernel, one column per
 * benchmark's headline figure, the best of each column marked, links to
 * the sections, each kernel's verdict under its figure), the
 * benchmarks' own tables (forms/, FORM_PAGE: contest's, tworead's),
 * then per benchmark its comparison table with the verdicts' stars, its
 * notes, the headline's verdict line, and a bar chart of the headline
 * figure with the 95% CI of the mean as error bars and each kernel's
 * verdict.  The verdicts are model_verdict()'s in the text report's
 * words (table_verdict_word()).  Every figure comes from
 * model_rows() (model.c), as in the text report; the cells are
 * formatted by the text table's own functions (table.c, fmt.c).  Every
 * string read from a result folder (labels, parameters, settings,
 * command lines) is HTML-escaped.
 *
 * DIR is created when missing; an existing DIR must be empty or hold
 * an index.html written by vmreport (its generator line), else nothing
 * is written.  The page goes to index.html.tmp first, then is renamed
 * over index.html: an error leaves the old page as it was.  A run
 * stopped before the rename leaves the index.html.tmp: the next run
 * accepts it (vmreport's, or empty) and replaces it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "fmt.h"
#include "forms/form.h"
#include "model.h"
#include "outdir.h"
#include "safedir.h"
#include "settings.h"
#include "setup.h"
#include "table.h"
#include "util.h"

#define VR_VIEW_HTML		/* its own header */
#include "html.h"

/* What marks a page as vmreport's (in the first RH_MARKLEN bytes). */
#define RH_MARK "<meta name=\"generator\" content=\"vmreport\">"
#define RH_MARKLEN 1024

/* Up to this many folders the settings table is shown unfolded. */
#define RH_OPEN 12

/* The charts' geometry (SVG user units). */
#define CH_TOP 34
#define CH_ROWH 18
#define CH_LABW 180
#define CH_BARW 400
#define CH_VALW 110
#define CH_WORDW 260

/* ---- escaping ---- */

/*
 * @s as HTML text or attribute value: & < > " ' as entities, control
 * characters and bytes that are not UTF-8 as U+FFFD (a page cannot
 * carry them); a newline and a tab are kept.
 */
void
html_esc(FILE *f, const char *s)
{
	size_t n = s ? strlen(s) : 0, i = 0, u;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&': fputs("&amp;", f); i++; continue;
		case '<': fputs("&lt;", f); i++; continue;
		case '>': fputs("&gt;", f); i++; continue;
		case '"': fputs("&quot;", f); i++; continue;
		case '\'': fputs("&#39;", f); i++; continue;
		case '\n': case '\t': fputc(c, f); i++; continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fputs("&#xFFFD;", f);
			i++;
			continue;
		}
		u = vb_utf8_len(s + i, n - i);
		if (u == 0) {
			fputs("&#xFFFD;", f);
			i++;
			continue;
		}
		/* the C1 controls U+0080-U+009F: not text either */
		if (u == 2 && c == 0xc2 && (unsigned char)s[i + 1] < 0xa0)
			fputs("&#xFFFD;", f);
		else
			fwrite(s + i, 1, u, f);
		i += u;
	}
}

/* The anchor of benchmark number @i: "b3-makesim_no_load". */
static char *
anchor(char *buf, size_t len, int i, const char *id)
{
	size_t n;

	snprintf(buf, len, "b%d-", i);
	n = strlen(buf);
	for (; *id && n + 1 < len; id++)
		buf[n++] = (*id >= 'a' && *id <= 'z') || (*id >= 'A' &&
		    *id <= 'Z') || (*id >= '0' && *id <= '9') ||
		    *id == '-' || *id == '.' ? *id : '_';
	buf[n] = '\0';
	return buf;
}

/* What a text function printed, as <pre> (nothing when it printed none). */
static void
pre_of(FILE *f, const char *cls, char *text, size_t len)
{
	if (len) {
		fprintf(f, "<pre class=\"%s\">", cls);
		html_esc(f, text);
		fputs("</pre>\n", f);
	}
	free(text);
}

/* ---- the folder ---- */

/* Does @name in the folder @dfd start with vmreport's generator line? */
static int
is_our_page(int dfd, const char *name)
{
	char buf[RH_MARKLEN + 1], err[64];
	ssize_t n;
	int fd = vb_open_read_at(dfd, name, name, VB_MAX_SERIES, err,
	    sizeof(err));

	if (fd < 0)
		return 0;
	n = read(fd, buf, RH_MARKLEN);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return strstr(buf, RH_MARK) != NULL;
}

/*
 * Is @name what an interrupted run of vmreport leaves: its page not
 * yet renamed, or still empty (a regular file, never followed)?
 */
static int
is_our_tmp(int dfd, const char *name)
{
	struct stat st;

	return is_our_page(dfd, name) || (fstatat(dfd, name, &st,
	    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size == 0);
}

/* A temporary of the page: .index.html.XXXXXX, or index.html.tmp. */
static int
page_tmp(const char *name)
{
	return !strcmp(name, "index.html.tmp") ||
	    !strncmp(name, ".index.html.", 12);
}

/*
 * May the page be written into @dir?  Checked once (made when missing:
 * ours, no one else may write it, no symlink on the way); an existing
 * folder must be empty or hold vmreport's index.html, and may hold the
 * temporaries an interrupted run left (removed).  The folder's
 * descriptor, or -1 with one line printed.
 */
static int
check_dir(const struct rl_set *s, const char *dir)
{
	char err[PATH_MAX + 128];
	struct dirent *e;
	DIR *d;
	int n = 0, bad = 0, fd, dfd;

	if (outdir_inside(s, dir)) {
		vb_warn("%s: is inside a result folder; the page goes elsewhere "
		    "(nothing written)", dir);
		return -1;
	}
	if ((dfd = vb_dir_open(dir, 1, err, sizeof(err))) < 0) {
		vb_warn("%s (the HTML folder, HTML=; nothing written)", err);
		return -1;
	}
	if ((fd = dup(dfd)) < 0 || !(d = fdopendir(fd))) {
		vb_warn_errno("cannot open the HTML folder %s", dir);
		if (fd >= 0)
			close(fd);
		close(dfd);
		return -1;
	}
	while ((e = readdir(d)))
		if (page_tmp(e->d_name))
			bad |= !is_our_tmp(dfd, e->d_name);
		else if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	if (bad) {
		vb_warn("%s: exists and is not an HTML page of vmreport (its "
		    "index.html.tmp is not vmreport's); nothing overwritten",
		    dir);
		close(dfd);
		return -1;
	}
	if (n && !is_our_page(dfd, "index.html")) {
		vb_warn("%s: exists and is not an HTML page of vmreport (no "
		    "index.html written by it); nothing overwritten", dir);
		close(dfd);
		return -1;
	}
	unlinkat(dfd, "index.html.tmp", 0);
	return dfd;
}

/* ---- the page's parts ---- */

static const char style[] =
"body{font:14px/1.4 sans-serif;margin:1em 2em;color:#222}\n"
"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;"
"border-bottom:1px solid #ccc}\n"
".scroll{overflow-x:auto;max-width:100%}\n"
"table{border-collapse:collapse;margin:.5em 0}\n"
"th,td{border:1px solid #ddd;padding:2px 6px;white-space:nowrap}\n"
"th{background:#f3f3f3;position:sticky;top:0}\n"
"td.num{text-align:right;font-family:monospace}\n"
"td.long{white-space:normal;min-width:20em;font-family:monospace}\n"
"tr.base td{background:#f8f8ff}\n"
/* after tr.base td and as specific: the best is green in every row */
"td.best,tr.base td.best{background:#d8f0d8;font-weight:bold}\n"
"td.better{color:#060}td.worse{color:#b00}\n"
"span.vw{display:block;font:11px sans-serif;color:#8a6400}\n"
"span.vw.same{color:#555}span.vw.better{color:#1e7a1e}"
"span.vw.worse{color:#b02020}\n"
"p.verdict{font-family:monospace}\n"
"text.vw{fill:#8a6400}text.vw.same{fill:#555}text.vw.better{fill:#1e7a1e}"
"text.vw.worse{fill:#b02020}\n"
"th.sort{cursor:pointer}\n"
/* the notes' long lines wrap at the page's edge, not cut by it */
"pre{background:#f7f7f7;padding:.5em;white-space:pre-wrap;"
"overflow-wrap:anywhere}\n"
"p.warn,pre.warn{color:#a40}\n"
"svg.chart{display:block;margin:.5em 0}\n"
"svg text{font:12px sans-serif}\n"
"rect.bar{fill:#8aa}rect.base{fill:#669}\n"
"rect.better{fill:#5a5}rect.worse{fill:#c55}\n"
"line.err{stroke:#000;stroke-width:1}\n"
"summary{cursor:pointer;margin:.5em 0}\n"
"#tools{position:sticky;top:0;background:#fff;padding:.3em 0;"
"z-index:1;border-bottom:1px solid #eee}\n";

/*
 * The script: the charts' bars in kernel order or by value (best
 * first, as the text report's bar charts), the summary sorted by a
 * column when its header is clicked; ?byvalue in the URL starts with
 * the bars by value.  Errors are recorded on <body data-errors>, and
 * <body data-ready> says the script ran to its end.
 */
static const char script[] =
"(function(){\n"
"var errs=[];\n"
"window.addEventListener('error',function(e){errs.push(e.message);\n"
" document.body.setAttribute('data-errors',errs.join('; '));});\n"
"function num(e){var v=parseFloat(e.getAttribute('data-v'));\n"
" return isNaN(v)?null:v;}\n"
"function place(svg,byv){\n"
" var g=[].slice.call(svg.querySelectorAll('g.row'));\n"
" var lower=svg.getAttribute('data-dir')==='lower';\n"
" g.sort(function(a,b){var ka=+a.getAttribute('data-k'),\n"
"  kb=+b.getAttribute('data-k');if(!byv)return ka-kb;\n"
"  var x=num(a),y=num(b);if((x===null)!==(y===null))\n"
"  return x===null?1:-1;if(x===null||x===y)return ka-kb;\n"
"  return lower?x-y:y-x;});\n"
" var top=+svg.getAttribute('data-top'),h=+svg.getAttribute('data-rowh');\n"
" g.forEach(function(e,i){e.setAttribute('transform',\n"
"  'translate(0,'+(top+i*h)+')');});}\n"
"function order(){var v=document.getElementById('byvalue').checked;\n"
" [].forEach.call(document.querySelectorAll('svg.chart'),\n"
"  function(s){place(s,v);});}\n"
"var box=document.getElementById('byvalue');\n"
"box.addEventListener('change',order);\n"
"if(/[?&]byvalue/.test(location.search)){box.checked=true;order();}\n"
"[].forEach.call(document.querySelectorAll('th.sort'),function(th){\n"
" th.addEventListener('click',function(){\n"
"  var t=th.closest('table'),b=t.tBodies[0],c=+th.getAttribute('data-col');\n"
"  var down=th.getAttribute('data-down')!=='1';\n"
"  th.setAttribute('data-down',down?'1':'0');\n"
"  var r=[].slice.call(b.rows);r.sort(function(x,y){\n"
"   var p=num(x.cells[c]),q=num(y.cells[c]);\n"
"   if(c===0)return (down?1:-1)*(+x.getAttribute('data-k')-\n"
"    +y.getAttribute('data-k'));\n"
"   if((p===null)!==(q===null))return p===null?1:-1;\n"
"   if(p===null)return 0;return down?p-q:q-p;});\n"
"  r.forEach(function(e){b.appendChild(e);});});});\n"
"document.body.setAttribute('data-ready','1');\n"
"})();\n";

/*
 * The folders whose suite run did not complete (meta status), one line
 * each, as make compare prints them: "! inc2: suite run interrupted".
 */
static void
suite_status(FILE *f, const struct rl_set *s)
{
	const char *st;
	int k, n = 0;

	for (k = 0; k < s->nk; k++) {
		st = rl_meta(&s->k[k], "status");
		if (!st || !strcmp(st, "complete"))
			continue;
		fputs(n++ ? "<br>\n! " : "<p class=\"warn\" "
		    "id=\"suite-status\">! ", f);
		html_esc(f, s->k[k].label);
		fputs(": suite run ", f);
		html_esc(f, st);
	}
	if (n)
		fputs("</p>\n", f);
}

/* The settings of every folder, what differs, which machine. */
static void
settings(FILE *f, const struct model *md, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	/* around the settings the page shows (src/lib/settings.h) */
	static const char *const head[] = { "uname_r", "config",
		"iterations", NULL }, *const tail[] = { "swap_total_kb",
		"mem_limit", "workdir_fstype", "workdir_journal",
		"vmbench_version", NULL };
	const char *common[3 + VB_NSETTINGS + 5 + 1];
	struct setup_machines m;
	struct rl_mdiff *d;
	char name[512], *text = NULL, *v;
	size_t len = 0;
	FILE *mem;
	int n, i, k, j, first;

	for (i = n = 0; head[i]; i++)
		common[n++] = head[i];
	for (i = 0; vb_settings[i].key; i++)
		if (vb_settings[i].show & VB_SHOW_PAGE)
			common[n++] = vb_settings[i].key;
	for (i = 0; tail[i]; i++)
		common[n++] = tail[i];
	common[n] = NULL;
	setup_machines_of(s, &m);
	n = s->nk > 1 ? rl_meta_diffs(s, &d) : 0;
	fputs("<section id=\"settings\"><h2>Settings and machines</h2>\n",
	    f);
	if (m.n > 1)
		fprintf(f, "<p class=\"warn\" id=\"machine-warning\">warning: "
		    "these folders come from %d machines: a difference "
		    "between folders of two machines may be the machine's, "
		    "not the kernel's.</p>\n", m.n);
	if (setup_accel(s))
		fprintf(f, "<p class=\"warn\" id=\"accel-warning\">warning: "
		    "%s.</p>\n", setup_accel(s));
	suite_status(f, s);
	fputs("<ul id=\"machines\">\n", f);
	for (j = 0; j < m.n; j++) {
		fprintf(f, "<li>m%d: ", j + 1);
		html_esc(f, setup_machine_name(name, sizeof(name),
		    &s->k[m.first[j]]));
		for (k = 0, i = 0; k < s->nk; k++)
			if (m.of[k] == j)
				i++;
		fprintf(f, " (%d folder%s)</li>\n", i, i == 1 ? "" : "s");
	}
	/* many folders: the table folded, so the summary is near the top */
	fprintf(f, "</ul>\n<details%s><summary>Each folder's machine and the "
	    "settings that differ (%d folder%s, %d setting%s differ%s)"
	    "</summary>\n<div class=\"scroll\"><table id=\"settings-table\">"
	    "<thead><tr><th>Kernel</th><th>machine</th><th>folder</th>",
	    s->nk <= RH_OPEN ? " open" : "", s->nk, s->nk == 1 ? "" : "s", n,
	    n == 1 ? "" : "s", n == 1 ? "s" : "");
	for (i = 0; i < n; i++) {
		fputs("<th>", f);
		html_esc(f, d[i].key);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (k = 0; k < s->nk; k++) {
		fprintf(f, "<tr%s><td>", k ? "" : " class=\"base\"");
		html_esc(f, s->k[k].label);
		fprintf(f, "%s</td><td>m%d</td><td>", k ? "" : " (baseline)",
		    m.of[k] + 1);
		html_esc(f, s->k[k].dir);
		fputs("</td>", f);
		for (i = 0; i < n; i++) {
			v = setup_setting_value(s, &d[i], k);
			fprintf(f, "<td%s>", v && strlen(v) > 40 ?
			    " class=\"long\"" : "");
			html_esc(f, !v ? "not recorded" : !*v ? "(empty)" : v);
			fputs("</td>", f);
			free(v);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></details>\n<p id=\"same-settings\">",
	    f);
	fputs(s->nk > 1 ? "The same in every folder: " : "Settings: ", f);
	for (i = first = 0; common[i]; i++) {
		const char *val = rl_meta(&s->k[0], common[i]);

		for (j = 0; j < n && strcmp(d[j].key, common[i]); j++)
			;
		if (!val || j < n)
			continue;
		fputs(first++ ? ", " : "", f);
		html_esc(f, common[i]);
		fputc('=', f);
		html_esc(f, val);
	}
	fputs(first ? ".</p>\n" : "none recorded.</p>\n", f);
	if (!(mem = open_memstream(&text, &len)))
		die_errno("cannot build the page");
	/* each benchmark's own warnings are in its section only */
	if (!setup_all_loaded(mem, s, o, "each benchmark's section: its runs"))
		setup_quiet_summary(mem, s, o);
	setup_loud_runs(mem, s, o);
	setup_load_differs(mem, md, o);
	if (fclose(mem) != 0)
		die_errno("cannot build the page");
	pre_of(f, "load", text, len);
	fputs("</section>\n", f);
	if (n)
		rl_free_mdiffs(d, n);
	setup_machines_free(&m);
}

/*
 * Kernel @k's place among the others for row @r: is it the best, and
 * does the verdict say so?  Kernel @k's verdict against the baseline
 * is changed, or for the baseline every other kernel's is: the best of
 * a column of can't tell and same is not marked.
 */
static int
is_best(const struct model *md, const char *id, const struct model_row *r,
    int k)
{
	const struct rl_set *s = md->s;
	int i, others = 0;

	if (r->dir == VB_INFO || !rl_find(&s->k[k], id) || !r->d[k].n ||
	    !isfinite(r->d[k].mean))
		return 0;
	for (i = 0; i < s->nk; i++) {
		if (!rl_find(&s->k[i], id) || !r->d[i].n ||
		    !isfinite(r->d[i].mean))
			continue;
		if (r->dir == VB_LOWER ? r->d[i].mean < r->d[k].mean :
		    r->d[i].mean > r->d[k].mean)
			return 0;
		if (i && (!k || i == k)) {
			if (!r->d[0].n || model_verdict(md, r, i,
			    NULL)->word != RV_CHANGED)
				return 0;
			others++;
		}
	}
	return others > 0;
}

/*
 * The verdict of kernel @k on @r as a class ("changed better",
 * "changed worse", "changed", "same", "cant") for its colour.
 */
static const char *
verdict_class(const struct model_row *r, const struct rv_verdict *v)
{
	if (v->word == RV_SAME)
		return "same";
	if (v->word != RV_CHANGED)
		return "cant";
	if (r->dir == VB_INFO || isnan(v->change))
		return "changed";
	return v->change > 0 ? "changed better" : "changed worse";
}

/*
 * The verdict's words, as the text report's verdict line has them
 * (table_verdict_word()): "changed* -33.2%", "same +-1%", "can't tell".
 */
static void
verdict_words(FILE *f, const struct model_row *r, const struct rv_verdict *v)
{
	char w[64], p[32];

	html_esc(f, table_verdict_word(w, sizeof(w), v));
	if (v->word == RV_CHANGED && !isnan(v->change) && r->dir != VB_INFO)
		fprintf(f, " %s", fmt_pct(p, sizeof(p), v->change));
}

/* data-v: the number a column sorts by ("" when there is none). */
static void
data_v(FILE *f, const struct model_row *r, int k, int has)
{
	if (has && r->d[k].n && isfinite(r->d[k].mean))
		fprintf(f, " data-v=\"%.10g\"", r->d[k].mean);
}

static void
summary(FILE *f, const struct model *md, struct model_row **rows,
    const int *hl)
{
	const struct rl_set *s = md->s;
	char a[160], num[64];
	int i, j;

	fputs("<section id=\"summary\"><h2>Summary</h2>\n<p>Each "
	    "benchmark's headline figure, mean of runs; unit with + higher "
	    "is better, - lower is better; the best of each column is "
	    "marked (green) where the verdict is changed; under each "
	    "kernel's figure its verdict against the baseline on the run "
	    "means, as the text report and the "
	    "tables below give it: changed (* a test in the family, with "
	    "the change, + = better), same within +-X%, or can't tell.  "
	    "Click a column's header to sort by it.</p>\n"
	    "<div class=\"scroll\"><table id=\"summary-table\">"
	    "<thead><tr><th class=\"sort\" data-col=\"0\">Kernel</th>", f);
	for (j = 0; j < s->nids; j++) {
		const struct model_row *r = hl[j] >= 0 ? &rows[j][hl[j]] : NULL;
		const char *at = strchr(s->ids[j], '@');

		fprintf(f, "<th class=\"sort\" data-col=\"%d\">"
		    "<a href=\"#%s\">", j + 1, anchor(a, sizeof(a), j,
		    s->ids[j]));
		snprintf(num, sizeof(num), "%.*s", at ? (int)(at -
		    s->ids[j]) : (int)strlen(s->ids[j]), s->ids[j]);
		html_esc(f, num);
		if (at) {
			fputs("<br>", f);
			html_esc(f, at);
		}
		fputs("</a><br>", f);
		if (r) {
			html_esc(f, r->unit);
			fputs(r->dir == VB_HIGHER ? "+" : r->dir == VB_LOWER ?
			    "-" : "", f);
		}
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < s->nk; i++) {
		fprintf(f, "<tr class=\"k%s\" data-k=\"%d\"><td>", i ? "" :
		    " base", i);
		html_esc(f, s->k[i].label);
		fputs("</td>", f);
		for (j = 0; j < s->nids; j++) {
			const struct model_row *r = hl[j] >= 0 ?
			    &rows[j][hl[j]] : NULL;
			int has = r && rl_find(&s->k[i], s->ids[j]);

			fprintf(f, "<td class=\"num%s\"", r && is_best(md,
			    s->ids[j], r, i) ? " best" : "");
			if (r)
				data_v(f, r, i, has);
			fputc('>', f);
			if (!has) {
				fputs("missing</td>", f);
				continue;
			}
			fprintf(f, "%s%s", fmt_short(num, sizeof(num),
			    r->d[i].n ? r->d[i].mean : NAN), i &&
			    r->other_work[i] ? " (!work)" : i &&
			    r->c[i].sig && r->dir != VB_INFO ? "*" : "");
			if (i && r->d[i].n && r->d[0].n) {
				const struct rv_verdict *v =
				    model_verdict(md, r, i, NULL);

				fprintf(f, "<span class=\"vw %s\">",
				    verdict_class(r, v));
				verdict_words(f, r, v);
				fputs("</span>", f);
			}
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n</section>\n", f);
}

/* The benchmarks' own tables (FORM_PAGE: contest's, tworead's), as text. */
static void
page_forms(FILE *f, const struct rl_set *s)
{
	char *text;
	size_t len;
	FILE *mem;
	int i;

	for (i = 0; forms[i]; i++) {
		if (!(forms[i]->flags & FORM_PAGE))
			continue;
		text = NULL;
		len = 0;
		if (!(mem = open_memstream(&text, &len)))
			die_errno("cannot build the page");
		/* every kernel in one block: the page scrolls */
		forms[i]->table(mem, s, forms[i]->bench, 16 + 12 * s->nk);
		if (fclose(mem) != 0)
			die_errno("cannot build the page");
		if (!len) {
			free(text);
			continue;
		}
		fprintf(f, "<section id=\"%s\"><h2>%s</h2>\n<p>%s</p>\n",
		    forms[i]->anchor, forms[i]->title, forms[i]->about);
		pre_of(f, "post", text, len);
		fputs("</section>\n", f);
	}
}

/* One metric's row of the comparison table. */
static void
cmp_row(FILE *f, const struct rl_set *s, const char *id,
    const struct model_row *r, const struct report_opts *o)
{
	char num[64], pct[32];
	int k;

	fputs("<tr><td>", f);
	html_esc(f, r->name);
	if (model_row_noisy(r, s->nk, o->noisy))
		fputs("~", f);
	if (*model_scope_tag(r->scope))
		fprintf(f, " %s", model_scope_tag(r->scope));
	fputs("</td><td>", f);
	html_esc(f, r->unit);
	fputs("</td>", f);
	for (k = 0; k < s->nk; k++) {
		int sig = k && r->c[k].sig && r->dir != VB_INFO;

		fprintf(f, "<td class=\"num%s\"", !sig ? "" :
		    r->c[k].pct > 0 ? " better" : " worse");
		data_v(f, r, k, rl_find(&s->k[k], id) != NULL);
		fputc('>', f);
		if (!rl_find(&s->k[k], id))
			fputs("missing", f);
		else if (!r->d[k].n)
			fputs("-", f);
		else if (!k)
			fputs(table_mean(num, sizeof(num), r, s->nk, k), f);
		else if (r->other_work[k])	/* not compared: the notes */
			fprintf(f, "%s (!work)", table_mean(num, sizeof(num),
			    r, s->nk, k));
		else
			fprintf(f, "%s (%s)%s", table_mean(num, sizeof(num),
			    r, s->nk, k), fmt_pct(pct, sizeof(pct),
			    r->c[k].pct), sig ? "*" : "");
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* Drop a UTF-8 sequence cut short at the end of @s. */
static void
cut_utf8(char *s)
{
	size_t n = strlen(s), i = n;

	while (i > 0 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
		i--;
	if (i > 0 && (unsigned char)s[i - 1] >= 0xc0 &&
	    vb_utf8_len(s + i - 1, n - i + 1) == 0)
		s[i - 1] = '\0';
}

/* x of value @v on a chart from @lo to @hi. */
static double
xpos(double v, double lo, double hi)
{
	return CH_LABW + (v - lo) / (hi - lo) * CH_BARW;
}

/*
 * The error bar of @d, from the interval's low end to its high end,
 * clipped at the axis @x0 on the side away from the bar (an interval
 * of a positive mean that reaches below zero stops at the axis, without
 * its end cap, and does not run into the labels).
 */
static void
err_bar(FILE *f, const struct rs_desc *d, double lo, double hi, double x0)
{
	double a = xpos(d->ci_lo, lo, hi), b = xpos(d->ci_hi, lo, hi);
	int capa = 1, capb = 1;

	if (d->mean >= 0 && a < x0) {
		a = x0;
		capa = 0;
	}
	if (d->mean < 0 && b > x0) {
		b = x0;
		capb = 0;
	}
	fprintf(f, "<line class=\"err\" x1=\"%.1f\" x2=\"%.1f\" y1=\"9\" "
	    "y2=\"9\"/>", a, b);
	if (capa)
		fprintf(f, "<line class=\"err\" x1=\"%.1f\" x2=\"%.1f\" "
		    "y1=\"5\" y2=\"13\"/>", a, a);
	if (capb)
		fprintf(f, "<line class=\"err\" x1=\"%.1f\" x2=\"%.1f\" "
		    "y1=\"5\" y2=\"13\"/>", b, b);
}

/*
 * The headline's bar chart: one row per kernel (the kernels' order;
 * the script reorders by value), a bar from 0 to the mean, the 95% CI
 * of the run means as an error bar (clipped at the axis), the value at the
 * right and after it the kernel's verdict against the baseline (the
 * text report's words).  The bar is green or red when the verdict is
 * changed*, better or worse.
 */
static void
chart(FILE *f, const struct model *md, const char *id,
    const struct model_row *r)
{
	const struct rl_set *s = md->s;
	struct rs_desc *rd = vb_xcalloc((size_t)s->nk, sizeof(*rd));
	double lo = 0, hi = 0, x0, x1;
	char num[64];
	int k, h = CH_TOP + CH_ROWH * s->nk + 8;

	/* the table's mean; the interval and the count of the runs */
	for (k = 0; k < s->nk; k++) {
		struct rs_desc run;
		double *v = NULL;
		int nv = model_run_means(&s->k[k], id, r->name, &v);

		rs_describe(v, nv, 1, &run);
		free(v);
		rd[k] = r->d[k];
		if (rd[k].n) {
			rd[k].n = run.n;
			rd[k].ci_lo = run.ci_lo;
			rd[k].ci_hi = run.ci_hi;
		}
	}
	for (k = 0; k < s->nk; k++) {
		const struct rs_desc *d = &rd[k];

		if (!d->n || !isfinite(d->mean))
			continue;
		lo = fmin(lo, d->mean);
		hi = fmax(hi, d->mean);
		/* the interval's end beyond the axis is clipped there */
		if (isfinite(d->ci_lo) && isfinite(d->ci_hi)) {
			if (d->mean >= 0)
				hi = fmax(hi, d->ci_hi);
			else
				lo = fmin(lo, d->ci_lo);
		}
	}
	if (!(hi > lo))
		hi = lo + 1;
	fprintf(f, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "data-dir=\"%s\" data-top=\"%d\" data-rowh=\"%d\">\n<text x=\"0\" "
	    "y=\"16\" font-weight=\"bold\">", CH_LABW + CH_BARW + CH_VALW +
	    CH_WORDW, h, CH_LABW + CH_BARW + CH_VALW + CH_WORDW, h,
	    r->dir == VB_LOWER ? "lower" :
	    r->dir == VB_HIGHER ? "higher" : "info", CH_TOP, CH_ROWH);
	html_esc(f, r->name);
	fputs(" (", f);
	html_esc(f, r->unit);
	fprintf(f, "), mean of runs, 95%% CI; %s; the verdict against the "
	    "baseline at the right</text>\n", r->dir ==
	    VB_LOWER ? "lower is better" : r->dir == VB_HIGHER ?
	    "higher is better" : "information");
	x0 = xpos(0, lo, hi);
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
	    "stroke=\"#999\"/>\n", x0, x0, CH_TOP - 4, h - 4);
	for (k = 0; k < s->nk; k++) {
		const struct rs_desc *d = &rd[k];
		char cut[32];
		int has = rl_find(&s->k[k], id) && d->n && isfinite(d->mean);

		fprintf(f, "<g class=\"row%s\" data-k=\"%d\"", has ? "" :
		    " missing", k);
		if (has)
			fprintf(f, " data-v=\"%.10g\"", d->mean);
		fprintf(f, " transform=\"translate(0,%d)\"><title>",
		    CH_TOP + CH_ROWH * k);
		html_esc(f, s->k[k].label);
		if (has) {
			fprintf(f, ": %.6g ", d->mean);
			html_esc(f, r->unit);
			if (isfinite(d->ci_lo) && isfinite(d->ci_hi))
				fprintf(f, ", 95%% CI [%.6g, %.6g]", d->ci_lo,
				    d->ci_hi);
			fprintf(f, ", %d run%s", d->n, d->n == 1 ? "" : "s");
		}
		fprintf(f, "</title><text x=\"%d\" y=\"13\" "
		    "text-anchor=\"end\">", CH_LABW - 6);
		/* long labels cut: the title above has them whole */
		snprintf(num, sizeof(num), "%s", fmt_label(cut, sizeof(cut),
		    s, k, 24));
		cut_utf8(num);
		html_esc(f, num);
		fputs("</text>", f);
		if (!has) {
			fprintf(f, "<text x=\"%d\" y=\"13\">missing"
			    "</text></g>\n", CH_LABW + 4);
			continue;
		}
		x1 = xpos(d->mean, lo, hi);
		fprintf(f, "<rect class=\"bar %s\" x=\"%.1f\" y=\"3\" "
		    "width=\"%.1f\" height=\"12\"/>", !k ? "base" :
		    r->c[k].sig && r->dir != VB_INFO ? (r->c[k].pct > 0 ?
		    "better" : "worse") : "same", fmin(x0, x1),
		    fmax(fabs(x1 - x0), 0.5));
		if (isfinite(d->ci_lo) && isfinite(d->ci_hi))
			err_bar(f, d, lo, hi, x0);
		fprintf(f, "<text x=\"%d\" y=\"13\">%s ", CH_LABW + CH_BARW +
		    6, table_mean(num, sizeof(num), r, s->nk, k));
		html_esc(f, r->unit);
		fputs("</text>", f);
		if (k && r->d[0].n) {
			const struct rv_verdict *v = model_verdict(md, r, k,
			    NULL);

			fprintf(f, "<text class=\"vw %s\" x=\"%d\" y=\"13\">",
			    verdict_class(r, v), CH_LABW + CH_BARW + CH_VALW);
			verdict_words(f, r, v);
			fputs("</text>", f);
		}
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
	free(rd);
}

/* One benchmark's section. */
static void
bench(FILE *f, const struct model *md, int i, struct model_row *rows,
    int nrows, int h, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	const char *id = s->ids[i];
	const struct vb_res *r0 = NULL;
	struct vb_buf diffs = VB_BUF_INIT;
	struct report_opts wide = *o;
	char a[160], *text = NULL;
	size_t len = 0;
	FILE *mem;
	int k, j, shown = 0;

	for (k = 0; k < s->nk && !r0; k++)
		r0 = rl_find(&s->k[k], id);
	fprintf(f, "<section class=\"bench\" id=\"%s\"><h2>",
	    anchor(a, sizeof(a), i, id));
	html_esc(f, id);
	fputs(" <a href=\"#summary\">&uarr;</a></h2>\n<p class=\"cmd\">"
	    "<code>", f);
	html_esc(f, r0 ? r0->cmdline : "");
	fputs("</code></p>\n", f);
	if (rl_param_diffs(s, id, &diffs)) {
		fputs("<p class=\"warn\">parameters differ "
		    "(--allow-different-params):</p>", f);
		pre_of(f, "warn", vb_xstrdup(vb_buf_str(&diffs)), diffs.len);
	}
	vb_buf_free(&diffs);
	wide.width = 200;
	if (!(mem = open_memstream(&text, &len)))
		die_errno("cannot build the page");
	setup_quiet_warn(mem, s, id, &wide);
	setup_run_load_lines(mem, md, id, &wide);
	if (fclose(mem) != 0)
		die_errno("cannot build the page");
	pre_of(f, "warn", text, len);
	fputs("<div class=\"scroll\"><table class=\"cmp\"><thead><tr>"
	    "<th>metric</th><th>unit</th>", f);
	for (k = 0; k < s->nk; k++) {
		const struct vb_res *r = rl_find(&s->k[k], id);

		fputs("<th>", f);
		html_esc(f, s->k[k].label);
		fputs(r && strcmp(r->status, "complete") ? "!" : "", f);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (j = 0; j < nrows; j++)
		if (model_row_shown(&rows[j], s->nk)) {
			cmp_row(f, s, id, &rows[j], o);
			shown++;
		}
	fputs("</tbody></table></div>\n", f);
	if (!shown)
		fputs("<p>(every metric is zero or absent)</p>\n", f);
	text = NULL;
	if (!(mem = open_memstream(&text, &len)))
		die_errno("cannot build the page");
	table_notes(mem, s, id, rows, nrows, &wide);
	setup_others_note(mem, s, id, rows, nrows, &wide);
	if (fclose(mem) != 0)
		die_errno("cannot build the page");
	pre_of(f, "notes", text, len);
	/* the headline's verdict, the text report's line */
	text = NULL;
	if (!(mem = open_memstream(&text, &len)))
		die_errno("cannot build the page");
	table_verdict_line(mem, md, id, rows, nrows, &wide);
	if (fclose(mem) != 0)
		die_errno("cannot build the page");
	if (len) {
		fputs("<p class=\"verdict\">", f);
		html_esc(f, text);
		fputs("</p>\n", f);
	}
	free(text);
	if (h >= 0)
		chart(f, md, id, &rows[h]);
	fputs("</section>\n", f);
}

/* The whole page into @f. */
static void
page(FILE *f, const struct model *md, const struct report_opts *o)
{
	const struct rl_set *s = md->s;
	struct model_row **rows = vb_xcalloc((size_t)s->nids + 1,
	    sizeof(*rows));
	int *nrows = vb_xcalloc((size_t)s->nids + 1, sizeof(int));
	int *hl = vb_xcalloc((size_t)s->nids + 1, sizeof(int));
	const char *ver = rl_meta(&s->k[0], "vmbench_version");
	char a[160];
	int j;

	for (j = 0; j < s->nids; j++) {
		nrows[j] = model_rows(md, s->ids[j], &rows[j]);
		hl[j] = model_headline(s, s->ids[j], rows[j], nrows[j]);
	}
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\">\n%s\n<meta name=\"viewport\" "
	    "content=\"width=device-width\">\n<title>vmbench: %d kernel%s, "
	    "baseline ", RH_MARK, s->nk, s->nk == 1 ? "" : "s");
	html_esc(f, s->k[0].label);
	fprintf(f, "</title>\n<style>\n%s</style></head>\n<body>\n<h1>vmbench "
	    "results: %d kernel%s, %d benchmark%s, baseline ", style, s->nk,
	    s->nk == 1 ? "" : "s", s->nids, s->nids == 1 ? "" : "s");
	html_esc(f, s->k[0].label);
	model_ready(md);
	fputs("</h1>\n<p id=\"legend\">Means of all runs; (+x.xx%) is the "
	    "change against the baseline, positive = better (for info "
	    "metrics: the plain change).  Each kernel's verdict against the "
	    "baseline, on the run means as in the text report: ", f);
	if (md->runs_max < 2)
		fputs("<b>changed</b>, * when a test on the run means (two "
		    "runs a side or more; Holm over the key figures) says so",
		    f);
	else {
		struct vb_buf w = VB_BUF_INIT;

		table_family_words(&w, md, md->detail);
		fputs("<b>changed</b>, * when ", f);
		html_esc(f, vb_buf_str(&w));
		vb_buf_free(&w);
	}
	fprintf(f, " A change is at least %g%% (never on info "
	    "metrics), green better, red worse.%s  "
	    "~ noisy (CoV &gt; %.0f%%); ! run incomplete; [system] a counter "
	    "of the whole machine, [cgroup] of the benchmark's memory cgroup."
	    "%s", md->min_change, md->runs_min == 1 ?
	    "  Where a side has one run nothing is starred: a difference "
	    "includes run-to-run drift that one run a side cannot measure."
	    : "", o->noisy * 100, ver ? " vmbench " : "");
	if (ver)
		html_esc(f, ver);
	fputs("</p>\n<div id=\"tools\"><a href=\"#settings\">settings</a> | "
	    "<a href=\"#summary\">summary</a> | <label><input "
	    "type=\"checkbox\" id=\"byvalue\"> charts: bars by value (best "
	    "first), else in the kernels' order</label></div>\n", f);
	settings(f, md, o);
	summary(f, md, rows, hl);
	page_forms(f, s);
	fputs("<nav id=\"benchmarks\"><h2>Benchmarks</h2><p>", f);
	for (j = 0; j < s->nids; j++) {
		fprintf(f, "%s<a href=\"#%s\">", j ? " | " : "",
		    anchor(a, sizeof(a), j, s->ids[j]));
		html_esc(f, s->ids[j]);
		fputs("</a>", f);
	}
	fputs("</p></nav>\n", f);
	for (j = 0; j < s->nids; j++)
		bench(f, md, j, rows[j], nrows[j], hl[j], o);
	fprintf(f, "<script>\n%s</script>\n</body></html>\n", script);
	free(rows);
	free(nrows);
	free(hl);
}

int
html_page(const struct model *m, const char *dir,
    const struct report_opts *o)
{
	const struct rl_set *s = m->s;
	struct vb_wfile w;
	char *text = NULL;
	size_t len = 0;
	FILE *mem, *f;
	int bad, dfd;

	if ((dfd = check_dir(s, dir)) < 0)
		return -1;
	if (!(mem = open_memstream(&text, &len)))
		die_errno("cannot build the page");
	page(mem, m, o);
	if (fclose(mem) != 0)
		die_errno("cannot build the page");
	/* a temporary made with O_EXCL in the checked folder, renamed */
	if (!(f = vb_wfile_open(&w, dfd, "index.html", 0644))) {
		vb_warn_errno("cannot write %s/index.html", dir);
		free(text);
		close(dfd);
		return -1;
	}
	bad = fwrite(text, 1, len, f) != len;
	free(text);
	if (bad) {
		vb_warn_errno("cannot write %s/index.html", dir);
		vb_wfile_abort(&w);
		close(dfd);
		return -1;
	}
	if (vb_wfile_commit(&w) != 0) {
		vb_warn_errno("cannot write %s/index.html", dir);
		close(dfd);
		return -1;
	}
	close(dfd);
	return 0;
}
