#!/bin/sh
# make test-kernel [TEST_KERNEL=6.1.0-57-cloud-amd64]: one of Debian's
# kernel packages unpacked into a cache folder, for make boots and its
# test, without installing it on this machine:
#
#	~/.cache/vmbench/kernels/RELEASE/boot/vmlinuz-RELEASE
#	~/.cache/vmbench/kernels/RELEASE/lib/modules/RELEASE/
#
# (VMBENCH_CACHE moves ~/.cache/vmbench.)  The package comes through apt
# (apt-get download: apt's sources, no root needed for the download
# itself); `apt-cache search linux-image-6.1.0 | grep cloud` lists the
# ones there are.  Nothing is downloaded when the kernel is already in
# the cache.  The kernel's path is printed last.
set -eu
rel=${1:-6.1.0-57-cloud-amd64}
case $rel in
*[!A-Za-z0-9.+~-]* | "" | -*)
	echo "get-kernel: bad release '$rel': e.g. 6.1.0-57-cloud-amd64" >&2
	exit 2 ;;
esac
cache=${VMBENCH_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/vmbench}/kernels
dest=$cache/$rel
if [ -f "$dest/boot/vmlinuz-$rel" ]; then
	echo "$dest/boot/vmlinuz-$rel"
	exit 0
fi
for t in apt-get dpkg-deb; do
	command -v "$t" >/dev/null || {
		echo "get-kernel: $t not found (a Debian machine is needed)" >&2
		exit 1; }
done
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.get.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
# apt's sandbox user must be able to write where the package lands
chmod 755 "$tmp"
if ! (cd "$tmp" && apt-get download -q "linux-image-$rel") >"$tmp/log" 2>&1
then
	grep -v '^W: Download is performed unsandboxed' "$tmp/log" >&2 || :
	echo "get-kernel: cannot download linux-image-$rel (apt-get update" \
	    "first? apt-cache search linux-image | grep $rel)" >&2
	exit 1
fi
mkdir "$tmp/x"
dpkg-deb -x "$tmp"/linux-image-*.deb "$tmp/x"
[ -f "$tmp/x/boot/vmlinuz-$rel" ] || {
	echo "get-kernel: linux-image-$rel has no boot/vmlinuz-$rel" >&2
	exit 1; }
rm -rf "$dest"
mv "$tmp/x" "$dest"
echo "$dest/boot/vmlinuz-$rel"
