#!/bin/bash
# The prepared kernel tree cache: Debian's linux-source-6.1 unpacked once,
# logdev and its probes added (tools/kernel-tree.sh --probes), and one O=
# build directory per kernel configuration, so that a second build compiles
# only what changed.
#
#   tools/ksrc.sh tree              unpack + kernel-tree (if needed); print
#                                   the tree's path
#   tools/ksrc.sh pristine          the files kernel-tree changes, as in the
#                                   tarball (extracted once); print the dir
#   tools/ksrc.sh config NAME       configure O=CACHE/o-NAME from recipe NAME
#                                   (only if the recipe changed or there is no
#                                   .config); print the O= directory
#   tools/ksrc.sh make NAME ARGS... make -C TREE O=CACHE/o-NAME -j$JOBS ARGS
#                                   (runs `tree` and `config NAME` first)
#   tools/ksrc.sh set NAME y|n|m    CONFIG_LOGDEV of O=CACHE/o-NAME (then
#                                   olddefconfig); objects that depend on it
#                                   are rebuilt by the next make, no others
#
# Recipes (make tinyconfig, then scripts/config, then olddefconfig):
#   check  what the fast in-tree check compiles against (tests/intree):
#          slub's options, its own O= (it flips CONFIG_LOGDEV), no image
#   slub   the demo/check-builtin kernel with SLUB (make demo-builtin)
#   slob   the same with SLOB (6.1 still has it, under EXPERT)
#   kasan  the debug kernel of `make check-debug` (tools/debug-kernel.sh):
#          KASAN, lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP,
#          PREEMPT + DEBUG_PREEMPT, debug objects, CPU hotplug, kretprobes,
#          ftrace's kprobe events; CONFIG_LOGDEV off (the out-of-tree module
#          and the VM suite run on it)
#   kcsan  the same with KCSAN instead of KASAN (the two exclude each other)
# Both boot under QEMU with a busybox initramfs: serial console, initramfs,
# devtmpfs, proc/sysfs/debugfs, kallsyms, SMP with ACPI (QEMU's -smp 2 needs
# it), loopback TCP, paravirt guest, jump labels, kprobes (logdev's probes
# file needs them; in 6.1 they need MODULES), CONFIG_LOGDEV=y.
#
# Environment: LOGDEV_KCACHE cache dir (default build/cache in the repo),
# LOGDEV_KSRC_TAR the tarball (default /usr/src/linux-source-6.1.tar.xz:
# apt-get install linux-source-6.1 flex bison bc libelf-dev libssl-dev;
# tools/deps.sh --kernel), JOBS (default 2).
# Space: the tree is about 1.4 GB, each built O= directory up to 0.5 GB.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${LOGDEV_KCACHE:-$top/build/cache}
tarball=${LOGDEV_KSRC_TAR:-/usr/src/linux-source-6.1.tar.xz}
jobs=${JOBS:-2}
tree=$cache/linux-source-6.1

die() { echo "ksrc: $*" >&2; exit 1; }

# The options of each recipe (scripts/config arguments after tinyconfig).
common="-e 64BIT -e PRINTK -e TTY -e SERIAL_8250 -e SERIAL_8250_CONSOLE
	-e BLK_DEV_INITRD -e RD_GZIP -e BINFMT_ELF -e BINFMT_SCRIPT
	-e PROC_FS -e PROC_PAGE_MONITOR -e SYSFS -e DEVTMPFS -e DEVTMPFS_MOUNT
	-e DEBUG_FS -e DEBUG_FS_ALLOW_ALL -e KALLSYMS -e KALLSYMS_ALL
	-e SMP -e ACPI -e X86_LOCAL_APIC -e HYPERVISOR_GUEST -e PARAVIRT
	-e JUMP_LABEL -e HIGH_RES_TIMERS -e IRQ_WORK
	-e NET -e INET -e UNIX -e FUTEX -e EPOLL -e SHMEM -e TMPFS
	-e MULTIUSER -e FILE_LOCKING -e POSIX_TIMERS
	-d CC_OPTIMIZE_FOR_SIZE -e CC_OPTIMIZE_FOR_PERFORMANCE
	-e MODULES -e MODULE_UNLOAD -e KPROBES
	-e EXPERT -e LOGDEV"
