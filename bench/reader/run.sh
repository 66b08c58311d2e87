#!/bin/bash
# bench/reader/run.sh [SMALL [LARGE]]: reader throughput and peak memory.
#   logdev report / deltas / export --format csv on synthetic captures of
#   SMALL and LARGE records (gencap), and trace-cmd report on a trace.dat of SMALL
#   trace_printk("bench %d %d") records made in the VM (trace-cmd extract;
#   trace-cmd and its libraries are copied into the initramfs).  The trace.dat
#   is kept in bench/out/reader/ and re-used while its record count matches;
#   trace-cmd 3.1 writes file version 7 compressed with zstd, so the same
#   trace converted to version 6 uncompressed is measured too.
# records/s are per CPU second (user + sys from wait4(): bench/reader/cputime):
# this machine is shared, so wall-clock time mostly measures the other load;
# the wall-clock figure is printed too.  Each is the least CPU time of
# READER_RUNS (default 5) runs.  Beside each rate: instructions per record
# (callgrind, READER_IPR; machine-independent; trace-cmd's too with
# READER_TC_IPR=1, about 4 minutes) and their product, the
# machine's speed on that code (docs/PERFORMANCE.md, "Why the reader's
# speed depends on the machine").  The targets (issue 29) are marked MET or
# MISSED: report >= 10 M records/CPU-s at SMALL and LARGE records and >= 25x
# trace-cmd report, deltas >= 30 M records/s wall-clock on all CPUs (deltas
# --jobs; deltas -j 1 per CPU-s beside it) with peak RSS flat from SMALL to LARGE,
# export csv >= 8 M/s.
# LOGDEV=path measures another logdev binary (e.g. a build of main).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
small=${1:-1000000}
large=${2:-10000000}
out=$top/bench/out/reader
mkdir -p "$out"
make -s -C "$top/userspace" >/dev/null 2>&1 || echo "bench: userspace build failed, using the existing $top/userspace/logdev" >&2
make -s -C "$here" >/dev/null
logdev=${LOGDEV:-$top/userspace/logdev}

# --- trace.dat from the VM -------------------------------------------------
tc=$out/trace.dat
npc=$((small / 2))
if [ ! -s "$tc" ] || [ "$(cat "$out/trace.dat.records" 2>/dev/null)" != "$small" ]; then
	rm -rf "$out/vm" "$out/tc-files"
	mkdir -p "$out/tc-files"
	km=$("$top/tools/kernels/modules.sh" --product --with "$top/bench/kernel" --quiet "${LOGDEV_KVER:-}")
	tcbin=$(command -v trace-cmd)
	cp "$tcbin" $(ldd "$tcbin" | awk '/=>/ { print $3 } /ld-linux/ && !/=>/ { print $1 }') "$out/tc-files/"
	# buffer: records * ~40 bytes / CPUs, doubled, in KiB
	bufkb=$(( (npc * 80) / 1024 + 4096 ))
	"$top/tools/vm/run.sh" --smp 2 --mem 1536 --timeout 1800 --append no_timer_check \
		--script "$here/guest-tracecmd.sh" \
		--files "$km/logdev.ko $km/../bench-kernel/logdev_bench.ko $(echo "$out"/tc-files/*)" \
		--args "$npc $bufkb" --out "$out/vm" >&2
	mv "$out/vm/trace.dat" "$tc"
	cp "$out/vm/ftstats.txt" "$out/trace.dat.ftstats"
	echo "$small" > "$out/trace.dat.records"
fi

# the same trace uncompressed (file version 6), in case zstd is what costs
tc6=$out/trace-nocomp.dat
if [ ! -s "$tc6" ] || [ "$tc6" -ot "$tc" ]; then
	trace-cmd convert -i "$tc" -o "$tc6" --file-version 6 --compression none >/dev/null 2>&1
fi

# --- captures ----------------------------------------------------------------
for n in "$small" "$large"; do
	[ -s "$out/cap-$n.cap" ] || "$here/gencap" -o "$out/cap-$n.cap" --records "$n"
done

