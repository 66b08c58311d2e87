#!/bin/sh
# Guest side of tools/demo-compare.sh (busybox sh, run by tools/vm/run.sh).
#   demo-compare-guest.sh MMAPS WCHANS KBYTES
# Attaches logdev probes on the allocator, mmap/munmap, TLB flush, page
# fault and kallsyms paths (those this kernel has), records demo-workload
# (tools/demo-workload.c) into run.cap, and saves the probe listing.
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
insmod /logdev/logdev.ko || exit 1
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up
echo 8192 > $D/buffer_size_kb
for spec in kfree_skbmem kmem_cache_free kfree __kmalloc r:do_mmap r:__do_munmap \
	r:do_mas_munmap r:do_vmi_munmap r:flush_tlb_mm_range r:handle_mm_fault \
	r:kallsyms_lookup r:lookup_symbol_name r:kallsyms_lookup_buildid; do
	sym=${spec#r:}
	if ! grep -q " $sym\$" /proc/kallsyms; then
		echo "demo-compare: $(uname -r) has no $sym"
		continue
	fi
	echo "$spec" >> $D/probes || echo "demo-compare: $spec refused"
done
cat $D/probes > $R/probes-attached.txt
uname -r > $R/kernel.txt
/logdev/logdev.static record -o $R/run.cap -- /logdev/demo-workload "$@"
rc=$?
cat $D/probes > $R/probes.txt
cat $D/stats > $R/stats.txt
: > $D/probes
rmmod logdev
exit $rc
