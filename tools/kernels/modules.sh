#!/bin/bash
# tools/kernels/modules.sh [--product] [--with DIR]... [--quiet] [KVER]:
# build logdev.ko, and the modules of kernel/test/ unless --product, for one
# kernel (tools/kernels/kernel.sh: a matrix name, default the first, or a
# release), and print the directory holding logdev.ko.  --with DIR: also
# the module(s) of DIR (its *.c and Kbuild, e.g. bench/kernel), built as any
# module that calls edprint() is, against that logdev.ko's Module.symvers,
# into build/kmod/RELEASE/NAME, NAME being DIR's path in the tree with '/'
# made '-' (bench/kernel: build/kmod/RELEASE/bench-kernel).  Its Kbuild finds
# logdev's headers and logdev_compat.h beside it, in ../include and ../kernel.
#
# Each kernel gets its own copy of the module sources, build/kmod/RELEASE/
# (kernel/ and include/, as tools/kernel-src.sh copies them), refreshed file
# by file so that kbuild rebuilds only what changed, and built where that
# kernel's modules build (here, or in its chroot: kernel.sh run).  So builds
# for several kernels neither race nor undo each other, and kernel/ itself
# is left to `make` for the running kernel.  The build's output is in
# build/kmod/RELEASE/build.log; on failure its errors go to stderr.  Two
# builds for the same kernel at once (two test runs, a user beside make
# check) take turns (flock on build/kmod/RELEASE.lock): they shared the
# build directory and broke each other's objects.
# Exit: 0 built, 1 failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
target=modules quiet= with=()
while [ $# -gt 0 ]; do
	case $1 in
	--product) target=product; shift ;;
	--with) w=$(cd "$2" && pwd -P) && with+=("$w"); shift 2 ;;
	--quiet) quiet=1; shift ;;
	-h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) break ;;
	esac
done
eval "$("$here/kernel.sh" env "${1:-}")"
b=$top/build/kmod/$KVER
mkdir -p "$top/build/kmod"
exec 9> "$b.lock"
flock 9
stage=$(mktemp -d /tmp/logdev-kmod.XXXXXX)
trap 'rm -rf "$stage"' EXIT
"$top/tools/kernel-src.sh" "$stage"
# wname DIR: its build directory's name
wname() { local r=${1#"$(cd "$top" && pwd -P)"/}; echo "${r//\//-}"; }
for w in ${with[@]+"${with[@]}"}; do
	mkdir -p "$stage/$(wname "$w")"
	cp "$w"/*.c "$w/Kbuild" "$stage/$(wname "$w")/"
done
mkdir -p "$b"
# copy what changed, drop what is gone: make then rebuilds only that
(cd "$stage" && find . -type f) | sort > "$stage.list"
while read -r f; do
	if ! cmp -s "$stage/$f" "$b/$f"; then
		mkdir -p "$(dirname "$b/$f")"
		cp "$stage/$f" "$b/$f"
	fi
done < "$stage.list"
if [ -f "$b/sources.list" ]; then
	comm -23 "$b/sources.list" "$stage.list" | while read -r f; do rm -f "$b/$f"; done
fi
mv "$stage.list" "$b/sources.list"
[ -n "$quiet" ] || echo "modules: building logdev for $KVER ($KNAME) in ${b#$top/}" >&2
if ! "$here/kernel.sh" run "$KVER" -C "$b/kernel" -- make KDIR="$KDIR" "$target" > "$b/build.log" 2>&1; then
	echo "modules: the build for $KVER failed (${b#$top/}/build.log):" >&2
	grep -E -m 12 'error|Error|warning:' "$b/build.log" >&2 || tail -n 12 "$b/build.log" >&2
	exit 1
fi
for w in ${with[@]+"${with[@]}"}; do
	if ! "$here/kernel.sh" run "$KVER" -C "$b" -- make -C "$KDIR" M="$b/$(wname "$w")" \
		KBUILD_EXTRA_SYMBOLS="$b/kernel/Module.symvers" modules \
		>> "$b/build.log" 2>&1; then
		echo "modules: building $(wname "$w") for $KVER failed (${b#$top/}/build.log):" >&2
		grep -E -m 12 'error|Error|warning:' "$b/build.log" >&2 || tail -n 12 "$b/build.log" >&2
		exit 1
	fi
done
echo "$b/kernel"
