#!/bin/sh
# Guest side of the built-in parameter test (issue 10, item 2): a kernel
# with logdev built in (CONFIG_LOGDEV=y) booted with
#   logdev.enable=1 logdev.buffer_size_kb=64 logdev.mode=discard logdev.clock=bogus
# and a built-in caller of edprint() that records from a core_initcall, a
# device_initcall (100 records) and a late_initcall, all before userspace
# and the first two before logdev's debugfs files exist (fs_initcall).
# Checks: the good parameters apply, the bad one keeps its default and the
# kernel log says which and why, and `logdev record --no-enable` drains the
# boot's records, complete and in order.
#   guest-params-builtin.sh
# Prints PASS:/FAIL: lines; the host collects them from guest.log.
D=/sys/kernel/debug/logdev
S=/sys/module/logdev/parameters
R=${RESULTS:-/results}
L=/logdev/logdev.static
P=vm-params-builtin
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

sel() {
	v=$(cat "$D/$1" 2>/dev/null)
	case "$v" in
	*\[*\]*) v=${v#*[}; v=${v%%]*} ;;
	esac
	echo "$v"
}

dmesg > $R/dmesg.txt
grep . $S/* > $R/sysfs-params.txt 2>&1
check "kernel log: the bad parameter named, default kept" \
	"$(grep 'logdev' $R/dmesg.txt | tr '\n' '|')" \
	grep -q 'logdev: parameter logdev.clock=bogus: want local, global or mono; the default is kept' $R/dmesg.txt
for fv in enable=1 buffer_size_kb=64 mode=discard clock=local subbuf_size=4096; do
	f=${fv%%=*} v=${fv#*=}
	check_eq "debugfs $f reads $v" "$(sel $f)" "$v"
	check_eq "sysfs parameters/$f reads $v" "$(cat $S/$f 2>&1)" "$v"
done

$L record --no-enable --duration 1 -o $R/boot.cap 2> $R/boot.err
check_eq "record --no-enable: exit status" "$?" 0
check_eq "record --no-enable: enable still 1" "$(cat $D/enable)" 1
$L report --raw $R/boot.cap > $R/boot.raw 2> $R/boot.rerr
check_eq "report --raw: exit status" "$?" 0
awk -F'\t' -v name="$P" "$LD_AWK"'
	{ m = raw_msg($0) }
	m == "boot core_initcall 1" { core++; if (dev || late) order = "core after device/late" }
	m ~ /^boot device_initcall i=/ {
		if (m != "boot device_initcall i=" dev + 0) bad++
		dev++
		if (late) order = "device after late"
	}
	m == "boot late_initcall" { late++ }
	END {
		check(core == 1, "the core_initcall record (before debugfs exists) is in the capture", core + 0 " found")
		check(dev == 100 && !bad, "the 100 device_initcall records, in order", dev + 0 " found, " bad + 0 " out of order")
		check(late == 1, "the late_initcall record", late + 0 " found")
		check(order == "", "initcall records in boot order", order)
		exit failed != 0
	}' $R/boot.raw
[ $? = 0 ] || fails=$((fails + 1))
finish
