#!/bin/bash
# The QEMU tests: boots the Debian cloud kernel (tools/vm/run.sh) with the
# modules and the static reader, and checks the results on the host.
# The kernel: LOGDEV_KVER (make check KVER=...: a name of
# tools/kernels/matrix or a release; default the matrix's first), whose
# modules tools/kernels/modules.sh builds into build/kmod/RELEASE/ (or
# LOGDEV_KMOD=DIR: logdev.ko there and the test modules in DIR/test, built
# for the kernel to boot, as for LOGDEV_VM_KERNEL below).  Expects
# userspace/logdev.static and userspace/logdev; builds the guest helper
# tests/vm/vmtool*.c (static) into the output directory.
# Prints PASS:/FAIL: lines; exits non-zero if any check failed.
#   tests/vm/run-tests.sh [--quick]     (--quick: -smp 2 only)
# VM_ONLY="vm-params vm-control": run only the groups named (a boot's name,
# e.g. vm-ctx-smp2-discard; the others are skipped without a line; a name
# no group has is a FAIL).
# Results stay in $VM_OUT (default tests/vm/out/) for a post-mortem.
# LOGDEV_VM_KERNEL=path/bzImage: boot that kernel (tools/vm/run.sh), e.g. the
# debug kernel of tools/debug-kernel.sh, with modules built against its tree;
# the short soak then runs on it (group vm-soak-image) instead of the cloud
# and PREEMPT_RT kernels.  VM_SLOW=N: that kernel is N times slower under
# TCG (KASAN, lockdep): every boot's idle watch (90 s) is N times longer,
# and the soak's timeout (VM_TIMEOUT is the other boots').  VM_KSYMS=auto|iter|procfs:
# every guest's logdev.ko reads the kernel's symbols from that source
# (logdev.ksyms= on the kernel command line, applied by tests/vm/lib.sh).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
out=${VM_OUT:-$vm/out}
quick=
[ "${1:-}" = --quick ] && quick=1
U=$top/userspace
failed=0

. "$vm/lib.sh"
# this runner's own FAIL lines name their test themselves (not lib.sh's $P)
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

K=${LOGDEV_KMOD:-}
if [ -z "$K" ] && ! K=$("$top/tools/kernels/modules.sh" --quiet "${LOGDEV_KVER:-}"); then
	fail "vm: logdev does not build for kernel '${LOGDEV_KVER:-default}' (tools/kernels/modules.sh)"
	exit 1
fi
T=$K/test
export LOGDEV_KMOD=$K	# tools/demo.sh (vm-demo) boots the same modules

missing=
for f in $K/logdev.ko $T/logdev_test.ko $T/logdev_demo.ko $T/logdev_syma.ko $T/logdev_symb.ko $T/logdev_slowcon.ko \
	$U/logdev.static $U/logdev; do
	[ -f "$f" ] || missing="$missing ${f#$top/}"
done
if [ -n "$missing" ]; then
	fail "vm: missing build products:$missing (build kernel/ and userspace/ first)"
	exit 1
fi
# The kernel the modules were built for (vermagic of logdev.ko), so a tree
# built against e.g. the -rt headers boots the -rt kernel.
kver=$(grep -ao 'vermagic=[^ ]*' "$K/logdev.ko" | head -n 1 | cut -d= -f2)
kimg=${LOGDEV_VM_KERNEL:-$("$top/tools/kernels/kernel.sh" image "$kver" 2>/dev/null)}
if [ -z "$kver" ] || [ ! -r "$kimg" ]; then
	fail "vm: ${K#$top/}/logdev.ko is built for '$kver', which has no image to boot ('$kimg')"
	exit 1
fi
echo "vm: kernel $kver, modules in ${K#$top/}"
rm -rf "$out"
mkdir -p "$out"
vmtool=$out/vmtool
if ! ${CC:-cc} -static -O2 -Wall -I "$top/include/uapi" -I "$top/include" \
	-o "$vmtool" "$vm"/vmtool*.c -lpthread 2> "$out/vmtool.err"; then
	fail "vm: cannot build tests/vm/vmtool.c: $(head -n 3 "$out/vmtool.err" | tr '\n' '|')"
	exit 1
fi

# want NAME: is group NAME to run (VM_ONLY unset, or names it)?  Every name
# asked is remembered: a VM_ONLY name no group has is a FAIL at the end.
declare -A asked
want() {
	asked[$1]=1
	[ -z "${VM_ONLY:-}" ] && return 0
	case " $VM_ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}

# boot NAME SMP SCRIPT "FILES" "ARGS" [TCG]: run the VM, print a FAIL line
# for kernel trouble, a wedge, a timeout or lost results.  Returns 0 if
# results came back.  tools/vm/run.sh ships tests/vm/lib.sh to every guest
# (/logdev/lib.sh).  TCG: multi (default) or single, see tools/vm/run.sh
# --tcg; every boot below says why it uses the one it uses.
#
# QEMU 7.2's multi-threaded TCG wedges a guest that flips a static key
# (logdev's enable) while edprint sites run on another vCPU (a stale
# translation keeps the int3 of the text patching:
# docs/DEVELOPING.md, `--tcg single`); single-threaded
# TCG does not, but runs one vCPU at a time and so finds fewer real races.
# So: multi-threaded wherever enable is only written while no edprint site
# runs, single-threaded only where enable is toggled under writers.
boot() {
	local name=$1 smp=$2 script=$3 files=$4 args=$5 tcg=${6:-multi} rc
	want "$name" || return 1
	"$top/tools/vm/run.sh" --kver "$kver" --smp "$smp" --timeout "${VM_TIMEOUT:-180}" \
		--idle $((90 * ${VM_SLOW:-1})) --tcg "$tcg" --script "$script" --files "$files" --args "$args" --out "$out/$name" \
		${VM_KSYMS:+--append "logdev.ksyms=$VM_KSYMS"} 2> "$out/$name.runlog"
	rc=$?
	case $rc in
	0) echo "PASS: $name: VM ran ($(grep -o '[0-9.]*s, results' "$out/$name.runlog" | cut -d, -f1), tcg $tcg)"; return 0 ;;
	5) fail "$name: guest script failed (see $out/$name/guest.log)"; return 0 ;;
	*) fail "$name: VM run failed (rc $rc): $(grep -v '^run.sh: kernel ' "$out/$name.runlog" | head -n 4 | tr '\n' '|')"
	   return 1 ;;
	esac
}

