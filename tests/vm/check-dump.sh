#!/bin/bash
# Host side of the crash dump test (guest-dump.sh, logdev_dump.c).
#   check-dump.sh DIR NAME MODE N M RECORDS   (MODE: oops bug mid live panic sysrq)
# DIR/console.log is the serial console of a boot of guest-dump.sh MODE N M:
# CPU 0 recorded "seq 0".."seq N-1", CPU 1 "other 0".."other M-1" and one
# "vbin M ..." (M + 1 records), and the dump prints the last RECORDS of each.
# Checks: the guest's own PASS/FAIL lines (they came over the console); one
# dump, begin and end lines with MODE; per CPU the header's counts; the
# records are exactly the last RECORDS of each CPU's sequence, in order,
# with their text (slots: %d %s %c %lld %hhd %hd; vbin: %hhd %hd %pS); all of them in time
# order (merged across CPUs); each delta equals the step between the
# printed timestamps (within their 1 us rounding) and CPU 0's deltas add up
# to its span; the death the mode asks for (oops then panic, panic), and
# for sysrq: the kernel went on, and its later oops without dump_on_oops
# printed no dump; for mid (CPU 0 died inside a record): CPU 0's open
# sub-buffer is left out with a note, and what is shown are the last
# RECORDS of its closed sub-buffers; for live: the kernel lived on after
# the oops, and its later panic (dump_on_oops off) printed no dump.
set -uo pipefail
dir=$1 name=$2 mode=$3 n=$4 m=$5 rec=$6
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/vm/lib.sh"
P=$name
console_of "$dir" || exit 1
check "guest checks came over the console" "no PASS line from guest-dump.sh" \
	grep -q '^PASS: ' "$dir/guest-lines.txt"

