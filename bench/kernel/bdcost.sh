#!/bin/bash
# bench/kernel/bdcost.sh [N [ROUNDS]]: what `logdev record --breakdown`'s
# context markers cost (issue 28, point 1; docs/PERFORMANCE.md): one boot
# (QEMU TCG, 2 CPUs) of the kernel LOGDEV_KVER names (default the matrix's
# first), a context-switch-heavy workload (tests/vm/vmtool_pingpong.c:
# N round trips over pipes between two processes on CPU 0, each 2 switches
# and 2 wake-ups) timed in ROUNDS interleaved rounds with nothing, under
# logdev record, under record --breakdown, and with the same 9 events
# enabled in ftrace (bench/kernel/guest-bdcost.sh).  Prints ns per round
# trip (TCG: compare ratios only), the per-round ratios, the ns a context
# switch gains, records and bytes per record, and the host's load average.
# BDCOST_TCG: icount (default: tools/vm/run.sh --tcg icount, time is
# instructions, 1 ns each: the same in every boot whatever the host's load,
# where real time under a loaded host's TCG moved 2x between runs; it is
# single-threaded, so the recorder's instructions on CPU 1 count in the
# workload's time too) or multi (real time, multi-threaded TCG).  BDCOST_REPRINT=1: print
# the tables of the last run's results again (BENCH_KOUT), without a boot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
n=${1:-10000}
rounds=${2:-7}
kv=${LOGDEV_KVER:-}
tcg=${BDCOST_TCG:-icount}
out=${BENCH_KOUT:-$top/bench/out/bdcost}
static=$top/userspace/logdev.static
if [ -n "${BDCOST_REPRINT:-}" ]; then
	read -r n rounds tcg load_before load_after < "$out/params.txt"
	load_before=${load_before//_/ } load_after=${load_after//_/ }
else
[ -x "$static" ] || { echo "bench: $static missing (make userspace)" >&2; exit 1; }
"$static" record --help 2>&1 | grep -q -- --breakdown ||
	{ echo "bench: $static has no record --breakdown (make userspace)" >&2; exit 1; }
rm -rf "$out" "$out-bin"
mkdir -p "$out-bin"
# the workload, static as tests/vm/run-tests.sh builds it (the guest is busybox)
${CC:-cc} -static -O2 -Wall -I "$top/include/uapi" -I "$top/include" \
	-o "$out-bin/vmtool" "$top"/tests/vm/vmtool*.c -lpthread ||
	{ echo "bench: building tests/vm/vmtool*.c failed" >&2; exit 1; }
km=$("$top/tools/kernels/modules.sh" --product --quiet "$kv") ||
	{ echo "bench: building logdev.ko for '${kv:-default}' failed" >&2; exit 1; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$top/tools/vm/run.sh" ${kv:+--kver "$kv"} --smp 2 --mem 1024 --timeout 1800 --idle 300 --tcg "$tcg" \
	--script "$here/guest-bdcost.sh" --files "$km/logdev.ko $static $out-bin/vmtool" \
	--args "$n $rounds" --out "$out" >&2
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "$n $rounds $tcg ${load_before// /_} ${load_after// /_}" > "$out/params.txt"
fi
res=$out/results.txt

# stat: values on stdin -> "median (min-max)" with format F
stat() {
	sort -g | awk -v f="$1" '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf f " (" f "-" f ")", m, v[1], v[NR] }'
}
# per LABEL, its ns per round trip
ns() { awk -v l="$1" '$2 == l { print $3 }' "$res" | stat %.0f; }
# per round, EXPR of the four conditions' ns (a none, b record, c bd, d ftrace)
per_round() {
	awk '$2 == "none" { a[$1] = $3 } $2 == "record" { b[$1] = $3 } $2 == "bd" { c[$1] = $3 }
		$2 == "ftrace" { d[$1] = $3 }
		END { for (r in a) if (r in b && r in c && r in d) { A = a[r]; B = b[r]; C = c[r]; D = d[r]
			if ('"${3:-1}"') print '"$1"' } }' "$res" | stat "$2"
}
# per LABEL's counts: records (field F, default 3: comm 7) per round trip,
# bytes per record, bytes per round trip, lost.  A run's records are of its
# N round trips and vmtool's 1000 of warm-up: round trips here are N+1000.
counts() {
	awk -v l="$1" -v n="$((n + 1000))" -v f="${2:-3}" '$2 == l { print $f / n }' "$out/counts.txt" | stat %.2f
}
bpr() {	awk -v l="$1" '$2 == l && $5 > 0 { print $4 / $5 }' "$out/counts.txt" | stat %.1f; }
bprt() {	# logdev: all it wrote; ftrace: its bytes/entry times all its events
	awk -v l="$1" -v n="$((n + 1000))" '$2 == l && $5 > 0 { print (l == "ftrace" ? $4 / $5 * $3 : $4) / n }' \
		"$out/counts.txt" | stat %.0f
}
# per round, the added ns per record: (c-a) per marker (comm records apart),
# (d-a) per ftrace event (LABEL and its records, RECORDS/N a round trip)
per_rec() {
	awk -v l="$1" -v n="$((n + 1000))" 'FILENAME ~ /results/ { t[$2 " " $1] = $3; next }
		$2 == l && $3 > 0 { k[$1] = $3 }
		END { for (r in k) if ((l " " r) in t && ("none " r) in t) print (t[l " " r] - t["none " r]) * n / k[r] }' \
		"$res" "$out/counts.txt" | stat %.0f
}
lost() { awk -v l="$1" '$2 == l { s += $6 } END { print s + 0 }' "$out/counts.txt"; }

echo "Breakdown markers' cost: $(cat "$out/uname.txt") in QEMU TCG ($tcg), $(cat "$out/nproc.txt") CPUs,"
echo "vmtool pingpong $n 0 (a round trip: 2 context switches + 2 wake-ups on CPU 0), $rounds rounds"
[ "$tcg" = icount ] && echo "(ns of the guest clock under icount: 1 instruction each; host: $(lscpu | sed -n 's/^Model name: *//p'))" ||
	echo "(ns of the guest clock under TCG: compare ratios only; host: $(lscpu | sed -n 's/^Model name: *//p'))"
echo "Host load average: before the boot $load_before, after $load_after"
echo "ftrace events: $(tr '\n' ' ' < "$out/events.txt")"
f='  %-32s %-22s %-18s %-18s %s\n'
printf "$f" "condition" "ns/round trip" "records/rtrip" "bytes/record" "bytes/rtrip"
printf "$f" "(a) nothing" "$(ns none)" "-" "-" "-"
printf "$f" "(b) logdev record, no markers" "$(ns record)" "$(counts record)" "-" "-"
printf "$f" "(c) logdev record --breakdown" "$(ns bd)" "$(counts bd)" "$(bpr bd)" "$(bprt bd)"
printf "$f" "    of which comm records" "" "$(counts bd 7)" "" ""
printf "$f" "(d) ftrace, the same events" "$(ns ftrace)" "$(counts ftrace)" "$(bpr ftrace)" "$(bprt ftrace)"
echo "  (records: logdev's markers, its comm records (task names) apart, counted in bytes/record;"
echo "  ftrace's events, all CPUs.  Lost in all rounds: logdev (c) $(lost bd); ftrace (d) $(lost ftrace) overwritten,"
echo "  its ring of logdev's size with no reader)"
echo "Per round, median (min-max):"
printf '  %-52s %s\n' "(c-a)/(d-a) markers' added cost vs ftrace's events" "$(per_round '(C - A) / (D - A)' %.2f 'D != A')"
printf '  %-52s %s\n' "(c-b)/(d-a) the same, less the recorder's own" "$(per_round '(C - B) / (D - A)' %.2f 'D != A')"
printf '  %-52s %s\n' "(b)/(a) the recorder alone" "$(per_round 'B / A' %.3f)"
printf '  %-52s %s\n' "(c)/(a) markers" "$(per_round 'C / A' %.3f)"
printf '  %-52s %s\n' "(d)/(a) ftrace" "$(per_round 'D / A' %.3f)"
echo "Added ns per context switch (half a round trip), median (min-max):"
printf '  %-52s %s\n' "(c-a)/2 logdev record --breakdown" "$(per_round '(C - A) / 2' %.0f)"
printf '  %-52s %s\n' "(c-b)/2 its markers alone" "$(per_round '(C - B) / 2' %.0f)"
printf '  %-52s %s\n' "(d-a)/2 ftrace" "$(per_round '(D - A) / 2' %.0f)"
echo "Added ns per record written (the round trips' records vary: a woken task that preempts its waker"
echo "answers before the waker sleeps, with no wake-up), median (min-max):"
printf '  %-52s %s\n' "(c-a) per marker record (its comm records apart)" "$(per_rec bd)"
printf '  %-52s %s\n' "(d-a) per ftrace event" "$(per_rec ftrace)"
echo "Records by kind, one more run of each (logdev: bd-kinds.txt, ftrace: ftrace-kinds.txt, what its ring kept):"
paste "$out/bd-kinds.txt" "$out/ftrace-kinds.txt" 2> /dev/null | sed 's/^/  /' || true
