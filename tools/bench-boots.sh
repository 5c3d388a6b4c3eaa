#!/bin/sh
# make bench-boots: what make boots costs and shows on this machine
# (docs/boots.md, docs/validation.md).  Two plans, each BOOTS (3) boots a
# side in the order ABBA, under ACCEL (auto: KVM when it runs a guest):
#
#   1. two of Debian's kernels (6.1.0-47 and 6.1.0-57 cloud, from
#      make test-kernel's cache) running configs/test.conf;
#   2. one kernel booted with transparent_hugepage=never against =always,
#      running one memfill line (256M, written).
#
# For every boot: its time from QEMU's start to the suite's start, the
# suite, the shutdown; for every label: each boot's mean of the headline
# figure (forks/s; fill MB/s and THP faults) and their spread across
# boots (mean, sd, CoV); then vmreport on each pair.  The results go to a
# temporary folder, removed at the end.  Kernels: BB_A, BB_B (releases).
set -u
cd "$(dirname "$0")/.."
cache=${VMBENCH_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/vmbench}/kernels
ka=${BB_A:-6.1.0-47-cloud-amd64}
kb=${BB_B:-6.1.0-57-cloud-amd64}
boots=${VB_BOOTS:-3}
accel=${VB_ACCEL:-auto}
for r in "$ka" "$kb"; do
	[ -f "$cache/$r/boot/vmlinuz-$r" ] || {
		echo "bench-boots: no kernel $r in $cache: run" \
		    "make test-kernel TEST_KERNEL=$r" >&2
		exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vmbench-bboots.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
trap '' PIPE
res=$tmp/results

# boots LABEL...: a line per run of each label: its times from meta
boot_times() {
	printf '%-34s %-5s %9s %9s %9s %6s\n' label run boot suite shutdown \
	    accel
	for l in "$@"; do
		for m in "$res/$l"/run*/meta; do
			awk -F= -v l="$l" '
			    { v[$1] = substr($0, length($1) + 2) }
			    END { printf "%-34s %-5s %8ss %8ss %8ss %6s\n", l,
			        "run" v["run"], v["boot_to_suite_s"],
			        v["suite_s"], v["shutdown_s"], v["accel"] }' \
			    "$m"
		done
	done
}

# spread FILE METRIC LABEL...: each run's mean of METRIC in FILE.res,
# then the mean, sd and CoV of those means across the label's boots
spread() {
	f=$1
	metric=$2
	shift 2
	for l in "$@"; do
		for r in "$res/$l"/run*/"$f".res; do
			awk -v m="$metric" '
			    $1 == "metric" { col[$2] = ++n + 2 }
			    $1 == "iter" { s += $col[m]; k++ }
			    END { if (k) printf "%.6g\n", s / k }' "$r"
		done | awk -v l="$l" -v m="$metric" '
		    { x[++n] = $1; s += $1 }
		    END {
			mean = s / n
			for (i = 1; i <= n; i++) ss += (x[i] - mean) ^ 2
			sd = n > 1 ? sqrt(ss / (n - 1)) : 0
			printf "%-34s %-16s", l, m
			for (i = 1; i <= n; i++) printf " %.4g", x[i]
			printf "   mean %.4g sd %.3g CoV %.1f%%\n", mean, sd,
			    mean ? 100 * sd / mean : 0
		    }'
	done
}

rc=0
echo "bench-boots: $ka against $kb, configs/test.conf, BOOTS=$boots," \
    "ACCEL=$accel"
s=$(date +%s)
bench/vmboots --results "$res" --workdir "$tmp/w" --accel "$accel" \
    --boots "$boots" --config configs/test.conf --no-report \
    --a-kernel "$cache/$ka/boot/vmlinuz-$ka" \
    --b-kernel "$cache/$kb/boot/vmlinuz-$kb" 2>&1 |
    grep -v '^vmboots: boot [0-9]* of' || rc=1
echo "bench-boots: plan 1 took $(($(date +%s) - s)) s"
echo
boot_times "$ka" "$kb"
echo
spread forkbomb forks_per_s "$ka" "$kb"
echo
report/vmreport "$res/$ka" "$res/$kb" 2>&1 | head -60

echo
echo "bench-boots: $kb, transparent_hugepage=never against =always," \
    "memfill 256M, BOOTS=$boots"
printf 'memfill@thp --bytes 256M --write iterations=3\n' > "$tmp/thp.conf"
a=$kb-transparent_hugepage-never
b=$kb-transparent_hugepage-always
s=$(date +%s)
bench/vmboots --results "$res" --workdir "$tmp/w" --accel "$accel" \
    --boots "$boots" --config "$tmp/thp.conf" --no-report \
    --a-kernel "$cache/$kb/boot/vmlinuz-$kb" \
    --a-cmdline transparent_hugepage=never \
    --b-cmdline transparent_hugepage=always 2>&1 |
    grep -v '^vmboots: boot [0-9]* of' || rc=1
echo "bench-boots: plan 2 took $(($(date +%s) - s)) s"
echo
boot_times "$a" "$b"
echo
spread memfill@thp fill_mb_s "$a" "$b"
spread memfill@thp thp_fault_alloc "$a" "$b"
echo
report/vmreport "$res/$a" "$res/$b" 2>&1 | head -60
exit $rc
