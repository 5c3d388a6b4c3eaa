/*
 * check_size.c - size, percentage and number parsing (src/lib/size.c).
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "size.h"
#include "testutil.h"

START_TEST(good_sizes)
{
	static const struct {
		const char *in;
		uint64_t want;
	} t[] = {
		{ "0", 0 }, { "4096", 4096 }, { "512K", 512ULL << 10 },
		{ "64M", 64ULL << 20 }, { "2G", 2ULL << 30 },
		{ "1T", 1ULL << 40 }, { "1.5G", 3ULL << 29 },
		{ "64m", 64ULL << 20 }, { "8KiB", 8192 }, { "3MB", 3ULL << 20 },
		{ "16777215T", 16777215ULL << 40 },
	};
	char err[VB_ERRLEN];
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_msg(vb_parse_size(t[i].in, 0, UINT64_MAX, &v,
		    err) == 0, "%s: %s", t[i].in, err);
		ck_assert_uint_eq(v, t[i].want);
	}
}
END_TEST

START_TEST(bad_sizes)
{
	static const char *const t[] = {
		"", "-1", "+5", "12Q", "M", "1.", ".5M", "0x10", "1e3", "nan",
		"inf", " 5", "5 M", "1.5", "16777216T", "99999999999999999999",
	};
	char err[VB_ERRLEN];
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(vb_parse_size(t[i], 0, UINT64_MAX, &v, err) < 0,
		    "'%s' accepted", t[i]);
		ck_assert_msg(strstr(err, t[i]) != NULL, "'%s': message '%s' "
		    "does not name the input", t[i], err);
	}
}
END_TEST

START_TEST(size_range)
{
	char err[VB_ERRLEN];
	uint64_t v;

	ck_assert_int_lt(vb_parse_size("1K", 4096, 1 << 20, &v, err), 0);
	tu_assert_has(err, "out of range (4K to 1M)");
	ck_assert_int_lt(vb_parse_size("2M", 4096, 1 << 20, &v, err), 0);
	ck_assert_int_eq(vb_parse_size("1M", 4096, 1 << 20, &v, err), 0);
}
END_TEST

START_TEST(percentages)
{
	struct vb_sizepct sp;
	char err[VB_ERRLEN];

	ck_assert_int_eq(vb_parse_sizepct("80%", 0, UINT64_MAX, &sp, err), 0);
	ck_assert_int_eq(sp.is_pct, 1);
	ck_assert_double_eq(sp.pct, 80);
	ck_assert_int_eq(vb_parse_sizepct("12.5%", 0, UINT64_MAX, &sp, err),
	    0);
	ck_assert_double_eq(sp.pct, 12.5);
	ck_assert_int_eq(vb_parse_sizepct("64M", 0, UINT64_MAX, &sp, err), 0);
	ck_assert_int_eq(sp.is_pct, 0);
	ck_assert_uint_eq(sp.bytes, 64ULL << 20);
	ck_assert_int_lt(vb_parse_sizepct("0%", 0, UINT64_MAX, &sp, err), 0);
	ck_assert_int_lt(vb_parse_sizepct("101%", 0, UINT64_MAX, &sp, err), 0);
	ck_assert_int_lt(vb_parse_sizepct("%", 0, UINT64_MAX, &sp, err), 0);
	ck_assert_int_lt(vb_parse_sizepct("x%", 0, UINT64_MAX, &sp, err), 0);
}
END_TEST

START_TEST(numbers)
{
	char err[VB_ERRLEN];
	uint64_t v;
	double d;

	ck_assert_int_eq(vb_parse_u64("1000000", 1, UINT64_MAX, &v, err), 0);
	ck_assert_uint_eq(v, 1000000);
	ck_assert_int_eq(vb_parse_u64("1e6", 1, UINT64_MAX, &v, err), 0);
	ck_assert_uint_eq(v, 1000000);
	ck_assert_int_eq(vb_parse_u64("18446744073709551615", 0, UINT64_MAX,
	    &v, err), 0);
	ck_assert_int_lt(vb_parse_u64("18446744073709551616", 0, UINT64_MAX,
	    &v, err), 0);
	ck_assert_int_lt(vb_parse_u64("2e19", 0, UINT64_MAX, &v, err), 0);
	ck_assert_int_lt(vb_parse_u64("-1", 0, 10, &v, err), 0);
	ck_assert_int_lt(vb_parse_u64("12x", 0, 100, &v, err), 0);
	ck_assert_int_lt(vb_parse_u64("0", 1, 100, &v, err), 0);
	tu_assert_has(err, "out of range (1 to 100)");
	ck_assert_int_eq(vb_parse_double("0.05", 0, 1, &d, err), 0);
	ck_assert_double_eq_tol(d, 0.05, 1e-12);
	ck_assert_int_lt(vb_parse_double("nan", 0, 1, &d, err), 0);
	ck_assert_int_lt(vb_parse_double("2", 0, 1, &d, err), 0);
}
END_TEST

START_TEST(format)
{
	char buf[32];

	ck_assert_str_eq(vb_fmt_size(buf, sizeof(buf), 64ULL << 20), "64M");
	ck_assert_str_eq(vb_fmt_size(buf, sizeof(buf), 3ULL << 29), "1.5G");
	ck_assert_str_eq(vb_fmt_size(buf, sizeof(buf), 1000), "1000");
	ck_assert_str_eq(vb_fmt_size(buf, sizeof(buf), 0), "0");
}
END_TEST

Suite *
size_suite(void)
{
	Suite *s = suite_create("size");
	TCase *tc = tu_tcase_local("parse");

	tcase_add_test(tc, good_sizes);
	tcase_add_test(tc, bad_sizes);
	tcase_add_test(tc, size_range);
	tcase_add_test(tc, percentages);
	tcase_add_test(tc, numbers);
	tcase_add_test(tc, format);
	suite_add_tcase(s, tc);
	return s;
}
