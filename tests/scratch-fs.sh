# tests/scratch-fs.sh - sourced by the peer comparisons (make bench-vmlat,
# make bench-tio): a fresh ext4, with its journal, on a loop device, for
# the file create and delete figures of both programs.
#
# Why: ext4 mounted without a journal (the root filesystem of some
# virtual machines) passes over, when it allocates an inode, every
# inode deleted in the last minute, or 6 min while the inode's table
# block is dirty (fs/ext4/ialloc.c, recently_deleted()).  A create then
# costs what the minutes before it deleted: one program's run pays for
# the other's deletes, and LMbench's lat_fs, run back to back in one
# folder of such a filesystem, gave 989 to 36,000 creates a second.  A
# fresh filesystem gives both programs the same start.
#
# scratch_fs DIR [INODES]
#			mounts a new ext4 (INODES inodes, 200000 by
#			default) on DIR/ext4 when run as root with
#			mkfs.ext4 and loop devices, and sets SCRATCH to
#			it; otherwise SCRATCH=DIR, with a line saying why.
#			DIR is the caller's temporary folder; it holds
#			the image, DIR/ext4.img, and while it is there a
#			file "pid" and a file "img" naming it.
# scratch_fs_done	unmounts it (the loop device goes with it) and
#			removes the image; call it before removing DIR, on
#			every path.  scratch_fs may then be called again.
# scratch_fs_stale WD	unmounts the scratch filesystems of runs under
#			WD that were killed (their pid is gone) and
#			removes their folders and images: a SIGKILL leaves
#			nothing past the next run.

SCRATCH=
SCRATCH_MNT=
SCRATCH_IMG=

scratch_fs() {
	SCRATCH=$1
	w="creates and deletes"
	if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null ||
	    ! command -v mount >/dev/null; then
		echo "$w run in $1 (a fresh ext4 needs root and mkfs.ext4)"
		return 0
	fi
	echo $$ > "$1/pid"
	SCRATCH_IMG=$1/ext4.img
	echo "$SCRATCH_IMG" > "$1/img"
	# 2G sparse; the inode tables (256 bytes an inode) written now,
	# not by ext4lazyinit during the measurements
	truncate -s 2G "$SCRATCH_IMG" &&
	mkfs.ext4 -q -F -N "${2:-200000}" \
	    -E lazy_itable_init=0,lazy_journal_init=0 \
	    "$SCRATCH_IMG" >/dev/null 2>&1 &&
	mkdir -p "$1/ext4" &&
	mount -o loop "$SCRATCH_IMG" "$1/ext4" 2>/dev/null || {
		echo "$w run in $1 (cannot mount a fresh ext4 on a loop" \
		    "device)"
		rm -f "$SCRATCH_IMG"
		SCRATCH_IMG=
		return 0
	}
	SCRATCH_MNT=$1/ext4
	SCRATCH=$SCRATCH_MNT
	echo "$w run on a fresh ext4 (loop device, with its journal):" \
	    "$SCRATCH"
}

scratch_fs_done() {
	if [ -n "$SCRATCH_MNT" ]; then
		umount "$SCRATCH_MNT" 2>/dev/null ||
		    umount -l "$SCRATCH_MNT" 2>/dev/null || :
		SCRATCH_MNT=
	fi
	if [ -n "$SCRATCH_IMG" ]; then
		rm -f "$SCRATCH_IMG"
		SCRATCH_IMG=
	fi
}

# scratch_dead DIR: DIR/pid names a process that is gone (or a zombie)
scratch_dead() {
	p=$(cat "$1/pid" 2>/dev/null) || return 1
	case $p in ''|*[!0-9]*) return 1;; esac
	! kill -0 "$p" 2>/dev/null || [ "$(sed 's/.*) //' "/proc/$p/stat" \
	    2>/dev/null | cut -d' ' -f1)" = Z ]
}

scratch_fs_stale() {
	awk '{ print $2 }' /proc/mounts | while read -r m; do
		case $m in "$1"/*/ext4) ;; *) continue;; esac
		d=${m%/ext4}
		[ -f "$d/img" ] && scratch_dead "$d" || continue
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
		    continue
		rm -f "$(cat "$d/img")"
		rm -rf "$d"
		echo "removed $d, left by a run that was killed"
	done
	# killed before it mounted: the image and the folder
	for i in "$1"/*/img; do
		[ -f "$i" ] || continue
		d=${i%/img}
		grep -q " $d/ext4 " /proc/mounts && continue
		scratch_dead "$d" || continue
		rm -f "$(cat "$i")"
		rm -rf "$d"
		echo "removed $d, left by a run that was killed"
	done
}
