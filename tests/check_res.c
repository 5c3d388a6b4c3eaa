/*
 * The .res writer and strict reader (src/lib/res.c): a full round trip, and
 * the reader refusing each kind of malformed file with the exact
 * "file:line: what is wrong".
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "res.h"
#include "testutil.h"
#include "util.h"

/* Values with at most 10 significant digits survive "%.10g" exactly. */
static const double vals[3][5] = {
	{ 2.5012, 3998.1, NAN, 0, -1.25 },
	{ 2.4873, 4020.4, 17, 1234567890, 1.234567891e-7 },
	{ NAN, NAN, NAN, 9.87654321e15, 42 },
};

static void
fill(struct vb_res *r)
{
	int i, j;

	vb_res_init(r, "forkbomb", "big");
	vb_res_set_cmdline(r, "forkbomb --forks 10000 --ints \"10 000\"");
	vb_res_add_param(r, "forks", "10000");
	vb_res_add_param(r, "ints", "10000");
	vb_res_add_param(r, "parent-mem", "64M");
	snprintf(r->status, sizeof(r->status), "complete");
	snprintf(r->started, sizeof(r->started), "2026-12-01T00:20:07Z");
	snprintf(r->ended, sizeof(r->ended), "2026-12-01T00:20:31Z");
	snprintf(r->headline, sizeof(r->headline), "forks_per_s");
	ck_assert_int_eq(vb_res_add_metric(r, "elapsed", "s", VB_LOWER), 0);
	ck_assert_int_eq(vb_res_add_metric(r, "forks_per_s", "forks/s",
	    VB_HIGHER), 1);
	ck_assert_int_eq(vb_res_add_metric(r, "pswpin", "kB", VB_LOWER), 2);
	ck_assert_int_eq(vb_res_add_metric(r, "pgfault", "faults", VB_INFO),
	    3);
	ck_assert_int_eq(vb_res_add_metric(r, "delta", "%", VB_INFO), 4);
	vb_res_set_key(r, 1, 1);
	vb_res_set_key(r, 3, 1);
	for (i = 0; i < 3; i++) {
		double *row = vb_res_add_iter(r);

		for (j = 0; j < 5; j++)
			ck_assert(isnan(row[j]));	/* absent until set */
		for (j = 0; j < 5; j++)
			row[j] = vals[i][j];
	}
}

/* No "<file>.tmp<pid>" may be left beside the result. */
static void
assert_no_tmp(void)
{
	struct dirent *de;
	DIR *d = opendir(tu_dir);

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		ck_assert_msg(strstr(de->d_name, ".tmp") == NULL,
		    "temporary file %s left behind", de->d_name);
	closedir(d);
}

START_TEST(round_trip)
{
	struct vb_res w, r;
	char path[512], err[1024];
	int i, j;

	fill(&w);
	tu_path(path, sizeof(path), "fb@big.res");
	ck_assert_int_eq(vb_res_write(path, &w), 0);
	assert_no_tmp();
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);

	ck_assert_str_eq(r.bench, "forkbomb");
	ck_assert_str_eq(r.variant, "big");
	ck_assert_str_eq(r.cmdline, w.cmdline);
	ck_assert_int_eq(r.nparams, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_str_eq(r.params[i].key, w.params[i].key);
		ck_assert_str_eq(r.params[i].val, w.params[i].val);
	}
	ck_assert_str_eq(vb_res_param(&r, "parent-mem"), "64M");
	ck_assert_ptr_null(vb_res_param(&r, "concurrency"));
	ck_assert_str_eq(r.status, "complete");
	ck_assert_str_eq(r.started, w.started);
	ck_assert_str_eq(r.ended, w.ended);
	ck_assert_str_eq(r.headline, "forks_per_s");
	ck_assert_int_eq(r.nmetrics, 5);
	for (j = 0; j < 5; j++) {
		ck_assert_str_eq(r.metrics[j].name, w.metrics[j].name);
		ck_assert_str_eq(r.metrics[j].unit, w.metrics[j].unit);
		ck_assert_int_eq(r.metrics[j].dir, w.metrics[j].dir);
		/* the "key" line: forks_per_s and pgfault */
		ck_assert_int_eq(r.metrics[j].key, j == 1 || j == 3);
	}
	ck_assert_int_eq(vb_res_metric_index(&r, "pgfault"), 3);
	ck_assert_int_eq(vb_res_metric_index(&r, "nope"), -1);
	ck_assert_int_eq(r.niter, 3);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 5; j++) {
			double v = vb_res_get(&r, i, j);

			if (isnan(vals[i][j]))
				ck_assert_msg(isnan(v), "iter %d col %d: "
				    "absent value read as %g", i + 1, j, v);
			else
				ck_assert_msg(v == vals[i][j], "iter %d col "
				    "%d: wrote %.17g, read %.17g", i + 1, j,
				    vals[i][j], v);
		}
	vb_res_free(&w);
	vb_res_free(&r);
}
END_TEST

