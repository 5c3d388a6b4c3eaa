#!/bin/sh
# make bench-truth: does the report's verdict tell the truth?  Four
# parts (TRUTH_PARTS="aa ab hand load", default all four), each on this
# kernel, into a temporary results folder removed on exit:
#
# aa    A/A false alarms.  Two labels, 3 runs each of TRUTH_CONFIG
#       (default configs/quick.conf), alternating a b a b a b (make run
#       KERNEL=truth-a, then truth-b, ...).  Nothing differs between
#       them, so every star is a false alarm.  The 6 runs are then split
#       every way into two groups of 3 (10 distinct splits; each group a
#       label folder of hard links to the run folders, its meta's label
#       rewritten) and each split is compared with report/vmreport, in
#       the default view and in --detail; a split counts when any figure
#       is starred.  Targets: at most 1 split in 10 with a star in the
#       default view, at most 2 in 10 in --detail.  Beside them, the old
#       model's figures for the same runs: the report of commit
#       TRUTH_OLD (default eb923a2, the last one that pooled the
#       iterations of every run and tested them at p < 0.05 with no
#       correction), built from `git archive` in the temporary folder
#       (TRUTH_OLD_BIN=path uses a binary already built; TRUTH_OLD=none
#       skips it), on the same 10 splits and on the 9 one-run
#       pairs a_i against b_j (how the old report was used: one run a
#       side).  The 6 runs' meta must record the same settings (a key
#       that differs is said and fails the part); runs made beside
#       another run that changed the machine are named.
# ab    Real changes still detected, 3 runs a side, through make ab
#       (ITERATIONS=3: each iteration of make ab is a separate run):
#       THP never/always (configs/truth-thp.conf: memfill's minflt and
#       thp_fault_alloc), swappiness 0/100 under MEM=256M SWAP=1G
#       (configs/truth-swap.conf: pswpout), zswap off/on under MEM=256M
#       SWAP=1G (configs/truth-zswap.conf: pswpout).  Each figure must be
#       starred in --detail, and the report's header must name the
#       setting.  With one side near 0, Welch's test has 2 degrees of
#       freedom and p is about 1 / t^2: the other side's run-to-run
#       spread decides, so the swap workloads swap out an amount set by
#       their sizes (the configs' comments have their measured spread).  The runner restores every setting.  Then the cold
#       first runs: make ab of TRUTH_CONFIG with the same setting on
#       both sides (vm.vfs_cache_pressure as found: an A/A), 3 runs a
#       side, with WARMUP=0 and with the default warm-up; and for every
#       make ab report of the part, the report's notes "first run slower
#       than the others' median (cold caches?)" are counted per side.
#       With the warm-up, all of 3 or more such notes on one side is a
#       miss.
# hand  The same three changes through two make run labels each, the
#       setting written by hand between runs (never, always, never, ...
#       3 runs each; swappiness and zswap under the same MEM= and SWAP=
#       as make ab); this script restores every setting it wrote on
#       every exit (a trap).  Each figure must be starred in --detail
#       and changed in the default view too (starred in its table or
#       on its "also changed" line), where a reader of that view sees
#       it.
# load  An A/A pair where one side ran beside a busy loop: two labels
#       of 3 runs of configs/truth-load.conf (forkbomb, memfill),
#       alternating, every run of the second beside `sh -c 'while :;
#       do :; done'`.  Target: no changed figure in either view, and
#       the default view names the different loads.
#
# TRUTH_KEEP=dir copies the temporary folder (every run made, the
# reports) to dir on exit, for a look at what a part counted.
#
# TRUTH_SETTINGS (default "thp swap zswap") picks the real changes the
# ab and hand parts check: TRUTH_SETTINGS=swap checks swappiness alone.
# With only some of them, the ab part leaves out the cold-run A/A of
# TRUTH_CONFIG (no setting's), and the block of docs/validation.md
# keeps the lines of the settings not run, from the run before, under
# the new ones.
#
# Each run's meta must show the setting the part wrote, and a setting
# written by hand must still read so when its run ends: a run that
# another process changed underneath is said, thrown away and run again
# (at most twice).
#
# Every line that counts a star counts the report's lines with a change
# marked "*" right after its parenthesis, "(+x.xx%)*".  The figures are
# printed as they come, then a summary, which also replaces the block
# between the two bench-truth markers in docs/validation.md with the
# date, kernel, machine and load (the aa part into one block, the ab and
# hand parts into another, so that a run of some parts leaves the
# others' figures).  Exit status: 0 when every target
# held, 1 when one did not or a run failed, 2 on bad input.
set -u
cd "$(dirname "$0")/.."
cfg=${VB_TRUTH_CONFIG:-configs/quick.conf}
parts=${VB_TRUTH_PARTS:-aa ab hand load}
settings=${VB_TRUTH_SETTINGS:-thp swap zswap}
old=${VB_TRUTH_OLD:-eb923a2}
[ "$old" = none ] && old=
oldbin=${VB_TRUTH_OLD_BIN:-}
keep=${VB_TRUTH_KEEP:-}
doc=docs/validation.md
begin='<!-- make bench-truth: the latest run (tools/bench-truth.sh rewrites this block) -->'
end='<!-- end of the latest make bench-truth -->'
begin_ab='<!-- make bench-truth ab hand: the latest run (tools/bench-truth.sh rewrites this block) -->'
end_ab='<!-- end of the latest make bench-truth ab hand -->'
thp=/sys/kernel/mm/transparent_hugepage/enabled
rep=report/vmreport

