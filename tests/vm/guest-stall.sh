#!/bin/sh
# Guest side of the runner's stall-report test: the first line of an RCU
# stall report, its stack 5 s later (as a stall's stacks come, seconds after
# the first line, under TCG), then silence.  tests/vm/run-tests.sh expects
# tools/vm/run.sh to report the stall (exit 6) with the stack in console.log.
echo "rcu: INFO: rcu_sched self-detected stall on CPU"
sleep 5
echo "vm-stall: Call Trace: fake_stall_stack+0x0/0x10"
exec sleep 100000