# the debug kernels (kasan, kcsan): the checkers, and what the VM suite needs
# beyond the boot options above (hotplug, kretprobes, tracepoints and ftrace's
# kprobe_events for vm-merge/vm-probes-ftrace, perf events for the NMI writer,
# sysrq for the sysrq dump of vm-dump-sysrq, vm-dump-ctx and vm-params, symbolic
# error names as the cloud kernel prints %pe: vm-printf compares with them)
debug="-d LOGDEV -e MODULE_FORCE_UNLOAD -e HOTPLUG_CPU -e KRETPROBES
	-e FTRACE -e FUNCTION_TRACER -e DYNAMIC_FTRACE -e TRACEPOINTS -e EVENT_TRACING
	-e KPROBE_EVENTS -e PERF_EVENTS -e PCI -e BLOCK -e PACKET -e SYSVIPC -e IKCONFIG -e MAGIC_SYSRQ -e SYMBOLIC_ERRNAME
	-d SLOB -e SLUB -e SLUB_DEBUG
	-d PREEMPT_NONE -d PREEMPT_VOLUNTARY -e PREEMPT
	-e DEBUG_KERNEL -e BUG -e DEBUG_BUGVERBOSE -e STACKTRACE
	-e PROVE_LOCKING -e DEBUG_SPINLOCK -e DEBUG_MUTEXES -e PROVE_RCU -e TRACE_IRQFLAGS
	-e DEBUG_ATOMIC_SLEEP -e DEBUG_PREEMPT
	-e DEBUG_OBJECTS -e DEBUG_OBJECTS_TIMERS -e DEBUG_OBJECTS_WORK -e DEBUG_OBJECTS_RCU_HEAD"
recipe() {
	case $1 in
	kasan) echo "$common $debug -e KASAN -e KASAN_GENERIC -e KASAN_INLINE" ;;
	kcsan) echo "$common $debug -d KASAN -e KCSAN" ;;
	check) echo "$common -d SLOB -e SLUB" ;;
	slub) echo "$common -d SLOB -e SLUB" ;;
	slob) echo "$common -d SLUB -d SLAB -e SLOB" ;;
	*) return 1 ;;
	esac
}
# must be =y after olddefconfig (a dependency that did not hold drops them)
must="KPROBES MODULES DEBUG_FS KALLSYMS SMP ACPI NET INET BLK_DEV_INITRD SERIAL_8250_CONSOLE PROC_PAGE_MONITOR"
must_of() {
	case $1 in
	kasan) echo "$must KASAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP PREEMPT DEBUG_PREEMPT HOTPLUG_CPU KRETPROBES TRACEPOINTS KPROBE_EVENTS" ;;
	kcsan) echo "$must KCSAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP PREEMPT DEBUG_PREEMPT HOTPLUG_CPU KRETPROBES TRACEPOINTS KPROBE_EVENTS" ;;
	*) echo "$must LOGDEV" ;;
	esac
}

