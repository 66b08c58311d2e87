#!/bin/sh
# Guest side of vm-probes-cli (busybox sh; issue 26, point 1): a probe
# removed and added again keeps its site (one id in formats, the same label,
# `deltas --durations --inside` finds its calls in both captures), and
# `logdev record -p SPEC` / `--probe-file` attach probes for a recording and
# remove them after it however it ends (COMMAND, SIGINT, SIGTERM, a non-zero
# COMMAND, a refused later -p: exit 2 with the kernel's error_log text,
# nothing recorded), leaving a probe that was there before alone.
#   guest-probes-cli.sh
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
PF=$D/probes
LT=/sys/kernel/debug/logdev_test
L=/logdev/logdev.static
V=/logdev/vmtool
P=vm-probes-cli
. /logdev/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
chmod +x $V
cd $R || exit 1

work() { echo "20 0 0" > $LT/probe_work; }
# names: the probe names of the listing, sorted, one line
names() { sed 's/^[^:]*:\([^ ]*\) .*/\1/' $PF | sort | tr '\n' ' '; }
# sites NAME: how many sites "formats" has for probe NAME
sites() { awk -F'\t' -v n="$1" '$2 == "probe" && $4 == n { c++ } END { print c + 0 }' $D/formats; }
# inside CAP FUNC: the "inside" line of deltas --durations --inside FUNC
inside() { $L deltas --durations --inside "$2" "$1" 2>&1 | grep '^inside '; }

# 1. the same probe removed and added again (as a user would, by echo)
echo 'r:lt_probe_target' >> $PF || fail "echo r:lt_probe_target"
$L record -o a.cap -- sh -c 'echo "20 0 0" > /sys/kernel/debug/logdev_test/probe_work'
echo -:lt_probe_target >> $PF
echo 'r:lt_probe_target' >> $PF || fail "echo r:lt_probe_target again"
$L record -o b.cap -- sh -c 'echo "20 0 0" > /sys/kernel/debug/logdev_test/probe_work'
echo -:lt_probe_target >> $PF
grep 'lt_probe_target' $D/formats > formats-ab.txt
check_eq "re-added: one site for lt_probe_target in formats" "$(sites lt_probe_target)" 1
check_eq "re-added: one site for lt_probe_target%return in formats" \
	"$(sites 'lt_probe_target%return')" 1
la=$($L report a.cap | grep -o ' lt_probe_target[^ ]*' | sort -u | tr '\n' ' ')
lb=$($L report b.cap | grep -o ' lt_probe_target[^ ]*' | sort -u | tr '\n' ' ')
check_eq "re-added: the labels of the second capture are the first's" "$lb" "$la"
check_eq "re-added: the labels are name:0, no #N" "$la" " lt_probe_target%return:0  lt_probe_target:0 "
for c in a b; do
	i=$(inside $c.cap lt_probe_target)
	echo "$c: $i"
	case "$i" in
	"inside lt_probe_target: 20 calls,"*) pass "capture $c: --inside lt_probe_target finds its 20 calls" ;;
	*) fail "capture $c: --inside lt_probe_target: '$i'" ;;
	esac
done

# 1b. the first recording with -p on a module never calibrated calibrates
# it at its end (no other probe attached), and its capture has the figures
$L deltas --durations a.cap > a-cost.txt 2>&1
check "record without -p: no calibration made, none in its capture" \
	"$(grep '^probe cost' a-cost.txt)" grep -q '^probe cost: not taken out: the capture has no calibration' a-cost.txt
$L record -o cal.cap -p 'r:lt_probe_target' -- sh -c "echo '20 0 0' > $LT/probe_work"
$L deltas --durations cal.cap > cal-cost.txt 2>&1
check "record -p: its capture's durations have the probe cost taken out" \
	"$(grep '^probe cost' cal-cost.txt)" grep -q '^probe cost: taken out' cal-cost.txt
check_eq "record -p: no probe left after the calibration" "$(grep -c . $PF)" 0

# 2. record -p: attached for the recording, removed after; a probe there
# before (keepme) untouched
echo 'p:keepme lt_probe_delay' >> $PF || fail "echo p:keepme"
before=$(names)
# an offset that is an instruction boundary on this kernel's build
off=
for o in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	if { echo "p:offtry lt_probe_target+$o" >> $PF; } 2>/dev/null; then
		off=$o
		echo -:offtry >> $PF
		break
	fi
done
check "an offset probe point in lt_probe_target" "none of +1..+16" test -n "$off"
$L record -o c.cap -p 'r:lt_probe_target' -p "p:tgtoff lt_probe_target+$off" -- \
	sh -c "grep -c '^[pr]:' $PF > c.during; echo '20 0 0' > $LT/probe_work"
rc=$?
check_eq "record -p -- COMMAND: exit 0" "$rc" 0
check_eq "record -p: three probes listed while recording" "$(cat c.during)" 3
check_eq "record -p: only the probe there before is left" "$(names)" "$before"
i=$(inside c.cap lt_probe_target)
case "$i" in
"inside lt_probe_target: 20 calls,"*) pass "record -p: --inside lt_probe_target finds its 20 calls" ;;
*) fail "record -p: --inside lt_probe_target: '$i'" ;;
esac
check_eq "record -p: the same label as when added by echo" \
	"$($L report c.cap | grep -o ' lt_probe_target[%a-z]*:[^ ]*' | sort -u | tr '\n' ' ')" "$la"
