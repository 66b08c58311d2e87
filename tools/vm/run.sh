#!/bin/bash
# Boot the Debian VM kernel under QEMU (TCG) with a busybox initramfs, run a
# guest script, and bring its results dir back to the host byte for byte.
#
#   tools/vm/run.sh [--kver V] [--smp N] [--mem MB] [--timeout S] [--idle S]
#                   [--tcg multi|single|icount] [--append "k=v"] [--args "a b"] [--verbose]
#                   [--host-bins "/usr/bin/trace-cmd"] [--expect-crash] [--nmi-at TEXT] [--boots 2]
#                   --script GUEST_SCRIPT [--files "a.ko b.ko logdev.static"] --out HOSTDIR
#
# The kernel: --kver V (a release, or a name of tools/kernels/matrix), else
# the one the first .ko in --files was built for (vermagic), else the
# matrix's default.  Every .ko must match it.  Its image and the QEMU that
# boots it come from tools/kernels/kernel.sh (image, qemu: the matrix's QEMU
# column).  LOGDEV_VM_KERNEL=path/bzImage boots that image instead (e.g. a
# debug kernel, see tools/debug-kernel.sh) with this machine's QEMU, or with
# the QEMU that boots the matrix kernel LOGDEV_VM_QEMU (a name: a kernel built
# from that kernel's source wants it, tools/demo-builtin.sh); V is then only
# checked against the modules' vermagic.
#
# Guest side: the files are copied to /logdev/, the script to /logdev/guest.sh,
# tests/vm/lib.sh (the helpers guest scripts source) to /logdev/lib.sh;
# /init mounts proc, sysfs, debugfs, devtmpfs, starts the heartbeat (below), runs
#   cd /logdev && RESULTS=/results sh /logdev/guest.sh ARGS... < /dev/null
# with its output on the console and in /results/guest.log, its exit status in
# /results/guest.rc.  When the script exits, the run ends: every process it
# left behind (a `sleep 1000 &`, a daemon) is killed (SIGKILL), so none can
# keep the guest up; then /init streams `tar czf - -C /results . | base64`
# between two marker lines unique to this run, prints the SHA-256 of the
# tarball and powers off.
#
# Heartbeat: a guest process writes a byte a second to the second serial
# port (ttyS1), which QEMU writes to a file the runner watches.  It only
# runs while the guest schedules its processes and its timers fire, so a
# quiet guest (a script sleeping, a long silent computation) is told from a
# wedged one: the idle watch below needs console AND heartbeat silent.
#
# --host-bins "P1 P2": host executables (absolute paths) copied into the
# initramfs at the same paths, with every shared library `ldd` names for them
# (the loader included) at the paths ldd gives, so a dynamically linked tool
# such as trace-cmd runs in the busybox guest.
#
# --nmi-at TEXT: once the console shows TEXT (a fixed string), send every
# vCPU an NMI from outside (the monitor's `nmi`), as a hard-lockup detector
# or a board's NMI button does; with kernel.unknown_nmi_panic=1 the guest
# panics in NMI context.
#
# --expect-crash: the guest script makes the kernel die (oops, panic): the run
# succeeds (exit 0) when the console shows "Kernel panic" and QEMU exited
# (or the console went silent after "Kernel panic - not syncing"),
# with no results to unpack (the checks read HOSTDIR/console.log, where the
# guest script's output is too); exit 7 if the guest did not die.
#
# --boots 2: the guest boots twice in one QEMU process, the second boot a
# warm reset of the first (RAM kept, as a machine's reset keeps it: what a
# flight recorder in reserved memory relies on, issue 27).  QEMU runs
# without -no-reboot, and the command line gets memmap=4K$0xFFFF000, a page
# the kernel leaves alone where /init keeps a marker unique to the run
# (through /dev/mem) to know which boot it is in; the script runs in both,
# with LOGDEV_BOOT=1 or 2.  Boot 1 ends when the kernel dies (panic=-1
# reboots at once) or the script exits (/init then reboots with reboot -f):
# its /results do not come back, its output is on the console
# (HOSTDIR/console-boot1.log, boot 2's in console-boot2.log); boot 2's
# results come back as usual.  The
# kernel-trouble checks read boot 2's console only; with --expect-crash,
# boot 1 must show "Kernel panic" (else exit 7), and a boot 1 silent for
# 20 s after it or reporting a stall (stuck in panic(): 6.1-rt, 6 of 14
# vm-persist-panic runs; 6.1's NMI panic once) is reset through QEMU's
# monitor (system_reset, RAM kept), as a watchdog would, and said on
# stderr.  Needs --mem 512 or more.
#
# --mem-file F --boot-as N: the guest's RAM is the file F (QEMU's
# memory-backend-file, shared: created if missing, kept after QEMU exits;
# guest physical address = offset in F below 3 GiB), and the script runs
# with LOGDEV_BOOT=N.  Two runs with the same F are two boots of one
# machine whose RAM survived, each with its own kernel (--kver) and files:
# boot 1 with --expect-crash (its results do not come back, its console
# does), boot 2 as usual.  How a warm reset into another kernel is tested
# (tests/vm/run-tests.sh vm-persist-xkernel); not with --boots 2.
#
# Host side: HOSTDIR/console.log is the whole serial console; the tarball is
# decoded, checked against the guest's SHA-256 and unpacked into HOSTDIR.
#
# Kernel command line: console=ttyS0 panic=-1 oops=panic noirqdebug quiet
# (noirqdebug: the PREEMPT_RT kernel otherwise disables the serial IRQ
# "nobody cared" in the middle of a large result stream).
#
# --tcg single: QEMU's single-threaded TCG (-accel tcg,thread=single) instead
# of the default multi-threaded one.  Needed by a guest that flips a static
# key (logdev's `enable`) while edprint sites run on other vCPUs: QEMU 7.2's
# multi-threaded TCG can keep executing a stale translation that still holds
# the int3 of the kernel's text patching, and the guest wedges
# (docs/DEVELOPING.md, `--tcg single`).
# Single-threaded TCG runs the vCPUs one at a time, so it finds fewer real
# races: use it only where a test needs it, and say why there.
# --tcg icount: single-threaded, with -icount shift=0,sleep=on: the guest's
# clock counts instructions (1 ns each; idle time still passes as real
# time), so timings are the same in every boot and do not move with the
# host's speed (vm-probecost: a probe hit's cost under TCG in real time
# moved 1.6x between stretches of a second).
#
# Wedge watch: QEMU gets a monitor socket.  If the console prints nothing and
# the heartbeat stops for --idle S seconds (default 90, at most --timeout; a
# guest whose console is quiet but whose heartbeat goes on runs on, to
# --timeout, and is said to be quiet once), or the kernel reports a
# soft lockup or an RCU stall (then once the console has been quiet for 8 s,
# so the report's stacks are in console.log), or --timeout S (default 120)
# runs out, the runner asks the monitor for every vCPU's registers (`info registers -a`,
# saved in HOSTDIR/wedge-registers.txt), kills QEMU and reports
#   run.sh: guest wedged: no console output for N s (no heartbeat for M s); CPU0 RIP=... CPU1 RIP=...
# A guest that hangs with one CPU stuck and the others scheduling keeps its
# heartbeat: the kernel's lockup and stall reports (above) or --timeout end it.
#
# Exit status: 0 ok; 1 usage/setup error; 2 kernel BUG/Oops/WARNING/panic on
# the console; 3 timeout while the guest was still running (QEMU killed,
# registers reported as for a wedge); 4 results missing or corrupt;
# 5 guest script exited non-zero (results still unpacked); 6 guest wedged
# (silent console and no heartbeat, lockup or stall; QEMU killed); 7 --expect-crash and the
# kernel did not panic.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
icount=() kver= smp=2 mem=512 tmo=120 idle=90 tcg=multi script= files= out= append= args= verbose= hostbins=
expect_crash=
nmi_at=
boots=1
memfile= bootas=
bootpage=0xFFFF000	# --boots 2: the marker page (memmap=4K$bootpage)
while [ $# -gt 0 ]; do
	case "$1" in
	--idle) idle=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--kver) kver=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--script) script=$2; shift 2 ;;
	--files) files=$2; shift 2 ;;
	--host-bins) hostbins=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--args) args=$2; shift 2 ;;
	--verbose|-v) verbose=1; shift ;;
	--expect-crash) expect_crash=1; shift ;;
	--nmi-at) nmi_at=$2; shift 2 ;;
	--boots) boots=$2; shift 2 ;;
	--mem-file) memfile=$2; shift 2 ;;
	--boot-as) bootas=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/{/^set -euo/d;p}' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 1 ;;
	esac