# 0. the runner itself: a guest whose processes all stop (no console output,
# no heartbeat: tools/vm/run.sh) is reported as wedged, with every vCPU's
# RIP, within --idle, not as a bare timeout.  --idle 20: longer than the
# silent boot of a loaded host (the heartbeat starts with /init), so the
# report is of the stopped guest, its heartbeat seen and then gone.
if want vm-wedge; then
	"$top/tools/vm/run.sh" --kver "$kver" --smp 2 --idle $((20 * ${VM_SLOW:-1})) --timeout $((120 * ${VM_SLOW:-1})) \
		--script "$vm/guest-wedge.sh" --out "$out/vm-wedge" 2> "$out/vm-wedge.runlog"
	rc=$?
	msg=$(grep 'guest wedged' "$out/vm-wedge.runlog")
	if [ $rc = 6 ] && echo "$msg" | grep -q 'no console output for [0-9]* s, no heartbeat for [0-9]* s' &&
		echo "$msg" | grep -q 'CPU0 RIP=[0-9a-f]\{16\} CPU1 RIP=[0-9a-f]\{16\}'; then
		echo "PASS: vm-wedge: a guest that stopped running is reported as wedged (console and heartbeat silent) with both vCPUs' RIP (rc 6)"
	else
		fail "vm-wedge: rc $rc (want 6), message '$msg' (want 'guest wedged: no console output for N s, no heartbeat for N s ...; CPU0 RIP=... CPU1 RIP=...'): $(head -c 300 "$out/vm-wedge.runlog" | tr '\n' '|')"
	fi
fi

# 0b. a stall report: the runner stops at its first line but keeps QEMU
# until the report's stack, 5 s later, is in console.log (it killed QEMU 2 s
# after the first line before)
if want vm-stall; then
	"$top/tools/vm/run.sh" --kver "$kver" --smp 2 --timeout $((120 * ${VM_SLOW:-1})) \
		--script "$vm/guest-stall.sh" --out "$out/vm-stall" 2> "$out/vm-stall.runlog"
	rc=$?
	if [ $rc = 6 ] && grep -q 'guest wedged: kernel reports: .*self-detected stall' "$out/vm-stall.runlog" &&
		tr -d '\r' < "$out/vm-stall/console.log" | grep -q '^vm-stall: Call Trace: fake_stall_stack'; then
		echo "PASS: vm-stall: a stall is reported (rc 6) and its stack, 5 s after its first line, is in console.log"
	else
		fail "vm-stall: rc $rc (want 6), stack in console.log: $(tr -d '\r' < "$out/vm-stall/console.log" | grep -c 'fake_stall_stack') (want 1): $(head -c 300 "$out/vm-stall.runlog" | tr '\n' '|')"
	fi
fi

# host_check NAME CHECKER DIR: run tests/vm/CHECKER on a guest's results;
# tests/include/runtest.sh makes a FAIL line of a checker that exits non-zero
# without one (or prints one and exits 0).
host_check() {
	"$top/tests/include/runtest.sh" "$1: $2" "$vm/$2" "$3" "$1" || failed=$((failed + 1))
}

# Guest-side PASS/FAIL lines (tests/vm/lib.sh's lines_of: whatever bytes
# they hold; grep alone dropped the lines naming a refused byte 0xff).
guest_lines() {
	local log=$1/guest.log
	lines_of "$log"
	failed=$((failed + $(grep -a -c '^FAIL: ' "$log")))
}

# 1. control files (multi-threaded TCG: no edprint site runs in this guest)
if boot vm-control 2 "$vm/guest-control.sh" "$K/logdev.ko" ""; then
	guest_lines "$out/vm-control"
fi

# 1b. stop: a reader blocked in read()/poll() gets the last records before
# EOF when another process writes 0 to enable (or clears).  Multi-threaded
# TCG on purpose (the race is between CPUs): enable flips the static key only
# while no edprint site runs (the burst is over), so QEMU's stale-translation
# wedge (tools/vm/run.sh --tcg) cannot happen here.
if boot vm-stop 2 "$vm/guest-stop.sh" "$K/logdev.ko $T/logdev_test.ko $vmtool" \
	"${VM_STOP_ROUNDS:-50}"; then
	guest_lines "$out/vm-stop"
fi

