/*
 * check_pressure.c - memory-pressure evidence (src/lib/psi.c,
 * src/lib/trace.c): the PSI files' parsing and deltas, absent against
 * zero; the pairing of reclaim begin/end events per task and its percentiles; a fake
 * tracefs (VMBENCH_SYSROOT) whole, half there, busy and read-only, and
 * a killed owner's instance recovered; then the real tracefs and PSI:
 * another tracer's top-level buffer left alone, an instance held open
 * at the end, and memfill under MEM=256M SWAP=512M against the same
 * run without a limit.  The real ones are skipped (and counted) where
 * tracefs, PSI or root is missing.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "psi.h"
#include "trace.h"
#include "testutil.h"
#include "util.h"

static const char psi_a[] =
    "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000\n"
    "full avg10=0.00 avg60=0.00 avg300=0.00 total=400\n";
static const char psi_b[] =
    "some avg10=1.00 avg60=0.50 avg300=0.10 total=3500\n"
    "full avg10=0.50 avg60=0.20 avg300=0.00 total=400\n";

START_TEST(psi_parse_delta)
{
	struct vb_psi p;
	struct vb_psisnap a, b;
	double row[VB_NPSI], s, f;

	vb_psi_parse(psi_a, &s, &f);
	ck_assert_msg(s == 1000 && f == 400, "parsed some %g full %g", s, f);
	vb_psi_parse("some avg10=0.00 total=12\n", &s, &f);
	ck_assert_msg(s == 12 && isnan(f), "no full line: some %g full %g", s,
	    f);
	vb_psi_parse("some avg10=0.00 total=\n", &s, &f);
	ck_assert_msg(isnan(s), "an empty total= read as %g", s);
	tu_fake("proc/pressure/memory", psi_a);
	tu_fake("proc/pressure/io", psi_a);
	{
		char root[600];

		snprintf(root, sizeof(root), "%s/proc", tu_dir);
		vb_psi_system(&p, root);
	}
	ck_assert_int_eq(vb_psi_present(&p), 1);
	vb_psi_read(&p, &a);
	tu_fake("proc/pressure/memory", psi_b);
	vb_psi_read(&p, &b);
	vb_psi_row(row, &b, &a);
	ck_assert_msg(row[VB_PSI_MEM_SOME] == 2500 && row[VB_PSI_MEM_FULL] == 0
	    && row[VB_PSI_IO_SOME] == 0, "deltas %g %g %g %g",
	    row[0], row[1], row[2], row[3]);
	/* a counter going backwards (the file replaced): absent */
	vb_psi_row(row, &a, &b);
	ck_assert_msg(isnan(row[VB_PSI_MEM_SOME]), "backwards: %g",
	    row[VB_PSI_MEM_SOME]);
}
END_TEST

START_TEST(psi_absent_not_zero)
{
	struct vb_psi p;
	struct vb_psisnap a, b;
	double row[VB_NPSI];
	int i;

	/* a v1 cgroup: no memory.pressure, no io.pressure */
	tu_fake("memory.stat", "pgfault 1\n");
	vb_psi_cgroup(&p, tu_dir);
	ck_assert_int_eq(vb_psi_present(&p), 0);
	vb_psi_read(&p, &a);
	vb_psi_read(&p, &b);
	vb_psi_row(row, &b, &a);
	for (i = 0; i < VB_NPSI; i++)
		ck_assert_msg(isnan(row[i]), "figure %d is %g, not absent", i,
		    row[i]);
	/* there and quiet: zero, not absent */
	tu_fake("memory.pressure", psi_a);
	tu_fake("io.pressure", psi_a);
	ck_assert_int_eq(vb_psi_present(&p), 1);
	vb_psi_read(&p, &a);
	vb_psi_read(&p, &b);
	vb_psi_row(row, &b, &a);
	for (i = 0; i < VB_NPSI; i++)
		ck_assert_msg(row[i] == 0, "figure %d is %g, not 0", i,
		    row[i]);
}
END_TEST

#define L(task, cpu, ts, ev) \
	"  " task " [00" #cpu "] ..... " ts ": " ev ": order=0\n"

