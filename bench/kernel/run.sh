#!/bin/bash
# bench/kernel/run.sh [NR [RUNS]]: build logdev.ko and logdev_bench.ko for the
# kernel LOGDEV_KVER names (make bench KVER=...: tools/kernels/matrix; default
# its first), boot it once (QEMU TCG, 2 CPUs), run every scenario RUNS times
# and print the table: ns/record of the guest clock (TCG: only the ratios
# mean anything), ratio to trace_printk, bytes/record.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
nr=${1:-20000}
runs=${2:-5}
out=${BENCH_KOUT:-$top/bench/out/kernel}
if [ -n "${BENCH_KTABLE_ONLY:-}" ]; then
	# the table again from the results of an earlier run in $out (no build, no boot)
	[ -f "$out/results.txt" ] || { echo "bench: no $out/results.txt" >&2; exit 1; }
	load_before=$(cat "$out/load-before.txt" 2>/dev/null || echo "?")
else
rm -rf "$out"
# logdev.ko and logdev_bench.ko for that kernel (build/kmod/RELEASE/)
km=$("$top/tools/kernels/modules.sh" --product --with "$here" --quiet "${LOGDEV_KVER:-}") ||
	{ echo "bench: building logdev.ko or logdev_bench.ko failed" >&2; exit 1; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$top/tools/vm/run.sh" --smp 2 --mem 1024 --timeout 900 --script "$here/guest-bench.sh" \
	--files "$km/logdev.ko $km/../bench-kernel/logdev_bench.ko" --args "$nr $runs" --out "$out" >&2
echo "$load_before" > "$out/load-before.txt"
cut -d' ' -f1-3 /proc/loadavg > "$out/load-after.txt"
fi
# bytes/record: ours from stats (bytes / written); ftrace from the event
# format (size of the fields + the buffer's 4-byte event header) and from
# the per-CPU stats (bytes / entries).
ours_bytes() {	# stats file -> bytes per edprint call (comm records' bytes included, not counted as calls)
	awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "written") w += kv[2]; if (kv[1] == "comm") w -= kv[2]; if (kv[1] == "bytes") b += kv[2] } }
	     END { if (w) printf "%.1f", b / w; else printf "-" }' "$1"
}
ft_bytes() {	# per-cpu stats concatenated
	awk '$1 == "entries:" { e += $2 } $1 == "bytes:" { b += $2 } END { if (e) printf "%.1f", b / e; else printf "-" }' "$1"
}
fmt_size() {	# format file, payload bytes -> fixed fields + payload + 4
	awk -v pl="$2" '/field:/ { for (i = 1; i <= NF; i++) if ($i ~ /^size:/) { split($i, a, ":"); sub(";", "", a[2]); s += a[2] } }
	     END { printf "%d", s + pl + 4 }' "$1"
}
# vbin_printf payload bytes, as trace_printk stores them: 0, 8, 8 + 20
declare -A pl=( [0]=0 [2]=8 [2s]=28 )
med() {	# LABEL -> median ns
	awk -v l="$1" '$2 == l { print $4 }' "$out/results.txt" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
rratio() {	# A B -> "median min-max" of the per-round ratios A/B (rounds share the interference)
	awk -v a="$1" -v b="$2" '$2 == a { x[$1] = $4 } $2 == b { y[$1] = $4 }
		END { for (r in x) if (y[r] > 0) printf "%.4f\n", x[r] / y[r] }' "$out/results.txt" | sort -n |
	awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "per round: median %.3f, %.3f-%.3f", m, v[1], v[NR] }'
}
rmax() {	# A B -> the largest per-round ratio A/B ("-" if none)
	awk -v a="$1" -v b="$2" '$2 == a { x[$1] = $4 } $2 == b { y[$1] = $4 }
		END { m = -1; for (r in x) if (y[r] > 0 && x[r] / y[r] > m) m = x[r] / y[r]
		      if (m < 0) print "-"; else printf "%.4f", m }' "$out/results.txt"
}
bound() {	# A B BOUND NAME -> "<= BOUNDx NAME in every round: max M MET|MISSED (ratio of the medians R; per round: ...)"
	awk -v m="$(rmax "$1" "$2")" -v a="$(med "$1")" -v b="$(med "$2")" -v t="$3" -v n="$4" -v rr="$(rratio "$1" "$2")" 'BEGIN {
		if (m == "-") { mx = "-"; v = "MISSED" } else { mx = sprintf("%.3fx", m); v = m + 0 <= t + 0 ? "MET" : "MISSED" }
		q = b > 0 ? a / b : 0
		printf "<= %.2fx %s in every round: max %s %s (ratio of the medians %.3fx; %s)", t, n, mx, v, q, rr }'
}
range() {	# LABEL -> max - min
	awk -v l="$1" '$2 == l { if (n++ == 0 || $4 < lo) lo = $4; if ($4 > hi) hi = $4 } END { print hi - lo }' "$out/results.txt"
}
echo "Kernel: $(cat "$out/uname.txt" 2>/dev/null || echo "${LOGDEV_KVER:-default}") in QEMU TCG, $(cat "$out/nproc.txt") CPUs, one kthread per CPU, $nr records per CPU and scenario,"
echo "  all recording scenarios interleaved in blocks of 64 records (no call / static key off: blocks of 4096), median of $runs runs"
# the host: what TCG's emulation speed depends on (its CPU, caches, load)
host_cpu=$(lscpu | sed -n 's/^Model name: *//p')
host_caches=$(lscpu | awk -F: '/^L[123][di]? cache/ { gsub(/^ +/, "", $2); sub(/ cache$/, "", $1)
	sub(/ \(1 instance\)/, "", $2); $2 = inst($2); printf "%s%s %s", n++ ? ", " : "", $1, $2 }
	function inst(v) { if (match(v, / \([0-9]+ instances\)/)) v = substr(v, 1, RSTART - 1) " x" substr(v, RSTART + 2, RLENGTH - 13); return v }')
