/*
 * vmreport - compare result folders: report/vmreport [options] DIR...
 * The first folder is the baseline.  Reads only; never runs a benchmark
 * and never writes into a result folder (charts go to --plot DIR, the
 * results page to --html DIR).
 *
 * The options are lib/opt tables (parsing, --help and validation, as
 * in every other program): the common ones (common_opts[]) and one
 * row per view (VIEWS below), which holds the view's option, its help
 * line and what runs it.  A view is its two files, views/NAME.{c,h},
 * and one row (tests/check_vmreport.c, views_table, reads the rows).
 *
 * Exit status: 0 fine, 1 bad input (one line on stderr), 2 bad usage,
 * 3 --fail-on-regression found a regression (a change marked
 * significant, so at least --min-change, and worse than its PCT).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "model.h"
#include "opt.h"
#include "parentwatch.h"
#include "options.h"
#include "rload.h"
#include "setup.h"
#include "views/dump.h"
#include "views/export.h"
#include "views/gate.h"
#include "views/html.h"
#include "views/plot.h"
#include "views/post.h"
#include "views/text.h"

/*
 * The text goes out with trailing blanks removed from every line
 * (aligned columns leave some), so mail clients and `git diff` see
 * clean lines.  With @esc (the text views) control characters and
 * bytes that are not UTF-8, which labels, file names and values read
 * from result folders may hold, are shown escaped (vb_fput_esc()):
 * they cannot drive the terminal.  Each line is done on its own.
 */
static void
put_stripped(FILE *out, const char *buf, size_t n, int esc)
{
	const char *nl;
	size_t i = 0, e, t;

	while (i < n) {
		nl = memchr(buf + i, '\n', n - i);
		e = nl ? (size_t)(nl - buf) : n;
		t = e;
		while (t > i && (buf[t - 1] == ' ' || buf[t - 1] == '\t'))
			t--;
		if (esc)
			vb_fput_esc(out, buf + i, t - i, 0);
		else
			fwrite(buf + i, 1, t - i, out);
		if (e < n)
			fputc('\n', out);
		i = e + 1;
	}
}

/*
 * The stream the views print into (strip_open()): each whole line goes
 * out through put_stripped() as it comes, the last one at fclose();
 * with @hold everything waits for fclose(), for a view that may still
 * fail half-way (--vmstat, on a bad sample line): then nothing is
 * printed.  Reports of many folders run to tens of megabytes, which
 * need not be held in memory.
 */
struct strip {
	FILE *out;
	int esc, hold;
	char *part;			/* not yet out: a line's start */
	size_t len, cap;
};

/* Append @n bytes at @p to @st's part. */
static void
part_add(struct strip *st, const char *p, size_t n)
{
	if (st->len + n > st->cap) {
		st->cap = st->cap ? st->cap : 256;
		while (st->len + n > st->cap)
			st->cap *= 2;
		st->part = vb_xrealloc(st->part, st->cap);
	}
	memcpy(st->part + st->len, p, n);
	st->len += n;
}

static ssize_t
strip_write(void *cookie, const char *p, size_t n)
{
	struct strip *st = cookie;
	const char *nl = st->hold ? NULL : memrchr(p, '\n', n);
	size_t done = 0;

	if (nl) {
		done = (size_t)(nl - p) + 1;
		if (st->len) {
			part_add(st, p, done);
			put_stripped(st->out, st->part, st->len, st->esc);
			st->len = 0;
		} else {
			put_stripped(st->out, p, done, st->esc);
		}
	}
	if (done < n)
		part_add(st, p + done, n - done);
	return (ssize_t)n;
}

static int
strip_close(void *cookie)
{
	struct strip *st = cookie;

	put_stripped(st->out, st->part, st->len, st->esc);
	free(st->part);
	free(st);
	return 0;
}

/* A stream whose text goes to @out as put_stripped() prints it. */
static FILE *
strip_open(FILE *out, int esc, int hold)
{
	static const cookie_io_functions_t io = {
		.write = strip_write,
		.close = strip_close,
	};
	struct strip *st = vb_xcalloc(1, sizeof(*st));
	FILE *f;

	st->out = out;
	st->esc = esc;
	st->hold = hold;
	if (!(f = fopencookie(st, "w", io)))
		free(st);
	return f;
}

