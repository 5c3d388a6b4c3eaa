#!/bin/sh
# deploy/fleet.sh - make fleet: run the suite on every host of an Ansible
# inventory (deploy/fleet.yml) and put each host's result folder into the
# local results folder; see docs/fleet.md.  `deploy/fleet.sh fetch` (make
# fleet-fetch) runs nothing: it fetches each host's existing folder for
# its label, for a make fleet that was interrupted or lost its hosts.
#
# The values come from the Makefile in the environment (VB_INVENTORY,
# VB_CONFIG, VB_MEM, VB_SWAP, VB_ITERATIONS, VB_RESULTS, VB_KERNEL,
# VB_ANSIBLE_PLAYBOOK, VB_FLEET_OPTS, VB_DEB_PKGS), are checked here, and
# reach the playbook in the environment too, never through a shell or
# Ansible's key=value parsing.  VB_FLEET_OPTS are ansible-playbook's own
# options (--limit, -K ...), split on blanks with globbing off.  Bad
# input: one line, exit 2.  A host that failed: its summary line, exit 1.
#
# The staging folder (the packed suite, the fetched tarballs) is removed
# on every way out: exit, SIGINT, SIGTERM, SIGHUP; SIGPIPE is ignored, so
# a closed output stops this script's printing, not its unpacking or the
# cleanup.  Ansible writes into two relays (its output and its errors)
# that copy to ours and, once ours is closed, read on to the end: a
# closed output (make fleet | head) never ends Ansible, whose runs go on
# and are fetched.  A signal prints one line: the runs already started
# go on on their hosts, and make fleet-fetch brings them back.
set -u

mode=run me='make fleet'
case ${1-} in
fetch)	mode=fetch me='make fleet-fetch';;
esac
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 2; }

# a path without control characters, braces or percent signs (which
# Ansible would read as its own template syntax)
plain_path() {
	case $2 in
	*[[:cntrl:]]*|*[{}%]*) die "$1 '$2': a control character, {, }" \
	    'or % in a path';;
	esac
}

inv=${VB_INVENTORY-}
[ -n "$inv" ] || die 'name the hosts: INVENTORY=hosts.ini (an Ansible' \
    'inventory; see docs/fleet.md)'
plain_path INVENTORY "$inv"
[ -e "$inv" ] || die "inventory '$inv': No such file or directory"
{ [ -f "$inv" ] || [ -d "$inv" ]; } && [ -r "$inv" ] ||
    die "inventory '$inv': not a readable file or folder"

[ -z "${VB_KERNEL-}" ] || die "KERNEL does not apply: each host's label" \
    'is its vmbench_label (default: host name-uname -r); see docs/fleet.md'

if [ "$mode" = fetch ]; then
	# what ran is what is fetched: nothing here would change it (CONFIG
	# has a default in the Makefile, so it is not told from one given)
	for v in "MEM=${VB_MEM-}" "SWAP=${VB_SWAP-}" \
	    "ITERATIONS=${VB_ITERATIONS-}"; do
		[ -z "${v#*=}" ] || die "${v%%=*} does not apply: make" \
		    'fleet-fetch runs nothing, it fetches what ran'
	done
fi

cfg=${VB_CONFIG:-configs/quick.conf}
cfg=${cfg#./}
plain_path CONFIG "$cfg"
case $cfg in
/*|../*|*/../*|*/..|..) die "CONFIG '$cfg': name a config inside the" \
    'suite, like configs/quick.conf';;
esac

# sizes and counts: vmrun checks them on each host; here only that they
# are plain words
for v in "MEM=${VB_MEM-}" "SWAP=${VB_SWAP-}"; do
	case ${v#*=} in
	*[!0-9A-Za-z.%]*) die "${v%%=*} '${v#*=}': not a size like 512M";;
	esac
done
case ${VB_ITERATIONS-} in
*[!0-9]*) die "ITERATIONS '$VB_ITERATIONS': not a whole number";;
esac

res=${VB_RESULTS:-results}
plain_path RESULTS "$res"
[ -d "$res" ] || die "RESULTS '$res': No such directory"
res=$(cd -- "$res" && pwd -P) || die "RESULTS '$res': cannot enter it"

pb=${VB_ANSIBLE_PLAYBOOK:-ansible-playbook}
command -v "$pb" >/dev/null 2>&1 || die "$pb: not found; install Ansible:" \
    'sudo apt-get install -y ansible'

