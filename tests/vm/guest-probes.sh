#!/bin/sh
# Guest side of the probes test (busybox sh, run by tools/vm/run.sh).
#   guest-probes.sh N US D
# Attaches one probe of each kind through logdev's debugfs "probes" file,
# records logdev_test's probe_work (N calls of lt_probe_target, N
# kmem_cache_free on its own cache, D calls of lt_probe_delay(US)), and saves
# the capture and the probes listing for check-probes.sh.  Then: bad
# definitions are refused with the right errno and the probe list unchanged;
# removal of one, of all (empty write, O_TRUNC); rmmod with probes attached.
# Prints PASS:/FAIL: lines; the host checks the records.
n=${1:-1000} us=${2:-500} d=${3:-20}
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
PF=$D/probes
EL=$D/error_log
P=vm-probes
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
[ -e $PF ] && pass "probes file exists" || { fail "no $PF"; exit 1; }

# add DEF: one write(2) appending DEF; prints dd's error text on failure.
add() {
	o=$(printf '%s\n' "$1" | dd of=$PF conv=notrunc 2>&1)
	case "$o" in
	*error*|*rror*) echo "$o" | grep -i error; return 1 ;;
	esac
	return 0
}
# The listing without the counters (they move while probes fire).
shape() { sed 's/ hits=.*//' $PF; }
# empty FILE: a debugfs file reads nothing ([ -s ] is no test: its size is 0)
empty() { [ -z "$(cat "$1")" ]; }

ok_add() {
	if err=$(add "$1"); then pass "accepts '$1'"; else fail "refuses '$1': $err"; fi
}

ok_add 'lt_probe_target $arg1 $arg2'
# Where kprobes put it (its list: SYM+0xOFF): at the entry, past an ENDBR64
# where the kernel has IBT and the function one (+0x4: 6.12, 7.x)
kpoff() { sed -n "s/.*  $1+0x\([0-9a-f]*\) .*/\1/p" /sys/kernel/debug/kprobes/list | sort -u | tr '\n' ' '; }
entry=$(kpoff lt_probe_target)
case $entry in
'0 '|'4 ') pass "kprobes put p:lt_probe_target at lt_probe_target+0x${entry% }" ;;
*) fail "p:lt_probe_target at '$entry' (kprobes/list: $(grep lt_probe_target /sys/kernel/debug/kprobes/list | tr '\n' '|'))" ;;
esac
entry=${entry% }
# FUNC+OFFSET: the first offset that is an instruction boundary past the
# entry kprobes took (+4 on an ENDBR64 is the entry itself, kprobes'
# "on function entry": not an offset probe)
off_ok=
off=$((${entry:-0} + 1))
while [ $off -le $((${entry:-0} + 16)) ]; do
	if add "tgt_off=lt_probe_target+$off" > /dev/null; then off_ok=$off; break; fi
	off=$((off + 1))
done
[ -n "$off_ok" ] && pass "accepts lt_probe_target+$off_ok" || fail "no offset $((${entry:-0} + 1))..$((${entry:-0} + 16)) accepted"
check_eq "kprobes put tgt_off at lt_probe_target+$off_ok" "$(kpoff lt_probe_target)" \
	"$(printf '%x %x ' "${entry:-0}" "${off_ok:-0}")"