check_eq "record -p: one site for lt_probe_target after three additions" "$(sites lt_probe_target)" 1
check_ge "record -p: the offset probe recorded" "$($L report c.cap | grep -c " tgtoff:$off ")" 20

# 3. a glob and a probe file (comments, blank lines)
printf '# probes for a test\n\n  p:g lt_probe_t*   \nr:lt_probe_delay_r lt_probe_delay\n' > pf.txt
$L record -o d.cap --probe-file pf.txt -- sh -c "grep -c '^p:g_' $PF > d.during; echo '5 0 0' > $LT/probe_work"
rc=$?
check_eq "--probe-file with a glob: exit 0" "$rc" 0
check_ge "--probe-file: the glob's probes listed while recording" "$(cat d.during)" 2
check_eq "--probe-file: only the probe there before is left" "$(names)" "$before"
check_ge "--probe-file: the glob's probe on lt_probe_target recorded" \
	"$($L report d.cap | grep -c ' g_[a-z_]*lt_probe_target[_0-9]*:0 ')" 5

# 4. a refused second -p: exit 2, the kernel's error_log text, the first
# removed again, nothing recorded
rm -f e.cap
$L record -o e.cap -p 'p:first lt_probe_target' -p 'p:x lt_probe_typed a=%zz' -- true 2> e.err
rc=$?
cat e.err
check_eq "a refused second -p: exit 2" "$rc" 2
check "a refused second -p: says the kernel's reason" "$(head -c 300 e.err)" \
	grep -q 'invalid register name' e.err
check "a refused second -p: names the spec" "$(head -c 300 e.err)" \
	grep -q "probe 'p:x lt_probe_typed a=%zz' (-p) refused" e.err
check_eq "a refused second -p: the first removed, the one there before kept" "$(names)" "$before"
check "a refused second -p: no capture written" "e.cap exists" test ! -e e.cap
# a refused line of a probe file: named by its line number
printf '# two probes\n\np:pf1 lt_probe_target\np:pf2 lt_probe_typed a=%%zz\n' > pf2.txt
$L record -o e.cap --probe-file pf2.txt -- true 2> e3.err
check_eq "a refused line of --probe-file: exit 2" "$?" 2
check "a refused line of --probe-file: names its line" "$(head -c 300 e3.err)" \
	grep -q "probe 'p:pf2 lt_probe_typed a=%zz' (line 4 of --probe-file) refused" e3.err
check_eq "a refused line of --probe-file: nothing left" "$(names)" "$before"
# a probe on a module not loaded: attached pending, said so, removed after
$L record -o e4.cap -p 'r:nosuchmod:nosuchfn' -- sh -c "grep -c 'state=pending' $PF > e4.during" 2> e4.err
check_eq "-p on a module not loaded: exit 0" "$?" 0
check_eq "-p on a module not loaded: listed pending while recording" "$(cat e4.during)" 1
check "-p on a module not loaded: said on stderr" "$(head -c 300 e4.err)" \
	grep -q "note: 1 probe pending (.*, from 'r:nosuchmod:nosuchfn'): its target reads as MOD:FUNC of a module not loaded" e4.err
check_eq "-p on a module not loaded: removed after" "$(names)" "$before"
# a -p whose name is the probe there before: refused, and keepme stays
$L record -o e.cap -p 'p:keepme lt_probe_target' -- true 2> e2.err
check_eq "-p with the name of a probe there before: exit 2" "$?" 2
check_eq "-p with the name of a probe there before: that probe kept" "$(names)" "$before"

# 5. COMMAND exiting non-zero: its status, probes removed
$L record -o f.cap -p 'r:lt_probe_target' -- sh -c 'exit 3'
check_eq "COMMAND exits 3: record exits 3" "$?" 3
check_eq "COMMAND exits 3: probes removed" "$(names)" "$before"

# 6. ended by SIGINT and by SIGTERM (until-stopped form)
for sig in INT TERM; do
	$V sigdfl $L record -o g$sig.cap -p 'r:lt_probe_target' -p 'p:g lt_probe_t*' > g$sig.out 2>&1 &
	pid=$!
	n=0
	while ! grep -q '^r:lt_probe_target ' $PF && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	sleep 0.5
	during=$(grep -c '^[pr]:' $PF)
	work
	kill -$sig $pid
	wait $pid
	rc=$?
	check_eq "SIG$sig: record exits 0" "$rc" 0
	check_ge "SIG$sig: the probes were listed while recording" "$during" 3
	check_eq "SIG$sig: probes removed, the one there before kept" "$(names)" "$before"
	check_ge "SIG$sig: the capture has the probe's records" \
		"$($L report g$sig.cap | grep -c ' lt_probe_target%return:0')" 20
done
check_eq "after all: one site for lt_probe_target" "$(sites lt_probe_target)" 1
check_eq "after all: keepme still listed" "$(grep -c '^p:keepme lt_probe_delay ' $PF)" 1
finish
