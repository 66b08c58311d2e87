#!/bin/sh
# Guest side of vm-probecost (busybox sh; issue 26 point 3): the probe cost
# calibration (debugfs probe_cost) and captures for the host's checks of
# the correction (tests/vm/check-probecost.sh):
#   probe_cost.bin   the figures read after "calibrate"
#   nest-K.cap       r: probes on lt_nest_outer and lt_nest_inner (the outer
#                    only calls the inner), N calls (logdev_test probe_nest)
#                    in 10 bursts 10 ms apart, as the calibration spreads
#                    its runs (a workload with idle time between, not one
#                    hot loop),
#                    K = 1, 2, 3, each calibrated just before (K.cost.bin)
#   smap1-K.cap      r: show_smap, seq_printf and one other probed function,
#                    reading /proc/self/smaps ROUNDS times (K = 1, 2, 3)
#   smap5-K.cap      the same with five other probed functions
#   nocal.cap        a recording before any calibration (no PROBE_COST)
# Checked here: calibrate is refused while recording, leaves no probe and
# no record behind.  The workloads run with no reader waiting (enable, the
# workload, disable, then logdev record --no-enable drains the buffer, of
# 16 MiB): a reader's wake-up would land inside the measured pairs
# (issue 26 point 4, not this test's); one CPU, so that no other vCPU's
# turn of QEMU's TCG runs inside a pair.
#   guest-probecost.sh [N] [ROUNDS]
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
PF=$D/probes
LT=/sys/kernel/debug/logdev_test
L=/logdev/logdev.static
P=vm-probecost
n=${1:-2000} rounds=${2:-20}
. /logdev/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
echo 16384 > $D/buffer_size_kb || fail "buffer_size_kb 16384"

# cap NAME COMMAND [nocal]: a capture of COMMAND's records, nothing else
# running: COMMAND once to warm up (QEMU translates code the first time it
# runs), the calibration (it empties the buffers; not with nocal), then
# COMMAND recorded
cap() {
	echo 1 > $D/enable
	sh -c "$2"
	echo 0 > $D/enable
	echo 1 > $D/clear
	if [ -z "${3:-}" ]; then
		echo calibrate > $D/probe_cost || fail "calibrate before $1"
		cat $D/probe_cost > $R/$1.cost.bin
	fi
	echo 1 > $D/enable
	sh -c "$2"
	echo 0 > $D/enable
	$L record --no-enable --duration 0 -o $R/$1.cap 2> $R/$1.err ||
		fail "record $1: $(head -c 200 $R/$1.err)"
}
add() { printf '%s\n' "$1" | dd of=$PF conv=notrunc 2>/dev/null || fail "probe '$1' refused"; }
smaps="i=0; while [ \$i -lt $rounds ]; do cat /proc/self/smaps > /dev/null; i=\$((i + 1)); done"

# before any calibration: the file reads ts 0, a capture has no figures
add 'r:lt_nest_outer logdev_test:lt_nest_outer'
add 'r:lt_nest_inner logdev_test:lt_nest_inner'
cap nocal "echo 200 > $LT/probe_nest" nocal
: > $PF

echo 1 > $D/enable
if echo calibrate > $D/probe_cost 2> /dev/null; then fail "calibrate accepted while recording"
else pass "calibrate refused while recording"; fi
echo 0 > $D/enable
echo "calibrating"
t0=$(date +%s)
if echo calibrate > $D/probe_cost; then pass "calibrate ($(( $(date +%s) - t0 )) s)"
else fail "calibrate: $?"; fi
cat $D/probe_cost > $R/probe_cost.bin
od -A d -t u4 $R/probe_cost.bin
[ "$(grep -c . $PF)" = 0 ] && pass "no probe left after calibrate" ||
	fail "probes left: $(cat $PF)"
$L report > $R/after-cal.txt 2>&1
check_eq "no record left after calibrate" "$(grep -c -v -e '^logdev' -e '^# clock:' $R/after-cal.txt)" 0
grep -q 'logdev_calib' $D/error_log && fail "error_log: $(grep -A2 logdev_calib $D/error_log | head -3)"

# a function whose only work is to call another, both probed
add 'r:lt_nest_outer logdev_test:lt_nest_outer'
add 'r:lt_nest_inner logdev_test:lt_nest_inner'
nest="i=0; while [ \$i -lt 10 ]; do echo $((n / 10)) > $LT/probe_nest; usleep 10000; i=\$((i + 1)); done"
for k in 1 2 3; do cap nest-$k "$nest"; done
: > $PF

# seq_printf's share of show_smap with one and with five other probes,
# three captures of each, alternately (the host's load moves emulated times)
one='r:show_smap show_smap
r:seq_printf seq_printf
r:walk_page_vma walk_page_vma'
five='r:seq_put_decimal_ull_width seq_put_decimal_ull_width
r:seq_put_hex_ll seq_put_hex_ll
r:seq_pad seq_pad
r:smaps_pte_range smaps_pte_range'
for k in 1 2 3; do
	echo "$one" | while read -r l; do add "$l"; done
	cap smap1-$k "$smaps"
	echo "$five" | while read -r l; do add "$l"; done
	cap smap5-$k "$smaps"
	: > $PF
done
cat /proc/loadavg
finish
