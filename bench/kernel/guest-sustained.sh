#!/bin/sh
# Guest side of bench/kernel/sustained.sh: guest-sustained.sh MS KB LADDER STEPS
# (LADDER: rates separated by commas)
# Sustained recording: paced writers (logdev_bench's `pace`: one kthread per
# CPU, RATE records/s each for MS ms) while a recorder drains to /tmp (the
# initramfs: RAM), for
#   logdev:    edprint("bench %d %d"), `logdev record` (discard mode)
#   trace-cmd: trace_printk("bench %d %d"), `trace-cmd record -p nop`
#              (per-CPU recorders, splice; ftrace in its default overwrite
#              mode: a record the reader did not take in time is an overrun)
# both with KB KiB per CPU and 4096-byte sub-buffers/pages.  RATE walks up
# LADDER (records/s per CPU) for each tool until the first rung that is not
# clean, then STEPS bisection steps (geometric) between the last clean rung
# and that one, then the best rate once more (the confirmation).
# A rung is clean when the writers reached the rate (>= 90 %: a writer that
# cannot keep up reaches far less; late wake-ups on a loaded host skip a
# few), nothing was lost (logdev: stats overrun + dropped + nesting_lost + too_big and the
# capture's LOST records; trace-cmd: the CPUSTAT overrun, commit overrun and
# dropped events of the trace.dat and its LOST EVENTS lines) and every
# record written is in the file.
# One line per rung in $RESULTS/sustained.txt:
#   TOOL RATE WRITTEN REACHED_RATE IN_FILE LOST RC REC_USER_S REC_SYS_S BUSY_PCT CLEAN PHASE SKIPPED
# REC_*: CPU seconds of the recorder's processes during the run (/proc/PID/stat,
# utime/stime; trace-cmd: all its processes); BUSY_PCT: the guest's CPUs'
# busy share during the writers' MS (/proc/stat).
ms=${1:-3000}
kb=${2:-1024}
ladder=$(echo "${3:-4000,8000,16000,32000,64000,128000,256000,512000}" | tr , ' ')
steps=${4:-3}
R=${RESULTS:-/results}
D=/sys/kernel/debug
L=$D/logdev
B=$D/logdev_bench
T=$D/tracing
LD=/logdev/logdev.static
TC=/usr/bin/trace-cmd
out=$R/sustained.txt

insmod /logdev/logdev.ko || exit 1
insmod /logdev/logdev_bench.ko || exit 1
echo discard > $L/mode || exit 1
echo 4096 > $L/subbuf_size || exit 1
echo "$kb" > $L/buffer_size_kb || exit 1
echo "$kb" > $T/buffer_size_kb || exit 1
echo 0 > $T/tracing_on
mkdir -p /sys/kernel/tracing && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
nproc > $R/nproc.txt
uname -r > $R/uname.txt
$TC --version 2>&1 | grep -m1 version > $R/trace-cmd-version.txt
: > "$out"

# the guest's CPU time so far: busy and total jiffies, all CPUs
cpu_jiffies() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}
# utime + stime of the PIDs, in seconds (USER_HZ 100): "USER SYS"
proc_secs() {
	for p in "$@"; do cat /proc/"$p"/stat 2>/dev/null; done |
		awk '{ sub(/.*\) /, ""); u += $12; s += $13 } END { printf "%.2f %.2f", u / 100, s / 100 }'
}
# until FILE reads WANT (up to 10 s); 0 if it did
wait_for() {
	_wi=0
	while [ "$(cat "$1")" != "$2" ]; do
		[ $_wi -ge 100 ] && return 1
		sleep 0.1
		_wi=$((_wi + 1))
	done
}
# pace "SCENARIO RATE MS" PIDS...: the paced writers; $busy: the guest's
# CPUs' busy percentage meanwhile, $rt: "USER SYS" CPU seconds the PIDS
# (the recorder) used meanwhile.  A failed pace ends the whole run.
pace() {
	_w=$1
	shift
	set -- $(cpu_jiffies) $(proc_secs "$@") "$@"
	_b0=$1 _t0=$2 _u0=$3 _s0=$4
	shift 4
	if ! echo "$_w" > $B/pace; then
		echo "pace '$_w' failed"
		kill -9 "$@"
		exit 1
	fi
	set -- $(cpu_jiffies) $(proc_secs "$@")
	busy=$(awk -v b="$(($1 - _b0))" -v t="$(($2 - _t0))" 'BEGIN { printf "%.0f", t ? 100 * b / t : 0 }')
	rt=$(awk -v u="$3" -v s="$4" -v u0="$_u0" -v s0="$_s0" 'BEGIN { printf "%.2f %.2f", u - u0, s - s0 }')
}

# isqrt N: the integer square root (busybox awk has no sqrt)
isqrt() {
	_x=$1 _y=$(( ($1 + 1) / 2 ))
	[ "$_x" -le 1 ] && { echo "$_x"; return; }
	while [ "$_y" -lt "$_x" ]; do
		_x=$_y
		_y=$(( (_x + $1 / _x) / 2 ))
	done
	echo "$_x"
}

