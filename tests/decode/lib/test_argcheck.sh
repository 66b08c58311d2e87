#!/bin/bash
# test_argcheck.sh [CC]: edprint()'s argument-count check (EDP_ARGS_CHECK in
# include/linux/edprint_slots.h), compiled on its own: 0 and 16 arguments
# compile; 17 and 32 fail with one error, which names the limit (before it,
# 17 arguments gave a page of errors about an undefined EDP_MAP<arg17>).
# PASS:/FAIL: lines; exit 0 (tests/include/runtest.sh counts the FAILs).
cc=${1:-${CC:-cc}}
inc=$(cd "$(dirname "$0")/../../../include" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

args() {	# args N: "1, 2, ..., N"
	local i s=
	for ((i = 1; i <= $1; i++)); do s+="${s:+, }$i"; done
	echo "$s"
}
compile() {	# compile N: the check with N arguments (0: none)
	local a
	a=$(args "$1")
	{
		echo '#include <stdint.h>'
		echo '#include <string.h>'
		echo 'typedef uint32_t u32; typedef uint64_t u64;'
		echo '#include <linux/edprint_slots.h>'
		echo "void f(void) { EDP_ARGS_CHECK($a); EDP_MAP(EDP_DECL${a:+, $a}); }"
	} >"$tmp/t$1.c"
	"$cc" -std=gnu11 -Wall -fsyntax-only -I"$inc" "$tmp/t$1.c" >"$tmp/t$1.err" 2>&1
}
for n in 0 1 16; do
	if compile "$n"; then
		echo "PASS: argcheck: $n arguments compile"
	else
		echo "FAIL: argcheck: $n arguments do not compile: $(head -c 400 "$tmp/t$n.err")"
	fi
done
for n in 17 32; do
	if compile "$n"; then
		echo "FAIL: argcheck: $n arguments compile"
		continue
	fi
	errs=$(grep -c 'error:' "$tmp/t$n.err")
	if [ "$errs" = 1 ] && grep -q 'error:.*edprint(): at most 16 arguments after the format' "$tmp/t$n.err"; then
		echo "PASS: argcheck: $n arguments: one error, naming the limit"
	else
		echo "FAIL: argcheck: $n arguments: $errs errors: $(grep 'error:' "$tmp/t$n.err" | head -n 3 | head -c 400)"
	fi
done
