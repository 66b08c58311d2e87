#!/bin/bash
# kernel/compat/conftest.sh without a kernel (make check, suite "compat"):
# a fake compiler that "compiles" a test unless the test holds the word
# NOCOMPILE, so every rule of kernel/compat/README can be checked in a
# second:
#   - a test that compiles gives #define LD_HAVE_<NAME upper-cased> 1, one
#     that does not a comment saying it is absent; base.c gives no define;
#   - the compiler gets the flags, -Werror and the test;
#   - base.c not compiling fails (exit 1, says so, no header: an old
#     header is removed too);
#   - a test naming an "Alternative:" fails the build when neither
#     compiles, not when one does; an alternative that does not exist fails;
#   - the header is written whole or not at all (no temporary left behind),
#     and the compiler's messages are kept in .NAME.log.
# Then the real tests of kernel/compat/ against the fake compiler: every
# one names what it tests, a kernel version and its users, and each
# "Alternative:" names a test that names it back.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
P=compat
. "$top/tests/vm/lib.sh"
ct=$top/kernel/compat/conftest.sh
tmp=$(mktemp -d /tmp/logdev-compat.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# the fake compiler: logs its arguments, fails on a source with NOCOMPILE
cat > "$tmp/fakecc" <<'SH'
#!/bin/sh
src= out=
while [ $# -gt 0 ]; do
	case $1 in -o) out=$2; shift ;; *.c) src=$1 ;; esac
	shift
done
echo "$src" >> "${FAKECC_LOG:?}"
if grep -q NOCOMPILE "$src"; then
	echo "$src:1:1: error: NOCOMPILE" >&2
	exit 1
fi
: > "$out"
SH
chmod +x "$tmp/fakecc"
export FAKECC_LOG=$tmp/cc.log

