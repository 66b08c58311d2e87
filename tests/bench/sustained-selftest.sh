#!/bin/bash
# The sustained bench's tables and verdicts (bench/kernel/sustained.sh
# --tables, bench/kernel/sustained-tables.awk) on hand-made results dirs, no
# VM: a good idle run must print MET for each target in each mode, and each
# fault must turn exactly its verdict: a loaded host (load before, or other
# processes during the boot) prints LOADED and never MET; a rate whose
# confirming run lost records is not held; a rate with one run only is not
# held; the CPU and drain targets missed; writers short of the rate named
# with their ceiling.
# Prints PASS:/FAIL: lines; exits non-zero if any check failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
S=$top/bench/kernel/sustained.sh
tmp=$(mktemp -d /tmp/logdev-sbench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
nfail=0
pass() { echo "PASS: bench-sustained: $*"; }
fail() { echo "FAIL: bench-sustained: $*"; nfail=$((nfail + 1)); }

# run MODE TOOL RATE PHASE RESULT [USR SYS]: one run's line, 1000 ms, 2 CPUs;
# RESULT: clean, lost, short, missing
run() {
	local w=$(($3 * 2)) reached=$3 infile lost=0 clean=no
	infile=$w
	case $5 in
	clean) clean=yes reason=ok ;;
	lost) lost=500 infile=$((w - 500)) reason=lost ;;
	short) reached=$(($3 / 2)) w=$3 infile=$3 reason=short ;;
	missing) infile=$((w - 7)) reason=missing ;;
	esac
	echo "$1 $2 $3 $4 $w $reached 0 $infile $lost 0 ${6:-0.10} ${7:-0.20} 50 $clean $reason" >> "$d/sustained.txt"
}
# held MODE TOOL RATE PHASE [USR SYS]: two clean runs
held() { run "$1" "$2" "$3" "$4" clean "${5:-}" "${6:-}"; run "$1" "$2" "$3" confirm clean "${5:-}" "${6:-}"; }

# good: logdev holds 128000 (2x 64000 for trace-cmd) in both modes; at
# 64000 logdev uses 0.30 s for 128,000 records, trace-cmd 0.80 s
# (0.375x: 2.344 and 6.250 ms per 1,000); drain 1.2x dd
good() {
	d=$tmp/d
	rm -rf "$d"
	mkdir -p "$d"
	echo "1000 1024 16000 1 discard,overwrite 4096 ${1:-0.20} 0.30 0.40 1.90 1.20 0.80 300 ${2:-0.05} 2" > "$d/load.txt"
	echo 6.1.0-test > "$d/uname.txt"
	echo 2 > "$d/nproc.txt"
	echo "trace-cmd version 3.1.6" > "$d/trace-cmd-version.txt"
	printf 'logdev 3000000 6000000 100\ntrace-cmd 400000 800000 100\n' > "$d/ceiling.txt"
	printf 'discard logdev 1000 600 400 5\ndiscard trace-cmd 1000 600 400 0\noverwrite logdev 1000 610 400 12\noverwrite trace-cmd 1000 600 0 0\n' > "$d/losscheck.txt"
	: > "$d/sustained.txt"
	for m in discard overwrite; do
		for r in 16000 32000; do held $m logdev $r ladder; held $m trace-cmd $r ladder; done
		held $m logdev 64000 ladder 0.10 0.20
		held $m trace-cmd 64000 ladder 0.30 0.50
		held $m logdev 128000 ladder
		run $m trace-cmd 128000 ladder lost
		run $m logdev 256000 ladder lost
		run $m trace-cmd 90000 bisect lost
		run $m logdev 180000 bisect lost
		# 4 MiB, per 4 KiB: dd 10 us, record 12 us
		printf '%s logdev-read-devnull 4194304 0.00 0.01\n%s logdev-read-tmpfs 4194304 0.00 0.01024\n' $m $m >> "$d/profile.txt"
		printf '%s logdev-read-tmpfs 4194304 0.00 0.0200\n%s logdev-record 8388608 0.00 0.024576\n' $m $m >> "$d/profile.txt"
	done
	printf -- '- logdev-record-idle-3s 0 0.00 0.01\n- trace-cmd-record-idle-3s 0 0.00 0.02\n' >> "$d/profile.txt"
}
tables() { "$S" --tables "$d" > "$tmp/out" 2>&1; }
# want WHAT PATTERN...: every PATTERN (grep -E) in the output
want() {
	local what=$1 p
	shift
	for p in "$@"; do
		grep -qE -- "$p" "$tmp/out" || { fail "$what: no line matching '$p': $(grep VERDICT "$tmp/out" | tr '\n' '|')"; return; }
	done
	pass "$what"
}
count() { grep -cE -- "$1" "$tmp/out"; }

good
if tables && [ "$(count '^VERDICT .*: MET')" = 6 ] && [ "$(count 'MISSED|LOADED')" = 0 ]; then
	pass "good run: six MET, no MISSED, no LOADED"
else
	fail "good run: $(grep -E 'VERDICT|LOADED' "$tmp/out" | tr '\n' '|')"
