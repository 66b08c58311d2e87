#!/bin/bash
# tests/fuzz/run.sh: run the libFuzzer targets built under build/ (Makefile).
#   run.sh check SECONDS TARGET...  replay every input of crashes/TARGET/
#                                    (one PASS/FAIL line each: a regression
#                                    test of a bug the fuzzer found), then
#                                    fuzz each target from its corpus for an
#                                    equal share of SECONDS; PASS/FAIL lines
#   run.sh fuzz RUNS TARGET...       fuzz each target for its share of RUNS
#                                    executions (weight(), per mille: the
#                                    fast word parsers get most, the whole-
#                                    capture reader, 100x slower per input,
#                                    least), one target at a time, in one
#                                    process (no -jobs: the machine is
#                                    shared); prints a table of executions,
#                                    seconds and execs/s per target and the
#                                    total
# New corpus entries go to build/corpus/TARGET in fuzz mode (seeded from
# corpus/TARGET, which stays as committed; check mode keeps none); a crash leaves build/crash-TARGET-*, to be
# committed under crashes/TARGET/ with its fix.  Exit: 0 all passed, 1 a
# failure, 0 with SKIP lines when clang's fuzzer runtime is missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 1
mode=$1 amount=$2
shift 2
targets=("$@")
rc=0

# The Makefile builds these; without the runtime (libclang-rt-14-dev) the
# build fails: say so and skip.
if ! command -v "${CLANG:-clang}" >/dev/null; then
	echo "SKIP: fuzz: clang is not installed (apt-get install clang libclang-rt-14-dev)"
	exit 0
fi
if ! make -s all >build.log 2>&1; then
	if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n){return 0;}' |
		${CLANG:-clang} -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null; then
		echo "SKIP: fuzz: clang's libFuzzer runtime is missing (apt-get install clang libclang-rt-14-dev)"
		exit 0
	fi
	cat build.log
	echo "FAIL: fuzz-build: the fuzz targets do not build (tests/fuzz/build.log)"
	exit 1
fi
rm -f build.log
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# fuzz_one TARGET ARGS...: run it in build/, output in build/TARGET.log;
# sets execs and secs from libFuzzer's final stats
fuzz_one() {
	local t=$1
	shift
	local out=${newdir:-corpus}/$t
	mkdir -p "build/$out"
	local t0=$SECONDS seeds=()
	# the seeds, if committed (the root .gitignore's *.cap keeps
	# corpus/capture's out of git: mkcorpus.py makes them)
	[ -d "corpus/$t" ] && seeds=("../corpus/$t")
	(cd build && "./fuzz_$t" -print_final_stats=1 -artifact_prefix="crash-$t-" \
		-close_fd_mask=3 "$@" "$out" "${seeds[@]}") >"build/$t.log" 2>&1
	local st=$?
	secs=$((SECONDS - t0))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build/$t.log" | tail -1)
	execs=${execs:-0}
	return $st
}

# weight TARGET: its share of `run.sh fuzz`'s executions, per mille (a
# target not listed: an equal share of what is left); maxlen TARGET: the
# largest input libFuzzer makes (0: its default, the largest seed)
weight() {
	case $1 in
	ctlparse|subbuf|bprintf) echo 270 ;;
	btf|meta) echo 60 ;;
	probespec|area) echo 30 ;;
	capture) echo 10 ;;
	*) echo 0 ;;
	esac
}
maxlen() {
	case $1 in
	capture) echo 16384 ;;	# a few sub-buffers; the seeds are up to 53 KB
	probespec) echo 1100 ;;	# a write is at most 1023 bytes
	*) echo 0 ;;
	esac
}

case $mode in
check)
	for t in "${targets[@]}"; do
		[ -d "crashes/$t" ] || continue
		for f in "crashes/$t"/*; do
			[ -f "$f" ] || continue
			if out=$(cd build && "./fuzz_$t" "../$f" 2>&1); then
				echo "PASS: fuzz-crash-$t-$(basename "$f")"
			else
				echo "$out" | grep -E 'ERROR|runtime error|SUMMARY|#[0-9]+ .* in ' | head -12
				echo "FAIL: fuzz-crash-$t-$(basename "$f"): the input of a fixed bug fails again"
				rc=1
			fi
		done
	done
	per=$((amount / ${#targets[@]}))
	[ "$per" -ge 1 ] || per=1
	# from the committed seeds only (what make fuzz grew in build/corpus
	# would make each start slower): new entries are thrown away
	newdir=check-corpus
	rm -rf build/check-corpus
	for t in "${targets[@]}"; do
		if fuzz_one "$t" -max_total_time="$per" -max_len="$(maxlen "$t")"; then
			echo "PASS: fuzz-$t: $execs executions in ${secs}s, no crash, no sanitizer report"
		else
			grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "build/$t.log" | head -12
			echo "FAIL: fuzz-$t: crash or sanitizer report after $execs executions (tests/fuzz/build/$t.log)"
			rc=1
		fi
	done
	;;
fuzz)
	total=0
	printf '%-10s %12s %8s %10s  %s\n' target execs seconds execs/s result
	for t in "${targets[@]}"; do
		w=$(weight "$t")
		[ "$w" -gt 0 ] || w=$((1000 / ${#targets[@]}))
		per=$(( (amount * w + 999) / 1000 ))
		if fuzz_one "$t" -runs="$per" -max_len="$(maxlen "$t")"; then
			res=ok
		else
			res="CRASH (build/$t.log)"
			rc=1
		fi
		total=$((total + execs))
		printf '%-10s %12s %8s %10s  %s\n' "$t" "$execs" "$secs" \
			"$((execs / (secs ? secs : 1)))" "$res"
	done
	printf '%-10s %12s\n' total "$total"
	if [ "$rc" = 0 ] && [ "$total" -lt "$amount" ]; then
		echo "fuzz: only $total of $amount executions"
		rc=1
	fi
	;;
*)
	echo "usage: run.sh check SECONDS TARGET... | fuzz RUNS TARGET..." >&2
	exit 2
	;;
esac
exit $rc