[ -r "$cfg" ] || { echo "bench-truth: TRUTH_CONFIG=$cfg: no such file" >&2; exit 2; }
for p in $parts; do
	case $p in
	aa|ab|hand|load) ;;
	*) echo "bench-truth: TRUTH_PARTS: $p is not one of aa ab hand" \
	   "load" >&2
	   exit 2 ;;
	esac
done
case $settings in
*[!a-z\ ]*|'') echo "bench-truth: TRUTH_SETTINGS: give some of thp swap" \
    "zswap" >&2
    exit 2 ;;
esac
allset=1 nset=0
for p in thp swap zswap; do
	case " $settings " in *" $p "*) ;; *) allset=0 ;; esac
done
for p in $settings; do
	case $p in
	thp|swap|zswap) nset=$((nset + 1)) ;;
	*) echo "bench-truth: TRUTH_SETTINGS: $p is not one of thp swap" \
	   "zswap" >&2
	   exit 2 ;;
	esac
done
[ $nset -gt 0 ] || { echo "bench-truth: TRUTH_SETTINGS: give some of" \
    "thp swap zswap" >&2; exit 2; }
# shellcheck disable=SC2086
settings=$(echo $settings)
[ -x "$rep" ] && [ -x bench/vmrun ] ||
    { echo "bench-truth: report/vmreport or bench/vmrun not built (make)" >&2; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/vmbench-truth.XXXXXX") || exit 1
hand_file='' hand_saved=''
# the setting the hand part wrote back as found, the folder removed
cleanup() {
	if [ -n "$hand_saved" ]; then
		echo "$hand_saved" > "$hand_file" ||
		    echo "bench-truth: cannot restore $hand_file to" \
		    "$hand_saved" >&2
		hand_saved=
	fi
	# TRUTH_KEEP=dir: the runs made, kept for a look at what starred
	if [ -n "$keep" ] && ! cp -r "$T" "$keep"; then
		echo "bench-truth: cannot copy the runs to $keep" >&2
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
trap '' PIPE
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load=$(cut -d' ' -f1-3 /proc/loadavg)
sum=$T/summary
: > "$sum"
fail=0

# say LINE: print it and keep it for the summary
say() {
	echo "$*"
	echo "$*" >> "$sum"
}

# mk TARGET VAR=VAL...: make TARGET with every workflow variable given
# (empty unless named), so nothing from the calling make leaks in; its
# output goes to $T/mk.log, shown when it fails
mk() {
	t=$1
	shift
	if make --no-print-directory -s "$t" ITERATIONS= RUNS= FORCE= MEM= \
	    SWAP= A_LABEL= B_LABEL= ORDER= WARMUP= "$@" > "$T/mk.log" 2>&1; then
		return 0
	fi
	echo "bench-truth: make $t $*: failed:" >&2
	tail -n 15 "$T/mk.log" >&2
	return 1
}

# stars FILE: how many of the report's lines carry a "*" change
stars() {
	grep -c '[)]\*' "$1"
}

# report BIN OUT OPTS... DIRS...: the report into OUT; its count of stars
# on stdout, or "err" when it failed
report() {
	rb=$1
	ro=$2
	shift 2
	if "$rb" "$@" > "$ro" 2>&1; then
		stars "$ro"
	else
		echo err
	fi
}

# group DEST RUN...: a label folder DEST of the run folders given (hard
# links, run1 ... in order), each meta's label= set to DEST's name
group() {
	d=$1
	shift
	mkdir -p "$d" || return 1
	n=0
	for r; do
		n=$((n + 1))
		cp -al "$r" "$d/run$n" && rm -f "$d/run$n/meta" &&
		    sed "s/^label=.*/label=${d##*/}/" "$r/meta" > \
		    "$d/run$n/meta" || return 1
	done
}

# the old model's report: built from git at $old, or TRUTH_OLD_BIN
old_report() {
	[ -n "$oldbin" ] && return 0
	[ -n "$old" ] || return 1
	mkdir "$T/old" &&
	    git archive "$old" 2> "$T/old.log" | tar -x -C "$T/old" &&
	    make -C "$T/old" -s -j2 report/vmreport >> "$T/old.log" 2>&1 &&
	    oldbin=$T/old/report/vmreport && return 0
	echo "bench-truth: cannot build the report of $old; the old model" \
	    "is left out:" >&2
	tail -n 5 "$T/old.log" >&2
	old=
	return 1
}

# same_settings RUN...: the settings in every run's meta must agree (all
# keys but those that differ by run: label, status, times, index, boot,
# iterations, version, neighbours); each key that differs is said with
# its value in each run, and each run that ran beside another vmbench
# run changing the machine (its meta's concurrent=) is named.  Status 1
# when a setting differs.
same_settings() {
	awk -F= '
	    BEGIN { split("label status start end run boot_id uptime_start" \
		" iterations vmbench_version", s, " ")
		for (i in s) skip[s[i]] = 1 }
	    FNR == 1 { n++ }
	    $1 in skip { next }
	    $1 == "concurrent" { near[n] = 1; next }
	    { k = $1; v = substr($0, length(k) + 2)
	      if (!(k in first)) { first[k] = v; keys[++nk] = k }
	      val[k, n] = v
	      if (v != first[k]) bad[k] = 1 }
	    END {
		for (i = 1; i <= nk; i++) {
			k = keys[i]
			for (j = 1; j <= n; j++)
				if (!((k, j) in val)) bad[k] = 1
			if (!(k in bad))
				continue
			l = ""
			for (j = 1; j <= n; j++)
				l = l " r" j "=" ((k, j) in val ? val[k, j] : "(none)")
			print "  setting " k " differs:" l
			nb++
		}
		l = ""
		for (j = 1; j <= n; j++)
			if (j in near)
				l = l " r" j
		if (l != "")
			print "  ran beside another vmbench run that changed" \
			    " the machine (meta concurrent=):" l
		exit nb > 0
	    }' "$@"
}

part_aa() {
	r=$T/aa
	say "== A/A: 3 runs a label of $cfg, alternating a b a b a b"
	i=0
	for n in 1 2 3; do
		for l in a b; do
			i=$((i + 1))
			s=$(date +%s)
			mk run KERNEL="truth-$l" CONFIG="$cfg" RESULTS="$r" ||
			    return 1
			echo "run $i of 6 (truth-$l run$n): $(($(date +%s) - s)) s"
			eval "R$i=\$r/truth-\$l/run\$n"
		done
	done
	if same_settings "$R1/meta" "$R2/meta" "$R3/meta" "$R4/meta" \
	    "$R5/meta" "$R6/meta" > "$T/settings"; then
		say "settings in the 6 runs' meta: the same"
	else
		say "settings in the 6 runs' meta: NOT the same (a false" \
		    "alarm may be a real change):"
		fail=1
	fi
	while IFS= read -r l; do say "$l"; done < "$T/settings"
	if old_report; then
		have_old=1
	else
		have_old=0
	fi
	# the 10 splits: the group holding run 1 takes two of runs 2..6
	say "split (runs in time order)   new: default --detail" \
	    "$( [ $have_old = 1 ] && echo '  old: default --detail')"
	nd=0 nt=0 od=0 ot=0 k=0
	for i in 2 3 4 5; do
		j=$i
		while [ $((j += 1)) -le 6 ]; do
			k=$((k + 1))
			x="r1r$i""r$j" y= gx="$R1" gy=
			eval "gx=\"\$gx \$R$i \$R$j\""
			for m in 2 3 4 5 6; do
				[ $m = $i ] || [ $m = $j ] && continue
				y="$y""r$m"
				eval "gy=\"\$gy \$R$m\""
			done
			# shellcheck disable=SC2086
			group "$T/s$k/$x" $gx && group "$T/s$k/$y" $gy ||
			    return 1
			a=$T/s$k/$x b=$T/s$k/$y
			d=$(report "$rep" "$T/s$k.d" "$a" "$b")
			t=$(report "$rep" "$T/s$k.t" --detail "$a" "$b")
			line=$(printf '%-8s against %-8s %14s %8s' "$x" "$y" \
			    "$d" "$t")
			[ "$d" != 0 ] && nd=$((nd + 1))
			[ "$t" != 0 ] && nt=$((nt + 1))
			if [ $have_old = 1 ]; then
				d=$(report "$oldbin" "$T/s$k.od" "$a" "$b")
				t=$(report "$oldbin" "$T/s$k.ot" --detail \
				    "$a" "$b")
				[ "$d" != 0 ] && od=$((od + 1))
				[ "$t" != 0 ] && ot=$((ot + 1))
				line=$(printf '%s %14s %8s' "$line" "$d" "$t")
			fi
			say "$line"
		done
	done
	ok=held
	[ $nd -le 1 ] && [ $nt -le 2 ] || { ok=MISSED; fail=1; }
	say "A/A, 3 runs a side: splits with a star: default view $nd of 10" \
	    "(target <= 1), --detail $nt of 10 (target <= 2): $ok"
	[ $have_old = 1 ] &&
	    say "  old model ($old), same splits: default view $od of 10," \
	    "--detail $ot of 10"
	# the 9 one-run pairs, as the old report was used
	pd=0 pt=0 qd=0 qt=0 nsd=0 nst=0 osd=0 ost=0
	for i in 1 3 5; do
		for j in 2 4 6; do
			eval "a=\$R$i b=\$R$j"
			d=$(report "$rep" "$T/p.d" "$a" "$b")
			t=$(report "$rep" "$T/p.t" --detail "$a" "$b")
			[ "$d" != 0 ] && pd=$((pd + 1))
			[ "$t" != 0 ] && pt=$((pt + 1))
			case $d$t in *err*) ;; *)
				nsd=$((nsd + d)) nst=$((nst + t)) ;; esac
			line=$(printf 'one run a side: r%s against r%s %6s %8s' \
			    "$i" "$j" "$d" "$t")
			if [ $have_old = 1 ]; then
				d=$(report "$oldbin" "$T/p.od" "$a" "$b")
				t=$(report "$oldbin" "$T/p.ot" --detail "$a" "$b")
				[ "$d" != 0 ] && qd=$((qd + 1))
				[ "$t" != 0 ] && qt=$((qt + 1))
				case $d$t in *err*) ;; *)
					osd=$((osd + d)) ost=$((ost + t)) ;;
				esac
				line=$(printf '%s %14s %8s' "$line" "$d" "$t")
			fi
			say "$line"
		done
	done
	say "A/A, one run a side (9 pairs): with a star: default view" \
	    "$pd of 9, --detail $pt of 9 ($nsd and $nst stars)"
	[ $have_old = 1 ] &&
	    say "  old model ($old): default view $qd of 9, --detail" \
	    "$qt of 9 ($osd and $ost stars)"
	return 0
}

