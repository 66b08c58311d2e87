#!/bin/sh
# Guest side of bench/kernel/bdcost.sh: guest-bdcost.sh N ROUNDS
# What record --breakdown's context markers cost a context-switch-heavy
# workload (issue 28, point 1): `vmtool pingpong N 0` (two processes on
# CPU 0 passing a byte over pipes: 2 switches and 2 wake-ups a round trip)
# timed in ROUNDS rounds, the conditions' order rotating each round:
#   none    the workload alone
#   record  logdev record -- workload (the recorder, no probes attached)
#   bd      logdev record --breakdown -- workload (the 9 markers)
#   ftrace  the same 9 events through tracefs (tracing_on, no reader: what
#           trace-cmd or Perfetto would have the kernel write), in a buffer
#           of logdev's per-CPU size
# The recorder runs on CPU 1 (taskset), away from the workload.
# Results: results.txt "ROUND LABEL NS_PER_ROUNDTRIP"; counts.txt
# "ROUND LABEL RECORDS BYTES PER LOST COMM" (logdev: stats written less comm,
# bytes, written, overrun+dropped+nesting_lost+too_big, comm; ftrace, over
# the CPUs: entries+overrun, bytes, entries (bytes and entries are of what
# the buffer holds), overrun: overwritten, the buffer being a ring, 0); events.txt
# (the ftrace events there), uname.txt, nproc.txt, stats-*.txt, record.err;
# bd-kinds.txt, ftrace-kinds.txt, bd-sample.txt, ftrace-sample.txt (one
# more untimed run of each: the records by kind, 200 lines of each).
n=${1:-10000}
rounds=${2:-7}
R=${RESULTS:-/results}
D=/sys/kernel/debug
L=$D/logdev
T=$D/tracing
LD=/logdev/logdev.static
V=/logdev/vmtool
EVENTS='irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit
nmi/nmi_handler irq_vectors/local_timer_entry irq_vectors/local_timer_exit
sched/sched_switch sched/sched_waking'
uname -r > $R/uname.txt
nproc > $R/nproc.txt
: > $R/results.txt
: > $R/counts.txt
: > $R/record.err
insmod /logdev/logdev.ko || exit 1
kb=$(cat $L/buffer_size_kb)
echo 0 > $T/tracing_on
echo "$kb" > $T/buffer_size_kb || exit 1
# the events this kernel has (nmi_handler, local_timer_*: as record
# --breakdown, which leaves out the optional markers a kernel lacks)
: > $R/events.txt
for e in $EVENTS; do
	[ -f $T/events/$e/enable ] && echo $e >> $R/events.txt
done

ns() { sed -n 's/^pingpong [0-9]* //p' /tmp/pp.out; }
lstats() {	# ROUND LABEL: logdev's stats of the run into counts.txt
	cat $L/stats > $R/stats-$2-$1.txt
	awk -v r="$1" -v l="$2" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] += kv[2] } }
		END { printf "%s %s %d %d %d %d %d\n", r, l, v["written"] - v["comm"], v["bytes"], v["written"],
			v["overrun"] + v["dropped"] + v["nesting_lost"] + v["too_big"], v["comm"] }' $L/stats >> $R/counts.txt
}
one() {	# ROUND LABEL: one timed run of the workload under LABEL
	rm -f /tmp/x.cap
	case $2 in
	none)	$V pingpong $n 0 > /tmp/pp.out || return 1 ;;
	record|bd)
		echo 1 > $L/clear
		bd=
		[ $2 = bd ] && bd=--breakdown
		taskset -c 1 $LD record $bd -o /tmp/x.cap -- $V pingpong $n 0 > /tmp/pp.out 2>> $R/record.err ||
			{ echo "bench: record $bd failed"; tail -n 3 $R/record.err; return 1; }
		lstats $1 $2 ;;
	ftrace)
		echo > $T/trace
		for e in $(cat $R/events.txt); do echo 1 > $T/events/$e/enable; done
		echo 1 > $T/tracing_on
		$V pingpong $n 0 > /tmp/pp.out || return 1
		echo 0 > $T/tracing_on
		for e in $(cat $R/events.txt); do echo 0 > $T/events/$e/enable; done
		cat $T/per_cpu/cpu*/stats > $R/stats-ftrace-$1.txt
		awk -v r="$1" '/^entries:/ { e += $2 } /^overrun:/ { o += $2 } /^bytes:/ { b += $2 }
			END { printf "%s ftrace %d %d %d %d 0\n", r, e + o, b, e, o }' $R/stats-ftrace-$1.txt >> $R/counts.txt ;;
	esac
	echo "$1 $2 $(ns)" >> $R/results.txt
}

# one run of each first, untimed: warms the caches, the page cache of the
# binaries, and shows a broken condition before the rounds
for c in none record bd ftrace; do
	one 0 $c || exit 1
done
: > $R/results.txt
: > $R/counts.txt
set -- none record bd ftrace
round=1
while [ "$round" -le "$rounds" ]; do
	for c in "$@"; do
		one $round $c || exit 1
	done
	# rotate the order: each condition goes first in turn
	c=$1; shift; set -- "$@" "$c"
	round=$((round + 1))
done
# what the records are, by kind: one more run of each, untimed (the round
# trips' share of wake-ups varies: a woken task that preempts its waker
# answers before the waker sleeps, and no wake-up is needed)
echo 1 > $L/clear
taskset -c 1 $LD record --breakdown -o /tmp/x.cap -- $V pingpong $n 0 > /dev/null 2>> $R/record.err
$LD report /tmp/x.cap > /tmp/x.txt 2> /dev/null
grep -o 'logdev_bd_[a-z_]*' /tmp/x.txt | sort | uniq -c > $R/bd-kinds.txt
sed -n '20000,20200p' /tmp/x.txt > $R/bd-sample.txt
cp $R/results.txt $R/counts.txt /tmp/
one 0 ftrace > /dev/null
cp /tmp/results.txt /tmp/counts.txt $R/	# that run is not one of the rounds
grep -v '^#' $T/trace | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_]+:$/) { print $i; break } }' |
	sort | uniq -c > $R/ftrace-kinds.txt
grep -v '^#' $T/trace | sed -n '10000,10200p' > $R/ftrace-sample.txt
rm -f /tmp/x.cap /tmp/x.txt
rmmod logdev
cat $R/results.txt $R/counts.txt