# the suite the hosts get: HEAD, as committed
if [ "$mode" = run ]; then
	top=$(git rev-parse --show-toplevel 2>/dev/null) &&
	    [ "$top" = "$(pwd -P)" ] || die 'not a git checkout: the hosts' \
	    'get the suite as committed (git archive HEAD)'
	git cat-file -e "HEAD:$cfg" 2>/dev/null || {
		[ -f "$cfg" ] && die "CONFIG '$cfg' is not committed: the" \
		    'hosts get the suite as committed; commit it first'
		die "CONFIG '$cfg': No such file in the suite"
	}
fi

# The hosts, as ansible-playbook sees them (inventory and --limit), before
# any is contacted (--list-hosts asks no password): the first play's
# "hosts (N):" line.
set -f
# shellcheck disable=SC2086
hl=$("$pb" -i "$inv" ${VB_FLEET_OPTS-} --list-hosts deploy/fleet.yml 2>&1)
lrc=$?
set +f
[ "$lrc" -eq 0 ] || die "$pb --list-hosts (exit $lrc): $(printf '%s\n' \
    "$hl" | sed '/^[[:space:]]*$/d' | tail -n 1)"
nhosts=$(printf '%s\n' "$hl" |
    sed -n 's/^[[:space:]]*hosts (\([0-9]*\)):[[:space:]]*$/\1/p' |
    head -n 1)
# the names, one a line, for the summary
hosts=$(printf '%s\n' "$hl" | awk '
	/^[[:space:]]*hosts \([0-9]+\):/ { if (n++) exit; on = 1; next }
	on && NF == 0 { exit }
	on { print $1 }')
[ "${nhosts:-0}" -gt 0 ] || die "inventory '$inv': no hosts in it (an" \
    'empty file or group, or a file Ansible cannot read; see' \
    "ansible-inventory -i '$inv' --graph)"
# the version the hosts run, once they are known (two git runs, ~30 ms,
# that a refused inventory or option need not wait for)
ver='' dirty=''
if [ "$mode" = run ]; then
	ver=$(git describe --always --tags HEAD) || die 'git describe failed'
	dirty=$(git status --porcelain --untracked-files=no 2>/dev/null)
fi
if [ -n "$dirty" ]; then
	printf '%s: note: uncommitted changes stay here; the hosts run %s\n' \
	    "$me" "$ver" >&2
fi

# A word as the shell would read it back: quoted when it is not plain.
shword() {
	case $1 in
	''|*[!A-Za-z0-9_./:@%+=,-]*)
		printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")";;
	*)	printf '%s' "$1";;
	esac
}

# The one line a signal prints (after the cleanup: output is a courtesy).
stopped_line() {
	if [ "$mode" = fetch ]; then
		printf '%s: stopped by SIG%s; the folders already in %s' \
		    "$me" "$1" "$res"
		printf ' stay, run it again for the rest\n'
		return
	fi
	printf '%s: stopped by SIG%s; the runs already started go on on' \
	    "$me" "$1"
	printf ' their hosts; when they end, fetch them: make fleet-fetch'
	printf ' INVENTORY=%s' "$(shword "$inv")"
	[ -z "${VB_RESULTS-}" ] ||
	    printf ' RESULTS=%s' "$(shword "$VB_RESULTS")"
	[ -z "${VB_FLEET_OPTS-}" ] ||
	    printf ' FLEET_OPTS=%s' "$(shword "$VB_FLEET_OPTS")"
	printf '\n'
}

# Remove the staging folder and a folder being unpacked.
cleanup() {
	[ -z "$partial" ] || rm -rf -- "$partial"
	[ -z "$stage" ] || rm -rf -- "$stage"
	partial='' stage=''
}

# The way out on signal $1, exit status $2.
stopped() {
	trap '' HUP INT TERM
	cleanup
	stopped_line "$1" >&2 2>/dev/null
	exit "$2"
}

partial='' stage=''
trap cleanup EXIT
trap 'stopped HUP 129' HUP
trap 'stopped INT 130' INT
trap 'stopped TERM 143' TERM
trap '' PIPE
stage=$(mktemp -d "${TMPDIR:-/tmp}/vmbench-fleet.XXXXXX") ||
    die 'cannot make a staging folder'
mkdir "$stage/fetch" || exit 2
if [ "$mode" = run ]; then
	git archive --format=tar.gz -o "$stage/suite.tar.gz" HEAD ||
	    die 'git archive HEAD failed'
fi