# check NAME A B BENCH METRIC... : the report of the folders A and B, the
# header's settings and each METRIC of BENCH in --detail, starred or not
check() {
	name=$1 a=$2 b=$3 bench=$4 setting=$5
	shift 5
	report "$rep" "$T/c.t" --detail "$a" "$b" > /dev/null
	sed -n '/^Key figures/q;p' "$T/c.t" > "$T/c.h"
	if grep -q "$setting" "$T/c.h"; then
		hdr="named in the header"
	else
		hdr="NOT named in the header"
		fail=1
	fi
	say "$name: $setting $hdr"
	for m; do
		l=$(awk -v b="$bench" -v m="$m" '
		    /^== / { sec = ($2 == b); next }
		    sec { n = $1; sub(/[~!]+$/, "", n)
			if (n == m) { print; exit } }' "$T/c.t")
		case $l in
		'') v="MISSING" ; fail=1 ;;
		*')*'*) v="starred" ;;
		*) v="NOT starred"; fail=1 ;;
		esac
		say "  $bench $m: $v: $(echo "$l" | tr -s ' ')"
		say "    runs: $(runvals "$a" "$bench" "$m") against" \
		    "$(runvals "$b" "$bench" "$m")"
		if [ -n "$old" ] && [ -n "$oldbin" ]; then
			"$oldbin" --detail "$a" "$b" > "$T/c.o" 2>&1
			l=$(awk -v b="$bench" -v m="$m" '
			    /^== / { sec = ($2 == b); next }
			    sec { n = $1; sub(/[~!]+$/, "", n)
				if (n == m) { print; exit } }' "$T/c.o")
			say "    old model: $(echo "$l" | tr -s ' ')"
		fi
	done
}

