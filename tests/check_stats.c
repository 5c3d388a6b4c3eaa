/*
 * check_stats.c - descriptive statistics (src/lib/stats.c) against
 * hand-computed values.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "stats.h"
#include "testutil.h"

START_TEST(textbook)
{
	/* mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; s^2 = 32/7 */
	static const double v[] = { 9, 2, 5, 4, 4, 7, 4, 5 };
	double copy[8];
	struct vb_desc d;

	memcpy(copy, v, sizeof(v));
	vb_describe(copy, 8, 1, &d);
	ck_assert_uint_eq(d.n, 8);
	ck_assert_double_eq(d.mean, 5);
	ck_assert_double_eq_tol(d.sd, sqrt(32.0 / 7), 1e-12);
	ck_assert_double_eq_tol(d.cov, sqrt(32.0 / 7) / 5, 1e-12);
	ck_assert_double_eq(d.min, 2);
	ck_assert_double_eq(d.max, 9);
	ck_assert_double_eq(d.median, 4.5);
	ck_assert_int_eq(memcmp(copy, v, sizeof(v)), 0);	/* untouched */
}
END_TEST

/* NANs (absent values) are skipped; the stride picks one column. */
START_TEST(nan_and_stride)
{
	static const double rows[][3] = {
		{ 3, 100, NAN }, { NAN, 200, NAN }, { 1, 300, NAN },
		{ 2, NAN, NAN }, { NAN, 400, NAN },
	};
	struct vb_desc d;

	vb_describe(&rows[0][0], 5, 3, &d);
	ck_assert_uint_eq(d.n, 3);
	ck_assert_double_eq(d.mean, 2);
	ck_assert_double_eq(d.sd, 1);
	ck_assert_double_eq(d.cov, 0.5);
	ck_assert_double_eq(d.median, 2);
	ck_assert_double_eq(d.min, 1);
	ck_assert_double_eq(d.max, 3);

	vb_describe(&rows[0][1], 5, 3, &d);
	ck_assert_uint_eq(d.n, 4);
	ck_assert_double_eq(d.mean, 250);
	ck_assert_double_eq(d.median, 250);
	/* deviations -150 -50 50 150: (22500 + 2500) * 2 / 3 */
	ck_assert_double_eq_tol(d.sd, sqrt(50000.0 / 3), 1e-9);

	vb_describe(&rows[0][2], 5, 3, &d);
	ck_assert_uint_eq(d.n, 0);
	ck_assert(isnan(d.mean) && isnan(d.sd) && isnan(d.cov));
	ck_assert(isnan(d.min) && isnan(d.max) && isnan(d.median));
}
END_TEST

START_TEST(small_and_edge)
{
	static const double one[] = { 4.25 };
	static const double zero_mean[] = { -1, 1 };
	static const double neg[] = { -2, -4, -6 };
	struct vb_desc d;

	vb_describe(one, 1, 1, &d);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_double_eq(d.mean, 4.25);
	ck_assert_double_eq(d.sd, 0);
	ck_assert_double_eq(d.cov, 0);
	ck_assert_double_eq(d.median, 4.25);

	vb_describe(NULL, 0, 1, &d);
	ck_assert_uint_eq(d.n, 0);
	ck_assert(isnan(d.mean));

	vb_describe(zero_mean, 2, 1, &d);
	ck_assert_double_eq(d.mean, 0);
	ck_assert_double_eq_tol(d.sd, sqrt(2), 1e-12);
	ck_assert(isnan(d.cov));	/* undefined, not infinite */

	vb_describe(neg, 3, 1, &d);
	ck_assert_double_eq(d.mean, -4);
	ck_assert_double_eq(d.sd, 2);
	ck_assert_double_eq(d.cov, 0.5);	/* sd / |mean| */
	ck_assert_double_eq(d.median, -4);
	ck_assert_double_eq(d.min, -6);
}
END_TEST

/* Large, close values: a one-pass sum of squares would cancel. */
START_TEST(no_cancellation)
{
	static const double v[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };
	struct vb_desc d;

	vb_describe(v, 3, 1, &d);
	ck_assert_double_eq(d.mean, 1e9 + 2);
	ck_assert_double_eq_tol(d.sd, 1, 1e-6);
}
END_TEST

Suite *
stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tu_tcase_local("stats");

	tcase_add_test(tc, textbook);
	tcase_add_test(tc, nan_and_stride);
	tcase_add_test(tc, small_and_edge);
	tcase_add_test(tc, no_cancellation);
	suite_add_tcase(s, tc);
	return s;
}
