#!/bin/bash
# Host side of vm-breakdown (guest-breakdown.sh; issue 28, point 3).
#   check-breakdown.sh DIR NAME
# bd.cap holds pairs "bd S in" .. "bd S out" of logdev_test's breakdown
# scenarios, each with a known cost injected (bd_result.txt, one line per
# run in order: injected_ns measured where it was spent, in logdev's clock).
# For every run, `export --breakdown` must put at least 90 % of the
# injected time in the scenario's bucket:
#   busy          own        (the loop, less what interrupts and tasks that
#                            preempted it took: a stalled tick, rcuc/1 on
#                            PREEMPT_RT; never blocked)
#   irqoff        own        (the interrupts-off stall: the task's; with the
#                            200 us loop around it, less the same)
#   hrtimer       hardirq    (the local timer interrupt around the callback,
#                            less the NMIs that hit the pair)
#   softirq       softirq    (the tasklet, less the pair's hardirqs, NMIs and
#                            preemption: the tick that lands in the tasklet is
#                            hardirq; on PREEMPT_RT a thread may preempt it)
#   preempt       preempted  (the SCHED_FIFO hog)
#   sleep         blocked    (woken on an idle CPU: the wait is the sleep's)
#                 of the sleep asked for (scenarios.txt) where injected_ns,
#                 taken around usleep_range(), is more; less what the task
#                 ran of it before it slept (the pair's own beyond the
#                 scenario's 200 us loop, LT_BD_BUSY_US): the timer runs from
#                 when it is armed, and arming it reads the HPET under TCG
#                 (up to 0.6 ms, a stalled vCPU more), the task's own time;
#                 on PREEMPT_RT the wake-up comes from the ktimers thread and
#                 other threads may run first: blocked + preempted
#   nmi           nmi        (the NMI handler's own delta_ns)
# and `deltas --breakdown` must name the culprit of the slowest instances:
# local timer, softirq TASKLET, lt_bd_hog, a waker, an NMI handler.  The
# capture without markers (nobd.cap) is refused: exit 2, nothing on stdout.
# INFO: per scenario, the median share of the injected time in its bucket.
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/vm/lib.sh"
P=$name
[ -s "$dir/bd.cap" ] || { fail "no bd.cap came back"; exit 1; }
[ -s "$dir/bd_result.txt" ] || { fail "no bd_result.txt came back"; exit 1; }
rt=0
grep -q -- '-rt' "$dir/uname.txt" 2> /dev/null && rt=1
[ -s "$dir/scenarios.txt" ] || { fail "no scenarios.txt came back"; exit 1; }
"$logdev" export --format csv --breakdown "$dir/bd.cap" > "$dir/bd.csv" 2> "$dir/bd.csv.err"
rc=$?
if [ $rc != 0 ] && [ $rc != 3 ]; then
	fail "logdev export --breakdown failed ($rc): $(head -c 300 "$dir/bd.csv.err")"; exit 1
