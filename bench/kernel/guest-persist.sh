#!/bin/sh
# Guest side of bench/kernel/persist.sh: guest-persist.sh NR RUNS
# The write cost of a record in reserved memory against normal memory,
# side by side in each of RUNS rounds (the order alternating):
#   area    logdev loaded with persist=memmap:8M@0x10000000 (the flight
#           recorder: rings in the memmap= range, mapped write-back)
#   normal  logdev loaded without (rings in vmalloc memory)
# both timing logdev_bench's edprint2 (NR records per CPU); and where the
# kernel has ftrace's persistent instance (trace_instance=boot_map@... on
# the command line, 6.12+), trace_printk (tp2) into it (boot_map) against
# the top instance (top), switched by boot_map's trace_printk_dest.
# One line per measurement in $RESULTS/results.txt: ROUND LABEL NS CPUS NR
nr=${1:-20000}
runs=${2:-5}
R=${RESULTS:-/results}
D=/sys/kernel/debug
L=$D/logdev
B=$D/logdev_bench
T=$D/tracing
BM=$T/instances/boot_map
uname -r > $R/uname.txt
nproc > $R/nproc.txt
: > $R/results.txt
load() {	# PLACE: logdev and the bench, recording
	p=
	[ "$1" = area ] && p=persist=memmap:8M@0x10000000
	insmod /logdev/logdev.ko $p enable=1 || return 1
	insmod /logdev/logdev_bench.ko nr="$nr" || return 1
}
unload() { rmmod logdev_bench; rmmod logdev; }
one() {	# ROUND LABEL SCENARIO
	echo "$3" > $B/run || { echo "bench: $2 $3 failed"; return 1; }
	read -r s ns c n < $B/last
	echo "$1 $2 $ns $c $n" >> $R/results.txt
}
ft=
[ -d $BM ] && ft=1 && echo 1 > $BM/tracing_on && echo 1 > $T/tracing_on
round=1
while [ "$round" -le "$runs" ]; do
	order="area normal"
	[ $((round % 2)) = 0 ] && order="normal area"
	for place in $order; do
		load $place || exit 1
		one $round $place edprint2 || exit 1
		if [ -n "$ft" ] && [ $place = normal ]; then
			for dest in $( [ $((round % 2)) = 0 ] && echo "top boot_map" || echo "boot_map top"); do
				[ $dest = boot_map ] && echo 1 > $BM/options/trace_printk_dest ||
					echo 1 > $T/options/trace_printk_dest
				one $round ft-$dest tp2 || exit 1
			done
		fi
		unload
	done
	round=$((round + 1))
done
[ -n "$ft" ] && cat $BM/per_cpu/cpu0/stats > $R/bootmap-stats.txt
cat $R/results.txt
