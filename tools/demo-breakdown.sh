#!/bin/bash
# make demo-breakdown: where the time of the slowest kfree_skbmem and munmap
# calls of the demo workload went, by logdev's --breakdown, beside what
# ftrace's function_graph and rtla say about the same workload (issue 28).
#
#   tools/demo-breakdown.sh [MMAPS [WCHANS [KBYTES]]]     (default 2000 2000 8192)
# Env KVER: a name of tools/kernels/matrix (default 6.1); TCG: run.sh's --tcg
# (icount: the guest's clock counts instructions, so time the host took the
# vCPU away, which both tracers count as the function's own, is not there).
#
# Builds logdev.ko for KVER, the CLI and tools/demo-workload.c (static),
# boots KVER (tools/vm/run.sh, -smp 2) running tools/demo-breakdown-guest.sh:
# the workload under `logdev record --breakdown -p r:kfree_skbmem -p
# r:MUNMAP`, then under function_graph on the same two functions, then
# beside `rtla timerlat top` (the host's rtla and its libraries are copied
# in when the host has it: apt-get install rtla).  Then prints, and saves
# as build/demo-breakdown/summary.txt (and KVER/summary.txt):
#   - logdev deltas --durations --breakdown run.cap, the two functions' rows
#     and their 3 slowest instances with culprits;
#   - the 3 slowest calls of each in function_graph's trace, with what it
#     shows inside them: the interrupt, softirq, timer and sched_switch
#     events on that CPU and the longest direct callees;
#   - rtla's output, or why it did not run.
# Two different runs of one workload: compare the shapes, not the numbers
# (TCG timings; function_graph's own cost is in its durations).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mmaps=${1:-2000} wchans=${2:-2000} kbytes=${3:-8192}
k=${KVER:-6.1}
out=$top/build/demo-breakdown
res=$out/$k${TCG:+-$TCG}
U=$top/userspace

"$top/tools/deps.sh" >/dev/null
make -s -C "$U" logdev logdev.static
mkdir -p "$out"
cc -O2 -Wall -static -o "$out/demo-workload" "$top/tools/demo-workload.c"
kmod=$("$top/tools/kernels/modules.sh" --product "$k")
rtla=$(command -v rtla || true)
[ -n "$rtla" ] || echo "demo-breakdown: no rtla on this machine (apt-get install rtla): rtla part skipped"
rm -rf "$res"
mkdir -p "$res"
echo "demo-breakdown: booting $k ($mmaps mmaps, $wchans wchan reads, $kbytes KiB over loopback)"
"$top/tools/vm/run.sh" --kver "$k" --smp 2 --mem 1024 --timeout 900 --tcg "${TCG:-multi}" \
	--script "$top/tools/demo-breakdown-guest.sh" \
	--files "$kmod/logdev.ko $U/logdev.static $out/demo-workload" \
	${rtla:+--host-bins "$rtla"} --args "$mmaps $wchans $kbytes" --out "$res"
mun=$(cat "$res/munmap.txt")