host_load="before the boot $load_before, after $(cat "$out/load-after.txt" 2>/dev/null || cut -d' ' -f1-3 /proc/loadavg)"
echo "(ns of the guest clock under TCG: compare ratios only; host: $host_cpu, $(nproc) CPUs)"
# TCG timings follow the host's load, and load slows baselines more than logdev:
# a ratio counts only from a run on an idle host (docs/PERFORMANCE.md)
echo "Host load average: $host_load"
echo "Host caches: $host_caches"
nc=$(med nocall); ncr=$(range nocall)
for p in 0 2 2s; do
	case $p in 0) d='0 args: "bench"' ;; 2) d='2 ints: "bench %d %d"' ;; 2s) d='2 ints + 16-byte %s: "bench %d %d %s"' ;; esac
	tp=$(med tp$p)
	if [ "$p" = 0 ]; then ff=$out/bputs.format; else ff=$out/bprint.format; fi
	ftfmt=$(fmt_size "$ff" "${pl[$p]}")
	ftmeas=$(ft_bytes "$out/ftstats-tp$p.txt")
	ours=$(ours_bytes "$out/stats-edprint$p.txt")
	ct=$(med edvb$p); oct=$(ours_bytes "$out/stats-edvb$p.txt")
	ed=$(med edprint$p); off=$(med off$p); offr=$(range off$p); rbm=$(med rb$p)
	echo
	echo "Kernel, $d"
	echo "  (host: $host_cpu; $host_caches; load average $host_load)"
	printf '  %-34s %12s %14s %14s  %s\n' method "ns/rec (TCG)" "x trace_printk" "bytes/record" target
	row() { printf '  %-34s %12s %14s %14s  %s\n' "$1" "$2" "$(awk -v a="$2" -v b="$tp" 'BEGIN { printf "%.3f", a / b }')" "$3" "$4"; }
	row "no call" "$nc" "-" ""
	noise=$(awk -v a="$off" -v b="$nc" -v r1="$ncr" -v r2="$offr" 'BEGIN { d = a - b; if (d < 0) d = -d; m = r1 > r2 ? r1 : r2; if (m < 1) m = 1;
		printf "within noise of no call (|%.0f| <= %.0f ns spread): %s", a - b, m, d <= m ? "MET" : "MISSED" }')
	row "edprint, static key off" "$off" "-" "$noise"
	# issue 29 items 3 and 4, judged on the worst round (each round's ratio of
	# the interleaved scenarios; every round must meet the bound): 2 ints
	# <= 0.12x trace_printk and <= 0.40x the raw ring_buffer reserve+commit;
	# 2 ints + %s <= 0.60x the raw ring_buffer; bytes <= ftrace's (from its
	# event format). 0 args and %s keep issue 5's <= 0.5x trace_printk.
	bts=$(awk -v o="$ours" -v f="$ftfmt" 'BEGIN { printf "bytes <= ftrace (%s): %s", f, o + 0 <= f + 0 ? "MET" : "MISSED" }')
	case $p in
	2) t1="$(bound "edprint$p" "tp$p" 0.12 trace_printk); $(bound "edprint$p" "rb$p" 0.40 "ring_buffer raw"); $bts" ;;
	2s) t1="$(bound "edprint$p" "rb$p" 0.60 "ring_buffer raw"); $(awk -v a="$ed" -v b="$tp" 'BEGIN { printf "<= 0.5x trace_printk: %.3fx %s", a / b, a / b <= 0.5 ? "MET" : "MISSED" }'); $bts" ;;
	*) t1=$(awk -v a="$ed" -v b="$tp" -v r="$rbm" -v bt="$bts" 'BEGIN {
		printf "<= 0.5x trace_printk: %.3fx %s; %.3fx ring_buffer raw; %s", a / b, a / b <= 0.5 ? "MET" : "MISSED", a / r, bt }') ;;
	esac
	row "edprint (compile-time args)" "$ed" "$ours" "$t1"
	if [ "$p" = 2 ]; then
		edc=$(med edprint2c)
		tc=$(awk -v a="$edc" -v e="$ed" 'BEGIN { printf "a comm record before each: +%.0f %%", 100 * (a / e - 1) }')
		row "edprint, task name changes each rec" "$edc" "$(ours_bytes "$out/stats-edprint2c.txt")" "$tc"
	fi
	t2=$(awk -v a="$ct" -v e="$ed" 'BEGIN { printf "compile-time encoding saves %.0f %%", 100 * (1 - e / a) }')
	row "edprint via vbin_printf (before)" "$ct" "$oct" "$t2"
	row "trace_printk" "$tp" "$ftfmt fmt, $ftmeas meas" ""
	row "ring_buffer reserve+commit raw" "$rbm" "-" ""
done