/* Two tasks interleaved, across CPUs, a stray end and a lost end. */
static const char trace_text[] =
    "# tracer: nop\n#\n"
    "# entries-in-buffer/entries-written: 14/17   #P:2\n"
    L("memfill-100", 0, "10.000100", "mm_vmscan_memcg_reclaim_end")
    L("memfill-100", 0, "10.000200", "mm_vmscan_memcg_reclaim_begin")
    L("my task-with-dash-201", 1, "10.000250",
	"mm_vmscan_memcg_reclaim_begin")
    L("memfill-100", 1, "10.000300", "mm_vmscan_memcg_reclaim_end")
    L("my task-with-dash-201", 1, "10.001250",
	"mm_vmscan_memcg_reclaim_end")
    L("memfill-100", 0, "10.002000", "mm_vmscan_memcg_reclaim_begin")
    L("memfill-100", 0, "10.002000", "mm_vmscan_memcg_reclaim_end")
    L("memfill-100", 0, "10.003000", "mm_vmscan_direct_reclaim_begin")
    L("memfill-100", 0, "10.003000", "mm_vmscan_direct_reclaim_begin")
    L("memfill-100", 0, "10.003040", "mm_vmscan_direct_reclaim_end")
    L("kswapd0-50", 1, "10.004000", "mm_vmscan_kswapd_wake")
    L("kswapd0-50", 1, "10.004100", "mm_vmscan_kswapd_sleep")
    L("kcompactd0-51", 1, "10.005000", "mm_compaction_begin")
    "CPU:1 [LOST 3 EVENTS]\n";

START_TEST(pairing)
{
	struct vb_tpacc a;
	double row[VB_TRACE_NCOL], *m = row + VB_TP_MEMCG * VB_NTPF;
	double *d = row + VB_TP_DIRECT * VB_NTPF;
	double *c = row + VB_TP_COMPACT * VB_NTPF;

	vb_tpacc_init(&a);
	vb_tpacc_text(&a, trace_text);
	vb_tpacc_row(&a, row);
	/* 100 us (100), 1000 us (201, named with blanks and dashes), 0 us */
	ck_assert_msg(m[VB_TPF_N] == 3 && m[VB_TPF_US] == 1100 &&
	    m[VB_TPF_P50] == 100 && m[VB_TPF_P99] == 1000 &&
	    m[VB_TPF_MAX] == 1000, "memcg: n %g total %g p50 %g p99 %g "
	    "max %g", m[0], m[1], m[2], m[3], m[4]);
	ck_assert_msg(a.unpaired == 1, "unpaired %ld", a.unpaired);
	ck_assert_msg(d[VB_TPF_N] == 1 && d[VB_TPF_US] == 40, "direct: n %g "
	    "total %g", d[0], d[1]);
	/* a begin without its end: no run; no percentile of none */
	ck_assert_msg(c[VB_TPF_N] == 0 && c[VB_TPF_US] == 0 &&
	    isnan(c[VB_TPF_P99]), "compaction: n %g total %g p99 %g", c[0],
	    c[1], c[3]);
	ck_assert_msg(row[3 * VB_NTPF] == 1, "kswapd %g", row[3 * VB_NTPF]);
	/* the [LOST] line; the header is read by vb_trace_read() */
	ck_assert_msg(row[3 * VB_NTPF + 1] == 3, "lost %g",
	    row[3 * VB_NTPF + 1]);
	ck_assert_int_eq(vb_tpacc_line(&a, "no trace line"), -1);
	vb_tpacc_free(&a);
}
END_TEST

