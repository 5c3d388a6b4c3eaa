/*
 * check_meta.c - the run's metadata (src/lib/meta.c): the settings it records.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"

START_TEST(meta_settings)
{
	char *s = vb_meta_settings();

	ck_assert_ptr_nonnull(strstr(s, "thp_enabled="));
	ck_assert_ptr_nonnull(strstr(s, "\nswappiness="));
	ck_assert_ptr_nonnull(strstr(s, "\nzswap_enabled="));
	ck_assert_ptr_nonnull(strstr(s, "\nmin_free_kbytes="));
	free(s);
}
END_TEST

Suite *
meta_suite(void)
{
	Suite *s = suite_create("meta");
	TCase *tc = tcase_create("meta");

	tcase_add_test(tc, meta_settings);
	suite_add_tcase(s, tc);
	return s;
}
