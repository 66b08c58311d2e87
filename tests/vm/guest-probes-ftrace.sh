#!/bin/sh
# Guest side of vm-probes-ftrace (busybox sh): an ftrace user's session,
# printed as a transcript (docs/DEBUGFS.md shows it): the two probes of
# Documentation/trace/kprobetrace.rst written exactly as there, a third in
# the same syntax with a nested dereference to a string, a fourth with a
# signed return value, recorded around `cat /proc/version /nonexistent` and
# reported with their typed arguments.  do_sys_open (the documentation's
# function) is not called by x86-64's open syscalls on 6.1, so its two
# probes stay at 0 hits, as in ftrace.
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
P=vm-probes-ftrace
. /logdev/lib.sh
insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
cd $D
say() { echo "# $*"; sh -c "$*" 2>&1; }
say "echo 'do_sys_open*' > probe_functions; cat probe_functions"
say "echo 'p:myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4(\$stack)' >> probes"
say "echo 'r:myretprobe do_sys_open \$retval' >> probes"
say "echo 'p:myopen do_filp_open path=+0(+0(%si)):string flags=+4(%dx):x32 \$comm' >> probes"
say "echo 'r:myretprobe2 do_sys_openat2 \$retval:s32' >> probes"
say "cat probes"
say "cat error_log"
cat probes > $R/probes.txt
/logdev/logdev.static record -o $R/ftrace.cap -- cat /proc/version /nonexistent > /dev/null 2> $R/record.err
echo "# logdev record -o ftrace.cap -- cat /proc/version /nonexistent; logdev report ftrace.cap | grep ' cat-'"
/logdev/logdev.static report $R/ftrace.cap 2> $R/report.err | grep -E ' (myprobe|myretprobe|myretprobe2%return|myopen):' > $R/report.txt
grep ' cat-' $R/report.txt
say "echo -:myprobe >> probes; cat probes"
grep -q '^p:myprobe do_sys_open dfd=%ax filename=%dx flags=%cx mode=+4($stack) hits=0' $R/probes.txt &&
	grep -q '^r:myretprobe do_sys_open $retval hits=0' $R/probes.txt &&
	pass "the documentation's two probes accepted as written (do_sys_open: 0 hits on x86-64 6.1)" ||
	fail "documentation's probes: $(cat $R/probes.txt | tr '\n' '|')"
grep -q ' cat-[0-9]* myretprobe2%return:0 retval=-2 ' $R/report.txt &&
	grep -q ' cat-[0-9]* myretprobe2%return:0 retval=3 ' $R/report.txt &&
	pass "myretprobe2: retval=3 for /proc/version, retval=-2 (ENOENT) for /nonexistent, as s32" ||
	fail "myretprobe2: $(grep myretprobe2 $R/report.txt | tr '\n' '|')"
grep -q ' myopen:0 path="/proc/version" flags=0x[0-9a-f]* comm="cat"' $R/report.txt &&
	pass "myopen: path=\"/proc/version\" (string through two dereferences), comm=\"cat\"" ||
	fail "no myopen record of /proc/version: $(grep myopen $R/report.txt | head -n 3)"
grep -q '^p:myprobe ' probes && fail "-:myprobe did not remove it" || pass "-:myprobe removes it"

# The documentation's examples adapted to 6.1 x86-64, typed: do_sys_open is
# inlined into the open syscalls, which reach do_sys_openat2(dfd, filename,
# how); x86-64 passes arguments in di, si, dx (the documentation's %ax %dx
# %cx +4($stack) are i386's regparm); flags and mode are in *how (+0, +8);
# the filename is a user pointer (ustring is not supported: its address).
# The string example, +0(%di):string[1] = +0(+0(%di)):string, on
# do_filp_open(dfd, struct filename *, op): the name is at +0 of %si.
echo "# --- the same examples on 6.1 x86-64, typed"
say "echo > probes"
say "echo 'p:myprobe do_sys_openat2 dfd=%di:s32 filename=%si:x64 flags=+0(%dx):x32 mode=+8(%dx):u16' >> probes"
say "echo 'r:myretprobe do_sys_openat2 \$retval:s32' >> probes"
say "echo 'p:myopen do_filp_open path=+0(+0(%si)):string' >> probes"
/logdev/logdev.static record -o $R/ftrace64.cap -- cat /proc/version /nonexistent > /dev/null 2> $R/record64.err
say "cat probes"
echo "# logdev record -o ftrace64.cap -- cat /proc/version /nonexistent; logdev report ftrace64.cap | grep ' cat-'"
/logdev/logdev.static report $R/ftrace64.cap 2> $R/report64.err | grep ' cat-' > $R/report64.txt
cat $R/report64.txt
grep -Eq ' cat-[0-9]+ myprobe:0 dfd=-100 filename=0x[0-9a-f]+ flags=0x8000 mode=0  ' $R/report64.txt &&
	grep -Eq ' cat-[0-9]+ myretprobe%return:0 retval=3 duration=' $R/report64.txt &&
	grep -Eq ' cat-[0-9]+ myretprobe%return:0 retval=-2 duration=' $R/report64.txt &&
	grep -Eq ' myopen:0(#[0-9]+)? path="/proc/version"  ' $R/report64.txt &&
	grep -Eq ' myopen:0(#[0-9]+)? path="/nonexistent"  ' $R/report64.txt &&
	pass "adapted examples: dfd=-100 (AT_FDCWD) flags=0x8000 mode=0, retval 3 and -2, both paths" ||
	fail "adapted examples: $(tr '\n' '|' < $R/report64.txt)"
finish
