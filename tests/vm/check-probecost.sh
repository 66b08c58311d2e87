#!/bin/bash
# Host side of vm-probecost (issue 26 point 3).   check-probecost.sh DIR NAME
# The guest's files (tests/vm/guest-probecost.sh), read with this tree's
# logdev ($LOGDEV):
#   probe_cost.bin  the calibration: magic, version, size, a time, every
#                   kind measured (the optimised kprobe: said if not), each
#                   kind's min <= p10 <= median <= p90 <= max, median > 0
#   nocal.cap       no calibration: deltas --durations says nothing was taken
#                   out
#   nest.cap        lt_nest_outer only calls lt_nest_inner, r: probes on
#                   both: the outer's corrected median self time per call is
#                   within the calibration's spread of zero (|self| <= twice
#                   the return probe's median - p10 a call, or COST_NEST_REL
#                   of its median if more: 0.25, for emulation on a busy
#                   host; p90 is not used: a run the host descheduled QEMU
#                   in lands there), the raw one is not, and two nested
#                   records per call were charged to it
#   smap1/5-K.cap   seq_printf's share of show_smap with one and with five
#                   other probes, three captures of each (the share of the
#                   rows' medians, see share()): the medians of the three
#                   corrected shares within COST_SHARE_TOL percentage points
#                   (default 5) of each other, and closer than the raw
#                   shares' medians are
set -uo pipefail
dir=$1 name=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
logdev=${LOGDEV:-$top/userspace/logdev}
tol=${COST_SHARE_TOL:-5}
. "$top/tests/vm/lib.sh"
P=$name

# ok NAME COND: PASS if the shell condition COND holds
ok() { if eval "$2"; then pass "$1"; else fail "$1"; fi; }

# deltas ARGS...: logdev deltas, exit 0 or 3 (warnings) accepted
deltas() {
	"$logdev" deltas "$@" 2> "$dir/deltas.err"
	local rc=$?
	[ $rc = 0 ] || [ $rc = 3 ] || fail "logdev deltas $*: exit $rc: $(head -c 200 "$dir/deltas.err")"
}

# --- the calibration
if [ -s "$dir/probe_cost.bin" ]; then
	read -r -a w <<< "$(od -A n -t u4 -v "$dir/probe_cost.bin" | tr -s ' \n' '  ')"
	check_eq "probe_cost: 56 words" "${#w[@]}" 56
	check_eq "probe_cost: magic COST" "${w[0]}" 1414745923
	check_eq "probe_cost: version 1, 6 kinds" "${w[1]}" $(((6 << 16) | 1))
	check_eq "probe_cost: size 224" "${w[2]}" 224
	ok "probe_cost: calibrated (ts not 0)" '[ "${w[4]}" != 0 ] || [ "${w[5]}" != 0 ]'
	kinds=(edprint kprobe-int3 kprobe-ftrace kprobe-optimised kretprobe tracepoint)
	for k in 0 1 2 3 4 5; do
		b=$((8 + k * 8))
		f=${w[b]} runs=${w[b + 1]} mn=${w[b + 3]} p10=${w[b + 4]} med=${w[b + 5]}
		p90=${w[b + 6]} mx=${w[b + 7]}
		if [ $((f & 1)) = 0 ]; then
			if [ $k = 3 ]; then
				echo "INFO: $P: kprobe-optimised not measured (the optimiser did not get there)"
			else
				fail "probe_cost: ${kinds[k]} not measured"
			fi
			continue
		fi
		echo "INFO: $P: ${kinds[k]}: median $med ps, p10 $p10, p90 $p90, min $mn, max $mx ($runs runs)"
		ok "probe_cost: ${kinds[k]}: min <= p10 <= median <= p90 <= max, median > 0" \
			"[ $mn -le $p10 ] && [ $p10 -le $med ] && [ $med -le $p90 ] && [ $p90 -le $mx ] && [ $med -gt 0 ]"
	done
	ret_min=${w[40 + 3]} ret_med=${w[40 + 5]} ret_max=${w[40 + 7]}
else
	fail "no probe_cost.bin came back"
	ret_min=0 ret_med=0 ret_max=0
fi

# --- a capture made before any calibration
deltas --durations "$dir/nocal.cap" > "$dir/nocal.txt"
ok "nocal: deltas --durations says nothing was taken out" \
	"grep -q '^probe cost: not taken out: the capture has no calibration' '$dir/nocal.txt'"

