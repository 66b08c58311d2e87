# tests/tracecmd/roots.sh: the trace-cmd installations a test runs against.
# Sourced (bash) by tests/tracecmd/run.sh, tests/plugin/run.sh,
# tests/kshark/run.sh and tests/vm/check-merge.sh.
#
#   LOGDEV_TRACECMD_ROOTS="/ /path/chroot-trixie /path/chroot-sid"
#       the installations: "/" is the host, any other word a Debian-like root
#       directory (a debootstrap chroot with trace-cmd in it).  Default "/".
#
#   tcr_foreach SCRIPT ARGS...
#       with LOGDEV_TRACECMD_ROOT unset: runs SCRIPT ARGS once per root of
#       LOGDEV_TRACECMD_ROOTS with LOGDEV_TRACECMD_ROOT set to it, prints
#       "SKIP: NAME: ..." for a root directory that does not exist, and exits
#       (status 0 only if every run exited 0).  With it set (the run for one
#       root): sets what follows and returns.
#   $tcr_root     the root ("/" or a directory)
#   $tcr_tag      "[trace-cmd 3.4.0, libtraceevent 1.9.0 in ROOT] " (no
#                 " in ROOT" for the host), for every PASS/FAIL line
#   tcr_ok        0 if the root has trace-cmd, else prints why and returns 1
#   tcr_run CMD ARGS...
#       CMD of the root, in the current directory: on the host as it is; in a
#       chroot through tools/kernels/chroot.sh run (/tmp, the source tree and
#       the cache bind-mounted at their own paths, so that the tests' files
#       and the built plugin are where the arguments say; the root's own
#       PATH: the host's may name directories that shadow the root's
#       programs).  No mount outlives the command.
#   tc ARGS...    tcr_run trace-cmd ARGS...
#   tcr_build_dir the build directory of things built for this root:
#                 $top/build/tcroots/ROOT-as-a-name (the host: in place)
#   tcawk [-v VAR=VAL]... PROGRAM [FILE...]
#       awk PROGRAM with tests/tracecmd/tcline.awk's functions (tc_parse()
#       and tc_dropped(): trace-cmd report's lines read by their structure)
#
# Needs $top (the source tree) set before sourcing.
: "${top:?roots.sh needs \$top}"

tcr_foreach() {
	local script=$1 r rc=0 name
	shift
	if [ -n "${LOGDEV_TRACECMD_ROOT:-}" ]; then
		tcr_setup "$LOGDEV_TRACECMD_ROOT"
		return 0
	fi
	name=$(basename "$(dirname "$script")")
	for r in ${LOGDEV_TRACECMD_ROOTS:-/}; do
		if [ "$r" != / ] && [ ! -d "$r" ]; then
			echo "SKIP: $name: trace-cmd root $r does not exist (LOGDEV_TRACECMD_ROOTS)"
			continue
		fi
		LOGDEV_TRACECMD_ROOT=$r bash "$script" "$@" || rc=1
	done
	exit $rc
}

# the version of a shared library of the root, from its file name
# (libtraceevent.so.1 -> libtraceevent.so.1.9.0): "1.9.0", or "?"
tcr_lib_version() {
	local r=${tcr_root%/} l v
	for l in "$r"/usr/lib/*/"$1".so.* "$r"/usr/lib/"$1".so.* "$r"/usr/lib64/"$1".so.* \
		"$r"/lib/*/"$1".so.*; do
		[ -e "$l" ] || continue
		v=$(basename "$(readlink -f "$l")")
		v=${v#"$1".so.}
		case $v in *.*.*) echo "$v"; return ;; esac
	done
	echo "?"
}

tcr_setup() {
	local v
	tcr_root=$1
	tcr_chroot=
	if [ "$tcr_root" = / ]; then
		tcr_build_dir=
	else
		tcr_root=$(cd "$tcr_root" && pwd) || exit 1
		tcr_chroot=$tcr_root
		tcr_build_dir=$top/build/tcroots/$(echo "${tcr_root#/}" | tr -c 'A-Za-z0-9._\n-' _)
	fi
	v=$(tcr_run trace-cmd --version 2>&1 | sed -n 's/^trace-cmd version \([^ ]*\).*/\1/p' | head -n 1)
	tcr_tag="[trace-cmd ${v:-?}, libtraceevent $(tcr_lib_version libtraceevent)${tcr_chroot:+ in $tcr_chroot}] "
}

tcr_ok() {
	if [ -z "$tcr_chroot" ]; then
		command -v trace-cmd > /dev/null && return 0
		echo "trace-cmd not found (tools/deps.sh installs it)"
	else
		[ -x "$tcr_chroot/usr/bin/trace-cmd" ] && return 0
		echo "no /usr/bin/trace-cmd in $tcr_chroot (install trace-cmd in it)"
	fi
	return 1
}

tcr_run() {
	if [ -z "$tcr_chroot" ]; then
		"$@"
		return
	fi
	"$top/tools/kernels/chroot.sh" run "$tcr_chroot" -- "$@"
}

tc() { tcr_run trace-cmd "$@"; }

tcawk() {
	local opts=() prog
	while [ "${1:-}" = -v ]; do
		opts+=(-v "$2")
		shift 2
	done
	prog=$1
	shift
	awk "${opts[@]}" -f "$top/tests/tracecmd/tcline.awk" -f <(printf '%s\n' "$prog") "$@"
}
