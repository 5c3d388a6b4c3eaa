/*
 * check_fileload.c - fileload: the loadfile parser (every operation,
 * comments, the status column, malformed lines), the replay of each
 * operation against a real folder, the throughput arithmetic, and
 * end-to-end runs of bench/fileload (1 and 2 clients, --own-group,
 * Ctrl-C) checked through the result reader and the work folder left
 * behind.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "fileload/load.h"
#include "fileload/replay.h"
#include "res.h"
#include "testutil.h"

static int
parse(const char *text, struct fl_load *l, char *err)
{
	return fl_load_parse("t.load", text, strlen(text), l, err, 256);
}

/* One line of every operation, as Debian's client.txt writes them. */
static const char every_op[] =
    "# a comment line\n"
    "\n"
    "Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
    "Mkdir \"\\clients\" NT_STATUS_OK\n"
    "NTCreateX \"\\clients\\client1\" 0x1 0x2 16385 NT_STATUS_OK\n"
    "Close 16385 NT_STATUS_OK\n"
    "NTCreateX \"\\clients\\client1\\f\" 0x40 0x5 7 NT_STATUS_OK\n"
    "WriteX 7 0 65536 65536 NT_STATUS_OK\n"
    "ReadX 7 4096 8192 8192 NT_STATUS_OK\n"
    "LockX 7 2147483538 1 NT_STATUS_OK\n"
    "UnlockX 7 2147483538 1 NT_STATUS_OK\n"
    "Flush 7 NT_STATUS_OK\n"
    "QUERY_FILE_INFORMATION 7 258 NT_STATUS_OK\n"
    "SET_FILE_INFORMATION 7 1004 NT_STATUS_OK\n"
    "Close 7 NT_STATUS_OK\n"
    "QUERY_PATH_INFORMATION \"\\clients\\client1\\f\" 1004 NT_STATUS_OK\n"
    "QUERY_FS_INFORMATION 1 NT_STATUS_OK\n"
    "FIND_FIRST \"\\clients\\client1\\F*\" 260 1366 1 NT_STATUS_OK\n"
    "Rename \"\\clients\\client1\\f\" \"\\clients\\client1\\g\" "
    "NT_STATUS_OK\n"
    "Unlink \"\\clients\\client1\\g\" 0x6 NT_STATUS_OK\n"
    "Unlink \"\\clients\\client1\\g\" NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
    "Rmdir \"\\clients\\client1\" NT_STATUS_OK\n"
    "1.5 QUERY_PATH_INFORMATION \"/clients/x\" 1004 0xC0000034\n";

START_TEST(parse_every_operation)
{
	struct fl_load l;
	char err[256];
	int i, seen[FL_NOPS] = { 0 };
	size_t k;

	ck_assert_msg(parse(every_op, &l, err) == 0, "%s", err);
	ck_assert_uint_eq(l.nops, 21);
	for (k = 0; k < l.nops; k++)
		seen[l.ops[k].code] = 1;
	for (i = 0; i < FL_NOPS; i++)
		ck_assert_msg(seen[i], "%s not parsed", fl_op_names[i]);
	/* line numbers count comments and blank lines */
	ck_assert_uint_eq(l.ops[0].lineno, 3);
	ck_assert_int_eq(l.ops[0].code, FL_DELTREE);
	ck_assert_str_eq(fl_str(&l, l.ops[0].path), "clients/client1");
	ck_assert_int_eq(l.ops[2].code, FL_NTCREATEX);
	ck_assert_int_eq(l.ops[2].arg[1], 1);
	ck_assert_int_eq(l.ops[2].arg[2], 2);
	ck_assert_int_eq(l.ops[2].arg[3], 16385);
	ck_assert_int_eq(l.ops[5].code, FL_WRITEX);
	ck_assert_int_eq(l.ops[5].arg[0], 7);
	ck_assert_int_eq(l.ops[5].arg[2], 65536);
	ck_assert_int_eq(l.ops[7].arg[1], 2147483538);
	ck_assert_int_eq(l.ops[16].code, FL_RENAME);
	ck_assert_str_eq(fl_str(&l, l.ops[16].path2), "clients/client1/g");
	ck_assert_int_eq(l.ops[17].arg[1], 6);	/* Unlink's attributes */
	/* the status column */
	ck_assert_int_eq(l.ops[0].status, FL_ST_OK);
	ck_assert_int_eq(l.ops[18].status, FL_ST_NOTFOUND);
	ck_assert_int_eq(l.ops[20].status, FL_ST_ERROR);
	/* the optional timestamp */
	ck_assert(l.ops[0].when < 0);
	ck_assert(fabs(l.ops[20].when - 1.5) < 1e-12);
	ck_assert_int_eq(l.ops[20].code, FL_QPATHINFO);
	/* per-pass totals */
	ck_assert_uint_eq(l.write_bytes, 65536);
	ck_assert_uint_eq(l.read_bytes, 8192);
	ck_assert_uint_eq(l.max_io, 65536);
	ck_assert_uint_eq(l.count[FL_CLOSE], 2);
	fl_load_free(&l);
}
END_TEST

