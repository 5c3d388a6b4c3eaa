/*
 * check_setup.c - what the report's figures rest on
 * (src/report/setup.c, rl_meta_diffs() in src/report/rload.c): the meta
 * keys that differ between folders, the settings block and the charts'
 * line made from them, whose counter a metric is (src/report/model.c),
 * and how quiet the machine was during a run.  The folders are built in
 * memory; tests/check_vmreport.c runs the same through report/vmreport
 * on fixture folders.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "setup.h"
#include "views/export.h"
#include "testutil.h"

#define MAXKV 16

/* A set of @nk kernels whose meta is given as "key=value" strings. */
struct fake {
	struct rl_set s;
	struct rl_kernel k[3];
	struct vb_kv kv[3][MAXKV];
};

static void
fake_kernel(struct fake *f, int k, const char *label,
    const char *const *pairs)
{
	int i;

	f->k[k].label = (char *)label;
	for (i = 0; pairs[i]; i++) {
		const char *eq = strchr(pairs[i], '=');

		ck_assert(i < MAXKV && eq);
		f->kv[k][i].key = strndup(pairs[i], (size_t)(eq - pairs[i]));
		f->kv[k][i].val = strdup(eq + 1);
	}
	f->k[k].meta = f->kv[k];
	f->k[k].nmeta = i;
	f->s.k = f->k;
	if (k + 1 > f->s.nk)
		f->s.nk = k + 1;
}

static void
fake_free(struct fake *f)
{
	int k, i;

	for (k = 0; k < f->s.nk; k++)
		for (i = 0; i < f->k[k].nmeta; i++) {
			free(f->kv[k][i].key);
			free(f->kv[k][i].val);
		}
}

static const char *const meta_a[] = {
	"vmbench_meta=1", "label=a", "status=complete", "start=10:00",
	"end=10:04", "thp_enabled=never", "swappiness=60", "config=q.conf",
	"config_cksum=1 2", "workdir=/w/run.41", "mem_limit_peak_kb=900",
	"ab_side=A", "ab_pair=b", "only_in_a=1",
	"cmdline=ro quiet thp=never", NULL,
};
static const char *const meta_b[] = {
	"vmbench_meta=1", "label=b", "status=interrupted", "start=11:00",
	"end=11:04", "thp_enabled=always", "swappiness=60", "config=q.conf",
	"config_cksum=3 4", "workdir=/w/run.42", "mem_limit_peak_kb=800",
	"ab_side=B", "ab_pair=a", "ab_setting=thp=always",
	"cmdline=ro quiet thp=always", NULL,
};

START_TEST(meta_diffs)
{
	struct fake f = { 0 };
	struct rl_mdiff *d;
	int n;

	fake_kernel(&f, 0, "a", meta_a);
	fake_kernel(&f, 1, "b", meta_b);
	n = rl_meta_diffs(&f.s, &d);
	/* ab_setting first, then in the folders' order; per-run keys out */
	ck_assert_int_eq(n, 5);
	ck_assert_str_eq(d[0].key, "ab_setting");
	ck_assert_ptr_null(d[0].val[0]);
	ck_assert_str_eq(d[0].val[1], "thp=always");
	ck_assert_str_eq(d[1].key, "thp_enabled");
	ck_assert_str_eq(d[1].val[0], "never");
	ck_assert_str_eq(d[1].val[1], "always");
	/* the same config name, another checksum: the file changed */
	ck_assert_str_eq(d[2].key, "config_cksum");
	ck_assert_str_eq(d[3].key, "only_in_a");
	ck_assert_ptr_null(d[3].val[1]);
	ck_assert_str_eq(d[4].key, "cmdline");
	rl_free_mdiffs(d, n);
	/* another config: its checksum says nothing more */
	free(f.kv[1][7].val);
	f.kv[1][7].val = strdup("other.conf");
	n = rl_meta_diffs(&f.s, &d);
	ck_assert_int_eq(n, 5);
	ck_assert_str_eq(d[2].key, "config");
	ck_assert_str_ne(d[3].key, "config_cksum");
	rl_free_mdiffs(d, n);
	fake_free(&f);
}
END_TEST

