#!/bin/sh
# Guest side of vm-persist-MODE (tools/vm/run.sh --boots 2): the flight
# recorder (kernel/logdev_area.c) across a warm reset.  run-tests.sh
# reserves the area with memmap=4M$0x10000000 on the command line.
#   guest-persist.sh MODE ITERS [NAME]
# Boot 1: logdev with persist=memmap:4M@0x10000000; logdev_test's run
# writes from every context of every CPU (task, softirq, hardirq, NMI:
# edprint("ctx=%d seq=%u"), one sequence per CPU and context), and the
# boot ends by MODE while the writers run (ITERS is large enough that
# they do), 3 s after the run began:
#   panic   sysrq-c (panic notifier: the area ends "panic", sealed)
#   nmi     an NMI from outside (run.sh --nmi-at) with unknown_nmi_panic:
#           the panic in NMI context
#   oops    a NULL dereference with oops=panic (die, then panic notifier)
#   reset   sysrq-b, an emergency restart: no notifier, the end unknown
#   corrupt as panic; boot 2, before logdev loads, saves the area as it is
#           (pristine.img) and flips a payload byte in every sealed
#           sub-buffer whose seq is even or a multiple of 5 (as the
#           kernel's ring_buffer persistent inject test chooses pages),
#           listing them in corrupted.txt ("CPU SEQ")
#   ftrace  as panic, with ftrace's persistent instance beside logdev
#           (run-tests.sh appends memmap=4M$0x10400000
#           trace_instance=boot_map@0x10400000:4M; 6.12+): a kprobe event
#           on lt_record() records the same calls into boot_map; boot 2
#           saves what ftrace kept (ftrace.txt) for the host to compare
#   resmem  as panic, the area from reserve_mem=4M:32M:logdev (6.11+):
#           persist=reserve_mem:logdev; the kernel may place it elsewhere
#           after the reset, and then boot 2 must claim nothing
#   reboot  the run of ITERS iterations to its end, its counts on the
#           console ("persist-counts: ..."), then the script ends and
#           init reboots (reboot notifier: "reboot")
R=${RESULTS:-/results}
P=${3:-vm-persist-$1}
. /logdev/lib.sh
mode=$1 iters=$2
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
TR=/sys/kernel/debug/tracing
PERSIST=persist=memmap:4M@0x10000000
[ "$mode" = resmem ] && PERSIST=persist=reserve_mem:logdev

A=$((0x10000000))
# u64 / u32 / u8 at physical address $1 (little-endian, through /dev/mem)
mem_u() { dd if=/dev/mem bs=1 skip=$1 count=$2 2> /dev/null | od -An -tu$2 | tr -d ' '; }

# corrupt: see the header; the area's layout from its header (uapi logdev.h)
corrupt_area() {
	ncpu=$(mem_u $((A + 32)) 4) sbs=$(mem_u $((A + 36)) 4) nr=$(mem_u $((A + 40)) 4)
	coff=$(mem_u $((A + 64)) 8) stride=$(mem_u $((A + 72)) 8)
	: > $R/corrupted.txt
	c=0
	while [ $c -lt $ncpu ]; do
		b=$((A + coff + c * stride))
		co=$(mem_u $((b + 8)) 8) so=$(mem_u $((b + 16)) 8) do=$(mem_u $((b + 24)) 8)
		k=0
		while [ $k -lt $nr ]; do
			cm=$(mem_u $((b + co + 8 * k)) 8)
			if [ "$cm" -gt 0 ] && [ $((cm % sbs)) = 0 ]; then
				seq=$(( (cm / sbs - 1) * nr + k ))
				sseq=$(mem_u $((b + so + 16 * k)) 8)
				if [ "$sseq" = "$seq" ] && { [ $((seq % 2)) = 0 ] || [ $((seq % 5)) = 0 ]; }; then
					at=$((b + do + k * sbs + 48 + 24))	# first record's payload
					v=$(mem_u $at 1)
					printf "\\$(printf %o $((v ^ 255)))" | dd of=/dev/mem bs=1 seek=$at conv=notrunc 2> /dev/null
					echo "$c $seq" >> $R/corrupted.txt
				fi
			fi
			k=$((k + 1))
		done
		c=$((c + 1))
	done
}

if [ "${LOGDEV_BOOT:-}" = 2 ] && [ "$mode" = corrupt ]; then
	dd if=/dev/mem of=$R/pristine.img bs=4096 skip=$((A / 4096)) count=1024 2> /dev/null
	corrupt_area
	pass "corrupted $(wc -l < $R/corrupted.txt) sealed sub-buffers before logdev loaded"
fi