START_TEST(percentiles)
{
	struct vb_tpacc a;
	double row[VB_TRACE_NCOL];
	char line[200];
	int i;

	/* stalls of 1..200 us: nearest rank p50 100, p99 198 */
	vb_tpacc_init(&a);
	for (i = 1; i <= 200; i++) {
		snprintf(line, sizeof(line), "  t-%d [000] ..... 1.000000: "
		    "mm_vmscan_direct_reclaim_begin: order=0", i);
		vb_tpacc_line(&a, line);
		snprintf(line, sizeof(line), "  t-%d [001] ..... 1.%06d: "
		    "mm_vmscan_direct_reclaim_end: nr_reclaimed=1", i, i);
		vb_tpacc_line(&a, line);
	}
	vb_tpacc_row(&a, row);
	ck_assert_msg(row[VB_TPF_N] == 200 && row[VB_TPF_P50] == 100 &&
	    row[VB_TPF_P99] == 198 && row[VB_TPF_MAX] == 200 &&
	    row[VB_TPF_US] == 20100, "n %g p50 %g p99 %g max %g total %g",
	    row[0], row[2], row[3], row[4], row[1]);
	vb_tpacc_free(&a);
}
END_TEST

static const char *const fake_events[] = {
	"vmscan/mm_vmscan_direct_reclaim_begin",
	"vmscan/mm_vmscan_direct_reclaim_end",
	"vmscan/mm_vmscan_memcg_reclaim_begin",
	"vmscan/mm_vmscan_memcg_reclaim_end",
	"vmscan/mm_vmscan_kswapd_wake",
	"compaction/mm_compaction_begin",
	"compaction/mm_compaction_end",
	NULL,
};

#define TFS	"sys/kernel/tracing"

/*
 * A fake tracefs under tu_dir: a top-level buffer another tracer uses
 * (tracing_on 1, an event on) and, when @inst, the instance of this
 * process as the kernel would make it, with the events up to @nev.
 */
static void
fake_tracefs(int inst, int nev)
{
	char rel[400];
	int i;

	setenv("VMBENCH_SYSROOT", tu_dir, 1);
	tu_fake(TFS "/tracing_on", "1\n");
	tu_fake(TFS "/trace", "someone else's events\n");
	tu_fake(TFS "/events/vmscan/mm_vmscan_kswapd_wake/enable", "1\n");
	tu_fake(TFS "/instances/.keep", "");
	if (!inst)
		return;
	snprintf(rel, sizeof(rel), TFS "/instances/vmbench-%ld/",
	    (long)getpid());
	strcat(rel, "tracing_on");
	tu_fake(rel, "1\n");
	*strrchr(rel, '/') = '\0';
	strcat(rel, "/trace");
	tu_fake(rel, "");
	*strrchr(rel, '/') = '\0';
	strcat(rel, "/trace_clock");
	tu_fake(rel, "[local] mono\n");
	*strrchr(rel, '/') = '\0';
	strcat(rel, "/set_event_pid");
	tu_fake(rel, "");
	*strrchr(rel, '/') = '\0';
	strcat(rel, "/options/event-fork");
	tu_fake(rel, "0\n");
	for (i = 0; i < nev && fake_events[i]; i++) {
		char ev[500];

		snprintf(ev, sizeof(ev), TFS "/instances/vmbench-%ld/events/%s/"
		    "enable", (long)getpid(), fake_events[i]);
		tu_fake(ev, "0\n");
	}
}

/* The top-level buffer and its event as fake_tracefs() made them. */
static void
top_untouched(void)
{
	char buf[200];

	tu_line(TFS "/tracing_on", buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, "1") == 0, "top-level tracing_on is '%s'",
	    buf);
	tu_line(TFS "/trace", buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, "someone else's events") == 0, "top-level "
	    "trace is '%s'", buf);
	tu_line(TFS "/events/vmscan/mm_vmscan_kswapd_wake/enable", buf,
	    sizeof(buf));
	ck_assert_msg(strcmp(buf, "1") == 0, "top-level event is '%s'", buf);
}

/* Is this process's instance, or its record, still there? */
static int
left(const char *what)
{
	char path[700];

	if (strcmp(what, "instance") == 0)
		snprintf(path, sizeof(path), "%s/" TFS "/instances/"
		    "vmbench-%ld", tu_dir, (long)getpid());
	else
		snprintf(path, sizeof(path), "%s/run/vmbench/trace.%ld.state",
		    tu_dir, (long)getpid());
	return access(path, F_OK) == 0;
}

