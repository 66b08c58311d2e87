#!/bin/bash
# The userspace files (liblogdev and the CLI) use each other one way only:
# no two files call each other, directly or around a longer circle, and no
# headers include each other in a circle.  File A uses file B when an
# undefined symbol of A.o is defined (globally) in B.o.  Also: the byte
# layout of sub-buffers and records (offsetof/sizeof on the uapi structs)
# is known to exactly one file, userspace/lib/subbuf.c (docs/DEVELOPING.md).
# Folders: lib/ (liblogdev) never uses cli/ (no symbol of a cli/ object, no
# cli/ header) and never prints or exits on its own (no stdout, stderr,
# printf, puts, perror, exit or abort among its objects' undefined symbols:
# it writes only to a FILE * it is given).  Needs userspace/ built (objects
# in lib/ and cli/).  Prints PASS:/FAIL: lines; exits non-zero on any FAIL.
#   tests/userspace-deps.sh [OBJECT_DIR]   (the O= of make -C userspace; sources
#   are always read from userspace/)
#   tests/userspace-deps.sh --self-test    in a copy of userspace/, plant one at
#   a time a lib/ file using cli/, a lib/ dprintf(), a circle between two lib/
#   files and an offsetof() outside subbuf.c: each must FAIL, the copy without
#   them pass
#   tests/userspace-deps.sh --all          the check, then the self-test
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

self_test() {
	. "$top/tests/include/planted.sh"	# planted_found
	local tmp rc=0 out plant want
	tmp=$(mktemp -d /tmp/logdev-udeps.XXXXXX) || return 1
	mkdir -p "$tmp/tests"
	cp -a "$top/userspace" "$top/include" "$tmp/" && cp "$top/tests/userspace-deps.sh" "$top/tests/deps-lib.sh" "$tmp/tests/"
	make -s -C "$tmp/userspace" O="$tmp/o" CFLAGS=-O0 liblogdev.a logdev > /dev/null 2>&1 ||
		{ echo "FAIL: userspace-deps self-test: the copy does not build"; rm -rf "$tmp"; return 1; }
	out=$("$tmp/tests/userspace-deps.sh" "$tmp/o")
	if grep -q '^FAIL' <<<"$out"; then
		echo "FAIL: userspace-deps self-test: the copy fails before anything is planted: $(grep -m2 '^FAIL' <<<"$out" | tr '\n' '|')"
		rc=1
	fi
	for plant in cli print circle layout; do
		cp "$tmp/userspace/lib/comm.c" "$tmp/comm.c.orig"; cp "$tmp/userspace/lib/capture.c" "$tmp/capture.c.orig"
		cp "$tmp/userspace/cli/cli-opts.c" "$tmp/cli-opts.c.orig"
		case $plant in
		cli)	printf '#include "../cli/cli.h"\nint planted_up(void) { return (int)cli_nap_ms(0, 0, 0); }\n' >> "$tmp/userspace/lib/comm.c"
			want='lib/ uses cli/' ;;
		print)	printf 'int planted_pr(void) { return dprintf(2, "x"); }\n' >> "$tmp/userspace/lib/comm.c"
			want='lib/ prints or exits: lib/comm.o: dprintf' ;;
		circle)	printf 'void planted_b(void);\nvoid planted_a(void) { planted_b(); }\n' >> "$tmp/userspace/lib/comm.c"
			printf 'void planted_a(void);\nvoid planted_b(void) { planted_a(); }\n' >> "$tmp/userspace/lib/capture.c"
			want='files use each other in a circle' ;;
		layout)	printf '#if 0\nsize_t planted = offsetof(struct logdev_rec, ts);\n#endif\n' >> "$tmp/userspace/cli/cli-opts.c"
			want='offsetof/sizeof of the uapi structs in' ;;
		esac
		make -s -C "$tmp/userspace" O="$tmp/o" CFLAGS=-O0 liblogdev.a logdev > /dev/null 2>&1
		out=$("$tmp/tests/userspace-deps.sh" "$tmp/o")
		planted_found "userspace-deps self-test ($plant)" "$out" "FAIL: userspace-deps: " "$want" || rc=1
		cp "$tmp/comm.c.orig" "$tmp/userspace/lib/comm.c"; cp "$tmp/capture.c.orig" "$tmp/userspace/lib/capture.c"
		cp "$tmp/cli-opts.c.orig" "$tmp/userspace/cli/cli-opts.c"
	done
	rm -rf "$tmp"
	return $rc
}
case ${1:-} in
--self-test) self_test; exit ;;
--all)	"$0"; r1=$?; self_test; r2=$?; exit $((r1 | r2)) ;;
esac
. "$top/tests/deps-lib.sh"
udir=${1:-$top/userspace}
src=$top/userspace
failed=0
fail() { echo "FAIL: userspace-deps: $*"; failed=1; }

