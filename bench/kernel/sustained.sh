#!/bin/bash
# bench/kernel/sustained.sh [MS [KB]]: sustained recording in one VM boot
# (QEMU TCG, 2 CPUs): the highest rate per CPU that `logdev record` (discard
# mode) keeps with zero drops, against `trace-cmd record` of trace_printk at
# the same rates; paced writers of logdev_bench.ko (`pace`), MS ms per rung,
# KB KiB per CPU for both (4096-byte sub-buffers / ftrace pages).
# The guest side (guest-sustained.sh) says what a clean rung is.
# Knobs: SUSTAINED_LADDER (records/s per CPU, ascending, comma-separated), SUSTAINED_STEPS
# (bisection steps after the first unclean rung).  Prints the tables and the
# host's load average before and after; per-rung lines stay in
# bench/out/sustained/sustained.txt.
# sustained.sh --tables DIR: the tables again from a run's results in DIR
# (its load averages are in DIR/load.txt).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [ "${1:-}" = --tables ]; then
	out=${2:?usage: sustained.sh --tables DIR}
	read -r ms kb load_before load_after secs < "$out/load.txt"
	load_before=${load_before//_/ } load_after=${load_after//_/ }
else
ms=${1:-3000}
kb=${2:-1024}
ladder=${SUSTAINED_LADDER:-4000,8000,16000,32000,64000,128000,256000,512000}
steps=${SUSTAINED_STEPS:-3}
out=${BENCH_SOUT:-$top/bench/out/sustained}
tc=$(command -v trace-cmd) || { echo "bench: trace-cmd not installed (tools/deps.sh --bench)" >&2; exit 1; }
static=$top/userspace/logdev.static
[ -x "$static" ] || { echo "bench: $static missing (make userspace)" >&2; exit 1; }
rm -rf "$out"
# logdev.ko and logdev_bench.ko for the kernel (LOGDEV_KVER; build/kmod/RELEASE/)
km=$("$top/tools/kernels/modules.sh" --product --with "$here" --quiet "${LOGDEV_KVER:-}") ||
	{ echo "bench: building logdev.ko or logdev_bench.ko failed" >&2; exit 1; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
"$top/tools/vm/run.sh" --smp 2 --mem 2048 --timeout 3600 --idle 300 --append no_timer_check \
	--script "$here/guest-sustained.sh" --host-bins "$tc" \
	--files "$km/logdev.ko $km/../bench-kernel/logdev_bench.ko $static" \
	--args "$ms $kb $ladder $steps" --out "$out" >&2
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
secs=$(( $(date +%s) - t0 ))
echo "$ms $kb ${load_before// /_} ${load_after// /_} $secs" > "$out/load.txt"
fi
s=$out/sustained.txt

echo "Sustained recording: $(cat "$out/uname.txt") in QEMU TCG, $(cat "$out/nproc.txt") CPUs, one paced writer kthread per CPU,"
echo "  $ms ms per rung, $kb KiB per CPU and 4096-byte sub-buffers/pages for both, the recorder writing to the guest's RAM (initramfs)"
echo "  logdev: edprint(\"bench %d %d\"), logdev record, discard mode"
echo "  trace-cmd: trace_printk(\"bench %d %d\"), $(head -n 1 "$out/trace-cmd-version.txt" | tr -s ' ') record -p nop (splice), overwrite mode"
echo "Host load average: before the boot $load_before, after $load_after ($secs s)"
echo
echo "Per rate (records/s per CPU; lost = records lost, each also missing from the file; '-' not run; * writers short of the rate):"
awk '{ k = $2; rates[k] = 1; tool = ($1 == "logdev") ? "l" : "t"
	# the last run of a rate wins (the confirmation repeats the best)
	v[tool, k] = $6 ($10 == "yes" ? "" : ($4 < 0.9 * $2 ? "*" : "")) (($3 - $5 != $6) ? " (" $3 - $5 " not in the file)" : "") }
     END { n = 0; for (k in rates) r[++n] = k + 0
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { x = r[i]; r[i] = r[j]; r[j] = x }
	printf "  %10s  %-22s  %-22s\n", "R/CPU", "logdev lost", "trace-cmd lost"
	for (i = 1; i <= n; i++) {
		a = ((("l", r[i]) in v) ? v["l", r[i]] : "-"); b = ((("t", r[i]) in v) ? v["t", r[i]] : "-")
		printf "  %10d  %-22s  %-22s\n", r[i], a, b } }' "$s"
echo
echo "Every rung (rec usr/sys: the recorder's CPU seconds while the writers ran; ms/1k: its CPU ms per 1,000 records; busy: the guest's CPUs meanwhile):"
printf '  %-9s %8s %8s %10s %8s %9s %8s %7s %8s %7s %7s %5s %5s\n' tool R/CPU phase written skipped reached/s "in file" lost "rec usr" "rec sys" "ms/1k" busy clean
awk '{ printf "  %-9s %8d %8s %10d %8d %9d %8d %7d %8.2f %7.2f %7.3f %4d%% %5s\n",
	$1, $2, $12, $3, $13, $4, $5, $6, $8, $9, $3 ? 1e6 * ($8 + $9) / $3 : 0, $10, $11 }' "$s"
