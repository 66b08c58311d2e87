#!/bin/bash
# The soak test (issue 13 item 1): `make soak` (10^8 records per kernel and
# mode) and the vm-soak group of `make check` (10^6, on the kernel checked).
#
#   tests/vm/soak.sh [--records N] [--kernels "6.1 6.1-rt"] [--modes "overwrite discard"]
#                    [--smp 4] [--kb 64] [--every 16] [--out DIR]
#
# Per kernel (a name of tools/kernels/matrix or a release; image: the
# kernel image LOGDEV_VM_KERNEL names, e.g. tools/debug-kernel.sh's, with
# kernel/*.ko, which must be built against its tree) one boot with
# --smp CPUs (default 4) runs tests/vm/guest-soak.sh once per mode:
# logdev_test's writers in task, softirq, hardirq and NMI context on every
# CPU, a chain nested four deep (task, softirq, hardirq, NMI; three deep on
# PREEMPT_RT) every --every iterations, one consuming reader per CPU, at
# least --records edprint() calls; tests/vm/soaktool.c checks every record as
# it is read (see its header for the assertions).  tools/vm/run.sh fails the
# boot on a WARN, BUG, lockdep report, lockup or RCU stall in the console or
# the kernel log.
#
# Modules: built per kernel by tools/kernels/modules.sh (build/kmod/RELEASE/,
# files copied only when they changed, so a second run rebuilds nothing).
#
# VM_SLOW=N (default 1): a kernel N times slower under TCG (KASAN, lockdep:
# tools/debug-kernel.sh sets it): the boot's timeout and idle watch scale.
# LOGDEV_VM_KERNEL is for `image` only: cloud and rt boot their own kernels.
#
# Prints PASS:/FAIL: lines, then per kernel and mode a table: records
# written/read/lost per CPU and context, records/s, duration, and the host's
# load average before and after.  Exit status non-zero if any check failed.
# Results stay in --out (default build/soak/out).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
records=100000000 kernels="6.1 6.1-rt" modes="overwrite discard" smp=4 kb=64 every=16
out=$top/build/soak/out
while [ $# -gt 0 ]; do
	case $1 in
	--records) records=$2; shift 2 ;;
	--kernels) kernels=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--kb) kb=$2; shift 2 ;;
	--every) every=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: $0 [--records N] [--kernels \"6.1 6.1-rt\"] [--modes \"overwrite discard\"] [--smp N] [--kb KB] [--every K] [--out DIR]" >&2
	   exit 2 ;;
	esac
done
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
mkdir -p "$out"

U=$top/userspace
if ! ${CC:-cc} -static -O2 -Wall -I "$top/include/uapi" -I "$top/include" \
	-o "$out/soaktool" "$vm/soaktool.c" "$vm/soaktool_read.c" -lpthread 2> "$out/soaktool.err"; then
	fail "vm-soak: cannot build tests/vm/soaktool.c: $(head -n 3 "$out/soaktool.err" | tr '\n' '|')"
	exit 1
fi

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

summary=$out/summary.txt
: > "$summary"
for k in $kernels; do
	name=vm-soak-$k
	img=
	case $k in
	image)
		img=${LOGDEV_VM_KERNEL:-}
		kv=$(grep -ao 'vermagic=[^ ]*' "$top/kernel/logdev.ko" 2>/dev/null | head -n 1 | cut -d= -f2)
		if [ -z "$img" ] || [ ! -r "$img" ] || [ -z "$kv" ] || [ ! -f "$top/kernel/test/logdev_test.ko" ]; then
			fail "$name: needs LOGDEV_VM_KERNEL (got '$img') and kernel/logdev.ko, kernel/test/logdev_test.ko built against it"
			continue
		fi ;;
	*)
		if ! kv=$("$top/tools/kernels/kernel.sh" env "$k" | sed -n 's/^KVER=//p'); then
			fail "$name: no kernel '$k' (tools/kernels/kernel.sh)"
			continue
		fi ;;
	esac
	if [ -n "$img" ]; then
		m=$top/kernel
	elif ! m=$("$top/tools/kernels/modules.sh" --quiet "$kv"); then
		fail "$name: no modules for $kv (see $top/build/kmod/$kv/build.log)"
		continue
	fi
	rm -rf "${out:?}/$name"
	la0=$(loadavg)
	# Timeout: 10^6 records take about a minute under TCG; allow 60 s per
	# 10^6 and mode beyond a base (the run prints progress every 20 s, so
	# the idle watch still catches a wedge).
	# VM_SLOW scales both for a slow (debug) kernel.
	slow=${VM_SLOW:-1}
	tmo=$(awk -v r="$records" -v n="$(echo $modes | wc -w)" -v s="$slow" 'BEGIN { printf "%d", s * (240 + n * r / 1e6 * 60) }')
	# Multi-threaded TCG: soaktool switches enable on before the writers
	# start and off after they are done, so the static key never flips under
	# an edprint() site (tools/vm/run.sh --tcg).  --idle 240: the boot is
	# silent (quiet), and a 4-CPU PREEMPT_RT boot on a loaded host (load
	# average 20) once printed nothing for 90 s; once up, the guest prints
	# progress every 20 s.  no_timer_check: a PREEMPT_RT boot at that load
	# panicked in the kernel's early IO-APIC timer check ("IO-APIC + timer
	# doesn't work!"), which a slow emulated CPU can fail.
	LOGDEV_VM_KERNEL=$img "$top/tools/vm/run.sh" --kver "$kv" --smp "$smp" --mem 1024 --timeout "$tmo" --idle $((240 * slow)) \
		--append no_timer_check \
		--script "$vm/guest-soak.sh" --files "$m/logdev.ko $m/test/logdev_test.ko $out/soaktool" \
		--args "$kb $records $every $name $modes" --out "$out/$name" 2> "$out/$name.runlog"
	rc=$?
	la1=$(loadavg)
	secs=$(grep -o '[0-9.]*s, results' "$out/$name.runlog" | cut -d, -f1)
	case $rc in
	0) echo "PASS: $name: VM ran ($kv, $secs, tcg multi)" ;;
	5) fail "$name: guest script failed (see $out/$name/guest.log)" ;;
	*) fail "$name: VM run failed (rc $rc): $(grep -v '^run.sh: kernel ' "$out/$name.runlog" | head -n 4 | tr '\n' '|')" ;;
	esac
	[ -f "$out/$name/guest.log" ] || continue
	grep -a -E '^(PASS|FAIL): ' "$out/$name/guest.log" | tr -d '\r'
	failed=$((failed + $(grep -a -c '^FAIL: ' "$out/$name/guest.log")))
	{
		echo "== $name: kernel $kv, -smp $smp, buffer ${kb} KiB per CPU, chain every $every; boot ${secs:-?}; host load average before $la0, after $la1"
		awk '
		/^INFO: .*: mode / { sub(/^INFO: /, ""); print "-- " $0 }
		/^INFO: .*: cpu [0-9]+ +(task|softirq|hardirq|nmi) / {
			sub(/^INFO: [^:]*: /, ""); printf "   %s\n", $0 }
		/^SOAK: / { sub(/^SOAK: /, ""); print "   " $0 }' "$out/$name/guest.log" | tr -d '\r'
	} >> "$summary"
done
echo
cat "$summary"
echo "soak: $failed failed"
[ "$failed" = 0 ]