/* Only per-run keys differ: nothing; the block says so in one line. */
START_TEST(meta_same)
{
	static const char *const a[] = { "vmbench_meta=1", "label=a",
		"start=1", "workdir=/w/1", "swappiness=60", NULL };
	static const char *const b[] = { "vmbench_meta=1", "label=b",
		"start=2", "workdir=/w/2", "swappiness=60", NULL };
	struct fake f = { 0 };
	struct rl_mdiff *d;
	char *text = NULL, line[128];
	size_t len = 0;
	FILE *m;

	fake_kernel(&f, 0, "a", a);
	fake_kernel(&f, 1, "b", b);
	ck_assert_int_eq(rl_meta_diffs(&f.s, &d), 0);
	rl_free_mdiffs(d, 0);
	ck_assert_ptr_nonnull(m = open_memstream(&text, &len));
	setup_settings(m, &f.s, 80);
	fclose(m);
	ck_assert_str_eq(text, "Settings: the same in every folder\n");
	free(text);
	ck_assert_str_eq(setup_settings_line(line, sizeof(line), &f.s),
	    "settings: the same in every folder");
	/* one folder: nothing to compare, nothing said */
	f.s.nk = 1;
	text = NULL;
	ck_assert_ptr_nonnull(m = open_memstream(&text, &len));
	setup_settings(m, &f.s, 80);
	fclose(m);
	ck_assert_str_eq(text, "");
	free(text);
	f.s.nk = 2;
	fake_free(&f);
}
END_TEST

/*
 * The block: each distinct value once with its folders, the command
 * line reduced to the words not in every folder's; the chart's line
 * falls back to the keys alone when the values do not fit.
 */
/*
 * The boots' timing figures (vmboots: boot_to_suite_s, suite_s,
 * shutdown_s) differ from boot to boot: figures, not settings, so not
 * in the settings that differ; a setting beside them still is.  Both
 * sides emulated (accel=tcg): one warning after the settings, and the
 * charts' line starts with it.
 */
START_TEST(boot_timings)
{
	static const char *const a[] = { "vmbench_meta=1", "label=a",
		"boot_to_suite_s=41.2", "suite_s=95.0", "shutdown_s=1.5",
		"accel=tcg", "swappiness=60", NULL };
	static const char *const b[] = { "vmbench_meta=1", "label=b",
		"boot_to_suite_s=44.9", "suite_s=98.1", "shutdown_s=1.7",
		"accel=tcg", "swappiness=10", NULL };
	struct fake f = { 0 };
	char *text = NULL, line[160];
	size_t len = 0;
	FILE *m;

	fake_kernel(&f, 0, "a", a);
	fake_kernel(&f, 1, "b", b);
	ck_assert_ptr_nonnull(m = open_memstream(&text, &len));
	setup_settings(m, &f.s, 80);
	fclose(m);
	ck_assert_msg(!strcmp(text, "Settings that differ between the "
	    "folders:\n  swappiness: 60 in a; 10 in b\nwarning: emulated "
	    "(TCG): compare only with other TCG runs (accel=tcg: a, b)\n"),
	    "%s", text);
	free(text);
	/* the charts' line: the accelerator first */
	ck_assert_str_eq(setup_settings_line(line, sizeof(line), &f.s),
	    "emulated (TCG): compare only with other TCG runs; settings "
	    "differ: swappiness (60 in a; 10 in b)");
	fake_free(&f);
}
END_TEST

