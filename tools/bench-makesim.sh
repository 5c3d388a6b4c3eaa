#!/bin/sh
# make bench-makesim: two measurements of makesim itself.
#
# 1. make -j1 against -j2 on this machine: BENCH_MAKESIM_PAIRS pairs
#    (default 3) of single builds at --scale BENCH_MAKESIM_SCALE (default
#    0.25: about 500 files), alternating the sides (j1, j2, j1, j2 ...) so
#    that a change in the machine's background load hits both; the
#    medians of build_time and build_user are compared, and the fastest
#    run of each side (the least disturbed by other load).  On 2 idle cores
#    the speed-up should be close to 2 (the archive steps and the link
#    are serial, so a little under).
# 2. run-to-run spread: 5 iterations of one -j2 run at the same scale,
#    coefficient of variation of build_user (the deterministic work: it
#    should stay under 3% on a quiet machine) and of build_time.
#
# Figures are read from the .res files (build_time, build_user columns).
# Temporary files live in a folder removed on exit.
set -e
scale=${BENCH_MAKESIM_SCALE:-0.25}
pairs=${BENCH_MAKESIM_PAIRS:-3}
T=$(mktemp -d /tmp/vmbench-bench-makesim.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

# col FILE METRIC: that metric's values, one a line
col() {
	awk -v m="$2" '$1 == "metric" { n++; if ($2 == m) c = n + 1 }
	    $1 == "iter" { print $(c + 1) }' "$1"
}
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
one() {	# one -j$1 build into $T/$2
	bench/makesim --scale "$scale" --jobs "$1" --workdir "$T" \
	    --out "$T/$2" --interval 5 > "$T/$2.log" 2>&1 ||
	    { cat "$T/$2.log" >&2; exit 1; }
}

echo "bench-makesim: -j1 against -j2, --scale $scale, $pairs pairs" \
    "(alternating), $(nproc) CPUs"
i=1
while [ "$i" -le "$pairs" ]; do
	one 1 j1-$i
	one 2 j2-$i
	i=$((i + 1))
done
for j in 1 2; do
	for m in build_time build_user build_sys; do
		for f in "$T"/j$j-*.res; do col "$f" $m; done | median \
		    > "$T/med-$j-$m"
	done
done
awk -v t1="$(cat "$T/med-1-build_time")" -v t2="$(cat "$T/med-2-build_time")" \
    -v u1="$(cat "$T/med-1-build_user")" -v u2="$(cat "$T/med-2-build_user")" \
    -v s1="$(cat "$T/med-1-build_sys")" -v s2="$(cat "$T/med-2-build_sys")" \
    'BEGIN {
	printf "  %-4s %12s %12s %12s\n", "", "build_time", "build_user",
	    "build_sys"
	printf "  %-4s %11.2fs %11.2fs %11.2fs\n", "-j1", t1, u1, s1
	printf "  %-4s %11.2fs %11.2fs %11.2fs\n", "-j2", t2, u2, s2
	printf "  speed-up -j1/-j2: %.2fx (elapsed); CPU -j2/-j1: %.3f\n",
	    t1 / t2, (u2 + s2) / (u1 + s1)
    }'
# the fastest run of each side: the least disturbed by other load
for j in 1 2; do
	for f in "$T"/j$j-*.res; do col "$f" build_time; done | sort -g |
	    head -1 > "$T/min-$j"
done
awk -v a="$(cat "$T/min-1")" -v b="$(cat "$T/min-2")" 'BEGIN {
	printf "  fastest: -j1 %.2fs, -j2 %.2fs, speed-up %.2fx\n", a, b, a / b
    }'

echo "bench-makesim: run-to-run spread, 5 iterations at -j2"
bench/makesim --scale "$scale" --jobs 2 --iterations 5 --workdir "$T" \
    --out "$T/cov" --interval 5 > "$T/cov.log" 2>&1 ||
    { cat "$T/cov.log" >&2; exit 1; }
for m in build_user build_time build_sys; do
	col "$T/cov.res" $m | awk -v m=$m '{ v[++n] = $1; s += $1 }
	    END { mean = s / n; for (i = 1; i <= n; i++)
	    ss += (v[i] - mean) ^ 2; sd = sqrt(ss / (n - 1));
	    printf "  %-10s mean %8.2fs  sd %6.3fs  CoV %5.2f%%\n", m, mean,
	    sd, 100 * sd / mean }'
done