fi
"$logdev" deltas --breakdown "$dir/bd.cap" > "$dir/bd.deltas" 2> "$dir/bd.deltas.err"
rc=$?
check_eq "deltas --breakdown of bd.cap exits 0 or 3" "$([ $rc = 0 ] || [ $rc = 3 ] && echo ok)" ok
# BUSY: the busy loop of every scenario but busy, ns (LT_BD_BUSY_US of kernel/test/logdev_test_bd.c)
run_checks awk -F, -v name="$name" -v rt=$rt -v BUSY=200000 "$LD_AWK"'
# scenarios.txt: "S US" (the cost asked for, us)
FILENAME ~ /scenarios.txt$/ { split($0, w, " "); asked[w[1]] = w[2] * 1000; next }
# bd_result.txt: "S cpu=C pid=P injected_ns=N pair_ns=M culprit=X"
FILENAME ~ /bd_result.txt$/ {
	split($0, w, " "); s = w[1]; sub(/^injected_ns=/, "", w[4])
	inj[s, ++ninj[s]] = w[4]; next
}
# the csv: 11 message, 17.. own hardirq softirq nmi preempted blocked
$11 ~ /^bd [a-z]+ out$/ && $7 ~ /^lt_bd_/ {
	split($11, m, " "); s = m[2]; k = ++nout[s]
	b["own"] = $17; b["hardirq"] = $18; b["softirq"] = $19; b["nmi"] = $20
	b["preempted"] = $21; b["blocked"] = $22
	want = s == "busy" || s == "irqoff" ? "own" : s == "hrtimer" ? "hardirq" : \
	       s == "softirq" ? "softirq" : s == "preempt" ? "preempted" : s == "sleep" ? \
	       "blocked" : s == "nmi" ? "nmi" : ""
	if (want == "") next
	got = $17 == "" ? -1 : b[want] + (s == "sleep" && rt ? b["preempted"] : 0)
	share[s, k] = got; bucket[s] = want (s == "sleep" && rt ? "+preempted" : "")
	# what took the CPU from the task: interrupts, and tasks that preempted it
	irq[s, k] = $18 + $19 + $20 + $21; hard[s, k] = $18; nmi[s, k] = $20; own[s, k] = $17
	pre[s, k] = $21
	next
}
END {
	n = split("busy irqoff hrtimer softirq preempt sleep nmi", sc, " ")
	for (i = 1; i <= n; i++) {
		s = sc[i]
		if (!ninj[s] && !nout[s]) continue
		check(nout[s] == ninj[s], s ": a pair for every run", nout[s] + 0 " pairs, " ninj[s] + 0 " runs")
		bad = ""; nr = 0
		for (k = 1; k <= nout[s] && k <= ninj[s]; k++) {
			if (share[s, k] < 0) { bad = bad " run " k ": incomplete"; continue }
			want = inj[s, k]
			if (s == "busy")
				want -= irq[s, k]
			if (s == "irqoff")
				want += BUSY - irq[s, k]
			if (s == "softirq")
				want -= hard[s, k] + nmi[s, k] + pre[s, k]
			if (s == "hrtimer")
				want -= nmi[s, k]
			if (s == "sleep" && asked[s] && asked[s] < want)
				want = asked[s]
			if (s == "sleep" && own[s, k] > BUSY)
				want -= own[s, k] - BUSY
			r[++nr] = share[s, k] / want
			if (share[s, k] < 0.9 * want)
				bad = bad sprintf(" run %d: %s %.1f of %.1f us", k, bucket[s],
						  share[s, k] / 1e3, want / 1e3)
		}
		check(bad == "", s ": at least 90 % of each run'"'"'s injected time in " bucket[s], bad)
		# median share, for the record
		for (a = 1; a <= nr; a++) for (c = a + 1; c <= nr; c++) if (r[c] < r[a]) { t = r[a]; r[a] = r[c]; r[c] = t }
		if (nr) printf "INFO: %s: %s: median %.1f %% of the injected time in %s (%d runs)\n", name, s, 100 * r[int((nr + 1) / 2)], bucket[s], nr
		delete r
	}
	exit failed > 0
}' "$dir/scenarios.txt" "$dir/bd_result.txt" "$dir/bd.csv"
# culprits, from the slowest instances of each scenario's in -> out row
culprit() {	# scenario, text the slowest lines must hold
	local got
	got=$(awk -v s="$1" '
		/^breakdown:/ { on = 1; next }
		on && $1 ~ ("^lt_bd_" s ":") && $2 ~ ("^lt_bd_" s ":") { row = ($1 < $2); take = 1; next }
		on && /^    slowest:/ { if (take) print; next }
		on { take = 0 }' "$dir/bd.deltas")
	if printf '%s\n' "$got" | grep -qE "$2"; then
		pass "$1: the slowest instances name the culprit ($2)"
	else
		fail "$1: no slowest instance names $2: $(printf '%s' "$got" | head -c 400)"
	fi
}
culprit hrtimer 'hardirq [0-9.]+ \(local timer\)'
culprit softirq 'softirq [0-9.]+ \(softirq TASKLET\)'
culprit preempt 'preempted [0-9.]+ \(lt_bd_hog-[0-9]+\)'
culprit sleep 'blocked [0-9.]+ \([^)]+\)'
culprit nmi_pair 'nmi [0-9.]+ \(NMI [^)]+\)'
# no markers: refused, never zeros
if [ -s "$dir/nobd.cap" ]; then
	out=$("$logdev" deltas --breakdown "$dir/nobd.cap" 2> "$dir/nobd.err")
	rc=$?
	check_eq "deltas --breakdown of the capture without markers exits 2" "$rc" 2
	check_eq "... and prints no table (never zeros)" "$out" ""
	grep -q "nothing is broken down" "$dir/nobd.err" && pass "... and says why" ||
		fail "... no reason said: $(head -c 300 "$dir/nobd.err")"
else
	fail "no nobd.cap came back"
fi
finish
