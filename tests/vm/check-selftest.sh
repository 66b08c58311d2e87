#!/bin/bash
# The host-side checkers (tests/vm/check-*.sh) tested without a VM: each is
# fed hand-made guest results and a fake `logdev` (LOGDEV=) printing a
# hand-made `report --raw`, once as a good run (no FAIL line, exit 0) and
# once per fault (a FAIL line naming it, exit non-zero).  A checker whose
# FAIL lines and exit status disagree fails here.
# Prints PASS:/FAIL: lines; exits non-zero if any check failed.
set -uo pipefail
vm=$(cd "$(dirname "$0")" && pwd)
. "$vm/lib.sh"
P=vm-checks
tmp=$(mktemp -d /tmp/logdev-vmcheck.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the fake logdev: `report --raw FILE` prints $tmp/raw, and $tmp/raw.err on
# stderr; `report FILE` prints $tmp/text if there is one, else $tmp/raw;
# exits $tmp/rc if there is one, else 0
cat > "$tmp/logdev" <<'FAKE'
#!/bin/sh
d=$(dirname "$0")
if [ "$2" != --raw ] && [ -f "$d/text" ]; then cat "$d/text"; else cat "$d/raw"; fi
[ -f "$d/raw.err" ] && cat "$d/raw.err" >&2
[ -f "$d/rc" ] && exit "$(cat "$d/rc")"
exit 0
FAKE
chmod +x "$tmp/logdev"

# expect CHECKER WHAT WANT_FAIL_TEXT: run tests/vm/CHECKER on $tmp/dir;
# WANT_FAIL_TEXT empty: a good run, no FAIL line and exit 0; else a FAIL
# line containing it and a non-zero exit
expect() {
	local checker=$1 what=$2 want=$3 out rc nfail
	out=$(LOGDEV=$tmp/logdev "$vm/$checker" "$tmp/dir" t 2>&1)
	rc=$?
	nfail=$(printf '%s\n' "$out" | grep -c '^FAIL: ')
	if [ -z "$want" ]; then
		if [ "$rc" = 0 ] && [ "$nfail" = 0 ]; then
			pass "$checker: $what: no FAIL line, exit 0"
		else
			fail "$checker: $what: exit $rc, $nfail FAIL lines: $(printf '%s\n' "$out" | grep '^FAIL: ' | head -n 2 | tr '\n' '|')"
		fi
	elif [ "$rc" != 0 ] && printf '%s\n' "$out" | grep '^FAIL: ' | grep -qF -- "$want"; then
		pass "$checker: $what: FAIL line and non-zero exit"
	else
		fail "$checker: $what: exit $rc, FAIL lines: $(printf '%s\n' "$out" | grep '^FAIL: ' | head -n 2 | tr '\n' '|') (want one with '$want' and a non-zero exit)"
	fi
}

# check-printf.sh: two table entries, the too-big raw record counted lost
printf_case() {
	rm -rf "$tmp/dir" "$tmp/raw.err" "$tmp/text" "$tmp/rc"
	mkdir -p "$tmp/dir"
	echo cap > "$tmp/dir/printf.cap"
	printf '# raw_big=-7\n0\thello\n1\tworld 5\n' > "$tmp/dir/printf_ref.txt"
	printf 'cpu=0 written=3 too_big=1\n' > "$tmp/dir/printf_stats.txt"
	printf '1\t0\t1\ttask\t1\tlt_printf_table\t10\thello\n1\t0\t1\ttask\t1\tlt_printf_table\t10\tworld 5\nLOST\t0\t1\ttoo_big\n' > "$tmp/raw"
	# lt_oddfiles: file names with a tab, quote and newline, escaped in
	# formats; the fake prints the same text for `report` (named sites)
	printf '7\tdir\\twith tab/we\\"ird,name.c\t500\tlt_oddfiles\toddfile %%d\n8\tnew\\nline.c\t500\tlt_oddfiles\tnlfile %%d\n' > "$tmp/dir/formats.txt"
	printf 'x dir\\twith tab/we"ird,name.c:lt_oddfiles:500 oddfile 7\nx new\\nline.c:lt_oddfiles:500 nlfile 7\n' >> "$tmp/raw"
}
printf_case
expect check-printf.sh "good run" ""
printf_case
echo "warning: something odd at offset 64" > "$tmp/raw.err"
expect check-printf.sh "decoder warning" "decoder warnings"
printf_case
echo "logdev: warning: lost events: cpu:0 1 (too_big 1)" > "$tmp/raw.err"
echo 3 > "$tmp/rc"
expect check-printf.sh "the too-big record's lost-events line, exit 3" ""
rm -f "$tmp/rc"
printf_case
sed -i 's/world 5/world 6/' "$tmp/raw"
expect check-printf.sh "an entry differs" "entry 1"
printf_case
printf 'cpu=0 written=3 too_big=0\n' > "$tmp/dir/printf_stats.txt"
expect check-printf.sh "too_big not counted" "too_big"
printf_case
sed -i 's/\ttoo_big$/\tdropped/' "$tmp/raw"
expect check-printf.sh "too-big record reported as dropped" "capture shows 0 too_big"
printf_case
sed -i 's/new\\nline/new line/' "$tmp/dir/formats.txt"
expect check-printf.sh "a file name not escaped in formats" "formats lacks"

# check-comm.sh: tags 0-4, each from task, hardirq and NMI context
comm_case() {
	rm -rf "$tmp/dir" "$tmp/raw.err" "$tmp/text"
	mkdir -p "$tmp/dir"
	echo cap > "$tmp/dir/comm.cap"
	printf 'pid vmtool=50 lt_alpha=60\nPASS: vm-comm: x\n' > "$tmp/dir/comm.txt"
	for t in 0 1 2 3 4; do
		case $t in 0|4) w=vmtool-50 ;; 1) w=lt_alpha-60 ;; 2) w=lt_beta-60 ;; 3) w=lt_renamed-60 ;; esac
		for c in 0 2 3; do
			x=; [ $c = 2 ] && x=" hardirq"; [ $c = 3 ] && x=" nmi"
			echo "[     1.00000$t] cpu:1 $w$x lt_comm_write:9 comm tag=$t ctx=$c"
		done
	done > "$tmp/text"
	: > "$tmp/raw"
}
comm_case
expect check-comm.sh "good run" ""
comm_case
sed -i 's/lt_beta-60 hardirq/lt_alpha-60 hardirq/' "$tmp/text"
expect check-comm.sh "old name after pid reuse" "tag 2 hardirq: lt_beta-60"
comm_case
sed -i '/tag=3 ctx=3/d' "$tmp/text"
expect check-comm.sh "a record missing" "tag 3 ctx 3: 0 records"

