#!/bin/bash
# A converted capture loads through libkshark, KernelShark's library, as the
# GUI loads it (kshark_instance, kshark_open, kshark_load_entries):
#   tests/kshark/run.sh LOGDEV
# For golden captures (ctx-overwrite: four contexts and overwritten
# sub-buffers; demo: the demo workload's 29 call sites): the number of
# entries is logdev's records plus one missed-events entry per lost-events
# gap that a record of its CPU follows; every call site is its own event
# (logdev/FUNC_LINE) with as many entries as logdev has records of it; each
# missed-events entry sits on the right CPU, after the record before the loss
# and no later than the record after it; entries come in time order.
# libkshark-dev missing is a FAIL (tools/deps.sh installs it), never a skip.
# Once per installation of LOGDEV_TRACECMD_ROOTS (tests/tracecmd/roots.sh;
# default the host's): the loader built by the installation's compiler
# against its libkshark and run there; each PASS/FAIL line names libkshark,
# trace-cmd and libtraceevent.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/tracecmd/roots.sh"
tcr_foreach "$here/run.sh" "$@"
logdev=${1:-$top/userspace/logdev}
case $logdev in /*) ;; *) logdev=$PWD/$logdev ;; esac
fails=0
tag="[libkshark $(tcr_run pkg-config --modversion libkshark 2>/dev/null || echo '?'), ${tcr_tag#[}"
pass() { echo "PASS: $tag$1"; }
fail() { echo "FAIL: $tag$1: $2"; fails=$((fails + 1)); }
check_eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$3', got '$2'"; fi; }

[ -x "$logdev" ] || { fail kshark-logdev "no reader at $logdev"; exit 1; }
if ! libs=$(tcr_run pkg-config --libs libkshark 2>&1); then
	fail kshark-installed "pkg-config libkshark${tcr_chroot:+ in $tcr_chroot}: $(echo "$libs" | head -n 2 | tr '\n' ' ')(${tcr_chroot:-tools/deps.sh} needs libkshark-dev and what its .pc requires: libjson-c-dev libtracecmd-dev libtracefs-dev)"
	exit 1
fi
cflags=$(tcr_run pkg-config --cflags libkshark)
tmp=$(mktemp -d /tmp/logdev-kshark.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# -isystem: libkshark.h's own `const int` return types warn under -Wextra
cp "$here/kshark_load.c" "$tmp/"
# shellcheck disable=SC2086
if ! tcr_run ${CC:-cc} -O2 -Wall -Wextra -Werror $(echo " $cflags" | sed 's/ -I/ -isystem /g') \
	-o "$tmp/kshark_load" "$tmp/kshark_load.c" $libs 2> "$tmp/cc.err"; then
	fail kshark-build "$(head -n 5 "$tmp/cc.err" | tr '\n' '|')"
	exit 1
fi
pass kshark-build

for name in ctx-overwrite demo; do
	cap=$tmp/$name.cap dat=$tmp/$name.dat
	gzip -dc "$top/tests/golden/cap/$name.cap.gz" > "$cap"
	"$logdev" convert -o "$dat" "$cap" 2> "$tmp/$name.err"
	ld_rc=$?
	if [ $ld_rc != 0 ] && [ $ld_rc != 3 ]; then	# 3: decoded, with warnings on stderr
		fail "kshark-$name-convert" "$(head -n 3 "$tmp/$name.err" | tr '\n' '|')"
		continue
	fi
	if ! tcr_run "$tmp/kshark_load" "$dat" > "$tmp/$name.ks" 2> "$tmp/$name.kserr"; then
		fail "kshark-$name-load" "$(head -n 3 "$tmp/$name.kserr" | tr '\n' '|')"
		continue
	fi
	pass "kshark-$name-load: kshark_open and kshark_load_entries read $(awk '$1 == "entries" { print $2 }' "$tmp/$name.ks") entries"
	"$logdev" report --raw "$cap" 2>/dev/null > "$tmp/$name.raw"
	# expected: records, gaps followed by a record of their CPU, per-site counts
	# (event names as the converter makes them: FUNC_LINE), the missed-events
	# windows (CPU, previous record's time or -1, next record's time)
	awk -F'\t' -v out="$tmp/$name" '
	$1 == "LOST" { lost[$2] = 1; next }
	{
		n++
		cpu = $2
		if (lost[cpu]) {
			gaps++
			printf "%s %s %s\n", cpu, (cpu in last) ? last[cpu] : -1, $1 > (out ".win")
			lost[cpu] = 0
		}
		last[cpu] = $1
		ev = $6 "_" $7
		gsub(/[^A-Za-z0-9_]/, "_", ev)
		cnt["logdev/" ev]++
	}
	END {
		print n + 0, gaps + 0 > (out ".want")
		for (e in cnt) print "event", e, cnt[e] > (out ".wantev")
	}' "$tmp/$name.raw"
	read -r nrec ngaps < "$tmp/$name.want"
	got=$(awk '$1 == "entries" { print $2 }' "$tmp/$name.ks")
	check_eq "kshark-$name-entries: entries == $nrec records + $ngaps missed-events entries" \
		"$got" "$((nrec + ngaps))"
	check_eq "kshark-$name-events: one event per call site, with its record count" \
		"$(grep '^event ' "$tmp/$name.ks" | sort | md5sum)" "$(sort "$tmp/$name.wantev" | md5sum)"
	[ "$name" = ctx-overwrite ] && [ "$ngaps" -lt 1 ] &&
		fail "kshark-$name-has-losses" "the golden capture shows no lost events"
	# missed entries: same count, each on the CPU of a gap, in its window
	grep '^missed ' "$tmp/$name.ks" | cut -d' ' -f2- > "$tmp/$name.missed"
	touch "$tmp/$name.win"
	if awk 'NR == FNR { c[NR] = $1; lo[NR] = $2; hi[NR] = $3; nw = NR; next }
		{ m++
		  for (i = 1; i <= nw; i++)
			if (!used[i] && c[i] == $1 && $2 + 0 > lo[i] + 0 && $2 + 0 <= hi[i] + 0) { used[i] = 1; ok++; break } }
		END { exit !(m + 0 == nw + 0 && ok + 0 == nw + 0) }' "$tmp/$name.win" "$tmp/$name.missed"; then
		pass "kshark-$name-missed: $ngaps missed-events entries, each on its CPU between the records around the loss"
	else
		fail "kshark-$name-missed" "kshark: $(tr '\n' ';' < "$tmp/$name.missed"), want (cpu prev next): $(tr '\n' ';' < "$tmp/$name.win")"
	fi
	check_eq "kshark-$name-order: entries in time order" "$(awk '$1 == "order" { print $2 }' "$tmp/$name.ks")" ok
done
[ $fails = 0 ]
