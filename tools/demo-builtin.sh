#!/bin/bash
# make demo-builtin / make check-builtin: the kfree_skbmem hunt of logdev's
# seed replayed with logdev built into the kernel, comparing two allocator
# configurations.
#
#   tools/demo-builtin.sh [--check] [--pair debug|slob] [--kernel NAME]
#                         [MMAPS [WCHANS [KBYTES [SMAPS]]]]
#                                       (default 1000 1000 2048 100)
#
# --pair debug (the default), on the newest kernel of tools/kernels/matrix:
#   one kernel with SLUB (and SLUB_DEBUG compiled in), booted twice: A plain,
#   B with slub_debug=FZPU on the command line (every free checked, red
#   zones, poisoning, owner tracking), which differ as SLAB and SLOB once
#   did.  SLOB is gone since 6.4.
# --pair slob, on 6.1 (any tree before 6.4): two kernels, A SLUB, B SLOB,
#   one boot each: the original pair.
# --kernel NAME: the matrix kernel whose linux-source is built (default
#   newest for debug, 6.1 for slob).
#
# Builds from that kernel's Debian linux-source with CONFIG_LOGDEV=y and the
# probe patches of kernel/intree/probes/X.Y/ (tools/ksrc.sh: recipes slub,
# slob; cached in build/cache/X.Y/, a second run rebuilds only what changed),
# boots A and B at once under QEMU (tools/vm/run.sh, LOGDEV_VM_KERNEL=
# bzImage, the QEMU the matrix gives that kernel, -smp 2, so that they share
# the host's load), records a loopback TCP, mmap/munmap, /proc/PID/wchan and
# /proc/1/smaps workload (tools/demo-builtin-guest.sh,
# tools/demo-workload.c), and prints `logdev diff A.cap B.cap`: the
# kfree_skbmem and kmem_cache_free rows first, then their in -> out
# durations (diff --pair), then the whole table.  Under TCG the ratio B/A is
# the finding, not the absolute times.
#
# --check (make check-builtin): the same boots, with PASS/FAIL lines: the
# kernels built without an orphan-section warning and booted, logdev's
# debugfs files present, the allocator the one it says (SLUB's caches, all
# checking frees under slub_debug=F, none under SLOB), records from every
# probe (kfree_skbmem, kmem_cache_free, mmap, munmap, TLB flush, show_smap,
# wchan), the built-in edprint() of net/core/skbuff.c among them.
#
# Kernel command line: LOGDEV_BUILTIN_APPEND (default logdev.enable=1:
# recording from the early initcalls, docs/DEBUGFS.md "Parameters"; the
# guest then drains with `logdev record --no-enable`), plus B's
# slub_debug=FZPU.  Set it empty to have the guest enable recording through
# debugfs instead.  LOGDEV_BUILTIN_PAIR, LOGDEV_BUILTIN_KERNEL: as --pair,
# --kernel.  LOGDEV_BUILTIN_BOOTS="slub" (a boot's name) boots only that one.
# Results: build/demo-builtin/X.Y/BOOT/ (run.cap, formats.txt, stats.txt,
# slab.txt, console.log), build logs build/demo-builtin/X.Y/RECIPE-build.log.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
check= pair=${LOGDEV_BUILTIN_PAIR:-debug} kernel=${LOGDEV_BUILTIN_KERNEL:-}
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1 ;;
	--pair) pair=${2:?--pair debug|slob}; shift ;;
	--kernel) kernel=${2:?--kernel NAME}; shift ;;
	-h|--help) sed -n '2,/^set -euo/{/^set -euo/d;p}' "$0"; exit 0 ;;
	-*) echo "demo-builtin: unknown option '$1' (--help)" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
mmaps=${1:-1000} wchans=${2:-1000} kbytes=${3:-2048} smaps=${4:-100}
append=${LOGDEV_BUILTIN_APPEND-logdev.enable=1}
ksrc=$top/tools/ksrc.sh

# the two boots: name, recipe, what it is, its own command line
declare -A recipe label bappend
case $pair in
debug)
	kernel=${kernel:-newest}
	boots="slub slub_debug"
	recipe=([slub]=slub [slub_debug]=slub)
	label=([slub]=SLUB [slub_debug]="SLUB slub_debug=FZPU")
	bappend=([slub]= [slub_debug]=slub_debug=FZPU) ;;
slob)
	kernel=${kernel:-6.1}
	boots="slub slob"
	recipe=([slub]=slub [slob]=slob)
	label=([slub]=SLUB [slob]=SLOB)
	bappend=([slub]= [slob]=) ;;
*) echo "demo-builtin: --pair debug or slob, not '$pair'" >&2; exit 2 ;;
esac
boots=${LOGDEV_BUILTIN_BOOTS:-$boots}
for b in $boots; do
	[ -n "${recipe[$b]:-}" ] || { echo "demo-builtin: no boot '$b' in pair $pair (${!recipe[*]})" >&2; exit 2; }
done
set -- $boots
A=$1 B=${2:-}
xy=$("$ksrc" -k "$kernel" version)
out=$top/build/demo-builtin/$xy
U=$top/userspace
P=builtin
. "$top/tests/vm/lib.sh"
t0=$SECONDS

