# shellcheck shell=bash
# tools/kernels/lib.sh: what kernel.sh and chroot.sh share, sourced by both.
#
# The cache: LOGDEV_CACHE, default /var/cache/logdev as root, else
# ${XDG_CACHE_HOME:-~/.cache}/logdev.  It holds
#   apt/               a private apt state (its own sources list, lists and
#                      package cache): the system's apt sources and dpkg
#                      database are never touched
#   kernels/UTS/       one kernel: the image, headers and kbuild packages
#                      unpacked (dpkg-deb -x) under root/, and kernel.env
#   chroot/SUITE/      a debootstrap chroot of SUITE (build tools, QEMU)
#   sources/linux-source-X.Y_VERSION/
#                      a kernel's source package unpacked (kernel.sh source):
#                      usr/src/linux-source-X.Y.tar.xz
#   ksrc/              where .ci/run keeps tools/ksrc.sh's prepared trees
#                      (LOGDEV_KCACHE; elsewhere build/cache/ of the checkout)
# Each is made once, under a lock (flock), and reused; rm -rf to refresh.
# Never under the source tree: chroots get the tree bind-mounted into them.

ld_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ld_matrix=$ld_top/tools/kernels/matrix

ld_die() { echo "${0##*/}: $*" >&2; exit 1; }

ld_cache() {
	local c=${LOGDEV_CACHE:-}
	if [ -z "$c" ]; then
		if [ "$(id -u)" = 0 ]; then c=/var/cache/logdev
		else c=${XDG_CACHE_HOME:-$HOME/.cache}/logdev; fi
	fi
	mkdir -p "$c" || ld_die "cannot create the cache $c (LOGDEV_CACHE=)"
	(cd "$c" && pwd)
}

# ld_lock NAME: hold an exclusive lock on CACHE/NAME.lock until the shell
# exits (fd 9); concurrent fetches of the same thing wait for each other.
ld_lock() {
	exec 9> "$(ld_cache)/$1.lock"
	flock 9
}

# ld_mirror [security]: the Debian mirror URI this machine's own apt
# sources use (deb.debian.org if none is found), or its security archive.
ld_mirror() {
	local want=/debian u
	[ "${1:-}" = security ] && want=/debian-security
	u=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -oE '(https?|file)://[^ ]+' | sed 's|/$||' | grep -E "$want\$" | head -n 1)
	echo "${u:-http://deb.debian.org$want}"
}

# ld_matrix_line NAME: "NAME SUITE PACKAGE BUILD QEMU" of the matrix, or fail
ld_matrix_line() {
	local l
	l=$(awk -v n="$1" '!/^#/ && NF >= 5 && $1 == n { print; exit }' "$ld_matrix")
	[ -n "$l" ] || return 1
	echo "$l"
}

# the matrix's names, in order (the first is the default)
ld_matrix_names() {
	awk '!/^#/ && NF >= 5 { print $1 }' "$ld_matrix"
}
