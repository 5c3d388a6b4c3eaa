/*
 * check_opt.c - the option table (src/lib/opt.c): defaults, forms, errors,
 * formatting.
 */
#include <check.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "testutil.h"

struct cfg {
	uint64_t n;
	uint64_t size;
	struct vb_sizepct mem;
	double ratio;
	int verbose;
	const char *mode;
	const char *name;
};

static const struct vb_opt tab[] = {
	{ .name = "n", .type = VB_OPT_U64, .arg = "N",
	  .off = offsetof(struct cfg, n), .def = "10", .min = 1, .max = 1000,
	  .help = "a count" },
	{ .name = "size", .type = VB_OPT_SIZE, .arg = "SIZE",
	  .off = offsetof(struct cfg, size), .def = "64M", .min = 4096,
	  .max = 1ULL << 30, .help = "a size" },
	{ .name = "mem", .type = VB_OPT_SIZEPCT, .arg = "SIZE|N%",
	  .off = offsetof(struct cfg, mem), .def = "80%", .min = 1 << 20,
	  .max = 16ULL << 30, .help = "memory" },
	{ .name = "ratio", .type = VB_OPT_DOUBLE, .arg = "R",
	  .off = offsetof(struct cfg, ratio), .def = "0.5", .dmin = 0,
	  .dmax = 1, .help = "a fraction" },
	{ .name = "verbose", .type = VB_OPT_FLAG,
	  .off = offsetof(struct cfg, verbose), .help = "say more" },
	{ .name = "mode", .type = VB_OPT_STR, .arg = "MODE",
	  .off = offsetof(struct cfg, mode), .def = "audio",
	  .choices = "audio|video|x", .help = "the task" },
	{ .name = "name", .type = VB_OPT_STR, .arg = "NAME",
	  .off = offsetof(struct cfg, name), .help = "any text" },
	{ 0 },
};