START_TEST(fake_whole)
{
	struct vb_trace t;
	char why[8192], path[400], buf[64];
	double row[VB_TRACE_NCOL];
	FILE *f;

	fake_tracefs(1, 99);
	ck_assert_msg(vb_trace_open(&t, why, sizeof(why)) == 0 && !why[0],
	    "open: %s", why);
	ck_assert_msg(left("record"), "no state record while tracing");
	snprintf(path, sizeof(path), TFS "/instances/vmbench-%ld/events/"
	    "vmscan/mm_vmscan_memcg_reclaim_begin/enable", (long)getpid());
	tu_line(path, buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, "1") == 0, "event enable is '%s'", buf);
	vb_trace_start(&t);
	snprintf(path, sizeof(path), "%s/%s/trace", tu_dir, t.inst +
	    strlen(tu_dir) + 1);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(trace_text, f);
	fclose(f);
	vb_trace_stop(&t);
	ck_assert_int_eq(vb_trace_read(&t, row), 0);
	/* the header's 3 plus the [LOST] line's 3 */
	ck_assert_msg(row[VB_TP_MEMCG * VB_NTPF] == 3 &&
	    row[3 * VB_NTPF + 1] == 6, "memcg n %g lost %g",
	    row[VB_TP_MEMCG * VB_NTPF], row[3 * VB_NTPF + 1]);
	ck_assert_int_eq(vb_trace_close(&t, why, sizeof(why)), 0);
	ck_assert_msg(!left("instance") && !left("record"), "instance %d "
	    "record %d left", left("instance"), left("record"));
	top_untouched();
	ck_assert_int_eq(vb_trace_close(&t, why, sizeof(why)), 0);
}
END_TEST

START_TEST(fake_no_compaction)
{
	struct vb_trace t;
	char why[8192];
	double row[VB_TRACE_NCOL];

	/* the five vmscan events only */
	fake_tracefs(1, 5);
	ck_assert_msg(vb_trace_open(&t, why, sizeof(why)) == 0 &&
	    strstr(why, "no events for compaction"), "open: '%s'", why);
	vb_trace_start(&t);
	vb_trace_stop(&t);
	ck_assert_int_eq(vb_trace_read(&t, row), 0);
	ck_assert_msg(isnan(row[VB_TP_COMPACT * VB_NTPF]) &&
	    row[VB_TP_MEMCG * VB_NTPF] == 0, "compaction %g memcg %g",
	    row[VB_TP_COMPACT * VB_NTPF], row[VB_TP_MEMCG * VB_NTPF]);
	ck_assert_int_eq(vb_trace_close(&t, why, sizeof(why)), 0);
	top_untouched();
}
END_TEST

START_TEST(fake_half_there)
{
	struct vb_trace t;
	char why[8192], rel[400];

	/* an instance with tracing_on but no trace nor events */
	fake_tracefs(0, 0);
	snprintf(rel, sizeof(rel), TFS "/instances/vmbench-%ld/tracing_on",
	    (long)getpid());
	tu_fake(rel, "1\n");
	ck_assert_msg(vb_trace_open(&t, why, sizeof(why)) < 0 &&
	    strstr(why, "half there") && !strchr(why, '\n'), "open: '%s'",
	    why);
	ck_assert_msg(!left("instance") && !left("record"), "instance %d "
	    "record %d left", left("instance"), left("record"));
	top_untouched();
	/* no tracefs at all */
	tu_rmtree(tu_dir);
	ck_assert_int_eq(mkdir(tu_dir, 0700), 0);
	ck_assert_msg(vb_trace_open(&t, why, sizeof(why)) < 0 &&
	    strstr(why, "no tracefs at"), "open: '%s'", why);
	ck_assert_msg(!left("record"), "a record left without tracefs");
}
END_TEST