echo "$off_ok" > $R/offset.txt
ok_add 'r:tgt_ret=lt_probe_target $arg1 $retval'
ok_add 'r:lt_probe_delay $arg1 $retval'
ok_add 'kmem_cache_free $arg1'
ok_add 't:tp_kcf=kmem:kmem_cache_free $arg3'
# ftrace's kprobe_events syntax, as written for it (issue 12): typed fetch
# arguments on logdev_test's lt_probe_typed (3 calls; check-probes.sh
# checks the values printed).
ok_add 'p:kprobes/typed lt_probe_typed s=+0($arg1):string n=$arg3:s64 v=+8($arg2):u32 vx=+8($arg2):x32 b=+8($arg2):s8 nm=+0(+16($arg2)):string fn=$arg4:symbol mg=@lt_probe_magic:u32'
ok_add 'r:typed_ret lt_probe_typed $retval:s64'
ok_add 'p:cm lt_probe_typed $comm lo=$arg3:u8 di=%di:x64 neg=+0(%si):s64'
ok_add 'p lt_probe_typed $arg3:s32'
ok_add 'p:flt lt_probe_typed bad=+0(+8($arg3)):u64'
ok_add 'r3 lt_probe_typed'
# a format longer than 255 bytes keeps every argument (it was cut at 255
# while the payload held all seven strings: values under the wrong names)
long=
for i in 1 2 3 4 5 6 7; do long="$long c${i}bcdefghijklmnopqrstuvwxyz01=\$comm"; done
ok_add "p:longfmt lt_probe_typed$long"
grep -qx 'p:kprobes/typed lt_probe_typed s=+0($arg1):string n=$arg3:s64 v=+8($arg2):u32 vx=+8($arg2):x32 b=+8($arg2):s8 nm=+0(+16($arg2)):string fn=$arg4:symbol mg=@lt_probe_magic:u32 hits=0 missed=0' $PF &&
	grep -q '^p:p_lt_probe_typed_0 lt_probe_typed \$arg3:s32 hits=0' $PF &&
	grep -q '^r3:r_lt_probe_typed_0 lt_probe_typed hits=0 returns=0' $PF &&
	pass "ftrace syntax listed: GRP/NAME, default names p_SYM_0 and r_SYM_0, MAXACTIVE" ||
	fail "ftrace syntax listing: $(grep typed $PF | tr '\n' '|')"
# A probe that misses: logdev's own ld_write_print() runs inside the other
# probes' handlers, where the kprobes core skips a nested kprobe and counts
# it in nmissed (it hits only from the tracepoint's handler, which is no
# kprobe); check-probes.sh: the reader's warning.
ok_add 'p:nest logdev:ld_write_print'
# a first recording, so that nest has misses before the one checked: the
# warning must count only the checked recording's (issue 24)
/logdev/logdev.static record -o /tmp/warm.cap --duration 1 > /dev/null 2>&1
rm -f /tmp/warm.cap
cat $PF > $R/probes-before.txt

/logdev/logdev.static record -o $R/probes.cap -- \
	sh -c "echo '$n $us $d' > /sys/kernel/debug/logdev_test/probe_work"
rc=$?
[ $rc = 0 ] && pass "record ran" || fail "logdev record exit $rc"
cat $PF > $R/probes-after.txt
cat $D/formats > $R/formats.txt
cat $D/stats > $R/stats.txt
echo "$n $us $d" > $R/params.txt
grep -qF '	probe	0	typed	s=\"%s\"%s n=%lld v=%llu%s vx=0x%llx%s b=%lld%s nm=\"%s\"%s fn=%pS mg=%llu%s' $R/formats.txt &&
	pass "formats: the probe's format carries the types" ||
	fail "typed format: $(grep '	typed	' $R/formats.txt)"

lf=$(grep '	probe	0	longfmt	' $R/formats.txt | cut -f5)
want=$(for i in 1 2 3 4 5 6 7; do printf 'c%sbcdefghijklmnopqrstuvwxyz01=\\"%%s\\"%%s ' $i; done)
[ "$lf " = "$want" ] && pass "formats: longfmt's 7 arguments in a ${#lf}-byte format" ||
	fail "longfmt format: '$lf', want '$want'"
v=$(/logdev/logdev.static report $R/probes.cap 2> /dev/null | grep -m 1 ' longfmt:0 ' | sed 's/.* longfmt:0 //; s/  +.*//')
want=$(for i in 1 2 3 4 5 6 7; do printf 'c%sbcdefghijklmnopqrstuvwxyz01="sh" ' $i; done)
[ "$v " = "$want" ] && pass "report: longfmt's 7 values under their names" ||
	fail "longfmt record: '$v', want '$want'"

# hits as the probes file counts them
hits() { grep "^$1 " $R/probes-after.txt | sed -n 's/.* hits=\([0-9]*\).*/\1/p'; }
rets() { grep "^$1 " $R/probes-after.txt | sed -n 's/.* returns=\([0-9]*\).*/\1/p'; }
h=$(hits p:lt_probe_target); [ "$h" = "$n" ] && pass "p:lt_probe_target hits=$n" ||
	fail "p:lt_probe_target hits '$h', want $n"
h=$(hits p:tgt_off); [ "$h" = "$n" ] && pass "p:tgt_off hits=$n" ||
	fail "p:tgt_off hits '$h', want $n"
h=$(hits r:tgt_ret); r=$(rets r:tgt_ret)
[ "$h" = "$n" ] && [ "$r" = "$n" ] && pass "r:tgt_ret hits=$n returns=$n" ||
	fail "r:tgt_ret hits '$h' returns '$r', want $n"
