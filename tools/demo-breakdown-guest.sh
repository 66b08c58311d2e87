#!/bin/sh
# Guest side of tools/demo-breakdown.sh (busybox sh, run by tools/vm/run.sh).
#   demo-breakdown-guest.sh MMAPS WCHANS KBYTES
# Runs demo-workload (tools/demo-workload.c) three times:
# 1. under `logdev record --breakdown` with return probes on kfree_skbmem and
#    the munmap function of this kernel: run.cap;
# 2. under ftrace's function_graph limited to the same two functions (depth
#    3), with the irq, softirq, local timer and sched_switch events inline:
#    fgraph.txt;
# 3. beside `rtla timerlat top` (when run.sh's --host-bins brought rtla in
#    and the kernel has the timerlat tracer): rtla.txt, else why not.
# Saves munmap.txt (the function probed), kernel.txt, stats.txt.
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
uname -r > $R/kernel.txt
insmod /logdev/logdev.ko || exit 1
ifconfig lo 127.0.0.1 up 2>/dev/null || ip link set lo up
# the munmap(2) path's function: 6.2+ do_vmi_munmap, 6.1 do_mas_munmap,
# older __do_munmap (the first this kernel has)
mun=
for f in do_vmi_munmap do_mas_munmap __do_munmap; do
	grep -q " $f\$" /proc/kallsyms && { mun=$f; break; }
done
[ -n "$mun" ] || { echo "demo-breakdown: no munmap function in kallsyms"; exit 1; }
echo $mun > $R/munmap.txt
up() { cut -d' ' -f1 /proc/uptime; }

# 1. logdev: the markers make many records (every switch, irq, softirq)
echo 16384 > $D/buffer_size_kb
t0=$(up)
/logdev/logdev.static record --breakdown -p r:kfree_skbmem -p r:$mun \
	-o $R/run.cap -- /logdev/demo-workload "$@"
rc=$?
echo "demo-breakdown: logdev run: exit $rc, $t0 -> $(up) s"
cat $D/stats > $R/stats.txt
rmmod logdev
[ $rc = 0 ] || [ $rc = 3 ] || exit $rc

# 2. function_graph on the same two functions and what they call, 3 deep;
# funcgraph-irqs (default on) keeps interrupts taken inside them, the events
# name them; abstime + proc + tail so the slowest calls can be found
T=/sys/kernel/tracing
[ -f $T/available_tracers ] || mount -t tracefs nodev $T
echo 0 > $T/tracing_on
echo nop > $T/current_tracer
echo 16384 > $T/buffer_size_kb
echo kfree_skbmem > $T/set_graph_function
echo $mun >> $T/set_graph_function
echo 3 > $T/max_graph_depth
for o in funcgraph-proc funcgraph-abstime funcgraph-tail funcgraph-irqs; do
	echo 1 > $T/options/$o
done
for e in irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit \
	irq_vectors/local_timer_entry irq_vectors/local_timer_exit sched/sched_switch; do
	echo 1 > $T/events/$e/enable 2>/dev/null || echo "demo-breakdown: no event $e"
done
echo function_graph > $T/current_tracer
echo > $T/trace
t0=$(up)
echo 1 > $T/tracing_on
/logdev/demo-workload "$@"
rc=$?
echo 0 > $T/tracing_on
echo "demo-breakdown: function_graph run: exit $rc, $t0 -> $(up) s"
cat $T/trace > $R/fgraph.txt
cat $T/per_cpu/cpu*/stats | grep -E '^(overrun|dropped)' > $R/fgraph-stats.txt
echo nop > $T/current_tracer
echo 0 > $T/events/enable
[ $rc = 0 ] || exit $rc

# 3. rtla timerlat: needs the timerlat tracer (CONFIG_TIMERLAT_TRACER)
if ! command -v rtla > /dev/null; then
	echo "rtla: not brought into the guest (no rtla on the host)" > $R/rtla.txt
elif ! grep -qw timerlat $T/available_tracers; then
	{ echo "rtla: $(uname -r) has no timerlat tracer (available: $(cat $T/available_tracers))"
	  echo "rtla timerlat top -q -d 2 says:"
	  rtla timerlat top -q -d 2 2>&1; echo "(exit $?)"; } > $R/rtla.txt
else
	rtla timerlat top -q -d 10 > $R/rtla.txt 2>&1 &
	r=$!
	sleep 1
	/logdev/demo-workload "$@"
	wait $r
	echo "(rtla exit $?)" >> $R/rtla.txt
fi
exit 0
