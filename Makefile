# logdev: top-level build.
#
#   make            module (kernel/), reader (userspace/), and the trace-cmd plugin
#                   (tools/traceevent-plugin/, skipped with a message without
#                   libtraceevent-dev)
#   make demo       boot the newest Debian kernel (KVER=) in QEMU, record the demo module,
#                   print report + deltas
#   make vm-run SCRIPT=my.sh [FILES="a b"] [KVER=] [OUT=dir] [ARGS=] [PARAMS=]
#                   your script in the VM with logdev loaded, its results back in OUT
#                   (tools/vm/workload.sh, docs/VM.md)
#   make check      every test: the test helpers, ring core (userspace, sanitizers), decoder
#                   goldens, VM tests; SUITES="decode golden" or VM_ONLY="vm-probes" for
#                   some (docs/TESTING.md)
#   make check-host every host suite (no package, no VM, no root; a few minutes)
#   make soak       10^8 records (SOAK_RECORDS) per kernel (cloud, PREEMPT_RT) and mode in a
#                   4-CPU guest, writers in all contexts nested four deep, readers
#                   checking read + lost == written per CPU and context (tests/vm/soak.sh)
#   make check-persist  the flight recorder's long test: every ending (panic, NMI,
#                   oops, reset, reboot), corruption between boots, ftrace's persistent
#                   instance beside it, a reset into another kernel; on 6.1 and the
#                   newest kernel, with a table of what came back (docs/CRASHDUMP.md)
#   make bench      benchmarks (see docs/PERFORMANCE.md)
#   make bench-kernels  the kernel bench on every matrix kernel, ratios side by side
#   make fuzz       every parser under libFuzzer with ASan+UBSan, 10^7
#                   executions in all (FUZZ_RUNS=N), one target at a time;
#                   prints executions per target (tests/fuzz/README.md)
#   make install    (PREFIX=/usr/local, DESTDIR honoured; docs/INSTALL.md,
#                   "Installing on a real machine") the reader, dynamic and static (bin/logdev,
#                   bin/logdev.static), logdev(1) and bash completion under share/,
#                   the headers for modules that call edprint() in
#                   $(PREFIX)/include/logdev/ (linux/edprint*.h, uapi/linux/logdev.h:
#                   -I$(PREFIX)/include/logdev, not the system's linux/), the module
#                   template (share/logdev/module-template/), plugin_logdev.so where
#                   libtraceevent looks (docs/TRACE-CMD.md); and for the kernel of
#                   KDIR: logdev.ko in /lib/modules/KVER/updates/ (not the test and
#                   demo modules of kernel/test/), its Module.symvers in
#                   $(PREFIX)/lib/logdev/KVER/, then depmod (not with DESTDIR).
#                   SIGN_KEY=key.pem SIGN_CERT=cert.der: sign logdev.ko with the
#                   kernel's scripts/sign-file (a key enrolled as MOK, for Secure Boot)
#   make install-user / install-module   the two halves of install
#   make uninstall  remove what install put there (same PREFIX, DESTDIR, KDIR)
#   make dkms-install   install-user, then logdev's module sources into
#                   /usr/src/logdev-VERSION (dkms.conf), `dkms add`, and `dkms install`
#                   for KVER, else every kernel with headers in /lib/modules/*/build
#                   (DKMS_KERNELS="V1 V2" to choose: releases, or names of
#                   tools/kernels/matrix, each built where it builds, its chroot
#                   for newest); DKMS rebuilds it for kernels installed later.
#                   DKMS_FLAGS: more dkms options (--dkmstree ...)
#   make dkms-uninstall  dkms remove logdev/VERSION --all, and its sources
#   make kernel-tree KSRC=DIR [PROBES=1]
#                   add logdev to a kernel source tree (kernel/logdev/ linking
#                   kernel/*.c, CONFIG_LOGDEV in Kernel hacking; PROBES=1: the
#                   edprint patches of kernel/intree/probes/X.Y/ for the
#                   tree's version: 6.1, 6.12, 7.3); docs/BUILTIN.md
#   make demo-builtin   the newest kernel's linux-source with logdev built in,
#                   booted in QEMU with SLUB and with slub_debug=FZPU,
#                   `logdev diff` of the kfree_skbmem hunt; BUILTIN_PAIR=slob:
#                   two 6.1 kernels, SLUB and SLOB (BUILTIN_KERNEL=NAME: another
#                   matrix kernel's source)
#   make check-builtin  the same boots with assertions (not part of check)
#   make check-debug    the whole VM suite on two debug 6.1 kernels (KASAN +
#                   lockdep, KCSAN + lockdep; 4 CPUs); any kernel report
#                   fails; kernels cached in build/cache/6.1/ (tools/debug-kernel.sh,
#                   CHECK_DEBUG_VARIANT=kasan|kcsan for one)
#   make clean
#
# The kernel (docs/KERNELS.md):
#   KVER=NAME       a kernel of tools/kernels/matrix (6.1 6.1-rt 6.12 6.12-rt
#                   newest), fetched from Debian's archive into a cache
#                   without touching the system's apt, built where it builds
#                   (its chroot for newest), booted with the QEMU that boots
#                   it; or a release fetched or installed here.  For make,
#                   demo, check, bench, install, dkms-install.  Its modules
#                   are built in build/kmod/RELEASE/ (tools/kernels/modules.sh).
#   no KVER         `make`/`make install` build kernel/ in place for KDIR:
#                   default the running kernel's /lib/modules/$(uname -r)/build,
#                   else the matrix's first kernel; `check` and `bench` use
#                   the matrix's first kernel (6.1), `demo` the newest; `check` also runs
#                   the build, load, demo, probes and printf groups on every
#                   other kernel of the matrix (tests/vm/run-matrix.sh).
# `demo` and `check` install missing Debian packages when run as root, and
# otherwise print the apt-get line needed (tools/deps.sh).

