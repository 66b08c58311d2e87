#!/bin/sh
# Guest side of vm-probes-ftrace (busybox sh): an ftrace user's session,
# printed as a transcript (docs/DEBUGFS.md shows it): the two probes of
# Documentation/trace/kprobetrace.rst written exactly as there, a third in
# the same syntax with a nested dereference to a string, a fourth with a
# signed return value, recorded around `cat /proc/version /nonexistent` and
# reported with their typed arguments.  do_sys_open (the documentation's
# function) is not called by x86-64's open syscalls on 6.1, so its two
# probes stay at 0 hits, as in ftrace.
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
P=vm-probes-ftrace
. /logdev/lib.sh
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
cd $D
say() { echo "# $*"; sh -c "$*" 2>&1; }
# the function that opens a path (dfd, struct filename *, op): do_filp_open
# to 6.x, do_file_open since 7.0; the one probe_functions lists
echo 'do_fil?_open' > probe_functions
openfn=$(grep -m 1 -x 'do_fil[ep]_open' probe_functions)
[ -n "$openfn" ] && pass "probe_functions lists $openfn" ||
	fail "neither do_filp_open nor do_file_open in probe_functions: $(tr '\n' '|' < probe_functions)"
say "echo 'do_sys_open*' > probe_functions; cat probe_functions"
say "echo 'p:myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4(\$stack)' >> probes"
say "echo 'r:myretprobe do_sys_open \$retval' >> probes"
say "echo 'p:myopen $openfn path=+0(+0(%si)):string flags=+4(%dx):x32 \$comm' >> probes"
say "echo 'r:myretprobe2 do_sys_openat2 \$retval:s32' >> probes"
say "cat probes"
say "cat error_log"
cat probes > $R/probes.txt
/logdev/logdev.static record -o $R/ftrace.cap -- cat /proc/version /nonexistent > /dev/null 2> $R/record.err
echo "# logdev record -o ftrace.cap -- cat /proc/version /nonexistent; logdev report ftrace.cap | grep ' cat-'"
/logdev/logdev.static report $R/ftrace.cap 2> $R/report.err | grep -E ' (myprobe|myretprobe|myretprobe2%return|myopen):' > $R/report.txt
grep ' cat-' $R/report.txt
say "echo -:myprobe >> probes; cat probes"
grep -q '^p:myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4($stack) hits=0' $R/probes.txt &&
	grep -q '^r:myretprobe do_sys_open $retval hits=0' $R/probes.txt &&
	pass "the documentation's two probes accepted as written (do_sys_open: 0 hits on x86-64 6.1)" ||
	fail "documentation's probes: $(cat $R/probes.txt | tr '\n' '|')"
grep -q ' cat-[0-9]* myretprobe2%return:0 retval=-2 ' $R/report.txt &&
	grep -q ' cat-[0-9]* myretprobe2%return:0 retval=3 ' $R/report.txt &&
	pass "myretprobe2: retval=3 for /proc/version, retval=-2 (ENOENT) for /nonexistent, as s32" ||
	fail "myretprobe2: $(grep myretprobe2 $R/report.txt | tr '\n' '|')"
grep -q ' myopen:0 path="/proc/version" flags=0x[0-9a-f]* comm="cat"' $R/report.txt &&
	pass "myopen: path=\"/proc/version\" (string through two dereferences), comm=\"cat\"" ||
	fail "no myopen record of /proc/version: $(grep myopen $R/report.txt | head -n 3)"
grep -q '^p:myprobe ' probes && fail "-:myprobe did not remove it" || pass "-:myprobe removes it"

