#!/bin/bash
# tests/doc-links.sh: the references between the docs resolve (host check,
# run by `make check-host`).  In the tracked files of the tree:
#   - a markdown link [text](target) of a *.md file (not a URL) names a file
#     or folder that exists, relative to the .md file, and its #anchor (on a
#     .md target or alone) is a heading of that file, as GitHub makes anchors;
#   - a mention of a .md file by path (docs/NAME.md, tests/fuzz/README.md),
#     in any tracked text file (docs, comments of .c/.h/.sh, Makefiles),
#     exists, from the top or from the mentioning file's folder;
#   - a path of the repository named in a *.md file (tests/..., userspace/...,
#     tools/..., bench/..., kernel/logdev*..., kernel/test/..., include/linux/
#     edprint*...) ending in .c .h .sh .py or .md exists; so does a file of
#     ours named alone in backquotes (`test_x.c`, `logdev_y.h`, `cli-z.c`;
#     not in docs/log/, which names what was then).  Placeholders are skipped: a
#     segment in capitals (NAME, VERB, X.Y), *, <, {, $ (for .md mentions:
#     NAME.md, X.md); so are paths under a build/ or out/ folder (made by a
#     build).
# One FAIL line per broken reference (FILE:LINE: what), else one PASS line.
#   tests/doc-links.sh [--root DIR]   check DIR (default: this tree)
#   tests/doc-links.sh --self-test    plant a broken link, a mention of a
#                                     missing docs/*.md and of a missing test
#                                     file in a copy: each must FAIL
#   tests/doc-links.sh --all          the check, then the self-test (what
#                                     check-host runs)
# Exit: 0 no broken reference, 1 otherwise.  Needs git and python3.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

