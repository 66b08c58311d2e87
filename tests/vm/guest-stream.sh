#!/bin/sh
# Guest side of the stream-integrity test (issue 24, items 1 and 2), busybox
# sh, -smp 2.
#  - Lost-event marks where the losses are: logdev_test's fill file writes
#    numbered records whose string cycles 0..300 characters, pinned to one
#    CPU, into 1 KiB sub-buffers of a 2 KiB buffer.  Discard mode with
#    nothing reading, discard mode under `logdev record`, overwrite mode
#    with nothing reading.  Between two consecutive fill records the LOST
#    lines of `report --raw` must add up to the numbers skipped (or one
#    more: the task's comm record can be refused at the same place), and
#    `deltas` must pair exactly the consecutive records with no mark between.
#    Before the fix a smaller record fitted the open sub-buffer's tail after
#    a refusal and came before the mark.
#  - A reset while a consuming reader is open: `logdev record --no-enable`
#    running, 5 records, enable 0, then clock, mode, buffer_size_kb,
#    subbuf_size and clear must each be refused (EBUSY) with the value kept;
#    5 more records; the capture holds all 10 under one clock.  The same
#    writes succeed once the reader is gone.  Before the fix the clock
#    change emptied the buffers and the capture said `clock: local` over
#    mono records.
# Prints PASS:/FAIL: lines; the host collects them from guest.log.
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
R=${RESULTS:-/results}
L=/logdev/logdev.static
P=vm-stream
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }

# fills ROUNDS: ROUNDS x 1000 numbered fill records of cycling sizes, on CPU 0
fills() {
	taskset -c 0 sh -c "k=0; while [ \$k -lt $1 ]; do echo \"1000 0 \$((k * 1000))\" > $T/fill || exit 1; k=\$((k + 1)); done"
}

# setup MODE: recording off, 1 KiB sub-buffers, 2 KiB per CPU, empty
setup() {
	echo 0 > $D/enable
	echo "$1" > $D/mode && echo 1024 > $D/subbuf_size && echo 2 > $D/buffer_size_kb &&
		echo 1 > $D/clear ||
		fail "setup $1: a control write was refused"
}

# marks RAW DELTAS WHAT MINGAPS WRITTEN: every gap between consecutive fill
# records of a CPU is marked by LOST lines there (exactly, or one more), no
# mark sits between consecutive ones, the marks after the last record count
# the rest of the WRITTEN records, and deltas pairs exactly the unmarked
# neighbours
marks() {
	pairs=$(awk '$1 ~ /^lt_fill_write:/ && $1 == $2 { n += $3 } END { print n + 0 }' "$2")
	awk -F '\t' -v what="$3" -v mingaps="$4" -v written="$5" -v pairs="$pairs" '
	$1 == "LOST" { m[$2] += $3; next }
	$6 == "lt_fill_write" {
		split($8, w, " "); n = w[2] + 0; c = $2; recs++
		if (c in last) {
			gap = n - last[c] - 1
			if (gap > 0) gaps++
			if (m[c] < gap || m[c] > gap + 1) {
				if (bad++ < 3)
					ex = ex sprintf(" [cpu %s: fill %d then %d, %d marked between]", c, last[c], n, m[c])
			}
			if (m[c] == 0) ok++
		}
		last[c] = n; m[c] = 0
	}
	END {
		for (c in last)
			if (m[c] < written - 1 - last[c] || m[c] > written - last[c]) {
				bad++
				ex = ex sprintf(" [cpu %s: %d marked after the last, fill %d of %d]", c, m[c], last[c], written)
			}
		if (recs < 20 || gaps < mingaps || bad || ok != pairs)
			printf "FAIL: vm-stream: %s: %d fill records, %d gaps, %d misplaced marks%s; deltas paired %d, want %d\n", what, recs, gaps, bad, ex, pairs, ok
		else
			printf "PASS: vm-stream: %s: every one of %d gaps marked where it is (%d records); deltas pairs only the %d unmarked neighbours\n", what, gaps, recs, ok
	}' "$1"
}

