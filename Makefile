# logdev: top-level build.
#
#   make            module (kernel/), reader (userspace/), and the trace-cmd plugin
#                   (tools/traceevent-plugin/, skipped with a message without
#                   libtraceevent-dev)
#   make demo       boot the Debian kernel in QEMU, record the demo module, print report + deltas
#   make check      every test: the test helpers, ring core (userspace, sanitizers), decoder
#                   goldens, VM tests
#   make soak       10^8 records (SOAK_RECORDS) per kernel (cloud, PREEMPT_RT) and mode in a
#                   4-CPU guest, writers in all contexts nested four deep, readers
#                   checking read + lost == written per CPU and context (tests/vm/soak.sh)
#   make bench      benchmarks (see docs/PERFORMANCE.md)
#   make fuzz       every parser under libFuzzer with ASan+UBSan, 10^7
#                   executions in all (FUZZ_RUNS=N), one target at a time;
#                   prints executions per target (tests/fuzz/README.md)
#   make install    reader to $(PREFIX)/bin, its man page logdev(1) and bash completion
#                   under $(PREFIX)/share, headers to $(PREFIX)/include, logdev.ko for KDIR
#                   (not the test modules of kernel/test/),
#                   Module.symvers to $(PREFIX)/share/logdev (KBUILD_EXTRA_SYMBOLS for
#                   modules that call edprint), plugin_logdev.so where libtraceevent
#                   looks (docs/TRACE-CMD.md, "The trace-cmd plugin")
#   make kernel-tree KSRC=DIR [PROBES=1]
#                   add logdev to a kernel source tree (kernel/logdev/ linking
#                   kernel/*.c, CONFIG_LOGDEV in Kernel hacking; PROBES=1: the
#                   edprint patches of kernel/intree/probes/); docs/BUILTIN.md
#   make demo-builtin   two 6.1 kernels with logdev built in (SLUB, SLOB),
#                   booted in QEMU, `logdev diff` of the kfree_skbmem hunt
#   make check-builtin  the same boots with assertions (not part of check)
#   make clean
#
# KDIR selects the kernel build tree for `make`/`make install`: default the
# running kernel's /lib/modules/$(uname -r)/build, else the Debian kernel
# installed for the VM.  `demo` and `check` always build against the VM
# kernel (tools/kver.sh), since that is the kernel they boot.
# `demo` and `check` install missing Debian packages when run as root, and
# otherwise print the apt-get line needed (tools/deps.sh).

PREFIX     ?= /usr/local
KVER_RUNNING := $(shell uname -r)
VM_KVER     = $(shell tools/kver.sh 2>/dev/null)
ifneq ($(wildcard /lib/modules/$(KVER_RUNNING)/build),)
KDIR ?= /lib/modules/$(KVER_RUNNING)/build
else
KDIR ?= /lib/modules/$(shell tools/kver.sh 2>/dev/null)/build
endif

all: kernel userspace plugin

kernel:
	$(MAKE) -C kernel KDIR=$(KDIR)

userspace:
	$(MAKE) -C userspace

plugin:
	$(MAKE) -C tools/traceevent-plugin

deps:
	tools/deps.sh

# what building logdev into a kernel needs (tests/intree in check, demo-builtin)
deps-kernel:
	tools/deps.sh --kernel

# Modules for the kernel the VM boots.
vm-kernel: deps
	$(MAKE) -C kernel KDIR=/lib/modules/$(VM_KVER)/build

demo: deps userspace vm-kernel
	tools/demo.sh

# the PREEMPT_RT kernel of the soak tests (vm-soak-rt in check, make soak)
deps-rt:
	tools/deps.sh --rt

check: deps deps-kernel deps-rt userspace plugin vm-kernel
	tests/run-all.sh

# Soak (tests/vm/soak.sh): SOAK_RECORDS (default 10^8) records per kernel and
# mode in a 4-CPU guest of the cloud and the PREEMPT_RT kernel, overwrite and
# discard, writers in all four contexts nested four deep, consuming readers;
# prints per kernel and mode the records written/read/lost per CPU and
# context, records/s, duration and load average.  About 15 min per 10^8
# records and mode under TCG (docs/TESTING.md): not part of check, which
# runs the same with 10^6 (vm-soak-cloud, vm-soak-rt).
SOAK_RECORDS ?= 100000000
soak: deps deps-rt
	tests/vm/soak.sh --records $(SOAK_RECORDS) $(if $(SOAK_KERNELS),--kernels "$(SOAK_KERNELS)") $(if $(SOAK_MODES),--modes "$(SOAK_MODES)")

bench: userspace
	tools/deps.sh --bench
	$(MAKE) -C bench run

fuzz:
	$(MAKE) -C tests/fuzz fuzz

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/uapi/linux $(DESTDIR)$(PREFIX)/include/linux
	install -m 0755 userspace/logdev $(DESTDIR)$(PREFIX)/bin/logdev
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0644 docs/logdev.1 $(DESTDIR)$(PREFIX)/share/man/man1/logdev.1
	install -m 0644 userspace/logdev.bash-completion $(DESTDIR)$(PREFIX)/share/bash-completion/completions/logdev
	install -m 0644 include/uapi/linux/logdev.h $(DESTDIR)$(PREFIX)/include/uapi/linux/logdev.h
	install -m 0644 include/linux/edprint*.h $(DESTDIR)$(PREFIX)/include/linux/
	install -d $(DESTDIR)$(PREFIX)/share/logdev
	install -m 0644 kernel/Module.symvers $(DESTDIR)$(PREFIX)/share/logdev/Module.symvers
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kernel $(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) modules_install
	$(MAKE) -C tools/traceevent-plugin install

clean:
	$(MAKE) -C userspace clean
	-$(MAKE) -C kernel clean KDIR=$(KDIR)
	$(MAKE) -C tests/ring clean
	-$(MAKE) -C tests/decode clean
	-$(MAKE) -C tests/include clean
	-$(MAKE) -C tests/fuzz clean
	-$(MAKE) -C bench clean
	-$(MAKE) -C tools/traceevent-plugin clean
	-$(MAKE) -C tests/plugin clean
	rm -rf demo-out tests/vm/out build

.PHONY: all kernel userspace plugin deps deps-kernel deps-rt vm-kernel demo check soak bench fuzz install clean

# Cloud vs PREEMPT_RT kernel, same workload through logdev probes, then
# `logdev diff` (tools/demo-compare.sh; about 2.5 min, not part of check).
demo-compare: userspace
	tools/demo-compare.sh
.PHONY: demo-compare

# logdev in a kernel tree (docs/BUILTIN.md).  KSRC: a kernel source tree;
# PROBES=1 also applies kernel/intree/probes/series.
kernel-tree:
	@test -n "$(KSRC)" || { echo "usage: make kernel-tree KSRC=DIR [PROBES=1]" >&2; exit 2; }
	tools/kernel-tree.sh $(if $(filter 1 y yes,$(PROBES)),--probes) "$(KSRC)"

# SLUB and SLOB 6.1 kernels with logdev built in (tools/demo-builtin.sh;
# kernels cached in build/cache/, first run about 30 min on 2 cores).
demo-builtin: deps deps-kernel userspace
	tools/demo-builtin.sh

check-builtin: deps deps-kernel userspace
	tools/demo-builtin.sh --check
.PHONY: kernel-tree demo-builtin check-builtin
