#!/bin/bash
# The kernel module's files depend on each other one way only: a file may
# use (call, or read data of) files of its own layer or of the layers below
# it, never one above, and never in a circle.  Layers and objects come from
# kernel/Makefile.objs (logdev-layers, logdev-layer-NAME); the graph from
# the built objects: file A uses file B when an undefined symbol of A.o is
# defined (globally) in B.o.  Needs kernel/ built (make -C kernel).
# Prints PASS:/FAIL: lines; exits non-zero on any FAIL.
#   tests/kernel-deps.sh [KERNEL_DIR]     (default: kernel/ of this tree)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=${1:-$top/kernel}
failed=0
fail() { echo "FAIL: kernel-deps: $*"; failed=1; }

# "LAYER OBJ" lines, top layer first
layers=$(make -s --no-print-directory -f - <<MK 2>&1
include $kdir/Makefile.objs
all:
	@\$(foreach l,\$(logdev-layers),\$(foreach o,\$(logdev-layer-\$(l)),echo "\$(l) \$(o)";))
MK
)
if [ -z "$layers" ] || ! grep -q '^[a-z]* [a-z_]*\.o$' <<< "$layers"; then
	fail "no layers in $kdir/Makefile.objs: $(head -n 3 <<< "$layers" | tr '\n' '|')"
	exit 1
fi

declare -A rank def
n=0
prev=
missing=
while read -r layer obj; do
	[ "$layer" = "$prev" ] || { n=$((n + 1)); prev=$layer; }
	rank[$obj]=$n		# 1 = top
	if [ ! -f "$kdir/$obj" ]; then
		missing="$missing $obj"
		continue
	fi
	for s in $(nm --defined-only -g "$kdir/$obj" | awk '{print $3}'); do
		def[$s]=$obj
	done
done <<< "$layers"
if [ -n "$missing" ]; then
	fail "not built:$missing (make -C kernel)"
	exit 1
fi

# Every logdev_*.c of kernel/ must be in the list (a new file gets a layer).
for c in "$kdir"/logdev_*.c; do
	o=$(basename "${c%.c}.o")
	[ -n "${rank[$o]:-}" ] || fail "$(basename "$c") is in no layer of Makefile.objs"
done

edges=
up=
for obj in "${!rank[@]}"; do
	for s in $(nm -u "$kdir/$obj" | awk '{print $2}'); do
		to=${def[$s]:-}
		[ -n "$to" ] && [ "$to" != "$obj" ] || continue
		edges+="${obj%.o} ${to%.o}"$'\n'
		if [ "${rank[$to]}" -lt "${rank[$obj]}" ]; then
			up+=" ${obj%.o}->${to%.o}($s)"
		fi
	done
done
edges=$(sort -u <<< "$edges" | sed '/^$/d')

if [ -n "$up" ]; then
	fail "calls up the layers (kernel/Makefile.objs):$up"
else
	echo "PASS: kernel-deps: no file uses a layer above its own"
fi
# tsort reports every loop it finds on stderr, one member a line
loops=$(tsort <<< "$edges" 2>&1 >/dev/null | sed 's/^tsort: //; s/^-: input contains a loop:$/|/' |
	tr '\n' ' ' | sed 's/^| //; s/ $//')
both=$(awk '{ e[$1 " " $2] = 1 } END { for (k in e) { split(k, a, " ");
	if (a[1] < a[2] && e[a[2] " " a[1]]) printf " %s<->%s", a[1], a[2] } }' <<< "$edges")
if [ -n "$loops" ] || [ -n "$both" ]; then
	fail "files use each other in a circle:${both:+ both ways:$both;} loops: $loops"
else
	echo "PASS: kernel-deps: no circle among $(wc -l <<< "$layers") objects ($(wc -l <<< "$edges") uses)"
fi
# Local includes ("x.h") of the kernel sources must not loop either.
incs=$(cd "$kdir" && grep -o '^#include "[^"]*"' -- *.[ch] test/*.[ch] 2>/dev/null |
	sed 's/:#include "/ /; s/"$//' | while read -r f h; do
		echo "$f $(dirname "$f" | sed 's|^\.$||; s|.$|&/|')$h"; done | sed 's| \./| |')
iloops=$(tsort <<< "$incs" 2>&1 >/dev/null | sed 's/^tsort: //; s/^-: input contains a loop:$/|/' |
	tr '\n' ' ' | sed 's/^| //; s/ $//')
if [ -n "$iloops" ]; then
	fail "headers include each other in a circle: $iloops"
else
	echo "PASS: kernel-deps: no include circle ($(wc -l <<< "$incs") local includes)"
fi
exit $failed