run_checks awk -v name="$name" -v mode="$mode" -v n="$n" -v m="$m" -v rec="$rec" "$LD_AWK"'
function us(s,   t) { t = s; gsub(/[][ ]/, "", t); return t + 0 }
function other(k) {
	return "other " k " " (k % 2 ? "odd" : "even") " " substr("abcdefghijklmnopqrstuvwxyz", k % 26 + 1, 1) \
		" " (k ? "-" k "000000000000" : "0") " " (k % 100 - 50) " " (k - 1000)
}
BEGIN {
	want0 = n < rec ? n : rec; want1 = m + 1 < rec ? m + 1 : rec
	why = mode == "bug" || mode == "mid" || mode == "live" ? "oops" : mode	# what the dump says
}
/logdev-dump-test: sysrq done/ { sysrq_done = NR }
/logdev-dump-test: alive after the oops/ { alive = NR }
/Oops|BUG: kernel NULL pointer|kernel BUG at|general protection fault/ && !oops { oops = NR }
/Kernel panic/ && !kpanic { kpanic = NR }
/logdev: dump \(panic\): printed above/ { above = NR }
/logdev: dump begin \(/ {
	begins++
	if (index($0, "logdev: dump begin (" why "):")) { begin = NR; inside = 1 }
	if (index($0, "last " rec " records per cpu")) hdr_n = 1
	next
}
/logdev: dump end \(/ {
	if (index($0, "logdev: dump end (" why "):")) end = NR
	inside = 0
	endline = $0
	next
}
inside && /logdev: dump cpu:[0-9]+ records=/ {
	s = substr($0, index($0, "dump cpu:") + 9)
	split(s, f, "[ =]")	# cpu records N shown N
	hrec[f[1]] = f[3]; hshown[f[1]] = f[5]; hover[f[1]] = f[9]	# ... written N overrun N
	if (index(s, "(skipped: sub-buffers with an uncommitted writer)")) busy[f[1]] = 1
	next
}
inside && /logdev: \[/ {
	s = substr($0, index($0, "logdev: [") + 8)
	ts = us(substr(s, 1, index(s, "]")))
	s = substr(s, index(s, "]") + 2)
	split(s, f, " ")
	cpu = substr(f[1], 5) + 0
	who = f[2]; where = f[3]
	msg = substr(s, length(f[1]) + length(f[2]) + length(f[3]) + 4)
	d = ""
	if (match(msg, /  [+-][0-9]+\.[0-9]+ us.*$/)) {
		d = substr(msg, RSTART + 2, RLENGTH - 2); msg = substr(msg, 1, RSTART - 1)
		sub(/ us.*/, "", d)
	}
	nrec++
	if (ts < lastts) backwards++
	if (nrec > 1 && cpu != lastcpu) switches++
	lastts = ts; lastcpu = cpu
	i = ++cnt[cpu]
	if (cpu == 0 && mode == "mid") {
		# the open sub-buffer is left out: consecutive seqs ending before n - 1
		k0 = i == 1 ? substr(msg, 5) + 0 : k0 + 1
		if (msg != "seq " k0 && !bad0++) bad0msg = "record " i ": got \"" msg "\", want \"seq " k0 "\""
	} else if (cpu == 0) {
		k = n - want0 + i - 1
		if (msg != "seq " k && !bad0++) bad0msg = "record " i ": got \"" msg "\", want \"seq " k "\""
	} else if (cpu == 1) {
		k = m + 1 - want1 + i - 1
		w = k < m ? other(k) : "vbin " m " -7 -300 lt_dump_fn+0x0/"
		if ((k < m ? msg != w : index(msg, w) != 1 || msg !~ /\[logdev_test\]$/) && !bad1++)
			bad1msg = "record " i ": got \"" msg "\", want \"" w (k < m ? "" : "...") "\""
	} else {
		strays++
	}
	if (who !~ /^kworker\/[01]:[0-9]+H?-[0-9]+$/ && !badwho++) badwhomsg = who
	if (where !~ /^lt_dump_fn:[0-9]+$/ && !badwhere++) badwheremsg = where
	# the first one printed has a delta if a record came before it
	if (d == "") { if (i > 1 || (cpu == 0 ? n : m + 1) > rec) nodelta[cpu]++ }
	else if (i == 1 && (cpu == 0 ? n : m + 1) <= rec) nodelta[cpu]++
	else if (i > 1) {
		step = ts - prev[cpu]
		if ((d - step * 1e6 > 1.001 || step * 1e6 - d > 1.001) && !baddelta++)
			baddeltamsg = "cpu " cpu " record " i ": delta " d " us, timestamps step " step * 1e6 " us"
		if (cpu == 0) dsum += d
	}
	if (i == 1) first[cpu] = ts
	prev[cpu] = ts
	next
}
END {
	check(begins == 1, "exactly one dump (" why ")", begins + 0 " dump begin lines")
	check(begin && end && begin < end, "begin and end lines with the mode", "begin at line " begin + 0 ", end at " end + 0)
	check(hdr_n, "begin line says last " rec " records per cpu", "not found")
	if (mode == "mid") {
		check(busy[0] && !busy[1], "cpu 0 header says its sub-buffer with an uncommitted writer was skipped",
		      "cpu 0 " busy[0] + 0 ", cpu 1 " busy[1] + 0)
		check(hrec[0] >= want0 && hrec[0] <= n && hshown[0] == want0,
		      "cpu 0 header: at most " n " records (the open sub-buffer left out), shown=" want0,
		      "records=" hrec[0] " shown=" hshown[0])
		check(k0 == hrec[0] - 1, "cpu 0: the records shown are the last of its closed sub-buffers",
		      "last seq shown " k0 ", records=" hrec[0])
	} else if (mode == "panic") {
		check(hrec[0] >= want0 && hrec[0] < n && hover[0] > 0 && hshown[0] == want0,
		      "cpu 0 header: the ring wrapped (records < " n ", overrun > 0), shown=" want0,
		      "records=" hrec[0] " overrun=" hover[0] " shown=" hshown[0])
	} else
	check(hrec[0] == n && hshown[0] == want0, "cpu 0 header: records=" n " shown=" want0,
	      "records=" hrec[0] " shown=" hshown[0])
	check(hrec[1] == m + 1 && hshown[1] == want1, "cpu 1 header: records=" m + 1 " shown=" want1,
	      "records=" hrec[1] " shown=" hshown[1])
	check(cnt[0] == want0 && cnt[1] == want1 && !strays, "the last " rec " records of each cpu are printed",
	      "cpu 0 " cnt[0] + 0 ", cpu 1 " cnt[1] + 0 ", others " strays + 0)
	check(!bad0, "cpu 0: seq " (mode == "mid" ? "K..L consecutive" : n - want0 ".." n - 1 " exactly") ", in order", bad0msg)
	check(!bad1, "cpu 1: other ..(slots %d %s %c %lld %hhd %hd) then vbin (%hhd %hd %pS), exactly, in order", bad1msg)
	check(index(endline, ": " nrec " records printed") > 0, "end line counts " nrec " records", endline)
	check(nrec && !backwards, "merged in time order across cpus", backwards + 0 " steps back")
	check(switches >= 10, "the two cpus interleave (records alternate when taken)", switches + 0 " switches between cpus")
	check(!badwho, "task names COMM-PID from the comm records", badwhomsg)
	check(!badwhere, "call site func:line", badwheremsg)
	check(!nodelta[0] && !nodelta[1], "every record has a delta but a cpu'"'"'s very first (the first shown: to the record before it, not shown)",
	      "wrong: cpu 0 " nodelta[0] + 0 ", cpu 1 " nodelta[1] + 0)
	check(!baddelta, "each delta is the step between the timestamps (1 us rounding)", baddeltamsg)
	span = (prev[0] - first[0]) * 1e6
	check(cnt[0] > 1 && dsum - span < 1.001 && span - dsum < 1.001, "cpu 0 deltas add up to its span",
	      "sum " dsum " us, span " span " us")
	if (mode == "oops" || mode == "mid" || mode == "bug") {
		check(oops && oops < begin, "oops before the dump", "oops line " oops + 0 ", dump at " begin + 0)
		check(kpanic > end && above > end, "then the panic, which points at the dump above",
		      "panic line " kpanic + 0 ", note line " above + 0 ", dump end " end + 0)
	} else if (mode == "live") {
		check(oops && oops < begin, "oops before the dump", "oops line " oops + 0 ", dump at " begin + 0)
		check(alive > end && kpanic > alive && !above && begins == 1,
		      "the kernel lived on; its later panic without dump_on_oops printed no dump",
		      "alive line " alive + 0 ", panic " kpanic + 0 ", dump end " end + 0 ", dumps " begins + 0)
	} else if (mode == "panic") {
		check(kpanic && kpanic < begin, "panic before the dump", "panic line " kpanic + 0)
	} else {
		check(sysrq_done > end, "the kernel went on after the sysrq dump", "sysrq done line " sysrq_done + 0)
		check(oops > sysrq_done && kpanic > oops && begins == 1,
		      "a later oops without dump_on_oops printed no dump",
		      "oops line " oops + 0 ", panic " kpanic + 0 ", dumps " begins + 0)
	}
	exit failed ? 1 : 0
}' "$dir/console.txt"
finish