START_TEST(parse_status_column)
{
	static const struct {
		const char *status;
		int want;
	} t[] = {
		{ "NT_STATUS_OK", FL_ST_OK },
		{ "0x0", FL_ST_OK },
		{ "0x00000000", FL_ST_OK },
		{ "NT_STATUS_OBJECT_NAME_NOT_FOUND", FL_ST_NOTFOUND },
		{ "NT_STATUS_NO_SUCH_FILE", FL_ST_NOTFOUND },
		{ "NT_STATUS_OBJECT_PATH_NOT_FOUND", FL_ST_NOTFOUND },
		{ "NT_STATUS_ACCESS_DENIED", FL_ST_ERROR },
		{ "0xC0000022", FL_ST_ERROR },
	};
	struct fl_load l;
	char line[128], err[256];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(line, sizeof(line), "Close 1 %s\n", t[i].status);
		ck_assert_msg(parse(line, &l, err) == 0, "%s", err);
		ck_assert_msg(l.ops[0].status == t[i].want, "%s", t[i].status);
		fl_load_free(&l);
	}
}
END_TEST

START_TEST(parse_case_and_crlf)
{
	struct fl_load l;
	char err[256];

	ck_assert_msg(parse("readx 1 0 10 10 NT_STATUS_OK\r\n"
	    "   \t# indented comment\r\n\r\n"
	    "  CLOSE 1 NT_STATUS_OK", &l, err) == 0, "%s", err);
	ck_assert_uint_eq(l.nops, 2);
	ck_assert_int_eq(l.ops[0].code, FL_READX);
	ck_assert_int_eq(l.ops[1].code, FL_CLOSE);
	ck_assert_uint_eq(l.ops[1].lineno, 4);
	fl_load_free(&l);
}
END_TEST