# The documentation's examples adapted to 6.1 x86-64, typed: do_sys_open is
# inlined into the open syscalls, which reach do_sys_openat2(dfd, filename,
# how); x86-64 passes arguments in di, si, dx (the documentation's %ax %dx
# %cx +4($stack) are i386's regparm); flags and mode are in *how (+0, +8);
# the filename is a user pointer (ustring is not supported: its address).
# The string example, +0(%di):string[1] = +0(+0(%di)):string, on
# $openfn(dfd, struct filename *, op): the name is at +0 of %si.
echo "# --- the same examples on 6.1 x86-64, typed"
say "echo > probes"
say "echo 'p:myprobe do_sys_openat2 dfd=%di:s32 filename=%si:x64 flags=+0(%dx):x32 mode=+8(%dx):u16' >> probes"
say "echo 'r:myretprobe do_sys_openat2 \$retval:s32' >> probes"
say "echo 'p:myopen $openfn path=+0(+0(%si)):string' >> probes"
/logdev/logdev.static record -o $R/ftrace64.cap -- cat /proc/version /nonexistent > /dev/null 2> $R/record64.err
say "cat probes"
echo "# logdev record -o ftrace64.cap -- cat /proc/version /nonexistent; logdev report ftrace64.cap | grep ' cat-'"
/logdev/logdev.static report $R/ftrace64.cap 2> $R/report64.err | grep ' cat-' > $R/report64.txt
cat $R/report64.txt
grep -Eq ' cat-[0-9]+ myprobe:0 dfd=-100 filename=0x[0-9a-f]+ flags=0x8000 mode=0  ' $R/report64.txt &&
	grep -Eq ' cat-[0-9]+ myretprobe%return:0 retval=3 duration=' $R/report64.txt &&
	grep -Eq ' cat-[0-9]+ myretprobe%return:0 retval=-2 duration=' $R/report64.txt &&
	grep -Eq ' myopen:0(#[0-9]+)? path="/proc/version"  ' $R/report64.txt &&
	grep -Eq ' myopen:0(#[0-9]+)? path="/nonexistent"  ' $R/report64.txt &&
	pass "adapted examples: dfd=-100 (AT_FDCWD) flags=0x8000 mode=0, retval 3 and -2, both paths" ||
	fail "adapted examples: $(tr '\n' '|' < $R/report64.txt)"

# Tracepoint arguments by name (issue 12 item 1): a bare identifier in a t:
# probe is a TP_PROTO argument, its position and type from the kernel's BTF
# (__bpf_trace_<class>).  Each named probe has a twin written with $argN and
# the same types: both run in the same tracepoint call, one after the other
# on that CPU, so each named record is followed (on its CPU and context) by
# its twin's with the same text.
echo "# --- tracepoint arguments by name"
say "echo > probes; : > error_log"
# A kernel without BTF (CONFIG_DEBUG_INFO_BTF: the debug kernels of make
# check-debug have none) refuses names with the reason, and $argN works:
# that is checked instead, and the by-name checks are skipped.
btf=1
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	btf=
	printf 't:kmem:kmem_cache_free ptr\n' | dd of=probes conv=notrunc 2> $R/nobtf.err
	grep -q 'Operation not supported' $R/nobtf.err &&
		grep -q 'logdev: error: this kernel has no BTF (CONFIG_DEBUG_INFO_BTF): arguments by name are not known; \$argN works' error_log &&
		pass "no BTF: an argument by name is refused (EOPNOTSUPP), error_log says \$argN works" ||
		fail "no BTF: by name: $(tr '\n' '|' < $R/nobtf.err) $(grep 'logdev: error' error_log)"
	echo "SKIP: $P: tracepoint arguments by name: this kernel has no BTF"
