#!/bin/sh
# The results page (vmreport --html) over many kernels, in a real browser.
#
#   sh tests/html-browser.sh [N]     N folders (default 50)
#
# 1. Generates N result folders from results/examples/*: folder kI is a
#    copy of example-a..e in turn, every measured value scaled by a
#    random factor in [0.95, 1.05) (seed I), label kI; the last two say
#    they ran on another host, so the page must warn that the folders
#    come from two machines.
# 2. Renders them with report/vmreport --html, timed with the wall clock
#    (the budget: under 2 s).
# 3. When Debian's chromium is installed: opens the page headless from
#    a file:// URL, takes a screenshot and dumps the DOM, twice (in the
#    kernels' order, and with ?byvalue, the bars ordered by value), and
#    checks that the summary and settings tables have N rows, every
#    benchmark has its section and its chart, every chart has one bar
#    per kernel that ran it, the bars by value are in order, the machine
#    warning is there, each run's warning that the machine was not quiet
#    is on the page once (in its benchmark's section; the top has one
#    line when every run was not quiet, with their count), the page's
#    script ran to its end, and the browser logged nothing from the
#    page's console (no error).  Then a copy of the page with a probe
#    script, 1400 px wide, checks that the summary table starts within
#    ~2 screens (under 2500 px down) and the computed style of the
#    summary: every best cell (one is marked in the baseline's row when
#    none is) has the same background, unlike the other cells of its row.
#
# Exit 0: passed; 1: failed (one line per failure); 77: chromium missing
# (steps 1 and 2 still ran); 130 (143): stopped by SIGINT (SIGTERM), the
# browser killed and the temporary folder removed.  HTML_SHOT=FILE keeps
# the screenshot (PNG); HTML_KEEP=1 keeps the temporary folder.  The
# folders live in a temporary folder under $TMPDIR (default /tmp),
# removed on exit; the browser's own temporary files go to a short
# folder /tmp/vbh.XXXXXX, removed on exit too.
set -e
n=${1:-50}
ex=results/examples
[ -x report/vmreport ] || { echo "html-browser: report/vmreport not built" >&2; exit 1; }
[ -d $ex/example-a ] || { echo "html-browser: $ex/example-a missing" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/vmbench-html.XXXXXX")
# the browser's own temporary files (its singleton socket, whose path
# must fit a socket address's 108 bytes) go to a short folder in /tmp
B=
# the browser runs in the background (its own process group, made by
# timeout) while the script waits for it: a signal stops both at once
bpid=
stop() {
	if [ -n "$bpid" ]; then
		kill -TERM "-$bpid" 2> /dev/null || :
		wait "$bpid" 2> /dev/null || :
	fi
	[ -n "$B" ] && rm -rf "$B"
	[ "${HTML_KEEP:-0}" = 1 ] || rm -rf "$T"
}
trap 'stop' EXIT
trap 'trap - EXIT; stop; exit 130' INT
trap 'trap - EXIT; stop; exit 143' TERM
set -- $ex/example-a $ex/example-b $ex/example-c $ex/example-d $ex/example-e
srcs="$*"
i=1
while [ "$i" -le "$n" ]; do
	j=$(( (i - 1) % 5 + 1 ))
	src=$(echo $srcs | cut -d' ' -f$j)
	d=$T/k$i
	mkdir "$d"
	host=vm
	[ "$i" -gt $((n - 2)) ] && [ "$n" -gt 2 ] && host=otherbox
	sed -e "s/^label=.*/label=k$i/" -e "s/^hostname=.*/hostname=$host/" \
	    "$src/meta" > "$d/meta"
	for f in "$src"/*.res; do
		awk -v seed="$i" 'BEGIN { srand(seed) }
		$1 == "iter" {
			s = $1 " " $2
			for (j = 3; j <= NF; j++)
				s = s " " ($j == "-" ? "-" : \
				    sprintf("%.10g", $j * (0.95 + 0.1 * rand())))
			print s
			next
		}
		{ print }' "$f" > "$d/${f##*/}"
	done
	i=$((i + 1))
