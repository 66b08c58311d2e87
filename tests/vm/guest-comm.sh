#!/bin/sh
# Guest side of the task names test: `vmtool comm` makes tasks with known
# names record from task, hardirq and NMI context (logdev_test's comm file):
# vmtool itself, lt_alpha which exits, lt_beta which gets lt_alpha's pid
# and renames itself lt_renamed.  Results: comm.cap, comm.txt (vmtool's
# output: the pids).  Checked on the host by check-comm.sh.  Then `vmtool
# cross`: every sub-buffer names the tasks of its records, also one opened
# by a record that did not fit and one after a flush (checked in the guest).
T=/sys/kernel/debug/logdev_test
R=${RESULTS:-/results}
P=vm-comm
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
[ -w $T/comm ] || { fail "no $T/comm"; exit 1; }
# a small pid space: the fork loop reaches lt_alpha's pid again quickly
echo 400 > /proc/sys/kernel/pid_max || fail "pid_max 400 refused"
/logdev/logdev.static record -o $R/comm.cap -- \
	/logdev/vmtool comm lt_alpha lt_beta lt_renamed > $R/comm.txt
echo "record_rc=$?" >> $R/comm.txt
grep -a '^PASS: \|^FAIL: ' $R/comm.txt
# every sub-buffer names the tasks of its records: vmtool cross (its
# comment), 200 rounds on CPU 0 with 1024-byte sub-buffers
/logdev/vmtool cross 200 > $R/cross.txt 2>&1
echo "cross_rc=$?" >> $R/cross.txt
grep -a '^PASS: \|^FAIL: ' $R/cross.txt
grep -q "^PASS: vm-comm: cross" $R/cross.txt || fail "cross: no PASS line (cross_rc in cross.txt)"
rmmod logdev_test
rmmod logdev
true
