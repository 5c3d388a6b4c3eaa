# vmbench - benchmarks for Linux memory management.
#
# Non-recursive: every program and test is built from this one file; what
# is run with them is in the files it includes:
#   mk/workflows.mk   run, ab, compare, plot, post, html, fleet, clean-stale
#   mk/bench.mk       make bench and the bench-NAME measurements of vmbench
#   mk/fuzz.mk        make fuzz: a fuzzer per reader, built with clang
#
#   make            build src/lib/libvmbench.a, bench/*, report/vmreport
#   make check      build and run the tests (fails when any test fails),
#                   all but those tagged slow (Ansible, QEMU, Chromium)
#   make check-slow those tagged slow only
#   make run KERNEL=label [CONFIG=configs/quick.conf] [ITERATIONS=n] [RUNS=n]
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

# The user's values reach the programs through the environment, never
# through the shell's parsing: $(call vb_export,NAME ...) exports each
# make variable NAME as VB_NAME, its text unexpanded ($(value)); each
# recipe quotes "$$VB_NAME", and the lists (KERNELS, REPORT_OPTS) are
# split on blanks only, with globbing off (set -f).  The programs refuse
# what they cannot use, in one line.  make exports command-line
# variables to every recipe, expanding them on the way ($(shell ...) in
# a value would run): NAME itself is unexported, only VB_NAME goes.
vb_export = $(foreach v,$(1),$(eval export VB_$(v) = $$(value $(v))) \
	$(eval unexport $(v)))

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
# vmrun's own modules (its main and the modules over struct run_ctx,
# src/runner/run.h) are linked into vmrun only; the others (knob,
# memlimit, state, swapfile, benchlist) into the tests too
RUNNER_PROG := $(patsubst %,src/runner/%.o,vmrun line companion abrun runs \
	machine)
