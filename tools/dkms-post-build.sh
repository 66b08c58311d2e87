#!/bin/sh
# DKMS POST_BUILD of logdev (dkms.conf): keep the Module.symvers of this
# build beside the module DKMS saved, in DKMS's per-kernel directory, so that
# modules calling edprint() can be built against this kernel's logdev.ko
# (the module template's Makefile looks in kernel-KVER-ARCH/ of that tree).
#   dkms-post-build.sh KVER ARCH      (run by DKMS in its build directory,
#                                      DKMS_TREE/logdev/VERSION/build)
set -eu
[ $# = 2 ] || { echo "usage: $0 KVER ARCH" >&2; exit 2; }
dest=../$1/$2
[ -d "$dest" ] || { echo "dkms-post-build.sh: no $dest (DKMS's directory of this build)" >&2; exit 1; }
cp kernel/Module.symvers "$dest/Module.symvers"
echo "logdev: Module.symvers for $1 kept in $(cd "$dest" && pwd)/Module.symvers"
