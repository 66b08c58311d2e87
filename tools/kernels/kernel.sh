#!/bin/bash
# tools/kernels/kernel.sh: the kernels of tools/kernels/matrix, fetched from
# Debian's archive with a private apt state and unpacked into the cache
# (tools/kernels/lib.sh), and the kernels installed on this machine.
#
#   kernel.sh names                 the matrix's names, the default first
#   kernel.sh fetch NAME...         download and unpack each (cached); print
#                                   its release (uname -r)
#   kernel.sh env [KVER]            shell assignments for eval: KNAME KVER
#                                   (the release) KDIR (headers: kbuild's -C)
#                                   KIMG (the image to boot) KBUILD (host or
#                                   a suite) KQEMU (host or a suite) KCC
#   kernel.sh run KVER [-C DIR] -- CMD...
#                                   run CMD where KVER's modules build: here,
#                                   or in its chroot (KBUILD), with the chroot
#                                   made and its tools installed first
#   kernel.sh qemu KVER ARGS...     run the qemu-system-x86_64 that boots KVER
#   kernel.sh image KVER            print KIMG (for tools/vm/run.sh)
#   kernel.sh source NAME           the kernel's source: Debian's
#                                   linux-source-X.Y of the same version as
#                                   NAME's headers (KDEBVER) from its suite,
#                                   downloaded and unpacked into
#                                   CACHE/sources/ once; print the path of its
#                                   linux-source-X.Y.tar.xz (tools/ksrc.sh)
#
# KVER is a matrix name (6.1, 6.12-rt, newest...: fetched when missing), a
# release already fetched into the cache, or a release installed here
# (/lib/modules/V/build and /boot/vmlinuz-V or /usr/lib/modules/V/vmlinuz).
# Default: the matrix's first name.
#
# Fetching a kernel: the image meta-package's newest version in its suite
# names the release V; linux-image-V (and linux-binary-V where the image is
# split, 7.x), linux-headers-V and the headers' own dependencies
# (linux-headers-*-common*, linux-kbuild-*, linux-base-V) are downloaded with
# `apt-get download` and unpacked with `dpkg-deb -x`; the headers' Makefiles,
# which include absolute /usr/src paths, are pointed at the unpacked copy.
# About 100-470 MB per kernel (the image's own modules dropped), 5-30 s.  Its source (kernel.sh source) is
# linux-source-X.Y=KDEBVER from the same suite through the same private apt
# state, one package per X.Y and version (6.1 and 6.1-rt share it): about
# 140-160 MB, the tarball kept, the .deb not.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }

# ------------------------------------------------------- private apt state

aptdir() { echo "$(ld_cache)/apt"; }

# apt-get / apt-cache with the private state
papt() {
	local a tool=$1
	shift
	a=$(aptdir)
	"$tool" -q -o Dir::Etc::sourcelist="$a/sources.list" -o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$a/lists" -o Dir::Cache="$a/cache" \
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1 \
		-o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root "$@"
}

# the private lists, updated when older than a day (or LOGDEV_APT_REFRESH=1)
apt_ready() {
	local a suites s m sec
	a=$(aptdir)
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	m=$(ld_mirror)
	sec=$(ld_mirror security)
	suites=$(awk '!/^#/ && NF >= 5 { print $2 }' "$ld_matrix" | sort -u)
	{
		for s in $suites; do
			case $s in
			*-security) echo "deb $sec $s main" ;;
			*) echo "deb $m $s main" ;;
			esac
		done
	} > "$a/sources.list.new"
	if ! cmp -s "$a/sources.list.new" "$a/sources.list" ||
		[ -z "$(find "$a/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ] ||
		[ "${LOGDEV_APT_REFRESH:-}" = 1 ]; then
		mv "$a/sources.list.new" "$a/sources.list"
		echo "kernel: updating the private apt lists ($a)" >&2
		papt apt-get update > "$a/update.log" 2>&1 ||
			ld_die "apt-get update (private state $a) failed: $(grep -E '^(E|W):' "$a/update.log" | head -n 3 | tr '\n' '|')"
	else
		rm -f "$a/sources.list.new"
	fi
}

# depends PKG/SUITE: its Depends, one package name a line
depends() {
	papt apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances "$1" 2>/dev/null |
		sed -n 's/^ *|\{0,1\}Depends: \([^ <>]*\).*/\1/p'
}

# ------------------------------------------------------------------ fetch

kdir_of() { echo "$(ld_cache)/kernels/$1"; }

# unpack DEB... into ROOT, then point the headers' absolute /usr/src paths
# (their Makefile's include and KBUILD_OUTPUT) and /lib/modules/V/build at it
unpack() {
	local root=$1 d f
	shift
	for d in "$@"; do
		dpkg-deb -x "$d" "$root" || ld_die "dpkg-deb -x $d failed"
	done
	for f in "$root"/usr/src/linux-headers-*/Makefile; do
		[ -f "$f" ] || continue
		# only the short Debian wrapper Makefiles, not the kernel's own
		[ "$(wc -l < "$f")" -le 5 ] || continue
		sed -i -e "s|^include /usr/src/|include $root/usr/src/|" \
			-e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$root/usr/src/|" "$f"
	done
}

