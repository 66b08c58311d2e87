# bench/kernel/sustained-tables.awk: the tables and verdicts of
# bench/kernel/sustained.sh from a run's results dir (formats in
# guest-sustained.sh; load.txt from sustained.sh:
#   MS KB START STEPS MODES PROFILE_KB LOAD1 LOAD5 LOAD15 (before) LOAD1 LOAD5 LOAD15 (after) SECS OTHER_CORES HOST_CPUS).
# Files are told apart by name: load.txt uname.txt nproc.txt
# trace-cmd-version.txt ceiling.txt losscheck.txt sustained.txt profile.txt.
# losscheck.txt: exact when in file + lost - written is 0 (trace-cmd) or
# 0..COMM (logdev: its lost counts include the comm records of lost
# sub-buffers); a check where nothing was lost checked nothing.
# The rules (issue 31):
#   a rate is HELD in a mode when it has exactly two runs there, both clean;
#   the best rate is the highest held; the limit is the lowest rate not held,
#   its reason that of its last run (lost, missing, rc: the recorder's or
#   the tracer's fault; short: the writers could not reach the rate, "at"
#   their ceiling with no recorder when they reached >= 80 % of it, else
#   "below" it: the recording slowed them);
#   rate:  logdev's best >= 2x trace-cmd's;
#   cpu:   at the highest rate both held, logdev record's CPU ms per 1,000
#          records <= 0.5x trace-cmd record's;
#   drain: logdev record's us per 4 KiB sub-buffer on full buffers <= 1.5x
#          dd's of the same data to the same file system (the initramfs);
#   each MET or MISSED, or LOADED (no verdict) on a loaded host: load1
#   before >= 1.0 or other processes >= 0.25 cores during the boot.
function base(f) { sub(/.*\//, "", f); return f }
function n3(x,    s, neg) {	# 1234567 -> 1,234,567
	x = sprintf("%d", x); neg = x < 0; if (neg) x = -x; s = ""
	while (length(x) > 3) { s = "," substr(x, length(x) - 2) s; x = substr(x, 1, length(x) - 3) }
	return (neg ? "-" : "") x s
}
function word(ok) { return loaded ? "LOADED" : (ok ? "MET" : "MISSED") }
function runtext(i) {
	if (r_clean[i] == "yes") return "clean"
	if (r_reason[i] == "lost") return "lost " n3(r_lost[i])
	if (r_reason[i] == "missing") return n3(r_written[i] - r_infile[i]) " not in file"
	if (r_reason[i] == "short") return "short (" n3(r_reached[i]) "/s)"
	return "rc " r_rc[i]
}
# held/best/limit of TOOL in MODE: sets B, U, UWHY, UREACH
function limits(m, t,    k, r, j) {
	B = 0; U = 0; UWHY = "-"; UREACH = 0
	for (k = 1; k <= nrates[m]; k++) {
		r = rates[m, k]
		if (!((m, t, r) in nruns)) continue
		if (nruns[m, t, r] == 2 && nclean[m, t, r] == 2) { if (r > B) B = r }
		else if (!U || r < U) {
			U = r; j = lastrun[m, t, r]; UWHY = r_reason[j]; UREACH = r_reached[j]
		}
	}
}
# CPU ms per 1,000 records of TOOL's recorder over its runs at RATE in MODE
function msk(m, t, r,    i, c, w) {
	for (i = 1; i <= nr; i++)
		if (r_mode[i] == m && r_tool[i] == t && r_rate[i] == r) { c += r_usr[i] + r_sys[i]; w += r_written[i] }
	return w ? 1e6 * c / w : -1
}
{ f = base(FILENAME) }
f == "load.txt" { ms = $1; kb = $2; start = $3; steps = $4; nmodes = split($5, modes, ","); pkb = $6
	lb = $7 " " $8 " " $9; la = $10 " " $11 " " $12; secs = $13; other = $14; hcpus = $15
	loaded = ($7 >= 1.0 || $14 >= 0.25); next }
f == "uname.txt" { rel = $1; next }
f == "nproc.txt" { ncpu = $1; next }
f == "trace-cmd-version.txt" { tcv = $0; gsub(/ +/, " ", tcv); next }
f == "ceiling.txt" { ceil[$1] = $2; ceilbusy[$1] = $4; next }
f == "losscheck.txt" { lc[++nlc] = $0; next }
f == "sustained.txt" && NF >= 15 {
	i = ++nr; r_mode[i] = $1; r_tool[i] = $2; r_rate[i] = $3 + 0; r_phase[i] = $4; r_written[i] = $5
	r_reached[i] = $6; r_skipped[i] = $7; r_infile[i] = $8; r_lost[i] = $9; r_rc[i] = $10
	r_usr[i] = $11; r_sys[i] = $12; r_busy[i] = $13; r_clean[i] = $14; r_reason[i] = $15
	k = $1 SUBSEP $2 SUBSEP ($3 + 0)
	nruns[k]++; if ($14 == "yes") nclean[k]++; lastrun[k] = i
	cell[k] = (cell[k] == "" ? "" : cell[k] ", ") runtext(i)
	if (!(($1, $3 + 0) in seenrate)) { seenrate[$1, $3 + 0] = 1; rates[$1, ++nrates[$1]] = $3 + 0 }
	next }
f == "profile.txt" {
	if ($1 == "-") { idle[++ni] = sprintf("  %-26s user %.2f s, sys %.2f s", $2, $4, $5); next }
	k = $1 SUBSEP $2; us = $3 ? 1e6 * ($4 + $5) / ($3 / 4096) : 0
	if (!(k in pbest) || us < pbest[k]) { pbest[k] = us; pbytes[k] = $3; pusr[k] = $4; psys[k] = $5 }
	if (!(k in pseen)) { pseen[k] = 1; porder[$1, ++np[$1]] = $2 }
	next }
END {
	printf "Sustained recording: %s in QEMU TCG, %d CPUs, one paced writer kthread per CPU, %s ms per run,\n", rel, ncpu, n3(ms)
	printf "  %s KiB per CPU and 4096-byte sub-buffers/pages for both, the recorders writing to the guest's RAM (initramfs)\n", n3(kb)
	print "  logdev: edprint(\"bench %d %d\"), logdev record; trace-cmd: trace_printk(\"bench %d %d\"), " tcv " record -p nop (splice)"
	printf "  rates from %s records/s per CPU, doubling until one is not held, then %d bisection steps\n", n3(start), steps
	printf "Host load average: before the boot %s, after %s (%s s); other processes during the boot: %.2f of %d cores\n", lb, la, secs, other, hcpus
	if (loaded)
		print "LOADED: the host was busy (load1 before >= 1.0 or others >= 0.25 cores): no verdict below counts"
	else
		print "Host idle (load1 before < 1.0, others < 0.25 cores)"
	print ""
	print "Writers' ceiling (flat out, recording on, overwrite mode, no recorder; records/s per CPU, guest CPUs busy):"
	printf "  edprint      %10s/s  (%d%%)\n  trace_printk %10s/s  (%d%%)\n", n3(ceil["logdev"]), ceilbusy["logdev"], n3(ceil["trace-cmd"]), ceilbusy["trace-cmd"]
	if (nlc) {
		print ""
		print "Loss counts read back (writers flat out 300 ms, no recorder, the buffers overflowed, then read whole):"
		printf "  %-9s %-9s %10s %10s %10s %s\n", "mode", "tool", "written", "in file", "lost", "in file + lost = written?"
		for (i = 1; i <= nlc; i++) {
			split(lc[i], lf, " "); x = lf[4] + lf[5] - lf[3]
			if (lf[5] + 0 == 0) s = "nothing lost: nothing checked"
			else if (x == 0 || (lf[2] == "logdev" && x > 0 && x <= lf[6])) s = "exact" (x ? sprintf(" (%s comm records among the lost)", n3(x)) : "")
			else s = sprintf("NOT exact: in file + lost - written = %s", n3(x))
			printf "  %-9s %-9s %10d %10d %10d %s\n", lf[1], lf[2], lf[3], lf[4], lf[5], s
		}
	}
	for (mi = 1; mi <= nmodes; mi++) {
		m = modes[mi]
		print ""
		print "== " m " mode (logdev mode " m ", ftrace options/overwrite " (m == "overwrite" ? 1 : 0) ")"
		print "Per rate (records/s per CPU; each run: clean, lost N, N not in file, short (rate reached), rc N; held = two clean runs):"
		printf "  %10s  %-40s  %-40s\n", "R/CPU", "logdev record", "trace-cmd record"
		for (a = 1; a <= nrates[m]; a++) for (b = a + 1; b <= nrates[m]; b++)
			if (rates[m, b] < rates[m, a]) { x = rates[m, a]; rates[m, a] = rates[m, b]; rates[m, b] = x }
		for (a = 1; a <= nrates[m]; a++) {
			r = rates[m, a]
			for (ti = 1; ti <= 2; ti++) {
				t = ti == 1 ? "logdev" : "trace-cmd"; k = m SUBSEP t SUBSEP r
				c[ti] = (k in cell) ? cell[k] ((nruns[k] == 2 && nclean[k] == 2) ? ": held" : "") : "-"
			}
			printf "  %10s  %-40s  %-40s\n", n3(r), c[1], c[2]
		}
		for (ti = 1; ti <= 2; ti++) {
			t = ti == 1 ? "logdev" : "trace-cmd"
			limits(m, t); best[ti] = B; bad[ti] = U; why[ti] = UWHY
			line = sprintf("%-9s highest rate held: %s/s per CPU; ", t, n3(B))
			if (!U) line = line "every rate run was held"
			else if (UWHY == "short")
				line = line sprintf("first not held %s: writers short, nothing lost: they reached %s/s, %s their ceiling with no recorder (%s/s)",
					n3(U), n3(UREACH), UREACH >= 0.8 * ceil[t] ? "at" : "below", n3(ceil[t]))
			else line = line sprintf("first not held %s: %s", n3(U), UWHY)
			if (U && U < B) line = line sprintf(" (below the best: not monotone)")
			print line
		}
		# rate
		if (best[2] > 0) { ratio = best[1] / best[2]; rs = sprintf("%.2fx", ratio) }
		else { ratio = best[1] > 0 ? 1e9 : 0; rs = best[1] > 0 ? "inf (trace-cmd held no rate)" : "n/a (neither held a rate)" }
		note = (why[1] == "short") ? "; logdev's limit: its writers short of the rate" : ""
		note = note ((why[2] == "short") ? "; trace-cmd's limit: trace_printk's writers short of the rate" : "")
		printf "VERDICT %s rate: logdev %s / trace-cmd %s = %s (target >= 2x): %s%s\n", m, n3(best[1]), n3(best[2]), rs, word(ratio >= 2), note
		# cpu, at the highest rate both held
		common = 0
		for (a = 1; a <= nrates[m]; a++) {
			r = rates[m, a]; kl = m SUBSEP "logdev" SUBSEP r; kt = m SUBSEP "trace-cmd" SUBSEP r
			if (nruns[kl] == 2 && nclean[kl] == 2 && nruns[kt] == 2 && nclean[kt] == 2 && r > common) common = r
		}
		if (!common)
			printf "VERDICT %s cpu: no rate both held: %s\n", m, word(0)
		else {
			ml = msk(m, "logdev", common); mt = msk(m, "trace-cmd", common)
			if (mt <= 0)
				printf "VERDICT %s cpu: at %s/s trace-cmd record used under the clock's 10 ms: %s\n", m, n3(common), word(0)
			else
				printf "VERDICT %s cpu: at %s/s logdev record %.3f ms / trace-cmd record %.3f ms per 1,000 records = %.2fx (target <= 0.5x): %s\n",
					m, n3(common), ml, mt, ml / mt, word(ml / mt <= 0.5)
		}
		# drain
		kr = m SUBSEP "logdev-record"; kd = m SUBSEP "logdev-read-tmpfs"
		if (!(kr in pbest) || !(kd in pbest) || pbest[kd] <= 0)
			printf "VERDICT %s drain: no profile: %s\n", m, word(0)
		else
			printf "VERDICT %s drain: logdev record %.1f us / dd to the initramfs %.1f us per 4 KiB sub-buffer = %.2fx (target <= 1.5x): %s\n",
				m, pbest[kr], pbest[kd], pbest[kr] / pbest[kd], word(pbest[kr] / pbest[kd] <= 1.5)
	}
	print ""
	print "Every run (rec usr/sys: the recorder's CPU seconds while the writers ran; ms/1k: its CPU ms per 1,000 records; busy: the guest's CPUs):"
	printf "  %-9s %-9s %9s %-7s %10s %9s %8s %10s %8s %3s %7s %7s %7s %5s %-7s\n", "mode", "tool", "R/CPU", "phase", "written", "reached/s",
		"skipped", "in file", "lost", "rc", "rec usr", "rec sys", "ms/1k", "busy", "result"
	for (i = 1; i <= nr; i++)
		printf "  %-9s %-9s %9d %-7s %10d %9d %8d %10d %8d %3d %7.2f %7.2f %7.3f %4d%% %-7s\n", r_mode[i], r_tool[i], r_rate[i], r_phase[i],
			r_written[i], r_reached[i], r_skipped[i], r_infile[i], r_lost[i], r_rc[i], r_usr[i], r_sys[i],
			r_written[i] ? 1e6 * (r_usr[i] + r_sys[i]) / r_written[i] : 0, r_busy[i], r_clean[i] == "yes" ? "clean" : r_reason[i]
	print ""
	printf "Where a reader's time goes, full buffers of %s KiB per CPU filled in each mode, recording off (CPU time of the\n", n3(pkb)
	print "  reading process, us of the guest clock per 4 KiB sub-buffer; the smaller of 2 runs; '-read-devnull': dd bs=64k"
	print "  to /dev/null, '-read-tmpfs': dd to a file in the initramfs, 'logdev-record': logdev record --no-enable --duration 0):"
	printf "  %-9s %-22s %10s %7s %7s %10s\n", "mode", "what", "bytes", "user s", "sys s", "us/subbuf"
	for (mi = 1; mi <= nmodes; mi++)
		for (i = 1; i <= np[modes[mi]]; i++) {
			k = modes[mi] SUBSEP porder[modes[mi], i]
			printf "  %-9s %-22s %10d %7.2f %7.2f %10.1f\n", modes[mi], porder[modes[mi], i], pbytes[k], pusr[k], psys[k], pbest[k]
		}
	print "The recorders waiting, recording on, nothing written (CPU time over 3 s):"
	for (i = 1; i <= ni; i++) print idle[i]
}
