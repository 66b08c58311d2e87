// SPDX-License-Identifier: GPL-2.0
/*
 * areasyms.c: the symbols of the boot that wrote a flight-recorder area
 * (lgd_area.h; layer: library).  The area keeps that kernel's build-id and
 * the run-time address of its _stext (KASLR), not its symbols: vmlinux's
 * come from a symbol text of the same build (its /proc/kallsyms saved while
 * it ran, the System.map of its debug package, or this boot's
 * /proc/kallsyms when the build-ids match), each address moved by the
 * difference of the two _stext, and written as the KALLSYMS section a
 * recording has.  The modules' come from the area's own map (area.c).
 * Lines are read with the capture reader's own kallsyms line parser
 * (meta.h); nothing here resolves an address (ksyms.c does, on the
 * capture).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "meta.h"

/* Debian's /boot/System.map-*: one line naming the package with the real one */
static int placeholder_map(const char *src, size_t len)
{
	static const char key[] = "The real System.map is in";

	return len < 4096 && memmem(src, len, key, sizeof(key) - 1) != NULL;
}

/* an absolute symbol (per-CPU offsets, A/a): not moved by KASLR */
static int absolute(char type)
{
	return type == 'A' || type == 'a';
}

int lgd_area_vmlinux_syms(const struct lgd_area *a, const char *src, size_t len,
			  struct lgd_area_syms *out, struct lgd_diag *d)
{
	const char *p = src, *end = src + len, *l;
	char type, name[LGD_KSYM_NAME_LEN], mod[LGD_KMOD_NAME_LEN];
	uint64_t addr, stext = 0, shift;
	int have_stext = 0, nonzero = 0;
	size_t ll, nr = 0;
	FILE *f;

	out->text = NULL;
	out->len = 0;
	out->nr = 0;
	out->shift = 0;
	if (placeholder_map(src, len))
		return lgd_diag_set(d, -ENOENT, -1, "a placeholder System.map with no symbols (\"The real "
			     "System.map is in the linux-image-<version>-dbg package\"): give "
			     "the System.map of that package, or the /proc/kallsyms saved "
			     "while that kernel ran");
	while ((l = lgd_next_line(&p, end, &ll))) {
		if (!lgd_ksym_line(l, ll, &addr, &type, name, mod) || mod[0])
			continue;
		nonzero |= addr != 0;
		if (!have_stext && !strcmp(name, "_stext")) {
			stext = addr;
			have_stext = 1;
		}
	}
	/* no _stext first: an empty or text file has no addresses at all */
	if (!have_stext)
		return lgd_diag_set(d, -ENOENT, -1, "no _stext symbol: not a /proc/kallsyms or System.map "
			     "of a kernel");
	if (!nonzero)
		return lgd_diag_set(d, -EPERM, -1, "every vmlinux address is 0 (read without root, or "
			     "kptr_restrict): read /proc/kallsyms as root");
	if (!a->hdr.text_addr)
		return lgd_diag_set(d, -ENODATA, -1, "the area does not say where that boot's _stext was "
			     "(text_addr unknown: a kernel without vmcoreinfo): its vmlinux "
			     "addresses cannot be placed");
	shift = a->hdr.text_addr - stext;	/* modulo 2^64: a move down too */
	f = open_memstream(&out->text, &out->len);
	if (!f)
		return lgd_diag_set(d, -ENOMEM, -1, "out of memory");
	for (p = src; (l = lgd_next_line(&p, end, &ll));) {
		if (!lgd_ksym_line(l, ll, &addr, &type, name, mod) || mod[0])
			continue;
		fprintf(f, "%016" PRIx64 " %c %s\n", absolute(type) ? addr : addr + shift, type,
			name);
		nr++;
	}
	if (fclose(f)) {
		free(out->text);
		out->text = NULL;
		out->len = 0;
		return lgd_diag_set(d, -ENOMEM, -1, "out of memory");
	}
	out->nr = nr;
	out->shift = (int64_t)shift;
	return 0;
}

void lgd_area_syms_free(struct lgd_area_syms *s)
{
	free(s->text);
	s->text = NULL;
	s->len = 0;
}

/* a little-endian u32 at @p */
static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int lgd_build_id_note(const uint8_t *p, size_t n, char *hex, size_t hexlen)
{
	size_t off = 0;

	while (n - off >= 12) {
		uint64_t namesz = le32(p + off), descsz = le32(p + off + 4);
		uint32_t type = le32(p + off + 8);
		uint64_t name_at = off + 12, desc_at = name_at + ((namesz + 3) & ~3ull);
		uint64_t next = desc_at + ((descsz + 3) & ~3ull);

		if (next > n)
			return -EINVAL;
		if (type == 3 && namesz == 4 && !memcmp(p + name_at, "GNU", 4)) {
			if (hexlen < 2 * descsz + 1)
				return -ENOSPC;
			for (uint64_t i = 0; i < descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", p[desc_at + i]);
			hex[2 * descsz] = 0;
			return 0;
		}
		off = (size_t)next;
	}
	return -ENOENT;
}

int lgd_area_needs_syms(const struct lgd_area *a)
{
	if (a->text != LGD_AREA_TEXT_OK && a->text != LGD_AREA_TEXT_OLDER)
		return 0;
	return lgd_formats_need_ksyms(a->text_p, a->text_len);
}
