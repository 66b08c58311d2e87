#!/bin/sh
# Guest side of the contexts test: records logdev_test's task/softirq/hardirq/
# NMI writers with logdev.static and saves what the host needs to check them.
#   guest-contexts.sh MODE BUFFER_KB ITERATIONS
# Results: ctx.cap, counts.txt (logdev_test), stats.txt (logdev),
# printf.cap + printf_ref.txt + printf_stats.txt (the printf table), config.txt.
mode=${1:-overwrite} kb=${2:-16} iters=${3:-20000}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
R=${RESULTS:-/results}
P=vm-ctx-smp$(nproc)-$mode
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh
set -x
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
echo "$mode" > $D/mode || { fail "mode $mode refused"; exit 1; }
echo "$kb" > $D/buffer_size_kb || { fail "buffer_size_kb $kb refused"; exit 1; }
{ echo "mode=$(cat $D/mode)"; echo "buffer_size_kb=$(cat $D/buffer_size_kb)";
  echo "subbuf_size=$(cat $D/subbuf_size)"; echo "cpus=$(nproc)"; } > $R/config.txt
cat $D/header > $R/header.txt 2>/dev/null
/logdev/logdev.static record -o $R/ctx.cap -- sh -c "echo $iters > $T/run"
echo "record_rc=$?" >> $R/config.txt
cat $T/counts > $R/counts.txt
cat $D/stats > $R/stats.txt

# printf table, with a fresh buffer big enough to lose nothing.
echo 0 > $D/enable
echo overwrite > $D/mode
echo 1024 > $D/buffer_size_kb
echo 1 > $D/clear
/logdev/logdev.static record -o $R/printf.cap -- sh -c "echo 1 > $T/printf"
echo "printf_rc=$?" >> $R/config.txt
cat $T/printf_ref > $R/printf_ref.txt
cat $D/stats > $R/printf_stats.txt
cat $D/formats > $R/formats.txt
rmmod logdev_test
rmmod logdev
true