START_TEST(settings_block)
{
	static const char *const c[] = { "vmbench_meta=1", "label=c",
		"thp_enabled=never", "swappiness=60", "config=q.conf",
		"config_cksum=3 4", "cmdline=ro quiet thp=never", NULL };
	struct fake f = { 0 };
	char *text = NULL, line[64];
	size_t len = 0;
	FILE *m;

	fake_kernel(&f, 0, "a", meta_a);
	fake_kernel(&f, 1, "b", meta_b);
	fake_kernel(&f, 2, "c", c);
	ck_assert_ptr_nonnull(m = open_memstream(&text, &len));
	setup_settings(m, &f.s, 80);
	fclose(m);
	ck_assert_str_eq(text,
	    "Settings that differ between the folders:\n"
	    "  ab_setting: not recorded in a, c; thp=always in b\n"
	    "  thp_enabled: never in a, c; always in b\n"
	    "  config_cksum: 1 2 in a; 3 4 in b, c\n"
	    "  only_in_a: 1 in a; not recorded in b, c\n"
	    "  cmdline (words not in every folder): thp=never in a, c; "
	    "thp=always in b\n");
	free(text);
	ck_assert_str_eq(setup_settings_line(line, sizeof(line), &f.s),
	    "settings differ: ab_setting, thp_enabled, config_cksum, only...");
	fake_free(&f);
}
END_TEST

START_TEST(scope)
{
	ck_assert_int_eq(model_scope_of("cg_pgfault"), MODEL_CGROUP);
	ck_assert_int_eq(model_scope_of("cg_swap_peak_kb"), MODEL_CGROUP);
	ck_assert_int_eq(model_scope_of("pgfault"), MODEL_SYSTEM);
	ck_assert_int_eq(model_scope_of("pswpout"), MODEL_SYSTEM);
	ck_assert_int_eq(model_scope_of("foreign_cpu"), MODEL_SYSTEM);
	ck_assert_int_eq(model_scope_of("minflt"), MODEL_BENCH);
	ck_assert_int_eq(model_scope_of("build_majflt"), MODEL_BENCH);
	ck_assert_str_eq(model_scope_tag(MODEL_CGROUP), "[cgroup]");
	ck_assert_str_eq(model_scope_tag(MODEL_BENCH), "");
	ck_assert_str_eq(model_scope_name(MODEL_SYSTEM), "system");
}
END_TEST

/* foreign_cpu 97 96 98 (mean 97) is not quiet at 5%; 0.5 is. */
/*
 * A machine-wide counter moved by other processes: the run was not
 * quiet, or the run's own cgroup counted less of it; not when it is
 * zero, or quiet and the cgroup's agrees.
 */
START_TEST(others_moved)
{
	static const struct {
		double sys, cg, cpu;	/* NAN: no such column */
		int want;
	} c[] = {
		{ 3000, NAN, 0.5, 0 },	/* quiet, no cgroup: the benchmark's */
		{ 3000, NAN, 97, 1 },	/* not quiet */
		{ 3000, 1000, 0.5, 1 },	/* the cgroup saw a third of it */
		{ 3000, 3000, 0.5, 0 },
		{ 0, NAN, 97, 0 },	/* nothing moved */
		{ NAN, NAN, 97, 0 },	/* no such counter */
	};
	struct vb_res r;
	size_t i;
	int s, g, u, it;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		vb_res_init(&r, "memfill", "default");
		s = isnan(c[i].sys) ? -1 : vb_res_add_metric(&r, "pswpout",
		    "kB", VB_LOWER);
		g = isnan(c[i].cg) ? -1 : vb_res_add_metric(&r, "cg_pswpout",
		    "kB", VB_LOWER);
		u = vb_res_add_metric(&r, "foreign_cpu", "%", VB_INFO);
		for (it = 0; it < 3; it++) {
			double *row = vb_res_add_iter(&r);

			if (s >= 0)
				row[s] = c[i].sys;
			if (g >= 0)
				row[g] = c[i].cg;
			row[u] = c[i].cpu;
		}
		ck_assert_msg(setup_others_moved(&r, "pswpout", 5) ==
		    c[i].want, "pswpout %g, cg_pswpout %g, foreign_cpu %g: "
		    "%d, want %d", c[i].sys, c[i].cg, c[i].cpu,
		    setup_others_moved(&r, "pswpout", 5), c[i].want);
		vb_res_free(&r);
	}
	ck_assert_int_eq(setup_others_moved(NULL, "pswpout", 5), 0);
}
END_TEST

