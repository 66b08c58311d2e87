#!/bin/bash
# Host side of vm-persist-MODE (tests/vm/guest-persist.sh): boot 1's
# console and boot 2's results (area.img: the module's copy of the area
# boot 1 left) checked with no module, as a user decodes an image.
#   check-persist.sh MODE OUTDIR LOGDEV [NAME]
# Every stream (CPU, context: edprint("ctx=%d seq=%u")) must come back in
# order without a gap.  reboot (the run ended, its counts on boot 1's
# console as "persist-counts:"): each stream's recovered records are its
# last ones, up to written - 1.  The other modes ended while the writers
# ran: the records of the last second before each CPU's newest record are
# counted (recovered; lost = gaps, plus at most one record in flight per
# stream, which no crash can keep), at least 99 % recovered.  The end noted must fit MODE (panic, nmi, oops:
# "panic"; reboot: "reboot"; reset: "unknown").
# Prints PASS:/FAIL: lines; exit 1 on any FAIL.
mode=$1 o=$2 L=$3
P=${4:-vm-persist-$mode}
failed=0
. "$(dirname "$0")/lib.sh"	# LD_AWK (its pass/fail replaced below)
pass() { echo "PASS: $P: $*"; }
fail() { echo "FAIL: $P: $*"; failed=1; }

c1=$o/console-boot1.log
xk=	# boot 2 ran another kernel (tests/vm/run-tests.sh vm-persist-xkernel)
[ "$P" = vm-persist-xkernel ] && xk=1
img=$o/area.img
if [ "$mode" = resmem ] && [ ! -s "$img" ]; then
	# reserve_mem= may put the memory elsewhere after a reboot: then
	# nothing of the previous boot may be claimed
	a1=$(grep -ao 'persist: rings in \[0x[0-9a-f]*' "$c1" | head -n 1 | sed 's/.*\[//')
	a2=$(grep -ao 'persist: rings in \[0x[0-9a-f]*' "$o/persist-dmesg.txt" 2> /dev/null | head -n 1 | sed 's/.*\[//')
	[ -n "$a1" ] && [ -n "$a2" ] && [ "$a1" != "$a2" ] &&
		grep -q 'no previous boot' "$o/persist-dmesg.txt" &&
		pass "reserve_mem moved ($a1, then $a2): boot 2 claimed nothing of it" ||
		fail "no area.img, and not a move: boot 1 at '${a1:-?}', boot 2 at '${a2:-?}': $(tr '\n' '|' < "$o/persist-dmesg.txt" 2> /dev/null)"
	exit $failed
fi
[ -s "$img" ] || { fail "no area.img in $o"; exit 1; }
grep -a '^persist-counts: cpu=' "$c1" 2> /dev/null | tr -d '\r' | sed 's/^persist-counts: //' > "$o/counts.txt"
if [ "$mode" = reboot ] && [ ! -s "$o/counts.txt" ]; then
	fail "no persist-counts lines on boot 1's console ($c1)"
	exit 1
fi

"$L" report "$img" > "$o/report.txt" 2> "$o/report.err"
rc=$?
echo "report: rc $rc, $(wc -l < "$o/report.txt") lines; $(head -c 400 "$o/report.err" | tr '\n' '|')"
# boot 1 of panic mode switched the clock to mono: the area must say so
if [ "$mode" = panic ]; then
	head -n 1 "$o/report.txt" | grep -q '^# clock: mono' &&
		pass "the clock boot 1 switched to (mono) labels the recovered records" ||
		fail "clock label: '$(head -n 1 "$o/report.txt")', boot 1 used mono"
fi

# the capture logdev record --last-boot made in boot 2 holds what the image does
if [ -s "$o/prev.cap" ]; then
	# boot 2 read the same build's vmlinux symbols from /proc/kallsyms:
	# the host gives them with --kallsyms (which source: not compared);
	# across kernels neither has them
	ks="--kallsyms $o/kallsyms-boot2.txt"
	[ -n "$xk" ] && ks=
	"$L" report "$o/prev.cap" 2> /dev/null | grep -v 'symbols' > "$o/prev-report.txt"
	"$L" report $ks "$img" 2> /dev/null | grep -v 'symbols' > "$o/report-ks.txt"
	cmp -s "$o/prev-report.txt" "$o/report-ks.txt" &&
		pass "logdev record --last-boot in boot 2 made a capture that reads as the image: $(wc -l < "$o/report.txt") lines ($(head -c 120 "$o/record.out" | tr '\n' '|'))" ||
		fail "prev.cap (record --last-boot) reads other than area.img: $(diff "$o/prev-report.txt" "$o/report-ks.txt" | head -n 4 | tr '\n' '|')"
