#!/bin/bash
# tests/artefact-check.sh: no build or fuzzer artefact is tracked (host
# check, run by `make check-host`).  In the tracked files of the tree:
#   - none is ignored by the .gitignore files (git ls-files -ci
#     --exclude-standard: a file added with -f, or tracked before its rule);
#   - none is named like a build product (*.o *.a *.so *.ko *.mod *.mod.c
#     *.cmd *.order *.symvers *.gcda *.gcno *.pyc, a.out, core, vgcore.*) or
#     like libFuzzer's output (crash-* leak-* timeout-* oom-* slow-unit-*)
#     outside tests/fuzz/crashes/ (where a fixed bug's input is committed
#     under a name saying what it was);
#   - none is an ELF file (a compiled program or object).
# One FAIL line per artefact, else one PASS line.
#   tests/artefact-check.sh [--root DIR]  check DIR (default: this tree; a git
#                                         work tree)
#   tests/artefact-check.sh --self-test   in a scratch repository, track a
#                                         crash-* file, an object, an ELF
#                                         program and an ignored file: each
#                                         must FAIL, the clean one pass
#   tests/artefact-check.sh --all         the check, then the self-test
# Exit: 0 nothing found, 1 otherwise.  Needs git.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

check() {	# check ROOT
	local root=$1 bad=0 n f
	cd "$root" || return 1
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		echo "FAIL: artefact-check: $f: tracked but ignored by .gitignore (git rm --cached it)"
		bad=$((bad + 1))
	done < <(git ls-files -ci --exclude-standard)
	while IFS= read -r f; do
		case $f in
		tests/fuzz/crashes/*) continue ;;
		esac
		case ${f##*/} in
		*.o | *.a | *.so | *.ko | *.mod | *.mod.c | *.cmd | *.order | *.symvers | *.gcda | *.gcno | *.pyc | \
		a.out | core | vgcore.* | crash-* | leak-* | timeout-* | oom-* | slow-unit-*)
			echo "FAIL: artefact-check: $f: a build or fuzzer artefact is tracked (git rm it)"
			bad=$((bad + 1))
			continue
			;;
		esac
		if [ -f "$f" ] && [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then
			echo "FAIL: artefact-check: $f: an ELF file (compiled) is tracked (git rm it)"
			bad=$((bad + 1))
		fi
	done < <(git ls-files)
	n=$(git ls-files | wc -l)
	[ "$bad" = 0 ] && echo "PASS: artefact-check: none of the $n tracked files is a build or fuzzer artefact"
	[ "$bad" = 0 ]
}

self_test() {
	. "$top/tests/include/planted.sh"	# planted_found
	local tmp rc=0 out want
	tmp=$(mktemp -d /tmp/logdev-artefact.XXXXXX) || return 1
	(
		cd "$tmp" && git init -q . && mkdir -p tests/fuzz/crashes/capture src &&
		printf 'build/\n*.o\n' > .gitignore && echo 'int x;' > src/a.c &&
		printf 'x' > tests/fuzz/crashes/capture/sb-next-before-load &&
		git add -A
	) || { echo "FAIL: artefact-check self-test: no scratch repository"; rm -rf "$tmp"; return 1; }
	out=$(check "$tmp")
	if ! grep -q '^PASS: artefact-check' <<<"$out"; then
		echo "FAIL: artefact-check self-test: a clean repository fails: $out"
		rc=1
	fi
	(
		cd "$tmp" && : > tests/fuzz/crash-da39a3ee5e6b4b0d3255bfef95601890afd80709 &&
		echo 'x' > src/leak-1234 && mkdir -p build && echo x > build/out.txt &&
		cp "$(type -P true)" src/prog && echo x > src/a.o &&
		git add tests/fuzz src/leak-1234 src/prog && git add -f build/out.txt src/a.o
	)
	out=$(check "$tmp")
	planted_found "artefact-check self-test" "$out" "FAIL: artefact-check: " 'tests/fuzz/crash-da39a3ee5e6b4b0d3255bfef95601890afd80709: a build or fuzzer artefact' \
		'src/leak-1234: a build or fuzzer artefact' 'src/prog: an ELF file' \
		'build/out.txt: tracked but ignored' 'src/a.o: tracked but ignored' || rc=1
	rm -rf "$tmp"
	return $rc
}

case ${1:-} in
--root) check "$2" ;;
--self-test) self_test ;;
--all)
	rc=0
	(check "$top") || rc=1
	self_test || rc=1
	exit $rc
	;;
'') check "$top" ;;
*) echo "usage: $0 [--root DIR | --self-test | --all]" >&2; exit 2 ;;
esac