echo
lb=$(awk '$1 == "logdev" { print $3 }' "$out/best.txt")
tb=$(awk '$1 == "trace-cmd" { print $3 }' "$out/best.txt")
# first unclean rate; 0 from the guest: every rung of the ladder was clean
lf=$(awk '$1 == "logdev" { print $5 == 0 ? "none in the ladder" : $5 }' "$out/best.txt")
tf=$(awk '$1 == "trace-cmd" { print $5 == 0 ? "none in the ladder" : $5 }' "$out/best.txt")
conf() {	# TOOL RATE -> "confirmed" / "NOT confirmed" (the confirm run)
	awk -v t="$1" -v r="$2" '$1 == t && $2 == r && $12 == "confirm" { c = $11 } END { print c == "yes" ? "confirmed" : "NOT confirmed on a second run" }' "$s"
}
echo "Highest zero-drop rate per CPU: logdev $lb records/s ($(conf logdev "$lb"); first unclean $lf),"
echo "  trace-cmd $tb records/s ($(conf trace-cmd "$tb"); first unclean $tf)"
awk -v a="$lb" -v b="$tb" 'BEGIN { if (b > 0) printf "Ratio logdev / trace-cmd: %.2fx\n", a / b; else print "Ratio: trace-cmd had no clean rung" }'

echo
echo "Where a reader's time goes, full buffers of 16384 KiB per CPU, recording off (CPU time of the reading process,"
echo "  us of the guest clock per 4 KiB sub-buffer/page; the smaller of 2 runs; '-read-devnull': dd bs=64k to /dev/null,"
echo "  '-read-tmpfs': dd to a file in the initramfs, 'logdev-record': logdev record --no-enable --duration 0, both CPUs):"
awk '$2 == 0 { idle[++ni] = sprintf("  %-26s user %.2f s, sys %.2f s", $1, $3, $4); next }
     { k = $1; us = $2 ? 1e6 * ($3 + $4) / ($2 / 4096) : 0
	if (!(k in best) || us < best[k]) { best[k] = us; b[k] = $2; u[k] = $3; sy[k] = $4 } if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
     END { printf "  %-22s %10s %7s %7s %10s\n", "what", "bytes", "user s", "sys s", "us/subbuf"
	for (i = 1; i <= n; i++) { k = order[i]; printf "  %-22s %10d %7.2f %7.2f %10.1f\n", k, b[k], u[k], sy[k], best[k] }
	print "The recorders waiting, recording on, nothing written (CPU time over 3 s):"
	for (i = 1; i <= ni; i++) print idle[i] }' "$out/profile.txt"
