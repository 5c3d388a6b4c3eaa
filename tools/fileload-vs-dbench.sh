#!/bin/sh
# fileload against dbench 4, side by side on the same machine, with the
# same loadfile (Debian's /usr/share/dbench/client.txt):
#
#	sh tools/fileload-vs-dbench.sh [--together] [TIME] [RUNS] [CLIENTS...]
#	(defaults: 20 s, 3 runs, clients 1 2 4; `make bench-fileload`)
#
# For each client count, RUNS rounds; each round runs both programs,
# one after the other, the order alternating between rounds, so that
# whatever else the machine is doing falls on both sides alike (with
# --together: at the same time, N clients each, so that both meet
# exactly the same conditions, each other included).  Both
# run for TIME measured seconds after a warm-up of TIME/5, in a fresh
# folder under ${VMBENCH_WORKDIR:-/var/tmp}.  Prints every run, then a
# table of medians and fileload/dbench; exits 1 when a ratio falls
# outside 0.75..1.25.
set -eu
TOGETHER=0
if [ "${1:-}" = --together ]; then
	TOGETHER=1
	shift
fi
T=${1:-20}
RUNS=${2:-3}
shift 2 2>/dev/null || shift $#
CLIENTS=${*:-1 2 4}
LOAD=/usr/share/dbench/client.txt
WD=${VMBENCH_WORKDIR:-/var/tmp}
HERE=$(cd "$(dirname "$0")/.." && pwd)

command -v dbench >/dev/null || { echo "$0: dbench is not installed" \
    "(apt-get install dbench)" >&2; exit 2; }
[ -r "$LOAD" ] || { echo "$0: $LOAD: not readable" >&2; exit 2; }
tmp=$(mktemp -d "$WD/fileload-vs-dbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

fl() {	# MB/s of one fileload run with $1 clients
	"$HERE/bench/fileload" --clients "$1" --time "$T" --loadfile "$LOAD" \
	    --workdir "$tmp" 2>/dev/null | awk '/^Throughput/ { print $2 }'
}
db() {	# MB/s of one dbench run with $1 clients
	mkdir "$tmp/db"
	dbench -D "$tmp/db" -c "$LOAD" -t "$T" "$1" 2>/dev/null |
	    awk '/^Throughput/ { print $2 }'
	rm -rf "$tmp/db"
}
both() {	# both at once: "fileload-MB/s dbench-MB/s"
	db "$1" > "$tmp/db.out" &
	f=$(fl "$1")
	wait
	echo "$f $(cat "$tmp/db.out")"
}
median() {
	sort -g | awk '{ v[NR] = $1 }
	    END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "fileload vs dbench: $LOAD, -t $T, $RUNS rounds," \
    "$([ "$TOGETHER" = 1 ] && echo together || echo alternating)," \
    "$(date -u +%FT%TZ)"
bad=0
table=""
for n in $CLIENTS; do
	: > "$tmp/fl.$n"
	: > "$tmp/db.$n"
	r=1
	while [ "$r" -le "$RUNS" ]; do
		if [ "$TOGETHER" = 1 ]; then
			set -- $(both "$n")
			a=$1 b=$2
		elif [ $((r % 2)) = 1 ]; then
			a=$(fl "$n"); b=$(db "$n")
		else
			b=$(db "$n"); a=$(fl "$n")
		fi
		echo "clients $n round $r: fileload $a MB/s, dbench $b MB/s"
		echo "$a" >> "$tmp/fl.$n"
		echo "$b" >> "$tmp/db.$n"
		r=$((r + 1))
	done
	mf=$(median < "$tmp/fl.$n")
	md=$(median < "$tmp/db.$n")
	row=$(awk -v n="$n" -v f="$mf" -v d="$md" 'BEGIN {
	    r = d > 0 ? f / d : 0
	    printf "%7d  %14.1f  %14.1f  %6.2f  %s", n, f, d, r,
	        (r >= 0.75 && r <= 1.25) ? "yes" : "NO" }')
	case $row in *NO) bad=1 ;; esac
	table="$table$row
"
done
echo
echo "clients  fileload MB/s    dbench MB/s   ratio  within 25%"
printf '%s' "$table"
exit $bad