/* Parse a NULL-terminated list; returns vb_opt_parse()'s result. */
static int
parse(struct cfg *c, uint64_t *given, char *err, const char *a0, ...)
{
	char *argv[32];
	const char *a;
	int argc = 0;
	va_list ap;

	memset(c, 0xa5, sizeof(*c));	/* defaults must overwrite this */
	va_start(ap, a0);
	for (a = a0; a && argc < 32; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	err[0] = '\0';
	return vb_opt_parse(tab, c, argc, argv, given, err, 256);
}

START_TEST(defaults)
{
	struct cfg c;
	uint64_t given = 99;
	char err[256];

	ck_assert_int_eq(parse(&c, &given, err, NULL), 0);
	ck_assert_uint_eq(given, 0);
	ck_assert_uint_eq(c.n, 10);
	ck_assert_uint_eq(c.size, 64ULL << 20);
	ck_assert_int_eq(c.mem.is_pct, 1);
	ck_assert_double_eq(c.mem.pct, 80);
	ck_assert_double_eq(c.ratio, 0.5);
	ck_assert_int_eq(c.verbose, 0);
	ck_assert_str_eq(c.mode, "audio");
	ck_assert_ptr_null(c.name);
}
END_TEST

START_TEST(both_forms)
{
	struct cfg c;
	uint64_t given;
	char err[256];

	ck_assert_msg(parse(&c, &given, err, "--n", "5", "--size=128K",
	    "--mem", "1G", "--ratio=0.25", "--verbose", "--mode", "video",
	    "--name=a=b c", NULL) == 10, "%s", err);
	ck_assert_uint_eq(c.n, 5);
	ck_assert_uint_eq(c.size, 128 << 10);
	ck_assert_int_eq(c.mem.is_pct, 0);
	ck_assert_uint_eq(c.mem.bytes, 1ULL << 30);
	ck_assert_double_eq(c.ratio, 0.25);
	ck_assert_int_eq(c.verbose, 1);
	ck_assert_str_eq(c.mode, "video");
	ck_assert_str_eq(c.name, "a=b c");	/* up to the first '=' */
	ck_assert_uint_eq(given, 0x7f);
	/* a later value wins; only given options are marked */
	ck_assert_int_eq(parse(&c, &given, err, "--n", "3", "--mode=x",
	    "--n=4", NULL), 4);
	ck_assert_uint_eq(c.n, 4);
	ck_assert_str_eq(c.mode, "x");
	ck_assert_uint_eq(given, (1u << 0) | (1u << 5));
	ck_assert_uint_eq(c.size, 64ULL << 20);
}
END_TEST

static const struct bad {
	const char *a[4];
	const char *msg;
} bads[] = {
	{ { "--nope", "3" }, "unknown option '--nope' (see --help)" },
	{ { "--verb" }, "unknown option '--verb'" },
	{ { "--N", "3" }, "unknown option '--N'" },
	{ { "--n" }, "--n needs a value (N)" },
	{ { "--ratio", "0.5", "--mode" }, "--mode needs a value (MODE)" },
	{ { "5" }, "unexpected argument '5'" },
	{ { "-n", "5" }, "unexpected argument '-n'" },
	{ { "--" }, "unexpected argument '--'" },
	{ { "--verbose=1" }, "--verbose takes no value" },
	{ { "--mode", "vid" }, "--mode: unknown value 'vid' (choose "
	  "audio|video|x)" },
	{ { "--mode=" }, "--mode: unknown value ''" },
	{ { "--n", "0" }, "--n: " },
	{ { "--n", "1001" }, "out of range (1 to 1000)" },
	{ { "--n", "abc" }, "abc" },
	{ { "--n", "-1" }, "--n: " },
	{ { "--size", "1K" }, "--size: " },
	{ { "--size", "2G" }, "--size: " },
	{ { "--size", "12Q" }, "12Q" },
	{ { "--mem", "0%" }, "--mem: " },
	{ { "--mem", "512K" }, "--mem: " },
	{ { "--ratio", "1.5" }, "--ratio: " },
	{ { "--ratio", "nan" }, "--ratio: " },
	/* strtod() would take these: a hex float, 0x0.8 = 0.5 */
	{ { "--ratio", "0x0.8" }, "--ratio: bad number '0x0.8': expected a "
	    "decimal number" },
	{ { "--ratio", "0X1p-1" }, "--ratio: bad number" },
	{ { "--ratio", "infinity" }, "--ratio: bad number" },
	{ { "--ratio", "." }, "--ratio: bad number" },
	{ { "--ratio", "1e" }, "--ratio: bad number" },
	{ { "--mem", "0x10%" }, "--mem: bad percentage '0x10%'" },
};

START_TEST(errors)
{
	const struct bad *b = &bads[_i];
	struct cfg c;
	char err[256];
	int rc;

	rc = parse(&c, NULL, err, b->a[0], b->a[1], b->a[2], b->a[3], NULL);
	ck_assert_msg(rc == -1, "'%s %s' accepted", b->a[0],
	    b->a[1] ? b->a[1] : "");
	ck_assert_msg(strstr(err, b->msg) != NULL, "message '%s' lacks '%s'",
	    err, b->msg);
	ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

/* The decimal forms a real number may take; strtod()'s others refused. */
START_TEST(decimal_forms)
{
	static const char *const ok[] = { "0.5", ".5", "5e-1", "+0.5", "1",
		"0", "1.", "0.25E0" };
	static const char *const no[] = { "0x10", "0x0.8", "inf", "nan",
		"", "-", "e5", "1e+", " 1", "1 ", "1,5", "0b1" };
	struct cfg c;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_msg(vb_opt_decimal(ok[i]), "'%s' refused", ok[i]);
		ck_assert_msg(parse(&c, NULL, err, "--ratio", ok[i], NULL) ==
		    2, "--ratio %s: %s", ok[i], err);
	}
	ck_assert_double_eq(c.ratio, 0.25);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ck_assert_msg(!vb_opt_decimal(no[i]), "'%s' taken", no[i]);
	ck_assert_int_eq(parse(&c, NULL, err, "--mem", "12.5%", NULL), 2);
	ck_assert_int_eq(c.mem.is_pct, 1);
}
END_TEST

START_TEST(format)
{
	struct cfg c;
	char err[256], buf[64];

	ck_assert_int_eq(parse(&c, NULL, err, NULL), 0);
	ck_assert_str_eq(vb_opt_format(&tab[0], &c, buf, sizeof(buf)), "10");
	ck_assert_str_eq(vb_opt_format(&tab[1], &c, buf, sizeof(buf)), "64M");
	ck_assert_str_eq(vb_opt_format(&tab[2], &c, buf, sizeof(buf)), "80%");
	ck_assert_str_eq(vb_opt_format(&tab[3], &c, buf, sizeof(buf)), "0.5");
	ck_assert_str_eq(vb_opt_format(&tab[4], &c, buf, sizeof(buf)), "0");
	ck_assert_str_eq(vb_opt_format(&tab[5], &c, buf, sizeof(buf)),
	    "audio");
	ck_assert_str_eq(vb_opt_format(&tab[6], &c, buf, sizeof(buf)), "-");
	ck_assert_int_eq(parse(&c, NULL, err, "--n", "1e3", "--size", "1.5M",
	    "--mem", "1536M", "--verbose", "--ratio", "0.125", "--name", "z",
	    NULL), 11);
	ck_assert_str_eq(vb_opt_format(&tab[0], &c, buf, sizeof(buf)),
	    "1000");
	ck_assert_str_eq(vb_opt_format(&tab[1], &c, buf, sizeof(buf)),
	    "1.5M");
	ck_assert_str_eq(vb_opt_format(&tab[2], &c, buf, sizeof(buf)),
	    "1.5G");
	ck_assert_str_eq(vb_opt_format(&tab[3], &c, buf, sizeof(buf)),
	    "0.125");
	ck_assert_str_eq(vb_opt_format(&tab[4], &c, buf, sizeof(buf)), "1");
	ck_assert_str_eq(vb_opt_format(&tab[6], &c, buf, sizeof(buf)), "z");
}
END_TEST

/* Every formatted value parses back to the same setting. */
START_TEST(format_round_trip)
{
	struct cfg a, b;
	char err[256], buf[64];
	const struct vb_opt *o;

	ck_assert_int_eq(parse(&a, NULL, err, "--n", "777", "--size", "3G",
	    NULL), -1);	/* 3G is above the 1G maximum */
	ck_assert_int_eq(parse(&a, NULL, err, "--n", "777", "--size", "768M",
	    "--mem", "12.5%", "--ratio", "0.3", NULL), 8);
	memcpy(&b, &a, sizeof(b));
	for (o = tab; o->name; o++) {
		if (o->type == VB_OPT_FLAG || !o->def)
			continue;
		vb_opt_format(o, &a, buf, sizeof(buf));
		ck_assert_msg(vb_opt_set(o, &b, buf, err, sizeof(err)) == 0,
		    "--%s %s: %s", o->name, buf, err);
	}
	ck_assert_uint_eq(b.n, a.n);
	ck_assert_uint_eq(b.size, a.size);
	ck_assert_int_eq(b.mem.is_pct, 1);
	ck_assert_double_eq(b.mem.pct, 12.5);
	ck_assert_double_eq(b.ratio, a.ratio);
}
END_TEST

START_TEST(find_and_usage)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_ptr_eq(vb_opt_find(tab, "mem"), &tab[2]);
	ck_assert_ptr_null(vb_opt_find(tab, "me"));
	ck_assert_ptr_null(vb_opt_find(NULL, "mem"));
	f = open_memstream(&buf, &len);
	vb_opt_usage(f, tab);
	fclose(f);
	tu_assert_has(buf, "--n N");
	tu_assert_has(buf, "a count (default 10)");
	tu_assert_has(buf, "--verbose ");
	tu_assert_lacks(buf, "--verbose X");
	tu_assert_has(buf, "[audio|video|x]");
	free(buf);
}
END_TEST

