# vmbench - benchmarks for Linux memory management.
#
# Non-recursive: every program and test is built from this one file.
#   make            build lib/libvmbench.a, bench/*, report/vmreport
#   make check      build and run the tests (fails when any test fails)
#   make run KERNEL=label [CONFIG=configs/quick.conf] [ITERATIONS=n]
#   make ab KERNEL=label A="name=value,..." B="name=value,..."
#   make html KERNELS="a b c" [HTML=dir]   the results page (docs/html.md)
#   make clean-stale      undo what a killed run left behind
#   make fleet INVENTORY=hosts.ini [CONFIG=...]   run on every host (Ansible)
#   make fleet-fetch INVENTORY=hosts.ini   fetch what the hosts ran
#   make deps       install the Debian packages (as root)
#   make bench-overhead   measure the harness's own cost
#   make check SANITIZE=1 the tests with ASan and UBSan
#   make fuzz [FUZZ_TIME=60]   fuzz every reader (docs/testing.md)
#   make docs       rewrite the --help blocks of docs/*.md
# V=1 shows the commands.

MAKEFLAGS += -r
.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDEXPANSION:
.SECONDARY:
.DEFAULT_GOAL := all

CC ?= cc
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wformat=2 -Wno-format-nonliteral
CPPFLAGS += -D_GNU_SOURCE -Isrc/lib -MMD -MP
# Bind every symbol at start-up: otherwise each forked child resolves
# _exit and malloc lazily, and the GOT writes cost it ~10 page faults that
# belong to the dynamic linker, not to the kernel being measured.
LDFLAGS ?=
LDFLAGS += -Wl,-z,relro,-z,now
LDLIBS += -lm -lpthread

PKG_CONFIG ?= pkg-config
GSL_LIBS = $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || echo -lgsl -lgslcblas)
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check 2>/dev/null || echo -lcheck)

ifeq ($(V),1)
Q :=
say = @true
else
Q := @
# a closed stdout (make run | head) must not stop the build: the line
# ignores SIGPIPE and its failure
say = @trap '' PIPE; printf '  %-7s %s\n' $(1) $(2) || :;
endif

# Debian packages: building, tests (check), report statistics (gsl),
# charts (gnuplot, optional at run time).
DEB_PKGS := gcc make libc6-dev pkg-config check libgsl-dev gnuplot-nox

