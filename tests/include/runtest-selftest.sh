#!/bin/sh
# runtest-selftest.sh: runtest.sh checked with programs that break the test
# protocol on purpose (exit status and FAIL lines that disagree, a crash, a
# hang).  Prints PASS:/FAIL: lines; exits non-zero if any check failed.
here=$(cd "$(dirname "$0")" && pwd)
failed=0

# expect NAME WANT_RC WANT_LAST_LINE CMD...: runtest.sh's exit status and last line
expect() {
	name=$1 want_rc=$2 want=$3
	shift 3
	got=$("$here/runtest.sh" "$@" 2>&1)
	rc=$?
	last=$(printf '%s\n' "$got" | tail -n 1)
	if [ "$rc" = "$want_rc" ] && [ "$last" = "$want" ]; then
		echo "PASS: runtest: $name"
	else
		echo "FAIL: runtest: $name: exit $rc (want $want_rc), last line '$last' (want '$want')"
		failed=$((failed + 1))
	fi
}

expect "non-zero exit without a FAIL line is a FAIL" 1 \
	"FAIL: t1: exited with status 3 and printed no FAIL line" t1 sh -c 'echo "PASS: a"; exit 3'
expect "a FAIL line with exit 0 is a FAIL" 1 \
	"FAIL: t2: printed 2 FAIL lines but exited 0" t2 sh -c 'echo "FAIL: a"; echo "FAIL: b"'
expect "a FAIL line and a non-zero exit agree: nothing added" 1 \
	"FAIL: a: why" t3 sh -c 'echo "FAIL: a: why"; exit 1'
expect "PASS lines and exit 0 agree: nothing added" 0 "PASS: a" t4 sh -c 'echo "PASS: a"'
expect "a crash is a FAIL" 1 \
	"FAIL: t5: exited with status 139 and printed no FAIL line" t5 sh -c 'kill -SEGV $$'
expect "a hang is a FAIL" 1 "FAIL: t6: did not finish in 1 s (hang)" --timeout 1 t6 sleep 30
[ $failed = 0 ]
