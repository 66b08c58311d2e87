// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_vbin.c - a printf record's arguments in the record format: the
 * vbin packer of __logdev_print() (logdev_record.c), which lays out the
 * arguments of a format as Linux 6.1's vbin_printf() does on every kernel
 * (docs/FORMAT.md), then cuts what does not fit a record and hashes the
 * plain %p pointers as the kernel's own "%p" prints them.  Walks each
 * format with edp_fmt_next() (include/linux/edprint_fmt.h), the one walker
 * of the printf grammar.
 *
 * Layer: recording core (logdev_core.h); called by logdev_record.c only.
 * No locks, no allocation: any context, NMI included.  The only text it
 * makes is the kernel's own, by snprintf(): pointer extensions (%pI4...)
 * and the hash of a plain %p.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include "logdev_compat.h"	/* get_unaligned(), put_unaligned() */
#include "logdev_core.h"

/*
 * The pointer stored at @p (8 bytes, 4-aligned: vbin_printf()'s layout) of
 * a plain %p, %pK or %pe becomes what the kernel's own "%p" prints for it
 * (lib/vsprintf.c ptr_to_id(), default_pointer()): NULL and error pointers
 * unchanged, else the 32-bit siphash of the kernel's boot key, or the raw
 * value under the no_hash_pointers boot option; LOGDEV_PTR_NOKEY where the
 * kernel prints "(____ptrval____)" (key not ready yet).  %pK is hashed
 * whatever kptr_restrict says (never more than %p shows).  snprintf()'s %p
 * takes no lock and allocates nothing (a READ_ONCE of the key's flag, then
 * siphash): any context, NMI included.
 */
static void notrace ld_hash_ptr(u8 *p)
{
	char text[24];
	u64 v = get_unaligned((u64 *)p), h;

	if (IS_ERR_OR_NULL((void *)(unsigned long)v))
		return;
	snprintf(text, sizeof(text), "%p", (void *)(unsigned long)v);
	if (kstrtou64(text, 16, &h))
		h = LOGDEV_PTR_NOKEY;
	put_unaligned(h, (u64 *)p);
}

/* ld_vbin_walk(): a '*' argument, an int; the walk ends before it if it does not fit */
#define LD_CUT_INT() do {						\
	off = ALIGN(off, 4);						\
	(void)va_arg(ap, int);						\
	if (off + 4 > end)						\
		return off;						\
	off += 4;							\
} while (0)

/*
 * The string a %s argument @s stands for, as vbin_printf() reads it
 * (lib/vsprintf.c, check_pointer_msg()): "(null)" for NULL, "(efault)" for
 * a pointer into the first page or an error value, else @s.
 */
static __always_inline const char *ld_vbin_str(const char *s)
{
	if (!s)
		return "(null)";
	if ((unsigned long)s < PAGE_SIZE || IS_ERR_VALUE(s))
		return "(efault)";
	return s;
}

/**
 * ld_vbin_walk() - cut a packed payload to a record, hash its plain pointers
 * @buf: the arguments ld_vbin_pack() packed for @fmt from @ap
 * @fmt: the format
 * @ap:  the arguments again (a copy of those packed)
 * @end: bytes the record may hold
 *
 * Walks @fmt over @buf in ld_vbin_pack()'s layout (lib/vsprintf.c: numbers aligned to min(size, 4), strings and
 * pointer texts NUL-terminated, unaligned), up to @end bytes, hashing the
 * plain %p, %pK and %pe pointers on the way (ld_hash_ptr()).
 * For a cut record (@end LOGDEV_MAX_PAYLOAD: the packer needed more than
 * that in a scratch buffer larger than that, whose first @end bytes hold the
 * arguments laid out as if nothing were cut, except a %s that crossed the
 * scratch end) it also finds where the arguments that fit end; a %s or
 * pointer text (%pI4...) that does not fit with its NUL is kept as the
 * prefix that does, NUL-terminated at the last byte (the reader's cut mark
 * goes there).
 *
 * Return: payload bytes to keep: @end if a string or pointer text ends
 * there (cut, or whole with its NUL last), else the offset of the first
 * argument left out, or of the end of the arguments.
 */
u32 notrace ld_vbin_walk(u8 *buf, const char *fmt, va_list ap, u32 end)
{
	u32 off = 0, size, len;
	struct edp_piece pc;
	enum edp_kind k;
	const char *s;
	bool hash;
	int prec;

	while ((k = edp_fmt_next(&fmt, &pc)) != EDP_END) {
		if (k == EDP_TEXT)
			continue;
		if (pc.sp.wstar)	/* width argument: an int */
			LD_CUT_INT();
		prec = pc.sp.prec;
		if (pc.sp.pstar) {	/* precision argument: an int */
			off = ALIGN(off, 4);
			prec = va_arg(ap, int);
			if (off + 4 > end)
				return off;
			off += 4;
		}
		switch (k) {
		case EDP_PCT:
			continue;
		case EDP_STR:
			s = ld_vbin_str(va_arg(ap, const char *));
			if (off >= end)
				return end;
			/* as stored by ld_vbin_pack(): never past the precision */
			len = strnlen(s, prec >= 0 && (u32)prec < end - off ? prec : end - off);
			if (off + len + 1 < end) {	/* stored by ld_vbin_pack() */
				off += len + 1;
				continue;
			}
			memcpy(buf + off, s, end - off - 1);
			buf[end - 1] = '\0';
			return end;
		case EDP_PTR_TEXT:
			(void)va_arg(ap, void *);
			if (off >= end)
				return end;
			len = strnlen((const char *)buf + off, end - off);
			if (off + len + 1 >= end) {	/* its NUL is last, or cut */
				buf[end - 1] = '\0';
				return end;
			}
			off += len + 1;
			continue;
		case EDP_PTR:
			(void)va_arg(ap, void *);
			hash = !isalnum(pc.ext) || pc.ext == 'K' || pc.ext == 'e';
			break;
		case EDP_INT:
			if (pc.size == 8)
				(void)va_arg(ap, unsigned long long);
			else
				(void)va_arg(ap, int);
			hash = false;
			break;
		default:	/* vbin_printf() stops here too */
			return min(off, end);
		}
		size = pc.size;
		off = ALIGN(off, min_t(u32, size, 4));
		if (off + size > end)
			return off;
		if (hash)
			ld_hash_ptr(buf + off);
		off += size;
	}
	return min(off, end);
}

