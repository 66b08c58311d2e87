#!/bin/bash
# tests/vm/persist-all.sh: `make check-persist`, the flight recorder's long
# test (docs/CRASHDUMP.md): every ending of tests/vm/guest-persist.sh (panic,
# nmi, oops, reset, reboot, corrupt) on 6.1 and on the newest kernel of the
# matrix (PERSIST_KERNELS), ftrace's persistent instance beside logdev's and
# a reserve_mem= area on the newest, and the warm reset from 6.1 into the newest; then one table:
# per kernel and ending, the records of the last second before each CPU's
# newest record that came back, the most that can have been lost, and the
# corruption counts.  PASS:/FAIL: lines as make check's; exit 1 on a FAIL.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
base=${VM_OUT:-$top/tests/vm/out}-persist
failed=0
for k in ${PERSIST_KERNELS:-6.1 newest}; do
	modes="panic nmi oops reset reboot corrupt"
	groups="vm-persist-panic vm-persist-nmi vm-persist-oops vm-persist-reset vm-persist-reboot vm-persist-corrupt"
	case $k in
	6.1) groups="$groups vm-persist-xkernel" ;;
	*) modes="$modes ftrace resmem"; groups="$groups vm-persist-ftrace vm-persist-resmem" ;;
	esac
	VM_OUT=$base-$k LOGDEV_KVER=$k VM_ONLY="$groups" VM_PERSIST="$modes" \
		"$top/tests/vm/run-tests.sh" 2>&1 | sed "s/^\(PASS\|FAIL\|SKIP\): /\1: [$k] /"
	[ "${PIPESTATUS[0]}" = 0 ] || failed=1
done
echo
echo "Flight recorder: records of the last second before each CPU's newest record (4 CPUs, 4 MiB area, writers in 4 contexts)"
printf '%-8s %-9s %-10s %12s %10s %9s  %s\n' kernel ending end-noted recovered "lost<=" share corruption
for k in ${PERSIST_KERNELS:-6.1 newest}; do
	for d in "$base-$k"/vm-persist-*/; do
		[ -f "$d/streams.txt" ] || [ -f "$d/injected.txt" ] || continue
		m=$(basename "$d"); m=${m#vm-persist-}
		end=$(grep -ho 'ended: [a-z]*' "$d/report.err" 2> /dev/null | head -n 1 | cut -d' ' -f2)
		line=$(tail -n 1 "$d/streams.txt" 2> /dev/null)
		rec=$(sed -n 's/.*: \([0-9]*\) records recovered.*/\1/p' <<< "$line")
		[ -n "$rec" ] || rec=$(sed -n 's/.*records recovered \([0-9]*\) of.*/\1/p' <<< "$line")
		lost=$(sed -n 's/.*at most \([0-9]*\) lost.*/\1/p' <<< "$line")
		pct=$(sed -n 's/.*lost (\([0-9.]*%\)).*/\1/p' <<< "$line")
		cor=-
		[ -f "$d/injected.txt" ] &&
			cor="$(wc -l < "$d/injected.txt") injected, $(grep -c . "$d/found.txt" 2> /dev/null) found (warnings shown)"
		printf '%-8s %-9s %-10s %12s %10s %9s  %s\n' "$k" "$m" "${end:--}" "${rec:--}" "${lost:--}" "${pct:--}" "$cor"
	done
done
for f in "$base"-*/vm-persist-ftrace/side-*.txt; do
	[ -f "$f" ] && echo "side by side ($(basename "$f" .txt | sed 's/side-//')): $(cat "$f")"
done
exit $failed
