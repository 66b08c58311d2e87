#!/bin/bash
# Host side of the contexts test.
#   check-contexts.sh DIR NAME
# DIR holds what guest-contexts.sh saved (ctx.cap, counts.txt, stats.txt,
# config.txt).  Decodes ctx.cap with `userspace/logdev report --raw` and checks,
# per CPU and per context, the records logdev_test wrote:
#   - seq numbers strictly increase (ring order = write order, no duplicates)
#   - the record's ctx field equals the ctx in its message
#   - records read + records lost (LOST lines) == edprint() calls made
#   - lost in the capture == overrun + dropped + nesting_lost + too_big in stats,
#     and for each of these causes, its LOST lines == its stats counter
#   - stats' written == calls made
#   - the decoder warned about nothing but the lost events (exit 3 with its
#     "lost events" line is accepted); every record has a known site
#   - loss really happened (the buffer is small on purpose) and NMIs landed
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/vm/lib.sh"
P=$name

if [ ! -s "$dir/ctx.cap" ] || [ ! -s "$dir/counts.txt" ]; then
	fail "no capture or counts came back ($(ls "$dir" | tr '\n' ' '))"
	exit 1
fi
check "logdev.static record exited 0" "logdev.static record: $(grep record_rc "$dir/config.txt")" \
	grep -q '^record_rc=0$' "$dir/config.txt"
# exit 3 with the lost-events line: the losses this test makes on purpose
# (lost events are a warning in every verb); any other warning fails below
"$logdev" report --raw "$dir/ctx.cap" > "$dir/ctx.raw" 2> "$dir/ctx.err"
rc=$?
if [ $rc != 0 ] && [ $rc != 3 ]; then
	fail "logdev report --raw exited $rc: $(head -c 300 "$dir/ctx.err")"
	exit 1
fi
grep -v '^logdev: warning: lost events: ' "$dir/ctx.err" > "$dir/ctx.warn"
check "decoded without warnings but the lost events" "decoder warnings: $(head -n 3 "$dir/ctx.warn" | tr '\n' '|')" \
	test ! -s "$dir/ctx.warn"