check() {	# check ROOT: the check proper
	local root=$1
	(cd "$root" && { git ls-files 2>/dev/null || find . -type f ! -path './.git/*' -printf '%P\n'; }) |
	python3 -c '
import os, re, sys
root = sys.argv[1]
files = [l.rstrip("\n") for l in sys.stdin if l.strip()]
text_ext = (".md", ".c", ".h", ".sh", ".py", ".txt", ".conf", ".1", ".completion")
link_re = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
md_re = re.compile(r"(?<![A-Za-z0-9_./~$-])((?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]*[A-Za-z0-9_-]\.md)\b")
path_re = re.compile(r"(?<![A-Za-z0-9_./~$-])((?:tests|userspace|tools|bench|docs|kernel/(?:test|compat|intree))/[A-Za-z0-9_./+-]*"
                     r"|kernel/logdev[A-Za-z0-9_./+-]*"
                     r"|include/linux/edprint[A-Za-z0-9_./+-]*|include/uapi/linux/logdev[A-Za-z0-9_./+-]*)")
# one of our files named without its folder, in backquotes: `test_x.c`
# (names of the kernel or other projects, and what a build makes, are not
# ours to check)
bare_re = re.compile(r"`((?:logdev|lgd|edprint|cli-|test_|vmtool|soaktool|guest-|check-|fuzz_|ring_)"
                     r"[A-Za-z0-9_.+-]*\.(?:c|h|sh|py))`")
generated = {"logdev_compat_config.h"}
def slug(h):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to -."""
    h = h.strip().lower()
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", h))
anchor_cache = {}
def anchors(path):
    if path not in anchor_cache:
        a, count = set(), {}
        try:
            fence = False
            for l in open(path, encoding="utf-8", errors="replace"):
                if l.startswith("```"):
                    fence = not fence
                m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", l)
                if m:
                    s0 = slug(m.group(1))
                    k = count.get(s0, 0)
                    count[s0] = k + 1
                    a.add(s0 if k == 0 else "%s-%d" % (s0, k))
        except OSError:
            pass
        anchor_cache[path] = a
    return anchor_cache[path]
def placeholder(p):
    return (re.search(r"(^|[/._-])[A-Z]{2,}|X\.Y|[*<>{}$]", p) is not None or
            re.search(r"(^|/)(build|out)/", p) is not None)
def exists(p, here):
    return os.path.exists(os.path.join(root, p)) or os.path.exists(os.path.join(root, here, p))
basenames = set(os.path.basename(x) for x in files)
bad = 0
checked = 0
for f in files:
    base = os.path.basename(f)
    if f == "tests/doc-links.sh":	# its self-test names missing files on purpose
        continue
    if not (f.endswith(text_ext) or base.startswith("Makefile") or base == "Kbuild"):
        continue
    try:
        lines = open(os.path.join(root, f), encoding="utf-8", errors="replace").read().split("\n")
    except OSError:
        continue
    here = os.path.dirname(f)
    is_md = f.endswith(".md")
    for n, line in enumerate(lines, 1):
        seen = set()
        if is_md:
            for m in link_re.finditer(line):
                t = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", t):
                    continue
                t, _, anchor = t.partition("#")
                checked += 1
                seen.add(t)
                target = os.path.join(root, here, t)
                if t and not os.path.exists(target):
                    print("FAIL: doc-links: %s:%d: link to %s: no such file" % (f, n, t))
                    bad += 1
                elif anchor and (not t or t.endswith(".md")) and \
                        anchor not in anchors(target if t else os.path.join(root, f)):
                    print("FAIL: doc-links: %s:%d: link to %s#%s: no such heading" % (f, n, t, anchor))
                    bad += 1
        for m in md_re.finditer(line):
            p = m.group(1)
            if p in seen or re.search(r"[*<>{}$]|(^|/)(NAME|X|FILE|TOPIC)\.md$", p):
                continue
            checked += 1
            seen.add(p)
            if not exists(p, here):
                print("FAIL: doc-links: %s:%d: names %s: no such file" % (f, n, p))
                bad += 1
        if not is_md:
            continue
        if not f.startswith("docs/log/"):	# history names what was then
            for m in bare_re.finditer(line):
                b = m.group(1)
                if placeholder(b) or b in seen or b in generated:
                    continue
                checked += 1
                seen.add(b)
                if b not in basenames:
                    print("FAIL: doc-links: %s:%d: names %s: no tracked file has that name" % (f, n, b))
                    bad += 1
        for m in path_re.finditer(line):
            p = m.group(1).rstrip(".")
            if p in seen or placeholder(p) or not p.endswith((".c", ".h", ".sh", ".py", ".md")):
                continue
            checked += 1
            if not exists(p, here):
                print("FAIL: doc-links: %s:%d: names %s: no such file" % (f, n, p))
                bad += 1
if not bad:
    print("PASS: doc-links: %d references in %d files resolve" % (checked, len(files)))
sys.exit(1 if bad else 0)
' "$root"
}

# self-test: in a copy of the tree's tracked .md files and the files they
# name, each planted fault must give its FAIL line (and the copy without them
# must not, apart from what the real tree has)
self_test() {
	. "$top/tests/include/planted.sh"	# planted_found
	local tmp rc=0 out
	tmp=$(mktemp -d /tmp/logdev-doclinks.XXXXXX) || return 1
	(cd "$top" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$tmp"
	mkdir -p "$tmp/docs"
	{
		echo "# planted"
		echo "See [the layout](NO-SUCH-PLANTED.md) and docs/PLANTED-missing.md."
		echo "The test is \`tests/decode/test_planted_gone.c\`."
		echo "Its file is \`test_planted_bare.c\`, see [rings](RING.md#no-such-planted-heading)."
		echo "The module file kernel/test/logdev_test_planted.c, [here](#nor-this-one)."
	} > "$tmp/docs/planted.md"
	echo "/* layout: docs/PLANTED-in-comment.md */" > "$tmp/tests/planted.c"
	out=$(check "$tmp")
	planted_found "doc-links self-test" "$out" "FAIL: doc-links: " 'docs/planted.md:2: link to NO-SUCH-PLANTED.md' 'docs/planted.md:2: names docs/PLANTED-missing.md' \
		'docs/planted.md:3: names tests/decode/test_planted_gone.c' 'tests/planted.c:1: names docs/PLANTED-in-comment.md' \
		'docs/planted.md:4: names test_planted_bare.c: no tracked file' 'docs/planted.md:4: link to RING.md#no-such-planted-heading: no such heading' \
		'docs/planted.md:5: names kernel/test/logdev_test_planted.c' 'docs/planted.md:5: link to #nor-this-one: no such heading' || rc=1
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
