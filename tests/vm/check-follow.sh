#!/bin/bash
# Host side of the live view test (tests/vm/guest-follow.sh).
#   check-follow.sh DIR NAME
# For each run of `report --follow --raw` (big: nothing should be lost;
# small: events lost), from RUN.out (the --raw lines), RUN.err (the
# summary), RUN.counts (logdev_test: records written per CPU and context),
# RUN.stats (logdev's counters), RUN.rc (the exit status):
#   - every record (cpu, ctx, seq) printed at most once; big: every one;
#   - timestamps never go back, except on records after a "LATE" line,
#     and the LATE lines are as many as the summary's "late";
#   - per CPU: printed + lost (the summary's count) is written, give or take
#     the task-name records (stats' comm: they are records the kernel may
#     lose too), and the summary's count is the LOST lines' sum;
#   - the exit status is 3 exactly when events were lost or records came
#     late or early, else 0.
# deltas: the final table has the ctx=%d seq=%u site's rows, once; its
# summary and exit status as above.
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/vm/lib.sh"
P=$name
for run in big small; do
	if [ ! -s "$dir/$run.out" ] || [ ! -s "$dir/$run.counts" ] || [ ! -s "$dir/$run.rc" ]; then
		fail "$run: results missing (out, counts, rc)"
		continue
	fi
	run_checks awk -v name="$name: $run" -v run="$run" -v rc="$(cat "$dir/$run.rc")" \
		-v comm="$(stats_sum "$dir/$run.stats" comm)" "$LD_AWK"'
FILENAME ~ /counts$/ {
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		v[kv[1]] = kv[2]
	}
	if ("written" in v) { written[v["cpu"]] += v["written"]; wctx[v["cpu"], v["ctx"]] = v["written"] }
	delete v
	next
}
FILENAME ~ /err$/ {
	if ($0 ~ /^logdev: follow: /) { late_sum = $5; early_sum = $8; recs_sum = $3 }
	if ($0 ~ /lost events: /) {
		sub(/.*lost events: /, "")
		n = split($0, parts, ", ")
		for (i = 1; i <= n; i++) {
			split(parts[i], w, " ")
			c = w[1]; sub(/^cpu:/, "", c)
			lost[c] = w[2]; have_summary = 1
		}
	}
	next
}
$1 == "LATE" { next_late = 1; nlate++; next }
$1 == "LOST" { lostlines[$2] += ($4 ~ /^(overrun|dropped|nesting_lost|too_big|lost)$/) ? $3 : 0; next }
$1 == "EARLY" { next }
{
	m = raw_msg($0)
	if (m !~ /^ctx=[0-3] seq=[0-9]+/) { next_late = 0; next }
	split(m, f, /[= ]/)
	k = $2 SUBSEP f[2] SUBSEP f[4]
	if (seen[k]++) dup++
	printed[$2]++
	total++
	if ($1 + 0 < last && !next_late) backw++
	if (!next_late || $1 + 0 > last) last = $1 + 0
	next_late = 0
}
END {
	check(have_summary, "the lost-events summary printed", "no \"lost events:\" line on stderr")
	check(total > 0, "records printed", "none")
	check(!dup, "every record printed at most once", dup " printed twice")
	check(!backw, "in time order, or marked late", backw " records go back in time without a LATE mark")
	check(nlate == late_sum + 0, "LATE lines as many as the summary says", nlate " LATE lines, summary " late_sum)
	anylost = 0
	for (c in written) {
		p = printed[c] + 0; l = lost[c] + 0; anylost += l
		check(l == lostlines[c] + 0, "cpu " c ": summary lost = LOST lines", "summary " l ", lines " lostlines[c] + 0)
		check(p + l >= written[c] && p + l <= written[c] + comm, "cpu " c ": printed + lost = written (+ at most " comm " task-name records)",
		      "printed " p " + lost " l " vs written " written[c])
		if (run == "big")
			for (x = 0; x < 4; x++)
				for (s = 0; s < wctx[c, x]; s++)
					if (!((c SUBSEP x SUBSEP s) in seen)) { miss++; if (miss < 4) print "missing cpu " c " ctx " x " seq " s }
	}
	if (run == "big")
		check(!miss, "big: every record written was printed", miss " missing")
	if (run == "small")
		check(anylost > 0, "small: events were lost (8 KB per CPU, 10x the records)", "none lost: the test did not test the summary")
	want = (anylost || late_sum + 0 || early_sum + 0) ? 3 : 0
	check(rc == want, "exit status " want " (lost " anylost ", late " late_sum + 0 ", early " early_sum + 0 ")", "got " rc)
}' "$dir/$run.counts" "$dir/$run.err" "$dir/$run.out"
done
if [ -s "$dir/deltas.out" ]; then
	run_checks awk -v name="$name: deltas" -v rc="$(cat "$dir/deltas.rc")" "$LD_AWK"'
FILENAME ~ /err$/ { if ($0 ~ /lost events: /) summary = 1; if ($0 ~ /warning: lost events/) lostw = 1; if ($0 ~ /^logdev: follow: /) { late = $5; early = $8 }; next }
$1 == "from" { header++ }
$1 ~ /^logdev_test_write|^lt_record:/ { rows++ }
END {
	check(header == 1, "the table printed once, at the end (not a terminal)", header + 0 " headers")
	check(rows > 0, "rows of lt_record pairs", "none")
	check(summary, "the lost-events summary printed", "none")
	want = (lostw || late + 0 || early + 0) ? 3 : 0
	check(rc == want, "exit status " want, "got " rc)
}' "$dir/deltas.err" "$dir/deltas.out"
else
	fail "deltas: no table came back"
fi
# text: the filter kept task and hardirq records only, in report's text form
if [ -s "$dir/text.out" ]; then
	n=$(grep -c ' lt_record:[0-9]* ctx=[0-3] seq=' "$dir/text.out")
	bad=$(grep -c ' softirq \| nmi ' "$dir/text.out")
	check "text: records printed in report's form" "none in $dir/text.out" [ "$n" -gt 0 ]
	check_eq "text: --context task,hardirq leaves softirq and nmi out" "$bad" 0
else
	fail "text: no output came back"
fi
finish