# measure LABEL RECORDS CMD... -> "label records cpu_s wall_s rss_kb": the
# run with the least CPU time of $runs (cputime: user + sys from wait4(), in
# microseconds; the machine is shared: other load only ever adds time), its
# wall-clock time, the largest peak RSS
runs=${READER_RUNS:-5}
# (a label ending in -jN, several threads: the run with the least wall-clock time)
measure() {
	local label=$1 n=$2 i r k=3; shift 2
	case $label in *-jN) k=4 ;; esac
	for ((i = 0; i < runs; i++)); do
		r=$("$here/cputime" "$@") || [ $? = 3 ] || { echo "bench: $label failed" >&2; exit 1; }
		echo "$label $n $r"
	done | sort -k$k,${k}n | awk '{ if ($5 > rss) rss = $5 } NR == 1 { l = $0 } END { split(l, f, " "); printf "%s %s %s %s %d\n", f[1], f[2], f[3], f[4], rss }'
}

# instructions per record (callgrind: the same on any machine), from two
# captures of READER_IPR and 3x READER_IPR records (the fixed cost cancels)
ipr_n=${READER_IPR:-50000}
refs() {	# CMD... -> the instructions callgrind counted running CMD (its output thrown away)
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}
ipr() {	# VERB... -> instructions per record, or "-" without valgrind
	local a b
	command -v valgrind > /dev/null || { echo "-"; return; }
	a=$(refs "$logdev" "$@" "$out/cap-$ipr_n.cap")
	b=$(refs "$logdev" "$@" "$out/cap-$((3 * ipr_n)).cap")
	awk -v a="$a" -v b="$b" -v n="$((2 * ipr_n))" 'BEGIN { if (a > 0 && b > a) printf "%.0f\n", (b - a) / n; else print "-" }'
}
for n in "$ipr_n" "$((3 * ipr_n))"; do
	[ -s "$out/cap-$n.cap" ] || "$here/gencap" -o "$out/cap-$n.cap" --records "$n"
done
tcrec=$(trace-cmd report -i "$tc" 2>/dev/null | grep -c ' bench ' || true)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
{
	measure "logdev-report" "$small" "$logdev" report "$out/cap-$small.cap"
	measure "logdev-deltas" "$small" "$logdev" deltas -j 1 "$out/cap-$small.cap"
	measure "logdev-deltas-jN" "$small" "$logdev" deltas "$out/cap-$small.cap"
	measure "logdev-export-csv" "$small" "$logdev" export --format csv "$out/cap-$small.cap"
	measure "trace-cmd-report" "$tcrec" trace-cmd report -i "$tc"
	measure "trace-cmd-report-v6" "$tcrec" trace-cmd report -i "$tc6"
	measure "logdev-report" "$large" "$logdev" report "$out/cap-$large.cap"
	measure "logdev-deltas" "$large" "$logdev" deltas -j 1 "$out/cap-$large.cap"
	measure "logdev-deltas-jN" "$large" "$logdev" deltas "$out/cap-$large.cap"
	measure "logdev-export-csv" "$large" "$logdev" export --format csv "$out/cap-$large.cap"
} > "$out/results.txt"
load1=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "logdev-report $(ipr report)"
	echo "logdev-deltas $(ipr deltas -j 1)"
	echo "logdev-export-csv $(ipr export --format csv)"
	# trace-cmd's own (READER_TC_IPR=1: about 4 minutes under callgrind)
	if [ -n "${READER_TC_IPR:-}" ] && command -v valgrind > /dev/null && [ "$tcrec" -gt 0 ]; then
		for t in "trace-cmd-report $tc" "trace-cmd-report-v6 $tc6"; do
			set -- $t
			awk -v l="$1" -v r="$(refs trace-cmd report -i "$2")" -v n="$tcrec" \
				'BEGIN { printf "%s %.0f\n", l, r / n }'
		done
	fi
} > "$out/ipr.txt"

