/*
 * check_fuzz.c - inputs of the kind the fuzzers look for (make fuzz,
 * docs/testing.md): each test feeds a reader an input at the edge of what
 * it can hold or parse, and checks that it is refused with a "file:line:
 * what is wrong" message.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "res.h"
#include "testutil.h"

/* A .res file of @nm metrics and one iteration of 1s, at tu_dir/@name. */
static char *
wide_res(char *path, size_t len, const char *name, int nm)
{
	FILE *f;
	int i;

	tu_path(path, len, name);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("vmbench-result 1\nbench b\nvariant v\ncmdline b\n"
	    "status complete\nstarted -\nended -\n", f);
	for (i = 0; i < nm; i++)
		fprintf(f, "metric m%d s lower\n", i);
	fputs("iter 1", f);
	for (i = 0; i < nm; i++)
		fputs(" 1", f);
	fputs("\nend\n", f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/*
 * An iteration line longer than the reader's word array: the count its
 * splitter returned for "too many words" equalled the count expected
 * with 4095 metrics (the iteration number and 4095 values), so the last
 * value was read from an unset slot (a crash).  4094 metrics must read,
 * 4095 be refused.
 */
START_TEST(res_many_words)
{
	char path[512], err[1024];
	struct vb_res r;

	wide_res(path, sizeof(path), "wide.res", 4094);
	ck_assert_msg(vb_res_read(path, &r, err, sizeof(err)) == 0, "%s",
	    err);
	ck_assert_int_eq(r.niter, 1);
	ck_assert_double_eq(vb_res_get(&r, 0, 4093), 1);
	vb_res_free(&r);
	wide_res(path, sizeof(path), "wider.res", 4095);
	ck_assert_int_eq(vb_res_read(path, &r, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "wider.res:4103: too many words"), "%s",
	    err);
}
END_TEST

/*
 * A carriage return left in a line after its CRLF's was taken off
 * ("param parent-mem 0\r\r"): the value kept it, and each rewrite and
 * read lost one more.  It must be refused.
 */
START_TEST(res_inner_cr)
{
	static const char *const lines[] = {
		"param parent-mem 0\r\r\n", "param parent-mem \r0\n",
		"param a\rb 0\n", "cmdline forkbomb\r--forks 1\n",
	};
	char path[512], err[1024], text[512];
	struct vb_res r;

	snprintf(text, sizeof(text), "vmbench-result 1\nbench forkbomb\n"
	    "variant default\n%s%sstatus complete\nstarted -\nended -\n"
	    "metric elapsed s lower\niter 1 1.5\nend\n",
	    _i == 3 ? "" : "cmdline forkbomb\n", lines[_i]);
	tu_write(path, sizeof(path), "cr.res", text);
	ck_assert_int_eq(vb_res_read(path, &r, err, sizeof(err)), -1);
	snprintf(text, sizeof(text), "cr.res:%d: carriage return inside a "
	    "line", _i == 3 ? 4 : 5);
	ck_assert_msg(strstr(err, text), "%s", err);
}
END_TEST

Suite *
fuzz_suite(void)
{
	Suite *s = suite_create("fuzz");
	TCase *tc = tu_tcase_local("fuzz");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, res_many_words);
	tcase_add_loop_test(tc, res_inner_cr, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