# runvals DIR BENCH METRIC: METRIC of BENCH in each run of the label
# folder DIR, the report's unit: the mean of each runN/'s iterations, or
# each iteration of a make ab side (one run an iteration)
runvals() {
	rvm=$3 rve=each
	if [ -d "$1/run1" ]; then
		rve=
		set -- "$1"/run*/"$2.res"
	else
		set -- "$1/$2.res"
	fi
	awk -v m="$rvm" -v each="$rve" '
	    function flush() {
		if (!each && c) { printf "%s%g", sep, s / c; sep = ", " }
		s = 0; c = 0
	    }
	    FNR == 1 { flush(); n = 0; k = 0 }
	    $1 == "metric" { n++; if ($2 == m) k = n }
	    $1 == "iter" && k && $(k + 2) != "-" {
		if (each) { printf "%s%g", sep, $(k + 2); sep = ", " }
		else { s += $(k + 2); c++ }
	    }
	    END { flush() }' "$@" 2> /dev/null
}

# metaval DIR KEY: KEY's value in DIR/meta, empty when absent
metaval() {
	awk -v k="$2" 'index($0, k "=") == 1 {
	    print substr($0, length(k) + 2); exit }' "$1/meta" 2> /dev/null
}

# cold A B: the report's notes "first run slower than the others' median
# (cold caches?)" for the folders A and B (one a benchmark and side,
# unwrapped), counted per side into coldA and coldB, listed in coldl
cold() {
	coldA=0 coldB=0 coldl=''
	"$rep" --width 1000 "$1" "$2" > "$T/cold.t" 2>&1
	set -- "$(basename "$1")" "$(basename "$2")"
	eval "$(awk -v a="$1" -v b="$2" '
	    /^== / { bench = $2 }
	    /first run slower than the others. median/ {
		sub(/.*[(]cold caches[?][)]:/, "")
		n = split($0, e, ",")
		for (i = 1; i <= n; i++) {
			split(e[i], w, " ")
			if (w[1] == a) na++
			else if (w[1] == b) nb++
			else continue
			l = l " " bench ":" (w[1] == a ? "A" : "B") ":" w[2]
		}
	    }
	    END { printf "coldA=%d coldB=%d coldl=\"%s\"\n", na, nb, l }
	    ' "$T/cold.t")"
}

