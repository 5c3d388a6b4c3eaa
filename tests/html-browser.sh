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
#    (the budget, under 2 s, judged with VB_HTML_BUDGET=1: make bench-html).
# 3. When Debian's chromium is installed: opens the page headless from
#    a file:// URL twice, in one browser (each in a frame of a page of
#    its own), in the kernels' order and with ?byvalue (the bars
#    ordered by value), takes a screenshot and dumps each page's DOM,
#    and checks that the summary and settings tables have N rows, every
#    benchmark has its section and its chart, every chart has one bar
#    per kernel that ran it, the bars by value are in order, the machine
#    warning is there, each run's warning that the machine was not quiet
#    is on the page once (in its benchmark's section; the top has one
#    line when every run was not quiet, with their count), the page's
#    script ran to its end, and the browser logged nothing from the
#    page's console (no error).  Then, in the page in the kernels'
#    order, 1400 px wide, a probe script checks that the summary table
#    starts within ~2 screens (under 2500 px down) and the computed
#    style of the summary: every best cell (one is marked in the
#    baseline's row when none is) has the same background, unlike the
#    other cells of its row.
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
i=1
while [ "$i" -le "$n" ]; do
	eval "src=\${$(( (i - 1) % 5 + 1 ))}"
	d=$T/k$i
	mkdir "$d"
	host=vm
	[ "$i" -gt $((n - 2)) ] && [ "$n" -gt 2 ] && host=otherbox
	# meta and every .res in one awk; each .res from the seed again
	awk -v seed="$i" -v d="$d" -v label="k$i" -v host="$host" '
	FNR == 1 {
		if (out != "")
			close(out)
		out = FILENAME
		sub(/.*\//, "", out)
		out = d "/" out
		srand(seed)
	}
	out ~ /\/meta$/ {
		if ($0 ~ /^label=/)
			$0 = "label=" label
		else if ($0 ~ /^hostname=/)
			$0 = "hostname=" host
		print > out
		next
	}
	$1 == "iter" {
		s = $1 " " $2
		for (j = 3; j <= NF; j++)
			s = s " " ($j == "-" ? "-" : \
			    sprintf("%.10g", $j * (0.95 + 0.1 * rand())))
		print s > out
		next
	}
	{ print > out }' "$src/meta" "$src"/*.res
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
# the budget is make bench-html's (VB_HTML_BUDGET=1), a measurement; in
# make check the time is printed, not judged (a test is not a timer)
[ "${VB_HTML_BUDGET:-0}" != 1 ] || [ "$ms" -lt 2000 ] ||
    { echo "html-browser: over the 2 s budget" >&2; fail=1; }

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
# One browser opens the page twice, each in a frame of check.html: in the
# kernels' order, 1400 px wide, where the probe (below) then measures
# the summary, and with ?byvalue, 1280 px wide.  Each frame is a copy of
# the page with a last script that, once the page has loaded, sends the
# page's DOM as it stands (what --dump-dom prints of a page) and the
# probe's figures to check.html, which keeps them as text; the browser
# dumps check.html once both are in (--virtual-time-budget: the
# messages are taken before the dump).  The probe: the summary's best
# cells, the baseline's row too (one is marked there when none is):
# their computed background differs from the other cells' of the row
# and is the same in every row; and where the summary table starts.
{
	sed '$d' "$T/html/index.html"	# </body></html>, the last line
	cat <<'EOF'
<script>window.addEventListener("load",function(){
var dom=document.documentElement.outerHTML,best="",top="";
if(!location.search){
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
best=n+" "+(bad.length?bad[0]:"ok");
top=String(t.getBoundingClientRect().top+window.scrollY|0);}
parent.postMessage({v:location.search?"byvalue":"plain",dom:dom,best:best,
 top:top},"*");});</script>
</body></html>
EOF
} > "$T/html/frame.html"
cat > "$T/html/check.html" <<'EOF'
<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>
body{margin:0}iframe{display:block;border:0}
</style></head><body><script>
window.addEventListener("message",function(e){
 var d=e.data,s=document.createElement("script");
 s.type="text/plain";
 s.textContent="\nvbh-begin "+d.v+"\n"+d.dom+"\nvbh-end "+d.v+"\n";
 document.body.appendChild(s);
 if(d.v==="plain"){document.body.setAttribute("data-best",d.best);
  document.body.setAttribute("data-summary-top",d.top);}
});
</script>
<iframe src="frame.html" width="1400" height="1600"></iframe>
<iframe src="frame.html?byvalue" width="1280" height="1600"></iframe>
</body></html>
EOF
TMPDIR="$B" timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
    --user-data-dir="$T/profile" --enable-logging=stderr --v=0 \
    --window-size=1400,1600 --screenshot="$T/browser.png" \
    --virtual-time-budget=5000 --dump-dom \
    "file://$T/html/check.html" > "$T/browser.dom" 2> "$T/browser.log" &
bpid=$!
wait "$bpid" && bpid= || {
	bpid=
	echo "html-browser: $browser failed on the page:" >&2
	tail -n 5 "$T/browser.log" >&2
	exit 1
}
bad() {
	echo "html-browser: $*" >&2
	fail=1
}
# the count of @pattern (extended regexp) in file @2
count() {
	grep -oE "$1" "$2" | wc -l
}
[ -s "$T/browser.png" ] || bad "no screenshot"
grep -q ':CONSOLE' "$T/browser.log" &&
    bad "the console logged: $(grep ':CONSOLE' "$T/browser.log" | head -n 3)"
for v in plain byvalue; do
	# the frame's DOM, between its two lines
	awk -v v="$v" '$0 == "vbh-end " v { on = 0 } on { print }
	    $0 == "vbh-begin " v { on = 1 }' "$T/browser.dom" > "$T/$v.dom"
	[ -s "$T/$v.dom" ] || { bad "$v: the page's DOM never reached" \
	    "check.html"; continue; }
	dom=$T/$v.dom
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
# the probe's figures, from the page in the kernels' order
best=$(grep -oE 'data-best="[^"]*"' "$T/browser.dom" | head -n 1 |
    sed 's/^data-best=//')
# the summary near the top: within ~2 screens at 1400 px wide
top=$(sed -n 's/.*data-summary-top="\([0-9]*\)".*/\1/p' "$T/browser.dom" |
    head -n 1)
[ -n "$top" ] && [ "$top" -lt 2500 ] ||
    bad "probe: the summary table starts ${top:-?} px down," \
    "not under 2500"
case $best in
'"0 '*|'') bad "probe: no best cell in the summary" ;;
*' ok"') ;;
*) bad "probe: best cells not marked: $best" ;;
esac
[ -n "${HTML_SHOT:-}" ] && [ -s "$T/browser.png" ] && cp "$T/browser.png" "$HTML_SHOT"
[ $fail = 0 ] && echo "html-browser: $browser: $n summary rows, $nids" \
    "sections and charts with their bars, no console errors"
exit $fail
