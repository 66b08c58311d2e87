#!/bin/bash
# tests/btf/real-btf.sh [IMAGE...]: kernel/logdev_btf.c on the real BTF of
# kernels, read as the host build reads it and as the module built for that
# kernel does.
#
# IMAGE: a kernel's vmlinux (an ELF file, as Debian's headers packages of
# 6.12 and 7.x ship it in the KDIR) or its vmlinuz (a bzImage: its payload
# decompressed, the compression found by its magic: LZ4 legacy as Debian's,
# gzip, xz, zstd).  The images: the arguments, else LOGDEV_BTF_VMLINUX
# (space-separated), else every kernel of tools/kernels/matrix (fetched
# when missing: its KDIR's vmlinux where the headers ship one, else its
# image).
#
# For each kernel (NAME: its version, or its KDIR's name):
#   btf-real-NAME-*        its .BTF section (objcopy; the same bytes as the
#                          guest's /sys/kernel/btf/vmlinux) read by test_btf
#                          --file (tests/btf/Makefile's host build)
#   uapi-NAME: ...         if its headers are found (the KDIR holding the
#                          vmlinux; /lib/modules/V/build, ../lib/modules/V/build
#                          or ../usr/src/linux-headers-V of a vmlinuz-V;
#                          build/ beside a .../modules/V/vmlinuz), test_btf
#                          built against its uapi <linux/btf.h> (make uapi:
#                          build/uapi-MD5/, once per distinct header), as the
#                          module sees it: the unit test, then
#   btf-real-NAME-uapi-*   the .BTF read by that build.
# SKIP lines when an image, its headers or a tool is missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/logdev-btf.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
rc=0

# payload VMLINUZ OUT: the compressed kernel inside a bzImage (setup header:
# setup_sects at 0x1f1, payload_offset and payload_length at 0x248)
payload() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
sects = d[0x1f1] or 4
off, ln = struct.unpack_from('<II', d, 0x248)
start = (sects + 1) * 512 + off
open(sys.argv[2], 'wb').write(d[start:start + ln])
PY
}

is_elf() {
	[ "$(od -An -c -N4 "$1" 2>/dev/null | tr -d ' ')" = '177ELF' ]
}

# vmlinux IMAGE OUT: the ELF vmlinux of IMAGE (itself, or out of a bzImage)
vmlinux() {
	local dec=
	if is_elf "$1"; then
		ln -sf "$(realpath "$1")" "$2"
		return
	fi
	payload "$1" "$tmp/payload" 2>/dev/null || return 1
	case $(od -An -tx1 -N4 "$tmp/payload" | tr -d ' ') in
	02214c18) dec="lz4 -dc" ;;
	1f8b*) dec="gzip -dc" ;;
	fd377a58) dec="xz -dc" ;;
	28b52ffd) dec="zstd -dc" ;;
	esac
	# the payload may end in bytes the decompressor calls trailing garbage
	# (its status is not looked at): vmlinux must be an ELF file
	[ -n "$dec" ] && command -v "${dec%% *}" > /dev/null &&
		$dec "$tmp/payload" > "$2" 2> /dev/null
	is_elf "$2"
}

# uapi_h KDIR: its include/uapi/linux/btf.h, or (Debian's split headers)
# that of the tree its Makefile includes
uapi_h() {
	local inc
	if [ -f "$1/include/uapi/linux/btf.h" ]; then
		echo "$1/include/uapi/linux/btf.h"
		return
	fi
	inc=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$1/Makefile" 2>/dev/null | head -n 1)
	[ -n "$inc" ] && [ -f "$inc/include/uapi/linux/btf.h" ] && echo "$inc/include/uapi/linux/btf.h"
}

# name_kdirs IMAGE: "NAME KDIR..." (the KDIRs to look for headers in)
name_kdirs() {
	local d b v
	d=$(dirname "$1")
	b=$(basename "$1")
	case $b in
	vmlinuz-*)
		v=${b#vmlinuz-}
		echo "$v /lib/modules/$v/build $d/../lib/modules/$v/build $d/../usr/src/linux-headers-$v"
		;;
	vmlinuz)
		echo "$(basename "$d") $d/build"
		;;
	*)
		v=$(basename "$d")
		echo "${v#linux-headers-} $d"
		;;
	esac
}

images=("$@")
if [ ${#images[@]} = 0 ] && [ -n "${LOGDEV_BTF_VMLINUX:-}" ]; then
	read -r -a images <<< "$LOGDEV_BTF_VMLINUX"
fi
if [ ${#images[@]} = 0 ]; then
	for n in $("$top/tools/kernels/kernel.sh" names); do
		if e=$("$top/tools/kernels/kernel.sh" env "$n" 2>"$tmp/env.err"); then
			eval "$e"
			if [ -f "$KDIR/vmlinux" ]; then images+=("$KDIR/vmlinux"); else images+=("$KIMG"); fi
		else
			echo "SKIP: btf-real-$n: no kernel $n ($(head -n 1 "$tmp/env.err"))"
		fi
	done
fi

declare -A unit_done
for img in "${images[@]}"; do
	read -r name kdirs <<< "$(name_kdirs "$img")"
	tag=btf-real-$name
	rm -f "$tmp/vmlinux" "$tmp/vmlinux.btf"
	if [ ! -r "$img" ]; then
		echo "SKIP: $tag: $img absent"
		continue
	fi
	if ! vmlinux "$img" "$tmp/vmlinux" ||
		! objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/vmlinux.btf" ||
		[ ! -s "$tmp/vmlinux.btf" ]; then
		echo "SKIP: $tag: no .BTF out of $img"
		continue
	fi
	"$here/test_btf" --file "$tmp/vmlinux.btf" "$tag" || rc=1
	h=
	for k in $kdirs; do
		h=$(uapi_h "$k") && break
	done
	if [ -z "$h" ]; then
		echo "SKIP: $tag-uapi: no headers of $name found (${kdirs:-none looked for})"
		continue
	fi
	sum=$(md5sum < "$h" | cut -c1-12)
	dir=$here/build/uapi-$sum
	mkdir -p "$dir/linux"
	ln -sf "$(realpath "$h")" "$dir/linux/btf.h"
	if ! make -s -C "$here" uapi UAPI="$dir" > "$tmp/make.log" 2>&1; then
		sed 's/^/# /' "$tmp/make.log"
		echo "FAIL: $tag-uapi: test_btf does not build against $h"
		rc=1
		continue
	fi
	echo "# $name: <linux/btf.h> of $h"
	if [ -z "${unit_done[$sum]:-}" ]; then
		unit_done[$sum]=1
		"$dir/test_btf" | sed "s/^\(PASS\|FAIL\): /\1: uapi-$name: /"
		[ "${PIPESTATUS[0]}" = 0 ] || rc=1
	fi
	"$dir/test_btf" --file "$tmp/vmlinux.btf" "$tag-uapi" || rc=1
done
exit $rc