# 1c. control-write stress: writers in every context, consuming readers, and
# enable 0/1, flush, clear, buffer_size_kb, subbuf_size, mode, clock written
# meanwhile (tests/vm/vmtool.c).  Single-threaded TCG: enable is toggled
# while the writers run, which wedges multi-threaded TCG within a few hundred
# toggles (reproduced: vm-stress-smp2 under --tcg multi wedged after 64
# epochs, one vCPU stuck in logdev_test's edprint site).
smps="2 4"
[ -n "$quick" ] && smps=2
for smp in $smps; do
	if boot vm-stress-smp$smp "$smp" "$vm/guest-stress.sh" \
		"$K/logdev.ko $T/logdev_test.ko $vmtool" \
		"${VM_STRESS_SECS:-$((15 * ${VM_SLOW:-1}))} ${VM_STRESS_ITERS:-2000} $smp" single; then
		guest_lines "$out/vm-stress-smp$smp"
	fi
done

# 2. contexts (and the printf table) in both modes, small buffers.
# Multi-threaded TCG: logdev record enables before the writers start and
# disables after they are done, so the static key never flips under them.
for smp in $smps; do
	for mode in overwrite discard; do
		name=vm-ctx-smp$smp-$mode
		if boot "$name" "$smp" "$vm/guest-contexts.sh" \
			"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" \
			"$mode ${VM_CTX_KB:-8} ${VM_CTX_ITERS:-20000}"; then
			guest_lines "$out/$name"
			host_check "$name" check-contexts.sh "$out/$name"
			if [ "$smp" = 2 ] && [ "$mode" = overwrite ]; then
				host_check vm-printf check-printf.sh "$out/$name"
			fi
		fi
	done
done

# 3. demo smoke, through `make demo`'s own script (tools/demo.sh), so a
# broken `make demo` fails here too (multi-threaded TCG: record brackets the
# workload, as in 2.)
if want vm-demo; then
	if DEMO_OUT=$out/vm-demo "$top/tools/demo.sh" 200 > "$out/vm-demo.demolog" 2> "$out/vm-demo.runlog"; then
		echo "PASS: vm-demo: tools/demo.sh (make demo) ran and printed the report and deltas"
		guest_lines "$out/vm-demo"
		host_check vm-demo check-demo.sh "$out/vm-demo"
	else
		fail "vm-demo: tools/demo.sh (make demo) failed: $(tail -n 3 "$out/vm-demo.runlog" | tr '\n' '|') guest: $(grep -av '^PASS' "$out/vm-demo/guest.log" 2>/dev/null | head -n 2 | tr '\n' '|')"
	fi
fi

# 4. run-time probes: every kind fires the known number of times
# (multi-threaded TCG: enable is written, and probes attached, only while
# their workload is idle)
if boot vm-probes 2 "$vm/guest-probes.sh" \
	"$K/logdev.ko $T/logdev_test.ko $T/logdev_syma.ko $T/logdev_symb.ko $U/logdev.static" \
	"1000 500 20"; then
	guest_lines "$out/vm-probes"
	host_check vm-probes check-probes.sh "$out/vm-probes"
fi

# 4b. an ftrace user's session: kprobe_events syntax as documented, typed
# arguments reported (the transcript in docs/DEBUGFS.md)
if boot vm-probes-ftrace 2 "$vm/guest-probes-ftrace.sh" "$K/logdev.ko $U/logdev.static" ""; then
	guest_lines "$out/vm-probes-ftrace"
fi

# 4b2. probes by name through each source of the kernel's symbols (ksyms:
# auto, iter, procfs, and procfs with the addresses hidden): the same answers,
# the error_log texts worked out from /proc/kallsyms.  Multi-threaded TCG:
# nothing is recorded.
if boot vm-probes-ksyms 2 "$vm/guest-probes-ksyms.sh" \
	"$K/logdev.ko $T/logdev_test.ko $T/logdev_syma.ko $T/logdev_symb.ko" ""; then
	guest_lines "$out/vm-probes-ksyms"
fi

# 4c. probes across module unload and load (issue 12 item 6): listed gone
# with their counts, armed again on the load, pending MOD:SYM probes armed
# when the module comes (also on its __init code); then probe writers race
# 20 module reloads.  Multi-threaded TCG: the race is between CPUs, and
# enable is written only by logdev record around a workload.
if boot vm-probes-reload 2 "$vm/guest-probes-reload.sh" \
	"$K/logdev.ko $T/logdev_test.ko $T/logdev_syma.ko $T/logdev_symb.ko $T/logdev_tpmod.ko $U/logdev.static" \
	"${VM_RELOAD_ROUNDS:-20}"; then
	guest_lines "$out/vm-probes-reload"
fi

# 5. record ended by signals, a closed pipe and a full disk: enable restored,
# captures readable; the command's stdout kept out of `-o -`
if boot vm-record 2 "$vm/guest-record.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" 2000; then
	guest_lines "$out/vm-record"
fi

# 5b. the recorder past its limit (issue 31 item 4): logdev_test's writers
# as fast as they go into 64 KiB per CPU, discard mode (-o FILE) and
# overwrite mode (-o - into a pipe); every record in the file or counted
# lost, exactly (check-contexts.sh), and that check shown to fail on a
# capture with one loss count zeroed (check-reclimit.sh).  Multi-threaded
# TCG: record enables before the writers start, disables after them.
if boot vm-reclimit 2 "$vm/guest-reclimit.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" "64 ${VM_RECLIMIT_ITERS:-40000}"; then
	guest_lines "$out/vm-reclimit"
	for mode in discard overwrite; do
		host_check "vm-reclimit-$mode" check-contexts.sh "$out/vm-reclimit/$mode"
	done
	host_check vm-reclimit check-reclimit.sh "$out/vm-reclimit"