h=$(hits r:lt_probe_delay); r=$(rets r:lt_probe_delay)
[ "$h" = "$d" ] && [ "$r" = "$d" ] && pass "r:lt_probe_delay hits=$d returns=$d" ||
	fail "r:lt_probe_delay hits '$h' returns '$r', want $d"
for p in p:kmem_cache_free t:tp_kcf; do
	h=$(hits $p)
	[ -n "$h" ] && [ "$h" -ge "$n" ] && pass "$p hits=$h >= $n" || fail "$p hits '$h', want >= $n"
done

# bad DEF ERRNO_TEXT: refused with that error, probe list unchanged.
bad() {
	before=$(shape)
	err=$(add "$1")
	rc=$?
	after=$(shape)
	if [ $rc = 0 ]; then
		fail "accepted bad '$1'"
	elif ! echo "$err" | grep -q "$2"; then
		fail "'$1' refused with '$err', want '$2'"
	elif [ "$before" != "$after" ]; then
		fail "'$1' refused but the probe list changed"
	else
		pass "refuses '$1' ($2), list kept"
	fi
}
bad 'no_such_function_logdev' 'No such file'
bad 'r:no_such_function_logdev' 'No such file'
bad 't:kmem:no_such_tracepoint_logdev' 'No such file'
grep -q '	kprobe_int3_handler$' /sys/kernel/debug/kprobes/blacklist ||
	fail "kprobe_int3_handler not in the kprobes blacklist"
bad 'kprobe_int3_handler' 'Invalid argument'
bad 'lt_probe_target $arg7' 'Invalid argument'
bad 'lt_probe_target $retval' 'Invalid argument'
bad 'lt_probe_target $bogus' 'Invalid argument'
bad 'r:lt_probe_target+4' 'Invalid argument'
bad 'lt_probe_target+x' 'Invalid argument'
bad 't:kmem_cache_free' 'Invalid argument'
bad '9bad=lt_probe_target' 'Invalid argument'
bad 'bad-name=lt_probe_target' 'Invalid argument'
bad 'lt_probe_target' 'File exists'
bad '-no_such_probe' 'No such file'
bad '-lt_probe_target junk' 'Invalid argument'
# ftrace's syntax, refused as ftrace refuses it; error_log says why and where
bad 'p:x lt_probe_typed s=$arg1:string' 'Invalid argument'
bad 'p:x lt_probe_typed a=$arg1:u7' 'Invalid argument'
bad 'p:x lt_probe_typed a=%zz' 'Invalid argument'
bad 'p:x lt_probe_typed a=+0($arg1' 'Invalid argument'
bad 'p:x lt_probe_typed a=+0(+0(+0(+0(+0($arg1))))):u8' 'Invalid argument'
bad 'p:x lt_probe_typed a=+8($comm)' 'Invalid argument'
# one sign per offset, as ftrace (kstrtol() of the signed word)
bad 'p:x lt_probe_typed a=--5($arg1)' 'Invalid argument'
bad 'p:x lt_probe_typed a=+-5($arg1)' 'Invalid argument'
bad 'p:x lt_probe_typed a=-+5($arg1)' 'Invalid argument'
bad 'p:x lt_probe_typed a=--9223372036854775808($arg1)' 'Invalid argument'
bad 'p:x lt_probe_typed a=+0(@lt_probe_magic--4):u32' 'Invalid argument'
bad 'p:x lt_probe_typed a=-9223372036854775809($arg1)' 'Invalid argument'
tail -n 3 $EL | head -n 1 | grep -q 'invalid dereference offset (one sign, then a number that fits a long)' &&
	pass "error_log: a double sign or an offset out of range says why" ||
	fail "error_log for a double sign: $(tail -n 3 $EL | head -n 1)"
