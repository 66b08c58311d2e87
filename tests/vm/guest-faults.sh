#!/bin/sh
# Guest side of the faults under load (issue 13, items 3 and 5), busybox sh.
#   guest-faults.sh load SECONDS   (vm-faults, -smp 4, multi-threaded TCG)
#     - permissions: every file under debugfs logdev/ has the least mode
#       that works (0600 control, 0200 write-only, 0400 read-only, raw data
#       included)
#     - plain %p: with the kernel's hash key made (entropy credited), the
#       printf table again in hashed/ (checked on the host by
#       check-printf.sh: logdev prints the kernel's own hash)
#     - hotplug: CPUs 1..N-1 offline and online in a loop while logdev_test
#       writes in every context and one reader per CPU consumes; then per
#       CPU read + lost == written (vmtool hotplug)
#     - a module with call sites in the buffer unloaded under load: 20
#       insmod/fire/rmmod of logdev_syma during one `logdev record` while
#       logdev_test writes on every CPU: report exits 0 and names every
#       %pS as the kernel did (dmesg's logdev_symref lines)
#     - rmmod logdev_test (its sites in the open sub-buffers) with readers
#       blocked in read() and poll(), then rmmod logdev: refused (EAGAIN /
#       EBUSY: the open files hold the module), the readers still blocked;
#       enable 0 gives them the burst's records then EOF; rmmod then works
#   guest-faults.sh ctl SECONDS    (vm-faults-ctl, -smp 2, single-threaded
#       TCG: enable flips under writers)
#     - concurrent writers to every control file (vmtool ctlstorm)
#     - the probes file under concurrent add/remove while probes fire
#       (vmtool probestorm)
# The host runner fails the boot on any WARN, BUG or lockdep report in the
# kernel log (tools/vm/run.sh).  Prints PASS:/FAIL: lines.
part=${1:-load} secs=${2:-15}
R=${RESULTS:-/results}
D=/sys/kernel/debug/logdev
T=/sys/kernel/debug/logdev_test
P=vm-faults
[ "$part" = ctl ] && P=vm-faults-ctl
. /logdev/lib.sh	# pass, fail, check...: tests/vm/lib.sh

insmod /logdev/logdev.ko || { fail "insmod logdev.ko"; exit 1; }
insmod /logdev/logdev_test.ko || { fail "insmod logdev_test.ko"; exit 1; }
chmod +x /logdev/vmtool

if [ "$part" = ctl ]; then
	run_checks /logdev/vmtool ctlstorm "$secs"
	run_checks /logdev/vmtool probestorm "$secs"
	rmmod logdev_test || fail "rmmod logdev_test"
	rmmod logdev || fail "rmmod logdev"
	finish
	exit
fi

# ---- permissions: the least mode that works (item 5) ----
# want FILE: the mode it must have (octal, as stat %a prints it)
want_mode() {
	case "$1" in
	clear|flush|release) echo 200 ;;
	enable|mode|clock|buffer_size_kb|subbuf_size|dump_on_oops|probes|error_log|probe_functions|ksyms|probe_cost) echo 600 ;;
	formats|header|stats|module_log|trace_pipe_raw|persist|area) echo 400 ;;
	*) echo unknown ;;
	esac
}
n=0 bad=
for f in $(find $D -type f); do
	got=$(stat -c %a "$f")
	want=$(want_mode "${f##*/}")
	n=$((n + 1))
	[ "$got" = "$want" ] || bad="$bad ${f#$D/}=$got(want $want)"
done
if [ -z "$bad" ] && [ $n -ge 15 ]; then
	pass "permissions: $n files, each 0600 (control), 0200 (write-only) or 0400 (read-only, raw data)"
else
	fail "permissions: $n files, wrong:$bad"
fi
# the directories: root only
bad=
for d in $D $D/per_cpu $(find $D/per_cpu -mindepth 1 -type d); do
	got=$(stat -c %a "$d")
	[ "$got" = 700 ] || [ "$got" = 755 ] || bad="$bad ${d#$D}=$got"
done
check_eq "permissions: directories 0700 or 0755" "${bad:-none}" none

# ---- plain %p hashed as the kernel hashes it (item 5) ----
# qemu64 has no RDRAND and the guest no entropy source: until crng is
# ready the kernel prints "(____ptrval____)" for %p (vm-printf checks that
# case).  Credit entropy, wait for the kernel's key (it retries every 2 s),
# then the printf table again: its %p entries must print the kernel's hash.
/logdev/vmtool seed-rng || fail "seed-rng: cannot credit entropy"
i=0
while [ $i -lt 20 ]; do
	echo 1 > $T/printf
	grep -q 'ptrval' $T/printf_ref || break
	sleep 0.5; i=$((i + 1))
done
if grep -q '^[0-9]*	hashed [0-9a-f]\{16\}|' $T/printf_ref; then
	pass "%p: the kernel hashes plain %p now ($(grep -m 1 '	hashed ' $T/printf_ref | cut -f 2 | cut -c 1-30)...)"
else
	fail "%p: the kernel's %p never hashed: $(grep -m 1 '	hashed ' $T/printf_ref)"
fi
mkdir -p $R/hashed
echo 1 > $D/clear
/logdev/logdev.static record -o $R/hashed/printf.cap -- sh -c "echo 1 > $T/printf" ||
	fail "%p: logdev record of the printf table failed"
