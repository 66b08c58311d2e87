#!/bin/sh
# Guest side of vm-boots (tools/vm/run.sh --boots 2, the base of issue 27's
# flight recorder): RAM that memmap= reserved (1 MiB at 0x10000000, from
# run-tests.sh's --append) keeps what boot 1 wrote there through the panic
# of sysrq-c and the warm reset that panic=-1 makes, and boot 2 reads it
# back.  Boot 1 writes the pattern (a run nonce, the first argument, at the
# area's first, middle and last 64 bytes) through /dev/mem and panics;
# boot 2 checks the three copies, LOGDEV_BOOT and /proc/iomem.
#   guest-boots.sh NONCE
R=${RESULTS:-/results}
P=vm-boots
. /logdev/lib.sh
nonce=$1
A=$((0x10000000))
pat=$(printf 'logdev-boots %-50s' "$nonce" | cut -c1-64)
offs="0 $((0x80000)) $((0x100000 - 64))"

case "${LOGDEV_BOOT:-}" in
1)
	for o in $offs; do
		printf %s "$pat" | dd of=/dev/mem bs=1 seek=$((A + o)) conv=notrunc 2> /dev/null ||
			echo "boot 1: cannot write /dev/mem at $((A + o))"
	done
	echo "boot 1: pattern written, panicking"
	sync
	echo c > /proc/sysrq-trigger
	echo "boot 1: still alive after sysrq-c"
	;;
2)
	pass "LOGDEV_BOOT=2 in the second boot"
	# a Reserved range that covers the area (the runner's marker page just
	# below it merges into one e820 range: 0ffff000-100fffff)
	cover=
	while IFS=' ' read -r range _ what; do
		[ "$what" = Reserved ] || continue
		lo=$((0x${range%-*})) hi=$((0x${range#*-}))
		[ $lo -le $A ] && [ $hi -ge $((A + 0xfffff)) ] && cover=$range
	done < /proc/iomem
	[ -n "$cover" ] && pass "the memmap area is Reserved in /proc/iomem ($cover)" ||
		fail "no Reserved range covers 10000000-100fffff in /proc/iomem: $(grep -i reserved /proc/iomem | tr '\n' '|')"
	n=0
	for o in $offs; do
		got=$(dd if=/dev/mem bs=1 skip=$((A + o)) count=64 2> /dev/null)
		[ "$got" = "$pat" ] && n=$((n + 1)) || echo "at +$o: '$(printf %s "$got" | od -c | head -2 | tr '\n' ' ')'"
	done
	check_eq "boot 1's pattern read back at the area's start, middle and end" "$n" 3
	;;
*)
	fail "LOGDEV_BOOT is '${LOGDEV_BOOT:-}', want 1 or 2"
	;;
esac
finish
