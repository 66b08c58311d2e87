#!/bin/bash
# make demo-builtin / make check-builtin: the SLUB/SLOB kfree_skbmem hunt
# replayed on 6.1 with logdev built into the kernel.
#
#   tools/demo-builtin.sh [--check] [MMAPS [WCHANS [KBYTES [SMAPS]]]]
#                                       (default 1000 1000 2048 100)
#
# Builds two kernels from Debian's linux-source-6.1 with CONFIG_LOGDEV=y and
# the probe patches of kernel/intree/probes/ (tools/ksrc.sh: recipes slub
# and slob, cached in build/cache/, a second run rebuilds only what changed),
# boots both under QEMU (tools/vm/run.sh, LOGDEV_VM_KERNEL=bzImage, -smp 2,
# both at once so that they share the host's load), records a loopback TCP,
# mmap/munmap, /proc/PID/wchan and /proc/1/smaps workload
# (tools/demo-builtin-guest.sh, tools/demo-workload.c), and prints
# `logdev diff slub.cap slob.cap`: the kfree_skbmem and kmem_cache_free
# rows first, then the whole table.  Under TCG the ratio SLOB/SLUB is the
# finding, not the absolute times.
#
# --check (make check-builtin): the same boots, with PASS/FAIL lines: both
# kernels built without an orphan-section warning and booted, logdev's
# debugfs files present, records from every probe (kfree_skbmem,
# kmem_cache_free, mmap, munmap, TLB flush, show_smap, wchan), the
# built-in edprint() of net/core/skbuff.c among them.
#
# Kernel command line: LOGDEV_BUILTIN_APPEND (default empty).  With
# logdev.enable=1 there (the boot parameters of issue 10 item 2) the guest
# records from boot (`logdev record --no-enable`); without it, it enables
# recording through debugfs.
# LOGDEV_BUILTIN_KERNELS="slub" (or "slob") builds and boots only that one.
# Results: build/demo-builtin/{slub,slob}/ (run.cap, formats.txt, stats.txt,
# console.log), build logs build/demo-builtin/{slub,slob}-build.log.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
check=
if [ "${1:-}" = --check ]; then check=1; shift; fi
mmaps=${1:-1000} wchans=${2:-1000} kbytes=${3:-2048} smaps=${4:-100}
append=${LOGDEV_BUILTIN_APPEND:-}
# LOGDEV_BUILTIN_KERNELS: a subset ("slub") to try one kernel (no diff then)
kernels=${LOGDEV_BUILTIN_KERNELS:-slub slob}
out=$top/build/demo-builtin
U=$top/userspace
P=builtin
. "$top/tests/vm/lib.sh"
t0=$SECONDS

make -s -C "$U" logdev logdev.static
mkdir -p "$out"
cc -O2 -Wall -static -o "$out/demo-workload" "$top/tools/demo-workload.c"

declare -A kimg
for k in $kernels; do
	tb=$SECONDS
	echo "demo-builtin: building the $k kernel (tools/ksrc.sh make $k bzImage, log $out/$k-build.log)"
	if ! "$top/tools/ksrc.sh" make "$k" bzImage > "$out/$k-build.log" 2>&1; then
		grep -E 'error|Error' "$out/$k-build.log" | head -n 20 >&2
		fail "the $k kernel does not build (log $out/$k-build.log)"
		finish
		exit 1
	fi
	kimg[$k]=$top/build/cache/o-$k/arch/x86/boot/bzImage
	[ -n "${LOGDEV_KCACHE:-}" ] && kimg[$k]=$LOGDEV_KCACHE/o-$k/arch/x86/boot/bzImage
	echo "demo-builtin: $k kernel ready in $((SECONDS - tb)) s"
	# the kernel's own warnings are not ours; logdev's files and an
	# orphan section from edprint() sites would be
	w=$(grep -E 'kernel/logdev/.*warning:|orphan section.*logdev|warning:.*__logdev' "$out/$k-build.log" || true)
	if [ -n "$check" ]; then
		check_eq "$k kernel: no warning from logdev's files or sites (orphan section)" "$w" ""
	elif [ -n "$w" ]; then
		echo "demo-builtin: warnings: $w" >&2
	fi
done
echo "demo-builtin: kernels ready after $((SECONDS - t0)) s"