# function_graph's trace: "TIME |  CPU)  TASK-PID  |  DURATION  |  FUNC".
# A call of FN opens at "FN() {" and closes at "} /* FN */" (funcgraph-tail)
# of the same task, or is one line "FN();".  The 3 longest of each, then
# what lies between their two lines on the CPUs they opened and closed on:
# the interrupts' and softirqs' entry-to-exit times, the task's own time off
# CPU (switch out to switch back), as logdev's buckets (the rest: own), and
# the longest callees 1 or 2 deep.  By line, not time: the trace's times
# can stand still for a run of lines (its ring buffer's stamps) while the
# durations (taken by function_graph itself) go on.
fgraph() {
	awk -v fns="kfree_skbmem $mun" '
	function parse(line,   f, n) {
		n = split(line, f, "|"); if (n < 4) return 0
		T = f[1] + 0; C = f[2]; sub(/^ */, "", C); sub(/\).*/, "", C)
		P = f[2]; sub(/^ *[0-9]+\) */, "", P); sub(/ *$/, "", P)
		D = f[3]; gsub(/[^0-9.]/, "", D); D += 0
		X = f[4]; for (i = 5; i <= n; i++) X = X "|" f[i]
		sub(/^  /, "", X); I = X; sub(/[^ ].*/, "", I); I = length(I) / 2
		sub(/^ */, "", X); return 1
	}
	NR == FNR {
		if ($0 ~ /^#/ || !parse($0) || I != 0) next
		nm = X; sub(/^} \/\* /, "", nm); sub(/ \*\/.*/, "", nm); sub(/\(\)( {|;)$/, "", nm)
		if (index(" " fns " ", " " nm " ") == 0) next
		if (X ~ /{$/) { op[P, nm] = FNR; ot[P, nm] = T; oc[P, nm] = C; next }
		if (D == 0) next
		n[nm]++; sum[nm] += D
		if (X ~ /;$/ || !((P, nm) in op)) { op[P, nm] = FNR; ot[P, nm] = T; oc[P, nm] = C }
		# keep the 3 longest: d[nm,1..3], lines s..l, start time, cpus, task
		for (j = 1; j <= 3; j++) if (D > d[nm, j] + 0) break
		if (j <= 3) {
			for (m = 3; m > j; m--) {
				d[nm, m] = d[nm, m-1]; s[nm, m] = s[nm, m-1]; l[nm, m] = l[nm, m-1]; t[nm, m] = t[nm, m-1]
				c[nm, m] = c[nm, m-1]; c0[nm, m] = c0[nm, m-1]; p[nm, m] = p[nm, m-1]
			}
			d[nm, j] = D; s[nm, j] = op[P, nm]; l[nm, j] = FNR; t[nm, j] = ot[P, nm]
			c[nm, j] = C; c0[nm, j] = oc[P, nm]; p[nm, j] = P
		}
		delete op[P, nm]
		next
	}
	FNR == 1 { split(fns, F, " ") }
	!/^#/ && parse($0) {
		for (f = 1; f <= 2; f++) for (j = 1; j <= 3; j++) {
			nm = F[f]; if (d[nm, j] == "" || FNR <= s[nm, j] || FNR >= l[nm, j]) continue
			if (X ~ /^\/\* sched_switch/ || X ~ /^\/\* / && !((nm, j, "off") in o) &&
			    (C == c[nm, j] || C == c0[nm, j])) {
				ev = X; sub(/^\/\* /, "", ev); sub(/ \*\/$/, "", ev)
				kind = ev; sub(/:.*/, "", kind); a = ev; sub(/^[^:]*: /, "", a)
				if (kind ~ /^local_timer/) w = "hardirq local timer"
				else if (kind ~ /^irq_handler/) { w = a; sub(/ .*/, "", w); w = "hardirq " w }
				else if (kind ~ /^softirq/) { w = a; sub(/.*action=/, "", w); sub(/\]/, "", w); w = "softirq " w }
				else if (kind == "sched_switch") w = "off"
				else next
				pid = p[nm, j]; sub(/.*-/, "", pid)
				if (kind ~ /_entry$/) { o[nm, j, C, w] = T; continue }
				if (kind == "sched_switch" && a ~ "prev_pid=" pid " ") {
					st = a; sub(/.*prev_state=/, "", st); sub(/ .*/, "", st)
					nx = a; sub(/.*next_comm=/, "", nx); sub(/ .*/, "", nx)
					o[nm, j, "off"] = T; ow[nm, j] = (st ~ /^R/ ? "preempted " : "blocked ") nx; continue
				}
				if (kind == "sched_switch" && a ~ "next_pid=" pid " " && (nm, j, "off") in o) {
					w = ow[nm, j]; t0 = o[nm, j, "off"]; delete o[nm, j, "off"]
				} else if (kind ~ /_exit$/ && (nm, j, C, w) in o) {
					t0 = o[nm, j, C, w]; delete o[nm, j, C, w]
				} else continue
				bt[nm, j] += (T - t0) * 1e6
				if (nb[nm, j]++ < 8) bs[nm, j] = bs[nm, j] sprintf(", %s %.0f", w, (T - t0) * 1e6)
			}
			if (I >= 1 && I <= 2 && D > 0 && P == p[nm, j]) {
				cn = X; sub(/^} \/\* /, "", cn); sub(/ \*\/.*/, "", cn); sub(/\(\);$/, "", cn)
				ct[nm, j, cn] += D; if (!((nm, j, cn) in seen)) { seen[nm, j, cn]; cl[nm, j] = cl[nm, j] " " cn }
			}
		}
	}
	END {
		for (f = 1; f <= 2; f++) {
			nm = F[f]
			printf "%s: %d calls, mean %.3f us\n", nm, n[nm], n[nm] ? sum[nm] / n[nm] : 0
			for (j = 1; j <= 3 && d[nm, j] != ""; j++) {
				printf "    slowest: %.3f us at %.6f cpu %s %s\n", d[nm, j], t[nm, j], c0[nm, j] == c[nm, j] ? c[nm, j] : c0[nm, j] "->" c[nm, j], p[nm, j]
				# the 3 longest callees, 1 or 2 deep
				k = split(cl[nm, j], L, " "); line = ""
				for (r = 1; r <= 3; r++) {
					b = ""; for (q = 1; q <= k; q++) if (L[q] != "" && (b == "" || ct[nm, j, L[q]] > ct[nm, j, b])) b = L[q]
					if (b == "") break
					line = line sprintf("%s%s %.3f", r > 1 ? ", " : "", b, ct[nm, j, b])
					for (q = 1; q <= k; q++) if (L[q] == b) L[q] = ""
				}
				if (line != "") printf "      callees: %s\n", line
				r = d[nm, j] - bt[nm, j]
				printf "      %s%s\n", (r >= 0 ? sprintf("rest (own) %.3f", r) : "rest (own) below 0: the stamps stood still"), bs[nm, j]
			}
		}
	}' "$res/fgraph.txt" "$res/fgraph.txt"
}

{
	echo "demo-breakdown: $(cat "$res/kernel.txt"), demo-workload $mmaps $wchans $kbytes, probes r:kfree_skbmem r:$mun"
	grep '^demo-breakdown:' "$res/guest.log" || true
	echo
	echo "== logdev deltas --durations --breakdown run.cap (the two functions' rows)"
	{ "$U/logdev" deltas --durations --breakdown "$res/run.cap" 2> "$res/deltas.err" || [ $? = 3 ]; } > "$res/deltas.txt"
	awk -v fns="kfree_skbmem $mun" '
		/^(from|function|breakdown|note)/ { print; next }
		/^[^ ]/ { keep = 0; for (i = 1; i <= split(fns, F, " "); i++) if (index($1, F[i])) keep = 1 }
		keep' "$res/deltas.txt"
	sed 's/^/  stderr: /' "$res/deltas.err"
	echo
	echo "== function_graph (max_graph_depth 3, irq/softirq/local_timer/sched_switch events) of a second run"
	fgraph
	sed 's/^/  /' "$res/fgraph-stats.txt" | sort | uniq -c | sed 's/^ */  cpus: /'
	echo
	echo "== rtla (a third run)"
	sed "s/\x1b\[[0-9;]*m//g" "$res/rtla.txt"	# rtla top colours its header
} | tee "$res/summary.txt"
cp "$res/summary.txt" "$out/summary.txt"