# panic mode checks what a user may get wrong (a fresh user's findings):
# boot 1, ranges that are not memmap='s are refused and change nothing:
# the firmware's ROM, QEMU's ACPI tables (the top 128 KiB of 512 MiB, which
# the firmware reserves), a hole; boot 2, a persist= smaller than the area
# the previous boot left is refused and the area stays as it was
refused() {	# WHAT PARAM
	if insmod /logdev/logdev.ko "$2" 2> /dev/null; then
		fail "$1: insmod $2 loaded"
		rmmod logdev
	else
		pass "$1: insmod $2 refused: $(dmesg | grep 'logdev: persist' | tail -n 1 | cut -c16-)"
	fi
}
if [ "$mode" = panic ] && [ "${LOGDEV_BOOT:-}" = 1 ]; then
	acpi=$(md5sum /sys/firmware/acpi/tables/DSDT 2> /dev/null)
	refused "the firmware's ROM" persist=memmap:64K@0xf0000
	refused "QEMU's ACPI tables" persist=memmap:128K@0x1ffe0000
	refused "a hole" persist=memmap:1M@0xfd00000000
	[ "$(md5sum /sys/firmware/acpi/tables/DSDT 2> /dev/null)" = "$acpi" ] &&
		pass "the ACPI DSDT is as it was" || fail "the ACPI DSDT changed"
fi
if [ "$mode" = panic ] && [ "${LOGDEV_BOOT:-}" = 2 ]; then
	dd if=/dev/mem of=/tmp/before.img bs=4096 skip=$((A / 4096)) count=1024 2> /dev/null
	refused "a persist= smaller than the previous area" persist=memmap:2M@0x10000000
	dd if=/dev/mem of=/tmp/after.img bs=4096 skip=$((A / 4096)) count=1024 2> /dev/null
	cmp -s /tmp/before.img /tmp/after.img && pass "the previous area is untouched by the refused load" ||
		fail "the refused load changed the previous area"
	rm -f /tmp/before.img /tmp/after.img
fi

# ftrace's kprobe event on the same writer; caller= (a symbol-typed
# argument: the return address, in logdev_test) shows what ftrace prints
# for a module's address recorded before the reboot
LTREC='p:ltrec logdev_test:lt_record ctx=%di:s32 seq=%si:u32 caller=+0(%sp):symbol'

# the crash dump too, where the kernel dies: it must point at the area
dump=
[ "${LOGDEV_BOOT:-}" = 1 ] && [ "$mode" = panic ] && dump="dump_on_oops=1 dump_records=4"
insmod /logdev/logdev.ko $PERSIST enable=1 $dump || { fail "insmod logdev.ko $PERSIST"; finish; exit; }
case "${LOGDEV_BOOT:-}" in
1)
	insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
	# a clock change must reach the area's header (the reader labels by it)
	if [ "$mode" = panic ]; then
		echo 0 > $D/enable && echo mono > $D/clock && echo 1 > $D/enable ||
			echo "boot 1: clock mono refused"
	fi
	sleep 1	# the module map follows a module load within 250 ms
	cat $D/persist | sed 's/^/persist-boot1: /'
	grep -a logdev_test /proc/modules | sed 's/^/persist-boot1-module: /'
	if [ "$mode" = ftrace ]; then
		echo "$LTREC" >> $TR/kprobe_events &&
			echo 1 > $TR/instances/boot_map/events/kprobes/ltrec/enable &&
			echo 1 > $TR/instances/boot_map/tracing_on ||
			echo "boot 1: ftrace's boot_map instance or the kprobe event failed"

	fi
	if [ "$mode" = reboot ]; then
		echo "$iters" > $T/run || echo "boot 1: run failed"
		sed 's/^/persist-counts: /' $T/counts
		sed 's/^/persist-stats: /' $D/stats
		# a new call site reaches the area's formats text within 250 ms
		# (LD_PERSIST_SYNC_MS); only a hard reset depends on it
		sleep 1
		echo "boot 1: recorded, ending by $mode"
		exit 0
	fi
	echo "$iters" > $T/run &
	sleep 3
	# %pS of a previous boot: logdev_test's printf table (its symbol
	# lines: vmlinux and module text) just before the end, in the area
	if [ "$mode" = panic ] || [ "$mode" = ftrace ]; then
		[ "$mode" = ftrace ] && grep -a -m 1 ' ltrec: ' $TR/instances/boot_map/trace |
			sed 's/^/persist-boot1-ftrace: /'
		# the kernel's text first, on the console before the end (the
		# same addresses each time), then the records themselves, last
		echo 1 > $T/printf && grep -aE '	sym (vmlinux|module) text ' $T/printf_ref |
			sed 's/^/persist-boot1-ref: /'
		sleep 1
		echo 1 > $T/printf || echo "boot 1: logdev_test printf failed"
	fi
	echo "boot 1: recording, ending by $mode"
	case $mode in
	panic|corrupt|ftrace|resmem) echo c > /proc/sysrq-trigger ;;
	oops) echo oops > $T/crash ;;
	reset) echo b > /proc/sysrq-trigger ;;
	nmi)
		echo 1 > /proc/sys/kernel/unknown_nmi_panic || fail "unknown_nmi_panic"
		echo "persist-test: nmi now"
		sleep 60 ;;
	esac
	echo "boot 1: still alive after $mode"
	;;