# ab NAME CONFIG A B MEM SWAP KEY VA VB BENCH METRIC...: make ab, 3 runs
# a side; each side's meta must show KEY as VA and VB (else run again)
ab() {
	name=$1 c=$2 sa=$3 sb=$4 mem=$5 swap=$6 key=$7 va=$8 vb=$9
	shift 9
	bench=$1
	shift
	try=0
	while :; do
		s=$(date +%s)
		mk ab KERNEL="truth-$name" CONFIG="$c" RESULTS="$T/ab" \
		    A="$sa" B="$sb" MEM="$mem" SWAP="$swap" ITERATIONS=3 \
		    FORCE=1 || { fail=1; say "make ab $sa / $sb: failed"
		    return 1; }
		ga=$(metaval "$T/ab/truth-$name-A" "$key")
		gb=$(metaval "$T/ab/truth-$name-B" "$key")
		[ "$ga" = "$va" ] && [ "$gb" = "$vb" ] && break
		say "make ab $sa / $sb: meta shows $key=$ga and $gb, not" \
		    "$va and $vb (changed by another process): run again"
		try=$((try + 1))
		[ $try -le 2 ] || { fail=1; return 1; }
	done
	echo "make ab $sa / $sb: $(($(date +%s) - s)) s"
	check "make ab A=\"$sa\" B=\"$sb\"${mem:+ MEM=$mem SWAP=$swap}" \
	    "$T/ab/truth-$name-A" "$T/ab/truth-$name-B" "$bench" \
	    "${sa%%=*}" "$@"
	cold "$T/ab/truth-$name-A" "$T/ab/truth-$name-B"
	say "  cold first runs (the report's notes): A $coldA, B" \
	    "$coldB${coldl:+:$coldl}"
	cA=$((cA + coldA)) cB=$((cB + coldB))
}