START_TEST(quiet)
{
	static const double busy[] = { 97, 96, 98 }, idle[] = { 0.5, 0.4,
		0.6 };
	struct vb_res r;
	struct setup_quiet q;
	int i, m;

	vb_res_init(&r, "fileload", "quick");
	vb_res_add_metric(&r, "elapsed", "s", VB_LOWER);
	setup_quiet_of(&r, 5, &q);
	ck_assert_int_eq(q.quiet, -1);	/* an older folder: not recorded */
	ck_assert_int_eq(q.n, 0);
	m = vb_res_add_metric(&r, "foreign_cpu", "%", VB_INFO);
	for (i = 0; i < 3; i++)
		vb_res_add_iter(&r)[m] = busy[i];
	setup_quiet_of(&r, 5, &q);
	ck_assert_int_eq(q.quiet, 0);
	ck_assert_int_eq(q.n, 3);
	ck_assert(fabs(q.mean - 97) < 1e-12 && q.max == 98);
	setup_quiet_of(&r, 97, &q);	/* the threshold itself: quiet */
	ck_assert_int_eq(q.quiet, 1);
	for (i = 0; i < 3; i++)
		r.vals[(size_t)i * (size_t)r.nmetrics + (size_t)m] = idle[i];
	setup_quiet_of(&r, 5, &q);
	ck_assert_int_eq(q.quiet, 1);
	vb_res_free(&r);
	setup_quiet_of(NULL, 5, &q);
	ck_assert_int_eq(q.quiet, -1);
}
END_TEST

/*
 * Machines: host, CPU and MemTotal within 2% (another kernel keeps a
 * little more RAM for itself); one block and one warning only when the
 * folders come from more than one machine.
 */
START_TEST(machines)
{
	static const char *const a[] = { "label=a", "hostname=vm",
		"cpu_model=AMD EPYC", "cpu_count=2", "mem_total_kb=24684092",
		NULL };
	static const char *const b[] = { "label=b", "hostname=vm",
		"cpu_model=AMD EPYC", "cpu_count=2", "mem_total_kb=24600000",
		NULL };
	static const char *const c[] = { "label=c", "hostname=box2",
		"cpu_model=AMD EPYC", "cpu_count=2", "mem_total_kb=24684092",
		NULL };
	struct fake f = { 0 };
	struct setup_machines m;
	char *text = NULL, name[256];
	size_t len = 0;
	FILE *mf;

	fake_kernel(&f, 0, "a", a);
	fake_kernel(&f, 1, "b", b);
	setup_machines_of(&f.s, &m);
	ck_assert_int_eq(m.n, 1);
	setup_machines_free(&m);
	ck_assert_ptr_nonnull(mf = open_memstream(&text, &len));
	setup_machines(mf, &f.s, 80);
	fclose(mf);
	ck_assert_str_eq(text, "");
	free(text);
	fake_kernel(&f, 2, "c", c);
	setup_machines_of(&f.s, &m);
	ck_assert_int_eq(m.n, 2);
	ck_assert_int_eq(m.of[0], 0);
	ck_assert_int_eq(m.of[1], 0);
	ck_assert_int_eq(m.of[2], 1);
	ck_assert_int_eq(m.first[1], 2);
	setup_machines_free(&m);
	ck_assert_str_eq(setup_machine_name(name, sizeof(name), &f.k[2]),
	    "box2, AMD EPYC x 2, 23.5 GiB RAM");
	text = NULL;
	ck_assert_ptr_nonnull(mf = open_memstream(&text, &len));
	setup_machines(mf, &f.s, 200);
	fclose(mf);
	ck_assert_msg(strstr(text, "m1 vm, AMD EPYC x 2, 23.5 GiB RAM: a, b\n")
	    && strstr(text, "m2 box2, AMD EPYC x 2, 23.5 GiB RAM: c\n") &&
	    strstr(text, "warning: these folders come from 2 machines"),
	    "machines block: %s", text);
	free(text);
	/* every text view's settings block ends with it */
	text = NULL;
	ck_assert_ptr_nonnull(mf = open_memstream(&text, &len));
	setup_settings(mf, &f.s, 200);
	fclose(mf);
	ck_assert_msg(strstr(text, "hostname: vm in a, b; box2 in c\n") &&
	    strstr(text, "\nMachines (from meta: host, CPU, memory):\n") &&
	    strstr(text, "\nwarning: these folders come from 2 machines"),
	    "%s", text);
	free(text);
	/* 3% less RAM (a mem= limit): another machine for the figures */
	free(f.kv[1][4].val);
	f.kv[1][4].val = strdup("23900000");
	setup_machines_of(&f.s, &m);
	ck_assert_int_eq(m.n, 3);
	setup_machines_free(&m);
	fake_free(&f);
}
END_TEST