/* An interrupted run with no whole iteration, no params, no times. */
START_TEST(round_trip_minimal)
{
	struct vb_res w, r;
	char path[512], err[1024];

	vb_res_init(&w, "memfill", NULL);
	snprintf(w.status, sizeof(w.status), "interrupted");
	vb_res_add_metric(&w, "elapsed", "s", VB_LOWER);
	tu_path(path, sizeof(path), "memfill.res");
	ck_assert_int_eq(vb_res_write(path, &w), 0);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.variant, "default");
	ck_assert_str_eq(r.cmdline, "memfill");
	ck_assert_int_eq(r.nparams, 0);
	ck_assert_str_eq(r.status, "interrupted");
	ck_assert_str_eq(r.started, "");
	ck_assert_str_eq(r.ended, "");
	ck_assert_str_eq(r.headline, "");
	ck_assert_int_eq(r.nmetrics, 1);
	ck_assert_int_eq(r.metrics[0].key, 0);	/* no "key" line */
	ck_assert_int_eq(r.niter, 0);
	vb_res_free(&w);
	vb_res_free(&r);
}
END_TEST

/*
 * The "key" line is optional (files written before it existed read
 * with no key metric), written only when some metric is key, and
 * names each key metric once, after the metric lines.
 */
START_TEST(key_line)
{
	struct vb_res r;
	char path[512], err[1024], buf[4096];
	FILE *f;
	size_t n;

	tu_write(path, sizeof(path), "old.res", "vmbench-result 1\n"
	    "bench forkbomb\nvariant default\ncmdline forkbomb\n"
	    "status complete\nstarted -\nended -\nheadline forks_per_s\n"
	    "metric elapsed s lower\nmetric forks_per_s forks/s higher\n"
	    "iter 1 1 2\nend\n");
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.metrics[0].key, 0);
	ck_assert_int_eq(r.metrics[1].key, 0);
	/* written back: still no key line */
	ck_assert_int_eq(vb_res_write(path, &r), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	tu_assert_lacks(buf, "\nkey");
	/* one key: the line lists it, after the metrics, before iter */
	vb_res_set_key(&r, 1, 1);
	ck_assert_int_eq(vb_res_write(path, &r), 0);
	vb_res_free(&r);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	tu_assert_has(buf, "metric forks_per_s forks/s higher\n"
	    "key forks_per_s\niter 1 1 2\n");
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.metrics[0].key, 0);
	ck_assert_int_eq(r.metrics[1].key, 1);
	vb_res_free(&r);
}
END_TEST

/*
 * The "work" line is optional (files written before it existed read
 * with no work figure), written after the key line with each figure's
 * tolerance, and read back the same.
 */
