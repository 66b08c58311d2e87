#!/bin/bash
# `make install` and `make dkms-install` give a module author what docs/INSTALL.md
# promises, checked without touching the system:
#  - `make install DESTDIR=...`: the layout (the reader dynamic and static,
#    man page, completion, headers under include/logdev/ and not the system's
#    linux/, Module.symvers per kernel version, the module template, the
#    plugin), logdev.ko and no test module, the notes on another kernel than
#    the running one and on signatures, a signed install (SIGN_KEY/SIGN_CERT),
#    a KDIR that is no kernel tree refused, `make uninstall` leaving no file;
#  - the module template built from the installed files alone, its CRC of
#    __logdev_print the installed Module.symvers' one;
#  - `make install-module KVER=NAME` and the installed template built for
#    every kernel of tools/kernels/matrix (each where it builds: its chroot
#    for newest), with that kernel's vermagic and logdev's CRC;
#  - `make dkms-install` into private DKMS trees (dkms --dkmstree,
#    --sourcetree, --installtree, --no-depmod; its MOK key in a temporary
#    directory) for every kernel of the matrix: logdev.ko built, signed and
#    installed per kernel with that kernel's vermagic, its Module.symvers
#    kept where the template finds it;
#  - a VM boot of the cloud kernel with the installed logdev.ko and static
#    reader and the template module: the template's "hello %d" records read
#    back by the installed reader.
#   tests/install-check.sh          (the kernels: tools/kernels/kernel.sh,
#                                    fetched when missing; INSTALL_KERNELS="6.1
#                                    newest" to check only some)
# Prints PASS:/FAIL: lines; exits non-zero on any FAIL.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernels=${INSTALL_KERNELS:-$("$top/tools/kernels/kernel.sh" names | tr '\n' ' ')}
# the default kernel: make install, uninstall, signing and the VM boot
kname=$("$top/tools/kernels/kernel.sh" names | head -n 1)
eval "$("$top/tools/kernels/kernel.sh" env "$kname")" || { echo "FAIL: install: no kernel $kname (tools/kernels/kernel.sh)"; exit 1; }
kver=$KVER kdir=$KDIR
tmp=$(mktemp -d /tmp/logdev-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed=0
pass() { echo "PASS: install: $*"; }
fail() { echo "FAIL: install: $*"; failed=1; }
# ok WHAT WHY CMD...: PASS WHAT if CMD succeeds, else FAIL "WHAT: WHY"
ok() { local what=$1 why=$2; shift 2; if "$@"; then pass "$what"; else fail "$what: $why"; fi; }
dest=$tmp/root prefix=/usr/local
P=$dest$prefix
version=$(sed -n 's/^#define LOGDEV_VERSION[^"]*"\(.*\)".*/\1/p' "$top/userspace/version.h")
arch=$(uname -m)
vermagic() { modinfo -F vermagic "$1" 2>/dev/null | cut -d' ' -f1; }
# crc FILE SYMBOL: the CRC a module records for SYMBOL (its __versions)
crc() { modprobe --dump-modversions "$1" 2>/dev/null | awk -v s="$2" '$2 == s { print $1; exit }'; }
# symvers_crc FILE SYMBOL: SYMBOL's CRC in a Module.symvers, 0x%08x
symvers_crc() {
	local v
	v=$(awk -v s="$2" '$2 == s { print $1; exit }' "$1" 2>/dev/null)
	[ -n "$v" ] && printf '0x%08x\n' "$v"
}

# template_bound KO LOG CRC KVER KDIR: is the template module KO (built for
# KVER, its build's output in LOG) bound to logdev's __logdev_print?  With
# CONFIG_MODVERSIONS it records CRC (logdev's Module.symvers); without it
# (Debian's 7.3 cloud kernel) modpost found the symbol in that file (no
# "undefined!") and the module depends on logdev.  Prints how, or what is
# wrong and returns 1.
template_bound() {
	local ko=$1 log=$2 kc=$3 kv=$4 kd=$5 got
	got=$(vermagic "$ko")
	[ "$got" = "$kv" ] || { echo "vermagic '$got' (want $kv)"; return 1; }
	if grep -q '^CONFIG_MODVERSIONS=y' "$kd/.config"; then
		got=$(crc "$ko" __logdev_print)
		[ -n "$got" ] && [ "$got" = "$kc" ] || { echo "CRC of __logdev_print '$got' (logdev's '$kc')"; return 1; }
		echo "CRC of __logdev_print $got"
	else
		got=$(grep -m 1 '__logdev_print.*undefined' "$log")
		[ -z "$got" ] || { echo "modpost: $got"; return 1; }
		got=$(modinfo -F depends "$ko" 2>/dev/null)
		[ "$got" = logdev ] || { echo "no modversions; depends '$got' (want logdev)"; return 1; }
		echo "no modversions: __logdev_print found in logdev's Module.symvers, depends: logdev"
	fi
}

# ---- make install DESTDIR=...
if ! make -C "$top" install DESTDIR="$dest" PREFIX="$prefix" KVER="$kname" > "$tmp/log" 2>&1; then
	fail "make install failed: $(tail -n 5 "$tmp/log" | tr '\n' '|')"
	exit 1
fi
missing=
for f in bin/logdev bin/logdev.static share/man/man1/logdev.1 share/bash-completion/completions/logdev \
	include/logdev/linux/edprint.h include/logdev/linux/edprint_fmt.h include/logdev/linux/edprint_slots.h \
	include/logdev/uapi/linux/logdev.h lib/logdev/$kver/Module.symvers \
	share/logdev/module-template/Makefile share/logdev/module-template/Kbuild \
	share/logdev/module-template/hello_logdev.c; do
	[ -f "$P/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass "make install puts the readers, man page, completion, headers, Module.symvers of $kver and the module template under $prefix" ||
	fail "not installed under $prefix:$missing"
stray=$(cd "$P/include" && find . -path ./logdev -prune -o -type f -print | tr '\n' ' ')
[ -z "$stray" ] && pass "headers only in $prefix/include/logdev/ (nothing in the system's include/linux/)" ||
	fail "headers outside $prefix/include/logdev/: $stray"
grep -q "KBUILD_EXTRA_SYMBOLS\|@PREFIX@" "$P/share/logdev/module-template/Makefile" &&
	! grep -q "@PREFIX@" "$P/share/logdev/module-template/Makefile" &&
	grep -q "^LOGDEV_PREFIX ?= $prefix\$" "$P/share/logdev/module-template/Makefile" &&
	pass "the installed template's Makefile names PREFIX ($prefix)" ||
	fail "the installed template's Makefile does not set LOGDEV_PREFIX ?= $prefix"

# the static reader: no program interpreter, and it runs
if readelf -l "$P/bin/logdev.static" 2>/dev/null | grep -q 'Requesting program interpreter'; then
	fail "$prefix/bin/logdev.static is dynamically linked"
else
	got=$("$P/bin/logdev.static" --version 2>&1 | head -n 1)
	case "$got" in *"$version"*) pass "$prefix/bin/logdev.static is static and runs (--version: $got)" ;;
	*) fail "$prefix/bin/logdev.static --version says '$got' (want $version)" ;; esac
