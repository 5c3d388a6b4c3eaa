/*
 * check_config.c - suite definitions (src/lib/config.c): parsing and
 * file:line errors.
 */
#include <check.h>
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include "benchlist.h"
#include "config.h"
#include "testutil.h"

static const char good[] =
    "# the quick suite\n"
    "iterations 3\n"
    "\n"
    "forkbomb --forks 10000 --ints 10000   # the 2002 line\n"
    "forkbomb@big --forks 1000000 --ints 1000 iterations=1\n"
    "memfill --percent 80 --write with=probe\n"
    "fileload --loadfile \"/usr/share/dbench/client file.txt\" "
    "--name=x\"y # z\" Key=v\n"
    "\ttworead@n100   --n 100  \n"
    "  # indented comment\n"
    "probe";	/* no final newline */

START_TEST(parse_good)
{
	struct vb_conf c;
	struct vb_conf_line *l;
	char err[512], buf[128];

	ck_assert_msg(vb_conf_parse("quick.conf", good, &c, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(c.path, "quick.conf");
	ck_assert_int_eq(c.iterations, 3);
	ck_assert_int_eq(c.nlines, 6);

	l = &c.lines[0];
	ck_assert_int_eq(l->lineno, 4);
	ck_assert_str_eq(l->bench, "forkbomb");
	ck_assert_ptr_null(l->variant);
	ck_assert_int_eq(l->argc, 4);
	ck_assert_str_eq(l->argv[0], "--forks");
	ck_assert_str_eq(l->argv[3], "10000");
	ck_assert_int_eq(l->iterations, 0);
	ck_assert_int_eq(l->ndirs, 0);
	ck_assert_str_eq(vb_conf_label(l, buf, sizeof(buf)), "forkbomb");

	l = &c.lines[1];
	ck_assert_int_eq(l->lineno, 5);
	ck_assert_str_eq(l->variant, "big");
	ck_assert_int_eq(l->argc, 4);
	ck_assert_int_eq(l->iterations, 1);
	ck_assert_int_eq(l->ndirs, 0);	/* iterations= is not kept */
	ck_assert_str_eq(vb_conf_label(l, buf, sizeof(buf)), "forkbomb@big");

	l = &c.lines[2];
	ck_assert_int_eq(l->argc, 3);
	ck_assert_int_eq(l->ndirs, 1);
	ck_assert_str_eq(vb_conf_dir(l, "with"), "probe");
	ck_assert_ptr_null(vb_conf_dir(l, "iterations"));
	ck_assert_ptr_null(vb_conf_dir(l, "nope"));

	/* quotes group words and protect '#'; Key=v is not a directive */
	l = &c.lines[3];
	ck_assert_int_eq(l->argc, 4);
	ck_assert_str_eq(l->argv[1], "/usr/share/dbench/client file.txt");
	ck_assert_str_eq(l->argv[2], "--name=xy # z");
	ck_assert_str_eq(l->argv[3], "Key=v");
	ck_assert_int_eq(l->ndirs, 0);

	l = &c.lines[4];
	ck_assert_int_eq(l->lineno, 8);
	ck_assert_str_eq(l->bench, "tworead");
	ck_assert_str_eq(l->variant, "n100");
	ck_assert_int_eq(l->argc, 2);

	l = &c.lines[5];
	ck_assert_int_eq(l->lineno, 10);
	ck_assert_str_eq(l->bench, "probe");
	ck_assert_int_eq(l->argc, 0);
	vb_conf_free(&c);
	ck_assert_int_eq(c.nlines, 0);
}
END_TEST

/* Without an "iterations" line the suite leaves the count to the runner. */
START_TEST(no_iterations)
{
	struct vb_conf c;
	char err[512];

	ck_assert_int_eq(vb_conf_parse("t", "a\na@x\nb@x\n", &c, err,
	    sizeof(err)), 0);
	ck_assert_int_eq(c.iterations, 0);
	ck_assert_int_eq(c.nlines, 3);
	vb_conf_free(&c);
}
END_TEST

START_TEST(crlf)
{
	struct vb_conf c;
	char err[512];

	ck_assert_msg(vb_conf_parse("dos.conf", "iterations 2\r\n"
	    "forkbomb --forks 10\r\n", &c, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(c.iterations, 2);
	ck_assert_str_eq(c.lines[0].argv[1], "10");
	vb_conf_free(&c);
}
END_TEST

static const struct bad {
	const char *text;
	int line;		/* 0: the message has no line */
	const char *msg;
} bads[] = {
	/* the runner gives these after the line's: it would override them */
	{ "forkbomb --forks 2 --iterations 3\n", 1, "'--iterations' is the "
	  "runner's to give (it would be overridden): use iterations=N on "
	  "the line" },
	{ "memfill --out=/tmp/x\n", 1, "'--out=/tmp/x' is the runner's" },
	{ "memfill --variant v\n", 1, "use NAME@VARIANT" },
	{ "forkbomb\n# x\nforkbomb --forks 1\n", 3, "'forkbomb' repeats "
	  "line 1; give one of them a variant (forkbomb@NAME)" },
	{ "a@x\na\na@x --n 2\n", 3, "'a@x' repeats line 1" },
	/* both would say "variant default" */
	{ "forkbomb\nforkbomb@default --forks 1\n", 2, "'forkbomb@default' "
	  "repeats line 1 (a line without a variant is forkbomb@default); "
	  "give one of them another variant" },
	{ "a@default\nb\na\n", 3, "'a' repeats line 1 (a line without a "
	  "variant is a@default)" },
	{ "fork/bomb\n", 1, "bad benchmark name 'fork/bomb' (use NAME or "
	  "NAME@VARIANT)" },
	{ "a\nforkbomb@\n", 2, "bad benchmark name 'forkbomb@'" },
	{ "@x\n", 1, "bad benchmark name '@x'" },
	{ "a@b@c\n", 1, "bad benchmark name 'a@b@c'" },
	{ "fork$ --n 1\n", 1, "bad benchmark name 'fork$'" },
	{ "a\n\nb --title \"abc\n", 3, "unterminated quote" },
	{ "iterations\na\n", 1, "'iterations' needs one number from 1 to "
	  "100000" },
	{ "a\niterations 0\n", 2, "'iterations' needs one number" },
	{ "iterations 100001\na\n", 1, "'iterations' needs one number" },
	{ "iterations 3 4\na\n", 1, "'iterations' needs one number" },
	{ "iterations x\na\n", 1, "'iterations' needs one number" },
	{ "iterations -1\na\n", 1, "'iterations' needs one number" },
	{ "iterations 1e3\na\n", 1, "'iterations' needs one number" },
	{ "a iterations=0\n", 1, "bad 'iterations=0': iterations must be 1 "
	  "to 100000" },
	{ "a\nb iterations=x\n", 2, "bad 'iterations=x'" },
	{ "a iterations=\n", 1, "bad 'iterations='" },
	{ "", 0, "t.conf: no benchmark lines" },
	{ "# only\n\n   \n# comments\n", 0, "t.conf: no benchmark lines" },
	{ "iterations 3\n", 0, "t.conf: no benchmark lines" },
};

START_TEST(errors)
{
	const struct bad *b = &bads[_i];
	struct vb_conf c;
	char err[512], want[64];

	ck_assert_msg(vb_conf_parse("t.conf", b->text, &c, err,
	    sizeof(err)) == -1, "accepted: %s", b->text);
	if (b->line) {
		snprintf(want, sizeof(want), "t.conf:%d: ", b->line);
		ck_assert_msg(strncmp(err, want, strlen(want)) == 0,
		    "'%s' does not start with '%s'", err, want);
	}
	ck_assert_msg(strstr(err, b->msg) != NULL, "'%s' lacks '%s'", err,
	    b->msg);
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_int_eq(c.nlines, 0);	/* freed */
}
END_TEST

START_TEST(long_word)
{
	static char text[6000];
	struct vb_conf c;
	char err[512];

	memset(text, 'x', sizeof(text) - 1);
	memcpy(text, "a --n ", 6);
	ck_assert_int_eq(vb_conf_parse("t.conf", text, &c, err, sizeof(err)),
	    -1);
	tu_assert_has(err, "t.conf:1: word too long");
}
END_TEST

/* From files: the path in every message. */
START_TEST(files)
{
	struct vb_conf c;
	char path[512], err[1024], want[600];
	FILE *f;

	tu_write(path, sizeof(path), "ok.conf", "iterations 2\nforkbomb\n");
	ck_assert_msg(vb_conf_read(path, &c, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_str_eq(c.path, path);
	ck_assert_int_eq(c.iterations, 2);
	vb_conf_free(&c);

	tu_write(path, sizeof(path), "dup.conf", "a\n\na\n");
	ck_assert_int_eq(vb_conf_read(path, &c, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:3: 'a' repeats line 1", path);
	tu_assert_has(err, want);

	tu_write(path, sizeof(path), "empty.conf", "");
	ck_assert_int_eq(vb_conf_read(path, &c, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: no benchmark lines", path);
	ck_assert_str_eq(err, want);

	tu_path(path, sizeof(path), "nul.conf");
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fwrite("forkbomb\0\n", 1, 10, f);
	fclose(f);
	ck_assert_int_eq(vb_conf_read(path, &c, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: not a text file", path);
	ck_assert_str_eq(err, want);

	tu_path(path, sizeof(path), "absent.conf");
	ck_assert_int_eq(vb_conf_read(path, &c, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "cannot read config %s: No such file "
	    "or directory", path);
	ck_assert_str_eq(err, want);
}
END_TEST

/*
 * Bounds: only a regular file (CONFIG=/dev/zero, a FIFO, a folder are
 * refused at once, not read for ever), of at most VB_CONF_MAXSIZE
 * bytes, lines of at most VB_CONF_MAXLINE, at most VB_CONF_MAXLINES
 * benchmark lines: each one line naming the file.
 */
START_TEST(bounds)
{
	static char text[2 * VB_CONF_MAXSIZE];
	struct vb_conf c;
	char path[512], err[1024], want[700];
	time_t t0 = time(NULL);
	size_t n = 0;
	FILE *f;
	int i;

	ck_assert_int_eq(vb_conf_read("/dev/zero", &c, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "config /dev/zero: not a regular file");
	ck_assert_int_eq(vb_conf_read("/dev/null", &c, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "config /dev/null: not a regular file");
	/* a FIFO without a writer: refused, not waited on */
	tu_path(path, sizeof(path), "fifo.conf");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(vb_conf_read(path, &c, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "config %s: not a regular file", path);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(vb_conf_read(tu_dir, &c, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "config %s: not a regular file", tu_dir);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(c.nlines, 0);
	ck_assert_int_le(time(NULL) - t0, 2);

	/* one byte too many: comment lines, so only the size is wrong */
	while (n < VB_CONF_MAXSIZE + 1 - 6) {
		memcpy(text + n, "# ...\n", 6);
		n += 6;
	}
	memcpy(text + n, "forkbomb\n", 9);
	n += 9;
	tu_path(path, sizeof(path), "big.conf");
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fwrite(text, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_gt(n, VB_CONF_MAXSIZE);
	ck_assert_int_eq(vb_conf_read(path, &c, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "config %s: too big (a config is at most "
	    "%d bytes)", path, VB_CONF_MAXSIZE);
	ck_assert_str_eq(err, want);
	/* at the bound: read */
	ck_assert_int_eq(truncate(path, 0), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fwrite(text + n - VB_CONF_MAXSIZE, 1,
	    VB_CONF_MAXSIZE, f), VB_CONF_MAXSIZE);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(vb_conf_read(path, &c, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_eq(c.nlines, 1);
	vb_conf_free(&c);

	/* a line of short words, longer than a line may be */
	memset(text, 0, sizeof(text));
	memcpy(text, "# fine\nforkbomb", 15);
	for (n = 15; n < VB_CONF_MAXLINE + 100; n += 3)
		memcpy(text + n, " -x", 3);
	ck_assert_int_eq(vb_conf_parse("t.conf", text, &c, err, sizeof(err)),
	    -1);
	ck_assert_msg(strstr(err, "t.conf:2: line too long (") == err, "%s",
	    err);
	ck_assert_msg(strstr(err, "at most 8192)") != NULL, "%s", err);

	/* too many benchmark lines */
	memset(text, 0, sizeof(text));
	for (i = 0, n = 0; i <= VB_CONF_MAXLINES; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
		    "forkbomb@v%d\n", i);
	ck_assert_int_eq(vb_conf_parse("t.conf", text, &c, err, sizeof(err)),
	    -1);
	snprintf(want, sizeof(want), "t.conf:%d: more than %d benchmark lines",
	    VB_CONF_MAXLINES + 1, VB_CONF_MAXLINES);
	ck_assert_str_eq(err, want);
	/* as many as allowed: parsed */
	text[strlen(text) - 1] = '\0';
	*strrchr(text, '\n') = '\0';
	ck_assert_msg(vb_conf_parse("t.conf", text, &c, err, sizeof(err)) == 0,
	    "%s", err);
	ck_assert_int_eq(c.nlines, VB_CONF_MAXLINES);
	vb_conf_free(&c);
}
END_TEST

/*
 * Every suite in configs/ is read by the parser and passes vmrun's own
 * checks (each benchmark asked with --check, directives, outputs that
 * do not collide): vmrun goes as far as making the result folder, which
 * it cannot (its parent is a file), so nothing runs.  Run from anywhere
 * but the source tree, it fails: no config found.
 */
START_TEST(shipped_configs)
{
	struct vb_conf c;
	char err[1024], file[512], want[700], out[2048];
	glob_t g;
	size_t i;
	int rc;

	ck_assert_msg(glob("configs/*.conf", 0, NULL, &g) == 0 &&
	    g.gl_pathc > 0, "no configs/*.conf here: run from the source "
	    "tree");
	tu_write(file, sizeof(file), "file", "");
	snprintf(want, sizeof(want), "vmrun: %s: exists and is not a folder "
	    "(RESULTS=)\n", file);
	for (i = 0; i < g.gl_pathc; i++) {
		const char *conf = g.gl_pathv[i];

		ck_assert_msg(vb_conf_read(conf, &c, err, sizeof(err)) == 0,
		    "%s", err);
		ck_assert_msg(c.nlines > 0, "%s: no benchmark", conf);
		vb_conf_free(&c);
		rc = tu_sh_out(out, sizeof(out), "bench/vmrun --kernel x "
		    "--config '%s' --results '%s/r' --workdir '%s/w' 2>&1",
		    conf, file, tu_dir);
		ck_assert_msg(rc == 1 && strcmp(out, want) == 0, "vmrun on "
		    "%s: exit %d:\n%s", conf, rc, out);
	}
	globfree(&g);
}
END_TEST

/*
 * The runner's benchmarks (src/runner/benches.h, written by the
 * Makefile) are the folders src/bench/NAME/ that hold NAME.c, each once,
 * sorted: not an exec helper (vmlat_hello), not the runner (vmrun).
 */
START_TEST(bench_list)
{
	char path[600];
	struct dirent *e;
	DIR *d = opendir("src/bench");
	int n = 0, i;

	ck_assert_msg(d != NULL, "src/bench: run from the top folder");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "src/bench/%s/%s.c", e->d_name,
		    e->d_name);
		ck_assert_msg(access(path, R_OK) == 0, "no %s", path);
		ck_assert_msg(vb_is_bench(e->d_name), "%s not listed",
		    e->d_name);
		n++;
	}
	closedir(d);
	for (i = 0; vb_benches[i]; i++)
		if (i > 0)
			ck_assert_str_lt(vb_benches[i - 1], vb_benches[i]);
	ck_assert_int_eq(i, n);
	ck_assert_int_gt(n, 0);
	ck_assert(vb_is_bench("forkbomb"));
	ck_assert(vb_is_bench("probe"));
	ck_assert(!vb_is_bench("vmrun"));
	ck_assert(!vb_is_bench("vmlat_hello"));
	ck_assert(!vb_is_bench("vmreport"));
	ck_assert(!vb_is_bench(""));
}
END_TEST

/*
 * A line naming something else than a benchmark: one line with the
 * file, the line, the name and the list; the first such line counts.
 */
START_TEST(not_a_bench)
{
	static const struct {
		const char *text;
		const char *want;
	} t[] = {
		{ "forkbomb\n# c\nvmlat_hello --x 1\nvmrun\n",
		  "t.conf:3: 'vmlat_hello' is not a benchmark; the "
		  "benchmarks are: " },
		{ "vmrun --help\n", "t.conf:1: 'vmrun' is not a benchmark; "
		  "the benchmarks are: " },
		{ "tio@x --creates\nmakesim -j4\nnosuch@v\n",
		  "t.conf:3: 'nosuch' is not a benchmark; the benchmarks "
		  "are: " },
	};
	struct vb_conf c;
	char err[1024], list[512] = "";
	size_t i, len;
	int b;

	for (b = 0; vb_benches[b]; b++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
		    "%s%s", b ? ", " : "", vb_benches[b]);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_msg(vb_conf_parse("t.conf", t[i].text, &c, err,
		    sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(vb_conf_check_benches(&c, err, sizeof(err)),
		    -1);
		len = strlen(t[i].want);
		ck_assert_msg(strncmp(err, t[i].want, len) == 0, "%s", err);
		ck_assert_str_eq(err + len, list);
		vb_conf_free(&c);
	}
	ck_assert_msg(vb_conf_parse("t.conf", good, &c, err, sizeof(err)) ==
	    0, "%s", err);
	ck_assert_int_eq(vb_conf_check_benches(&c, err, sizeof(err)), 0);
	vb_conf_free(&c);
}
END_TEST

/* Every shipped suite names benchmarks only. */
START_TEST(shipped_benches)
{
	struct vb_conf c;
	char err[1024];
	glob_t g;
	size_t i;

	ck_assert_int_eq(glob("configs/*.conf", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		ck_assert_msg(vb_conf_read(g.gl_pathv[i], &c, err,
		    sizeof(err)) == 0, "%s", err);
		ck_assert_msg(vb_conf_check_benches(&c, err, sizeof(err)) ==
		    0, "%s", err);
		vb_conf_free(&c);
	}
	ck_assert_uint_gt(g.gl_pathc, 0);
	globfree(&g);
}
END_TEST

Suite *
config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tu_tcase_local("config");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, parse_good);
	tcase_add_test(tc, no_iterations);
	tcase_add_test(tc, crlf);
	tcase_add_loop_test(tc, errors, 0,
	    (int)(sizeof(bads) / sizeof(bads[0])));
	tcase_add_test(tc, long_word);
	tcase_add_test(tc, files);
	tcase_add_test(tc, bounds);
	suite_add_tcase(s, tc);
	/* vmrun and each benchmark's --check, for every line: seconds */
	tc = tu_tcase_local("shipped");
	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, shipped_configs);
	tcase_add_test(tc, bench_list);
	tcase_add_test(tc, not_a_bench);
	tcase_add_test(tc, shipped_benches);
	suite_add_tcase(s, tc);
	return s;
}
