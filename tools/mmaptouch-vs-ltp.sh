#!/bin/sh
# mmaptouch against LTP's mmap001, side by side on the same machine:
#
#	sh tools/mmaptouch-vs-ltp.sh [RUNS]	(default 9; `make bench-ltp`)
#
# LTP's source: $LTP_SRC, a source tree (with
# testcases/kernel/syscalls/mmap/mmap001.c) or a git folder.  LTP
# replaced mmap001 by mmap21 (a child touches, the parent reads the file
# back) in February 2025, after its release 20250130: from a git folder
# whose HEAD has no mmap001.c the tree before the commit that removed it
# is exported.  mmap001 is built as LTP builds it, in a temporary folder
# under ${VMBENCH_WORKDIR:-/var/tmp} removed at the end: LTP's own
# configure (made first with autoconf and automake when the source is a
# git checkout, as LTP's `make autotools` does), its library libltp.a
# and LTP's make of the one program.  No source, no mmap001 in it, no
# autoconf for a git checkout, or a build that fails: one line saying
# why, exit 77 (skipped).
#
# RUNS rounds; each round runs both programs, the order alternating
# between rounds, after a sync(1) outside the clock: `mmap001 -m PAGES
# -i ITER` and `mmaptouch --pages PAGES --every-byte --iterations ITER`
# (LTP_PAGES, default 50000 as the quick suite's; LTP_ITER, default 5
# as Hron's), each creating, sizing, mapping, writing every byte,
# msync()ing, unmapping and removing its file ITER times in one process
# in the same folder.  mmap001 does not time itself: its figure is
# PAGES x ITER over the process's wall time (its start and LTP's
# temporary folder included; the start as timed, `mmap001 -h`, is
# printed); mmaptouch's is PAGES x ITER over the sum of its
# iterations' map_s, the figure its pages_per_s reports.  Prints every
# run, then the medians and mmaptouch/mmap001 ("ratio", of the medians;
# "paired", for information, the median of the rounds' own ratios);
# exits 1 when the ratio falls outside 0.75..1.25.  For information
# only, the same for the user and system CPU of the ITER iterations
# (mmap001's from the shell's times, 10 ms ticks) and for pages/s over
# the seconds less the user CPU: the stores themselves (both a byte at
# a time), apart from the kernel's part (the faults, the writeback, the
# unmap).
set -eu
RUNS=${1:-9}
PAGES=${LTP_PAGES:-50000}
ITER=${LTP_ITER:-5}
for v in "RUNS=$RUNS" "LTP_PAGES=$PAGES" "LTP_ITER=$ITER"; do
	case ${v#*=} in ''|*[!0-9]*|0*) echo "$0: ${v%%=*} must be a whole" \
	    "number above 0, not '${v#*=}'" >&2; exit 2;; esac
done
WD=${VMBENCH_WORKDIR:-/var/tmp}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SRC=${LTP_SRC:-}
MM=testcases/kernel/syscalls/mmap
# one line, exit 77: LTP's mmap001 cannot be had here
skip() {
	echo "bench-ltp: skipped: $*"
	exit 77
}
if [ -z "$SRC" ] || [ ! -e "$SRC" ]; then
	skip "no LTP source${SRC:+ at $SRC} (set LTP_SRC to a source tree" \
	    "or a git folder of github.com/linux-test-project/ltp)"
fi
rev=
if [ -f "$SRC/$MM/mmap001.c" ] && [ -d "$SRC/lib" ]; then
	:
elif git --git-dir="$SRC" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	rev=$(git --git-dir="$SRC" rev-parse HEAD)
	if ! git --git-dir="$SRC" cat-file -e "$rev:$MM/mmap001.c" \
	    2>/dev/null; then
		gone=$(git --git-dir="$SRC" log -1 --diff-filter=D \
		    --format=%H HEAD -- "$MM/mmap001.c")
		[ -n "$gone" ] || skip "$SRC: no $MM/mmap001.c in its history"
		rev=$(git --git-dir="$SRC" rev-parse "$gone^")
	fi
elif [ -d "$SRC/testcases" ]; then
	skip "$SRC: no $MM/mmap001.c (LTP after 20250130 has mmap21" \
	    "in its place; give a git folder or LTP 20250130 or older)"
else
	skip "$SRC: neither an LTP source tree nor a git folder"
fi
if [ -n "$rev" ] || [ ! -x "$SRC/configure" ]; then
	for t in aclocal autoconf autoheader automake; do
		command -v $t >/dev/null 2>&1 || skip "LTP's configure is" \
		    "made by autoconf and automake, and $t is missing" \
		    "(apt-get install autoconf automake)"
	done
fi
[ -d "$WD" ] || { echo "$0: $WD: no such folder" >&2; exit 2; }
tmp=$(mktemp -d "$WD/mmaptouch-vs-ltp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
mkdir "$tmp/ltp" "$tmp/w"
# the source: all but testcases/, and mmap001's folder
if [ -n "$rev" ]; then
	git --git-dir="$SRC" archive "$rev" | tar -x -C "$tmp/ltp" \
	    --exclude='testcases/*'
	git --git-dir="$SRC" archive "$rev" "$MM/Makefile" "$MM/mmap001.c" |
	    tar -x -C "$tmp/ltp"
	what="LTP $(git --git-dir="$SRC" describe --tags "$rev" 2>/dev/null ||
	    git --git-dir="$SRC" rev-parse --short "$rev")"
else
	(cd "$SRC" && tar -cf - --exclude=./testcases . && tar -cf - \
	    "$MM/Makefile" "$MM/mmap001.c") | tar -xi -C "$tmp/ltp"
	what="LTP $(cat "$SRC/VERSION" 2>/dev/null || echo "$SRC")"
fi
# the build (not part of vmbench), as LTP's own Makefiles make it
(
	cd "$tmp/ltp"
	if [ ! -x configure ] || [ -n "$rev" ]; then
		[ -f m4/ltp-version.m4 ] || sed -n \
		    '1{s:LTP-:m4_define([LTP_VERSION],[:;s:$:]):;p;q}' \
		    VERSION > m4/ltp-version.m4
		aclocal -I m4 && autoconf && autoheader && automake -c -a
	fi
	./configure
	make -C lib -j"$(nproc)" libltp.a
	make -C "$MM" mmap001
) > "$tmp/build.log" 2>&1 || skip "cannot build mmap001 from $SRC:" \
    "$(grep -m1 'error:' "$tmp/build.log" || tail -n1 "$tmp/build.log")"
LTP=$tmp/ltp/$MM/mmap001

# one mmap001 run of $1 pages, $2 iterations: pages/s over its wall
# time, the seconds, its user and system CPU (the shell's times for its
# children), and pages/s over the seconds less the user CPU
ltp() {
	t0=$(date +%s%N)
	TMPDIR=$tmp/w "$LTP" -m "$1" -i "$2" > "$tmp/ltp.out" 2>&1 || {
		echo "bench-ltp: mmap001 -m $1 -i $2 failed:" \
		    "$(grep -m1 -E 'TFAIL|TBROK' "$tmp/ltp.out")" >&2
		exit 1
	}
	t1=$(date +%s%N)
	times > "$tmp/times"
	n=$(grep -c 'TPASS.*synchronizing mmapped page passed' "$tmp/ltp.out")
	[ "$n" = "$2" ] || { echo "bench-ltp: mmap001 synced $n of $2" \
	    "iterations" >&2; exit 1; }
	# the second line of times: the children's "0m0.37s 0m0.63s"
	awk -v p="$1" -v i="$2" -v ns=$((t1 - t0)) 'NR == 2 {
	    split($1, a, /[ms]/); split($2, b, /[ms]/)
	    u = a[1] * 60 + a[2]; s = ns / 1e9
	    printf "%.6g %.6g %.4g %.4g %.6g\n", p * i / s, s, u,
		b[1] * 60 + b[2], p * i / (s - u) }' "$tmp/times"
}
# one mmaptouch run, as ltp(): over the sum of its iterations' map_s,
# with the sums of their user and system CPU
vm() {
	"$HERE/bench/mmaptouch" --pages "$PAGES" --every-byte \
	    --iterations "$ITER" --out "$tmp/vm" --workdir "$tmp/w" \
	    > "$tmp/vm.out" 2>&1 || {
		echo "bench-ltp: mmaptouch failed:" \
		    "$(tail -n1 "$tmp/vm.out")" >&2
		exit 1
	}
	awk -v p="$PAGES" '$1 == "metric" { c[$2] = ++n + 2 }
	    $1 == "iter" { s += $c["map_s"]; u += $c["user"]
		y += $c["sys"]; i++ }
	    END { if (i && s > u) printf "%.6g %.6g %.4g %.4g %.6g\n",
		p * i / s, s, u, y, p * i / (s - u) }' "$tmp/vm.res"
	rm -f "$tmp/vm.res" "$tmp/vm.vmstat"
}
median() {
	sort -g | awk '{ v[NR] = $1 } END { h = int((NR + 1) / 2)
	    print NR % 2 ? v[h] : (v[h] + v[h + 1]) / 2 }'
}
# one row of the table: $1 the column of the runs, $2 the figure, $3
# its unit, $4 "judged" for the agreement; exit status 1 when judged
# and outside 0.75..1.25
row() {
	a=$(awk -v k="$1" '$2 == "mmaptouch" { print $k }' "$tmp/runs" |
	    median)
	b=$(awk -v k="$1" '$2 == "mmap001" { print $k }' "$tmp/runs" |
	    median)
	p=$(awk -v k="$1" '{ v[$1 " " $2] = $k; r[$1] = 1 }
	    END { for (i in r) if (v[i " mmap001"] > 0)
		print v[i " mmaptouch"] / v[i " mmap001"] }' "$tmp/runs" |
	    median)
	awk -v a="$a" -v b="$b" -v p="${p:-0}" -v f="$2" -v u="$3" \
	    -v j="${4:-}" 'BEGIN {
	    ok = (a > 0 && b > 0 && a / b >= 0.75 && a / b <= 1.25)
	    printf "%-18s %-8s %10.4g %10.4g %7s %7.2f %s\n", f, u, a, b,
		(b > 0 ? sprintf("%.2f", a / b) : "-"), p,
		(j != "judged" ? "(information)" : ok ? "" : "OUTSIDE")
	    exit j == "judged" && !ok }'
}