fi
# the man page reads as one (man -l), and the completion completes the installed reader's verbs
if command -v man > /dev/null; then
	MANWIDTH=80 man -l "$P/share/man/man1/logdev.1" 2>/dev/null | grep -q '^EXIT STATUS' &&
		pass "man -l shows the installed logdev(1)" ||
		fail "man -l $prefix/share/man/man1/logdev.1 does not render an EXIT STATUS section"
fi
got=$(bash -c 'source "$1" && COMP_WORDS=("$2" de) && COMP_CWORD=1 && _logdev && echo "${COMPREPLY[*]}"' \
	_ "$P/share/bash-completion/completions/logdev" "$P/bin/logdev" 2>&1)
[ "$got" = "deltas" ] && pass "the installed bash completion completes 'logdev de' to deltas" ||
	fail "the installed completion gives '$got' for 'logdev de' (want deltas)"
# the trace-cmd plugin, where libtraceevent looks (tools/traceevent-plugin/Makefile)
pl=$(make -s -C "$top/tools/traceevent-plugin" print-plugin-dir DESTDIR="$dest")/plugin_logdev.so
[ -f "$pl" ] && pass "plugin_logdev.so installed in ${pl#$dest}" ||
	fail "plugin_logdev.so not installed in ${pl#$dest} (libtraceevent-dev missing? tools/deps.sh)"

# the module: logdev.ko only, in updates/ of its kernel, for that kernel
kos=$(cd "$dest" && find . -name '*.ko' | sort | tr '\n' ' ')
[ "$kos" = "./lib/modules/$kver/updates/logdev.ko " ] &&
	pass "the modules directory gets logdev.ko only (/lib/modules/$kver/updates/logdev.ko)" ||
	fail "modules installed: '$kos' (want ./lib/modules/$kver/updates/logdev.ko only)"