done
die() { echo "run.sh: $*" >&2; exit 1; }
[ -n "$script" ] && [ -f "$script" ] || die "--script GUEST_SCRIPT required (got '$script')"
[ -n "$out" ] || die "--out HOSTDIR required"
case "$tcg" in
multi) accel=tcg ;;
single) accel=tcg,thread=single ;;
icount) accel=tcg,thread=single icount=(-icount shift=0,sleep=on) ;;
*) die "--tcg multi|single|icount (got '$tcg')" ;;
esac
[ "$idle" -gt 0 ] 2>/dev/null && [ "$tmo" -gt 0 ] 2>/dev/null || die "--idle and --timeout take seconds"
[ "$idle" -le "$tmo" ] || idle=$tmo
case "$boots" in
1) ;;
2) [ "$mem" -ge 512 ] 2>/dev/null || die "--boots 2 needs --mem 512 or more (its marker page is at $bootpage)" ;;
*) die "--boots 1|2 (got '$boots')" ;;
esac
if [ -n "$memfile$bootas" ]; then
	[ -n "$memfile" ] && [ -n "$bootas" ] || die "--mem-file and --boot-as go together"
	[ "$boots" = 1 ] || die "--mem-file is for one boot per run (not --boots 2)"
	case "$bootas" in 1|2) ;; *) die "--boot-as 1|2 (got '$bootas')" ;; esac
