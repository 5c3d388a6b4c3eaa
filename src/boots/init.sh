#!/bin/sh
# vmboots' guest init: process 1 of every boot of make boots
# (docs/boots.md).  It loads the disk's modules, mounts the result disk
# /dev/vda (ext4) on /mnt, runs the suite there with the suite's own
# vmrun, records the boot, and powers the machine off.  The host wrote
# the job into /mnt/vmboots/ (label, config) and reads back
# /mnt/vmboots/guest and /mnt/results/; values are read with read -r
# and only ever used quoted.
PATH=/bin
HOME=/
export PATH HOME
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /mnt /tmp /run
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# vmrun keeps its state files in /run/vmbench, as on any system
mount -t tmpfs -o mode=0755,size=1m tmpfs /run
hostname vmboots

say() {
	echo "vmboots-guest: $*"
}

uptime_s() {
	read -r up idle < /proc/uptime
	echo "$up"
}

off() {
	sync
	umount /mnt 2>/dev/null
	say "power off"
	poweroff -f
	# not reached; if it were, process 1's end panics and QEMU stops
	sleep 5
	exit 1
}

fail() {
	say "failed: $*"
	[ -d /mnt/vmboots ] && echo "$*" > /mnt/vmboots/failed
	off
}

say "init at $(uptime_s) s"
for m in /vmbench/modules/*.ko; do
	[ -e "$m" ] || continue
	insmod "$m" || fail "cannot load the module ${m##*/}"
done
n=0
while [ ! -b /dev/vda ]; do
	n=$((n + 1))
	[ "$n" -le 300 ] || fail "no disk /dev/vda: the kernel lacks" \
	    "virtio_blk and no module gave it (A_MODULES=, B_MODULES=)"
	usleep 100000
done
mount -t ext4 /dev/vda /mnt || fail "cannot mount the result disk as ext4"
if [ -e /mnt/vmboots/probe ]; then
	say "probe: the guest runs"
	echo ok > /mnt/vmboots/probe
	off
fi
mkdir -p /mnt/work /mnt/results /mnt/tmp
export TMPDIR=/mnt/tmp
if [ -e /mnt/vmboots/kexec/plan ]; then
	# METHOD=qemu-kexec: this boot's part of the plan, then the jump
	# into the next kernel (the same init runs there); back here when
	# the plan is done
	/vmbench/bench/vmboots --kexec-continue /mnt/vmboots/kexec/plan
	say "kexec plan ended (exit $?)"
	off
fi
read -r label < /mnt/vmboots/label || fail "no label on the result disk"
read -r config < /mnt/vmboots/config || fail "no config on the result disk"
read -r bootid < /proc/sys/kernel/random/boot_id
{
	echo "boot_id=$bootid"
	echo "guest_release=$(uname -r)"
	echo "uptime_start=$(uptime_s)"
} > /mnt/vmboots/guest || fail "cannot write to the result disk"
say "suite start"
cd /vmbench || fail "no /vmbench"
bench/vmrun --kernel "$label" --config "$config" \
    --results /mnt/results --workdir /mnt/work
rc=$?
{
	echo "uptime_end=$(uptime_s)"
	echo "vmrun_exit=$rc"
} >> /mnt/vmboots/guest
say "suite end (vmrun exit $rc)"
off
