#!/bin/bash
# `make check-debug`: logdev's whole VM suite (tests/vm/run-tests.sh: every
# group, -smp 2 and 4, the short soak when it is in the suite) on debug
# kernels built from Debian's linux-source-6.1, where any kernel report
# fails the run.
#
#   tools/debug-kernel.sh [--variant kasan|kcsan|all] [--build-only]
#                         [--tests-only] [--quick]
#
# Variants (recipes of tools/ksrc.sh, one O= build directory each in the
# kernel cache, so a second run only relinks what changed):
#   kasan  KASAN (generic, inline), lockdep (PROVE_LOCKING, PROVE_RCU),
#          DEBUG_ATOMIC_SLEEP, PREEMPT + DEBUG_PREEMPT, debug objects
#   kcsan  the same with KCSAN instead of KASAN (KCSAN needs !KASAN)
# Both have ACPI, so QEMU's -smp 4 gives the guest 4 CPUs (without it the
# kernel finds only CPU 0 in QEMU's MP table: seen 2026-11-30), and CPU
# hotplug, kretprobes, tracepoints and ftrace's kprobe events, which the
# suite's groups use.
#
# How: tools/ksrc.sh make VARIANT bzImage modules (unpacks the tree once;
# about 40-60 min per variant on 2 cores the first time), then the repo is
# cloned to CACHE/dbg-repo (the working tree is left alone; uncommitted
# changes are applied to the clone, so a fix can be tried before it is
# committed), its modules built with KDIR=the variant's O= directory, and
# tests/vm/run-tests.sh run with LOGDEV_VM_KERNEL=its bzImage.  A boot whose
# console or dmesg has BUG/WARNING/lockdep/KASAN/KCSAN lines fails
# (tools/vm/run.sh, rc 2); every such line is listed at the end per boot,
# but for the kernel's own by-design ones, exact lines in
# tests/vm/known-kernel-reports.txt (never one about logdev).
#
# Environment: LOGDEV_KCACHE (the kernel cache, default build/cache), JOBS
# (default 2), VM_OUT (default build/check-debug/VARIANT), VM_TIMEOUT per
# boot (default 900 s: KASAN and lockdep under TCG are several times slower),
# VM_SLOW (default 8: how much slower that is; scales every boot's idle
# watch and the short soak's timeout, tests/vm/run-tests.sh), VM_ONLY (run
# only some groups, as in tests/vm/run-tests.sh).  The short soak runs on
# the debug kernel itself (group vm-soak-image).
# Exit: 0 all passed with no kernel report; 1 a build failed or a test or
# report failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${LOGDEV_KCACHE:-$top/build/cache}
build=1 tests=1 quick= variants="kasan kcsan"
while [ $# -gt 0 ]; do
	case $1 in
	--build-only) tests= ;;
	--tests-only) build= ;;
	--quick) quick=--quick ;;
	--variant)
		[ $# -ge 2 ] || { echo "debug-kernel.sh: --variant needs kasan, kcsan or all" >&2; exit 1; }
		case $2 in
		kasan|kcsan) variants=$2 ;;
		all) variants="kasan kcsan" ;;
		*) echo "debug-kernel.sh: unknown variant '$2' (kasan, kcsan, all)" >&2; exit 1 ;;
		esac
		shift ;;
	-h|--help) sed -n '2,/^set -euo/{/^set -euo/d;p}' "$0"; exit 0 ;;
	*) echo "debug-kernel.sh: unknown argument '$1' (--help)" >&2; exit 1 ;;
	esac
	shift
done

rc=0
# every pattern holds a ':' or a space, which the base64 results never do
# ("...HOops4W..." matched inside them)
pat='BUG:|Oops:|Oops -|WARNING:|Kernel panic|general protection|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage|sleeping function called|scheduling while atomic|KASAN:|KCSAN:|UBSAN:|blocked for more than|ODEBUG:'
for v in $variants; do
	o=$("$top/tools/ksrc.sh" -k 6.1 odir "$v")
	if [ -n "$build" ]; then
		echo "== check-debug: building the $v kernel (tools/ksrc.sh -k 6.1 make $v bzImage modules; log $cache/$v-build.log)"
		t0=$SECONDS
		mkdir -p "$cache"
		if ! "$top/tools/ksrc.sh" -k 6.1 make "$v" bzImage modules > "$cache/$v-build.log" 2>&1; then
			tail -n 30 "$cache/$v-build.log" >&2
			echo "FAIL: check-debug: the $v kernel did not build (log $cache/$v-build.log)"
			exit 1
		fi
		echo "check-debug: $v kernel built in $((SECONDS - t0)) s"
	fi
	[ -n "$tests" ] || continue
	kimg=$o/arch/x86/boot/bzImage
	[ -r "$kimg" ] || { echo "FAIL: check-debug: no $kimg (build first)"; exit 1; }

	repo=$cache/dbg-repo
	rm -rf "$repo"
	git clone -q "$top" "$repo"
	(cd "$top" && git diff HEAD) > "$cache/dbg-uncommitted.diff"
	[ -s "$cache/dbg-uncommitted.diff" ] && (cd "$repo" && git apply "$cache/dbg-uncommitted.diff")
	if ! make -C "$repo/kernel" KDIR="$o" > "$cache/$v-modules.log" 2>&1 ||
		! make -C "$repo/userspace" > "$cache/$v-userspace.log" 2>&1; then
		tail -n 30 "$cache/$v-modules.log" "$cache/$v-userspace.log" >&2
		echo "FAIL: check-debug: logdev did not build against the $v kernel"
		exit 1
	fi
	out=${VM_OUT:-$top/build/check-debug}/$v
	rm -rf "$out"
	mkdir -p "$out"
	echo "== check-debug: the VM suite on the $v kernel ($kimg; results in $out)"
	t0=$SECONDS
	vrc=0
	VM_OUT=$out VM_TIMEOUT=${VM_TIMEOUT:-900} VM_SLOW=${VM_SLOW:-8} LOGDEV_VM_KERNEL=$kimg LOGDEV_KMOD=$repo/kernel \
		"$repo/tests/vm/run-tests.sh" $quick | sed "s/^\(PASS\|FAIL\|SKIP\): /\1: [$v] /" || vrc=1
	echo "check-debug: $v suite took $((SECONDS - t0)) s"
	echo "== kernel reports on the $v kernel (console.log, dmesg.txt under $out)"
	reports=0
	# the kernel's own by-design reports, exact lines (tools/vm/run.sh drops them too)
	known=$out/known-kernel-reports
	grep -v '^[[:space:]]*\(#\|$\)' "$top/tests/vm/known-kernel-reports.txt" > "$known" || true
	for d in "$out"/*/; do
		for f in "$d"console.log "$d"dmesg.txt; do
			[ -f "$f" ] || continue
			# the crash dump tests (vm-dump-*) crash the kernel on
			# purpose after "logdev-dump-test: crash": only what comes
			# before counts (a KASAN kernel reports their NULL-ish
			# dereference as a general protection fault)
			if tr -d '\r' < "$f" | awk '/(^|\] )logdev-dump-test: crash/ { exit } { print }' |
				{ grep -avxF -f "$known" || true; } |
				grep -E "$pat" | sed "s|^|${f#$out/}: |"; then
				reports=$((reports + 1))
			fi
		done
	done
	if [ "$reports" = 0 ]; then
		echo "PASS: check-debug: [$v] no kernel report in any boot"
	else
		echo "FAIL: check-debug: [$v] kernel reports in $reports logs (above)"
		vrc=1
	fi
	[ "$vrc" = 0 ] || rc=1
done
exit $rc
