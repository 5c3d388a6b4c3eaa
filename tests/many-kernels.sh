#!/bin/sh
# The summary chart (vmreport --plot) and the results page (--html) over
# many generated kernels and headlines, for a reader to look at.
#
#   sh tests/many-kernels.sh [K [H [DIR]]]
#
# Generates K labels (default 10) of 3 runs each (runN/ sub-folders),
# each run holding H benchmarks (default 20): the examples' forkbomb,
# memfill, tworead@n100 and makesim@no_load copied under variants v1, v2
# ... (bench@vJ).  Every run is results/examples/aa-1/run1 with each
# iteration's values times an effect of the label and the benchmark and
# a run's noise, from awk's rand() with a fixed seed, so the verdicts
# come out as a mix: label k1 is the baseline; in label kI, benchmark J
# is times 1 (every fifth J: the noise of a run up to +-30%, can't
# tell), 1.5, 1/1.5, 2.5 or 1.003, by (I + J) mod 5.  The rest of the
# noise is up to +-0.4% a run.  Every metric of an iteration gets the
# same factor, so a "lower is better" time and a "higher is better"
# rate move in opposite directions on the oriented chart.
#
# Then report/vmreport --plot DIR/plots and --html DIR/html over them;
# exit 0 when both succeed, gnuplot said nothing and summary.dat has
# H x (K - 1) rows.  DIR (default: a temporary folder, removed on exit)
# keeps the folders, the charts and the page.
set -e
K=${1:-10}
H=${2:-20}
ex=results/examples/aa-1/run1
[ -x report/vmreport ] || { echo "many-kernels: report/vmreport not built" >&2; exit 1; }
[ -d $ex ] || { echo "many-kernels: $ex missing" >&2; exit 1; }
case $K$H in *[!0-9]*) echo "many-kernels: K and H are counts" >&2; exit 1;; esac
[ "$K" -ge 2 ] && [ "$H" -ge 1 ] || { echo "many-kernels: K >= 2, H >= 1" >&2; exit 1; }
if [ -n "$3" ]; then
	T=$3
	mkdir -p "$T"
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/vmbench-many.XXXXXX")
	trap 'rm -rf "$T"' EXIT
	trap 'rm -rf "$T"; trap - EXIT; exit 130' INT
	trap 'rm -rf "$T"; trap - EXIT; exit 143' TERM
fi
set -- forkbomb memfill tworead@n100 makesim@no_load
i=1
while [ "$i" -le "$K" ]; do
	for r in 1 2 3; do
		d=$T/k$i/run$r
		mkdir -p "$d"
		sed -e "s/^label=.*/label=k$i/" -e "s/^run=.*/run=$r/" \
		    "$ex/meta" > "$d/meta"
		j=1
		while [ "$j" -le "$H" ]; do
			b=$(eval echo \${$(( (j - 1) % 4 + 1 ))})
			bench=${b%%@*}
			awk -v i="$i" -v j="$j" -v r="$r" -v v="v$j" '
			BEGIN {
				srand(i * 7919 + j * 104729 + r)
				split("1 1.5 0.6666667 2.5 1.003", eff)
				f = i == 1 ? 1 : eff[(i + j) % 5 + 1]
				noise = j % 5 == 0 ? 0.3 : 0.004
				f *= 1 + noise * (2 * rand() - 1)
			}
			$1 == "variant" { print "variant " v; next }
			$1 == "cmdline" || $1 == "param" { print; next }
			$1 == "iter" {
				s = $1 " " $2
				for (c = 3; c <= NF; c++)
					s = s " " ($c == "-" ? "-" : \
					    sprintf("%.10g", $c * f))
				print s
				next
			}
			{ print }' "$ex/$b.res" > "$d/$bench@v$j.res"
			j=$((j + 1))
		done
	done
	i=$((i + 1))
done
dirs=$(ls -d "$T"/k* | sort -V)
rm -rf "$T/plots" "$T/html"
# shellcheck disable=SC2086
report/vmreport --plot "$T/plots" $dirs > /dev/null
# shellcheck disable=SC2086
report/vmreport --html "$T/html" $dirs > /dev/null
fail=0
if [ -e "$T/plots/gnuplot.log" ]; then
	echo "many-kernels: gnuplot said: $(head -n 3 "$T/plots/gnuplot.log")" >&2
	fail=1
fi
rows=$(grep -c '^[0-9]' "$T/plots/summary.dat" || :)
[ "$rows" = $((H * (K - 1))) ] || {
	echo "many-kernels: summary.dat has $rows rows, not $((H * (K - 1)))" >&2
	fail=1
}
echo "many-kernels: $K kernels x $H headlines: $T/plots/summary.png," \
    "$T/html/index.html"
exit $fail
