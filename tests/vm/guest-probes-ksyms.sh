#!/bin/sh
# Guest side of vm-probes-ksyms (busybox sh): probes by name through each
# source of the kernel's symbols ("ksyms": auto, iter, procfs;
# docs/DEBUGFS.md), the same answers from each, on any kernel.
#   guest-probes-ksyms.sh
# The ksyms parameter (insmod ksyms=procfs, a bad value refused); then for
# each source: FUNC, MOD:FUNC, a glob (probe_functions and p:GLOB), @SYM,
# MOD:FUNC of a module not loaded (pending, armed on its load), an
# ambiguous name (the count /proc/kallsyms gives), unknown names with and
# without "did you mean" lists (worked out here from /proc/kallsyms as the
# kernel words them, cut as it cuts them), every error_log line plain ASCII.
# With the addresses hidden (kptr_restrict=2) procfs refuses what needs the
# symbols, says why in error_log and once in the kernel log, and a probe by
# name still attaches.  Where the iterators are read (ksyms file) is
# checked against kprobes' own view of a function's entry (ENDBR64: +4).
# Prints PASS:/FAIL: lines.
D=/sys/kernel/debug/logdev
PF=$D/probes
EL=$D/error_log
KS=$D/ksyms
P=vm-probes-ksyms
. /logdev/lib.sh

# add DEF: one write(2); prints dd's error text and fails if refused
add() {
	o=$(printf '%s\n' "$1" | dd of=$PF conv=notrunc 2>&1)
	case "$o" in *rror*) echo "$o" | grep -i error; return 1 ;; esac
	return 0
}
# the reason of error_log's last entry ("[ts] logdev: error: REASON")
last_reason() { tail -n 3 $EL | head -n 1 | sed 's/^\[ *[0-9.]*\] logdev: error: //'; }
# bad DEF ERRNO_TEXT REASON: refused with that errno text and that reason
bad() {
	: > $EL
	if err=$(add "$1"); then
		fail "$src: accepted '$1'"
	elif ! echo "$err" | grep -q "$2"; then
		fail "$src: '$1' refused with '$err', want '$2'"
	else
		check_eq "$src: '$1' refused ($2), error_log says why" "$(last_reason)" "$3"
	fi
}
ok() {
	if err=$(add "$1"); then pass "$src: accepts '$1'"; else fail "$src: refuses '$1': $err"; fi
}

# ---- the parameter
if insmod /logdev/logdev.ko ksyms=bogus 2> /tmp/insmod.err; then
	fail "insmod ksyms=bogus loaded"
	rmmod logdev
else
	dmesg | grep -q 'logdev: parameter ksyms=bogus: want auto, iter or procfs; insmod refused' &&
		pass "ksyms=bogus refused, the kernel log says why" ||
		fail "ksyms=bogus: $(dmesg | grep 'ksyms=' | tail -n 1)"
fi
insmod /logdev/logdev.ko ksyms=procfs || { fail "insmod logdev.ko ksyms=procfs"; exit 1; }
check_eq "parameter ksyms=procfs shown" "$(cat /sys/module/logdev/parameters/ksyms)" procfs
check_eq "ksyms file: procfs chosen" "$(head -n 1 $KS)" "auto iter [procfs]"
echo iter > $KS && check_eq "ksyms file takes iter" "$(head -n 1 $KS)" "auto [iter] procfs"
echo auto > $KS && check_eq "ksyms file takes auto" "$(head -n 1 $KS)" "[auto] iter procfs"
for w in 'bogus' ' auto' 'auto ' 'iter\n\n' 'auto\0000' 'AUTO'; do
	o=$(printf '%b' "$w" | dd of=$KS conv=notrunc 2>&1)
	case "$o" in
	*Invalid*) check_eq "ksyms file refuses '$w', setting kept" "$(head -n 1 $KS)" "[auto] iter procfs" ;;
	*) fail "ksyms file '$w': '$o'" ;;
	esac
done
check_eq "parameter follows the file" "$(cat /sys/module/logdev/parameters/ksyms)" auto
grep -q '^used: none yet$' $KS && pass "ksyms file: no walk yet" || fail "ksyms file: $(tail -n 1 $KS)"

insmod /logdev/logdev_test.ko && insmod /logdev/logdev_syma.ko && insmod /logdev/logdev_symb.ko ||
	{ fail "insmod the test modules"; exit 1; }

