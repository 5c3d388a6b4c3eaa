#!/bin/sh
# vmlat against LMbench 3, side by side on the same machine:
#
#	sh tools/vmlat-vs-lmbench.sh [RUNS]	(default 9; `make bench-vmlat`)
#
# LMbench's source: $LMBENCH_SRC, a source tree (with src/lat_proc.c)
# or a git folder (its HEAD is exported).  No source: one line saying
# so, exit 0.  The programs needed are built with cc into a
# temporary folder under ${VMBENCH_WORKDIR:-/var/tmp}, removed at the
# end; lat_proc with -DSTATIC (the static hello, as vmlat's exec and sh
# use one), its hello's path pointed into that folder.
#
# RUNS rounds; each round runs, figure by figure, vmlat --test X and
# LMbench's program, the order alternating between rounds.  Both use
# their defaults (11 repetitions, the median; 8M file) and the same
# timed interval: vmlat's --enough, given to LMbench as its ENOUGH
# (without it LMbench picks the shortest interval its clock test
# passes, and on a busy machine falls back to 1 s).  Prints every
# run, then a table of medians and vmlat/LMbench ("ratio", the ratio
# of the medians; "paired", for information, the median of the rounds'
# own ratios, each of two runs side by side); exits 1 when a ratio
# falls outside 0.75..1.25.  The file creates and deletes of both run
# on a fresh ext4 when root (tests/scratch-fs.sh says why).  LM_TESTS
# (default every one: fork exec sh pagefault mmap fs0k fs10k filerd
# mmaprd) picks some.
set -eu
RUNS=${1:-9}
ALL="fork exec sh pagefault mmap fs0k fs10k filerd mmaprd"
TESTS=${LM_TESTS:-$ALL}
for t in $TESTS; do
	case " $ALL " in *" $t "*) ;; *) echo "$0: LM_TESTS: no test" \
	    "'$t' (the tests: $ALL)" >&2; exit 2;; esac
done
ENOUGH=${ENOUGH:-5000}
export ENOUGH
case $RUNS in ''|*[!0-9]*|0) echo "$0: RUNS must be a whole number" \
    "above 0, not '$RUNS'" >&2; exit 2;; esac
WD=${VMBENCH_WORKDIR:-/var/tmp}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SRC=${LMBENCH_SRC:-}
if [ -z "$SRC" ] || [ ! -e "$SRC" ]; then
	echo "bench-vmlat: skipped: no LMbench source (set LMBENCH_SRC to" \
	    "a source tree or a git folder of github.com/intel/lmbench)"
	exit 0
fi
. "$HERE/tests/scratch-fs.sh"
scratch_fs_stale "$WD"
tmp=$(mktemp -d "$WD/vmlat-vs-lmbench.XXXXXX")
trap 'scratch_fs_done; rm -rf "$tmp"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
mkdir "$tmp/lm" "$tmp/w"
if [ -f "$SRC/src/lat_proc.c" ]; then
	cp -R "$SRC/src" "$tmp/lm/src"
elif git --git-dir="$SRC" rev-parse HEAD >/dev/null 2>&1; then
	git --git-dir="$SRC" archive HEAD src | tar -x -C "$tmp/lm"
else
	echo "bench-vmlat: $SRC: neither an LMbench source tree nor a git" \
	    "folder" >&2
	exit 2
fi
# the build (not part of vmbench): the library and the seven programs
(
	cd "$tmp/lm/src"
	sed "s#/tmp/hello-s#$tmp/lm/hello-s#" lat_proc.c > lat_proc_s.c
	F="-O2 -w -std=gnu89 -fcommon -DRUSAGE -DHAVE_uint=1 \
	    -DHAVE_int64_t=1 -DHAVE_DRAND48 -DHAVE_SCHED_SETAFFINITY=1"
	[ -d /usr/include/tirpc ] && F="$F -I/usr/include/tirpc"
	L=
	[ -d /usr/include/tirpc ] && L=-ltirpc
	for l in lib_timing lib_mem lib_stats lib_sched lib_debug getopt \
	    lib_tcp lib_udp lib_unix; do
		cc $F -c $l.c -o $l.o
	done
	ar rcs lmb.a lib_*.o getopt.o
	cc $F -DSTATIC -o ../lat_proc lat_proc_s.c lmb.a -lm $L
	for p in lat_fs lat_mmap lat_pagefault bw_file_rd bw_mmap_rd; do
		cc $F -o ../$p $p.c lmb.a -lm $L
	done
	cc $F -static -o ../hello-s hello.c
) > "$tmp/build.log" 2>&1 || {
	echo "bench-vmlat: cannot build LMbench from $SRC:" \
	    "$(grep -m1 -i error "$tmp/build.log" || tail -n1 "$tmp/build.log")" >&2
	exit 1
}
LM=$tmp/lm
FILE=$tmp/XXX
# written as vmlat writes its file, in 64K blocks: the page cache's
# folio sizes follow the writes, and the faults follow the folios
dd if=/dev/zero of="$FILE" bs=64k count=128 conv=fsync 2>/dev/null