/*
 * --only: keep the ids named in @list (a bench name keeps its variants);
 * a list that names none ("", ",") is refused, not an empty report.
 */
static void
keep_only(struct rl_set *s, const char *list)
{
	char *copy = strdup(list), *w, *save = NULL;
	int *keep = calloc((size_t)s->nids + 1, sizeof(int)), i, n = 0;

	if (!copy || !keep)
		die("out of memory");
	if (!list[strspn(list, ",")]) {
		vb_die_status = 2;
		die("--only: no benchmark named (give bench or bench@variant, "
		    "comma-separated)");
	}
	for (w = strtok_r(copy, ",", &save); w;
	    w = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(w);
		int hit = 0;

		for (i = 0; i < s->nids; i++)
			if (!strcmp(s->ids[i], w) || (!strchr(w, '@') &&
			    !strncmp(s->ids[i], w, len) &&
			    s->ids[i][len] == '@'))
				keep[i] = hit = 1;
		if (!hit)
			die("--only: no benchmark '%s' in the folders given",
			    w);
	}
	for (i = 0; i < s->nids; i++)
		if (keep[i])
			s->ids[n++] = s->ids[i];
	s->nids = n;
	free(keep);
	free(copy);
}

/*
 * The folder of --plot or --html: no control character (it goes into
 * messages and gnuplot's scripts, one line each), refused in one line
 * that shows it escaped.
 */
static const char *
dir_arg(const char *opt, const char *s)
{
	char shown[200];
	const unsigned char *p;
	size_t n = 0;
	int bad = 0;

	for (p = (const unsigned char *)s; *p && n + 5 < sizeof(shown); p++)
		if (*p < 0x20 || *p == 0x7f) {
			n += (size_t)snprintf(shown + n, sizeof(shown) - n,
			    "\\x%02x", *p);
			bad = 1;
		} else {
			shown[n++] = (char)*p;
		}
	shown[n] = '\0';
	while (*p)
		bad |= *p < 0x20 || *p == 0x7f, p++;
	if (bad) {
		vb_die_status = 2;
		die("%s '%s%s': a control character in a folder name", opt,
		    shown, *p ? "..." : "");
	}
	return s;
}

/*
 * What a view's row stores its option into (struct args' v[]): a flag
 * (on), a value (s) or a number (d).
 */
struct vslot {
	int on;
	const char *s;
	double d;
};

#define VSLOT_FLAG	on
#define VSLOT_STR	s
#define VSLOT_DOUBLE	d

struct args;
struct vctx;

/*
 * The views, one row each: its name (views/NAME.{c,h} for a view of
 * its own file), the option that chooses it (NULL: the default, chosen
 * when no other printing view is), its type, argument, choices and
 * default as lib/opt takes them, its help line, when it runs and how
 * it prints, and its entry (run_NAME() below).  When: OUT, printed on
 * standard output, the first chosen row alone; FILES, files written
 * after it (with no OUT row chosen, the default is not printed);
 * GATE, last, its lines on standard error.  Out: ESC, text shown with
 * control characters escaped; HOLD, nothing printed when it fails.
 */
#define VIEWS(X) \
X(dump, "vmstat", STR, "BENCH", NULL, NULL, \
    "BENCH's sampled series as `vmstat 1` dumps", OUT, ESC | HOLD) \
X(export, "format", STR, "FORM", "text|csv|json", "text", \
    "output form", OUT, 0) \
X(post, "post", FLAG, NULL, NULL, NULL, \
    "a mail-ready text body (make post)", OUT, ESC) \
X(summary, "summary", FLAG, NULL, NULL, NULL, \
    "only the kernel-per-row summary tables", OUT, ESC) \
X(text, NULL, FLAG, NULL, NULL, NULL, NULL, OUT, ESC) \
X(plot, "plot", STR, "DIR", NULL, NULL, \
    "write gnuplot charts (PNG, SVG) into DIR", FILES, 0) \
X(html, "html", STR, "DIR", NULL, NULL, \
    "write the results page DIR/index.html", FILES, 0) \