# aacold WARMUP: make ab of $cfg, both sides vm.vfs_cache_pressure as
# found (an A/A), 3 runs a side; the report's cold-run notes per side
aacold() {
	f=/proc/sys/vm/vfs_cache_pressure
	v=$(cat "$f") || return 1
	s=$(date +%s)
	mk ab KERNEL="truth-cold$1" CONFIG="$cfg" RESULTS="$T/ab" \
	    A="vm.vfs_cache_pressure=$v" B="vm.vfs_cache_pressure=$v" \
	    ITERATIONS=3 WARMUP="$1" FORCE=1 ||
	    { fail=1; say "make ab of $cfg, WARMUP=$1: failed"; return 1; }
	echo "make ab of $cfg, WARMUP=$1: $(($(date +%s) - s)) s"
	cold "$T/ab/truth-cold$1-A" "$T/ab/truth-cold$1-B"
	say "A/A make ab of $cfg (vm.vfs_cache_pressure=$v both sides)," \
	    "WARMUP=$1: A $coldA, B $coldB${coldl:+:$coldl}"
}

# want SETTING: is SETTING one of TRUTH_SETTINGS
want() {
	case " $settings " in *" $1 "*) return 0 ;; esac
	return 1
}

part_ab() {
	cA=0 cB=0
	say "== Real changes through make ab, 3 runs a side"
	want thp && ab thp configs/truth-thp.conf thp=never thp=always \
	    "" "" thp_enabled never always memfill minflt thp_fault_alloc
	want swap && ab swap configs/truth-swap.conf vm.swappiness=0 \
	    vm.swappiness=100 256M 1G swappiness 0 100 tworead@anon pswpout
	want zswap && ab zswap configs/truth-zswap.conf zswap=N zswap=Y \
	    256M 1G zswap_enabled N Y memfill pswpout
	# the cold-run A/A is no setting's: only with all of them
	[ $allset = 1 ] || return 0
	say "== Cold first runs of make ab: the report's notes \"first run" \
	    "slower than the others' median (cold caches?)\", one a" \
	    "benchmark and side (bench:side:ratio)"
	say "the three reports above (one line each, A starts it, after" \
	    "the warm-up): A $cA, B $cB"
	aacold 0 || return 1
	aacold 1 || return 1
	ok=held
	[ $((coldA + coldB)) -ge 3 ] && { [ "$coldA" = 0 ] ||
	    [ "$coldB" = 0 ]; } && { ok=MISSED; fail=1; }
	say "A/A with the warm-up: A $coldA, B $coldB (target: not all of" \
	    "3 or more on one side): $ok"
	return 0
}

