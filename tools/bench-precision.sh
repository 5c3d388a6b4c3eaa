#!/bin/sh
# make bench-precision [PREC_RUNS=5] [PREC_CONFIG=configs/quick.conf]
#     [PREC_KEEP=dir] [CPUS=list] [WORKDIR=dir]
#
# How precise is each headline of a suite on this machine, and what an
# honest verdict on it costs: PREC_RUNS runs of the suite (make run
# RUNS=5) into a temporary results folder, then per headline
#   run CoV    the spread of the runs' means (CoV, %)
#   iter CoV   the median over the runs of a run's iterations' CoV (%)
#   far        the run farthest from the others, in their sd
#   5%, 10%    the runs a side that would decide a change of that size,
#              and the machine time they take a side (minutes: runs x
#              the benchmark's time a run)
# The first three are descriptive (tools/precision.c).  The runs a side
# are the report's own: vmreport --format csv --useful P of the
# folder against itself, its runs_needed column (the runs a side its
# verdict needs to say changed or same within P% at this spread), so
# that when the report's test changes this follows.  The figures depend
# on the machine's load: the load average before and after, and the
# other processes' CPU during each benchmark (the report's foreign_cpu,
# % of one CPU) are printed with them, and so is the work folder's
# filesystem: on an ext4 without a journal fileload's and tio's creates
# spread by tens of % (docs/benchmarks.md), WORKDIR= (as make run's)
# puts them elsewhere.  Exits 0 when the runs complete
# (the targets are for a reader to judge), 1 when a run fails.
set -e
runs=${PREC_RUNS:-5}
config=${PREC_CONFIG:-configs/quick.conf}
case $runs in
''|*[!0-9]*) echo "bench-precision: PREC_RUNS=$runs: not a number" >&2
	exit 2;;
esac
[ "$runs" -ge 2 ] || { echo "bench-precision: PREC_RUNS=$runs: at least 2" \
    "runs are needed for a run-to-run spread" >&2; exit 2; }
[ -f "$config" ] && [ -r "$config" ] || { echo "bench-precision:" \
    "PREC_CONFIG=$config: not a readable file" >&2; exit 2; }
# What vmrun kept goes with $T, unless PREC_KEEP=dir: copied, then said.
kept=
keep() {
	[ -z "$kept" ] || return 0
	if [ -n "$PREC_KEEP" ] && [ -d "$R/precision" ] &&
	    cp -r "$R/precision" "$PREC_KEEP"; then
		kept=1
		echo "bench-precision: what was measured is in $PREC_KEEP" >&2
	else
		echo "bench-precision: what was measured is removed with" \
		    "its temporary folder (PREC_KEEP=dir keeps it)" >&2
	fi
}
stop() {
	trap '' INT TERM HUP
	keep || :
	echo "bench-precision: interrupted" >&2 || :
	exit "$1"
}
T=$(mktemp -d /tmp/vmbench-bench-precision.XXXXXX)
R=$T/results
# every way out removes $T: a closed pipe (| head) makes a write fail
# and set -e exit, rather than kill the shell before its EXIT trap
trap 'rm -rf "$T"' EXIT
trap 'stop 130' INT
trap 'stop 143' TERM
trap 'stop 129' HUP
trap '' PIPE
mkdir "$R"

load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date -u '+%Y-%m-%d %H:%M UTC')
t0=$(date +%s)
# stdout may be a pipe that closes (| head): a failed write ends the
# script quietly (its EXIT trap cleans up), the report is written last
echo "bench-precision: $runs runs of $config, started $start;" \
    "load average $load0" 2>/dev/null || exit 141
set -- --kernel precision --runs "$runs" --config "$config" --results "$R"
[ -z "$VB_CPUS" ] || set -- "$@" --cpus "$VB_CPUS"
[ -z "$VB_WORKDIR" ] || set -- "$@" --workdir "$VB_WORKDIR"
bench/vmrun "$@" > "$T/run.log" 2>&1 || {
	rc=$?
	tail -20 "$T/run.log" >&2
	[ "$rc" -le 128 ] || stop "$rc"
	# refused before a run began (WORKDIR=, the config): vmrun said why
	[ -d "$R/precision" ] || exit 1
	keep
	echo "bench-precision: a run failed (above)" >&2
	exit 1
}
t1=$(date +%s)
load1=$(cut -d' ' -f1-3 /proc/loadavg)
D=$R/precision
[ -z "$PREC_KEEP" ] || keep

