#!/bin/bash
# Host side of guest-dump-ctx.sh: in a sysrq dump of records written in all
# four contexts on every CPU, each "+D us" is the time since the previous
# record of the same CPU and context level (as `logdev report`'s default
# --by context), not of the CPU: for every dumped line whose stream's
# previous record is dumped too, D equals the step between the two printed
# timestamps (within their 1 us rounding); and the test is able to fail:
# some line's previous dumped line on its CPU is of another context.
#   check-dump-ctx.sh DIR
set -uo pipefail
dir=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/vm/lib.sh"
P=vm-dump-ctx
con=$dir/console.log
[ -s "$con" ] || { fail "no console log $con"; exit 1; }
tr -d '\r' < "$con" > "$dir/console.txt"
run_checks awk -v name=vm-dump-ctx "$LD_AWK"'
/logdev: dump begin \(sysrq\)/ { inside = 1; next }
/logdev: dump end \(sysrq\)/ { inside = 0; ended = 1; next }
inside && /logdev: \[ *[0-9]+\.[0-9]+\] cpu:[0-9]+ / {
	s = substr($0, index($0, "logdev: [") + 9)
	ts = s + 0					# seconds, 6 decimals
	cpu = s; sub(/.*\] cpu:/, "", cpu); cpu = cpu + 0
	t = s; sub(/^[^]]*\] /, "", t); split(t, w, " ")	# cpu:N WHO [CTX] func:line ...
	ctx = w[3] == "softirq" || w[3] == "hardirq" || w[3] == "nmi" ? w[3] : "task"
	if (s ~ /\*\*\* LOST/) { delete prev; next }
	lines++
	k = cpu SUBSEP ctx
	if (match(s, /  [+]([0-9]+)\.([0-9]+) us/)) {
		d = substr(s, RSTART + 3, RLENGTH - 6) + 0	# us
		if (k in prev) {
			checked++
			step = (ts - prev[k]) * 1e6
			if (step - d > 1.01 || d - step > 1.01) {
				bad++
				if (bad <= 3) badmsg = badmsg " | " s " (step " step " us)"
			}
		}
	}
	if ((cpu in lastctx) && lastctx[cpu] != ctx) mixed++
	lastctx[cpu] = ctx
	prev[k] = ts
	ctxs[ctx]++
}
END {
	check(ended, "sysrq dump printed (begin and end lines)", "no dump end line")
	check(lines >= 100, "dump has records (" lines + 0 ")", lines + 0 " lines")
	check(("softirq" in ctxs) && ("hardirq" in ctxs), "records of softirq and hardirq context in the dump", "contexts missing")
	check(mixed > 0, "lines whose CPU neighbour is of another context: " mixed + 0 " (the test can fail)", "none")
	check(checked > 50 && !bad, "each +D us is the step since the previous record of its CPU and context (" checked + 0 " checked)", bad + 0 " wrong:" badmsg)
}' "$dir/console.txt"
