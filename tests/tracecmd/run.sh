#!/bin/bash
# trace-cmd reads what `logdev convert` writes (docs/TRACE-CMD.md):
#   tests/tracecmd/run.sh LOGDEV
# For every golden capture (tests/golden/cap/*.cap.gz; demo.cap is the demo
# workload's capture), a corrupted and a truncated one: `trace-cmd report -N -t`
# of the converted file equals `logdev report --raw` line for line in
# timestamp, CPU, pid, site and message, lost events included (norm.awk
# puts both in one form); then -l flags, -F filters on an argument and on
# ctx, --stat, dump --summary and the clock.  trace-cmd missing is a FAIL
# (tools/deps.sh installs it), never a skip.
# Once per trace-cmd installation of LOGDEV_TRACECMD_ROOTS (roots.sh; default
# the host's), each PASS/FAIL line naming its trace-cmd and libtraceevent;
# trace-cmd's lines are read by their structure (tcline.awk), so 3.3's
# flags column and -R's "-0xFLAGS" change nothing that is compared.
set -uo pipefail
# -N everywhere: no libtraceevent plugins, so an installed plugin_logdev.so
# (make install) does not change the plain print-fmt text compared here
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/roots.sh"
tcr_foreach "$here/run.sh" "$@"
logdev=${1:-$top/userspace/logdev}
case $logdev in /*) ;; *) logdev=$PWD/$logdev ;; esac
fails=0
pass() { echo "PASS: $tcr_tag$1"; }
fail() { echo "FAIL: $tcr_tag$1: $2"; fails=$((fails + 1)); }
# check NAME GOT WANT
check_eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$3', got '$2'"; fi; }

if ! why=$(tcr_ok); then
	fail tracecmd-installed "$why"
	exit 1
fi
[ -x "$logdev" ] || { fail tracecmd-logdev "no reader at $logdev"; exit 1; }
tmp=$(mktemp -d /tmp/logdev-tracecmd.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# events FILE.dat [ARGS...]: the event lines of trace-cmd report -N ARGS as
# "cpu|pid|comm|flags|event|text" (flags: with -l)
events() {
	local dat=$1
	shift
	tc report -N "$@" -i "$dat" 2>/dev/null |
		tcawk 'tc_parse($0) { print tc_cpu "|" tc_pid "|" tc_comm "|" tc_flags "|" tc_event "|" tc_text }'
}

# compare NAME CAP: convert, then trace-cmd report vs logdev report --raw
compare() {
	local n=$1 cap=$2 dat=$tmp/$1.dat
	"$logdev" convert -o "$dat" "$cap" 2>"$tmp/$n.err"
	ld_rc=$?
	if [ $ld_rc != 0 ] && [ $ld_rc != 3 ]; then	# 3: decoded, with warnings on stderr
		fail "convert-$n" "exit $ld_rc: $(head -3 "$tmp/$n.err")"
		return
	fi
	pass "convert-$n"
	"$logdev" report --raw "$cap" 2>/dev/null | awk -v mode=logdev -f "$here/tcline.awk" -f "$here/norm.awk" >"$tmp/$n.ld"
	tc report -N -R -i "$dat" >"$tmp/$n.R" 2>"$tmp/$n.tcerr"
	tc report -N -t -i "$dat" 2>>"$tmp/$n.tcerr" |
		awk -v mode=tc -v file="$tmp/$n.R" -f "$here/tcline.awk" -f "$here/norm.awk" >"$tmp/$n.tc"
	local nl
	nl=$(grep -c '^R ' "$tmp/$n.ld")
	if [ "$nl" -eq 0 ]; then
		fail "report-$n" "logdev report --raw gave no records"
	elif ! cmp -s "$tmp/$n.ld" "$tmp/$n.tc"; then
		fail "report-$n" "trace-cmd report differs from logdev report (< logdev, > trace-cmd): $(diff "$tmp/$n.ld" "$tmp/$n.tc" | head -4 | tr '\n' '|')"
	else
		pass "report-$n ($nl records, $(grep -c '^D ' "$tmp/$n.ld") dropped lines)"
	fi
}

for gz in "$top"/tests/golden/cap/*.cap.gz; do
	n=$(basename "$gz" .cap.gz)
	gzip -dc "$gz" >"$tmp/$n.cap"
	compare "$n" "$tmp/$n.cap"
done
# damaged captures convert what decodes, the gap marked where logdev marks it
cp "$tmp/demo.cap" "$tmp/corrupt.cap"
head -c 64 /dev/zero | tr '\0' '\377' | dd of="$tmp/corrupt.cap" bs=1 seek=100000 conv=notrunc 2>/dev/null
compare corrupt "$tmp/corrupt.cap"
check_eq corrupt-unknown-count "$(tc report -N -i "$tmp/corrupt.dat" 2>/dev/null | tcawk 'tc_dropped($0) && tc_count == "?" { n++ } END { print n + 0 }')" 1
head -c 120000 "$tmp/demo.cap" >"$tmp/trunc.cap"
compare trunc "$tmp/trunc.cap"

# losses: the dropped lines with their counts, each just before a record of
# its CPU ("cpuC:COUNT>CPU of the next record")
out=$(tc report -N -i "$tmp/ctx-overwrite.dat" 2>/dev/null | tcawk '
	tc_dropped($0) { d = "cpu" tc_cpu ":" tc_count; next }
	tc_parse($0) && d != "" { printf "%s>%s ", d, tc_cpu; d = "" }')
check_eq dropped-lines "$out" "cpu0:16270>0 cpu1:19302>1 cpu0:7295>0 cpu1:5162>1 "

# -l: the flags column per context (ctx-overwrite has all four): its third
# letter h for hardirq, s for softirq; libtraceevent 1.7.1 to 1.9 print h
# for an NMI too (no NMI letter)
ld_ctx=$("$logdev" report --raw "$tmp/ctx-overwrite.cap" 2>/dev/null | awk -F'\t' '$1 != "LOST" {c[$4]++} END {printf "task=%d softirq=%d hardirq+nmi=%d", c["task"], c["softirq"], c["hardirq"] + c["nmi"]}')
tc_ctx=$(events "$tmp/ctx-overwrite.dat" -l | awk -F'|' '{c[substr($4, 3, 1)]++} END {printf "task=%d softirq=%d hardirq+nmi=%d", c["."], c["s"], c["h"]}')
check_eq flags-l "$tc_ctx" "$ld_ctx"
nmi=$("$logdev" report --raw "$tmp/ctx-overwrite.cap" 2>/dev/null | awk -F'\t' '$4 == "nmi"' | wc -l)
check_eq flags-nmi-bit "$(events "$tmp/ctx-overwrite.dat" -F 'logdev/.*: common_flags & 64' | wc -l)" "$nmi"
check_eq filter-ctx-nmi "$(events "$tmp/ctx-overwrite.dat" -F 'logdev/.*: ctx == 3' | wc -l)" "$nmi"
[ "$nmi" -gt 0 ] && pass flags-nmi-present || fail flags-nmi-present "ctx-overwrite.cap has no NMI record"

# -F on an argument: demo_kmalloc:71 "in size=%zu": arg0 > 100
want=$("$logdev" report --raw "$tmp/demo.cap" | awk -F'\t' '$6 == "demo_kmalloc" && $7 == 71 {split($8, a, "="); if (a[2] + 0 > 100) n++} END {print n + 0}')
got=$(events "$tmp/demo.dat" -F 'logdev/demo_kmalloc_71: arg0 > 100' | grep -c '|demo_kmalloc_71|in size=')
check_eq filter-arg "$got" "$want"
[ "$want" -gt 0 ] && [ "$want" -lt 200 ] && pass filter-arg-selective || fail filter-arg-selective "want=$want"
# a string argument: demo_run_write:195 "in n=%d comm=%s"
check_eq filter-arg-str "$(events "$tmp/demo.dat" -F 'logdev/demo_run_write_195: arg1 == "sh"' | grep -c '|demo_run_write_195|.*comm=sh$')" \
	"$("$logdev" report --raw "$tmp/demo.cap" | awk -F'\t' '$6 == "demo_run_write" && $7 == 195 && $8 ~ /comm=sh$/' | wc -l)"

# --stat: the capture's per-CPU stats, losses included
st=$(tc report -N --stat -i "$tmp/ctx-overwrite.dat" 2>/dev/null | tr '\n' ' ')
case $st in
*"CPU: 0 written: 28921 read: 5356 overwritten: 23565 dropped: 0"*"CPU: 1 written: 28905 read: 4441 overwritten: 24464"*)
	pass stat-cpustats ;;
*) fail stat-cpustats "got: $(echo "$st" | cut -c1-300)" ;;
esac

# the file as trace-cmd describes it; the clock
sum=$(tc dump --summary -i "$tmp/demo.dat" 2>&1)
rc=$?
case "$rc:$sum" in
0:*"6	[Version]"*"[Events format, 1 systems]"*"[Flyrecord tracing data]"*) pass dump-summary ;;
*) fail dump-summary "rc $rc: $(echo "$sum" | head -5 | tr '\n' '|')" ;;
esac
check_eq clock-option "$(tc dump --options -i "$tmp/demo.dat" 2>/dev/null | grep -o '\[local\]' | head -1)" "[local]"
check_eq kallsyms-section "$(tc dump --summary -i "$tmp/sym.dat" 2>&1 | grep -c 'Kallsyms, [1-9][0-9]* bytes')" 1

# with the plugin (tools/traceevent-plugin; for a chroot built by its own
# compiler against its libtraceevent), trace-cmd's lines carry logdev
# report's own text: context, func:line, message and the same "+D us" delta
plugdir=$top/tools/traceevent-plugin
if [ -n "$tcr_chroot" ]; then
	tcr_run make -s -C "$plugdir" O="$tcr_build_dir" > "$tmp/plugin-build.log" 2>&1
	plugdir=$tcr_build_dir
fi
if [ ! -f "$plugdir/plugin_logdev.so" ]; then
	fail plugin-deltas "no $plugdir/plugin_logdev.so (make -C tools/traceevent-plugin${tcr_chroot:+ in $tcr_chroot: $(tail -n 2 "$tmp/plugin-build.log" | tr '\n' '|')})"
else
	for n in demo-v3 demo probes ctx-overwrite; do
		TRACEEVENT_PLUGIN_DIR=$plugdir HOME=$tmp/nohome tc report -i "$tmp/$n.dat" 2>/dev/null |
			tcawk 'tc_parse($0) { print tc_text }' > "$tmp/$n.plugin"
		"$logdev" report "$tmp/$n.cap" 2>/dev/null | grep '^\[' |
			sed -E 's/^\[[^]]*\] cpu:[0-9]+ [^ ]+ //' | grep -v '^LOST ' > "$tmp/$n.text"
		if [ -s "$tmp/$n.text" ] && cmp -s "$tmp/$n.text" "$tmp/$n.plugin"; then
			pass "plugin-deltas-$n ($(wc -l < "$tmp/$n.text") lines equal logdev report's, deltas included)"
		else
			fail "plugin-deltas-$n" "$(diff "$tmp/$n.text" "$tmp/$n.plugin" | head -4 | tr '\n' '|')"
		fi
	done
fi

# the output: a pipe and "-" give the same bytes as -o FILE (the writer never
# seeks); -o naming the capture itself is refused and leaves it intact
"$logdev" convert -o "$tmp/ref.dat" "$tmp/demo.cap" 2>/dev/null
"$logdev" convert "$tmp/demo.cap" 2>/dev/null | cat > "$tmp/pipe.dat"
check_eq convert-to-pipe "$(cmp "$tmp/ref.dat" "$tmp/pipe.dat" 2>&1 && echo same)" same
"$logdev" convert -o - "$tmp/demo.cap" 2>/dev/null > "$tmp/dash.dat"
check_eq convert-o-dash-is-stdout "$(cmp "$tmp/ref.dat" "$tmp/dash.dat" 2>&1 && echo same)" same
cp "$tmp/demo.cap" "$tmp/self.cap"
"$logdev" convert -o "$tmp/self.cap" "$tmp/self.cap" 2>/dev/null
rc=$?
check_eq convert-onto-its-input "$rc $(cmp "$tmp/self.cap" "$tmp/demo.cap" 2>&1 && echo intact)" "2 intact"

# task names (format v3 comm records) fill the cmdlines: trace-cmd names the
# tasks, no "<...>"; one name per pid (trace.dat's rule): the last one
names=$(events "$tmp/comm-v3.dat" | awk -F'|' '{ print $3 "-" $2 }' | sort -u | tr '\n' ' ')
check_eq cmdlines-names "$names" "lt_renamed-301 vmtool-101 "

[ "$fails" = 0 ]
