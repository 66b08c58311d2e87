#!/bin/bash
# logdev deltas --jobs N (deltas_par.c) prints byte for byte what one
# thread prints: stdout, stderr and exit status, for
# - every committed golden capture, with the options that keep several
#   threads (default, --by cpu, --sort max|count|p99) and those that take
#   the one-thread path (--by task, --cpu 0, --durations, --breakdown);
# - 60 damaged copies of each capture with more than one CPU: bytes
#   overwritten at spread offsets, and cuts at spread lengths (the damage
#   sends the threads' work back to one thread, whose warnings are the ones
#   printed, once).
#   tests/decode/cli/test_deltas_jobs.sh LOGDEV GOLDEN-CAP-DIR
set -uo pipefail
logdev=$(realpath -e "$1") || { echo "FAIL: deltas-jobs: no logdev at $1"; exit 1; }
capdir=$(realpath -e "$2") || { echo "FAIL: deltas-jobs: no capture dir $2"; exit 1; }
tmp=$(mktemp -d /tmp/logdev-jobs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0 checked=0

# same CAP OPTS...: -j 1 against -j $jobs (2, 3 and 8; damaged copies: 2)
jobs="2 3 8"
same() {
	local cap=$1 j a b; shift
	a=$("$logdev" deltas "$@" -j 1 "$cap" 2>&1; echo "exit $?")
	for j in $jobs; do
		b=$("$logdev" deltas "$@" -j "$j" "$cap" 2>&1; echo "exit $?")
		checked=$((checked + 1))
		if [ "$a" != "$b" ]; then
			echo "FAIL: deltas-jobs: $(basename "$cap") $* -j $j differs from -j 1:"
			diff <(echo "$a") <(echo "$b") | head -5
			failed=$((failed + 1))
		fi
	done
}

for gz in "$capdir"/*.cap.gz; do
	gzip -dc "$gz" > "$tmp/$(basename "$gz" .gz)"
done
multi=0
for cap in "$tmp"/*.cap; do
	for o in "" "--by cpu" "--sort max" "--sort count" "--sort p99" "--by task" \
		 "--cpu 0" "--durations" "--breakdown"; do
		# shellcheck disable=SC2086
		same "$cap" $o
	done
	cpus=$("$logdev" report --raw "$cap" 2>/dev/null | awk '{ print $2 }' | sort -u | wc -l)
	[ "$cpus" -gt 1 ] || continue
	multi=$((multi + 1))
	size=$(stat -c %s "$cap")
	jobs=2
	for k in $(seq 1 30); do
		off=$(( (size * k / 31 + k * 7) % size ))
		cp "$cap" "$tmp/bad.cap"
		printf '\xff\x00\xa5\x5a' | dd of="$tmp/bad.cap" bs=1 seek="$off" conv=notrunc 2>/dev/null
		same "$tmp/bad.cap"
		head -c "$(( size * k / 31 ))" "$cap" > "$tmp/cut.cap"
		same "$tmp/cut.cap"
	done
	jobs="2 3 8"
done
# the threads ran at all (else every comparison above is one thread's with itself)
if command -v strace > /dev/null; then
	threads() {	# JOBS CAP: threads started (clone calls; a sanitizer's own too)
		strace -f -e trace=clone,clone3 "$logdev" deltas -j "$1" "$2" 2>&1 >/dev/null |
			grep -c '^clone\|^\[pid.*clone'
	}
	for cap in "$tmp"/ctx-overwrite.cap "$tmp"/demo.cap; do
		n=$(( $(threads 2 "$cap") - $(threads 1 "$cap") ))
		want=$([ "$(basename "$cap")" = demo.cap ] && echo 0 || echo 2)
		checked=$((checked + 1))
		if [ "$n" != "$want" ]; then
			echo "FAIL: deltas-jobs: $(basename "$cap") -j 2 started $n threads more than -j 1 (want $want)"
			failed=$((failed + 1))
		fi
	done
else
	echo "note: deltas-jobs: no strace here, threads not counted"
fi
if [ "$multi" -lt 3 ]; then
	echo "FAIL: deltas-jobs: only $multi golden captures have more than one CPU (want 3 or more)"
	failed=$((failed + 1))
fi
[ "$failed" = 0 ] && echo "PASS: deltas-jobs: $checked runs with 2, 3 and 8 threads print what one thread prints (the damaged copies of $multi captures of several CPUs with 2)"
exit $((failed > 0))