# check-contexts.sh: one CPU, a record from each context, one overrun
ctx_case() {
	rm -rf "$tmp/dir" "$tmp/raw.err" "$tmp/text" "$tmp/rc"
	mkdir -p "$tmp/dir"
	echo cap > "$tmp/dir/ctx.cap"
	printf 'cpu=0 ctx=0 written=2\ncpu=0 ctx=1 written=1\ncpu=0 ctx=2 written=1\ncpu=0 ctx=3 written=1\nnmi_sent=1 nmi_seen=1\n' > "$tmp/dir/counts.txt"
	printf 'cpu=0 written=6 read=5 overrun=1 dropped=0 nesting_lost=0 too_big=0 bytes=128 comm=1\n' > "$tmp/dir/stats.txt"
	printf 'mode=overwrite\nrecord_rc=0\n' > "$tmp/dir/config.txt"
	printf '[     0.000001] cpu:0 *** LOST 1 events (overrun) ***\n[     0.000001] cpu:0 logdev_test/0-1 lt_record:10 ctx=0 seq=1\n[     0.000002] cpu:0 pid:0 softirq lt_record:10 ctx=1 seq=0\n' > "$tmp/text"
	printf 'LOST\t0\t1\toverrun\n1\t0\t1\ttask\t0\t<comm>\t0\tlogdev_test/0\n1\t0\t1\ttask\t1\tlt_record\t10\tctx=0 seq=1\n2\t0\t0\tsoftirq\t1\tlt_record\t10\tctx=1 seq=0\n3\t0\t0\thardirq\t1\tlt_record\t10\tctx=2 seq=0\n4\t0\t0\tnmi\t1\tlt_record\t10\tctx=3 seq=0\n' > "$tmp/raw"
}
ctx_case
expect check-contexts.sh "good run" ""
ctx_case
sed -i 's/record_rc=0/record_rc=1/' "$tmp/dir/config.txt"
expect check-contexts.sh "record exited 1" "logdev.static record"
ctx_case
echo "warning: something odd at offset 64" > "$tmp/raw.err"
expect check-contexts.sh "decoder warning" "decoder warnings"
# issue 12: lost events are a warning, exit 3, in every verb: the one
# warning a loss test expects; another one beside it still fails
ctx_case
echo "logdev: warning: lost events: cpu:0 1 (overrun 1)" > "$tmp/raw.err"
echo 3 > "$tmp/rc"
expect check-contexts.sh "lost events: exit 3 with the lost-events line" ""
ctx_case
printf 'logdev: warning: lost events: cpu:0 1 (overrun 1)\nlogdev: warning: corrupt at byte 64: x\n' > "$tmp/raw.err"
echo 3 > "$tmp/rc"
expect check-contexts.sh "lost events and another warning" "decoder warnings"
ctx_case
echo 1 > "$tmp/rc"
expect check-contexts.sh "report exit 1" "exited 1"
rm -f "$tmp/rc"
ctx_case
sed -i 's/read=5/read=4/' "$tmp/dir/stats.txt"
expect check-contexts.sh "stats read differs" "stats read == records in capture"
ctx_case
sed -i 's/comm=1/comm=0/' "$tmp/dir/stats.txt"
expect check-contexts.sh "comm record read but not counted" "stats written == calls made + comm records"
ctx_case
sed -i '/LOST/d' "$tmp/text"
expect check-contexts.sh "a record without a name, no loss before it" "records without a name"
ctx_case
sed -i 's/\toverrun$/\tnesting_lost/' "$tmp/raw"
expect check-contexts.sh "loss reported under another cause" "LOST overrun == stats overrun"
ctx_case
sed -i 's/\toverrun$/\tlost/' "$tmp/raw"
expect check-contexts.sh "v1 kind lost in a v2 capture" "every loss counted in records"