bad 'p:x lt_probe_typed $comm:u32' 'Invalid argument'
bad 'p:x lt_probe_typed a=@no_such_symbol_logdev' 'No such file'
bad 'r5000 lt_probe_typed' 'Invalid argument'
bad 'p:a/b/c lt_probe_typed' 'Invalid argument'
bad 'p:x lt_probe_typed $retval' 'Invalid argument'
bad 'p:x lt_probe_typed $arg1 $arg2 $arg3 $arg4 $arg5 $arg6 $comm a=$stack0 b=$stack1' 'Argument list too long'
bad '-:nogroup/typed_ret' 'No such file'
bad 'r3' 'Invalid argument'	# ftrace's head, no probe point
bad 'p:x lt_probe_typed a=%zz' 'Invalid argument'
l1=$(tail -n 3 $EL | sed -n 1p) l2=$(tail -n 3 $EL | sed -n 2p) l3=$(tail -n 3 $EL | sed -n 3p)
echo "$l1" | grep -q 'logdev: error: invalid register name' &&
	[ "$l2" = '  Command: p:x lt_probe_typed a=%zz' ] &&
	[ "$l3" = "$(printf '%33s^' '')" ] &&
	pass "error_log: bad register, caret under its name" || fail "error_log for %zz: '$l1' '$l2' '$l3'"
# a missing symbol names the ones that contain it
bad 'p:x lt_probe_typ' 'No such file'
tail -n 3 $EL | head -n 1 | grep -q 'no symbol lt_probe_typ; symbols containing it (1): logdev_test:lt_probe_typed$' &&
	pass "error_log: a missing symbol names its candidates" ||
	fail "error_log for lt_probe_typ: $(tail -n 3 $EL | head -n 1)"
# r:FOO next to FOO: why, and how to name it
bad 'r:lt_probe_target' 'File exists'
tail -n 3 $EL | head -n 1 | grep -qF 'a probe named lt_probe_target exists (p: on the same function;' &&
	tail -n 3 $EL | head -n 1 | grep -qF 'e.g. r:lt_probe_target_ret lt_probe_target' &&
	pass "error_log: r:FOO next to FOO says how to name it" ||
	fail "error_log for r:lt_probe_target: $(tail -n 3 $EL | head -n 1)"
# removal in ftrace's form, group checked
if add '-:kprobes/typed' > /dev/null && add '-:typed_ret' > /dev/null &&
	! grep -q '^p:kprobes/typed \|^r:typed_ret ' $PF; then pass "-:GRP/NAME and -:NAME remove"
else fail "-:kprobes/typed: $(cat $PF | tr '\n' '|')"; fi
o=$(printf 'a\nb\n' | dd of=$PF conv=notrunc 2>&1)
case "$o" in *Invalid*) pass "refuses two lines in one write" ;; *) fail "two lines: '$o'" ;; esac

# removal: one; a blank write removes nothing (ftrace's kprobe_events; it
# removed all before, so the lone '\n' of a command written in two pieces
# cleared the list); all by O_TRUNC
if add '-tgt_off' > /dev/null && ! grep -q '^p:tgt_off ' $PF &&
	[ "$(wc -l < $PF)" = 11 ]; then pass "-tgt_off removes one, 11 left"
else fail "-tgt_off: $(cat $PF | tr '\n' '|')"; fi
printf '' | dd of=$PF conv=notrunc 2>/dev/null
printf '\n' | dd of=$PF conv=notrunc 2>/dev/null
[ "$(wc -l < $PF)" = 11 ] && pass "a blank write removes nothing, 11 left" ||
	fail "after a blank write: $(cat $PF | tr '\n' '|')"
: > $PF
empty $PF && pass "O_TRUNC removes all" || fail "after O_TRUNC: $(cat $PF | tr '\n' '|')"
add 'lt_probe_target' > /dev/null; add 'r:lt_probe_delay' > /dev/null
[ "$(wc -l < $PF)" = 2 ] || fail "re-adding two probes: $(cat $PF | tr '\n' '|')"
: > $PF
empty $PF && pass "O_TRUNC removes all again" || fail "after O_TRUNC: $(cat $PF | tr '\n' '|')"

# Ambiguous names: refused with EADDRNOTAVAIL, the reason in error_log; a
# module-qualified name or an address picks one.  lsym_dup_target is defined
# by both logdev_syma and logdev_symb; jhash by many vmlinux files.
[ -r $EL ] && pass "error_log exists" || fail "no $EL"
true > $EL
empty $EL && pass "error_log empty after O_TRUNC" || fail "error_log after O_TRUNC: $(head -c 200 $EL)"
insmod /logdev/logdev_syma.ko && insmod /logdev/logdev_symb.ko || fail "insmod logdev_syma/b"
nj=$(grep -c ' jhash$' /proc/kallsyms)
[ "$nj" -gt 1 ] && pass "jhash is defined $nj times in vmlinux" || fail "jhash defined $nj times, test needs > 1"
bad 'p:dupx=jhash' 'assign requested address'
# error_log: "[ts] logdev: error: REASON", "  Command: TEXT", caret under jhash
l1=$(sed -n 1p $EL) l2=$(sed -n 2p $EL) l3=$(sed -n 3p $EL)
echo "$l1" | grep -Eq '^\[ *[0-9]+\.[0-9]{6}\] logdev: error: .*jhash.*' &&
	echo "$l1" | grep -q "$nj" &&
	pass "error_log names the reason: $l1" || fail "error_log line 1: '$l1'"
