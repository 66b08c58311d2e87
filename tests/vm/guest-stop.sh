#!/bin/sh
# Guest side of the stop test (fault 3 of issue 7): a reader blocked in
# read() or poll() on trace_pipe_raw, with a few records in the open
# sub-buffer, while another process writes 0 to enable (a clear is refused
# while it reads), must get those records before end-of-data; never EOF, nor
# POLLHUP without POLLIN, while data that will be readable remains.
#   guest-stop.sh [ROUNDS]      (default 50 per kind)
# Needs logdev.ko, logdev_test.ko and vmtool (tests/vm/vmtool.c).
# Prints PASS:/FAIL: lines.
rounds=${1:-50}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
P=vm-stop
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
chmod +x /logdev/vmtool

# wait_ready FILE: until the reader printed "ready" (it opened the file),
# then a little longer so that it sleeps in read()/poll().
wait_ready() {
	i=0
	while ! grep -q ready "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.01; i=$((i + 1))
	done
	sleep 0.1
}

# one KIND CPU N: a reader of KIND (eof-read, eof-poll) on CPU, N records
# burst on CPU, then enable=0 from here.  Prints the reader's result line.
one() {
	echo 1 > $D/enable
	/logdev/vmtool "$1" "$2" > /tmp/rd.out 2>&1 &
	pid=$!
	wait_ready /tmp/rd.out
	echo "$2 $3" > $T/burst
	echo 0 > $D/enable
	wait $pid
	tail -n 1 /tmp/rd.out
}

ncpu=$(nproc)
for kind in eof-read eof-poll; do
	bad=0 ex=
	r=0
	while [ $r -lt $rounds ]; do
		cpu=$((r % ncpu))
		echo 1 > $D/clear
		got=$(one $kind $cpu 3)
		case "$got" in
		"records=3 after_eof=0"|"records=3 hup_with_data=0 after_eof=0") ;;
		*) bad=$((bad + 1)); [ -z "$ex" ] && ex="round $r cpu $cpu: $got" ;;
		esac
		r=$((r + 1))
	done
	if [ $bad = 0 ]; then
		pass "$kind: blocked reader got the 3 records before EOF after enable=0 ($rounds rounds)"
	else
		fail "$kind: $bad of $rounds rounds ended early, e.g. $ex"
	fi
done

# clear while a reader is open: refused (EBUSY, issue 24 item 2: it would
# throw away records the reader has not read, with no mark); the blocked
# reader keeps waiting (no EOF) and then gets the records written after.
bad=0 ex=
r=0
while [ $r -lt $((rounds / 5 + 1)) ]; do
	echo 1 > $D/enable
	/logdev/vmtool eof-read 0 > /tmp/rd.out 2>&1 &
	pid=$!
	wait_ready /tmp/rd.out
	err=$(echo 1 2>/dev/null | dd of=$D/clear 2>&1)
	case "$err" in
	*"Device or resource busy"*) ;;
	*) bad=$((bad + 1)); [ -z "$ex" ] && ex="round $r: clear with a reader open: '$(echo "$err" | head -n 1)', want EBUSY" ;;
	esac
	sleep 0.15
	if ! kill -0 $pid 2>/dev/null; then
		bad=$((bad + 1)); [ -z "$ex" ] && ex="round $r: reader ended at clear: $(tail -n 1 /tmp/rd.out)"
		wait $pid
		echo 0 > $D/enable
		r=$((r + 1)); continue
	fi
	echo "0 3" > $T/burst
	echo 0 > $D/enable
	wait $pid
	got=$(tail -n 1 /tmp/rd.out)
	if [ "$got" != "records=3 after_eof=0" ]; then
		bad=$((bad + 1)); [ -z "$ex" ] && ex="round $r: $got"
	fi
	r=$((r + 1))
done
if [ $bad = 0 ]; then
	pass "clear with a reader open: refused (EBUSY); the blocked reader kept waiting and got the later records ($r rounds)"
else
	fail "clear with a reader open: $bad of $r rounds wrong, e.g. $ex"
fi

rmmod logdev_test
rmmod logdev || fail "rmmod logdev"
finish
