#!/bin/bash
# tools/kernels/chroot.sh: Debian chroots for building and booting kernels
# whose tools this machine's glibc or gcc are too old for (tools/kernels/matrix,
# BUILD and QEMU columns).
#
#   chroot.sh ensure SUITE [PKG...]   make CACHE/chroot/SUITE (debootstrap
#                                      --variant=buildd, first time: about 1.5-3
#                                      min) and install PKGs missing in it;
#                                      print its path
#   chroot.sh path SUITE              print its path (exit 1 if not made)
#   chroot.sh run SUITE|ROOT [-C DIR] -- CMD...
#                                      run CMD in it (or in the root directory
#                                      ROOT, an absolute path), in DIR (default:
#                                      the current directory, else /), with
#                                      this source tree, the cache and /tmp
#                                      bind-mounted at their own paths, the
#                                      root's own PATH, inside a private mount
#                                      namespace (a user namespace when not
#                                      root): no mount outlives CMD
#   chroot.sh exec-qemu SUITE ARGS... run that suite's qemu-system-x86_64 with
#                                      the chroot's loader and libraries, no
#                                      chroot (works as any user)
#
# Packages come from the mirror this machine's own apt sources use
# (tools/kernels/lib.sh); the system's apt state is never touched.  ensure
# needs root (debootstrap); run and exec-qemu do not.
# The cache: tools/kernels/lib.sh (LOGDEV_CACHE).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }

croot() { echo "$(ld_cache)/chroot/$1"; }

need_root() {
	[ "$(id -u)" = 0 ] || ld_die "$1 needs root (debootstrap, chroot and mount do); as root: $0 $*"
}

cmd_ensure() {
	local suite=$1 r missing p
	shift
	r=$(croot "$suite")
	if [ ! -f "$r/.logdev-ready" ]; then
		need_root "ensure $suite"
		command -v debootstrap > /dev/null || ld_die "no debootstrap (apt-get install debootstrap)"
		ld_lock "chroot-$suite"
		if [ ! -f "$r/.logdev-ready" ]; then
			rm -rf "$r"
			mkdir -p "$r"
			echo "chroot: debootstrap $suite into $r" >&2
			debootstrap --variant=buildd "$suite" "$r" "$(ld_mirror)" > "$r.debootstrap.log" 2>&1 ||
				ld_die "debootstrap $suite failed: $(tail -n 3 "$r.debootstrap.log" | tr '\n' '|')"
			touch "$r/.logdev-ready"
		fi
	fi
	missing=
	for p in "$@"; do
		[ "$(chroot "$r" dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] ||
			missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		need_root "ensure $suite$missing"
		ld_lock "chroot-$suite"
		echo "chroot: $suite: installing$missing" >&2
		cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
		# shellcheck disable=SC2086
		# Check-Valid-Until: a suite's Release (sid's) may say it expired
		# when the machine's clock is past it
		cmd_run "$suite" -- sh -c "export DEBIAN_FRONTEND=noninteractive
			apt-get -o Acquire::Check-Valid-Until=false update -q > /dev/null &&
			apt-get install -y -q --no-install-recommends $missing > /dev/null" ||
			ld_die "$suite: apt-get install$missing failed"
	fi
	echo "$r"
}

cmd_path() {
	local r
	r=$(croot "$1")
	[ -f "$r/.logdev-ready" ] || { echo "chroot: no $1 chroot (tools/kernels/chroot.sh ensure $1)" >&2; exit 1; }
	echo "$r"
}

cmd_run() {
	local suite=$1 dir=$PWD r cache ns
	shift
	if [ "${1:-}" = -C ]; then dir=$2; shift 2; fi
	[ "${1:-}" = -- ] && shift
	[ $# -gt 0 ] || usage
	case $suite in
	/*) r=$(cd "$suite" && pwd) || ld_die "no root directory $suite" ;;
	*) r=$(cmd_path "$suite") ;;
	esac
	cache=$(ld_cache)
	ns=(unshare --mount --propagation private)
	[ "$(id -u)" = 0 ] || ns=(unshare --user --map-root-user --mount --propagation private)
	# a private mount namespace: the binds vanish with the command, so an
	# interrupted run leaves nothing mounted under the cache or the tree
	"${ns[@]}" bash -c '
		set -e
		r=$1 dir=$2 top=$3 cache=$4; shift 4
		for d in "$top" "$cache" /tmp; do
			mkdir -p "$r$d"
			mount --bind "$d" "$r$d"
		done
		mount -t proc proc "$r/proc" 2>/dev/null || true
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			exec chroot "$r" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$dir" "$@"' \
		- "$r" "$dir" "$ld_top" "$cache" "$@"
}

cmd_exec_qemu() {
	local r lib
	r=$(cmd_path "$1")
	shift
	[ -x "$r/usr/bin/qemu-system-x86_64" ] ||
		ld_die "no qemu-system-x86_64 in $r (tools/kernels/chroot.sh ensure ${r##*/} qemu-system-x86)"
	lib=$r/usr/lib/x86_64-linux-gnu:$r/lib/x86_64-linux-gnu
	exec "$r/lib64/ld-linux-x86-64.so.2" --library-path "$lib" "$r/usr/bin/qemu-system-x86_64" \
		-L "$r/usr/share/qemu" -L "$r/usr/share/seabios" "$@"
}

[ $# -ge 2 ] || usage
cmd=$1
shift
case $cmd in
ensure) cmd_ensure "$@" ;;
path) cmd_path "$1" ;;
run) cmd_run "$@" ;;
exec-qemu) cmd_exec_qemu "$@" ;;
*) usage ;;
esac
