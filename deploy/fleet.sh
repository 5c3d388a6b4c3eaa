#!/bin/sh
# deploy/fleet.sh - make fleet: run the suite on every host of an Ansible
# inventory (deploy/fleet.yml) and put each host's result folder into the
# local results folder; see docs/fleet.md.
#
# The values come from the Makefile in the environment (VB_INVENTORY,
# VB_CONFIG, VB_MEM, VB_SWAP, VB_ITERATIONS, VB_RESULTS, VB_KERNEL,
# VB_ANSIBLE_PLAYBOOK, VB_FLEET_OPTS, VB_DEB_PKGS), are checked here, and
# reach the playbook in the environment too, never through a shell or
# Ansible's key=value parsing.  VB_FLEET_OPTS are ansible-playbook's own
# options (--limit, -K ...), split on blanks with globbing off.  Bad input: one line, exit 2.  A host that failed:
# its summary line, exit 1.
set -u

me='make fleet'
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
top=$(git rev-parse --show-toplevel 2>/dev/null) && [ "$top" = "$(pwd -P)" ] ||
    die 'not a git checkout: the hosts get the suite as committed (git' \
    'archive HEAD)'
git cat-file -e "HEAD:$cfg" 2>/dev/null || {
	[ -f "$cfg" ] && die "CONFIG '$cfg' is not committed: the hosts get" \
	    'the suite as committed; commit it first'
	die "CONFIG '$cfg': No such file in the suite"
}
ver=$(git describe --always --tags HEAD) || die 'git describe failed'
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	printf '%s: note: uncommitted changes stay here; the hosts run %s\n' \
	    "$me" "$ver" >&2
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/vmbench-fleet.XXXXXX") ||
    die 'cannot make a staging folder'
trap 'rm -rf -- "$stage"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$stage/fetch" || exit 2
git archive --format=tar.gz -o "$stage/suite.tar.gz" HEAD ||
    die 'git archive HEAD failed'

# what the playbook reads; make's own variables stay out of the hosts'
# make run when a host is this machine (ansible_connection=local)
export VB_FLEET_STAGE="$stage" VB_FLEET_RESULTS="$res" \
    VB_FLEET_CONFIG="$cfg" VB_FLEET_MEM="${VB_MEM-}" \
    VB_FLEET_SWAP="${VB_SWAP-}" VB_FLEET_ITERATIONS="${VB_ITERATIONS-}" \
    VB_FLEET_VERSION="$ver" VB_FLEET_PKGS="${VB_DEB_PKGS-}"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
set -f
# shellcheck disable=SC2086
"$pb" -i "$inv" ${VB_FLEET_OPTS-} deploy/fleet.yml
prc=$?
set +f

[ -s "$stage/status" ] || die "no host ran: the inventory names none, or" \
    "$pb stopped (exit $prc) before the summary; see its output above"

# Each status line: host, ok|failed, label, the host's folder, why.
# Put each fetched folder in place: mkdir claims the label (it fails
# when the folder exists), then the tarball is unpacked into it.
tab=$(printf '\t')
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
		elif tar -xzf "$tgz" -C "$res/$label" --strip-components=1 \
		    --no-same-owner -- "$label"; then
			got=$res/$label
		else
			rm -rf -- "${res:?}/$label"
			st=failed
			why="fetch: cannot unpack $label"
			why="$why (the host's copy is in $dir/results/$label)"
		fi
	fi
	if [ "$st" = ok ]; then
		nok=$((nok + 1))
		printf '  ran     %-14s %s -> %s\n' "$host" "$label" "$got"
	else
		nfail=$((nfail + 1))
		printf '  failed  %-14s %s%s\n' "$host" "$why" \
		    "${got:+; what it measured is in $got}"
	fi >> "$out"
done < "$stage/status"

printf '%s: %d host(s) ran, %d failed\n' "$me" "$nok" "$nfail"
cat "$out"
[ "$nfail" -eq 0 ]