PREFIX     ?= /usr/local
KVER_RUNNING := $(shell uname -r)
LOGDEV_VERSION := $(shell sed -n 's/^\#define LOGDEV_VERSION[^"]*"\(.*\)".*/\1/p' userspace/version.h)
KERNELS    := tools/kernels/kernel.sh
ifneq ($(KVER),)
# fetched if missing; its headers, and where its tools run (KRUN)
KENV       := $(shell $(KERNELS) env $(KVER) 2>&1)
KENV_OK    := $(filter KDIR=%,$(KENV))
$(if $(KENV_OK),,$(error KVER=$(KVER): $(KENV)))
KDIR       := $(patsubst KDIR=%,%,$(filter KDIR=%,$(KENV)))
KMOD_DIR   := build/kmod/$(patsubst KVER=%,%,$(filter KVER=%,$(KENV)))/kernel
KRUN       := $(KERNELS) run $(KVER) --
else
KMOD_DIR   := kernel
KRUN       :=
ifneq ($(wildcard /lib/modules/$(KVER_RUNNING)/build),)
KDIR ?= /lib/modules/$(KVER_RUNNING)/build
else
KDIR ?= $(patsubst KDIR=%,%,$(filter KDIR=%,$(shell $(KERNELS) env 2>/dev/null)))
endif
endif
export LOGDEV_KVER := $(KVER)

all: kernel userspace plugin

ifneq ($(KVER),)
kernel:
	$(call kver_note,building logdev.ko)
	tools/kernels/modules.sh $(KVER)
else
kernel:
	$(call kver_note,building logdev.ko)
	$(MAKE) -C kernel KDIR=$(KDIR)
endif

userspace:
	$(MAKE) -C userspace

plugin:
	$(MAKE) -C tools/traceevent-plugin

deps:
	tools/deps.sh

# what building logdev into a kernel needs (tests/intree in check, demo-builtin)
deps-kernel:
	tools/deps.sh --kernel

# Modules for the kernel the VM boots (KVER, default the matrix's first),
# and the benchmark's (bench/kernel), which make check builds for every kernel.
vm-kernel: deps
	tools/kernels/modules.sh --with bench/kernel $(KVER) > /dev/null

