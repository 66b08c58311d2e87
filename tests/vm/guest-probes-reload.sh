#!/bin/sh
# Guest side of vm-probes-reload (busybox sh): probes on a module's
# functions across its unload and load (issue 12 item 6), as ftrace's
# kprobe_events keeps them: listed "state=gone" with their counts while the
# module is away, armed again when it comes back; a MOD:SYM probe on a
# module not loaded is accepted "state=pending" and armed when it loads,
# also on its __init code (which fires during the init, then is gone).
# All in one recording; the records of both loads are checked by name and
# value (logdev report).  Then probe writers race module loads.
#   guest-probes-reload.sh [ROUNDS]   (ROUNDS of the race, default 20)
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
PF=$D/probes
EL=$D/error_log
LT=/sys/kernel/debug/logdev_test
P=vm-probes-reload
rounds=${1:-20}
. /logdev/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }

# add DEF: one write(2) of DEF; prints dd's error text on failure.
add() {
	o=$(printf '%s\n' "$1" | dd of=$PF conv=notrunc 2>&1)
	case "$o" in
	*rror*) echo "$o" | grep -i error; return 1 ;;
	esac
	return 0
}
ok_add() {
	if err=$(add "$1"); then pass "accepts '$1'"; else fail "refuses '$1': $err"; fi
}
bad() {
	if err=$(add "$1"); then fail "accepted '$1'"
	elif echo "$err" | grep -q "$2"; then pass "refuses '$1' ($2)"
	else fail "'$1' refused with '$err', want '$2'"; fi
}
# logged WHAT PATTERN: the last error_log entry's reason matches PATTERN
logged() {
	if tail -n 3 $EL | head -n 1 | grep -q "$2"; then pass "error_log: $1"
	else fail "error_log for $1: $(tail -n 3 $EL | head -n 1)"; fi
}
# field FILE NAME KEY: KEY=VALUE of probe NAME's line in FILE ("" if none);
# state: "armed" when the line has no state=
field() {
	l=$(grep "^[prt][0-9]*:$2 " "$1")
	case "$3" in
	state) case "$l" in *" state="*) echo "$l" | sed 's/.* state=\([a-z]*\).*/\1/' ;;
		"") ;; *) echo armed ;; esac ;;
	*) echo "$l" | sed -n "s/.* $3=\\([-0-9]*\\).*/\\1/p" ;;
	esac
}
# expect FILE NAME HITS STATE [RETURNS]: one check of a listing line
expect() {
	h=$(field "$1" "$2" hits) s=$(field "$1" "$2" state) r=$(field "$1" "$2" returns)
	if [ "$h" = "$3" ] && [ "$s" = "$4" ] && [ "${5:-$r}" = "$r" ]; then
		pass "$(basename "$1" .txt): $2 hits=$3${5:+ returns=$5} $4"
	else
		fail "$(basename "$1" .txt): $2: hits '$h' state '$s' returns '$r', want hits=$3 $4${5:+ returns=$5}: $(grep "^[prt][0-9]*:$2 " "$1")"
	fi
}

ok_add 'p:tgt lt_probe_target i=$arg1:u64'
ok_add 'p:mtgt logdev_test:lt_probe_target m=$arg2:x64'
ok_add 'r:rtgt logdev_test:lt_probe_target $retval:u64'
addr=$(grep ' lt_probe_typed	\[logdev_test\]' /proc/kallsyms | cut -d' ' -f1)
ok_add "p:atgt 0x$addr"
ok_add 'p:pend logdev_syma:lsym_a_fn x=$arg1:u64'
# a tracepoint of a module (logdev_test's lt_probe_tp, hit by each
# lt_probe_target() call): found through the tracepoint module notifier
ok_add 't:ttp=logdev_test:lt_probe_tp v=$arg1:u64 m=$arg2:x64'
bad 't:tpn=logdev_test:lt_probe_tp i' 'not supported'
logged "arguments by name of a module's tracepoint are refused, saying why" \
	'lt_probe_tp is a tracepoint of module logdev_test: arguments by name are known for vmlinux.s tracepoints only; \$argN works' 
