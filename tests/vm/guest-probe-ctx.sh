#!/bin/sh
# Guest side of vm-probe-ctx (busybox sh): probe hits recorded in the
# context of the probed code (issue 26, item 2).  logdev_test's probe_ctx
# (kernel/test/logdev_test_pctx.c) calls lt_pctx_fn() and the notrace
# lt_pctx_notrace() N times each from a task, a tasklet, a hard irq_work and
# a self-NMI; each call records its own context (edprint "pctx want= self=").
# Probes: pc_entry (lt_pctx_fn's entry: ftrace), pc_off (lt_pctx_fn+OFF, the
# first instruction past the entry: a breakpoint, then a jump), pc_nt and
# r:pc_ret (lt_pctx_notrace's entry: a breakpoint on a notrace function, one
# aggregate kprobe for two probes, then a jump; pc_ret%return from the
# return trampoline).  Recorded twice: kprobes-optimization 0 (every hit but
# pc_entry's through int3), then 1 after the optimiser ran (jumps).
#   guest-probe-ctx.sh N
# Results: int3.cap, opt.cap, kprobes-int3.txt, kprobes-opt.txt, offset.txt,
# params.txt (N);
# check-probe-ctx.sh checks every hit's context on the host.
n=${1:-20}
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
KL=/sys/kernel/debug/kprobes/list
OPT=/proc/sys/debug/kprobes-optimization
P=vm-probe-ctx
. /logdev/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
echo 1024 > $D/buffer_size_kb
echo "$n" > $R/params.txt
add() { printf '%s\n' "$1" | dd of=$D/probes conv=notrunc 2> /dev/null; }
kpoff() { sed -n "s/.*  $1+0x\([0-9a-f]*\) .*/\1/p" $KL | sort -u | tr '\n' ' '; }

[ -w $OPT ] || { fail "no $OPT (CONFIG_OPTPROBES)"; exit 1; }
echo 0 > $OPT
add 'p:pc_entry lt_pctx_fn' || fail "p:pc_entry refused"
entry=$(kpoff lt_pctx_fn); entry=${entry% }
grep "lt_pctx_fn+0x$entry " $KL | grep -q FTRACE &&
	pass "pc_entry at lt_pctx_fn+0x$entry is an ftrace kprobe" ||
	fail "pc_entry is no ftrace kprobe: $(grep lt_pctx_fn $KL | tr '\n' '|')"
# the first offset past the entry that kprobes takes: an instruction boundary
off_ok=
off=$((0x${entry:-0} + 1))
while [ $off -le $((0x${entry:-0} + 16)) ]; do
	if add "p:pc_off lt_pctx_fn+$off"; then off_ok=$off; break; fi
	off=$((off + 1))
done
[ -n "$off_ok" ] && pass "p:pc_off at lt_pctx_fn+$off_ok" || fail "no offset of lt_pctx_fn accepted"
echo "$off_ok" > $R/offset.txt
add 'p:pc_nt lt_pctx_notrace' || fail "p:pc_nt refused"
add 'r:pc_ret lt_pctx_notrace' || fail "r:pc_ret refused"
cat $D/probes > $R/probes.txt

# 1. no optimisation: pc_off, pc_nt and pc_ret's entry through int3
cat $KL > $R/kprobes-int3.txt
grep -q OPTIMIZED $R/kprobes-int3.txt &&
	fail "kprobes-optimization 0, yet optimised: $(grep OPTIMIZED $R/kprobes-int3.txt | tr '\n' '|')" ||
	pass "kprobes-optimization 0: no kprobe optimised"
/logdev/logdev.static record -o $R/int3.cap -- sh -c "echo $n > $T/probe_ctx" 2> $R/int3.err
echo "int3_rc=$?" > $R/rc.txt

# 2. optimised: the same probes, now reached through their jumps
echo 1 > $OPT
i=0
while [ $i -lt 50 ] && [ "$(grep -c 'lt_pctx_.*OPTIMIZED' $KL)" -lt 2 ]; do
	sleep 0.1; i=$((i + 1))
done
cat $KL > $R/kprobes-opt.txt
grep -q "lt_pctx_fn+0x$(printf %x "${off_ok:-0}") .*OPTIMIZED" $R/kprobes-opt.txt &&
	grep -q "lt_pctx_notrace+0x[0-9a-f]* .*OPTIMIZED" $R/kprobes-opt.txt &&
	pass "kprobes-optimization 1: pc_off and lt_pctx_notrace's kprobe optimised" ||
	fail "not optimised: $(grep lt_pctx $R/kprobes-opt.txt | tr '\n' '|')"
/logdev/logdev.static record -o $R/opt.cap -- sh -c "echo $n > $T/probe_ctx" 2> $R/opt.err
echo "opt_rc=$?" >> $R/rc.txt
cat $D/probes > $R/probes-after.txt
echo > $D/probes
rmmod logdev_test
rmmod logdev
true
