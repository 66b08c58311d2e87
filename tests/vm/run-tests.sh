#!/bin/bash
# The QEMU tests: boots the Debian cloud kernel (tools/vm/run.sh) with the
# modules and the static reader, and checks the results on the host.
# Builds nothing: expects kernel/logdev.ko, kernel/logdev_test.ko,
# kernel/logdev_demo.ko, userspace/logdev.static and userspace/logdev.
# Prints PASS:/FAIL: lines; exits non-zero if any check failed.
#   tests/vm/run-tests.sh [--quick]     (--quick: -smp 2 only)
# Results stay in $VM_OUT (default tests/vm/out/) for a post-mortem.
# LOGDEV_VM_KERNEL=path/bzImage: boot that kernel (tools/vm/run.sh), e.g. the
# debug kernel of tools/debug-kernel.sh, with modules built against its tree.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
out=${VM_OUT:-$vm/out}
quick=
[ "${1:-}" = --quick ] && quick=1
K=$top/kernel U=$top/userspace
failed=0

fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

missing=
for f in $K/logdev.ko $K/logdev_test.ko $K/logdev_demo.ko $K/logdev_syma.ko $K/logdev_symb.ko \
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
kimg=${LOGDEV_VM_KERNEL:-/boot/vmlinuz-$kver}
if [ -z "$kver" ] || [ ! -r "$kimg" ]; then
	fail "vm: kernel/logdev.ko is built for '$kver', which has no $kimg"
	exit 1
fi
rm -rf "$out"
mkdir -p "$out"

# boot NAME SMP SCRIPT "FILES" "ARGS": run the VM, print a FAIL line for
# kernel trouble, timeout or lost results.  Returns 0 if results came back.
boot() {
	local name=$1 smp=$2 script=$3 files=$4 args=$5 rc
	"$top/tools/vm/run.sh" --kver "$kver" --smp "$smp" --timeout "${VM_TIMEOUT:-180}" \
		--script "$script" --files "$files" --args "$args" --out "$out/$name" \
		2> "$out/$name.runlog"
	rc=$?
	case $rc in
	0) echo "PASS: $name: VM ran ($(grep -o '[0-9.]*s, results' "$out/$name.runlog" | cut -d, -f1))"; return 0 ;;
	5) fail "$name: guest script failed (see $out/$name/guest.log)"; return 0 ;;
	*) fail "$name: VM run failed (rc $rc): $(grep -v '^run.sh: kernel ' "$out/$name.runlog" | head -n 4 | tr '\n' '|')"
	   return 1 ;;
	esac
}

# Guest-side PASS/FAIL lines.
guest_lines() {
	local log=$1/guest.log
	grep -E '^(PASS|FAIL): ' "$log" | tr -d '\r'
	if grep -q '^FAIL: ' "$log"; then
		failed=$((failed + $(grep -c '^FAIL: ' "$log")))
	fi
}

# 1. control files
if boot vm-control 2 "$vm/guest-control.sh" "$K/logdev.ko" ""; then
	guest_lines "$out/vm-control"
fi

# 2. contexts (and the printf table) in both modes, small buffers.
smps="2 4"
[ -n "$quick" ] && smps=2
for smp in $smps; do
	for mode in overwrite discard; do
		name=vm-ctx-smp$smp-$mode
		if boot "$name" "$smp" "$vm/guest-contexts.sh" \
			"$K/logdev.ko $K/logdev_test.ko $U/logdev.static" \
			"$mode ${VM_CTX_KB:-16} ${VM_CTX_ITERS:-20000}"; then
			"$vm/check-contexts.sh" "$out/$name" "$name" || failed=$((failed + 1))
			if [ "$smp" = 2 ] && [ "$mode" = overwrite ]; then
				"$vm/check-printf.sh" "$out/$name" vm-printf || failed=$((failed + 1))
			fi
		fi
	done
done

# 3. demo smoke
if boot vm-demo 2 "$vm/guest-demo.sh" "$K/logdev.ko $K/logdev_demo.ko $U/logdev.static" 200; then
	"$vm/check-demo.sh" "$out/vm-demo" vm-demo || failed=$((failed + 1))
fi

# 4. run-time probes: every kind fires the known number of times
if boot vm-probes 2 "$vm/guest-probes.sh" \
	"$K/logdev.ko $K/logdev_test.ko $K/logdev_syma.ko $K/logdev_symb.ko $U/logdev.static" \
	"1000 500 20"; then
	guest_lines "$out/vm-probes"
	"$vm/check-probes.sh" "$out/vm-probes" vm-probes || failed=$((failed + 1))
fi

# 5. symbols across module unload and load during one recording
if boot vm-sym 2 "$vm/guest-sym.sh" \
	"$K/logdev.ko $K/logdev_syma.ko $K/logdev_symb.ko $U/logdev.static" ""; then
	guest_lines "$out/vm-sym"
	"$vm/check-sym.sh" "$out/vm-sym" vm-sym || failed=$((failed + 1))
fi

[ $failed = 0 ]
