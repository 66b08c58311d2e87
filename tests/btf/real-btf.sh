#!/bin/bash
# tests/btf/real-btf.sh: kernel/logdev_btf.c on the real BTF of the kernels
# the VM tests boot (the cloud kernel of tools/kver.sh, and the RT kernel of
# tools/kver.sh --rt if installed): the .BTF section of vmlinux, taken out
# of /boot/vmlinuz-KVER (the bzImage's payload, its compression found by its
# magic: LZ4 legacy as Debian's, gzip, xz, zstd; then objcopy), the same
# bytes as the guest's /sys/kernel/btf/vmlinux, into a temporary directory;
# then test_btf --file.  SKIP lines when a kernel or a tool is missing.
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

for flavour in cloud rt; do
	opt=
	[ $flavour = rt ] && opt=--rt
	kver=$("$top/tools/kver.sh" $opt 2>/dev/null) || {
		echo "SKIP: btf-real-$flavour: no $flavour kernel (tools/kver.sh)"
		continue
	}
	img=/boot/vmlinuz-$kver
	if ! payload "$img" "$tmp/payload" 2>/dev/null; then
		echo "SKIP: btf-real-$flavour: cannot read $img"
		continue
	fi
	case $(od -An -tx1 -N4 "$tmp/payload" | tr -d ' ') in
	02214c18) dec="lz4 -dc" ;;
	1f8b*) dec="gzip -dc" ;;
	fd377a58) dec="xz -dc" ;;
	28b52ffd) dec="zstd -dc" ;;
	*) dec= ;;
	esac
	# the payload may end in bytes the decompressor calls trailing garbage
	# (its status is not looked at): vmlinux must be an ELF file
	[ -n "$dec" ] && command -v "${dec%% *}" > /dev/null &&
		$dec "$tmp/payload" > "$tmp/vmlinux" 2> /dev/null
	if [ "$(od -An -c -N4 "$tmp/vmlinux" 2>/dev/null | tr -d ' ')" != '177ELF' ] ||
		! objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/vmlinux.btf" ||
		[ ! -s "$tmp/vmlinux.btf" ]; then
		echo "SKIP: btf-real-$flavour: no .BTF out of $img (${dec:-unknown compression})"
		continue
	fi
	"$here/test_btf" --file "$tmp/vmlinux.btf" "btf-real-$flavour" || rc=1
done
exit $rc
