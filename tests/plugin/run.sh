#!/bin/bash
# The trace-cmd plugin plugin_logdev.so through the real `trace-cmd report`:
# its output with each option (set, and toggled, with one and two input
# files) on a file written by gendat (the event layout of
# docs/TRACE-CMD.md, "The trace-cmd plugin"), the same file with no plugin
# at all, and `make install`'s directories.  Once per trace-cmd installation
# of LOGDEV_TRACECMD_ROOTS (tests/tracecmd/roots.sh; default the host's),
# with the plugin built against that installation's libtraceevent (in a
# chroot: by its own compiler, into build/tcroots/); every PASS/FAIL line
# names the trace-cmd and libtraceevent versions.  Needs trace-cmd, the
# plugin built (tools/traceevent-plugin; a chroot needs gcc, make,
# pkg-config and libtraceevent-dev in it) and gendat; a missing one is a
# FAIL, not a skip.  Prints PASS:/FAIL: lines; exits non-zero on any FAIL.
#   tests/plugin/run.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/tracecmd/roots.sh"
tcr_foreach "$here/run.sh" "$@"
src=$top/tools/traceevent-plugin
tmp=$(mktemp -d /tmp/logdev-plugin.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0
pass() { echo "PASS: plugin: $tcr_tag$*"; }
fail() { echo "FAIL: plugin: $tcr_tag$*"; failed=1; }

why=$(tcr_ok) || { fail "$why"; exit 1; }
# the plugin for this installation: the host's is make check's
pdir=$src
if [ -n "$tcr_chroot" ]; then
	pdir=$tcr_build_dir
	if ! tcr_run make -s -C "$src" O="$pdir" > "$tmp/build.log" 2>&1 || [ ! -f "$pdir/plugin_logdev.so" ]; then
		fail "plugin_logdev.so not built in $tcr_chroot (it needs gcc make pkg-config libtraceevent-dev): $(tail -n 3 "$tmp/build.log" | tr '\n' '|')"
		exit 1
	fi
fi
[ -f "$pdir/plugin_logdev.so" ] ||
	{ fail "$pdir/plugin_logdev.so not built (libtraceevent-dev missing? tools/deps.sh installs it)"; exit 1; }
"$here/gendat" "$tmp/t.dat" || { fail "gendat could not write a trace.dat"; exit 1; }
cp "$tmp/t.dat" "$tmp/t2.dat"

# fields FILE...: trace-cmd report lines as "event|text", by their structure
# (tests/tracecmd/tcline.awk: with or without trace-cmd 3.3's flags column);
# with two files "file|event|text"
fields() {
	tcawk -v tc_files="${files:-0}" '
		tc_parse($0) { print (tc_files ? tc_file "|" : "") tc_event "|" tc_text }' "$@"
}

# report NAME [ARGS...]: trace-cmd report of t.dat with the built plugin
# (and the system plugins), as "event|text" lines in $tmp/NAME; exit status
# and stderr checked.  files=2: of t.dat and t2.dat (the plugin loaded into
# two teps), as "file|event|text"
report() {
	local name=$1
	shift
	local rc in=(-i "$tmp/t.dat")
	[ "${files:-0}" = 1 ] && in=(-i "$tmp/t.dat" -i "$tmp/t2.dat")
	TRACEEVENT_PLUGIN_DIR=$pdir HOME=$tmp/nohome tc report "$@" "${in[@]}" \
		> "$tmp/$name.raw" 2> "$tmp/$name.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "$name: trace-cmd report $* exited $rc: $(head -c 300 "$tmp/$name.err" | tr '\n' '|')"
		return 1
	fi
	fields "$tmp/$name.raw" > "$tmp/$name"
}

# expect NAME WHAT: $tmp/NAME equals stdin
expect() {
	local name=$1 what=$2
	cat > "$tmp/$name.want"
	if diff -u "$tmp/$name.want" "$tmp/$name" > "$tmp/$name.diff"; then
		pass "$what"
	else
		fail "$what: differs from the expected text: $(head -n 12 "$tmp/$name.diff" | tr '\n' '|')"
	fi
}

report default && expect default "default: [ctx ]func:line message  +delta us, no delta where delta_ns is -1, probes as NAME:0 and NAME%return:0, sites of one func:line as #1 #2, unknown site as site#ID:?" <<'E'
demo_kfree_skbmem_106|demo_kfree_skbmem:106 in skb=ffff8e969ffa0e00 len=154
demo_skb_124|demo_skb:124 2 data=x tail=154  +3.855 us
f_10_2|hardirq f:10#2 out  +16.692 us
tcp_sendmsg|softirq tcp_sendmsg:0   +3.453 us
tcp_sendmsg__return|softirq tcp_sendmsg%return:0 <- ret=0  +1.001 us
demo_kfree_skbmem_106|nmi demo_kfree_skbmem:106 in skb=0 len=-5  +8.999 us
f_10_2|f:10#2 out  +500000.000 us
demo_skb_124|demo_skb:124 message with %s and \ in it  +0.001 us
f_10|f:10#1 twin one  +0.499 us
site_42|site#42:? ?  +0.500 us
E

report file -O logdev:file=1 && expect file "-O logdev:file=1: file:func:line (not for probes)" <<'E'
demo_kfree_skbmem_106|kernel/test/logdev_demo.c:demo_kfree_skbmem:106 in skb=ffff8e969ffa0e00 len=154
demo_skb_124|kernel/test/logdev_demo.c:demo_skb:124 2 data=x tail=154  +3.855 us
f_10_2|hardirq b.c:f:10#2 out  +16.692 us
tcp_sendmsg|softirq tcp_sendmsg:0   +3.453 us
tcp_sendmsg__return|softirq tcp_sendmsg%return:0 <- ret=0  +1.001 us
demo_kfree_skbmem_106|nmi kernel/test/logdev_demo.c:demo_kfree_skbmem:106 in skb=0 len=-5  +8.999 us
f_10_2|b.c:f:10#2 out  +500000.000 us
demo_skb_124|kernel/test/logdev_demo.c:demo_skb:124 message with %s and \ in it  +0.001 us
f_10|b.c:f:10#1 twin one  +0.499 us
site_42|site#42:? ?  +0.500 us
E

report nodelta -O logdev:delta=0 && expect nodelta "-O logdev:delta=0: no delta" <<'E'
demo_kfree_skbmem_106|demo_kfree_skbmem:106 in skb=ffff8e969ffa0e00 len=154
demo_skb_124|demo_skb:124 2 data=x tail=154
f_10_2|hardirq f:10#2 out
tcp_sendmsg|softirq tcp_sendmsg:0 
tcp_sendmsg__return|softirq tcp_sendmsg%return:0 <- ret=0
demo_kfree_skbmem_106|nmi demo_kfree_skbmem:106 in skb=0 len=-5
f_10_2|f:10#2 out
demo_skb_124|demo_skb:124 message with %s and \ in it
f_10|f:10#1 twin one
site_42|site#42:? ?
E

report fields -O logdev:fields=1 -O logdev:delta=1 && expect fields "-O logdev:fields=1: raw arguments (signed decimal, unsigned hex, strings quoted) before the delta" <<'E'
demo_kfree_skbmem_106|demo_kfree_skbmem:106 in skb=ffff8e969ffa0e00 len=154  {arg0=0xffff8e969ffa0e00 arg1=154}
demo_skb_124|demo_skb:124 2 data=x tail=154  {arg0="eth0"}  +3.855 us
f_10_2|hardirq f:10#2 out  +16.692 us
tcp_sendmsg|softirq tcp_sendmsg:0   +3.453 us
tcp_sendmsg__return|softirq tcp_sendmsg%return:0 <- ret=0  {arg0=0x0}  +1.001 us
demo_kfree_skbmem_106|nmi demo_kfree_skbmem:106 in skb=0 len=-5  {arg0=0x0 arg1=-5}  +8.999 us
f_10_2|f:10#2 out  +500000.000 us
demo_skb_124|demo_skb:124 message with %s and \ in it  {arg0="a b"}  +0.001 us
f_10|f:10#1 twin one  +0.499 us
site_42|site#42:? ?  +0.500 us
E

# an option without a value toggles it (libtraceevent's rule); applied once
# per registration, so the plugin loaded into two teps (two input files)
# must not register them twice: delta would be toggled back on
report toggle -O logdev:delta && expect toggle "-O logdev:delta (no value) toggles the delta off" < "$tmp/nodelta.want"
two_files() { # two_files NAME WANT WHAT ARGS...: each file's lines equal WANT's
	local name=$1 want=$2 what=$3 f
	shift 3
	files=1 report "$name" "$@" || return
	for f in t.dat t2.dat; do
		grep "^$f|" "$tmp/$name" | cut -d'|' -f2- > "$tmp/$name-$f"
		expect "$name-$f" "$what ($f)" < "$tmp/$want.want"
	done
}
two_files toggle2 nodelta "-O logdev:delta with two input files: toggled once, no delta in either" -O logdev:delta
two_files file2 file "-O logdev:file=1 with two input files: set in both" -O logdev:file=1
# the options are registered: trace-cmd list -O shows them with their defaults
TRACEEVENT_PLUGIN_DIR=$pdir HOME=$tmp/nohome tc list -O > "$tmp/list.raw" 2>&1
got=$(awk -F'\t' '$1 ~ /plugin:$/ { p = $2 } $1 ~ /option:$/ { o = $2 } $1 ~ /set:$/ && p == "logdev" { printf "%s=%s ", o, $2 }' "$tmp/list.raw")
[ "$got" = "file=0 delta=1 fields=0 " ] && pass "trace-cmd list -O lists the logdev options with their defaults" ||
	fail "trace-cmd list -O: logdev options '$got', want 'file=0 delta=1 fields=0 ': $(head -n 5 "$tmp/list.raw" | tr '\n' '|')"

# -N: no plugin at all (not even one installed in the system directory):
# the print fmt alone prints the message
TRACEEVENT_PLUGIN_DIR=$pdir tc report -N -i "$tmp/t.dat" > "$tmp/noplug.raw" 2> "$tmp/noplug.err"
rc=$?
if [ "$rc" = 0 ]; then
	fields "$tmp/noplug.raw" > "$tmp/noplug"
	expect noplug "no plugin (-N): the print fmt prints the message" <<'E'
demo_kfree_skbmem_106|in skb=ffff8e969ffa0e00 len=154
demo_skb_124|2 data=x tail=154
f_10_2|out
tcp_sendmsg|
tcp_sendmsg__return|<- ret=0
demo_kfree_skbmem_106|in skb=0 len=-5
f_10_2|out
demo_skb_124|message with %s and \ in it
f_10|twin one
site_42|?
E
else
	fail "no plugin: trace-cmd report -N exited $rc: $(head -c 300 "$tmp/noplug.err" | tr '\n' '|')"
fi

# the plugin's pending handlers are removed on unload: another plugin's
# unloader (plugin_futex's walks the pending list when its event is absent)
# did not crash, and nothing was printed on stderr by any run
errs=$(cat "$tmp"/{default,file,nodelta,fields,toggle,toggle2,file2}.err 2>/dev/null)
[ -z "$errs" ] && pass "no run printed anything on stderr" ||
	fail "stderr of the runs: $(echo "$errs" | head -n 5 | tr '\n' '|')"

# a file with 3000 events of another system whose ids overlap the pending
# range: their records-free events keep their own handlers, logdev ones get
# the plugin
"$here/gendat" "$tmp/big.dat" 3000 || fail "gendat big.dat"
if TRACEEVENT_PLUGIN_DIR=$pdir HOME=$tmp/nohome tc report -i "$tmp/big.dat" > "$tmp/big.raw" 2>&1; then
	n=$(fields "$tmp/big.raw" | grep -c '  +[0-9]*\.[0-9][0-9][0-9] us$')
	[ "$n" = 9 ] && pass "3000 events of another system (ids over the pending range): logdev lines still carry deltas" ||
		fail "3000 foreign events: $n lines with a delta, want 9: $(head -n 4 "$tmp/big.raw" | tr '\n' '|')"
else
	fail "3000 foreign events: trace-cmd report failed: $(head -n 3 "$tmp/big.raw" | tr '\n' '|')"
fi

# ids 5094.. : the first two inside the pending range (1000..5095), the
# rest outside: the first record printed gives the others the handler
"$here/gendat" "$tmp/t.dat" 0 5094 || fail "gendat t.dat 0 5094"
report sweep &&
	expect sweep "events with ids past the pending range get the handler when the first one runs" < "$tmp/default.want"
"$here/gendat" "$tmp/t.dat" || fail "gendat t.dat"

# make install (by the installation's own make and pkg-config): the
# directory for root, a user, TRACEEVENT_PLUGIN_DIR, DESTDIR; trace-cmd finds
# the user's copy in ~/.local/lib/traceevent/plugins
sysdir=$(tcr_run pkg-config --variable=plugin_dir libtraceevent 2>/dev/null)
[ -n "$sysdir" ] || sysdir=/usr/lib/$(tcr_run cc -print-multiarch)/traceevent/plugins
inst() { # inst WANT_FILE MAKE_ARGS...: make install, then WANT_FILE exists
	local want=$1
	shift
	if ! tcr_run env -u TRACEEVENT_PLUGIN_DIR make -s -C "$src" O="$pdir" install "$@" > "$tmp/inst.log" 2>&1; then
		fail "make install ${*//$tmp/TMP}: $(tail -n 3 "$tmp/inst.log" | tr '\n' '|')"
	elif [ -f "$want" ]; then
		pass "make install ${*//$tmp/TMP} -> ${want#$tmp}"
	else
		fail "make install ${*//$tmp/TMP}: $want missing ($(find "$tmp/d" -name '*.so' 2>/dev/null | tr '\n' ' '))"
	fi
}
inst "$tmp/d$sysdir/plugin_logdev.so" DESTDIR="$tmp/d" INSTALL_UID=0
rm -rf "$tmp/d"
inst "$tmp/d/home/u/.local/lib/traceevent/plugins/plugin_logdev.so" DESTDIR="$tmp/d" INSTALL_UID=1000 HOME=/home/u
rm -rf "$tmp/d"
inst "$tmp/d/opt/tep/plugin_logdev.so" DESTDIR="$tmp/d" INSTALL_UID=0 TRACEEVENT_PLUGIN_DIR=/opt/tep
rm -rf "$tmp/d"
mkdir -p "$tmp/home"
inst "$tmp/home/.local/lib/traceevent/plugins/plugin_logdev.so" INSTALL_UID=1000 HOME="$tmp/home"
if HOME=$tmp/home tc report -i "$tmp/t.dat" 2>&1 | fields | grep -qx 'demo_skb_124|demo_skb:124 2 data=x tail=154  +3.855 us'; then
	pass "trace-cmd report uses the plugin installed in ~/.local/lib/traceevent/plugins"
else
	fail "trace-cmd report with HOME=TMP/home does not use the installed plugin"
fi
exit $failed