else
	fail "no prev.cap: logdev record --last-boot in boot 2: $(head -c 300 "$o/record.out" 2> /dev/null | tr '\n' '|')"
fi
case $mode in
panic|oops|nmi|corrupt|ftrace|resmem) want_end='ended: panic' ;;
reboot) want_end='ended: reboot' ;;
reset) want_end='ended: unknown' ;;
esac
grep -q "$want_end" "$o/report.err" "$o/report.txt" &&
	pass "the reader says '$want_end'" ||
	fail "no '$want_end' from logdev report: $(grep -h 'ended' "$o/report.err" "$o/report.txt" | head -n 2 | tr '\n' '|')"

if [ "$mode" = panic ] && grep -q 'reset from outside, as a watchdog would' "$o.runlog" 2> /dev/null &&
	! grep -aq "logdev: dump end (panic)" "$c1"; then
	# stuck in panic() (6.1-rt): the dump's stored lines never reached the console
	pass "boot 1 stuck in its panic and reset from outside: no console dump to check ($(grep -m 1 'reset from outside' "$o.runlog"))"
elif [ "$mode" = panic ]; then
	grep -aq "logdev: dump end (panic): .*in the flight recorder's area: logdev record --last-boot" "$c1" &&
		pass "the console dump at the panic points at the area" ||
		fail "no dump end line naming the area on boot 1's console: $(grep -a 'dump end' "$c1" | head -n 1)"
fi

# %pS of a previous boot (panic mode): boot 1 wrote logdev_test's printf
# table just before the end and put the kernel's own text of its symbol
# lines on the console ("persist-boot1-ref:"); boot 2 loaded logdev_test
# again (elsewhere) and saved its vmlinux symbols (kallsyms-boot2.txt, the
# same build as boot 1 but in vm-persist-xkernel).  The lines of vmlinux
# and module text must read as boot 1's kernel printed them: from prev.cap
# (record --last-boot in boot 2) and from the image with --kallsyms; from
# the image alone the module's (the area's module map), vmlinux's as hex
# with a warning naming --kallsyms.  Across kernels (xkernel) vmlinux's
# stay hex everywhere: no symbols of boot 1's kernel came back.
sym_msgs() {	# KIND FILE [REPORT ARGS]: the messages of KIND's symbol lines
	local kind=$1
	shift
	"$L" report --raw "$@" 2>> "$o/sym.err" | awk -F'\t' "$LD_AWK"'
		$6 == "lt_printf_symbols" { m = raw_msg($0); if (index(m, "sym " k " text ") == 1) print m }' k="$kind"
}
if [ "$mode" = panic ] || [ "$mode" = ftrace ]; then
	: > "$o/sym.err"
	for kind in vmlinux module; do
		ref=$(grep -a "^persist-boot1-ref: [0-9]*	sym $kind text " "$c1" | head -n 1 | tr -d '\r' | cut -f 2-)
		[ -n "$ref" ] || { fail "no 'sym $kind text' line of boot 1's printf_ref on its console"; continue; }
		got=$(sym_msgs $kind "$o/prev.cap" | head -n 1)
		if [ $kind = vmlinux ] && [ -n "$xk" ]; then
			[ "$got" != "$ref" ] && grep -q -- '--kallsyms' "$o/record.out" &&
				pass "%pS of vmlinux text in another kernel's boot: unresolved, record --last-boot warned naming --kallsyms ($got)" ||
				fail "%pS of vmlinux text in another kernel's boot: '$got' (boot 1: '$ref'), warning: $(grep -m1 kallsyms "$o/record.out")"
		else
			[ "$got" = "$ref" ] && pass "%pS of $kind text, boot 1's record read in boot 2 (record --last-boot): $got" ||
				fail "%pS of $kind text from prev.cap: '$got', boot 1's kernel printed '$ref'"
		fi
		if [ -z "$xk" ]; then
			got=$(sym_msgs $kind --kallsyms "$o/kallsyms-boot2.txt" "$img" | head -n 1)
			[ "$got" = "$ref" ] && pass "%pS of $kind text from the image with --kallsyms (boot 2's /proc/kallsyms): $got" ||
				fail "%pS of $kind text from the image with --kallsyms: '$got', boot 1's kernel printed '$ref'"
		fi
		got=$(sym_msgs $kind "$img" | head -n 1)
		if [ $kind = module ]; then
			[ "$got" = "$ref" ] && pass "%pS of module text from the image alone (the area's module map): $got" ||
				fail "%pS of module text from the image alone: '$got', the kernel prints '$ref'"
		else
			[ "$got" != "$ref" ] && grep -q -- '--kallsyms' "$o/sym.err" &&
				pass "%pS of vmlinux text from the image alone, another kernel on the host: unresolved, with a warning naming --kallsyms ($got)" ||
				fail "%pS of vmlinux text from the image alone: '$got', warning: $(grep -m1 kallsyms "$o/sym.err")"
		fi
	done
	a1=$(grep -a '^persist-boot1-module: logdev_test ' "$c1" | awk '{ print $7 }')
	a2=$(awk '$1 == "logdev_test" { print $6; exit }' "$o/modules-boot2.txt" 2> /dev/null)
	[ -n "$a1" ] && [ -n "$a2" ] && [ "$a1" != "$a2" ] &&
		pass "logdev_test's symbols were read at boot 1's address ($a1), the module at $a2 in boot 2" ||
		fail "logdev_test at '$a1' in boot 1 and '$a2' in boot 2: not shown to move"
	grep -aq '^persist-boot1: module_map: [1-9][0-9]* modules, 0 without symbols, 0 left out' "$c1" &&
		pass "boot 1's area held its module map: $(grep -a '^persist-boot1: module_map' "$c1" | tr -d '\r')" ||
		fail "boot 1's persist file: no full module map: '$(grep -a '^persist-boot1: module_map' "$c1")'"