2)
	pass "LOGDEV_BOOT=2 in the second boot"
	if [ "$mode" = ftrace ]; then
		# as boot 2 finds it, then with the same kprobe event defined again
		# (ftrace keeps no event formats: a dynamic event's type id is
		# "Unknown" until an event of that id exists again)
		cat $TR/instances/boot_map/trace > $R/ftrace-raw.txt 2>&1
		insmod /logdev/logdev_test.ko
		echo "$LTREC" >> $TR/kprobe_events 2> /dev/null ||
			echo "boot 2: the kprobe event on lt_record: $?"
		cat $TR/instances/boot_map/trace > $R/ftrace.txt 2>&1
		cat $TR/instances/boot_map/last_boot_info > $R/ftrace-last-boot-info.txt 2>&1
		dmesg | grep -i 'ring.buffer\|boot_map\|previous boot' > $R/ftrace-dmesg.txt
		echo "ftrace: $(grep -c 'ltrec:' $R/ftrace.txt) ltrec events kept in boot_map"
	fi
	dmesg | grep 'logdev: persist' > $R/persist-dmesg.txt
	cat $D/persist > $R/persist.txt 2>&1
	if [ "$mode" = resmem ] && grep -q "no previous boot's buffer" $R/persist-dmesg.txt; then
		pass "reserve_mem: the area is elsewhere this boot, nothing claimed: $(tr '\n' '|' < $R/persist-dmesg.txt)"
		finish
		exit
	fi
	grep -q 'previous buffer kept' $R/persist-dmesg.txt &&
		pass "the module kept the previous boot's buffer: $(grep 'previous buffer kept' $R/persist-dmesg.txt | head -n 1)" ||
		fail "no 'previous buffer kept' in dmesg: $(tr '\n' '|' < $R/persist-dmesg.txt)"
	if [ -r $D/last_boot/area ]; then
		cat $D/last_boot/area > $R/area.img
		pass "last_boot/area read: $(wc -c < $R/area.img) bytes"
		if [ "$mode" = panic ]; then
			# unloaded before release: the reload must find the crash again
			rmmod logdev && insmod /logdev/logdev.ko $PERSIST enable=1 &&
				cmp -s $D/last_boot/area $R/area.img &&
				pass "rmmod and insmod before release: the reload kept the same previous buffer" ||
				fail "rmmod and insmod before release: last_boot/area differs or is gone ($(dmesg | grep 'logdev: persist' | tail -n 2 | tr '\n' '|'))"
		fi
		# this boot records into the area; the copy must not change
		{ [ -d $T ] || insmod /logdev/logdev_test.ko; } && echo 200 > $T/run
		grep -a "^logdev_test " /proc/modules > $R/modules-boot2.txt
		# vmlinux symbols for the host's reader (the same build as boot 1)
		grep -v '\[' /proc/kallsyms > $R/kallsyms-boot2.txt
		cmp -s $D/last_boot/area $R/area.img &&
			pass "the copy is unchanged after this boot recorded" ||
			fail "last_boot/area changed while this boot recorded"
		/logdev/logdev.static record --last-boot -o $R/prev.cap > $R/record.out 2>&1
		echo "record --last-boot: rc $? $(head -c 300 $R/record.out | tr '\n' '|')"
		echo 2 > $D/last_boot/release 2> /dev/null &&
			fail "last_boot/release took 2" || pass "last_boot/release refuses 2"
		echo 1 > $D/last_boot/release && [ ! -e $D/last_boot/area ] &&
			grep -q 'last_boot: released' $D/persist &&
			pass "last_boot/release 1 frees the copy (area gone, persist says released)" ||
			fail "last_boot/release 1: the copy is still readable"
	else
		fail "no $D/last_boot/area: $(cat $R/persist.txt | tr '\n' '|')"
	fi
	echo 64 > $D/buffer_size_kb 2> /dev/null &&
		fail "buffer_size_kb took 64 with the rings in the area" ||
		pass "buffer_size_kb refused while the rings are in the area"
	;;
*)
	fail "LOGDEV_BOOT is '${LOGDEV_BOOT:-}', want 1 or 2"
	;;
esac
finish
