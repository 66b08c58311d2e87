#!/bin/bash
# Host side of the printf test.
#   check-printf.sh DIR NAME
# DIR/printf.cap holds one edprint() per entry of logdev_test's printf table,
# DIR/printf_ref.txt the kernel's own vsnprintf() text for the same call
# ("INDEX<TAB>TEXT", escaped).  The messages of `logdev report --raw` for
# those records must equal the kernel's text, entry by entry, in order.
# An entry "INDEX<TAB>cut=KEEP,SKIP<TAB>TEXT" is one whose arguments do not
# fit a record: logdev must print the first KEEP characters of TEXT, the cut
# mark "[cut]" (docs/FORMAT.md), then, unless SKIP < 0, the rest of TEXT
# after SKIP more characters (the part of the argument that was cut).
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/vm/lib.sh"
P=$name

if [ ! -s "$dir/printf.cap" ] || [ ! -s "$dir/printf_ref.txt" ]; then
	fail "no printf capture or reference came back"
	exit 1
fi
"$logdev" report --raw "$dir/printf.cap" > "$dir/printf.raw" 2> "$dir/printf.err"
ld_rc=$?
if [ $ld_rc != 0 ] && [ $ld_rc != 3 ]; then	# 3: decoded, with warnings on stderr
	fail "logdev report --raw failed: $(head -c 300 "$dir/printf.err")"
	exit 1
fi
# the too-big record is a lost event: its "lost events" line (exit 3) is expected
grep -v '^logdev: warning: lost events: ' "$dir/printf.err" > "$dir/printf.warn"
[ -s "$dir/printf.warn" ] && fail "decoder warnings: $(head -n 3 "$dir/printf.warn" | tr '\n' '|')"

run_checks awk -v name="$name" "$LD_AWK"'
FILENAME == ARGV[1] && /^#/ { next }
FILENAME == ARGV[1] {
	i = index($0, "\t"); t = substr($0, i + 1)
	if (t ~ /^cut=[0-9]+,-?[0-9]+\t/) {
		j = index(t, "\t"); split(substr(t, 5, j - 5), ks, ",")
		t = substr(t, j + 1)
		t = substr(t, 1, ks[1] + 0) "[cut]" (ks[2] + 0 < 0 ? "" : substr(t, ks[1] + ks[2] + 1))
	}
	ref[n_ref++] = t; next
}
$1 == "LOST" { lost++; next }
{
	split($0, f, "\t")
	# sites of the table: lt_printf_table() and the parts it calls (logdev_test_printf.c)
	if (f[6] !~ /^lt_printf_(table|basic|symbols|edges|rest|forms|align)$/) next
	got[n_got++] = raw_msg($0)
}
END {
	failed = 0
	if (n_got != n_ref) {
		print "FAIL: " name ": " n_got " records for " n_ref " table entries (" lost + 0 " LOST lines)"
		failed++
	}
	for (i = 0; i < n_ref && i < n_got; i++)
		check(got[i] == ref[i], "entry " i ": " ref[i], "logdev [" got[i] "] kernel [" ref[i] "]")
	exit failed ? 1 : 0
}' "$dir/printf_ref.txt" "$dir/printf.raw"

# logdev_test's lt_oddfiles(7): two sites at lt_oddfiles:500 in files named
# "dir<TAB>with tab/we"ird,name.c" and "new<LF>line.c".  "formats" escapes
# file and func as it escapes the format (one line per site), and the
# reader names both sites with their files (same func:line), no warning.
odd=0
for want in $'\tdir\\twith tab/we\\"ird,name.c\t500\tlt_oddfiles\toddfile %d' \
	    $'\tnew\\nline.c\t500\tlt_oddfiles\tnlfile %d'; do
	if ! grep -qF -- "$want" "$dir/formats.txt"; then
		fail "formats lacks the escaped line [$want]: $(grep -a lt_oddfiles "$dir/formats.txt" | head -c 300)"
		odd=1
	fi
done
# (report's text is terminal-safe: the tab and newline print as \t and \n)
text=$("$logdev" report "$dir/printf.cap" 2>&1 | tr -d '\0')
for want in 'dir\twith tab/we"ird,name.c:lt_oddfiles:500 oddfile 7' \
	    'new\nline.c:lt_oddfiles:500 nlfile 7'; do
	if [[ $text != *"$want"* ]]; then
		fail "report lacks [$want]: $(grep -a -A1 'oddfile\|nlfile\|warning' <<< "$text" | head -c 400)"
		odd=1
	fi
done
[ $odd = 0 ] && pass "sites in files named with a tab, quote and newline: escaped in formats, named with their files in report (escaped)"

# After the table the test module wrote one raw record larger than any
# sub-buffer: refused with -E2BIG (7), and counted as lost: too_big in stats
# and one LOST record of kind too_big in the capture.
bad=0
big=$(sed -n 's/^# raw_big=//p' "$dir/printf_ref.txt")
[ "$big" = -7 ] || { fail "too-big raw record: logdev_write_raw returned '$big', not -E2BIG"; bad=1; }
tb=$(stats_sum "$dir/printf_stats.txt" too_big 2>/dev/null)
[ "$tb" = 1 ] || { fail "too-big raw record: stats too_big total $tb, not 1"; bad=1; }
lost=$(raw_lost "$dir/printf.raw" too_big)
[ "$lost" = 1 ] || { fail "too-big raw record: capture shows $lost too_big records, not 1"; bad=1; }
[ $bad = 0 ] && pass "a raw record too big for a sub-buffer is refused (-E2BIG) and counted lost (stats too_big 1, capture LOST 1 too_big)"
finish