done
dirs=$(ls -d "$T"/k* | sort -V)
nids=$(ls "$ex"/example-*/*.res | sed 's,.*/,,' | sort -u | wc -l)

# 2. the time to render
t0=$(date +%s%N)
# shellcheck disable=SC2086
report/vmreport --html "$T/html" $dirs > "$T/out"
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
echo "html-browser: $n folders x $nids benchmarks rendered in $ms ms" \
    "($(wc -c < "$T/html/index.html") bytes; load average" \
    "$(cut -d' ' -f1 /proc/loadavg))"
fail=0
[ "$ms" -lt 2000 ] || { echo "html-browser: over the 2 s budget" >&2; fail=1; }

# 3. the browser
browser=
for b in chromium chromium-browser; do
	command -v $b > /dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
	echo "html-browser: skipped the browser test: no chromium" \
	    "(apt-get install chromium)"
	[ $fail = 0 ] && exit 77
	exit 1
fi
B=$(mktemp -d /tmp/vbh.XXXXXX)
# $1: URL suffix, $2: name, $3: page (index.html), $4: window width
# (1280); writes $T/$2.dom, $T/$2.log, $T/$2.png
load() {
	TMPDIR="$B" timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$T/profile" --enable-logging=stderr --v=0 \
	    --window-size="${4:-1280}",1600 --screenshot="$T/$2.png" \
	    --dump-dom \
	    "file://$T/html/${3:-index.html}$1" > "$T/$2.dom" 2> "$T/$2.log" &
	bpid=$!
	wait "$bpid" && bpid= || {
		bpid=
		echo "html-browser: $browser failed on the page$1:" >&2
		tail -n 5 "$T/$2.log" >&2
		return 1
	}
}
bad() {
	echo "html-browser: $*" >&2
	fail=1
}
# the count of @pattern (extended regexp) in file @2
count() {
	grep -oE "$1" "$2" | wc -l
}
for v in plain byvalue; do
	q=; [ $v = byvalue ] && q='?byvalue'
	load "$q" $v || { fail=1; continue; }
	dom=$T/$v.dom
	[ -s "$T/$v.png" ] || bad "$v: no screenshot"
	grep -q ':CONSOLE' "$T/$v.log" &&
	    bad "$v: the console logged: $(grep ':CONSOLE' "$T/$v.log" | head -n 3)"
	grep -q '<body[^>]*data-ready="1"' "$dom" ||
	    bad "$v: the page's script did not run to its end"
	grep -q 'data-errors=' "$dom" && bad "$v: script errors on the page"
	# the rows of the summary and settings tables
	k=$(count '<tr class="k( base)?" data-k="[0-9]+"' "$dom")
	[ "$k" = "$n" ] || bad "$v: $k summary rows, not $n"
	k=$(awk '/<table id="settings-table">/,/<\/table>/' "$dom" |
	    grep -oE '<tr( class="base")?><td>' | wc -l)
	[ "$k" = "$n" ] || bad "$v: $k settings rows, not $n"
	k=$(count '<section class="bench"' "$dom")
	[ "$k" = "$nids" ] || bad "$v: $k benchmark sections, not $nids"
	k=$(count '<svg class="chart"' "$dom")
	[ "$k" = "$nids" ] || bad "$v: $k charts, not $nids"
	grep -q 'id="machine-warning"' "$dom" ||
	    bad "$v: no warning that the folders come from two machines"
	# each run's warning that the machine was not quiet: once, in its
	# benchmark's section; at the top one line when all of them were
	awk '/<pre class="(warn|load)">/,/<\/pre>/' "$dom" |
	    grep -oE 'warning: [^ ]+ on k[0-9]+: the machine' | sort |
	    uniq -c > "$T/quiet"
	k=$(awk '$1 > 1' "$T/quiet" | wc -l)
	w=$(wc -l < "$T/quiet")
	[ "$k" = 0 ] || bad "$v: $k warnings not quiet shown more than" \
	    "once: $(awk '$1 > 1' "$T/quiet" | head -n 1)"
	k=$(awk '/<pre class="load">/,/<\/pre>/' "$dom" |
	    count ' on k[0-9]+:' -)
	[ "$k" = 0 ] || bad "$v: $k runs' warnings at the top of the page"
	all=$(tr '\n' ' ' < "$dom" | tr -s ' ' |
	    sed -n 's/.*not quiet in all \([0-9]*\) benchmark run.*/\1/p')
	[ -z "$all" ] || [ "$all" = "$w" ] ||
	    bad "$v: the top says $all runs were not quiet, the sections $w"
	# every chart: one bar per kernel with a value, none missing here;
	# by value: the rows' y in the order of their values, best first
	awk -v n="$n" -v v="$v" '
	function check() {
		if (!inside)
			return
		if (bars != rows || rows != n)
			printf "html-browser: %s: chart %d has %d bars for %d " \
			    "kernels with a value, %d wanted\n", v, c, bars,
			    rows, n
		if (v == "byvalue" && unordered)
			printf "html-browser: byvalue: chart %d is not in " \
			    "order of value\n", c
		inside = 0
	}
	{
		line = $0
		while (match(line, /<svg class="chart"|<g class="row[^"]*"[^>]*>|<rect class="bar|<\/svg>/)) {
			tok = substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH)
			if (tok ~ /^<svg/) {
				c++; inside = 1; bars = rows = 0
				unordered = 0; delete val
				dir = "higher"
				if (match(line, /data-dir="[a-z]+"/))
					dir = substr(line, RSTART + 10,
					    RLENGTH - 11)
			} else if (tok ~ /^<\/svg/) {
				check()
			} else if (tok ~ /^<rect/) {
				bars++
			} else if (tok ~ /missing/) {
				continue
			} else {
				rows++
				match(tok, /data-v="[^"]*"/)
				x = substr(tok, RSTART + 8, RLENGTH - 9) + 0
				match(tok, /translate\(0,[0-9.]+\)/)
				y = substr(tok, RSTART + 12, RLENGTH - 13) + 0
				val[y] = x
				# lower is better: smaller values higher up
				sg = dir == "lower" ? 1 : -1
				for (yy in val) {
					if (yy + 0 < y && sg * (val[yy] - x) > 0)
						unordered = 1
					if (yy + 0 > y && sg * (val[yy] - x) < 0)
						unordered = 1
				}
			}
		}
	}
	END { check() }' "$dom" > "$T/charts.err"
	if [ -s "$T/charts.err" ]; then
		head -n 5 "$T/charts.err" >&2
		fail=1
	fi
