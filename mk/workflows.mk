# mk/workflows.mk - what a user runs with the programs (included by the
# Makefile): a run, an A/B run, the report's forms, a fleet of hosts, and
# the clean-up after a killed run.  Every value given to make reaches
# the programs as VB_NAME in the environment ($(call vb_export,...) in
# the Makefile), never as shell text.

.PHONY: run ab compare plot post need-kernels clean-stale

CONFIG ?= configs/quick.conf
RESULTS ?= results

# A= given, even empty (the settings as found), or forgotten: read
# before vb_export unexports A and B, which defines them
export VB_A_SET := $(if $(filter undefined,$(origin A)),,1)
export VB_B_SET := $(if $(filter undefined,$(origin B)),,1)
$(call vb_export,KERNEL CONFIG RESULTS ITERATIONS RUNS FORCE MEM SWAP WORKDIR \
	CPUS A B A_LABEL B_LABEL ORDER WARMUP KERNELS REPORT_OPTS PLOTS \
	QUIET QUIET_WAIT TRACE)
# KERNEL left empty is uname -r (vmrun).

# Each recipe execs its program, which is then make's own child: a
# SIGTERM to make's pid reaches it (make passes SIGTERM on to its
# children), and with VB_FROM_MAKE=1 it watches make for a SIGINT or
# SIGHUP there, which make does not pass on (src/lib/parentwatch.h).
run ab compare plot post html clean-stale: export VB_FROM_MAKE := 1

# FORCE=1 replaces the label, FORCE=0 or none adds a run; any other
# value is refused in one line (then "$$@" holds --force or nothing)
VB_FORCE_ARGS = case "$$VB_FORCE" in 1) set -- --force;; 0|'') set --;; \
	    *) echo 'make: FORCE= takes 1 (replace the label) or 0 (add a' \
	    'run, the default), nothing else' >&2; exit 2;; esac

# TRACE=1 records reclaim and compaction latency from tracepoints, TRACE=0
# does not, none leaves it to the programs (on under MEM=): it reaches
# them as VMBENCH_TRACE (src/lib/trace.h); any other value is refused
VB_TRACE_ENV = case "$$VB_TRACE" in 0|1) export VMBENCH_TRACE="$$VB_TRACE";; \
	    '') ;; *) echo 'make: TRACE= takes 1 (record tracepoints) or 0' \
	    '(do not), nothing else' >&2; exit 2;; esac

# the options every vmrun target shares, as shell words from VB_*
VMRUN_ARGS = --config "$$VB_CONFIG" --results "$$VB_RESULTS" \
	    $${VB_ITERATIONS:+--iterations "$$VB_ITERATIONS"} \
	    $${VB_MEM:+--mem "$$VB_MEM"} $${VB_SWAP:+--swap "$$VB_SWAP"} \
	    $${VB_WORKDIR:+--workdir "$$VB_WORKDIR"} \
	    $${VB_CPUS:+--cpus "$$VB_CPUS"} \
	    $${VB_QUIET:+--quiet "$$VB_QUIET"} \
	    $${VB_QUIET_WAIT:+--quiet-wait "$$VB_QUIET_WAIT"}

# make run: the runner does the work; see src/runner/vmrun.c and docs/running.md.
run: all
	$(Q)$(VB_TRACE_ENV); $(VB_FORCE_ARGS); \
	exec bench/vmrun --kernel "$$VB_KERNEL" $${VB_RUNS:+--runs "$$VB_RUNS"} \
	    $(VMRUN_ARGS) "$$@"

# make ab: one kernel, two settings, iterations interleaved (ABBA, the
# side that starts alternating from line to line, after a discarded
# warm-up run of each line unless WARMUP=0), into results/<KERNEL>-A and
# -B (or A_LABEL, B_LABEL), then the comparison.
ab: all
	$(Q)[ -n "$$VB_A_SET$$VB_B_SET" ] || { echo 'make ab: give both' \
	    'sides: A="name=value,..." B="name=value,..." (B= alone: the' \
	    'settings as found)' >&2; exit 2; }; \
	$(VB_TRACE_ENV); $(VB_FORCE_ARGS); \
	exec bench/vmrun --kernel "$$VB_KERNEL" \
	    $${VB_A_SET:+--a "$$VB_A"} $${VB_B_SET:+--b "$$VB_B"} \
	    $${VB_A_LABEL:+--label-a "$$VB_A_LABEL"} \
	    $${VB_B_LABEL:+--label-b "$$VB_B_LABEL"} \
	    $${VB_ORDER:+--order "$$VB_ORDER"} \
	    $${VB_WARMUP:+--warmup "$$VB_WARMUP"} $(VMRUN_ARGS) "$$@"

# make fleet: the suite on every host of an Ansible inventory, each
# host's folder fetched into $(RESULTS); see deploy/fleet.sh, docs/fleet.md.
# make fleet-fetch: only the fetching, of each host's existing folder.
$(call vb_export,INVENTORY ANSIBLE_PLAYBOOK FLEET_OPTS)
export VB_DEB_PKGS := $(DEB_PKGS)
.PHONY: fleet fleet-fetch
fleet:
	$(Q)sh deploy/fleet.sh
fleet-fetch:
	$(Q)sh deploy/fleet.sh fetch

# Undo what a run killed with SIGKILL left (cgroup, swap file, settings,
# work folders, label locks); every run does this first by itself.
clean-stale: all
	$(Q)exec bench/vmrun --clean-stale $${VB_WORKDIR:+--workdir "$$VB_WORKDIR"} \
	    $${VB_RESULTS:+--results "$$VB_RESULTS"}

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
	$(Q)$(REPORT_DIRS); exec report/vmreport $$VB_REPORT_OPTS "$$@"
plot: all
	$(Q)$(REPORT_DIRS); exec report/vmreport $$VB_REPORT_OPTS \
	    --plot "$${VB_PLOTS:-plots}" "$$@"
post: all
	$(Q)$(REPORT_DIRS); exec report/vmreport $$VB_REPORT_OPTS --post "$$@"

# make html: the results page across the KERNELS, HTML=dir/index.html
# (default $(RESULTS)/html): src/report/views/html.c, docs/html.md.
$(call vb_export,HTML)
.PHONY: html
html: all
	$(Q)$(REPORT_DIRS); exec report/vmreport $$VB_REPORT_OPTS \
	    --html "$${VB_HTML:-$${VB_RESULTS:-results}/html}" "$$@"
