#!/bin/sh
# Guest side of the install test (tests/install-check.sh): the logdev.ko,
# the static reader and a module built from the module template that
# `make install DESTDIR=...` installed; records the template's N "hello %d"
# records written at its load.   guest-install.sh [N]
n=${1:-100}
R=${RESULTS:-/results}
P=install-vm
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh
check "insmod the installed logdev.ko" "insmod failed" insmod /logdev/logdev.ko
/logdev/logdev.static record -o $R/hello.cap -- insmod /logdev/hello_logdev.ko n=$n
check_eq "logdev.static record -- insmod hello_logdev.ko n=$n exits 0" "$?" 0
check "the template module is loaded" "not in /proc/modules" grep -q '^hello_logdev ' /proc/modules
check "rmmod hello_logdev" "rmmod failed" rmmod hello_logdev
check "rmmod logdev" "rmmod failed" rmmod logdev
finish