fi

# 6. symbols across module unload and load during one recording
if boot vm-sym 2 "$vm/guest-sym.sh" \
	"$K/logdev.ko $T/logdev_syma.ko $T/logdev_symb.ko $U/logdev.static" ""; then
	guest_lines "$out/vm-sym"
	host_check vm-sym check-sym.sh "$out/vm-sym"
fi

# 7. next to a live ftrace recording (issue 9 item 4): trace-cmd record -C mono
# around logdev record on logdev's mono clock; trace-cmd and its shared
# libraries go into the initramfs at their own paths (run.sh --host-bins).
# The host merges the two files with trace-cmd report.  Multi-threaded TCG:
# logdev record enables before the workload and disables after it.
tc=$(command -v trace-cmd || true)
if ! want vm-merge; then
	:
elif [ -z "$tc" ]; then
	fail "vm-merge: trace-cmd not installed (tools/deps.sh installs it)"
elif "$top/tools/vm/run.sh" --kver "$kver" --smp 2 --timeout "${VM_TIMEOUT:-180}" --idle $((90 * ${VM_SLOW:-1})) \
	--host-bins "$tc" --script "$vm/guest-merge.sh" \
	--files "$K/logdev.ko $T/logdev_demo.ko $U/logdev.static" --args "5 40" \
	--out "$out/vm-merge" 2> "$out/vm-merge.runlog"; then
	echo "PASS: vm-merge: VM ran with trace-cmd in the guest ($(grep -o '[0-9.]*s, results' "$out/vm-merge.runlog" | cut -d, -f1))"
	guest_lines "$out/vm-merge"
	host_check vm-merge check-merge.sh "$out/vm-merge"
else
	fail "vm-merge: VM run failed: $(grep -v '^run.sh: kernel ' "$out/vm-merge.runlog" | head -n 4 | tr '\n' '|') guest: $(grep -a '^FAIL' "$out/vm-merge/guest.log" 2>/dev/null | head -n 2 | tr '\n' '|')"
fi

# 8. task names: tasks with known names record from task, hardirq and NMI
# context, one exits and its pid is reused by another, which renames itself
# (multi-threaded TCG: record brackets the workload, as in 2.); then every
# sub-buffer must name the tasks of its records (vmtool cross)
if boot vm-comm 2 "$vm/guest-comm.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static $vmtool" ""; then
	guest_lines "$out/vm-comm"
	host_check vm-comm check-comm.sh "$out/vm-comm"
fi

# 8b. stream integrity (issue 24, items 1 and 2): lost-event marks exactly
# at the losses (discard under logdev record, discard and overwrite with
# nothing reading; variable-size records), and resets refused while a
# consuming reader is open.  Multi-threaded TCG: enable flips only while no
# edprint site runs.
if boot vm-stream 2 "$vm/guest-stream.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" ""; then
	guest_lines "$out/vm-stream"
fi