cat $T/printf_ref > $R/hashed/printf_ref.txt
cat $D/stats > $R/hashed/printf_stats.txt
cat $D/formats > $R/hashed/formats.txt
dmesg | grep -q 'no_hash_pointers' && fail "%p: the kernel runs with no_hash_pointers"

# ---- hotplug under load ----
run_checks /logdev/vmtool hotplug "$secs"
ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
check_eq "hotplug: every CPU online afterwards" "$(cat /sys/devices/system/cpu/online)" "0-$((ncpu - 1))"

# ---- a module whose call sites are in the buffer, unloaded under load ----
echo 0 > $D/enable
echo 1024 > $D/buffer_size_kb
echo 1 > $D/clear
cat > /tmp/symload.sh <<'EOS'
#!/bin/sh
T=/sys/kernel/debug/logdev_test
( while [ ! -e /tmp/symload.stop ]; do echo 50 > $T/run; done ) &
i=0
while [ $i -lt 20 ]; do
	insmod /logdev/logdev_syma.ko || echo "FAIL: vm-faults: insmod logdev_syma ($i)"
	echo 1 > /sys/kernel/debug/logdev_syma/fire
	rmmod logdev_syma || echo "FAIL: vm-faults: rmmod logdev_syma ($i)"
	i=$((i + 1))
done
touch /tmp/symload.stop
wait
EOS
dmesg -c > /dev/null
rm -f /tmp/symload.stop
/logdev/logdev.static record -o $R/symload.cap -- sh /tmp/symload.sh > /tmp/symload.out 2>&1
rc=$?
grep '^FAIL' /tmp/symload.out && fails=$((fails + 1))
check_eq "sites unloaded under load: logdev record exit status" $rc 0
dmesg | sed -n 's/.*logdev_symref: //p' > /tmp/symref.txt
/logdev/logdev.static report --raw $R/symload.cap > /tmp/symload.raw 2> /tmp/symload.err
rc=$?
check_eq "sites unloaded under load: report exit status (0: all decoded, no warning)" "$rc $(head -c 200 /tmp/symload.err)" "0 "
run_checks awk -v name="$P" "$LD_AWK"'
FILENAME == ARGV[1] { ref[n_ref++] = $0; next }
{
	split($0, f, "\t")
	if (f[1] == "LOST") lost += f[3]
	if (f[6] == "lt_record") load++
	if (f[6] != "lsym_fire") next
	got[n_got++] = raw_msg($0)
}
END {
	failed = 0
	bad = 0
	for (i = 0; i < n_ref && i < n_got; i++)
		if (got[i] != ref[i]) { if (!bad) ex = i ": logdev [" got[i] "] kernel [" ref[i] "]"; bad++ }
	# per load two fires (init and the write), each a "fire" and a "long" record
	check(n_ref == 80 && n_got == n_ref && !bad,
	      "sites unloaded under load: 20 loads, 80 %pS records named as the kernel named them (" load "+ records of the load, " lost + 0 " lost)",
	      n_got " records for " n_ref " kernel texts (want 80), " bad " differ, e.g. " ex)
	check(load > 1000, "sites unloaded under load: the writers ran meanwhile", "only " load " of their records")
	exit failed ? 1 : 0
}' /tmp/symref.txt /tmp/symload.raw

# ---- rmmod with readers blocked in read() and poll() ----
wait_ready() {
	i=0
	while ! grep -q ready "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.01; i=$((i + 1))
	done
	sleep 0.2
}
echo 1 > $D/clear
echo 1 > $D/enable
/logdev/vmtool eof-read 1 > /tmp/rd1.out 2>&1 &
p1=$!
/logdev/vmtool eof-poll 0 > /tmp/rd0.out 2>&1 &
p0=$!
wait_ready /tmp/rd1.out
wait_ready /tmp/rd0.out
echo "0 3" > $T/burst
echo "1 3" > $T/burst
err=$(rmmod logdev_test 2>&1)
check_eq "rmmod logdev_test with its sites in the open sub-buffers and readers blocked" "$?:$err" "0:"
err=$(rmmod logdev 2>&1)
rc=$?
case "$rc:$err" in
0:*) fail "rmmod logdev with readers blocked in read() and poll(): accepted" ;;
*"Resource temporarily unavailable"*|*"busy"*) pass "rmmod logdev with readers blocked in read() and poll(): refused ($err)" ;;
*) fail "rmmod logdev with readers blocked: refused with '$err', want EAGAIN or EBUSY" ;;
esac
if [ -d $D ] && kill -0 $p0 2>/dev/null && kill -0 $p1 2>/dev/null; then
	pass "after the refused rmmod: both readers still blocked, debugfs files there"
else
	fail "after the refused rmmod: readers $(kill -0 $p0 2>/dev/null && echo alive || echo gone)/$(kill -0 $p1 2>/dev/null && echo alive || echo gone), $D $([ -d $D ] && echo there || echo gone)"
fi
echo 0 > $D/enable
wait $p1
wait $p0
check_eq "blocked read() reader: the 3 records, then EOF" "$(tail -n 1 /tmp/rd1.out)" "records=3 after_eof=0"
check_eq "blocked poll() reader: the 3 records, then EOF" "$(tail -n 1 /tmp/rd0.out)" "records=3 hup_with_data=0 after_eof=0"
err=$(rmmod logdev 2>&1)
check_eq "rmmod logdev once the readers closed" "$?:$err" "0:"
check_eq "logdev unloaded" "$(grep -c '^logdev ' /proc/modules)" 0
finish
