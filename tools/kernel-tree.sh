#!/bin/bash
# Add logdev to a kernel source tree (make kernel-tree KSRC=DIR [PROBES=1]).
#
#   tools/kernel-tree.sh [--probes] [--check] KSRC
#
# What it does to KSRC, all relative to it:
#   kernel/logdev/         symlinks to this repository's kernel/*.c, *.h,
#                          Makefile.objs and compat/ (the kernel feature
#                          tests; the same files the out-of-tree module
#                          builds: never copies), and to
#                          kernel/intree/{Makefile,Kconfig}
#   include/linux/edprint.h, edprint_slots.h, edprint_fmt.h,
#   include/uapi/linux/logdev.h                           symlinks
#   kernel/Makefile        + obj-$(CONFIG_LOGDEV) += logdev/
#   lib/Kconfig.debug      + source "kernel/logdev/Kconfig", after the
#                          Tracers menu (source "kernel/trace/Kconfig"), in
#                          Kernel hacking
#   --probes               the patches of the tree's series,
#                          kernel/intree/probes/X.Y/series (edprint in
#                          kfree_skbmem, kmem_cache_free of SLUB and of
#                          SLOB, mmap/munmap and TLB flush, show_smap,
#                          /proc/PID/wchan), each skipped if already applied
# --check: only check (the first phase below), change nothing.
# --print-series: print the probe series directory for KSRC, change nothing.
#
# The series for a tree: kernel/intree/probes/X.Y/ of the greatest X.Y not
# above the tree's VERSION.PATCHLEVEL (its Makefile): the patches are
# against that kernel line's text (6.1, 6.12, 7.3).  A tree between two
# lines gets the older one's, which applies or is refused like any other.
#
# Idempotent: a tree it already prepared is brought up to date (links to a
# moved repository are re-pointed, links to files no longer in kernel/ are
# removed) and nothing else changes.  It checks everything first and acts
# only if every check passed: a tree it cannot patch (not a kernel tree, not
# writable, an edprint.h or kernel/logdev/ that is not ours, no Tracers menu
# to hook into, a probe patch that neither applies nor is applied) is refused
# with the reasons on stderr, exit 1, and nothing is changed.
# Exit: 0 done (or --check passed), 1 refused, 2 usage.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
probes= check_only= print_series=
ksrc=
for a in "$@"; do
	case $a in
	--probes) probes=1 ;;
	--check) check_only=1 ;;
	--print-series) print_series=1 ;;
	-h|--help) sed -n '2,/^set -euo/{/^set -euo/d;p}' "$0"; exit 0 ;;
	-*) echo "kernel-tree: unknown option '$a'" >&2; exit 2 ;;
	*) [ -z "$ksrc" ] || { echo "kernel-tree: one KSRC only" >&2; exit 2; }; ksrc=$a ;;
	esac
done
[ -n "$ksrc" ] || { echo "usage: tools/kernel-tree.sh [--probes] [--check] [--print-series] KSRC" >&2; exit 2; }

mk_line='obj-$(CONFIG_LOGDEV) += logdev/'
kc_anchor='source "kernel/trace/Kconfig"'
kc_line='source "kernel/logdev/Kconfig"'
pdirs=$top/kernel/intree/probes

why=()
refuse() { why+=("$*"); }

# series_for KSRC: the probe series directory for the tree (above), or fail
series_for() {
	local v d best=
	v=$(awk '/^VERSION = / { a = $3 } /^PATCHLEVEL = / { b = $3 }
		END { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/) print a "." b }' "$1/Makefile" 2>/dev/null)
	[ -n "$v" ] || return 1
	for d in $(cd "$pdirs" && ls -d [0-9]*.[0-9]* 2>/dev/null | grep -E '^[0-9]+\.[0-9]+$' | sort -V); do
		[ "$(printf '%s\n%s\n' "$d" "$v" | sort -V | tail -n 1)" = "$v" ] && best=$d
	done
	[ -n "$best" ] || return 1
	echo "$pdirs/$best"
}

if [ -n "$print_series" ]; then
	series_for "$ksrc" || { echo "kernel-tree: no probe series in $pdirs for $ksrc (its Makefile's VERSION.PATCHLEVEL)" >&2; exit 1; }
	exit 0
