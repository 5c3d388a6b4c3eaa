# mk/bench.mk - vmbench measuring itself (docs/self.md) and against its
# peers (docs/validation.md), not timed unit tests; included by the
# Makefile.
#
# make bench [BENCH="overhead tio"]: tools/bench-all.sh runs every
# bench-NAME in turn and rewrites the last section of docs/validation.md
# with what they printed; BENCH keeps only the ones it names.
#
# One rule runs them all, from this table: a row is a NAME of
# BENCH_NAMES, and
#   bench_run_NAME     the command make bench-NAME runs, its arguments
#                      from VB_ variables ("$${VB_X:-default}")
#   bench_vars_NAME    the make variables it takes (make bench-NAME X=1),
#                      each exported as VB_X
#   bench_needs_NAME   what it needs built besides all
# A new measurement is a new row.

BENCH_NAMES := overhead report fileload makesim memfill probe tio html vmlat \
	ltp truth boots stats precision

# The harness's own cost: tools/overhead.c; then what tracing costs a
# fork, a fault and a memcg reclaim loop, the verdict (tools/trace_cost.c,
# TRACE_PAIRS pairs a workload, 600; exit 1 above 1%, 2 not decided, 77
# no tracefs or not root: skipped); then, with TRACE_ROUNDS=n, n rounds
# of whole forkbomb and memfill runs, a descriptive figure
# (tools/bench-trace.sh).  Each runs whatever the one before said; the
# status is the first that failed.
bench_run_overhead = tools/overhead; o=$$?; tools/trace_cost --pairs \
	"$${VB_TRACE_PAIRS:-600}"; t=$$?; [ $$t = 77 ] && t=0; r=0; \
	[ "$${VB_TRACE_ROUNDS:-0}" = 0 ] || { sh tools/bench-trace.sh \
	"$$VB_TRACE_ROUNDS"; r=$$?; [ $$r = 77 ] && r=0; }; \
	for s in $$o $$t $$r; do [ $$s = 0 ] || exit $$s; done
bench_vars_overhead = TRACE_PAIRS TRACE_ROUNDS
bench_needs_overhead = tools/overhead tools/sampler_phases tools/trace_cost

# The verdict's error rates on synthetic label folders, seeded, no
# benchmark run (about 3 minutes): tools/bench_stats.c.  STATS_PAIRS
# (1000 A/A pairs a model), STATS_SEED (1), STATS_POWER (200 pairs a
# power cell).
bench_run_stats = tools/bench_stats "$${VB_STATS_PAIRS:-1000}" \
	"$${VB_STATS_SEED:-1}" "$${VB_STATS_POWER:-200}"
bench_vars_stats = STATS_PAIRS STATS_SEED STATS_POWER
bench_needs_stats = tools/bench_stats

# The report's speed on 100 folders x 20 benchmarks: tools/bench-report.sh.
bench_run_report = sh tools/bench-report.sh

# fileload against dbench 4 on Debian's client.txt, alternating, medians
# (needs the dbench package): tools/fileload-vs-dbench.sh.
bench_run_fileload = sh tools/fileload-vs-dbench.sh "$${VB_FL_TIME:-20}" \
	"$${VB_FL_RUNS:-3}"
bench_vars_fileload = FL_TIME FL_RUNS

# makesim -j1 against -j2, and its run-to-run CoV over 5 runs (about 6
# minutes): tools/bench-makesim.sh.
bench_run_makesim = sh tools/bench-makesim.sh

# memfill's fill against memset() and a bare page-touch loop:
# tools/bench_memfill.c.
bench_run_memfill = tools/bench_memfill $${VB_MF_SIZE:+"$$VB_MF_SIZE"}
bench_vars_memfill = MF_SIZE
bench_needs_memfill = tools/bench_memfill

# The probe's own overhead: tools/bench-probe.sh.
bench_run_probe = sh tools/bench-probe.sh "$${VB_PROBE_TIME:-20}"
bench_vars_probe = PROBE_TIME

# tio against fio (its four phases at 1 and 4 threads, with fio against
# itself as the control: a figure outside +-25% but within the control's
# spread in the same run passes, and says so) and bonnie++ (the creates
# and deletes), alternating in one run: tools/tio-vs-peers.sh.
# TIO_SIZE (total, default 256M), TIO_RUNS (3), TIO_DIRECT=1 for O_DIRECT,
# TIO_FILES (creates, 131072), TIO_PARTS=io or creates for one half,
# TIO_CONTROL=1 for fio in tio's place (the control alone), TIO_PAUSE
# (seconds both sides wait before each phase after the first, 2).
bench_run_tio = TIO_FILES="$$VB_TIO_FILES" TIO_PARTS="$$VB_TIO_PARTS" \
	TIO_CONTROL="$$VB_TIO_CONTROL" TIO_PAUSE="$$VB_TIO_PAUSE" \
	sh tools/tio-vs-peers.sh "$${VB_TIO_SIZE:-256M}" \
	"$${VB_TIO_RUNS:-3}" $${VB_TIO_DIRECT:+direct}
bench_vars_tio = TIO_SIZE TIO_RUNS TIO_DIRECT TIO_FILES TIO_PARTS \
	TIO_CONTROL TIO_PAUSE

