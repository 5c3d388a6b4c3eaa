#!/bin/sh
# doc-help.sh PROG... - rewrite the --help blocks of docs/*.md (make docs).
#
# A block is the text between the lines
#	<!-- help: KEY (make docs) -->
#	<!-- end help: KEY -->
# where KEY is a program's path (bench/forkbomb, report/vmreport) or
# "common".  A program's block is its `--help` output, in a ``` fence,
# without its "Common options:" paragraph (the options every benchmark
# shares); the "common" block is that paragraph, once.  A program with no
# block in any file (and the common paragraph, if no file has it) gets one
# at the end of docs/benchmarks.md.
# tests/check_docs.c fails when a block and the program differ.  DOCS=dir
# works on another folder than docs/ (the tests use it).
set -eu

docs=${DOCS:-docs}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vmbench-doc-help.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# the key as a file name in $tmp, into $kf: bench/forkbomb -> bench_forkbomb
# (in the shell itself: a subshell and tr each time cost a third of the run)
keyfile() {
	kf='' k=$1
	while :; do
		case $k in
		*/*)	kf=$kf${k%%/*}_ k=${k#*/};;
		*)	kf=$tmp/$kf$k; return;;
		esac
	done
}

: > "$tmp/keys"
for p in "$@"; do
	if ! "./$p" --help > "$tmp/out" 2> "$tmp/err"; then
		echo "doc-help: ./$p --help failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
	# the program's text without the common paragraph (up to and
	# including the blank line after it)
	keyfile "$p"
	awk '/^Common options:$/ { skip = 1 }
	    skip && /^$/ { skip = 0; next }
	    !skip' "$tmp/out" > "$kf"
	keyfile common
	if [ ! -s "$kf" ]; then
		awk '/^Common options:$/ { on = 1 }
		    on && /^$/ { exit }
		    on' "$tmp/out" > "$kf"
	fi
	printf '%s\n' "$p" >> "$tmp/keys"
done

# a program without a block: a new section at the end of benchmarks.md
keyfile common
[ -s "$kf" ] && echo common >> "$tmp/keys"
for p in $(cat "$tmp/keys"); do
	if ! grep -qxF "<!-- help: $p (make docs) -->" "$docs"/*.md; then
		{
			printf '\n## %s\n\n' "${p##*/}"
			printf '<!-- help: %s (make docs) -->\n' "$p"
			printf '<!-- end help: %s -->\n' "$p"
		} >> "$docs/benchmarks.md"
		echo "doc-help: $p: new block at the end of" \
		    "$docs/benchmarks.md" >&2
	fi
done

for f in "$docs"/*.md; do
	awk -v dir="$tmp" '
	function put(key,   file, line) {
		file = key
		gsub("/", "_", file)
		file = dir "/" file
		if ((getline line < file) < 0) {
			printf "doc-help: %s:%d: no program %s\n", FILENAME,
			    FNR, key > "/dev/stderr"
			bad = 1
			exit 1
		}
		print "```"
		do
			print line
		while ((getline line < file) > 0)
		close(file)
		print "```"
	}
	/^<!-- help: [^ ]+ \(make docs\) -->$/ {
		if (inside) {
			printf "doc-help: %s:%d: no \"<!-- end help: %s -->\"" \
			    " before this block\n", FILENAME, FNR, key \
			    > "/dev/stderr"
			bad = 1
			exit 1
		}
		print
		key = $3
		put(key)
		inside = 1
		next
	}
	inside && $0 == "<!-- end help: " key " -->" { inside = 0 }
	!inside
	END {
		if (inside && !bad) {
			printf "doc-help: %s: no \"<!-- end help: %s -->\"\n",
			    FILENAME, key > "/dev/stderr"
			exit 1
		}
	}' "$f" > "$tmp/doc"
	cmp -s "$tmp/doc" "$f" || { cat "$tmp/doc" > "$f"; echo "  DOCS    $f"; }
done