# hand NAME FILE VA VB CONFIG MEM SWAP KEY BENCH METRIC...: two make run
# labels, FILE written VA, VB, VA, ... by hand before each run, 3 runs
# each; a run whose meta does not show KEY as written, or after which
# FILE no longer reads so, is removed and run again
hand() {
	name=$1 file=$2 va=$3 vb=$4 c=$5 mem=$6 swap=$7 key=$8
	shift 8
	bench=$1
	shift
	[ -w "$file" ] || { say "hand: $file not writable: skipped"; fail=1
	    return 1; }
	hand_file=$file
	hand_saved=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$file")
	[ -n "$hand_saved" ] || hand_saved=$(cat "$file")
	s=$(date +%s)
	for n in 1 2 3; do
		for v in "$va" "$vb"; do
			try=0
			while :; do
				echo "$v" > "$file" || return 1
				mk run KERNEL="truth-$name-$v" CONFIG="$c" \
				    RESULTS="$T/hand" MEM="$mem" SWAP="$swap" ||
				    { fail=1; return 1; }
				d=$T/hand/truth-$name-$v/run$n
				g=$(metaval "$d" "$key")
				now=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$file")
				[ -n "$now" ] || now=$(cat "$file")
				[ "$g" = "$v" ] && [ "$now" = "$v" ] && break
				say "hand $name run $n: meta shows $key=$g," \
				    "$file reads $now after it, not $v" \
				    "(changed by another process): run again"
				rm -rf "$d"
				try=$((try + 1))
				[ $try -le 2 ] || { fail=1; return 1; }
			done
		done
	done
	echo "$hand_saved" > "$file"
	hand_saved=
	echo "make run, $name by hand: $(($(date +%s) - s)) s"
	# check() sets name, a and b (the shell has no locals)
	da=$T/hand/truth-$name-$va db=$T/hand/truth-$name-$vb
	check "make run, $file by hand${mem:+, MEM=$mem SWAP=$swap}" \
	    "$da" "$db" "$bench" "$key" "$@"
	shown "$da" "$db" "$bench" "$@"
}

# shown A B BENCH METRIC...: is each METRIC of BENCH changed in the
# default view of A against B (starred in its table, or named with a
# star on its "also changed" line), as a reader of that view sees it
shown() {
	a=$1 b=$2 bench=$3
	shift 3
	"$rep" --width 1000 "$a" "$b" > "$T/c.d" 2>&1
	for m; do
		v=$(awk -v b="$bench" -v m="$m" '
		    /^== / { sec = ($2 == b); next }
		    !sec { next }
		    { n = $1; sub(/[~!]+$/, "", n) }
		    n == m && /[)][*]/ { print "starred in its table"; exit }
		    /^ *also changed/ {
			l = $0; sub(/^[^:]*: */, "", l)
			k = split(l, it, /, /)
			for (i = 1; i <= k; i++) {
				split(it[i], w, " ")
				if (w[1] == m && it[i] ~ /[*]$/) {
					print "on its also-changed line: " it[i]
					exit
				}
			}
		    }' "$T/c.d")
		[ -n "$v" ] || { v="NOT changed there"; fail=1; }
		say "  default view, $bench $m: $v"
	done
}

part_hand() {
	say "== The same changes by hand between make run labels, 3 runs each"
	want thp && hand thp "$thp" never always configs/truth-thp.conf \
	    "" "" thp_enabled memfill minflt thp_fault_alloc
	want swap && hand swap /proc/sys/vm/swappiness 0 100 \
	    configs/truth-swap.conf 256M 1G swappiness tworead@anon pswpout
	want zswap && hand zswap /sys/module/zswap/parameters/enabled N Y \
	    configs/truth-zswap.conf 256M 1G zswap_enabled memfill pswpout
	return 0
}