fetch_one() {
	local name=$1 line suite pkg build qemu uts dir tmp h img deps d ver cc debs=()
	line=$(ld_matrix_line "$name") || ld_die "no kernel '$name' in tools/kernels/matrix (names: $(ld_matrix_names | paste -sd ' '))"
	read -r name suite pkg build qemu <<< "$line"
	apt_ready
	uts=$(depends "$pkg/$suite" | sed -n 's/^linux-image-\([0-9].*\)$/\1/p' | grep -v -- '-unsigned$' | sort -V | tail -n 1)
	[ -n "$uts" ] || ld_die "$name: $pkg has no linux-image-V dependency in $suite"
	dir=$(kdir_of "$uts")
	if [ -f "$dir/kernel.env" ]; then
		echo "$uts"
		return 0
	fi
	ld_lock "kernel-$uts"
	if [ -f "$dir/kernel.env" ]; then
		echo "$uts"
		return 0
	fi
	echo "kernel: fetching $name: $uts from $suite" >&2
	tmp=$dir.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp/debs" "$tmp/root"
	deps="linux-image-$uts linux-headers-$uts"
	for d in $(depends "linux-image-$uts/$suite") $(depends "linux-headers-$uts/$suite"); do
		case $d in
		linux-binary-"$uts"|linux-base-"$uts"|linux-headers-*common*|linux-kbuild-*) deps="$deps $d" ;;
		esac
	done
	for d in $deps; do
		(cd "$tmp/debs" && papt apt-get download "$d/$suite" > /dev/null 2>"$tmp/download.err") ||
			ld_die "$name: apt-get download $d/$suite failed: $(head -n 3 "$tmp/download.err" | tr '\n' '|')"
	done
	debs=("$tmp"/debs/*.deb)
	unpack "$tmp/root" "${debs[@]}"
	h=$tmp/root/usr/src/linux-headers-$uts
	[ -f "$h/Module.symvers" ] || ld_die "$name: no headers in $h"
	img=
	for d in "$tmp/root/boot/vmlinuz-$uts" "$tmp/root/usr/lib/modules/$uts/vmlinuz" "$tmp/root/lib/modules/$uts/vmlinuz"; do
		[ -f "$d" ] && { img=$d; break; }
	done
	[ -n "$img" ] || ld_die "$name: no vmlinuz in $(basename -a "${debs[@]}" | tr '\n' ' ')"
	# the compiler the headers were made with (their .kernelvariables)
	cc=$(sed -n 's/^CC *=.*(CROSS_COMPILE)\(gcc[-0-9.]*\).*/\1/p' "$h/.kernelvariables" 2>/dev/null | head -n 1)
	ver=$(dpkg-deb -f "$tmp/debs/linux-headers-${uts}_"*.deb Version)
	# the image packages' modules are not needed (the VM loads only ours)
	rm -rf "$tmp/debs" "$tmp/root/lib/modules/$uts/kernel" "$tmp/root/usr/lib/modules/$uts/kernel"
	mv "$tmp" "$dir"
	# the paths were written for $tmp: point them at the final place
	grep -rl --include=Makefile "$tmp/" "$dir/root/usr/src" 2>/dev/null | xargs -r sed -i "s|$tmp/|$dir/|g"
	{
		echo "KNAME=$name"
		echo "KVER=$uts"
		echo "KDIR=$dir/root/usr/src/linux-headers-$uts"
		echo "KIMG=${img/#$tmp/$dir}"
		echo "KBUILD=$build"
		echo "KQEMU=$qemu"
		echo "KCC=${cc:-gcc}"
		echo "KSUITE=$suite"
		echo "KDEBVER=$ver"
	} > "$dir/kernel.env.new"
	mv "$dir/kernel.env.new" "$dir/kernel.env"
	echo "$uts"
}

# ------------------------------------------------------------------ lookup

# env_current FILE: a cached kernel.env, with the QEMU that boots it as the
# matrix says today (a cache fetched before the matrix changed keeps its
# image, not its QEMU: 6.1 moved to trixie's QEMU, docs/KERNELS.md)
env_current() {
	local name line q
	cat "$1"
	name=$(sed -n 's/^KNAME=//p' "$1")
	if [ -n "$name" ] && line=$(ld_matrix_line "$name"); then
		read -r _ _ _ _ q <<< "$line"
		echo "KQEMU=$q"
	fi
}

