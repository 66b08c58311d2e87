#!/bin/bash
# The userspace files (liblogdev and the CLI) use each other one way only:
# no two files call each other, directly or around a longer circle, and no
# headers include each other in a circle.  File A uses file B when an
# undefined symbol of A.o is defined (globally) in B.o.  Also: the byte
# layout of sub-buffers and records (offsetof/sizeof on the uapi structs)
# is known to exactly one file, userspace/subbuf.c (docs/DEVELOPING.md).  Needs userspace/ built.
# Prints PASS:/FAIL: lines; exits non-zero on any FAIL.
#   tests/userspace-deps.sh [USERSPACE_DIR]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/deps-lib.sh"
udir=${1:-$top/userspace}
failed=0
fail() { echo "FAIL: userspace-deps: $*"; failed=1; }

objs=$(cd "$udir" && ls -- *.o 2>/dev/null)
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

incs=$(cd "$udir" && grep -o '^#include "[^"]*"' -- *.[ch] | sed 's/:#include "/ /; s/"$//')
iloops=$(deps_loops "$incs")
if [ -n "$iloops" ]; then
	fail "headers include each other in a circle: $iloops"
else
	echo "PASS: userspace-deps: no include circle ($(wc -l <<< "$incs") local includes)"
fi

# offsetof (of anything) and sizeof of the uapi structs: the byte layout,
# in subbuf.c only
layout=$(cd "$udir" && grep -l 'offsetof(\|sizeof(struct logdev_' -- *.[ch] | tr '\n' ' ')
if [ "$layout" = "subbuf.c " ]; then
	echo "PASS: userspace-deps: the sub-buffer and record byte layout is in subbuf.c only"
else
	fail "offsetof/sizeof of the uapi structs in: $layout(only subbuf.c may)"
fi
exit $failed
