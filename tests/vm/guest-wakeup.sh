#!/bin/sh
# Guest side of vm-wakeup (busybox sh): the reader's wake-up stays out of a
# measured pair (issue 26, item 4).  `logdev record` reads on CPU 1 while
# logdev_test's fill_pair (kernel/test/logdev_test_feed.c) makes N records
# on CPU 0 inside lt_fill_pair(), whose pair r:fillpair measures; p:wk on
# __wake_up records every wake-up with its caller.  check-wakeup.sh: no
# wake-up runs on CPU 0 inside the pair, and the reader was woken.
#   guest-wakeup.sh N
# Results: wake.cap, params.txt (N), stats.txt, subbuf.txt.
n=${1:-4000}
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
P=vm-wakeup
. /logdev/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
echo 1024 > $D/buffer_size_kb
echo "$n" > $R/params.txt
cat $D/subbuf_size > $R/subbuf.txt
add() { printf '%s\n' "$1" | dd of=$D/probes conv=notrunc 2> /dev/null; }
add 'r:fillpair lt_fill_pair' || fail "r:fillpair refused"
add 'p:wk __wake_up caller=+0($stack):symbol' || fail "p:wk refused: $(cat $D/error_log | tail -n 2)"
cat $D/probes
# the reader on CPU 1 sleeps before the pair starts on CPU 0
taskset -c 1 /logdev/logdev.static record -o $R/wake.cap -- \
	taskset -c 0 sh -c "sleep 0.5; echo $n > $T/fill_pair; sleep 0.5" 2> $R/record.err
rc=$?
[ $rc = 0 ] && pass "record ran (rc 0)" || fail "record rc $rc: $(head -c 300 $R/record.err)"
cat $D/stats > $R/stats.txt
cat $D/probes
echo > $D/probes
rmmod logdev_test
rmmod logdev
true