# 9. the crash dump (logdev_dump.c): CPU 0 records "seq 0".."seq 999", CPU 1
# 50 slots records and one vbin_printf() record, the last of the two
# interleaved; then the kernel dies (run.sh --expect-crash: the checks read
# the console): an oops with logdev.dump_on_oops=1 (default 64 records per
# CPU), a panic with the debugfs switch and dump_records=50, the sysrq key
# (30 records, the kernel goes on) then an oops with dump_on_oops off (no
# dump), an oops inside a record on CPU 0 (its open sub-buffer left out),
# and an oops the kernel lives through (panic_on_oops 0: recording is then
# switched off properly, the records read, recording again).  Multi-threaded
# TCG: enable is written only while no edprint site runs.
for t in oops:64 panic:50 sysrq:30 mid:64 live:20; do
	mode=${t%:*} recs=${t#*:} name=vm-dump-${t%:*}
	want "$name" || continue
	if "$top/tools/vm/run.sh" --kver "$kver" --smp 2 --timeout "${VM_TIMEOUT:-180}" --idle $((90 * ${VM_SLOW:-1})) \
		--expect-crash --script "$vm/guest-dump.sh" \
		--files "$K/logdev.ko $T/logdev_test.ko" --args "$mode 1000 50" \
		--out "$out/$name" 2> "$out/$name.runlog"; then
		echo "PASS: $name: VM ran and died as asked ($(grep -o '[0-9.]*s, the kernel died' "$out/$name.runlog" | cut -d, -f1))"
		"$top/tests/include/runtest.sh" "$name: check-dump.sh" "$vm/check-dump.sh" \
			"$out/$name" "$name" "$mode" 1000 50 "$recs" || failed=$((failed + 1))
	else
		fail "$name: VM run failed: $(head -n 4 "$out/$name.runlog" | tr '\n' '|')"
	fi
done

# 9a. the dump under load (issue 24, items 3-5; check-dump-load.sh): 200
# sysrq dumps while CPU 1 floods (each shows what it announced, or says
# what was overwritten while it read); a 4 x 10000-record dump (bounded by
# printk's buffer and in time, nothing dropped, no stall report in the 30 s
# after; then on a 10 ms-a-line console, logdev_slowcon.ko, cut at
# dump_max_ms); a panic in NMI context (the kernel's report and the dump's
# header stay on the console).
# Multi-threaded TCG: enable flips only while no edprint site runs.
for t in race:2:200 big:4:0 nmi:2:0; do
	mode=${t%%:*} smp=${t#*:} smp=${smp%%:*} cnt=${t##*:} name=vm-dump-${t%%:*}
	want "$name" || continue
	extra=()
	[ "$mode" = nmi ] && extra=(--expect-crash --nmi-at "logdev-dump-test: nmi now")
	if "$top/tools/vm/run.sh" --kver "$kver" --smp "$smp" --timeout $((300 * ${VM_SLOW:-1})) --idle $((90 * ${VM_SLOW:-1})) \
		"${extra[@]}" --script "$vm/guest-dump-load.sh" \
		--files "$K/logdev.ko $T/logdev_test.ko $T/logdev_slowcon.ko" --args "$mode $cnt" \
		--out "$out/$name" 2> "$out/$name.runlog"; then
		echo "PASS: $name: VM ran ($(grep -o '[0-9.]*s, [a-z ]*' "$out/$name.runlog" | head -n 1))"
	else
		fail "$name: VM run failed: $(grep -v '^run.sh: kernel ' "$out/$name.runlog" | head -n 4 | tr '\n' '|')"
	fi
	"$top/tests/include/runtest.sh" "$name: check-dump-load.sh" "$vm/check-dump-load.sh" \
		"$out/$name" "$name" "$mode" "$cnt" || failed=$((failed + 1))
done

# 9b. the dump's deltas by context: logdev_test's writers in all four
# contexts on both CPUs, then sysrq 'a' (200 records per CPU): every +D us is
# the time since the previous record of its CPU and context level, as
# report's default (check-dump-ctx.sh).  Multi-threaded TCG: enable flips
# only while no edprint site runs.
if boot vm-dump-ctx 2 "$vm/guest-dump-ctx.sh" "$K/logdev.ko $T/logdev_test.ko" "300"; then
	host_check vm-dump-ctx check-dump-ctx.sh "$out/vm-dump-ctx"
fi

# 10. parameters (issue 10, item 2): garbage refuses insmod and names the
# parameter; enable=1 buffer_size_kb=64 subbuf_size=8192 mode=discard
# clock=mono take effect from the load, show in debugfs and (read-only,
# current) in /sys/module/logdev/parameters; what was recorded before any
# reader is drained by record --no-enable; discard mode keeps the oldest.
# Multi-threaded TCG: enable flips (insmod enable=1, echo 0 > enable) only
# while no edprint site runs.
if boot vm-params 2 "$vm/guest-params.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" ""; then
	guest_lines "$out/vm-params"
fi

# 11. the live view (issue 11 item 5): report --follow --raw while writers in
# every context record on both CPUs, then SIGINT: every record at most once,
# in time order or marked late, printed + lost = written, the lost-events
# summary and the exit status (check-follow.sh); a small buffer loses events;
# deltas --follow's final table.  Multi-threaded TCG: enable flips only while
# no edprint site runs (before and after the writers).
if boot vm-follow 2 "$vm/guest-follow.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" "${VM_FOLLOW_ITERS:-2000}"; then
	guest_lines "$out/vm-follow"
	host_check vm-follow check-follow.sh "$out/vm-follow"
fi

# 12. soak, short (issue 13 item 1; `make soak` is the long one): a 4-CPU
# guest of each kernel, writers in task, softirq, hardirq and NMI context on
# every CPU with chains nested four deep (three on PREEMPT_RT), consuming
# readers, 10^6 records per mode (VM_SOAK_RECORDS), overwrite then discard;
# every record checked as read (tests/vm/soak.sh, soaktool.c), on the
# kernel checked (group vm-soak; its test names say vm-soak-RELEASE).
# Multi-threaded TCG: enable flips only while no edprint site runs.
# With LOGDEV_VM_KERNEL (a debug kernel): on that kernel, with kernel/*.ko.
soak_k=
if want vm-soak || want vm-soak-image; then
	soak_k=$kver
	[ -n "${LOGDEV_VM_KERNEL:-}" ] && soak_k=image
fi
if [ -n "$soak_k" ]; then
	"$vm/soak.sh" --records "${VM_SOAK_RECORDS:-1000000}" --kernels "$soak_k" \
		--out "$out/soak" > "$out/soak.log" 2>&1
	grep -a -E '^(PASS|FAIL): ' "$out/soak.log"
	failed=$((failed + $(grep -a -c '^FAIL: ' "$out/soak.log")))
	sed -n '/^== /,/^soak: /p' "$out/soak.log" | grep -E '^(==|  .*records_per_s)' | sed 's/^ */INFO: /'
fi

# 13. faults under load and permissions (issue 13, items 3 and 5;
# tests/vm/guest-faults.sh says what each checks).  vm-faults (-smp 4):
# debugfs modes, CPU hotplug of every CPU but 0 in a loop under writers
# and readers, a module with sites in the buffer unloaded 20 times under
# load, rmmod with readers blocked in read() and poll().  Multi-threaded
# TCG: enable flips only while no edprint site runs (module loads patch
# only the new module's sites).  vm-faults-ctl (-smp 2): concurrent writers
# to every control file, the probes file under concurrent add/remove while
# probes fire.  Single-threaded TCG: enable flips, and kprobes are
# armed, under running writers (the stale-translation wedge, see boot()).
if boot vm-faults 4 "$vm/guest-faults.sh" \
	"$K/logdev.ko $T/logdev_test.ko $T/logdev_syma.ko $U/logdev.static $vmtool" \
	"load ${VM_FAULTS_SECS:-15}"; then
	guest_lines "$out/vm-faults"
	host_check vm-printf-hashed check-printf.sh "$out/vm-faults/hashed"
fi
if boot vm-faults-ctl 2 "$vm/guest-faults.sh" \
	"$K/logdev.ko $T/logdev_test.ko $vmtool" "ctl ${VM_FAULTS_SECS:-15}" single; then
	guest_lines "$out/vm-faults-ctl"
fi

# 14. probes on the record command line (issue 26, point 1): a probe removed
# and added again keeps its site and label; record -p / --probe-file attach
# for a recording and remove after it (COMMAND, SIGINT, SIGTERM, a refused
# later -p), a probe there before untouched.  Multi-threaded TCG: enable is
# written only by logdev record around the workload.
if boot vm-probes-cli 2 "$vm/guest-probes-cli.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static $vmtool" ""; then
	guest_lines "$out/vm-probes-cli"
fi

# 15. discovery (issue 26, point 5): logdev callees lists what a function
# calls from its machine code (/proc/kcore), record --callees probes them
# for a recording and --by-parent names the slow callee; then function_graph
# on the same functions, for the docs' comparison.  Multi-threaded TCG:
# enable is written only by logdev record around the workload.
if boot vm-callees 2 "$vm/guest-callees.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" ""; then
	guest_lines "$out/vm-callees"
fi

# 16. probe hits in their real context (issue 26, item 2;
# tests/vm/guest-probe-ctx.sh): ftrace, breakpoint and optimised kprobes and
# a return probe on targets called from task, softirq, hardirq and NMI.
# Multi-threaded TCG: probes are attached and optimised while idle.
if boot vm-probe-ctx 2 "$vm/guest-probe-ctx.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" "20"; then
	guest_lines "$out/vm-probe-ctx"
	host_check vm-probe-ctx check-probe-ctx.sh "$out/vm-probe-ctx"
fi

# 17. the reader's wake-up out of a measured pair (issue 26, item 4;
# tests/vm/guest-wakeup.sh): a probed pair that completes sub-buffers on
# CPU 0 while the reader waits on CPU 1.  Multi-threaded TCG: probes are
# attached while idle.
if boot vm-wakeup 2 "$vm/guest-wakeup.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" "4000"; then
	guest_lines "$out/vm-wakeup"
	host_check vm-wakeup check-wakeup.sh "$out/vm-wakeup"
fi

# 17b. the time breakdown (issue 28, point 3; tests/vm/guest-breakdown.sh):
# pairs of known cost from logdev_test's breakdown file (hardirq, softirq,
# NMI, a preempting SCHED_FIFO hog, a sleep) pinned to CPU 1, recorded with
# the context markers and without; check-breakdown.sh, once there, checks
# the reader's split against what the module measured.  Multi-threaded TCG:
# enable is written only by logdev record around the workload.
if boot vm-breakdown 2 "$vm/guest-breakdown.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" "${VM_BD_RUNS:-5}"; then
	guest_lines "$out/vm-breakdown"
	[ -f "$vm/check-breakdown.sh" ] &&
		host_check vm-breakdown check-breakdown.sh "$out/vm-breakdown"
fi

# 18. probe cost (issue 26 point 3): the calibration (debugfs probe_cost),
# and the correction of durations, self and inside times on captures of a
# function that only calls another, and of show_smap/seq_printf with one
# and with five other probes (tests/vm/guest-probecost.sh, checked on the
# host: check-probecost.sh).  One CPU under QEMU's icount (--tcg icount:
# the guest's time is its instruction count, 1 ns each): in real time a
# hit's cost under TCG moved 1.6x between stretches of a second, so a
# capture and the calibration before it could disagree by that much; under
# icount they agree to the ns in every boot, and the check tests logdev's
# correction, not the host's speed.  Kprobes are optimised while the
# calibration functions run.
if boot vm-probecost 1 "$vm/guest-probecost.sh" \
	"$K/logdev.ko $T/logdev_test.ko $U/logdev.static" "${VM_COST_CALLS:-2000} ${VM_COST_ROUNDS:-20}" icount; then
	guest_lines "$out/vm-probecost"
	host_check vm-probecost check-probecost.sh "$out/vm-probecost"
fi

# 19. your own workload (issue 26, item 7): tools/vm/workload.sh runs a
# user's script with logdev loaded (tests/vm/workload-quiet.sh and its
# FILE): quiet for 30 s, longer than --idle 20, it is not taken for a
# wedge (its heartbeat goes on); the two processes it leaves running
# (`sleep 1000 &`, one in its own session) do not keep the guest up: the run
# ends when the script exits, well before --timeout; its capture and files
# come back and read.
if want vm-runner; then
	t0=$(date +%s)
	"$top/tools/vm/workload.sh" --kver "$kver" --idle $((20 * ${VM_SLOW:-1})) --timeout $((180 * ${VM_SLOW:-1})) \
		--out "$out/vm-runner" --args 30 "$vm/workload-quiet.sh" "$vm/workload-data.txt" \
		2> "$out/vm-runner.runlog"
	rc=$? secs=$(($(date +%s) - t0))
	o=$out/vm-runner
	[ $rc = 0 ] && grep -q 'a quiet guest, not wedged' "$out/vm-runner.runlog" &&
		[ -s "$o/quiet.txt" ] && pass_line=1 || pass_line=
	if [ -n "$pass_line" ]; then
		echo "PASS: vm-runner: a script quiet for 30 s (--idle 20) ran to its end and its results came back (rc 0, ${secs}s)"
	else
		fail "vm-runner: rc $rc (want 0), quiet.txt $([ -s "$o/quiet.txt" ] && echo back || echo missing): $(grep -v '^run.sh: kernel ' "$out/vm-runner.runlog" | head -n 4 | tr '\n' '|')"
	fi
	kl=$(tr -d '\r' < "$o/console.log" 2> /dev/null | grep 'logdev-vm: the script exited; ended what it left running')
	ok=1
	for w in "(SIGTERM, then SIGKILL to " "sleep 1000" "sleep 1001" "logdev record -o bg.cap" "sleep 1002"; do
		case "$kl" in *"$w"*) ;; *) ok= ;; esac
	done
	[ $secs -lt $((150 * ${VM_SLOW:-1})) ] || ok=
	[ -n "$ok" ] &&
		echo "PASS: vm-runner: 'sleep 1000 &', 'setsid sleep 1001 &', a background logdev record and a sleep ignoring SIGTERM ended when the script exited (SIGTERM, then SIGKILL to the last); the guest powered off (${secs}s, --timeout 180)" ||
		fail "vm-runner: the processes left running: ${kl:-no such line}, ${secs}s"
	tr -d '\r' < "$o/console.log" 2> /dev/null | grep -q "^/init: .*can't open" &&
		fail "vm-runner: /init's noise on the console: $(grep "^/init: .*can't open" "$o/console.log" | head -n 2 | tr '\n' '|')" ||
		echo "PASS: vm-runner: no noise from /init about processes that ended while it looked"
	# the SIGTERM let the background recorder finish its capture
	"$U/logdev" report "$o/bg.cap" > /dev/null 2> "$o/bg-report.err" &&
		! grep -q 'cut short\|incomplete' "$o/bg-report.err" &&
		echo "PASS: vm-runner: the background logdev record, ended by the runner's SIGTERM, left a complete capture" ||
		fail "vm-runner: bg.cap: $(head -c 300 "$o/bg-report.err" | tr '\n' '|') ($(head -c 200 "$o/bg.err" 2> /dev/null))"
	cmp -s "$o/data-copy.txt" "$vm/workload-data.txt" &&
		"$U/logdev" report "$o/quiet.cap" 2> /dev/null | grep -q ' qsleep:' &&
		echo "PASS: vm-runner: the script read its FILE, and its capture (logdev record, probe qsleep) came back and reads" ||
		fail "vm-runner: data-copy.txt $(cmp -s "$o/data-copy.txt" "$vm/workload-data.txt" && echo ok || echo differs), quiet.cap: $("$U/logdev" report "$o/quiet.cap" 2>&1 | grep -c qsleep) qsleep records"