make -s -C "$U" logdev logdev.static
mkdir -p "$out"
cc -O2 -Wall -static -o "$out/demo-workload" "$top/tools/demo-workload.c"

echo "demo-builtin: $kernel's linux-source-$xy, ${label[$A]}${B:+ against ${label[$B]}} ($(for b in $boots; do printf '%s ' "${recipe[$b]}"; done | tr ' ' '\n' | sort -u | tr '\n' ' ')kernels)"
declare -A kimg krel
for r in $(for b in $boots; do echo "${recipe[$b]}"; done | sort -u); do
	tb=$SECONDS
	echo "demo-builtin: building the $r kernel (tools/ksrc.sh -k $kernel make $r bzImage, log $out/$r-build.log)"
	if ! "$ksrc" -k "$kernel" make "$r" bzImage > "$out/$r-build.log" 2>&1; then
		grep -E 'error|Error' "$out/$r-build.log" | head -n 20 >&2
		fail "the $xy $r kernel does not build (log $out/$r-build.log)"
		finish
		exit 1
	fi
	o=$("$ksrc" -k "$kernel" odir "$r")
	kimg[$r]=$o/arch/x86/boot/bzImage
	krel[$r]=$(cat "$o/include/config/kernel.release")
	echo "demo-builtin: $r kernel ready in $((SECONDS - tb)) s"
	# the kernel's own warnings are not ours; logdev's files and an
	# orphan section from edprint() sites would be
	w=$(grep -E 'kernel/logdev/.*warning:|orphan section.*logdev|warning:.*__logdev' "$out/$r-build.log" || true)
	if [ -n "$check" ]; then
		check_eq "$xy $r kernel: no warning from logdev's files or sites (orphan section)" "$w" ""
	elif [ -n "$w" ]; then
		echo "demo-builtin: warnings: $w" >&2
	fi
done
echo "demo-builtin: kernels ready after $((SECONDS - t0)) s"

echo "demo-builtin: booting $boots ($mmaps mmaps, $wchans wchan reads, $kbytes KiB over loopback, $smaps smaps reads)${append:+, append '$append'}"
declare -A pid
for b in $boots; do
	rm -rf "${out:?}/$b"
	mkdir -p "$out/$b"
	a="$append ${bappend[$b]}"
	a=$(echo $a)
	# --tcg single: built in, edprint() sites (kmem_cache_free) run on
	# every vCPU all the time, and the guest flips the static key
	# (enable); QEMU 7.2's multi-threaded TCG can wedge on that
	# (docs/DEVELOPING.md, `--tcg single`)
	LOGDEV_VM_KERNEL=${kimg[${recipe[$b]}]} LOGDEV_VM_QEMU=$kernel \
		"$top/tools/vm/run.sh" --kver "${krel[${recipe[$b]}]}" --smp 2 --mem 512 --timeout 900 --tcg single \
		${a:+--append "$a"} \
		--script "$top/tools/demo-builtin-guest.sh" \
		--files "$U/logdev.static $out/demo-workload" \
		--args "$mmaps $wchans $kbytes $smaps" --out "$out/$b" > "$out/$b.run.log" 2>&1 &
	pid[$b]=$!
done
declare -A rc
for b in $boots; do
	rc[$b]=0
	wait "${pid[$b]}" || rc[$b]=$?
done
echo "demo-builtin: boots done after $((SECONDS - t0)) s"

