/*
 * vmreport - compare result folders: report/vmreport [options] DIR...
 * The first folder is the baseline.  Reads only; never runs a benchmark
 * and never writes into a result folder (charts go to --plot DIR, the
 * results page to --html DIR).
 *
 * Exit status: 0 fine, 1 bad input (one line on stderr), 2 bad usage,
 * 3 --fail-on-regression found a regression (a change marked
 * significant, so at least --min-change, and worse than its PCT).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
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

static void
usage(FILE *f)
{
	fprintf(f,
"usage: vmreport [options] DIR...   (the first DIR is the baseline)\n"
"  --format text|csv|json     output form (text)\n"
"  --what TABLE               with --format csv, which table: metrics (one\n"
"                             row per kernel, benchmark and metric),\n"
"                             settings (that differ; machines) or summary\n"
"                             (geometric means) (metrics)\n"
"  --summary                  only the kernel-per-row summary tables\n"
"  --post                     a mail-ready text body (make post)\n"
"  --detail                   every metric and its statistics (without:\n"
"                             each benchmark's key figures)\n"
"  --only LIST                only these benchmarks (comma-separated:\n"
"                             bench, or bench@variant)\n"
"  --vmstat BENCH             BENCH's sampled series as `vmstat 1` dumps\n"
"  --iter N                   with --vmstat: only iteration N\n"
"  --plot DIR                 write gnuplot charts (PNG, SVG) into DIR\n"
"  --html DIR                 write the results page DIR/index.html\n"
"  --fail-on-regression PCT   exit 3 if a metric is significantly worse\n"
"                             than the baseline by more than PCT%%\n"
"  --allow-different-params   compare runs whose parameters differ\n"
"  --noisy PCT                CoV above which a metric is noisy (5)\n"
"  --min-change PCT           smallest change ever marked (*) or counted\n"
"                             as a regression (1)\n"
"  --alpha P                  the families' level: Holm over the\n"
"                             headlines, Benjamini-Hochberg over the other\n"
"                             figures and with --detail\n"
"  --useful PCT               \"same +-X%%\" up to X = PCT, wider: can't tell\n"
"                             (10)\n"
"                             (0.05)\n"
"  --quiet-threshold PCT      warn when other processes used more than\n"
"                             PCT%% of a CPU during a run (5)\n"
"  --mem-threshold PCT        warn when other processes held more than\n"
"                             PCT%% of the memory during a run (25)\n"
"  --width N                  text width (80)\n");
}

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

static double
num_arg(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	/* decimal only: strtod() also takes hex floats, inf and nan */
	if (!vb_opt_decimal(s) || end == s || *end || errno ||
	    !(v >= lo && v <= hi)) {
		vb_die_status = 2;
		die("%s: bad value '%s' (a number from %g to %g)", opt, s, lo,
		    hi);
	}
	return v;
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

