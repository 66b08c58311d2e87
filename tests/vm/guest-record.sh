#!/bin/sh
# Guest side of the record-ending test (issue 7, faults 7 and 8), with the
# real module: `logdev record` stopped by kill -HUP, -PIPE, -TERM (until-
# stopped form and COMMAND form), by `-o -` into a pipe whose reader leaves,
# and by a full disk, while logdev_test writes.  Each time: enable is back at
# 0, the exit status is the documented one, and what was recorded is a
# readable capture (FILE for a signal, FILE.tmp for a write error).
#   guest-record.sh ITERATIONS
# Prints PASS:/FAIL: lines; the host collects them from guest.log.
# SIGINT is not sent: a non-interactive shell starts "cmd &" with SIGINT
# ignored, and record leaves ignored signals ignored (as nohup expects).
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
R=${RESULTS:-/results}
L=/logdev/logdev.static
P=vm-record
n=${1:-2000}
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }

# wait_on: until enable reads 1 (up to 10 s)
wait_on() {
	i=0
	while [ "$(cat $D/enable)" != 1 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# reap PID: its exit status, or 255 after SIGKILL if it ran 15 s more
reap() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 150 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 "$1" 2>/dev/null && { kill -9 "$1"; wait "$1"; return 255; }
	wait "$1"
}

# readable CAP WHAT: report --raw reads CAP without warnings, with records
# of logdev_test
readable() {
	$L report --raw "$1" > "$1.raw" 2> "$1.rerr"
	rrc=$?
	nrec=$(grep -c "	lt_record	" "$1.raw")
	if [ $rrc = 0 ] && [ "$nrec" -gt 0 ] && ! grep -q warning "$1.rerr"; then
		pass "$2: capture readable, $nrec logdev_test records"
	else
		fail "$2: capture: report rc $rrc, $nrec records, $(head -c 300 "$1.rerr")"
	fi
}

# $1 salvaged after a write error: its records read, marked incomplete (exit 3)
readable_incomplete() {
	$L report --raw "$1" > "$1.raw" 2> "$1.rerr"
	rrc=$?
	nrec=$(grep -c "	lt_record	" "$1.raw")
	if [ $rrc = 3 ] && [ "$nrec" -gt 0 ] && grep -q "the recording is incomplete" "$1.rerr"; then
		pass "$2: capture readable, $nrec logdev_test records, warned incomplete (exit 3)"
	else
		fail "$2: capture: report rc $rrc, $nrec records, $(head -c 300 "$1.rerr")"
	fi
}

# 1. until-stopped form and COMMAND form, ended by a signal
for c in "HUP until 129" "PIPE until 141" "TERM until 0" "HUP command 129" "TERM command 143"; do
	set -- $c
	sig=$1 form=$2 want=$3
	cap=$R/sig-$sig-$form.cap
	if [ $form = until ]; then
		$L record -o $cap 2> $cap.err &
	else
		$L record -o $cap -- sh -c "echo $n > $T/run; sleep 60" 2> $cap.err &
	fi
	pid=$!
	wait_on
	[ $form = until ] && echo "$n" > $T/run
	[ $form = command ] && sleep 1
	kill -$sig $pid
	reap $pid
	rc=$?
	en=$(cat $D/enable)
	if [ $rc = "$want" ] && [ "$en" = 0 ] && [ ! -e $cap.tmp ] && [ -s $cap ]; then
		pass "record ($form) killed by SIG$sig: exit $want, enable back at 0, FILE, no FILE.tmp"
	else
		fail "record ($form) killed by SIG$sig: exit $rc (want $want), enable $en, " \
		     "$(ls $cap* 2>&1 | tr '\n' ' ') $(head -c 300 $cap.err)"
		echo 0 > $D/enable
	fi
	readable $cap "SIG$sig ($form)"
done

# 2. -o - into a pipe whose reader leaves: a write error (EPIPE), exit 1
{ sh -c "echo \$\$ > $R/pipe.pid; exec $L record -o - 2> $R/pipe.err"; echo $? > $R/pipe.rc; } |
	head -c 1 > /dev/null &
sleep 1
echo "$n" > $T/run
i=0
while [ ! -s $R/pipe.rc ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
[ -s $R/pipe.rc ] || kill -9 "$(cat $R/pipe.pid)"
wait
rc=$(cat $R/pipe.rc) en=$(cat $D/enable)
if [ "$rc" = 1 ] && [ "$en" = 0 ] && grep -q "Broken pipe" $R/pipe.err; then
	pass "record -o - into a closed pipe: exit 1, Broken pipe, enable back at 0"
else
	fail "record -o - into a closed pipe: exit $rc, enable $en, $(head -c 300 $R/pipe.err)"
	echo 0 > $D/enable
fi

# 3. -o - -- COMMAND: the command's stdout goes to stderr, not into the capture
$L record -o - -- sh -c "echo hello-from-command; echo $n > $T/run" > $R/cmd.cap 2> $R/cmd.err
rc=$?
if [ $rc = 0 ] && grep -q hello-from-command $R/cmd.err && ! grep -q hello-from-command $R/cmd.cap; then
	pass "record -o - -- COMMAND: exit 0, the command's stdout on stderr, not in the capture"
else
	fail "record -o - -- COMMAND: exit $rc, $(head -c 300 $R/cmd.err)"
fi
readable $R/cmd.cap "-o - -- COMMAND"

# 4. a full disk mid-run: exit 1, enable back at 0, FILE.tmp readable, incomplete and named
mkdir -p /small
if mount -t tmpfs -o size=64k none /small; then
	$L record -o /small/full.cap -- sh -c "echo 20000 > $T/run" 2> $R/full.err
	rc=$?
	en=$(cat $D/enable)
	if [ $rc = 1 ] && [ "$en" = 0 ] && [ ! -e /small/full.cap ] &&
	   grep -q "No space left" $R/full.err && grep -q /small/full.cap.tmp $R/full.err; then
		pass "record onto a full disk: exit 1, enable back at 0, FILE.tmp named"
	else
		fail "record onto a full disk: exit $rc, enable $en, $(head -c 300 $R/full.err)"
		echo 0 > $D/enable
	fi
	cp /small/full.cap.tmp $R/full.cap.tmp
	umount /small
	readable_incomplete $R/full.cap.tmp "full disk (FILE.tmp)"
else
	fail "mount tmpfs"
fi

rmmod logdev_test
rmmod logdev
finish
