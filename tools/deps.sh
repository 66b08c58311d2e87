#!/bin/bash
# Check (and, as root, install) the Debian packages logdev needs to build the
# module, the static reader (Capstone, zlib), the trace-cmd plugin, and to run the QEMU tests
# (the kernels themselves come from tools/kernels/kernel.sh, into a cache,
# never through the system's apt; debootstrap makes the chroots of the
# kernels that build or boot with a newer suite's tools; pahole makes the
# BTF of modules built for 6.12),
# trace-cmd's reading of what `logdev convert` writes (tests/tracecmd), the
# plugin's tests (tests/plugin), the KernelShark load test (tests/kshark),
# the fuzz suite's libFuzzer targets (tests/fuzz), and DKMS (make
# dkms-install, tests/install-check.sh).
#   tools/deps.sh [--bench | --kernel]...
# --bench: also what `make bench` compares
# against (LTTng-UST and lttng-tools, valgrind for instruction counts; trace-cmd
# is in the base list); --kernel: also what building logdev into a kernel
# from Debian's sources needs (the build tools; the sources themselves,
# linux-source-X.Y of each matrix kernel, come through the private apt state
# of tools/kernels/kernel.sh source: the in-tree check of `make check`,
# tests/intree, and make demo-builtin/check-builtin).
# Root: apt-get update once, then apt-get install what is missing.
# Not root: print the one apt-get install line needed and exit 1.
set -eu
bench=
kernel=
for a in "$@"; do
	case "$a" in
	--bench) bench=1 ;;
	--kernel) kernel=1 ;;
	*) echo "usage: $0 [--bench | --kernel]..." >&2; exit 2 ;;
	esac
done

pkgs="build-essential gcc make libc6-dev busybox-static cpio qemu-system-x86 kmod"
# the x86 instruction decoder of `logdev callees` (userspace/lib/insn.c),
# with the static library logdev.static links
pkgs="$pkgs libcapstone-dev"
# the CRC-32 of the flight recorder's area (userspace/lib/area.c: zlib's
# crc32()), with the static library logdev.static needs
pkgs="$pkgs zlib1g-dev"
# the kernels of tools/kernels/matrix: their chroots, module BTF, the locks
pkgs="$pkgs debootstrap dwarves util-linux"
# the trace-cmd plugin (tools/traceevent-plugin) and its tests (tests/plugin)
pkgs="$pkgs pkg-config libtraceevent-dev trace-cmd"
# the KernelShark load test (tests/kshark): libkshark-dev, and what its
# pkg-config file requires (json-c, libtracecmd, which requires libtracefs)
pkgs="$pkgs libkshark-dev libjson-c-dev libtracecmd-dev libtracefs-dev"
# make dkms-install and its test (tests/install-check.sh: private DKMS trees;
# openssl makes DKMS's signing key and the signed install's test key)
pkgs="$pkgs dkms openssl"
# the fuzz suite (tests/fuzz): clang with its libFuzzer/ASan/UBSan runtime
# (Debian 12's clang is 14); without them the suite says SKIP
pkgs="$pkgs clang libclang-rt-14-dev"
[ -n "$bench" ] && pkgs="$pkgs liblttng-ust-dev lttng-tools valgrind"
[ -n "$kernel" ] && pkgs="$pkgs flex bison bc libelf-dev libssl-dev patch xz-utils"

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

missing=
for p in $pkgs; do
	installed "$p" || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all present"
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing:$missing" >&2
	echo "apt-get install -y --no-install-recommends$missing"
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "deps: installing:$missing"
[ -n "${LOGDEV_APT_UPDATED:-}" ] || apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
echo "deps: installed"
