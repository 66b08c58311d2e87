#!/bin/sh
# Guest side of bench/kernel/sustained.sh:
#   guest-sustained.sh MS KB START STEPS MODES PROFILE_KB
# (MODES: buffer modes separated by commas, of overwrite and discard)
# Sustained recording: paced writers (logdev_bench's `pace`: one kthread per
# CPU, RATE records/s each for MS ms) while a recorder drains to /tmp (the
# initramfs: RAM), for
#   logdev:    edprint("bench %d %d"), `logdev record`
#   trace-cmd: trace_printk("bench %d %d"), `trace-cmd record -p nop`
# in each buffer mode of MODES, the same for both: logdev's debugfs `mode`,
# ftrace's options/overwrite (1 overwrite, 0 discard; written before
# trace-cmd starts and read back while it records: a rung where it differs
# is not clean), KB KiB per CPU and 4096-byte sub-buffers/pages for both.
#
# The writers' ceiling first: each scenario flat out (pace at 10,000,000/s)
# with recording on, overwrite mode, and no recorder: the highest rate the
# writers reach at all.  Lines in $RESULTS/ceiling.txt:
#   TOOL REACHED_PER_CPU WRITTEN BUSY_PCT
#
# Then per mode and tool the search: RATE starts at START and doubles (no
# top but pace's 10,000,000) until a rate is not held, then STEPS bisection
# steps (geometric, 2 significant digits) between the highest held rate and
# the lowest one not held.  A rate is HELD when two runs of it are both
# clean: the first run, and if it was clean a second (phase "confirm").
# A run is clean when the writers reached the rate (>= 90 %: a writer that
# cannot keep up reaches far less; late wake-ups on a loaded host skip a few),
# nothing was lost (logdev: stats overrun + dropped + nesting_lost + too_big,
# the same as the capture's LOST records, less the comm records among them;
# trace-cmd: the trace.dat's CPUSTAT overrun,
# commit overrun and dropped events - discard mode counts its losses there -
# and its LOST EVENTS lines), every record written is in the file, and the
# recorder exited 0.  REASON names what failed, the first of: rc, lost,
# missing (written != in file), short (writers short of the rate); or ok.
# One line per run in $RESULTS/sustained.txt:
#   MODE TOOL RATE PHASE WRITTEN REACHED SKIPPED IN_FILE LOST RC REC_USER_S REC_SYS_S BUSY_PCT CLEAN REASON
# PHASE: ladder, bisect (a first run) or confirm (the second run of a rate).
# REC_*: CPU seconds of the recorder's processes during the run (/proc/PID/stat,
# utime/stime; trace-cmd: all its processes); BUSY_PCT: the guest's CPUs'
# busy share during the writers' MS (/proc/stat).
# $RESULTS/best.txt, per mode and tool:
#   MODE TOOL best RATE first_unclean RATE REASON  (0: none)
# Then the loss counts read back from overflowed buffers (losscheck below), per
# mode; then where a reader's time goes on full buffers (profile), per mode:
# $RESULTS/profile.txt lines "MODE WHAT BYTES USER SYS".
ms=${1:-2000}
kb=${2:-1024}
start=${3:-32000}
steps=${4:-2}
modes=$(echo "${5:-discard,overwrite}" | tr , ' ')
pkb=${6:-32768}
R=${RESULTS:-/results}
D=/sys/kernel/debug
L=$D/logdev
B=$D/logdev_bench
T=$D/tracing
LD=/logdev/logdev.static
TC=/usr/bin/trace-cmd
MAXRATE=10000000
out=$R/sustained.txt