/* a number of @size bytes (1, 2, 4 or 8) at @buf + @off, if it fits @cap */
static void notrace ld_vbin_put(u8 *buf, u32 cap, u32 off, u64 v, u32 size)
{
	if (off + size > cap)
		return;
	if (size == 1)
		buf[off] = (u8)v;
	else if (size == 2)
		put_unaligned((u16)v, (u16 *)(buf + off));
	else if (size == 4)
		put_unaligned((u32)v, (u32 *)(buf + off));
	else
		memcpy(buf + off, &v, 8);
}

/*
 * The text of the pointer extension @pc (%pI4...: not kept as a pointer)
 * of @ptr, with its @nstar '*' arguments @star, at @buf + @off by the
 * kernel's own snprintf(), cut at @cap.  Return: its length without the
 * NUL, or -EINVAL for an extension longer than any the kernel has.
 */
static int notrace ld_vbin_ptr_text(u8 *buf, u32 cap, u32 off,
				    const struct edp_piece *pc, const int *star,
				    int nstar, void *ptr)
{
	char *o = off < cap ? (char *)buf + off : NULL;
	u32 room = off < cap ? cap - off : 0;
	char f[32];

	if (pc->end - pc->start >= (long)sizeof(f))
		return -EINVAL;	/* no such extension */
	memcpy(f, pc->start, pc->end - pc->start);
	f[pc->end - pc->start] = '\0';
	if (nstar == 2)
		return snprintf(o, room, f, star[0], star[1], ptr);
	if (nstar == 1)
		return snprintf(o, room, f, star[0], ptr);
	return snprintf(o, room, f, ptr);
}

/**
 * ld_vbin_pack() - a printf record's payload
 * @bin:        where to pack, zeroed
 * @size_words: its size in 4-byte words
 * @fmt:        the format
 * @ap:         its arguments
 *
 * Packs the arguments of @fmt into @size_words words at @bin in the layout of
 * a LOGDEV_REC_PRINT payload (docs/FORMAT.md; see ld_vbin_walk(): '*'
 * arguments and numbers aligned to min(size, 4), sizes by
 * edp_fmt_int_size(), plain %p, %pS, %ps, %px, %pK, %pe as 8 bytes, other
 * pointer extensions as their text, NUL-terminated, like strings): the
 * layout of Linux 6.1's vbin_printf(), kept by logdev on every kernel (7.x's
 * vbin_printf() stores %hh and %h as ints).  Unlike vbin_printf(), a %s
 * stops at its precision (vbin_printf() reads it to its NUL: past the end of
 * an array without one, which printk() allows).  What does not fit is
 * skipped as vbin_printf() does: a string or pointer text whose NUL would
 * not fit before the end, a number past it; the offsets go on.  The pointer
 * texts come from snprintf(), i.e. from the kernel's own pointer().
 * Return: the words the arguments need, as vbin_printf().
 */
int notrace ld_vbin_pack(u32 *bin, u32 size_words, const char *fmt, va_list ap)
{
	u8 *buf = (u8 *)bin;
	u32 cap = size_words * sizeof(u32), off = 0, len;
	int star[2], nstar, prec, n, k;
	struct edp_piece pc;
	const char *s;
	u64 v;

	while (edp_fmt_next(&fmt, &pc) != EDP_END) {
		if (pc.kind == EDP_TEXT)
			continue;
		nstar = 0;
		if (pc.sp.wstar)
			star[nstar++] = va_arg(ap, int);
		prec = pc.sp.prec;
		if (pc.sp.pstar) {
			prec = va_arg(ap, int);
			star[nstar++] = prec;
		}
		for (k = 0; k < nstar; k++) {	/* '*' arguments: ints */
			off = ALIGN(off, 4);
			ld_vbin_put(buf, cap, off, (u32)star[k], 4);
			off += 4;
		}
		switch (pc.kind) {
		case EDP_PCT:
			continue;
		case EDP_STR:
			s = ld_vbin_str(va_arg(ap, const char *));
			len = prec >= 0 ? strnlen(s, prec) : strlen(s);
			if (off + len + 1 < cap) {	/* as vbin_printf() */
				memcpy(buf + off, s, len);
				buf[off + len] = '\0';
			}
			off += len + 1;
			continue;
		case EDP_PTR_TEXT:
			n = ld_vbin_ptr_text(buf, cap, off, &pc, star, nstar,
					     va_arg(ap, void *));
			if (n < 0)
				goto out;
			off += n + 1;
			continue;
		case EDP_PTR:
			v = (unsigned long)va_arg(ap, void *);
			break;
		case EDP_INT:
			if (pc.size == 8)
				v = va_arg(ap, unsigned long long);
			else
				v = (unsigned int)va_arg(ap, int);
			break;
		default:	/* vbin_printf() stops here too */
			goto out;
		}
		off = ALIGN(off, min_t(u32, pc.size, 4));
		ld_vbin_put(buf, cap, off, v, pc.size);
		off += pc.size;
	}
out:
	return ALIGN(off, 4) / sizeof(u32);
}