objs=$(cd "$udir" && ls -- lib/*.o cli/*.o 2>/dev/null)
if [ -z "$objs" ]; then
	fail "no objects in $udir (make -C userspace)"
	exit 1
fi
declare -A def
for o in $objs; do
	for s in $(nm --defined-only -g "$udir/$o" | awk '{print $3}'); do
		def[$s]=$o
	done
done
edges=
for o in $objs; do
	for s in $(nm -u "$udir/$o" | awk '{print $2}'); do
		to=${def[$s]:-}
		[ -n "$to" ] && [ "$to" != "$o" ] || continue
		edges+="${o%.o} ${to%.o}"$'\n'
	done
done
edges=$(sort -u <<< "$edges" | sed '/^$/d')
loops=$(deps_loops "$edges")
both=$(deps_both "$edges")
if [ -n "$loops" ] || [ -n "$both" ]; then
	fail "files use each other in a circle:${both:+ both ways:$both;} loops: $loops"
else
	echo "PASS: userspace-deps: no circle among $(wc -w <<< "$objs") objects ($(wc -l <<< "$edges") uses)"
fi

# "FROM TO" for each local include, TO resolved as the compiler does: the
# including file's folder, then lib/, then userspace/ (version.h)
incs=$(cd "$src" && grep -o '^#include "[^"]*"' -- lib/*.[ch] cli/*.[ch] |
	sed 's/:#include "/ /; s/"$//' | while read -r from h; do
		for to in "$(dirname "$from")/$h" "lib/$h" "$h" "cli/$h"; do
			[ -f "$to" ] && break
		done
		echo "$from $(realpath -m --relative-to=. "$to")"
	done)
iloops=$(deps_loops "$incs")
if [ -n "$iloops" ]; then
	fail "headers include each other in a circle: $iloops"
else
	echo "PASS: userspace-deps: no include circle ($(wc -l <<< "$incs") local includes)"
fi

# lib/ never reaches cli/: no use of a cli/ object, no include of a cli/ file
up=$(grep '^lib/[^ ]* cli/' <<< "$edges"$'\n'"$incs" | sed 's/ / -> /' | tr '\n' ' ')
if [ -n "$up" ]; then
	fail "lib/ uses cli/: $up"
else
	echo "PASS: userspace-deps: lib/ never uses cli/ (objects and includes)"
fi

# lib/ never prints or exits: what its objects would call to do so (also
# dprintf() and the _FORTIFY_SOURCE __*printf_chk forms; a bare write() to
# fd 2 is not told from the capture writer's, review catches that)
pr=
for o in $(cd "$udir" && ls -- lib/*.o); do
	s=$(nm -u "$udir/$o" | awk '{print $2}' |
		grep -E '^(stdout|stderr|(__)?v?d?printf(_chk)?|puts|putchar|perror|psignal|psiginfo|syslog|vsyslog|exit|_exit|_Exit|quick_exit|abort|v?errx?|v?warnx?|error|error_at_line)$' | tr '\n' ' ')
	[ -n "$s" ] && pr+="$o: $s"
done
if [ -n "$pr" ]; then
	fail "lib/ prints or exits: $pr"
else
	echo "PASS: userspace-deps: lib/ never prints or exits"
fi

# offsetof (of anything) and sizeof of the uapi structs: the byte layout,
# in subbuf.c only
layout=$(cd "$src" && grep -l 'offsetof(\|sizeof(struct logdev_' -- lib/*.[ch] cli/*.[ch] | tr '\n' ' ')
if [ "$layout" = "lib/subbuf.c " ]; then
	echo "PASS: userspace-deps: the sub-buffer and record byte layout is in lib/subbuf.c only"
else
	fail "offsetof/sizeof of the uapi structs in: $layout(only lib/subbuf.c may)"
fi
exit $failed
