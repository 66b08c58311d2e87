#!/bin/bash
# The prepared kernel tree cache: a kernel of tools/kernels/matrix's Debian
# linux-source-X.Y unpacked once, logdev and its probes added
# (tools/kernel-tree.sh --probes), and one O= build directory per kernel
# configuration, so that a second build compiles only what changed.
#
#   tools/ksrc.sh [-k KERNEL] tree           unpack + kernel-tree (if needed);
#                                            print the tree's path
#   tools/ksrc.sh [-k KERNEL] pristine       the files kernel-tree changes, as
#                                            in the tarball (extracted once);
#                                            print the dir
#   tools/ksrc.sh [-k KERNEL] config NAME    configure O=TREECACHE/o-NAME from
#                                            recipe NAME (only if the recipe
#                                            changed or there is no .config);
#                                            print the O= directory
#   tools/ksrc.sh [-k KERNEL] make NAME ARGS...
#                                            make -C TREE O=TREECACHE/o-NAME
#                                            -j$JOBS ARGS (runs `tree` and
#                                            `config NAME` first)
#   tools/ksrc.sh [-k KERNEL] set NAME y|n|m CONFIG_LOGDEV of o-NAME (then
#                                            olddefconfig); objects that depend
#                                            on it are rebuilt by the next make
#   tools/ksrc.sh [-k KERNEL] odir NAME      print o-NAME's path (no action)
#   tools/ksrc.sh [-k KERNEL] version        print the tree's X.Y (no action)
#
# KERNEL: a name of tools/kernels/matrix (6.1, 6.12, newest, ...; default
# KSRC_KERNEL, else the matrix's first name).  Its source is Debian's
# linux-source-X.Y of the same version as its headers, fetched into the
# kernel cache by tools/kernels/kernel.sh source (a private apt state; the
# -rt names share their cloud kernel's source).  The tree of X.Y lives in
# CACHE/X.Y/: linux-source-X.Y/ (the tree), o-NAME/ (one O= directory per
# recipe), pristine/, kernel-tree.log.
#
# Recipes (make tinyconfig, then scripts/config, then olddefconfig):
#   check  what the in-tree check compiles and links (tests/intree): the
#          least that CONFIG_LOGDEV depends on and the probe patches' files
#          need (64BIT, SMP, jump labels, modules, kprobes, debugfs,
#          kallsyms, sysrq, net, proc's page monitor; no tracing); a vmlinux
#          of it is the link check: a select missing from CONFIG_LOGDEV
#          fails there
#   flip   the same in its own O= directory, never built: the in-tree check
#          flips its CONFIG_LOGDEV (m, n) to compile test files against it,
#          leaving o-check's objects alone
#   slub   the demo/check-builtin kernel with SLUB (not tinyconfig's
#          SLUB_TINY since 6.2: the percpu fast paths the kernels people run
#          have) and SLUB_DEBUG (its slub_debug= boot parameter: make
#          demo-builtin on 6.4+)
#   slob   the same with SLOB (trees before 6.4 only; 6.1 has it, under
#          EXPERT)
#   kasan  the debug kernel of `make check-debug` (tools/debug-kernel.sh):
#          KASAN, lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP,
#          PREEMPT + DEBUG_PREEMPT, debug objects, CPU hotplug, kretprobes,
#          ftrace's kprobe events; CONFIG_LOGDEV off (the out-of-tree module
#          and the VM suite run on it)
#   kcsan  the same with KCSAN instead of KASAN (the two exclude each other)
# slub, slob, kasan and kcsan boot under QEMU with a busybox initramfs:
# serial console, initramfs, devtmpfs, proc/sysfs/debugfs, kallsyms, SMP
# with ACPI (QEMU's -smp 2 needs it), loopback TCP, paravirt guest, jump
# labels, kprobes (logdev's probes file needs them; in 6.1 they need
# MODULES), CONFIG_LOGDEV=y.
#
# The host builds every tree of the matrix: a kernel tree builds its own
# host tools (scripts/, objtool) with the host's compiler, unlike a Debian
# headers package's prebuilt ones, and gcc-12 builds 6.1 to 7.3.
#
# Environment: LOGDEV_KCACHE cache dir (default build/cache in the repo),
# KSRC_KERNEL (above), LOGDEV_KSRC_TAR a linux-source tarball to use instead
# of the matrix kernel's (its name linux-source-X.Y.tar.xz gives X.Y), JOBS
# (default 2).  Needs flex bison bc libelf-dev libssl-dev patch xz-utils
# (tools/deps.sh --kernel).
# Space: a tree is about 1.4 GB (7.3: 1.7 GB), each built O= directory up to
# 0.5 GB.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=${KSRC_KERNEL:-}
if [ "${1:-}" = -k ]; then
	[ $# -ge 2 ] || { echo "ksrc: -k needs a kernel name" >&2; exit 2; }
	kernel=$2
	shift 2
fi
cache=${LOGDEV_KCACHE:-$top/build/cache}
jobs=${JOBS:-2}

die() { echo "ksrc: $*" >&2; exit 1; }

case ${1:-} in
tree|pristine|version|odir|config|make|set) ;;
*)
	sed -n '2,/^set -euo/{/^set -euo/d;p}' "$0"
	case ${1:-} in ''|-h|--help) exit 0 ;; *) exit 2 ;; esac ;;
