#!/bin/sh
# make bench [BENCH="overhead tio ..."]: every comparison with a peer and
# every measurement of vmbench's own cost (the bench-NAME targets given
# as arguments by mk/bench.mk), one after the other, each one's output
# shown as it runs; then the block at the end of docs/validation.md
# between its two markers is rewritten with the date, kernel, machine
# and load, and each target's exit status, time and last lines.  BENCH
# (VB_BENCH) keeps only the targets it names (with or without "bench-").
# Exit status: 1 when a target failed, 2 when BENCH names none.
set -u
cd "$(dirname "$0")/.."
doc=docs/validation.md
begin='<!-- make bench: the latest run (tools/bench-all.sh rewrites this block) -->'
end='<!-- end of the latest make bench -->'
only=${VB_BENCH:-}
targets=
for t in "$@"; do
	if [ -n "$only" ]; then
		case " $only " in
		*" $t "*|*" ${t#bench-} "*) ;;
		*) continue ;;
		esac
	fi
	targets="$targets $t"
done
if [ -z "$targets" ]; then
	echo "make bench: BENCH='$only' names none of:$(printf ' %s' "$@")" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vmbench-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
trap '' PIPE
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load=$(cut -d' ' -f1-3 /proc/loadavg)
fail=0
for t in $targets; do
	echo "== make $t"
	s=$(date +%s)
	{ make --no-print-directory -s "$t"; echo $? > "$tmp/$t.rc"; } 2>&1 |
	    tee "$tmp/$t.out"
	echo $(($(date +%s) - s)) > "$tmp/$t.s"
	[ "$(cat "$tmp/$t.rc")" = 0 ] || fail=1
done
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
{
	echo "$begin"
	echo
	echo "### The latest make bench"
	echo
	echo "\`make bench\`$( [ -n "$only" ] && printf ' BENCH="%s"' "$only"),"
	echo "started $started on kernel $(uname -r), $cpu x $(nproc),"
	echo "$mem, load average $load at the start.  Each target's exit"
	echo "status, seconds and last lines:"
	for t in $targets; do
		echo
		echo "\`make $t\`: exit $(cat "$tmp/$t.rc"), $(cat "$tmp/$t.s") s"
		echo
		tail -n 12 "$tmp/$t.out" | sed 's/^/    /'
	done
	echo
	echo "$end"
} > "$tmp/block"
if grep -qxF "$begin" "$doc"; then
	awk -v b="$begin" -v e="$end" -v f="$tmp/block" '
	    $0 == b { while ((getline l < f) > 0) print l; skip = 1; next }
	    skip && $0 == e { skip = 0; next }
	    !skip { print }' "$doc" > "$tmp/doc"
else
	{ cat "$doc"; echo; cat "$tmp/block"; } > "$tmp/doc"
fi
cat "$tmp/doc" > "$doc"
echo "make bench: the figures are in $doc (its last section)"
exit $fail
