#!/bin/bash
# bench/reader/run.sh [SMALL [LARGE]]: reader throughput and peak memory.
#   logdev report / logdev deltas on synthetic captures of SMALL and LARGE
#   records (gencap), and trace-cmd report on a trace.dat of SMALL
#   trace_printk("bench %d %d") records made in the VM (trace-cmd extract;
#   trace-cmd and its libraries are copied into the initramfs).  The trace.dat
#   is kept in bench/out/reader/ and re-used while its record count matches;
#   trace-cmd 3.1 writes file version 7 compressed with zstd, so the same
#   trace converted to version 6 uncompressed is measured too.
# records/s are per CPU second (user + sys from /usr/bin/time -v): this
# machine is shared, so wall-clock time mostly measures the other load; the
# wall-clock figure is printed too.
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
	kver=$("$top/tools/kver.sh"); kdir=/lib/modules/$kver/build
	kb=$top/bench/out/kbuild
	rm -rf "$kb" "$out/vm" "$out/tc-files"
	mkdir -p "$kb/bench" "$out/tc-files"
	"$top/tools/kernel-src.sh" "$kb"
	cp "$top/bench/kernel/logdev_bench.c" "$top/bench/kernel/Kbuild" "$kb/bench/"
	make -s -C "$kdir" M="$kb/kernel" modules >/dev/null 2>&1
	make -s -C "$kdir" M="$kb/bench" KBUILD_EXTRA_SYMBOLS="$kb/kernel/Module.symvers" \
		ccflags-y="-I$kb/include" modules >/dev/null 2>&1
	tcbin=$(command -v trace-cmd)
	cp "$tcbin" $(ldd "$tcbin" | awk '/=>/ { print $3 } /ld-linux/ && !/=>/ { print $1 }') "$out/tc-files/"
	# buffer: records * ~40 bytes / CPUs, doubled, in KiB
	bufkb=$(( (npc * 80) / 1024 + 4096 ))
	"$top/tools/vm/run.sh" --smp 2 --mem 1536 --timeout 1800 --append no_timer_check \
		--script "$here/guest-tracecmd.sh" \
		--files "$kb/kernel/logdev.ko $kb/bench/logdev_bench.ko $(echo "$out"/tc-files/*)" \
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

# measure LABEL RECORDS CMD... -> "label records cpu_s wall_s rss_kb"
measure() {
	local label=$1 n=$2; shift 2
	/usr/bin/time -v "$@" > /dev/null 2> "$out/time.txt" || [ $? = 3 ] || { echo "bench: $label failed" >&2; cat "$out/time.txt" >&2; exit 1; }
	awk -v l="$label" -v n="$n" '
		/User time/ { u = $NF } /System time/ { s = $NF }
		/Elapsed/ { split($NF, t, ":"); w = (length(t) == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2] }
		/Maximum resident/ { r = $NF }
		END { printf "%s %d %.2f %.2f %d\n", l, n, u + s, w, r }' "$out/time.txt"
}
tcrec=$(trace-cmd report -i "$tc" 2>/dev/null | grep -c ' bench ' || true)
{
	measure "logdev-report" "$small" "$logdev" report "$out/cap-$small.cap"
	measure "logdev-deltas" "$small" "$logdev" deltas "$out/cap-$small.cap"
	measure "trace-cmd-report" "$tcrec" trace-cmd report -i "$tc"
	measure "trace-cmd-report-v6" "$tcrec" trace-cmd report -i "$tc6"
	measure "logdev-report" "$large" "$logdev" report "$out/cap-$large.cap"
	measure "logdev-deltas" "$large" "$logdev" deltas "$out/cap-$large.cap"
} > "$out/results.txt"

echo "Reader throughput: $(lscpu | sed -n 's/^Model name: *//p'), kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  records/s per CPU second (user+sys); wall-clock on this shared machine in brackets"
printf '  %-20s %10s %14s %12s %9s %12s\n' reader records "records/s" "(wall r/s)" "peak RSS" "file bytes"
awk -v cs="$small" -v cl="$large" -v dir="$out" -v tc="$tc" -v tc6="$tc6" '
	{ lab[NR] = $1; n[NR] = $2; cpu[NR] = $3; wall[NR] = $4; rss[NR] = $5 }
	END {
		for (i = 1; i <= NR; i++) {
			f = (lab[i] == "trace-cmd-report") ? tc : (lab[i] == "trace-cmd-report-v6") ? tc6 : dir "/cap-" n[i] ".cap"
			cmd = "stat -c %s " f; cmd | getline sz; close(cmd)
			rps[i] = (cpu[i] > 0) ? n[i] / cpu[i] : 0
			printf "  %-20s %10d %14.0f %12.0f %7.1f MB %12d\n", lab[i], n[i], rps[i],
				(wall[i] > 0 ? n[i] / wall[i] : 0), rss[i] / 1024, sz
		}
		printf "  targets:\n"
		t = (rps[3] > rps[4]) ? rps[3] : rps[4]
		r = rps[1] / t
		printf "    logdev report >= 3x trace-cmd report records/s (%d records, the faster trace.dat): %.2fx %s\n", cs, r, (r >= 3 ? "MET" : "MISSED")
		r = rps[2] / t
		printf "    logdev deltas vs trace-cmd report records/s: %.2fx (no target)\n", r
		g = rss[5] / rss[1]
		printf "    logdev report peak RSS not growing with capture size (%d -> %d records): %.2fx %s\n", cs, cl, g, (g <= 1.25 ? "MET" : "MISSED")
		g = rss[6] / rss[2]
		printf "    logdev deltas peak RSS not growing with capture size (%d -> %d records; per-pair histograms): %.2fx %s\n", cs, cl, g, (g <= 1.25 ? "MET" : "MISSED")
	}' "$out/results.txt"
