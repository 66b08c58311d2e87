#!/bin/bash
# Golden outputs of the reader: each line of `cases` is a logdev command run
# on the committed captures in cap/ (gzip'd; unpacked to a temporary
# directory first); its stdout, stderr and exit status must equal
# expected/NAME.out.gz (gzip'd) byte for byte.  cap/*.img.gz are raw
# flight-recorder areas (a previous boot's buffer), unpacked the same way.
#   tests/golden/run.sh [--update] [LOGDEV]
# --update rewrites expected/ from the current reader (review the diff: every
# change must be a deliberate fix, named in the commit message).
# LOGDEV defaults to userspace/logdev.  Prints PASS:/FAIL: lines; exits
# non-zero if any failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
update=
[ "${1:-}" = --update ] && { update=1; shift; }
logdev=${1:-$here/../../userspace/logdev}
# the cases run in a temporary directory: the reader's path must not be relative
logdev=$(realpath -e -- "$logdev" 2>/dev/null) && [ -x "$logdev" ] || {
	echo "FAIL: golden: no executable reader at '${1:-userspace/logdev}' (make -C userspace)"
	exit 1
}
tmp=$(mktemp -d /tmp/logdev-golden.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0

# captures, and raw flight-recorder area images (*.img.gz) that the reader reads too
for gz in "$here"/cap/*.cap.gz "$here"/cap/*.img.gz; do
	[ -f "$gz" ] || continue
	gzip -dc "$gz" > "$tmp/$(basename "$gz" .gz)"
done
mkdir -p "$here/expected"

while read -r name cmd; do
	case $name in ''|'#'*) continue ;; esac
	# shellcheck disable=SC2086
	args=$(echo $cmd | sed "s#CAP/##g")
	# shellcheck disable=SC2086
	(cd "$tmp" && "$logdev" $args > "$tmp/out" 2> "$tmp/err"; echo "exit $?" > "$tmp/rc")
	{
		cat "$tmp/out"
		echo "--- stderr"
		sed "s#$tmp/##g" "$tmp/err"
		echo "--- $(cat "$tmp/rc")"
	} > "$tmp/got"
	exp=$here/expected/$name.out.gz
	if [ -n "$update" ]; then
		gzip -9nc "$tmp/got" > "$exp"
		echo "PASS: golden: $name: updated"
	elif [ ! -f "$exp" ]; then
		echo "FAIL: golden: $name: no expected/$name.out.gz (run.sh --update)"
		failed=$((failed + 1))
	elif gzip -dc "$exp" | cmp -s - "$tmp/got"; then
		echo "PASS: golden: $name: logdev $cmd"
	else
		echo "FAIL: golden: $name: logdev $cmd differs from expected/$name.out.gz:"
		gzip -dc "$exp" | diff - "$tmp/got" | head -n 10 | sed 's/^/    /'
		failed=$((failed + 1))
	fi
done < "$here/cases"
[ $failed = 0 ]