[ "$l2" = "  Command: p:dupx=jhash" ] && pass "error_log shows the command" ||
	fail "error_log line 2: '$l2'"
[ "$l3" = "                  ^" ] && pass "error_log points at the symbol" ||
	fail "error_log line 3: '$l3'"
bad 'r:dupr=jhash' 'assign requested address'
bad 'p:dupy=lsym_dup_target' 'assign requested address'
grep -q 'lsym_dup_target.*2' $EL && pass "error_log: lsym_dup_target defined 2 times" ||
	fail "error_log lacks lsym_dup_target: $(tail -n 3 $EL | tr '\n' '|')"
bad 'p:dupz=logdev_syma:no_such_function_logdev' 'No such file'
# MOD:FUNC of a module not loaded is pending (armed when it loads: vm-probes-reload)
ok_add 'p:dupz=no_such_module_logdev:lsym_dup_target'
grep -q '^p:dupz no_such_module_logdev:lsym_dup_target hits=0 missed=0 state=pending$' $PF &&
	add '-dupz' > /dev/null && pass "MOD:FUNC of a module not loaded is listed pending" ||
	fail "pending MOD:FUNC: $(grep dupz $PF)"
bad 'p:dupz=0x1234' 'No such file'
ok_add 'p:dupa=logdev_syma:lsym_dup_target $arg1'
baddr=$(grep ' lsym_dup_target	\[logdev_symb\]' /proc/kallsyms | cut -d' ' -f1)
ok_add "p:dupb=0x$baddr \$arg1"
grep -q "^p:dupa logdev_syma:lsym_dup_target " $PF && grep -q "^p:dupb 0x$baddr " $PF &&
	pass "listing shows MOD:SYM and the address" || fail "listing: $(cat $PF | tr '\n' '|')"
echo 1 > /sys/kernel/debug/logdev_syma/fire
echo 1 > /sys/kernel/debug/logdev_symb/fire
echo 1 > /sys/kernel/debug/logdev_symb/fire
ha=$(sed -n 's/^p:dupa .* hits=\([0-9]*\).*/\1/p' $PF)
hb=$(sed -n 's/^p:dupb .* hits=\([0-9]*\).*/\1/p' $PF)
[ "$ha" = 1 ] && [ "$hb" = 2 ] && pass "MOD:SYM hits only logdev_syma's copy (1), the address only logdev_symb's (2)" ||
	fail "hits dupa '$ha' (want 1) dupb '$hb' (want 2)"
: > $PF
# An empty NAME after ':' is refused in every kind, as ftrace refuses 'p: SYM'
# ("Event name is not specified"); the forms without ':' (and ftrace's
# 'p:GRP/ SYM') take the default name.
bad 'p: lt_probe_target' 'Invalid argument'
tail -n 3 $EL > /tmp/el3
l1=$(sed -n 1p /tmp/el3) l2=$(sed -n 2p /tmp/el3) l3=$(sed -n 3p /tmp/el3)
echo "$l1" | grep -qF "logdev: error: no probe name after ':': give one (p:NAME SYM), or leave out the ':' (p SYM) for the default name" &&
	[ "$l2" = '  Command: p: lt_probe_target' ] && [ "$l3" = "$(printf '%13s^' '')" ] &&
	pass "error_log: 'p: SYM' has no probe name, caret after the ':'" ||
	fail "error_log for 'p: SYM': '$l1' '$l2' '$l3'"
bad "$(printf 'p:\tlt_probe_target')" 'Invalid argument'
bad 'p: lt_probe_target $arg1' 'Invalid argument'
bad 'p: lt_probe_target%return' 'Invalid argument'
bad 'p: logdev_test:lt_probe_target' 'Invalid argument'
bad 'p: lt_probe_t*' 'Invalid argument'
bad 'r: lt_probe_target' 'Invalid argument'
bad 'r4: lt_probe_target $retval' 'Invalid argument'
tail -n 3 $EL | head -n 1 | grep -qF "no probe name after ':': give one (r:NAME SYM)" &&
	pass "error_log: 'r4: SYM' has no probe name" || fail "error_log for 'r4: SYM': $(tail -n 3 $EL | head -n 1)"