# env_of KVER: print the kernel.env of KVER (fetching a matrix name)
env_of() {
	local k=${1:-} uts img
	[ -n "$k" ] || k=$(ld_matrix_names | head -n 1)
	if ld_matrix_line "$k" > /dev/null; then
		uts=$(fetch_one "$k")
		env_current "$(kdir_of "$uts")/kernel.env"
		return 0
	fi
	if [ -f "$(kdir_of "$k")/kernel.env" ]; then
		env_current "$(kdir_of "$k")/kernel.env"
		return 0
	fi
	if [ -d "/lib/modules/$k/build" ]; then
		img=
		for f in "/boot/vmlinuz-$k" "/usr/lib/modules/$k/vmlinuz" "/lib/modules/$k/vmlinuz"; do
			[ -f "$f" ] && { img=$f; break; }
		done
		echo "KNAME=$k"
		echo "KVER=$k"
		echo "KDIR=$(cd "/lib/modules/$k/build" && pwd -P)"
		echo "KIMG=$img"
		echo "KBUILD=host"
		echo "KQEMU=host"
		echo "KCC=gcc"
		return 0
	fi
	ld_die "no kernel '$k': not a name of tools/kernels/matrix ($(ld_matrix_names | paste -sd ' ')), not fetched into $(ld_cache)/kernels, not installed (/lib/modules/$k/build)"
}

# ------------------------------------------------------------------ source

# source_one NAME: fetch NAME (if needed) and its linux-source-X.Y of the
# same Debian version; print the tarball's path
source_one() {
	local k=$1 xy pkg dir tmp tar
	eval "$(env_of "$k")"
	[ -n "${KDEBVER:-}" ] && [ -n "${KSUITE:-}" ] ||
		ld_die "$k: not fetched from the archive (a kernel installed here): its source package is unknown"
	xy=$(echo "$KDEBVER" | sed -n 's/^\([0-9]*\.[0-9]*\)[.-].*/\1/p')
	[ -n "$xy" ] || ld_die "$k: cannot read X.Y from its version $KDEBVER"
	pkg=linux-source-$xy
	dir=$(ld_cache)/sources/${pkg}_$KDEBVER
	tar=$dir/usr/src/$pkg.tar.xz
	if [ ! -f "$dir/.done" ]; then
		ld_lock "source-${pkg}_$KDEBVER"
		if [ ! -f "$dir/.done" ]; then
			apt_ready
			echo "kernel: fetching $pkg=$KDEBVER from $KSUITE (the source of $KVER)" >&2
			tmp=$dir.tmp
			rm -rf "$tmp"
			mkdir -p "$tmp/debs"
			(cd "$tmp/debs" && papt apt-get download "$pkg=$KDEBVER" > /dev/null 2> "$tmp/download.err") ||
				ld_die "$k: apt-get download $pkg=$KDEBVER failed: $(head -n 3 "$tmp/download.err" | tr '\n' '|')"
			dpkg-deb -x "$tmp"/debs/*.deb "$tmp" || ld_die "$k: dpkg-deb -x of $pkg failed"
			rm -rf "$tmp/debs" "$tmp/download.err"
			[ -f "$tmp/usr/src/$pkg.tar.xz" ] || ld_die "$k: $pkg has no usr/src/$pkg.tar.xz"
			rm -rf "$dir"
			mv "$tmp" "$dir"
			echo "$KDEBVER $KSUITE" > "$dir/.done"
		fi
	fi
	echo "$tar"
}

cmd_run() {
	local k=$1 dir=$PWD
	shift
	if [ "${1:-}" = -C ]; then dir=$2; shift 2; fi
	[ "${1:-}" = -- ] && shift
	eval "$(env_of "$k")"
	if [ "$KBUILD" = host ]; then
		command -v "$KCC" > /dev/null ||
			ld_die "$KVER was built with $KCC, which this machine lacks (apt-get install $KCC)"
		cd "$dir" && exec "$@"
	fi
	# what kbuild's helpers need, and dkms and openssl (make dkms-install, and
	# the scripts/sign-file of make install SIGN_KEY=) for what runs there
	"$(dirname "$0")/chroot.sh" ensure "$KBUILD" "$KCC" make pahole libelf1t64 libssl3t64 zlib1g kmod \
		dkms openssl > /dev/null
	exec "$(dirname "$0")/chroot.sh" run "$KBUILD" -C "$dir" -- "$@"
}

cmd_qemu() {
	local k=$1
	shift
	eval "$(env_of "$k")"
	if [ "$KQEMU" = host ]; then
		exec qemu-system-x86_64 "$@"
	fi
	if ! "$(dirname "$0")/chroot.sh" path "$KQEMU" > /dev/null 2>&1 ||
		[ ! -x "$("$(dirname "$0")/chroot.sh" path "$KQEMU")/usr/bin/qemu-system-x86_64" ]; then
		"$(dirname "$0")/chroot.sh" ensure "$KQEMU" qemu-system-x86 > /dev/null
	fi
	exec "$(dirname "$0")/chroot.sh" exec-qemu "$KQEMU" "$@"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
names) ld_matrix_names ;;
fetch)
	[ $# -ge 1 ] || usage
	for n in "$@"; do fetch_one "$n"; done ;;
env) env_of "${1:-}" ;;
source) [ $# = 1 ] || usage; source_one "$1" ;;
image)	# env_of's own error (a subshell's) is the message: stop there
	e=$(env_of "${1:-}") || exit 1
	eval "$e"; [ -n "${KIMG:-}" ] || ld_die "$KVER: no image to boot"; echo "$KIMG" ;;
run) [ $# -ge 2 ] || usage; cmd_run "$@" ;;
qemu) [ $# -ge 1 ] || usage; cmd_qemu "$@" ;;
*) usage ;;
esac
