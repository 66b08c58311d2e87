#!/bin/sh
# Guest side of the module-parameter test (issue 10, item 2; busybox sh, run
# by tools/vm/run.sh).
#   1. garbage parameters refuse the load (docs/DEBUGFS.md "Parameters"):
#      insmod fails, the module is not loaded, the kernel log names the
#      parameter and why;
#   2. insmod enable=1 buffer_size_kb=64 subbuf_size=8192 mode=discard
#      clock=mono: debugfs and /sys/module/logdev/parameters (0444) show
#      those values, recording is on from the load;
#   3. records written before any reader (logdev_test's burst) are all in a
#      capture drained by `logdev record --no-enable`, which leaves enable
#      at 1;
#   4. discard mode really applies: a burst larger than the buffer drops
#      the newest records (dropped > 0, overrun 0), the capture starts with
#      the oldest;
#   5. the parameters in sysfs follow later debugfs changes (never stale).
# Prints PASS:/FAIL: lines; the host collects them from guest.log.
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
S=/sys/module/logdev/parameters
R=${RESULTS:-/results}
L=/logdev/logdev.static
P=vm-params
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

# The selected value of a debugfs file: "[x] y z" -> x, else the content.
sel() {
	v=$(cat "$D/$1" 2>/dev/null)
	case "$v" in
	*\[*\]*) v=${v#*[}; v=${v%%]*} ;;
	esac
	echo "$v"
}

# refused WHY_PATTERN PARAM...: insmod with PARAMs fails, nothing stays
# loaded, and the kernel log has a logdev line matching WHY_PATTERN.
# (busybox insmod tries finit_module, then init_module: each line twice.)
refused() {
	why=$1
	shift
	dmesg -c > /dev/null
	err=$(insmod /logdev/logdev.ko "$@" 2>&1)
	rc=$?
	log=$(dmesg | grep 'logdev: ' | tr '\n' '|')
	if [ $rc = 0 ]; then
		fail "insmod $*: loaded (want refused)"
		rmmod logdev
	elif [ -d /sys/module/logdev ]; then
		fail "insmod $*: failed ($err) but /sys/module/logdev exists"
	elif ! echo "$log" | grep -q "$why"; then
		fail "insmod $*: refused ($err), kernel log '$log' lacks '$why'"
	else
		pass "insmod $*: refused ($err); log: ${log%|}"
	fi
}

# 1. garbage: refused, whichever parameter and whatever else is given
refused 'parameter mode=bogus: want overwrite or discard; insmod refused' mode=bogus
refused 'parameter mode=Discard: want' enable=1 mode=Discard
refused 'parameter clock=bogus: want local, global or mono' enable=1 clock=bogus
refused 'parameter enable=2: want 0 or 1' enable=2
refused 'parameter enable=yes: want 0 or 1' enable=yes
refused 'parameter buffer_size_kb=0: want KiB per CPU, 1 to 262144' enable=1 buffer_size_kb=0
refused 'parameter buffer_size_kb=-64: want' buffer_size_kb=-64
refused 'parameter buffer_size_kb=99999999999999999999: want' buffer_size_kb=99999999999999999999
refused 'parameter buffer_size_kb=262145: want' buffer_size_kb=262145
refused 'parameter buffer_size_kb=262144: [0-9]* CPUs x 262144 KiB is more than half the available memory; insmod refused' \
	enable=1 buffer_size_kb=262144
refused 'parameter buffer_size_kb=6: want a multiple of subbuf_size (4096 bytes)' buffer_size_kb=6
refused 'parameter buffer_size_kb=64: want a multiple of subbuf_size (65536 bytes), at least two' \
	subbuf_size=65536 buffer_size_kb=64
refused 'parameter subbuf_size=1000: want bytes, a power of two from 1024 to 65536' subbuf_size=1000
refused 'parameter subbuf_size=131072: want' subbuf_size=131072
refused "parameter enable=: want 0 or 1" enable=
refused 'parameter enable=01: want 0 or 1' enable=01
# dump_on_oops takes its debugfs file's words, not kstrtobool's ("01" was
# off, "1x" and "on" on: found by a fresh user)
refused 'parameter dump_on_oops=01: want 0 or 1' dump_on_oops=01
refused 'parameter dump_on_oops=1x: want 0 or 1' dump_on_oops=1x
refused 'parameter dump_on_oops=on: want 0 or 1' dump_on_oops=on
refused 'parameter dump_on_oops=Y: want 0 or 1' dump_on_oops=Y

# 2. good parameters: the state they ask for, from the load on
dmesg -c > /dev/null
if ! insmod /logdev/logdev.ko enable=1 buffer_size_kb=64 subbuf_size=8192 mode=discard clock=mono; then
	fail "insmod enable=1 buffer_size_kb=64 subbuf_size=8192 mode=discard clock=mono refused"
	finish
	exit 1