fi
command -v perl >/dev/null || die "perl not found (the wedge watch talks to QEMU's monitor with it)"
kernels=$here/../kernels/kernel.sh
# Without --kver: the kernel the first .ko was built for (its vermagic).
if [ -z "$kver" ]; then
	for f in $files; do
		case "$f" in
		*.ko)
			kver=$(grep -ao 'vermagic=[^ ]*' "$f" | head -n 1 | cut -d= -f2)
			[ -n "$kver" ] && break ;;
		esac
	done
fi
# a matrix name or nothing: the release it stands for (not for an image of
# LOGDEV_VM_KERNEL, which only the modules' vermagic names)
if [ -z "${LOGDEV_VM_KERNEL:-}" ]; then
	kenv=$("$kernels" env "$kver") || die "no kernel '$kver' (tools/kernels/kernel.sh env '$kver')"
	kver=$(echo "$kenv" | sed -n 's/^KVER=//p')
fi
[ -n "$kver" ] || die "no VM kernel (--kver, or a .ko in --files)"
for f in $files; do
	case "$f" in
	*.ko)
		v=$(grep -ao 'vermagic=[^ ]*' "$f" | head -n 1 | cut -d= -f2)
		[ "$v" = "$kver" ] || die "$f is built for '$v', the VM boots $kver (tools/kernels/modules.sh $kver)" ;;
	esac
done
if [ -n "${LOGDEV_VM_KERNEL:-}" ]; then
	kimg=$LOGDEV_VM_KERNEL
	if [ -n "${LOGDEV_VM_QEMU:-}" ]; then
		qemu=("$kernels" qemu "$LOGDEV_VM_QEMU")
	else
		qemu=(qemu-system-x86_64)
		command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found"
	fi
else
	kimg=$("$kernels" image "$kver") || die "no image to boot for $kver"
	qemu=("$kernels" qemu "$kver")
fi
[ -r "$kimg" ] || die "cannot read $kimg"
busybox=$(command -v busybox || true)
[ -n "$busybox" ] || die "busybox not found (apt-get install busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	[ -x /bin/busybox ] || die "busybox is not static"
command -v cpio >/dev/null || die "cpio not found"

mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d /tmp/logdev-vm.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,tmp,results,logdev,root,usr/bin,usr/sbin}
cp "$busybox" "$stage/bin/busybox"
for f in $files; do
	[ -f "$f" ] || die "no such file: $f"
	cp "$f" "$stage/logdev/"