esac

# the tarball and X.Y of the selected kernel: tarball, xy, tcache, tree
if [ -n "${LOGDEV_KSRC_TAR:-}" ]; then
	tarball=$LOGDEV_KSRC_TAR
else
	[ -n "$kernel" ] || kernel=$("$top/tools/kernels/kernel.sh" names | head -n 1)
	# kernel.sh's answer, kept for a day (as its apt lists are): asking
	# it costs a few apt-cache runs, and the in-tree check asks often
	memo=$cache/.source-$kernel
	tarball=
	if [ -n "$(find "$memo" -mmin -1440 2>/dev/null)" ]; then
		tarball=$(cat "$memo")
		[ -r "$tarball" ] || tarball=
	fi
	if [ -z "$tarball" ]; then
		tarball=$("$top/tools/kernels/kernel.sh" source "$kernel") ||
			die "no source for kernel '$kernel' (tools/kernels/kernel.sh source $kernel)"
		mkdir -p "$cache"
		echo "$tarball" > "$memo.$$" && mv "$memo.$$" "$memo"
	fi
fi
xy=$(basename "$tarball" | sed -n 's/^linux-source-\([0-9]*\.[0-9]*\)\.tar\.xz$/\1/p')
[ -n "$xy" ] || die "$tarball: not named linux-source-X.Y.tar.xz"
tcache=$cache/$xy
tree=$tcache/linux-source-$xy

# version_lt A B: X.Y A is before B
version_lt() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$1" ]; }

# The options of each recipe (scripts/config arguments after tinyconfig).
# check: the least that CONFIG_LOGDEV depends on, so that a select missing
# from kernel/intree/Kconfig fails the link (a function that only a bigger
# configuration builds: tracing selects GLOB, for one), plus what the probe
# patches' files need (NET, PROC_PAGE_MONITOR) and the code logdev has for
# modules and sysrq.  No tracepoints: the out-of-tree builds against the
# matrix's kernels compile that code.
# As the kernels people run are built: -O2 (W=1's warnings depend on it), no
# --gc-sections (7.3's tinyconfig sets LD_DEAD_CODE_DATA_ELIMINATION, which would
# drop an unreferenced function before its undefined reference is seen).
check="-e 64BIT -e PRINTK -e SMP -e JUMP_LABEL -e MODULES -e MODULE_UNLOAD -e KPROBES
	-e DEBUG_FS -e KALLSYMS -e KALLSYMS_ALL -e MAGIC_SYSRQ
	-e NET -e PROC_FS -e PROC_PAGE_MONITOR -e SYSFS -e EXPERT
	-d CC_OPTIMIZE_FOR_SIZE -e CC_OPTIMIZE_FOR_PERFORMANCE -d LD_DEAD_CODE_DATA_ELIMINATION
	-d SLOB -e SLUB -e LOGDEV"
common="-e 64BIT -e PRINTK -e TTY -e SERIAL_8250 -e SERIAL_8250_CONSOLE
	-e BLK_DEV_INITRD -e RD_GZIP -e BINFMT_ELF -e BINFMT_SCRIPT
	-e PROC_FS -e PROC_PAGE_MONITOR -e SYSFS -e DEVTMPFS -e DEVTMPFS_MOUNT
	-e DEBUG_FS -e DEBUG_FS_ALLOW_ALL -e KALLSYMS -e KALLSYMS_ALL
	-e SMP -e ACPI -e X86_LOCAL_APIC -e HYPERVISOR_GUEST -e PARAVIRT
	-e JUMP_LABEL -e HIGH_RES_TIMERS -e IRQ_WORK
	-e NET -e INET -e UNIX -e FUTEX -e EPOLL -e SHMEM -e TMPFS
	-e MULTIUSER -e FILE_LOCKING -e POSIX_TIMERS
	-d CC_OPTIMIZE_FOR_SIZE -e CC_OPTIMIZE_FOR_PERFORMANCE -d LD_DEAD_CODE_DATA_ELIMINATION
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
	check|flip) echo "$check" ;;
	slub) echo "$common -d SLOB -e SLUB -d SLUB_TINY -e SLUB_DEBUG" ;;
	slob)
		version_lt "$xy" 6.4 || { echo "ksrc: no SLOB in $xy (gone since 6.4): recipe slob is for 6.1" >&2; return 1; }
		echo "$common -d SLUB -d SLAB -e SLOB" ;;
	*) return 1 ;;
	esac
}
# must be =y after olddefconfig (a dependency that did not hold drops them)
must="KPROBES MODULES DEBUG_FS KALLSYMS SMP ACPI NET INET BLK_DEV_INITRD SERIAL_8250_CONSOLE PROC_PAGE_MONITOR"
must_of() {
	case $1 in
	kasan) echo "$must KASAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP PREEMPT DEBUG_PREEMPT HOTPLUG_CPU KRETPROBES TRACEPOINTS KPROBE_EVENTS" ;;
	kcsan) echo "$must KCSAN PROVE_LOCKING DEBUG_ATOMIC_SLEEP PREEMPT DEBUG_PREEMPT HOTPLUG_CPU KRETPROBES TRACEPOINTS KPROBE_EVENTS" ;;
	check|flip) echo "KPROBES MODULES DEBUG_FS KALLSYMS KALLSYMS_ALL SMP JUMP_LABEL MAGIC_SYSRQ NET PROC_PAGE_MONITOR LOGDEV" ;;
	slub) echo "$must LOGDEV SLUB_DEBUG" ;;
	*) echo "$must LOGDEV" ;;
	esac
}