# The results page over 50 generated folders: its time (under 2 s) and,
# with chromium, the browser test (tests/html-browser.sh; in make check;
# 77: skipped).
bench_run_html = VB_HTML_BUDGET=1 sh tests/html-browser.sh 50; rc=$$?; \
	[ $$rc = 77 ] || exit $$rc

# vmlat against LMbench 3 built from its source in a temporary folder
# (LMBENCH_SRC=dir, a tree or a git folder), alternating, medians of
# LM_RUNS rounds; LM_TESTS="filerd mmaprd" picks some:
# tools/vmlat-vs-lmbench.sh.
bench_run_vmlat = LMBENCH_SRC="$$VB_LMBENCH_SRC" LM_TESTS="$$VB_LM_TESTS" \
	sh tools/vmlat-vs-lmbench.sh "$${VB_LM_RUNS:-9}"
bench_vars_vmlat = LMBENCH_SRC LM_RUNS LM_TESTS

# mmaptouch against LTP's mmap001 built from its source in a temporary
# folder (LTP_SRC=dir, a tree or a git folder), alternating, medians of
# LTP_RUNS rounds of LTP_ITER iterations of LTP_PAGES pages
# (77: no source or no build, skipped): tools/mmaptouch-vs-ltp.sh.
bench_run_ltp = LTP_SRC="$$VB_LTP_SRC" LTP_PAGES="$$VB_LTP_PAGES" \
	LTP_ITER="$$VB_LTP_ITER" sh tools/mmaptouch-vs-ltp.sh \
	"$${VB_LTP_RUNS:-9}"; rc=$$?; [ $$rc = 77 ] || exit $$rc
bench_vars_ltp = LTP_SRC LTP_RUNS LTP_PAGES LTP_ITER

# Does the report's verdict tell the truth: A/A false alarms over the 10
# splits of 6 runs, the old model beside, and real settings (THP,
# swappiness, zswap: configs/truth-thp.conf, truth-swap.conf and
# truth-zswap.conf, the last two under MEM=256M SWAP=1G) still detected
# with 3 runs a side, through make ab and make run: tools/bench-truth.sh.  TRUTH_CONFIG (configs/quick.conf),
# TRUTH_PARTS ("aa ab hand"), TRUTH_SETTINGS ("thp swap zswap": the real
# changes checked), TRUTH_OLD (the old model's commit) or TRUTH_OLD_BIN
# (its report already built).
bench_run_truth = sh tools/bench-truth.sh
bench_vars_truth = TRUTH_CONFIG TRUTH_PARTS TRUTH_SETTINGS TRUTH_OLD \
	TRUTH_OLD_BIN TRUTH_KEEP

# The quick suite's precision: PREC_RUNS runs (5) of PREC_CONFIG
# (configs/quick.conf), then per headline the run-to-run and iteration
# CoV, the farthest run, and the runs a side and minutes that would
# decide a 5% and a 10% change (vmreport's runs_needed; CPUS= and
# WORKDIR= as make run's): tools/bench-precision.sh.
bench_run_precision = PREC_RUNS="$$VB_PREC_RUNS" \
	PREC_CONFIG="$$VB_PREC_CONFIG" PREC_KEEP="$$VB_PREC_KEEP" \
	sh tools/bench-precision.sh
bench_vars_precision = PREC_RUNS PREC_CONFIG PREC_KEEP
bench_needs_precision = tools/precision

BENCH_TARGETS := $(BENCH_NAMES:%=bench-%)
$(call vb_export,BENCH $(foreach n,$(BENCH_NAMES),$(bench_vars_$(n))))

.PHONY: bench $(BENCH_TARGETS)
bench: all
	$(Q)sh tools/bench-all.sh $(BENCH_TARGETS)

$(BENCH_TARGETS): bench-%: all $$(bench_needs_$$*)
	$(Q)$(bench_run_$*)

# The time of a boot and two plans under this machine's accelerator:
# tools/bench-boots.sh (needs make test-kernel TEST_KERNEL=6.1.0-47-cloud-amd64
# and 6.1.0-57-cloud-amd64; docs/boots.md).
bench_run_boots = sh tools/bench-boots.sh

# Where the sampler's CPU time goes, phase by phase (tools/overhead runs
# it): src/lib/vmstat.c compiled in with its system calls wrapped, so it
# links the library without its vmstat.o.
tools/sampler_phases: tools/sampler_phases.o $(filter-out \
	src/lib/vmstat.o,$(LIB_OBJS))
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_OBJS += tools/sampler_phases.o
.PHONY: clean-sampler-phases
clean: clean-sampler-phases
clean-sampler-phases:
	$(Q)rm -f tools/sampler_phases

# What tracing costs a fork, a fault and a memcg reclaim loop, in one
# process, blocks with and without in ABBA order (make bench-overhead):
# the library and the runner's memory cgroups.
tools/trace_cost.o: CPPFLAGS += -Isrc/runner
tools/trace_cost: tools/trace_cost.o src/runner/memlimit.o src/runner/state.o \
	src/runner/mlock.o src/runner/knob.o src/runner/swapfile.o $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_OBJS += tools/trace_cost.o
.PHONY: clean-trace-cost
clean: clean-trace-cost
clean-trace-cost:
	$(Q)rm -f tools/trace_cost
