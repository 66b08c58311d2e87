#!/bin/bash
# Run every test suite, count their PASS:/FAIL: lines, and end with
#   check: N passed, N failed
# Exit non-zero if any check failed or any suite exited non-zero (a suite
# that exits non-zero always has a FAIL line, see suite()).
# Expects userspace/ and the module for the kernel under test (LOGDEV_KVER,
# tools/kernels/modules.sh) built: the top Makefile's `make check`.
# SUITES="decode golden": run only the suites named (names as in the "== NAME"
# lines: ldcheck ring decode btf golden fuzz tracecmd plugin kshark vm-checks
# bench-checks kernel-deps compat intree userspace-deps size-check artefact-check
# doc-links install vm matrix); unset or empty: every suite.
# `make check-host` names the host suites (no package, no VM, no root).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp /tmp/logdev-check.XXXXXX)
trap 'rm -f "$log"' EXIT
SUITES=${SUITES:-}

# want NAME: is suite NAME to run (SUITES unset or empty, or names it)?
want() {
	[ -z "$SUITES" ] && return 0
	case " $SUITES " in *" $1 "*) return 0 ;; esac
	return 1
}
# the suites, in the order they run (`tests/run-all.sh --list`: the top
# Makefile checks SUITES against it before installing anything)
known=" ldcheck ring decode btf golden fuzz tracecmd plugin kshark vm-checks bench-checks kernel-deps compat intree userspace-deps size-check artefact-check doc-links install vm matrix "
if [ "${1:-}" = --list ]; then
	echo $known
	exit 0
fi
if [ -n "$SUITES" ]; then
	for s in $SUITES; do
		case "$known" in *" $s "*) ;; *) echo "FAIL: run-all: no suite '$s' (known:$known)" | tee -a "$log" ;; esac
	done
fi

# suite NAME CMD...: run it, show its output, remember its lines.  A suite
# whose FAIL lines and exit status disagree (FAIL lines but exit 0, or a
# non-zero exit with no FAIL line) gets a FAIL line of its own
# (tests/include/runtest.sh).
suite() {
	local name=$1
	shift
	want "$name" || return 0
	echo "== $name: $*"
	"$top/tests/include/runtest.sh" "$name" "$@" 2>&1 | tee -a "$log"
}

suite ldcheck make -s -C "$top/tests/include" check
suite ring make -s -C "$top/tests/ring" check
if ! want decode; then
	:
elif [ -f "$top/tests/decode/Makefile" ]; then
	suite decode make -s -C "$top/tests/decode" check
else
	echo "FAIL: decode: tests/decode/Makefile missing" | tee -a "$log"
fi
# kernel/logdev_btf.c (tracepoint arguments by name) on hand-made BTF blobs
suite btf make -s -C "$top/tests/btf" check
suite golden "$top/tests/golden/run.sh" "$top/userspace/logdev"
# every parser under libFuzzer (ASan+UBSan): the inputs of fixed bugs
# replayed, then FUZZ_SECONDS (20) of fuzzing in all; SKIP without clang's
# fuzzer runtime
suite fuzz make -s -C "$top/tests/fuzz" check
# trace-cmd 3.3 (trixie) and 3.4 with libtraceevent 1.9 (sid) beside the
# host's 3.1: the tracecmd, plugin and kshark suites and vm-merge's checks
# run on each (tests/tracecmd/roots.sh).  Their chroots are made once, in
# the cache (tools/kernels/chroot.sh; as root).  LOGDEV_TRACECMD_ROOTS set
# (e.g. to /, the host alone) is taken as it is.
if [ -z "${LOGDEV_TRACECMD_ROOTS+x}" ] && { want tracecmd || want plugin || want kshark || want vm; }; then
	LOGDEV_TRACECMD_ROOTS=/
	if [ "$(id -u)" = 0 ]; then
		for s in trixie sid; do
			if r=$("$top/tools/kernels/chroot.sh" ensure $s trace-cmd libtraceevent-dev \
				libtracefs-dev pkg-config libkshark-dev libjson-c-dev libtracecmd-dev 2> "$log.$s"); then
				LOGDEV_TRACECMD_ROOTS="$LOGDEV_TRACECMD_ROOTS $r"
			else
				echo "FAIL: tracecmd-roots: no $s chroot with trace-cmd: $(tail -n 3 "$log.$s" | tr '\n' '|')" | tee -a "$log"
			fi
			rm -f "$log.$s"
		done
	else
		echo "SKIP: tracecmd-roots: trace-cmd 3.3 and 3.4 need their chroots, made as root"
	fi
	export LOGDEV_TRACECMD_ROOTS