ko=$dest/lib/modules/$kver/updates/logdev.ko
[ "$(vermagic "$ko")" = "$kver" ] && pass "installed logdev.ko has vermagic $kver" ||
	fail "installed logdev.ko has vermagic '$(vermagic "$ko")' (want $kver)"
sv=$P/lib/logdev/$kver/Module.symvers
want=$(symvers_crc "$top/build/kmod/$kver/kernel/Module.symvers" __logdev_print)
[ -n "$want" ] && [ "$(symvers_crc "$sv" __logdev_print)" = "$want" ] &&
	pass "lib/logdev/$kver/Module.symvers is the build's (__logdev_print $want)" ||
	fail "lib/logdev/$kver/Module.symvers: __logdev_print '$(symvers_crc "$sv" __logdev_print)' (build: '$want')"
# what make install says: another kernel than the running one; unsigned module
if [ "$(uname -r)" != "$kver" ]; then
	grep -q "for kernel $kver (KDIR=$kdir), not for the running kernel $(uname -r)" "$tmp/log" &&
		pass "make install says it builds and installs for $kver, not the running $(uname -r)" ||
		fail "make install for $kver on a machine running $(uname -r) does not say so"
else
	! grep -q "not for the running kernel" "$tmp/log" &&
		pass "make install for the running kernel gives no other-kernel note" ||
		fail "make install for the running kernel $kver says it is another kernel"
fi
grep -q "logdev.ko is not signed" "$tmp/log" && grep -q "SIGN_KEY=key.pem SIGN_CERT=cert.der" "$tmp/log" &&
	pass "make install explains the unsigned module (taint message, Secure Boot, SIGN_KEY/SIGN_CERT, DKMS)" ||
	fail "make install gives no note on the unsigned logdev.ko"
! grep -qi "SSL error\|sign-file.*No such file\|signing_key" "$tmp/log" &&
	pass "make install shows no signing error" ||
	fail "make install shows a signing error: $(grep -i -m 1 'SSL error\|sign-file\|signing_key' "$tmp/log")"
grep -q "DESTDIR set: no depmod" "$tmp/log" && pass "make install DESTDIR=... runs no depmod and says so" ||
	fail "make install DESTDIR=... does not say it skipped depmod"

# a module author's module: the installed template, built from the installed
# files alone (LOGDEV_PREFIX into DESTDIR), against this source tree never
cp -r "$P/share/logdev/module-template" "$tmp/mod"
if make -C "$tmp/mod" KDIR="$kdir" LOGDEV_PREFIX="$P" > "$tmp/mod.log" 2>&1 && [ -f "$tmp/mod/hello_logdev.ko" ]; then
	dep=$(modinfo -F depends "$tmp/mod/hello_logdev.ko" 2>/dev/null)
	[ "$dep" = logdev ] && pass "the installed template builds from the installed files (depends: logdev)" ||
		fail "the template module built but depends on '$dep', not logdev"
	refs=$(grep -l "$top/" "$tmp"/mod/.*.cmd 2>/dev/null | tr '\n' ' ')
	[ -z "$refs" ] && pass "the template module's build used no file of the source tree" ||
		fail "the template module's build names the source tree in: $refs"
	[ "$(crc "$tmp/mod/hello_logdev.ko" __logdev_print)" = "$want" ] &&
		pass "the template module's CRC of __logdev_print is the installed logdev.ko's ($want)" ||
		fail "the template module's CRC of __logdev_print is '$(crc "$tmp/mod/hello_logdev.ko" __logdev_print)' (logdev.ko: '$want')"
else
	fail "the installed template does not build: $(grep -m 3 -E 'error|rror:|No such' "$tmp/mod.log" | tr '\n' '|')"
fi
# no Module.symvers for the kernel: the template says where it looked
got=$(make -C "$tmp/mod" KDIR="$kdir" LOGDEV_PREFIX="$tmp/nowhere" LOGDEV_DKMS_TREE="$tmp/nowhere" 2>&1)
case "$got" in *"no logdev Module.symvers for $kver"*) pass "the template without logdev's Module.symvers says where it looked" ;;
*) fail "the template without Module.symvers: '$(echo "$got" | tail -n 2 | tr '\n' '|')'" ;; esac

