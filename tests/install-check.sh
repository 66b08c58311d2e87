#!/bin/bash
# `make install` gives a module author what the README promises: the reader,
# the headers and Module.symvers, enough to build a module that calls
# edprint() against the installed tree alone (not this source tree), and
# only the product module in the modules directory.
#   tests/install-check.sh          (needs kernel/ built for the VM kernel)
# Prints PASS:/FAIL: lines; exits non-zero on any FAIL.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kver=$("$top/tools/kver.sh") || { echo "FAIL: install: no VM kernel (tools/deps.sh)"; exit 1; }
kdir=/lib/modules/$kver/build
tmp=$(mktemp -d /tmp/logdev-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: install: $*"; failed=1; }
dest=$tmp/root prefix=/usr/local

if ! make -s -C "$top" install DESTDIR="$dest" PREFIX="$prefix" KDIR="$kdir" > "$tmp/log" 2>&1; then
	fail "make install failed: $(tail -n 5 "$tmp/log" | tr '\n' '|')"
	exit 1
fi
inc=$dest$prefix/include
for f in bin/logdev include/uapi/linux/logdev.h include/linux/edprint.h share/logdev/Module.symvers \
	share/man/man1/logdev.1 share/bash-completion/completions/logdev; do
	[ -e "$dest$prefix/$f" ] || fail "$prefix/$f not installed"
done
# the man page reads as one (man -l), and the completion completes the installed reader's verbs
if command -v man > /dev/null; then
	MANWIDTH=80 man -l "$dest$prefix/share/man/man1/logdev.1" 2>/dev/null | grep -q '^EXIT STATUS' &&
		echo "PASS: install: man -l shows the installed logdev(1)" ||
		fail "man -l $prefix/share/man/man1/logdev.1 does not render an EXIT STATUS section"
fi
got=$(bash -c 'source "$1" && COMP_WORDS=("$2" de) && COMP_CWORD=1 && _logdev && echo "${COMPREPLY[*]}"' \
	_ "$dest$prefix/share/bash-completion/completions/logdev" "$dest$prefix/bin/logdev" 2>&1)
[ "$got" = "deltas" ] && echo "PASS: install: the installed bash completion completes 'logdev de' to deltas" ||
	fail "the installed completion gives '$got' for 'logdev de' (want deltas)"
# the trace-cmd plugin, where libtraceevent looks (tools/traceevent-plugin/Makefile)
pl=$(make -s -C "$top/tools/traceevent-plugin" print-plugin-dir DESTDIR="$dest")/plugin_logdev.so
[ -f "$pl" ] && echo "PASS: install: plugin_logdev.so installed in ${pl#$dest}" ||
	fail "plugin_logdev.so not installed in ${pl#$dest} (libtraceevent-dev missing? tools/deps.sh)"
kos=$(cd "$dest" && find . -name '*.ko' | sed 's|.*/||' | sort | tr '\n' ' ')
[ "$kos" = "logdev.ko " ] && echo "PASS: install: the modules directory gets logdev.ko only" ||
	fail "modules installed: '$kos' (want logdev.ko only)"

# a module author's module, built against the installed headers only
mkdir -p "$tmp/mod"
cat > "$tmp/mod/ldinst.c" <<'C'
#include <linux/module.h>
#include <linux/edprint.h>
static int __init ldinst_init(void)
{
	edprint("in");
	edprint("len=%d name=%s", 42, "x");
	edprint("%pS", ldinst_init);
	return 0;
}
static void __exit ldinst_exit(void) { }
module_init(ldinst_init);
module_exit(ldinst_exit);
MODULE_LICENSE("GPL");
C
echo "obj-m := ldinst.o
ccflags-y := -I$inc" > "$tmp/mod/Kbuild"
if make -s -C "$kdir" M="$tmp/mod" KBUILD_EXTRA_SYMBOLS="$dest$prefix/share/logdev/Module.symvers" \
	modules > "$tmp/mod.log" 2>&1 && [ -f "$tmp/mod/ldinst.ko" ]; then
	dep=$(modinfo -F depends "$tmp/mod/ldinst.ko" 2>/dev/null)
	[ "$dep" = logdev ] && echo "PASS: install: a module calling edprint() builds against the installed headers and Module.symvers (depends: logdev)" ||
		fail "the module built but depends on '$dep', not logdev"
else
	fail "a module calling edprint() does not build against the installed tree: $(grep -m 3 -E 'error|warning' "$tmp/mod.log" | tr '\n' '|')"
fi
exit $failed