cache() { lscpu | sed -n "s/^$1 cache: *//p" | head -1; }
echo "Reader throughput: $(lscpu | sed -n 's/^Model name: *//p'), $(awk -F': ' '/^cpu MHz/ { printf "%.0f MHz", $2; exit }' /proc/cpuinfo), L1d $(cache L1d), L2 $(cache L2), L3 $(cache L3); kernel $(uname -r)"
echo "  load average $load0 before, $load1 after: quote a figure only from an idle machine (load under ~1)"
echo "  records/s per CPU second (user+sys from wait4(), the least of $runs runs); wall-clock in brackets;"
echo "  instr/rec: callgrind's instructions per record (the same on every machine: $ipr_n vs $((3 * ipr_n)) records);"
echo "  G instr/s: instr/rec x records/s, the speed this machine ran the reader at (what differs between machines)"
printf '  %-20s %10s %14s %12s %9s %12s %10s %9s\n' reader records "records/s" "(wall r/s)" "peak RSS" "file bytes" "instr/rec" "G instr/s"
awk -v ncpu="$(nproc)" -v cs="$small" -v cl="$large" -v dir="$out" -v tc="$tc" -v tc6="$tc6" -v iprf="$out/ipr.txt" '
	function mark(ok) { return ok ? "MET" : "MISSED" }
	BEGIN { while ((getline l < iprf) > 0) { split(l, w, " "); ipr[w[1]] = w[2] } }
	{ lab[NR] = $1; n[NR] = $2; cpu[NR] = $3; wall[NR] = $4; rss[NR] = $5; key[$1 "@" $2] = NR }
	END {
		for (i = 1; i <= NR; i++) {
			f = (lab[i] == "trace-cmd-report") ? tc : (lab[i] == "trace-cmd-report-v6") ? tc6 : dir "/cap-" n[i] ".cap"
			cmd = "stat -c %s " f; cmd | getline sz; close(cmd)
			rps[i] = (cpu[i] > 0) ? n[i] / cpu[i] : 0
			ip = (lab[i] in ipr) ? ipr[lab[i]] : "-"
			printf "  %-20s %10d %14.0f %12.0f %7.1f MB %12d %10s %9s\n", lab[i], n[i], rps[i],
				(wall[i] > 0 ? n[i] / wall[i] : 0), rss[i] / 1024, sz, ip,
				(ip != "-" ? sprintf("%.1f", ip * rps[i] / 1e9) : "-")
		}
		rs = key["logdev-report@" cs]; rl = key["logdev-report@" cl]
		ds = key["logdev-deltas@" cs]; dl = key["logdev-deltas@" cl]
		xs = key["logdev-export-csv@" cs]; xl = key["logdev-export-csv@" cl]
		t = 0
		for (i = 1; i <= NR; i++)
			if (lab[i] ~ /^trace-cmd-report/ && rps[i] > t)
				t = rps[i]
		printf "  targets (issue 29; each rate at both sizes, the ratio to trace-cmd on the same %d records):\n", cs
		printf "    logdev report >= 10,000,000 records/CPU-s: %.0f (%d records), %.0f (%d records) %s\n", rps[rs], cs, rps[rl], cl, mark(rps[rs] >= 1e7 && rps[rl] >= 1e7)
		r = t > 0 ? rps[rs] / t : 0
		printf "    logdev report >= 25x trace-cmd report (the faster trace.dat): %.1fx %s\n", r, mark(r >= 25)
		ps = key["logdev-deltas-jN@" cs]; pl = key["logdev-deltas-jN@" cl]
		ws = wall[ps] > 0 ? n[ps] / wall[ps] : 0; wl = wall[pl] > 0 ? n[pl] / wall[pl] : 0
		printf "    logdev deltas >= 30,000,000 records/s, all %d CPUs (deltas --jobs, wall-clock): %.0f, %.0f %s\n",
			ncpu, ws, wl, mark(ws >= 3e7 && wl >= 3e7)
		printf "      (one thread, -j 1: %.0f, %.0f records/CPU-s; all CPUs: %.0f, %.0f records/CPU-s)\n",
			rps[ds], rps[dl], rps[ps], rps[pl]
		g = rss[pl] / rss[ps]
		printf "    logdev deltas peak RSS flat (all CPUs): %.1f -> %.1f MB (%.2fx) %s\n",
			rss[ps] / 1024, rss[pl] / 1024, g, (g <= 1.25 ? "flat, MET" : "grows, MISSED")
		printf "    logdev export --format csv >= 8,000,000 records/CPU-s: %.0f, %.0f %s\n", rps[xs], rps[xl], mark(rps[xs] >= 8e6 && rps[xl] >= 8e6)
		g = rss[rl] / rss[rs]
		printf "    logdev report peak RSS not growing with capture size (%d -> %d records): %.2fx %s\n", cs, cl, g, mark(g <= 1.25)
	}' "$out/results.txt"