X(gate, "fail-on-regression", DOUBLE, "PCT", NULL, NULL, \
    "exit 3 if a figure is starred, PCT% worse", GATE, 0)

enum view_when { OUT, FILES, GATE };
enum { ESC = 1, HOLD = 2 };

#define X(name, opt, type, arg, choices, def, help, when, how) V_##name,
enum view_id { VIEWS(X) NVIEWS };
#undef X

/* The command line, as the tables store it. */
struct args {
	const char *what, *only;
	int detail, allow_diff, help;
	double iter, noisy, width, min_change, alpha, useful, quiet, mem;
	struct vslot v[NVIEWS];
};

/* What a view's entry gets: the parsed folders, model and options. */
struct vctx {
	const struct args *a;
	struct rl_set *s;
	struct model *m;
	struct report_opts *o;
	FILE *out;			/* OUT: the stream it prints into */
};

/* An OUT entry returns 0 or -1 (HOLD: nothing printed); FILES and
   GATE its exit status, 0 when fine. */
#define X(name, opt, type, arg, choices, def, help, when, how) \
static int run_##name(struct vctx *c);
VIEWS(X)
#undef X

struct view {
	const char *name;
	struct vb_opt opt;		/* .name NULL: the default */
	enum view_when when;
	int how;
	int (*run)(struct vctx *c);
};