START_TEST(work_line)
{
	struct vb_res r;
	char path[512], err[1024], buf[4096];
	FILE *f;
	size_t n;

	tu_write(path, sizeof(path), "w.res", "vmbench-result 1\n"
	    "bench memfill\nvariant default\ncmdline memfill\n"
	    "status complete\nstarted -\nended -\nheadline fill_s\n"
	    "metric bytes B info\nmetric fill_s s lower\n"
	    "iter 1 4096 2\nend\n");
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.metrics[0].work, 0);
	vb_res_set_work(&r, 0, 1.5);
	vb_res_set_key(&r, 1, 1);
	ck_assert_int_eq(vb_res_write(path, &r), 0);
	vb_res_free(&r);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	tu_assert_has(buf, "key fill_s\nwork bytes 1.5\n"
	    "iter 1 4096 2\n");
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(r.metrics[0].work, 1);
	ck_assert_double_eq(r.metrics[0].work_tol, 1.5);
	ck_assert_int_eq(r.metrics[1].work, 0);
	vb_res_free(&r);
}
END_TEST

/*
 * The reader takes each value exactly as strtod() does (it parses plain
 * decimals itself): every form a writer or a hand may give, from 0 and
 * -0 to 17 digits and exponents beyond 1e22.
 */
START_TEST(values_as_strtod)
{
	static const char *const words[] = {
		"0", "-0", "+0", "1.", ".5", "-.5", "1.5e-3", "1E5", "0.1",
		"0.3", "4.35", "1e22", "1e23", "1e-22", "1e-23",
		"9007199254740992", "9007199254740993", "9007199254740993.0",
		"123456789012345678e-22", "12345678901234567890",
		"00000000000000000001", "0.000000000000000000001", "1e0005",
		"2.2250738585072014e-308", "1.7976931348623157e308",
		"3998.1", "2.4873", "1234567890", "1.234567891e-07",
		"9.87654321e+15", "0.30000000000000004", "-1e-5", "1e-300",
	};
	enum { NW = sizeof(words) / sizeof(words[0]) };
	struct vb_res r;
	struct vb_buf text = VB_BUF_INIT;
	char path[512], err[1024], *end;
	double want;
	int i;

	vb_buf_printf(&text, "vmbench-result 1\nbench x\nvariant default\n"
	    "cmdline x\nstatus complete\nstarted -\nended -\n");
	for (i = 0; i < NW; i++)
		vb_buf_printf(&text, "metric m%d n info\n", i);
	vb_buf_printf(&text, "iter 1");
	for (i = 0; i < NW; i++)
		vb_buf_printf(&text, " %s", words[i]);
	vb_buf_printf(&text, "\nend\n");
	tu_write(path, sizeof(path), "vals.res", vb_buf_str(&text));
	vb_buf_free(&text);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	for (i = 0; i < NW; i++) {
		want = strtod(words[i], &end);
		ck_assert_msg(!memcmp(&want, &r.vals[i], sizeof(want)),
		    "%s: %.17g, strtod %.17g", words[i], r.vals[i], want);
	}
	vb_res_free(&r);
}
END_TEST

START_TEST(write_errors)
{
	struct vb_res w;
	char path[512];

	fill(&w);
	tu_path(path, sizeof(path), "no/such/dir/x.res");
	errno = 0;
	ck_assert_int_eq(vb_res_write(path, &w), -1);
	ck_assert_int_eq(errno, ENOENT);
	vb_res_free(&w);
}
END_TEST

/* Comments, blank lines and CRLF line ends are accepted. */
START_TEST(comments_and_crlf)
{
	static const char text[] =
	    "# written by hand\n"
	    "\n"
	    "vmbench-result 1\r\n"
	    "bench forkbomb\n"
	    "variant default\n"
	    "cmdline forkbomb --forks 10\n"
	    "# a comment between lines\n"
	    "status failed\n"
	    "started -\n"
	    "ended -\n"
	    "metric elapsed s lower\n"
	    "metric us_per_fork us lower\n"
	    "iter 1 1.5 -\n"
	    "\n"
	    "iter 2 - 3e2\n"
	    "end\n"
	    "# trailing comment\n";
	struct vb_res r;
	char path[512], err[1024];

	tu_write(path, sizeof(path), "ok.res", text);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, "failed");
	ck_assert_int_eq(r.niter, 2);
	ck_assert_double_eq(vb_res_get(&r, 0, 0), 1.5);
	ck_assert(isnan(vb_res_get(&r, 0, 1)));
	ck_assert(isnan(vb_res_get(&r, 1, 0)));
	ck_assert_double_eq(vb_res_get(&r, 1, 1), 300);
	vb_res_free(&r);
}
END_TEST

