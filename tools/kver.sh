#!/bin/bash
# Print the Debian kernel version to boot in the VM: the newest
# /boot/vmlinuz-*-cloud-amd64 (or *-rt-amd64 with --rt) that has a matching
# /lib/modules/V/build (headers).  Exit 1 if there is none.
set -eu
flavour=cloud-amd64
case "${1:-}" in
--rt) flavour=rt-amd64 ;;
"") ;;
*) echo "usage: $0 [--rt]" >&2; exit 2 ;;
esac
best=
for img in /boot/vmlinuz-*-"$flavour"; do
	[ -e "$img" ] || continue
	v=${img#/boot/vmlinuz-}
	[ -d "/lib/modules/$v/build" ] || continue
	best="$best$v"$'\n'
done
v=$(printf '%s' "$best" | sort -V | tail -n 1)
if [ -z "$v" ]; then
	echo "kver: no /boot/vmlinuz-*-$flavour with /lib/modules/*/build (run tools/deps.sh${1:+ $1})" >&2
	exit 1
fi
echo "$v"