#define X(v_, opt_, t_, arg_, choices_, def_, help_, when_, how_) \
	{ #v_, { .name = opt_, .type = VB_OPT_##t_, \
	  .off = offsetof(struct args, v[V_##v_]) + \
	  offsetof(struct vslot, VSLOT_##t_), .arg = arg_, \
	  .choices = choices_, .def = def_, .help = help_, \
	  .dmin = 0, .dmax = 1e6 }, when_, how_, run_##v_ },
static const struct view views[] = { VIEWS(X) };
#undef X

#define ARGOFF(f)	offsetof(struct args, f)

/* The options of every view, after the views' own (--help's order). */
static const struct vb_opt common_opts[] = {
	{ .name = "what", .type = VB_OPT_STR, .off = ARGOFF(what),
	  .arg = "TABLE", .choices = "metrics|settings|summary",
	  .help = "CSV's table (metrics)" },
	{ .name = "iter", .type = VB_OPT_DOUBLE, .off = ARGOFF(iter),
	  .arg = "N", .dmin = 1, .dmax = 1e6,
	  .help = "with --vmstat: only iteration N" },
	{ .name = "detail", .type = VB_OPT_FLAG, .off = ARGOFF(detail),
	  .help = "every metric and its statistics" },
	{ .name = "only", .type = VB_OPT_STR, .off = ARGOFF(only),
	  .arg = "LIST", .help = "only these benchmarks (bench,bench@variant)" },
	{ .name = "allow-different-params", .type = VB_OPT_FLAG,
	  .off = ARGOFF(allow_diff),
	  .help = "compare runs whose parameters differ" },
	{ .name = "noisy", .type = VB_OPT_DOUBLE, .off = ARGOFF(noisy),
	  .arg = "PCT", .def = "5", .dmin = 0, .dmax = 1e4,
	  .help = "CoV above which a metric is noisy" },
	{ .name = "min-change", .type = VB_OPT_DOUBLE,
	  .off = ARGOFF(min_change), .arg = "PCT", .def = "1", .dmin = 0,
	  .dmax = 1e6, .help = "smallest change ever starred" },
	{ .name = "alpha", .type = VB_OPT_DOUBLE, .off = ARGOFF(alpha),
	  .arg = "P", .def = "0.05", .dmin = 1e-12, .dmax = 0.5,
	  .help = "the families' level" },
	{ .name = "useful", .type = VB_OPT_DOUBLE, .off = ARGOFF(useful),
	  .arg = "PCT", .def = "10", .dmin = 1e-3, .dmax = 1e6,
	  .help = "\"same +-X%\" up to X = PCT, else can't tell" },
	{ .name = "quiet-threshold", .type = VB_OPT_DOUBLE,
	  .off = ARGOFF(quiet), .arg = "PCT", .def = "5", .dmin = 0,
	  .dmax = 1e5, .help = "warn above PCT% of a CPU used by others" },
	{ .name = "mem-threshold", .type = VB_OPT_DOUBLE, .off = ARGOFF(mem),
	  .arg = "PCT", .def = "25", .dmin = 0, .dmax = 100,
	  .help = "warn above PCT% of memory held by others" },
	{ .name = "width", .type = VB_OPT_DOUBLE, .off = ARGOFF(width),
	  .arg = "N", .def = "80", .dmin = 40, .dmax = 1000,
	  .help = "text width" },
	{ .name = "help", .type = VB_OPT_FLAG, .off = ARGOFF(help),
	  .help = "this text" },
};

#define NVIEWS_ROWS	((int)(sizeof(views) / sizeof(views[0])))
#define NCOMMON		((int)(sizeof(common_opts) / sizeof(common_opts[0])))
#define NOPTS		(NVIEWS_ROWS + NCOMMON + 1)

/* The one table vb_opt_parse() reads: the views' options, the rest. */
static void
opt_table(struct vb_opt *tab)
{
	int i, n = 0;

	for (i = 0; i < NVIEWS_ROWS; i++)
		if (views[i].opt.name)
			tab[n++] = views[i].opt;
	for (i = 0; i < NCOMMON; i++)
		tab[n++] = common_opts[i];
	memset(&tab[n], 0, sizeof(tab[n]));
}

static void
usage(FILE *f, const struct vb_opt *tab)
{
	fprintf(f, "usage: vmreport [options] DIR...   (the first DIR is the "
	    "baseline)\n");
	vb_opt_usage(f, tab);
}

/* Is view @i chosen: its option given, with a value not its default? */
static int
chosen(const struct args *a, int i)
{
	const struct view *w = &views[i];

	if (!w->opt.name)
		return 0;
	switch (w->opt.type) {
	case VB_OPT_FLAG:
		return a->v[i].on;
	case VB_OPT_STR:
		return a->v[i].s && (!w->opt.def ||
		    strcmp(a->v[i].s, w->opt.def));
	default:
		return !isnan(a->v[i].d);
	}
}

/*
 * The command line into @a: the options (lib/opt: whole names only,
 * `--det` is no --detail) wherever they are, the folders (the other
 * words, and every word after "--") into @dirs; how many folders.
 * A bad option: one line, exit 2.
 */
static int
parse_args(int argc, char **argv, const struct vb_opt *tab, struct args *a,
    char **dirs)
{
	/* static: reachable when an option dies (LeakSanitizer) */
	static char **opts;
	char err[1024];
	int i, no = 0, nd = 0, dashes = 0;

	opts = vb_xcalloc((size_t)argc + 1, sizeof(*opts));
	for (i = 1; i < argc; i++) {
		const struct vb_opt *o = NULL;
		char name[64];
		const char *w = argv[i];

		if (dashes || w[0] != '-' || !w[1]) {
			dirs[nd++] = argv[i];
			continue;
		}
		if (!strcmp(w, "--")) {
			dashes = 1;
			continue;
		}
		if (w[1] != '-') {	/* no one-letter option */
			vb_die_status = 2;
			die("unknown option '%s' (see --help)", w);
		}
		opts[no++] = argv[i];
		if (w[1] == '-' && !strchr(w, '=')) {
			snprintf(name, sizeof(name), "%s", w + 2);
			o = vb_opt_find(tab, name);
		}
		/* its value: the next word, whatever it is */
		if (o && o->type != VB_OPT_FLAG && i + 1 < argc)
			opts[no++] = argv[++i];
	}
	for (i = 0; i < NVIEWS_ROWS; i++)
		a->v[i].d = NAN;
	if (vb_opt_parse(tab, a, no, opts, NULL, err, sizeof(err)) < 0) {
		vb_die_status = 2;
		die("%s", err);
	}
	free(opts);
	return nd;
}

/* ---- the views' entries, in the order of VIEWS ---- */

static int
run_dump(struct vctx *c)
{
	const char *id = c->a->v[V_dump].s;

	if (dump_vmstat(c->out, c->s, id, (int)c->a->iter, c->o->width) < 0)
		die("no %s.vmstat in any folder given", id);
	return 0;
}

static int
run_export(struct vctx *c)
{
	int what = c->a->what ? export_what_of(c->a->what) : EXPORT_METRICS;

	if (!strcmp(c->a->v[V_export].s, "json"))
		export_json(c->out, c->m, c->o);
	else if (what == EXPORT_SETTINGS)
		export_csv_settings(c->out, c->m, c->o);
	else if (what == EXPORT_SUMMARY)
		export_csv_summary(c->out, c->m, c->o);
	else
		export_csv(c->out, c->m, c->o);
	return 0;
}

static int
run_post(struct vctx *c)
{
	post_print(c->out, c->m, c->o);
	return 0;
}

static int
run_summary(struct vctx *c)
{
	text_summary(c->out, c->m, c->o);
	return 0;
}

static int
run_text(struct vctx *c)
{
	text_compare(c->out, c->m, c->o);
	return 0;
}

static int
run_plot(struct vctx *c)
{
	const char *gp = getenv("GNUPLOT");

	return plot_charts(c->m, c->a->v[V_plot].s, gp ? gp : "gnuplot",
	    c->o->detail) < 0;
}

static int
run_html(struct vctx *c)
{
	const struct rl_set *s = c->s;

	if (html_page(c->m, c->a->v[V_html].s, c->o) != 0)
		return 1;
	if (printf("vmreport: wrote %s/index.html (%d kernel%s, %d "
	    "benchmark%s)\n", c->a->v[V_html].s, s->nk, s->nk == 1 ? "" :
	    "s", s->nids, s->nids == 1 ? "" : "s") > 0 && fflush(stdout) !=
	    0 && errno != EPIPE)
		die_errno("cannot write the report");
	return 0;
}

static int
run_gate(struct vctx *c)
{
	double pct = c->a->v[V_gate].d;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int nd;

	/*
	 * A gate that could test nothing (one run a side, other work, no
	 * figure that can be worse) would pass whatever changed: said,
	 * and exit 1.
	 */
	model_ready(c->m);
	if ((c->o->detail ? c->m->ndetail : c->m->nhead + c->m->nkey) == 0) {
		fprintf(stderr, "vmreport: --fail-on-regression: no figure "
		    "could be tested (one run a side, other work, only info "
		    "figures): nothing to gate (exit 1)\n");
		return 1;
	}
	/* the lines name labels and ids: shown escaped */
	if (!(mem = open_memstream(&text, &len)))
		die_errno("cannot allocate the report");
	nd = gate_regressions(mem, c->m, pct);
	if (fclose(mem) != 0)
		die_errno("cannot build the report");
	vb_fput_esc(stderr, text, len, 1);
	free(text);
	if (nd <= 0)
		return 0;
	fprintf(stderr, "vmreport: regressions worse than %g%% found (exit "
	    "3)\n", pct);
	return 3;
}

/* Load the folders @dirs[0..@nd) into @s, --only applied. */
static void
load(struct rl_set *s, char **dirs, int nd, const struct args *a)
{
	char err[8192];
	int i;

	s->nk = nd;
	s->k = vb_xcalloc((size_t)s->nk, sizeof(*s->k));
	for (i = 0; i < s->nk; i++)
		if (rl_load_kernel(dirs[i], &s->k[i], err, sizeof(err)) != 0)
			die("%s", err);
	rl_index(s);
	if (s->nids == 0)
		die("no benchmark results (.res files) in %s%s",
		    s->nk == 1 ? "" : "any of the ", s->nk == 1 ? s->k[0].dir :
		    "folders given");
	/*
	 * --vmstat names a file: only a benchmark the folders hold, as
	 * every other reader reads only what it found there (never
	 * "../../x", which would read x.vmstat outside the folders).
	 */
	if (a->v[V_dump].s) {
		for (i = 0; i < s->nids && strcmp(s->ids[i],
		    a->v[V_dump].s); i++)
			;
		if (i == s->nids)
			die("--vmstat: no benchmark '%s' in the folders given",
			    a->v[V_dump].s);
	}
	if (a->only)
		keep_only(s, a->only);
}

/* Runs whose parameters differ: said, and refused unless allowed. */
static void
check_params(const struct rl_set *s, int allow)
{
	int i, nd = 0;

	for (i = 0; i < s->nids; i++) {
		struct vb_buf diffs = VB_BUF_INIT;

		/* file names and values: control characters escaped */
		if (rl_param_diffs(s, s->ids[i], &diffs) && !allow) {
			vb_fput_esc(stderr, diffs.s, diffs.len, 1);
			nd++;
		}
		vb_buf_free(&diffs);
	}
	if (nd)
		die("refusing to compare runs with different parameters (see "
		    "above; --allow-different-params to compare anyway)");
}

int
main(int argc, char **argv)
{
	struct vb_opt tab[NOPTS];
	struct args a = { .iter = 0 };
	struct report_opts o = { 0 };
	struct rl_set s = { 0 };
	struct model m;
	struct vctx c = { .a = &a, .s = &s, .m = &m, .o = &o };
	/* static: reachable until exit, also when an option dies (LSan) */
	static char **dirs;
	char name[64];
	int i, nd, out_view = V_text, files = 0, rc = 0, r;

	vb_set_progname("vmreport");
	/* | head: a reader that has seen enough is not an error (below) */
	signal(SIGPIPE, SIG_IGN);
	/* started by make: stop when make is stopped (parentwatch.h) */
	if (vb_parent_watch() < 0)
		vb_warn_errno("cannot watch make, its parent");
	opt_table(tab);
	dirs = vb_xcalloc((size_t)argc, sizeof(*dirs));
	nd = parse_args(argc, argv, tab, &a, dirs);
	if (a.help) {
		usage(stdout, tab);
		free(dirs);
		return 0;
	}
	for (i = NVIEWS_ROWS - 1; i >= 0; i--) {
		if (!chosen(&a, i))
			continue;
		if (views[i].when == OUT)
			out_view = i;
		files |= views[i].when == FILES;
		/* a folder to write into: no control character */
		if (views[i].opt.arg && !strcmp(views[i].opt.arg, "DIR")) {
			snprintf(name, sizeof(name), "--%s",
			    views[i].opt.name);
			dir_arg(name, a.v[i].s);
		}
	}
	if (files && out_view == V_text)
		out_view = -1;		/* files only: no text */
	if (a.what && out_view != V_export) {
		vb_die_status = 2;
		die("--what: only with --format csv (JSON holds every table)");
	}
	if (a.what && !strcmp(a.v[V_export].s, "json")) {
		vb_die_status = 2;
		die("--what: only with --format csv (JSON holds every table)");
	}
	if (nd == 0) {
		vb_die_status = 2;
		die("no result folder given (usage: vmreport [options] "
		    "DIR...; --help for more)");
	}
	if (a.only && !a.only[strspn(a.only, ",")]) {
		vb_die_status = 2;
		die("--only: no benchmark named (give bench or bench@variant, "
		    "comma-separated)");
	}
	o.width = (int)a.width;
	o.noisy = a.noisy / 100;
	o.detail = a.detail;
	o.allow_diff = a.allow_diff;
	o.quiet = a.quiet;
	o.mem_quiet = a.mem;
	load(&s, dirs, nd, &a);
	check_params(&s, o.allow_diff);
	model_init(&m, &s, a.min_change);
	m.alpha = a.alpha;
	m.useful = a.useful;
	m.detail = o.detail;
	m.quiet = o.quiet;
	m.mem_quiet = o.mem_quiet;

	if (!(c.out = strip_open(stdout, out_view >= 0 &&
	    (views[out_view].how & ESC), out_view >= 0 &&
	    (views[out_view].how & HOLD))))
		die_errno("cannot allocate the report");
	if (out_view >= 0)
		views[out_view].run(&c);
	if (fclose(c.out) != 0)
		die_errno("cannot build the report");
	if (fflush(stdout) != 0 && errno != EPIPE)
		die_errno("cannot write the report");
	for (i = 0; i < NVIEWS_ROWS; i++)
		if (views[i].when != OUT && chosen(&a, i) &&
		    (r = views[i].run(&c)) > rc)
			rc = r;
	model_free(&m);
	rl_free(&s);
	free(dirs);
	return rc;
}
