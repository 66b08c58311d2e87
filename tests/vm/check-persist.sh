#!/bin/bash
# Host side of vm-persist-MODE (tests/vm/guest-persist.sh): boot 1's
# console and boot 2's results (area.img: the module's copy of the area
# boot 1 left) checked with no module, as a user decodes an image.
#   check-persist.sh MODE OUTDIR LOGDEV [NAME]
# For every stream (CPU, context) that boot 1's logdev_test run counted
# ("persist-counts:" on boot 1's console), the records recovered from the
# image must be that stream's last ones without a gap: seq runs from the
# first recovered to written - 1.  The end noted must fit MODE (panic,
# oops: "panic", sealed sub-buffers all pass their CRC; reboot: "reboot";
# reset: "unknown", no seals, the reader says so).
# Prints PASS:/FAIL: lines; exit 1 on any FAIL.
mode=$1 o=$2 L=$3
P=${4:-vm-persist-$mode}
failed=0
pass() { echo "PASS: $P: $*"; }
fail() { echo "FAIL: $P: $*"; failed=1; }

c1=$o/console-boot1.log
img=$o/area.img
[ -s "$img" ] || { fail "no area.img in $o"; exit 1; }
grep -a '^persist-counts: cpu=' "$c1" 2> /dev/null | tr -d '\r' | sed 's/^persist-counts: //' > "$o/counts.txt"
[ -s "$o/counts.txt" ] || { fail "no persist-counts lines on boot 1's console ($c1)"; exit 1; }

"$L" report "$img" > "$o/report.txt" 2> "$o/report.err"
rc=$?
echo "report: rc $rc, $(wc -l < "$o/report.txt") lines; $(head -c 400 "$o/report.err" | tr '\n' '|')"
case $mode in
panic|oops) want_end='ended: panic' ;;
reboot) want_end='ended: reboot' ;;
reset) want_end='ended: unknown' ;;
esac
grep -q "$want_end" "$o/report.err" "$o/report.txt" &&
	pass "the reader says '$want_end'" ||
	fail "no '$want_end' from logdev report: $(grep -h 'ended' "$o/report.err" "$o/report.txt" | head -n 2 | tr '\n' '|')"

if [ "$mode" = panic ]; then
	grep -aq "logdev: dump end (panic): .*in the flight recorder's area: logdev record --last-boot" "$c1" &&
		pass "the console dump at the panic points at the area" ||
		fail "no dump end line naming the area on boot 1's console: $(grep -a 'dump end' "$c1" | head -n 1)"
fi

# streams: cpu=C ctx=X seq=N in the report lines ("ctx=%d seq=%u")
awk -v counts="$o/counts.txt" '
BEGIN {
	while ((getline l < counts) > 0) {
		split(l, f, /[ =]/)	# cpu C ctx X written N
		if (f[6] > 0) { want[f[2] " " f[4]] = f[6] }
	}
}
/ ctx=[0-9]+ seq=[0-9]+/ {
	cpu = ""; for (i = 1; i <= NF; i++) if ($i ~ /^cpu:[0-9]+$/) cpu = substr($i, 5)
	match($0, / ctx=[0-9]+ seq=[0-9]+/); s = substr($0, RSTART + 1, RLENGTH - 1)
	split(s, g, /[ =]/); k = cpu " " g[2]; q = g[4] + 0
	if (!(k in first)) { first[k] = q; last[k] = q; n[k] = 1; next }
	if (q != last[k] + 1) gaps[k]++
	last[k] = q; n[k]++
}
END {
	bad = 0; tot = 0; got = 0
	for (k in want) {
		if (!(k in n)) { printf "stream cpu,ctx %s: nothing recovered of %d\n", k, want[k]; bad++; continue }
		if (last[k] != want[k] - 1) { printf "stream %s: last seq %d, written %d\n", k, last[k], want[k]; bad++ }
		if (gaps[k]) { printf "stream %s: %d gaps\n", k, gaps[k]; bad++ }
		tot += want[k]; got += n[k]
	}
	printf "streams %d, records recovered %d of %d written, bad %d\n", length(want), got, tot, bad
	exit bad > 0
}' "$o/report.txt" > "$o/streams.txt"
src=$?
[ $src = 0 ] && pass "every stream's last records recovered in order, no gap: $(tail -n 1 "$o/streams.txt")" ||
	fail "streams: $(head -n 5 "$o/streams.txt" | tr '\n' '|')"
exit $failed
