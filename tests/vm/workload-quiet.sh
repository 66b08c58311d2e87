#!/bin/sh
# A user's workload for tools/vm/workload.sh, as the vm-runner test runs it
# (tests/vm/run-tests.sh): reads its FILE (/logdev/workload-data.txt), probes
# hrtimer_nanosleep and records a sleep of QUIET seconds without a word on
# the console (longer than the runner's --idle: a quiet guest, not a wedged
# one), leaves four processes running (one in its own session, as a daemon
# would be: the run must end anyway; a logdev record in the background,
# which the runner's SIGTERM lets finish bg.cap; one that ignores SIGTERM
# and needs the SIGKILL after it), and writes its results to its working
# directory, which comes back to the host.
#   workload-quiet.sh QUIET
quiet=${1:-30}
cp "$LOGDEV_FILES/workload-data.txt" data-copy.txt || exit 1
echo 'p:qsleep hrtimer_nanosleep' > /sys/kernel/debug/logdev/probes || exit 1
sleep 1000 &
setsid sleep 1001 &
echo "vm-runner: quiet for $quiet s"
logdev record -o quiet.cap -- sleep "$quiet" 2> record.err || { cat record.err; exit 1; }
echo "recorded a sleep of $quiet s" > quiet.txt
logdev record -o bg.cap -p 'r:bgsleep hrtimer_nanosleep' 2> bg.err &
sh -c 'trap "" TERM; exec sleep 1002' &
n=0
while ! grep -q '^r:bgsleep ' /sys/kernel/debug/logdev/probes && [ $n -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
sleep 0.3
echo "vm-runner: done"
# the last output without its newline (binary output often ends so): the
# results must come back all the same
printf 'vm-runner: the end, no newline'