run_checks awk -v name="$name" -v cfg="$(tr '\n' ' ' < "$dir/config.txt")" "$LD_AWK"'
BEGIN { kinds["overrun"]; kinds["dropped"]; kinds["nesting_lost"]; kinds["too_big"] }
FILENAME == ARGV[1] {			# counts.txt: cpu=N ctx=N written=N
	if ($1 ~ /^cpu=/) {
		split($1, a, "="); split($2, b, "="); split($3, wc, "=")
		w[a[2], b[2]] = wc[2]; wcpu[a[2]] += wc[2]; cpus[a[2]] = 1
	} else if ($1 ~ /^nmi_sent=/) {
		split($1, a, "="); split($2, b, "="); nmi_sent = a[2]; nmi_seen = b[2]
	}
	next
}
FILENAME == ARGV[2] {			# stats.txt: cpu=N written=N read=N ...
	delete kv
	for (i = 1; i <= NF; i++) { split($i, p, "="); kv[p[1]] = p[2] }
	if ("cpu" in kv) {
		c = kv["cpu"]
		sw[c] = kv["written"]; sr[c] = kv["read"]; scomm[c] = kv["comm"] + 0
		slost[c] = kv["overrun"] + kv["dropped"] + kv["nesting_lost"] + kv["too_big"]
		for (k in kinds) skind[c, k] = kv[k] + 0
		sline[c] = $0
	}
	next
}
{					# report --raw
	if ($1 == "LOST") {
		split($0, f, /[ \t]+/)
		if (f[4] in kinds) { lost[f[2]] += f[3]; lkind[f[2], f[4]] += f[3] }
		# a seq jump whose count arrives in a later header (RING.md, "late
		# loss counts"): shown as sub-buffers missing, then counted; the
		# exact per-cause accounting below still has to hold
		else if (f[4] == "subbufs") late += f[3]
		else { badlost++; if (!badlostex) badlostex = $0 }
		next
	}
	n = split($0, f, "\t")
	if (n < 8) { bad++; if (!badex) badex = $0; next }
	cpu = f[2]; site = f[5]; func = f[6]; msg = raw_msg($0)
	if (func == "<comm>") {		# a task name (format v3): read, not a call
		rcomm[cpu]++
		if (msg == "") {
			commbad++; if (!commex) commex = $0
		}
		next
	}
	rctx = f[4] == "task" ? 0 : f[4] == "softirq" ? 1 : f[4] == "hardirq" ? 2 : f[4] == "nmi" ? 3 : f[4]
	if (site == 0 || func == "" || func == "?" || func ~ /unknown/) {
		unk++; if (!unkex) unkex = $0
	}
	if (func != "lt_record") { other++; next }
	if (match(msg, /^ctx=[0-9]+ seq=[0-9]+( pad=5a5a5a5a5a5a5a5a)?$/) == 0) {
		badmsg++; if (!badmsgex) badmsgex = msg; next
	}
	split(msg, m, /[= ]/); mctx = m[2]; seq = m[4] + 0
	got[cpu, mctx]++; rcpu[cpu]++
	if (rctx != mctx) { ctxbad++; if (!ctxex) ctxex = $0 }
	if ((cpu, mctx) in last && seq <= last[cpu, mctx]) {
		order++; if (!orderex) orderex = "cpu " cpu " ctx " mctx ": seq " seq " after " last[cpu, mctx]
	}
	last[cpu, mctx] = seq
	if (seq >= w[cpu, mctx]) { beyond++; if (!beyondex) beyondex = $0 }
}
END {
	check(badlost == 0, "every loss counted in records" (late ? " (" late " sub-buffer gaps counted in later headers)" : ""),
	      badlost " LOST lines without a record count, e.g. " badlostex)
	check(bad == 0, "raw lines well-formed", bad " malformed, e.g. " badex)
	check(unk == 0, "every record has a known site", unk " unknown, e.g. " unkex)
	check(badmsg == 0 && other == 0, "only logdev_test records with ctx=/seq= messages",
	      badmsg " bad messages (e.g. " badmsgex "), " other " records from elsewhere")
	check(ctxbad == 0, "record ctx field matches the writer context", ctxbad " differ, e.g. " ctxex)
	check(commbad == 0, "comm records carry a name", commbad " empty, e.g. " commex)
	check(order == 0, "seq strictly increasing per CPU per context", order " out of order, e.g. " orderex)
	check(beyond == 0, "no seq beyond the calls made", beyond ", e.g. " beyondex)
	totw = 0; totr = 0; totl = 0; totsl = 0
	for (c in cpus) {
		totw += wcpu[c]; totr += rcpu[c]; totl += lost[c]; totsl += slost[c]
		detail = sprintf("cpu %s: written %d read %d lost %d comm records read %d (stats: %s)", c, wcpu[c], rcpu[c], lost[c], rcomm[c], sline[c])
		# comm records count as written and read too (stats comm=: written)
		check(rcpu[c] + rcomm[c] + lost[c] == wcpu[c] + scomm[c], "cpu " c ": read + lost == written (comm records included)", detail)
		check(sw[c] == wcpu[c] + scomm[c], "cpu " c ": stats written == calls made + comm records", detail)
		check(sr[c] == rcpu[c] + rcomm[c], "cpu " c ": stats read == records in capture", detail)
		# no flood: a comm record per sub-buffer and per task change, at most
		check(scomm[c] >= rcomm[c] && scomm[c] * 4 <= wcpu[c], "cpu " c ": comm records few (" scomm[c] " for " wcpu[c] " calls)", detail)
		check(lost[c] == slost[c], "cpu " c ": capture lost == stats overrun+dropped+nesting_lost+too_big", detail)
		for (k in kinds)
			check(lkind[c, k] + 0 == skind[c, k], "cpu " c ": LOST " k " == stats " k,
			      sprintf("capture %d, stats %d (%s)", lkind[c, k], skind[c, k], sline[c]))
		for (x = 0; x < 4; x++)
			if (got[c, x] + 0 > w[c, x] + 0) { over++ }
	}
	check(over == 0, "per context: read <= written", over " contexts read more than written")
	check(totl > 0, "loss exercised (small buffer)", "nothing lost: the test did not stress the buffer")
	nmi = 0; for (c in cpus) nmi += got[c, 3]
	check(nmi_seen > 0 && nmi_sent == nmi_seen, "NMIs delivered (" nmi_seen "/" nmi_sent ")", "sent " nmi_sent " seen " nmi_seen)
	check(nmi > 0 && got_any_irq() , "records from all 4 contexts read", "nmi records " nmi)
	printf("INFO: %s: %s written %d read %d lost %d (stats lost %d)\n", name, cfg, totw, totr, totl, totsl)
	exit failed ? 1 : 0
}
function got_any_irq(   c, s, h) {
	for (c in cpus) { s += got[c, 1]; h += got[c, 2] }
	return s > 0 && h > 0
}
' "$dir/counts.txt" "$dir/stats.txt" "$dir/ctx.raw"
# Task names: `logdev report` names every record COMM-PID; only a record
# whose task's comm records were all lost (a LOST line on its CPU before it:
# the comm record sat in a lost sub-buffer, or was refused) may show pid:N.
"$logdev" report "$dir/ctx.cap" > "$dir/ctx.txt" 2> "$dir/ctx.txt.err"
rc=$?
if [ $rc = 0 ] || [ $rc = 3 ]; then	# 3: the lost events (checked above)
	run_checks awk -v name="$name" "$LD_AWK"'
	{
		for (i = 1; i <= NF && $i !~ /^cpu:/; i++) ;
		cpu = $i
		if ($0 ~ /\*\*\* LOST /) { lostseen[cpu] = 1; next }
		recs++
		if ($(i + 1) ~ /^pid:/) {
			if (lostseen[cpu]) afterlost++
			else { bad++; if (!badex) badex = $0 }
		}
	}
	END {
		check(bad == 0 && recs > 0, "report names every record COMM-PID (" (afterlost + 0) " of " recs " after a loss show pid:N)",
		      bad " records without a name and no loss before them, e.g. " badex)
		exit failed ? 1 : 0
	}' "$dir/ctx.txt"
else
	fail "logdev report exited $rc: $(head -c 300 "$dir/ctx.txt.err")"
fi
finish