done
# host executables and their shared libraries at their own paths
for b in $hostbins; do
	case "$b" in /*) ;; *) die "--host-bins takes absolute paths (got '$b')" ;; esac
	[ -x "$b" ] || die "--host-bins: no executable $b"
	command -v ldd >/dev/null || die "ldd not found (needed by --host-bins)"
	for f in "$b" $(ldd "$b" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$stage$(dirname "$f")"
		cp -L "$f" "$stage$f"
	done
done
cp "$script" "$stage/logdev/guest.sh"
# every guest gets the shared test helpers (guest scripts source /logdev/lib.sh)
cp "$here/../../tests/vm/lib.sh" "$stage/logdev/lib.sh"
printf '%s\n' "$args" > "$stage/logdev/args"
token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
bootmark="LOGDEV-BOOT1-$token"
begin="LOGDEV-RESULTS-BEGIN-$token"
end="LOGDEV-RESULTS-END-$token"
sumtag="LOGDEV-RESULTS-SHA256-$token"

# A kernel without ACPI (e.g. LOGDEV_VM_KERNEL's debug kernel) only halts on
# poweroff -f, and QEMU would wait for the timeout: reboot -f with
# -no-reboot makes QEMU exit.
halt_cmd="poweroff -f"
[ -n "${LOGDEV_VM_KERNEL:-}" ] && halt_cmd="reboot -f"
cat > "$stage/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
echo "logdev-vm: guest up, \$(nproc) cpus, kernel \$(uname -r)"
LOGDEV_BOOT=${bootas:-1}
if [ $boots = 2 ]; then
	# the run's marker in the page memmap= reserved: there from boot 1 means boot 2
	m=\$(dd if=/dev/mem bs=1 skip=\$(($bootpage)) count=${#bootmark} 2> /dev/null)
	if [ "\$m" = "$bootmark" ]; then
		LOGDEV_BOOT=2
		dd if=/dev/zero of=/dev/mem bs=1 seek=\$(($bootpage)) count=${#bootmark} conv=notrunc 2> /dev/null
	else
		printf %s "$bootmark" | dd of=/dev/mem bs=1 seek=\$(($bootpage)) conv=notrunc 2> /dev/null
	fi
	echo "logdev-vm: boot \$LOGDEV_BOOT of 2"
fi
export LOGDEV_BOOT
# the heartbeat (run.sh's header): none without a second serial port
( while :; do printf .; sleep 1; done ) > /dev/ttyS1 2> /dev/null &
hb=\$!
cd /logdev
RESULTS=/results
export RESULTS
set -- \$(cat /logdev/args)
# the script's output to the console and guest.log through a FIFO, so that
# only the script is waited for, not what it leaves holding the output
mkfifo /tmp/guest.out
tee /results/guest.log < /tmp/guest.out &
teepid=\$!
sh /logdev/guest.sh "\$@" > /tmp/guest.out 2>&1 < /dev/null
echo \$? > /results/guest.rc
if [ \$LOGDEV_BOOT = 1 ] && [ $boots = 2 ]; then
	wait \$teepid
	echo "logdev-vm: boot 1 ended (script exit \$(cat /results/guest.rc)): warm reset"
	sync
	reboot -f
	sleep 10
fi
# the script is done, so is the run: what it left running goes, SIGTERM
# first (a logdev record in the background ends its capture and removes
# its probes), SIGKILL after 3 s to what is still there (kernel threads
# ignore both; init, tee and the heartbeat stay)
left=
pids=
for d in /proc/[0-9]*; do
	p=\${d#/proc/}
	case " 1 \$\$ \$teepid \$hb " in *" \$p "*) continue ;; esac
	read -r _ _ _ pp _ 2> /dev/null < \$d/stat || continue
	[ "\$pp" != "\$hb" ] || continue
	c=\$(tr '\\0' ' ' 2> /dev/null < \$d/cmdline)
	[ -n "\$c" ] || continue
	kill -TERM \$p 2> /dev/null && { left="\$left, \$p \${c% }"; pids="\$pids \$p"; }
done
n=0
while [ -n "\$pids" ] && [ \$n -lt 30 ]; do
	alive=
	for p in \$pids; do
		read -r _ _ st _ 2> /dev/null < /proc/\$p/stat || continue
		[ "\$st" = Z ] || alive="\$alive \$p"	# a zombie has ended
	done
	pids=\$alive
	[ -z "\$pids" ] || sleep 0.1
	n=\$((n + 1))
done
for p in \$pids; do kill -9 \$p 2> /dev/null; done
[ -z "\$left" ] || printf '\\n%s\\n' "logdev-vm: the script exited; ended what it left running (SIGTERM\${pids:+, then SIGKILL to\$pids}): \${left#, }"
wait \$teepid
dmesg > /results/dmesg.txt 2>/dev/null
# Keep printk off the console while the results stream.  PREEMPT_RT
# prints the console from a thread, which may still be writing earlier
# lines (a sysrq dump's, KERN_EMERG: dmesg -n does not hold them back):
# give it a second, so they do not cut into the stream.
dmesg -n 1 2>/dev/null
case "\$(uname -v)" in *PREEMPT_RT*) sleep 1 ;; esac
(cd /results && find . -type f ! -name .sha256sums | xargs sha256sum > .sha256sums)
tar czf /tmp/results.tgz -C /results .
echo	# the script's last line may lack its newline: the marker starts a line
echo "$begin"
base64 /tmp/results.tgz
echo "$end"
echo "$sumtag \$(sha256sum /tmp/results.tgz | cut -d' ' -f1)"
# wait until the serial port has sent all of it: stty sets the console's
# own settings again with TCSADRAIN, which returns once the tty and the
# UART are empty.  Else the kernel's "reboot: Power down" (written to the
# port at once) could land inside the stream's last lines, still queued
# behind a threaded IRQ on PREEMPT_RT (seen: 6.12-rt soak under load)
stty -F /dev/console "\$(stty -F /dev/console -g)" 2> /dev/null
sync
$halt_cmd
sleep 2
reboot -f
INIT
chmod +x "$stage/init"
(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) > "$stage.initrd.gz"
trap 'rm -rf "$stage" "$stage.initrd.gz"' EXIT

rm -f "$out/console.log" "$out/wedge-registers.txt"
mon=$stage.mon
hbf=$stage.hb
: > "$hbf"
trap 'if [ -n "${qpid:-}" ]; then kill -9 "$qpid" 2>/dev/null || true; fi; rm -rf "$stage" "$stage.initrd.gz" "$mon" "$hbf" "$stage.known"' EXIT
t0=$(date +%s.%N)
set +e
noreboot=(-no-reboot)
if [ "$boots" = 2 ]; then
	noreboot=()
	append="memmap=4K\$$bootpage $append"
fi
qemu_cmd=("${qemu[@]}" -m "$mem" -smp "$smp" -nographic "${noreboot[@]}"
	-accel "$accel" "${icount[@]}" -kernel "$kimg" -initrd "$stage.initrd.gz"
	-monitor "unix:$mon,server=on,wait=off" -serial stdio -serial "file:$hbf"
	-append "console=ttyS0 panic=-1 oops=panic noirqdebug quiet $append")
if [ -n "$memfile" ]; then
	qemu_cmd+=(-object "memory-backend-file,id=ram0,size=${mem}M,mem-path=$memfile,share=on"
		-machine memory-backend=ram0)
fi
: > "$out/console.log"
"${qemu_cmd[@]}" < /dev/null > "$out/console.log" 2>&1 &
qpid=$!
tailpid=
if [ -n "$verbose" ]; then
	tail -n +1 -f "$out/console.log" &
	tailpid=$!
fi

# monitor CMD...: send each command to QEMU's monitor, print its answers.
monitor() {
	perl -MIO::Socket::UNIX -MIO::Select -e '
		my $p = shift;
		my $s = IO::Socket::UNIX->new(Peer => $p, Type => SOCK_STREAM) or exit 1;
		$s->autoflush(1);
		my $sel = IO::Select->new($s);
		my $out = "";
		for my $c (@ARGV) {
			print $s "$c\n";
			my $end = time + 5;
			while (time < $end && $sel->can_read(1)) {
				my $b;
				my $n = sysread($s, $b, 1 << 16);
				last unless $n;
				$out .= $b;
			}
		}
		$out =~ s/\e\[[0-9;]*[A-Za-z]//g;
		$out =~ s/\r//g;
		print $out;' "$mon" "$@"
}

# A lockup or stall report's first line is on the console: let the rest
# (the stacks, seconds later under TCG) reach console.log before QEMU is
# killed: wait until the console has been quiet for $report_quiet s (at
# most 60 s).  A fixed 2 s lost the stacks of a run's first RCU stall.
report_quiet=8
report_rest() {
	local s0 s1 q=0 w
	s0=$(stat -c %s "$out/console.log" 2>/dev/null || echo 0)
	for ((w = 0; w < 60; w++)); do
		sleep 1
		s1=$(stat -c %s "$out/console.log" 2>/dev/null || echo 0)
		if [ "$s1" = "$s0" ]; then
			q=$((q + 1))
			[ "$q" -ge "$report_quiet" ] && return 0
		else
			q=0 s0=$s1
		fi
	done
}

# Watch the guest: console silence, lockup/stall reports, overall time.
stall_re='soft lockup|self-detected stall|detected stalls on CPUs|rcu_(sched|preempt) detected stall|hung_task_timeout|NMI watchdog: Watchdog detected hard LOCKUP'
start=$(date +%s) last_size=-1 last_change=$start wedge= timedout= checked=0
hb_size=0 hb_change=$start hb_seen= quiet_said= panic_reset= panic_stuck=
# in_panic: --boots 2 --expect-crash, boot 1 printed its panic message, no
# reset from outside yet and no second boot
in_panic() {
	[ "$boots" = 2 ] && [ -n "$expect_crash" ] && [ -z "$panic_reset" ] &&
		grep -aq 'Kernel panic - not syncing' "$out/console.log" &&
		[ "$(grep -ac 'Booting from ROM' "$out/console.log")" -lt 2 ]
}
while kill -0 "$qpid" 2>/dev/null; do
	sleep 1
	now=$(date +%s)
	s=$(stat -c %s "$hbf" 2>/dev/null || echo 0)
	if [ "$s" != "$hb_size" ]; then
		hb_size=$s hb_change=$now hb_seen=1
	fi
	size=$(stat -c %s "$out/console.log" 2>/dev/null || echo 0)
	if [ "$size" != "$last_size" ]; then
		last_size=$size last_change=$now
		# only the new part of the console, for the stall patterns
		if tail -c +$((checked + 1)) "$out/console.log" | tr -d '\r' | grep -qE "$stall_re" &&
			in_panic; then
			panic_stuck="reported a stall"
			checked=$size
		elif tail -c +$((checked + 1)) "$out/console.log" | tr -d '\r' | grep -qE "$stall_re"; then
			report_rest
			wedge="kernel reports: $(tr -d '\r' < "$out/console.log" | grep -E "$stall_re" | head -n 1)"
			break
		fi
		checked=$size
		if [ -n "$nmi_at" ] && tr -d '\r' < "$out/console.log" | grep -qF -- "$nmi_at"; then
			monitor nmi > "$out/nmi.txt" 2>&1
			echo "run.sh: sent an NMI to every vCPU (console showed '$nmi_at')" >&2
			nmi_at=
		fi
	fi
	# --boots 2 --expect-crash: boot 1 stuck in its panic (6.1-rt, see
	# below), silent for 20 s or reporting a stall, is reset from outside,
	# as a watchdog would: the RAM stays, boot 2 runs
	if [ -n "$panic_stuck" ] || { [ $((now - last_change)) -ge 20 ] && in_panic; }; then
		monitor "info registers -a" > "$out/panic-wedge-registers.txt" 2>&1
		monitor system_reset > /dev/null 2>&1
		panic_reset=$now
		echo "run.sh: boot 1 ${panic_stuck:-silent for $((now - last_change)) s} after its panic message (stuck in panic(): registers in $out/panic-wedge-registers.txt): reset from outside, as a watchdog would" >&2
		last_change=$now hb_change=$now panic_stuck=
		continue
	fi
	if [ $((now - last_change)) -ge "$idle" ] && [ $((now - hb_change)) -ge "$idle" ]; then
		wedge="no console output for $((now - last_change)) s"
		[ -z "$hb_seen" ] || wedge="$wedge, no heartbeat for $((now - hb_change)) s"
		break
	fi
	if [ $((now - last_change)) -ge "$idle" ] && [ -z "$quiet_said" ]; then
		echo "run.sh: console quiet for $((now - last_change)) s, the guest's heartbeat goes on: a quiet guest, not wedged (--timeout ${tmo}s ends it)" >&2
		quiet_said=1
	fi
	if [ $((now - start)) -ge "$tmo" ]; then
		timedout=1
		break
	fi
done
if [ -n "$wedge$timedout" ] && kill -0 "$qpid" 2>/dev/null; then
	monitor "info registers -a" > "$out/wedge-registers.txt" 2>&1
	# VM_WEDGE_MEM=1: the guest's RAM too, and the kernel's messages that
	# never reached the console (printk's ring holds them as text)
	if [ -n "${VM_WEDGE_MEM:-}" ]; then
		# (the file quoted: the monitor reads "SIZE /path" as a division)
		monitor "pmemsave 0 $((mem << 20)) \"$out/wedge-mem.bin\"" > "$out/wedge-mem.txt" 2>&1
		sleep 2
		strings -n 8 "$out/wedge-mem.bin" 2> /dev/null |
			grep -E 'BUG|WARNING|scheduling|Call Trace|^ [a-z_]+\+0x|logdev' > "$out/wedge-log.txt"
	fi
	rips=$(awk '/^CPU#[0-9]+/ { cpu = $1; sub(/^CPU#/, "", cpu) }
		/^RIP=/ { split($1, a, "="); printf "%sCPU%s RIP=%s", sep, cpu, a[2]; sep = " " }' \
		"$out/wedge-registers.txt")
	[ -n "$rips" ] || rips="(no registers from the QEMU monitor: $(head -c 200 "$out/wedge-registers.txt" | tr '\n' ' '))"
	kill "$qpid" 2>/dev/null
	for i in 1 2 3 4 5; do kill -0 "$qpid" 2>/dev/null || break; sleep 1; done
	kill -9 "$qpid" 2>/dev/null
fi
wait "$qpid"
qrc=$?
[ -n "$tailpid" ] && kill "$tailpid" 2>/dev/null
set -e
t1=$(date +%s.%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

# --expect-crash: a kernel that goes silent after its panic message died as
# asked (6.1-rt can stop in panic() itself, one CPU in
# rtlock_slowlock_locked(), the other in stop_this_cpu(), with nothing of
# logdev's on the console); the checks read what the console holds
if [ -n "$wedge" ] && [ -n "$expect_crash" ] && [ "$boots" = 1 ] &&
	grep -aq 'Kernel panic - not syncing' "$out/console.log"; then
	echo "run.sh: kernel $kver, smp $smp, ${secs}s, the kernel died as expected (then wedged in its panic: $wedge; $rips; console: $out/console.log)" >&2
	exit 0
fi
if [ -n "$wedge" ]; then
	echo "run.sh: guest wedged: $wedge (after ${secs}s, smp $smp, tcg $tcg); $rips (registers: $out/wedge-registers.txt, console: $out/console.log)" >&2
	tr -d '\r' < "$out/console.log" | grep -E 'BUG:|Oops:|WARNING:|Kernel panic|Call Trace:' | head -n 5 >&2 || true
	tail -n 5 "$out/console.log" | tr -d '\r' >&2
	exit 6
fi
if [ -n "$timedout" ]; then
	echo "run.sh: TIMEOUT after ${tmo}s with the guest still running (last console output $((now - last_change)) s before, last heartbeat $((now - hb_change)) s before): QEMU killed; $rips (registers: $out/wedge-registers.txt, console: $out/console.log)" >&2
	tr -d '\r' < "$out/console.log" | grep -E 'BUG:|Oops:|WARNING:|Kernel panic|Call Trace:' | head -n 5 >&2 || true
	exit 3
fi

# --boots 2: boot 2 starts where the firmware runs again (its second
# "Booting from ROM"; else the second "guest up"): boot 1's console apart,
# the checks below read boot 2's (cons)
cons=$out/console.log
if [ "$boots" = 2 ]; then
	n2=$(grep -an 'Booting from ROM' "$out/console.log" | sed -n 2p | cut -d: -f1)
	[ -n "$n2" ] || n2=$(grep -an 'logdev-vm: guest up' "$out/console.log" | sed -n 2p | cut -d: -f1)
	if [ -z "$n2" ]; then
		echo "run.sh: --boots 2, but no second boot on the console (qemu status $qrc): $out/console.log" >&2
		tail -n 5 "$out/console.log" | tr -d '\r' >&2
		exit 4
	fi
	head -n $((n2 - 1)) "$out/console.log" > "$out/console-boot1.log"
	tail -n +"$n2" "$out/console.log" > "$out/console-boot2.log"
	cons=$out/console-boot2.log
	if [ -n "$expect_crash" ] && ! grep -aq 'Kernel panic' "$out/console-boot1.log"; then
		echo "run.sh: --boots 2 --expect-crash, but no 'Kernel panic' in boot 1: $out/console-boot1.log" >&2
		exit 7
	fi
	expect_crash=
fi
if [ -n "$expect_crash" ]; then
	# grep the file itself: a `tr | grep -q` pipeline fails under pipefail
	# when grep stops reading at its match before tr has written the rest
	if grep -aq 'Kernel panic' "$out/console.log"; then
		echo "run.sh: kernel $kver, smp $smp, ${secs}s, the kernel died as expected (console: $out/console.log)" >&2
		exit 0
	fi
	echo "run.sh: --expect-crash, but no 'Kernel panic' on the console (qemu status $qrc): $out/console.log" >&2
	tail -n 5 "$out/console.log" | tr -d '\r' >&2
	exit 7
fi

# The kernel's own by-design reports (tests/vm/known-kernel-reports.txt):
# exact lines, dropped before the scans below; never one about logdev.
known=$stage.known
{ grep -v '^[[:space:]]*\(#\|$\)' "$here/../../tests/vm/known-kernel-reports.txt" || true; } > "$known"
! grep -E '(^|[ /])(ld_|__ld_|logdev|__logdev|edp|__edp|lt_)' "$known" ||
	die "tests/vm/known-kernel-reports.txt names logdev: its reports are never dropped"
drop_known() { grep -avxF -f "$known" || true; }

# Kernel trouble on the console: report it first, whatever else happened.
# Every pattern holds a ':' or a space, which base64 lines of the results
# never do ("...VOops..." once matched inside the data).
bad=$(tr -d '\r' < "$cons" | drop_known |
	grep -E 'BUG:|Oops:|Oops -|WARNING:|Kernel panic|general protection|Call Trace:' | head -n 5 || true)
if [ -n "$bad" ]; then
	printf 'run.sh: KERNEL TROUBLE on the console (%s):\n%s\n' "$cons" "$bad" >&2
	exit 2
fi
[ "$qrc" = 0 ] || echo "run.sh: qemu exited with status $qrc" >&2

# the begin marker may follow output of the script's that lacked its newline
# (a guest older than the echo before it); the markers may have a kernel
# line glued after them (PREEMPT_RT prints the
# console from a thread: a dump's lines can still be going out while the
# guest writes): a marker starts its line; kernel lines in between are not
# base64 and are dropped; one cut into a base64 line fails the checksum
tr -d '\r' < "$out/console.log" |
	awk -v b="$begin" -v e="$end" 'index($0, e) == 1 { on = 0 } on { print } index($0, b) > 0 { on = 1 }' |
	grep -E '^[A-Za-z0-9+/=]+$' > "$out/.results.b64" || true
want=$(tr -d '\r' < "$out/console.log" | awk -v t="$sumtag" '$1 == t { print $2 }' | tail -n 1)
if [ -z "$want" ] || ! grep -q "^$end" <(tr -d '\r' < "$out/console.log"); then
	echo "run.sh: no results on the console (guest died or hung?) see $out/console.log" >&2
	tail -n 20 "$out/console.log" >&2
	exit 4
fi
base64 -d < "$out/.results.b64" > "$out/.results.tgz" || { echo "run.sh: bad base64" >&2; exit 4; }
got=$(sha256sum < "$out/.results.tgz" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
	echo "run.sh: results corrupt in transfer: sha256 $got, guest said $want" >&2
	exit 4
fi
tar xzf "$out/.results.tgz" -C "$out"
rm -f "$out/.results.b64" "$out/.results.tgz"
# Every file as the guest saw it (guest-side sha256 of each file).
if ! (cd "$out" && sha256sum -c --quiet .sha256sums >&2); then
	echo "run.sh: a result file differs from the guest's checksum" >&2
	exit 4
fi
# The console runs with `quiet`: WARN()s and lockdep reports reach only the
# kernel log, which the guest saved.  Same patterns as for the console.
if [ -f "$out/dmesg.txt" ]; then
	bad=$(drop_known < "$out/dmesg.txt" |
		grep -E 'BUG:|Oops:|Oops -|WARNING:|Kernel panic|general protection|Call Trace:|possible recursive locking|circular locking|inconsistent lock state|blocked for more than' |
		head -n 5 || true)
	if [ -n "$bad" ]; then
		printf 'run.sh: KERNEL TROUBLE in the kernel log (%s):\n%s\n' "$out/dmesg.txt" "$bad" >&2
		exit 2
	fi
fi
grc=$(cat "$out/guest.rc" 2>/dev/null || echo missing)
echo "run.sh: kernel $kver, smp $smp, ${secs}s, results in $out (sha256 ok, guest rc $grc)" >&2
[ "$grc" = 0 ] || exit 5
exit 0
