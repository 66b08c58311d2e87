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
P=vm-stress
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
chmod +x /logdev/vmtool
run_checks /logdev/vmtool stress "$secs" "$iters" "$seed"
cat /sys/kernel/debug/logdev/stats > "${RESULTS:-/results}/stats.txt"
rmmod logdev_test || fail "rmmod logdev_test"
rmmod logdev || fail "rmmod logdev"
finish
