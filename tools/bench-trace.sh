#!/bin/sh
# bench-trace.sh - what tracing (src/lib/trace.h) costs a benchmark, for
# make bench-overhead (docs/self.md).
#
# forkbomb (fork-heavy) and memfill --write (fault-heavy, 1G) run with
# VMBENCH_TRACE=0 and =1 in alternation, ROUNDS times each (default 5),
# order swapped every round; the figure is the median over the rounds of
# the ratio of user + sys CPU of the iteration (the .res's user and sys:
# the benchmark's whole process tree) with tracing to without, and the
# same of elapsed.  Target: CPU within 1%.  Needs root and tracefs
# (mount -t tracefs nodev /sys/kernel/tracing); skipped (77) without.
# Exit 0 when the targets are met, else 1.
set -u
ROUNDS=${1:-5}
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
	sort -n -k1 "$D/$b.ratios" | awk -v b=$b -v n="$ROUNDS" '
	    { c[NR] = $1 } END { m = c[int((n + 1) / 2)];
	    printf "bench-trace: %s CPU with tracing / without: median %.4f " \
	        "(%+.2f%%) over %d rounds\n", b, m, (m - 1) * 100, n;
	    exit (m > 1.01) }' || rc=1
	sort -n -k2 "$D/$b.ratios" | awk -v b=$b -v n="$ROUNDS" '
	    { e[NR] = $2 } END { m = e[int((n + 1) / 2)];
	    printf "bench-trace: %s elapsed with tracing / without: median " \
	        "%.4f (%+.2f%%)\n", b, m, (m - 1) * 100 }'
done
[ $rc = 0 ] || echo "bench-trace: tracing costs more than 1% of CPU"
exit $rc
