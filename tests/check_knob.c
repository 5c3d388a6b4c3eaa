/*
 * check_knob.c - the settings an A/B run changes (src/runner/knob.c):
 * names parsed into paths, the refusals, and the check, apply and restore
 * on a fake /proc/sys and /sys tree.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob.h"
#include "meta.h"
#include "settings.h"
#include "testutil.h"

START_TEST(parse_names)
{
	struct vb_knobs ks;
	char err[512];

	ks = (struct vb_knobs){ .root = tu_dir };
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "thp=never,vm.swappiness=0,"
	    "zswap=Y,min_free_kbytes=1000,zswap.compressor=lz4,"
	    "/proc/sys/vm/dirty_ratio=5,thp.16kB=never", err, sizeof(err)),
	    0);
	ck_assert_int_eq(ks.n, 7);
	ck_assert(strstr(ks.k[6].path, "/sys/kernel/mm/transparent_hugepage/"
	    "hugepages-16kB/enabled"));
	ck_assert(strstr(ks.k[0].path,
	    "/sys/kernel/mm/transparent_hugepage/enabled"));
	ck_assert(strstr(ks.k[1].path, "/proc/sys/vm/swappiness"));
	ck_assert(strstr(ks.k[2].path, "/sys/module/zswap/parameters/enabled"));
	ck_assert(strstr(ks.k[3].path, "/proc/sys/vm/min_free_kbytes"));
	ck_assert(strstr(ks.k[4].path, "/zswap/parameters/compressor"));
	ck_assert(strstr(ks.k[5].path, "/proc/sys/vm/dirty_ratio"));
	ck_assert_str_eq(ks.k[1].val[0], "0");
	/* B shares A's knob: one entry, two values */
	ck_assert_int_eq(vb_knobs_parse(&ks, 1, "vm.swappiness=100", err,
	    sizeof(err)), 0);
	ck_assert_int_eq(ks.n, 7);
	ck_assert_str_eq(ks.k[1].val[1], "100");
	vb_knobs_free(&ks);
}
END_TEST

START_TEST(parse_refuses)
{
	static const char *const bad[] = {
		"thp", "=1", "vm.swappiness=", "../etc/passwd=1",
		"/etc/passwd=x", "vm.swap piness=1", "thp=a\tb",
		"vm.swappiness=1,vm.swappiness=2", "", "sys/kernel=1",
		"/proc/sys/../../etc/x=1",
	};
	struct vb_knobs ks;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ks = (struct vb_knobs){ .root = tu_dir };
		err[0] = '\0';
		ck_assert_msg(vb_knobs_parse(&ks, 0, bad[i], err,
		    sizeof(err)) < 0, "accepted '%s'", bad[i]);
		ck_assert_msg(err[0] && !strchr(err, '\n'), "'%s': '%s'",
		    bad[i], err);
		vb_knobs_free(&ks);
	}
}
END_TEST

START_TEST(check_apply_restore)
{
	struct vb_knobs ks;
	char err[512], v[256];

	tu_fake_settings();
	ks = (struct vb_knobs){ .root = tu_dir };
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "thp=never,vm.swappiness=0",
	    err, sizeof(err)), 0);
	ck_assert_int_eq(vb_knobs_parse(&ks, 1, "thp=always", err,
	    sizeof(err)), 0);
	ck_assert_msg(vb_knobs_check(&ks, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(ks.k[0].orig, "madvise");
	ck_assert_str_eq(ks.k[1].orig, "60");
	/* the check wrote 0 and then 60 back */
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_int_eq(vb_knobs_apply(&ks, 0, err, sizeof(err)), 0);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "0");
	ck_assert_str_eq(tu_line(
	    "sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)),
	    "never");
	/* B leaves swappiness at its original value */
	ck_assert_int_eq(vb_knobs_apply(&ks, 1, err, sizeof(err)), 0);
	ck_assert_str_eq(tu_line("proc/sys/vm/swappiness", v, sizeof(v)), "60");
	ck_assert_str_eq(tu_line(
	    "sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)),
	    "always");
	ck_assert_int_eq(vb_knobs_restore(&ks), 0);
	ck_assert_str_eq(tu_line(
	    "sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)),
	    "madvise");
	ck_assert_str_eq(vb_knobs_describe(&ks, 0, v, sizeof(v)),
	    "thp=never,vm.swappiness=0");
	vb_knobs_free(&ks);
}
END_TEST

START_TEST(check_refuses)
{
	struct vb_knobs ks;
	char err[512];

	tu_fake_settings();
	ks = (struct vb_knobs){ .root = tu_dir };
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "thp=sometimes", err,
	    sizeof(err)), 0);
	ck_assert_int_lt(vb_knobs_check(&ks, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "not one of the choices (always madvise "
	    "never)"), "%s", err);
	vb_knobs_free(&ks);
	ks = (struct vb_knobs){ .root = tu_dir };
	ck_assert_int_eq(vb_knobs_parse(&ks, 0, "vm.no_such_knob=1", err,
	    sizeof(err)), 0);
	ck_assert_int_lt(vb_knobs_check(&ks, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "no such setting"), "%s", err);
	vb_knobs_free(&ks);
}
END_TEST

/*
 * The settings table (src/lib/settings.h) is the one list: a row with a
 * short name is make ab's name for its file, every row is a line of
 * what each meta records, and the page's list follows its show flag.
 * A new setting is one row there, and this test covers it.
 */
START_TEST(settings_table)
{
	char want[600], err[512], list[128], *text = vb_meta_settings();
	int i, n = 0, shown = 0;

	for (i = 0; vb_settings[i].key; i++) {
		struct vb_knobs ks = { 0 };

		snprintf(want, sizeof(want), "\n%s=", vb_settings[i].key);
		ck_assert_msg(strstr(text, want) || strncmp(text, want + 1,
		    strlen(want + 1)) == 0, "meta lacks %s", want + 1);
		shown += (vb_settings[i].show & VB_SHOW_PAGE) != 0;
		n++;
		if (!vb_settings[i].knob)
			continue;
		ks.root = "/fake";
		snprintf(list, sizeof(list), "%s=1", vb_settings[i].knob);
		ck_assert_msg(vb_knobs_parse(&ks, 0, list, err,
		    sizeof(err)) == 0, "%s: %s", list, err);
		ck_assert_int_eq(ks.n, 1);
		snprintf(want, sizeof(want), "/fake%s", vb_settings[i].path);
		ck_assert_str_eq(ks.k[0].path, want);
		ks.root = NULL;
		vb_knobs_free(&ks);
	}
	ck_assert_int_eq(n, VB_NSETTINGS);
	ck_assert_int_gt(shown, 0);
	free(text);
}
END_TEST

Suite *
knob_suite(void)
{
	Suite *s = suite_create("knob");
	TCase *tc;

	tc = tu_tcase_local("knob");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, parse_names);
	tcase_add_test(tc, settings_table);
	tcase_add_test(tc, parse_refuses);
	tcase_add_test(tc, check_apply_restore);
	tcase_add_test(tc, check_refuses);
	suite_add_tcase(s, tc);
	return s;
}
