#!/bin/bash
# Host side of vm-persist-MODE (tests/vm/guest-persist.sh): boot 1's
# console and boot 2's results (area.img: the module's copy of the area
# boot 1 left) checked with no module, as a user decodes an image.
#   check-persist.sh MODE OUTDIR LOGDEV [NAME]
# Every stream (CPU, context: edprint("ctx=%d seq=%u")) must come back in
# order without a gap.  reboot (the run ended, its counts on boot 1's
# console as "persist-counts:"): each stream's recovered records are its
# last ones, up to written - 1.  The other modes ended while the writers
# ran: the newest record of every CPU must lie within 1 s of the end the
# area noted, and the records of the last second before it are counted
# (recovered; lost = gaps, plus at most one record in flight per stream,
# which no crash can keep; a hard reset notes no end: the newest record
# stands for it).  The end noted must fit MODE (panic, nmi, oops:
# "panic"; reboot: "reboot"; reset: "unknown").
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
if [ "$mode" = reboot ] && [ ! -s "$o/counts.txt" ]; then
	fail "no persist-counts lines on boot 1's console ($c1)"
	exit 1
fi

"$L" report "$img" > "$o/report.txt" 2> "$o/report.err"
rc=$?
echo "report: rc $rc, $(wc -l < "$o/report.txt") lines; $(head -c 400 "$o/report.err" | tr '\n' '|')"
case $mode in
panic|oops|nmi) want_end='ended: panic' ;;
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

# streams: "[  TS] cpu:C ... ctx=X seq=N" lines of the report
end_ts=$(grep -ho 'ended: .*(trace ts [0-9.]*)' "$o/report.err" "$o/report.txt" | head -n 1 | sed 's/.*trace ts \([0-9.]*\))/\1/')
awk -v counts="$o/counts.txt" -v end_ts="${end_ts:-0}" '
BEGIN {
	while ((getline l < counts) > 0) {
		split(l, f, /[ =]/)	# cpu C ctx X written N
		if (f[6] > 0) { want[f[2] " " f[4]] = f[6] }
	}
	exact = length(want) > 0
}
/ ctx=[0-9]+ seq=[0-9]+/ {
	ts = $0; sub(/^\[ */, "", ts); sub(/\].*/, "", ts); ts += 0
	cpu = ""; for (i = 1; i <= NF; i++) if ($i ~ /^cpu:[0-9]+$/) cpu = substr($i, 5)
	match($0, / ctx=[0-9]+ seq=[0-9]+/); s = substr($0, RSTART + 1, RLENGTH - 1)
	split(s, g, /[ =]/); k = cpu " " g[2]; q = g[4] + 0
	rec[k, q] = ts; if (ts > newest[cpu]) newest[cpu] = ts
	if (!(k in first)) { first[k] = q; last[k] = q; n[k] = 1; next }
	if (q != last[k] + 1) { gaps[k]++; miss[k] += q - last[k] - 1 }
	last[k] = q; n[k]++
}
END {
	bad = 0; tot = 0; got = 0
	if (exact) {
		for (k in want) {
			if (!(k in n)) { printf "stream cpu,ctx %s: nothing recovered of %d\n", k, want[k]; bad++; continue }
			if (last[k] != want[k] - 1) { printf "stream %s: last seq %d, written %d\n", k, last[k], want[k]; bad++ }
			if (gaps[k]) { printf "stream %s: %d gaps\n", k, gaps[k]; bad++ }
			tot += want[k]; got += n[k]
		}
		printf "streams %d, records recovered %d of %d written, bad %d\n", length(want), got, tot, bad
		exit bad > 0
	}
	if (end_ts <= 0) {	# no end noted (a hard reset): the newest record stands for it
		for (c in newest) if (newest[c] > end_ts) end_ts = newest[c]
	}
	for (c in newest) if (end_ts - newest[c] > 1) { printf "cpu %s: newest record %.3f s before the end\n", c, end_ts - newest[c]; bad++ }
	ns = 0; lastsec = 0; lost = 0
	for (k in n) {
		ns++
		if (gaps[k]) { printf "stream %s: %d gaps, %d records missing\n", k, gaps[k], miss[k]; bad++ }
		for (q = first[k]; q <= last[k]; q++) if ((k, q) in rec && rec[k, q] >= end_ts - 1) lastsec++
		lost += miss[k] + 1	# gaps, and one record in flight at most
	}
	if (ns < 8) { printf "only %d streams recovered\n", ns; bad++ }
	pct = lastsec + lost ? 100 * lastsec / (lastsec + lost) : 0
	printf "streams %d; last second before the end: %d records recovered, at most %d lost (%.2f%%); bad %d\n", ns, lastsec, lost, pct, bad
	exit (bad > 0 || pct < 99)
}' "$o/report.txt" > "$o/streams.txt"
src=$?
[ $src = 0 ] && pass "every stream recovered in order, no gap: $(tail -n 1 "$o/streams.txt")" ||
	fail "streams: $(head -n 5 "$o/streams.txt" | tr '\n' '|')"
exit $failed
