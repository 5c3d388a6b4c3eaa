/*
 * check_meta.c - the run's metadata (src/lib/meta.c): the settings it records.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"
#include "testutil.h"

START_TEST(meta_settings)
{
	char *s = vb_meta_settings();

	tu_assert_has(s, "thp_enabled=");
	tu_assert_has(s, "\nswappiness=");
	tu_assert_has(s, "\nzswap_enabled=");
	tu_assert_has(s, "\nmin_free_kbytes=");
	free(s);
}
END_TEST

Suite *
meta_suite(void)
{
	Suite *s = suite_create("meta");
	TCase *tc = tu_tcase_local("meta");

	tcase_add_test(tc, meta_settings);
	suite_add_tcase(s, tc);
	return s;
}