/* A tracefs whose instances folder is not one: half there, not busy. */
START_TEST(fake_no_instances)
{
	struct vb_trace t;
	char why[8192], path[PATH_MAX];

	fake_tracefs(0, 0);
	snprintf(path, sizeof(path), "%s/" TFS "/instances", tu_dir);
	tu_rmtree(path);
	tu_fake(TFS "/instances", "a file where the folder should be\n");
	ck_assert_msg(vb_trace_open(&t, why, sizeof(why)) < 0 &&
	    strstr(why, "tracefs half there") && !strstr(why, "busy") &&
	    !strchr(why, '\n'), "open: '%s'", why);
	ck_assert_msg(!left("record"), "a record left");
	top_untouched();
}
END_TEST

START_TEST(fake_busy)
{
	struct vb_trace t;
	char why[8192], rel[400];

	/* our instance's name taken by something that is not one */
	fake_tracefs(0, 0);
	snprintf(rel, sizeof(rel), TFS "/instances/vmbench-%ld",
	    (long)getpid());
	tu_fake(rel, "not a folder\n");
	ck_assert_msg(vb_trace_open(&t, why, sizeof(why)) < 0 &&
	    strstr(why, "busy"), "open: '%s'", why);
	ck_assert_msg(left("instance"), "the file in the way was removed");
	ck_assert_msg(!left("record"), "a record left");
	top_untouched();
}
END_TEST

/*
 * A benchmark under a tracefs half there (a fake whose instance comes
 * up empty, as no real one does) with tracing asked for: it runs to the
 * end (exit 0), says so in one line, and its .res has the tracepoint
 * columns with every value absent ("-"), not 0; the other tracer's
 * top-level buffer is as it was, and no instance or record is left.
 */
START_TEST(fake_half_there_run_goes_on)
{
	char out[4096];
	int rc;

	fake_tracefs(0, 0);
	rc = tu_sh_in(tu_dir, "VMBENCH_TRACE=1 VMBENCH_SYSROOT=\"$T\" "
	    "bench/forkbomb --forks 20 --iterations 2 --out \"$T/fb\" "
	    "--workdir \"$T\" > \"$T/fb.out\" 2> \"$T/fb.err\"");
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "cat '%s/fb.err'",
	    tu_dir), 0);
	ck_assert_msg(rc == 0, "forkbomb: status %d: %s", rc, out);
	tu_assert_has(out, "half there): no reclaim or compaction latency "
	    "recorded\n");
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "grep -c 'tracefs' "
	    "'%s/fb.err'", tu_dir), 0);
	ck_assert_msg(atoi(out) == 1, "%s lines name tracefs", out);
	/* each tracepoint column: "-" in every iteration */
	ck_assert_int_eq(tu_sh_out(out, sizeof(out), "awk '$1 == \"metric\" "
	    "{ m++; if ($2 ~ /^(reclaim_|compaction_|kswapd_wake_n|"
	    "trace_lost)/) c[m + 2] = $2 } $1 == \"iter\" { for (i in c) "
	    "print c[i], $i }' '%s/fb.res' | sort -u", tu_dir), 0);
	tu_assert_has(out, "reclaim_direct_n -\n");
	tu_assert_has(out, "reclaim_memcg_p99_us -\n");
	tu_assert_has(out, "compaction_n -\n");
	tu_assert_has(out, "kswapd_wake_n -\n");
	tu_assert_lacks(out, " 0\n");
	top_untouched();
	ck_assert_int_ne(tu_sh_in(tu_dir, "ls \"$T/" TFS "/instances\" | "
	    "grep -q vmbench- || ls \"$T/run/vmbench\" 2>/dev/null | grep -q "
	    "'^trace\\.'"), 0);
}
END_TEST

START_TEST(fake_read_only)
{
	char why[8192], tfs[700];
	int status;
	pid_t pid;

	if (geteuid() != 0)
		tu_skip("needs root (a read-only bind mount)");
	fake_tracefs(0, 0);
	snprintf(tfs, sizeof(tfs), "%s/" TFS, tu_dir);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct vb_trace t;
		int rc;

		/* our own mount namespace: the read-only tree is ours */
		if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL,
		    MS_REC | MS_PRIVATE, NULL) < 0 || mount(tfs, tfs, NULL,
		    MS_BIND, NULL) < 0 || mount(NULL, tfs, NULL, MS_REMOUNT |
		    MS_BIND | MS_RDONLY, NULL) < 0)
			_exit(77);
		rc = vb_trace_open(&t, why, sizeof(why));
		fprintf(stderr, "read-only tracefs: %s\n", why);
		_exit(rc < 0 && strstr(why, "read-only") && !left("record") ?
		    0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		tu_skip("cannot make a read-only bind mount here");
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "read-only: status %d (the child said why on stderr)", status);
	top_untouched();
}
END_TEST

