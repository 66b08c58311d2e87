#!/bin/bash
# bench/kernel/matrix.sh [NR [RUNS]]: the kernel bench (bench/kernel/run.sh)
# on every kernel of the matrix (tools/kernels/matrix; BENCH_KERNELS="6.1
# newest" for some), one boot after the other, each kernel's whole table
# kept in bench/out/kernel-NAME/table.txt, then one summary table of the
# 2-int case side by side: edprint against trace_printk and against the raw
# ring_buffer reserve+commit, and the 2 ints + %s case against the raw
# ring_buffer and ftrace's bytes, each bound judged on every round (the
# largest of the per-round ratios: the rounds of one boot share the
# interference), and the static key off against no call.
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

# one table -> kernel, release, 2 ints x tp, 2 ints x rb, %s x rb, %s bytes, off, load (tab-separated);
# each ratio as "max M MET|MISSED (median, min-max of the rounds)"
summary() {
	awk -v k="$1" '
		function verdict(line, what,    r, s) {
			if (!match(line, what " in every round: max [0-9.-]+x? (MET|MISSED) \\(ratio of the medians [0-9.]+x; per round: median [0-9.]+, [0-9.]+-[0-9.]+\\)"))
				return "-"
			s = substr(line, RSTART, RLENGTH)
			sub(/.* in every round: /, "", s)
			sub(/ratio of the medians [0-9.]+x; per round: /, "rounds ", s)
			return s
		}
		/^Kernel: / { rel = $2 }
		/^Host load average/ { sub(/^Host load average: /, ""); load = $0 }
		/^Kernel, 2 ints:/ { sec = 2; next }
		/^Kernel, 2 ints \+ 16-byte/ { sec = 3; next }
		/^Kernel, / { sec = 0 }
		sec == 2 && /edprint \(compile-time args\)/ {
			tp = verdict($0, "<= 0\\.12x trace_printk")
			rb = verdict($0, "<= 0\\.40x ring_buffer raw")
		}
		sec == 2 && /edprint, static key off/ { sub(/.*within noise of no call /, ""); off = $0 }
		sec == 3 && /edprint \(compile-time args\)/ {
			rs = verdict($0, "<= 0\\.60x ring_buffer raw")
			by = $0; sub(/.*bytes <= ftrace /, "", by); by = $6 " vs " by
		}
		END { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k, rel, tp, rb, rs, by, off, load }' "$2"
}
echo "edprint, 2 ints (\"bench %d %d\") and 2 ints + 16-byte %s, $nr records per CPU and scenario, $runs rounds per kernel"
echo "x Y: edprint's ns/record over Y's in the same round (lower is better); a bound holds only if it holds in every round:"
echo "the largest round's ratio, its verdict, then the median and range of the rounds; static key off: |its ns - no call's ns|"
echo "against the no-call rows' spread (ns); %s bytes: edprint's bytes/record (comm records included) vs ftrace's (its format)"
echo "host: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; $(lscpu | awk -F: '/^L[123][di]? cache/ { gsub(/^ +/, "", $2); sub(/ cache$/, "", $1); printf "%s%s %s", n++ ? ", " : "", $1, $2 }')"
printf '%-8s %-26s %-50s %-50s %-50s %-18s %-32s %s\n' kernel release "2 ints x trace_printk (<= 0.12)" "2 ints x ring_buffer raw (<= 0.40)" \
	"%s x ring_buffer raw (<= 0.60)" "%s bytes" "static key off vs no call" "host load (before, after)"
for k in $kernels; do
	t=$top/bench/out/kernel-$k/table.txt
	if [ -f "$t" ]; then
		summary "$k" "$t" | awk -F'\t' '{ printf "%-8s %-26s %-50s %-50s %-50s %-18s %-32s %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
	else
		printf '%-8s %s\n' "$k" "no result (bench/out/kernel-$k.log)"
	fi
done
exit $rc