for b in $boots; do
	d=$out/$b
	grep '^demo-builtin:' "$d/guest.log" 2>/dev/null | sed "s/^/  $b: /" || true
	caches=$(sed -n 's/^caches //p' "$d/slab.txt" 2>/dev/null || true)
	sane=$(sed -n 's/^sanity_checks //p' "$d/slab.txt" 2>/dev/null || true)
	echo "  $b: ${label[$b]}: $(cat "$d/kernel.txt" 2>/dev/null), command line '$(cat "$d/cmdline.txt" 2>/dev/null)', SLUB caches ${caches:-?}, checking every free ${sane:-?}"
	if [ -n "$check" ]; then
		check "$b: ${label[$b]} boots and runs the workload (run.sh exit 0)" \
			"exit ${rc[$b]}: $(tail -n 3 "$out/$b.run.log" | tr '\n' '|')" test "${rc[$b]}" = 0
		check "$b: logdev's debugfs files present" "$(tr '\n' ' ' < "$d/files.txt" 2>/dev/null)" \
			sh -c "for f in enable buffer_size_kb formats header stats per_cpu probes; do grep -qx \$f '$d/files.txt' || exit 1; done"
		case $b in
		slob) check "$b: runs SLOB (no SLUB caches in /sys/kernel/slab)" "caches '$caches'" test "$caches" = 0 ;;
		slub_debug) check "$b: SLUB with slub_debug=F: all $caches caches check every free" \
			"caches '$caches', sanity_checks '$sane'" test "${caches:-0}" -gt 0 -a "$caches" = "$sane" ;;
		*) check "$b: SLUB without slub_debug: $caches caches, none checking every free" \
			"caches '$caches', sanity_checks '$sane'" test "${caches:-0}" -gt 0 -a "$sane" = 0 ;;
		esac
		check "$b: the built-in edprint() of net/core/skbuff.c kfree_skbmem registered" \
			"$(grep -c . "$d/formats.txt" 2>/dev/null) sites" \
			grep -qP '^\d+\tnet/core/skbuff\.c\t\d+\tkfree_skbmem\tin$' "$d/formats.txt"
	fi
	if [ -f "$d/run.cap" ]; then
		"$U/logdev" report --raw "$d/run.cap" 2> "$d/report.err" |
			awk -F'\t' '{ n[$6]++ } END { for (f in n) print f, n[f] }' | sort > "$d/records-by-func.txt"
	fi
	if [ -n "$check" ] && [ "$append" = logdev.enable=1 ]; then
		# recording from boot: the first record is older than the guest
		# script (uptime and the trace clock both count from boot)
		up=$(sed -n 's/.*guest started at uptime \([0-9.]*\) s.*/\1/p' "$d/guest.log" 2>/dev/null || true)
		first=$("$U/logdev" report --raw "$d/run.cap" 2>/dev/null |
			awk -F'\t' 'NR == 1 { printf "%.3f", $1 / 1e9 }' || true)
		check "$b: recorded from boot (logdev.enable=1): first record at ${first:-?} s, guest started at ${up:-?} s" \
			"no 'recording since boot' line or a later first record" \
			awk -v a="${first:-x}" -v b="${up:-x}" 'BEGIN { exit !(a != "x" && b != "x" && a + 0 < b + 0) }'
	fi
	if [ -n "$check" ]; then
		for f in kfree_skbmem kmem_cache_free_probe ksys_mmap_pgoff __vm_munmap flush_tlb_mm_range show_smap proc_pid_wchan; do
			n=$(awk -v f=$f '$1 == f { print $2 }' "$d/records-by-func.txt" 2>/dev/null || true)
			check_ge "$b: records of the $f probe in the capture" "${n:-0}" 10
		done
	fi
done

if [ -n "$B" ] && [ -f "$out/$A/run.cap" ] && [ -f "$out/$B/run.cap" ]; then
	"$U/logdev" diff --min-count 20 "$out/$A/run.cap" "$out/$B/run.cap" > "$out/diff.txt" 2> "$out/diff.err" || true
	echo
	echo "logdev diff $out/$A/run.cap (A: ${label[$A]}) $out/$B/run.cap (B: ${label[$B]})"
	echo "kfree_skbmem and kmem_cache_free rows:"
	head -n 1 "$out/diff.txt"
	grep -E 'kfree_skbmem|kmem_cache_free' "$out/diff.txt" || true
	# kfree_skbmem's in -> out whatever records fall between (the
	# allocator's own probes): an edprint pair, as durations (diff --pair);
	# its labels (func:line) read from the capture, not hard-coded
	site() { "$U/logdev" report --raw "$out/$A/run.cap" 2>/dev/null |
		awk -F'\t' -v f="$1" -v m="$2" '$6 == f && $8 == m && !x { x = $6 ":" $7 }
		END { print x }'; }	# no early exit: pipefail and SIGPIPE
	kin=$(site kfree_skbmem in) kout=$(site kfree_skbmem out)
	cin=$(site kmem_cache_free_probe in) cout=$(site kmem_cache_free_probe out)
	if [ -n "$kin" ] && [ -n "$kout" ] && [ -n "$cin" ] && [ -n "$cout" ]; then
		"$U/logdev" diff --pair "$kin,$kout" --pair "$cin,$cout" "$out/$A/run.cap" \
			"$out/$B/run.cap" > "$out/diff-pairs.txt" 2> "$out/diff-pairs.err" || true
		echo
		echo "in -> out of kfree_skbmem and kmem_cache_free (logdev diff --pair $kin,$kout --pair $cin,$cout):"
		head -n 1 "$out/diff-pairs.txt"
		grep -E "^($kin|$cin) " "$out/diff-pairs.txt" || true
	fi
	[ -z "$check" ] || check "logdev diff --pair: kfree_skbmem in -> out row, ${label[$A]} against ${label[$B]}" \
		"labels '$kin' '$kout', $(head -c 300 "$out/diff-pairs.err" 2>/dev/null)" \
		grep -qE "^$kin +$kout +[0-9]+ " "$out/diff-pairs.txt"
	if [ -z "$check" ]; then
		echo
		echo "the whole table:"
		cat "$out/diff.txt"
	else
		check "logdev diff matches the kmem_cache_free in -> out rows of ${label[$A]} and ${label[$B]}" \
			"$(grep -c . "$out/diff.txt") rows, $(head -c 300 "$out/diff.err")" \
			grep -qE '^kmem_cache_free_probe:[0-9]+ +kmem_cache_free_probe:[0-9]+ +[0-9]' "$out/diff.txt"
	fi
fi
echo "demo-builtin: $((SECONDS - t0)) s in all (load average $(cut -d' ' -f1-3 /proc/loadavg))"
[ -z "$check" ] || finish