RUNNER_MODS := $(filter-out $(RUNNER_PROG),$(patsubst %.c,%.o,\
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
	$(RUNNER_MODS) $(RUNNER_PROG) $(REPORT_MODS) \
	src/report/vmreport.o $(TEST_OBJS)

.PHONY: all check check-slow deps need-deps clean

all: need-deps $(LIB) $(PROGS) $(REPORT)

.PHONY: FORCE
# a copy made by make fleet has its version in .vmbench-version, no .git;
# the temporary file has a name of its own (the shell's pid): make
# check's test cases run several makes in one tree at once
src/lib/version.h: FORCE
	$(Q)v=$$(cat .vmbench-version 2>/dev/null || \
	    git describe --always --dirty --tags 2>/dev/null || \
	    echo unknown); \
	t=$@.tmp.$$$$; echo "#define VB_VERSION \"$$v\"" > $$t; \
	cmp -s $$t $@ && rm -f $$t || mv $$t $@
FORCE:

src/lib/meta.o: src/lib/version.h

# the layers above the core see their own headers too
src/runner/%.o: CPPFLAGS += -Isrc/runner
src/report/%.o: CPPFLAGS += -Isrc/report
# a report view's header (src/report/views/) compiles in vmreport.c and
# in that view only: in the report's other files it is an #error
$(REPORT_MODS): CPPFLAGS += -DVR_LAYER
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

bench/vmrun: $(RUNNER_PROG) $(RUNNER_MODS) $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

report/vmreport: src/report/vmreport.o $(REPORT_MODS) $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(GSL_LIBS) $(LDLIBS)

# vmlat's exec helper: tiny and static, as LMbench's hello; built
# without the sanitizers (SANITIZE=1), which cannot link statically and
# would make it no longer tiny.
all: bench/vmlat_hello
bench/vmlat_hello: src/bench/vmlat/hello.c
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) -O2 -Wall -Wextra -static -o $@ $<
.PHONY: clean-vmlat
clean: clean-vmlat
clean-vmlat:
	$(Q)rm -f bench/vmlat_hello

# One runner for every suite: tests/suites.h lists check_<module>.c's
# <module>_suite() functions.
tests/suites.h: $(TEST_SRCS) Makefile
	$(Q)for f in $(sort $(TEST_SRCS)); do \
	    b=$${f##*/check_}; echo "SUITE($${b%.c})"; done > $@

tests/runner.o: tests/suites.h

# src/runner/benches.h: the benchmarks, BENCH("fileload") ..., one a
# folder of src/bench/: the only names the runner takes in a config.
src/runner/benches.h: FORCE
	$(Q)t=$@.tmp.$$$$; for b in $(sort $(BENCHES)); do \
	    echo "BENCH(\"$$b\")"; done > $$t; \
	cmp -s $$t $@ && rm -f $$t || mv $$t $@
src/runner/benchlist.o tests/fuzz/obj/src/runner/benchlist.o: \
	src/runner/benches.h

# tests/progs.h: the programs built here, PROG("bench/forkbomb") ...,
# whose --help tests/check_docs.c compares with docs/*.md.
tests/progs.h: FORCE
	$(Q)t=$@.tmp.$$$$; for p in $(sort $(PROGS) $(REPORT)); do \
	    echo "PROG(\"$$p\")"; done > $$t; \
	cmp -s $$t $@ && rm -f $$t || mv $$t $@
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

check: all check-headers $(TEST_BIN) tests/iterchild tools/precision
	$(call say,TEST,$(TEST_BIN))
	$(Q)VB_CHECK_SLOW=0 ./$(TEST_BIN)

# The test cases tagged slow (tu_tcase_slow() in tests/testutil.h):
# make fleet with real Ansible runs, make boots' QEMU boots, the HTML
# page in headless Chromium.
check-slow: all $(TEST_BIN) tests/iterchild
	$(call say,SLOW,$(TEST_BIN))
	$(Q)VB_CHECK_SLOW=1 ./$(TEST_BIN)

# Every header compiles on its own: included twice in a unit of its own
# (its includes and its guard are its own), with its layer's -I only.
# (src/runner/benches.h, tests/suites.h and tests/progs.h are generated
# lists, not headers.)
HEADERS = $(filter-out src/runner/benches.h tests/suites.h tests/progs.h,\
	$(wildcard src/lib/*.h \
	src/runner/*.h src/report/*.h src/report/*/*.h src/bench/*/*.h \
	src/boots/*.h tests/*.h tests/fuzz/*.h))
.PHONY: check-headers
check-headers: src/lib/version.h
	$(call say,CHECK,headers)
	$(Q)fail=0; for h in $(HEADERS); do \
	    case $$h in src/runner/*) i=-Isrc/runner;; \
	    src/report/*) i=-Isrc/report;; src/boots/*) i=-Isrc/boots;; \
	    tests/*) i="$(TEST_CPPFLAGS) $(CHECK_CFLAGS)";; *) i=;; esac; \
	    printf '#include "%s"\n#include "%s"\n' "$$h" "$$h" | \
	    $(CC) -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Werror \
	    -Isrc/lib $$i -fsyntax-only -x c - || \
	    { echo "$$h: does not compile on its own" >&2; fail=1; }; \
	done; exit $$fail

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

# vmbench's measurements of itself (mk/bench.mk): the harness's cost
# (tools/overhead.c) and memfill's fill against memset()
# (tools/bench_memfill.c).
tools/overhead: tools/overhead.o $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_OBJS += tools/overhead.o

# The verdict's error rates on synthetic folders (make bench-stats):
# the report's modules, no benchmark.
tools/bench_stats.o: CPPFLAGS += -Isrc/report
tools/bench_stats: tools/bench_stats.o $(REPORT_MODS) $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(GSL_LIBS) $(LDLIBS)
ALL_OBJS += tools/bench_stats.o

tools/bench_memfill: tools/bench_memfill.o src/bench/memfill/fill.o $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_OBJS += tools/bench_memfill.o

# make bench-precision's descriptive figures of a label's runs
# (tools/precision.c; the runs a side come from vmreport).
tools/precision: tools/precision.o $(LIB)
	$(call say,LD,$@)
	$(Q)mkdir -p $(@D) && $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
ALL_OBJS += tools/precision.o

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
	    tests/progs.h src/runner/benches.h \
	    tools/overhead tools/bench_memfill tools/bench_stats tools/precision \
	    src/lib/version.h $(ALL_OBJS) $(ALL_OBJS:.o=.d)

# make check SANITIZE=1 (docs/testing.md): every object, program and
# test built with ASan and UBSan (any report fails the test).
# .build-flags records the compiler and flags; when they change every
# object is rebuilt, so sanitized and plain objects never mix.
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
	$(Q)t=$@.tmp.$$$$; \
	echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS)' > $$t; \
	cmp -s $$t $@ && rm -f $$t || mv $$t $@

include mk/workflows.mk mk/bench.mk mk/fuzz.mk mk/boots.mk

# last: every object is in ALL_OBJS by now (mk/boots.mk adds its own)
-include $(ALL_OBJS:.o=.d)