fi

if [ "$mode" = corrupt ]; then
	# the sub-buffers the reader found corrupt are exactly those corrupted
	grep -o 'corrupt at byte [0-9]* (CPU [0-9]*, sub-buffer seq [0-9]*): .* seal CRC-32 mismatch' "$o/report.err" |
		sed 's/.*(CPU \([0-9]*\), sub-buffer seq \([0-9]*\)).*/\1 \2/' | sort > "$o/found.txt"
	sort "$o/corrupted.txt" > "$o/injected.txt"
	[ -s "$o/injected.txt" ] && cmp -s "$o/found.txt" "$o/injected.txt" &&
		pass "the reader found exactly the $(wc -l < "$o/injected.txt") sub-buffers corrupted (CRC-32 mismatch), no other" ||
		fail "corrupt sub-buffers: injected $(wc -l < "$o/injected.txt"), found $(wc -l < "$o/found.txt"): $(diff "$o/injected.txt" "$o/found.txt" | head -n 4 | tr '\n' '|')"
	# every record read from the corrupted area is one of the intact area's
	"$L" report --raw "$o/pristine.img" 2> /dev/null | grep -v '^LOST' | sort > "$o/pristine.raw"
	"$L" report --raw "$img" 2> /dev/null | grep -v '^LOST' | sort > "$o/area.raw"
	extra=$(comm -13 "$o/pristine.raw" "$o/area.raw" | wc -l)
	np=$(wc -l < "$o/pristine.raw") na=$(wc -l < "$o/area.raw")
	[ "$extra" = 0 ] && [ "$na" -gt 0 ] && [ "$na" -lt "$np" ] &&
		pass "records: $na of the intact area's $np recovered unchanged, $((np - na)) lost with the corrupted sub-buffers, none altered or invented" ||
		fail "records: $na read, $np in the intact area, $extra not among them"
	exit $failed
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
	# the window ends at the newest record of each CPU: the end noted comes
	# after the panic prints its report (2.3 s on 7.3 under TCG, while the
	# writers had stopped)
	for (c in newest) if (end_ts - newest[c] > late) late = end_ts - newest[c]
	ns = 0; lastsec = 0; lost = 0
	for (k in n) {
		ns++
		if (gaps[k]) { printf "stream %s: %d gaps, %d records missing\n", k, gaps[k], miss[k]; bad++ }
		split(k, kc, " ")
		for (q = first[k]; q <= last[k]; q++) if ((k, q) in rec && rec[k, q] >= newest[kc[1]] - 1) lastsec++
		lost += miss[k] + 1	# gaps, and one record in flight at most
	}
	if (ns < 8) { printf "only %d streams recovered\n", ns; bad++ }
	pct = lastsec + lost ? 100 * lastsec / (lastsec + lost) : 0
	printf "streams %d; last second before each CPU newest record (at most %.3f s before the end noted): %d records recovered, at most %d lost (%.2f%%); bad %d\n", ns, late, lastsec, lost, pct, bad
	exit (bad > 0 || pct < 99)
}' "$o/report.txt" > "$o/streams.txt"
src=$?
[ $src = 0 ] && pass "every stream recovered in order, no gap: $(tail -n 1 "$o/streams.txt")" ||
	fail "streams: $(head -n 5 "$o/streams.txt" | tr '\n' '|')"
