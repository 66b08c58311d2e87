#!/bin/bash
# `make demo`: boot the VM with logdev.ko, logdev_demo.ko and the static
# reader, record 200 iterations of the demo's allocator/skb/paravirt paths,
# bring demo.cap back byte for byte and show it with the host reader.
#   tools/demo.sh [N]     (expects userspace/logdev{,.static} built)
# The kernel: LOGDEV_KVER (make demo KVER=...), a name of
# tools/kernels/matrix or a release, default the matrix's first; the modules
# are built for it by tools/kernels/modules.sh (or LOGDEV_KMOD=DIR: built).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-200}
out=${DEMO_OUT:-$top/demo-out}
for f in userspace/logdev.static userspace/logdev; do
	[ -f "$top/$f" ] || { echo "demo: $f not built (make)" >&2; exit 1; }
done
K=${LOGDEV_KMOD:-$("$top/tools/kernels/modules.sh" --quiet "${LOGDEV_KVER:-}")}
rm -rf "$out"
"$top/tools/vm/run.sh" --smp 2 --timeout 120 --script "$top/tests/vm/guest-demo.sh" \
	--files "$K/logdev.ko $K/test/logdev_demo.ko $top/userspace/logdev.static" \
	--args "$n" --out "$out"
echo "== demo.cap: $(stat -c %s "$out/demo.cap") bytes, sha256 $(sha256sum < "$out/demo.cap" | cut -c1-16)..."
echo "== logdev report demo.cap | head -60"
"$top/userspace/logdev" report "$out/demo.cap" | head -n 60 || true
echo "== logdev deltas demo.cap"
"$top/userspace/logdev" deltas "$out/demo.cap" || [ $? = 3 ]	# 3: with warnings (stderr)