# --- the outer function's self time
deltas --durations "$dir/nest.cap" > "$dir/nest.txt"
deltas --durations --raw "$dir/nest.cap" > "$dir/nest-raw.txt"
# med FILE FUNC: the median (us) of FUNC's row; hits FILE: the probes column
med() { awk -v f="$2" '$1 ~ "^" f { print $5; exit }' "$1"; }
hits=$(awk '$1 ~ /^lt_nest_outer/ { print $10; exit }' "$dir/nest.txt")
cnt=$(awk '$1 ~ /^lt_nest_outer/ { print $3; exit }' "$dir/nest.txt")
# the return probe's figures of this capture's calibration (ps a call)
read -r _ kp10 kmed kp90 _ <<< "$(awk '$1 == "0000176"' "$dir/nest.cost.txt" 2>/dev/null)"
oc=$(med "$dir/nest.txt" lt_nest_outer) ic=$(med "$dir/nest.txt" lt_nest_inner)
orw=$(med "$dir/nest-raw.txt" lt_nest_outer) irw=$(med "$dir/nest-raw.txt" lt_nest_inner)
if [ -z "$oc" ] || [ -z "$ic" ] || [ -z "$orw" ] || [ -z "$kmed" ]; then
	fail "nest: no lt_nest_outer/inner rows or no figures: $(head -c 300 "$dir/nest.txt")"
else
	# each outer call holds one inner call: the median self time is the
	# outer's median less the inner's (tight distributions; the sum of self
	# times would carry the timer interrupts)
	verdict=$(awk -v oc="$oc" -v ic="$ic" -v orw="$orw" -v irw="$irw" -v p10="$kp10" \
		-v md="$kmed" -v p90="$kp90" -v rel="${COST_NEST_REL:-0.25}" 'BEGIN {
		c = oc - ic; r = orw - irw; spread = 2 * (md - p10) / 1e6
		if (spread < rel * md / 1e6) spread = rel * md / 1e6
		printf "median self %.3f us a call corrected, %.3f raw; return probe %.3f us a call (p10 %.3f, p90 %.3f), spread (2 x (median - p10), at least %d %% of the median) %.3f\n", c, r, md / 1e6, p10 / 1e6, p90 / 1e6, rel * 100, spread
		print (c <= spread && c >= -spread) ? "ok" : "no"
		print (r > spread && r > c) ? "ok" : "no"
	}')
	echo "INFO: $P: nest: $(echo "$verdict" | head -n 1)"
	ok "nest: corrected self time of lt_nest_outer within the calibration's spread of 0" \
		"[ '$(echo "$verdict" | sed -n 2p)' = ok ]"
	ok "nest: the raw self time is not (and is larger)" "[ '$(echo "$verdict" | sed -n 3p)' = ok ]"
	check_eq "nest: 2 nested records a call charged to lt_nest_outer" "$hits" $((cnt * 2))
fi

# --- seq_printf's share of show_smap, with one and with five other probes
# share CAP [--raw]: seq_printf's calls x median over show_smap's calls x
# median, from deltas --durations' rows (every seq_printf call of the
# workload is inside show_smap): the --inside share of the medians.  The
# --inside share itself sums the durations, and under emulation on a busy
# host one call of tens of ms (the QEMU thread descheduled) decides a sum.
share() {
	deltas --durations ${2:-} "$1" | awk '
		$1 ~ /^show_smap/ && !n1 { n1 = $3; m1 = $5 }
		$1 ~ /^seq_printf/ && !n2 { n2 = $3; m2 = $5 }
		END { if (n1 && m1 > 0 && n2) printf "%.1f\n", 100 * n2 * m2 / (n1 * m1); else print "?" }'
}
# the median of the three captures' shares of config C (1 or 5)
shares() {
	local k v
	for k in 1 2 3; do
		v=$(share "$dir/smap$1-$k.cap" ${2:-})
		echo "${v:-?}"
	done | tr '\n' ' '
}
med3() { tr ' ' '\n' | grep -v '^$' | sort -g | sed -n 2p; }
s1=$(shares 1) s5=$(shares 5) t1=$(shares 1 --raw) t5=$(shares 5 --raw)
c1=$(echo "$s1" | med3) c5=$(echo "$s5" | med3) r1=$(echo "$t1" | med3) r5=$(echo "$t5" | med3)
echo "INFO: $P: seq_printf's share of show_smap, corrected: with 1 other probe $s1(median $c1), with 5 $s5(median $c5); raw: $t1($r1), $t5($r5)"
case "$s1$s5$t1$t5" in
*'?'*) fail "smaps: a share was not found (corrected '$s1' '$s5', raw '$t1' '$t5')" ;;
*)
	ok "smaps: corrected shares (medians of 3) within $tol points of each other" \
		"awk -v a=$c1 -v b=$c5 -v t=$tol 'BEGIN { d = a - b; exit !(d <= t && d >= -t) }'"
	ok "smaps: closer than the raw shares" \
		"awk -v a=$c1 -v b=$c5 -v x=$r1 -v y=$r5 'BEGIN { d = a - b; e = x - y; d = d < 0 ? -d : d; e = e < 0 ? -e : e; exit !(d < e) }'" ;;
esac
finish