int
main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "what", required_argument, NULL, 'W' },
		{ "summary", no_argument, NULL, 's' },
		{ "post", no_argument, NULL, 'P' },
		{ "detail", no_argument, NULL, 'd' },
		{ "only", required_argument, NULL, 'o' },
		{ "vmstat", required_argument, NULL, 'v' },
		{ "iter", required_argument, NULL, 'i' },
		{ "plot", required_argument, NULL, 'p' },
		{ "html", required_argument, NULL, 'H' },
		{ "fail-on-regression", required_argument, NULL, 'r' },
		{ "allow-different-params", no_argument, NULL, 'a' },
		{ "noisy", required_argument, NULL, 'n' },
		{ "width", required_argument, NULL, 'w' },
		{ "min-change", required_argument, NULL, 'm' },
		{ "alpha", required_argument, NULL, 'A' },
		{ "useful", required_argument, NULL, 'U' },
		{ "quiet-threshold", required_argument, NULL, 'q' },
		{ "mem-threshold", required_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { .width = 80, .noisy = 0.05, .quiet = 5,
		.mem_quiet = SETUP_MEM_THRESHOLD };
	struct rl_set s = { 0 };
	struct model m;
	const char *format = "text", *vmstat = NULL, *plot = NULL;
	const char *only = NULL, *html = NULL;
	double regress = NAN, min_change = 1, alpha = 0.05, useful = 10;
	char err[8192], *text = NULL;
	size_t textlen = 0;
	FILE *mem, *out;
	int c, i, summary = 0, post = 0, iter = 0, nd = 0, rc = 0, what = -1;

	vb_set_progname("vmreport");
	/* | head: a reader that has seen enough is not an error (below) */
	signal(SIGPIPE, SIG_IGN);
	/* started by make: stop when make is stopped (parentwatch.h) */
	if (vb_parent_watch() < 0)
		vb_warn_errno("cannot watch make, its parent");
	opterr = 0;	/* a bad option: our one line, below */
	while ((c = getopt_long(argc, argv, ":h", lopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			if (strcmp(format, "text") && strcmp(format, "csv") &&
			    strcmp(format, "json")) {
				vb_die_status = 2;
				die("--format: '%s' is not text, csv or json",
				    format);
			}
			break;
		case 'W':
			if ((what = export_what_of(optarg)) < 0) {
				vb_die_status = 2;
				die("--what: '%s' is not metrics, settings or "
				    "summary", optarg);
			}
			break;
		case 's': summary = 1; break;
		case 'P': post = 1; break;
		case 'd': o.detail = 1; break;
		case 'o': only = optarg; break;
		case 'v': vmstat = optarg; break;
		case 'i': iter = (int)num_arg("--iter", optarg, 1, 1e6); break;
		case 'p': plot = dir_arg("--plot", optarg); break;
		case 'H': html = dir_arg("--html", optarg); break;
		case 'r':
			regress = num_arg("--fail-on-regression", optarg, 0,
			    1e6);
			break;
		case 'a': o.allow_diff = 1; break;
		case 'n': o.noisy = num_arg("--noisy", optarg, 0, 1e4) / 100;
			break;
		case 'w': o.width = (int)num_arg("--width", optarg, 40, 1000);
			break;
		case 'm':
			min_change = num_arg("--min-change", optarg, 0, 1e6);
			break;
		case 'A':
			alpha = num_arg("--alpha", optarg, 1e-12, 0.5);
			break;
		case 'U':
			useful = num_arg("--useful", optarg, 1e-3, 1e6);
			break;
		case 'q':
			o.quiet = num_arg("--quiet-threshold", optarg, 0, 1e5);
			break;
		case 'M':
			o.mem_quiet = num_arg("--mem-threshold", optarg, 0,
			    100);
			break;
		case 'h': usage(stdout); return 0;
		case ':':
			vb_die_status = 2;
			die("%s needs a value (see --help)", argv[optind - 1]);
		default:
			vb_die_status = 2;
			if (optopt && optopt != '?')
				die("unknown option '-%c' (see --help)", optopt);
			die("unknown option '%s' (see --help)",
			    argv[optind - 1]);
		}
	}
	if (what >= 0 && strcmp(format, "csv")) {
		vb_die_status = 2;
		die("--what: only with --format csv (JSON holds every table)");
	}
	if (optind >= argc) {
		vb_die_status = 2;
		die("no result folder given (usage: vmreport [options] "
		    "DIR...; --help for more)");
	}
	s.nk = argc - optind;
	s.k = calloc((size_t)s.nk, sizeof(*s.k));
	if (!s.k)
		die("out of memory");
	for (i = 0; i < s.nk; i++)
		if (rl_load_kernel(argv[optind + i], &s.k[i], err,
		    sizeof(err)) != 0)
			die("%s", err);
	rl_index(&s);
	if (s.nids == 0)
		die("no benchmark results (.res files) in %s%s",
		    s.nk == 1 ? "" : "any of the ", s.nk == 1 ? s.k[0].dir :
		    "folders given");
	/*
	 * --vmstat names a file: only a benchmark the folders hold, as
	 * every other reader reads only what it found there (never
	 * "../../x", which would read x.vmstat outside the folders).
	 */
	if (vmstat) {
		for (i = 0; i < s.nids && strcmp(s.ids[i], vmstat); i++)
			;
		if (i == s.nids)
			die("--vmstat: no benchmark '%s' in the folders given",
			    vmstat);
	}
	if (only)
		keep_only(&s, only);
	for (i = 0; i < s.nids; i++) {
		struct vb_buf diffs = VB_BUF_INIT;

		/* file names and values: control characters escaped */
		if (rl_param_diffs(&s, s.ids[i], &diffs) && !o.allow_diff) {
			vb_fput_esc(stderr, diffs.s, diffs.len, 1);
			nd++;
		}
		vb_buf_free(&diffs);
	}
	if (nd)
		die("refusing to compare runs with different parameters (see "
		    "above; --allow-different-params to compare anyway)");
	model_init(&m, &s, min_change);
	m.alpha = alpha;
	m.useful = useful;
	m.detail = o.detail;
	m.quiet = o.quiet;
	m.mem_quiet = o.mem_quiet;

	if (!(out = strip_open(stdout, vmstat || !strcmp(format, "text"),
	    vmstat != NULL)))
		die_errno("cannot allocate the report");
	if (vmstat) {
		if (dump_vmstat(out, &s, vmstat, iter, o.width) < 0)
			die("no %s.vmstat in any folder given", vmstat);
	} else if (!strcmp(format, "csv") && what == EXPORT_SETTINGS) {
		export_csv_settings(out, &m, &o);
	} else if (!strcmp(format, "csv") && what == EXPORT_SUMMARY) {
		export_csv_summary(out, &m, &o);
	} else if (!strcmp(format, "csv")) {
		export_csv(out, &m, &o);
	} else if (!strcmp(format, "json")) {
		export_json(out, &m, &o);
	} else if (post) {
		post_print(out, &m, &o);
	} else if (summary) {
		text_summary(out, &m, &o);
	} else if (!plot && !html) {
		text_compare(out, &m, &o);
	}
	if (fclose(out) != 0)
		die_errno("cannot build the report");
	if (fflush(stdout) != 0 && errno != EPIPE)
		die_errno("cannot write the report");
	if (plot && plot_charts(&m, plot, getenv("GNUPLOT") ?
	    getenv("GNUPLOT") : "gnuplot", o.detail) < 0)
		rc = 1;
	if (html && html_page(&m, html, &o) != 0)
		rc = 1;
	else if (html && printf("vmreport: wrote %s/index.html (%d kernel%s, "
	    "%d benchmark%s)\n", html, s.nk, s.nk == 1 ? "" : "s", s.nids,
	    s.nids == 1 ? "" : "s") > 0 && fflush(stdout) != 0 &&
	    errno != EPIPE)
		die_errno("cannot write the report");
	if (!isnan(regress)) {
		/* the lines name labels and ids: shown escaped */
		text = NULL;
		if (!(mem = open_memstream(&text, &textlen)))
			die_errno("cannot allocate the report");
		nd = gate_regressions(mem, &m, regress);
		if (fclose(mem) != 0)
			die_errno("cannot build the report");
		vb_fput_esc(stderr, text, textlen, 1);
		free(text);
		if (nd > 0) {
			fprintf(stderr, "vmreport: regressions worse than %g%% "
			    "found (exit 3)\n", regress);
			rc = 3;
		}
	}
	model_free(&m);
	rl_free(&s);
	return rc;
}