# ---- what the kernel says, worked out from /proc/kallsyms (all sources
# give the symbols of vmlinux then of each module, in this order)
# defs NAME: how many definitions NAME has (bpf and kprobes pages are none)
defs() {
	awk -v n="$1" '$3 == n && $4 !~ /^\[(bpf|__builtin__)/ { c++ } END { print c + 0 }' /proc/kallsyms
}
# similar SYM: "no symbol SYM; symbols containing it (N): a, MOD:b, ..."
# as ld_ksym_similar() and ld_check_unique() word it (candidates cut to
# 159 bytes, the reason to 255)
similar() {
	awk -v sym="$1" '
	BEGIN {
		core = sym; sub(/^_+/, "", core); sub(/\..*/, "", core)
		np = split("__pfx_ __cfi_ __ksymtab __kstrtab __SCK__ __SCT__ __tracepoint __traceiter __bpf_trace trace_event_ perf_trace_ __probestub", pfx, " ")
	}
	$4 ~ /^\[(bpf|__builtin__)/ { next }
	index($3, core) {
		for (i = 1; i <= np; i++) if (index($3, pfx[i]) == 1) next
		if (++n <= 6) { m = $4; gsub(/[][]/, "", m); out = out (n > 1 ? ", " : "") (m != "" ? m ":" : "") $3 }
	}
	END {
		if (!n) r = "no symbol " sym " (inlined, or renamed: see probe_functions)"
		else r = "no symbol " sym "; symbols containing it (" n "): " substr(out, 1, 159) (n > 6 ? ", ..." : "")
		print substr(r, 1, 255)
	}' /proc/kallsyms
}
# more than 6 candidates: the first core with that many
many=
for c in kmem_cache_al vfs_rea mutex_lock; do
	n=$(awk -v c="$c" 'index($3, c) && $3 !~ /^__/ { n++ } END { print n + 0 }' /proc/kallsyms)
	[ "$n" -gt 8 ] && { many=$c; break; }
done
[ -n "$many" ] && pass "a name with more than 6 relatives: $many" || fail "no name with more than 6 relatives"
nj=$(defs jhash)
[ "$nj" -gt 1 ] && pass "jhash is defined $nj times" || fail "jhash defined $nj times, the test needs > 1"
check_eq "lsym_dup_target is defined twice" "$(defs lsym_dup_target)" 2

for src in auto iter procfs; do
	echo $src > $KS
	: > $PF
	ok 'p:k_name lt_probe_target $arg1'
	ok 'p:k_mod logdev_test:lt_probe_typed'
	ok 'p:k_at lt_probe_typed v=@lt_probe_magic:u32'
	ok 'p:k_g=lt_probe_t*'
	check_eq "$src: the probes as listed" "$(sed 's/ hits=.*//' $PF | tr '\n' '|')" \
		'p:k_name lt_probe_target $arg1|p:k_mod logdev_test:lt_probe_typed|p:k_at lt_probe_typed v=@lt_probe_magic:u32|p:k_g_logdev_test_lt_probe_target logdev_test:lt_probe_target|p:k_g_logdev_test_lt_probe_typed logdev_test:lt_probe_typed|'
	echo 'lt_probe_t*' > $D/probe_functions
	check_eq "$src: probe_functions lt_probe_t*" "$(tr '\n' '|' < $D/probe_functions)" \
		"# 2 functions match lt_probe_t*; 0 not probe-able (kprobe blacklist, or not a probe point) left out; 0 names defined more than once (probe them as 0xADDR)|logdev_test:lt_probe_target|logdev_test:lt_probe_typed|"
	echo 'lsym_dup_*' > $D/probe_functions
	check_eq "$src: probe_functions lsym_dup_* (one name in two modules)" "$(tr '\n' '|' < $D/probe_functions)" \
		"# 2 functions match lsym_dup_*; 0 not probe-able (kprobe blacklist, or not a probe point) left out; 0 names defined more than once (probe them as 0xADDR)|logdev_syma:lsym_dup_target|logdev_symb:lsym_dup_target|"
	# a name vmlinux defines more than once is listed once, marked (issue
	# 24: listed plain, then refused by probes)
	echo 'jhash' > $D/probe_functions
	check_eq "$src: probe_functions jhash: marked as defined $nj times" "$(sed -n 2p $D/probe_functions)" \
		"$(printf 'jhash\t(defined %s times: refused by name, probe one as 0xADDR)' "$nj")"
	bad 'p:k_dup lsym_dup_target' 'assign requested address' \
		'lsym_dup_target is defined 2 times: use MOD:FUNC or 0xADDR (/proc/kallsyms)'
	bad 'p:k_jh jhash' 'assign requested address' \
		"jhash is defined $nj times: use MOD:FUNC or 0xADDR (/proc/kallsyms)"
	ok 'p:k_dupa logdev_syma:lsym_dup_target'
	bad 'p:k_nofn logdev_syma:no_such_fn_logdev' 'No such file' \
		'no symbol no_such_fn_logdev in logdev_syma; if it is __init code (freed after the module'"'"'s init), an __init function of logdev_syma is probed by writing the probe before the module loads'
	for u in lt_probe_typ lsym_dup_targe no_such_function_logdev_xyz "$many"; do
		bad "p:k_u $u" 'No such file' "$(similar "$u")"
	done
	# pending MOD:FUNC, armed when the module loads
	rmmod logdev_symb
	ok 'p:k_pend logdev_symb:lsym_b_fn'
	grep -q '^p:k_pend logdev_symb:lsym_b_fn hits=0 missed=0 state=pending$' $PF &&
		pass "$src: MOD:FUNC of a module not loaded is pending" ||
		fail "$src: pending: $(grep k_pend $PF)"
	insmod /logdev/logdev_symb.ko	# its init calls lsym_b_fn once
	echo 1 > /sys/kernel/debug/logdev_symb/fire
	grep -q '^p:k_pend logdev_symb:lsym_b_fn hits=2 missed=0$' $PF &&
		pass "$src: armed on the module's load: hit by its init and by a fire" ||
		fail "$src: after the load: $(grep k_pend $PF)"
	cat $EL > /tmp/el
	bad_bytes=$(cat $EL /sys/kernel/debug/logdev/probe_functions $PF | tr -d '\n\t -~' | wc -c)
	check_eq "$src: error_log, probe_functions and probes are plain ASCII" "$bad_bytes" 0
	u=$(grep '^used: ' $KS)
	case "$src:$u" in
	auto:"used: iter ("*|auto:"used: procfs ("*|iter:"used: iter ("*|procfs:"used: procfs ("*)
		pass "$src: ksyms says what it used: $u" ;;
	*) fail "$src: ksyms says '$u'" ;;
	esac
	: > $PF
