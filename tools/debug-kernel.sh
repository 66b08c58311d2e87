#!/bin/bash
# Build a debug kernel (KASAN, lockdep, atomic-sleep and preempt checks,
# debug objects) from Debian's linux-source-6.1 and run logdev's VM tests
# (tests/vm/run-tests.sh: control, contexts in both modes at -smp 2 and 4,
# printf, demo, probes) on it.  Not part of `make check`: the kernel build
# takes 10-15 min on 2 cores and every boot is several times slower.
#
#   tools/debug-kernel.sh [--build-only] [--tests-only] [--quick]
#
# Environment:
#   DBG_DIR   work dir outside the repo (default /work/dbgkernel); the tree
#             is unpacked to $DBG_DIR/linux-source-6.1 once and reused.
#   DBG_SRC   source tarball (default /usr/src/linux-source-6.1.tar.xz,
#             apt-get install linux-source-6.1; also needs flex bison bc
#             libelf-dev libssl-dev).
#   VM_OUT    results (default $DBG_DIR/vm-out); VM_TIMEOUT per boot
#             (default 600 s: KASAN + lockdep under TCG are slow).
#
# How: `make tinyconfig`, then the options below (what a busybox initramfs,
# a module and logdev's tests need: serial console, initrd, debugfs,
# modules, SMP + hotplug, kallsyms, kprobes/kretprobes, tracepoints, ftrace,
# NMI via the local APIC, irq_work, hrtimers, loopback networking), then
# the checkers, `make olddefconfig`, `make bzImage modules`.  ACPI: without
# it the kernel finds only CPU 0 in QEMU's MP table (-smp 2/4 ran on 1 CPU in
# the first run, 2026-11-30), and poweroff -f only halts (tools/vm/run.sh
# uses reboot -f when LOGDEV_VM_KERNEL is set).  The repo is
# cloned to $DBG_DIR/repo (so the working tree is not disturbed), its modules
# are built with KDIR=the debug tree, and tests/vm/run-tests.sh is run with
# LOGDEV_VM_KERNEL=the bzImage.  Any BUG/WARNING/lockdep/KASAN report in the
# console or the guest's dmesg fails that boot (tools/vm/run.sh, rc 2);
# every report is then listed from $VM_OUT/*/console.log and dmesg.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
DBG_DIR=${DBG_DIR:-/work/dbgkernel}
DBG_SRC=${DBG_SRC:-/usr/src/linux-source-6.1.tar.xz}
tree=$DBG_DIR/linux-source-6.1
build=1 tests=1 quick=
for a in "$@"; do
	case $a in
	--build-only) tests= ;;
	--tests-only) build= ;;
	--quick) quick=--quick ;;
	-h|--help) sed -n '2,29p' "$0"; exit 0 ;;
	*) echo "debug-kernel.sh: unknown argument '$a'" >&2; exit 1 ;;
	esac
done
mkdir -p "$DBG_DIR"