do_tree() {
	local stamp=$cache/.unpacked want
	[ -r "$tarball" ] || die "no $tarball (apt-get install linux-source-6.1, or tools/deps.sh --kernel as root)"
	for t in flex bison bc; do
		command -v $t > /dev/null || die "need $t (apt-get install flex bison bc libelf-dev libssl-dev)"
	done
	want="$(stat -c '%s %Y' "$tarball") $tarball"
	mkdir -p "$cache"
	if [ ! -d "$tree" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		echo "ksrc: unpacking $tarball into $cache (once)" >&2
		rm -rf "$tree" "$stamp"
		local t0=$SECONDS
		tar xJf "$tarball" -C "$cache"
		[ -d "$tree" ] || die "$tarball did not unpack to $tree"
		echo "$want" > "$stamp"
		echo "ksrc: unpacked in $((SECONDS - t0)) s" >&2
	fi
	"$top/tools/kernel-tree.sh" --probes "$tree" > "$cache/kernel-tree.log" 2>&1 ||
		{ cat "$cache/kernel-tree.log" >&2; die "kernel-tree failed on $tree"; }
	grep -q 'applied' "$cache/kernel-tree.log" && grep 'applied' "$cache/kernel-tree.log" >&2
	# The tree's links now point at this checkout.  If they pointed at
	# another one before (a cache shared by two checkouts), make would
	# judge logdev's objects by the new targets' mtimes, which may be
	# older than the objects built from the old ones: stale objects linked
	# (seen: a worktree's cache reused from main, ld_peek_* undefined).
	# So logdev's objects go whenever the checkout changes.
	if [ "$(cat "$cache/.linked" 2>/dev/null)" != "$top" ]; then
		[ -f "$cache/.linked" ] &&
			echo "ksrc: tree was linked to $(cat "$cache/.linked"); rebuilding logdev's objects" >&2
		rm -rf "$cache"/o-*/kernel/logdev
		echo "$top" > "$cache/.linked"
	fi
	return 0
}

# The pristine files kernel-tree changes (Makefile, kernel/Makefile,
# lib/Kconfig.debug and what the probe patches touch), extracted from the
# tarball once into CACHE/pristine/linux-source-6.1: the fast check applies
# kernel-tree to a copy of them (tests/intree/run.sh).
do_pristine() {
	local p=$cache/pristine f miss=()
	[ -r "$tarball" ] || die "no $tarball (apt-get install linux-source-6.1, or tools/deps.sh --kernel as root)"
	for f in Makefile kernel/Makefile lib/Kconfig.debug \
		$(grep -h '^+++ ' "$top"/kernel/intree/probes/*.patch | awk '{ print $2 }' | cut -d/ -f2- | sort -u); do
		[ -f "$p/linux-source-6.1/$f" ] || miss+=("linux-source-6.1/$f")
	done
	if [ ${#miss[@]} != 0 ]; then
		echo "ksrc: extracting ${#miss[@]} pristine files from $tarball" >&2
		mkdir -p "$p"
		tar xJf "$tarball" -C "$p" "${miss[@]}"
	fi
	echo "$p/linux-source-6.1"
}

do_config() {
	local name=$1 o=$cache/o-$1 r stamp
	r=$(recipe "$name") || die "no recipe '$name' (check, slub, slob, kasan, kcsan)"
	r=$(printf "%s " $r)	# one line (echo would take -e)
	stamp="$r"
	if [ -f "$o/.config" ] && [ "$(cat "$o/.recipe" 2>/dev/null)" = "$stamp" ]; then
		echo "$o"
		return 0
	fi
	echo "ksrc: configuring $o ($name)" >&2
	mkdir -p "$o"
	make -s -C "$tree" O="$o" tinyconfig > "$o/config.log" 2>&1 ||
		{ cat "$o/config.log" >&2; die "tinyconfig failed"; }
	# shellcheck disable=SC2086
	"$tree/scripts/config" --file "$o/.config" $r
	make -s -C "$tree" O="$o" olddefconfig >> "$o/config.log" 2>&1 ||
		{ cat "$o/config.log" >&2; die "olddefconfig failed"; }
	for c in $(must_of "$name"); do
		grep -q "^CONFIG_$c=y" "$o/.config" || die "CONFIG_$c did not stick in $o/.config (a dependency is missing)"
	done
	case $name in
	slob) grep -q '^CONFIG_SLOB=y' "$o/.config" || die "CONFIG_SLOB did not stick" ;;
	*) grep -q '^CONFIG_SLUB=y' "$o/.config" || die "CONFIG_SLUB did not stick" ;;
	esac
	echo "$stamp" > "$o/.recipe"
	echo "$o"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
tree)
	do_tree
	echo "$tree" ;;
pristine)
	do_pristine ;;
config)
	[ $# = 1 ] || die "usage: tools/ksrc.sh config NAME"
	do_tree
	do_config "$1" ;;
make)
	[ $# -ge 1 ] || die "usage: tools/ksrc.sh make NAME [ARGS...]"
	name=$1
	shift
	do_tree
	o=$(do_config "$name")
	exec make -C "$tree" O="$o" -j"$jobs" "$@" ;;
set)
	[ $# = 2 ] || die "usage: tools/ksrc.sh set NAME y|n|m"
	o=$cache/o-$1
	[ -f "$o/.config" ] || die "$o is not configured (tools/ksrc.sh config $1)"
	case $2 in
	y) "$tree/scripts/config" --file "$o/.config" -e LOGDEV ;;
	m) "$tree/scripts/config" --file "$o/.config" -m LOGDEV ;;
	n) "$tree/scripts/config" --file "$o/.config" -d LOGDEV ;;
	*) die "set NAME y|n|m" ;;
	esac
	make -s -C "$tree" O="$o" olddefconfig > /dev/null
	# auto.conf and autoconf.h too: M= builds read them and do not sync
	make -s -C "$tree" O="$o" syncconfig > /dev/null
	v=$(grep -E '^(# )?CONFIG_LOGDEV[= ]' "$o/.config" || true)
	case $2 in
	y) [ "$v" = CONFIG_LOGDEV=y ] ;;
	m) [ "$v" = CONFIG_LOGDEV=m ] ;;
	n) [ "$v" = "# CONFIG_LOGDEV is not set" ] ;;
	esac || die "CONFIG_LOGDEV=$2 did not stick in $o/.config (got '$v')" ;;
*)
	sed -n '2,/^set -euo/{/^set -euo/d;p}' "$0"
	[ -z "$cmd" ] || [ "$cmd" = -h ] || [ "$cmd" = --help ] || exit 2 ;;
esac
