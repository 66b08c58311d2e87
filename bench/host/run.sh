#!/bin/sh
# bench/host/run.sh [RECORDS [RUNS]]: instruction counts under callgrind,
# then the timed table (hostbench), with an LTTng-UST snapshot session
# running if lttng-tools is installed.  Prints tables on stdout.
set -u
cd "$(dirname "$0")"
N=${1:-2000000}
RUNS=${2:-7}
OUT=${BENCH_OUT:-/tmp/logdev-bench.$$}
mkdir -p "$OUT"
methods="floor edprint edprint-sw snprintf spin"
have_lttng=0
if ldd ./hostbench | grep -q lttng-ust; then
	methods="$methods lttng-ust"
	if command -v lttng >/dev/null 2>&1; then
		pgrep -x lttng-sessiond >/dev/null 2>&1 || lttng-sessiond --daemonize >/dev/null 2>&1
		sess=logdev-bench-$$
		if lttng create "$sess" --snapshot >"$OUT/lttng.log" 2>&1 &&
		   lttng enable-event -u -s "$sess" 'logdev_bench:*' >>"$OUT/lttng.log" 2>&1 &&
		   lttng start "$sess" >>"$OUT/lttng.log" 2>&1; then
			have_lttng=1
		else
			echo "lttng: no session (see $OUT/lttng.log); LTTng-UST rows are the disabled tracepoint" >&2
		fi
	else
		echo "lttng-tools not installed: LTTng-UST rows are the disabled tracepoint" >&2
	fi
fi

# instructions/record: callgrind at two record counts, the difference divided
# by the difference in records (start-up and thread creation cancel out)
: >"$OUT/instr"
if command -v valgrind >/dev/null 2>&1; then
	for m in $methods; do
		for p in 0 2 2s; do
			tot() {
				valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.out" \
					./hostbench --only "$m:$p" --records "$1" >/dev/null 2>&1 &&
				sed -n 's/^totals: *//p' "$OUT/cg.out"
			}
			a=$(tot 20000); b=$(tot 40000)
			[ -n "$a" ] && [ -n "$b" ] &&
				echo "$m:$p $(( (b - a) / 20000 ))" >>"$OUT/instr"
		done
	done
fi

echo "Machine: $(lscpu | sed -n "s/^Model name: *//p"), $(nproc) CPUs, kernel $(uname -r); load average before: $(cut -d" " -f1-3 /proc/loadavg)"
[ "$have_lttng" = 1 ] && echo "LTTng-UST: snapshot session (overwrite, per-UID buffers) with logdev_bench:* enabled"
./hostbench --records "$N" --runs "$RUNS" --instr "$OUT/instr"
rc=$?
[ "$have_lttng" = 1 ] && lttng destroy "$sess" >/dev/null 2>&1
rm -rf "$OUT"
exit $rc