fi

# 20. two boots in one QEMU process (tools/vm/run.sh --boots 2, the base
# of issue 27's flight recorder): boot 1 writes a pattern into 1 MiB that
# memmap= reserved and panics (sysrq-c; panic=-1 resets the machine), boot
# 2 reads it back (tests/vm/guest-boots.sh); the runner tells the boots
# apart, boot 1's panic stays in console-boot1.log and boot 2's results
# come back.
if want vm-boots; then
	nonce=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
	"$top/tools/vm/run.sh" --kver "$kver" --smp 2 --boots 2 --expect-crash \
		--timeout $((180 * ${VM_SLOW:-1})) --idle $((90 * ${VM_SLOW:-1})) \
		--append 'memmap=1M$0x10000000' --script "$vm/guest-boots.sh" --args "$nonce" \
		--out "$out/vm-boots" 2> "$out/vm-boots.runlog"
	rc=$?
	o=$out/vm-boots
	[ $rc = 0 ] && echo "PASS: vm-boots: two boots ran, boot 2's results came back (rc 0)" ||
		fail "vm-boots: rc $rc: $(grep -v '^run.sh: kernel ' "$out/vm-boots.runlog" | head -n 3 | tr '\n' '|')"
	grep -aq 'boot 1: pattern written, panicking' "$o/console-boot1.log" 2> /dev/null &&
		grep -aq 'Kernel panic' "$o/console-boot1.log" &&
		echo "PASS: vm-boots: boot 1 wrote the pattern and panicked (console-boot1.log)" ||
		fail "vm-boots: boot 1's console has no pattern line or no panic"
	grep -aq 'logdev-vm: boot 2 of 2' "$o/console-boot2.log" 2> /dev/null &&
		! grep -aq 'Kernel panic' "$o/console-boot2.log" &&
		echo "PASS: vm-boots: boot 2 knew itself (the run's marker page) and did not panic" ||
		fail "vm-boots: boot 2's console: no 'boot 2 of 2' line, or a panic"
	if [ -f "$o/guest.log" ]; then guest_lines "$o"; else fail "vm-boots: no guest.log from boot 2"; fi
