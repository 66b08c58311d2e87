#!/bin/sh
# runtest.sh [--timeout SECS] NAME CMD [ARGS...]: run one test program and
# make its FAIL lines and its exit status agree (docs/DEVELOPING.md, test
# protocol).  Its output (stdout and stderr) passes through unchanged; then:
#   - killed after SECS:  FAIL: NAME: did not finish in SECS s (hang)
#   - exited non-zero but printed no FAIL line (a crash, a sanitizer report,
#     an early exit):     FAIL: NAME: exited with status N and printed no FAIL line
#   - printed FAIL lines but exited 0:
#                         FAIL: NAME: printed N FAIL lines but exited 0
# Exits 0 only if CMD exited 0 and printed no FAIL line.  POSIX sh.
tmo=
if [ "${1:-}" = --timeout ]; then
	tmo=$2
	shift 2
fi
name=$1
shift
tmp=$(mktemp /tmp/logdev-runtest.XXXXXX) || exit 1
trap 'rm -f "$tmp" "$tmp.rc"' EXIT
# the status goes through a file: sh has no PIPESTATUS
if [ -n "$tmo" ]; then
	{ timeout -k 5 "$tmo" "$@" 2>&1; echo $? > "$tmp.rc"; } | tee "$tmp"
else
	{ "$@" 2>&1; echo $? > "$tmp.rc"; } | tee "$tmp"
fi
rc=$(cat "$tmp.rc" 2>/dev/null || echo missing)
nfail=$(grep -c '^FAIL: ' "$tmp")
if [ -n "$tmo" ] && { [ "$rc" = 124 ] || [ "$rc" = 137 ]; }; then
	echo "FAIL: $name: did not finish in $tmo s (hang)"
	exit 1
fi
if [ "$rc" != 0 ] && [ "$nfail" = 0 ]; then
	echo "FAIL: $name: exited with status $rc and printed no FAIL line"
	exit 1
fi
if [ "$rc" = 0 ] && [ "$nfail" != 0 ]; then
	echo "FAIL: $name: printed $nfail FAIL lines but exited 0"
	exit 1
fi
[ "$rc" = 0 ]