fi
log=$(dmesg | grep 'logdev: ')
check_eq "good parameters: no logdev line in the kernel log" "$log" ""
for fv in enable=1 buffer_size_kb=64 subbuf_size=8192 mode=discard clock=mono; do
	f=${fv%%=*} v=${fv#*=}
	check_eq "debugfs $f reads $v after insmod $fv" "$(sel $f)" "$v"
	check_eq "sysfs parameters/$f reads $v" "$(cat $S/$f 2>&1)" "$v"
	perm=$(ls -l $S/$f | cut -c1-10)
	check_eq "sysfs parameters/$f is read-only" "$perm" "-r--r--r--"
done
grep . $S/* > $R/sysfs-params.txt	# for the docs and a post-mortem
hdr=$(grep -E '^(nr_subbufs|clock|mode):' $D/header | tr '\n' ' ')
check_eq "header: the geometry, clock and mode of the parameters" "$hdr" \
	"nr_subbufs: 8 clock: mono mode: discard "
# root may open a 0444 sysfs file for writing: the write itself must fail
if (echo discard > $S/enable) 2> /dev/null || (echo 0 > $S/enable) 2> /dev/null; then
	fail "sysfs parameters/enable: a write was accepted"
else
	check_eq "sysfs parameters/enable: writes refused, still 1" "$(cat $S/enable)" 1
fi
# dump_on_oops's parameter file (0644): the debugfs file's words, one value
check_eq "sysfs parameters/dump_on_oops reads 0 (as the debugfs file)" "$(cat $S/dump_on_oops)" 0
for v in 1x on Y 01 2; do
	if (echo "$v" > $S/dump_on_oops) 2> /dev/null; then
		fail "sysfs parameters/dump_on_oops: '$v' accepted"
	else
		pass "sysfs parameters/dump_on_oops: '$v' refused"
	fi
done
check_eq "sysfs parameters/dump_on_oops: still 0 after the refused words" "$(cat $D/dump_on_oops)" 0
echo 1 > $S/dump_on_oops
check_eq "sysfs parameters/dump_on_oops: 1 sets the debugfs file's value" "$(cat $D/dump_on_oops) $(cat $S/dump_on_oops)" "1 1"
echo 0 > $D/dump_on_oops

# 3. records written before any reader exists are drained by --no-enable
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; finish; exit 1; }
ncpu=$(nproc)
cpu=0
while [ $cpu -lt "$ncpu" ]; do
	echo "$cpu 300" > $T/burst || fail "burst of 300 on cpu $cpu refused"
	cpu=$((cpu + 1))
done
$L record --no-enable --duration 1 -o $R/before.cap 2> $R/before.err
rc=$?
check_eq "record --no-enable: exit status" "$rc" 0
check_eq "record --no-enable: enable still 1 afterwards" "$(cat $D/enable)" 1
$L report --raw $R/before.cap > $R/before.raw 2> $R/before.rerr
check_eq "report --raw of the --no-enable capture: exit status" "$?" 0
# every CPU's burst i=0..299, in order, once; no loss
awk -F'\t' -v ncpu="$ncpu" -v name="$P" "$LD_AWK"'
	$1 == "LOST" { lost++ }
	$6 == "lt_burst_fn" {
		m = raw_msg($0)
		if (m != "burst i=" next_i[$2] + 0) bad[$2] = bad[$2] " " m "@" next_i[$2] + 0
		next_i[$2]++
	}
	END {
		for (c = 0; c < ncpu; c++)
			check(next_i[c] == 300 && bad[c] == "",
			      "cpu " c ": the 300 records written before record are in the capture, in order",
			      next_i[c] + 0 " records, out of order:" substr(bad[c], 1, 200))
		check(lost == 0, "no LOST line", lost " LOST lines")
		exit failed != 0
	}' $R/before.raw
[ $? = 0 ] || fails=$((fails + 1))

# 4. discard mode: 10 x 1000 records on cpu 0 into 64 KiB, no reader
for i in 1 2 3 4 5 6 7 8 9 10; do
	echo "0 1000" > $T/burst || fail "burst of 1000 on cpu 0 refused"
done
cat $D/stats > $R/over.stats
dropped=$(grep '^cpu=0 ' $R/over.stats | sed 's/.* dropped=\([0-9]*\) .*/\1/')
overrun=$(grep '^cpu=0 ' $R/over.stats | sed 's/.* overrun=\([0-9]*\) .*/\1/')
check_ge "discard mode: cpu 0 dropped records (stats)" "$dropped" 1
check_eq "discard mode: cpu 0 overwrote none (stats overrun)" "$overrun" 0
$L record --no-enable --duration 1 -o $R/over.cap 2> $R/over.err
check_eq "record --no-enable after the overflow: exit status" "$?" 0
$L report --raw $R/over.cap > $R/over.raw 2> $R/over.rerr
awk -F'\t' -v name="$P" "$LD_AWK"'
	$1 == "LOST" && $2 == 0 { lost += $3 }
	$6 == "lt_burst_fn" && $2 == 0 {
		m = raw_msg($0)
		if (!n) first = m
		if (n < 1000 && m != "burst i=" n + 0) bad++
		n++
	}
	END {
		check(first == "burst i=0" && n >= 1000 && !bad,
		      "discard mode: the capture starts with the oldest records (the first burst whole, in order)",
		      "first " first ", " n " records, " bad + 0 " of the first 1000 out of order")
		# LOST counts every refused record, the task-name (comm) records a
		# burst may start with included: at most one per burst (10)
		check(n < 10000 && n + lost >= 10000 && n + lost <= 10010,
		      "discard mode: the newest records are the ones lost (kept + dropped = 10000, + at most 10 comm records)",
		      n " records, " lost + 0 " lost")
		exit failed != 0
	}' $R/over.raw
[ $? = 0 ] || fails=$((fails + 1))

# 5. the parameters in sysfs show the current state, not the load's values
echo 0 > $D/enable
echo overwrite > $D/mode
echo global > $D/clock
echo 4096 > $D/subbuf_size
echo 128 > $D/buffer_size_kb
for fv in enable=0 buffer_size_kb=128 subbuf_size=4096 mode=overwrite clock=global; do
	f=${fv%%=*} v=${fv#*=}
	check_eq "sysfs parameters/$f follows debugfs: $v" "$(cat $S/$f 2>&1)" "$v"
done

rmmod logdev_test || fail "rmmod logdev_test"
rmmod logdev || fail "rmmod logdev"
finish
