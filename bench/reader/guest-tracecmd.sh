#!/bin/sh
# Guest side of bench/reader/run.sh: guest-tracecmd.sh NR_PER_CPU BUF_KB
# trace_printk("bench %d %d") NR_PER_CPU times on every CPU into a buffer
# large enough to keep them all, then `trace-cmd extract` to
# $RESULTS/trace.dat.  trace-cmd and its shared libraries are in /logdev.
npc=${1:-500000}
kb=${2:-32768}
R=${RESULTS:-/results}
T=/sys/kernel/debug/tracing
insmod /logdev/logdev.ko || exit 1
insmod /logdev/logdev_bench.ko nr="$npc" || exit 1
echo "$kb" > $T/buffer_size_kb || exit 1
echo > $T/trace
echo tp2 > /sys/kernel/debug/logdev_bench/run || exit 1
cat $T/per_cpu/cpu*/stats > $R/ftstats.txt
cd /tmp
LD_LIBRARY_PATH=/logdev /logdev/ld-linux-x86-64.so.2 /logdev/trace-cmd extract -o $R/trace.dat
rc=$?
ls -l $R/trace.dat
exit $rc