START_TEST(fake_killed_recovered)
{
	char path[800];
	int status, n;
	pid_t pid;

	fake_tracefs(0, 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct vb_trace t;
		char why[8192];

		fake_tracefs(1, 99);
		if (vb_trace_open(&t, why, sizeof(why)) < 0)
			_exit(1);
		vb_trace_start(&t);
		raise(SIGKILL);
		_exit(2);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status), "child status %d", status);
	snprintf(path, sizeof(path), "%s/" TFS "/instances/vmbench-%ld",
	    tu_dir, (long)pid);
	ck_assert_msg(access(path, F_OK) == 0, "the killed one made no "
	    "instance");
	n = vb_trace_recover();
	ck_assert_msg(n == 1, "recovered %d", n);
	ck_assert_msg(access(path, F_OK) < 0, "%s left", path);
	snprintf(path, sizeof(path), "%s/run/vmbench/trace.%ld.state", tu_dir,
	    (long)pid);
	ck_assert_msg(access(path, F_OK) < 0, "%s left", path);
	top_untouched();
	/* a record naming another path is not followed */
	tu_fake("run/vmbench/trace.999999.state", "vmbench-state 1\n"
	    "pid 999999\nstart 1\ntrace /etc\n");
	ck_assert_int_eq(vb_trace_recover(), 0);
	ck_assert_int_eq(access("/etc", F_OK), 0);
	unlink(tu_path(path, sizeof(path), "run/vmbench/trace.999999.state"));
	/* make clean-stale (vmrun --clean-stale) removes one too */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct vb_trace t;
		char why[8192];

		fake_tracefs(1, 99);
		if (vb_trace_open(&t, why, sizeof(why)) < 0)
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	snprintf(path, sizeof(path), "%s/" TFS "/instances/vmbench-%ld",
	    tu_dir, (long)pid);
	ck_assert_msg(access(path, F_OK) == 0, "the killed one made no "
	    "instance");
	{
		char out[4096];

		tu_sh_out(out, sizeof(out), "bench/vmrun --clean-stale "
		    "--workdir %s --results %s/r 2>&1", tu_dir, tu_dir);
		ck_assert_msg(access(path, F_OK) < 0, "vmrun --clean-stale "
		    "left %s; it said: %s", path, out);
		tu_assert_has(out, "tracefs instance");
	}
	top_untouched();
}
END_TEST

/* ---- the real ones ---- */

#define REAL_TFS "/sys/kernel/tracing"

/*
 * Real tracefs, mounted for the test when it is not (and unmounted
 * after); skipped without root or tracefs.  1 when this test mounted it.
 */
static int
real_tracefs(void)
{
	if (geteuid() != 0)
		tu_skip("needs root (tracefs)");
	unsetenv("VMBENCH_SYSROOT");
	if (access(REAL_TFS "/instances", F_OK) == 0)
		return 0;
	if (mount("nodev", REAL_TFS, "tracefs", 0, NULL) < 0)
		tu_skip("no tracefs (mount -t tracefs: %s)", strerror(errno));
	if (access(REAL_TFS "/instances", F_OK) < 0) {
		umount(REAL_TFS);
		tu_skip("tracefs without instances");
	}
	return 1;
}

