#!/bin/bash
# bench/kernel/matrix.sh [NR [RUNS]]: the kernel bench (bench/kernel/run.sh)
# on every kernel of the matrix (tools/kernels/matrix; BENCH_KERNELS="6.1
# newest" for some), one boot after the other, each kernel's whole table
# kept in bench/out/kernel-NAME/table.txt, then one summary table of the
# 2-int case side by side: edprint against trace_printk and against the raw
# ring_buffer reserve+commit (per-round median ratios: the rounds of one boot
# share the interference), and the static key off against no call.
# Ratios only: under TCG the ns are emulated.  The host's load average is
# printed per kernel: a figure counts only from an idle host
# (docs/PERFORMANCE.md, "Per kernel").
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
nr=${1:-20000}
runs=${2:-5}
kernels=${BENCH_KERNELS:-$("$top/tools/kernels/kernel.sh" names | tr '\n' ' ')}
rc=0
mkdir -p "$top/bench/out"
for k in $kernels; do
	o=$top/bench/out/kernel-$k
	echo "== bench: kernel $k" >&2
	if ! LOGDEV_KVER=$k BENCH_KOUT=$o "$here/run.sh" "$nr" "$runs" > "$o.table" 2> "$o.log"; then
		echo "bench: kernel $k failed: $(tail -n 3 "$o.log" | tr '\n' '|')" >&2
		rc=1
		continue
	fi
	mv "$o.table" "$o/table.txt"
done

# the 2-int section of one table -> kernel, release, x tp, x rb, off, load (tab-separated)
summary() {
	awk -v k="$1" '
		/^Kernel: / { rel = $2 }
		/^Host load average/ { sub(/^Host load average: /, ""); load = $0 }
		/^Kernel, 2 ints:/ { sec = 1; next }
		/^Kernel, / { sec = 0 }
		sec && /edprint \(compile-time args\)/ {
			match($0, /<= 0\.15x trace_printk: [0-9.]+x (MET|MISSED) \(per round: median [0-9.]+, [0-9.]+-[0-9.]+\)/)
			tp = substr($0, RSTART + 23, RLENGTH - 23)
			match($0, /<= 0\.50x ring_buffer raw: [0-9.]+x (MET|MISSED) \(per round: median [0-9.]+, [0-9.]+-[0-9.]+\)/)
			rb = substr($0, RSTART + 26, RLENGTH - 26)
		}
		sec && /edprint, static key off/ { sub(/.*within noise of no call /, ""); off = $0 }
		END { printf "%s\t%s\t%s\t%s\t%s\t%s\n", k, rel, tp, rb, off, load }' "$2"
}
echo "edprint, 2 ints (\"bench %d %d\"), $nr records per CPU and scenario, median of $runs runs per kernel"
echo "x Y: edprint's ns/record over Y's (lower is better): the ratio of the medians, then the median and range of the"
echo "per-round ratios; static key off: |its ns - no call's ns| against the no-call rows' spread (ns)"
printf '%-8s %-26s %-52s %-52s %-36s %s\n' kernel release "x trace_printk (<= 0.15)" "x ring_buffer raw (<= 0.50)" "static key off vs no call" "host load (before, after)"
for k in $kernels; do
	t=$top/bench/out/kernel-$k/table.txt
	if [ -f "$t" ]; then
		summary "$k" "$t" | awk -F'\t' '{ printf "%-8s %-26s %-52s %-52s %-36s %s\n", $1, $2, $3, $4, $5, $6 }'
	else
		printf '%-8s %s\n' "$k" "no result (bench/out/kernel-$k.log)"
	fi
done
exit $rc
