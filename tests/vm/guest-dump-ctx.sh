#!/bin/sh
# Guest side of the crash dump's deltas by context (check-dump-ctx.sh):
# logdev_test's task/softirq/hardirq/NMI writers record on every CPU, then
# sysrq 'a' dumps the last 200 records of each CPU; the console keeps the
# dump, dmesg.txt a copy.  No crash.
#   guest-dump-ctx.sh ITERATIONS
iters=${1:-300}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
R=${RESULTS:-/results}
P=vm-dump-ctx
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh
insmod /logdev/logdev.ko dump_records=200 || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
echo 1 > $D/enable
echo "$iters" > $T/run || fail "run $iters"
echo 0 > $D/enable
echo "logdev-dump-test: sysrq ctx"
echo a > /proc/sysrq-trigger
echo "logdev-dump-test: sysrq done"
dmesg > $R/dmesg.txt
true
