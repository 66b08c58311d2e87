#!/bin/bash
# tools/kernel-src.sh DEST: copy the module sources (kernel/ with its test/
# modules and build files, no build products) to DEST/kernel and the headers
# to DEST/include, for a private build (make -C DEST/kernel KDIR=...) that a
# concurrent build in kernel/ cannot race with.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?usage: tools/kernel-src.sh DEST}
mkdir -p "$dest/kernel"
cp -r "$top/include" "$dest/"
(cd "$top/kernel" && find . -type f \( -name '*.[ch]' -o -name '*.sh' -o -name Kbuild -o -name 'Makefile*' \) \
	! -name '*.mod.c' ! -name logdev_compat_config.h | tar -cf - -T -) | tar -C "$dest/kernel" -xf -