done

# ---- where the iterators were read, against kprobes' view: a probe on
# FUNC is put past an ENDBR64 (FUNC+0x4) where the kernel has IBT
add 'p:k_ibt vfs_read' > /dev/null || fail "p:k_ibt vfs_read refused"
entry=$(sed -n 's/.*  vfs_read+0x\([0-9a-f]*\) .*/\1/p' /sys/kernel/debug/kprobes/list | head -n 1)
notes=$(grep '^iter: ' $KS)
echo "$notes"
case $entry in
4) echo "$notes" | grep -c 'ENDBR64' | grep -qx 2 &&
	pass "IBT kernel (vfs_read probed at +0x4): both iterators' entries read as ENDBR64 or its seal" ||
	fail "IBT kernel, but ksyms says: $notes" ;;
0) echo "$notes" | grep -c 'callable (no IBT in this kernel)' | grep -qx 2 &&
	pass "kernel without IBT (vfs_read probed at +0x0): both iterators callable" ||
	fail "no IBT, but ksyms says: $notes" ;;
*) fail "vfs_read's kprobe at '+0x$entry': $(grep vfs_read /sys/kernel/debug/kprobes/list)" ;;
esac
: > $PF

# ---- procfs with the addresses hidden: refused with the reason, once in
# the kernel log; a probe by name still attaches (kprobes finds it)
src=procfs-hidden
kr=$(cat /proc/sys/kernel/kptr_restrict)
echo procfs > $KS
echo 2 > /proc/sys/kernel/kptr_restrict
why='ksyms=procfs: /proc/kallsyms shows no addresses (kptr_restrict=2, or no CAP_SYSLOG)'
bad 'p:lt_probe_t*' 'not supported' "lt_probe_t* needs the kernel's symbols: $why"
bad 'p:k_at lt_probe_typed v=@lt_probe_magic:u32' 'not supported' \
	"@SYM (use @0xADDR from /proc/kallsyms) needs the kernel's symbols: $why"
ok 'p:k_hid lt_probe_target'
echo 'lt_probe_t*' > $D/probe_functions
check_eq "$src: probe_functions says why" "$(cat $D/probe_functions)" "# cannot list lt_probe_t*: $why"
check_eq "$src: ksyms says why" "$(grep '^used: ' $KS)" "used: $why"
check_eq "$src: the kernel log says it once" "$(dmesg | grep -c "logdev: probes: $why")" 1
echo "$kr" > /proc/sys/kernel/kptr_restrict
ok 'p:k_g2=lt_probe_t*'
check_eq "procfs again: 3 probes" "$(grep -c . $PF)" 3
: > $PF
echo auto > $KS
rmmod logdev_symb logdev_syma logdev_test logdev
finish
