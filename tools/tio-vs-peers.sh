#!/bin/sh
# tio against its peers on the same machine in the same run (make
# bench-tio): tio's four phases against fio with the same files, and
# tio --creates against bonnie++ -n.
#
#	sh tools/tio-vs-peers.sh [SIZE] [RUNS] [direct]
#	(defaults: 256M in total, 3 rounds, buffered; TIO_PAUSE=2)
#
# I/O: for 1 and 4 threads, RUNS rounds; each round runs tio (one
# iteration), fio and fio again (the control, below), the order of the
# three rotating between rounds.  fio runs tiotest's shape as tio
# does, in one fio run as tio's phases run in one process: per thread
# a job with a file of its own of SIZE / threads (filename=tio.N),
# bs=4k, ioengine=psync, thread, four groups one after the other
# (stonewall): write, randwrite (overwrite=1: into the written files),
# read, randread, the random ones number_ios=1000 per thread;
# end_fsync=1 (tio fsync()s each file at the end of every phase);
# fallocate=none (tio does not preallocate); fadvise_hint=0 (tio, as
# tiotest, gives the kernel no access-pattern hint); direct=0 or 1 as
# tio's --direct; the bytes tio writes (buffer_pattern=0x5a ^ N,
# scramble_buffers=0: thread N writes blocks of the byte 0x5a ^ N).
# Before each phase but the first, each job drops its file's pages
# untimed with `dd iflag=nocache count=0` in exec_prerun
# (POSIX_FADV_DONTNEED, what tio does between its phases; fio's own
# invalidate=1 is off: it drops inside fio's timed run, which measured
# 0.46 s of a 1.3 s random write phase here), then both sides wait
# TIO_PAUSE seconds (default 2; tio --pause): on a virtual disk whose
# host caches what was just written, a read that follows its write
# within about a second is often several times faster than one that
# follows later (docs/validation.md), and fio takes about 0.3 s to
# start each group where tio takes milliseconds, so without the same
# wait on both sides the read figures measured the gap.  Compared:
# the rate of each phase (MB/s, 2^20 bytes), and, for information, the
# average latency per block.
#
# Creates: RUNS rounds of tio --creates --files N and bonnie++ -s 0 -n
# N/1024 (N empty files: $TIO_FILES, default 131072, a multiple of
# 1024), alternating, on a fresh ext4 when root (tests/scratch-fs.sh
# says why); compared: files/s of the sequential and random creates and
# deletes.  N is not the post's 16384: on a fresh ext4 bonnie++ does
# those in well under a second and prints "+++++", too fast for its
# timer.  Such a run still counts as faster than any timed one (inf),
# and a figure whose median run is one of them is shown, not compared.
#
# The control: every round of the I/O half also runs fio a second time
# ("fioc", the order of the three rotating between rounds), and the
# control's ratio fioc/fio, per round and of the medians, says how far
# fio comes out from itself in this comparison on this machine in this
# run.  A figure whose tio/fio is outside 0.75..1.25 but within the
# control's spread (its lowest to its highest ratio) is judged by that
# spread: it passes, and the line says so.  On a virtual disk whose
# host caches what it served, the sequential read at 1 thread is such
# a figure (docs/validation.md).  TIO_CONTROL=1 runs fio in tio's place
# ("fio2") and no third side: the control alone, against +-25%.
#
# TIO_PARTS=io or creates runs one half.
#
# Prints every run, then per figure tio's median, the peer's median,
# tio/peer and the control's spread; exits 1 when a compared ratio is
# outside 0.75..1.25 and outside the control's spread.  A peer that is
# not installed skips its half with one line.
set -eu
SIZE=${1:-256M}
RUNS=${2:-3}
DIRECT=0
[ "${3:-}" = direct ] && DIRECT=1
OPS=1000
PAUSE=${TIO_PAUSE:-2}
case $PAUSE in ''|*[!0-9.]*|*.*.*) echo "$0: TIO_PAUSE must be seconds," \
    "not '$PAUSE'" >&2; exit 2;; esac
FILES=${TIO_FILES:-131072}
PARTS=${TIO_PARTS:-all}
CONTROL=${TIO_CONTROL:-0}
case $CONTROL in 0|1) ;; *) echo "$0: TIO_CONTROL must be 0 or 1, not" \
    "'$CONTROL'" >&2; exit 2;; esac
A=tio
[ "$CONTROL" = 1 ] && A=fio2
case $PARTS in all|io|creates) ;; *) echo "$0: TIO_PARTS must be io," \
    "creates or all, not '$PARTS'" >&2; exit 2;; esac