# the writers' totals from logdev_bench/last: "WRITTEN REACHED_RATE_PER_CPU"
pace_totals() {
	awk '$1 == "pace" { w += $6; r += $6 / ($7 / 1e9); n++ } END { printf "%d %d", w, n ? r / n : 0 }' $B/last
	awk '$1 == "pace" { s += $8 } END { print s + 0 }' $B/last > /tmp/skipped
}

# run_logdev RATE: one rung, a line in $out; 0 if clean
run_logdev() {
	r=$1
	echo 1 > $L/clear
	rm -f /tmp/s.cap
	$LD record -o /tmp/s.cap > /tmp/rec.log 2>&1 &
	pid=$!
	wait_for $L/enable 1 || { echo "logdev record did not enable"; cat /tmp/rec.log; return 1; }
	pace "edprint2 $r $ms" $pid
	kill -TERM $pid
	wait $pid
	rc=$?
	set -- $(pace_totals)
	written=$1 reached=$2
	cat $L/stats > /tmp/s.stats
	lost=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "=");
		if (kv[1] ~ /^(overrun|dropped|nesting_lost|too_big)$/) s += kv[2] } } END { print s + 0 }' /tmp/s.stats)
	stw=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "written") s += kv[2]; if (kv[1] == "comm") s -= kv[2] } } END { print s + 0 }' /tmp/s.stats)
	set -- $($LD report --raw /tmp/s.cap 2>/tmp/s.err | awk -F'\t' '
		$1 == "LOST" { l += $3; next } $8 ~ /^bench [0-9]+ [0-9]+$/ { n++ } END { print n + 0, l + 0 }')
	infile=$1 flost=$2
	size=$(wc -c < /tmp/s.cap)
	[ "$stw" = "$written" ] || { echo "logdev stats written-comm $stw != paced $written"; rc=99; }
	# exact accounting: every record is in the file or counted lost, and
	# the capture's LOST records say as much as the stats
	[ "$flost" = "$lost" ] && [ $((infile + lost)) = "$written" ] ||
		{ echo "logdev accounting: in file $infile + lost $lost (capture LOST $flost) != written $written"; rc=98; }
	verdict "logdev" "$r" "$written" "$reached" "$infile" "$lost" "$rc" "$rt" "$busy"
	echo "  logdev $r/s: written $written, stats lost $lost, capture LOST $flost, in file $infile, $size bytes; record rc $rc: $(tail -c 200 /tmp/rec.log)"
	rm -f /tmp/s.cap
	[ "$clean" = yes ]
}