# an offset at or past the function's end is refused, not put on the next
# function (kprobes takes any instruction boundary): its size from the
# module's symbols in address order
set -- $(grep '\[logdev_test\]' /proc/kallsyms | sort | awk '$3 == "lt_probe_target" { print $1; getline; print $1; exit }')
sz=$((0x${2:-0} - 0x${1:-0}))
if [ "$sz" -gt 0 ] && [ "$sz" -lt 65536 ]; then
	bad "p:offend lt_probe_target+$sz" 'Numerical result out of range'
	tail -n 3 $EL | head -n 1 | grep -qF "lt_probe_target+$sz is past the end of lt_probe_target ($sz bytes, /proc/kallsyms)" &&
		pass "error_log: FUNC+SIZE is past the end of FUNC, its size said" ||
		fail "error_log for lt_probe_target+$sz: $(tail -n 3 $EL | head -n 1)"
	bad "p:offfar lt_probe_target+$((sz + 4096))" 'Numerical result out of range'
else
	fail "lt_probe_target's size from /proc/kallsyms: '$sz' ($*)"
fi
bad 't: kmem:kmem_cache_free' 'Invalid argument'
bad 't:=kmem:kmem_cache_free' 'Invalid argument'
bad 'p:=lt_probe_target' 'Invalid argument'
bad 'r:=lt_probe_target' 'Invalid argument'
bad 'p:/ lt_probe_target' 'Invalid argument'
bad 'p:/x lt_probe_target' 'Invalid argument'
bad '-:' 'Invalid argument'
bad '-:kprobes/' 'Invalid argument'
empty $PF && pass "no probe after the empty names" || fail "probes after the empty names: $(cat $PF | tr '\n' '|')"
ok_add 'p lt_probe_target'
ok_add 'r lt_probe_target'
ok_add 'p:grp/ lt_probe_delay'
[ "$(shape | tr '\n' '|')" = 'p:p_lt_probe_target_0 lt_probe_target|r:r_lt_probe_target_0 lt_probe_target|p:grp/p_lt_probe_delay_0 lt_probe_delay|' ] &&
	pass "'p SYM', 'r SYM', 'p:GRP/ SYM' take the default names" ||
	fail "default names: $(cat $PF | tr '\n' '|')"
# one command, one trailing newline: a second one or a NUL is refused
for v in 'p:x lt_probe_target\n\n' 'p:x lt_probe_target\0000\n' '\0000p:x lt_probe_target\n'; do
	before=$(shape)
	o=$(printf '%b' "$v" | dd of=$PF conv=notrunc 2>&1)
	case "$o" in
	*Invalid*) [ "$before" = "$(shape)" ] && pass "probes: refuses '$v', list kept" ||
		fail "probes: '$v' refused but the list changed" ;;
	*) fail "probes: '$v': '$o'" ;;
	esac
done
: > $PF
# Names are identifiers: [A-Za-z_][A-Za-z0-9_]*, bytes above 0x7f refused.
bad "$(printf 'p:caf\351=lt_probe_target')" 'Invalid argument'
bad "$(printf 'p:\303\251t\303\251=lt_probe_target')" 'Invalid argument'
bad "$(printf 'p:a\rb=lt_probe_target')" 'Invalid argument'
bad 'p:a b=lt_probe_target' 'Invalid argument'
bad "$(printf 'p:ok=lt_probe_target n\351=$arg1')" 'Invalid argument'
bad "$(printf 'lt_probe_target\351')" 'Invalid argument'
# Argument names are unique within a probe (entry and return together), as
# ftrace's kprobe_events: "This argument name is already used", EINVAL; a
# default name (argN from $argN, retval) counts as a name.
bad 'p:dupargs=kmem_cache_alloc x=$arg1 x=$arg2' 'Invalid argument'
tail -n 3 $EL > /tmp/el3
l1=$(sed -n 1p /tmp/el3) l2=$(sed -n 2p /tmp/el3) l3=$(sed -n 3p /tmp/el3)
echo "$l1" | grep -q 'logdev: error: argument name is already used' &&
	[ "$l2" = '  Command: p:dupargs=kmem_cache_alloc x=$arg1 x=$arg2' ] &&
	[ "$l3" = '                                              ^' ] &&
	pass "error_log: duplicate argument name, caret under the second x" ||
	fail "error_log for dupargs: '$l1' '$l2' '$l3'"