# what the playbook reads; make's own variables stay out of the hosts'
# make run when a host is this machine (ansible_connection=local)
export VB_FLEET_MODE="$mode" VB_FLEET_STAGE="$stage" \
    VB_FLEET_RESULTS="$res" VB_FLEET_CONFIG="$cfg" \
    VB_FLEET_MEM="${VB_MEM-}" VB_FLEET_SWAP="${VB_SWAP-}" \
    VB_FLEET_ITERATIONS="${VB_ITERATIONS-}" VB_FLEET_VERSION="$ver" \
    VB_FLEET_PKGS="${VB_DEB_PKGS-}"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# Copy the input to the output; once the output is closed, read the rest
# and drop it, so that the writer never sees a closed pipe.  A signal
# ends Ansible, and so the relay (at end-of-file), not the relay first.
relay() {
	trap '' HUP INT TERM
	cat
	cat >/dev/null
}

# Ansible colours a terminal only; through the relays, say it is one
if [ -t 1 ] && [ -z "${ANSIBLE_NOCOLOR-}${NO_COLOR-}" ]; then
	export ANSIBLE_FORCE_COLOR="${ANSIBLE_FORCE_COLOR:-1}"
fi
set -f
# its output into one relay (to ours), its errors into the other (to our
# errors), its exit status into a file (a pipeline's is the last one's);
# the subshells between wait for it through a signal (a caught one is
# the default again in Ansible), so that we stop after it has
{
	trap : HUP INT TERM
	{
		trap : HUP INT TERM
		# shellcheck disable=SC2086
		"$pb" -i "$inv" ${VB_FLEET_OPTS-} deploy/fleet.yml
		echo "$?" > "$stage/prc"
	} 2>&1 >&3 3>&- | relay >&2
} 3>&1 | relay
set +f
prc=$(cat "$stage/prc" 2>/dev/null) || prc=1

# Each status line: host, ok|failed, label, the host's folder, why (for
# a folder fetched by make fleet-fetch: its meta status), in the
# inventory's order; then the hosts without one (lost, or Ansible
# stopped), which did not finish.
tab=$(printf '\t')
: >> "$stage/status"
printf '%s\n' "$hosts" | awk -F "$tab" -v OFS="$tab" -v rc="$prc" \
    -v pb="$pb" -v f="$stage/status" '
	BEGIN { while ((getline l < f) > 0) { split(l, a); st[a[1]] = 1
		print l } }
	NF && !($1 in st) { print $1, "failed", "-", "-", "did not" \
	    " finish (" pb " exit " rc "); see its output above" }
    ' > "$stage/status.all"

# Put each fetched folder in place: mkdir claims the label (it fails
# when the folder exists), then the tarball is unpacked into it.
nok=0 nfail=0
out=$stage/summary
: > "$out"
while IFS=$tab read -r host st label dir why; do
	tgz=$stage/fetch/$label.tar.gz
	got=
	if [ "$label" != - ] && [ -f "$tgz" ]; then
		if ! mkdir -- "$res/$label" 2>/dev/null; then
			st=failed
			why="fetch: $res/$label exists; not overwritten"
			why="$why (the host's copy is in $dir/results/$label)"
		else
			partial=$res/$label
			if tar -xzf "$tgz" -C "$res/$label" \
			    --strip-components=1 --no-same-owner -- "$label"
			then
				got=$res/$label
			else
				rm -rf -- "${res:?}/$label"
				st=failed
				why="fetch: cannot unpack $label"
				why="$why (the host's copy is in"
				why="$why $dir/results/$label)"
			fi
			partial=
		fi
	fi
	if [ "$st" = ok ] && [ "$mode" = fetch ]; then
		nok=$((nok + 1))
		printf '  fetched %-14s %s (%s) -> %s\n' "$host" "$label" \
		    "$why" "$got"
	elif [ "$st" = ok ]; then
		nok=$((nok + 1))
		printf '  ran     %-14s %s -> %s\n' "$host" "$label" "$got"
	else
		nfail=$((nfail + 1))
		printf '  failed  %-14s %s%s\n' "$host" "$why" \
		    "${got:+; what it measured is in $got}"
	fi >> "$out"
done < "$stage/status.all"

if [ "$mode" = fetch ]; then
	printf '%s: %d host(s) fetched, %d failed\n' "$me" "$nok" "$nfail"
else
	printf '%s: %d host(s) ran, %d failed\n' "$me" "$nok" "$nfail"
fi
cat "$out"
[ "$nfail" -eq 0 ]
