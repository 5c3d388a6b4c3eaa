/*
 * check_post.c - the post (src/report/views/post.c, make post): the
 * tracepoint figures of a result (src/lib/trace.h's columns) under its
 * time lines, one line a family the .res has, from the figures alone.
 * Fixtures are make ab's pair (tests/fixtures/ab-A, ab-B) copied into
 * tu_dir with columns added by awk.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/*
 * A and B in tu_dir: memfill.res of make ab's fixtures with the columns
 * @metrics ("metric NAME UNIT DIR" lines, "\n"-separated) and @vals
 * appended to each iteration line.
 */
static void
pair_with(const char *metrics, const char *vals_a, const char *vals_b)
{
	ck_assert_int_eq(tu_sh_in(tu_dir, "for k in A B; do mkdir \"$T/$k\" "
	    "&& cp tests/fixtures/ab-$k/meta \"$T/$k/\" || exit 1; done; "
	    "for k in A B; do case $k in A) v='%s';; B) v='%s';; esac; "
	    "awk -v m='%s' -v v=\"$v\" '/^metric fill_s/ { print; n = "
	    "split(m, l, \";\"); for (i = 1; i <= n; i++) print l[i]; "
	    "next } /^iter/ { print $0 \" \" v; next } { print }' "
	    "tests/fixtures/ab-$k/memfill.res > \"$T/$k/memfill.res\" || "
	    "exit 1; done", vals_a, vals_b, metrics), 0);
}

/* vmreport ARGS on A and B of tu_dir; its output (to free). */
static char *
post_of(const char *args)
{
	char path[400];

	ck_assert_int_eq(tu_sh_in(tu_dir, "report/vmreport %s \"$T/A\" "
	    "\"$T/B\" > \"$T/out\" 2> \"$T/err\"", args), 0);
	snprintf(path, sizeof(path), "%s/out", tu_dir);
	return tu_slurp(path);
}

/*
 * Direct and memcg reclaim and kswapd's wake-ups recorded, compaction
 * not: a line for each of the three under each side's time line, in
 * the trace's words and units, none for compaction; a family with no
 * stall has no percentile; lost events are said.
 */
START_TEST(trace_lines)
{
	char *out, *p;

	pair_with("metric reclaim_direct_n stalls lower;"
	    "metric reclaim_direct_p99_us us lower;"
	    "metric reclaim_memcg_n stalls lower;"
	    "metric reclaim_memcg_p99_us us lower;"
	    "metric kswapd_wake_n wakeups lower;"
	    "metric trace_lost events info",
	    "1204 3100 0 - 12 0", "310 850 2 40 3 6");
	out = post_of("--post");
	p = strstr(out, "\nmemfill\n");
	ck_assert_msg(p != NULL, "no memfill section:\n%s", out);
	tu_assert_has(p, "direct reclaim: 1,204 stalls, p99 3.1 ms "
	    "(system-wide)\n");
	tu_assert_has(p, "memcg reclaim: 0 stalls (system-wide)\n");
	tu_assert_has(p, "kswapd wake-ups: 12 (system-wide)\n");
	tu_assert_has(p, "direct reclaim: 310 stalls, p99 850 us "
	    "(system-wide)\n");
	tu_assert_has(p, "memcg reclaim: 2 stalls, p99 40 us "
	    "(system-wide)\n");
	tu_assert_has(p, "6 trace events lost: the figures above "
	    "undercount\n");
	tu_assert_lacks(p, "compaction:");
	/* the short table keeps the benchmark's own figures */
	tu_assert_lacks(p, "\nreclaim_direct_n ");
	/* the A side's lines come before B's time line */
	ck_assert_msg(strstr(p, "1,204 stalls") < strstr(p, "x-B:"),
	    "A's tracepoint lines are not under A:\n%s", p);
	free(out);
}
END_TEST

/* Without the columns (tracing off): no line, no word of them. */
START_TEST(no_trace_no_lines)
{
	char *out;

	pair_with("metric foreign_x % info", "1", "1");
	out = post_of("--post");
	tu_assert_lacks(out, "reclaim:");
	tu_assert_lacks(out, "kswapd");
	free(out);
}
END_TEST

/* A narrow post: the parenthesis on a line of its own. */
START_TEST(trace_lines_narrow)
{
	char *out;

	pair_with("metric reclaim_direct_n stalls lower;"
	    "metric reclaim_direct_p99_us us lower",
	    "1204 3100", "310 850");
	out = post_of("--post --width 60");
	tu_assert_has(out, "direct reclaim: 1,204 stalls, p99 3.1 ms\n");
	tu_assert_has(out, "    (system-wide)\n");
	free(out);
}
END_TEST

Suite *
post_suite(void)
{
	Suite *s = suite_create("post");
	TCase *tc = tu_tcase("post");

	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, trace_lines);
	tcase_add_test(tc, no_trace_no_lines);
	tcase_add_test(tc, trace_lines_narrow);
	suite_add_tcase(s, tc);
	return s;
}
