#!/bin/sh
# vmboots' guest init: process 1 of every boot of make boots
# (docs/boots.md).  It loads the disk's modules, mounts the result disk
# /dev/vda (ext4) on /mnt, runs the suite there with the suite's own
# vmrun, records the boot, and powers the machine off.  The host wrote
# the job into /mnt/vmboots/ (label, config) and reads back
# /mnt/vmboots/guest and /mnt/results/; values are read with read -r
# and only ever used quoted.  The host stops a boot (Ctrl-C, SIGTERM,
# its timeout) with the word "stop" on the second serial port,
# /dev/ttyS1: the suite is ended as on Ctrl-C (vmrun marks what ran
# interrupted), and what it wrote is flushed to the disk before the
# machine powers off; /mnt/vmboots/synced says it was.
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
	if [ -d /mnt/vmboots ]; then
		echo synced > /mnt/vmboots/synced
		sync
	fi
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

# the host's "stop" on /dev/ttyS1: end the suite (its pid in
# /run/suite.pid), which returns to the end below
watch_stop() {
	stty -F /dev/ttyS1 raw -echo 2>/dev/null || return
	while read -r word < /dev/ttyS1; do
		[ "$word" = stop ] || continue
		: > /run/stop
		say "stopped by the host"
		[ -s /run/suite.pid ] && kill -TERM "$(cat /run/suite.pid)"
		return
	done
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
if [ -e /mnt/vmboots/kvmcheck ]; then
	say "kvmcheck: the guest runs"
	echo ok > /mnt/vmboots/kvmcheck
	off
fi
watch_stop &
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
[ -e /run/stop ] && off
# in the background, so that the watcher can end it; SIGTERM, which a
# background job does not ignore, ends it as Ctrl-C does
bench/vmrun --kernel "$label" --config "$config" \
    --results /mnt/results --workdir /mnt/work &
echo $! > /run/suite.pid
[ -e /run/stop ] && kill -TERM $!
wait $!
rc=$?
{
	echo "uptime_end=$(uptime_s)"
	echo "vmrun_exit=$rc"
} >> /mnt/vmboots/guest
say "suite end (vmrun exit $rc)"
off
