#!/bin/sh
# Guest side of bench/kernel/run.sh: guest-bench.sh NR RUNS
# logdev_bench: bytes per record from each scenario alone, then RUNS rounds
# of the interleaved runs; one line per measurement in $RESULTS/results.txt:
#   ROUND LABEL SCENARIO NS CPUS NR   (LABEL offN: edprintN, static key off)
nr=${1:-20000}
runs=${2:-5}
R=${RESULTS:-/results}
D=/sys/kernel/debug
L=$D/logdev
B=$D/logdev_bench
T=$D/tracing
insmod /logdev/logdev.ko || exit 1
insmod /logdev/logdev_bench.ko nr="$nr" || exit 1
echo 4096 > $L/buffer_size_kb || exit 1
echo 4096 > $T/buffer_size_kb || exit 1
echo 1 > $T/tracing_on
cat $T/events/ftrace/bprint/format > $R/bprint.format
cat $T/events/ftrace/bputs/format > $R/bputs.format
cat $L/header > $R/logdev.header
uname -r > $R/uname.txt
nproc > $R/nproc.txt
: > $R/results.txt
P=/sys/module/logdev_bench/parameters/nr
# bytes/record: each scenario alone, a few records, logdev and ftrace stats
echo 2000 > $P
for s in edprint0 edprint2 edprint2s edprint2c edvb0 edvb2 edvb2s tp0 tp2 tp2s; do
	case $s in
	tp*)
		echo > $T/trace
		echo "$s" > $B/run || exit 1
		cat $T/per_cpu/cpu*/stats > $R/ftstats-$s.txt ;;
	*)
		echo 1 > $L/clear
		echo 1 > $L/enable
		echo "$s" > $B/run || exit 1
		echo 0 > $L/enable
		cat $L/stats > $R/stats-$s.txt ;;
	esac
done
echo "$nr" > $P
# timings: per round, every recording scenario interleaved in blocks of 64
# records with logdev on ("mix"), then no call against edprint with the
# static key off, interleaved in blocks of 4096 ("mixoff")
round=1
while [ "$round" -le "$runs" ]; do
	echo 1 > $L/clear
	echo 1 > $L/enable
	echo mix > $B/run || { echo "mix failed"; exit 1; }
	cat $B/last | while read -r s ns c n; do echo "$round $s $s $ns $c $n"; done >> $R/results.txt
	echo 0 > $L/enable
	echo mixoff > $B/run || { echo "mixoff failed"; exit 1; }
	cat $B/last | while read -r s ns c n; do
		l=$s
		case $s in edprint*) l=off${s#edprint} ;; esac
		echo "$round $l $s $ns $c $n"
	done >> $R/results.txt
	round=$((round + 1))
done
cat $R/results.txt
rmmod logdev_bench
rmmod logdev
