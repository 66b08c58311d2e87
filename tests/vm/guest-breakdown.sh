#!/bin/sh
# Guest side of vm-breakdown (busybox sh): pairs of known cost for the time
# breakdown (issue 28, point 3).  logdev_test's breakdown file
# (kernel/test/logdev_test_bd.c) runs one pair per write, from the writing
# task pinned to CPU 1, with a cost injected in a known context; its
# breakdown_result says what each run injected, measured where it was spent.
# Recorded once with the context markers attached (record --breakdown if
# this CLI has it, else the same specs as -p) and once without them.
# check-breakdown.sh (host) checks the reader's split against the results.
#   guest-breakdown.sh [N]     each scenario N times (default 5)
# Results: bd.cap (with markers), bd_result.txt, nobd.cap (busy only, no
# markers), nobd_result.txt, specs.txt (each marker spec: "accepted<TAB>SPEC"
# or "refused<TAB>SPEC<TAB>error_log's last line", attached alone first),
# error_log.txt (if any was refused), mode.txt (--breakdown or -p),
# params.txt (N), uname.txt, stats.txt, record.err, nobd-record.err.
n=${1:-5}
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
L=/logdev/logdev.static
P=vm-breakdown
. /logdev/lib.sh

# SPEC per line: what record --breakdown attaches
SPECS='t:logdev_bd_irq_in=irq:irq_handler_entry irq
t:logdev_bd_irq_out=irq:irq_handler_exit irq
t:logdev_bd_sirq_in=irq:softirq_entry vec_nr
t:logdev_bd_sirq_out=irq:softirq_exit vec_nr
t:logdev_bd_switch=sched:sched_switch preempt prev next prev_state
t:logdev_bd_waking=sched:sched_waking p
t:logdev_bd_nmi=nmi:nmi_handler handler delta_ns
t:logdev_bd_timer_in=irq_vectors:local_timer_entry vector
t:logdev_bd_timer_out=irq_vectors:local_timer_exit vector'
# the costs, each run N times
SCENARIOS='busy 300
irqoff 50
hrtimer 100
softirq 100
preempt 300
sleep 2000
nmi 50'

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
echo 1024 > $D/buffer_size_kb
echo "$n" > $R/params.txt
uname -r > $R/uname.txt
echo "$SCENARIOS" > $R/scenarios.txt

# bad input is refused and runs nothing
for bad in 'bogus 5' 'busy 0' 'busy' 'busy 5000000' 'sleep x'; do
	echo "$bad" > $T/breakdown 2> /dev/null &&
		fail "breakdown took '$bad'" || pass "breakdown refuses '$bad'"
done
check_eq "nothing ran for bad input" "$(wc -l < $T/breakdown_result)" 0

# each marker spec alone, so that a refusal names its spec
: > $R/specs.txt
set --
while IFS= read -r spec; do
	if printf '%s\n' "$spec" | dd of=$D/probes conv=notrunc 2> /dev/null; then
		printf 'accepted\t%s\n' "$spec" >> $R/specs.txt
		set -- "$@" -p "$spec"
	else
		err=$(tail -n 1 $D/error_log)
		printf 'refused\t%s\t%s\n' "$spec" "$err" >> $R/specs.txt
		{ echo "# $spec"; cat $D/error_log; } >> $R/error_log.txt
		case $spec in
		*=nmi:*|*=irq_vectors:*) echo "NOTE: $P: marker refused: $spec: $err" ;;
		*) fail "marker refused: $spec: $err" ;;
		esac
	fi
	echo > $D/probes
done <<EOF
$SPECS
EOF
if $L record --help 2>&1 | grep -q -- '--breakdown'; then
	set -- --breakdown
	echo --breakdown > $R/mode.txt
else
	echo -p > $R/mode.txt
fi

# the pairs, pinned to CPU 1; the reader on CPU 0
cat > /tmp/bd-run.sh <<EOF
while read -r s; do
	i=0
	while [ \$i -lt $n ]; do
		echo "\$s" > $T/breakdown || echo "\$s: refused" >> $R/bd_refused.txt
		i=\$((i + 1))
	done
done <<END
$SCENARIOS
END
EOF
echo reset > $T/breakdown
taskset -c 0 $L record -o $R/bd.cap "$@" -- taskset -c 1 sh /tmp/bd-run.sh 2> $R/record.err
rc=$?
[ $rc = 0 ] && pass "record with markers ran (rc 0, $(cat $R/mode.txt))" ||
	fail "record with markers: rc $rc: $(head -c 300 $R/record.err)"
[ $rc = 0 ] || { echo "# after record"; cat $D/error_log; } >> $R/error_log.txt
cat $T/breakdown_result > $R/bd_result.txt
cat $D/stats > $R/stats.txt

# each scenario's N lines, on CPU 1, its cost seen (nmi: if it could run)
while read -r s us; do
	got=$(grep -c "^$s cpu=1 " $R/bd_result.txt)
	if [ "$s" = nmi ] && grep -q '^nmi ' $R/bd_refused.txt 2> /dev/null; then
		echo "NOTE: $P: nmi refused ($got results): no NMI handler"
		continue
	fi
	check_eq "$s $us: $n results on CPU 1" "$got" "$n"
	zero=$(grep "^$s " $R/bd_result.txt | grep -c 'injected_ns=0 ')
	check_eq "$s $us: every run saw its cost (injected_ns > 0)" "$zero" 0
	recs=$($L report $R/bd.cap 2> /dev/null | grep -c "bd $s in")
	check_eq "$s $us: $n opening records in bd.cap" "$recs" "$n"
done <<EOF
$SCENARIOS
EOF

# no markers: busy 300 three times
echo reset > $T/breakdown
taskset -c 0 $L record -o $R/nobd.cap -- taskset -c 1 sh -c \
	"for i in 1 2 3; do echo 'busy 300' > $T/breakdown; done" 2> $R/nobd-record.err
rc=$?
[ $rc = 0 ] && pass "record without markers ran (rc 0)" ||
	fail "record without markers: rc $rc: $(head -c 300 $R/nobd-record.err)"
cat $T/breakdown_result > $R/nobd_result.txt
check_eq "busy 300 without markers: 3 results" "$(grep -c '^busy cpu=1 ' $R/nobd_result.txt)" 3
[ -z "$(cat $D/probes)" ] && pass "no probe left attached" || fail "probes left: $(cat $D/probes)"
rmmod logdev_test
rmmod logdev
finish
