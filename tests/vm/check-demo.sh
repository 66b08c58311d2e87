#!/bin/bash
# Host side of the demo smoke test.   check-demo.sh DIR NAME
# Every instrumented path of logdev_demo recorded its "in" probe once per
# iteration, the "out" probes too, and the arguments decoded sensibly.
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/vm/lib.sh"
P=$name
if [ ! -s "$dir/demo.cap" ]; then
	fail "no demo.cap came back"; exit 1
fi
"$logdev" report --raw "$dir/demo.cap" > "$dir/demo.raw" 2> "$dir/demo.err"
ld_rc=$?
if [ $ld_rc != 0 ] && [ $ld_rc != 3 ]; then	# 3: decoded, with warnings on stderr
	fail "logdev report --raw failed: $(head -c 300 "$dir/demo.err")"; exit 1
fi
n=$(cat "$dir/iterations.txt")
# a capture cut in half (a recorder killed midway) still names its records
head -c $(( $(stat -c %s "$dir/demo.cap") / 2 )) "$dir/demo.cap" > "$dir/demo-half.cap"
half=$("$logdev" report --raw "$dir/demo-half.cap" 2>/dev/null | awk -F'\t' '$1 != "LOST"' | wc -l)
unnamed=$("$logdev" report --raw "$dir/demo-half.cap" 2>/dev/null | awk -F'\t' '$1 != "LOST" && $6 == "?"' | wc -l)
if [ "$half" -gt 0 ] && [ "$unnamed" = 0 ]; then
	pass "a capture cut in half names all its $half records"
else
	fail "capture cut in half: $unnamed of $half records have no call-site name"
fi
# formats after rmmod logdev_demo: every demo site still listed, strings intact
if [ -f "$dir/formats-after-rmmod.txt" ] &&
   grep -q $'\tdemo_kfree_skbmem\t' "$dir/formats-after-rmmod.txt" &&
   grep -q 'logdev_demo.c' "$dir/formats-after-rmmod.txt" &&
   [ "$(grep -c $'\tdemo_' "$dir/formats-after-rmmod.txt")" -ge 20 ]; then
	pass "formats of the unloaded demo module stay readable"
else
	fail "formats after rmmod logdev_demo lost the demo sites"
fi
run_checks awk -v name="$name" -v n="$n" "$LD_AWK"'
$1 == "LOST" { lost += $3; next }
{
	split($0, f, "\t"); fn = f[6]; msg = f[8]
	split(msg, w, " ")
	if (w[1] == "in") in_[fn]++
	if (w[1] == "out") out_[fn]++
	if (fn == "demo_mmap_touch" && w[1] == "2" && msg !~ /err=0$/) mmbad++
	if (fn == "demo_kmalloc" && w[1] == "in" && msg !~ /^in size=[0-9]+$/) kmbad++
}
END {
	check(lost == 0, "nothing lost", lost " records lost")
	split("demo_allocator demo_kmem_cache_alloc demo_kmem_cache_free demo_kmalloc demo_kfree " \
	      "demo_skb demo_kfree_skbmem demo_paravirt demo_irq_save_restore demo_mmap_touch", fns, " ")
	for (i = 1; i in fns; i++) {
		fn = fns[i]
		check(in_[fn] == n && out_[fn] == n, fn ": " n " in / " n " out probes",
		      "in " in_[fn] + 0 " out " out_[fn] + 0)
	}
	check(in_["demo_run_write"] == 1, "demo_run_write: one in probe", in_["demo_run_write"] + 0)
	check(mmbad == 0, "user page touched via copy_to_user (err=0)", mmbad " failures")
	check(kmbad == 0, "kmalloc size argument decoded", kmbad " bad")
	exit failed ? 1 : 0
}' "$dir/demo.raw"
finish