echo "demo-builtin: booting both ($mmaps mmaps, $wchans wchan reads, $kbytes KiB over loopback, $smaps smaps reads)${append:+, append '$append'}"
declare -A pid
for k in $kernels; do
	rm -rf "${out:?}/$k"
	mkdir -p "$out/$k"
	# --tcg single: built in, edprint() sites (kmem_cache_free) run on
	# every vCPU all the time, and the guest flips the static key
	# (enable); QEMU 7.2's multi-threaded TCG can wedge on that (NOTES.md)
	LOGDEV_VM_KERNEL=${kimg[$k]} "$top/tools/vm/run.sh" --smp 2 --mem 512 --timeout 900 --tcg single \
		${append:+--append "$append"} \
		--script "$top/tools/demo-builtin-guest.sh" \
		--files "$U/logdev.static $out/demo-workload" \
		--args "$mmaps $wchans $kbytes $smaps" --out "$out/$k" > "$out/$k.run.log" 2>&1 &
	pid[$k]=$!
done
declare -A rc
for k in $kernels; do
	rc[$k]=0
	wait "${pid[$k]}" || rc[$k]=$?
done
echo "demo-builtin: boots done after $((SECONDS - t0)) s"

for k in $kernels; do
	d=$out/$k
	grep '^demo-builtin:' "$d/guest.log" 2>/dev/null | sed "s/^/  $k: /" || true
	if [ -n "$check" ]; then
		check "$k kernel boots and runs the workload (run.sh exit 0)" \
			"exit ${rc[$k]}: $(tail -n 3 "$out/$k.run.log" | tr '\n' '|')" test "${rc[$k]}" = 0
		check "$k kernel: logdev's debugfs files present" "$(tr '\n' ' ' < "$d/files.txt" 2>/dev/null)" \
			sh -c "for f in enable buffer_size_kb formats header stats per_cpu probes; do grep -qx \$f '$d/files.txt' || exit 1; done"
		[ $k = slob ] && alloc=mm/slob.c || alloc=mm/slub.c
		check "$k kernel: runs $( [ $k = slob ] && echo SLOB || echo SLUB)" "$(cat "$d/kernel.txt" 2>/dev/null)" \
			grep -q "kmem_cache_free_probe" "$d/formats.txt"
		check "$k kernel: the built-in edprint() of net/core/skbuff.c kfree_skbmem registered" \
			"$(grep -c . "$d/formats.txt" 2>/dev/null) sites" \
			grep -qP '^\d+\tnet/core/skbuff\.c\t\d+\tkfree_skbmem\tin$' "$d/formats.txt"
	fi
	if [ -f "$d/run.cap" ]; then
		"$U/logdev" report --raw "$d/run.cap" 2> "$d/report.err" |
			awk -F'\t' '{ n[$6]++ } END { for (f in n) print f, n[f] }' | sort > "$d/records-by-func.txt"
	fi
	if [ -n "$check" ]; then
		for f in kfree_skbmem kmem_cache_free_probe ksys_mmap_pgoff __vm_munmap flush_tlb_mm_range show_smap proc_pid_wchan; do
			n=$(awk -v f=$f '$1 == f { print $2 }' "$d/records-by-func.txt" 2>/dev/null)
			check_ge "$k kernel: records of the $f probe in the capture" "${n:-0}" 10
		done
	fi
done

if [ -f "$out/slub/run.cap" ] && [ -f "$out/slob/run.cap" ]; then
	"$U/logdev" diff --min-count 20 "$out/slub/run.cap" "$out/slob/run.cap" > "$out/diff.txt" 2> "$out/diff.err" || true
	echo
	echo "logdev diff $out/slub/run.cap (A: SLUB) $out/slob/run.cap (B: SLOB)"
	echo "kfree_skbmem and kmem_cache_free rows:"
	head -n 1 "$out/diff.txt"
	grep -E 'kfree_skbmem|kmem_cache_free' "$out/diff.txt" || true
	if [ -z "$check" ]; then
		echo
		echo "the whole table:"
		cat "$out/diff.txt"
	else
		check "logdev diff matches the kmem_cache_free in -> out rows of SLUB and SLOB" \
			"$(grep -c . "$out/diff.txt") rows, $(head -c 300 "$out/diff.err")" \
			grep -qE '^kmem_cache_free_probe:[0-9]+ +kmem_cache_free_probe:[0-9]+ +[0-9]' "$out/diff.txt"
	fi
fi
echo "demo-builtin: $((SECONDS - t0)) s in all"
[ -z "$check" ] || finish