# a signed install: SIGN_KEY/SIGN_CERT through the kernel's sign-file
if command -v openssl > /dev/null; then
	openssl req -new -x509 -nodes -days 1 -subj "/CN=logdev install test" -newkey rsa:2048 \
		-keyout "$tmp/key.pem" -outform DER -out "$tmp/cert.der" > /dev/null 2>&1
	if make -C "$top" install-module DESTDIR="$tmp/signed" KVER="$kname" \
		SIGN_KEY="$tmp/key.pem" SIGN_CERT="$tmp/cert.der" > "$tmp/sign.log" 2>&1; then
		got=$(modinfo -F signer "$tmp/signed/lib/modules/$kver/updates/logdev.ko" 2>/dev/null)
		[ "$got" = "logdev install test" ] && pass "make install SIGN_KEY= SIGN_CERT= signs logdev.ko (signer: $got)" ||
			fail "make install SIGN_KEY= SIGN_CERT=: signer '$got' (want 'logdev install test')"
		! grep -q "logdev.ko is not signed" "$tmp/sign.log" && pass "a signed install gives no unsigned note" ||
			fail "a signed install still says logdev.ko is not signed"
	else
		fail "make install-module SIGN_KEY= SIGN_CERT= failed: $(tail -n 3 "$tmp/sign.log" | tr '\n' '|')"
	fi
else
	fail "no openssl (tools/deps.sh): the signed install is not checked"
fi
# a KDIR that is no kernel build tree: refused, and nothing installed
if make -C "$top" install-module DESTDIR="$tmp/bad" KDIR="$tmp/nowhere" > "$tmp/bad.log" 2>&1; then
	fail "make install-module KDIR=<no kernel tree> succeeded"
else
	grep -q "KDIR=$tmp/nowhere is no kernel build tree" "$tmp/bad.log" && [ ! -e "$tmp/bad" ] &&
		pass "make install-module KDIR=<no kernel tree> is refused with the reason, nothing installed" ||
		fail "make install-module KDIR=<no kernel tree>: '$(tail -n 2 "$tmp/bad.log" | tr '\n' '|')', installed: $(find "$tmp/bad" -type f 2>/dev/null | head -n 3)"
fi

# ---- the VM: the installed logdev.ko and static reader, the template module
n=100
if "$top/tools/vm/run.sh" --kver "$kver" --smp 2 --timeout "${VM_TIMEOUT:-180}" \
	--script "$top/tests/vm/guest-install.sh" --args "$n" \
	--files "$ko $tmp/mod/hello_logdev.ko $P/bin/logdev.static" --out "$tmp/vm" 2> "$tmp/vm.runlog"; then
	pass "install-vm: VM ran ($(grep -o '[0-9.]*s, results' "$tmp/vm.runlog" | cut -d, -f1))"
	grep -a '^PASS: \|^FAIL: ' "$tmp/vm/guest.log" | tr -d '\r'
	grep -aq '^FAIL: ' "$tmp/vm/guest.log" && failed=1
	# the kernel's own words for an unsigned module, which make install's note quotes
	grep -aq 'logdev: module verification failed: signature and/or required key missing - tainting kernel' \
		"$tmp/vm/dmesg.txt" && grep -q 'module verification failed: signature and/or$' "$tmp/log" &&
		pass "install-vm: the unsigned logdev.ko logs what make install's note says (module verification failed ... tainting kernel)" ||
		fail "install-vm: the kernel's message on the unsigned logdev.ko is not the note's: $(grep -a 'logdev:' "$tmp/vm/dmesg.txt" | head -n 2 | tr '\n' '|')"
	"$P/bin/logdev" report "$tmp/vm/hello.cap" > "$tmp/report.txt" 2> "$tmp/report.err"
	rc=$?
	[ $rc = 0 ] && pass "install-vm: the installed reader reads the capture (exit 0)" ||
		fail "install-vm: logdev report exits $rc: $(head -n 2 "$tmp/report.err" | tr '\n' '|')"
	# every "hello i", i = 0..n-1, in order, from the template's init
	got=$(awk -v n=$n '/ hello_logdev_init:[0-9]+ hello [0-9]+/ {
			for (f = 1; f <= NF; f++) if ($f ~ /^hello_logdev_init:/) break
			if ($(f + 2) != k) { bad = bad " " $(f + 2) "@" k } ; k++ }
		END { print k " " (bad == "" ? "in-order" : "out-of-order:" substr(bad, 1, 60)) }' "$tmp/report.txt")
	[ "$got" = "$n in-order" ] &&
		pass "install-vm: the template module's $n records 'hello 0' .. 'hello $((n - 1))' recorded, in order" ||
		fail "install-vm: want '$n in-order' hello_logdev_init records, got '$got': $(head -n 3 "$tmp/report.txt" | tr '\n' '|')"