/*
 * One-letter spellings (make's -jN): -j N and -jN as --jobs N, a
 * lettered flag alone; an unknown letter is refused as before.
 */
START_TEST(letters)
{
	struct lcfg {
		uint64_t jobs;
		int quiet;
	} c;
	static const struct vb_opt lt[] = {
		{ .name = "jobs", .type = VB_OPT_U64, .arg = "N",
		  .off = offsetof(struct lcfg, jobs), .def = "2", .min = 1,
		  .max = 64, .letter = 'j', .help = "slots" },
		{ .name = "quiet", .type = VB_OPT_FLAG, .letter = 'q',
		  .off = offsetof(struct lcfg, quiet), .help = "say less" },
		{ 0 },
	};
	char *ok1[] = { "-j4", "-q" }, *ok2[] = { "-j", "7", "--jobs=3" };
	char *bad1[] = { "-j" }, *bad2[] = { "-qx" }, *bad3[] = { "-k3" };
	char *bad4[] = { "-j", "0" };
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(vb_opt_parse(lt, &c, 2, ok1, NULL, err, 256), 2);
	ck_assert_uint_eq(c.jobs, 4);
	ck_assert_int_eq(vb_opt_flag(lt, &c, "quiet"), 1);
	ck_assert_int_eq(vb_opt_parse(lt, &c, 3, ok2, NULL, err, 256), 3);
	ck_assert_uint_eq(c.jobs, 3);
	ck_assert_int_eq(vb_opt_flag(lt, &c, "quiet"), 0);
	ck_assert_int_eq(vb_opt_flag(lt, &c, "jobs"), -1);
	ck_assert_int_eq(vb_opt_flag(lt, &c, "nope"), -1);
	ck_assert_int_eq(vb_opt_parse(lt, &c, 1, bad1, NULL, err, 256), -1);
	ck_assert_str_eq(err, "-j needs a value (N)");
	ck_assert_int_eq(vb_opt_parse(lt, &c, 1, bad2, NULL, err, 256), -1);
	ck_assert_str_eq(err, "-q takes no value");
	ck_assert_int_eq(vb_opt_parse(lt, &c, 1, bad3, NULL, err, 256), -1);
	ck_assert_str_eq(err, "unexpected argument '-k3'");
	ck_assert_int_eq(vb_opt_parse(lt, &c, 2, bad4, NULL, err, 256), -1);
	ck_assert_str_eq(err, "--jobs: number '0' out of range (1 to 64)");
	ck_assert_ptr_eq(vb_opt_find_letter(lt, 'j'), &lt[0]);
	ck_assert_ptr_null(vb_opt_find_letter(tab, 'n'));
	f = open_memstream(&buf, &len);
	vb_opt_usage(f, lt);
	fclose(f);
	tu_assert_has(buf, "  -jN, --jobs N   ");
	tu_assert_has(buf, "  -q, --quiet   ");
	free(buf);
}
END_TEST

/* A default the table's own parser rejects is reported, not used. */
START_TEST(bad_default)
{
	static const struct vb_opt bad[] = {
		{ .name = "n", .type = VB_OPT_U64, .off = 0, .def = "lots",
		  .min = 0, .max = 10 },
		{ 0 },
	};
	uint64_t n;
	char err[256] = "";

	ck_assert_int_eq(vb_opt_parse(bad, &n, 0, NULL, NULL, err,
	    sizeof(err)), -1);
	ck_assert_str_eq(err,
	    "--n: bad number 'lots': expected a whole number");
}
END_TEST

Suite *
opt_suite(void)
{
	Suite *s = suite_create("opt");
	TCase *tc = tu_tcase_local("opt");

	tcase_add_test(tc, defaults);
	tcase_add_test(tc, letters);
	tcase_add_test(tc, both_forms);
	tcase_add_loop_test(tc, errors, 0,
	    (int)(sizeof(bads) / sizeof(bads[0])));
	tcase_add_test(tc, decimal_forms);
	tcase_add_test(tc, format);
	tcase_add_test(tc, format_round_trip);
	tcase_add_test(tc, find_and_usage);
	tcase_add_test(tc, bad_default);
	suite_add_tcase(s, tc);
	return s;
}