echo "mmaptouch vs $what mmap001: $PAGES pages x $ITER iterations," \
    "$RUNS rounds, alternating, $(date -u +%FT%TZ), $(uname -r)," \
    "$(nproc) CPUs, $(df -PT "$tmp/w" | awk 'NR == 2 { print $2 }')"
"$LTP" -h >/dev/null 2>&1 || true	# first exec, unmeasured
for k in 1 2 3; do
	t0=$(date +%s%N)
	"$LTP" -h >/dev/null 2>&1 || true
	echo $(($(date +%s%N) - t0))
done | median | awk '{ printf "mmap001 -h (exec to exit, as timed)," \
    " median of 3: %.2f ms\n", $1 / 1e6 }'
: > "$tmp/runs"
r=1
while [ "$r" -le "$RUNS" ]; do
	if [ $((r % 2)) = 1 ]; then
		sync; l=$(ltp "$PAGES" "$ITER")
		sync; v=$(vm)
	else
		sync; v=$(vm)
		sync; l=$(ltp "$PAGES" "$ITER")
	fi
	echo "$r mmaptouch $v" >> "$tmp/runs"
	echo "$r mmap001 $l" >> "$tmp/runs"
	echo "round $r of $RUNS done"
	r=$((r + 1))
done
echo
echo "every run (round, program, pages/s, seconds, user and system CPU"
echo "seconds of the $ITER iterations, pages/s over the seconds less the user):"
sort -k2,2 -k1,1n "$tmp/runs" | sed 's/^/  /'
echo
printf '%-18s %-8s %10s %10s %7s %7s\n' figure unit mmaptouch mmap001 \
    ratio paired
ok=1
row 3 pages_per_s pages/s judged || ok=0
row 5 user_s s
row 6 sys_s s
row 7 pages_per_s_nouser pages/s
echo
if [ "$ok" = 1 ]; then
	echo "bench-ltp: mmaptouch within 0.75..1.25 of mmap001's pages/s"
else
	echo "bench-ltp: mmaptouch outside 0.75..1.25 of mmap001's pages/s"
	exit 1
fi
