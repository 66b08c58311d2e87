#!/bin/bash
# Host side of the recorder-past-its-limit test (guest-reclimit.sh), beside
# check-contexts.sh's exact accounting of each mode's capture:
#   check-reclimit.sh DIR NAME
# - the recorder drained while the writers ran (the capture holds more than
#   twice the buffer of every CPU), and still lost records (past its limit);
# - the accounting can fail: the same check on a copy of each capture with
#   one sub-buffer's loss count zeroed (a loss not counted) must FAIL.
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/vm/lib.sh"
P=$name

# tamper IN OUT: OUT is IN with the first non-zero dropped_before or
# overrun_before of a CPU_DATA sub-buffer set to 0; prints what it changed
tamper() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
sbs = None
off = 16
done = None
while off + 16 <= len(b) and done is None:
    typ, cpu, ln = struct.unpack_from('<IIQ', b, off)
    data = off + 16
    if typ == 1:            # HEADER: subbuf_size
        for line in bytes(b[data:data + ln]).decode(errors='replace').splitlines():
            if line.startswith('subbuf_size:'):
                sbs = int(line.split(':')[1])
    if typ == 5 and sbs:    # CPU_DATA: dropped_before at 32, overrun_before at 36
        for sb in range(data, data + ln - 47, sbs):
            for fo, kind in ((32, 'dropped'), (36, 'overrun')):
                v = struct.unpack_from('<I', b, sb + fo)[0]
                if v and done is None:
                    struct.pack_into('<I', b, sb + fo, 0)
                    done = '%s_before %d of cpu %d zeroed (byte %d)' % (kind, v, cpu, sb + fo)
    off = data + ln
open(sys.argv[2], 'wb').write(b)
print(done or 'nothing to zero')
PY
}

for mode in discard overwrite; do
	d=$dir/$mode
	if [ ! -s "$d/ctx.cap" ]; then
		fail "$mode: no capture came back"
		continue
	fi
	kb=$(sed -n 's/^buffer_size_kb=//p' "$d/config.txt")
	cpus=$(sed -n 's/^cpus=//p' "$d/config.txt")
	size=$(stat -c %s "$d/ctx.cap")
	lost=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "=");
		if (kv[1] ~ /^(overrun|dropped|nesting_lost|too_big)$/) s += kv[2] } } END { print s + 0 }' "$d/stats.txt")
	check "$mode: the recorder drained while the writers ran ($size bytes, buffers $cpus x $kb KiB)" \
		"$size bytes is not more than twice the buffers" test "$size" -gt $((2 * cpus * kb * 1024))
	check "$mode: past the recorder's limit: $lost records lost" "nothing lost: the test did not drive the recorder past its limit" \
		test "$lost" -gt 0
	t=$dir/$mode-tampered
	rm -rf "$t"
	cp -r "$d" "$t"
	what=$(tamper "$d/ctx.cap" "$t/ctx.cap")
	if LOGDEV="${LOGDEV:-$top/userspace/logdev}" "$top/tests/vm/check-contexts.sh" "$t" "$name-$mode-tampered" > "$t/check.out" 2>&1; then
		fail "$mode: the accounting check passed a capture with a loss not counted ($what)"
	elif grep -q "^FAIL: .*read + lost == written" "$t/check.out"; then
		pass "$mode: the accounting check fails on a loss not counted ($what)"
	else
		fail "$mode: the tampered capture ($what) failed, but not on read + lost == written: $(grep -m 2 '^FAIL' "$t/check.out" | tr '\n' '|')"
	fi
done
exit $((fails > 0))
