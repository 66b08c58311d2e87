#!/bin/bash
# bench/reader/run.sh [SMALL [LARGE]]: reader throughput and peak memory.
#   logdev report / deltas / export --format csv on synthetic captures of
#   SMALL and LARGE records (gencap), and trace-cmd report on a trace.dat of SMALL
#   trace_printk("bench %d %d") records made in the VM (trace-cmd extract;
#   trace-cmd and its libraries are copied into the initramfs).  The trace.dat
#   is kept in bench/out/reader/ and re-used while its record count matches;
#   trace-cmd 3.1 writes file version 7 compressed with zstd, so the same
#   trace converted to version 6 uncompressed is measured too.
# records/s are per CPU second (user + sys from /usr/bin/time -v): this
# machine is shared, so wall-clock time mostly measures the other load; the
# wall-clock figure is printed too.  Each is the least CPU time of
# READER_RUNS (default 3) runs.  The targets (issue 11 item 8) are marked MET
# or MISSED: report >= 5 M records/CPU-s and >= 10x trace-cmd report, deltas
# >= 20 M/s with peak RSS flat from SMALL to LARGE, export csv >= 5 M/s.
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
# run with the least CPU time of $runs (the machine is shared: the other load
# only ever adds time), its wall-clock time, the largest peak RSS
runs=${READER_RUNS:-3}
measure() {
	local label=$1 n=$2 i; shift 2
	for ((i = 0; i < runs; i++)); do
		/usr/bin/time -v "$@" > /dev/null 2> "$out/time.txt" || [ $? = 3 ] || { echo "bench: $label failed" >&2; cat "$out/time.txt" >&2; exit 1; }
		awk -v l="$label" -v n="$n" '
			/User time/ { u = $NF } /System time/ { s = $NF }
			/Elapsed/ { split($NF, t, ":"); w = (length(t) == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2] }
			/Maximum resident/ { r = $NF }
			END { printf "%s %d %.2f %.2f %d\n", l, n, u + s, w, r }' "$out/time.txt"
	done | sort -k3,3n | awk '{ if ($5 > rss) rss = $5 } NR == 1 { l = $0 } END { split(l, f, " "); printf "%s %s %s %s %d\n", f[1], f[2], f[3], f[4], rss }'
}
tcrec=$(trace-cmd report -i "$tc" 2>/dev/null | grep -c ' bench ' || true)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
{
	measure "logdev-report" "$small" "$logdev" report "$out/cap-$small.cap"
	measure "logdev-deltas" "$small" "$logdev" deltas "$out/cap-$small.cap"
	measure "logdev-export-csv" "$small" "$logdev" export --format csv "$out/cap-$small.cap"
	measure "trace-cmd-report" "$tcrec" trace-cmd report -i "$tc"
	measure "trace-cmd-report-v6" "$tcrec" trace-cmd report -i "$tc6"
	measure "logdev-report" "$large" "$logdev" report "$out/cap-$large.cap"
	measure "logdev-deltas" "$large" "$logdev" deltas "$out/cap-$large.cap"
	measure "logdev-export-csv" "$large" "$logdev" export --format csv "$out/cap-$large.cap"
} > "$out/results.txt"

echo "Reader throughput: $(lscpu | sed -n 's/^Model name: *//p'), kernel $(uname -r), load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg) after"
echo "  records/s per CPU second (user+sys; the least of $runs runs, /usr/bin/time's 10 ms steps);"
echo "  wall-clock on this shared machine in brackets; confirm on an idle machine before quoting"
printf '  %-20s %10s %14s %12s %9s %12s\n' reader records "records/s" "(wall r/s)" "peak RSS" "file bytes"
awk -v cs="$small" -v cl="$large" -v dir="$out" -v tc="$tc" -v tc6="$tc6" '
	function mark(ok) { return ok ? "MET" : "MISSED" }
	{ lab[NR] = $1; n[NR] = $2; cpu[NR] = $3; wall[NR] = $4; rss[NR] = $5; key[$1 "@" $2] = NR }
	END {
		for (i = 1; i <= NR; i++) {
			f = (lab[i] == "trace-cmd-report") ? tc : (lab[i] == "trace-cmd-report-v6") ? tc6 : dir "/cap-" n[i] ".cap"
			cmd = "stat -c %s " f; cmd | getline sz; close(cmd)
			rps[i] = (cpu[i] > 0) ? n[i] / cpu[i] : 0
			printf "  %-20s %10d %14.0f %12.0f %7.1f MB %12d\n", lab[i], n[i], rps[i],
				(wall[i] > 0 ? n[i] / wall[i] : 0), rss[i] / 1024, sz
		}
		rs = key["logdev-report@" cs]; rl = key["logdev-report@" cl]
		ds = key["logdev-deltas@" cs]; dl = key["logdev-deltas@" cl]
		xs = key["logdev-export-csv@" cs]; xl = key["logdev-export-csv@" cl]
		t = 0
		for (i = 1; i <= NR; i++)
			if (lab[i] ~ /^trace-cmd-report/ && rps[i] > t)
				t = rps[i]
		printf "  targets (issue 11 item 8; rates from the %d-record runs, ratio to trace-cmd at %d records):\n", cl, cs
		printf "    logdev report >= 5,000,000 records/CPU-s: %.0f (%d records: %.0f) %s\n", rps[rl], cs, rps[rs], mark(rps[rl] >= 5e6)
		r = t > 0 ? rps[rs] / t : 0
		printf "    logdev report >= 10x trace-cmd report (the faster trace.dat, %d records): %.1fx %s\n", cs, r, mark(r >= 10)
		g = rss[dl] / rss[ds]
		printf "    logdev deltas >= 20,000,000 records/CPU-s: %.0f (%d records: %.0f) %s; peak RSS %.1f -> %.1f MB (%.2fx) %s\n",
			rps[dl], cs, rps[ds], mark(rps[dl] >= 2e7), rss[ds] / 1024, rss[dl] / 1024, g, (g <= 1.25 ? "flat, MET" : "grows, MISSED")
		printf "    logdev export --format csv >= 5,000,000 records/CPU-s: %.0f (%d records: %.0f) %s\n", rps[xl], cs, rps[xs], mark(rps[xl] >= 5e6)
		g = rss[rl] / rss[rs]
		printf "    logdev report peak RSS not growing with capture size (%d -> %d records): %.2fx %s\n", cs, cl, g, mark(g <= 1.25)
	}' "$out/results.txt"
