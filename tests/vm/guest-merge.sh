#!/bin/sh
# Guest side of the live merge (issue 9 item 4): `trace-cmd record -C mono
# -e sched:sched_switch -e irq` runs while `logdev record` records the demo
# workload with logdev's clock set to mono, so the two files share a clock
# and trace-cmd can merge them by time (tests/vm/check-merge.sh).
#   guest-merge.sh [ROUNDS] [N]   ROUNDS batches of N demo iterations, a
#                                 sleep between them (the sleeps switch tasks)
# Needs tools/vm/run.sh --host-bins /usr/bin/trace-cmd.
rounds=${1:-5}
n=${2:-40}
R=${RESULTS:-/results}
P=vm-merge
. /logdev/lib.sh
mkdir -p /sys/kernel/tracing
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
	[ -e /sys/kernel/tracing/trace_clock ] || { fail "mount tracefs"; exit 1; }
[ -x /usr/bin/trace-cmd ] || { fail "no /usr/bin/trace-cmd in the guest (run.sh --host-bins)"; exit 1; }
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_demo.ko || { fail "insmod logdev_demo.ko"; exit 1; }
echo mono > /sys/kernel/debug/logdev/clock || { fail "echo mono > logdev/clock"; exit 1; }
check "logdev clock is mono" "clock file: $(cat /sys/kernel/debug/logdev/clock)" \
	grep -q '\[mono\]' /sys/kernel/debug/logdev/clock
echo "$rounds $n" > $R/workload.txt
# trace-cmd starts tracing, then runs the command: logdev records inside it
cat > /tmp/work.sh <<WORK
i=0
while [ \$i -lt $rounds ]; do
	echo $n > /sys/kernel/debug/logdev_demo/run
	sleep 0.2
	i=\$((i + 1))
done
WORK
cd /tmp
trace-cmd record -q -C mono -e sched:sched_switch -e irq -o $R/ftrace.dat \
	/logdev/logdev.static record -o $R/logdev.cap -- sh /tmp/work.sh > $R/trace-cmd.log 2>&1
rc=$?
check_eq "trace-cmd record exit status" "$rc" 0
[ -s $R/ftrace.dat ] || fail "no ftrace.dat written: $(head -c 300 $R/trace-cmd.log)"
[ -s $R/logdev.cap ] || fail "no logdev.cap written"
cat /sys/kernel/debug/logdev/stats > $R/stats.txt
rmmod logdev_demo
rmmod logdev
finish