/*
 * The malformed files: a valid file with one thing broken, the line the
 * reader must name, and a piece of the message.
 */
#define HEAD1 "vmbench-result 1\n"
#define HEAD2 "bench forkbomb\nvariant default\ncmdline forkbomb\n"
#define HEAD3 "status complete\nstarted -\nended -\n"
#define METRICS "metric elapsed s lower\nmetric forks_per_s forks/s higher\n"
#define HEADER HEAD1 HEAD2 HEAD3 METRICS	/* lines 1-9 */

static const struct bad_case {
	const char *what;
	const char *text;
	int line;
	const char *msg;
} bad_cases[] = {
	{ "wrong magic", "vmbench-results 1\n" HEAD2 HEAD3 METRICS "end\n",
	  1, "not a vmbench result file" },
	{ "not a result file", "# comment\nbench forkbomb\n", 2,
	  "not a vmbench result file" },
	{ "wrong version", "vmbench-result 2\n" HEAD2 HEAD3 METRICS "end\n",
	  1, "unsupported format version '2'" },
	{ "unknown keyword", HEAD1 HEAD2 "stats complete\n", 5,
	  "unknown keyword 'stats'" },
	{ "line out of order", HEAD1 HEAD2 "started -\nstatus complete\n", 5,
	  "missing 'status' line before 'started'" },
	{ "line going back", HEAD1 HEAD2 HEAD3 METRICS "iter 1 1 2\n"
	  "metric x s info\nend\n", 11, "'metric' out of place" },
	{ "repeated header line", HEAD1 "bench a\nbench b\n", 3,
	  "'bench' out of place" },
	{ "repeated magic", HEAD1 HEAD1, 2, "'vmbench-result' out of place" },
	{ "missing cmdline", HEAD1 "bench forkbomb\nvariant default\n"
	  "param forks 10\n", 4, "missing 'cmdline' line before 'param'" },
	{ "missing metrics", HEAD1 HEAD2 HEAD3 "iter 1\nend\n", 8,
	  "missing 'metric' line before 'iter'" },
	{ "no metric at all", HEAD1 HEAD2 HEAD3 "end\n", 8,
	  "missing 'metric' line before 'end'" },
	{ "bad metric direction", HEAD1 HEAD2 HEAD3
	  "metric elapsed s faster\n", 8,
	  "direction must be lower, higher or info, not 'faster'" },
	{ "metric without direction", HEAD1 HEAD2 HEAD3 "metric elapsed s\n",
	  8, "metric needs NAME UNIT DIRECTION" },
	{ "duplicate metric", HEAD1 HEAD2 HEAD3 METRICS
	  "metric elapsed ms lower\n", 10, "duplicate metric 'elapsed'" },
	{ "duplicate param", HEAD1 HEAD2 "param a 1\nparam a 2\n", 6,
	  "duplicate param 'a'" },
	{ "bad status", HEAD1 HEAD2 "status done\n", 5,
	  "status must be complete, interrupted, failed or running" },
	{ "bad bench name", HEAD1 "bench fork bomb\n", 2,
	  "bench needs one name" },
	{ "too few values", HEADER "iter 1 2.5 100\niter 2 2.5\nend\n", 11,
	  "iteration has 1 values, expected 2" },
	{ "too many values", HEADER "iter 1 2.5 100 7\nend\n", 10,
	  "iteration has 3 values, expected 2" },
	{ "iter without number", HEADER "iter\nend\n", 10,
	  "iter needs a number and 2 values" },
	{ "non-numeric value", HEADER "iter 1 2.5 fast\nend\n", 10,
	  "bad value 'fast' for metric 'forks_per_s'" },
	{ "trailing garbage in value", HEADER "iter 1 2.5s 100\nend\n", 10,
	  "bad value '2.5s' for metric 'elapsed'" },
	{ "nan value", HEADER "iter 1 nan 100\nend\n", 10,
	  "bad value 'nan'" },
	{ "overflowing value", HEADER "iter 1 1e999 100\nend\n", 10,
	  "bad value '1e999'" },
	{ "hex float value", HEADER "iter 1 0x1p3 100\nend\n", 10,
	  "bad value '0x1p3' for metric 'elapsed'" },
	{ "hex value", HEADER "iter 1 1 0x10\nend\n", 10,
	  "bad value '0x10' for metric 'forks_per_s'" },
	{ "inf value", HEADER "iter 1 inf 100\nend\n", 10,
	  "bad value 'inf'" },
	{ "infinity value", HEADER "iter 1 1 -Infinity\nend\n", 10,
	  "bad value '-Infinity'" },
	{ "nan payload value", HEADER "iter 1 nan(0x1) 100\nend\n", 10,
	  "bad value 'nan(0x1)'" },
	{ "work tolerance hex float", HEADER "work elapsed 0x1p3\nend\n", 10,
	  "tolerance '0x1p3' is not a percentage" },
	{ "iteration skipped", HEADER "iter 1 1 2\niter 3 1 2\nend\n", 11,
	  "iteration number '3', expected 2" },
	{ "iteration from 0", HEADER "iter 0 1 2\nend\n", 10,
	  "iteration number '0', expected 1" },
	{ "iteration repeated", HEADER "iter 1 1 2\niter 1 1 2\nend\n", 11,
	  "iteration number '1', expected 2" },
	{ "truncated", HEADER "iter 1 1 2\niter 2 1 2\n", 12,
	  "truncated: no 'end' line" },
	{ "truncated header", HEAD1 HEAD2, 5, "truncated: no 'end' line" },
	{ "iter after end", HEADER "iter 1 1 2\nend\niter 2 1 2\n", 12,
	  "text after 'end'" },
	{ "garbage after end", HEADER "end\nhello world\n", 11,
	  "text after 'end'" },
	{ "words after end", HEADER "end of file\n", 10, "text after 'end'" },
	{ "empty file", "", 1, "empty file" },
	{ "empty note", HEAD1 HEAD2 HEAD3 "note  \n", 8, "empty note" },
	{ "repeated note", HEAD1 HEAD2 HEAD3 "note a\nnote b\n", 9,
	  "'note' out of place" },
	{ "note after headline", HEAD1 HEAD2 HEAD3 "headline x\nnote a\n", 9,
	  "'note' out of place" },
	{ "key of no metric", HEADER "key elapsed bytes\nend\n", 10,
	  "key 'bytes' is not a metric of this file" },
	{ "key repeated", HEADER "key elapsed elapsed\nend\n", 10,
	  "duplicate key 'elapsed'" },
	{ "empty key line", HEADER "key\nend\n", 10,
	  "key needs at least one metric name" },
	{ "key before metrics", HEAD1 HEAD2 HEAD3 "key elapsed\n" METRICS,
	  8, "missing 'metric' line before 'key'" },
	{ "two key lines", HEADER "key elapsed\nkey forks_per_s\n", 11,
	  "'key' out of place" },
	{ "key after iter", HEADER "iter 1 1 2\nkey elapsed\n", 11,
	  "'key' out of place" },
	{ "work of no metric", HEADER "work bytes 1\nend\n", 10,
	  "work 'bytes' is not a metric of this file" },
	{ "work without tolerance", HEADER "work elapsed\nend\n", 10,
	  "work needs pairs of a metric name and a tolerance in %" },
	{ "work tolerance not a number", HEADER "work elapsed 1%\nend\n", 10,
	  "work 'elapsed': tolerance '1%' is not a percentage from 0 to 100" },
	{ "work tolerance negative", HEADER "work elapsed -1\nend\n", 10,
	  "tolerance '-1' is not a percentage" },
	{ "work repeated", HEADER "work elapsed 0 elapsed 1\nend\n", 10,
	  "duplicate work 'elapsed'" },
	{ "work before key", HEADER "work elapsed 0\nkey elapsed\n", 11,
	  "'key' out of place" },
	{ "work after iter", HEADER "iter 1 1 2\nwork elapsed 0\n", 11,
	  "'work' out of place" },
};

