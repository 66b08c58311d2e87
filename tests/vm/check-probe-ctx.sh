#!/bin/bash
# Host side of vm-probe-ctx (guest-probe-ctx.sh).   check-probe-ctx.sh DIR NAME
# In int3.cap (no kprobe optimised) and opt.cap (optimised), every probe hit
# is recorded in the context of the probed code: the context the next
# "pctx want=W self=S" record of the same CPU (the probed function's own,
# after its entry and offset probes) reports, for pc_entry, pc_off (before
# lt_pctx_fn's record) and pc_nt, pc_ret (before lt_pctx_notrace's); the
# context of the last such record for pc_ret%return (after it).  Each
# probe has N hits in each of task, softirq, hardirq and nmi, and each
# function's own record is in the context it reports (edprint's ld_ctx()).
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
. "$top/tests/vm/lib.sh"
P=$name
read -r n < "$dir/params.txt" 2> /dev/null || { fail "no params.txt came back"; exit 1; }
for phase in int3 opt; do
	cap=$dir/$phase.cap
	if [ ! -s "$cap" ]; then
		fail "$phase: no $phase.cap came back"; continue
	fi
	"$logdev" report --raw "$cap" > "$dir/$phase.raw" 2> "$dir/$phase.rerr"
	rc=$?
	if [ $rc != 0 ] && [ $rc != 3 ]; then
		fail "$phase: logdev report --raw failed: $(head -c 300 "$dir/$phase.rerr")"; continue
	fi
	run_checks awk -v name="$name: $phase" -v n="$n" "$LD_AWK"'
BEGIN { split("task softirq hardirq nmi", cn, " "); for (i = 1; i <= 4; i++) cname[i - 1] = cn[i]
	split("pc_entry pc_off pc_nt pc_ret pc_ret%return", probes, " ")
	fnof["pc_entry"] = fnof["pc_off"] = "lt_pctx_fn"
	fnof["pc_nt"] = fnof["pc_ret"] = fnof["pc_ret%return"] = "lt_pctx_notrace" }
$1 == "LOST" { lost += $3; next }
{
	split($0, f, "\t"); cpu = f[2]; ctx = f[4]; fn = f[6]; msg = raw_msg($0)
	if (fn == "pc_entry" || fn == "pc_off" || fn == "pc_nt" || fn == "pc_ret") {
		pend[cpu] = pend[cpu] " " fn "=" ctx; next
	}
	if ((fn == "lt_pctx_fn" || fn == "lt_pctx_notrace") && msg ~ /^pctx want=/) {
		split(msg, m, /[ =]/); want = m[3]; self = m[5]; s = cname[self]
		own[self]++
		if (ctx != s) { badown++; exown = exown " " fn ":self=" s ",recorded=" ctx }
		if (want != self) { badwant++; exwant = exwant " " fn ":want=" want ",self=" self }
		k = split(pend[cpu], hits, " ")
		for (i = 1; i <= k; i++) {
			split(hits[i], h, "=")
			if (fnof[h[1]] != fn) { stray++; continue }
			cnt[h[1], self]++
			if (h[2] != s) { bad[h[1]]++; if (length(ex[h[1]]) < 200) ex[h[1]] = ex[h[1]] " " s "->" h[2] }
		}
		pend[cpu] = ""; last[cpu] = self; lastfn[cpu] = fn; next
	}
	if (fn == "pc_ret%return") {
		if (!(cpu in last) || lastfn[cpu] != "lt_pctx_notrace") { stray++; next }
		s = cname[last[cpu]]
		cnt[fn, last[cpu]]++
		if (ctx != s) { bad[fn]++; if (length(ex[fn]) < 200) ex[fn] = ex[fn] " " s "->" ctx }
	}
}
END {
	check(lost == 0, "no record lost", lost " lost")
	check(badwant == 0, "each call runs in the context its caller meant", badwant " did not:" exwant)
	check(badown == 0, "each function'"'"'s own record is in the context it reports", badown " not:" exown)
	check(stray == 0, "every probe hit is followed (or, %return, preceded) by its function'"'"'s record", stray " were not")
	for (c = 0; c < 4; c++)
		check(own[c] == 2 * n, "2N = " 2 * n " calls in " cname[c], own[c] + 0)
	for (j = 1; j <= 5; j++) {
		p = probes[j]
		check(bad[p] == 0, p ": every hit in the probed code'"'"'s context",
		      bad[p] " hits not (real->recorded:" ex[p] ")")
		for (c = 0; c < 4; c++)
			check(cnt[p, c] == n, p ": N = " n " hits in " cname[c], cnt[p, c] + 0)
	}
	exit failed > 0
}' "$dir/$phase.raw"
done
finish
