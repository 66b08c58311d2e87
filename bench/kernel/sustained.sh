#!/bin/bash
# bench/kernel/sustained.sh [MS [KB]]: sustained recording in one VM boot
# (QEMU TCG, 2 CPUs): the highest rate per CPU that `logdev record` keeps
# with zero loss against `trace-cmd record` of trace_printk, in each buffer
# mode both have (overwrite, discard), paced writers of logdev_bench.ko
# (`pace`), MS ms per run, KB KiB per CPU for both (4096-byte sub-buffers /
# ftrace pages), the recorders writing to the guest's initramfs.
# The guest side (guest-sustained.sh) says what a clean run and a held rate
# (two clean runs) are; it also measures the writers' ceiling (no recorder)
# and reads the loss counts back from overflowed buffers (losscheck).  Knobs (environment):
#   SUSTAINED_START   first rate, records/s per CPU (32000); it doubles until
#                     a rate is not held, no top but pace's 10,000,000
#   SUSTAINED_STEPS   bisection steps after that (2)
#   SUSTAINED_MODES   buffer modes, comma-separated (discard,overwrite)
#   SUSTAINED_PROFILE_KB  KiB per CPU of the full-buffer drain profile (32768;
#                     CPU time comes in 10 ms steps: 32 MiB takes 100-200 ms)
#   BENCH_SOUT        the results dir (bench/out/sustained)
# A boot's length grows with the rates reached: about (2 runs per rate) x
# (MS + the time to count the records in the file) per rate, per tool and
# mode.  MS=1000 SUSTAINED_START=64000 SUSTAINED_STEPS=1: 17 min on 6.12 on
# a loaded host (a run at 512,000/s: about 40 s, most of it counting);
# the defaults (2000 ms, from 32000, 2 steps) about 25 min there.
# Prints the tables, the host's load and the verdicts for issue 31's targets;
# per-run lines stay in the results dir.
# sustained.sh --tables DIR: the tables again from a run's results in DIR
# (the host side of that run in DIR/load.txt), e.g. a hand-made one.
#
# LOADED: a boot is loaded when the host's 1-minute load average before it
# was >= 1.0 (half of this 2-core machine busy before the guest started) or
# other processes used >= 0.25 of a core on average during the boot (the
# host's busy CPU time from /proc/stat less this boot's own: QEMU and the
# runner, as waited-for children).  A loaded boot prints its ratios with
# LOADED in place of MET or MISSED.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

# host_busy: the host's busy jiffies so far, all CPUs
host_busy() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6 }' /proc/stat
}
# child_secs FILE: CPU seconds of this shell's waited-for children so far,
# from `times` run by the caller's shell into FILE (in $(...) `times` would
# report the subshell's children: none, so QEMU's CPU counted as others')
child_secs() {
	awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += 60 * a[1] + a[2] } print s }' "$1"
}

if [ "${1:-}" = --tables ]; then
	out=${2:?usage: sustained.sh --tables DIR}
else
	ms=${1:-2000}
	kb=${2:-1024}
	start=${SUSTAINED_START:-32000}
	steps=${SUSTAINED_STEPS:-2}
	modes=${SUSTAINED_MODES:-discard,overwrite}
	pkb=${SUSTAINED_PROFILE_KB:-32768}
	out=${BENCH_SOUT:-$top/bench/out/sustained}
	tc=$(command -v trace-cmd) || { echo "bench: trace-cmd not installed (tools/deps.sh --bench)" >&2; exit 1; }
	static=$top/userspace/logdev.static
	[ -x "$static" ] || { echo "bench: $static missing (make userspace)" >&2; exit 1; }
	rm -rf "$out"
	# logdev.ko and logdev_bench.ko for the kernel (LOGDEV_KVER; build/kmod/RELEASE/)
	km=$("$top/tools/kernels/modules.sh" --product --with "$here" --quiet "${LOGDEV_KVER:-}") ||
		{ echo "bench: building logdev.ko or logdev_bench.ko failed" >&2; exit 1; }
	load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	tf=$(mktemp /tmp/logdev-times.XXXXXX)
	times > "$tf"
	t0=$(date +%s) b0=$(host_busy) c0=$(child_secs "$tf")
	"$top/tools/vm/run.sh" --smp 2 --mem 2048 --timeout 3600 --idle 300 --append no_timer_check \
		--script "$here/guest-sustained.sh" --host-bins "$tc" \
		--files "$km/logdev.ko $km/../bench-kernel/logdev_bench.ko $static" \
		--args "$ms $kb $start $steps $modes $pkb" --out "$out" >&2
	load_after=$(cut -d' ' -f1-3 /proc/loadavg)
	secs=$(( $(date +%s) - t0 ))
	# other processes' CPU during the boot, in cores
	times > "$tf"
	c1=$(child_secs "$tf")
	rm -f "$tf"
	other=$(awk -v b="$(( $(host_busy) - b0 ))" -v hz="$(getconf CLK_TCK)" -v c0="$c0" -v c1="$c1" -v s="$secs" \
		'BEGIN { o = (b / hz - (c1 - c0)) / (s ? s : 1); printf "%.2f", o < 0 ? 0 : o }')
	echo "$ms $kb $start $steps $modes $pkb $load_before $load_after $secs $other $(nproc)" > "$out/load.txt"
fi

# the results the guest left (a boot that failed part-way leaves fewer)
files=()
for f in load uname nproc trace-cmd-version ceiling losscheck sustained profile; do
	[ -f "$out/$f.txt" ] && files+=("$out/$f.txt")
done
[ -f "$out/load.txt" ] || { echo "bench: $out/load.txt missing" >&2; exit 1; }
exec awk -f "$here/sustained-tables.awk" "${files[@]}"
