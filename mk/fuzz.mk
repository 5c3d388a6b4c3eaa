# mk/fuzz.mk - make fuzz (docs/testing.md), included by the Makefile.
#
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
$(call vb_export,FUZZ_TIME FUZZ_OPTS)
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
	$(Q)mkdir -p $(@D) && t=$@.tmp.$$$$ && \
	    echo '$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS)' > $$t && \
	    { cmp -s $$t $@ && rm -f $$t || mv $$t $@; }

tests/fuzz/obj/%.o: %.c tests/fuzz/obj/.flags
	$(call say,FUZZCC,$@)
	$(Q)mkdir -p $(@D) && $(FUZZ_CC) $(CPPFLAGS) $(TEST_CPPFLAGS) \
	    $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

tests/fuzz/obj/src/lib/meta.o: src/lib/version.h

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

# with the sanitizers' .build-flags (make check SANITIZE=1)
.PHONY: clean-testing
clean: clean-testing
clean-testing:
	$(Q)rm -rf tests/fuzz/obj tests/fuzz/seeds \
	    $(FUZZ_BINS) .build-flags .build-flags.tmp.*