bad 't:tpx=logdev_test:no_such_tp_logdev' 'No such file'
logged "a tracepoint found nowhere" "no tracepoint 'no_such_tp_logdev' in vmlinux or a loaded module"
# a t: listing line ("t:NAME SYSTEM:EVENT ARGS", as cat probes prints it)
# written back is the same probe (it was refused: found by a fresh user)
ok_add 't:ttw logdev_test:lt_probe_tp v=$arg1:u64'
l=$(grep '^t:ttw ' $PF | sed 's/ hits=.*//')
check_eq "a t: probe in the listing's form lists as written" "$l" 't:ttw logdev_test:lt_probe_tp v=$arg1:u64'
ok_add '-:ttw'
ok_add "$l"
check_eq "its listing line, written back, lists the same" "$(grep '^t:ttw ' $PF | sed 's/ hits=.*//')" "$l"
ok_add '-:ttw'
bad 't:bad-name logdev_test:lt_probe_tp' 'Invalid argument'
bad 't:lt_probe_tp $arg1:u64' 'Invalid argument'
ok_add 'p:nosym logdev_syma:no_such_fn_logdev'
# an __init function of a loaded module is freed: refused, with the way out
bad 'p:initp logdev_test:lt_probe_init_target' 'No such file'
logged "an __init function of a loaded module says how to probe it" \
	'an __init function of logdev_test is probed by writing the probe before the module loads' 
bad 'p:nomod no_such_module_logdev' 'No such file'
cat $PF > $R/before.txt
expect $R/before.txt tgt 0 armed
expect $R/before.txt ttp 0 armed
expect $R/before.txt pend 0 pending
expect $R/before.txt nosym 0 pending

cat > /tmp/work.sh <<EOF
echo '10 0 0' > $LT/probe_work
rmmod logdev_test
cat $PF > $R/mid.txt
printf '%s\n' 'p:initp logdev_test:lt_probe_init_target n=\$arg1:u64' >> $PF
cat $PF > $R/mid2.txt
insmod /logdev/logdev_syma.ko
echo 1 > /sys/kernel/debug/logdev_syma/fire
cat $PF > $R/syma.txt
rmmod logdev_syma
insmod /logdev/logdev_test.ko
echo '10 0 0' > $LT/probe_work
cat $PF > $R/after.txt
EOF
/logdev/logdev.static record -o $R/reload.cap -- sh /tmp/work.sh > $R/record.out 2> $R/record.err
rc=$?
[ $rc = 0 ] && pass "record ran" || fail "logdev record exit $rc: $(head -c 300 $R/record.err)"
cat $EL > $R/error_log.txt

# while logdev_test is away: gone, counts kept; pending ones pending
expect $R/mid.txt tgt 10 gone
expect $R/mid.txt ttp 10 gone
expect $R/mid.txt mtgt 10 gone
expect $R/mid.txt rtgt 10 gone 10
expect $R/mid.txt atgt 3 gone
expect $R/mid.txt pend 0 pending
expect $R/mid2.txt initp 0 pending
# logdev_syma loaded: pend armed (one call at load, one fired), nosym not
expect $R/syma.txt pend 2 armed
expect $R/syma.txt nosym 0 pending
grep -q '^p:nosym .* state=pending error=-2$' $R/syma.txt &&
	pass "syma: nosym listed with its arming error (-2)" ||
	fail "syma: nosym: $(grep '^p:nosym' $R/syma.txt)"
grep -q 'logdev: error: probe nosym not armed on the load of logdev_syma: no symbol no_such_fn_logdev in it' $R/error_log.txt &&
	pass "error_log: why nosym was not armed on the load" ||
	fail "error_log has no line for nosym: $(tr '\n' '|' < $R/error_log.txt | tail -c 400)"
# logdev_test back: re-armed, counts go on; the address probe stays gone
expect $R/after.txt tgt 20 armed
expect $R/after.txt ttp 20 armed
expect $R/after.txt mtgt 20 armed
expect $R/after.txt rtgt 20 armed 20
expect $R/after.txt atgt 3 gone
expect $R/after.txt pend 2 gone
expect $R/after.txt initp 3 gone