# your own workload in the VM (docs/VM.md): tools/vm/workload.sh
vm-run: deps
	@test -n "$(SCRIPT)" || { echo 'make vm-run SCRIPT=my.sh [FILES="a b"] [KVER=] [OUT=dir] [ARGS="..."] [PARAMS="k=v"]' >&2; exit 1; }
	$(MAKE) -C userspace logdev logdev.static
	tools/vm/workload.sh $(if $(KVER),--kver $(KVER)) $(if $(OUT),--out $(OUT)) \
		--args "$(ARGS)" --params "$(PARAMS)" $(SCRIPT) $(FILES)

# the newest kernel of the matrix unless KVER= says otherwise
demo: deps userspace
	LOGDEV_KVER=$(or $(KVER),newest) tools/demo.sh

# SUITES="decode golden": only those suites of tests/run-all.sh; VM_ONLY="vm-a
# vm-b": only those VM groups (and, without SUITES, only the vm suite).  Host
# suites alone need neither packages nor the module (docs/TESTING.md).
HOST_SUITES = ldcheck ring decode btf golden fuzz vm-checks bench-checks compat userspace-deps \
	size-check artefact-check doc-links
CHECK_SUITES = $(or $(SUITES),$(if $(VM_ONLY),vm))
# a name no suite has stops make before anything is installed or built
ifneq ($(filter check,$(MAKECMDGOALS)),)
UNKNOWN_SUITES = $(filter-out $(shell tests/run-all.sh --list),$(SUITES))
ifneq ($(UNKNOWN_SUITES),)
$(error SUITES names no suite: $(UNKNOWN_SUITES) (suites: $(shell tests/run-all.sh --list)))
endif
endif
CHECK_NEEDS = $(if $(CHECK_SUITES),$(if $(filter-out $(HOST_SUITES),$(CHECK_SUITES)),deps deps-kernel userspace plugin vm-kernel,userspace),deps deps-kernel userspace plugin vm-kernel)
check: $(CHECK_NEEDS)
	SUITES="$(CHECK_SUITES)" tests/run-all.sh

# every host suite: no package to install, no VM, no root, a few minutes
check-host: userspace
	SUITES="$(HOST_SUITES)" tests/run-all.sh

# Soak (tests/vm/soak.sh): SOAK_RECORDS (default 10^8) records per kernel and
# mode in a 4-CPU guest of the cloud and the PREEMPT_RT kernel, overwrite and
# discard, writers in all four contexts nested four deep, consuming readers;
# prints per kernel and mode the records written/read/lost per CPU and
# context, records/s, duration and load average.  About 15 min per 10^8
# records and mode under TCG (docs/TESTING.md): not part of check, which
# runs the same with 10^6 (group vm-soak, per matrix kernel).
SOAK_RECORDS ?= 100000000
soak: deps
	tests/vm/soak.sh --records $(SOAK_RECORDS) $(if $(SOAK_KERNELS),--kernels "$(SOAK_KERNELS)") $(if $(SOAK_MODES),--modes "$(SOAK_MODES)")

# the flight recorder's long test: every ending on 6.1 and the newest kernel,
# corruption between boots, ftrace's persistent instance beside it, the
# reset into another kernel; a table of what came back (tests/vm/persist-all.sh)
check-persist: deps deps-kernel userspace vm-kernel
	tests/vm/persist-all.sh

bench: userspace
	tools/deps.sh --bench
	$(MAKE) -C bench run

# the kernel bench on every kernel of the matrix, one after the other, and a
# summary of the ratios side by side (BENCH_KERNELS="6.1 newest" for some)
bench-kernels: userspace
	$(MAKE) -C bench run-kernel-matrix

fuzz:
	$(MAKE) -C tests/fuzz fuzz