# ftrace: the same calls through a kprobe event into boot_map, side by side
if [ "$mode" = ftrace ]; then
	# "CPU CTX SEQ TS" per record, from either recorder
	lastsec() {
		awk '{ k = $1 " " $2; n[k]++; if (k in last && $3 != last[k] + 1) gaps++; last[k] = $3
		       t[NR] = $4; c[NR] = $1; if ($4 > newest[$1]) newest[$1] = $4 }
		END { for (i = 1; i <= NR; i++) if (t[i] >= newest[c[i]] - 1) ls++
		      printf "%d records, %d streams, %d gaps; last second of each CPU: %d records\n", NR, length(n), gaps, ls }'
	}
	grep ' ctx=[0-9]* seq=[0-9]*' "$o/report.txt" |
		sed -n 's/^\[ *\([0-9.]*\)\] cpu:\([0-9]*\) .* ctx=\([0-9]*\) seq=\([0-9]*\).*/\2 \3 \4 \1/p' |
		lastsec > "$o/side-logdev.txt"
	# "[001] d.h.. 8.176846: ltrec: ... ctx=2 seq=42280", or on 7.3
	# "ctx=0x2 (2) seq=0xa528 (42280)"
	grep ' ltrec: ' "$o/ftrace.txt" 2> /dev/null |
		sed 's/=0x[0-9a-f]* (\([0-9-]*\))/=\1/g' |
		sed -n 's/.*\[\([0-9]*\)\] [^ ]* *\([0-9.]*\): ltrec: .* ctx=\([0-9-]*\) seq=\([0-9]*\).*/\1 \3 \4 \2/p' |
		awk '{ $1 = $1 + 0; print }' | lastsec > "$o/side-ftrace.txt"
	unk=$(grep -c 'Unknown type' "$o/ftrace-raw.txt" 2> /dev/null)
	echo "side by side, same calls, same panic: logdev $(cat "$o/side-logdev.txt"); ftrace boot_map $(cat "$o/side-ftrace.txt") (read before the kprobe event was defined again: ${unk:-0} 'Unknown type' lines)"
	# a module's address recorded before the reboot: ftrace's caller=
	# (symbol-typed, printed when read, logdev_test loaded again elsewhere)
	caller=$(grep -m 1 -o 'caller=[^ ]*' "$o/ftrace.txt" 2> /dev/null)
	echo "side by side, module symbols: logdev from the image alone: '$(sym_msgs module "$img" | head -n 1)'; ftrace boot_map's ltrec $caller (boot 1's own: $(grep -a -m 1 -o 'caller=[^ ]*' "$c1" | tr -d '\r'))"
	grep -q '^[1-9]' "$o/side-logdev.txt" && grep -q '^[1-9]' "$o/side-ftrace.txt" &&
		pass "side by side: logdev: $(cat "$o/side-logdev.txt"); ftrace: $(cat "$o/side-ftrace.txt")" ||
		fail "side by side: logdev '$(cat "$o/side-logdev.txt")', ftrace '$(head -c 200 "$o/ftrace.txt" | tr '\n' '|')'"
fi

exit $failed
