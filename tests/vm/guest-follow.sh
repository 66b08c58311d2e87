#!/bin/sh
# Guest side of the live view test (issue 11 item 5): `logdev report
# --follow --raw` runs while logdev_test's writers (task, softirq, hardirq,
# NMI on every CPU) make ITERS records per CPU, then gets SIGINT; the host
# (tests/vm/check-follow.sh) checks that every record was printed at most
# once, in time order or marked late, and printed + lost = written.
#   guest-follow.sh ITERS
# Two runs: "big" (1024 KB per CPU: nothing should be lost) and "small"
# (8 KB per CPU, 10x the records: the reader cannot keep up under TCG, so
# events are lost and the summary must say how many).  Then `deltas
# --follow` (not a terminal: its table once, at the end), and a short run in
# text form with a filter (docs/USAGE.md's example).
# Results per run RUN: RUN.out, RUN.err, RUN.rc, RUN.counts, RUN.stats.
iters=${1:-2000}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
R=${RESULTS:-/results}
P=vm-follow
. /logdev/lib.sh
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
echo "cpus=$(nproc)" > $R/config.txt

# follow RUN KB ITERS VERB...: one followed run
follow() {
	run=$1 kb=$2 n=$3
	shift 3
	echo 0 > $D/enable
	echo "$kb" > $D/buffer_size_kb || { fail "$run: buffer_size_kb $kb refused"; return; }
	echo 1 > $D/clear
	echo 1 > $D/enable
	/logdev/logdev.static "$@" > $R/$run.out 2> $R/$run.err &
	pid=$!
	sleep 1
	echo "$run: writers start ($n per CPU)"
	echo "$n" > $T/run
	echo "$run: writers done"
	sleep 1		# past the window: what was read is printed
	kill -INT $pid
	wait $pid
	echo $? > $R/$run.rc
	echo 0 > $D/enable
	cat $T/counts > $R/$run.counts
	cat $D/stats > $R/$run.stats
	echo "$run: follower exit $(cat $R/$run.rc), $(wc -l < $R/$run.out) lines"
	check "$run: the follower ended on SIGINT with 0 or 3" "exit $(cat $R/$run.rc)" \
		grep -q '^[03]$' $R/$run.rc
}
follow big 1024 "$iters" report --follow --raw
follow small 8 $((iters * 10)) report --follow --raw --window 50
follow deltas 1024 "$iters" deltas --follow
follow text 1024 20 report --follow --context task,hardirq	# docs/USAGE.md's example
rmmod logdev_test
rmmod logdev
finish