bad 'p:dupargs=lt_probe_target $arg1 $arg1' 'Invalid argument'
bad 'p:dupargs=lt_probe_target arg2=$arg1 $arg2' 'Invalid argument'
bad 'r:dupargs=lt_probe_target retval=$arg1 $retval' 'Invalid argument'
bad 'r:dupargs=lt_probe_target y=$arg1 y=$retval' 'Invalid argument'
ok_add 'p:dupok=lt_probe_target x=$arg1 y=$arg1 $arg2'
grep -qF 'p:dupok lt_probe_target x=$arg1 y=$arg1 $arg2' $PF &&
	pass "the same source under two names is accepted" || fail "dupok: $(cat $PF | tr '\n' '|')"
: > $PF
empty $PF && pass "no probe left after the refusals" || fail "probes left: $(cat $PF | tr '\n' '|')"
cat $EL > $R/error_log.txt
n_el=$(grep -c '^\[' $EL)
[ "$n_el" -ge 8 ] && pass "error_log keeps the last errors ($n_el)" || fail "error_log has $n_el entries"
true > $EL
empty $EL && pass "error_log cleared by O_TRUNC" || fail "error_log not cleared"
rmmod logdev_symb; rmmod logdev_syma
grep -q "	probe	0	lt_probe_target	arg1=0x%llx arg2=0x%llx" $R/formats.txt &&
	pass "formats lists the probe site (file probe, line 0), untyped arguments as ftrace's x64" ||
	fail "no probe site in formats"
grep -q "	probe	$off_ok	tgt_off	" $D/formats &&
	pass "formats keeps a removed probe's site (line $off_ok)" ||
	fail "removed probe's site missing from formats"

# Finding functions: probe_functions lists the text functions matching a
# glob, without the kprobe blacklist, renamed ones marked; glob specs attach
# to every match up to 64.
LF=$D/probe_functions
echo 'lt_probe_t*' > $LF
l=$(cat $LF | tr '\n' '|')
[ "$l" = "# 2 functions match lt_probe_t*; 0 not probe-able (kprobe blacklist, or not a probe point) left out; 0 names defined more than once (probe them as 0xADDR)|logdev_test:lt_probe_target|logdev_test:lt_probe_typed|" ] &&
	pass "probe_functions lists lt_probe_t*" || fail "probe_functions lt_probe_t*: $l"
echo 'kprobe_int3_handler' > $LF
l=$(cat $LF | tr '\n' '|')
[ "$l" = "# 1 functions match kprobe_int3_handler; 1 not probe-able (kprobe blacklist, or not a probe point) left out; 0 names defined more than once (probe them as 0xADDR)|" ] &&
	pass "probe_functions leaves the blacklisted out" || fail "probe_functions kprobe_int3_handler: $l"
# a function gcc renamed, as a user finds one: vmlinux's text in
# /proc/kallsyms (not the __pfx_/__cfi_ padding labels before each function
# since 6.2), then its base name's glob in probe_functions; the first of
# five listed (one may be blacklisted: then counted as not probe-able)
marked=
for isra in $(grep ' [tT] [A-Za-z0-9_]*\.isra\.[0-9]*$' /proc/kallsyms | cut -d' ' -f3 |
	grep -v '^__pfx_\|^__cfi_' | head -n 5); do
	echo "${isra%%.*}*" > $LF
	if grep -qxF "$isra	(renamed by the compiler: .isra.)" $LF; then marked=$isra; break; fi
	head -n 1 $LF | grep -q '; 0 not probe-able' &&
		fail "probe_functions ${isra%%.*}*: $isra neither listed nor left out: $(tr '\n' '|' < $LF)"
done
[ -n "$marked" ] && pass "probe_functions marks $marked as renamed" ||
	fail "no .isra. function of /proc/kallsyms marked renamed (last: $isra: $(tr '\n' '|' < $LF))"
# the label of its padding (CONFIG_CALL_PADDING, 6.2+) is no function
pfx=$(grep -m 1 " [tT] __pfx_$marked\$" /proc/kallsyms | cut -d' ' -f3)
echo "*$marked" > $LF
if [ -n "$pfx" ]; then
	check_eq "probe_functions *$marked leaves out $pfx" "$(grep -c '^__pfx_' $LF)" 0
	check_eq "probe_functions *$marked counts one function" "$(head -n 1 $LF | cut -d' ' -f2)" 1
