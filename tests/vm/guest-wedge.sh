#!/bin/sh
# Guest side of the runner's wedge test: says so, then goes silent for good
# (no console output, never powers off), as a wedged guest would.
# tests/vm/run-tests.sh expects tools/vm/run.sh to report "guest wedged" with
# every vCPU's RIP, and exit 6, within its --idle time.
echo "vm-wedge: going silent now"
exec sleep 100000
