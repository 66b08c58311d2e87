#!/bin/bash
# Host side of the symbols test.   check-sym.sh DIR NAME
# sym.cap (guest-sym.sh) holds the "fire %pS|%ps|%pS" records, and the
# "long %pS|%ps" ones of a function with a 400-character name, of
# logdev_syma and logdev_symb, loaded and unloaded in turn during one
# recording; symref.txt the kernel's own text of each, in the same order.
# `logdev report --raw` must print the kernel's text for every one: each
# function named after the module that was loaded when it was recorded.
# modlog.txt (debugfs module_log at the end) must be format 2 with a size rule.
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/vm/lib.sh"
P=$name
if [ ! -s "$dir/sym.cap" ] || [ ! -s "$dir/symref.txt" ]; then
	fail "no sym.cap or symref.txt came back"; exit 1
fi
"$logdev" report --raw "$dir/sym.cap" > "$dir/sym.raw" 2> "$dir/sym.err"
ld_rc=$?
if [ $ld_rc != 0 ] && [ $ld_rc != 3 ]; then	# 3: decoded, with warnings on stderr
	fail "logdev report --raw failed: $(head -c 300 "$dir/sym.err")"; exit 1
fi
n_ref=$(wc -l < "$dir/symref.txt")
[ "$n_ref" = 14 ] || fail "$n_ref kernel texts, want 14 (7 fires, each \"fire\" and \"long\")"
if [ "$(sort -u "$dir/addrs.txt" | wc -l)" = 1 ]; then
	pass "all 4 loads put the function at $(head -n 1 "$dir/addrs.txt")"
else
	echo "NOTE: $name: loads at $(tr '\n' ' ' < "$dir/addrs.txt")(not all the same address)"
fi
# module_log format 2, and the kernel's size rule found at logdev's load
# (kernel/logdev_modlog.c ld_modlog_probe_sizes(): "text" on 6.1, "region"
# on 6.12.118 and 7.3; "unknown" would make the reader warn)
first=$(head -n 1 "$dir/modlog.txt" 2>/dev/null)
if [[ $first =~ ^"# logdev module log: format 2, sizes "(text|region)", " ]]; then
	pass "module_log: format 2, sizes ${BASH_REMATCH[1]}"
else
	fail "module_log's first line is not format 2 with a known size rule: [$first]"
fi
run_checks awk -v name="$name" "$LD_AWK"'
FILENAME == ARGV[1] { ref[n_ref++] = $0; next }
{
	split($0, f, "\t")
	if (f[6] != "lsym_fire") next
	got[n_got++] = raw_msg($0)
}
END {
	failed = 0
	if (n_got != n_ref) { print "FAIL: " name ": " n_got " records for " n_ref " kernel texts"; failed++ }
	for (i = 0; i < n_ref && i < n_got; i++)
		check(got[i] == ref[i], "fire " i ": " ref[i], "logdev [" got[i] "] kernel [" ref[i] "]")
	exit failed ? 1 : 0
}' "$dir/symref.txt" "$dir/sym.raw"
finish