do_tree() {
	local stamp=$tcache/.unpacked want
	[ -r "$tarball" ] || die "no $tarball"
	for t in flex bison bc; do
		command -v $t > /dev/null || die "need $t (apt-get install flex bison bc libelf-dev libssl-dev)"
	done
	want="$(stat -c '%s %Y' "$tarball") $tarball"
	mkdir -p "$tcache"
	if [ ! -d "$tree" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		echo "ksrc: unpacking $tarball into $tcache (once)" >&2
		rm -rf "$tree" "$stamp"
		local t0=$SECONDS
		tar xJf "$tarball" -C "$tcache"
		[ -d "$tree" ] || die "$tarball did not unpack to $tree"
		echo "$want" > "$stamp"
		echo "ksrc: unpacked in $((SECONDS - t0)) s" >&2
	fi
	"$top/tools/kernel-tree.sh" --probes "$tree" > "$tcache/kernel-tree.log" 2>&1 ||
		{ cat "$tcache/kernel-tree.log" >&2; die "kernel-tree failed on $tree"; }
	grep -q 'applied' "$tcache/kernel-tree.log" && grep 'applied' "$tcache/kernel-tree.log" >&2
	# The tree's links now point at this checkout.  If they pointed at
	# another one before (a cache shared by two checkouts), make would
	# judge logdev's objects by the new targets' mtimes, which may be
	# older than the objects built from the old ones: stale objects linked
	# (seen: a worktree's cache reused from main, ld_peek_* undefined).
	# So logdev's objects go whenever the checkout changes.
	if [ "$(cat "$tcache/.linked" 2>/dev/null)" != "$top" ]; then
		[ -f "$tcache/.linked" ] &&
			echo "ksrc: tree was linked to $(cat "$tcache/.linked"); rebuilding logdev's objects" >&2
		rm -rf "$tcache"/o-*/kernel/logdev
		echo "$top" > "$tcache/.linked"
	fi
	return 0
}

# The pristine files kernel-tree changes (Makefile, kernel/Makefile,
# lib/Kconfig.debug and what the probe patches touch), extracted from the
# tarball once into TREECACHE/pristine/linux-source-X.Y, in one pass (an xz
# tarball is read whole: 20-60 s): every file any series touches, those of
# another kernel line absent from this tarball.  The fast check applies
# kernel-tree to a copy of them (tests/intree/run.sh).
do_pristine() {
	local p=$tcache/pristine d=linux-source-$xy want
	[ -r "$tarball" ] || die "no $tarball"
	want=$( (echo Makefile kernel/Makefile lib/Kconfig.debug | tr ' ' '\n'
		grep -h '^+++ ' "$top"/kernel/intree/probes/*/*.patch | awk '{ print $2 }' | cut -d/ -f2-) |
		sort -u | sed "s|^|$d/|")
	if [ "$(cat "$p/.files" 2>/dev/null)" != "$want $tarball" ]; then
		echo "ksrc: extracting the pristine files from $tarball" >&2
		rm -rf "$p"
		mkdir -p "$p"
		# names of other kernel lines are not in this tarball: tar says so
		# and extracts the others
		tar xJf "$tarball" -C "$p" $want 2> "$p/tar.err" || true
		[ -f "$p/$d/Makefile" ] || die "no $d/Makefile in $tarball: $(head -n 3 "$p/tar.err" | tr '\n' '|')"
		echo "$want $tarball" > "$p/.files"
	fi
	echo "$p/$d"
}

do_config() {
	local name=$1 o=$tcache/o-$1 r stamp
	r=$(recipe "$name") || die "no recipe '$name' for $xy (check, flip, slub, slob before 6.4, kasan, kcsan)"
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
version)
	echo "$xy" ;;
odir)
	[ $# = 1 ] || die "usage: tools/ksrc.sh [-k KERNEL] odir NAME"
	echo "$tcache/o-$1" ;;
config)
	[ $# = 1 ] || die "usage: tools/ksrc.sh [-k KERNEL] config NAME"
	do_tree
	do_config "$1" ;;
make)
	[ $# -ge 1 ] || die "usage: tools/ksrc.sh [-k KERNEL] make NAME [ARGS...]"
	name=$1
	shift
	do_tree
	o=$(do_config "$name")
	exec make -C "$tree" O="$o" -j"$jobs" "$@" ;;
set)
	[ $# = 2 ] || die "usage: tools/ksrc.sh [-k KERNEL] set NAME y|n|m"
	o=$tcache/o-$1
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
esac
