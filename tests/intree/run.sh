#!/bin/bash
# The in-tree check (make check, suite "intree"): logdev added to kernel
# trees of tools/kernels/matrix, compiled and linked into a small kernel.
#   1. tools/kernel-tree.sh on fake trees: refuses what it cannot patch
#      (exit 1, a reason) and changes nothing; applies to a good tree, and
#      a second run changes nothing; picks the probe series by the tree's
#      version.
#   2. For each kernel of INTREE_SOURCES (default "6.1 6.12 newest"), on the
#      pristine files of its linux-source-X.Y that kernel-tree touches
#      (tools/ksrc.sh pristine): logdev and every probe patch of its series
#      apply, each probe function has its edprint(); a second run changes
#      nothing.
#   3. For each kernel of INTREE_KERNELS (default "newest 6.1"), in its
#      prepared tree (tools/ksrc.sh, O=TREECACHE/o-check: tinyconfig plus the
#      least CONFIG_LOGDEV depends on, cached):
#      CONFIG_LOGDEV=y: vmlinux links (the link check: a function logdev
#      calls that its Kconfig does not select is an undefined reference
#      here), no warning from logdev's files and no orphan section;
#      logdev's objects compile with W=1 and no warning; edprint() in a test
#      file (built in and as a module) calls logdev, and built in its site
#      is not in the "__logdev_sites" section (an orphan section in
#      vmlinux).  In O=TREECACHE/o-flip (the same configuration, only
#      prepared):
#      CONFIG_LOGDEV=m: built-in code gets the no-op, a module the real one;
#      CONFIG_LOGDEV=n: no call, no logdev symbol, arguments not evaluated,
#      and a format/argument mismatch fails to compile (-Werror=format).
# Prints its times.  A fresh machine first pays, per tree, the download and
# unpack of its source and the build of o-check's vmlinux (docs/BUILTIN.md
# gives the times); a later run rebuilds logdev's objects and relinks.
# Needs flex bison bc libelf-dev libssl-dev patch xz-utils (tools/deps.sh
# --kernel).  Env: LOGDEV_KCACHE (tools/ksrc.sh), INTREE_SOURCES,
# INTREE_KERNELS (empty: none), JOBS.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
P=intree
. "$top/tests/vm/lib.sh"
t0=$SECONDS
kt=$top/tools/kernel-tree.sh
ksrc=$top/tools/ksrc.sh
tmp=$(mktemp -d /tmp/logdev-intree.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# a listing of every file and link with content hashes: "nothing changed"
snap() { (cd "$1" 2>/dev/null && find . -printf '%y %p %l\n' | sort && find . -type f -exec sha1sum {} + | sort); }

# a fake kernel tree with just what kernel-tree looks at
fake_tree() {
	local d=$1
	mkdir -p "$d/kernel" "$d/lib" "$d/include/linux" "$d/include/uapi/linux"
	printf 'VERSION = 6\nPATCHLEVEL = 1\n' > "$d/Makefile"
	printf 'obj-y = fork.o\nobj-$(CONFIG_TRACING) += trace/\n' > "$d/kernel/Makefile"
	printf 'menu "Kernel hacking"\nsource "kernel/trace/Kconfig"\n\nconfig FOO\n\tbool "foo"\nendmenu\n' > "$d/lib/Kconfig.debug"
}

# refused TREE WHAT PATTERN [ARGS]: kernel-tree exits 1, says PATTERN, and
# TREE is byte for byte as before
refused() {
	local d=$1 what=$2 pat=$3 rc
	shift 3
	snap "$d" > "$tmp/before"
	"$kt" "$@" "$d" > "$tmp/out" 2>&1
	rc=$?
	snap "$d" > "$tmp/after"
	if [ $rc != 1 ]; then
		fail "kernel-tree refuses $what: exit $rc, want 1: $(head -c 300 "$tmp/out")"
	elif ! grep -q -- "$pat" "$tmp/out"; then
		fail "kernel-tree refuses $what: no '$pat' in: $(head -c 300 "$tmp/out")"
	elif ! cmp -s "$tmp/before" "$tmp/after"; then
		fail "kernel-tree refuses $what but changed the tree: $(diff "$tmp/before" "$tmp/after" | head -n 5 | tr '\n' '|')"
	else
		pass "kernel-tree refuses $what, says why, changes nothing"
	fi
}

# ---- 1. fake trees
refused "$tmp/none" "a missing directory" "not a directory"
mkdir -p "$tmp/empty"
refused "$tmp/empty" "a directory that is not a kernel tree" "not a kernel source tree"
fake_tree "$tmp/noanchor"
sed -i '/kernel\/trace\/Kconfig/d' "$tmp/noanchor/lib/Kconfig.debug"
refused "$tmp/noanchor" "a tree without the Tracers menu to hook into" "kernel/trace/Kconfig"
fake_tree "$tmp/theirs"
echo '/* not ours */' > "$tmp/theirs/include/linux/edprint.h"
refused "$tmp/theirs" "a tree with another edprint.h" "include/linux/edprint.h exists"
fake_tree "$tmp/foreign"
mkdir -p "$tmp/foreign/kernel/logdev"
echo 'obj-y += other.o' > "$tmp/foreign/kernel/logdev/Makefile"
refused "$tmp/foreign" "a tree whose kernel/logdev/ is not ours" "kernel/logdev/Makefile is not a link"
fake_tree "$tmp/noprobe"
refused "$tmp/noprobe" "probes that do not apply (no links made first)" "probe patch 0001" --probes
fake_tree "$tmp/good"
"$kt" "$tmp/good" > "$tmp/out" 2>&1
rc=$?
check_eq "kernel-tree applies to a good fake tree (exit)" "$rc" 0
check "kernel-tree links kernel/logdev/ to the repository's sources" \
	"$(ls -l "$tmp/good/kernel/logdev" | head -n 5 | tr '\n' '|')" \
	test "$(readlink "$tmp/good/kernel/logdev/logdev_record.c")" = "$top/kernel/logdev_record.c" -a \
	"$(readlink "$tmp/good/kernel/logdev/Makefile")" = "$top/kernel/intree/Makefile" -a \
	"$(readlink "$tmp/good/include/uapi/linux/logdev.h")" = "$top/include/uapi/linux/logdev.h" -a \
	"$(readlink "$tmp/good/include/linux/edprint.h")" = "$top/include/linux/edprint.h" -a \
	"$(readlink "$tmp/good/kernel/logdev/compat")" = "$top/kernel/compat" -a \
	! -e "$tmp/good/kernel/logdev/logdev_compat_config.h"
check "kernel-tree adds the Makefile line and the Kconfig source line after Tracers" \
	"$(tail -n 2 "$tmp/good/kernel/Makefile" | tr '\n' '|') / $(tr '\n' '|' < "$tmp/good/lib/Kconfig.debug")" \
	sh -c "grep -qxF 'obj-\$(CONFIG_LOGDEV) += logdev/' '$tmp/good/kernel/Makefile' &&
		grep -A2 -xF 'source \"kernel/trace/Kconfig\"' '$tmp/good/lib/Kconfig.debug' | grep -qxF 'source \"kernel/logdev/Kconfig\"'"
snap "$tmp/good" > "$tmp/before"
"$kt" "$tmp/good" > "$tmp/out" 2>&1
rc=$?
snap "$tmp/good" > "$tmp/after"
check "kernel-tree on a prepared tree: exit 0, 0 changes, tree unchanged" \
	"exit $rc, $(cat "$tmp/out"), $(diff "$tmp/before" "$tmp/after" | head -n 3 | tr '\n' '|')" \
	sh -c "[ $rc = 0 ] && grep -q '; 0 changes' '$tmp/out' && cmp -s '$tmp/before' '$tmp/after'"

# the probe series by the tree's version: the greatest X.Y of
# kernel/intree/probes/ not above it
for vp in "7 3 7.3" "7 4 7.3" "6 13 6.12" "6 12 6.12" "6 3 6.1" "6 1 6.1"; do
	read -r v pl want <<< "$vp"
	fake_tree "$tmp/v$v.$pl"
	printf 'VERSION = %s\nPATCHLEVEL = %s\n' "$v" "$pl" > "$tmp/v$v.$pl/Makefile"
	got=$("$kt" --print-series "$tmp/v$v.$pl" 2>&1)
	check_eq "kernel-tree picks the probe series of $want for a $v.$pl tree" "${got#"$top"/}" "kernel/intree/probes/$want"
done
fake_tree "$tmp/old"
printf 'VERSION = 5\nPATCHLEVEL = 10\n' > "$tmp/old/Makefile"
refused "$tmp/old" "probes for a tree older than every series" "no probe series" --probes

# a tree prepared by a checkout with built modules in kernel/: its
# logdev.mod.c (a build product) is not a source to link, and a tree that
# already links one (older kernel-tree) is brought up to date, not refused
# (seen 2026-12-01: "links[$1]: unbound variable" from a worktree with no
# logdev.mod.c, on the cache linked to main)
fake_tree "$tmp/modc"
"$kt" "$tmp/modc" > /dev/null 2>&1
ln -s /elsewhere/kernel/logdev.mod.c "$tmp/modc/kernel/logdev/logdev.mod.c"
"$kt" "$tmp/modc" > "$tmp/out" 2>&1
rc=$?
check "kernel-tree drops a link to another checkout's logdev.mod.c (exit 0, link gone)" \
	"exit $rc: $(head -c 300 "$tmp/out")" \
	sh -c "[ $rc = 0 ] && [ ! -e '$tmp/modc/kernel/logdev/logdev.mod.c' ] && [ ! -L '$tmp/modc/kernel/logdev/logdev.mod.c' ]"
# kernel/logdev.mod.c exists after an in-place module build: a copy of the
# repository's sources with one, so that this checkout's kernel/ is left alone
mkdir -p "$tmp/repo/tools" "$tmp/repo/kernel" "$tmp/repo/include/linux" "$tmp/repo/include/uapi/linux"
cp "$kt" "$tmp/repo/tools/"
cp "$top"/kernel/*.[ch] "$top/kernel/Makefile.objs" "$tmp/repo/kernel/"
cp -r "$top/kernel/intree" "$top/kernel/compat" "$tmp/repo/kernel/"
cp "$top"/include/linux/edprint*.h "$tmp/repo/include/linux/"
cp "$top/include/uapi/linux/logdev.h" "$tmp/repo/include/uapi/linux/"
: > "$tmp/repo/kernel/logdev.mod.c"
"$tmp/repo/tools/kernel-tree.sh" "$tmp/modc" > "$tmp/out" 2>&1
rc=$?
check "kernel-tree does not link kernel/logdev.mod.c (a build product) into the tree" \
	"exit $rc: $(ls "$tmp/modc/kernel/logdev" | tr '\n' ' ')" \
	sh -c "[ $rc = 0 ] && [ ! -L '$tmp/modc/kernel/logdev/logdev.mod.c' ]"

# ---- 2. the pristine files of each source, with the probes
# probe_fn TREE FUNC PATTERN: a definition of FUNC in the files the tree's
# series touches has a line matching PATTERN
probe_fn() {
	local t=$1 files
	files=$(grep -h '^+++ ' "$("$kt" --print-series "$t")"/*.patch | awk '{ print $2 }' | cut -d/ -f2- | sort -u)
	(cd "$t" && awk -v fn="$2" -v pat="$3" '
		$0 ~ "^[a-z].*[ *]" fn "[(]" && $0 !~ /;$/ { in_fn = 1 }
		in_fn && $0 ~ pat { found = 1 }
		in_fn && /^}/ { in_fn = 0 }
		END { exit !found }' $files)
}
check "every probe patch adds edprint() and includes <linux/edprint.h>" \
	"$(grep -c '^+.*edprint(' "$top"/kernel/intree/probes/*/*.patch | tr '\n' ' ')" \
	sh -c "! grep -L '^+#include <linux/edprint.h>' '$top'/kernel/intree/probes/*/*.patch | grep -q ."
for k in ${INTREE_SOURCES-6.1 6.12 newest}; do
	xy=$("$ksrc" -k "$k" version 2> "$tmp/ksrc.err")
	pristine=$("$ksrc" -k "$k" pristine 2>> "$tmp/ksrc.err")
	if [ -z "$pristine" ] || [ ! -d "$pristine" ]; then
		fail "pristine linux-source files of $k: $(tail -n 3 "$tmp/ksrc.err" | tr '\n' '|')"
		continue
	fi
	pt=$tmp/p$xy
	cp -a "$pristine" "$pt"
	mkdir -p "$pt/include/linux" "$pt/include/uapi/linux"
	series=$("$kt" --print-series "$pt")
	npatch=$(grep -vc '^#\|^$' "$series/series")
	"$kt" --probes "$pt" > "$tmp/out" 2>&1
	rc=$?
	napplied=$(grep -c '^kernel-tree: applied ' "$tmp/out")
	check "kernel-tree --probes applies to linux-source-$xy ($k): ${series#"$top"/}, $npatch patches" \
		"exit $rc, $napplied applied: $(head -c 400 "$tmp/out")" \
		test "$rc" = 0 -a "$napplied" = "$npatch" -a "$npatch" -ge 5 -a "$(basename "$series")" = "$xy"
	missing=
	for fp in kfree_skbmem:edprint kmem_cache_free_probe:edprint kmem_cache_free:kmem_cache_free_probe \
		ksys_mmap_pgoff:edprint __vm_munmap:edprint flush_tlb_mm_range:edprint show_smap:edprint \
		proc_pid_wchan:edprint; do
		probe_fn "$pt" "${fp%%:*}" "${fp#*:}[(]" || missing="$missing ${fp%%:*}"
	done
	check_eq "linux-source-$xy: every probe point has its edprint() (kfree_skbmem, kmem_cache_free, mmap, munmap, TLB flush, show_smap, wchan)" \
		"missing:$missing" "missing:"
	snap "$pt" > "$tmp/before"
	"$kt" --probes "$pt" > "$tmp/out" 2>&1
	rc=$?
	snap "$pt" > "$tmp/after"
	check "kernel-tree --probes again on linux-source-$xy: 0 changes" "exit $rc: $(cat "$tmp/out")" \
		sh -c "[ $rc = 0 ] && grep -q '; 0 changes' '$tmp/out' && cmp -s '$tmp/before' '$tmp/after'"
	if [ "$xy" = 6.1 ]; then
		# a tree at another patch level: a hunk that no longer matches
		cp -a "$pristine" "$tmp/p61x"
		mkdir -p "$tmp/p61x/include/linux" "$tmp/p61x/include/uapi/linux"
		sed -i 's/^static void kfree_skbmem(struct sk_buff \*skb)$/static void kfree_skbmem_renamed(struct sk_buff *skb)/' \
			"$tmp/p61x/net/core/skbuff.c"
		sed -i '/^	switch (skb->fclone) {$/,+3d' "$tmp/p61x/net/core/skbuff.c"
		refused "$tmp/p61x" "a 6.1 tree where one probe hunk does not match" "0001-skbuff" --probes
	fi
done

# ---- 3. compile and link in the prepared trees
tp1=$SECONDS

# the test files: one body, built in (obj-y) and as a module (obj-m)
m=$tmp/m
mkdir -p "$m"
cat > "$m/edp_body.h" <<'C'
#include <linux/kernel.h>
#include <linux/edprint.h>
/* never defined: with the no-op edprint() nothing may refer to it */
int edp_never_defined(void);
void edp_call(int x);
void edp_call(int x)
{
	edprint("x=%d y=%d", x, edp_never_defined());
	edprint("in");
}
C
printf '#include "edp_body.h"\n' > "$m/edp_builtin.c"
printf '#include <linux/module.h>\n#include "edp_body.h"\nMODULE_LICENSE("GPL");\n' > "$m/edp_mod.c"
cat > "$m/edp_badfmt.c" <<'C'
#include <linux/kernel.h>
#include <linux/edprint.h>
void edp_bad(int x);
void edp_bad(int x)
{
	edprint("%s", x);
}
C
printf 'obj-y += edp_builtin.o\nobj-m += edp_mod.o\n' > "$m/Kbuild"
# refs OBJ: the logdev symbols OBJ refers to or defines, and the
# never-defined argument, one line
refs() { nm "$1" 2>/dev/null | awk '$NF ~ /^(__logdev_print|logdev_key|__logdev_reserve|__logdev_commit|logdev_site_enc|edp_never_defined)$/ { print $NF }' | sort -u | tr '\n' ' '; }
# calls WHAT OBJ: OBJ refers to logdev's key and print functions and to the
# argument (the real edprint())
calls() {
	local r
	r=$(refs "$2")
	case " $r" in
	*" __logdev_print "*) ;;
	*) r="$r(no __logdev_print)" ;;
	esac
	case " $r" in
	*" edp_never_defined "*) ;;
	*) r="$r(no edp_never_defined)" ;;
	esac
	case " $r" in
	*" logdev_key "*) ;;
	*) r="$r(no logdev_key)" ;;
	esac
	case $r in
	*"(no "*) fail "$1: refers to $r" ;;
	*) pass "$1 ($r)" ;;
	esac
}
sites_sec() { readelf -SW "$1" 2>/dev/null | grep -cE '\] __logdev_sites '; }
nobj=$(make -s --no-print-directory -f - <<MK
include $top/kernel/Makefile.objs
all:
	@echo \$(logdev-y)
MK
)

