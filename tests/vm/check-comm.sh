#!/bin/bash
# Host side of the task names test.   check-comm.sh DIR NAME
# comm.cap (guest-comm.sh) holds "comm tag=T ctx=C" records from task,
# hardirq and NMI context (the last two record the interrupted task's pid):
# tag 0 and 4 by vmtool, 1 by lt_alpha (which exits), 2 by lt_beta (which
# has lt_alpha's pid), 3 by lt_beta renamed lt_renamed.  `logdev report`
# must print COMM-PID with the right name for every one of the 15 records.
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/vm/lib.sh"
P=$name
if [ ! -s "$dir/comm.cap" ] || ! grep -q '^pid vmtool=' "$dir/comm.txt" 2>/dev/null; then
	fail "no comm.cap or pids came back"; exit 1
fi
"$logdev" report "$dir/comm.cap" > "$dir/comm.report" 2> "$dir/comm.err"
ld_rc=$?
if [ $ld_rc != 0 ] && [ $ld_rc != 3 ]; then	# 3: decoded, with warnings on stderr
	fail "logdev report failed: $(head -c 300 "$dir/comm.err")"; exit 1
fi
pids=$(grep '^pid vmtool=' "$dir/comm.txt")
run_checks awk -v name="$name" -v pids="$pids" "$LD_AWK"'
BEGIN {
	split(pids, p, "[ =]")	# pid vmtool V lt_alpha A
	want[0] = "vmtool-" p[3]; want[4] = want[0]
	want[1] = "lt_alpha-" p[5]; want[2] = "lt_beta-" p[5]; want[3] = "lt_renamed-" p[5]
	cname[0] = "task"; cname[2] = "hardirq"; cname[3] = "nmi"
}
/ comm tag=[0-9]+ ctx=[0-9]+/ {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^cpu:/) who = $(i + 1)
		else if ($i ~ /^tag=/) tag = substr($i, 5)
		else if ($i ~ /^ctx=/) ctx = substr($i, 5)
	check(who == want[tag], "tag " tag " " cname[ctx] ": " want[tag], "printed " who ": " $0)
	seen[tag, ctx]++
}
END {
	for (t = 0; t <= 4; t++)
		for (c = 0; c <= 3; c++)
			if (c != 1 && seen[t, c] != 1) {
				print "FAIL: " name ": tag " t " ctx " c ": " seen[t, c] + 0 " records, want 1"
				failed++
			}
	exit failed ? 1 : 0
}' "$dir/comm.report"
finish
