#!/bin/bash
# tests/vm/run-matrix.sh [NAME...]: the groups of the VM suite that tell
# whether logdev works on a kernel at all, on every kernel of
# tools/kernels/matrix but the one `make check` checks in full (LOGDEV_KVER,
# default the matrix's first), or on the NAMEs given:
#   build     logdev.ko, the test modules and the benchmark's module
#             (bench/kernel: make bench-kernels) build (tools/kernels/modules.sh)
#   load      vm-control: the module loads, every control file works
#   demo      vm-demo: make demo's own script on that kernel
#   probes    vm-probes, vm-probes-ftrace, vm-probes-reload, vm-probes-ksyms,
#             vm-sym: run-time probes by name, MOD:FUNC, glob, "did you
#             mean", kprobe_events syntax, module reloads, every source of
#             the kernel's symbols (kallsyms iterators and /proc/kallsyms,
#             the one a CPU enforcing IBT uses), %pS of module symbols
#   printf    vm-ctx-smp2-overwrite with vm-printf: every context, and the
#             printf table against the kernel's own printk
#   context   vm-probe-ctx: a probe hit recorded in the probed code's
#             context whatever way the kernel ran the handler (ftrace,
#             int3, optimised jump: the entry code differs by kernel)
#   callees   vm-callees: a function's callees read from its machine code
#             (the kernel's build decides thunks, static calls, tail calls)
#   persist   vm-persist-panic: the flight recorder across sysrq-c and a
#             warm reset (module memory layout, vmcoreinfo, notifiers)
#   breakdown vm-breakdown: the context markers attach (tracepoint
#             arguments by name from that kernel's BTF) and split known
#             costs right (PREEMPT_RT: threaded timers, softirqs)
# plus, on PREEMPT_RT kernels, vm-soak (writers nested in every context).
# MATRIX_GROUPS="vm-..." replaces the list.  Each line is prefixed with the
# kernel's name: "PASS: [6.12] vm-control: ...".  Results stay in
# $VM_OUT/matrix-NAME/ (default tests/vm/out-matrix-NAME).
# Exit non-zero if any check failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
K=$top/tools/kernels/kernel.sh
failed=0
groups=${MATRIX_GROUPS:-vm-control vm-demo vm-probes vm-probes-ftrace vm-probes-reload vm-probes-ksyms vm-sym vm-ctx-smp2-overwrite vm-probe-ctx vm-callees vm-persist-panic vm-breakdown}

if [ $# -gt 0 ]; then
	names="$*"
else
	checked=${LOGDEV_KVER:-$("$K" names | head -n 1)}
	checked=$("$K" env "$checked" | sed -n 's/^KVER=//p')
	names=
	for n in $("$K" names); do
		[ "$("$K" env "$n" | sed -n 's/^KVER=//p')" = "$checked" ] || names="$names $n"
	done
fi
for n in $names; do
	g=$groups
	case $n in *-rt) [ -z "${MATRIX_GROUPS:-}" ] && g="$g vm-soak" ;; esac
	t0=$SECONDS
	if ! kmod=$("$top/tools/kernels/modules.sh" --quiet --with "$top/bench/kernel" "$n" 2> "/tmp/logdev-matrix-$n.err"); then
		echo "FAIL: [$n] build: logdev does not build: $(head -n 6 "/tmp/logdev-matrix-$n.err" | tr '\n' '|')"
		failed=1
		continue
	fi
	echo "PASS: [$n] build: logdev.ko, the test modules and logdev_bench.ko for $(grep -ao 'vermagic=[^ ]*' "$kmod/logdev.ko" | head -n 1 | cut -d= -f2)"
	VM_OUT=${VM_OUT:-$top/tests/vm/out}-matrix-$n LOGDEV_KMOD=$kmod VM_ONLY="$g" \
		"$top/tests/vm/run-tests.sh" --quick 2>&1 | sed "s/^\(PASS\|FAIL\|SKIP\): /\1: [$n] /"
	[ "${PIPESTATUS[0]}" = 0 ] || failed=1
	echo "matrix: $n took $((SECONDS - t0)) s"
	rm -f "/tmp/logdev-matrix-$n.err"
done
exit $failed
