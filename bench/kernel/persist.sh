#!/bin/bash
# bench/kernel/persist.sh [NR [RUNS]]: the flight recorder's write cost
# (docs/PERFORMANCE.md): one boot (QEMU TCG, 2 CPUs) of the kernel
# LOGDEV_KVER names (default newest: it has ftrace's persistent instance),
# with memmap= areas for logdev and for ftrace's boot_map instance; per
# round, edprint in the area against edprint in vmalloc memory, and
# trace_printk into boot_map against the top instance
# (bench/kernel/guest-persist.sh).  Prints ns/record (TCG: ratios only),
# the per-round ratios and the host's load average.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
nr=${1:-20000}
runs=${2:-5}
kv=${LOGDEV_KVER:-newest}
out=${BENCH_KOUT:-$top/bench/out/persist}
rm -rf "$out"
km=$("$top/tools/kernels/modules.sh" --product --with "$here" --quiet "$kv") ||
	{ echo "bench: building logdev.ko or logdev_bench.ko for $kv failed" >&2; exit 1; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
ap='memmap=8M$0x10000000 memmap=8M$0x10800000 trace_instance=boot_map@0x10800000:8M'
"$top/tools/vm/run.sh" --kver "$kv" --smp 2 --mem 1024 --timeout 900 --script "$here/guest-persist.sh" \
	--append "$ap" --files "$km/logdev.ko $km/../bench-kernel/logdev_bench.ko" \
	--args "$nr $runs" --out "$out" >&2
med() {	# LABEL -> median ns
	awk -v l="$1" '$2 == l { print $3 }' "$out/results.txt" | sort -n |
		awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit } if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
rratio() {	# A B -> per-round ratios A/B: "median (min-max)"
	awk -v a="$1" -v b="$2" '$2 == a { x[$1] = $3 } $2 == b { y[$1] = $3 }
		END { for (r in x) if (y[r] > 0) printf "%.4f\n", x[r] / y[r] }' "$out/results.txt" | sort -n |
	awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f (%.3f-%.3f)", m, v[1], v[NR] }'
}
echo "Flight recorder write cost: $(cat "$out/uname.txt") in QEMU TCG, $(cat "$out/nproc.txt") CPUs, $nr records per CPU, $runs rounds"
echo "(ns of the guest clock under TCG: compare ratios only; host: $(lscpu | sed -n 's/^Model name: *//p'))"
echo "Host load average: before the boot $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-44s %12s  %s\n' "record (2 ints)" "ns/rec (TCG)" "ratio per round, median (range)"
printf '  %-44s %12s  %s\n' "logdev edprint, rings in vmalloc memory" "$(med normal)" "1"
printf '  %-44s %12s  %s\n' "logdev edprint, rings in the memmap area" "$(med area)" "$(rratio area normal) of vmalloc"
if grep -q ' ft-top ' "$out/results.txt"; then
	printf '  %-44s %12s  %s\n' "ftrace trace_printk, top instance" "$(med ft-top)" "1"
	printf '  %-44s %12s  %s\n' "ftrace trace_printk, boot_map (persistent)" "$(med ft-boot_map)" "$(rratio ft-boot_map ft-top) of top"
else
	echo "  (no ftrace persistent instance on this kernel: trace_instance=boot_map@ needs 6.12+)"
fi
