#!/bin/sh
# Guest side of tools/demo-builtin.sh (busybox sh, run by tools/vm/run.sh on
# a kernel with logdev built in and the probe patches of
# kernel/intree/probes/).
#   demo-builtin-guest.sh MMAPS WCHANS KBYTES SMAPS
# Records tools/demo-workload.c (MMAPS mmap/munmap, WCHANS reads of
# /proc/PID/wchan, KBYTES KiB over loopback TCP) and SMAPS reads of
# /proc/1/smaps into run.cap.  If recording is already on (logdev.enable=1
# on the kernel command line), what boot recorded is kept: `logdev record
# --no-enable`.  Saves the debugfs file list, formats and stats, and what
# the allocator is (slab.txt): "caches N" (SLUB's /sys/kernel/slab/
# entries; none under SLOB) and "sanity_checks N" (how many of them check
# every free: slub_debug=F).
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
smaps=${4:-200}
uname -r > $R/kernel.txt
cat /proc/cmdline > $R/cmdline.txt
if [ ! -d $D ]; then
	echo "demo-builtin: no $D: logdev is not in this kernel"
	exit 1
fi
ls $D > $R/files.txt
n=0 sc=0
for c in /sys/kernel/slab/*/sanity_checks; do
	[ -r "$c" ] || continue
	n=$((n + 1))
	[ "$(cat "$c")" = 1 ] && sc=$((sc + 1))
done
printf 'caches %s\nsanity_checks %s\n' $n $sc > $R/slab.txt
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up
cat > /tmp/work.sh <<EOF
/logdev/demo-workload $1 $2 $3 || exit 1
i=0
while [ \$i -lt $smaps ]; do cat /proc/1/smaps > /dev/null; i=\$((i + 1)); done
EOF
if [ "$(cat $D/enable)" = 1 ]; then
	echo "demo-builtin: recording since boot (logdev.enable=1); guest started at uptime $(cut -d' ' -f1 /proc/uptime) s"
	/logdev/logdev.static record --no-enable -o $R/run.cap -- sh /tmp/work.sh
	rc=$?
	echo 0 > $D/enable
else
	echo 4096 > $D/buffer_size_kb
	/logdev/logdev.static record -o $R/run.cap -- sh /tmp/work.sh
	rc=$?
fi
cat $D/formats > $R/formats.txt
cat $D/stats > $R/stats.txt
echo "demo-builtin: record exit $rc, $(wc -c < $R/run.cap) bytes"
exit $rc