fi

# link name -> target, relative to KSRC
declare -A links
for f in "$top"/kernel/*.c "$top"/kernel/*.h "$top/kernel/Makefile.objs"; do
	# not the out-of-tree build's products (logdev.mod.c, the feature
	# tests' answers: the tree's build makes its own)
	case $f in *.mod.c|*/logdev_compat_config.h) continue ;; esac
	links[kernel/logdev/$(basename "$f")]=$f
done
links[kernel/logdev/compat]=$top/kernel/compat
links[kernel/logdev/Makefile]=$top/kernel/intree/Makefile
links[kernel/logdev/Kconfig]=$top/kernel/intree/Kconfig
for f in "$top"/include/linux/edprint*.h; do
	links[include/linux/$(basename "$f")]=$f
done
links[include/uapi/linux/logdev.h]=$top/include/uapi/linux/logdev.h

# A link is ours if it points at a file of the same repository-relative
# path (this clone or another one): kernel/X, kernel/intree/X, include/...
ours() {	# ours LINK-RELATIVE-PATH
	local l=$ksrc/$1 t want
	[ -L "$l" ] || return 1
	t=$(readlink "$l")
	want=${links[$1]:-}
	want=${want#"$top"/}
	case $t in
	*/"$want") [ -n "$want" ] && return 0 ;;
	esac
	# a link in kernel/logdev/ to a file since removed from kernel/
	case $1 in
	kernel/logdev/*) case $t in */kernel/logdev_*.[ch]|*/kernel/*.mod.c|*/kernel/Makefile.objs|*/kernel/compat|*/kernel/intree/*) return 0 ;; esac ;;
	esac
	return 1
}

# ---- phase 1: check everything, change nothing ----
if [ ! -d "$ksrc" ]; then
	refuse "$ksrc is not a directory"
else
	ksrc=$(cd "$ksrc" && pwd)
	for f in Makefile kernel/Makefile lib/Kconfig.debug include/linux include/uapi/linux; do
		[ -e "$ksrc/$f" ] || refuse "$ksrc has no $f: not a kernel source tree"
	done
	if [ -f "$ksrc/Makefile" ] && ! grep -q '^VERSION = ' "$ksrc/Makefile"; then
		refuse "$ksrc/Makefile has no 'VERSION = ': not a kernel source tree"
	fi
fi
if [ ${#why[@]} = 0 ]; then
	for d in kernel include/linux include/uapi/linux lib; do
		[ -w "$ksrc/$d" ] || refuse "$ksrc/$d is not writable"
	done
	for f in kernel/Makefile lib/Kconfig.debug; do
		[ -w "$ksrc/$f" ] || refuse "$ksrc/$f is not writable"
	done
	if [ -e "$ksrc/kernel/logdev" ] || [ -L "$ksrc/kernel/logdev" ]; then
		if [ -L "$ksrc/kernel/logdev" ] || [ ! -d "$ksrc/kernel/logdev" ]; then
			refuse "$ksrc/kernel/logdev exists and is not a directory"
		else
			for e in "$ksrc"/kernel/logdev/* "$ksrc"/kernel/logdev/.[!.]*; do
				[ -e "$e" ] || [ -L "$e" ] || continue
				rel=kernel/logdev/$(basename "$e")
				ours "$rel" || refuse "$ksrc/$rel is not a link made by kernel-tree (kernel/logdev/ is not ours)"
			done
		fi
	fi
	for rel in "${!links[@]}"; do
		case $rel in kernel/logdev/*) continue ;; esac
		if [ -e "$ksrc/$rel" ] || [ -L "$ksrc/$rel" ]; then
			ours "$rel" || refuse "$ksrc/$rel exists and is not a link to logdev's $(basename "$rel")"
		fi
	done
	if ! grep -qxF "$kc_line" "$ksrc/lib/Kconfig.debug" &&
		[ "$(grep -cxF "$kc_anchor" "$ksrc/lib/Kconfig.debug")" != 1 ]; then
		refuse "$ksrc/lib/Kconfig.debug has not exactly one line '$kc_anchor' to hook CONFIG_LOGDEV after"
	fi
	if grep -q 'CONFIG_LOGDEV' "$ksrc/kernel/Makefile" && ! grep -qxF "$mk_line" "$ksrc/kernel/Makefile"; then
		refuse "$ksrc/kernel/Makefile names CONFIG_LOGDEV in a line not made by kernel-tree"
	fi
fi

# probes: each patch applied already (reverse dry run) or applying cleanly
# (forward dry run).  The patches touch disjoint files, so each dry run on
# the unchanged tree says what the real run will do.
to_apply=()
if [ -n "$probes" ] && [ ${#why[@]} = 0 ]; then
	command -v patch > /dev/null || refuse "patch(1) not found (apt-get install patch)"
	pdir=$(series_for "$ksrc") || pdir=
	if [ -z "$pdir" ]; then
		refuse "no probe series in $pdirs for $ksrc (VERSION.PATCHLEVEL of its Makefile: $(sed -n 's/^\(VERSION\|PATCHLEVEL\) = //p' "$ksrc/Makefile" | tr '\n' '.'))"
		pdir=/nonexistent
	fi
	[ -r "$pdir/series" ] || [ "$pdir" = /nonexistent ] || refuse "no $pdir/series"
	declare -A touched
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		pf=$pdir/$p
		[ -r "$pf" ] || { refuse "series names $p, not in $pdir"; continue; }
		for f in $(grep '^+++ ' "$pf" | awk '{ print $2 }' | cut -d/ -f2-); do
			[ -z "${touched[$f]:-}" ] || refuse "$p and ${touched[$f]} both touch $f (the dry runs assume disjoint files)"
			touched[$f]=$p
		done
		if patch -d "$ksrc" -p1 -R -s -f --dry-run < "$pf" > /dev/null 2>&1; then
			continue	# applied already
		elif out=$(patch -d "$ksrc" -p1 -N -s -f --dry-run < "$pf" 2>&1); then
			to_apply+=("$pf")
		else
			refuse "probe patch $p does not apply to $ksrc: $(echo "$out" | head -n 3 | tr '\n' ' ')"
		fi
	done < <(cat "$pdir/series" 2>/dev/null)
fi

if [ ${#why[@]} != 0 ]; then
	echo "kernel-tree: refusing ${ksrc}; nothing was changed:" >&2
	printf '  %s\n' "${why[@]}" >&2
	exit 1
fi
if [ -n "$check_only" ]; then
	echo "kernel-tree: $ksrc can take logdev${probes:+ and its probes of ${pdir#"$top"/}/ (${#to_apply[@]} patches to apply)}"
	exit 0
fi

# ---- phase 2: act ----
changed=0
mkdir -p "$ksrc/kernel/logdev"
# links to files no longer in the repository
for e in "$ksrc"/kernel/logdev/*; do
	[ -L "$e" ] || continue
	rel=kernel/logdev/$(basename "$e")
	[ -n "${links[$rel]:-}" ] || { rm -f "$e"; changed=$((changed + 1)); }
done
for rel in "${!links[@]}"; do
	if [ "$(readlink "$ksrc/$rel" 2>/dev/null)" != "${links[$rel]}" ]; then
		ln -sfn "${links[$rel]}" "$ksrc/$rel"
		changed=$((changed + 1))
	fi
done
if ! grep -qxF "$mk_line" "$ksrc/kernel/Makefile"; then
	printf '\n# logdev (tools/kernel-tree.sh)\n%s\n' "$mk_line" >> "$ksrc/kernel/Makefile"
	changed=$((changed + 1))
fi
if ! grep -qxF "$kc_line" "$ksrc/lib/Kconfig.debug"; then
	sed -i "\\|^$kc_anchor\$|a\\
\\
$kc_line" "$ksrc/lib/Kconfig.debug"
	changed=$((changed + 1))
fi
for pf in "${to_apply[@]}"; do
	patch -d "$ksrc" -p1 -N -s -f --no-backup-if-mismatch < "$pf"
	echo "kernel-tree: applied $(basename "$pf")"
	changed=$((changed + 1))
done
echo "kernel-tree: $ksrc has logdev (kernel/logdev/, CONFIG_LOGDEV in Kernel hacking)${probes:+ and its probes of ${pdir#"$top"/}/}; $changed changes"