# part_load: an A/A pair of configs/truth-load.conf, two labels of 3
# runs alternating a b a b a b, every run of b beside a busy loop
# (sh -c 'while :; do :; done', killed when the run ends): nothing
# differs but the load, so a changed figure in either view is false;
# the report must name the different loads (its "ran under different
# loads" line)
part_load() {
	say "== A/A beside a busy loop: b's 3 runs beside one, a's without"
	c=configs/truth-load.conf
	s=$(date +%s)
	for n in 1 2 3; do
		mk run KERNEL=truth-quiet CONFIG="$c" RESULTS="$T/load" ||
		    { fail=1; return 1; }
		sh -c 'while :; do :; done' &
		hog=$!
		mk run KERNEL=truth-loud CONFIG="$c" RESULTS="$T/load"
		rc=$?
		kill "$hog" 2> /dev/null
		wait "$hog" 2> /dev/null
		[ $rc = 0 ] || { fail=1; return 1; }
	done
	echo "make run, A/A beside a busy loop: $(($(date +%s) - s)) s"
	a=$T/load/truth-quiet b=$T/load/truth-loud
	nd=$(report "$rep" "$T/l.d" --width 1000 "$a" "$b")
	nx=$(report "$rep" "$T/l.x" --width 1000 --detail "$a" "$b")
	# the default view's second tier: "also changed: minflt -9%*"
	na=$(grep -c '^ *also changed' "$T/l.d")
	nd=$((nd + na))
	ok=held
	[ "$nd" = 0 ] && [ "$nx" = 0 ] || { ok=MISSED; fail=1; }
	say "A/A beside a busy loop: changed figures: default view $nd," \
	    "--detail $nx (target: 0 and 0): $ok"
	if grep -q 'ran under different loads' "$T/l.d"; then
		say "  the different loads named: $(grep -m1 \
		    'ran under different loads' "$T/l.d" | tr -s ' ' |
		    cut -c1-160)"
	else
		say "  the different loads NOT named in the default view"
		fail=1
	fi
	grep -m2 'loud' "$T/l.d" | tr -s ' ' | cut -c1-160 |
	    while read -r l; do say "  $l"; done
	return 0
}

for p in $parts; do
	sum=$T/summary.$p
	: > "$sum"
	"part_$p" || fail=1
done

# kept BEGIN END: the block's lines as it stands in $doc, but for those
# of the settings run now (a line indented 4 that names one, and the
# lines indented further under it), under a line saying they are older;
# a run's paragraph left with no figure (an earlier run of only these
# settings) goes whole
kept() {
	re=''
	want thp && re="$re|thp=|transparent_hugepage|^hand thp "
	want swap && re="$re|swappiness|^hand swap "
	want zswap && re="$re|zswap"
	re=${re#|}
	awk -v b="$1" -v e="$2" -v re="$re" '
	    function flush() {
		if (figs) {
			if (!said++)
				print "The other settings\047 figures, from" \
				    " the run before:\n"
			printf "%s", buf
		}
		buf = ""; figs = 0
	    }
	    $0 == b { on = 1; next }
	    on && $0 == e { exit }
	    !on || /^The other settings/ { next }
	    /^`make bench-truth`/ { flush() }
	    /^    [^ ]/ { l = substr($0, 5); drop = (l ~ re) }
	    /^      / && drop { next }
	    /^    [^ ]/ && drop { next }
	    /^    [^ =]/ { figs = 1 }
	    { buf = buf $0 "\n" }
	    END { flush() }' "$doc"
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
# block BEGIN END PART...: the figures of those PARTs that ran, in place
# of the block between the lines BEGIN and END of $doc
block() {
	b=$1 e=$2 ran='' files=''
	shift 2
	for p; do
		case " $parts " in *" $p "*)
			ran="$ran${ran:+ }$p" files="$files $T/summary.$p" ;;
		esac
	done
	[ -n "$ran" ] || return 0
	{
		echo "$b"
		echo
		sel=''
		[ $allset = 1 ] || sel=" TRUTH_SETTINGS=\"$settings\""
		echo "\`make bench-truth\` TRUTH_CONFIG=$cfg TRUTH_PARTS=\"$ran\"$sel,"
		echo "started $started on kernel $(uname -r), $cpu x $(nproc),"
		echo "$mem, load average $load at the start; exit $fail:"
		echo
		# shellcheck disable=SC2086
		cat $files | sed 's/^/    /'
		echo
		[ $allset = 1 ] || [ "$b" != "$begin_ab" ] || kept "$b" "$e"
		echo "$e"
	} > "$T/block"
	if grep -qxF "$b" "$doc"; then
		awk -v b="$b" -v e="$e" -v f="$T/block" '
		    $0 == b { while ((getline l < f) > 0) print l; skip = 1
			next }
		    skip && $0 == e { skip = 0; next }
		    !skip { print }' "$doc" > "$T/doc" &&
		    cat "$T/doc" > "$doc"
	else
		echo "bench-truth: $doc has no block for $ran; figures not" \
		    "written" >&2
	fi
}
block "$begin" "$end" aa
block "$begin_ab" "$end_ab" ab hand load
echo
for p in $parts; do
	cat "$T/summary.$p"
done
exit $fail