insmod /logdev/logdev.ko || exit 1
insmod /logdev/logdev_bench.ko || exit 1
echo 4096 > $L/subbuf_size || exit 1
echo 0 > $T/tracing_on
mkdir -p /sys/kernel/tracing && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
ncpu=$(nproc)
echo "$ncpu" > $R/nproc.txt
uname -r > $R/uname.txt
$TC --version 2>&1 | grep -m1 version > $R/trace-cmd-version.txt
: > "$out"
: > $R/best.txt

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
		[ $# -gt 0 ] && kill -9 "$@"
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

# the writers' totals from logdev_bench/last: "WRITTEN REACHED_RATE_PER_CPU SKIPPED"
pace_totals() {
	awk '$1 == "pace" { w += $6; r += $6 / ($7 / 1e9); n++; s += $8 } END { printf "%d %d %d", w, n ? r / n : 0, s }' $B/last
}

# set_mode MODE: logdev's and ftrace's buffers in MODE, KB KiB per CPU
set_mode() {
	echo 0 > $L/enable
	echo "$1" > $L/mode || exit 1
	echo "$kb" > $L/buffer_size_kb || exit 1
	echo 0 > $T/tracing_on
	echo "$kb" > $T/buffer_size_kb || exit 1
	[ "$1" = overwrite ] && ow=1 || ow=0
	echo $ow > $T/options/overwrite || exit 1
}

# ceiling: each scenario flat out, recording on, overwrite mode, no recorder
ceiling() {
	set_mode overwrite
	echo 1 > $L/clear
	echo 1 > $L/enable
	pace "edprint2 $MAXRATE $ms"
	echo 0 > $L/enable
	set -- $(pace_totals)
	echo "logdev $2 $1 $busy" >> $R/ceiling.txt
	echo > $T/trace
	echo 1 > $T/tracing_on
	pace "tp2 $MAXRATE $ms"
	echo 0 > $T/tracing_on
	set -- $(pace_totals)
	echo "trace-cmd $2 $1 $busy" >> $R/ceiling.txt
	echo > $T/trace
	cat $R/ceiling.txt
}

# logdev_count CAP: from logdev's stats and the capture CAP: $lost (stats
# overrun + dropped + nesting_lost + too_big), $comm (comm records written),
# $stw (records written less comm), $infile (the bench's records in CAP),
# $flost (the capture's LOST records)
logdev_count() {
	_cap=$1
	cat $L/stats > /tmp/s.stats
	lost=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "=");
		if (kv[1] ~ /^(overrun|dropped|nesting_lost|too_big)$/) s += kv[2] } } END { print s + 0 }' /tmp/s.stats)
	set -- $(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "written") w += kv[2]; if (kv[1] == "comm") c += kv[2] } }
		END { print w - c, c + 0 }' /tmp/s.stats)
	stw=$1 comm=$2
	set -- $(per_cpu ld_one "$_cap")
	infile=$1 flost=$2
}
# per_cpu FN FILE: "FN C FILE" for every CPU C at once (the count is most
# of a run's time under TCG: the guest's CPUs share it), each printing
# "RECORDS LOST"; their sums
per_cpu() {
	_c=0
	while [ $_c -lt "$ncpu" ]; do
		$1 $_c "$2" > /tmp/cnt.$_c &
		_c=$((_c + 1))
	done
	wait
	cat /tmp/cnt.* | awk '{ n += $1; l += $2 } END { print n + 0, l + 0 }'
	rm -f /tmp/cnt.*
}
# ld_one C CAP: the bench's records of CPU C in CAP and its LOST records
ld_one() {
	$LD report --raw --cpu "$1" "$2" 2>/dev/null | awk -F'\t' '
		$1 == "LOST" { l += $3; next } $8 ~ /^bench [0-9]+ [0-9]+$/ { n++ } END { print n + 0, l + 0 }'
}
# tc_one C DAT: the trace_printk records (bprint: only the bench's writers
# call it) of CPU C in DAT and its LOST EVENTS lines; -R: fields, not the
# formatted message (a third of the time)
tc_one() {
	$TC report -R -i "$2" --cpu "$1" 2>/dev/null | awk '
		/LOST [0-9]+ EVENTS/ { for (i = 1; i <= NF; i++) if ($i == "LOST") l += $(i + 1); next }
		/ bprint: / { n++ } END { print n + 0, l + 0 }'
}
# tracecmd_count DAT: from the trace.dat DAT: $slost (its CPUSTAT overrun +
# commit overrun + dropped events), $flost (its LOST EVENTS lines),
# $infile (the bench's records in it)
tracecmd_count() {
	$TC report --stat -i "$1" > /tmp/t.stat 2>&1
	slost=$(awk -F: '$1 ~ /^(overrun|commit overrun|dropped events)$/ { s += $2 } END { print s + 0 }' /tmp/t.stat)
	set -- $(per_cpu tc_one "$1")
	infile=$1 flost=$2
}

# run_logdev RATE: one run, a line in $out; 0 if clean
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
	written=$1 reached=$2 skipped=$3
	logdev_count /tmp/s.cap
	size=$(wc -c < /tmp/s.cap)
	[ "$stw" = "$written" ] || { echo "logdev stats written-comm $stw != paced $written"; rc=99; }
	# accounting: every record is in the file or counted lost, and the
	# capture's LOST records say as much as the stats.  The lost counts
	# include the comm records (task names) that went with lost sub-buffers
	# (overwrite mode): in file + lost may exceed the edprint records
	# written by at most the comm records written; lost is then the
	# edprint records lost
	extra=$((infile + lost - written))
	if [ "$flost" = "$lost" ] && [ $extra -ge 0 ] && [ $extra -le "$comm" ]; then
		lost=$((lost - extra))
	else
		echo "logdev accounting: in file $infile + lost $lost (capture LOST $flost) != written $written (+ up to $comm comm records)"
		rc=98
	fi
	verdict logdev "$r" "$written" "$reached" "$skipped" "$infile" "$lost" "$rc" "$rt" "$busy"
	echo "  logdev $mode $r/s: written $written, lost $lost (stats and capture LOST $flost, comm records among them $extra), in file $infile, $size bytes; record rc $rc: $(tail -c 200 /tmp/rec.log)"
	rm -f /tmp/s.cap
	[ "$clean" = yes ]
}

