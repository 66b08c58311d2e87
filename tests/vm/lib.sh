# tests/vm/lib.sh: what the VM tests share, sourced by the host checkers
# (check-*.sh, bash) and by the guest scripts (guest-*.sh, busybox sh: run.sh
# ships it with --files, so a guest finds it as /logdev/lib.sh).  POSIX sh.
#
#   P=NAME                     the prefix of every check's name (set it first)
#   pass WHAT                  PASS: $P: WHAT
#   fail WHAT                  FAIL: $P: WHAT, and count it in $fails
#   check WHAT WHY CMD...      run CMD: pass WHAT if it succeeds, else
#                              fail "WHAT: WHY"
#   check_eq WHAT GOT WANT     strings: fail "WHAT: expected 'WANT', got 'GOT'"
#   check_ge WHAT GOT MIN      integers: fail "WHAT: expected >= MIN, got 'GOT'"
#   run_checks CMD...          run a program that prints its own PASS/FAIL
#                              lines (an awk program, a checker): its FAIL
#                              lines count in $fails, and a non-zero exit
#                              without one is a FAIL of its own
#   finish                     exit status: 0 if nothing failed
#   insmod                     in a guest booted with logdev.ksyms=SOURCE
#                              (run-tests.sh VM_KSYMS): adds ksyms=SOURCE to
#                              an insmod of logdev.ko that has none
#   lines_of FILE              the PASS/FAIL lines of FILE (a guest.log), as
#                              they are (any bytes), without the console's CR
#   console_of DIR             a crashed guest's DIR/console.log without CRs
#                              into DIR/console.txt; its guest's PASS/FAIL
#                              lines printed (DIR/guest-lines.txt) and its
#                              FAILs counted; 1 (a FAIL) if there is none
#   raw_lost FILE [KIND]       records lost in a `report --raw` FILE (LOST
#                              lines of KIND: overrun, dropped, nesting_lost,
#                              too_big, lost (a v1 capture's); default all)
#   stats_sum FILE FIELD       FIELD=N summed over the lines of a stats file
#   $LD_AWK                    awk functions for checkers: check(ok, what, why)
#                              (prints with awk's `name`, counts in `failed`),
#                              raw_msg(line) (the message of a --raw line,
#                              tabs and all)
fails=0
P=${P:-vm}

pass() { echo "PASS: $P: $*"; }
fail() { echo "FAIL: $P: $*"; fails=$((fails + 1)); }

check() {
	_what=$1 _why=$2
	shift 2
	if "$@"; then pass "$_what"; else fail "$_what: $_why"; fi
}

check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: expected '$3', got '$2'"; fi
}

check_ge() {
	if [ -n "$2" ] && [ "$2" -ge "$3" ] 2>/dev/null; then pass "$1"
	else fail "$1: expected >= $3, got '$2'"; fi
}

run_checks() {
	_out=$(mktemp /tmp/logdev-checks.XXXXXX)
	# streamed (a guest that goes quiet looks wedged); the status via a file
	{ "$@"; echo $? > "$_out.rc"; } | tee "$_out"
	_rc=$(cat "$_out.rc" 2>/dev/null || echo missing)
	_n=$(grep -c '^FAIL: ' "$_out")
	rm -f "$_out" "$_out.rc"
	fails=$((fails + _n))
	if [ "$_rc" != 0 ] && [ "$_n" = 0 ]; then
		fail "$1 exited with status $_rc and printed no FAIL line"
	elif [ "$_rc" = 0 ] && [ "$_n" != 0 ]; then
		fail "$1 printed $_n FAIL lines but exited 0"
	fi
}

finish() { [ "$fails" = 0 ]; }

# VM_KSYMS=SOURCE (run-tests.sh) boots the guest with logdev.ksyms=SOURCE
# on the kernel command line, which busybox insmod does not read (modprobe
# would): in the guest, logdev.ko loaded without a ksyms= argument gets it
# here, so every group runs its probes on that source of kernel symbols.
_ld_ksyms=$(sed -n 's/.*logdev\.ksyms=\([a-z]*\).*/\1/p' /proc/cmdline 2>/dev/null)
if [ -n "$_ld_ksyms" ] && [ -d /logdev ]; then
	insmod() {
		case " $* " in
		*" ksyms="*) ;;
		*/logdev.ko" "*) set -- "$@" "ksyms=$_ld_ksyms" ;;
		esac
		command insmod "$@"
	}
fi

lines_of() {
	grep -a -E '^(PASS|FAIL): ' "$1" | tr -d '\r'
}

console_of() {
	if [ ! -s "$1/console.log" ]; then
		fail "no console log $1/console.log"
		return 1
	fi
	tr -d '\r' < "$1/console.log" > "$1/console.txt"
	grep -a -E '^(PASS|FAIL): ' "$1/console.txt" | tee "$1/guest-lines.txt"
	fails=$((fails + $(grep -a -c '^FAIL: ' "$1/guest-lines.txt")))
	return 0
}

raw_lost() {
	awk -F'\t' -v k="${2:-}" '$1 == "LOST" && (k == "" ? $4 ~ /^(overrun|dropped|nesting_lost|too_big|lost)$/ : $4 == k) { s += $3 }
		END { print s + 0 }' "$1"
}

stats_sum() {
	awk -v f="$2" '{ for (i = 1; i <= NF; i++) if (index($i, f "=") == 1) s += substr($i, length(f) + 2) }
		END { print s + 0 }' "$1"
}

LD_AWK='
function check(ok, what, why) {
	if (ok) print "PASS: " name ": " what
	else { print "FAIL: " name ": " what ": " why; failed++ }
}
function raw_msg(line,   f, n, i, m) {
	n = split(line, f, "\t"); m = f[8]
	for (i = 9; i <= n; i++) m = m "\t" f[i]
	return m
}
'
