#!/bin/sh
# Guest side of the runner's wedge test: says so, then stops every process
# of the guest (SIGSTOP to all but init, then itself): nothing runs any
# more, the heartbeat included, no console output, no power-off, as in a
# guest whose scheduler wedged.  (A script that only sleeps is a quiet
# guest, not a wedged one: its heartbeat goes on; tests/vm/guest-quiet.sh.)
# tests/vm/run-tests.sh expects tools/vm/run.sh to report "guest wedged" with
# every vCPU's RIP, and exit 6, within its --idle time.
echo "vm-wedge: stopping every process now"
sleep 1	# the line reaches the console (through tee) first
kill -STOP -1
kill -STOP $$
exec sleep 100000
