#!/bin/sh
# Guest side of the crash dump under load (issue 24, items 3-5), busybox sh;
# the host reads the console (tests/vm/check-dump-load.sh).
#   guest-dump-load.sh race N   (-smp 2) overwrite mode, 1 KiB sub-buffers
#       in a 4 KiB buffer, CPU 1 floods numbered fill records while CPU 0
#       asks for N sysrq dumps (dump_records=16): each dump must show exactly
#       what it announced, or say per sub-buffer what was overwritten while
#       it read; never a record written after it began, never a "damaged
#       record" of a writer's doing
#   guest-dump-load.sh big N    (-smp 4) every CPU records 11000, then two
#       sysrq dumps with dump_records=10000: the first must show only what
#       printk's buffer holds and say so, drop no printk message, end within
#       its time bound (dump_max_ms, 10 s) and cause no RCU stall report
#       (tools/vm/run.sh fails the boot on one; the guest waits 30 s, in
#       which a stall would be reported); the second, with a console of
#       10 ms a line (logdev_slowcon.ko, a 115200 baud console's pace) and
#       dump_max_ms=1000, must be cut at 1 s and say how many records it
#       left out where the console holds the dump (a kernel that prints
#       from a thread lets it end sooner)
#   guest-dump-load.sh nmi N    (-smp 2) dump_on_oops=1 dump_records=1000,
#       both CPUs record 2000, kernel.unknown_nmi_panic=1; the host sends an
#       NMI (run.sh --nmi-at): the panic in NMI context must leave the
#       kernel's panic report and the dump's header on the console
# Lines "logdev-dump-test: ..." mark the steps for the host.
. /logdev/lib.sh
mode=$1 n=${2:-100}
P=vm-dump-$mode
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
PARAM=/sys/module/logdev/parameters

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }

# fill CPU ROUNDS: ROUNDS x 1000 numbered records on CPU, numbers going on
fill() {
	taskset -c "$1" sh -c "k=0; while [ \$k -lt $2 ]; do echo \"1000 8 \$((k * 1000))\" > $T/fill || exit 1; k=\$((k + 1)); done"
}

case $mode in
race)
	echo 16 > $PARAM/dump_records
	echo 1024 > $D/subbuf_size && echo 4 > $D/buffer_size_kb || fail "buffer setup refused"
	echo 1 > $D/enable
	# CPU 1: numbers go on for ever (wrapping is fine: the check is per dump)
	taskset -c 1 sh -c "k=0; while :; do echo \"1000 8 \$((k % 4000000 * 1000))\" > $T/fill; k=\$((k + 1)); done" &
	flood=$!
	sleep 1
	i=0
	while [ $i -lt "$n" ]; do
		taskset -c 0 sh -c 'echo a > /proc/sysrq-trigger'
		i=$((i + 1))
	done
	kill $flood
	echo 0 > $D/enable
	echo "logdev-dump-test: race done $n dumps"
	;;
big)
	echo 10000 > $PARAM/dump_records
	echo 4096 > $D/buffer_size_kb || fail "buffer_size_kb 4096 refused"
	echo 1 > $D/enable
	cpu=0
	while [ $cpu -lt "$(nproc)" ]; do
		fill $cpu 11
		cpu=$((cpu + 1))
	done
	echo 0 > $D/enable
	echo "logdev-dump-test: big records $(grep -o 'written=[0-9]*' $D/stats | tr '\n' ' ')"
	for bad in 99 0 x 60001; do
		echo "$bad" > $PARAM/dump_max_ms 2>/dev/null && fail "dump_max_ms $bad accepted"
	done
	check_eq "dump_max_ms: its default, bad values refused" "$(cat $PARAM/dump_max_ms)" 10000
	echo a > /proc/sysrq-trigger
	echo "logdev-dump-test: big dump returned"
	sleep 30
	echo "logdev-dump-test: big done, no stall"
	echo 1000 > $PARAM/dump_max_ms
	insmod /logdev/logdev_slowcon.ko us=10000 || fail "insmod logdev_slowcon.ko"
	echo a > /proc/sysrq-trigger
	echo "logdev-dump-test: big slow dump returned"
	sleep 10	# a console printing from a thread is still at it
	rmmod logdev_slowcon || fail "rmmod logdev_slowcon"
	sleep 2
	;;
nmi)
	echo 1 > $D/dump_on_oops
	echo 1000 > $PARAM/dump_records
	echo 1 > /proc/sys/kernel/unknown_nmi_panic || fail "unknown_nmi_panic"
	echo 1 > $D/enable
	fill 0 2
	fill 1 2
	echo "logdev-dump-test: nmi now"
	sleep 60
	echo "logdev-dump-test: no panic after the NMI"
	;;
esac
finish