tools/precision "$D" > "$T/desc"
# BENCH RUNS_NEEDED FOREIGN_CPU of each headline at min-change $1
need() {
	report/vmreport --format csv --useful "$1" "$D" "$D" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $(c["headline"]) == 1 && $(c["verdict"]) != "" {
		print $(c["benchmark"]), $(c["runs_needed"]),
		    $(c["foreign_cpu"]) }'
}
need 5 > "$T/n5"
need 10 > "$T/n10"

uname_r=$(uname -r)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
{
echo "bench-precision: kernel $uname_r, $(nproc) x $cpu, $mem;" \
    "$(( (t1 - t0) / 60 )) min $(( (t1 - t0) % 60 )) s for $runs runs" \
    "(a run $(( (t1 - t0) / runs )) s); load average $load0 before," \
    "$load1 after${VB_CPUS:+; CPUS=$VB_CPUS}"
# the work folder as the first run's meta has it
meta() { sed -n "s/^$1=//p" "$D/run1/meta"; }
echo "bench-precision: work folder $(meta workdir) ($(meta workdir_fstype)," \
    "journal: $(meta workdir_journal))"
awk -v n5="$T/n5" -v n10="$T/n10" '
function num(x) { return x == "-" || x == "" ? "-" : x }
function mins(r, s) {
	if (r == "" || r == "-") return "-"
	return sprintf("%.1f", r * s / 60)
}
BEGIN {
	while ((getline l < n5) > 0) { split(l, f, " "); r5[f[1]] = f[2];
		fc[f[1]] = f[3] }
	while ((getline l < n10) > 0) { split(l, f, " "); r10[f[1]] = f[2] }
	printf "%-22s %-20s %6s %6s %5s %5s %6s %5s %6s %5s\n", "benchmark",
	    "headline", "run", "iter", "far", "other", "5%", "", "10%", ""
	printf "%-22s %-20s %6s %6s %5s %5s %6s %5s %6s %5s\n", "", "",
	    "CoV%", "CoV%", "sd", "CPU%", "runs", "min", "runs", "min"
}
{
	id = $1; s = $7
	oc = id in fc && fc[id] != "" ? sprintf("%.0f", fc[id]) : "-"
	printf "%-22s %-20s %6s %6s %5s %5s %6s %5s %6s %5s\n", id, $2,
	    num($4), num($5), num($6), oc, num(r5[id]), mins(r5[id], s),
	    num(r10[id]), mins(r10[id], s)
	nh++
	if ($4 != "-" && $4 + 0 <= 3) ok_run++
	else miss_run = miss_run " " id
	if ($5 == "-" || $5 + 0 <= 5) ok_iter++
	else miss_iter = miss_iter " " id
	if (r10[id] != "" && r10[id] * s / 60 <= 10) ok_10++
	else miss_10 = miss_10 " " id
	means[nh] = id ": " $8
	for (i = 9; i <= NF; i++) means[nh] = means[nh] " " $i
}
END {
	printf "targets (idle machine): run CoV <= 3%%: %d of %d; iter CoV " \
	    "<= 5%%: %d of %d; a 10%% change decided in <= 10 min a side: " \
	    "%d of %d\n", ok_run, nh, ok_iter, nh, ok_10, nh
	if (miss_run != "") print "  run CoV above 3%:" miss_run
	if (miss_iter != "") print "  iter CoV above 5%:" miss_iter
	if (miss_10 != "") print "  a 10% change in more than 10 min:" miss_10
	print "run means:"
	for (i = 1; i <= nh; i++) print "  " means[i]
}' "$T/desc"
echo "bench-precision: runs a side from vmreport --format csv" \
    "--useful 5 and 10 (runs_needed); min: those runs x the" \
    "benchmark's time a run"
} > "$T/report"
cat "$T/report" 2>/dev/null || exit 141