static char *
real_line(const char *path, char *buf, size_t len)
{
	ssize_t n = vb_read_small(path, buf, len);

	buf[n > 0 ? (size_t)n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

START_TEST(real_top_level_and_busy)
{
	char why[8192], on[16], ev[16], path[4400], buf[4096];
	struct vb_trace t;
	double row[VB_TRACE_NCOL];
	int mounted = real_tracefs(), fd, rc;
	const char *kw = REAL_TFS "/events/vmscan/mm_vmscan_kswapd_wake/enable";

	/* another tracer on the top level: tracing, an event on, a mark */
	real_line(REAL_TFS "/tracing_on", on, sizeof(on));
	real_line(kw, ev, sizeof(ev));
	ck_assert_int_eq(tu_sh_in(NULL, "echo 1 > %s && echo 1 > "
	    REAL_TFS "/tracing_on && echo vmbench-test-mark > "
	    REAL_TFS "/trace_marker", kw), 0);
	rc = vb_trace_open(&t, why, sizeof(why));
	ck_assert_msg(rc == 0, "open: %s", why);
	vb_trace_start(&t);
	vb_trace_stop(&t);
	ck_assert_int_eq(vb_trace_read(&t, row), 0);
	/* an instance a reader holds cannot go: busy, its record kept */
	snprintf(path, sizeof(path), "%s/trace_pipe", t.inst);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	rc = vb_trace_close(&t, why, sizeof(why));
	fprintf(stderr, "held instance: %s\n", why);
	ck_assert_msg(rc < 0 && strstr(why, "cannot remove"), "close with a "
	    "reader: %d '%s'", rc, why);
	ck_assert_msg(t.record[0] && access(t.record, F_OK) == 0, "record "
	    "gone while the instance stays");
	close(fd);
	t.made = 1;
	ck_assert_msg(vb_trace_close(&t, why, sizeof(why)) == 0, "close: %s",
	    why);
	ck_assert_msg(access(t.inst, F_OK) < 0, "%s left", t.inst);
	/* the other tracer's state and buffer are as they were */
	ck_assert_str_eq(real_line(REAL_TFS "/tracing_on", buf, sizeof(buf)),
	    "1");
	ck_assert_str_eq(real_line(kw, buf, sizeof(buf)), "1");
	ck_assert_int_eq(tu_sh_in(NULL, "grep -q vmbench-test-mark "
	    REAL_TFS "/trace"), 0);
	tu_sh_in(NULL, "echo %s > %s; echo %s > " REAL_TFS "/tracing_on; "
	    ": > " REAL_TFS "/trace", ev, kw, on);
	if (mounted)
		umount(REAL_TFS);
}
END_TEST

/* Mean of @name in @dir's memfill.res (NAN when absent). */
static double
res_mean(const char *dir, const char *name)
{
	char path[900];
	int n;

	snprintf(path, sizeof(path), "%s/memfill.res", dir);
	return tu_res_mean(path, name, &n);
}

/*
 * memfill --percent 80 --write through vmrun (with @mem: --mem 256M
 * --swap 512M; @iters: "" or " iterations=N" for the config line),
 * tracing on; its run folder into @dir.
 */
static void
memfill_run(const char *mem, const char *iters, char *dir, size_t len,
    const char *tag)
{
	char line[128];
	int rc;

	snprintf(line, sizeof(line), "memfill --percent 80 --write%s\n",
	    iters);
	tu_fake("mf.conf", line);
	rc = tu_sh_in(NULL, "VMBENCH_TRACE=1 bench/vmrun --kernel %s "
	    "--config '%s/mf.conf' --results '%s/res' --workdir '%s' %s > "
	    "'%s/%s.log' 2>&1", tag, tu_dir, tu_dir, tu_dir, mem, tu_dir, tag);
	if (rc != 0)
		tu_sh_in(NULL, "cat '%s/%s.log' >&2", tu_dir, tag);
	ck_assert_msg(rc == 0, "vmrun %s: status %d (its output above)", mem,
	    rc);
	snprintf(dir, len, "%s/res/%s/run1", tu_dir, tag);
}

START_TEST(real_memfill_mem)
{
	char lim[900], free_[900];
	double n, us, cg, sys, n0, sys0, fc;
	int mounted = real_tracefs();
	struct vb_psi p;

	vb_psi_system(&p, "/proc");
	if (!vb_psi_present(&p))
		tu_skip("no /proc/pressure/memory (psi=0 or no PSI)");
	memfill_run("--mem 256M --swap 512M", "", lim, sizeof(lim), "lim");
	n = res_mean(lim, "reclaim_memcg_n");
	us = res_mean(lim, "reclaim_memcg_p99_us");
	cg = res_mean(lim, "cg_psi_mem_some_us");
	sys = res_mean(lim, "psi_mem_some_us");
	fprintf(stderr, "MEM=256M SWAP=512M: memcg reclaim %g stalls, p99 "
	    "%g us; memory PSI some: cgroup %g us, system-wide %g us\n", n,
	    us, cg, sys);
	ck_assert_msg(n > 0 && us > 0, "memcg reclaim: %g stalls, p99 %g us",
	    n, us);
	/* the cgroup's own where it has one (v2), else the system's */
	ck_assert_msg(isnan(cg) ? sys > 0 : cg > 0, "memory PSI some: "
	    "cgroup %g, system %g", cg, sys);
	/*
	 * Without a limit the same fill leaves the machine room (80% of
	 * what is available): no memcg reclaim of its own and little
	 * stall.  The machine may not be idle (another cgroup's limit,
	 * another process's pressure): said, and judged against the run
	 * under the limit rather than against zero.  One iteration: 80% of
	 * a large machine's memory takes seconds a fill, and one shows it.
	 */
	memfill_run("", " iterations=1", free_, sizeof(free_), "free");
	n0 = res_mean(free_, "reclaim_memcg_n");
	sys0 = res_mean(free_, "psi_mem_some_us");
	fprintf(stderr, "no limit: memcg reclaim %g stalls, memory PSI some "
	    "%g us (system-wide)\n", n0, sys0);
	fc = res_mean(free_, "foreign_cpu");
	if (fc > 10 && (n0 > n / 10 || sys0 > (isnan(cg) ? sys : cg))) {
		/* the events and PSI are machine-wide: others' count */
		fprintf(stderr, "no limit: the machine was not idle (other "
		    "processes used %.0f%% of a CPU): %g memcg stalls and "
		    "%g us of memory stall measured, not judged\n", fc, n0,
		    sys0);
		goto out;
	}
	ck_assert_msg(n0 <= n / 10 && sys0 <= (isnan(cg) ? sys : cg),
	    "no limit: %g memcg stalls, %g us of memory stall; with MEM=: "
	    "%g, %g (what memfill filled and the machine's load above)", n0,
	    sys0, n, isnan(cg) ? sys : cg);
	ck_assert_msg(access(REAL_TFS "/instances/vmbench-0", F_OK) < 0 &&
	    tu_sh_in(NULL, "ls " REAL_TFS "/instances | grep -q vmbench-") !=
	    0, "an instance of vmbench left in " REAL_TFS "/instances");
out:
	if (mounted)
		umount(REAL_TFS);
}
END_TEST

Suite *
pressure_suite(void)
{
	Suite *s = suite_create("pressure");
	TCase *tc;

	tc = tu_tcase("pressure");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_add_test(tc, psi_parse_delta);
	tcase_add_test(tc, psi_absent_not_zero);
	tcase_add_test(tc, pairing);
	tcase_add_test(tc, percentiles);
	tcase_add_test(tc, fake_whole);
	tcase_add_test(tc, fake_no_compaction);
	tcase_add_test(tc, fake_half_there);
	tcase_add_test(tc, fake_no_instances);
	tcase_add_test(tc, fake_busy);
	tcase_add_test(tc, fake_half_there_run_goes_on);
	tcase_add_test(tc, fake_read_only);
	tcase_add_test(tc, fake_killed_recovered);
	suite_add_tcase(s, tc);

	/* the machine's tracefs and memory: alone */
	tc = tu_tcase_alone("real");
	tcase_add_checked_fixture(tc, tu_mktmp, tu_rmtmp);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, real_top_level_and_busy);
	tcase_add_test(tc, real_memfill_mem);
	suite_add_tcase(s, tc);
	return s;
}
