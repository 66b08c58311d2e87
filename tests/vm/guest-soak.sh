#!/bin/sh
# Guest side of the soak test (tests/vm/soak.sh: `make soak`, and the
# vm-soak-* groups of `make check`): per MODE, logdev_test's writers in task,
# softirq, hardirq and NMI context on every CPU with nested chains, one
# consuming reader per CPU, RECORDS edprint() calls or more;
# tests/vm/soaktool.c checks every record as it is read (nothing is stored)
# and prints PASS/FAIL, INFO and SOAK lines, named NAME-MODE.  The host
# runner (tools/vm/run.sh) fails the boot on a WARN, BUG, lockdep report,
# lockup or stall in the console or the kernel log.
#   guest-soak.sh BUFFER_KB RECORDS EVERY NAME MODE...
kb=${1:-64} records=${2:-1000000} every=${3:-16} name=${4:-vm-soak}
shift 4
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
R=${RESULTS:-/results}
P=$name
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
chmod +x /logdev/soaktool
for mode in "$@"; do
	P=$name-$mode
	# recording is off here (soaktool switches it off at its end)
	echo "$mode" > $D/mode || { fail "mode $mode refused"; continue; }
	echo "$kb" > $D/buffer_size_kb || { fail "buffer_size_kb $kb refused"; continue; }
	echo 1 > $D/clear || { fail "clear refused"; continue; }
	echo "INFO: $P: mode $(cat $D/mode), buffer_size_kb $(cat $D/buffer_size_kb), subbuf_size $(cat $D/subbuf_size), $(nproc) CPUs, kernel $(uname -r)"
	run_checks /logdev/soaktool "$records" "$every" "$P"
	cat $T/counts > $R/counts-$mode.txt
	cat $D/stats > $R/stats-$mode.txt
done
cat /proc/loadavg > $R/guest-loadavg.txt
rmmod logdev_test || fail "rmmod logdev_test"
rmmod logdev || fail "rmmod logdev"
finish
