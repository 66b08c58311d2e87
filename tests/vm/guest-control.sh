#!/bin/sh
# Guest side of the control-file test (busybox sh, run by tools/vm/run.sh).
# For every debugfs control file of logdev: malformed writes are refused with
# EINVAL and the value read back is unchanged; refused-while-enabled writes are
# refused and change nothing; good writes take effect.
# Prints PASS:/FAIL: lines; the host collects them from guest.log.
D=/sys/kernel/debug/logdev
P=vm-control
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
[ -d $D ] || { fail "no $D"; exit 1; }

# The selected value of a file: "[x] y z" style -> x, else the content.
sel() {
	v=$(cat "$D/$1" 2>/dev/null)
	case "$v" in
	*\[*\]*) v=${v#*[}; v=${v%%]*} ;;
	esac
	echo "$v"
}

# put FILE DATA: one write(2) of DATA (printf %b); prints dd's error (with
# the errno text) and returns non-zero if the write failed.
put() {
	o=$(printf "%b" "$2" | dd of="$D/$1" 2>&1)
	case "$o" in
	*error*) echo "$o" | grep error; return 1 ;;
	esac
	return 0
}

# bad FILE DATA ERRNO_TEXT: the write of DATA (printf %b) must fail with
# ERRNO_TEXT and leave the file's content unchanged.
bad() {
	f=$1 data=$2 want=${3:-Invalid argument}
	before=$(cat "$D/$f")
	err=$(put "$f" "$data")
	rc=$?
	after=$(cat "$D/$f")
	shown=$data
	if [ $rc = 0 ]; then
		fail "$f: write '$shown' accepted (now '$after')"
	elif ! echo "$err" | grep -q "$want"; then
		fail "$f: write '$shown' refused with '$err', want '$want'"
	elif [ "$before" != "$after" ]; then
		fail "$f: write '$shown' refused but value changed '$before' -> '$after'"
	else
		pass "$f: refuses '$shown' ($want), value kept"
	fi
}

# good FILE DATA EXPECT: the write succeeds and sel FILE reads back EXPECT.
good() {
	f=$1 data=$2 want=$3
	err=$(put "$f" "$data")
	rc=$?
	got=$(sel "$f")
	if [ $rc != 0 ]; then
		fail "$f: good write '$want' refused: $err"
	elif [ "$got" != "$want" ]; then
		fail "$f: wrote '$want', reads back '$got'"
	else
		pass "$f: '$want' takes effect"
	fi
}

for f in enable mode buffer_size_kb subbuf_size clock clear flush formats header stats; do
	if [ -e $D/$f ]; then pass "file $f exists"; else fail "file $f missing"; fi
done
if [ -e $D/per_cpu/cpu0/trace_pipe_raw ]; then pass "per_cpu/cpu0/trace_pipe_raw exists"
else fail "per_cpu/cpu0/trace_pipe_raw missing"; fi

good enable '0\n' 0
for v in '\n' '2\n' '-1\n' 'yes\n' 'on\n' '1x\n' '01 1\n' 'garbage' '01\n' '00\n'; do bad enable "$v"; done

good mode 'overwrite\n' overwrite
for v in '\n' 'bogus\n' 'overwrite discard\n' 'Discard\n' 'over\n'; do bad mode "$v"; done
good mode 'discard\n' discard
good mode 'overwrite\n' overwrite

good clock 'global\n' global
for v in '\n' 'bogus\n' 'loc\n' 'local global\n' '0\n'; do bad clock "$v"; done
good clock 'mono\n' mono
good clock 'local\n' local

good buffer_size_kb '64\n' 64
for v in '\n' '0\n' '-1\n' 'abc\n' '12abc\n' '99999999999999999999\n' '4294967296\n'; do
	bad buffer_size_kb "$v"
done
good buffer_size_kb '12\n' 8		# 3 sub-buffers: the ring uses a power of two
bad buffer_size_kb '262144\n' 'Cannot allocate memory'	# 2 x 256 MiB in a 512 MiB guest
good buffer_size_kb '1024\n' 1024

good subbuf_size '8192\n' 8192
for v in '\n' '0\n' '1000\n' '3000\n' '512\n' '131072\n' '-4096\n' 'big\n'; do
	bad subbuf_size "$v"
done
good subbuf_size '4096\n' 4096

# While recording: mode, clock, sizes refused (EBUSY or EINVAL), nothing changes.
good enable '1\n' 1
for v in 'discard\n' 'overwrite\n'; do bad mode "$v" 'Device or resource busy\|Invalid argument'; done
bad clock 'global\n' 'Device or resource busy\|Invalid argument'
bad buffer_size_kb '128\n' 'Device or resource busy\|Invalid argument'
bad subbuf_size '8192\n' 'Device or resource busy\|Invalid argument'
bad enable 'bogus\n'
good enable '1\n' 1
good enable '0\n' 0