# run_tracecmd RATE: one rung, a line in $out; 0 if clean
run_tracecmd() {
	r=$1
	echo 0 > $T/tracing_on
	echo > $T/trace
	rm -f /tmp/t.dat /tmp/t.dat.cpu*
	(cd /tmp && exec $TC record -p nop -b "$kb" -o /tmp/t.dat) > /tmp/tc.log 2>&1 &
	pid=$!
	wait_for $T/tracing_on 1 || { echo "trace-cmd record did not start tracing"; cat /tmp/tc.log; return 1; }
	sleep 0.5	# its per-CPU recorders are forked before tracing_on
	pace "tp2 $r $ms" $(pidof trace-cmd)
	kill -INT $pid
	wait $pid
	rc=$?
	set -- $(pace_totals)
	written=$1 reached=$2
	$TC report --stat -i /tmp/t.dat > /tmp/t.stat 2>&1
	lost=$(awk -F: '$1 ~ /^(overrun|commit overrun|dropped events)$/ { s += $2 } END { print s + 0 }' /tmp/t.stat)
	set -- $($TC report -i /tmp/t.dat 2>/dev/null | awk '
		/LOST [0-9]+ EVENTS/ { for (i = 1; i <= NF; i++) if ($i == "LOST") l += $(i + 1); next }
		/ bench [0-9]+ [0-9]+$/ { n++ } END { print n + 0, l + 0 }')
	infile=$1 flost=$2
	size=$(wc -c < /tmp/t.dat)
	verdict "trace-cmd" "$r" "$written" "$reached" "$infile" "$((lost + flost))" "$rc" "$rt" "$busy"
	echo "  trace-cmd $r/s: written $written, CPUSTAT lost $lost, LOST EVENTS $flost, in file $infile, $size bytes; record rc $rc"
	rm -f /tmp/t.dat /tmp/t.dat.cpu*
	[ "$clean" = yes ]
}

# verdict TOOL RATE WRITTEN REACHED IN_FILE LOST RC "USER SYS" BUSY: a line in $out, $clean
phase=ladder
verdict() {
	clean=no
	if [ "$6" = 0 ] && [ "$3" = "$5" ] && [ "$7" = 0 ] &&
	   awk -v a="$4" -v r="$2" 'BEGIN { exit !(a >= 0.9 * r) }'; then
		clean=yes
	fi
	echo "$1 $2 $3 $4 $5 $6 $7 $8 $9 $clean $phase $(cat /tmp/skipped)" >> "$out"
	echo "$1 $2 $3 $4 $5 $6 $7 $8 $9 $clean $phase"
}

# search TOOL: the ladder, then the bisection, then the confirmation
search() {
	f=run_$(echo "$1" | tr -d -)
	best=0 bad=0
	phase=ladder
	for r in $ladder; do
		if $f "$r"; then best=$r; else bad=$r; break; fi
	done
	phase=bisect
	step=0
	while [ "$bad" != 0 ] && [ $step -lt "$steps" ]; do
		lo=$best
		[ "$lo" = 0 ] && lo=$((bad / 4))
		# the geometric midpoint, to 2 significant digits
		mid=$(isqrt $((lo * bad)))
		e=1
		while [ $((mid / e)) -ge 100 ]; do e=$((e * 10)); done
		mid=$(( (mid + e / 2) / e * e ))
		[ "$mid" -le "$best" ] || [ "$mid" -ge "$bad" ] && break
		if $f "$mid"; then best=$mid; else bad=$mid; fi
		step=$((step + 1))
	done
	phase=confirm
	[ "$best" != 0 ] && $f "$best"
	echo "$1 best $best first_unclean $bad" >> $R/best.txt
}

# secs CMD...: run CMD under busybox time; "USER SYS" seconds on stdout,
# CMD's stderr (dd's byte count) in /tmp/secs.err
secs() {
	time "$@" 2> /tmp/secs.err
	awk '$1 == "user" || $1 == "sys" { v[$1] = 60 * $2 + $3 }
	     END { printf "%.2f %.2f", v["user"], v["sys"] }' /tmp/secs.err
}
# the bytes dd copied, from "N+M records out" (bs=65536): a partial block
# counted as half of one (at most one of hundreds)
dd_bytes() {
	awk '/records out/ { split($1, a, "+"); printf "%d", a[1] * 65536 + a[2] * 32768; exit }' /tmp/secs.err
}
# fill_logdev: both CPUs' logdev buffers full (discard mode), recording off
fill_logdev() {
	echo 1 > $L/clear
	echo 1 > $L/enable
	echo "edprint2 1000000 $1" > $B/pace || exit 1
	echo 0 > $L/enable
}

# profile KB: where a reader's time goes, on full buffers of KB KiB per
# CPU, recording off (the rate does not matter): the read alone (dd to
# /dev/null), read + write to the initramfs (dd to /tmp), and the whole
# `logdev record` (read, capture sections, record count); ftrace's
# trace_pipe_raw read by dd (its read(2) path, a copy like ours; trace-cmd
# record splices instead).  Lines in $R/profile.txt: WHAT BYTES USER SYS
profile() {
	pk=$1 pf=$R/profile.txt
	: > $pf
	echo "$pk" > $L/buffer_size_kb || exit 1
	echo "$pk" > $T/buffer_size_kb || exit 1
	for i in 1 2; do
		fill_logdev 600
		set -- $(secs dd if=$L/per_cpu/cpu0/trace_pipe_raw of=/dev/null bs=65536)
		echo "logdev-read-devnull $(dd_bytes) $1 $2" >> $pf
		set -- $(secs dd if=$L/per_cpu/cpu1/trace_pipe_raw of=/tmp/p.raw bs=65536)
		echo "logdev-read-tmpfs $(dd_bytes) $1 $2" >> $pf
		rm -f /tmp/p.raw
		fill_logdev 600
		set -- $(secs $LD record --no-enable --duration 0 -o /tmp/p.cap)
		echo "logdev-record $(wc -c < /tmp/p.cap) $1 $2" >> $pf
		rm -f /tmp/p.cap
	done
	# the recorders with recording on and nothing written: 3 s
	echo 1 > $L/clear
	$LD record -o /tmp/p.cap > /dev/null 2>&1 &
	pid=$!
	wait_for $L/enable 1
	set -- $(proc_secs $pid)
	sleep 3
	set -- $(proc_secs $pid) "$@"
	echo "logdev-record-idle-3s 0 $(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", a - b }') $(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2f", a - b }')" >> $pf
	kill -TERM $pid
	wait $pid
	rm -f /tmp/p.cap
	echo 0 > $T/tracing_on
	(cd /tmp && exec $TC record -p nop -b "$kb" -o /tmp/t.dat) > /dev/null 2>&1 &
	pid=$!
	wait_for $T/tracing_on 1
	sleep 0.5
	pids=$(pidof trace-cmd)
	set -- $(proc_secs $pids)
	sleep 3
	set -- $(proc_secs $pids) "$@"
	echo "trace-cmd-record-idle-3s 0 $(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", a - b }') $(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2f", a - b }')" >> $pf
	kill -INT $pid
	wait $pid
	rm -f /tmp/t.dat*
	cat $pf
}

echo "sustained: $ms ms per rung, $kb KiB per CPU, ladder $ladder, $steps bisection steps"
: > $R/best.txt
search logdev
search trace-cmd
cat "$out"
profile 16384
rmmod logdev_bench || echo "rmmod logdev_bench failed"
rmmod logdev || echo "rmmod logdev failed"
exit 0