START_TEST(malformed)
{
	const struct bad_case *c = &bad_cases[_i];
	struct vb_res r;
	char path[512], err[1024], want[600];

	tu_write(path, sizeof(path), "bad.res", c->text);
	memset(err, 0, sizeof(err));
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == -1,
	    "%s: accepted", c->what);
	snprintf(want, sizeof(want), "%s:%d: ", path, c->line);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0,
	    "%s: message '%s' does not start with '%s'", c->what, err, want);
	ck_assert_msg(strstr(err + strlen(want), c->msg) != NULL,
	    "%s: message '%s' lacks '%s'", c->what, err, c->msg);
	ck_assert_msg(strchr(err, '\n') == NULL, "%s: not one line",
	    c->what);
	/* a failed read leaves nothing to free */
	ck_assert_int_eq(r.nmetrics, 0);
	ck_assert_ptr_null(r.vals);
}
END_TEST

/*
 * The note (free text, optional) round-trips; vb_res_mark() turns a
 * "running" file failed in place, its iterations kept.
 */
START_TEST(note_and_mark)
{
	struct vb_res w, r;
	char path[512], err[1024];

	fill(&w);
	vb_res_add_note(&w, "vmstat series incomplete: sampler died "
	    "(signal %d) at iteration %d", 9, 2);
	vb_res_add_note(&w, "second\nline");
	snprintf(w.status, sizeof(w.status), "running");
	tu_path(path, sizeof(path), "note.res");
	ck_assert_int_eq(vb_res_write(path, &w), 0);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.note, "vmstat series incomplete: sampler died "
	    "(signal 9) at iteration 2; second line");
	ck_assert_str_eq(r.status, "running");
	vb_res_free(&r);
	ck_assert_int_eq(vb_res_mark(path, "failed"), 0);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, "failed");
	ck_assert_int_eq(r.niter, 3);
	vb_res_free(&r);
	/* only "running" is marked, and only by a word that fits */
	ck_assert_int_eq(vb_res_mark(path, "failed"), -1);
	ck_assert_int_eq(vb_res_mark(path, "interrupted"), -1);
	vb_res_free(&w);
	/* without a note: no note line, and none read */
	fill(&w);
	ck_assert_int_eq(vb_res_write(path, &w), 0);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s", err);
	ck_assert_ptr_null(r.note);
	vb_res_free(&r);
	vb_res_free(&w);
	assert_no_tmp();
}
END_TEST