WD=${VMBENCH_WORKDIR:-/var/tmp}
HERE=$(cd "$(dirname "$0")/.." && pwd)

case "$SIZE" in *[!0-9KMG]*|'') echo "$0: bad size '$SIZE'" >&2; exit 2;; esac
case "$RUNS" in *[!0-9]*|''|0)
	echo "$0: bad run count '$RUNS'" >&2; exit 2;; esac
case "$FILES" in *[!0-9]*|''|0) FILES=x;; esac
if [ "$FILES" = x ] || [ $((FILES % 1024)) != 0 ]; then
	echo "$0: TIO_FILES must be a multiple of 1024 above 0, not" \
	    "'${TIO_FILES:-}'" >&2
	exit 2
fi
bytes() {	# 256M -> bytes
	echo "$1" | awk '{ n = $1 + 0; u = substr($1, length($1));
	    m = u == "K" ? 1024 : u == "M" ? 1048576 : u == "G" ? 1073741824 : 1;
	    printf "%d\n", n * m }'
}
. "$HERE/tests/scratch-fs.sh"
scratch_fs_stale "$WD"
tmp=$(mktemp -d "$WD/tio-vs-peers.XXXXXX")
trap 'scratch_fs_done; rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
fails=0
ran=0
spread=0	# figures passed by the control's spread
: > "$tmp/spread"

median() {
	sort -g | awk '{ v[NR] = $1 }
	    END { if (!NR) print "n/a"; else
	    print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# compare NAME TIO-FILE PEER-FILE GATE [CONTROL-FILE]: one line,
# counts a failure.  CONTROL-FILE: the same figure from the control
# side, a line a round as in PEER-FILE; its ratios to PEER-FILE, per
# round and of the medians, make the control's spread.
compare() {
	mt=$(median < "$2")
	mp=$(grep -v '^n/a$' "$3" | median)
	g=$4
	cs="- -"
	if [ -n "${5:-}" ]; then
		cs=$(paste -d' ' "$5" "$3" | awk -v mc="$(median < "$5")" \
		    -v mp="$mp" '
		    function see(r) { if (n++ == 0 || r < lo) lo = r
		        if (n == 1 || r > hi) hi = r }
		    $2 + 0 > 0 && $1 != "n/a" { see($1 / $2) }
		    END { if (mp + 0 > 0 && mc != "n/a") see(mc / mp)
		        if (n) printf "%.2f %.2f\n", lo, hi
		        else print "- -" }')
	fi
	# a peer that timed it in under half the runs: shown, not gated
	if [ $(( $(grep -vc '^n/a$' "$3") * 2 )) -lt "$(wc -l < "$3")" ]
	then
		g=few
	fi
	# exit 0: within +-25% or not gated; 1: outside; 2: outside
	# +-25% but within the control's spread
	rc=0
	echo "$1 $mt $mp $g $cs" | awk '{
	    c = $5 == "-" ? "" : sprintf("%.2f-%.2f", $5, $6)
	    if ($3 == "inf") { printf "%-22s %10.2f %10s %7s %9s  (%s)\n",
	        $1, $2, "+++++", "-", c, "the median run was too fast to time"
	        exit 0 }
	    if ($3 == "n/a" || $3 <= 0) { printf "%-22s %10.2f %10s %7s %9s\n",
	        $1, $2, "n/a", "-", c; exit 0 }
	    r = $2 / $3; bad = $4 == "gate" && (r < 0.75 || r > 1.25)
	    note = $4 == "gate" ? "" : "  (info)"
	    if ($4 == "few") note = "  (peer reported it in under half the runs)"
	    if (bad) note = "  OUTSIDE +-25%"
	    # fio against itself came out as far: judged by that
	    if (bad && c != "" && r >= $5 && r <= $6) {
	        bad = 2
	        note = "  outside +-25%, within the control: pass"
	    }
	    # latencies (ms) are small: four decimals
	    d = $1 ~ /_lat/ ? 4 : 2
	    printf "%-22s %10.*f %10.*f %7.2f %9s%s\n", $1, d, $2, d, $3, r,
	        c, note
	    exit bad }' || rc=$?
	case $rc in
	0) ;;
	2) spread=$((spread + 1)); echo "$1" >> "$tmp/spread";;
	*) fails=$((fails + 1));;
	esac
}

echo "$A vs fio and bonnie++: $SIZE in total, 4K blocks," \
    "$([ $DIRECT = 1 ] && echo O_DIRECT || echo buffered), $RUNS rounds," \
    "$(date -u +%FT%TZ), $(uname -r), $(nproc) CPUs"

