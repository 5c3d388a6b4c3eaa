#!/bin/sh
# bench-trace.sh - what tracing (src/lib/trace.h) costs a benchmark, for
# make bench-overhead (docs/self.md).
#
# forkbomb (fork-heavy) and memfill --write (fault-heavy, 1G) run with
# VMBENCH_TRACE=0 and =1 in alternation, ROUNDS times each (default 6),
# order swapped every round; the figure is the median over the rounds of
# the ratio of user + sys CPU of the iteration (the .res's user and sys:
# the benchmark's whole process tree) with tracing to without, with its
# 95% sign-test interval (judge below), and the same of elapsed.
# A descriptive figure: the verdict on the 1% target is
# tools/trace_cost's (blocks in one process, far less spread); make
# bench-overhead runs this one only with TRACE_ROUNDS=n.  Needs root and
# tracefs (mount -t tracefs nodev /sys/kernel/tracing); skipped (77)
# without.  Exit 1 only when a run failed, 2 when the ratios could not
# be judged.
set -u
ROUNDS=${1:-6}
T=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -d $T/instances ]; then
	echo "bench-trace: needs root and tracefs at $T: skipped"
	exit 77
fi
D=$(mktemp -d "${TMPDIR:-/tmp}/bench-trace.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT INT TERM
cpu() { awk '$1=="metric"{n++; if($2=="user")u=n; if($2=="sys")s=n;
	if($2=="elapsed")e=n} $1=="iter"{printf "%s %s\n", $(2+u)+$(2+s),
	$(2+e); exit}' "$1"; }
one() {	# one BENCH TRACE TAG ARGS...
	b=$1; tr=$2; tag=$3; shift 3
	VMBENCH_TRACE=$tr bench/$b "$@" --out "$D/$tag" --workdir "$D" \
	    > /dev/null 2>&1 || { echo "bench-trace: $b failed"; exit 1; }
	cpu "$D/$tag.res"
}
# judge BENCH WHAT COLUMN FILE: the median of the rounds' ratios and its
# sign-test interval, the order statistics x(k) and x(n+1-k) with k the
# largest for which 2 P(Binomial(n, 1/2) < k) <= 5% (at least 95% of
# the median's intervals cover it: 6 rounds at least).  Says "within
# 1%" when the upper end is <= 1.01, "above" when the lower end is
# > 1.01 (then status 1, which the caller ignores), otherwise "not
# decided at this noise".  Elapsed is printed with its interval, never
# judged.
judge() {
	sort -n -k"$3" "$4" | awk -v b="$1" -v w="$2" -v c="$3" '
	    { x[NR] = $c } END { n = NR; m = x[(n + 1) / 2];
	    if (n % 2 == 0) m = (x[n / 2] + x[n / 2 + 1]) / 2;
	    p = 0.5 ^ n; cdf = 0; k = 0;
	    # P(B < k+1) = cdf after adding P(B = k)
	    for (i = 0; 2 * (cdf + p) <= 0.05 && i < n / 2; i++) {
	        cdf += p; k = i + 1; p = p * (n - i) / (i + 1) }
	    printf "bench-trace: %s %s with tracing / without: median %.4f " \
	        "(%+.2f%%) over %d rounds", b, w, m, (m - 1) * 100, n;
	    if (k == 0) {
	        say = "not judged";
	        if (w == "CPU") say = "not decided at this noise";
	        printf ", no 95%% interval from %d rounds (6 at least): " \
	            "%s\n", n, say; exit 0 }
	    lo = x[k]; hi = x[n + 1 - k];
	    printf ", %.1f%% interval [%.4f, %.4f] (%+.2f%%, %+.2f%%): ",
	        100 * (1 - 2 * cdf), lo, hi, (lo - 1) * 100, (hi - 1) * 100;
	    if (w != "CPU") { print "not judged"; exit 0 }
	    if (hi <= 1.01) { print "within 1%"; exit 0 }
	    if (lo > 1.01) { print "above 1%"; exit 1 }
	    print "not decided at this noise"; exit 0 }'
}
rc=0
for b in forkbomb memfill; do
	case $b in
	forkbomb) args="--forks 20000";;
	memfill) args="--bytes 1G --write";;
	esac
	: > "$D/$b.ratios"
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		if [ $((i % 2)) = 0 ]; then
			off=$(one $b 0 off $args); on=$(one $b 1 on $args)
		else
			on=$(one $b 1 on $args); off=$(one $b 0 off $args)
		fi
		echo "$on $off" | awk '{ printf "%.5f %.5f\n", $1 / $3,
		    $2 / $4 }' >> "$D/$b.ratios"
		i=$((i + 1))
	done
	judge "$b" CPU 1 "$D/$b.ratios"
	case $? in
	0|1) ;;
	*) echo "bench-trace: $b: the ratios could not be judged"; rc=2;;
	esac
	judge "$b" elapsed 2 "$D/$b.ratios" || :
done
exit $rc