fi

# 21. the flight recorder (issue 27): logdev's rings in memmap= reserved
# memory; boot 1 records from every context and ends by MODE, boot 2 keeps
# and hands over the previous boot's buffer (tests/vm/guest-persist.sh);
# the host decodes the raw area with no module (tests/vm/check-persist.sh).
# VM_PERSIST: the modes (make check: panic and reset; make check-persist:
# all of guest-persist.sh's).
for pm in ${VM_PERSIST:-panic reset}; do
	want vm-persist-$pm || continue
	o=$out/vm-persist-$pm
	crash= ap=
	case $pm in
	panic|oops|corrupt) crash=--expect-crash ;;
	ftrace) crash=--expect-crash
		ap='memmap=4M$0x10400000 trace_instance=boot_map@0x10400000:4M' ;;
	resmem) crash=--expect-crash ap='reserve_mem=4M:32M:logdev' ;;
	nmi) crash="--expect-crash --nmi-at persist-test:" ;;
	esac
	iters=${VM_PERSIST_ITERS:-1000000}
	[ $pm = reboot ] && iters=${VM_PERSIST_ITERS:-12000}
	"$top/tools/vm/run.sh" --kver "$kver" --smp 4 --boots 2 $crash \
		--timeout $((300 * ${VM_SLOW:-1})) --idle $((120 * ${VM_SLOW:-1})) \
		--append "memmap=4M\$0x10000000 $ap" --script "$vm/guest-persist.sh" --args "$pm $iters" \
		--files "$K/logdev.ko $T/logdev_test.ko $U/logdev.static" --out "$o" 2> "$o.runlog"
	rc=$?
	[ $rc = 0 ] && echo "PASS: vm-persist-$pm: two boots ran, boot 2's results came back (rc 0)" ||
		fail "vm-persist-$pm: rc $rc: $(grep -v '^run.sh: kernel ' "$o.runlog" | head -n 3 | tr '\n' '|')"
	if [ -f "$o/guest.log" ]; then guest_lines "$o"; else fail "vm-persist-$pm: no guest.log from boot 2"; fi
	"$vm/check-persist.sh" "$pm" "$o" "$U/logdev" || failed=1