else
	fail "install-vm: VM run failed (rc $?): $(head -n 4 "$tmp/vm.runlog" | tr '\n' '|') guest: $(grep -a '^FAIL' "$tmp/vm/guest.log" 2>/dev/null | head -n 3 | tr '\n' '|')"
fi

# ---- every kernel of the matrix: make install-module KVER=NAME and the
# installed template built for it, where that kernel builds (kernel.sh run)
for k in $kernels; do
	eval "$("$top/tools/kernels/kernel.sh" env "$k")" || { fail "$k: no such kernel"; continue; }
	m=$tmp/kv-$k
	if ! make -C "$top" install-module DESTDIR="$m/root" KVER="$k" > "$m.log" 2>&1; then
		fail "$k: make install-module KVER=$k failed: $(grep -m 3 -E 'rror|failed' "$m.log" | tr '\n' '|')"
		continue
	fi
	ko=$m/root/lib/modules/$KVER/updates/logdev.ko
	[ "$(vermagic "$ko")" = "$KVER" ] && pass "$k: make install-module KVER=$k installs logdev.ko for $KVER" ||
		fail "$k: installed logdev.ko has vermagic '$(vermagic "$ko")' (want $KVER)"
	# the template, from this tree's template against that install
	mkdir -p "$m/mod" "$m/prefix/lib/logdev/$KVER" "$m/prefix/include/logdev"
	cp "$P"/share/logdev/module-template/* "$m/mod/"
	cp -r "$P/include/logdev/." "$m/prefix/include/logdev/"
	cp "$m/root$prefix/lib/logdev/$KVER/Module.symvers" "$m/prefix/lib/logdev/$KVER/"
	kc=$(symvers_crc "$m/prefix/lib/logdev/$KVER/Module.symvers" __logdev_print)
	if "$top/tools/kernels/kernel.sh" run "$k" -C "$m/mod" -- make KDIR="$KDIR" LOGDEV_PREFIX="$m/prefix" \
		> "$m/mod.log" 2>&1 && [ -f "$m/mod/hello_logdev.ko" ]; then
		got=$(template_bound "$m/mod/hello_logdev.ko" "$m/mod.log" "$kc" "$KVER" "$KDIR") &&
			pass "$k: the installed template builds for $KVER ($got)" ||
			fail "$k: the template for $KVER: $got"
	else
		fail "$k: the installed template does not build for $KVER: $(grep -m 3 -E 'rror|symvers' "$m/mod.log" | tr '\n' '|')"
	fi
done

# ---- make uninstall: no file left
if make -C "$top" uninstall DESTDIR="$dest" PREFIX="$prefix" KVER="$kname" > "$tmp/un.log" 2>&1; then
	left=$(cd "$dest" && find . -type f | head -n 5 | tr '\n' ' ')
	[ -z "$left" ] && pass "make uninstall removes every file make install put there" ||
		fail "make uninstall left: $left"
else
	fail "make uninstall failed: $(tail -n 3 "$tmp/un.log" | tr '\n' '|')"
fi

# ---- make dkms-install into private trees, for every kernel of the matrix
if ! command -v dkms > /dev/null; then
	fail "dkms: no dkms (tools/deps.sh installs it)"
else
	d=$tmp/dkms
	mkdir -p "$d/tree" "$d/inst" "$d/mok"
	rels=
	for k in $kernels; do
		eval "$("$top/tools/kernels/kernel.sh" env "$k")"
		rels="$rels $KVER"
		mkdir -p "$d/inst/$KVER"
	done
	# DKMS signs with its MOK key (made on first use): a private one here
	if env mok_signing_key="$d/mok/mok.key" mok_certificate="$d/mok/mok.pub" modprobe_on_install= \
		make -C "$top" dkms-install DESTDIR="$d/root" DKMS_KERNELS="$kernels" \
		DKMS_FLAGS="--dkmstree $d/tree --installtree $d/inst --no-depmod" > "$d/log" 2>&1; then
		pass "dkms: make dkms-install (dkms add, build, install) for$rels"
	else
		fail "dkms: make dkms-install failed: $(grep -a -m 4 -i 'error\|bad\|fail' "$d/log" | tr '\n' '|')"
	fi
	src=$d/root/usr/src/logdev-$version
	[ -f "$src/dkms.conf" ] && grep -q "^PACKAGE_VERSION=\"$version\"" "$src/dkms.conf" &&
		[ ! -e "$src/kernel/test" ] && [ -f "$src/kernel/logdev_main.c" ] &&
		pass "dkms: sources in /usr/src/logdev-$version (dkms.conf version $version, no test modules)" ||
		fail "dkms: /usr/src/logdev-$version: dkms.conf $(grep PACKAGE_VERSION "$src/dkms.conf" 2>/dev/null), kernel/: $(ls "$src/kernel" 2>/dev/null | head -n 3 | tr '\n' ' ')"
	for k in $kernels; do
		eval "$("$top/tools/kernels/kernel.sh" env "$k")"
		m=$d/inst/$KVER/updates/dkms/logdev.ko
		kos=$(cd "$d/inst/$KVER" && find . -name '*.ko' | tr '\n' ' ')
		[ "$kos" = "./updates/dkms/logdev.ko " ] && pass "dkms: $KVER gets logdev.ko only, in updates/dkms/" ||
			fail "dkms: $KVER got '$kos' (want ./updates/dkms/logdev.ko)"
		[ "$(vermagic "$m")" = "$KVER" ] && pass "dkms: logdev.ko for $KVER has vermagic $KVER ($(modinfo -F vermagic "$m" | cut -d' ' -f2-))" ||
			fail "dkms: logdev.ko for $KVER has vermagic '$(vermagic "$m")'"
		got=$(modinfo -F signer "$m" 2>/dev/null)
		[ "$got" = "DKMS module signing key" ] && pass "dkms: logdev.ko for $KVER signed with DKMS's MOK key" ||
			fail "dkms: logdev.ko for $KVER: signer '$got' (want DKMS module signing key)"
		sv=$d/tree/logdev/kernel-$KVER-$arch/Module.symvers
		kc=$(symvers_crc "$sv" __logdev_print)
		[ -n "$kc" ] && pass "dkms: Module.symvers of $KVER kept in the DKMS tree (kernel-$KVER-$arch/)" ||
			fail "dkms: no Module.symvers with __logdev_print in DKMS's kernel-$KVER-$arch/"
		# the template finds it there (LOGDEV_PREFIX has none: dkms-install puts no module)
		rm -rf "$d/mod"
		cp -r "$d/root$prefix/share/logdev/module-template" "$d/mod"
		if "$top/tools/kernels/kernel.sh" run "$k" -C "$d/mod" -- make KDIR="$KDIR" LOGDEV_PREFIX="$d/root$prefix" \
			LOGDEV_DKMS_TREE="$d/tree" > "$d/mod.log" 2>&1; then
			got=$(template_bound "$d/mod/hello_logdev.ko" "$d/mod.log" "$kc" "$KVER" "$KDIR") &&
				pass "dkms: the template builds for $KVER against DKMS's Module.symvers ($got)" ||
				fail "dkms: the template for $KVER: $got"
		else
			fail "dkms: the template does not build for $KVER: $(grep -m 3 -E 'rror|symvers' "$d/mod.log" | tr '\n' '|')"
		fi
	done
	n=$(echo $kernels | wc -w)
	st=$(dkms status --dkmstree "$d/tree" --sourcetree "$d/root/usr/src" --installtree "$d/inst" logdev 2>&1)
	[ "$(echo "$st" | grep -c ': installed')" = "$n" ] && pass "dkms: dkms status shows logdev/$version installed for the $n kernels" ||
		fail "dkms: dkms status (want $n installed): $(echo "$st" | tr '\n' '|')"
	if make -C "$top" dkms-uninstall DESTDIR="$d/root" \
		DKMS_FLAGS="--dkmstree $d/tree --installtree $d/inst --no-depmod" > "$d/un.log" 2>&1; then
		left=$(find "$d/inst" "$d/tree" -name '*.ko' | head -n 3 | tr '\n' ' ')
		[ -z "$left" ] && [ ! -e "$src" ] && pass "dkms: make dkms-uninstall removes the modules and the sources" ||
			fail "dkms: make dkms-uninstall left: $left $( [ -e "$src" ] && echo "$src")"
	else
		fail "dkms: make dkms-uninstall failed: $(tail -n 3 "$d/un.log" | tr '\n' '|')"
	fi
fi
exit $failed
