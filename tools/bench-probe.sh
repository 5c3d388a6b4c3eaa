#!/bin/sh
# bench-probe: the interactivity probe's own cost beyond its configured
# work, on this machine as it is now (run it on an idle machine for the
# docs/self.md figure).  For each profile the probe runs SECONDS (default 20)
# and reports overhead_pct: its CPU time from getrusage() minus the CPU
# time of its work slices (CLOCK_THREAD_CPUTIME_ID around each), as a
# share of one CPU; "none" is --cpu 0 --buffer 0, the bare timer loop.
# Limit: 0.5% of one CPU.  Also shows that it plays 100% when idle.
set -eu
secs=${1:-20}
tmp=$(mktemp -d /tmp/bench-probe.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
# value of metric $2 in the last iteration of result file $1
metric() {
	awk -v m="$2" '$1 == "metric" { n++; if ($2 == m) col = n }
	    $1 == "iter" { v = $(col + 2) } END { print v }' "$1"
}
echo "bench-probe: ${secs}s per profile; load average $(cut -d' ' -f1 /proc/loadavg)"
fail=0
for p in audio video none; do
	case $p in
	none) args="--cpu 0 --buffer 0 --period 50" ;;
	*) args="--profile $p" ;;
	esac
	bench/probe $args --duration "$secs" --out "$tmp/$p" >/dev/null
	o=$(metric "$tmp/$p.res" overhead_pct)
	pl=$(metric "$tmp/$p.res" played_pct)
	lat=$(metric "$tmp/$p.res" lat_mean)
	p99=$(metric "$tmp/$p.res" lat_p99)
	dc=$(metric "$tmp/$p.res" desired_cpu_pct | awk '{
	    if ($1 == "-") print "-"; else printf "%.1f\n", $1 }')
	ok=$(awk -v o="$o" 'BEGIN { print (o < 0.5) ? "ok" : "OVER 0.5%" }')
	[ "$ok" = ok ] || fail=1
	printf '%-6s overhead %.3f%% of a CPU  %s; played %.1f%%, latency mean %.3f ms, p99 %.3f ms, desired CPU %s%%\n' \
	    "$p" "$o" "$ok" "$pl" "$lat" "$p99" "$dc"
done
exit $fail