# The refused class, for every control file (docs/DEBUGFS.md, "Rules common
# to all control files"): nothing but whitespace, whitespace before or after
# the word, a second newline, a NUL inside, junk after the word (\0000 is a
# NUL byte for printf %b, whatever follows it).  W: a word the file accepts.
class_bad() {
	cf=$1 cw=$2 ccheck=${3:-bad}
	for v in ' ' '  ' '\t' ' \n' '\t\n' '\n\n' '\r\n' '\r' '\0000' '\0000\n' \
		" $cw" "\t$cw" " $cw\n" "\n$cw" "$cw " "$cw\t" "$cw \n" "$cw\t\n" "$cw\n\n" \
		"$cw\r\n" "$cw\0000" "$cw\0000\n" "\0000$cw" "$cw x\n" "$cw\nx" "$cw$cw \n"; do
		$ccheck "$cf" "$v"
	done
}
good enable '0\n' 0
for fw in enable:1 dump_on_oops:1 mode:discard clock:mono buffer_size_kb:64 subbuf_size:8192; do
	class_bad "${fw%%:*}" "${fw#*:}"
done

# clear and flush are write-only: their state is the buffers'.  Records to
# clear (a probe on vfs_read, hit by cat), recording off, then the stats must
# stay as they are through every refused write, and clear empties them.
printf 'p:ctl_vfs_read vfs_read\n' | dd of=$D/probes conv=notrunc 2>/dev/null ||
	fail "probe p:ctl_vfs_read vfs_read refused"
good enable '1\n' 1
cat /proc/version $D/header > /dev/null
good enable '0\n' 0
: > $D/probes
w0=$(grep -o 'written=[0-9]*' $D/stats | tr '\n' ' ')
case "$w0" in
*written=[1-9]*) pass "records to clear: $w0" ;;
*) fail "no records to clear: $w0" ;;
esac
# bad_wo FILE DATA: the write of DATA (printf %b) to write-only FILE fails
# with EINVAL, and stats and enable are unchanged.
bad_wo() {
	f=$1 data=$2
	before="$(cat $D/stats; cat $D/enable)"
	err=$(put "$f" "$data")
	rc=$?
	after="$(cat $D/stats; cat $D/enable)"
	if [ $rc = 0 ]; then
		fail "$f: write '$data' accepted"
	elif ! echo "$err" | grep -q 'Invalid argument'; then
		fail "$f: write '$data' refused with '$err', want 'Invalid argument'"
	elif [ "$before" != "$after" ]; then
		fail "$f: write '$data' refused but the stats changed: $(echo "$after" | tr '\n' '|')"
	else
		pass "$f: refuses '$data' (Invalid argument), stats kept"
	fi
}
class_bad clear 1 bad_wo
class_bad flush 1 bad_wo
for v in '01\n' '0\n' '2\n' '+1\n'; do bad_wo flush "$v"; done
for v in 'a b\n' '\0177\n' 'caf\0351\n'; do bad_wo clear "$v"; done

# clear and flush take a write and act; they have no value to read back.
for f in clear flush; do
	if (echo 1 > $D/$f) 2>/dev/null; then pass "$f: write accepted"
	else fail "$f: write '1' refused"; fi
done
w1=$(grep -o 'written=[0-9]*' $D/stats | sort -u | tr '\n' ' ')
[ "$w1" = "written=0 " ] && pass "clear '1' emptied the buffers" ||
	fail "after clear '1': $w1"

# stats: one well-formed line per online CPU.
n=$(grep -c '^cpu=[0-9]* written=[0-9]* read=[0-9]* overrun=[0-9]* dropped=[0-9]* nesting_lost=[0-9]* too_big=[0-9]* bytes=[0-9]* comm=[0-9]*$' $D/stats)
if [ "$n" = "$(nproc)" ]; then pass "stats: $n well-formed lines"
else fail "stats: $n well-formed lines for $(nproc) CPUs: $(head -n 2 $D/stats)"; fi

# A consuming reader open (a trace_pipe_raw file held open, nothing read):
# every write that would empty or re-clock the buffers is refused (EBUSY)
# and keeps its value; closed, they work again (issue 24, item 2).
exec 3< $D/per_cpu/cpu0/trace_pipe_raw
bad mode 'discard\n' 'Device or resource busy'
bad clock 'mono\n' 'Device or resource busy'
bad buffer_size_kb '64\n' 'Device or resource busy'
bad subbuf_size '8192\n' 'Device or resource busy'
err=$(put clear '1\n') && fail "clear: accepted with a reader open" ||
	case "$err" in
	*"Device or resource busy"*) pass "clear: refused (EBUSY) with a reader open" ;;
	*) fail "clear with a reader open: '$err', want EBUSY" ;;
	esac
bad mode 'bogus\n'	# malformed is still EINVAL, not EBUSY
exec 3<&-
good clock 'mono\n' mono
good clock 'local\n' local

rmmod logdev || fail "rmmod logdev"
finish