# intree_kernel K: section 3 on the tree of matrix kernel K
intree_kernel() {
	local k=$1 xy tree o of tk tc rc missing nw ob w und cfg yes no
	kmake() { make -s -C "$tree" O="$o" -j"${JOBS:-2}" "$@"; }
	mbuild() { rm -f "$m"/*.o; kmake M="$m" edp_builtin.o edp_mod.o > "$m/build.log" 2>&1; }
	tk=$SECONDS
	xy=$("$ksrc" -k "$k" version 2> "$tmp/ksrc.err") &&
		tree=$("$ksrc" -k "$k" tree 2>> "$tmp/ksrc.err") && o=$("$ksrc" -k "$k" config check 2>> "$tmp/ksrc.err") &&
		of=$("$ksrc" -k "$k" config flip 2>> "$tmp/ksrc.err")
	if [ -z "${of:-}" ] || [ ! -f "$o/.config" ] || [ ! -f "$of/.config" ]; then
		fail "prepared tree of $k: $(tail -n 5 "$tmp/ksrc.err" | tr '\n' '|')"
		return
	fi
	grep -v '^/' "$tmp/ksrc.err" || true
	# one user of this tree cache at a time (its links point at one checkout)
	exec 8> "$(dirname "$o")/.intree.lock"
	flock 8

	# CONFIG_LOGDEV=y: the link check
	if ! "$ksrc" -k "$k" set check y > "$tmp/set.log" 2>&1; then
		fail "$xy: CONFIG_LOGDEV=y: $(cat "$tmp/set.log")"
		return
	fi
	tc=$SECONDS
	kmake vmlinux > "$tmp/vmlinux.log" 2>&1
	rc=$?
	und=$(grep -oE "undefined reference to \`[^']*'" "$tmp/vmlinux.log" | sort -u | tr '\n' ' ')
	check "$xy: vmlinux with CONFIG_LOGDEV=y links (tinyconfig + what logdev needs; $((SECONDS - tc)) s)" \
		"exit $rc${und:+, $und}: $(grep -m 3 -E 'error|Error' "$tmp/vmlinux.log" | tr '\n' '|')" \
		sh -c "[ $rc = 0 ] && nm '$o/vmlinux' | grep -q ' T __logdev_print\$'"
	w=$(grep -E 'kernel/logdev/.*warning:|orphan section.*logdev|warning:.*__logdev' "$tmp/vmlinux.log" || true)
	check_eq "$xy: vmlinux: no warning from logdev's files or sites (orphan section)" "$w" ""

	rm -f "$o"/kernel/logdev/*.o
	tc=$SECONDS
	kmake W=1 kernel/logdev/ > "$tmp/w1.log" 2>&1
	rc=$?
	missing=
	for ob in $nobj; do [ -f "$o/kernel/logdev/$ob" ] || missing="$missing $ob"; done
	check "$xy: logdev's objects compile in-tree (CONFIG_LOGDEV=y, W=1): $(echo $nobj | wc -w) objects in $((SECONDS - tc)) s" \
		"exit $rc, missing:$missing: $(grep -m 3 -E 'error|Error' "$tmp/w1.log" | tr '\n' '|')" \
		test "$rc" = 0 -a -z "$missing" -a -f "$o/kernel/logdev/built-in.a"
	# the kernel feature tests (kernel/compat/) ran in the tree's build:
	# struct module's memory is mem[] since 6.4, core_layout before
	cfg=$o/kernel/logdev/logdev_compat_config.h
	if [ "$(printf '%s\n6.4\n' "$xy" | sort -V | head -n 1)" = 6.4 ]; then
		yes=MODULE_MEM no=MODULE_LAYOUT
	else
		yes=MODULE_LAYOUT no=MODULE_MEM
	fi
	check "$xy: the feature tests answered for the tree's kernel (${yes,,}, no ${no,,})" \
		"$(grep -h 'MODULE_' "$cfg" 2>&1 | tr '\n' '|')" \
		sh -c "grep -qx '#define LD_HAVE_$yes 1' '$cfg' && ! grep -q 'define LD_HAVE_$no' '$cfg'"
	nw=$(grep -c 'warning:' "$tmp/w1.log")
	check_eq "$xy: logdev's objects: no warning with W=1" "$nw warnings$( [ "$nw" = 0 ] || grep -m 3 'warning:' "$tmp/w1.log" | tr '\n' '|')" "0 warnings"
	if mbuild; then
		calls "$xy: CONFIG_LOGDEV=y: built-in edprint() calls logdev" "$m/edp_builtin.o"
		calls "$xy: CONFIG_LOGDEV=y: a module's edprint() calls logdev" "$m/edp_mod.o"
		check_eq "$xy: CONFIG_LOGDEV=y: built-in sites are not in section __logdev_sites (no orphan in vmlinux)" \
			"$(sites_sec "$m/edp_builtin.o")" 0
		check_eq "$xy: CONFIG_LOGDEV=y: a module's sites are in section __logdev_sites" "$(sites_sec "$m/edp_mod.o")" 1
	else
		fail "$xy: CONFIG_LOGDEV=y: test files do not build: $(grep -m 3 -E 'error' "$m/build.log" | tr '\n' '|')"
	fi

	# CONFIG_LOGDEV=m and n, in o-flip (prepared once)
	o=$of
	if [ ! -f "$o/include/generated/autoconf.h" ] || [ ! -f "$o/scripts/mod/modpost" ]; then
		echo "intree: $xy: make prepare of $o (once per cache)"
		tc=$SECONDS
		kmake prepare > "$tmp/prepare.log" 2>&1 ||
			{ fail "$xy: make prepare: $(tail -n 5 "$tmp/prepare.log" | tr '\n' '|')"; return; }
		echo "intree: $xy: prepare took $((SECONDS - tc)) s"
	fi
	if "$ksrc" -k "$k" set flip m > "$tmp/set.log" 2>&1 && mbuild; then
		check_eq "$xy: CONFIG_LOGDEV=m: built-in edprint() is the no-op (IS_REACHABLE)" "$(refs "$m/edp_builtin.o")" ""
		calls "$xy: CONFIG_LOGDEV=m: a module's edprint() calls logdev" "$m/edp_mod.o"
	else
		fail "$xy: CONFIG_LOGDEV=m: $(cat "$tmp/set.log") $(grep -m 3 -E 'error' "$m/build.log" 2>/dev/null | tr '\n' '|')"
	fi
	if "$ksrc" -k "$k" set flip n > "$tmp/set.log" 2>&1 && mbuild; then
		check_eq "$xy: CONFIG_LOGDEV=n: built-in edprint() compiles to no call, arguments not evaluated" \
			"$(refs "$m/edp_builtin.o")" ""
		check_eq "$xy: CONFIG_LOGDEV=n: a module's edprint() compiles to no call" "$(refs "$m/edp_mod.o")" ""
		check_eq "$xy: CONFIG_LOGDEV=n: no site data left" "$(sites_sec "$m/edp_builtin.o")$(sites_sec "$m/edp_mod.o")" 00
		kmake M="$m" ccflags-y=-Werror=format edp_badfmt.o > "$tmp/bad.log" 2>&1
		rc=$?
		check "$xy: CONFIG_LOGDEV=n: a format/argument mismatch fails to compile (-Werror=format)" \
			"exit $rc: $(grep -m 2 -E 'error|warning' "$tmp/bad.log" | tr '\n' '|')" \
			sh -c "[ $rc != 0 ] && grep -q 'error: format .%s. expects argument of type' '$tmp/bad.log' &&
				grep -q 'edp_badfmt.c:6:.*edprint' '$tmp/bad.log'"
	else
		fail "$xy: CONFIG_LOGDEV=n: $(cat "$tmp/set.log") $(grep -m 3 -E 'error' "$m/build.log" 2>/dev/null | tr '\n' '|')"
	fi
	exec 8>&-
	times="$times $xy $((SECONDS - tk)) s,"
}
times=
for k in ${INTREE_KERNELS-newest 6.1}; do
	intree_kernel "$k"
done
echo "intree: $((SECONDS - t0)) s (fake trees and pristine files $((tp1 - t0)) s, in-tree compiles and links:${times:- none}; load average $(cut -d' ' -f1-3 /proc/loadavg))"
finish