done

# The same across a warm reset into another kernel (tools/vm/run.sh
# --mem-file: two QEMU runs on one RAM file): boot 1 this kernel, sysrq-c;
# boot 2 the newest of the matrix (VM_PERSIST_KVER2), its own modules.
if want vm-persist-xkernel; then
	o=$out/vm-persist-xkernel
	k2=${VM_PERSIST_KVER2:-newest}
	mf=$(mktemp /tmp/logdev-persist-ram.XXXXXX)
	if ! K2=$("$top/tools/kernels/modules.sh" --quiet "$k2" 2> "$o.build.err"); then
		fail "vm-persist-xkernel: logdev does not build for $k2: $(head -n 3 "$o.build.err" | tr '\n' '|')"
	else
		"$top/tools/vm/run.sh" --kver "$kver" --smp 4 --mem-file "$mf" --boot-as 1 --expect-crash \
			--timeout $((300 * ${VM_SLOW:-1})) --idle $((120 * ${VM_SLOW:-1})) \
			--append 'memmap=4M$0x10000000' --script "$vm/guest-persist.sh" \
			--args "panic ${VM_PERSIST_ITERS:-1000000} vm-persist-xkernel" \
			--files "$K/logdev.ko $T/logdev_test.ko $U/logdev.static" --out "$o-boot1" 2> "$o-boot1.runlog"
		rc1=$?
		"$top/tools/vm/run.sh" --kver "$k2" --smp 4 --mem-file "$mf" --boot-as 2 \
			--timeout $((300 * ${VM_SLOW:-1})) --idle $((120 * ${VM_SLOW:-1})) \
			--append 'memmap=4M$0x10000000' --script "$vm/guest-persist.sh" \
			--args "panic ${VM_PERSIST_ITERS:-1000000} vm-persist-xkernel" \
			--files "$K2/logdev.ko $K2/test/logdev_test.ko $U/logdev.static" --out "$o" 2> "$o.runlog"
		rc=$?
		[ $rc1 = 0 ] && [ $rc = 0 ] &&
			echo "PASS: vm-persist-xkernel: boot 1 ($kver) died as asked, boot 2 ($k2) on the same RAM brought its results back" ||
			fail "vm-persist-xkernel: boot 1 rc $rc1, boot 2 rc $rc: $(cat "$o-boot1.runlog" "$o.runlog" | grep -v '^run.sh: kernel ' | head -n 3 | tr '\n' '|')"
		cp "$o-boot1/console.log" "$o/console-boot1.log" 2> /dev/null
		if [ -f "$o/guest.log" ]; then guest_lines "$o"; else fail "vm-persist-xkernel: no guest.log from boot 2"; fi
		"$vm/check-persist.sh" panic "$o" "$U/logdev" vm-persist-xkernel || failed=1
		grep -q "kept ([0-9]* bytes, $kver, ended: panic)" "$o/persist-dmesg.txt" 2> /dev/null &&
			echo "PASS: vm-persist-xkernel: the $k2 boot kept the buffer $kver left (dmesg names $kver)" ||
			fail "vm-persist-xkernel: dmesg of boot 2: $(head -n 1 "$o/persist-dmesg.txt" 2> /dev/null)"
	fi
	rm -f "$mf"
fi

for g in ${VM_ONLY:-}; do
	[ -n "${asked[$g]:-}" ] ||
		fail "vm: VM_ONLY names '$g': no such group here (groups: $(printf '%s\n' "${!asked[@]}" | sort | tr '\n' ' '))"
done

[ $failed = 0 ]
