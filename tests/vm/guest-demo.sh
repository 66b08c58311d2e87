#!/bin/sh
# Guest side of the demo: record logdev_demo's probes around N iterations of
# its allocator, skb and paravirt paths.   guest-demo.sh [N]
n=${1:-200}
R=${RESULTS:-/results}
P=vm-demo
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_demo.ko || { fail "insmod logdev_demo.ko"; exit 1; }
echo "$n" > $R/iterations.txt
/logdev/logdev.static record -o $R/demo.cap -- sh -c "echo $n > /sys/kernel/debug/logdev_demo/run"
rc=$?
cat /sys/kernel/debug/logdev/stats > $R/stats.txt
rmmod logdev_demo
# the call sites of an unloaded module must stay readable
cat /sys/kernel/debug/logdev/formats > $R/formats-after-rmmod.txt
rmmod logdev
[ $rc = 0 ] || fail "logdev.static record exited $rc"
finish