# one vmlat figure: $1 the test, $2 the metric (median of its .res)
vm() {
	w=$tmp/w
	case $1 in fs*) w=$SCRATCH/vw;; esac
	"$HERE/bench/vmlat" --test "$1" --iterations 1 --enough "$ENOUGH" \
	    --helper "$LM/hello-s" \
	    --out "$tmp/vm" --workdir "$w" >/dev/null 2>&1
	awk -v m="$2" '$1 == "metric" { n++; if ($2 == m) col = n }
	    $1 == "iter" { print $(col + 2) }' "$tmp/vm.res"
	rm -f "$tmp/vm.res" "$tmp/vm.vmstat"
}
# one LMbench figure, in vmlat's unit
lm() {
	case $1 in
	fork) "$LM/lat_proc" fork 2>&1 | awk '{ print $(NF - 1) }';;
	exec) "$LM/lat_proc" exec 2>&1 | awk '{ print $(NF - 1) }';;
	sh) "$LM/lat_proc" shell 2>&1 | awk '{ print $(NF - 1) }';;
	pagefault) "$LM/lat_pagefault" "$FILE" 2>&1 |
	    awk '{ print $(NF - 1) }';;
	mmap) "$LM/lat_mmap" 8m "$FILE" 2>&1 | awk '{ print $2 }';;
	filerd) "$LM/bw_file_rd" 8m io_only "$FILE" 2>&1 |
	    awk '{ print $2 }';;
	mmaprd) "$LM/bw_mmap_rd" 8m mmap_only "$FILE" 2>&1 |
	    awk '{ print $2 }';;
	fs0k|fs10k)	# creates/s and deletes/s to us per file
		# (-s 0 is every size: 0k, 1k, 4k, 10k, a line each)
		"$LM/lat_fs" -s "${1#fs}" "$SCRATCH/fs" 2>&1 | awk -v s="${1#fs}" \
		    '$1 == s { printf "%.4f %.4f\n", 1e6 / $3, 1e6 / $4 }';;
	esac
}
median() {
	sort -g | awk '{ v[NR] = $1 }
	    END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

FIGS="fork:fork_us exec:exec_us sh:sh_us pagefault:page_fault_us
mmap:mmap_us fs0k:create_0k_us fs0k:delete_0k_us fs10k:create_10k_us
fs10k:delete_10k_us filerd:file_reread_mbs mmaprd:mmap_reread_mbs"
echo "vmlat vs LMbench 3 ($(git --git-dir="$SRC" rev-parse --short HEAD \
    2>/dev/null || echo "$SRC")): $RUNS rounds, alternating," \
    "ENOUGH=$ENOUGH us, $(date -u +%FT%TZ), $(uname -r), $(nproc) CPUs"
case " $TESTS " in *" fs"*) scratch_fs "$tmp";; *) SCRATCH=$tmp;; esac
mkdir "$SCRATCH/fs" "$SCRATCH/vw"
: > "$tmp/runs"
r=1
while [ "$r" -le "$RUNS" ]; do
	for t in $TESTS; do
		if [ $((r % 2)) = 1 ]; then
			l=$(lm "$t")
		fi
		for f in $FIGS; do
			[ "${f%%:*}" = "$t" ] || continue
			v=$(vm "$t" "${f#*:}")
			echo "$r ${f#*:} vmlat $v" >> "$tmp/runs"
		done
		[ $((r % 2)) = 1 ] || l=$(lm "$t")
		case $t in
		fs*)	echo "$r create_${t#fs}_us lmbench ${l% *}" >> "$tmp/runs"
			echo "$r delete_${t#fs}_us lmbench ${l#* }" >> "$tmp/runs";;
		*)	for f in $FIGS; do
				[ "${f%%:*}" = "$t" ] &&
				    echo "$r ${f#*:} lmbench $l" >> "$tmp/runs"
			done;;
		esac
	done
	echo "round $r of $RUNS done"
	r=$((r + 1))
done
echo
echo "every run (round, figure, program, value):"
sort -k2,2 -k3,3 -k1,1n "$tmp/runs" | sed 's/^/  /'
echo
printf '%-16s %-8s %10s %10s %7s %7s\n' figure unit vmlat lmbench ratio paired
bad=0
for f in $FIGS; do
	case " $TESTS " in *" ${f%%:*} "*) ;; *) continue;; esac
	m=${f#*:}
	case $m in *_mbs) u=MB/s;; *) u=us;; esac
	a=$(awk -v m="$m" '$2 == m && $3 == "vmlat" { print $4 }' \
	    "$tmp/runs" | median)
	b=$(awk -v m="$m" '$2 == m && $3 == "lmbench" { print $4 }' \
	    "$tmp/runs" | median)
	# each round's vmlat/LMbench, the two run one after the other
	p=$(awk -v m="$m" '$2 == m { v[$1 " " $3] = $4; r[$1] = 1 }
	    END { for (i in r) if (v[i " lmbench"] > 0)
		print v[i " vmlat"] / v[i " lmbench"] }' "$tmp/runs" | median)
	line=$(awk -v m="$m" -v u="$u" -v a="$a" -v b="$b" -v p="$p" 'BEGIN {
	    ok = (a > 0 && b > 0 && a / b >= 0.75 && a / b <= 1.25)
	    printf "%-16s %-8s %10.4g %10.4g %7s %7.2f %s\n", m, u, a, b,
		(b > 0 ? sprintf("%.2f", a / b) : "-"), p,
		(ok ? "" : "OUTSIDE")
	    exit !ok }') || bad=$((bad + 1))
	echo "$line"
done
echo
if [ "$bad" -gt 0 ]; then
	echo "bench-vmlat: $bad figure(s) outside 0.75..1.25 of LMbench's"
	exit 1
fi
echo "bench-vmlat: every figure within 0.75..1.25 of LMbench's"
