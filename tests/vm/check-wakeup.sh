#!/bin/bash
# Host side of vm-wakeup (guest-wakeup.sh).   check-wakeup.sh DIR NAME
# In wake.cap: the pair fillpair .. fillpair%return (CPU W, its N fillpair
# records inside) holds no wake-up (p:wk, __wake_up: logdev's reader is
# woken through wake_up_interruptible_all()) on CPU W, whose only work in
# the pair is the records; the reader was woken from an interrupt or a
# timer (not by a task) at least once from the pair on.  INFO: the pair's
# duration, the wake-ups from interrupts or timers during it, and the delay
# from the pair's return to the next one.
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/vm/lib.sh"
P=$name
read -r n < "$dir/params.txt" 2> /dev/null || { fail "no params.txt came back"; exit 1; }
[ -s "$dir/wake.cap" ] || { fail "no wake.cap came back"; exit 1; }
"$logdev" report --raw "$dir/wake.cap" > "$dir/wake.raw" 2> "$dir/wake.rerr"
rc=$?
if [ $rc != 0 ] && [ $rc != 3 ]; then
	fail "logdev report --raw failed: $(head -c 300 "$dir/wake.rerr")"; exit 1
fi
gaps=$dir/wake.gaps
: > "$gaps"
run_checks awk -v name="$name" -v n="$n" -v gaps="$gaps" "$LD_AWK"'
$1 == "LOST" { lost += $3; next }
{
	split($0, f, "\t"); ts = f[1]; cpu = f[2]; ctx = f[4]; fn = f[6]; msg = raw_msg($0)
	if (fn == "fillpair" && !t0) { t0 = ts; wcpu = cpu; next }
	if (fn == "fillpair%return" && t0 && !t1) { t1 = ts; next }
	if (cpu == wcpu && t0 && !t1 && fn == "<comm>") { cross = 1; ncomp++; comp[ncomp] = ts; next }
	if (fn == "lt_fill_pair" && t0 && !t1 && cpu == wcpu) {
		inside++
		if (prev) print (haswake ? "wake " : cross ? "boundary " : "plain ") ts - prev > gaps
		prev = ts; cross = 0; haswake = 0; next
	}
	if (fn != "wk" || !t0) next
	if (ctx != "task") {
		polls++
		if (icomp < ncomp) print "latency " ts - comp[icomp + 1] > gaps
		icomp = ncomp
	}
	if (!t1) {
		if (cpu == wcpu) { bad++; haswake = 1; if (length(ex) < 200) ex = ex " " ctx ":" substr(msg, 1, 40) }
		else if (ctx != "task") during++
	} else if (ctx != "task" && !after) after = ts - t1
}
END {
	check(t0 && t1, "the pair fillpair .. fillpair%return was recorded", "entry " t0 + 0 " return " t1 + 0)
	check(inside == n, "its N = " n " records inside it", inside + 0)
	check(bad == 0, "no wake-up (__wake_up) on the pair'"'"'s CPU inside the pair", bad " (" ex ")")
	check(polls > 0, "the reader was woken from an interrupt or timer (not a task) from the pair on",
	      "no such wake-up")
	printf "INFO: %s: pair %.3f ms for %d records; wake-ups from interrupts or timers: %d on other CPUs during it, %d on its CPU inside it; the next %.3f ms after its return\n", name, (t1 - t0) / 1e6, inside, during, bad, after / 1e6
	exit failed > 0
}' "$dir/wake.raw"
# Medians of the gaps between the pair's records (ns): plain, and across a
# sub-buffer's completion (the comm record of the next one between; before
# issue 26, item 4 also the irq_work that woke the reader), and the wake-up
# latencies (from the first sub-buffer completed since the last wake-up).
med() { awk -v k="$1" '$1 == k { print $2 }' "$gaps" | sort -n |
	awk '{ v[NR] = $1 } END { if (NR) printf "%d (n=%d, max %d)", v[int((NR + 1) / 2)], NR, v[NR]; else printf "-" }'; }
echo "INFO: $name: gap between the pair's records, median ns: plain $(med plain), across a completion $(med boundary), holding a wake-up $(med wake); wake-up latency ns: $(med latency)"
finish
