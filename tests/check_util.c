/*
 * check_util.c - src/lib/util.c: the growable string buffer, UTF-8
 * validation and the escaping of untrusted text (control characters, stray
 * bytes), the read of a small file.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "testutil.h"

START_TEST(buf_grows)
{
	struct vb_buf b = VB_BUF_INIT;
	char want[16];
	int i;

	ck_assert_str_eq(vb_buf_str(&b), "");
	for (i = 0; i < 10000; i++)
		vb_buf_printf(&b, "%05d,", i);
	ck_assert_uint_eq(b.len, 60000);
	ck_assert_uint_eq(strlen(b.s), 60000);
	for (i = 0; i < 10000; i += 997) {
		snprintf(want, sizeof(want), "%05d,", i);
		ck_assert_int_eq(memcmp(b.s + 6 * i, want, 6), 0);
	}
	vb_buf_free(&b);
	ck_assert_ptr_null(b.s);
	ck_assert_uint_eq(b.len, 0);
	/* a single piece larger than the first allocation */
	vb_buf_printf(&b, "%s", "x");
	vb_buf_printf(&b, "%3000s|", "y");
	ck_assert_uint_eq(b.len, 3002);
	ck_assert_str_eq(b.s + 3000, "y|");
	vb_buf_free(&b);
}
END_TEST

START_TEST(utf8)
{
	static const struct {
		const char *s;
		size_t len;
	} c[] = {
		{ "a", 1 },
		{ "\xc3\xa9", 2 },		/* é */
		{ "\xe2\x82\xac", 3 },		/* € */
		{ "\xf0\x9f\x98\x80", 4 },	/* U+1F600 */
		{ "\xc2\x9b", 2 },		/* U+009B: UTF-8, a C1 */
		{ "\x80", 0 },			/* a continuation alone */
		{ "\xff", 0 },
		{ "\xc0\xaf", 0 },		/* overlong '/' */
		{ "\xe0\x80\xaf", 0 },		/* overlong */
		{ "\xed\xa0\x80", 0 },		/* a surrogate */
		{ "\xf4\x90\x80\x80", 0 },	/* above U+10FFFF */
		{ "\xc3", 0 },			/* cut short */
		{ "\xe2\x82", 0 },
		{ "\xc3(", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(vb_utf8_len(c[i].s, strlen(c[i].s)) == c[i].len,
		    "case %zu: %zu, want %zu", i, vb_utf8_len(c[i].s,
		    strlen(c[i].s)), c[i].len);
	ck_assert_uint_eq(vb_utf8_len("\xc3\xa9", 1), 0);
	ck_assert_uint_eq(vb_utf8_len("", 0), 0);
}
END_TEST

START_TEST(esc)
{
	char buf[64], *mem = NULL;
	size_t n = 0;
	FILE *f;

	ck_assert_str_eq(vb_esc(buf, sizeof(buf), "plain text", 0),
	    "plain text");
	ck_assert_str_eq(vb_esc(buf, sizeof(buf), "a\nb\tc\rd", 0),
	    "a\\nb\\tc\\rd");
	ck_assert_str_eq(vb_esc(buf, sizeof(buf), "a\nb", 1), "a\nb");
	ck_assert_str_eq(vb_esc(buf, sizeof(buf), "\033[2J\x7f", 0),
	    "\\x1b[2J\\x7f");
	ck_assert_str_eq(vb_esc(buf, sizeof(buf), "caf\xc3\xa9 \x80\xff", 0),
	    "caf\xc3\xa9 \\x80\\xff");
	ck_assert_str_eq(vb_esc(buf, sizeof(buf), "\xc2\x9b" "1m", 0),
	    "\\xc2\\x9b1m");
	/* cut at a whole escape, never inside one */
	ck_assert_str_eq(vb_esc(buf, 6, "ab\033cd", 0), "ab");
	ck_assert_str_eq(vb_esc(buf, 7, "ab\033cd", 0), "ab\\x1b");
	ck_assert_str_eq(vb_esc(buf, 8, "ab\033cd", 0), "ab\\x1bc");
	ck_assert_str_eq(vb_esc(buf, 4, "a\xc3\xa9", 0), "a\xc3\xa9");
	ck_assert_str_eq(vb_esc(buf, 3, "a\xc3\xa9", 0), "a");
	/* to a stream, with the NUL bytes of a length-counted text */
	f = open_memstream(&mem, &n);
	ck_assert_ptr_nonnull(f);
	vb_fput_esc(f, "x\0y\033\n\xe2\x82\xac", 8, 1);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(mem, "x\\x00y\\x1b\n\xe2\x82\xac");
	free(mem);
}
END_TEST

/* A small file whole, one cut at the buffer, a missing one. */
START_TEST(read_small)
{
	char path[1024], buf[8];

	tu_write(path, sizeof(path), "small", "abc\n");
	ck_assert_int_eq(vb_read_small(path, buf, sizeof(buf)), 4);
	ck_assert_str_eq(buf, "abc\n");
	ck_assert_int_eq(vb_read_small(path, buf, 3), 2);
	ck_assert_str_eq(buf, "ab");
	unlink(path);
	errno = 0;
	ck_assert_int_eq(vb_read_small(path, buf, sizeof(buf)), -1);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* A control file written whole, truncated, never through a symlink. */
START_TEST(put_at)
{
	char path[1024], link[1100], buf[16];

	tu_write(path, sizeof(path), "knob", "something long\n");
	ck_assert(vb_exists_at(tu_dir, "knob"));
	ck_assert(!vb_exists_at(tu_dir, "none"));
	ck_assert_int_eq(vb_put_at(tu_dir, "knob", "7"), 0);
	ck_assert_int_eq(vb_read_small(path, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "7");
	snprintf(link, sizeof(link), "%s/via", tu_dir);
	ck_assert_int_eq(symlink(path, link), 0);
	errno = 0;
	ck_assert_int_eq(vb_put_at(tu_dir, "via", "9"), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_int_eq(vb_read_small(path, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "7");
	ck_assert_int_eq(vb_put_at(tu_dir, "none", "1"), -1);
	unlink(link);
	unlink(path);
}
END_TEST

Suite *
util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tu_tcase_local("util");

	tcase_add_unchecked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, buf_grows);
	tcase_add_test(tc, utf8);
	tcase_add_test(tc, esc);
	tcase_add_test(tc, read_small);
	tcase_add_test(tc, put_at);
	suite_add_tcase(s, tc);
	return s;
}