# the records of both loads, by name and value
/logdev/logdev.static report $R/reload.cap > $R/report.txt 2> $R/report.err
v=$(grep -o ' tgt:0 i=[0-9]*' $R/report.txt | sed 's/.*i=//' | tr '\n' ' ')
check_eq "report: tgt's 20 records, i = 0..9 from each load" "$v" \
	"0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 "
check_eq "report: mtgt's 20 records, m=0xabcd" "$(grep -c ' mtgt:0 m=0xabcd  +' $R/report.txt)" 20
v=$(grep -o ' ttp:0 v=[0-9]* m=0xabcd' $R/report.txt | sed 's/.*v=\([0-9]*\).*/\1/' | tr '\n' ' ')
check_eq "report: ttp's 20 records (the module's tracepoint), v = 0..9 from each load" "$v" \
	"0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 "
v=$(grep -o ' rtgt%return:0 retval=[0-9]*' $R/report.txt | sed 's/.*=//' | tr '\n' ' ')
check_eq "report: rtgt's returns, 2i + 0xabcd from each load" "$v" \
	"43981 43983 43985 43987 43989 43991 43993 43995 43997 43999 43981 43983 43985 43987 43989 43991 43993 43995 43997 43999 "
v=$(grep -o ' initp:0 n=[0-9]*' $R/report.txt | sed 's/.*=//' | tr '\n' ' ')
check_eq "report: initp fired in logdev_test's init, n = 0..2" "$v" "0 1 2 "
check_eq "report: pend's 2 records in logdev_syma" "$(grep -c ' pend:0 x=[0-9]*  +' $R/report.txt)" 2
check_eq "report: atgt's 3 records (first load only)" "$(grep -c ' atgt:0  *+' $R/report.txt)" 3

# a gone probe is removed like any other, and can be written again
ok_add '-:atgt'
ok_add 'p:atgt2 logdev_test:lt_probe_typed'
echo '1 0 0' > $LT/probe_work
expect $PF atgt2 3 armed

# FUNC written while one module defined it is armed again in that module,
# though another module defines FUNC too by then (lsym_dup_target is in both
# logdev_syma and logdev_symb)
insmod /logdev/logdev_syma.ko
ok_add 'p:dd lsym_dup_target'
insmod /logdev/logdev_symb.ko
rmmod logdev_syma
insmod /logdev/logdev_syma.ko
echo 1 > /sys/kernel/debug/logdev_syma/fire
echo 1 > /sys/kernel/debug/logdev_symb/fire
expect $PF dd 2 armed
rmmod logdev_syma; rmmod logdev_symb

# probe writers against module loads and unloads: one task adds and removes
# probes on logdev_test (MOD:SYM and FUNC) while another loads and unloads
# it; no oops, and at the end every probe on it is armed with the module
# loaded.  The race boots on two CPUs (run-tests.sh).
: > $PF
( i=0; while [ ! -e /tmp/stop ]; do
	printf 'p:w%s logdev_test:lt_probe_target\n' $((i % 4)) >> $PF 2>/dev/null
	printf '%s\n' "-:w$(((i + 2) % 4))" >> $PF 2>/dev/null
	printf 'p:f%s lt_probe_target\n' $((i % 3)) >> $PF 2>/dev/null
	printf 't:t%s=logdev_test:lt_probe_tp\n' $((i % 2)) >> $PF 2>/dev/null
	printf '%s\n' "-:t$(((i + 1) % 2))" >> $PF 2>/dev/null
	cat $PF > /dev/null
	i=$((i + 1))
done; echo $i > /tmp/writes ) &
wpid=$!
# rmmod may find the module held for a moment (EAGAIN: register_kprobe()
# takes a reference while it patches the module's text): it is retried
k=0
while [ $k -lt "$rounds" ]; do
	t=0
	until rmmod logdev_test 2> /tmp/rmmod.err; do
		t=$((t + 1))
		grep -q 'temporarily unavailable' /tmp/rmmod.err && [ $t -lt 100 ] ||
			{ fail "race: rmmod logdev_test (round $k): $(cat /tmp/rmmod.err)"; break; }
		sleep 0.05
	done
	insmod /logdev/logdev_test.ko || fail "race: insmod logdev_test (round $k)"
	k=$((k + 1))