# check-dump.sh (sysrq, 10 "seq", 6 "other" + 1 "vbin", the last 6 of each):
# a hand-made console with the two CPUs alternating every 5 us
dump_case() {
	mkdir -p "$tmp/dump"
	awk 'BEGIN {
		print "PASS: g: dump_on_oops is off by default"
		print "logdev-dump-test: recorded 10 6"
		print "[    5.000000] sysrq: logdev: dump of the last records of every CPU"
		print "[    5.000000] logdev: dump begin (sysrq): 2 cpus, last 6 records per cpu, clock local, mode overwrite"
		print "[    5.000000] logdev: dump cpu:0 records=10 shown=6 written=11 overrun=0 dropped=0 nesting_lost=0 too_big=0"
		print "[    5.000000] logdev: dump cpu:1 records=7 shown=6 written=8 overrun=0 dropped=0 nesting_lost=0 too_big=0"
		for (j = 0; j < 6; j++) {
			printf "[    5.000000] logdev: [     1.%06d] cpu:0 kworker/0:1H-41 lt_dump_fn:741 seq %d  +10.000 us\n", 100 + 10 * j, 4 + j
			k = 1 + j
			msg = k < 6 ? sprintf("other %d %s %c -%d000000000000 %d %d", k, k % 2 ? "odd" : "even", 97 + k, k, k % 100 - 50, k - 1000) : \
				"vbin 6 -7 -300 lt_dump_fn+0x0/0x4f0 [logdev_test]"
			printf "[    5.000000] logdev: [     1.%06d] cpu:1 kworker/1:1H-58 lt_dump_fn:%d %s  +10.000 us\n", 105 + 10 * j, k < 6 ? 748 : 752, msg
		}
		print "[    5.000000] logdev: dump end (sysrq): 12 records printed"
		print "logdev-dump-test: sysrq done"
		print "[    6.000000] Oops: 0002 [#1] PREEMPT SMP NOPTI"
		print "[    6.100000] Kernel panic - not syncing: Fatal exception"
	}' > "$tmp/dump/console.log"
}
dexpect() {
	local what=$1 want=$2 out rc nfail
	out=$("$vm/check-dump.sh" "$tmp/dump" t sysrq 10 6 6 2>&1)
	rc=$?
	nfail=$(printf '%s\n' "$out" | grep -c '^FAIL: ')
	if [ -z "$want" ]; then
		if [ "$rc" = 0 ] && [ "$nfail" = 0 ]; then
			pass "check-dump.sh: $what: no FAIL line, exit 0"
		else
			fail "check-dump.sh: $what: exit $rc, $nfail FAIL lines: $(printf '%s\n' "$out" | grep '^FAIL: ' | head -n 2 | tr '\n' '|')"
		fi
	elif [ "$rc" != 0 ] && printf '%s\n' "$out" | grep '^FAIL: ' | grep -qF -- "$want"; then
		pass "check-dump.sh: $what: FAIL '$want', exit $rc"
	else
		fail "check-dump.sh: $what: want a FAIL line with '$want' and exit != 0, got exit $rc: $(printf '%s\n' "$out" | grep '^FAIL: ' | head -n 2 | tr '\n' '|')"
	fi
}
dump_case
dexpect "good dump" ""
dump_case
sed -i '/ seq 6  /d' "$tmp/dump/console.log"
dexpect "a record missing" "cpu 0: seq 4..9 exactly, in order"
dump_case
sed -i 's/ other 3 odd d -3000000000000 / other 3 odd e -3000000000000 /' "$tmp/dump/console.log"
dexpect "a slots record's text wrong" "cpu 1: other"
dump_case
sed -i 's/ seq 7  +10.000 us/ seq 7  +30.000 us/' "$tmp/dump/console.log"
dexpect "a delta wrong" "each delta is the step between the timestamps"
dump_case
sed -i 's/1\.000130\] cpu:0/1.000170] cpu:0/' "$tmp/dump/console.log"
dexpect "out of time order" "merged in time order across cpus"
dump_case
sed -i 's/dump cpu:0 records=10 shown=6/dump cpu:0 records=10 shown=5/' "$tmp/dump/console.log"
dexpect "header count wrong" "cpu 0 header: records=10 shown=6"
dump_case
sed -i 's/^logdev-dump-test: sysrq done$/&\n[    5.500000] logdev: dump begin (oops): 2 cpus, last 6 records per cpu, clock local, mode overwrite/' "$tmp/dump/console.log"
dexpect "a dump after the oops with dump_on_oops off" "exactly one dump (sysrq)"

# lines_of (run-tests.sh's guest lines): every PASS/FAIL line of a guest.log,
# whatever bytes it holds (a probe name refused for its byte 0xff), CR removed
printf 'PASS: g: a\r\nPASS: g: refuses '"'"'p:caf\377=f'"'"'\r\nFAIL: g: bad \376\r\nnoise\r\n' > "$tmp/guest.log"
got=$(lines_of "$tmp/guest.log" 2>&1 | od -An -c | tr -s ' \n' ' ')
want=$(printf 'PASS: g: a\nPASS: g: refuses '"'"'p:caf\377=f'"'"'\nFAIL: g: bad \376\n' | od -An -c | tr -s ' \n' ' ')
check_eq "lines_of: PASS/FAIL lines of a guest.log with any bytes, CR removed" "$got" "$want"

finish