# run_tracecmd RATE: one run, a line in $out; 0 if clean
run_tracecmd() {
	r=$1
	echo 0 > $T/tracing_on
	echo > $T/trace
	rm -f /tmp/t.dat /tmp/t.dat.cpu*
	(cd /tmp && exec $TC record -p nop -b "$kb" -o /tmp/t.dat) > /tmp/tc.log 2>&1 &
	pid=$!
	wait_for $T/tracing_on 1 || { echo "trace-cmd record did not start tracing"; cat /tmp/tc.log; return 1; }
	sleep 0.5	# its per-CPU recorders are forked before tracing_on
	owseen=$(cat $T/options/overwrite)
	pace "tp2 $r $ms" $(pidof trace-cmd)
	kill -INT $pid
	wait $pid
	rc=$?
	[ "$owseen" = "$ow" ] || { echo "ftrace options/overwrite $owseen while recording, want $ow ($mode)"; rc=97; }
	set -- $(pace_totals)
	written=$1 reached=$2 skipped=$3
	tracecmd_count /tmp/t.dat
	size=$(wc -c < /tmp/t.dat)
	# the CPUSTAT counts and the LOST EVENTS lines may name the same
	# records (overwrite mode): the larger of the two is counted
	lost=$slost
	[ "$flost" -gt "$lost" ] && lost=$flost
	verdict trace-cmd "$r" "$written" "$reached" "$skipped" "$infile" "$lost" "$rc" "$rt" "$busy"
	echo "  trace-cmd $mode $r/s: written $written, CPUSTAT lost $slost, LOST EVENTS $flost, in file $infile, $size bytes, options/overwrite $owseen; record rc $rc"
	rm -f /tmp/t.dat /tmp/t.dat.cpu*
	[ "$clean" = yes ]
}

# verdict TOOL RATE WRITTEN REACHED SKIPPED IN_FILE LOST RC "USER SYS" BUSY:
# a line in $out, $clean
verdict() {
	if [ "$8" != 0 ]; then
		reason=rc
	elif [ "$7" != 0 ]; then
		reason=lost
	elif [ "$3" != "$6" ]; then
		reason=missing
	elif ! awk -v a="$4" -v r="$2" 'BEGIN { exit !(a >= 0.9 * r) }'; then
		reason=short
	else
		reason=ok
	fi
	[ $reason = ok ] && clean=yes || clean=no
	line="$mode $1 $2 $phase $3 $4 $5 $6 $7 $8 $9 ${10} $clean $reason"
	echo "$line" >> "$out"
	echo "$line"
}

# held TOOL RATE: the rate run, and if clean run again; 0 if both were clean
held() {
	_p=$phase
	run_$(echo "$1" | tr -d -) "$2" || return 1
	phase=confirm
	run_$(echo "$1" | tr -d -) "$2"
	_rc=$?
	phase=$_p
	return $_rc
}

# search TOOL: the ladder (doubling from START), then the bisection
search() {
	best=0 bad=0
	phase=ladder
	r=$start
	while [ "$r" -le $MAXRATE ]; do
		if held "$1" "$r"; then best=$r; else bad=$r; break; fi
		r=$((r * 2))
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
		if held "$1" "$mid"; then best=$mid; else bad=$mid; fi
		step=$((step + 1))
	done
	# why the lowest rate not held failed: its last run's reason
	why=$(awk -v m="$mode" -v t="$1" -v r="$bad" '$1 == m && $2 == t && $3 == r { w = $15 } END { print w ? w : "-" }' "$out")
	echo "$mode $1 best $best first_unclean $bad $why" >> $R/best.txt
}