fi
want "good run: the figures" 'VERDICT discard rate: logdev 128,000 / trace-cmd 64,000 = 2.00x' \
	'VERDICT overwrite cpu: at 64,000/s logdev record 2.344 ms / trace-cmd record 6.250 ms per 1,000 records = 0.38x' \
	'VERDICT discard drain: logdev record 12.0 us / dd to the initramfs 10.0 us per 4 KiB sub-buffer = 1.20x' \
	'Host idle' '^ +128,000 +clean, clean: held +lost 500 ' \
	'^  discard +logdev +1000 +600 +400 exact$' '^  overwrite +logdev +1000 +610 +400 exact \(10 comm records among the lost\)$' \
	'^  overwrite +trace-cmd .* nothing lost: nothing checked$'
# loss counts that do not add up: trace-cmd 1 over, logdev beyond its comm records
sed -i 's/^discard trace-cmd 1000 600 400 0/discard trace-cmd 1000 601 400 0/; s/^overwrite logdev 1000 610 400 12/overwrite logdev 1000 613 400 12/' "$d/losscheck.txt"
tables
want "loss counts not adding up: NOT exact" '^  discard +trace-cmd .* NOT exact: in file \+ lost - written = 1$' \
	'^  overwrite +logdev .* NOT exact: in file \+ lost - written = 13$'

good 1.00
tables
if [ "$(count 'MET')" = 0 ] && [ "$(count '^VERDICT .*: LOADED')" = 6 ] && grep -q '^LOADED: ' "$tmp/out"; then
	pass "load1 before 1.00: LOADED, no MET"
else
	fail "load1 before 1.00: $(grep -E 'VERDICT|LOADED' "$tmp/out" | tr '\n' '|')"
fi
good 0.20 0.25
tables
if [ "$(count 'MET')" = 0 ] && [ "$(count '^VERDICT .*: LOADED')" = 6 ]; then
	pass "others 0.25 cores during the boot: LOADED, no MET"
else
	fail "others 0.25 cores: $(grep -E 'VERDICT|LOADED' "$tmp/out" | tr '\n' '|')"
fi

# logdev's confirming run at 128000 lost records (discard): 128000 not held
good
sed -i '/^discard logdev 128000 confirm/s/ 0 256000 0 0 0.10 0.20 50 yes ok$/ 0 255500 500 0 0.10 0.20 50 no lost/' "$d/sustained.txt"
tables
want "confirming run lost: not held, rate MISSED in that mode only" \
	'VERDICT discard rate: logdev 64,000 / trace-cmd 64,000 = 1.00x .*: MISSED' 'VERDICT overwrite rate: .*: MET' \
	'logdev +highest rate held: 64,000/s per CPU; first not held 128,000: lost' '^ +128,000 +clean, lost 500 '
# a rate with one clean run only (overwrite): not held
good
sed -i '/^overwrite logdev 128000 confirm/d' "$d/sustained.txt"
tables
want "one run only: not held" 'VERDICT overwrite rate: logdev 64,000 / trace-cmd 64,000 = 1.00x .*: MISSED' 'VERDICT discard rate: .*: MET'
# trace-cmd cheaper than half of logdev at 64000 (discard): cpu MISSED
good
sed -i '/^discard trace-cmd 64000 /s/ 0.30 0.50 50 / 0.10 0.10 50 /' "$d/sustained.txt"
tables
want "cpu ratio 1.50x: MISSED" 'VERDICT discard cpu: at 64,000/s .* = 1.50x \(target <= 0.5x\): MISSED' 'VERDICT overwrite cpu: .*: MET'
# the drain at 2x dd (overwrite)
good
sed -i 's/^overwrite logdev-record 8388608 0.00 0.024576/overwrite logdev-record 8388608 0.00 0.04096/' "$d/profile.txt"
tables
want "drain 2.00x dd: MISSED" 'VERDICT overwrite drain: .* = 2.00x \(target <= 1.5x\): MISSED' 'VERDICT discard drain: .*: MET'
# logdev's writers short at 256000 with nothing lost: named, with the ceiling
good
sed -i '/^discard logdev 256000 /d; /^discard logdev 180000 /d' "$d/sustained.txt"
d=$d run discard logdev 256000 ladder short
tables
want "writers short: named with their ceiling" \
	'logdev +highest rate held: 128,000/s per CPU; first not held 256,000: writers short, nothing lost: they reached 128,000/s, below their ceiling with no recorder \(3,000,000/s\)' \
	"VERDICT discard rate: .*: MET; logdev's limit: its writers short of the rate"
sed -i 's/^logdev 3000000 /logdev 150000 /' "$d/ceiling.txt"
tables
want "writers short at their ceiling" 'first not held 256,000: writers short, nothing lost: they reached 128,000/s, at their ceiling with no recorder \(150,000/s\)'
# records missing from the file: not clean
good
sed -i '/^overwrite trace-cmd 32000 confirm/s/ 64000 0 0 0.10/ 63993 0 0 0.10/; /^overwrite trace-cmd 32000 confirm/s/ yes ok$/ no missing/
	/^overwrite trace-cmd \(64000\|128000\|90000\) /d' "$d/sustained.txt"
tables
want "records missing from the file: not held" 'trace-cmd +highest rate held: 16,000/s per CPU; first not held 32,000: missing' \
	'VERDICT overwrite cpu: at 16,000/s'
[ -n "${KEEP:-}" ] && cp -r "$d" "$KEEP"
exit $((nfail > 0))