/*
 * make ab's --append: the earlier part's note is kept, before the new
 * part's, and a note both parts say is there once.
 */
START_TEST(append_keeps_notes)
{
	struct vb_res old, cur, plain;
	char path[512], err[512];

	vb_res_init(&old, "tio", "creates");
	vb_res_init(&cur, "tio", "creates");
	vb_res_init(&plain, "tio", "creates");
	vb_res_set_cmdline(&old, "tio --creates");
	vb_res_set_cmdline(&cur, "tio --creates");
	vb_res_set_cmdline(&plain, "tio --creates");
	vb_res_add_metric(&old, "elapsed", "s", VB_LOWER);
	vb_res_add_metric(&cur, "elapsed", "s", VB_LOWER);
	vb_res_add_metric(&plain, "elapsed", "s", VB_LOWER);
	vb_res_add_iter(&old)[0] = 1;
	vb_res_add_iter(&plain)[0] = 1;
	vb_res_add_note(&old, "vmstat series incomplete: sampler died "
	    "(signal 9) at iteration 1");
	vb_res_add_note(&old, "work folder on ext4 without a journal");
	/* said again: not repeated */
	vb_res_add_note(&old, "work folder on ext4 without a journal");
	ck_assert_str_eq(old.note, "vmstat series incomplete: sampler died "
	    "(signal 9) at iteration 1; work folder on ext4 without a "
	    "journal");
	/* the new part says its setup's note before appending */
	vb_res_add_note(&cur, "work folder on ext4 without a journal");
	ck_assert_int_eq(vb_res_append(&cur, &old), 0);
	vb_res_add_iter(&cur)[0] = 2;
	ck_assert_str_eq(cur.note, "vmstat series incomplete: sampler died "
	    "(signal 9) at iteration 1; work folder on ext4 without a "
	    "journal");
	/* a part is a whole part: "journal" alone is another note */
	vb_res_add_note(&cur, "journal");
	ck_assert_str_eq(cur.note + strlen(cur.note) - 9, "; journal");
	/* through a file, as vmrun --append reads the earlier part */
	tu_path(path, sizeof(path), "append.res");
	ck_assert_int_eq(vb_res_save(path, &old, "complete"), 0);
	vb_res_free(&old);
	ck_assert_msg(vb_res_read(path, &old, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_eq(vb_res_append(&plain, &old), 0);
	ck_assert_int_eq(plain.niter, 2);
	ck_assert_str_eq(plain.note, old.note);
	vb_res_free(&old);
	vb_res_free(&cur);
	vb_res_free(&plain);
}
END_TEST

START_TEST(missing_file)
{
	struct vb_res r;
	char path[512], err[1024];

	tu_path(path, sizeof(path), "absent.res");
	ck_assert_int_eq(vb_res_read(path, &r, err, sizeof(err)), -1);
	tu_assert_has(err, path);
	tu_assert_has(err, "No such file or directory");
}
END_TEST

/* make ab's appending: rows added in order; another result refused. */
START_TEST(res_append)
{
	struct vb_res a, b;
	double *row;

	vb_res_init(&a, "forkbomb", NULL);
	vb_res_init(&b, "forkbomb", NULL);
	vb_res_set_cmdline(&a, "forkbomb --forks 10");
	vb_res_set_cmdline(&b, "forkbomb --forks 10");
	vb_res_add_metric(&a, "elapsed", "s", VB_LOWER);
	vb_res_add_metric(&b, "elapsed", "s", VB_LOWER);
	vb_res_add_iter(&a)[0] = 1;
	vb_res_add_iter(&b)[0] = 2;
	row = vb_res_add_iter(&b);
	row[0] = 3;
	ck_assert_int_eq(vb_res_append(&a, &b), 0);
	ck_assert_int_eq(a.niter, 3);
	ck_assert_double_eq(vb_res_get(&a, 1, 0), 2);
	ck_assert_double_eq(vb_res_get(&a, 2, 0), 3);
	vb_res_set_cmdline(&b, "forkbomb --forks 20");
	ck_assert_int_lt(vb_res_append(&a, &b), 0);
	ck_assert_int_eq(a.niter, 3);
	vb_res_free(&a);
	vb_res_free(&b);
}
END_TEST

Suite *
res_suite(void)
{
	Suite *s = suite_create("res");
	TCase *tc = tu_tcase_local("res");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, round_trip_minimal);
	tcase_add_test(tc, key_line);
	tcase_add_test(tc, work_line);
	tcase_add_test(tc, values_as_strtod);
	tcase_add_test(tc, write_errors);
	tcase_add_test(tc, comments_and_crlf);
	tcase_add_loop_test(tc, malformed, 0,
	    (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, note_and_mark);
	tcase_add_test(tc, res_append);
	tcase_add_test(tc, append_keeps_notes);
	suite_add_tcase(s, tc);
	return s;
}