done
touch /tmp/stop
wait $wpid
echo "race: $rounds reloads, $(cat /tmp/writes) writer rounds"
cat $PF > $R/race.txt
nbad=$(grep -c 'state=' $R/race.txt)
nw=$(grep -c '^p:w' $R/race.txt)
[ "$nbad" = 0 ] && [ "$nw" -ge 1 ] &&
	pass "race: $rounds reloads under probe writers; the $(wc -l < $R/race.txt) probes left are all armed" ||
	fail "race: probes not armed with logdev_test loaded: $(tr '\n' '|' < $R/race.txt)"
echo '5 0 0' > $LT/probe_work
for w in $(sed -n 's/^[pt]:\([wft][0-9]*\) .*/\1/p' $R/race.txt); do
	h=$(field $PF $w hits)
	[ "$h" -ge 5 ] 2>/dev/null || fail "race: $w hits '$h' after 5 calls"
done
pass "race: the probes left fire"
dmesg | grep -E 'BUG:|WARNING:|Oops|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage' > $R/dmesg-bad.txt
[ ! -s $R/dmesg-bad.txt ] && pass "no BUG, WARNING or lockdep report in dmesg" ||
	fail "dmesg: $(head -n 3 $R/dmesg-bad.txt | tr '\n' '|')"

# logdev itself unloaded with gone and pending probes
add 'p:pend2 logdev_syma:lsym_a_fn' > /dev/null
add 't:ttp2=logdev_test:lt_probe_tp' > /dev/null
rmmod logdev_test
expect $PF ttp2 0 gone
if rmmod logdev; then pass "rmmod logdev with gone and pending probes"; else fail "rmmod logdev"; fi
# a notifier left behind would be called (freed code) by the next load
insmod /logdev/logdev.ko && insmod /logdev/logdev_syma.ko && rmmod logdev_syma &&
	rmmod logdev && [ -z "$(dmesg | grep -E 'BUG|Oops')" ] &&
	pass "modules load and unload after logdev left with probes (no notifier left behind)" ||
	fail "module loads after rmmod logdev: $(dmesg | grep -E 'BUG|Oops' | head -n 2)"

# a module's tracepoint across logdev's own unload: logdev_tpmod (nothing
# of logdev's in it) loaded before logdev is found through the tracepoint
# notifier's registration; logdev leaves with a probe armed on it; the
# tracepoint fires after that, and the module unloads with no WARNING (the
# tracepoint core checks that no probe is left on a going module's
# tracepoints)
TM=/sys/kernel/debug/logdev_tpmod/fire
insmod /logdev/logdev_tpmod.ko || fail "insmod logdev_tpmod.ko"
insmod /logdev/logdev.ko || fail "insmod logdev.ko (after logdev_tpmod)"
ok_add 't:tm=ltp:ltp_fire_tp v=$arg1:u64 m=$arg2:x64'
echo 3 > $TM
expect $PF tm 3 armed
if rmmod logdev; then pass "rmmod logdev with a probe armed on a loaded module's tracepoint"
else fail "rmmod logdev with a probe on logdev_tpmod's tracepoint"; fi
echo 2 > $TM && pass "the tracepoint fires after logdev left" || fail "logdev_tpmod fire after rmmod logdev"
rmmod logdev_tpmod || fail "rmmod logdev_tpmod"
dmesg | grep -E 'BUG:|WARNING:|Oops' > $R/dmesg-tp.txt
[ ! -s $R/dmesg-tp.txt ] && pass "logdev_tpmod unloads after logdev left with its tracepoint probed: no WARNING, BUG or Oops" ||
	fail "dmesg: $(head -n 3 $R/dmesg-tp.txt | tr '\n' '|')"
finish
