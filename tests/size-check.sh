#!/bin/bash
# tests/size-check.sh: every file reads in one sitting (host check, run by
# `make check-host`).  In the tracked C files of the tree:
#   - no .c over 800 lines, no .h over 400 lines;
#   - no function over 120 lines, counted from its opening '{' to its closing
#     '}' (both included).  Kernel style, kept by userspace too: a function's
#     '{' stands alone at column 0 and its '}' alone at column 0 (a struct
#     or initializer closes with "};"); the function's name is the identifier
#     before the first '(' of the nearest line above the '{' that starts at
#     column 0 with a letter or '_'.  A column-0 line ending in ") {" (a
#     K&R-style opening this check would miss) is itself a FAIL.
# Exceptions: tests/size-exceptions.txt, one a line, "PATH REASON" for a
# file or "PATH:FUNCTION REASON" for a function; an entry without a reason
# is a FAIL; an entry nothing needs any more gives a NOTE line (prune it).
# One FAIL line per violation, else one PASS line.
#   tests/size-check.sh [--root DIR]  check DIR (default: this tree; the
#                                     tracked files, or every file without git)
#   tests/size-check.sh --self-test   plant an 801-line .c, a 401-line .h,
#                                     a 121-line function, a K&R opening and an
#                                     exception without a reason in a copy:
#                                     each must FAIL, the copy without them pass
#   tests/size-check.sh --all         the check, then the self-test (check-host)
# Exit: 0 no violation, 1 otherwise.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
MAX_C=800 MAX_H=400 MAX_FN=120
EXC=tests/size-exceptions.txt

check() {	# check ROOT
	local root=$1 list
	list=$(cd "$root" && { git ls-files -- '*.c' '*.h' 2>/dev/null ||
		find . -name '*.[ch]' ! -path './.git/*' -printf '%P\n'; } | sort)
	[ -n "$list" ] || list=$(cd "$root" && find . -name '*.[ch]' ! -path './.git/*' -printf '%P\n' | sort)
	(cd "$root" && awk -v max_c=$MAX_C -v max_h=$MAX_H -v max_fn=$MAX_FN -v exc="$EXC" '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	BEGIN {
		while ((getline line < exc) > 0) {
			n_exc_line++
			if (line ~ /^[ \t]*(#|$)/)
				continue
			key = line; sub(/[ \t].*/, "", key)
			reason = line; sub(/^[^ \t]+/, "", reason); reason = trim(reason)
			if (reason == "") {
				printf "FAIL: size-check: %s:%d: exception %s gives no reason\n", exc, n_exc_line, key
				bad++
			}
			allowed[key] = 1
		}
	}
	function violation(key, what) {
		if (key in allowed) { used[key] = 1; return }
		printf "FAIL: size-check: %s\n", what
		bad++
	}
	FNR == 1 {
		if (prev != "")
			endfile()
		prev = FILENAME; sig = ""; open_at = 0
		nfiles++
	}
	/^[A-Za-z_]/ { sig = $0; sig_line = FNR }
	/^[A-Za-z_].*\)[ \t]*\{[ \t]*$/ && !/=/ && !/^(static |const )*(struct|union|enum)[ \t]/ {
		printf "FAIL: size-check: %s:%d: a function opening its { on the signature line (kernel style: { alone at column 0): %s\n", FILENAME, FNR, $0
		bad++
	}
	/^\{[ \t]*$/ { open_at = FNR; name = sig; sub(/\(.*/, "", name); n = split(name, w, /[^A-Za-z0-9_]+/)
		name = w[n]; if (name == "") name = w[n - 1]; nfns++ }
	/^\}[ \t]*(\/\*.*)?$/ && open_at {
		len = FNR - open_at + 1
		if (len > max_fn)
			violation(FILENAME ":" name, sprintf("%s:%d: %s(): %d lines (over %d)", FILENAME, open_at, name, len, max_fn))
		open_at = 0
	}
	function endfile() {
		lim = prev ~ /\.h$/ ? max_h : max_c
		if (lines[prev] > lim)
			violation(prev, sprintf("%s: %d lines (over %d for a %s)", prev, lines[prev], lim, prev ~ /\.h$/ ? ".h" : ".c"))
	}
	{ lines[FILENAME] = FNR }
	END {
		if (prev != "")
			endfile()
		for (k in allowed)
			if (!(k in used))
				printf "NOTE: size-check: exception %s is not needed any more (remove it from %s)\n", k, exc
		if (!bad)
			printf "PASS: size-check: %d files and %d functions within %d/%d/%d lines (.c/.h/function), exceptions: %s\n", nfiles, nfns, max_c, max_h, max_fn, exc
		exit bad ? 1 : 0
	}' $list)
}

self_test() {
	local tmp rc=0 out i
	tmp=$(mktemp -d /tmp/logdev-sizecheck.XXXXXX) || return 1
	(cd "$top" && { git ls-files -z -- '*.c' '*.h'; printf '%s\0' "$EXC"; } | tar --null -T - -cf -) | tar -xf - -C "$tmp"
	out=$(check "$tmp")
	if grep -q '^FAIL' <<<"$out"; then
		echo "FAIL: size-check self-test: the copy fails before anything is planted: $(grep -m3 '^FAIL' <<<"$out")"
		rc=1
	fi
	mkdir -p "$tmp/planted"
	for ((i = 0; i < 801; i++)); do echo "int planted_c_$i;"; done > "$tmp/planted/long.c"
	for ((i = 0; i < 401; i++)); do echo "extern int planted_h_$i;"; done > "$tmp/planted/long.h"
	{
		echo "static int planted_short(int x)"; echo "{"; echo "	return x;"; echo "}"; echo
		echo "int planted_long(int x,"; echo "		 int y)"; echo "{"
		for ((i = 0; i < 119; i++)); do echo "	x += y;"; done
		echo "}"
		echo "int planted_kr(void) {"; echo "	return 0;"; echo "}"
	} > "$tmp/planted/fn.c"
	echo "planted/noreason.c" >> "$tmp/$EXC"
	out=$(check "$tmp")
	for want in 'planted/long.c: 801 lines (over 800' 'planted/long.h: 401 lines (over 400' \
		'planted/fn.c:8: planted_long(): 121 lines (over 120)' 'planted/fn.c:129: a function opening its {' \
		'exception planted/noreason.c gives no reason'; do
		if grep -qF "$want" <<<"$out"; then
			echo "PASS: size-check self-test: a planted violation fails the check ($want)"
		else
			echo "FAIL: size-check self-test: planted violation not found ($want); the check said: $(grep '^FAIL' <<<"$out" | head -n 8 | tr '\n' '|')"
			rc=1
		fi
	done
	if grep -q 'planted_short' <<<"$out"; then
		echo "FAIL: size-check self-test: a 4-line function is reported"
		rc=1
	fi
	rm -rf "$tmp"
	return $rc
}

case ${1:-} in
--root) check "$2" ;;
--self-test) self_test ;;
--all)
	rc=0
	check "$top" || rc=1
	self_test || rc=1
	exit $rc
	;;
'') check "$top" ;;
*) echo "usage: $0 [--root DIR | --self-test | --all]" >&2; exit 2 ;;
esac