# Sources by role (docs/architecture.md); every arrow points down:
#   src/lib/           the measuring core, linked by every program
#   src/bench/NAME/    one folder a benchmark: NAME.c is its main, the
#                      other files its modules; built as bench/NAME
#   src/runner/        vmrun (vmrun.c) and its modules; built as bench/vmrun
#   src/report/        vmreport (vmreport.c) and its modules; built as
#                      report/vmreport
# Each layer sees only its own headers and those below it (-I per layer).
LIB := src/lib/libvmbench.a
LIB_OBJS := $(patsubst %.c,%.o,$(wildcard src/lib/*.c))

BENCHES := $(notdir $(patsubst %/,%,$(wildcard src/bench/*/)))
# a benchmark's exec helpers (src/bench/NAME/hello.c: vmlat_hello) are
# built apart, tiny and static: below
BENCH_HELPERS := src/bench/vmlat/hello.c
BENCH_MAIN := $(foreach b,$(BENCHES),src/bench/$(b)/$(b).c)
BENCH_MODS := $(patsubst %.c,%.o,$(filter-out $(BENCH_MAIN) \
	$(BENCH_HELPERS),$(wildcard src/bench/*/*.c)))
RUNNER_MODS := $(patsubst %.c,%.o,$(filter-out src/runner/vmrun.c,\
	$(wildcard src/runner/*.c)))
PROGS := $(BENCHES:%=bench/%) bench/vmrun

REPORT := report/vmreport
REPORT_SRCS := $(wildcard src/report/*.c src/report/*/*.c)
REPORT_MODS := $(patsubst %.c,%.o,$(filter-out src/report/vmreport.c,\
	$(REPORT_SRCS)))

TEST_SRCS := $(wildcard tests/check_*.c)
TEST_OBJS := $(TEST_SRCS:.c=.o) tests/runner.o
TEST_BIN := tests/check_vmbench

ALL_OBJS := $(LIB_OBJS) $(BENCH_MAIN:.c=.o) $(BENCH_MODS) \
	$(RUNNER_MODS) src/runner/vmrun.o $(REPORT_MODS) \
	src/report/vmreport.o $(TEST_OBJS)

CONFIG ?= configs/quick.conf
RESULTS ?= results

# The user's values reach the programs through the environment, never
# through the shell's parsing: $(value) takes them unexpanded, each
# recipe quotes "$$VB_X", and the lists (KERNELS, REPORT_OPTS) are split
# on blanks only, with globbing off (set -f).  The programs refuse what
# they cannot use, in one line.  KERNEL left empty is uname -r (vmrun).
export VB_KERNEL = $(value KERNEL)
export VB_CONFIG = $(value CONFIG)
export VB_RESULTS = $(value RESULTS)
export VB_ITERATIONS = $(value ITERATIONS)
export VB_FORCE = $(value FORCE)
export VB_MEM = $(value MEM)
export VB_SWAP = $(value SWAP)
export VB_WORKDIR = $(value WORKDIR)
export VB_A = $(value A)
export VB_B = $(value B)
# A= given, even empty (the settings as found), or forgotten: read
# before the unexport below, which defines every name it lists
export VB_A_SET := $(if $(filter undefined,$(origin A)),,1)
export VB_B_SET := $(if $(filter undefined,$(origin B)),,1)
export VB_A_LABEL = $(value A_LABEL)
export VB_B_LABEL = $(value B_LABEL)
export VB_ORDER = $(value ORDER)
export VB_KERNELS = $(value KERNELS)
export VB_REPORT_OPTS = $(value REPORT_OPTS)
export VB_PLOTS = $(value PLOTS)
export VB_FL_TIME = $(value FL_TIME)
export VB_FL_RUNS = $(value FL_RUNS)
export VB_MF_SIZE = $(value MF_SIZE)
export VB_PROBE_TIME = $(value PROBE_TIME)
# make exports command-line variables to every recipe, expanding them
# on the way ($(shell ...) in a value would run): only the VB_ copies go.
unexport KERNEL CONFIG RESULTS ITERATIONS FORCE MEM SWAP WORKDIR A B \
	A_LABEL B_LABEL ORDER KERNELS REPORT_OPTS PLOTS FL_TIME FL_RUNS \
	MF_SIZE PROBE_TIME
# the options every vmrun target shares, as shell words from VB_*
VMRUN_ARGS = --config "$$VB_CONFIG" --results "$$VB_RESULTS" \
	    $${VB_ITERATIONS:+--iterations "$$VB_ITERATIONS"} \
	    $${VB_MEM:+--mem "$$VB_MEM"} $${VB_SWAP:+--swap "$$VB_SWAP"} \
	    $${VB_WORKDIR:+--workdir "$$VB_WORKDIR"}

.PHONY: all check run deps need-deps clean bench bench-overhead compare plot post \
	need-kernels bench-report ab clean-stale

all: need-deps $(LIB) $(PROGS) $(REPORT)

.PHONY: FORCE
# a copy made by make fleet has its version in .vmbench-version, no .git
src/lib/version.h: FORCE
	$(Q)v=$$(cat .vmbench-version 2>/dev/null || \
	    git describe --always --dirty --tags 2>/dev/null || \
	    echo unknown); \
	echo "#define VB_VERSION \"$$v\"" > $@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
FORCE:

src/lib/meta.o: src/lib/version.h

# the layers above the core see their own headers too
src/runner/%.o: CPPFLAGS += -Isrc/runner
src/report/%.o: CPPFLAGS += -Isrc/report
tools/%.o: CPPFLAGS += -Isrc/bench
TEST_CPPFLAGS = -Isrc/runner -Isrc/report -Isrc/bench

%.o: %.c .build-flags
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

tests/%.o: tests/%.c .build-flags
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(TEST_CPPFLAGS) $(CHECK_CFLAGS) $(CFLAGS) \
	    -c -o $@ $<

$(LIB): $(LIB_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# bench/NAME: every .c of src/bench/NAME/ but its exec helpers
bench/%: $$(addsuffix .o,$$(basename $$(filter-out $(BENCH_HELPERS),\
	$$(wildcard src/bench/$$*/*.c)))) $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench/vmrun: src/runner/vmrun.o $(RUNNER_MODS) $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

report/vmreport: src/report/vmreport.o $(REPORT_MODS) $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(GSL_LIBS) $(LDLIBS)

# One runner for every suite: tests/suites.h lists check_<module>.c's
# <module>_suite() functions.
tests/suites.h: $(TEST_SRCS) Makefile
	$(Q)for f in $(sort $(TEST_SRCS)); do \
	    b=$${f##*/check_}; echo "SUITE($${b%.c})"; done > $@

tests/runner.o: tests/suites.h

# tests/progs.h: the programs built here, PROG("bench/forkbomb") ...,
# whose --help tests/check_docs.c compares with docs/*.md.
tests/progs.h: FORCE
	$(Q)for p in $(sort $(PROGS) $(REPORT)); do \
	    echo "PROG(\"$$p\")"; done > $@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
tests/check_docs.o: tests/progs.h

# make docs: each program's --help into its block in docs/*.md
# (tools/doc-help.sh says how; a new program gets a block at the end of
# docs/benchmarks.md).
.PHONY: docs
docs: all
	$(Q)sh tools/doc-help.sh $(sort $(PROGS) $(REPORT))

$(TEST_BIN): $(TEST_OBJS) $(BENCH_MODS) $(RUNNER_MODS) $(REPORT_MODS) $(LIB)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(GSL_LIBS) $(LDLIBS)

check: all $(TEST_BIN) tests/iterchild
	$(call say,TEST,$(TEST_BIN))
	$(Q)./$(TEST_BIN)

# make run: the runner does the work; see src/runner/vmrun.c and docs/running.md.
run: all
	$(Q)case "$$VB_FORCE" in 1) set -- --force;; *) set --;; esac; \
	bench/vmrun --kernel "$$VB_KERNEL" $(VMRUN_ARGS) "$$@"

# make ab: one kernel, two settings, iterations interleaved (ABBA), into
# results/<KERNEL>-A and -B (or A_LABEL, B_LABEL), then the comparison.
ab: all
	$(Q)case "$$VB_FORCE" in 1) set -- --force;; *) set --;; esac; \
	bench/vmrun --kernel "$$VB_KERNEL" \
	    $${VB_A_SET:+--a "$$VB_A"} $${VB_B_SET:+--b "$$VB_B"} \
	    $${VB_A_LABEL:+--label-a "$$VB_A_LABEL"} \
	    $${VB_B_LABEL:+--label-b "$$VB_B_LABEL"} \
	    $${VB_ORDER:+--order "$$VB_ORDER"} $(VMRUN_ARGS) "$$@"

# make fleet: the suite on every host of an Ansible inventory, each
# host's folder fetched into $(RESULTS); see deploy/fleet.sh, docs/fleet.md.
# make fleet-fetch: only the fetching, of each host's existing folder.
export VB_INVENTORY = $(value INVENTORY)
export VB_ANSIBLE_PLAYBOOK = $(value ANSIBLE_PLAYBOOK)
export VB_FLEET_OPTS = $(value FLEET_OPTS)
export VB_DEB_PKGS := $(DEB_PKGS)
unexport INVENTORY ANSIBLE_PLAYBOOK FLEET_OPTS
.PHONY: fleet fleet-fetch
fleet:
	$(Q)sh deploy/fleet.sh
fleet-fetch:
	$(Q)sh deploy/fleet.sh fetch

# Undo what a run killed with SIGKILL left (cgroup, swap file, settings,
# work folders); every run does this first by itself.
clean-stale: all
	$(Q)bench/vmrun --clean-stale $${VB_WORKDIR:+--workdir "$$VB_WORKDIR"}

# The report (report/vmreport; docs/report.md): KERNELS="a b c"
# names result folders under $(RESULTS), the first is the baseline;
# REPORT_OPTS passes more options (e.g. --detail, --format csv).
# REPORT_DIRS: the shell words "$RESULTS/label" ... then the options,
# from the environment, split on blanks with globbing off.
REPORT_DIRS = set -f; set --; for k in $$VB_KERNELS; do \
	    set -- "$$@" "$${VB_RESULTS:-results}/$$k"; done; \
	    [ $$\# -gt 0 ] || { echo 'make: name the result folders to' \
	    'compare: KERNELS="label1 label2 ..."' >&2; exit 2; }
need-kernels:
	@$(REPORT_DIRS)
compare: all
	$(Q)$(REPORT_DIRS); report/vmreport $$VB_REPORT_OPTS "$$@"
plot: all
	$(Q)$(REPORT_DIRS); report/vmreport $$VB_REPORT_OPTS \
	    --plot "$${VB_PLOTS:-plots}" "$$@"
post: all
	$(Q)$(REPORT_DIRS); report/vmreport $$VB_REPORT_OPTS --post "$$@"

# make html: the results page across the KERNELS, HTML=dir/index.html
# (default $(RESULTS)/html): src/report/rhtml.c, docs/html.md.
export VB_HTML = $(value HTML)
unexport HTML
.PHONY: html bench-html
html: all
	$(Q)$(REPORT_DIRS); report/vmreport $$VB_REPORT_OPTS \
	    --html "$${VB_HTML:-$${VB_RESULTS:-results}/html}" "$$@"

# Measurements of vmbench itself (not timed unit tests): each issue adds
# its bench-<name> target to BENCH_TARGETS; `make bench` runs them all.
BENCH_TARGETS := bench-overhead
BENCH_TARGETS += bench-report
BENCH_TARGETS += bench-fileload
BENCH_TARGETS += bench-makesim
# make bench [BENCH="overhead tio"]: tools/bench-all.sh runs them in turn
# and rewrites the last section of docs/validation.md with what they
# printed; BENCH keeps only the ones it names.
export VB_BENCH = $(value BENCH)
unexport BENCH
bench: all
	$(Q)sh tools/bench-all.sh $(BENCH_TARGETS)

# makesim -j1 against -j2, and its run-to-run CoV over 5 runs (about 6
# minutes): see tools/bench-makesim.sh.
.PHONY: bench-makesim
bench-makesim: all
	$(Q)sh tools/bench-makesim.sh

# fileload against dbench 4 on Debian's client.txt, alternating, medians
# (needs the dbench package): see tools/fileload-vs-dbench.sh.
bench-fileload: all
	$(Q)sh tools/fileload-vs-dbench.sh "$${VB_FL_TIME:-20}" \
	    "$${VB_FL_RUNS:-3}"

# A benchmark that reports what its iteration child looks like, for
# tests/check_harness.c.
tests/iterchild: tests/iterchild.o $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_OBJS += tests/iterchild.o
.PHONY: clean-iterchild
clean: clean-iterchild
clean-iterchild:
	$(Q)rm -f tests/iterchild

# The harness's own cost: see tools/overhead.c (not part of make check).
bench-overhead: all tools/overhead
	$(Q)tools/overhead

tools/overhead: tools/overhead.o $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_OBJS += tools/overhead.o

# memfill's fill against memset() and a bare page-touch loop, and the
# probe's own overhead: see tools/bench_memfill.c, tools/bench-probe.sh.
BENCH_TARGETS += bench-memfill bench-probe
.PHONY: bench-memfill bench-probe
bench-memfill: all tools/bench_memfill
	$(Q)tools/bench_memfill $${VB_MF_SIZE:+"$$VB_MF_SIZE"}
bench-probe: all
	$(Q)sh tools/bench-probe.sh "$${VB_PROBE_TIME:-20}"
tools/bench_memfill: tools/bench_memfill.o src/bench/memfill/fill.o $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_OBJS += tools/bench_memfill.o

# tio against fio (its four phases at 1 and 4 threads) and bonnie++ (the
# creates and deletes), alternating in one run: tools/tio-vs-peers.sh.
# TIO_SIZE (total, default 256M), TIO_RUNS (3), TIO_DIRECT=1 for O_DIRECT,
# TIO_FILES (creates, 131072), TIO_PARTS=io or creates for one half,
# TIO_CONTROL=1 for fio in tio's place (how far fio is from itself).
BENCH_TARGETS += bench-tio
.PHONY: bench-tio
export VB_TIO_SIZE = $(value TIO_SIZE)
export VB_TIO_RUNS = $(value TIO_RUNS)
export VB_TIO_DIRECT = $(value TIO_DIRECT)
export VB_TIO_FILES = $(value TIO_FILES)
export VB_TIO_PARTS = $(value TIO_PARTS)
export VB_TIO_CONTROL = $(value TIO_CONTROL)
unexport TIO_SIZE TIO_RUNS TIO_DIRECT TIO_FILES TIO_PARTS TIO_CONTROL
bench-tio: all
	$(Q)TIO_FILES="$$VB_TIO_FILES" TIO_PARTS="$$VB_TIO_PARTS" \
	    TIO_CONTROL="$$VB_TIO_CONTROL" \
	    sh tools/tio-vs-peers.sh "$${VB_TIO_SIZE:-256M}" \
	    "$${VB_TIO_RUNS:-3}" $${VB_TIO_DIRECT:+direct}

# The report's speed on 100 folders x 20 benchmarks: tools/bench-report.sh.
bench-report: all
	$(Q)sh tools/bench-report.sh

# The results page over 50 generated folders: its time (under 2 s) and,
# with chromium, the browser test (tests/html-browser.sh; in make check).
BENCH_TARGETS += bench-html
bench-html: all
	$(Q)sh tests/html-browser.sh 50; rc=$$?; [ $$rc = 77 ] || exit $$rc

# vmlat's exec helper: tiny and static, as LMbench's hello; built
# without the sanitizers (SANITIZE=1), which cannot link statically and
# would make it no longer tiny.
all: bench/vmlat_hello
bench/vmlat_hello: src/bench/vmlat/hello.c
	$(call say,LD,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -static -o $@ $<
.PHONY: clean-vmlat
clean: clean-vmlat
clean-vmlat:
	$(Q)rm -f bench/vmlat_hello

# vmlat against LMbench 3 built from its source in a temporary folder
# (LMBENCH_SRC=dir, a tree or a git folder), alternating, medians of
# LM_RUNS rounds; LM_TESTS="filerd mmaprd" picks some: see
# tools/vmlat-vs-lmbench.sh.
BENCH_TARGETS += bench-vmlat
export VB_LMBENCH_SRC = $(value LMBENCH_SRC)
export VB_LM_RUNS = $(value LM_RUNS)
export VB_LM_TESTS = $(value LM_TESTS)
unexport LMBENCH_SRC LM_RUNS LM_TESTS
.PHONY: bench-vmlat
bench-vmlat: all
	$(Q)LMBENCH_SRC="$$VB_LMBENCH_SRC" LM_TESTS="$$VB_LM_TESTS" \
	    sh tools/vmlat-vs-lmbench.sh \
	    "$${VB_LM_RUNS:-9}"

# Check for the Debian packages; install them as root, else say how.
need-deps:
	@missing=; \
	$(PKG_CONFIG) --exists check 2>/dev/null || missing="$$missing check"; \
	$(PKG_CONFIG) --exists gsl 2>/dev/null || missing="$$missing libgsl-dev"; \
	command -v $(PKG_CONFIG) >/dev/null || missing="$$missing pkg-config"; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	        echo "vmbench: installing missing packages:$$missing"; \
	        $(MAKE) --no-print-directory deps || exit 1; \
	    else \
	        echo "vmbench: missing packages:$$missing; run:" >&2; \
	        echo "    sudo apt-get install -y $(DEB_PKGS)" >&2; \
	        exit 1; \
	    fi; \
	fi

deps:
	@if [ "$$(id -u)" != 0 ]; then \
	    echo "make deps: not root; run:" >&2; \
	    echo "    sudo apt-get install -y $(DEB_PKGS)" >&2; exit 1; fi
	DEBIAN_FRONTEND=noninteractive apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(DEB_PKGS)

clean:
	$(call say,CLEAN,.)
	$(Q)rm -f $(LIB) $(PROGS) report/vmreport $(TEST_BIN) tests/suites.h \
	    tests/progs.h \
	    tools/overhead tools/bench_memfill \
	    src/lib/version.h $(ALL_OBJS) $(ALL_OBJS:.o=.d)

# ---- sanitizers and fuzzing (docs/testing.md) ----
#
# make check SANITIZE=1: every object, program and test built with ASan
# and UBSan (any report fails the test).  .build-flags records the
# compiler and flags; when they change every object is rebuilt, so
# sanitized and plain objects never mix.
ifeq ($(SANITIZE),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
CFLAGS += $(SAN_FLAGS)
LDFLAGS += $(SAN_FLAGS)
export ASAN_OPTIONS ?= detect_leaks=1
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
endif

.build-flags: FORCE
	$(Q)echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS)' > $@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# make fuzz [FUZZ_TIME=60]: one libFuzzer target per reader,
# tests/fuzz/fuzz_<reader>.c, built with clang and its own copy of the
# library (tests/fuzz/obj/), each run FUZZ_TIME seconds from a seed
# corpus of the real files (tests/fuzz/seeds/<reader>/, remade each run)
# and the inputs it found before (tests/fuzz/corpus/<reader>/).  A crash
# or sanitizer report fails it; the input is kept as
# tests/fuzz/crashes/<reader>-crash-<sha1>, the log in
# tests/fuzz/logs/<reader>.log.  make -j2 fuzz runs two at a time.
FUZZ_TIME ?= 60
FUZZ_CC ?= clang
FUZZ_READERS := res meta vmstat config loadfile
FUZZ_CFLAGS := -g -O1 -std=gnu11 -Wall -Wextra -fno-omit-frame-pointer \
	-Wno-missing-field-initializers \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_OPTS ?=
# FUZZ_TIME and FUZZ_OPTS reach the recipe through the environment,
# unexpanded, and are never parsed by the shell (FUZZ_OPTS is split on
# blanks, globbing off).
export VB_FUZZ_TIME = $(value FUZZ_TIME)
export VB_FUZZ_OPTS = $(value FUZZ_OPTS)
unexport FUZZ_TIME FUZZ_OPTS
FUZZ_SRCS := $(wildcard src/lib/*.c) $(RUNNER_MODS:.o=.c) \
	src/bench/fileload/load.c $(REPORT_MODS:.o=.c)
FUZZ_OBJS := $(addprefix tests/fuzz/obj/,$(FUZZ_SRCS:.c=.o))
FUZZ_LIB := tests/fuzz/obj/libvmbench-fuzz.a
FUZZ_BINS := $(FUZZ_READERS:%=tests/fuzz/fuzz_%)
FUZZ_RUNS := $(FUZZ_READERS:%=fuzz-%)
# the seeds: the example results, the configs, the loadfile
FUZZ_SEEDS_res = $(wildcard results/examples/*/*.res tests/fixtures/*.res)
FUZZ_SEEDS_meta = $(wildcard results/examples/*/meta)
FUZZ_SEEDS_vmstat = $(wildcard results/examples/*/*.vmstat)
FUZZ_SEEDS_config = $(wildcard configs/*.conf)
FUZZ_SEEDS_loadfile = $(wildcard configs/*.load)

.PHONY: fuzz fuzz-build need-clang $(FUZZ_RUNS)
fuzz: $(FUZZ_RUNS)
fuzz-build: $(FUZZ_BINS)

need-clang:
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz: no" \
	    "$(FUZZ_CC); run: sudo apt-get install -y clang" >&2; exit 1; }

tests/fuzz/obj/.flags: FORCE | need-clang
	$(Q)mkdir -p $(@D) && echo '$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS)' \
	    > $@.tmp; cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

tests/fuzz/obj/%.o: %.c tests/fuzz/obj/.flags
	$(call say,FUZZCC,$@)
	$(Q)mkdir -p $(@D) && $(FUZZ_CC) $(CPPFLAGS) $(TEST_CPPFLAGS) \
	    $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

tests/fuzz/obj/src/lib/meta.o: src/lib/version.h

# the layers above the core see their own headers too
src/runner/%.o: CPPFLAGS += -Isrc/runner
src/report/%.o: CPPFLAGS += -Isrc/report
tools/%.o: CPPFLAGS += -Isrc/bench
TEST_CPPFLAGS = -Isrc/runner -Isrc/report -Isrc/bench

$(FUZZ_LIB): $(FUZZ_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

tests/fuzz/fuzz_%: tests/fuzz/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(call say,LD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ \
	    $(GSL_LIBS) $(LDLIBS)

$(FUZZ_RUNS): fuzz-%: tests/fuzz/fuzz_%
	$(Q)case "$$VB_FUZZ_TIME" in ''|*[!0-9]*) echo "make fuzz:" \
	    "FUZZ_TIME must be whole seconds, not '$$VB_FUZZ_TIME'" >&2; \
	    exit 2;; esac; \
	d=tests/fuzz; rm -rf $$d/seeds/$*; \
	mkdir -p $$d/seeds/$* $$d/corpus/$* $$d/crashes $$d/logs; \
	i=0; for f in $(FUZZ_SEEDS_$*); do i=$$((i + 1)); \
	    cp "$$f" $$d/seeds/$*/$$i; done; \
	echo "  FUZZ    $* for $$VB_FUZZ_TIME s ($$i seeds)"; \
	set -f; \
	if $$d/fuzz_$* -max_total_time="$$VB_FUZZ_TIME" -timeout=10 \
	    -close_fd_mask=3 -print_final_stats=1 \
	    -dict=$$d/$*.dict -artifact_prefix=$$d/crashes/$*- \
	    $$VB_FUZZ_OPTS \
	    $$d/corpus/$* $$d/seeds/$* > $$d/logs/$*.log 2>&1; then \
	    grep -E '^#[0-9]+[[:space:]]+DONE' $$d/logs/$*.log | \
	        sed 's/^/  $* /'; \
	else \
	    tail -n 40 $$d/logs/$*.log >&2; \
	    echo "make fuzz: $* failed; see $$d/logs/$*.log and" \
	        "$$d/crashes/" >&2; exit 1; \
	fi

-include $(FUZZ_OBJS:.o=.d) \
	$(FUZZ_READERS:%=tests/fuzz/obj/tests/fuzz/fuzz_%.d)

.PHONY: clean-testing
clean: clean-testing
clean-testing:
	$(Q)rm -rf tests/fuzz/obj tests/fuzz/seeds \
	    $(FUZZ_BINS) .build-flags .build-flags.tmp

-include $(ALL_OBJS:.o=.d)

include mk/boots.mk