/* Each malformed line: the message names the file, line and problem. */
START_TEST(parse_malformed)
{
	static const struct {
		const char *text;
		const char *want;
	} t[] = {
		{ "Frobnicate 1 NT_STATUS_OK\n", "t.load:1: unknown operation "
		  "'Frobnicate'" },
		{ "Close 1 OK\n", "t.load:1: bad status 'OK'" },
		{ "Close 1 0xZZ\n", "t.load:1: bad status '0xZZ'" },
		{ "Close 1 NT_STATUS_ok\n", "bad status" },
		{ "# c\nClose NT_STATUS_OK\n", "t.load:2: Close: expected 1 "
		  "argument before the status, got 0" },
		{ "Close\n", "t.load:1: Close: missing status" },
		{ "ReadX 1 0 10 NT_STATUS_OK\n", "ReadX: expected 4 arguments "
		  "before the status, got 3" },
		{ "Unlink NT_STATUS_OK\n", "Unlink: expected 1 to 2 arguments" },
		{ "Close abc NT_STATUS_OK\n", "Close: bad number 'abc'" },
		{ "Close -1 NT_STATUS_OK\n", "Close: bad number '-1'" },
		{ "ReadX 1 0 12x 10 NT_STATUS_OK\n", "ReadX: bad number '12x'" },
		{ "Mkdir noquotes NT_STATUS_OK\n", "Mkdir: expected a quoted "
		  "path, got 'noquotes'" },
		{ "Mkdir \"\\a\\..\\..\\etc\" NT_STATUS_OK\n", "'..' component" },
		{ "Mkdir \"\\a NT_STATUS_OK\n", "t.load:1: unterminated quote" },
		{ "Mkdir \"a\"b NT_STATUS_OK\n", "right after a closing quote" },
		{ "1.x Close 1 NT_STATUS_OK\n", "bad timestamp '1.x'" },
		{ "2.5\n", "timestamp without an operation" },
		{ "NTCreateX \"f\" 0x40 0x9 1 NT_STATUS_OK\n", "bad disposition "
		  "9" },
		{ "WriteX 1 0 99999999 99999999 NT_STATUS_OK\n", "size 99999999 "
		  "larger than" },
		{ "\"Close\" 1 NT_STATUS_OK\n", "unknown operation 'Close'" },
		{ "# only comments\n\n", "t.load: no operations" },
		{ "Close 1 NT_STATUS_OK\nClose 1 NT_STATUS_OK\nClose x 1 2\n",
		  "t.load:3:" },
	};
	struct fl_load l;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(parse(t[i].text, &l, err) < 0, "accepted: %s",
		    t[i].text);
		ck_assert_msg(strstr(err, t[i].want) != NULL,
		    "'%s': got '%s', want '%s'", t[i].text, err, t[i].want);
		ck_assert_msg(strchr(err, '\n') == NULL, "not one line: %s",
		    err);
	}
}
END_TEST

START_TEST(read_missing_file)
{
	struct fl_load l;
	char err[256];

	ck_assert_int_lt(fl_load_read("/nonexistent/x.load", &l, err,
	    sizeof(err)), 0);
	tu_assert_has(err, "/nonexistent/x.load");
	tu_assert_has(err, "No such file");
}
END_TEST