/* CSV (--what settings) and JSON of @f's set (no benchmarks). */
static char *
export(struct fake *f, int json)
{
	struct report_opts o = { .width = 80, .noisy = 0.05, .quiet = 5,
	    .mem_quiet = SETUP_MEM_THRESHOLD };
	struct model m;
	char *text = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(mf);
	model_init(&m, &f->s, 0);
	if (json)
		export_json(mf, &m, &o);
	else
		export_csv_settings(mf, &m, &o);
	model_free(&m);
	fclose(mf);
	return text;
}

/*
 * CSV and JSON carry the machine of each folder, and say when the
 * folders come from more than one machine, as the text views do (CSV:
 * by a second machine_no).
 */
START_TEST(machines_export)
{
	static const char *const a[] = { "label=a", "hostname=vm",
		"cpu_model=AMD EPYC", "cpu_count=2", "mem_total_kb=24684092",
		NULL };
	static const char *const c[] = { "label=c", "hostname=box2",
		"cpu_model=AMD EPYC", "cpu_count=2", "mem_total_kb=24684092",
		NULL };
	struct fake f = { 0 };
	char *text;

	fake_kernel(&f, 0, "a", a);
	fake_kernel(&f, 1, "b", a);
	text = export(&f, 0);
	ck_assert_str_eq(text, "kernel,setting,value,format_version\n"
	    "a,machine,\"vm, AMD EPYC x 2, 23.5 GiB RAM\",1\na,machine_no,1,1\n"
	    "b,machine,\"vm, AMD EPYC x 2, 23.5 GiB RAM\",1\n"
	    "b,machine_no,1,1\n");
	free(text);
	text = export(&f, 1);
	ck_assert_msg(strstr(text, "\"machines\": [\n    {\"kernel\": \"a\", "
	    "\"machine\": 1, \"name\": \"vm, AMD EPYC x 2, 23.5 GiB RAM\"},") &&
	    strstr(text, "\n  \"mixed_machines\": false,"), "%s", text);
	free(text);
	fake_kernel(&f, 2, "c", c);
	text = export(&f, 0);
	ck_assert_msg(strstr(text, "\nc,machine,\"box2, AMD EPYC x 2, "
	    "23.5 GiB RAM\",1\nc,machine_no,2,1\n"), "%s", text);
	free(text);
	text = export(&f, 1);
	ck_assert_msg(strstr(text, "{\"kernel\": \"c\", \"machine\": 2, "
	    "\"name\": \"box2, AMD EPYC x 2, 23.5 GiB RAM\"}\n  ],") &&
	    strstr(text, "\n  \"mixed_machines\": true,"), "%s", text);
	free(text);
	fake_free(&f);
}
END_TEST

Suite *
setup_suite(void)
{
	Suite *s = suite_create("setup");
	TCase *tc = tu_tcase_local("setup");

	tcase_add_test(tc, meta_diffs);
	tcase_add_test(tc, meta_same);
	tcase_add_test(tc, settings_block);
	tcase_add_test(tc, boot_timings);
	tcase_add_test(tc, others_moved);
	tcase_add_test(tc, scope);
	tcase_add_test(tc, quiet);
	tcase_add_test(tc, machines);
	tcase_add_test(tc, machines_export);
	suite_add_tcase(s, tc);
	return s;
}
