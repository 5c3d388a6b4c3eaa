/* Suite definitions (src/runner/config.c): parsing and file:line errors. */
#include <check.h>
#include <stdio.h>
#include <string.h>

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
	ck_assert_ptr_nonnull(strstr(err, "t.conf:1: word too long"));
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
	ck_assert_ptr_nonnull(strstr(err, want));

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

/* The checked-in suites parse. */
START_TEST(shipped_configs)
{
	static const char *const confs[] = {
		"configs/quick.conf", "configs/test.conf",
		"configs/ab-swapin.conf",
	};
	struct vb_conf c;
	char err[1024];
	size_t i;

	for (i = 0; i < sizeof(confs) / sizeof(confs[0]); i++) {
		if (access(confs[i], R_OK) != 0)
			continue;	/* not written yet */
		ck_assert_msg(vb_conf_read(confs[i], &c, err, sizeof(err)) ==
		    0, "%s", err);
		ck_assert_int_gt(c.nlines, 0);
		vb_conf_free(&c);
	}
}
END_TEST

Suite *
config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("config");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, parse_good);
	tcase_add_test(tc, no_iterations);
	tcase_add_test(tc, crlf);
	tcase_add_loop_test(tc, errors, 0,
	    (int)(sizeof(bads) / sizeof(bads[0])));
	tcase_add_test(tc, long_word);
	tcase_add_test(tc, files);
	tcase_add_test(tc, shipped_configs);
	suite_add_tcase(s, tc);
	return s;
}