else
	pass "no __pfx_ label before $marked (no CONFIG_CALL_PADDING)"
fi
o=$(printf 'a b\n' | dd of=$LF conv=notrunc 2>&1)
case "$o" in *Invalid*) pass "probe_functions refuses 'a b'" ;; *) fail "probe_functions 'a b': '$o'" ;; esac
# the rules of every control file: one trailing newline, nothing around the
# glob (\0000: a NUL byte for printf %b); EINVAL and the glob kept
echo 'lt_probe_t*' > $LF
l0=$(head -n 1 $LF)
for v in ' ' '\t' ' \n' '\n\n' ' lt_probe_t*\n' '\tlt_probe_t*' 'lt_probe_t* \n' 'lt_probe_t*\t\n' \
	'lt_probe_t*\r\n' 'lt_probe_t*\n\n' 'lt_probe_t*\0000' 'lt_probe_t*\0000\n' 'lt_probe_t* x\n' \
	'vfs_read\0000x\n'; do
	o=$(printf '%b' "$v" | dd of=$LF conv=notrunc 2>&1)
	case "$o" in
	*Invalid*) [ "$(head -n 1 $LF)" = "$l0" ] && pass "probe_functions: refuses '$v', glob kept" ||
		fail "probe_functions: '$v' refused but the glob changed: $(head -n 1 $LF)" ;;
	*) fail "probe_functions: '$v': '$o' (now $(head -n 1 $LF))" ;;
	esac
done
printf 'lt_probe_ty*' > $LF && head -n 1 $LF | grep -q '^# 1 functions match lt_probe_ty\*;' &&
	pass "probe_functions: a glob without its newline is taken" ||
	fail "probe_functions 'lt_probe_ty*' without newline: $(head -n 1 $LF)"
: > $PF
ok_add 'p:lt_probe_t* $arg1'
[ "$(sed 's/ hits=.*//' $PF | tr '\n' '|')" = 'p:logdev_test_lt_probe_target logdev_test:lt_probe_target $arg1|p:logdev_test_lt_probe_typed logdev_test:lt_probe_typed $arg1|' ] &&
	pass "glob p:lt_probe_t* attaches to both matches" || fail "glob attach: $(cat $PF | tr '\n' '|')"
ok_add 'r:g=lt_probe_t* $retval'
grep -q '^r:g_logdev_test_lt_probe_typed logdev_test:lt_probe_typed \$retval' $PF &&
	pass "glob with NAME= names each NAME_FUNC" || fail "glob NAME=: $(cat $PF | tr '\n' '|')"
bad 'p:*' 'Argument list too long'
tail -n 3 $EL | head -n 1 | grep -Eq 'error: \* matches [0-9]+ functions, more than 64 a glob may attach' &&
	pass "a glob matching too many says how many" || fail "glob E2BIG: $(tail -n 3 $EL | head -n 1)"
bad 'p:no_such_fn_logdev*' 'No such file'
: > $PF

# the source of the kernel's symbols these probes were checked on
# (VM_KSYMS=SOURCE of run-tests.sh: that one; else auto's choice)
want=$(sed -n 's/.*logdev\.ksyms=\([a-z]*\).*/\1/p' /proc/cmdline)
used=$(sed -n 's/^used: \([a-z]*\) .*/\1/p' $D/ksyms)
case ${want:-auto} in
auto) case $used in iter|procfs) pass "the kernel's symbols were read through $used (ksyms=auto)" ;;
      *) fail "ksyms: $(tr '\n' '|' < $D/ksyms)" ;; esac ;;
*) check_eq "the kernel's symbols were read through $want (VM_KSYMS)" "$used" "$want" ;;
esac

# probes attached while the module goes away
add 'kmem_cache_free' > /dev/null && add 'r:lt_probe_delay' > /dev/null &&
	add 't:sched:sched_switch' > /dev/null || fail "attach before rmmod"
echo 1 > $D/enable
echo '10 10 2' > /sys/kernel/debug/logdev_test/probe_work
rmmod logdev_test
if rmmod logdev; then pass "rmmod logdev with 3 probes attached"; else fail "rmmod logdev"; fi
insmod /logdev/logdev.ko && [ -e $PF ] && empty $PF &&
	pass "reloaded: no probes" || fail "reload after rmmod"
rmmod logdev
finish