/* The shipped loadfiles parse: ours, and Debian's when installed. */
START_TEST(shipped_loadfiles)
{
	struct fl_load l;
	char err[256];

	ck_assert_msg(fl_load_read("configs/fileload.load", &l, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_uint_gt(l.count[FL_FLUSH], 0);
	ck_assert_uint_gt(l.read_bytes, l.write_bytes);
	fl_load_free(&l);
	if (access("/usr/share/dbench/client.txt", R_OK) == 0) {
		ck_assert_msg(fl_load_read("/usr/share/dbench/client.txt", &l,
		    err, sizeof(err)) == 0, "%s", err);
		ck_assert_uint_gt(l.nops, 100000);
		fl_load_free(&l);
	}
}
END_TEST

START_TEST(arithmetic)
{
	struct fl_stats a, b;
	struct fl_op rd = { .code = FL_READX, .arg = { 1, 0, 65536, 100 } };
	struct fl_op cl = { .code = FL_CLOSE };

	/* dbench: bytes / seconds / 10^6 */
	ck_assert(fabs(fl_mb_per_s(250000000, 2.5) - 100.0) < 1e-9);
	ck_assert(fabs(fl_mb_per_s(1, 1e-6) - 1.0) < 1e-9);
	ck_assert(fl_mb_per_s(5, 0) == 0);
	/* the size asked for counts, not what came back */
	ck_assert_uint_eq(fl_op_bytes(&rd), 65536);
	ck_assert_uint_eq(fl_op_bytes(&cl), 0);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	fl_account(&a, &rd, 3000000, 1);
	fl_account(&a, &rd, 1000000, 0);
	fl_account(&a, &cl, 500, 1);
	ck_assert_uint_eq(a.bytes, 131072);
	ck_assert_uint_eq(a.ops, 3);
	ck_assert_uint_eq(a.mismatches, 1);
	ck_assert_uint_eq(a.op[FL_READX].count, 2);
	ck_assert(fabs(fl_mean_ms(&a.op[FL_READX]) - 2.0) < 1e-9);
	ck_assert_uint_eq(a.op[FL_READX].max_ns, 3000000);
	fl_account(&b, &rd, 7000000, 1);
	fl_stats_add(&b, &a);
	ck_assert_uint_eq(b.bytes, 3 * 65536);
	ck_assert_uint_eq(b.ops, 4);
	ck_assert_uint_eq(b.op[FL_READX].count, 3);
	ck_assert_uint_eq(b.op[FL_READX].max_ns, 7000000);
	ck_assert(fabs(fl_mean_ms(&b.op[FL_READX]) - 11.0 / 3) < 1e-9);
	ck_assert(fl_mean_ms(&b.op[FL_MKDIR]) == 0);
}
END_TEST

/* Replay every_op in a real folder: every outcome matches. */
START_TEST(replay_every_operation)
{
	struct fl_load l;
	struct fl_client c;
	struct stat st;
	char err[256], p[512];
	size_t i;

	ck_assert_msg(parse(every_op, &l, err) == 0, "%s", err);
	ck_assert_msg(fl_client_init(&c, &l, 0, tu_dir, err,
	    sizeof(err)) == 0, "%s", err);
	for (i = 0; i < l.nops; i++) {
		int r = fl_exec(&c, &l.ops[i], err, sizeof(err));

		ck_assert_msg(r == 1, "line %u (%s): outcome %d",
		    l.ops[i].lineno, fl_op_names[l.ops[i].code], r);
		if (l.ops[i].code == FL_WRITEX) {
			ck_assert_int_eq(stat(tu_path(p, sizeof(p),
			    "clients/client1/f"), &st), 0);
			ck_assert_int_eq(st.st_size, 65536);
		}
	}
	ck_assert_int_eq(stat(tu_path(p, sizeof(p), "clients"), &st), 0);
	ck_assert_int_ne(stat(tu_path(p, sizeof(p), "clients/client1"), &st),
	    0);
	ck_assert_uint_eq(c.nfh, 0);
	fl_client_fini(&c);
	fl_load_free(&l);
}
END_TEST

/* Outcomes that differ from the status are mismatches, not errors. */
START_TEST(replay_mismatch_and_deltree)
{
	static const char text[] =
	    "Unlink \"nothere\" NT_STATUS_OK\n"
	    "Mkdir \"d\" NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
	    "Close 99 NT_STATUS_OK\n"
	    "NTCreateX \"d\\e\\f\" 0x40 0x2 3 NT_STATUS_OK\n"
	    "Mkdir \"d\\e\" NT_STATUS_OK\n"
	    "NTCreateX \"d\\e\\f\" 0x40 0x2 3 NT_STATUS_OK\n"
	    "WriteX 3 0 10 10 NT_STATUS_OK\n"
	    "Deltree \"d\" NT_STATUS_OK\n"
	    "Deltree \"d\" NT_STATUS_OK\n"
	    "FIND_FIRST \"<.x\" 260 10 0 NT_STATUS_NO_SUCH_FILE\n";
	static const int want[] = { 0, 0, 0, 0, 1, 1, 1, 1, 1, 1 };
	struct fl_load l;
	struct fl_client c;
	struct stat st;
	char err[256], p[512];
	size_t i;

	ck_assert_msg(parse(text, &l, err) == 0, "%s", err);
	ck_assert_int_eq(fl_client_init(&c, &l, 0, tu_dir, err,
	    sizeof(err)), 0);
	c.maxwarn = 0;
	for (i = 0; i < l.nops; i++)
		ck_assert_msg(fl_exec(&c, &l.ops[i], err, sizeof(err)) ==
		    want[i], "line %zu", i + 1);
	ck_assert_int_ne(stat(tu_path(p, sizeof(p), "d"), &st), 0);
	fl_client_fini(&c);
	fl_load_free(&l);
}
END_TEST

/* Run bench/fileload; its exit status. */
static int
run_fileload(const char *args)
{
	return tu_sh_in(NULL, "bench/fileload %s --workdir %s --out %s/fl "
	    ">%s/fl.out 2>&1", args, tu_dir, tu_dir, tu_dir);
}

/* Entries left in tu_dir other than the fl.* outputs. */
static int
leftovers(void)
{
	return tu_count_except(tu_dir, "fl.");
}

static void
check_result(const char *status, int clients)
{
	struct vb_res r;
	char err[512], p[512];
	int m, i;

	ck_assert_msg(vb_res_read(tu_path(p, sizeof(p), "fl.res"), &r, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(r.status, status);
	ck_assert_str_eq(r.bench, "fileload");
	ck_assert_str_eq(r.headline, "mb_per_s");
	ck_assert_int_eq(atoi(vb_res_param(&r, "clients")), clients);
	if (strcmp(status, "complete") == 0) {
		ck_assert_int_eq(r.niter, 1);
		m = vb_res_metric_index(&r, "mb_per_s");
		ck_assert_int_ge(m, 0);
		ck_assert(vb_res_get(&r, 0, m) > 0);
		ck_assert(vb_res_get(&r, 0, vb_res_metric_index(&r,
		    "ops_per_s")) > 0);
		ck_assert(vb_res_get(&r, 0, vb_res_metric_index(&r,
		    "mismatches")) == 0);
		/* the shipped loadfile writes, reads and flushes */
		for (i = 0; i < 3; i++) {
			static const char *const k[] = { "writex_count",
			    "readx_count", "flush_count" };

			ck_assert_msg(vb_res_get(&r, 0, vb_res_metric_index(
			    &r, k[i])) > 0, "%s", k[i]);
		}
		ck_assert(vb_res_get(&r, 0, vb_res_metric_index(&r,
		    "readx_mean_ms")) > 0);
	}
	vb_res_free(&r);
}

START_TEST(e2e_one_client)
{
	char p[512], buf[8192];
	FILE *f;
	size_t n;

	ck_assert_int_eq(run_fileload("--clients 1 --time 1 --warmup 0.2"), 0);
	check_result("complete", 1);
	ck_assert_int_eq(leftovers(), 0);
	f = fopen(tu_path(p, sizeof(p), "fl.out"), "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	tu_assert_has(buf, "Throughput ");
	tu_assert_has(buf, "MB/sec  execute");
}
END_TEST

START_TEST(e2e_two_clients)
{
	ck_assert_int_eq(run_fileload("--clients 2 --time 1 --warmup 0.2"), 0);
	check_result("complete", 2);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

/*
 * --own-group: the result says where the clients' files went, by what
 * the work folder's file system did with FS_TOPDIR_FL (ext4 takes it,
 * tmpfs does not); the option is a param; nothing is left behind.
 * Without it no such note.
 */
START_TEST(e2e_own_group)
{
	struct statfs sf;
	char p[512], *res;

	ck_assert_int_eq(statfs(tu_dir, &sf), 0);
	ck_assert_int_eq(run_fileload("--clients 2 --time 0.3 --warmup 0 "
	    "--own-group"), 0);
	check_result("complete", 2);
	ck_assert_int_eq(leftovers(), 0);
	res = tu_slurp_ok("%s", tu_path(p, sizeof(p), "fl.res"));
	tu_assert_has(res, "\nparam own-group 1\n");
	if (sf.f_type == 0xEF53)
		tu_assert_has(res, "\nnote --own-group: each client's folder "
		    "and files in a block group ext4 picks anew (FS_TOPDIR_FL "
		    "on the work folder)");
	else
		tu_assert_has(res, "\nnote --own-group: the file system does "
		    "not take FS_TOPDIR_FL (");
	free(res);

	ck_assert_int_eq(run_fileload("--clients 1 --time 0.3 --warmup 0"),
	    0);
	res = tu_slurp_ok("%s", tu_path(p, sizeof(p), "fl.res"));
	tu_assert_has(res, "\nparam own-group 0\n");
	tu_assert_lacks(res, "--own-group:");
	free(res);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

/*
 * The suite's own loadfile is recorded by its name in the suite, so that
 * runs from two copies of the suite (a fleet's hosts) compare; another
 * loadfile by its path.
 */
START_TEST(e2e_loadfile_param)
{
	struct vb_res r;
	char err[512], p[512], cmd[1024];

	ck_assert_int_eq(run_fileload("--clients 1 --time 0.3 --warmup 0 "
	    "--loadfile configs/../configs/fileload.load"), 0);
	ck_assert_msg(vb_res_read(tu_path(p, sizeof(p), "fl.res"), &r, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(vb_res_param(&r, "loadfile"), "configs/fileload.load");
	vb_res_free(&r);
	ck_assert_int_eq(tu_sh_in(NULL, "cp configs/fileload.load "
	    "%s/my.load", tu_dir), 0);
	snprintf(cmd, sizeof(cmd), "--clients 1 --time 0.3 --warmup 0 "
	    "--loadfile %s/my.load", tu_dir);
	ck_assert_int_eq(run_fileload(cmd), 0);
	ck_assert_msg(vb_res_read(tu_path(p, sizeof(p), "fl.res"), &r, err,
	    sizeof(err)) == 0, "%s", err);
	ck_assert_msg(strstr(vb_res_param(&r, "loadfile"), "/my.load") != NULL,
	    "%s", vb_res_param(&r, "loadfile"));
	vb_res_free(&r);
	unlink(tu_path(p, sizeof(p), "my.load"));
}
END_TEST

START_TEST(e2e_bad_input)
{
	char p[512], buf[1024];
	FILE *f;
	size_t n;

	tu_write(p, sizeof(p), "bad.load", "Close 1 NT_STATUS_OK\nFoo\n");
	snprintf(buf, sizeof(buf), "--loadfile %s", p);
	ck_assert_int_ne(run_fileload(buf), 0);
	f = fopen(tu_path(p, sizeof(p), "fl.out"), "r");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	ck_assert_msg(strstr(buf, "bad.load:2: unknown operation 'Foo'") &&
	    strchr(buf, '\n') == buf + n - 1, "got: %s", buf);
	/* nothing was created, not even the work folder */
	ck_assert_int_eq(remove(tu_path(p, sizeof(p), "bad.load")), 0);
	ck_assert_int_eq(leftovers(), 0);
	ck_assert_int_ne(run_fileload("--clients 0"), 0);
	ck_assert_int_ne(run_fileload("--time x"), 0);
}
END_TEST

/* Ctrl-C in the middle: exit 130, interrupted, the folder removed. */
START_TEST(e2e_sigint)
{
	char out[512], wd[512];
	uint64_t t0;
	int status;
	pid_t pid;

	tu_path(out, sizeof(out), "fl");
	snprintf(wd, sizeof(wd), "%s", tu_dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		dup2(fd, 2);
		execl("bench/fileload", "fileload", "--clients", "2", "--time",
		    "30", "--workdir", wd, "--out", out, (char *)NULL);
		_exit(127);
	}
	usleep(700000);
	kill(pid, SIGINT);
	t0 = vb_now_ns();
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(vb_elapsed_s(t0) < 3);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 130);
	check_result("interrupted", 2);
	ck_assert_int_eq(leftovers(), 0);
}
END_TEST

Suite *
fileload_suite(void)
{
	Suite *s = suite_create("fileload");
	TCase *tc = tu_tcase_local("loadfile");
	TCase *rp = tu_tcase("replay");
	TCase *e2e = tu_tcase("e2e");

	tcase_add_test(tc, parse_every_operation);
	tcase_add_test(tc, parse_status_column);
	tcase_add_test(tc, parse_case_and_crlf);
	tcase_add_test(tc, parse_malformed);
	tcase_add_test(tc, read_missing_file);
	tcase_add_test(tc, shipped_loadfiles);
	/* Debian's client.txt under AddressSanitizer on a busy machine */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, arithmetic);
	suite_add_tcase(s, tc);

	tcase_add_unchecked_fixture(rp, tu_mktmp, tu_rmtmp);
	tcase_add_test(rp, replay_every_operation);
	tcase_add_test(rp, replay_mismatch_and_deltree);
	suite_add_tcase(s, rp);

	tcase_add_unchecked_fixture(e2e, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(e2e, 20);
	tcase_add_test(e2e, e2e_one_client);
	tcase_add_test(e2e, e2e_two_clients);
	tcase_add_test(e2e, e2e_own_group);
	tcase_add_test(e2e, e2e_loadfile_param);
	tcase_add_test(e2e, e2e_bad_input);
	tcase_add_test(e2e, e2e_sigint);
	suite_add_tcase(s, e2e);
	return s;
}
