#!/bin/sh
# Guest side of bench/kernel/run.sh: guest-bench.sh NR RUNS
# Every scenario of logdev_bench, RUNS rounds, each round all scenarios in
# turn; one line per measurement in $RESULTS/results.txt:
#   ROUND LABEL SCENARIO NS CPUS NR
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
one() {	# LABEL SCENARIO
	echo "$2" > $B/run || { echo "run $2 failed"; exit 1; }
	echo "$round $1 $(cat $B/last)" >> $R/results.txt
}
round=1
while [ "$round" -le "$runs" ]; do
	for s in nocall edprint0 edprint2 edprint2s edct0 edct2 edct2s off0 off2 off2s tp0 tp2 tp2s rb0 rb2 rb2s; do
		case $s in
		edprint*|edct*)
			echo 1 > $L/clear
			echo 1 > $L/enable
			one "$s" "$s"
			echo 0 > $L/enable
			cat $L/stats > $R/stats-$s.txt ;;
		off*)
			echo 0 > $L/enable
			one "$s" "edprint${s#off}" ;;
		tp*)
			echo > $T/trace
			one "$s" "$s"
			cat $T/per_cpu/cpu*/stats > $R/ftstats-$s.txt ;;
		*)
			one "$s" "$s" ;;
		esac
	done
	round=$((round + 1))
done
cat $R/results.txt
rmmod logdev_bench
rmmod logdev
