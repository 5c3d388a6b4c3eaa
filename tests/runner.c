/*
 * The one test runner: every tests/check_<module>.c exports
 * Suite *<module>_suite(void); tests/suites.h (made by the Makefile)
 * lists them.  Exits non-zero when any test fails.
 *
 *	tests/check_vmbench            all suites
 *	tests/check_vmbench size res   only these suites
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#define SUITE(n) Suite *n##_suite(void);
#include "suites.h"
#undef SUITE

static const struct {
	const char *name;
	Suite *(*fn)(void);
} suites[] = {
#define SUITE(n) { #n, n##_suite },
#include "suites.h"
#undef SUITE
};

int
main(int argc, char **argv)
{
	SRunner *sr = NULL;
	size_t i;
	int j, failed;

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		int want = argc < 2;

		for (j = 1; j < argc; j++)
			want |= strcmp(argv[j], suites[i].name) == 0;
		if (!want)
			continue;
		if (!sr)
			sr = srunner_create(suites[i].fn());
		else
			srunner_add_suite(sr, suites[i].fn());
	}
	if (!sr)
		return 2;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
