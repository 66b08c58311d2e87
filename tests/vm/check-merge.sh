#!/bin/bash
# Host side of the live merge (issue 9 item 4).   check-merge.sh DIR NAME
# DIR holds ftrace.dat (`trace-cmd record -C mono -e sched:sched_switch -e irq`
# in the guest) and logdev.cap (`logdev record` on logdev's mono clock, run
# inside that recording: tests/vm/guest-merge.sh).  After `logdev convert`,
# `trace-cmd report -i ftrace.dat -i logdev.dat` must merge the two by time:
# logdev lines between sched_switch lines (not one file after the other),
# every logdev record inside the ftrace file's time range.  Read with each
# trace-cmd of LOGDEV_TRACECMD_ROOTS (tests/tracecmd/roots.sh; default the
# host's), whose version every PASS/FAIL line names; trace-cmd's lines are
# read by their structure (tests/tracecmd/tcline.awk).
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/tracecmd/roots.sh"
tcr_foreach "$top/tests/vm/check-merge.sh" "$@"
. "$top/tests/vm/lib.sh"
P="$name ${tcr_tag% }"
why=$(tcr_ok) || { fail "$why (tools/deps.sh installs it)"; exit 1; }
for f in ftrace.dat logdev.cap; do
	[ -s "$dir/$f" ] || { fail "no $f came back"; exit 1; }
done
"$logdev" convert -o "$dir/logdev.dat" "$dir/logdev.cap" 2> "$dir/convert.err"
ld_rc=$?
if [ $ld_rc != 0 ] && [ $ld_rc != 3 ]; then	# 3: decoded, with warnings on stderr
	fail "logdev convert failed: $(head -c 300 "$dir/convert.err")"; exit 1
fi
pass "logdev convert: $(tail -n 1 "$dir/convert.err")"
# both files on the mono clock (trace-cmd's [selected] clock in TRACECLOCK)
for f in ftrace.dat logdev.dat; do
	clk=$(tc dump --options "$dir/$f" 2>/dev/null | grep -o '\[[a-z0-9_-]*\]' | grep -v -i option | head -n 1)
	check_eq "$f: trace clock" "$clk" "[mono]"
done
# -N: no plugins, whatever is installed; -t: nanoseconds
if ! tc report -N -t -i "$dir/ftrace.dat" -i "$dir/logdev.dat" > "$dir/merged.txt" 2> "$dir/merged.err"; then
	fail "trace-cmd report -i ftrace.dat -i logdev.dat failed: $(head -c 300 "$dir/merged.err")"; exit 1
fi
check "trace-cmd report of both files writes nothing to stderr" "$(head -c 300 "$dir/merged.err")" \
	test ! -s "$dir/merged.err"
tc report -N -i "$dir/ftrace.dat" -i "$dir/logdev.dat" > "$dir/merged-us.txt" 2>/dev/null
"$logdev" report --raw "$dir/logdev.cap" 2>/dev/null | awk -F'\t' '$1 != "LOST" && !($5 == "0" && $6 == "<comm>")' > "$dir/logdev.raw"
nrec=$(wc -l < "$dir/logdev.raw")
check_ge "logdev records recorded" "$nrec" 100
# Every record line: "FILE.dat: COMM-PID [CPU] [FLAGS] SECS.NS: EVENT: ..."
# (tc_parse(): the file, the time and the event, whatever the version)
tcawk -v tc_files=1 -v nrec="$nrec" -v name="$P" '
function ok(c, what, why) {
	if (c) print "PASS: " name ": " what
	else { print "FAIL: " name ": " what ": " why; failed++ }
}
tc_parse($0) {
	src = tc_file
	t = tc_ts
	ev = tc_event
	n++
	if (n > 1 && t + 0 < last + 0) { back++; if (!firstback) firstback = NR ": " t " after " last }
	last = t
	if (src == "logdev.dat") {
		nl++
		if (!lfirst) lfirst = t
		llast = t
		# a run of logdev lines begins after a sched_switch line
		if (prev == "S") runs_after_switch++
		prev = "L"
	} else if (src == "ftrace.dat") {
		nf++
		if (!ffirst) ffirst = t
		flast = t
		if (ev == "sched_switch") {
			ns++
			if (nl > 0 && prev == "L") { switch_after_logdev++ }
			if (nl == 0) sw_before++
			prev = "S"
			swlast = t
		}
	}
}
END {
	ok(back == 0, "merged lines are in time order", back " lines go back in time (first: line " firstback ")")
	ok(nl == nrec, "every logdev record is in the merged report (" nl ")", "logdev report --raw has " nrec)
	ok(ns >= 10, "sched_switch lines in the merged report (" ns ")", "want >= 10")
	ok(sw_before > 0 && swlast + 0 > llast + 0, "sched_switch lines before the first and after the last logdev line",
		sw_before + 0 " before, last sched_switch " swlast ", last logdev " llast)
	ok(runs_after_switch >= 3 && switch_after_logdev >= 3,
		"logdev lines fall between sched_switch lines (" runs_after_switch + 0 " runs of logdev lines, each after a sched_switch line)",
		runs_after_switch + 0 " runs after a sched_switch, " switch_after_logdev + 0 " sched_switch lines after logdev lines (want >= 3 each): one file after the other?")
	ok(lfirst + 0 >= ffirst + 0 && llast + 0 <= flast + 0,
		"logdev records lie within the ftrace file'"'"'s time range [" ffirst ", " flast "]",
		"logdev spans [" lfirst ", " llast "]")
	exit failed > 0
}' "$dir/merged.txt"
rc=$?
[ $rc = 0 ] || fails=$((fails + 1))
# the converted file keeps logdev's own times: the merged logdev lines carry
# the same nanoseconds as `logdev report --raw`
got=$(tcawk -v tc_files=1 'tc_parse($0) && tc_file == "logdev.dat" { t = tc_ts; sub(/\./, "", t); print t + 0 }' "$dir/merged.txt" | md5sum)
want=$(awk -F'\t' '{ print $1 + 0 }' "$dir/logdev.raw" | md5sum)
check_eq "merged logdev times equal logdev report --raw's (ns)" "$got" "$want"
finish