fi
if [ -n "$btf" ]; then
say "echo 't:kmem:kmem_cache_free ptr call_site s sp=+0(s):x64' >> probes"
say "echo 't:kcf_argn=kmem:kmem_cache_free ptr=\$arg2:x64 call_site=\$arg1:u64 s=\$arg3:x64 sp=+0(\$arg3):x64' >> probes"
say "echo 't:sched:sched_switch preempt prev_state' >> probes"
say "echo 't:ss_argn=sched:sched_switch preempt=\$arg1:u8 prev_state=\$arg4:u32' >> probes"
say "echo 't:kcf_typed=kmem:kmem_cache_free p32=ptr:u32 cs=call_site:x64' >> probes"
say "cat probes"
say "grep -E '	(kmem_cache_free|kcf_argn|sched_switch|ss_argn|kcf_typed)	' formats"
grep -E '	(kmem_cache_free|kcf_argn|sched_switch|ss_argn|kcf_typed)	' formats > $R/tpformats.txt
/logdev/logdev.static record -o $R/tpargs.cap -- sh -c 'cat /proc/version > /dev/null; ls / > /dev/null' 2> $R/tprecord.err
echo "# logdev record -o tpargs.cap -- sh -c 'cat /proc/version; ls /'; logdev report tpargs.cap | grep -m 6 -E ' (kmem_cache_free|kcf_argn|sched_switch|ss_argn|kcf_typed):'"
/logdev/logdev.static report $R/tpargs.cap 2> /dev/null |
	grep -E ' (kmem_cache_free|kcf_argn|sched_switch|ss_argn|kcf_typed):' > $R/tpreport.txt
grep -m 3 -E ' (kmem_cache_free|kcf_argn|kcf_typed):' $R/tpreport.txt
grep -m 2 -E ' (sched_switch|ss_argn):' $R/tpreport.txt
grep -q '^t:kmem_cache_free kmem:kmem_cache_free ptr call_site s sp=+0(s):x64 hits=' probes &&
	grep -q '^t:sched_switch sched:sched_switch preempt prev_state hits=' probes &&
	pass "t: probes with arguments by name accepted and listed as written" ||
	fail "named-argument probes not listed: $(tr '\n' '|' < probes)"
grep -qF '	kmem_cache_free	ptr=0x%llx call_site=%llu s=0x%llx sp=0x%llx%s' $R/tpformats.txt &&
	grep -qF '	sched_switch	preempt=%llu prev_state=%llu' $R/tpformats.txt &&
	grep -qF '	kcf_typed	p32=%llu cs=0x%llx' $R/tpformats.txt &&
	pass "formats: pointers 0x%llx, unsigned long/bool/unsigned int %llu (BTF), :TYPE overrides (ptr:u32, call_site:x64)" ||
	fail "named-argument formats: $(tr '\n' '|' < $R/tpformats.txt)"
# the twins: pair each named record with the next $argN record of its CPU
# and context (a stack: an interrupt's pair may nest inside)
/logdev/logdev.static report --raw $R/tpargs.cap 2> /dev/null | awk -F'\t' '
$6 == "kmem_cache_free" || $6 == "sched_switch" {
	k = $2 SUBSEP $4 SUBSEP $6; st[k, ++n[k]] = $8; next }
$6 == "kcf_argn" || $6 == "ss_argn" {
	f = $6 == "kcf_argn" ? "kmem_cache_free" : "sched_switch"
	k = $2 SUBSEP $4 SUBSEP f
	if (!n[k]) { lone[f]++; next }
	if (st[k, n[k]] == $8) same[f]++; else { diff[f]++; if (!ex[f]) ex[f] = st[k, n[k]] " vs " $8 }
	n[k]--
	if ($8 !~ /^(ptr=0xffff[0-9a-f]+ call_site=[0-9]+ s=0xffff[0-9a-f]+ sp=0x[0-9a-f]+|preempt=[01] prev_state=[0-9]+)$/) odd[f]++
}
END {
	for (i = 1; i <= 2; i++) {
		f = i == 1 ? "kmem_cache_free" : "sched_switch"
		printf "%s %d %d %d %d %s\n", f, same[f], diff[f], lone[f], odd[f], ex[f]
	}
}' > $R/tppairs.txt
while read f same diff lone odd ex; do
	want=10; [ $f = sched_switch ] && want=2
	[ "$same" -ge $want ] && [ "$diff" = 0 ] && [ "$odd" = 0 ] && [ "$lone" -le 2 ] &&
		pass "$f: $same records by name equal to their \$argN twins (0 differ, $lone twins unpaired at the edges, values look right)" ||
		fail "$f: $same equal, $diff differ, $lone unpaired, $odd odd values: $ex"