# ---- the four phases against fio ----
tio_io() {	# threads -> "wr rw rd rr" MB/s, then the latencies in ms
	if [ "$CONTROL" = 1 ]; then
		fio_io "$@"
		return
	fi
	"$HERE/bench/tio" --threads "$1" --size "$SIZE" --random-ops $OPS \
	    --pause "$PAUSE" $([ $DIRECT = 1 ] && echo --direct) \
	    --workdir "$tmp" |
	    awk '/^Write /        { w = $4;  lw = $6 }
	         /^Random Write / { rw = $5; lrw = $7 }
	         /^Read /         { r = $4;  lr = $6 }
	         /^Random Read /  { rr = $5; lrr = $7 }
	         END { print w, rw, r, rr, lw, lrw, lr, lrr }'
}
fio_job() {	# threads: the job file of fio's four phases, one run
	per=$(( $(bytes "$SIZE") / $1 / 4096 * 4096 ))
	cat <<EOJ
[global]
directory=$tmp/fio
bs=4k
ioengine=psync
thread
size=$per
end_fsync=1
invalidate=0
fallocate=none
fadvise_hint=0
scramble_buffers=0
direct=$DIRECT
group_reporting
EOJ
	for ph in write randwrite read randread; do
		j=0
		while [ $j -lt "$1" ]; do
			echo
			echo "[$ph.$j]"
			echo "name=$ph"
			echo "rw=$ph"
			echo "filename=tio.$j"
			# tio's bytes: thread i writes blocks of 0x5a ^ i
			printf 'buffer_pattern=0x%02x\n' $((0x5a ^ j))
			# a new group (a phase) waits for the last to end
			[ $j = 0 ] && [ $ph != write ] && echo stonewall
			case $ph in
			rand*)	echo "number_ios=$OPS";;
			esac
			[ $ph = randwrite ] && echo "overwrite=1"
			# untimed, as tio: drop the file's pages first
			# then wait PAUSE s, as tio --pause (see the top)
			[ $ph != write ] && echo "exec_prerun=dd" \
			    "if=$tmp/fio/tio.$j iflag=nocache count=0" \
			    "status=none && sleep $PAUSE"
			j=$((j + 1))
		done
	done
}
fio_io() {	# the same four figures and latencies from fio (KiB/s, usec)
	mkdir "$tmp/fio"
	fio_job "$1" > "$tmp/job.fio"
	# exec_prerun leaves its output in NAME.prerun.txt in the cwd
	(cd "$tmp/fio" && fio --output-format=terse --terse-version=3 \
	    "$tmp/job.fio") |
	    awk -F';' '$3 == "write"     { w = $48 / 1024;  lw = $81 / 1000 }
	               $3 == "randwrite" { rw = $48 / 1024; lrw = $81 / 1000 }
	               $3 == "read"      { r = $7 / 1024;   lr = $40 / 1000 }
	               $3 == "randread"  { rr = $7 / 1024;  lrr = $40 / 1000 }
	               END { print w, rw, r, rr, lw, lrw, lr, lrr }'
	rm -rf "$tmp/fio"
}

if [ "$PARTS" = creates ]; then
	:
elif ! command -v fio >/dev/null; then
	echo "bench-tio: fio is not installed (apt-get install fio):" \
	    "the I/O comparison is skipped"
else
	ran=1
	# the sides of a round, in order: tio fio, then the control
	side() {
		case $1 in
		a) tio_io "$2" >> "$tmp/tio.$2";;
		f) fio_io "$2" >> "$tmp/fio.$2";;
		c) [ "$CONTROL" = 1 ] || fio_io "$2" >> "$tmp/ctl.$2";;
		esac
	}
	for t in 1 4; do
		: > "$tmp/tio.$t"; : > "$tmp/fio.$t"; : > "$tmp/ctl.$t"
		i=1
		while [ $i -le "$RUNS" ]; do
			case $((i % 3)) in
			1) side a $t; side f $t; side c $t;;
			2) side f $t; side c $t; side a $t;;
			0) side c $t; side a $t; side f $t;;
			esac
			i=$((i + 1))
		done
		echo
		echo "$t thread(s), MB/s and ms: write randwrite read randread," \
		    "then their latencies"
		sed "s/^/  $A  /" "$tmp/tio.$t"
		sed 's/^/  fio  /' "$tmp/fio.$t"
		sed 's/^/  fioc /' "$tmp/ctl.$t"
	done
	echo
	[ "$CONTROL" = 1 ] || echo "control: fioc/fio, the lowest and" \
	    "the highest of its per-round ratios and of its medians' ratio"
	if [ "$CONTROL" = 1 ]; then
		printf "%-22s %10s %10s %7s\n" figure "$A" fio "$A/fio"
	else
		printf "%-22s %10s %10s %7s %9s\n" figure "$A" fio "$A/fio" \
		    control
	fi
	for t in 1 4; do
		c=1
		for m in seq_write rand_write seq_read rand_read \
		    seq_write_lat rand_write_lat seq_read_lat rand_read_lat; do
			cut -d' ' -f$c "$tmp/tio.$t" > "$tmp/a"
			cut -d' ' -f$c "$tmp/fio.$t" > "$tmp/b"
			cut -d' ' -f$c "$tmp/ctl.$t" > "$tmp/c"
			case $m in *_lat) g=info;; *) g=gate;; esac
			if [ "$CONTROL" = 1 ]; then
				compare "${m}@t$t" "$tmp/a" "$tmp/b" $g
			else
				compare "${m}@t$t" "$tmp/a" "$tmp/b" $g \
				    "$tmp/c"
			fi
			c=$((c + 1))
		done
	done
