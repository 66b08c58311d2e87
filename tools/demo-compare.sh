#!/bin/bash
# make demo-compare: the same workload on the Debian cloud kernel and on the
# PREEMPT_RT kernel, recorded through logdev probes, then `logdev diff`.
#
#   tools/demo-compare.sh [MMAPS [WCHANS [KBYTES]]]      (default 2000 2000 4096)
# Env DIFF_MIN_COUNT (default 100): passed to logdev diff --min-count.
#
# The two kernels: DEMO_COMPARE_KERNELS="CLOUD RT" (names of
# tools/kernels/matrix, default "6.1 6.1-rt"; fetched when missing).  Builds
# the logdev module per kernel (tools/kernels/modules.sh), builds tools/demo-workload.c
# static, boots both kernels at the same time (tools/vm/run.sh, -smp 2 each,
# so that both see the same host load; the cloud kernel once the slower
# booting -rt guest is up) running tools/demo-compare-guest.sh, and prints
#   logdev diff cloud.cap rt.cap
# Results: build/demo-compare/{cloud,rt}/ (run.cap, probes.txt, stats.txt).
# Timings are TCG-emulated: compare the two kernels, not absolute numbers,
# and not one run: on a loaded host, runs of the same pair differed by 2x.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mmaps=${1:-2000} wchans=${2:-2000} kbytes=${3:-4096}
out=$top/build/demo-compare
U=$top/userspace

"$top/tools/deps.sh" >/dev/null
read -r kcloud krt <<< "${DEMO_COMPARE_KERNELS:-6.1 6.1-rt}"
make -s -C "$U" logdev logdev.static
mkdir -p "$out"
cc -O2 -Wall -static -o "$out/demo-workload" "$top/tools/demo-workload.c"

declare -A kv kmod
for flavour in cloud rt; do
	if [ $flavour = rt ]; then k=$krt; else k=$kcloud; fi
	kmod[$flavour]=$("$top/tools/kernels/modules.sh" --product "$k")
	kv[$flavour]=$(grep -ao 'vermagic=[^ ]*' "${kmod[$flavour]}/logdev.ko" | head -n 1 | cut -d= -f2)
done
# Both VMs at once: TCG timings follow the host's load, so the two kernels
# should run under the same conditions.  The -rt kernel boots slower (about
# 10 s against 3 s under TCG): start it first, and the cloud kernel when the
# -rt guest is up, so that the two workloads overlap.
echo "demo-compare: booting ${kv[rt]} then ${kv[cloud]} ($mmaps mmaps, $wchans wchan reads, $kbytes KiB over loopback)"
pids=()
for flavour in rt cloud; do
	rm -rf "${out:?}/$flavour"
	mkdir -p "$out/$flavour"
	"$top/tools/vm/run.sh" --kver "${kv[$flavour]}" --smp 2 --mem 1024 --timeout 900 \
		--script "$top/tools/demo-compare-guest.sh" \
		--files "${kmod[$flavour]}/logdev.ko $U/logdev.static $out/demo-workload" \
		--args "$mmaps $wchans $kbytes" --out "$out/$flavour" &
	pids+=($!)
	if [ $flavour = rt ]; then
		for _ in $(seq 1 240); do
			grep -q 'logdev-vm: guest up' "$out/rt/console.log" 2>/dev/null && break
			sleep 0.5
		done
	fi
done
bad=0
for p in "${pids[@]}"; do
	wait "$p" || bad=1
done
[ $bad = 0 ] || { echo "demo-compare: a VM run failed" >&2; exit 1; }
for flavour in cloud rt; do
	echo "${kv[$flavour]}:"
	grep '^demo-compare:' "$out/$flavour/guest.log" || true
	sed 's/^/  /' "$out/$flavour/probes.txt"
done
echo
echo "logdev diff $out/cloud/run.cap (A: $(cat "$out/cloud/kernel.txt")) $out/rt/run.cap (B: $(cat "$out/rt/kernel.txt"))"
"$U/logdev" diff --min-count "${DIFF_MIN_COUNT:-100}" "$out/cloud/run.cap" "$out/rt/run.cap" || [ $? = 3 ]	# 3: with warnings (stderr)
echo
echo "function durations of the r: probes, each return paired with its entry (diff --durations):"
"$U/logdev" diff --durations "$out/cloud/run.cap" "$out/rt/run.cap" || [ $? = 3 ]