done < $R/tppairs.txt

# refused, with the reason and a caret under the argument in error_log
tpbad() {
	printf '%s\n' "$1" | dd of=probes conv=notrunc 2> $R/tpbad.err
	grep -q "$2" $R/tpbad.err && pass "refuses '$1' ($2)" ||
		fail "'$1': $(tr '\n' '|' < $R/tpbad.err), want $2"
}
say ": > error_log"
tpbad 't:kmem:kmem_cache_free name' 'No such file'
tpbad 't:kmem:kmem_cache_free ptr:string' 'Invalid argument'
tpbad 't:kmem:kmalloc node' 'Invalid argument'
tpbad 't:kmem:kmem_cache_free ptr ptr' 'Invalid argument'
tpbad 't:sched:sched_switch prev_state:s7' 'Invalid argument'
say "cat error_log"
cat error_log > $R/tperror.txt
# check_err N REASON TAIL: the Nth entry gives REASON, and its caret is
# under TAIL, the end of the command
check_err() {
	r=$(awk -v n="$1" -v why="$2" -v tail="$3" '
	/^\[/ { e++ }
	e == n && /logdev: error: / { r = $0; sub(/.*logdev: error: /, "", r) }
	e == n && /^  Command: / { c = $0 }
	e == n && /^ *\^$/ { k = length($0) }
	END {
		if (r == why && substr(c, k) == tail) print "ok"
		else printf "reason \"%s\", caret under \"%s\"\n", r, substr(c, k)
	}' $R/tperror.txt)
	[ "$r" = ok ] && pass "error_log $1: $2 (caret under '$3')" ||
		fail "error_log $1: $r; want \"$2\" under '$3'"
}
check_err 1 "kmem_cache_free has no argument 'name'; its arguments: call_site ptr s" name
check_err 2 "string accepts only memory arguments: +0(ptr):string reads the string ptr points at" string
check_err 3 "'node' is argument 6 of kmalloc: logdev reads the first 5 (registers), as \$arg1..\$arg5" node
check_err 4 "argument name is already used" ptr
check_err 5 "unknown type (u8..u64, s8..s64, x8..x64, string, symbol)" s7
# $argN past the tracepoint's arguments (the raw tracepoint map's count):
# refused; it read a register holding anything, kernel addresses too
# (found by a fresh user: 't:ss=sched:sched_switch $arg5' was accepted)
tpbad 't:kcf4=kmem:kmem_cache_free $arg4' 'Invalid argument'
tpbad 't:ss5=sched:sched_switch $arg2 $arg5' 'Invalid argument'
cat error_log > $R/tperror.txt
check_err 6 '$arg4: kmem_cache_free has 3 arguments' '$arg4'
check_err 7 '$arg5: sched_switch has 4 arguments' '$arg5'
fi	# btf
say "echo > probes"
# what a name costs: 10 probes by name (each write walks kallsyms for the
# BTF and the raw tracepoint map and indexes the BTF) against 10 by $argN;
# TCG time, only the ratio means anything (docs/DEBUGFS.md)
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }	# 10 ms steps
t0=$(ms)
byname=ptr
[ -n "$btf" ] || byname='$arg2:x64'	# no BTF: the count checks below still run
for i in 1 2 3 4 5 6 7 8 9 10; do echo "t:byname$i=kmem:kmem_cache_free $byname" >> probes; done
t1=$(ms)
for i in 1 2 3 4 5 6 7 8 9 10; do echo "t:byargn$i=kmem:kmem_cache_free \$arg2:x64" >> probes; done
t2=$(ms)
echo "# 10 writes by name: $((t1 - t0)) ms; 10 by \$argN: $((t2 - t1)) ms (TCG)"
[ "$(grep -c '^t:by' probes)" = 20 ] && pass "20 timed probes attached" ||
	fail "timed probes: $(grep -c '^t:by' probes) of 20"
# blank lines and comments do nothing (ftrace's kprobe_events): only the
# O_TRUNC of "echo > probes" clears; the lone '\n' of a command written in
# two pieces used to remove every probe (found by a fresh user)
for w in '\n' ' \n' '\t' ' ' '# a comment\n' '  # indented comment'; do
	printf "$w" | dd of=probes conv=notrunc 2> $R/blank.err
	rc=$?
	n=$(grep -c '^t:by' probes)
	[ $rc = 0 ] && [ "$n" = 20 ] && pass "write '$w' accepted, changes nothing (20 probes)" ||
		fail "write '$w': rc $rc, $n of 20 probes left: $(tr '\n' '|' < $R/blank.err)"
done
printf 'xyz' | dd of=probes conv=notrunc 2> /dev/null
printf '\n' | dd of=probes conv=notrunc 2> /dev/null
[ "$(grep -c '^t:by' probes)" = 20 ] && pass "a command in two writes ('xyz', '\\n') leaves the 20 probes" ||
	fail "a command in two writes: $(grep -c '^t:by' probes) of 20 probes left"
# a write longer than one command: refused and logged, probes kept
: > error_log
long=$(head -c 5000 /dev/zero | tr '\0' a)
printf 't:kmem:kmem_cache_free %s\n' "$long" > $R/long.txt	# a file: one read, one write
dd if=$R/long.txt of=probes bs=8192 conv=notrunc 2> $R/long.err
grep -q 'Invalid argument' $R/long.err && [ "$(grep -c '^t:by' probes)" = 20 ] &&
	pass "a 5024-byte write: EINVAL, 20 probes kept" ||
	fail "a 5024-byte write: $(tr '\n' '|' < $R/long.err), $(grep -c '^t:by' probes) of 20 probes"
grep -q 'logdev: error: a write of 5024 bytes: one command is at most 1023 bytes' error_log &&
	pass "error_log says why a long write is refused" ||
	fail "error_log after a long write: $(head -c 300 error_log | tr '\n' '|')"
# a struct by value under a typedef is named by it (6.1: pte_t, anonymous)
: > error_log
printf 't:xpte=xen:xen_mmu_set_pte ptep pteval\n' | dd of=probes conv=notrunc 2> /dev/null
if grep -q 'no built-in tracepoint' error_log; then
	echo "SKIP: $P: no xen_mmu_set_pte tracepoint in this kernel"
elif [ -z "$btf" ]; then
	echo "SKIP: $P: a struct by value named by its typedef: this kernel has no BTF"
else
	grep -q "'pteval' is a struct or union passed by value (pte_t)" error_log &&
		pass "a struct by value is named by its typedef (pte_t)" ||
		fail "struct by value: $(grep 'logdev: error' error_log)"
fi
# a probe in a trace clock is refused: every writer reads the clock inside
# its reservation, so such a probe nested a record in each try and the CPU
# retried for ever (found by a fresh user with p:trace_clock_local)
: > error_log
for f in trace_clock_local trace_clock_global ktime_get_mono_fast_ns; do
	printf 'p:%s\n' "$f" | dd of=probes conv=notrunc 2> $R/clk.err
	grep -qi 'deadlock' $R/clk.err &&
		grep -q "cannot attach to $f (error -35: a trace clock, which logdev reads inside every record's reservation" error_log &&
		! grep -q " $f " probes &&
		pass "a probe in the trace clock $f is refused (EDEADLK), error_log says why" ||
		fail "probe in $f: $(tr '\n' '|' < $R/clk.err) $(grep 'logdev: error' error_log | tail -n 1)"
done
echo > probes
[ "$(grep -c . probes)" = 0 ] && pass "echo > probes (O_TRUNC) removes every probe" ||
	fail "echo > probes left $(grep -c . probes) lines"
finish