fi

# ---- creates and deletes against bonnie++ ----
tio_cr() {	# "seq-create seq-delete rand-create rand-delete" files/s
	"$HERE/bench/tio" --creates --files "$FILES" --workdir "$SCRATCH" |
	    awk '/^Sequential Create/ { a = $3 } /^Sequential Delete/ { b = $3 }
	         /^Random Create/ { c = $3 } /^Random Delete/ { d = $3 }
	         END { print a, b, c, d }'
}
bon_cr() {	# the same from bonnie++'s CSV line ("+++++" -> n/a)
	mkdir "$SCRATCH/bon"
	bonnie++ -d "$SCRATCH/bon" -s 0 -n $((FILES / 1024)) -u "$(id -un)" \
	    -q 2>/dev/null |
	    tail -n 1 | awk -F, '{ for (i = 27; i <= 37; i += 2)
	        if ($i ~ /^\+/) $i = "inf"; else if ($i == "") $i = "n/a"
	        print $27, $31, $33, $37 }'
	rm -rf "$SCRATCH/bon"
}
if [ "$PARTS" = io ]; then
	:
elif ! command -v bonnie++ >/dev/null; then
	echo "bench-tio: bonnie++ is not installed (apt-get install" \
	    "bonnie++): the creates comparison is skipped"
else
	ran=1
	scratch_fs "$tmp" $((FILES + 20000))
	: > "$tmp/tio.cr"; : > "$tmp/bon.cr"
	i=1
	while [ $i -le "$RUNS" ]; do
		if [ $((i % 2)) = 1 ]; then
			tio_cr >> "$tmp/tio.cr"; bon_cr >> "$tmp/bon.cr"
		else
			bon_cr >> "$tmp/bon.cr"; tio_cr >> "$tmp/tio.cr"
		fi
		i=$((i + 1))
	done
	echo
	echo "$FILES empty files, files/s: seq create, seq delete," \
	    "random create, random delete"
	sed 's/^/  tio      /' "$tmp/tio.cr"
	sed 's/^/  bonnie++ /' "$tmp/bon.cr"
	echo
	printf "%-22s %10s %10s %7s\n" figure tio bonnie++ ratio
	c=1
	for m in seq_create seq_delete rand_create rand_delete; do
		cut -d' ' -f$c "$tmp/tio.cr" > "$tmp/a"
		cut -d' ' -f$c "$tmp/bon.cr" > "$tmp/b"
		compare "$m" "$tmp/a" "$tmp/b" gate
		c=$((c + 1))
	done
fi
echo
if [ "$ran" = 0 ]; then
	echo "bench-tio: nothing compared"
	exit 0
fi
within=""
if [ $spread -gt 0 ]; then
	within=" ($spread outside +-25% but within fio's spread against"
	within="$within itself in this run, so judged by it and passed:"
	within="$within $(tr '\n' ' ' < "$tmp/spread" | sed 's/ $//'))"
fi
if [ $fails -gt 0 ]; then
	if [ "$CONTROL" = 1 ] || [ "$PARTS" = creates ]; then
		echo "bench-tio: $fails figure(s) outside +-25% of the peer"
	else
		echo "bench-tio: $fails figure(s) outside +-25% of the peer," \
		    "the I/O ones also outside the control's spread$within"
	fi
	exit 1
fi
if [ $spread -gt 0 ]; then
	echo "bench-tio: every compared figure within +-25% of the peer" \
	    "or within the control's spread$within"
	exit 0
fi
echo "bench-tio: every compared figure within +-25% of the peer"
