#!/bin/sh
# Guest side of vm-callees (busybox sh; issue 26, point 5): discovery.
# `logdev callees` lists what a function calls, from its machine code in
# /proc/kcore: logdev_test's lt_cal_parent (two calls of lt_cal_fast, one of
# lt_probe_delay, a tail call of lt_cal_tail), and the real kernel's
# kfree_skbmem and ptrace_may_access; `logdev record --callees FUNC` probes
# FUNC and its callees for the recording (none left after it), and
# `deltas --durations --by-parent` names the slow callee.  Then the same
# investigation through ftrace's function_graph, printed beside it
# (docs/ANALYSIS.md quotes both).
#   guest-callees.sh
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
LT=/sys/kernel/debug/logdev_test
L=/logdev/logdev.static
P=vm-callees
. /logdev/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
cd $R || exit 1
say() { echo "# $*"; sh -c "$*" 2>&1; }

# 1. the list, from the module's function
say "$L callees lt_cal_parent" | tee callees-lt.txt
for f in lt_cal_fast lt_probe_delay; do
	grep -q "^  probe logdev_test:$f calls=" callees-lt.txt && pass "lt_cal_parent calls $f" ||
		fail "lt_cal_parent: no probe line for $f"
done
grep -q "^  probe logdev_test:lt_cal_fast calls=2" callees-lt.txt &&
	pass "lt_cal_fast: its two call sites counted" || fail "lt_cal_fast: not calls=2"
grep -q "^  probe logdev_test:lt_cal_tail .*tail=1" callees-lt.txt &&
	pass "lt_cal_tail: found as a tail call (jmp)" || fail "lt_cal_tail: not a tail call"
say "$L callees --probes lt_cal_parent" > probes-lt.txt
check_eq "--probes: FUNC and its three callees, as probes-file lines" \
	"$(grep -c '^r:' probes-lt.txt)" 4

# 2. record --callees: the slow callee named by --by-parent
say "$L record --callees lt_cal_parent -o lt.cap -- sh -c 'echo 20 300 > $LT/probe_callees'" \
	> record-lt.txt
cat record-lt.txt
check_eq "record --callees: no probe left after the recording" "$(cat $D/probes)" ""
say "$L deltas --durations --by-parent lt.cap" > byparent-lt.txt
cat byparent-lt.txt
# the row of lt_probe_delay under lt_cal_parent (columns: from to count
# min median p99 max total self [probes probes(us)] parent): 20 calls, the
# slowest call by median (a total can be one call stretched by the host
# under TCG: lt_cal_tail once took 12.6 ms in one of its 20 calls)
awk '$1 ~ /^lt_probe_delay/ && $NF ~ /^lt_cal_parent/ { n = $3 } END { exit !(n == 20) }' \
	byparent-lt.txt && pass "--by-parent: lt_probe_delay under lt_cal_parent, 20 calls" ||
	fail "--by-parent: no row of 20 lt_probe_delay calls under lt_cal_parent"
top=$(awk '$NF ~ /^lt_cal_parent/ { print $5, $1 }' byparent-lt.txt | sort -n | tail -n 1 | cut -d' ' -f2)
case "$top" in
lt_probe_delay*) pass "--by-parent: the slow callee has the slowest calls under lt_cal_parent (median)" ;;
*) fail "--by-parent: the slowest calls (median) under lt_cal_parent are '$top', not lt_probe_delay" ;;
esac
say "$L deltas --durations --inside lt_cal_parent lt.cap" | grep -A4 '^inside '

# 3. the real kernel's functions (the modules' symbols, lowest first, kept
# for a lookup that goes wrong: a module whose symbols span vmlinux's text)
grep '\[' /proc/kallsyms | sort | sed -n '1,5p' > kallsyms-mods-low.txt
say "$L callees kfree_skbmem" | tee callees-skb.txt
grep -q "^  probe kmem_cache_free " callees-skb.txt && pass "kfree_skbmem: kmem_cache_free found" ||
	fail "kfree_skbmem: kmem_cache_free not among its callees"
say "$L callees ptrace_may_access" | tee callees-ptrace.txt
grep -q "^  probe __ptrace_may_access " callees-ptrace.txt &&
	pass "ptrace_may_access: __ptrace_may_access found" ||
	fail "ptrace_may_access: __ptrace_may_access not among its callees"
