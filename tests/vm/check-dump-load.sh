#!/bin/bash
# Host side of the crash dump under load (guest-dump-load.sh; issue 24,
# items 3-5).
#   check-dump-load.sh DIR NAME MODE N
# DIR/console.log is the serial console of a boot of guest-dump-load.sh MODE N.
#   race: every one of the N dumps shows exactly the records it announced
#         (shown= summed over its CPUs == records printed), or says which
#         sub-buffers were overwritten while it read and how many records it
#         left out; CPU 1's fill numbers only grow within a dump (no record
#         written after the dump began, none older after it), no delta is
#         negative, no CPU's walk stops at a "damaged" record
#   big:  no printk message dropped; the first dump is bounded by printk's
#         buffer (said in its begin line), ends within 10 s plus 2 s (printk
#         times of its begin and end lines) and the guest lived 30 s more
#         with no stall report (run.sh); the second, on a 10 ms-a-line
#         console with dump_max_ms=1000, is cut at 1 s and says how many
#         records it left out, or ends sooner (a console printed by a
#         thread), within 1 s plus 2 s either way
#   nmi:  the panic from NMI context left on the console the kernel's
#         "Kernel panic - not syncing" line, the dump's begin line (saying
#         it showed fewer records) and its end line, and no "printk
#         messages dropped"
set -uo pipefail
dir=$1 name=$2 mode=$3 n=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/vm/lib.sh"
P=$name
console_of "$dir" || exit 1
c=$dir/console.txt

case $mode in
race)
	check "the guest asked for $n dumps" "no 'race done' line" grep -aq "logdev-dump-test: race done $n dumps" "$c"
	run_checks awk -v name="$name" -v want="$n" "$LD_AWK"'
	/logdev: dump begin \(sysrq\)/ { in_d = 1; dumps++; shown = 0; last = -1; neg = 0; order = 0; next }
	!in_d { next }
	/logdev: dump cpu:[0-9]+ records=/ {
		match($0, /shown=[0-9]+/); shown += substr($0, RSTART + 6, RLENGTH - 6) + 0; next }
	/logdev: dump cpu:[0-9]+ stopped: damaged/ { damaged++; if (!ex) ex = $0; next }
	/logdev: dump cpu:[0-9]+ sub-buffer [0-9]+ consumed or overwritten while the dump read it/ { during++; next }
	/logdev: dump: [0-9]+ of [0-9]+ records not shown/ { told = 1; next }
	/logdev: \[ *[0-9.]+\] cpu:1 / {
		if ($0 ~ /clock went back/) neg++
		if (match($0, /lt_fill_write:[0-9]+ fill [0-9]+/)) {
			split(substr($0, RSTART, RLENGTH), w, " ")
			v = w[3] + 0
			if (v <= last) order++
			last = v
		}
		next
	}
	/logdev: dump end \(sysrq\): [0-9]+ records printed/ {
		in_d = 0
		match($0, /[0-9]+ records printed/); printed = substr($0, RSTART, RLENGTH) + 0
		if (printed != shown && !told) { unexplained++; if (!ex) ex = "dump " dumps ": printed " printed " of " shown " announced, nothing said" }
		if (order) { disorder++; if (!ex) ex = "dump " dumps ": cpu 1 fill numbers went back " order " times" }
		if (neg) { negs++; if (!ex) ex = "dump " dumps ": " neg " negative deltas on cpu 1" }
		told = 0
	}
	END {
		check(dumps == want, "all " want " dumps printed (begin and end)", "saw " dumps)
		check(!damaged && !unexplained && !disorder && !negs,
		      "every dump showed what it announced, in order (" during + 0 " sub-buffers said overwritten while read)",
		      damaged + 0 " damaged, " unexplained + 0 " short with no word, " disorder + 0 " out of order, " negs + 0 " with negative deltas; e.g. " ex)
		exit failed ? 1 : 0
	}' "$c"
	;;
big)
	if grep -aq 'printk messages dropped' "$c"; then
		fail "printk dropped messages: $(grep -a 'printk messages dropped' "$c" | head -n 1)"
	else
		pass "no printk messages dropped"
	fi
	run_checks awk -v name="$name" "$LD_AWK"'
	function t(s) { match(s, /^\[ *[0-9.]+\]/); s = substr(s, RSTART + 1, RLENGTH - 2); gsub(/ /, "", s); return s + 0 }
	/logdev: dump begin \(sysrq\)/ { t0[++d] = t($0); held[d] = $0 ~ /not dump_records=10000: printk.s buffer holds [0-9]+ lines of a dump/ }
	/logdev: dump cut after [0-9]+ ms/ {
		cut[d] = $0; match($0, /after [0-9]+ ms/); bound[d] = substr($0, RSTART + 6, RLENGTH - 9) / 1000 }
	/logdev: dump end \(sysrq\)/ { t1[d] = t($0); ended++ }
	/logdev-dump-test: big done, no stall/ { lived = 1 }
	END {
		check(d == 2 && ended == 2, "both 4 x 10000-record dumps began and ended", d + 0 " began, " ended + 0 " ended")
		check(held[1], "the first shows what printk\047s buffer holds, and says so", "begin line without the bound")
		check(t1[1] - t0[1] <= 10 + 2, "it held its CPU " t1[1] - t0[1] " s: within its bound (10 s) + 2 s", "took " t1[1] - t0[1] " s")
		check(lived, "the guest lived 30 s more with no stall report", "no \"big done\" line")
		check(cut[2] != "" ? bound[2] == 1 : t1[2] - t0[2] < 1,
		      "with a 10 ms-a-line console and dump_max_ms=1000: " (cut[2] != "" ? "cut at the bound, the records left out said" : "ended within the bound (the console prints from a thread)"),
		      "not cut and took " t1[2] - t0[2] " s; cut line: \"" cut[2] "\"")
		check(t1[2] - t0[2] <= 1 + 2, "it held its CPU " t1[2] - t0[2] " s (bound 1 s, + 2 s)", "took " t1[2] - t0[2] " s")
		exit failed ? 1 : 0
	}' "$c"
	;;
nmi)
	check "the NMI panicked the kernel" "no panic line" grep -aq 'Kernel panic - not syncing' "$c"
	check "the dump of the NMI panic began" "no 'dump begin (panic)' line" grep -aq 'logdev: dump begin (panic)' "$c"
	check "its begin line says it shows fewer records" "no bound in the begin line" \
		grep -aq "logdev: dump begin (panic).*not dump_records=1000: printk's buffer holds [0-9]* lines of a dump in a crash" "$c"
	check "the dump ended" "no 'dump end (panic)' line" grep -aq 'logdev: dump end (panic)' "$c"
	if grep -aq 'printk messages dropped' "$c"; then
		fail "printk dropped messages: $(grep -a 'printk messages dropped' "$c" | head -n 1)"
	else
		pass "no printk messages dropped"
	fi
	;;
esac
finish
