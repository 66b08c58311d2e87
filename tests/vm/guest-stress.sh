#!/bin/sh
# Guest side of the control-write stress (issue 7, fault 4): logdev_test's
# writers in task, softirq, hardirq and NMI context on every CPU, one
# consuming reader per CPU, and control writes hammered meanwhile (enable 0/1,
# flush, clear, buffer_size_kb, subbuf_size, mode, clock); see the stress
# part of tests/vm/vmtool.c for what is checked.  The host runner checks
# that the guest did not wedge and that the kernel log has no WARN, BUG or
# lockdep report.
#   guest-stress.sh SECONDS ITERS SEED
secs=${1:-20} iters=${2:-2000} seed=${3:-1}
insmod /logdev/logdev.ko || { echo "FAIL: vm-stress: insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { echo "FAIL: vm-stress: insmod logdev_test.ko"; exit 1; }
chmod +x /logdev/vmtool
/logdev/vmtool stress "$secs" "$iters" "$seed"
rc=$?
cat /sys/kernel/debug/logdev/stats > "${RESULTS:-/results}/stats.txt"
rmmod logdev_test || { echo "FAIL: vm-stress: rmmod logdev_test"; rc=1; }
rmmod logdev || { echo "FAIL: vm-stress: rmmod logdev"; rc=1; }
exit $rc