mk() {	# mk DIR NAME [BODY] [ALTERNATIVE]
	printf '/*\n * %s: a test.%s\n */\n%s\n' "$2" "${4:+ Alternative: $4.c (one of the two must compile).}" \
		"${3:-int x;}" > "$1/$2.c"
}
run() {	# run DIR: conftest over DIR/*.c into DIR/out/config.h
	mkdir -p "$1/out"
	: > "$FAKECC_LOG"
	"$ct" -r 9.9-test "$1/out/config.h" "$1"/*.c -- "$tmp/fakecc" -DFLAG=1 > "$1/stdout" 2> "$1/stderr"
}

d=$tmp/good
mkdir -p "$d"
mk "$d" base
mk "$d" new_api '' old_api
mk "$d" old_api NOCOMPILE new_api
mk "$d" plain_feature NOCOMPILE
run "$d"
rc=$?
check_eq "a good set: exit 0" "$rc $(head -c 200 "$d/stderr")" "0 "
h=$d/out/config.h
check "a test that compiles gives LD_HAVE_<NAME> 1, upper-cased" "$(cat "$h" 2>/dev/null | tr '\n' '|')" \
	grep -qx '#define LD_HAVE_NEW_API 1' "$h"
check "a test that does not compile gives a comment, not a define" "$(grep -i old_api "$h" | tr '\n' '|')" \
	sh -c "grep -qx '/\* LD_HAVE_OLD_API: absent (old_api.c does not compile) \*/' '$h' && ! grep -q 'define LD_HAVE_OLD_API' '$h'"
check_eq "base.c gives no define" "$(grep -c BASE "$h")" 0
check_eq "every test compiled once" "$(sort "$FAKECC_LOG" | xargs -n1 basename | tr '\n' ' ')" \
	"base.c new_api.c old_api.c plain_feature.c "
check "the header is guarded and names the kernel" "$(head -n 12 "$h" | tr '\n' '|')" \
	sh -c "grep -q '^#ifndef _LOGDEV_COMPAT_CONFIG_H' '$h' && grep -q '9.9-test' '$h' && tail -n 1 '$h' | grep -qx '#endif'"
check "the compiler's messages are kept in .config.h.log" "$(ls -a "$d/out" | tr '\n' ' ')" \
	grep -q 'old_api.c:1:1: error: NOCOMPILE' "$d/out/.config.h.log"
check_eq "no temporary left in the output directory" "$(ls -a "$d/out" | tr '\n' ' ')" ". .. .config.h.log config.h "
cat > "$tmp/argcc" <<SH
#!/bin/sh
echo "\$*" > "$tmp/args"
: > "\$(echo "\$*" | sed 's/.*-o \([^ ]*\).*/\1/')"
SH
chmod +x "$tmp/argcc"
mkdir -p "$tmp/args-d/out"
mk "$tmp/args-d" base
"$ct" "$tmp/args-d/out/h" "$tmp/args-d/base.c" -- "$tmp/argcc" -DA=1 '-DB="two words"' > /dev/null 2>&1
check "the compiler gets the kernel's flags, -Werror, -c and the test" "$(cat "$tmp/args" 2>/dev/null)" \
	grep -q -- '-DA=1 -DB="two words" -Werror -c -o .* .*/base.c$' "$tmp/args"

# base.c does not compile: fail, say so, leave no header (an old one goes)
d=$tmp/nobase
mkdir -p "$d/out"
mk "$d" base NOCOMPILE
mk "$d" new_api
echo '#define STALE 1' > "$d/out/config.h"
run "$d"
rc=$?
check "base.c not compiling fails the build, says why, removes the header" \
	"exit $rc, header $(ls "$d/out/config.h" 2>&1), $(head -c 300 "$d/stderr")" \
	sh -c "[ $rc = 1 ] && [ ! -e '$d/out/config.h' ] && grep -q 'base.c does not compile' '$d/stderr' && grep -q 'NOCOMPILE' '$d/stderr'"
d=$tmp/missingbase
mkdir -p "$d"
mk "$d" new_api
run "$d"
rc=$?
check "no base.c among the tests fails" "exit $rc: $(head -c 200 "$d/stderr")" \
	sh -c "[ $rc = 1 ] && grep -q 'no base.c' '$d/stderr'"

# neither alternative compiles: fail, naming both, with their messages
d=$tmp/neither
mkdir -p "$d"
mk "$d" base
mk "$d" new_api NOCOMPILE old_api
mk "$d" old_api NOCOMPILE new_api
run "$d"
rc=$?
check "neither of two alternatives compiling fails the build, naming both" \
	"exit $rc, $(head -c 300 "$d/stderr")" \
	sh -c "[ $rc = 1 ] && [ ! -e '$d/out/config.h' ] && grep -q 'neither new_api.c nor old_api.c compiles' '$d/stderr'"
# the same with "Alternative:" and the name on two lines of the comment
d=$tmp/neither2
mkdir -p "$d"
mk "$d" base
printf '/*\n * new_api: a test.  Alternative:\n * old_api.c (one of the two must compile).\n */\nNOCOMPILE\n' > "$d/new_api.c"
mk "$d" old_api NOCOMPILE
run "$d"
rc=$?
check "neither compiling fails also when the comment breaks the line after 'Alternative:'" \
	"exit $rc, $(head -c 300 "$d/stderr")" \
	sh -c "[ $rc = 1 ] && grep -q 'neither new_api.c nor old_api.c compiles' '$d/stderr'"
d=$tmp/badalt
mkdir -p "$d"
mk "$d" base
mk "$d" new_api '' no_such_test
run "$d"
rc=$?
check "an alternative that does not exist fails the build" "exit $rc, $(head -c 300 "$d/stderr")" \
	sh -c "[ $rc = 1 ] && grep -q 'no_such_test.c that does not exist' '$d/stderr'"

# the real tests: each says what it tests, a version, its users; each
# alternative names its test back
# the first comment, one line, as conftest.sh reads it (margins removed)
first() { sed -n '1,/\*\//p' "$1" | sed 's,^ *\(/\*\|\*/\|\*\) \{0\,1\},,' | tr '\n' ' '; }
bad=0
for t in "$top"/kernel/compat/*.c; do
	n=$(basename "$t" .c)
	head=$(first "$t")
	why=
	case $head in *" $n: "*) ;; *) why="$why; its first comment does not start with '$n: '" ;; esac
	echo "$head" | grep -qE 'Linux [0-9]|[0-9]\.[0-9]+' || why="$why; its first comment names no kernel version"
	echo "$head" | grep -q 'Used by: ' || why="$why; its first comment does not say who uses it (Used by: )"
	alt=$(echo "$head" | sed -n 's/.*Alternative: \([A-Za-z0-9_]*\)\.c.*/\1/p')
	if [ -n "$alt" ] && ! first "$top/kernel/compat/$alt.c" 2>/dev/null | grep -q "Alternative: $n\.c"; then
		why="$why; it names $alt.c as its alternative, which does not name it back"
	fi
	[ -z "$why" ] || { fail "kernel/compat/$n.c${why}"; bad=1; }
done
[ $bad = 1 ] || pass "kernel/compat/*.c: $(ls "$top"/kernel/compat/*.c | wc -l) tests, each names what it tests, a version, its users; alternatives in pairs"
d=$tmp/real
mkdir -p "$d"
FAKECC_LOG=$tmp/real.log "$ct" "$d/config.h" "$top"/kernel/compat/*.c -- "$tmp/fakecc" > "$d/stdout" 2> "$d/stderr"
rc=$?
check_eq "kernel/compat/*.c through conftest.sh (every test compiles: one define each but base)" \
	"$rc $(grep -c '^#define LD_HAVE_' "$d/config.h" 2>/dev/null)" "0 $(($(ls "$top"/kernel/compat/*.c | wc -l) - 1))"
finish