# losscheck MODE: the loss counts read back with nothing draining: each
# tool's writers flat out for 300 ms into KB KiB per CPU, recording on, no
# recorder (the buffers overflow: discard mode drops, overwrite overwrites),
# then the buffers read whole (`logdev record --no-enable --duration 0`,
# `trace-cmd extract`).  Lines in $R/losscheck.txt:
#   MODE TOOL WRITTEN IN_FILE LOST COMM
# (logdev's LOST counts comm records with lost sub-buffers: at most COMM;
# trace-cmd's LOST: the larger of CPUSTAT's and the LOST EVENTS lines', COMM 0)
losscheck() {
	set_mode "$1"
	echo 1 > $L/clear
	echo 1 > $L/enable
	pace "edprint2 $MAXRATE 300"
	echo 0 > $L/enable
	set -- "$1" $(pace_totals)
	rm -f /tmp/l.cap
	$LD record --no-enable --duration 0 -o /tmp/l.cap > /tmp/rec.log 2>&1 || echo "losscheck: logdev record failed: $(tail -c 200 /tmp/rec.log)"
	logdev_count /tmp/l.cap
	[ "$flost" = "$lost" ] || echo "losscheck: logdev stats lost $lost, capture LOST $flost"
	echo "$1 logdev $2 $infile $lost $comm" >> $R/losscheck.txt
	rm -f /tmp/l.cap
	echo > $T/trace
	echo 1 > $T/tracing_on
	pace "tp2 $MAXRATE 300"
	echo 0 > $T/tracing_on
	set -- "$1" $(pace_totals)
	rm -f /tmp/l.dat*
	(cd /tmp && exec $TC extract -o /tmp/l.dat) > /tmp/tc.log 2>&1 || echo "losscheck: trace-cmd extract failed: $(tail -c 200 /tmp/tc.log)"
	tracecmd_count /tmp/l.dat
	[ "$flost" -gt "$slost" ] && slost=$flost
	echo "$1 trace-cmd $2 $infile $slost 0" >> $R/losscheck.txt
	rm -f /tmp/l.dat*
	echo > $T/trace
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
# fill_logdev MS: both CPUs' logdev buffers written flat out for MS ms, then
# recording off (1,000,000 records/s of 33 bytes fill 32 MiB in a second)
fill_logdev() {
	echo 1 > $L/clear
	echo 1 > $L/enable
	echo "edprint2 $MAXRATE $1" > $B/pace || exit 1
	echo 0 > $L/enable
}

# profile MODE: where a reader's time goes, on full buffers of PROFILE_KB KiB
# per CPU filled in MODE, recording off (the rate does not matter): the read
# alone (dd to /dev/null), read + write to the initramfs (dd to /tmp), and
# the whole `logdev record` (read, capture sections, record count).
# Lines in $R/profile.txt: MODE WHAT BYTES USER SYS
profile() {
	pf=$R/profile.txt
	echo 0 > $L/enable
	echo "$1" > $L/mode || exit 1
	echo "$pkb" > $L/buffer_size_kb || exit 1
	for i in 1 2; do
		fill_logdev 1500
		set -- "$1" $(secs dd if=$L/per_cpu/cpu0/trace_pipe_raw of=/dev/null bs=65536)
		echo "$1 logdev-read-devnull $(dd_bytes) $2 $3" >> $pf
		set -- "$1" $(secs dd if=$L/per_cpu/cpu1/trace_pipe_raw of=/tmp/p.raw bs=65536)
		echo "$1 logdev-read-tmpfs $(dd_bytes) $2 $3" >> $pf
		rm -f /tmp/p.raw
		fill_logdev 1500
		set -- "$1" $(secs $LD record --no-enable --duration 0 -o /tmp/p.cap)
		echo "$1 logdev-record $(wc -c < /tmp/p.cap) $2 $3" >> $pf
		rm -f /tmp/p.cap
	done
}

# idle_cost: the recorders with recording on and nothing written, 3 s each
idle_cost() {
	pf=$R/profile.txt
	set_mode discard
	echo 1 > $L/clear
	$LD record -o /tmp/p.cap > /dev/null 2>&1 &
	pid=$!
	wait_for $L/enable 1
	set -- $(proc_secs $pid)
	sleep 3
	set -- $(proc_secs $pid) "$@"
	echo "- logdev-record-idle-3s 0 $(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", a - b }') $(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2f", a - b }')" >> $pf
	kill -TERM $pid
	wait $pid
	rm -f /tmp/p.cap
	(cd /tmp && exec $TC record -p nop -b "$kb" -o /tmp/t.dat) > /dev/null 2>&1 &
	pid=$!
	wait_for $T/tracing_on 1
	sleep 0.5
	pids=$(pidof trace-cmd)
	set -- $(proc_secs $pids)
	sleep 3
	set -- $(proc_secs $pids) "$@"
	echo "- trace-cmd-record-idle-3s 0 $(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.2f", a - b }') $(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2f", a - b }')" >> $pf
	kill -INT $pid
	wait $pid
	rm -f /tmp/t.dat*
}

echo "sustained: $ms ms per run, $kb KiB per CPU, rates from $start doubling, $steps bisection steps, modes $modes"
ceiling
: > $R/losscheck.txt
for mode in $modes; do
	losscheck "$mode"
done
cat $R/losscheck.txt
for mode in $modes; do
	set_mode "$mode"
	search logdev
	set_mode "$mode"
	search trace-cmd
done
cat "$out"
: > $R/profile.txt
for mode in $modes; do
	profile "$mode"
done
idle_cost
cat $R/profile.txt
rmmod logdev_bench || echo "rmmod logdev_bench failed"
rmmod logdev || echo "rmmod logdev failed"
exit 0