done
# the summary's best cells, the baseline's row too (one is marked there
# when none is): their computed background differs from the other
# cells' of the row and is the same in every row
{
	sed '$d' "$T/html/index.html"	# </body></html>, the last line
	cat <<'EOF'
<script>(function(){
var t=document.getElementById("summary-table"),b=t.querySelector("tr.base");
var bad=[],bg=null,n=0;
if(!b.querySelector("td.best"))b.cells[1].className+=" best";
[].forEach.call(t.querySelectorAll("tbody tr"),function(r){
 [].forEach.call(r.querySelectorAll("td.best"),function(c){
  var v=getComputedStyle(c).backgroundColor;n++;if(bg===null)bg=v;
  if(v!==bg)bad.push(r.cells[0].textContent+": "+v+", not "+bg);
  [].forEach.call(r.cells,function(o){
   if(o.cellIndex>0&&!o.classList.contains("best")&&
    getComputedStyle(o).backgroundColor===v)
    bad.push(r.cells[0].textContent+": a best cell looks like the others");
  });});});
document.body.setAttribute("data-best",n+" "+(bad.length?bad[0]:"ok"));
document.body.setAttribute("data-summary-top",
 t.getBoundingClientRect().top+window.scrollY|0);
})();</script>
</body></html>
EOF
} > "$T/html/probe.html"
if load '' probe probe.html 1400; then
	best=$(grep -oE 'data-best="[^"]*"' "$T/probe.dom" | sed 's/^data-best=//')
	# the summary near the top: within ~2 screens at 1400 px wide
	top=$(sed -n 's/.*data-summary-top="\([0-9]*\)".*/\1/p' "$T/probe.dom")
	[ -n "$top" ] && [ "$top" -lt 2500 ] ||
	    bad "probe: the summary table starts ${top:-?} px down," \
	    "not under 2500"
	case $best in
	'"0 '*|'') bad "probe: no best cell in the summary" ;;
	*' ok"') ;;
	*) bad "probe: best cells not marked: $best" ;;
	esac
else
	fail=1
fi
[ -n "${HTML_SHOT:-}" ] && [ -s "$T/plain.png" ] && cp "$T/plain.png" "$HTML_SHOT"
[ $fail = 0 ] && echo "html-browser: $browser: $n summary rows, $nids" \
    "sections and charts with their bars, no console errors"
exit $fail