# The kernel KDIR builds for: its UTS_RELEASE, what a module's vermagic says
# (Debian's include/config/kernel.release holds the upstream version instead).
KVER_KDIR = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
# kver_note WHAT: fail without a kernel build tree; say so when it is not the
# running kernel's (a module loads only into the kernel it was built for)
define kver_note
	@k='$(KVER_KDIR)'; test -n "$$k" || { echo "logdev: KDIR=$(KDIR) is no kernel build tree (no include/generated/utsrelease.h): install that kernel's headers or set KDIR=" >&2; exit 1; }; \
	test "$$k" = "$(KVER_RUNNING)" || echo "logdev: $(1) for kernel $$k (KDIR=$(KDIR)), not for the running kernel $(KVER_RUNNING): it loads only on a machine running $$k"
endef

INCDIR       = $(PREFIX)/include/logdev
SYMVERSDIR   = $(PREFIX)/lib/logdev/$(KVER_KDIR)
TEMPLATEDIR  = $(PREFIX)/share/logdev/module-template
INSTALL_MOD_DIR ?= updates
MODDIR       = $(DESTDIR)/lib/modules/$(KVER_KDIR)/$(INSTALL_MOD_DIR)
SIGN_HASH   ?= $(or $(shell sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"/\1/p' $(KDIR)/.config 2>/dev/null),sha256)
KDIR_MODSIG  = $(shell grep -q '^CONFIG_MODULE_SIG=y' $(KDIR)/.config 2>/dev/null && echo y)
USER_FILES   = bin/logdev bin/logdev.static share/man/man1/logdev.1 \
	share/bash-completion/completions/logdev \
	$(patsubst include/%,include/logdev/%,$(wildcard include/linux/edprint*.h)) \
	include/logdev/uapi/linux/logdev.h \
	$(addprefix share/logdev/module-template/,Makefile Kbuild hello_logdev.c)

install: install-user install-module

install-user: userspace plugin
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(INCDIR)/linux $(DESTDIR)$(INCDIR)/uapi/linux \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(TEMPLATEDIR)
	install -m 0755 userspace/logdev userspace/logdev.static $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 docs/logdev.1 $(DESTDIR)$(PREFIX)/share/man/man1/logdev.1
	install -m 0644 userspace/logdev.bash-completion $(DESTDIR)$(PREFIX)/share/bash-completion/completions/logdev
	install -m 0644 include/linux/edprint*.h $(DESTDIR)$(INCDIR)/linux/
	install -m 0644 include/uapi/linux/logdev.h $(DESTDIR)$(INCDIR)/uapi/linux/logdev.h
	install -m 0644 tools/module-template/Kbuild tools/module-template/hello_logdev.c $(DESTDIR)$(TEMPLATEDIR)/
	sed 's|@PREFIX@|$(PREFIX)|g' tools/module-template/Makefile > $(DESTDIR)$(TEMPLATEDIR)/Makefile
	$(MAKE) -C tools/traceevent-plugin install
	@echo "logdev: a module of your own: cp -r $(TEMPLATEDIR) mymod && make -C mymod (docs/INSTALL.md, \"Your own module\")"

# logdev.ko is copied, not installed through kbuild's modules_install: for an
# external module that signs only with the kernel's own key (absent from
# distribution headers: "sign-file: certs/signing_key.pem: No such file", then
# ignored) and skips depmod without a System.map in KDIR (Debian's headers).
install-module: kernel
	$(call kver_note,installing logdev.ko)
	install -d $(MODDIR) $(DESTDIR)$(SYMVERSDIR)
	install -m 0644 $(KMOD_DIR)/logdev.ko $(MODDIR)/logdev.ko
	install -m 0644 $(KMOD_DIR)/Module.symvers $(DESTDIR)$(SYMVERSDIR)/Module.symvers
ifneq ($(SIGN_KEY),)
	@test -n "$(SIGN_CERT)" || { echo "logdev: SIGN_KEY needs SIGN_CERT (the certificate of the key, DER or PEM)" >&2; exit 1; }
	$(KRUN) $(KDIR)/scripts/sign-file $(SIGN_HASH) $(SIGN_KEY) $(SIGN_CERT) $(MODDIR)/logdev.ko
else ifeq ($(KDIR_MODSIG),y)
	@echo "logdev: logdev.ko is not signed.  Loading it logs \"module verification failed: signature and/or"; \
	echo "  required key missing - tainting kernel\": harmless, the module works.  Under Secure Boot"; \
	echo "  (kernel lockdown) an unsigned module is refused (insmod: \"Key was rejected by service\" or"; \
	echo "  \"Operation not permitted\"): sign it with a key enrolled as MOK (mokutil --import CERT):"; \
	echo "  make install SIGN_KEY=key.pem SIGN_CERT=cert.der, or use make dkms-install (DKMS signs"; \
	echo "  with its own MOK key, /var/lib/dkms/mok.key)"
endif
ifeq ($(DESTDIR),)
	depmod -a $(KVER_KDIR) $(if $(wildcard /boot/System.map-$(KVER_KDIR)),-F /boot/System.map-$(KVER_KDIR))
else
	@echo "logdev: DESTDIR set: no depmod (run depmod -a $(KVER_KDIR) where it is installed)"
endif

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(USER_FILES)) $(MODDIR)/logdev.ko \
		$(DESTDIR)$(SYMVERSDIR)/Module.symvers
	-rmdir $(DESTDIR)$(SYMVERSDIR) $(DESTDIR)$(PREFIX)/lib/logdev $(DESTDIR)$(TEMPLATEDIR) \
		$(DESTDIR)$(PREFIX)/share/logdev $(DESTDIR)$(INCDIR)/uapi/linux $(DESTDIR)$(INCDIR)/uapi \
		$(DESTDIR)$(INCDIR)/linux $(DESTDIR)$(INCDIR) 2>/dev/null
	rm -f "$$($(MAKE) -s --no-print-directory -C tools/traceevent-plugin print-plugin-dir)/plugin_logdev.so"
ifeq ($(DESTDIR),)
	-depmod -a $(KVER_KDIR)
endif

# DKMS (dkms.conf): the module's sources in DKMS_SRCTREE/logdev-VERSION, then
# dkms add + install per kernel.  DKMS_FLAGS are passed to every dkms call
# (the tests use private --dkmstree/--installtree and --no-depmod).
DKMS        ?= dkms
DKMS_SRCTREE ?= /usr/src
DKMS_SRC     = $(DESTDIR)$(DKMS_SRCTREE)/logdev-$(LOGDEV_VERSION)
DKMS_KERNELS ?= $(or $(KVER),$(patsubst /lib/modules/%/build,%,$(wildcard /lib/modules/*/build)))
DKMS_ALL     = $(DKMS_FLAGS) --sourcetree $(DESTDIR)$(DKMS_SRCTREE)

dkms-source:
	@test -n "$(LOGDEV_VERSION)" || { echo "logdev: no LOGDEV_VERSION in userspace/version.h" >&2; exit 1; }
	rm -rf $(DKMS_SRC)/kernel $(DKMS_SRC)/include
	install -d $(DKMS_SRC)/kernel/compat $(DKMS_SRC)/include/linux $(DKMS_SRC)/include/uapi/linux
	install -m 0644 kernel/Kbuild kernel/Makefile kernel/Makefile.objs \
		$(filter-out kernel/logdev_compat_config.h,$(wildcard kernel/logdev_*.c kernel/logdev_*.h)) \
		$(DKMS_SRC)/kernel/
	install -m 0644 kernel/compat/Makefile.conftest kernel/compat/README $(wildcard kernel/compat/*.c) \
		$(DKMS_SRC)/kernel/compat/
	install -m 0755 kernel/compat/conftest.sh $(DKMS_SRC)/kernel/compat/
	install -m 0644 include/linux/edprint*.h $(DKMS_SRC)/include/linux/
	install -m 0644 include/uapi/linux/logdev.h $(DKMS_SRC)/include/uapi/linux/
	install -m 0755 tools/dkms-post-build.sh $(DKMS_SRC)/
	sed 's|@LOGDEV_VERSION@|$(LOGDEV_VERSION)|g' dkms.conf > $(DKMS_SRC)/dkms.conf

# DKMS looks for sign-file under /lib/modules/KVER/build whatever
# --kernelsourcedir says: a kernel of the matrix (headers in the kernel cache)
# would get an unsigned logdev.ko; sign_file= (DKMS's own variable) names that
# kernel's sign-file unless the caller set one.
dkms-install: install-user dkms-source
	@command -v $(DKMS) > /dev/null || { echo "logdev: no dkms (apt-get install dkms)" >&2; exit 1; }
	@test -n "$(DKMS_KERNELS)" || { echo "logdev: no kernel with headers in /lib/modules/*/build (DKMS_KERNELS=)" >&2; exit 1; }
	if $(DKMS) status $(DKMS_ALL) logdev/$(LOGDEV_VERSION) | grep -q .; then \
		$(DKMS) remove $(DKMS_ALL) logdev/$(LOGDEV_VERSION) --all; fi
	$(DKMS) add $(DKMS_ALL) logdev/$(LOGDEV_VERSION)
	set -e; for k in $(DKMS_KERNELS); do \
		eval "$$($(KERNELS) env $$k)"; \
		sf=$${sign_file:-$$KDIR/scripts/sign-file}; \
		$(KERNELS) run $$k -- env sign_file=$$sf \
			$(DKMS) install $(DKMS_ALL) logdev/$(LOGDEV_VERSION) -k $$KVER --kernelsourcedir $$KDIR; \
	done
	$(DKMS) status $(DKMS_ALL) logdev

dkms-uninstall:
	-$(DKMS) remove $(DKMS_ALL) logdev/$(LOGDEV_VERSION) --all
	rm -rf $(DKMS_SRC)

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

.PHONY: all kernel userspace plugin deps deps-kernel vm-kernel vm-run demo check check-host check-persist soak bench bench-kernels fuzz clean
.PHONY: install install-user install-module uninstall dkms-source dkms-install dkms-uninstall

# Cloud vs PREEMPT_RT kernel, same workload through logdev probes, then
# `logdev diff` (tools/demo-compare.sh; about 2.5 min, not part of check).
demo-compare: userspace
	tools/demo-compare.sh
.PHONY: demo-compare

# The slowest kfree_skbmem and munmap calls of the demo workload: logdev's
# --breakdown beside ftrace's function_graph and rtla on the same workload
# (tools/demo-breakdown.sh; KVER= a matrix name, default 6.1; a few minutes).
demo-breakdown: userspace
	KVER=$(or $(KVER),6.1) tools/demo-breakdown.sh
.PHONY: demo-breakdown

# logdev in a kernel tree (docs/BUILTIN.md).  KSRC: a kernel source tree;
# PROBES=1 also applies the series of kernel/intree/probes/X.Y/ (the tree's).
kernel-tree:
	@test -n "$(KSRC)" || { echo "usage: make kernel-tree KSRC=DIR [PROBES=1]" >&2; exit 2; }
	tools/kernel-tree.sh $(if $(filter 1 y yes,$(PROBES)),--probes) "$(KSRC)"

# The kfree_skbmem hunt with logdev built in (tools/demo-builtin.sh; kernels
# cached in build/cache/X.Y/, a first build about 30-40 min on 2 cores).
# BUILTIN_PAIR=debug (default: the newest kernel, SLUB with and without
# slub_debug=FZPU) or slob (6.1, SLUB and SLOB); BUILTIN_KERNEL=NAME.
BUILTIN_PAIR ?=
BUILTIN_KERNEL ?=
builtin_args = $(if $(BUILTIN_PAIR),--pair $(BUILTIN_PAIR)) $(if $(BUILTIN_KERNEL),--kernel $(BUILTIN_KERNEL))
demo-builtin: deps deps-kernel userspace
	tools/demo-builtin.sh $(builtin_args)

check-builtin: deps deps-kernel userspace
	tools/demo-builtin.sh --check $(builtin_args)
.PHONY: kernel-tree demo-builtin check-builtin

# The VM suite on debug kernels (tools/debug-kernel.sh; first run builds two
# kernels, about 40-60 min each on 2 cores; later runs reuse them).
check-debug: deps deps-kernel userspace
	tools/debug-kernel.sh --variant $(or $(CHECK_DEBUG_VARIANT),all)
.PHONY: check-debug
