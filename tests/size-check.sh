#!/bin/bash
# tests/size-check.sh: every file reads in one sitting (host check, run by
# `make check-host`).  In the tracked C files of the tree:
#   - no .c over 800 lines, no .h over 400 lines;
#   - no function over 120 lines, counted from its opening '{' to its closing
#     '}' (both included), whatever the brace style: the files are read with
#     comments, literals and preprocessor lines blanked, and a function is a
#     '{' at brace depth 0 whose declaration (the text since the last ';' or
#     '}' at depth 0) has a parameter list and no '=' before it (so not a
#     struct, union, enum or initializer).
# Exceptions: tests/size-exceptions.txt, one a line, "PATH REASON" for a
# file or "PATH:FUNCTION REASON" for a function; an entry without a reason
# is a FAIL; an entry nothing needs any more gives a NOTE line (prune it).
# One FAIL line per violation, else one PASS line.
#   tests/size-check.sh [--root DIR]  check DIR (default: this tree; the
#                                     tracked files, or every file without git)
#   tests/size-check.sh --self-test   plant an 801-line .c, a 401-line .h,
#                                     121-line functions (kernel style, K&R, on
#                                     a continuation line, code after the '{')
#                                     and an exception without a reason in a copy:
#                                     each must FAIL, the copy without them pass
#   tests/size-check.sh --all         the check, then the self-test (check-host)
# Exit: 0 no violation, 1 otherwise.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
MAX_C=800 MAX_H=400 MAX_FN=120
EXC=tests/size-exceptions.txt

# the check proper, in python3: ARGV max_c max_h max_fn exceptions; the
# files on stdin
SCAN=$(cat <<'PYEOF'
import re, sys

def strip(text):
    """Blank comments, string and char literals and preprocessor lines
    (with their continuations), keeping every newline."""
    out = []
    i, n = 0, len(text)
    bol = True
    while i < n:
        c = text[i]
        if bol and c in ' \t':
            out.append(c); i += 1; continue
        if bol and c == '#':
            while i < n:
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    out.append('\n'); i += 2; continue
                if text[i] == '\n':
                    break
                i += 1
            bol = False
            continue
        bol = False
        if c == '/' and text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(''.join('\n' if ch == '\n' else ' ' for ch in text[i:j])); i = j; continue
        if c == '/' and text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j; continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + ' ' * (j - i - 2) + c if j - i >= 2 else c); i = j; continue
        if c == '\n':
            bol = True
        out.append(c); i += 1
    return ''.join(out)

def functions(text):
    """(name, first line, last line) of each function body: a '{' at depth
    0 whose preceding declaration has a parameter list and no '='."""
    s = strip(text)
    depth, line, start = 0, 1, 0
    decl_from = 0          # where the current top-level declaration began
    cur = None
    for i, c in enumerate(s):
        if c == '\n':
            line += 1
        elif c == '{':
            if depth == 0:
                decl = s[decl_from:i]
                m = re.search(r'([A-Za-z_]\w*)\s*\(', decl)
                is_fn = (m is not None and '=' not in decl.split('(')[0]
                         and re.search(r'\)\s*(\w+(\s*\([^()]*\))?\s*)*$', decl) is not None
                         and not re.match(r'\s*(static\s+|const\s+)*(struct|union|enum)\b[^(]*$', decl))
                cur = (m.group(1), line) if is_fn else None
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                if cur:
                    yield cur[0], cur[1], line
                cur = None
                decl_from = i + 1
            depth = max(depth, 0)
        elif c == ';' and depth == 0:
            decl_from = i + 1
    return

def main():
    max_c, max_h, max_fn, exc = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    allowed, used, bad = {}, set(), 0
    try:
        with open(exc) as f:
            for no, l in enumerate(f, 1):
                if re.match(r'\s*(#|$)', l):
                    continue
                key, _, reason = l.strip().partition(' ')
                if not reason.strip():
                    print(f"FAIL: size-check: {exc}:{no}: exception {key} gives no reason")
                    bad += 1
                allowed[key] = 1
    except OSError:
        pass
    def violation(key, what):
        nonlocal bad
        if key in allowed:
            used.add(key)
            return
        print(f"FAIL: size-check: {what}")
        bad += 1
    nfiles = nfns = 0
    for path in (l.rstrip('\n') for l in sys.stdin if l.strip()):
        try:
            with open(path, errors='replace') as f:
                text = f.read()
        except OSError:
            continue
        nfiles += 1
        lines = text.count('\n') + (0 if text.endswith('\n') or not text else 1)
        lim = max_h if path.endswith('.h') else max_c
        if lines > lim:
            violation(path, f"{path}: {lines} lines (over {lim} for a {'.h' if path.endswith('.h') else '.c'})")
        for name, a, b in functions(text):
            nfns += 1
            if b - a + 1 > max_fn:
                violation(f"{path}:{name}", f"{path}:{a}: {name}(): {b - a + 1} lines (over {max_fn})")
    for k in allowed:
        if k not in used:
            print(f"NOTE: size-check: exception {k} is not needed any more (remove it from {exc})")
    if not bad:
        print(f"PASS: size-check: {nfiles} files and {nfns} functions within {max_c}/{max_h}/{max_fn} lines (.c/.h/function), exceptions: {exc}")
    sys.exit(1 if bad else 0)

main()
PYEOF
)

check() {	# check ROOT
	local root=$1
	(cd "$root" && { git ls-files -- '*.c' '*.h' 2>/dev/null ||
		find . -name '*.[ch]' ! -path './.git/*' -printf '%P\n'; } | sort) |
	(cd "$root" && python3 -c "$SCAN" $MAX_C $MAX_H $MAX_FN "$EXC")
}

self_test() {
	. "$top/tests/include/planted.sh"	# planted_found
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
		echo "int planted_kr(void) {"
		for ((i = 0; i < 120; i++)); do echo "	x += 1;"; done
		echo "}"
		echo "static int planted_cont(int a,"; echo "		int b) {"
		for ((i = 0; i < 120; i++)); do echo "	a += b;"; done
		echo "}"
		echo "static int planted_after(int a) { int x = a;"
		for ((i = 0; i < 120; i++)); do echo "	x += a;"; done
		echo "	return x; }"
		echo "static const struct planted_s planted_table[] = {"
		for ((i = 0; i < 130; i++)); do echo "	{ $i },"; done
		echo "};"
	} > "$tmp/planted/fn.c"
	echo "planted/noreason.c" >> "$tmp/$EXC"
	out=$(check "$tmp")
	planted_found "size-check self-test" "$out" "" 'planted/long.c: 801 lines (over 800' 'planted/long.h: 401 lines (over 400' \
		'planted/fn.c:8: planted_long(): 121 lines (over 120)' 'planted/fn.c:129: planted_kr(): 122 lines' \
		'planted/fn.c:252: planted_cont(): 122 lines' 'planted/fn.c:374: planted_after(): 122 lines' \
		'exception planted/noreason.c gives no reason' || rc=1
	if grep -q 'planted_short\|planted_table' <<<"$out"; then
		echo "FAIL: size-check self-test: a 4-line function or a long initializer is reported"
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
