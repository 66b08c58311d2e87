#!/bin/sh
# Guest side of the symbols test (busybox sh, run by tools/vm/run.sh).
# While one `logdev record` runs: load logdev_syma (its init records
# "fire %pS|%ps|%pS" of its own function lsym_a_fn), fire once more, unload
# it; load logdev_symb (same layout, so usually at the same address) and fire;
# unload it; a quick load and unload of logdev_syma with no pause; then load
# logdev_syma again and leave it loaded.  Each fire also printk's the
# kernel's own text of the same format ("logdev_symref: TEXT"), in order;
# and the same for "long %pS|%ps" of a function whose name has 400
# characters (logdev_sym.h LSYM_LONG).
# Results: sym.cap, symref.txt (the kernel's texts), addrs.txt (the address
# of each load's function, from /proc/kallsyms), modlog.txt.
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
P=vm-sym
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
cat > /tmp/work.sh <<'EOS'
#!/bin/sh
R=${RESULTS:-/results}
addr() { grep " lsym_$1_fn	\[logdev_sym$1\]" /proc/kallsyms | cut -d' ' -f1 >> $R/addrs.txt; }
insmod /logdev/logdev_syma.ko && addr a
echo 1 > /sys/kernel/debug/logdev_syma/fire
rmmod logdev_syma
insmod /logdev/logdev_symb.ko && addr b
echo 1 > /sys/kernel/debug/logdev_symb/fire
rmmod logdev_symb
insmod /logdev/logdev_syma.ko && addr a
rmmod logdev_syma
insmod /logdev/logdev_syma.ko && addr a
echo 1 > /sys/kernel/debug/logdev_syma/fire
EOS
: > $R/addrs.txt
/logdev/logdev.static record -o $R/sym.cap -- sh /tmp/work.sh
rc=$?
[ $rc = 0 ] && pass "record ran" || fail "logdev record exit $rc"
dmesg | sed -n 's/.*logdev_symref: //p' > $R/symref.txt
[ -r $D/module_log ] && cat $D/module_log > $R/modlog.txt
rmmod logdev_syma
rmmod logdev
finish