# 1. lost-event marks
setup discard
$L record -o $R/discard-rec.cap > $R/discard-rec.log 2>&1 &
pid=$!
i=0; while [ "$(cat $D/enable)" != 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
fills 40
kill -HUP $pid; wait $pid
$L report --raw $R/discard-rec.cap > $R/discard-rec.raw 2> /dev/null
$L deltas $R/discard-rec.cap > $R/discard-rec.deltas 2> /dev/null
marks $R/discard-rec.raw $R/discard-rec.deltas "discard under logdev record" 1 40000
# unread MODE: 10000 fill records with nothing reading, then drained into
# $R/MODE.cap, its report --raw and deltas beside it
unread() {
	setup "$1"
	echo 1 > $D/enable
	fills 10
	echo 0 > $D/enable
	$L record --no-enable --duration 0 -o $R/$1.cap > /dev/null 2>&1
	$L report --raw $R/$1.cap > $R/$1.raw 2> /dev/null
	$L deltas $R/$1.cap > $R/$1.deltas 2> /dev/null
}
unread discard
marks $R/discard.raw $R/discard.deltas "discard, nothing reading" 0 10000
unread overwrite
# overwrite keeps the newest: one window, gaps only before it; so the check
# is that nothing is marked between its records
awk -F '\t' '$1 == "LOST" && seen { bad++ } $6 == "lt_fill_write" { seen++ }
	END { if (bad || seen < 5) print "FAIL: vm-stream: overwrite, nothing reading: " bad " LOST lines among " seen " kept records";
	      else print "PASS: vm-stream: overwrite, nothing reading: " seen " newest records kept, no mark among them" }' $R/overwrite.raw

# 2. a consuming reader open: resets refused, nothing lost, one clock
setup overwrite
echo 64 > $D/buffer_size_kb
echo local > $D/clock
$L record --no-enable -o $R/clock.cap > $R/clock.log 2>&1 &
pid=$!
sleep 1
echo 1 > $D/enable
taskset -c 0 sh -c "echo '5 8 0' > $T/fill"
echo 0 > $D/enable
for fv in clock:mono mode:discard buffer_size_kb:128 subbuf_size:2048 clear:1; do
	f=${fv%%:*} v=${fv#*:}
	before=$(cat $D/$f 2>/dev/null)
	err=$(printf '%s\n' "$v" | dd of=$D/$f 2>&1)
	case "$err" in
	*"Device or resource busy"*)
		[ "$(cat $D/$f 2>/dev/null)" = "$before" ] &&
			pass "$f $v refused (EBUSY) while logdev record reads, value kept" ||
			fail "$f $v refused but the value changed" ;;
	*) fail "$f $v while logdev record reads: want EBUSY, got '$(echo "$err" | head -n 1)'" ;;
	esac
done
echo 1 > $D/enable
taskset -c 0 sh -c "echo '5 8 5' > $T/fill"
echo 0 > $D/enable
kill -HUP $pid; wait $pid
$L report --raw $R/clock.cap > $R/clock.raw 2> $R/clock.err
n=$(awk -F '\t' '$6 == "lt_fill_write"' $R/clock.raw | wc -l)
check_eq "the capture holds the 10 records from both sides of the refused writes" "$n" 10
lbl=$(grep -a '^clock: ' $R/clock.cap | head -n 1)
[ "$lbl" = "clock: local" ] && [ "$(cat $D/clock)" = "[local] global mono" ] &&
	pass "the capture says clock: local, the clock its records were taken with" ||
	fail "capture's clock label '$lbl', clock file '$(cat $D/clock)'"
for fv in clock:mono mode:discard buffer_size_kb:128 subbuf_size:2048 clear:1; do
	f=${fv%%:*} v=${fv#*:}
	printf '%s\n' "$v" > $D/$f && pass "$f $v accepted once the reader is gone" ||
		fail "$f $v refused with no reader open"
done
echo local > $D/clock
rmmod logdev_test || fail "rmmod logdev_test"
rmmod logdev || fail "rmmod logdev"
finish