fi
# logdev convert read back by trace-cmd (installed by tools/deps.sh)
suite tracecmd "$top/tests/tracecmd/run.sh" "$top/userspace/logdev"
# the trace-cmd plugin through trace-cmd report (needs trace-cmd and
# libtraceevent-dev: `make check` installs them through tools/deps.sh)
suite plugin make -s -C "$top/tests/plugin" check
# a converted capture loaded through libkshark, KernelShark's library
# (libkshark-dev: `make check` installs it through tools/deps.sh)
suite kshark "$top/tests/kshark/run.sh" "$top/userspace/logdev"
# the host-side VM checkers on hand-made results (no VM needed)
suite vm-checks "$top/tests/vm/check-selftest.sh"
# the sustained bench's tables and verdicts on hand-made results (no VM)
suite bench-checks "$top/tests/bench/sustained-selftest.sh"
# on the objects of the module built for the kernel under test (make
# vm-kernel: tools/kernels/modules.sh, build/kmod/RELEASE/kernel/), with
# the benchmark's module (run-matrix.sh builds it for the other kernels)
if ! want kernel-deps; then
	:
elif kobj=${LOGDEV_KMOD:-$("$top/tools/kernels/modules.sh" --quiet --with "$top/bench/kernel" "${LOGDEV_KVER:-}")}; then
	suite kernel-deps "$top/tests/kernel-deps.sh" "$kobj"
	if [ -z "${LOGDEV_KMOD:-}" ]; then
		if [ -f "$kobj/../bench-kernel/logdev_bench.ko" ]; then
			echo "PASS: bench-build: logdev_bench.ko for kernel '${LOGDEV_KVER:-default}'"
		else
			echo "FAIL: bench-build: no $kobj/../bench-kernel/logdev_bench.ko"
		fi | tee -a "$log"
	fi
else
	echo "FAIL: kernel-deps: logdev or logdev_bench.ko does not build for kernel '${LOGDEV_KVER:-default}' (tools/kernels/modules.sh)" | tee -a "$log"
fi
# kernel/compat/conftest.sh's rules with a fake compiler (no kernel)
suite compat "$top/tests/compat/run.sh"
# logdev and the probe patches added to linux-source 6.1, 6.12 and 7.3
# (tools/kernel-tree.sh); on 7.3 and 6.1 a tinyconfig vmlinux with
# CONFIG_LOGDEV=y linked (a missing select fails it), logdev's objects
# compiled in-tree with W=1, edprint() a no-op with CONFIG_LOGDEV=n (the
# trees and their builds are cached in LOGDEV_KCACHE, default build/cache/)
suite intree "$top/tests/intree/run.sh"
suite userspace-deps "$top/tests/userspace-deps.sh" --all
# the checks that keep the tree so (each fails on a planted violation: --self-test)
suite size-check "$top/tests/size-check.sh" --all
suite artefact-check "$top/tests/artefact-check.sh" --all
suite doc-links "$top/tests/doc-links.sh" --all
suite install "$top/tests/install-check.sh"
suite vm "$top/tests/vm/run-tests.sh" ${VM_QUICK:+--quick}
# every other kernel of tools/kernels/matrix: build, load, demo, probes,
# printf (and the soak on PREEMPT_RT); `make check KVER=NAME` runs the whole
# suite above on NAME instead, and not this
if [ -z "${LOGDEV_KVER:-}" ] && [ -z "${CHECK_NO_MATRIX:-}" ]; then
	suite matrix "$top/tests/vm/run-matrix.sh"
fi

passed=$(grep -c '^PASS: ' "$log")
failed=$(grep -c '^FAIL: ' "$log")
echo "check: $passed passed, $failed failed"
# the failures again at the end, where a CI log's tail is read
if [ "$failed" != 0 ]; then
	echo "check: the failures:"
	grep '^FAIL: ' "$log" | head -50
fi
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