# one level down, as the docs' path goes on: the LSM hook under it
say "$L callees __ptrace_may_access" | tee callees-ptrace2.txt
grep -q "^  probe security_ptrace_access_check " callees-ptrace2.txt &&
	pass "__ptrace_may_access: security_ptrace_access_check found" ||
	fail "__ptrace_may_access: security_ptrace_access_check not among its callees"
# what a listing costs (kallsyms read and parsed, the bytes read and decoded)
echo "# time $L callees kfree_skbmem"
time $L callees kfree_skbmem > /dev/null
# the LSM hooks: called through a list of pointers (6.1) or static calls (6.12+)
say "$L callees security_ptrace_access_check"
say "$L callees no_such_function_here"
check_eq "a FUNC that is not there: exit 2, a bad argument (as record --callees)" "$($L callees no_such_function_here 2>/dev/null; echo $?)" 2

# 4. the investigation on ptrace_may_access: /proc/1/stat reads call it
say "$L record --callees ptrace_may_access -o pt.cap -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do cat /proc/1/stat; done > /dev/null'"
check_eq "record --callees ptrace_may_access: no probe left" "$(cat $D/probes)" ""
say "$L deltas --durations --by-parent pt.cap" > byparent-pt.txt
cat byparent-pt.txt
awk '$1 ~ /^__ptrace_may_access/ && $NF ~ /^ptrace_may_access/ { ok = 1 } END { exit !ok }' \
	byparent-pt.txt &&
	pass "--by-parent on the real kernel: __ptrace_may_access under ptrace_may_access" ||
	fail "--by-parent: no __ptrace_may_access row under ptrace_may_access"

# 5. the same with ftrace's function_graph, for the docs' comparison (not a
# check of logdev).  Not under QEMU 7.2 (the machine type in DMI says which,
# pc-i440fx-7.2): its multi-threaded TCG wedged ftrace's text patching when
# function_graph was switched off, on 6.1 and 6.1-rt (an RCU stall, or one
# vCPU re-taking an int3: docs/KERNELS.md)
T=/sys/kernel/debug/tracing
[ -d $T ] || T=/sys/kernel/tracing
qv=$(cat /sys/class/dmi/id/product_version 2> /dev/null)
case "$qv" in
pc-*-[1-9][0-9].*|pc-*-[89].*) ;;
*)
	echo "# function_graph comparison skipped: machine '$qv' (QEMU 7.2 or unknown wedges ftrace's text patching)"
	T=/nonexistent ;;
esac
if [ -f $T/available_tracers ] && grep -qw function_graph $T/available_tracers; then
	echo "# function_graph on the same two investigations"
	# fg FUNC WORK: FUNC and its direct callees, no interrupts, then the
	# time per callee summed from the graph's lines (the step --by-parent
	# does): "  1.234 us    |    name();" and "} /* name */" closings
	fg() {
		echo > $T/trace
		say "cd $T; echo $1 > set_graph_function; echo 2 > max_graph_depth; echo 0 > options/funcgraph-irqs; echo function_graph > current_tracer"
		say "$2; echo 0 > tracing_on"
		say "grep -v '^#' $T/trace | head -n 12"
		echo "# the time per callee, summed from the trace (awk)"
		grep -v '^#' $T/trace | awk -v f="$1" '
			{ line = $0; sub(/^ *[0-9]+\) */, "", line) }
			line ~ /[0-9.]+ us *\|/ {
				t = line; sub(/ *us.*/, "", t); gsub(/[^0-9.]/, "", t)
				n = line; sub(/.*\| */, "", n); sub(/\(\);.*/, "", n); sub(/^} \/\* /, "", n); sub(/ \*\/.*/, "", n)
				if (n == "}") n = f
				sum[n] += t; cnt[n]++
			}
			END { for (n in sum) printf "%6d calls %12.3f us  %s\n", cnt[n], sum[n], n }' | sort -k3 -n -r
		echo nop > $T/current_tracer	# after the reading: a new tracer empties the buffer
		echo 1 > $T/tracing_on
		echo 0 > $T/max_graph_depth
		echo 1 > $T/options/funcgraph-irqs
		echo > $T/set_graph_function
	}
	fg lt_cal_parent "echo '20 300' > $LT/probe_callees"
	fg ptrace_may_access "for i in 1 2 3 4 5 6 7 8 9 10; do cat /proc/1/stat; done > /dev/null"
	pass "function_graph run for comparison"
else
	echo "# no function_graph tracer in this kernel"
fi
finish
