#!/bin/sh
# Guest side of the recorder-past-its-limit test (issue 31 item 4):
# logdev_test's writers (a bound kthread per CPU, softirq, hardirq, NMI) as
# fast as they go into a buffer of KB KiB per CPU, which `logdev record`
# (one recorder thread per CPU) cannot keep empty: records are lost, and
# every one must be counted.  Discard mode with -o FILE, overwrite mode with
# -o - into a pipe that stalls for a second (discard: the recorder stopped
# for a second).  Per mode a directory as guest-contexts.sh leaves one
# (ctx.cap, counts.txt, stats.txt, config.txt, header.txt) for the host's
# check-contexts.sh (exact accounting: in the file + LOST == written) and
# check-reclimit.sh.
#   guest-reclimit.sh KB ITERATIONS
kb=${1:-64} iters=${2:-40000}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
R=${RESULTS:-/results}
P=vm-reclimit
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
for mode in discard overwrite; do
	o=$R/$mode
	mkdir -p "$o"
	echo 0 > $D/enable
	echo "$mode" > $D/mode || { fail "mode $mode refused"; continue; }
	echo "$kb" > $D/buffer_size_kb || { fail "buffer_size_kb $kb refused"; continue; }
	echo 1 > $D/clear
	{ echo "mode=$(cat $D/mode)"; echo "buffer_size_kb=$(cat $D/buffer_size_kb)";
	  echo "subbuf_size=$(cat $D/subbuf_size)"; echo "cpus=$(nproc)"; } > "$o/config.txt"
	cat $D/header > "$o/header.txt"
	if [ "$mode" = discard ]; then
		# the recorder stopped (SIGSTOP) for a second while the writers
		# go on: the buffer fills and discard mode drops, however fast
		# the recorder is on this host
		/logdev/logdev.static record -o "$o/ctx.cap" -- sh -c "echo $iters > $T/run" \
			2> "$o/record.err" &
		rpid=$!
		sleep 1
		kill -STOP $rpid 2>/dev/null
		sleep 1
		kill -CONT $rpid 2>/dev/null
		wait $rpid
		rc=$?
	else
		# -o - into a pipe whose reader takes 256 KiB, then stops reading for
		# a second while the writers go on: the recorder blocks in its write
		# and the ring overwrites, so records are lost even where the
		# recorder alone keeps up (6.1-rt did: nothing lost)
		rm -f /tmp/reclimit.fifo
		mkfifo /tmp/reclimit.fifo
		{ dd bs=4096 count=64 2>/dev/null; sleep 1; cat; } < /tmp/reclimit.fifo > "$o/ctx.cap" &
		cpid=$!
		/logdev/logdev.static record -o - -- sh -c "echo $iters > $T/run" \
			> /tmp/reclimit.fifo 2> "$o/record.err"
		rc=$?
		wait $cpid
	fi
	echo "record_rc=$rc" >> "$o/config.txt"
	cat $T/counts > "$o/counts.txt"
	cat $D/stats > "$o/stats.txt"
	check "$mode: logdev record exited 0" "$mode: record rc $rc: $(head -c 300 "$o/record.err")" \
		test "$rc" = 0
done
rmmod logdev_test
rmmod logdev
true