if [ -n "$build" ]; then
	for t in flex bison bc; do
		command -v $t > /dev/null || { echo "debug-kernel.sh: need $t (apt-get install flex bison bc libelf-dev libssl-dev)" >&2; exit 1; }
	done
	if [ ! -d "$tree" ]; then
		[ -r "$DBG_SRC" ] || { echo "debug-kernel.sh: no $DBG_SRC (apt-get install linux-source-6.1)" >&2; exit 1; }
		tar xJf "$DBG_SRC" -C "$DBG_DIR"
	fi
	cd "$tree"
	make tinyconfig > /dev/null
	./scripts/config \
		-e 64BIT -e PRINTK -e TTY -e SERIAL_8250 -e SERIAL_8250_CONSOLE \
		-e BLK_DEV_INITRD -e RD_GZIP -e BINFMT_ELF -e BINFMT_SCRIPT \
		-e PROC_FS -e SYSFS -e DEVTMPFS -e DEVTMPFS_MOUNT -e DEBUG_FS \
		-e MODULES -e MODULE_UNLOAD -e MODULE_FORCE_UNLOAD \
		-e SMP -e HOTPLUG_CPU -e KALLSYMS -e KALLSYMS_ALL \
		-e KPROBES -e KRETPROBES -e FTRACE -e FUNCTION_TRACER -e DYNAMIC_FTRACE \
		-e TRACEPOINTS -e EVENT_TRACING -e KPROBE_EVENTS \
		-e ACPI -e X86_LOCAL_APIC -e HYPERVISOR_GUEST -e PARAVIRT -e JUMP_LABEL \
		-e PERF_EVENTS -e IRQ_WORK -e HIGH_RES_TIMERS \
		-e NET -e INET -e UNIX -e PACKET -e PCI -e BLOCK \
		-e FUTEX -e EPOLL -e SHMEM -e TMPFS -e MULTIUSER -e FILE_LOCKING \
		-e POSIX_TIMERS -e SYSVIPC -e IKCONFIG \
		-d SLOB -e SLUB -e SLUB_DEBUG \
		-d PREEMPT_NONE -d PREEMPT_VOLUNTARY -e PREEMPT \
		-d CC_OPTIMIZE_FOR_SIZE -e CC_OPTIMIZE_FOR_PERFORMANCE \
		-e DEBUG_KERNEL -e BUG -e DEBUG_BUGVERBOSE -e STACKTRACE \
		-e KASAN -e KASAN_GENERIC -e KASAN_INLINE \
		-e PROVE_LOCKING -e DEBUG_LOCKDEP -e DEBUG_SPINLOCK -e DEBUG_MUTEXES \
		-e PROVE_RCU -e TRACE_IRQFLAGS \
		-e DEBUG_ATOMIC_SLEEP -e DEBUG_PREEMPT \
		-e DEBUG_OBJECTS -e DEBUG_OBJECTS_TIMERS -e DEBUG_OBJECTS_WORK \
		-e DEBUG_OBJECTS_RCU_HEAD
	make olddefconfig > /dev/null
	for o in KASAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP PREEMPT MODULES KPROBES \
		KRETPROBES TRACEPOINTS DEBUG_FS SMP HOTPLUG_CPU; do
		grep -q "^CONFIG_$o=y" .config || { echo "debug-kernel.sh: CONFIG_$o did not stick" >&2; exit 1; }
	done
	make -j"$(nproc)" bzImage modules
	cd "$top"
fi
[ -n "$tests" ] || exit 0

kimg=$tree/arch/x86/boot/bzImage
[ -r "$kimg" ] || { echo "debug-kernel.sh: no $kimg (build first)" >&2; exit 1; }
repo=$DBG_DIR/repo
rm -rf "$repo"
git clone -q "$top" "$repo"
# Uncommitted changes to the scripts/module travel too, so a fix can be
# tried before it is committed.
(cd "$top" && git diff HEAD) > "$DBG_DIR/uncommitted.diff"
[ -s "$DBG_DIR/uncommitted.diff" ] && (cd "$repo" && git apply "$DBG_DIR/uncommitted.diff")
make -C "$repo/kernel" KDIR="$tree" > "$DBG_DIR/modules.log" 2>&1 ||
	{ tail -n 30 "$DBG_DIR/modules.log" >&2; exit 1; }
make -C "$repo/userspace" > "$DBG_DIR/userspace.log" 2>&1 ||
	{ tail -n 30 "$DBG_DIR/userspace.log" >&2; exit 1; }
export VM_OUT=${VM_OUT:-$DBG_DIR/vm-out} VM_TIMEOUT=${VM_TIMEOUT:-600}
rc=0
LOGDEV_VM_KERNEL=$kimg "$repo/tests/vm/run-tests.sh" $quick || rc=$?

# Every kernel report, first lines, per boot.
echo "== kernel reports (console.log, dmesg.txt under $VM_OUT) =="
pat='BUG:|Oops|WARNING:|Kernel panic|general protection|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage|sleeping function called|scheduling while atomic|KASAN|UBSAN|blocked for more than|ODEBUG'
for d in "$VM_OUT"/*/; do
	for f in "$d"console.log "$d"dmesg.txt; do
		[ -f "$f" ] || continue
		tr -d '\r' < "$f" | grep -E "$pat" | sed "s|^|${f#$VM_OUT/}: |" || true
	done
done
exit $rc
